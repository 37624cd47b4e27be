/* pal-mcp-server-editor.c: the dialog that adds or edits one MCP server
 *
 * The fields are bound to a working copy of the server, so that Cancel (or
 * closing) leaves the stored one alone and Save applies everything at once.
 * Every change is checked as the person types: the bad field gets the
 * "error" style and a line below says what is wrong, and Save stays
 * insensitive until nothing is. The rules are those of
 * pal_mcp_server_config_validate(), which gets the last word, stated per
 * field; a stdio command is resolved in PATH as it is typed (the path is
 * shown) and stored resolved.
 *
 * "Test Connection" runs the MCP connection test (pal_mcp_probe_*) on the
 * working copy; closing the dialog cancels it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-args-group.h"
#include "pal-error.h"
#include "pal-mcp-server-editor.h"
#include "pal-name-value-group.h"

struct _PalMcpServerEditor
{
  AdwWindow parent_instance;

  GtkButton *save_button;
  AdwPreferencesPage *page;
  AdwEntryRow *name_row;
  AdwComboRow *transport_row;
  GtkLabel *general_label;
  AdwPreferencesGroup *command_group;
  AdwEntryRow *command_row;
  GtkLabel *command_label;
  PalArgsGroup *args_group;
  PalNameValueGroup *env_group;
  AdwPreferencesGroup *url_group;
  AdwEntryRow *url_row;
  GtkLabel *url_label;
  PalNameValueGroup *headers_group;
  GtkSpinner *test_spinner;
  GtkButton *test_button;
  AdwPreferencesGroup *test_group;

  /* Added to test_group only while they show something: a group shows
   * an empty list as a thin line. Owned. */
  AdwActionRow *test_result_row;
  GtkImage *test_result_icon;
  AdwExpanderRow *tools_row;

  PalMcpServerStore *store;
  PalMcpServerConfig *original;
  PalMcpServerConfig *config;
  SoupSession *session;

  char *problem;
  gboolean can_save;
  gboolean can_test;
  guint updating;

  GCancellable *test_cancellable;
  PalMcpProbeResult *test_result;
  GError *test_error;
  /* AdwActionRow of the tools listed, owned by tools_row */
  GPtrArray *tool_rows;
};

G_DEFINE_FINAL_TYPE (PalMcpServerEditor, pal_mcp_server_editor, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_STORE,
  PROP_CONFIG,
  PROP_SOUP_SESSION,
  PROP_CAN_SAVE,
  PROP_TESTING,
  N_PROPS
};

enum {
  SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* --- validation --- */

static gboolean
is_blank (const char *s)
{
  for (; *s != '\0'; s++)
    if (!g_ascii_isspace (*s))
      return FALSE;
  return TRUE;
}

/* Marks @row bad (or good) and shows @message in @label, styled as @style. */
static void
show_field_message (GtkWidget  *row,
                    GtkLabel   *label,
                    const char *message,
                    const char *style)
{
  static const char * const styles[] = { "error", "warning", "dim-label" };

  if (row != NULL)
    {
      if (message != NULL && g_strcmp0 (style, "error") == 0)
        gtk_widget_add_css_class (row, "error");
      else
        gtk_widget_remove_css_class (row, "error");
    }

  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    {
      if (g_strcmp0 (styles[i], style) == 0)
        gtk_widget_add_css_class (GTK_WIDGET (label), styles[i]);
      else
        gtk_widget_remove_css_class (GTK_WIDGET (label), styles[i]);
    }

  gtk_label_set_text (label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (label), message != NULL);
}

static char *
check_name (PalMcpServerEditor *self)
{
  const char *name = pal_mcp_server_config_get_name (self->config);
  PalMcpServerConfig *other;

  if (is_blank (name))
    return g_strdup (_("Enter a name for the server"));

  other = pal_mcp_server_store_lookup (self->store, name);
  if (other != NULL && other != self->original)
    return g_strdup_printf (_("Another MCP server is already named “%s”"), name);

  return NULL;
}

/* Returns the error; a note (where the program is, or that it is missing
 * from this computer) goes to @note with its @note_style. */
static char *
check_command (PalMcpServerEditor  *self,
               char               **note,
               const char         **note_style)
{
  const char *command = pal_mcp_server_config_get_command (self->config);
  g_autofree char *resolved = NULL;

  *note = NULL;
  *note_style = NULL;

  if (is_blank (command))
    return g_strdup (_("Enter the program to start"));

  resolved = pal_mcp_server_config_resolve_command (self->config);
  if (resolved == NULL)
    {
      if (strchr (command, '/') != NULL)
        return g_strdup_printf (_("“%s” is a relative path: enter an absolute path, or a "
                                  "program name to look up in PATH"), command);
      return g_strdup_printf (_("“%s” was not found in PATH"), command);
    }

  if (!g_file_test (resolved, G_FILE_TEST_IS_EXECUTABLE) ||
      g_file_test (resolved, G_FILE_TEST_IS_DIR))
    {
      /* It may exist where the agent runs (another sandbox); say so, allow it. */
      *note = g_strdup_printf (_("“%s” is not an executable program on this computer"),
                               resolved);
      *note_style = "warning";
    }
  else if (g_strcmp0 (resolved, command) != 0)
    {
      /* TRANSLATORS: %s is the absolute path of the program found in PATH */
      *note = g_strdup_printf (_("Found at %s"), resolved);
      *note_style = "dim-label";
    }

  return NULL;
}

static char *
check_url (PalMcpServerEditor *self)
{
  const char *url = pal_mcp_server_config_get_url (self->config);
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;
  const char *scheme;
  const char *host;

  if (*url == '\0')
    return g_strdup (_("Enter the URL of the server"));

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, &error);
  if (uri == NULL)
    return g_strdup_printf (_("The URL is not valid: %s"), error->message);

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    return g_strdup_printf (_("The URL must start with http:// or https://, not %s:"), scheme);

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    return g_strdup (_("The URL has no host name"));

  return NULL;
}

static void
set_problem (PalMcpServerEditor *self,
             const char         *problem)
{
  if (self->problem == NULL && problem != NULL)
    self->problem = g_strdup (problem);
}

static void
update_buttons (PalMcpServerEditor *self)
{
  gboolean testing = self->test_cancellable != NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), self->can_save);
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), self->can_test || testing);
  gtk_button_set_label (self->test_button, testing ? _("_Cancel Test") : _("_Test Connection"));
  gtk_widget_set_visible (GTK_WIDGET (self->test_spinner), testing);
  gtk_spinner_set_spinning (self->test_spinner, testing);
}

static void
validate (PalMcpServerEditor *self)
{
  AcpMcpTransport transport = pal_mcp_server_config_get_transport (self->config);
  g_autofree char *name_error = NULL;
  g_autofree char *field_error = NULL;
  g_autofree char *note = NULL;
  const char *note_style = NULL;
  gboolean fields_ok;
  gboolean can_save;

  /* groups report while the template is built, before there is a config */
  if (self->config == NULL)
    return;

  g_clear_pointer (&self->problem, g_free);

  name_error = check_name (self);
  set_problem (self, name_error);

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    {
      field_error = check_command (self, &note, &note_style);
      set_problem (self, field_error);
      show_field_message (GTK_WIDGET (self->command_row), self->command_label,
                          field_error != NULL ? field_error : note,
                          field_error != NULL ? "error" : note_style);
      if (!pal_name_value_group_get_valid (self->env_group))
        set_problem (self, _("An environment variable is not valid"));
      fields_ok = field_error == NULL && pal_name_value_group_get_valid (self->env_group);
    }
  else
    {
      field_error = check_url (self);
      set_problem (self, field_error);
      show_field_message (GTK_WIDGET (self->url_row), self->url_label, field_error, "error");
      if (!pal_name_value_group_get_valid (self->headers_group))
        set_problem (self, _("A header is not valid"));
      fields_ok = field_error == NULL && pal_name_value_group_get_valid (self->headers_group);
    }

  self->can_test = fields_ok;
  can_save = fields_ok && name_error == NULL;

  /* The configuration's own check has the last word. */
  if (can_save)
    {
      g_autoptr(GError) error = NULL;

      if (!pal_mcp_server_config_validate (self->config, NULL, &error))
        {
          can_save = FALSE;
          self->can_test = FALSE;
          set_problem (self, error->message);
          name_error = g_strdup (error->message);
        }
    }

  show_field_message (GTK_WIDGET (self->name_row), self->general_label, name_error, "error");

  if (self->can_save != can_save)
    {
      self->can_save = can_save;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_SAVE]);
    }
  update_buttons (self);
}

/* --- the fields --- */

static void
update_transport (PalMcpServerEditor *self)
{
  AcpMcpTransport transport = pal_mcp_server_config_get_transport (self->config);
  gboolean stdio = transport == ACP_MCP_TRANSPORT_STDIO;

  self->updating++;
  adw_combo_row_set_selected (self->transport_row, transport);
  self->updating--;

  gtk_widget_set_visible (GTK_WIDGET (self->command_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->args_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->env_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->url_group), !stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->headers_group), !stdio);
}

static void
transport_selected_cb (PalMcpServerEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->transport_row);

  if (self->updating > 0 || self->config == NULL || selected > ACP_MCP_TRANSPORT_SSE)
    return;
  pal_mcp_server_config_set_transport (self->config, selected);
}

static void
args_changed_cb (PalMcpServerEditor *self)
{
  g_auto(GStrv) args = NULL;

  if (self->config == NULL)
    return;

  args = pal_args_group_dup_args (self->args_group);
  pal_mcp_server_config_set_args (self->config, (const char * const *) args);
}

static void
config_changed_cb (PalMcpServerEditor *self)
{
  validate (self);
}

/* --- the connection test --- */

/* Adds @row to the test group, or takes it out. */
static void
show_test_row (PalMcpServerEditor *self,
               gpointer            row,
               gboolean            show)
{
  gboolean shown = gtk_widget_get_parent (GTK_WIDGET (row)) != NULL;

  if (show && !shown)
    adw_preferences_group_add (self->test_group, GTK_WIDGET (row));
  else if (!show && shown)
    adw_preferences_group_remove (self->test_group, GTK_WIDGET (row));
}

static void
clear_test_output (PalMcpServerEditor *self)
{
  for (guint i = 0; i < self->tool_rows->len; i++)
    adw_expander_row_remove (self->tools_row, g_ptr_array_index (self->tool_rows, i));
  g_ptr_array_set_size (self->tool_rows, 0);

  show_test_row (self, self->test_result_row, FALSE);
  show_test_row (self, self->tools_row, FALSE);
  g_clear_object (&self->test_result);
  g_clear_error (&self->test_error);
}

static void
set_testing (PalMcpServerEditor *self,
             GCancellable       *cancellable)
{
  if (self->test_cancellable == cancellable)
    return;

  g_clear_object (&self->test_cancellable);
  if (cancellable != NULL)
    self->test_cancellable = g_object_ref (cancellable);

  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TESTING]);
}

static void
show_result_row (PalMcpServerEditor *self,
                 const char         *icon_name,
                 const char         *style,
                 const char         *title,
                 const char         *subtitle)
{
  GtkWidget *icon = GTK_WIDGET (self->test_result_icon);

  gtk_image_set_from_icon_name (self->test_result_icon, icon_name);
  gtk_widget_remove_css_class (icon, "success");
  gtk_widget_remove_css_class (icon, "error");
  gtk_widget_add_css_class (icon, style);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->test_result_row), title);
  adw_action_row_set_subtitle (self->test_result_row, subtitle);
  show_test_row (self, self->test_result_row, TRUE);
}

/* Once laid out, shows the outcome of the test: it is below the fold. */
static gboolean
scroll_to_output_cb (gpointer user_data)
{
  PalMcpServerEditor *self = user_data;
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self->test_group),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *child;
  GtkAdjustment *adjustment;
  double x, y;
  double bottom;

  if (scrolled == NULL)
    return G_SOURCE_REMOVE;

  child = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  if (!gtk_widget_translate_coordinates (GTK_WIDGET (self->test_group), child,
                                         0, 0, &x, &y))
    return G_SOURCE_REMOVE;

  /* the whole group when it fits, else its top */
  bottom = y + gtk_widget_get_height (GTK_WIDGET (self->test_group));
  if (bottom - gtk_adjustment_get_page_size (adjustment) > gtk_adjustment_get_value (adjustment))
    gtk_adjustment_set_value (adjustment,
                              MIN (y, bottom - gtk_adjustment_get_page_size (adjustment)));
  return G_SOURCE_REMOVE;
}

static void
scroll_to_output (PalMcpServerEditor *self)
{
  g_idle_add_full (G_PRIORITY_LOW, scroll_to_output_cb, g_object_ref (self), g_object_unref);
}

static void
show_test_result (PalMcpServerEditor *self)
{
  PalMcpProbeResult *result = self->test_result;
  const char *name = pal_mcp_probe_result_get_server_title (result);
  const char *version = pal_mcp_probe_result_get_server_version (result);
  const char *protocol = pal_mcp_probe_result_get_protocol_version (result);
  const char * const *tools = pal_mcp_probe_result_get_tool_names (result);
  const char * const *descriptions = pal_mcp_probe_result_get_tool_descriptions (result);
  guint n_tools = pal_mcp_probe_result_get_n_tools (result);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *count = NULL;

  if (name == NULL)
    name = pal_mcp_probe_result_get_server_name (result);

  if (name != NULL && version != NULL)
    /* TRANSLATORS: %s is the server's name, %s its version */
    title = g_strdup_printf (_("Connected to %s %s"), name, version);
  else if (name != NULL)
    title = g_strdup_printf (_("Connected to %s"), name);
  else
    title = g_strdup (_("Connected"));

  if (n_tools == 0)
    count = g_strdup (_("No tools"));
  else
    count = g_strdup_printf (ngettext ("%u tool", "%u tools", n_tools), n_tools);
  /* TRANSLATORS: %s is an MCP protocol version such as 2025-06-18, then the tool count */
  subtitle = g_strdup_printf (_("Protocol %s · %s"), protocol != NULL ? protocol : "?", count);

  show_result_row (self, "emblem-ok-symbolic", "success", title, subtitle);

  for (guint i = 0; i < n_tools; i++)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), tools[i]);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), descriptions[i]);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
      adw_expander_row_add_row (self->tools_row, row);
      g_ptr_array_add (self->tool_rows, row);
    }

  adw_expander_row_set_subtitle (self->tools_row, count);
  show_test_row (self, self->tools_row, n_tools > 0);
}

typedef struct
{
  PalMcpServerEditor *self;
  GCancellable *cancellable;
} TestData;

static void
test_data_free (TestData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->cancellable);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestData, test_data_free)

static void
probe_done_cb (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TestData) data = user_data;
  PalMcpServerEditor *self = data->self;
  g_autoptr(PalMcpProbeResult) probe = NULL;
  g_autoptr(GError) error = NULL;

  probe = pal_mcp_probe_finish (result, &error);

  /* a test that was cancelled, or replaced by a newer one */
  if (self->test_cancellable != data->cancellable)
    return;

  set_testing (self, NULL);

  if (probe == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  clear_test_output (self);
  if (probe != NULL)
    {
      self->test_result = g_steal_pointer (&probe);
      show_test_result (self);
    }
  else
    {
      show_result_row (self, "dialog-error-symbolic", "error",
                       _("The connection test failed"), error->message);
      self->test_error = g_steal_pointer (&error);
    }

  scroll_to_output (self);
}

static void
start_test (PalMcpServerEditor *self)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  TestData *data;

  clear_test_output (self);
  set_testing (self, cancellable);

  data = g_new0 (TestData, 1);
  data->self = g_object_ref (self);
  data->cancellable = g_object_ref (cancellable);

  pal_mcp_probe_config_async (self->config, self->session, 0, cancellable,
                              probe_done_cb, data);
}

static void
cancel_test (PalMcpServerEditor *self)
{
  if (self->test_cancellable != NULL)
    {
      g_cancellable_cancel (self->test_cancellable);
      set_testing (self, NULL);
    }
}

static void
test_clicked_cb (PalMcpServerEditor *self)
{
  pal_mcp_server_editor_test_connection (self);
}

/* --- saving --- */

static void
copy_rows (GListStore *to,
           GListStore *from)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (from));
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (from), i);

      g_ptr_array_add (rows, pal_name_value_copy (row));
    }

  g_list_store_splice (to, 0, g_list_model_get_n_items (G_LIST_MODEL (to)),
                       rows->pdata, rows->len);
}

static void
apply (PalMcpServerConfig *to,
       PalMcpServerConfig *from)
{
  pal_mcp_server_config_set_name (to, pal_mcp_server_config_get_name (from));
  pal_mcp_server_config_set_transport (to, pal_mcp_server_config_get_transport (from));
  pal_mcp_server_config_set_command (to, pal_mcp_server_config_get_command (from));
  pal_mcp_server_config_set_args (to, pal_mcp_server_config_get_args (from));
  pal_mcp_server_config_set_url (to, pal_mcp_server_config_get_url (from));
  copy_rows (pal_mcp_server_config_get_env (to), pal_mcp_server_config_get_env (from));
  copy_rows (pal_mcp_server_config_get_headers (to), pal_mcp_server_config_get_headers (from));
}

static void
save_clicked_cb (PalMcpServerEditor *self)
{
  g_autoptr(GError) error = NULL;

  if (pal_mcp_server_editor_save (self, &error))
    gtk_window_close (GTK_WINDOW (self));
  else
    show_field_message (NULL, self->general_label, error->message, "error");
}

/* --- GObject --- */

static gboolean
pal_mcp_server_editor_close_request (GtkWindow *window)
{
  cancel_test (PAL_MCP_SERVER_EDITOR (window));

  return GTK_WINDOW_CLASS (pal_mcp_server_editor_parent_class)->close_request (window);
}

static void
pal_mcp_server_editor_constructed (GObject *object)
{
  PalMcpServerEditor *self = PAL_MCP_SERVER_EDITOR (object);

  G_OBJECT_CLASS (pal_mcp_server_editor_parent_class)->constructed (object);

  g_return_if_fail (PAL_IS_MCP_SERVER_STORE (self->store));

  if (self->original != NULL)
    {
      self->config = pal_mcp_server_config_copy (self->original);
      gtk_window_set_title (GTK_WINDOW (self), _("Edit MCP Server"));
    }
  else
    {
      self->config = pal_mcp_server_config_new ("", ACP_MCP_TRANSPORT_STDIO);
      gtk_window_set_title (GTK_WINDOW (self), _("Add MCP Server"));
    }

  g_object_bind_property (self->config, "name", self->name_row, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->config, "command", self->command_row, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->config, "url", self->url_row, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  pal_args_group_set_args (self->args_group, pal_mcp_server_config_get_args (self->config));
  pal_name_value_group_set_model (self->env_group, pal_mcp_server_config_get_env (self->config));
  pal_name_value_group_set_model (self->headers_group,
                                  pal_mcp_server_config_get_headers (self->config));

  g_signal_connect_object (self->config, "notify::transport",
                           G_CALLBACK (update_transport), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->config, "changed",
                           G_CALLBACK (config_changed_cb), self, G_CONNECT_SWAPPED);

  update_transport (self);
  validate (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

static void
pal_mcp_server_editor_dispose (GObject *object)
{
  PalMcpServerEditor *self = PAL_MCP_SERVER_EDITOR (object);

  cancel_test (self);
  if (self->tool_rows != NULL)
    g_ptr_array_set_size (self->tool_rows, 0);
  g_clear_object (&self->test_result_row);
  g_clear_object (&self->tools_row);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_MCP_SERVER_EDITOR);

  g_clear_object (&self->config);
  g_clear_object (&self->original);
  g_clear_object (&self->store);
  g_clear_object (&self->session);
  g_clear_object (&self->test_result);
  g_clear_error (&self->test_error);

  G_OBJECT_CLASS (pal_mcp_server_editor_parent_class)->dispose (object);
}

static void
pal_mcp_server_editor_finalize (GObject *object)
{
  PalMcpServerEditor *self = PAL_MCP_SERVER_EDITOR (object);

  g_clear_pointer (&self->tool_rows, g_ptr_array_unref);
  g_free (self->problem);

  G_OBJECT_CLASS (pal_mcp_server_editor_parent_class)->finalize (object);
}

static void
pal_mcp_server_editor_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PalMcpServerEditor *self = PAL_MCP_SERVER_EDITOR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_CONFIG:
      g_value_set_object (value, self->original);
      break;
    case PROP_SOUP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_CAN_SAVE:
      g_value_set_boolean (value, self->can_save);
      break;
    case PROP_TESTING:
      g_value_set_boolean (value, self->test_cancellable != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_server_editor_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PalMcpServerEditor *self = PAL_MCP_SERVER_EDITOR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;
    case PROP_CONFIG:
      self->original = g_value_dup_object (value);
      break;
    case PROP_SOUP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_server_editor_class_init (PalMcpServerEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = pal_mcp_server_editor_constructed;
  object_class->dispose = pal_mcp_server_editor_dispose;
  object_class->finalize = pal_mcp_server_editor_finalize;
  object_class->get_property = pal_mcp_server_editor_get_property;
  object_class->set_property = pal_mcp_server_editor_set_property;

  window_class->close_request = pal_mcp_server_editor_close_request;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, PAL_TYPE_MCP_SERVER_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* The server edited, or NULL to add one. */
  properties[PROP_CONFIG] =
    g_param_spec_object ("config", NULL, NULL, PAL_TYPE_MCP_SERVER_CONFIG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* For the connection test of http and sse servers. */
  properties[PROP_SOUP_SESSION] =
    g_param_spec_object ("soup-session", NULL, NULL, SOUP_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_SAVE] =
    g_param_spec_boolean ("can-save", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TESTING] =
    g_param_spec_boolean ("testing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalMcpServerEditor::saved:
   * @config: the server as stored
   *
   * The server was added to the store or updated.
   */
  signals[SAVED] =
    g_signal_new ("saved",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, PAL_TYPE_MCP_SERVER_CONFIG);

  g_type_ensure (PAL_TYPE_ARGS_GROUP);
  g_type_ensure (PAL_TYPE_NAME_VALUE_GROUP);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-mcp-server-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, save_button);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, page);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, transport_row);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, general_label);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, command_group);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, command_row);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, command_label);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, args_group);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, env_group);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, url_group);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, url_row);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, url_label);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, headers_group);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, test_spinner);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, test_button);
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, test_group);
  gtk_widget_class_bind_template_callback (widget_class, transport_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, args_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, validate);
  gtk_widget_class_bind_template_callback (widget_class, test_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_mcp_server_editor_init (PalMcpServerEditor *self)
{
  self->tool_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->test_result_row = g_object_ref_sink (ADW_ACTION_ROW (adw_action_row_new ()));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->test_result_row), FALSE);
  adw_preferences_row_set_title_selectable (ADW_PREFERENCES_ROW (self->test_result_row), TRUE);
  adw_action_row_set_subtitle_lines (self->test_result_row, 0);
  self->test_result_icon = GTK_IMAGE (gtk_image_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->test_result_icon), GTK_ALIGN_CENTER);
  adw_action_row_add_prefix (self->test_result_row, GTK_WIDGET (self->test_result_icon));

  self->tools_row = g_object_ref_sink (ADW_EXPANDER_ROW (adw_expander_row_new ()));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->tools_row), _("Tools"));
  adw_expander_row_set_expanded (self->tools_row, TRUE);
}

/**
 * pal_mcp_server_editor_new:
 * @store: the servers
 * @config: (nullable): a server of @store to edit, or %NULL to add one
 * @session: the HTTP session for the connection test
 *
 * Returns: (transfer floating): a new editor, not shown yet
 */
PalMcpServerEditor *
pal_mcp_server_editor_new (PalMcpServerStore  *store,
                           PalMcpServerConfig *config,
                           SoupSession        *session)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (store), NULL);
  g_return_val_if_fail (config == NULL || PAL_IS_MCP_SERVER_CONFIG (config), NULL);
  g_return_val_if_fail (SOUP_IS_SESSION (session), NULL);

  return g_object_new (PAL_TYPE_MCP_SERVER_EDITOR,
                       "store", store,
                       "config", config,
                       "soup-session", session,
                       NULL);
}

/**
 * pal_mcp_server_editor_get_original:
 * @self: a #PalMcpServerEditor
 *
 * Returns: (transfer none) (nullable): the stored server edited; after
 *   adding one, the one added
 */
PalMcpServerConfig *
pal_mcp_server_editor_get_original (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), NULL);
  return self->original;
}

/**
 * pal_mcp_server_editor_get_config:
 * @self: a #PalMcpServerEditor
 *
 * Returns: (transfer none): the working copy the fields edit
 */
PalMcpServerConfig *
pal_mcp_server_editor_get_config (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), NULL);
  return self->config;
}

gboolean
pal_mcp_server_editor_get_can_save (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), FALSE);
  return self->can_save;
}

/**
 * pal_mcp_server_editor_get_problem:
 * @self: a #PalMcpServerEditor
 *
 * Returns: (nullable): the first problem, as shown next to its field
 */
const char *
pal_mcp_server_editor_get_problem (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), NULL);
  return self->problem;
}

/**
 * pal_mcp_server_editor_save:
 * @self: a #PalMcpServerEditor
 * @error: %PAL_ERROR_INVALID with the problem when a field is not valid,
 *   or an error of the store
 *
 * Returns: %TRUE when the server was stored
 */
gboolean
pal_mcp_server_editor_save (PalMcpServerEditor  *self,
                            GError             **error)
{
  PalMcpServerConfig *target;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  validate (self);
  if (!self->can_save)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           self->problem != NULL ? self->problem : _("The server is not valid"));
      return FALSE;
    }

  if (pal_mcp_server_config_get_transport (self->config) == ACP_MCP_TRANSPORT_STDIO)
    {
      g_autofree char *command = pal_mcp_server_config_resolve_command (self->config);

      pal_mcp_server_config_set_command (self->config, command);
    }

  /* edit the stored server in place, unless it was removed meanwhile */
  target = self->original;
  if (target != NULL &&
      pal_mcp_server_store_lookup (self->store, pal_mcp_server_config_get_name (target)) != target)
    target = NULL;

  if (target != NULL)
    apply (target, self->config);
  else
    {
      g_autoptr(PalMcpServerConfig) copy = pal_mcp_server_config_copy (self->config);

      if (self->original != NULL)
        pal_mcp_server_config_set_enabled (copy,
                                           pal_mcp_server_config_get_enabled (self->original));
      if (!pal_mcp_server_store_add (self->store, copy, error))
        return FALSE;

      g_set_object (&self->original, copy);
      target = copy;
    }

  g_signal_emit (self, signals[SAVED], 0, target);
  return TRUE;
}

void
pal_mcp_server_editor_test_connection (PalMcpServerEditor *self)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_EDITOR (self));

  if (self->test_cancellable != NULL)
    cancel_test (self);
  else if (self->can_test)
    start_test (self);
}

gboolean
pal_mcp_server_editor_get_testing (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), FALSE);
  return self->test_cancellable != NULL;
}

/**
 * pal_mcp_server_editor_get_test_result:
 * @self: a #PalMcpServerEditor
 *
 * Returns: (transfer none) (nullable): what the server said in the last test
 */
PalMcpProbeResult *
pal_mcp_server_editor_get_test_result (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), NULL);
  return self->test_result;
}

/**
 * pal_mcp_server_editor_get_test_error:
 * @self: a #PalMcpServerEditor
 *
 * Returns: (transfer none) (nullable): why the last test failed
 */
const GError *
pal_mcp_server_editor_get_test_error (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), NULL);
  return self->test_error;
}
