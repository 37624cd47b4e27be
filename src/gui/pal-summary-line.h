/* pal-summary-line.h: one line of text, cut to fit, cheap to make by the hundred
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PAL_TYPE_SUMMARY_LINE (pal_summary_line_get_type ())

G_DECLARE_FINAL_TYPE (PalSummaryLine, pal_summary_line, PAL, SUMMARY_LINE, GtkWidget)

GtkWidget  *pal_summary_line_new      (GtkWidget      *font_source,
                                       const char     *text);
const char *pal_summary_line_get_text (PalSummaryLine *self);
void        pal_summary_line_set_text (PalSummaryLine *self,
                                       const char     *text);

G_END_DECLS
