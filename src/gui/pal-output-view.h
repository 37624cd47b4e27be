/* pal-output-view.h: a tool's output, a few lines high, scrolled within
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Lines shown before the output scrolls within */
#define PAL_OUTPUT_VIEW_LINES 15

#define PAL_TYPE_OUTPUT_VIEW (pal_output_view_get_type ())

G_DECLARE_FINAL_TYPE (PalOutputView, pal_output_view, PAL, OUTPUT_VIEW, GtkWidget)

GtkWidget   *pal_output_view_new            (void);
GtkWidget   *pal_output_view_new_with_view  (GtkWidget     *text_view);
GtkTextView *pal_output_view_get_text_view  (PalOutputView *self);

void         pal_output_view_set_text       (PalOutputView *self,
                                             const char    *text,
                                             gssize         length);
void         pal_output_view_append         (PalOutputView *self,
                                             const char    *text,
                                             gssize         length);
void         pal_output_view_update_text    (PalOutputView *self,
                                             const char    *text);
char        *pal_output_view_dup_text       (PalOutputView *self);

gboolean     pal_output_view_get_follow     (PalOutputView *self);
void         pal_output_view_set_follow     (PalOutputView *self,
                                             gboolean       follow);
gboolean     pal_output_view_get_expanded   (PalOutputView *self);
void         pal_output_view_set_expanded   (PalOutputView *self,
                                             gboolean       expanded);
gboolean     pal_output_view_get_overflows  (PalOutputView *self);
void         pal_output_view_copy           (PalOutputView *self);

G_END_DECLS
