/* pal-mcp-server-editor.c: the dialog that adds or edits one MCP server
 *
 * The fields are bound to a working copy of the server, so that Cancel (or
 * closing) leaves the stored one alone and Save applies everything at once.
 * Every change is checked as the person types: Save stays insensitive
 * until nothing is wrong, and once the person leaves a bad field (not at
 * every keystroke, pal-field-typing.c) it gets the "error" style and a
 * line below says what is wrong. The rules are those of
 * pal_mcp_server_config_validate(), which gets the last word, stated per
 * field; a stdio command is resolved in PATH as it is typed (the path is
 * shown) and stored resolved.
 *
 * The command is looked up off the main thread by a #PalCommandCheck, shared
 * with the agent editor: until the answer is in the row says so and Save
 * waits; closing cancels the lookup.
 *
 * The connection test (#PalMcpTestGroup) runs on the working copy; closing
 * the dialog cancels it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-a11y.h"
#include "pal-args-group.h"
#include "pal-command-check.h"
#include "pal-error.h"
#include "pal-field-typing.h"
#include "pal-mcp-server-editor.h"
#include "pal-mcp-test-group.h"
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
  PalMcpTestGroup *test_group;

  PalMcpServerStore *store;
  PalMcpServerConfig *original;
  PalMcpServerConfig *config;
  SoupSession *session;
  PalCommandCheck *command_check;

  char *problem;
  gboolean can_save;
  gboolean can_test;
  guint updating;
  /* a field that never held text is not shown as an error (Save waits
   * for it) until a save is tried */
  gboolean name_filled;
  gboolean command_filled;
  gboolean url_filled;
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
      pal_a11y_set_invalid (row, message != NULL && g_strcmp0 (style, "error") == 0);
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

/* Whether the problem of @row shows: once it held text, and not while the
 * person types in it (pal-field-typing.c) */
static gboolean
shown (gboolean     filled,
       AdwEntryRow *row)
{
  return filled && !pal_field_typing_get (GTK_WIDGET (row));
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

/* Returns the error; a note (where the program is, that it is missing from
 * this computer, or that it is being looked for) goes to @note with its
 * @note_style. @pending is set while the command is being looked for. */
static char *
check_command (PalMcpServerEditor  *self,
               char               **note,
               const char         **note_style,
               gboolean            *pending)
{
  const char *command = pal_mcp_server_config_get_command (self->config);
  g_autofree char *message = NULL;
  PalCommandStatus status;

  *note = NULL;
  *note_style = NULL;
  *pending = FALSE;

  status = pal_command_check_update (self->command_check, command, &message);
  if (pal_command_status_is_error (status))
    return g_steal_pointer (&message);

  /* being looked for, where it was found, or that it is no executable
   * here: only a warning, it may be one where the server runs (another
   * sandbox) */
  *pending = status == PAL_COMMAND_STATUS_LOOKING;
  *note_style = status == PAL_COMMAND_STATUS_NOT_EXECUTABLE ? "warning" : "dim-label";
  *note = g_steal_pointer (&message);
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
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), self->can_save);
  pal_mcp_test_group_set_can_test (self->test_group, self->can_test);
}

static void
validate (PalMcpServerEditor *self)
{
  AcpMcpTransport transport;
  g_autofree char *name_error = NULL;
  g_autofree char *field_error = NULL;
  g_autofree char *note = NULL;
  const char *note_style = NULL;
  gboolean pending = FALSE;
  gboolean fields_ok;
  gboolean can_save;

  /* groups report while the template is built, before there is a config */
  if (self->config == NULL)
    return;
  transport = pal_mcp_server_config_get_transport (self->config);

  g_clear_pointer (&self->problem, g_free);
  self->name_filled |= !is_blank (pal_mcp_server_config_get_name (self->config));
  self->command_filled |= !is_blank (pal_mcp_server_config_get_command (self->config));
  self->url_filled |= !is_blank (pal_mcp_server_config_get_url (self->config));

  name_error = check_name (self);
  set_problem (self, name_error);

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    {
      field_error = check_command (self, &note, &note_style, &pending);
      set_problem (self, field_error);
      if (pending)
        set_problem (self, note);
      if (field_error != NULL)
        show_field_message (GTK_WIDGET (self->command_row), self->command_label,
                            shown (self->command_filled, self->command_row) ? field_error : NULL,
                            "error");
      else
        show_field_message (GTK_WIDGET (self->command_row), self->command_label, note, note_style);
      if (!pal_name_value_group_get_valid (self->env_group))
        set_problem (self, _("An environment variable is not valid"));
      fields_ok = field_error == NULL && !pending &&
                  pal_name_value_group_get_valid (self->env_group);
    }
  else
    {
      field_error = check_url (self);
      set_problem (self, field_error);
      show_field_message (GTK_WIDGET (self->url_row), self->url_label,
                          shown (self->url_filled, self->url_row) ? field_error : NULL, "error");
      if (!pal_name_value_group_get_valid (self->headers_group))
        set_problem (self, _("A header is not valid"));
      fields_ok = field_error == NULL && pal_name_value_group_get_valid (self->headers_group);
    }

  self->can_test = fields_ok;
  can_save = fields_ok && name_error == NULL;

  /* The configuration's own check has the last word (with the command as
   * looked up, not again on this thread). */
  if (can_save)
    {
      g_autoptr(GError) error = NULL;
      const char *resolved = transport == ACP_MCP_TRANSPORT_STDIO
                             ? pal_command_check_get_resolved (self->command_check)
                             : NULL;

      if (!pal_mcp_server_config_validate_resolved (self->config, NULL, resolved, &error))
        {
          can_save = FALSE;
          self->can_test = FALSE;
          set_problem (self, error->message);
          name_error = g_strdup (error->message);
        }
    }

  show_field_message (GTK_WIDGET (self->name_row), self->general_label,
                      shown (self->name_filled, self->name_row) ? name_error : NULL, "error");

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

/* AdwComboRow 1.2 cuts its own labels at 20 characters ("Server-Sent
 * Events (S…"), in the row and in its list: these items show the whole
 * name, and the list marks the transport chosen. */

static void
transport_item_setup_cb (GtkSignalListItemFactory *factory,
                         GtkListItem              *list_item,
                         gpointer                  in_list)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  /* the row may be narrow; the list grows to fit */
  if (!GPOINTER_TO_INT (in_list))
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (box), label);

  if (GPOINTER_TO_INT (in_list))
    gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("object-select-symbolic"));

  gtk_list_item_set_child (list_item, box);
}

static void
transport_item_update_check (AdwComboRow *row,
                             GParamSpec  *pspec,
                             GtkListItem *list_item)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *check = gtk_widget_get_last_child (box);
  gboolean chosen = gtk_list_item_get_item (list_item) != NULL &&
                    adw_combo_row_get_selected_item (row) == gtk_list_item_get_item (list_item);

  gtk_widget_set_opacity (check, chosen ? 1.0 : 0.0);
}

static void
transport_item_bind_cb (GtkSignalListItemFactory *factory,
                        GtkListItem              *list_item,
                        AdwComboRow              *row)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkStringObject *item = gtk_list_item_get_item (list_item);

  gtk_label_set_text (GTK_LABEL (gtk_widget_get_first_child (box)),
                      gtk_string_object_get_string (item));

  /* an item of the list, with its check mark */
  if (gtk_widget_get_last_child (box) != gtk_widget_get_first_child (box))
    {
      g_signal_connect_object (row, "notify::selected-item",
                               G_CALLBACK (transport_item_update_check), list_item, 0);
      transport_item_update_check (row, NULL, list_item);
    }
}

static void
transport_item_unbind_cb (GtkSignalListItemFactory *factory,
                          GtkListItem              *list_item,
                          AdwComboRow              *row)
{
  g_signal_handlers_disconnect_by_func (row, transport_item_update_check, list_item);
}

static void
setup_transport_row (PalMcpServerEditor *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list_factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);

  /* item i is transport i */
  for (guint i = 0; i < ACP_MCP_N_TRANSPORTS; i++)
    gtk_string_list_append (titles, pal_mcp_transport_get_title (i));
  adw_combo_row_set_model (self->transport_row, G_LIST_MODEL (titles));

  g_signal_connect (factory, "setup", G_CALLBACK (transport_item_setup_cb),
                    GINT_TO_POINTER (FALSE));
  g_signal_connect (factory, "bind", G_CALLBACK (transport_item_bind_cb), self->transport_row);
  adw_combo_row_set_factory (self->transport_row, factory);

  g_signal_connect (list_factory, "setup", G_CALLBACK (transport_item_setup_cb),
                    GINT_TO_POINTER (TRUE));
  g_signal_connect (list_factory, "bind", G_CALLBACK (transport_item_bind_cb),
                    self->transport_row);
  g_signal_connect (list_factory, "unbind", G_CALLBACK (transport_item_unbind_cb),
                    self->transport_row);
  adw_combo_row_set_list_factory (self->transport_row, list_factory);
}

static void
transport_selected_cb (PalMcpServerEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->transport_row);

  if (self->updating > 0 || self->config == NULL || selected >= ACP_MCP_N_TRANSPORTS)
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

static void
test_group_testing_cb (PalMcpServerEditor *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TESTING]);
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
  pal_command_check_cancel (PAL_MCP_SERVER_EDITOR (window)->command_check);
  pal_mcp_test_group_cancel (PAL_MCP_SERVER_EDITOR (window)->test_group);

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

  pal_mcp_test_group_set_config (self->test_group, self->config);
  pal_mcp_test_group_set_session (self->test_group, self->session);
  g_signal_connect_object (self->test_group, "notify::testing",
                           G_CALLBACK (test_group_testing_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->config, "notify::transport",
                           G_CALLBACK (update_transport), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->config, "changed",
                           G_CALLBACK (config_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->command_check, "looked-up",
                           G_CALLBACK (validate), self, G_CONNECT_SWAPPED);
  pal_field_typing_watch (GTK_WIDGET (self->name_row), NULL, G_CALLBACK (validate), self);
  pal_field_typing_watch (GTK_WIDGET (self->command_row), NULL, G_CALLBACK (validate), self);
  pal_field_typing_watch (GTK_WIDGET (self->url_row), NULL, G_CALLBACK (validate), self);

  update_transport (self);
  validate (self);
  /* the command of a server edited: no keystroke to wait for */
  pal_command_check_start_now (self->command_check);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

static void
pal_mcp_server_editor_dispose (GObject *object)
{
  PalMcpServerEditor *self = PAL_MCP_SERVER_EDITOR (object);

  if (self->test_group != NULL)
    pal_mcp_test_group_cancel (self->test_group);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_MCP_SERVER_EDITOR);

  g_clear_object (&self->config);
  /* with no config left, nothing starts another */
  if (self->command_check != NULL)
    pal_command_check_cancel (self->command_check);
  g_clear_object (&self->command_check);
  g_clear_object (&self->original);
  g_clear_object (&self->store);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (pal_mcp_server_editor_parent_class)->dispose (object);
}

static void
pal_mcp_server_editor_finalize (GObject *object)
{
  PalMcpServerEditor *self = PAL_MCP_SERVER_EDITOR (object);

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
      g_value_set_boolean (value, pal_mcp_test_group_get_testing (self->test_group));
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
  g_type_ensure (PAL_TYPE_MCP_TEST_GROUP);
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
  gtk_widget_class_bind_template_child (widget_class, PalMcpServerEditor, test_group);
  gtk_widget_class_bind_template_callback (widget_class, transport_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, args_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, validate);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_mcp_server_editor_init (PalMcpServerEditor *self)
{
  self->command_check = pal_command_check_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  setup_transport_row (self);
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
  const char *resolved;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* tried: every problem shows */
  self->name_filled = self->command_filled = self->url_filled = TRUE;
  pal_field_typing_done (GTK_WIDGET (self->name_row));
  pal_field_typing_done (GTK_WIDGET (self->command_row));
  pal_field_typing_done (GTK_WIDGET (self->url_row));
  pal_name_value_group_reveal_problems (self->env_group);
  pal_name_value_group_reveal_problems (self->headers_group);
  validate (self);
  if (!self->can_save)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           self->problem != NULL ? self->problem : _("The server is not valid"));
      return FALSE;
    }

  /* stored resolved, as found by the lookup that let Save on */
  resolved = pal_command_check_get_resolved (self->command_check);
  if (pal_mcp_server_config_get_transport (self->config) == ACP_MCP_TRANSPORT_STDIO &&
      g_strcmp0 (resolved, pal_mcp_server_config_get_command (self->config)) != 0)
    {
      g_autofree char *command = g_strdup (resolved);

      /* an absolute path resolves to itself: the answer holds for it */
      pal_command_check_adopt_resolved (self->command_check);
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

  pal_mcp_test_group_run (self->test_group);
}

gboolean
pal_mcp_server_editor_get_testing (PalMcpServerEditor *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_EDITOR (self), FALSE);
  return pal_mcp_test_group_get_testing (self->test_group);
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
  return pal_mcp_test_group_get_result (self->test_group);
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
  return pal_mcp_test_group_get_error (self->test_group);
}
