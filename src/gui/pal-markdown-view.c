/* pal-markdown-view.c: streamed Markdown, its code blocks and tables widgets of their own
 *
 * The view is a column of parts: the text (PalMarkdownText, one for all
 * the text between two code blocks or tables), each code block
 * (PalCodeBlock) and each table (PalTableView). A message without code or
 * tables is one text part (empty, it is one line tall, as a text view is);
 * only code blocks get a source view.
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
 * Rendering the tail anew does not make its parts anew: the parts of the
 * previous rendering of the tail are given what the new one renders, in
 * order, where they are of the same kind; a code block that streams in is
 * one source view that its new lines are added to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-code-block.h"
#include "pal-markdown.h"
#include "pal-markdown-text.h"
#include "pal-markdown-view.h"
#include "pal-table-view.h"

/* Pixels between two parts, and a step of indent for the lists a part is in */
#define PART_SPACING 8
#define INDENT_STEP  18

struct _PalMarkdownView
{
  GtkWidget           parent_instance;

  GString            *source;
  PalMarkdownScanner  scanner;
  gsize               rendered;    /* bytes of source rendered for good */
  gsize               shown;       /* bytes of source in the parts, in any form */
  guint               n_kept;      /* parts of what is rendered for good */
  GtkTextMark        *tail_mark;   /* (nullable): in the last of those, a text
                                    * part: where the rendering of the tail
                                    * starts in it */
  guint               n_live;      /* while rendering: the parts made or
                                    * reused so far; those after are the
                                    * previous rendering's */
  guint               render_id;
  gboolean            plain;
};

enum {
  PROP_0,
  PROP_TEXT,
  PROP_PLAIN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PalMarkdownView, pal_markdown_view, GTK_TYPE_WIDGET)

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

/* --- parts --- */

static GtkWidget *
nth_part (PalMarkdownView *self,
          guint            n)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self));

  for (guint i = 0; i < n && child != NULL; i++)
    child = gtk_widget_get_next_sibling (child);

  return child;
}

static GtkTextBuffer *
text_part_buffer (GtkWidget *part)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (part));
}

/* The next part of the rendering: the previous rendering's part at its
 * place when it is of @type, else none (the caller makes one) */
static GtkWidget *
take_part (PalMarkdownView *self,
           GType            type)
{
  GtkWidget *next = nth_part (self, self->n_live);

  if (next != NULL && G_TYPE_CHECK_INSTANCE_TYPE (next, type))
    {
      self->n_live++;
      return next;
    }

  return NULL;
}

/* Adds @part to the rendering, before the previous rendering's parts */
static void
add_part (PalMarkdownView *self,
          GtkWidget       *part)
{
  GtkWidget *previous = self->n_live > 0 ? nth_part (self, self->n_live - 1) : NULL;

  gtk_widget_insert_after (part, GTK_WIDGET (self), previous);
  self->n_live++;
}

static void
set_depth (GtkWidget *part,
           guint      depth)
{
  gtk_widget_set_margin_start (part, (int) MIN (depth, 8) * INDENT_STEP);
}

/* The parts from @n on go; an empty view keeps an empty text part, as
 * tall as a line, as a text view would be */
static void
drop_parts (PalMarkdownView *self,
            guint            n)
{
  GtkWidget *child = nth_part (self, n);

  if (n == 0 && PAL_IS_MARKDOWN_TEXT (child))
    {
      gtk_text_buffer_set_text (text_part_buffer (child), "", 0);
      child = gtk_widget_get_next_sibling (child);
    }

  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      gtk_widget_unparent (child);
      child = next;
    }

  if (gtk_widget_get_first_child (GTK_WIDGET (self)) == NULL)
    gtk_widget_insert_after (pal_markdown_text_new (), GTK_WIDGET (self), NULL);
}

static GtkTextBuffer *
sink_text_buffer (gpointer user_data)
{
  PalMarkdownView *self = user_data;
  GtkWidget *last = self->n_live > 0 ? nth_part (self, self->n_live - 1) : NULL;
  GtkWidget *part;

  /* text goes on where text was */
  if (PAL_IS_MARKDOWN_TEXT (last))
    return text_part_buffer (last);

  part = take_part (self, PAL_TYPE_MARKDOWN_TEXT);
  if (part != NULL)
    {
      gtk_text_buffer_set_text (text_part_buffer (part), "", 0);
      return text_part_buffer (part);
    }

  part = pal_markdown_text_new ();
  add_part (self, part);

  return text_part_buffer (part);
}

static void
sink_code_block (gpointer    user_data,
                 const char *info,
                 const char *code,
                 gsize       length,
                 guint       depth)
{
  PalMarkdownView *self = user_data;
  GtkWidget *part = take_part (self, PAL_TYPE_CODE_BLOCK);

  if (part == NULL)
    {
      part = pal_code_block_new ();
      add_part (self, part);
    }
  set_depth (part, depth);
  pal_code_block_set_code (PAL_CODE_BLOCK (part), info, code, (gssize) length);
}

static void
sink_table (gpointer                user_data,
            const PalMarkdownTable *table,
            guint                   depth)
{
  PalMarkdownView *self = user_data;
  GtkWidget *part = take_part (self, PAL_TYPE_TABLE_VIEW);

  if (part == NULL)
    {
      part = pal_table_view_new ();
      add_part (self, part);
    }
  set_depth (part, depth);
  pal_table_view_set_table (PAL_TABLE_VIEW (part), table);
}

static const PalMarkdownSink sink = {
  .text_buffer = sink_text_buffer,
  .code_block = sink_code_block,
  .table = sink_table,
};

/* Adds @text as it is after what the last part shows: a code block that
 * grows long, or another block */
static void
append_plain (PalMarkdownView *self,
              const char      *text,
              gsize            length)
{
  GtkWidget *last = gtk_widget_get_last_child (GTK_WIDGET (self));
  GtkTextBuffer *buffer;
  GtkTextIter end;
  int from;

  if (PAL_IS_CODE_BLOCK (last))
    {
      pal_code_block_append (PAL_CODE_BLOCK (last), text, (gssize) length);
      return;
    }

  if (!PAL_IS_MARKDOWN_TEXT (last))
    {
      last = pal_markdown_text_new ();
      gtk_widget_insert_before (last, GTK_WIDGET (self), NULL);
    }

  buffer = text_part_buffer (last);
  gtk_text_buffer_get_end_iter (buffer, &end);
  from = gtk_text_iter_get_offset (&end);
  gtk_text_buffer_insert (buffer, &end, text, (int) length);
  pal_markdown_text_tag_long_words (PAL_MARKDOWN_TEXT (last), from);
}

/* Where the tail starts: at the end of what is rendered for good */
static void
mark_tail (PalMarkdownView *self)
{
  GtkWidget *last = self->n_kept > 0 ? nth_part (self, self->n_kept - 1) : NULL;
  GtkTextIter end;

  if (self->tail_mark != NULL)
    {
      gtk_text_buffer_delete_mark (gtk_text_mark_get_buffer (self->tail_mark), self->tail_mark);
      g_clear_object (&self->tail_mark);
    }

  if (!PAL_IS_MARKDOWN_TEXT (last))
    return;

  gtk_text_buffer_get_end_iter (text_part_buffer (last), &end);
  self->tail_mark = g_object_ref (gtk_text_buffer_create_mark (text_part_buffer (last), NULL, &end, TRUE));
}

/* The text of the source as it is, in one text part */
static void
render_plain_upto (PalMarkdownView *self,
                   gsize            target)
{
  GtkWidget *part;

  if (self->shown == 0)
    {
      self->n_live = 0;
      sink_text_buffer (self);
      drop_parts (self, 1);
    }

  part = gtk_widget_get_first_child (GTK_WIDGET (self));
  if (part == NULL)
    {
      part = pal_markdown_text_new ();
      gtk_widget_insert_after (part, GTK_WIDGET (self), NULL);
    }

  if (target > self->shown)
    {
      GtkTextBuffer *buffer = text_part_buffer (part);
      GtkTextIter end;

      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert (buffer, &end, self->source->str + self->shown, (int) (target - self->shown));
    }
  self->rendered = self->shown = target;
}

/* Shows the source up to @target: what became stable since the last time
 * rendered for good, the rest (the tail) rendered anew, or added as plain
 * text when it has grown long */
static void
render_upto (PalMarkdownView *self,
             gsize            target)
{
  const char *source = self->source->str;
  GtkWidget *kept;
  guint first_new;
  int kept_from = -1;

  /* never in the middle of a character */
  while (target < self->source->len && target > self->shown && (source[target] & 0xC0) == 0x80)
    target--;

  if (self->plain)
    {
      render_plain_upto (self, target);
      return;
    }

  pal_markdown_scanner_feed (&self->scanner, source, target);

  if (self->scanner.stable <= self->rendered &&
      target - self->rendered > TAIL_PLAIN_AFTER && self->shown > self->rendered)
    {
      /* a long unfinished block: add to it as it is */
      append_plain (self, source + self->shown, target - self->shown);
      self->shown = target;
      return;
    }

  /* drop the previous rendering of the tail: its parts are reused */
  first_new = self->n_kept;
  kept = first_new > 0 ? nth_part (self, first_new - 1) : NULL;
  self->n_live = first_new;
  if (self->tail_mark != NULL)
    {
      GtkTextBuffer *buffer = gtk_text_mark_get_buffer (self->tail_mark);
      GtkTextIter start, end;

      gtk_text_buffer_get_iter_at_mark (buffer, &start, self->tail_mark);
      gtk_text_buffer_get_end_iter (buffer, &end);
      kept_from = gtk_text_iter_get_offset (&start);
      gtk_text_buffer_delete (buffer, &start, &end);
    }

  if (self->scanner.stable > self->rendered)
    {
      pal_markdown_render (pal_markdown_get_tag_table (), source + self->rendered,
                           self->scanner.stable - self->rendered, &sink, self);
      self->rendered = self->scanner.stable;
      /* the tail starts after what is rendered for good now */
      self->n_kept = self->n_live;
      mark_tail (self);
    }

  pal_markdown_render (pal_markdown_get_tag_table (), source + self->rendered, target - self->rendered, &sink, self);
  drop_parts (self, self->n_live);
  self->shown = target;

  /* the text that changed: after the mark, and all of the parts after it */
  if (PAL_IS_MARKDOWN_TEXT (kept) && kept_from >= 0)
    pal_markdown_text_tag_long_words (PAL_MARKDOWN_TEXT (kept), kept_from);
  for (guint i = first_new; i < self->n_live; i++)
    {
      GtkWidget *part = nth_part (self, i);

      if (PAL_IS_MARKDOWN_TEXT (part))
        pal_markdown_text_tag_long_words (PAL_MARKDOWN_TEXT (part), 0);
    }
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

/* Forgets the source; the parts stay, to be reused by the next rendering */
static void
reset (PalMarkdownView *self)
{
  g_clear_handle_id (&self->render_id, g_source_remove);
  g_string_truncate (self->source, 0);
  pal_markdown_scanner_init (&self->scanner);
  self->rendered = 0;
  self->shown = 0;
  self->n_kept = 0;
  self->n_live = 0;
  mark_tail (self);
}

static void
pal_markdown_view_dispose (GObject *object)
{
  PalMarkdownView *self = PAL_MARKDOWN_VIEW (object);

  GtkWidget *child;

  g_clear_handle_id (&self->render_id, g_source_remove);
  g_clear_object (&self->tail_mark);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

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

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "markdownview");
}

static void
pal_markdown_view_init (PalMarkdownView *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), PART_SPACING);

  self->source = g_string_new (NULL);
  pal_markdown_scanner_init (&self->scanner);
  drop_parts (self, 0);
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

/**
 * pal_markdown_view_link_plain:
 * @self: a #PalMarkdownView showing plain text
 * @start: where the link starts in the text, in bytes
 * @end: where it ends
 * @uri: its target
 *
 * Makes a stretch of plain text a link, as a Markdown link is one (until
 * the text is set anew). Appended text is shown first.
 */
void
pal_markdown_view_link_plain (PalMarkdownView *self,
                              gsize            start,
                              gsize            end,
                              const char      *uri)
{
  GtkWidget *part;
  GtkTextBuffer *buffer;
  GtkTextIter from, to;
  const char *text;

  g_return_if_fail (PAL_IS_MARKDOWN_VIEW (self));
  g_return_if_fail (start <= end);
  g_return_if_fail (uri != NULL);

  if (!self->plain || end > self->source->len || start == end)
    return;

  pal_markdown_view_flush (self);
  part = gtk_widget_get_first_child (GTK_WIDGET (self));
  if (!PAL_IS_MARKDOWN_TEXT (part))
    return;

  /* plain text is in the one part as it is in the source */
  text = self->source->str;
  buffer = text_part_buffer (part);
  gtk_text_buffer_get_iter_at_offset (buffer, &from, (int) g_utf8_pointer_to_offset (text, text + start));
  gtk_text_buffer_get_iter_at_offset (buffer, &to, (int) g_utf8_pointer_to_offset (text, text + end));
  gtk_text_buffer_apply_tag (buffer,
                             pal_markdown_get_link_tag (gtk_text_buffer_get_tag_table (buffer), uri),
                             &from, &to);
}
