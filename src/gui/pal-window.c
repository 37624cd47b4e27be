/* pal-window.c: the main window: sessions on the left, the chat on the right
 *
 * The window holds no session state of its own: the session manager has the
 * live sessions and their states, the session store the list. The window
 * shows one session at a time (the current one), follows the manager's
 * state changes to keep the sidebar and its header up to date, and turns
 * failures into something a person can act on: an inline error with the
 * agent's own words behind Details and Retry, or a sign-in dialog when the
 * agent asks for authentication. When the window is not focused, the end of
 * a turn and a permission request are announced by desktop notifications.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "acp-fs-access-request.h"
#include "pal-composer.h"
#include "pal-launcher.h"
#include "pal-new-session-dialog.h"
#include "pal-sign-in-terminal.h"
#include "pal-sign-in-values.h"
#include "pal-tooltip.h"
#include "pal-warm-up.h"
#include "pal-window-private.h"

G_DEFINE_FINAL_TYPE (PalWindow, pal_window, ADW_TYPE_APPLICATION_WINDOW)

typedef struct
{
  PalWindow *self;
  PalSessionKey  *key;
  char      *agent_id;
  char      *folder;
  GStrv      mcp_servers;
  GStrv      additional_dirs;
  char      *prompt;      /* to send once the session is open, or signed in */
} Attempt;

static void
attempt_free (Attempt *attempt)
{
  g_clear_object (&attempt->self);
  g_clear_pointer (&attempt->key, pal_session_key_unref);
  g_free (attempt->agent_id);
  g_free (attempt->folder);
  g_strfreev (attempt->mcp_servers);
  g_strfreev (attempt->additional_dirs);
  g_free (attempt->prompt);
  g_free (attempt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Attempt, attempt_free)

static Attempt *
attempt_new (PalWindow          *self,
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

/* An attempt on a stored session, with its agent and folder; NULL when the
 * list has no such session. */
static Attempt *
attempt_for_session (PalWindow     *self,
                     PalSessionKey *key,
                     const char    *prompt)
{
  PalSessionRecord *record;
  Attempt *attempt;

  record = pal_session_store_lookup (pal_session_manager_get_session_store (self->manager), key);
  if (record == NULL)
    return NULL;

  attempt = attempt_new (self, key, pal_session_record_get_agent_id (record),
                         pal_session_record_get_cwd (record), NULL);
  attempt->prompt = g_strdup (prompt);
  return attempt;
}

static void retry_attempt (Attempt *attempt);
static void give_back_prompt (Attempt *attempt);
static void watch_current_record (PalWindow *self);

static PalRowState
row_state_for (PalSessionState state)
{
  switch (state)
    {
    case PAL_SESSION_STATE_STARTING_AGENT:
      return PAL_ROW_STATE_STARTING;
    case PAL_SESSION_STATE_LOADING:
      return PAL_ROW_STATE_LOADING;
    case PAL_SESSION_STATE_READY:
      return PAL_ROW_STATE_READY;
    case PAL_SESSION_STATE_WORKING:
      return PAL_ROW_STATE_WORKING;
    case PAL_SESSION_STATE_WAITING_PERMISSION:
      return PAL_ROW_STATE_WAITING;
    case PAL_SESSION_STATE_STOPPING:
      return PAL_ROW_STATE_STOPPING;
    case PAL_SESSION_STATE_FAILED:
      return PAL_ROW_STATE_FAILED;
    case PAL_SESSION_STATE_NOT_RUNNING:
    default:
      return PAL_ROW_STATE_NOT_RUNNING;
    }
}

static PalRowState
sidebar_state_func (PalSessionKey *key,
                    gpointer    user_data)
{
  PalWindow *self = user_data;

  return row_state_for (pal_session_manager_get_session_state (self->manager, key));
}

static const char *
agent_name (PalWindow  *self,
            const char *agent_id)
{
  return pal_agent_store_get_name (pal_session_manager_get_agent_store (self->manager), agent_id);
}

static void
update_header (PalWindow *self)
{
  PalSessionStore *store = pal_session_manager_get_session_store (self->manager);
  PalSessionRecord *record = self->current != NULL ? pal_session_store_lookup (store, self->current) : NULL;
  g_autofree char *subtitle = NULL;
  PalSessionState state;

  if (record == NULL)
    {
      adw_window_title_set_title (self->window_title, _("Palaver"));
      adw_window_title_set_subtitle (self->window_title, NULL);
      pal_widget_set_quiet_tooltip (GTK_WIDGET (self->window_title), NULL);
      gtk_label_set_text (self->state_label, NULL);
      gtk_widget_set_visible (GTK_WIDGET (self->session_menu_button), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Palaver"));
      return;
    }

  {
    const char *title = pal_session_record_get_title (record);
    g_autofree char *folder = pal_format_session_folder (record);
    g_autofree char *folders = pal_describe_session_folders (record);
    const char *agent = agent_name (self, pal_session_record_get_agent_id (record));

    if (title == NULL || *title == '\0')
      title = _("New Session");

    subtitle = agent != NULL ? g_strdup_printf ("%s · %s", folder, agent) : g_strdup (folder);
    adw_window_title_set_title (self->window_title, title);
    adw_window_title_set_subtitle (self->window_title, subtitle);
    pal_widget_set_quiet_tooltip (GTK_WIDGET (self->window_title), folders);
    gtk_window_set_title (GTK_WINDOW (self), title);
  }

  state = pal_session_manager_get_session_state (self->manager, self->current);
  gtk_label_set_text (self->state_label, pal_row_state_describe (row_state_for (state)));
  gtk_widget_set_visible (GTK_WIDGET (self->session_menu_button), TRUE);
}

static void
session_menu_activate_cb (GtkMenuButton *button,
                          PalWindow     *self)
{
  PalSessionRecord *record;

  if (self->current == NULL)
    return;

  record = pal_session_store_lookup (pal_session_manager_get_session_store (self->manager), self->current);
  pal_session_menu_update (GTK_WIDGET (gtk_menu_button_get_popover (button)), self->current,
                           record != NULL && pal_session_record_get_pinned (record),
                           _pal_window_can, self);
}

static PalComposer *
get_composer (PalWindow *self)
{
  return PAL_COMPOSER (pal_session_view_get_composer (self->session_view));
}

/* What the person wrote and did not send belongs to the session it was
 * written in: it stays with it while they look elsewhere, and is back in the
 * composer when they return. */
static void
set_current (PalWindow     *self,
             PalSessionKey *key)
{
  g_autofree char *draft = NULL;

  if (pal_session_key_equal0 (self->current, key))
    return;

  draft = pal_composer_dup_text (get_composer (self));
  if (self->current != NULL && draft != NULL && *draft != '\0')
    g_hash_table_replace (self->drafts, pal_session_key_ref (self->current), g_steal_pointer (&draft));
  else if (self->current != NULL)
    g_hash_table_remove (self->drafts, self->current);

  g_clear_pointer (&self->current, pal_session_key_unref);
  self->current = key != NULL ? pal_session_key_ref (key) : NULL;
  pal_composer_set_text (get_composer (self),
                         key != NULL ? g_hash_table_lookup (self->drafts, key) : NULL);
}

/* Shows what is known of a session: its live transcript if it has one. */
void
_pal_window_show_session (PalWindow     *self,
                          PalSessionKey *key)
{
  AcpSession *session;

  set_current (self, key);

  watch_current_record (self);
  session = key != NULL ? pal_session_manager_lookup (self->manager, key) : NULL;
  pal_session_view_set_session (self->session_view, session);
  gtk_stack_set_visible_child_name (self->content_stack, key != NULL ? "session" : "welcome");
  pal_sidebar_select (self->sidebar, key);
  update_header (self);
  _pal_window_update_actions (self);

  if (session != NULL)
    pal_session_view_focus_composer (self->session_view);
}

static void
notify_if_unfocused (PalWindow       *self,
                     PalSessionKey   *key,
                     PalSessionState  previous,
                     PalSessionState  state)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *notification_id = NULL;
  PalSessionRecord *record;
  const char *title = NULL;
  const char *session_title;

  if (app == NULL || gtk_window_is_active (GTK_WINDOW (self)))
    return;

  /* GLib warns when it cannot deliver a notification; only send one when a
   * notification service (or, sandboxed, the portal) can take it */
  if (!self->notifications_owned[0] && !self->notifications_owned[1] &&
      pal_launcher_detect_sandbox () != PAL_LAUNCHER_SANDBOX_FLATPAK)
    return;

  if (state == PAL_SESSION_STATE_WAITING_PERMISSION && previous != state)
    title = _("The agent asks for permission");
  else if (state == PAL_SESSION_STATE_READY &&
           (previous == PAL_SESSION_STATE_WORKING || previous == PAL_SESSION_STATE_WAITING_PERMISSION))
    title = _("The agent finished its turn");
  else if (state == PAL_SESSION_STATE_FAILED && previous != state)
    title = _("The agent stopped with an error");

  if (title == NULL)
    return;

  record = pal_session_store_lookup (pal_session_manager_get_session_store (self->manager), key);
  session_title = record != NULL ? pal_session_record_get_title (record) : NULL;

  notification = g_notification_new (title);
  if (session_title != NULL && *session_title != '\0')
    g_notification_set_body (notification, session_title);
  g_notification_set_default_action_and_target_value (notification, "app.show-session",
                                                      pal_session_key_to_variant (key));
  notification_id = pal_session_key_to_string (key);
  g_application_send_notification (app, notification_id, notification);
}

static void
manager_session_state_changed_cb (PalSessionManager *manager,
                                  PalSessionKey     *key,
                                  PalSessionState    state,
                                  PalWindow         *self)
{
  PalSessionState previous = GPOINTER_TO_INT (g_hash_table_lookup (self->last_states, key));

  g_hash_table_insert (self->last_states, pal_session_key_ref (key), GINT_TO_POINTER (state));
  pal_sidebar_refresh_state (self->sidebar, key);
  notify_if_unfocused (self, key, previous, state);

  if (!pal_session_key_equal0 (key, self->current))
    return;

  update_header (self);
  _pal_window_update_actions (self);
}

static void
manager_live_session_changed_cb (PalSessionManager *manager,
                                 PalSessionKey     *key,
                                 AcpSession        *session,
                                 PalWindow         *self)
{
  /* a session that became live (an open started: its replay shows as it
   * comes), was replaced by a restart, or went */
  if (!pal_session_key_equal0 (key, self->current) ||
      session == pal_session_view_get_session (self->session_view))
    return;

  /* a closed session keeps its transcript on screen, read-only, until the
   * person opens it again or looks elsewhere */
  if (session == NULL && pal_session_view_get_session (self->session_view) != NULL)
    return;

  pal_session_view_set_session (self->session_view, session);
}

static void
agent_restarted_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (pal_session_manager_restart_agent_finish (PAL_SESSION_MANAGER (object), result, &error) < 0)
    g_debug ("Restarting an agent: %s", error->message);
}

static void
restart_agent_clicked_cb (AdwToast  *toast,
                          PalWindow *self)
{
  const char *profile_id = g_object_get_data (G_OBJECT (toast), "profile-id");

  pal_session_manager_restart_agent_async (self->manager, profile_id, self->cancellable,
                                           agent_restarted_cb, NULL);
}

/* An agent's settings were edited while sessions of it are open: its
 * process keeps the old ones (environment, arguments) until it starts
 * again, which the person may ask for now. */
static void
agent_profile_edited_cb (PalAgentStore   *store,
                         PalAgentProfile *profile,
                         PalWindow       *self)
{
  const char *profile_id = pal_agent_profile_get_id (profile);

  if (pal_session_manager_is_agent_out_of_date (self->manager, profile_id))
    {
      g_autofree char *title = NULL;
      AdwToast *toast;

      /* Translators: %s is an agent's name */
      title = g_strdup_printf (_("Open sessions of %s keep its old settings until it starts again"),
                               pal_agent_profile_get_name (profile));
      toast = adw_toast_new (title);
      adw_toast_set_button_label (toast, _("_Restart Now"));
      adw_toast_set_timeout (toast, 0);
      g_object_set_data_full (G_OBJECT (toast), "profile-id", g_strdup (profile_id), g_free);
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (restart_agent_clicked_cb), self, 0);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }
}

static void
store_items_changed_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        PalWindow  *self)
{
  /* the current session may have been renamed, or removed from the list */
  if (self->current != NULL &&
      pal_session_store_lookup (PAL_SESSION_STORE (model), self->current) == NULL)
    _pal_window_show_session (self, NULL);
  else
    {
      watch_current_record (self);
      update_header (self);
    }
}

static void
record_header_changed_cb (PalSessionRecord *record,
                          GParamSpec       *pspec,
                          PalWindow        *self)
{
  update_header (self);
}

/* Follows the current session's record: a rename or a title from the agent
 * shows in the header at once, and so do folders an agent listed. */
static void
watch_current_record (PalWindow *self)
{
  PalSessionRecord *record = self->current != NULL
    ? pal_session_store_lookup (pal_session_manager_get_session_store (self->manager), self->current)
    : NULL;

  if (record == self->current_record)
    return;

  if (self->current_record != NULL)
    g_signal_handlers_disconnect_by_func (self->current_record, record_header_changed_cb, self);
  g_set_object (&self->current_record, record);
  if (record != NULL)
    {
      g_signal_connect (record, "notify::title", G_CALLBACK (record_header_changed_cb), self);
      g_signal_connect (record, "notify::additional-directories",
                        G_CALLBACK (record_header_changed_cb), self);
    }
}

static void
notifications_appeared_cb (GDBusConnection *connection,
                           const char      *name,
                           const char      *owner,
                           gpointer         user_data)
{
  PalWindow *self = user_data;

  self->notifications_owned[g_str_equal (name, "org.gtk.Notifications") ? 1 : 0] = TRUE;
}

static void
notifications_vanished_cb (GDBusConnection *connection,
                           const char      *name,
                           gpointer         user_data)
{
  PalWindow *self = user_data;

  self->notifications_owned[g_str_equal (name, "org.gtk.Notifications") ? 1 : 0] = FALSE;
}

static void
watch_notifications (PalWindow      *self,
                     GtkApplication *application)
{
  GDBusConnection *connection = g_application_get_dbus_connection (G_APPLICATION (application));
  static const char *names[] = { "org.freedesktop.Notifications", "org.gtk.Notifications" };

  if (connection == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    self->notifications_watch[i] =
      g_bus_watch_name_on_connection (connection, names[i], G_BUS_NAME_WATCHER_FLAGS_NONE,
                                      notifications_appeared_cb, notifications_vanished_cb,
                                      self, NULL);
}

/* --- files outside the session's folders --- */

/* What the path really is, when the agent's words hide it: a file of this
 * very process (its environment holds API keys), of another process, or a
 * link inside the project that leads out of it. (transfer full) */
static char *
describe_access_path (AcpFsAccessRequest *request)
{
  const char *path = acp_fs_access_request_get_path (request);
  const char *requested = acp_fs_access_request_get_requested_path (request);
  g_autofree char *own = g_strdup_printf ("/proc/%d", (int) getpid ());
  GString *what = g_string_new (NULL);

  if (g_str_equal (path, own) ||
      (g_str_has_prefix (path, own) && path[strlen (own)] == '/'))
    g_string_append (what, _("This is a file of Palaver’s own process: its environment and memory "
                             "hold your API keys and other secrets."));
  else if (g_str_has_prefix (path, "/proc/"))
    g_string_append (what, _("This is a file of another running process."));

  if (g_strcmp0 (requested, path) != 0)
    {
      if (what->len > 0)
        g_string_append_c (what, ' ');
      /* Translators: the first %s is the path the agent asked for, the second where it leads */
      g_string_append_printf (what, _("The agent asked for “%s”, which leads to “%s”."), requested, path);
    }

  return g_string_free (what, what->len == 0);
}

static void show_next_access (PalWindow *self);

static void
access_response_cb (AdwMessageDialog   *dialog,
                    const char         *response,
                    AcpFsAccessRequest *request)
{
  PalWindow *self = PAL_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));

  if (g_str_equal (response, "allow"))
    acp_fs_access_request_allow (request);
  else
    acp_fs_access_request_deny (request);

  if (self->access_dialog == GTK_WIDGET (dialog))
    {
      self->access_dialog = NULL;
      show_next_access (self);
    }
}

static void
access_withdrawn_cb (GCancellable     *cancellable,
                     AdwMessageDialog *dialog)
{
  PalWindow *self = PAL_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));

  /* the agent stopped waiting: the question is moot */
  if (self->access_dialog == GTK_WIDGET (dialog))
    self->access_dialog = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));
  show_next_access (self);
}

/* One question at a time: requests that come meanwhile wait in a queue (an
 * agent may ask for many files at once), and the dialog says how many. */
static void
update_access_waiting (PalWindow *self)
{
  guint n = g_queue_get_length (&self->access_queue);
  g_autofree char *text = NULL;

  if (self->access_dialog == NULL || self->access_waiting == NULL)
    return;

  gtk_widget_set_visible (self->access_waiting, n > 0);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more request waits", "%u more requests wait", n), n);
  gtk_label_set_text (GTK_LABEL (self->access_waiting), text);
}

/* The record of the live session that asks: its agent and id name it
 * (two agents may use the same id). */
static PalSessionRecord *
find_live_record (PalWindow          *self,
                  AcpFsAccessRequest *request)
{
  PalSessionKey *key;

  key = pal_session_manager_find_live_key (self->manager, acp_fs_access_request_get_agent (request),
                                           acp_fs_access_request_get_session_id (request));
  if (key == NULL)
    return NULL;

  return pal_session_store_lookup (pal_session_manager_get_session_store (self->manager), key);
}

static void
show_next_access (PalWindow *self)
{
  g_autoptr(AcpFsAccessRequest) request = NULL;
  PalSessionRecord *record;
  g_autofree char *body = NULL;
  g_autofree char *what = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *extra;
  const char *path;
  gboolean write;

  if (self->access_dialog != NULL)
    return;

  /* those answered or withdrawn while they waited are skipped */
  while ((request = g_queue_pop_head (&self->access_queue)) != NULL &&
         (acp_fs_access_request_get_answered (request) ||
          g_cancellable_is_cancelled (acp_fs_access_request_get_cancellable (request))))
    g_clear_object (&request);
  if (request == NULL)
    return;

  path = acp_fs_access_request_get_path (request);
  write = acp_fs_access_request_get_write (request);
  what = describe_access_path (request);
  if (write)
    /* Translators: %s is a file path */
    body = g_strdup_printf (_("The agent wants to write “%s”, which is outside the folders of this session."),
                            path);
  else
    /* Translators: %s is a file path */
    body = g_strdup_printf (_("The agent wants to read “%s”, which is outside the folders of this session."),
                            path);
  if (what != NULL)
    {
      char *longer = g_strconcat (body, "\n\n", what, NULL);

      g_free (body);
      body = longer;
    }

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                       write ? _("Allow Writing Outside the Project?")
                                                             : _("Allow Reading Outside the Project?"),
                                                       body));
  extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  record = find_live_record (self, request);
  if (record != NULL && *pal_session_record_get_title (record) != '\0')
    gtk_box_append (GTK_BOX (extra), gtk_label_new (pal_session_record_get_title (record)));
  self->access_waiting = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->access_waiting, "dim-label");
  gtk_box_append (GTK_BOX (extra), self->access_waiting);
  adw_message_dialog_set_extra_child (dialog, extra);
  adw_message_dialog_add_responses (dialog, "deny", _("_Deny"), "allow", _("_Allow"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "allow",
                                              write || what != NULL ? ADW_RESPONSE_DESTRUCTIVE
                                                                    : ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "deny");
  adw_message_dialog_set_close_response (dialog, "deny");
  g_signal_connect_data (dialog, "response", G_CALLBACK (access_response_cb),
                         g_object_ref (request), (GClosureNotify) (void (*) (void)) g_object_unref, 0);
  g_cancellable_connect (acp_fs_access_request_get_cancellable (request),
                         G_CALLBACK (access_withdrawn_cb), g_object_ref (dialog), g_object_unref);
  self->access_dialog = GTK_WIDGET (dialog);
  update_access_waiting (self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The agent asks for a file outside the session's folders: the person says
 * yes or no; nothing outside is touched without that. */
static gboolean
fs_access_request_cb (AcpFsService       *service,
                      const char         *session_id,
                      const char         *path,
                      gboolean            write,
                      AcpFsAccessRequest *request,
                      PalWindow          *self)
{
  g_queue_push_tail (&self->access_queue, g_object_ref (request));
  update_access_waiting (self);
  show_next_access (self);

  return TRUE;
}

/* --- failures --- */

/**
 * _pal_window_show_error:
 *
 * @agent_id: (nullable): the agent profile concerned
 *
 * For a failure that left no transcript to hold it (the agent did not even
 * start): an error page with the agent's words behind Details, and Retry;
 * and the agent's settings, where a missing API key or option goes.
 */
void
_pal_window_show_error (PalWindow    *self,
                        const char   *title,
                        const char   *agent_id,
                        const GError *error)
{
  PalAgentProfile *profile = agent_id != NULL
    ? pal_agent_store_lookup (pal_session_manager_get_agent_store (self->manager), agent_id) : NULL;
  const char *message = error->message;
  const char *newline = strchr (message, '\n');
  g_autofree char *summary = newline != NULL ? g_strndup (message, newline - message) : g_strdup (message);
  g_autofree char *escaped = NULL;

  /* "… exited with status 7. Its last error output:" introduces the
   * details; the summary keeps the sentence before it */
  if (g_str_has_suffix (summary, ":"))
    {
      char *last_stop = g_strrstr (summary, ". ");

      if (last_stop != NULL)
        last_stop[1] = '\0';
    }

  adw_status_page_set_title (self->error_page, title);
  /* the description is markup, and the words may be the agent's */
  escaped = g_markup_escape_text (summary, -1);
  adw_status_page_set_description (self->error_page, escaped);
  gtk_label_set_text (self->error_details, message);
  g_free (self->error_agent_id);
  self->error_agent_id = g_strdup (agent_id);
  /* the demo has nothing to set */
  gtk_widget_set_visible (self->error_agent_button,
                          profile != NULL && !pal_agent_profile_get_is_demo (profile));
  /* What the agent said and wrote, when one ran, is in its log: linked
   * rather than quoted (its last stderr lines are often its own noise) */
  {
    g_autoptr(AcpAgent) agent = pal_session_manager_dup_last_agent (self->manager, agent_id);

    gtk_widget_set_visible (self->error_log_button, agent != NULL);
    gtk_widget_set_visible (GTK_WIDGET (self->error_expander), agent == NULL && newline != NULL);
  }
  gtk_stack_set_visible_child_name (self->content_stack, "error");
}

/* An agent can accept a sign-in and still refuse what follows (Gemini CLI
 * does, for an API key it has not got): asking again would go round in
 * circles. Whether the agent asks for a sign-in within a minute of one. */
#define SIGN_IN_WINDOW_US (60 * G_USEC_PER_SEC)

static gboolean
sign_in_did_not_take (PalWindow  *self,
                      const char *agent_id)
{
  gboolean just = self->signed_in_agent != NULL &&
                  g_strcmp0 (self->signed_in_agent, agent_id) == 0 &&
                  g_get_monotonic_time () - self->signed_in_at < SIGN_IN_WINDOW_US;

  g_clear_pointer (&self->signed_in_agent, g_free);
  return just;
}

/* The sign-in did not work (the agent refused it, its values could not be
 * kept): a session on screen gets a toast, a start that waited for it the
 * error page, whose Retry starts over and asks again. Takes @attempt_in. */
static void
sign_in_failed (Attempt      *attempt_in,
                const GError *error)
{
  g_autoptr(Attempt) attempt = attempt_in;
  PalWindow *self = attempt->self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  give_back_prompt (attempt);
  /* a session on screen stays there: the failure is a toast */
  if (attempt->key != NULL && pal_session_manager_lookup (self->manager, attempt->key) != NULL)
    {
      pal_window_add_toast (self, error->message);
      return;
    }

  _pal_window_show_error (self, _("Signing in failed"), attempt->agent_id, error);
  g_object_set_data_full (G_OBJECT (self), "retry-attempt", g_steal_pointer (&attempt),
                          (GDestroyNotify) attempt_free);
  _pal_window_update_actions (self);
}

/* Signed in: what waited for it goes on. Takes @attempt. */
static void
signed_in (Attempt *attempt)
{
  PalWindow *self = attempt->self;

  g_free (self->signed_in_agent);
  self->signed_in_agent = g_strdup (attempt->agent_id);
  self->signed_in_at = g_get_monotonic_time ();
  retry_attempt (attempt);
}

static void
authenticate_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Attempt *attempt = user_data;
  g_autoptr(GError) error = NULL;

  if (!pal_session_manager_authenticate_finish (PAL_SESSION_MANAGER (object), result, &error))
    sign_in_failed (attempt, error);
  else
    signed_in (attempt);
}

/* The sign-in was cancelled: the prompt comes back, a new session that
 * waited for it is over. */
static void
sign_in_cancelled (Attempt *attempt)
{
  PalWindow *self = attempt->self;

  give_back_prompt (attempt);
  /* a new session waits for nothing more: back to where the person was */
  if (attempt->key == NULL && self->current == NULL &&
      pal_session_view_get_starting (self->session_view))
    _pal_window_show_session (self, NULL);
}

/* --- values (API keys) --- */

typedef struct
{
  Attempt  *attempt;
  char     *method_id;
  gboolean  authenticate;  /* an "agent" method: authenticate after the restart */
  gboolean  in_keyring;    /* the dialog said the keyring keeps them */
} ValuesRequest;

static void
values_request_free (ValuesRequest *request)
{
  g_clear_pointer (&request->attempt, attempt_free);
  g_free (request->method_id);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ValuesRequest, values_request_free)

static void
values_saved_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(ValuesRequest) request = user_data;
  Attempt *attempt = g_steal_pointer (&request->attempt);
  PalWindow *self = attempt->self;
  g_autoptr(GError) error = NULL;
  gboolean in_keyring = FALSE;
  const char *agent_id, *folder;

  if (!pal_agent_store_save_values_finish (PAL_AGENT_STORE (object), result, &in_keyring, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          give_back_prompt (attempt);
          pal_window_add_toast (self, error->message);
        }
      attempt_free (attempt);
      return;
    }
  if (request->in_keyring && !in_keyring)
    pal_window_add_toast (self, _("The keyring did not take the values: they are saved in Palaver’s settings"));

  /* the agent starts again with them at the next need */
  if (!request->authenticate)
    {
      signed_in (attempt);
      return;
    }

  agent_id = attempt->agent_id;
  folder = attempt->folder;
  pal_session_manager_authenticate_async (self->manager, agent_id, folder, request->method_id,
                                          self->cancellable, authenticate_cb, attempt);
}

static void
values_given_cb (const char * const *entries,
                 gpointer            data)
{
  ValuesRequest *request = data;
  PalWindow *self = request->attempt->self;
  PalAgentStore *store = pal_session_manager_get_agent_store (self->manager);
  const char *agent_id = request->attempt->agent_id;

  if (entries == NULL)
    {
      sign_in_cancelled (request->attempt);
      values_request_free (request);
      return;
    }

  pal_agent_store_save_values_async (store, agent_id, entries, self->cancellable,
                                     values_saved_cb, request);
}

static void
ask_values (ValuesRequest *request)
{
  PalWindow *self = request->attempt->self;
  AcpAgent *agent = pal_session_manager_lookup_agent (self->manager, request->attempt->agent_id,
                                                      request->attempt->folder);
  AcpAuthMethod *method = agent != NULL ? acp_agent_get_auth_method (agent, request->method_id) : NULL;

  /* the agent went away meanwhile */
  if (method == NULL)
    {
      sign_in_cancelled (request->attempt);
      values_request_free (request);
      return;
    }

  pal_sign_in_values_ask (GTK_WINDOW (self), agent_name (self, request->attempt->agent_id), method,
                          request->in_keyring, values_given_cb, request);
}

static void
keyring_probed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ValuesRequest *request = user_data;
  g_autoptr(GError) error = NULL;

  request->in_keyring = pal_secret_store_probe_finish (PAL_SECRET_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      values_request_free (request);
      return;
    }
  if (!request->in_keyring)
    g_debug ("No keyring for sign-in values: %s", error->message);

  ask_values (request);
}

/* Asks for the values of @method once it is known where they will be kept,
 * which the dialog says. Takes @attempt. */
static void
sign_in_with_values (Attempt       *attempt,
                     AcpAuthMethod *method)
{
  PalWindow *self = attempt->self;
  PalSecretStore *secrets = pal_agent_store_get_secret_store (pal_session_manager_get_agent_store (self->manager));
  ValuesRequest *request = g_new0 (ValuesRequest, 1);

  request->attempt = attempt;
  request->method_id = g_strdup (acp_auth_method_get_id (method));
  request->authenticate = g_strcmp0 (acp_auth_method_get_kind (method), "agent") == 0;

  if (secrets == NULL)
    ask_values (request);
  else
    pal_secret_store_probe_async (secrets, self->cancellable, keyring_probed_cb, request);
}

/* --- in a terminal --- */

static void
terminal_finished_cb (PalSignInTerminal *terminal,
                      gboolean           succeeded,
                      PalWindow         *self)
{
  Attempt *attempt = g_object_steal_data (G_OBJECT (terminal), "attempt");

  if (attempt == NULL)
    return;
  if (!succeeded)
    {
      sign_in_cancelled (attempt);
      attempt_free (attempt);
      return;
    }

  /* the agent reads what the sign-in wrote when it starts */
  pal_session_manager_mark_agent_out_of_date (self->manager, attempt->agent_id);
  signed_in (attempt);
}

typedef struct
{
  Attempt *attempt;
  char    *method_name;
  char    *description;
} TerminalRequest;

static void
terminal_request_free (TerminalRequest *request)
{
  g_clear_pointer (&request->attempt, attempt_free);
  g_free (request->method_name);
  g_free (request->description);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerminalRequest, terminal_request_free)

static void
sign_in_command_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TerminalRequest) request = user_data;
  PalWindow *self = request->attempt->self;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;
  PalSignInTerminal *terminal;

  argv = pal_session_manager_sign_in_command_finish (PAL_SESSION_MANAGER (object), result, &env, &cwd, &error);
  if (argv == NULL)
    {
      sign_in_failed (g_steal_pointer (&request->attempt), error);
      return;
    }

  terminal = pal_sign_in_terminal_new (GTK_WINDOW (self), agent_name (self, request->attempt->agent_id),
                                       request->method_name, request->description);
  g_object_set_data_full (G_OBJECT (terminal), "attempt", g_steal_pointer (&request->attempt),
                          (GDestroyNotify) attempt_free);
  g_signal_connect_object (terminal, "finished", G_CALLBACK (terminal_finished_cb), self, 0);
  pal_sign_in_terminal_start (terminal, (const char * const *) argv, (const char * const *) env, cwd);
}

/* Runs @method, the agent's own login, in a terminal. Takes @attempt. */
static void
sign_in_in_terminal (Attempt       *attempt,
                     AcpAuthMethod *method)
{
  PalWindow *self = attempt->self;
  TerminalRequest *request = g_new0 (TerminalRequest, 1);
  const char *agent_id = attempt->agent_id;
  const char *folder = attempt->folder;

  request->attempt = attempt;
  request->method_name = g_strdup (acp_auth_method_get_name (method));
  request->description = g_strdup (acp_auth_method_get_description (method));
  pal_session_manager_sign_in_command_async (self->manager, agent_id, folder, method, self->cancellable,
                                             sign_in_command_cb, request);
}

/* --- the choice of a method --- */

static void
auth_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  gpointer          user_data)
{
  Attempt *attempt = user_data;
  PalWindow *self = attempt->self;
  const char *method_id = strchr (response, ':');
  AcpAgent *agent;
  AcpAuthMethod *method;

  if (g_str_equal (response, "cancel") || method_id == NULL)
    {
      sign_in_cancelled (attempt);
      attempt_free (attempt);
      return;
    }

  agent = pal_session_manager_lookup_agent (self->manager, attempt->agent_id, attempt->folder);
  method = agent != NULL ? acp_agent_get_auth_method (agent, method_id + 1) : NULL;
  /* the agent went away meanwhile */
  if (method == NULL)
    {
      sign_in_cancelled (attempt);
      attempt_free (attempt);
      return;
    }

  if (g_str_has_prefix (response, "values:"))
    sign_in_with_values (attempt, method);
  else if (g_str_has_prefix (response, "terminal:"))
    sign_in_in_terminal (attempt, method);
  else
    pal_session_manager_authenticate_async (self->manager, attempt->agent_id, attempt->folder,
                                            acp_auth_method_get_id (method), self->cancellable,
                                            authenticate_cb, attempt);
}

/* One row of the table of method types: the response of a button that
 * runs a method of that type, or NULL for no button. */
static char *
auth_response_for (AcpAuthMethod *method)
{
  g_autoptr(GArray) vars = pal_sign_in_method_vars (method);
  const char *kind = acp_auth_method_get_kind (method);
  const char *id = acp_auth_method_get_id (method);

  if (vars->len > 0)
    return g_strconcat ("values:", id, NULL);
  if (g_strcmp0 (kind, "terminal") == 0)
    return g_strconcat ("terminal:", id, NULL);
  if (g_strcmp0 (kind, "agent") == 0)
    return g_strconcat ("agent:", id, NULL);

  return NULL;
}

/* The agent wants a sign-in: one button per method Palaver can run (those
 * that ask for values or open a terminal end in "…"); the others are
 * described, since the person may know what to do with them. */
static void
show_auth_dialog (PalWindow *self,
                  Attempt   *attempt)
{
  /* the person is asked now, not the agent */
  if (pal_session_view_get_starting (self->session_view))
    pal_session_view_pause_start (self->session_view);

  AcpAgent *agent = pal_session_manager_lookup_agent (self->manager, attempt->agent_id, attempt->folder);
  GPtrArray *methods = agent != NULL ? acp_agent_get_auth_methods (agent) : NULL;
  g_autoptr(GString) body = g_string_new (attempt->prompt != NULL
                                           ? _("The agent needs you to sign in before it can answer.")
                                           : _("The agent needs you to sign in before it can start a session."));
  g_autoptr(GString) described = g_string_new (NULL);
  g_autoptr(GString) others = g_string_new (NULL);
  AdwMessageDialog *dialog;
  guint n_buttons = 0;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), NULL, NULL));
  /* Translators: %s is an agent's name */
  adw_message_dialog_format_heading (dialog, _("Sign In to %s"),
                                     agent_name (self, attempt->agent_id));
  adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));

  for (guint i = 0; methods != NULL && i < methods->len; i++)
    {
      AcpAuthMethod *method = g_ptr_array_index (methods, i);
      g_autofree char *response = auth_response_for (method);
      const char *name = acp_auth_method_get_name (method);
      const char *description = acp_auth_method_get_description (method);
      gboolean has_description = description != NULL && *description != '\0';

      if (response == NULL)
        {
          g_string_append_printf (others, "\n%s%s%s", name, has_description ? ": " : "",
                                  has_description ? description : "");
          continue;
        }

      if (g_str_has_prefix (response, "agent:"))
        adw_message_dialog_add_response (dialog, response, name);
      else
        {
          /* Translators: a sign-in method that asks for more next (values,
           * a terminal), e.g. “API Key…” */
          g_autofree char *label = g_strdup_printf (_("%s…"), name);

          adw_message_dialog_add_response (dialog, response, label);
        }
      if (has_description)
        g_string_append_printf (described, "\n%s: %s", name, description);
      n_buttons++;
    }

  if (described->len > 0)
    g_string_append_printf (body, "\n%s", described->str);
  if (n_buttons > 0 && attempt->prompt != NULL)
    g_string_append_printf (body, "\n\n%s", _("What you wrote is sent again once you are signed in."));
  if (others->len > 0)
    g_string_append_printf (body, "\n\n%s%s", n_buttons > 0
                            ? _("The agent also offers ways to sign in that Palaver cannot use here:")
                            : _("The agent offers only ways to sign in that Palaver cannot use here. Sign in with the agent’s own command in a terminal, then try again:"),
                            others->str);
  if (n_buttons == 0 && others->len == 0)
    g_string_append_printf (body, "\n\n%s", _("The agent offers no way to sign in from here. Sign in with the agent’s own command in a terminal, then try again."));

  adw_message_dialog_set_body (dialog, body->str);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (auth_response_cb), attempt);
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * _pal_window_handle_error:
 *
 * What a failed start, open or resume becomes: nothing when cancelled, the
 * sign-in dialog when the agent asks for it, the session's own transcript
 * when it has one (the session put its notice there), else the error page.
 */
void
_pal_window_handle_error (PalWindow     *self,
                          PalSessionKey *key,
                          const char    *agent_id,
                          const char    *folder,
                          const char    *title,
                          const GError  *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (pal_session_manager_error_is_auth_required (error) && agent_id != NULL &&
      !sign_in_did_not_take (self, agent_id))
    {
      show_auth_dialog (self, attempt_new (self, key, agent_id, folder, NULL));
      return;
    }

  if (key != NULL && !pal_session_key_equal0 (key, self->current))
    {
      /* not on screen: a toast says it */
      pal_window_add_toast (self, error->message);
      return;
    }

  if (key != NULL && pal_session_manager_lookup (self->manager, key) != NULL)
    {
      AcpSession *session = pal_session_manager_lookup (self->manager, key);

      /* a failure after the agent started is in the transcript already,
       * unless the session itself refused the operation */
      if (acp_session_get_state (session) != ACP_SESSION_STATE_FAILED)
        acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_ERROR,
                                      title, error->message, NULL);
      _pal_window_show_session (self, key);
      return;
    }

  _pal_window_show_error (self, title, agent_id, error);
}

/* --- opening and starting --- */

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
static void
give_back_prompt (Attempt *attempt)
{
  PalWindow *self = attempt->self;
  g_autofree char *text = NULL;

  if (attempt->prompt == NULL)
    return;

  if (!pal_session_key_equal0 (attempt->key, self->current))
    {
      if (!g_hash_table_contains (self->drafts, attempt->key))
        g_hash_table_insert (self->drafts, pal_session_key_ref (attempt->key), g_strdup (attempt->prompt));
      return;
    }

  text = pal_composer_dup_text (get_composer (self));
  if (text == NULL || *text == '\0')
    pal_composer_set_text (get_composer (self), attempt->prompt);
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
      give_back_prompt (attempt);
      _pal_window_handle_error (attempt->self, attempt->key, attempt->agent_id, attempt->folder,
                                _("The session could not be opened"), error);
      return;
    }

  if (pal_session_key_equal0 (attempt->key, attempt->self->current))
    _pal_window_show_session (attempt->self, attempt->key);
  if (attempt->prompt != NULL &&
      !pal_session_view_send_prompt (attempt->self->session_view, session, attempt->prompt))
    give_back_prompt (attempt);
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
      attempt_free (attempt);
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
              const char    *prompt)
{
  Attempt *attempt = attempt_for_session (self, key, prompt);
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
          give_back_prompt (attempt);
          attempt_free (attempt);
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

/* The agent refused a prompt for want of a sign-in: the person signs in,
 * then it goes again. */
static void
session_view_sign_in_requested_cb (PalSessionView *view,
                                   AcpSession     *session,
                                   const char     *text,
                                   PalWindow      *self)
{
  PalSessionKey *key = pal_session_manager_get_session_key (self->manager, session);
  Attempt *attempt = attempt_for_session (self, key, text);

  if (attempt == NULL)
    return;

  if (sign_in_did_not_take (self, attempt->agent_id))
    {
      /* the turn's notice says the agent refused; the prompt is kept */
      give_back_prompt (attempt);
      attempt_free (attempt);
      pal_window_add_toast (self, _("The agent still asks for a sign-in"));
      return;
    }
  show_auth_dialog (self, attempt);
}

/* The person wrote in a closed session: it is opened again, then sent. */
static void
session_view_reopen_requested_cb (PalSessionView *view,
                                  const char     *text,
                                  PalWindow      *self)
{
  g_autofree char *reason = NULL;

  if (self->current == NULL)
    return;

  if (!_pal_window_can (self->current, "win.open-session", &reason, self))
    {
      /* the closed transcript stays, and so does what was written */
      pal_composer_set_text (get_composer (self), text);
      pal_window_add_toast (self, reason != NULL ? reason : _("The session cannot be opened again."));
      return;
    }

  open_session (self, self->current, text);
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
  Attempt *attempt = attempt_for_session (self, key, NULL);

  if (attempt == NULL)
    return;

  _pal_window_show_session (self, key);
  pal_session_manager_resume_session_async (self->manager, key, self->cancellable, resume_cb,
                                            attempt);
}

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
          if (!sign_in_did_not_take (self, attempt->agent_id))
            {
              show_auth_dialog (self, g_steal_pointer (&attempt));
              return;
            }
          title = _("The agent still asks for a sign-in");
        }
      set_current (self, NULL);
      _pal_window_show_error (self, title, attempt->agent_id, error);
      g_object_set_data_full (G_OBJECT (self), "retry-attempt", g_steal_pointer (&attempt),
                              (GDestroyNotify) attempt_free);
      _pal_window_update_actions (self);
      return;
    }

  g_clear_pointer (&attempt->key, pal_session_key_unref);
  attempt->key = pal_session_key_ref (pal_session_manager_get_session_key (self->manager, session));
  _pal_window_show_session (self, attempt->key);
  /* written while it started */
  if (attempt->prompt != NULL &&
      !pal_session_view_send_prompt (self->session_view, session, attempt->prompt))
    give_back_prompt (attempt);
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
               const char         *prompt)
{
  Attempt *attempt;

  g_object_set_data (G_OBJECT (self), "retry-attempt", NULL);
  /* a folder name that is not UTF-8 cannot be stored; the session manager
   * refuses it with a message */
  if (self->settings != NULL && g_utf8_validate (folder, -1, NULL))
    g_settings_set_string (self->settings, "last-folder", folder);

  set_current (self, NULL);
  pal_sidebar_select (self->sidebar, NULL);
  update_header (self);
  adw_window_title_set_title (self->window_title, _("New Session"));
  adw_window_title_set_subtitle (self->window_title, agent_name (self, agent_id));
  pal_session_view_set_starting (self->session_view, prompt != NULL);
  gtk_stack_set_visible_child_name (self->content_stack, "session");
  _pal_window_update_actions (self);

  attempt = attempt_new (self, NULL, agent_id, folder, mcp_servers);
  attempt->additional_dirs = g_strdupv ((char **) additional_dirs);
  attempt->prompt = g_strdup (prompt);
  self->starting_attempt = attempt;
  _pal_window_update_actions (self);
  pal_session_manager_new_session_async (self->manager, agent_id, folder, mcp_servers, additional_dirs,
                                         self->cancellable, new_session_cb, attempt);
}

/* The person wrote while the new session starts: it goes once it is open. */
static void
session_view_prompt_held_cb (PalSessionView *view,
                             const char     *text,
                             PalWindow      *self)
{
  Attempt *attempt = self->starting_attempt;

  if (attempt != NULL && attempt->prompt == NULL)
    attempt->prompt = g_strdup (text);
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

static void
retry_attempt (Attempt *attempt)
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
  attempt_free (attempt);
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

static void
retry_clicked_cb (PalWindow *self)
{
  Attempt *attempt = g_object_steal_data (G_OBJECT (self), "retry-attempt");

  if (attempt != NULL)
    retry_attempt (attempt);
  else if (self->current != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.retry-session", NULL);
}

static void
error_log_clicked_cb (PalWindow *self)
{
  g_autoptr(AcpAgent) agent = pal_session_manager_dup_last_agent (self->manager, self->error_agent_id);

  if (agent != NULL)
    _pal_window_present_agent_log (self, agent, agent_name (self, self->error_agent_id));
}

static void
error_agent_clicked_cb (PalWindow *self)
{
  if (self->error_agent_id != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "app.edit-agent", "s", self->error_agent_id);
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
  agent = pal_session_manager_lookup_agent (self->manager, attempt->agent_id, attempt->folder);
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

static void
sidebar_session_activated_cb (PalSidebar    *sidebar,
                              PalSessionKey *key,
                              PalWindow     *self)
{
  pal_window_open_session (self, key);
}

/* --- window state --- */

static gboolean
pal_window_close_request (GtkWindow *window)
{
  PalWindow *self = PAL_WINDOW (window);

  if (self->settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_delay (self->settings);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      if (!gtk_window_is_maximized (window))
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
      g_settings_set_int (self->settings, "sidebar-width", gtk_paned_get_position (self->paned));
      g_settings_apply (self->settings);
    }

  return GTK_WINDOW_CLASS (pal_window_parent_class)->close_request (window);
}

static void
build_extra_pages (PalWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *retry = gtk_button_new_with_mnemonic (_("_Retry"));

  self->error_details = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_selectable (self->error_details, TRUE);
  gtk_label_set_wrap (self->error_details, TRUE);
  gtk_label_set_wrap_mode (self->error_details, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->error_details, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_details), "monospace");
  self->error_expander = GTK_EXPANDER (gtk_expander_new (_("Details")));
  gtk_expander_set_child (self->error_expander, GTK_WIDGET (self->error_details));

  gtk_widget_set_halign (retry, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (retry, "pill");
  gtk_widget_add_css_class (retry, "suggested-action");
  g_signal_connect_swapped (retry, "clicked", G_CALLBACK (retry_clicked_cb), self);

  self->error_agent_button = gtk_button_new_with_mnemonic (_("_Agent Settings…"));
  gtk_widget_set_halign (self->error_agent_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->error_agent_button, "pill");
  gtk_widget_set_visible (self->error_agent_button, FALSE);
  g_signal_connect_swapped (self->error_agent_button, "clicked", G_CALLBACK (error_agent_clicked_cb), self);

  gtk_box_append (GTK_BOX (box), retry);
  gtk_box_append (GTK_BOX (box), self->error_agent_button);

  self->error_log_button = gtk_button_new_with_mnemonic (_("Agent _Log"));
  gtk_widget_set_halign (self->error_log_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->error_log_button, "pill");
  gtk_widget_set_visible (self->error_log_button, FALSE);
  g_signal_connect_swapped (self->error_log_button, "clicked", G_CALLBACK (error_log_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), self->error_log_button);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->error_expander));

  self->error_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->error_page, "dialog-error-symbolic");
  adw_status_page_set_child (self->error_page, box);
  gtk_stack_add_named (self->content_stack, GTK_WIDGET (self->error_page), "error");

}

static void
pal_window_dispose (GObject *object)
{
  PalWindow *self = PAL_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  for (guint i = 0; i < G_N_ELEMENTS (self->notifications_watch); i++)
    g_clear_handle_id (&self->notifications_watch[i], g_bus_unwatch_name);
  if (self->manager != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->manager, self);
      g_signal_handlers_disconnect_by_data (pal_session_manager_get_session_store (self->manager), self);
    }
  g_object_set_data (G_OBJECT (self), "retry-attempt", NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_WINDOW);

  if (self->current_record != NULL)
    g_signal_handlers_disconnect_by_func (self->current_record, record_header_changed_cb, self);
  g_clear_object (&self->current_record);
  g_clear_object (&self->manager);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->last_states, g_hash_table_unref);

  G_OBJECT_CLASS (pal_window_parent_class)->dispose (object);
}

static void
pal_window_finalize (GObject *object)
{
  PalWindow *self = PAL_WINDOW (object);

  g_clear_pointer (&self->current, pal_session_key_unref);
  g_clear_pointer (&self->drafts, g_hash_table_unref);
  g_queue_clear_full (&self->access_queue, g_object_unref);
  g_free (self->signed_in_agent);
  g_free (self->error_agent_id);

  G_OBJECT_CLASS (pal_window_parent_class)->finalize (object);
}

static void
pal_window_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (pal_window_parent_class)->map (widget);

  /* shown: what the first answer needs may load while the window waits */
  pal_warm_up_start (widget);
}

static void
pal_window_class_init (PalWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = pal_window_dispose;
  object_class->finalize = pal_window_finalize;
  widget_class->map = pal_window_map;
  window_class->close_request = pal_window_close_request;

  g_type_ensure (PAL_TYPE_SESSION_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/gui/pal-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PalWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, sidebar_bin);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, state_label);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, session_menu_button);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, main_menu_button);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, session_view);

  _pal_window_class_init_actions (widget_class);
}

static void
pal_window_init (PalWindow *self)
{
  self->cancellable = g_cancellable_new ();
  self->last_states = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                             (GDestroyNotify) pal_session_key_unref, NULL);
  self->drafts = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                        (GDestroyNotify) pal_session_key_unref, g_free);

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_menu_button_set_popover (self->session_menu_button, pal_session_menu_new ());
  gtk_menu_button_set_create_popup_func (self->session_menu_button,
                                         (GtkMenuButtonCreatePopupFunc) session_menu_activate_cb,
                                         self, NULL);
  pal_menu_button_hide_tooltip_while_open (self->session_menu_button);
  pal_menu_button_hide_tooltip_while_open (self->main_menu_button);
  build_extra_pages (self);
}

/**
 * pal_window_new:
 * @application: the application
 * @manager: the session manager (its stores hold the lists; its pacer is
 *   told of the frames of the transcript)
 * @settings: (nullable): where window geometry and the last folder are kept
 *
 * Returns: (transfer full): a new window
 */
PalWindow *
pal_window_new (GtkApplication    *application,
                PalSessionManager *manager,
                GSettings         *settings)
{
  PalWindow *self;
  PalSessionStore *store;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (manager), NULL);

  self = g_object_new (PAL_TYPE_WINDOW, "application", application, NULL);
  self->manager = g_object_ref (manager);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  store = pal_session_manager_get_session_store (manager);

  self->sidebar = PAL_SIDEBAR (pal_sidebar_new (store, pal_session_manager_get_agent_store (manager)));
  pal_sidebar_set_state_func (self->sidebar, sidebar_state_func, self);
  pal_sidebar_set_can_func (self->sidebar, _pal_window_can, self);
  g_signal_connect (self->sidebar, "session-activated", G_CALLBACK (sidebar_session_activated_cb), self);
  adw_bin_set_child (self->sidebar_bin, GTK_WIDGET (self->sidebar));

  watch_notifications (self, application);
  g_signal_connect_object (pal_session_manager_get_fs_service (manager), "access-request",
                           G_CALLBACK (fs_access_request_cb), self, 0);
  pal_session_view_set_terminal_service (self->session_view,
                                         pal_session_manager_get_terminal_service (manager));
  /* the frames of the transcript pace the agents' messages */
  pal_session_view_set_pacer (self->session_view, pal_session_manager_get_pacer (manager));
  g_signal_connect (self->session_view, "reopen-requested",
                    G_CALLBACK (session_view_reopen_requested_cb), self);
  g_signal_connect (self->session_view, "prompt-held",
                    G_CALLBACK (session_view_prompt_held_cb), self);
  g_signal_connect (self->session_view, "sign-in-requested",
                    G_CALLBACK (session_view_sign_in_requested_cb), self);
  g_signal_connect (manager, "session-state-changed", G_CALLBACK (manager_session_state_changed_cb), self);
  g_signal_connect (manager, "live-session-changed", G_CALLBACK (manager_live_session_changed_cb), self);
  g_signal_connect (store, "items-changed", G_CALLBACK (store_items_changed_cb), self);
  g_signal_connect_object (pal_session_manager_get_agent_store (manager), "profile-edited",
                           G_CALLBACK (agent_profile_edited_cb), self, 0);

  if (settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   MAX (640, g_settings_get_int (settings, "window-width")),
                                   MAX (420, g_settings_get_int (settings, "window-height")));
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      gtk_paned_set_position (self->paned, CLAMP (g_settings_get_int (settings, "sidebar-width"), 200, 600));
    }
  else
    {
      gtk_window_set_default_size (GTK_WINDOW (self), 1100, 760);
      gtk_paned_set_position (self->paned, 300);
    }

  _pal_window_update_actions (self);

  return self;
}

PalSessionManager *
pal_window_get_manager (PalWindow *self)
{
  g_return_val_if_fail (PAL_IS_WINDOW (self), NULL);

  return self->manager;
}

/**
 * pal_window_get_current_session:
 * @self: a #PalWindow
 *
 * Returns: (transfer none) (nullable): the session shown
 */
PalSessionKey *
pal_window_get_current_session (PalWindow *self)
{
  g_return_val_if_fail (PAL_IS_WINDOW (self), NULL);

  return self->current;
}

GtkWidget *
pal_window_get_session_view (PalWindow *self)
{
  g_return_val_if_fail (PAL_IS_WINDOW (self), NULL);

  return GTK_WIDGET (self->session_view);
}

GtkWidget *
pal_window_get_sidebar (PalWindow *self)
{
  g_return_val_if_fail (PAL_IS_WINDOW (self), NULL);

  return GTK_WIDGET (self->sidebar);
}

void
pal_window_add_toast (PalWindow  *self,
                      const char *title)
{
  AdwToast *toast;

  g_return_if_fail (PAL_IS_WINDOW (self));

  toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}
