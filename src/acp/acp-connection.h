/* acp-connection.h: a JSON-RPC 2.0 peer over a GIOStream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-error.h"

G_BEGIN_DECLS

/* The default cap on the length of one incoming line (a message). */
#define ACP_CONNECTION_DEFAULT_MAX_LINE_LENGTH ((gsize) 64 * 1024 * 1024)

#define ACP_TYPE_INCOMING_REQUEST (acp_incoming_request_get_type ())

G_DECLARE_FINAL_TYPE (AcpIncomingRequest, acp_incoming_request, ACP, INCOMING_REQUEST, GObject)

const char *acp_incoming_request_get_method      (AcpIncomingRequest *self);
JsonNode   *acp_incoming_request_get_id          (AcpIncomingRequest *self);
JsonNode   *acp_incoming_request_get_params      (AcpIncomingRequest *self);
JsonObject *acp_incoming_request_get_params_object (AcpIncomingRequest *self);
gboolean    acp_incoming_request_get_answered    (AcpIncomingRequest *self);
GCancellable *acp_incoming_request_get_cancellable (AcpIncomingRequest *self);
void        acp_incoming_request_reply           (AcpIncomingRequest *self,
                                                  JsonNode           *result);
void        acp_incoming_request_reply_error     (AcpIncomingRequest *self,
                                                  const GError       *error);
void        acp_incoming_request_reply_error_literal (AcpIncomingRequest *self,
                                                  int                 code,
                                                  const char         *message);

#define ACP_TYPE_CONNECTION (acp_connection_get_type ())

G_DECLARE_FINAL_TYPE (AcpConnection, acp_connection, ACP, CONNECTION, GObject)

AcpConnection *acp_connection_new                 (GIOStream          *stream);
GIOStream     *acp_connection_get_stream          (AcpConnection      *self);
gsize          acp_connection_get_max_line_length (AcpConnection      *self);
void           acp_connection_set_max_line_length (AcpConnection      *self,
                                                   gsize               max_line_length);
void           acp_connection_start               (AcpConnection      *self);
gboolean       acp_connection_is_closed           (AcpConnection      *self);
void           acp_connection_close               (AcpConnection      *self,
                                                   const GError       *reason);

void           acp_connection_call_async          (AcpConnection      *self,
                                                   const char         *method,
                                                   JsonNode           *params,
                                                   GCancellable       *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer            user_data);
JsonNode      *acp_connection_call_finish         (AcpConnection      *self,
                                                   GAsyncResult       *result,
                                                   GError            **error);
gboolean       acp_connection_notify              (AcpConnection      *self,
                                                   const char         *method,
                                                   JsonNode           *params,
                                                   GError            **error);
void           acp_connection_flush_async         (AcpConnection      *self,
                                                   GCancellable       *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer            user_data);
gboolean       acp_connection_flush_finish        (AcpConnection      *self,
                                                   GAsyncResult       *result,
                                                   GError            **error);

G_END_DECLS
