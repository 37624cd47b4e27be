/* pal-message-row.h: a user, agent or thought message of the chat
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-message-item.h"
#include "pal-message-attachments.h"
#include "pal-block-model.h"

G_BEGIN_DECLS

#define PAL_TYPE_MESSAGE_ROW (pal_message_row_get_type ())

G_DECLARE_FINAL_TYPE (PalMessageRow, pal_message_row, PAL, MESSAGE_ROW, AdwBin)

GtkWidget      *pal_message_row_new         (AcpMessageItem  *item);
GtkWidget      *pal_message_row_new_block   (PalMessageBlock *block);
AcpMessageItem *pal_message_row_get_item    (PalMessageRow   *self);
void            pal_message_row_flush       (PalMessageRow   *self);
gboolean        pal_message_row_get_lagging (PalMessageRow   *self);
void            pal_message_row_copy        (PalMessageRow   *self);
GtkWidget      *pal_message_row_get_copy_button   (PalMessageRow *self);
GtkWidget      *pal_message_row_get_resend_button (PalMessageRow *self);
PalMessageAttachments *pal_message_row_get_attachments (PalMessageRow *self);

G_END_DECLS
