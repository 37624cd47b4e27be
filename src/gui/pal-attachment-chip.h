/* pal-attachment-chip.h: one thing attached to the prompt being written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-attachment.h"

G_BEGIN_DECLS

#define PAL_TYPE_ATTACHMENT_CHIP (pal_attachment_chip_get_type ())

G_DECLARE_FINAL_TYPE (PalAttachmentChip, pal_attachment_chip, PAL, ATTACHMENT_CHIP, GtkWidget)

GtkWidget     *pal_attachment_chip_new            (PalAttachment     *attachment);
PalAttachment *pal_attachment_chip_get_attachment (PalAttachmentChip *self);
/* An image the agent does not take is marked */
void           pal_attachment_chip_set_refused    (PalAttachmentChip *self,
                                                   gboolean           refused);
gboolean       pal_attachment_chip_get_refused    (PalAttachmentChip *self);
/* The picture shown, once made, else NULL */
GdkPaintable  *pal_attachment_chip_get_thumbnail  (PalAttachmentChip *self);

G_END_DECLS
