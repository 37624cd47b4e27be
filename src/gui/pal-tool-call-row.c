/* pal-tool-call-row.c: a tool call of the chat
 *
 * A header (kind icon, title, status) and an expander with the content the
 * agent attached: text, diffs, references to terminals, and the locations it
 * touched. Everything follows the item's property notifications.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "acp-json.h"
#include "pal-diff-view.h"
#include "pal-path.h"
#include "pal-terminal-view.h"
#include "pal-text-view.h"
#include "pal-tool-call-row.h"
#include "pal-tooltip.h"

/* Text content beyond this is cut in the view (the item keeps all of it). */
#define MAX_TEXT_SHOWN (256 * 1024)

struct _PalToolCallRow
{
  AdwBin           parent_instance;

  AcpToolCallItem *item;
  AcpTerminalService *terminal_service;
  char               *folder;     /* the session's: paths are shown from it */
  GtkImage        *kind_image;
  GtkLabel        *title_label;
  GtkLabel        *locations_label;
  GtkSpinner      *spinner;
  GtkImage        *status_image;
  GtkLabel        *status_label;
  GtkExpander     *expander;
  GtkBox          *content_box;
  gboolean         content_stale;  /* the content box does not show the item's content */
};

G_DEFINE_FINAL_TYPE (PalToolCallRow, pal_tool_call_row, ADW_TYPE_BIN)

/**
 * pal_tool_call_kind_icon:
 * @tool_kind: (nullable): a ToolKind of the protocol
 *
 * Returns: the symbolic icon name for the kind
 */
const char *
pal_tool_call_kind_icon (const char *tool_kind)
{
  static const struct { const char *kind; const char *icon; } icons[] = {
    { "read", "document-open-symbolic" },
    { "edit", "document-edit-symbolic" },
    { "delete", "user-trash-symbolic" },
    { "move", "edit-cut-symbolic" },
    { "search", "system-search-symbolic" },
    { "execute", "utilities-terminal-symbolic" },
    { "think", "dialog-information-symbolic" },
    { "fetch", "network-transmit-receive-symbolic" },
    { "switch_mode", "view-refresh-symbolic" },
  };

  for (guint i = 0; tool_kind != NULL && i < G_N_ELEMENTS (icons); i++)
    {
      if (g_str_equal (tool_kind, icons[i].kind))
        return icons[i].icon;
    }

  return "applications-system-symbolic";
}

static void
update_header (PalToolCallRow *self)
{
  const char *title = acp_tool_call_item_get_title (self->item);
  const char *status = acp_tool_call_item_get_status (self->item);
  const char *status_text;
  const char *status_icon = NULL;
  gboolean running = FALSE;

  if (title == NULL || *title == '\0')
    title = acp_tool_call_item_get_name (self->item);
  if (title == NULL || *title == '\0')
    title = _("Tool call");

  gtk_label_set_text (self->title_label, title);
  gtk_image_set_from_icon_name (self->kind_image,
                                pal_tool_call_kind_icon (acp_tool_call_item_get_tool_kind (self->item)));

  if (acp_tool_call_item_get_stopped (self->item))
    {
      /* a tool call left unfinished when its turn ended or was stopped */
      status_text = C_("tool call status", "Interrupted");
      status_icon = "process-stop-symbolic";
    }
  else if (g_strcmp0 (status, "completed") == 0)
    {
      status_text = C_("tool call status", "Completed");
      status_icon = "object-select-symbolic";
    }
  else if (g_strcmp0 (status, "failed") == 0)
    {
      status_text = C_("tool call status", "Failed");
      status_icon = "dialog-error-symbolic";
    }
  else if (g_strcmp0 (status, "in_progress") == 0)
    {
      status_text = C_("tool call status", "Running");
      running = TRUE;
    }
  else
    {
      status_text = C_("tool call status", "Pending");
      status_icon = "content-loading-symbolic";
    }

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->status_image), status_icon != NULL);
  if (status_icon != NULL)
    gtk_image_set_from_icon_name (self->status_image, status_icon);
  gtk_label_set_text (self->status_label, status_text);

  gtk_widget_remove_css_class (GTK_WIDGET (self), "failed");
  gtk_widget_remove_css_class (GTK_WIDGET (self), "completed");
  if (g_strcmp0 (status, "failed") == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self), "failed");
  else if (g_strcmp0 (status, "completed") == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self), "completed");
}

static void
update_locations (PalToolCallRow *self)
{
  JsonArray *locations = acp_tool_call_item_get_locations (self->item);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) full = g_string_new (NULL);
  guint n = locations != NULL ? json_array_get_length (locations) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (locations, i);
      JsonObject *location;
      const char *path;
      g_autofree char *shown = NULL;
      gint64 line;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      location = json_node_get_object (node);
      path = acp_json_get_string (location, "path", NULL);
      if (path == NULL)
        continue;

      if (text->len > 0)
        {
          g_string_append (text, ", ");
          g_string_append_c (full, '\n');
        }
      shown = pal_path_display (path, self->folder, g_get_home_dir ());
      g_string_append (text, shown);
      g_string_append (full, path);
      if (acp_json_get_int (location, "line", &line))
        {
          g_string_append_printf (text, ":%" G_GINT64_FORMAT, line);
          g_string_append_printf (full, ":%" G_GINT64_FORMAT, line);
        }
    }

  gtk_label_set_text (self->locations_label, text->str);
  /* the whole paths, should a short one not say enough */
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->locations_label), full->len > 0 ? full->str : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->locations_label), text->len > 0);
}

static GtkWidget *
text_widget (const char *text,
             gsize       length)
{
  GtkWidget *view = pal_text_view_new ();
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter end;

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (view, "tool-output");

  if (length > MAX_TEXT_SHOWN)
    {
      g_autofree char *note = NULL;
      g_autofree char *size = g_format_size (length - MAX_TEXT_SHOWN);
      const char *cut = g_utf8_find_prev_char (text, text + MAX_TEXT_SHOWN);

      gtk_text_buffer_set_text (buffer, text, cut != NULL ? (int) (cut - text) : 0);
      /* Translators: %s is a size such as “3.2 MB” */
      note = g_strdup_printf (_("… %s more not shown"), size);
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert (buffer, &end, "\n", 1);
      gtk_text_buffer_insert (buffer, &end, note, -1);
    }
  else
    {
      gtk_text_buffer_set_text (buffer, text, (int) length);
    }

  return view;
}

static GtkWidget *
content_block_widget (JsonObject *block)
{
  const char *type = acp_json_get_string (block, "type", "");

  if (g_str_equal (type, "text"))
    {
      const char *text = acp_json_get_string (block, "text", "");
      return text_widget (text, strlen (text));
    }
  else
    {
      g_autofree char *label = NULL;
      GtkWidget *widget;

      if (g_str_equal (type, "image"))
        label = g_strdup_printf (_("Image (%s)"),
                                 acp_json_get_string (block, "mimeType", "?"));
      else if (g_str_equal (type, "resource_link"))
        label = g_strdup_printf ("📎 %s",
                                 acp_json_get_string (block, "uri", ""));
      else
        label = g_strdup_printf (_("Content of type “%s”"), type);

      widget = gtk_label_new (label);
      gtk_label_set_xalign (GTK_LABEL (widget), 0);
      gtk_label_set_wrap (GTK_LABEL (widget), TRUE);
      gtk_widget_add_css_class (widget, "dim-label");
      return widget;
    }
}

/* Builds the widgets of the content. Only done while the expander is open:
 * a replayed history holds thousands of tool calls whose details nobody
 * opens, and a text view or a diff is the costliest part of a row. */
static void
build_content (PalToolCallRow *self)
{
  JsonArray *content = acp_tool_call_item_get_content (self->item);
  guint n = content != NULL ? json_array_get_length (content) : 0;

  self->content_stale = FALSE;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      JsonObject *entry;
      const char *type;
      GtkWidget *widget = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      entry = json_node_get_object (node);
      type = acp_json_get_string (entry, "type", "");

      if (g_str_equal (type, "content") && acp_json_get_object (entry, "content") != NULL)
        {
          widget = content_block_widget (acp_json_get_object (entry, "content"));
        }
      else if (g_str_equal (type, "diff"))
        {
          const char *old_text = acp_json_get_string (entry, "oldText", NULL);

          widget = pal_diff_view_new ();
          pal_diff_view_set_diff (PAL_DIFF_VIEW (widget),
                                  acp_json_get_string (entry, "path", NULL), self->folder,
                                  old_text,
                                  acp_json_get_string (entry, "newText", ""));
        }
      else if (g_str_equal (type, "terminal") && acp_json_get_string (entry, "terminalId", NULL) != NULL)
        {
          widget = pal_terminal_view_new (self->terminal_service,
                                          acp_json_get_string (entry, "terminalId", NULL));
        }

      if (widget != NULL)
        gtk_box_append (self->content_box, widget);
    }
}

static void
update_content (PalToolCallRow *self)
{
  JsonArray *content = acp_tool_call_item_get_content (self->item);
  guint n = content != NULL ? json_array_get_length (content) : 0;
  GtkWidget *child;
  gboolean expand = FALSE;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->content_box))) != NULL)
    gtk_box_remove (self->content_box, child);
  self->content_stale = TRUE;

  for (guint i = 0; i < n && !expand; i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      const char *type;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      type = acp_json_get_string (json_node_get_object (node), "type", "");
      expand = g_str_equal (type, "diff") || g_str_equal (type, "terminal");
    }

  gtk_widget_set_visible (GTK_WIDGET (self->expander), n > 0);
  /* a change to a file, or a command's output, is what a person most
   * wants to see */
  if (expand)
    gtk_expander_set_expanded (self->expander, TRUE);

  if (gtk_expander_get_expanded (self->expander) && self->content_stale)
    build_content (self);
}

static void
expander_notify_expanded_cb (GtkExpander    *expander,
                             GParamSpec     *pspec,
                             PalToolCallRow *self)
{
  if (gtk_expander_get_expanded (expander) && self->content_stale)
    build_content (self);
}

static void
item_notify_cb (AcpToolCallItem *item,
                GParamSpec      *pspec,
                PalToolCallRow  *self)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "content"))
    update_content (self);
  else if (g_str_equal (name, "locations"))
    update_locations (self);
  else
    update_header (self);
}

static void
pal_tool_call_row_dispose (GObject *object)
{
  PalToolCallRow *self = PAL_TOOL_CALL_ROW (object);

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);
  g_clear_object (&self->terminal_service);
  g_clear_pointer (&self->folder, g_free);

  G_OBJECT_CLASS (pal_tool_call_row_parent_class)->dispose (object);
}

static void
pal_tool_call_row_class_init (PalToolCallRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_tool_call_row_dispose;

  gtk_widget_class_set_css_name (widget_class, "toolcallrow");
}

static void
pal_tool_call_row_init (PalToolCallRow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "tool-call");

  self->kind_image = GTK_IMAGE (gtk_image_new ());
  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_wrap (self->title_label, TRUE);
  gtk_label_set_wrap_mode (self->title_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->title_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");

  self->locations_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->locations_label, 0);
  gtk_label_set_ellipsize (self->locations_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (GTK_WIDGET (self->locations_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->locations_label), "dim-label");

  gtk_box_append (GTK_BOX (titles), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (titles), GTK_WIDGET (self->locations_label));
  gtk_widget_set_hexpand (titles, TRUE);

  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  self->status_image = GTK_IMAGE (gtk_image_new ());
  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");

  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->kind_image));
  gtk_box_append (GTK_BOX (header), titles);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->status_image));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->status_label));

  self->content_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 6));
  self->expander = GTK_EXPANDER (gtk_expander_new (_("Details")));
  gtk_expander_set_child (self->expander, GTK_WIDGET (self->content_box));
  g_signal_connect (self->expander, "notify::expanded", G_CALLBACK (expander_notify_expanded_cb), self);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->expander));
  adw_bin_set_child (ADW_BIN (self), box);
}

/**
 * pal_tool_call_row_new:
 * @item: the tool call
 * @terminal_service: (nullable): where the agent's terminals run, to show
 *   the output of a terminal the tool call embeds
 * @folder: (nullable): the session's project folder: the files named are
 *   shown relative to it
 *
 * Returns: (transfer floating): a new row
 */
GtkWidget *
pal_tool_call_row_new (AcpToolCallItem    *item,
                       AcpTerminalService *terminal_service,
                       const char         *folder)
{
  PalToolCallRow *self;

  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (item), NULL);
  g_return_val_if_fail (terminal_service == NULL || ACP_IS_TERMINAL_SERVICE (terminal_service), NULL);

  self = g_object_new (PAL_TYPE_TOOL_CALL_ROW, NULL);
  self->item = g_object_ref (item);
  self->terminal_service = terminal_service != NULL ? g_object_ref (terminal_service) : NULL;
  self->folder = g_strdup (folder);
  update_header (self);
  update_locations (self);
  update_content (self);
  g_signal_connect_object (item, "notify", G_CALLBACK (item_notify_cb), self, 0);

  return GTK_WIDGET (self);
}

AcpToolCallItem *
pal_tool_call_row_get_item (PalToolCallRow *self)
{
  g_return_val_if_fail (PAL_IS_TOOL_CALL_ROW (self), NULL);

  return self->item;
}
