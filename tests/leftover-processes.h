/* leftover-processes.h: finding what is left of a stopped agent, for the
 * tests that run real agents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What an agent starts (the program it wraps, MCP servers, shell commands) may
 * outlive it. The test process makes itself a child subreaper, so that such
 * orphans become its own children instead of init's: every process whose
 * ancestry leads to the test process, or whose process group is the agent's,
 * is then something the test started, directly or not. Reads /proc (Linux).
 */

#pragma once

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib-unix.h>

typedef struct
{
  pid_t pid;
  pid_t ppid;
  pid_t pgid;
  char  state;
} ProcEntry;

/* Makes orphaned descendants children of this process. */
static inline void
become_subreaper (void)
{
  g_assert_cmpint (prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), ==, 0);
}

static inline gboolean
read_proc_entry (pid_t      pid,
                 ProcEntry *entry)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *contents = NULL;
  const char *after_name;
  int ppid, pgid;
  char state;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  /* "pid (comm) state ppid pgrp ...": comm may hold anything, even ")" */
  after_name = strrchr (contents, ')');
  if (after_name == NULL || sscanf (after_name + 1, " %c %d %d", &state, &ppid, &pgid) != 3)
    return FALSE;

  entry->pid = pid;
  entry->ppid = ppid;
  entry->pgid = pgid;
  entry->state = state;

  return TRUE;
}

/* Every process there is now, pid → ProcEntry */
static inline GHashTable *
list_processes (void)
{
  GHashTable *table = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      ProcEntry entry;
      guint64 pid;

      if (!g_ascii_string_to_unsigned (name, 10, 1, G_MAXINT, &pid, NULL))
        continue;
      if (read_proc_entry ((pid_t) pid, &entry))
        g_hash_table_insert (table, GINT_TO_POINTER (entry.pid), g_memdup2 (&entry, sizeof entry));
    }

  return table;
}

/* Whether @pid descends from @ancestor without passing through one of
 * @excluded (the test's own servers, which are not the agent's) */
static inline gboolean
descends_from (GHashTable  *table,
               pid_t        pid,
               pid_t        ancestor,
               const pid_t *excluded,
               guint        n_excluded)
{
  for (guint depth = 0; depth < 1024; depth++)
    {
      ProcEntry *entry = g_hash_table_lookup (table, GINT_TO_POINTER (pid));

      for (guint i = 0; i < n_excluded; i++)
        if (excluded[i] == pid)
          return FALSE;
      if (entry == NULL || entry->ppid <= 1)
        return FALSE;
      if (entry->ppid == ancestor)
        return TRUE;
      pid = entry->ppid;
    }

  return FALSE;
}

/* The processes (not zombies) in the group @pgid (unless 0), or descending
 * from this process but not through @excluded. */
static inline GArray *
find_descendants (pid_t        pgid,
                  const pid_t *excluded,
                  guint        n_excluded)
{
  g_autoptr(GHashTable) table = list_processes ();
  GArray *found = g_array_new (FALSE, FALSE, sizeof (pid_t));
  GHashTableIter iter;
  gpointer value;
  pid_t self = getpid ();

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      ProcEntry *entry = value;

      if (entry->pid == self || entry->state == 'Z' || entry->state == 'X')
        continue;
      if ((pgid != 0 && entry->pgid == pgid) ||
          descends_from (table, entry->pid, self, excluded, n_excluded))
        g_array_append_val (found, entry->pid);
    }

  return found;
}

/* The command line of @pid, for messages */
static inline char *
describe_process (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, NULL) || length == 0)
    return g_strdup_printf ("%d (gone)", (int) pid);

  for (gsize i = 0; i + 1 < length; i++)
    if (contents[i] == '\0')
      contents[i] = ' ';

  return g_strdup_printf ("%d %s", (int) pid, contents);
}

/* Reaps the zombie children of this process that nobody else waits for:
 * orphans handed to the subreaper. @keep are children GLib watches. */
static inline void
reap_orphans (const pid_t *keep,
              guint        n_keep)
{
  g_autoptr(GHashTable) table = list_processes ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      ProcEntry *entry = value;
      gboolean kept = FALSE;

      for (guint i = 0; i < n_keep; i++)
        kept |= keep[i] == entry->pid;
      if (entry->ppid == getpid () && entry->state == 'Z' && !kept)
        waitpid (entry->pid, NULL, WNOHANG);
    }
}

typedef struct
{
  guint n_running;
  guint timeout_id;
} ExitWait;

static inline gboolean
process_exited_cb (int          fd,
                   GIOCondition condition,
                   gpointer     user_data)
{
  ExitWait *wait = user_data;

  wait->n_running--;
  close (fd);

  return G_SOURCE_REMOVE;
}

static inline gboolean
exit_wait_timeout_cb (gpointer user_data)
{
  ExitWait *wait = user_data;

  wait->timeout_id = 0;

  return G_SOURCE_REMOVE;
}

/* Runs the main loop until every process of @pids has exited, or for
 * @seconds at most. Waits on the exits (pidfds), never polls. Returns the
 * pids still running. */
static inline GArray *
wait_for_exits (GArray *pids,
                guint   seconds)
{
  ExitWait wait = { 0 };
  g_autoptr(GArray) watched = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autoptr(GArray) fds = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) sources = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *running = g_array_new (FALSE, FALSE, sizeof (pid_t));

  for (guint i = 0; i < pids->len; i++)
    {
      pid_t pid = g_array_index (pids, pid_t, i);
      int fd = (int) syscall (SYS_pidfd_open, pid, 0);
      guint id;

      if (fd < 0)
        {
          g_assert_cmpint (errno, ==, ESRCH);   /* gone already */
          continue;
        }
      id = g_unix_fd_add (fd, G_IO_IN, process_exited_cb, &wait);
      g_array_append_val (watched, pid);
      g_array_append_val (fds, fd);
      g_array_append_val (sources, id);
      wait.n_running++;
    }

  if (wait.n_running > 0)
    {
      wait.timeout_id = g_timeout_add_seconds (seconds, exit_wait_timeout_cb, &wait);
      while (wait.n_running > 0 && wait.timeout_id != 0)
        g_main_context_iteration (NULL, TRUE);
      g_clear_handle_id (&wait.timeout_id, g_source_remove);
    }

  /* what did not exit still has its source */
  for (guint i = 0; i < sources->len; i++)
    {
      guint id = g_array_index (sources, guint, i);
      GSource *source = g_main_context_find_source_by_id (NULL, id);

      if (source == NULL || g_source_is_destroyed (source))
        continue;
      g_array_append_val (running, g_array_index (watched, pid_t, i));
      g_source_remove (id);
      close (g_array_index (fds, int, i));
    }

  return running;
}
