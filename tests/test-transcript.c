/* test-transcript.c: the transcript model and the session/update reducer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-generic-item.h"
#include "acp-plan-item.h"
#include "acp-transcript.h"
#include "acp-update-variants-private.h"
#include "test-util.h"

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = json_from_string (json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

static void
apply_ok (AcpTranscript *transcript,
          const char    *json)
{
  g_autoptr(JsonObject) update = parse_object (json);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  ok = acp_transcript_apply_update (transcript, update, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

static guint
count_all (AcpTranscript *transcript)
{
  return g_list_model_get_n_items (G_LIST_MODEL (transcript)) +
         acp_transcript_get_n_pending (transcript);
}

/* The item at @position, counting queued items: flushes first. */
static gpointer
item_at (AcpTranscript *transcript,
         guint          position)
{
  GObject *item;

  acp_transcript_flush (transcript);
  item = g_list_model_get_item (G_LIST_MODEL (transcript), position);
  g_assert_nonnull (item);
  g_object_unref (item); /* the transcript keeps it alive */

  return item;
}

static void
count_cb (gpointer  instance,
          gpointer  arg1,
          guint    *counter)
{
  (*counter)++;
}

static void
count_added_cb (GListModel *model,
                guint       position,
                guint       removed,
                guint       added,
                guint      *counter)
{
  *counter += added;
}

/* --- messages --- */

static void
test_chunks_by_message_id (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpMessageItem *first, *second;

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Hel\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"lo\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 1);

  /* A new id is a new message, even right after the same role. */
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m2\","
                        "\"content\":{\"type\":\"text\",\"text\":\"World\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 2);

  /* The same id after other items still goes to its message. */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Read\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"!\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 3);

  first = item_at (transcript, 0);
  second = item_at (transcript, 1);
  g_assert_true (ACP_IS_MESSAGE_ITEM (first));
  g_assert_cmpint (acp_item_get_kind (ACP_ITEM (first)), ==, ACP_ITEM_KIND_MESSAGE);
  g_assert_cmpint (acp_message_item_get_role (first), ==, ACP_MESSAGE_ROLE_AGENT);
  g_assert_cmpstr (acp_message_item_get_message_id (first), ==, "m1");
  g_assert_cmpstr (acp_message_item_get_text (first), ==, "Hello!");
  g_assert_cmpstr (acp_message_item_get_message_id (second), ==, "m2");
  g_assert_cmpstr (acp_message_item_get_text (second), ==, "World");
  g_assert_true (acp_transcript_lookup_message (transcript, "m1") == first);
  g_assert_true (acp_transcript_lookup_message (transcript, "m2") == second);
  g_assert_null (acp_transcript_lookup_message (transcript, "m3"));

  /* A thought with the id of an agent message is not that message. */
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_thought_chunk\",\"messageId\":\"m2\","
                        "\"content\":{\"type\":\"text\",\"text\":\"hmm\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 4);
  g_assert_cmpstr (acp_message_item_get_text (second), ==, "World");
}

/* An agent that numbers its messages per turn: the id of the last turn's
 * answer is a new message after a new prompt, replayed or sent */
static void
test_message_id_per_turn (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonArray) prompt = json_array_new ();
  JsonObject *block = json_object_new ();

  apply_ok (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"messageId\":\"u1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Hi\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"msg-1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Hello.\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"messageId\":\"u2\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Again\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"messageId\":\"u2\","
                        "\"content\":{\"type\":\"text\",\"text\":\", please\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"msg-1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Hello again.\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 4);
  g_assert_cmpstr (acp_message_item_get_text (item_at (transcript, 1)), ==, "Hello.");
  g_assert_cmpstr (acp_message_item_get_text (item_at (transcript, 2)), ==, "Again, please");
  g_assert_cmpstr (acp_message_item_get_text (item_at (transcript, 3)), ==, "Hello again.");

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", "Once more");
  json_array_add_object_element (prompt, block);
  acp_transcript_append_prompt (transcript, prompt);
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"msg-1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Hello a third time.\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 6);
  g_assert_cmpstr (acp_message_item_get_text (item_at (transcript, 3)), ==, "Hello again.");
  g_assert_cmpstr (acp_message_item_get_text (item_at (transcript, 5)), ==, "Hello a third time.");
}

static void
test_chunks_by_adjacency (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpMessageItem *message;

  apply_ok (transcript, "{\"sessionUpdate\":\"user_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Fix \"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"user_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"the bug\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_thought_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Think\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_thought_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"ing\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Done\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\".\"}}");
  /* Thought after agent text is a new thought, and agent text after it a
   * new agent message. */
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_thought_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"More\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Again\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 5);

  message = item_at (transcript, 0);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_USER);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Fix the bug");
  g_assert_null (acp_message_item_get_message_id (message));
  message = item_at (transcript, 1);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_THOUGHT);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Thinking");
  message = item_at (transcript, 2);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_AGENT);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Done.");
  message = item_at (transcript, 3);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_THOUGHT);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "More");
  message = item_at (transcript, 4);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_AGENT);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Again");

  /* Text after a tool call is a new message. */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t\",\"title\":\"x\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"After\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 7);
}

static void
test_empty_chunks (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpMessageItem *message;
  guint appended = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_thought_chunk\",\"messageId\":\"x\","
                        "\"content\":{\"type\":\"text\",\"text\":\"\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 0);
  g_assert_null (acp_transcript_lookup_message (transcript, "x"));

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"a\"}}");
  message = item_at (transcript, 0);
  g_signal_connect (message, "text-appended", G_CALLBACK (count_cb), &appended);
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"\"}}");
  g_assert_cmpuint (appended, ==, 0);
  g_assert_cmpuint (count_all (transcript), ==, 1);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "a");
}

static guint
n_items (GListModel *model)
{
  return g_list_model_get_n_items (model);
}

/* The @index-th value of @model, borrowed (the model holds it) */
static gpointer
value_at (GListModel *model,
          guint       index)
{
  g_autoptr(GObject) value = g_list_model_get_item (model, index);

  g_assert_nonnull (value);
  return value;
}

static void
test_chunk_attachments (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpMessageItem *message;
  GListModel *attachments;
  AcpContentBlock *block;
  guint added = 0, text_notified = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"See \"}}");
  message = item_at (transcript, 0);
  attachments = acp_message_item_get_attachments (message);
  g_signal_connect (attachments, "items-changed", G_CALLBACK (count_added_cb), &added);
  g_signal_connect (message, "notify::text", G_CALLBACK (count_cb), &text_notified);

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"image\",\"data\":\"AAAA\",\"mimeType\":\"image/png\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"resource_link\",\"uri\":\"file:///a\",\"name\":\"a\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"this\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  g_assert_cmpuint (added, ==, 2);
  g_assert_cmpuint (text_notified, ==, 0);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "See this");

  /* one model for the message's life */
  g_assert_true (acp_message_item_get_attachments (message) == attachments);
  g_assert_cmpuint (n_items (attachments), ==, 2);
  block = value_at (attachments, 0);
  g_assert_cmpint (acp_content_block_get_block_type (block), ==, ACP_CONTENT_BLOCK_TYPE_IMAGE);
  g_assert_cmpstr (acp_content_block_get_data (block), ==, "AAAA");
  g_assert_cmpstr (acp_content_block_get_mime_type (block), ==, "image/png");
  block = value_at (attachments, 1);
  g_assert_cmpint (acp_content_block_get_block_type (block), ==, ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK);
  g_assert_cmpstr (acp_content_block_get_name (block), ==, "a");

  /* A non-text chunk alone starts a message with empty text. */
  apply_ok (transcript, "{\"sessionUpdate\":\"user_message_chunk\","
                        "\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///b\",\"text\":\"b\"}}}");
  g_assert_cmpuint (count_all (transcript), ==, 2);
  message = item_at (transcript, 1);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "");
  g_assert_cmpuint (n_items (acp_message_item_get_attachments (message)), ==, 1);
  block = value_at (acp_message_item_get_attachments (message), 0);
  g_assert_cmpint (acp_content_block_get_block_type (block), ==, ACP_CONTENT_BLOCK_TYPE_RESOURCE);
  g_assert_cmpstr (acp_content_block_get_uri (block), ==, "file:///b");
  g_assert_cmpstr (acp_content_block_get_text (block), ==, "b");
}

static void
test_message_set_text (void)
{
  g_autoptr(AcpMessageItem) message = acp_message_item_new (ACP_MESSAGE_ROLE_USER, NULL);
  g_autofree char *text = NULL;
  guint notified = 0, appended = 0;

  g_signal_connect (message, "notify::text", G_CALLBACK (count_cb), &notified);
  g_signal_connect (message, "text-appended", G_CALLBACK (count_cb), &appended);

  acp_message_item_set_text (message, "abc");
  acp_message_item_set_text (message, "abc");
  g_assert_cmpuint (notified, ==, 1);
  acp_message_item_append_text (message, "defgh", 2);
  g_assert_cmpuint (appended, ==, 1);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "abcde");
  g_assert_cmpuint (acp_message_item_get_text_length (message), ==, 5);

  g_object_get (message, "text", &text, NULL);
  g_assert_cmpstr (text, ==, "abcde");
}

static void
record_chunk_cb (AcpMessageItem *message,
                 const char     *chunk,
                 GString        *seen)
{
  g_string_append (seen, chunk);
}

static void
test_text_appended_many (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonObject) update = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  AcpMessageItem *message;
  guint appended = 0, notified = 0;
  const guint n_chunks = 200000;

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"long\","
                        "\"content\":{\"type\":\"text\",\"text\":\"go\"}}");
  message = item_at (transcript, 0);
  g_signal_connect (message, "text-appended", G_CALLBACK (count_cb), &appended);
  g_signal_connect (message, "text-appended", G_CALLBACK (record_chunk_cb), seen);
  g_signal_connect (message, "notify::text", G_CALLBACK (count_cb), &notified);

  update = parse_object ("{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"long\","
                         "\"content\":{\"type\":\"text\",\"text\":\"chunk \"}}");
  for (guint i = 0; i < n_chunks; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!acp_transcript_apply_update (transcript, update, &error))
        g_assert_no_error (error);
    }

  /* the text is there at once, announced at the flush: once for the batch */
  g_assert_cmpuint (appended, ==, 0);
  g_assert_cmpuint (acp_message_item_get_text_length (message), ==, 2 + 6 * n_chunks);
  acp_transcript_flush (transcript);
  g_assert_cmpuint (appended, ==, 1);
  g_assert_cmpuint (notified, ==, 0);
  g_assert_cmpuint (acp_message_item_get_text_length (message), ==, 2 + 6 * n_chunks);
  g_assert_cmpuint (strlen (acp_message_item_get_text (message)), ==, 2 + 6 * n_chunks);
  g_assert_cmpuint (seen->len, ==, 6 * n_chunks);
  g_assert_cmpuint (count_all (transcript), ==, 1);
}

/* Chunks into two messages in one batch: each is announced once, with all
 * that came, and a loud append announces what was quiet before it. */
static void
test_text_announced_per_batch (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(GString) seen_a = g_string_new (NULL);
  g_autoptr(GString) seen_b = g_string_new (NULL);
  AcpMessageItem *a, *b;
  guint appended_a = 0, appended_b = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"a\","
                        "\"content\":{\"type\":\"text\",\"text\":\"A0\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_thought_chunk\",\"messageId\":\"b\","
                        "\"content\":{\"type\":\"text\",\"text\":\"B0\"}}");
  a = item_at (transcript, 0);
  b = item_at (transcript, 1);
  g_signal_connect (a, "text-appended", G_CALLBACK (count_cb), &appended_a);
  g_signal_connect (a, "text-appended", G_CALLBACK (record_chunk_cb), seen_a);
  g_signal_connect (b, "text-appended", G_CALLBACK (count_cb), &appended_b);
  g_signal_connect (b, "text-appended", G_CALLBACK (record_chunk_cb), seen_b);

  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *ja = g_strdup_printf ("{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"a\","
                                             "\"content\":{\"type\":\"text\",\"text\":\"A%u\"}}", i);
      g_autofree char *jb = g_strdup_printf ("{\"sessionUpdate\":\"agent_thought_chunk\",\"messageId\":\"b\","
                                             "\"content\":{\"type\":\"text\",\"text\":\"B%u\"}}", i);

      apply_ok (transcript, ja);
      apply_ok (transcript, jb);
    }
  g_assert_cmpstr (acp_message_item_get_text (a), ==, "A0A1A2A3");
  g_assert_cmpuint (appended_a + appended_b, ==, 0);

  /* the flush idle announces */
  WAIT_UNTIL (appended_a > 0 && appended_b > 0);
  g_assert_cmpuint (appended_a, ==, 1);
  g_assert_cmpuint (appended_b, ==, 1);
  g_assert_cmpstr (seen_a->str, ==, "A1A2A3");
  g_assert_cmpstr (seen_b->str, ==, "B1B2B3");

  /* quiet text, then a loud append: one announcement of both */
  acp_message_item_append_text_quietly (a, "x", -1);
  acp_message_item_append_text (a, "y", -1);
  g_assert_cmpuint (appended_a, ==, 2);
  g_assert_cmpstr (seen_a->str, ==, "A1A2A3xy");
  g_assert_false (acp_message_item_announce (a));
}

/* --- tool calls --- */

static void
test_tool_call_and_updates (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpToolCallItem *tool;
  GListModel *content;
  g_autoptr(GListModel) held = NULL;
  AcpToolCallContent *entry;
  AcpLocation *location;
  guint title_n = 0, status_n = 0, content_n = 0, locations_n = 0, kind_n = 0, raw_n = 0;

  apply_ok (transcript,
            "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"call_1\",\"title\":\"Reading a.c\","
            "\"kind\":\"read\",\"status\":\"pending\",\"locations\":[{\"path\":\"/p/a.c\",\"line\":3}],"
            "\"rawInput\":{\"path\":\"/p/a.c\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  tool = item_at (transcript, 0);
  g_assert_true (ACP_IS_TOOL_CALL_ITEM (tool));
  g_assert_cmpint (acp_item_get_kind (ACP_ITEM (tool)), ==, ACP_ITEM_KIND_TOOL_CALL);
  g_assert_true (acp_transcript_lookup_tool_call (transcript, "call_1") == tool);
  g_assert_cmpstr (acp_tool_call_item_get_tool_call_id (tool), ==, "call_1");
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "Reading a.c");
  g_assert_cmpstr (acp_tool_call_item_get_tool_kind (tool), ==, "read");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "pending");
  g_assert_cmpuint (n_items (acp_tool_call_item_get_locations (tool)), ==, 1);
  location = value_at (acp_tool_call_item_get_locations (tool), 0);
  g_assert_cmpstr (acp_location_get_path (location), ==, "/p/a.c");
  g_assert_cmpint (acp_location_get_line (location), ==, 3);
  g_assert_cmpuint (n_items (acp_tool_call_item_get_content (tool)), ==, 0);
  g_assert_nonnull (acp_tool_call_item_get_raw_input (tool));
  g_assert_null (acp_tool_call_item_get_raw_output (tool));

  g_signal_connect (tool, "notify::title", G_CALLBACK (count_cb), &title_n);
  g_signal_connect (tool, "notify::status", G_CALLBACK (count_cb), &status_n);
  g_signal_connect (tool, "notify::content", G_CALLBACK (count_cb), &content_n);
  g_signal_connect (tool, "notify::locations", G_CALLBACK (count_cb), &locations_n);
  g_signal_connect (tool, "notify::tool-kind", G_CALLBACK (count_cb), &kind_n);
  g_signal_connect (tool, "notify::raw-output", G_CALLBACK (count_cb), &raw_n);

  /* Only the fields present change; an unchanged value does not notify. */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                        "\"status\":\"in_progress\",\"title\":\"Reading a.c\"}");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "in_progress");
  g_assert_cmpuint (status_n, ==, 1);
  g_assert_cmpuint (title_n, ==, 0);
  g_assert_cmpstr (acp_tool_call_item_get_tool_kind (tool), ==, "read");
  g_assert_cmpuint (n_items (acp_tool_call_item_get_locations (tool)), ==, 1);

  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                        "\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"one\"}},"
                        "{\"type\":\"diff\",\"path\":\"/p/a.c\",\"oldText\":null,\"newText\":\"x\"}]}");
  g_assert_cmpuint (content_n, ==, 1);
  content = acp_tool_call_item_get_content (tool);
  g_assert_cmpuint (n_items (content), ==, 2);
  entry = value_at (content, 0);
  g_assert_cmpint (acp_tool_call_content_get_kind (entry), ==, ACP_TOOL_CALL_CONTENT_KIND_CONTENT);
  g_assert_cmpstr (acp_content_block_get_text (acp_tool_call_content_get_block (entry)), ==, "one");
  entry = value_at (content, 1);
  g_assert_cmpint (acp_tool_call_content_get_kind (entry), ==, ACP_TOOL_CALL_CONTENT_KIND_DIFF);
  g_assert_cmpstr (acp_tool_call_content_get_path (entry), ==, "/p/a.c");
  g_assert_null (acp_tool_call_content_get_old_text (entry));
  g_assert_cmpstr (acp_tool_call_content_get_new_text (entry), ==, "x");

  /* content and locations replace whole lists */
  held = g_object_ref (content);
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                        "\"content\":[{\"type\":\"terminal\",\"terminalId\":\"term-1\"}],"
                        "\"locations\":[]}");
  g_assert_cmpuint (content_n, ==, 2);
  g_assert_cmpuint (locations_n, ==, 1);
  /* a new list is a new model: one that was handed out never changes */
  g_assert_cmpuint (n_items (held), ==, 2);
  content = acp_tool_call_item_get_content (tool);
  g_assert_cmpuint (n_items (content), ==, 1);
  entry = value_at (content, 0);
  g_assert_cmpint (acp_tool_call_content_get_kind (entry), ==, ACP_TOOL_CALL_CONTENT_KIND_TERMINAL);
  g_assert_cmpstr (acp_tool_call_content_get_terminal_id (entry), ==, "term-1");
  g_assert_cmpuint (n_items (acp_tool_call_item_get_locations (tool)), ==, 0);

  /* The same list again does not notify; null means unchanged. */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                        "\"content\":[{\"type\":\"terminal\",\"terminalId\":\"term-1\"}],"
                        "\"status\":null,\"title\":null,\"kind\":null,\"locations\":null}");
  g_assert_cmpuint (content_n, ==, 2);
  g_assert_cmpuint (locations_n, ==, 1);
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "in_progress");

  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                        "\"status\":\"completed\",\"rawOutput\":{\"ok\":true},\"title\":\"Read a.c\"}");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "completed");
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "Read a.c");
  g_assert_cmpuint (title_n, ==, 1);
  g_assert_cmpuint (raw_n, ==, 1);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (acp_tool_call_item_get_raw_output (tool)),
                                                 "ok"));

  /* Unknown kinds count as "other"; unknown statuses are ignored. */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                        "\"kind\":\"teleport\",\"status\":\"exploded\"}");
  g_assert_cmpstr (acp_tool_call_item_get_tool_kind (tool), ==, "other");
  g_assert_cmpuint (kind_n, ==, 1);
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "completed");

  /* Invalid list elements are skipped, the valid ones kept. */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                        "\"content\":[{\"type\":\"diff\",\"path\":\"/x\"},"
                        "{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"kept\"}}, 7],"
                        "\"locations\":[{\"line\":1},{\"path\":\"/q\"}]}");
  content = acp_tool_call_item_get_content (tool);
  g_assert_cmpuint (n_items (content), ==, 1);
  entry = value_at (content, 0);
  g_assert_cmpint (acp_tool_call_content_get_kind (entry), ==, ACP_TOOL_CALL_CONTENT_KIND_CONTENT);
  g_assert_cmpuint (n_items (acp_tool_call_item_get_locations (tool)), ==, 1);

  /* Still one item. */
  g_assert_cmpuint (count_all (transcript), ==, 1);
}

static void
test_tool_call_update_first (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpToolCallItem *tool;

  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"early\","
                        "\"status\":\"in_progress\"}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  tool = acp_transcript_lookup_tool_call (transcript, "early");
  g_assert_nonnull (tool);
  /* created on first sight, with defaults for what was not sent */
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "");
  g_assert_cmpstr (acp_tool_call_item_get_tool_kind (tool), ==, "other");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "in_progress");

  /* the tool_call itself then fills it, and no second item appears */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"early\","
                        "\"title\":\"Edit b.c\",\"kind\":\"edit\"}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  g_assert_true (item_at (transcript, 0) == (gpointer) tool);
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "Edit b.c");
  g_assert_cmpstr (acp_tool_call_item_get_tool_kind (tool), ==, "edit");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "in_progress");
}

/* A raw value of the agent as text, in the shapes real agents send */
static char *
raw_text (const char *raw,
          gboolean    output,
          gboolean   *is_json)
{
  g_autoptr(AcpToolCallItem) tool = acp_tool_call_item_new ("t");
  g_autoptr(JsonNode) node = json_from_string (raw, NULL);

  g_assert_nonnull (node);
  if (output)
    {
      acp_tool_call_item_set_raw_output (tool, node);
      return acp_tool_call_item_dup_raw_output_text (tool, is_json);
    }

  acp_tool_call_item_set_raw_input (tool, node);
  return acp_tool_call_item_dup_raw_input_text (tool, is_json);
}

static void
test_tool_call_raw_text (void)
{
  g_autoptr(AcpToolCallItem) tool = acp_tool_call_item_new ("t");
  gboolean is_json = TRUE;
  char *text;
  int code = 0;

  g_assert_null (acp_tool_call_item_dup_raw_input_text (tool, &is_json));
  g_assert_null (acp_tool_call_item_dup_raw_output_text (tool, NULL));
  g_assert_null (acp_tool_call_item_dup_command (tool));
  g_assert_false (acp_tool_call_item_get_exit_code (tool, NULL));

  /* a string is the text */
  text = raw_text ("\"Echo: hi\\nthere\"", TRUE, &is_json);
  g_assert_cmpstr (text, ==, "Echo: hi\nthere");
  g_assert_false (is_json);
  g_free (text);

  /* an MCP tool result (codex-acp), and content blocks alone (Claude) */
  text = raw_text ("{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi over mcp\"}],\"isError\":false}",
                   TRUE, &is_json);
  g_assert_cmpstr (text, ==, "Echo: hi over mcp");
  g_assert_false (is_json);
  g_free (text);
  text = raw_text ("[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\\n\"}]", TRUE, NULL);
  g_assert_cmpstr (text, ==, "a\nb\n");
  g_free (text);

  /* a command's result: its output */
  text = raw_text ("{\"call_id\":\"call_1\",\"stdout\":\"out\\n\",\"stderr\":\"err\\n\","
                   "\"aggregated_output\":\"out\\nerr\\n\",\"exit_code\":2}", TRUE, &is_json);
  g_assert_cmpstr (text, ==, "out\nerr\n");
  g_assert_false (is_json);
  g_free (text);
  text = raw_text ("{\"stdout\":\"out\",\"stderr\":\"err\"}", TRUE, NULL);
  g_assert_cmpstr (text, ==, "out\nerr");
  g_free (text);

  /* anything else is indented JSON, and so is an input of that shape */
  text = raw_text ("{\"content\":[{\"type\":\"image\",\"data\":\"AA==\"}]}", TRUE, &is_json);
  g_assert_true (is_json);
  g_assert_nonnull (strstr (text, "\n  \"content\""));
  g_free (text);
  text = raw_text ("{\"stdout\":\"x\"}", FALSE, &is_json);
  g_assert_true (is_json);
  g_free (text);
  text = raw_text ("[1,2]", TRUE, &is_json);
  g_assert_true (is_json);
  g_free (text);
  g_assert_null (raw_text ("null", TRUE, NULL));

  /* the command line: a string, an argv, a shell's script */
  {
    static const struct { const char *input; const char *command; } commands[] = {
      { "{\"command\":\"ls -la\",\"description\":\"List\"}", "ls -la" },
      { "{\"command\":[\"/bin/bash\",\"-lc\",\"echo hi | wc\"]}", "echo hi | wc" },
      { "{\"command\":[\"git\",\"commit\",\"-m\",\"a b\"]}", "git commit -m 'a b'" },
      { "{\"command\":[\"git\",1]}", NULL },
      { "{\"command\":[]}", NULL },
      { "{\"command\":{}}", NULL },
      { "\"ls\"", NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      {
        g_autoptr(JsonNode) node = json_from_string (commands[i].input, NULL);
        g_autofree char *command = NULL;

        acp_tool_call_item_set_raw_input (tool, node);
        command = acp_tool_call_item_dup_command (tool);
        g_assert_cmpstr (command, ==, commands[i].command);
      }
  }

  /* the exit code */
  {
    g_autoptr(JsonNode) node = json_from_string ("{\"exit_code\":3}", NULL);
    g_autoptr(JsonNode) other = json_from_string ("{\"exitCode\":\"3\"}", NULL);

    acp_tool_call_item_set_raw_output (tool, node);
    g_assert_true (acp_tool_call_item_get_exit_code (tool, &code));
    g_assert_cmpint (code, ==, 3);
    acp_tool_call_item_set_raw_output (tool, other);
    g_assert_false (acp_tool_call_item_get_exit_code (tool, &code));
  }
}

static void
test_merge_tool_call (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonObject) fields = parse_object ("{\"toolCallId\":\"perm\",\"title\":\"rm -rf\","
                                               "\"kind\":\"execute\"}");
  g_autoptr(JsonObject) bad = parse_object ("{\"title\":\"no id\"}");
  g_autoptr(GError) error = NULL;
  AcpToolCallItem *tool;

  tool = acp_transcript_merge_tool_call (transcript, fields, &error);
  g_assert_no_error (error);
  g_assert_nonnull (tool);
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "rm -rf");
  g_assert_true (acp_transcript_merge_tool_call (transcript, fields, &error) == tool);
  g_assert_cmpuint (count_all (transcript), ==, 1);

  g_assert_null (acp_transcript_merge_tool_call (transcript, bad, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  g_assert_cmpuint (count_all (transcript), ==, 1);
}

/* The agent's own terminal in _meta: what is malformed is left out, the
 * rest of the update still applies */
static void
test_agent_terminal_meta (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpToolCallItem *tool;
  g_auto(GStrv) ids = NULL;
  const char *signal_name = NULL;
  guint changed_n = 0;
  int exit_code = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"c\",\"title\":\"make\","
                        "\"_meta\":\"not an object\"}");
  tool = acp_transcript_lookup_tool_call (transcript, "c");
  ids = acp_tool_call_item_dup_terminal_ids (tool);
  g_assert_cmpuint (g_strv_length (ids), ==, 0);
  g_clear_pointer (&ids, g_strfreev);
  g_signal_connect (tool, "terminal-changed", G_CALLBACK (count_cb), &changed_n);

  /* no terminal_id, data of the wrong type, an entry that is no object */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c\",\"status\":\"in_progress\","
                        "\"_meta\":{\"terminal_output_delta\":{\"data\":\"lost\"},"
                        "\"terminal_output\":{\"data\":7,\"terminal_id\":\"t\"},"
                        "\"terminal_exit\":[1],\"other\":{}}}");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "in_progress");
  ids = acp_tool_call_item_dup_terminal_ids (tool);
  g_assert_cmpstrv (ids, ((const char * const[]) { "t", NULL }));
  g_assert_cmpuint (changed_n, ==, 1);
  g_assert_cmpstr (acp_tool_call_item_get_terminal_output (tool, "t", NULL), ==, "");

  /* Zed's key appends as codex-acp's does, after it; an exit code that is
   * not one */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c\","
                        "\"_meta\":{\"terminal_output\":{\"data\":\"one \",\"terminal_id\":\"t\"},"
                        "\"terminal_output_delta\":{\"data\":\"two \",\"terminal_id\":\"t\"}}}");
  g_assert_cmpstr (acp_tool_call_item_get_terminal_output (tool, "t", NULL), ==, "two one ");
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c\","
                        "\"_meta\":{\"terminal_exit\":{\"exit_code\":\"3\",\"signal\":\"SIGTERM\","
                        "\"terminal_id\":\"t\"}}}");
  g_assert_true (acp_tool_call_item_get_terminal_exit (tool, "t", &exit_code, &signal_name));
  g_assert_cmpint (exit_code, ==, -1);
  g_assert_cmpstr (signal_name, ==, "SIGTERM");
  g_assert_cmpuint (changed_n, ==, 2);
  /* told again: nothing changed */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c\","
                        "\"_meta\":{\"terminal_exit\":{\"exit_code\":null,\"signal\":\"SIGTERM\","
                        "\"terminal_id\":\"t\"}}}");
  g_assert_cmpuint (changed_n, ==, 2);
}

/* Output beyond the limit drops its oldest part, at a character */
static void
test_agent_terminal_limit (void)
{
  g_autoptr(AcpToolCallItem) tool = acp_tool_call_item_new ("c");
  g_autoptr(GString) data = g_string_new (NULL);
  g_autoptr(JsonObject) meta = json_object_new ();
  g_autoptr(JsonObject) delta = json_object_new ();
  const char *output;
  gboolean truncated = FALSE;

  /* "é" is two bytes: the limit falls inside the first */
  for (gsize i = 0; i < ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT / 2; i++)
    g_string_append (data, "é");
  g_string_append (data, "x");
  json_object_set_string_member (delta, "terminal_id", "t");
  json_object_set_string_member (delta, "data", data->str);
  json_object_set_object_member (meta, "terminal_output_delta", json_object_ref (delta));

  acp_tool_call_item_apply_meta (tool, meta);
  output = acp_tool_call_item_get_terminal_output (tool, "t", &truncated);
  g_assert_true (truncated);
  g_assert_cmpuint (strlen (output), ==, ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT - 1);
  g_assert_true (g_utf8_validate (output, -1, NULL));
  g_assert_true (g_str_has_prefix (output, "é"));

  /* and again, more than once over: the last of it kept */
  for (guint i = 0; i < 3; i++)
    {
      json_object_set_string_member (delta, "data", i == 2 ? "the end\n" : data->str);
      acp_tool_call_item_apply_meta (tool, meta);
    }
  output = acp_tool_call_item_get_terminal_output (tool, "t", &truncated);
  g_assert_true (truncated);
  g_assert_cmpuint (strlen (output), <=, ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT);
  g_assert_true (g_str_has_suffix (output, "éxthe end\n"));
  g_assert_true (g_utf8_validate (output, -1, NULL));

  /* bytes that are not UTF-8 are replaced */
  json_object_set_string_member (delta, "terminal_id", "u");
  json_object_set_string_member (delta, "data", "a\xff" "b");
  acp_tool_call_item_apply_meta (tool, meta);
  g_assert_cmpstr (acp_tool_call_item_get_terminal_output (tool, "u", NULL), ==, "a\xef\xbf\xbd" "b");
}

static void
test_stop_tool_calls (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpToolCallItem *running, *pending, *done, *failed;
  guint notified = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"r\",\"status\":\"in_progress\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"p\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"d\",\"status\":\"completed\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"f\",\"status\":\"failed\"}");
  running = acp_transcript_lookup_tool_call (transcript, "r");
  pending = acp_transcript_lookup_tool_call (transcript, "p");
  done = acp_transcript_lookup_tool_call (transcript, "d");
  failed = acp_transcript_lookup_tool_call (transcript, "f");
  g_signal_connect (running, "notify::stopped", G_CALLBACK (count_cb), &notified);

  /* queued or shown alike, the unfinished ones stop; their status stays
   * what the agent said */
  acp_transcript_stop_tool_calls (transcript);
  g_assert_true (acp_tool_call_item_get_stopped (running));
  g_assert_true (acp_tool_call_item_get_stopped (pending));
  g_assert_false (acp_tool_call_item_get_stopped (done));
  g_assert_false (acp_tool_call_item_get_stopped (failed));
  g_assert_cmpstr (acp_tool_call_item_get_status (running), ==, "in_progress");
  g_assert_cmpuint (notified, ==, 1);

  /* again: nothing changes */
  acp_transcript_stop_tool_calls (transcript);
  g_assert_cmpuint (notified, ==, 1);

  /* an update without a status leaves it stopped; the agent's status
   * wins */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"r\",\"title\":\"Build\"}");
  g_assert_true (acp_tool_call_item_get_stopped (running));
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"r\",\"status\":\"completed\"}");
  g_assert_false (acp_tool_call_item_get_stopped (running));
  g_assert_cmpstr (acp_tool_call_item_get_status (running), ==, "completed");
  g_assert_cmpuint (notified, ==, 2);

  /* a finished tool call is never stopped */
  acp_tool_call_item_stop (done);
  g_assert_false (acp_tool_call_item_get_stopped (done));

  /* one the agent reports running again after a stop is stopped by the
   * next one */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"p\",\"status\":\"in_progress\"}");
  g_assert_false (acp_tool_call_item_get_stopped (pending));
  acp_transcript_stop_tool_calls (transcript);
  g_assert_true (acp_tool_call_item_get_stopped (pending));
  g_assert_false (acp_tool_call_item_get_stopped (running));
}

/* --- plans, notices, generic --- */

static void
test_plan (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonArray) prompt = NULL;
  AcpPlanItem *plan, *second;
  GListModel *entries;
  AcpPlanEntry *entry;
  guint notified = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":["
                        "{\"content\":\"one\",\"priority\":\"high\",\"status\":\"pending\"},"
                        "{\"content\":\"two\",\"priority\":\"low\",\"status\":\"pending\"}]}");
  plan = item_at (transcript, 0);
  g_assert_true (ACP_IS_PLAN_ITEM (plan));
  g_assert_cmpint (acp_item_get_kind (ACP_ITEM (plan)), ==, ACP_ITEM_KIND_PLAN);
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (plan)), ==, 2);
  entry = value_at (acp_plan_item_get_entries (plan), 1);
  g_assert_cmpstr (acp_plan_entry_get_content (entry), ==, "two");
  g_assert_cmpint (acp_plan_entry_get_priority (entry), ==, ACP_PLAN_ENTRY_PRIORITY_LOW);
  g_assert_cmpint (acp_plan_entry_get_status (entry), ==, ACP_PLAN_ENTRY_STATUS_PENDING);
  g_signal_connect (plan, "notify::entries", G_CALLBACK (count_cb), &notified);

  /* A message in between does not matter: the plan is replaced. */
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"working\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":["
                        "{\"content\":\"one\",\"priority\":\"high\",\"status\":\"completed\"}]}");
  g_assert_cmpuint (count_all (transcript), ==, 2);
  g_assert_cmpuint (notified, ==, 1);
  entries = acp_plan_item_get_entries (plan);
  g_assert_cmpuint (n_items (entries), ==, 1);
  entry = value_at (entries, 0);
  g_assert_cmpint (acp_plan_entry_get_status (entry), ==, ACP_PLAN_ENTRY_STATUS_COMPLETED);

  /* Same entries: no notification, and the same model. */
  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":["
                        "{\"content\":\"one\",\"priority\":\"high\",\"status\":\"completed\"}]}");
  g_assert_cmpuint (notified, ==, 1);
  g_assert_true (acp_plan_item_get_entries (plan) == entries);

  /* After a new user message, a plan is a new item. */
  prompt = json_array_new ();
  apply_ok (transcript, "{\"sessionUpdate\":\"user_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"next\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
  g_assert_cmpuint (count_all (transcript), ==, 4);
  second = item_at (transcript, 3);
  g_assert_true (ACP_IS_PLAN_ITEM (second));
  g_assert_true (second != plan);
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (plan)), ==, 1);
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (second)), ==, 0);

  /* Same through a prompt the person sent. */
  acp_transcript_append_prompt (transcript, prompt);
  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":["
                        "{\"content\":\"x\",\"priority\":\"medium\",\"status\":\"in_progress\"},"
                        "{\"content\":5,\"priority\":\"medium\",\"status\":\"in_progress\"}]}");
  g_assert_cmpuint (count_all (transcript), ==, 6);
  /* the invalid entry is skipped */
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (item_at (transcript, 5))), ==, 1);
}

/* plan_update: one item per planId, its content replaced in place whatever
 * form it takes */
static void
test_plan_update (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonArray) prompt = json_array_new ();
  AcpPlanItem *plan, *other, *legacy;
  AcpPlanEntry *entry;
  guint n_entries = 0, n_form = 0, n_markdown = 0, n_uri = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\","
                        "\"planId\":\"p1\",\"entries\":["
                        "{\"content\":\"one\",\"priority\":\"high\",\"status\":\"completed\"},"
                        "{\"content\":7,\"priority\":\"high\",\"status\":\"pending\"},"
                        "{\"content\":\"two\",\"priority\":\"low\",\"status\":\"in_progress\"}]}}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  plan = item_at (transcript, 0);
  g_assert_true (ACP_IS_PLAN_ITEM (plan));
  g_assert_cmpstr (acp_plan_item_get_plan_id (plan), ==, "p1");
  g_assert_cmpint (acp_plan_item_get_form (plan), ==, ACP_PLAN_FORM_ITEMS);
  g_assert_false (acp_plan_item_get_removed (plan));
  /* the invalid entry is skipped */
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (plan)), ==, 2);
  entry = value_at (acp_plan_item_get_entries (plan), 1);
  g_assert_cmpstr (acp_plan_entry_get_content (entry), ==, "two");
  g_assert_cmpint (acp_plan_entry_get_status (entry), ==, ACP_PLAN_ENTRY_STATUS_IN_PROGRESS);
  g_assert_null (acp_plan_item_get_markdown (plan));
  g_assert_null (acp_plan_item_get_uri (plan));
  g_signal_connect (plan, "notify::entries", G_CALLBACK (count_cb), &n_entries);
  g_signal_connect (plan, "notify::form", G_CALLBACK (count_cb), &n_form);
  g_signal_connect (plan, "notify::markdown", G_CALLBACK (count_cb), &n_markdown);
  g_signal_connect (plan, "notify::uri", G_CALLBACK (count_cb), &n_uri);

  /* the same entries change nothing */
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\","
                        "\"planId\":\"p1\",\"entries\":["
                        "{\"content\":\"one\",\"priority\":\"high\",\"status\":\"completed\"},"
                        "{\"content\":\"two\",\"priority\":\"low\",\"status\":\"in_progress\"}]}}");
  g_assert_cmpuint (n_entries + n_form + n_markdown + n_uri, ==, 0);

  /* A second plan, then the first one as Markdown, after a new prompt: in
   * place, no new item */
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\","
                        "\"planId\":\"p2\",\"content\":\"- other\"}}");
  acp_transcript_append_prompt (transcript, prompt);
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\","
                        "\"planId\":\"p1\",\"content\":\"# Steps\\n1. *one*\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 3);
  g_assert_true (item_at (transcript, 0) == plan);
  g_assert_cmpint (acp_plan_item_get_form (plan), ==, ACP_PLAN_FORM_MARKDOWN);
  g_assert_cmpstr (acp_plan_item_get_markdown (plan), ==, "# Steps\n1. *one*");
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (plan)), ==, 0);
  g_assert_cmpuint (n_form, ==, 1);
  g_assert_cmpuint (n_markdown, ==, 1);
  g_assert_cmpuint (n_entries, ==, 1);

  other = item_at (transcript, 1);
  g_assert_true (ACP_IS_PLAN_ITEM (other));
  g_assert_cmpstr (acp_plan_item_get_plan_id (other), ==, "p2");
  g_assert_cmpint (acp_plan_item_get_form (other), ==, ACP_PLAN_FORM_MARKDOWN);
  g_assert_cmpstr (acp_plan_item_get_markdown (other), ==, "- other");

  /* then as a file */
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"file\","
                        "\"planId\":\"p1\",\"uri\":\"file:///tmp/plan.md\"},\"_meta\":{}}");
  g_assert_cmpuint (count_all (transcript), ==, 3);
  g_assert_cmpint (acp_plan_item_get_form (plan), ==, ACP_PLAN_FORM_FILE);
  g_assert_cmpstr (acp_plan_item_get_uri (plan), ==, "file:///tmp/plan.md");
  g_assert_null (acp_plan_item_get_markdown (plan));
  g_assert_cmpuint (n_uri, ==, 1);
  g_assert_cmpuint (n_markdown, ==, 2);
  g_assert_cmpstr (acp_plan_item_get_markdown (other), ==, "- other");

  /* and entries again */
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\","
                        "\"planId\":\"p1\",\"entries\":["
                        "{\"content\":\"three\",\"priority\":\"medium\",\"status\":\"pending\"}]}}");
  g_assert_cmpint (acp_plan_item_get_form (plan), ==, ACP_PLAN_FORM_ITEMS);
  g_assert_null (acp_plan_item_get_uri (plan));
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (plan)), ==, 1);

  /* A `plan` without id is a plan of its own, and plans with ids are not it */
  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\","
                        "\"planId\":\"p2\",\"content\":\"- changed\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 4);
  legacy = item_at (transcript, 3);
  g_assert_null (acp_plan_item_get_plan_id (legacy));
  g_assert_cmpint (acp_plan_item_get_form (legacy), ==, ACP_PLAN_FORM_ITEMS);
  g_assert_cmpstr (acp_plan_item_get_markdown (other), ==, "- changed");
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (plan)), ==, 1);
}

/* plan_removed: the item stays, marked removed; unknown ids are ignored */
static void
test_plan_removed (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpPlanItem *first, *second, *again;
  guint notified = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\","
                        "\"planId\":\"p1\",\"entries\":["
                        "{\"content\":\"one\",\"priority\":\"high\",\"status\":\"pending\"}]}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\","
                        "\"planId\":\"p2\",\"content\":\"text\"}}");
  first = item_at (transcript, 0);
  second = item_at (transcript, 1);
  g_signal_connect (second, "notify", G_CALLBACK (count_cb), &notified);

  apply_ok (transcript, "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p1\"}");
  g_assert_cmpuint (count_all (transcript), ==, 2);
  g_assert_true (acp_plan_item_get_removed (first));
  /* what it held stays, for the history */
  g_assert_cmpuint (n_items (acp_plan_item_get_entries (first)), ==, 1);
  g_assert_false (acp_plan_item_get_removed (second));
  g_assert_cmpuint (notified, ==, 0);

  /* removed twice, or never there: nothing happens */
  g_signal_connect (first, "notify", G_CALLBACK (count_cb), &notified);
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p1\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"nope\",\"_meta\":null}");
  g_assert_cmpuint (count_all (transcript), ==, 2);
  g_assert_cmpuint (notified, ==, 0);

  /* the id used again is a new plan; the removed one is left as it was */
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\","
                        "\"planId\":\"p1\",\"content\":\"anew\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 3);
  again = item_at (transcript, 2);
  g_assert_true (again != first);
  g_assert_false (acp_plan_item_get_removed (again));
  g_assert_cmpstr (acp_plan_item_get_markdown (again), ==, "anew");
  g_assert_cmpint (acp_plan_item_get_form (first), ==, ACP_PLAN_FORM_ITEMS);
  g_assert_cmpuint (notified, ==, 0);

  /* a cleared transcript forgets its plans */
  g_object_ref (second);
  acp_transcript_clear (transcript);
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p2\"}");
  g_assert_false (acp_plan_item_get_removed (second));
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\","
                        "\"planId\":\"p2\",\"content\":\"after\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  g_assert_cmpstr (acp_plan_item_get_markdown (second), ==, "text");
  g_object_unref (second);
}

static void
test_notice (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpNoticeItem *notice;

  apply_ok (transcript, "{\"sessionUpdate\":\"notice\",\"severity\":\"warning\","
                        "\"title\":\"Rate limited\",\"description\":\"Retrying in 5 s\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"notice\",\"severity\":\"_custom\",\"title\":\"FYI\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"notice\",\"severity\":\"error\",\"title\":\"Boom\"}");
  g_assert_cmpuint (count_all (transcript), ==, 3);

  notice = item_at (transcript, 0);
  g_assert_true (ACP_IS_NOTICE_ITEM (notice));
  g_assert_cmpint (acp_item_get_kind (ACP_ITEM (notice)), ==, ACP_ITEM_KIND_NOTICE);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_WARNING);
  g_assert_cmpstr (acp_notice_item_get_title (notice), ==, "Rate limited");
  g_assert_cmpstr (acp_notice_item_get_body (notice), ==, "Retrying in 5 s");
  g_assert_null (acp_notice_item_get_details (notice));
  notice = item_at (transcript, 1);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_INFO);
  g_assert_null (acp_notice_item_get_body (notice));
  notice = item_at (transcript, 2);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_ERROR);

  notice = acp_transcript_append_notice (transcript, ACP_NOTICE_SEVERITY_ERROR,
                                         "The agent exited", "status 1", "stderr tail");
  g_assert_cmpuint (count_all (transcript), ==, 4);
  g_assert_true (item_at (transcript, 3) == (gpointer) notice);
  g_assert_cmpstr (acp_notice_item_get_details (notice), ==, "stderr tail");
}

static void
test_compaction (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpNoticeItem *notice;
  g_autofree char *started_title = NULL;

  apply_ok (transcript, "{\"sessionUpdate\":\"compaction_update\",\"compactionId\":\"c1\","
                        "\"status\":\"in_progress\"}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  notice = item_at (transcript, 0);
  g_assert_true (ACP_IS_NOTICE_ITEM (notice));
  started_title = g_strdup (acp_notice_item_get_title (notice));
  g_assert_cmpstr (started_title, !=, "");

  apply_ok (transcript, "{\"sessionUpdate\":\"compaction_summary_chunk\",\"compactionId\":\"c1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"We did \"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"compaction_summary_chunk\",\"compactionId\":\"c1\","
                        "\"content\":{\"type\":\"text\",\"text\":\"things.\"}}");
  g_assert_cmpstr (acp_notice_item_get_body (notice), ==, "We did things.");

  apply_ok (transcript, "{\"sessionUpdate\":\"compaction_update\",\"compactionId\":\"c1\","
                        "\"status\":\"completed\"}");
  g_assert_cmpuint (count_all (transcript), ==, 1);
  g_assert_cmpstr (acp_notice_item_get_title (notice), !=, started_title);
  g_assert_cmpstr (acp_notice_item_get_body (notice), ==, "We did things.");

  apply_ok (transcript, "{\"sessionUpdate\":\"compaction_update\",\"compactionId\":\"c2\","
                        "\"status\":\"failed\",\"error\":\"context too small\","
                        "\"summary\":[{\"type\":\"text\",\"text\":\"partial\"}]}");
  g_assert_cmpuint (count_all (transcript), ==, 2);
  notice = item_at (transcript, 1);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_WARNING);
  g_assert_cmpstr (acp_notice_item_get_details (notice), ==, "context too small");
  g_assert_cmpstr (acp_notice_item_get_body (notice), ==, "partial");
}

/* Session-level variants change nothing here, whatever they hold: the
 * session applies them. */
static void
test_session_variants_ignored (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  const AcpUpdateVariant *variants;
  guint n, n_session = 0;

  variants = _acp_update_variants_get (&n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *json = NULL;

      if (variants[i].apply_session == NULL)
        continue;
      json = g_strdup_printf ("{\"sessionUpdate\":\"%s\"}", variants[i].name);
      apply_ok (transcript, json);
      n_session++;
    }
  g_assert_cmpuint (n_session, >=, 5);
  g_assert_cmpuint (count_all (transcript), ==, 0);
}

/* One row per name, one handler per row; every transcript-level variant is
 * taken apart where it was read (the frequent ones all are), so that its
 * JSON never reaches the main thread. */
static void
test_variant_table (void)
{
  const AcpUpdateVariant *variants;
  guint n;

  variants = _acp_update_variants_get (&n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_nonnull (variants[i].name);
      g_assert_true ((variants[i].apply_transcript == NULL) != (variants[i].apply_session == NULL));
      if (variants[i].apply_transcript != NULL)
        g_assert_nonnull (variants[i].parse);
      g_assert_true (_acp_update_variant_lookup (variants[i].name) == &variants[i]);
    }

  g_assert_nonnull (_acp_update_variant_lookup ("usage_update")->apply_session);
  g_assert_nonnull (_acp_update_variant_lookup ("plan")->apply_transcript);
  g_assert_null (_acp_update_variant_lookup ("no_such_update"));
  g_assert_null (_acp_update_variant_lookup (NULL));
}

static void
test_unknown_variant (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpGenericItem *generic;
  g_autofree char *name = NULL;
  g_autofree char *update = NULL;

  apply_ok (transcript, "{\"sessionUpdate\":\"subagent_update\",\"agentId\":\"a1\",\"x\":[1,2]}");
  apply_ok (transcript, "{\"sessionUpdate\":\"_example_update\",\"planId\":\"p\"}");
  g_assert_cmpuint (count_all (transcript), ==, 2);

  generic = item_at (transcript, 0);
  g_assert_true (ACP_IS_GENERIC_ITEM (generic));
  g_assert_cmpint (acp_item_get_kind (ACP_ITEM (generic)), ==, ACP_ITEM_KIND_GENERIC);
  g_assert_cmpstr (acp_generic_item_get_update_name (generic), ==, "subagent_update");
  update = acp_generic_item_dup_update_json (generic);
  g_assert_nonnull (strstr (update, "\"agentId\" : \"a1\""));
  g_object_get (generic, "update-name", &name, NULL);
  g_assert_cmpstr (name, ==, "subagent_update");
}

static void
test_malformed (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  const char *bad[] = {
    "{}",
    "{\"sessionUpdate\":5}",
    "{\"sessionUpdate\":null}",
    "{\"sessionUpdate\":\"agent_message_chunk\"}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":\"text\"}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"text\":\"no type\"}}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\"}}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":7}}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":7,"
      "\"content\":{\"type\":\"text\",\"text\":\"x\"}}",
    "{\"sessionUpdate\":\"user_message_chunk\",\"content\":[]}",
    "{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":null}",
    /* blocks that are not text have what their type requires */
    "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"image\",\"data\":\"AA==\"}}",
    "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"resource_link\",\"uri\":\"file:///a\"}}",
    "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///a\"}}}",
    "{\"sessionUpdate\":\"tool_call\",\"title\":\"no id\"}",
    "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":5,\"title\":\"x\"}",
    "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":[\"x\"]}",
    "{\"sessionUpdate\":\"tool_call_update\"}",
    "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\",\"content\":\"x\"}",
    "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":3}",
    "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"title\":\"T\",\"locations\":{}}",
    "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"kind\":true}",
    "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"new\",\"name\":1}",
    "{\"sessionUpdate\":\"plan\"}",
    "{\"sessionUpdate\":\"plan\",\"entries\":{}}",
    "{\"sessionUpdate\":\"plan_update\"}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":\"p\"}",
    "{\"sessionUpdate\":\"plan_update\",\"planId\":\"p\",\"type\":\"items\",\"entries\":[]}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"entries\":[]}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":5,\"entries\":[]}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"planId\":\"p\",\"entries\":[]}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"html\",\"planId\":\"p\",\"content\":\"x\"}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":\"p\"}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":\"p\",\"entries\":{}}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\",\"planId\":\"p\"}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\",\"planId\":\"p\",\"content\":5}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"file\",\"planId\":\"p\"}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"file\",\"planId\":\"p\",\"uri\":null}}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"file\",\"planId\":\"q\",\"content\":\"x\"}}",
    "{\"sessionUpdate\":\"plan_removed\"}",
    "{\"sessionUpdate\":\"plan_removed\",\"planId\":3}",
    "{\"sessionUpdate\":\"plan_removed\",\"plan\":{\"planId\":\"p\"}}",
    "{\"sessionUpdate\":\"notice\",\"title\":\"no severity\"}",
    "{\"sessionUpdate\":\"notice\",\"severity\":\"info\"}",
    "{\"sessionUpdate\":\"notice\",\"severity\":\"info\",\"title\":\"t\",\"description\":1}",
    "{\"sessionUpdate\":\"compaction_update\",\"status\":\"completed\"}",
    "{\"sessionUpdate\":\"compaction_update\",\"compactionId\":\"c\"}",
    "{\"sessionUpdate\":\"compaction_update\",\"compactionId\":\"c\",\"status\":\"completed\",\"summary\":1}",
    "{\"sessionUpdate\":\"compaction_summary_chunk\",\"compactionId\":\"c\"}",
    "{\"sessionUpdate\":\"compaction_summary_chunk\",\"content\":{\"type\":\"text\",\"text\":\"x\"}}",
  };
  AcpToolCallItem *tool;
  AcpPlanItem *plan, *identified;
  AcpMessageItem *message;
  guint notified = 0;

  /* Some state for the malformed updates to (not) change. */
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"T\","
                        "\"status\":\"pending\"}");
  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"a\"}}");
  tool = item_at (transcript, 0);
  plan = item_at (transcript, 1);
  message = item_at (transcript, 2);
  apply_ok (transcript, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\","
                        "\"planId\":\"p\",\"content\":\"kept\"}}");
  identified = item_at (transcript, 3);
  g_signal_connect (identified, "notify", G_CALLBACK (count_cb), &notified);
  g_signal_connect (tool, "notify", G_CALLBACK (count_cb), &notified);
  g_signal_connect (plan, "notify", G_CALLBACK (count_cb), &notified);
  g_signal_connect (message, "notify", G_CALLBACK (count_cb), &notified);
  g_signal_connect (message, "text-appended", G_CALLBACK (count_cb), &notified);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonObject) update = parse_object (bad[i]);
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", bad[i]);
      g_assert_false (acp_transcript_apply_update (transcript, update, &error));
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    }

  g_assert_cmpuint (count_all (transcript), ==, 4);
  g_assert_cmpuint (notified, ==, 0);
  g_assert_cmpstr (acp_plan_item_get_markdown (identified), ==, "kept");
  g_assert_false (acp_plan_item_get_removed (identified));
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "pending");
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "T");
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "a");
  g_assert_null (acp_transcript_lookup_tool_call (transcript, "new"));
}

/* --- the model and its batching --- */

typedef struct
{
  AcpTranscript *transcript;
  guint          n_signals;
  guint          n_added;
} ItemsChanged;

static void
items_changed_cb (GListModel   *model,
                  guint         position,
                  guint         removed,
                  guint         added,
                  ItemsChanged *data)
{
  data->n_signals++;
  data->n_added += added;
  /* consistent with the signal */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, data->n_added);
  g_assert_cmpuint (position + added, ==, g_list_model_get_n_items (model));
  g_assert_cmpuint (removed, ==, 0);
}

static void
test_batching (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  ItemsChanged data = { transcript, 0, 0 };
  guint n_notified = 0;
  const guint n = 10000;

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (transcript)) == ACP_TYPE_ITEM);
  g_signal_connect (transcript, "items-changed", G_CALLBACK (items_changed_cb), &data);
  g_signal_connect (transcript, "notify::n-items", G_CALLBACK (count_cb), &n_notified);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpNoticeItem) notice = acp_notice_item_new (ACP_NOTICE_SEVERITY_INFO, "n", NULL, NULL);

      acp_transcript_append (transcript, ACP_ITEM (notice));
    }

  /* Nothing shown before the main loop runs, the lookups see everything. */
  g_assert_cmpuint (data.n_signals, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 0);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (transcript), 0));
  g_assert_cmpuint (acp_transcript_get_n_pending (transcript), ==, n);
  g_assert_nonnull (acp_transcript_peek_last (transcript));

  WAIT_UNTIL (acp_transcript_get_n_pending (transcript) == 0);

  g_assert_cmpuint (data.n_signals, ==, 1);
  g_assert_cmpuint (n_notified, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, n);

  /* Nothing pending: no further signal, no idle left behind. */
  acp_transcript_flush (transcript);
  g_assert_cmpuint (data.n_signals, ==, 1);
  g_assert_false (g_main_context_pending (NULL));

  /* An explicit flush shows the next batch at once, in one signal. */
  for (guint i = 0; i < 3; i++)
    acp_transcript_append_notice (transcript, ACP_NOTICE_SEVERITY_INFO, "x", NULL, NULL);
  acp_transcript_flush (transcript);
  g_assert_cmpuint (data.n_signals, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, n + 3);
  g_assert_false (g_main_context_pending (NULL));
}

static void
test_peek_and_lookup_see_queued (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  AcpItem *last;

  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"a\"}}");
  acp_transcript_flush (transcript);
  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"q\",\"title\":\"x\"}");

  last = acp_transcript_peek_last (transcript);
  g_assert_true (ACP_IS_TOOL_CALL_ITEM (last));
  g_assert_true (acp_transcript_lookup_tool_call (transcript, "q") == ACP_TOOL_CALL_ITEM (last));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 1);

  /* queued message chunks merge with queued messages */
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"b\"}}");
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"c\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 3);
  g_assert_cmpstr (acp_message_item_get_text (ACP_MESSAGE_ITEM (acp_transcript_peek_last (transcript))),
                   ==, "bc");
}

static void
count_items_changed_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        guint      *counter)
{
  (*counter)++;
}

static void
test_clear (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  guint signals = 0;

  apply_ok (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"q\",\"title\":\"x\"}");
  acp_transcript_flush (transcript);
  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
  g_signal_connect (transcript, "items-changed", G_CALLBACK (count_items_changed_cb), &signals);

  acp_transcript_clear (transcript);
  g_assert_cmpuint (signals, ==, 1);
  g_assert_cmpuint (count_all (transcript), ==, 0);
  g_assert_null (acp_transcript_lookup_tool_call (transcript, "q"));
  g_assert_null (acp_transcript_peek_last (transcript));
  g_assert_false (g_main_context_pending (NULL));
}

static void
test_append_prompt (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonObject) holder = parse_object ("{\"p\":[{\"type\":\"text\",\"text\":\"Look at \"},"
                                               "{\"type\":\"resource_link\",\"uri\":\"file:///x\",\"name\":\"x\"},"
                                               "{\"type\":\"text\",\"text\":\"this\"}, 42]}");
  AcpMessageItem *message;

  acp_transcript_append_prompt (transcript, json_object_get_array_member (holder, "p"));
  /* an agent chunk afterwards is a new message */
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"ok\"}}");
  g_assert_cmpuint (count_all (transcript), ==, 2);

  message = item_at (transcript, 0);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_USER);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Look at this");
  g_assert_cmpuint (n_items (acp_message_item_get_attachments (message)), ==, 1);
}

static AcpUpdate *
update_from_json (const char *json)
{
  g_autoptr(GError) error = NULL;
  AcpUpdate *update = acp_update_new_from_json ("s1", json, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (update);
  return update;
}

static gpointer
read_in_thread (gpointer data)
{
  return update_from_json (data);
}

/* An update kept as JSON text (a history of the client's own) is read
 * back, on any thread, and applied as the agent's would be */
static void
test_update_from_json (void)
{
  const char *tool_call = "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"c1\","
                          "\"title\":\"Read a.c\",\"status\":\"pending\"}";
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(AcpUpdate) chunk = NULL;
  g_autoptr(AcpUpdate) call = NULL;
  g_autoptr(AcpUpdate) done = NULL;
  g_autoptr(AcpUpdate) malformed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  GThread *thread;
  AcpMessageItem *message;
  AcpToolCallItem *item;

  /* a prefix only: the length counts */
  chunk = acp_update_new_from_json ("s1", "{\"sessionUpdate\":\"agent_message_chunk\","
                                    "\"content\":{\"type\":\"text\",\"text\":\"Hi\"}}garbage",
                                    77, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (acp_update_get_session_id (chunk), ==, "s1");
  g_assert_cmpstr (acp_update_get_kind (chunk), ==, "agent_message_chunk");
  g_assert_true (acp_transcript_apply (transcript, chunk, &error));
  g_assert_no_error (error);

  thread = g_thread_new ("reader", read_in_thread, (gpointer) tool_call);
  call = g_thread_join (thread);
  /* its text as it was */
  json = acp_update_dup_json (call);
  g_assert_cmpstr (json, ==, tool_call);
  g_assert_true (acp_transcript_apply (transcript, call, &error));
  done = update_from_json ("{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c1\","
                           "\"status\":\"completed\"}");
  g_assert_true (acp_transcript_apply (transcript, done, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (count_all (transcript), ==, 2);
  message = item_at (transcript, 0);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Hi");
  item = item_at (transcript, 1);
  g_assert_cmpstr (acp_tool_call_item_get_title (item), ==, "Read a.c");
  g_assert_cmpstr (acp_tool_call_item_get_status (item), ==, "completed");

  /* a malformed update is read, and applying it fails as the agent's would */
  malformed = update_from_json ("{\"sessionUpdate\":\"tool_call\",\"title\":\"no id\"}");
  g_assert_false (acp_transcript_apply (transcript, malformed, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  g_clear_error (&error);
  g_assert_cmpuint (count_all (transcript), ==, 2);

  /* what is not an update at all is not read */
  g_assert_null (acp_update_new_from_json (NULL, "{\"sessionUpdate\":", -1, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR);
  g_clear_error (&error);
  g_assert_null (acp_update_new_from_json (NULL, "[1]", -1, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  g_clear_error (&error);
  g_assert_null (acp_update_new_from_json (NULL, "  ", -1, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR);
}

/* A transcript filled on another thread flushes only by hand, until it is
 * set back: then as any other */
static void
test_flush_by_hand (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  guint added = 0;

  g_signal_connect (transcript, "items-changed", G_CALLBACK (count_added_cb), &added);
  acp_transcript_set_flush_on_idle (transcript, FALSE);
  apply_ok (transcript, "{\"sessionUpdate\":\"agent_message_chunk\","
                        "\"content\":{\"type\":\"text\",\"text\":\"Hi\"}}");
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (added, ==, 0);
  g_assert_cmpuint (acp_transcript_get_n_pending (transcript), ==, 1);

  acp_transcript_flush (transcript);
  g_assert_cmpuint (added, ==, 1);

  apply_ok (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
  acp_transcript_set_flush_on_idle (transcript, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (added, ==, 2);
  g_assert_cmpuint (acp_transcript_get_n_pending (transcript), ==, 0);
}

static void
test_item_kind_property (void)
{
  g_autoptr(AcpPlanItem) plan = acp_plan_item_new ();
  g_autoptr(AcpToolCallItem) tool = acp_tool_call_item_new ("x");
  AcpItemKind kind;

  g_object_get (plan, "kind", &kind, NULL);
  g_assert_cmpint (kind, ==, ACP_ITEM_KIND_PLAN);
  g_object_get (tool, "kind", &kind, NULL);
  g_assert_cmpint (kind, ==, ACP_ITEM_KIND_TOOL_CALL);
  g_assert_true (G_TYPE_IS_ABSTRACT (ACP_TYPE_ITEM));
  g_assert_false (G_TYPE_IS_FINAL (ACP_TYPE_ITEM));
}

/* --- a history read from its end --- */

/* A history of three turns, as updates */
static const char * const split_history[] = {
  "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"First\"}}",
  "{\"sessionUpdate\":\"plan\",\"entries\":[{\"content\":\"Read\",\"priority\":\"high\",\"status\":\"pending\"}]}",
  "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Read a\",\"status\":\"pending\"}",
  "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}",
  "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":\"p1\",\"entries\":[]}}",
  "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"text\",\"text\":\"One\"}}",
  "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Second\"}}",
  "{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Hm\"}}",
  "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t2\",\"title\":\"Edit b\",\"status\":\"in_progress\"}",
  /* the later part starts here */
  "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Third\"}}",
  "{\"sessionUpdate\":\"plan\",\"entries\":[{\"content\":\"Test\",\"priority\":\"low\",\"status\":\"pending\"}]}",
  "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"text\",\"text\":\"Three\"}}",
  "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t3\",\"title\":\"Run\",\"status\":\"pending\"}",
  "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"text\",\"text\":\" more\"}}",
};
#define SPLIT_AT 9

typedef struct
{
  guint n_signals;
  guint position;
  guint removed;
  guint added;
} Change;

static void
record_change_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Change     *change)
{
  change->n_signals++;
  change->position = position;
  change->removed = removed;
  change->added = added;
}

static void
apply_range (AcpTranscript      *transcript,
             const char * const *updates,
             guint               from,
             guint               to)
{
  for (guint i = from; i < to; i++)
    apply_ok (transcript, updates[i]);
  acp_transcript_flush (transcript);
}

/* One line per item: its type and what shows of it */
static char *
describe (AcpTranscript *transcript)
{
  GString *out = g_string_new (NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (transcript));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (transcript), i);

      g_string_append (out, G_OBJECT_TYPE_NAME (item));
      if (ACP_IS_MESSAGE_ITEM (item))
        g_string_append_printf (out, " %d %s", acp_message_item_get_role (ACP_MESSAGE_ITEM (item)),
                                acp_message_item_get_text (ACP_MESSAGE_ITEM (item)));
      else if (ACP_IS_TOOL_CALL_ITEM (item))
        g_string_append_printf (out, " %s %s %s",
                                acp_tool_call_item_get_tool_call_id (ACP_TOOL_CALL_ITEM (item)),
                                acp_tool_call_item_get_title (ACP_TOOL_CALL_ITEM (item)),
                                acp_tool_call_item_get_status (ACP_TOOL_CALL_ITEM (item)));
      else if (ACP_IS_PLAN_ITEM (item))
        g_string_append_printf (out, " %u removed=%d",
                                g_list_model_get_n_items (acp_plan_item_get_entries (ACP_PLAN_ITEM (item))),
                                acp_plan_item_get_removed (ACP_PLAN_ITEM (item)));
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

/* Builds @updates whole, and in two parts joined: the same items, and later
 * updates reach the earlier part's as they reach the whole's */
static void
test_prepend_same_as_whole (void)
{
  g_autoptr(AcpTranscript) whole = acp_transcript_new ();
  g_autoptr(AcpTranscript) later = acp_transcript_new ();
  g_autoptr(AcpTranscript) earlier = acp_transcript_new ();
  g_autofree char *expected = NULL;
  g_autofree char *joined = NULL;
  const char *more[] = {
    "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t2\",\"status\":\"failed\"}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":\"p1\",\"entries\":[{\"content\":\"X\",\"priority\":\"low\",\"status\":\"pending\"}]}}",
    "{\"sessionUpdate\":\"plan\",\"entries\":[]}",
  };
  Change change = { 0 }, earlier_change = { 0 };

  apply_range (whole, split_history, 0, G_N_ELEMENTS (split_history));

  acp_transcript_keep_gaps (later);
  apply_range (later, split_history, SPLIT_AT, G_N_ELEMENTS (split_history));
  apply_range (earlier, split_history, 0, SPLIT_AT);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (later)), ==, 4);
  g_assert_true (acp_transcript_can_follow (later, earlier));

  g_signal_connect (later, "items-changed", G_CALLBACK (record_change_cb), &change);
  g_signal_connect (earlier, "items-changed", G_CALLBACK (record_change_cb), &earlier_change);
  acp_transcript_prepend (later, earlier);
  /* one change, in front */
  g_assert_cmpuint (change.n_signals, ==, 1);
  g_assert_cmpuint (change.position, ==, 0);
  g_assert_cmpuint (change.removed, ==, 0);
  g_assert_cmpuint (change.added, ==, 8);
  g_assert_cmpuint (earlier_change.n_signals, ==, 1);
  g_assert_cmpuint (earlier_change.removed, ==, 8);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (earlier)), ==, 0);

  expected = describe (whole);
  joined = describe (later);
  g_assert_cmpstr (joined, ==, expected);

  /* a tool call and a plan of the earlier part, and the current plan of
   * the later one */
  apply_range (whole, more, 0, G_N_ELEMENTS (more));
  apply_range (later, more, 0, G_N_ELEMENTS (more));
  acp_transcript_stop_tool_calls (whole);
  acp_transcript_stop_tool_calls (later);
  g_free (expected);
  g_free (joined);
  expected = describe (whole);
  joined = describe (later);
  g_assert_cmpstr (joined, ==, expected);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (later)), ==, 12);
}

/* Each way a later part can reach into the earlier one */
static void
test_prepend_refused (void)
{
  const char *earlier_part[] = {
    "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Go\"}}",
    "{\"sessionUpdate\":\"plan\",\"entries\":[]}",
    "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Read\"}",
    "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":\"p1\",\"entries\":[]}}",
    "{\"sessionUpdate\":\"compaction_update\",\"compactionId\":\"c1\",\"status\":\"in_progress\"}",
    "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"text\",\"text\":\"A\"}}",
  };
  struct {
    const char *later;
    gboolean    follows;
  } cases[] = {
    { "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}", FALSE },
    { "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t9\",\"title\":\"Other\"}", TRUE },
    { "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":\"p1\",\"entries\":[]}}", FALSE },
    { "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p1\"}", FALSE },
    { "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p9\"}", TRUE },
    { "{\"sessionUpdate\":\"compaction_update\",\"compactionId\":\"c1\",\"status\":\"completed\"}", FALSE },
    { "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"text\",\"text\":\"B\"}}", FALSE },
    { "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"B\"}}", FALSE },
    { "{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":{\"type\":\"text\",\"text\":\"B\"}}", TRUE },
    { "{\"sessionUpdate\":\"plan\",\"entries\":[]}", FALSE },
    /* a new turn first: its messages and plans are its own */
    { "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Next\"}}", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AcpTranscript) earlier = acp_transcript_new ();
      g_autoptr(AcpTranscript) later = acp_transcript_new ();

      apply_range (earlier, earlier_part, 0, G_N_ELEMENTS (earlier_part));
      acp_transcript_keep_gaps (later);
      apply_ok (later, cases[i].later);
      g_test_message ("case %u: %s", i, cases[i].later);
      g_assert_cmpint (acp_transcript_can_follow (later, earlier), ==, cases[i].follows);
    }

  /* after a user message, a message id and a plan of the earlier turn are
   * not reached */
  {
    g_autoptr(AcpTranscript) earlier = acp_transcript_new ();
    g_autoptr(AcpTranscript) later = acp_transcript_new ();

    apply_range (earlier, earlier_part, 0, G_N_ELEMENTS (earlier_part));
    acp_transcript_keep_gaps (later);
    apply_ok (later, "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Next\"}}");
    apply_ok (later, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"text\",\"text\":\"B\"}}");
    apply_ok (later, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
    g_assert_true (acp_transcript_can_follow (later, earlier));
    /* a transcript that kept no gaps cannot tell */
    g_assert_false (acp_transcript_can_follow (earlier, later));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transcript/chunks/message-id", test_chunks_by_message_id);
  g_test_add_func ("/transcript/chunks/message-id-per-turn", test_message_id_per_turn);
  g_test_add_func ("/transcript/chunks/adjacency", test_chunks_by_adjacency);
  g_test_add_func ("/transcript/chunks/empty", test_empty_chunks);
  g_test_add_func ("/transcript/chunks/attachments", test_chunk_attachments);
  g_test_add_func ("/transcript/chunks/many", test_text_appended_many);
  g_test_add_func ("/transcript/chunks/announced-per-batch", test_text_announced_per_batch);
  g_test_add_func ("/transcript/message/set-text", test_message_set_text);
  g_test_add_func ("/transcript/tool-call/updates", test_tool_call_and_updates);
  g_test_add_func ("/transcript/tool-call/update-first", test_tool_call_update_first);
  g_test_add_func ("/transcript/tool-call/merge", test_merge_tool_call);
  g_test_add_func ("/transcript/tool-call/raw-text", test_tool_call_raw_text);
  g_test_add_func ("/transcript/tool-call/stop", test_stop_tool_calls);
  g_test_add_func ("/transcript/tool-call/agent-terminal", test_agent_terminal_meta);
  g_test_add_func ("/transcript/tool-call/agent-terminal-limit", test_agent_terminal_limit);
  g_test_add_func ("/transcript/plan", test_plan);
  g_test_add_func ("/transcript/plan-update", test_plan_update);
  g_test_add_func ("/transcript/plan-removed", test_plan_removed);
  g_test_add_func ("/transcript/notice", test_notice);
  g_test_add_func ("/transcript/compaction", test_compaction);
  g_test_add_func ("/transcript/session-variants", test_session_variants_ignored);
  g_test_add_func ("/transcript/variant-table", test_variant_table);
  g_test_add_func ("/transcript/unknown-variant", test_unknown_variant);
  g_test_add_func ("/transcript/malformed", test_malformed);
  g_test_add_func ("/transcript/batching", test_batching);
  g_test_add_func ("/transcript/lookups-see-queued", test_peek_and_lookup_see_queued);
  g_test_add_func ("/transcript/clear", test_clear);
  g_test_add_func ("/transcript/append-prompt", test_append_prompt);
  g_test_add_func ("/transcript/item-kind", test_item_kind_property);
  g_test_add_func ("/transcript/update-from-json", test_update_from_json);
  g_test_add_func ("/transcript/flush-by-hand", test_flush_by_hand);
  g_test_add_func ("/transcript/prepend/same-as-whole", test_prepend_same_as_whole);
  g_test_add_func ("/transcript/prepend/refused", test_prepend_refused);

  return g_test_run ();
}
