/* acp-fs-access-request-private.h: internals shared with AcpFsService
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-fs-access-request.h"

G_BEGIN_DECLS

/* Called once, with the first answer (FALSE when the request is dropped
 * unanswered). */
typedef void (*AcpFsAccessAnswerFunc) (gboolean allowed,
                                       gpointer user_data);

/* @agent is nullable for tests that play the service. */
AcpFsAccessRequest *_acp_fs_access_request_new (AcpAgent              *agent,
                                                const char            *session_id,
                                                const char            *requested_path,
                                                const char            *path,
                                                gboolean               write,
                                                GCancellable          *cancellable,
                                                AcpFsAccessAnswerFunc  func,
                                                gpointer               user_data);

G_END_DECLS
