/* demo-session.c: one session of the demo agent, and its canned turns
 *
 * A turn is a queue of steps (see demo-script.h) played from the main loop:
 * each step waits its pause (scaled by the speed; none at speed 0), text is
 * streamed a few chunks per tick, and a permission step waits for the
 * client's answer before the branch it chose is put in front of the rest.
 * Everything sent is also appended to the session's history.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "demo-script.h"
#include "demo-session.h"

#define UNPACED_BATCH   64   /* steps or chunks per iteration when there are no pauses */
#define MAX_PAUSE_MS    60000

struct _DemoTurn
{
  DemoSession        *session;    /* owned */
  AcpIncomingRequest *request;    /* owned: the session/prompt to answer */
  GQueue              steps;      /* (element-type DemoStep) owned */
  DemoStep           *asking;     /* the permission step waiting for its answer */
  GHashTable         *open_tools; /* tool call ids not completed or failed yet */
  guint               source_id;
  gboolean            done;
};

static void turn_finish (DemoTurn   *turn,
                         const char *stop_reason);

static char *
now_iso8601 (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *seconds = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S");

  return g_strdup_printf ("%s.%03dZ", seconds, g_date_time_get_microsecond (now) / 1000);
}

static JsonNode *
node_take_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);

  return node;
}

static void
reply_take_object (AcpIncomingRequest *request,
                   JsonObject         *object)
{
  g_autoptr(JsonNode) node = node_take_object (object);

  acp_incoming_request_reply (request, node);
}

/* ------------------------------------------------------------------------ */
/* Sessions                                                                  */

static void
session_clear (DemoSession *session)
{
  g_assert (session->turn == NULL);

  g_free (session->id);
  g_free (session->cwd);
  g_free (session->title);
  g_free (session->updated_at);
  g_free (session->mode_id);
  g_free (session->model_id);
  g_clear_pointer (&session->mcp_servers, json_array_unref);
  g_clear_object (&session->connection);
  g_clear_object (&session->store);
}

DemoSession *
demo_session_ref (DemoSession *session)
{
  return g_rc_box_acquire (session);
}

void
demo_session_unref (DemoSession *session)
{
  g_rc_box_release_full (session, (GDestroyNotify) session_clear);
}

DemoSession *
demo_session_new (AcpConnection *connection,
                  DemoStore     *store,
                  double         speed,
                  const char    *id,
                  const char    *cwd)
{
  DemoSession *session = g_rc_box_new0 (DemoSession);

  session->connection = g_object_ref (connection);
  session->store = g_object_ref (store);
  session->speed = speed;
  session->id = g_strdup (id);
  session->cwd = g_strdup (cwd);
  session->updated_at = now_iso8601 ();
  session->mode_id = g_strdup (demo_script_default_mode ());
  session->model_id = g_strdup (demo_script_default_model ());
  session->mcp_servers = json_array_new ();

  return session;
}

/* A session of an earlier process, from its index entry. */
DemoSession *
demo_session_new_from_entry (AcpConnection *connection,
                             DemoStore     *store,
                             double         speed,
                             JsonObject    *entry)
{
  DemoSession *session;
  const char *value;

  session = demo_session_new (connection, store, speed,
                              json_object_get_string_member (entry, "sessionId"),
                         json_object_get_string_member (entry, "cwd"));

  value = json_object_get_string_member_with_default (entry, "title", NULL);
  session->title = g_strdup (value);
  value = json_object_get_string_member_with_default (entry, "updatedAt", NULL);
  if (value != NULL)
    {
      g_free (session->updated_at);
      session->updated_at = g_strdup (value);
    }
  value = json_object_get_string_member_with_default (entry, "modeId", NULL);
  if (demo_script_is_mode (value))
    {
      g_free (session->mode_id);
      session->mode_id = g_strdup (value);
    }
  value = json_object_get_string_member_with_default (entry, "model", NULL);
  if (demo_script_is_model (value))
    {
      g_free (session->model_id);
      session->model_id = g_strdup (value);
    }

  return session;
}

void
demo_session_set_mcp_servers (DemoSession *session,
                              JsonArray   *servers)
{
  g_clear_pointer (&session->mcp_servers, json_array_unref);
  session->mcp_servers = json_array_ref (servers);
}

JsonObject *
demo_session_index_entry (DemoSession *session)
{
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (entry, "sessionId", session->id);
  json_object_set_string_member (entry, "cwd", session->cwd);
  if (session->title != NULL)
    json_object_set_string_member (entry, "title", session->title);
  else
    json_object_set_null_member (entry, "title");
  json_object_set_string_member (entry, "updatedAt", session->updated_at);
  json_object_set_string_member (entry, "modeId", session->mode_id);
  json_object_set_string_member (entry, "model", session->model_id);

  return entry;
}

void
demo_session_save_index (DemoSession *session)
{
  g_autoptr(JsonObject) entry = demo_session_index_entry (session);

  demo_store_append_index (session->store, entry);
}

static void
session_touch (DemoSession *session)
{
  g_free (session->updated_at);
  session->updated_at = now_iso8601 ();
}

/* Sends one session/update and, when record is set, adds it to the history. */
void
demo_session_send_update (DemoSession *session,
                          JsonNode    *update,
                          gboolean     record)
{
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) params_node = NULL;
  g_autoptr(GError) error = NULL;

  json_object_set_string_member (params, "sessionId", session->id);
  json_object_set_member (params, "update", json_node_ref (update));
  params_node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (params_node, params);

  if (!acp_connection_notify (session->connection, "session/update", params_node, &error))
    g_debug ("Cannot send an update: %s", error->message);

  if (record)
    demo_store_append_update (session->store, session->id, update);
}

void
demo_session_send_update_object (DemoSession *session,
                                 JsonObject  *update,
                                 gboolean     record)
{
  g_autoptr(JsonNode) node = node_take_object (update);

  demo_session_send_update (session, node, record);
}


/* ------------------------------------------------------------------------ */
/* Turns                                                                     */

static DemoTurn *
turn_ref (DemoTurn *turn)
{
  return g_rc_box_acquire (turn);
}

static void
turn_clear (DemoTurn *turn)
{
  g_assert (turn->source_id == 0);

  g_queue_clear_full (&turn->steps, (GDestroyNotify) demo_step_free);
  g_clear_pointer (&turn->asking, demo_step_free);
  g_clear_pointer (&turn->open_tools, g_hash_table_unref);
  g_clear_object (&turn->request);
  g_clear_pointer (&turn->session, demo_session_unref);
}

static void
turn_unref (DemoTurn *turn)
{
  g_rc_box_release_full (turn, (GDestroyNotify) turn_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DemoTurn, turn_unref)

static guint
scaled_pause (DemoSession *session,
              guint        ms)
{
  double pause;

  if (session->speed <= 0.0 || ms == 0)
    return 0;

  pause = ms / session->speed;

  return pause > MAX_PAUSE_MS ? MAX_PAUSE_MS : (guint) pause;
}

/* The pause before the next piece of the step. */
static guint
step_pause (DemoSession *session,
            DemoStep    *step)
{
  if (step->kind == DEMO_STEP_TEXT && step->next_chunk > 0)
    return scaled_pause (session, step->chunk_delay_ms);

  return scaled_pause (session, step->delay_ms);
}

static gboolean turn_tick (gpointer user_data);

static void
turn_schedule (DemoTurn *turn)
{
  DemoStep *step = g_queue_peek_head (&turn->steps);
  guint pause = step != NULL ? step_pause (turn->session, step) : 0;

  g_assert (turn->source_id == 0);

  if (pause == 0)
    turn->source_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, turn_tick,
                                       turn_ref (turn), (GDestroyNotify) turn_unref);
  else
    turn->source_id = g_timeout_add_full (G_PRIORITY_DEFAULT, pause, turn_tick,
                                          turn_ref (turn), (GDestroyNotify) turn_unref);
}

/* Keeps track of the tool calls that are not finished, to fail them when the
 * turn is cancelled. */
static void
turn_note_update (DemoTurn *turn,
                  JsonNode *update)
{
  JsonObject *object = json_node_get_object (update);
  const char *kind = json_object_get_string_member_with_default (object, "sessionUpdate", "");
  const char *id;
  const char *status;

  if (!g_str_equal (kind, "tool_call") && !g_str_equal (kind, "tool_call_update"))
    return;

  id = json_object_get_string_member_with_default (object, "toolCallId", NULL);
  status = json_object_get_string_member_with_default (object, "status", NULL);
  if (id == NULL || status == NULL)
    return;

  if (g_str_equal (status, "completed") || g_str_equal (status, "failed"))
    g_hash_table_remove (turn->open_tools, id);
  else
    g_hash_table_add (turn->open_tools, g_strdup (id));
}

static void
turn_send_chunk (DemoTurn   *turn,
                 DemoStep   *step,
                 const char *text)
{
  JsonObject *update = json_object_new ();
  JsonObject *content = json_object_new ();

  json_object_set_string_member (update, "sessionUpdate", step->chunk_kind);
  json_object_set_string_member (content, "type", "text");
  json_object_set_string_member (content, "text", text);
  json_object_set_object_member (update, "content", content);
  json_object_set_string_member (update, "messageId", step->message_id);
  demo_session_send_update_object (turn->session, update, TRUE);
}

/* Puts the steps of the chosen branch in front of the rest. */
static void
turn_take_branch (DemoTurn *turn,
                  DemoStep *asking,
                  gboolean  allowed)
{
  GPtrArray *branch = allowed ? asking->if_allowed : asking->if_rejected;

  while (branch != NULL && branch->len > 0)
    g_queue_push_head (&turn->steps, g_ptr_array_steal_index (branch, branch->len - 1));
}

static void
permission_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(DemoTurn) turn = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(DemoStep) asking = g_steal_pointer (&turn->asking);
  gboolean allowed = FALSE;

  response = acp_connection_call_finish (ACP_CONNECTION (source), result, &error);

  if (turn->done)
    return;

  if (response == NULL)
    {
      g_debug ("The permission request failed, taking it as a rejection: %s", error->message);
    }
  else
    {
      JsonObject *outcome = NULL;
      const char *kind = NULL;
      const char *option = NULL;

      if (JSON_NODE_HOLDS_OBJECT (response))
        {
          JsonNode *node = json_object_get_member (json_node_get_object (response), "outcome");

          if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
            outcome = json_node_get_object (node);
        }
      if (outcome != NULL)
        {
          kind = json_object_get_string_member_with_default (outcome, "outcome", NULL);
          option = json_object_get_string_member_with_default (outcome, "optionId", NULL);
        }

      if (g_strcmp0 (kind, "cancelled") == 0)
        {
          turn_finish (turn, "cancelled");
          return;
        }

      if (g_strcmp0 (kind, "selected") == 0 && g_strcmp0 (option, DEMO_OPTION_ALLOW_ONCE) == 0)
        {
          allowed = TRUE;
        }
      else if (g_strcmp0 (kind, "selected") == 0 && g_strcmp0 (option, DEMO_OPTION_ALLOW_ALWAYS) == 0)
        {
          allowed = TRUE;
          turn->session->edits_always_allowed = TRUE;
        }
      else if (g_strcmp0 (kind, "selected") != 0 || g_strcmp0 (option, DEMO_OPTION_REJECT_ONCE) != 0)
        {
          g_debug ("Unexpected permission outcome (%s, %s), taking it as a rejection",
                   kind != NULL ? kind : "none", option != NULL ? option : "none");
        }
    }

  turn_take_branch (turn, asking, allowed);
  turn_schedule (turn);
}

static void
turn_ask_permission (DemoTurn *turn,
                     DemoStep *asking)
{
  DemoSession *session = turn->session;
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) params_node = NULL;

  if (session->edits_always_allowed)
    {
      turn_take_branch (turn, asking, TRUE);
      demo_step_free (asking);
      turn_schedule (turn);
      return;
    }

  g_assert (turn->asking == NULL);
  turn->asking = asking;
  g_hash_table_add (turn->open_tools, g_strdup (asking->tool_call_id));

  json_object_set_string_member (params, "sessionId", session->id);
  json_object_set_member (params, "toolCall", json_node_copy (asking->tool_call));
  json_object_set_member (params, "options", demo_script_permission_options ());
  params_node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (params_node, params);

  acp_connection_call_async (session->connection, "session/request_permission",
                             params_node, NULL, permission_cb, turn_ref (turn));
}

static gboolean
turn_tick (gpointer user_data)
{
  DemoTurn *turn = user_data;
  DemoSession *session = turn->session;
  guint budget = UNPACED_BATCH;

  turn->source_id = 0;
  if (turn->done)
    return G_SOURCE_REMOVE;

  for (;;)
    {
      DemoStep *step = g_queue_peek_head (&turn->steps);
      DemoStep *next;

      if (step == NULL)
        {
          turn_finish (turn, "end_turn");
          return G_SOURCE_REMOVE;
        }

      switch (step->kind)
        {
        case DEMO_STEP_UPDATE:
          turn_note_update (turn, step->update);
          demo_session_send_update (turn->session, step->update, TRUE);
          demo_step_free (g_queue_pop_head (&turn->steps));
          budget--;
          break;

        case DEMO_STEP_TEXT:
          {
            guint n = scaled_pause (session, step->chunk_delay_ms) == 0 ? budget : step->chunks_per_tick;

            for (guint i = 0; i < n && step->next_chunk < step->chunks->len; i++)
              {
                turn_send_chunk (turn, step, g_ptr_array_index (step->chunks, step->next_chunk));
                step->next_chunk++;
                budget = budget > 0 ? budget - 1 : 0;
              }
            if (step->next_chunk >= step->chunks->len)
              demo_step_free (g_queue_pop_head (&turn->steps));
          }
          break;

        case DEMO_STEP_PERMISSION:
          turn_ask_permission (turn, g_queue_pop_head (&turn->steps));
          return G_SOURCE_REMOVE;

        default:
          g_assert_not_reached ();
        }

      next = g_queue_peek_head (&turn->steps);
      if (budget > 0 && (next == NULL || step_pause (session, next) == 0))
        continue;

      turn_schedule (turn);
      return G_SOURCE_REMOVE;
    }
}

static void
turn_finish (DemoTurn   *turn,
             const char *stop_reason)
{
  g_autoptr(DemoTurn) hold = turn_ref (turn);
  DemoSession *session = turn->session;
  JsonObject *result;

  if (turn->done)
    return;
  turn->done = TRUE;
  g_clear_handle_id (&turn->source_id, g_source_remove);

  if (g_str_equal (stop_reason, "cancelled"))
    {
      GHashTableIter iter;
      gpointer id;

      /* What was still running did not finish. */
      g_hash_table_iter_init (&iter, turn->open_tools);
      while (g_hash_table_iter_next (&iter, &id, NULL))
        {
          JsonObject *update = json_object_new ();

          json_object_set_string_member (update, "sessionUpdate", "tool_call_update");
          json_object_set_string_member (update, "toolCallId", id);
          json_object_set_string_member (update, "status", "failed");
          demo_session_send_update_object (session, update, TRUE);
        }
    }

  result = json_object_new ();
  json_object_set_string_member (result, "stopReason", stop_reason);
  reply_take_object (turn->request, result);

  session_touch (session);
  demo_session_save_index (session);

  if (session->turn == turn)
    g_clear_pointer (&session->turn, turn_unref);
}

void
demo_session_cancel_turn (DemoSession *session)
{
  if (session->turn != NULL)
    turn_finish (session->turn, "cancelled");
}

gboolean
demo_session_is_prompting (DemoSession *session)
{
  return session->turn != NULL;
}

void
demo_session_prompt (DemoSession        *session,
                     AcpIncomingRequest *request,
                     JsonArray          *prompt)
{
  g_autofree char *message_id = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GPtrArray) steps = NULL;
  DemoTurnContext context = { 0 };
  DemoTurn *turn;

  g_return_if_fail (session->turn == NULL);

  /* The prompt goes into the history as the person's message. */
  message_id = g_uuid_string_random ();
  for (guint i = 0; i < json_array_get_length (prompt); i++)
    {
      JsonObject *update = json_object_new ();

      json_object_set_string_member (update, "sessionUpdate", "user_message_chunk");
      json_object_set_member (update, "content", json_node_copy (json_array_get_element (prompt, i)));
      json_object_set_string_member (update, "messageId", message_id);
      {
        g_autoptr(JsonNode) update_node = node_take_object (update);

        demo_store_append_update (session->store, session->id, update_node);
      }
    }

  session->turn_count++;
  session_touch (session);
  if (session->title == NULL)
    {
      g_autofree char *text = demo_script_prompt_text (prompt);

      title = demo_script_make_title (text);
      session->title = g_strdup (title);
    }
  demo_session_save_index (session);

  context.cwd = session->cwd;
  context.mcp_servers = session->mcp_servers;
  context.mode_id = session->mode_id;
  context.model_id = session->model_id;
  context.turn_number = session->turn_count;
  context.title = title;
  context.updated_at = session->updated_at;
  context.edits_always_allowed = session->edits_always_allowed;
  context.plan_updates = session->plan_updates;
  steps = demo_script_build_turn (prompt, &context);

  turn = g_rc_box_new0 (DemoTurn);
  turn->session = demo_session_ref (session);
  turn->request = g_object_ref (request);
  turn->open_tools = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&turn->steps);
  {
    gsize n_steps = 0;
    g_autofree gpointer *taken = g_ptr_array_steal (steps, &n_steps);

    for (gsize i = 0; i < n_steps; i++)
      g_queue_push_tail (&turn->steps, taken[i]);
  }
  session->turn = turn;
  turn_schedule (turn);
}
