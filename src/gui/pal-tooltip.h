/* pal-tooltip.h: tooltips for widgets built in bulk, and none over menus
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void pal_widget_set_quiet_tooltip            (GtkWidget     *widget,
                                              const char    *text);
const char *pal_widget_get_quiet_tooltip    (GtkWidget     *widget);
void pal_menu_button_hide_tooltip_while_open (GtkMenuButton *button);

G_END_DECLS
