/* pal-program-lookup.c: where a command would run from, found off the main thread
 *
 * An editor checks the program as the person types it. Finding it means a
 * stat of every PATH directory, and telling whether it can run another one:
 * too slow for the main thread on a network home or a sleeping disk, so it
 * is done in a worker thread here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-program-lookup.h"

typedef struct
{
  char *command;
  /* PATH, read on the calling thread: getenv() is not safe while another
   * thread may call setenv() */
  char *path;
  char *found;
  gboolean executable;
} LookupData;

static void
lookup_data_free (gpointer data)
{
  LookupData *lookup = data;

  g_free (lookup->command);
  g_free (lookup->path);
  g_free (lookup->found);
  g_free (lookup);
}

static gboolean
is_executable (const char *file)
{
  return g_file_test (file, G_FILE_TEST_IS_EXECUTABLE) &&
         !g_file_test (file, G_FILE_TEST_IS_DIR);
}

/* Like g_find_program_in_path(), on @path. An element that is not an
 * absolute directory (the current directory) is skipped: Palaver's own
 * working directory means nothing to the person. */
static char *
find_in_path (const char   *path,
              const char   *program,
              GCancellable *cancellable)
{
  g_auto(GStrv) dirs = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *file = NULL;

      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (!g_path_is_absolute (dirs[i]))
        continue;

      file = g_build_filename (dirs[i], program, NULL);
      if (is_executable (file))
        return g_steal_pointer (&file);
    }

  return NULL;
}

static void
lookup_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LookupData *lookup = task_data;

  if (g_path_is_absolute (lookup->command))
    lookup->found = g_strdup (lookup->command);
  else if (*lookup->command != '\0' && strchr (lookup->command, '/') == NULL)
    lookup->found = find_in_path (lookup->path, lookup->command, cancellable);

  lookup->executable = lookup->found != NULL && is_executable (lookup->found);

  if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

/**
 * pal_program_lookup_async:
 * @command: a program as the person typed it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the calling thread's main context when done
 * @user_data: data for @callback
 *
 * Finds the program @command runs, in a worker thread, the way
 * pal_mcp_server_config_resolve_command() does: @command itself when it is
 * an absolute path, nothing for a relative path with a slash, else the
 * executable of that name in `PATH` (read now), and tells whether the
 * program found is an executable file on this computer.
 */
void
pal_program_lookup_async (const char          *command,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LookupData *lookup;
  const char *path;

  g_return_if_fail (command != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  /* as g_find_program_in_path() does, less the current directory */
  path = g_getenv ("PATH");
  if (path == NULL)
    path = "/bin:/usr/bin";

  lookup = g_new0 (LookupData, 1);
  lookup->command = g_strdup (command);
  lookup->path = g_strdup (path);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_program_lookup_async);
  g_task_set_task_data (task, lookup, lookup_data_free);
  g_task_run_in_thread (task, lookup_thread);
}

/**
 * pal_program_lookup_finish:
 * @result: the #GAsyncResult given to the callback
 * @out_path: (out) (transfer full) (optional) (nullable): the absolute path
 *   of the program, or %NULL when it was not found
 * @out_executable: (out) (optional): whether that is an executable file
 * @error: %G_IO_ERROR_CANCELLED when cancelled
 *
 * Returns: %TRUE when the lookup ran to its end (found or not)
 */
gboolean
pal_program_lookup_finish (GAsyncResult  *result,
                           char         **out_path,
                           gboolean      *out_executable,
                           GError       **error)
{
  LookupData *lookup;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_program_lookup_async,
                        FALSE);

  if (out_path != NULL)
    *out_path = NULL;
  if (out_executable != NULL)
    *out_executable = FALSE;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  lookup = g_task_get_task_data (G_TASK (result));
  if (out_path != NULL)
    *out_path = g_steal_pointer (&lookup->found);
  if (out_executable != NULL)
    *out_executable = lookup->executable;
  return TRUE;
}
