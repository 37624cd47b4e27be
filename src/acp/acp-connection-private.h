/* acp-connection-private.h: internals of AcpConnection shared with tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-connection.h"

G_BEGIN_DECLS

/* The most one read asks for. */
#define ACP_CONNECTION_READ_CHUNK_SIZE     ((gsize) 64 * 1024)

/* Parsed lines take some 15 times the memory of their text: the worker stops
 * reading and parsing once the lines parsed and not yet dispatched come to
 * this many bytes of input... */
#define ACP_CONNECTION_PARSE_AHEAD_MAX     ((gsize) 512 * 1024)
/* ...and goes on once they are down to this many. */
#define ACP_CONNECTION_PARSE_AHEAD_RESUME  ((gsize) 256 * 1024)

gboolean _acp_connection_is_parsing           (AcpConnection *self);
guint64  _acp_connection_get_n_read           (AcpConnection *self);
guint64  _acp_connection_get_n_parsed         (AcpConnection *self);
gboolean _acp_connection_has_read_to_end      (AcpConnection *self);
gboolean _acp_connection_is_throttled         (AcpConnection *self);
gboolean _acp_connection_is_waiting_for_frame (AcpConnection *self);
void     _acp_connection_set_dispatch_held    (AcpConnection *self,
                                               gboolean       held);
guint    _acp_connection_get_n_workers        (void);

G_END_DECLS
