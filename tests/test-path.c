/* test-path.c: paths shown relative to the project folder or home
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-path.h"

static void
check (const char *path,
       const char *folder,
       const char *home,
       const char *expected)
{
  g_autofree char *shown = pal_path_display (path, folder, home);

  g_assert_cmpstr (shown, ==, expected);
}

static void
test_display (void)
{
  const char *home = "/home/ada";
  const char *folder = "/home/ada/src/hello";

  /* in the project: relative to it */
  check ("/home/ada/src/hello/README.md", folder, home, "README.md");
  check ("/home/ada/src/hello/src/main.c", folder, home, "src/main.c");
  check ("/home/ada/src/hello/src/main.c", "/home/ada/src/hello/", home, "src/main.c");
  check ("/home/ada/src/hello//doubled", folder, home, "doubled");

  /* the folder itself, a sibling with the same start, elsewhere in home */
  check ("/home/ada/src/hello", folder, home, "~/src/hello");
  check ("/home/ada/src/hello-world/a.c", folder, home, "~/src/hello-world/a.c");
  check ("/home/ada/.bashrc", folder, home, "~/.bashrc");

  /* outside home; no folder or home; relative or odd paths as they are */
  check ("/etc/hosts", folder, home, "/etc/hosts");
  check ("/home/ada/src/hello/a.c", NULL, NULL, "/home/ada/src/hello/a.c");
  check ("/home/ada/src/hello/a.c", "/", "/", "/home/ada/src/hello/a.c");
  check ("src/main.c", folder, home, "src/main.c");
  check ("", folder, home, "");
  check ("/home/ada/src/hello/a.c", "relative/folder", home, "~/src/hello/a.c");
  check (NULL, folder, home, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/path/display", test_display);

  return g_test_run ();
}
