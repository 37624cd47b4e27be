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
 * is clipped. Not for a view in a GtkScrolledWindow, whose page would then be
 * as wrong.
 *
 * GtkTextView lays out lines in its size_allocate too (at a new width, or
 * text changed just before the frame), and GTK drops a resize queued while a
 * widget is being allocated: when the view's height changed there, it asks
 * for the resize again once the window is laid out, and GTK lays it out
 * once more before painting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-text-view.h"

typedef struct
{
  GdkFrameClock *frame_clock;    /* (nullable): while realized */
  gulong         layout_handler;
  gboolean       resize_lost;
} PalTextViewPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (PalTextView, pal_text_view, GTK_TYPE_TEXT_VIEW)

/* About a thousand lines */
#define LOOKAHEAD 16384

/* Connected after GDK's own handler, which lays the window out */
static void
frame_layout_cb (GdkFrameClock *frame_clock,
                 PalTextView   *self)
{
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (self);

  if (!priv->resize_lost)
    return;

  priv->resize_lost = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
pal_text_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  PalTextView *self = PAL_TEXT_VIEW (widget);
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (self);
  int before, after;

  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, &before, NULL, NULL, NULL);
  GTK_WIDGET_CLASS (pal_text_view_parent_class)->size_allocate (widget, width, height + LOOKAHEAD, baseline);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, &after, NULL, NULL, NULL);

  if (after != before && priv->frame_clock != NULL)
    {
      priv->resize_lost = TRUE;
      /* when allocated outside of a frame's layout */
      gdk_frame_clock_request_phase (priv->frame_clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
    }
}

static void
pal_text_view_realize (GtkWidget *widget)
{
  PalTextView *self = PAL_TEXT_VIEW (widget);
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (self);

  GTK_WIDGET_CLASS (pal_text_view_parent_class)->realize (widget);

  priv->frame_clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  priv->layout_handler = g_signal_connect_after (priv->frame_clock, "layout",
                                                 G_CALLBACK (frame_layout_cb), self);
}

static void
pal_text_view_unrealize (GtkWidget *widget)
{
  PalTextView *self = PAL_TEXT_VIEW (widget);
  PalTextViewPrivate *priv = pal_text_view_get_instance_private (self);

  g_clear_signal_handler (&priv->layout_handler, priv->frame_clock);
  g_clear_object (&priv->frame_clock);
  priv->resize_lost = FALSE;

  GTK_WIDGET_CLASS (pal_text_view_parent_class)->unrealize (widget);
}

static void
pal_text_view_class_init (PalTextViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->size_allocate = pal_text_view_size_allocate;
  widget_class->realize = pal_text_view_realize;
  widget_class->unrealize = pal_text_view_unrealize;
}

static void
pal_text_view_init (PalTextView *self)
{
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
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
