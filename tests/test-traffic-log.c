/* test-traffic-log.c: AcpTrafficLog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-traffic-log.h"
#include "test-util.h"

static void
add (AcpTrafficLog       *log,
     AcpTrafficDirection  direction,
     const char          *json)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  const AcpJsonValue *message = acp_json_doc_read (doc, json, strlen (json), 64, NULL);

  g_assert_nonnull (message);
  acp_traffic_log_add_message (log, direction, json, strlen (json), doc, message);
}

static AcpTrafficEntry *
entry_at (AcpTrafficLog *log,
          guint          position)
{
  AcpTrafficEntry *entry = g_list_model_get_item (G_LIST_MODEL (log), position);

  g_assert_nonnull (entry);
  g_object_unref (entry);  /* the log keeps it */
  return entry;
}

/* Messages are described once: method, id, session, error; a response gets
 * the time since its request. */
static void
test_describe (void)
{
  g_autoptr(AcpTrafficLog) log = acp_traffic_log_new (100);
  AcpTrafficEntry *entry;

  add (log, ACP_TRAFFIC_OUT, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"s1\"}}");
  add (log, ACP_TRAFFIC_IN, "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s1\"}}");
  add (log, ACP_TRAFFIC_IN, "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"fs/read_text_file\",\"params\":{}}");
  add (log, ACP_TRAFFIC_OUT, "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-32602,\"message\":\"no\"}}");
  add (log, ACP_TRAFFIC_IN, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"stopReason\":\"end_turn\"}}");
  acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, "warning: slow", 13);

  /* nothing before the main loop ran, or a flush */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (log)), ==, 0);
  acp_traffic_log_flush (log);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (log)), ==, 6);

  entry = entry_at (log, 0);
  g_assert_cmpint (acp_traffic_entry_get_direction (entry), ==, ACP_TRAFFIC_OUT);
  g_assert_cmpstr (acp_traffic_entry_get_method (entry), ==, "session/prompt");
  g_assert_cmpstr (acp_traffic_entry_get_id (entry), ==, "0");
  g_assert_cmpstr (acp_traffic_entry_get_session_id (entry), ==, "s1");
  g_assert_cmpint (acp_traffic_entry_get_duration (entry), ==, -1);

  entry = entry_at (log, 1);
  g_assert_null (acp_traffic_entry_get_id (entry));
  g_assert_cmpstr (acp_traffic_entry_get_method (entry), ==, "session/update");

  entry = entry_at (log, 3);
  g_assert_null (acp_traffic_entry_get_method (entry));
  g_assert_cmpstr (acp_traffic_entry_get_id (entry), ==, "\"x\"");
  g_assert_true (acp_traffic_entry_get_is_error (entry));
  /* the answer to the agent's request, whose id is a string */
  g_assert_cmpint (acp_traffic_entry_get_duration (entry), >=, 0);

  entry = entry_at (log, 4);
  g_assert_false (acp_traffic_entry_get_is_error (entry));
  g_assert_cmpint (acp_traffic_entry_get_duration (entry), >=, 0);
  g_assert_cmpint (acp_traffic_entry_get_duration (entry), <=,
                   acp_traffic_entry_get_time (entry) - acp_traffic_entry_get_time (entry_at (log, 0)));

  entry = entry_at (log, 5);
  g_assert_cmpint (acp_traffic_entry_get_direction (entry), ==, ACP_TRAFFIC_STDERR);
  g_assert_cmpstr (acp_traffic_entry_get_text (entry), ==, "warning: slow");
}

typedef struct
{
  guint position, removed, added, count;
} Changed;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Changed    *changed)
{
  changed->position = position;
  changed->removed += removed;
  changed->added += added;
  changed->count++;
}

/* The log keeps the last entries only, and counts what it dropped. */
static void
test_bound (void)
{
  g_autoptr(AcpTrafficLog) log = acp_traffic_log_new (10);
  Changed changed = { 0, };
  g_autofree char *last = NULL;

  g_signal_connect (log, "items-changed", G_CALLBACK (items_changed_cb), &changed);
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *line = g_strdup_printf ("line %u", i);

      acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, line, strlen (line));
    }
  acp_traffic_log_flush (log);
  g_assert_cmpuint (changed.count, ==, 1);
  g_assert_cmpuint (changed.added, ==, 8);

  /* 25 more in one batch: more than the bound while pending, too */
  for (guint i = 8; i < 33; i++)
    {
      g_autofree char *line = g_strdup_printf ("line %u", i);

      acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, line, strlen (line));
    }
  acp_traffic_log_flush (log);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (log)), ==, 10);
  g_assert_cmpuint (acp_traffic_log_get_n_dropped (log), ==, 23);
  g_assert_cmpstr (acp_traffic_entry_get_text (entry_at (log, 0)), ==, "line 23");
  g_assert_cmpstr (acp_traffic_entry_get_text (entry_at (log, 9)), ==, "line 32");
  /* what the model said adds up */
  g_assert_cmpuint (changed.added - changed.removed, ==, 10);

  last = acp_traffic_entry_to_json_line (entry_at (log, 9));
  g_assert_nonnull (strstr (last, "\"direction\":\"stderr\""));
  g_assert_nonnull (strstr (last, "\"text\":\"line 32\""));
}

/* An entry is made when asked for, once: the model gives the same one
 * again, and it outlives its place in the model */
static void
test_entries (void)
{
  g_autoptr(AcpTrafficLog) log = acp_traffic_log_new (2);
  g_autoptr(AcpTrafficEntry) first = NULL;

  acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, "a", 1);
  acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, "b", 1);
  acp_traffic_log_flush (log);
  first = g_list_model_get_item (G_LIST_MODEL (log), 0);
  g_assert_true (entry_at (log, 0) == first);
  g_assert_true (entry_at (log, 1) != first);

  acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, "c", 1);
  acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, "d", 1);
  acp_traffic_log_flush (log);
  g_assert_cmpstr (acp_traffic_entry_get_text (entry_at (log, 0)), ==, "c");
  g_assert_cmpstr (acp_traffic_entry_get_text (first), ==, "a");
}

/* A huge message is kept cut short at a character boundary; its line in
 * JSON Lines says so. Invalid text is made valid. */
static void
test_truncated (void)
{
  g_autoptr(AcpTrafficLog) log = acp_traffic_log_new (10);
  g_autoptr(GString) huge = g_string_new ("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"");
  AcpTrafficEntry *entry;
  g_autofree char *line = NULL;
  g_autofree char *whole = NULL;

  while (huge->len < ACP_TRAFFIC_TEXT_MAX + 10)
    g_string_append (huge, "é");
  g_string_append (huge, "\"}}");
  acp_traffic_log_add_message (log, ACP_TRAFFIC_IN, huge->str, huge->len, NULL, NULL);
  acp_traffic_log_add_text (log, ACP_TRAFFIC_STDERR, "bad \xff byte", 10);
  add (log, ACP_TRAFFIC_OUT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
  acp_traffic_log_flush (log);

  entry = entry_at (log, 0);
  g_assert_true (acp_traffic_entry_get_truncated (entry));
  g_assert_cmpuint (acp_traffic_entry_get_size (entry), ==, huge->len);
  g_assert_cmpuint (strlen (acp_traffic_entry_get_text (entry)), <=, ACP_TRAFFIC_TEXT_MAX);
  g_assert_true (g_utf8_validate (acp_traffic_entry_get_text (entry), -1, NULL));
  line = acp_traffic_entry_to_json_line (entry);
  g_assert_nonnull (strstr (line, "\"truncated\":true"));

  g_assert_true (g_utf8_validate (acp_traffic_entry_get_text (entry_at (log, 1)), -1, NULL));

  /* a whole message is its own member, as JSON */
  whole = acp_traffic_entry_to_json_line (entry_at (log, 2));
  g_assert_nonnull (strstr (whole, "\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\""));
  g_assert_nonnull (strstr (whole, "\"direction\":\"out\""));
}

static gpointer
add_from_thread (gpointer data)
{
  AcpTrafficLog *log = data;

  for (guint i = 0; i < 1000; i++)
    acp_traffic_log_add_text (log, ACP_TRAFFIC_IN, "x", 1);

  return NULL;
}

/* Entries added from other threads join the model in the main context. */
static void
test_threads (void)
{
  g_autoptr(AcpTrafficLog) log = acp_traffic_log_new (5000);
  GThread *threads[3];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("add", add_from_thread, log);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);

  WAIT_UNTIL (g_list_model_get_n_items (G_LIST_MODEL (log)) >= 3000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (log)), ==, 3000);
  g_assert_cmpuint (acp_traffic_log_get_n_dropped (log), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/traffic-log/describe", test_describe);
  g_test_add_func ("/traffic-log/bound", test_bound);
  g_test_add_func ("/traffic-log/entries", test_entries);
  g_test_add_func ("/traffic-log/truncated", test_truncated);
  g_test_add_func ("/traffic-log/threads", test_threads);

  return g_test_run ();
}
