/* pal-image-prepare.h: images made ready to go with a prompt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pal-attachment.h"

G_BEGIN_DECLS

/* The longest side of an image sent, in pixels */
#define PAL_IMAGE_MAX_SIDE 2048

void           pal_image_prepare_async          (GBytes         *data,
                                                 GFile          *source,
                                                 GCancellable   *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer        user_data);
void           pal_image_prepare_texture_async  (GdkTexture     *texture,
                                                 GCancellable   *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer        user_data);
PalAttachment *pal_image_prepare_finish         (GAsyncResult   *result,
                                                 GError        **error);
void           pal_image_thumbnail_async        (GBytes         *data,
                                                 int             size,
                                                 GCancellable   *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer        user_data);
GdkTexture    *pal_image_thumbnail_finish       (GAsyncResult   *result,
                                                 GError        **error);

G_END_DECLS
