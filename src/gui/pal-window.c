/* pal-window.c: the main window: sessions on the left, the chat on the right
 *
 * The window holds no session state of its own: the session manager has the
 * live sessions and their states, the session store the list. The window
 * shows one session at a time (the current one): its header and actions
 * are bound to the current session's live session, if it is live, and the
 * sidebar's rows to theirs. The window turns
 * failures into something a person can act on: an inline error with the
 * agent's own words behind Details and Retry (pal-window-error.c), or a
 * sign-in dialog when the agent asks for authentication
 * (pal-window-sign-in.c). When the window is not focused, the end of a turn
 * and a permission request are announced by desktop notifications.
 * Opening and starting sessions is in pal-window-open.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-launcher.h"
#include "pal-load-errors-banner.h"
#include "pal-tooltip.h"
#include "pal-warm-up.h"
#include "pal-window-private.h"

G_DEFINE_FINAL_TYPE (PalWindow, pal_window, ADW_TYPE_APPLICATION_WINDOW)

static void watch_current_record (PalWindow *self);

const char *
_pal_window_agent_name (PalWindow  *self,
                        const char *agent_id)
{
  return pal_agent_store_get_name (pal_session_manager_get_agent_store (self->manager), agent_id);
}

PalSessionRecord *
_pal_window_lookup_record (PalWindow     *self,
                           PalSessionKey *key)
{
  return pal_session_store_lookup (pal_session_manager_get_session_store (self->manager), key);
}

void
_pal_window_update_header (PalWindow *self)
{
  PalSessionRecord *record = _pal_window_lookup_record (self, self->current);
  PalLiveSession *live;
  g_autofree char *subtitle = NULL;

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
    const char *agent = _pal_window_agent_name (self, pal_session_record_get_agent_id (record));

    if (title == NULL || *title == '\0')
      title = _("New Session");

    subtitle = agent != NULL ? g_strdup_printf ("%s · %s", folder, agent) : g_strdup (folder);
    adw_window_title_set_title (self->window_title, title);
    adw_window_title_set_subtitle (self->window_title, subtitle);
    pal_widget_set_quiet_tooltip (GTK_WIDGET (self->window_title), folders);
    gtk_window_set_title (GTK_WINDOW (self), title);
  }

  /* kept up to date by live_bindings while the session is live */
  live = pal_session_manager_lookup_live (self->manager, self->current);
  gtk_label_set_text (self->state_label,
                      pal_describe_session_state (live != NULL
                                                  ? pal_live_session_get_state (live)
                                                  : PAL_SESSION_STATE_NOT_RUNNING));
  gtk_widget_set_visible (GTK_WIDGET (self->session_menu_button), TRUE);
}

/* The header's state is bound to the live session's. */
static gboolean
describe_state (GBinding     *binding,
                const GValue *from,
                GValue       *to,
                gpointer      user_data)
{
  g_value_set_string (to, pal_describe_session_state (g_value_get_enum (from)));
  return TRUE;
}

/* The object of the current session appeared (an open started: its replay
 * shows as it comes), was replaced by a restart, or went. */
static void
current_session_changed (PalWindow      *self,
                         GParamSpec     *pspec,
                         PalLiveSession *live)
{
  AcpSession *session = live != NULL ? pal_live_session_get_session (live) : NULL;
  AcpSession *shown = pal_session_view_get_session (self->session_view);

  if (session == shown)
    return;

  /* a closed session keeps its transcript on screen, read-only, until the
   * person opens it again or looks elsewhere */
  if (session == NULL && shown != NULL)
    return;

  pal_session_view_set_session (self->session_view, session);
}

/* Binds the header and the actions to the live session of the current
 * session, or to none. Returns: whether that changed */
static gboolean
watch_current_live (PalWindow *self)
{
  PalLiveSession *live = pal_session_manager_lookup_live (self->manager, self->current);
  g_autoptr(GObject) watched = g_signal_group_dup_target (self->live_signals);

  if ((GObject *) live == watched)
    return FALSE;

  g_binding_group_set_source (self->live_bindings, live);
  g_signal_group_set_target (self->live_signals, live);
  return TRUE;
}

static void
session_menu_activate_cb (GtkMenuButton *button,
                          PalWindow     *self)
{
  PalSessionRecord *record;

  if (self->current == NULL)
    return;

  record = _pal_window_lookup_record (self, self->current);
  pal_session_menu_update (GTK_WIDGET (gtk_menu_button_get_popover (button)), self->current,
                           record != NULL && pal_session_record_get_pinned (record),
                           _pal_window_can, self);
}

PalComposer *
_pal_window_get_composer (PalWindow *self)
{
  return PAL_COMPOSER (pal_session_view_get_composer (self->session_view));
}

/* What the person wrote and did not send belongs to the session it was
 * written in: it stays with it while they look elsewhere, and is back in the
 * composer when they return. */
void
_pal_window_set_current (PalWindow     *self,
                         PalSessionKey *key)
{
  g_autoptr(PalPrompt) draft = NULL;
  g_autoptr(PalSessionKey) previous = NULL;

  if (pal_session_key_equal0 (self->current, key))
    return;

  draft = pal_composer_dup_prompt (_pal_window_get_composer (self));
  if (self->current != NULL && draft != NULL)
    g_hash_table_replace (self->drafts, pal_session_key_ref (self->current), g_steal_pointer (&draft));
  else if (self->current != NULL)
    g_hash_table_remove (self->drafts, self->current);

  previous = g_steal_pointer (&self->current);
  self->current = key != NULL ? pal_session_key_ref (key) : NULL;
  _pal_window_follow_queue (self, previous, key);
  pal_composer_set_prompt (_pal_window_get_composer (self),
                           key != NULL ? g_hash_table_lookup (self->drafts, key) : NULL);
  watch_current_live (self);
}

/* Shows what is known of a session: its live transcript if it has one. */
void
_pal_window_show_session (PalWindow     *self,
                          PalSessionKey *key)
{
  AcpSession *session;

  _pal_window_history_follow (self, key);
  _pal_window_set_current (self, key);

  watch_current_record (self);
  session = key != NULL ? pal_session_manager_lookup (self->manager, key) : NULL;
  pal_session_view_set_session (self->session_view, session);
  gtk_stack_set_visible_child_name (self->content_stack, key != NULL ? "session" : "welcome");
  pal_sidebar_select (self->sidebar, key);
  _pal_window_navigate (self, key != NULL);
  _pal_window_update_header (self);
  _pal_window_update_actions (self);

  if (session != NULL)
    pal_session_view_focus_composer (self->session_view);
}

static void
notify_if_unfocused (PalWindow       *self,
                     PalLiveSession  *live,
                     PalSessionState  previous,
                     PalSessionState  state)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  PalSessionKey *key = pal_live_session_get_key (live);
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *notification_id = NULL;
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

  session_title = pal_live_session_get_title (live);

  notification = g_notification_new (title);
  if (*session_title != '\0')
    g_notification_set_body (notification, session_title);
  g_notification_set_default_action_and_target_value (notification, "app.show-session",
                                                      pal_session_key_to_variant (key));
  notification_id = pal_session_key_to_string (key);
  g_application_send_notification (app, notification_id, notification);
}

/* Any live session's state: the end of a turn, a permission asked or a
 * failure is announced while the window is not focused. */
static void
live_state_cb (PalLiveSession *live,
               GParamSpec     *pspec,
               PalWindow      *self)
{
  PalSessionKey *key = pal_live_session_get_key (live);
  PalSessionState state = pal_live_session_get_state (live);
  PalSessionState previous = GPOINTER_TO_INT (g_hash_table_lookup (self->last_states, key));

  g_hash_table_insert (self->last_states, pal_session_key_ref (key), GINT_TO_POINTER (state));
  notify_if_unfocused (self, live, previous, state);
}

/* Sessions became live, or are live no more. */
static void
live_sessions_changed_cb (GListModel *model,
                          guint       position,
                          guint       removed,
                          guint       added,
                          PalWindow  *self)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(PalLiveSession) live = g_list_model_get_item (model, i);

      g_signal_connect_object (live, "notify::state", G_CALLBACK (live_state_cb), self, 0);
    }

  if (watch_current_live (self))
    {
      current_session_changed (self, NULL,
                               pal_session_manager_lookup_live (self->manager, self->current));
      _pal_window_update_header (self);
      _pal_window_update_actions (self);
    }
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
      _pal_window_update_header (self);
    }
}

static void
record_header_changed_cb (PalSessionRecord *record,
                          GParamSpec       *pspec,
                          PalWindow        *self)
{
  _pal_window_update_header (self);
}

/* Follows the current session's record: a rename or a title from the agent
 * shows in the header at once, and so do folders an agent listed. */
static void
watch_current_record (PalWindow *self)
{
  PalSessionRecord *record = _pal_window_lookup_record (self, self->current);

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

static void
sidebar_session_activated_cb (PalSidebar    *sidebar,
                              PalSessionKey *key,
                              PalWindow     *self)
{
  _pal_window_browse_session (self, key);
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
      g_settings_set_int (self->settings, "sidebar-width", _pal_window_get_sidebar_width (self));
      g_settings_apply (self->settings);
    }

  return GTK_WINDOW_CLASS (pal_window_parent_class)->close_request (window);
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
      g_signal_handlers_disconnect_by_data (pal_session_manager_get_live_sessions (self->manager),
                                            self);
      g_signal_handlers_disconnect_by_data (pal_session_manager_get_session_store (self->manager), self);
    }
  if (self->live_bindings != NULL)
    g_binding_group_set_source (self->live_bindings, NULL);
  g_clear_object (&self->live_bindings);
  if (self->live_signals != NULL)
    g_signal_group_set_target (self->live_signals, NULL);
  g_clear_object (&self->live_signals);
  g_clear_pointer (&self->retry_attempt, _pal_attempt_free);
  _pal_window_dispose_search (self);
  _pal_window_dispose_history (self);

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
  g_clear_pointer (&self->started, g_hash_table_unref);

  g_clear_pointer (&self->queues, g_hash_table_unref);
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
  g_type_ensure (PAL_TYPE_FIND_BAR);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/gui/pal-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PalWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, sidebar_pane);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, sidebar_handle);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, sidebar_bin);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, state_label);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, session_menu_button);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, main_menu_button);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, session_view);
  gtk_widget_class_bind_template_child (widget_class, PalWindow, find_bar);

  _pal_window_class_init_actions (widget_class);
  _pal_window_class_init_layout (widget_class);
  _pal_window_class_init_search (widget_class);
}

static void
pal_window_init (PalWindow *self)
{
  self->cancellable = g_cancellable_new ();
  self->last_states = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                             (GDestroyNotify) pal_session_key_unref, NULL);
  self->drafts = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                        (GDestroyNotify) pal_session_key_unref, g_object_unref);
  self->started = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                         (GDestroyNotify) pal_session_key_unref, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  _pal_window_setup_layout (self);

  self->live_bindings = g_binding_group_new ();
  g_binding_group_bind_full (self->live_bindings, "state", self->state_label, "label",
                             G_BINDING_SYNC_CREATE, describe_state, NULL, NULL, NULL);
  self->live_signals = g_signal_group_new (PAL_TYPE_LIVE_SESSION);
  g_signal_group_connect_object (self->live_signals, "notify::state",
                                 G_CALLBACK (_pal_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->live_signals, "notify::session",
                                 G_CALLBACK (current_session_changed), self, G_CONNECT_SWAPPED);

  gtk_menu_button_set_popover (self->session_menu_button, pal_session_menu_new ());
  gtk_menu_button_set_create_popup_func (self->session_menu_button,
                                         (GtkMenuButtonCreatePopupFunc) session_menu_activate_cb,
                                         self, NULL);
  pal_menu_button_hide_tooltip_while_open (self->session_menu_button);
  pal_menu_button_hide_tooltip_while_open (self->main_menu_button);
  _pal_window_build_error_page (self);
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
  GListModel *live_sessions;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (manager), NULL);

  self = g_object_new (PAL_TYPE_WINDOW, "application", application, NULL);
  self->manager = g_object_ref (manager);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  store = pal_session_manager_get_session_store (manager);
  live_sessions = pal_session_manager_get_live_sessions (manager);

  self->sidebar = PAL_SIDEBAR (pal_sidebar_new (store, pal_session_manager_get_agent_store (manager)));
  pal_sidebar_set_live_sessions (self->sidebar, live_sessions);
  pal_sidebar_set_can_func (self->sidebar, _pal_window_can, self);
  g_signal_connect (self->sidebar, "session-activated", G_CALLBACK (sidebar_session_activated_cb), self);
  adw_bin_set_child (self->sidebar_bin, GTK_WIDGET (self->sidebar));

  /* what the stores could not read, above the content */
  {
    GtkWidget *banner = pal_load_errors_banner_new ();
    GtkWidget *content = GTK_WIDGET (self->content_stack);

    gpointer lists[] = { store, pal_session_manager_get_agent_store (manager),
                         pal_session_manager_get_mcp_server_store (manager) };

    /* a manager made for a test may lack some */
    for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
      if (lists[i] != NULL)
        pal_load_errors_banner_add_list (PAL_LOAD_ERRORS_BANNER (banner), PAL_STORED_LIST (lists[i]));
    gtk_widget_insert_before (banner, gtk_widget_get_parent (content), content);
  }

  watch_notifications (self, application);
  _pal_window_setup_file_access (self);
  pal_session_view_set_terminal_service (self->session_view,
                                         pal_session_manager_get_terminal_service (manager));
  /* the frames of the transcript pace the agents' messages */
  pal_session_view_set_pacer (self->session_view, pal_session_manager_get_pacer (manager));
  _pal_window_setup_open (self);
  _pal_window_setup_sign_in (self);
  _pal_window_setup_search (self);
  _pal_window_setup_history (self);
  _pal_window_setup_queue (self);
  g_signal_connect (live_sessions, "items-changed", G_CALLBACK (live_sessions_changed_cb), self);
  live_sessions_changed_cb (live_sessions, 0, 0, g_list_model_get_n_items (live_sessions), self);
  g_signal_connect (store, "items-changed", G_CALLBACK (store_items_changed_cb), self);
  g_signal_connect_object (pal_session_manager_get_agent_store (manager), "profile-edited",
                           G_CALLBACK (agent_profile_edited_cb), self, 0);

  if (settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   MAX (360, g_settings_get_int (settings, "window-width")),
                                   MAX (420, g_settings_get_int (settings, "window-height")));
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      _pal_window_set_sidebar_width (self, g_settings_get_int (settings, "sidebar-width"));
    }
  else
    gtk_window_set_default_size (GTK_WINDOW (self), 1100, 760);

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
