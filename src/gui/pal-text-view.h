/* pal-text-view.h: a text view whose height keeps up with its text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PAL_TYPE_TEXT_VIEW (pal_text_view_get_type ())

G_DECLARE_DERIVABLE_TYPE (PalTextView, pal_text_view, PAL, TEXT_VIEW, GtkTextView)

struct _PalTextViewClass
{
  GtkTextViewClass parent_class;
};

GtkWidget *pal_text_view_new          (void);
guint      pal_text_view_prepare_draw (PalTextView *self);
gboolean   pal_text_view_get_prepared (PalTextView *self);

G_END_DECLS
