/* pal-session-history.c: a session's stored transcript, as items to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-error.h"
#include "pal-session-history.h"

/**
 * PalSessionHistory:
 *
 * What the transcript store keeps of a session, made into the items of an
 * #AcpTranscript as a replay of the agent would make them, without the
 * agent: shown while the session is not open, and kept above the new turns
 * of a resume.
 *
 * Loading reads the entries on the store's worker, then takes every update
 * apart from its JSON text (acp_update_new_from_json()) and applies it to
 * a new transcript on a thread of its own: the main thread only gets the
 * finished transcript, whatever its length. A prompt the application sent
 * is shown as the user message it made. Entries that cannot be read (the
 * agent sent something malformed) are skipped, as they were when they
 * came.
 */
struct _PalSessionHistory
{
  GObject parent_instance;

  PalSessionKey *key;
  AcpTranscript *transcript;
  /* entry index → the AcpItem it made or last changed (borrowed from the
   * transcript, which never drops one), or NULL */
  GPtrArray *items;
};

G_DEFINE_FINAL_TYPE (PalSessionHistory, pal_session_history, G_TYPE_OBJECT)

static void
pal_session_history_finalize (GObject *object)
{
  PalSessionHistory *self = PAL_SESSION_HISTORY (object);

  g_clear_pointer (&self->key, pal_session_key_unref);
  g_clear_object (&self->transcript);
  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_session_history_parent_class)->finalize (object);
}

static void
pal_session_history_class_init (PalSessionHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pal_session_history_finalize;
}

static void
pal_session_history_init (PalSessionHistory *self)
{
  self->items = g_ptr_array_new ();
}

/* --- made on a thread --- */

/* What the thread makes: the transcript, not flushed on idle, and the item
 * of each entry */
typedef struct
{
  AcpTranscript *transcript;
  GPtrArray     *items;
} Built;

static void
built_free (gpointer data)
{
  Built *built = data;

  g_clear_object (&built->transcript);
  g_clear_pointer (&built->items, g_ptr_array_unref);
  g_free (built);
}

static guint
count_items (AcpTranscript *transcript)
{
  return g_list_model_get_n_items (G_LIST_MODEL (transcript)) +
         acp_transcript_get_n_pending (transcript);
}

/* The item @update made or changed, after it was applied */
static AcpItem *
item_of (AcpTranscript *transcript,
         AcpUpdate     *update,
         gboolean       added)
{
  const char *kind = acp_update_get_kind (update);
  const char *id = acp_update_get_item_id (update);

  if (added || id == NULL || kind == NULL)
    return acp_transcript_peek_last (transcript);
  if (g_str_has_prefix (kind, "tool_call"))
    return ACP_ITEM (acp_transcript_lookup_tool_call (transcript, id));
  if (g_str_has_suffix (kind, "_chunk") && acp_transcript_lookup_message (transcript, id) != NULL)
    return ACP_ITEM (acp_transcript_lookup_message (transcript, id));

  return acp_transcript_peek_last (transcript);
}

/* Applies @update (taken); returns the item it made or changed, or @item
 * when it could not be applied */
static AcpItem *
apply (AcpTranscript *transcript,
       AcpUpdate     *update,
       AcpItem       *item)
{
  g_autoptr(AcpUpdate) taken = update;
  g_autoptr(GError) error = NULL;
  guint before = count_items (transcript);

  if (!acp_transcript_apply (transcript, taken, &error))
    {
      g_debug ("A stored update was not shown: %s", error->message);
      return item;
    }

  return item_of (transcript, taken, count_items (transcript) > before);
}

/* A prompt's content blocks, each as the user message chunk that shows it:
 * they share an id of their own, so that they are one message. Returns the
 * item they made. */
static AcpItem *
apply_prompt (AcpTranscript *transcript,
              AcpJsonDoc    *doc,
              const char    *session_id,
              guint          index,
              const char    *text,
              gsize          length)
{
  g_autoptr(GString) json = g_string_new (NULL);
  const AcpJsonValue *blocks = acp_json_doc_read (doc, text, length, 512, NULL);
  AcpItem *item = NULL;

  if (!acp_json_value_is (blocks, ACP_JSON_ARRAY))
    return NULL;

  for (const AcpJsonValue *block = acp_json_value_get_first (doc, blocks);
       block != NULL;
       block = acp_json_value_get_next (doc, block))
    {
      g_autoptr(GError) error = NULL;
      AcpUpdate *update;

      g_string_printf (json, "{\"sessionUpdate\":\"user_message_chunk\","
                             "\"messageId\":\"palaver-prompt-%u\",\"content\":", index);
      acp_json_value_write (doc, block, json);
      g_string_append_c (json, '}');
      update = acp_update_new_from_json (session_id, json->str, (gssize) json->len, &error);
      if (update != NULL)
        item = apply (transcript, update, item);
      else
        g_debug ("A stored prompt could not be read: %s", error->message);
    }

  return item;
}

/* Takes every entry apart and applies it, on a thread of its own: the
 * transcript and its items are plain objects, no one watches them yet and
 * they are handed whole to the main thread. */
static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  PalStoredTranscript *stored = task_data;
  PalSessionKey *key = g_object_get_data (G_OBJECT (task), "key");
  const char *session_id = pal_session_key_get_session_id (key);
  guint n = pal_stored_transcript_get_n_entries (stored);
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  Built *built = g_new0 (Built, 1);

  built->transcript = acp_transcript_new ();
  acp_transcript_set_flush_on_idle (built->transcript, FALSE);
  built->items = g_ptr_array_sized_new (n);

  for (guint i = 0; i < n; i++)
    {
      gsize length;
      const char *json = pal_stored_transcript_get_json (stored, i, &length);
      AcpItem *item = NULL;

      if (i % 4096 == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      /* what a flush leaves is what a replay leaves: the transcript keeps
       * its messages still to announce in a list, which must stay short */
      if (i % 256 == 0)
        acp_transcript_flush (built->transcript);

      if (pal_stored_transcript_get_kind (stored, i) == PAL_TRANSCRIPT_KIND_PROMPT)
        {
          item = apply_prompt (built->transcript, doc, session_id, i, json, length);
        }
      else
        {
          g_autoptr(GError) error = NULL;
          AcpUpdate *update = acp_update_new_from_json (session_id, json, (gssize) length, &error);

          if (update != NULL)
            item = apply (built->transcript, update, NULL);
          else
            g_debug ("A stored update could not be read: %s", error->message);
        }
      g_ptr_array_add (built->items, item);
    }

  if (g_cancellable_is_cancelled (cancellable))
    {
      built_free (built);
      g_task_return_error_if_cancelled (task);
      return;
    }

  /* the turns are over: what did not finish never will */
  acp_transcript_stop_tool_calls (built->transcript);
  acp_transcript_flush (built->transcript);

  g_task_return_pointer (task, built, built_free);
}

static void
built_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionKey *key = g_task_get_task_data (task);
  g_autoptr(PalSessionHistory) self = NULL;
  GError *error = NULL;
  Built *built;

  built = g_task_propagate_pointer (G_TASK (result), &error);
  if (built == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    {
      built_free (built);
      return;
    }

  self = g_object_new (PAL_TYPE_SESSION_HISTORY, NULL);
  self->key = pal_session_key_ref (key);
  g_set_object (&self->transcript, built->transcript);
  g_ptr_array_unref (self->items);
  self->items = g_steal_pointer (&built->items);
  /* here on, what is appended (a notice) shows as in any transcript */
  acp_transcript_set_flush_on_idle (self->transcript, TRUE);
  built_free (built);

  g_task_return_pointer (task, g_steal_pointer (&self), g_object_unref);
}

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionKey *key = g_task_get_task_data (task);
  g_autoptr(GTask) build = NULL;
  PalStoredTranscript *stored;
  GError *error = NULL;

  stored = pal_transcript_store_load_finish (PAL_TRANSCRIPT_STORE (object), result, &error);
  if (stored == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  build = g_task_new (NULL, g_task_get_cancellable (task), built_cb, g_object_ref (task));
  g_task_set_source_tag (build, stored_cb);
  g_task_set_task_data (build, stored, (GDestroyNotify) pal_stored_transcript_unref);
  g_object_set_data_full (G_OBJECT (build), "key", pal_session_key_ref (key),
                          (GDestroyNotify) pal_session_key_unref);
  g_task_run_in_thread (build, build_thread);
}

/**
 * pal_session_history_load_async:
 * @store: where the transcripts are kept
 * @key: the session
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the history
 * @user_data: data for @callback
 *
 * Reads what @store keeps of @key and makes the items of it. A session
 * with nothing stored gives an empty history.
 */
void
pal_session_history_load_async (PalTranscriptStore  *store,
                                PalSessionKey       *key,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (store));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_history_load_async);
  g_task_set_task_data (task, pal_session_key_ref (key), (GDestroyNotify) pal_session_key_unref);

  pal_transcript_store_load_async (store, key, cancellable, stored_cb, g_steal_pointer (&task));
}

/**
 * pal_session_history_load_finish:
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the history, or %NULL with @error set (the
 *   store's, or %G_IO_ERROR_CANCELLED)
 */
PalSessionHistory *
pal_session_history_load_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_history_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

PalSessionKey *
pal_session_history_get_key (PalSessionHistory *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_HISTORY (self), NULL);

  return self->key;
}

AcpTranscript *
pal_session_history_get_transcript (PalSessionHistory *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_HISTORY (self), NULL);

  return self->transcript;
}

guint
pal_session_history_get_n_entries (PalSessionHistory *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_HISTORY (self), 0);

  return self->items->len;
}

AcpItem *
pal_session_history_get_item (PalSessionHistory *self,
                              guint              index)
{
  g_return_val_if_fail (PAL_IS_SESSION_HISTORY (self), NULL);

  if (self->items->len == 0)
    return NULL;

  for (guint i = MIN (index, self->items->len - 1) + 1; i > 0; i--)
    {
      AcpItem *item = g_ptr_array_index (self->items, i - 1);

      if (item != NULL)
        return item;
    }

  return NULL;
}

int
pal_session_history_find_item (PalSessionHistory *self,
                               AcpItem           *item)
{
  GListModel *model;
  guint n;

  g_return_val_if_fail (PAL_IS_SESSION_HISTORY (self), -1);

  model = G_LIST_MODEL (self->transcript);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n && item != NULL; i++)
    {
      g_autoptr(AcpItem) at = g_list_model_get_item (model, i);

      if (at == item)
        return (int) i;
    }

  return -1;
}
