/* test-session.c: AcpSession against the scripted fake agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fake agent ($PALAVER_FAKE_AGENT) plays scenarios from tests/scenarios
 * or written here into a temporary directory, and records every line it
 * receives, so a test can check what the session sent (and what it did not).
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "acp-generic-item.h"
#include "acp-permission-item.h"
#include "acp-plan-item.h"
#include "acp-session.h"
#include "test-util.h"

/* --- fixture --- */

typedef struct
{
  char       *tmpdir;
  char       *record;
  char       *cwd;
  AcpAgent   *agent;
  AcpSession *session;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->tmpdir = g_dir_make_tmp ("test-session-XXXXXX", &error);
  g_assert_no_error (error);
  f->record = g_build_filename (f->tmpdir, "record.jsonl", NULL);
  f->cwd = g_build_filename (f->tmpdir, "project", NULL);
  g_mkdir (f->cwd, 0700);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->session);

  if (f->agent != NULL && acp_agent_get_state (f->agent) != ACP_AGENT_STATE_EXITED)
    {
      g_autoptr(GAsyncResult) result = NULL;

      acp_agent_set_stop_grace_period (f->agent, 200);
      acp_agent_stop_async (f->agent, NULL, test_store_result_cb, &result);
      WAIT_UNTIL (result != NULL);
    }
  g_clear_object (&f->agent);

  test_remove_tree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->record);
  g_free (f->cwd);
}

/* Writes a scenario (quoted with ' for legibility) and returns its path. */
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

#define INITIALIZE_FULL \
  "'initialize': [{'op': 'result', 'result': {'protocolVersion': 1, 'agentCapabilities': " \
  "{'loadSession': true, 'sessionCapabilities': {'resume': {}, 'close': {}}}}}]"

/* Starts the fake agent on @scenario and makes a NEW session on it. */
static void
start (Fixture    *f,
       const char *scenario)
{
  const char *path = g_getenv ("PALAVER_FAKE_AGENT");
  const char *argv[] = { path, scenario, "--record", f->record, NULL };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (path);
  f->agent = acp_agent_new (argv, NULL, NULL);
  acp_agent_start_async (f->agent, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_agent_start_finish (f->agent, result, &error));
  g_assert_no_error (error);

  f->session = acp_session_new (f->agent, f->cwd);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_NEW);
  g_assert_true (acp_session_get_agent (f->session) == f->agent);
  g_assert_cmpstr (acp_session_get_cwd (f->session), ==, f->cwd);
  g_assert_null (acp_session_get_session_id (f->session));
}

static void
create (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  acp_session_create_async (f->session, NULL, NULL, test_store_result_cb, &result);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_CREATING);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_create_finish (f->session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_READY);
  g_assert_nonnull (acp_session_get_session_id (f->session));
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
prompt_start (Fixture       *f,
              const char    *text,
              GCancellable  *cancellable,
              GAsyncResult **slot)
{
  g_autoptr(JsonArray) prompt = text_prompt (text);

  acp_session_prompt_async (f->session, prompt, cancellable, test_store_result_cb, slot);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_PROMPTING);
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
      g_ptr_array_add (messages, node);
    }

  return messages;
}

/* The methods of the recorded messages ("(response)" for responses). */
static char *
record_methods (Fixture *f)
{
  g_autoptr(GPtrArray) messages = read_record (f);
  g_autoptr(GString) methods = g_string_new (NULL);

  for (guint i = 0; i < messages->len; i++)
    {
      JsonObject *object = json_node_get_object (g_ptr_array_index (messages, i));
      const char *method = json_object_get_string_member_with_default (object, "method", "(response)");

      if (methods->len > 0)
        g_string_append_c (methods, ' ');
      g_string_append (methods, method);
    }

  return g_string_free (g_steal_pointer (&methods), FALSE);
}

/* The last recorded response the client sent (to an agent request). */
static JsonObject *
last_response (Fixture *f)
{
  g_autoptr(GPtrArray) messages = read_record (f);

  for (guint i = messages->len; i > 0; i--)
    {
      JsonObject *object = json_node_get_object (g_ptr_array_index (messages, i - 1));

      if (!json_object_has_member (object, "method"))
        return json_object_ref (object);
    }

  return NULL;
}

static gpointer
transcript_item (Fixture *f,
                 guint    position)
{
  AcpTranscript *transcript = acp_session_get_transcript (f->session);
  g_autoptr(GObject) item = NULL;

  acp_transcript_flush (transcript);
  item = g_list_model_get_item (G_LIST_MODEL (transcript), position);
  g_assert_nonnull (item);

  return item; /* the transcript keeps it alive */
}

static guint
transcript_n_items (Fixture *f)
{
  AcpTranscript *transcript = acp_session_get_transcript (f->session);

  acp_transcript_flush (transcript);

  return g_list_model_get_n_items (G_LIST_MODEL (transcript));
}

/* The first permission item of the transcript, or NULL. */
static AcpPermissionItem *
find_permission (Fixture *f)
{
  guint n = transcript_n_items (f);

  for (guint i = 0; i < n; i++)
    {
      AcpItem *item = transcript_item (f, i);

      if (ACP_IS_PERMISSION_ITEM (item))
        return ACP_PERMISSION_ITEM (item);
    }

  return NULL;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *counter)
{
  (*counter)++;
}

/* What the last items-changed of a list said, and how many came */
typedef struct
{
  guint n;
  guint position;
  guint removed;
  guint added;
} Changes;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Changes    *changes)
{
  changes->n++;
  changes->position = position;
  changes->removed = removed;
  changes->added = added;
}

/* The @property of the @index-th item of @model */
static char *
dup_item_string (GListModel *model,
                 guint       index,
                 const char *property)
{
  g_autoptr(GObject) item = g_list_model_get_item (model, index);
  char *value = NULL;

  g_assert_nonnull (item);
  g_object_get (item, property, &value, NULL);
  return value;
}

static void
assert_item_string (GListModel *model,
                    guint       index,
                    const char *property,
                    const char *expected)
{
  g_autofree char *value = dup_item_string (model, index, property);

  g_assert_cmpstr (value, ==, expected);
}

/* --- tests --- */

static void
test_create_and_prompt (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  g_autofree char *methods = NULL;
  AcpMessageItem *message;
  AcpToolCallItem *tool;

  start (f, "basic.json");
  create (f);
  g_assert_cmpstr (acp_session_get_session_id (f->session), ==, "fake-session-1");
  g_assert_null (acp_session_get_stop_reason (f->session));

  prompt_start (f, "Read the README", NULL, &result);
  /* a second prompt while one runs is refused */
  {
    g_autoptr(GAsyncResult) second = NULL;
    g_autoptr(JsonArray) prompt = text_prompt ("again");

    acp_session_prompt_async (f->session, prompt, NULL, test_store_result_cb, &second);
    WAIT_UNTIL (second != NULL);
    g_assert_null (acp_session_prompt_finish (f->session, second, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
    g_clear_error (&error);
  }
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_assert_cmpstr (acp_session_get_stop_reason (f->session), ==, "end_turn");
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_READY);

  /* the prompt, the agent's message (three chunks), the tool call */
  g_assert_cmpuint (transcript_n_items (f), ==, 3);
  message = transcript_item (f, 0);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_USER);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Read the README");
  message = transcript_item (f, 1);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_AGENT);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Hello, I will read the file.");
  tool = transcript_item (f, 2);
  g_assert_cmpstr (acp_tool_call_item_get_tool_call_id (tool), ==, "call-1");
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "Read README.md");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "completed");
  g_assert_cmpuint (g_list_model_get_n_items (acp_tool_call_item_get_content (tool)), ==, 1);

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new session/prompt");
}

static void
test_permission (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  g_autoptr(JsonObject) response = NULL;
  AcpPermissionItem *permission;
  AcpToolCallItem *tool;
  guint n_items;

  start (f, "permission.json");
  create (f);
  prompt_start (f, "Write it", NULL, &result);

  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  g_assert_null (result);
  permission = find_permission (f);
  g_assert_nonnull (permission);
  g_assert_cmpint (acp_item_get_kind (ACP_ITEM (permission)), ==, ACP_ITEM_KIND_PERMISSION);
  g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_PENDING);
  g_assert_cmpstr (acp_permission_item_get_tool_call_id (permission), ==, "call-1");
  g_assert_cmpuint (g_list_model_get_n_items (acp_permission_item_get_options (permission)), ==, 2);
  g_assert_nonnull (acp_permission_item_get_request (permission));

  /* the tool call was never announced: the request created it, before the
   * permission item */
  tool = acp_transcript_lookup_tool_call (acp_session_get_transcript (f->session), "call-1");
  g_assert_nonnull (tool);
  g_assert_cmpstr (acp_tool_call_item_get_title (tool), ==, "Write file");
  g_assert_cmpstr (acp_tool_call_item_get_tool_kind (tool), ==, "edit");
  n_items = transcript_n_items (f);
  g_assert_true (transcript_item (f, n_items - 1) == (gpointer) permission);
  g_assert_true (transcript_item (f, n_items - 2) == (gpointer) tool);

  /* an unknown option is refused and changes nothing */
  g_assert_false (acp_permission_item_select (permission, "sudo", &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_PENDING);

  g_assert_true (acp_permission_item_select (permission, "allow_once", &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_SELECTED);
  g_assert_cmpstr (acp_permission_item_get_selected_option_id (permission), ==, "allow_once");
  g_assert_cmpuint (acp_session_get_pending_permissions (f->session), ==, 0);

  /* answering twice does nothing */
  g_assert_true (acp_permission_item_select (permission, "reject_once", &error));
  acp_permission_item_cancel (permission);
  g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_SELECTED);
  g_assert_cmpstr (acp_permission_item_get_selected_option_id (permission), ==, "allow_once");

  /* the fake agent exits 3 unless the outcome was "selected" */
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "completed");

  response = last_response (f);
  g_assert_nonnull (response);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_object_get_object_member (response, "result"), "outcome"), "optionId"),
                   ==, "allow_once");
}

/* A request answered with a reject option: the tool call says it was
 * refused (its "failed" is not an error); asked again and allowed, it is
 * not refused any more */
static void
test_permission_rejected (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *stop_reason = NULL;
  AcpPermissionItem *permission;
  AcpToolCallItem *tool;

  scenario = write_scenario (f, "rejected.json",
    "{'handlers': {" INITIALIZE_FULL ","
    "  'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    "  'session/prompt': ["
    "    {'op': 'request', 'method': 'session/request_permission', 'params': {"
    "       'sessionId': '${session_id}', 'toolCall': {'toolCallId': 'edit', 'title': 'Edit', 'kind': 'edit'},"
    "       'options': [{'optionId': 'yes', 'name': 'Allow', 'kind': 'allow_once'},"
    "                   {'optionId': 'no', 'name': 'Reject', 'kind': 'reject_once'}]}},"
    "    {'op': 'update', 'update': {'sessionUpdate': 'tool_call_update', 'toolCallId': 'edit',"
    "                                'status': 'failed'}},"
    "    {'op': 'result', 'result': {'stopReason': 'end_turn'}}]}}");
  start (f, scenario);
  create (f);
  prompt_start (f, "Edit it", NULL, &result);

  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  permission = find_permission (f);
  tool = acp_transcript_lookup_tool_call (acp_session_get_transcript (f->session), "edit");
  g_assert_false (acp_tool_call_item_get_rejected (tool));
  g_assert_true (acp_permission_item_select (permission, "no", &error));
  g_assert_no_error (error);
  g_assert_true (acp_tool_call_item_get_rejected (tool));

  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "failed");
  g_assert_true (acp_tool_call_item_get_rejected (tool));

  /* the same tool call asked about again, and allowed */
  g_clear_object (&result);
  g_clear_pointer (&stop_reason, g_free);
  prompt_start (f, "Edit it after all", NULL, &result);
  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  for (guint i = transcript_n_items (f); i > 0; i--)
    {
      gpointer item = transcript_item (f, i - 1);

      if (ACP_IS_PERMISSION_ITEM (item) &&
          acp_permission_item_get_state (item) == ACP_PERMISSION_STATE_PENDING)
        {
          g_assert_true (acp_permission_item_select (item, "yes", &error));
          break;
        }
    }
  g_assert_false (acp_tool_call_item_get_rejected (tool));
  WAIT_UNTIL (result != NULL);
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  g_autofree char *methods = NULL;
  g_autoptr(JsonObject) response = NULL;
  AcpPermissionItem *permission;
  AcpToolCallItem *tool;

  start (f, "cancel.json");
  create (f);
  prompt_start (f, "Write it", NULL, &result);

  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  permission = find_permission (f);

  tool = acp_transcript_lookup_tool_call (acp_session_get_transcript (f->session), "call-1");
  g_assert_nonnull (tool);
  g_assert_false (acp_tool_call_item_get_stopped (tool));

  g_assert_true (acp_session_cancel (f->session, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_CANCELLED);
  /* its tool call too, without waiting for the agent */
  g_assert_true (acp_tool_call_item_get_stopped (tool));
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "pending");
  g_assert_null (acp_permission_item_get_selected_option_id (permission));
  g_assert_cmpuint (acp_session_get_pending_permissions (f->session), ==, 0);

  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "cancelled");
  g_assert_cmpstr (acp_session_get_stop_reason (f->session), ==, "cancelled");
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_READY);

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new session/prompt session/cancel (response)");
  response = last_response (f);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_object_get_object_member (response, "result"), "outcome"), "outcome"),
                   ==, "cancelled");
}

static void
test_cancel_cancellable (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AcpPermissionItem *permission;
  char *stop_reason;

  start (f, "cancel.json");
  create (f);
  prompt_start (f, "Write it", cancellable, &result);

  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  permission = find_permission (f);

  g_cancellable_cancel (cancellable);
  g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_CANCELLED);
  /* the turn still ends with the agent's answer */
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_PROMPTING);

  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (stop_reason);
  g_assert_cmpstr (acp_session_get_stop_reason (f->session), ==, "cancelled");
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_READY);
}

typedef struct
{
  Fixture *f;
  guint    last_count;
  guint    notifications;
  guint    max_items_while_loading;
  gboolean counted_outside_loading;
} ReplayWatch;

static void
replay_count_cb (AcpSession  *session,
                 GParamSpec  *pspec,
                 ReplayWatch *watch)
{
  guint count = acp_session_get_replay_count (session);
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (session)));

  if (acp_session_get_state (session) != ACP_SESSION_STATE_LOADING)
    {
      watch->counted_outside_loading = TRUE;
      return;
    }

  /* text chunks read together come joined: they count as what they were */
  g_assert_cmpuint (count, >, watch->last_count);
  watch->last_count = count;
  watch->notifications++;
  watch->max_items_while_loading = MAX (watch->max_items_while_loading, shown);
}

static void
test_load_replay (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  ReplayWatch watch = { f, 0, 0, 0, FALSE };
  AcpMessageItem *message;
  AcpToolCallItem *tool;

  start (f, "replay-10k.json");
  g_signal_connect (f->session, "notify::replay-count", G_CALLBACK (replay_count_cb), &watch);

  acp_session_load_async (f->session, "stored-1", NULL, NULL, test_store_result_cb, &result);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_LOADING);
  g_assert_cmpstr (acp_session_get_session_id (f->session), ==, "stored-1");
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_load_finish (f->session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_READY);

  /* counted live while LOADING, and every one of them */
  g_assert_cmpuint (watch.last_count, ==, 10000);
  g_assert_cmpuint (watch.notifications, <=, 10000);
  g_assert_false (watch.counted_outside_loading);
  g_assert_cmpuint (acp_session_get_replay_count (f->session), ==, 10000);
  /* the transcript showed items before the load completed */
  g_assert_cmpuint (watch.max_items_while_loading, >, 0);

  /* 2000 turns of: user message, agent message (two chunks), tool call */
  g_assert_cmpuint (transcript_n_items (f), ==, 6000);
  message = transcript_item (f, 0);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_USER);
  g_assert_true (g_str_has_prefix (acp_message_item_get_text (message), "Turn 0: please look"));
  message = transcript_item (f, 1);
  g_assert_cmpint (acp_message_item_get_role (message), ==, ACP_MESSAGE_ROLE_AGENT);
  g_assert_true (g_str_has_prefix (acp_message_item_get_text (message), "Let me read module 0 first."));
  g_assert_true (g_str_has_suffix (acp_message_item_get_text (message), "truncating the input line silently."));
  tool = transcript_item (f, 5999);
  g_assert_cmpstr (acp_tool_call_item_get_tool_call_id (tool), ==, "call-1999");
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "completed");
}

static void
test_load_small (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;

  start (f, "basic.json");
  acp_session_load_async (f->session, "old-1", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_load_finish (f->session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (acp_session_get_replay_count (f->session), ==, 2);
  g_assert_cmpuint (transcript_n_items (f), ==, 2);
  g_assert_cmpstr (acp_message_item_get_text (transcript_item (f, 0)), ==, "What is in this project?");

  /* a loaded session takes prompts; loading again is refused */
  g_clear_object (&result);
  acp_session_load_async (f->session, "old-1", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_session_load_finish (f->session, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);

  g_clear_object (&result);
  prompt_start (f, "More", NULL, &result);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  /* updates after the load are not replay */
  g_assert_cmpuint (acp_session_get_replay_count (f->session), ==, 2);
}

static void
test_resume (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  JsonObject *params;

  start (f, "basic.json");
  acp_session_resume_async (f->session, "old-2", NULL, NULL, test_store_result_cb, &result);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_RESUMING);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_resume_finish (f->session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_READY);
  g_assert_cmpstr (acp_session_get_session_id (f->session), ==, "old-2");
  g_assert_cmpuint (transcript_n_items (f), ==, 0);
  g_assert_cmpuint (acp_session_get_replay_count (f->session), ==, 0);

  messages = read_record (f);
  g_assert_cmpuint (messages->len, ==, 2);
  params = json_object_get_object_member (json_node_get_object (g_ptr_array_index (messages, 1)),
                                          "params");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (g_ptr_array_index (messages, 1)),
                                                  "method"), ==, "session/resume");
  g_assert_cmpstr (json_object_get_string_member (params, "sessionId"), ==, "old-2");
  g_assert_cmpstr (json_object_get_string_member (params, "cwd"), ==, f->cwd);
}

static void
test_close (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *methods = NULL;

  start (f, "basic.json");
  create (f);

  acp_session_close_async (f->session, NULL, test_store_result_cb, &result);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_CLOSING);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_close_finish (f->session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_CLOSED);

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new session/close");

  /* nothing more happens on a closed session */
  g_clear_object (&result);
  {
    g_autoptr(JsonArray) prompt = text_prompt ("hello?");

    acp_session_prompt_async (f->session, prompt, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    g_assert_null (acp_session_prompt_finish (f->session, result, &error));
    g_assert_error (error, ACP_ERROR, ACP_ERROR_CLOSED);
  }
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_CLOSED);
  g_assert_cmpuint (transcript_n_items (f), ==, 0);
}

static void
test_gating (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *methods = NULL;

  start (f, "minimal.json");

  acp_session_load_async (f->session, "old-1", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_session_load_finish (f->session, result, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_NEW);

  g_clear_object (&result);
  acp_session_resume_async (f->session, "old-1", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_session_resume_finish (f->session, result, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_NEW);

  /* still usable: create, then a local close */
  create (f);
  g_clear_object (&result);
  acp_session_close_async (f->session, NULL, test_store_result_cb, &result);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_CLOSED);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_close_finish (f->session, result, &error));
  g_assert_no_error (error);

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new");
}

/* The additionalDirectories of the @index-th request with @method, joined
 * by spaces, or NULL when it had none. */
static char *
sent_directories (Fixture    *f,
                  const char *method,
                  guint       index)
{
  g_autoptr(GPtrArray) messages = read_record (f);

  for (guint i = 0; i < messages->len; i++)
    {
      JsonObject *object = json_node_get_object (g_ptr_array_index (messages, i));
      JsonObject *params;
      JsonArray *dirs;
      GString *joined;

      if (g_strcmp0 (json_object_get_string_member_with_default (object, "method", NULL), method) != 0 ||
          index-- > 0)
        continue;

      params = json_object_get_object_member (object, "params");
      if (!json_object_has_member (params, "additionalDirectories"))
        return NULL;
      dirs = json_object_get_array_member (params, "additionalDirectories");
      joined = g_string_new (NULL);
      for (guint j = 0; j < json_array_get_length (dirs); j++)
        g_string_append_printf (joined, "%s%s", j > 0 ? " " : "",
                                json_array_get_string_element (dirs, j));
      return g_string_free (joined, FALSE);
    }

  g_error ("No %s request in the record", method);
  return NULL;
}

/* Folders besides cwd go with session/new, session/load and session/resume */
static void
test_additional_directories (Fixture       *f,
                             gconstpointer  data)
{
  const char *dirs[] = { "/srv/shared", "/srv/docs", NULL };
  g_autoptr(AcpSession) loaded = NULL;
  g_autoptr(AcpSession) resumed = NULL;
  g_autoptr(AcpSession) plain = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sent = NULL;
  guint notified = 0;

  start (f, "folders.json");
  g_assert_cmpuint (g_strv_length ((char **) acp_session_get_additional_directories (f->session)), ==, 0);
  g_signal_connect (f->session, "notify::additional-directories", G_CALLBACK (count_notify_cb), &notified);
  acp_session_set_additional_directories (f->session, dirs);
  acp_session_set_additional_directories (f->session, dirs);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpstrv (acp_session_get_additional_directories (f->session), dirs);

  create (f);
  sent = sent_directories (f, "session/new", 0);
  g_assert_cmpstr (sent, ==, "/srv/shared /srv/docs");
  g_clear_pointer (&sent, g_free);

  loaded = acp_session_new (f->agent, f->cwd);
  acp_session_set_additional_directories (loaded, dirs);
  acp_session_load_async (loaded, "old-1", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_load_finish (loaded, result, &error));
  g_assert_no_error (error);
  sent = sent_directories (f, "session/load", 0);
  g_assert_cmpstr (sent, ==, "/srv/shared /srv/docs");
  g_clear_pointer (&sent, g_free);

  g_clear_object (&result);
  resumed = acp_session_new (f->agent, f->cwd);
  acp_session_set_additional_directories (resumed, dirs);
  acp_session_resume_async (resumed, "old-2", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_resume_finish (resumed, result, &error));
  g_assert_no_error (error);
  sent = sent_directories (f, "session/resume", 0);
  g_assert_cmpstr (sent, ==, "/srv/shared /srv/docs");
  g_clear_pointer (&sent, g_free);

  /* none: the member is left out, not sent empty */
  g_clear_object (&result);
  plain = acp_session_new (f->agent, f->cwd);
  acp_session_create_async (plain, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_create_finish (plain, result, &error));
  g_assert_no_error (error);
  g_assert_null (sent_directories (f, "session/new", 1));
}

/* An agent that does not take additional folders is sent nothing */
static void
test_additional_directories_gated (Fixture       *f,
                                   gconstpointer  data)
{
  const char *dirs[] = { "/srv/shared", NULL };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *methods = NULL;

  start (f, "minimal.json");
  acp_session_set_additional_directories (f->session, dirs);
  acp_session_create_async (f->session, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_session_create_finish (f->session, result, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_NEW);

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize");
}

static AcpNoticeItem *
last_notice (Fixture *f)
{
  guint n = transcript_n_items (f);
  AcpItem *item;

  g_assert_cmpuint (n, >, 0);
  item = transcript_item (f, n - 1);
  g_assert_true (ACP_IS_NOTICE_ITEM (item));

  return ACP_NOTICE_ITEM (item);
}

static void
test_crash_mid_prompt (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *stop_reason;
  AcpMessageItem *message;
  AcpNoticeItem *notice;
  const GError *session_error;

  start (f, "crash-mid-request.json");
  create (f);
  prompt_start (f, "Do it", NULL, &result);
  WAIT_UNTIL (result != NULL);

  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_null (stop_reason);
  g_assert_nonnull (error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_FAILED);
  session_error = acp_session_get_error (f->session);
  g_assert_nonnull (session_error);
  g_assert_true (g_error_matches (error, session_error->domain, session_error->code));

  /* what was shown stays, and an error notice follows */
  g_assert_cmpuint (transcript_n_items (f), ==, 3);
  message = transcript_item (f, 0);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Do it");
  message = transcript_item (f, 1);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, "Working on it");
  notice = last_notice (f);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_ERROR);
  g_assert_cmpstr (acp_notice_item_get_body (notice), ==, session_error->message);

  /* a failed session refuses everything with its error */
  g_clear_object (&result);
  g_clear_error (&error);
  acp_session_create_async (f->session, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_session_create_finish (f->session, result, &error));
  g_assert_true (g_error_matches (error, session_error->domain, session_error->code));
}

/* A message over the connection's limit is skipped, and the session says
 * so in its transcript rather than nothing */
static void
test_line_too_long (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  AcpNoticeItem *notice;

  start (f, "huge-line.json");
  acp_connection_set_max_line_length (acp_agent_get_connection (f->agent), 1024 * 1024);
  create (f);
  prompt_start (f, "Say a lot", NULL, &result);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  /* the prompt, then the notice in place of the 8 MiB message */
  g_assert_cmpuint (transcript_n_items (f), ==, 2);
  notice = last_notice (f);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_WARNING);
  /* the limit, in words a person reads (GLib puts a no-break space in) */
  g_assert_nonnull (strstr (acp_notice_item_get_body (notice), "1.0\xc2\xa0MiB"));
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_READY);
}

/* A scenario step: the agent reports a tool call running */
#define TOOL_CALL_RUNNING(id) \
  "{'op': 'update', 'update': {'sessionUpdate': 'tool_call', 'toolCallId': '" id "'," \
  "                            'title': 'Build', 'status': 'in_progress'}}"

/* Whether the tool call @id is known and stopped */
static gboolean
tool_call_stopped (Fixture    *f,
                   const char *id)
{
  AcpToolCallItem *tool = acp_transcript_lookup_tool_call (acp_session_get_transcript (f->session), id);

  g_assert_nonnull (tool);
  return acp_tool_call_item_get_stopped (tool);
}

static void
test_crash_mid_replay (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  AcpNoticeItem *notice;
  guint failed_notifications = 0;

  scenario = write_scenario (f, "crash-replay.json",
    "{'handlers': {" INITIALIZE_FULL ","
    "  'session/load': ["
    "    {'op': 'updates', 'count': 30, 'templates': ["
    "      {'sessionUpdate': 'user_message_chunk', 'messageId': 'u${cycle}',"
    "       'content': {'type': 'text', 'text': 'question ${cycle}'}},"
    "      {'sessionUpdate': 'agent_message_chunk', 'messageId': 'a${cycle}',"
    "       'content': {'type': 'text', 'text': 'answer ${cycle}'}}]},"
    "    " TOOL_CALL_RUNNING ("run-1") ","
    "    {'op': 'stderr', 'text': 'panic: replay index corrupt'},"
    "    {'op': 'exit', 'status': 2}]}}");
  start (f, scenario);
  g_signal_connect (f->session, "notify::error", G_CALLBACK (count_notify_cb), &failed_notifications);

  acp_session_load_async (f->session, "old-1", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_session_load_finish (f->session, result, &error));
  g_assert_nonnull (error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_FAILED);
  g_assert_cmpuint (failed_notifications, ==, 1);
  g_assert_true (g_error_matches (error, acp_session_get_error (f->session)->domain,
                                  acp_session_get_error (f->session)->code));

  /* the 31 replayed updates stay (15 turns of two messages, a tool call),
   * then a notice with the agent's stderr; nothing runs anymore */
  g_assert_cmpuint (acp_session_get_replay_count (f->session), ==, 31);
  g_assert_cmpuint (transcript_n_items (f), ==, 32);
  g_assert_cmpstr (acp_message_item_get_text (transcript_item (f, 29)), ==, "answer 14");
  g_assert_true (tool_call_stopped (f, "run-1"));
  notice = last_notice (f);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_ERROR);
  g_assert_nonnull (acp_notice_item_get_details (notice));
  g_assert_nonnull (strstr (acp_notice_item_get_details (notice), "panic: replay index corrupt"));
}

static void
test_tool_calls_stopped (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *stop_reason = NULL;
  AcpTranscript *transcript;

  scenario = write_scenario (f, "unfinished.json",
    "{'handlers': {" INITIALIZE_FULL ","
    "  'session/load': ["
    "    " TOOL_CALL_RUNNING ("old-run") ","
    "    {'op': 'update', 'update': {'sessionUpdate': 'tool_call', 'toolCallId': 'old-done',"
    "                                'title': 'Read', 'status': 'completed'}},"
    "    {'op': 'result', 'result': {}}],"
    "  'session/prompt': ["
    "    " TOOL_CALL_RUNNING ("run") ","
    "    {'op': 'update', 'update': {'sessionUpdate': 'tool_call', 'toolCallId': 'failed',"
    "                                'title': 'Lint', 'status': 'failed'}},"
    "    {'op': 'result', 'result': {'stopReason': 'end_turn'}}]}}");
  start (f, scenario);
  transcript = acp_session_get_transcript (f->session);

  /* a replayed history runs nothing: what it left running is stopped */
  acp_session_load_async (f->session, "old-1", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_load_finish (f->session, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_true (tool_call_stopped (f, "old-run"));
  g_assert_cmpstr (acp_tool_call_item_get_status (acp_transcript_lookup_tool_call (transcript, "old-run")),
                   ==, "in_progress");
  g_assert_false (tool_call_stopped (f, "old-done"));

  /* a turn that ends with a tool call still running stops it; the
   * finished ones keep their status */
  prompt_start (f, "go", NULL, &result);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_assert_true (tool_call_stopped (f, "run"));
  g_assert_false (tool_call_stopped (f, "failed"));
  g_assert_cmpstr (acp_tool_call_item_get_status (acp_transcript_lookup_tool_call (transcript, "failed")),
                   ==, "failed");
}

static void
test_tool_calls_stopped_by_crash (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *stop_reason = NULL;

  scenario = write_scenario (f, "crash-running.json",
    "{'handlers': {" INITIALIZE_FULL ","
    "  'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    "  'session/prompt': ["
    "    " TOOL_CALL_RUNNING ("run") ","
    "    {'op': 'exit', 'status': 9}]}}");
  start (f, scenario);
  create (f);
  prompt_start (f, "go", NULL, &result);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_null (stop_reason);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_FAILED);

  /* the agent is gone: what it ran does not run anymore */
  g_assert_true (tool_call_stopped (f, "run"));
}

static JsonObject *
parse_object (const char *json)
{
  g_autofree char *text = g_strdelimit (g_strdup (json), "'", '"');
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

static gboolean
apply (AcpSession  *session,
       const char  *json,
       GError     **error)
{
  g_autoptr(JsonObject) update = parse_object (json);

  return acp_session_apply_update (session, update, error);
}

static void
test_session_updates (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GListModel *commands, *options;
  AcpUsage *usage;
  g_autoptr(AcpCommand) init = NULL;
  guint title_n = 0, usage_n = 0, mode_n = 0, updated_n = 0;
  Changes commands_changes = { 0, }, options_changes = { 0, };
  const char *bad[] = {
    "{'sessionUpdate': 'available_commands_update'}",
    "{'sessionUpdate': 'available_commands_update', 'availableCommands': {}}",
    "{'sessionUpdate': 'current_mode_update'}",
    "{'sessionUpdate': 'current_mode_update', 'currentModeId': 3}",
    "{'sessionUpdate': 'config_option_update', 'configOptions': null}",
    "{'sessionUpdate': 'session_info_update', 'title': 5}",
    "{'sessionUpdate': 'session_info_update', 'title': 'ok', 'updatedAt': []}",
    "{'sessionUpdate': 'usage_update', 'used': 1}",
    "{'sessionUpdate': 'usage_update', 'used': -1, 'size': 5}",
    "{'sessionUpdate': 'usage_update', 'used': '1', 'size': 5}",
    "{'sessionUpdate': 'usage_update', 'used': 1, 'size': 5, 'cost': 3}",
    "{'sessionUpdate': 'usage_update', 'used': 1, 'size': 5, 'cost': {'amount': 'x', 'currency': 'EUR'}}",
    "{'sessionUpdate': 'tool_call', 'title': 'no id'}",
  };

  start (f, "basic.json");
  commands = acp_session_get_available_commands (f->session);
  options = acp_session_get_config_options (f->session);
  g_signal_connect (f->session, "notify::title", G_CALLBACK (count_notify_cb), &title_n);
  g_signal_connect (f->session, "notify::updated-at", G_CALLBACK (count_notify_cb), &updated_n);
  g_signal_connect (f->session, "notify::usage", G_CALLBACK (count_notify_cb), &usage_n);
  g_signal_connect (f->session, "notify::current-mode-id", G_CALLBACK (count_notify_cb), &mode_n);
  g_signal_connect (commands, "items-changed", G_CALLBACK (items_changed_cb), &commands_changes);
  g_signal_connect (options, "items-changed", G_CALLBACK (items_changed_cb), &options_changes);

  g_assert_null (acp_session_get_usage (f->session));
  g_assert_cmpuint (g_list_model_get_n_items (commands), ==, 0);
  g_assert_true (g_list_model_get_item_type (commands) == ACP_TYPE_COMMAND);

  g_assert_true (apply (f->session, "{'sessionUpdate': 'available_commands_update', 'availableCommands': ["
                                    "{'name': 'init', 'description': 'Set up', 'input': {'hint': 'dir'}},"
                                    "{'description': 'no name'},"
                                    "{'name': 'plan', 'description': 'Plan it'}]}", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (commands), ==, 2);
  assert_item_string (commands, 0, "input-hint", "dir");
  assert_item_string (commands, 1, "name", "plan");
  g_assert_cmpuint (commands_changes.n, ==, 1);
  init = g_list_model_get_item (commands, 0);
  /* the same list again: nothing changes */
  g_assert_true (apply (f->session, "{'sessionUpdate': 'available_commands_update', 'availableCommands': ["
                                    "{'name': 'init', 'description': 'Set up', 'input': {'hint': 'dir'}},"
                                    "{'name': 'plan', 'description': 'Plan it'}]}", NULL));
  g_assert_cmpuint (commands_changes.n, ==, 1);

  g_assert_true (apply (f->session, "{'sessionUpdate': 'current_mode_update', 'currentModeId': 'code'}", NULL));
  g_assert_cmpstr (acp_session_get_current_mode_id (f->session), ==, "code");
  g_assert_true (apply (f->session, "{'sessionUpdate': 'current_mode_update', 'currentModeId': 'code'}", NULL));
  g_assert_cmpuint (mode_n, ==, 1);

  g_assert_true (apply (f->session, "{'sessionUpdate': 'config_option_update', 'configOptions': ["
                                    "{'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': 'a',"
                                    " 'options': [{'value': 'a', 'name': 'A'}]}, {'id': 7}]}", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (options), ==, 1);
  assert_item_string (options, 0, "current-value", "a");
  g_assert_cmpuint (options_changes.n, ==, 1);

  /* session info: absent leaves alone, null clears */
  g_assert_true (apply (f->session, "{'sessionUpdate': 'session_info_update', 'title': 'Fix the parser',"
                                    " 'updatedAt': '2026-03-01T10:00:00Z'}", NULL));
  g_assert_cmpstr (acp_session_get_title (f->session), ==, "Fix the parser");
  g_assert_cmpstr (acp_session_get_updated_at (f->session), ==, "2026-03-01T10:00:00Z");
  g_assert_true (apply (f->session, "{'sessionUpdate': 'session_info_update',"
                                    " 'updatedAt': '2026-03-02T10:00:00Z'}", NULL));
  g_assert_cmpstr (acp_session_get_title (f->session), ==, "Fix the parser");
  g_assert_cmpuint (title_n, ==, 1);
  g_assert_cmpuint (updated_n, ==, 2);
  g_assert_true (apply (f->session, "{'sessionUpdate': 'session_info_update', 'title': null}", NULL));
  g_assert_null (acp_session_get_title (f->session));
  g_assert_cmpstr (acp_session_get_updated_at (f->session), ==, "2026-03-02T10:00:00Z");
  g_assert_cmpuint (title_n, ==, 2);

  g_assert_true (apply (f->session, "{'sessionUpdate': 'usage_update', 'used': 12000, 'size': 200000}", NULL));
  usage = acp_session_get_usage (f->session);
  g_assert_nonnull (usage);
  g_assert_cmpuint (acp_usage_get_used (usage), ==, 12000);
  g_assert_cmpuint (acp_usage_get_size (usage), ==, 200000);
  g_assert_false (acp_usage_get_has_cost (usage));
  g_assert_true (apply (f->session, "{'sessionUpdate': 'usage_update', 'used': 13000, 'size': 200000,"
                                    " 'cost': {'amount': 0.25, 'currency': 'USD'}}", NULL));
  usage = acp_session_get_usage (f->session);
  g_assert_true (acp_usage_get_has_cost (usage));
  g_assert_cmpfloat_with_epsilon (acp_usage_get_cost_amount (usage), 0.25, 1e-9);
  g_assert_cmpstr (acp_usage_get_cost_currency (usage), ==, "USD");
  g_assert_true (apply (f->session, "{'sessionUpdate': 'usage_update', 'used': 13000, 'size': 200000,"
                                    " 'cost': {'amount': 0.25, 'currency': 'USD'}}", NULL));
  g_assert_true (acp_session_get_usage (f->session) == usage);
  g_assert_cmpuint (usage_n, ==, 2);

  /* none of them touched the transcript */
  g_assert_cmpuint (transcript_n_items (f), ==, 0);

  /* malformed: an error, and nothing changes */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_test_message ("%s", bad[i]);
      g_assert_false (apply (f->session, bad[i], &error));
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
      g_clear_error (&error);
    }
  g_assert_cmpuint (title_n + updated_n + usage_n + mode_n, ==, 2 + 2 + 2 + 1);
  g_assert_cmpuint (commands_changes.n + options_changes.n, ==, 1 + 1);
  g_assert_cmpuint (g_list_model_get_n_items (commands), ==, 2);
  g_assert_cmpuint (transcript_n_items (f), ==, 0);
  /* the lists are the session's for good */
  g_assert_true (acp_session_get_available_commands (f->session) == commands);
  g_assert_true (acp_session_get_config_options (f->session) == options);

  /* transcript variants go to the transcript */
  g_assert_true (apply (f->session, "{'sessionUpdate': 'agent_message_chunk',"
                                    " 'content': {'type': 'text', 'text': 'hi'}}", NULL));
  g_assert_true (apply (f->session, "{'sessionUpdate': 'something_new', 'x': 1}", NULL));
  g_assert_cmpuint (transcript_n_items (f), ==, 2);
  g_assert_true (ACP_IS_GENERIC_ITEM (transcript_item (f, 1)));
}

/* A new list replaces the items that changed, in one items-changed; the
 * others stay the same objects (a view bound to them keeps its rows). */
static void
test_lists_in_place (Fixture       *f,
                     gconstpointer  data)
{
  GListModel *commands;
  Changes changes = { 0, };
  g_autoptr(GObject) first = NULL;
  g_autoptr(GObject) last = NULL;
  g_autoptr(GObject) item = NULL;

  start (f, "basic.json");
  commands = acp_session_get_available_commands (f->session);
  g_signal_connect (commands, "items-changed", G_CALLBACK (items_changed_cb), &changes);

  g_assert_true (apply (f->session, "{'sessionUpdate': 'available_commands_update', 'availableCommands': ["
                                    "{'name': 'a', 'description': 'A'}, {'name': 'b', 'description': 'B'},"
                                    "{'name': 'c', 'description': 'C'}]}", NULL));
  g_assert_cmpuint (changes.n, ==, 1);
  g_assert_cmpuint (changes.position, ==, 0);
  g_assert_cmpuint (changes.removed, ==, 0);
  g_assert_cmpuint (changes.added, ==, 3);
  first = g_list_model_get_item (commands, 0);
  last = g_list_model_get_item (commands, 2);

  /* the middle one changed (its description) and one more came after it */
  g_assert_true (apply (f->session, "{'sessionUpdate': 'available_commands_update', 'availableCommands': ["
                                    "{'name': 'a', 'description': 'A'}, {'name': 'b', 'description': 'Bee'},"
                                    "{'name': 'b2', 'description': 'B2'}, {'name': 'c', 'description': 'C'}]}",
                        NULL));
  g_assert_cmpuint (changes.n, ==, 2);
  g_assert_cmpuint (changes.position, ==, 1);
  g_assert_cmpuint (changes.removed, ==, 1);
  g_assert_cmpuint (changes.added, ==, 2);
  assert_item_string (commands, 1, "description", "Bee");
  assert_item_string (commands, 2, "name", "b2");
  item = g_list_model_get_item (commands, 0);
  g_assert_true (item == first);
  g_clear_object (&item);
  item = g_list_model_get_item (commands, 3);
  g_assert_true (item == last);

  /* an empty list removes them all at once */
  g_assert_true (apply (f->session, "{'sessionUpdate': 'available_commands_update', 'availableCommands': []}",
                        NULL));
  g_assert_cmpuint (changes.n, ==, 3);
  g_assert_cmpuint (changes.position, ==, 0);
  g_assert_cmpuint (changes.removed, ==, 4);
  g_assert_cmpuint (changes.added, ==, 0);
}

static void
test_modes_and_config (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *stop_reason = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(JsonNode) value = NULL;
  GListModel *modes, *options;
  Changes modes_changes = { 0, }, options_changes = { 0, };
  guint mode_n = 0;

  scenario = write_scenario (f, "modes.json",
    "{'handlers': {" INITIALIZE_FULL ","
    "  'session/new': {'calls': ["
    "    [{'op': 'result', 'result': {'sessionId': '${new_session_id}',"
    "      'modes': {'currentModeId': 'ask', 'availableModes': [{'id': 'ask', 'name': 'Ask'},"
    "                                                          {'id': 'code', 'name': 'Code'}]}}}],"
    "    [{'op': 'result', 'result': {'sessionId': '${new_session_id}',"
    "      'modes': {'currentModeId': 'ask', 'availableModes': [{'id': 'ask', 'name': 'Ask'}]},"
    "      'configOptions': [{'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': 'fast',"
    "                         'options': [{'value': 'fast', 'name': 'Fast'}, {'value': 'smart', 'name': 'Smart'}]}]}}]]},"
    "  'session/set_mode': [{'op': 'result', 'result': {}}],"
    "  'session/set_config_option': [{'op': 'result', 'result': {'configOptions': ["
    "    {'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': '${params.value}',"
    "     'options': [{'value': 'fast', 'name': 'Fast'}, {'value': 'smart', 'name': 'Smart'}]}]}}],"
    "  'session/prompt': ["
    "    {'op': 'update', 'update': {'sessionUpdate': 'current_mode_update', 'currentModeId': 'ask'}},"
    "    {'op': 'update', 'update': {'sessionUpdate': 'session_info_update', 'title': 'Mode work'}},"
    "    {'op': 'update', 'update': {'sessionUpdate': 'usage_update', 'used': 10, 'size': 100}},"
    "    {'op': 'result', 'result': {'stopReason': 'end_turn'}}]}}");
  start (f, scenario);
  modes = acp_session_get_modes (f->session);
  g_signal_connect (modes, "items-changed", G_CALLBACK (items_changed_cb), &modes_changes);
  g_signal_connect (f->session, "notify::current-mode-id", G_CALLBACK (count_notify_cb), &mode_n);
  create (f);

  /* the modes of the answer, in one change */
  g_assert_cmpuint (g_list_model_get_n_items (modes), ==, 2);
  g_assert_true (g_list_model_get_item_type (modes) == ACP_TYPE_MODE);
  assert_item_string (modes, 1, "name", "Code");
  g_assert_cmpuint (modes_changes.n, ==, 1);
  g_assert_cmpstr (acp_session_get_current_mode_id (f->session), ==, "ask");
  g_assert_cmpuint (mode_n, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (acp_session_get_config_options (f->session)), ==, 0);

  acp_session_set_mode_async (f->session, "code", NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_set_mode_finish (f->session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (acp_session_get_current_mode_id (f->session), ==, "code");
  g_assert_cmpuint (mode_n, ==, 2);
  /* the list of modes stays as it is */
  g_assert_cmpuint (modes_changes.n, ==, 1);

  /* a second session on the same agent prefers config options to modes */
  second = acp_session_new (f->agent, f->cwd);
  g_clear_object (&result);
  acp_session_create_async (second, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_create_finish (second, result, &error));
  g_assert_cmpstr (acp_session_get_session_id (second), ==, "fake-session-2");
  g_assert_cmpuint (g_list_model_get_n_items (acp_session_get_modes (second)), ==, 0);
  options = acp_session_get_config_options (second);
  g_assert_cmpuint (g_list_model_get_n_items (options), ==, 1);
  assert_item_string (options, 0, "current-value", "fast");
  g_signal_connect (options, "items-changed", G_CALLBACK (items_changed_cb), &options_changes);

  /* the answer's full list replaces the option in the same list, at once */
  value = json_node_init_string (json_node_alloc (), "smart");
  g_clear_object (&result);
  acp_session_set_config_option_async (second, "model", value, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_set_config_option_finish (second, result, &error));
  g_assert_no_error (error);
  g_assert_true (acp_session_get_config_options (second) == options);
  g_assert_cmpuint (options_changes.n, ==, 1);
  g_assert_cmpuint (options_changes.position, ==, 0);
  g_assert_cmpuint (options_changes.removed, ==, 1);
  g_assert_cmpuint (options_changes.added, ==, 1);
  assert_item_string (options, 0, "current-value", "smart");

  /* updates of a turn reach only their own session */
  g_clear_object (&result);
  prompt_start (f, "go", NULL, &result);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  /* the current mode follows current_mode_update */
  g_assert_cmpstr (acp_session_get_current_mode_id (f->session), ==, "ask");
  g_assert_cmpuint (mode_n, ==, 3);
  g_assert_cmpstr (acp_session_get_title (f->session), ==, "Mode work");
  g_assert_nonnull (acp_session_get_usage (f->session));
  g_assert_cmpuint (acp_usage_get_used (acp_session_get_usage (f->session)), ==, 10);
  g_assert_null (acp_session_get_title (second));
  g_assert_null (acp_session_get_usage (second));
}

static void
test_early_updates (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *scenario = NULL;
  GListModel *commands;

  scenario = write_scenario (f, "early.json",
    "{'handlers': {" INITIALIZE_FULL ","
    "  'session/new': ["
    "    {'op': 'notify', 'method': 'session/update', 'params': {'sessionId': 'fake-session-1',"
    "      'update': {'sessionUpdate': 'available_commands_update',"
    "                 'availableCommands': [{'name': 'web', 'description': 'Search the web'}]}}},"
    "    {'op': 'notify', 'method': 'session/update', 'params': {'sessionId': 'someone-else',"
    "      'update': {'sessionUpdate': 'session_info_update', 'title': 'Not mine'}}},"
    "    {'op': 'result', 'result': {'sessionId': '${new_session_id}'}}]}}");
  start (f, scenario);
  create (f);

  commands = acp_session_get_available_commands (f->session);
  g_assert_cmpuint (g_list_model_get_n_items (commands), ==, 1);
  assert_item_string (commands, 0, "name", "web");
  g_assert_null (acp_session_get_title (f->session));
}

static void
test_permission_invalid (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *stop_reason = NULL;
  AcpTranscript *transcript;
  AcpPermissionItem *permission;
  AcpToolCallItem *tool;

  scenario = write_scenario (f, "bad-permissions.json",
    "{'handlers': {" INITIALIZE_FULL ","
    "  'session/new': [{'op': 'result', 'result': {'sessionId': '${new_session_id}'}}],"
    "  'session/prompt': ["
    "    {'op': 'request', 'method': 'session/request_permission', 'params': {'sessionId': '${session_id}',"
    "      'toolCall': {'toolCallId': 'c1'}, 'options': [{'optionId': 'a', 'name': 'A'}]},"
    "     'expect_error': {'code': -32602}},"
    "    {'op': 'request', 'method': 'session/request_permission', 'params': {'sessionId': '${session_id}',"
    "      'toolCall': {'title': 'no id'}, 'options': []},"
    "     'expect_error': {'code': -32602}},"
    "    {'op': 'request', 'method': 'session/request_permission', 'params': {'sessionId': '${session_id}',"
    "      'toolCall': {'toolCallId': 'c2', 'title': 5}, 'options': []},"
    "     'expect_error': {'code': -32602}},"
    "    {'op': 'request', 'method': 'session/request_permission', 'params': {'sessionId': '${session_id}',"
    "      'toolCall': {'toolCallId': 'c4'}, 'options': 'all'},"
    "     'expect_error': {'code': -32602}},"
    "    {'op': 'request', 'method': 'session/request_permission', 'params': {'sessionId': 'other',"
    "      'toolCall': {'toolCallId': 'c3'}, 'options': []},"
    "     'expect_error': {'code': -32601}},"
    "    {'op': 'request', 'method': 'session/request_permission', 'params': {'sessionId': '${session_id}',"
    "      'toolCall': {'toolCallId': 'gem-1', 'title': 'Shell', 'kind': 'execute'},"
    "      'options': [{'optionId': 'ok', 'name': 'OK', 'kind': 'allow_once'}]},"
    "     'expect': {'outcome': {'outcome': 'selected', 'optionId': 'ok'}}},"
    "    {'op': 'update', 'update': {'sessionUpdate': 'tool_call_update', 'toolCallId': 'gem-1',"
    "                                'status': 'completed'}},"
    "    {'op': 'result', 'result': {'stopReason': 'end_turn'}}]}}");
  start (f, scenario);
  create (f);
  prompt_start (f, "go", NULL, &result);

  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  permission = find_permission (f);
  g_assert_cmpstr (acp_permission_item_get_tool_call_id (permission), ==, "gem-1");
  g_assert_true (acp_permission_item_select (permission, "ok", &error));

  /* the fake agent exits 3 if any answer was not the expected one */
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  transcript = acp_session_get_transcript (f->session);
  g_assert_null (acp_transcript_lookup_tool_call (transcript, "c1"));
  g_assert_null (acp_transcript_lookup_tool_call (transcript, "c2"));
  g_assert_null (acp_transcript_lookup_tool_call (transcript, "c3"));
  g_assert_null (acp_transcript_lookup_tool_call (transcript, "c4"));
  tool = acp_transcript_lookup_tool_call (transcript, "gem-1");
  g_assert_nonnull (tool);
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "completed");
  /* the prompt, the tool call, one permission */
  g_assert_cmpuint (transcript_n_items (f), ==, 3);
}

static void
test_exit_with_pending_permission (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) stopped = NULL;
  g_autoptr(GError) error = NULL;
  AcpPermissionItem *permission;
  AcpNoticeItem *notice;

  start (f, "permission.json");
  create (f);
  prompt_start (f, "Write it", NULL, &result);
  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  permission = find_permission (f);

  acp_agent_stop_async (f->agent, NULL, test_store_result_cb, &stopped);
  WAIT_UNTIL (result != NULL && stopped != NULL);

  g_assert_null (acp_session_prompt_finish (f->session, result, &error));
  g_assert_nonnull (error);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_FAILED);
  g_assert_nonnull (acp_session_get_error (f->session));
  g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_CANCELLED);
  g_assert_cmpuint (acp_session_get_pending_permissions (f->session), ==, 0);
  /* stopped on purpose: said so, and not as a fault */
  notice = last_notice (f);
  g_assert_cmpint (acp_notice_item_get_severity (notice), ==, ACP_NOTICE_SEVERITY_INFO);
  g_assert_cmpstr (acp_notice_item_get_title (notice), ==, "The agent was stopped");
  /* the prompt, the agent's message, the tool call and the permission stay */
  g_assert_cmpuint (transcript_n_items (f), ==, 5);
}

typedef struct
{
  GCancellable *cancellable;
  guint         count_at_cancel;
} CancelAfter;

static void
cancel_after_cb (AcpSession  *session,
                 GParamSpec  *pspec,
                 CancelAfter *cancel)
{
  /* told once a batch: the first time past 100 */
  if (acp_session_get_replay_count (session) >= 100 && cancel->count_at_cancel == 0)
    {
      cancel->count_at_cancel = acp_session_get_replay_count (session);
      g_cancellable_cancel (cancel->cancellable);
    }
}

static void
test_load_cancelled (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CancelAfter cancel = { cancellable, 0 };

  start (f, "replay-10k.json");
  g_signal_connect (f->session, "notify::replay-count", G_CALLBACK (cancel_after_cb), &cancel);

  acp_session_load_async (f->session, "stored-1", NULL, cancellable, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_false (acp_session_load_finish (f->session, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (acp_session_get_state (f->session), ==, ACP_SESSION_STATE_NEW);
  /* what arrives for the session afterwards is ignored */
  g_assert_cmpuint (cancel.count_at_cancel, >=, 100);
  g_assert_cmpuint (cancel.count_at_cancel, <, 10000);
  g_assert_cmpuint (acp_session_get_replay_count (f->session), ==, cancel.count_at_cancel);
}

static void
test_permission_item_validation (void)
{
  const char *bad[] = {
    "{}",
    "{'toolCall': 'x', 'options': []}",
    "{'toolCall': {}, 'options': []}",
    "{'toolCall': {'toolCallId': 1}, 'options': []}",
    "{'toolCall': {'toolCallId': 't'}}",
    "{'toolCall': {'toolCallId': 't'}, 'options': {}}",
    "{'toolCall': {'toolCallId': 't'}, 'options': [1]}",
    "{'toolCall': {'toolCallId': 't'}, 'options': [{'optionId': 'a', 'name': 'A'}]}",
    "{'toolCall': {'toolCallId': 't'}, 'options': [{'optionId': 'a', 'name': 5, 'kind': 'allow_once'}]}",
    /* a malformed ToolCallUpdate, which the transcript would refuse */
    "{'toolCall': {'toolCallId': 't', 'title': 5}, 'options': []}",
  };
  g_autoptr(JsonObject) good = parse_object ("{'toolCall': {'toolCallId': 't', 'title': 'T', 'kind': 'edit',"
                                             "              'locations': [{'path': '/p/a.c'}, {'line': 2}]},"
                                             " 'options': [{'optionId': 'a', 'name': 'A', 'kind': 'allow_once'},"
                                             "             {'optionId': 'r', 'name': 'R', 'kind': 'reject_once'},"
                                             "             {'optionId': 's', 'name': 'S', 'kind': 'allow_session'}]}");
  g_autoptr(AcpPermissionItem) item = NULL;
  g_autoptr(AcpPermissionOption) option = NULL;
  AcpToolCallItem *snapshot;
  g_autoptr(AcpPermissionItem) other = NULL;
  g_autoptr(GError) error = NULL;
  guint notified = 0;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonObject) params = parse_object (bad[i]);

      g_test_message ("%s", bad[i]);
      g_assert_null (acp_permission_item_new (params, NULL, &error));
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS);
      g_clear_error (&error);
    }

  item = acp_permission_item_new (good, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (acp_permission_item_get_tool_call_id (item), ==, "t");
  g_assert_cmpstr (json_object_get_string_member (acp_permission_item_get_tool_call (item), "title"), ==, "T");
  /* the tool call as the request describes it, typed */
  snapshot = acp_permission_item_get_tool_call_snapshot (item);
  g_assert_cmpstr (acp_tool_call_item_get_tool_call_id (snapshot), ==, "t");
  g_assert_cmpstr (acp_tool_call_item_get_title (snapshot), ==, "T");
  g_assert_cmpstr (acp_tool_call_item_get_tool_kind (snapshot), ==, "edit");
  g_assert_cmpstr (acp_tool_call_item_get_status (snapshot), ==, "pending");
  g_assert_cmpuint (g_list_model_get_n_items (acp_tool_call_item_get_locations (snapshot)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (acp_permission_item_get_options (item)), ==, 3);
  option = g_list_model_get_item (acp_permission_item_get_options (item), 1);
  g_assert_cmpstr (acp_permission_option_get_id (option), ==, "r");
  g_assert_cmpstr (acp_permission_option_get_name (option), ==, "R");
  g_assert_cmpint (acp_permission_option_get_kind (option), ==, ACP_PERMISSION_OPTION_KIND_REJECT_ONCE);
  g_clear_object (&option);
  /* a kind this version does not know is offered all the same */
  option = g_list_model_get_item (acp_permission_item_get_options (item), 2);
  g_assert_cmpint (acp_permission_option_get_kind (option), ==, ACP_PERMISSION_OPTION_KIND_UNKNOWN);
  g_assert_null (acp_permission_item_get_request (item));
  g_signal_connect (item, "notify::state", G_CALLBACK (count_notify_cb), &notified);

  g_assert_false (acp_permission_item_select (item, "x", &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT);
  g_assert_true (acp_permission_item_select (item, "r", NULL));
  g_assert_cmpint (acp_permission_item_get_state (item), ==, ACP_PERMISSION_STATE_SELECTED);
  g_assert_cmpstr (acp_permission_item_get_selected_option_id (item), ==, "r");
  acp_permission_item_cancel (item);
  g_assert_cmpint (acp_permission_item_get_state (item), ==, ACP_PERMISSION_STATE_SELECTED);
  g_assert_cmpuint (notified, ==, 1);

  other = acp_permission_item_new (good, NULL, NULL);
  acp_permission_item_cancel (other);
  g_assert_cmpint (acp_permission_item_get_state (other), ==, ACP_PERMISSION_STATE_CANCELLED);
  g_assert_true (acp_permission_item_select (other, "a", NULL));
  g_assert_cmpint (acp_permission_item_get_state (other), ==, ACP_PERMISSION_STATE_CANCELLED);
  g_assert_null (acp_permission_item_get_selected_option_id (other));
}

/* codex-acp's shell command: its output streamed in _meta reaches the
 * tool call, live, and how it ended */
static void
terminal_output_cb (AcpToolCallItem *item,
                    const char      *terminal_id,
                    const char      *text,
                    GString         *seen)
{
  g_string_append_printf (seen, "%s:%s|", terminal_id, text);
}

static void
test_agent_terminal_output (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autofree char *stop_reason = NULL;
  g_auto(GStrv) ids = NULL;
  AcpToolCallItem *tool;
  const char *signal_name = "unset";
  gboolean truncated = TRUE;
  int exit_code = 0;

  start (f, "codex-shell.json");
  create (f);
  prompt_start (f, "run: sleep 1; echo aaa; sleep 1; echo bbb; exit 2", NULL, &result);

  /* announced with its terminal: nothing printed yet */
  WAIT_UNTIL (acp_session_get_pending_permissions (f->session) == 1);
  tool = acp_transcript_lookup_tool_call (acp_session_get_transcript (f->session), "call_0034");
  g_assert_nonnull (tool);
  ids = acp_tool_call_item_dup_terminal_ids (tool);
  g_assert_cmpstrv (ids, ((const char * const[]) { "call_0034", NULL }));
  g_assert_cmpstr (acp_tool_call_item_get_terminal_output (tool, "call_0034", NULL), ==, "");
  g_assert_false (acp_tool_call_item_get_terminal_exit (tool, "call_0034", NULL, NULL));
  g_signal_connect (tool, "terminal-output", G_CALLBACK (terminal_output_cb), seen);

  g_assert_true (acp_permission_item_select (find_permission (f), "allow_once", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_session_prompt_finish (f->session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  /* each piece as it came, all of it kept */
  g_assert_cmpstr (seen->str, ==, "call_0034:aaa\n|call_0034:bbb\n|");
  g_assert_cmpstr (acp_tool_call_item_get_terminal_output (tool, "call_0034", &truncated),
                   ==, "aaa\nbbb\n");
  g_assert_false (truncated);
  g_assert_true (acp_tool_call_item_get_terminal_exit (tool, "call_0034",
                                                       &exit_code, &signal_name));
  g_assert_cmpint (exit_code, ==, 2);
  g_assert_null (signal_name);
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "failed");
  /* a terminal the agent never reported */
  g_assert_null (acp_tool_call_item_get_terminal_output (tool, "call_9", NULL));
  g_assert_false (acp_tool_call_item_get_terminal_exit (tool, "call_9", NULL, NULL));
}

/* codex-acp's replay: the whole output and the exit in one update */
static void
test_agent_terminal_replay (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AcpToolCallItem *tool;
  int exit_code = 0;

  start (f, "codex-shell.json");
  acp_session_load_async (f->session, "01a21b62", NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_load_finish (f->session, result, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (transcript_n_items (f), ==, 2);
  tool = transcript_item (f, 1);
  g_assert_cmpstr (acp_tool_call_item_get_terminal_output (tool, "call_0034", NULL),
                   ==, "aaa\nbbb\n");
  g_assert_true (acp_tool_call_item_get_terminal_exit (tool, "call_0034", &exit_code, NULL));
  g_assert_cmpint (exit_code, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/session/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("create-prompt", test_create_and_prompt);
  ADD ("permission", test_permission);
  ADD ("permission/rejected", test_permission_rejected);
  ADD ("cancel", test_cancel);
  ADD ("cancel-cancellable", test_cancel_cancellable);
  ADD ("load/replay-10k", test_load_replay);
  ADD ("load/small", test_load_small);
  ADD ("resume", test_resume);
  ADD ("close", test_close);
  ADD ("gating", test_gating);
  ADD ("additional-directories", test_additional_directories);
  ADD ("additional-directories/gated", test_additional_directories_gated);
  ADD ("crash/prompt", test_crash_mid_prompt);
  ADD ("line-too-long", test_line_too_long);
  ADD ("crash/replay", test_crash_mid_replay);
  ADD ("tool-calls-stopped", test_tool_calls_stopped);
  ADD ("tool-calls-stopped/crash", test_tool_calls_stopped_by_crash);
  ADD ("crash/pending-permission", test_exit_with_pending_permission);
  ADD ("updates/session-level", test_session_updates);
  ADD ("updates/early", test_early_updates);
  ADD ("updates/lists-in-place", test_lists_in_place);
  ADD ("modes-and-config", test_modes_and_config);
  ADD ("permission/invalid", test_permission_invalid);
  ADD ("load/cancelled", test_load_cancelled);
  ADD ("agent-terminal/output", test_agent_terminal_output);
  ADD ("agent-terminal/replay", test_agent_terminal_replay);
  g_test_add_func ("/session/permission/item", test_permission_item_validation);

#undef ADD

  return g_test_run ();
}
