/* acp-fs-access-request.h: the agent asks for a file outside its folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-agent.h"

G_BEGIN_DECLS

/*
 * AcpFsAccessRequest: handed to AcpFsService::access-request when an agent
 * wants to read or write a file outside every folder of its session. The
 * application decides (usually by asking the person), now or later, with
 * acp_fs_access_request_allow() or _deny(). The first answer counts; a
 * request that is dropped without an answer is denied. The cancellable is
 * cancelled when the agent no longer waits (it cancelled the request, or the
 * connection closed): a dialog showing the question should then go away.
 *
 * A session is named by its agent and its id together (two agents may use
 * the same id): "agent" is the agent that asks.
 *
 * Properties (read-only): "agent", "session-id", "path" (absolute and
 * canonical: ".." and symbolic links are resolved, so it names the file that
 * would really be touched), "write", "answered" (notifies).
 */

#define ACP_TYPE_FS_ACCESS_REQUEST (acp_fs_access_request_get_type ())

G_DECLARE_FINAL_TYPE (AcpFsAccessRequest, acp_fs_access_request, ACP, FS_ACCESS_REQUEST, GObject)

AcpAgent     *acp_fs_access_request_get_agent       (AcpFsAccessRequest *self);
const char   *acp_fs_access_request_get_session_id  (AcpFsAccessRequest *self);
const char   *acp_fs_access_request_get_path        (AcpFsAccessRequest *self);
const char   *acp_fs_access_request_get_requested_path (AcpFsAccessRequest *self);
gboolean      acp_fs_access_request_get_write       (AcpFsAccessRequest *self);
gboolean      acp_fs_access_request_get_answered    (AcpFsAccessRequest *self);
GCancellable *acp_fs_access_request_get_cancellable (AcpFsAccessRequest *self);
void          acp_fs_access_request_allow           (AcpFsAccessRequest *self);
void          acp_fs_access_request_deny            (AcpFsAccessRequest *self);

G_END_DECLS
