/* pal-mcp-transport.c: how the MCP connection test reaches a server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-mcp-transport.h"

G_DEFINE_INTERFACE (PalMcpTransport, pal_mcp_transport, G_TYPE_OBJECT)

enum
{
  SIGNAL_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
pal_mcp_transport_default_init (PalMcpTransportInterface *iface)
{
  /**
   * PalMcpTransport::failed:
   * @self: the transport
   * @error: why
   *
   * The transport broke; emitted at most once, and never after it was
   * closed.
   */
  signals[SIGNAL_FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

/**
 * pal_mcp_transport_send_async:
 * @self: a #PalMcpTransport
 * @method: the method
 * @params: (nullable) (transfer none): the params
 * @notification: whether to send a notification rather than a request
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the answer, or once the server took the
 *   notification
 * @user_data: data for @callback
 *
 * Sends a request or a notification. Finish with
 * pal_mcp_transport_send_finish().
 */
void
pal_mcp_transport_send_async (PalMcpTransport     *self,
                              const char          *method,
                              JsonNode            *params,
                              gboolean             notification,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (PAL_IS_MCP_TRANSPORT (self));
  g_return_if_fail (method != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  PAL_MCP_TRANSPORT_GET_IFACE (self)->send_async (self, method, params, notification,
                                                  cancellable, callback, user_data);
}

/**
 * pal_mcp_transport_send_finish:
 * @self: a #PalMcpTransport
 * @result: the result given to the callback
 * @error: a place for the error
 *
 * Returns: (transfer full) (nullable): the `result` of the answer (a null
 *   node for null), or %NULL: for a notification, or with @error set
 */
JsonNode *
pal_mcp_transport_send_finish (PalMcpTransport  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (PAL_IS_MCP_TRANSPORT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * pal_mcp_transport_set_protocol_version:
 * @self: a #PalMcpTransport
 * @version: the version agreed in initialize: printable ASCII
 *
 * Tells the transport the version, for transports that send it along.
 */
void
pal_mcp_transport_set_protocol_version (PalMcpTransport *self,
                                        const char      *version)
{
  PalMcpTransportInterface *iface;

  g_return_if_fail (PAL_IS_MCP_TRANSPORT (self));
  g_return_if_fail (version != NULL);

  iface = PAL_MCP_TRANSPORT_GET_IFACE (self);
  if (iface->set_protocol_version != NULL)
    iface->set_protocol_version (self, version);
}

/**
 * pal_mcp_transport_explain:
 * @self: a #PalMcpTransport
 * @message: the message of an error
 *
 * Returns: (transfer full) (nullable): @message with what the transport
 *   knows about the failure added, or %NULL when it knows nothing
 */
char *
pal_mcp_transport_explain (PalMcpTransport *self,
                           const char      *message)
{
  PalMcpTransportInterface *iface;

  g_return_val_if_fail (PAL_IS_MCP_TRANSPORT (self), NULL);
  g_return_val_if_fail (message != NULL, NULL);

  iface = PAL_MCP_TRANSPORT_GET_IFACE (self);

  return iface->explain != NULL ? iface->explain (self, message) : NULL;
}

/**
 * pal_mcp_transport_close:
 * @self: a #PalMcpTransport
 *
 * Stops everything; requests still pending fail with %ACP_ERROR_CLOSED.
 */
void
pal_mcp_transport_close (PalMcpTransport *self)
{
  g_return_if_fail (PAL_IS_MCP_TRANSPORT (self));

  PAL_MCP_TRANSPORT_GET_IFACE (self)->close (self);
}

void
pal_mcp_transport_emit_failed (PalMcpTransport *self,
                               const GError    *error)
{
  g_return_if_fail (PAL_IS_MCP_TRANSPORT (self));
  g_return_if_fail (error != NULL);

  g_signal_emit (self, signals[SIGNAL_FAILED], 0, error);
}
