/* test-folders.c: a session's additional folders, refused, merged, cleaned
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-folders.h"

static char *
joined (GPtrArray *folders)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < folders->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? " " : "", (char *) g_ptr_array_index (folders, i));
  return g_string_free (text, FALSE);
}

static void
assert_folders (GPtrArray  *folders,
                const char *expected)
{
  g_autofree char *text = joined (folders);

  g_assert_cmpstr (text, ==, expected);
}

static void
assert_contains (const char *message,
                 const char *needle)
{
  g_assert_nonnull (message);
  if (strstr (message, needle) == NULL)
    g_error ("“%s” does not say “%s”", message, needle);
}

static void
test_contains (void)
{
  g_assert_true (pal_folder_contains ("/srv/app", "/srv/app"));
  g_assert_true (pal_folder_contains ("/srv/app", "/srv/app/lib/x.c"));
  g_assert_true (pal_folder_contains ("/srv/app/", "/srv/app//lib/"));
  g_assert_true (pal_folder_contains ("/srv/app", "/srv/other/../app/lib"));
  g_assert_true (pal_folder_contains ("/", "/etc"));
  /* a sibling with the same start is not inside */
  g_assert_false (pal_folder_contains ("/srv/app", "/srv/app-2"));
  g_assert_false (pal_folder_contains ("/srv/app/lib", "/srv/app"));
  g_assert_false (pal_folder_contains ("/srv/app", "/srv/app/../secret"));
  g_assert_false (pal_folder_contains ("srv/app", "srv/app/lib"));
  g_assert_false (pal_folder_contains (NULL, "/srv"));
}

static void
test_add (void)
{
  g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);
  const char *project = "/srv/app";
  char *message = NULL;

  /* plain additions, made canonical */
  g_assert_true (pal_folders_add (folders, project, "/srv/lib/", &message));
  g_assert_null (message);
  g_assert_true (pal_folders_add (folders, project, "/srv/docs/./guide/../", &message));
  g_assert_null (message);
  g_assert_true (pal_folders_add (folders, project, "/srv/app-2", NULL));
  assert_folders (folders, "/srv/lib /srv/docs /srv/app-2");

  /* the project folder and what it holds */
  g_assert_false (pal_folders_add (folders, project, "/srv/app/", &message));
  assert_contains (message, "That is the project folder");
  g_clear_pointer (&message, g_free);
  g_assert_false (pal_folders_add (folders, project, "/srv/app/src", &message));
  assert_contains (message, "That folder is inside the project folder");
  g_clear_pointer (&message, g_free);

  /* repeats and folders inside listed ones */
  g_assert_false (pal_folders_add (folders, project, "/srv/lib", &message));
  assert_contains (message, "That folder is in the list already");
  g_clear_pointer (&message, g_free);
  g_assert_false (pal_folders_add (folders, project, "/srv/docs/guide", &message));
  assert_contains (message, "That folder is inside “/srv/docs”");
  g_clear_pointer (&message, g_free);

  /* not a path */
  g_assert_false (pal_folders_add (folders, project, "docs", &message));
  assert_contains (message, "“docs” is not an absolute path");
  g_clear_pointer (&message, g_free);
  g_assert_false (pal_folders_add (folders, project, "/srv/caf\xe9", &message));
  assert_contains (message, "not valid text");
  g_clear_pointer (&message, g_free);
  assert_folders (folders, "/srv/lib /srv/docs /srv/app-2");

  /* a folder holding listed ones takes the place of the first */
  g_assert_true (pal_folders_add (folders, project, "/srv/docs/..", &message));
  assert_contains (message, "Added in place of 3 folders inside it");
  g_clear_pointer (&message, g_free);
  assert_folders (folders, "/srv");

  g_ptr_array_set_size (folders, 0);
  g_assert_true (pal_folders_add (folders, project, "/a/b", NULL));
  g_assert_true (pal_folders_add (folders, project, "/c", NULL));
  g_assert_true (pal_folders_add (folders, project, "/a", &message));
  assert_contains (message, "Added in place of “/a/b”, which is inside it");
  g_clear_pointer (&message, g_free);
  assert_folders (folders, "/a /c");

  /* the project's parent is a folder like any other; no project yet */
  g_assert_true (pal_folders_add (folders, project, "/", &message));
  assert_contains (message, "in place of 2 folders");
  g_clear_pointer (&message, g_free);
  g_ptr_array_set_size (folders, 0);
  g_assert_true (pal_folders_add (folders, NULL, "/srv/app", NULL));
  assert_folders (folders, "/srv/app");
}

static void
test_drop_inside (void)
{
  g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);
  char *message = NULL;

  g_ptr_array_add (folders, g_strdup ("/srv/app/lib"));
  g_ptr_array_add (folders, g_strdup ("/srv/docs"));
  g_ptr_array_add (folders, g_strdup ("/srv/app/test"));

  g_assert_false (pal_folders_drop_inside (folders, "/srv/other", &message));
  g_assert_null (message);

  g_assert_true (pal_folders_drop_inside (folders, "/srv/app", &message));
  assert_contains (message, "Removed 2 additional folders: the project folder holds them now");
  g_clear_pointer (&message, g_free);
  assert_folders (folders, "/srv/docs");

  g_assert_true (pal_folders_drop_inside (folders, "/srv/docs/", &message));
  assert_contains (message, "Removed “/srv/docs”: the project folder holds it now");
  g_clear_pointer (&message, g_free);
  assert_folders (folders, "");
}

static void
test_clean (void)
{
  const char *given[] = {
    "/srv/lib/", "relative", "", "/srv/app/src", "/srv/app", "/srv/lib",
    "/srv/docs/../notes", "/srv/app-2", NULL
  };
  const char *expected[] = { "/srv/lib", "/srv/notes", "/srv/app-2", NULL };
  g_auto(GStrv) cleaned = pal_folders_clean ("/srv/app/", given);
  g_auto(GStrv) none = pal_folders_clean ("/srv/app", NULL);
  g_auto(GStrv) no_project = pal_folders_clean (NULL, given);

  g_assert_cmpstrv (cleaned, expected);
  g_assert_nonnull (none);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  g_assert_cmpuint (g_strv_length (no_project), ==, 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/folders/contains", test_contains);
  g_test_add_func ("/folders/add", test_add);
  g_test_add_func ("/folders/drop-inside", test_drop_inside);
  g_test_add_func ("/folders/clean", test_clean);

  return g_test_run ();
}
