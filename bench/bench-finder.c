/* bench-finder.c: the @ finder's file index over a big folder
 * (bench/README.md)
 *
 * Makes --files files (100,000) in a tree of folders named from a small
 * vocabulary, with a .gitignore and a node_modules folder to leave out,
 * then measures the index: its first walk, what each keystroke of a few
 * queries costs (matching alone, and from pal_file_index_query_async() to
 * its callback, as the composer asks), the first query after a change
 * (the snapshot is made again), and how soon a file created shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "pal-file-index.h"

static const char * const words[] = {
  "agent", "buffer", "cache", "client", "config", "data", "diff", "editor",
  "event", "file", "format", "graph", "index", "input", "layout", "loader",
  "main", "model", "network", "output", "parser", "render", "scanner", "schema",
  "server", "session", "shader", "source", "store", "stream", "table", "theme",
  "token", "tree", "util", "view", "widget", "window", "worker", "writer",
};
static const char * const extensions[] = { ".c", ".h", ".rs", ".py", ".ts", ".md", ".json", ".txt" };

static void
write_empty (const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, "", 0, &error))
    g_error ("%s", error->message);
}

/* folders three deep, as many files in each as it takes */
static void
make_tree (const char *dir,
           guint       n_files)
{
  GRand *rand = g_rand_new_with_seed (42);
  guint per_folder = 50;
  guint made = 0;

  for (guint folder = 0; made < n_files; folder++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s-%u/%s/%s%u", dir,
                                               words[folder % G_N_ELEMENTS (words)], folder / 40,
                                               words[(folder * 7) % G_N_ELEMENTS (words)],
                                               words[(folder * 13) % G_N_ELEMENTS (words)],
                                               folder);

      g_mkdir_with_parents (path, 0755);
      for (guint i = 0; i < per_folder && made < n_files; i++, made++)
        {
          g_autofree char *file = g_strdup_printf ("%s/%s_%s_%u%s", path,
                                                   words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))],
                                                   words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))],
                                                   i,
                                                   extensions[g_rand_int_range (rand, 0, G_N_ELEMENTS (extensions))]);

          write_empty (file);
        }
    }

  /* what the walk leaves out */
  {
    g_autofree char *ignore = g_build_filename (dir, ".gitignore", NULL);
    g_autofree char *modules = g_build_filename (dir, "node_modules", "left-pad", NULL);
    g_autofree char *logs = g_build_filename (dir, "logs", NULL);

    g_file_set_contents (ignore, "*.log\n/logs/\n", -1, NULL);
    g_mkdir_with_parents (modules, 0755);
    g_mkdir_with_parents (logs, 0755);
    for (guint i = 0; i < 1000; i++)
      {
        g_autofree char *a = g_strdup_printf ("%s/m%u.js", modules, i);
        g_autofree char *b = g_strdup_printf ("%s/l%u.log", logs, i);

        write_empty (a);
        write_empty (b);
      }
  }

  g_rand_free (rand);
}

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_clear_pointer (&dir, g_dir_close);
  g_rmdir (path);
}

static void
got_result_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}

static double
maximum (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len - 1);
}

/* every prefix of @query, as typed, --runs times */
static void
type_query (PalFileIndex *index,
            const char   *name,
            const char   *query,
            guint         runs)
{
  g_autoptr(GArray) sync = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) async = g_array_new (FALSE, FALSE, sizeof (double));
  guint len = strlen (query);
  guint hits_at_end = 0;

  for (guint run = 0; run < runs; run++)
    for (guint n = 1; n <= len; n++)
      {
        g_autofree char *prefix = g_strndup (query, n);
        g_autoptr(GPtrArray) hits = NULL;
        g_autoptr(GAsyncResult) result = NULL;
        gint64 start = g_get_monotonic_time ();
        double ms;

        hits = pal_file_index_query (index, prefix, 50);
        ms = (g_get_monotonic_time () - start) / 1000.0;
        g_array_append_val (sync, ms);
        g_clear_pointer (&hits, g_ptr_array_unref);

        start = g_get_monotonic_time ();
        pal_file_index_query_async (index, prefix, 50, NULL, got_result_cb, &result);
        while (result == NULL)
          g_main_context_iteration (NULL, TRUE);
        hits = pal_file_index_query_finish (index, result, NULL);
        ms = (g_get_monotonic_time () - start) / 1000.0;
        g_array_append_val (async, ms);
        hits_at_end = hits->len;
      }

  printf ("query=%s keystrokes=%u match_median_ms=%.2f match_max_ms=%.2f "
          "async_median_ms=%.2f async_max_ms=%.2f hits=%u\n",
          name, len * runs, median (sync), maximum (sync), median (async), maximum (async),
          hits_at_end);
}

static void
changed_cb (PalFileIndex *index,
            gboolean     *changed)
{
  *changed = TRUE;
}

int
main (int   argc,
      char *argv[])
{
  int n_files = 100000;
  int runs = 5;
  g_autofree char *dir_arg = NULL;
  GOptionEntry entries[] = {
    { "files", 0, 0, G_OPTION_ARG_INT, &n_files, "How many files", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "How many times each query is typed", "N" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir_arg, "Make the tree there and keep it", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- the @ finder's index");
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) root = NULL;
  g_autoptr(PalFileIndex) index = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *marker = NULL;
  gboolean changed = FALSE;
  gint64 start;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (dir_arg != NULL)
    dir = g_canonicalize_filename (dir_arg, NULL);
  else
    dir = g_dir_make_tmp ("bench-finder-XXXXXX", NULL);
  marker = g_build_filename (dir, ".bench-finder-made", NULL);
  if (!g_file_test (marker, G_FILE_TEST_EXISTS))
    {
      start = g_get_monotonic_time ();
      make_tree (dir, n_files);
      write_empty (marker);
      printf ("make files=%d ms=%.0f\n", n_files, (g_get_monotonic_time () - start) / 1000.0);
    }

  /* the first walk, and the monitors made */
  root = g_file_new_for_path (dir);
  start = g_get_monotonic_time ();
  index = pal_file_index_new (&root, 1);
  while (!pal_file_index_get_ready (index))
    g_main_context_iteration (NULL, TRUE);
  printf ("build entries=%u ms=%.0f\n", pal_file_index_get_n_files (index),
          (g_get_monotonic_time () - start) / 1000.0);

  /* the first query makes the snapshot */
  start = g_get_monotonic_time ();
  g_ptr_array_unref (pal_file_index_query (index, "x", 50));
  printf ("first-query ms=%.2f\n", (g_get_monotonic_time () - start) / 1000.0);

  type_query (index, "word", "parser", runs);
  type_query (index, "scattered", "wdgtrnd", runs);
  type_query (index, "path", "buffer-1/editor/input41", runs);
  type_query (index, "none", "qqq", runs);

  /* a file created: how soon the index has it */
  g_signal_connect (index, "changed", G_CALLBACK (changed_cb), &changed);
  {
    g_autofree char *fresh = g_build_filename (dir, "agent-0", "fresh_file.c", NULL);
    g_autoptr(GPtrArray) hits = NULL;

    start = g_get_monotonic_time ();
    write_empty (fresh);
    for (;;)
      {
        while (!changed)
          g_main_context_iteration (NULL, TRUE);
        changed = FALSE;
        hits = pal_file_index_query (index, "fresh_file", 1);
        if (hits->len == 1)
          break;
        g_clear_pointer (&hits, g_ptr_array_unref);
      }
    printf ("fresh ms=%.1f\n", (g_get_monotonic_time () - start) / 1000.0);
    g_unlink (fresh);
  }

  g_clear_object (&index);
  if (dir_arg == NULL)
    remove_tree (dir);

  return 0;
}
