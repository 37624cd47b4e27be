/* test-session-history.c: sessions recorded into the transcript store by
 * the session manager, and read back as items without their agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The agent profiles run the fake agent ($PALAVER_FAKE_AGENT) with
 * tests/scenarios/history.json (or resume-only.json).
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "acp-plan-item.h"
#include "pal-session-history.h"
#include "pal-session-manager.h"
#include "store-util.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"

typedef struct
{
  GSettingsBackend   *backend;
  GSettings          *settings;
  PalAgentStore      *agents;
  PalSessionStore    *sessions;
  PalTranscriptStore *store;
  PalSessionManager  *manager;
  char               *tmpdir;
  char               *folder;
  GAsyncResult       *result;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = NULL;
  g_autofree char *path = NULL;

  tmpdir = g_dir_make_tmp ("palaver-session-history-XXXXXX", &error);
  g_assert_no_error (error);
  f->tmpdir = g_canonicalize_filename (tmpdir, NULL);
  f->folder = g_build_filename (f->tmpdir, "project", NULL);
  g_assert_cmpint (g_mkdir (f->folder, 0700), ==, 0);
  path = g_build_filename (f->tmpdir, "transcripts.db", NULL);

  f->backend = g_memory_settings_backend_new ();
  f->settings = g_settings_new_with_backend (SCHEMA_ID, f->backend);
  f->agents = pal_agent_store_new (f->settings);
  f->sessions = pal_session_store_new (f->settings);
  f->store = pal_transcript_store_new (path);
  f->manager = g_object_new (PAL_TYPE_SESSION_MANAGER,
                             "agent-store", f->agents,
                             "session-store", f->sessions,
                             "transcript-store", f->store,
                             NULL);
  test_add_agent (f->agents, "history", test_fake_agent_path (), "history.json");
  test_add_agent (f->agents, "resume-only", test_fake_agent_path (), "resume-only.json");
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_session_manager_shutdown_async (f->manager, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_shutdown_finish (f->manager, result, &error));

  g_clear_object (&f->manager);
  g_clear_object (&f->store);
  g_clear_object (&f->sessions);
  g_clear_object (&f->agents);
  g_clear_object (&f->settings);
  g_clear_object (&f->backend);
  test_remove_tree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->folder);
}

/* --- what the tests do --- */

static AcpSession *
new_session (Fixture    *f,
             const char *profile_id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AcpSession *session;

  pal_session_manager_new_session_async (f->manager, profile_id, f->folder, NULL, NULL, NULL,
                                         test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  session = pal_session_manager_new_session_finish (f->manager, result, &error);
  g_assert_no_error (error);

  return session;
}

static void
prompt (Fixture       *f,
        PalSessionKey *key,
        const char    *text)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;

  pal_session_manager_prompt_async (f->manager, key, text, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  stop_reason = pal_session_manager_prompt_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
}

static AcpSession *
open_session (Fixture       *f,
              PalSessionKey *key,
              gboolean       resume)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AcpSession *session;

  if (resume)
    {
      pal_session_manager_resume_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
      result = WAIT_RESULT (&f->result);
      session = pal_session_manager_resume_session_finish (f->manager, result, &error);
    }
  else
    {
      pal_session_manager_load_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
      result = WAIT_RESULT (&f->result);
      session = pal_session_manager_load_session_finish (f->manager, result, &error);
    }
  g_assert_no_error (error);
  g_assert_nonnull (session);

  return session;
}

static void
close_session (Fixture       *f,
               PalSessionKey *key)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_session_manager_close_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_close_session_finish (f->manager, result, &error));
  g_assert_no_error (error);
}

static PalSessionHistory *
load_history_with (Fixture                    *f,
                   PalSessionKey              *key,
                   PalSessionHistoryLoadFlags  flags)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  PalSessionHistory *history;

  pal_session_history_load_async (f->store, key, flags, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  history = pal_session_history_load_finish (result, &error);
  g_assert_no_error (error);

  return history;
}

static PalSessionHistory *
load_history (Fixture       *f,
              PalSessionKey *key)
{
  return load_history_with (f, key, PAL_SESSION_HISTORY_LOAD_NONE);
}

/* The kinds of the entries, the same ones in a row once ("prompt agent
 * tool"), and the text of the agent's messages */
static char *
describe_stored (PalStoredTranscript *stored,
                 GString             *agent_text)
{
  static const char *names[] = { "other", "prompt", "user", "agent", "thought", "tool" };
  g_autoptr(GString) kinds = g_string_new (NULL);
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  int last = -1;

  for (guint i = 0; i < pal_stored_transcript_get_n_entries (stored); i++)
    {
      PalTranscriptKind kind = pal_stored_transcript_get_kind (stored, i);
      PalTranscriptEntry entry;
      gsize length;
      const char *json = pal_stored_transcript_get_json (stored, i, &length);

      if ((int) kind != last)
        g_string_append_printf (kinds, "%s%s", kinds->len > 0 ? " " : "", names[kind]);
      last = (int) kind;

      pal_transcript_entry_read (&entry, doc, kind, json, length);
      if (kind == PAL_TRANSCRIPT_KIND_AGENT_MESSAGE && agent_text != NULL)
        g_string_append (agent_text, entry.text);
      pal_transcript_entry_clear (&entry);
    }

  return g_string_free (g_steal_pointer (&kinds), FALSE);
}

/* --- tests --- */

/* A live turn is recorded: the prompt sent and what the agent sent back;
 * read back, it shows as it did */
static void
test_record_live (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AcpSession) session = new_session (f, "history");
  PalSessionKey *key = pal_session_manager_get_session_key (f->manager, session);
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(PalSessionHistory) history = NULL;
  g_autoptr(GString) agent_text = g_string_new (NULL);
  g_autofree char *kinds = NULL;
  g_autofree char *live_items = NULL;
  g_autofree char *stored_items = NULL;
  g_autoptr(AcpItem) first = NULL;
  gsize length;

  prompt (f, key, "What now?");

  stored = test_load_stored (f->store, key);
  kinds = describe_stored (stored, agent_text);
  g_assert_cmpstr (kinds, ==, "prompt agent tool");
  g_assert_cmpstr (agent_text->str, ==, "Hello, I will read the file.");
  g_assert_cmpstr (pal_stored_transcript_get_json (stored, 0, &length), ==,
                   "[{\"type\":\"text\",\"text\":\"What now?\"}]");

  /* without the agent, the same items */
  history = load_history (f, key);
  g_assert_cmpuint (pal_session_history_get_n_entries (history), ==,
                    pal_stored_transcript_get_n_entries (stored));
  acp_transcript_flush (acp_session_get_transcript (session));
  live_items = test_describe_items (G_LIST_MODEL (acp_session_get_transcript (session)));
  stored_items = test_describe_items (G_LIST_MODEL (pal_session_history_get_transcript (history)));
  g_assert_cmpstr (stored_items, ==, live_items);
  g_assert_cmpstr (stored_items, ==, "user: What now? | agent: Hello, I will read the file. | "
                                     "tool: Read README.md (completed)");

  /* each entry knows its item: the prompt its message, the tool call
   * update its tool call */
  first = g_list_model_get_item (G_LIST_MODEL (pal_session_history_get_transcript (history)), 0);
  g_assert_true (pal_session_history_get_item (history, 0) == first);
  g_assert_cmpint (pal_session_history_find_item (history,
                                                  pal_session_history_get_item (history, G_MAXUINT)),
                   ==, 2);
}

/* A load's replay is recorded once: the same history replayed again
 * (however its chunks were cut) writes nothing, a changed one replaces it */
static void
test_record_replay (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("walrus", "history", f->folder);
  PalSessionKey *key = pal_session_record_get_key (record);
  g_autoptr(PalStoredTranscript) first = NULL;
  g_autoptr(PalStoredTranscript) second = NULL;
  g_autoptr(PalStoredTranscript) third = NULL;
  g_autoptr(GString) agent_text = g_string_new (NULL);
  g_autofree char *kinds = NULL;
  AcpSession *session;

  pal_session_store_add (f->sessions, record);

  session = open_session (f, key, FALSE);
  g_object_unref (session);
  first = test_load_stored (f->store, key);
  kinds = describe_stored (first, agent_text);
  g_assert_cmpstr (kinds, ==, "user agent tool");
  g_assert_cmpstr (agent_text->str, ==, "The walrus lives far north.");
  /* the chunks of the answer are one entry */
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (first), ==, 4);
  close_session (f, key);

  /* the same history, cut otherwise: nothing written, not twice */
  session = open_session (f, key, FALSE);
  g_object_unref (session);
  second = test_load_stored (f->store, key);
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (second), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpstr (pal_stored_transcript_get_json (second, i, NULL), ==,
                       pal_stored_transcript_get_json (first, i, NULL));
      g_assert_cmpint (pal_stored_transcript_get_time (second, i), ==,
                       pal_stored_transcript_get_time (first, i));
    }
  close_session (f, key);

  /* the agent's history changed: it replaces what was kept */
  session = open_session (f, key, FALSE);
  g_object_unref (session);
  third = test_load_stored (f->store, key);
  g_string_truncate (agent_text, 0);
  g_clear_pointer (&kinds, g_free);
  kinds = describe_stored (third, agent_text);
  g_assert_cmpstr (kinds, ==, "user agent");
  g_assert_cmpstr (agent_text->str, ==, "It went south.");
  g_assert_cmpuint (pal_stored_transcript_get_n_entries (third), ==, 2);

  /* and the turns after it go on from there */
  prompt (f, key, "And now?");
  g_clear_pointer (&third, pal_stored_transcript_unref);
  third = test_load_stored (f->store, key);
  g_clear_pointer (&kinds, g_free);
  kinds = describe_stored (third, NULL);
  g_assert_cmpstr (kinds, ==, "user agent prompt agent tool");
}

/* A resume replays nothing: the session starts with the history kept */
static void
test_resume_shows_history (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AcpSession) session = new_session (f, "resume-only");
  g_autoptr(PalSessionKey) key = pal_session_key_ref (pal_session_manager_get_session_key (f->manager,
                                                                                           session));
  g_autoptr(AcpSession) resumed = NULL;
  g_autofree char *items = NULL;

  prompt (f, key, "Remember the walrus");
  /* the agent cannot close sessions: closed here only, and forgotten by
   * this process: what the window showed of it is gone too */
  close_session (f, key);
  g_clear_object (&session);

  resumed = open_session (f, key, TRUE);
  acp_transcript_flush (acp_session_get_transcript (resumed));
  items = test_describe_items (G_LIST_MODEL (acp_session_get_transcript (resumed)));
  g_assert_cmpstr (items, ==, "user: Remember the walrus | agent: Hello again. | "
                              "notice: Session resumed");

  /* new turns come after it (this agent gives every answer the same
   * message id: where the answer's text goes is the transcript's affair) */
  prompt (f, key, "Again");
  g_clear_pointer (&items, g_free);
  acp_transcript_flush (acp_session_get_transcript (resumed));
  items = test_describe_items (G_LIST_MODEL (acp_session_get_transcript (resumed)));
  g_assert_nonnull (strstr (items, " | notice: Session resumed | user: Again"));
  g_assert_true (g_str_has_prefix (items, "user: Remember the walrus | agent: Hello again."));
}

/* A prompt's blocks come back as the user message it made (its text and
 * attachments), an entry that cannot be read is skipped, and the tool
 * calls left unfinished are stopped */
static void
test_history_read_back (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("history", "by-hand");
  g_autoptr(PalSessionHistory) history = NULL;
  g_autoptr(PalSessionHistory) nothing = NULL;
  g_autoptr(PalSessionKey) unknown = pal_session_key_new ("history", "never-recorded");
  GListModel *items;
  g_autoptr(AcpItem) prompt_item = NULL;
  g_autoptr(AcpItem) tool = NULL;

  pal_transcript_store_record_prompt (f->store, key,
                                      "[{\"type\":\"text\",\"text\":\"Look at \"},"
                                      "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"AAAA\"},"
                                      "{\"type\":\"text\",\"text\":\"this\"}]");
  pal_transcript_store_record_update (f->store, key, "{\"sessionUpdate\":\"tool_call\","
                                      "\"toolCallId\":\"c1\",\"title\":\"Look\","
                                      "\"status\":\"in_progress\"}");
  pal_transcript_store_record_update (f->store, key, "not JSON at all");
  pal_transcript_store_record_update (f->store, key, "{\"sessionUpdate\":\"agent_message_chunk\","
                                      "\"content\":{\"type\":\"text\",\"text\":\"Seen.\"}}");

  history = load_history (f, key);
  g_assert_cmpuint (pal_session_history_get_n_entries (history), ==, 4);
  items = G_LIST_MODEL (pal_session_history_get_transcript (history));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);

  prompt_item = g_list_model_get_item (items, 0);
  g_assert_true (ACP_IS_MESSAGE_ITEM (prompt_item));
  g_assert_cmpstr (acp_message_item_get_text (ACP_MESSAGE_ITEM (prompt_item)), ==, "Look at this");
  g_assert_cmpuint (g_list_model_get_n_items (acp_message_item_get_attachments (ACP_MESSAGE_ITEM (prompt_item))),
                    ==, 1);

  tool = g_list_model_get_item (items, 1);
  g_assert_true (acp_tool_call_item_get_stopped (ACP_TOOL_CALL_ITEM (tool)));
  /* the entry that could not be read goes to the item before it */
  g_assert_true (pal_session_history_get_item (history, 2) == tool);

  nothing = load_history (f, unknown);
  g_assert_cmpuint (pal_session_history_get_n_entries (nothing), ==, 0);
  g_assert_null (pal_session_history_get_item (nothing, 0));
}

/* A long history of @turns turns: each a prompt, a plan, a tool call
 * finished (the first one's left running), an answer whose id is the same
 * in every turn; @last_json, if any, is the last entry */
static void
record_long (Fixture       *f,
             PalSessionKey *key,
             guint          turns,
             const char    *last_json)
{
  for (guint i = 0; i < turns; i++)
    {
      g_autofree char *prompt_json = g_strdup_printf ("[{\"type\":\"text\",\"text\":\"Turn %u\"}]", i);
      g_autofree char *tool = g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t%u\","
                                               "\"title\":\"Read %u\",\"status\":\"in_progress\"}", i, i);
      g_autofree char *done = g_strdup_printf ("{\"sessionUpdate\":\"tool_call_update\","
                                               "\"toolCallId\":\"t%u\",\"status\":\"completed\"}", i);
      g_autofree char *answer = g_strdup_printf ("{\"sessionUpdate\":\"agent_message_chunk\","
                                                 "\"messageId\":\"m\",\"content\":"
                                                 "{\"type\":\"text\",\"text\":\"Answer %u\"}}", i);

      pal_transcript_store_record_prompt (f->store, key, prompt_json);
      pal_transcript_store_record_update (f->store, key, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
      pal_transcript_store_record_update (f->store, key, tool);
      if (i > 0)
        pal_transcript_store_record_update (f->store, key, done);
      pal_transcript_store_record_update (f->store, key, answer);
    }
  if (last_json != NULL)
    pal_transcript_store_record_update (f->store, key, last_json);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

/* The end of a long history comes first, then the earlier turns in front
 * of it in the same transcript: the items of a history read whole */
static void
test_history_end_first (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("history", "long");
  g_autoptr(PalSessionHistory) whole = NULL;
  g_autoptr(PalSessionHistory) history = NULL;
  g_autoptr(AcpItem) first = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *end = NULL;
  g_autofree char *got = NULL;
  AcpTranscript *transcript;
  guint n_whole, n_end, n_entries, replaced = 0;

  record_long (f, key, 4100, NULL);
  whole = load_history (f, key);
  g_assert_true (pal_session_history_is_complete (whole));
  n_entries = pal_session_history_get_n_entries (whole);
  g_assert_cmpuint (n_entries, ==, 20499);
  n_whole = g_list_model_get_n_items (G_LIST_MODEL (pal_session_history_get_transcript (whole)));
  g_assert_cmpuint (n_whole, ==, 16400);
  expected = test_describe_items (G_LIST_MODEL (pal_session_history_get_transcript (whole)));

  history = load_history_with (f, key, PAL_SESSION_HISTORY_LOAD_END_FIRST);
  transcript = pal_session_history_get_transcript (history);
  g_signal_connect (history, "notify::transcript", G_CALLBACK (count_notify_cb), &replaced);
  g_assert_false (pal_session_history_is_complete (history));
  g_assert_cmpuint (pal_session_history_get_n_entries (history), ==, n_entries);
  /* the last turns, from a prompt on, as the whole history ends */
  n_end = g_list_model_get_n_items (G_LIST_MODEL (transcript));
  g_assert_cmpuint (n_end, >, 0);
  g_assert_cmpuint (n_end, <, n_whole / 4);
  g_assert_cmpuint (n_end % 4, ==, 0);
  end = test_describe_items (G_LIST_MODEL (transcript));
  g_assert_true (g_str_has_prefix (end, "user: Turn "));
  g_assert_true (g_str_has_suffix (expected, end));
  g_assert_nonnull (pal_session_history_get_item (history, n_entries - 1));
  g_assert_null (pal_session_history_get_item (history, 0));

  WAIT_UNTIL (pal_session_history_is_complete (history));
  g_assert_true (pal_session_history_get_transcript (history) == transcript);
  g_assert_cmpuint (replaced, ==, 0);
  got = test_describe_items (G_LIST_MODEL (transcript));
  g_assert_cmpstr (got, ==, expected);
  /* the entries of the earlier turns reach their items; the first tool
   * call, never finished, is stopped */
  first = g_list_model_get_item (G_LIST_MODEL (transcript), 0);
  g_assert_true (pal_session_history_get_item (history, 0) == first);
  g_assert_cmpint (pal_session_history_find_item (history, pal_session_history_get_item (history, 2)),
                   ==, 2);
  g_assert_true (acp_tool_call_item_get_stopped (acp_transcript_lookup_tool_call (transcript, "t0")));
  g_assert_false (acp_tool_call_item_get_stopped (acp_transcript_lookup_tool_call (transcript, "t1")));
}

/* Its last turn finishes a tool call of the first: the end shown first is
 * not the end of the whole history, which replaces it */
static void
test_history_end_first_reaching_back (Fixture       *f,
                                      gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("history", "reaching-back");
  g_autoptr(PalSessionHistory) whole = NULL;
  g_autoptr(PalSessionHistory) history = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  AcpTranscript *end;
  guint replaced = 0;

  record_long (f, key, 4100, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t0\","
                             "\"status\":\"failed\"}");
  whole = load_history (f, key);
  expected = test_describe_items (G_LIST_MODEL (pal_session_history_get_transcript (whole)));
  g_assert_true (g_str_has_prefix (expected, "user: Turn 0 | AcpPlanItem | tool: Read 0 (failed)"));

  history = load_history_with (f, key, PAL_SESSION_HISTORY_LOAD_END_FIRST);
  end = g_object_ref (pal_session_history_get_transcript (history));
  g_signal_connect (history, "notify::transcript", G_CALLBACK (count_notify_cb), &replaced);
  g_assert_false (pal_session_history_is_complete (history));
  /* a notice shown under it meanwhile stays */
  acp_transcript_append_notice (end, ACP_NOTICE_SEVERITY_ERROR, "Could not open", NULL, NULL);

  WAIT_UNTIL (pal_session_history_is_complete (history));
  g_assert_cmpuint (replaced, ==, 1);
  g_assert_true (pal_session_history_get_transcript (history) != end);
  got = test_describe_items (G_LIST_MODEL (pal_session_history_get_transcript (history)));
  g_assert_true (g_str_has_prefix (got, expected));
  g_assert_cmpstr (got + strlen (expected), ==, " | notice: Could not open");
  g_assert_true (pal_session_history_get_item (history, 2) ==
                 ACP_ITEM (acp_transcript_lookup_tool_call (pal_session_history_get_transcript (history),
                                                            "t0")));
  g_object_unref (end);
}

/* A short history is built whole at once, whatever the flags */
static void
test_history_end_first_short (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("history", "short");
  g_autoptr(PalSessionHistory) history = NULL;

  record_long (f, key, 3900, NULL);
  history = load_history_with (f, key, PAL_SESSION_HISTORY_LOAD_END_FIRST);
  g_assert_true (pal_session_history_is_complete (history));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pal_session_history_get_transcript (history))),
                    ==, 15600);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/session-history/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("record-live", test_record_live);
  ADD ("record-replay", test_record_replay);
  ADD ("resume-shows-history", test_resume_shows_history);
  ADD ("read-back", test_history_read_back);
  ADD ("end-first", test_history_end_first);
  ADD ("end-first/reaching-back", test_history_end_first_reaching_back);
  ADD ("end-first/short", test_history_end_first_short);

#undef ADD

  return g_test_run ();
}
