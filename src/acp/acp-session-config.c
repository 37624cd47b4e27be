/* acp-session-config.c: switching modes and config options
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * session/set_mode and session/set_config_option on an open session. The
 * session's "current-mode-id" and "config-options" follow the answer; the
 * agent may change them on its own too, by updates (acp-session-updates.c).
 */

#include "config.h"

#include "acp-session-private.h"

/* --- modes and config options --- */

static void
set_mode_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  const char *mode_id = g_task_get_task_data (task);
  GError *error = NULL;

  if (!acp_agent_set_mode_finish (ACP_AGENT (object), result, &error))
    {
      _acp_session_check_agent_gone (self);
      g_task_return_error (task, error);
      return;
    }

  _acp_session_set_string (self, &self->current_mode_id, mode_id, PROP_CURRENT_MODE_ID);
  g_task_return_boolean (task, TRUE);
}

/**
 * acp_session_set_mode_async:
 * @self: an open #AcpSession
 * @mode_id: the id of one of the available modes
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Switches the mode (session/set_mode); "current-mode-id" follows on
 * success.
 */
void
acp_session_set_mode_async (AcpSession          *self,
                            const char          *mode_id,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (mode_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_set_mode_async);
  g_task_set_task_data (task, g_strdup (mode_id), g_free);

  if (!_acp_session_check_state (self, STATE_BIT (ACP_SESSION_STATE_READY) |
                          STATE_BIT (ACP_SESSION_STATE_PROMPTING), task))
    return;

  acp_agent_set_mode_async (self->agent, self->session_id, mode_id, cancellable,
                            set_mode_cb, g_steal_pointer (&task));
}

gboolean
acp_session_set_mode_finish (AcpSession    *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_set_mode_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
set_config_option_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  g_autoptr(JsonArray) options = NULL;
  GError *error = NULL;

  options = acp_agent_set_config_option_finish (ACP_AGENT (object), result, &error);
  if (options == NULL)
    {
      _acp_session_check_agent_gone (self);
      g_task_return_error (task, error);
      return;
    }

  _acp_session_set_config_options (self, options);
  g_task_return_boolean (task, TRUE);
}

/**
 * acp_session_set_config_option_async:
 * @self: an open #AcpSession
 * @config_id: the id of a config option
 * @value: a string node (select options) or a boolean node (boolean ones)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Sets a config option (session/set_config_option); the items of
 * "config-options" are replaced, in place, by the full state the agent
 * answers.
 */
void
acp_session_set_config_option_async (AcpSession          *self,
                                     const char          *config_id,
                                     JsonNode            *value,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (config_id != NULL);
  g_return_if_fail (value != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_set_config_option_async);

  if (!_acp_session_check_state (self, STATE_BIT (ACP_SESSION_STATE_READY) |
                          STATE_BIT (ACP_SESSION_STATE_PROMPTING), task))
    return;

  acp_agent_set_config_option_async (self->agent, self->session_id, config_id, value, cancellable,
                                     set_config_option_cb, g_steal_pointer (&task));
}

gboolean
acp_session_set_config_option_finish (AcpSession    *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_set_config_option_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

