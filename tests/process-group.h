/* process-group.h: counting what runs of a process group, for the tests
 * that check that nothing of an agent is left behind
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdio.h>
#include <string.h>

#include <glib.h>

/* Returns: how many live processes (zombies aside: they only wait for their
 * parent to reap them) are in the process group @pgid. */
static inline guint
count_group (GPid pgid)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *end;
      char state;
      long ppid, pgrp;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      end = strrchr (stat, ')');
      if (end != NULL && sscanf (end + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3 &&
          pgrp == pgid && state != 'Z' && state != 'X')
        n++;
    }

  return n;
}

/* Returns: whether the process @pid runs (zombies aside) */
static inline gboolean
process_runs (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *end;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return FALSE;
  end = strrchr (stat, ')');

  return end != NULL && end[1] == ' ' && end[2] != 'Z' && end[2] != 'X';
}
