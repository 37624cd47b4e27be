/* test-terminal-service.c: the terminal/ requests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test plays the agent: an AcpConnection on one end of a socketpair
 * sends the requests a real agent would send to an AcpAgent on the other
 * end, to which an AcpTerminalService is attached. One test runs the
 * scripted fake agent (tests/scenarios/terminal.json) as a real process.
 */

#include "config.h"

#include <signal.h>

#include <glib/gstdio.h>

#include "acp-agent.h"
#include "acp-terminal-service.h"
#include "test-util.h"

#define SESSION "sess-1"

/* Whether process @pid is dead (gone, or a zombie not yet reaped by
 * whoever inherited it) */
static gboolean
process_dead (gint64 pid)
{
  g_autofree char *stat_path = g_strdup_printf ("/proc/%" G_GINT64_FORMAT "/stat", pid);
  g_autofree char *stat = NULL;
  const char *state;

  if (!g_file_get_contents (stat_path, &stat, NULL, NULL))
    return TRUE;
  state = strrchr (stat, ')');

  return state != NULL && g_str_has_prefix (state, ") Z");
}

/* fixture {{{ */

typedef struct
{
  char               *tmpdir;
  AcpConnection      *peer;       /* the test, as agent */
  AcpAgent           *agent;
  AcpTerminalService *service;
  GHashTable         *exited;     /* terminal id → itself */
  GString            *live;       /* "terminal-output" text of every terminal */
} Fixture;

static void
terminal_exited_cb (AcpTerminalService *service,
                    const char         *terminal_id,
                    Fixture            *f)
{
  g_assert_false (g_hash_table_contains (f->exited, terminal_id));
  g_hash_table_add (f->exited, g_strdup (terminal_id));
}

static void
terminal_output_cb (AcpTerminalService *service,
                    const char         *terminal_id,
                    const char         *text,
                    Fixture            *f)
{
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_string_append (f->live, text);
}

static void
start_agent (Fixture               *f,
             AcpClientCapabilities  caps)
{
  acp_agent_set_client_capabilities (f->agent, caps);
  f->service = acp_terminal_service_new ();
  g_signal_connect (f->service, "terminal-exited", G_CALLBACK (terminal_exited_cb), f);
  g_signal_connect (f->service, "terminal-output", G_CALLBACK (terminal_output_cb), f);
  acp_terminal_service_attach (f->service, f->agent);
  acp_terminal_service_attach (f->service, f->agent);
  acp_terminal_service_set_session_cwd (f->service, f->agent, SESSION, f->tmpdir);
  test_agent_start (f->agent);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->tmpdir = test_make_tmpdir ("test-terminal-service");
  f->exited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->live = g_string_new (NULL);

  f->agent = test_agent_new_with_peer (&f->peer);

  if (data == NULL)
    start_agent (f, ACP_CLIENT_CAP_TERMINAL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  test_peer_close (f->peer, f->agent);
  g_clear_object (&f->agent);
  g_clear_object (&f->service);
  g_clear_object (&f->peer);
  g_clear_pointer (&f->exited, g_hash_table_unref);
  g_string_free (f->live, TRUE);
  g_free (f->tmpdir);
}

/* }}} */

/* calls {{{ */

static JsonNode *
call_node (Fixture     *f,
           const char  *method,
           JsonNode    *params,
           GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  acp_connection_call_async (f->peer, method, params, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);

  return acp_connection_call_finish (f->peer, result, error);
}

/* Calls @method with params built from a JSON text; returns the result
 * object (a new reference) or NULL and @error. */
static JsonObject *
call (Fixture     *f,
      const char  *method,
      const char  *params_json,
      GError     **error)
{
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(JsonNode) params = json_from_string (params_json, &parse_error);
  g_autoptr(JsonNode) result = NULL;

  g_assert_no_error (parse_error);
  result = call_node (f, method, params, error);
  if (result == NULL)
    return NULL;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  return json_object_ref (json_node_get_object (result));
}

static JsonObject *
call_ok (Fixture    *f,
         const char *method,
         const char *params_json)
{
  g_autoptr(GError) error = NULL;
  JsonObject *result = call (f, method, params_json, &error);

  g_assert_no_error (error);
  return result;
}

static void
assert_call_error (Fixture    *f,
                   const char *method,
                   const char *params_json,
                   int         code,
                   const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) result = call (f, method, params_json, &error);

  g_assert_null (result);
  g_assert_error (error, ACP_ERROR, code);
  if (text != NULL && strstr (error->message, text) == NULL)
    g_error ("“%s” does not contain “%s”", error->message, text);
}

/* JSON text of a string */
static char *
json_string (const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, text);
  return json_to_string (node, FALSE);
}

/* terminal/create: @rest is more members (with a leading comma) or "". */
static char *
create (Fixture    *f,
        const char *session_id,
        const char *command,
        const char *rest)
{
  g_autofree char *quoted = json_string (command);
  g_autofree char *params = g_strdup_printf ("{\"sessionId\": \"%s\", \"command\": %s%s}",
                                             session_id, quoted, rest);
  g_autoptr(JsonObject) result = call_ok (f, "terminal/create", params);
  const char *id = json_object_get_string_member (result, "terminalId");

  g_assert_nonnull (id);
  return g_strdup (id);
}

static char *
id_params (const char *session_id,
           const char *terminal_id)
{
  return g_strdup_printf ("{\"sessionId\": \"%s\", \"terminalId\": \"%s\"}", session_id, terminal_id);
}

static JsonObject *
terminal_call (Fixture    *f,
               const char *method,
               const char *terminal_id)
{
  g_autofree char *params = id_params (SESSION, terminal_id);

  return call_ok (f, method, params);
}

/* Asserts an exit status object: @signal NULL means exited with @code. */
static void
assert_exit_status (JsonObject *status,
                    int         code,
                    const char *signal_name)
{
  g_assert_nonnull (status);
  if (signal_name == NULL)
    {
      g_assert_cmpint (json_object_get_int_member (status, "exitCode"), ==, code);
      g_assert_true (json_object_get_null_member (status, "signal"));
    }
  else
    {
      g_assert_true (json_object_get_null_member (status, "exitCode"));
      g_assert_cmpstr (json_object_get_string_member (status, "signal"), ==, signal_name);
    }
}

/* Waits for the exit through the agent's request, then checks the output
 * request, which must agree. Returns the output. */
static char *
wait_and_output (Fixture    *f,
                 const char *terminal_id,
                 int         code,
                 const char *signal_name,
                 gboolean    truncated)
{
  g_autoptr(JsonObject) status = terminal_call (f, "terminal/wait_for_exit", terminal_id);
  g_autoptr(JsonObject) output = terminal_call (f, "terminal/output", terminal_id);

  assert_exit_status (status, code, signal_name);
  assert_exit_status (json_object_get_object_member (output, "exitStatus"), code, signal_name);
  g_assert_cmpint (json_object_get_boolean_member (output, "truncated"), ==, truncated);

  return g_strdup (json_object_get_string_member (output, "output"));
}

/* }}} */

/* running commands {{{ */

static void
test_create_args (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "printf", ", \"args\": [\"%s|%s\\n\", \"a\", \"b c; $HOME\"]");
  g_autofree char *output = wait_and_output (f, id, 0, NULL, FALSE);
  g_autofree char *view = NULL;
  gboolean truncated = TRUE;
  int exit_status = -5;

  /* args are passed as they are, never through a shell */
  g_assert_cmpstr (output, ==, "a|b c; $HOME\n");
  g_assert_cmpstr (id, ==, "terminal-1");

  /* the view sees the same */
  view = acp_terminal_service_dup_output (f->service, id, &truncated, &exit_status);
  g_assert_cmpstr (view, ==, output);
  g_assert_false (truncated);
  g_assert_cmpint (exit_status, ==, 0);
  g_assert_true (g_hash_table_contains (f->exited, id));
  g_assert_cmpstr (f->live->str, ==, "a|b c; $HOME\n");
}

static void
test_shell_line (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *sub = g_build_filename (f->tmpdir, "sub dir", NULL);
  g_autofree char *sub_json = json_string (sub);
  g_autofree char *rest = g_strdup_printf (", \"cwd\": %s", sub_json);
  g_autofree char *id = NULL;
  g_autofree char *output = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *id2 = NULL;
  g_autofree char *output2 = NULL;
  g_autofree char *expected2 = NULL;
  g_autofree char *id3 = NULL;
  g_autofree char *output3 = NULL;

  /* a whole shell line, no args, no cwd: the session folder */
  id = create (f, SESSION, "pwd && echo \"$FOO\" | tr a-z A-Z",
               ", \"env\": [{\"name\": \"FOO\", \"value\": \"bar baz\"}]");
  output = wait_and_output (f, id, 0, NULL, FALSE);
  expected = g_strdup_printf ("%s\nBAR BAZ\n", f->tmpdir);
  g_assert_cmpstr (output, ==, expected);

  /* the request's cwd wins */
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  id2 = create (f, SESSION, "pwd; echo err >&2; exit 0", rest);
  output2 = wait_and_output (f, id2, 0, NULL, FALSE);
  /* stderr is in the same output */
  expected2 = g_strdup_printf ("%s\nerr\n", sub);
  g_assert_cmpstr (output2, ==, expected2);

  /* a bare program name runs without a shell, on PATH */
  id3 = create (f, SESSION, "true", "");
  output3 = wait_and_output (f, id3, 0, NULL, FALSE);
  g_assert_cmpstr (output3, ==, "");

  /* ids are unique */
  g_assert_cmpstr (id, !=, id2);
  g_assert_cmpstr (id2, !=, id3);
}

static void
test_env_entries (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *id = NULL;
  g_autofree char *output = NULL;

  /* malformed entries are skipped; the good ones apply */
  id = create (f, SESSION, "echo \"${A-unset}/${B-unset}/$PATH_OK\"",
               ", \"env\": [{\"name\": \"A\"}, {\"name\": \"\", \"value\": \"x\"}, 7, "
               "{\"name\": \"B=C\", \"value\": \"x\"}, {\"name\": \"PATH_OK\", \"value\": \"yes\"}]");
  output = wait_and_output (f, id, 0, NULL, FALSE);
  g_assert_cmpstr (output, ==, "unset/unset/yes\n");
}

static void
test_create_errors (Fixture       *f,
                    gconstpointer  data)
{
  assert_call_error (f, "terminal/create", "{\"sessionId\": \"" SESSION "\"}",
                     ACP_ERROR_INVALID_PARAMS, "command");
  assert_call_error (f, "terminal/create", "{\"sessionId\": \"" SESSION "\", \"command\": \"\"}",
                     ACP_ERROR_INVALID_PARAMS, "command");
  assert_call_error (f, "terminal/create", "{\"sessionId\": \"" SESSION "\", \"command\": 5}",
                     ACP_ERROR_INVALID_PARAMS, "command");
  assert_call_error (f, "terminal/create", "{\"command\": \"true\"}",
                     ACP_ERROR_INVALID_PARAMS, "sessionId");
  assert_call_error (f, "terminal/create",
                     "{\"sessionId\": \"" SESSION "\", \"command\": \"true\", \"cwd\": \"relative\"}",
                     ACP_ERROR_INVALID_PARAMS, "absolute");
  /* a session without a folder, and no cwd */
  assert_call_error (f, "terminal/create", "{\"sessionId\": \"other\", \"command\": \"true\"}",
                     ACP_ERROR_INVALID_PARAMS, "working directory");
  /* cannot be started */
  assert_call_error (f, "terminal/create",
                     "{\"sessionId\": \"" SESSION "\", \"command\": \"/nonexistent/program\", \"args\": [\"x\"]}",
                     ACP_ERROR_INTERNAL_ERROR, "/nonexistent/program");
  assert_call_error (f, "terminal/create",
                     "{\"sessionId\": \"" SESSION "\", \"command\": \"true\", \"cwd\": \"/nonexistent/dir\"}",
                     ACP_ERROR_INTERNAL_ERROR, "/nonexistent/dir");

  {
    g_auto(GStrv) ids = acp_terminal_service_dup_terminal_ids (f->service, f->agent, SESSION);

    g_assert_cmpuint (g_strv_length (ids), ==, 0);
  }
}

/* }}} */

/* output {{{ */

static void
test_truncation (Fixture       *f,
                 gconstpointer  data)
{
  /* 7 ASCII bytes, é (2), € (3), 😀 (4): 16 bytes */
  const char *text = "abcdefgé€😀";
  struct {
    int         limit;
    const char *expected;
    gboolean    truncated;
  } cases[] = {
    { 16, "abcdefgé€😀", FALSE },
    { 100, "abcdefgé€😀", FALSE },
    { 15, "bcdefgé€😀", TRUE },
    { 9, "é€😀", TRUE },
    { 8, "€😀", TRUE },        /* would start inside é */
    { 7, "€😀", TRUE },
    { 6, "😀", TRUE },         /* would start inside € */
    { 4, "😀", TRUE },
    { 3, "", TRUE },           /* would start inside 😀 */
    { 0, "", TRUE },
  };

  g_assert_cmpuint (strlen (text), ==, 16);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *quoted = json_string (text);
      g_autofree char *rest = g_strdup_printf (", \"args\": [\"%%s\", %s], \"outputByteLimit\": %d",
                                               quoted, cases[i].limit);
      g_autofree char *id = create (f, SESSION, "printf", rest);
      g_autofree char *output = wait_and_output (f, id, 0, NULL, cases[i].truncated);
      g_autofree char *view = NULL;
      gboolean truncated;

      g_assert_cmpstr (output, ==, cases[i].expected);
      view = acp_terminal_service_dup_output (f->service, id, &truncated, NULL);
      g_assert_cmpstr (view, ==, cases[i].expected);
      g_assert_cmpint (truncated, ==, cases[i].truncated);
    }
}

static void
test_truncation_large (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autofree char *id = NULL;
  g_autofree char *output = NULL;
  gsize len;

  /* about 3.4 MB in many reads, over the 1 MiB default */
  for (guint i = 0; i < 200000; i++)
    g_string_append (expected, "héllo wörld €\n");
  id = create (f, SESSION, "yes 'héllo wörld €' | head -n 200000", "");
  output = wait_and_output (f, id, 0, NULL, TRUE);

  len = strlen (output);
  g_assert_cmpuint (len, <=, ACP_TERMINAL_SERVICE_DEFAULT_OUTPUT_BYTE_LIMIT);
  g_assert_cmpuint (len, >=, ACP_TERMINAL_SERVICE_DEFAULT_OUTPUT_BYTE_LIMIT - 3);
  g_assert_true (g_utf8_validate (output, -1, NULL));
  /* exactly the newest part */
  g_assert_cmpmem (output, len, expected->str + expected->len - len, len);
  /* the live view saw everything */
  g_assert_cmpuint (f->live->len, ==, expected->len);
}

static void
test_output_not_utf8 (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *id = NULL;
  g_autofree char *output = NULL;
  g_autofree char *id2 = NULL;
  g_autofree char *output2 = NULL;
  g_autofree char *id3 = NULL;
  g_autofree char *output3 = NULL;

  /* a character split across two writes (and so, usually, two reads) */
  id = create (f, SESSION, "printf '\\342'; sleep 0.2; printf '\\202\\254\\n'", "");
  output = wait_and_output (f, id, 0, NULL, FALSE);
  g_assert_cmpstr (output, ==, "€\n");

  /* invalid bytes and NUL become U+FFFD */
  id2 = create (f, SESSION, "printf 'a\\377b\\000c'", "");
  output2 = wait_and_output (f, id2, 0, NULL, FALSE);
  g_assert_cmpstr (output2, ==, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c");

  /* a character cut off by the end of the output */
  id3 = create (f, SESSION, "printf 'x\\342\\202'", "");
  output3 = wait_and_output (f, id3, 0, NULL, FALSE);
  g_assert_true (g_utf8_validate (output3, -1, NULL));
  g_assert_true (g_str_has_prefix (output3, "x\xef\xbf\xbd"));
}

static void
test_output_while_running (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "echo started; exec sleep 100", "");
  g_autoptr(JsonObject) output = NULL;
  g_autoptr(JsonObject) kill_result = NULL;
  g_autofree char *final = NULL;
  int exit_status = 0;

  WAIT_UNTIL (strstr (f->live->str, "started\n") != NULL);
  output = terminal_call (f, "terminal/output", id);
  g_assert_cmpstr (json_object_get_string_member (output, "output"), ==, "started\n");
  g_assert_false (json_object_get_boolean_member (output, "truncated"));
  /* still running: no exit status */
  g_assert_false (json_object_has_member (output, "exitStatus"));
  g_free (acp_terminal_service_dup_output (f->service, id, NULL, &exit_status));
  g_assert_cmpint (exit_status, ==, -1);

  kill_result = terminal_call (f, "terminal/kill", id);
  g_assert_cmpuint (json_object_get_size (kill_result), ==, 0);
  final = wait_and_output (f, id, 0, "SIGTERM", FALSE);
  g_assert_cmpstr (final, ==, "started\n");
}

/* }}} */

/* exit, kill, release {{{ */

static void
test_exit_code (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "echo bye; exit 3", "");
  g_autofree char *output = wait_and_output (f, id, 3, NULL, FALSE);
  g_autofree char *again = NULL;
  int exit_status;

  g_assert_cmpstr (output, ==, "bye\n");
  g_free (acp_terminal_service_dup_output (f->service, id, NULL, &exit_status));
  g_assert_cmpint (exit_status, ==, 3);

  /* waiting again after the exit answers at once, the same */
  again = wait_and_output (f, id, 3, NULL, FALSE);
  g_assert_cmpstr (again, ==, "bye\n");
}

static void
test_exit_signal (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "kill -USR1 $$", "");
  g_autofree char *output = wait_and_output (f, id, 0, "SIGUSR1", FALSE);
  int exit_status;

  g_assert_cmpstr (output, ==, "");
  g_free (acp_terminal_service_dup_output (f->service, id, NULL, &exit_status));
  g_assert_cmpint (exit_status, ==, 128 + SIGUSR1);
}

static void
test_kill_keeps_id (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "sleep", ", \"args\": [\"100\"]");
  g_autoptr(JsonObject) killed = terminal_call (f, "terminal/kill", id);
  g_autofree char *output = wait_and_output (f, id, 0, "SIGTERM", FALSE);
  g_autoptr(JsonObject) killed_again = terminal_call (f, "terminal/kill", id);
  g_autofree char *still = wait_and_output (f, id, 0, "SIGTERM", FALSE);
  g_auto(GStrv) ids = acp_terminal_service_dup_terminal_ids (f->service, f->agent, SESSION);

  g_assert_nonnull (killed);
  g_assert_nonnull (killed_again);
  g_assert_cmpstr (output, ==, "");
  g_assert_cmpstr (still, ==, "");
  g_assert_cmpuint (g_strv_length (ids), ==, 1);
  g_assert_cmpstr (ids[0], ==, id);
}

static void
test_kill_escalates (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *id = NULL;
  g_autoptr(JsonObject) killed = NULL;
  g_autofree char *output = NULL;

  acp_terminal_service_set_kill_grace_period (f->service, 100);
  g_assert_cmpuint (acp_terminal_service_get_kill_grace_period (f->service), ==, 100);

  /* ignores SIGTERM, and so does the sleep it starts */
  id = create (f, SESSION, "trap '' TERM; echo ready; sleep 100; echo not reached", "");
  WAIT_UNTIL (strstr (f->live->str, "ready\n") != NULL);
  killed = terminal_call (f, "terminal/kill", id);
  output = wait_and_output (f, id, 0, "SIGKILL", FALSE);
  g_assert_cmpstr (output, ==, "ready\n");
}

static void
test_many_waiters (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "sleep 100", "");
  g_autofree char *params_text = id_params (SESSION, id);
  g_autoptr(JsonNode) params = json_from_string (params_text, NULL);
  GAsyncResult *results[4] = { NULL, };
  g_autoptr(JsonObject) killed = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    acp_connection_call_async (f->peer, "terminal/wait_for_exit", params, NULL,
                               test_store_result_cb, &results[i]);

  /* nobody is answered while it runs: a round trip after the waits proves
   * they were all read */
  {
    g_autoptr(JsonObject) output = terminal_call (f, "terminal/output", id);

    g_assert_false (json_object_has_member (output, "exitStatus"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    g_assert_null (results[i]);

  killed = terminal_call (f, "terminal/kill", id);
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) result = NULL;

      WAIT_UNTIL (results[i] != NULL);
      result = acp_connection_call_finish (f->peer, results[i], &error);
      g_assert_no_error (error);
      assert_exit_status (json_node_get_object (result), 0, "SIGTERM");
      g_clear_object (&results[i]);
    }
}

static void
test_wait_cancelled (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "sleep 100", "");
  g_autofree char *params_text = id_params (SESSION, id);
  g_autoptr(JsonNode) params = json_from_string (params_text, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) cancelled = NULL;
  g_autoptr(GAsyncResult) kept = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonObject) killed = NULL;
  g_autoptr(GError) error = NULL;

  acp_connection_call_async (f->peer, "terminal/wait_for_exit", params, cancellable,
                             test_store_result_cb, &cancelled);
  acp_connection_call_async (f->peer, "terminal/wait_for_exit", params, NULL,
                             test_store_result_cb, &kept);
  /* the agent gives up one wait: the other still gets the exit */
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (cancelled != NULL);

  killed = terminal_call (f, "terminal/kill", id);
  WAIT_UNTIL (kept != NULL);
  result = acp_connection_call_finish (f->peer, kept, &error);
  g_assert_no_error (error);
  assert_exit_status (json_node_get_object (result), 0, "SIGTERM");
}

static void
test_release (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "echo before; exec sleep 100", "");
  g_autofree char *params = id_params (SESSION, id);
  g_autoptr(JsonObject) released = NULL;
  g_autofree char *view = NULL;
  g_auto(GStrv) ids = NULL;
  int exit_status = 0;

  WAIT_UNTIL (strstr (f->live->str, "before\n") != NULL);
  released = terminal_call (f, "terminal/release", id);
  g_assert_nonnull (released);

  /* the id is gone for the agent */
  assert_call_error (f, "terminal/output", params, ACP_ERROR_RESOURCE_NOT_FOUND, id);
  assert_call_error (f, "terminal/wait_for_exit", params, ACP_ERROR_RESOURCE_NOT_FOUND, id);
  assert_call_error (f, "terminal/kill", params, ACP_ERROR_RESOURCE_NOT_FOUND, id);
  assert_call_error (f, "terminal/release", params, ACP_ERROR_RESOURCE_NOT_FOUND, id);
  ids = acp_terminal_service_dup_terminal_ids (f->service, f->agent, SESSION);
  g_assert_cmpuint (g_strv_length (ids), ==, 0);

  /* the running command was killed, and its output stays for the view */
  WAIT_UNTIL (g_hash_table_contains (f->exited, id));
  view = acp_terminal_service_dup_output (f->service, id, NULL, &exit_status);
  g_assert_cmpstr (view, ==, "before\n");
  g_assert_cmpint (exit_status, ==, 128 + SIGTERM);

  /* until the session is forgotten */
  acp_terminal_service_forget_session (f->service, f->agent, SESSION);
  g_assert_null (acp_terminal_service_dup_output (f->service, id, NULL, NULL));
  assert_call_error (f, "terminal/create", "{\"sessionId\": \"" SESSION "\", \"command\": \"true\"}",
                     ACP_ERROR_INVALID_PARAMS, "working directory");
}

static void
test_release_exited (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "echo done", "");
  g_autofree char *output = wait_and_output (f, id, 0, NULL, FALSE);
  g_autoptr(JsonObject) released = terminal_call (f, "terminal/release", id);
  g_autofree char *params = id_params (SESSION, id);
  g_autofree char *view = NULL;
  int exit_status;

  g_assert_nonnull (released);
  assert_call_error (f, "terminal/output", params, ACP_ERROR_RESOURCE_NOT_FOUND, NULL);
  view = acp_terminal_service_dup_output (f->service, id, NULL, &exit_status);
  g_assert_cmpstr (view, ==, "done\n");
  g_assert_cmpint (exit_status, ==, 0);
}

static void
test_background_child (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *id = NULL;
  g_autofree char *output = NULL;
  g_autoptr(JsonObject) released = NULL;
  gint64 pid;

  /* the shell exits at once, but its background child keeps the output
   * open: the exit is still reported */
  id = create (f, SESSION, "sleep 100 & echo $!", "");
  output = wait_and_output (f, id, 0, NULL, FALSE);
  pid = g_ascii_strtoll (output, NULL, 10);
  g_assert_cmpint (pid, >, 1);

  /* and releasing reaches the child: it is in the command's group */
  released = terminal_call (f, "terminal/release", id);
  g_assert_nonnull (released);
  POLL_UNTIL (process_dead (pid));
}

static void
test_unknown_id (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "true", "");
  g_autofree char *other_session = id_params ("sess-2", id);
  const char *methods[] = {
    "terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release",
  };

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      assert_call_error (f, methods[i], "{\"sessionId\": \"" SESSION "\", \"terminalId\": \"terminal-999\"}",
                         ACP_ERROR_RESOURCE_NOT_FOUND, "terminal-999");
      assert_call_error (f, methods[i], "{\"sessionId\": \"" SESSION "\", \"terminalId\": 1}",
                         ACP_ERROR_INVALID_PARAMS, "terminalId");
      assert_call_error (f, methods[i], "{\"sessionId\": \"" SESSION "\"}",
                         ACP_ERROR_INVALID_PARAMS, "terminalId");
      /* another session's terminal does not exist for this one */
      assert_call_error (f, methods[i], other_session, ACP_ERROR_RESOURCE_NOT_FOUND, id);
    }

  /* and that terminal is untouched */
  g_free (wait_and_output (f, id, 0, NULL, FALSE));
}

static void
test_many_terminals (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) unique = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) listed = NULL;

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *command = g_strdup_printf ("echo %u; exit %u", i, i % 7);

      g_ptr_array_add (ids, create (f, SESSION, command, ""));
      g_assert_true (g_hash_table_add (unique, g_ptr_array_index (ids, i)));
    }

  listed = acp_terminal_service_dup_terminal_ids (f->service, f->agent, SESSION);
  g_assert_cmpuint (g_strv_length (listed), ==, 40);
  for (guint i = 0; i < 40; i++)
    g_assert_cmpstr (listed[i], ==, g_ptr_array_index (ids, i));

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *output = wait_and_output (f, g_ptr_array_index (ids, i), i % 7, NULL, FALSE);
      g_autofree char *expected = g_strdup_printf ("%u\n", i);

      g_assert_cmpstr (output, ==, expected);
    }
}

/* }}} */

/* sessions and agents {{{ */

static void
test_release_session (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *a1 = NULL;
  g_autofree char *a2 = NULL;
  g_autofree char *b1 = NULL;
  g_autofree char *a1_params = NULL;
  g_autofree char *b1_params = NULL;
  g_autoptr(JsonObject) b_output = NULL;
  g_auto(GStrv) a_ids = NULL;
  g_auto(GStrv) b_ids = NULL;
  int exit_status = 0;

  acp_terminal_service_set_session_cwd (f->service, f->agent, "sess-2", f->tmpdir);
  a1 = create (f, SESSION, "sleep 100", "");
  a2 = create (f, SESSION, "sleep 100", "");
  b1 = create (f, "sess-2", "sleep 100", "");

  acp_terminal_service_release_session (f->service, f->agent, SESSION);
  WAIT_UNTIL (g_hash_table_contains (f->exited, a1) && g_hash_table_contains (f->exited, a2));

  a1_params = id_params (SESSION, a1);
  assert_call_error (f, "terminal/output", a1_params, ACP_ERROR_RESOURCE_NOT_FOUND, NULL);
  a_ids = acp_terminal_service_dup_terminal_ids (f->service, f->agent, SESSION);
  g_assert_cmpuint (g_strv_length (a_ids), ==, 0);

  /* the other session's terminal runs on */
  b1_params = id_params ("sess-2", b1);
  b_output = call_ok (f, "terminal/output", b1_params);
  g_assert_false (json_object_has_member (b_output, "exitStatus"));
  g_free (acp_terminal_service_dup_output (f->service, b1, NULL, &exit_status));
  g_assert_cmpint (exit_status, ==, -1);
  b_ids = acp_terminal_service_dup_terminal_ids (f->service, f->agent, "sess-2");
  g_assert_cmpuint (g_strv_length (b_ids), ==, 1);
  g_assert_false (g_hash_table_contains (f->exited, b1));
}

/* Another agent attached to the fixture's service, and the test as it. */
typedef struct
{
  AcpConnection     *peer;
  AcpAgent          *agent;
} OtherAgent;

static OtherAgent *
other_agent_start (Fixture    *f,
                   const char *group)
{
  OtherAgent *other = g_new0 (OtherAgent, 1);

  other->agent = test_agent_new_with_peer (&other->peer);
  acp_agent_set_client_capabilities (other->agent, ACP_CLIENT_CAP_TERMINAL);
  if (group != NULL)
    acp_terminal_service_attach_in_group (f->service, other->agent, group);
  else
    acp_terminal_service_attach (f->service, other->agent);
  test_agent_start (other->agent);

  return other;
}

/* Ends the agent (the test closes its side) and frees. */
static void
other_agent_stop (OtherAgent *other)
{
  test_peer_close (other->peer, other->agent);
  g_clear_object (&other->agent);
  g_clear_object (&other->peer);
  g_free (other);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OtherAgent, other_agent_stop)

/* Two agents may hand out the same session id: each session has its own
 * folder, terminals, release and forgetting. */
static void
test_same_id_two_agents (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(OtherAgent) started = other_agent_start (f, NULL);
  AcpAgent *other = started->agent;
  g_autofree char *other_dir = g_build_filename (f->tmpdir, "other", NULL);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *a_output = NULL;
  g_autofree char *b_output = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *kept = NULL;
  g_auto(GStrv) a_ids = NULL;
  g_auto(GStrv) b_ids = NULL;
  AcpConnection *first_peer = f->peer;

  g_assert_cmpint (g_mkdir (other_dir, 0755), ==, 0);
  acp_terminal_service_set_session_cwd (f->service, other, SESSION, other_dir);

  /* each runs in its own session's folder */
  a = create (f, SESSION, "pwd", "");
  a_output = wait_and_output (f, a, 0, NULL, FALSE);
  expected = g_strdup_printf ("%s\n", f->tmpdir);
  g_assert_cmpstr (a_output, ==, expected);
  f->peer = started->peer;
  b = create (f, SESSION, "pwd", "");
  b_output = wait_and_output (f, b, 0, NULL, FALSE);
  f->peer = first_peer;
  g_free (expected);
  expected = g_strdup_printf ("%s\n", other_dir);
  g_assert_cmpstr (b_output, ==, expected);

  a_ids = acp_terminal_service_dup_terminal_ids (f->service, f->agent, SESSION);
  b_ids = acp_terminal_service_dup_terminal_ids (f->service, other, SESSION);
  g_assert_cmpstrv (a_ids, ((const char *[]) { a, NULL }));
  g_assert_cmpstrv (b_ids, ((const char *[]) { b, NULL }));

  /* releasing and forgetting one leaves the other's */
  acp_terminal_service_release_session (f->service, other, SESSION);
  g_clear_pointer (&a_ids, g_strfreev);
  g_clear_pointer (&b_ids, g_strfreev);
  a_ids = acp_terminal_service_dup_terminal_ids (f->service, f->agent, SESSION);
  b_ids = acp_terminal_service_dup_terminal_ids (f->service, other, SESSION);
  g_assert_cmpuint (g_strv_length (a_ids), ==, 1);
  g_assert_cmpuint (g_strv_length (b_ids), ==, 0);
  acp_terminal_service_forget_session (f->service, other, SESSION);
  g_assert_null (acp_terminal_service_dup_output (f->service, b, NULL, NULL));
  kept = acp_terminal_service_dup_output (f->service, a, NULL, NULL);
  g_assert_nonnull (kept);
}

/* A session that ran on two processes of one agent (the first exited, the
 * second took over) loses the terminals of both when its group forgets it;
 * another group's session of that id, and the group's other sessions, keep
 * theirs. */
static void
test_forget_group_session (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(OtherAgent) later = NULL;
  g_autoptr(OtherAgent) stranger = NULL;
  g_autofree char *first_run = NULL;
  g_autofree char *other_session = NULL;
  g_autofree char *second_run = NULL;
  g_autofree char *strangers = NULL;
  g_autofree char *output = NULL;
  AcpConnection *first_peer = f->peer;

  /* attaching again puts the fixture's agent in a group */
  acp_terminal_service_attach_in_group (f->service, f->agent, "profile");
  acp_terminal_service_set_session_cwd (f->service, f->agent, "sess-2", f->tmpdir);
  first_run = create (f, SESSION, "echo first", "");
  other_session = create (f, "sess-2", "echo other", "");
  WAIT_UNTIL (g_hash_table_contains (f->exited, first_run) &&
              g_hash_table_contains (f->exited, other_session));
  acp_connection_close (f->peer, NULL);
  WAIT_UNTIL (acp_agent_get_state (f->agent) == ACP_AGENT_STATE_EXITED);

  later = other_agent_start (f, "profile");
  acp_terminal_service_set_session_cwd (f->service, later->agent, SESSION, f->tmpdir);
  stranger = other_agent_start (f, "another profile");
  acp_terminal_service_set_session_cwd (f->service, stranger->agent, SESSION, f->tmpdir);
  f->peer = later->peer;
  second_run = create (f, SESSION, "echo second", "");
  f->peer = stranger->peer;
  strangers = create (f, SESSION, "echo stranger", "");
  WAIT_UNTIL (g_hash_table_contains (f->exited, second_run) &&
              g_hash_table_contains (f->exited, strangers));

  acp_terminal_service_forget_group_session (f->service, "profile", SESSION);
  g_assert_null (acp_terminal_service_dup_output (f->service, first_run, NULL, NULL));
  g_assert_null (acp_terminal_service_dup_output (f->service, second_run, NULL, NULL));
  output = acp_terminal_service_dup_output (f->service, strangers, NULL, NULL);
  g_assert_cmpstr (output, ==, "stranger\n");
  g_free (output);
  output = acp_terminal_service_dup_output (f->service, other_session, NULL, NULL);
  g_assert_cmpstr (output, ==, "other\n");

  /* the running agent's folder for the session went too */
  f->peer = later->peer;
  assert_call_error (f, "terminal/create",
                     "{\"sessionId\": \"" SESSION "\", \"command\": \"true\"}",
                     ACP_ERROR_INVALID_PARAMS, "working directory");
  f->peer = first_peer;
}

static void
test_agent_exit (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *a = create (f, SESSION, "sleep 100", "");
  g_autofree char *b = create (f, SESSION, "sleep 100", "");
  int exit_status = 0;

  /* the agent goes away: everything it started ends */
  acp_connection_close (f->peer, NULL);
  WAIT_UNTIL (g_hash_table_contains (f->exited, a) && g_hash_table_contains (f->exited, b));
  g_free (acp_terminal_service_dup_output (f->service, a, NULL, &exit_status));
  g_assert_cmpint (exit_status, ==, 128 + SIGTERM);
}

static void
test_detach (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *a = create (f, SESSION, "sleep 100", "");

  acp_terminal_service_detach (f->service, f->agent);
  WAIT_UNTIL (g_hash_table_contains (f->exited, a));
  assert_call_error (f, "terminal/create", "{\"sessionId\": \"" SESSION "\", \"command\": \"true\"}",
                     ACP_ERROR_METHOD_NOT_FOUND, NULL);
}

static void
test_service_disposed (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *id = create (f, SESSION, "sleep 100 & echo $!; wait", "");
  gint64 pid;

  WAIT_UNTIL (f->live->len > 0);
  pid = g_ascii_strtoll (f->live->str, NULL, 10);
  g_assert_cmpint (pid, >, 1);

  /* the application quits: the commands end with it */
  g_clear_object (&f->service);
  POLL_UNTIL (process_dead (pid));

  assert_call_error (f, "terminal/create", "{\"sessionId\": \"" SESSION "\", \"command\": \"true\"}",
                     ACP_ERROR_METHOD_NOT_FOUND, NULL);
}

static void
test_not_advertised (Fixture       *f,
                     gconstpointer  data)
{
  start_agent (f, ACP_CLIENT_CAP_FS_READ);

  assert_call_error (f, "terminal/create", "{\"sessionId\": \"" SESSION "\", \"command\": \"true\"}",
                     ACP_ERROR_METHOD_NOT_FOUND, NULL);
  g_assert_cmpuint (g_hash_table_size (f->exited), ==, 0);
}

/* }}} */

/* the fake agent, a real process {{{ */

static void
test_fake_agent (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = test_make_tmpdir ("test-terminal-service");
  g_autoptr(AcpAgent) agent = test_fake_agent_new ("terminal.json", NULL);
  g_autoptr(AcpTerminalService) service = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) session = NULL;
  g_autoptr(JsonArray) prompt = json_array_new ();
  g_autoptr(JsonObject) block = json_object_new ();
  g_autofree char *stop_reason = NULL;
  g_autofree char *view = NULL;
  const char *session_id;
  int exit_status;

  acp_agent_set_client_capabilities (agent, ACP_CLIENT_CAP_TERMINAL);
  service = acp_terminal_service_new ();
  acp_terminal_service_attach (service, agent);
  test_agent_start (agent);

  acp_agent_new_session_async (agent, tmpdir, NULL, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  session = acp_agent_new_session_finish (agent, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  session_id = json_object_get_string_member (session, "sessionId");
  acp_terminal_service_set_session_cwd (service, agent, session_id, tmpdir);

  /* the scenario checks every answer itself (exit 3 on a mismatch); the
   * prompt text is the folder the shell line must run in */
  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", tmpdir);
  json_array_add_object_element (prompt, g_steal_pointer (&block));
  acp_agent_prompt_async (agent, session_id, prompt, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_agent_prompt_finish (agent, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_clear_object (&result);

  /* released terminals stay readable for the transcript */
  view = acp_terminal_service_dup_output (service, "terminal-1", NULL, &exit_status);
  g_assert_cmpstr (view, ==, "bar\n");
  g_assert_cmpint (exit_status, ==, 0);

  test_agent_stop (agent);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/terminal-service/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("create/args", test_create_args);
  ADD ("create/shell-line", test_shell_line);
  ADD ("create/env", test_env_entries);
  ADD ("create/errors", test_create_errors);
  ADD ("output/truncation", test_truncation);
  ADD ("output/truncation-large", test_truncation_large);
  ADD ("output/not-utf8", test_output_not_utf8);
  ADD ("output/while-running", test_output_while_running);
  ADD ("exit/code", test_exit_code);
  ADD ("exit/signal", test_exit_signal);
  ADD ("exit/background-child", test_background_child);
  ADD ("kill/keeps-id", test_kill_keeps_id);
  ADD ("kill/escalates", test_kill_escalates);
  ADD ("wait/many-waiters", test_many_waiters);
  ADD ("wait/cancelled", test_wait_cancelled);
  ADD ("release/running", test_release);
  ADD ("release/exited", test_release_exited);
  ADD ("unknown-id", test_unknown_id);
  ADD ("many-terminals", test_many_terminals);
  ADD ("life/release-session", test_release_session);
  ADD ("life/same-id-two-agents", test_same_id_two_agents);
  ADD ("life/forget-group-session", test_forget_group_session);
  ADD ("life/agent-exit", test_agent_exit);
  ADD ("life/detach", test_detach);
  ADD ("life/service-disposed", test_service_disposed);
  g_test_add ("/terminal-service/not-advertised", Fixture, GINT_TO_POINTER (1),
              fixture_setup, test_not_advertised, fixture_teardown);
  g_test_add_func ("/terminal-service/fake-agent", test_fake_agent);

  return g_test_run ();
}
