/* acp-connection-private.h: internals of AcpConnection shared with tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-connection.h"

G_BEGIN_DECLS

/* The most one read asks for. */
#define ACP_CONNECTION_READ_CHUNK_SIZE     ((gsize) 64 * 1024)

/* Reading stops once this many bytes are read but not yet dispatched... */
#define ACP_CONNECTION_READ_AHEAD_MAX      ((gsize) 4 * 1024 * 1024)
/* ...and starts again once no more than this many are. */
#define ACP_CONNECTION_READ_AHEAD_RESUME   ((gsize) 1024 * 1024)

gboolean _acp_connection_is_parsing        (AcpConnection *self);
guint64  _acp_connection_get_n_buffered    (AcpConnection *self);
gboolean _acp_connection_is_throttled      (AcpConnection *self);
void     _acp_connection_set_dispatch_held (AcpConnection *self,
                                            gboolean       held);
guint    _acp_connection_get_n_workers     (void);

G_END_DECLS
