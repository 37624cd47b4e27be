/* acp-incoming-request.c: a request of the peer of an AcpConnection, to be
 * answered once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The connection creates one for each request it reads and emits it with
 * AcpConnection::request; the answer goes back through the connection
 * (_acp_connection_reply()) unless the connection closed first.
 */

#include "config.h"

#include "acp-connection-internal.h"

struct _AcpIncomingRequest
{
  GObject        parent_instance;

  AcpConnection *connection;   /* not owned; NULL once answered or closed */
  char          *method;
  JsonNode      *id;
  JsonNode      *params;       /* nullable */
  GCancellable  *cancellable;
  gboolean       answered;
};

G_DEFINE_FINAL_TYPE (AcpIncomingRequest, acp_incoming_request, G_TYPE_OBJECT)

/* Answers with @value (transfer full) as the @member ("result" or "error")
 * of the response, through the connection; drops it when the connection
 * is closed. */
void
_acp_incoming_request_send (AcpIncomingRequest *self,
                            const char         *member,
                            JsonNode           *value)
{
  AcpConnection *connection = self->connection;

  g_assert (!self->answered);

  self->answered = TRUE;

  if (connection == NULL)
    {
      g_debug ("Dropping the reply to “%s”: the connection is closed", self->method);
      json_node_unref (value);
      return;
    }

  self->connection = NULL;
  _acp_connection_reply (connection, self, member, value);
}

static void
acp_incoming_request_dispose (GObject *object)
{
  AcpIncomingRequest *self = ACP_INCOMING_REQUEST (object);

  if (!self->answered && self->connection != NULL)
    {
      g_debug ("The request “%s” was dropped without an answer", self->method);
      _acp_incoming_request_send (self, "error",
                                  _acp_connection_new_error_node (ACP_ERROR_INTERNAL_ERROR,
                                                                  "The client dropped the request "
                                                                  "without answering",
                                                                  NULL));
    }

  G_OBJECT_CLASS (acp_incoming_request_parent_class)->dispose (object);
}

static void
acp_incoming_request_finalize (GObject *object)
{
  AcpIncomingRequest *self = ACP_INCOMING_REQUEST (object);

  g_clear_pointer (&self->method, g_free);
  g_clear_pointer (&self->id, json_node_unref);
  g_clear_pointer (&self->params, json_node_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (acp_incoming_request_parent_class)->finalize (object);
}

static void
acp_incoming_request_class_init (AcpIncomingRequestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = acp_incoming_request_dispose;
  object_class->finalize = acp_incoming_request_finalize;
}

static void
acp_incoming_request_init (AcpIncomingRequest *self)
{
  self->cancellable = g_cancellable_new ();
}

AcpIncomingRequest *
_acp_incoming_request_new (AcpConnection *connection,
                           const char    *method,
                           JsonNode      *id,
                           JsonNode      *params)
{
  AcpIncomingRequest *self = g_object_new (ACP_TYPE_INCOMING_REQUEST, NULL);

  self->connection = connection;
  self->method = g_strdup (method);
  self->id = json_node_copy (id);
  self->params = params != NULL ? json_node_copy (params) : NULL;

  return self;
}

/* The connection closed: answers given from now on are dropped. */
void
_acp_incoming_request_detach (AcpIncomingRequest *self)
{
  self->connection = NULL;
}

/**
 * acp_incoming_request_get_method:
 * @self: a #AcpIncomingRequest
 *
 * Returns: the method the peer called
 */
const char *
acp_incoming_request_get_method (AcpIncomingRequest *self)
{
  g_return_val_if_fail (ACP_IS_INCOMING_REQUEST (self), NULL);

  return self->method;
}

/**
 * acp_incoming_request_get_id:
 * @self: a #AcpIncomingRequest
 *
 * Returns: (transfer none): the id exactly as the peer sent it: an integer, a
 *   string or a null node
 */
JsonNode *
acp_incoming_request_get_id (AcpIncomingRequest *self)
{
  g_return_val_if_fail (ACP_IS_INCOMING_REQUEST (self), NULL);

  return self->id;
}

/**
 * acp_incoming_request_get_params:
 * @self: a #AcpIncomingRequest
 *
 * Returns: (transfer none) (nullable): the params (an object or an array), or
 *   %NULL when the peer sent none or null
 */
JsonNode *
acp_incoming_request_get_params (AcpIncomingRequest *self)
{
  g_return_val_if_fail (ACP_IS_INCOMING_REQUEST (self), NULL);

  return self->params;
}

/**
 * acp_incoming_request_get_params_object:
 * @self: a #AcpIncomingRequest
 *
 * Returns: (transfer none) (nullable): the params when they are an object
 */
JsonObject *
acp_incoming_request_get_params_object (AcpIncomingRequest *self)
{
  g_return_val_if_fail (ACP_IS_INCOMING_REQUEST (self), NULL);

  if (self->params == NULL || !JSON_NODE_HOLDS_OBJECT (self->params))
    return NULL;

  return json_node_get_object (self->params);
}

/**
 * acp_incoming_request_get_answered:
 * @self: a #AcpIncomingRequest
 *
 * Returns: whether a reply was given (or the request was dropped)
 */
gboolean
acp_incoming_request_get_answered (AcpIncomingRequest *self)
{
  g_return_val_if_fail (ACP_IS_INCOMING_REQUEST (self), FALSE);

  return self->answered;
}

/**
 * acp_incoming_request_get_cancellable:
 * @self: a #AcpIncomingRequest
 *
 * The cancellable is cancelled when the connection closes before the request
 * is answered, and when the peer sends `$/cancel_request` for it. A handler
 * should then answer soon (a cancelled request may be answered with an error
 * built from %G_IO_ERROR_CANCELLED, which is sent as -32800).
 *
 * Returns: (transfer none): the request's cancellable
 */
GCancellable *
acp_incoming_request_get_cancellable (AcpIncomingRequest *self)
{
  g_return_val_if_fail (ACP_IS_INCOMING_REQUEST (self), NULL);

  return self->cancellable;
}

/**
 * acp_incoming_request_reply:
 * @self: a #AcpIncomingRequest
 * @result: (transfer none) (nullable): the result; %NULL sends `null`
 *
 * Answers the request with a result. Must be called once at most. When the
 * connection is closed already, the reply is dropped silently.
 */
void
acp_incoming_request_reply (AcpIncomingRequest *self,
                            JsonNode           *result)
{
  g_return_if_fail (ACP_IS_INCOMING_REQUEST (self));
  g_return_if_fail (!self->answered);

  _acp_incoming_request_send (self, "result",
                              result != NULL ? json_node_copy (result)
                                             : json_node_new (JSON_NODE_NULL));
}

/**
 * acp_incoming_request_reply_error:
 * @self: a #AcpIncomingRequest
 * @error: the error to send
 *
 * Answers the request with an error. %ACP_ERROR codes in the JSON-RPC range
 * and remote errors keep their code and data, %G_IO_ERROR_CANCELLED becomes
 * -32800 (request cancelled) and anything else -32603 (internal error).
 * Must be called once at most.
 */
void
acp_incoming_request_reply_error (AcpIncomingRequest *self,
                                  const GError       *error)
{
  JsonNode *node;

  g_return_if_fail (ACP_IS_INCOMING_REQUEST (self));
  g_return_if_fail (error != NULL);
  g_return_if_fail (!self->answered);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    node = _acp_connection_new_error_node (ACP_ERROR_REQUEST_CANCELLED, error->message, NULL);
  else
    node = acp_error_to_json (error);

  _acp_incoming_request_send (self, "error", node);
}

/**
 * acp_incoming_request_reply_error_literal:
 * @self: a #AcpIncomingRequest
 * @code: a JSON-RPC error code
 * @message: the error message
 *
 * Answers the request with an error object of @code and @message.
 * Must be called once at most.
 */
void
acp_incoming_request_reply_error_literal (AcpIncomingRequest *self,
                                          int                 code,
                                          const char         *message)
{
  g_return_if_fail (ACP_IS_INCOMING_REQUEST (self));
  g_return_if_fail (message != NULL);
  g_return_if_fail (!self->answered);

  _acp_incoming_request_send (self, "error",
                              _acp_connection_new_error_node (code, message, NULL));
}
