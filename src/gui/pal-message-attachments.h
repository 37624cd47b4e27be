/* pal-message-attachments.h: what was attached to a message: chips and thumbnails
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "acp-content-block.h"

G_BEGIN_DECLS

#define PAL_TYPE_MESSAGE_ATTACHMENTS (pal_message_attachments_get_type ())

G_DECLARE_FINAL_TYPE (PalMessageAttachments, pal_message_attachments, PAL, MESSAGE_ATTACHMENTS, GtkWidget)

GtkWidget  *pal_message_attachments_new               (void);
void        pal_message_attachments_set_model         (PalMessageAttachments *self,
                                                    GListModel         *attachments);
GListModel *pal_message_attachments_get_model         (PalMessageAttachments *self);
guint       pal_message_attachments_get_n_decoding    (PalMessageAttachments *self);
GtkWidget  *pal_message_attachments_get_chip          (PalMessageAttachments *self,
                                                    guint               position);
const char *pal_message_attachments_get_chip_name     (GtkWidget          *chip);

/* What a chip of @block shows: the file's name (transfer full) */
char       *pal_attachment_dup_display_name        (AcpContentBlock    *block);
/* Whether a chip of @block opens what it points at */
gboolean    pal_attachment_can_open                (AcpContentBlock    *block);

G_END_DECLS
