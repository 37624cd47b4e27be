/* demo-store.c: the demo agent's session history on disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "demo-store.h"

/* One write of the store thread gathers at most this much. */
#define MAX_BATCH_BYTES ((gsize) 4 * 1024 * 1024)

typedef enum
{
  JOB_WRITE,
  JOB_FLUSH,
  JOB_READ_INDEX,
  JOB_READ_HISTORY,
  JOB_QUIT,
} JobKind;

typedef struct
{
  JobKind  kind;
  char    *path;  /* JOB_WRITE, JOB_READ_* */
  char    *data;  /* JOB_WRITE: one line, with its newline */
  GTask   *task;  /* JOB_FLUSH, JOB_READ_* */
} Job;

struct _DemoStore
{
  GObject      parent_instance;

  char        *base_dir;
  char        *index_path;
  char        *sessions_dir;
  GAsyncQueue *queue;
  GThread     *thread;
};

G_DEFINE_FINAL_TYPE (DemoStore, demo_store, G_TYPE_OBJECT)

static void
job_free (Job *job)
{
  g_free (job->path);
  g_free (job->data);
  g_clear_object (&job->task);
  g_free (job);
}

static Job *
job_new (JobKind     kind,
         const char *path,
         char       *data,
         GTask      *task)
{
  Job *job = g_new0 (Job, 1);

  job->kind = kind;
  job->path = g_strdup (path);
  job->data = data;
  job->task = task;

  return job;
}

/* --- the store thread --- */

static gboolean
write_all (int         fd,
           const char *data,
           gsize       len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, len);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }

  return TRUE;
}

static void
append_to_file (GHashTable *guarded,
                const char *path,
                GString    *data)
{
  int fd;
  int saved_errno;

  fd = g_open (path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      if (g_mkdir_with_parents (dir, 0700) == 0)
        fd = g_open (path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    }
  if (fd < 0)
    {
      saved_errno = errno;
      g_debug ("Cannot open %s: %s", path, g_strerror (saved_errno));
      return;
    }

  /* A line torn by an earlier crash must not swallow our first line. */
  if (!g_hash_table_contains (guarded, path))
    {
      struct stat st;

      if (fstat (fd, &st) == 0 && st.st_size > 0)
        {
          char last = '\n';

          if (pread (fd, &last, 1, st.st_size - 1) == 1 && last != '\n')
            g_string_prepend_c (data, '\n');
        }
      g_hash_table_add (guarded, g_strdup (path));
    }

  if (!write_all (fd, data->str, data->len))
    {
      saved_errno = errno;
      g_debug ("Cannot write %s: %s", path, g_strerror (saved_errno));
    }
  close (fd);
}

static void
write_batch (GHashTable *guarded,
             GPtrArray  *writes)
{
  g_autoptr(GHashTable) by_path = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, NULL);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GPtrArray) buffers = g_ptr_array_new ();

  /* Group by file, keeping the order of lines within each file. */
  for (guint i = 0; i < writes->len; i++)
    {
      Job *job = g_ptr_array_index (writes, i);
      GString *buffer = g_hash_table_lookup (by_path, job->path);

      if (buffer == NULL)
        {
          buffer = g_string_new (NULL);
          g_hash_table_insert (by_path, job->path, buffer);
          g_ptr_array_add (order, job->path);
          g_ptr_array_add (buffers, buffer);
        }
      g_string_append (buffer, job->data);
    }

  for (guint i = 0; i < order->len; i++)
    {
      GString *buffer = g_ptr_array_index (buffers, i);

      append_to_file (guarded, g_ptr_array_index (order, i), buffer);
      g_string_free (buffer, TRUE);
    }
}

/* Each line is parsed on its own; anything that is not a JSON object is
 * skipped. */
static void
parse_lines (const char *contents,
             gsize       length,
             void      (*each) (JsonObject *object,
                                gpointer    user_data),
             gpointer    user_data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *p = contents;
  const char *end = contents + length;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *line_end = nl != NULL ? nl : end;
      gssize line_len = line_end - p;
      g_autoptr(GError) error = NULL;

      if (line_len > 0)
        {
          if (!json_parser_load_from_data (parser, p, line_len, &error))
            g_debug ("Skipping a damaged line: %s", error->message);
          else if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
            g_debug ("Skipping a line that is not an object");
          else
            each (json_node_get_object (json_parser_get_root (parser)), user_data);
        }

      p = line_end + 1;
    }
}

static void
collect_index_entry (JsonObject *object,
                     gpointer    user_data)
{
  GHashTable *entries = user_data;
  const char *id;
  const char *cwd;

  id = json_object_get_string_member_with_default (object, "sessionId", NULL);
  cwd = json_object_get_string_member_with_default (object, "cwd", NULL);
  if (id == NULL || !demo_store_is_valid_session_id (id) || cwd == NULL || !g_path_is_absolute (cwd))
    {
      g_debug ("Skipping an index entry without a valid sessionId and cwd");
      return;
    }

  g_hash_table_replace (entries, g_strdup (id), json_object_ref (object));
}

static void
collect_update (JsonObject *object,
                gpointer    user_data)
{
  GPtrArray *updates = user_data;
  JsonNode *node;

  if (json_object_get_string_member_with_default (object, "sessionUpdate", NULL) == NULL)
    {
      g_debug ("Skipping a history line without sessionUpdate");
      return;
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);
  g_ptr_array_add (updates, node);
}

static void
run_read (Job *job)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  if (g_task_return_error_if_cancelled (job->task))
    return;

  if (!g_file_get_contents (job->path, &contents, &length, &error))
    {
      if (job->kind == JOB_READ_INDEX && g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_task_return_pointer (job->task,
                                 g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref),
                                 (GDestroyNotify) g_ptr_array_unref);
        }
      else if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                   "No history for this session");
        }
      else
        {
          g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                   "%s", error->message);
        }
      return;
    }

  if (job->kind == JOB_READ_INDEX)
    {
      g_autoptr(GHashTable) entries = NULL;
      GPtrArray *result;
      GHashTableIter iter;
      gpointer value;

      entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) json_object_unref);
      parse_lines (contents, length, collect_index_entry, entries);

      result = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
      g_hash_table_iter_init (&iter, entries);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        g_ptr_array_add (result, json_object_ref (value));
      g_task_return_pointer (job->task, result, (GDestroyNotify) g_ptr_array_unref);
    }
  else
    {
      GPtrArray *updates = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

      parse_lines (contents, length, collect_update, updates);
      g_task_return_pointer (job->task, updates, (GDestroyNotify) g_ptr_array_unref);
    }
}

static gpointer
store_thread (gpointer data)
{
  GAsyncQueue *queue = data;
  g_autoptr(GHashTable) guarded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Job *next = NULL;

  for (;;)
    {
      Job *job = next != NULL ? next : g_async_queue_pop (queue);

      next = NULL;

      if (job->kind == JOB_WRITE)
        {
          g_autoptr(GPtrArray) writes = g_ptr_array_new_with_free_func ((GDestroyNotify) job_free);
          gsize bytes = strlen (job->data);

          g_ptr_array_add (writes, job);
          /* Gather what else is waiting into one write per file. */
          while (bytes < MAX_BATCH_BYTES && (next = g_async_queue_try_pop (queue)) != NULL)
            {
              if (next->kind != JOB_WRITE)
                break;
              bytes += strlen (next->data);
              g_ptr_array_add (writes, g_steal_pointer (&next));
            }
          write_batch (guarded, writes);
          continue;
        }

      switch (job->kind)
        {
        case JOB_FLUSH:
          g_task_return_boolean (job->task, TRUE);
          break;

        case JOB_READ_INDEX:
        case JOB_READ_HISTORY:
          run_read (job);
          break;

        case JOB_QUIT:
          job_free (job);
          g_async_queue_unref (queue);
          return NULL;

        case JOB_WRITE:
        default:
          g_assert_not_reached ();
        }

      job_free (job);
    }
}

/* --- the object --- */

static void
demo_store_dispose (GObject *object)
{
  demo_store_shutdown (DEMO_STORE (object));

  G_OBJECT_CLASS (demo_store_parent_class)->dispose (object);
}

static void
demo_store_finalize (GObject *object)
{
  DemoStore *self = DEMO_STORE (object);

  g_clear_pointer (&self->queue, g_async_queue_unref);
  g_free (self->base_dir);
  g_free (self->index_path);
  g_free (self->sessions_dir);

  G_OBJECT_CLASS (demo_store_parent_class)->finalize (object);
}

static void
demo_store_class_init (DemoStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = demo_store_dispose;
  object_class->finalize = demo_store_finalize;
}

static void
demo_store_init (DemoStore *self)
{
  self->queue = g_async_queue_new_full ((GDestroyNotify) job_free);
}

DemoStore *
demo_store_new (const char *base_dir)
{
  DemoStore *self;

  g_return_val_if_fail (base_dir != NULL, NULL);

  self = g_object_new (DEMO_TYPE_STORE, NULL);
  self->base_dir = g_strdup (base_dir);
  self->index_path = g_build_filename (base_dir, "index.jsonl", NULL);
  self->sessions_dir = g_build_filename (base_dir, "sessions", NULL);
  self->thread = g_thread_new ("demo-store", store_thread, g_async_queue_ref (self->queue));

  return self;
}

const char *
demo_store_get_base_dir (DemoStore *self)
{
  g_return_val_if_fail (DEMO_IS_STORE (self), NULL);

  return self->base_dir;
}

gboolean
demo_store_is_valid_session_id (const char *session_id)
{
  gsize len;

  if (session_id == NULL)
    return FALSE;

  len = strlen (session_id);
  if (len == 0 || len > 128)
    return FALSE;

  for (const char *p = session_id; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
        return FALSE;
    }

  return TRUE;
}

static char *
history_path (DemoStore  *self,
              const char *session_id)
{
  g_autofree char *name = g_strconcat (session_id, ".jsonl", NULL);

  return g_build_filename (self->sessions_dir, name, NULL);
}

static void
push_job (DemoStore *self,
          Job       *job)
{
  if (self->thread == NULL)
    {
      /* Shut down: nothing more is written, reads fail. */
      if (job->task != NULL)
        g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                                 "The history store is shut down");
      job_free (job);
      return;
    }

  g_async_queue_push (self->queue, job);
}

static char *
node_to_line (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  gsize len = 0;
  char *text;
  char *line;

  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, &len);
  line = g_realloc (text, len + 2);
  line[len] = '\n';
  line[len + 1] = '\0';

  return line;
}

void
demo_store_append_update (DemoStore  *self,
                          const char *session_id,
                          JsonNode   *update)
{
  g_return_if_fail (DEMO_IS_STORE (self));
  g_return_if_fail (demo_store_is_valid_session_id (session_id));
  g_return_if_fail (update != NULL);

  {
    g_autofree char *path = history_path (self, session_id);

    push_job (self, job_new (JOB_WRITE, path, node_to_line (update), NULL));
  }
}

void
demo_store_append_index (DemoStore  *self,
                         JsonObject *entry)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_if_fail (DEMO_IS_STORE (self));
  g_return_if_fail (entry != NULL);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, entry);
  push_job (self, job_new (JOB_WRITE, self->index_path, node_to_line (node), NULL));
}

void
demo_store_flush_async (DemoStore          *self,
                        GCancellable       *cancellable,
                        GAsyncReadyCallback callback,
                        gpointer            user_data)
{
  GTask *task;

  g_return_if_fail (DEMO_IS_STORE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, demo_store_flush_async);
  push_job (self, job_new (JOB_FLUSH, NULL, NULL, task));
}

gboolean
demo_store_flush_finish (DemoStore     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
demo_store_read_index_async (DemoStore          *self,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  GTask *task;

  g_return_if_fail (DEMO_IS_STORE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, demo_store_read_index_async);
  push_job (self, job_new (JOB_READ_INDEX, self->index_path, NULL, task));
}

GPtrArray *
demo_store_read_index_finish (DemoStore     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
demo_store_read_history_async (DemoStore          *self,
                               const char         *session_id,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  g_autofree char *path = NULL;
  GTask *task;

  g_return_if_fail (DEMO_IS_STORE (self));
  g_return_if_fail (demo_store_is_valid_session_id (session_id));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, demo_store_read_history_async);
  path = history_path (self, session_id);
  push_job (self, job_new (JOB_READ_HISTORY, path, NULL, task));
}

GPtrArray *
demo_store_read_history_finish (DemoStore     *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
demo_store_shutdown (DemoStore *self)
{
  g_return_if_fail (DEMO_IS_STORE (self));

  if (self->thread == NULL)
    return;

  g_async_queue_push (self->queue, job_new (JOB_QUIT, NULL, NULL, NULL));
  g_thread_join (g_steal_pointer (&self->thread));
}
