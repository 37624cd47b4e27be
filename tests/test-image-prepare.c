/* test-image-prepare.c: images scaled down and encoded for a prompt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "pal-image-prepare.h"
#include "test-util.h"

/* An image of @width × @height, encoded as @format ("png", "jpeg") */
static GBytes *
make_image (int         width,
            int         height,
            const char *format)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GError) error = NULL;
  char *buffer = NULL;
  gsize length = 0;

  gdk_pixbuf_fill (pixbuf, 0x3366ccff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &length, format, &error, NULL));
  g_assert_no_error (error);

  return g_bytes_new_take (buffer, length);
}

/* What the encoded @data decodes to */
static void
assert_decodes (GBytes     *data,
                const char *format,
                int         width,
                int         height)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autoptr(GError) error = NULL;
  GdkPixbuf *pixbuf;
  g_autofree char *name = NULL;

  g_assert_true (gdk_pixbuf_loader_write_bytes (loader, data, &error));
  g_assert_true (gdk_pixbuf_loader_close (loader, &error));
  g_assert_no_error (error);
  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  name = gdk_pixbuf_format_get_name (gdk_pixbuf_loader_get_format (loader));
  g_assert_cmpstr (name, ==, format);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, width);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, height);
}

static PalAttachment *
prepare (GBytes *data,
         GFile  *source)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_image_prepare_async (data, source, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);

  return pal_image_prepare_finish (result, NULL);
}

static void
test_scaled_png (void)
{
  g_autoptr(GBytes) data = make_image (4000, 3000, "png");
  g_autoptr(PalAttachment) attachment = prepare (data, NULL);

  g_assert_nonnull (attachment);
  g_assert_cmpint (pal_attachment_get_kind (attachment), ==, PAL_ATTACHMENT_IMAGE);
  g_assert_cmpint (pal_attachment_get_width (attachment), ==, 2048);
  g_assert_cmpint (pal_attachment_get_height (attachment), ==, 1536);
  g_assert_cmpstr (pal_attachment_get_mime_type (attachment), ==, "image/png");
  assert_decodes (pal_attachment_get_data (attachment), "png", 2048, 1536);
}

static void
test_scaled_jpeg (void)
{
  g_autoptr(GBytes) data = make_image (3000, 4000, "jpeg");
  g_autoptr(PalAttachment) attachment = prepare (data, NULL);

  /* a photo stays a JPEG */
  g_assert_nonnull (attachment);
  g_assert_cmpint (pal_attachment_get_width (attachment), ==, 1536);
  g_assert_cmpint (pal_attachment_get_height (attachment), ==, 2048);
  g_assert_cmpstr (pal_attachment_get_mime_type (attachment), ==, "image/jpeg");
  assert_decodes (pal_attachment_get_data (attachment), "jpeg", 1536, 2048);
}

static void
test_small_as_is (void)
{
  g_autoptr(GBytes) data = make_image (640, 480, "png");
  g_autoptr(PalAttachment) attachment = prepare (data, NULL);

  g_assert_nonnull (attachment);
  g_assert_cmpint (pal_attachment_get_width (attachment), ==, 640);
  g_assert_cmpint (pal_attachment_get_height (attachment), ==, 480);
  g_assert_true (g_bytes_equal (pal_attachment_get_data (attachment), data));
}

static void
test_from_file (void)
{
  g_autofree char *dir = test_make_tmpdir ("test-image-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "shot.png", NULL);
  g_autoptr(GBytes) data = make_image (2100, 100, "png");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PalAttachment) attachment = NULL;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (data, NULL), g_bytes_get_size (data), &error);
  g_assert_no_error (error);
  attachment = prepare (NULL, file);
  g_assert_nonnull (attachment);
  g_assert_cmpstr (pal_attachment_get_name (attachment), ==, "shot.png");
  g_assert_true (g_file_equal (pal_attachment_get_file (attachment), file));
  g_assert_cmpint (pal_attachment_get_width (attachment), ==, 2048);
  g_assert_cmpint (pal_attachment_get_height (attachment), ==, 98);
}

static void
test_texture (void)
{
  g_autoptr(GBytes) data = make_image (3000, 3000, "png");
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_bytes (data, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(PalAttachment) attachment = NULL;

  pal_image_prepare_texture_async (texture, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  attachment = pal_image_prepare_finish (result, NULL);
  g_assert_nonnull (attachment);
  g_assert_null (pal_attachment_get_file (attachment));
  g_assert_cmpstr (pal_attachment_get_name (attachment), ==, "Image");
  assert_decodes (pal_attachment_get_data (attachment), "png", 2048, 2048);
}

static void
test_not_an_image (void)
{
  g_autoptr(GBytes) data = g_bytes_new_static ("#include <stdio.h>\n", 19);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(PalAttachment) attachment = NULL;
  g_autoptr(GError) error = NULL;

  pal_image_prepare_async (data, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  attachment = pal_image_prepare_finish (result, &error);
  g_assert_null (attachment);
  g_assert_nonnull (error);
}

static void
test_thumbnail (void)
{
  g_autoptr(GBytes) data = make_image (400, 200, "png");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GdkTexture) thumbnail = NULL;

  pal_image_thumbnail_async (data, 48, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  thumbnail = pal_image_thumbnail_finish (result, NULL);
  g_assert_nonnull (thumbnail);
  g_assert_cmpint (gdk_texture_get_width (thumbnail), ==, 48);
  g_assert_cmpint (gdk_texture_get_height (thumbnail), ==, 24);
}

static void
test_cancelled (void)
{
  g_autoptr(GBytes) data = make_image (100, 100, "png");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  pal_image_prepare_async (data, NULL, cancellable, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_null (pal_image_prepare_finish (result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/image-prepare/scaled-png", test_scaled_png);
  g_test_add_func ("/image-prepare/scaled-jpeg", test_scaled_jpeg);
  g_test_add_func ("/image-prepare/small-as-is", test_small_as_is);
  g_test_add_func ("/image-prepare/from-file", test_from_file);
  g_test_add_func ("/image-prepare/texture", test_texture);
  g_test_add_func ("/image-prepare/not-an-image", test_not_an_image);
  g_test_add_func ("/image-prepare/thumbnail", test_thumbnail);
  g_test_add_func ("/image-prepare/cancelled", test_cancelled);

  return g_test_run ();
}
