/* pal-table-view.h: a Markdown table of a message, as a grid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-markdown.h"

G_BEGIN_DECLS

#define PAL_TYPE_TABLE_VIEW (pal_table_view_get_type ())

G_DECLARE_FINAL_TYPE (PalTableView, pal_table_view, PAL, TABLE_VIEW, AdwBin)

GtkWidget *pal_table_view_new           (void);
void       pal_table_view_set_table     (PalTableView           *self,
                                         const PalMarkdownTable *table);
guint      pal_table_view_get_n_rows    (PalTableView           *self);
guint      pal_table_view_get_n_columns (PalTableView           *self);
GtkLabel  *pal_table_view_get_cell      (PalTableView           *self,
                                         guint                   row,
                                         guint                   column);
GtkGrid   *pal_table_view_get_grid      (PalTableView           *self);

G_END_DECLS
