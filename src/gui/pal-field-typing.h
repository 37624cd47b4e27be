/* pal-field-typing.h: whether the person is typing in a field of an editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The text of @field as a whole (transfer full) */
typedef char *(*PalFieldTextFunc) (GtkWidget *field);

/* Follows @field: @left (swapped: it gets @data) runs when the focus leaves
 * it. @text_func: (nullable): its text; NULL for a #GtkEditable. */
void     pal_field_typing_watch (GtkWidget        *field,
                                 PalFieldTextFunc  text_func,
                                 GCallback         left,
                                 gpointer          data);
/* Whether the focus is in @field and its text changed since it came */
gboolean pal_field_typing_get   (GtkWidget        *field);
/* What is in @field now counts as typed: a save was tried */
void     pal_field_typing_done  (GtkWidget        *field);

G_END_DECLS
