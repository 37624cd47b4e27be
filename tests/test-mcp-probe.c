/* test-mcp-probe.c: the MCP connection test against a scripted stdio server
 * and in-process loopback HTTP servers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "pal-error.h"
#include "pal-mcp-probe.h"
#include "pal-mcp-probe-private.h"
#include "test-util.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static PalMcpProbeResult *
wait_result (GAsyncResult **slot,
             GError       **error)
{
  g_autoptr(GAsyncResult) result = WAIT_RESULT (slot);

  return pal_mcp_probe_finish (result, error);
}

/* The limit of a probe, in the tests of it: it passes when the test says,
 * once what comes before (the server started, the request arrived) has
 * happened, however long a busy machine took for that. */
static gboolean limit_passed;

static gboolean
limit_prepare (GSource *source,
               gint    *timeout)
{
  *timeout = -1;
  return limit_passed;
}

static gboolean
limit_check (GSource *source)
{
  return limit_passed;
}

static gboolean
limit_dispatch (GSource     *source,
                GSourceFunc  callback,
                gpointer     user_data)
{
  return callback (user_data);
}

static GSourceFuncs limit_funcs = { limit_prepare, limit_check, limit_dispatch, NULL, NULL, NULL };

static GSource *
limit_new (guint timeout_ms)
{
  return g_source_new (&limit_funcs, sizeof (GSource));
}

/* Probes started from now on end at pass_limit (), not after their time. */
static void
use_test_limit (void)
{
  limit_passed = FALSE;
  _pal_mcp_probe_set_timer_func (limit_new);
}

static void
pass_limit (void)
{
  limit_passed = TRUE;
  _pal_mcp_probe_set_timer_func (NULL);
}

static void
assert_strv (const char * const *got,
             const char * const *want)
{
  g_autofree char *got_joined = g_strjoinv ("|", (char **) got);
  g_autofree char *want_joined = g_strjoinv ("|", (char **) want);

  g_assert_cmpstr (got_joined, ==, want_joined);
}

static const char *
fake_server (void)
{
  const char *path = g_getenv ("PALAVER_FAKE_MCP_SERVER");

  g_assert_nonnull (path);
  return path;
}

static gboolean
process_gone (GPid pid)
{
  return kill (pid, 0) != 0 && errno == ESRCH;
}

/* The pid the fake server wrote into @pid_file, 0 while it has not */
static GPid
written_pid (const char *pid_file)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (pid_file, &text, NULL, NULL) || *text == '\0')
    return 0;

  return (GPid) g_ascii_strtoll (text, NULL, 10);
}

/* Waits until the fake server wrote its pid and returns it. */
static GPid
wait_for_pid (const char *pid_file)
{
  POLL_UNTIL (written_pid (pid_file) != 0);

  return written_pid (pid_file);
}

typedef struct
{
  char *dir;
  char *pid_file;
  char *pid_env;
} PidFile;

static void
pid_file_init (PidFile *p)
{
  p->dir = test_make_tmpdir ("mcp-probe");
  p->pid_file = g_build_filename (p->dir, "pid", NULL);
  p->pid_env = g_strdup_printf ("FAKE_MCP_PID_FILE=%s", p->pid_file);
}

static void
pid_file_clear (PidFile *p)
{
  g_free (p->dir);
  g_free (p->pid_file);
  g_free (p->pid_env);
}

/* ------------------------------------------------------------------------ */
/* stdio                                                                     */

static PalMcpProbeResult *
probe_stdio (const char   *mode,
             const char   *extra_arg,
             const char  **env,
             guint         timeout_ms,
             GError      **error)
{
  const char *argv[] = { fake_server (), mode, extra_arg, NULL };
  GAsyncResult *result = NULL;

  pal_mcp_probe_stdio_async (argv, env, timeout_ms, NULL, test_store_result_cb, &result);

  return wait_result (&result, error);
}

static void
test_stdio_normal (void)
{
  PidFile pid;
  const char *env[3];
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *names[] = { "alpha", "beta", NULL };
  const char *descriptions[] = { "The first tool", "", NULL };
  GPid server_pid;

  pid_file_init (&pid);
  env[0] = "FAKE_MCP_SERVER_VERSION=9.8.7";
  env[1] = pid.pid_env;
  env[2] = NULL;

  result = probe_stdio ("normal", NULL, env, 10000, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);

  g_assert_cmpstr (pal_mcp_probe_result_get_server_name (result), ==, "fake-mcp-server");
  g_assert_null (pal_mcp_probe_result_get_server_title (result));
  /* The environment additions reached the server. */
  g_assert_cmpstr (pal_mcp_probe_result_get_server_version (result), ==, "9.8.7");
  g_assert_cmpstr (pal_mcp_probe_result_get_protocol_version (result), ==, "2025-06-18");
  /* Both pages, in order; the fake refuses tools/list before the
   * initialized notification, so its order was right too. */
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
  assert_strv (pal_mcp_probe_result_get_tool_names (result), names);
  assert_strv (pal_mcp_probe_result_get_tool_descriptions (result), descriptions);

  /* The server does not outlive the test. */
  server_pid = wait_for_pid (pid.pid_file);
  POLL_UNTIL (process_gone (server_pid));
  pid_file_clear (&pid);
}

static void
test_stdio_other_protocol_version (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_stdio ("normal", "--protocol-version=2024-11-05", NULL, 10000, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pal_mcp_probe_result_get_protocol_version (result), ==, "2024-11-05");
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
}

static void
test_stdio_crlf (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_stdio ("crlf", NULL, NULL, 10000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
}

static void
test_stdio_garbage (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  /* Log lines, broken JSON, a JSON log record and a response to a request
   * never sent come first: all skipped. */
  result = probe_stdio ("garbage", NULL, NULL, 10000, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pal_mcp_probe_result_get_server_name (result), ==, "fake-mcp-server");
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
}

static void
test_stdio_garbage_forever (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_stdio ("garbage-forever", NULL, NULL, 10000, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "“log line 0”"));
}

static void
test_stdio_exit_early (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_stdio ("exit-early", NULL, NULL, 10000, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "exited with status 4"));
  /* The whole error output, in order. */
  g_assert_nonnull (strstr (error->message,
                            "fake-mcp-server: starting\n"
                            "fake-mcp-server: cannot start: the configuration file is missing"));
}

/* Starts a probe of the fake server in @mode that ends at pass_limit ();
 * returns once the server runs (its pid, written to @pid). */
static GPid
start_stdio_with_test_limit (const char    *mode,
                             PidFile       *pid,
                             guint          timeout_ms,
                             GAsyncResult **result)
{
  const char *argv[] = { fake_server (), mode, NULL };
  const char *env[] = { pid->pid_env, NULL };

  use_test_limit ();
  pal_mcp_probe_stdio_async (argv, env, timeout_ms, NULL, test_store_result_cb, result);

  return wait_for_pid (pid->pid_file);
}

static void
test_stdio_timeout (void)
{
  PidFile pid;
  GAsyncResult *async_result = NULL;
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPid server_pid;

  pid_file_init (&pid);
  server_pid = start_stdio_with_test_limit ("hang", &pid, 300, &async_result);

  /* It waits for the limit: the server runs and does not answer (all that
   * is pending handled; the limit passes only when the test says)... */
  test_drain_main_context ();
  g_assert_null (async_result);
  g_assert_false (process_gone (server_pid));

  /* ...until the limit */
  pass_limit ();
  result = wait_result (&async_result, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "did not answer within 1 second"));

  POLL_UNTIL (process_gone (server_pid));
  pid_file_clear (&pid);
}

static void
test_stdio_stubborn_server_is_killed (void)
{
  PidFile pid;
  GAsyncResult *async_result = NULL;
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPid server_pid;

  /* It ignores SIGTERM and the end of its input (from before it writes its
   * pid): SIGKILL must follow. */
  pid_file_init (&pid);
  server_pid = start_stdio_with_test_limit ("hang-stubborn", &pid, 200, &async_result);
  pass_limit ();
  result = wait_result (&async_result, &error);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_TIMEOUT);

  POLL_UNTIL (process_gone (server_pid));
  pid_file_clear (&pid);
}

static void
test_stdio_error_answer (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_stdio ("error", NULL, NULL, 10000, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "“initialize”"));
  g_assert_nonnull (strstr (error->message, "fake failure: no credentials configured"));
  g_assert_nonnull (strstr (error->message, "-32603"));
}

static void
test_stdio_server_requests (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  /* The fake asks ping and roots/list before answering initialize and fails
   * initialize unless we answered {} and -32601. */
  result = probe_stdio ("ping", NULL, NULL, 10000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
}

static void
test_stdio_requests_while_listing (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  /* While tools/list waits for its answer, the fake asks ping (id 0) and
   * elicitation/create, and answers the list only if the connection
   * answered both: {} for the one, and for the other its -32601 that names
   * the method. */
  result = probe_stdio ("ask-while-listing", NULL, NULL, 10000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
}

static void
test_stdio_no_tools (void)
{
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_stdio ("no-tools", NULL, NULL, 10000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 0);
  g_assert_nonnull (pal_mcp_probe_result_get_tool_names (result));
  g_assert_null (pal_mcp_probe_result_get_tool_names (result)[0]);
}

static void
test_stdio_not_found (void)
{
  const char *in_path[] = { "palaver-no-such-command-4242", "stdio", NULL };
  const char *absolute[] = { "/nonexistent-palaver-dir/server", NULL };
  GAsyncResult *async_result = NULL;
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_mcp_probe_stdio_async (in_path, NULL, 10000, NULL, test_store_result_cb, &async_result);
  result = wait_result (&async_result, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "“palaver-no-such-command-4242”"));
  g_assert_nonnull (strstr (error->message, "PATH"));
  g_clear_error (&error);

  pal_mcp_probe_stdio_async (absolute, NULL, 10000, NULL, test_store_result_cb, &async_result);
  result = wait_result (&async_result, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "“/nonexistent-palaver-dir/server”"));
}

static void
test_stdio_invalid_arguments (void)
{
  const char *empty[] = { "", NULL };
  const char *argv[] = { "true", NULL };
  const char *bad_env[] = { "NOEQUALS", NULL };
  const char *empty_name[] = { "=value", NULL };
  GAsyncResult *async_result = NULL;
  g_autoptr(GError) error = NULL;

  pal_mcp_probe_stdio_async (empty, NULL, 0, NULL, test_store_result_cb, &async_result);
  g_assert_null (wait_result (&async_result, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_clear_error (&error);

  pal_mcp_probe_stdio_async (argv, bad_env, 0, NULL, test_store_result_cb, &async_result);
  g_assert_null (wait_result (&async_result, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "“NOEQUALS”"));
  g_clear_error (&error);

  pal_mcp_probe_stdio_async (argv, empty_name, 0, NULL, test_store_result_cb, &async_result);
  g_assert_null (wait_result (&async_result, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_stdio_cancel (void)
{
  PidFile pid;
  const char *env[2];
  const char *argv[] = { fake_server (), "hang", NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GAsyncResult *async_result = NULL;
  g_autoptr(GError) error = NULL;
  GPid server_pid;

  pid_file_init (&pid);
  env[0] = pid.pid_env;
  env[1] = NULL;

  pal_mcp_probe_stdio_async (argv, env, 20000, cancellable, test_store_result_cb, &async_result);
  /* Cancel while the server is running and initialize is unanswered. */
  server_pid = wait_for_pid (pid.pid_file);
  g_assert_null (async_result);
  g_idle_add (cancel_cb, cancellable);

  g_assert_null (wait_result (&async_result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  POLL_UNTIL (process_gone (server_pid));
  pid_file_clear (&pid);
}

static void
test_stdio_cancelled_before (void)
{
  const char *argv[] = { fake_server (), "normal", NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GAsyncResult *async_result = NULL;
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  pal_mcp_probe_stdio_async (argv, NULL, 0, cancellable, test_store_result_cb, &async_result);
  /* Never synchronously. */
  g_assert_null (async_result);
  g_assert_null (wait_result (&async_result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ------------------------------------------------------------------------ */
/* A loopback MCP server over HTTP                                            */

typedef enum
{
  ANSWER_JSON,
  ANSWER_EVENTS,
} AnswerMode;

typedef struct
{
  SoupServer        *server;
  GSocketService    *service;          /* accepts the connections for the server */
  GTlsCertificate   *certificate;      /* https with it, or NULL */
  GPtrArray         *connections;      /* GSocketConnection, every one accepted */
  char              *base;
  AnswerMode         mode;
  char              *session_id;
  const char        *required_token;   /* the Authorization header it wants, or NULL */
  guint              n_requests;
  guint              n_deletes;
  gboolean           deleted_right_session;
  gboolean           got_initialized;
  gboolean           got_ping_answer;
  guint              n_later_requests;  /* after initialize, with a method */
  gboolean           version_missing;   /* one of them lacked MCP-Protocol-Version */
  GPtrArray         *held;             /* paused messages never answered */
  GPtrArray         *open_streams;     /* event streams left open */
  GCancellable      *cancel_on_request;
  /* legacy SSE */
  SoupServerMessage *event_source;
  const char        *endpoint;
  gboolean           legacy_answer_json_get;
} TestServer;

#define NO_SESSION_BODY \
  "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000," \
  "\"message\":\"Bad Request: No valid session ID provided\"},\"id\":null}"

static char *
tool_page (const char *cursor)
{
  if (cursor == NULL)
    return g_strdup ("{\"tools\":[{\"name\":\"alpha\",\"description\":\"First\","
                     "\"inputSchema\":{\"type\":\"object\"}}],\"nextCursor\":\"p2\"}");

  if (g_str_equal (cursor, "p2"))
    return g_strdup ("{\"tools\":[{\"name\":\"beta\",\"inputSchema\":{\"type\":\"object\"}},"
                     "{\"name\":\"gamma\",\"description\":\"Third\",\"inputSchema\":{}}],"
                     "\"nextCursor\":null}");

  return NULL;
}

/* The JSON-RPC answer for a request (NULL for anything that is not one). */
static char *
answer_request (TestServer *ts,
                JsonObject *request)
{
  JsonNode *id = json_object_get_member (request, "id");
  const char *method = json_object_get_string_member_with_default (request, "method", "");
  JsonObject *params = NULL;
  g_autofree char *id_text = NULL;
  g_autofree char *page = NULL;

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return NULL;

  id_text = json_to_string (id, FALSE);
  if (json_object_has_member (request, "params") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (request, "params")))
    params = json_object_get_object_member (request, "params");

  if (g_str_equal (method, "initialize"))
    return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{"
                            "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                            "\"serverInfo\":{\"name\":\"loopback\",\"title\":\"Loopback Server\","
                            "\"version\":\"0.0.1\"}}}", id_text);

  if (g_str_equal (method, "tools/list"))
    {
      const char *cursor = params != NULL ?
        json_object_get_string_member_with_default (params, "cursor", NULL) : NULL;

      page = tool_page (cursor);
      if (page != NULL && ts->got_initialized)
        return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}", id_text, page);
    }

  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,"
                          "\"message\":\"Method not found\"}}", id_text);
}

static void
append_text (SoupServerMessage *message,
             const char        *text)
{
  soup_message_body_append (soup_server_message_get_response_body (message),
                            SOUP_MEMORY_COPY, text, strlen (text));
}

static void
start_event_stream (SoupServerMessage *message)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);

  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
}

static JsonObject *
parse_request_body (SoupServerMessage *message)
{
  SoupMessageBody *body = soup_server_message_get_request_body (message);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);

  if (!json_parser_load_from_data (parser, data, size, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
set_json (SoupServerMessage *message,
          guint              status,
          const char        *json)
{
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY,
                                    json, strlen (json));
}

static void
streamable_handler (SoupServer        *server,
                    SoupServerMessage *message,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  TestServer *ts = user_data;
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (message);
  const char *method = soup_server_message_get_method (message);
  const char *session = soup_message_headers_get_one (request_headers, "Mcp-Session-Id");
  const char *version = soup_message_headers_get_one (request_headers, "MCP-Protocol-Version");
  const char *accept = soup_message_headers_get_one (request_headers, "Accept");
  g_autoptr(JsonObject) request = NULL;
  g_autofree char *answer = NULL;
  const char *rpc_method;

  if (g_str_equal (method, "DELETE"))
    {
      ts->n_deletes++;
      ts->deleted_right_session = g_strcmp0 (session, ts->session_id) == 0;
      soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
      return;
    }

  if (!g_str_equal (method, "POST"))
    {
      soup_server_message_set_status (message, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  if (ts->required_token != NULL &&
      g_strcmp0 (soup_message_headers_get_one (request_headers, "Authorization"),
                 ts->required_token) != 0)
    {
      set_json (message, SOUP_STATUS_UNAUTHORIZED, "{\"error\":\"invalid_token\"}");
      return;
    }

  request = parse_request_body (message);
  if (request == NULL ||
      accept == NULL || strstr (accept, "application/json") == NULL ||
      strstr (accept, "text/event-stream") == NULL ||
      !soup_message_headers_header_equals (request_headers, "Content-Type", "application/json"))
    {
      set_json (message, SOUP_STATUS_BAD_REQUEST,
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,"
                "\"message\":\"Bad request body or headers\"},\"id\":null}");
      return;
    }

  rpc_method = json_object_get_string_member_with_default (request, "method", NULL);
  ts->n_requests++;

  if (g_strcmp0 (rpc_method, "initialize") == 0)
    {
      if (session != NULL)
        {
          set_json (message, SOUP_STATUS_BAD_REQUEST,
                    "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,"
                    "\"message\":\"Already initialized\"},\"id\":null}");
          return;
        }
      g_free (ts->session_id);
      ts->session_id = g_strdup_printf ("session-%u", g_random_int ());
      soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                    "Mcp-Session-Id", ts->session_id);
    }
  else if (g_strcmp0 (session, ts->session_id) != 0)
    {
      /* What the reference servers answer when the session is missing. */
      set_json (message, SOUP_STATUS_BAD_REQUEST,
                NO_SESSION_BODY);
      return;
    }

  if (rpc_method == NULL)
    {
      /* An answer from the client to our ping. */
      const char *id = json_object_get_string_member_with_default (request, "id", "");

      if (g_str_equal (id, "srv-ping") &&
          json_object_has_member (request, "result"))
        ts->got_ping_answer = TRUE;
      soup_server_message_set_status (message, SOUP_STATUS_ACCEPTED, NULL);
      return;
    }

  if (!g_str_equal (rpc_method, "initialize"))
    {
      ts->n_later_requests++;
      if (g_strcmp0 (version, "2025-06-18") != 0)
        ts->version_missing = TRUE;
    }

  if (!json_object_has_member (request, "id"))
    {
      if (g_str_equal (rpc_method, "notifications/initialized"))
        ts->got_initialized = TRUE;
      soup_server_message_set_status (message, SOUP_STATUS_ACCEPTED, NULL);
      return;
    }

  if (ts->cancel_on_request != NULL)
    {
      soup_server_message_pause (message);
      g_ptr_array_add (ts->held, g_object_ref (message));
      g_idle_add (cancel_cb, ts->cancel_on_request);
      return;
    }

  answer = answer_request (ts, request);

  if (ts->mode == ANSWER_JSON)
    {
      set_json (message, SOUP_STATUS_OK, answer);
      return;
    }

  /* An event stream: a comment, a notification, (for initialize) a request
   * to the client, then the answer split over two data lines with CRLF line
   * endings; the stream stays open, as servers may keep it. */
  start_event_stream (message);
  append_text (message, ": stream start\r\n\r\n");
  append_text (message, "event: message\r\nid: 1\r\n"
                        "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                        "\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\r\n\r\n");
  if (g_str_equal (rpc_method, "initialize"))
    append_text (message,
                 "data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-ping\",\"method\":\"ping\"}\n\n");
  {
    const char *comma = strchr (answer, ',');
    g_autofree char *first = g_strndup (answer, comma - answer + 1);
    g_autofree char *event = g_strdup_printf ("id: 2\r\ndata: %s\r\ndata: %s\r\n\r\n",
                                              first, comma + 1);

    append_text (message, event);
  }
  g_ptr_array_add (ts->open_streams, g_object_ref (message));
}

static void
garbage_handler (SoupServer        *server,
                 SoupServerMessage *message,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  if (g_str_equal (path, "/garbage"))
    set_json (message, SOUP_STATUS_OK, "this is not JSON at all");
  else if (g_str_equal (path, "/not-jsonrpc"))
    set_json (message, SOUP_STATUS_OK, "{\"hello\":\"world\"}");
  else if (g_str_equal (path, "/html"))
    {
      soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (message, "text/html", SOUP_MEMORY_STATIC,
                                        "<html></html>", 13);
    }
  else if (g_str_equal (path, "/bad-request"))
    set_json (message, SOUP_STATUS_BAD_REQUEST,
              NO_SESSION_BODY);
  else if (g_str_equal (path, "/get-only"))
    soup_server_message_set_status (message, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
  else if (g_str_equal (path, "/accepted"))
    soup_server_message_set_status (message, SOUP_STATUS_ACCEPTED, NULL);
  else
    soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
}

static void
hang_handler (SoupServer        *server,
              SoupServerMessage *message,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  TestServer *ts = user_data;

  soup_server_message_pause (message);
  g_ptr_array_add (ts->held, g_object_ref (message));
  if (ts->cancel_on_request != NULL)
    g_idle_add (cancel_cb, ts->cancel_on_request);
}

/* legacy SSE: GET /sse announces /messages?session=abc */
static void
sse_handler (SoupServer        *server,
             SoupServerMessage *message,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  TestServer *ts = user_data;
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (message);
  g_autofree char *endpoint_event = NULL;

  if (!g_str_equal (soup_server_message_get_method (message), "GET") ||
      !soup_message_headers_header_contains (request_headers, "Accept", "text/event-stream"))
    {
      soup_server_message_set_status (message, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  if (ts->legacy_answer_json_get)
    {
      set_json (message, SOUP_STATUS_OK, "{}");
      return;
    }

  g_assert_null (ts->event_source);
  ts->event_source = g_object_ref (message);
  start_event_stream (message);
  append_text (message, ":ok\n\n");
  endpoint_event = g_strdup_printf ("event: endpoint\ndata: %s\n\n", ts->endpoint);
  append_text (message, endpoint_event);
}

static void
messages_handler (SoupServer        *server,
                  SoupServerMessage *message,
                  const char        *path,
                  GHashTable        *query,
                  gpointer           user_data)
{
  TestServer *ts = user_data;
  g_autoptr(JsonObject) request = NULL;
  g_autofree char *answer = NULL;
  const char *rpc_method;

  if (!g_str_equal (soup_server_message_get_method (message), "POST") ||
      query == NULL || g_strcmp0 (g_hash_table_lookup (query, "session"), "abc") != 0 ||
      ts->event_source == NULL)
    {
      soup_server_message_set_status (message, SOUP_STATUS_BAD_REQUEST, NULL);
      return;
    }

  request = parse_request_body (message);
  if (request == NULL)
    {
      soup_server_message_set_status (message, SOUP_STATUS_BAD_REQUEST, NULL);
      return;
    }

  ts->n_requests++;
  rpc_method = json_object_get_string_member_with_default (request, "method", "");
  if (g_str_equal (rpc_method, "notifications/initialized"))
    ts->got_initialized = TRUE;

  answer = answer_request (ts, request);
  if (answer != NULL)
    {
      g_autofree char *event = g_strdup_printf ("event: message\ndata: %s\n\n", answer);

      append_text (ts->event_source, event);
      soup_server_message_unpause (ts->event_source);
    }

  soup_server_message_set_status (message, SOUP_STATUS_ACCEPTED, NULL);
  soup_server_message_set_response (message, "text/plain", SOUP_MEMORY_STATIC, "Accepted", 8);
}

/* The connection @message came on. */
static GSocket *
socket_of (TestServer        *ts,
           SoupServerMessage *message)
{
  GSocketAddress *remote = soup_server_message_get_remote_address (message);
  guint16 port;

  g_assert_true (G_IS_INET_SOCKET_ADDRESS (remote));
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (remote));

  for (guint i = 0; i < ts->connections->len; i++)
    {
      GSocketConnection *connection = g_ptr_array_index (ts->connections, i);
      g_autoptr(GSocketAddress) peer = g_socket_connection_get_remote_address (connection, NULL);

      if (peer != NULL && g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (peer)) == port)
        return g_socket_connection_get_socket (connection);
    }

  g_error ("no connection from port %u", port);
}

/* Whether the other end closed @socket: it is readable with nothing left to
 * read, or hung up */
static gboolean
peer_closed (GSocket *socket)
{
  GIOCondition condition = g_socket_condition_check (socket, G_IO_IN | G_IO_HUP | G_IO_ERR);

  return (condition & (G_IO_HUP | G_IO_ERR)) != 0 ||
         ((condition & G_IO_IN) != 0 && g_socket_get_available_bytes (socket) == 0);
}

/* Waits until the client closed the connection of @message. A paused
 * message does not notice by itself, and the socket is the server's: this
 * polls. */
static void
assert_client_disconnects (TestServer        *ts,
                           SoupServerMessage *message)
{
  POLL_UNTIL (peer_closed (socket_of (ts, message)));
}

/* The test server accepts connections itself and hands them to the
 * SoupServer: the listener of libsoup 3.2 keeps a reference to every socket
 * it accepts and to its own address for good (fixed in 3.4), which
 * LeakSanitizer reports. */
static gboolean
incoming_cb (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             TestServer        *ts)
{
  g_autoptr(GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr(GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  /* a client that is already gone */
  if (local == NULL || remote == NULL)
    return TRUE;

  if (ts->certificate != NULL)
    {
      stream = G_IO_STREAM (g_tls_server_connection_new (G_IO_STREAM (connection),
                                                         ts->certificate, &error));
      g_assert_no_error (error);
    }
  else
    stream = g_object_ref (G_IO_STREAM (connection));

  g_ptr_array_add (ts->connections, g_object_ref (connection));
  g_assert_true (soup_server_accept_iostream (ts->server, stream, local, remote, &error));
  g_assert_no_error (error);
  return TRUE;
}

static TestServer *
test_server_new (GTlsCertificate *certificate)
{
  TestServer *ts = g_new0 (TestServer, 1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  ts->server = soup_server_new (NULL, NULL);
  ts->certificate = certificate != NULL ? g_object_ref (certificate) : NULL;
  ts->connections = g_ptr_array_new_with_free_func (g_object_unref);
  ts->held = g_ptr_array_new_with_free_func (g_object_unref);
  ts->open_streams = g_ptr_array_new_with_free_func (g_object_unref);
  ts->endpoint = "/messages?session=abc";

  soup_server_add_handler (ts->server, "/mcp", streamable_handler, ts, NULL);
  soup_server_add_handler (ts->server, "/hang", hang_handler, ts, NULL);
  soup_server_add_handler (ts->server, "/sse", sse_handler, ts, NULL);
  soup_server_add_handler (ts->server, "/messages", messages_handler, ts, NULL);
  soup_server_add_handler (ts->server, NULL, garbage_handler, ts, NULL);

  ts->service = g_socket_service_new ();
  g_assert_true (g_socket_listener_add_address (G_SOCKET_LISTENER (ts->service), any_port,
                                                G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                                NULL, &bound, &error));
  g_assert_no_error (error);
  g_signal_connect (ts->service, "incoming", G_CALLBACK (incoming_cb), ts);
  g_socket_service_start (ts->service);

  ts->base = g_strdup_printf ("%s://127.0.0.1:%u", certificate != NULL ? "https" : "http",
                              g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  return ts;
}

static void
test_server_free (TestServer *ts)
{
  g_socket_service_stop (ts->service);
  g_socket_listener_close (G_SOCKET_LISTENER (ts->service));
  g_clear_object (&ts->service);
  soup_server_disconnect (ts->server);
  g_ptr_array_unref (ts->held);
  g_ptr_array_unref (ts->open_streams);
  g_ptr_array_unref (ts->connections);
  g_clear_object (&ts->event_source);
  g_clear_object (&ts->certificate);
  g_object_unref (ts->server);
  g_free (ts->session_id);
  g_free (ts->base);
  g_free (ts);
}

static char *
url (TestServer *ts,
     const char *path)
{
  return g_strconcat (ts->base, path, NULL);
}

static PalMcpProbeResult *
probe_http (SoupSession         *session,
            const char          *address,
            const char * const  *names,
            const char * const  *values,
            guint                timeout_ms,
            GCancellable        *cancellable,
            GError             **error)
{
  GAsyncResult *result = NULL;

  pal_mcp_probe_http_async (session, address, names, values, timeout_ms, cancellable,
                            test_store_result_cb, &result);

  return wait_result (&result, error);
}

static PalMcpProbeResult *
probe_sse (SoupSession         *session,
           const char          *address,
           guint                timeout_ms,
           GError             **error)
{
  GAsyncResult *result = NULL;

  pal_mcp_probe_sse_async (session, address, NULL, NULL, timeout_ms, NULL, test_store_result_cb, &result);

  return wait_result (&result, error);
}

static void
assert_loopback_result (PalMcpProbeResult *result)
{
  const char *names[] = { "alpha", "beta", "gamma", NULL };
  const char *descriptions[] = { "First", "", "Third", NULL };

  g_assert_nonnull (result);
  g_assert_cmpstr (pal_mcp_probe_result_get_server_name (result), ==, "loopback");
  g_assert_cmpstr (pal_mcp_probe_result_get_server_title (result), ==, "Loopback Server");
  g_assert_cmpstr (pal_mcp_probe_result_get_server_version (result), ==, "0.0.1");
  g_assert_cmpstr (pal_mcp_probe_result_get_protocol_version (result), ==, "2025-06-18");
  assert_strv (pal_mcp_probe_result_get_tool_names (result), names);
  assert_strv (pal_mcp_probe_result_get_tool_descriptions (result), descriptions);
}

static void
test_http_json (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/mcp");
  const char *names[] = { "Authorization", NULL };
  const char *values[] = { "Bearer s3cret", NULL };
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  ts->mode = ANSWER_JSON;
  ts->required_token = "Bearer s3cret";

  result = probe_http (session, address, names, values, 10000, NULL, &error);
  g_assert_no_error (error);
  assert_loopback_result (result);

  /* initialize, initialized, two pages; all but the first with the session
   * id (the server refuses otherwise) and the negotiated version. */
  g_assert_cmpuint (ts->n_requests, ==, 4);
  g_assert_true (ts->got_initialized);
  g_assert_cmpuint (ts->n_later_requests, ==, 3);
  g_assert_false (ts->version_missing);

  /* The session is ended. */
  WAIT_UNTIL (ts->n_deletes != 0);
  g_assert_cmpuint (ts->n_deletes, ==, 1);
  g_assert_true (ts->deleted_right_session);

  test_server_free (ts);
}

static void
test_http_events (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/mcp");
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  ts->mode = ANSWER_EVENTS;

  /* The streams stay open on the server side: the probe must stop reading
   * each one when its answer arrived. */
  result = probe_http (session, address, NULL, NULL, 10000, NULL, &error);
  g_assert_no_error (error);
  assert_loopback_result (result);
  g_assert_true (ts->got_ping_answer);
  g_assert_cmpuint (ts->n_later_requests, ==, 3);
  g_assert_false (ts->version_missing);
  g_assert_cmpuint (ts->open_streams->len, ==, 3);
  for (guint i = 0; i < ts->open_streams->len; i++)
    assert_client_disconnects (ts, g_ptr_array_index (ts->open_streams, i));

  WAIT_UNTIL (ts->n_deletes != 0);
  g_assert_true (ts->deleted_right_session);

  test_server_free (ts);
}

static void
test_http_unauthorized (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/mcp");
  const char *names[] = { "Authorization", NULL };
  const char *values[] = { "Bearer wrong", NULL };
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  ts->required_token = "Bearer s3cret";

  result = probe_http (session, address, names, values, 10000, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "401 Unauthorized: invalid_token"));
  g_assert_nonnull (strstr (error->message, "Authorization"));
  /* No session was given: nothing to end. */
  g_assert_cmpuint (ts->n_deletes, ==, 0);

  test_server_free (ts);
}

static void
test_http_not_found (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/nothing-here");
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_http (session, address, NULL, NULL, 10000, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_assert_true (g_str_has_prefix (error->message, "The server answered 404 Not Found"));
  g_assert_nonnull (strstr (error->message, "/mcp"));

  test_server_free (ts);
}

static void
test_http_error_statuses (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *bad_request = url (ts, "/bad-request");
  g_autofree char *get_only = url (ts, "/get-only");
  g_autofree char *accepted = url (ts, "/accepted");

  /* The JSON-RPC error in the body explains the status. */
  g_assert_null (probe_http (session, bad_request, NULL, NULL, 10000, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "The server answered 400 Bad Request: "
                                       "Bad Request: No valid session ID provided");
  g_clear_error (&error);

  g_assert_null (probe_http (session, get_only, NULL, NULL, 10000, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "405 Method Not Allowed"));
  g_assert_nonnull (strstr (error->message, "older SSE transport"));
  g_clear_error (&error);

  g_assert_null (probe_http (session, accepted, NULL, NULL, 10000, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "without answering"));

  test_server_free (ts);
}

static void
test_http_garbage (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *garbage = url (ts, "/garbage");
  g_autofree char *not_jsonrpc = url (ts, "/not-jsonrpc");
  g_autofree char *html = url (ts, "/html");

  g_assert_null (probe_http (session, garbage, NULL, NULL, 10000, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "not valid JSON"));
  g_assert_nonnull (strstr (error->message, "this is not JSON at all"));
  g_clear_error (&error);

  g_assert_null (probe_http (session, not_jsonrpc, NULL, NULL, 10000, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "not a JSON-RPC message"));
  g_clear_error (&error);

  g_assert_null (probe_http (session, html, NULL, NULL, 10000, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "“text/html”"));

  test_server_free (ts);
}

static void
test_http_timeout (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/hang");
  g_autoptr(GError) error = NULL;
  GAsyncResult *async_result = NULL;

  /* the limit passes once the server holds the request */
  use_test_limit ();
  pal_mcp_probe_http_async (session, address, NULL, NULL, 300, NULL, test_store_result_cb, &async_result);
  WAIT_UNTIL (ts->held->len != 0);
  g_assert_cmpuint (ts->held->len, ==, 1);
  g_assert_null (async_result);
  pass_limit ();

  g_assert_null (wait_result (&async_result, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "did not answer within 1 second"));
  g_assert_cmpuint (ts->held->len, ==, 1);

  /* The request was abandoned: its connection is closed. */
  assert_client_disconnects (ts, g_ptr_array_index (ts->held, 0));

  test_server_free (ts);
}

static void
test_http_cancel (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *address = url (ts, "/hang");
  g_autoptr(GError) error = NULL;

  /* Cancelled by the server handler, while the request is in flight. */
  ts->cancel_on_request = cancellable;

  g_assert_null (probe_http (session, address, NULL, NULL, 20000, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (ts->held->len, ==, 1);
  assert_client_disconnects (ts, g_ptr_array_index (ts->held, 0));

  test_server_free (ts);
}

static void
test_http_cancel_mid_session (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *address = url (ts, "/mcp");
  GAsyncResult *result = NULL;
  g_autoptr(GError) error = NULL;

  ts->mode = ANSWER_JSON;

  /* initialize and the notification go through; from then on the server
   * holds requests and cancels: tools/list is cancelled in flight, and the
   * session still ends. */
  pal_mcp_probe_http_async (session, address, NULL, NULL, 20000, cancellable,
                            test_store_result_cb, &result);
  WAIT_UNTIL (ts->got_initialized || result != NULL);
  ts->cancel_on_request = cancellable;

  g_assert_null (wait_result (&result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (ts->held->len, ==, 1);

  WAIT_UNTIL (ts->n_deletes != 0);
  g_assert_true (ts->deleted_right_session);

  test_server_free (ts);
}

static void
test_http_connection_refused (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  g_autofree char *where = NULL;
  guint port;

  /* A port that was free a moment ago and has nobody listening. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any_port, FALSE, &error));
  bound = g_socket_get_local_address (socket, &error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  address = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  where = g_strdup_printf ("127.0.0.1:%u", port);

  g_assert_null (probe_http (session, address, NULL, NULL, 10000, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
  g_assert_nonnull (strstr (error->message, where));
  g_assert_nonnull (strstr (error->message, "refused"));
}

static const char test_certificate[] =
  "-----BEGIN CERTIFICATE-----\n"
  "MIIBlzCCAT2gAwIBAgIUZedjwpmhmwV1BmipA8OxfjLzN44wCgYIKoZIzj0EAwIw\n"
  "ITEfMB0GA1UEAwwWcGFsYXZlci10ZXN0LmxvY2FsaG9zdDAeFw0yNjExMjIxOTQz\n"
  "NTJaFw00NjExMTcxOTQzNTJaMCExHzAdBgNVBAMMFnBhbGF2ZXItdGVzdC5sb2Nh\n"
  "bGhvc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASWJ5xqBq6G/W24HdLTrplI\n"
  "z3tBJ1sC46djQssLWKAN3LVqt6DyAiHQE52D0X03yEgY76cgRqZLkih6dQfBLXPt\n"
  "o1MwUTAdBgNVHQ4EFgQUA0QQGyN9RgKgDmwo0TGNxaJenSowHwYDVR0jBBgwFoAU\n"
  "A0QQGyN9RgKgDmwo0TGNxaJenSowDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQD\n"
  "AgNIADBFAiEAgUWT7U7KlAbWw82ciO11YIEuaREQ6/8j6e9Xw3dGDn8CIArehdXs\n"
  "sXlsx39ZVdVwtEZ00HMWP6SnUoyUCj18yCvx\n"
  "-----END CERTIFICATE-----\n"
  "-----BEGIN PRIVATE KEY-----\n"
  "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgaWeeNB1qEHMuL7L2\n"
  "4EKtR5LS2icVZh+7uV+GuRLqSz6hRANCAASWJ5xqBq6G/W24HdLTrplIz3tBJ1sC\n"
  "46djQssLWKAN3LVqt6DyAiHQE52D0X03yEgY76cgRqZLkih6dQfBLXPt\n"
  "-----END PRIVATE KEY-----\n";

static void
test_http_untrusted_certificate (void)
{
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  TestServer *ts;

  if (!g_tls_backend_supports_tls (g_tls_backend_get_default ()))
    {
      g_test_skip ("no TLS backend (glib-networking)");
      return;
    }

  certificate = g_tls_certificate_new_from_pem (test_certificate, -1, &error);
  g_assert_no_error (error);

  ts = test_server_new (certificate);
  g_assert_true (g_str_has_prefix (ts->base, "https://"));
  address = url (ts, "/mcp");

  g_assert_null (probe_http (session, address, NULL, NULL, 10000, NULL, &error));
  g_assert_true (error->domain == G_TLS_ERROR);
  g_assert_nonnull (strstr (error->message, "certificate"));
  g_assert_nonnull (strstr (error->message, "not trusted"));
  g_assert_cmpuint (ts->n_requests, ==, 0);

  test_server_free (ts);
}

static void
test_http_invalid_arguments (void)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  const char *bad_name[] = { "Bad Header", NULL };
  const char *line_break[] = { "X-Token", NULL };
  const char *one_value[] = { "value", NULL };
  const char *broken_value[] = { "a\r\nInjected: yes", NULL };

  g_assert_null (probe_http (session, " ", NULL, NULL, 0, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "No address to connect to");
  g_clear_error (&error);

  g_assert_null (probe_http (session, "not an address", NULL, NULL, 0, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_null (probe_http (session, "ftp://127.0.0.1/mcp", NULL, NULL, 0, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "http://"));
  g_clear_error (&error);

  g_assert_null (probe_http (session, "http://127.0.0.1:1/mcp", bad_name, one_value, 0, NULL,
                             &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "“Bad Header”"));
  g_clear_error (&error);

  g_assert_null (probe_http (session, "http://127.0.0.1:1/mcp", line_break, broken_value, 0, NULL,
                             &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "line break"));
  g_clear_error (&error);

  g_assert_null (probe_http (session, "http://127.0.0.1:1/mcp", line_break, NULL, 0, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
}

/* ------------------------------------------------------------------------ */
/* legacy SSE                                                                */

static void
test_sse (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/sse");
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = probe_sse (session, address, 10000, &error);
  g_assert_no_error (error);
  assert_loopback_result (result);
  g_assert_true (ts->got_initialized);
  g_assert_cmpuint (ts->n_requests, ==, 4);

  /* The event stream is closed by the client. */
  assert_client_disconnects (ts, ts->event_source);

  test_server_free (ts);
}

static void
test_sse_absolute_endpoint (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/sse");
  g_autofree char *endpoint = url (ts, "/messages?session=abc");
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  ts->endpoint = endpoint;
  result = probe_sse (session, address, 10000, &error);
  g_assert_no_error (error);
  assert_loopback_result (result);

  test_server_free (ts);
}

static void
test_sse_foreign_endpoint (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/sse");
  g_autoptr(GError) error = NULL;

  /* Another host must not receive our headers. */
  ts->endpoint = "http://elsewhere.invalid/messages?session=abc";
  g_assert_null (probe_sse (session, address, 10000, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "another host"));
  g_assert_cmpuint (ts->n_requests, ==, 0);

  assert_client_disconnects (ts, ts->event_source);

  test_server_free (ts);
}

static void
test_sse_not_an_event_stream (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/sse");
  g_autofree char *missing = url (ts, "/nothing");
  g_autoptr(GError) error = NULL;

  ts->legacy_answer_json_get = TRUE;
  g_assert_null (probe_sse (session, address, 10000, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "streamable HTTP"));
  g_clear_error (&error);

  g_assert_null (probe_sse (session, missing, 10000, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "404 Not Found"));
  g_assert_nonnull (strstr (error->message, "/sse"));

  test_server_free (ts);
}

static void
test_sse_timeout (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/hang");
  g_autoptr(GError) error = NULL;
  GAsyncResult *async_result = NULL;

  /* The GET is never answered; the limit passes once the server holds it. */
  use_test_limit ();
  pal_mcp_probe_sse_async (session, address, NULL, NULL, 300, NULL, test_store_result_cb, &async_result);
  WAIT_UNTIL (ts->held->len != 0);
  g_assert_null (async_result);
  pass_limit ();
  g_assert_null (wait_result (&async_result, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_TIMEOUT);
  g_assert_cmpuint (ts->held->len, ==, 1);
  assert_client_disconnects (ts, g_ptr_array_index (ts->held, 0));

  test_server_free (ts);
}

/* ------------------------------------------------------------------------ */
/* From a configuration                                                      */

static PalMcpProbeResult *
probe_config (PalMcpServerConfig  *config,
              SoupSession         *session,
              GError             **error)
{
  GAsyncResult *result = NULL;

  pal_mcp_probe_config_async (config, session, 10000, NULL, test_store_result_cb, &result);

  return wait_result (&result, error);
}

static void
test_config_stdio (void)
{
  g_autoptr(PalMcpServerConfig) config = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *args[] = { "normal", "--protocol-version=2025-03-26", NULL };

  config = pal_mcp_server_config_new ("fake", ACP_MCP_TRANSPORT_STDIO);
  pal_mcp_server_config_set_command (config, fake_server ());
  pal_mcp_server_config_set_args (config, args);
  pal_mcp_server_config_add_env (config, "FAKE_MCP_SERVER_VERSION", "4.5.6");
  /* A blank row, as the editor leaves one: ignored. */
  pal_mcp_server_config_add_env (config, "", "");

  result = probe_config (config, session, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pal_mcp_probe_result_get_server_version (result), ==, "4.5.6");
  g_assert_cmpstr (pal_mcp_probe_result_get_protocol_version (result), ==, "2025-03-26");
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
}

static void
test_config_stdio_invalid (void)
{
  g_autoptr(PalMcpServerConfig) config = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;

  config = pal_mcp_server_config_new ("fake", ACP_MCP_TRANSPORT_STDIO);
  pal_mcp_server_config_set_command (config, fake_server ());
  pal_mcp_server_config_add_env (config, "", "orphan value");

  g_assert_null (probe_config (config, session, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
}

static void
test_config_http (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(PalMcpServerConfig) config = pal_mcp_server_config_new ("loop", ACP_MCP_TRANSPORT_HTTP);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/mcp");
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  ts->mode = ANSWER_EVENTS;
  ts->required_token = "Bearer s3cret";
  pal_mcp_server_config_set_url (config, address);
  pal_mcp_server_config_add_header (config, "Authorization", "Bearer s3cret");
  pal_mcp_server_config_add_header (config, "", "");

  result = probe_config (config, session, &error);
  g_assert_no_error (error);
  assert_loopback_result (result);

  test_server_free (ts);
}

static void
test_config_sse (void)
{
  TestServer *ts = test_server_new (NULL);
  g_autoptr(PalMcpServerConfig) config = pal_mcp_server_config_new ("loop", ACP_MCP_TRANSPORT_SSE);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *address = url (ts, "/sse");
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_mcp_server_config_set_url (config, address);

  result = probe_config (config, session, &error);
  g_assert_no_error (error);
  assert_loopback_result (result);

  test_server_free (ts);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp-probe/stdio/normal", test_stdio_normal);
  g_test_add_func ("/mcp-probe/stdio/other-protocol-version", test_stdio_other_protocol_version);
  g_test_add_func ("/mcp-probe/stdio/crlf", test_stdio_crlf);
  g_test_add_func ("/mcp-probe/stdio/garbage", test_stdio_garbage);
  g_test_add_func ("/mcp-probe/stdio/garbage-forever", test_stdio_garbage_forever);
  g_test_add_func ("/mcp-probe/stdio/exit-early", test_stdio_exit_early);
  g_test_add_func ("/mcp-probe/stdio/timeout", test_stdio_timeout);
  g_test_add_func ("/mcp-probe/stdio/stubborn-server-is-killed",
                   test_stdio_stubborn_server_is_killed);
  g_test_add_func ("/mcp-probe/stdio/error-answer", test_stdio_error_answer);
  g_test_add_func ("/mcp-probe/stdio/server-requests", test_stdio_server_requests);
  g_test_add_func ("/mcp-probe/stdio/requests-while-listing", test_stdio_requests_while_listing);
  g_test_add_func ("/mcp-probe/stdio/no-tools", test_stdio_no_tools);
  g_test_add_func ("/mcp-probe/stdio/not-found", test_stdio_not_found);
  g_test_add_func ("/mcp-probe/stdio/invalid-arguments", test_stdio_invalid_arguments);
  g_test_add_func ("/mcp-probe/stdio/cancel", test_stdio_cancel);
  g_test_add_func ("/mcp-probe/stdio/cancelled-before", test_stdio_cancelled_before);
  g_test_add_func ("/mcp-probe/http/json", test_http_json);
  g_test_add_func ("/mcp-probe/http/events", test_http_events);
  g_test_add_func ("/mcp-probe/http/unauthorized", test_http_unauthorized);
  g_test_add_func ("/mcp-probe/http/not-found", test_http_not_found);
  g_test_add_func ("/mcp-probe/http/error-statuses", test_http_error_statuses);
  g_test_add_func ("/mcp-probe/http/garbage", test_http_garbage);
  g_test_add_func ("/mcp-probe/http/timeout", test_http_timeout);
  g_test_add_func ("/mcp-probe/http/cancel", test_http_cancel);
  g_test_add_func ("/mcp-probe/http/cancel-mid-session", test_http_cancel_mid_session);
  g_test_add_func ("/mcp-probe/http/connection-refused", test_http_connection_refused);
  g_test_add_func ("/mcp-probe/http/untrusted-certificate", test_http_untrusted_certificate);
  g_test_add_func ("/mcp-probe/http/invalid-arguments", test_http_invalid_arguments);
  g_test_add_func ("/mcp-probe/sse/normal", test_sse);
  g_test_add_func ("/mcp-probe/sse/absolute-endpoint", test_sse_absolute_endpoint);
  g_test_add_func ("/mcp-probe/sse/foreign-endpoint", test_sse_foreign_endpoint);
  g_test_add_func ("/mcp-probe/sse/not-an-event-stream", test_sse_not_an_event_stream);
  g_test_add_func ("/mcp-probe/sse/timeout", test_sse_timeout);
  g_test_add_func ("/mcp-probe/config/stdio", test_config_stdio);
  g_test_add_func ("/mcp-probe/config/stdio-invalid", test_config_stdio_invalid);
  g_test_add_func ("/mcp-probe/config/http", test_config_http);
  g_test_add_func ("/mcp-probe/config/sse", test_config_sse);

  return g_test_run ();
}
