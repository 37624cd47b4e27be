/* pal-picker-keys.h: the keys of a list that pops up over a text field
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  PAL_PICKER_KEY_NONE,    /* not the list's key */
  PAL_PICKER_KEY_MOVED,   /* Up or Down: the row before or after is selected */
  PAL_PICKER_KEY_CLOSE,   /* Escape */
  PAL_PICKER_KEY_CHOOSE,  /* Tab or Enter, with a row selected */
} PalPickerKey;

PalPickerKey pal_picker_key (GtkListBox *list,
                             guint       n_rows,
                             guint       keyval);

G_END_DECLS
