/* pal-mcp-import-dialog.c: import MCP servers from another client's JSON
 *
 * A text view for the "mcpServers" JSON of another MCP client, pasted or
 * read from a file (without blocking), checked as it changes: the status
 * line says how many servers it holds and which could not be read (naming
 * the server and the member), or what is wrong with the text, and Import
 * stays insensitive until there is a server to add. Servers already in the
 * list are not added again; names already taken get a number
 * (pal_mcp_server_store_import()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-mcp-import-dialog.h"
#include "pal-mcp-server-import.h"
#include "pal-mcp-server-json.h"

/* Configuration files are small; anything bigger is not one. */
#define MAX_FILE_SIZE (4 * 1024 * 1024)

struct _PalMcpImportDialog
{
  AdwWindow parent_instance;

  GtkButton *import_button;
  GtkButton *open_button;
  GtkSpinner *spinner;
  GtkTextView *text_view;
  GtkLabel *status_label;

  PalMcpServerStore *store;
  GCancellable *cancellable;
  GtkFileChooserNative *chooser;

  GPtrArray *found;
  /* GError: the servers of the text that could not be read */
  GPtrArray *failures;
  char *problem;
  gboolean loading;
};

G_DEFINE_FINAL_TYPE (PalMcpImportDialog, pal_mcp_import_dialog, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_STORE,
  PROP_LOADING,
  N_PROPS
};

enum {
  IMPORTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
show_status (PalMcpImportDialog *self,
             const char         *message,
             gboolean            is_error)
{
  gtk_label_set_text (self->status_label, message != NULL ? message : "");
  if (is_error)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "dim-label");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
    }
}

static void
set_loading (PalMcpImportDialog *self,
             gboolean            loading)
{
  if (self->loading == loading)
    return;

  self->loading = loading;
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), loading);
  gtk_spinner_set_spinning (self->spinner, loading);
  gtk_widget_set_sensitive (GTK_WIDGET (self->open_button), !loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static char *
dup_text (PalMcpImportDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* The servers that could not be read, a line each. */
static char *
join_failures (GPtrArray *failures)
{
  GString *joined = g_string_new (NULL);

  for (guint i = 0; i < failures->len; i++)
    {
      const GError *failure = g_ptr_array_index (failures, i);

      if (joined->len > 0)
        g_string_append_c (joined, '\n');
      g_string_append (joined, failure->message);
    }

  return g_string_free (joined, FALSE);
}

static void
parse (PalMcpImportDialog *self)
{
  g_autofree char *text = dup_text (self);
  g_autoptr(GPtrArray) configs = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;
  gboolean blank = TRUE;

  for (const char *c = text; *c != '\0' && blank; c++)
    blank = g_ascii_isspace (*c);

  g_clear_pointer (&self->found, g_ptr_array_unref);
  g_clear_pointer (&self->failures, g_ptr_array_unref);
  g_clear_pointer (&self->problem, g_free);

  if (blank)
    {
      self->problem = g_strdup (_("Nothing to import yet"));
      show_status (self, NULL, FALSE);
    }
  else if (!pal_mcp_server_import_json (text, &configs, &failures, &error))
    {
      self->problem = g_strdup (error->message);
      show_status (self, error->message, TRUE);
    }
  else if (configs->len == 0 && failures->len == 0)
    {
      self->problem = g_strdup (_("The JSON holds no MCP servers"));
      show_status (self, self->problem, TRUE);
    }
  else if (configs->len == 0)
    {
      self->problem = join_failures (failures);
      show_status (self, self->problem, TRUE);
      self->failures = g_steal_pointer (&failures);
    }
  else
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (ngettext ("%u server found", "%u servers found", configs->len),
                                 configs->len);
      if (failures->len > 0)
        {
          g_autofree char *found = g_steal_pointer (&message);
          g_autofree char *failed = join_failures (failures);

          /* TRANSLATORS: the first %s says how many servers were found
           * (“2 servers found”), the second lists those that could not be
           * read, a line each */
          message = g_strdup_printf (ngettext ("%s; %u could not be read:\n%s",
                                               "%s; %u could not be read:\n%s", failures->len),
                                     found, failures->len, failed);
        }
      show_status (self, message, failures->len > 0);
      self->found = g_steal_pointer (&configs);
      self->failures = g_steal_pointer (&failures);
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->import_button), self->found != NULL);
}

static void
import_clicked_cb (PalMcpImportDialog *self)
{
  g_autoptr(GError) error = NULL;

  pal_mcp_import_dialog_import (self, &error);
  if (error == NULL)
    gtk_window_close (GTK_WINDOW (self));
  else
    show_status (self, error->message, TRUE);
}

static void
load_contents_cb (GObject      *source_object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PalMcpImportDialog) self = user_data;
  GFile *file = G_FILE (source_object);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (file, result, &contents, &length, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      set_loading (self, FALSE);
      show_status (self, error->message, TRUE);
      return;
    }

  set_loading (self, FALSE);

  if (length > MAX_FILE_SIZE)
    {
      show_status (self, _("The file is too large to be an MCP configuration"), TRUE);
      return;
    }
  if (!g_utf8_validate_len (contents, length, NULL))
    {
      show_status (self, _("The file is not text (UTF-8)"), TRUE);
      return;
    }

  pal_mcp_import_dialog_set_text (self, contents);
}

static void
chooser_response_cb (PalMcpImportDialog *self,
                     int                 response,
                     GtkNativeDialog    *chooser)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  g_clear_object (&self->chooser);

  if (file != NULL)
    pal_mcp_import_dialog_load_file (self, file);
}

static void
open_clicked_cb (PalMcpImportDialog *self)
{
  g_autoptr(GtkFileFilter) json = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Open MCP Configuration"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);

  gtk_file_filter_set_name (json, _("JSON Files"));
  gtk_file_filter_add_mime_type (json, "application/json");
  gtk_file_filter_add_suffix (json, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), json);
  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), all);

  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
pal_mcp_import_dialog_dispose (GObject *object)
{
  PalMcpImportDialog *self = PAL_MCP_IMPORT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_MCP_IMPORT_DIALOG);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->found, g_ptr_array_unref);
  g_clear_pointer (&self->failures, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_mcp_import_dialog_parent_class)->dispose (object);
}

static void
pal_mcp_import_dialog_finalize (GObject *object)
{
  PalMcpImportDialog *self = PAL_MCP_IMPORT_DIALOG (object);

  g_free (self->problem);

  G_OBJECT_CLASS (pal_mcp_import_dialog_parent_class)->finalize (object);
}

static void
pal_mcp_import_dialog_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PalMcpImportDialog *self = PAL_MCP_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_import_dialog_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PalMcpImportDialog *self = PAL_MCP_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_import_dialog_class_init (PalMcpImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_mcp_import_dialog_dispose;
  object_class->finalize = pal_mcp_import_dialog_finalize;
  object_class->get_property = pal_mcp_import_dialog_get_property;
  object_class->set_property = pal_mcp_import_dialog_set_property;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, PAL_TYPE_MCP_SERVER_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalMcpImportDialog::imported:
   * @n_added: how many servers were added
   * @n_renamed: how many of them got a new name
   * @n_present: how many were not added: the list has them already
   * @n_failed: how many could not be read
   */
  signals[IMPORTED] =
    g_signal_new ("imported",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-mcp-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PalMcpImportDialog, import_button);
  gtk_widget_class_bind_template_child (widget_class, PalMcpImportDialog, open_button);
  gtk_widget_class_bind_template_child (widget_class, PalMcpImportDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, PalMcpImportDialog, text_view);
  gtk_widget_class_bind_template_child (widget_class, PalMcpImportDialog, status_label);
  gtk_widget_class_bind_template_callback (widget_class, import_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_mcp_import_dialog_init (PalMcpImportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  g_signal_connect_object (gtk_text_view_get_buffer (self->text_view), "changed",
                           G_CALLBACK (parse), self, G_CONNECT_SWAPPED);
  parse (self);
}

/**
 * pal_mcp_import_dialog_new:
 * @store: where to add the servers
 *
 * Returns: (transfer floating): a new dialog, not shown yet
 */
PalMcpImportDialog *
pal_mcp_import_dialog_new (PalMcpServerStore *store)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (store), NULL);

  return g_object_new (PAL_TYPE_MCP_IMPORT_DIALOG, "store", store, NULL);
}

void
pal_mcp_import_dialog_set_text (PalMcpImportDialog *self,
                                const char         *text)
{
  g_return_if_fail (PAL_IS_MCP_IMPORT_DIALOG (self));
  g_return_if_fail (text == NULL || g_utf8_validate (text, -1, NULL));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view),
                            text != NULL ? text : "", -1);
}

void
pal_mcp_import_dialog_load_file (PalMcpImportDialog *self,
                                 GFile              *file)
{
  g_return_if_fail (PAL_IS_MCP_IMPORT_DIALOG (self));
  g_return_if_fail (G_IS_FILE (file));

  /* a newer choice wins */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  set_loading (self, TRUE);
  g_file_load_contents_async (file, self->cancellable, load_contents_cb, g_object_ref (self));
}

gboolean
pal_mcp_import_dialog_get_loading (PalMcpImportDialog *self)
{
  g_return_val_if_fail (PAL_IS_MCP_IMPORT_DIALOG (self), FALSE);
  return self->loading;
}

guint
pal_mcp_import_dialog_get_n_found (PalMcpImportDialog *self)
{
  g_return_val_if_fail (PAL_IS_MCP_IMPORT_DIALOG (self), 0);
  return self->found != NULL ? self->found->len : 0;
}

/**
 * pal_mcp_import_dialog_get_problem:
 * @self: a #PalMcpImportDialog
 *
 * Returns: (nullable): why the text cannot be imported
 */
const char *
pal_mcp_import_dialog_get_problem (PalMcpImportDialog *self)
{
  g_return_val_if_fail (PAL_IS_MCP_IMPORT_DIALOG (self), NULL);
  return self->problem;
}

/**
 * pal_mcp_import_dialog_get_n_failed:
 * @self: a #PalMcpImportDialog
 *
 * Returns: how many servers of the text could not be read
 */
guint
pal_mcp_import_dialog_get_n_failed (PalMcpImportDialog *self)
{
  g_return_val_if_fail (PAL_IS_MCP_IMPORT_DIALOG (self), 0);
  return self->failures != NULL ? self->failures->len : 0;
}

/**
 * pal_mcp_import_dialog_import:
 * @self: a #PalMcpImportDialog
 * @error: %PAL_ERROR_INVALID saying what is wrong with the text
 *
 * Adds the servers that could be read, but for those the store has
 * already (pal_mcp_server_store_import()), and says so with
 * #PalMcpImportDialog::imported.
 *
 * Returns: how many servers were added; 0 with @error set when there is
 *   nothing to import, or none could be added
 */
guint
pal_mcp_import_dialog_import (PalMcpImportDialog  *self,
                              GError             **error)
{
  g_autoptr(GPtrArray) configs = NULL;
  guint renamed;
  guint present;
  guint n;

  g_return_val_if_fail (PAL_IS_MCP_IMPORT_DIALOG (self), 0);
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  if (self->found == NULL)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID, self->problem);
      return 0;
    }

  configs = g_steal_pointer (&self->found);
  n = pal_mcp_server_store_import (self->store, configs, &renamed, &present);
  if (n == 0 && present == 0)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("None of the servers could be added"));
      return 0;
    }

  /* the text stays as it was, but it has been used */
  gtk_widget_set_sensitive (GTK_WIDGET (self->import_button), FALSE);
  g_signal_emit (self, signals[IMPORTED], 0, n, renamed, present,
                 self->failures != NULL ? self->failures->len : 0);
  return n;
}
