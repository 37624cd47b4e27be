/* pal-text-view.c: a text view whose height keeps up with its text
 *
 * A GtkTextView is as tall as the lines it has laid out. It lays out the
 * lines its allocation shows as soon as the text changes, and the others in
 * an idle of a lower priority than the frames. When every frame takes longer
 * than the refresh interval (a software GL renderer, a slow machine, while a
 * spinner turns or an answer streams), a frame is always due and that idle
 * never runs: a view whose text grew past its allocation keeps the height it
 * had, and the row it is in never shows the new lines.
 *
 * This view tells GtkTextView that it is taller than its allocation by
 * LOOKAHEAD pixels, so that the lines that would fit there are laid out
 * with those shown, in the frame where the text changed: its height follows
 * its text whether that idle runs or not. (The idle would lay out the same
 * lines a little later; only a text that grows by more than LOOKAHEAD at
 * once is left to it for the rest.) What is laid out beyond the allocation
 * is clipped. Not for a view that a GtkScrolledWindow scrolls up and down,
 * whose page would then be as wrong (sideways is fine: the width is not
 * touched).
 *
 * GtkTextView lays out lines in its size_allocate too (at a new width, or
 * text changed just before the frame), and GTK drops a resize queued while a
 * widget is being allocated: when the view's height changed there, it asks
 * for the resize again once the window is laid out, and GTK lays it out
 * once more before painting.
 *
 * GtkTextView lays out a line twice before it first draws it: to measure it,
 * then again, to draw it (only the second layout is kept, for the frames
 * after). Drawn for the first time, a view of a few kilobytes of text spends
 * a couple of milliseconds shaping its lines anew. pal_text_view_prepare_draw()
 * does that second layout ahead, in a frame where the view is not drawn yet.
 *
 * Both work around GTK 4.8's text view (Debian 12); check with bench/ on a
 * newer GTK whether they are still needed. They are a PalTextHeight
 * (pal-text-view-private.h), so that a text view of another class (the
 * source view of a code block) can have them too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-text-view.h"
#include "pal-text-view-private.h"

typedef struct
{
  PalTextHeight height;
} PalTextViewPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (PalTextView, pal_text_view, GTK_TYPE_TEXT_VIEW)

/* About a thousand lines */
#define LOOKAHEAD 16384

/* GtkTextView keeps the layouts of 250 lines for drawing: fewer than that */
#define PREPARE_LINES_MAX 200

/* Connected after GDK's own handler, which lays the window out */
static void
frame_layout_cb (GdkFrameClock *frame_clock,
                 PalTextHeight *height)
{
  if (!height->resize_lost)
    return;

  height->resize_lost = FALSE;
  gtk_widget_queue_resize (height->widget);
}

static void
buffer_changed_cb (GtkTextBuffer *buffer,
                   PalTextHeight *height)
{
  height->prepared_width = -1;
}

static void
watch_buffer (PalTextHeight *height,
              GtkTextBuffer *buffer)
{
  height->prepared_width = -1;
  if (height->buffer == buffer)
    return;

  if (height->buffer != NULL)
    g_clear_signal_handler (&height->changed_handler, height->buffer);
  g_set_object (&height->buffer, buffer);
  if (buffer != NULL)
    height->changed_handler = g_signal_connect (buffer, "changed", G_CALLBACK (buffer_changed_cb), height);
}

/* Also when the view makes a buffer of its own, the first time it is
 * asked for one */
static void
buffer_notify_cb (GtkWidget     *widget,
                  GParamSpec    *pspec,
                  PalTextHeight *height)
{
  GtkTextBuffer *buffer = NULL;

  g_object_get (widget, "buffer", &buffer, NULL);
  watch_buffer (height, buffer);
  g_clear_object (&buffer);
}

/**
 * _pal_text_height_init:
 * @height: the state, in the instance of @view
 * @view: a text view that is not in a GtkScrolledWindow (but for one
 *   that only scrolls sideways)
 *
 * From its instance init: the view keeps its height with its text. The
 * class chains its size_allocate, realize, unrealize and dispose to the
 * functions below.
 */
void
_pal_text_height_init (PalTextHeight *height,
                       GtkTextView   *view)
{
  height->widget = GTK_WIDGET (view);
  height->prepared_width = -1;
  gtk_widget_set_overflow (height->widget, GTK_OVERFLOW_HIDDEN);

  /* not gtk_text_view_get_buffer (): it would make a buffer, for a view
   * that may be given one */
  g_signal_connect (view, "notify::buffer", G_CALLBACK (buffer_notify_cb), height);
}

void
_pal_text_height_size_allocate (PalTextHeight  *height,
                                GtkWidgetClass *parent_class,
                                int             width,
                                int             allocated,
                                int             baseline)
{
  int before, after;

  gtk_widget_measure (height->widget, GTK_ORIENTATION_VERTICAL, width, &before, NULL, NULL, NULL);
  parent_class->size_allocate (height->widget, width, allocated + LOOKAHEAD, baseline);
  gtk_widget_measure (height->widget, GTK_ORIENTATION_VERTICAL, width, &after, NULL, NULL, NULL);

  if (after != before && height->frame_clock != NULL)
    {
      height->resize_lost = TRUE;
      /* when allocated outside of a frame's layout */
      gdk_frame_clock_request_phase (height->frame_clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
    }
}

/* After the parent class realized the view */
void
_pal_text_height_realize (PalTextHeight *height)
{
  height->frame_clock = g_object_ref (gtk_widget_get_frame_clock (height->widget));
  height->layout_handler = g_signal_connect_after (height->frame_clock, "layout",
                                                   G_CALLBACK (frame_layout_cb), height);
}

/* Before the parent class unrealizes the view */
void
_pal_text_height_unrealize (PalTextHeight *height)
{
  g_clear_signal_handler (&height->layout_handler, height->frame_clock);
  g_clear_object (&height->frame_clock);
  height->resize_lost = FALSE;
  height->prepared_width = -1;
}

void
_pal_text_height_dispose (PalTextHeight *height)
{
  if (height->buffer != NULL)
    g_clear_signal_handler (&height->changed_handler, height->buffer);
  g_clear_object (&height->buffer);
}

/* See pal_text_view_prepare_draw () */
guint
_pal_text_height_prepare_draw (PalTextHeight *height)
{
  GtkTextView *view = GTK_TEXT_VIEW (height->widget);
  GtkTextIter iter;
  int widget_height = gtk_widget_get_height (height->widget);
  int bottom;
  guint n = 0;

  if (!gtk_widget_get_realized (height->widget) || widget_height <= 0)
    return 0;

  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, 0, widget_height, NULL, &bottom);
  gtk_text_buffer_get_start_iter (gtk_text_view_get_buffer (view), &iter);
  while (n < PREPARE_LINES_MAX)
    {
      GdkRectangle location;
      int y;

      /* the location of an iterator is found in the layout for drawing */
      gtk_text_view_get_iter_location (view, &iter, &location);
      n++;
      gtk_text_view_get_line_yrange (view, &iter, &y, NULL);
      if (y >= bottom || !gtk_text_iter_forward_line (&iter))
        break;
    }
  height->prepared_width = gtk_widget_get_width (height->widget);

  return n;
}

gboolean
_pal_text_height_get_prepared (PalTextHeight *height)
{
  return height->prepared_width >= 0 && height->prepared_width == gtk_widget_get_width (height->widget);
}

static void
pal_text_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (PAL_TEXT_VIEW (widget));

  _pal_text_height_size_allocate (&priv->height, GTK_WIDGET_CLASS (pal_text_view_parent_class),
                                  width, height, baseline);
}

static void
pal_text_view_realize (GtkWidget *widget)
{
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (PAL_TEXT_VIEW (widget));

  GTK_WIDGET_CLASS (pal_text_view_parent_class)->realize (widget);
  _pal_text_height_realize (&priv->height);
}

static void
pal_text_view_unrealize (GtkWidget *widget)
{
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (PAL_TEXT_VIEW (widget));

  _pal_text_height_unrealize (&priv->height);
  GTK_WIDGET_CLASS (pal_text_view_parent_class)->unrealize (widget);
}

static void
pal_text_view_dispose (GObject *object)
{
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (PAL_TEXT_VIEW (object));

  _pal_text_height_dispose (&priv->height);

  G_OBJECT_CLASS (pal_text_view_parent_class)->dispose (object);
}

static void
pal_text_view_class_init (PalTextViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_text_view_dispose;

  widget_class->size_allocate = pal_text_view_size_allocate;
  widget_class->realize = pal_text_view_realize;
  widget_class->unrealize = pal_text_view_unrealize;
}

static void
pal_text_view_init (PalTextView *self)
{
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (self);

  _pal_text_height_init (&priv->height, GTK_TEXT_VIEW (self));
}

/**
 * pal_text_view_prepare_draw:
 * @self: a realized view, laid out
 *
 * Lays out the lines of @self that its allocation shows for drawing, as its
 * next snapshot would (at most PREPARE_LINES_MAX of them): called before a
 * view is first drawn, in a frame that has time for it, it takes that work
 * off the frame that draws it. The layouts stay until the text, the width
 * or the style of the view change.
 *
 * Returns: how many lines were laid out (0 when @self is not laid out)
 */
guint
pal_text_view_prepare_draw (PalTextView *self)
{
  PalTextViewPrivate *priv;

  g_return_val_if_fail (PAL_IS_TEXT_VIEW (self), 0);

  priv = pal_text_view_get_instance_private (self);

  return _pal_text_height_prepare_draw (&priv->height);
}

/**
 * pal_text_view_get_prepared:
 * @self: a view
 *
 * Returns: whether the lines of @self were laid out to be drawn (see
 * pal_text_view_prepare_draw ()) since its text or its width last changed
 */
gboolean
pal_text_view_get_prepared (PalTextView *self)
{
  PalTextViewPrivate *priv;

  g_return_val_if_fail (PAL_IS_TEXT_VIEW (self), FALSE);

  priv = pal_text_view_get_instance_private (self);

  return _pal_text_height_get_prepared (&priv->height);
}

/**
 * pal_text_view_new:
 *
 * Returns: (transfer floating): a new text view
 */
GtkWidget *
pal_text_view_new (void)
{
  return g_object_new (PAL_TYPE_TEXT_VIEW, NULL);
}
