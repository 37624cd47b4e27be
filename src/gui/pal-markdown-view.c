/* pal-markdown-view.c: a read-only text view rendering streamed Markdown
 *
 * Streamed text is rendered incrementally. Everything before the last stable
 * cut point (see PalMarkdownScanner) is rendered once and never touched
 * again; only the tail after it is rendered anew, at most once per main loop
 * iteration however many chunks arrived, or, once it is long, added to as
 * plain text until it is finished. A long answer streamed in 200,000 chunks
 * therefore costs the size of its last paragraph per frame, not the size of
 * the answer; and however fast it comes, streamed text is laid out at
 * STREAM_BUDGET bytes a frame at most, in all views together.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-markdown.h"
#include "pal-markdown-view.h"

struct _PalMarkdownView
{
  PalTextView         parent_instance;

  GString            *source;
  PalMarkdownScanner  scanner;
  gsize               rendered;    /* bytes of source rendered for good */
  gsize               shown;       /* bytes of source in the buffer, in any form */
  GtkTextMark        *tail_mark;   /* where the rendering of the tail starts */
  guint               render_id;
  gboolean            plain;
  gboolean            hard_breaks;
};

enum {
  PROP_0,
  PROP_TEXT,
  PROP_PLAIN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PalMarkdownView, pal_markdown_view, PAL_TYPE_TEXT_VIEW)

/* Streamed text is shown at this many bytes a frame at most, in all views
 * together: real agents send tens of bytes a second, so this never holds
 * them back, but an agent that floods the pipe would otherwise have the
 * window lay out everything it sent in the frame it arrived. */
#define STREAM_BUDGET        1024
#define STREAM_BUDGET_WINDOW (16 * G_TIME_SPAN_MILLISECOND)
/* An unfinished block longer than this grows as plain text: it is styled
 * once it is finished, instead of anew at every frame */
#define TAIL_PLAIN_AFTER     1024

static gint64 budget_window;
static gsize  budget_used;

/* Returns: how many of @wanted bytes may be shown now */
static gsize
take_budget (gsize wanted)
{
  gint64 now = g_get_monotonic_time ();
  gsize granted;

  if (now - budget_window >= STREAM_BUDGET_WINDOW)
    {
      budget_window = now;
      budget_used = 0;
    }

  granted = MIN (wanted, STREAM_BUDGET - MIN (budget_used, STREAM_BUDGET));
  budget_used += granted;

  return granted;
}

/* Shows the source up to @target: what became stable since the last time
 * rendered for good, the rest (the tail) rendered anew, or added as plain
 * text when it has grown long.
 * Returns: the offset in the buffer from which the text changed */
static int
render_text_upto (PalMarkdownView *self,
                  gsize            target)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  const char *source = self->source->str;
  GtkTextIter start, end;
  int changed;

  /* never in the middle of a character */
  while (target < self->source->len && target > self->shown && (source[target] & 0xC0) == 0x80)
    target--;

  gtk_text_buffer_get_end_iter (buffer, &end);
  changed = gtk_text_iter_get_offset (&end);

  if (self->plain)
    {
      gtk_text_buffer_insert (buffer, &end, source + self->shown, (int) (target - self->shown));
      self->rendered = self->shown = target;
      return changed;
    }

  pal_markdown_scanner_feed (&self->scanner, source, target);

  if (self->scanner.stable <= self->rendered &&
      target - self->rendered > TAIL_PLAIN_AFTER && self->shown > self->rendered)
    {
      /* a long unfinished block: add to it as it is */
      gtk_text_buffer_insert (buffer, &end, source + self->shown, (int) (target - self->shown));
      self->shown = target;
      return changed;
    }

  /* drop the previous rendering of the tail */
  gtk_text_buffer_get_iter_at_mark (buffer, &start, self->tail_mark);
  changed = gtk_text_iter_get_offset (&start);
  gtk_text_buffer_delete (buffer, &start, &end);

  if (self->scanner.stable > self->rendered)
    {
      pal_markdown_insert_full (buffer, &start, source + self->rendered,
                                self->scanner.stable - self->rendered, self->hard_breaks);
      self->rendered = self->scanner.stable;
      gtk_text_buffer_move_mark (buffer, self->tail_mark, &start);
    }

  pal_markdown_insert_full (buffer, &start, source + self->rendered, target - self->rendered,
                            self->hard_breaks);
  self->shown = target;

  return changed;
}

/* Lines wrap between words only (GTK_WRAP_WORD): Pango 1.50 lays out a line
 * that may also break between characters by shaping it again at every
 * character near each break, five to six times the work for prose. A line
 * holding a run of LONG_WORD characters or more without a space (a path, a
 * URL, a hash) could be wider than the view, so it gets the "long-words" tag,
 * which lets it break anywhere. */
#define LONG_WORD 24

/* Tags the lines with a long word in the text from @from_offset on. */
static void
tag_long_words (GtkTextBuffer *buffer,
                int            from_offset)
{
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "long-words");
  GtkTextIter from, end;
  g_autofree char *text = NULL;
  int offset, run = 0;

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
render_upto (PalMarkdownView *self,
             gsize            target)
{
  tag_long_words (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self)),
                  render_text_upto (self, target));
}

/* Renders everything now */
static void
render (PalMarkdownView *self)
{
  g_clear_handle_id (&self->render_id, g_source_remove);
  render_upto (self, self->source->len);
}

static gboolean render_cb (gpointer user_data);

/* Renders what the stream budget allows, and the rest later */
static void
render_some (PalMarkdownView *self)
{
  gsize granted;

  g_clear_handle_id (&self->render_id, g_source_remove);

  granted = take_budget (self->source->len - self->shown);
  if (granted > 0)
    render_upto (self, self->shown + granted);

  /* the rest when the budget is renewed */
  if (self->shown < self->source->len)
    {
      gint64 wait = budget_window + STREAM_BUDGET_WINDOW - g_get_monotonic_time ();

      self->render_id = g_timeout_add_full (GDK_PRIORITY_REDRAW + 10,
                                            (guint) CLAMP (wait / 1000, 1, 16),
                                            render_cb, self, NULL);
    }
}

static gboolean
render_cb (gpointer user_data)
{
  PalMarkdownView *self = user_data;

  self->render_id = 0;
  render_some (self);

  return G_SOURCE_REMOVE;
}

static void
queue_render (PalMarkdownView *self)
{
  /* before GTK's layout and paint of the frame */
  if (self->render_id == 0)
    self->render_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, render_cb, self, NULL);
}

static void
reset (PalMarkdownView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  GtkTextIter start;

  g_clear_handle_id (&self->render_id, g_source_remove);
  g_string_truncate (self->source, 0);
  pal_markdown_scanner_init (&self->scanner);
  self->rendered = 0;
  self->shown = 0;
  gtk_text_buffer_set_text (buffer, "", 0);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_move_mark (buffer, self->tail_mark, &start);
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   PalMarkdownView *self)
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
           PalMarkdownView          *self)
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
pal_markdown_view_dispose (GObject *object)
{
  PalMarkdownView *self = PAL_MARKDOWN_VIEW (object);

  g_clear_handle_id (&self->render_id, g_source_remove);

  G_OBJECT_CLASS (pal_markdown_view_parent_class)->dispose (object);
}

static void
pal_markdown_view_finalize (GObject *object)
{
  PalMarkdownView *self = PAL_MARKDOWN_VIEW (object);

  g_string_free (self->source, TRUE);

  G_OBJECT_CLASS (pal_markdown_view_parent_class)->finalize (object);
}

static void
pal_markdown_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  PalMarkdownView *self = PAL_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->source->str);
      break;

    case PROP_PLAIN:
      g_value_set_boolean (value, self->plain);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_markdown_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  PalMarkdownView *self = PAL_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      pal_markdown_view_set_text (self, g_value_get_string (value));
      break;

    case PROP_PLAIN:
      pal_markdown_view_set_plain (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_markdown_view_class_init (PalMarkdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_markdown_view_dispose;
  object_class->finalize = pal_markdown_view_finalize;
  object_class->get_property = pal_markdown_view_get_property;
  object_class->set_property = pal_markdown_view_set_property;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PLAIN] =
    g_param_spec_boolean ("plain", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "markdownview");
}

static void
pal_markdown_view_init (PalMarkdownView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  GtkEventController *controller;
  GtkTextIter start;

  self->source = g_string_new (NULL);
  pal_markdown_scanner_init (&self->scanner);
  pal_markdown_ensure_tags (buffer);
  gtk_text_buffer_get_start_iter (buffer, &start);
  self->tail_mark = gtk_text_buffer_create_mark (buffer, NULL, &start, TRUE);

  gtk_text_view_set_editable (GTK_TEXT_VIEW (self), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (self), FALSE);
  /* nothing to undo in a view: the history would keep every insert and
   * delete of a streamed answer */
  gtk_text_buffer_set_enable_undo (buffer, FALSE);
  /* see tag_long_words () */
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self), GTK_WRAP_WORD);

  controller = GTK_EVENT_CONTROLLER (gtk_gesture_click_new ());
  g_signal_connect (controller, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

GtkWidget *
pal_markdown_view_new (void)
{
  return g_object_new (PAL_TYPE_MARKDOWN_VIEW, NULL);
}

/**
 * pal_markdown_view_set_text:
 * @self: a #PalMarkdownView
 * @text: (nullable): Markdown source
 *
 * Replaces the text and renders it at once.
 */
void
pal_markdown_view_set_text (PalMarkdownView *self,
                            const char      *text)
{
  g_return_if_fail (PAL_IS_MARKDOWN_VIEW (self));

  if (text == NULL)
    text = "";
  if (g_strcmp0 (text, self->source->str) == 0)
    return;

  reset (self);
  g_string_append (self->source, text);
  render (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

/**
 * pal_markdown_view_append:
 * @self: a #PalMarkdownView
 * @chunk: more Markdown source
 * @length: length of @chunk, or -1 when nul-terminated
 *
 * Appends streamed text; it is rendered before the next frame. The "text"
 * property is not notified for appends.
 */
void
pal_markdown_view_append (PalMarkdownView *self,
                          const char      *chunk,
                          gssize           length)
{
  g_return_if_fail (PAL_IS_MARKDOWN_VIEW (self));
  g_return_if_fail (chunk != NULL || length == 0);

  if (length < 0)
    length = (gssize) strlen (chunk);
  if (length == 0)
    return;

  g_string_append_len (self->source, chunk, length);
  queue_render (self);
}

/**
 * pal_markdown_view_flush:
 * @self: a #PalMarkdownView
 *
 * Renders appended text now instead of before the next frame.
 */
void
pal_markdown_view_flush (PalMarkdownView *self)
{
  g_return_if_fail (PAL_IS_MARKDOWN_VIEW (self));

  if (self->render_id != 0)
    render (self);
}

/**
 * pal_markdown_view_get_pending:
 * @self: a #PalMarkdownView
 *
 * Returns: whether appended text waits to be rendered (before the next
 *   frame, or at the pace of streamed text)
 */
gboolean
pal_markdown_view_get_pending (PalMarkdownView *self)
{
  g_return_val_if_fail (PAL_IS_MARKDOWN_VIEW (self), FALSE);

  return self->render_id != 0;
}

const char *
pal_markdown_view_get_text (PalMarkdownView *self)
{
  g_return_val_if_fail (PAL_IS_MARKDOWN_VIEW (self), NULL);

  return self->source->str;
}

gboolean
pal_markdown_view_get_plain (PalMarkdownView *self)
{
  g_return_val_if_fail (PAL_IS_MARKDOWN_VIEW (self), FALSE);

  return self->plain;
}

/**
 * pal_markdown_view_set_plain:
 * @self: a #PalMarkdownView
 * @plain: whether to show the text as it is, without Markdown
 */
void
pal_markdown_view_set_plain (PalMarkdownView *self,
                             gboolean         plain)
{
  g_autofree char *text = NULL;

  g_return_if_fail (PAL_IS_MARKDOWN_VIEW (self));

  plain = !!plain;
  if (plain == self->plain)
    return;

  self->plain = plain;
  text = g_strdup (self->source->str);
  reset (self);
  g_string_append (self->source, text);
  render (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAIN]);
}

/**
 * pal_markdown_view_set_hard_breaks:
 * @self: a #PalMarkdownView, before it has text
 * @hard_breaks: whether a line break within a paragraph stays one
 *
 * For text that may be Markdown or may be a tool's plain output, whose
 * lines would otherwise run together.
 */
void
pal_markdown_view_set_hard_breaks (PalMarkdownView *self,
                                   gboolean         hard_breaks)
{
  g_return_if_fail (PAL_IS_MARKDOWN_VIEW (self));
  g_return_if_fail (self->source->len == 0);

  self->hard_breaks = !!hard_breaks;
}

/**
 * pal_markdown_view_truncate:
 * @self: a #PalMarkdownView
 * @length: the length in bytes to cut the source to
 *
 * Drops the source after @length (which must be a point where streamed
 * Markdown can be cut, see PalMarkdownScanner). Cheap when what is dropped
 * was not rendered yet; otherwise the rest is rendered anew.
 */
void
pal_markdown_view_truncate (PalMarkdownView *self,
                            gsize            length)
{
  g_autofree char *text = NULL;

  g_return_if_fail (PAL_IS_MARKDOWN_VIEW (self));

  if (length >= self->source->len)
    return;

  if (length >= self->shown)
    {
      g_string_truncate (self->source, length);
      return;
    }

  text = g_strndup (self->source->str, length);
  pal_markdown_view_set_text (self, text);
}
