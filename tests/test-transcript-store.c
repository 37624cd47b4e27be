/* test-transcript-store.c: the transcripts kept on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "pal-error.h"
#include "pal-transcript-db-private.h"
#include "pal-transcript-store.h"
#include "store-util.h"
#include "test-util.h"

typedef struct
{
  char *tmpdir;
  char *path;
  PalTranscriptStore *store;
  GPtrArray *problems;  /* GError */
} Fixture;

static void
problem_cb (PalTranscriptStore *store,
            const GError       *error,
            Fixture            *f)
{
  g_ptr_array_add (f->problems, g_error_copy (error));
}

static void
open_store (Fixture *f)
{
  f->store = pal_transcript_store_new (f->path);
  g_signal_connect (f->store, "problem", G_CALLBACK (problem_cb), f);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->tmpdir = g_dir_make_tmp ("palaver-transcripts-XXXXXX", &error);
  g_assert_no_error (error);
  /* a folder that does not exist yet: the store makes it */
  f->path = g_build_filename (f->tmpdir, "data", "transcripts.db", NULL);
  f->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  open_store (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->store);
  test_remove_tree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->path);
  g_ptr_array_unref (f->problems);
}

/* Closes the store (writing everything) and opens it again */
static void
reopen (Fixture *f)
{
  g_clear_object (&f->store);
  open_store (f);
}

/* --- waiting for answers --- */

static void
flush (PalTranscriptStore *store)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_transcript_store_flush_async (store, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  g_assert_true (pal_transcript_store_flush_finish (store, result, &error));
  g_assert_no_error (error);
}

static GListModel *
search (PalTranscriptStore       *store,
        const char               *text,
        PalTranscriptSearchFlags  flags)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *found;

  pal_transcript_store_search_async (store, text, flags, 50, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  found = pal_transcript_store_search_finish (store, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (found);

  return found;
}

/* How many sessions have a match of @text */
static guint
n_found (PalTranscriptStore       *store,
         const char               *text,
         PalTranscriptSearchFlags  flags)
{
  g_autoptr(GListModel) found = search (store, text, flags);

  return g_list_model_get_n_items (found);
}

static guint64
get_size (PalTranscriptStore *store)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint64 size = 0;

  pal_transcript_store_get_size_async (store, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  g_assert_true (pal_transcript_store_get_size_finish (store, result, &size, &error));
  g_assert_no_error (error);

  return size;
}

static gboolean
end_replay (PalTranscriptStore *store,
            PalSessionKey      *key)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean replaced = FALSE;

  pal_transcript_store_end_replay_async (store, key, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  g_assert_true (pal_transcript_store_end_replay_finish (store, result, &replaced, &error));
  g_assert_no_error (error);

  return replaced;
}

/* --- recording --- */

static const char *
variant_of (PalTranscriptKind kind)
{
  switch (kind)
    {
    case PAL_TRANSCRIPT_KIND_USER_MESSAGE:
      return "user_message_chunk";
    case PAL_TRANSCRIPT_KIND_AGENT_MESSAGE:
      return "agent_message_chunk";
    case PAL_TRANSCRIPT_KIND_THOUGHT:
      return "agent_thought_chunk";
    case PAL_TRANSCRIPT_KIND_TOOL_CALL:
      return "tool_call";
    case PAL_TRANSCRIPT_KIND_OTHER:
    case PAL_TRANSCRIPT_KIND_PROMPT:
    default:
      return "plan";
    }
}

/* The JSON text of a chunk (or a tool call with @text as its title), of
 * the message or tool call @item (nullable) */
static char *
update_json (PalTranscriptKind  kind,
             const char        *item,
             const char        *text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sessionUpdate");
  json_builder_add_string_value (builder, variant_of (kind));
  if (kind == PAL_TRANSCRIPT_KIND_TOOL_CALL)
    {
      if (item != NULL)
        {
          json_builder_set_member_name (builder, "toolCallId");
          json_builder_add_string_value (builder, item);
        }
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, text);
    }
  else
    {
      if (item != NULL)
        {
          json_builder_set_member_name (builder, "messageId");
          json_builder_add_string_value (builder, item);
        }
      json_builder_set_member_name (builder, "content");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "text");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, text);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

static void
record (PalTranscriptStore *store,
        PalSessionKey      *key,
        PalTranscriptKind   kind,
        const char         *item,
        const char         *text)
{
  g_autofree char *json = update_json (kind, item, text);

  pal_transcript_store_record_update (store, key, json);
}

/* Entry @index is an update of @kind (of message or tool call @item,
 * nullable) with @text */
static void
assert_item_entry (PalStoredTranscript *stored,
                   guint                index,
                   PalTranscriptKind    kind,
                   const char          *item,
                   const char          *text)
{
  g_autofree char *json = update_json (kind, item, text);
  gsize length = 0;

  g_assert_cmpint (pal_stored_transcript_get_kind (stored, index), ==, kind);
  g_assert_cmpstr (pal_stored_transcript_get_json (stored, index, &length), ==, json);
  g_assert_cmpuint (length, ==, strlen (json));
  g_assert_cmpint (pal_stored_transcript_get_time (stored, index), >, 0);
}

static void
assert_entry (PalStoredTranscript *stored,
              guint                index,
              PalTranscriptKind    kind,
              const char          *text)
{
  assert_item_entry (stored, index, kind, NULL, text);
}

/* --- tests --- */

static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(PalSessionKey) a = pal_session_key_new ("agent-a", "shared-id");
  g_autoptr(PalSessionKey) b = pal_session_key_new ("agent-b", "shared-id");
  g_autoptr(PalSessionKey) none = pal_session_key_new ("agent-a", "never-used");
  g_autoptr(PalStoredTranscript) stored_a = NULL;
  g_autoptr(PalStoredTranscript) stored_b = NULL;
  g_autoptr(PalStoredTranscript) stored_none = NULL;
  const char *blocks = "[{\"type\":\"text\",\"text\":\"Hi there\"}]";
  gsize length;

  /* two agents that hand out the same session id, interleaved */
  pal_transcript_store_record_prompt (f->store, a, blocks);
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *text_a = g_strdup_printf ("a says %u", i);
      g_autofree char *text_b = g_strdup_printf ("b says %u ✓ \"quoted\"", i);

      record (f->store, a, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, text_a);
      record (f->store, b, PAL_TRANSCRIPT_KIND_THOUGHT, NULL, text_b);
    }

  stored_a = test_load_stored (f->store, a);
  stored_b = test_load_stored (f->store, b);
  stored_none = test_load_stored (f->store, none);

  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored_a), ==, 101);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored_b), ==, 100);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored_none), ==, 0);

  g_assert_cmpint (pal_stored_transcript_get_kind (stored_a, 0), ==, PAL_TRANSCRIPT_KIND_PROMPT);
  g_assert_cmpstr (pal_stored_transcript_get_json (stored_a, 0, &length), ==, blocks);
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *text_a = g_strdup_printf ("a says %u", i);
      g_autofree char *text_b = g_strdup_printf ("b says %u ✓ \"quoted\"", i);

      assert_entry (stored_a, i + 1, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, text_a);
      assert_entry (stored_b, i, PAL_TRANSCRIPT_KIND_THOUGHT, text_b);
    }
  /* in the order recorded */
  g_assert_cmpint (pal_stored_transcript_get_time (stored_a, 0), <=,
                   pal_stored_transcript_get_time (stored_a, 100));
  g_assert_cmpuint (f->problems->len, ==, 0);
}

static void
test_reopen (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "long");
  g_autoptr(PalStoredTranscript) stored = NULL;
  /* more than one batch holds */
  const guint n = 12345;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("update %u", i);

      record (f->store, key, PAL_TRANSCRIPT_KIND_OTHER, NULL, text);
    }
  /* no flush: disposing of the store writes what waits */
  reopen (f);

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "after reopening");
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, n + 1);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("update %u", i);

      assert_entry (stored, i, PAL_TRANSCRIPT_KIND_OTHER, text);
    }
  assert_entry (stored, n, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "after reopening");
  g_assert_cmpuint (f->problems->len, ==, 0);
}

/* More sessions written at once than the store keeps in memory */
static void
test_many_sessions (Fixture       *f,
                    gconstpointer  data)
{
  const guint n = 100;

  for (guint round = 0; round < 3; round++)
    {
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *id = g_strdup_printf ("session-%u", i);
          g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", id);
          g_autofree char *text = g_strdup_printf ("round %u of %s", round, id);

          /* one message, by its id, across the rounds; a transaction
           * each, which the other sessions are not part of */
          record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "message", text);
          flush (f->store);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("session-%u", i);
      g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", id);
      g_autoptr(PalStoredTranscript) stored = test_load_stored (f->store, key);

      g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 3);
      for (guint round = 0; round < 3; round++)
        {
          g_autofree char *text = g_strdup_printf ("round %u of %s", round, id);

          assert_item_entry (stored, round, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "message", text);
        }
    }
  g_assert_cmpuint (f->problems->len, ==, 0);
}

static void
close_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (pal_transcript_store_close_finish (PAL_TRANSCRIPT_STORE (source), result,
                                                    &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
test_close (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "closed");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *slot = NULL;
  gboolean closed = FALSE;

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "before closing");
  pal_transcript_store_close_async (f->store, NULL, close_cb, &closed);
  WAIT_UNTIL (is_true (&closed));

  /* dropped, and reads say why */
  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "after closing");
  pal_transcript_store_load_async (f->store, key, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  g_assert_null (pal_transcript_store_load_finish (f->store, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED);

  reopen (f);
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 1);
  assert_entry (stored, 0, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "before closing");
}

static void
record_history (PalTranscriptStore *store,
                PalSessionKey      *key,
                const char         *word,
                guint               n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("%s number %u", word, i);

      record (store, key, i % 2 == 0 ? PAL_TRANSCRIPT_KIND_USER_MESSAGE
                                     : PAL_TRANSCRIPT_KIND_AGENT_MESSAGE,
              NULL, text);
    }
}

static void
assert_history (PalStoredTranscript *stored,
                const char          *word,
                guint                n)
{
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("%s number %u", word, i);

      assert_entry (stored, i, i % 2 == 0 ? PAL_TRANSCRIPT_KIND_USER_MESSAGE
                                          : PAL_TRANSCRIPT_KIND_AGENT_MESSAGE,
                    text);
    }
}

static PalTranscriptSearchResult *
get_result (GListModel *found,
            guint       index)
{
  g_autoptr(PalTranscriptSearchResult) result = g_list_model_get_item (found, index);

  g_assert_nonnull (result);

  /* the model holds it */
  return result;
}

static void
test_replay_same (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "replayed");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GListModel) found = NULL;

  record_history (f->store, key, "original", 40);
  flush (f->store);

  pal_transcript_store_begin_replay (f->store, key);
  record_history (f->store, key, "original", 40);
  g_assert_false (end_replay (f->store, key));

  /* not twice */
  stored = test_load_stored (f->store, key);
  assert_history (stored, "original", 40);
  found = search (f->store, "original", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_assert_cmpuint (pal_transcript_search_result_get_n_matches (get_result (found, 0)), ==, 40);
}

static void
test_replay_differs (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "replayed");
  g_autoptr(PalSessionKey) other = pal_session_key_new ("agent", "other");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(PalStoredTranscript) stored_other = NULL;
  g_autoptr(GListModel) old_found = NULL;
  g_autoptr(GListModel) new_found = NULL;

  record_history (f->store, key, "original", 40);
  flush (f->store);

  /* the agent's history changed: a shorter one with other words; what
   * another session records meanwhile is not part of it */
  pal_transcript_store_begin_replay (f->store, key);
  record_history (f->store, key, "rewritten", 25);
  record (f->store, other, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "meanwhile");
  g_assert_true (end_replay (f->store, key));

  stored = test_load_stored (f->store, key);
  assert_history (stored, "rewritten", 25);
  stored_other = test_load_stored (f->store, other);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored_other), ==, 1);

  /* the index follows */
  old_found = search (f->store, "original", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (old_found), ==, 0);
  new_found = search (f->store, "rewritten", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (new_found), ==, 1);

  /* after the replay, updates go on at its end */
  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "live again");
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 26);
  assert_entry (stored, 25, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "live again");
}

static void
test_replay_kept (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "replayed");
  g_autoptr(PalStoredTranscript) stored = NULL;

  record_history (f->store, key, "original", 10);

  /* a replay that did not complete changes nothing */
  pal_transcript_store_begin_replay (f->store, key);
  record_history (f->store, key, "partial", 3);
  pal_transcript_store_abort_replay (f->store, key);

  /* nor does one that brought nothing */
  pal_transcript_store_begin_replay (f->store, key);
  g_assert_false (end_replay (f->store, key));

  stored = test_load_stored (f->store, key);
  assert_history (stored, "original", 10);
}

static void
assert_highlighted (PalTranscriptHit *hit,
                    const char       *word)
{
  const char *snippet = pal_transcript_hit_get_snippet (hit);
  const PalTextRange *ranges;
  guint n_ranges;

  ranges = pal_transcript_hit_get_highlights (hit, &n_ranges);
  g_assert_cmpuint (n_ranges, >=, 1);
  for (guint i = 0; i < n_ranges; i++)
    {
      g_autofree char *marked = g_strndup (snippet + ranges[i].start,
                                           ranges[i].end - ranges[i].start);

      g_assert_cmpstr (marked, ==, word);
    }
  g_assert_null (strchr (snippet, '\x01'));
  g_assert_null (strchr (snippet, '\x02'));
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(PalSessionKey) old = pal_session_key_new ("agent", "old");
  g_autoptr(PalSessionKey) mid = pal_session_key_new ("agent", "mid");
  g_autoptr(PalSessionKey) recent = pal_session_key_new ("other-agent", "recent");
  g_autoptr(GListModel) found = NULL;
  PalTranscriptSearchResult *result;
  PalTranscriptHit *hit;

  pal_transcript_store_record_prompt (f->store, old, "[{\"type\":\"text\",\"text\":\"Where is the walrus?\"}]");
  record (f->store, old, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "The walrus lives far north.");
  flush (f->store);

  /* a message streamed in pieces is searched whole: pieces written apart
   * are entries of their own (in one batch, they would be one) */
  record (f->store, mid, PAL_TRANSCRIPT_KIND_OTHER, NULL, "plan");
  record (f->store, mid, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "The wal");
  flush (f->store);
  record (f->store, mid, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "rus and the ");
  flush (f->store);
  record (f->store, mid, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "carpenter");
  record (f->store, mid, PAL_TRANSCRIPT_KIND_THOUGHT, NULL, "Pondering oysters");
  flush (f->store);

  /* a tool call and its update are one text */
  record (f->store, recent, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "m1", "Let me look");
  record (f->store, recent, PAL_TRANSCRIPT_KIND_TOOL_CALL, "call-1", "Read walrus.txt");
  record (f->store, recent, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "m2", "Reading…");
  record (f->store, recent, PAL_TRANSCRIPT_KIND_TOOL_CALL, "call-1", "tusks and whiskers");
  record (f->store, recent, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "m1", " at the file.");

  /* newest first, grouped by session */
  found = search (f->store, "walrus", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 3);

  result = get_result (found, 0);
  g_assert_cmpstr (pal_session_key_get_agent_id (pal_transcript_search_result_get_key (result)),
                   ==, "other-agent");
  g_assert_cmpuint (pal_transcript_search_result_get_n_matches (result), ==, 1);
  hit = pal_transcript_search_result_get_hit (result, 0);
  g_assert_cmpuint (pal_transcript_hit_get_index (hit), ==, 1);
  g_assert_cmpint (pal_transcript_hit_get_kind (hit), ==, PAL_TRANSCRIPT_KIND_TOOL_CALL);
  assert_highlighted (hit, "walrus");

  result = get_result (found, 1);
  g_assert_cmpstr (pal_session_key_get_session_id (pal_transcript_search_result_get_key (result)),
                   ==, "mid");
  hit = pal_transcript_search_result_get_hit (result, 0);
  /* where the message starts */
  g_assert_cmpuint (pal_transcript_hit_get_index (hit), ==, 1);
  g_assert_cmpstr (pal_transcript_hit_get_snippet (hit), ==, "The walrus and the carpenter");
  assert_highlighted (hit, "walrus");

  result = get_result (found, 2);
  g_assert_cmpstr (pal_session_key_get_session_id (pal_transcript_search_result_get_key (result)),
                   ==, "old");
  g_assert_cmpuint (pal_transcript_search_result_get_n_matches (result), ==, 2);
  g_assert_cmpuint (pal_transcript_search_result_get_n_hits (result), ==, 2);
  /* the newest match first */
  g_assert_cmpuint (pal_transcript_hit_get_index (pal_transcript_search_result_get_hit (result, 0)),
                    ==, 1);
  hit = pal_transcript_search_result_get_hit (result, 1);
  g_assert_cmpuint (pal_transcript_hit_get_index (hit), ==, 0);
  g_assert_cmpint (pal_transcript_hit_get_kind (hit), ==, PAL_TRANSCRIPT_KIND_PROMPT);
  g_assert_cmpint (pal_transcript_search_result_get_updated (get_result (found, 1)), <,
                   pal_transcript_search_result_get_updated (get_result (found, 0)));
  g_clear_object (&found);

  /* the tool call's update, the message continued by its id */
  found = search (f->store, "whiskers walrus", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_clear_object (&found);
  found = search (f->store, "\"look at the file\"", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  hit = pal_transcript_search_result_get_hit (get_result (found, 0), 0);
  g_assert_cmpuint (pal_transcript_hit_get_index (hit), ==, 0);
  g_clear_object (&found);

  /* thoughts only when asked */
  found = search (f->store, "oysters", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 0);
  g_clear_object (&found);
  found = search (f->store, "oysters", PAL_TRANSCRIPT_SEARCH_THOUGHTS);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  hit = pal_transcript_search_result_get_hit (get_result (found, 0), 0);
  g_assert_cmpint (pal_transcript_hit_get_kind (hit), ==, PAL_TRANSCRIPT_KIND_THOUGHT);
  g_assert_cmpuint (pal_transcript_hit_get_index (hit), ==, 4);
  g_clear_object (&found);

  /* prefixes and phrases */
  found = search (f->store, "carp*", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_clear_object (&found);
  found = search (f->store, "carp", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 0);
  g_clear_object (&found);
  found = search (f->store, "\"walrus lives\"", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_clear_object (&found);
  found = search (f->store, "\"lives walrus\"", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 0);
  g_clear_object (&found);
  /* case and accents do not matter */
  found = search (f->store, "WÁLRUS", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 3);
  g_clear_object (&found);

  /* at most as many sessions as asked */
  {
    GAsyncResult *slot = NULL;
    g_autoptr(GAsyncResult) async_result = NULL;

    pal_transcript_store_search_async (f->store, "walrus", PAL_TRANSCRIPT_SEARCH_DEFAULT, 2,
                                       NULL, test_store_result_cb, &slot);
    async_result = WAIT_RESULT (&slot);
    found = pal_transcript_store_search_finish (f->store, async_result, NULL);
    g_assert_cmpuint (g_list_model_get_n_items (found), ==, 2);
    g_clear_object (&found);
  }
}

/* More matches than a search counts through the whole index */
static void
test_search_many (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(PalSessionKey) old = pal_session_key_new ("agent", "old");
  g_autoptr(PalSessionKey) busy = pal_session_key_new ("agent", "busy");
  g_autoptr(PalSessionKey) quiet = pal_session_key_new ("agent", "quiet");
  g_autoptr(PalSessionKey) recent = pal_session_key_new ("agent", "recent");
  g_autoptr(GListModel) found = NULL;
  PalTranscriptSearchResult *result;
  PalTranscriptHit *hit;

  g_clear_object (&f->store);
  f->store = g_object_new (PAL_TYPE_TRANSCRIPT_STORE, "path", f->path,
                           "search-count-limit", 2000, NULL);
  g_signal_connect (f->store, "problem", G_CALLBACK (problem_cb), f);

  record (f->store, old, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "common in the oldest");
  flush (f->store);
  for (guint i = 0; i < 2100; i++)
    {
      g_autofree char *item = g_strdup_printf ("m%u", i);
      g_autofree char *text = g_strdup_printf ("common word %u", i);

      record (f->store, busy, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, item, text);
    }
  flush (f->store);
  record (f->store, quiet, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "nothing to see");
  flush (f->store);
  record (f->store, recent, PAL_TRANSCRIPT_KIND_USER_MESSAGE, NULL, "the common one");
  record (f->store, recent, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "and again common");

  found = search (f->store, "common", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 3);

  result = get_result (found, 0);
  g_assert_cmpstr (pal_session_key_get_session_id (pal_transcript_search_result_get_key (result)),
                   ==, "recent");
  g_assert_cmpuint (pal_transcript_search_result_get_n_matches (result), ==, 2);
  g_assert_false (pal_transcript_search_result_get_more_matches (result));
  g_assert_cmpuint (pal_transcript_hit_get_index (pal_transcript_search_result_get_hit (result, 0)),
                    ==, 1);

  /* counted up to a limit */
  result = get_result (found, 1);
  g_assert_cmpstr (pal_session_key_get_session_id (pal_transcript_search_result_get_key (result)),
                   ==, "busy");
  g_assert_cmpuint (pal_transcript_search_result_get_n_matches (result), <, 2100);
  g_assert_true (pal_transcript_search_result_get_more_matches (result));
  g_assert_cmpuint (pal_transcript_search_result_get_n_hits (result), >, 1);
  hit = pal_transcript_search_result_get_hit (result, 0);
  g_assert_cmpuint (pal_transcript_hit_get_index (hit), ==, 2099);
  g_assert_cmpstr (pal_transcript_hit_get_snippet (hit), ==, "common word 2099");
  assert_highlighted (hit, "common");

  result = get_result (found, 2);
  g_assert_cmpstr (pal_session_key_get_session_id (pal_transcript_search_result_get_key (result)),
                   ==, "old");
  g_assert_cmpuint (pal_transcript_search_result_get_n_matches (result), ==, 1);
  g_clear_object (&found);

  /* a rare word among them is still found through the whole index */
  found = search (f->store, "2099", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_assert_false (pal_transcript_search_result_get_more_matches (get_result (found, 0)));
}

static void
test_search_any_text (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "odd");
  const char * const queries[] = {
    "", "   ", "\"", "\"\"", "\"unbalanced", "AND", "OR", "NOT", "a AND", "NEAR(a b)",
    "(", ")", "((", "*", "**", "-", "a - b", "col:umn", "text:walrus", "^start", "+x",
    "'; DROP TABLE updates; --", "a\"b", "\"a\"*\"b\"", "{text}: x", "\x01\x02", "✓",
    "NEAR", "x*y", "\\", "%", "_", "\t\n", "ünïcödé", "日本語", "🦭",
  };
  g_autoptr(GListModel) found = NULL;

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL,
          "AND OR NOT NEAR col:umn a - b (parenthesised) 日本語 🦭 \x01marked\x02");

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autoptr(GListModel) any = search (f->store, queries[i], PAL_TRANSCRIPT_SEARCH_THOUGHTS);

      g_assert_nonnull (any);
    }

  /* operators are words like any other */
  found = search (f->store, "NEAR AND", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_clear_object (&found);
  found = search (f->store, "(parenthesised)", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_clear_object (&found);
  /* the bytes that mark matches are not taken for marks */
  found = search (f->store, "marked", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  assert_highlighted (pal_transcript_search_result_get_hit (get_result (found, 0), 0), "marked");
}

static void
test_build_query (void)
{
  const struct {
    const char *text;
    const char *query;
  } cases[] = {
    { "walrus", "\"walrus\"" },
    { "  two   words ", "\"two\" \"words\"" },
    { "pre*", "\"pre\"*" },
    { "\"a phrase\" word", "\"a phrase\" \"word\"" },
    { "\"a phrase\"*", "\"a phrase\"*" },
    { "\"unbalanced phrase", "\"unbalanced phrase\"" },
    { "AND OR NOT", "\"AND\" \"OR\" \"NOT\"" },
    { "col:umn", "\"col:umn\"" },
    { "- * ( ) \"\"", NULL },
    { "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *query = pal_transcript_search_build_query (cases[i].text);

      g_assert_cmpstr (query, ==, cases[i].query);
    }
}

static void
delete_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  PalTranscriptStore *store = PAL_TRANSCRIPT_STORE (source);
  g_autoptr(GError) error = NULL;

  if (g_async_result_is_tagged (result, pal_transcript_store_delete_async))
    g_assert_true (pal_transcript_store_delete_finish (store, result, &error));
  else
    g_assert_true (pal_transcript_store_delete_all_finish (store, result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static void
test_delete (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(PalSessionKey) kept = pal_session_key_new ("agent", "kept");
  g_autoptr(PalSessionKey) deleted = pal_session_key_new ("agent", "deleted");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GListModel) found = NULL;
  g_autofree char *filler = g_strnfill (2000, 'x');
  guint64 empty_size, full_size, size;
  gboolean done = FALSE;

  empty_size = get_size (f->store);

  record_history (f->store, kept, "keeper", 20);
  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *text = g_strdup_printf ("goner %u %s", i, filler);

      record (f->store, deleted, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, text);
    }
  full_size = get_size (f->store);
  g_assert_cmpuint (full_size, >, empty_size + 2000 * 2000);

  pal_transcript_store_delete_async (f->store, deleted, NULL, delete_cb, &done);
  WAIT_UNTIL (is_true (&done));

  stored = test_load_stored (f->store, deleted);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 0);
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  stored = test_load_stored (f->store, kept);
  assert_history (stored, "keeper", 20);
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  found = search (f->store, "goner", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 0);
  g_clear_object (&found);
  found = search (f->store, "keeper", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_clear_object (&found);
  /* the space is given back */
  size = get_size (f->store);
  g_assert_cmpuint (size, <, full_size / 4);

  /* a session deleted can be recorded again, from its start */
  record (f->store, deleted, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "anew");
  stored = test_load_stored (f->store, deleted);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 1);
  g_clear_pointer (&stored, pal_stored_transcript_unref);

  done = FALSE;
  pal_transcript_store_delete_all_async (f->store, NULL, delete_cb, &done);
  WAIT_UNTIL (is_true (&done));
  stored = test_load_stored (f->store, kept);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 0);
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  stored = test_load_stored (f->store, deleted);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 0);
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  found = search (f->store, "keeper", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 0);
  g_clear_object (&found);

  /* and the store goes on */
  record_history (f->store, kept, "again", 4);
  stored = test_load_stored (f->store, kept);
  assert_history (stored, "again", 4);
  found = search (f->store, "again", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_assert_cmpuint (f->problems->len, ==, 0);
}

static gboolean
has_problem (gpointer data)
{
  Fixture *f = data;

  return f->problems->len > 0;
}

static char *
find_moved (Fixture *f)
{
  g_autofree char *folder = g_path_get_dirname (f->path);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "transcripts.db.damaged-") && !g_str_has_suffix (name, "-wal") &&
        !g_str_has_suffix (name, "-shm"))
      return g_build_filename (folder, name, NULL);

  return NULL;
}

static void
test_damaged (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "after");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autofree char *garbage = g_strnfill (8192, '\x5a');
  g_autofree char *folder = g_path_get_dirname (f->path);
  g_autofree char *moved = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;
  GError *problem;

  g_clear_object (&f->store);
  g_mkdir_with_parents (folder, 0700);
  g_file_set_contents (f->path, garbage, 8192, &error);
  g_assert_no_error (error);
  open_store (f);

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "in the new one");
  flush (f->store);
  WAIT_UNTIL (has_problem (f));

  /* moved aside, as it was, and said where */
  moved = find_moved (f);
  g_assert_nonnull (moved);
  g_file_get_contents (moved, &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (contents, length, garbage, 8192);
  g_assert_cmpuint (f->problems->len, ==, 1);
  problem = g_ptr_array_index (f->problems, 0);
  g_assert_error (problem, PAL_ERROR, PAL_ERROR_DAMAGED);
  g_assert_nonnull (strstr (problem->message, moved));

  /* and a new one works */
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 1);
  assert_entry (stored, 0, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "in the new one");
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  reopen (f);
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 1);
  g_assert_cmpuint (f->problems->len, ==, 1);
}

/* Chinese and Japanese put no space between words: a word is found where
 * its characters stand together, in a sentence or next to Latin letters */
static void
test_search_ideographs (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(PalSessionKey) chinese = pal_session_key_new ("agent", "chinese");
  g_autoptr(PalSessionKey) japanese = pal_session_key_new ("agent", "japanese");
  g_autoptr(GListModel) found = NULL;
  PalTranscriptHit *hit;

  record (f->store, chinese, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL,
          "我们讨论了会话历史的搜索功能，用GTK写的。");
  record (f->store, japanese, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL,
          "セッションの履歴を検索します");
  flush (f->store);

  found = search (f->store, "会话", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  hit = pal_transcript_search_result_get_hit (get_result (found, 0), 0);
  assert_highlighted (hit, "会话");
  g_clear_object (&found);

  g_assert_cmpuint (n_found (f->store, "历史 搜索", PAL_TRANSCRIPT_SEARCH_DEFAULT), ==, 1);
  g_assert_cmpuint (n_found (f->store, "gtk", PAL_TRANSCRIPT_SEARCH_DEFAULT), ==, 1);
  found = search (f->store, "検索", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  assert_highlighted (pal_transcript_search_result_get_hit (get_result (found, 0), 0), "検索");
  g_clear_object (&found);
  g_assert_cmpuint (n_found (f->store, "セッション", PAL_TRANSCRIPT_SEARCH_DEFAULT), ==, 1);

  /* the characters of a word apart are not the word */
  g_assert_cmpuint (n_found (f->store, "会历", PAL_TRANSCRIPT_SEARCH_DEFAULT), ==, 0);
}

static int
read_user_version (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int version = -1;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==,
                   SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return version;
}

static void
exec_sql (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static void
test_migrate_empty (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "migrated");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GListModel) found = NULL;
  g_autofree char *folder = g_path_get_dirname (f->path);
  g_autoptr(GError) error = NULL;

  /* an empty file is a database of version 0 */
  g_clear_object (&f->store);
  g_mkdir_with_parents (folder, 0700);
  g_file_set_contents (f->path, "", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (read_user_version (f->path), ==, 0);
  open_store (f);

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "migrated");
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 1);
  found = search (f->store, "migrated", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  g_clear_object (&f->store);

  g_assert_cmpint (read_user_version (f->path), ==, PAL_TRANSCRIPT_DB_VERSION);
  g_assert_null (find_moved (f));
  g_assert_cmpuint (f->problems->len, ==, 0);
}

/* A file of version 1 indexed with unicode61 alone: opened, its indexes are
 * made again with the tokenizer that cuts ideographs */
static void
test_migrate_from_1 (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "older");
  sqlite3 *db = NULL;

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "The walrus");
  record (f->store, key, PAL_TRANSCRIPT_KIND_THOUGHT, NULL, "想想会话");
  flush (f->store);
  g_clear_object (&f->store);

  /* as version 1 made them */
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_true (_pal_transcript_db_add_tokenizer (db, NULL));
  g_assert_cmpint (sqlite3_exec (db,
    "DROP TABLE messages_fts; DROP TABLE thoughts_fts;"
    "CREATE VIRTUAL TABLE messages_fts USING fts5 (text, content = 'docs',"
    "  content_rowid = 'id', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2');"
    "CREATE VIRTUAL TABLE thoughts_fts USING fts5 (text, content = 'docs',"
    "  content_rowid = 'id', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2');"
    "INSERT INTO messages_fts (rowid, text) SELECT id, text FROM docs WHERE kind != 4;"
    "INSERT INTO thoughts_fts (rowid, text) SELECT id, text FROM docs WHERE kind = 4;"
    "PRAGMA user_version = 1;", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  open_store (f);
  g_assert_cmpuint (n_found (f->store, "会话", PAL_TRANSCRIPT_SEARCH_THOUGHTS), ==, 1);
  g_assert_cmpuint (n_found (f->store, "会话", PAL_TRANSCRIPT_SEARCH_DEFAULT), ==, 0);
  g_assert_cmpuint (n_found (f->store, "walrus", PAL_TRANSCRIPT_SEARCH_DEFAULT), ==, 1);
  g_clear_object (&f->store);

  g_assert_cmpint (read_user_version (f->path), ==, 2);
  g_assert_null (find_moved (f));
  g_assert_cmpuint (f->problems->len, ==, 0);
}

static void
test_newer_version (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "future");
  g_autofree char *folder = g_path_get_dirname (f->path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *slot = NULL;
  GError *problem;

  /* written by a later version: left alone, and said so */
  g_clear_object (&f->store);
  g_mkdir_with_parents (folder, 0700);
  exec_sql (f->path, "CREATE TABLE later (x); PRAGMA user_version = 99");
  open_store (f);

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "not stored");
  pal_transcript_store_load_async (f->store, key, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  g_assert_null (pal_transcript_store_load_finish (f->store, result, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  WAIT_UNTIL (has_problem (f));
  problem = g_ptr_array_index (f->problems, 0);
  g_assert_error (problem, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  g_clear_object (&f->store);

  g_assert_null (find_moved (f));
  g_assert_cmpint (read_user_version (f->path), ==, 99);
}

static void
test_locked (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "locked");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *slot = NULL;
  sqlite3 *other = NULL;

  g_clear_object (&f->store);
  f->store = g_object_new (PAL_TYPE_TRANSCRIPT_STORE, "path", f->path, "busy-timeout", 0, NULL);
  g_signal_connect (f->store, "problem", G_CALLBACK (problem_cb), f);
  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "first");
  flush (f->store);

  /* another program writes */
  g_assert_cmpint (sqlite3_open (f->path, &other), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (other, "BEGIN IMMEDIATE", NULL, NULL, NULL), ==, SQLITE_OK);

  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "second");
  pal_transcript_store_flush_async (f->store, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  g_assert_false (pal_transcript_store_flush_finish (f->store, result, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_LOCKED);

  /* kept for the next try */
  g_assert_cmpint (sqlite3_exec (other, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (other);
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 2);
  assert_entry (stored, 1, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "second");
  g_assert_cmpuint (f->problems->len, ==, 0);
}

/* Where a test's subprocess keeps its store: named after the test and the
 * test's own process */
static char *
subprocess_folder (const char *name,
                   GPid        test_pid)
{
  g_autofree char *base = g_strdup_printf ("palaver-transcripts-%s-%d", name, (int) test_pid);

  return g_build_filename (g_get_tmp_dir (), base, NULL);
}

static void
test_killed (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "killed");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autofree char *folder = NULL;
  guint n;

  if (g_test_subprocess ())
    {
      g_autofree char *path = NULL;
      g_autoptr(PalTranscriptStore) store = NULL;

      folder = subprocess_folder ("killed", getppid ());
      path = g_build_filename (folder, "transcripts.db", NULL);
      store = pal_transcript_store_new (path);
      record_history (store, key, "saved", 500);
      flush (store);
      /* a turn under way */
      record_history (store, key, "unsaved", 500);
      raise (SIGKILL);
      return;
    }

  folder = subprocess_folder ("killed", getpid ());
  g_clear_object (&f->store);
  g_free (f->path);
  f->path = g_build_filename (folder, "transcripts.db", NULL);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();

  /* what was written is there, in order, whatever of the rest made it */
  open_store (f);
  stored = test_load_stored (f->store, key);
  n = pal_stored_transcript_get_n_entries (stored);
  g_assert_cmpuint (n, >=, 500);
  g_assert_cmpuint (n, <=, 1000);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("%s number %u", i < 500 ? "saved" : "unsaved",
                                               i % 500);

      assert_entry (stored, i, i % 2 == 0 ? PAL_TRANSCRIPT_KIND_USER_MESSAGE
                                          : PAL_TRANSCRIPT_KIND_AGENT_MESSAGE,
                    text);
    }

  /* and the store goes on from there */
  record (f->store, key, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, NULL, "after the crash");
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, n + 1);
  g_assert_cmpuint (f->problems->len, ==, 0);

  g_clear_object (&f->store);
  test_remove_tree (folder);
}

/* The largest of the database's files, and what SQLite keeps beside it */
static goffset
largest_file (const char *path)
{
  const char *suffixes[] = { "", "-wal", "-shm" };
  goffset largest = 0;

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *name = g_strconcat (path, suffixes[i], NULL);
      GStatBuf buf;

      if (g_stat (name, &buf) == 0)
        largest = MAX (largest, (goffset) buf.st_size);
    }

  return largest;
}

/* Files of this process cannot grow past @size bytes: a write beyond fails
 * with EFBIG, as on a full disk (the signal that would stop it is ignored).
 * A filesystem of its own would take privileges a test may not have. */
static void
limit_file_size (rlim_t size)
{
  struct rlimit limit;

  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  limit.rlim_cur = size;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
}

static void
unlimit_file_size (void)
{
  struct rlimit limit;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  limit.rlim_cur = limit.rlim_max;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
}

/* The disk fills up while the store writes: what was lost is said through
 * "problem", nothing saved before is lost, and the store goes on once
 * there is room again. */
static void
test_disk_full (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "full");
  g_autoptr(PalSessionKey) later_key = pal_session_key_new ("agent", "later");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autofree char *folder = NULL;

  if (g_test_subprocess ())
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      GAsyncResult *slot = NULL;
      GError *problem;

      folder = subprocess_folder ("full", getppid ());
      g_clear_object (&f->store);
      g_free (f->path);
      f->path = g_build_filename (folder, "transcripts.db", NULL);
      open_store (f);

      record_history (f->store, key, "saved", 200);
      flush (f->store);

      /* a long turn that does not fit */
      limit_file_size (largest_file (f->path) + 64 * 1024);
      record_history (f->store, key, "lost", 5000);
      pal_transcript_store_flush_async (f->store, NULL, test_store_result_cb, &slot);
      result = WAIT_RESULT (&slot);
      g_assert_false (pal_transcript_store_flush_finish (f->store, result, &error));
      g_assert_nonnull (error);

      /* said, with what was lost; a write that failed is no damage */
      WAIT_UNTIL (has_problem (f));
      g_assert_cmpuint (f->problems->len, ==, 1);
      problem = g_ptr_array_index (f->problems, 0);
      g_assert_false (g_error_matches (problem, PAL_ERROR, PAL_ERROR_DAMAGED));
      g_assert_true (g_str_has_prefix (problem->message, "Could not save to the history database"));
      g_assert_nonnull (strstr (problem->message, f->path));
      g_assert_nonnull (strstr (problem->message, "5000 recorded updates were not saved."));

      /* room again: the store goes on */
      unlimit_file_size ();
      record_history (f->store, later_key, "later", 100);
      flush (f->store);
      stored = test_load_stored (f->store, key);
      assert_history (stored, "saved", 200);
      g_clear_pointer (&stored, pal_stored_transcript_unref);
      stored = test_load_stored (f->store, later_key);
      assert_history (stored, "later", 100);
      g_assert_cmpuint (f->problems->len, ==, 1);
      return;
    }

  folder = subprocess_folder ("full", getpid ());
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();

  /* a database as it was, not damaged: the next start reads it all */
  g_clear_object (&f->store);
  g_free (f->path);
  f->path = g_build_filename (folder, "transcripts.db", NULL);
  open_store (f);
  stored = test_load_stored (f->store, key);
  assert_history (stored, "saved", 200);
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  stored = test_load_stored (f->store, later_key);
  assert_history (stored, "later", 100);
  g_assert_cmpuint (f->problems->len, ==, 0);
  g_assert_null (find_moved (f));

  g_clear_object (&f->store);
  test_remove_tree (folder);
}

/* Two stores (two instances of the application) on one database */
static void
test_two_stores (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(PalTranscriptStore) second = pal_transcript_store_new (f->path);
  g_autoptr(PalSessionKey) first_key = pal_session_key_new ("agent", "first");
  g_autoptr(PalSessionKey) second_key = pal_session_key_new ("agent", "second");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GListModel) found = NULL;

  for (guint i = 0; i < 5; i++)
    {
      record_history (f->store, first_key, "first", 200);
      record_history (second, second_key, "second", 200);
      flush (f->store);
      flush (second);
    }

  stored = test_load_stored (f->store, second_key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 1000);
  g_clear_pointer (&stored, pal_stored_transcript_unref);
  stored = test_load_stored (second, first_key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 1000);
  found = search (second, "first OR second", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 0);
  g_clear_object (&found);
  found = search (second, "number", PAL_TRANSCRIPT_SEARCH_DEFAULT);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 2);
  g_assert_cmpuint (f->problems->len, ==, 0);
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "cancelled");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GAsyncResult) load_result = NULL;
  g_autoptr(GAsyncResult) search_result = NULL;
  g_autoptr(GError) load_error = NULL;
  g_autoptr(GError) search_error = NULL;
  GAsyncResult *load_slot = NULL;
  GAsyncResult *search_slot = NULL;

  record_history (f->store, key, "cancelled", 1000);
  pal_transcript_store_load_async (f->store, key, cancellable, test_store_result_cb, &load_slot);
  pal_transcript_store_search_async (f->store, "cancelled", PAL_TRANSCRIPT_SEARCH_DEFAULT, 10,
                                     cancellable, test_store_result_cb, &search_slot);
  g_cancellable_cancel (cancellable);

  load_result = WAIT_RESULT (&load_slot);
  g_assert_null (pal_transcript_store_load_finish (f->store, load_result, &load_error));
  g_assert_error (load_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  search_result = WAIT_RESULT (&search_slot);
  g_assert_null (pal_transcript_store_search_finish (f->store, search_result, &search_error));
  g_assert_error (search_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* nothing else was */
  stored = test_load_stored (f->store, key);
  assert_history (stored, "cancelled", 1000);
  g_assert_cmpuint (f->problems->len, ==, 0);
}

static void
test_entry_read (void)
{
  const struct {
    PalTranscriptKind given;
    const char *json;
    PalTranscriptKind kind;
    const char *item;
    const char *text;
    gboolean plain_chunk;
  } cases[] = {
    { PAL_TRANSCRIPT_KIND_OTHER,
      "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\","
      "\"content\":{\"type\":\"text\",\"text\":\"Hello\"}}",
      PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "m1", "Hello", TRUE },
    { PAL_TRANSCRIPT_KIND_OTHER,
      "{\"sessionUpdate\":\"user_message_chunk\","
      "\"content\":{\"type\":\"text\",\"text\":\"Hi\"}}",
      PAL_TRANSCRIPT_KIND_USER_MESSAGE, NULL, "Hi", TRUE },
    /* more to it than text: kept as it is */
    { PAL_TRANSCRIPT_KIND_OTHER,
      "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\","
      "\"text\":\"Hi\",\"annotations\":{\"priority\":1}}}",
      PAL_TRANSCRIPT_KIND_USER_MESSAGE, NULL, "Hi", FALSE },
    { PAL_TRANSCRIPT_KIND_OTHER,
      "{\"sessionUpdate\":\"agent_thought_chunk\",\"messageId\":7,"
      "\"content\":{\"type\":\"image\",\"data\":\"AAAA\"}}",
      PAL_TRANSCRIPT_KIND_THOUGHT, NULL, NULL, FALSE },
    { PAL_TRANSCRIPT_KIND_OTHER,
      "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Read a.c\","
      "\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"out\"}},"
      "{\"type\":\"diff\",\"path\":\"/p/a.c\",\"newText\":\"x\"},"
      "{\"type\":\"terminal\",\"terminalId\":\"term\"}, 5]}",
      PAL_TRANSCRIPT_KIND_TOOL_CALL, "t1", "Read a.c\nout\n/p/a.c", FALSE },
    { PAL_TRANSCRIPT_KIND_OTHER,
      "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}",
      PAL_TRANSCRIPT_KIND_TOOL_CALL, "t1", NULL, FALSE },
    { PAL_TRANSCRIPT_KIND_OTHER, "{\"sessionUpdate\":\"plan\",\"entries\":[]}",
      PAL_TRANSCRIPT_KIND_OTHER, NULL, NULL, FALSE },
    { PAL_TRANSCRIPT_KIND_OTHER, "{\"sessionUpdate\":[]}", PAL_TRANSCRIPT_KIND_OTHER, NULL,
      NULL, FALSE },
    /* not JSON, or not an update: kept, not searched */
    { PAL_TRANSCRIPT_KIND_OTHER, "{\"sessionUpdate\":", PAL_TRANSCRIPT_KIND_OTHER, NULL, NULL,
      FALSE },
    { PAL_TRANSCRIPT_KIND_OTHER, "[1, 2]", PAL_TRANSCRIPT_KIND_OTHER, NULL, NULL, FALSE },
    /* prompts: the text of their text blocks */
    { PAL_TRANSCRIPT_KIND_PROMPT,
      "[{\"type\":\"text\",\"text\":\"Look at\"},{\"type\":\"image\",\"data\":\"AA\"},"
      "{\"type\":\"text\",\"text\":\"this\"}]",
      PAL_TRANSCRIPT_KIND_PROMPT, NULL, "Look at\nthis", FALSE },
    { PAL_TRANSCRIPT_KIND_PROMPT, "{\"type\":\"text\"}", PAL_TRANSCRIPT_KIND_PROMPT, NULL, NULL,
      FALSE },
  };
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PalTranscriptEntry entry;

      pal_transcript_entry_read (&entry, doc, cases[i].given, cases[i].json,
                                 strlen (cases[i].json));
      g_assert_cmpint (entry.kind, ==, cases[i].kind);
      g_assert_cmpstr (entry.item, ==, cases[i].item);
      g_assert_cmpstr (entry.text, ==, cases[i].text);
      g_assert_cmpint (entry.plain_chunk, ==, cases[i].plain_chunk);
      pal_transcript_entry_clear (&entry);
    }
}

/* A chunk as AcpUpdate writes one: @n chunks of "ab" as @n_pieces */
static void
record_cut (PalTranscriptStore *store,
            PalSessionKey      *key,
            guint               n_pieces,
            const char * const *pieces)
{
  for (guint i = 0; i < n_pieces; i++)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      pal_transcript_chunk_write (json, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "m1", pieces[i],
                                  strlen (pieces[i]));
      pal_transcript_store_record_update (store, key, json->str);
    }
}

/* The text chunks of one message in a row are one entry, however they
 * were cut: the same replay cut otherwise is the same */
static void
test_replay_joins_chunks (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("agent", "cut");
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GString) whole = g_string_new (NULL);
  const char *first_cut[] = { "The wal", "rus \"and\" ", "the carpenter" };
  const char *second_cut[] = { "The walrus ", "\"and\" the carp", "enter" };
  gsize length;

  pal_transcript_store_begin_replay (f->store, key);
  record (f->store, key, PAL_TRANSCRIPT_KIND_USER_MESSAGE, NULL, "Who?");
  record_cut (f->store, key, G_N_ELEMENTS (first_cut), first_cut);
  g_assert_true (end_replay (f->store, key));

  stored = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (stored), ==, 2);
  pal_transcript_chunk_write (whole, PAL_TRANSCRIPT_KIND_AGENT_MESSAGE, "m1",
                              "The walrus \"and\" the carpenter", 30);
  g_assert_cmpstr (pal_stored_transcript_get_json (stored, 1, &length), ==, whole->str);

  /* cut otherwise: the same, nothing written */
  pal_transcript_store_begin_replay (f->store, key);
  record (f->store, key, PAL_TRANSCRIPT_KIND_USER_MESSAGE, NULL, "Who?");
  record_cut (f->store, key, G_N_ELEMENTS (second_cut), second_cut);
  g_assert_false (end_replay (f->store, key));

  /* and searched as one */
  {
    g_autoptr(GListModel) found = search (f->store, "carpenter", PAL_TRANSCRIPT_SEARCH_DEFAULT);

    g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/transcript-store/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("round-trip", test_round_trip);
  ADD ("reopen", test_reopen);
  ADD ("many-sessions", test_many_sessions);
  ADD ("close", test_close);
  ADD ("replay-same", test_replay_same);
  ADD ("replay-differs", test_replay_differs);
  ADD ("replay-kept", test_replay_kept);
  ADD ("replay-joins-chunks", test_replay_joins_chunks);
  ADD ("search", test_search);
  ADD ("search-many", test_search_many);
  ADD ("search-any-text", test_search_any_text);
  ADD ("search-ideographs", test_search_ideographs);
  g_test_add_func ("/transcript-store/build-query", test_build_query);
  g_test_add_func ("/transcript-store/entry-read", test_entry_read);
  ADD ("delete", test_delete);
  ADD ("damaged", test_damaged);
  ADD ("migrate-empty", test_migrate_empty);
  ADD ("migrate-from-1", test_migrate_from_1);
  ADD ("newer-version", test_newer_version);
  ADD ("locked", test_locked);
  ADD ("killed", test_killed);
  ADD ("two-stores", test_two_stores);
  ADD ("disk-full", test_disk_full);
  ADD ("cancel", test_cancel);

#undef ADD

  return g_test_run ();
}
