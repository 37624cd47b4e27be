/* acp-agent-incoming.c: what the agent sends
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The agent → client traffic: session/update notifications are checked for
 * their shape and handed on as AcpAgent::session-update, requests as
 * AcpAgent::request (routed by their sessionId), malformed and too long
 * messages become AcpAgent::protocol-error. The end of the connection starts
 * the end of the agent (acp-agent-process.c). In the connection's reading
 * thread, text chunks of one message are joined (join_text_chunk()).
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-agent-private.h"
#include "acp-json.h"
#include "acp-update-variants-private.h"

static void
emit_protocol_error (AcpAgent   *self,
                     const char *format,
                     ...) G_GNUC_PRINTF (2, 3);

static void
emit_protocol_error (AcpAgent   *self,
                     const char *format,
                     ...)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("Agent %p: %s", self, message);
  error = g_error_new_literal (ACP_ERROR, ACP_ERROR_INVALID_MESSAGE, message);
  _acp_agent_emit_protocol_error (self, error);
}

static void
connection_notification_cb (AcpConnection *connection,
                            const char    *method,
                            JsonNode      *params,
                            AcpAgent      *self)
{
  JsonObject *object;
  JsonNode *update;
  const char *session_id;
  JsonObject *update_object;

  if (g_strcmp0 (method, "session/update") != 0)
    {
      g_debug ("Agent %p: ignoring notification %s", self, method);
      return;
    }

  if (params == NULL || !JSON_NODE_HOLDS_OBJECT (params))
    {
      emit_protocol_error (self,
                           _("Malformed session/update notification: params is not an object"));
      return;
    }

  object = json_node_get_object (params);
  session_id = acp_json_get_string (object, "sessionId", NULL);
  if (session_id == NULL)
    {
      emit_protocol_error (self, _("Malformed session/update notification: no string sessionId"));
      return;
    }

  update = json_object_get_member (object, "update");
  if (update == NULL || !JSON_NODE_HOLDS_OBJECT (update))
    {
      emit_protocol_error (self,
                           _("Malformed session/update notification: update is not an object"));
      return;
    }

  update_object = json_node_get_object (update);
  if (acp_json_get_string (update_object, "sessionUpdate", NULL) == NULL)
    {
      emit_protocol_error (self,
                           _("Malformed session/update notification: no string sessionUpdate"));
      return;
    }

  _acp_agent_emit_session_update (self, session_id, update_object);
}

static gboolean
connection_request_cb (AcpConnection      *connection,
                       AcpIncomingRequest *request,
                       AcpAgent           *self)
{
  JsonObject *params = acp_incoming_request_get_params_object (request);
  const char *session_id = NULL;

  if (params != NULL)
    session_id = acp_json_get_string (params, "sessionId", NULL);

  return _acp_agent_emit_request (self, session_id, request);
}

static gboolean
orphan_timeout_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  self->orphan_timeout_id = 0;
  g_debug ("Agent %p: its output is closed but it still runs: stopping it", self);
  _acp_agent_begin_stop (self);

  return G_SOURCE_REMOVE;
}

static void
connection_closed_cb (AcpConnection *connection,
                      const GError  *reason,
                      AcpAgent      *self)
{
  g_autoptr(AcpAgent) hold = g_object_ref (self);

  if (self->connection_closed)
    return;

  self->connection_closed = TRUE;
  g_debug ("Agent %p: connection closed: %s", self, reason != NULL ? reason->message : "EOF");

  if (self->subprocess == NULL)
    {
      /* no process: the stream is the agent */
      _acp_agent_finish_exit (self, reason);
      return;
    }

  if (!self->process_exited)
    {
      /* Usually the exit follows at once. If it does not, the agent closed
       * its stdout but still runs, and is of no use any more. */
      if (self->orphan_timeout_id == 0)
        self->orphan_timeout_id = g_timeout_add (EXIT_DRAIN_TIMEOUT_MS, orphan_timeout_cb, self);
      return;
    }

  _acp_agent_maybe_finish_exit (self);
}

/* Text chunks of one message (AcpConnectionJoinFunc, in the connection's
 * reading thread): a session/update of a TEXT_CHUNK variant (agent, user or
 * thought chunk) whose content is text and nothing else, from the same
 * session, of the same kind and message. Anything more (annotations, _meta)
 * is left alone: it would be lost in the joining. */
static JsonNode *
join_text_chunk (JsonNode  *message,
                 char     **key)
{
  JsonObject *object, *params, *update, *content;
  const char *session_id, *kind, *message_id;
  const AcpUpdateVariant *variant;
  JsonNode *text;

  if (!JSON_NODE_HOLDS_OBJECT (message))
    return NULL;
  object = json_node_get_object (message);
  if (json_object_has_member (object, "id") ||
      g_strcmp0 (acp_json_get_string (object, "method", NULL), "session/update") != 0)
    return NULL;

  params = acp_json_get_object (object, "params");
  if (params == NULL || json_object_get_size (params) != 2)
    return NULL;
  session_id = acp_json_get_string (params, "sessionId", NULL);
  update = acp_json_get_object (params, "update");
  if (session_id == NULL || update == NULL)
    return NULL;

  kind = acp_json_get_string (update, "sessionUpdate", NULL);
  variant = _acp_update_variant_lookup (kind);
  if (variant == NULL || (variant->flags & ACP_UPDATE_FLAGS_TEXT_CHUNK) == 0)
    return NULL;
  message_id = acp_json_get_string (update, "messageId", NULL);
  if (json_object_get_size (update) != (message_id != NULL ? 3u : 2u))
    return NULL;

  content = acp_json_get_object (update, "content");
  if (content == NULL || json_object_get_size (content) != 2 ||
      g_strcmp0 (acp_json_get_string (content, "type", NULL), "text") != 0)
    return NULL;
  text = json_object_get_member (content, "text");
  if (text == NULL || !JSON_NODE_HOLDS_VALUE (text) || json_node_get_value_type (text) != G_TYPE_STRING)
    return NULL;

  /* unambiguous whatever the strings hold */
  *key = g_strdup_printf ("%zu:%s %s %c%s", strlen (session_id), session_id, kind,
                          message_id != NULL ? '+' : '-', message_id != NULL ? message_id : "");
  return text;
}

static void
connection_message_error_cb (AcpConnection *connection,
                             const GError  *error,
                             AcpAgent      *self)
{
  if (self->stray_output == NULL && g_error_matches (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR))
    self->stray_output = g_strdup (error->message);
  /* a whole message is lost, whatever it was for: the sessions say so */
  if (g_error_matches (error, ACP_ERROR, ACP_ERROR_LINE_TOO_LONG))
    _acp_agent_emit_protocol_error (self, error);
}

void
_acp_agent_setup_connection (AcpAgent *self)
{
  acp_connection_set_join_func (self->connection, join_text_chunk);
  acp_connection_set_traffic_log (self->connection, self->log);
  acp_connection_set_pacer (self->connection, self->pacer);
  self->notification_id =
    g_signal_connect (self->connection, "notification",
                      G_CALLBACK (connection_notification_cb), self);
  self->request_id =
    g_signal_connect (self->connection, "request",
                      G_CALLBACK (connection_request_cb), self);
  self->closed_id =
    g_signal_connect (self->connection, "closed",
                      G_CALLBACK (connection_closed_cb), self);
  self->message_error_id =
    g_signal_connect (self->connection, "message-error",
                      G_CALLBACK (connection_message_error_cb), self);
}

