/* pal-line-cut.h: long lines of plain output, shown in pieces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Characters: a longer line shows in pieces */
#define PAL_LINE_CUT_MAX_CHARS 2048

char *pal_line_cut_text       (const char  *text,
                               gsize        length,
                               int          column);
char *pal_line_cut_dup_uncut  (GtkTextIter *start,
                               GtkTextIter *end);

G_END_DECLS
