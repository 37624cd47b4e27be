/* pal-attachment-bar.h: the row of what is attached to the prompt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PAL_TYPE_ATTACHMENT_BAR (pal_attachment_bar_get_type ())

G_DECLARE_FINAL_TYPE (PalAttachmentBar, pal_attachment_bar, PAL, ATTACHMENT_BAR, GtkWidget)

/* @attachments: the PalAttachment items shown; a remove button takes them
 * out of it */
GtkWidget *pal_attachment_bar_new                (GListStore       *attachments);
void       pal_attachment_bar_set_accepts_images (PalAttachmentBar *self,
                                                  gboolean          accepts);
gboolean   pal_attachment_bar_get_accepts_images (PalAttachmentBar *self);
/* Whether it says that an image will not be sent */
gboolean   pal_attachment_bar_get_refusing       (PalAttachmentBar *self);

G_END_DECLS
