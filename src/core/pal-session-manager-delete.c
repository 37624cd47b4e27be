/* pal-session-manager-delete.c: deleting a session at its agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents that advertise sessionCapabilities.delete forget a session for
 * good. A live session is closed first; the agent of its profile and folder
 * is started if need be; once the agent deleted it, the session leaves the
 * list. A refusal leaves everything as it was, but closed.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-session-manager-private.h"

typedef struct
{
  PalSessionKey *key;
  char          *cwd;
} DeleteData;

static void
delete_data_free (gpointer data)
{
  DeleteData *delete = data;

  pal_session_key_unref (delete->key);
  g_free (delete->cwd);
  g_free (delete);
}

static void
deleted_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  DeleteData *data = g_task_get_task_data (task);
  GError *error = NULL;

  if (!acp_agent_delete_session_finish (ACP_AGENT (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  pal_session_manager_forget (self, data->key);
  g_task_return_boolean (task, TRUE);
}

static void
agent_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DeleteData *data = g_task_get_task_data (task);
  g_autoptr(AcpAgent) agent = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  agent = _pal_session_manager_ensure_agent_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (agent == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* an agent that did not advertise it refuses here, nothing sent; the
   * arguments are read before the task is handed over */
  cancellable = g_task_get_cancellable (task);
  acp_agent_delete_session_async (agent, pal_session_key_get_session_id (data->key), cancellable,
                                  deleted_cb, g_steal_pointer (&task));
}

static void
closed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = PAL_SESSION_MANAGER (object);
  DeleteData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  /* deleted all the same: the agent may not close sessions */
  if (!pal_session_manager_close_session_finish (self, result, &error))
    g_debug ("Closing session %s before deleting it: %s",
             pal_session_key_get_session_id (data->key), error->message);

  cancellable = g_task_get_cancellable (task);
  _pal_session_manager_ensure_agent_async (self, pal_session_key_get_agent_id (data->key),
                                           data->cwd, cancellable,
                                           agent_ready_cb, g_steal_pointer (&task));
}

/**
 * pal_session_manager_delete_session_async:
 * @self: a #PalSessionManager
 * @key: a session of the list
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Deletes the session at its agent (session/delete), then removes it from
 * the list. A live session is closed first. Fails with %PAL_ERROR_NOT_FOUND
 * for a session not in the list, and with the agent's error (a local one
 * when the agent cannot delete sessions).
 */
void
pal_session_manager_delete_session_async (PalSessionManager   *self,
                                          PalSessionKey       *key,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PalSessionRecord *record;
  DeleteData *data;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_delete_session_async);

  record = pal_session_store_lookup (self->session_store, key);
  if (record == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND,
                               _("There is no such session in the list"));
      return;
    }

  data = g_new0 (DeleteData, 1);
  data->key = pal_session_key_ref (key);
  data->cwd = g_strdup (pal_session_record_get_cwd (record));
  g_task_set_task_data (task, data, delete_data_free);

  pal_session_manager_close_session_async (self, key, cancellable, closed_cb,
                                           g_steal_pointer (&task));
}

gboolean
pal_session_manager_delete_session_finish (PalSessionManager  *self,
                                           GAsyncResult       *result,
                                           GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_delete_session_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
