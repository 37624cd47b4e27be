/* pal-mcp-transport.h: how the MCP connection test reaches a server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PAL_TYPE_MCP_TRANSPORT (pal_mcp_transport_get_type ())

G_DECLARE_INTERFACE (PalMcpTransport, pal_mcp_transport, PAL, MCP_TRANSPORT, GObject)

/*
 * PalMcpTransport: carries JSON-RPC between the MCP connection test
 * (pal-mcp-probe.c) and one server. stdio goes through an AcpConnection;
 * streamable HTTP and the older HTTP+SSE match answers to requests
 * themselves.
 *
 * send_async: sends a request, or with @notification a notification, and
 * completes with a GTask whose pointer is the request's result (a JsonNode,
 * transfer full; NULL for a notification) or an error: a JSON-RPC error
 * answer is a remote ACP_ERROR (acp_error_is_remote()), an answer of the
 * wrong shape ACP_ERROR_INVALID_MESSAGE, and ACP_ERROR_CLOSED means the
 * transport ended ("failed" tells why, if it was not closed on purpose). A
 * notification completes once the server took it, or once it is queued
 * behind the messages before it where the transport keeps their order.
 * @params is transfer none; NULL sends none. Cancelling stops what the
 * request still has in flight; closing ends every request.
 *
 * Requests of the server are answered by the transport: ping with an empty
 * result, anything else with -32601, as a client offering no features.
 *
 * set_protocol_version: the version agreed in initialize, for transports
 * that send it along (nullable). explain: adds what the transport knows to
 * the message of an error, such as a process's error output; NULL when it
 * knows nothing (nullable). close: stops everything (the process, the
 * streams, the HTTP session); requests still pending fail with
 * ACP_ERROR_CLOSED.
 *
 * Signals:
 *   "failed" (const GError *error): the transport broke (the server exited,
 *     wrote what is not MCP, closed its event stream, answered with an HTTP
 *     error). At most once, and never after close.
 */
struct _PalMcpTransportInterface
{
  GTypeInterface parent_iface;

  void     (*send_async)           (PalMcpTransport     *self,
                                    const char          *method,
                                    JsonNode            *params,
                                    gboolean             notification,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
  void     (*set_protocol_version) (PalMcpTransport     *self,
                                    const char          *version);
  char    *(*explain)              (PalMcpTransport     *self,
                                    const char          *message);
  void     (*close)                (PalMcpTransport     *self);
};

void      pal_mcp_transport_send_async           (PalMcpTransport     *self,
                                                  const char          *method,
                                                  JsonNode            *params,
                                                  gboolean             notification,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
JsonNode *pal_mcp_transport_send_finish          (PalMcpTransport     *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
void      pal_mcp_transport_set_protocol_version (PalMcpTransport     *self,
                                                  const char          *version);
char     *pal_mcp_transport_explain              (PalMcpTransport     *self,
                                                  const char          *message);
void      pal_mcp_transport_close                (PalMcpTransport     *self);

/* For implementations: emits "failed". */
void      pal_mcp_transport_emit_failed          (PalMcpTransport     *self,
                                                  const GError        *error);

G_END_DECLS
