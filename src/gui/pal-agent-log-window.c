/* pal-agent-log-window.c: an agent's traffic and stderr, live
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One window per agent, over its AcpTrafficLog: a list of the messages in
 * and out and its stderr lines (time, direction, method, id, size, how long
 * a request took), filtered by method, session or text; the selected entry
 * in full below, as pretty JSON; Copy and Save as JSON Lines. The list
 * follows new entries while it is scrolled to its end.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-agent-log-window.h"

struct _PalAgentLogWindow
{
  AdwWindow           parent_instance;

  AcpAgent           *agent;
  AcpTrafficLog      *log;
  char               *filter_text;   /* folded; NULL for none */

  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  GtkSingleSelection *selection;
  GtkListView        *list;
  GtkScrolledWindow  *scroller;
  GtkTextBuffer      *detail;
  GtkLabel           *dropped_label;
  GtkWidget          *copy_button;
  guint               follow_id;
  GCancellable       *cancellable;
};

G_DEFINE_FINAL_TYPE (PalAgentLogWindow, pal_agent_log_window, ADW_TYPE_WINDOW)

/* Case-insensitive for ASCII (method names, ids, JSON keys), exact beyond. */
static gboolean
contains_folded (const char *haystack,
                 const char *needle)
{
  gsize n = strlen (needle);

  if (haystack == NULL)
    return FALSE;

  for (const char *p = haystack; *p != '\0'; p++)
    if (g_ascii_strncasecmp (p, needle, n) == 0)
      return TRUE;

  return FALSE;
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PalAgentLogWindow *self = user_data;
  AcpTrafficEntry *entry = item;

  if (self->filter_text == NULL)
    return TRUE;

  return contains_folded (acp_traffic_entry_get_method (entry), self->filter_text) ||
         contains_folded (acp_traffic_entry_get_session_id (entry), self->filter_text) ||
         contains_folded (acp_traffic_entry_get_text (entry), self->filter_text);
}

static const char *
direction_symbol (AcpTrafficDirection direction)
{
  switch (direction)
    {
    case ACP_TRAFFIC_OUT:
      return "→";
    case ACP_TRAFFIC_STDERR:
      /* Translators: marks a line of the agent's error output in the agent log */
      return C_("agent log", "err");
    case ACP_TRAFFIC_DROPPED:
      return "✕";
    case ACP_TRAFFIC_IN:
    default:
      return "←";
    }
}

/* What a row says of the entry: its method, or what kind of message. */
static char *
describe_entry (AcpTrafficEntry *entry)
{
  const char *method = acp_traffic_entry_get_method (entry);
  const char *id = acp_traffic_entry_get_id (entry);
  AcpTrafficDirection direction = acp_traffic_entry_get_direction (entry);

  if (direction == ACP_TRAFFIC_STDERR || direction == ACP_TRAFFIC_DROPPED)
    return g_strdup (acp_traffic_entry_get_text (entry));
  if (method != NULL && id != NULL)
    return g_strdup_printf ("%s  #%s", method, id);
  if (method != NULL)
    return g_strdup (method);
  if (id != NULL && acp_traffic_entry_get_is_error (entry))
    /* Translators: an error answer to the request with this id, in the agent log */
    return g_strdup_printf (_("error  #%s"), id);
  if (id != NULL)
    /* Translators: the answer to the request with this id, in the agent log */
    return g_strdup_printf (_("result  #%s"), id);

  /* Translators: a line from the agent that is not a protocol message */
  return g_strdup (_("not a message"));
}

static char *
format_details (AcpTrafficEntry *entry)
{
  g_autofree char *size = g_format_size (acp_traffic_entry_get_size (entry));
  gint64 duration = acp_traffic_entry_get_duration (entry);

  if (duration >= 0)
    /* Translators: the size of a message and the time its request took */
    return g_strdup_printf (_("%s · %.0f ms"), size, duration / 1000.0);

  return g_steal_pointer (&size);
}

static void
row_setup_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *time = gtk_label_new (NULL);
  GtkWidget *direction = gtk_label_new (NULL);
  GtkWidget *what = gtk_label_new (NULL);
  GtkWidget *details = gtk_label_new (NULL);

  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "numeric");
  gtk_widget_set_size_request (direction, 24, -1);
  gtk_label_set_xalign (GTK_LABEL (what), 0);
  gtk_label_set_ellipsize (GTK_LABEL (what), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (what), TRUE);
  gtk_widget_set_hexpand (what, TRUE);
  gtk_widget_add_css_class (what, "monospace");
  gtk_widget_add_css_class (details, "dim-label");
  gtk_widget_add_css_class (details, "numeric");

  gtk_box_append (GTK_BOX (box), time);
  gtk_box_append (GTK_BOX (box), direction);
  gtk_box_append (GTK_BOX (box), what);
  gtk_box_append (GTK_BOX (box), details);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_item_set_child (item, box);
}

static void
row_bind_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  AcpTrafficEntry *entry = gtk_list_item_get_item (item);
  GtkWidget *time = gtk_widget_get_first_child (gtk_list_item_get_child (item));
  GtkWidget *direction = gtk_widget_get_next_sibling (time);
  GtkWidget *what = gtk_widget_get_next_sibling (direction);
  GtkWidget *details = gtk_widget_get_next_sibling (what);
  gint64 usec = acp_traffic_entry_get_time (entry);
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_local (usec / G_USEC_PER_SEC);
  g_autoptr(GDateTime) when = g_date_time_add (seconds, usec % G_USEC_PER_SEC);
  g_autofree char *time_text = g_date_time_format (when, "%H:%M:%S.%f");
  g_autofree char *what_text = describe_entry (entry);
  g_autofree char *details_text = format_details (entry);
  g_autofree char *accessible = NULL;

  /* milliseconds are enough */
  if (strlen (time_text) > 12)
    time_text[12] = '\0';
  gtk_label_set_text (GTK_LABEL (time), time_text);
  gtk_label_set_text (GTK_LABEL (direction), direction_symbol (acp_traffic_entry_get_direction (entry)));
  gtk_label_set_text (GTK_LABEL (what), what_text);
  gtk_label_set_text (GTK_LABEL (details), details_text);

  if (acp_traffic_entry_get_is_error (entry) ||
      acp_traffic_entry_get_direction (entry) == ACP_TRAFFIC_DROPPED)
    gtk_widget_add_css_class (what, "error");
  else
    gtk_widget_remove_css_class (what, "error");

  switch (acp_traffic_entry_get_direction (entry))
    {
    case ACP_TRAFFIC_OUT:
      /* Translators: read out for a message in the agent log */
      accessible = g_strdup_printf (_("Sent at %s: %s"), time_text, what_text);
      break;
    case ACP_TRAFFIC_STDERR:
      accessible = g_strdup_printf (_("Error output at %s: %s"), time_text, what_text);
      break;
    case ACP_TRAFFIC_DROPPED:
    case ACP_TRAFFIC_IN:
    default:
      accessible = g_strdup_printf (_("Received at %s: %s"), time_text, what_text);
      break;
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_list_item_get_child (item)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
}

/* The entry as the detail pane shows it. */
static char *
entry_detail (AcpTrafficEntry *entry)
{
  AcpTrafficDirection direction = acp_traffic_entry_get_direction (entry);
  const char *text = acp_traffic_entry_get_text (entry);

  if ((direction == ACP_TRAFFIC_IN || direction == ACP_TRAFFIC_OUT) &&
      !acp_traffic_entry_get_truncated (entry))
    {
      g_autoptr(JsonNode) node = json_from_string (text, NULL);

      if (node != NULL)
        return json_to_string (node, TRUE);
    }

  if (acp_traffic_entry_get_truncated (entry))
    {
      g_autofree char *size = g_format_size (acp_traffic_entry_get_size (entry));

      /* Translators: %s is a size, such as “3.2 MB” */
      return g_strdup_printf (_("%s\n\n(Cut short: the whole message was %s.)"), text, size);
    }

  return g_strdup (text);
}

char *
pal_agent_log_window_dup_detail (PalAgentLogWindow *self)
{
  AcpTrafficEntry *entry;

  g_return_val_if_fail (PAL_IS_AGENT_LOG_WINDOW (self), NULL);

  entry = gtk_single_selection_get_selected_item (self->selection);

  return entry != NULL ? entry_detail (entry) : NULL;
}

static void
selection_changed_cb (PalAgentLogWindow *self)
{
  g_autofree char *detail = pal_agent_log_window_dup_detail (self);

  gtk_text_buffer_set_text (self->detail,
                            detail != NULL ? detail : _("Select a message to see it in full."), -1);
  gtk_widget_set_sensitive (self->copy_button, detail != NULL);
}

static void
update_dropped (PalAgentLogWindow *self)
{
  guint64 dropped = acp_traffic_log_get_n_dropped (self->log);
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->dropped_label), dropped > 0);
  if (dropped == 0)
    return;

  /* formatted apart: a format macro would cut the message short */
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, dropped);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s earlier entry is not kept",
                                       "%s earlier entries are not kept", (gulong) MIN (dropped, G_MAXULONG)),
                          count);
  gtk_label_set_text (self->dropped_label, text);
}

static gboolean
follow_cb (gpointer user_data)
{
  PalAgentLogWindow *self = user_data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);

  self->follow_id = 0;
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));

  return G_SOURCE_REMOVE;
}

static void
log_items_changed_cb (GListModel        *model,
                      guint              position,
                      guint              removed,
                      guint              added,
                      PalAgentLogWindow *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  gboolean at_end = gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment) >=
                    gtk_adjustment_get_upper (adjustment) - 1;

  update_dropped (self);

  /* once the list has its new size */
  if (at_end && added > 0 && self->follow_id == 0)
    self->follow_id = g_idle_add_full (G_PRIORITY_LOW, follow_cb, self, NULL);
}

static void
search_changed_cb (GtkSearchEntry    *entry,
                   PalAgentLogWindow *self)
{
  pal_agent_log_window_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
copy_clicked_cb (PalAgentLogWindow *self)
{
  g_autofree char *detail = pal_agent_log_window_dup_detail (self);

  if (detail != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), detail);
}

GBytes *
pal_agent_log_to_json_lines (GListModel *entries)
{
  g_autoptr(GString) lines = g_string_new (NULL);

  g_return_val_if_fail (G_IS_LIST_MODEL (entries), NULL);

  for (guint i = 0; i < g_list_model_get_n_items (entries); i++)
    {
      g_autoptr(AcpTrafficEntry) entry = g_list_model_get_item (entries, i);
      g_autofree char *line = acp_traffic_entry_to_json_line (entry);

      g_string_append (lines, line);
      g_string_append_c (lines, '\n');
    }

  return g_string_free_to_bytes (g_steal_pointer (&lines));
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(PalAgentLogWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("The Log Could Not Be Saved"),
                                                  error->message);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

static void
save_response_cb (GtkNativeDialog   *chooser,
                  int                response,
                  PalAgentLogWindow *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file == NULL)
    return;

  /* what is filtered out goes too: the file is for someone who did not see
   * the window */
  bytes = pal_agent_log_to_json_lines (G_LIST_MODEL (self->log));
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       self->cancellable, saved_cb, g_object_ref (self));
}

static void
save_clicked_cb (PalAgentLogWindow *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Save Agent Log"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "agent-log.jsonl");
  g_signal_connect (chooser, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
pal_agent_log_window_set_filter (PalAgentLogWindow *self,
                                 const char        *text)
{
  g_return_if_fail (PAL_IS_AGENT_LOG_WINDOW (self));

  g_clear_pointer (&self->filter_text, g_free);
  if (text != NULL && *text != '\0')
    self->filter_text = g_strdup (text);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

GListModel *
pal_agent_log_window_get_shown (PalAgentLogWindow *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_LOG_WINDOW (self), NULL);

  return G_LIST_MODEL (self->filtered);
}

void
pal_agent_log_window_select (PalAgentLogWindow *self,
                             guint              position)
{
  g_return_if_fail (PAL_IS_AGENT_LOG_WINDOW (self));

  gtk_single_selection_set_selected (self->selection, position);
}

AcpAgent *
pal_agent_log_window_get_agent (PalAgentLogWindow *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_LOG_WINDOW (self), NULL);

  return self->agent;
}

static void
pal_agent_log_window_dispose (GObject *object)
{
  PalAgentLogWindow *self = PAL_AGENT_LOG_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->follow_id, g_source_remove);
  if (self->log != NULL)
    g_signal_handlers_disconnect_by_data (self->log, self);
  g_clear_object (&self->selection);
  g_clear_object (&self->log);
  g_clear_object (&self->agent);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (pal_agent_log_window_parent_class)->dispose (object);
}

static void
pal_agent_log_window_finalize (GObject *object)
{
  PalAgentLogWindow *self = PAL_AGENT_LOG_WINDOW (object);

  g_free (self->filter_text);

  G_OBJECT_CLASS (pal_agent_log_window_parent_class)->finalize (object);
}

static void
pal_agent_log_window_class_init (PalAgentLogWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_agent_log_window_dispose;
  object_class->finalize = pal_agent_log_window_finalize;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_agent_log_window_init (PalAgentLogWindow *self)
{
  self->cancellable = g_cancellable_new ();
}

static GtkWidget *
build_content (PalAgentLogWindow *self,
               const char        *agent_name)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *title = adw_window_title_new (_("Agent Log"), agent_name);
  GtkWidget *search = gtk_search_entry_new ();
  GtkWidget *save = gtk_button_new_from_icon_name ("document-save-symbolic");
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *detail_view = gtk_text_view_new ();
  GtkWidget *detail_scroller = gtk_scrolled_window_new ();
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);
  gtk_widget_set_tooltip_text (save, _("Save as JSON Lines…"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (save), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Save as JSON Lines"), -1);
  g_signal_connect_swapped (save, "clicked", G_CALLBACK (save_clicked_cb), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), save);

  self->copy_button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy the Selected Message"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Copy the selected message"), -1);
  gtk_widget_set_sensitive (self->copy_button, FALSE);
  g_signal_connect_swapped (self->copy_button, "clicked", G_CALLBACK (copy_clicked_cb), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), self->copy_button);

  g_object_set (search, "placeholder-text", _("Filter by method, session or text"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (search), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter the log"), -1);
  gtk_widget_set_margin_start (search, 6);
  gtk_widget_set_margin_end (search, 6);
  gtk_widget_set_margin_top (search, 6);
  gtk_widget_set_margin_bottom (search, 6);
  g_signal_connect (search, "search-changed", G_CALLBACK (search_changed_cb), self);

  self->dropped_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->dropped_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->dropped_label), "caption");
  gtk_widget_set_visible (GTK_WIDGET (self->dropped_label), FALSE);

  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), NULL);
  self->list = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)),
                                                 factory));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Messages and error output"), -1);
  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_child (self->scroller, GTK_WIDGET (self->list));
  gtk_widget_set_vexpand (GTK_WIDGET (self->scroller), TRUE);

  gtk_text_view_set_editable (GTK_TEXT_VIEW (detail_view), FALSE);
  /* nothing to undo in a view */
  gtk_text_buffer_set_enable_undo (gtk_text_view_get_buffer (GTK_TEXT_VIEW (detail_view)), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (detail_view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (detail_view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (detail_view), 12);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (detail_view), 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (detail_view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("The selected message"), -1);
  self->detail = gtk_text_view_get_buffer (GTK_TEXT_VIEW (detail_view));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (detail_scroller), detail_view);

  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (self->scroller));
  gtk_paned_set_end_child (GTK_PANED (paned), detail_scroller);
  gtk_paned_set_position (GTK_PANED (paned), 360);
  gtk_widget_set_vexpand (paned, TRUE);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), search);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->dropped_label));
  gtk_box_append (GTK_BOX (box), paned);

  return box;
}

/**
 * pal_agent_log_window_new:
 * @agent: the agent whose log to show
 * @agent_name: its name, for the title
 *
 * Returns: (transfer floating): a new agent log window
 */
GtkWidget *
pal_agent_log_window_new (AcpAgent   *agent,
                          const char *agent_name)
{
  PalAgentLogWindow *self;

  g_return_val_if_fail (ACP_IS_AGENT (agent), NULL);

  self = g_object_new (PAL_TYPE_AGENT_LOG_WINDOW,
                       "title", _("Agent Log"),
                       "default-width", 900,
                       "default-height", 700,
                       NULL);
  self->agent = g_object_ref (agent);
  self->log = g_object_ref (acp_agent_get_traffic_log (agent));
  acp_traffic_log_flush (self->log);

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->log)),
                                              GTK_FILTER (self->filter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->filtered));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed_cb), self);

  adw_window_set_content (ADW_WINDOW (self), build_content (self, agent_name));
  selection_changed_cb (self);
  g_signal_connect (self->log, "items-changed", G_CALLBACK (log_items_changed_cb), self);
  update_dropped (self);
  self->follow_id = g_idle_add_full (G_PRIORITY_LOW, follow_cb, self, NULL);

  return GTK_WIDGET (self);
}
