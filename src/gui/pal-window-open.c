/* pal-window-open.c: opening, resuming and starting sessions
 *
 * Each open or start is an attempt: what it takes to try it again after
 * a sign-in or from Retry on the error page, and the prompt to send once
 * the session is open (written in a closed session, or while a new one
 * starts). A prompt that cannot go out is given back to the composer.
 * Opening a stored session waits for the frame that shows it; once open,
 * the agent is asked for the sessions it keeps in that folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-new-session-dialog.h"
#include "pal-window-private.h"

/* --- attempts --- */

void
_pal_attempt_free (Attempt *attempt)
{
  g_clear_object (&attempt->self);
  g_clear_pointer (&attempt->key, pal_session_key_unref);
  g_free (attempt->agent_id);
  g_free (attempt->folder);
  g_strfreev (attempt->mcp_servers);
  g_strfreev (attempt->additional_dirs);
  g_clear_object (&attempt->prompt);
  g_free (attempt);
}

Attempt *
_pal_attempt_new (PalWindow          *self,
                  PalSessionKey      *key,
                  const char         *agent_id,
                  const char         *folder,
                  const char * const *mcp_servers)
{
  Attempt *attempt = g_new0 (Attempt, 1);

  attempt->self = g_object_ref (self);
  attempt->key = key != NULL ? pal_session_key_ref (key) : NULL;
  attempt->agent_id = g_strdup (agent_id);
  attempt->folder = g_strdup (folder);
  attempt->mcp_servers = g_strdupv ((char **) mcp_servers);

  return attempt;
}

Attempt *
_pal_attempt_for_session (PalWindow     *self,
                          PalSessionKey *key,
                          PalPrompt     *prompt)
{
  PalSessionRecord *record;
  Attempt *attempt;

  record = _pal_window_lookup_record (self, key);
  if (record == NULL)
    return NULL;

  attempt = _pal_attempt_new (self, key, pal_session_record_get_agent_id (record),
                              pal_session_record_get_cwd (record), NULL);
  attempt->prompt = prompt != NULL ? g_object_ref (prompt) : NULL;
  return attempt;
}

AcpAgent *
_pal_attempt_lookup_agent (Attempt *attempt)
{
  return pal_session_manager_lookup_agent (attempt->self->manager, attempt->agent_id,
                                           attempt->folder);
}

/* --- opening --- */

static void
refresh_listed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  guint n_added = 0;

  if (!pal_session_manager_refresh_listed_finish (PAL_SESSION_MANAGER (object), result, &n_added, &error))
    g_debug ("Could not list the agent's sessions: %s", error->message);
  else if (n_added > 0)
    g_debug ("The agent listed %u sessions not in the sidebar yet", n_added);
}

/* Sessions the agent knows for this folder (started elsewhere, in a
 * terminal) join the sidebar, marked as from the agent. Agents without
 * session/list are not asked. */
void
_pal_window_refresh_listed (PalWindow  *self,
                            const char *agent_id,
                            const char *folder)
{
  AcpAgent *agent = pal_session_manager_lookup_agent (self->manager, agent_id, folder);

  if (agent == NULL || !acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_LIST))
    return;

  pal_session_manager_refresh_listed_async (self->manager, agent_id, folder, self->cancellable,
                                            refresh_listed_cb, NULL);
}

/* A prompt that could not go out (its session could not be opened again,
 * the sign-in was cancelled or failed) is given back: into the composer, or
 * the session's draft when another one is shown, unless the person wrote
 * something else there meanwhile. */
void
_pal_attempt_give_back_prompt (Attempt *attempt)
{
  PalWindow *self = attempt->self;
  g_autofree char *text = NULL;

  if (attempt->prompt == NULL)
    return;

  if (!pal_session_key_equal0 (attempt->key, self->current))
    {
      if (!g_hash_table_contains (self->drafts, attempt->key))
        g_hash_table_insert (self->drafts, pal_session_key_ref (attempt->key), g_object_ref (attempt->prompt));
      return;
    }

  text = pal_composer_dup_text (_pal_window_get_composer (self));
  if (text == NULL || *text == '\0')
    pal_composer_set_prompt (_pal_window_get_composer (self), attempt->prompt);
}

static void
open_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;

  session = pal_session_manager_open_session_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (session == NULL)
    {
      _pal_attempt_give_back_prompt (attempt);
      _pal_window_handle_error (attempt->self, attempt->key, attempt->agent_id, attempt->folder,
                                _("The session could not be opened"), error);
      return;
    }

  if (pal_session_key_equal0 (attempt->key, attempt->self->current))
    _pal_window_show_session (attempt->self, attempt->key);
  if (attempt->prompt != NULL &&
      !pal_session_view_send_prompt (attempt->self->session_view, session, attempt->prompt))
    _pal_attempt_give_back_prompt (attempt);
  _pal_window_refresh_listed (attempt->self, attempt->agent_id, attempt->folder);
}

/* Opening a session starts its agent, then its replay keeps the agent, the
 * reader thread and the main thread busy. The frame that shows the session,
 * the heaviest of the opening (a whole view to lay out and draw), comes
 * first: the opening starts once it is painted, or after OPEN_FRAME_WAIT_MS
 * should no frame come. */
#define OPEN_FRAME_WAIT_MS 100

typedef struct
{
  Attempt       *attempt;
  GdkFrameClock *frame_clock;
  gulong         after_paint_id;
  guint          timeout_id;
} PendingOpen;

static void
start_open (Attempt *attempt)
{
  PalWindow *self = attempt->self;

  /* the window closed meanwhile */
  if (self->manager == NULL)
    {
      _pal_attempt_free (attempt);
      return;
    }

  pal_session_manager_open_session_async (self->manager, attempt->key, self->cancellable,
                                          open_cb, attempt);
}

static void
pending_open_run (PendingOpen *pending)
{
  Attempt *attempt = g_steal_pointer (&pending->attempt);

  g_clear_signal_handler (&pending->after_paint_id, pending->frame_clock);
  g_clear_handle_id (&pending->timeout_id, g_source_remove);
  g_clear_object (&pending->frame_clock);
  g_free (pending);

  start_open (attempt);
}

static void
pending_open_painted_cb (GdkFrameClock *frame_clock,
                         PendingOpen   *pending)
{
  pending_open_run (pending);
}

static gboolean
pending_open_timeout_cb (gpointer user_data)
{
  PendingOpen *pending = user_data;

  pending->timeout_id = 0;
  pending_open_run (pending);

  return G_SOURCE_REMOVE;
}

/* Starts @attempt (transfer full) after the next frame of the window. */
static void
open_after_frame (PalWindow *self,
                  Attempt   *attempt)
{
  GdkFrameClock *frame_clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  PendingOpen *pending;

  if (frame_clock == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      start_open (attempt);
      return;
    }

  pending = g_new0 (PendingOpen, 1);
  pending->attempt = attempt;
  pending->frame_clock = g_object_ref (frame_clock);
  pending->after_paint_id = g_signal_connect (frame_clock, "after-paint",
                                              G_CALLBACK (pending_open_painted_cb), pending);
  pending->timeout_id = g_timeout_add (OPEN_FRAME_WAIT_MS, pending_open_timeout_cb, pending);
  /* a frame comes even when the window shows nothing new */
  gdk_frame_clock_request_phase (frame_clock, GDK_FRAME_CLOCK_PHASE_PAINT);
}

/* Shows the session, then opens it unless it is live already; @prompt
 * (nullable) is sent once it is open, or given back when it cannot be. */
static void
open_session (PalWindow     *self,
              PalSessionKey *key,
              PalPrompt     *prompt)
{
  Attempt *attempt = _pal_attempt_for_session (self, key, prompt);
  AcpSession *session;

  if (attempt == NULL)
    {
      /* Translators: shown when a session id given on the command line is unknown */
      pal_window_add_toast (self, _("There is no such session in the list"));
      return;
    }

  _pal_window_show_session (self, key);

  session = pal_session_manager_lookup (self->manager, key);
  if (session != NULL)
    {
      AcpSessionState state = acp_session_get_state (session);

      if (state != ACP_SESSION_STATE_CLOSED && state != ACP_SESSION_STATE_FAILED &&
          state != ACP_SESSION_STATE_NEW)
        {
          _pal_attempt_give_back_prompt (attempt);
          _pal_attempt_free (attempt);
          return;
        }
    }

  open_after_frame (self, attempt);
}

/**
 * pal_window_open_session:
 * @self: a #PalWindow
 * @key: a session of the list
 *
 * Shows the session, then opens it (load with a live replay when the
 * agent can, else resume) unless it is live already; on screen, the opening
 * starts after the frame that shows the session.
 */
void
pal_window_open_session (PalWindow     *self,
                         PalSessionKey *key)
{
  g_return_if_fail (PAL_IS_WINDOW (self));
  g_return_if_fail (key != NULL);

  open_session (self, key, NULL);
}

/* The person wrote in a closed session: it is opened again, then sent. */
static void
session_view_reopen_requested_cb (PalSessionView *view,
                                  PalPrompt      *prompt,
                                  PalWindow      *self)
{
  g_autofree char *reason = NULL;

  if (self->current == NULL)
    return;

  if (!_pal_window_can (self->current, "win.open-session", &reason, self))
    {
      /* the closed transcript stays, and so does what was written */
      pal_composer_set_prompt (_pal_window_get_composer (self), prompt);
      pal_window_add_toast (self, reason != NULL ? reason : _("The session cannot be opened again."));
      return;
    }

  open_session (self, self->current, prompt);
}

static void
resume_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;

  session = pal_session_manager_resume_session_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (session == NULL)
    {
      _pal_window_handle_error (attempt->self, attempt->key, attempt->agent_id, attempt->folder,
                                _("The session could not be resumed"), error);
      return;
    }

  if (pal_session_key_equal0 (attempt->key, attempt->self->current))
    _pal_window_show_session (attempt->self, attempt->key);
}

void
_pal_window_resume_session (PalWindow     *self,
                            PalSessionKey *key)
{
  Attempt *attempt = _pal_attempt_for_session (self, key, NULL);

  if (attempt == NULL)
    return;

  _pal_window_show_session (self, key);
  pal_session_manager_resume_session_async (self->manager, key, self->cancellable, resume_cb,
                                            attempt);
}

/* --- starting --- */

static void
new_session_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  PalWindow *self = attempt->self;
  const char *title = _("The session could not be started");

  if (self->starting_attempt == attempt)
    self->starting_attempt = NULL;

  session = pal_session_manager_new_session_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (session == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          _pal_window_show_session (self, self->current);
          return;
        }
      if (pal_session_manager_error_is_auth_required (error))
        {
          if (!_pal_window_sign_in_did_not_take (self, attempt->agent_id))
            {
              _pal_window_sign_in (self, g_steal_pointer (&attempt));
              return;
            }
          title = _("The agent still asks for a sign-in");
        }
      _pal_window_set_current (self, NULL);
      _pal_window_show_retry_error (self, title, g_steal_pointer (&attempt), error);
      return;
    }

  g_clear_pointer (&attempt->key, pal_session_key_unref);
  attempt->key = pal_session_key_ref (pal_session_manager_get_session_key (self->manager, session));
  g_hash_table_add (self->started, pal_session_key_ref (attempt->key));
  _pal_window_show_session (self, attempt->key);
  /* written while it started */
  if (attempt->prompt != NULL &&
      !pal_session_view_send_prompt (self->session_view, session, attempt->prompt))
    _pal_attempt_give_back_prompt (attempt);
  _pal_window_refresh_listed (self, attempt->agent_id, attempt->folder);
}

/* Starts a new session: the session view says so and takes a prompt for it
 * already; @prompt (nullable) is sent once it is open. */
static void
start_session (PalWindow          *self,
               const char         *agent_id,
               const char         *folder,
               const char * const *mcp_servers,
               const char * const *additional_dirs,
               PalPrompt          *prompt)
{
  Attempt *attempt;

  g_clear_pointer (&self->retry_attempt, _pal_attempt_free);
  /* a folder name that is not UTF-8 cannot be stored; the session manager
   * refuses it with a message */
  if (self->settings != NULL && g_utf8_validate (folder, -1, NULL))
    g_settings_set_string (self->settings, "last-folder", folder);

  _pal_window_set_current (self, NULL);
  pal_sidebar_select (self->sidebar, NULL);
  _pal_window_update_header (self);
  adw_window_title_set_title (self->window_title, _("New Session"));
  adw_window_title_set_subtitle (self->window_title, _pal_window_agent_name (self, agent_id));
  pal_session_view_set_starting (self->session_view, prompt != NULL);
  gtk_stack_set_visible_child_name (self->content_stack, "session");
  _pal_window_update_actions (self);

  attempt = _pal_attempt_new (self, NULL, agent_id, folder, mcp_servers);
  attempt->additional_dirs = g_strdupv ((char **) additional_dirs);
  attempt->prompt = prompt != NULL ? g_object_ref (prompt) : NULL;
  self->starting_attempt = attempt;
  _pal_window_update_actions (self);
  pal_session_manager_new_session_async (self->manager, agent_id, folder, mcp_servers, additional_dirs,
                                         self->cancellable, new_session_cb, attempt);
}

/* The person wrote while the new session starts: it goes once it is open. */
static void
session_view_prompt_held_cb (PalSessionView *view,
                             PalPrompt      *prompt,
                             PalWindow      *self)
{
  Attempt *attempt = self->starting_attempt;

  if (attempt != NULL && attempt->prompt == NULL)
    attempt->prompt = g_object_ref (prompt);
}

/**
 * pal_window_start_session:
 * @self: a #PalWindow
 * @agent_id: an agent profile
 * @folder: an absolute project folder
 * @mcp_servers: (nullable): MCP servers to hand over; %NULL for every enabled one
 *
 * Starts a new session and shows it once the agent answers.
 */
void
pal_window_start_session (PalWindow          *self,
                          const char         *agent_id,
                          const char         *folder,
                          const char * const *mcp_servers)
{
  g_return_if_fail (PAL_IS_WINDOW (self));
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (folder != NULL);

  start_session (self, agent_id, folder, mcp_servers, NULL, NULL);
}

/**
 * pal_window_start_session_with_prompt:
 * @self: a #PalWindow
 * @agent_id: an agent profile
 * @folder: an absolute project folder
 * @prompt: (nullable): sent once the session has started (shown in the
 *   composer meanwhile, and given back there should it not go out)
 *
 * Starts a new session with every enabled MCP server, as
 * pal_window_start_session() does, then sends @prompt.
 */
void
pal_window_start_session_with_prompt (PalWindow  *self,
                                      const char *agent_id,
                                      const char *folder,
                                      const char *prompt)
{
  g_autoptr(PalPrompt) first = NULL;

  g_return_if_fail (PAL_IS_WINDOW (self));
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (folder != NULL);

  if (prompt != NULL)
    first = pal_prompt_new (prompt);
  start_session (self, agent_id, folder, NULL, NULL, first);
}

void
_pal_attempt_retry (Attempt *attempt)
{
  if (attempt->key != NULL)
    {
      AcpSession *session = pal_session_manager_lookup (attempt->self->manager, attempt->key);

      /* a prompt the agent refused goes again to its session, open or not */
      if (attempt->prompt == NULL || session == NULL ||
          !pal_session_view_send_prompt (attempt->self->session_view, session, attempt->prompt))
        open_session (attempt->self, attempt->key, attempt->prompt);
    }
  else
    start_session (attempt->self, attempt->agent_id, attempt->folder,
                   (const char * const *) attempt->mcp_servers,
                   (const char * const *) attempt->additional_dirs, attempt->prompt);
  _pal_attempt_free (attempt);
}

static void
dialog_start_cb (PalNewSessionDialog *dialog,
                 const char          *agent_id,
                 const char          *folder,
                 GStrv                mcp_servers,
                 GStrv                additional_folders,
                 PalWindow           *self)
{
  start_session (self, agent_id, folder, (const char * const *) mcp_servers,
                 (const char * const *) additional_folders, NULL);
}

void
pal_window_show_new_session_dialog (PalWindow *self)
{
  g_autofree char *agent_id = NULL;
  g_autofree char *folder = NULL;
  PalNewSessionDialog *dialog;

  g_return_if_fail (PAL_IS_WINDOW (self));

  agent_id = pal_agent_store_dup_default_id (pal_session_manager_get_agent_store (self->manager));
  if (self->settings != NULL)
    folder = g_settings_get_string (self->settings, "last-folder");
  if (folder == NULL || *folder == '\0')
    {
      g_free (folder);
      folder = g_strdup (g_get_home_dir ());
    }

  dialog = pal_new_session_dialog_new (self->manager, agent_id, folder);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  g_signal_connect_object (dialog, "start", G_CALLBACK (dialog_start_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* How long an agent stopped while a session starts gets for SIGTERM, then
 * for SIGKILL: it did not answer. */
#define STOP_STARTING_GRACE_MS 500

void
_pal_window_stop_starting_agent (PalWindow *self)
{
  Attempt *attempt = self->starting_attempt;
  AcpAgent *agent;

  if (attempt == NULL)
    return;

  /* hung in session/new: an agent that answered initialize; one hung in
   * initialize itself is stopped by cancelling its start */
  agent = _pal_attempt_lookup_agent (attempt);
  if (agent != NULL)
    {
      acp_agent_set_stop_grace_period (agent, STOP_STARTING_GRACE_MS);
      acp_agent_stop_async (agent, NULL, NULL, NULL);
    }
  _pal_window_cancel_start (self);
}

void
_pal_window_cancel_start (PalWindow *self)
{
  /* cancels everything in flight for this window, then starts afresh */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  _pal_window_show_session (self, NULL);
}

void
_pal_window_setup_open (PalWindow *self)
{
  g_signal_connect_object (self->session_view, "reopen-requested",
                          G_CALLBACK (session_view_reopen_requested_cb), self, 0);
  g_signal_connect_object (self->session_view, "prompt-held",
                          G_CALLBACK (session_view_prompt_held_cb), self, 0);
}
