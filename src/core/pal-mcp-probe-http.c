/* pal-mcp-probe-http.c: the MCP connection test over HTTP
 *
 * Streamable HTTP: each message is a POST; the answer to a request is the
 * body of its POST, either JSON or an event stream of JSON-RPC messages.
 * The transport object below speaks it, or the older HTTP+SSE transport
 * when made for it (pal-mcp-probe-sse.c). Both send their messages as POSTs
 * here and read the answers as exchanges (pal-mcp-probe-http-exchange.c).
 *
 * Either way answers come apart from their requests, so this transport
 * matches them by id itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-mcp-probe-http-private.h"

#define DELETE_TIMEOUT_MS 5000

static void pal_mcp_http_transport_iface_init (PalMcpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PalMcpHttpTransport, pal_mcp_http_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PAL_TYPE_MCP_TRANSPORT,
                                                      pal_mcp_http_transport_iface_init))

static gboolean
take_session_id (PalMcpHttpTransport  *self,
                 SoupMessage          *message,
                 GError              **error)
{
  const char *id = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                 "Mcp-Session-Id");

  if (id == NULL)
    return TRUE;

  for (const char *p = id; *p != '\0'; p++)
    if (*p < 0x21 || *p > 0x7E)
      {
        g_set_error_literal (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                             _("The server gave an invalid session id"));
        return FALSE;
      }

  if (*id == '\0' || strlen (id) > 1024)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                           _("The server gave an invalid session id"));
      return FALSE;
    }

  g_free (self->session_id);
  self->session_id = g_strdup (id);

  return TRUE;
}

static void
post_sent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Exchange *exchange = user_data;
  PalMcpHttpTransport *self = exchange->self;
  GError *error = NULL;
  guint status;

  exchange->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (_pal_mcp_http_is_over (self))
    {
      g_clear_error (&error);
      _pal_mcp_http_exchange_free (exchange);
      return;
    }

  if (exchange->stream == NULL)
    {
      if (exchange->kind != KIND_RESPONSE)
        {
          _pal_mcp_http_exchange_fail_transfer (exchange, error);
          return;
        }
      g_debug ("Could not send an answer to the MCP server: %s", error->message);
      g_error_free (error);
      _pal_mcp_http_exchange_free (exchange);
      return;
    }

  status = soup_message_get_status (exchange->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      if (exchange->kind == KIND_RESPONSE)
        {
          g_debug ("The MCP server refused our answer with status %u", status);
          _pal_mcp_http_exchange_free (exchange);
          return;
        }

      _pal_mcp_http_read_error_body (exchange);
      return;
    }

  if (exchange->kind != KIND_CALL || self->legacy)
    {
      /* Only acknowledged; any answer comes on the event stream. */
      if (exchange->task != NULL)
        {
          g_task_return_pointer (exchange->task, NULL, NULL);
          g_clear_object (&exchange->task);
        }
      _pal_mcp_http_exchange_free (exchange);
      return;
    }

  if (g_str_equal (exchange->method, "initialize") &&
      !take_session_id (self, exchange->message, &error))
    {
      _pal_mcp_http_exchange_fail (exchange, error);
      return;
    }

  if (status == SOUP_STATUS_ACCEPTED || status == SOUP_STATUS_NO_CONTENT)
    {
      _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                          _("The server accepted “%s” without answering it"),
                                          exchange->method);
      return;
    }

  if (_pal_mcp_http_is_content_type (exchange->message, "text/event-stream"))
    {
      exchange->mode = READ_EVENTS;
      exchange->parser = pal_sse_parser_new ();
    }
  else if (_pal_mcp_http_is_content_type (exchange->message, "application/json") ||
                         _pal_mcp_http_get_content_type (exchange->message) == NULL)
    {
      exchange->mode = READ_JSON;
      exchange->body = g_byte_array_new ();
    }
  else
    {
      g_autofree char *type =
        _pal_mcp_probe_excerpt (_pal_mcp_http_get_content_type (exchange->message), -1, 60);

      _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                          _("The server answered with “%s” content instead "
                                            "of JSON or an event stream"),
                                          type);
      return;
    }

  _pal_mcp_http_exchange_read (exchange);
}

void
_pal_mcp_http_send_exchange (Exchange *exchange)
{
  PalMcpHttpTransport *self = exchange->self;
  SoupMessageHeaders *headers;

  exchange->message = _pal_mcp_http_new_message (self, SOUP_METHOD_POST,
                                                 self->legacy ? self->endpoint : self->uri);
  headers = soup_message_get_request_headers (exchange->message);
  soup_message_set_request_body_from_bytes (exchange->message, "application/json", exchange->text);

  if (!self->legacy)
    {
      soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
      if (self->session_id != NULL)
        soup_message_headers_replace (headers, "Mcp-Session-Id", self->session_id);
      if (self->protocol_version != NULL)
        soup_message_headers_replace (headers, "MCP-Protocol-Version", self->protocol_version);
    }

  soup_session_send_async (self->session, exchange->message, G_PRIORITY_DEFAULT,
                           exchange->cancellable, post_sent_cb, exchange);
}

/* Sends @exchange (taken), or keeps it until the server named where to. */
void
_pal_mcp_http_post (PalMcpHttpTransport *self,
                    Exchange            *exchange)
{
  if (!self->legacy || self->endpoint != NULL)
    {
      _pal_mcp_http_send_exchange (exchange);
      return;
    }

  g_ptr_array_add (self->waiting, exchange);
  if (!self->listening)
    _pal_mcp_sse_listen (self);
}

/* ------------------------------------------------------------------------ */
/* Ending the session                                                        */

typedef struct
{
  SoupSession  *session;
  GCancellable *cancellable;
  GSource      *timeout_source;
} Deletion;

static void
deletion_free (Deletion *deletion)
{
  g_source_destroy (deletion->timeout_source);
  g_source_unref (deletion->timeout_source);
  g_object_unref (deletion->cancellable);
  g_object_unref (deletion->session);
  g_free (deletion);
}

static gboolean
deletion_timeout_cb (gpointer user_data)
{
  Deletion *deletion = user_data;

  g_cancellable_cancel (deletion->cancellable);

  return G_SOURCE_REMOVE;
}

static void
delete_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Deletion *deletion = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    g_debug ("Could not end the MCP session: %s", error->message);
  else
    {
      g_debug ("The MCP server answered the end of the session with %u",
               soup_message_get_status (message));
      _pal_mcp_http_close_stream (stream);
    }

  deletion_free (deletion);
}

static void
end_session (PalMcpHttpTransport *self)
{
  g_autoptr(SoupMessage) message = NULL;
  Deletion *deletion;

  if (self->legacy || self->session_id == NULL)
    return;

  message = _pal_mcp_http_new_message (self, SOUP_METHOD_DELETE, self->uri);
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "Mcp-Session-Id", self->session_id);
  if (self->protocol_version != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "MCP-Protocol-Version", self->protocol_version);

  deletion = g_new0 (Deletion, 1);
  deletion->session = g_object_ref (self->session);
  deletion->cancellable = g_cancellable_new ();
  deletion->timeout_source = g_timeout_source_new (DELETE_TIMEOUT_MS);
  g_source_set_static_name (deletion->timeout_source, "[palaver] mcp session end");
  g_source_set_callback (deletion->timeout_source, deletion_timeout_cb, deletion, NULL);
  g_source_attach (deletion->timeout_source, g_main_context_get_thread_default ());

  soup_session_send_async (self->session, message, G_PRIORITY_DEFAULT,
                           deletion->cancellable, delete_sent_cb, deletion);
}

/* ------------------------------------------------------------------------ */
/* The transport                                                             */

static void
pal_mcp_http_transport_send_async (PalMcpTransport     *transport,
                                   const char          *method,
                                   JsonNode            *params,
                                   gboolean             notification,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  PalMcpHttpTransport *self = PAL_MCP_HTTP_TRANSPORT (transport);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  JsonObject *message = _pal_mcp_http_new_rpc_message ();
  g_autoptr(GBytes) text = NULL;
  Exchange *exchange;

  g_task_set_source_tag (task, pal_mcp_http_transport_send_async);

  if (self->closed)
    {
      g_task_return_error (task, _pal_mcp_http_new_closed_error ());
      g_object_unref (task);
      json_object_unref (message);
      return;
    }

  if (!notification)
    json_object_set_int_member (message, "id", self->next_id);
  json_object_set_string_member (message, "method", method);
  if (params != NULL)
    json_object_set_member (message, "params", json_node_copy (params));
  text = _pal_mcp_http_serialize (message);

  exchange = _pal_mcp_http_exchange_new (self, notification ? KIND_NOTIFICATION : KIND_CALL,
                                         method, text, cancellable);
  if (notification)
    exchange->task = task;  /* fails as closed if the exchange ends unanswered */
  else
    {
      exchange->id = self->next_id++;
      g_hash_table_insert (self->calls, g_memdup2 (&exchange->id, sizeof exchange->id), task);
    }

  _pal_mcp_http_post (self, exchange);
}

static void
pal_mcp_http_transport_set_protocol_version (PalMcpTransport *transport,
                                             const char      *version)
{
  PalMcpHttpTransport *self = PAL_MCP_HTTP_TRANSPORT (transport);

  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
}

static void
pal_mcp_http_transport_close (PalMcpTransport *transport)
{
  PalMcpHttpTransport *self = PAL_MCP_HTTP_TRANSPORT (transport);
  GList *tasks;

  if (self->closed)
    return;

  self->closed = TRUE;
  end_session (self);

  g_ptr_array_set_size (self->waiting, 0);
  tasks = g_hash_table_get_values (self->calls);
  g_hash_table_remove_all (self->calls);
  for (GList *l = tasks; l != NULL; l = l->next)
    {
      g_task_return_error (l->data, _pal_mcp_http_new_closed_error ());
      g_object_unref (l->data);
    }
  g_list_free (tasks);

  /* The event stream and our answers; the rest stop with their own
   * cancellables. */
  g_cancellable_cancel (self->cancellable);
}

static void
pal_mcp_http_transport_iface_init (PalMcpTransportInterface *iface)
{
  iface->send_async = pal_mcp_http_transport_send_async;
  iface->set_protocol_version = pal_mcp_http_transport_set_protocol_version;
  iface->close = pal_mcp_http_transport_close;
}

static void
pal_mcp_http_transport_dispose (GObject *object)
{
  PalMcpHttpTransport *self = PAL_MCP_HTTP_TRANSPORT (object);

  pal_mcp_http_transport_close (PAL_MCP_TRANSPORT (self));

  G_OBJECT_CLASS (pal_mcp_http_transport_parent_class)->dispose (object);
}

static void
pal_mcp_http_transport_finalize (GObject *object)
{
  PalMcpHttpTransport *self = PAL_MCP_HTTP_TRANSPORT (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->endpoint, g_uri_unref);
  g_strfreev (self->header_names);
  g_strfreev (self->header_values);
  g_free (self->session_id);
  g_free (self->protocol_version);
  g_ptr_array_unref (self->waiting);
  g_hash_table_unref (self->calls);
  g_object_unref (self->cancellable);

  G_OBJECT_CLASS (pal_mcp_http_transport_parent_class)->finalize (object);
}

static void
pal_mcp_http_transport_class_init (PalMcpHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_mcp_http_transport_dispose;
  object_class->finalize = pal_mcp_http_transport_finalize;
}

static void
pal_mcp_http_transport_init (PalMcpHttpTransport *self)
{
  self->next_id = 1;
  self->calls = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->waiting = g_ptr_array_new_with_free_func ((GDestroyNotify) _pal_mcp_http_exchange_free);
  self->cancellable = g_cancellable_new ();
}

/* ------------------------------------------------------------------------ */
/* Starting                                                                  */

/* Checks the address and headers and makes the transport (nothing is sent
 * yet). */
static PalMcpHttpTransport *
pal_mcp_http_transport_new (SoupSession         *session,
                            gboolean             legacy,
                            const char          *url,
                            const char * const  *header_names,
                            const char * const  *header_values,
                            GError             **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *trimmed = g_strstrip (g_strdup (url));
  PalMcpHttpTransport *self;

  if (*trimmed == '\0')
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID, _("No address to connect to"));
      return NULL;
    }

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri == NULL)
    {
      g_autofree char *shown = _pal_mcp_probe_excerpt (url, -1, 200);

      g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                   _("“%s” is not a valid address"), shown);
      return NULL;
    }

  if ((g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") != 0 &&
       g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0) ||
      g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    {
      g_autofree char *shown = _pal_mcp_probe_excerpt (url, -1, 200);

      g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                   _("“%s” is not an http:// or https:// address"), shown);
      return NULL;
    }

  if (!_pal_mcp_probe_check_headers (header_names, header_values, error))
    return NULL;

  self = g_object_new (PAL_TYPE_MCP_HTTP_TRANSPORT, NULL);
  self->session = g_object_ref (session);
  self->legacy = legacy;
  self->uri = g_steal_pointer (&uri);
  self->header_names = g_strdupv ((char **) header_names);
  self->header_values = g_strdupv ((char **) header_values);

  return self;
}

void
_pal_mcp_http_probe (gpointer             source_tag,
                     gboolean             legacy,
                     SoupSession         *session,
                     const char          *url,
                     const char * const  *header_names,
                     const char * const  *header_values,
                     guint                timeout_ms,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(PalMcpHttpTransport) transport = NULL;
  GError *error = NULL;
  PalMcpProbe *probe;

  task = _pal_mcp_probe_new_task (source_tag, timeout_ms, cancellable, callback, user_data);
  probe = _pal_mcp_probe_from_task (task);

  transport = pal_mcp_http_transport_new (session, legacy, url, header_names, header_values,
                                          &error);
  if (transport == NULL)
    {
      _pal_mcp_probe_fail (probe, error);
      return;
    }

  if (g_cancellable_is_cancelled (cancellable))
    return;  /* the cancelled source completes the task */

  _pal_mcp_probe_run (probe, PAL_MCP_TRANSPORT (transport));
}

/**
 * pal_mcp_probe_http_async:
 * @session: the session to send requests with
 * @url: the server's address
 * @header_names: (nullable): headers to send with every request
 * @header_values: (nullable): their values, as many
 * @timeout_ms: the limit for the whole exchange, 0 for the default
 * @cancellable: (nullable): a cancellable
 * @callback: called when the test is over
 * @user_data: data for @callback
 *
 * Runs initialize and tools/list over streamable HTTP, then ends the
 * session (DELETE) if the server gave one. Finish with
 * pal_mcp_probe_finish().
 */
void
pal_mcp_probe_http_async (SoupSession         *session,
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

  _pal_mcp_http_probe (pal_mcp_probe_http_async, FALSE, session, url, header_names, header_values,
                       timeout_ms, cancellable, callback, user_data);
}
