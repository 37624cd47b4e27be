/* test-sdk-agent.c: AcpAgent against an agent written by someone else
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The peer is the example agent of the ACP TypeScript SDK (npm
 * @agentclientprotocol/sdk 1.9.0, dist/examples/agent.js), run with node. It
 * needs no model: every prompt plays the same scripted turn (text chunks,
 * a read tool call, an edit tool call that asks for permission). The package
 * is found under $PALAVER_NODE_MODULES (build-aux/setup.sh installs it);
 * without node or the package the test is skipped.
 */

#include "config.h"

#include "acp-agent.h"
#include "acp-update-private.h"
#include "test-util.h"

typedef struct
{
  char      *session_id;
  GPtrArray *updates;        /* AcpUpdate */
  GPtrArray *foreign_updates;
  guint      permission_requests;
  gboolean   allow_offered;
} Turn;

static void
update_cb (AcpAgent  *agent,
           AcpUpdate *update,
           Turn      *turn)
{
  if (g_strcmp0 (acp_update_get_session_id (update), turn->session_id) == 0)
    g_ptr_array_add (turn->updates, acp_update_ref (update));
  else
    g_ptr_array_add (turn->foreign_updates, acp_update_ref (update));
}

static gboolean
request_cb (AcpAgent           *agent,
            const char         *session_id,
            AcpIncomingRequest *request,
            Turn               *turn)
{
  JsonObject *params = acp_incoming_request_get_params_object (request);
  g_autoptr(JsonNode) reply = NULL;
  JsonArray *options;

  if (g_strcmp0 (acp_incoming_request_get_method (request), "session/request_permission") != 0)
    return FALSE;

  turn->permission_requests++;
  g_assert_cmpstr (session_id, ==, turn->session_id);
  g_assert_nonnull (params);

  /* pick the allow option the way a client would: by its kind */
  options = json_object_get_array_member (params, "options");
  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonObject *option = json_array_get_object_element (options, i);

      if (g_strcmp0 (json_object_get_string_member (option, "kind"), "allow_once") == 0 &&
          g_strcmp0 (json_object_get_string_member (option, "optionId"), "allow") == 0)
        turn->allow_offered = TRUE;
    }
  g_assert_true (turn->allow_offered);

  reply = json_from_string ("{\"outcome\": {\"outcome\": \"selected\", \"optionId\": \"allow\"}}",
                            NULL);
  acp_incoming_request_reply (request, reply);

  return TRUE;
}

static void
test_sdk_example_turn (void)
{
  const char *modules = g_getenv ("PALAVER_NODE_MODULES");
  g_autofree char *node = g_find_program_in_path ("node");
  g_autofree char *script = NULL;
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) session = NULL;
  g_autoptr(JsonArray) prompt = NULL;
  g_autofree char *stop_reason = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  Turn turn = { 0 };
  const char *argv[3];
  struct {
    const char *kind;
    const char *tool_call_id;
    const char *status;
  } expected[] = {
    { "agent_message_chunk", NULL, NULL },
    { "tool_call", "call_1", "pending" },
    { "tool_call_update", "call_1", "completed" },
    { "agent_message_chunk", NULL, NULL },
    { "tool_call", "call_2", "pending" },
    { "tool_call_update", "call_2", "completed" },
    { "agent_message_chunk", NULL, NULL },
  };

  if (node == NULL)
    {
      g_test_skip ("node is not installed (build-aux/setup.sh test installs it)");
      return;
    }
  if (modules != NULL)
    script = g_build_filename (modules, "@agentclientprotocol", "sdk", "dist", "examples",
                               "agent.js", NULL);
  if (script == NULL || !g_file_test (script, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("@agentclientprotocol/sdk 1.9.0 is not installed in $PALAVER_NODE_MODULES "
                   "(build-aux/setup.sh test installs it)");
      return;
    }

  argv[0] = "node";
  argv[1] = script;
  argv[2] = NULL;
  agent = acp_agent_new (argv, NULL, g_get_tmp_dir ());
  acp_agent_set_client_capabilities (agent, ACP_CLIENT_CAP_FS_READ | ACP_CLIENT_CAP_FS_WRITE);

  turn.updates = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_update_unref);
  turn.foreign_updates = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_update_unref);
  g_signal_connect (agent, "update", G_CALLBACK (update_cb), &turn);
  g_signal_connect (agent, "request", G_CALLBACK (request_cb), &turn);

  /* initialize */
  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_start_async (agent, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    if (!acp_agent_start_finish (agent, result, &error))
      {
        g_autofree char *tail = acp_agent_dup_stderr_tail (agent);

        g_error ("The SDK example agent did not start: %s\n%s", error->message, tail);
      }
  }
  g_assert_cmpint (acp_agent_get_state (agent), ==, ACP_AGENT_STATE_READY);
  g_assert_cmpuint (acp_agent_get_protocol_version (agent), ==, 1);
  /* it advertises loadSession: false and nothing else */
  g_assert_cmphex (acp_agent_get_capabilities (agent), ==, ACP_AGENT_CAP_NONE);
  g_assert_cmpuint (acp_agent_get_auth_methods (agent)->len, ==, 0);

  /* session/new */
  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_new_session_async (agent, g_get_tmp_dir (), NULL, NULL, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    session = acp_agent_new_session_finish (agent, result, &error);
    g_assert_no_error (error);
  }
  turn.session_id = g_strdup (json_object_get_string_member (session, "sessionId"));
  g_assert_cmpuint (strlen (turn.session_id), ==, 32);

  /* gating works against it too: it did not advertise session/list */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(JsonObject) page = NULL;
    g_autoptr(GError) local_error = NULL;

    acp_agent_list_sessions_async (agent, NULL, NULL, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    page = acp_agent_list_sessions_finish (agent, result, &local_error);
    g_assert_error (local_error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
  }

  /* a prompt turn */
  prompt = json_array_new ();
  {
    JsonObject *block = json_object_new ();

    json_object_set_string_member (block, "type", "text");
    json_object_set_string_member (block, "text", "Please improve the configuration.");
    json_array_add_object_element (prompt, block);
  }
  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_prompt_async (agent, turn.session_id, prompt, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    stop_reason = acp_agent_prompt_finish (agent, result, &error);
    g_assert_no_error (error);
  }
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  g_assert_cmpuint (turn.permission_requests, ==, 1);
  g_assert_cmpuint (turn.foreign_updates->len, ==, 0);
  g_assert_cmpuint (turn.updates->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      AcpUpdate *update = g_ptr_array_index (turn.updates, i);

      g_assert_cmpstr (acp_update_get_kind (update), ==, expected[i].kind);
      g_assert_cmpstr (update->tool_call.tool_call_id, ==, expected[i].tool_call_id);
      g_assert_cmpstr (update->tool_call.status, ==, expected[i].status);

      if (expected[i].tool_call_id == NULL)
        {
          /* a text block */
          g_assert_nonnull (update->text);
          g_string_append (text, update->text->str);
        }
    }
  /* the last chunk is the one the agent sends only when allowed */
  g_assert_true (g_str_has_prefix (text->str, "I'll help you with that."));
  g_assert_nonnull (strstr (text->str, "I've successfully updated the configuration."));

  /* it ends at EOF */
  {
    g_autoptr(GAsyncResult) result = NULL;

    acp_agent_stop_async (agent, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_true (acp_agent_stop_finish (agent, result, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpint (acp_agent_get_state (agent), ==, ACP_AGENT_STATE_EXITED);

  g_free (turn.session_id);
  g_ptr_array_unref (turn.updates);
  g_ptr_array_unref (turn.foreign_updates);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sdk-agent/example-turn", test_sdk_example_turn);

  return g_test_run ();
}
