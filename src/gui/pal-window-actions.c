/* pal-window-actions.c: the window's actions and their shortcuts
 *
 * Session actions take the session's key as target, an (agent id, session
 * id) pair (PAL_SESSION_KEY_VARIANT_TYPE), so the sidebar menus and
 * the header menu share them. A GAction is enabled for every target at once;
 * whether one session can do something (resume, close) is decided by
 * _pal_window_can(), which the menus ask when they open and which the
 * actions ask again before doing anything. One table (session_actions)
 * says what each of them does with the session its target names.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-message-item.h"
#include "pal-agent-log-window.h"
#include "pal-window-private.h"

typedef struct
{
  PalWindow *self;
  PalSessionKey  *key;
  gboolean   delete_history;  /* once the agent deleted it */
} ActionData;

static void
action_data_free (ActionData *data)
{
  g_clear_object (&data->self);
  pal_session_key_unref (data->key);
  g_free (data);
}

static ActionData *
action_data_new (PalWindow     *self,
                 PalSessionKey *key)
{
  ActionData *data = g_new0 (ActionData, 1);

  data->self = g_object_ref (self);
  data->key = pal_session_key_ref (key);

  return data;
}

static PalSessionState
state_of (PalWindow     *self,
          PalSessionKey *key)
{
  PalLiveSession *live = pal_session_manager_lookup_live (self->manager, key);

  return live != NULL ? pal_live_session_get_state (live) : PAL_SESSION_STATE_NOT_RUNNING;
}

static gboolean
is_live (PalWindow     *self,
         PalSessionKey *key)
{
  PalSessionState state = state_of (self, key);

  return state != PAL_SESSION_STATE_NOT_RUNNING && state != PAL_SESSION_STATE_FAILED;
}

/* A toast for what went wrong, unless it was called off. */
static void
toast_error (PalWindow    *self,
             const GError *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    pal_window_add_toast (self, error->message);
}

/**
 * _pal_window_can:
 * @key: a session
 * @action: a win.* action name
 * @reason: (out) (optional): why not, when it cannot
 * @user_data: the #PalWindow
 *
 * Returns: whether @action makes sense for @key now
 */
gboolean
_pal_window_can (PalSessionKey  *key,
                 const char     *action,
                 char          **reason,
                 gpointer        user_data)
{
  PalWindow *self = user_data;
  g_autofree char *load_reason = NULL;
  g_autofree char *resume_reason = NULL;

  if (g_str_equal (action, "win.open-session"))
    {
      if (pal_session_manager_can_load (self->manager, key, &load_reason) ||
          pal_session_manager_can_resume (self->manager, key, &resume_reason))
        return TRUE;
      if (reason != NULL)
        *reason = g_steal_pointer (&load_reason);
      return FALSE;
    }

  if (g_str_equal (action, "win.resume-session"))
    {
      /* an open session has nothing to resume: Open shows it */
      if (is_live (self, key))
        {
          if (reason != NULL)
            *reason = g_strdup (_("The session is open already."));
          return FALSE;
        }
      return pal_session_manager_can_resume (self->manager, key, reason);
    }

  if (g_str_equal (action, "win.delete-session"))
    return pal_session_manager_can_delete (self->manager, key, reason);

  /* offered only where the agent advertised it: no reason, so left out */
  if (g_str_equal (action, "win.fork-session"))
    return pal_session_manager_can_fork (self->manager, key);

  if (g_str_equal (action, "win.agent-log"))
    {
      g_autoptr(AcpAgent) agent = pal_session_manager_dup_agent_of (self->manager, key);

      if (agent == NULL && reason != NULL)
        *reason = g_strdup (_("The agent of this session has not run since Palaver started."));
      return agent != NULL;
    }

  if (g_str_equal (action, "win.close-session"))
    {
      if (!is_live (self, key))
        {
          if (reason != NULL)
            *reason = g_strdup (_("The session is not open."));
          return FALSE;
        }
      /* without session/close the session is dropped here alone; still a close */
      return TRUE;
    }

  return TRUE;
}

/**
 * _pal_window_update_actions:
 *
 * Enables the actions that depend on the current session.
 */
void
_pal_window_update_actions (PalWindow *self)
{
  PalSessionState state = state_of (self, self->current);
  gboolean retry = self->retry_attempt != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-turn",
                                 state == PAL_SESSION_STATE_WORKING ||
                                 state == PAL_SESSION_STATE_WAITING_PERMISSION);
  /* a turn, a start or an opening the agent does not answer */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-agent",
                                 state == PAL_SESSION_STATE_STOPPING ||
                                 state == PAL_SESSION_STATE_LOADING ||
                                 (self->current == NULL && self->starting_attempt != NULL));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-current-session",
                                 self->current != NULL && is_live (self, self->current));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.retry-session",
                                 retry || (self->current != NULL && state == PAL_SESSION_STATE_FAILED));
}

/* --- the actions of one session: see session_actions --- */

static void
open_session (PalWindow        *self,
              PalSessionKey    *key,
              PalSessionRecord *record)
{
  pal_window_open_session (self, key);
}

static void
resume_session (PalWindow        *self,
                PalSessionKey    *key,
                PalSessionRecord *record)
{
  g_autofree char *reason = NULL;

  if (is_live (self, key))
    {
      _pal_window_show_session (self, key);
      return;
    }

  if (!pal_session_manager_can_resume (self->manager, key, &reason))
    {
      pal_window_add_toast (self, reason != NULL ? reason : _("The agent cannot resume this session."));
      return;
    }

  _pal_window_resume_session (self, key);
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  ActionData *data = user_data;
  g_autoptr(GError) error = NULL;

  if (!pal_session_manager_close_session_finish (PAL_SESSION_MANAGER (object), result, &error))
    toast_error (data->self, error);

  if (pal_session_key_equal0 (data->key, data->self->current))
    {
      AcpSession *shown = pal_session_view_get_session (data->self->session_view);

      if (error == NULL && shown != NULL)
        acp_transcript_append_notice (acp_session_get_transcript (shown), ACP_NOTICE_SEVERITY_INFO,
                                      _("The session is closed"),
                                      _pal_window_can (data->key, "win.open-session", NULL, data->self)
                                        ? _("Write to the agent to open it again.")
                                        : _("The agent cannot open it again."),
                                      NULL);
      _pal_window_update_actions (data->self);
    }

  action_data_free (data);
}

/* A session started here that was never written to: an empty "New
 * Session" in the list, which closing it drops. */
static gboolean
never_prompted (PalWindow     *self,
                PalSessionKey *key)
{
  AcpSession *session = pal_session_manager_lookup (self->manager, key);
  GListModel *transcript;

  if (!g_hash_table_contains (self->started, key) || session == NULL)
    return FALSE;

  transcript = G_LIST_MODEL (acp_session_get_transcript (session));
  for (guint i = 0; i < g_list_model_get_n_items (transcript); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (transcript, i);

      if (ACP_IS_MESSAGE_ITEM (item) &&
          acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_USER)
        return FALSE;
    }

  return TRUE;
}

static void
close_session (PalWindow        *self,
               PalSessionKey    *key,
               PalSessionRecord *record)
{
  if (!is_live (self, key))
    return;

  if (never_prompted (self, key))
    {
      g_autoptr(PalSessionKey) hold = pal_session_key_ref (key);

      g_hash_table_remove (self->started, hold);
      if (pal_session_key_equal0 (hold, self->current))
        _pal_window_show_session (self, NULL);
      _pal_window_delete_history (self, hold);
      pal_session_manager_forget (self->manager, hold);
      return;
    }

  pal_session_manager_close_session_async (self->manager, key, self->cancellable,
                                           close_cb, action_data_new (self, key));
}

static void
rename_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    ActionData       *data)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");

  if (g_str_equal (response, "rename"))
    {
      g_autofree char *title = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

      pal_session_store_rename (pal_session_manager_get_session_store (data->self->manager),
                                data->key, title);
    }
}

static void
rename_entry_changed_cb (GtkEditable      *entry,
                         AdwMessageDialog *dialog)
{
  g_autofree char *title = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "rename", *title != '\0');
}

static void
rename_session (PalWindow        *self,
                PalSessionKey    *key,
                PalSessionRecord *record)
{
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Rename Session"), NULL));
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), pal_session_record_get_title (record));
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Title"), -1);
  adw_message_dialog_set_extra_child (dialog, entry);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "rename", _("_Rename"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "rename", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "rename");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_signal_connect (entry, "changed", G_CALLBACK (rename_entry_changed_cb), dialog);
  g_signal_connect_data (dialog, "response", G_CALLBACK (rename_response_cb),
                         action_data_new (self, key), (GClosureNotify) (void (*) (void)) action_data_free, 0);
  rename_entry_changed_cb (GTK_EDITABLE (entry), dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

static void
pin_session (PalWindow        *self,
             PalSessionKey    *key,
             PalSessionRecord *record)
{
  pal_session_store_set_pinned (pal_session_manager_get_session_store (self->manager), key,
                                !pal_session_record_get_pinned (record));
}

static void
undo_forget_cb (AdwToast         *toast,
                PalSessionRecord *record)
{
  PalWindow *self = g_object_get_data (G_OBJECT (toast), "window");

  pal_session_store_add (pal_session_manager_get_session_store (self->manager), record);
}

static void
remove_session (PalWindow        *self,
                PalSessionKey    *key,
                PalSessionRecord *record)
{
  g_autoptr(PalSessionRecord) copy = NULL;
  AdwToast *toast;

  /* a copy, to put back on Undo */
  copy = pal_session_record_new (pal_session_record_get_id (record), pal_session_record_get_agent_id (record),
                                 pal_session_record_get_cwd (record));
  pal_session_record_set_title (copy, pal_session_record_get_title (record));
  pal_session_record_set_created (copy, pal_session_record_get_created (record));
  pal_session_record_set_updated (copy, pal_session_record_get_updated (record));
  pal_session_record_set_pinned (copy, pal_session_record_get_pinned (record));

  if (pal_session_key_equal0 (key, self->current))
    _pal_window_show_session (self, NULL);
  pal_session_manager_forget (self->manager, key);

  toast = adw_toast_new (_("Session removed from the list"));
  adw_toast_set_button_label (toast, _("_Undo"));
  g_object_set_data (G_OBJECT (toast), "window", self);
  g_signal_connect_data (toast, "button-clicked", G_CALLBACK (undo_forget_cb),
                         g_steal_pointer (&copy), (GClosureNotify) (void (*) (void)) g_object_unref, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
forget_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    PalWindow        *self)
{
  PalSessionKey *key = g_object_get_data (G_OBJECT (dialog), "session-key");
  GtkCheckButton *check = GTK_CHECK_BUTTON (adw_message_dialog_get_extra_child (dialog));
  PalSessionRecord *record;

  if (!g_str_equal (response, "remove"))
    return;

  if (gtk_check_button_get_active (check))
    _pal_window_delete_history (self, key);
  record = _pal_window_lookup_record (self, key);
  if (record != NULL)
    remove_session (self, key, record);
}

/* Removing a session from the list can be undone; deleting the history
 * kept of it too cannot: asked first, when there is one. */
static void
forget_session (PalWindow        *self,
                PalSessionKey    *key,
                PalSessionRecord *record)
{
  const char *title = pal_session_record_get_title (record);
  GtkWidget *dialog;

  if (pal_session_manager_get_transcript_store (self->manager) == NULL)
    {
      remove_session (self, key, record);
      return;
    }

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Remove the Session From the List?"), NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  /* Translators: %s is a session's title */
                                  _("“%s” shows in the list again when its agent lists it."),
                                  title != NULL && *title != '\0' ? title : _("New Session"));
  _pal_window_history_add_check (self, ADW_MESSAGE_DIALOG (dialog), FALSE);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "remove", _("_Remove"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "remove",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "remove");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "session-key", pal_session_key_ref (key),
                          (GDestroyNotify) pal_session_key_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (forget_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
fork_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  ActionData *data = user_data;
  g_autoptr(AcpSession) fork = NULL;
  g_autoptr(GError) error = NULL;

  fork = pal_session_manager_fork_session_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (fork == NULL)
    {
      toast_error (data->self, error);
    }
  else
    {
      /* beside the original in the list, and shown */
      _pal_window_show_session (data->self,
                                pal_session_manager_get_session_key (data->self->manager, fork));
    }

  action_data_free (data);
}

static void
fork_session (PalWindow        *self,
              PalSessionKey    *key,
              PalSessionRecord *record)
{
  pal_session_manager_fork_session_async (self->manager, key, self->cancellable, fork_cb,
                                          action_data_new (self, key));
}

/* Shows the log of the agent of the session (nullable), if it ran here. */
static void
show_agent_log (PalWindow        *self,
                PalSessionKey    *key,
                PalSessionRecord *record)
{
  g_autoptr(AcpAgent) agent = NULL;
  const char *agent_name = NULL;

  agent = key != NULL ? pal_session_manager_dup_agent_of (self->manager, key) : NULL;
  if (agent == NULL)
    {
      pal_window_add_toast (self, _("The agent of this session has not run since Palaver started"));
      return;
    }

  if (record != NULL)
    agent_name = _pal_window_agent_name (self, pal_session_record_get_agent_id (record));
  _pal_window_present_agent_log (self, agent,
                                 agent_name != NULL ? agent_name : acp_agent_get_agent_title (agent));
}

static void
deleted_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  ActionData *data = user_data;
  g_autoptr(GError) error = NULL;

  if (pal_session_manager_delete_session_finish (PAL_SESSION_MANAGER (object), result, &error))
    {
      if (data->delete_history)
        _pal_window_delete_history (data->self, data->key);
      pal_window_add_toast (data->self, _("Session deleted"));
    }
  else
    {
      toast_error (data->self, error);
    }

  action_data_free (data);
}

static void
delete_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    PalWindow        *self)
{
  PalSessionKey *key = g_object_get_data (G_OBJECT (dialog), "session-key");
  GtkWidget *check = adw_message_dialog_get_extra_child (dialog);
  ActionData *data;

  if (!g_str_equal (response, "delete"))
    return;

  data = action_data_new (self, key);
  data->delete_history = check != NULL && gtk_check_button_get_active (GTK_CHECK_BUTTON (check));
  if (pal_session_key_equal0 (key, self->current))
    _pal_window_show_session (self, NULL);
  pal_session_manager_delete_session_async (self->manager, key, self->cancellable,
                                            deleted_cb, data);
}

/* Deleting at the agent cannot be undone: asked first. */
static void
delete_session (PalWindow        *self,
                PalSessionKey    *key,
                PalSessionRecord *record)
{
  const char *title = pal_session_record_get_title (record);
  GtkWidget *dialog;

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Delete the Session?"), NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  /* Translators: %s is a session's title */
                                  _("The agent deletes “%s” and its history for good. This cannot be undone."),
                                  title != NULL && *title != '\0' ? title : _("New Session"));
  /* what the agent forgets for good, the history need not keep */
  _pal_window_history_add_check (self, ADW_MESSAGE_DIALOG (dialog), TRUE);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "delete", _("_Delete"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "session-key", pal_session_key_ref (key),
                          (GDestroyNotify) pal_session_key_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* What the actions that take a session's key do with it: @record is the
 * session's record in the list, or NULL. */
typedef void (*SessionActionFunc) (PalWindow        *self,
                                   PalSessionKey    *key,
                                   PalSessionRecord *record);

static const struct
{
  const char        *name;
  SessionActionFunc  activate;
  gboolean           listed;   /* nothing to do for a session not in the list */
} session_actions[] = {
  { "win.open-session", open_session, FALSE },
  { "win.resume-session", resume_session, FALSE },
  { "win.fork-session", fork_session, FALSE },
  { "win.close-session", close_session, FALSE },
  { "win.rename-session", rename_session, TRUE },
  { "win.pin-session", pin_session, TRUE },
  { "win.forget-session", forget_session, TRUE },
  { "win.agent-log", show_agent_log, FALSE },
  { "win.delete-session", delete_session, TRUE },
  { "win.export-session", _pal_window_export_session, FALSE },
};

static void
session_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);
  g_autoptr(PalSessionKey) key = pal_session_key_new_from_variant (parameter);
  PalSessionRecord *record = _pal_window_lookup_record (self, key);

  for (guint i = 0; i < G_N_ELEMENTS (session_actions); i++)
    {
      if (!g_str_equal (action_name, session_actions[i].name))
        continue;
      if (record != NULL || !session_actions[i].listed)
        session_actions[i].activate (self, key, record);
      return;
    }
}

/* --- the actions of the current session, and of the window --- */

static void
new_session_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  pal_window_show_new_session_dialog (PAL_WINDOW (widget));
}

static void
restart_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  ActionData *data = user_data;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;

  session = pal_session_manager_restart_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (session == NULL)
    {
      PalSessionRecord *record = _pal_window_lookup_record (data->self, data->key);

      _pal_window_handle_error (data->self, data->key,
                                record != NULL ? pal_session_record_get_agent_id (record) : NULL,
                                record != NULL ? pal_session_record_get_cwd (record) : NULL,
                                _("The agent could not be restarted"), error);
    }
  else if (pal_session_key_equal0 (data->key, data->self->current))
    {
      _pal_window_show_session (data->self, data->key);
    }

  action_data_free (data);
}

static void
retry_session_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  if (self->current == NULL)
    return;

  pal_session_manager_restart_async (self->manager, self->current, self->cancellable,
                                     restart_cb, action_data_new (self, self->current));
}

static void
stop_turn_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  pal_session_view_stop (self->session_view);
}

/* Sessions removed from the list come back with their agents' lists (now
 * for the agents running, else the next time they list). */
static void
show_hidden_sessions_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);
  PalSessionStore *store = pal_session_manager_get_session_store (self->manager);
  g_auto(GStrv) pairs = pal_session_store_show_hidden (store);
  guint n = g_strv_length (pairs) / 2;

  for (guint i = 0; i + 1 < g_strv_length (pairs); i += 2)
    _pal_window_refresh_listed (self, pairs[i], pairs[i + 1]);

  pal_window_add_toast (self, n > 0 ? _("Sessions removed from the list show again when their agent lists them")
                                    : _("No session was removed from the list"));
}

/* The agent log window of @agent, one per agent. */
void
_pal_window_present_agent_log (PalWindow  *self,
                               AcpAgent   *agent,
                               const char *agent_name)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GtkWidget *window = NULL;

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (PAL_IS_AGENT_LOG_WINDOW (l->data) &&
        pal_agent_log_window_get_agent (l->data) == agent)
      window = l->data;

  if (window == NULL)
    {
      window = pal_agent_log_window_new (agent, agent_name);
      if (app != NULL)
        gtk_window_set_application (GTK_WINDOW (window), app);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
close_current_session_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  if (self->current != NULL)
    close_session (self, self->current, NULL);
}

static void
show_agent_log_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  show_agent_log (self, self->current, _pal_window_lookup_record (self, self->current));
}

static void
cancel_start_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  _pal_window_cancel_start (PAL_WINDOW (widget));
}

static void
stop_agent_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  if (self->current != NULL)
    pal_session_manager_stop_agent (self->manager, self->current);
  else
    _pal_window_stop_starting_agent (self);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  pal_sidebar_focus_search (self->sidebar);
}

/* The keyboard's ways around: the prompt, the latest message, the
 * sessions above and below, the answers of a permission request */
static void
focus_composer_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  pal_session_view_focus_composer (PAL_WINDOW (widget)->session_view);
}

static void
latest_message_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  pal_chat_view_focus_last (PAL_CHAT_VIEW (pal_session_view_get_chat_view (self->session_view)));
}

static void
adjacent_session_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  pal_sidebar_activate_adjacent (self->sidebar, g_str_equal (action_name, "win.next-session") ? 1 : -1);
}

static void
answer_permission_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);

  pal_session_view_answer_permission (self->session_view, g_variant_get_uint32 (parameter));
}

void
_pal_window_class_init_actions (GtkWidgetClass *widget_class)
{
  /* the actions of one session take its key */
  const char *key_type = PAL_SESSION_KEY_VARIANT_TYPE_STRING;

  gtk_widget_class_install_action (widget_class, "win.new-session", NULL, new_session_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-session", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (session_actions); i++)
    gtk_widget_class_install_action (widget_class, session_actions[i].name, key_type, session_action);

  gtk_widget_class_install_action (widget_class, "win.close-current-session", NULL, close_current_session_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "win.close-current-session", NULL);

  gtk_widget_class_install_action (widget_class, "win.retry-session", NULL, retry_session_action);

  gtk_widget_class_install_action (widget_class, "win.stop-turn", NULL, stop_turn_action);
  gtk_widget_class_install_action (widget_class, "win.stop-agent", NULL, stop_agent_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-start", NULL, cancel_start_action);
  gtk_widget_class_install_action (widget_class, "win.show-agent-log", NULL, show_agent_log_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.show-agent-log", NULL);
  gtk_widget_class_install_action (widget_class, "win.show-hidden-sessions", NULL,
                                   show_hidden_sessions_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop-turn", NULL);

  /* the list's search; Ctrl+F finds in the session shown (pal-window-search.c) */
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_k, GDK_CONTROL_MASK, "win.search", NULL);

  gtk_widget_class_install_action (widget_class, "win.focus-composer", NULL, focus_composer_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.focus-composer", NULL);
  gtk_widget_class_install_action (widget_class, "win.latest-message", NULL, latest_message_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_End, GDK_ALT_MASK, "win.latest-message", NULL);
  gtk_widget_class_install_action (widget_class, "win.previous-session", NULL, adjacent_session_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "win.previous-session", NULL);
  gtk_widget_class_install_action (widget_class, "win.next-session", NULL, adjacent_session_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK, "win.next-session", NULL);
  /* Alt+1 … Alt+9: the options of the pending request, in their order */
  gtk_widget_class_install_action (widget_class, "win.answer-permission", "u", answer_permission_action);
  for (guint i = 0; i < 9; i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_ALT_MASK,
                                         "win.answer-permission", "u", i);
}
