/* pal-text-view-private.h: what keeps a text view's height with its text,
 * for text views of other classes than PalTextView (see pal-text-view.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  GtkWidget     *widget;         /* the text view: the state is in its instance */
  GdkFrameClock *frame_clock;    /* (nullable): while realized */
  gulong         layout_handler;
  gboolean       resize_lost;
  GtkTextBuffer *buffer;         /* the one watched for changes */
  gulong         changed_handler;
  int            prepared_width; /* what it was prepared to draw at; -1: not */
} PalTextHeight;

void     _pal_text_height_init          (PalTextHeight  *height,
                                         GtkTextView    *view);
void     _pal_text_height_size_allocate (PalTextHeight  *height,
                                         GtkWidgetClass *parent_class,
                                         int             width,
                                         int             allocated,
                                         int             baseline);
void     _pal_text_height_realize       (PalTextHeight  *height);
void     _pal_text_height_unrealize     (PalTextHeight  *height);
void     _pal_text_height_dispose       (PalTextHeight  *height);
guint    _pal_text_height_prepare_draw  (PalTextHeight  *height);
gboolean _pal_text_height_get_prepared  (PalTextHeight  *height);

G_END_DECLS
