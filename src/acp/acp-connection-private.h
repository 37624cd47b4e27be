/* acp-connection-private.h: internals of AcpConnection shared with tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-connection.h"

G_BEGIN_DECLS

gboolean _acp_connection_is_parsing (AcpConnection *self);

G_END_DECLS
