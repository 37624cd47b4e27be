/* acp-terminal-service.h: the terminal/ requests of agents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-agent.h"

G_BEGIN_DECLS

/*
 * AcpTerminalService answers terminal/create, terminal/output,
 * terminal/wait_for_exit, terminal/kill and terminal/release for the agents
 * it is attached to, when the agent was told about them
 * (ACP_CLIENT_CAP_TERMINAL in acp_agent_set_client_capabilities());
 * otherwise the agent gets -32601.
 *
 * terminal/create runs `command` with `args` in `cwd`
 * (absolute) or else the session's folder (acp_terminal_service_set_session_cwd()),
 * with the `env` entries added to the application's environment (and PWD
 * set to the folder). A command without args that contains a space or shell
 * syntax is a shell line (real agents send those) and runs as
 * `/bin/sh -c command`. stdin is /dev/null; stdout and stderr are captured
 * together. Each command runs in a process group of its own, so that a kill
 * reaches what it started too.
 *
 * Output: kept up to `outputByteLimit` bytes (default
 * ACP_TERMINAL_SERVICE_DEFAULT_OUTPUT_BYTE_LIMIT, at most
 * ACP_TERMINAL_SERVICE_MAX_OUTPUT_BYTE_LIMIT); beyond that the oldest output
 * is dropped, cut at a character boundary, and `truncated` becomes true.
 * The output is always valid UTF-8: invalid bytes become U+FFFD, and a
 * character split between two reads is joined first.
 *
 * The command counts as exited when the process has exited and its output
 * reached end of file (or, when something it started in the background
 * keeps the output open, shortly after the process exited).
 * terminal/wait_for_exit answers then (any number may wait);
 * terminal/kill sends SIGTERM to the process group, then SIGKILL after
 * "kill-grace-period" ms, and keeps the terminal; terminal/release does the
 * same and makes the id invalid for the agent. A released terminal keeps
 * its output for the application (an embedded terminal in a transcript stays
 * readable) until acp_terminal_service_forget_session() or
 * acp_terminal_service_forget_group_session().
 *
 * Terminal ids are "terminal-N" (N counts from 1 per service). A request
 * for an id that does not exist, was released, or belongs to another agent
 * or session gets -32002 (resource not found). Malformed params get -32602;
 * a command that cannot be started gets -32603 with the reason.
 *
 * Signals, for a view of a live embedded terminal:
 *   "terminal-output" (const char *terminal_id, const char *text): text
 *     (valid UTF-8) was appended to the output;
 *   "terminal-exited" (const char *terminal_id): the command has exited.
 * Properties: "kill-grace-period" (guint, ms, default 2000).
 */

#define ACP_TERMINAL_SERVICE_DEFAULT_OUTPUT_BYTE_LIMIT ((gsize) 1024 * 1024)
#define ACP_TERMINAL_SERVICE_MAX_OUTPUT_BYTE_LIMIT     ((gsize) 64 * 1024 * 1024)

#define ACP_TYPE_TERMINAL_SERVICE (acp_terminal_service_get_type ())

G_DECLARE_FINAL_TYPE (AcpTerminalService, acp_terminal_service, ACP, TERMINAL_SERVICE, GObject)

AcpTerminalService *acp_terminal_service_new                (void);

/* Starts answering the terminal/ requests of @agent; when the agent exits
 * all its terminals are released. Detaching releases them too. */
void                acp_terminal_service_attach             (AcpTerminalService *self,
                                                             AcpAgent           *agent);
void                acp_terminal_service_detach             (AcpTerminalService *self,
                                                             AcpAgent           *agent);
/* As attach; @group (nullable) names what the agent is one process of, in
 * the application's terms (an agent profile, say). Its terminals keep the
 * group after the agent is gone: see
 * acp_terminal_service_forget_group_session(). */
void                acp_terminal_service_attach_in_group    (AcpTerminalService *self,
                                                             AcpAgent           *agent,
                                                             const char         *group);

/* A session is the pair (agent, session id): two agents may use the same
 * id. The agent is an identity only: it is not kept, and may have exited. */

/* The folder commands of the session run in when the agent gives no cwd;
 * an absolute path, or NULL to forget it. */
void                acp_terminal_service_set_session_cwd    (AcpTerminalService *self,
                                                             AcpAgent           *agent,
                                                             const char         *session_id,
                                                             const char         *cwd);
/* The session ended: kill and release all its terminals (their output
 * stays available). */
void                acp_terminal_service_release_session    (AcpTerminalService *self,
                                                             AcpAgent           *agent,
                                                             const char         *session_id);
/* The session is gone for good: release its terminals, drop their output
 * and its folder. */
void                acp_terminal_service_forget_session     (AcpTerminalService *self,
                                                             AcpAgent           *agent,
                                                             const char         *session_id);

/* The same for the session of that id of every agent of @group, gone or
 * not: a session that ran on several processes (one crashed, another took
 * over) loses the terminals of all of them. */
void                acp_terminal_service_forget_group_session (AcpTerminalService *self,
                                                               const char         *group,
                                                               const char         *session_id);

/* For a view: the output kept so far (transfer full; NULL for an unknown
 * id), whether older output was dropped, and the exit status: -1 while the
 * command runs, its exit code once it exited, 128 + the signal number when
 * a signal ended it. Works for released terminals too. */
char               *acp_terminal_service_dup_output         (AcpTerminalService *self,
                                                             const char         *terminal_id,
                                                             gboolean           *truncated,
                                                             int                *exit_status);
/* (transfer full): the ids of the session's terminals the agent can still
 * use, oldest first */
char              **acp_terminal_service_dup_terminal_ids   (AcpTerminalService *self,
                                                             AcpAgent           *agent,
                                                             const char         *session_id);

guint               acp_terminal_service_get_kill_grace_period (AcpTerminalService *self);
void                acp_terminal_service_set_kill_grace_period (AcpTerminalService *self,
                                                                guint               grace_ms);

G_END_DECLS
