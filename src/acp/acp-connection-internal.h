/* acp-connection-internal.h: what the files of AcpConnection share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only for the connection's own files; tests use acp-connection-private.h.
 */

#pragma once

#include "acp-connection.h"

G_BEGIN_DECLS

/* acp-connection.c */

/* An error object; @data (transfer full) (nullable). Returns: (transfer full) */
JsonNode           *_acp_connection_new_error_node (int                 code,
                                                    const char         *text,
                                                    JsonNode           *data);
void                _acp_connection_reply          (AcpConnection      *self,
                                                    AcpIncomingRequest *request,
                                                    const char         *member,
                                                    JsonNode           *value);

/* acp-incoming-request.c */

AcpIncomingRequest *_acp_incoming_request_new      (AcpConnection      *connection,
                                                    const char         *method,
                                                    JsonNode           *id,
                                                    JsonNode           *params);
void                _acp_incoming_request_send     (AcpIncomingRequest *self,
                                                    const char         *member,
                                                    JsonNode           *value);
void                _acp_incoming_request_detach   (AcpIncomingRequest *self);

G_END_DECLS
