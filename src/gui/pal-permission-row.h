/* pal-permission-row.h: a permission request of the agent, as a card
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-permission-item.h"

G_BEGIN_DECLS

#define PAL_TYPE_PERMISSION_ROW (pal_permission_row_get_type ())

G_DECLARE_FINAL_TYPE (PalPermissionRow, pal_permission_row, PAL, PERMISSION_ROW, AdwBin)

GtkWidget *pal_permission_row_new (AcpPermissionItem *item);

G_END_DECLS
