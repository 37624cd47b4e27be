/* pal-mcp-probe-http.c: the MCP connection test over HTTP
 *
 * Streamable HTTP: each message is a POST; the answer to a request is the
 * body of its POST, either JSON or an event stream of JSON-RPC messages.
 *
 * The older HTTP+SSE transport: a GET opens an event stream whose first
 * "endpoint" event names the address to POST messages to; POSTs are only
 * acknowledged, and the answers arrive as "message" events on the stream.
 *
 * Either way answers come apart from their requests, so this transport
 * matches them by id itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-error.h"
#include "acp-json.h"
#include "pal-error.h"
#include "pal-mcp-probe-private.h"
#include "pal-sse-parser.h"

#define READ_CHUNK_SIZE 16384
#define MAX_BODY_SIZE (16 * 1024 * 1024)
#define MAX_ERROR_BODY_SIZE 8192
#define DELETE_TIMEOUT_MS 5000
/* json-glib parses recursively: refuse deeper nesting before it parses. */
#define MAX_JSON_DEPTH 256

#define PAL_TYPE_MCP_HTTP_TRANSPORT (pal_mcp_http_transport_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpHttpTransport, pal_mcp_http_transport,
                      PAL, MCP_HTTP_TRANSPORT, GObject)

struct _PalMcpHttpTransport
{
  GObject        parent_instance;

  SoupSession   *session;
  GUri          *uri;               /* the configured address */
  char         **header_names;
  char         **header_values;
  gboolean       legacy;
  char          *session_id;        /* streamable: given with the initialize answer */
  char          *protocol_version;
  GUri          *endpoint;          /* legacy: where to POST */
  gboolean       listening;         /* legacy: the event stream was asked for */
  GPtrArray     *waiting;           /* legacy: exchanges waiting for the endpoint */
  GCancellable  *cancellable;       /* the event stream, our answers; cancelled by close */
  gint64         next_id;
  GHashTable    *calls;             /* gint64 id → GTask of a call not answered yet */
  gboolean       failed;
  gboolean       closed;
};

static void pal_mcp_http_transport_iface_init (PalMcpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PalMcpHttpTransport, pal_mcp_http_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PAL_TYPE_MCP_TRANSPORT,
                                                      pal_mcp_http_transport_iface_init))

typedef enum
{
  KIND_CALL,
  KIND_NOTIFICATION,
  KIND_RESPONSE,      /* our answer to a request of the server */
  KIND_EVENT_SOURCE,  /* legacy: the GET */
} Kind;

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
  PalMcpHttpTransport *self;
  Kind                 kind;
  gint64               id;          /* KIND_CALL */
  char                *method;      /* KIND_CALL, KIND_NOTIFICATION */
  GTask               *task;        /* KIND_NOTIFICATION: done once the server took it */
  GBytes              *text;        /* what to POST */
  GCancellable        *cancellable;
  SoupMessage         *message;
  GInputStream        *stream;
  ReadMode             mode;
  PalSseParser        *parser;
  GByteArray          *body;
} Exchange;

static void exchange_read (Exchange *exchange);

static gboolean
is_over (PalMcpHttpTransport *self)
{
  return self->failed || self->closed;
}

static GError *
new_closed_error (void)
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

static void
close_stream (GInputStream *stream)
{
  if (stream != NULL && !g_input_stream_is_closed (stream) && !g_input_stream_has_pending (stream))
    g_input_stream_close_async (stream, G_PRIORITY_DEFAULT, NULL, close_cb, NULL);
}

static Exchange *
exchange_new (PalMcpHttpTransport *self,
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

static void
exchange_free (Exchange *exchange)
{
  if (exchange->task != NULL)
    g_task_return_error (exchange->task, new_closed_error ());
  g_clear_object (&exchange->task);

  close_stream (exchange->stream);
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
static void
transport_fail (PalMcpHttpTransport *self,
                GError              *error)
{
  g_autoptr(GError) owned = error;

  if (is_over (self))
    return;

  self->failed = TRUE;
  pal_mcp_transport_emit_failed (PAL_MCP_TRANSPORT (self), error);
}

static void
complete_call (PalMcpHttpTransport *self,
               gint64               id,
               JsonNode            *result,
               GError              *error)
{
  gpointer key;
  gpointer value;
  g_autoptr(GTask) task = NULL;

  if (!g_hash_table_steal_extended (self->calls, &id, &key, &value))
    {
      g_clear_error (&error);
      return;
    }

  g_free (key);
  task = value;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, json_node_copy (result), (GDestroyNotify) json_node_unref);
}

/* @error: (transfer full) */
static void
exchange_fail (Exchange *exchange,
               GError   *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    transport_fail (exchange->self, error);
  else if (exchange->kind == KIND_CALL)
    complete_call (exchange->self, exchange->id, NULL, error);
  else if (exchange->task != NULL)
    {
      g_task_return_error (exchange->task, error);
      g_clear_object (&exchange->task);
    }
  else
    g_error_free (error);

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

/* A failure of the transfer in words; cancellation as it is. */
static void
exchange_fail_transfer (Exchange *exchange,
                        GError   *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    exchange_fail (exchange, error);
  else
    {
      exchange_fail (exchange, describe_transfer_error (exchange->message, error));
      g_error_free (error);
    }
}

/* ------------------------------------------------------------------------ */
/* JSON-RPC messages                                                         */

typedef enum
{
  MESSAGE_INVALID,
  MESSAGE_REQUEST,
  MESSAGE_NOTIFICATION,
  MESSAGE_RESPONSE,
} MessageType;

/* Scans JSON text for nesting deeper than json-glib should recurse into. */
static gboolean
json_depth_ok (const char *text,
               gsize       length)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > MAX_JSON_DEPTH)
            return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

static gboolean
get_integer (JsonNode *node,
             gint64   *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *out = json_node_get_int (node);
      return TRUE;
    }

  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (d >= -9007199254740992.0 && d <= 9007199254740992.0 && d == (double) (gint64) d)
        {
          *out = (gint64) d;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
is_valid_id (JsonNode *node)
{
  gint64 unused;

  if (node == NULL)
    return FALSE;

  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  return get_integer (node, &unused) ||
         (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING);
}

static MessageType
classify (JsonNode *node)
{
  JsonObject *object;
  JsonNode *id;
  gboolean has_result;
  JsonObject *error;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return MESSAGE_INVALID;

  object = json_node_get_object (node);
  if (g_strcmp0 (acp_json_get_string (object, "jsonrpc", NULL), "2.0") != 0)
    return MESSAGE_INVALID;

  id = json_object_get_member (object, "id");

  if (json_object_has_member (object, "method"))
    {
      if (acp_json_get_string (object, "method", NULL) == NULL)
        return MESSAGE_INVALID;
      if (id == NULL)
        return MESSAGE_NOTIFICATION;
      return is_valid_id (id) && !JSON_NODE_HOLDS_NULL (id) ? MESSAGE_REQUEST : MESSAGE_INVALID;
    }

  if (!is_valid_id (id))
    return MESSAGE_INVALID;

  has_result = json_object_has_member (object, "result");
  error = acp_json_get_object (object, "error");

  if (has_result == (json_object_has_member (object, "error")))
    return MESSAGE_INVALID;

  if (!has_result)
    {
      gint64 code;

      if (error == NULL || acp_json_get_string (error, "message", NULL) == NULL ||
          !get_integer (json_object_get_member (error, "code"), &code))
        return MESSAGE_INVALID;
    }

  return MESSAGE_RESPONSE;
}

static JsonObject *
new_rpc_message (void)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "jsonrpc", "2.0");
  return message;
}

/* @message: (transfer full) */
static GBytes *
serialize (JsonObject *message)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  char *text;

  json_node_take_object (node, message);
  text = json_to_string (node, FALSE);
  g_debug ("MCP probe sends %s", text);

  return g_bytes_new_take (text, strlen (text));
}

static void post (PalMcpHttpTransport *self,
                  Exchange            *exchange);

/* Answers a request of the server: ping gets an empty result; we offer no
 * other client feature, so everything else is an unknown method. */
static void
answer_server_request (PalMcpHttpTransport *self,
                       JsonObject          *request)
{
  JsonObject *answer = new_rpc_message ();
  const char *method = acp_json_get_string (request, "method", NULL);
  g_autoptr(GBytes) text = NULL;

  json_object_set_member (answer, "id", json_node_copy (json_object_get_member (request, "id")));
  if (g_strcmp0 (method, "ping") == 0)
    json_object_set_object_member (answer, "result", json_object_new ());
  else
    {
      JsonObject *error = json_object_new ();

      json_object_set_int_member (error, "code", ACP_ERROR_METHOD_NOT_FOUND);
      json_object_set_string_member (error, "message", "Method not found");
      json_object_set_object_member (answer, "error", error);
    }

  g_debug ("MCP probe answers the server's %s request", method);
  text = serialize (answer);
  post (self, exchange_new (self, KIND_RESPONSE, NULL, text, self->cancellable));
}

static void
handle_response (PalMcpHttpTransport *self,
                 JsonObject          *response)
{
  JsonNode *id_node = json_object_get_member (response, "id");
  JsonObject *error = acp_json_get_object (response, "error");
  gint64 code = 0;
  gint64 id;

  if (error != NULL)
    get_integer (json_object_get_member (error, "code"), &code);

  if (JSON_NODE_HOLDS_NULL (id_node) && error != NULL)
    {
      g_autofree char *message =
        _pal_mcp_probe_excerpt (acp_json_get_string (error, "message", NULL), -1, 300);
      g_autofree char *code_text = g_strdup_printf ("%" G_GINT64_FORMAT, code);

      transport_fail (self, g_error_new (PAL_ERROR, PAL_ERROR_PROTOCOL,
                                         _("The server could not read a message: %s (code %s)"),
                                         message, code_text));
      return;
    }

  if (!get_integer (id_node, &id) || !g_hash_table_contains (self->calls, &id))
    {
      g_debug ("MCP probe ignores a response to a request it did not send");
      return;
    }

  if (error != NULL)
    complete_call (self, id, NULL,
                   acp_error_new_remote ((int) CLAMP (code, G_MININT, G_MAXINT),
                                         acp_json_get_string (error, "message", NULL),
                                         json_object_get_member (error, "data")));
  else
    complete_call (self, id, json_object_get_member (response, "result"), NULL);
}

static void
dispatch (PalMcpHttpTransport *self,
          JsonNode            *node)
{
  JsonObject *object = json_node_get_object (node);

  switch (classify (node))
    {
    case MESSAGE_REQUEST:
      answer_server_request (self, object);
      break;

    case MESSAGE_NOTIFICATION:
      g_debug ("MCP probe ignores the notification %s",
               acp_json_get_string (object, "method", NULL));
      break;

    case MESSAGE_RESPONSE:
      handle_response (self, object);
      break;

    case MESSAGE_INVALID:
    default:
      g_assert_not_reached ();
    }
}

/* Parses one JSON text that should hold a JSON-RPC message or a batch of
 * them and acts on it. Nothing is acted on unless all of it is valid. */
static gboolean
receive (PalMcpHttpTransport  *self,
         const char           *text,
         gsize                 length,
         GError              **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;
  JsonArray *batch = NULL;
  guint n = 1;

  if (!json_depth_ok (text, length))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                           _("The server sent JSON nested too deeply"));
      return FALSE;
    }

  if (!json_parser_load_from_data (parser, text, length, NULL) ||
      (root = json_parser_get_root (parser)) == NULL)
    {
      g_autofree char *excerpt = _pal_mcp_probe_excerpt (text, length, 80);

      g_set_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                   _("The server sent something that is not valid JSON: “%s”"), excerpt);
      return FALSE;
    }

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      batch = json_node_get_array (root);
      n = json_array_get_length (batch);
    }

  for (guint i = 0; i < n; i++)
    if (classify (batch != NULL ? json_array_get_element (batch, i) : root) == MESSAGE_INVALID)
      n = 0;

  if (n == 0)
    {
      g_autofree char *excerpt = _pal_mcp_probe_excerpt (text, length, 80);

      g_set_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                   _("The server sent JSON that is not a JSON-RPC message: “%s”"), excerpt);
      return FALSE;
    }

  for (guint i = 0; i < n && !is_over (self); i++)
    dispatch (self, batch != NULL ? json_array_get_element (batch, i) : root);

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Exchanges                                                                 */

static void send_exchange (Exchange *exchange);

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
    {
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
      waiting = g_ptr_array_steal (self->waiting, &n_waiting);
      for (gsize i = 0; i < n_waiting; i++)
        send_exchange (waiting[i]);
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

  if (!receive (self, event->data, strlen (event->data), &error))
    {
      exchange_fail (exchange, g_steal_pointer (&error));
      return FALSE;
    }

  if (is_over (self) || (exchange->mode == READ_EVENTS && is_answered (exchange)))
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
  PalMcpHttpTransport *self = exchange->self;
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
                                exchange->method);
          return;
        }

      if (!receive (self, (const char *) exchange->body->data, exchange->body->len, &error))
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

  if (!is_over (self) && !is_answered (exchange))
    {
      exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                            _("The server’s answer to “%s” ended without a response to it"),
                            exchange->method);
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
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  const char *data;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (is_over (exchange->self))
    {
      g_clear_error (&error);
      exchange_free (exchange);
      return;
    }

  if (bytes == NULL)
    {
      exchange_fail_transfer (exchange, error);
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
            exchange_fail (exchange, error);
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
  g_input_stream_read_bytes_async (exchange->stream, READ_CHUNK_SIZE, G_PRIORITY_DEFAULT,
                                   exchange->cancellable, exchange_read_cb, exchange);
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

  if (is_over (self))
    {
      g_clear_error (&error);
      exchange_free (exchange);
      return;
    }

  if (exchange->stream == NULL)
    {
      if (exchange->kind != KIND_RESPONSE)
        {
          exchange_fail_transfer (exchange, error);
          return;
        }
      g_debug ("Could not send an answer to the MCP server: %s", error->message);
      g_error_free (error);
      exchange_free (exchange);
      return;
    }

  status = soup_message_get_status (exchange->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      if (exchange->kind == KIND_RESPONSE)
        {
          g_debug ("The MCP server refused our answer with status %u", status);
          exchange_free (exchange);
          return;
        }

      read_error_body (exchange);
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
      exchange_free (exchange);
      return;
    }

  if (g_str_equal (exchange->method, "initialize") &&
      !take_session_id (self, exchange->message, &error))
    {
      exchange_fail (exchange, error);
      return;
    }

  if (status == SOUP_STATUS_ACCEPTED || status == SOUP_STATUS_NO_CONTENT)
    {
      exchange_fail_printf (exchange, PAL_ERROR_PROTOCOL,
                            _("The server accepted “%s” without answering it"),
                            exchange->method);
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

static SoupMessage *
new_message (PalMcpHttpTransport *self,
             const char          *method,
             GUri                *uri)
{
  SoupMessage *message = soup_message_new_from_uri (method, uri);
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);

  for (guint i = 0; self->header_names != NULL && self->header_names[i] != NULL; i++)
    soup_message_headers_replace (headers, self->header_names[i], self->header_values[i]);

  return message;
}

static void
send_exchange (Exchange *exchange)
{
  PalMcpHttpTransport *self = exchange->self;
  SoupMessageHeaders *headers;

  exchange->message = new_message (self, SOUP_METHOD_POST,
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

static void
event_source_sent_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Exchange *exchange = user_data;
  GError *error = NULL;

  exchange->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (is_over (exchange->self))
    {
      g_clear_error (&error);
      exchange_free (exchange);
      return;
    }

  if (exchange->stream == NULL)
    {
      exchange_fail_transfer (exchange, error);
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

/* legacy: the GET of the event stream, which names where to post */
static void
listen (PalMcpHttpTransport *self)
{
  Exchange *exchange = exchange_new (self, KIND_EVENT_SOURCE, NULL, NULL, self->cancellable);
  SoupMessageHeaders *headers;

  self->listening = TRUE;
  exchange->message = new_message (self, SOUP_METHOD_GET, self->uri);
  headers = soup_message_get_request_headers (exchange->message);
  soup_message_headers_replace (headers, "Accept", "text/event-stream");
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_session_send_async (self->session, exchange->message, G_PRIORITY_DEFAULT,
                           exchange->cancellable, event_source_sent_cb, exchange);
}

/* Sends @exchange (taken), or keeps it until the server named where to. */
static void
post (PalMcpHttpTransport *self,
      Exchange            *exchange)
{
  if (!self->legacy || self->endpoint != NULL)
    {
      send_exchange (exchange);
      return;
    }

  g_ptr_array_add (self->waiting, exchange);
  if (!self->listening)
    listen (self);
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
end_session (PalMcpHttpTransport *self)
{
  g_autoptr(SoupMessage) message = NULL;
  Deletion *deletion;

  if (self->legacy || self->session_id == NULL)
    return;

  message = new_message (self, SOUP_METHOD_DELETE, self->uri);
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
  JsonObject *message = new_rpc_message ();
  g_autoptr(GBytes) text = NULL;
  Exchange *exchange;

  g_task_set_source_tag (task, pal_mcp_http_transport_send_async);

  if (self->closed)
    {
      g_task_return_error (task, new_closed_error ());
      g_object_unref (task);
      json_object_unref (message);
      return;
    }

  if (!notification)
    json_object_set_int_member (message, "id", self->next_id);
  json_object_set_string_member (message, "method", method);
  if (params != NULL)
    json_object_set_member (message, "params", json_node_copy (params));
  text = serialize (message);

  exchange = exchange_new (self, notification ? KIND_NOTIFICATION : KIND_CALL, method, text,
                           cancellable);
  if (notification)
    exchange->task = task;  /* fails as closed if the exchange ends unanswered */
  else
    {
      exchange->id = self->next_id++;
      g_hash_table_insert (self->calls, g_memdup2 (&exchange->id, sizeof exchange->id), task);
    }

  post (self, exchange);
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
      g_task_return_error (l->data, new_closed_error ());
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
  self->waiting = g_ptr_array_new_with_free_func ((GDestroyNotify) exchange_free);
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
