/* pal-path.c: file paths as a person reads them
 *
 * Agents name files by absolute paths, and most are in the project folder
 * the person chose: shown relative to it, they read as in an editor's file
 * tree. Others are shown from the home folder (~/…) or as they are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-path.h"

/* The part of @path below @folder, or NULL when it is not below it. Both
 * are compared as written: an agent gives the paths it was given. */
static const char *
below (const char *path,
       const char *folder)
{
  gsize len;

  if (folder == NULL || folder[0] != '/')
    return NULL;

  len = strlen (folder);
  while (len > 1 && folder[len - 1] == '/')
    len--;
  if (len == 1)
    return NULL; /* everything is below "/": nothing to shorten */

  if (strncmp (path, folder, len) != 0 || path[len] != '/')
    return NULL;

  path += len;
  while (*path == '/')
    path++;

  return *path != '\0' ? path : NULL;
}

/**
 * pal_path_display:
 * @path: (nullable): a path an agent gave
 * @folder: (nullable): the session's project folder
 * @home: (nullable): the home folder, usually g_get_home_dir()
 *
 * Returns: (transfer full) (nullable): @path relative to @folder when it is
 *   below it, else from @home as "~/…" when below that, else @path itself;
 *   %NULL for %NULL
 */
char *
pal_path_display (const char *path,
                  const char *folder,
                  const char *home)
{
  const char *rest;

  if (path == NULL)
    return NULL;

  if ((rest = below (path, folder)) != NULL)
    return g_strdup (rest);

  if ((rest = below (path, home)) != NULL)
    return g_strconcat ("~/", rest, NULL);

  return g_strdup (path);
}
