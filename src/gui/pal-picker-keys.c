/* pal-picker-keys.c: the keys of a list that pops up over a text field
 *
 * The composer's list of commands and its @ finder are lists shown in a
 * popover while the focus stays in the text: Up and Down move through
 * them, Escape closes them, Tab and Enter choose the selected row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-picker-keys.h"

/**
 * pal_picker_key:
 * @list: the list
 * @n_rows: how many of its first rows can be selected (G_MAXUINT: all)
 * @keyval: the key pressed
 *
 * Does what @keyval does to @list: Up and Down select the row before or
 * after the selected one (the first when none is), staying within the
 * first @n_rows.
 *
 * Returns: what the key was
 */
PalPickerKey
pal_picker_key (GtkListBox *list,
                guint       n_rows,
                guint       keyval)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (list);

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_Down:
      {
        int index = row != NULL ? gtk_list_box_row_get_index (row) + (keyval == GDK_KEY_Up ? -1 : 1) : 0;
        GtkListBoxRow *next;

        if (n_rows == 0)
          return PAL_PICKER_KEY_MOVED;
        index = CLAMP (index, 0, (int) MIN (n_rows - 1, G_MAXINT));
        next = gtk_list_box_get_row_at_index (list, index);
        if (next != NULL)
          gtk_list_box_select_row (list, next);
        return PAL_PICKER_KEY_MOVED;
      }

    case GDK_KEY_Escape:
      return PAL_PICKER_KEY_CLOSE;

    case GDK_KEY_Tab:
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
      return row != NULL && n_rows > 0 ? PAL_PICKER_KEY_CHOOSE : PAL_PICKER_KEY_NONE;

    default:
      return PAL_PICKER_KEY_NONE;
    }
}
