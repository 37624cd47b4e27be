/* pal-session-manager.c: agent processes and live sessions for the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-session-manager-private.h"

/**
 * PalSessionManager:
 *
 * Opens sessions and keeps them live: the window binds to the #AcpSession
 * objects it hands out, and the sidebar follows each session's
 * #PalSessionState.
 *
 * Agents: one process per (agent profile, project folder), running in that
 * folder and shared by its live sessions (see pal-session-manager-agents.c).
 *
 * Live sessions: at most one #AcpSession per session id. It appears when a
 * session is created or starts opening, and stays while it is open, and also
 * after it FAILED (the agent died, or it could not be opened) so that its
 * transcript can still be shown; it goes when it is closed or forgotten.
 * #PalSessionManager::live-session-changed says when the object for an id
 * appears, is replaced (re-opening a failed session makes a new one) or goes:
 * bind to it then, so that a replay fills the view while it loads.
 *
 * States: pal_session_manager_get_session_state() and the detailed signal
 * #PalSessionManager::session-state-changed (detail: the session id), so a
 * sidebar row can listen to `session-state-changed::ID` only.
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

/* session/list pages fetched at most by one refresh */
#define MAX_LIST_PAGES 100

G_DEFINE_ENUM_TYPE (PalSessionState, pal_session_state,
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_NOT_RUNNING, "not-running"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_STARTING_AGENT, "starting-agent"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_LOADING, "loading"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_WORKING, "working"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_WAITING_PERMISSION, "waiting-permission"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_FAILED, "failed"))

G_DEFINE_FINAL_TYPE (PalSessionManager, pal_session_manager, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_AGENT_STORE,
  PROP_SESSION_STORE,
  PROP_MCP_SERVER_STORE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SESSION_STATE_CHANGED,
  LIVE_SESSION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef enum
{
  OPEN_AUTO,      /* load, else resume */
  OPEN_LOAD,
  OPEN_RESUME,
} OpenMode;

/* LiveSession {{{ */

static gboolean
is_open (AcpSession *session)
{
  AcpSessionState state = acp_session_get_state (session);

  return state == ACP_SESSION_STATE_READY || state == ACP_SESSION_STATE_PROMPTING;
}

typedef struct
{
  PalSessionManager *manager;          /* unowned; NULL once removed */
  char              *id;
  AcpSession        *session;          /* nullable until an open created one */
  GError            *error;            /* why the last open failed */
  PalSessionState    state;            /* as last announced */
  AcpSessionState    last_acp_state;
  gulong             state_id;
  gulong             permissions_id;
  gulong             title_id;
  gboolean           starting_agent;
  gboolean           opening;
  PalWaitList        open;
} LiveSession;

static void
live_disconnect (LiveSession *live)
{
  if (live->session == NULL)
    return;

  g_clear_signal_handler (&live->state_id, live->session);
  g_clear_signal_handler (&live->permissions_id, live->session);
  g_clear_signal_handler (&live->title_id, live->session);
}

static void
live_clear (gpointer data)
{
  LiveSession *live = data;
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                 _("The session was closed"));

  live_disconnect (live);
  _pal_wait_list_clear (&live->open, error);
  g_clear_object (&live->session);
  g_clear_error (&live->error);
  g_clear_pointer (&live->id, g_free);
}

static LiveSession *
live_ref (LiveSession *live)
{
  return g_rc_box_acquire (live);
}

static void
live_unref (LiveSession *live)
{
  g_rc_box_release_full (live, live_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LiveSession, live_unref)

/* The table's destroy function. */
static void
live_detach (gpointer data)
{
  LiveSession *live = data;

  live->manager = NULL;
  live_disconnect (live);
  live_unref (live);
}

static void
emit_state_changed (PalSessionManager *self,
                    const char        *session_id,
                    PalSessionState    state)
{
  g_signal_emit (self, signals[SESSION_STATE_CHANGED], g_quark_try_string (session_id),
                 session_id, state);
}

static void
emit_live_session_changed (PalSessionManager *self,
                           const char        *session_id,
                           AcpSession        *session)
{
  g_signal_emit (self, signals[LIVE_SESSION_CHANGED], g_quark_try_string (session_id),
                 session_id, session);
}

static PalSessionState
live_compute_state (LiveSession *live)
{
  if (live->starting_agent)
    return PAL_SESSION_STATE_STARTING_AGENT;

  if (live->session == NULL)
    return live->error != NULL ? PAL_SESSION_STATE_FAILED : PAL_SESSION_STATE_NOT_RUNNING;

  switch (acp_session_get_state (live->session))
    {
    case ACP_SESSION_STATE_NEW:
      if (live->opening)
        return PAL_SESSION_STATE_LOADING;
      return live->error != NULL ? PAL_SESSION_STATE_FAILED : PAL_SESSION_STATE_NOT_RUNNING;

    case ACP_SESSION_STATE_CREATING:
    case ACP_SESSION_STATE_LOADING:
    case ACP_SESSION_STATE_RESUMING:
      return PAL_SESSION_STATE_LOADING;

    case ACP_SESSION_STATE_READY:
      return PAL_SESSION_STATE_READY;

    case ACP_SESSION_STATE_PROMPTING:
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

static void
live_update_state (LiveSession *live)
{
  PalSessionState state;

  if (live->manager == NULL)
    return;

  state = live_compute_state (live);
  if (state == live->state)
    return;

  live->state = state;
  emit_state_changed (live->manager, live->id, state);
}

static LiveSession *
live_new (PalSessionManager *self,
          const char        *session_id)
{
  LiveSession *live = g_rc_box_new0 (LiveSession);

  live->manager = self;
  live->id = g_strdup (session_id);
  live->state = PAL_SESSION_STATE_NOT_RUNNING;
  _pal_wait_list_init (&live->open);
  g_hash_table_insert (self->live, live->id, live);

  return live;
}

/* Takes @live out of the table and tells. Waiters of an open in flight get
 * a "closed" error when @fail_waiters (otherwise the caller answers them). */
static void
live_remove (PalSessionManager *self,
             LiveSession       *live,
             gboolean           fail_waiters)
{
  g_autoptr(LiveSession) hold = live_ref (live);
  g_autofree char *id = g_strdup (live->id);
  PalSessionState old_state = live->state;
  gboolean had_session = live->session != NULL;

  if (live->manager == NULL)
    return;

  /* First out of the table: cancelling below may run callbacks at once,
   * and they must see that this entry is gone. */
  g_hash_table_remove (self->live, id);
  acp_fs_service_set_roots (self->fs_service, id, NULL);

  if (fail_waiters && !_pal_wait_list_is_empty (&live->open))
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                     _("The session was closed"));
      _pal_wait_list_return_error (&live->open, error);
    }
  if (live->opening)
    g_cancellable_cancel (live->open.cancellable);

  if (had_session)
    emit_live_session_changed (self, id, NULL);
  if (old_state != PAL_SESSION_STATE_NOT_RUNNING)
    emit_state_changed (self, id, PAL_SESSION_STATE_NOT_RUNNING);
}

/* }}} */

/* keeping the store in step {{{ */

static void
set_fs_roots (PalSessionManager *self,
              const char        *session_id,
              const char        *cwd)
{
  const char *roots[] = { cwd, NULL };

  acp_fs_service_set_roots (self->fs_service, session_id, cwd != NULL ? roots : NULL);
}

static void
title_from_first_prompt (PalSessionManager *self,
                         LiveSession       *live)
{
  PalSessionRecord *record = pal_session_store_lookup (self->session_store, live->id);
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
    pal_session_store_set_title (self->session_store, live->id, title);
}

static void
session_state_cb (AcpSession  *session,
                  GParamSpec  *pspec,
                  LiveSession *live)
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
      pal_session_store_touch (self->session_store, live->id);
    }
  else if (old_state == ACP_SESSION_STATE_PROMPTING && state == ACP_SESSION_STATE_READY)
    {
      /* the turn ended */
      pal_session_store_touch (self->session_store, live->id);
    }

  if (state == ACP_SESSION_STATE_CLOSED && !live->opening)
    {
      live_remove (self, live, TRUE);
      return;
    }

  live_update_state (live);
}

static void
session_permissions_cb (AcpSession  *session,
                        GParamSpec  *pspec,
                        LiveSession *live)
{
  live_update_state (live);
}

static void
session_title_cb (AcpSession  *session,
                  GParamSpec  *pspec,
                  LiveSession *live)
{
  PalSessionManager *self = live->manager;
  const char *title = acp_session_get_title (session);
  PalSessionRecord *record;
  g_autofree char *valid = NULL;

  g_assert (self != NULL);

  if (title == NULL || *title == '\0')
    return;

  record = pal_session_store_lookup (self->session_store, live->id);
  if (record == NULL)
    return;

  valid = g_utf8_make_valid (title, -1);
  if (g_strcmp0 (pal_session_record_get_title (record), valid) != 0)
    pal_session_store_set_title (self->session_store, live->id, valid);
}

static void
live_set_session (LiveSession *live,
                  AcpSession  *session)
{
  g_assert (live->manager != NULL);

  if (live->session == session)
    return;

  live_disconnect (live);
  g_set_object (&live->session, session);
  set_fs_roots (live->manager, live->id, acp_session_get_cwd (session));
  live->last_acp_state = acp_session_get_state (session);
  live->state_id = g_signal_connect (session, "notify::state",
                                     G_CALLBACK (session_state_cb), live);
  live->permissions_id = g_signal_connect (session, "notify::pending-permissions",
                                           G_CALLBACK (session_permissions_cb), live);
  live->title_id = g_signal_connect (session, "notify::title",
                                     G_CALLBACK (session_title_cb), live);

  emit_live_session_changed (live->manager, live->id, session);
}

/* A session only the agent listed becomes a stored one once opened. */
static void
keep_record (PalSessionManager *self,
             const char        *session_id)
{
  PalSessionRecord *record = pal_session_store_lookup (self->session_store, session_id);

  if (record != NULL && pal_session_record_get_from_agent (record))
    pal_session_store_add (self->session_store, record);
}

/* }}} */

/* MCP servers {{{ */

typedef struct
{
  AcpNoticeSeverity  severity;
  char              *body;
} Notice;

static void
notice_free (gpointer data)
{
  Notice *notice = data;

  g_free (notice->body);
  g_free (notice);
}

static void
add_notice (GPtrArray         *notices,
            AcpNoticeSeverity  severity,
            char              *body)
{
  Notice *notice = g_new0 (Notice, 1);

  notice->severity = severity;
  notice->body = body;
  g_ptr_array_add (notices, notice);
}

static void
append_notices (AcpSession *session,
                GPtrArray  *notices)
{
  AcpTranscript *transcript = acp_session_get_transcript (session);

  for (guint i = 0; i < notices->len; i++)
    {
      Notice *notice = g_ptr_array_index (notices, i);

      acp_transcript_append_notice (transcript, notice->severity,
                                    _("MCP server left out"), notice->body, NULL);
    }
}

static const char *
transport_label (AcpMcpTransport transport)
{
  switch (transport)
    {
    case ACP_MCP_TRANSPORT_HTTP:
      return "HTTP";
    case ACP_MCP_TRANSPORT_SSE:
      return "SSE";
    case ACP_MCP_TRANSPORT_STDIO:
    default:
      return "stdio";
    }
}

/* The MCP servers to pass to @agent: the named ones (NULL: every enabled
 * one), less those the agent cannot use or that are not valid; each one left
 * out gets a notice. (element-type AcpMcpServer) */
static GPtrArray *
collect_mcp_servers (PalSessionManager  *self,
                     const char * const *names,
                     AcpAgent           *agent,
                     GPtrArray          *notices)
{
  GPtrArray *servers = g_ptr_array_new_with_free_func (g_object_unref);
  GListModel *model = G_LIST_MODEL (self->mcp_server_store);
  guint n_items;

  if (model == NULL)
    return servers;

  n_items = g_list_model_get_n_items (model);
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(PalMcpServerConfig) config = g_list_model_get_item (model, i);
      g_autoptr(AcpMcpServer) server = NULL;
      g_autoptr(GError) error = NULL;
      const char *name = pal_mcp_server_config_get_name (config);
      gboolean wanted;

      if (names == NULL)
        wanted = pal_mcp_server_config_get_enabled (config);
      else
        wanted = g_strv_contains (names, name);
      if (!wanted)
        continue;

      server = pal_mcp_server_config_to_acp (config, &error);
      if (server == NULL)
        {
          add_notice (notices, ACP_NOTICE_SEVERITY_WARNING,
                      /* TRANSLATORS: %s is the name of an MCP server, then why it is invalid */
                      g_strdup_printf (_("The MCP server “%s” was not passed to the agent: %s"),
                                       name, error->message));
          continue;
        }

      if (!acp_agent_can_use_mcp_server (agent, server))
        {
          add_notice (notices, ACP_NOTICE_SEVERITY_INFO,
                      /* TRANSLATORS: the first %s is the name of an MCP server, the second
                       * a transport: "HTTP" or "SSE" */
                      g_strdup_printf (_("The MCP server “%s” was not passed to the agent: "
                                         "it does not support %s servers."),
                                       name,
                                       transport_label (acp_mcp_server_get_transport (server))));
          continue;
        }

      g_ptr_array_add (servers, g_steal_pointer (&server));
    }

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      if (pal_mcp_server_store_lookup (self->mcp_server_store, names[i]) == NULL)
        add_notice (notices, ACP_NOTICE_SEVERITY_WARNING,
                    /* TRANSLATORS: %s is the name of an MCP server */
                    g_strdup_printf (_("The MCP server “%s” was not passed to the agent: "
                                       "it is no longer configured."),
                                     names[i]));
    }

  return servers;
}

/* }}} */

/* new session {{{ */

typedef struct
{
  char       *profile_id;
  char       *cwd;
  char      **mcp_server_names;
  AcpSession *session;
  GPtrArray  *notices;
} NewData;

static void
new_data_free (gpointer data)
{
  NewData *new_data = data;

  g_free (new_data->profile_id);
  g_free (new_data->cwd);
  g_strfreev (new_data->mcp_server_names);
  g_clear_object (&new_data->session);
  g_clear_pointer (&new_data->notices, g_ptr_array_unref);
  g_free (new_data);
}

static void
new_created_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  NewData *data = g_task_get_task_data (task);
  AcpSession *session = ACP_SESSION (object);
  g_autoptr(PalSessionRecord) record = NULL;
  GError *error = NULL;
  const char *id;
  LiveSession *live;
  gint64 now;

  if (!acp_session_create_finish (session, result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  id = acp_session_get_session_id (session);
  live = g_hash_table_lookup (self->live, id);
  if (self->shut_down ||
      (live != NULL && (live->opening || (live->session != NULL && is_open (live->session)))))
    {
      if (self->shut_down)
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED, "%s", _("Palaver is quitting"));
      else
        g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_EXISTS,
                                 _("The agent gave the new session the id “%s”, which an open "
                                   "session already has"), id);
      acp_session_close_async (session, NULL, NULL, NULL);
      return;
    }

  append_notices (session, data->notices);

  now = g_get_real_time ();
  record = pal_session_record_new (id, data->profile_id, data->cwd);
  pal_session_record_set_created (record, now);
  pal_session_record_set_updated (record, now);
  pal_session_store_add (self->session_store, record);

  if (live == NULL)
    live = live_new (self, id);
  g_clear_error (&live->error);
  live_set_session (live, session);
  live_update_state (live);

  g_task_return_pointer (task, g_object_ref (session), g_object_unref);
}

static void
new_agent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = PAL_SESSION_MANAGER (object);
  NewData *data = g_task_get_task_data (task);
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  agent = _pal_session_manager_ensure_agent_finish (self, result, &error);
  if (agent == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  servers = collect_mcp_servers (self, (const char * const *) data->mcp_server_names, agent,
                                 data->notices);
  data->session = acp_session_new (agent, data->cwd);
  cancellable = g_task_get_cancellable (task);
  acp_session_create_async (data->session, servers, cancellable,
                            new_created_cb, g_steal_pointer (&task));
}

/**
 * pal_session_manager_new_session_async:
 * @self: a #PalSessionManager
 * @profile_id: the agent profile
 * @cwd: the absolute project folder
 * @mcp_server_names: (nullable) (array zero-terminated=1): the MCP servers to
 *   pass, by name; %NULL passes every enabled one
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is READY or failed
 * @user_data: data for @callback
 *
 * Starts the agent of that profile and folder unless it runs (shared with
 * the other sessions there) and creates a session (session/new) with the MCP
 * servers the agent can use; each one left out gets an INFO notice in the
 * transcript. The new session is added to the session store.
 *
 * An agent that needs a login fails with %ACP_ERROR_AUTH_REQUIRED (see
 * pal_session_manager_error_is_auth_required()): authenticate with
 * pal_session_manager_authenticate_async() and try again.
 */
void
pal_session_manager_new_session_async (PalSessionManager   *self,
                                       const char          *profile_id,
                                       const char          *cwd,
                                       const char * const  *mcp_server_names,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *canonical = NULL;
  GError *error = NULL;
  NewData *data;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_new_session_async);

  canonical = _pal_session_manager_canonical_cwd (cwd, &error);
  if (canonical == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  data = g_new0 (NewData, 1);
  data->profile_id = g_strdup (profile_id);
  data->cwd = g_steal_pointer (&canonical);
  data->mcp_server_names = g_strdupv ((char **) mcp_server_names);
  data->notices = g_ptr_array_new_with_free_func (notice_free);
  g_task_set_task_data (task, data, new_data_free);

  _pal_session_manager_ensure_agent_async (self, profile_id, data->cwd, cancellable,
                                           new_agent_cb, g_steal_pointer (&task));
}

/**
 * pal_session_manager_new_session_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the READY session, or %NULL
 */
AcpSession *
pal_session_manager_new_session_finish (PalSessionManager  *self,
                                        GAsyncResult       *result,
                                        GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_new_session_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* }}} */

/* opening stored sessions {{{ */

typedef struct
{
  LiveSession *live;
  char        *profile_id;
  char        *cwd;
  OpenMode     mode;
  gboolean     resumed;
  AcpSession  *session;
  GPtrArray   *notices;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_pointer (&data->live, live_unref);
  g_free (data->profile_id);
  g_free (data->cwd);
  g_clear_object (&data->session);
  g_clear_pointer (&data->notices, g_ptr_array_unref);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenData, open_data_free)

/* The open failed, was refused or was cancelled. */
static void
open_failed (LiveSession  *live,
             const GError *error,
             gboolean      refused)
{
  g_autoptr(LiveSession) hold = live_ref (live);
  PalSessionManager *self = live->manager;
  gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  gboolean nothing_open;

  g_assert (self != NULL);

  live->opening = FALSE;
  live->starting_agent = FALSE;

  nothing_open = live->session == NULL ||
                 acp_session_get_state (live->session) == ACP_SESSION_STATE_NEW;

  if ((cancelled || refused) && nothing_open)
    {
      /* nothing to show: back to not running */
      live_remove (self, live, FALSE);
    }
  else
    {
      if (!cancelled && !refused)
        {
          g_clear_error (&live->error);
          live->error = g_error_copy (error);

          /* A session that FAILED has its notice already. */
          if (live->session != NULL &&
              acp_session_get_state (live->session) == ACP_SESSION_STATE_NEW)
            {
              AcpTranscript *transcript = acp_session_get_transcript (live->session);

              acp_transcript_append_notice (transcript, ACP_NOTICE_SEVERITY_ERROR,
                                            _("The session could not be opened"),
                                            error->message, NULL);
              acp_transcript_flush (transcript);
            }
        }
      live_update_state (live);
    }

  _pal_wait_list_return_error (&live->open, error);
}

static void
open_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(OpenData) data = user_data;
  AcpSession *session = ACP_SESSION (object);
  LiveSession *live = data->live;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (data->resumed)
    ok = acp_session_resume_finish (session, result, &error);
  else
    ok = acp_session_load_finish (session, result, &error);

  if (live->manager == NULL || live->session != session)
    {
      /* closed or forgotten meanwhile: do not leave it open in the agent */
      if (ok)
        acp_session_close_async (session, NULL, NULL, NULL);
      return;
    }

  if (!ok)
    {
      open_failed (live, error, FALSE);
      return;
    }

  live->opening = FALSE;

  if (data->resumed)
    acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_INFO,
                                  _("History not shown"),
                                  _("History is not replayed: the agent can resume this session "
                                    "but not show its past messages."),
                                  NULL);
  append_notices (session, data->notices);

  keep_record (live->manager, live->id);
  live_update_state (live);

  _pal_wait_list_return_object (&live->open, session);
}

/* What the agent must support for @mode, or an error (nothing is sent). */
static gboolean
choose_method (AcpAgent  *agent,
               OpenMode   mode,
               gboolean  *resume,
               GError   **error)
{
  gboolean can_load = acp_agent_has_capability (agent, ACP_AGENT_CAP_LOAD_SESSION);
  gboolean can_resume = acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_RESUME);

  switch (mode)
    {
    case OPEN_LOAD:
      if (!can_load)
        {
          g_set_error_literal (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                               _("The agent cannot load sessions: it does not offer to replay "
                                 "their history"));
          return FALSE;
        }
      *resume = FALSE;
      return TRUE;

    case OPEN_RESUME:
      if (!can_resume)
        {
          g_set_error_literal (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                               _("The agent cannot resume sessions"));
          return FALSE;
        }
      *resume = TRUE;
      return TRUE;

    case OPEN_AUTO:
    default:
      if (!can_load && !can_resume)
        {
          g_set_error_literal (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                               _("The agent can neither load nor resume sessions, so this "
                                 "session cannot be opened again"));
          return FALSE;
        }
      *resume = !can_load;
      return TRUE;
    }
}

static void
open_agent_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(OpenData) data = user_data;
  PalSessionManager *self = PAL_SESSION_MANAGER (object);
  g_autoptr(LiveSession) live = live_ref (data->live);
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  agent = _pal_session_manager_ensure_agent_finish (self, result, &error);
  if (live->manager == NULL)
    return;

  live->starting_agent = FALSE;

  if (agent == NULL)
    {
      open_failed (live, error, FALSE);
      return;
    }

  if (!choose_method (agent, data->mode, &data->resumed, &error))
    {
      open_failed (live, error, TRUE);
      return;
    }

  servers = collect_mcp_servers (self, NULL, agent, data->notices);
  session = acp_session_new (agent, data->cwd);
  data->session = g_object_ref (session);

  /* Bound before the load starts, so that the replay shows live. */
  live_set_session (live, session);
  if (live->manager == NULL)
    return;

  cancellable = live->open.cancellable;
  if (data->resumed)
    acp_session_resume_async (session, live->id, servers, cancellable, open_done_cb,
                              g_steal_pointer (&data));
  else
    acp_session_load_async (session, live->id, servers, cancellable, open_done_cb,
                            g_steal_pointer (&data));

  live_update_state (live);
}

static void
open_common (PalSessionManager   *self,
             const char          *session_id,
             OpenMode             mode,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data,
             gpointer             source_tag)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *cwd = NULL;
  PalSessionRecord *record;
  LiveSession *live;
  OpenData *data;
  GError *error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  if (self->shut_down)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED, "%s", _("Palaver is quitting"));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  live = g_hash_table_lookup (self->live, session_id);
  if (live != NULL && live->opening)
    {
      _pal_wait_list_add (&live->open, task);
      return;
    }
  if (live != NULL && live->session != NULL && is_open (live->session))
    {
      g_task_return_pointer (task, g_object_ref (live->session), g_object_unref);
      return;
    }

  record = pal_session_store_lookup (self->session_store, session_id);
  if (record == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND,
                               _("The session “%s” is not in the list"), session_id);
      return;
    }

  cwd = _pal_session_manager_canonical_cwd (pal_session_record_get_cwd (record), &error);
  if (cwd == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (live == NULL)
    live = live_new (self, session_id);

  live->opening = TRUE;
  live->starting_agent = TRUE;
  g_clear_error (&live->error);
  g_clear_object (&live->open.cancellable);
  live->open.cancellable = g_cancellable_new ();
  _pal_wait_list_add (&live->open, task);

  data = g_new0 (OpenData, 1);
  data->live = live_ref (live);
  data->profile_id = g_strdup (pal_session_record_get_agent_id (record));
  data->cwd = g_steal_pointer (&cwd);
  data->mode = mode;
  data->notices = g_ptr_array_new_with_free_func (notice_free);

  live_update_state (live);

  _pal_session_manager_ensure_agent_async (self, data->profile_id, data->cwd,
                                           live->open.cancellable, open_agent_cb, data);
}

static AcpSession *
open_finish (PalSessionManager  *self,
             GAsyncResult       *result,
             gpointer            source_tag,
             GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * pal_session_manager_open_session_async:
 * @self: a #PalSessionManager
 * @session_id: the id of a session in the session store
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is open or could not be
 * @user_data: data for @callback
 *
 * Opens a stored session: an open live session is returned as it is;
 * otherwise (not running, or FAILED) the agent of its profile and folder is
 * started unless it runs, then the session is loaded (session/load, the
 * history replays into a new transcript as it arrives: bind to the session
 * on #PalSessionManager::live-session-changed to show it live) when the agent
 * can, else resumed (session/resume, with an INFO notice that the history is
 * not shown), else the call fails with %PAL_ERROR_NOT_SUPPORTED and nothing is
 * sent. An open in progress is shared.
 *
 * On failure the session stays FAILED with what was shown so far and an
 * error notice (pal_session_manager_lookup() still returns it); a refusal
 * or cancellation leaves it as it was.
 */
void
pal_session_manager_open_session_async (PalSessionManager   *self,
                                        const char          *session_id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, session_id, OPEN_AUTO, cancellable, callback, user_data,
               pal_session_manager_open_session_async);
}

/**
 * pal_session_manager_open_session_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the open session, or %NULL
 */
AcpSession *
pal_session_manager_open_session_finish (PalSessionManager  *self,
                                         GAsyncResult       *result,
                                         GError            **error)
{
  return open_finish (self, result, pal_session_manager_open_session_async, error);
}

/**
 * pal_session_manager_load_session_async:
 * @self: a #PalSessionManager
 * @session_id: the id of a session in the session store
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is open or could not be
 * @user_data: data for @callback
 *
 * As pal_session_manager_open_session_async(), but only with session/load:
 * %PAL_ERROR_NOT_SUPPORTED (nothing sent) when the agent cannot load. An
 * open live session is returned as it is.
 */
void
pal_session_manager_load_session_async (PalSessionManager   *self,
                                        const char          *session_id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, session_id, OPEN_LOAD, cancellable, callback, user_data,
               pal_session_manager_load_session_async);
}

/**
 * pal_session_manager_load_session_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the open session, or %NULL
 */
AcpSession *
pal_session_manager_load_session_finish (PalSessionManager  *self,
                                         GAsyncResult       *result,
                                         GError            **error)
{
  return open_finish (self, result, pal_session_manager_load_session_async, error);
}

/**
 * pal_session_manager_resume_session_async:
 * @self: a #PalSessionManager
 * @session_id: the id of a session in the session store
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is open or could not be
 * @user_data: data for @callback
 *
 * As pal_session_manager_open_session_async(), but only with session/resume
 * (no history): %PAL_ERROR_NOT_SUPPORTED (nothing sent) when the agent
 * cannot resume. An open live session is returned as it is.
 */
void
pal_session_manager_resume_session_async (PalSessionManager   *self,
                                          const char          *session_id,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, session_id, OPEN_RESUME, cancellable, callback, user_data,
               pal_session_manager_resume_session_async);
}

/**
 * pal_session_manager_resume_session_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the open session, or %NULL
 */
AcpSession *
pal_session_manager_resume_session_finish (PalSessionManager  *self,
                                           GAsyncResult       *result,
                                           GError            **error)
{
  return open_finish (self, result, pal_session_manager_resume_session_async, error);
}

/**
 * pal_session_manager_restart_async:
 * @self: a #PalSessionManager
 * @session_id: the id of a session in the session store
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is open again or could not be
 * @user_data: data for @callback
 *
 * The Retry of a FAILED session: when its agent died, a new agent process is
 * started (a running agent of that profile and folder is reused, so that the
 * other sessions on it live on), and the session is opened again as by
 * pal_session_manager_open_session_async(), into a new #AcpSession (the
 * failed one keeps its transcript for whoever holds it). A session that is
 * open is returned as it is.
 */
void
pal_session_manager_restart_async (PalSessionManager   *self,
                                   const char          *session_id,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, session_id, OPEN_AUTO, cancellable, callback, user_data,
               pal_session_manager_restart_async);
}

/**
 * pal_session_manager_restart_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the open session, or %NULL
 */
AcpSession *
pal_session_manager_restart_finish (PalSessionManager  *self,
                                    GAsyncResult       *result,
                                    GError            **error)
{
  return open_finish (self, result, pal_session_manager_restart_async, error);
}

/* }}} */

/* closing and forgetting {{{ */

static void
close_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  AcpSession *session = ACP_SESSION (object);
  LiveSession *live;
  GError *error = NULL;
  gboolean ok;

  ok = acp_session_close_finish (session, result, &error);

  /* Closed here whatever the agent answered; a FAILED session does not
   * change state, so take it out here. */
  live = acp_session_get_session_id (session) != NULL ?
         g_hash_table_lookup (self->live, acp_session_get_session_id (session)) : NULL;
  if (live != NULL && live->session == session && !live->opening)
    live_remove (self, live, TRUE);

  if (!ok)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * pal_session_manager_close_session_async:
 * @self: a #PalSessionManager
 * @session_id: a session id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Closes a live session: with session/close when the agent advertises it,
 * else locally (the agent keeps it until it exits); an open in progress is
 * cancelled; a FAILED session is dropped. The session is closed here even
 * when the agent answers session/close with an error, which is still
 * returned. Its record stays in the session store. A session that is not
 * live is not an error.
 */
void
pal_session_manager_close_session_async (PalSessionManager   *self,
                                         const char          *session_id,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LiveSession *live;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_close_session_async);

  live = g_hash_table_lookup (self->live, session_id);
  if (live == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (live->opening || live->session == NULL)
    {
      live_remove (self, live, TRUE);
      g_task_return_boolean (task, TRUE);
      return;
    }

  acp_session_close_async (live->session, cancellable, close_done_cb, g_steal_pointer (&task));
}

gboolean
pal_session_manager_close_session_finish (PalSessionManager  *self,
                                          GAsyncResult       *result,
                                          GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_close_session_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
forget_closed_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* Nobody is left to tell: the session is gone from the list already. */
  if (!acp_session_close_finish (ACP_SESSION (object), result, &error))
    g_debug ("Closing a forgotten session: %s", error->message);
}

/**
 * pal_session_manager_forget:
 * @self: a #PalSessionManager
 * @session_id: a session id
 *
 * Removes the session from the list: closes it if it is live (in the
 * background; an open in progress is cancelled) and removes its record from
 * the session store. The agent may still keep it (and list it again).
 *
 * Returns: %FALSE when the session was neither listed nor live
 */
gboolean
pal_session_manager_forget (PalSessionManager *self,
                            const char        *session_id)
{
  LiveSession *live;
  gboolean found = FALSE;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);

  live = g_hash_table_lookup (self->live, session_id);
  if (live != NULL)
    {
      g_autoptr(AcpSession) session = live->session != NULL ? g_object_ref (live->session) : NULL;
      gboolean was_open = session != NULL && !live->opening;

      found = TRUE;
      live_remove (self, live, TRUE);
      if (was_open)
        acp_session_close_async (session, NULL, forget_closed_cb, NULL);
    }

  if (pal_session_store_remove (self->session_store, session_id))
    found = TRUE;

  return found;
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
 * @session_id: the id of a live session
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
                                  const char          *session_id,
                                  const char          *text,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonArray) prompt = NULL;
  JsonObject *block;
  LiveSession *live;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (text != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_prompt_async);

  live = g_hash_table_lookup (self->live, session_id);
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

/* authentication {{{ */

/**
 * pal_session_manager_error_is_auth_required:
 * @error: (nullable): an error from the session manager
 *
 * Whether the agent refused because it needs a login (-32000). The window
 * then offers the agent's methods (acp_agent_get_auth_methods() of
 * pal_session_manager_lookup_agent(): the agent stays running), calls
 * pal_session_manager_authenticate_async() and tries again.
 *
 * Returns: %TRUE for "authentication required"
 */
gboolean
pal_session_manager_error_is_auth_required (const GError *error)
{
  return g_error_matches (error, ACP_ERROR, ACP_ERROR_AUTH_REQUIRED);
}

static void
authenticated_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!acp_agent_authenticate_finish (ACP_AGENT (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
authenticate_agent_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(AcpAgent) agent = NULL;
  GCancellable *cancellable;
  const char *method_id;
  GError *error = NULL;

  agent = _pal_session_manager_ensure_agent_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (agent == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  method_id = g_task_get_task_data (task);
  cancellable = g_task_get_cancellable (task);
  acp_agent_authenticate_async (agent, method_id, cancellable,
                                authenticated_cb, g_steal_pointer (&task));
}

/**
 * pal_session_manager_authenticate_async:
 * @self: a #PalSessionManager
 * @profile_id: the agent profile
 * @cwd: the project folder
 * @method_id: one of the agent's auth methods (of kind "agent")
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Authenticates the agent of that profile and folder (started unless it
 * runs) with `authenticate`. Methods of kind "terminal" cannot go through
 * this (%ACP_ERROR_NOT_SUPPORTED): they need the agent run in a terminal.
 */
void
pal_session_manager_authenticate_async (PalSessionManager   *self,
                                        const char          *profile_id,
                                        const char          *cwd,
                                        const char          *method_id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);
  g_return_if_fail (method_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_authenticate_async);
  g_task_set_task_data (task, g_strdup (method_id), g_free);

  _pal_session_manager_ensure_agent_async (self, profile_id, cwd, cancellable,
                                           authenticate_agent_cb, task);
}

gboolean
pal_session_manager_authenticate_finish (PalSessionManager  *self,
                                         GAsyncResult       *result,
                                         GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_authenticate_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* }}} */

/* session/list {{{ */

typedef struct
{
  AcpAgent   *agent;
  char       *profile_id;
  char       *cwd;
  char       *cursor;
  GHashTable *seen_cursors;
  guint       n_pages;
  guint       n_added;
} ListData;

static void
list_data_free (gpointer data)
{
  ListData *list = data;

  g_clear_object (&list->agent);
  g_free (list->profile_id);
  g_free (list->cwd);
  g_free (list->cursor);
  g_clear_pointer (&list->seen_cursors, g_hash_table_unref);
  g_free (list);
}

static void list_page_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data);

static void
list_next_page (GTask *task)
{
  ListData *data = g_task_get_task_data (task);

  data->n_pages++;
  acp_agent_list_sessions_async (data->agent, data->cwd, data->cursor,
                                 g_task_get_cancellable (task), list_page_cb, task);
}

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  ListData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) page = NULL;
  GError *error = NULL;
  JsonNode *node;
  const char *next = NULL;

  page = acp_agent_list_sessions_finish (ACP_AGENT (object), result, &error);
  if (page == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  node = json_object_get_member (page, "sessions");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    data->n_added += pal_session_store_merge_listed (self->session_store, data->profile_id,
                                                     json_node_get_array (node));

  node = json_object_get_member (page, "nextCursor");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    next = json_node_get_string (node);

  if (next == NULL || *next == '\0' || g_hash_table_contains (data->seen_cursors, next) ||
      data->n_pages >= MAX_LIST_PAGES)
    {
      if (next != NULL && *next != '\0')
        g_debug ("session/list of %s: stopping after %u pages", data->profile_id, data->n_pages);
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_free (data->cursor);
  data->cursor = g_strdup (next);
  g_hash_table_add (data->seen_cursors, g_strdup (next));
  list_next_page (g_steal_pointer (&task));
}

static void
list_agent_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListData *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->agent = _pal_session_manager_ensure_agent_finish (PAL_SESSION_MANAGER (object), result,
                                                          &error);
  if (data->agent == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!acp_agent_has_capability (data->agent, ACP_AGENT_CAP_SESSION_LIST))
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                               "%s", _("The agent cannot list its sessions"));
      return;
    }

  list_next_page (g_steal_pointer (&task));
}

/**
 * pal_session_manager_refresh_listed_async:
 * @self: a #PalSessionManager
 * @profile_id: the agent profile
 * @cwd: the project folder
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asks the agent of that profile and folder (started unless it runs) for
 * its sessions in @cwd (session/list, every page up to a bound) and merges
 * each page into the session store (pal_session_store_merge_listed()), so
 * that sessions started elsewhere show in the sidebar. Fails with
 * %PAL_ERROR_NOT_SUPPORTED (nothing sent) when the agent cannot list; pages
 * merged before an error stay merged.
 */
void
pal_session_manager_refresh_listed_async (PalSessionManager   *self,
                                          const char          *profile_id,
                                          const char          *cwd,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *canonical = NULL;
  GError *error = NULL;
  ListData *data;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_refresh_listed_async);

  canonical = _pal_session_manager_canonical_cwd (cwd, &error);
  if (canonical == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  data = g_new0 (ListData, 1);
  data->profile_id = g_strdup (profile_id);
  data->cwd = g_steal_pointer (&canonical);
  data->seen_cursors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_task_set_task_data (task, data, list_data_free);

  _pal_session_manager_ensure_agent_async (self, profile_id, data->cwd, cancellable,
                                           list_agent_cb, g_steal_pointer (&task));
}

gboolean
pal_session_manager_refresh_listed_finish (PalSessionManager  *self,
                                           GAsyncResult       *result,
                                           guint              *out_n_added,
                                           GError            **error)
{
  ListData *data;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_refresh_listed_async, FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (out_n_added != NULL)
    *out_n_added = data->n_added;

  return g_task_propagate_boolean (G_TASK (result), error);
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
      LiveSession *live = value;

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

/**
 * pal_session_manager_lookup:
 * @self: a #PalSessionManager
 * @session_id: a session id
 *
 * Returns: (transfer none) (nullable): the live session of that id: open,
 *   opening (maybe still loading) or FAILED
 */
AcpSession *
pal_session_manager_lookup (PalSessionManager *self,
                            const char        *session_id)
{
  LiveSession *live;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);

  if (session_id == NULL || self->live == NULL)
    return NULL;

  live = g_hash_table_lookup (self->live, session_id);
  return live != NULL ? live->session : NULL;
}

/**
 * pal_session_manager_get_session_state:
 * @self: a #PalSessionManager
 * @session_id: a session id
 *
 * Returns: what the session is doing; %PAL_SESSION_STATE_NOT_RUNNING for a
 *   session that is not live (or not known)
 */
PalSessionState
pal_session_manager_get_session_state (PalSessionManager *self,
                                       const char        *session_id)
{
  LiveSession *live;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), PAL_SESSION_STATE_NOT_RUNNING);

  if (session_id == NULL || self->live == NULL)
    return PAL_SESSION_STATE_NOT_RUNNING;

  live = g_hash_table_lookup (self->live, session_id);
  return live != NULL ? live->state : PAL_SESSION_STATE_NOT_RUNNING;
}

/**
 * pal_session_manager_get_session_error:
 * @self: a #PalSessionManager
 * @session_id: a session id
 *
 * Returns: (transfer none) (nullable): why the session is FAILED (the
 *   agent's exit error, or why it could not be opened)
 */
const GError *
pal_session_manager_get_session_error (PalSessionManager *self,
                                       const char        *session_id)
{
  LiveSession *live;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);

  if (session_id == NULL || self->live == NULL)
    return NULL;

  live = g_hash_table_lookup (self->live, session_id);
  if (live == NULL || live->state != PAL_SESSION_STATE_FAILED)
    return NULL;
  if (live->error != NULL)
    return live->error;
  return live->session != NULL ? acp_session_get_error (live->session) : NULL;
}

/* What the agent of the stored session supports, when known. */
static gboolean
session_caps (PalSessionManager    *self,
              const char           *session_id,
              AcpAgentCapabilities *caps,
              char                **reason_out)
{
  PalSessionRecord *record = pal_session_store_lookup (self->session_store, session_id);
  LiveSession *live = g_hash_table_lookup (self->live, session_id);

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
        const char           *session_id,
        AcpAgentCapabilities  needed,
        const char           *why_not,
        char                **reason_out)
{
  AcpAgentCapabilities caps = ACP_AGENT_CAP_NONE;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);

  if (reason_out != NULL)
    *reason_out = NULL;

  if (!session_caps (self, session_id, &caps, &reason))
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
 * @session_id: a session id
 * @reason_out: (out) (optional) (nullable) (transfer full): why not
 *
 * Whether the session's agent can load it (session/load, with its history).
 * Unknown (%TRUE, no reason) while no agent of its profile has run yet.
 *
 * Returns: %FALSE when it surely cannot
 */
gboolean
pal_session_manager_can_load (PalSessionManager  *self,
                              const char         *session_id,
                              char              **reason_out)
{
  return can_do (self, session_id, ACP_AGENT_CAP_LOAD_SESSION,
                 _("The agent cannot load sessions: it does not offer to replay their history"),
                 reason_out);
}

/**
 * pal_session_manager_can_resume:
 * @self: a #PalSessionManager
 * @session_id: a session id
 * @reason_out: (out) (optional) (nullable) (transfer full): why not
 *
 * Whether the session's agent can resume it (session/resume, no history).
 * Unknown (%TRUE, no reason) while no agent of its profile has run yet.
 *
 * Returns: %FALSE when it surely cannot
 */
gboolean
pal_session_manager_can_resume (PalSessionManager  *self,
                                const char         *session_id,
                                char              **reason_out)
{
  return can_do (self, session_id, ACP_AGENT_CAP_SESSION_RESUME,
                 _("The agent cannot resume sessions"), reason_out);
}

/**
 * pal_session_manager_can_close:
 * @self: a #PalSessionManager
 * @session_id: a session id
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
                               const char         *session_id,
                               char              **reason_out)
{
  LiveSession *live;
  AcpAgent *agent;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);

  if (reason_out != NULL)
    *reason_out = NULL;

  live = g_hash_table_lookup (self->live, session_id);
  if (live == NULL)
    {
      if (reason_out != NULL)
        *reason_out = g_strdup (_("The session is not open"));
      return FALSE;
    }

  if (live->session == NULL || !is_open (live->session))
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
    }
  _pal_session_manager_dispose_agents (self);
  g_clear_object (&self->fs_service);

  g_clear_object (&self->agent_store);
  g_clear_object (&self->session_store);
  g_clear_object (&self->mcp_server_store);

  G_OBJECT_CLASS (pal_session_manager_parent_class)->dispose (object);
}

static void
pal_session_manager_constructed (GObject *object)
{
  PalSessionManager *self = PAL_SESSION_MANAGER (object);

  G_OBJECT_CLASS (pal_session_manager_parent_class)->constructed (object);

  g_return_if_fail (PAL_IS_AGENT_STORE (self->agent_store));
  g_return_if_fail (PAL_IS_SESSION_STORE (self->session_store));
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

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalSessionManager::session-state-changed:
   * @self: the session manager
   * @session_id: the session
   * @state: its new #PalSessionState
   *
   * A session's state changed. Detailed by the session id: connect to
   * `session-state-changed::ID` to hear about one session only.
   */
  signals[SESSION_STATE_CHANGED] =
    g_signal_new ("session-state-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  PAL_TYPE_SESSION_STATE);

  /**
   * PalSessionManager::live-session-changed:
   * @self: the session manager
   * @session_id: the session
   * @session: (nullable): the #AcpSession that now stands for it, or %NULL
   *   when it is no longer live
   *
   * The live session object of an id appeared (created, or an open started:
   * it may still be loading), was replaced (a failed session opened again)
   * or went (closed, forgotten). Detailed by the session id.
   */
  signals[LIVE_SESSION_CHANGED] =
    g_signal_new ("live-session-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  ACP_TYPE_SESSION);
}

static void
pal_session_manager_init (PalSessionManager *self)
{
  self->live = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, live_detach);
  self->fs_service = acp_fs_service_new ();
  _pal_session_manager_init_agents (self);
}

/* }}} */

/* public construction and getters {{{ */

/**
 * pal_session_manager_new:
 * @agent_store: the agent profiles
 * @session_store: the session list
 * @mcp_server_store: (nullable): the MCP servers
 *
 * Returns: (transfer full): a new session manager
 */
PalSessionManager *
pal_session_manager_new (PalAgentStore     *agent_store,
                         PalSessionStore   *session_store,
                         PalMcpServerStore *mcp_server_store)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (agent_store), NULL);
  g_return_val_if_fail (PAL_IS_SESSION_STORE (session_store), NULL);
  g_return_val_if_fail (mcp_server_store == NULL || PAL_IS_MCP_SERVER_STORE (mcp_server_store),
                        NULL);

  return g_object_new (PAL_TYPE_SESSION_MANAGER,
                       "agent-store", agent_store,
                       "session-store", session_store,
                       "mcp-server-store", mcp_server_store,
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

/* }}} */
