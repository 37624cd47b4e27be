/* acp-fs-service.h: the fs/ requests of agents, confined to their folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-agent.h"
#include "acp-fs-access-request.h"

G_BEGIN_DECLS

/*
 * AcpFsService answers fs/read_text_file and fs/write_text_file for the
 * agents it is attached to. It answers only the methods the agent was told
 * about (ACP_CLIENT_CAP_FS_READ, ACP_CLIENT_CAP_FS_WRITE in
 * acp_agent_set_client_capabilities()); anything else gets -32601.
 *
 * Confinement: each session has a list of folders (its cwd and additional
 * directories, acp_fs_service_set_roots()). A session is the pair (agent,
 * session id): two agents may use the same id, and each reaches only the
 * folders of its own session. The requested path must be
 * absolute; it is made canonical ("." and ".." resolved, and every symbolic
 * link of the part that exists followed), and must then lie in one of the
 * (equally canonical) folders. A symbolic link inside a folder that points
 * outside therefore counts as outside. For a path outside, "access-request"
 * is emitted and the application decides; with no handler it is refused.
 *
 * Reads happen in a worker thread: `line` (1-based) and `limit` select lines
 * (line endings are kept); the file must be a regular file no larger than
 * "max-file-size" and the returned text valid UTF-8 without NUL bytes.
 * Writes are atomic (a temporary file renamed over the old one, which keeps
 * the old file's mode) and create missing parent folders, but only inside a
 * session folder. The exception is GLib's: a file with several hard links
 * is rewritten in place, so that the links keep sharing it.
 *
 * Errors sent to the agent (message always names the path; data is
 * {"path": canonical path} where one is known):
 *   -32002 resource not found: the file, or the folder to write into, does
 *          not exist;
 *   -32602 invalid params: malformed params, a relative path, a path outside
 *          the session folders that was not allowed, a folder or special
 *          file, a file over the size cap, content that is not UTF-8 text,
 *          or permission denied by the system;
 *   -32603 internal error: any other I/O failure (disk full, I/O error...);
 *   -32800 request cancelled: the agent cancelled, or the connection closed.
 *
 * Signal:
 *   "access-request" (const char *session_id, const char *path,
 *     gboolean write, AcpFsAccessRequest *request) → gboolean: a path
 *     outside the session folders (the session's agent:
 *     acp_fs_access_request_get_agent()). Answer with
 *     acp_fs_access_request_allow() or _deny() and return TRUE, or keep a
 *     reference, return TRUE and answer later (e.g. after asking the
 *     person). An unanswered request is denied when its last reference
 *     goes. Returning FALSE passes it on to the next handler; when none
 *     takes it, access is denied.
 * Property: "max-file-size" (guint64, default
 *   ACP_FS_SERVICE_DEFAULT_MAX_FILE_SIZE).
 */

#define ACP_FS_SERVICE_DEFAULT_MAX_FILE_SIZE ((guint64) 50 * 1024 * 1024)

#define ACP_TYPE_FS_SERVICE (acp_fs_service_get_type ())

G_DECLARE_FINAL_TYPE (AcpFsService, acp_fs_service, ACP, FS_SERVICE, GObject)

AcpFsService *acp_fs_service_new               (void);

/* Starts (stops) answering the fs/ requests of @agent. The service does not
 * keep the agent alive. */
void          acp_fs_service_attach            (AcpFsService       *self,
                                                AcpAgent           *agent);
void          acp_fs_service_detach            (AcpFsService       *self,
                                                AcpAgent           *agent);

/* The folders of a session, the pair (@agent, @session_id); the agent is an
 * identity only: it is not kept, and may have exited. Absolute paths
 * (others are ignored); NULL or an empty list forgets the session: all its
 * requests then need access-request. */
void          acp_fs_service_set_roots         (AcpFsService       *self,
                                                AcpAgent           *agent,
                                                const char         *session_id,
                                                const char * const *roots);
/* (transfer full) (nullable): the folders as set */
char        **acp_fs_service_dup_roots         (AcpFsService       *self,
                                                AcpAgent           *agent,
                                                const char         *session_id);

guint64       acp_fs_service_get_max_file_size (AcpFsService       *self);
void          acp_fs_service_set_max_file_size (AcpFsService       *self,
                                                guint64             max_file_size);

G_END_DECLS
