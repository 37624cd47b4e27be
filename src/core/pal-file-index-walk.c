/* pal-file-index-walk.c: going through a session's folders, on a worker thread
 *
 * Breadth first, so that the folders nearest the roots are the ones
 * watched when there are more than PAL_FILE_INDEX_MAX_WATCHED. A symbolic
 * link is listed only when what it points to is inside one of the roots
 * (mentioning it must not read a file outside the session's folders), and
 * never followed into (no loops). Left out: what a .gitignore on the way leaves out, and the
 * folders no one mentions: version control data (.git, .hg, .svn),
 * installed packages (node_modules) and build output (build, _build,
 * target, dist, __pycache__).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pal-file-index-private.h"

static const char * const skipped[] = {
  ".git", ".hg", ".svn", "node_modules", "build", "_build", "target", "dist", "__pycache__",
};

static gboolean
skips (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (skipped); i++)
    if (strcmp (name, skipped[i]) == 0)
      return TRUE;

  return FALSE;
}

PalFileEntry *
_pal_file_entry_new (guint       root,
                     const char *prefix,
                     const char *rel,
                     gboolean    is_dir)
{
  gsize prefix_len = strlen (prefix);
  gsize rel_len = strlen (rel);
  gsize length = prefix_len + rel_len;
  PalFileEntry *entry = g_atomic_rc_box_alloc0 (sizeof (PalFileEntry) + 2 * (length + 1));
  const char *slash;

  entry->root = root;
  entry->rel_offset = prefix_len;
  entry->length = length;
  entry->is_dir = is_dir;
  memcpy (entry->data, prefix, prefix_len);
  memcpy (entry->data + prefix_len, rel, rel_len + 1);
  slash = strrchr (entry->data, '/');
  entry->name_offset = slash != NULL ? (guint) (slash - entry->data + 1) : 0;
  entry->lower = entry->data + length + 1;
  for (gsize i = 0; i <= length; i++)
    entry->lower[i] = g_ascii_tolower (entry->data[i]);

  return entry;
}

PalFileEntry *
_pal_file_entry_ref (PalFileEntry *entry)
{
  return g_atomic_rc_box_acquire (entry);
}

void
_pal_file_entry_unref (gpointer entry)
{
  g_atomic_rc_box_release (entry);
}

guint
_pal_file_entry_hash (gconstpointer entry)
{
  const PalFileEntry *e = entry;

  return g_str_hash (e->data) ^ e->root;
}

gboolean
_pal_file_entry_equal (gconstpointer a,
                       gconstpointer b)
{
  const PalFileEntry *x = a;
  const PalFileEntry *y = b;

  return x->root == y->root && strcmp (x->data, y->data) == 0;
}

void
_pal_walked_dir_free (gpointer data)
{
  PalWalkedDir *dir = data;

  g_free (dir->rel);
  g_clear_pointer (&dir->rules, pal_ignore_rules_unref);
  g_free (dir);
}

void
_pal_walk_result_free (PalWalkResult *result)
{
  g_ptr_array_unref (result->entries);
  g_ptr_array_unref (result->dirs);
  g_free (result);
}

static char *
child_path (const char *rel,
            const char *name)
{
  return rel[0] != '\0' ? g_strconcat (rel, "/", name, NULL) : g_strdup (name);
}

/* the folder's own .gitignore, on top of what holds above it */
static PalIgnoreRules *
read_rules (GFile          *dir,
            const char     *rel,
            PalIgnoreRules *parent,
            GCancellable   *cancellable)
{
  g_autoptr(GFile) file = g_file_get_child (dir, ".gitignore");
  g_autofree char *contents = NULL;
  gsize length;

  if (!g_file_load_contents (file, cancellable, &contents, &length, NULL, NULL))
    return parent != NULL ? pal_ignore_rules_ref (parent) : NULL;

  return pal_ignore_rules_new (parent, rel, contents, length);
}

typedef struct
{
  guint           root;
  GFile          *dir;
  char           *rel;
  PalIgnoreRules *rules;  /* of the folder holding it */
} Pending;

static void
pending_free (gpointer data)
{
  Pending *pending = data;

  g_object_unref (pending->dir);
  g_free (pending->rel);
  g_clear_pointer (&pending->rules, pal_ignore_rules_unref);
  g_free (pending);
}

static void
queue_dir (GQueue         *queue,
           guint           root,
           GFile          *dir,
           const char     *rel,
           PalIgnoreRules *rules)
{
  Pending *pending = g_new0 (Pending, 1);

  pending->root = root;
  pending->dir = g_object_ref (dir);
  pending->rel = g_strdup (rel);
  pending->rules = rules != NULL ? pal_ignore_rules_ref (rules) : NULL;
  g_queue_push_tail (queue, pending);
}

/* Whether the link @file points inside one of @real_roots; and to a folder */
static gboolean
link_inside (GFile     *file,
             GPtrArray *real_roots,
             gboolean  *is_dir)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *target = path != NULL ? realpath (path, NULL) : NULL;

  if (target == NULL)
    return FALSE;

  for (guint i = 0; i < real_roots->len; i++)
    {
      const char *root = g_ptr_array_index (real_roots, i);
      gsize n = strlen (root);

      if (strncmp (target, root, n) == 0 && (target[n] == '/' || target[n] == '\0' || n == 1))
        {
          *is_dir = g_file_test (target, G_FILE_TEST_IS_DIR);
          return TRUE;
        }
    }

  return FALSE;
}

static void
walk_dir (PalWalkResult  *result,
          GQueue         *queue,
          Pending        *pending,
          const char     *prefix,
          GPtrArray      *real_roots,
          GCancellable   *cancellable)
{
  g_autoptr(GFileEnumerator) children = NULL;
  g_autoptr(PalIgnoreRules) rules = NULL;
  PalWalkedDir *walked;

  children = g_file_enumerate_children (pending->dir,
                                        G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                        cancellable, NULL);
  if (children == NULL)
    return;

  rules = read_rules (pending->dir, pending->rel, pending->rules, cancellable);
  walked = g_new0 (PalWalkedDir, 1);
  walked->root = pending->root;
  walked->rel = g_strdup (pending->rel);
  walked->rules = rules != NULL ? pal_ignore_rules_ref (rules) : NULL;
  g_ptr_array_add (result->dirs, walked);

  while (result->entries->len < PAL_FILE_INDEX_MAX_ENTRIES)
    {
      GFileInfo *info;
      GFile *child;
      const char *name;
      gboolean is_dir, is_link;
      g_autofree char *rel = NULL;

      if (!g_file_enumerator_iterate (children, &info, &child, cancellable, NULL) || info == NULL)
        break;

      name = g_file_info_get_name (info);
      is_dir = g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY;
      is_link = g_file_info_get_file_type (info) == G_FILE_TYPE_SYMBOLIC_LINK;
      if (is_link && !link_inside (child, real_roots, &is_dir))
        continue;
      if (is_dir && skips (name))
        continue;
      rel = child_path (pending->rel, name);
      if (rules != NULL && pal_ignore_rules_ignores (rules, rel, is_dir))
        continue;

      g_ptr_array_add (result->entries, _pal_file_entry_new (pending->root, prefix, rel, is_dir));
      if (is_dir && !is_link)
        queue_dir (queue, pending->root, child, rel, rules);
    }
}

/* a path on its own (one that appeared): listed unless left out, and gone
 * through when it is a folder */
static void
walk_start (PalWalkResult  *result,
            GQueue         *queue,
            GFile          *root,
            const char     *prefix,
            PalWalkStart   *start,
            GPtrArray      *real_roots,
            GCancellable   *cancellable)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *name = NULL;
  gboolean is_dir, is_link;

  if (start->rel[0] == '\0')
    {
      queue_dir (queue, start->root, root, "", NULL);
      return;
    }

  file = g_file_resolve_relative_path (root, start->rel);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, NULL);
  if (info == NULL)
    return;

  name = g_file_get_basename (file);
  is_dir = g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY;
  is_link = g_file_info_get_file_type (info) == G_FILE_TYPE_SYMBOLIC_LINK;
  if (is_link && !link_inside (file, real_roots, &is_dir))
    return;
  if (is_dir && skips (name))
    return;
  if (start->rules != NULL && pal_ignore_rules_ignores (start->rules, start->rel, is_dir))
    return;

  g_ptr_array_add (result->entries, _pal_file_entry_new (start->root, prefix, start->rel, is_dir));
  if (is_dir && !is_link)
    queue_dir (queue, start->root, file, start->rel, start->rules);
}

/**
 * _pal_file_index_walk:
 * @roots: the session's folders
 * @prefixes: what each root's paths are shown after
 * @starts: (element-type PalWalkStart): where to go
 * @cancellable: (nullable): stops the walk
 *
 * Blocks: call it on a worker thread.
 *
 * Returns: (transfer full): the files and folders found, and the folders
 *   gone through
 */
PalWalkResult *
_pal_file_index_walk (GFile        **roots,
                      char         **prefixes,
                      GPtrArray     *starts,
                      GCancellable  *cancellable)
{
  PalWalkResult *result = g_new0 (PalWalkResult, 1);
  g_autoptr(GQueue) queue = g_queue_new ();
  g_autoptr(GPtrArray) real_roots = g_ptr_array_new_with_free_func (free);
  Pending *pending;

  for (guint i = 0; roots[i] != NULL; i++)
    {
      g_autofree char *path = g_file_get_path (roots[i]);
      char *real = path != NULL ? realpath (path, NULL) : NULL;

      if (real != NULL)
        g_ptr_array_add (real_roots, real);
    }

  result->entries = g_ptr_array_new_with_free_func (_pal_file_entry_unref);
  result->dirs = g_ptr_array_new_with_free_func (_pal_walked_dir_free);

  for (guint i = 0; i < starts->len; i++)
    {
      PalWalkStart *start = g_ptr_array_index (starts, i);

      walk_start (result, queue, roots[start->root], prefixes[start->root], start, real_roots,
                  cancellable);
    }

  while ((pending = g_queue_pop_head (queue)) != NULL)
    {
      if (!g_cancellable_is_cancelled (cancellable)
          && result->entries->len < PAL_FILE_INDEX_MAX_ENTRIES)
        walk_dir (result, queue, pending, prefixes[pending->root], real_roots, cancellable);
      pending_free (pending);
    }

  return result;
}
