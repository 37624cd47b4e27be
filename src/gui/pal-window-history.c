/* pal-window-history.c: the stored history, from the main window
 *
 * The search across every session (win.search-history, Ctrl+Shift+F, and
 * "Search in Messages" under the sidebar's search field) in a window of its
 * own, kept with its search for the next time; a snippet activated there
 * shows its session at that message (pal_window_show_session_at ()).
 * Export… in a session's menu (win.export-session) writes its stored
 * history as Markdown or as the JSON Lines of its updates. Ctrl+F
 * (win.find) finds in the open session's chat, or with no session shown
 * searches the list.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-history-search.h"
#include "pal-window-private.h"

/* --- the search across every session --- */

static void
hit_activated_cb (PalHistorySearch *search,
                  PalSessionKey    *key,
                  guint             index,
                  PalWindow        *self)
{
  pal_window_show_session_at (self, key, index);
}

/* The search window, made on first use */
static PalHistorySearch *
ensure_history_search (PalWindow *self)
{
  GtkWidget *search;

  if (self->history_search != NULL)
    return PAL_HISTORY_SEARCH (self->history_search);

  search = pal_history_search_new (self->transcript_store,
                                   pal_session_manager_get_session_store (self->manager),
                                   pal_session_manager_get_agent_store (self->manager));
  gtk_window_set_transient_for (GTK_WINDOW (search), GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (search), TRUE);
  g_signal_connect_object (search, "hit-activated", G_CALLBACK (hit_activated_cb), self, 0);
  g_set_weak_pointer (&self->history_search, search);

  return PAL_HISTORY_SEARCH (search);
}

static void
search_history_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);
  const char *text = g_variant_get_string (parameter, NULL);
  PalHistorySearch *search;

  if (self->transcript_store == NULL)
    return;

  search = ensure_history_search (self);
  /* with no text, the last search stays */
  if (*text != '\0')
    pal_history_search_set_text (search, text);
  gtk_window_present (GTK_WINDOW (search));
}

/* --- export --- */

/* An export under way, or asked for: the file is known once chosen */
typedef struct
{
  PalWindow     *self;
  PalSessionKey *key;
  GFile         *file;
} Export;

static void
export_free (Export *export)
{
  g_clear_object (&export->self);
  g_clear_pointer (&export->key, pal_session_key_unref);
  g_clear_object (&export->file);
  g_free (export);
}

static void
export_failed (Export       *export,
               const GError *error)
{
  g_autofree char *message = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* Translators: %s says what went wrong */
  message = g_strdup_printf (_("The session could not be exported: %s"), error->message);
  pal_window_add_toast (export->self, message);
}

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Export *export = user_data;
  g_autoptr(GError) error = NULL;

  if (g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      g_autofree char *name = g_file_get_basename (export->file);
      /* Translators: %s is a file name */
      g_autofree char *message = g_strdup_printf (_("Exported to “%s”"), name);

      pal_window_add_toast (export->self, message);
    }
  else
    {
      export_failed (export, error);
    }

  export_free (export);
}

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Export *export = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = pal_transcript_export_finish (PAL_TRANSCRIPT_STORE (object), result, &error);
  if (bytes == NULL)
    {
      export_failed (export, error);
      export_free (export);
      return;
    }

  g_file_replace_contents_bytes_async (export->file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       export->self->cancellable, written_cb, export);
}

void
_pal_window_export_to_file (PalWindow           *self,
                            PalSessionKey       *key,
                            PalTranscriptFormat  format,
                            GFile               *file)
{
  PalSessionRecord *record = _pal_window_lookup_record (self, key);
  PalTranscriptExportInfo info = { 0 };
  Export *export;

  if (self->transcript_store == NULL)
    {
      pal_window_add_toast (self, _("No history of this session is stored on this computer."));
      return;
    }

  info.title = record != NULL ? pal_session_record_get_title (record) : NULL;
  info.agent_name = _pal_window_agent_name (self, pal_session_key_get_agent_id (key));
  info.folder = record != NULL ? pal_session_record_get_cwd (record) : NULL;
  info.session_id = pal_session_key_get_session_id (key);

  export = g_new0 (Export, 1);
  export->self = g_object_ref (self);
  export->key = pal_session_key_ref (key);
  export->file = g_object_ref (file);
  pal_transcript_export_async (self->transcript_store, key, format, &info, self->cancellable,
                               exported_cb, export);
}

static void
export_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    Export          *export)
{
  g_autoptr(GFile) file = NULL;
  const char *choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "format");
  PalTranscriptFormat format = PAL_TRANSCRIPT_FORMAT_MARKDOWN;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (choice == NULL || !pal_transcript_format_from_string (choice, &format))
    format = PAL_TRANSCRIPT_FORMAT_MARKDOWN;
  g_object_unref (chooser);

  if (file != NULL)
    _pal_window_export_to_file (export->self, export->key, format, file);
  export_free (export);
}

/* Export… asks where, and in which format */
void
_pal_window_export_session (PalWindow        *self,
                            PalSessionKey    *key,
                            PalSessionRecord *record)
{
  static const char *formats[] = { "markdown", "jsonl", NULL };
  const char *labels[] = { _("Markdown"), _("JSON Lines (the updates as stored)"), NULL };
  const char *title = record != NULL ? pal_session_record_get_title (record) : NULL;
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;
  Export *export;

  name = g_strdup_printf ("%s.md", title != NULL && *title != '\0' ? title : _("New Session"));
  g_strdelimit (name, "/\\:", '-');

  chooser = gtk_file_chooser_native_new (_("Export Session"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  {
    g_autoptr(GtkFileFilter) exports = gtk_file_filter_new ();
    g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

    gtk_file_filter_set_name (exports, _("Markdown and JSON Lines"));
    gtk_file_filter_add_suffix (exports, "md");
    gtk_file_filter_add_suffix (exports, "markdown");
    gtk_file_filter_add_suffix (exports, "jsonl");
    gtk_file_filter_set_name (all, _("All Files"));
    gtk_file_filter_add_pattern (all, "*");
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), exports);
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  }
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "format", _("Format"), formats, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "format", "markdown");

  export = g_new0 (Export, 1);
  export->self = g_object_ref (self);
  export->key = pal_session_key_ref (key);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), export);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* --- find in the session --- */

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PalWindow *self = PAL_WINDOW (widget);
  const char *page = gtk_stack_get_visible_child_name (self->content_stack);

  if (g_strcmp0 (page, "session") == 0)
    pal_find_bar_open (self->find_bar);
  else
    pal_sidebar_focus_search (self->sidebar);
}

/* --- the window --- */

void
_pal_window_class_init_history (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.search-history", "s", search_history_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.search-history", "s", "");

  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find", NULL);
}

void
_pal_window_setup_history (PalWindow *self)
{
  pal_find_bar_set_chat_view (self->find_bar,
                              PAL_CHAT_VIEW (pal_session_view_get_chat_view (self->session_view)));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search-history", FALSE);
}

void
_pal_window_dispose_history (PalWindow *self)
{
  if (self->history_search != NULL)
    gtk_window_destroy (GTK_WINDOW (self->history_search));
  g_clear_weak_pointer (&self->history_search);
  g_clear_object (&self->transcript_store);
}

/**
 * pal_window_set_transcript_store:
 * @self: a #PalWindow
 * @store: (nullable): the stored history, to search and export
 *
 * Without one, the window offers neither.
 */
void
pal_window_set_transcript_store (PalWindow          *self,
                                 PalTranscriptStore *store)
{
  g_return_if_fail (PAL_IS_WINDOW (self));
  g_return_if_fail (store == NULL || PAL_IS_TRANSCRIPT_STORE (store));

  if (!g_set_object (&self->transcript_store, store))
    return;

  /* it searched the other store */
  if (self->history_search != NULL)
    gtk_window_destroy (GTK_WINDOW (self->history_search));
  g_clear_weak_pointer (&self->history_search);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search-history", store != NULL);
}

PalTranscriptStore *
pal_window_get_transcript_store (PalWindow *self)
{
  g_return_val_if_fail (PAL_IS_WINDOW (self), NULL);

  return self->transcript_store;
}
