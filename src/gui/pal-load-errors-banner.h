/* pal-load-errors-banner.h: what the stores could not read, told in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-stored-list.h"

G_BEGIN_DECLS

#define PAL_TYPE_LOAD_ERRORS_BANNER (pal_load_errors_banner_get_type ())

G_DECLARE_FINAL_TYPE (PalLoadErrorsBanner, pal_load_errors_banner, PAL, LOAD_ERRORS_BANNER, AdwBin)

GtkWidget  *pal_load_errors_banner_new          (void);
/* Follows the load errors of @list. */
void        pal_load_errors_banner_add_list     (PalLoadErrorsBanner *self,
                                                 PalStoredList       *list);
gboolean    pal_load_errors_banner_get_revealed (PalLoadErrorsBanner *self);
const char *pal_load_errors_banner_get_title    (PalLoadErrorsBanner *self);
/* (transfer full): what Details shows */
char       *pal_load_errors_banner_dup_details  (PalLoadErrorsBanner *self);
/* (transfer none): the dialog Details opens */
GtkWindow  *pal_load_errors_banner_show_details (PalLoadErrorsBanner *self);
/* Hides the banner until the load errors change. */
void        pal_load_errors_banner_dismiss      (PalLoadErrorsBanner *self);

G_END_DECLS
