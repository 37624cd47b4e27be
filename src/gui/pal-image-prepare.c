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
#include "pal-image-decode.h"
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

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GBytes) data = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  g_autofree char *format = NULL;
  g_autoptr(GError) error = NULL;
  gboolean jpeg, png, turned = FALSE;
  const char *mime_type;
  int width, height, own_width = 0, own_height = 0;

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

  /* scaled down as it is read */
  scaled = pal_image_load (data, PAL_IMAGE_MAX_SIDE, PAL_IMAGE_MAX_SIDE, &own_width, &own_height,
                           &turned, &format, &error);
  if (scaled == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  jpeg = g_strcmp0 (format, "jpeg") == 0;
  png = g_strcmp0 (format, "png") == 0;
  width = gdk_pixbuf_get_width (scaled);
  height = gdk_pixbuf_get_height (scaled);
  mime_type = jpeg ? "image/jpeg" : "image/png";
  if (width == own_width && height == own_height && !turned && (jpeg || png))
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
  g_autoptr(GdkPixbuf) scaled = NULL;
  g_autoptr(GError) error = NULL;

  scaled = pal_image_load (job->data, job->size, job->size, NULL, NULL, NULL, NULL, &error);
  if (scaled == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
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
