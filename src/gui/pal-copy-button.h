/* pal-copy-button.h: a small Copy button that says when it copied
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget *pal_copy_button_new         (const char *accessible_label);
void       pal_copy_button_show_copied (GtkWidget  *button);
gboolean   pal_copy_button_get_copied  (GtkWidget  *button);

G_END_DECLS
