/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "pal-application.h"
#include "pal-renderer.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PalApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* without a GPU, software OpenGL draws each frame several times slower
   * than cairo */
  pal_renderer_choose ("/dev/dri");

  app = pal_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
