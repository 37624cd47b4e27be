/* test-agent.c: AcpAgent against the scripted fake agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fake agent (tests/fake-agent, found through $PALAVER_FAKE_AGENT) plays
 * the scenarios of tests/scenarios ($PALAVER_SCENARIO_DIR) or scenarios
 * written here into a temporary directory, and records every line it
 * receives (--record), so a test can check exactly what was sent, or that
 * nothing was.
 */

#include "config.h"

#include <signal.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "acp-agent.h"
#include "acp-process-group.h"
#include "acp-update-private.h"
#include "process-group.h"
#include "test-util.h"

/* fixture {{{ */

typedef struct
{
  char       *tmpdir;
  char       *record;
  AcpAgent   *agent;
  GPtrArray  *updates;          /* AcpUpdate */
  GPtrArray  *protocol_errors;  /* char * */
  guint       exited;
  GPtrArray  *requests;         /* AcpIncomingRequest, answered by the test */
  GPtrArray  *request_sessions; /* char *, "(null)" for none */
  gboolean    handle_requests;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->tmpdir = test_make_tmpdir ("test-agent");
  f->record = g_build_filename (f->tmpdir, "record.jsonl", NULL);
  f->updates = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_update_unref);
  f->protocol_errors = g_ptr_array_new_with_free_func (g_free);
  f->requests = g_ptr_array_new_with_free_func (g_object_unref);
  f->request_sessions = g_ptr_array_new_with_free_func (g_free);
  f->handle_requests = TRUE;
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->agent != NULL && acp_agent_get_state (f->agent) != ACP_AGENT_STATE_EXITED)
    {
      g_autoptr(GAsyncResult) result = NULL;

      acp_agent_set_stop_grace_period (f->agent, 200);
      acp_agent_stop_async (f->agent, NULL, test_store_result_cb, &result);
      WAIT_UNTIL (result != NULL);
    }

  g_clear_object (&f->agent);
  g_clear_pointer (&f->updates, g_ptr_array_unref);
  g_clear_pointer (&f->protocol_errors, g_ptr_array_unref);
  g_clear_pointer (&f->requests, g_ptr_array_unref);
  g_clear_pointer (&f->request_sessions, g_ptr_array_unref);
  g_free (f->tmpdir);
  g_free (f->record);
}

static void
update_cb (AcpAgent  *agent,
           AcpUpdate *update,
           Fixture   *f)
{
  g_ptr_array_add (f->updates, acp_update_ref (update));
}

static void
protocol_error_cb (AcpAgent     *agent,
                   const GError *error,
                   Fixture      *f)
{
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  g_ptr_array_add (f->protocol_errors, g_strdup (error->message));
}

static void
exited_cb (AcpAgent *agent,
           Fixture  *f)
{
  g_assert_cmpint (acp_agent_get_state (agent), ==, ACP_AGENT_STATE_EXITED);
  g_assert_nonnull (acp_agent_get_exit_error (agent));
  f->exited++;
}

static gboolean
request_cb (AcpAgent           *agent,
            const char         *session_id,
            AcpIncomingRequest *request,
            Fixture            *f)
{
  if (!f->handle_requests)
    return FALSE;

  g_ptr_array_add (f->requests, g_object_ref (request));
  g_ptr_array_add (f->request_sessions, g_strdup (session_id != NULL ? session_id : "(null)"));

  return TRUE;
}

static void
connect_agent (Fixture *f)
{
  g_signal_connect (f->agent, "update", G_CALLBACK (update_cb), f);
  g_signal_connect (f->agent, "protocol-error", G_CALLBACK (protocol_error_cb), f);
  g_signal_connect (f->agent, "exited", G_CALLBACK (exited_cb), f);
  g_signal_connect (f->agent, "request", G_CALLBACK (request_cb), f);
}

/* Builds (not starts) an agent for @scenario (a name in the scenario dir or
 * an absolute path), recording into f->record. */
static void
create_agent (Fixture    *f,
              const char *scenario)
{
  const char *record[] = { "--record", f->record, NULL };

  g_assert_null (f->agent);
  f->agent = test_fake_agent_new (scenario, record);
  connect_agent (f);
}

/* Builds an agent for @scenario started through tests/agent-wrapper.sh: a
 * script that does not exec it and leaves a child of its own behind, which
 * ignores SIGTERM. */
static void
create_wrapped_agent (Fixture    *f,
                      const char *scenario)
{
  const char *wrapper = g_getenv ("PALAVER_AGENT_WRAPPER");
  const char *argv[] = { "/bin/sh", wrapper, test_fake_agent_path (), scenario,
                         "--record", f->record, NULL };
  g_autofree char *pid_file = g_build_filename (f->tmpdir, "leftover.pid", NULL);
  g_autofree char *pid_env = g_strconcat ("LEFTOVER_PID_FILE=", pid_file, NULL);
  const char *env[] = { pid_env, NULL };

  g_assert_nonnull (wrapper);
  g_assert_null (f->agent);
  f->agent = acp_agent_new (argv, env, NULL);
  acp_agent_set_stop_grace_period (f->agent, 200);
  connect_agent (f);
}

/* Returns: the pid of the helper that tests/agent-wrapper.sh left behind */
static GPid
leftover_pid (Fixture *f)
{
  g_autofree char *pid_file = g_build_filename (f->tmpdir, "leftover.pid", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  GPid pid;

  g_file_get_contents (pid_file, &contents, NULL, &error);
  g_assert_no_error (error);
  pid = atoi (contents);
  g_assert_cmpint (pid, >, 1);

  return pid;
}

static GError *
start_agent_error (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  GError *error = NULL;

  acp_agent_start_async (f->agent, NULL, test_store_result_cb, &result);
  /* EXITED at once when the command cannot be spawned */
  g_assert_cmpint (acp_agent_get_state (f->agent), !=, ACP_AGENT_STATE_NEW);
  WAIT_UNTIL (result != NULL);

  if (acp_agent_start_finish (f->agent, result, &error))
    g_assert_no_error (error);

  return error;
}

static void
start_agent (Fixture    *f,
             const char *scenario)
{
  g_autoptr(GError) error = NULL;

  create_agent (f, scenario);
  error = start_agent_error (f);
  g_assert_no_error (error);
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_READY);
}

/* Writes a scenario into the fixture's directory and returns its path.
 * For legibility, the scenarios here quote with ' (none contains one). */
static char *
write_scenario (Fixture    *f,
                const char *name,
                const char *json)
{
  g_autofree char *path = g_build_filename (f->tmpdir, name, NULL);
  g_autofree char *text = g_strdelimit (g_strdup (json), "'", '"');
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

/* Every message the fake agent received, parsed. */
static GPtrArray *
read_record (Fixture *f)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *messages = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  g_file_get_contents (f->record, &contents, NULL, &error);
  g_assert_no_error (error);

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      JsonNode *node;

      if (*lines[i] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_ptr_array_add (messages, node);
    }

  return messages;
}

static const char *
message_method (JsonNode *message)
{
  JsonObject *object = json_node_get_object (message);

  return json_object_get_string_member_with_default (object, "method", NULL);
}

/* The methods of every recorded message, joined with spaces. */
static char *
record_methods (Fixture *f)
{
  g_autoptr(GPtrArray) messages = read_record (f);
  g_autoptr(GString) methods = g_string_new (NULL);

  for (guint i = 0; i < messages->len; i++)
    {
      const char *method = message_method (g_ptr_array_index (messages, i));

      if (methods->len > 0)
        g_string_append_c (methods, ' ');
      g_string_append (methods, method != NULL ? method : "(response)");
    }

  return g_string_free (g_steal_pointer (&methods), FALSE);
}

/* The params of the last recorded message with @method. */
static JsonNode *
record_params (Fixture    *f,
               const char *method)
{
  g_autoptr(GPtrArray) messages = read_record (f);

  for (guint i = messages->len; i > 0; i--)
    {
      JsonNode *message = g_ptr_array_index (messages, i - 1);

      if (g_strcmp0 (message_method (message), method) == 0)
        {
          JsonObject *object = json_node_get_object (message);

          g_assert_cmpstr (json_object_get_string_member (object, "jsonrpc"), ==, "2.0");
          g_assert_true (json_object_has_member (object, "params"));
          return json_node_copy (json_object_get_member (object, "params"));
        }
    }

  g_error ("No %s in the record", method);
  return NULL;
}

/* JSON written with ' for " (for legibility; no string here has a ') */
static JsonNode *
parse_json (const char *json)
{
  g_autofree char *text = g_strdelimit (g_strdup (json), "'", '"');
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);

  return node;
}

static void
assert_json_equal (JsonNode   *node,
                   const char *expected)
{
  g_autoptr(JsonNode) expected_node = parse_json (expected);

  g_assert_nonnull (node);  /* a member that is missing */
  g_assert_nonnull (expected_node);
  if (!json_node_equal (node, expected_node))
    {
      g_autofree char *actual = json_to_string (node, FALSE);

      g_error ("JSON differs:\n  actual   %s\n  expected %s", actual, expected);
    }
}

static void
assert_params (Fixture    *f,
               const char *method,
               const char *expected)
{
  g_autoptr(JsonNode) params = record_params (f, method);

  assert_json_equal (params, expected);
}

static char *
new_session (Fixture   *f,
             GPtrArray *servers)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) session = NULL;

  acp_agent_new_session_async (f->agent, "/tmp", servers, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  session = acp_agent_new_session_finish (f->agent, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);

  return g_strdup (json_object_get_string_member (session, "sessionId"));
}

static JsonArray *
text_prompt (const char *text)
{
  JsonArray *prompt = json_array_new ();
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  json_array_add_object_element (prompt, block);

  return prompt;
}

static void
prompt_async (Fixture       *f,
              const char    *session_id,
              GAsyncResult **result)
{
  g_autoptr(JsonArray) prompt = text_prompt ("Hello");

  acp_agent_prompt_async (f->agent, session_id, prompt, NULL, test_store_result_cb, result);
}

static char *
prompt_finish (Fixture       *f,
               GAsyncResult **slot,
               GError       **error)
{
  g_autoptr(GAsyncResult) result = WAIT_RESULT (slot);

  return acp_agent_prompt_finish (f->agent, result, error);
}

static void
stop_agent (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  acp_agent_stop_async (f->agent, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_agent_stop_finish (f->agent, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_EXITED);
  g_assert_cmpuint (f->exited, ==, 1);
}

static void
assert_error_mentions (const GError *error,
                       const char   *needle)
{
  g_assert_nonnull (error);
  if (strstr (error->message, needle) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, needle);
}

/* }}} */

/* handshake {{{ */

static void
test_handshake_basic (Fixture       *f,
                      gconstpointer  data)
{
  AcpAgentCapabilities expected = ACP_AGENT_CAP_LOAD_SESSION |
                                  ACP_AGENT_CAP_PROMPT_IMAGE |
                                  ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT |
                                  ACP_AGENT_CAP_SESSION_LIST |
                                  ACP_AGENT_CAP_SESSION_RESUME |
                                  ACP_AGENT_CAP_SESSION_CLOSE;
  g_autoptr(GPtrArray) messages = NULL;
  g_autofree char *expected_init = NULL;
  JsonObject *first;

  create_agent (f, "basic.json");
  acp_agent_set_client_capabilities (f->agent, ACP_CLIENT_CAP_FS_READ | ACP_CLIENT_CAP_TERMINAL);
  {
    g_autoptr(GError) error = start_agent_error (f);
    g_assert_no_error (error);
  }

  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_READY);
  g_assert_cmpuint (acp_agent_get_protocol_version (f->agent), ==, 1);
  g_assert_cmphex (acp_agent_get_capabilities (f->agent), ==, expected);
  g_assert_true (acp_agent_has_capability (f->agent, ACP_AGENT_CAP_LOAD_SESSION));
  g_assert_true (acp_agent_has_capability (f->agent, ACP_AGENT_CAP_SESSION_LIST |
                                                     ACP_AGENT_CAP_SESSION_CLOSE));
  g_assert_true (acp_agent_supports_mcp_transport (f->agent, ACP_MCP_TRANSPORT_STDIO));
  g_assert_true (acp_agent_supports_mcp_transport (f->agent, ACP_MCP_TRANSPORT_HTTP));
  g_assert_false (acp_agent_supports_mcp_transport (f->agent, ACP_MCP_TRANSPORT_SSE));
  g_assert_false (acp_agent_has_capability (f->agent, ACP_AGENT_CAP_SESSION_DELETE));
  g_assert_nonnull (acp_agent_get_capabilities_object (f->agent));
  g_assert_true (json_object_get_boolean_member (acp_agent_get_capabilities_object (f->agent),
                                                 "loadSession"));
  g_assert_cmpstr (acp_agent_get_agent_name (f->agent), ==, "fake-agent");
  g_assert_cmpstr (acp_agent_get_agent_title (f->agent), ==, "Fake Agent");
  g_assert_cmpstr (acp_agent_get_agent_version (f->agent), ==, "1.0");
  g_assert_cmpuint (acp_agent_get_auth_methods (f->agent)->len, ==, 0);
  g_assert_nonnull (acp_agent_get_connection (f->agent));

  /* exactly what the agent received */
  messages = read_record (f);
  g_assert_cmpuint (messages->len, ==, 1);
  first = json_node_get_object (g_ptr_array_index (messages, 0));
  g_assert_cmpstr (json_object_get_string_member (first, "jsonrpc"), ==, "2.0");
  g_assert_cmpstr (json_object_get_string_member (first, "method"), ==, "initialize");
  g_assert_true (json_object_has_member (first, "id"));
  g_assert_cmpuint (json_object_get_size (first), ==, 4);
  expected_init = g_strdup_printf ("{'protocolVersion':1,"
                                   "'clientCapabilities':{'fs':{'readTextFile':true,"
                                   "'writeTextFile':false},'terminal':true},"
                                   "'clientInfo':{'name':'palaver','title':'Palaver',"
                                   "'version':'%s'}}", PACKAGE_VERSION);
  assert_params (f, "initialize", expected_init);

  stop_agent (f);
}

static void
test_handshake_minimal (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *expected_init = NULL;

  start_agent (f, "minimal.json");

  g_assert_cmphex (acp_agent_get_capabilities (f->agent), ==, ACP_AGENT_CAP_NONE);
  g_assert_nonnull (acp_agent_get_capabilities_object (f->agent));
  g_assert_cmpuint (json_object_get_size (acp_agent_get_capabilities_object (f->agent)), ==, 0);
  g_assert_null (acp_agent_get_agent_name (f->agent));
  g_assert_null (acp_agent_get_agent_title (f->agent));
  g_assert_null (acp_agent_get_agent_version (f->agent));
  g_assert_cmpuint (acp_agent_get_auth_methods (f->agent)->len, ==, 0);

  /* no client capabilities: fs and terminal are still sent, all false */
  expected_init = g_strdup_printf ("{'protocolVersion':1,"
                                   "'clientCapabilities':{'fs':{'readTextFile':false,"
                                   "'writeTextFile':false},'terminal':false},"
                                   "'clientInfo':{'name':'palaver','title':'Palaver',"
                                   "'version':'%s'}}", PACKAGE_VERSION);
  assert_params (f, "initialize", expected_init);
}

static void
test_handshake_every_capability (Fixture       *f,
                                 gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "all.json",
    "{'handlers': {'initialize': [{'op': 'result', 'result': {"
    "  'protocolVersion': 1,"
    "  'agentCapabilities': {"
    "    'loadSession': true,"
    "    'promptCapabilities': {'image': true, 'audio': true, 'embeddedContext': true},"
    "    'mcpCapabilities': {'http': true, 'sse': true},"
    "    'sessionCapabilities': {'list': {}, 'resume': {}, 'close': {}, 'delete': {},"
    "                              'additionalDirectories': {}},"
    "    'auth': {'logout': {}}},"
    "  'agentInfo': {'name': 'all', 'version': '2.0'},"
    "  'authMethods': ["
    "    {'id': 'login', 'name': 'Log in', 'description': 'With a browser'},"
    "    {'id': 'tui', 'name': 'Terminal', 'type': 'terminal',"
    "     'args': ['--login', 7, '--tui'], 'env': {'MODE': 'auth', 'BAD': 1}},"
    "    {'id': 'key', 'name': 'API key', 'type': 'env_var', 'link': 'https://example.com/keys',"
    "     'vars': [{'name': 'EXAMPLE_API_KEY', 'label': 'Key'},"
    "              {'name': 'EXAMPLE_ORG', 'optional': true, 'secret': false},"
    "              {'name': 'BAD NAME'}, {'name': '1ST'}, {'label': 'no name'}, 'string', null]},"
    "    {'id': 'nameless'},"
    "    {'id': 5, 'name': 'numeric id'},"
    "    {'id': 'typed', 'name': 'bad type', 'type': 3},"
    "    'not an object',"
    "    {'id': 'null-type', 'name': 'Null type', 'type': null}"
    "  ]}}]}}");
  AcpAgentCapabilities all = ACP_AGENT_CAP_LOAD_SESSION | ACP_AGENT_CAP_SESSION_LIST |
                             ACP_AGENT_CAP_SESSION_RESUME | ACP_AGENT_CAP_SESSION_CLOSE |
                             ACP_AGENT_CAP_SESSION_DELETE | ACP_AGENT_CAP_ADDITIONAL_DIRECTORIES |
                             ACP_AGENT_CAP_PROMPT_IMAGE | ACP_AGENT_CAP_PROMPT_AUDIO |
                             ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT | ACP_AGENT_CAP_LOGOUT;
  const char *tui_args[] = { "--login", "--tui", NULL };
  const char *tui_env[] = { "MODE=auth", NULL };
  GPtrArray *methods;
  AcpAuthMethod *method;

  create_agent (f, scenario);
  acp_agent_set_client_capabilities (f->agent,
                                     ACP_CLIENT_CAP_FS_READ | ACP_CLIENT_CAP_FS_WRITE |
                                     ACP_CLIENT_CAP_TERMINAL | ACP_CLIENT_CAP_BOOLEAN_CONFIG |
                                     ACP_CLIENT_CAP_AUTH_TERMINAL | ACP_CLIENT_CAP_PLAN);
  g_assert_cmphex (acp_agent_get_client_capabilities (f->agent), ==, 0x3f);
  {
    g_autoptr(GError) error = start_agent_error (f);
    g_assert_no_error (error);
  }

  g_assert_cmphex (acp_agent_get_capabilities (f->agent), ==, all);
  g_assert_true (acp_agent_supports_mcp_transport (f->agent, ACP_MCP_TRANSPORT_HTTP));
  g_assert_true (acp_agent_supports_mcp_transport (f->agent, ACP_MCP_TRANSPORT_SSE));
  g_assert_cmpstr (acp_agent_get_agent_name (f->agent), ==, "all");
  g_assert_null (acp_agent_get_agent_title (f->agent));
  g_assert_cmpstr (acp_agent_get_agent_version (f->agent), ==, "2.0");

  methods = acp_agent_get_auth_methods (f->agent);
  g_assert_cmpuint (methods->len, ==, 4);

  method = g_ptr_array_index (methods, 0);
  g_assert_cmpstr (acp_auth_method_get_id (method), ==, "login");
  g_assert_cmpstr (acp_auth_method_get_name (method), ==, "Log in");
  g_assert_cmpstr (acp_auth_method_get_description (method), ==, "With a browser");
  g_assert_cmpstr (acp_auth_method_get_kind (method), ==, "agent");
  g_assert_cmpuint (g_strv_length ((char **) acp_auth_method_get_terminal_args (method)), ==, 0);

  method = g_ptr_array_index (methods, 1);
  g_assert_cmpstr (acp_auth_method_get_id (method), ==, "tui");
  g_assert_null (acp_auth_method_get_description (method));
  g_assert_cmpstr (acp_auth_method_get_kind (method), ==, "terminal");
  g_assert_true (g_strv_equal (acp_auth_method_get_terminal_args (method), tui_args));
  g_assert_true (g_strv_equal (acp_auth_method_get_terminal_env (method), tui_env));

  method = g_ptr_array_index (methods, 2);
  g_assert_cmpstr (acp_auth_method_get_kind (method), ==, "env_var");
  g_assert_cmpstr (acp_auth_method_get_link (method), ==, "https://example.com/keys");
  /* variables with a usable name only; secret and required unless said otherwise */
  g_assert_cmpuint (acp_auth_method_get_n_vars (method), ==, 2);
  g_assert_cmpstr (acp_auth_method_get_var (method, 0)->name, ==, "EXAMPLE_API_KEY");
  g_assert_cmpstr (acp_auth_method_get_var (method, 0)->label, ==, "Key");
  g_assert_true (acp_auth_method_get_var (method, 0)->secret);
  g_assert_false (acp_auth_method_get_var (method, 0)->optional);
  g_assert_cmpstr (acp_auth_method_get_var (method, 1)->name, ==, "EXAMPLE_ORG");
  g_assert_null (acp_auth_method_get_var (method, 1)->label);
  g_assert_false (acp_auth_method_get_var (method, 1)->secret);
  g_assert_true (acp_auth_method_get_var (method, 1)->optional);
  g_assert_cmpuint (acp_auth_method_get_n_vars (g_ptr_array_index (methods, 0)), ==, 0);

  method = g_ptr_array_index (methods, 3);
  g_assert_cmpstr (acp_auth_method_get_id (method), ==, "null-type");
  g_assert_cmpstr (acp_auth_method_get_kind (method), ==, "agent");

  g_assert_true (acp_agent_get_auth_method (f->agent, "tui") == g_ptr_array_index (methods, 1));
  g_assert_null (acp_agent_get_auth_method (f->agent, "nameless"));

  /* the boolean config option capability is advertised */
  {
    g_autoptr(JsonNode) params = record_params (f, "initialize");
    JsonObject *caps = json_object_get_object_member (json_node_get_object (params),
                                                      "clientCapabilities");

    assert_json_equal (json_object_get_member (caps, "fs"),
                       "{'readTextFile':true,'writeTextFile':true}");
    g_assert_true (json_object_get_boolean_member (caps, "terminal"));
    assert_json_equal (json_object_get_member (caps, "session"),
                       "{'configOptions':{'boolean':{}}}");
    /* terminal sign-in methods can be run */
    assert_json_equal (json_object_get_member (caps, "auth"), "{'terminal':true}");
    /* plans by id are shown */
    assert_json_equal (json_object_get_member (caps, "plan"), "{}");
  }
}

static void
test_handshake_wrong_types (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "wrong.json",
    "{'handlers': {'initialize': [{'op': 'result', 'result': {"
    "  'protocolVersion': 1,"
    "  'agentCapabilities': {"
    "    'loadSession': 'yes',"
    "    'promptCapabilities': {'image': 1, 'audio': null, 'embeddedContext': 'true'},"
    "    'mcpCapabilities': {'http': {}, 'sse': [true]},"
    "    'sessionCapabilities': {'list': true, 'resume': null, 'close': [], 'delete': '{}',"
    "                              'additionalDirectories': 1},"
    "    'auth': {'logout': true}},"
    "  'agentInfo': {'name': 3, 'title': ['x'], 'version': '0.1'},"
    "  'authMethods': {'id': 'not-an-array', 'name': 'x'}"
    "}}]}}");

  start_agent (f, scenario);

  g_assert_cmphex (acp_agent_get_capabilities (f->agent), ==, ACP_AGENT_CAP_NONE);
  g_assert_null (acp_agent_get_agent_name (f->agent));
  g_assert_null (acp_agent_get_agent_title (f->agent));
  g_assert_cmpstr (acp_agent_get_agent_version (f->agent), ==, "0.1");
  g_assert_cmpuint (acp_agent_get_auth_methods (f->agent)->len, ==, 0);
}

static void
test_handshake_protocol_version (Fixture       *f,
                                 gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "v2.json",
    "{'handlers': {'initialize': [{'op': 'result', 'result': {'protocolVersion': 2}}]}}");
  g_autoptr(GError) error = NULL;

  create_agent (f, scenario);
  error = start_agent_error (f);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_PROTOCOL_VERSION);
  assert_error_mentions (error, "2");

  /* the agent is stopped */
  WAIT_UNTIL (f->exited == 1);
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_EXITED);
  g_assert_true (WIFEXITED (acp_agent_get_exit_status (f->agent)));
  g_assert_cmpint (WEXITSTATUS (acp_agent_get_exit_status (f->agent)), ==, 0);
}

static void
test_handshake_bad_version_type (Fixture       *f,
                                 gconstpointer  data)
{
  const char *bodies[] = {
    "{'protocolVersion': '1'}",
    "{'protocolVersion': 1.5}",
    "{'agentCapabilities': {}}",
    "[1]",
    "null",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      g_autofree char *name = g_strdup_printf ("bad-%u.json", i);
      g_autofree char *json = g_strdup_printf ("{'handlers': {'initialize': "
                                               "[{'op': 'result', 'result': %s}]}}", bodies[i]);
      g_autofree char *scenario = write_scenario (f, name, json);
      g_autoptr(GError) error = NULL;

      create_agent (f, scenario);
      error = start_agent_error (f);
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
      WAIT_UNTIL (f->exited == 1);

      g_clear_object (&f->agent);
      f->exited = 0;
    }
}

/* }}} */

/* gating {{{ */

typedef enum
{
  CALL_LOAD,
  CALL_RESUME,
  CALL_CLOSE,
  CALL_LIST,
  CALL_DELETE,
  CALL_FORK,
  CALL_LOGOUT,
} GatedCall;

static GError *
run_gated_call (Fixture   *f,
                GatedCall  call)
{
  g_autoptr(GAsyncResult) result = NULL;
  GError *error = NULL;
  gpointer ret = NULL;

  switch (call)
    {
    case CALL_LOAD:
      acp_agent_load_session_async (f->agent, "s", "/tmp", NULL, NULL,
                                    NULL, test_store_result_cb, &result);
      break;
    case CALL_RESUME:
      acp_agent_resume_session_async (f->agent, "s", "/tmp", NULL, NULL,
                                      NULL, test_store_result_cb, &result);
      break;
    case CALL_CLOSE:
      acp_agent_close_session_async (f->agent, "s", NULL, test_store_result_cb, &result);
      break;
    case CALL_LIST:
      acp_agent_list_sessions_async (f->agent, NULL, NULL, NULL, test_store_result_cb, &result);
      break;
    case CALL_DELETE:
      acp_agent_delete_session_async (f->agent, "s", NULL, test_store_result_cb, &result);
      break;
    case CALL_FORK:
      acp_agent_fork_session_async (f->agent, "s", "/tmp", NULL, NULL,
                                    NULL, test_store_result_cb, &result);
      break;
    case CALL_LOGOUT:
      acp_agent_logout_async (f->agent, NULL, test_store_result_cb, &result);
      break;
    default:
      g_assert_not_reached ();
    }

  WAIT_UNTIL (result != NULL);

  switch (call)
    {
    case CALL_LOAD:
      ret = acp_agent_load_session_finish (f->agent, result, &error);
      break;
    case CALL_RESUME:
      ret = acp_agent_resume_session_finish (f->agent, result, &error);
      break;
    case CALL_CLOSE:
      ret = GINT_TO_POINTER (acp_agent_close_session_finish (f->agent, result, &error));
      break;
    case CALL_LIST:
      ret = acp_agent_list_sessions_finish (f->agent, result, &error);
      break;
    case CALL_DELETE:
      ret = GINT_TO_POINTER (acp_agent_delete_session_finish (f->agent, result, &error));
      break;
    case CALL_FORK:
      ret = acp_agent_fork_session_finish (f->agent, result, &error);
      break;
    case CALL_LOGOUT:
      ret = GINT_TO_POINTER (acp_agent_logout_finish (f->agent, result, &error));
      break;
    default:
      g_assert_not_reached ();
    }

  g_assert_null (ret);

  return error;
}

static GError *
new_session_error (Fixture            *f,
                   GPtrArray          *servers,
                   const char * const *dirs)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) session = NULL;
  GError *error = NULL;

  acp_agent_new_session_async (f->agent, "/tmp", servers, dirs, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  session = acp_agent_new_session_finish (f->agent, result, &error);
  g_assert_null (session);

  return error;
}

static void
test_gating_minimal (Fixture       *f,
                     gconstpointer  data)
{
  struct {
    GatedCall   call;
    const char *method;
    const char *capability;
  } cases[] = {
    { CALL_LOAD, "session/load", "loadSession" },
    { CALL_RESUME, "session/resume", "sessionCapabilities.resume" },
    { CALL_CLOSE, "session/close", "sessionCapabilities.close" },
    { CALL_LIST, "session/list", "sessionCapabilities.list" },
    { CALL_DELETE, "session/delete", "sessionCapabilities.delete" },
    { CALL_FORK, "session/fork", "sessionCapabilities.fork" },
    { CALL_LOGOUT, "logout", "auth.logout" },
  };
  g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AcpMcpServer) http = acp_mcp_server_new_http ("remote-tools",
                                                          "https://example.org/mcp");
  g_autoptr(AcpMcpServer) stdio = acp_mcp_server_new_stdio ("local", "/bin/cat", NULL);
  g_autofree char *session_id = NULL;
  g_autofree char *methods = NULL;

  start_agent (f, "minimal.json");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = run_gated_call (f, cases[i].call);

      g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
      assert_error_mentions (error, cases[i].method);
      assert_error_mentions (error, cases[i].capability);
    }

  /* an http MCP server without mcpCapabilities.http */
  g_ptr_array_add (servers, g_object_ref (stdio));
  g_ptr_array_add (servers, g_object_ref (http));
  {
    g_autoptr(GError) error = new_session_error (f, servers, NULL);

    g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
    assert_error_mentions (error, "remote-tools");
    assert_error_mentions (error, "http");
  }
  g_assert_true (acp_agent_can_use_mcp_server (f->agent, stdio));
  g_assert_false (acp_agent_can_use_mcp_server (f->agent, http));

  /* additional directories without the capability */
  {
    const char *dirs[] = { "/srv", NULL };
    g_autoptr(GError) error = new_session_error (f, NULL, dirs);

    g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
    assert_error_mentions (error, "additionalDirectories");
  }

  /* a boolean config value without advertising the client capability */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);
    g_autoptr(JsonArray) options = NULL;

    json_node_set_boolean (value, TRUE);
    acp_agent_set_config_option_async (f->agent, "s", "thinking", value,
                                       NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    options = acp_agent_set_config_option_finish (f->agent, result, &error);
    g_assert_null (options);
    g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
  }

  /* none of that was written: the next message after initialize is the
   * session/new that is allowed */
  session_id = new_session (f, NULL);
  g_assert_cmpstr (session_id, ==, "fake-session-1");
  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new");
}

static void
test_gating_mcp_basic (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AcpMcpServer) sse = acp_mcp_server_new_sse ("events", "https://example.org/sse");
  g_autoptr(AcpMcpServer) http = acp_mcp_server_new_http ("remote", "https://example.org/mcp");
  g_autoptr(AcpMcpServer) bad = acp_mcp_server_new_stdio ("broken", "relative/cmd", NULL);
  const char *args[] = { "--stdio", NULL };
  g_autoptr(AcpMcpServer) stdio = acp_mcp_server_new_stdio ("files", "/usr/bin/mcp-files", args);
  g_autofree char *session_id = NULL;
  g_autofree char *methods = NULL;

  acp_mcp_server_add_header (http, "Authorization", "Bearer t");
  acp_mcp_server_add_env (stdio, "ROOT", "/tmp");

  start_agent (f, "basic.json");

  g_assert_true (acp_agent_can_use_mcp_server (f->agent, http));
  g_assert_true (acp_agent_can_use_mcp_server (f->agent, stdio));
  g_assert_false (acp_agent_can_use_mcp_server (f->agent, sse));
  g_assert_false (acp_agent_can_use_mcp_server (f->agent, bad));

  /* sse: false */
  g_ptr_array_add (servers, g_object_ref (http));
  g_ptr_array_add (servers, g_object_ref (sse));
  {
    g_autoptr(GError) error = new_session_error (f, servers, NULL);

    g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
    assert_error_mentions (error, "events");
    assert_error_mentions (error, "sse");
  }

  /* an invalid server is refused too */
  g_ptr_array_set_size (servers, 0);
  g_ptr_array_add (servers, g_object_ref (bad));
  {
    g_autoptr(GError) error = new_session_error (f, servers, NULL);

    g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT);
    assert_error_mentions (error, "broken");
    assert_error_mentions (error, "command");
  }

  /* http passes and is sent exactly */
  g_ptr_array_set_size (servers, 0);
  g_ptr_array_add (servers, g_object_ref (http));
  g_ptr_array_add (servers, g_object_ref (stdio));
  session_id = new_session (f, servers);
  g_assert_cmpstr (session_id, ==, "fake-session-1");

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new");
  assert_params (f, "session/new",
                 "{'cwd':'/tmp','mcpServers':["
                 "{'type':'http','name':'remote','url':'https://example.org/mcp',"
                 "'headers':[{'name':'Authorization','value':'Bearer t'}]},"
                 "{'name':'files','command':'/usr/bin/mcp-files','args':['--stdio'],"
                 "'env':[{'name':'ROOT','value':'/tmp'}]}]}");
}

static void
test_additional_directories (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "dirs.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1,"
    "   'agentCapabilities': {'loadSession': true,"
    "     'sessionCapabilities': {'additionalDirectories': {}, 'resume': {}}}}}],"
    " 'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    " 'session/load': [{'op': 'result', 'result': {}}],"
    " 'session/resume': [{'op': 'result', 'result': {'modes': null}}]"
    "}}");
  const char *dirs[] = { "/srv/a", "/srv/b", NULL };
  const char *relative[] = { "srv", NULL };
  const char *empty[] = { NULL };

  start_agent (f, scenario);

  {
    g_autoptr(GError) error = new_session_error (f, NULL, relative);

    g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT);
  }

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) session = NULL;

    acp_agent_new_session_async (f->agent, "/tmp", NULL, dirs, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    session = acp_agent_new_session_finish (f->agent, result, &error);
    g_assert_no_error (error);
  }
  assert_params (f, "session/new",
                 "{'cwd':'/tmp','mcpServers':[],'additionalDirectories':['/srv/a','/srv/b']}");

  /* an empty list is left out */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) loaded = NULL;

    acp_agent_load_session_async (f->agent, "old", "/tmp", NULL, empty,
                                  NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    loaded = acp_agent_load_session_finish (f->agent, result, &error);
    g_assert_no_error (error);
  }
  assert_params (f, "session/load", "{'sessionId':'old','cwd':'/tmp','mcpServers':[]}");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) resumed = NULL;

    acp_agent_resume_session_async (f->agent, "old", "/tmp", NULL, dirs,
                                    NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    resumed = acp_agent_resume_session_finish (f->agent, result, &error);
    g_assert_no_error (error);
    g_assert_true (json_object_has_member (resumed, "modes"));
  }
  assert_params (f, "session/resume",
                 "{'sessionId':'old','cwd':'/tmp','mcpServers':[],"
                 "'additionalDirectories':['/srv/a','/srv/b']}");
}

/* }}} */

/* failures of the process {{{ */

static void
test_exit_on_start (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tail = NULL;
  int status;

  create_agent (f, "exit-on-start.json");
  error = start_agent_error (f);

  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  assert_error_mentions (error, "exited with status 7");
  assert_error_mentions (error, "fatal: cannot find config");

  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_EXITED);
  g_assert_cmpuint (f->exited, ==, 1);
  status = acp_agent_get_exit_status (f->agent);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 7);
  g_assert_error (acp_agent_get_exit_error (f->agent), ACP_ERROR, ACP_ERROR_AGENT_EXITED);

  tail = acp_agent_dup_stderr_tail (f->agent);
  g_assert_cmpstr (tail, ==, "fatal: cannot find config\n");

  /* calls on an exited agent fail with the reason */
  {
    g_autoptr(GError) call_error = new_session_error (f, NULL, NULL);

    g_assert_error (call_error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
    assert_error_mentions (call_error, "status 7");
  }
}

static void
test_hang_initialize (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  create_agent (f, "hang-initialize.json");
  acp_agent_set_initialize_timeout (f->agent, 300);
  error = start_agent_error (f);

  g_assert_error (error, ACP_ERROR, ACP_ERROR_TIMEOUT);
  assert_error_mentions (error, "initialize");

  /* and the agent is stopped (it exits at EOF) */
  WAIT_UNTIL (f->exited == 1);
  g_assert_true (WIFEXITED (acp_agent_get_exit_status (f->agent)));
}

static void
test_start_cancelled (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  create_agent (f, "hang-initialize.json");
  acp_agent_start_async (f->agent, cancellable, test_store_result_cb, &result);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (result != NULL);

  g_assert_false (acp_agent_start_finish (f->agent, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  WAIT_UNTIL (f->exited == 1);
}

static void
test_spawn_failed (Fixture       *f,
                   gconstpointer  data)
{
  const char *argv[] = { "palaver-no-such-agent-here", "--acp", NULL };
  g_autoptr(GError) error = NULL;

  f->agent = acp_agent_new (argv, NULL, NULL);
  connect_agent (f);
  error = start_agent_error (f);

  g_assert_error (error, ACP_ERROR, ACP_ERROR_SPAWN_FAILED);
  assert_error_mentions (error, "palaver-no-such-agent-here");
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_EXITED);
  g_assert_cmpint (acp_agent_get_exit_status (f->agent), ==, -1);
}

static void
test_env_and_cwd (Fixture       *f,
                  gconstpointer  data)
{
  /* "sh" is found on PATH; the environment addition and the working
   * directory show up in the exit error through stderr */
  const char *argv[] = {
    "sh", "-c", "echo \"var=$PALAVER_TEST_VAR cwd=$(pwd)\" >&2; exit 3", NULL
  };
  const char *env[] = { "PALAVER_TEST_VAR=hello world", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *cwd = NULL;

  cwd = realpath (f->tmpdir, NULL);
  f->agent = acp_agent_new (argv, env, cwd);
  connect_agent (f);
  error = start_agent_error (f);

  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  assert_error_mentions (error, "status 3");
  expected = g_strdup_printf ("var=hello world cwd=%s", cwd);
  assert_error_mentions (error, expected);
}

/* A program that is not an ACP agent (the CLI rather than its ACP adapter)
 * writes words on its standard output: the exit error quotes the first
 * line, before its error output. (This one reads the initialize request
 * first: one that exits before reading it makes the write fail, which
 * closes the connection before the line is read.) */
static void
test_not_an_agent (Fixture       *f,
                   gconstpointer  data)
{
  const char *argv[] = {
    "sh", "-c",
    "read request; echo 'Usage: tool [options] <file>'; echo 'more help'; echo 'unknown option' >&2; exit 2",
    NULL
  };
  g_autoptr(GError) error = NULL;
  const char *quoted;
  const char *tail;

  f->agent = acp_agent_new (argv, NULL, NULL);
  connect_agent (f);
  error = start_agent_error (f);

  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  assert_error_mentions (error, "status 2");
  quoted = strstr (error->message, "not the Agent Client Protocol: “Usage: tool [options] <file>”");
  g_assert_nonnull (quoted);
  g_assert_null (strstr (error->message, "more help"));
  tail = strstr (error->message, "unknown option");
  g_assert_nonnull (tail);
  g_assert_true (quoted < tail);
}

static void
test_crash_mid_request (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;

  start_agent (f, "crash-mid-request.json");
  session_id = new_session (f, NULL);

  prompt_async (f, session_id, &result);
  stop_reason = prompt_finish (f, &result, &error);

  g_assert_null (stop_reason);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  assert_error_mentions (error, "exited with status 9");

  /* the chunk before the crash arrived */
  g_assert_cmpuint (f->updates->len, ==, 1);
  g_assert_cmpuint (f->exited, ==, 1);
  g_assert_cmpint (WEXITSTATUS (acp_agent_get_exit_status (f->agent)), ==, 9);
}

static void
test_killed_by_signal (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "segv.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1}}],"
    " 'session/new': [{'op': 'stderr', 'text': 'about to crash'},"
    "                   {'op': 'signal', 'signal': 11}]"
    "}}");
  g_autoptr(GError) error = NULL;

  start_agent (f, scenario);
  error = new_session_error (f, NULL, NULL);

  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  assert_error_mentions (error, "killed by signal 11");
  assert_error_mentions (error, "about to crash");
  g_assert_true (WIFSIGNALED (acp_agent_get_exit_status (f->agent)));
}

/* }}} */

/* stopping {{{ */

static void
test_stop_eof (Fixture       *f,
               gconstpointer  data)
{
  int status;

  start_agent (f, "basic.json");
  /* a long grace period: only EOF can end it in time */
  acp_agent_set_stop_grace_period (f->agent, 20000);
  stop_agent (f);

  status = acp_agent_get_exit_status (f->agent);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  assert_error_mentions (acp_agent_get_exit_error (f->agent), "exited with status 0");

  /* stopping again is fine */
  stop_agent (f);
}

static void
test_stop_ignore_eof (Fixture       *f,
                      gconstpointer  data)
{
  gint64 start;
  int status;

  start_agent (f, "ignore-eof.json");
  acp_agent_set_stop_grace_period (f->agent, 200);

  start = g_get_monotonic_time ();
  stop_agent (f);

  /* EOF and SIGTERM were both ignored: only SIGKILL, after two grace periods */
  status = acp_agent_get_exit_status (f->agent);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 400 * 1000);
  assert_error_mentions (acp_agent_get_exit_error (f->agent), "killed by signal 9");
}

static void
test_stop_cancelled (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  start_agent (f, "ignore-eof.json");
  acp_agent_set_stop_grace_period (f->agent, 200);

  acp_agent_stop_async (f->agent, cancellable, test_store_result_cb, &result);
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_STOPPING);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_agent_stop_finish (f->agent, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->exited, ==, 0);

  /* the escalation goes on */
  WAIT_UNTIL (f->exited == 1);
  g_assert_true (WIFSIGNALED (acp_agent_get_exit_status (f->agent)));
}

/* Stopping ends the agent's whole process group: the script it was started
 * through, the agent, and the helper the script left behind. */
static void
test_stop_group (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GPid pgid, leftover;

  create_wrapped_agent (f, "ignore-eof.json");
  error = start_agent_error (f);
  g_assert_no_error (error);
  pgid = acp_agent_get_pid (f->agent);
  g_assert_cmpint (pgid, >, 1);
  /* the script, the agent and the helper */
  g_assert_cmpuint (count_group (pgid), >=, 3);
  leftover = leftover_pid (f);
  g_assert_true (process_runs (leftover));

  stop_agent (f);
  g_assert_false (process_runs (leftover));
  g_assert_cmpuint (count_group (pgid), ==, 0);
}

/* An agent that exits by itself leaves nothing behind either, and a stop
 * after the exit completes once the rest of its group is gone. */
static void
test_stop_group_after_exit (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GPid pgid, leftover;

  create_wrapped_agent (f, "exit-on-start.json");
  error = start_agent_error (f);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_EXITED);
  pgid = acp_agent_get_pid (f->agent);
  g_assert_cmpint (pgid, >, 1);
  leftover = leftover_pid (f);

  stop_agent (f);
  g_assert_false (process_runs (leftover));
  g_assert_cmpuint (count_group (pgid), ==, 0);
}

/* The group's id is known even when GLib reaped the child before it was
 * asked for (which GSubprocess cannot tell then): an agent that exits at
 * once may leave processes of its group running. */
static void
test_group_setup_after_reaping (void)
{
  const char *argv[] = { "/bin/sh", "-c", "echo $$", NULL };
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  AcpGroupSetup setup;
  GPid pid;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_assert_true (acp_group_setup_init (&setup, &error));
  g_assert_no_error (error);
  g_subprocess_launcher_set_child_setup (launcher, acp_group_setup_run, &setup, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);

  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_null (g_subprocess_get_identifier (process));

  pid = acp_group_setup_finish (&setup);
  g_assert_cmpint (pid, >, 1);
  g_assert_cmpint (pid, ==, (GPid) g_ascii_strtoll (out, NULL, 10));
}

/* An agent dropped while running (nobody can stop it any more) takes its
 * whole group with it. */
static void
test_dispose_group (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GPid pgid, leftover;

  create_wrapped_agent (f, "ignore-eof.json");
  error = start_agent_error (f);
  g_assert_no_error (error);
  pgid = acp_agent_get_pid (f->agent);
  g_assert_cmpuint (count_group (pgid), >=, 3);
  leftover = leftover_pid (f);

  g_clear_object (&f->agent);
  POLL_UNTIL (count_group (pgid) == 0 && !process_runs (leftover));
}

/* The environment variable that makes this program a holder of an agent
 * (see hold_agent ()). */
#define HOLDER_ENV "PALAVER_TEST_HOLD_AGENT"

/* Run as a child of the test: starts an agent that ignores end of input
 * and SIGTERM, prints its pid and waits to be killed. */
static int
hold_agent (const char *scenario)
{
  g_autoptr(AcpAgent) agent = test_fake_agent_new (scenario, NULL);

  test_agent_start (agent);

  printf ("%d\n", (int) acp_agent_get_pid (agent));
  fflush (stdout);
  for (;;)
    g_main_context_iteration (NULL, TRUE);

  return 0;
}

/* Killed without a chance to stop its agent, the application takes the
 * agent with it all the same. */
static void
test_parent_killed (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) holder = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  GPid agent_pid;

  g_assert_nonnull (self_exe);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, HOLDER_ENV, "ignore-eof.json", TRUE);
  holder = g_subprocess_launcher_spawn (launcher, &error, self_exe, NULL);
  g_assert_no_error (error);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (holder));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  agent_pid = atoi (line);
  g_assert_cmpint (agent_pid, >, 1);
  g_assert_true (process_runs (agent_pid));

  g_subprocess_force_exit (holder);
  g_subprocess_wait (holder, NULL, &error);
  g_assert_no_error (error);

  POLL_UNTIL (!process_runs (agent_pid));
}

/* The first entry of the log in @direction with @method (or, for NULL, the
 * response with the id of the request before). */
static AcpTrafficEntry *
find_entry (AcpTrafficLog       *log,
            AcpTrafficDirection  direction,
            const char          *method,
            const char          *text)
{
  GListModel *model = G_LIST_MODEL (log);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpTrafficEntry) entry = g_list_model_get_item (model, i);

      if (acp_traffic_entry_get_direction (entry) == direction &&
          (method == NULL || g_strcmp0 (acp_traffic_entry_get_method (entry), method) == 0) &&
          (text == NULL || strstr (acp_traffic_entry_get_text (entry), text) != NULL))
        return entry;
    }

  return NULL;
}

/* The agent's traffic and stderr go to its log, as they went. */
static void
test_traffic_log (Fixture       *f,
                  gconstpointer  data)
{
  AcpTrafficLog *log;
  AcpTrafficEntry *request, *response, *entry;
  g_autoptr(GError) error = NULL;

  create_agent (f, "exit-on-start.json");
  error = start_agent_error (f);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  log = acp_agent_get_traffic_log (f->agent);
  acp_traffic_log_flush (log);
  entry = find_entry (log, ACP_TRAFFIC_STDERR, NULL, "fatal: cannot find config");
  g_assert_nonnull (entry);
  g_assert_cmpstr (acp_traffic_entry_get_text (entry), ==, "fatal: cannot find config");
  g_clear_object (&f->agent);
  f->exited = 0;

  start_agent (f, "basic.json");
  log = acp_agent_get_traffic_log (f->agent);
  acp_traffic_log_flush (log);
  request = find_entry (log, ACP_TRAFFIC_OUT, "initialize", NULL);
  g_assert_nonnull (request);
  g_assert_nonnull (strstr (acp_traffic_entry_get_text (request), "\"protocolVersion\":1"));
  response = find_entry (log, ACP_TRAFFIC_IN, NULL, "\"agentCapabilities\"");
  g_assert_nonnull (response);
  g_assert_cmpstr (acp_traffic_entry_get_id (response), ==, acp_traffic_entry_get_id (request));
  g_assert_cmpint (acp_traffic_entry_get_duration (response), >=, 0);
}

static void
test_stop_fails_pending_calls (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "slow.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1}}],"
    " 'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    " 'session/prompt': [{'op': 'hang'}]"
    "}}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;

  start_agent (f, scenario);
  session_id = new_session (f, NULL);
  prompt_async (f, session_id, &result);
  stop_agent (f);

  stop_reason = prompt_finish (f, &result, &error);
  g_assert_null (stop_reason);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  assert_error_mentions (error, "exited with status 0");
}

/* }}} */

/* stderr {{{ */

static void
test_stderr_flood (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *tail = NULL;
  g_autofree char *session_id = NULL;

  /* 20000 lines before anything is read: the start must not deadlock */
  start_agent (f, "stderr-flood.json");
  session_id = new_session (f, NULL);
  stop_agent (f);

  tail = acp_agent_dup_stderr_tail (f->agent);
  g_assert_cmpuint (strlen (tail), <=, 8192);
  g_assert_cmpuint (strlen (tail), >=, 8000);
  g_assert_true (g_str_has_suffix (tail, "noise written at start-up\n"));
}

static void
test_stderr_tail_utf8 (Fixture       *f,
                       gconstpointer  data)
{
  /* 6-byte lines of multi-byte characters: 8192 is not a multiple of the
   * line length, so the cut falls inside a character */
  g_autofree char *scenario = write_scenario (f, "utf8.json",
    "{'on_start': ["
    "  {'op': 'stderr', 'text': 'a\xe2\x82\xac\xc3\xa9', 'repeat': 50000},"
    "  {'op': 'stderr', 'text': 'the very last line'},"
    "  {'op': 'exit', 'status': 1}"
    "]}");
  g_autoptr(GError) error = NULL;
  g_autofree char *tail = NULL;
  const char *message;

  create_agent (f, scenario);
  error = start_agent_error (f);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);

  tail = acp_agent_dup_stderr_tail (f->agent);
  g_assert_true (g_utf8_validate (tail, -1, NULL));
  g_assert_cmpuint (strlen (tail), <=, 8192);
  g_assert_cmpuint (strlen (tail), >=, 8192 - 3);
  g_assert_true (g_str_has_suffix (tail, "\xc3\xa9\nthe very last line\n"));
  /* it starts on a whole character, not on a replaced half of one */
  g_assert_null (strstr (tail, "\xef\xbf\xbd"));

  message = error->message;
  g_assert_true (g_utf8_validate (message, -1, NULL));
  assert_error_mentions (error, "the very last line");
}

/* }}} */

/* prompt turns and agent → client traffic {{{ */

static const char *
update_kind (Fixture *f,
             guint    i)
{
  return acp_update_get_kind (g_ptr_array_index (f->updates, i));
}

static void
test_prompt_updates (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_chunks = 0;

  start_agent (f, "basic.json");
  session_id = new_session (f, NULL);

  prompt_async (f, session_id, &result);
  stop_reason = prompt_finish (f, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  /* every update arrived before the turn ended, in order; the three text
   * chunks may come joined when they were read together */
  g_assert_cmpuint (f->updates->len, >=, 3);
  g_assert_cmpuint (f->updates->len, <=, 5);
  for (guint i = 0; i < f->updates->len - 2; i++)
    {
      AcpUpdate *u = g_ptr_array_index (f->updates, i);

      g_assert_cmpstr (acp_update_get_session_id (u), ==, session_id);
      g_assert_cmpstr (update_kind (f, i), ==, "agent_message_chunk");
      g_string_append (text, u->text->str);
      n_chunks += acp_update_get_n_notifications (u);
    }
  g_assert_cmpuint (n_chunks, ==, 3);
  g_assert_cmpstr (text->str, ==, "Hello, I will read the file.");
  g_assert_cmpstr (update_kind (f, f->updates->len - 2), ==, "tool_call");
  g_assert_cmpstr (update_kind (f, f->updates->len - 1), ==, "tool_call_update");
  g_assert_cmpuint (f->protocol_errors->len, ==, 0);

  assert_params (f, "session/prompt",
                 "{'sessionId':'fake-session-1','prompt':[{'type':'text','text':'Hello'}]}");
}

/* What acp_update_dup_json() gives: the update as it came, or, for text
 * chunks that came joined, one chunk with all their text */
static void
assert_json_of_update (AcpUpdate *u)
{
  g_autofree char *json = acp_update_dup_json (u);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  JsonObject *object, *content;

  g_assert_nonnull (node);
  if (!u->joinable)
    {
      g_assert_cmpstr (json, ==, "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"a\","
                                 "\"content\":{\"type\":\"text\",\"text\":\"noted\","
                                 "\"annotations\":{\"priority\":1}}}");
      return;
    }

  object = json_node_get_object (node);
  g_assert_cmpuint (json_object_get_size (object), ==, u->id != NULL ? 3 : 2);
  g_assert_cmpstr (json_object_get_string_member (object, "sessionUpdate"), ==, u->kind);
  if (u->id != NULL)
    g_assert_cmpstr (json_object_get_string_member (object, "messageId"), ==, u->id);
  content = json_object_get_object_member (object, "content");
  g_assert_cmpstr (json_object_get_string_member (content, "type"), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (content, "text"), ==, u->text->str);
}

/* Text chunks of one message read together arrive joined, in order, and
 * say how many they stand for; nothing else is joined. */
static void
test_joined_chunks (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "chunks.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1}}],"
    " 'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    " 'session/prompt': ["
    "   {'op': 'updates', 'count': 2000, 'templates': [{'sessionUpdate': 'agent_message_chunk',"
    "    'messageId': 'a', 'content': {'type': 'text', 'text': 'x${i} '}}]},"
    "   {'op': 'update', 'update': {'sessionUpdate': 'agent_message_chunk', 'messageId': 'a',"
    "    'content': {'type': 'text', 'text': 'noted', 'annotations': {'priority': 1}}}},"
    "   {'op': 'updates', 'count': 500, 'templates': [{'sessionUpdate': 'agent_thought_chunk',"
    "    'content': {'type': 'text', 'text': 't'}}]},"
    "   {'op': 'updates', 'count': 500, 'templates': [{'sessionUpdate': 'agent_message_chunk',"
    "    'messageId': 'b', 'content': {'type': 'text', 'text': 'y'}}]},"
    "   {'op': 'result', 'result': {'stopReason': 'end_turn'}}"
    " ]"
    "}}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(GString) a_text = g_string_new (NULL);
  g_autoptr(GString) thought = g_string_new (NULL);
  g_autoptr(GString) b_text = g_string_new (NULL);
  guint n_total = 0, n_a = 0;
  guint stage = 0;  /* a, the annotated one, thoughts, b */

  start_agent (f, scenario);
  session_id = new_session (f, NULL);
  prompt_async (f, session_id, &result);
  stop_reason = prompt_finish (f, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  for (guint i = 0; i < f->updates->len; i++)
    {
      AcpUpdate *u = g_ptr_array_index (f->updates, i);
      const char *text = u->text->str;
      const char *message_id = u->id;
      guint n = acp_update_get_n_notifications (u);

      g_assert_cmpuint (n, >=, 1);
      n_total += n;
      assert_json_of_update (u);

      if (!u->joinable)
        {
          /* never joined, after every plain chunk of its message */
          g_assert_cmpuint (stage, ==, 0);
          g_assert_cmpuint (n, ==, 1);
          g_assert_cmpstr (text, ==, "noted");
          stage = 1;
        }
      else if (g_str_equal (update_kind (f, i), "agent_thought_chunk"))
        {
          g_assert_cmpuint (stage, >=, 1);
          g_assert_cmpuint (stage, <=, 2);
          g_assert_null (message_id);
          stage = 2;
          g_string_append (thought, text);
        }
      else if (stage == 0)
        {
          g_assert_cmpstr (message_id, ==, "a");
          g_string_append (a_text, text);
          n_a += n;
        }
      else
        {
          g_assert_cmpuint (stage, >=, 2);
          g_assert_cmpstr (update_kind (f, i), ==, "agent_message_chunk");
          g_assert_cmpstr (message_id, ==, "b");
          stage = 3;
          g_string_append (b_text, text);
        }
    }

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (expected, "x%u ", i);
  g_assert_cmpstr (a_text->str, ==, expected->str);
  g_assert_cmpuint (n_a, ==, 2000);
  g_assert_cmpuint (thought->len, ==, 500);
  g_assert_cmpuint (b_text->len, ==, 500);
  g_assert_cmpuint (stage, ==, 3);
  g_assert_cmpuint (n_total, ==, 3001);
  /* written as fast as the pipe takes them: read many at a time */
  g_test_message ("3001 updates arrived as %u", f->updates->len);
  g_assert_cmpuint (f->updates->len, <, 1500);
  g_assert_cmpuint (f->protocol_errors->len, ==, 0);
}

static void
test_malformed_updates (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "malformed.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1}}],"
    " 'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    " 'session/prompt': ["
    "   {'op': 'notify', 'method': 'session/update', 'params': [1, 2]},"
    "   {'op': 'notify', 'method': 'session/update',"
    "    'params': {'update': {'sessionUpdate': 'plan'}}},"
    "   {'op': 'notify', 'method': 'session/update',"
    "    'params': {'sessionId': 4, 'update': {'sessionUpdate': 'plan'}}},"
    "   {'op': 'notify', 'method': 'session/update',"
    "    'params': {'sessionId': 's', 'update': 'plan'}},"
    "   {'op': 'notify', 'method': 'session/update',"
    "    'params': {'sessionId': 's', 'update': {'sessionUpdate': 1}}},"
    "   {'op': 'notify', 'method': 'session/update'},"
    "   {'op': 'notify', 'method': '_auth/status_update', 'params': {'ok': true}},"
    "   {'op': 'update', 'update': {'sessionUpdate': 'some_future_kind', 'x': 1}},"
    "   {'op': 'result', 'result': {'stopReason': 'end_turn'}}"
    " ]"
    "}}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;

  start_agent (f, scenario);
  session_id = new_session (f, NULL);
  prompt_async (f, session_id, &result);
  stop_reason = prompt_finish (f, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  g_assert_cmpuint (f->protocol_errors->len, ==, 6);
  g_assert_cmpuint (f->updates->len, ==, 1);
  g_assert_cmpstr (update_kind (f, 0), ==, "some_future_kind");
}

static void
check_permission_turn (Fixture    *f,
                       const char *scenario)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;
  g_autoptr(JsonNode) reply = NULL;
  AcpIncomingRequest *request;
  JsonObject *params;

  start_agent (f, scenario);
  session_id = new_session (f, NULL);
  prompt_async (f, session_id, &result);

  WAIT_UNTIL (f->requests->len == 1);
  request = g_ptr_array_index (f->requests, 0);
  g_assert_cmpstr (acp_incoming_request_get_method (request), ==, "session/request_permission");
  g_assert_cmpstr (g_ptr_array_index (f->request_sessions, 0), ==, session_id);
  params = acp_incoming_request_get_params_object (request);
  params = json_object_get_object_member (params, "toolCall");
  g_assert_cmpstr (json_object_get_string_member (params, "toolCallId"), ==, "call-1");
  g_assert_null (result);

  reply = parse_json ("{'outcome':{'outcome':'selected','optionId':'allow_once'}}");
  acp_incoming_request_reply (request, reply);

  /* the fake agent exits with 3 when the answer does not match */
  stop_reason = prompt_finish (f, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_assert_cmpuint (f->updates->len, ==, 2);
  g_assert_cmpstr (update_kind (f, 1), ==, "tool_call_update");
}

static void
test_permission (Fixture       *f,
                 gconstpointer  data)
{
  check_permission_turn (f, "permission.json");
}

static void
test_permission_string_ids (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GPtrArray) messages = NULL;
  gboolean found = FALSE;

  check_permission_turn (f, "string-ids.json");

  /* the reply echoed the string id */
  messages = read_record (f);
  for (guint i = 0; i < messages->len; i++)
    {
      JsonObject *message = json_node_get_object (g_ptr_array_index (messages, i));

      if (json_object_has_member (message, "result") &&
          g_strcmp0 (json_object_get_string_member_with_default (message, "id", NULL), "r0") == 0)
        found = TRUE;
    }
  g_assert_true (found);
}

static void
test_unhandled_request (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "unhandled.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1}}],"
    " 'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    " 'session/prompt': ["
    "   {'op': 'request', 'method': 'fs/read_text_file',"
    "    'params': {'sessionId': '${session_id}', 'path': '/etc/hostname'},"
    "    'expect_error': {'code': -32601}},"
    "   {'op': 'result', 'result': {'stopReason': 'end_turn'}}"
    " ]"
    "}}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;

  start_agent (f, scenario);
  f->handle_requests = FALSE;
  session_id = new_session (f, NULL);
  prompt_async (f, session_id, &result);
  stop_reason = prompt_finish (f, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;
  g_autoptr(JsonNode) reply = NULL;

  start_agent (f, "cancel.json");
  session_id = new_session (f, NULL);
  prompt_async (f, session_id, &result);

  WAIT_UNTIL (f->requests->len == 1);
  g_assert_true (acp_agent_cancel (f->agent, session_id, &error));
  g_assert_no_error (error);
  reply = parse_json ("{'outcome':{'outcome':'cancelled'}}");
  acp_incoming_request_reply (g_ptr_array_index (f->requests, 0), reply);

  stop_reason = prompt_finish (f, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "cancelled");

  assert_params (f, "session/cancel", "{'sessionId':'fake-session-1'}");
  {
    g_autoptr(GPtrArray) messages = read_record (f);
    JsonObject *cancel = NULL;

    for (guint i = 0; i < messages->len; i++)
      if (g_strcmp0 (message_method (g_ptr_array_index (messages, i)), "session/cancel") == 0)
        cancel = json_node_get_object (g_ptr_array_index (messages, i));
    g_assert_nonnull (cancel);
    g_assert_false (json_object_has_member (cancel, "id"));
  }
}

static void
test_auth_required (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *methods = NULL;

  start_agent (f, "auth-required.json");
  g_assert_cmpuint (acp_agent_get_auth_methods (f->agent)->len, ==, 1);

  error = new_session_error (f, NULL, NULL);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AUTH_REQUIRED);
  g_assert_cmpint (error->code, ==, -32000);
  g_assert_true (acp_error_is_remote (error));
  g_assert_cmpstr (error->message, ==, "Authentication required");

  /* an id the agent did not offer fails locally */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) local_error = NULL;

    acp_agent_authenticate_async (f->agent, "oauth", NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_false (acp_agent_authenticate_finish (f->agent, result, &local_error));
    g_assert_error (local_error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT);
  }

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) auth_error = NULL;

    acp_agent_authenticate_async (f->agent, "api-key", NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_true (acp_agent_authenticate_finish (f->agent, result, &auth_error));
    g_assert_no_error (auth_error);
  }
  assert_params (f, "authenticate", "{'methodId':'api-key'}");

  session_id = new_session (f, NULL);
  g_assert_cmpstr (session_id, ==, "fake-session-1");
  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new authenticate session/new");
}

static void
test_terminal_auth_local (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "tui.json",
    "{'handlers': {'initialize': [{'op': 'result', 'result': {'protocolVersion': 1,"
    "  'authMethods': [{'id': 'tui', 'name': 'Terminal', 'type': 'terminal'}]}}]}}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *methods = NULL;

  start_agent (f, scenario);
  acp_agent_authenticate_async (f->agent, "tui", NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_agent_authenticate_finish (f->agent, result, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
  assert_error_mentions (error, "terminal");

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize");
}

static void
test_garbage (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *session_id = NULL;

  start_agent (f, "garbage.json");
  session_id = new_session (f, NULL);
  g_assert_cmpstr (session_id, ==, "fake-session-1");
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_READY);
}

static void
test_huge_line (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *stop_reason = NULL;
  AcpUpdate *u;
  const char *text;
  gsize len;

  start_agent (f, "huge-line.json");
  session_id = new_session (f, NULL);
  prompt_async (f, session_id, &result);
  stop_reason = prompt_finish (f, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  g_assert_cmpuint (f->updates->len, ==, 1);
  u = g_ptr_array_index (f->updates, 0);
  text = u->text->str;
  len = strlen (text);
  g_assert_cmpuint (len, ==, 8 * 1024 * 1024);
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] != 'x')
        g_error ("byte %" G_GSIZE_FORMAT " is not 'x'", i);
    }
}

/* }}} */

/* other calls {{{ */

static void
test_list_paging (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(JsonObject) page1 = NULL;
  g_autoptr(JsonObject) page2 = NULL;
  JsonArray *sessions;
  JsonObject *entry;

  start_agent (f, "basic.json");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;

    acp_agent_list_sessions_async (f->agent, NULL, NULL, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    page1 = acp_agent_list_sessions_finish (f->agent, result, &error);
    g_assert_no_error (error);
  }
  assert_params (f, "session/list", "{}");
  sessions = json_object_get_array_member (page1, "sessions");
  g_assert_cmpuint (json_array_get_length (sessions), ==, 2);
  entry = json_array_get_object_element (sessions, 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "sessionId"), ==, "listed-1");
  entry = json_array_get_object_element (sessions, 1);
  g_assert_cmpstr (json_object_get_string_member (entry, "title"), ==, "Write tests");
  g_assert_cmpstr (json_object_get_string_member (page1, "nextCursor"), ==, "page-2");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;

    acp_agent_list_sessions_async (f->agent, "/tmp/project", "page-2",
                                   NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    page2 = acp_agent_list_sessions_finish (f->agent, result, &error);
    g_assert_no_error (error);
  }
  assert_params (f, "session/list", "{'cwd':'/tmp/project','cursor':'page-2'}");
  sessions = json_object_get_array_member (page2, "sessions");
  g_assert_cmpuint (json_array_get_length (sessions), ==, 1);
  entry = json_array_get_object_element (sessions, 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "cwd"), ==, "/tmp/other");
  g_assert_false (json_object_has_member (page2, "nextCursor"));
}

static void
test_list_validation (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "list.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1,"
    "   'agentCapabilities': {'sessionCapabilities': {'list': {}}}}}],"
    " 'session/list': {'calls': ["
    "   [{'op': 'result', 'result': {'sessions': ["
    "      {'sessionId': 'ok', 'cwd': '/a', 'title': 5, 'updatedAt': null},"
    "      {'sessionId': 'no-cwd'},"
    "      {'sessionId': 3, 'cwd': '/b'},"
    "      'garbage',"
    "      {'sessionId': 'ok2', 'cwd': '/c', 'additionalDirectories': '/d'}"
    "    ], 'nextCursor': 7}}],"
    "   [{'op': 'result', 'result': {'nextCursor': 'x'}}]"
    " ]}"
    "}}");
  g_autoptr(JsonObject) page = NULL;
  JsonArray *sessions;
  JsonObject *first;

  start_agent (f, scenario);

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;

    acp_agent_list_sessions_async (f->agent, NULL, NULL, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    page = acp_agent_list_sessions_finish (f->agent, result, &error);
    g_assert_no_error (error);
  }
  sessions = json_object_get_array_member (page, "sessions");
  g_assert_cmpuint (json_array_get_length (sessions), ==, 2);
  first = json_array_get_object_element (sessions, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "sessionId"), ==, "ok");
  g_assert_false (json_object_has_member (first, "title"));
  g_assert_false (json_object_has_member (json_array_get_object_element (sessions, 1),
                                          "additionalDirectories"));
  g_assert_false (json_object_has_member (page, "nextCursor"));

  /* no sessions array at all */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) bad = NULL;

    acp_agent_list_sessions_async (f->agent, NULL, NULL, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    bad = acp_agent_list_sessions_finish (f->agent, result, &error);
    g_assert_null (bad);
    g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  }
}

static void
test_session_calls (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *session_id = NULL;

  start_agent (f, "basic.json");
  session_id = new_session (f, NULL);

  /* load: replayed updates first, then a null result → {} */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) loaded = NULL;

    acp_agent_load_session_async (f->agent, "old-1", "/tmp/project", NULL, NULL, NULL,
                                  test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    loaded = acp_agent_load_session_finish (f->agent, result, &error);
    g_assert_no_error (error);
    g_assert_nonnull (loaded);
    g_assert_cmpuint (json_object_get_size (loaded), ==, 0);
    g_assert_cmpuint (f->updates->len, ==, 2);
    g_assert_cmpstr (acp_update_get_session_id (g_ptr_array_index (f->updates, 0)), ==, "old-1");
    g_assert_cmpstr (update_kind (f, 0), ==, "user_message_chunk");
  }
  assert_params (f, "session/load", "{'sessionId':'old-1','cwd':'/tmp/project','mcpServers':[]}");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) resumed = NULL;

    acp_agent_resume_session_async (f->agent, "old-2", "/tmp", NULL, NULL,
                                    NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    resumed = acp_agent_resume_session_finish (f->agent, result, &error);
    g_assert_no_error (error);
    g_assert_nonnull (resumed);
  }
  assert_params (f, "session/resume", "{'sessionId':'old-2','cwd':'/tmp','mcpServers':[]}");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;

    acp_agent_set_mode_async (f->agent, session_id, "architect", NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_true (acp_agent_set_mode_finish (f->agent, result, &error));
    g_assert_no_error (error);
  }
  assert_params (f, "session/set_mode", "{'sessionId':'fake-session-1','modeId':'architect'}");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonArray) options = NULL;
    g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

    json_node_set_string (value, "smart");
    acp_agent_set_config_option_async (f->agent, session_id, "model", value,
                                       NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    options = acp_agent_set_config_option_finish (f->agent, result, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (json_array_get_length (options), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (options, 0),
                                                    "currentValue"), ==, "smart");
  }
  assert_params (f, "session/set_config_option",
                 "{'sessionId':'fake-session-1','configId':'model','value':'smart'}");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;

    acp_agent_close_session_async (f->agent, session_id, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_true (acp_agent_close_session_finish (f->agent, result, &error));
    g_assert_no_error (error);
  }
  assert_params (f, "session/close", "{'sessionId':'fake-session-1'}");
}

static void
test_boolean_config_and_bad_results (Fixture       *f,
                                     gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "bool.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1,"
    "   'agentCapabilities': {'sessionCapabilities': {'close': {}}}}}],"
    " 'session/new': {'calls': [[{'op': 'result', 'result': {'modes': {}}}],"
    "   [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}]]},"
    " 'session/set_config_option': [{'op': 'result', 'result': {'configOptions': {}}}],"
    " 'session/prompt': [{'op': 'result', 'result': {'stopReason': 1}}],"
    " 'session/close': [{'op': 'result', 'result': 'done'}]"
    "}}");
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;

  create_agent (f, scenario);
  acp_agent_set_client_capabilities (f->agent, ACP_CLIENT_CAP_BOOLEAN_CONFIG);
  error = start_agent_error (f);
  g_assert_no_error (error);

  /* session/new without a sessionId */
  error = new_session_error (f, NULL, NULL);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  g_clear_error (&error);
  session_id = new_session (f, NULL);

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(JsonArray) options = NULL;
    g_autoptr(JsonNode) value = json_node_new (JSON_NODE_VALUE);

    json_node_set_boolean (value, FALSE);
    acp_agent_set_config_option_async (f->agent, session_id, "thinking", value, NULL,
                                       test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    options = acp_agent_set_config_option_finish (f->agent, result, &error);
    g_assert_null (options);
    g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    g_clear_error (&error);
  }
  assert_params (f, "session/set_config_option",
                 "{'sessionId':'fake-session-1','configId':'thinking','type':'boolean',"
                 "'value':false}");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autofree char *stop_reason = NULL;

    prompt_async (f, session_id, &result);
    stop_reason = prompt_finish (f, &result, &error);
    g_assert_null (stop_reason);
    g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    g_clear_error (&error);
  }

  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_close_session_async (f->agent, session_id, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_false (acp_agent_close_session_finish (f->agent, result, &error));
    g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    g_clear_error (&error);
  }
}

static void
test_delete_and_logout (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "delete.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1,"
    "   'agentCapabilities': {'sessionCapabilities': {'delete': {}}, 'auth': {'logout': {}}}}}],"
    " 'session/delete': [{'op': 'result', 'result': {}}],"
    " 'logout': [{'op': 'result', 'result': null}]"
    "}}");
  g_autoptr(GError) error = NULL;
  g_autofree char *methods = NULL;

  start_agent (f, scenario);

  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_delete_session_async (f->agent, "old-3", NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_true (acp_agent_delete_session_finish (f->agent, result, &error));
    g_assert_no_error (error);
  }
  assert_params (f, "session/delete", "{'sessionId':'old-3'}");

  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_logout_async (f->agent, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_true (acp_agent_logout_finish (f->agent, result, &error));
    g_assert_no_error (error);
  }
  assert_params (f, "logout", "{}");

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/delete logout");
}

/* session/fork (unstable): the session to fork and the folder go out, the
 * new session's id comes back, and an answer without one is refused. */
static void
test_fork (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *scenario = write_scenario (f, "fork.json",
    "{'handlers': {"
    " 'initialize': [{'op': 'result', 'result': {'protocolVersion': 1,"
    "   'agentCapabilities': {'sessionCapabilities': {'fork': {}}}}}],"
    " 'session/fork': {'calls': [[{'op': 'result', 'result': {'sessionId': '${fork_session_id}',"
    "                                                         'modes': null}}],"
    "                            [{'op': 'result', 'result': {'sessionId': 7}}]]}"
    "}}");
  g_autoptr(GError) error = NULL;

  start_agent (f, scenario);
  g_assert_true (acp_agent_has_capability (f->agent, ACP_AGENT_CAP_SESSION_FORK));

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(JsonObject) forked = NULL;

    acp_agent_fork_session_async (f->agent, "old-3", "/srv/app", NULL, NULL, NULL,
                                  test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    forked = acp_agent_fork_session_finish (f->agent, result, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (forked, "sessionId"), ==, "old-3-fork-1");
  }
  assert_params (f, "session/fork", "{'sessionId':'old-3','cwd':'/srv/app','mcpServers':[]}");

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(JsonObject) forked = NULL;

    acp_agent_fork_session_async (f->agent, "old-3", "/srv/app", NULL, NULL, NULL,
                                  test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    forked = acp_agent_fork_session_finish (f->agent, result, &error);
    g_assert_null (forked);
    g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  }
}

static void
test_not_ready (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  create_agent (f, "basic.json");

  error = new_session_error (f, NULL, NULL);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_FAILED);
  assert_error_mentions (error, "not been started");
  g_clear_error (&error);

  g_assert_false (acp_agent_cancel (f->agent, "s", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* stopping an agent that never started is a no-op */
  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_stop_async (f->agent, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_true (acp_agent_stop_finish (f->agent, result, &error));
  }
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_NEW);
}

static void
state_notify_cb (AcpAgent   *agent,
                 GParamSpec *pspec,
                 GArray     *states)
{
  AcpAgentState state;

  g_object_get (agent, "state", &state, NULL);
  g_assert_cmpint (state, ==, acp_agent_get_state (agent));
  g_array_append_val (states, state);
}

static void
test_state_notify (Fixture       *f,
                   gconstpointer  data)
{
  static const AcpAgentState expected[] = {
    ACP_AGENT_STATE_STARTING,
    ACP_AGENT_STATE_READY,
    ACP_AGENT_STATE_STOPPING,
    ACP_AGENT_STATE_EXITED,
  };
  g_autoptr(GArray) states = g_array_new (FALSE, FALSE, sizeof (AcpAgentState));
  g_autoptr(GError) error = NULL;

  create_agent (f, "minimal.json");
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_NEW);
  g_signal_connect (f->agent, "notify::state", G_CALLBACK (state_notify_cb), states);

  error = start_agent_error (f);
  g_assert_no_error (error);
  stop_agent (f);

  g_assert_cmpuint (states->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpint (g_array_index (states, AcpAgentState, i), ==, expected[i]);
}

/* }}} */

/* an agent over a stream {{{ */

static void
test_for_stream (Fixture       *f,
                 gconstpointer  data)
{
  const char *argv[] = { test_fake_agent_path (), "minimal.json", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                               &error);
  g_assert_no_error (error);
  stream = g_simple_io_stream_new (g_subprocess_get_stdout_pipe (process),
                                   g_subprocess_get_stdin_pipe (process));

  f->agent = acp_agent_new_for_stream (stream);
  connect_agent (f);
  g_assert_nonnull (acp_agent_get_connection (f->agent));
  error = start_agent_error (f);
  g_assert_no_error (error);
  session_id = new_session (f, NULL);

  /* the peer goes away: the agent "exits" */
  g_subprocess_force_exit (process);
  WAIT_UNTIL (f->exited == 1);
  g_assert_cmpint (acp_agent_get_state (f->agent), ==, ACP_AGENT_STATE_EXITED);
  g_assert_cmpint (acp_agent_get_exit_status (f->agent), ==, -1);
  g_assert_error (acp_agent_get_exit_error (f->agent), ACP_ERROR, ACP_ERROR_AGENT_EXITED);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  if (g_getenv (HOLDER_ENV) != NULL)
    return hold_agent (g_getenv (HOLDER_ENV));

  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/agent/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("handshake/basic", test_handshake_basic);
  ADD ("handshake/minimal", test_handshake_minimal);
  ADD ("handshake/every-capability", test_handshake_every_capability);
  ADD ("handshake/wrong-types", test_handshake_wrong_types);
  ADD ("handshake/protocol-version", test_handshake_protocol_version);
  ADD ("handshake/bad-result", test_handshake_bad_version_type);
  ADD ("gating/minimal", test_gating_minimal);
  ADD ("gating/mcp", test_gating_mcp_basic);
  ADD ("gating/additional-directories", test_additional_directories);
  ADD ("process/exit-on-start", test_exit_on_start);
  ADD ("process/hang-initialize", test_hang_initialize);
  ADD ("process/start-cancelled", test_start_cancelled);
  ADD ("process/spawn-failed", test_spawn_failed);
  ADD ("process/env-and-cwd", test_env_and_cwd);
  ADD ("process/not-an-agent", test_not_an_agent);
  ADD ("process/crash-mid-request", test_crash_mid_request);
  ADD ("process/killed-by-signal", test_killed_by_signal);
  ADD ("stop/eof", test_stop_eof);
  ADD ("stop/ignore-eof", test_stop_ignore_eof);
  ADD ("stop/cancelled", test_stop_cancelled);
  ADD ("stop/group", test_stop_group);
  ADD ("stop/group-after-exit", test_stop_group_after_exit);
  g_test_add_func ("/agent/stop/group-setup-after-reaping", test_group_setup_after_reaping);
  ADD ("stop/dispose-group", test_dispose_group);
  ADD ("stop/parent-killed", test_parent_killed);
  ADD ("log/traffic", test_traffic_log);
  ADD ("stop/pending-calls", test_stop_fails_pending_calls);
  ADD ("stderr/flood", test_stderr_flood);
  ADD ("stderr/utf8", test_stderr_tail_utf8);
  ADD ("prompt/updates", test_prompt_updates);
  ADD ("prompt/joined-chunks", test_joined_chunks);
  ADD ("prompt/malformed-updates", test_malformed_updates);
  ADD ("prompt/permission", test_permission);
  ADD ("prompt/permission-string-ids", test_permission_string_ids);
  ADD ("prompt/unhandled-request", test_unhandled_request);
  ADD ("prompt/cancel", test_cancel);
  ADD ("prompt/huge-line", test_huge_line);
  ADD ("auth/required", test_auth_required);
  ADD ("auth/terminal-local", test_terminal_auth_local);
  ADD ("calls/garbage", test_garbage);
  ADD ("calls/list-paging", test_list_paging);
  ADD ("calls/list-validation", test_list_validation);
  ADD ("calls/session", test_session_calls);
  ADD ("calls/bad-results", test_boolean_config_and_bad_results);
  ADD ("calls/delete-and-logout", test_delete_and_logout);
  ADD ("calls/fork", test_fork);
  ADD ("calls/not-ready", test_not_ready);
  ADD ("calls/state-notify", test_state_notify);
  ADD ("stream", test_for_stream);

#undef ADD

  return g_test_run ();
}
