/* bench-transcript-store.c: the transcript store under the load of a
 * person's whole history (bench/README.md)
 *
 * Fills a store with --sessions sessions of --messages messages in all,
 * then measures searches over it, and records, replays and loads one
 * session of --load-updates updates of the replay benchmark's mix. No
 * window: the store is core, and what it costs the main thread is
 * measured apart from what it costs its worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "pal-transcript-store.h"

#define AGENT_ID "bench-agent"
#define VOCABULARY 20000

/* --- time --- */

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gint64
process_cpu_us (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (gint64) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

/* The CPU time of every thread but this one (the store's worker: the
 * program has no other busy thread) */
typedef struct
{
  gint64 wall;
  gint64 main_cpu;
  gint64 other_cpu;
} Clock;

static Clock
clock_now (void)
{
  gint64 main_cpu = thread_cpu_us ();
  Clock now = { g_get_monotonic_time (), main_cpu, process_cpu_us () - main_cpu };

  return now;
}

/* --- waiting --- */

static void
got_result_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);

  return g_steal_pointer (slot);
}

static void
flush (PalTranscriptStore *store)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_transcript_store_flush_async (store, NULL, got_result_cb, &slot);
  result = wait_result (&slot);
  if (!pal_transcript_store_flush_finish (store, result, &error))
    g_error ("flush: %s", error->message);
}

static void
problem_cb (PalTranscriptStore *store,
            const GError       *error,
            gpointer            data)
{
  g_printerr ("problem: %s\n", error->message);
}

static PalTranscriptStore *
open_store (const char *path)
{
  PalTranscriptStore *store = pal_transcript_store_new (path);

  g_signal_connect (store, "problem", G_CALLBACK (problem_cb), NULL);

  return store;
}

static guint64
get_size (PalTranscriptStore *store)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  guint64 size = 0;

  pal_transcript_store_get_size_async (store, NULL, got_result_cb, &slot);
  result = wait_result (&slot);
  pal_transcript_store_get_size_finish (store, result, &size, NULL);

  return size;
}

/* --- the history: words with the frequencies of a language --- */

typedef struct
{
  GPtrArray *words;
  /* cumulative Zipf weights */
  double *cumulative;
  GRand *rand;
} Words;

static void
words_init (Words *words)
{
  static const char * const syllables[] = {
    "ka", "lo", "mi", "ne", "ru", "ta", "si", "po", "de", "fa", "gu", "be", "zo", "vi",
    "an", "el", "ir", "on", "us", "ch", "st", "tr", "pl", "qu",
  };
  double total = 0;

  words->rand = g_rand_new_with_seed (42);
  words->words = g_ptr_array_new_with_free_func (g_free);
  words->cumulative = g_new (double, VOCABULARY);
  for (guint i = 0; i < VOCABULARY; i++)
    {
      GString *word = g_string_new (NULL);
      guint n = i;

      /* distinct by construction: the number written in syllables */
      do
        {
          g_string_append (word, syllables[n % G_N_ELEMENTS (syllables)]);
          n /= G_N_ELEMENTS (syllables);
        }
      while (n > 0);
      g_ptr_array_add (words->words, g_string_free (word, FALSE));
      total += 1.0 / (i + 1);
      words->cumulative[i] = total;
    }
  for (guint i = 0; i < VOCABULARY; i++)
    words->cumulative[i] /= total;
}

static const char *
words_pick (Words *words)
{
  double x = g_rand_double (words->rand);
  guint low = 0, high = VOCABULARY - 1;

  while (low < high)
    {
      guint mid = (low + high) / 2;

      if (words->cumulative[mid] < x)
        low = mid + 1;
      else
        high = mid;
    }

  return g_ptr_array_index (words->words, low);
}

/* One message of 8 to 30 words, as an update of @kind */
static void
make_message (Words              *words,
              guint               number,
              PalTranscriptKind  *kind,
              char              **item,
              char              **json,
              char              **text)
{
  static const PalTranscriptKind kinds[10] = {
    PAL_TRANSCRIPT_KIND_USER_MESSAGE, PAL_TRANSCRIPT_KIND_THOUGHT,
    PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, PAL_TRANSCRIPT_KIND_TOOL_CALL,
    PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE,
    PAL_TRANSCRIPT_KIND_THOUGHT, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE,
    PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE,
  };
  guint n_words = (guint) g_rand_int_range (words->rand, 8, 31);
  GString *sentence = g_string_new (NULL);

  for (guint i = 0; i < n_words; i++)
    {
      if (i > 0)
        g_string_append_c (sentence, ' ');
      g_string_append (sentence, words_pick (words));
    }

  *kind = kinds[number % 10];
  *item = g_strdup_printf ("m%u", number);
  if (*kind == PAL_TRANSCRIPT_KIND_TOOL_CALL)
    *json = g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"%s\","
                             "\"title\":\"%s\",\"kind\":\"read\",\"status\":\"completed\"}",
                             *item, sentence->str);
  else
    *json = g_strdup_printf ("{\"sessionUpdate\":\"%s\",\"messageId\":\"%s\","
                             "\"content\":{\"type\":\"text\",\"text\":\"%s\"}}",
                             *kind == PAL_TRANSCRIPT_KIND_USER_MESSAGE ? "user_message_chunk"
                             : *kind == PAL_TRANSCRIPT_KIND_THOUGHT ? "agent_thought_chunk"
                             : "agent_message_chunk",
                             *item, sentence->str);
  *text = g_string_free (sentence, FALSE);
}

static void
fill (PalTranscriptStore *store,
      Words              *words,
      guint               n_sessions,
      guint               n_messages)
{
  guint per_session = n_messages / n_sessions;
  gint64 record_us = 0;
  Clock start, end;

  start = clock_now ();
  for (guint s = 0; s < n_sessions; s++)
    {
      g_autofree char *session_id = g_strdup_printf ("session-%04u", s);
      g_autoptr(PalSessionKey) key = pal_session_key_new (AGENT_ID, session_id);

      for (guint m = 0; m < per_session; m++)
        {
          g_autofree char *item = NULL;
          g_autofree char *json = NULL;
          g_autofree char *text = NULL;
          PalTranscriptKind kind;
          gint64 before;

          make_message (words, m, &kind, &item, &json, &text);
          before = g_get_monotonic_time ();
          pal_transcript_store_record_update (store, key, json);
          record_us += g_get_monotonic_time () - before;
        }
      /* a session at a time, as replays would come; keeps the queue short */
      flush (store);
      if ((s + 1) % 100 == 0)
        g_printerr ("filled %u sessions\n", s + 1);
    }
  end = clock_now ();

  printf ("fill sessions=%u messages=%u wall_s=%.1f main_record_us_per_update=%.2f "
          "worker_cpu_us_per_update=%.1f size_mib=%.0f\n",
          n_sessions, per_session * n_sessions, (end.wall - start.wall) / 1e6,
          (double) record_us / (per_session * n_sessions),
          (double) (end.other_cpu - start.other_cpu) / (per_session * n_sessions),
          get_size (store) / 1048576.0);
}

/* --- searching --- */

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
measure_search (PalTranscriptStore       *store,
                const char               *label,
                const char               *text,
                PalTranscriptSearchFlags  flags,
                guint                     runs)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n_sessions = 0, n_matches = 0;

  for (guint run = 0; run < runs; run++)
    {
      GAsyncResult *slot = NULL;
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GListModel) found = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start = g_get_monotonic_time (), elapsed;

      pal_transcript_store_search_async (store, text, flags, 50, NULL, got_result_cb, &slot);
      result = wait_result (&slot);
      found = pal_transcript_store_search_finish (store, result, &error);
      elapsed = g_get_monotonic_time () - start;
      if (found == NULL)
        g_error ("search %s: %s", text, error->message);
      g_array_append_val (times, elapsed);

      n_sessions = g_list_model_get_n_items (found);
      n_matches = 0;
      for (guint i = 0; i < n_sessions; i++)
        {
          g_autoptr(PalTranscriptSearchResult) session = g_list_model_get_item (found, i);

          n_matches += pal_transcript_search_result_get_n_matches (session);
        }
    }

  g_array_sort (times, compare_gint64);
  printf ("search query=%s text=\"%s\"%s sessions_shown=%u matches_in_them=%u "
          "first_ms=%.1f median_ms=%.1f max_ms=%.1f\n",
          label, text, (flags & PAL_TRANSCRIPT_SEARCH_THOUGHTS) ? " thoughts=yes" : "",
          n_sessions, n_matches,
          g_array_index (times, gint64, 0) / 1000.0,
          g_array_index (times, gint64, runs / 2) / 1000.0,
          g_array_index (times, gint64, runs - 1) / 1000.0);
  fflush (stdout);
}

static void
search_all (PalTranscriptStore *store,
            Words              *words,
            guint               runs)
{
  const char *common = g_ptr_array_index (words->words, 0);
  const char *second = g_ptr_array_index (words->words, 1);
  const char *medium = g_ptr_array_index (words->words, 300);
  const char *rare = g_ptr_array_index (words->words, 15000);
  g_autofree char *phrase = g_strdup_printf ("\"%s %s\"", common, second);
  g_autofree char *both = g_strdup_printf ("%s %s", medium, rare);
  g_autofree char *prefix = g_strdup_printf ("%.3s*", medium);

  measure_search (store, "rare", rare, PAL_TRANSCRIPT_SEARCH_DEFAULT, runs);
  measure_search (store, "medium", medium, PAL_TRANSCRIPT_SEARCH_DEFAULT, runs);
  measure_search (store, "two-words", both, PAL_TRANSCRIPT_SEARCH_DEFAULT, runs);
  measure_search (store, "prefix", prefix, PAL_TRANSCRIPT_SEARCH_DEFAULT, runs);
  measure_search (store, "phrase", phrase, PAL_TRANSCRIPT_SEARCH_DEFAULT, runs);
  measure_search (store, "commonest", common, PAL_TRANSCRIPT_SEARCH_DEFAULT, runs);
  measure_search (store, "medium", medium, PAL_TRANSCRIPT_SEARCH_THOUGHTS, runs);
  measure_search (store, "commonest", common, PAL_TRANSCRIPT_SEARCH_THOUGHTS, runs);
}

/* --- one long session: the replay benchmark's mix --- */

typedef struct
{
  PalTranscriptKind kind;
  char *item;
  char *json;
  char *text;
} Update;

static void
update_clear (gpointer data)
{
  Update *update = data;

  g_free (update->item);
  g_free (update->json);
  g_free (update->text);
}

/* The updates of replay-mix.json, as the fake agent would send them */
static GArray *
make_replay (guint n_updates)
{
  g_autofree char *file = g_build_filename (BENCH_SOURCE_DIR, "replay-mix.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) templates = g_ptr_array_new_with_free_func (g_free);
  GArray *updates = g_array_sized_new (FALSE, FALSE, sizeof (Update), n_updates);
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  JsonObject *root;
  JsonArray *list;

  g_array_set_clear_func (updates, update_clear);
  if (!json_parser_load_from_file (parser, file, &error))
    g_error ("%s: %s", file, error->message);
  root = json_node_get_object (json_parser_get_root (parser));
  list = json_object_get_array_member (
           json_array_get_object_element (
             json_object_get_array_member (json_object_get_object_member (root, "handlers"),
                                           "session/load"), 0),
           "templates");
  for (guint i = 0; i < json_array_get_length (list); i++)
    g_ptr_array_add (templates, json_to_string (json_array_get_element (list, i), FALSE));

  for (guint i = 0; i < n_updates; i++)
    {
      g_autofree char *cycle = g_strdup_printf ("%u", i / templates->len);
      g_auto(GStrv) parts = g_strsplit (g_ptr_array_index (templates, i % templates->len),
                                        "${cycle}", -1);
      PalTranscriptEntry entry;
      Update update = { 0 };

      update.json = g_strjoinv (cycle, parts);
      pal_transcript_entry_read (&entry, doc, PAL_TRANSCRIPT_KIND_OTHER, update.json,
                                 strlen (update.json));
      update.kind = entry.kind;
      update.item = g_steal_pointer (&entry.item);
      update.text = g_steal_pointer (&entry.text);
      g_array_append_val (updates, update);
    }

  return updates;
}

/* Records @updates for @key at once, then waits until they are written */
static void
record_all (PalTranscriptStore *store,
            PalSessionKey      *key,
            GArray             *updates,
            const char         *label)
{
  gint64 record_us = 0;
  gsize bytes = 0;
  Clock start, end;

  start = clock_now ();
  for (guint i = 0; i < updates->len; i++)
    {
      Update *update = &g_array_index (updates, Update, i);
      gint64 before = g_get_monotonic_time ();

      pal_transcript_store_record_update (store, key, update->json);
      record_us += g_get_monotonic_time () - before;
      bytes += strlen (update->json);
    }
  flush (store);
  end = clock_now ();

  printf ("%s updates=%u mean_bytes=%zu main_record_us_per_update=%.2f "
          "written_after_ms=%.0f worker_cpu_us_per_update=%.1f\n",
          label, updates->len, bytes / updates->len, (double) record_us / updates->len,
          (end.wall - start.wall) / 1000.0,
          (double) (end.other_cpu - start.other_cpu) / updates->len);
  fflush (stdout);
}

static void
replay (PalTranscriptStore *store,
        PalSessionKey      *key,
        GArray             *updates,
        const char         *label)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean replaced = FALSE;
  gint64 record_us = 0, start, ended;

  start = g_get_monotonic_time ();
  pal_transcript_store_begin_replay (store, key);
  for (guint i = 0; i < updates->len; i++)
    {
      Update *update = &g_array_index (updates, Update, i);
      gint64 before = g_get_monotonic_time ();

      pal_transcript_store_record_update (store, key, update->json);
      record_us += g_get_monotonic_time () - before;
    }
  ended = g_get_monotonic_time ();
  pal_transcript_store_end_replay_async (store, key, NULL, got_result_cb, &slot);
  result = wait_result (&slot);
  if (!pal_transcript_store_end_replay_finish (store, result, &replaced, &error))
    g_error ("replay: %s", error->message);

  printf ("%s updates=%u replaced=%s main_record_us_per_update=%.2f "
          "end_replay_ms=%.0f\n",
          label, updates->len, replaced ? "yes" : "no", (double) record_us / updates->len,
          (g_get_monotonic_time () - ended) / 1000.0);
  (void) start;
  fflush (stdout);
}

static void
load_long (const char *path,
           guint       n_updates,
           guint       runs)
{
  g_autoptr(PalTranscriptStore) store = open_store (path);
  g_autoptr(PalSessionKey) key = pal_session_key_new (AGENT_ID, "long-session");
  g_autoptr(GArray) updates = make_replay (n_updates);
  Update *last;

  record_all (store, key, updates, "record-long");

  /* the agent replays it as it is: the first time, the text chunks of a
   * message that the live recording wrote in two batches become one entry
   * (the replay replaces it); then as it is again (compared, nothing
   * written), then with its last update changed */
  replay (store, key, updates, "replay-first");
  replay (store, key, updates, "replay-same");
  last = &g_array_index (updates, Update, updates->len - 1);
  g_free (last->json);
  last->json = g_strdup ("{\"sessionUpdate\":\"plan\",\"entries\":[]}");
  last->kind = PAL_TRANSCRIPT_KIND_OTHER;
  g_clear_pointer (&last->text, g_free);
  replay (store, key, updates, "replay-differs");
  g_clear_object (&store);

  for (guint run = 0; run < runs; run++)
    {
      g_autoptr(PalTranscriptStore) reopened = open_store (path);
      g_autoptr(PalStoredTranscript) stored = NULL;
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      GAsyncResult *slot = NULL;
      gint64 start = g_get_monotonic_time ();
      gsize bytes = 0;

      pal_transcript_store_load_async (reopened, key, NULL, got_result_cb, &slot);
      result = wait_result (&slot);
      stored = pal_transcript_store_load_finish (reopened, result, &error);
      if (stored == NULL)
        g_error ("load: %s", error->message);
      for (guint i = 0; i < pal_stored_transcript_get_n_entries (stored); i++)
        {
          gsize length;

          pal_stored_transcript_get_json (stored, i, &length);
          bytes += length;
        }

      printf ("load-long run=%u entries=%u mib=%.1f load_ms=%.0f\n", run + 1,
              pal_stored_transcript_get_n_entries (stored), bytes / 1048576.0,
              (g_get_monotonic_time () - start) / 1000.0);
      fflush (stdout);
    }
}

/* --- main --- */

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *long_path = NULL;
  int sessions = 1000, messages = 2000000, load_updates = 100000, runs = 5;
  gboolean keep = FALSE;
  Words words;
  const GOptionEntry entries[] = {
    { "sessions", 's', 0, G_OPTION_ARG_INT, &sessions, "Sessions stored (default 1000)", "N" },
    { "messages", 'm', 0, G_OPTION_ARG_INT, &messages,
      "Messages in all (default 2000000)", "N" },
    { "load-updates", 'l', 0, G_OPTION_ARG_INT, &load_updates,
      "Updates of the long session (default 100000)", "N" },
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Runs of each search and load (default 5)", "N" },
    { "dir", 'd', 0, G_OPTION_ARG_FILENAME, &dir,
      "Keep the databases in this folder, and search a filled one again without filling it",
      "DIR" },
    { NULL }
  };

  setlocale (LC_ALL, "");
  context = g_option_context_new ("- the transcript store with a long history");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (sessions <= 0 || messages < sessions || load_updates <= 0 || runs <= 0)
    {
      g_printerr ("--sessions, --load-updates and --runs must be positive, "
                  "--messages at least --sessions\n");
      return 2;
    }

  if (dir != NULL)
    keep = TRUE;
  else
    dir = g_dir_make_tmp ("bench-transcripts-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "history.db", NULL);
  long_path = g_build_filename (dir, "long.db", NULL);

  words_init (&words);
  {
    g_autoptr(PalTranscriptStore) store = NULL;
    gboolean filled = keep && g_file_test (path, G_FILE_TEST_EXISTS);

    store = open_store (path);
    if (!filled)
      fill (store, &words, (guint) sessions, (guint) messages);
    /* searched cold: a new connection, the file in the system's cache */
    g_clear_object (&store);
    store = open_store (path);
    search_all (store, &words, (guint) runs);
  }

  g_unlink (long_path);
  load_long (long_path, (guint) load_updates, (guint) runs);

  if (!keep)
    remove_tree (dir);
  g_ptr_array_unref (words.words);
  g_free (words.cumulative);
  g_rand_free (words.rand);

  return 0;
}
