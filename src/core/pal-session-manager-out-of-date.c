/* pal-session-manager-out-of-date.c: agents started from older settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An agent reads its profile (program, arguments, environment, the names
 * of its values in the keyring) when it starts; each agent slot keeps that
 * launch. Once the profile says otherwise, or something the agent read at
 * its start changed (a sign-in in a terminal, a new value in the keyring),
 * the agent is out of date: an idle one is replaced at its next need
 * (pal-session-manager-agents.c), one in use is left running until the
 * person asks for a restart, which opens its sessions again on a new
 * process.
 */

#include "config.h"

#include "pal-live-session-private.h"

/* How long an agent restarted for its new settings gets to exit, before
 * SIGTERM and again before SIGKILL. */
#define RESTART_GRACE_MS 1000

char *
_pal_agent_launch_of (PalAgentProfile *profile)
{
  g_auto(GStrv) argv = pal_agent_profile_dup_argv (profile);
  const char * const *env = pal_agent_profile_get_env (profile);
  const char * const *secrets = pal_agent_profile_get_secrets (profile);
  GString *launch = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    g_string_append_printf (launch, "%s%c", argv[i], 0x1f);
  g_string_append_c (launch, 0x1e);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    g_string_append_printf (launch, "%s%c", env[i], 0x1f);
  g_string_append_c (launch, 0x1e);
  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    g_string_append_printf (launch, "%s%c", secrets[i], 0x1f);

  return g_string_free (launch, FALSE);
}

/* A launch no profile has: the agent is out of date whatever the profile. */
#define STALE_LAUNCH ""

/**
 * pal_session_manager_mark_agent_out_of_date:
 * @self: a #PalSessionManager
 * @profile_id: an agent profile id
 *
 * The agents of the profile that run now read something at their start
 * that changed since (a sign-in in a terminal wrote the agent's
 * credentials, the keyring holds a new value): each is replaced by a new
 * process at its next need once no session is open on it, and counts as
 * out of date (pal_session_manager_is_agent_out_of_date()) until then.
 */
void
pal_session_manager_mark_agent_out_of_date (PalSessionManager *self,
                                            const char        *profile_id)
{
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);

  if (self->agents == NULL)
    return;

  g_hash_table_iter_init (&iter, self->agents);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AgentSlot *slot = value;

      if (g_str_equal (slot->profile_id, profile_id))
        {
          g_free (slot->launch);
          slot->launch = g_strdup (STALE_LAUNCH);
        }
    }
}

void
_pal_session_manager_secrets_changed_cb (PalAgentStore     *store,
                                         const char        *profile_id,
                                         PalSessionManager *self)
{
  pal_session_manager_mark_agent_out_of_date (self, profile_id);
}

gboolean
_pal_session_manager_agent_in_use (PalSessionManager *self,
                                   AcpAgent          *agent)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      PalLiveSession *live = value;
      AcpSessionState state;

      if (live->session == NULL || acp_session_get_agent (live->session) != agent)
        continue;
      state = acp_session_get_state (live->session);
      if (state != ACP_SESSION_STATE_CLOSED && state != ACP_SESSION_STATE_FAILED)
        return TRUE;
    }

  return FALSE;
}

/* The slots of @profile_id whose agent runs, in use, from an older
 * version of the profile. (transfer container) */
static GPtrArray *
out_of_date_slots (PalSessionManager *self,
                   const char        *profile_id)
{
  PalAgentProfile *profile = pal_agent_store_lookup (self->agent_store, profile_id);
  g_autofree char *launch = profile != NULL ? _pal_agent_launch_of (profile) : NULL;
  GPtrArray *slots = g_ptr_array_new_with_free_func ((GDestroyNotify) _pal_agent_slot_unref);
  GHashTableIter iter;
  gpointer value;

  if (launch == NULL || self->agents == NULL)
    return slots;

  g_hash_table_iter_init (&iter, self->agents);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AgentSlot *slot = value;

      if (g_str_equal (slot->profile_id, profile_id) && !slot->starting &&
          acp_agent_get_state (slot->agent) == ACP_AGENT_STATE_READY &&
          g_strcmp0 (slot->launch, launch) != 0 &&
          _pal_session_manager_agent_in_use (self, slot->agent))
        g_ptr_array_add (slots, _pal_agent_slot_ref (slot));
    }

  return slots;
}

/**
 * pal_session_manager_is_agent_out_of_date:
 * @self: a #PalSessionManager
 * @profile_id: an agent profile id
 *
 * Returns: whether an agent of the profile runs for open sessions with the
 *   settings it had before the profile was edited (an idle one is started
 *   anew at its next use anyway)
 */
gboolean
pal_session_manager_is_agent_out_of_date (PalSessionManager *self,
                                          const char        *profile_id)
{
  g_autoptr(GPtrArray) slots = NULL;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (profile_id != NULL, FALSE);

  slots = out_of_date_slots (self, profile_id);
  return slots->len > 0;
}

typedef struct
{
  GPtrArray *sessions;     /* PalSessionKey, to open again once their agent is gone */
  guint      pending;
} RestartData;

static void
restart_data_free (gpointer data)
{
  RestartData *restart = data;

  g_ptr_array_unref (restart->sessions);
  g_free (restart);
}

static void
reopened_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;

  /* a failure is in the session's transcript */
  session = pal_session_manager_open_session_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (session == NULL)
    g_debug ("Opening a session again after its agent restarted: %s", error->message);
}

static void
out_of_date_stopped_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  RestartData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!acp_agent_stop_finish (ACP_AGENT (object), result, &error))
    g_debug ("Stopping an agent to restart it: %s", error->message);

  if (--data->pending > 0)
    return;

  /* the new agent starts with the first of them */
  for (guint i = 0; i < data->sessions->len; i++)
    pal_session_manager_open_session_async (self, g_ptr_array_index (data->sessions, i), NULL,
                                            reopened_cb, NULL);
  g_task_return_int (task, data->sessions->len);
}

/**
 * pal_session_manager_restart_agent_async:
 * @self: a #PalSessionManager
 * @profile_id: an agent profile id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the agents stopped and the sessions are opening
 * @user_data: data for @callback
 *
 * Stops the agents of the profile that run with older settings (see
 * pal_session_manager_is_agent_out_of_date()), then opens their open
 * sessions again, which starts them with the profile as it is now.
 */
void
pal_session_manager_restart_agent_async (PalSessionManager   *self,
                                         const char          *profile_id,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) slots = NULL;
  RestartData *data;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_restart_agent_async);
  data = g_new0 (RestartData, 1);
  data->sessions = g_ptr_array_new_with_free_func ((GDestroyNotify) pal_session_key_unref);
  g_task_set_task_data (task, data, restart_data_free);

  slots = out_of_date_slots (self, profile_id);
  for (guint i = 0; i < slots->len; i++)
    {
      AgentSlot *slot = g_ptr_array_index (slots, i);
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, self->live);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          PalLiveSession *live = value;

          if (live->session != NULL && acp_session_get_agent (live->session) == slot->agent &&
              acp_session_get_state (live->session) != ACP_SESSION_STATE_CLOSED)
            g_ptr_array_add (data->sessions, pal_session_key_ref (live->key));
        }
    }

  if (slots->len == 0)
    {
      g_task_return_int (task, 0);
      return;
    }

  data->pending = slots->len;
  for (guint i = 0; i < slots->len; i++)
    {
      AgentSlot *slot = g_ptr_array_index (slots, i);

      g_debug ("Restarting agent %s in %s with its new settings", profile_id, slot->cwd);
      acp_agent_set_stop_grace_period (slot->agent, RESTART_GRACE_MS);
      acp_agent_stop_async (slot->agent, NULL, out_of_date_stopped_cb, g_object_ref (task));
    }
}

/* Returns: how many sessions are opened again, or -1 with @error set */
int
pal_session_manager_restart_agent_finish (PalSessionManager  *self,
                                          GAsyncResult       *result,
                                          GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), -1);
  g_return_val_if_fail (g_task_is_valid (result, self), -1);

  return g_task_propagate_int (G_TASK (result), error);
}
