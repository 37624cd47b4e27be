/* pal-renderer.c: which renderer GTK draws the windows with
 *
 * Without a GPU, GTK 4.8's default renderer (OpenGL) runs on Mesa's
 * software rasteriser, llvmpipe: each frame is drawn by the processor
 * through OpenGL, several times slower than GTK's cairo renderer draws the
 * same frame (on the benchmark machine, 55–70 ms against 10–14 ms a frame
 * while an answer streams in; see bench/README.md). So when the system has
 * no GPU render node, the cairo renderer is asked for, unless the person
 * chose a renderer with GSK_RENDERER.
 *
 * GTK 4.8 also opens OpenGL as soon as it opens an X11 display (to choose
 * the windows' visual), which loads Mesa and llvmpipe: about 50 ms of CPU
 * at every start on the benchmark machine (bench/bench-startup.c), for a
 * renderer that is not used. Where the cairo renderer is chosen here, GDK
 * is told not to use OpenGL at all (GDK_DEBUG=gl-disable).
 *
 * For GTK 4.8 (Debian 12): GTK 4.14 came with new GL renderers, and later
 * versions changed how OpenGL is switched off; measure them with bench/
 * before dropping this or extending it to them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "pal-renderer.h"

static gboolean
has_render_node (const char *dri_dir)
{
  g_autoptr(GDir) dir = g_dir_open (dri_dir, 0, NULL);
  const char *name;

  if (dir == NULL)
    return FALSE;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_prefix (name, "renderD"))
        return TRUE;
    }

  return FALSE;
}

/* GTK 4.8 to 4.13 read GDK_DEBUG=gl-disable in release builds too. */
static void
disable_gl (void)
{
  const char *debug = g_getenv ("GDK_DEBUG");
  g_autofree char *value = NULL;

  if (gtk_get_major_version () != 4 || gtk_get_minor_version () >= 14)
    return;
  if (debug != NULL && strstr (debug, "gl-disable") != NULL)
    return;

  value = debug != NULL && *debug != '\0' ? g_strconcat (debug, ",gl-disable", NULL)
                                          : g_strdup ("gl-disable");
  g_setenv ("GDK_DEBUG", value, TRUE);
}

/**
 * pal_renderer_choose:
 * @dri_dir: where the system lists its GPUs' device nodes, "/dev/dri"
 *
 * Sets GSK_RENDERER to "cairo" when it is not set and @dri_dir holds no
 * render node, and then keeps GTK 4.8 from loading OpenGL (GDK_DEBUG). Call
 * before GTK is initialised; it reads a directory of device nodes, at
 * start-up, before any window.
 *
 * Returns: whether the cairo renderer was chosen here
 */
gboolean
pal_renderer_choose (const char *dri_dir)
{
  g_return_val_if_fail (dri_dir != NULL, FALSE);

  if (g_getenv ("GSK_RENDERER") != NULL || has_render_node (dri_dir))
    return FALSE;

  g_debug ("No GPU render node in %s: drawing with the cairo renderer", dri_dir);
  disable_gl ();
  return g_setenv ("GSK_RENDERER", "cairo", FALSE);
}
