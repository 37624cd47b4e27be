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
 * For GTK 4.8 (Debian 12): GTK 4.14 came with new GL renderers; measure them
 * with bench/ before dropping this.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

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

/**
 * pal_renderer_choose:
 * @dri_dir: where the system lists its GPUs' device nodes, "/dev/dri"
 *
 * Sets GSK_RENDERER to "cairo" when it is not set and @dri_dir holds no
 * render node. Call before GTK is initialised; it reads a directory of
 * device nodes, at start-up, before any window.
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
  return g_setenv ("GSK_RENDERER", "cairo", FALSE);
}
