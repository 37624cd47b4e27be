/* pal-folders.c: the folders of a session, its project folder and more
 *
 * A session works in its project folder and may be given additional
 * folders, which its agent may use as well. The list is kept short and
 * plain: every folder absolute and canonical, none twice, none that the
 * project folder holds already.
 *
 * Folders are compared as written, once "." and ".." are resolved: links
 * are not followed, since that would mean I/O (the file service follows
 * them when it checks a path, in a worker thread).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-folders.h"
#include "pal-path.h"

static gboolean
contains_canonical (const char *folder,
                    const char *path)
{
  gsize len = strlen (folder);

  if (g_str_equal (folder, "/"))
    return TRUE;

  return strncmp (path, folder, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

/**
 * pal_folder_contains:
 * @folder: an absolute folder
 * @path: an absolute path
 *
 * Returns: whether @path is @folder or lies inside it
 */
gboolean
pal_folder_contains (const char *folder,
                     const char *path)
{
  g_autofree char *canonical_folder = NULL;
  g_autofree char *canonical_path = NULL;

  if (folder == NULL || path == NULL || !g_path_is_absolute (folder) || !g_path_is_absolute (path))
    return FALSE;

  canonical_folder = g_canonicalize_filename (folder, NULL);
  canonical_path = g_canonicalize_filename (path, NULL);

  return contains_canonical (canonical_folder, canonical_path);
}

/**
 * pal_folders_clean:
 * @project: (nullable): the project folder
 * @folders: (nullable) (array zero-terminated=1): additional folders, from
 *   a store or an agent
 *
 * The additional folders fit to keep, in their order: each canonical, and
 * without those that are not absolute paths, repeats, and @project or
 * folders inside it.
 *
 * Returns: (transfer full): the folders; empty, never %NULL
 */
GStrv
pal_folders_clean (const char         *project,
                   const char * const *folders)
{
  g_autoptr(GPtrArray) kept = g_ptr_array_new_null_terminated (4, g_free, TRUE);
  g_autofree char *canonical_project = NULL;

  if (project != NULL && g_path_is_absolute (project))
    canonical_project = g_canonicalize_filename (project, NULL);

  for (guint i = 0; folders != NULL && folders[i] != NULL; i++)
    {
      g_autofree char *folder = NULL;

      if (!g_path_is_absolute (folders[i]) || !g_utf8_validate (folders[i], -1, NULL))
        continue;

      folder = g_canonicalize_filename (folders[i], NULL);
      if (canonical_project != NULL && contains_canonical (canonical_project, folder))
        continue;
      if (g_ptr_array_find_with_equal_func (kept, folder, g_str_equal, NULL))
        continue;

      g_ptr_array_add (kept, g_steal_pointer (&folder));
    }

  return (GStrv) g_ptr_array_free (g_steal_pointer (&kept), FALSE);
}

static char *
shown (const char *path)
{
  return pal_path_display (path, NULL, g_get_home_dir ());
}

/**
 * pal_folders_add:
 * @folders: (element-type utf8): the additional folders of a session,
 *   canonical, as this function leaves them
 * @project: (nullable): its project folder
 * @folder: the folder the person chose
 * @message: (out) (optional) (nullable) (transfer full): why @folder was
 *   refused, or which folders it replaced; %NULL when it was simply added
 *
 * Adds @folder as the person asked. It is refused when it is the project
 * folder or inside it, when it is listed already or inside a listed folder,
 * or when it is not an absolute path. A folder that holds listed folders
 * takes their place.
 *
 * Returns: whether @folders changed
 */
gboolean
pal_folders_add (GPtrArray  *folders,
                 const char *project,
                 const char *folder,
                 char      **message)
{
  g_autofree char *canonical = NULL;
  g_autofree char *replaced = NULL;
  guint n_replaced = 0;
  guint position;

  g_return_val_if_fail (folders != NULL, FALSE);
  g_return_val_if_fail (folder != NULL, FALSE);

  if (message != NULL)
    *message = NULL;

  if (!g_utf8_validate (folder, -1, NULL))
    {
      /* agents are told paths in JSON, which is text */
      if (message != NULL)
        *message = g_strdup (_("That folder’s path is not valid text, so agents cannot be told "
                               "about it"));
      return FALSE;
    }
  if (!g_path_is_absolute (folder))
    {
      if (message != NULL)
        *message = g_strdup_printf (_("“%s” is not an absolute path"), folder);
      return FALSE;
    }

  canonical = g_canonicalize_filename (folder, NULL);

  if (project != NULL && pal_folder_contains (project, canonical))
    {
      if (message != NULL)
        *message = g_strdup (pal_folder_contains (canonical, project)
                               ? _("That is the project folder, which the agent uses anyway")
                               : _("That folder is inside the project folder, which the agent "
                                   "uses anyway"));
      return FALSE;
    }

  for (guint i = 0; i < folders->len; i++)
    {
      const char *listed = g_ptr_array_index (folders, i);

      if (contains_canonical (listed, canonical))
        {
          if (message == NULL)
            return FALSE;

          if (g_str_equal (listed, canonical))
            *message = g_strdup (_("That folder is in the list already"));
          else
            {
              g_autofree char *outer = shown (listed);

              *message = g_strdup_printf (_("That folder is inside “%s”, which is in the list "
                                            "already"), outer);
            }
          return FALSE;
        }
    }

  /* a folder that holds listed ones takes the place of the first of them */
  position = folders->len;
  for (guint i = folders->len; i > 0; i--)
    {
      const char *listed = g_ptr_array_index (folders, i - 1);

      if (!contains_canonical (canonical, listed))
        continue;

      g_free (replaced);
      replaced = shown (listed);
      n_replaced++;
      g_ptr_array_remove_index (folders, i - 1);
      position = i - 1;
    }

  g_ptr_array_insert (folders, position, g_steal_pointer (&canonical));

  if (message != NULL && n_replaced == 1)
    *message = g_strdup_printf (_("Added in place of “%s”, which is inside it"), replaced);
  else if (message != NULL && n_replaced > 1)
    *message = g_strdup_printf (ngettext ("Added in place of %u folder inside it",
                                          "Added in place of %u folders inside it",
                                          n_replaced),
                                n_replaced);

  return TRUE;
}

/**
 * pal_folders_drop_inside:
 * @folders: (element-type utf8): the additional folders of a session
 * @project: the project folder, newly chosen
 * @message: (out) (optional) (nullable) (transfer full): which folders were
 *   dropped; %NULL when none
 *
 * Drops the additional folders that @project is or holds: the agent can use
 * them anyway.
 *
 * Returns: whether @folders changed
 */
gboolean
pal_folders_drop_inside (GPtrArray  *folders,
                         const char *project,
                         char      **message)
{
  g_autofree char *dropped = NULL;
  guint n_dropped = 0;

  g_return_val_if_fail (folders != NULL, FALSE);

  if (message != NULL)
    *message = NULL;

  for (guint i = folders->len; project != NULL && i > 0; i--)
    {
      const char *listed = g_ptr_array_index (folders, i - 1);

      if (!pal_folder_contains (project, listed))
        continue;

      g_free (dropped);
      dropped = shown (listed);
      n_dropped++;
      g_ptr_array_remove_index (folders, i - 1);
    }

  if (message != NULL && n_dropped == 1)
    *message = g_strdup_printf (_("Removed “%s”: the project folder holds it now"), dropped);
  else if (message != NULL && n_dropped > 1)
    *message = g_strdup_printf (ngettext ("Removed %u additional folder: the project folder "
                                          "holds it now",
                                          "Removed %u additional folders: the project folder "
                                          "holds them now",
                                          n_dropped),
                                n_dropped);

  return n_dropped > 0;
}
