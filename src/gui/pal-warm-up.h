/* pal-warm-up.h: loading ahead what the first answer would load in its frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void     pal_warm_up_start   (GtkWidget  *widget);
gboolean pal_warm_up_is_done (GdkDisplay *display);

G_END_DECLS
