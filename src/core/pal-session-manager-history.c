/* pal-session-manager-history.c: every session recorded, for a history of
 * the application's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With a transcript store (the "transcript-store" property), every
 * session/update an agent sends and every prompt it is sent is recorded
 * under the session's key, as the JSON text it came or went as: the main
 * thread hands the text over, the store's worker does the rest. A load's
 * replay is recorded between begin and end of a replay, so that the same
 * history replayed again writes nothing and a changed one replaces what
 * was kept. A resume replays nothing: the session's transcript starts with
 * the history kept here instead.
 */

#include "config.h"

#include <string.h>

#include "pal-session-history.h"
#include "pal-session-manager-private.h"

/* What records the traffic of one agent process */
typedef struct
{
  PalTranscriptStore *store;
  char               *profile_id;
  PalSessionKey      *key;  /* of the session recorded last: most updates are of it */
} Recorder;

static void
recorder_free (gpointer data,
               GClosure *closure)
{
  Recorder *recorder = data;

  g_clear_object (&recorder->store);
  g_free (recorder->profile_id);
  g_clear_pointer (&recorder->key, pal_session_key_unref);
  g_free (recorder);
}

static PalSessionKey *
recorder_key (Recorder   *recorder,
              const char *session_id)
{
  if (recorder->key == NULL ||
      strcmp (pal_session_key_get_session_id (recorder->key), session_id) != 0)
    {
      g_clear_pointer (&recorder->key, pal_session_key_unref);
      recorder->key = pal_session_key_new (recorder->profile_id, session_id);
    }

  return recorder->key;
}

static void
agent_update_cb (AcpAgent  *agent,
                 AcpUpdate *update,
                 Recorder  *recorder)
{
  const char *session_id = acp_update_get_session_id (update);

  /* its JSON text is written on the store's thread */
  if (session_id != NULL)
    pal_transcript_store_record_acp_update (recorder->store,
                                            recorder_key (recorder, session_id), update);
}

static void
agent_prompt_sent_cb (AcpAgent   *agent,
                      const char *session_id,
                      JsonArray  *prompt,
                      Recorder   *recorder)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), prompt);
  g_autofree char *json = json_to_string (node, FALSE);

  pal_transcript_store_record_prompt (recorder->store, recorder_key (recorder, session_id), json);
}

void
_pal_session_manager_record_agent (PalSessionManager *self,
                                   AcpAgent          *agent,
                                   const char        *profile_id)
{
  Recorder *recorder;

  if (self->transcript_store == NULL)
    return;

  recorder = g_new0 (Recorder, 1);
  recorder->store = g_object_ref (self->transcript_store);
  recorder->profile_id = g_strdup (profile_id);
  /* the updates, as the agent sends them: the session's own handler
   * applies them */
  g_signal_connect_data (agent, "update", G_CALLBACK (agent_update_cb), recorder,
                         recorder_free, 0);
  g_signal_connect (agent, "prompt-sent", G_CALLBACK (agent_prompt_sent_cb), recorder);
}

void
_pal_session_manager_replay_begins (PalSessionManager *self,
                                    PalSessionKey     *key)
{
  if (self->transcript_store != NULL)
    pal_transcript_store_begin_replay (self->transcript_store, key);
}

static void
replay_ended_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean replaced = FALSE;

  /* a store that could not write said so with its "problem" signal */
  if (!pal_transcript_store_end_replay_finish (PAL_TRANSCRIPT_STORE (object), result, &replaced,
                                               &error))
    g_debug ("A replay was not kept: %s", error->message);
  else if (replaced)
    g_debug ("A replay replaced the history kept");
}

void
_pal_replay_ends (PalTranscriptStore *store,
                  PalSessionKey      *key,
                  gboolean            completed)
{
  if (store == NULL)
    return;

  if (completed)
    pal_transcript_store_end_replay_async (store, key, NULL, replay_ended_cb, NULL);
  else
    pal_transcript_store_abort_replay (store, key);
}

static void
history_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *session = g_task_get_task_data (task);
  g_autoptr(PalSessionHistory) history = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *items;
  AcpTranscript *transcript;
  guint n;

  history = pal_session_history_load_finish (result, &error);
  if (history == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (history == NULL)
    {
      /* the store said what went wrong; the resume goes on without */
      g_debug ("The history kept of a resumed session could not be read: %s", error->message);
      g_task_return_int (task, 0);
      return;
    }

  items = G_LIST_MODEL (pal_session_history_get_transcript (history));
  transcript = acp_session_get_transcript (session);
  n = g_list_model_get_n_items (items);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (items, i);

      acp_transcript_append (transcript, item);
    }
  acp_transcript_flush (transcript);

  g_task_return_int (task, n);
}

void
_pal_session_manager_carry_history_async (PalSessionManager   *self,
                                          PalSessionKey       *key,
                                          AcpSession          *session,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, _pal_session_manager_carry_history_async);
  g_task_set_task_data (task, g_object_ref (session), g_object_unref);

  if (self->transcript_store == NULL)
    {
      g_task_return_int (task, 0);
      return;
    }

  pal_session_history_load_async (self->transcript_store, key, PAL_SESSION_HISTORY_LOAD_NONE,
                                  cancellable, history_loaded_cb,
                                  g_steal_pointer (&task));
}

gboolean
_pal_session_manager_carry_history_finish (PalSessionManager  *self,
                                           GAsyncResult       *result,
                                           guint              *n_items,
                                           GError            **error)
{
  GError *local_error = NULL;
  gssize n;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  n = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  *n_items = (guint) n;

  return TRUE;
}

/**
 * pal_session_manager_get_transcript_store:
 * @self: a #PalSessionManager
 *
 * Returns: (transfer none) (nullable): where every session's updates and
 *   prompts are recorded
 */
PalTranscriptStore *
pal_session_manager_get_transcript_store (PalSessionManager *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);

  return self->transcript_store;
}
