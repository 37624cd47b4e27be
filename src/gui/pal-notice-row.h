/* pal-notice-row.h: a notice, an error, or an update the client does not know
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-item.h"

G_BEGIN_DECLS

#define PAL_TYPE_NOTICE_ROW (pal_notice_row_get_type ())

G_DECLARE_FINAL_TYPE (PalNoticeRow, pal_notice_row, PAL, NOTICE_ROW, AdwBin)

/* item is an AcpNoticeItem or an AcpGenericItem */
GtkWidget *pal_notice_row_new (AcpItem *item);

G_END_DECLS
