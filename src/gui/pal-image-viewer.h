/* pal-image-viewer.h: an attached image, larger, in a window of its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-content-block.h"

G_BEGIN_DECLS

#define PAL_TYPE_IMAGE_VIEWER (pal_image_viewer_get_type ())

G_DECLARE_FINAL_TYPE (PalImageViewer, pal_image_viewer, PAL, IMAGE_VIEWER, AdwWindow)

GtkWidget  *pal_image_viewer_new         (GtkWindow       *parent,
                                          AcpContentBlock *block);
/* (nullable): the image, once decoded */
GdkTexture *pal_image_viewer_get_texture (PalImageViewer  *self);
gboolean    pal_image_viewer_get_failed  (PalImageViewer  *self);

G_END_DECLS
