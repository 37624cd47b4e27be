/* pal-file-index.c: the files of a session's folders, for the @ finder
 *
 * The index walks its roots (the session's folder and its additional
 * folders) on a worker thread (pal-file-index-walk.c), then keeps itself
 * fresh: every folder the walk went through, up to
 * PAL_FILE_INDEX_MAX_WATCHED of them nearest the roots, gets a GFileMonitor
 * of its own (no recursive watch exists; one inotify watch per folder is
 * what a recursive one would cost anyway). The monitors are made on the
 * worker thread, which has no main context of its own, so their events
 * come to the main one. A path that appears is walked (it may be a whole
 * folder moved in) on a worker thread; one that goes is dropped with what
 * it held; a .gitignore that appears or changes walks everything again.
 * "changed" says the index changed, once the first walk is done and after
 * each change.
 *
 * Queries (pal-file-index-match.c) run over a snapshot: an array of the
 * entries, made again only after a change, shared with a worker thread by
 * pal_file_index_query_async() so a keystroke never waits on the main
 * thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-file-index-private.h"

struct _PalFileIndex
{
  GObject       parent_instance;

  GFile       **roots;       /* NULL-terminated */
  char        **prefixes;    /* "" for the first root, "name/" for others */
  guint         n_roots;
  GHashTable   *entries;     /* set of PalFileEntry */
  GPtrArray    *snapshot;    /* of PalFileEntry, NULL after a change */
  GHashTable   *watched;     /* "root:rel" -> Watch */
  GCancellable *cancellable; /* the index's life */
  GCancellable *full_walk;   /* the walk of everything, while it runs */
  gboolean      ready;
};

enum {
  PROP_0,
  PROP_READY,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalFileIndex, pal_file_index, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (PalFileHit, pal_file_hit, pal_file_hit_copy, pal_file_hit_free)

PalFileHit *
pal_file_hit_copy (const PalFileHit *hit)
{
  PalFileHit *copy = g_new0 (PalFileHit, 1);

  copy->path = g_strdup (hit->path);
  copy->file = hit->file != NULL ? g_object_ref (hit->file) : NULL;
  copy->is_folder = hit->is_folder;
  copy->score = hit->score;

  return copy;
}

void
pal_file_hit_free (PalFileHit *hit)
{
  if (hit == NULL)
    return;

  g_free (hit->path);
  g_clear_object (&hit->file);
  g_free (hit);
}

/* A watched folder: its monitor and the rules inside it */
typedef struct
{
  GWeakRef        index;
  GFileMonitor   *monitor;
  guint           root;
  char           *rel;
  PalIgnoreRules *rules;
} Watch;

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  if (watch->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (watch->monitor, watch);
      g_file_monitor_cancel (watch->monitor);
      g_object_unref (watch->monitor);
    }
  g_weak_ref_clear (&watch->index);
  g_free (watch->rel);
  g_clear_pointer (&watch->rules, pal_ignore_rules_unref);
  g_free (watch);
}

static char *
watch_key (guint       root,
           const char *rel)
{
  return g_strdup_printf ("%u:%s", root, rel);
}

static void walk_paths (PalFileIndex *self,
                        GPtrArray    *starts,
                        gboolean      full);

static void
start_free (gpointer data)
{
  PalWalkStart *start = data;

  g_free (start->rel);
  g_clear_pointer (&start->rules, pal_ignore_rules_unref);
  g_free (start);
}

static PalWalkStart *
start_new (guint           root,
           const char     *rel,
           PalIgnoreRules *rules)
{
  PalWalkStart *start = g_new0 (PalWalkStart, 1);

  start->root = root;
  start->rel = g_strdup (rel);
  start->rules = rules != NULL ? pal_ignore_rules_ref (rules) : NULL;

  return start;
}

static void
walk_everything (PalFileIndex *self)
{
  g_autoptr(GPtrArray) starts = g_ptr_array_new_with_free_func (start_free);

  for (guint i = 0; i < self->n_roots; i++)
    g_ptr_array_add (starts, start_new (i, "", NULL));

  walk_paths (self, starts, TRUE);
}

static void
changed (PalFileIndex *self)
{
  g_clear_pointer (&self->snapshot, g_ptr_array_unref);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* drops @rel and everything under it */
static void
drop_path (PalFileIndex *self,
           guint         root,
           const char   *rel)
{
  gsize len = strlen (rel);
  GHashTableIter iter;
  gpointer key, value;
  gboolean dropped = FALSE;
  PalFileEntry *probe = _pal_file_entry_new (root, self->prefixes[root], rel, FALSE);
  PalFileEntry *known = g_hash_table_lookup (self->entries, probe);

  _pal_file_entry_unref (probe);
  /* a file: itself alone, without going through every path */
  if (known != NULL && !known->is_dir)
    {
      g_hash_table_remove (self->entries, known);
      changed (self);
      return;
    }

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const PalFileEntry *entry = key;
      const char *path = _pal_file_entry_rel (entry);

      if (entry->root == root && strncmp (path, rel, len) == 0
          && (path[len] == '\0' || path[len] == '/'))
        {
          g_hash_table_iter_remove (&iter);
          dropped = TRUE;
        }
    }

  g_hash_table_iter_init (&iter, self->watched);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const Watch *watch = value;

      if (watch->root == root && strncmp (watch->rel, rel, len) == 0
          && (watch->rel[len] == '\0' || watch->rel[len] == '/'))
        g_hash_table_iter_remove (&iter);
    }

  if (dropped)
    changed (self);
}

static void
walk_one (PalFileIndex   *self,
          guint           root,
          const char     *rel,
          PalIgnoreRules *rules)
{
  g_autoptr(GPtrArray) starts = g_ptr_array_new_with_free_func (start_free);

  g_ptr_array_add (starts, start_new (root, rel, rules));
  walk_paths (self, starts, FALSE);
}

static void
monitor_changed_cb (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    Watch             *watch)
{
  g_autoptr(PalFileIndex) self = g_weak_ref_get (&watch->index);
  g_autofree char *rel = NULL;
  g_autofree char *other_rel = NULL;
  g_autofree char *name = NULL;

  if (self == NULL)
    return;

  rel = g_file_get_relative_path (self->roots[watch->root], file);
  if (rel == NULL)
    return;
  name = g_file_get_basename (file);

  if (strcmp (name, ".gitignore") == 0
      && (event == G_FILE_MONITOR_EVENT_CREATED || event == G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT
          || event == G_FILE_MONITOR_EVENT_DELETED || event == G_FILE_MONITOR_EVENT_MOVED_IN
          || event == G_FILE_MONITOR_EVENT_MOVED_OUT || event == G_FILE_MONITOR_EVENT_RENAMED))
    {
      walk_everything (self);
      return;
    }

  switch (event)
    {
    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_MOVED_IN:
      walk_one (self, watch->root, rel, watch->rules);
      break;

    case G_FILE_MONITOR_EVENT_DELETED:
    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      drop_path (self, watch->root, rel);
      break;

    case G_FILE_MONITOR_EVENT_RENAMED:
      drop_path (self, watch->root, rel);
      if (other != NULL)
        {
          other_rel = g_file_get_relative_path (self->roots[watch->root], other);
          if (other_rel != NULL)
            walk_one (self, watch->root, other_rel, watch->rules);
        }
      break;

    case G_FILE_MONITOR_EVENT_CHANGED:
    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
    case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
    case G_FILE_MONITOR_EVENT_PRE_UNMOUNT:
    case G_FILE_MONITOR_EVENT_UNMOUNTED:
    case G_FILE_MONITOR_EVENT_MOVED:
    default:
      break;
    }
}

typedef struct
{
  GFile     **roots;
  char      **prefixes;
  GPtrArray  *starts;
  guint       n_watched;  /* before this walk */
  GPtrArray  *watches;    /* made on the worker */
  gboolean    full;
} WalkData;

static void
walk_data_free (gpointer data)
{
  WalkData *walk = data;

  for (guint i = 0; walk->roots[i] != NULL; i++)
    g_object_unref (walk->roots[i]);
  g_free (walk->roots);
  g_strfreev (walk->prefixes);
  g_ptr_array_unref (walk->starts);
  g_clear_pointer (&walk->watches, g_ptr_array_unref);
  g_free (walk);
}

static void
walk_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  WalkData *walk = task_data;
  PalWalkResult *result = _pal_file_index_walk (walk->roots, walk->prefixes, walk->starts,
                                                cancellable);
  guint room = walk->n_watched < PAL_FILE_INDEX_MAX_WATCHED
               ? PAL_FILE_INDEX_MAX_WATCHED - walk->n_watched : 0;

  /* made here, with no main context of this thread's own: their events go
   * to the main thread */
  walk->watches = g_ptr_array_new_with_free_func (watch_free);
  for (guint i = 0; i < result->dirs->len && i < room; i++)
    {
      PalWalkedDir *dir = g_ptr_array_index (result->dirs, i);
      g_autoptr(GFile) file = g_file_resolve_relative_path (walk->roots[dir->root], dir->rel);
      Watch *watch;

      if (g_cancellable_is_cancelled (cancellable))
        break;

      watch = g_new0 (Watch, 1);
      /* the task keeps the index alive while this runs */
      g_weak_ref_init (&watch->index, g_task_get_source_object (task));
      watch->root = dir->root;
      watch->rel = g_strdup (dir->rel);
      watch->rules = dir->rules != NULL ? pal_ignore_rules_ref (dir->rules) : NULL;
      watch->monitor = g_file_monitor_directory (file, G_FILE_MONITOR_WATCH_MOVES, cancellable, NULL);
      if (watch->monitor != NULL)
        g_signal_connect (watch->monitor, "changed", G_CALLBACK (monitor_changed_cb), watch);
      g_ptr_array_add (walk->watches, watch);
    }

  g_task_return_pointer (task, result, (GDestroyNotify) _pal_walk_result_free);
}

static void
walk_done_cb (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  PalFileIndex *self = PAL_FILE_INDEX (source);
  GTask *task = G_TASK (res);
  WalkData *walk = g_task_get_task_data (task);
  PalWalkResult *result = g_task_propagate_pointer (task, NULL);
  gboolean was_ready;

  if (result == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_clear_pointer (&result, _pal_walk_result_free);
      return;
    }

  if (walk->full)
    {
      g_hash_table_remove_all (self->entries);
      g_hash_table_remove_all (self->watched);
      g_clear_object (&self->full_walk);
    }

  for (guint i = 0; i < result->entries->len; i++)
    {
      PalFileEntry *entry = g_ptr_array_index (result->entries, i);

      g_hash_table_add (self->entries, _pal_file_entry_ref (entry));
    }
  while (walk->watches->len > 0)
    {
      Watch *watch = g_ptr_array_steal_index_fast (walk->watches, walk->watches->len - 1);

      g_hash_table_replace (self->watched, watch_key (watch->root, watch->rel), watch);
    }
  _pal_walk_result_free (result);

  was_ready = self->ready;
  if (walk->full)
    self->ready = TRUE;
  changed (self);
  if (!was_ready && self->ready)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static void
walk_paths (PalFileIndex *self,
            GPtrArray    *starts,
            gboolean      full)
{
  g_autoptr(GTask) task = NULL;
  WalkData *walk = g_new0 (WalkData, 1);
  GCancellable *cancellable = self->cancellable;

  walk->roots = g_new0 (GFile *, self->n_roots + 1);
  for (guint i = 0; i < self->n_roots; i++)
    walk->roots[i] = g_object_ref (self->roots[i]);
  walk->prefixes = g_strdupv (self->prefixes);
  walk->starts = g_ptr_array_ref (starts);
  walk->n_watched = full ? 0 : g_hash_table_size (self->watched);
  walk->full = full;

  if (full)
    {
      /* a newer walk of everything replaces the one running */
      g_cancellable_cancel (self->full_walk);
      g_clear_object (&self->full_walk);
      self->full_walk = g_cancellable_new ();
      cancellable = self->full_walk;
    }

  task = g_task_new (self, cancellable, walk_done_cb, NULL);
  g_task_set_source_tag (task, walk_paths);
  g_task_set_task_data (task, walk, walk_data_free);
  g_task_run_in_thread (task, walk_thread);
}

static void
pal_file_index_dispose (GObject *object)
{
  PalFileIndex *self = PAL_FILE_INDEX (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->full_walk);
  g_clear_object (&self->full_walk);
  if (self->watched != NULL)
    g_hash_table_remove_all (self->watched);
  g_clear_pointer (&self->snapshot, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_file_index_parent_class)->dispose (object);
}

static void
pal_file_index_finalize (GObject *object)
{
  PalFileIndex *self = PAL_FILE_INDEX (object);

  for (guint i = 0; i < self->n_roots; i++)
    g_object_unref (self->roots[i]);
  g_free (self->roots);
  g_strfreev (self->prefixes);
  g_hash_table_unref (self->entries);
  g_hash_table_unref (self->watched);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (pal_file_index_parent_class)->finalize (object);
}

static void
pal_file_index_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PalFileIndex *self = PAL_FILE_INDEX (object);

  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_file_index_class_init (PalFileIndexClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_file_index_dispose;
  object_class->finalize = pal_file_index_finalize;
  object_class->get_property = pal_file_index_get_property;

  /**
   * PalFileIndex:ready:
   *
   * Whether the first walk of the roots is done.
   */
  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalFileIndex::changed:
   *
   * The files known changed: the first walk is done, or a file came or
   * went.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
pal_file_index_init (PalFileIndex *self)
{
  self->entries = g_hash_table_new_full (_pal_file_entry_hash, _pal_file_entry_equal,
                                         _pal_file_entry_unref, NULL);
  self->watched = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, watch_free);
  self->cancellable = g_cancellable_new ();
}

/**
 * pal_file_index_new:
 * @roots: (array length=n_roots): the folders, the session's own first
 * @n_roots: how many
 *
 * Starts walking @roots on a worker thread; "changed" says when it is done.
 * Paths under the first root are shown relative to it, those under the
 * others after the other root's name.
 *
 * Returns: (transfer full): a new index
 */
PalFileIndex *
pal_file_index_new (GFile **roots,
                    guint   n_roots)
{
  PalFileIndex *self;

  g_return_val_if_fail (roots != NULL || n_roots == 0, NULL);

  self = g_object_new (PAL_TYPE_FILE_INDEX, NULL);
  self->n_roots = n_roots;
  self->roots = g_new0 (GFile *, n_roots + 1);
  self->prefixes = g_new0 (char *, n_roots + 1);
  for (guint i = 0; i < n_roots; i++)
    {
      g_autofree char *name = g_file_get_basename (roots[i]);

      self->roots[i] = g_object_ref (roots[i]);
      self->prefixes[i] = i == 0 ? g_strdup ("") : g_strconcat (name, "/", NULL);
    }

  walk_everything (self);

  return self;
}

gboolean
pal_file_index_get_ready (PalFileIndex *self)
{
  g_return_val_if_fail (PAL_IS_FILE_INDEX (self), FALSE);

  return self->ready;
}

/**
 * pal_file_index_get_n_files:
 * @self: a #PalFileIndex
 *
 * Returns: how many files and folders are known
 */
guint
pal_file_index_get_n_files (PalFileIndex *self)
{
  g_return_val_if_fail (PAL_IS_FILE_INDEX (self), 0);

  return g_hash_table_size (self->entries);
}

/**
 * pal_file_path_in_folders:
 * @folders: (array length=n_folders): a session's folders, its own first
 * @n_folders: how many
 * @file: a file
 *
 * How the finder shows @file and the prompt names it after '@': relative
 * to the first folder, or after the name of the other folder holding it.
 *
 * Returns: (transfer full) (nullable): the path, or %NULL when @file is in
 *   none of @folders
 */
char *
pal_file_path_in_folders (GFile **folders,
                          guint   n_folders,
                          GFile  *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  for (guint i = 0; i < n_folders; i++)
    {
      g_autofree char *rel = g_file_get_relative_path (folders[i], file);
      g_autofree char *name = NULL;

      if (rel == NULL)
        continue;
      if (i == 0)
        return g_steal_pointer (&rel);
      name = g_file_get_basename (folders[i]);
      return g_strconcat (name, "/", rel, NULL);
    }

  return NULL;
}

static GPtrArray *
get_snapshot (PalFileIndex *self)
{
  GHashTableIter iter;
  gpointer key;

  if (self->snapshot != NULL)
    return self->snapshot;

  self->snapshot = g_ptr_array_new_full (g_hash_table_size (self->entries), _pal_file_entry_unref);
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (self->snapshot, _pal_file_entry_ref (key));

  return self->snapshot;
}

/**
 * pal_file_index_query:
 * @self: a #PalFileIndex
 * @query: what was typed after '@'
 * @limit: how many hits at most
 *
 * Matches on the calling thread; pal_file_index_query_async() does it on
 * a worker.
 *
 * Returns: (transfer full) (element-type PalFileHit): the best matches,
 *   best first
 */
GPtrArray *
pal_file_index_query (PalFileIndex *self,
                      const char   *query,
                      guint         limit)
{
  g_return_val_if_fail (PAL_IS_FILE_INDEX (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  return _pal_file_index_match (get_snapshot (self), self->roots, query, limit);
}

typedef struct
{
  GPtrArray  *snapshot;
  GFile     **roots;
  char       *query;
  guint       limit;
} QueryData;

static void
query_data_free (gpointer data)
{
  QueryData *query = data;

  g_ptr_array_unref (query->snapshot);
  for (guint i = 0; query->roots[i] != NULL; i++)
    g_object_unref (query->roots[i]);
  g_free (query->roots);
  g_free (query->query);
  g_free (query);
}

static void
query_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  QueryData *query = task_data;

  if (g_task_return_error_if_cancelled (task))
    return;

  g_task_return_pointer (task,
                         _pal_file_index_match (query->snapshot, query->roots, query->query,
                                                query->limit),
                         (GDestroyNotify) g_ptr_array_unref);
}

/**
 * pal_file_index_query_async:
 * @self: a #PalFileIndex
 * @query: what was typed after '@'
 * @limit: how many hits at most
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the hits
 * @user_data: for @callback
 *
 * Matches @query against the files known now, on a worker thread.
 */
void
pal_file_index_query_async (PalFileIndex        *self,
                            const char          *query,
                            guint                limit,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  QueryData *data;

  g_return_if_fail (PAL_IS_FILE_INDEX (self));
  g_return_if_fail (query != NULL);

  data = g_new0 (QueryData, 1);
  data->snapshot = g_ptr_array_ref (get_snapshot (self));
  data->roots = g_new0 (GFile *, self->n_roots + 1);
  for (guint i = 0; i < self->n_roots; i++)
    data->roots[i] = g_object_ref (self->roots[i]);
  data->query = g_strdup (query);
  data->limit = limit;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_file_index_query_async);
  g_task_set_task_data (task, data, query_data_free);
  g_task_run_in_thread (task, query_thread);
}

/**
 * pal_file_index_query_finish:
 * @self: a #PalFileIndex
 * @result: the result
 * @error: where to put an error (cancelled only)
 *
 * Returns: (transfer full) (element-type PalFileHit): the best matches
 */
GPtrArray *
pal_file_index_query_finish (PalFileIndex  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
