/* pal-mcp-test-group.c: the connection test of the MCP server editor
 *
 * A preferences group with a "Test Connection" button that runs the MCP
 * connection test (pal_mcp_probe_config_async()) on the server the editor
 * is changing, with a spinner while it runs; the button then cancels it.
 * The outcome shows as rows: the server's name, version and protocol, and
 * its tools with their descriptions, or the precise error. The rows are
 * added only once there is something to show: a group shows an empty list
 * as a thin line. Disposing the group (closing the editor) cancels the
 * test, which stops a stdio server.
 *
 * The outcome stays only while it says something about the settings shown:
 * changing how the server is reached (transport, command, arguments,
 * environment, URL, headers) clears it, or cancels the test running; a new
 * name does not.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-mcp-test-group.h"

struct _PalMcpTestGroup
{
  AdwPreferencesGroup parent_instance;

  GtkSpinner *spinner;
  GtkButton *button;

  /* owned; in the group only while they show something */
  AdwActionRow *result_row;
  GtkImage *result_icon;
  AdwExpanderRow *tools_row;
  /* AdwActionRow of the tools listed, owned by tools_row */
  GPtrArray *tool_rows;

  PalMcpServerConfig *config;
  /* a copy of the settings of the test shown or running */
  PalMcpServerConfig *tested;
  SoupSession *session;
  gboolean can_test;

  GCancellable *cancellable;
  PalMcpProbeResult *result;
  GError *error;
};

G_DEFINE_FINAL_TYPE (PalMcpTestGroup, pal_mcp_test_group, ADW_TYPE_PREFERENCES_GROUP)

enum {
  PROP_0,
  PROP_TESTING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_button (PalMcpTestGroup *self)
{
  gboolean testing = self->cancellable != NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->button),
                            testing || (self->can_test && self->config != NULL &&
                                        self->session != NULL));
  gtk_button_set_label (self->button, testing ? _("_Cancel Test") : _("_Test Connection"));
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), testing);
  gtk_spinner_set_spinning (self->spinner, testing);
}

static void
set_cancellable (PalMcpTestGroup *self,
                 GCancellable    *cancellable)
{
  if (self->cancellable == cancellable)
    return;

  g_clear_object (&self->cancellable);
  if (cancellable != NULL)
    self->cancellable = g_object_ref (cancellable);

  update_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TESTING]);
}

static void
show_row (PalMcpTestGroup *self,
          gpointer         row,
          gboolean         show)
{
  gboolean shown = gtk_widget_get_parent (GTK_WIDGET (row)) != NULL;

  if (show && !shown)
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (row));
  else if (!show && shown)
    adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (row));
}

static void
clear_output (PalMcpTestGroup *self)
{
  for (guint i = 0; i < self->tool_rows->len; i++)
    adw_expander_row_remove (self->tools_row, g_ptr_array_index (self->tool_rows, i));
  g_ptr_array_set_size (self->tool_rows, 0);

  show_row (self, self->result_row, FALSE);
  show_row (self, self->tools_row, FALSE);
  g_clear_object (&self->result);
  g_clear_error (&self->error);
}

static void
show_result_row (PalMcpTestGroup *self,
                 const char      *icon_name,
                 const char      *style,
                 const char      *title,
                 const char      *subtitle)
{
  GtkWidget *icon = GTK_WIDGET (self->result_icon);

  gtk_image_set_from_icon_name (self->result_icon, icon_name);
  gtk_widget_remove_css_class (icon, "success");
  gtk_widget_remove_css_class (icon, "error");
  gtk_widget_add_css_class (icon, style);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->result_row), title);
  adw_action_row_set_subtitle (self->result_row, subtitle);
  show_row (self, self->result_row, TRUE);
}

static void
show_result (PalMcpTestGroup *self)
{
  PalMcpProbeResult *result = self->result;
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
  show_row (self, self->tools_row, n_tools > 0);
}

/* Once laid out, shows the outcome: it is below the fold of the editor. */
static gboolean
scroll_to_output_cb (gpointer user_data)
{
  GtkWidget *group = user_data;
  GtkWidget *scrolled = gtk_widget_get_ancestor (group, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *child;
  GtkAdjustment *adjustment;
  double page;
  double x, y;
  double bottom;

  if (scrolled == NULL)
    return G_SOURCE_REMOVE;

  child = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  if (!gtk_widget_translate_coordinates (group, child, 0, 0, &x, &y))
    return G_SOURCE_REMOVE;

  /* the whole group when it fits, else its top */
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  page = gtk_adjustment_get_page_size (adjustment);
  bottom = y + gtk_widget_get_height (group);
  if (bottom - page > gtk_adjustment_get_value (adjustment))
    gtk_adjustment_set_value (adjustment, MIN (y, bottom - page));

  return G_SOURCE_REMOVE;
}

static gboolean
same_rows (GListStore *a,
           GListStore *b)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (a));

  if (g_list_model_get_n_items (G_LIST_MODEL (b)) != n)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row_a = g_list_model_get_item (G_LIST_MODEL (a), i);
      g_autoptr(PalNameValue) row_b = g_list_model_get_item (G_LIST_MODEL (b), i);

      if (g_strcmp0 (pal_name_value_get_name (row_a), pal_name_value_get_name (row_b)) != 0 ||
          g_strcmp0 (pal_name_value_get_value (row_a), pal_name_value_get_value (row_b)) != 0)
        return FALSE;
    }

  return TRUE;
}

/* Whether @a and @b reach the same server the same way; names aside. */
static gboolean
same_connection (PalMcpServerConfig *a,
                 PalMcpServerConfig *b)
{
  AcpMcpTransport transport = pal_mcp_server_config_get_transport (a);

  if (pal_mcp_server_config_get_transport (b) != transport)
    return FALSE;

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    return g_strcmp0 (pal_mcp_server_config_get_command (a),
                      pal_mcp_server_config_get_command (b)) == 0 &&
           g_strv_equal ((const char * const *) pal_mcp_server_config_get_args (a),
                         (const char * const *) pal_mcp_server_config_get_args (b)) &&
           same_rows (pal_mcp_server_config_get_env (a), pal_mcp_server_config_get_env (b));

  return g_strcmp0 (pal_mcp_server_config_get_url (a), pal_mcp_server_config_get_url (b)) == 0 &&
         same_rows (pal_mcp_server_config_get_headers (a), pal_mcp_server_config_get_headers (b));
}

static void
config_changed_cb (PalMcpTestGroup *self)
{
  if (self->tested == NULL || same_connection (self->tested, self->config))
    return;

  /* what is shown, or will be, is about other settings */
  pal_mcp_test_group_cancel (self);
  clear_output (self);
  g_clear_object (&self->tested);
}

typedef struct
{
  PalMcpTestGroup *self;
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
  PalMcpTestGroup *self = data->self;
  g_autoptr(PalMcpProbeResult) probe = NULL;
  g_autoptr(GError) error = NULL;

  probe = pal_mcp_probe_finish (result, &error);

  /* a test that was cancelled, or replaced by a newer one */
  if (self->cancellable != data->cancellable)
    return;

  set_cancellable (self, NULL);

  if (probe == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  clear_output (self);
  if (probe != NULL)
    {
      self->result = g_steal_pointer (&probe);
      show_result (self);
    }
  else
    {
      show_result_row (self, "dialog-error-symbolic", "error",
                       _("The connection test failed"), error->message);
      self->error = g_steal_pointer (&error);
    }

  g_idle_add_full (G_PRIORITY_LOW, scroll_to_output_cb, g_object_ref (self), g_object_unref);
}

static void
button_clicked_cb (PalMcpTestGroup *self)
{
  pal_mcp_test_group_run (self);
}

static void
pal_mcp_test_group_dispose (GObject *object)
{
  PalMcpTestGroup *self = PAL_MCP_TEST_GROUP (object);

  pal_mcp_test_group_cancel (self);
  if (self->tool_rows != NULL)
    g_ptr_array_set_size (self->tool_rows, 0);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_MCP_TEST_GROUP);

  g_clear_object (&self->result_row);
  g_clear_object (&self->tools_row);
  if (self->config != NULL)
    g_signal_handlers_disconnect_by_func (self->config, config_changed_cb, self);
  g_clear_object (&self->config);
  g_clear_object (&self->tested);
  g_clear_object (&self->session);
  g_clear_object (&self->result);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (pal_mcp_test_group_parent_class)->dispose (object);
}

static void
pal_mcp_test_group_finalize (GObject *object)
{
  PalMcpTestGroup *self = PAL_MCP_TEST_GROUP (object);

  g_clear_pointer (&self->tool_rows, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_mcp_test_group_parent_class)->finalize (object);
}

static void
pal_mcp_test_group_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PalMcpTestGroup *self = PAL_MCP_TEST_GROUP (object);

  switch (prop_id)
    {
    case PROP_TESTING:
      g_value_set_boolean (value, self->cancellable != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_test_group_class_init (PalMcpTestGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_mcp_test_group_dispose;
  object_class->finalize = pal_mcp_test_group_finalize;
  object_class->get_property = pal_mcp_test_group_get_property;

  properties[PROP_TESTING] =
    g_param_spec_boolean ("testing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-mcp-test-group.ui");
  gtk_widget_class_bind_template_child (widget_class, PalMcpTestGroup, spinner);
  gtk_widget_class_bind_template_child (widget_class, PalMcpTestGroup, button);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
}

static void
pal_mcp_test_group_init (PalMcpTestGroup *self)
{
  self->tool_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->result_row = g_object_ref_sink (ADW_ACTION_ROW (adw_action_row_new ()));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->result_row), FALSE);
  adw_preferences_row_set_title_selectable (ADW_PREFERENCES_ROW (self->result_row), TRUE);
  adw_action_row_set_subtitle_lines (self->result_row, 0);
  self->result_icon = GTK_IMAGE (gtk_image_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->result_icon), GTK_ALIGN_CENTER);
  adw_action_row_add_prefix (self->result_row, GTK_WIDGET (self->result_icon));

  self->tools_row = g_object_ref_sink (ADW_EXPANDER_ROW (adw_expander_row_new ()));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->tools_row), _("Tools"));
  adw_expander_row_set_expanded (self->tools_row, TRUE);
}

void
pal_mcp_test_group_set_config (PalMcpTestGroup    *self,
                               PalMcpServerConfig *config)
{
  g_return_if_fail (PAL_IS_MCP_TEST_GROUP (self));
  g_return_if_fail (config == NULL || PAL_IS_MCP_SERVER_CONFIG (config));

  if (self->config == config)
    return;

  pal_mcp_test_group_cancel (self);
  clear_output (self);
  g_clear_object (&self->tested);
  if (self->config != NULL)
    g_signal_handlers_disconnect_by_func (self->config, config_changed_cb, self);

  g_set_object (&self->config, config);
  if (config != NULL)
    g_signal_connect_object (config, "changed", G_CALLBACK (config_changed_cb), self,
                             G_CONNECT_SWAPPED);
  update_button (self);
}

void
pal_mcp_test_group_set_session (PalMcpTestGroup *self,
                                SoupSession     *session)
{
  g_return_if_fail (PAL_IS_MCP_TEST_GROUP (self));
  g_return_if_fail (session == NULL || SOUP_IS_SESSION (session));

  g_set_object (&self->session, session);
  update_button (self);
}

void
pal_mcp_test_group_set_can_test (PalMcpTestGroup *self,
                                 gboolean         can_test)
{
  g_return_if_fail (PAL_IS_MCP_TEST_GROUP (self));

  self->can_test = !!can_test;
  update_button (self);
}

void
pal_mcp_test_group_run (PalMcpTestGroup *self)
{
  g_autoptr(GCancellable) cancellable = NULL;
  TestData *data;

  g_return_if_fail (PAL_IS_MCP_TEST_GROUP (self));

  if (self->cancellable != NULL)
    {
      pal_mcp_test_group_cancel (self);
      return;
    }
  if (!self->can_test || self->config == NULL || self->session == NULL)
    return;

  cancellable = g_cancellable_new ();
  clear_output (self);
  g_clear_object (&self->tested);
  self->tested = pal_mcp_server_config_copy (self->config);
  set_cancellable (self, cancellable);

  data = g_new0 (TestData, 1);
  data->self = g_object_ref (self);
  data->cancellable = g_object_ref (cancellable);
  pal_mcp_probe_config_async (self->config, self->session, 0, cancellable,
                              probe_done_cb, data);
}

void
pal_mcp_test_group_cancel (PalMcpTestGroup *self)
{
  g_return_if_fail (PAL_IS_MCP_TEST_GROUP (self));

  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      set_cancellable (self, NULL);
    }
}

gboolean
pal_mcp_test_group_get_testing (PalMcpTestGroup *self)
{
  g_return_val_if_fail (PAL_IS_MCP_TEST_GROUP (self), FALSE);
  return self->cancellable != NULL;
}

/**
 * pal_mcp_test_group_get_result:
 * @self: a #PalMcpTestGroup
 *
 * Returns: (transfer none) (nullable): what the server said in the last test
 */
PalMcpProbeResult *
pal_mcp_test_group_get_result (PalMcpTestGroup *self)
{
  g_return_val_if_fail (PAL_IS_MCP_TEST_GROUP (self), NULL);
  return self->result;
}

/**
 * pal_mcp_test_group_get_error:
 * @self: a #PalMcpTestGroup
 *
 * Returns: (transfer none) (nullable): why the last test failed
 */
const GError *
pal_mcp_test_group_get_error (PalMcpTestGroup *self)
{
  g_return_val_if_fail (PAL_IS_MCP_TEST_GROUP (self), NULL);
  return self->error;
}
