/* test-diff.c: the line diff of tool call diff content
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-diff.h"

/* Rebuilds the old (or new) text from the diff's lines. */
static char *
rebuild (PalDiff  *diff,
         gboolean  new_side)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < pal_diff_get_n_lines (diff); i++)
    {
      const PalDiffLine *line = pal_diff_get_line (diff, i);

      if (line->op == (new_side ? PAL_DIFF_DELETE : PAL_DIFF_INSERT))
        continue;
      g_string_append_len (out, line->text, (gssize) line->length);
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

static guint
lcs_length (char **a,
            char **b)
{
  guint n = g_strv_length (a), m = g_strv_length (b);
  g_autofree guint *t = g_new0 (guint, (n + 1) * (m + 1));

  for (guint i = n; i-- > 0;)
    for (guint j = m; j-- > 0;)
      t[i * (m + 1) + j] = g_str_equal (a[i], b[j])
        ? t[(i + 1) * (m + 1) + j + 1] + 1
        : MAX (t[(i + 1) * (m + 1) + j], t[i * (m + 1) + j + 1]);

  return t[0];
}

static void
test_unified (void)
{
  const char *old_text = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";
  const char *new_text = "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n";
  g_autoptr(PalDiff) diff = pal_diff_new (old_text, new_text, PAL_DIFF_DEFAULT_MAX_EDITS);
  g_autofree char *unified = pal_diff_to_unified (diff, "a.txt", 2);

  g_assert_cmpuint (pal_diff_get_n_added (diff), ==, 2);
  g_assert_cmpuint (pal_diff_get_n_removed (diff), ==, 1);
  g_assert_cmpstr (unified, ==,
                   "--- a.txt\n+++ a.txt\n"
                   "@@ -1,5 +1,5 @@\n one\n two\n-three\n+THREE\n four\n five\n"
                   "@@ -9,2 +9,3 @@\n nine\n ten\n+eleven\n");
}

static void
test_hunks_merge (void)
{
  /* changes closer than twice the context share one hunk */
  g_autoptr(PalDiff) diff = pal_diff_new ("a\nb\nc\nd\ne\nf\n", "A\nb\nc\nd\ne\nF\n", 100);
  g_autoptr(GArray) hunks = pal_diff_get_hunks (diff, 2);
  PalDiffHunk *h;

  g_assert_cmpuint (hunks->len, ==, 1);
  h = &g_array_index (hunks, PalDiffHunk, 0);
  g_assert_cmpuint (h->old_start, ==, 1);
  g_assert_cmpuint (h->old_count, ==, 6);
  g_assert_cmpuint (h->new_count, ==, 6);
  g_assert_cmpuint (h->n_lines, ==, 8);
}

static void
test_new_and_deleted_file (void)
{
  g_autoptr(PalDiff) created = pal_diff_new (NULL, "x\ny", 100);
  g_autoptr(PalDiff) deleted = pal_diff_new ("x\ny\n", "", 100);
  g_autofree char *u1 = pal_diff_to_unified (created, NULL, 3);
  g_autofree char *u2 = pal_diff_to_unified (deleted, NULL, 3);

  g_assert_cmpstr (u1, ==, "@@ -0,0 +1,2 @@\n+x\n+y\n");
  g_assert_cmpstr (u2, ==, "@@ -1,2 +0,0 @@\n-x\n-y\n");

  {
    g_autoptr(PalDiff) same = pal_diff_new ("same\r\n", "same\n", 100);
    g_autoptr(GArray) hunks = pal_diff_get_hunks (same, 3);

    /* CRLF and LF lines compare equal */
    g_assert_cmpuint (hunks->len, ==, 0);
  }
}

static char *
random_text (GRand *rand,
             guint  lines,
             char **out_lines[])
{
  GString *s = g_string_new (NULL);
  GPtrArray *v = g_ptr_array_new ();

  for (guint i = 0; i < lines; i++)
    {
      char *line = g_strdup_printf ("l%d", g_rand_int_range (rand, 0, 6));

      g_string_append_printf (s, "%s\n", line);
      g_ptr_array_add (v, line);
    }
  g_ptr_array_add (v, NULL);
  *out_lines = (char **) g_ptr_array_free (v, FALSE);

  return g_string_free (s, FALSE);
}

static void
test_random_minimal (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);

  for (guint round = 0; round < 400; round++)
    {
      g_auto(GStrv) a_lines = NULL;
      g_auto(GStrv) b_lines = NULL;
      g_autofree char *a = random_text (rand, g_rand_int_range (rand, 0, 30), &a_lines);
      g_autofree char *b = random_text (rand, g_rand_int_range (rand, 0, 30), &b_lines);
      g_autoptr(PalDiff) diff = pal_diff_new (a, b, PAL_DIFF_DEFAULT_MAX_EDITS);
      g_autofree char *old_side = rebuild (diff, FALSE);
      g_autofree char *new_side = rebuild (diff, TRUE);
      guint lcs = lcs_length (a_lines, b_lines);

      g_assert_cmpstr (old_side, ==, a);
      g_assert_cmpstr (new_side, ==, b);
      /* Myers finds a shortest edit script */
      g_assert_cmpuint (pal_diff_get_n_added (diff) + pal_diff_get_n_removed (diff), ==,
                        g_strv_length (a_lines) + g_strv_length (b_lines) - 2 * lcs);
    }
}

static void
test_bounded (void)
{
  GString *a = g_string_new (NULL);
  GString *b = g_string_new (NULL);
  g_autoptr(PalDiff) diff = NULL;
  g_autofree char *old_side = NULL;
  g_autofree char *new_side = NULL;

  /* 20,000 lines, all different: the search gives up and still rebuilds */
  for (guint i = 0; i < 20000; i++)
    {
      g_string_append_printf (a, "old %u\n", i);
      g_string_append_printf (b, "new %u\n", i);
    }
  diff = pal_diff_new (a->str, b->str, 50);
  old_side = rebuild (diff, FALSE);
  new_side = rebuild (diff, TRUE);
  g_assert_cmpstr (old_side, ==, a->str);
  g_assert_cmpstr (new_side, ==, b->str);
  g_assert_cmpuint (pal_diff_get_n_removed (diff), ==, 20000);

  g_string_free (a, TRUE);
  g_string_free (b, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/diff/unified", test_unified);
  g_test_add_func ("/diff/hunks-merge", test_hunks_merge);
  g_test_add_func ("/diff/new-and-deleted-file", test_new_and_deleted_file);
  g_test_add_func ("/diff/random-minimal", test_random_minimal);
  g_test_add_func ("/diff/bounded", test_bounded);

  return g_test_run ();
}
