/* acp-session-turn.c: prompt turns, cancelling, and permission requests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A turn sends a prompt and is PROMPTING until the agent answers with a stop
 * reason; cancelling sends session/cancel and the turn still ends with the
 * agent's answer. While the session is live, the agent's
 * session/request_permission requests for it become #AcpPermissionItem
 * entries of the transcript; they are cancelled when the turn ends.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-permission-item.h"
#include "acp-session-private.h"

/* --- permissions --- */

/* Whether the option chosen in @item refuses the tool call */
static gboolean
rejects (AcpPermissionItem *item)
{
  const char *chosen = acp_permission_item_get_selected_option_id (item);
  GListModel *options = acp_permission_item_get_options (item);
  guint n = g_list_model_get_n_items (options);

  for (guint i = 0; chosen != NULL && i < n; i++)
    {
      g_autoptr(AcpPermissionOption) option = g_list_model_get_item (options, i);
      AcpPermissionOptionKind kind = acp_permission_option_get_kind (option);

      if (g_strcmp0 (acp_permission_option_get_id (option), chosen) == 0)
        return kind == ACP_PERMISSION_OPTION_KIND_REJECT_ONCE ||
               kind == ACP_PERMISSION_OPTION_KIND_REJECT_ALWAYS;
    }

  return FALSE;
}

static void
permission_state_cb (AcpPermissionItem *item,
                     GParamSpec        *pspec,
                     AcpSession        *self)
{
  AcpToolCallItem *tool_call;

  if (acp_permission_item_get_state (item) == ACP_PERMISSION_STATE_PENDING)
    return;

  /* the tool call says whether the person refused it: when it fails, it
   * is because it was not allowed */
  tool_call = acp_transcript_lookup_tool_call (self->transcript, acp_permission_item_get_tool_call_id (item));
  if (tool_call != NULL && acp_permission_item_get_state (item) == ACP_PERMISSION_STATE_SELECTED)
    acp_tool_call_item_set_rejected (tool_call, rejects (item));

  g_signal_handlers_disconnect_by_data (item, self);
  if (g_ptr_array_remove (self->permissions, item))
    _acp_session_notify (self, PROP_PENDING_PERMISSIONS);
}

static void
cancel_pending_permissions (AcpSession *self)
{
  g_autoptr(GPtrArray) pending = NULL;

  if (self->permissions->len == 0)
    return;

  /* Answering removes items from the list: work on a copy. */
  pending = g_ptr_array_copy (self->permissions, (GCopyFunc) g_object_ref, NULL);
  g_ptr_array_set_free_func (pending, g_object_unref);
  for (guint i = 0; i < pending->len; i++)
    acp_permission_item_cancel (g_ptr_array_index (pending, i));
}

/* Nothing is running anymore (the turn ended or was cancelled, the agent is
 * gone, the session closes): no answer is awaited, no tool call runs. */
void
_acp_session_stop_turn (AcpSession *self)
{
  cancel_pending_permissions (self);
  acp_transcript_stop_tool_calls (self->transcript);
}


gboolean
_acp_session_agent_request_cb (AcpAgent           *agent,
                               const char         *session_id,
                               AcpIncomingRequest *request,
                               AcpSession         *self)
{
  g_autoptr(AcpPermissionItem) item = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *params;

  if (g_strcmp0 (acp_incoming_request_get_method (request), "session/request_permission") != 0)
    return FALSE;
  if (self->session_id == NULL || g_strcmp0 (session_id, self->session_id) != 0)
    return FALSE;
  if (!_acp_session_is_live (self->state))
    return FALSE;

  params = acp_incoming_request_get_params_object (request);
  if (params == NULL)
    {
      acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS,
                                                "params must be an object");
      return TRUE;
    }

  item = acp_permission_item_new (params, request, &error);
  if (item == NULL)
    {
      g_debug ("Refusing a permission request: %s", error->message);
      acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS, error->message);
      return TRUE;
    }

  /* The tool call first: agents ask about tool calls they never announced. */
  if (acp_transcript_merge_tool_call (self->transcript,
                                      acp_permission_item_get_tool_call (item), &error) == NULL)
    {
      g_debug ("Refusing a permission request: %s", error->message);
      acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS, error->message);
      return TRUE;
    }

  g_ptr_array_add (self->permissions, g_object_ref (item));
  g_signal_connect (item, "notify::state", G_CALLBACK (permission_state_cb), self);
  acp_transcript_append (self->transcript, ACP_ITEM (item));
  _acp_session_notify (self, PROP_PENDING_PERMISSIONS);

  return TRUE;
}

/* --- prompt and cancel --- */

typedef struct
{
  GCancellable *cancellable;
  gulong        cancelled_id;
} PromptData;

static void
prompt_data_free (PromptData *data)
{
  if (data->cancellable != NULL)
    g_clear_signal_handler (&data->cancelled_id, data->cancellable);
  g_clear_object (&data->cancellable);
  g_free (data);
}

static void
prompt_cancelled_cb (GCancellable *cancellable,
                     AcpSession   *self)
{
  g_autoptr(GError) error = NULL;

  if (!acp_session_cancel (self, &error))
    g_debug ("Could not cancel the turn: %s", error->message);
}

static void
prompt_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  PromptData *data = g_task_get_task_data (task);
  g_autofree char *stop_reason = NULL;
  GError *error = NULL;

  if (data->cancellable != NULL)
    g_clear_signal_handler (&data->cancelled_id, data->cancellable);

  stop_reason = acp_agent_prompt_finish (ACP_AGENT (object), result, &error);

  if (stop_reason == NULL)
    {
      if (_acp_session_check_agent_gone (self))
        {
          g_clear_error (&error);
          g_task_return_error (task, _acp_session_state_error (self));
          return;
        }
      if (self->state == ACP_SESSION_STATE_PROMPTING)
        {
          g_autofree char *details = NULL;
          JsonNode *data_node = acp_error_get_data (error);

          if (data_node != NULL)
            details = json_to_string (data_node, TRUE);
          _acp_session_stop_turn (self);
          acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_ERROR,
                                        _("The turn failed"), error->message, details);
          acp_transcript_flush (self->transcript);
          _acp_session_set_state (self, ACP_SESSION_STATE_READY);
        }
      g_task_return_error (task, error);
      return;
    }

  _acp_session_set_string (self, &self->stop_reason, stop_reason, PROP_STOP_REASON);
  if (self->state == ACP_SESSION_STATE_PROMPTING)
    {
      /* The turn is over: nobody waits for these answers anymore. */
      _acp_session_stop_turn (self);
      acp_transcript_flush (self->transcript);
      _acp_session_set_state (self, ACP_SESSION_STATE_READY);
    }

  g_task_return_pointer (task, g_steal_pointer (&stop_reason), g_free);
}

/**
 * acp_session_prompt_async:
 * @self: an #AcpSession in state READY
 * @prompt: the ContentBlock objects to send
 * @cancellable: (nullable): cancelling it cancels the turn (session/cancel)
 * @callback: called when the turn ends
 * @user_data: data for @callback
 *
 * Runs a prompt turn: a USER message with the prompt is added to the
 * transcript, the state is PROMPTING until the agent answers, then READY
 * and "stop-reason" holds the answer. Cancelling @cancellable sends
 * session/cancel; the call still completes when the agent ends the turn,
 * then with %G_IO_ERROR_CANCELLED. A failed turn (but not a dead agent)
 * leaves an error notice in the transcript.
 */
void
acp_session_prompt_async (AcpSession          *self,
                          JsonArray           *prompt,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PromptData *data;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (prompt != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_prompt_async);

  if (g_task_return_error_if_cancelled (task))
    return;
  if (!_acp_session_check_state (self, STATE_BIT (ACP_SESSION_STATE_READY), task))
    return;

  data = g_new0 (PromptData, 1);
  g_task_set_task_data (task, data, (GDestroyNotify) prompt_data_free);

  acp_transcript_append_prompt (self->transcript, prompt);

  g_object_freeze_notify (G_OBJECT (self));
  _acp_session_set_string (self, &self->stop_reason, NULL, PROP_STOP_REASON);
  _acp_session_set_state (self, ACP_SESSION_STATE_PROMPTING);
  g_object_thaw_notify (G_OBJECT (self));

  if (cancellable != NULL)
    {
      data->cancellable = g_object_ref (cancellable);
      data->cancelled_id = g_signal_connect_object (cancellable, "cancelled",
                                                    G_CALLBACK (prompt_cancelled_cb), self, 0);
    }

  /* Not @cancellable: a cancelled turn still ends with the agent's answer. */
  acp_agent_prompt_async (self->agent, self->session_id, prompt, NULL,
                          prompt_cb, g_steal_pointer (&task));
}

/**
 * acp_session_prompt_finish:
 * @self: an #AcpSession
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the stop reason ("end_turn", "cancelled", ...)
 */
char *
acp_session_prompt_finish (AcpSession    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_prompt_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * acp_session_cancel:
 * @self: an #AcpSession
 * @error: return location for an error
 *
 * Cancels the running turn: sends session/cancel (only while PROMPTING),
 * then answers every pending permission request with the "cancelled"
 * outcome and marks the tool calls not finished as stopped, without waiting
 * for the agent. The turn ends when the agent answers the prompt, normally
 * with the stop reason "cancelled".
 *
 * Returns: %FALSE if session/cancel could not be sent (the permissions are
 *   cancelled anyway)
 */
gboolean
acp_session_cancel (AcpSession  *self,
                    GError     **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->state == ACP_SESSION_STATE_PROMPTING)
    {
      ok = acp_agent_cancel (self->agent, self->session_id, error);
      if (!self->cancelling)
        {
          self->cancelling = TRUE;
          _acp_session_notify (self, PROP_CANCELLING);
        }
    }

  _acp_session_stop_turn (self);

  return ok;
}

