/* acp-process-group.c: a child process with everything it starts, stopped
 * as one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents are often launchers: an npm shim that starts node, node that starts
 * a native binary, a shell script without exec, and each of them may start
 * MCP servers of its own. Signalling the direct child alone leaves the rest
 * running with parent 1. Every such child leads a process group, and stopping
 * signals the group.
 *
 * The group id is the leader's pid. Linux does not hand out a pid that is
 * still some group's id, so the id stays the group's as long as one process
 * of it runs, even after the leader was reaped.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <glib-unix.h>

#include "acp-process-group.h"

/* How often the end of a group is looked for, and how long a group that
 * outlives SIGKILL is waited for before giving up. */
#define POLL_INTERVAL_US  (20 * G_TIME_SPAN_MILLISECOND)
#define AFTER_KILL_US     (2 * G_USEC_PER_SEC)

void
acp_process_group_child_setup (gpointer user_data)
{
  pid_t parent = GPOINTER_TO_INT (user_data);

  /* between fork and exec: async-signal-safe calls only */
  setpgid (0, 0);
#ifdef __linux__
  /* SIGKILL, not SIGTERM: a parent that died cannot run the escalation, and
   * some agents ignore SIGTERM */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
#endif
  /* the parent may have died before the line above */
  if (parent > 0 && getppid () != parent)
    _exit (127);
}

gboolean
acp_group_setup_init (AcpGroupSetup  *setup,
                      GError        **error)
{
  setup->parent = getpid ();
  setup->report[0] = setup->report[1] = -1;
  if (!g_unix_open_pipe (setup->report, FD_CLOEXEC, error) ||
      !g_unix_set_fd_nonblocking (setup->report[0], TRUE, error))
    {
      acp_group_setup_finish (setup);
      return FALSE;
    }

  return TRUE;
}

void
acp_group_setup_run (gpointer user_data)
{
  AcpGroupSetup *setup = user_data;
  pid_t pid = getpid ();

  acp_process_group_child_setup (GINT_TO_POINTER (setup->parent));
  /* GLib marks the descriptors close-on-exec in the child before this runs,
   * it does not close them; the pipe holds the few bytes without blocking */
  if (write (setup->report[1], &pid, sizeof pid) != sizeof pid)
    _exit (127);
}

GPid
acp_group_setup_finish (AcpGroupSetup *setup)
{
  pid_t pid = 0;

  /* the spawn returned once the child exec'd (or failed to), so what it
   * wrote is there */
  if (setup->report[0] >= 0 && read (setup->report[0], &pid, sizeof pid) != sizeof pid)
    pid = 0;

  if (setup->report[0] >= 0)
    close (setup->report[0]);
  if (setup->report[1] >= 0)
    close (setup->report[1]);
  setup->report[0] = setup->report[1] = -1;

  return pid;
}

gboolean
acp_process_group_signal (GPid pgid,
                          int  signum)
{
  if (pgid <= 1)
    return FALSE;

  if (kill (-pgid, signum) == 0)
    return TRUE;

  if (errno != ESRCH)
    g_debug ("Signalling process group %d: %s", (int) pgid, g_strerror (errno));

  return errno == EPERM;
}

/* Whether /proc/@name/stat is of a live process in group @pgid. */
static gboolean
is_live_member (const char *name,
                GPid        pgid)
{
  g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
  g_autofree char *contents = NULL;
  const char *after_comm;
  char state;
  long ppid, pgrp;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  /* "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses */
  after_comm = strrchr (contents, ')');
  if (after_comm == NULL || sscanf (after_comm + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3)
    return FALSE;

  return pgrp == pgid && state != 'Z' && state != 'X';
}

gboolean
acp_process_group_alive (GPid pgid)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!acp_process_group_signal (pgid, 0))
    return FALSE;

  /* kill() also finds zombies nobody reaped yet: look at each process */
  dir = g_dir_open ("/proc", 0, NULL);
  if (dir == NULL)
    return TRUE;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_ascii_isdigit (name[0]) && is_live_member (name, pgid))
      return TRUE;

  return FALSE;
}

typedef struct
{
  GPid  pgid;
  guint grace_ms;
} EndData;

static void
end_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  EndData *data = task_data;
  gint64 start = g_get_monotonic_time ();
  gint64 kill_at = start + (gint64) data->grace_ms * G_TIME_SPAN_MILLISECOND;
  gboolean killed = FALSE;

  /* A worker thread of its own: looking at /proc is I/O, and nothing tells
   * of the end of processes that are not our children but looking. */
  acp_process_group_signal (data->pgid, SIGTERM);
  while (acp_process_group_alive (data->pgid))
    {
      gint64 now = g_get_monotonic_time ();

      if (!killed && now >= kill_at)
        {
          g_debug ("Process group %d: still running after SIGTERM, sending SIGKILL",
                   (int) data->pgid);
          acp_process_group_signal (data->pgid, SIGKILL);
          killed = TRUE;
        }
      else if (killed && now >= kill_at + AFTER_KILL_US)
        {
          g_debug ("Process group %d: still there after SIGKILL, giving up", (int) data->pgid);
          break;
        }

      g_usleep (POLL_INTERVAL_US);
    }

  g_task_return_boolean (task, TRUE);
}

void
acp_process_group_end_async (GPid                 pgid,
                             guint                grace_ms,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  EndData *data;

  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_process_group_end_async);
  g_task_set_name (task, "[palaver] end process group");
  /* the escalation goes on in its thread; the caller stops waiting */
  g_task_set_return_on_cancel (task, TRUE);

  data = g_new0 (EndData, 1);
  data->pgid = pgid;
  data->grace_ms = grace_ms;
  g_task_set_task_data (task, data, g_free);

  g_task_run_in_thread (task, end_thread);
}

gboolean
acp_process_group_end_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_process_group_end_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
