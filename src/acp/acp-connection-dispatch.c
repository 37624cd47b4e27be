/* acp-connection-dispatch.c: what AcpConnection does with each message it
 * reads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A request becomes an AcpIncomingRequest emitted with "request" (and is
 * answered -32601 when nobody takes it), a notification is emitted with
 * "notification" (`$/cancel_request` cancels the request it names first), a
 * response completes its pending call, and anything malformed is answered
 * with a JSON-RPC error or reported with "message-error". The pump
 * (acp-connection-pump.c) hands the messages over one at a time, in order.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-connection-internal.h"

#define MAX_ID_DESCRIPTION       64

/* ------------------------------------------------------------------------ */
/* Message helpers                                                           */

static gboolean
node_holds_type (JsonNode *node,
                 GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

/* A valid JSON-RPC request id: an integer, a string or null. */
static gboolean
id_is_valid (JsonNode *id)
{
  return id != NULL &&
         (JSON_NODE_HOLDS_NULL (id) ||
          node_holds_type (id, G_TYPE_INT64) ||
          node_holds_type (id, G_TYPE_STRING));
}

/* A short printable form of an id from the peer, for error messages. */
static char *
describe_id (JsonNode *id)
{
  if (node_holds_type (id, G_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (id));

  if (node_holds_type (id, G_TYPE_STRING))
    {
      const char *str = json_node_get_string (id);

      if (strlen (str) > MAX_ID_DESCRIPTION)
        {
          const char *end = g_utf8_find_prev_char (str, str + MAX_ID_DESCRIPTION);

          return g_strdup_printf ("\"%.*s…\"", (int) (end - str), str);
        }
      return g_strdup_printf ("\"%s\"", str);
    }

  return g_strdup ("null");
}

/* Our ids are positive integers; accept their string form too. */
static gboolean
lookup_id (JsonNode *id,
           gint64   *out_id)
{
  if (node_holds_type (id, G_TYPE_INT64))
    {
      *out_id = json_node_get_int (id);
      return TRUE;
    }

  if (node_holds_type (id, G_TYPE_STRING))
    {
      guint64 value;

      if (g_ascii_string_to_unsigned (json_node_get_string (id), 10, 1, G_MAXINT64, &value, NULL))
        {
          *out_id = (gint64) value;
          return TRUE;
        }
    }

  return FALSE;
}

static JsonNode *
get_member_or_null (JsonObject *object,
                    const char *name)
{
  return json_object_has_member (object, name) ? json_object_get_member (object, name) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Dispatching                                                               */

static void emit_message_error (AcpConnection *self,
                                int            code,
                                const char    *format,
                                ...) G_GNUC_PRINTF (3, 4);

static void
emit_message_error (AcpConnection *self,
                    int            code,
                    const char    *format,
                    ...)
{
  g_autoptr(GError) error = NULL;
  va_list args;

  va_start (args, format);
  error = g_error_new_valist (ACP_ERROR, code, format, args);
  va_end (args);

  g_debug ("%s", error->message);
  _acp_connection_emit_message_error (self, error);
}

static void
reply_invalid_request (AcpConnection *self,
                       JsonNode      *id,
                       const char    *why)
{
  JsonNode *data = json_node_init_string (json_node_alloc (), why);

  g_debug ("Invalid request: %s", why);
  _acp_connection_send_error (self, id,
                              _acp_connection_new_error_node (ACP_ERROR_INVALID_REQUEST,
                                                              "Invalid Request", data));
}

static void
cancel_incoming (AcpConnection *self,
                 JsonNode      *params)
{
  g_autoptr(AcpIncomingRequest) found = NULL;
  JsonNode *request_id;
  GHashTableIter iter;
  gpointer key;

  if (params == NULL || !JSON_NODE_HOLDS_OBJECT (params))
    return;

  request_id = get_member_or_null (json_node_get_object (params), "requestId");
  if (!id_is_valid (request_id))
    return;

  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      AcpIncomingRequest *request = key;

      if (json_node_equal (acp_incoming_request_get_id (request), request_id))
        {
          found = g_object_ref (request);
          break;
        }
    }

  if (found != NULL)
    {
      g_debug ("The peer cancelled its request “%s”", acp_incoming_request_get_method (found));
      g_cancellable_cancel (acp_incoming_request_get_cancellable (found));
    }
}

/* Checks the members of a message with a method: returns NULL when they
 * are well-formed (@id is then NULL for a notification, @params NULL when
 * absent or null), else why not, with @id the id to answer with (NULL when
 * it is the id that is wrong). */
static const char *
check_method_message (JsonObject  *object,
                      JsonNode   **id,
                      const char **method,
                      JsonNode   **params)
{
  JsonNode *method_node = get_member_or_null (object, "method");
  JsonNode *version = get_member_or_null (object, "jsonrpc");

  *id = get_member_or_null (object, "id");
  *params = get_member_or_null (object, "params");
  *method = NULL;

  if (*id != NULL && !id_is_valid (*id))
    {
      *id = NULL;
      return "The id must be an integer, a string or null";
    }

  if (node_holds_type (method_node, G_TYPE_STRING))
    *method = json_node_get_string (method_node);

  if (*method == NULL || **method == '\0')
    return "The method must be a non-empty string";

  if (version != NULL &&
      (!node_holds_type (version, G_TYPE_STRING) ||
       g_strcmp0 (json_node_get_string (version), "2.0") != 0))
    return "Only JSON-RPC 2.0 is supported";

  if (*params != NULL && JSON_NODE_HOLDS_NULL (*params))
    *params = NULL;

  if (*params != NULL && !JSON_NODE_HOLDS_OBJECT (*params) && !JSON_NODE_HOLDS_ARRAY (*params))
    return "The params must be an object or an array";

  return NULL;
}

/* Whether @root, read in the reading thread, is a well-formed
 * notification, which dispatching would emit with ::notification: the
 * rules of check_method_message () for a message without an id, on the
 * document. Its method and params (NULL when absent or null). */
gboolean
_acp_connection_is_notification (const AcpJsonDoc    *doc,
                                 const AcpJsonValue  *root,
                                 const char         **method,
                                 const AcpJsonValue **params)
{
  const AcpJsonValue *version;

  if (!acp_json_value_is (root, ACP_JSON_OBJECT) ||
      acp_json_value_get_member (doc, root, "id") != NULL)
    return FALSE;

  *method = acp_json_value_get_string_member (doc, root, "method");
  if (*method == NULL || **method == '\0')
    return FALSE;

  version = acp_json_value_get_member (doc, root, "jsonrpc");
  if (version != NULL && g_strcmp0 (acp_json_value_get_string (doc, version), "2.0") != 0)
    return FALSE;

  *params = acp_json_value_get_member (doc, root, "params");
  if (acp_json_value_is (*params, ACP_JSON_NULL))
    *params = NULL;

  return *params == NULL || acp_json_value_is (*params, ACP_JSON_OBJECT) ||
         acp_json_value_is (*params, ACP_JSON_ARRAY);
}

static void
dispatch_method_message (AcpConnection *self,
                         JsonObject    *object)
{
  JsonNode *id;
  JsonNode *params;
  const char *method;
  const char *invalid = check_method_message (object, &id, &method, &params);

  if (invalid != NULL)
    {
      reply_invalid_request (self, id, invalid);
      return;
    }

  if (id == NULL)
    {
      if (g_str_equal (method, "$/cancel_request"))
        cancel_incoming (self, params);

      _acp_connection_emit_notification (self, method, params);
    }
  else
    {
      g_autoptr(AcpIncomingRequest) request = _acp_incoming_request_new (self, method, id, params);
      gboolean handled;

      g_hash_table_add (self->incoming, request);
      handled = _acp_connection_emit_request (self, request);

      if (!handled && !acp_incoming_request_get_answered (request))
        {
          JsonObject *data = json_object_new ();
          JsonNode *data_node = json_node_new (JSON_NODE_OBJECT);

          g_debug ("No handler for the request “%s”", method);
          json_object_set_string_member (data, "method", method);
          json_node_take_object (data_node, data);
          _acp_incoming_request_send (request, "error",
                                      _acp_connection_new_error_node (ACP_ERROR_METHOD_NOT_FOUND,
                                                                      "Method not found",
                                                                      data_node));
        }
    }
}

/* Agents give a generic message ("Internal error") and put the reason in
 * `data`: a string, or an object's "details" or "message". */
static const char *
reason_of_data (JsonNode *data)
{
  static const char * const members[] = { "details", "message" };

  if (data == NULL)
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (data) && json_node_get_value_type (data) == G_TYPE_STRING)
    return json_node_get_string (data);

  if (!JSON_NODE_HOLDS_OBJECT (data))
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      JsonNode *member = json_object_get_member (json_node_get_object (data), members[i]);

      if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
          json_node_get_value_type (member) == G_TYPE_STRING)
        return json_node_get_string (member);
    }

  return NULL;
}

/* Turns an error object of the peer into a remote GError, or NULL when it is
 * not shaped like one. Its message says the reason `data` gives too. */
static GError *
parse_error_object (JsonNode *node)
{
  JsonObject *object;
  JsonNode *code;
  JsonNode *text;
  JsonNode *data;
  const char *message;
  const char *reason;
  g_autofree char *full = NULL;
  gint64 value;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  object = json_node_get_object (node);
  code = get_member_or_null (object, "code");
  text = get_member_or_null (object, "message");

  if (!node_holds_type (code, G_TYPE_INT64) || !node_holds_type (text, G_TYPE_STRING))
    return NULL;

  value = json_node_get_int (code);
  if (value < G_MININT || value > G_MAXINT)
    return NULL;

  message = json_node_get_string (text);
  data = get_member_or_null (object, "data");
  reason = reason_of_data (data);
  if (reason != NULL)
    {
      g_autofree char *stripped = g_strstrip (g_strdup (reason));

      if (*stripped != '\0' && strstr (message, stripped) == NULL)
        full = *message != '\0' ? g_strdup_printf ("%s: %s", message, stripped) : g_steal_pointer (&stripped);
    }

  return acp_error_new_remote ((int) value, full != NULL ? full : message, data);
}

static void
dispatch_response (AcpConnection *self,
                   JsonObject    *object)
{
  JsonNode *id = get_member_or_null (object, "id");
  JsonNode *result = get_member_or_null (object, "result");
  JsonNode *error_node = get_member_or_null (object, "error");
  g_autoptr(GTask) task = NULL;
  g_autofree char *method = NULL;
  PendingCall *call = NULL;
  gint64 key = 0;

  /* Some peers send "error": null next to a result. */
  if (error_node != NULL && JSON_NODE_HOLDS_NULL (error_node))
    error_node = NULL;

  if (lookup_id (id, &key))
    call = g_hash_table_lookup (self->pending, &key);

  if (call == NULL)
    {
      g_autofree char *description = describe_id (id);
      g_autoptr(GError) remote = NULL;

      if (lookup_id (id, &key) && g_hash_table_remove (self->cancelled_ids, &key))
        {
          g_debug ("Ignoring the late response to cancelled call %" G_GINT64_FORMAT, key);
          return;
        }

      remote = parse_error_object (error_node);
      if (remote != NULL)
        emit_message_error (self, ACP_ERROR_INVALID_MESSAGE,
                            _("The agent reported an error for an unknown request (id %s): %s"),
                            description, remote->message);
      else
        emit_message_error (self, ACP_ERROR_INVALID_MESSAGE,
                            _("The agent answered an unknown request (id %s)"),
                            description);
      return;
    }

  g_hash_table_steal (self->pending, &call->id);
  task = g_steal_pointer (&call->task);
  method = g_steal_pointer (&call->method);
  _acp_pending_call_free (call);

  if (result != NULL && error_node == NULL)
    {
      g_task_return_pointer (task, json_node_copy (result), (GDestroyNotify) json_node_unref);
    }
  else if (error_node != NULL && result == NULL)
    {
      GError *error = parse_error_object (error_node);

      if (error != NULL)
        g_task_return_error (task, error);
      else
        g_task_return_new_error (task, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                                 _("The agent answered “%s” with a malformed error"), method);
    }
  else
    {
      g_task_return_new_error (task, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                               _("The agent answered “%s” with a malformed response"), method);
    }
}

/* Dispatches one parsed line. @root: (transfer full) (nullable). */
static void
dispatch_parsed (AcpConnection *self,
                 JsonNode      *root,
                 const GError  *error)
{
  g_autoptr(JsonNode) owned_root = root;
  JsonObject *object;

  if (error != NULL)
    {
      JsonNode *data = json_node_init_string (json_node_alloc (), error->message);

      g_debug ("Received a line that is not JSON: %s", error->message);
      _acp_connection_send_error (self, NULL,
                                  _acp_connection_new_error_node (ACP_ERROR_PARSE_ERROR,
                                                                  "Parse error", data));
      return;
    }

  if (root == NULL)
    return;  /* only whitespace */

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      reply_invalid_request (self, NULL, "Batches are not supported");
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      reply_invalid_request (self, NULL, "A message must be an object");
      return;
    }

  object = json_node_get_object (root);

  if (json_object_has_member (object, "method"))
    {
      dispatch_method_message (self, object);
    }
  else if (json_object_has_member (object, "result") || json_object_has_member (object, "error"))
    {
      dispatch_response (self, object);
    }
  else
    {
      JsonNode *id = get_member_or_null (object, "id");
      gint64 key;

      if (lookup_id (id, &key) && g_hash_table_contains (self->pending, &key))
        dispatch_response (self, object);
      else
        reply_invalid_request (self, id_is_valid (id) ? id : NULL,
                               "The message is neither a request, a notification nor a response");
    }
}

/* Dispatches one result of the worker. @parsed: (transfer full) */
void
_acp_connection_dispatch (AcpConnection *self,
                          AcpParsed     *parsed)
{
  switch (parsed->kind)
    {
    case ACP_PARSED_MESSAGE:
      dispatch_parsed (self, g_steal_pointer (&parsed->root), NULL);
      break;

    case ACP_PARSED_PREPARED:
      self->preparer->dispatch (self, parsed->prepared, self->preparer_data);
      break;

    case ACP_PARSED_NOT_JSON:
      emit_message_error (self, ACP_ERROR_PARSE_ERROR,
                          _("The agent wrote a line that is not the Agent Client Protocol: “%s”"),
                          parsed->excerpt);
      dispatch_parsed (self, NULL, parsed->error);
      break;

    case ACP_PARSED_TOO_LONG:
      {
        /* formatted apart: a format macro would cut the message short */
        g_autofree char *limit = g_strdup_printf ("%" G_GSIZE_FORMAT, parsed->limit);

        emit_message_error (self, ACP_ERROR_LINE_TOO_LONG,
                            _("The agent sent a message longer than the limit of %s bytes; "
                              "it was skipped"),
                            limit);
      }
      break;

    case ACP_PARSED_END:
      _acp_connection_close (self, NULL, TRUE);
      break;

    case ACP_PARSED_READ_ERROR:
      _acp_connection_close (self, parsed->error, TRUE);
      break;

    default:
      g_assert_not_reached ();
    }

  acp_parsed_free (parsed);
}
