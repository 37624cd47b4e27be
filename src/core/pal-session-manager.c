/* pal-session-manager.c: agent processes and live sessions for the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-live-session-private.h"

/**
 * PalSessionManager:
 *
 * Opens sessions and keeps them live: the window and the sidebar bind to
 * the #PalLiveSession objects it hands out, and through them to the
 * #AcpSession of each.
 *
 * Agents: one process per (agent profile, project folder), running in that
 * folder and shared by its live sessions (see pal-session-manager-agents.c).
 *
 * Sessions are named by their #PalSessionKey, (agent profile, session id):
 * the id is the agent's, and two agents may hand out the same one.
 *
 * Live sessions: at most one #PalLiveSession per session. It appears in
 * #PalSessionManager:live-sessions when a session is created or starts
 * opening, and stays while it is open, and also after it FAILED (the agent
 * died, or it could not be opened) so that its transcript can still be
 * shown; it goes when it is closed or forgotten. Its #PalLiveSession:state
 * is computed here (see pal-live-session-private.h for what the manager
 * keeps in it), and its #PalLiveSession:session is the #AcpSession that
 * stands for the session now: it is set before a load starts, so that a
 * replay fills a view bound to it while it loads, and re-opening a failed
 * session sets a new one. Nothing else tells: widgets bind to the live
 * session, and the list model says when one comes or goes.
 *
 * The session store is kept in step: a created session is added, an opened
 * session that only the agent listed becomes stored, the title follows the
 * agent's session_info_update or else the first line of the first prompt,
 * and the updated time moves when a turn starts and when it ends. Nothing is
 * written for streamed chunks.
 *
 * Errors: an agent's error stays an %ACP_ERROR with the agent's code, message
 * and data (a dead agent's error carries its exit status and stderr tail); in
 * particular "authentication required" (-32000) from session/new or a prompt,
 * see pal_session_manager_error_is_auth_required(). Local refusals are
 * %PAL_ERROR: %PAL_ERROR_NOT_FOUND (unknown profile or session, session not
 * open), %PAL_ERROR_INVALID (bad folder or profile), %PAL_ERROR_NOT_SUPPORTED
 * (the agent did not advertise what the operation needs; nothing is sent).
 */

G_DEFINE_FINAL_TYPE (PalSessionManager, pal_session_manager, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_AGENT_STORE,
  PROP_SESSION_STORE,
  PROP_MCP_SERVER_STORE,
  PROP_PACER,
  PROP_LIVE_SESSIONS,
  PROP_TRANSCRIPT_STORE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* the PalSessionKey an AcpSession of this manager stands for */
static GQuark
session_key_quark (void)
{
  return g_quark_from_static_string ("pal-session-manager-key");
}

/* live sessions {{{ */

gboolean
_pal_session_is_open (AcpSession *session)
{
  AcpSessionState state = acp_session_get_state (session);

  return state == ACP_SESSION_STATE_READY || state == ACP_SESSION_STATE_PROMPTING;
}

/* Lets go of the session object's signals. */
static void
live_disconnect (PalLiveSession *live)
{
  if (live->session == NULL)
    return;

  g_clear_signal_handler (&live->state_id, live->session);
  g_clear_signal_handler (&live->permissions_id, live->session);
  g_clear_signal_handler (&live->cancelling_id, live->session);
  g_clear_signal_handler (&live->title_id, live->session);
}

/* The table's destroy function. */
static void
live_detach (gpointer data)
{
  PalLiveSession *live = data;

  live->manager = NULL;
  live_disconnect (live);
  g_object_unref (live);
}

static PalSessionState
live_compute_state (PalLiveSession *live)
{
  if (live->starting_agent)
    return PAL_SESSION_STATE_STARTING_AGENT;

  if (live->session == NULL)
    return live->open_error != NULL ? PAL_SESSION_STATE_FAILED : PAL_SESSION_STATE_NOT_RUNNING;

  switch (acp_session_get_state (live->session))
    {
    case ACP_SESSION_STATE_NEW:
      if (live->opening)
        return PAL_SESSION_STATE_LOADING;
      return live->open_error != NULL ? PAL_SESSION_STATE_FAILED : PAL_SESSION_STATE_NOT_RUNNING;

    case ACP_SESSION_STATE_CREATING:
    case ACP_SESSION_STATE_LOADING:
    case ACP_SESSION_STATE_RESUMING:
      return PAL_SESSION_STATE_LOADING;

    case ACP_SESSION_STATE_READY:
      return PAL_SESSION_STATE_READY;

    case ACP_SESSION_STATE_PROMPTING:
      if (acp_session_get_cancelling (live->session))
        return PAL_SESSION_STATE_STOPPING;
      if (acp_session_get_pending_permissions (live->session) > 0)
        return PAL_SESSION_STATE_WAITING_PERMISSION;
      return PAL_SESSION_STATE_WORKING;

    case ACP_SESSION_STATE_CLOSING:
    case ACP_SESSION_STATE_CLOSED:
      return PAL_SESSION_STATE_NOT_RUNNING;

    case ACP_SESSION_STATE_FAILED:
    default:
      return PAL_SESSION_STATE_FAILED;
    }
}

void
_pal_session_manager_update_state (PalLiveSession *live)
{
  if (live->manager == NULL)
    return;

  _pal_live_session_set_state (live, live_compute_state (live));
}

PalLiveSession *
_pal_session_manager_add_live (PalSessionManager *self,
                               PalSessionKey     *key)
{
  PalLiveSession *live = _pal_live_session_new (key, self->session_store);

  live->manager = self;
  g_hash_table_insert (self->live, live->key, live);
  g_list_store_append (self->live_list, live);

  return live;
}

void
_pal_session_manager_remove_live (PalSessionManager *self,
                                  PalLiveSession    *live,
                                  gboolean           fail_waiters)
{
  g_autoptr(PalLiveSession) hold = g_object_ref (live);
  const char *id = pal_session_key_get_session_id (live->key);
  guint position;

  if (live->manager == NULL)
    return;

  /* First out of the table: cancelling below may run callbacks at once,
   * and they must see that this entry is gone. */
  g_hash_table_remove (self->live, live->key);
  if (live->session != NULL)
    {
      AcpAgent *agent = acp_session_get_agent (live->session);

      acp_fs_service_set_roots (self->fs_service, agent, id, NULL);
      /* its commands end; their output stays for the transcript */
      acp_terminal_service_release_session (self->terminal_service, agent, id);
    }

  if (fail_waiters && !_pal_wait_list_is_empty (&live->open))
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                     _("The session was closed"));
      _pal_wait_list_return_error (&live->open, error);
    }
  if (live->opening)
    g_cancellable_cancel (live->open.cancellable);

  if (live->session != NULL)
    {
      GWeakRef *ref = g_new0 (GWeakRef, 1);

      g_weak_ref_init (ref, live->session);
      g_hash_table_replace (self->previous, pal_session_key_ref (live->key), ref);
    }

  /* what binds to it sees the session go, then the state */
  _pal_live_session_set_session (live, NULL);
  _pal_live_session_set_open_error (live, NULL);
  _pal_live_session_set_state (live, PAL_SESSION_STATE_NOT_RUNNING);

  if (g_list_store_find (self->live_list, live, &position))
    g_list_store_remove (self->live_list, position);
}

/* }}} */

/* keeping the store in step {{{ */

/* Where the session's files and commands are: its folder and the
 * additional ones it was given. */
static void
set_session_folder (PalSessionManager  *self,
                    AcpAgent           *agent,
                    const char         *session_id,
                    const char         *cwd,
                    const char * const *additional_directories)
{
  g_autoptr(GStrvBuilder) roots = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  g_strv_builder_add (roots, cwd);
  g_strv_builder_addv (roots, (const char **) additional_directories);
  strv = g_strv_builder_end (roots);

  acp_fs_service_set_roots (self->fs_service, agent, session_id, (const char * const *) strv);
  acp_terminal_service_set_session_cwd (self->terminal_service, agent, session_id, cwd);
}

static void
title_from_first_prompt (PalSessionManager *self,
                         PalLiveSession    *live)
{
  PalSessionRecord *record = pal_session_store_lookup (self->session_store, live->key);
  g_autofree char *title = NULL;
  AcpItem *last;

  if (record == NULL || *pal_session_record_get_title (record) != '\0')
    return;

  /* acp_session_prompt_async() queues the USER message before the state
   * becomes PROMPTING. */
  last = acp_transcript_peek_last (acp_session_get_transcript (live->session));
  if (!ACP_IS_MESSAGE_ITEM (last) ||
      acp_message_item_get_role (ACP_MESSAGE_ITEM (last)) != ACP_MESSAGE_ROLE_USER)
    return;

  title = pal_session_record_title_from_prompt (acp_message_item_get_text (ACP_MESSAGE_ITEM (last)));
  if (title != NULL)
    pal_session_store_set_title (self->session_store, live->key, title);
}

static void
session_state_cb (AcpSession     *session,
                  GParamSpec     *pspec,
                  PalLiveSession *live)
{
  PalSessionManager *self = live->manager;
  AcpSessionState state = acp_session_get_state (session);
  AcpSessionState old_state = live->last_acp_state;

  g_assert (self != NULL);

  live->last_acp_state = state;

  if (old_state == ACP_SESSION_STATE_READY && state == ACP_SESSION_STATE_PROMPTING)
    {
      /* a prompt was sent */
      title_from_first_prompt (self, live);
      pal_session_store_touch (self->session_store, live->key);
    }
  else if (old_state == ACP_SESSION_STATE_PROMPTING && state == ACP_SESSION_STATE_READY)
    {
      /* the turn ended */
      pal_session_store_touch (self->session_store, live->key);
    }

  if (state == ACP_SESSION_STATE_CLOSED && !live->opening)
    {
      _pal_session_manager_remove_live (self, live, TRUE);
      return;
    }

  _pal_session_manager_update_state (live);
}

/* What is pending in the turn changed: a permission asked or answered, the
 * turn cancelled. */
static void
session_turn_cb (AcpSession     *session,
                 GParamSpec     *pspec,
                 PalLiveSession *live)
{
  _pal_session_manager_update_state (live);
}

static void
session_title_cb (AcpSession     *session,
                  GParamSpec     *pspec,
                  PalLiveSession *live)
{
  PalSessionManager *self = live->manager;
  const char *title = acp_session_get_title (session);
  PalSessionRecord *record;
  g_autofree char *valid = NULL;

  g_assert (self != NULL);

  if (title == NULL || *title == '\0')
    return;

  record = pal_session_store_lookup (self->session_store, live->key);
  if (record == NULL)
    return;

  valid = g_utf8_make_valid (title, -1);
  if (g_strcmp0 (pal_session_record_get_title (record), valid) != 0)
    pal_session_store_set_title (self->session_store, live->key, valid);
}

void
_pal_session_manager_follow (PalSessionManager *self,
                             PalLiveSession    *live,
                             AcpSession        *session)
{
  AcpAgent *old_agent;

  g_assert (live->manager == self);

  if (live->session == session)
    return;

  live_disconnect (live);
  /* on another agent process now (the old one died, say): the old one
   * reaches the session's folders no more */
  old_agent = live->session != NULL ? acp_session_get_agent (live->session) : NULL;
  if (old_agent != NULL && old_agent != acp_session_get_agent (session))
    acp_fs_service_set_roots (self->fs_service, old_agent,
                              pal_session_key_get_session_id (live->key), NULL);
  g_object_set_qdata_full (G_OBJECT (session), session_key_quark (),
                           pal_session_key_ref (live->key), (GDestroyNotify) pal_session_key_unref);
  set_session_folder (self, acp_session_get_agent (session),
                      pal_session_key_get_session_id (live->key), acp_session_get_cwd (session),
                      acp_session_get_additional_directories (session));
  live->last_acp_state = acp_session_get_state (session);
  live->state_id = g_signal_connect (session, "notify::state",
                                     G_CALLBACK (session_state_cb), live);
  live->permissions_id = g_signal_connect (session, "notify::pending-permissions",
                                           G_CALLBACK (session_turn_cb), live);
  live->cancelling_id = g_signal_connect (session, "notify::cancelling",
                                          G_CALLBACK (session_turn_cb), live);
  live->title_id = g_signal_connect (session, "notify::title",
                                     G_CALLBACK (session_title_cb), live);

  /* last: what binds to it finds everything in place */
  _pal_live_session_set_session (live, session);
}

/* }}} */

/* prompt {{{ */

static void
prompt_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *stop_reason;

  stop_reason = acp_session_prompt_finish (ACP_SESSION (object), result, &error);
  if (stop_reason == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, stop_reason, g_free);
}

/**
 * pal_session_manager_prompt_async:
 * @self: a #PalSessionManager
 * @key: a live session
 * @text: the prompt
 * @cancellable: (nullable): cancelling it cancels the turn (session/cancel)
 * @callback: called when the turn ends
 * @user_data: data for @callback
 *
 * Sends a text prompt (acp_session_prompt_async() with one text block; call
 * that directly for other content). The store follows either way. Fails with
 * %PAL_ERROR_NOT_FOUND when the session is not live, and with the agent's
 * error otherwise (%ACP_ERROR_AUTH_REQUIRED included).
 */
void
pal_session_manager_prompt_async (PalSessionManager   *self,
                                  PalSessionKey       *key,
                                  const char          *text,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonArray) prompt = NULL;
  JsonObject *block;
  PalLiveSession *live;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (text != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_prompt_async);

  live = g_hash_table_lookup (self->live, key);
  if (live == NULL || live->session == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND,
                               "%s", _("The session is not open"));
      return;
    }

  block = json_object_new ();
  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  prompt = json_array_new ();
  json_array_add_object_element (prompt, block);

  acp_session_prompt_async (live->session, prompt, cancellable, prompt_done_cb,
                            g_steal_pointer (&task));
}

/**
 * pal_session_manager_prompt_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the stop reason ("end_turn", "cancelled", ...)
 */
char *
pal_session_manager_prompt_finish (PalSessionManager  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_prompt_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* }}} */

/* shutdown {{{ */

/* Cancels every open in flight; their callbacks run later and clean up. */
static void
cancel_opens (PalSessionManager *self)
{
  g_autoptr(GPtrArray) cancellables = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      PalLiveSession *live = value;

      if (live->opening)
        g_ptr_array_add (cancellables, g_object_ref (live->open.cancellable));
    }

  for (guint i = 0; i < cancellables->len; i++)
    g_cancellable_cancel (g_ptr_array_index (cancellables, i));
}

static void
agents_stopped_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!_pal_session_manager_stop_agents_finish (PAL_SESSION_MANAGER (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * pal_session_manager_shutdown_async:
 * @self: a #PalSessionManager
 * @cancellable: (nullable): cancelling it gives up waiting (the agents are
 *   still stopped, by their own grace periods)
 * @callback: called when every agent is gone
 * @user_data: data for @callback
 *
 * For quitting: cancels opens in flight and stops every agent (EOF, then
 * SIGTERM and SIGKILL after grace periods). The live sessions FAIL as their
 * agents go. Later calls fail with %G_IO_ERROR_CLOSED.
 */
void
pal_session_manager_shutdown_async (PalSessionManager   *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_shutdown_async);

  self->shut_down = TRUE;
  cancel_opens (self);
  _pal_session_manager_stop_agents_async (self, cancellable, agents_stopped_cb, task);
}

gboolean
pal_session_manager_shutdown_finish (PalSessionManager  *self,
                                     GAsyncResult       *result,
                                     GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_shutdown_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* }}} */

/* queries {{{ */

static void
weak_ref_free (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

/* Returns: (transfer full) (nullable): the session object @key had before
 * it stopped being live, while something (a view) still holds it */
AcpSession *
_pal_session_manager_dup_previous (PalSessionManager *self,
                                   PalSessionKey     *key)
{
  GWeakRef *ref = self->previous != NULL ? g_hash_table_lookup (self->previous, key) : NULL;

  return ref != NULL ? g_weak_ref_get (ref) : NULL;
}

/**
 * pal_session_manager_lookup_live:
 * @self: a #PalSessionManager
 * @key: (nullable): a session
 *
 * Returns: (transfer none) (nullable): the live session: open, opening
 *   (maybe still loading) or FAILED
 */
PalLiveSession *
pal_session_manager_lookup_live (PalSessionManager *self,
                                 PalSessionKey     *key)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);

  if (key == NULL || self->live == NULL)
    return NULL;

  return g_hash_table_lookup (self->live, key);
}

/**
 * pal_session_manager_get_live_sessions:
 * @self: a #PalSessionManager
 *
 * The live sessions, in the order they became live: a session appears when
 * it is created or starts opening, and goes when it is closed or forgotten
 * (NOT_RUNNING and without a session by then).
 *
 * Returns: (transfer none): a #GListModel of #PalLiveSession
 */
GListModel *
pal_session_manager_get_live_sessions (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);

  return G_LIST_MODEL (self->live_list);
}

/**
 * pal_session_manager_lookup:
 * @self: a #PalSessionManager
 * @key: (nullable): a session
 *
 * Returns: (transfer none) (nullable): the object that stands for the live
 *   session now (see pal_live_session_get_session())
 */
AcpSession *
pal_session_manager_lookup (PalSessionManager *self,
                            PalSessionKey     *key)
{
  PalLiveSession *live = pal_session_manager_lookup_live (self, key);

  return live != NULL ? live->session : NULL;
}

/**
 * pal_session_manager_get_session_key:
 * @self: a #PalSessionManager
 * @session: a session object
 *
 * Returns: (transfer none) (nullable): the session @session stands for, when
 *   the manager handed it out (it may have been closed since)
 */
PalSessionKey *
pal_session_manager_get_session_key (PalSessionManager *self,
                                     AcpSession        *session)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (ACP_IS_SESSION (session), NULL);

  return g_object_get_qdata (G_OBJECT (session), session_key_quark ());
}

/**
 * pal_session_manager_find_live_key:
 * @self: a #PalSessionManager
 * @agent: an agent process
 * @session_id: a session id of that agent
 *
 * Which live session an agent's request names (a session id alone may
 * name sessions of two agents).
 *
 * Returns: (transfer none) (nullable): the key of the live session that
 *   runs on @agent with that id
 */
PalSessionKey *
pal_session_manager_find_live_key (PalSessionManager *self,
                                   AcpAgent          *agent,
                                   const char        *session_id)
{
  GHashTableIter iter;
  PalLiveSession *live;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);

  if (agent == NULL || session_id == NULL || self->live == NULL)
    return NULL;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &live))
    if (live->session != NULL && acp_session_get_agent (live->session) == agent &&
        g_str_equal (pal_session_key_get_session_id (live->key), session_id))
      return live->key;

  return NULL;
}

AcpAgent *
pal_session_manager_dup_agent_of (PalSessionManager *self,
                                  PalSessionKey     *key)
{
  AcpSession *live;
  g_autoptr(AcpSession) previous = NULL;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  live = pal_session_manager_lookup (self, key);
  if (live != NULL)
    return g_object_ref (acp_session_get_agent (live));

  previous = _pal_session_manager_dup_previous (self, key);
  return previous != NULL ? g_object_ref (acp_session_get_agent (previous)) : NULL;
}

/* How long an agent stopped by the person gets for SIGTERM, then for SIGKILL
 * (it did not end a turn it was asked to: it is not to be waited for). */
#define STOP_AGENT_GRACE_MS 500

gboolean
pal_session_manager_stop_agent (PalSessionManager *self,
                                PalSessionKey     *key)
{
  AcpSession *session = pal_session_manager_lookup (self, key);
  AcpAgent *agent;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);

  if (session == NULL)
    return FALSE;
  agent = acp_session_get_agent (session);
  if (acp_agent_get_state (agent) == ACP_AGENT_STATE_EXITED)
    return FALSE;

  g_debug ("Stopping the agent of session %s of %s", pal_session_key_get_session_id (key),
           pal_session_key_get_agent_id (key));
  acp_agent_set_stop_grace_period (agent, STOP_AGENT_GRACE_MS);
  acp_agent_stop_async (agent, NULL, NULL, NULL);

  return TRUE;
}

/* What the agent of the stored session supports, when known. */
static gboolean
session_caps (PalSessionManager    *self,
              PalSessionKey        *key,
              AcpAgentCapabilities *caps,
              char                **reason_out)
{
  PalSessionRecord *record = pal_session_store_lookup (self->session_store, key);
  PalLiveSession *live = g_hash_table_lookup (self->live, key);

  if (live != NULL && live->session != NULL)
    {
      *caps = acp_agent_get_capabilities (acp_session_get_agent (live->session));
      return TRUE;
    }

  if (record == NULL)
    {
      if (reason_out != NULL)
        *reason_out = g_strdup (_("The session is not in the list"));
      return FALSE;
    }

  return _pal_session_manager_get_known_caps (self, pal_session_record_get_agent_id (record),
                                              pal_session_record_get_cwd (record), caps);
}

static gboolean
can_do (PalSessionManager    *self,
        PalSessionKey        *key,
        AcpAgentCapabilities  needed,
        const char           *why_not,
        char                **reason_out)
{
  AcpAgentCapabilities caps = ACP_AGENT_CAP_NONE;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  if (reason_out != NULL)
    *reason_out = NULL;

  if (!session_caps (self, key, &caps, &reason))
    {
      if (reason == NULL)
        return TRUE;   /* unknown until the agent runs */
      if (reason_out != NULL)
        *reason_out = g_steal_pointer (&reason);
      return FALSE;
    }

  if ((caps & needed) != 0)
    return TRUE;

  if (reason_out != NULL)
    *reason_out = g_strdup (why_not);
  return FALSE;
}

/**
 * pal_session_manager_can_load:
 * @self: a #PalSessionManager
 * @key: a session
 * @reason_out: (out) (optional) (nullable) (transfer full): why not
 *
 * Whether the session's agent can load it (session/load, with its history).
 * Unknown (%TRUE, no reason) while no agent of its profile has run yet.
 *
 * Returns: %FALSE when it surely cannot
 */
gboolean
pal_session_manager_can_load (PalSessionManager  *self,
                              PalSessionKey      *key,
                              char              **reason_out)
{
  return can_do (self, key, ACP_AGENT_CAP_LOAD_SESSION,
                 _("The agent cannot load sessions: it does not offer to replay their history"),
                 reason_out);
}

/**
 * pal_session_manager_can_resume:
 * @self: a #PalSessionManager
 * @key: a session
 * @reason_out: (out) (optional) (nullable) (transfer full): why not
 *
 * Whether the session's agent can resume it (session/resume, no history).
 * Unknown (%TRUE, no reason) while no agent of its profile has run yet.
 *
 * Returns: %FALSE when it surely cannot
 */
gboolean
pal_session_manager_can_resume (PalSessionManager  *self,
                                PalSessionKey      *key,
                                char              **reason_out)
{
  return can_do (self, key, ACP_AGENT_CAP_SESSION_RESUME,
                 _("The agent cannot resume sessions"), reason_out);
}

/**
 * pal_session_manager_can_delete:
 * @self: a #PalSessionManager
 * @key: a session
 * @reason_out: (out) (optional) (nullable) (transfer full): why not
 *
 * Returns: whether the agent can delete the session (unknown: %TRUE)
 */
gboolean
pal_session_manager_can_delete (PalSessionManager  *self,
                                PalSessionKey      *key,
                                char              **reason_out)
{
  return can_do (self, key, ACP_AGENT_CAP_SESSION_DELETE,
                 _("The agent cannot delete sessions"), reason_out);
}

/**
 * pal_session_manager_can_close:
 * @self: a #PalSessionManager
 * @key: a session
 * @reason_out: (out) (optional) (nullable) (transfer full): why not, or a
 *   caveat when %TRUE
 *
 * Whether there is something to close: %FALSE when the session is not live.
 * When the agent cannot close sessions itself, %TRUE with a caveat: it is
 * closed here only.
 *
 * Returns: whether pal_session_manager_close_session_async() has work to do
 */
gboolean
pal_session_manager_can_close (PalSessionManager  *self,
                               PalSessionKey      *key,
                               char              **reason_out)
{
  PalLiveSession *live;
  AcpAgent *agent;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  if (reason_out != NULL)
    *reason_out = NULL;

  live = g_hash_table_lookup (self->live, key);
  if (live == NULL)
    {
      if (reason_out != NULL)
        *reason_out = g_strdup (_("The session is not open"));
      return FALSE;
    }

  if (live->session == NULL || !_pal_session_is_open (live->session))
    return TRUE;

  agent = acp_session_get_agent (live->session);
  if (!acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_CLOSE) && reason_out != NULL)
    *reason_out = g_strdup (_("The agent cannot close sessions: Palaver stops following this "
                              "one, but the agent keeps it until it exits"));
  return TRUE;
}

/* }}} */

/* GObject {{{ */

static void
pal_session_manager_dispose (GObject *object)
{
  PalSessionManager *self = PAL_SESSION_MANAGER (object);

  self->shut_down = TRUE;

  if (self->live != NULL)
    {
      cancel_opens (self);
      g_clear_pointer (&self->live, g_hash_table_unref);
      g_clear_pointer (&self->previous, g_hash_table_unref);
    }
  /* the list itself stays for those who hold it, empty */
  g_list_store_remove_all (self->live_list);
  _pal_session_manager_dispose_agents (self);
  g_clear_object (&self->fs_service);
  g_clear_object (&self->terminal_service);

  g_clear_object (&self->agent_store);
  g_clear_object (&self->session_store);
  g_clear_object (&self->mcp_server_store);
  g_clear_object (&self->pacer);
  g_clear_object (&self->transcript_store);

  G_OBJECT_CLASS (pal_session_manager_parent_class)->dispose (object);
}

static void
pal_session_manager_finalize (GObject *object)
{
  PalSessionManager *self = PAL_SESSION_MANAGER (object);

  g_clear_object (&self->live_list);

  G_OBJECT_CLASS (pal_session_manager_parent_class)->finalize (object);
}

static void
pal_session_manager_constructed (GObject *object)
{
  PalSessionManager *self = PAL_SESSION_MANAGER (object);

  G_OBJECT_CLASS (pal_session_manager_parent_class)->constructed (object);

  g_return_if_fail (PAL_IS_AGENT_STORE (self->agent_store));
  g_return_if_fail (PAL_IS_SESSION_STORE (self->session_store));

  g_signal_connect_object (self->agent_store, "secrets-changed",
                           G_CALLBACK (_pal_session_manager_secrets_changed_cb), self, 0);
}

static void
pal_session_manager_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  PalSessionManager *self = PAL_SESSION_MANAGER (object);

  switch (prop_id)
    {
    case PROP_AGENT_STORE:
      g_value_set_object (value, self->agent_store);
      break;
    case PROP_SESSION_STORE:
      g_value_set_object (value, self->session_store);
      break;
    case PROP_MCP_SERVER_STORE:
      g_value_set_object (value, self->mcp_server_store);
      break;
    case PROP_PACER:
      g_value_set_object (value, self->pacer);
      break;
    case PROP_LIVE_SESSIONS:
      g_value_set_object (value, self->live_list);
      break;
    case PROP_TRANSCRIPT_STORE:
      g_value_set_object (value, self->transcript_store);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_manager_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  PalSessionManager *self = PAL_SESSION_MANAGER (object);

  switch (prop_id)
    {
    case PROP_AGENT_STORE:
      self->agent_store = g_value_dup_object (value);
      break;
    case PROP_SESSION_STORE:
      self->session_store = g_value_dup_object (value);
      break;
    case PROP_MCP_SERVER_STORE:
      self->mcp_server_store = g_value_dup_object (value);
      break;
    case PROP_PACER:
      self->pacer = g_value_dup_object (value);
      break;
    case PROP_TRANSCRIPT_STORE:
      self->transcript_store = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_manager_class_init (PalSessionManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = pal_session_manager_constructed;
  object_class->dispose = pal_session_manager_dispose;
  object_class->finalize = pal_session_manager_finalize;
  object_class->get_property = pal_session_manager_get_property;
  object_class->set_property = pal_session_manager_set_property;

  /* The agent profiles sessions are started with. */
  properties[PROP_AGENT_STORE] =
    g_param_spec_object ("agent-store", NULL, NULL, PAL_TYPE_AGENT_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The session list kept in step. */
  properties[PROP_SESSION_STORE] =
    g_param_spec_object ("session-store", NULL, NULL, PAL_TYPE_SESSION_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The MCP servers handed to agents (nullable: none then). */
  properties[PROP_MCP_SERVER_STORE] =
    g_param_spec_object ("mcp-server-store", NULL, NULL, PAL_TYPE_MCP_SERVER_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The frames the agents' messages keep in step with, given to every agent
   * (nullable: no pacing then). */
  properties[PROP_PACER] =
    g_param_spec_object ("pacer", NULL, NULL, ACP_TYPE_PACER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Where every session's updates and prompts are recorded (nullable:
   * nothing is then); see pal-session-manager-history.c. */
  properties[PROP_TRANSCRIPT_STORE] =
    g_param_spec_object ("transcript-store", NULL, NULL, PAL_TYPE_TRANSCRIPT_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /* The live sessions (#PalLiveSession), a #GListModel. */
  properties[PROP_LIVE_SESSIONS] =
    g_param_spec_object ("live-sessions", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_session_manager_init (PalSessionManager *self)
{
  self->live = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                      NULL, live_detach);
  self->live_list = g_list_store_new (PAL_TYPE_LIVE_SESSION);
  self->previous = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                          (GDestroyNotify) pal_session_key_unref, weak_ref_free);
  self->fs_service = acp_fs_service_new ();
  self->terminal_service = acp_terminal_service_new ();
  _pal_session_manager_init_agents (self);
}

/* }}} */

/* public construction and getters {{{ */

/**
 * pal_session_manager_new:
 * @agent_store: the agent profiles
 * @session_store: the session list
 * @mcp_server_store: (nullable): the MCP servers
 * @pacer: (nullable): the frames the agents' messages are dispatched in
 *   step with (the windows report theirs to it); %NULL: none
 *
 * Returns: (transfer full): a new session manager
 */
PalSessionManager *
pal_session_manager_new (PalAgentStore     *agent_store,
                         PalSessionStore   *session_store,
                         PalMcpServerStore *mcp_server_store,
                         AcpPacer          *pacer)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (agent_store), NULL);
  g_return_val_if_fail (PAL_IS_SESSION_STORE (session_store), NULL);
  g_return_val_if_fail (mcp_server_store == NULL || PAL_IS_MCP_SERVER_STORE (mcp_server_store),
                        NULL);
  g_return_val_if_fail (pacer == NULL || ACP_IS_PACER (pacer), NULL);

  return g_object_new (PAL_TYPE_SESSION_MANAGER,
                       "agent-store", agent_store,
                       "session-store", session_store,
                       "mcp-server-store", mcp_server_store,
                       "pacer", pacer,
                       NULL);
}

/**
 * pal_session_manager_get_fs_service:
 * @self: a #PalSessionManager
 *
 * The service answering fs/read_text_file and fs/write_text_file for every
 * agent the manager starts, within the folder of each live session. A path
 * outside is refused unless a handler of its "access-request" signal allows
 * it.
 *
 * Returns: (transfer none): the file service
 */
AcpFsService *
pal_session_manager_get_fs_service (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  return self->fs_service;
}

/**
 * pal_session_manager_get_terminal_service:
 * @self: a #PalSessionManager
 *
 * The service running the terminal/ commands of every agent the manager
 * starts, in the folder of the session. Its "terminal-output" and
 * "terminal-exited" signals and acp_terminal_service_dup_output() feed the
 * embedded terminals of tool calls. A closed session's commands are killed;
 * their output stays until the session is forgotten.
 *
 * Returns: (transfer none): the terminal service
 */
AcpTerminalService *
pal_session_manager_get_terminal_service (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  return self->terminal_service;
}

/**
 * pal_session_manager_get_agent_store:
 * @self: a #PalSessionManager
 *
 * Returns: (transfer none): the agent store
 */
PalAgentStore *
pal_session_manager_get_agent_store (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  return self->agent_store;
}

/**
 * pal_session_manager_get_session_store:
 * @self: a #PalSessionManager
 *
 * Returns: (transfer none): the session store
 */
PalSessionStore *
pal_session_manager_get_session_store (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  return self->session_store;
}

/**
 * pal_session_manager_get_mcp_server_store:
 * @self: a #PalSessionManager
 *
 * Returns: (transfer none) (nullable): the MCP server store
 */
PalMcpServerStore *
pal_session_manager_get_mcp_server_store (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  return self->mcp_server_store;
}

/**
 * pal_session_manager_get_pacer:
 * @self: a #PalSessionManager
 *
 * The pacer every agent the manager starts is given: a view showing their
 * sessions reports its frames to it.
 *
 * Returns: (transfer none) (nullable): the pacer
 */
AcpPacer *
pal_session_manager_get_pacer (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  return self->pacer;
}

/* }}} */
