/* pal-markdown-text.c: a read-only text view of Markdown text
 *
 * The text of a message, between its code blocks and tables (see
 * PalMarkdownView), or the whole of a tool's text output. Its buffer has
 * the tags of Markdown, on the table all of them share
 * (pal_markdown_get_tag_table ()). Links open on a click; the pointer says where they are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-markdown.h"
#include "pal-markdown-text.h"

struct _PalMarkdownText
{
  PalTextView  parent_instance;

  char        *markdown;   /* (nullable): what pal_markdown_text_set_markdown () showed */
};

G_DEFINE_FINAL_TYPE (PalMarkdownText, pal_markdown_text, PAL_TYPE_TEXT_VIEW)

/* Lines wrap between words only (GTK_WRAP_WORD): Pango 1.50 lays out a line
 * that may also break between characters by shaping it again at every
 * character near each break, five to six times the work for prose. A line
 * holding a run of LONG_WORD characters or more without a space (a path, a
 * URL, a hash) could be wider than the view, so it gets the "long-words" tag,
 * which lets it break anywhere, without a hyphen. */
#define LONG_WORD 24

/**
 * pal_markdown_text_tag_long_words:
 * @self: a #PalMarkdownText
 * @from_offset: where the text changed
 *
 * Tags the lines with a long word in the text from @from_offset on.
 */
void
pal_markdown_text_tag_long_words (PalMarkdownText *self,
                                  int              from_offset)
{
  GtkTextBuffer *buffer;
  GtkTextTag *tag;
  GtkTextIter from, end;
  g_autofree char *text = NULL;
  int offset, run = 0;

  g_return_if_fail (PAL_IS_MARKDOWN_TEXT (self));

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "long-words");
  if (tag == NULL)
    return;

  /* a long word ending in the new text starts at most LONG_WORD before it
   * (had it begun earlier, it was long before) */
  from_offset = MAX (from_offset - LONG_WORD, 0);
  gtk_text_buffer_get_iter_at_offset (buffer, &from, from_offset);
  gtk_text_buffer_get_end_iter (buffer, &end);
  text = gtk_text_buffer_get_slice (buffer, &from, &end, TRUE);

  offset = from_offset;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p), offset++)
    {
      GtkTextIter line_start, line_end;

      if (g_unichar_isspace (g_utf8_get_char (p)))
        {
          run = 0;
          continue;
        }
      if (++run < LONG_WORD)
        continue;

      gtk_text_buffer_get_iter_at_offset (buffer, &line_start, offset);
      gtk_text_iter_set_line_offset (&line_start, 0);
      line_end = line_start;
      if (!gtk_text_iter_ends_line (&line_end))
        gtk_text_iter_forward_to_line_end (&line_end);
      gtk_text_buffer_apply_tag (buffer, tag, &line_start, &line_end);

      /* on to the next line */
      while (*p != '\0' && *p != '\n')
        {
          p = g_utf8_next_char (p);
          offset++;
        }
      if (*p == '\0')
        break;
      run = 0;
    }
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   PalMarkdownText *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  GtkTextIter start, end, iter;
  const char *uri;
  int bx, by;

  /* a click that selected text is not a click on a link */
  if (gtk_text_buffer_get_selection_bounds (buffer, &start, &end))
    return;

  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (self), GTK_TEXT_WINDOW_WIDGET,
                                         (int) x, (int) y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (GTK_TEXT_VIEW (self), &iter, bx, by))
    return;

  uri = pal_markdown_get_link_at (&iter);
  if (uri != NULL)
    gtk_show_uri (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))), uri, GDK_CURRENT_TIME);
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           PalMarkdownText          *self)
{
  GtkTextIter iter;
  int bx, by;
  gboolean over_link = FALSE;

  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (self), GTK_TEXT_WINDOW_WIDGET,
                                         (int) x, (int) y, &bx, &by);
  if (gtk_text_view_get_iter_at_location (GTK_TEXT_VIEW (self), &iter, bx, by))
    over_link = pal_markdown_get_link_at (&iter) != NULL;

  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), over_link ? "pointer" : NULL);
}

static void
pal_markdown_text_finalize (GObject *object)
{
  PalMarkdownText *self = PAL_MARKDOWN_TEXT (object);

  g_free (self->markdown);

  G_OBJECT_CLASS (pal_markdown_text_parent_class)->finalize (object);
}

static void
pal_markdown_text_class_init (PalMarkdownTextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = pal_markdown_text_finalize;

  gtk_widget_class_set_css_name (widget_class, "markdowntext");
}

static void
pal_markdown_text_init (PalMarkdownText *self)
{
  GtkEventController *controller;

  gtk_text_view_set_editable (GTK_TEXT_VIEW (self), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (self), FALSE);
  /* see pal_markdown_text_tag_long_words () */
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self), GTK_WRAP_WORD);

  controller = GTK_EVENT_CONTROLLER (gtk_gesture_click_new ());
  g_signal_connect (controller, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

/**
 * pal_markdown_text_new:
 *
 * Returns: (transfer floating): a new, empty view
 */
GtkWidget *
pal_markdown_text_new (void)
{
  g_autoptr(GtkTextBuffer) buffer = gtk_text_buffer_new (pal_markdown_get_tag_table ());
  GtkWidget *self;

  /* nothing to undo in a view: the history would keep every insert and
   * delete of a streamed answer */
  gtk_text_buffer_set_enable_undo (buffer, FALSE);
  self = g_object_new (PAL_TYPE_MARKDOWN_TEXT, "buffer", buffer, NULL);

  return self;
}

/**
 * pal_markdown_text_set_markdown:
 * @self: a #PalMarkdownText
 * @markdown: (nullable): what to show
 * @hard_breaks: whether a line break within a paragraph stays one (as in
 *   a tool's output, which may be Markdown or not)
 *
 * Shows @markdown whole, its code blocks and tables in the text (for a
 * message, see PalMarkdownView).
 */
void
pal_markdown_text_set_markdown (PalMarkdownText *self,
                                const char      *markdown,
                                gboolean         hard_breaks)
{
  GtkTextBuffer *buffer;
  GtkTextIter start;

  g_return_if_fail (PAL_IS_MARKDOWN_TEXT (self));

  if (markdown == NULL)
    markdown = "";
  if (g_strcmp0 (markdown, self->markdown) == 0)
    return;

  g_free (self->markdown);
  self->markdown = g_strdup (markdown);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  gtk_text_buffer_set_text (buffer, "", 0);
  gtk_text_buffer_get_start_iter (buffer, &start);
  pal_markdown_insert_full (buffer, &start, markdown, strlen (markdown), hard_breaks);
  pal_markdown_text_tag_long_words (self, 0);
}
