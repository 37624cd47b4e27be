/* pal-preferences-window.c: agent profiles and MCP servers
 *
 * Two pages over the application's stores (handed in, never looked up):
 *
 * - Agents: the default agent for new sessions, and the profiles: detected
 *   presets, the person's own, the demo. Custom profiles are added, edited
 *   and removed in #PalAgentEditor; a built-in one can be edited, and its
 *   edit undone.
 * - MCP Servers: one row per server with a switch that enables it, its
 *   transport and where it runs; add and edit in #PalMcpServerEditor,
 *   duplicate, remove (a toast offers Undo, which puts it back where it
 *   was), import another client's JSON (#PalMcpImportDialog) and export all
 *   as JSON to the clipboard or a file.
 *
 * Actions, in the "prefs" group of the window:
 *   prefs.add-agent, prefs.edit-agent(s id), prefs.remove-agent(s id),
 *   prefs.add-server, prefs.edit-server(s name), prefs.duplicate-server(s name),
 *   prefs.remove-server(s name), prefs.undo-remove(u), prefs.import,
 *   prefs.copy-json, prefs.export-file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-preferences-window-private.h"
#include "pal-tooltip.h"

G_DEFINE_FINAL_TYPE (PalPreferencesWindow, pal_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_AGENT_STORE,
  PROP_MCP_SERVER_STORE,
  PROP_SOUP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
_pal_preferences_window_add_toast (PalPreferencesWindow *self,
                                   const char           *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (escaped));
}

GtkWidget *
_pal_preferences_window_add_suffix_button (AdwActionRow *row,
                                           const char   *icon_name,
                                           const char   *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  /* GTK 4.8 does not name an icon button after its tooltip */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_add_css_class (button, "flat");
  adw_action_row_add_suffix (row, button);
  return button;
}

/* --- agents --- */

static gboolean
is_builtin_id (const char *id)
{
  return g_strcmp0 (id, PAL_AGENT_ID_CLAUDE) == 0 || g_strcmp0 (id, PAL_AGENT_ID_CODEX) == 0 ||
         g_strcmp0 (id, PAL_AGENT_ID_GEMINI) == 0 || g_strcmp0 (id, PAL_AGENT_ID_DEMO) == 0;
}

static gboolean
is_plain_word (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && strchr ("@%+=:,./_-", *s) == NULL)
      return FALSE;
  return TRUE;
}

/* For display: plain words as they are, the others quoted as a shell would. */
char *
_pal_preferences_window_dup_command_line (const char         *command,
                                          const char * const *args)
{
  GString *line = g_string_new (command);

  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      g_string_append_c (line, ' ');
      if (is_plain_word (args[i]))
        g_string_append (line, args[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (args[i]);

          g_string_append (line, quoted);
        }
    }

  return g_string_free (line, FALSE);
}

static void
update_agent_row (AdwActionRow *row)
{
  PalAgentProfile *profile = g_object_get_data (G_OBJECT (row), ROW_ITEM);
  GtkWidget *badge = g_object_get_data (G_OBJECT (row), "pal-badge");
  GtkWidget *remove = g_object_get_data (G_OBJECT (row), "pal-remove");
  const char *id = pal_agent_profile_get_id (profile);
  gboolean is_preset = pal_agent_profile_get_is_preset (profile);
  g_autofree char *command_line = NULL;

  if (pal_agent_profile_get_is_demo (profile))
    {
      command_line = g_strdup (_("Canned answers that show what Palaver can do"));
      gtk_label_set_text (GTK_LABEL (badge), _("Demo, no account needed"));
      gtk_widget_set_visible (badge, TRUE);
    }
  else
    {
      command_line =
        _pal_preferences_window_dup_command_line (pal_agent_profile_get_command (profile),
                                                  pal_agent_profile_get_args (profile));
      gtk_label_set_text (GTK_LABEL (badge), _("Detected"));
      gtk_widget_set_visible (badge, is_preset);
    }
  adw_action_row_set_subtitle (row, command_line);

  /* a built-in profile the person edited can go back to its settings */
  gtk_widget_set_visible (remove, !is_preset);
  if (is_builtin_id (id))
    {
      gtk_button_set_icon_name (GTK_BUTTON (remove), "edit-undo-symbolic");
      gtk_widget_set_tooltip_text (remove, _("Undo Your Changes"));
    }
  else
    {
      gtk_button_set_icon_name (GTK_BUTTON (remove), "user-trash-symbolic");
      gtk_widget_set_tooltip_text (remove, _("Remove"));
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  gtk_widget_get_tooltip_text (remove), -1);
}

static void
agent_row_activated_cb (AdwActionRow         *row,
                        PalPreferencesWindow *self)
{
  pal_preferences_window_edit_agent (self, g_object_get_data (G_OBJECT (row), ROW_ITEM));
}

static GtkWidget *
create_agent_row (gpointer item,
                  gpointer user_data)
{
  PalPreferencesWindow *self = user_data;
  PalAgentProfile *profile = item;
  const char *id = pal_agent_profile_get_id (profile);
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());
  GtkWidget *badge;
  GtkWidget *button;

  g_object_set_data_full (G_OBJECT (row), ROW_ITEM, g_object_ref (profile), g_object_unref);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle_lines (row, 1);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_bind_property (profile, "name", row, "title", G_BINDING_SYNC_CREATE);

  badge = gtk_label_new (NULL);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (badge, "caption");
  gtk_widget_add_css_class (badge, "dim-label");
  adw_action_row_add_suffix (row, badge);
  g_object_set_data (G_OBJECT (row), "pal-badge", badge);

  button = _pal_preferences_window_add_suffix_button (row, "document-edit-symbolic", _("Edit"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "prefs.edit-agent");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);

  button = _pal_preferences_window_add_suffix_button (row, "user-trash-symbolic", _("Remove"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "prefs.remove-agent");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);
  g_object_set_data (G_OBJECT (row), "pal-remove", button);

  g_signal_connect_object (profile, "notify", G_CALLBACK (update_agent_row), row,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "activated", G_CALLBACK (agent_row_activated_cb), self, 0);
  update_agent_row (row);

  return GTK_WIDGET (row);
}

/* Where the default agent is in the list: the profile the default-agent
 * key names, else the one the store chooses in its place. */
static guint
default_agent_position (PalPreferencesWindow *self)
{
  g_autofree char *id = pal_agent_store_dup_default_id (self->agent_store);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->agent_store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalAgentProfile) profile = NULL;

      profile = g_list_model_get_item (G_LIST_MODEL (self->agent_store), i);

      if (g_strcmp0 (pal_agent_profile_get_id (profile), id) == 0)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

/* The default-agent key, shown by the combo row (g_settings_bind_with_mapping):
 * the store tells what the key means, an unknown profile included. */
static gboolean
default_agent_get_mapping (GValue   *value,
                           GVariant *variant,
                           gpointer  user_data)
{
  PalPreferencesWindow *self = user_data;
  guint position = default_agent_position (self);

  /* none listed (the demo always is): the row stays as it is */
  if (position == GTK_INVALID_LIST_POSITION)
    position = adw_combo_row_get_selected (self->default_agent_row);
  g_value_set_uint (value, position);

  return TRUE;
}

/* The profile the person chose in the combo row, for the default-agent key;
 * NULL writes nothing. */
static GVariant *
default_agent_set_mapping (const GValue       *value,
                           const GVariantType *expected_type,
                           gpointer            user_data)
{
  PalPreferencesWindow *self = user_data;
  guint selected = g_value_get_uint (value);
  g_autoptr(PalAgentProfile) profile = NULL;
  g_autofree char *current = NULL;

  if (self->syncing_default > 0 || selected == GTK_INVALID_LIST_POSITION)
    return NULL;

  profile = g_list_model_get_item (G_LIST_MODEL (self->agent_store), selected);
  current = pal_agent_store_dup_default_id (self->agent_store);
  /* the default chosen automatically stays so until another is chosen */
  if (profile == NULL || g_strcmp0 (current, pal_agent_profile_get_id (profile)) == 0)
    return NULL;

  return g_variant_new_string (pal_agent_profile_get_id (profile));
}

/* The combo row moves its selection when profiles come and go; that is not
 * the person choosing. These run before and after the combo row's own
 * handler of the store's items-changed; after it, the row shows the
 * default again. */
static void
agents_changing_cb (PalPreferencesWindow *self)
{
  self->syncing_default++;
}

static void
agents_changed_cb (PalPreferencesWindow *self)
{
  guint position = default_agent_position (self);

  if (position != GTK_INVALID_LIST_POSITION)
    adw_combo_row_set_selected (self->default_agent_row, position);
  self->syncing_default--;
}

static void
remove_agent_response_cb (AdwMessageDialog     *dialog,
                          const char           *response,
                          PalPreferencesWindow *self)
{
  const char *id = g_object_get_data (G_OBJECT (dialog), "pal-agent-id");
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "remove") != 0)
    return;

  if (!pal_agent_store_remove (self->agent_store, id, &error))
    _pal_preferences_window_add_toast (self, error->message);
}

static void
remove_agent (PalPreferencesWindow *self,
              PalAgentProfile      *profile)
{
  const char *id = pal_agent_profile_get_id (profile);
  gboolean builtin = is_builtin_id (id);
  AdwMessageDialog *dialog;
  g_autofree char *heading = NULL;

  if (builtin)
    heading = g_strdup_printf (_("Undo Your Changes to “%s”?"),
                               pal_agent_profile_get_name (profile));
  else
    heading = g_strdup_printf (_("Remove “%s”?"), pal_agent_profile_get_name (profile));

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading,
                               builtin ? _("The built-in agent gets its own settings back.")
                                       : _("Sessions with this agent can no longer be opened "
                                           "until you add it again.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "remove", builtin ? _("_Undo Changes") : _("_Remove"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "remove", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "pal-agent-id", g_strdup (id), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (remove_agent_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
add_agent_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  pal_preferences_window_edit_agent (PAL_PREFERENCES_WINDOW (widget), NULL);
}

static void
edit_agent_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (widget);
  PalAgentProfile *profile;

  profile = pal_agent_store_lookup (self->agent_store, g_variant_get_string (parameter, NULL));
  if (profile != NULL)
    pal_preferences_window_edit_agent (self, profile);
}

static void
remove_agent_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (widget);
  PalAgentProfile *profile;

  profile = pal_agent_store_lookup (self->agent_store, g_variant_get_string (parameter, NULL));
  if (profile != NULL && !pal_agent_profile_get_is_preset (profile))
    remove_agent (self, profile);
}

/* --- GObject --- */

static void
report_load_errors (PalPreferencesWindow *self)
{
  guint n = g_strv_length ((char **) pal_agent_store_get_load_errors (self->agent_store)) +
            g_strv_length ((char **) pal_mcp_server_store_get_load_errors (self->mcp_server_store));
  g_autofree char *title = NULL;

  if (n == 0)
    return;

  title = g_strdup_printf (ngettext ("%u stored entry could not be read and was kept",
                                     "%u stored entries could not be read and were kept", n),
                           n);
  _pal_preferences_window_add_toast (self, title);
}

static void
pal_preferences_window_constructed (GObject *object)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (object);
  GtkExpression *expression;

  G_OBJECT_CLASS (pal_preferences_window_parent_class)->constructed (object);

  g_return_if_fail (PAL_IS_AGENT_STORE (self->agent_store));
  g_return_if_fail (PAL_IS_MCP_SERVER_STORE (self->mcp_server_store));
  g_return_if_fail (SOUP_IS_SESSION (self->session));

  /* agents */
  expression = gtk_property_expression_new (PAL_TYPE_AGENT_PROFILE, NULL, "name");
  g_signal_connect_object (self->agent_store, "items-changed",
                           G_CALLBACK (agents_changing_cb), self, G_CONNECT_SWAPPED);
  self->syncing_default++;
  adw_combo_row_set_expression (self->default_agent_row, expression);
  adw_combo_row_set_model (self->default_agent_row, G_LIST_MODEL (self->agent_store));
  self->syncing_default--;
  gtk_expression_unref (expression);

  gtk_list_box_bind_model (self->agent_list, G_LIST_MODEL (self->agent_store),
                           create_agent_row, self, NULL);
  g_signal_connect_object (self->agent_store, "items-changed",
                           G_CALLBACK (agents_changed_cb), self, G_CONNECT_SWAPPED);
  g_settings_bind_with_mapping (pal_agent_store_get_settings (self->agent_store), "default-agent",
                                self->default_agent_row, "selected",
                                G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_NO_SENSITIVITY,
                                default_agent_get_mapping, default_agent_set_mapping,
                                self, NULL);

  _pal_preferences_window_servers_bind (self);

  report_load_errors (self);
}

static void
pal_preferences_window_dispose (GObject *object)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  _pal_preferences_window_servers_dispose (self);
  /* its mapping functions use this window */
  if (self->default_agent_row != NULL)
    g_settings_unbind (self->default_agent_row, "selected");
  _pal_preferences_window_history_dispose (self);

  if (self->agent_list != NULL)
    gtk_list_box_bind_model (self->agent_list, NULL, NULL, NULL, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->agent_store);
  g_clear_object (&self->mcp_server_store);
  g_clear_object (&self->session);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (pal_preferences_window_parent_class)->dispose (object);
}

static void
pal_preferences_window_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_AGENT_STORE:
      g_value_set_object (value, self->agent_store);
      break;
    case PROP_MCP_SERVER_STORE:
      g_value_set_object (value, self->mcp_server_store);
      break;
    case PROP_SOUP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_preferences_window_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  PalPreferencesWindow *self = PAL_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_AGENT_STORE:
      self->agent_store = g_value_dup_object (value);
      break;
    case PROP_MCP_SERVER_STORE:
      self->mcp_server_store = g_value_dup_object (value);
      break;
    case PROP_SOUP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_preferences_window_class_init (PalPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = pal_preferences_window_constructed;
  object_class->dispose = pal_preferences_window_dispose;
  object_class->get_property = pal_preferences_window_get_property;
  object_class->set_property = pal_preferences_window_set_property;

  properties[PROP_AGENT_STORE] =
    g_param_spec_object ("agent-store", NULL, NULL, PAL_TYPE_AGENT_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  properties[PROP_MCP_SERVER_STORE] =
    g_param_spec_object ("mcp-server-store", NULL, NULL, PAL_TYPE_MCP_SERVER_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* For the connection test of http and sse servers. */
  properties[PROP_SOUP_SESSION] =
    g_param_spec_object ("soup-session", NULL, NULL, SOUP_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PalPreferencesWindow, agents_page);
  gtk_widget_class_bind_template_child (widget_class, PalPreferencesWindow, servers_page);
  gtk_widget_class_bind_template_child (widget_class, PalPreferencesWindow, default_agent_row);
  gtk_widget_class_bind_template_child (widget_class, PalPreferencesWindow, agent_list);
  gtk_widget_class_bind_template_child (widget_class, PalPreferencesWindow, server_list);
  gtk_widget_class_bind_template_child (widget_class, PalPreferencesWindow, servers_menu_button);

  gtk_widget_class_install_action (widget_class, "prefs.add-agent", NULL, add_agent_action);
  gtk_widget_class_install_action (widget_class, "prefs.edit-agent", "s", edit_agent_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-agent", "s", remove_agent_action);
  _pal_preferences_window_servers_class_init (widget_class);
}

static void
pal_preferences_window_init (PalPreferencesWindow *self)
{
  self->cancellable = g_cancellable_new ();
  _pal_preferences_window_servers_init (self);
  gtk_widget_init_template (GTK_WIDGET (self));
  /* the last page */
  _pal_preferences_window_history_init (self);
  pal_menu_button_hide_tooltip_while_open (self->servers_menu_button);
}

/**
 * pal_preferences_window_new:
 * @agent_store: the agent profiles
 * @mcp_server_store: the MCP servers
 * @session: the HTTP session for connection tests
 *
 * Returns: (transfer floating): a new preferences window, not shown yet
 */
PalPreferencesWindow *
pal_preferences_window_new (PalAgentStore     *agent_store,
                            PalMcpServerStore *mcp_server_store,
                            SoupSession       *session)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (agent_store), NULL);
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (mcp_server_store), NULL);
  g_return_val_if_fail (SOUP_IS_SESSION (session), NULL);

  return g_object_new (PAL_TYPE_PREFERENCES_WINDOW,
                       "agent-store", agent_store,
                       "mcp-server-store", mcp_server_store,
                       "soup-session", session,
                       NULL);
}

/**
 * pal_preferences_window_get_agent_store:
 * @self: a #PalPreferencesWindow
 *
 * Returns: (transfer none): the agent profiles shown
 */
PalAgentStore *
pal_preferences_window_get_agent_store (PalPreferencesWindow *self)
{
  g_return_val_if_fail (PAL_IS_PREFERENCES_WINDOW (self), NULL);
  return self->agent_store;
}

/**
 * pal_preferences_window_get_mcp_server_store:
 * @self: a #PalPreferencesWindow
 *
 * Returns: (transfer none): the MCP servers shown
 */
PalMcpServerStore *
pal_preferences_window_get_mcp_server_store (PalPreferencesWindow *self)
{
  g_return_val_if_fail (PAL_IS_PREFERENCES_WINDOW (self), NULL);
  return self->mcp_server_store;
}

/**
 * pal_preferences_window_edit_agent:
 * @self: a #PalPreferencesWindow
 * @profile: (nullable): a profile to edit, or %NULL to add one
 *
 * Returns: (transfer none): the editor shown
 */
PalAgentEditor *
pal_preferences_window_edit_agent (PalPreferencesWindow *self,
                                   PalAgentProfile      *profile)
{
  PalAgentEditor *editor;

  g_return_val_if_fail (PAL_IS_PREFERENCES_WINDOW (self), NULL);
  g_return_val_if_fail (profile == NULL || PAL_IS_AGENT_PROFILE (profile), NULL);

  editor = pal_agent_editor_new (self->agent_store, profile);
  gtk_window_set_transient_for (GTK_WINDOW (editor), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (editor));
  return editor;
}



