/* pal-mcp-probe-http-rpc.c: JSON-RPC messages of the HTTP transports
 *
 * Answers come apart from their requests over HTTP (in the body of a POST,
 * or on the event stream), so the transport matches them to its calls by
 * id itself, answers the server's own requests, and checks every message
 * before acting on it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-error.h"
#include "acp-json.h"
#include "pal-error.h"
#include "pal-mcp-probe-http-private.h"

/* json-glib parses recursively: refuse deeper nesting before it parses. */
#define MAX_JSON_DEPTH 256

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

JsonObject *
_pal_mcp_http_new_rpc_message (void)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "jsonrpc", "2.0");
  return message;
}

/* @message: (transfer full) */
GBytes *
_pal_mcp_http_serialize (JsonObject *message)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  char *text;

  json_node_take_object (node, message);
  text = json_to_string (node, FALSE);
  g_debug ("MCP probe sends %s", text);

  return g_bytes_new_take (text, strlen (text));
}

/* Answers a request of the server: ping gets an empty result; we offer no
 * other client feature, so everything else is an unknown method. */
static void
answer_server_request (PalMcpHttpTransport *self,
                       JsonObject          *request)
{
  JsonObject *answer = _pal_mcp_http_new_rpc_message ();
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
  text = _pal_mcp_http_serialize (answer);
  _pal_mcp_http_post (self, _pal_mcp_http_exchange_new (self, KIND_RESPONSE, NULL, text,
                                                        self->cancellable));
}

void
_pal_mcp_http_complete_call (PalMcpHttpTransport *self,
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

      _pal_mcp_http_transport_fail (self,
                                    g_error_new (PAL_ERROR, PAL_ERROR_PROTOCOL,
                                                 _("The server could not read a message: %s "
                                                   "(code %s)"),
                                                 message, code_text));
      return;
    }

  if (!get_integer (id_node, &id) || !g_hash_table_contains (self->calls, &id))
    {
      g_debug ("MCP probe ignores a response to a request it did not send");
      return;
    }

  if (error != NULL)
    _pal_mcp_http_complete_call (self, id, NULL,
                                 acp_error_new_remote ((int) CLAMP (code, G_MININT, G_MAXINT),
                                                       acp_json_get_string (error, "message", NULL),
                                                       json_object_get_member (error, "data")));
  else
    _pal_mcp_http_complete_call (self, id, json_object_get_member (response, "result"), NULL);
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
gboolean
_pal_mcp_http_receive (PalMcpHttpTransport  *self,
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

  for (guint i = 0; i < n && !_pal_mcp_http_is_over (self); i++)
    dispatch (self, batch != NULL ? json_array_get_element (batch, i) : root);

  return TRUE;
}
