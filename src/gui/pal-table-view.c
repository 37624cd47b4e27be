/* pal-table-view.c: a Markdown table of a message, as a grid
 *
 * One label per cell in a GtkGrid: the columns line up, the text of a
 * cell wraps within it (between words where the column is wide enough,
 * anywhere where it is not, so that the table never gets wider than the
 * message), the head row is bold, and the lines between the cells are
 * the style sheet's. Cells hold inline Markdown (emphasis, code, links),
 * as Pango markup. A table that is still streaming in is set again and
 * again: the labels that are there are reused.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-table-view.h"

struct _PalTableView
{
  AdwBin   parent_instance;

  GtkGrid *grid;
  guint    n_rows;
  guint    n_columns;
};

G_DEFINE_FINAL_TYPE (PalTableView, pal_table_view, ADW_TYPE_BIN)

static void
pal_table_view_class_init (PalTableViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_css_name (widget_class, "tableview");
}

static void
pal_table_view_init (PalTableView *self)
{
  self->grid = GTK_GRID (gtk_grid_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->grid), "markdown-table");
  gtk_widget_set_overflow (GTK_WIDGET (self->grid), GTK_OVERFLOW_HIDDEN);
  /* as wide as its text needs, up to the message's width */
  gtk_widget_set_halign (GTK_WIDGET (self->grid), GTK_ALIGN_START);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->grid));
}

/**
 * pal_table_view_new:
 *
 * Returns: (transfer floating): an empty table
 */
GtkWidget *
pal_table_view_new (void)
{
  return g_object_new (PAL_TYPE_TABLE_VIEW, NULL);
}

static GtkWidget *
cell_new (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_WORD);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "cell");

  return label;
}

/* Markup from an agent's text that Pango would refuse shows as its text */
static void
set_cell_markup (GtkLabel   *label,
                 const char *markup)
{
  g_autofree char *text = NULL;

  if (g_strcmp0 (gtk_label_get_label (label), markup) == 0 && gtk_label_get_use_markup (label))
    return;

  if (pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL))
    {
      gtk_label_set_markup (label, markup);
      return;
    }

  gtk_label_set_text (label, markup);
}

static void
set_class (GtkWidget  *widget,
           const char *css_class,
           gboolean    set)
{
  if (set)
    gtk_widget_add_css_class (widget, css_class);
  else
    gtk_widget_remove_css_class (widget, css_class);
}

/**
 * pal_table_view_set_table:
 * @self: a #PalTableView
 * @table: the table to show
 */
void
pal_table_view_set_table (PalTableView           *self,
                          const PalMarkdownTable *table)
{
  guint n_rows, n_columns;

  g_return_if_fail (PAL_IS_TABLE_VIEW (self));
  g_return_if_fail (table != NULL);

  n_rows = table->rows->len;
  n_columns = table->n_columns;

  /* what the table had beyond the new one goes */
  while (self->n_rows > n_rows)
    gtk_grid_remove_row (self->grid, (int) --self->n_rows);
  while (self->n_columns > n_columns)
    gtk_grid_remove_column (self->grid, (int) --self->n_columns);

  for (guint r = 0; r < n_rows; r++)
    {
      const char * const *cells = g_ptr_array_index (table->rows, r);
      gboolean head = r < table->n_head_rows;
      guint n_cells = g_strv_length ((char **) cells);

      for (guint c = 0; c < n_columns; c++)
        {
          GtkWidget *cell = gtk_grid_get_child_at (self->grid, (int) c, (int) r);

          if (cell == NULL)
            {
              cell = cell_new ();
              gtk_grid_attach (self->grid, cell, (int) c, (int) r, 1, 1);
            }
          set_cell_markup (GTK_LABEL (cell), c < n_cells ? cells[c] : "");
          gtk_label_set_xalign (GTK_LABEL (cell), table->xaligns[c]);
          set_class (cell, "head", head);
          set_class (cell, "last-row", r + 1 == n_rows);
          set_class (cell, "last-column", c + 1 == n_columns);
        }
    }

  self->n_rows = n_rows;
  self->n_columns = n_columns;
}

guint
pal_table_view_get_n_rows (PalTableView *self)
{
  g_return_val_if_fail (PAL_IS_TABLE_VIEW (self), 0);

  return self->n_rows;
}

guint
pal_table_view_get_n_columns (PalTableView *self)
{
  g_return_val_if_fail (PAL_IS_TABLE_VIEW (self), 0);

  return self->n_columns;
}

/**
 * pal_table_view_get_cell:
 * @self: a #PalTableView
 * @row: a row, the head's first
 * @column: a column
 *
 * Returns: (transfer none) (nullable): the label of the cell
 */
GtkLabel *
pal_table_view_get_cell (PalTableView *self,
                         guint         row,
                         guint         column)
{
  g_return_val_if_fail (PAL_IS_TABLE_VIEW (self), NULL);

  if (row >= self->n_rows || column >= self->n_columns)
    return NULL;

  return GTK_LABEL (gtk_grid_get_child_at (self->grid, (int) column, (int) row));
}

GtkGrid *
pal_table_view_get_grid (PalTableView *self)
{
  g_return_val_if_fail (PAL_IS_TABLE_VIEW (self), NULL);

  return self->grid;
}
