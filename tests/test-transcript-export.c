/* test-transcript-export.c: a stored session as Markdown and as JSON Lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "pal-error.h"
#include "pal-transcript-export.h"
#include "record-json.h"
#include "store-util.h"
#include "test-util.h"

/* 2026-03-01 09:30 UTC: when the golden transcript started */
#define STARTED_US (G_GINT64_CONSTANT (1772357400) * G_USEC_PER_SEC)

/* The lines of a file beside the test */
static char **
read_lines (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "export", name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  char **lines;
  guint n;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  /* the file ends with a newline */
  n = g_strv_length (lines);
  if (n > 0 && *lines[n - 1] == '\0')
    g_clear_pointer (&lines[n - 1], g_free);

  return lines;
}

static char *
read_text (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "export", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

/* A stored transcript made of @lines, a minute apart from STARTED_US */
static PalStoredTranscript *
stored_from_lines (const char * const *lines)
{
  PalStoredTranscript *stored = _pal_stored_transcript_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    _pal_stored_transcript_append (stored,
                                   lines[i][0] == '[' ? PAL_TRANSCRIPT_KIND_PROMPT : PAL_TRANSCRIPT_KIND_OTHER,
                                   STARTED_US + i * 60 * G_USEC_PER_SEC, lines[i], strlen (lines[i]));

  return stored;
}

/* --- Markdown --- */

/* The Markdown of @lines, with no session info: its title and start */
static char *
markdown_of (const char * const *lines)
{
  g_autoptr(PalStoredTranscript) stored = stored_from_lines (lines);

  return pal_transcript_export_markdown (stored, NULL);
}

static void
test_markdown_every_kind (void)
{
  g_auto(GStrv) lines = read_lines ("every-kind.jsonl");
  g_autoptr(PalStoredTranscript) stored = stored_from_lines ((const char * const *) lines);
  g_autofree char *expected = read_text ("every-kind.md");
  const PalTranscriptExportInfo info = {
    "Fix the login bug", "Fake Agent", "/home/me/proj", "s-1",
  };
  g_autofree char *markdown = pal_transcript_export_markdown (stored, &info);

  g_assert_cmpstr (markdown, ==, expected);
}

static void
test_markdown_untitled (void)
{
  const char *lines[] = {
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Hello.\"}}",
    NULL,
  };
  g_autofree char *markdown = markdown_of (lines);

  g_assert_cmpstr (markdown, ==,
                   "# New Session\n"
                   "\n"
                   "- Started: 2026-03-01 09:30\n"
                   "\n"
                   "## Agent\n"
                   "\n"
                   "Hello.\n");
}

/* An agent that numbers its messages per turn: the answer of the next turn
 * is a message of its own, after its prompt, as the chat shows it */
static void
test_markdown_message_id_per_turn (void)
{
  const char *lines[] = {
    "[{\"type\":\"text\",\"text\":\"Remember marmalade\"}]",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"msg-1\",\"content\":{\"type\":\"text\",\"text\":\"Noted.\"}}",
    "[{\"type\":\"text\",\"text\":\"Still there?\"}]",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"msg-1\",\"content\":{\"type\":\"text\",\"text\":\"Yes\"}}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"msg-1\",\"content\":{\"type\":\"text\",\"text\":\", here.\"}}",
    NULL,
  };
  g_autofree char *markdown = markdown_of (lines);

  g_assert_cmpstr (markdown, ==,
                   "# New Session\n"
                   "\n"
                   "- Started: 2026-03-01 09:30\n"
                   "\n"
                   "## You\n"
                   "\n"
                   "Remember marmalade\n"
                   "\n"
                   "## Agent\n"
                   "\n"
                   "Noted.\n"
                   "\n"
                   "## You\n"
                   "\n"
                   "Still there?\n"
                   "\n"
                   "## Agent\n"
                   "\n"
                   "Yes, here.\n");
}

/* A folder name need not be UTF-8, and an entry that is not JSON (or not
 * UTF-8, which the parser refuses) is skipped: the document stays valid
 * text */
static void
test_markdown_invalid_input (void)
{
  const char *lines[] = {
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"bad \xff\"}}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"fine\"}}",
    "{\"sessionUpdate\":",
    NULL,
  };
  const PalTranscriptExportInfo info = { NULL, NULL, "/home/\xff", NULL };
  g_autoptr(PalStoredTranscript) stored = stored_from_lines (lines);
  g_autofree char *markdown = pal_transcript_export_markdown (stored, &info);

  g_assert_true (g_utf8_validate (markdown, -1, NULL));
  g_assert_nonnull (strstr (markdown, "/home/\xef\xbf\xbd"));
  g_assert_true (g_str_has_suffix (markdown, "## Agent\n\nfine\n"));
}

/* --- from the store --- */

typedef struct
{
  char *tmpdir;
  PalTranscriptStore *store;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->tmpdir = g_dir_make_tmp ("palaver-export-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->tmpdir, "transcripts.db", NULL);
  f->store = pal_transcript_store_new (path);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_clear_object (&f->store);
  dir = g_dir_open (f->tmpdir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (f->tmpdir, name, NULL);

      g_unlink (child);
    }
  g_rmdir (f->tmpdir);
  g_free (f->tmpdir);
}

static GBytes *
export (PalTranscriptStore             *store,
        PalSessionKey                  *key,
        PalTranscriptFormat             format,
        const PalTranscriptExportInfo  *info,
        GError                        **error)
{
  GAsyncResult *result = NULL;
  GBytes *bytes;

  pal_transcript_export_async (store, key, format, info, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  bytes = pal_transcript_export_finish (store, result, error);
  g_object_unref (result);

  return bytes;
}

/* Every entry that is JSON, exported as JSON Lines and recorded again as
 * another session, is the same value of the same kind, in the same order;
 * an entry written over several lines comes out on one, one that is not
 * JSON not at all. */
static void
test_json_lines_round_trip (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "original");
  g_autoptr(PalSessionKey) copy_key = pal_session_key_new ("agent", "copy");
  g_auto(GStrv) lines = read_lines ("every-kind.jsonl");
  g_autoptr(GPtrArray) recorded = g_ptr_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PalStoredTranscript) original = NULL;
  g_autoptr(PalStoredTranscript) copy = NULL;
  g_auto(GStrv) exported = NULL;
  const char *spread = "{\n  \"sessionUpdate\": \"agent_message_chunk\",\n"
                       "  \"content\": {\"type\": \"text\", \"text\": \"two\\nlines\"}\n}";
  guint n;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (lines[i], NULL);

      /* not JSON: left out of the lines */
      record_json (f->store, key, lines[i]);
      if (node != NULL)
        g_ptr_array_add (recorded, lines[i]);
    }
  record_json (f->store, key, spread);
  g_ptr_array_add (recorded, (gpointer) spread);

  bytes = export (f->store, key, PAL_TRANSCRIPT_FORMAT_JSON_LINES, NULL, &error);
  g_assert_no_error (error);
  exported = g_strsplit (g_bytes_get_data (bytes, NULL), "\n", -1);
  n = g_strv_length (exported);
  /* one line an entry (text chunks of one message in a row are one), and
   * a newline at the end */
  entries = stored_entries (recorded);
  g_assert_cmpuint (n, ==, entries->len + 1);
  g_assert_cmpstr (exported[n - 1], ==, "");

  for (guint i = 0; i + 1 < n; i++)
    {
      g_autoptr(JsonNode) is = json_from_string (exported[i], &error);

      g_assert_no_error (error);
      g_assert_true (json_node_equal (g_ptr_array_index (entries, i), is));
      record_json (f->store, copy_key, exported[i]);
    }

  original = test_load_stored (f->store, key);
  copy = test_load_stored (f->store, copy_key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (copy), ==, entries->len);
  for (guint i = 0, j = 0; i < pal_stored_transcript_get_n_entries (original); i++)
    {
      g_autoptr(JsonNode) was = json_from_string (pal_stored_transcript_get_json (original, i, NULL), NULL);
      g_autoptr(JsonNode) is = NULL;

      if (was == NULL)
        continue;
      is = json_from_string (pal_stored_transcript_get_json (copy, j, NULL), NULL);
      g_assert_cmpint (pal_stored_transcript_get_kind (copy, j), ==,
                       pal_stored_transcript_get_kind (original, i));
      g_assert_true (json_node_equal (was, is));
      j++;
    }
}

/* The Markdown made from the store is the one made of what it holds */
static void
test_markdown_from_store (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "session");
  g_auto(GStrv) lines = read_lines ("every-kind.jsonl");
  const PalTranscriptExportInfo info = { "Title", "Fake Agent", "/tmp", "session" };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autofree char *expected = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    record_json (f->store, key, lines[i]);

  bytes = export (f->store, key, PAL_TRANSCRIPT_FORMAT_MARKDOWN, &info, &error);
  g_assert_no_error (error);
  stored = test_load_stored (f->store, key);
  expected = pal_transcript_export_markdown (stored, &info);
  g_assert_cmpstr (g_bytes_get_data (bytes, NULL), ==, expected);
  g_assert_nonnull (strstr (expected, "```diff\n"));
}

static void
test_nothing_stored (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "never-recorded");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = export (f->store, key, PAL_TRANSCRIPT_FORMAT_MARKDOWN, NULL, &error);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_assert_null (bytes);
}

static void
test_cancelled (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "session");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;
  GBytes *bytes;

  record_json (f->store, key, "[{\"type\":\"text\",\"text\":\"hello\"}]");
  pal_transcript_export_async (f->store, key, PAL_TRANSCRIPT_FORMAT_MARKDOWN, NULL, cancellable,
                               test_store_result_cb, &result);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (result != NULL);
  bytes = pal_transcript_export_finish (f->store, result, &error);
  g_object_unref (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (bytes);
}

static void
test_format_names (void)
{
  PalTranscriptFormat format;

  g_assert_true (pal_transcript_format_from_string ("markdown", &format));
  g_assert_cmpint (format, ==, PAL_TRANSCRIPT_FORMAT_MARKDOWN);
  g_assert_true (pal_transcript_format_from_string ("md", &format));
  g_assert_cmpint (format, ==, PAL_TRANSCRIPT_FORMAT_MARKDOWN);
  g_assert_true (pal_transcript_format_from_string ("jsonl", &format));
  g_assert_cmpint (format, ==, PAL_TRANSCRIPT_FORMAT_JSON_LINES);
  g_assert_true (pal_transcript_format_from_string ("JSON-Lines", &format));
  g_assert_cmpint (format, ==, PAL_TRANSCRIPT_FORMAT_JSON_LINES);
  g_assert_false (pal_transcript_format_from_string ("html", &format));
}

int
main (int   argc,
      char *argv[])
{
  /* the golden text says when the session started, in local time */
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transcript-export/markdown/every-kind", test_markdown_every_kind);
  g_test_add_func ("/transcript-export/markdown/untitled", test_markdown_untitled);
  g_test_add_func ("/transcript-export/markdown/message-id-per-turn", test_markdown_message_id_per_turn);
  g_test_add_func ("/transcript-export/markdown/invalid-input", test_markdown_invalid_input);
  g_test_add_func ("/transcript-export/format-names", test_format_names);
  g_test_add ("/transcript-export/json-lines/round-trip", Fixture, NULL,
              fixture_set_up, test_json_lines_round_trip, fixture_tear_down);
  g_test_add ("/transcript-export/markdown/from-store", Fixture, NULL,
              fixture_set_up, test_markdown_from_store, fixture_tear_down);
  g_test_add ("/transcript-export/nothing-stored", Fixture, NULL,
              fixture_set_up, test_nothing_stored, fixture_tear_down);
  g_test_add ("/transcript-export/cancelled", Fixture, NULL,
              fixture_set_up, test_cancelled, fixture_tear_down);

  return g_test_run ();
}
