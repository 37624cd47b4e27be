/* pal-image-decode.c: an image block's base64 data into a texture, off the main thread
 *
 * An image a person attached or an agent replayed can be megabytes of
 * base64: decoding it and the image in it is done on a worker thread, and
 * what is not an image (damaged data, a type no loader knows) is an error,
 * never a crash.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-image-decode.h"

/* Whatever the size asked for, no side is decoded larger than this: an
 * agent's 100,000-pixel-wide image would take gigabytes, and no screen
 * shows more */
#define MAX_SIDE 8192

typedef struct
{
  int max_width;
  int max_height;
  int width;      /* of the image itself */
  int height;
} Bounds;

static void
size_prepared_cb (GdkPixbufLoader *loader,
                  int              width,
                  int              height,
                  Bounds          *bounds)
{
  double scale = 1.0;

  bounds->width = width;
  bounds->height = height;
  if (width <= 0 || height <= 0)
    return;
  if (bounds->max_width > 0)
    scale = MIN (scale, (double) bounds->max_width / width);
  if (bounds->max_height > 0)
    scale = MIN (scale, (double) bounds->max_height / height);
  scale = MIN (scale, (double) MAX_SIDE / MAX (width, height));
  if (scale < 1.0)
    gdk_pixbuf_loader_set_size (loader, MAX (1, (int) (width * scale + 0.5)),
                                MAX (1, (int) (height * scale + 0.5)));
}

/**
 * pal_image_load:
 * @data: an encoded image
 * @max_width: the widest to decode it, 0 for no bound of its own
 * @max_height: the tallest, likewise
 * @width: (out) (optional): the image's own width
 * @height: (out) (optional): its own height
 * @turned: (out) (optional): whether its EXIF data turned it upright
 * @format: (out) (optional) (transfer full): its format's name ("png")
 * @error: return location for an error
 *
 * Decodes @data, scaled down while it is read (a huge image never takes
 * its whole size in memory), and turns it upright. Blocks: call it on a
 * worker thread.
 *
 * Returns: (transfer full): the image, or %NULL with @error set
 */
GdkPixbuf *
pal_image_load (GBytes    *data,
                int        max_width,
                int        max_height,
                int       *width,
                int       *height,
                gboolean  *turned,
                char     **format,
                GError   **error)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autoptr(GError) local_error = NULL;
  Bounds bounds = { max_width, max_height, 0, 0 };
  GdkPixbufFormat *found;
  GdkPixbuf *pixbuf;
  GdkPixbuf *upright;
  gboolean written;

  g_return_val_if_fail (data != NULL, NULL);

  g_signal_connect (loader, "size-prepared", G_CALLBACK (size_prepared_cb), &bounds);
  /* a write that fails closes the loader; otherwise it is closed here (a
   * loader left open complains when it goes) */
  written = gdk_pixbuf_loader_write_bytes (loader, data, &local_error);
  if (written && !gdk_pixbuf_loader_close (loader, &local_error))
    written = FALSE;
  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (!written || pixbuf == NULL || bounds.width <= 0 || bounds.height <= 0)
    {
      /* the loader's own message names a library, not the image */
      if (local_error != NULL)
        g_debug ("Could not decode an image: %s", local_error->message);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("This is not an image that can be read."));
      return NULL;
    }

  found = gdk_pixbuf_loader_get_format (loader);
  if (format != NULL)
    *format = found != NULL ? gdk_pixbuf_format_get_name (found) : NULL;

  upright = gdk_pixbuf_apply_embedded_orientation (pixbuf);
  if (turned != NULL)
    *turned = upright != pixbuf;
  /* a quarter turn: its own size, upright */
  if (gdk_pixbuf_get_width (upright) != gdk_pixbuf_get_width (pixbuf))
    {
      int swap = bounds.width;

      bounds.width = bounds.height;
      bounds.height = swap;
    }
  if (width != NULL)
    *width = bounds.width;
  if (height != NULL)
    *height = bounds.height;

  return upright;
}

typedef struct
{
  AcpContentBlock *block;
  int              max_width;
  int              max_height;
  int              width;      /* of the image itself */
  int              height;
} Decode;

static void
decode_free (gpointer data)
{
  Decode *decode = data;

  g_clear_object (&decode->block);
  g_free (decode);
}

static void
decode_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Decode *decode = task_data;
  const char *data = acp_content_block_get_data (decode->block);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  GError *error = NULL;
  guchar *decoded;
  gsize length = 0;

  if (data == NULL || *data == '\0')
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The image has no data"));
      return;
    }

  decoded = g_base64_decode (data, &length);
  bytes = g_bytes_new_take (decoded, length);
  if (g_task_return_error_if_cancelled (task))
    return;
  if (length == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The image has no data"));
      return;
    }

  pixbuf = pal_image_load (bytes, decode->max_width, decode->max_height,
                           &decode->width, &decode->height, NULL, NULL, &error);
  if (pixbuf == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, gdk_texture_new_for_pixbuf (pixbuf), g_object_unref);
}

void
pal_image_decode_async (AcpContentBlock     *block,
                        int                  max_width,
                        int                  max_height,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Decode *decode;

  g_return_if_fail (ACP_IS_CONTENT_BLOCK (block));
  g_return_if_fail (max_width >= 0 && max_height >= 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_image_decode_async);
  decode = g_new0 (Decode, 1);
  decode->block = g_object_ref (block);   /* immutable: read on the thread */
  decode->max_width = max_width;
  decode->max_height = max_height;
  g_task_set_task_data (task, decode, decode_free);
  g_task_run_in_thread (task, decode_thread);
}

/**
 * pal_image_decode_finish:
 * @result: the result given to the callback
 * @width: (out) (optional): the image's own width
 * @height: (out) (optional): the image's own height
 * @error: return location for an error
 *
 * Returns: (transfer full): the image, scaled down if it was asked to be
 */
GdkTexture *
pal_image_decode_finish (GAsyncResult  *result,
                         int           *width,
                         int           *height,
                         GError       **error)
{
  Decode *decode;
  GdkTexture *texture;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_image_decode_async, NULL);

  texture = g_task_propagate_pointer (G_TASK (result), error);
  decode = g_task_get_task_data (G_TASK (result));
  if (width != NULL)
    *width = texture != NULL ? decode->width : 0;
  if (height != NULL)
    *height = texture != NULL ? decode->height : 0;

  return texture;
}
