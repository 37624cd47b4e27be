/* pal-mcp-probe-http.c: the MCP connection test over HTTP
 *
 * Streamable HTTP: each message is a POST; the answer to a request is the
 * body of its POST, either JSON or an event stream of JSON-RPC messages.
 *
 * The older HTTP+SSE transport: a GET opens an event stream whose first
 * "endpoint" event names the address to POST messages to; POSTs are only
 * acknowledged, and the answers arrive as "message" events on the stream.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-mcp-probe-private.h"
#include "pal-sse-parser.h"

#define READ_CHUNK_SIZE 16384
#define MAX_BODY_SIZE (16 * 1024 * 1024)
#define MAX_ERROR_BODY_SIZE 8192
#define DELETE_TIMEOUT_MS 5000

typedef struct
{
  PalMcpProbe   *probe;
  SoupSession   *session;
  GUri          *uri;             /* the configured address */
  char         **header_names;
  char         **header_values;
  gboolean       legacy;
  char          *session_id;      /* streamable: given with the initialize answer */
  GUri          *endpoint;        /* legacy: where to POST */
} HttpTransport;

typedef enum
{
  READ_JSON,         /* the JSON answer to a request */
  READ_EVENTS,       /* an event stream carrying the answer to a request */
  READ_EVENT_SOURCE, /* legacy: the GET stream */
  READ_ERROR_BODY,   /* the body of an error status, to explain it */
} ReadMode;

/* One HTTP request in flight and the reading of its answer. */
typedef struct
{
  GTask             *task;
  SoupMessage       *message;
  GInputStream      *stream;
  PalMcpMessageKind  kind;
  gint64             id;
  ReadMode           mode;
  PalSseParser      *parser;
  GByteArray        *body;
} Exchange;

static void exchange_read (Exchange *exchange);

static HttpTransport *
get_transport (GTask *task)
{
  return _pal_mcp_probe_get_transport (_pal_mcp_probe_from_task (task));
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_input_stream_close_finish (G_INPUT_STREAM (object), result, NULL);
}

static void
close_stream (GInputStream *stream)
{
  if (stream != NULL && !g_input_stream_is_closed (stream) && !g_input_stream_has_pending (stream))
    g_input_stream_close_async (stream, G_PRIORITY_DEFAULT, NULL, close_cb, NULL);
}

static Exchange *
exchange_new (GTask             *task,
              SoupMessage       *message,
              PalMcpMessageKind  kind,
              gint64             id)
{
  Exchange *exchange = g_new0 (Exchange, 1);

  exchange->task = g_object_ref (task);
  exchange->message = message;
  exchange->kind = kind;
  exchange->id = id;

  return exchange;
}

static void
exchange_free (Exchange *exchange)
{
  close_stream (exchange->stream);
  g_clear_object (&exchange->stream);
  g_clear_object (&exchange->message);
  g_clear_pointer (&exchange->parser, pal_sse_parser_free);
  g_clear_pointer (&exchange->body, g_byte_array_unref);
  g_clear_object (&exchange->task);
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

static gboolean
same_origin (GUri *a,
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
static const char *
get_content_type (SoupMessage *message)
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

  type = get_content_type (message);
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
describe_status (HttpTransport *self,
                 SoupMessage   *message,
                 GByteArray    *body)
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
/* Messages                                                                  */

static SoupMessage *
new_message (HttpTransport *self,
             const char    *method,
             GUri          *uri)
{
  SoupMessage *message = soup_message_new_from_uri (method, uri);
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);

  for (guint i = 0; self->header_names != NULL && self->header_names[i] != NULL; i++)
    soup_message_headers_replace (headers, self->header_names[i], self->header_values[i]);

  return message;
}

static void
exchange_fail (Exchange *exchange,
               GError   *error)
{
  _pal_mcp_probe_fail (_pal_mcp_probe_from_task (exchange->task), error);
  exchange_free (exchange);
}

static void exchange_fail_printf (Exchange   *exchange,
                                  int         code,
                                  const char *format,
                                  ...) G_GNUC_PRINTF (3, 4);

static void
exchange_fail_printf (Exchange   *exchange,
                      int         code,
                      const char *format,
                      ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  exchange_fail (exchange, g_error_new_literal (PAL_ERROR, code, message));
  g_free (message);
}

/* Handles one event of a stream; returns FALSE when the exchange is over
 * (and freed). */
static gboolean
handle_event (Exchange    *exchange,
              PalSseEvent *event)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (exchange->task);
  HttpTransport *self = get_transport (exchange->task);
  g_autoptr(GError) error = NULL;

  if (exchange->mode == READ_EVENT_SOURCE && g_str_equal (event->type, "endpoint"))
    {
      g_autoptr(GUri) endpoint = NULL;
      g_autofree char *shown = _pal_mcp_probe_excerpt (event->data, -1, 200);

      if (self->endpoint != NULL)
        return TRUE;

      endpoint = g_uri_parse_relative (self->uri, g_strstrip (event->data),
                                       SOUP_HTTP_URI_FLAGS, NULL);
      if (endpoint == NULL)
        {
          exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                _("The server announced an invalid address to send "
                                  "messages to: “%s”"),
                                shown);
          return FALSE;
        }

      /* Our headers (credentials, often) go only where the person sent them. */
      if (!same_origin (endpoint, self->uri))
        {
          exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                _("The server announced an address on another host to "
                                  "send messages to: “%s”"),
                                shown);
          return FALSE;
        }

      self->endpoint = g_steal_pointer (&endpoint);
      _pal_mcp_probe_begin (probe);
      return TRUE;
    }

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

  if (_pal_mcp_probe_receive (probe, event->data, strlen (event->data), &error) !=
      PAL_MCP_RECEIVE_OK)
    {
      exchange_fail (exchange, g_steal_pointer (&error));
      return FALSE;
    }

  if (_pal_mcp_probe_is_done (probe) ||
      (exchange->mode == READ_EVENTS && _pal_mcp_probe_has_answer (probe, exchange->id)))
    {
      /* Done with this stream, even if the server would keep it open. */
      exchange_free (exchange);
      return FALSE;
    }

  return TRUE;
}

static void
exchange_ended (Exchange *exchange)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (exchange->task);
  HttpTransport *self = get_transport (exchange->task);
  const char *method = _pal_mcp_probe_get_method (probe, exchange->id);
  g_autoptr(GError) error = NULL;

  switch (exchange->mode)
    {
    case READ_ERROR_BODY:
      exchange_fail (exchange, describe_status (self, exchange->message, exchange->body));
      return;

    case READ_JSON:
      if (exchange->body->len == 0)
        {
          exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                                _("The server answered “%s” with an empty body"),
                                method);
          return;
        }

      if (_pal_mcp_probe_receive (probe, (const char *) exchange->body->data,
                                  exchange->body->len, &error) != PAL_MCP_RECEIVE_OK)
        {
          exchange_fail (exchange, g_steal_pointer (&error));
          return;
        }
      break;

    case READ_EVENTS:
      pal_sse_parser_end (exchange->parser);
      break;

    case READ_EVENT_SOURCE:
      pal_sse_parser_end (exchange->parser);
      exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                            _("The server closed the event stream before it answered"));
      return;

    default:
      g_assert_not_reached ();
    }

  if (!_pal_mcp_probe_is_done (probe) && !_pal_mcp_probe_has_answer (probe, exchange->id))
    {
      exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                            _("The server’s answer to “%s” ended without a response to it"),
                            method);
      return;
    }

  exchange_free (exchange);
}

static void
exchange_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Exchange *exchange = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (exchange->task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (_pal_mcp_probe_is_done (probe))
    {
      exchange_free (exchange);
      return;
    }

  if (bytes == NULL)
    {
      if (!_pal_mcp_probe_fail_if_cancelled (probe, error))
        _pal_mcp_probe_fail (probe, describe_transfer_error (exchange->message, error));
      exchange_free (exchange);
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
          exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
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
            exchange_fail (exchange, g_steal_pointer (&error));
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

  exchange_read (exchange);
}

static void
exchange_read (Exchange *exchange)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (exchange->task);

  g_input_stream_read_bytes_async (exchange->stream, READ_CHUNK_SIZE, G_PRIORITY_DEFAULT,
                                   _pal_mcp_probe_get_cancellable (probe),
                                   exchange_read_cb, exchange);
}

static void
read_error_body (Exchange *exchange)
{
  exchange->mode = READ_ERROR_BODY;
  exchange->body = g_byte_array_new ();
  exchange_read (exchange);
}

static gboolean
is_content_type (SoupMessage *message,
                 const char  *wanted)
{
  const char *type = get_content_type (message);

  return type != NULL && g_ascii_strcasecmp (type, wanted) == 0;
}

static gboolean
take_session_id (HttpTransport  *self,
                 SoupMessage    *message,
                 GError        **error)
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
  PalMcpProbe *probe = _pal_mcp_probe_from_task (exchange->task);
  HttpTransport *self = get_transport (exchange->task);
  g_autoptr(GError) error = NULL;
  const char *method = _pal_mcp_probe_get_method (probe, exchange->id);
  guint status;

  exchange->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (_pal_mcp_probe_is_done (probe))
    {
      exchange_free (exchange);
      return;
    }

  if (exchange->stream == NULL)
    {
      if (exchange->kind == PAL_MCP_MESSAGE_RESPONSE)
        g_debug ("Could not send an answer to the MCP server: %s", error->message);
      else if (!_pal_mcp_probe_fail_if_cancelled (probe, error))
        _pal_mcp_probe_fail (probe, describe_transfer_error (exchange->message, error));
      exchange_free (exchange);
      return;
    }

  status = soup_message_get_status (exchange->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      if (exchange->kind == PAL_MCP_MESSAGE_RESPONSE)
        {
          g_debug ("The MCP server refused our answer with status %u", status);
          exchange_free (exchange);
          return;
        }

      read_error_body (exchange);
      return;
    }

  if (exchange->kind != PAL_MCP_MESSAGE_REQUEST || self->legacy)
    {
      /* Only acknowledged; any answer comes on the event stream. */
      gboolean notification = exchange->kind == PAL_MCP_MESSAGE_NOTIFICATION;

      exchange_free (exchange);
      if (notification)
        _pal_mcp_probe_notification_sent (probe);
      return;
    }

  if (g_str_equal (method, "initialize") && !take_session_id (self, exchange->message, &error))
    {
      exchange_fail (exchange, g_steal_pointer (&error));
      return;
    }

  if (status == SOUP_STATUS_ACCEPTED || status == SOUP_STATUS_NO_CONTENT)
    {
      exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                            _("The server accepted “%s” without answering it"),
                            method);
      return;
    }

  if (is_content_type (exchange->message, "text/event-stream"))
    {
      exchange->mode = READ_EVENTS;
      exchange->parser = pal_sse_parser_new ();
    }
  else if (is_content_type (exchange->message, "application/json") ||
           get_content_type (exchange->message) == NULL)
    {
      exchange->mode = READ_JSON;
      exchange->body = g_byte_array_new ();
    }
  else
    {
      g_autofree char *type = _pal_mcp_probe_excerpt (get_content_type (exchange->message), -1, 60);

      exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                            _("The server answered with “%s” content instead of JSON "
                              "or an event stream"),
                            type);
      return;
    }

  exchange_read (exchange);
}

static void
http_transport_send (PalMcpProbe       *probe,
                     const char        *text,
                     PalMcpMessageKind  kind,
                     gint64             id)
{
  HttpTransport *self = _pal_mcp_probe_get_transport (probe);
  g_autoptr(GBytes) body = g_bytes_new (text, strlen (text));
  SoupMessage *message;
  SoupMessageHeaders *headers;
  Exchange *exchange;

  message = new_message (self, SOUP_METHOD_POST, self->legacy ? self->endpoint : self->uri);
  headers = soup_message_get_request_headers (message);
  soup_message_set_request_body_from_bytes (message, "application/json", body);

  if (!self->legacy)
    {
      const char *version = _pal_mcp_probe_get_protocol_version (probe);

      soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
      if (self->session_id != NULL)
        soup_message_headers_replace (headers, "Mcp-Session-Id", self->session_id);
      if (version != NULL)
        soup_message_headers_replace (headers, "MCP-Protocol-Version", version);
    }

  exchange = exchange_new (_pal_mcp_probe_get_task (probe), message, kind, id);
  soup_session_send_async (self->session, message, G_PRIORITY_DEFAULT,
                           _pal_mcp_probe_get_cancellable (probe), post_sent_cb, exchange);
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
      close_stream (stream);
    }

  deletion_free (deletion);
}

static void
end_session (HttpTransport *self)
{
  g_autoptr(SoupMessage) message = NULL;
  Deletion *deletion;

  if (self->legacy || self->session_id == NULL)
    return;

  message = new_message (self, SOUP_METHOD_DELETE, self->uri);
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "Mcp-Session-Id", self->session_id);
  if (_pal_mcp_probe_get_protocol_version (self->probe) != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "MCP-Protocol-Version",
                                  _pal_mcp_probe_get_protocol_version (self->probe));

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
/* The transport class                                                       */

static void
http_transport_close (PalMcpProbe *probe)
{
  /* Streams close as their reads see the probe's cancellable. */
  end_session (_pal_mcp_probe_get_transport (probe));
}

static void
http_transport_free (gpointer data)
{
  HttpTransport *self = data;

  g_clear_object (&self->session);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->endpoint, g_uri_unref);
  g_strfreev (self->header_names);
  g_strfreev (self->header_values);
  g_free (self->session_id);
  g_free (self);
}

static const PalMcpTransportClass http_transport_class = {
  .send = http_transport_send,
  .close = http_transport_close,
  .free = http_transport_free,
};

/* ------------------------------------------------------------------------ */
/* Starting                                                                  */

static void
event_source_sent_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Exchange *exchange = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (exchange->task);
  g_autoptr(GError) error = NULL;

  exchange->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (_pal_mcp_probe_is_done (probe))
    {
      exchange_free (exchange);
      return;
    }

  if (exchange->stream == NULL)
    {
      if (!_pal_mcp_probe_fail_if_cancelled (probe, error))
        _pal_mcp_probe_fail (probe, describe_transfer_error (exchange->message, error));
      exchange_free (exchange);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (exchange->message)))
    {
      read_error_body (exchange);
      return;
    }

  if (!is_content_type (exchange->message, "text/event-stream"))
    {
      const char *type = get_content_type (exchange->message);
      g_autofree char *shown = _pal_mcp_probe_excerpt (type != NULL ? type : "", -1, 60);

      exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                            _("The server did not answer with an event stream "
                              "but with “%s” content; it may speak only streamable HTTP"),
                            shown);
      return;
    }

  exchange->mode = READ_EVENT_SOURCE;
  exchange->parser = pal_sse_parser_new ();
  exchange_read (exchange);
}

static void
probe_http (gpointer             source_tag,
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
  g_autoptr(GError) error = NULL;
  PalMcpProbe *probe;
  HttpTransport *self;
  SoupMessage *message;
  g_autofree char *trimmed = NULL;

  task = _pal_mcp_probe_new_task (source_tag, timeout_ms, cancellable, callback, user_data);
  probe = _pal_mcp_probe_from_task (task);

  self = g_new0 (HttpTransport, 1);
  self->probe = probe;
  self->session = g_object_ref (session);
  self->legacy = legacy;
  _pal_mcp_probe_set_transport (probe, &http_transport_class, self);

  trimmed = g_strstrip (g_strdup (url));
  if (*trimmed == '\0')
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_INVALID, _("No address to connect to"));
      return;
    }

  self->uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &error);
  if (self->uri == NULL)
    {
      g_autofree char *shown = _pal_mcp_probe_excerpt (url, -1, 200);

      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_INVALID,
                                  _("“%s” is not a valid address"), shown);
      return;
    }

  if ((g_ascii_strcasecmp (g_uri_get_scheme (self->uri), "http") != 0 &&
       g_ascii_strcasecmp (g_uri_get_scheme (self->uri), "https") != 0) ||
      g_uri_get_host (self->uri) == NULL || *g_uri_get_host (self->uri) == '\0')
    {
      g_autofree char *shown = _pal_mcp_probe_excerpt (url, -1, 200);

      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_INVALID,
                                  _("“%s” is not an http:// or https:// address"), shown);
      return;
    }

  if (!_pal_mcp_probe_check_headers (header_names, header_values, &error))
    {
      _pal_mcp_probe_fail (probe, g_steal_pointer (&error));
      return;
    }

  self->header_names = g_strdupv ((char **) header_names);
  self->header_values = g_strdupv ((char **) header_values);

  if (g_cancellable_is_cancelled (cancellable))
    return;  /* the cancelled source completes the task */

  if (!legacy)
    {
      _pal_mcp_probe_begin (probe);
      return;
    }

  message = new_message (self, SOUP_METHOD_GET, self->uri);
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "Accept", "text/event-stream");
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "Cache-Control", "no-cache");
  soup_session_send_async (session, message, G_PRIORITY_DEFAULT,
                           _pal_mcp_probe_get_cancellable (probe), event_source_sent_cb,
                           exchange_new (task, message, PAL_MCP_MESSAGE_REQUEST, -1));
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

  probe_http (pal_mcp_probe_http_async, FALSE, session, url, header_names, header_values,
              timeout_ms, cancellable, callback, user_data);
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

  probe_http (pal_mcp_probe_sse_async, TRUE, session, url, header_names, header_values,
              timeout_ms, cancellable, callback, user_data);
}
