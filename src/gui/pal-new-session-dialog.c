/* pal-new-session-dialog.c: choose an agent, a folder and MCP servers
 *
 * The agent defaults to the preferred profile, the folder to the one used
 * last. Every enabled MCP server is ticked; unticking one leaves it out of
 * this session only. Start emits "start" with the choices and closes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-new-session-dialog.h"
#include "pal-path.h"
#include "pal-program-lookup.h"

struct _PalNewSessionDialog
{
  AdwWindow             parent_instance;

  PalAgentStore        *agent_store;
  PalMcpServerStore    *mcp_server_store;
  char                 *folder;
  GtkFileChooserNative *chooser;

  AdwComboRow          *agent_row;
  AdwActionRow         *folder_row;
  AdwPreferencesGroup  *servers_group;
  GtkButton            *start_button;
  GHashTable           *server_checks;   /* name → GtkCheckButton */
  GCancellable         *cancellable;     /* program lookups */
};

enum {
  START,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalNewSessionDialog, pal_new_session_dialog, ADW_TYPE_WINDOW)

/* An agent and an absolute folder whose name is text (agents are given it
 * in JSON). */
static gboolean
can_start (PalNewSessionDialog *self)
{
  return self->folder != NULL && g_path_is_absolute (self->folder) &&
         g_utf8_validate (self->folder, -1, NULL) &&
         pal_new_session_dialog_get_agent_id (self) != NULL;
}

static void
update_start (PalNewSessionDialog *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->start_button), can_start (self));
}

static void
chooser_response_cb (GtkNativeDialog     *chooser,
                     int                  response,
                     PalNewSessionDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        pal_new_session_dialog_set_folder (self, path);
    }

  g_clear_object (&self->chooser);
}

static void
choose_folder_cb (PalNewSessionDialog *self)
{
  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Choose a Project Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (self->folder != NULL)
    {
      g_autoptr(GFile) current = g_file_new_for_path (self->folder);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), current, NULL);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
agent_selected_cb (PalNewSessionDialog *self)
{
  PalAgentProfile *profile = adw_combo_row_get_selected_item (self->agent_row);

  /* a new person's only agent: say before they start what it is */
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->agent_row),
                               profile != NULL && pal_agent_profile_get_is_demo (profile)
                                 ? _("Canned answers, no account needed") : NULL);
  update_start (self);
}

static const char *
transport_label (PalMcpServerConfig *config)
{
  switch (pal_mcp_server_config_get_transport (config))
    {
    case ACP_MCP_TRANSPORT_HTTP:
      return _("HTTP");
    case ACP_MCP_TRANSPORT_SSE:
      return _("SSE");
    case ACP_MCP_TRANSPORT_STDIO:
    default:
      return "stdio";
    }
}

/* Offers the server, ticked, when it can be handed over; else unticked and
 * insensitive, saying why. @resolved is its command found on PATH, if any. */
static void
show_server (AdwActionRow       *row,
             GtkCheckButton     *check,
             PalMcpServerConfig *config,
             const char         *resolved)
{
  g_autoptr(GError) error = NULL;
  const char *transport = transport_label (config);

  if (pal_mcp_server_config_validate_resolved (config, NULL, resolved, &error))
    {
      adw_action_row_set_subtitle (row, transport);
      gtk_widget_set_sensitive (GTK_WIDGET (row), TRUE);
      gtk_check_button_set_active (check, TRUE);
    }
  else
    {
      g_autofree char *subtitle = g_strdup_printf ("%s · %s", transport, error->message);

      adw_action_row_set_subtitle (row, subtitle);
      gtk_widget_set_sensitive (GTK_WIDGET (row), FALSE);
      gtk_check_button_set_active (check, FALSE);
    }
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AdwActionRow) row = user_data;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (!pal_program_lookup_finish (result, &path, NULL, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  show_server (row, g_object_get_data (G_OBJECT (row), "check"),
               g_object_get_data (G_OBJECT (row), "config"), path);
}

static void
build_servers (PalNewSessionDialog *self)
{
  guint n = self->mcp_server_store != NULL
    ? g_list_model_get_n_items (G_LIST_MODEL (self->mcp_server_store)) : 0;
  guint shown = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMcpServerConfig) config = g_list_model_get_item (G_LIST_MODEL (self->mcp_server_store), i);
      const char *name = pal_mcp_server_config_get_name (config);
      const char *command = pal_mcp_server_config_get_command (config);
      GtkWidget *row, *check;

      if (!pal_mcp_server_config_get_enabled (config))
        continue;

      row = adw_action_row_new ();
      /* a name and an error as they are, never read as markup */
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      check = gtk_check_button_new ();
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      g_object_set_data (G_OBJECT (row), "check", check);
      g_object_set_data_full (G_OBJECT (row), "config", g_object_ref (config), g_object_unref);

      if (pal_mcp_server_config_get_transport (config) == ACP_MCP_TRANSPORT_STDIO &&
          command != NULL && *command != '\0' && strchr (command, '/') == NULL)
        {
          /* a bare program name (imported): look for it off the main thread */
          g_autofree char *subtitle = g_strdup_printf ("%s · %s", transport_label (config),
                                                       _("Looking for the program…"));

          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
          gtk_widget_set_sensitive (row, FALSE);
          pal_program_lookup_async (command, self->cancellable, lookup_cb, g_object_ref (row));
        }
      else
        {
          show_server (ADW_ACTION_ROW (row), GTK_CHECK_BUTTON (check), config,
                       g_path_is_absolute (command) ? command : NULL);
        }

      adw_preferences_group_add (self->servers_group, row);
      g_hash_table_insert (self->server_checks, g_strdup (name), check);
      shown++;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->servers_group), shown > 0);
}

static void
cancel_cb (PalNewSessionDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
start_cb (PalNewSessionDialog *self)
{
  pal_new_session_dialog_start (self);
}

static void
pal_new_session_dialog_dispose (GObject *object)
{
  PalNewSessionDialog *self = PAL_NEW_SESSION_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->agent_store);
  g_clear_object (&self->mcp_server_store);
  g_clear_pointer (&self->server_checks, g_hash_table_unref);

  G_OBJECT_CLASS (pal_new_session_dialog_parent_class)->dispose (object);
}

static void
pal_new_session_dialog_finalize (GObject *object)
{
  PalNewSessionDialog *self = PAL_NEW_SESSION_DIALOG (object);

  g_free (self->folder);

  G_OBJECT_CLASS (pal_new_session_dialog_parent_class)->finalize (object);
}

static void
pal_new_session_dialog_class_init (PalNewSessionDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_new_session_dialog_dispose;
  object_class->finalize = pal_new_session_dialog_finalize;

  /**
   * PalNewSessionDialog::start:
   * @agent_id: the agent profile
   * @folder: the project folder
   * @mcp_servers: (array zero-terminated=1): names of the MCP servers to hand over
   */
  signals[START] =
    g_signal_new ("start", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRV);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_new_session_dialog_init (PalNewSessionDialog *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *choose = gtk_button_new_with_mnemonic (_("_Choose…"));
  GtkExpression *expression;

  self->server_checks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("New Session"));
  gtk_window_set_default_size (GTK_WINDOW (self), 480, 600);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);

  self->start_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Start")));
  gtk_widget_add_css_class (GTK_WIDGET (self->start_button), "suggested-action");
  g_signal_connect_swapped (self->start_button, "clicked", G_CALLBACK (start_cb), self);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (cancel_cb), self);
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->start_button));

  self->agent_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->agent_row), _("Agent"));
  expression = gtk_property_expression_new (PAL_TYPE_AGENT_PROFILE, NULL, "name");
  adw_combo_row_set_expression (self->agent_row, expression);
  gtk_expression_unref (expression);
  g_signal_connect_swapped (self->agent_row, "notify::selected", G_CALLBACK (agent_selected_cb), self);

  self->folder_row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->folder_row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->folder_row), _("Project Folder"));
  adw_action_row_set_subtitle (self->folder_row, _("None chosen"));
  gtk_widget_set_valign (choose, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (choose, "clicked", G_CALLBACK (choose_folder_cb), self);
  adw_action_row_add_suffix (self->folder_row, choose);
  adw_action_row_set_activatable_widget (self->folder_row, choose);

  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("The agent runs in the project folder and works on its files."));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->agent_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->folder_row));

  self->servers_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->servers_group, _("MCP Servers"));
  adw_preferences_group_set_description (self->servers_group,
                                         _("Tools the agent may use in this session. Servers whose transport the agent does not support are left out."));

  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), self->servers_group);
  gtk_widget_set_vexpand (page, TRUE);

  gtk_box_append (GTK_BOX (toolbar), header);
  gtk_box_append (GTK_BOX (toolbar), page);
  adw_window_set_content (ADW_WINDOW (self), toolbar);

  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->start_button));
}

/**
 * pal_new_session_dialog_new:
 * @agent_store: the agent profiles
 * @mcp_server_store: (nullable): the MCP servers
 * @default_agent_id: (nullable): the profile to preselect
 * @folder: (nullable): the folder to preselect
 *
 * Returns: (transfer floating): a new dialog
 */
PalNewSessionDialog *
pal_new_session_dialog_new (PalAgentStore     *agent_store,
                            PalMcpServerStore *mcp_server_store,
                            const char        *default_agent_id,
                            const char        *folder)
{
  PalNewSessionDialog *self;

  g_return_val_if_fail (PAL_IS_AGENT_STORE (agent_store), NULL);

  self = g_object_new (PAL_TYPE_NEW_SESSION_DIALOG, NULL);
  self->agent_store = g_object_ref (agent_store);
  self->mcp_server_store = mcp_server_store != NULL ? g_object_ref (mcp_server_store) : NULL;

  adw_combo_row_set_model (self->agent_row, G_LIST_MODEL (agent_store));
  pal_new_session_dialog_set_agent_id (self, default_agent_id);
  pal_new_session_dialog_set_folder (self, folder);
  build_servers (self);
  update_start (self);

  /* Ctrl+N, then Enter, starts with what was preselected; the first button
   * in the focus chain would otherwise be Cancel, which takes the Enter */
  if (gtk_widget_get_sensitive (GTK_WIDGET (self->start_button)))
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->start_button));
  else
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->folder_row));

  return self;
}

/**
 * pal_new_session_dialog_get_agent_id:
 * @self: a #PalNewSessionDialog
 *
 * Returns: (nullable): the chosen agent profile id
 */
const char *
pal_new_session_dialog_get_agent_id (PalNewSessionDialog *self)
{
  PalAgentProfile *profile;

  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), NULL);

  profile = adw_combo_row_get_selected_item (self->agent_row);
  return profile != NULL ? pal_agent_profile_get_id (profile) : NULL;
}

void
pal_new_session_dialog_set_agent_id (PalNewSessionDialog *self,
                                     const char          *agent_id)
{
  GListModel *model;
  guint n;

  g_return_if_fail (PAL_IS_NEW_SESSION_DIALOG (self));

  model = G_LIST_MODEL (self->agent_store);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; agent_id != NULL && i < n; i++)
    {
      g_autoptr(PalAgentProfile) profile = g_list_model_get_item (model, i);

      if (g_strcmp0 (pal_agent_profile_get_id (profile), agent_id) == 0)
        {
          adw_combo_row_set_selected (self->agent_row, i);
          break;
        }
    }
}

const char *
pal_new_session_dialog_get_folder (PalNewSessionDialog *self)
{
  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), NULL);

  return self->folder;
}

void
pal_new_session_dialog_set_folder (PalNewSessionDialog *self,
                                   const char          *folder)
{
  g_autofree char *shown = NULL;

  g_return_if_fail (PAL_IS_NEW_SESSION_DIALOG (self));

  if (folder != NULL && *folder == '\0')
    folder = NULL;

  g_free (self->folder);
  self->folder = g_strdup (folder);
  if (folder != NULL && !g_utf8_validate (folder, -1, NULL))
    {
      g_autofree char *name = g_filename_display_name (folder);

      /* Translators: %s is a folder; agents are given folders as text */
      shown = g_strdup_printf (_("%s (its name is not valid UTF-8 text, which agents cannot be given)"),
                               name);
    }
  else
    shown = pal_path_display (folder, NULL, g_get_home_dir ());
  adw_action_row_set_subtitle (self->folder_row, shown != NULL ? shown : _("None chosen"));
  update_start (self);
}

/**
 * pal_new_session_dialog_dup_mcp_servers:
 * @self: a #PalNewSessionDialog
 *
 * Returns: (transfer full): names of the ticked MCP servers
 */
char **
pal_new_session_dialog_dup_mcp_servers (PalNewSessionDialog *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n;

  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), NULL);

  /* in the store's order */
  n = self->mcp_server_store != NULL
    ? g_list_model_get_n_items (G_LIST_MODEL (self->mcp_server_store)) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMcpServerConfig) config = g_list_model_get_item (G_LIST_MODEL (self->mcp_server_store), i);
      GtkCheckButton *check = g_hash_table_lookup (self->server_checks,
                                                   pal_mcp_server_config_get_name (config));

      if (check != NULL && gtk_check_button_get_active (check))
        g_strv_builder_add (builder, pal_mcp_server_config_get_name (config));
    }

  return g_strv_builder_end (builder);
}

void
pal_new_session_dialog_set_mcp_server_active (PalNewSessionDialog *self,
                                              const char          *name,
                                              gboolean             active)
{
  GtkCheckButton *check;

  g_return_if_fail (PAL_IS_NEW_SESSION_DIALOG (self));

  check = g_hash_table_lookup (self->server_checks, name);
  if (check != NULL)
    gtk_check_button_set_active (check, active);
}

/**
 * pal_new_session_dialog_start:
 * @self: a #PalNewSessionDialog
 *
 * Emits "start" with the choices and closes, as the Start button does.
 *
 * Returns: whether the choices were complete
 */
gboolean
pal_new_session_dialog_start (PalNewSessionDialog *self)
{
  g_auto(GStrv) servers = NULL;
  const char *agent_id;

  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), FALSE);

  if (!can_start (self))
    return FALSE;
  agent_id = pal_new_session_dialog_get_agent_id (self);

  servers = pal_new_session_dialog_dup_mcp_servers (self);
  g_signal_emit (self, signals[START], 0, agent_id, self->folder, servers);
  gtk_window_destroy (GTK_WINDOW (self));

  return TRUE;
}
