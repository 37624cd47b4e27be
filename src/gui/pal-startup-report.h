/* pal-startup-report.h: how long the start took, for the start-up benchmark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void pal_startup_report_startup_done (void);
void pal_startup_report_watch        (GtkWindow  *window,
                                      GListModel *sessions);

G_END_DECLS
