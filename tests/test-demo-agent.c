/* test-demo-agent.c: the shipped demo agent, driven over its pipes
 *
 * The agent is found through $PALAVER_DEMO_AGENT and runs with
 * PALAVER_DEMO_AGENT_SPEED=0 (no pauses) and its history in a temporary
 * folder. The tests talk to it through AcpConnection, as a client would.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "acp-agent.h"
#include "acp-connection.h"
#include "acp-mcp-server.h"
#include "acp-update-private.h"
#include "test-util.h"

typedef struct
{
  GSubprocess        *process;
  AcpConnection      *connection;
  GPtrArray          *updates;      /* (element-type JsonObject) session/update params */
  GPtrArray          *permissions;  /* (element-type AcpIncomingRequest) requests asked */
  char               *answer;       /* option to pick at once, or NULL to hold the request */
} Agent;

typedef struct
{
  char *data_dir;
  char *cwd;
} Fixture;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  fixture->data_dir = test_make_tmpdir ("demo-agent");
  fixture->cwd = g_build_filename (fixture->data_dir, "project", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_free (fixture->data_dir);
  g_free (fixture->cwd);
}

static JsonNode *
parse_json (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);

  return node;
}

static JsonObject *
object_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_node_get_object (node);
}

static JsonArray *
array_member (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));

  return json_node_get_array (node);
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  const char *value = json_object_get_string_member_with_default (object, name, NULL);

  g_assert_nonnull (value);

  return value;
}

/* The config option of @options whose id is @id */
static JsonObject *
config_option (JsonArray  *options,
               const char *id)
{
  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonObject *option = json_array_get_object_element (options, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (option, "id", NULL), id) == 0)
        return option;
    }

  g_assert_not_reached ();
}

/* ------------------------------------------------------------------------ */
/* The agent process                                                         */

static void
agent_update_cb (AcpConnection *connection,
                 const char    *method,
                 JsonNode      *params,
                 Agent         *agent)
{
  g_assert_nonnull (params);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (params));
  g_ptr_array_add (agent->updates, json_object_ref (json_node_get_object (params)));
}

static void
answer_permission (AcpIncomingRequest *request,
                   const char         *option)
{
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) result = NULL;

  if (option == NULL)
    json = g_strdup ("{\"outcome\": {\"outcome\": \"cancelled\"}}");
  else
    json = g_strdup_printf ("{\"outcome\": {\"outcome\": \"selected\", \"optionId\": \"%s\"}}", option);
  result = parse_json (json);
  acp_incoming_request_reply (request, result);
}

static gboolean
agent_permission_cb (AcpConnection      *connection,
                     AcpIncomingRequest *request,
                     Agent              *agent)
{
  g_ptr_array_add (agent->permissions, g_object_ref (request));
  if (agent->answer != NULL)
    answer_permission (request, agent->answer);

  return TRUE;
}

static Agent *
agent_start (Fixture *fixture)
{
  const char *path = g_getenv ("PALAVER_DEMO_AGENT");
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  Agent *agent;

  g_assert_nonnull (path);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "PALAVER_DEMO_AGENT_DATA_DIR", fixture->data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "PALAVER_DEMO_AGENT_SPEED", "0", TRUE);

  agent = g_new0 (Agent, 1);
  agent->process = g_subprocess_launcher_spawn (launcher, &error, path, NULL);
  g_assert_no_error (error);

  stream = g_simple_io_stream_new (g_subprocess_get_stdout_pipe (agent->process),
                                   g_subprocess_get_stdin_pipe (agent->process));
  agent->connection = acp_connection_new (stream);
  agent->updates = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  agent->permissions = g_ptr_array_new_with_free_func (g_object_unref);
  agent->answer = g_strdup ("allow_once");
  g_signal_connect (agent->connection, "notification::session/update",
                    G_CALLBACK (agent_update_cb), agent);
  g_signal_connect (agent->connection, "request::session/request_permission",
                    G_CALLBACK (agent_permission_cb), agent);
  acp_connection_start (agent->connection);

  return agent;
}

static void
set_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean *done = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, &error);
  g_assert_no_error (error);
  *done = TRUE;
}

/* Closes the agent's stdin and waits for it to exit cleanly, which it does
 * only once its history is on disk. */
static void
agent_stop (Agent *agent)
{
  gboolean done = FALSE;

  acp_connection_close (agent->connection, NULL);
  g_subprocess_wait_async (agent->process, NULL, set_done_cb, &done);
  WAIT_UNTIL (done);
  g_assert_true (g_subprocess_get_if_exited (agent->process));
  g_assert_cmpint (g_subprocess_get_exit_status (agent->process), ==, 0);

  g_signal_handlers_disconnect_by_data (agent->connection, agent);
  g_clear_object (&agent->connection);
  g_clear_object (&agent->process);
  g_ptr_array_unref (agent->updates);
  g_ptr_array_unref (agent->permissions);
  g_free (agent->answer);
  g_free (agent);
}

typedef struct
{
  gboolean  done;
  JsonNode *result;
  GError   *error;
} CallData;

static void
call_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  CallData *call = user_data;

  call->result = acp_connection_call_finish (ACP_CONNECTION (source), result, &call->error);
  call->done = TRUE;
}

static void
agent_call_async (Agent      *agent,
                  const char *method,
                  const char *params_json,
                  CallData   *call)
{
  g_autoptr(JsonNode) params = parse_json (params_json);

  memset (call, 0, sizeof *call);
  acp_connection_call_async (agent->connection, method, params, NULL, call_cb, call);
}

static void
call_wait (CallData *call)
{
  WAIT_UNTIL (call->done);
}

/* Calls and returns the result; on an error, *error is set (when error is
 * not NULL) or the test fails. */
static JsonNode *
agent_call (Agent       *agent,
            const char  *method,
            const char  *params_json,
            GError     **error)
{
  CallData call;

  agent_call_async (agent, method, params_json, &call);
  call_wait (&call);

  if (call.error != NULL)
    {
      if (error == NULL)
        g_error ("%s failed: %s", method, call.error->message);
      g_propagate_error (error, call.error);
      return NULL;
    }

  return call.result;
}

static void
assert_call_fails (Agent      *agent,
                   const char *method,
                   const char *params_json,
                   int         code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = agent_call (agent, method, params_json, &error);

  g_assert_null (result);
  g_assert_error (error, ACP_ERROR, code);
  g_assert_true (acp_error_is_remote (error));
}

static void
agent_initialize (Agent *agent)
{
  g_autoptr(JsonNode) result = agent_call (agent, "initialize",
                                           "{\"protocolVersion\": 1, \"clientCapabilities\": {}}",
                                           NULL);

  g_assert_cmpint (json_object_get_int_member (json_node_get_object (result), "protocolVersion"), ==, 1);
}

static gboolean
has_update (Agent      *agent,
            const char *session_id,
            const char *kind)
{
  for (guint i = 0; i < agent->updates->len; i++)
    {
      JsonObject *params = g_ptr_array_index (agent->updates, i);

      if (g_strcmp0 (string_member (params, "sessionId"), session_id) == 0 &&
          g_strcmp0 (string_member (object_member (params, "update"), "sessionUpdate"), kind) == 0)
        return TRUE;
    }

  return FALSE;
}

static char *
agent_new_session (Agent      *agent,
                   const char *cwd,
                   const char *mcp_servers_json)
{
  g_autofree char *params = NULL;
  g_autofree char *cwd_json = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) cwd_node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *id = NULL;

  json_node_set_string (cwd_node, cwd);
  cwd_json = json_to_string (cwd_node, FALSE);
  params = g_strdup_printf ("{\"cwd\": %s, \"mcpServers\": %s}", cwd_json,
                            mcp_servers_json != NULL ? mcp_servers_json : "[]");
  result = agent_call (agent, "session/new", params, NULL);
  id = g_strdup (string_member (json_node_get_object (result), "sessionId"));

  /* The commands follow the response: wait for them, so that they do not
   * mix with what a test does next. */
  WAIT_UNTIL (has_update (agent, id, "available_commands_update"));

  return g_steal_pointer (&id);
}

static char *
agent_prompt (Agent      *agent,
              const char *session_id,
              const char *text)
{
  g_autoptr(JsonNode) text_node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text_json = NULL;
  g_autofree char *params = NULL;
  g_autoptr(JsonNode) result = NULL;

  json_node_set_string (text_node, text);
  text_json = json_to_string (text_node, FALSE);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"prompt\": [{\"type\": \"text\", \"text\": %s}]}",
                            session_id, text_json);
  result = agent_call (agent, "session/prompt", params, NULL);

  return g_strdup (string_member (json_node_get_object (result), "stopReason"));
}

/* The updates of one session from index `from` on (element-type JsonObject,
 * the "update" members). */
static GPtrArray *
session_updates (Agent      *agent,
                 const char *session_id,
                 guint       from)
{
  GPtrArray *updates = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  for (guint i = from; i < agent->updates->len; i++)
    {
      JsonObject *params = g_ptr_array_index (agent->updates, i);

      if (g_strcmp0 (string_member (params, "sessionId"), session_id) == 0)
        g_ptr_array_add (updates, json_object_ref (object_member (params, "update")));
    }

  return updates;
}

static guint
count_kind (GPtrArray  *updates,
            const char *kind)
{
  guint n = 0;

  for (guint i = 0; i < updates->len; i++)
    {
      if (g_strcmp0 (string_member (g_ptr_array_index (updates, i), "sessionUpdate"), kind) == 0)
        n++;
    }

  return n;
}

/* The index of the first update of kind at or after from, or -1. */
static int
find_kind (GPtrArray  *updates,
           const char *kind,
           guint       from)
{
  for (guint i = from; i < updates->len; i++)
    {
      if (g_strcmp0 (string_member (g_ptr_array_index (updates, i), "sessionUpdate"), kind) == 0)
        return (int) i;
    }

  return -1;
}

static char *
joined_text (GPtrArray  *updates,
             const char *kind)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < updates->len; i++)
    {
      JsonObject *update = g_ptr_array_index (updates, i);

      if (g_strcmp0 (string_member (update, "sessionUpdate"), kind) == 0)
        g_string_append (text, string_member (object_member (update, "content"), "text"));
    }

  return g_string_free (text, FALSE);
}

/* The tool_call of the given kind, or NULL. */
static JsonObject *
find_tool_call (GPtrArray  *updates,
                const char *kind)
{
  for (guint i = 0; i < updates->len; i++)
    {
      JsonObject *update = g_ptr_array_index (updates, i);

      if (g_strcmp0 (string_member (update, "sessionUpdate"), "tool_call") == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (update, "kind", NULL), kind) == 0)
        return update;
    }

  return NULL;
}

/* The last status a tool call was given. */
static const char *
last_status (GPtrArray  *updates,
             const char *tool_call_id)
{
  const char *status = NULL;

  for (guint i = 0; i < updates->len; i++)
    {
      JsonObject *update = g_ptr_array_index (updates, i);
      const char *kind = string_member (update, "sessionUpdate");

      if ((g_str_equal (kind, "tool_call") || g_str_equal (kind, "tool_call_update")) &&
          g_strcmp0 (json_object_get_string_member_with_default (update, "toolCallId", NULL),
                     tool_call_id) == 0 &&
          json_object_has_member (update, "status"))
        status = json_object_get_string_member (update, "status");
    }

  return status;
}

static char *
history_path (Fixture    *fixture,
              const char *session_id)
{
  g_autofree char *name = g_strconcat (session_id, ".jsonl", NULL);

  return g_build_filename (fixture->data_dir, "sessions", name, NULL);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

static void
test_initialize (Fixture       *fixture,
                 gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autoptr(JsonNode) result = NULL;
  JsonObject *object;
  JsonObject *caps;
  JsonObject *info;

  result = agent_call (agent, "initialize", "{\"protocolVersion\": 1}", NULL);
  object = json_node_get_object (result);

  g_assert_cmpint (json_object_get_int_member (object, "protocolVersion"), ==, 1);
  info = object_member (object, "agentInfo");
  g_assert_cmpstr (string_member (info, "name"), ==, "palaver-demo-agent");
  g_assert_cmpstr (string_member (info, "title"), ==, "Demo Agent");
  g_assert_cmpstr (string_member (info, "version"), ==, PACKAGE_VERSION);
  g_assert_cmpuint (json_array_get_length (array_member (object, "authMethods")), ==, 0);

  caps = object_member (object, "agentCapabilities");
  g_assert_true (json_object_get_boolean_member (caps, "loadSession"));
  g_assert_true (json_object_get_boolean_member (object_member (caps, "promptCapabilities"),
                                                 "embeddedContext"));
  g_assert_true (json_object_get_boolean_member (object_member (caps, "promptCapabilities"),
                                                 "image"));
  g_assert_true (json_object_get_boolean_member (object_member (caps, "mcpCapabilities"), "http"));
  g_assert_true (json_object_get_boolean_member (object_member (caps, "mcpCapabilities"), "sse"));
  object_member (object_member (caps, "sessionCapabilities"), "list");
  object_member (object_member (caps, "sessionCapabilities"), "resume");
  object_member (object_member (caps, "sessionCapabilities"), "close");

  /* A newer client still gets version 1. */
  {
    g_autoptr(JsonNode) again = agent_call (agent, "initialize", "{\"protocolVersion\": 7}", NULL);

    g_assert_cmpint (json_object_get_int_member (json_node_get_object (again), "protocolVersion"), ==, 1);
  }

  agent_stop (agent);
}

static void
test_new_session (Fixture       *fixture,
                  gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *params = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  JsonObject *object;
  JsonObject *modes;
  JsonArray *options;
  JsonObject *model;
  const char *id;

  agent_initialize (agent);
  params = g_strdup_printf ("{\"cwd\": \"%s\", \"mcpServers\": []}", fixture->cwd);
  result = agent_call (agent, "session/new", params, NULL);
  object = json_node_get_object (result);
  id = string_member (object, "sessionId");
  g_assert_true (g_uuid_string_is_valid (id));

  modes = object_member (object, "modes");
  g_assert_cmpstr (string_member (modes, "currentModeId"), ==, "code");
  g_assert_cmpuint (json_array_get_length (array_member (modes, "availableModes")), ==, 2);

  /* the mode as a config option too: a client with config options uses
   * them rather than modes */
  options = array_member (object, "configOptions");
  g_assert_cmpuint (json_array_get_length (options), ==, 2);
  model = config_option (options, "model");
  g_assert_cmpstr (string_member (model, "type"), ==, "select");
  g_assert_cmpstr (string_member (model, "category"), ==, "model");
  g_assert_cmpuint (json_array_get_length (array_member (model, "options")), ==, 2);
  g_assert_cmpstr (string_member (config_option (options, "mode"), "category"), ==, "mode");
  g_assert_cmpstr (string_member (config_option (options, "mode"), "currentValue"), ==, "code");
  g_assert_cmpuint (json_array_get_length (array_member (config_option (options, "mode"), "options")), ==, 2);

  /* The commands follow the response. */
  WAIT_UNTIL (agent->updates->len >= 1);
  updates = session_updates (agent, id, 0);
  g_assert_cmpuint (updates->len, ==, 1);
  {
    JsonObject *update = g_ptr_array_index (updates, 0);
    JsonArray *commands = array_member (update, "availableCommands");
    gboolean has_long = FALSE;
    gboolean has_code = FALSE;
    gboolean has_help = FALSE;

    g_assert_cmpstr (string_member (update, "sessionUpdate"), ==, "available_commands_update");
    for (guint i = 0; i < json_array_get_length (commands); i++)
      {
        const char *name = string_member (json_array_get_object_element (commands, i), "name");

        has_long |= g_str_equal (name, "long");
        has_code |= g_str_equal (name, "code");
        has_help |= g_str_equal (name, "help");
      }
    g_assert_true (has_long);
    g_assert_true (has_code);
    g_assert_true (has_help);
  }

  agent_stop (agent);
}

static void
test_prompt_turn (Fixture       *fixture,
                  gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *message = NULL;
  g_autofree char *thought = NULL;
  g_autofree char *history = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(GPtrArray) second = NULL;
  JsonObject *read;
  JsonObject *edit;
  JsonObject *run;
  JsonObject *diff;
  JsonObject *request;
  JsonArray *options;
  JsonArray *entries;
  int info;
  guint before;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd,
                          "[{\"name\": \"files\", \"command\": \"/usr/bin/files-mcp\", "
                          "\"args\": [], \"env\": [{\"name\": \"TOKEN\", \"value\": \"hush\"}]}, "
                          "{\"type\": \"http\", \"name\": \"docs\", "
                          "\"url\": \"https://mcp.example/api?key=hush\", \"headers\": []}]");

  stop = agent_prompt (agent, id, "Fix the greeting in hello.c please, thanks a lot");
  g_assert_cmpstr (stop, ==, "end_turn");
  updates = session_updates (agent, id, 0);

  /* Thought, plan, answer. */
  thought = joined_text (updates, "agent_thought_chunk");
  g_assert_nonnull (strstr (thought, "Fix the greeting"));
  g_assert_cmpuint (count_kind (updates, "agent_thought_chunk"), >, 1);
  g_assert_cmpuint (count_kind (updates, "plan"), >=, 3);
  entries = array_member (g_ptr_array_index (updates, find_kind (updates, "plan", 0)), "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 3);
  g_assert_cmpstr (string_member (json_array_get_object_element (entries, 0), "status"), ==, "in_progress");
  {
    int last = -1;

    for (int i = find_kind (updates, "plan", 0); i >= 0; i = find_kind (updates, "plan", i + 1))
      last = i;
    entries = array_member (g_ptr_array_index (updates, last), "entries");
    for (guint i = 0; i < 3; i++)
      g_assert_cmpstr (string_member (json_array_get_object_element (entries, i), "status"), ==, "completed");
  }

  g_assert_cmpuint (count_kind (updates, "agent_message_chunk"), >, 50);
  message = joined_text (updates, "agent_message_chunk");
  g_assert_nonnull (strstr (message, "demo agent"));
  g_assert_nonnull (strstr (message, "canned"));
  g_assert_nonnull (strstr (message, "**"));
  g_assert_nonnull (strstr (message, "```c\n"));
  g_assert_nonnull (strstr (message, "\n- "));
  g_assert_nonnull (strstr (message, "\n1. "));
  g_assert_nonnull (strstr (message, "](https://"));
  g_assert_nonnull (strstr (message, "You allowed the edit"));
  /* The MCP servers it was given, without their secrets. */
  g_assert_nonnull (strstr (message, "`files` (stdio: `/usr/bin/files-mcp`)"));
  g_assert_nonnull (strstr (message, "`docs` (http: `https://mcp.example/api`)"));
  g_assert_null (strstr (message, "hush"));

  /* Tool calls: read with text, edit with a diff, execute with output. */
  read = find_tool_call (updates, "read");
  g_assert_nonnull (read);
  g_assert_cmpstr (last_status (updates, string_member (read, "toolCallId")), ==, "completed");
  edit = find_tool_call (updates, "edit");
  g_assert_nonnull (edit);
  diff = json_array_get_object_element (array_member (edit, "content"), 0);
  g_assert_cmpstr (string_member (diff, "type"), ==, "diff");
  g_assert_true (g_str_has_prefix (string_member (diff, "path"), fixture->cwd));
  g_assert_nonnull (strstr (string_member (diff, "oldText"), "Hello"));
  g_assert_nonnull (strstr (string_member (diff, "newText"), "Hello, %s!"));
  g_assert_cmpstr (last_status (updates, string_member (edit, "toolCallId")), ==, "completed");
  /* ... and nothing was written. */
  g_assert_false (g_file_test (string_member (diff, "path"), G_FILE_TEST_EXISTS));
  run = find_tool_call (updates, "execute");
  g_assert_nonnull (run);
  g_assert_cmpstr (last_status (updates, string_member (run, "toolCallId")), ==, "completed");

  /* One permission request, for the edit, with the three options. */
  g_assert_cmpuint (agent->permissions->len, ==, 1);
  request = acp_incoming_request_get_params_object (g_ptr_array_index (agent->permissions, 0));
  g_assert_cmpstr (string_member (request, "sessionId"), ==, id);
  g_assert_cmpstr (string_member (object_member (request, "toolCall"), "toolCallId"), ==,
                   string_member (edit, "toolCallId"));
  options = array_member (request, "options");
  g_assert_cmpuint (json_array_get_length (options), ==, 3);
  g_assert_cmpstr (string_member (json_array_get_object_element (options, 0), "kind"), ==, "allow_once");
  g_assert_cmpstr (string_member (json_array_get_object_element (options, 0), "name"), ==, "Allow");
  g_assert_cmpstr (string_member (json_array_get_object_element (options, 1), "kind"), ==, "allow_always");
  g_assert_cmpstr (string_member (json_array_get_object_element (options, 1), "name"), ==, "Always allow");
  g_assert_cmpstr (string_member (json_array_get_object_element (options, 2), "kind"), ==, "reject_once");
  g_assert_cmpstr (string_member (json_array_get_object_element (options, 2), "name"), ==, "Reject");

  /* The title comes from the first words, on the first turn only. */
  g_assert_cmpuint (count_kind (updates, "session_info_update"), ==, 1);
  info = find_kind (updates, "session_info_update", 0);
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, info), "title"), ==,
                   "Fix the greeting in hello.c please,");
  g_assert_cmpuint (count_kind (updates, "usage_update"), ==, 1);
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, updates->len - 1), "sessionUpdate"), ==,
                   "usage_update");

  /* A second turn: no new title; the user prompt was not echoed live. */
  before = agent->updates->len;
  g_clear_pointer (&stop, g_free);
  stop = agent_prompt (agent, id, "/help");
  g_assert_cmpstr (stop, ==, "end_turn");
  second = session_updates (agent, id, before);
  g_assert_cmpuint (count_kind (second, "session_info_update"), ==, 0);
  g_assert_cmpuint (count_kind (second, "user_message_chunk"), ==, 0);
  g_clear_pointer (&message, g_free);
  message = joined_text (second, "agent_message_chunk");
  g_assert_nonnull (strstr (message, "/long"));
  g_assert_nonnull (strstr (message, "canned"));

  agent_stop (agent);

  history = history_path (fixture, id);
  g_assert_true (g_file_test (history, G_FILE_TEST_IS_REGULAR));
}

/* A client that shows plans by id gets plan_update, one planId a turn */
static void
test_plan_updates (Fixture       *fixture,
                   gconstpointer  data)
{
  Agent *agent = agent_start (fixture);
  g_autoptr(JsonNode) result = NULL;
  g_autofree char *id = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *first_id = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  JsonObject *plan = NULL;
  guint n = 0;

  result = agent_call (agent, "initialize",
                       "{\"protocolVersion\": 1, \"clientCapabilities\": {\"plan\": {}}}", NULL);
  g_assert_nonnull (result);
  id = agent_new_session (agent, fixture->cwd, NULL);

  for (guint turn = 0; turn < 2; turn++)
    {
      g_clear_pointer (&stop, g_free);
      stop = agent_prompt (agent, id, "/plan the release");
      g_assert_cmpstr (stop, ==, "end_turn");
    }
  updates = session_updates (agent, id, 0);
  g_assert_cmpuint (count_kind (updates, "plan"), ==, 0);

  for (int i = find_kind (updates, "plan_update", 0); i >= 0; i = find_kind (updates, "plan_update", i + 1))
    {
      plan = object_member (g_ptr_array_index (updates, i), "plan");
      g_assert_cmpstr (string_member (plan, "type"), ==, "items");
      g_assert_cmpuint (json_array_get_length (array_member (plan, "entries")), ==, 3);
      if (first_id == NULL)
        first_id = g_strdup (string_member (plan, "planId"));
      if (g_str_equal (string_member (plan, "planId"), first_id))
        n++;
    }
  /* the first turn's plan moved on, then the second turn had its own */
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpuint (count_kind (updates, "plan_update"), ==, 2 * n);
  g_assert_cmpstr (string_member (plan, "planId"), !=, first_id);
  g_assert_cmpstr (string_member (json_array_get_object_element (array_member (plan, "entries"), 2),
                                  "status"), ==, "completed");

  agent_stop (agent);
}

static void
test_always_allow (Fixture       *fixture,
                   gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *stop = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  JsonObject *edit;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd, NULL);
  g_free (agent->answer);
  agent->answer = g_strdup ("allow_always");

  stop = agent_prompt (agent, id, "/diff");
  g_assert_cmpstr (stop, ==, "end_turn");
  g_assert_cmpuint (agent->permissions->len, ==, 1);

  /* Not asked again. */
  g_clear_pointer (&stop, g_free);
  stop = agent_prompt (agent, id, "/diff");
  g_assert_cmpstr (stop, ==, "end_turn");
  g_assert_cmpuint (agent->permissions->len, ==, 1);
  updates = session_updates (agent, id, 0);
  edit = find_tool_call (updates, "edit");
  g_assert_cmpstr (last_status (updates, string_member (edit, "toolCallId")), ==, "completed");

  agent_stop (agent);
}

static void
test_reject (Fixture       *fixture,
             gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  JsonObject *edit;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd, NULL);
  g_free (agent->answer);
  agent->answer = g_strdup ("reject_once");

  stop = agent_prompt (agent, id, "Change something");
  g_assert_cmpstr (stop, ==, "end_turn");
  g_assert_cmpuint (agent->permissions->len, ==, 1);

  updates = session_updates (agent, id, 0);
  edit = find_tool_call (updates, "edit");
  g_assert_nonnull (edit);
  g_assert_cmpstr (last_status (updates, string_member (edit, "toolCallId")), ==, "failed");
  message = joined_text (updates, "agent_message_chunk");
  g_assert_nonnull (strstr (message, "You rejected the edit"));
  g_assert_null (strstr (message, "You allowed the edit"));
  g_assert_nonnull (strstr (message, "I was given no MCP servers"));

  agent_stop (agent);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *params = NULL;
  g_autofree char *stop = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(JsonNode) cancel = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *edit;
  CallData call;
  guint before;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd, NULL);
  g_clear_pointer (&agent->answer, g_free);   /* hold the permission request */

  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"prompt\": [{\"type\": \"text\", \"text\": \"Go\"}]}", id);
  agent_call_async (agent, "session/prompt", params, &call);
  WAIT_UNTIL (agent->permissions->len >= 1);
  g_assert_false (call.done);

  /* The turn waits for the answer; cancel it as a client does. */
  cancel = parse_json (params);
  json_object_remove_member (json_node_get_object (cancel), "prompt");
  g_assert_true (acp_connection_notify (agent->connection, "session/cancel", cancel, &error));
  g_assert_no_error (error);
  call_wait (&call);
  g_assert_no_error (call.error);
  g_assert_cmpstr (string_member (json_node_get_object (call.result), "stopReason"), ==, "cancelled");
  json_node_unref (call.result);
  answer_permission (g_ptr_array_index (agent->permissions, 0), NULL);

  updates = session_updates (agent, id, 0);
  edit = find_tool_call (updates, "edit");
  g_assert_cmpstr (last_status (updates, string_member (edit, "toolCallId")), ==, "failed");
  g_assert_null (find_tool_call (updates, "execute"));

  /* The session takes the next prompt; a cancelled answer to a permission
   * request ends that turn as cancelled too. */
  g_clear_pointer (&agent->answer, g_free);
  agent_call_async (agent, "session/prompt", params, &call);
  WAIT_UNTIL (agent->permissions->len >= 2);
  answer_permission (g_ptr_array_index (agent->permissions, 1), NULL);
  call_wait (&call);
  g_assert_no_error (call.error);
  g_assert_cmpstr (string_member (json_node_get_object (call.result), "stopReason"), ==, "cancelled");
  json_node_unref (call.result);

  /* A cancel with nothing running does nothing; the next turn is whole. */
  g_assert_true (acp_connection_notify (agent->connection, "session/cancel", cancel, &error));
  before = agent->updates->len;
  agent->answer = g_strdup ("allow_once");
  stop = agent_prompt (agent, id, "Again");
  g_assert_cmpstr (stop, ==, "end_turn");
  g_clear_pointer (&updates, g_ptr_array_unref);
  updates = session_updates (agent, id, before);
  g_assert_nonnull (find_tool_call (updates, "execute"));

  agent_stop (agent);
}

static void
test_long (Fixture       *fixture,
           gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GPtrArray) updates = NULL;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd, NULL);
  stop = agent_prompt (agent, id, "/long");
  g_assert_cmpstr (stop, ==, "end_turn");

  updates = session_updates (agent, id, 0);
  g_assert_cmpuint (count_kind (updates, "agent_message_chunk"), >, 2000);
  message = joined_text (updates, "agent_message_chunk");
  g_assert_true (g_str_has_suffix (message, "That was the whole long answer."));

  agent_stop (agent);
}

/* Code in three languages, a table, a diff, and a long output */
static void
test_code (Fixture       *fixture,
           gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GPtrArray) updates = NULL;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd, NULL);
  stop = agent_prompt (agent, id, "/code");
  g_assert_cmpstr (stop, ==, "end_turn");

  updates = session_updates (agent, id, 0);
  message = joined_text (updates, "agent_message_chunk");
  g_assert_nonnull (strstr (message, "```c\n"));
  g_assert_nonnull (strstr (message, "```python\n"));
  g_assert_nonnull (strstr (message, "```bash\n"));
  g_assert_nonnull (strstr (message, "```diff\n"));
  g_assert_nonnull (strstr (message, "|:---------|"));
  g_assert_cmpuint (count_kind (updates, "tool_call"), ==, 1);

  agent_stop (agent);
}

static void
test_modes_and_options (Fixture       *fixture,
                        gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *params = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *message = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) options = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  JsonObject *model;
  guint before;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd, NULL);

  before = agent->updates->len;
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"modeId\": \"ask\"}", id);
  result = agent_call (agent, "session/set_mode", params, NULL);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  /* said both ways: as a mode, and as the config options */
  WAIT_UNTIL (agent->updates->len >= before + 2);
  updates = session_updates (agent, id, before);
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, 0), "sessionUpdate"), ==, "current_mode_update");
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, 0), "currentModeId"), ==, "ask");
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, 1), "sessionUpdate"), ==, "config_option_update");
  g_assert_cmpstr (string_member (config_option (array_member (g_ptr_array_index (updates, 1), "configOptions"), "mode"),
                                  "currentValue"), ==, "ask");

  /* the mode as a config option: back to code, and to ask again */
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"mode\", \"value\": \"code\"}", id);
  options = agent_call (agent, "session/set_config_option", params, NULL);
  g_assert_cmpstr (string_member (config_option (array_member (json_node_get_object (options), "configOptions"), "mode"),
                                  "currentValue"), ==, "code");
  g_clear_pointer (&options, json_node_unref);
  /* its updates may come after the answer */
  before += 2;
  WAIT_UNTIL (agent->updates->len >= before + 2);
  before += 2;
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"mode\", \"value\": \"ask\"}", id);
  options = agent_call (agent, "session/set_config_option", params, NULL);
  g_clear_pointer (&options, json_node_unref);
  WAIT_UNTIL (agent->updates->len >= before + 2);
  g_clear_pointer (&updates, g_ptr_array_unref);
  updates = session_updates (agent, id, before);
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, 0), "currentModeId"), ==, "ask");
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, 1), "sessionUpdate"), ==, "config_option_update");

  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"model\", \"value\": \"demo-thorough\"}", id);
  options = agent_call (agent, "session/set_config_option", params, NULL);
  model = config_option (array_member (json_node_get_object (options), "configOptions"), "model");
  g_assert_cmpstr (string_member (model, "currentValue"), ==, "demo-thorough");

  /* Ask mode: no edit, no permission; the model shows in the answer. */
  before = agent->updates->len;
  stop = agent_prompt (agent, id, "Explain the code");
  g_assert_cmpstr (stop, ==, "end_turn");
  g_clear_pointer (&updates, g_ptr_array_unref);
  updates = session_updates (agent, id, before);
  g_assert_null (find_tool_call (updates, "edit"));
  g_assert_nonnull (find_tool_call (updates, "read"));
  g_assert_cmpuint (agent->permissions->len, ==, 0);
  message = joined_text (updates, "agent_message_chunk");
  g_assert_nonnull (strstr (message, "Canned Thorough"));
  g_assert_nonnull (strstr (message, "```c\n"));

  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"modeId\": \"yolo\"}", id);
  assert_call_fails (agent, "session/set_mode", params, ACP_ERROR_INVALID_PARAMS);
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"model\", \"value\": \"gpt\"}", id);
  assert_call_fails (agent, "session/set_config_option", params, ACP_ERROR_INVALID_PARAMS);
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"mode\", \"value\": \"yolo\"}", id);
  assert_call_fails (agent, "session/set_config_option", params, ACP_ERROR_INVALID_PARAMS);
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"model\", \"type\": \"boolean\", \"value\": true}", id);
  assert_call_fails (agent, "session/set_config_option", params, ACP_ERROR_INVALID_PARAMS);
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"speed\", \"value\": \"x\"}", id);
  assert_call_fails (agent, "session/set_config_option", params, ACP_ERROR_INVALID_PARAMS);

  agent_stop (agent);
}

static void
test_invalid_params (Fixture       *fixture,
                     gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *params = NULL;

  assert_call_fails (agent, "initialize", "{}", ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "initialize", "{\"protocolVersion\": \"1\"}", ACP_ERROR_INVALID_PARAMS);
  agent_initialize (agent);

  assert_call_fails (agent, "session/new", "{\"mcpServers\": []}", ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/new", "{\"cwd\": \"relative\", \"mcpServers\": []}",
                     ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/new", "{\"cwd\": 5, \"mcpServers\": []}", ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/new", "{\"cwd\": \"/tmp\", \"mcpServers\": {}}",
                     ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/new", "{\"cwd\": \"/tmp\", \"mcpServers\": [{\"command\": \"x\"}]}",
                     ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/new", "[1, 2]", ACP_ERROR_INVALID_PARAMS);

  id = agent_new_session (agent, fixture->cwd, NULL);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"prompt\": \"hello\"}", id);
  assert_call_fails (agent, "session/prompt", params, ACP_ERROR_INVALID_PARAMS);
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"prompt\": [42]}", id);
  assert_call_fails (agent, "session/prompt", params, ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/prompt", "{\"prompt\": []}", ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/prompt", "{\"sessionId\": \"../../etc\", \"prompt\": []}",
                     ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/prompt", "{\"sessionId\": \"no-such-session\", \"prompt\": []}",
                     ACP_ERROR_RESOURCE_NOT_FOUND);
  assert_call_fails (agent, "session/list", "{\"cursor\": \"soon\"}", ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/list", "{\"cwd\": 3}", ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/close", "{}", ACP_ERROR_INVALID_PARAMS);
  assert_call_fails (agent, "session/delete", "{}", ACP_ERROR_METHOD_NOT_FOUND);
  assert_call_fails (agent, "authenticate", "{\"methodId\": \"x\"}", ACP_ERROR_METHOD_NOT_FOUND);

  /* Still serving. */
  {
    g_autofree char *stop = agent_prompt (agent, id, "/help");

    g_assert_cmpstr (stop, ==, "end_turn");
  }

  agent_stop (agent);
}

static gboolean
updates_equal (JsonObject *a,
               JsonObject *b)
{
  g_autoptr(JsonNode) x = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) y = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (x, a);
  json_node_set_object (y, b);

  return json_node_equal (x, y);
}

static void
test_restart_list_load (Fixture       *fixture,
                        gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *other = NULL;
  g_autofree char *other_cwd = g_build_filename (fixture->data_dir, "elsewhere", NULL);
  g_autofree char *stop = NULL;
  g_autofree char *params = NULL;
  g_autoptr(GPtrArray) live = NULL;
  g_autoptr(GPtrArray) replayed = NULL;
  g_autoptr(JsonNode) list = NULL;
  g_autoptr(JsonNode) result = NULL;
  JsonArray *sessions;
  JsonObject *info;
  guint user_chunks = 0;
  guint j = 0;

  agent_initialize (agent);
  other = agent_new_session (agent, other_cwd, NULL);
  id = agent_new_session (agent, fixture->cwd, NULL);
  stop = agent_prompt (agent, id, "Tidy up the build files");
  g_assert_cmpstr (stop, ==, "end_turn");
  g_clear_pointer (&stop, g_free);
  stop = agent_prompt (agent, id, "/plan the release");
  g_assert_cmpstr (stop, ==, "end_turn");
  live = session_updates (agent, id, 0);
  agent_stop (agent);

  /* A new process knows the session... */
  agent = agent_start (fixture);
  agent_initialize (agent);

  list = agent_call (agent, "session/list", "{}", NULL);
  sessions = array_member (json_node_get_object (list), "sessions");
  g_assert_cmpuint (json_array_get_length (sessions), ==, 2);
  g_assert_false (json_object_has_member (json_node_get_object (list), "nextCursor"));
  /* newest first */
  info = json_array_get_object_element (sessions, 0);
  g_assert_cmpstr (string_member (info, "sessionId"), ==, id);
  g_assert_cmpstr (string_member (info, "cwd"), ==, fixture->cwd);
  g_assert_cmpstr (string_member (info, "title"), ==, "Tidy up the build files");
  string_member (info, "updatedAt");
  g_assert_cmpstr (string_member (json_array_get_object_element (sessions, 1), "sessionId"), ==, other);

  g_clear_pointer (&list, json_node_unref);
  params = g_strdup_printf ("{\"cwd\": \"%s\"}", other_cwd);
  list = agent_call (agent, "session/list", params, NULL);
  sessions = array_member (json_node_get_object (list), "sessions");
  g_assert_cmpuint (json_array_get_length (sessions), ==, 1);
  g_assert_cmpstr (string_member (json_array_get_object_element (sessions, 0), "sessionId"), ==, other);

  /* ... and replays it: the user's prompts, then everything it sent, in order. */
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"cwd\": \"%s\", \"mcpServers\": []}", id, fixture->cwd);
  result = agent_call (agent, "session/load", params, NULL);
  /* with its modes and models, so that the client shows its selectors */
  g_assert_cmpstr (string_member (object_member (json_node_get_object (result), "modes"), "currentModeId"),
                   ==, "code");
  g_assert_cmpuint (json_array_get_length (array_member (json_node_get_object (result), "configOptions")), ==, 2);
  replayed = session_updates (agent, id, 0);

  for (guint i = 0; i < replayed->len; i++)
    {
      JsonObject *update = g_ptr_array_index (replayed, i);

      if (g_str_equal (string_member (update, "sessionUpdate"), "user_message_chunk"))
        {
          const char *text = string_member (object_member (update, "content"), "text");

          g_assert_cmpstr (text, ==, user_chunks == 0 ? "Tidy up the build files" : "/plan the release");
          user_chunks++;
          continue;
        }
      g_assert_cmpuint (j, <, live->len);
      g_assert_true (updates_equal (update, g_ptr_array_index (live, j)));
      j++;
    }
  g_assert_cmpuint (user_chunks, ==, 2);
  g_assert_cmpuint (j, ==, live->len);
  /* The first prompt comes right after the commands, before the first thought. */
  g_assert_cmpstr (string_member (g_ptr_array_index (replayed, 0), "sessionUpdate"), ==,
                   "available_commands_update");
  g_assert_cmpstr (string_member (g_ptr_array_index (replayed, 1), "sessionUpdate"), ==,
                   "user_message_chunk");

  /* The loaded session takes prompts; its title is kept. */
  {
    guint before = agent->updates->len;
    g_autoptr(GPtrArray) more = NULL;

    g_clear_pointer (&stop, g_free);
    stop = agent_prompt (agent, id, "One more");
    g_assert_cmpstr (stop, ==, "end_turn");
    more = session_updates (agent, id, before);
    g_assert_cmpuint (count_kind (more, "session_info_update"), ==, 0);
  }

  agent_stop (agent);
}

static void
test_resume_close (Fixture       *fixture,
                   gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *id = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *params = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  guint before;

  agent_initialize (agent);
  id = agent_new_session (agent, fixture->cwd, NULL);
  stop = agent_prompt (agent, id, "First");
  g_assert_cmpstr (stop, ==, "end_turn");
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"configId\": \"model\", \"value\": \"demo-thorough\"}", id);
  result = agent_call (agent, "session/set_config_option", params, NULL);
  g_clear_pointer (&result, json_node_unref);
  g_clear_pointer (&params, g_free);
  agent_stop (agent);

  agent = agent_start (fixture);
  agent_initialize (agent);

  /* Not open in this process yet. */
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"prompt\": [{\"type\": \"text\", \"text\": \"x\"}]}", id);
  assert_call_fails (agent, "session/prompt", params, ACP_ERROR_RESOURCE_NOT_FOUND);

  /* Resume: no replay, and the session goes on. */
  g_free (params);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"cwd\": \"%s\", \"mcpServers\": []}", id, fixture->cwd);
  before = agent->updates->len;
  result = agent_call (agent, "session/resume", params, NULL);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  /* the session's modes and models, as they were left */
  g_assert_cmpstr (string_member (object_member (json_node_get_object (result), "modes"), "currentModeId"),
                   ==, "code");
  g_assert_cmpstr (string_member (config_option (array_member (json_node_get_object (result), "configOptions"),
                                                 "model"),
                                  "currentValue"),
                   ==, "demo-thorough");
  g_assert_cmpuint (agent->updates->len, ==, before);

  g_clear_pointer (&stop, g_free);
  stop = agent_prompt (agent, id, "Second");
  g_assert_cmpstr (stop, ==, "end_turn");
  updates = session_updates (agent, id, before);
  g_assert_cmpuint (count_kind (updates, "session_info_update"), ==, 0);
  g_assert_cmpuint (count_kind (updates, "agent_message_chunk"), >, 0);

  /* Close cancels a running turn and forgets the session. */
  {
    g_autofree char *prompt = NULL;
    g_autofree char *close = NULL;
    g_autoptr(JsonNode) closed = NULL;
    guint asked = agent->permissions->len;
    CallData call;

    g_clear_pointer (&agent->answer, g_free);
    prompt = g_strdup_printf ("{\"sessionId\": \"%s\", \"prompt\": [{\"type\": \"text\", \"text\": \"Third\"}]}", id);
    agent_call_async (agent, "session/prompt", prompt, &call);
    WAIT_UNTIL (agent->permissions->len >= asked + 1);

    close = g_strdup_printf ("{\"sessionId\": \"%s\"}", id);
    closed = agent_call (agent, "session/close", close, NULL);
    g_assert_true (JSON_NODE_HOLDS_OBJECT (closed));
    call_wait (&call);
    g_assert_no_error (call.error);
    g_assert_cmpstr (string_member (json_node_get_object (call.result), "stopReason"), ==, "cancelled");
    json_node_unref (call.result);
    answer_permission (g_ptr_array_index (agent->permissions, asked), NULL);

    assert_call_fails (agent, "session/prompt", prompt, ACP_ERROR_RESOURCE_NOT_FOUND);
  }

  /* The history kept both processes' turns. */
  {
    g_autoptr(JsonNode) loaded = NULL;
    g_autoptr(GPtrArray) replayed = NULL;
    g_autofree char *user = NULL;

    before = agent->updates->len;
    loaded = agent_call (agent, "session/load", params, NULL);
    replayed = session_updates (agent, id, before);
    user = joined_text (replayed, "user_message_chunk");
    g_assert_cmpstr (user, ==, "FirstSecondThird");
  }

  agent_stop (agent);
}

static void
test_unknown_session (Fixture       *fixture,
                      gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autofree char *params = NULL;

  agent_initialize (agent);
  params = g_strdup_printf ("{\"sessionId\": \"0b7bd1a6-5c57-4d56-9f8a-0e0f6d1c3f00\", \"cwd\": \"%s\", "
                            "\"mcpServers\": []}", fixture->cwd);
  assert_call_fails (agent, "session/load", params, ACP_ERROR_RESOURCE_NOT_FOUND);
  assert_call_fails (agent, "session/resume", params, ACP_ERROR_RESOURCE_NOT_FOUND);
  g_assert_cmpuint (agent->updates->len, ==, 0);

  agent_stop (agent);
}

static void
test_list_pages (Fixture       *fixture,
                 gconstpointer  user_data)
{
  Agent *agent = agent_start (fixture);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) second = NULL;
  g_autofree char *params = NULL;
  JsonArray *sessions;
  const char *cursor;

  agent_initialize (agent);
  for (guint i = 0; i < 55; i++)
    g_hash_table_add (ids, agent_new_session (agent, fixture->cwd, NULL));
  agent_stop (agent);

  agent = agent_start (fixture);
  agent_initialize (agent);

  first = agent_call (agent, "session/list", "{}", NULL);
  sessions = array_member (json_node_get_object (first), "sessions");
  g_assert_cmpuint (json_array_get_length (sessions), ==, 50);
  cursor = string_member (json_node_get_object (first), "nextCursor");
  for (guint i = 0; i < 50; i++)
    g_assert_true (g_hash_table_remove (ids, string_member (json_array_get_object_element (sessions, i),
                                                           "sessionId")));
  /* newest first: the last one created may share its millisecond with others */
  {
    const char *top = string_member (json_array_get_object_element (sessions, 0), "updatedAt");
    const char *bottom = string_member (json_array_get_object_element (sessions, 49), "updatedAt");

    g_assert_cmpstr (top, >=, bottom);
  }

  params = g_strdup_printf ("{\"cursor\": \"%s\"}", cursor);
  second = agent_call (agent, "session/list", params, NULL);
  sessions = array_member (json_node_get_object (second), "sessions");
  g_assert_cmpuint (json_array_get_length (sessions), ==, 5);
  g_assert_false (json_object_has_member (json_node_get_object (second), "nextCursor"));
  for (guint i = 0; i < 5; i++)
    g_assert_true (g_hash_table_remove (ids, string_member (json_array_get_object_element (sessions, i),
                                                           "sessionId")));
  g_assert_cmpuint (g_hash_table_size (ids), ==, 0);

  agent_stop (agent);
}

/* A torn or garbled line is skipped, and a torn last line does not swallow
 * the next one written. */
static void
test_damaged_history (Fixture       *fixture,
                      gconstpointer  user_data)
{
  const char *id = "5d0b3b9e-1111-4a4a-8a8a-000000000001";
  g_autofree char *sessions_dir = g_build_filename (fixture->data_dir, "sessions", NULL);
  g_autofree char *history = history_path (fixture, id);
  g_autofree char *index = g_build_filename (fixture->data_dir, "index.jsonl", NULL);
  g_autofree char *index_text = NULL;
  g_autofree char *params = NULL;
  g_autofree char *stop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) replayed = NULL;
  g_autoptr(JsonNode) result = NULL;
  Agent *agent;

  g_assert_cmpint (g_mkdir_with_parents (sessions_dir, 0700), ==, 0);
  index_text = g_strdup_printf ("{\"sessionId\": \"%s\", \"cwd\": \"%s\", \"title\": \"Old\", "
                                "\"updatedAt\": \"2024-01-01T00:00:00Z\"}\n"
                                "{\"sessionId\": \"broken\n"
                                "[1, 2]\n"
                                "{\"sessionId\": \"x\"}\n"
                                "{\"sessionId\": \"%s\", \"cw",
                                id, fixture->cwd, id);
  g_file_set_contents (index, index_text, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (history,
                       "{\"sessionUpdate\": \"agent_message_chunk\", \"content\": {\"type\": \"text\", \"text\": \"one\"}}\n"
                       "garbage\n"
                       "{\"no\": \"kind\"}\n"
                       "\n"
                       "{\"sessionUpdate\": \"agent_message_chunk\", \"content\": {\"type\": \"text\", \"text\": \"two\"}}\n"
                       "{\"sessionUpdate\": \"agent_message_chunk\", \"content\": {\"type\": \"te",
                       -1, &error);
  g_assert_no_error (error);

  agent = agent_start (fixture);
  agent_initialize (agent);
  params = g_strdup_printf ("{\"sessionId\": \"%s\", \"cwd\": \"%s\", \"mcpServers\": []}", id, fixture->cwd);
  result = agent_call (agent, "session/load", params, NULL);
  replayed = session_updates (agent, id, 0);
  g_assert_cmpuint (replayed->len, ==, 2);
  {
    g_autofree char *text = joined_text (replayed, "agent_message_chunk");

    g_assert_cmpstr (text, ==, "onetwo");
  }

  stop = agent_prompt (agent, id, "/help");
  g_assert_cmpstr (stop, ==, "end_turn");
  agent_stop (agent);

  /* Everything written after the torn line can be read back. */
  agent = agent_start (fixture);
  agent_initialize (agent);
  g_clear_pointer (&result, json_node_unref);
  result = agent_call (agent, "session/load", params, NULL);
  g_clear_pointer (&replayed, g_ptr_array_unref);
  replayed = session_updates (agent, id, 0);
  g_assert_cmpuint (count_kind (replayed, "user_message_chunk"), ==, 1);
  g_assert_cmpuint (count_kind (replayed, "usage_update"), ==, 1);
  {
    g_autofree char *text = joined_text (replayed, "agent_message_chunk");

    g_assert_true (g_str_has_prefix (text, "onetwo**Palaver's demo agent**"));
  }
  {
    g_autoptr(JsonNode) list = agent_call (agent, "session/list", "{}", NULL);
    JsonArray *sessions = array_member (json_node_get_object (list), "sessions");

    g_assert_cmpuint (json_array_get_length (sessions), ==, 1);
    g_assert_cmpstr (string_member (json_array_get_object_element (sessions, 0), "title"), ==, "Old");
  }
  agent_stop (agent);
}

/* The same agent as the application sees it, through AcpAgent. */

typedef struct
{
  gboolean      done;
  GAsyncResult *result;
} AsyncData;

static void
async_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  AsyncData *data = user_data;

  data->result = g_object_ref (result);
  data->done = TRUE;
}

/* Waits for the answer to @what */
static GAsyncResult *
async_wait (AsyncData  *data,
            const char *what)
{
  TestWait wait;

  test_wait_begin (&wait, 0);
  while (!data->done)
    test_wait_iterate (&wait, what, __FILE__, __LINE__, G_STRFUNC);
  test_wait_end (&wait);

  return data->result;
}

/* Keeps what the checks read of an update as JSON, as the helpers above
 * take it: its kind, and a chunk's text */
static void
acp_update_cb (AcpAgent  *agent,
               AcpUpdate *update,
               GPtrArray *updates)
{
  guint *n_updates = g_object_get_data (G_OBJECT (agent), "test-n-updates");
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "sessionUpdate", acp_update_get_kind (update));
  if (update->text != NULL)
    {
      JsonObject *content = json_object_new ();

      json_object_set_string_member (content, "text", update->text->str);
      json_object_set_object_member (object, "content", content);
    }
  g_ptr_array_add (updates, object);
  /* text chunks read together come joined */
  *n_updates += acp_update_get_n_notifications (update);
}

static gboolean
acp_request_cb (AcpAgent           *agent,
                const char         *session_id,
                AcpIncomingRequest *request,
                guint              *n_asked)
{
  g_assert_cmpstr (acp_incoming_request_get_method (request), ==, "session/request_permission");
  (*n_asked)++;
  answer_permission (request, "allow_once");

  return TRUE;
}

static void
test_through_acp_agent (Fixture       *fixture,
                        gconstpointer  user_data)
{
  const char *argv[] = { g_getenv ("PALAVER_DEMO_AGENT"), NULL };
  g_autofree char *data_env = g_strconcat ("PALAVER_DEMO_AGENT_DATA_DIR=", fixture->data_dir, NULL);
  const char *env[] = { data_env, "PALAVER_DEMO_AGENT_SPEED=0", NULL };
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) updates = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_autoptr(JsonObject) session = NULL;
  g_autoptr(JsonObject) list = NULL;
  g_autoptr(JsonObject) loaded = NULL;
  g_autoptr(JsonArray) prompt = NULL;
  g_autoptr(JsonNode) prompt_node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop = NULL;
  g_autofree char *message = NULL;
  AsyncData data = { 0 };
  guint n_asked = 0;
  guint n_updates = 0;
  guint live, live_len;
  const char *id;

  g_assert_nonnull (argv[0]);
  g_assert_cmpint (g_mkdir_with_parents (fixture->cwd, 0700), ==, 0);

  agent = acp_agent_new (argv, env, fixture->cwd);
  g_object_set_data (G_OBJECT (agent), "test-n-updates", &n_updates);
  g_signal_connect (agent, "update", G_CALLBACK (acp_update_cb), updates);
  g_signal_connect (agent, "request", G_CALLBACK (acp_request_cb), &n_asked);

  acp_agent_start_async (agent, NULL, async_cb, &data);
  g_assert_true (acp_agent_start_finish (agent, async_wait (&data, "start"), &error));
  g_assert_no_error (error);
  g_clear_object (&data.result);

  g_assert_cmpstr (acp_agent_get_agent_name (agent), ==, "palaver-demo-agent");
  g_assert_cmpstr (acp_agent_get_agent_title (agent), ==, "Demo Agent");
  g_assert_cmpuint (acp_agent_get_protocol_version (agent), ==, 1);
  g_assert_cmpuint (acp_agent_get_auth_methods (agent)->len, ==, 0);
  g_assert_true (acp_agent_has_capability (agent, ACP_AGENT_CAP_LOAD_SESSION));
  g_assert_true (acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_LIST));
  g_assert_true (acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_RESUME));
  g_assert_true (acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_CLOSE));
  g_assert_true (acp_agent_supports_mcp_transport (agent, ACP_MCP_TRANSPORT_HTTP));
  g_assert_true (acp_agent_supports_mcp_transport (agent, ACP_MCP_TRANSPORT_SSE));
  g_assert_true (acp_agent_has_capability (agent, ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT));
  g_assert_true (acp_agent_has_capability (agent, ACP_AGENT_CAP_PROMPT_IMAGE));
  g_assert_false (acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_DELETE));

  g_ptr_array_add (servers, acp_mcp_server_new_sse ("events", "https://mcp.example/sse"));
  data = (AsyncData) { 0 };
  acp_agent_new_session_async (agent, fixture->cwd, servers, NULL, NULL, async_cb, &data);
  session = acp_agent_new_session_finish (agent, async_wait (&data, "session/new"), &error);
  g_assert_no_error (error);
  g_clear_object (&data.result);
  id = string_member (session, "sessionId");

  prompt_node = parse_json ("[{\"type\": \"text\", \"text\": \"Show me everything\"}, "
                            "{\"type\": \"resource\", \"resource\": {\"uri\": \"file:///tmp/notes.txt\", "
                            "\"text\": \"some notes\"}}, "
                            "{\"type\": \"resource_link\", \"uri\": \"file:///tmp/big.log\", "
                            "\"name\": \"big.log\", \"size\": 300000}, "
                            /* a PNG's header and a JPEG's, each all that tells the size */
                            "{\"type\": \"image\", \"mimeType\": \"image/png\", "
                            "\"uri\": \"file:///tmp/screenshot.png\", "
                            "\"data\": \"iVBORw0KGgoAAAANSUhEUgAAB4AAAAQ4\"}, "
                            "{\"type\": \"image\", \"mimeType\": \"image/jpeg\", \"data\": \"/9j/4AAEAAD/wAARCAAQACAD\"}]");
  prompt = json_array_ref (json_node_get_array (prompt_node));
  data = (AsyncData) { 0 };
  acp_agent_prompt_async (agent, id, prompt, NULL, async_cb, &data);
  stop = acp_agent_prompt_finish (agent, async_wait (&data, "session/prompt"), &error);
  g_assert_no_error (error);
  g_clear_object (&data.result);
  g_assert_cmpstr (stop, ==, "end_turn");
  g_assert_cmpuint (n_asked, ==, 1);

  message = joined_text (updates, "agent_message_chunk");
  g_assert_nonnull (strstr (message, "`events` (sse: `https://mcp.example/sse`)"));
  g_assert_nonnull (strstr (message, "You sent: `notes.txt` (10 bytes, embedded); "
                                     "`big.log` (300000 bytes, linked); "
                                     "`screenshot.png` (1920 × 1080 image, 24 bytes); "
                                     "`pasted image` (32 × 16 image, 18 bytes)."));
  live = n_updates;
  live_len = updates->len;

  data = (AsyncData) { 0 };
  acp_agent_list_sessions_async (agent, fixture->cwd, NULL, NULL, async_cb, &data);
  list = acp_agent_list_sessions_finish (agent, async_wait (&data, "session/list"), &error);
  g_assert_no_error (error);
  g_clear_object (&data.result);
  g_assert_cmpuint (json_array_get_length (array_member (list, "sessions")), ==, 1);

  /* Loading in the same process replays what was said, the prompt included. */
  data = (AsyncData) { 0 };
  acp_agent_load_session_async (agent, id, fixture->cwd, servers, NULL, NULL, async_cb, &data);
  loaded = acp_agent_load_session_finish (agent, async_wait (&data, "session/load"), &error);
  g_assert_no_error (error);
  g_clear_object (&data.result);
  /* a user_message_chunk for each of the five blocks of the prompt */
  g_assert_cmpuint (n_updates, ==, live * 2 + 5);
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, live_len + 1), "sessionUpdate"), ==,
                   "user_message_chunk");
  g_assert_cmpstr (string_member (g_ptr_array_index (updates, live_len + 2), "sessionUpdate"), ==,
                   "user_message_chunk");

  data = (AsyncData) { 0 };
  acp_agent_stop_async (agent, NULL, async_cb, &data);
  g_assert_true (acp_agent_stop_finish (agent, async_wait (&data, "stop"), &error));
  g_assert_no_error (error);
  g_clear_object (&data.result);
  g_assert_cmpint (acp_agent_get_exit_status (agent), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/demo-agent/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("initialize", test_initialize);
  ADD ("new-session", test_new_session);
  ADD ("prompt-turn", test_prompt_turn);
  ADD ("plan-updates", test_plan_updates);
  ADD ("always-allow", test_always_allow);
  ADD ("reject", test_reject);
  ADD ("cancel", test_cancel);
  ADD ("long", test_long);
  ADD ("code", test_code);
  ADD ("modes-and-options", test_modes_and_options);
  ADD ("invalid-params", test_invalid_params);
  ADD ("restart-list-load", test_restart_list_load);
  ADD ("resume-close", test_resume_close);
  ADD ("unknown-session", test_unknown_session);
  ADD ("list-pages", test_list_pages);
  ADD ("damaged-history", test_damaged_history);
  ADD ("through-acp-agent", test_through_acp_agent);

#undef ADD

  return g_test_run ();
}
