/* summary-rows.h: whether the chat view shows one-line summaries, for the
 * widget tests and the benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

/* Whether a summary row (the chat view's one-line stand-in for a row, while
 * a flood is being caught up with) within @widget is mapped within
 * @scroller's area */
static inline gboolean
summary_on_screen (GtkWidget *widget,
                   GtkWidget *scroller)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget))
    return FALSE;

  if (gtk_widget_has_css_class (widget, "summary-row"))
    return gtk_widget_compute_bounds (widget, scroller, &bounds) &&
           bounds.origin.y + bounds.size.height > 0 &&
           bounds.origin.y < gtk_widget_get_height (scroller);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (summary_on_screen (child, scroller))
      return TRUE;

  return FALSE;
}
