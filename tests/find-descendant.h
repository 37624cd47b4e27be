/* find-descendant.h: finding a widget by its type, for the widget tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

/* The first descendant of @root of @type, depth first, mapped or not */
static inline GtkWidget *
find_descendant (GtkWidget *root,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = G_TYPE_CHECK_INSTANCE_TYPE (child, type) ? child : find_descendant (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}
