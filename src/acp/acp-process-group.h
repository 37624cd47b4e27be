/* acp-process-group.h: a child process with everything it starts, stopped
 * as one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* For g_subprocess_launcher_set_child_setup() and g_spawn_async*(): the child
 * leads a process group of its own, so that signalling the group reaches
 * every process it starts (unless one leaves the group on purpose), and it is
 * killed should this process die without stopping it. @user_data: the pid of
 * this process, GINT_TO_POINTER (getpid ()), taken before spawning. */
void     acp_process_group_child_setup (gpointer user_data);

/* The same for g_subprocess_launcher_set_child_setup(), which also tells
 * the child's pid: GSubprocess forgets it once GLib reaped the child, which
 * may be before g_subprocess_launcher_spawnv() even returns when the child
 * exits at once, but its group may still run. Initialise on the stack
 * (fails only when out of file descriptors), pass to
 * g_subprocess_launcher_set_child_setup() with acp_group_setup_run(), spawn,
 * then acp_group_setup_finish() returns the pid (0 if the spawn failed) and
 * frees what init took. */
typedef struct
{
  GPid parent;
  int  report[2];
} AcpGroupSetup;

gboolean acp_group_setup_init          (AcpGroupSetup  *setup,
                                        GError        **error);
void     acp_group_setup_run           (gpointer        setup);
GPid     acp_group_setup_finish        (AcpGroupSetup  *setup);

/* Sends @signum to every process of the group @pgid. Returns: whether the
 * group still had a process to receive it */
gboolean acp_process_group_signal      (GPid     pgid,
                                        int      signum);

/* Returns: whether any process of the group @pgid still runs (a zombie left
 * for its parent to reap does not) */
gboolean acp_process_group_alive       (GPid     pgid);

/* Ends what is left of the group @pgid once its leader exited: SIGTERM at
 * once, SIGKILL after @grace_ms, and completes when no process of it runs
 * any more (or, should one outlive SIGKILL as an unreaped zombie or in an
 * uninterruptible sleep, a while after it). Cancelling stops the waiting, not
 * the escalation. */
void     acp_process_group_end_async   (GPid                 pgid,
                                        guint                grace_ms,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean acp_process_group_end_finish  (GAsyncResult        *result,
                                        GError             **error);

G_END_DECLS
