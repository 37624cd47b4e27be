/* pal-image-decode.h: an image block's base64 data into a texture, off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "acp-content-block.h"

G_BEGIN_DECLS

/* For worker threads: @data decoded at most @max_width × @max_height (0:
 * no bound of its own; never more than 8,192 px a side), turned upright */
GdkPixbuf  *pal_image_load             (GBytes               *data,
                                        int                   max_width,
                                        int                   max_height,
                                        int                  *width,
                                        int                  *height,
                                        gboolean             *turned,
                                        char                **format,
                                        GError              **error);

void        pal_image_decode_async     (AcpContentBlock      *block,
                                        int                   max_width,
                                        int                   max_height,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
GdkTexture *pal_image_decode_finish    (GAsyncResult         *result,
                                        int                  *width,
                                        int                  *height,
                                        GError              **error);

G_END_DECLS
