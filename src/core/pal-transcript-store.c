/* pal-transcript-store.c: every session's transcript, kept on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-transcript-db-private.h"
#include "pal-transcript-store-private.h"
#include "pal-transcript-store.h"

#define DEFAULT_BUSY_TIMEOUT_MS 5000

/**
 * PalTranscriptStore:
 *
 * The transcripts of the sessions, kept in an SQLite database (by default
 * `transcripts.db` in the application's folder of the user data
 * directory): every `session/update` the application receives and every
 * prompt it sends, per #PalSessionKey, in order, each with its JSON text as
 * it came, so that it can be replayed exactly; and the text of the
 * messages, indexed for a search across every session.
 *
 * One worker thread of the store's own opens the database and does every
 * read and write; nothing here waits for it. Recording only queues the
 * entry (one allocation and an uncontended lock): the worker reads what it
 * is (its kind, its message or tool call, its searchable text) and writes
 * what was queued in one transaction at least every half second (or at
 * once when much is waiting), so a crash loses at most that much. On
 * Linux the worker runs at a lower priority, so that recording does not
 * take the cores the window needs; reads run on a second thread, at the
 * priority of the thread that made the store, while the worker waits. Reads (load,
 * search, size) and deletions are async and wait for what was recorded
 * before them. Disposing of the store writes what is still queued and
 * waits for the worker to end; pal_transcript_store_close_async() does the
 * same without waiting.
 *
 * A replay (`session/load`) is recorded between
 * pal_transcript_store_begin_replay() and
 * pal_transcript_store_end_replay_async(): its entries are kept aside, and
 * at the end they replace what was stored of that session, in one
 * transaction, unless they are the same (then nothing is written). A
 * replay that brings nothing replaces nothing, and
 * pal_transcript_store_abort_replay() drops one that did not complete.
 *
 * The store never stops the application: a file that is no database or is
 * damaged is moved aside (with its `-wal` and `-shm` files, named after
 * the time) and a new one is started; a database another program keeps
 * locked, or one that cannot be written, loses the entries that could not
 * be written. Each of these is reported once through
 * #PalTranscriptStore::problem, saying what was lost.
 */
struct _PalTranscriptStore
{
  GObject parent_instance;

  char *path;
  int busy_timeout_ms;
  guint search_count_limit;
  gboolean closing;

  PalTranscriptWorker *worker;
};

G_DEFINE_FINAL_TYPE (PalTranscriptStore, pal_transcript_store, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_BUSY_TIMEOUT,
  PROP_SEARCH_COUNT_LIMIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  PROBLEM,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* --- the object --- */

static void
pal_transcript_store_constructed (GObject *object)
{
  PalTranscriptStore *self = PAL_TRANSCRIPT_STORE (object);

  G_OBJECT_CLASS (pal_transcript_store_parent_class)->constructed (object);

  if (self->path == NULL)
    self->path = pal_transcript_store_dup_default_path ();

  self->worker = _pal_transcript_worker_new (self, self->path, self->busy_timeout_ms,
                                             self->search_count_limit);
}

static void
pal_transcript_store_dispose (GObject *object)
{
  PalTranscriptStore *self = PAL_TRANSCRIPT_STORE (object);

  /* what is queued is written first */
  g_clear_pointer (&self->worker, _pal_transcript_worker_free);

  G_OBJECT_CLASS (pal_transcript_store_parent_class)->dispose (object);
}

static void
pal_transcript_store_finalize (GObject *object)
{
  PalTranscriptStore *self = PAL_TRANSCRIPT_STORE (object);

  g_free (self->path);

  G_OBJECT_CLASS (pal_transcript_store_parent_class)->finalize (object);
}

static void
pal_transcript_store_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PalTranscriptStore *self = PAL_TRANSCRIPT_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_BUSY_TIMEOUT:
      g_value_set_int (value, self->busy_timeout_ms);
      break;
    case PROP_SEARCH_COUNT_LIMIT:
      g_value_set_uint (value, self->search_count_limit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_transcript_store_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PalTranscriptStore *self = PAL_TRANSCRIPT_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;
    case PROP_BUSY_TIMEOUT:
      self->busy_timeout_ms = g_value_get_int (value);
      break;
    case PROP_SEARCH_COUNT_LIMIT:
      self->search_count_limit = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_transcript_store_class_init (PalTranscriptStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = pal_transcript_store_constructed;
  object_class->dispose = pal_transcript_store_dispose;
  object_class->finalize = pal_transcript_store_finalize;
  object_class->get_property = pal_transcript_store_get_property;
  object_class->set_property = pal_transcript_store_set_property;

  /**
   * PalTranscriptStore:path:
   *
   * The database file; %NULL at construction for the default
   * (pal_transcript_store_dup_default_path()). Its folder is made when
   * missing.
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * PalTranscriptStore:busy-timeout:
   *
   * How long, in milliseconds, the worker waits for a database another
   * program has locked before it gives up (and tries again later).
   */
  properties[PROP_BUSY_TIMEOUT] =
    g_param_spec_int ("busy-timeout", NULL, NULL, 0, G_MAXINT, DEFAULT_BUSY_TIMEOUT_MS,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * PalTranscriptStore:search-count-limit:
   *
   * A search counts the matches of every session while they are at most
   * this many in all (and counting takes a few tens of milliseconds at
   * most); past that it asks the newest sessions one by one and counts up
   * to 1000 matches in each (pal_transcript_search_result_get_more_matches()).
   * The default suits a person's history; tests make it small.
   */
  properties[PROP_SEARCH_COUNT_LIMIT] =
    g_param_spec_uint ("search-count-limit", NULL, NULL, 1, G_MAXUINT,
                       PAL_TRANSCRIPT_DB_COUNT_ALL,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalTranscriptStore::problem:
   * @self: the store
   * @error: what happened, for a person to read: what was moved where,
   *   what was lost
   *
   * The database could not be opened or written, or it was damaged and
   * set aside for a new one. The store goes on either way. Emitted on the
   * main context of the thread that made the store.
   */
  signals[PROBLEM] =
    g_signal_new ("problem",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
pal_transcript_store_init (PalTranscriptStore *self)
{
  self->busy_timeout_ms = DEFAULT_BUSY_TIMEOUT_MS;
  self->search_count_limit = PAL_TRANSCRIPT_DB_COUNT_ALL;
}

void
_pal_transcript_store_emit_problem (PalTranscriptStore *self,
                                    const GError       *error)
{
  g_signal_emit (self, signals[PROBLEM], 0, error);
}

/**
 * pal_transcript_store_new:
 * @path: (nullable): the database file, or %NULL for the default
 *
 * Starts the store's worker, which opens the database (making it when
 * missing) when it is first needed.
 */
PalTranscriptStore *
pal_transcript_store_new (const char *path)
{
  return g_object_new (PAL_TYPE_TRANSCRIPT_STORE, "path", path, NULL);
}

char *
pal_transcript_store_dup_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), PACKAGE_NAME, "transcripts.db", NULL);
}

const char *
pal_transcript_store_get_path (PalTranscriptStore *self)
{
  g_return_val_if_fail (PAL_IS_TRANSCRIPT_STORE (self), NULL);

  return self->path;
}

/* --- recording --- */

/**
 * pal_transcript_store_record_update:
 * @key: the session
 * @json: the `update` object of a `session/update` as JSON text, as
 *   received (acp_update_dup_json())
 *
 * Records an update at the end of the session's transcript (or of the
 * replay under way). Only queues it: the worker reads its kind, the
 * message or tool call it belongs to and its searchable text (a chunk's
 * text, a tool call's title and output), and writes it soon. Text chunks
 * of one message in a row are kept as one entry.
 */
void
pal_transcript_store_record_update (PalTranscriptStore *self,
                                    PalSessionKey      *key,
                                    const char         *json)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (json != NULL);

  if (!self->closing)
    _pal_transcript_worker_record (self->worker, key, PAL_TRANSCRIPT_KIND_OTHER, json,
                                   strlen (json));
}

/**
 * pal_transcript_store_record_acp_update:
 * @key: the session
 * @update: an update as the agent sent it (#AcpAgent::update)
 *
 * Records @update as pal_transcript_store_record_update() records its
 * JSON text (acp_update_dup_json()), which the worker writes: the caller
 * pays a reference and an allocation, whatever the update.
 */
void
pal_transcript_store_record_acp_update (PalTranscriptStore *self,
                                        PalSessionKey      *key,
                                        AcpUpdate          *update)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (update != NULL);

  if (!self->closing)
    _pal_transcript_worker_record_update (self->worker, key, update);
}

/**
 * pal_transcript_store_record_prompt:
 * @key: the session
 * @blocks_json: the content blocks sent, a JSON array
 *
 * Records a prompt sent, as a %PAL_TRANSCRIPT_KIND_PROMPT entry; the text
 * of its text blocks is searched.
 */
void
pal_transcript_store_record_prompt (PalTranscriptStore *self,
                                    PalSessionKey      *key,
                                    const char         *blocks_json)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (blocks_json != NULL);

  if (!self->closing)
    _pal_transcript_worker_record (self->worker, key, PAL_TRANSCRIPT_KIND_PROMPT, blocks_json,
                                   strlen (blocks_json));
}

/* --- replays --- */

/**
 * pal_transcript_store_begin_replay:
 * @key: the session
 *
 * The updates recorded for @key from now on are a replay of its history
 * (`session/load`): kept aside until pal_transcript_store_end_replay_async()
 * or pal_transcript_store_abort_replay(). A replay already under way for
 * @key is dropped.
 */
void
pal_transcript_store_begin_replay (PalTranscriptStore *self,
                                   PalSessionKey      *key)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);

  if (!self->closing)
    _pal_transcript_worker_ask (self->worker, PAL_TRANSCRIPT_REQUEST_BEGIN_REPLAY, key, NULL);
}

/**
 * pal_transcript_store_abort_replay:
 * @key: the session
 *
 * Drops the replay under way for @key (it did not complete): what was
 * stored stays.
 */
void
pal_transcript_store_abort_replay (PalTranscriptStore *self,
                                   PalSessionKey      *key)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);

  if (!self->closing)
    _pal_transcript_worker_ask (self->worker, PAL_TRANSCRIPT_REQUEST_ABORT_REPLAY, key, NULL);
}

static GTask *
new_task (PalTranscriptStore  *self,
          gpointer             source_tag,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);

  return task;
}

/* Answers @task (transfer full) at once when the store is closing */
static gboolean
answer_if_closing (PalTranscriptStore *self,
                   GTask              *task)
{
  if (!self->closing)
    return FALSE;

  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                           _("The history database is closed"));
  g_object_unref (task);

  return TRUE;
}

/* Asks the worker for @request, with @task (transfer full) */
static void
ask (PalTranscriptStore   *self,
     PalTranscriptRequest  request,
     PalSessionKey        *key,
     GTask                *task)
{
  if (!answer_if_closing (self, task))
    _pal_transcript_worker_ask (self->worker, request, key, task);
}

/**
 * pal_transcript_store_end_replay_async:
 * @key: the session
 *
 * Ends the replay of @key: when its entries differ from those stored,
 * they replace them, in one transaction; when they are the same, or the
 * replay brought nothing, what was stored stays. Cancelling before the
 * worker gets to it drops the replay.
 */
void
pal_transcript_store_end_replay_async (PalTranscriptStore  *self,
                                       PalSessionKey       *key,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  ask (self, PAL_TRANSCRIPT_REQUEST_END_REPLAY, key,
       new_task (self, pal_transcript_store_end_replay_async, cancellable,
                 callback, user_data));
}

/**
 * pal_transcript_store_end_replay_finish:
 * @replaced: (out) (optional): whether the replay replaced the stored
 *   transcript
 */
gboolean
pal_transcript_store_end_replay_finish (PalTranscriptStore  *self,
                                        GAsyncResult        *result,
                                        gboolean            *replaced,
                                        GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  gboolean value;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_end_replay_async, FALSE);

  value = g_task_propagate_boolean (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (replaced != NULL)
    *replaced = value;

  return TRUE;
}

/* --- waiting for the writes --- */

/**
 * pal_transcript_store_flush_async:
 *
 * Writes what was recorded so far, and answers when it is written (or
 * could not be: with the error).
 */
void
pal_transcript_store_flush_async (PalTranscriptStore  *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  ask (self, PAL_TRANSCRIPT_REQUEST_FLUSH, NULL,
       new_task (self, pal_transcript_store_flush_async, cancellable,
                 callback, user_data));
}

gboolean
pal_transcript_store_flush_finish (PalTranscriptStore  *self,
                                   GAsyncResult        *result,
                                   GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_flush_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * pal_transcript_store_close_async:
 *
 * Writes what was recorded and closes the database; what is recorded
 * afterwards is dropped, and reads fail with %G_IO_ERROR_CLOSED. The
 * database is closed even when @cancellable is cancelled.
 */
void
pal_transcript_store_close_async (PalTranscriptStore  *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = new_task (self, pal_transcript_store_close_async, cancellable, callback, user_data);
  ask (self, PAL_TRANSCRIPT_REQUEST_CLOSE, NULL, task);
  self->closing = TRUE;
}

gboolean
pal_transcript_store_close_finish (PalTranscriptStore  *self,
                                   GAsyncResult        *result,
                                   GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_close_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- reading --- */

/**
 * pal_transcript_store_load_async:
 * @key: the session
 *
 * Reads every entry stored for @key, in order (after what was recorded
 * before this call is written). A session with nothing stored gives an
 * empty transcript.
 */
void
pal_transcript_store_load_async (PalTranscriptStore  *self,
                                 PalSessionKey       *key,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  ask (self, PAL_TRANSCRIPT_REQUEST_LOAD, key,
       new_task (self, pal_transcript_store_load_async, cancellable,
                 callback, user_data));
}

/**
 * pal_transcript_store_load_finish:
 *
 * Returns: (transfer full): the entries, or %NULL with @error set
 */
PalStoredTranscript *
pal_transcript_store_load_finish (PalTranscriptStore  *self,
                                  GAsyncResult        *result,
                                  GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * pal_transcript_store_search_async:
 * @text: what the person typed (pal_transcript_search_build_query() says
 *   how it is read); nothing to look for finds nothing
 * @flags: what else to search
 * @max_sessions: how many sessions to give at most
 *
 * Searches the text of every stored session: prompts, messages, tool call
 * titles and output, and with %PAL_TRANSCRIPT_SEARCH_THOUGHTS the agent's
 * thoughts. The sessions found come newest first (by their last recorded
 * entry), each with its newest matches and a snippet of each.
 */
void
pal_transcript_store_search_async (PalTranscriptStore       *self,
                                   const char               *text,
                                   PalTranscriptSearchFlags  flags,
                                   guint                     max_sessions,
                                   GCancellable             *cancellable,
                                   GAsyncReadyCallback       callback,
                                   gpointer                  user_data)
{
  GTask *task;

  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = new_task (self, pal_transcript_store_search_async, cancellable, callback, user_data);
  if (!answer_if_closing (self, task))
    _pal_transcript_worker_search (self->worker, pal_transcript_search_build_query (text), flags,
                                   max_sessions, task);
}

/**
 * pal_transcript_store_search_finish:
 *
 * Returns: (transfer full): a #GListModel of #PalTranscriptSearchResult,
 *   or %NULL with @error set
 */
GListModel *
pal_transcript_store_search_finish (PalTranscriptStore  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_search_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * pal_transcript_store_get_size_async:
 *
 * How much space the database takes on disk (its file and its write-ahead
 * log), once what was recorded before is written.
 */
void
pal_transcript_store_get_size_async (PalTranscriptStore  *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  ask (self, PAL_TRANSCRIPT_REQUEST_SIZE, NULL,
       new_task (self, pal_transcript_store_get_size_async, cancellable,
                 callback, user_data));
}

/**
 * pal_transcript_store_get_size_finish:
 * @size: (out): in bytes
 */
gboolean
pal_transcript_store_get_size_finish (PalTranscriptStore  *self,
                                      GAsyncResult        *result,
                                      guint64             *size,
                                      GError             **error)
{
  g_autofree guint64 *value = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_get_size_async, FALSE);
  g_return_val_if_fail (size != NULL, FALSE);

  value = g_task_propagate_pointer (G_TASK (result), error);
  if (value == NULL)
    return FALSE;
  *size = *value;

  return TRUE;
}

/* --- deleting --- */

/**
 * pal_transcript_store_delete_async:
 * @key: the session
 *
 * Deletes everything stored of @key, and gives the space back.
 */
void
pal_transcript_store_delete_async (PalTranscriptStore  *self,
                                   PalSessionKey       *key,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  ask (self, PAL_TRANSCRIPT_REQUEST_DELETE, key,
       new_task (self, pal_transcript_store_delete_async, cancellable,
                 callback, user_data));
}

gboolean
pal_transcript_store_delete_finish (PalTranscriptStore  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_delete_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * pal_transcript_store_delete_all_async:
 *
 * Deletes every stored transcript, and gives the space back.
 */
void
pal_transcript_store_delete_all_async (PalTranscriptStore  *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  ask (self, PAL_TRANSCRIPT_REQUEST_DELETE_ALL, NULL,
       new_task (self, pal_transcript_store_delete_all_async, cancellable,
                 callback, user_data));
}

gboolean
pal_transcript_store_delete_all_finish (PalTranscriptStore  *self,
                                        GAsyncResult        *result,
                                        GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_transcript_store_delete_all_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
