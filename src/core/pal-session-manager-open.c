/* pal-session-manager-open.c: creating, opening, closing and forgetting sessions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session-level operations of PalSessionManager: session/new with the
 * MCP servers the agent can use, load or resume of a stored session into a
 * new AcpSession (shared by concurrent callers, see PalWaitList), close and
 * forget. The live-session bookkeeping they use is in pal-session-manager.c.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-folders.h"
#include "pal-path.h"
#include "pal-live-session-private.h"

typedef enum
{
  OPEN_AUTO,      /* load, else resume */
  OPEN_LOAD,
  OPEN_RESUME,
} OpenMode;

/* session setup {{{ */

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
                      /* TRANSLATORS: %s says which MCP server is invalid and why */
                      g_strdup_printf (_("Not passed to the agent: %s"), error->message));
          continue;
        }

      if (!acp_agent_can_use_mcp_server (agent, server))
        {
          AcpMcpTransport transport = acp_mcp_server_get_transport (server);

          add_notice (notices, ACP_NOTICE_SEVERITY_INFO,
                      /* TRANSLATORS: the first %s is the name of an MCP server, the second
                       * a transport: "HTTP" or "SSE" */
                      g_strdup_printf (_("The MCP server “%s” was not passed to the agent: "
                                         "it does not support %s servers."),
                                       name, pal_mcp_transport_get_label (transport)));
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

/* Gives @session the additional folders when its agent takes them.
 * Returns: whether they were left out */
static gboolean
give_folders (AcpSession         *session,
              const char * const *dirs)
{
  if (dirs == NULL || dirs[0] == NULL)
    return FALSE;

  if (!acp_agent_has_capability (acp_session_get_agent (session),
                                 ACP_AGENT_CAP_ADDITIONAL_DIRECTORIES))
    return TRUE;

  acp_session_set_additional_directories (session, dirs);
  return FALSE;
}

/* The notice that says which folders were left out. */
static void
append_folders_notice (AcpSession         *session,
                       const char * const *dirs)
{
  g_autoptr(GString) list = g_string_new (NULL);
  g_autofree char *body = NULL;

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *shown = pal_path_display (dirs[i], NULL, g_get_home_dir ());

      if (i > 0)
        /* TRANSLATORS: between folders in a list */
        g_string_append (list, _(", "));
      g_string_append (list, shown);
    }

  /* TRANSLATORS: %s is a list of folders */
  body = g_strdup_printf (_("The agent does not support additional folders: it works in the "
                            "project folder only. Left out: %s"), list->str);
  acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_INFO,
                                _("Additional folders left out"), body, NULL);
}

void
_pal_session_setup_init (PalSessionSetup    *setup,
                         char               *cwd,
                         const char * const *additional_directories)
{
  setup->cwd = cwd;
  setup->additional_directories = pal_folders_clean (cwd, additional_directories);
  setup->folders_left_out = FALSE;
  setup->notices = g_ptr_array_new_with_free_func (notice_free);
}

void
_pal_session_setup_clear (PalSessionSetup *setup)
{
  g_clear_pointer (&setup->cwd, g_free);
  g_clear_pointer (&setup->additional_directories, g_strfreev);
  g_clear_pointer (&setup->notices, g_ptr_array_unref);
}

AcpSession *
_pal_session_setup_new_session (PalSessionSetup    *setup,
                                PalSessionManager  *self,
                                AcpAgent           *agent,
                                const char * const *mcp_server_names,
                                GPtrArray         **servers)
{
  AcpSession *session;

  *servers = collect_mcp_servers (self, mcp_server_names, agent, setup->notices);
  session = acp_session_new (agent, setup->cwd);
  setup->folders_left_out =
    give_folders (session, (const char * const *) setup->additional_directories);

  return session;
}

void
_pal_session_setup_append_notices (PalSessionSetup *setup,
                                   AcpSession      *session)
{
  AcpTranscript *transcript = acp_session_get_transcript (session);

  for (guint i = 0; i < setup->notices->len; i++)
    {
      Notice *notice = g_ptr_array_index (setup->notices, i);

      acp_transcript_append_notice (transcript, notice->severity,
                                    _("MCP server left out"), notice->body, NULL);
    }
  if (setup->folders_left_out)
    append_folders_notice (session, (const char * const *) setup->additional_directories);
}

/* }}} */

/* new session {{{ */

typedef struct
{
  char            *profile_id;
  char           **mcp_server_names;
  PalSessionSetup  setup;
  AcpSession      *session;
} NewData;

static void
new_data_free (gpointer data)
{
  NewData *new_data = data;

  g_free (new_data->profile_id);
  g_strfreev (new_data->mcp_server_names);
  _pal_session_setup_clear (&new_data->setup);
  g_clear_object (&new_data->session);
  g_free (new_data);
}

/* Shared with session/fork: see pal-session-manager-private.h. */
void
_pal_session_manager_return_created (PalSessionManager *self,
                                     GTask             *task_in,
                                     const char        *profile_id,
                                     const char        *cwd,
                                     AcpSession        *session,
                                     const char        *title)
{
  g_autoptr(GTask) task = task_in;
  const char *id = acp_session_get_session_id (session);
  g_autoptr(PalSessionKey) key = pal_session_key_new (profile_id, id);
  g_autoptr(PalSessionRecord) record = NULL;
  PalLiveSession *live = self->live != NULL ? g_hash_table_lookup (self->live, key) : NULL;
  gint64 now;

  if (self->shut_down ||
      (live != NULL &&
       (live->opening || (live->session != NULL && _pal_session_is_open (live->session)))))
    {
      acp_session_close_async (session, NULL, NULL, NULL);
      if (self->shut_down)
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED, "%s",
                                 _("Palaver is quitting"));
      else
        g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_EXISTS,
                                 _("The agent gave the new session the id “%s”, which an open "
                                   "session already has"), id);
      return;
    }

  now = g_get_real_time ();
  record = pal_session_record_new (id, profile_id, cwd);
  if (title != NULL)
    pal_session_record_set_title (record, title);
  pal_session_record_set_additional_directories (record,
                                                 acp_session_get_additional_directories (session));
  pal_session_record_set_created (record, now);
  pal_session_record_set_updated (record, now);
  pal_session_store_add (self->session_store, record);

  if (live == NULL)
    live = _pal_session_manager_add_live (self, key);
  _pal_live_session_set_open_error (live, NULL);
  _pal_session_manager_follow (self, live, session);
  _pal_session_manager_update_state (live);

  g_task_return_pointer (task, g_object_ref (session), g_object_unref);
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
  GError *error = NULL;

  if (!acp_session_create_finish (session, result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  _pal_session_setup_append_notices (&data->setup, session);
  _pal_session_manager_return_created (self, g_steal_pointer (&task), data->profile_id,
                                       data->setup.cwd, session, NULL);
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

  data->session = _pal_session_setup_new_session (&data->setup, self, agent,
                                                  (const char * const *) data->mcp_server_names,
                                                  &servers);
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
 * @additional_directories: (nullable) (array zero-terminated=1): absolute
 *   folders the session may use besides @cwd
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is READY or failed
 * @user_data: data for @callback
 *
 * Starts the agent of that profile and folder unless it runs (shared with
 * the other sessions there) and creates a session (session/new) with the MCP
 * servers the agent can use; each one left out gets an INFO notice in the
 * transcript. The additional folders are passed when the agent supports
 * them (with an INFO notice when not), tidied as pal_folders_clean() does,
 * and the file service lets the agent use them as it does @cwd. The new
 * session is added to the session store, with the folders it was given.
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
                                       const char * const  *additional_directories,
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
  for (guint i = 0; additional_directories != NULL && additional_directories[i] != NULL; i++)
    {
      if (!g_path_is_absolute (additional_directories[i]))
        {
          g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_INVALID,
                                   _("The additional folder “%s” is not an absolute path"),
                                   additional_directories[i]);
          return;
        }
    }

  data = g_new0 (NewData, 1);
  data->profile_id = g_strdup (profile_id);
  data->mcp_server_names = g_strdupv ((char **) mcp_server_names);
  _pal_session_setup_init (&data->setup, g_steal_pointer (&canonical), additional_directories);
  g_task_set_task_data (task, data, new_data_free);

  _pal_session_manager_ensure_agent_async (self, profile_id, data->setup.cwd, cancellable,
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

/* A session only the agent listed becomes a stored one once opened. */
static void
keep_record (PalSessionManager *self,
             PalSessionKey     *key)
{
  PalSessionRecord *record = pal_session_store_lookup (self->session_store, key);

  if (record != NULL && pal_session_record_get_from_agent (record))
    pal_session_store_add (self->session_store, record);
}

/* Returns: how many items of @from's transcript were added to @to's */
guint
_pal_session_carry_transcript (AcpSession *from,
                               AcpSession *to)
{
  GListModel *items = G_LIST_MODEL (acp_session_get_transcript (from));
  AcpTranscript *transcript = acp_session_get_transcript (to);
  guint n = g_list_model_get_n_items (items);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (items, i);

      acp_transcript_append (transcript, item);
    }
  acp_transcript_flush (transcript);

  return n;
}

typedef struct
{
  PalLiveSession  *live;
  PalTranscriptStore *transcript_store;  /* where the replay is recorded, or NULL */
  PalSessionKey   *key;
  char            *profile_id;
  PalSessionSetup  setup;
  OpenMode         mode;
  gboolean         resumed;
  gboolean         can_load;  /* of the agent that resumed it */
  guint            n_kept;    /* items of the transcript on screen kept over a resume */
  AcpSession      *session;
  GPtrArray       *servers;   /* AcpMcpServer, until the load or resume is sent */
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_object (&data->live);
  g_clear_object (&data->transcript_store);
  g_clear_pointer (&data->key, pal_session_key_unref);
  g_free (data->profile_id);
  _pal_session_setup_clear (&data->setup);
  g_clear_object (&data->session);
  g_clear_pointer (&data->servers, g_ptr_array_unref);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenData, open_data_free)

/* The open failed, was refused or was cancelled. */
static void
open_failed (PalLiveSession *live,
             const GError   *error,
             gboolean        refused)
{
  g_autoptr(PalLiveSession) hold = g_object_ref (live);
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
      _pal_session_manager_remove_live (self, live, FALSE);
    }
  else
    {
      if (!cancelled && !refused)
        {
          _pal_live_session_set_open_error (live, error);

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
      _pal_session_manager_update_state (live);
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
  PalLiveSession *live = data->live;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (data->resumed)
    ok = acp_session_resume_finish (session, result, &error);
  else
    ok = acp_session_load_finish (session, result, &error);
  if (!data->resumed)
    _pal_replay_ends (data->transcript_store, data->key, ok);

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

  /* a resume replays nothing: say what the transcript shows, and no more */
  if (data->resumed && data->n_kept > 0)
    acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_INFO,
                                  _("Session resumed"),
                                  _("The messages above were shown before; the agent goes on from "
                                    "where the session was."),
                                  NULL);
  else if (data->resumed && data->can_load)
    acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_INFO,
                                  _("History not shown"),
                                  _("A resume does not replay the history. Open the session "
                                    "instead to see its past messages."),
                                  NULL);
  else if (data->resumed)
    acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_INFO,
                                  _("History not shown"),
                                  _("History is not replayed: the agent can resume this session "
                                    "but not show its past messages."),
                                  NULL);
  _pal_session_setup_append_notices (&data->setup, session);

  keep_record (live->manager, live->key);
  _pal_session_manager_update_state (live);

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

/* Sends the load or the resume of @data (taken) */
static void
start_open (OpenData *data)
{
  PalLiveSession *live = data->live;
  PalSessionManager *self = live->manager;
  AcpSession *session = data->session;
  GCancellable *cancellable = live->open.cancellable;
  g_autoptr(GPtrArray) servers = g_steal_pointer (&data->servers);

  if (data->resumed)
    {
      acp_session_resume_async (session, pal_session_key_get_session_id (live->key), servers,
                                cancellable, open_done_cb, data);
    }
  else
    {
      _pal_session_manager_replay_begins (self, live->key);
      acp_session_load_async (session, pal_session_key_get_session_id (live->key), servers,
                              cancellable, open_done_cb, data);
    }

  _pal_session_manager_update_state (live);
}

static void
history_carried_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(OpenData) data = user_data;
  g_autoptr(GError) error = NULL;
  PalLiveSession *live = data->live;

  if (!_pal_session_manager_carry_history_finish (PAL_SESSION_MANAGER (object), result,
                                                  &data->n_kept, &error))
    {
      if (live->manager != NULL && live->session == data->session)
        open_failed (live, error, FALSE);
      return;
    }
  /* closed or forgotten meanwhile */
  if (live->manager == NULL || live->session != data->session)
    return;

  start_open (g_steal_pointer (&data));
}

static void
open_agent_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(OpenData) data = user_data;
  PalSessionManager *self = PAL_SESSION_MANAGER (object);
  g_autoptr(PalLiveSession) live = g_object_ref (data->live);
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GError) error = NULL;

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

  session = _pal_session_setup_new_session (&data->setup, self, agent, NULL, &servers);
  data->session = g_object_ref (session);
  data->servers = g_steal_pointer (&servers);
  data->can_load = acp_agent_has_capability (agent, ACP_AGENT_CAP_LOAD_SESSION);
  /* a load replays the history into the new transcript; a resume does not,
   * so what was on screen (a closed or failed session) stays */
  if (data->resumed)
    {
      g_autoptr(AcpSession) previous = live->session != NULL
        ? g_object_ref (live->session)
        : _pal_session_manager_dup_previous (self, live->key);

      if (previous != NULL)
        data->n_kept = _pal_session_carry_transcript (previous, session);
    }

  /* Bound before the load starts, so that the replay shows live. */
  _pal_session_manager_follow (self, live, session);
  if (live->manager == NULL)
    return;

  /* nothing on screen: the history kept goes above what the resume brings */
  if (data->resumed && data->n_kept == 0)
    {
      _pal_session_manager_carry_history_async (self, live->key, session,
                                                live->open.cancellable, history_carried_cb,
                                                g_steal_pointer (&data));
      return;
    }

  start_open (g_steal_pointer (&data));
}

static void
open_common (PalSessionManager   *self,
             PalSessionKey       *key,
             OpenMode             mode,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data,
             gpointer             source_tag)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *cwd = NULL;
  PalSessionRecord *record;
  PalLiveSession *live;
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

  live = g_hash_table_lookup (self->live, key);
  if (live != NULL && live->opening)
    {
      _pal_wait_list_add (&live->open, task);
      return;
    }
  if (live != NULL && live->session != NULL && _pal_session_is_open (live->session))
    {
      g_task_return_pointer (task, g_object_ref (live->session), g_object_unref);
      return;
    }

  record = pal_session_store_lookup (self->session_store, key);
  if (record == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND,
                               _("The session “%s” is not in the list"),
                               pal_session_key_get_session_id (key));
      return;
    }

  cwd = _pal_session_manager_canonical_cwd (pal_session_record_get_cwd (record), &error);
  if (cwd == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (live == NULL)
    live = _pal_session_manager_add_live (self, key);

  live->opening = TRUE;
  live->starting_agent = TRUE;
  _pal_live_session_set_open_error (live, NULL);
  g_clear_object (&live->open.cancellable);
  live->open.cancellable = g_cancellable_new ();
  _pal_wait_list_add (&live->open, task);

  data = g_new0 (OpenData, 1);
  data->live = g_object_ref (live);
  data->transcript_store = self->transcript_store != NULL ? g_object_ref (self->transcript_store)
                                                          : NULL;
  data->key = pal_session_key_ref (key);
  data->profile_id = g_strdup (pal_session_record_get_agent_id (record));
  _pal_session_setup_init (&data->setup, g_steal_pointer (&cwd),
                           pal_session_record_get_additional_directories (record));
  data->mode = mode;

  _pal_session_manager_update_state (live);

  _pal_session_manager_ensure_agent_async (self, data->profile_id, data->setup.cwd,
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
 * @key: a session in the session store
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is open or could not be
 * @user_data: data for @callback
 *
 * Opens a stored session: an open live session is returned as it is;
 * otherwise (not running, or FAILED) the agent of its profile and folder is
 * started unless it runs, then the session is loaded (session/load, the
 * history replays into a new transcript as it arrives: bind to the
 * #PalLiveSession:session of its live session to show it live) when the
 * agent can, else resumed (session/resume, with an INFO notice that the history is
 * not shown), else the call fails with %PAL_ERROR_NOT_SUPPORTED and nothing is
 * sent. An open in progress is shared.
 *
 * On failure the session stays FAILED with what was shown so far and an
 * error notice (pal_session_manager_lookup() still returns it); a refusal
 * or cancellation leaves it as it was.
 */
void
pal_session_manager_open_session_async (PalSessionManager   *self,
                                        PalSessionKey       *key,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, key, OPEN_AUTO, cancellable, callback, user_data,
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
 * @key: a session in the session store
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
                                        PalSessionKey       *key,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, key, OPEN_LOAD, cancellable, callback, user_data,
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
 * @key: a session in the session store
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
                                          PalSessionKey       *key,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, key, OPEN_RESUME, cancellable, callback, user_data,
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
 * @key: a session in the session store
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
                                   PalSessionKey       *key,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  open_common (self, key, OPEN_AUTO, cancellable, callback, user_data,
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
  PalSessionKey *key;
  PalLiveSession *live;
  GError *error = NULL;
  gboolean ok;

  ok = acp_session_close_finish (session, result, &error);

  /* Closed here whatever the agent answered; a FAILED session does not
   * change state, so take it out here. */
  key = pal_session_manager_get_session_key (self, session);
  live = key != NULL ? g_hash_table_lookup (self->live, key) : NULL;
  if (live != NULL && live->session == session && !live->opening)
    _pal_session_manager_remove_live (self, live, TRUE);

  if (!ok)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * pal_session_manager_close_session_async:
 * @self: a #PalSessionManager
 * @key: a session
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
                                         PalSessionKey       *key,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PalLiveSession *live;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_close_session_async);

  live = g_hash_table_lookup (self->live, key);
  if (live == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (live->opening || live->session == NULL)
    {
      _pal_session_manager_remove_live (self, live, TRUE);
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
 * @key: a session
 *
 * Removes the session from the list: closes it if it is live (in the
 * background; an open in progress is cancelled), removes its record from
 * the session store and drops the output of its terminals (of every agent
 * process it ran on). The agent may still keep it (and list it again).
 *
 * Returns: %FALSE when the session was neither listed nor live
 */
gboolean
pal_session_manager_forget (PalSessionManager *self,
                            PalSessionKey     *key)
{
  g_autoptr(PalSessionKey) hold = NULL;
  PalLiveSession *live;
  gboolean found = FALSE;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  /* the caller's key may be the record's, which goes below */
  hold = pal_session_key_ref (key);

  live = g_hash_table_lookup (self->live, key);
  if (live != NULL)
    {
      g_autoptr(AcpSession) session = live->session != NULL ? g_object_ref (live->session) : NULL;
      gboolean was_open = session != NULL && !live->opening;

      found = TRUE;
      _pal_session_manager_remove_live (self, live, TRUE);
      if (was_open)
        acp_session_close_async (session, NULL, forget_closed_cb, NULL);
    }

  if (pal_session_store_remove (self->session_store, key))
    found = TRUE;

  acp_terminal_service_forget_group_session (self->terminal_service,
                                             pal_session_key_get_agent_id (key),
                                             pal_session_key_get_session_id (key));

  return found;
}

/* }}} */
