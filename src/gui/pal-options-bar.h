/* pal-options-bar.h: the selectors of a session's modes and config options
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PAL_TYPE_OPTIONS_BAR (pal_options_bar_get_type ())

G_DECLARE_FINAL_TYPE (PalOptionsBar, pal_options_bar, PAL, OPTIONS_BAR, AdwBin)

GtkWidget  *pal_options_bar_new                 (void);
/* AcpMode items; nullable */
GListModel *pal_options_bar_get_modes           (PalOptionsBar *self);
void        pal_options_bar_set_modes           (PalOptionsBar *self,
                                                 GListModel    *modes);
const char *pal_options_bar_get_current_mode_id (PalOptionsBar *self);
void        pal_options_bar_set_current_mode_id (PalOptionsBar *self,
                                                 const char    *mode_id);
/* AcpConfigOption items; nullable */
GListModel *pal_options_bar_get_config_options  (PalOptionsBar *self);
void        pal_options_bar_set_config_options  (PalOptionsBar *self,
                                                 GListModel    *config_options);
void        pal_options_bar_revert              (PalOptionsBar *self);

G_END_DECLS
