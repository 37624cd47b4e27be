/* pal-transcript-store-worker.c: the thread of a transcript store that
 * does all its reading and writing
 *
 * The store's calls become commands, queued in order; the worker batches
 * the entries recorded into transactions, keeps replays aside until they
 * end, answers each task on its own context and reports problems on the
 * store's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#ifdef __linux__
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "pal-error.h"
#include "pal-transcript-db-private.h"
#include "pal-transcript-store-private.h"

/* How long a recorded entry may wait in memory before it is written: a
 * crash loses at most this much of a turn */
#define FLUSH_INTERVAL_US (500 * G_TIME_SPAN_MILLISECOND)
/* Written at once when this many are waiting */
#define MAX_PENDING 10000
/* A database locked by another program: this many tries before the waiting
 * entries are given up */
#define MAX_LOCKED_TRIES 3
/* The worker's nice value, on Linux: see lower_priority () */
#define WORKER_NICE 10

/* --- what the worker is asked --- */

typedef enum
{
  COMMAND_UPDATE,
  COMMAND_BEGIN_REPLAY,
  COMMAND_ABORT_REPLAY,
  COMMAND_END_REPLAY,
  COMMAND_FLUSH,
  COMMAND_LOAD,
  COMMAND_SEARCH,
  COMMAND_SIZE,
  COMMAND_DELETE,
  COMMAND_DELETE_ALL,
  COMMAND_CLOSE,
  COMMAND_QUIT,
} CommandType;

typedef struct
{
  CommandType type;
  PalSessionKey *key;
  PalTranscriptKind kind;
  gint64 time;
  /* an entry's JSON text, as recorded, follows the command in the same
   * allocation; or the update it is written from, on the worker */
  gboolean packed;
  char *json;
  AcpUpdate *update;
  /* what the worker reads of an entry (read_entry()) */
  char *item;
  char *text;  /* the searchable text; for a search, the FTS5 query */
  gboolean plain_chunk;
  /* the text of plain chunks of one message joined to this one, and the
   * JSON written for them */
  GString *joined;
  char *joined_json;
  PalTranscriptSearchFlags flags;
  guint max_sessions;
  GTask *task;  /* only ever referenced and returned on its own context */
} Command;

static void
command_free (gpointer data)
{
  Command *command = data;

  g_clear_pointer (&command->key, pal_session_key_unref);
  if (!command->packed)
    g_free (command->json);
  g_clear_pointer (&command->update, acp_update_unref);
  g_free (command->item);
  g_free (command->text);
  if (command->joined != NULL)
    g_string_free (command->joined, TRUE);
  g_free (command->joined_json);
  /* a task is handed back with reply(), never dropped here */
  g_assert (command->task == NULL);
  g_free (command);
}

/* The store as the worker's reports see it: NULL once it is disposed. Only
 * read and written on the store's main context. */
typedef struct
{
  PalTranscriptStore *store;
} Owner;

struct _PalTranscriptWorker
{
  char *path;
  int busy_timeout_ms;
  guint search_count_limit;
  GMainContext *context;
  Owner *owner;

  /* Every command, in order, goes through the outbox; the queue only
   * wakes the worker when the outbox gets its first one, so that recording
   * a flood of updates costs a lock, not a wake-up each. */
  GMutex lock;
  GPtrArray *outbox;  /* Command */
  GAsyncQueue *wake;

  /* the worker thread's alone */
  AcpJsonDoc *doc;
  PalTranscriptDb *db;
  gboolean closed;
  gboolean open_failure_reported;
  GPtrArray *pending;  /* Command */
  gint64 deadline;
  guint locked_tries;
  GHashTable *replays;  /* PalSessionKey → GPtrArray of Command */

  GThread *thread;
  /* reads are run there, at the priority of the thread that made the
   * store, while the worker waits: see lower_priority () */
  GThread *reader;
  GAsyncQueue *reads;      /* Command, or the queue itself to end */
  GAsyncQueue *reads_done; /* one item per read run */
};

typedef struct _PalTranscriptWorker Worker;

static void
worker_free (Worker *worker)
{
  g_free (worker->path);
  g_mutex_clear (&worker->lock);
  g_ptr_array_unref (worker->outbox);
  g_async_queue_unref (worker->wake);
  g_main_context_unref (worker->context);
  g_atomic_rc_box_release (worker->owner);
  g_ptr_array_unref (worker->pending);
  g_hash_table_unref (worker->replays);
  g_clear_pointer (&worker->doc, acp_json_doc_free);
  g_async_queue_unref (worker->reads);
  g_async_queue_unref (worker->reads_done);
  g_free (worker);
}

/* --- answers, on the caller's context --- */

typedef struct
{
  GTask *task;
  GError *error;
  gpointer value;
  GDestroyNotify value_free;
  gboolean boolean;
} Reply;

static gboolean
reply_cb (gpointer data)
{
  Reply *reply = data;

  if (reply->error != NULL)
    g_task_return_error (reply->task, reply->error);
  else if (reply->value_free != NULL)
    g_task_return_pointer (reply->task, reply->value, reply->value_free);
  else
    g_task_return_boolean (reply->task, reply->boolean);

  g_object_unref (reply->task);
  g_free (reply);

  return G_SOURCE_REMOVE;
}

/* Answers the task of @command on its own context, with @error when set,
 * else @value when it has @value_free, else @boolean; takes them. The task
 * is referenced and returned there alone: its last reference never falls
 * to the worker, which must not dispose of the store. */
static void
reply (Command        *command,
       GError         *error,
       gpointer        value,
       GDestroyNotify  value_free,
       gboolean        boolean)
{
  Reply *data = g_new0 (Reply, 1);
  g_autoptr(GSource) source = g_idle_source_new ();

  data->task = g_steal_pointer (&command->task);
  data->error = error;
  data->value = value;
  data->value_free = value_free;
  data->boolean = boolean;

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, reply_cb, data, NULL);
  g_source_set_static_name (source, "[palaver] transcript store reply");
  g_source_attach (source, g_task_get_context (data->task));
}

static void
reply_error (Command *command,
             GError  *error)
{
  reply (command, error, NULL, NULL, FALSE);
}

/* Answers a cancelled task, and says whether it was */
static gboolean
reply_if_cancelled (Command *command)
{
  GCancellable *cancellable = g_task_get_cancellable (command->task);
  GError *error = NULL;

  if (!g_cancellable_set_error_if_cancelled (cancellable, &error))
    return FALSE;

  reply_error (command, error);

  return TRUE;
}

/* --- problems, on the store's context --- */

typedef struct
{
  Owner *owner;
  GError *error;
} Report;

static gboolean
report_cb (gpointer data)
{
  Report *report = data;
  PalTranscriptStore *store = report->owner->store;

  if (store != NULL)
    {
      g_autoptr(PalTranscriptStore) hold = g_object_ref (store);

      _pal_transcript_store_emit_problem (hold, report->error);
    }

  g_error_free (report->error);
  g_atomic_rc_box_release (report->owner);
  g_free (report);

  return G_SOURCE_REMOVE;
}

static void
report (Worker *worker,
        GError *error)
{
  Report *data = g_new0 (Report, 1);

  data->owner = g_atomic_rc_box_acquire (worker->owner);
  data->error = error;
  g_main_context_invoke (worker->context, report_cb, data);
}

/* "… N updates were not saved.", or nothing */
static char *
describe_lost (guint n_lost)
{
  if (n_lost == 0)
    return g_strdup ("");

  /* TRANSLATORS: a sentence added at the end of another (the leading space
   * separates them) */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       " %u recorded update was not saved.",
                                       " %u recorded updates were not saved.",
                                       n_lost),
                          n_lost);
}

static void
report_lost (Worker       *worker,
             const GError *cause,
             guint         n_lost)
{
  g_autofree char *lost = describe_lost (n_lost);

  if (g_error_matches (cause, PAL_ERROR, PAL_ERROR_LOCKED))
    /* TRANSLATORS: %s is a file; the last %s is a sentence that says how
     * many updates were lost, or nothing */
    report (worker, g_error_new (PAL_ERROR, PAL_ERROR_LOCKED,
                                 _("The history database “%s” is in use by another "
                                   "program.%s"),
                                 worker->path, lost));
  else
    /* TRANSLATORS: a file, the reason, and a sentence that says how many
     * updates were lost, or nothing */
    report (worker, g_error_new (cause->domain, cause->code,
                                 _("Could not save to the history database “%s”: %s.%s"),
                                 worker->path, cause->message, lost));
}

/* The database at worker->path is damaged: it goes aside, a new one will
 * be started. */
static void
set_aside (Worker       *worker,
           const GError *cause,
           guint         n_lost)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *lost = describe_lost (n_lost);
  g_autofree char *moved = NULL;

  g_clear_pointer (&worker->db, _pal_transcript_db_close);
  moved = _pal_transcript_db_move_aside (worker->path, &error);
  if (moved == NULL)
    {
      /* TRANSLATORS: a file, what is wrong with it, why it could not be
       * moved, and a sentence that says how many updates were lost, or
       * nothing */
      report (worker, g_error_new (PAL_ERROR, PAL_ERROR_DAMAGED,
                                   _("The history database “%s” is damaged (%s) and could "
                                     "not be moved aside: %s.%s"),
                                   worker->path, cause->message, error->message, lost));
      return;
    }

  /* TRANSLATORS: a file, what is wrong with it, where it was moved, and a
   * sentence that says how many updates were lost, or nothing */
  report (worker, g_error_new (PAL_ERROR, PAL_ERROR_DAMAGED,
                               _("The history database “%s” is damaged (%s). It was moved to "
                                 "“%s” and a new one was started: the history it holds is "
                                 "no longer shown.%s"),
                               worker->path, cause->message, moved, lost));
}

/* --- the worker --- */

static gboolean
ensure_db (Worker  *worker,
           GError **error)
{
  g_autoptr(GError) local_error = NULL;

  if (worker->db != NULL)
    return TRUE;

  if (worker->closed)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED,
                           _("The history database is closed"));
      return FALSE;
    }

  worker->db = _pal_transcript_db_open (worker->path, worker->busy_timeout_ms, &local_error);
  if (worker->db == NULL && g_error_matches (local_error, PAL_ERROR, PAL_ERROR_DAMAGED))
    {
      set_aside (worker, local_error, 0);
      g_clear_error (&local_error);
      worker->db = _pal_transcript_db_open (worker->path, worker->busy_timeout_ms,
                                            &local_error);
    }

  if (worker->db == NULL)
    {
      if (!worker->open_failure_reported)
        {
          /* TRANSLATORS: a file, then the reason */
          report (worker, g_error_new (local_error->domain, local_error->code,
                                       _("Could not open the history database “%s”: %s. "
                                         "Sessions are not recorded."),
                                       worker->path, local_error->message));
          worker->open_failure_reported = TRUE;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  worker->open_failure_reported = FALSE;
  worker->db->count_all = worker->search_count_limit;

  return TRUE;
}

/* After a failed write of @n_lost entries: reported, and a damaged
 * database set aside */
static void
write_failed (Worker       *worker,
              const GError *error,
              guint         n_lost)
{
  if (worker->db != NULL)
    _pal_transcript_db_rollback (worker->db);

  if (g_error_matches (error, PAL_ERROR, PAL_ERROR_DAMAGED))
    set_aside (worker, error, n_lost);
  else
    report_lost (worker, error, n_lost);
}

/* --- entries --- */

/* The JSON text of an entry recorded as an AcpUpdate, which goes */
static void
take_json (Command *command)
{
  if (command->update == NULL)
    return;

  command->json = acp_update_dup_json (command->update);
  g_clear_pointer (&command->update, acp_update_unref);
}

/* Reads what the store keeps of an entry besides its text. An entry that
 * is not UTF-8 is not read: it is not recorded. */
static gboolean
read_entry (Worker  *worker,
            Command *command)
{
  PalTranscriptEntry entry;
  gsize length;

  take_json (command);
  length = strlen (command->json);

  if (!g_utf8_validate (command->json, (gssize) length, NULL))
    {
      g_debug ("An update that is not UTF-8 is not recorded");
      return FALSE;
    }

  if (worker->doc == NULL)
    worker->doc = acp_json_doc_new ();
  pal_transcript_entry_read (&entry, worker->doc, command->kind, command->json, length);
  command->kind = entry.kind;
  command->item = g_steal_pointer (&entry.item);
  command->text = g_steal_pointer (&entry.text);
  command->plain_chunk = entry.plain_chunk;

  return TRUE;
}

/* Whether @next is a text chunk of the message @last is a text chunk of */
static gboolean
continues (Command *last,
           Command *next)
{
  return last->plain_chunk && next->plain_chunk && last->kind == next->kind &&
         g_strcmp0 (last->item, next->item) == 0 &&
         pal_session_key_equal (last->key, next->key);
}

/* Adds @command (taken) at the end of @entries. The text chunks of one
 * message in a row are kept as one, as the reading thread joins those that
 * come together: an entry does not depend on how the agent's output was cut
 * into reads, so that the same replay gives the same entries. */
static void
add_entry (GPtrArray *entries,
           Command   *command)
{
  Command *last = entries->len > 0 ? g_ptr_array_index (entries, entries->len - 1) : NULL;

  if (last == NULL || !continues (last, command))
    {
      g_ptr_array_add (entries, command);
      return;
    }

  if (last->joined == NULL)
    last->joined = g_string_new (last->text);
  if (command->text != NULL)
    g_string_append (last->joined, command->text);
  g_clear_pointer (&last->joined_json, g_free);
  command_free (command);
}

/* The JSON text to store of @command */
static const char *
entry_json (Command *command)
{
  if (command->joined == NULL)
    return command->json;

  if (command->joined_json == NULL)
    {
      GString *json = g_string_sized_new (command->joined->len + 96);

      pal_transcript_chunk_write (json, command->kind, command->item, command->joined->str,
                                  command->joined->len);
      command->joined_json = g_string_free (json, FALSE);
    }

  return command->joined_json;
}

static const char *
entry_text (Command *command)
{
  if (command->joined == NULL)
    return command->text;

  return command->joined->len > 0 ? command->joined->str : NULL;
}

static gboolean
append_all (Worker     *worker,
            GPtrArray  *commands,
            GError    **error)
{
  for (guint i = 0; i < commands->len; i++)
    {
      Command *command = g_ptr_array_index (commands, i);

      if (!_pal_transcript_db_append (worker->db, command->key, command->kind, command->item,
                                      command->time, entry_json (command), entry_text (command),
                                      error))
        return FALSE;
    }

  return TRUE;
}

/* Writes what is waiting, in one transaction */
static gboolean
flush_pending (Worker  *worker,
               GError **error)
{
  g_autoptr(GError) local_error = NULL;
  guint n_lost = worker->pending->len;

  if (n_lost == 0)
    return TRUE;

  if (!ensure_db (worker, &local_error))
    {
      /* reported when opening failed */
      g_ptr_array_set_size (worker->pending, 0);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (_pal_transcript_db_begin (worker->db, &local_error) &&
      append_all (worker, worker->pending, &local_error) &&
      _pal_transcript_db_commit (worker->db, &local_error))
    {
      g_ptr_array_set_size (worker->pending, 0);
      worker->locked_tries = 0;
      return TRUE;
    }

  if (g_error_matches (local_error, PAL_ERROR, PAL_ERROR_LOCKED) &&
      ++worker->locked_tries < MAX_LOCKED_TRIES)
    {
      /* kept for another try */
      _pal_transcript_db_rollback (worker->db);
      worker->deadline = g_get_monotonic_time () + FLUSH_INTERVAL_US;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  worker->locked_tries = 0;
  g_ptr_array_set_size (worker->pending, 0);
  write_failed (worker, local_error, n_lost);
  g_propagate_error (error, g_steal_pointer (&local_error));

  return FALSE;
}

static void
replay_get_entry (gpointer           data,
                  guint              index,
                  PalTranscriptKind *kind,
                  const char       **json)
{
  Command *command = g_ptr_array_index ((GPtrArray *) data, index);

  *kind = command->kind;
  *json = entry_json (command);
}

/* Whether the replay replaced the stored transcript */
static gboolean
replace_with_replay (Worker     *worker,
                     Command    *command,
                     GPtrArray  *replay,
                     GError    **error)
{
  gboolean equal;

  g_assert (error != NULL && *error == NULL);

  if (replay == NULL || replay->len == 0)
    return FALSE;

  if (!ensure_db (worker, error))
    return FALSE;

  if (!_pal_transcript_db_equals (worker->db, command->key, replay->len, replay_get_entry,
                                  replay, &equal, error))
    {
      write_failed (worker, *error, replay->len);
      return FALSE;
    }
  if (equal)
    return FALSE;

  if (_pal_transcript_db_begin (worker->db, error) &&
      _pal_transcript_db_clear (worker->db, command->key, FALSE, error) &&
      append_all (worker, replay, error) &&
      _pal_transcript_db_commit (worker->db, error))
    return TRUE;

  write_failed (worker, *error, replay->len);

  return FALSE;
}

/* The entries of a replay, read once it is over (@raw: taken, its
 * commands kept as they came) */
static GPtrArray *
read_replay (Worker    *worker,
             GPtrArray *raw)
{
  GPtrArray *entries;

  if (raw == NULL)
    return NULL;

  entries = g_ptr_array_new_full (raw->len, command_free);
  g_ptr_array_set_free_func (raw, NULL);
  for (guint i = 0; i < raw->len; i++)
    {
      Command *command = g_ptr_array_index (raw, i);

      if (read_entry (worker, command))
        add_entry (entries, command);
      else
        command_free (command);
    }
  g_ptr_array_unref (raw);

  return entries;
}

static void
end_replay (Worker  *worker,
            Command *command)
{
  g_autoptr(PalSessionKey) key = NULL;
  g_autoptr(GPtrArray) replay = NULL;
  GError *error = NULL;
  gboolean replaced;

  g_hash_table_steal_extended (worker->replays, command->key,
                               (gpointer *) &key, (gpointer *) &replay);
  if (reply_if_cancelled (command))
    return;

  flush_pending (worker, NULL);
  replay = read_replay (worker, g_steal_pointer (&replay));
  replaced = replace_with_replay (worker, command, replay, &error);
  if (error != NULL)
    reply_error (command, error);
  else
    reply (command, NULL, NULL, NULL, replaced);
}

static void
run_delete (Worker  *worker,
            Command *command)
{
  GError *error = NULL;
  gboolean done;

  if (!ensure_db (worker, &error))
    {
      reply_error (command, error);
      return;
    }

  done = _pal_transcript_db_begin (worker->db, &error);
  if (done && command->type == COMMAND_DELETE)
    done = _pal_transcript_db_clear (worker->db, command->key, TRUE, &error);
  else if (done)
    done = _pal_transcript_db_clear_all (worker->db, &error);
  done = done && _pal_transcript_db_commit (worker->db, &error);

  if (!done)
    {
      write_failed (worker, error, 0);
      reply_error (command, error);
      return;
    }

  /* the space is given back; failing that is no failure of the deletion */
  if (!_pal_transcript_db_shrink (worker->db, &error))
    {
      g_debug ("Could not shrink the history database: %s", error->message);
      g_clear_error (&error);
    }

  reply (command, NULL, NULL, NULL, TRUE);
}

static guint64
file_size (const char *path)
{
  GStatBuf buf;

  if (g_stat (path, &buf) != 0)
    return 0;

  return (guint64) buf.st_size;
}

static void
run_read (Worker  *worker,
          Command *command)
{
  GCancellable *cancellable = g_task_get_cancellable (command->task);
  GError *error = NULL;
  gpointer value = NULL;
  GDestroyNotify value_free = NULL;

  if (command->type == COMMAND_SIZE)
    {
      g_autofree char *wal = g_strconcat (worker->path, "-wal", NULL);
      guint64 *size = g_new (guint64, 1);

      *size = file_size (worker->path) + file_size (wal);
      reply (command, NULL, size, g_free, FALSE);
      return;
    }

  if (command->type == COMMAND_SEARCH && command->text == NULL)
    {
      /* nothing to look for */
      reply (command, NULL, g_list_store_new (PAL_TYPE_TRANSCRIPT_SEARCH_RESULT),
             g_object_unref, FALSE);
      return;
    }

  if (!ensure_db (worker, &error))
    {
      reply_error (command, error);
      return;
    }

  if (command->type == COMMAND_LOAD)
    {
      value = _pal_transcript_db_load (worker->db, command->key, cancellable, &error);
      value_free = (GDestroyNotify) pal_stored_transcript_unref;
    }
  else
    {
      value = _pal_transcript_db_search (worker->db, command->text, command->flags,
                                         command->max_sessions, cancellable, &error);
      value_free = g_object_unref;
    }

  if (value == NULL)
    {
      if (g_error_matches (error, PAL_ERROR, PAL_ERROR_DAMAGED))
        set_aside (worker, error, 0);
      reply_error (command, error);
      return;
    }

  reply (command, NULL, value, value_free, FALSE);
}

/* --- reads, at a normal priority --- */

/* Runs @command's read on the reader thread, and waits for it: the
 * database is the worker's, which does nothing meanwhile */
static void
read_on_reader (Worker  *worker,
                Command *command)
{
  g_async_queue_push (worker->reads, command);
  g_async_queue_pop (worker->reads_done);
}

static gpointer
reader_thread (gpointer data)
{
  Worker *worker = data;
  gpointer job;

  while ((job = g_async_queue_pop (worker->reads)) != worker->reads)
    {
      run_read (worker, job);
      g_async_queue_push (worker->reads_done, GINT_TO_POINTER (1));
    }

  return NULL;
}

/* Writing can wait: on a machine with few cores, the window and the
 * connections' reading threads come first, and a replay of a hundred
 * thousand updates does not take half again as long for being recorded.
 * Linux gives each thread a nice value of its own; a person waiting for a
 * read (a history shown, a search) does not wait behind other programs:
 * reads run on a thread of the store's maker's priority. Elsewhere the
 * worker runs as the others do. */
static void
lower_priority (void)
{
#ifdef __linux__
  if (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), WORKER_NICE) != 0)
    g_debug ("The transcript store's thread keeps its priority: %s", g_strerror (errno));
#endif
}

static void
close_db (Worker *worker)
{
  g_hash_table_remove_all (worker->replays);
  g_clear_pointer (&worker->db, _pal_transcript_db_close);
  worker->closed = TRUE;
}

/* Returns: whether the worker goes on */
static gboolean
handle (Worker  *worker,
        Command *command)
{
  GPtrArray *replay;

  switch (command->type)
    {
    case COMMAND_UPDATE:
      if (worker->closed)
        break;
      /* a replay (a flood, while the connection and the window are busy
       * with it) is only kept; it is read when it ends */
      replay = g_hash_table_lookup (worker->replays, command->key);
      if (replay != NULL)
        {
          take_json (command);
          g_ptr_array_add (replay, command);
          return TRUE;
        }
      if (!read_entry (worker, command))
        break;
      if (worker->pending->len == 0)
        worker->deadline = g_get_monotonic_time () + FLUSH_INTERVAL_US;
      add_entry (worker->pending, command);
      if (worker->pending->len >= MAX_PENDING)
        flush_pending (worker, NULL);
      return TRUE;

    case COMMAND_BEGIN_REPLAY:
      if (!worker->closed)
        g_hash_table_replace (worker->replays, pal_session_key_ref (command->key),
                              g_ptr_array_new_with_free_func (command_free));
      break;

    case COMMAND_ABORT_REPLAY:
      g_hash_table_remove (worker->replays, command->key);
      break;

    case COMMAND_END_REPLAY:
      end_replay (worker, command);
      break;

    case COMMAND_FLUSH:
      if (!reply_if_cancelled (command))
        {
          GError *error = NULL;

          if (flush_pending (worker, &error))
            reply (command, NULL, NULL, NULL, TRUE);
          else
            reply_error (command, error);
        }
      break;

    case COMMAND_LOAD:
    case COMMAND_SEARCH:
    case COMMAND_SIZE:
      if (!reply_if_cancelled (command))
        {
          flush_pending (worker, NULL);
          read_on_reader (worker, command);
        }
      break;

    case COMMAND_DELETE:
    case COMMAND_DELETE_ALL:
      if (!reply_if_cancelled (command))
        {
          flush_pending (worker, NULL);
          run_delete (worker, command);
        }
      break;

    case COMMAND_CLOSE:
      flush_pending (worker, NULL);
      close_db (worker);
      reply (command, NULL, NULL, NULL, TRUE);
      break;

    case COMMAND_QUIT:
      flush_pending (worker, NULL);
      close_db (worker);
      command_free (command);
      return FALSE;

    default:
      g_assert_not_reached ();
    }

  command_free (command);

  return TRUE;
}

/* Waits until there are commands or the pending entries are due */
static GPtrArray *
wait_for_commands (Worker *worker)
{
  GPtrArray *commands = NULL;

  for (;;)
    {
      g_mutex_lock (&worker->lock);
      if (worker->outbox->len > 0)
        {
          commands = g_steal_pointer (&worker->outbox);
          worker->outbox = g_ptr_array_new ();
        }
      g_mutex_unlock (&worker->lock);
      if (commands != NULL)
        return commands;

      if (worker->pending->len > 0)
        {
          gint64 wait = worker->deadline - g_get_monotonic_time ();

          if (wait <= 0 || g_async_queue_timeout_pop (worker->wake, (guint64) wait) == NULL)
            flush_pending (worker, NULL);
        }
      else
        {
          g_async_queue_pop (worker->wake);
        }
    }
}

static gpointer
worker_thread (gpointer data)
{
  Worker *worker = data;
  gboolean going_on = TRUE;

  lower_priority ();

  while (going_on)
    {
      g_autoptr(GPtrArray) commands = wait_for_commands (worker);

      for (guint i = 0; i < commands->len; i++)
        {
          Command *command = g_ptr_array_index (commands, i);

          /* nothing comes after the last command */
          g_assert (going_on);
          going_on = handle (worker, command);
          if (going_on && worker->pending->len > 0 &&
              g_get_monotonic_time () >= worker->deadline)
            flush_pending (worker, NULL);
        }
    }

  return NULL;
}

/* --- what the store calls --- */

static void
send (Worker  *worker,
      Command *command)
{
  gboolean first;

  g_mutex_lock (&worker->lock);
  first = worker->outbox->len == 0;
  g_ptr_array_add (worker->outbox, command);
  g_mutex_unlock (&worker->lock);

  if (first)
    g_async_queue_push (worker->wake, GINT_TO_POINTER (1));
}

static Command *
command_new (CommandType    type,
             PalSessionKey *key,
             GTask         *task)
{
  Command *command = g_new0 (Command, 1);

  command->type = type;
  command->key = key != NULL ? pal_session_key_ref (key) : NULL;
  command->task = task;

  return command;
}

/* Starts the worker of @store: it opens the database at @path when it
 * first needs it, and reports problems to @store on the main context of
 * this thread */
PalTranscriptWorker *
_pal_transcript_worker_new (PalTranscriptStore *store,
                            const char         *path,
                            int                 busy_timeout_ms,
                            guint               search_count_limit)
{
  Worker *worker = g_new0 (Worker, 1);

  worker->path = g_strdup (path);
  worker->busy_timeout_ms = busy_timeout_ms;
  worker->search_count_limit = search_count_limit;
  g_mutex_init (&worker->lock);
  worker->outbox = g_ptr_array_new ();
  worker->wake = g_async_queue_new ();
  worker->context = g_main_context_ref_thread_default ();
  worker->owner = g_atomic_rc_box_new0 (Owner);
  worker->owner->store = store;
  worker->pending = g_ptr_array_new_with_free_func (command_free);
  worker->replays = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                           (GDestroyNotify) pal_session_key_unref,
                                           (GDestroyNotify) g_ptr_array_unref);
  worker->reads = g_async_queue_new ();
  worker->reads_done = g_async_queue_new ();
  worker->reader = g_thread_new ("pal-transcripts-read", reader_thread, worker);
  worker->thread = g_thread_new ("pal-transcripts", worker_thread, worker);

  return worker;
}

/* Writes what is queued, waits for the thread to end and frees it; the
 * store hears of no more problems. On the store's context. */
void
_pal_transcript_worker_free (PalTranscriptWorker *worker)
{
  send (worker, command_new (COMMAND_QUIT, NULL, NULL));
  g_thread_join (g_steal_pointer (&worker->thread));
  g_async_queue_push (worker->reads, worker->reads);
  g_thread_join (g_steal_pointer (&worker->reader));
  worker->owner->store = NULL;
  worker_free (worker);
}

/* Queues an entry (an update, or with PAL_TRANSCRIPT_KIND_PROMPT a
 * prompt's content blocks): one allocation, as this runs for every update;
 * the worker reads the rest. */
void
_pal_transcript_worker_record (PalTranscriptWorker *worker,
                               PalSessionKey       *key,
                               PalTranscriptKind    kind,
                               const char          *json,
                               gsize                length)
{
  Command *command;

  /* the text is copied over: only the command itself is cleared */
  command = g_malloc (sizeof (Command) + length + 1);
  memset (command, 0, sizeof (Command));
  command->type = COMMAND_UPDATE;
  command->key = pal_session_key_ref (key);
  command->kind = kind;
  command->time = g_get_real_time ();
  command->packed = TRUE;
  command->json = memcpy ((char *) (command + 1), json, length);
  command->json[length] = '\0';
  send (worker, command);
}

/* Queues @update (a reference is taken), whose JSON text the worker
 * writes: one allocation and a reference on the caller's thread */
void
_pal_transcript_worker_record_update (PalTranscriptWorker *worker,
                                      PalSessionKey       *key,
                                      AcpUpdate           *update)
{
  Command *command = g_new0 (Command, 1);

  command->type = COMMAND_UPDATE;
  command->key = pal_session_key_ref (key);
  command->kind = PAL_TRANSCRIPT_KIND_OTHER;
  command->time = g_get_real_time ();
  command->update = acp_update_ref (update);
  send (worker, command);
}

/* Queues @request for @key (or none); @task (transfer full) is answered
 * when it is done */
void
_pal_transcript_worker_ask (PalTranscriptWorker *worker,
                            PalTranscriptRequest request,
                            PalSessionKey       *key,
                            GTask               *task)
{
  static const CommandType types[] = {
    [PAL_TRANSCRIPT_REQUEST_BEGIN_REPLAY] = COMMAND_BEGIN_REPLAY,
    [PAL_TRANSCRIPT_REQUEST_ABORT_REPLAY] = COMMAND_ABORT_REPLAY,
    [PAL_TRANSCRIPT_REQUEST_END_REPLAY] = COMMAND_END_REPLAY,
    [PAL_TRANSCRIPT_REQUEST_FLUSH] = COMMAND_FLUSH,
    [PAL_TRANSCRIPT_REQUEST_LOAD] = COMMAND_LOAD,
    [PAL_TRANSCRIPT_REQUEST_SIZE] = COMMAND_SIZE,
    [PAL_TRANSCRIPT_REQUEST_DELETE] = COMMAND_DELETE,
    [PAL_TRANSCRIPT_REQUEST_DELETE_ALL] = COMMAND_DELETE_ALL,
    [PAL_TRANSCRIPT_REQUEST_CLOSE] = COMMAND_CLOSE,
  };

  g_assert (request < G_N_ELEMENTS (types));

  send (worker, command_new (types[request], key, task));
}

/* Queues a search for @query (transfer full; NULL finds nothing) */
void
_pal_transcript_worker_search (PalTranscriptWorker      *worker,
                               char                     *query,
                               PalTranscriptSearchFlags  flags,
                               guint                     max_sessions,
                               GTask                    *task)
{
  Command *command = command_new (COMMAND_SEARCH, NULL, task);

  command->text = query;
  command->flags = flags;
  command->max_sessions = max_sessions;
  send (worker, command);
}
