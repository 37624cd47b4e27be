/* pal-mcp-probe-sse.c: the MCP connection test over the older HTTP+SSE transport
 *
 * The older HTTP+SSE transport: a GET opens an event stream whose first
 * "endpoint" event names the address to POST messages to; POSTs are only
 * acknowledged, and the answers arrive as "message" events on the stream.
 *
 * The transport object is the one of pal-mcp-probe-http.c, made for this
 * transport; this file holds what only it does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-mcp-probe-http-private.h"

gboolean
_pal_mcp_sse_take_endpoint (Exchange    *exchange,
                            PalSseEvent *event)
{
  PalMcpHttpTransport *self = exchange->self;
  g_autoptr(GUri) endpoint = NULL;
  g_autofree gpointer *waiting = NULL;
  gsize n_waiting = 0;
  g_autofree char *shown = _pal_mcp_probe_excerpt (event->data, -1, 200);

  if (self->endpoint != NULL)
    return TRUE;

  endpoint = g_uri_parse_relative (self->uri, g_strstrip (event->data),
                                   SOUP_HTTP_URI_FLAGS, NULL);
  if (endpoint == NULL)
    {
      _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                          _("The server announced an invalid address to send "
                                            "messages to: “%s”"),
                                          shown);
      return FALSE;
    }

  /* Our headers (credentials, often) go only where the person sent them. */
  if (!_pal_mcp_http_same_origin (endpoint, self->uri))
    {
      _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                          _("The server announced an address on another host to "
                                            "send messages to: “%s”"),
                                          shown);
      return FALSE;
    }

  self->endpoint = g_steal_pointer (&endpoint);
  waiting = g_ptr_array_steal (self->waiting, &n_waiting);
  for (gsize i = 0; i < n_waiting; i++)
    _pal_mcp_http_send_exchange (waiting[i]);
  return TRUE;
}

static void
event_source_sent_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Exchange *exchange = user_data;
  GError *error = NULL;

  exchange->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (_pal_mcp_http_is_over (exchange->self))
    {
      g_clear_error (&error);
      _pal_mcp_http_exchange_free (exchange);
      return;
    }

  if (exchange->stream == NULL)
    {
      _pal_mcp_http_exchange_fail_transfer (exchange, error);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (exchange->message)))
    {
      _pal_mcp_http_read_error_body (exchange);
      return;
    }

  if (!_pal_mcp_http_is_content_type (exchange->message, "text/event-stream"))
    {
      const char *type = _pal_mcp_http_get_content_type (exchange->message);
      g_autofree char *shown = _pal_mcp_probe_excerpt (type != NULL ? type : "", -1, 60);

      _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                          _("The server did not answer with an event stream "
                                            "but with “%s” content; it may speak only "
                                            "streamable HTTP"),
                                          shown);
      return;
    }

  exchange->mode = READ_EVENT_SOURCE;
  exchange->parser = pal_sse_parser_new ();
  _pal_mcp_http_exchange_read (exchange);
}

/* legacy: the GET of the event stream, which names where to post */
void
_pal_mcp_sse_listen (PalMcpHttpTransport *self)
{
  Exchange *exchange = _pal_mcp_http_exchange_new (self, KIND_EVENT_SOURCE, NULL, NULL,
                                                   self->cancellable);
  SoupMessageHeaders *headers;

  self->listening = TRUE;
  exchange->message = _pal_mcp_http_new_message (self, SOUP_METHOD_GET, self->uri);
  headers = soup_message_get_request_headers (exchange->message);
  soup_message_headers_replace (headers, "Accept", "text/event-stream");
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_session_send_async (self->session, exchange->message, G_PRIORITY_DEFAULT,
                           exchange->cancellable, event_source_sent_cb, exchange);
}

/**
 * pal_mcp_probe_sse_async:
 * @session: the session to send requests with
 * @url: the address of the server's event stream
 * @header_names: (nullable): headers to send with every request
 * @header_values: (nullable): their values, as many
 * @timeout_ms: the limit for the whole exchange, 0 for the default
 * @cancellable: (nullable): a cancellable
 * @callback: called when the test is over
 * @user_data: data for @callback
 *
 * Runs initialize and tools/list over the older HTTP+SSE transport, then
 * closes the event stream. Messages are only sent to an address on the same
 * host and port as @url. Finish with pal_mcp_probe_finish().
 */
void
pal_mcp_probe_sse_async (SoupSession         *session,
                         const char          *url,
                         const char * const  *header_names,
                         const char * const  *header_values,
                         guint                timeout_ms,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  _pal_mcp_http_probe (pal_mcp_probe_sse_async, TRUE, session, url, header_names, header_values,
                       timeout_ms, cancellable, callback, user_data);
}
