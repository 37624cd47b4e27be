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
