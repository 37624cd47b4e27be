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
 *
 * A long history loaded with %PAL_SESSION_HISTORY_LOAD_END_FIRST comes in
 * two steps, so that its end shows at once however long it is: the last
 * turns (from a user message, TAIL_ENTRIES entries or more before the end)
 * are built first and the history is handed over with them
 * (#PalSessionHistory:complete is %FALSE); the earlier entries are built
 * meanwhile on a thread and put in front of them in the same transcript
 * (acp_transcript_prepend()). Should the last turns have reached into
 * the earlier ones (a tool call of an earlier turn updated, say:
 * acp_transcript_can_follow()), the whole history is built on and replaces
 * the transcript instead (#PalSessionHistory:transcript changes).
 */

/* A history shorter than this is built whole, in about 35 ms here: built
 * in two, its end shows no sooner and the whole of it later */
#define SPLIT_MIN_ENTRIES 20000
/* The end built first: about a fifth of a millisecond a hundred entries */
#define TAIL_ENTRIES      400

struct _PalSessionHistory
{
  GObject parent_instance;

  PalSessionKey       *key;
  AcpTranscript       *transcript;
  /* entry index → the AcpItem it made or last changed (borrowed from the
   * transcript, which never drops one), or NULL */
  GPtrArray           *items;

  /* while the earlier entries are built */
  PalStoredTranscript *stored;
  guint                split;       /* the first entry built first */
  guint                tail_items;  /* the items they made */
  GCancellable        *cancellable;
  gboolean             complete;
};

G_DEFINE_FINAL_TYPE (PalSessionHistory, pal_session_history, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TRANSCRIPT,
  PROP_COMPLETE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pal_session_history_finalize (GObject *object)
{
  PalSessionHistory *self = PAL_SESSION_HISTORY (object);

  g_clear_pointer (&self->key, pal_session_key_unref);
  g_clear_object (&self->transcript);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->stored, pal_stored_transcript_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (pal_session_history_parent_class)->finalize (object);
}

static void
pal_session_history_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  PalSessionHistory *self = PAL_SESSION_HISTORY (object);

  switch (prop_id)
    {
    case PROP_TRANSCRIPT:
      g_value_set_object (value, self->transcript);
      break;

    case PROP_COMPLETE:
      g_value_set_boolean (value, self->complete);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_history_class_init (PalSessionHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pal_session_history_finalize;
  object_class->get_property = pal_session_history_get_property;

  /**
   * PalSessionHistory:transcript:
   *
   * The items. It changes only when the end, built first, turned out to
   * reach into the earlier entries (see above).
   */
  properties[PROP_TRANSCRIPT] =
    g_param_spec_object ("transcript", NULL, NULL, ACP_TYPE_TRANSCRIPT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PalSessionHistory:complete:
   *
   * Whether every entry is in the transcript.
   */
  properties[PROP_COMPLETE] =
    g_param_spec_boolean ("complete", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_session_history_init (PalSessionHistory *self)
{
  self->items = g_ptr_array_new ();
}

/* --- made on a thread --- */

/* What a thread builds: a transcript, not flushed on idle, and the item of
 * each entry of a range (the others NULL) */
typedef struct
{
  AcpTranscript *transcript;
  GPtrArray     *items;
} Built;

static Built *
built_new (guint    n_entries,
           gboolean keep_gaps)
{
  Built *built = g_new0 (Built, 1);

  built->transcript = acp_transcript_new ();
  acp_transcript_set_flush_on_idle (built->transcript, FALSE);
  if (keep_gaps)
    acp_transcript_keep_gaps (built->transcript);
  built->items = g_ptr_array_sized_new (n_entries);
  g_ptr_array_set_size (built->items, n_entries);

  return built;
}

static void
built_free (gpointer data)
{
  Built *built = data;

  g_clear_object (&built->transcript);
  g_clear_pointer (&built->items, g_ptr_array_unref);
  g_free (built);
}

/* What a thread is to build: entries @from to @to of @stored, onto @built */
typedef struct
{
  PalStoredTranscript *stored;
  PalSessionKey       *key;
  guint                from;
  guint                to;
  gboolean             last;   /* up to the end: the turns are over */
  Built               *built;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  pal_stored_transcript_unref (job->stored);
  pal_session_key_unref (job->key);
  g_clear_pointer (&job->built, built_free);
  g_free (job);
}

static Job *
job_new (PalStoredTranscript *stored,
         PalSessionKey       *key,
         guint                from,
         guint                to,
         Built               *built)
{
  Job *job = g_new0 (Job, 1);

  job->stored = pal_stored_transcript_ref (stored);
  job->key = pal_session_key_ref (key);
  job->from = from;
  job->to = to;
  job->last = to == pal_stored_transcript_get_n_entries (stored);
  job->built = built;

  return job;
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

/* Takes the entries of a job apart and applies them, on a thread of its
 * own: the transcript and its items are plain objects, no one watches them
 * yet and they are handed whole to the main thread. */
static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  PalStoredTranscript *stored = job->stored;
  const char *session_id = pal_session_key_get_session_id (job->key);
  AcpTranscript *transcript = job->built->transcript;
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();

  for (guint i = job->from; i < job->to; i++)
    {
      gsize length;
      const char *json = pal_stored_transcript_get_json (stored, i, &length);
      AcpItem *item = NULL;

      if (i % 4096 == 0 && g_task_return_error_if_cancelled (task))
        return;
      /* what a flush leaves is what a replay leaves: the transcript keeps
       * its messages still to announce in a list, which must stay short */
      if (i % 256 == 0)
        acp_transcript_flush (transcript);

      if (pal_stored_transcript_get_kind (stored, i) == PAL_TRANSCRIPT_KIND_PROMPT)
        {
          item = apply_prompt (transcript, doc, session_id, i, json, length);
        }
      else
        {
          g_autoptr(GError) error = NULL;
          AcpUpdate *update = acp_update_new_from_json (session_id, json, (gssize) length, &error);

          if (update != NULL)
            item = apply (transcript, update, NULL);
          else
            g_debug ("A stored update could not be read: %s", error->message);
        }
      g_ptr_array_index (job->built->items, i) = item;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  /* the turns are over: what did not finish never will (the earlier
   * entries of a history read from its end wait: the later ones may still
   * finish what they started) */
  if (job->last)
    acp_transcript_stop_tool_calls (transcript);
  acp_transcript_flush (transcript);

  g_task_return_pointer (task, g_steal_pointer (&job->built), built_free);
}

static void
build_async (gpointer             source_object,
             Job                 *job,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source_object, cancellable, callback, user_data);

  g_task_set_source_tag (task, build_async);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, build_thread);
}

static Built *
build_finish (GAsyncResult  *result,
              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The first entry of the end of @stored to build first (a user message
 * that does not continue one), or 0 to build it whole */
static guint
find_split (PalStoredTranscript *stored)
{
  guint n = pal_stored_transcript_get_n_entries (stored);

  if (n < SPLIT_MIN_ENTRIES)
    return 0;

  for (guint i = n - TAIL_ENTRIES; i > n / 2; i--)
    {
      PalTranscriptKind kind = pal_stored_transcript_get_kind (stored, i);
      PalTranscriptKind before = pal_stored_transcript_get_kind (stored, i - 1);

      if ((kind == PAL_TRANSCRIPT_KIND_PROMPT || kind == PAL_TRANSCRIPT_KIND_USER_MESSAGE) &&
          before != PAL_TRANSCRIPT_KIND_PROMPT && before != PAL_TRANSCRIPT_KIND_USER_MESSAGE)
        return i;
    }

  return 0;
}

static void
set_complete (PalSessionHistory *self)
{
  self->complete = TRUE;
  g_clear_pointer (&self->stored, pal_stored_transcript_unref);
  g_clear_object (&self->cancellable);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPLETE]);
}

/* The whole history, built on after the end reached into the earlier
 * entries: it replaces the end */
static void
whole_built_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  PalSessionHistory *self = PAL_SESSION_HISTORY (object);
  g_autoptr(AcpTranscript) shown = NULL;
  Built *built;
  guint n;

  /* a build fails only when cancelled: the history is not shown any more */
  built = build_finish (result, NULL);
  if (built == NULL)
    return;

  /* what was added to the end shown since (a notice) stays */
  shown = g_steal_pointer (&self->transcript);
  n = g_list_model_get_n_items (G_LIST_MODEL (shown));
  for (guint i = self->tail_items; i < n; i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (G_LIST_MODEL (shown), i);

      acp_transcript_append (built->transcript, item);
    }
  acp_transcript_flush (built->transcript);
  acp_transcript_set_flush_on_idle (built->transcript, TRUE);

  self->transcript = g_steal_pointer (&built->transcript);
  g_ptr_array_unref (self->items);
  self->items = g_steal_pointer (&built->items);
  built_free (built);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSCRIPT]);
  set_complete (self);
}

/* The entries before the end: put in front of it */
static void
earlier_built_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  PalSessionHistory *self = PAL_SESSION_HISTORY (object);
  Built *built;

  /* a build fails only when cancelled: the history is not shown any more */
  built = build_finish (result, NULL);
  if (built == NULL)
    return;

  if (!acp_transcript_can_follow (self->transcript, built->transcript))
    {
      Job *job = job_new (self->stored, self->key, self->split,
                          pal_stored_transcript_get_n_entries (self->stored), built);

      g_debug ("The last turns of a history reach into the earlier ones: building it whole");
      build_async (self, job, self->cancellable, whole_built_cb, NULL);
      return;
    }

  acp_transcript_prepend (self->transcript, built->transcript);
  /* the earlier turns are over too */
  acp_transcript_stop_tool_calls (self->transcript);
  for (guint i = 0; i < self->split; i++)
    g_ptr_array_index (self->items, i) = g_ptr_array_index (built->items, i);
  built_free (built);

  set_complete (self);
}

static void
built_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(PalSessionHistory) self = NULL;
  GError *error = NULL;
  Built *built;

  built = build_finish (result, &error);
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
  self->key = pal_session_key_ref (job->key);
  self->transcript = g_steal_pointer (&built->transcript);
  g_ptr_array_unref (self->items);
  self->items = g_steal_pointer (&built->items);
  built_free (built);
  /* here on, what is appended (a notice) shows as in any transcript */
  acp_transcript_set_flush_on_idle (self->transcript, TRUE);

  self->split = job->from;
  if (self->split == 0)
    {
      self->complete = TRUE;
    }
  else
    {
      self->stored = pal_stored_transcript_ref (job->stored);
      self->tail_items = g_list_model_get_n_items (G_LIST_MODEL (self->transcript));
      g_set_object (&self->cancellable, g_task_get_cancellable (task));
      build_async (self, job_new (job->stored, job->key, 0, self->split,
                                  built_new (pal_stored_transcript_get_n_entries (job->stored), FALSE)),
                   self->cancellable, earlier_built_cb, NULL);
    }

  g_task_return_pointer (task, g_steal_pointer (&self), g_object_unref);
}

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionKey *key = g_object_get_data (G_OBJECT (task), "key");
  GCancellable *cancellable = g_task_get_cancellable (task);
  PalStoredTranscript *stored;
  GError *error = NULL;
  guint n, split = 0;
  Job *job;

  stored = pal_transcript_store_load_finish (PAL_TRANSCRIPT_STORE (object), result, &error);
  if (stored == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  n = pal_stored_transcript_get_n_entries (stored);
  if (GPOINTER_TO_UINT (g_task_get_task_data (task)) & PAL_SESSION_HISTORY_LOAD_END_FIRST)
    split = find_split (stored);
  job = job_new (stored, key, split, n, built_new (n, split > 0));
  pal_stored_transcript_unref (stored);

  build_async (NULL, job, cancellable, built_cb, g_steal_pointer (&task));
}

/**
 * pal_session_history_load_async:
 * @store: where the transcripts are kept
 * @key: the session
 * @flags: how to load it
 * @cancellable: (nullable): a #GCancellable; it cancels what is still to
 *   build of a history handed over first with its end
 * @callback: called with the history
 * @user_data: data for @callback
 *
 * Reads what @store keeps of @key and makes the items of it. A session
 * with nothing stored gives an empty history.
 */
void
pal_session_history_load_async (PalTranscriptStore         *store,
                                PalSessionKey              *key,
                                PalSessionHistoryLoadFlags  flags,
                                GCancellable               *cancellable,
                                GAsyncReadyCallback         callback,
                                gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (store));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_history_load_async);
  g_task_set_task_data (task, GUINT_TO_POINTER (flags), NULL);
  g_object_set_data_full (G_OBJECT (task), "key", pal_session_key_ref (key),
                          (GDestroyNotify) pal_session_key_unref);

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

gboolean
pal_session_history_is_complete (PalSessionHistory *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_HISTORY (self), FALSE);

  return self->complete;
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
