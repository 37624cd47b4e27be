/* pal-preferences-window-servers.c: the MCP Servers page of the preferences
 *
 * One row per server with a switch that enables it, its transport and where
 * it runs, and a warning when it went bad; add and edit in
 * #PalMcpServerEditor, duplicate, remove (a toast offers Undo, which puts
 * the server back where it was), import another client's JSON
 * (#PalMcpImportDialog), and export all as JSON to the clipboard or a file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-mcp-server-json.h"
#include "pal-preferences-window-private.h"

typedef struct
{
  PalMcpServerConfig *config;
  guint position;
} Removal;

static void
removal_free (gpointer data)
{
  Removal *removal = data;

  g_object_unref (removal->config);
  g_free (removal);
}

static void
update_server_row (AdwActionRow *row)
{
  PalMcpServerConfig *config = g_object_get_data (G_OBJECT (row), ROW_ITEM);
  PalMcpServerStore *store = g_object_get_data (G_OBJECT (row), "pal-store");
  GtkWidget *warning = g_object_get_data (G_OBJECT (row), "pal-warning");
  AcpMcpTransport transport = pal_mcp_server_config_get_transport (config);
  g_autofree char *where = NULL;
  g_autofree char *subtitle = NULL;
  g_autoptr(GError) error = NULL;

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    where = _pal_preferences_window_dup_command_line (pal_mcp_server_config_get_command (config),
                                                      pal_mcp_server_config_get_args (config));
  else
    where = g_strdup (pal_mcp_server_config_get_url (config));

  /* TRANSLATORS: a transport (stdio, HTTP, SSE), then the command or URL */
  subtitle = g_strdup_printf (_("%s · %s"), pal_mcp_transport_get_label (transport), where);
  adw_action_row_set_subtitle (row, subtitle);

  /* a stored server may have gone bad (a program uninstalled) */
  if (pal_mcp_server_config_validate (config, store, &error))
    gtk_widget_set_visible (warning, FALSE);
  else
    {
      gtk_widget_set_tooltip_text (warning, error->message);
      gtk_accessible_update_property (GTK_ACCESSIBLE (warning),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, error->message, -1);
      gtk_widget_set_visible (warning, TRUE);
    }
}

static void
server_row_activated_cb (AdwActionRow         *row,
                         PalPreferencesWindow *self)
{
  pal_preferences_window_edit_server (self, g_object_get_data (G_OBJECT (row), ROW_ITEM));
}

static PalMcpServerConfig *
config_of_button (GtkWidget *button)
{
  GtkWidget *row = gtk_widget_get_ancestor (button, ADW_TYPE_ACTION_ROW);

  return row != NULL ? g_object_get_data (G_OBJECT (row), ROW_ITEM) : NULL;
}

static void
edit_clicked_cb (GtkButton            *button,
                 PalPreferencesWindow *self)
{
  PalMcpServerConfig *config = config_of_button (GTK_WIDGET (button));

  if (config != NULL)
    pal_preferences_window_edit_server (self, config);
}

static void
duplicate_clicked_cb (GtkButton            *button,
                      PalPreferencesWindow *self)
{
  PalMcpServerConfig *config = config_of_button (GTK_WIDGET (button));

  if (config != NULL)
    pal_mcp_server_store_duplicate (self->mcp_server_store, config);
}

static void
remove_clicked_cb (GtkButton            *button,
                   PalPreferencesWindow *self)
{
  PalMcpServerConfig *config = config_of_button (GTK_WIDGET (button));

  g_autoptr(AdwToast) toast = NULL;

  if (config != NULL)
    toast = pal_preferences_window_remove_server (self, config);
}

static GtkWidget *
create_server_row (gpointer item,
                   gpointer user_data)
{
  PalPreferencesWindow *self = user_data;
  PalMcpServerConfig *config = item;
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());
  GtkWidget *warning;
  GtkWidget *toggle;
  GtkWidget *button;

  g_object_set_data_full (G_OBJECT (row), ROW_ITEM, g_object_ref (config), g_object_unref);
  g_object_set_data (G_OBJECT (row), "pal-store", self->mcp_server_store);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle_lines (row, 1);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_bind_property (config, "name", row, "title", G_BINDING_SYNC_CREATE);

  warning = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  gtk_widget_add_css_class (warning, "warning");
  adw_action_row_add_suffix (row, warning);
  g_object_set_data (G_OBJECT (row), "pal-warning", warning);

  toggle = gtk_switch_new ();
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (toggle, _("Give Agents This Server"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (toggle),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Enabled"), -1);
  g_object_bind_property (config, "enabled", toggle, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  adw_action_row_add_suffix (row, toggle);
  g_object_set_data (G_OBJECT (row), "pal-switch", toggle);

  button = _pal_preferences_window_add_suffix_button (row, "document-edit-symbolic", _("Edit"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (edit_clicked_cb), self, 0);
  button = _pal_preferences_window_add_suffix_button (row, "edit-copy-symbolic", _("Duplicate"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (duplicate_clicked_cb), self, 0);
  button = _pal_preferences_window_add_suffix_button (row, "user-trash-symbolic", _("Remove"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (remove_clicked_cb), self, 0);

  g_signal_connect_object (config, "changed", G_CALLBACK (update_server_row), row,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "activated", G_CALLBACK (server_row_activated_cb), self, 0);
  update_server_row (row);

  return GTK_WIDGET (row);
}

static void
update_server_actions (PalPreferencesWindow *self)
{
  gboolean any = g_list_model_get_n_items (G_LIST_MODEL (self->mcp_server_store)) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prefs.copy-json", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prefs.export-file", any);
}

/* Names change (a rename in another row clears a duplicate): check all. */
static void
servers_changed_cb (PalPreferencesWindow *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->server_list));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (ADW_IS_ACTION_ROW (row))
      update_server_row (ADW_ACTION_ROW (row));

  update_server_actions (self);
}

static PalMcpServerConfig *
lookup_server (PalPreferencesWindow *self,
               GVariant             *parameter)
{
  return pal_mcp_server_store_lookup (self->mcp_server_store,
                                      g_variant_get_string (parameter, NULL));
}

static void
add_server_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  pal_preferences_window_edit_server (PAL_PREFERENCES_WINDOW (widget), NULL);
}

static void
edit_server_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (widget);
  PalMcpServerConfig *config = lookup_server (self, parameter);

  if (config != NULL)
    pal_preferences_window_edit_server (self, config);
}

static void
duplicate_server_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (widget);
  PalMcpServerConfig *config = lookup_server (self, parameter);

  if (config != NULL)
    pal_mcp_server_store_duplicate (self->mcp_server_store, config);
}

static void
remove_server_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (widget);
  PalMcpServerConfig *config = lookup_server (self, parameter);

  g_autoptr(AdwToast) toast = NULL;

  if (config != NULL)
    toast = pal_preferences_window_remove_server (self, config);
}

static void
undo_remove_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (widget);
  guint id = g_variant_get_uint32 (parameter);
  Removal *removal = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_hash_table_steal_extended (self->removals, GUINT_TO_POINTER (id), NULL,
                                    (gpointer *) &removal))
    return;

  if (!pal_mcp_server_store_insert (self->mcp_server_store, removal->position,
                                    removal->config, &error))
    _pal_preferences_window_add_toast (self, error->message);

  removal_free (removal);
}

static void
toast_dismissed_cb (AdwToast             *toast,
                    PalPreferencesWindow *self)
{
  guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (toast), "pal-removal-id"));

  /* toasts are dismissed when the window goes too */
  if (self->removals != NULL)
    g_hash_table_remove (self->removals, GUINT_TO_POINTER (id));
}

/* --- import and export --- */

/* @title with @part after it, "; " between */
static void
append_part (char       **title,
             const char  *part)
{
  char *joined;

  /* TRANSLATORS: two sentences joined, e.g. "Imported 3 servers; 1 was renamed…" */
  joined = g_strdup_printf (_("%s; %s"), *title, part);
  g_free (*title);
  *title = joined;
}

static void
imported_cb (PalMcpImportDialog   *dialog,
             guint                 n_added,
             guint                 n_renamed,
             guint                 n_present,
             guint                 n_failed,
             PalPreferencesWindow *self)
{
  g_autofree char *title = NULL;

  title = g_strdup_printf (ngettext ("Imported %u server", "Imported %u servers", n_added),
                           n_added);
  if (n_renamed > 0)
    {
      g_autofree char *renamed = NULL;

      renamed = g_strdup_printf (ngettext ("%u was renamed: its name was taken",
                                           "%u were renamed: their names were taken",
                                           n_renamed), n_renamed);
      append_part (&title, renamed);
    }
  if (n_present > 0)
    {
      g_autofree char *present = NULL;

      present = g_strdup_printf (ngettext ("%u was in the list already",
                                           "%u were in the list already", n_present), n_present);
      append_part (&title, present);
    }
  if (n_failed > 0)
    {
      g_autofree char *failed = NULL;

      failed = g_strdup_printf (ngettext ("%u could not be read", "%u could not be read",
                                          n_failed), n_failed);
      append_part (&title, failed);
    }

  _pal_preferences_window_add_toast (self, title);
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  pal_preferences_window_import (PAL_PREFERENCES_WINDOW (widget));
}

static guint
count_secrets (PalPreferencesWindow *self)
{
  GListModel *servers = G_LIST_MODEL (self->mcp_server_store);
  guint n = g_list_model_get_n_items (servers);
  guint secrets = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMcpServerConfig) config = g_list_model_get_item (servers, i);
      GListModel *rows;
      guint n_rows;

      if (pal_mcp_server_config_get_transport (config) == ACP_MCP_TRANSPORT_STDIO)
        rows = G_LIST_MODEL (pal_mcp_server_config_get_env (config));
      else
        rows = G_LIST_MODEL (pal_mcp_server_config_get_headers (config));

      n_rows = g_list_model_get_n_items (rows);
      for (guint j = 0; j < n_rows; j++)
        {
          g_autoptr(PalNameValue) row = g_list_model_get_item (rows, j);

          if (pal_name_value_get_secret (row) && *pal_name_value_get_value (row) != '\0')
            secrets++;
        }
    }

  return secrets;
}

static void
copy_json (PalPreferencesWindow *self)
{
  g_autofree char *json = pal_mcp_server_export_json (G_LIST_MODEL (self->mcp_server_store));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->mcp_server_store));
  g_autofree char *title = NULL;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), json);
  title = g_strdup_printf (ngettext ("Copied %u server as JSON", "Copied %u servers as JSON", n),
                           n);
  _pal_preferences_window_add_toast (self, title);
}

static void
export_written_cb (GObject      *source_object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(PalPreferencesWindow) self = user_data;
  GFile *file = G_FILE (source_object);
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;

  if (!g_file_replace_contents_finish (file, result, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      title = g_strdup_printf (_("Could not export the MCP servers: %s"), error->message);
    }
  else
    {
      g_autofree char *basename = g_file_get_basename (file);

      title = g_strdup_printf (_("Exported to “%s”"), basename);
    }

  _pal_preferences_window_add_toast (self, title);
}

static void
export_chooser_response_cb (PalPreferencesWindow *self,
                            int                   response,
                            GtkNativeDialog      *chooser)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *json;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&self->export_chooser);

  if (file == NULL)
    return;

  json = pal_mcp_server_export_json (G_LIST_MODEL (self->mcp_server_store));
  bytes = g_bytes_new_take (json, strlen (json));
  /* private: it may hold tokens */
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE,
                                       G_FILE_CREATE_PRIVATE | G_FILE_CREATE_REPLACE_DESTINATION,
                                       self->cancellable, export_written_cb, g_object_ref (self));
}

static void
export_file (PalPreferencesWindow *self)
{
  if (self->export_chooser != NULL)
    return;

  self->export_chooser = gtk_file_chooser_native_new (_("Export MCP Servers"), GTK_WINDOW (self),
                                                      GTK_FILE_CHOOSER_ACTION_SAVE,
                                                      _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->export_chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->export_chooser), "mcp-servers.json");
  g_signal_connect_object (self->export_chooser, "response",
                           G_CALLBACK (export_chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->export_chooser));
}

static void
secrets_response_cb (AdwMessageDialog     *dialog,
                     const char           *response,
                     PalPreferencesWindow *self)
{
  gboolean to_file = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "pal-to-file"));

  if (g_strcmp0 (response, "export") != 0)
    return;

  if (to_file)
    export_file (self);
  else
    copy_json (self);
}

/* The JSON holds secret values in clear: say so first. */
static void
export_json (PalPreferencesWindow *self,
             gboolean              to_file)
{
  guint secrets = count_secrets (self);
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  if (secrets == 0)
    {
      if (to_file)
        export_file (self);
      else
        copy_json (self);
      return;
    }

  body = g_strdup_printf (ngettext ("The JSON holds %u secret value, such as a token, in "
                                    "clear text. Anyone who can read it can use it.",
                                    "The JSON holds %u secret values, such as tokens, in "
                                    "clear text. Anyone who can read it can use them.",
                                    secrets), secrets);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                       _("Export Secret Values?"), body));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "export", to_file ? _("_Export") : _("_Copy"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "export", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data (G_OBJECT (dialog), "pal-to-file", GINT_TO_POINTER (to_file));
  g_signal_connect_object (dialog, "response", G_CALLBACK (secrets_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
copy_json_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  export_json (PAL_PREFERENCES_WINDOW (widget), FALSE);
}

static void
export_file_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  export_json (PAL_PREFERENCES_WINDOW (widget), TRUE);
}

/* --- the window's life --- */

void
_pal_preferences_window_servers_init (PalPreferencesWindow *self)
{
  self->removals = g_hash_table_new_full (NULL, NULL, NULL, removal_free);
}

void
_pal_preferences_window_servers_bind (PalPreferencesWindow *self)
{
  gtk_list_box_bind_model (self->server_list, G_LIST_MODEL (self->mcp_server_store),
                           create_server_row, self, NULL);
  g_signal_connect_object (self->mcp_server_store, "items-changed",
                           G_CALLBACK (servers_changed_cb), self, G_CONNECT_SWAPPED);
  update_server_actions (self);
}

void
_pal_preferences_window_servers_dispose (PalPreferencesWindow *self)
{
  if (self->export_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->export_chooser));
  g_clear_object (&self->export_chooser);

  if (self->server_list != NULL)
    gtk_list_box_bind_model (self->server_list, NULL, NULL, NULL, NULL);

  g_clear_pointer (&self->removals, g_hash_table_unref);
}

void
_pal_preferences_window_servers_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "prefs.add-server", NULL, add_server_action);
  gtk_widget_class_install_action (widget_class, "prefs.edit-server", "s", edit_server_action);
  gtk_widget_class_install_action (widget_class, "prefs.duplicate-server", "s",
                                   duplicate_server_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-server", "s",
                                   remove_server_action);
  gtk_widget_class_install_action (widget_class, "prefs.undo-remove", "u", undo_remove_action);
  gtk_widget_class_install_action (widget_class, "prefs.import", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "prefs.copy-json", NULL, copy_json_action);
  gtk_widget_class_install_action (widget_class, "prefs.export-file", NULL, export_file_action);
}

/* --- public API --- */

/**
 * pal_preferences_window_edit_server:
 * @self: a #PalPreferencesWindow
 * @config: (nullable): a server to edit, or %NULL to add one
 *
 * Returns: (transfer none): the editor shown
 */
PalMcpServerEditor *
pal_preferences_window_edit_server (PalPreferencesWindow *self,
                                    PalMcpServerConfig   *config)
{
  PalMcpServerEditor *editor;

  g_return_val_if_fail (PAL_IS_PREFERENCES_WINDOW (self), NULL);
  g_return_val_if_fail (config == NULL || PAL_IS_MCP_SERVER_CONFIG (config), NULL);

  editor = pal_mcp_server_editor_new (self->mcp_server_store, config, self->session);
  gtk_window_set_transient_for (GTK_WINDOW (editor), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (editor));
  return editor;
}

/**
 * pal_preferences_window_import:
 * @self: a #PalPreferencesWindow
 *
 * Returns: (transfer none): the import dialog shown
 */
PalMcpImportDialog *
pal_preferences_window_import (PalPreferencesWindow *self)
{
  PalMcpImportDialog *dialog;

  g_return_val_if_fail (PAL_IS_PREFERENCES_WINDOW (self), NULL);

  dialog = pal_mcp_import_dialog_new (self->mcp_server_store);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  g_signal_connect_object (dialog, "imported", G_CALLBACK (imported_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

/**
 * pal_preferences_window_remove_server:
 * @self: a #PalPreferencesWindow
 * @config: a server of the store
 *
 * Returns: (transfer full) (nullable): the toast offering Undo, or %NULL
 *   when @config was not in the store
 */
AdwToast *
pal_preferences_window_remove_server (PalPreferencesWindow *self,
                                      PalMcpServerConfig   *config)
{
  g_autoptr(PalMcpServerConfig) removed = NULL;
  g_autofree char *escaped = NULL;
  Removal *removal;
  AdwToast *toast;
  guint position;
  guint id;

  g_return_val_if_fail (PAL_IS_PREFERENCES_WINDOW (self), NULL);
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (config), NULL);

  removed = pal_mcp_server_store_remove (self->mcp_server_store, config, &position);
  if (removed == NULL)
    return NULL;

  id = ++self->last_removal_id;
  removal = g_new0 (Removal, 1);
  removal->config = g_steal_pointer (&removed);
  removal->position = position;
  g_hash_table_insert (self->removals, GUINT_TO_POINTER (id), removal);

  escaped = g_markup_escape_text (pal_mcp_server_config_get_name (config), -1);
  /* TRANSLATORS: %s is the name of an MCP server */
  toast = adw_toast_new_format (_("“%s” removed"), escaped);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "prefs.undo-remove");
  adw_toast_set_action_target (toast, "u", id);
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_object_set_data (G_OBJECT (toast), "pal-removal-id", GUINT_TO_POINTER (id));
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), self, 0);

  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), g_object_ref (toast));
  return toast;
}
