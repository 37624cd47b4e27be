/* pal-tool-call-row.c: a tool call of the chat
 *
 * A header (kind icon, title, status) and an expander with the content the
 * agent attached: text, diffs, terminals (the client's, or the agent's own
 * shown as its command and the output it streamed or reported), and the
 * locations it touched; the raw input and output when they are all there
 * is, and a raw output of text when nothing else shows it. Long text
 * scrolls within a few lines (PalOutputView). The header's kind icon,
 * title and status text are bound to the item's properties; the rest
 * follows its notifications, and the output of the agent's own terminals
 * its signals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-a11y.h"
#include "pal-diff-view.h"
#include "pal-markdown.h"
#include "pal-markdown-text.h"
#include "pal-output-view.h"
#include "pal-path.h"
#include "pal-terminal-view.h"
#include "pal-tool-call-row.h"
#include "pal-tooltip.h"

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
  GPtrArray       *part_keys;      /* (element-type utf8): of the widgets in the content box */
  gboolean         content_stale;  /* the content box does not show the item's content */
  gboolean         output_stale;   /* nor the output of the agent's own terminals */
};

G_DEFINE_FINAL_TYPE (PalToolCallRow, pal_tool_call_row, ADW_TYPE_BIN)

/* Bytes of a title rendered: a command of a thousand lines is read in the
 * details, not in the title */
#define MAX_TITLE       4096
/* Lines of a title shown */
#define MAX_TITLE_LINES 4

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

static gboolean
kind_to_icon (GBinding     *binding,
              const GValue *from_value,
              GValue       *to_value,
              gpointer      user_data)
{
  g_value_set_static_string (to_value, pal_tool_call_kind_icon (g_value_get_string (from_value)));
  return TRUE;
}

/* The title as markup: Claude writes Markdown there (the command in
 * backticks); the tool's name when there is no title */
static char *
title_markup (AcpToolCallItem *item,
              const char      *title,
              const char      *name,
              gpointer         user_data)
{
  if (title != NULL && *title != '\0')
    return pal_markdown_to_markup (title, (gssize) strnlen (title, MAX_TITLE));

  return g_markup_escape_text (name != NULL && *name != '\0' ? name : _("Tool call"), -1);
}

/* Refused when the agent asked, and not run (a rejected tool call ends
 * "failed", or with its turn) */
static gboolean
is_rejected (AcpToolCallItem *item)
{
  return acp_tool_call_item_get_rejected (item) &&
         g_strcmp0 (acp_tool_call_item_get_status (item), "in_progress") != 0 &&
         g_strcmp0 (acp_tool_call_item_get_status (item), "completed") != 0;
}

static const char *
status_text (const char *status,
             gboolean    stopped,
             gboolean    rejected)
{
  if (rejected)
    return C_("tool call status", "Rejected");
  /* a tool call left unfinished when its turn ended or was stopped */
  if (stopped)
    return C_("tool call status", "Interrupted");
  if (g_strcmp0 (status, "completed") == 0)
    return C_("tool call status", "Completed");
  if (g_strcmp0 (status, "failed") == 0)
    return C_("tool call status", "Failed");
  if (g_strcmp0 (status, "in_progress") == 0)
    return C_("tool call status", "Running");

  return C_("tool call status", "Pending");
}

static char *
status_label (AcpToolCallItem *item,
              const char      *status,
              gboolean         stopped,
              gboolean         rejected,
              gpointer         user_data)
{
  return g_strdup (status_text (status, stopped, is_rejected (item)));
}

/* @widget's @property follows @callback of the item's properties (a
 * GtkExpression: any of them changing updates it) */
static void
bind_properties (PalToolCallRow     *self,
                 GtkWidget          *widget,
                 const char         *property,
                 const char * const *names,
                 GCallback           callback)
{
  GtkExpression *params[3];
  GtkExpression *expression;
  guint n = 0;

  for (; names[n] != NULL && n < G_N_ELEMENTS (params); n++)
    params[n] = gtk_property_expression_new (ACP_TYPE_TOOL_CALL_ITEM, NULL, names[n]);
  expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, n, params, callback, NULL, NULL);
  gtk_expression_bind (expression, widget, property, self->item);
}

static void
bind_header (PalToolCallRow *self)
{
  static const char * const title_from[] = { "title", "name", NULL };
  static const char * const status_from[] = { "status", "stopped", "rejected", NULL };

  g_object_bind_property_full (self->item, "tool-kind", self->kind_image, "icon-name",
                               G_BINDING_SYNC_CREATE, kind_to_icon, NULL, NULL, NULL);
  bind_properties (self, GTK_WIDGET (self->title_label), "label", title_from, G_CALLBACK (title_markup));
  bind_properties (self, GTK_WIDGET (self->status_label), "label", status_from, G_CALLBACK (status_label));
}

/* What a screen reader says of the row: its title and status, as shown */
static void
update_name (PalToolCallRow *self)
{
  g_autofree char *name = NULL;
  const char *status = gtk_label_get_text (self->status_label);

  if (*status != '\0')
    /* Translators: the name of a tool call for a screen reader; the first
     * %s is its title ("Edit hello.c"), the second its status ("Completed") */
    name = g_strdup_printf (_("Tool call: %s, %s"), gtk_label_get_text (self->title_label), status);
  else
    /* Translators: the name of a tool call for a screen reader; %s is its title */
    name = g_strdup_printf (_("Tool call: %s"), gtk_label_get_text (self->title_label));
  pal_a11y_set_label (GTK_WIDGET (self), name);
}

static void
label_notify_cb (GtkLabel       *label,
                 GParamSpec     *pspec,
                 PalToolCallRow *self)
{
  update_name (self);
}

/* What the status label does not say: a spinner or an icon, a style */
static void
update_status (PalToolCallRow *self)
{
  const char *status = acp_tool_call_item_get_status (self->item);
  const char *status_icon = NULL;
  gboolean rejected = is_rejected (self->item);
  gboolean running = FALSE;

  if (rejected)
    status_icon = "action-unavailable-symbolic";
  else if (acp_tool_call_item_get_stopped (self->item))
    status_icon = "process-stop-symbolic";
  else if (g_strcmp0 (status, "completed") == 0)
    status_icon = "object-select-symbolic";
  else if (g_strcmp0 (status, "failed") == 0)
    status_icon = "dialog-error-symbolic";
  else if (g_strcmp0 (status, "in_progress") == 0)
    running = TRUE;
  else
    status_icon = "content-loading-symbolic";

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->status_image), status_icon != NULL);
  if (status_icon != NULL)
    gtk_image_set_from_icon_name (self->status_image, status_icon);

  gtk_widget_remove_css_class (GTK_WIDGET (self), "failed");
  gtk_widget_remove_css_class (GTK_WIDGET (self), "rejected");
  gtk_widget_remove_css_class (GTK_WIDGET (self), "completed");
  /* what the person refused did not go wrong: no red */
  if (rejected)
    gtk_widget_add_css_class (GTK_WIDGET (self), "rejected");
  else if (g_strcmp0 (status, "failed") == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self), "failed");
  else if (g_strcmp0 (status, "completed") == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self), "completed");
}

static void
update_locations (PalToolCallRow *self)
{
  GListModel *locations = acp_tool_call_item_get_locations (self->item);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) full = g_string_new (NULL);
  guint n = g_list_model_get_n_items (locations);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpLocation) location = g_list_model_get_item (locations, i);
      const char *path = acp_location_get_path (location);
      gint64 line = acp_location_get_line (location);
      g_autofree char *shown = NULL;

      if (text->len > 0)
        {
          g_string_append (text, ", ");
          g_string_append_c (full, '\n');
        }
      shown = pal_path_display (path, self->folder, g_get_home_dir ());
      g_string_append (text, shown);
      g_string_append (full, path);
      if (line >= 0)
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

/* --- content --- */

typedef enum
{
  PART_TEXT,        /* a text content block: Markdown */
  PART_CODE,        /* a text content block that is one fenced code block */
  PART_LABEL,       /* another content block, named */
  PART_DIFF,
  PART_TERMINAL,    /* a terminal of the service, or the agent's own */
  PART_RAW_INPUT,
  PART_RAW_OUTPUT,
} PartKind;

/* What one widget of the content shows. Two parts of the same key are
 * shown by the same widget, updated in place: a command's output that
 * grows is not laid out anew, and its view keeps its scroll. */
typedef struct
{
  PartKind    kind;
  char       *key;
  AcpToolCallContent *entry; /* (nullable): what it shows */
  char       *text;          /* (nullable) */
  char       *terminal_id;   /* (nullable): of a PART_TERMINAL */
} Part;

static void
part_free (Part *part)
{
  g_clear_object (&part->entry);
  g_free (part->key);
  g_free (part->text);
  g_free (part->terminal_id);
  g_free (part);
}

#define TERMINAL_KEY_PREFIX "terminal:"

static Part *
terminal_part_new (const char         *terminal_id,
                   AcpToolCallContent *entry,
                   const char         *raw_output)
{
  Part *part = g_new0 (Part, 1);

  part->kind = PART_TERMINAL;
  part->key = g_strconcat (TERMINAL_KEY_PREFIX, terminal_id, NULL);
  part->entry = entry != NULL ? g_object_ref (entry) : NULL;
  part->text = g_strdup (raw_output);
  part->terminal_id = g_strdup (terminal_id);

  return part;
}

static Part *
part_new (PartKind            kind,
          char               *key,
          AcpToolCallContent *entry,
          char               *text)
{
  Part *part = g_new0 (Part, 1);

  part->kind = kind;
  part->key = key;
  part->entry = entry != NULL ? g_object_ref (entry) : NULL;
  part->text = text;

  return part;
}

static gboolean
is_running (PalToolCallRow *self)
{
  return !acp_tool_call_item_is_finished (self->item) && !acp_tool_call_item_get_stopped (self->item);
}

/* Whether @text (of the content) already shows @raw (the raw output):
 * agents that send both send the same text twice, or the raw one with
 * something after it (Claude adds reminders meant for the model) */
static gboolean
covers (const char *text,
        const char *raw)
{
  g_autofree char *a = g_strstrip (g_strdup (text));
  g_autofree char *b = g_strstrip (g_strdup (raw));
  gsize length_a = strlen (a);

  if (*b == '\0' || strstr (a, b) != NULL)
    return TRUE;

  return length_a > 0 && g_str_has_prefix (b, a) && length_a * 2 >= strlen (b);
}

static GPtrArray *
collect_parts (PalToolCallRow *self)
{
  GListModel *content = acp_tool_call_item_get_content (self->item);
  guint n = g_list_model_get_n_items (content);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) part_free);
  g_auto(GStrv) terminal_ids = acp_tool_call_item_dup_terminal_ids (self->item);
  g_autofree char *raw_output = NULL;
  gboolean shows_output = FALSE;
  gboolean raw_is_json = FALSE;
  guint n_content;

  raw_output = acp_tool_call_item_dup_raw_output_text (self->item, &raw_is_json);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpToolCallContent) entry = g_list_model_get_item (content, i);
      AcpToolCallContentKind kind = acp_tool_call_content_get_kind (entry);

      if (kind == ACP_TOOL_CALL_CONTENT_KIND_CONTENT)
        {
          AcpContentBlock *block = acp_tool_call_content_get_block (entry);
          const char *text = acp_content_block_get_text (block);
          char *label;

          if (acp_content_block_get_block_type (block) == ACP_CONTENT_BLOCK_TYPE_TEXT)
            {
              /* a command's output or a file, fenced: shown as it is */
              char *code = pal_markdown_dup_code_block (text, -1);

              if (code != NULL)
                g_ptr_array_add (parts, part_new (PART_CODE, g_strdup ("code"), entry, code));
              else
                g_ptr_array_add (parts, part_new (PART_TEXT, g_strdup ("text"), entry, g_strdup (text)));
              if (raw_output != NULL && covers (code != NULL ? code : text, raw_output))
                shows_output = TRUE;
              continue;
            }

          if (acp_content_block_get_block_type (block) == ACP_CONTENT_BLOCK_TYPE_IMAGE)
            label = g_strdup_printf (_("Image (%s)"), acp_content_block_get_mime_type (block));
          else if (acp_content_block_get_block_type (block) == ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK)
            label = g_strdup_printf ("📎 %s", acp_content_block_get_uri (block));
          else
            label = g_strdup_printf (_("Content of type “%s”"), acp_content_block_get_type_name (block));
          g_ptr_array_add (parts, part_new (PART_LABEL, g_strconcat ("label:", label, NULL), entry, label));
        }
      else if (kind == ACP_TOOL_CALL_CONTENT_KIND_DIFF)
        {
          g_ptr_array_add (parts, part_new (PART_DIFF,
                                            g_strconcat ("diff:", acp_tool_call_content_get_path (entry), NULL),
                                            entry, NULL));
          shows_output = TRUE;
        }
      else if (kind == ACP_TOOL_CALL_CONTENT_KIND_TERMINAL)
        {
          /* the agent's own terminal shows the raw output, unless it
           * streams its output */
          g_ptr_array_add (parts, terminal_part_new (acp_tool_call_content_get_terminal_id (entry),
                                                     entry, raw_output));
          shows_output = TRUE;
        }
    }

  /* terminals of the agent's own that the content does not name */
  for (guint i = 0; terminal_ids[i] != NULL; i++)
    {
      g_autofree char *key = g_strconcat (TERMINAL_KEY_PREFIX, terminal_ids[i], NULL);
      gboolean named = FALSE;

      for (guint j = 0; j < parts->len && !named; j++)
        named = g_str_equal (((Part *) g_ptr_array_index (parts, j))->key, key);
      if (!named)
        g_ptr_array_add (parts, terminal_part_new (terminal_ids[i], NULL, NULL));
    }
  n_content = parts->len;

  /* A tool's result sent in rawOutput alone (an MCP tool's, a command's
   * that the agent ran itself), and what it was given when nothing else
   * says it */
  if (n_content == 0)
    {
      char *raw_input = acp_tool_call_item_dup_raw_input_text (self->item, NULL);

      if (raw_input != NULL)
        g_ptr_array_add (parts, part_new (PART_RAW_INPUT, g_strdup ("input"), NULL, raw_input));
    }
  /* beside content, a raw output that is not text is the agent's own
   * bookkeeping (an exit code, timings), not a result */
  if (raw_output != NULL && !shows_output && (n_content == 0 || !raw_is_json))
    g_ptr_array_add (parts, part_new (PART_RAW_OUTPUT, g_strdup ("output"), NULL,
                                      g_steal_pointer (&raw_output)));

  return g_steal_pointer (&parts);
}

/* A terminal the agent runs itself: the output it streamed, or else the
 * one it reported in its raw output; how it ended */
static void
update_agent_terminal (PalToolCallRow  *self,
                       PalTerminalView *view,
                       Part            *part,
                       gboolean         fresh)
{
  const char *output = acp_tool_call_item_get_terminal_output (self->item, part->terminal_id, NULL);
  const char *signal_name = NULL;
  gboolean running = is_running (self);
  int exit_status = -1;

  if (output == NULL)
    pal_terminal_view_set_output (view, part->text);
  else if (fresh || self->output_stale)
    pal_terminal_view_set_output (view, output);

  if (output != NULL &&
      acp_tool_call_item_get_terminal_exit (self->item, part->terminal_id,
                                            &exit_status, &signal_name))
    running = FALSE;
  else
    acp_tool_call_item_get_exit_code (self->item, &exit_status);
  pal_terminal_view_set_state (view, running, exit_status, signal_name);
}

/* Shows @part in @widget; @fresh: made for it just now */
static void
update_part (PalToolCallRow *self,
             GtkWidget      *widget,
             Part           *part,
             gboolean        fresh)
{
  switch (part->kind)
    {
    case PART_TEXT:
      /* plain output, unfenced, keeps its lines */
      pal_markdown_text_set_markdown (PAL_MARKDOWN_TEXT (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (widget))),
                                      part->text, TRUE);
      pal_output_view_set_follow (PAL_OUTPUT_VIEW (widget), is_running (self));
      break;

    case PART_CODE:
      pal_output_view_update_text (PAL_OUTPUT_VIEW (widget), part->text);
      pal_output_view_set_follow (PAL_OUTPUT_VIEW (widget), is_running (self));
      break;

    case PART_RAW_INPUT:
    case PART_RAW_OUTPUT:
      pal_output_view_update_text (g_object_get_data (G_OBJECT (widget), "output-view"), part->text);
      break;

    case PART_DIFF:
      pal_diff_view_set_diff (PAL_DIFF_VIEW (widget),
                              acp_tool_call_content_get_path (part->entry), self->folder,
                              acp_tool_call_content_get_old_text (part->entry),
                              acp_tool_call_content_get_new_text (part->entry));
      break;

    case PART_TERMINAL:
      {
        g_autofree char *command = acp_tool_call_item_dup_command (self->item);

        pal_terminal_view_set_command (PAL_TERMINAL_VIEW (widget), command);
        if (!pal_terminal_view_get_live (PAL_TERMINAL_VIEW (widget)))
          update_agent_terminal (self, PAL_TERMINAL_VIEW (widget), part, fresh);
      }
      break;

    case PART_LABEL:
    default:
      break;
    }
}

static GtkWidget *
create_part (PalToolCallRow *self,
             Part           *part)
{
  GtkWidget *widget = NULL;

  switch (part->kind)
    {
    case PART_TEXT:
      widget = pal_output_view_new_with_view (pal_markdown_text_new ());
      break;

    case PART_CODE:
      widget = pal_output_view_new ();
      break;

    case PART_LABEL:
      widget = gtk_label_new (part->text);
      gtk_label_set_xalign (GTK_LABEL (widget), 0);
      gtk_label_set_wrap (GTK_LABEL (widget), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (widget), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (widget, "dim-label");
      break;

    case PART_DIFF:
      widget = pal_diff_view_new ();
      break;

    case PART_TERMINAL:
      widget = pal_terminal_view_new (self->terminal_service, part->terminal_id);
      break;

    case PART_RAW_INPUT:
    case PART_RAW_OUTPUT:
      {
        GtkWidget *caption = gtk_label_new (part->kind == PART_RAW_INPUT ? _("Input") : _("Output"));
        GtkWidget *view = pal_output_view_new ();

        gtk_label_set_xalign (GTK_LABEL (caption), 0);
        gtk_widget_add_css_class (caption, "caption-heading");
        gtk_widget_add_css_class (caption, "dim-label");
        widget = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
        gtk_box_append (GTK_BOX (widget), caption);
        gtk_box_append (GTK_BOX (widget), view);
        g_object_set_data (G_OBJECT (widget), "output-view", view);
        gtk_widget_add_css_class (widget, part->kind == PART_RAW_INPUT ? "raw-input" : "raw-output");
      }
      break;

    default:
      g_assert_not_reached ();
    }

  update_part (self, widget, part, TRUE);
  return widget;
}

/* Shows the content: the widgets there, updated where they show the same
 * parts, or new ones. Only done while the expander is open: a replayed
 * history holds thousands of tool calls whose details nobody opens, and a
 * text view or a diff is the costliest part of a row. */
static void
build_content (PalToolCallRow *self)
{
  g_autoptr(GPtrArray) parts = collect_parts (self);
  gboolean same = parts->len == self->part_keys->len;
  GtkWidget *child;
  guint i;

  self->content_stale = FALSE;

  for (i = 0; i < parts->len && same; i++)
    same = g_str_equal (((Part *) g_ptr_array_index (parts, i))->key,
                        g_ptr_array_index (self->part_keys, i));

  if (same)
    {
      for (i = 0, child = gtk_widget_get_first_child (GTK_WIDGET (self->content_box));
           i < parts->len && child != NULL;
           i++, child = gtk_widget_get_next_sibling (child))
        update_part (self, child, g_ptr_array_index (parts, i), FALSE);
      self->output_stale = FALSE;
      return;
    }

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->content_box))) != NULL)
    gtk_box_remove (self->content_box, child);
  g_ptr_array_set_size (self->part_keys, 0);

  for (i = 0; i < parts->len; i++)
    {
      Part *part = g_ptr_array_index (parts, i);

      gtk_box_append (self->content_box, create_part (self, part));
      g_ptr_array_add (self->part_keys, g_strdup (part->key));
    }
  self->output_stale = FALSE;
}

static void
update_content (PalToolCallRow *self)
{
  GListModel *content = acp_tool_call_item_get_content (self->item);
  guint n = g_list_model_get_n_items (content);
  g_auto(GStrv) terminal_ids = acp_tool_call_item_dup_terminal_ids (self->item);
  /* a terminal of the agent's own, or what a command printed (Claude
   * fences it, Gemini CLI sends it as it is) */
  gboolean expand = terminal_ids[0] != NULL ||
                    (n > 0 &&
                     g_str_equal (acp_tool_call_item_get_tool_kind (self->item), "execute"));

  self->content_stale = TRUE;

  for (guint i = 0; i < n && !expand; i++)
    {
      g_autoptr(AcpToolCallContent) entry = g_list_model_get_item (content, i);
      AcpToolCallContentKind kind = acp_tool_call_content_get_kind (entry);

      expand = kind == ACP_TOOL_CALL_CONTENT_KIND_DIFF || kind == ACP_TOOL_CALL_CONTENT_KIND_TERMINAL;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->expander),
                          n > 0 || expand ||
                          acp_tool_call_item_get_raw_input (self->item) != NULL ||
                          acp_tool_call_item_get_raw_output (self->item) != NULL);
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

  if (g_str_equal (name, "content") || g_str_equal (name, "raw-input") || g_str_equal (name, "raw-output"))
    update_content (self);
  else if (g_str_equal (name, "locations"))
    update_locations (self);
  else if (g_str_equal (name, "status") || g_str_equal (name, "stopped") || g_str_equal (name, "rejected"))
    {
      update_status (self);
      /* whether a command runs */
      update_content (self);
    }
}

/* The widget of the content that shows the part of @key, or NULL */
static GtkWidget *
find_part_widget (PalToolCallRow *self,
                  const char     *key)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->content_box));

  for (guint i = 0; i < self->part_keys->len && child != NULL; i++)
    {
      if (g_str_equal (g_ptr_array_index (self->part_keys, i), key))
        return child;
      child = gtk_widget_get_next_sibling (child);
    }

  return NULL;
}

/* More output of a terminal of the agent's own: added to its view as it
 * comes, or shown once the details are */
static void
item_terminal_output_cb (AcpToolCallItem *item,
                         const char      *terminal_id,
                         const char      *text,
                         PalToolCallRow  *self)
{
  g_autofree char *key = g_strconcat (TERMINAL_KEY_PREFIX, terminal_id, NULL);
  GtkWidget *view = self->content_stale ? NULL : find_part_widget (self, key);

  if (view != NULL && !pal_terminal_view_get_live (PAL_TERMINAL_VIEW (view)))
    pal_terminal_view_append_output (PAL_TERMINAL_VIEW (view), text);
  else if (view == NULL)
    self->output_stale = TRUE;
}

/* A terminal of the agent's own appeared, or its command ended */
static void
item_terminal_changed_cb (AcpToolCallItem *item,
                          const char      *terminal_id,
                          PalToolCallRow  *self)
{
  update_content (self);
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
  g_clear_pointer (&self->part_keys, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_tool_call_row_parent_class)->dispose (object);
}

static void
pal_tool_call_row_class_init (PalToolCallRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_tool_call_row_dispose;

  gtk_widget_class_set_css_name (widget_class, "toolcallrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
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
  gtk_widget_add_css_class (GTK_WIDGET (self->kind_image), "kind-icon");
  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_wrap (self->title_label, TRUE);
  gtk_label_set_wrap_mode (self->title_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (self->title_label, MAX_TITLE_LINES);
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (self->title_label, TRUE);
  gtk_label_set_use_markup (self->title_label, TRUE);
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
  g_signal_connect (self->status_label, "notify::label", G_CALLBACK (label_notify_cb), self);
  g_signal_connect (self->title_label, "notify::label", G_CALLBACK (label_notify_cb), self);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");

  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->kind_image));
  gtk_box_append (GTK_BOX (header), titles);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->status_image));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->status_label));

  self->part_keys = g_ptr_array_new_with_free_func (g_free);
  self->content_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 6));
  self->expander = GTK_EXPANDER (gtk_expander_new (_("Details")));
  pal_a11y_set_label (GTK_WIDGET (self->expander), _("Details"));
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
  bind_header (self);
  update_status (self);
  update_locations (self);
  update_content (self);
  g_signal_connect_object (item, "notify", G_CALLBACK (item_notify_cb), self, 0);
  g_signal_connect_object (item, "terminal-output",
                           G_CALLBACK (item_terminal_output_cb), self, 0);
  g_signal_connect_object (item, "terminal-changed",
                           G_CALLBACK (item_terminal_changed_cb), self, 0);

  return GTK_WIDGET (self);
}

AcpToolCallItem *
pal_tool_call_row_get_item (PalToolCallRow *self)
{
  g_return_val_if_fail (PAL_IS_TOOL_CALL_ROW (self), NULL);

  return self->item;
}
