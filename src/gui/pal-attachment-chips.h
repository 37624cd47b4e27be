/* pal-attachment-chips.h: what was attached to a message: chips and thumbnails
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "acp-content-block.h"

G_BEGIN_DECLS

#define PAL_TYPE_ATTACHMENT_CHIPS (pal_attachment_chips_get_type ())

G_DECLARE_FINAL_TYPE (PalAttachmentChips, pal_attachment_chips, PAL, ATTACHMENT_CHIPS, GtkWidget)

GtkWidget  *pal_attachment_chips_new               (void);
void        pal_attachment_chips_set_model         (PalAttachmentChips *self,
                                                    GListModel         *attachments);
GListModel *pal_attachment_chips_get_model         (PalAttachmentChips *self);
guint       pal_attachment_chips_get_n_decoding    (PalAttachmentChips *self);
GtkWidget  *pal_attachment_chips_get_chip          (PalAttachmentChips *self,
                                                    guint               position);
const char *pal_attachment_chips_get_chip_name     (GtkWidget          *chip);

/* What a chip of @block shows: the file's name (transfer full) */
char       *pal_attachment_dup_display_name        (AcpContentBlock    *block);
/* Whether a chip of @block opens what it points at */
gboolean    pal_attachment_can_open                (AcpContentBlock    *block);

G_END_DECLS
