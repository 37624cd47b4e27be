/* test-fake-agent.c: the scripted fake agent does what its scenarios say
 *
 * Copyright 2026 The Palaver authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every other test trusts the fake agent, so this one drives it over raw
 * pipes, line by line, without any of the code under test (test-util.h
 * only waits).
 */

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-util.h"

typedef struct
{
  GSubprocess      *process;
  GOutputStream    *stdin_pipe;
  GDataInputStream *stdout_lines;
  GInputStream     *stderr_pipe;
} Peer;

typedef struct
{
  gboolean  done;
  char     *line;
  gsize     length;
  GError   *error;
} LineWait;

static const char *
scenario_dir (void)
{
  const char *dir = g_getenv ("PALAVER_SCENARIO_DIR");

  g_assert_nonnull (dir);
  return dir;
}

static Peer *
peer_start (const char *first_arg,
            ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  Peer *peer = g_new0 (Peer, 1);
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) test_fake_agent_path ());
  va_start (args, first_arg);
  for (arg = first_arg; arg; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  peer->process = g_subprocess_newv ((const char * const *) argv->pdata,
                                     G_SUBPROCESS_FLAGS_STDIN_PIPE
                                     | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                     | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                     &error);
  g_assert_no_error (error);
  peer->stdin_pipe = g_object_ref (g_subprocess_get_stdin_pipe (peer->process));
  peer->stdout_lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (peer->process));
  peer->stderr_pipe = g_object_ref (g_subprocess_get_stderr_pipe (peer->process));
  return peer;
}

static void
peer_free (Peer *peer)
{
  g_subprocess_force_exit (peer->process);
  g_clear_object (&peer->stdin_pipe);
  g_clear_object (&peer->stdout_lines);
  g_clear_object (&peer->stderr_pipe);
  g_clear_object (&peer->process);
  g_free (peer);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Peer, peer_free)

static void
peer_send (Peer       *peer,
           const char *line)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *with_newline = g_strconcat (line, "\n", NULL);

  g_output_stream_write_all (peer->stdin_pipe, with_newline, strlen (with_newline),
                             NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
peer_close_stdin (Peer *peer)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_close (peer->stdin_pipe, NULL, &error);
  g_assert_no_error (error);
}

static void
read_line_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  LineWait *wait = user_data;

  wait->line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result,
                                                     &wait->length, &wait->error);
  wait->done = TRUE;
}

/* The next stdout line, or NULL at end of file. */
static char *
peer_read_line (Peer *peer)
{
  LineWait wait = { 0 };

  g_data_input_stream_read_line_async (peer->stdout_lines, G_PRIORITY_DEFAULT, NULL,
                                       read_line_cb, &wait);
  WAIT_UNTIL (wait.done);
  g_assert_no_error (wait.error);
  return wait.line;
}

static JsonNode *
parse (const char *line)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (line);
  json_parser_load_from_data (parser, line, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_ref (json_parser_get_root (parser));
}

static JsonNode *
peer_read_message (Peer *peer)
{
  g_autofree char *line = peer_read_line (peer);

  return parse (line);
}

/* Member at a dotted path ("result.agentInfo.name"), or NULL. */
static JsonNode *
at (JsonNode   *node,
    const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);

  for (guint i = 0; parts[i] && node; i++)
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      node = json_object_get_member (json_node_get_object (node), parts[i]);
    }
  return node;
}

static const char *
str_at (JsonNode   *node,
        const char *path)
{
  JsonNode *member = at (node, path);

  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member)
      || json_node_get_value_type (member) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (member);
}

static gint64
int_at (JsonNode   *node,
        const char *path)
{
  JsonNode *member = at (node, path);

  g_assert_nonnull (member);
  g_assert_true (JSON_NODE_HOLDS_VALUE (member));
  g_assert_true (json_node_get_value_type (member) == G_TYPE_INT64);
  return json_node_get_int (member);
}

static void
wait_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  gboolean *done = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *done = TRUE;
}

static void
peer_wait (Peer *peer)
{
  gboolean done = FALSE;

  g_subprocess_wait_async (peer->process, NULL, wait_cb, &done);
  WAIT_UNTIL (done);
}

static void
peer_assert_exit (Peer *peer,
                  int   status)
{
  peer_wait (peer);
  g_assert_true (g_subprocess_get_if_exited (peer->process));
  g_assert_cmpint (g_subprocess_get_exit_status (peer->process), ==, status);
}

static char *
peer_read_stderr (Peer *peer)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) sink = g_memory_output_stream_new_resizable ();

  /* only after the process ended: then this cannot block */
  g_output_stream_splice (sink, peer->stderr_pipe, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                          NULL, &error);
  g_assert_no_error (error);
  return g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (sink)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (sink)));
}

static char *
write_temp_scenario (const char *json)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("fake-agent-XXXXXX.json", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  return path;
}

#define INITIALIZE \
  "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}"
#define NEW_SESSION(id) \
  "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"session/new\"," \
  "\"params\":{\"cwd\":\"/tmp\",\"mcpServers\":[]}}"
#define PROMPT(id, session) \
  "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"session/prompt\"," \
  "\"params\":{\"sessionId\":\"" session "\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}}"

/* ----------------------------------------------------------------- tests */

static void
test_scenarios_valid (void)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *bad = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *err_text = NULL;
  const char *name;
  guint checked = 0;

  dir = g_dir_open (scenario_dir (), 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = NULL;
      g_autoptr(GSubprocess) check = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      path = g_build_filename (scenario_dir (), name, NULL);
      check = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                                test_fake_agent_path (), "--check", path, NULL);
      g_assert_no_error (error);
      g_subprocess_wait_check (check, NULL, &error);
      if (error)
        g_error ("scenario %s is invalid: %s", name, error->message);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 15);

  /* and an invalid one is refused with status 2 and a reason */
  bad = write_temp_scenario ("{\"handlers\":{\"initialize\":[{\"op\":\"explode\"}]}}");
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              test_fake_agent_path (), bad, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err_text, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 2);
  g_assert_nonnull (strstr (err_text, "unknown op \"explode\""));
  g_unlink (bad);
}

static void
test_handshake (void)
{
  g_autoptr(Peer) peer = peer_start ("basic.json", NULL);
  g_autoptr(JsonNode) init = NULL;
  g_autoptr(JsonNode) new1 = NULL;
  g_autoptr(JsonNode) new2 = NULL;
  g_autoptr(JsonNode) config = NULL;
  g_autoptr(JsonNode) page1 = NULL;
  g_autoptr(JsonNode) page2 = NULL;
  g_autoptr(JsonNode) unknown = NULL;
  g_autoptr(JsonNode) garbage = NULL;
  g_autoptr(JsonNode) not_object = NULL;
  JsonNode *options;
  guint updates = 0;

  peer_send (peer, INITIALIZE);
  init = peer_read_message (peer);
  g_assert_cmpstr (str_at (init, "jsonrpc"), ==, "2.0");
  g_assert_cmpint (int_at (init, "id"), ==, 0);
  g_assert_cmpint (int_at (init, "result.protocolVersion"), ==, 1);
  g_assert_true (json_node_get_boolean (at (init, "result.agentCapabilities.loadSession")));
  g_assert_nonnull (at (init, "result.agentCapabilities.sessionCapabilities.list"));
  g_assert_cmpstr (str_at (init, "result.agentInfo.name"), ==, "fake-agent");

  peer_send (peer, NEW_SESSION (1));
  peer_send (peer, NEW_SESSION (2));
  new1 = peer_read_message (peer);
  new2 = peer_read_message (peer);
  g_assert_cmpint (int_at (new1, "id"), ==, 1);
  g_assert_cmpstr (str_at (new1, "result.sessionId"), ==, "fake-session-1");
  g_assert_cmpstr (str_at (new2, "result.sessionId"), ==, "fake-session-2");

  /* ${session_id} follows the request's sessionId */
  peer_send (peer, PROMPT (3, "fake-session-1"));
  for (;;)
    {
      g_autoptr(JsonNode) message = peer_read_message (peer);

      if (at (message, "id"))
        {
          g_assert_cmpint (int_at (message, "id"), ==, 3);
          g_assert_cmpstr (str_at (message, "result.stopReason"), ==, "end_turn");
          break;
        }
      g_assert_cmpstr (str_at (message, "method"), ==, "session/update");
      g_assert_cmpstr (str_at (message, "params.sessionId"), ==, "fake-session-1");
      updates++;
    }
  g_assert_cmpuint (updates, ==, 5);

  /* ${params.value} */
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/set_config_option\","
                   "\"params\":{\"sessionId\":\"fake-session-1\",\"configId\":\"model\","
                   "\"value\":\"smart\"}}");
  config = peer_read_message (peer);
  options = at (config, "result.configOptions");
  g_assert_nonnull (options);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (options));
  g_assert_cmpstr (str_at (json_array_get_element (json_node_get_array (options), 0),
                           "currentValue"), ==, "smart");

  /* calls: the second call takes the second entry */
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/list\",\"params\":{}}");
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"session/list\","
                   "\"params\":{\"cursor\":\"page-2\"}}");
  page1 = peer_read_message (peer);
  page2 = peer_read_message (peer);
  g_assert_cmpstr (str_at (page1, "result.nextCursor"), ==, "page-2");
  g_assert_null (at (page2, "result.nextCursor"));

  /* what a real agent says to a confused client */
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"no/such_method\"}");
  unknown = peer_read_message (peer);
  g_assert_cmpint (int_at (unknown, "id"), ==, 7);
  g_assert_cmpint (int_at (unknown, "error.code"), ==, -32601);

  peer_send (peer, "this is {not json");
  garbage = peer_read_message (peer);
  g_assert_true (JSON_NODE_HOLDS_NULL (at (garbage, "id")));
  g_assert_cmpint (int_at (garbage, "error.code"), ==, -32700);

  peer_send (peer, "[1, 2]");
  not_object = peer_read_message (peer);
  g_assert_cmpint (int_at (not_object, "error.code"), ==, -32600);

  /* a notification gets no answer; end of stdin ends the agent with 0 */
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\","
                   "\"params\":{\"sessionId\":\"fake-session-1\"}}");
  peer_close_stdin (peer);
  g_assert_null (peer_read_line (peer));
  peer_assert_exit (peer, 0);
}

static void
start_permission_turn (Peer       *peer,
                       JsonNode  **request_out)
{
  g_autoptr(JsonNode) session = NULL;
  g_autoptr(JsonNode) chunk = NULL;
  JsonNode *request;

  peer_send (peer, NEW_SESSION (1));
  session = peer_read_message (peer);
  g_assert_cmpstr (str_at (session, "result.sessionId"), ==, "fake-session-1");

  peer_send (peer, PROMPT (2, "fake-session-1"));
  chunk = peer_read_message (peer);
  g_assert_cmpstr (str_at (chunk, "params.update.sessionUpdate"), ==, "agent_message_chunk");

  request = peer_read_message (peer);
  g_assert_cmpstr (str_at (request, "method"), ==, "session/request_permission");
  g_assert_cmpstr (str_at (request, "params.sessionId"), ==, "fake-session-1");
  g_assert_cmpstr (str_at (request, "params.toolCall.toolCallId"), ==, "call-1");
  *request_out = request;
}

static void
test_request_expect (void)
{
  g_autoptr(Peer) peer = peer_start ("permission.json", NULL);
  g_autoptr(JsonNode) request = NULL;
  g_autoptr(JsonNode) update = NULL;
  g_autoptr(JsonNode) result = NULL;

  start_permission_turn (peer, &request);
  g_assert_cmpint (int_at (request, "id"), ==, 0);

  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":"
                   "{\"outcome\":\"selected\",\"optionId\":\"allow_once\"}}}");
  update = peer_read_message (peer);
  g_assert_cmpstr (str_at (update, "params.update.sessionUpdate"), ==, "tool_call_update");
  g_assert_cmpstr (str_at (update, "params.update.status"), ==, "completed");
  result = peer_read_message (peer);
  g_assert_cmpint (int_at (result, "id"), ==, 2);
  g_assert_cmpstr (str_at (result, "result.stopReason"), ==, "end_turn");

  peer_close_stdin (peer);
  peer_assert_exit (peer, 0);
}

static void
test_request_expect_failure (void)
{
  g_autoptr(Peer) peer = peer_start ("permission.json", NULL);
  g_autoptr(JsonNode) request = NULL;
  g_autofree char *err_text = NULL;

  start_permission_turn (peer, &request);
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":"
                   "{\"outcome\":\"cancelled\"}}}");

  /* the turn never ends: the agent reports the mismatch and exits 3 */
  g_assert_null (peer_read_line (peer));
  peer_assert_exit (peer, 3);
  err_text = peer_read_stderr (peer);
  g_assert_nonnull (strstr (err_text, "does not match at result.outcome.outcome"));
  g_assert_nonnull (strstr (err_text, "\"cancelled\""));
}

static void
test_string_ids (void)
{
  g_autoptr(Peer) peer = peer_start ("string-ids.json", NULL);
  g_autoptr(JsonNode) request = NULL;
  g_autoptr(JsonNode) update = NULL;
  g_autoptr(JsonNode) result = NULL;

  start_permission_turn (peer, &request);
  g_assert_cmpstr (str_at (request, "id"), ==, "r0");

  /* an integer 0 is not "r0": ignored, the turn goes on waiting */
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":"
                   "{\"outcome\":\"cancelled\"}}}");
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":\"r0\",\"result\":{\"outcome\":"
                   "{\"outcome\":\"selected\",\"optionId\":\"reject_once\"}}}");
  update = peer_read_message (peer);
  g_assert_cmpstr (str_at (update, "params.update.sessionUpdate"), ==, "tool_call_update");
  result = peer_read_message (peer);
  g_assert_cmpstr (str_at (result, "result.stopReason"), ==, "end_turn");

  peer_close_stdin (peer);
  peer_assert_exit (peer, 0);
}

static void
test_wait_notification (void)
{
  g_autoptr(Peer) peer = peer_start ("cancel.json", NULL);
  g_autoptr(JsonNode) session = NULL;
  g_autoptr(JsonNode) request = NULL;
  g_autoptr(JsonNode) result = NULL;

  peer_send (peer, NEW_SESSION (1));
  session = peer_read_message (peer);
  peer_send (peer, PROMPT (2, "fake-session-1"));
  request = peer_read_message (peer);
  g_assert_cmpstr (str_at (request, "method"), ==, "session/request_permission");

  /* the cancel arrives while the script still waits for the response:
   * it must count for the wait_notification step that follows */
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\","
                   "\"params\":{\"sessionId\":\"fake-session-1\"}}");
  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":"
                   "{\"outcome\":\"cancelled\"}}}");
  result = peer_read_message (peer);
  g_assert_cmpint (int_at (result, "id"), ==, 2);
  g_assert_cmpstr (str_at (result, "result.stopReason"), ==, "cancelled");

  peer_close_stdin (peer);
  peer_assert_exit (peer, 0);
}

static void
test_exit_on_start (void)
{
  g_autofree char *record = g_build_filename (g_get_tmp_dir (), "fake-agent-empty-record", NULL);
  g_autofree char *record_arg = g_strconcat ("--record=", record, NULL);
  g_autoptr(Peer) peer = NULL;
  g_autofree char *err_text = NULL;
  g_autofree char *recorded = NULL;
  g_autoptr(GError) error = NULL;

  g_unlink (record);
  peer = peer_start ("exit-on-start.json", record_arg, NULL);
  g_assert_null (peer_read_line (peer));
  peer_assert_exit (peer, 7);
  err_text = peer_read_stderr (peer);
  g_assert_cmpstr (err_text, ==, "fatal: cannot find config\n");

  /* the record file exists and is empty: nothing was read */
  g_file_get_contents (record, &recorded, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (recorded, ==, "");
  g_unlink (record);
}

static void
test_updates (void)
{
  g_autoptr(Peer) peer = peer_start ("replay-10k.json", NULL);
  g_autoptr(JsonNode) result = NULL;
  guint count = 0;

  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session/load\","
                   "\"params\":{\"sessionId\":\"old-1\",\"cwd\":\"/tmp\",\"mcpServers\":[]}}");
  for (;;)
    {
      g_autofree char *line = peer_read_line (peer);

      g_assert_nonnull (line);
      if (!g_str_has_prefix (line, "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\""))
        {
          result = parse (line);
          break;
        }
      /* spot checks of the templating: the 10th update (i = 9) is the
       * tool_call_update of the second turn */
      if (count == 0 || count == 9)
        {
          g_autoptr(JsonNode) update = parse (line);

          g_assert_cmpstr (str_at (update, "params.sessionId"), ==, "old-1");
          if (count == 9)
            {
              g_assert_cmpstr (str_at (update, "params.update.sessionUpdate"), ==,
                               "tool_call_update");
              g_assert_cmpstr (str_at (update, "params.update.toolCallId"), ==, "call-1");
              g_assert_nonnull (strstr (line, "(update 9)"));
            }
        }
      count++;
    }
  g_assert_cmpuint (count, ==, 10000);
  g_assert_cmpint (int_at (result, "id"), ==, 0);
  g_assert_true (JSON_NODE_HOLDS_NULL (at (result, "result")));

  peer_close_stdin (peer);
  peer_assert_exit (peer, 0);
}

static void
test_repeat (void)
{
  g_autoptr(Peer) peer = peer_start ("huge-line.json", NULL);
  g_autoptr(JsonNode) update = NULL;
  g_autoptr(JsonNode) result = NULL;
  const char *text;
  gsize len;

  peer_send (peer, PROMPT (1, "s-1"));
  update = peer_read_message (peer);
  text = str_at (update, "params.update.content.text");
  g_assert_nonnull (text);
  len = strlen (text);
  g_assert_cmpuint (len, ==, 8388608);
  for (gsize i = 0; i < len; i++)
    if (text[i] != 'x')
      g_error ("byte %" G_GSIZE_FORMAT " of the repeated text is not 'x'", i);

  result = peer_read_message (peer);
  g_assert_cmpstr (str_at (result, "result.stopReason"), ==, "end_turn");
  peer_close_stdin (peer);
  peer_assert_exit (peer, 0);
}

static void
test_record (void)
{
  g_autofree char *record = g_build_filename (g_get_tmp_dir (), "fake-agent-record", NULL);
  g_autoptr(Peer) peer = NULL;
  g_autoptr(JsonNode) init = NULL;
  g_autoptr(JsonNode) garbage = NULL;
  g_autofree char *recorded = NULL;
  g_autoptr(GError) error = NULL;
  const char *odd = "  {\"id\" : 0, \"jsonrpc\":\"2.0\",  \"method\":\"initialize\"}  ";

  g_unlink (record);
  peer = peer_start ("basic.json", "--record", record, NULL);
  peer_send (peer, odd);
  init = peer_read_message (peer);
  g_assert_cmpint (int_at (init, "result.protocolVersion"), ==, 1);
  peer_send (peer, "not json");
  garbage = peer_read_message (peer);
  g_assert_cmpint (int_at (garbage, "error.code"), ==, -32700);
  peer_send (peer, "");
  peer_close_stdin (peer);
  peer_assert_exit (peer, 0);

  /* byte for byte what was sent, blank line included */
  g_file_get_contents (record, &recorded, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (recorded, ==, "  {\"id\" : 0, \"jsonrpc\":\"2.0\",  \"method\":\"initialize\"}  \n"
                                 "not json\n"
                                 "\n");
  g_unlink (record);
}

#define SURVIVOR_SCENARIO(ignore_eof, sleep_ms) \
  "{\"ignore_eof\":" ignore_eof ",\"ignore_sigterm\":true,\"handlers\":{" \
  "\"initialize\":[{\"op\":\"result\",\"result\":{\"protocolVersion\":1}}]," \
  "\"session/prompt\":[{\"op\":\"sleep\",\"ms\":" sleep_ms "}," \
  "{\"op\":\"result\",\"result\":{\"stopReason\":\"end_turn\"}}]}}"

static void
test_ignore_eof_and_sigterm (void)
{
  g_autofree char *survivor = write_temp_scenario (SURVIVOR_SCENARIO ("true", "20"));
  g_autofree char *quitter = write_temp_scenario (SURVIVOR_SCENARIO ("false", "5000"));
  g_autoptr(Peer) peer = NULL;
  g_autoptr(Peer) control = NULL;
  g_autoptr(JsonNode) init = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(JsonNode) result = NULL;

  peer = peer_start (survivor, NULL);

  /* a first answer means the SIGTERM handler is in place; the signal is
   * then pending before the second request is written, so an answer to
   * that one proves SIGTERM was ignored */
  peer_send (peer, INITIALIZE);
  init = peer_read_message (peer);
  g_assert_cmpint (int_at (init, "result.protocolVersion"), ==, 1);
  g_subprocess_send_signal (peer->process, SIGTERM);
  peer_send (peer, INITIALIZE);
  again = peer_read_message (peer);
  g_assert_cmpint (int_at (again, "result.protocolVersion"), ==, 1);

  /* the prompt's answer comes after stdin closed */
  peer_send (peer, PROMPT (1, "s-1"));
  peer_close_stdin (peer);
  result = peer_read_message (peer);
  g_assert_cmpstr (str_at (result, "result.stopReason"), ==, "end_turn");

  g_subprocess_send_signal (peer->process, SIGKILL);
  peer_wait (peer);
  g_assert_true (g_subprocess_get_if_signaled (peer->process));
  g_assert_cmpint (g_subprocess_get_term_sig (peer->process), ==, SIGKILL);

  /* without ignore_eof the same prompt dies unanswered with status 0 */
  control = peer_start (quitter, NULL);
  peer_send (control, PROMPT (1, "s-1"));
  peer_close_stdin (control);
  g_assert_null (peer_read_line (control));
  peer_assert_exit (control, 0);

  g_unlink (survivor);
  g_unlink (quitter);
}

/* ${fork_session_id}: a new id made from the forked session's, counted */
static void
test_fork_ids (void)
{
  g_autoptr(Peer) peer = peer_start ("fork.json", NULL);
  g_autoptr(JsonNode) init = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(JsonNode) fork1 = NULL;
  g_autoptr(JsonNode) fork2 = NULL;

  peer_send (peer, INITIALIZE);
  init = peer_read_message (peer);
  g_assert_nonnull (at (init, "result.agentCapabilities.sessionCapabilities.fork"));

  peer_send (peer, NEW_SESSION (1));
  created = peer_read_message (peer);
  g_assert_cmpstr (str_at (created, "result.sessionId"), ==, "fake-session-1");

  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/fork\","
                   "\"params\":{\"sessionId\":\"fake-session-1\",\"cwd\":\"/tmp\"}}");
  fork1 = peer_read_message (peer);
  g_assert_cmpint (int_at (fork1, "id"), ==, 2);
  g_assert_cmpstr (str_at (fork1, "result.sessionId"), ==, "fake-session-1-fork-1");

  peer_send (peer, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/fork\","
                   "\"params\":{\"sessionId\":\"fake-session-1-fork-1\",\"cwd\":\"/tmp\"}}");
  fork2 = peer_read_message (peer);
  g_assert_cmpstr (str_at (fork2, "result.sessionId"), ==, "fake-session-1-fork-1-fork-2");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fake-agent/scenarios-valid", test_scenarios_valid);
  g_test_add_func ("/fake-agent/handshake", test_handshake);
  g_test_add_func ("/fake-agent/fork-ids", test_fork_ids);
  g_test_add_func ("/fake-agent/request-expect", test_request_expect);
  g_test_add_func ("/fake-agent/request-expect-failure", test_request_expect_failure);
  g_test_add_func ("/fake-agent/string-ids", test_string_ids);
  g_test_add_func ("/fake-agent/wait-notification", test_wait_notification);
  g_test_add_func ("/fake-agent/exit-on-start", test_exit_on_start);
  g_test_add_func ("/fake-agent/updates", test_updates);
  g_test_add_func ("/fake-agent/repeat", test_repeat);
  g_test_add_func ("/fake-agent/record", test_record);
  g_test_add_func ("/fake-agent/ignore-eof-and-sigterm", test_ignore_eof_and_sigterm);

  return g_test_run ();
}
