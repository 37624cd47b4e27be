/* test-renderer.c: the cairo renderer without a GPU, unless one was chosen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "pal-renderer.h"

static void
touch (const char *dir,
       const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
}

static void
test_choose (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dri = g_dir_make_tmp ("palaver-dri-XXXXXX", &error);
  g_autofree char *missing = g_build_filename (dri, "no-such-folder", NULL);
  g_autofree char *card = g_build_filename (dri, "card0", NULL);
  g_autofree char *render = g_build_filename (dri, "renderD128", NULL);
  /* up to GTK 4.13 (see pal-renderer.c) */
  gboolean gl_flag = gtk_get_minor_version () < 14;

  g_assert_no_error (error);

  /* no GPU at all: cairo, and GTK 4.8 does not load OpenGL either */
  g_unsetenv ("GSK_RENDERER");
  g_unsetenv ("GDK_DEBUG");
  g_assert_true (pal_renderer_choose (missing));
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, gl_flag ? "gl-disable" : NULL);

  /* a display card without a render node (no 3D): cairo; other GDK_DEBUG
   * flags stay */
  g_unsetenv ("GSK_RENDERER");
  g_setenv ("GDK_DEBUG", "events", TRUE);
  touch (dri, "card0");
  g_assert_true (pal_renderer_choose (dri));
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, gl_flag ? "events,gl-disable" : "events");

  /* a render node: GTK chooses, as always */
  g_unsetenv ("GSK_RENDERER");
  g_unsetenv ("GDK_DEBUG");
  touch (dri, "renderD128");
  g_assert_false (pal_renderer_choose (dri));
  g_assert_null (g_getenv ("GSK_RENDERER"));
  g_assert_null (g_getenv ("GDK_DEBUG"));

  /* the person's choice stands, GPU or not */
  g_setenv ("GSK_RENDERER", "gl", TRUE);
  g_assert_false (pal_renderer_choose (missing));
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "gl");
  g_assert_null (g_getenv ("GDK_DEBUG"));

  g_unsetenv ("GSK_RENDERER");
  g_unlink (render);
  g_unlink (card);
  g_rmdir (dri);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/renderer/choose", test_choose);

  return g_test_run ();
}
