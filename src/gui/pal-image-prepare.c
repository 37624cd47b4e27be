/* pal-image-prepare.c: images made ready to go with a prompt
 *
 * An image attached (a file, or data pasted) is decoded, scaled down so
 * that its longest side is at most PAL_IMAGE_MAX_SIDE pixels, turned
 * upright when its EXIF data says so, and encoded again: as JPEG when it
 * was one, else as PNG. An image that needs none of this goes as it came.
 * All of it runs on a worker thread; so does making the thumbnail that the
 * composer shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-image-prepare.h"

/* Larger files are not read at all */
#define MAX_FILE_SIZE (64 * 1024 * 1024)

typedef struct
{
  GBytes     *data;     /* nullable: read from source */
  GFile      *source;   /* nullable: pasted data */
  GdkTexture *texture;  /* nullable: pasted data not encoded yet */
  int         size;     /* thumbnails */
} Job;

static void
job_free (Job *job)
{
  g_clear_pointer (&job->data, g_bytes_unref);
  g_clear_object (&job->source);
  g_clear_object (&job->texture);
  g_free (job);
}

static GBytes *
read_source (GFile         *file,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  char *contents = NULL;
  gsize length = 0;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                            cancellable, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_size (info) > MAX_FILE_SIZE)
    {
      g_autofree char *limit = g_format_size (MAX_FILE_SIZE);

      /* Translators: %s is a size such as "67.1 MB" */
      g_set_error (error, PAL_ERROR, PAL_ERROR_FAILED, _("The image is larger than %s."), limit);
      return NULL;
    }
  if (!g_file_load_contents (file, cancellable, &contents, &length, NULL, error))
    return NULL;

  return g_bytes_new_take (contents, length);
}

/* Decodes @data, telling its format's name ("png", "jpeg") */
static GdkPixbuf *
decode (GBytes      *data,
        char       **format_name,
        GError     **error)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autoptr(GError) local_error = NULL;
  GdkPixbufFormat *format;
  GdkPixbuf *pixbuf;

  if (!gdk_pixbuf_loader_write_bytes (loader, data, &local_error) ||
      !gdk_pixbuf_loader_close (loader, &local_error))
    {
      /* the loader's own message names a library, not the file */
      g_debug ("Could not decode an image: %s", local_error->message);
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_FAILED, _("This is not an image that can be read."));
      return NULL;
    }

  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_FAILED, _("This is not an image that can be read."));
      return NULL;
    }

  format = gdk_pixbuf_loader_get_format (loader);
  if (format_name != NULL)
    *format_name = format != NULL ? gdk_pixbuf_format_get_name (format) : NULL;

  return g_object_ref (pixbuf);
}

/* The size that fits @width × @height into a square of @side */
static void
fit (int  width,
     int  height,
     int  side,
     int *out_width,
     int *out_height)
{
  double scale;

  if (width <= side && height <= side)
    {
      *out_width = width;
      *out_height = height;
      return;
    }

  scale = (double) side / MAX (width, height);
  *out_width = CLAMP ((int) (width * scale + 0.5), 1, side);
  *out_height = CLAMP ((int) (height * scale + 0.5), 1, side);
}

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GBytes) data = NULL;
  g_autoptr(GdkPixbuf) decoded = NULL;
  g_autoptr(GdkPixbuf) upright = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  g_autofree char *format = NULL;
  g_autoptr(GError) error = NULL;
  gboolean jpeg, png, turned;
  const char *mime_type;
  int width, height;

  if (job->texture != NULL)
    data = gdk_texture_save_to_png_bytes (job->texture);
  else if (job->data != NULL)
    data = g_bytes_ref (job->data);
  else
    data = read_source (job->source, cancellable, &error);
  if (data == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  decoded = decode (data, &format, &error);
  if (decoded == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  jpeg = g_strcmp0 (format, "jpeg") == 0;
  png = g_strcmp0 (format, "png") == 0;
  upright = gdk_pixbuf_apply_embedded_orientation (decoded);
  turned = upright != decoded;
  fit (gdk_pixbuf_get_width (upright), gdk_pixbuf_get_height (upright), PAL_IMAGE_MAX_SIDE,
       &width, &height);

  if (width == gdk_pixbuf_get_width (upright) && height == gdk_pixbuf_get_height (upright))
    scaled = g_object_ref (upright);
  else
    scaled = gdk_pixbuf_scale_simple (upright, width, height, GDK_INTERP_BILINEAR);
  if (scaled == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("Out of memory."));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  mime_type = jpeg ? "image/jpeg" : "image/png";
  if (scaled == upright && !turned && (jpeg || png))
    {
      /* as it came */
    }
  else
    {
      char *buffer = NULL;
      gsize length = 0;
      gboolean saved;

      if (jpeg)
        saved = gdk_pixbuf_save_to_buffer (scaled, &buffer, &length, "jpeg", &error,
                                           "quality", "90", NULL);
      else
        saved = gdk_pixbuf_save_to_buffer (scaled, &buffer, &length, "png", &error, NULL);
      if (!saved)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_bytes_unref (data);
      data = g_bytes_new_take (buffer, length);
    }

  g_task_return_pointer (task,
                         pal_attachment_new_image (data, mime_type, width, height, job->source),
                         g_object_unref);
}

static void
start_prepare (Job                 *job,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, pal_image_prepare_async);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, prepare_thread);
}

/**
 * pal_image_prepare_async:
 * @data: (nullable): the encoded image; %NULL to read @source
 * @source: (nullable): the file it comes from
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the attachment
 * @user_data: for @callback
 *
 * Makes an image attachment of @data (or of the file @source), scaled
 * down to PAL_IMAGE_MAX_SIDE, on a worker thread.
 */
void
pal_image_prepare_async (GBytes              *data,
                         GFile               *source,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  Job *job;

  g_return_if_fail (data != NULL || G_IS_FILE (source));
  g_return_if_fail (source == NULL || G_IS_FILE (source));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  job = g_new0 (Job, 1);
  job->data = data != NULL ? g_bytes_ref (data) : NULL;
  job->source = source != NULL ? g_object_ref (source) : NULL;
  start_prepare (job, cancellable, callback, user_data);
}

/**
 * pal_image_prepare_texture_async:
 * @texture: an image pasted
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the attachment
 * @user_data: for @callback
 *
 * As pal_image_prepare_async(), for an image that is not encoded yet.
 */
void
pal_image_prepare_texture_async (GdkTexture          *texture,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  Job *job;

  g_return_if_fail (GDK_IS_TEXTURE (texture));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  job = g_new0 (Job, 1);
  job->texture = g_object_ref (texture);
  start_prepare (job, cancellable, callback, user_data);
}

/**
 * pal_image_prepare_finish:
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: (transfer full): an image attachment, or %NULL when the image
 *   could not be read
 */
PalAttachment *
pal_image_prepare_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_image_prepare_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
thumbnail_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GdkPixbuf) decoded = NULL;
  g_autoptr(GdkPixbuf) upright = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  g_autoptr(GError) error = NULL;
  int width, height;

  decoded = decode (job->data, NULL, &error);
  if (decoded == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  upright = gdk_pixbuf_apply_embedded_orientation (decoded);
  fit (gdk_pixbuf_get_width (upright), gdk_pixbuf_get_height (upright), job->size, &width, &height);
  scaled = gdk_pixbuf_scale_simple (upright, width, height, GDK_INTERP_BILINEAR);
  if (scaled == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("Out of memory."));
      return;
    }

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_task_return_pointer (task, gdk_texture_new_for_pixbuf (scaled), g_object_unref);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

/**
 * pal_image_thumbnail_async:
 * @data: an encoded image
 * @size: the side of the square the thumbnail fits in, in pixels
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the thumbnail
 * @user_data: for @callback
 *
 * Makes a small picture of @data on a worker thread.
 */
void
pal_image_thumbnail_async (GBytes              *data,
                           int                  size,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (data != NULL);
  g_return_if_fail (size > 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  job = g_new0 (Job, 1);
  job->data = g_bytes_ref (data);
  job->size = size;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_image_thumbnail_async);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, thumbnail_thread);
}

/**
 * pal_image_thumbnail_finish:
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: (transfer full): the thumbnail, or %NULL
 */
GdkTexture *
pal_image_thumbnail_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_image_thumbnail_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
