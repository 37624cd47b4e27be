/* pal-new-session-dialog.c: choose an agent, folders and MCP servers
 *
 * The agent defaults to the preferred profile, the folder to the one used
 * last. Every enabled MCP server is ticked; unticking one leaves it out of
 * this session only. Start emits "start" with the choices and closes.
 *
 * Additional folders are offered only when the chosen agent advertises
 * them. What an agent advertises is known once one of its profile has
 * started; until then the dialog starts it in the project folder (the
 * session starting next uses that very process) and shows the folders once
 * it answers. Folders the project folder holds, and repeats, are refused or
 * merged, and a toast says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-a11y.h"
#include "pal-folders.h"
#include "pal-new-session-dialog.h"
#include "pal-path.h"
#include "pal-program-lookup.h"

struct _PalNewSessionDialog
{
  AdwWindow             parent_instance;

  PalSessionManager    *manager;
  PalAgentStore        *agent_store;
  PalMcpServerStore    *mcp_server_store;
  char                 *folder;
  GtkFileChooserNative *chooser;
  GtkFileChooserNative *folders_chooser;
  GPtrArray            *extra_folders;   /* char *, canonical */
  GPtrArray            *extra_rows;      /* AdwActionRow, in the order of extra_folders */
  GCancellable         *probe;           /* the agent started to learn what it supports */
  gboolean              offers_folders;

  AdwToastOverlay      *toast_overlay;
  AdwComboRow          *agent_row;
  AdwActionRow         *folder_row;
  AdwPreferencesGroup  *folders_group;
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

static void update_folders_offer (PalNewSessionDialog *self);

static void
show_message (PalNewSessionDialog *self,
              const char          *message)
{
  /* a toast title is markup in libadwaita 1.2: paths shown as they are */
  g_autofree char *escaped = g_markup_escape_text (message, -1);

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

static void
update_start (PalNewSessionDialog *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->start_button), can_start (self));
}

/* folder choosers {{{ */

/* The project folder's chooser (self->chooser) sets it; the other one
 * (self->folders_chooser) adds an additional folder. */
static void
chooser_response_cb (GtkNativeDialog     *chooser,
                     int                  response,
                     PalNewSessionDialog *self)
{
  gboolean project = chooser == GTK_NATIVE_DIALOG (self->chooser);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL && project)
        pal_new_session_dialog_set_folder (self, path);
      else if (path != NULL)
        pal_new_session_dialog_add_folder (self, path);
    }

  g_clear_object (project ? &self->chooser : &self->folders_chooser);
}

/* Opens a folder chooser into @slot, unless one is open there already,
 * starting in the project folder. */
static void
open_chooser (PalNewSessionDialog   *self,
              GtkFileChooserNative **slot,
              const char            *title,
              const char            *accept_label)
{
  if (*slot != NULL)
    return;

  *slot = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                       GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                       accept_label, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (*slot), TRUE);
  if (self->folder != NULL)
    {
      g_autoptr(GFile) current = g_file_new_for_path (self->folder);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (*slot), current, NULL);
    }
  g_signal_connect (*slot, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (*slot));
}

static void
close_chooser (GtkFileChooserNative **slot)
{
  if (*slot != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (*slot));
  g_clear_object (slot);
}

static void
choose_folder_cb (PalNewSessionDialog *self)
{
  open_chooser (self, &self->chooser, _("Choose a Project Folder"), _("_Select"));
}

static void
add_folder_cb (PalNewSessionDialog *self)
{
  open_chooser (self, &self->folders_chooser, _("Choose an Additional Folder"), _("_Add"));
}

/* }}} */

/* additional folders {{{ */

static void
remove_folder_clicked_cb (GtkButton           *button,
                          PalNewSessionDialog *self)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), ADW_TYPE_ACTION_ROW);
  guint position;

  if (row == NULL || !g_ptr_array_find (self->extra_rows, row, &position))
    return;

  g_ptr_array_remove_index (self->extra_folders, position);
  g_ptr_array_remove_index (self->extra_rows, position);
  adw_preferences_group_remove (self->folders_group, row);
}

static void
rebuild_folder_rows (PalNewSessionDialog *self)
{
  while (self->extra_rows->len > 0)
    {
      GtkWidget *row = g_ptr_array_steal_index (self->extra_rows, self->extra_rows->len - 1);

      adw_preferences_group_remove (self->folders_group, row);
    }

  for (guint i = 0; i < self->extra_folders->len; i++)
    {
      const char *folder = g_ptr_array_index (self->extra_folders, i);
      g_autofree char *shown = pal_path_display (folder, NULL, g_get_home_dir ());
      /* TRANSLATORS: the accessible name of a button; %s is a folder */
      g_autofree char *label = g_strdup_printf (_("Remove “%s”"), shown);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

      /* a folder as it is, never read as markup */
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), shown);
      gtk_widget_set_tooltip_text (row, folder);

      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (remove, _("Remove"));
      /* GTK 4.8 does not name an icon button after its tooltip */
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
      gtk_widget_add_css_class (remove, "flat");
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_folder_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);

      g_ptr_array_add (self->extra_rows, row);
      adw_preferences_group_add (self->folders_group, row);
    }
}

/* The additional folders changed (@changed), or the person's choice was
 * refused: the rows follow the list, and @message (nullable) says why. */
static void
folders_changed (PalNewSessionDialog *self,
                 gboolean             changed,
                 const char          *message)
{
  if (changed)
    rebuild_folder_rows (self);
  if (message != NULL)
    show_message (self, message);
}

static void
set_offers_folders (PalNewSessionDialog *self,
                    gboolean             offers)
{
  self->offers_folders = offers;
  gtk_widget_set_visible (GTK_WIDGET (self->folders_group), offers);
}

typedef struct
{
  PalNewSessionDialog *self;
  GCancellable        *probe;
} Probe;

static void
probe_free (Probe *probe)
{
  g_object_unref (probe->self);
  g_object_unref (probe->probe);
  g_free (probe);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Probe, probe_free)

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Probe) probe = user_data;
  PalNewSessionDialog *self = probe->self;
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GError) error = NULL;

  agent = pal_session_manager_start_agent_finish (PAL_SESSION_MANAGER (object), result, &error);
  /* another agent or folder was chosen, or the dialog closed */
  if (g_cancellable_is_cancelled (probe->probe) || self->probe != probe->probe)
    return;

  g_clear_object (&self->probe);
  /* an agent that does not start does not offer them; starting the session
   * says why */
  if (agent == NULL)
    g_debug ("Could not learn what the agent supports: %s", error->message);
  set_offers_folders (self, agent != NULL &&
                            acp_agent_has_capability (agent, ACP_AGENT_CAP_ADDITIONAL_DIRECTORIES));
}

/* Offers additional folders when the chosen agent takes them; an agent of
 * which nothing is known yet is started to learn it. */
static void
update_folders_offer (PalNewSessionDialog *self)
{
  const char *agent_id = pal_new_session_dialog_get_agent_id (self);
  AcpAgentCapabilities caps;
  Probe *probe;

  if (self->probe != NULL)
    {
      g_cancellable_cancel (self->probe);
      g_clear_object (&self->probe);
    }

  if (self->manager == NULL || agent_id == NULL)
    {
      set_offers_folders (self, FALSE);
      return;
    }

  if (pal_session_manager_get_agent_capabilities (self->manager, agent_id, self->folder, &caps))
    {
      set_offers_folders (self, (caps & ACP_AGENT_CAP_ADDITIONAL_DIRECTORIES) != 0);
      return;
    }

  set_offers_folders (self, FALSE);
  if (self->folder == NULL)
    return;

  probe = g_new0 (Probe, 1);
  probe->self = g_object_ref (self);
  probe->probe = g_cancellable_new ();
  self->probe = g_object_ref (probe->probe);
  pal_session_manager_start_agent_async (self->manager, agent_id, self->folder, self->probe,
                                         probe_cb, probe);
}

/* }}} */

static void
agent_selected_cb (PalNewSessionDialog *self)
{
  PalAgentProfile *profile = adw_combo_row_get_selected_item (self->agent_row);

  /* a new person's only agent: say before they start what it is */
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->agent_row),
                               profile != NULL && pal_agent_profile_get_is_demo (profile)
                                 ? _("Canned answers, no account needed") : NULL);
  update_start (self);
  update_folders_offer (self);
}

static const char *
transport_label (PalMcpServerConfig *config)
{
  return pal_mcp_transport_get_label (pal_mcp_server_config_get_transport (config));
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
  if (self->probe != NULL)
    g_cancellable_cancel (self->probe);
  g_clear_object (&self->probe);
  close_chooser (&self->chooser);
  close_chooser (&self->folders_chooser);
  g_clear_pointer (&self->extra_rows, g_ptr_array_unref);
  g_clear_object (&self->manager);
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
  g_clear_pointer (&self->extra_folders, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_new_session_dialog_parent_class)->finalize (object);
}

/* The agents, in the row (the one chosen) and in its list: each a label
 * that names its row for a screen reader (libadwaita's own items leave
 * their rows without a name), and in the list a check mark on the chosen
 * one. */
static void
agent_item_selected_cb (GtkListItem *list_item,
                        GParamSpec  *pspec,
                        GtkWidget   *check)
{
  gtk_widget_set_opacity (check, gtk_list_item_get_selected (list_item) ? 1.0 : 0.0);
}

static void
agent_item_setup_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 20);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), check);
  gtk_list_item_set_child (list_item, box);
  g_signal_connect_object (list_item, "notify::selected",
                           G_CALLBACK (agent_item_selected_cb), check, 0);
}

static void
agent_item_bind_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *label = gtk_widget_get_first_child (box);
  GtkWidget *check = gtk_widget_get_last_child (box);
  PalAgentProfile *profile = gtk_list_item_get_item (list_item);
  /* the row a screen reader names: the widget holding the box */
  GtkWidget *row = gtk_widget_get_parent (box);

  gtk_label_set_text (GTK_LABEL (label), pal_agent_profile_get_name (profile));
  if (row != NULL)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                    label, NULL, -1);
  /* the check mark is for the list, not for the row showing the choice */
  gtk_widget_set_visible (check, gtk_widget_get_ancestor (box, GTK_TYPE_POPOVER) != NULL);
  agent_item_selected_cb (list_item, NULL, check);
}

/* Return on the agent row opens its list, as a click does: libadwaita 1.2
 * leaves the key to the dialog, whose default is Start */
static gboolean
agent_row_key_pressed_cb (GtkEventControllerKey *controller,
                          guint                  keyval,
                          guint                  keycode,
                          GdkModifierType        state,
                          gpointer               user_data)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));

  if ((keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter) ||
      (state & gtk_accelerator_get_default_mod_mask ()) != 0 ||
      gtk_root_get_focus (gtk_widget_get_root (row)) != row)
    return FALSE;

  return gtk_widget_activate (row);
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
   * @additional_folders: (array zero-terminated=1): more folders for the
   *   session; empty unless the agent takes them
   */
  signals[START] =
    g_signal_new ("start", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRV, G_TYPE_STRV);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_new_session_dialog_init (PalNewSessionDialog *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *cancel = pal_a11y_mnemonic_button_new (_("_Cancel"));
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *choose = pal_a11y_mnemonic_button_new (_("_Choose…"));
  GtkWidget *add_folder = gtk_button_new ();
  GtkWidget *add_folder_content = adw_button_content_new ();
  GtkExpression *expression;

  self->server_checks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
  self->extra_folders = g_ptr_array_new_with_free_func (g_free);
  self->extra_rows = g_ptr_array_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("New Session"));
  gtk_window_set_default_size (GTK_WINDOW (self), 480, 600);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);

  self->start_button = GTK_BUTTON (pal_a11y_mnemonic_button_new (_("_Start")));
  gtk_widget_add_css_class (GTK_WIDGET (self->start_button), "suggested-action");
  g_signal_connect_swapped (self->start_button, "clicked", G_CALLBACK (start_cb), self);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (cancel_cb), self);
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->start_button));

  self->agent_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->agent_row), _("Agent"));
  {
    /* the agent chosen, and the agents in the row's list, each named for
     * a screen reader */
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

    g_signal_connect (factory, "setup", G_CALLBACK (agent_item_setup_cb), NULL);
    g_signal_connect (factory, "bind", G_CALLBACK (agent_item_bind_cb), NULL);
    adw_combo_row_set_factory (self->agent_row, factory);
    g_object_unref (factory);
  }
  expression = gtk_property_expression_new (PAL_TYPE_AGENT_PROFILE, NULL, "name");
  adw_combo_row_set_expression (self->agent_row, expression);
  gtk_expression_unref (expression);
  g_signal_connect_swapped (self->agent_row, "notify::selected", G_CALLBACK (agent_selected_cb), self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    g_signal_connect (keys, "key-pressed", G_CALLBACK (agent_row_key_pressed_cb), NULL);
    gtk_widget_add_controller (GTK_WIDGET (self->agent_row), keys);
  }

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

  /* shown once the agent is known to take them */
  self->folders_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->folders_group, _("Additional Folders"));
  adw_preferences_group_set_description (self->folders_group,
                                         _("The agent may also use the files in these folders."));
  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (add_folder_content), "list-add-symbolic");
  adw_button_content_set_label (ADW_BUTTON_CONTENT (add_folder_content), _("_Add Folder…"));
  adw_button_content_set_use_underline (ADW_BUTTON_CONTENT (add_folder_content), TRUE);
  gtk_button_set_child (GTK_BUTTON (add_folder), add_folder_content);
  gtk_widget_set_valign (add_folder, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (add_folder, "flat");
  g_signal_connect_swapped (add_folder, "clicked", G_CALLBACK (add_folder_cb), self);
  adw_preferences_group_set_header_suffix (self->folders_group, add_folder);
  gtk_widget_set_visible (GTK_WIDGET (self->folders_group), FALSE);

  self->servers_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->servers_group, _("MCP Servers"));
  adw_preferences_group_set_description (self->servers_group,
                                         _("Tools the agent may use in this session. Servers whose transport the agent does not support are left out."));

  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), self->folders_group);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), self->servers_group);
  gtk_widget_set_vexpand (page, TRUE);

  self->toast_overlay = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toast_overlay, page);
  gtk_box_append (GTK_BOX (toolbar), header);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->toast_overlay));
  adw_window_set_content (ADW_WINDOW (self), toolbar);

  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->start_button));
}

/**
 * pal_new_session_dialog_new:
 * @manager: the session manager: its agent profiles, MCP servers and what
 *   the agents support
 * @default_agent_id: (nullable): the profile to preselect
 * @folder: (nullable): the folder to preselect
 *
 * Returns: (transfer floating): a new dialog
 */
PalNewSessionDialog *
pal_new_session_dialog_new (PalSessionManager *manager,
                            const char        *default_agent_id,
                            const char        *folder)
{
  PalMcpServerStore *mcp_server_store;
  PalNewSessionDialog *self;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (manager), NULL);

  self = g_object_new (PAL_TYPE_NEW_SESSION_DIALOG, NULL);
  self->manager = g_object_ref (manager);
  self->agent_store = g_object_ref (pal_session_manager_get_agent_store (manager));
  mcp_server_store = pal_session_manager_get_mcp_server_store (manager);
  self->mcp_server_store = mcp_server_store != NULL ? g_object_ref (mcp_server_store) : NULL;

  adw_combo_row_set_model (self->agent_row, G_LIST_MODEL (self->agent_store));
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

  if (g_strcmp0 (self->folder, folder) == 0)
    return;

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

  if (folder != NULL)
    {
      g_autofree char *message = NULL;
      gboolean changed = pal_folders_drop_inside (self->extra_folders, folder, &message);

      folders_changed (self, changed, message);
    }
  update_folders_offer (self);
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
  g_auto(GStrv) folders = NULL;
  const char *agent_id;

  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), FALSE);

  if (!can_start (self))
    return FALSE;
  agent_id = pal_new_session_dialog_get_agent_id (self);

  servers = pal_new_session_dialog_dup_mcp_servers (self);
  folders = pal_new_session_dialog_dup_additional_folders (self);
  g_signal_emit (self, signals[START], 0, agent_id, self->folder, servers, folders);
  gtk_window_destroy (GTK_WINDOW (self));

  return TRUE;
}

/**
 * pal_new_session_dialog_get_offers_folders:
 * @self: a #PalNewSessionDialog
 *
 * Returns: whether additional folders are offered: the chosen agent is
 *   known to take them
 */
gboolean
pal_new_session_dialog_get_offers_folders (PalNewSessionDialog *self)
{
  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), FALSE);

  return self->offers_folders;
}

/**
 * pal_new_session_dialog_get_checking_agent:
 * @self: a #PalNewSessionDialog
 *
 * Returns: whether the chosen agent is being started to learn what it
 *   supports
 */
gboolean
pal_new_session_dialog_get_checking_agent (PalNewSessionDialog *self)
{
  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), FALSE);

  return self->probe != NULL;
}

/**
 * pal_new_session_dialog_add_folder:
 * @self: a #PalNewSessionDialog
 * @folder: an absolute folder
 *
 * Adds an additional folder, as the Add Folder button does: the project
 * folder, a folder inside it, or one listed already (or inside a listed
 * one) is refused; one that holds listed folders takes their place. A toast
 * says which.
 *
 * Returns: whether the list changed
 */
gboolean
pal_new_session_dialog_add_folder (PalNewSessionDialog *self,
                                   const char          *folder)
{
  g_autofree char *message = NULL;
  gboolean changed;

  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), FALSE);
  g_return_val_if_fail (folder != NULL, FALSE);

  changed = pal_folders_add (self->extra_folders, self->folder, folder, &message);
  folders_changed (self, changed, message);

  return changed;
}

/**
 * pal_new_session_dialog_dup_additional_folders:
 * @self: a #PalNewSessionDialog
 *
 * Returns: (transfer full): the additional folders the session is to get:
 *   empty when the chosen agent does not take them
 */
char **
pal_new_session_dialog_dup_additional_folders (PalNewSessionDialog *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (PAL_IS_NEW_SESSION_DIALOG (self), NULL);

  for (guint i = 0; self->offers_folders && i < self->extra_folders->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->extra_folders, i));

  return g_strv_builder_end (builder);
}
