/* pal-mcp-probe-http-exchange.c: one HTTP request of an MCP transport
 *
 * An exchange is one HTTP request in flight and the reading of its answer:
 * a JSON body, an event stream, or the body of an error status, which is
 * put in words along with failures of the transfer itself. Both HTTP
 * transports (pal-mcp-probe-http.c, pal-mcp-probe-sse.c) send and read
 * their requests as exchanges.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-error.h"
#include "pal-error.h"
#include "pal-mcp-probe-http-private.h"

#define READ_CHUNK_SIZE 16384
#define MAX_BODY_SIZE (16 * 1024 * 1024)
#define MAX_ERROR_BODY_SIZE 8192

gboolean
_pal_mcp_http_is_over (PalMcpHttpTransport *self)
{
  return self->failed || self->closed;
}

GError *
_pal_mcp_http_new_closed_error (void)
{
  return g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED,
                              _("The connection to the server was closed"));
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_input_stream_close_finish (G_INPUT_STREAM (object), result, NULL);
}

void
_pal_mcp_http_close_stream (GInputStream *stream)
{
  if (stream != NULL && !g_input_stream_is_closed (stream) && !g_input_stream_has_pending (stream))
    g_input_stream_close_async (stream, G_PRIORITY_DEFAULT, NULL, close_cb, NULL);
}

Exchange *
_pal_mcp_http_exchange_new (PalMcpHttpTransport *self,
                            Kind                 kind,
                            const char          *method,
                            GBytes              *text,
                            GCancellable        *cancellable)
{
  Exchange *exchange = g_new0 (Exchange, 1);

  exchange->self = g_object_ref (self);
  exchange->kind = kind;
  exchange->method = g_strdup (method);
  exchange->text = text != NULL ? g_bytes_ref (text) : NULL;
  exchange->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;

  return exchange;
}

void
_pal_mcp_http_exchange_free (Exchange *exchange)
{
  if (exchange->task != NULL)
    g_task_return_error (exchange->task, _pal_mcp_http_new_closed_error ());
  g_clear_object (&exchange->task);

  _pal_mcp_http_close_stream (exchange->stream);
  g_clear_object (&exchange->stream);
  g_clear_object (&exchange->message);
  g_clear_pointer (&exchange->parser, pal_sse_parser_free);
  g_clear_pointer (&exchange->body, g_byte_array_unref);
  g_clear_pointer (&exchange->text, g_bytes_unref);
  g_clear_object (&exchange->cancellable);
  g_free (exchange->method);
  g_object_unref (exchange->self);
  g_free (exchange);
}

static int
effective_port (GUri *uri)
{
  int port = g_uri_get_port (uri);

  if (port > 0)
    return port;

  return g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0 ? 443 : 80;
}

gboolean
_pal_mcp_http_same_origin (GUri *a,
                           GUri *b)
{
  return g_ascii_strcasecmp (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0 &&
         g_ascii_strcasecmp (g_uri_get_host (a), g_uri_get_host (b)) == 0 &&
         effective_port (a) == effective_port (b);
}

static char *
dup_host_and_port (SoupMessage *message)
{
  GUri *uri = soup_message_get_uri (message);
  const char *host = g_uri_get_host (uri);

  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("[%s]:%d", host, effective_port (uri));

  return g_strdup_printf ("%s:%d", host, effective_port (uri));
}

/* ------------------------------------------------------------------------ */
/* Errors in words                                                           */

static char *
describe_certificate_flags (GTlsCertificateFlags flags)
{
  GPtrArray *reasons = g_ptr_array_new ();
  char *joined;

  if (flags & G_TLS_CERTIFICATE_UNKNOWN_CA)
    g_ptr_array_add (reasons, (char *) _("it is not signed by a known authority"));
  if (flags & G_TLS_CERTIFICATE_BAD_IDENTITY)
    g_ptr_array_add (reasons, (char *) _("it was issued for another host name"));
  if (flags & G_TLS_CERTIFICATE_NOT_ACTIVATED)
    g_ptr_array_add (reasons, (char *) _("it is not valid yet"));
  if (flags & G_TLS_CERTIFICATE_EXPIRED)
    g_ptr_array_add (reasons, (char *) _("it has expired"));
  if (flags & G_TLS_CERTIFICATE_REVOKED)
    g_ptr_array_add (reasons, (char *) _("it has been revoked"));
  if (flags & G_TLS_CERTIFICATE_INSECURE)
    g_ptr_array_add (reasons, (char *) _("it uses an insecure algorithm"));
  if (flags & G_TLS_CERTIFICATE_GENERIC_ERROR || reasons->len == 0)
    g_ptr_array_add (reasons, (char *) _("it could not be verified"));
  g_ptr_array_add (reasons, NULL);

  joined = g_strjoinv (", ", (char **) reasons->pdata);
  g_ptr_array_unref (reasons);

  return joined;
}

/* A failure before any answer, in words, keeping the domain and code. */
static GError *
describe_transfer_error (SoupMessage  *message,
                         const GError *error)
{
  g_autofree char *where = dup_host_and_port (message);
  const char *host = g_uri_get_host (soup_message_get_uri (message));
  g_autofree char *text = NULL;

  if (error->domain == G_RESOLVER_ERROR)
    text = g_strdup_printf (_("The host name “%s” could not be found"), host);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    text = g_strdup_printf (_("Nothing is listening at %s: the connection was refused"), where);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE))
    text = g_strdup_printf (_("%s cannot be reached: %s"), where, error->message);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    text = g_strdup_printf (_("The connection to %s timed out"), where);
  else if (error->domain == G_TLS_ERROR)
    {
      GTlsCertificateFlags flags = soup_message_get_tls_peer_certificate_errors (message);

      if (flags != 0 || g_error_matches (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE))
        {
          g_autofree char *reasons = describe_certificate_flags (flags);

          text = g_strdup_printf (_("The certificate of %s is not trusted: %s"), where, reasons);
        }
      else
        text = g_strdup_printf (_("Could not set up a secure connection to %s: %s"),
                                where, error->message);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    text = g_strdup_printf (_("The connection to %s closed unexpectedly"), where);
  else if (g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_PARSING) ||
           g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_ENCODING))
    text = g_strdup_printf (_("%s answered with something that is not HTTP"), where);
  else if (g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_TOO_MANY_REDIRECTS))
    text = g_strdup_printf (_("%s redirected too many times"), where);
  else
    text = g_strdup_printf (_("Could not talk to %s: %s"), where, error->message);

  return g_error_new_literal (error->domain, error->code, text);
}

/* What an error body says, if it says it briefly: a JSON-RPC error, a JSON
 * object with a message, or a line of plain text. */
const char *
_pal_mcp_http_get_content_type (SoupMessage *message)
{
  return soup_message_headers_get_content_type (soup_message_get_response_headers (message), NULL);
}

static char *
describe_error_body (SoupMessage *message,
                     GByteArray  *body)
{
  const char *type;
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root;

  if (body == NULL || body->len == 0)
    return NULL;

  type = _pal_mcp_http_get_content_type (message);
  if (type == NULL)
    return NULL;

  if (g_ascii_strcasecmp (type, "text/plain") == 0)
    {
      g_autofree char *text = _pal_mcp_probe_excerpt ((const char *) body->data, body->len, 200);

      return *text != '\0' ? g_steal_pointer (&text) : NULL;
    }

  if (g_ascii_strcasecmp (type, "application/json") != 0)
    return NULL;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, (const char *) body->data, body->len, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;

  for (JsonObject *object = json_node_get_object (root); object != NULL;)
    {
      JsonNode *error = json_object_get_member (object, "error");
      JsonNode *text = json_object_get_member (object, "message");

      if (text != NULL && JSON_NODE_HOLDS_VALUE (text) &&
          json_node_get_value_type (text) == G_TYPE_STRING)
        return _pal_mcp_probe_excerpt (json_node_get_string (text), -1, 200);

      if (error != NULL && JSON_NODE_HOLDS_VALUE (error) &&
          json_node_get_value_type (error) == G_TYPE_STRING)
        return _pal_mcp_probe_excerpt (json_node_get_string (error), -1, 200);

      if (error != NULL && JSON_NODE_HOLDS_OBJECT (error))
        object = json_node_get_object (error);
      else
        object = NULL;
    }

  return NULL;
}

static GError *
describe_status (PalMcpHttpTransport *self,
                 SoupMessage         *message,
                 GByteArray          *body)
{
  guint status = soup_message_get_status (message);
  g_autofree char *detail = describe_error_body (message, body);
  g_autofree char *phrase = NULL;
  const char *hint = NULL;
  GString *text = g_string_new (NULL);
  gboolean is_get = g_strcmp0 (soup_message_get_method (message), "GET") == 0;
  int code = PAL_ERROR_FAILED;
  GError *error;

  if (g_strcmp0 (soup_status_get_phrase (status), "Unknown Error") != 0)
    phrase = g_strdup (soup_status_get_phrase (status));
  else
    phrase = _pal_mcp_probe_excerpt (soup_message_get_reason_phrase (message), -1, 60);

  g_string_printf (text, _("The server answered %u %s"), status, phrase);
  if (detail != NULL)
    g_string_append_printf (text, ": %s", detail);

  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
    case SOUP_STATUS_FORBIDDEN:
      hint = _("Check the headers, for example Authorization.");
      break;

    case SOUP_STATUS_NOT_FOUND:
    case SOUP_STATUS_GONE:
      code = PAL_ERROR_NOT_FOUND;
      hint = self->legacy ? _("Check the address; it often ends in /sse.")
                          : _("Check the address; it often ends in /mcp.");
      break;

    case SOUP_STATUS_METHOD_NOT_ALLOWED:
      if (self->legacy && is_get)
        hint = _("The server may speak only the streamable HTTP transport.");
      else if (!self->legacy)
        hint = _("The server may speak only the older SSE transport.");
      break;

    default:
      break;
    }

  if (hint != NULL)
    g_string_append_printf (text, ". %s", hint);

  error = g_error_new_literal (PAL_ERROR, code, text->str);
  g_string_free (text, TRUE);

  return error;
}

/* ------------------------------------------------------------------------ */
/* Failing                                                                   */

/* @error: (transfer full) */
void
_pal_mcp_http_transport_fail (PalMcpHttpTransport *self,
                              GError              *error)
{
  g_autoptr(GError) owned = error;

  if (_pal_mcp_http_is_over (self))
    return;

  self->failed = TRUE;
  pal_mcp_transport_emit_failed (PAL_MCP_TRANSPORT (self), error);
}

/* @error: (transfer full) */
void
_pal_mcp_http_exchange_fail (Exchange *exchange,
                             GError   *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _pal_mcp_http_transport_fail (exchange->self, error);
  else if (exchange->kind == KIND_CALL)
    _pal_mcp_http_complete_call (exchange->self, exchange->id, NULL, error);
  else if (exchange->task != NULL)
    {
      g_task_return_error (exchange->task, error);
      g_clear_object (&exchange->task);
    }
  else
    g_error_free (error);

  _pal_mcp_http_exchange_free (exchange);
}

void
_pal_mcp_http_exchange_fail_printf (Exchange   *exchange,
                                    int         code,
                                    const char *format,
                                    ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  _pal_mcp_http_exchange_fail (exchange, g_error_new_literal (PAL_ERROR, code, message));
  g_free (message);
}

/* A failure of the transfer in words; cancellation as it is. */
void
_pal_mcp_http_exchange_fail_transfer (Exchange *exchange,
                                      GError   *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _pal_mcp_http_exchange_fail (exchange, error);
  else
    {
      _pal_mcp_http_exchange_fail (exchange, describe_transfer_error (exchange->message, error));
      g_error_free (error);
    }
}

/* ------------------------------------------------------------------------ */
/* Exchanges                                                                 */

/* Whether the answer to the exchange's request (if it is one) arrived. */
static gboolean
is_answered (Exchange *exchange)
{
  return exchange->kind != KIND_CALL ||
         !g_hash_table_contains (exchange->self->calls, &exchange->id);
}

/* Handles one event of a stream; returns FALSE when the exchange is over
 * (and freed). */
static gboolean
handle_event (Exchange    *exchange,
              PalSseEvent *event)
{
  PalMcpHttpTransport *self = exchange->self;
  g_autoptr(GError) error = NULL;

  if (exchange->mode == READ_EVENT_SOURCE && g_str_equal (event->type, "endpoint"))
    return _pal_mcp_sse_take_endpoint (exchange, event);

  if (!g_str_equal (event->type, "message"))
    {
      g_debug ("MCP probe ignores an event of type %s", event->type);
      return TRUE;
    }

  if (exchange->mode == READ_EVENT_SOURCE && self->endpoint == NULL)
    {
      g_debug ("MCP probe ignores a message before the endpoint event");
      return TRUE;
    }

  if (!_pal_mcp_http_receive (self, event->data, strlen (event->data), &error))
    {
      _pal_mcp_http_exchange_fail (exchange, g_steal_pointer (&error));
      return FALSE;
    }

  if (_pal_mcp_http_is_over (self) || (exchange->mode == READ_EVENTS && is_answered (exchange)))
    {
      /* Done with this stream, even if the server would keep it open. */
      _pal_mcp_http_exchange_free (exchange);
      return FALSE;
    }

  return TRUE;
}

static void
exchange_ended (Exchange *exchange)
{
  PalMcpHttpTransport *self = exchange->self;
  g_autoptr(GError) error = NULL;

  switch (exchange->mode)
    {
    case READ_ERROR_BODY:
      _pal_mcp_http_exchange_fail (exchange,
                                   describe_status (self, exchange->message, exchange->body));
      return;

    case READ_JSON:
      if (exchange->body->len == 0)
        {
          _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                              _("The server answered “%s” with an empty body"),
                                              exchange->method);
          return;
        }

      if (!_pal_mcp_http_receive (self, (const char *) exchange->body->data, exchange->body->len,
                                  &error))
        {
          _pal_mcp_http_exchange_fail (exchange, g_steal_pointer (&error));
          return;
        }
      break;

    case READ_EVENTS:
      pal_sse_parser_end (exchange->parser);
      break;

    case READ_EVENT_SOURCE:
      pal_sse_parser_end (exchange->parser);
      _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                          _("The server closed the event stream before it "
                                            "answered"));
      return;

    default:
      g_assert_not_reached ();
    }

  if (!_pal_mcp_http_is_over (self) && !is_answered (exchange))
    {
      _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                          _("The server’s answer to “%s” ended without a "
                                            "response to it"),
                                          exchange->method);
      return;
    }

  _pal_mcp_http_exchange_free (exchange);
}

static void
exchange_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Exchange *exchange = user_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  const char *data;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (_pal_mcp_http_is_over (exchange->self))
    {
      g_clear_error (&error);
      _pal_mcp_http_exchange_free (exchange);
      return;
    }

  if (bytes == NULL)
    {
      _pal_mcp_http_exchange_fail_transfer (exchange, error);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size == 0)
    {
      exchange_ended (exchange);
      return;
    }

  switch (exchange->mode)
    {
    case READ_ERROR_BODY:
      g_byte_array_append (exchange->body, (const guint8 *) data,
                           MIN (size, MAX_ERROR_BODY_SIZE - exchange->body->len));
      if (exchange->body->len >= MAX_ERROR_BODY_SIZE)
        {
          exchange_ended (exchange);
          return;
        }
      break;

    case READ_JSON:
      if (exchange->body->len + size > MAX_BODY_SIZE)
        {
          _pal_mcp_http_exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                              _("The server’s answer is larger than %u MiB"),
                                              MAX_BODY_SIZE / (1024 * 1024));
          return;
        }
      g_byte_array_append (exchange->body, (const guint8 *) data, size);
      break;

    case READ_EVENTS:
    case READ_EVENT_SOURCE:
      {
        PalSseEvent *event;

        if (!pal_sse_parser_feed (exchange->parser, data, size, &error))
          {
            _pal_mcp_http_exchange_fail (exchange, error);
            return;
          }

        while ((event = pal_sse_parser_pop (exchange->parser)) != NULL)
          {
            gboolean go_on = handle_event (exchange, event);

            pal_sse_event_free (event);
            if (!go_on)
              return;
          }
      }
      break;

    default:
      g_assert_not_reached ();
    }

  _pal_mcp_http_exchange_read (exchange);
}

void
_pal_mcp_http_exchange_read (Exchange *exchange)
{
  g_input_stream_read_bytes_async (exchange->stream, READ_CHUNK_SIZE, G_PRIORITY_DEFAULT,
                                   exchange->cancellable, exchange_read_cb, exchange);
}

void
_pal_mcp_http_read_error_body (Exchange *exchange)
{
  exchange->mode = READ_ERROR_BODY;
  exchange->body = g_byte_array_new ();
  _pal_mcp_http_exchange_read (exchange);
}

gboolean
_pal_mcp_http_is_content_type (SoupMessage *message,
                               const char  *wanted)
{
  const char *type = _pal_mcp_http_get_content_type (message);

  return type != NULL && g_ascii_strcasecmp (type, wanted) == 0;
}

SoupMessage *
_pal_mcp_http_new_message (PalMcpHttpTransport *self,
                           const char          *method,
                           GUri                *uri)
{
  SoupMessage *message = soup_message_new_from_uri (method, uri);
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);

  for (guint i = 0; self->header_names != NULL && self->header_names[i] != NULL; i++)
    soup_message_headers_replace (headers, self->header_names[i], self->header_values[i]);

  return message;
}
