/* test-text-match.c: finding what a person typed in a session's text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-text-match.h"

static GArray *
match (const char *text,
       const char *needle,
       guint       max,
       gboolean   *more)
{
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gsize));

  *more = pal_text_match_all (text, strlen (text), needle, max, offsets);
  return offsets;
}

static void
test_ascii (void)
{
  gboolean more;
  g_autoptr(GArray) offsets = match ("Parser, PARSER and parsers", "parser", 10, &more);

  g_assert_false (more);
  g_assert_cmpuint (offsets->len, ==, 3);
  g_assert_cmpuint (g_array_index (offsets, gsize, 0), ==, 0);
  g_assert_cmpuint (g_array_index (offsets, gsize, 1), ==, 8);
  g_assert_cmpuint (g_array_index (offsets, gsize, 2), ==, 19);
}

static void
test_not_overlapping (void)
{
  gboolean more;
  g_autoptr(GArray) offsets = match ("aaaa", "aa", 10, &more);

  g_assert_cmpuint (offsets->len, ==, 2);
  g_assert_cmpuint (g_array_index (offsets, gsize, 1), ==, 2);
  g_assert_cmpuint (pal_text_match_count ("aaaaa", 5, "AA"), ==, 2);
}

static void
test_unicode (void)
{
  gboolean more;
  /* É is two bytes: the offsets are bytes of the text */
  g_autoptr(GArray) offsets = match ("Élan, élan, ÉLAN", "élan", 10, &more);

  g_assert_cmpuint (offsets->len, ==, 3);
  g_assert_cmpuint (g_array_index (offsets, gsize, 0), ==, 0);
  g_assert_cmpuint (g_array_index (offsets, gsize, 1), ==, 7);
  g_assert_cmpuint (g_array_index (offsets, gsize, 2), ==, 14);
  /* ASCII needles find their letters among others */
  g_assert_cmpuint (pal_text_match_count ("Ünïcode ok, OK", 16, "ok"), ==, 2);
}

static void
test_limit (void)
{
  gboolean more;
  g_autoptr(GArray) offsets = match ("x x x x", "x", 3, &more);

  g_assert_true (more);
  g_assert_cmpuint (offsets->len, ==, 3);
}

static void
test_edges (void)
{
  gboolean more;
  g_autoptr(GArray) empty = match ("text", "", 10, &more);
  g_autoptr(GArray) longer = match ("ab", "abc", 10, &more);
  g_autoptr(GArray) at_end = match ("xyzab", "AB", 10, &more);

  g_assert_cmpuint (empty->len, ==, 0);
  g_assert_cmpuint (longer->len, ==, 0);
  g_assert_cmpuint (at_end->len, ==, 1);
  g_assert_cmpuint (g_array_index (at_end, gsize, 0), ==, 3);
  /* a length short of the text's end */
  g_assert_cmpuint (pal_text_match_count ("abab", 3, "ab"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/text-match/ascii", test_ascii);
  g_test_add_func ("/text-match/not-overlapping", test_not_overlapping);
  g_test_add_func ("/text-match/unicode", test_unicode);
  g_test_add_func ("/text-match/limit", test_limit);
  g_test_add_func ("/text-match/edges", test_edges);

  return g_test_run ();
}
