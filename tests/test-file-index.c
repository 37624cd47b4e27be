/* test-file-index.c: the files the @ finder offers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "pal-file-index.h"
#include "pal-ignore-rules.h"
#include "test-util.h"

/* {{{ the patterns */

static void
test_glob (void)
{
  g_assert_true (pal_ignore_glob_match ("*.log", "debug.log"));
  g_assert_false (pal_ignore_glob_match ("*.log", "a/debug.log"));
  g_assert_true (pal_ignore_glob_match ("a?c", "abc"));
  g_assert_false (pal_ignore_glob_match ("a?c", "a/c"));
  g_assert_true (pal_ignore_glob_match ("[a-c]x", "bx"));
  g_assert_false (pal_ignore_glob_match ("[!a-c]x", "bx"));
  g_assert_true (pal_ignore_glob_match ("**/foo", "foo"));
  g_assert_true (pal_ignore_glob_match ("**/foo", "a/b/foo"));
  g_assert_true (pal_ignore_glob_match ("a/**/b", "a/b"));
  g_assert_true (pal_ignore_glob_match ("a/**/b", "a/x/y/b"));
  g_assert_false (pal_ignore_glob_match ("a/**/b", "a/x/y/c"));
  g_assert_true (pal_ignore_glob_match ("a/**", "a/x/y"));
  g_assert_false (pal_ignore_glob_match ("a/**", "a"));
  g_assert_true (pal_ignore_glob_match ("\\*", "*"));
  g_assert_false (pal_ignore_glob_match ("\\*", "x"));
}

static void
test_rules (void)
{
  g_autoptr(PalIgnoreRules) top = pal_ignore_rules_new (NULL, "",
                                                        "# comment\n"
                                                        "*.log\n"
                                                        "!keep.log\n"
                                                        "/out\n"
                                                        "cache/\n"
                                                        "docs/*.pdf\n"
                                                        "\\#hash\n"
                                                        "trailing   \n",
                                                        -1);
  g_autoptr(PalIgnoreRules) sub = pal_ignore_rules_new (top, "sub", "*.tmp\n!x.log\n/only-here\n", -1);

  g_assert_true (pal_ignore_rules_ignores (top, "a.log", FALSE));
  g_assert_true (pal_ignore_rules_ignores (top, "deep/er/a.log", FALSE));
  g_assert_false (pal_ignore_rules_ignores (top, "keep.log", FALSE));
  g_assert_true (pal_ignore_rules_ignores (top, "out", TRUE));
  g_assert_false (pal_ignore_rules_ignores (top, "src/out", TRUE));
  g_assert_true (pal_ignore_rules_ignores (top, "src/cache", TRUE));
  g_assert_false (pal_ignore_rules_ignores (top, "src/cache", FALSE));
  g_assert_true (pal_ignore_rules_ignores (top, "docs/a.pdf", FALSE));
  g_assert_false (pal_ignore_rules_ignores (top, "other/docs/a.pdf", FALSE));
  g_assert_true (pal_ignore_rules_ignores (top, "#hash", FALSE));
  g_assert_true (pal_ignore_rules_ignores (top, "trailing", FALSE));
  g_assert_false (pal_ignore_rules_ignores (top, "# comment", FALSE));

  /* the deeper file first, then the one above */
  g_assert_true (pal_ignore_rules_ignores (sub, "sub/a.tmp", FALSE));
  g_assert_false (pal_ignore_rules_ignores (sub, "sub/x.log", FALSE));
  g_assert_true (pal_ignore_rules_ignores (sub, "sub/y.log", FALSE));
  g_assert_true (pal_ignore_rules_ignores (sub, "sub/only-here", FALSE));
  g_assert_false (pal_ignore_rules_ignores (sub, "sub/deeper/only-here", FALSE));
  g_assert_false (pal_ignore_rules_ignores (top, "a.tmp", FALSE));
}

/* }}} */
/* {{{ the index */

typedef struct
{
  char         *dir;
  GFile        *root;
  PalFileIndex *index;
  guint         n_changed;
} Fixture;

static void
write_file (Fixture    *fixture,
            const char *rel,
            const char *contents)
{
  g_autofree char *path = g_build_filename (fixture->dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
index_changed_cb (PalFileIndex *index,
                  Fixture      *fixture)
{
  fixture->n_changed++;
}

static void
open_index (Fixture *fixture)
{
  fixture->root = g_file_new_for_path (fixture->dir);
  fixture->index = pal_file_index_new (&fixture->root, 1);
  g_signal_connect (fixture->index, "changed", G_CALLBACK (index_changed_cb), fixture);
  WAIT_UNTIL (pal_file_index_get_ready (fixture->index));
  g_assert_cmpuint (fixture->n_changed, ==, 1);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->dir = test_make_tmpdir ("file-index-XXXXXX");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->index);
  g_clear_object (&fixture->root);
  test_remove_tree (fixture->dir);
  g_free (fixture->dir);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* every path known, sorted, one per line; folders end in '/' */
static char *
dup_all (PalFileIndex *index)
{
  g_autoptr(GPtrArray) hits = pal_file_index_query (index, "", 1000);
  g_auto(GStrv) paths = g_new0 (char *, hits->len + 1);

  for (guint i = 0; i < hits->len; i++)
    {
      PalFileHit *hit = g_ptr_array_index (hits, i);

      paths[i] = hit->is_folder ? g_strconcat (hit->path, "/", NULL) : g_strdup (hit->path);
    }
  qsort (paths, hits->len, sizeof (char *), compare_strings);

  return g_strjoinv (" ", paths);
}

static gboolean
has_path (PalFileIndex *index,
          const char   *path)
{
  g_autoptr(GPtrArray) hits = pal_file_index_query (index, path, 1000);

  for (guint i = 0; i < hits->len; i++)
    if (strcmp (((PalFileHit *) g_ptr_array_index (hits, i))->path, path) == 0)
      return TRUE;

  return FALSE;
}

static void
test_ignored (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *all = NULL;

  write_file (fixture, ".gitignore", "*.log\n!keep.log\n/out/\nsecret\n");
  write_file (fixture, "a.log", "");
  write_file (fixture, "keep.log", "");
  write_file (fixture, "out/x.c", "");
  write_file (fixture, "src/out/y.c", "");
  write_file (fixture, "src/main.c", "");
  write_file (fixture, "src/secret", "");
  write_file (fixture, "src/.gitignore", "*.tmp\n!*.log\n");
  write_file (fixture, "src/a.tmp", "");
  write_file (fixture, "src/b.log", "");
  write_file (fixture, ".git/HEAD", "");
  write_file (fixture, "node_modules/left-pad/index.js", "");
  write_file (fixture, "build/main.o", "");
  write_file (fixture, "_build/main.o", "");
  write_file (fixture, "target/debug/app", "");
  write_file (fixture, "dist/app.js", "");
  write_file (fixture, ".github/ci.yml", "");
  open_index (fixture);

  all = dup_all (fixture->index);
  g_assert_cmpstr (all, ==,
                   ".github/ .github/ci.yml .gitignore keep.log src/ src/.gitignore "
                   "src/b.log src/main.c src/out/ src/out/y.c");
}

static const char *
hit_path (GPtrArray *hits,
          guint      i)
{
  g_assert_cmpuint (i, <, hits->len);
  return ((PalFileHit *) g_ptr_array_index (hits, i))->path;
}

/* a link is offered only when it points inside the folders: mentioning it
 * must not read a file from elsewhere */
static void
test_links (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *outside_dir = test_make_tmpdir ("file-index-outside-XXXXXX");
  g_autofree char *outside = g_build_filename (outside_dir, "secret.txt", NULL);
  g_autofree char *inside = g_build_filename (fixture->dir, "docs", "guide.md", NULL);
  g_autofree char *link_out = g_build_filename (fixture->dir, "secret-link", NULL);
  g_autofree char *link_in = g_build_filename (fixture->dir, "guide-link", NULL);
  g_autofree char *link_dir = g_build_filename (fixture->dir, "docs-link", NULL);
  g_autofree char *docs = g_build_filename (fixture->dir, "docs", NULL);
  g_autofree char *all = NULL;

  write_file (fixture, "docs/guide.md", "");
  g_assert_true (g_file_set_contents (outside, "", 0, NULL));
  g_assert_cmpint (symlink (outside, link_out), ==, 0);
  g_assert_cmpint (symlink (inside, link_in), ==, 0);
  g_assert_cmpint (symlink (docs, link_dir), ==, 0);
  open_index (fixture);

  /* the folder link is listed as a folder, not gone into */
  all = dup_all (fixture->index);
  g_assert_cmpstr (all, ==, "docs-link/ docs/ docs/guide.md guide-link");
  test_remove_tree (outside_dir);
}

static void
test_ranking (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GPtrArray) hits = NULL;

  write_file (fixture, "main/readme.md", "");
  write_file (fixture, "src/main.c", "");
  write_file (fixture, "src/gui/domain.c", "");
  write_file (fixture, "lib/deep/er/main.c", "");
  write_file (fixture, "m/a/i/n.c", "");
  write_file (fixture, "mxaxixn.c", "");
  write_file (fixture, "x/m_a_i_n.c", "");
  open_index (fixture);

  hits = pal_file_index_query (fixture->index, "main", 20);
  /* the whole name; a name starting with it, shorter path first; a name
   * with it inside; the path; the letters in the name, at word starts
   * first; the letters across the path */
  g_assert_cmpstr (hit_path (hits, 0), ==, "main");
  g_assert_cmpstr (hit_path (hits, 1), ==, "src/main.c");
  g_assert_cmpstr (hit_path (hits, 2), ==, "lib/deep/er/main.c");
  g_assert_cmpstr (hit_path (hits, 3), ==, "src/gui/domain.c");
  g_assert_cmpstr (hit_path (hits, 4), ==, "main/readme.md");
  g_assert_cmpstr (hit_path (hits, 5), ==, "x/m_a_i_n.c");
  g_assert_cmpstr (hit_path (hits, 6), ==, "mxaxixn.c");
  g_assert_cmpstr (hit_path (hits, 7), ==, "m/a/i/n.c");
  g_assert_cmpuint (hits->len, ==, 8);
  g_clear_pointer (&hits, g_ptr_array_unref);

  /* case does not matter; the limit keeps the best */
  hits = pal_file_index_query (fixture->index, "MAIN.C", 1);
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (hit_path (hits, 0), ==, "src/main.c");
  g_clear_pointer (&hits, g_ptr_array_unref);

  hits = pal_file_index_query (fixture->index, "zzz", 20);
  g_assert_cmpuint (hits->len, ==, 0);
}

static void
test_hit_file (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GPtrArray) hits = NULL;
  g_autoptr(GFile) expected = NULL;
  g_autofree char *path = NULL;
  PalFileHit *hit;

  write_file (fixture, "src/main.c", "");
  open_index (fixture);

  hits = pal_file_index_query (fixture->index, "src", 20);
  hit = g_ptr_array_index (hits, 0);
  g_assert_cmpstr (hit->path, ==, "src");
  g_assert_true (hit->is_folder);
  hit = g_ptr_array_index (hits, 1);
  g_assert_false (hit->is_folder);
  expected = g_file_resolve_relative_path (fixture->root, "src/main.c");
  g_assert_true (g_file_equal (hit->file, expected));
  path = pal_file_path_in_folders (&fixture->root, 1, expected);
  g_assert_cmpstr (path, ==, "src/main.c");
}

static void
test_async (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  GAsyncResult *slot = NULL;
  g_autoptr(GPtrArray) hits = NULL;
  g_autoptr(GError) error = NULL;

  write_file (fixture, "src/main.c", "");
  open_index (fixture);

  pal_file_index_query_async (fixture->index, "mc", 10, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  hits = pal_file_index_query_finish (fixture->index, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (hit_path (hits, 0), ==, "src/main.c");
}

static void
test_fresh (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *moved = NULL;
  g_autofree char *target = NULL;
  g_autofree char *all = NULL;
  guint n;

  write_file (fixture, ".gitignore", "*.log\n");
  write_file (fixture, "src/main.c", "");
  open_index (fixture);

  /* a file created in a folder walked */
  n = fixture->n_changed;
  write_file (fixture, "src/fresh.c", "");
  WAIT_UNTIL (fixture->n_changed > n && has_path (fixture->index, "src/fresh.c"));

  /* a folder moved in, with what it holds, the ignored left out */
  moved = test_make_tmpdir ("file-index-moved-XXXXXX");
  {
    g_autofree char *a = g_build_filename (moved, "a.c", NULL);
    g_autofree char *b = g_build_filename (moved, "b.log", NULL);

    g_assert_true (g_file_set_contents (a, "", 0, NULL));
    g_assert_true (g_file_set_contents (b, "", 0, NULL));
  }
  target = g_build_filename (fixture->dir, "src", "moved", NULL);
  n = fixture->n_changed;
  g_assert_cmpint (g_rename (moved, target), ==, 0);
  WAIT_UNTIL (fixture->n_changed > n && has_path (fixture->index, "src/moved/a.c"));
  all = dup_all (fixture->index);
  g_assert_cmpstr (all, ==, ".gitignore src/ src/fresh.c src/main.c src/moved/ src/moved/a.c");
  g_clear_pointer (&all, g_free);

  /* and a file created in that new folder: it is watched too */
  n = fixture->n_changed;
  write_file (fixture, "src/moved/later.c", "");
  WAIT_UNTIL (fixture->n_changed > n && has_path (fixture->index, "src/moved/later.c"));

  /* a file deleted */
  {
    g_autofree char *path = g_build_filename (fixture->dir, "src", "fresh.c", NULL);

    n = fixture->n_changed;
    g_assert_cmpint (g_unlink (path), ==, 0);
    WAIT_UNTIL (fixture->n_changed > n && !has_path (fixture->index, "src/fresh.c"));
  }

  /* a folder deleted, with what it held */
  {
    g_autofree char *path = g_build_filename (fixture->dir, "src", "moved", NULL);

    test_remove_tree (path);
    WAIT_UNTIL (!has_path (fixture->index, "src/moved"));
    all = dup_all (fixture->index);
    g_assert_cmpstr (all, ==, ".gitignore src/ src/main.c");
  }
}

static void
test_roots (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *other_dir = test_make_tmpdir ("file-index-other-XXXXXX");
  g_autofree char *other_name = g_path_get_basename (other_dir);
  g_autofree char *file = g_build_filename (other_dir, "notes.md", NULL);
  g_autofree char *expected = g_strconcat (other_name, "/notes.md", NULL);
  GFile *roots[2];
  g_autoptr(PalFileIndex) index = NULL;
  g_autoptr(GPtrArray) hits = NULL;

  write_file (fixture, "src/main.c", "");
  g_assert_true (g_file_set_contents (file, "", 0, NULL));
  roots[0] = g_file_new_for_path (fixture->dir);
  roots[1] = g_file_new_for_path (other_dir);
  index = pal_file_index_new (roots, 2);
  g_object_unref (roots[0]);
  g_object_unref (roots[1]);
  WAIT_UNTIL (pal_file_index_get_ready (index));

  /* the other folder's files follow its name */
  hits = pal_file_index_query (index, "notes", 10);
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (hit_path (hits, 0), ==, expected);
  g_assert_true (has_path (index, "src/main.c"));
  g_clear_object (&index);
  test_remove_tree (other_dir);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file-index/glob", test_glob);
  g_test_add_func ("/file-index/rules", test_rules);
  g_test_add ("/file-index/ignored", Fixture, NULL, fixture_set_up, test_ignored, fixture_tear_down);
  g_test_add ("/file-index/links", Fixture, NULL, fixture_set_up, test_links, fixture_tear_down);
  g_test_add ("/file-index/ranking", Fixture, NULL, fixture_set_up, test_ranking, fixture_tear_down);
  g_test_add ("/file-index/hit-file", Fixture, NULL, fixture_set_up, test_hit_file, fixture_tear_down);
  g_test_add ("/file-index/async", Fixture, NULL, fixture_set_up, test_async, fixture_tear_down);
  g_test_add ("/file-index/fresh", Fixture, NULL, fixture_set_up, test_fresh, fixture_tear_down);
  g_test_add ("/file-index/roots", Fixture, NULL, fixture_set_up, test_roots, fixture_tear_down);

  return g_test_run ();
}
