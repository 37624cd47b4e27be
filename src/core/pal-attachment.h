/* pal-attachment.h: a file, folder or image given with a prompt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  PAL_ATTACHMENT_FILE,
  PAL_ATTACHMENT_FOLDER,
  PAL_ATTACHMENT_IMAGE,
} PalAttachmentKind;

#define PAL_TYPE_ATTACHMENT (pal_attachment_get_type ())

G_DECLARE_FINAL_TYPE (PalAttachment, pal_attachment, PAL, ATTACHMENT, GObject)

PalAttachment    *pal_attachment_new_file      (GFile         *file);
PalAttachment    *pal_attachment_new_folder    (GFile         *folder);
PalAttachment    *pal_attachment_new_image     (GBytes        *data,
                                                const char    *mime_type,
                                                int            width,
                                                int            height,
                                                GFile         *source);
PalAttachmentKind pal_attachment_get_kind      (PalAttachment *self);
/* The file or folder; for an image, the file it came from (nullable) */
GFile            *pal_attachment_get_file      (PalAttachment *self);
/* What the person sees: the file's name, or "Image" for pasted data */
const char       *pal_attachment_get_name      (PalAttachment *self);
/* An image's encoded data and its type, else NULL */
GBytes           *pal_attachment_get_data      (PalAttachment *self);
const char       *pal_attachment_get_mime_type (PalAttachment *self);
int               pal_attachment_get_width     (PalAttachment *self);
int               pal_attachment_get_height    (PalAttachment *self);

G_END_DECLS
