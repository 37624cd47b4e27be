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

/* The image's size is known: a thumbnail is scaled while it is loaded */
static void
size_prepared_cb (GdkPixbufLoader *loader,
                  int              width,
                  int              height,
                  Decode          *decode)
{
  double scale = 1.0;

  decode->width = width;
  decode->height = height;
  if (width <= 0 || height <= 0)
    return;
  if (decode->max_width > 0)
    scale = MIN (scale, (double) decode->max_width / width);
  if (decode->max_height > 0)
    scale = MIN (scale, (double) decode->max_height / height);
  scale = MIN (scale, (double) MAX_SIDE / MAX (width, height));
  if (scale < 1.0)
    gdk_pixbuf_loader_set_size (loader, MAX (1, (int) (width * scale)), MAX (1, (int) (height * scale)));
}

static void
decode_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Decode *decode = task_data;
  const char *data = acp_content_block_get_data (decode->block);
  g_autoptr(GdkPixbufLoader) loader = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) close_error = NULL;
  g_autofree guchar *bytes = NULL;
  gboolean written;
  gsize length = 0;
  GdkPixbuf *pixbuf;

  if (data == NULL || *data == '\0')
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The image has no data"));
      return;
    }

  bytes = g_base64_decode (data, &length);
  if (g_task_return_error_if_cancelled (task))
    return;
  if (length == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The image has no data"));
      return;
    }

  loader = gdk_pixbuf_loader_new ();
  g_signal_connect (loader, "size-prepared", G_CALLBACK (size_prepared_cb), decode);
  /* a write that fails closes the loader; otherwise it is closed here (a
   * loader left open complains when it goes) */
  written = gdk_pixbuf_loader_write (loader, bytes, length, &error);
  if (written && !gdk_pixbuf_loader_close (loader, &close_error))
    {
      g_propagate_error (&error, g_steal_pointer (&close_error));
      written = FALSE;
    }
  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (!written || pixbuf == NULL || decode->width <= 0 || decode->height <= 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("The image cannot be read: %s"),
                               error != NULL ? error->message : _("no image in the data"));
      return;
    }

  g_task_return_pointer (task, gdk_texture_new_for_pixbuf (pixbuf), g_object_unref);
}

/**
 * pal_image_decode_async:
 * @block: an image block
 * @max_width: the width in pixels to scale a wider image down to, or 0
 * @max_height: the height in pixels to scale a taller image down to, or 0
 *   (both 0: the image as it is)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the thread-default main context when it is done
 * @user_data: for @callback
 *
 * Decodes the image of @block on a worker thread.
 */
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
