/* pal-a11y.h: names and states for screen readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget *pal_a11y_mnemonic_button_new (const char *mnemonic);
void       pal_a11y_set_label           (GtkWidget  *widget,
                                         const char *label);
void       pal_a11y_set_invalid         (GtkWidget  *widget,
                                         gboolean    invalid);

G_END_DECLS
