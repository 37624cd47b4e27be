/* acp-session-open.c: opening and closing a session on the agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A session opens from NEW in one of four ways: created (session/new) or
 * forked (session/fork), and then it gets its id from the answer; loaded
 * (session/load, the history replayed into the transcript) or resumed
 * (session/resume), with an id it already had. Each ends READY, or NEW again
 * on failure so that the caller can try something else. Closing uses
 * session/close when the agent advertises it, and is local otherwise.
 */

#include "config.h"

#include "acp-session-private.h"

/* --- create, fork, load, resume --- */

typedef JsonObject *(*OpenFinishFunc) (AcpAgent      *agent,
                                       GAsyncResult  *result,
                                       GError       **error);

/* The end of a session/new or a session/fork: a new session id. */
static void
finish_create (GTask          *task,
               GAsyncResult   *result,
               OpenFinishFunc  finish)
{
  AcpSession *self = g_task_get_source_object (task);
  g_autoptr(JsonObject) response = NULL;
  GError *error = NULL;

  response = finish (self->agent, result, &error);
  g_clear_object (&self->open_cancellable);

  if (self->state != ACP_SESSION_STATE_CREATING)
    {
      g_clear_error (&error);
      g_ptr_array_set_size (self->early_updates, 0);
      g_task_return_error (task, _acp_session_state_error (self));
      return;
    }

  if (response == NULL)
    {
      g_ptr_array_set_size (self->early_updates, 0);
      if (_acp_session_check_agent_gone (self))
        {
          g_clear_error (&error);
          g_task_return_error (task, _acp_session_state_error (self));
          return;
        }
      _acp_session_set_state (self, ACP_SESSION_STATE_NEW);
      g_task_return_error (task, error);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  _acp_session_set_string (self, &self->session_id,
                           json_object_get_string_member (response, "sessionId"), PROP_SESSION_ID);
  _acp_session_apply_response (self, response);
  _acp_session_set_state (self, ACP_SESSION_STATE_READY);
  g_object_thaw_notify (G_OBJECT (self));

  _acp_session_apply_early_updates (self);

  g_task_return_boolean (task, TRUE);
}

static void
create_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_create (task, result, acp_agent_new_session_finish);
}

/* CREATING, without an id until the answer; NULL (the task is answered)
 * when the session is not NEW. */
static GTask *
begin_create (AcpSession          *self,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data,
              gpointer             source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  if (!_acp_session_check_state (self, STATE_BIT (ACP_SESSION_STATE_NEW), task))
    return NULL;

  /* The id comes with the answer; until then updates for unknown ids are
   * kept (see _acp_session_agent_update_cb). */
  g_object_freeze_notify (G_OBJECT (self));
  _acp_session_set_string (self, &self->session_id, NULL, PROP_SESSION_ID);
  _acp_session_set_state (self, ACP_SESSION_STATE_CREATING);
  g_object_thaw_notify (G_OBJECT (self));

  g_set_object (&self->open_cancellable, cancellable);

  return g_steal_pointer (&task);
}

/**
 * acp_session_create_async:
 * @self: an #AcpSession in state NEW
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Creates the session on the agent (session/new): CREATING, then READY
 * with the new session id, or NEW again on failure.
 */
void
acp_session_create_async (AcpSession          *self,
                          GPtrArray           *mcp_servers,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_create (self, cancellable, callback, user_data, acp_session_create_async);
  if (task == NULL)
    return;

  acp_agent_new_session_async (self->agent, self->cwd, mcp_servers,
                               (const char * const *) self->additional_directories, cancellable,
                               create_cb, g_steal_pointer (&task));
}

gboolean
acp_session_create_finish (AcpSession    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_create_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
fork_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_create (task, result, acp_agent_fork_session_finish);
}

/**
 * acp_session_fork_async:
 * @self: an #AcpSession in state NEW
 * @source_id: the id of the session (of the same agent) to fork
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Creates the session as a fork of @source_id (session/fork, unstable): the
 * agent starts it from that session's context and gives it a new id.
 * CREATING, then READY with the new id, or NEW again on failure; nothing is
 * replayed, so the transcript keeps what it had. Fails locally with
 * %ACP_ERROR_NOT_SUPPORTED when the agent did not advertise
 * sessionCapabilities.fork.
 */
void
acp_session_fork_async (AcpSession          *self,
                        const char          *source_id,
                        GPtrArray           *mcp_servers,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (source_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_create (self, cancellable, callback, user_data, acp_session_fork_async);
  if (task == NULL)
    return;

  acp_agent_fork_session_async (self->agent, source_id, self->cwd, mcp_servers,
                                (const char * const *) self->additional_directories, cancellable,
                                fork_cb, g_steal_pointer (&task));
}

gboolean
acp_session_fork_finish (AcpSession    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_fork_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The end of a load or a resume. */
static void
finish_open (GTask           *task,
             GAsyncResult    *result,
             OpenFinishFunc   finish,
             AcpSessionState  expected)
{
  AcpSession *self = g_task_get_source_object (task);
  g_autoptr(JsonObject) response = NULL;
  GError *error = NULL;

  response = finish (self->agent, result, &error);
  g_clear_object (&self->open_cancellable);

  if (self->state != expected)
    {
      g_clear_error (&error);
      g_task_return_error (task, _acp_session_state_error (self));
      return;
    }

  /* a replayed history is over: nothing of it runs */
  acp_transcript_stop_tool_calls (self->transcript);
  acp_transcript_flush (self->transcript);
  /* the last count while still LOADING */
  if (self->replay_notify_id != 0)
    _acp_session_notify_replay_count (self);

  if (response == NULL)
    {
      if (_acp_session_check_agent_gone (self))
        {
          g_clear_error (&error);
          g_task_return_error (task, _acp_session_state_error (self));
          return;
        }
      _acp_session_set_state (self, ACP_SESSION_STATE_NEW);
      g_task_return_error (task, error);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  _acp_session_apply_response (self, response);
  _acp_session_set_state (self, ACP_SESSION_STATE_READY);
  g_object_thaw_notify (G_OBJECT (self));

  g_task_return_boolean (task, TRUE);
}

/* What a load and a resume share: the task, the state check, the id and the
 * new state; a load also starts from an empty transcript and counter.
 * Returns NULL (the task is answered) when the session is not NEW. */
static GTask *
begin_open (AcpSession          *self,
            const char          *session_id,
            AcpSessionState      state,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data,
            gpointer             source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  if (!_acp_session_check_state (self, STATE_BIT (ACP_SESSION_STATE_NEW), task))
    return NULL;

  if (state == ACP_SESSION_STATE_LOADING)
    acp_transcript_clear (self->transcript);

  g_object_freeze_notify (G_OBJECT (self));
  _acp_session_set_string (self, &self->session_id, session_id, PROP_SESSION_ID);
  if (state == ACP_SESSION_STATE_LOADING && self->replay_count != 0)
    {
      self->replay_count = 0;
      _acp_session_notify_replay_count (self);
    }
  _acp_session_set_state (self, state);
  g_object_thaw_notify (G_OBJECT (self));

  g_set_object (&self->open_cancellable, cancellable);

  return g_steal_pointer (&task);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_open (task, result, acp_agent_load_session_finish, ACP_SESSION_STATE_LOADING);
}

/**
 * acp_session_load_async:
 * @self: an #AcpSession in state NEW
 * @session_id: the id of a session the agent knows
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Loads a session (session/load): the transcript is cleared, then fills as
 * the agent replays the history (state LOADING, "replay-count" counting the
 * updates, notified once a batch and before the state changes); READY when the agent answers, or NEW again on failure. Fails
 * locally with %ACP_ERROR_NOT_SUPPORTED if the agent cannot load sessions.
 */
void
acp_session_load_async (AcpSession          *self,
                        const char          *session_id,
                        GPtrArray           *mcp_servers,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_open (self, session_id, ACP_SESSION_STATE_LOADING, cancellable, callback, user_data,
                     acp_session_load_async);
  if (task == NULL)
    return;

  acp_agent_load_session_async (self->agent, session_id, self->cwd, mcp_servers,
                                (const char * const *) self->additional_directories,
                                cancellable, load_cb, g_steal_pointer (&task));
}

gboolean
acp_session_load_finish (AcpSession    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_load_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
resume_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_open (task, result, acp_agent_resume_session_finish, ACP_SESSION_STATE_RESUMING);
}

/**
 * acp_session_resume_async:
 * @self: an #AcpSession in state NEW
 * @session_id: the id of a session the agent knows
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Reopens a session without replaying its history (session/resume):
 * RESUMING, then READY, or NEW again on failure. Fails locally with
 * %ACP_ERROR_NOT_SUPPORTED if the agent cannot resume sessions.
 */
void
acp_session_resume_async (AcpSession          *self,
                          const char          *session_id,
                          GPtrArray           *mcp_servers,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_open (self, session_id, ACP_SESSION_STATE_RESUMING, cancellable, callback, user_data,
                     acp_session_resume_async);
  if (task == NULL)
    return;

  acp_agent_resume_session_async (self->agent, session_id, self->cwd, mcp_servers,
                                  (const char * const *) self->additional_directories,
                                  cancellable, resume_cb, g_steal_pointer (&task));
}

gboolean
acp_session_resume_finish (AcpSession    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_resume_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- close --- */

static void
finish_close (AcpSession *self)
{
  _acp_session_disconnect_agent (self);
  _acp_session_stop_turn (self);
  g_ptr_array_set_size (self->early_updates, 0);
  acp_transcript_flush (self->transcript);
  _acp_session_set_state (self, ACP_SESSION_STATE_CLOSED);
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!acp_agent_close_session_finish (ACP_AGENT (object), result, &error))
    g_debug ("session/close failed: %s", error->message);

  /* Closed for us whatever the agent said (a dead agent has failed it). */
  if (self->state == ACP_SESSION_STATE_CLOSING)
    finish_close (self);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * acp_session_close_async:
 * @self: an #AcpSession
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Closes the session: with session/close when the agent advertises it
 * (CLOSING, then CLOSED whatever the answer; an error is still returned),
 * else locally at once (a running turn is cancelled with session/cancel).
 * Pending permissions are cancelled and the session stops listening to the
 * agent. Closing a CLOSED or FAILED session does nothing.
 */
void
acp_session_close_async (AcpSession          *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gboolean can_close;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_close_async);

  if (self->state == ACP_SESSION_STATE_CLOSED || self->state == ACP_SESSION_STATE_FAILED)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (self->state == ACP_SESSION_STATE_CLOSING)
    {
      g_task_return_error (task, _acp_session_state_error (self));
      return;
    }

  can_close = (self->state == ACP_SESSION_STATE_READY ||
               self->state == ACP_SESSION_STATE_PROMPTING) &&
              acp_agent_has_capability (self->agent, ACP_AGENT_CAP_SESSION_CLOSE);

  if (!can_close)
    {
      if (self->state == ACP_SESSION_STATE_PROMPTING)
        {
          g_autoptr(GError) error = NULL;

          if (!acp_session_cancel (self, &error))
            g_debug ("Could not cancel the turn: %s", error->message);
        }
      finish_close (self);
      g_task_return_boolean (task, TRUE);
      return;
    }

  _acp_session_stop_turn (self);
  _acp_session_set_state (self, ACP_SESSION_STATE_CLOSING);
  acp_agent_close_session_async (self->agent, self->session_id, cancellable,
                                 close_cb, g_steal_pointer (&task));
}

gboolean
acp_session_close_finish (AcpSession    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_close_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

