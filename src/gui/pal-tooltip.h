/* pal-tooltip.h: tooltips for widgets built in bulk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void pal_widget_set_quiet_tooltip (GtkWidget  *widget,
                                   const char *text);

G_END_DECLS
