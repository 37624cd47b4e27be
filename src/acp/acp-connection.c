/* acp-connection.c: a JSON-RPC 2.0 peer over a GIOStream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How it works
 *
 * Reading, parsing and preparing lines happen in a worker thread
 * (acp-line-reader.c); on the main thread, the pump takes what it parsed
 * (acp-connection-pump.c) and dispatches it one message at a time
 * (acp-connection-dispatch.c).
 *
 * Lifetime. The write callbacks do not keep the connection alive: they
 * hold an IoLink, a small shared record whose pointer to the connection is
 * cleared in dispose, and which closes the stream once no operation on it is
 * left in flight (a GIOStream cannot be closed with a read pending on it).
 * The worker's reading counts as one such operation, from its start until
 * the main context hears that the worker stopped reading.
 * Outgoing calls and flushes are GTasks and keep the connection alive until
 * they complete.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-connection-internal.h"
#include "acp-marshal.h"

/* ------------------------------------------------------------------------ */
/* IoLink: what the in-flight I/O callbacks share with the connection        */

static IoLink *
io_link_new (AcpConnection *connection,
             GIOStream     *stream)
{
  IoLink *link = g_new0 (IoLink, 1);

  g_ref_count_init (&link->ref_count);
  link->connection = connection;
  link->stream = g_object_ref (stream);

  return link;
}

IoLink *
_acp_io_link_ref (IoLink *link)
{
  g_ref_count_inc (&link->ref_count);
  return link;
}

void
_acp_io_link_unref (IoLink *link)
{
  if (g_ref_count_dec (&link->ref_count))
    {
      g_clear_object (&link->stream);
      g_free (link);
    }
}

static void
stream_close_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_io_stream_close_finish (G_IO_STREAM (source), result, &error))
    g_debug ("Closing the stream failed: %s", error->message);
}

/* Closes the stream once closing was asked for and nothing is in flight. */
void
_acp_io_link_maybe_close (IoLink *link)
{
  if (!link->close_requested || link->close_started || link->n_in_flight > 0)
    return;

  link->close_started = TRUE;
  g_io_stream_close_async (link->stream, G_PRIORITY_DEFAULT, NULL, stream_close_cb, NULL);
}

/* ------------------------------------------------------------------------ */
/* The type, its properties and signals                                      */

G_DEFINE_FINAL_TYPE (AcpConnection, acp_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STREAM,
  PROP_MAX_LINE_LENGTH,
  PROP_PACER,
  PROP_CLOSED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_REQUEST,
  SIGNAL_NOTIFICATION,
  SIGNAL_MESSAGE_ERROR,
  SIGNAL_CLOSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Message helpers                                                           */

static JsonObject *
new_message (void)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "jsonrpc", "2.0");
  return message;
}

JsonNode *
_acp_connection_new_error_node (int         code,
                                const char *text,
                                JsonNode   *data)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (object, "code", code);
  json_object_set_string_member (object, "message", text);
  if (data != NULL)
    json_object_set_member (object, "data", data);
  json_node_take_object (node, object);

  return node;
}

/* Sends an error response. @id: (nullable): the request id, NULL for null.
 * @error_node: (transfer full): the error object. */
void
_acp_connection_send_error (AcpConnection *self,
                            JsonNode      *id,
                            JsonNode      *error_node)
{
  JsonObject *message = new_message ();

  if (id != NULL)
    json_object_set_member (message, "id", json_node_copy (id));
  else
    json_object_set_null_member (message, "id");
  json_object_set_member (message, "error", error_node);
  _acp_connection_queue_object (self, message);
}

/* Sends the response to @request, its @member ("result" or "error") being
 * @value (transfer full), and forgets the request. */
void
_acp_connection_reply (AcpConnection      *self,
                       AcpIncomingRequest *request,
                       const char         *member,
                       JsonNode           *value)
{
  JsonObject *message;

  g_hash_table_remove (self->incoming, request);

  message = new_message ();
  json_object_set_member (message, "id", json_node_copy (acp_incoming_request_get_id (request)));
  json_object_set_member (message, member, value);
  _acp_connection_queue_object (self, message);
}

/* ------------------------------------------------------------------------ */
/* Signals emitted while dispatching                                         */

/* Returns: whether a handler took @request */
gboolean
_acp_connection_emit_request (AcpConnection      *self,
                              AcpIncomingRequest *request)
{
  gboolean handled = FALSE;

  g_signal_emit (self, signals[SIGNAL_REQUEST],
                 g_quark_try_string (acp_incoming_request_get_method (request)),
                 request, &handled);

  return handled;
}

void
_acp_connection_emit_notification (AcpConnection *self,
                                   const char    *method,
                                   JsonNode      *params)
{
  g_signal_emit (self, signals[SIGNAL_NOTIFICATION], g_quark_try_string (method),
                 method, params);
}

void
_acp_connection_emit_message_error (AcpConnection *self,
                                    const GError  *error)
{
  g_signal_emit (self, signals[SIGNAL_MESSAGE_ERROR], 0, error);
}

/* ------------------------------------------------------------------------ */
/* Pending calls                                                             */

void
_acp_pending_call_free (PendingCall *call)
{
  if (call->cancel_source != NULL)
    {
      g_source_destroy (call->cancel_source);
      g_clear_pointer (&call->cancel_source, g_source_unref);
    }
  g_clear_object (&call->task);
  g_free (call->method);
  g_free (call);
}

static gboolean
call_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  PendingCall *call = user_data;
  g_autoptr(GTask) task = g_steal_pointer (&call->task);
  AcpConnection *self = g_task_get_source_object (task);
  gint64 id = call->id;
  JsonObject *message;
  JsonObject *params;

  g_hash_table_steal (self->pending, &call->id);
  _acp_pending_call_free (call);

  g_debug ("Call %" G_GINT64_FORMAT " cancelled", id);
  g_hash_table_add (self->cancelled_ids, g_memdup2 (&id, sizeof id));

  params = json_object_new ();
  json_object_set_int_member (params, "requestId", id);
  message = new_message ();
  json_object_set_string_member (message, "method", "$/cancel_request");
  json_object_set_object_member (message, "params", params);
  _acp_connection_queue_object (self, message);

  g_task_return_error_if_cancelled (task);

  return G_SOURCE_REMOVE;
}

/* Returns: (transfer full) (nullable): a source attached to the connection's
 * context that calls @func once @cancellable is cancelled, NULL without
 * @cancellable */
GSource *
_acp_connection_attach_cancel_source (AcpConnection          *self,
                                      GCancellable           *cancellable,
                                      GCancellableSourceFunc  func,
                                      gpointer                data)
{
  GSource *source;

  if (cancellable == NULL)
    return NULL;

  source = g_cancellable_source_new (cancellable);
  g_source_set_callback (source, (GSourceFunc) func, data, NULL);
  g_source_set_static_name (source, "[acp] connection cancel");
  g_source_attach (source, self->context);

  return source;
}

/* ------------------------------------------------------------------------ */
/* Closing                                                                   */

GError *
_acp_connection_new_closed_error (const GError *reason)
{
  if (reason != NULL)
    return g_error_new (ACP_ERROR, ACP_ERROR_CLOSED,
                        _("The connection to the agent was closed: %s"), reason->message);

  return g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED,
                              _("The connection to the agent was closed"));
}

/* Fails everything pending and closes the stream. @emit is FALSE in dispose,
 * where nobody can be listening any more. */
void
_acp_connection_close (AcpConnection *self,
                       const GError  *reason,
                       gboolean       emit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) requests = NULL;
  GList *calls;
  GHashTableIter iter;
  gpointer key;

  if (self->closed)
    return;

  g_object_ref (self);

  g_debug ("Closing the connection%s%s",
           reason != NULL ? ": " : "", reason != NULL ? reason->message : "");

  self->closed = TRUE;
  g_cancellable_cancel (self->cancellable);
  g_queue_clear_full (&self->write_queue, (GDestroyNotify) g_bytes_unref);
  _acp_connection_stop_reading (self);

  if (self->link != NULL)
    {
      self->link->close_requested = TRUE;
      _acp_io_link_maybe_close (self->link);
    }

  error = _acp_connection_new_closed_error (reason);

  /* Detach the incoming requests first: answers given from the callbacks
   * below are then dropped. */
  requests = g_ptr_array_new_with_free_func (g_object_unref);
  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      AcpIncomingRequest *request = key;

      _acp_incoming_request_detach (request);
      g_ptr_array_add (requests, g_object_ref (request));
    }
  g_hash_table_remove_all (self->incoming);

  _acp_connection_fail_flushes (self, error);

  calls = g_hash_table_get_values (self->pending);
  g_hash_table_steal_all (self->pending);
  for (GList *l = calls; l != NULL; l = l->next)
    {
      PendingCall *call = l->data;
      g_autoptr(GTask) task = g_steal_pointer (&call->task);

      _acp_pending_call_free (call);
      g_task_return_error (task, g_error_copy (error));
    }
  g_list_free (calls);

  for (guint i = 0; i < requests->len; i++)
    {
      AcpIncomingRequest *request = g_ptr_array_index (requests, i);

      g_cancellable_cancel (acp_incoming_request_get_cancellable (request));
    }

  if (emit)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOSED]);
      g_signal_emit (self, signals[SIGNAL_CLOSED], 0, reason);
    }

  g_object_unref (self);
}

/* ------------------------------------------------------------------------ */
/* AcpConnection                                                             */

static void
acp_connection_constructed (GObject *object)
{
  AcpConnection *self = ACP_CONNECTION (object);

  G_OBJECT_CLASS (acp_connection_parent_class)->constructed (object);

  if (self->stream != NULL)
    self->link = io_link_new (self, self->stream);
}

static void
acp_connection_dispose (GObject *object)
{
  AcpConnection *self = ACP_CONNECTION (object);

  _acp_connection_close (self, NULL, FALSE);

  if (self->link != NULL)
    {
      self->link->connection = NULL;
      g_clear_pointer (&self->link, _acp_io_link_unref);
    }

  G_OBJECT_CLASS (acp_connection_parent_class)->dispose (object);
}

static void
acp_connection_finalize (GObject *object)
{
  AcpConnection *self = ACP_CONNECTION (object);

  g_clear_object (&self->stream);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  acp_parsed_list_clear (&self->ready);
  g_queue_clear_full (&self->write_queue, (GDestroyNotify) g_bytes_unref);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->cancelled_ids, g_hash_table_unref);
  g_clear_pointer (&self->incoming, g_hash_table_unref);
  g_clear_object (&self->log);
  g_clear_object (&self->pacer);

  G_OBJECT_CLASS (acp_connection_parent_class)->finalize (object);
}

static void
acp_connection_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AcpConnection *self = ACP_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_STREAM:
      g_value_set_object (value, self->stream);
      break;

    case PROP_MAX_LINE_LENGTH:
      g_value_set_uint64 (value, self->max_line_length);
      break;

    case PROP_PACER:
      g_value_set_object (value, self->pacer);
      break;

    case PROP_CLOSED:
      g_value_set_boolean (value, self->closed);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_connection_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  AcpConnection *self = ACP_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_STREAM:
      self->stream = g_value_dup_object (value);
      break;

    case PROP_MAX_LINE_LENGTH:
      acp_connection_set_max_line_length (self, (gsize) g_value_get_uint64 (value));
      break;

    case PROP_PACER:
      acp_connection_set_pacer (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_connection_class_init (AcpConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = acp_connection_constructed;
  object_class->dispose = acp_connection_dispose;
  object_class->finalize = acp_connection_finalize;
  object_class->get_property = acp_connection_get_property;
  object_class->set_property = acp_connection_set_property;

  /**
   * AcpConnection:stream:
   *
   * The stream the messages travel over.
   */
  properties[PROP_STREAM] =
    g_param_spec_object ("stream", NULL, NULL,
                         G_TYPE_IO_STREAM,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY));

  /**
   * AcpConnection:max-line-length:
   *
   * The longest incoming line (message), in bytes without the newline.
   */
  properties[PROP_MAX_LINE_LENGTH] =
    g_param_spec_uint64 ("max-line-length", NULL, NULL,
                         1, G_MAXSIZE, ACP_CONNECTION_DEFAULT_MAX_LINE_LENGTH,
                         (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY));

  /**
   * AcpConnection:pacer: (nullable)
   *
   * The frames dispatching keeps in step with; %NULL: time slices only.
   */
  properties[PROP_PACER] =
    g_param_spec_object ("pacer", NULL, NULL,
                         ACP_TYPE_PACER,
                         (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY));

  /**
   * AcpConnection:closed:
   *
   * Whether the connection is closed.
   */
  properties[PROP_CLOSED] =
    g_param_spec_boolean ("closed", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                           G_PARAM_EXPLICIT_NOTIFY));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AcpConnection::request:
   * @self: a #AcpConnection
   * @request: the request
   *
   * Emitted for each request of the peer, with the method as detail.
   * A handler that takes the request returns %TRUE and replies, now or later,
   * keeping a reference until it does.
   *
   * Returns: %TRUE when handled; otherwise -32601 is sent
   */
  signals[SIGNAL_REQUEST] =
    g_signal_new ("request",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED,
                  0,
                  g_signal_accumulator_true_handled, NULL,
                  NULL,
                  G_TYPE_BOOLEAN, 1, ACP_TYPE_INCOMING_REQUEST);

  /**
   * AcpConnection::notification:
   * @self: a #AcpConnection
   * @method: the method
   * @params: (nullable): the params, an object or an array
   *
   * Emitted for each notification of the peer, with the method as detail:
   * connect to `notification::session/update` for one method.
   */
  signals[SIGNAL_NOTIFICATION] =
    g_signal_new ("notification",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED,
                  0,
                  NULL, NULL,
                  acp_marshal_VOID__STRING_BOXED,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[SIGNAL_NOTIFICATION], G_TYPE_FROM_CLASS (klass),
                              acp_marshal_VOID__STRING_BOXEDv);

  /**
   * AcpConnection::message-error:
   * @self: a #AcpConnection
   * @error: what was wrong
   *
   * Emitted for a message of the peer that is malformed and cannot be
   * answered (a line over the cap, a response to no pending request), and
   * for a line that is not JSON (%ACP_ERROR_PARSE_ERROR, answered too: an
   * agent that writes anything else on its standard output).
   */
  signals[SIGNAL_MESSAGE_ERROR] =
    g_signal_new ("message-error",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AcpConnection::closed:
   * @self: a #AcpConnection
   * @reason: (nullable): why, or %NULL for the end of the stream or a plain
   *   acp_connection_close()
   *
   * Emitted exactly once, when the connection closes.
   */
  signals[SIGNAL_CLOSED] =
    g_signal_new ("closed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
acp_connection_init (AcpConnection *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->cancellable = g_cancellable_new ();
  self->max_line_length = ACP_CONNECTION_DEFAULT_MAX_LINE_LENGTH;
  self->next_id = 1;
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                         NULL, (GDestroyNotify) _acp_pending_call_free);
  self->cancelled_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->incoming = g_hash_table_new (NULL, NULL);
  g_queue_init (&self->write_queue);
  g_queue_init (&self->flush_waiters);
}

/**
 * acp_connection_new:
 * @stream: the stream to talk over
 *
 * Creates a connection. It does not read until acp_connection_start(); it
 * works on the thread-default main context of the caller, which must also be
 * the one every other function is called from.
 *
 * Returns: (transfer full): a new #AcpConnection
 */
AcpConnection *
acp_connection_new (GIOStream *stream)
{
  g_return_val_if_fail (G_IS_IO_STREAM (stream), NULL);

  return g_object_new (ACP_TYPE_CONNECTION,
                       "stream", stream,
                       NULL);
}

/**
 * acp_connection_get_stream:
 * @self: a #AcpConnection
 *
 * Returns: (transfer none): the stream
 */
GIOStream *
acp_connection_get_stream (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), NULL);

  return self->stream;
}

/**
 * acp_connection_get_max_line_length:
 * @self: a #AcpConnection
 *
 * Returns: the cap on the length of an incoming line, in bytes
 */
gsize
acp_connection_get_max_line_length (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), 0);

  return self->max_line_length;
}

/**
 * acp_connection_set_max_line_length:
 * @self: a #AcpConnection
 * @max_line_length: the cap, in bytes, at least 1
 *
 * Sets the cap on the length of an incoming line, not counting its newline.
 * A longer line is skipped without being buffered and reported through
 * #AcpConnection::message-error with %ACP_ERROR_LINE_TOO_LONG.
 */
void
acp_connection_set_max_line_length (AcpConnection *self,
                                    gsize          max_line_length)
{
  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (max_line_length > 0);

  if (self->max_line_length == max_line_length)
    return;

  self->max_line_length = max_line_length;
  if (self->reader != NULL)
    acp_line_reader_set_max_line_length (self->reader, max_line_length);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_LINE_LENGTH]);
}

/**
 * acp_connection_set_preparer:
 * @self: a #AcpConnection
 * @preparer: (nullable): see #AcpConnectionPreparer; static, or kept alive
 *   as long as @self
 * @user_data: for its dispatch function
 *
 * Sets what takes notifications apart in the reading thread, before
 * acp_connection_start().
 */
void
acp_connection_set_preparer (AcpConnection               *self,
                             const AcpConnectionPreparer *preparer,
                             gpointer                     user_data)
{
  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (!self->started);
  g_return_if_fail (preparer == NULL ||
                    (preparer->prepare != NULL && preparer->dispatch != NULL &&
                     preparer->free != NULL));

  self->preparer = preparer;
  self->preparer_data = user_data;
}

/**
 * acp_connection_set_traffic_log:
 * @self: a #AcpConnection
 * @log: (nullable): where every message read and written goes
 *
 * Sets the log of the traffic, before acp_connection_start().
 */
void
acp_connection_set_traffic_log (AcpConnection *self,
                                AcpTrafficLog *log)
{
  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (log == NULL || ACP_IS_TRAFFIC_LOG (log));
  g_return_if_fail (!self->started);

  g_set_object (&self->log, log);
}

/**
 * acp_connection_get_pacer:
 * @self: a #AcpConnection
 *
 * Returns: (transfer none) (nullable): the pacer dispatching keeps in step
 *   with
 */
AcpPacer *
acp_connection_get_pacer (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), NULL);

  return self->pacer;
}

/**
 * acp_connection_set_pacer:
 * @self: a #AcpConnection
 * @pacer: (nullable): the frames to keep in step with, or %NULL to dispatch
 *   in time slices only
 *
 * Sets the pacer whose frames dispatching keeps in step with (see
 * #AcpPacer), at any time: a wait for a frame of the pacer set before ends.
 * The pacer must be used on the thread of the connection's main context
 * (that is where its frames are waited for).
 */
void
acp_connection_set_pacer (AcpConnection *self,
                          AcpPacer      *pacer)
{
  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (pacer == NULL || ACP_IS_PACER (pacer));

  if (self->pacer == pacer)
    return;

  _acp_connection_replace_pacer (self, pacer);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PACER]);
}

/**
 * acp_connection_start:
 * @self: a #AcpConnection
 *
 * Starts reading and dispatching messages. Connect to the signals first.
 */
void
acp_connection_start (AcpConnection *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (self->stream != NULL);
  g_return_if_fail (!self->started);

  self->started = TRUE;
  if (self->closed)
    return;

  if (!_acp_connection_start_reading (self, &error))
    {
      g_debug ("Could not start the reader thread: %s", error->message);
      _acp_connection_close (self, error, TRUE);
    }
}

/**
 * acp_connection_is_closed:
 * @self: a #AcpConnection
 *
 * Returns: whether the connection is closed
 */
gboolean
acp_connection_is_closed (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), TRUE);

  return self->closed;
}

/**
 * acp_connection_close:
 * @self: a #AcpConnection
 * @reason: (nullable): why, passed on to #AcpConnection::closed and added to
 *   the message of the errors of the pending calls
 *
 * Closes the connection: pending calls fail with %ACP_ERROR_CLOSED, pending
 * incoming requests are cancelled, messages not yet written are dropped (use
 * acp_connection_flush_async() first to deliver them) and the stream is closed
 * asynchronously. Does nothing when already closed.
 */
void
acp_connection_close (AcpConnection *self,
                      const GError  *reason)
{
  g_return_if_fail (ACP_IS_CONNECTION (self));

  _acp_connection_close (self, reason, TRUE);
}

/**
 * acp_connection_call_async:
 * @self: a #AcpConnection
 * @method: the method to call
 * @params: (nullable) (transfer none): the params, usually an object
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the response
 * @user_data: data for @callback
 *
 * Sends a request with the next integer id (counting from 1) and waits for
 * its response. Cancelling forgets the request at once (the call fails with
 * %G_IO_ERROR_CANCELLED), tells the peer with a `$/cancel_request`
 * notification and ignores a late response.
 */
void
acp_connection_call_async (AcpConnection       *self,
                           const char          *method,
                           JsonNode            *params,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PendingCall *call;
  JsonObject *message;

  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (method != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_connection_call_async);

  if (self->closed)
    {
      g_task_return_error (task, _acp_connection_new_closed_error (NULL));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  call = g_new0 (PendingCall, 1);
  call->id = self->next_id++;
  call->method = g_strdup (method);
  call->task = g_object_ref (task);
  call->cancel_source = _acp_connection_attach_cancel_source (self, cancellable,
                                                              call_cancelled_cb, call);
  g_hash_table_insert (self->pending, &call->id, call);

  message = new_message ();
  json_object_set_int_member (message, "id", call->id);
  json_object_set_string_member (message, "method", method);
  if (params != NULL)
    json_object_set_member (message, "params", json_node_copy (params));
  _acp_connection_queue_object (self, message);
}

/**
 * acp_connection_call_finish:
 * @self: a #AcpConnection
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Gets the result of a call. A JSON-RPC error of the peer is a remote
 * %ACP_ERROR (see acp_error_is_remote()) with its code, message and data;
 * a response of the wrong shape is %ACP_ERROR_INVALID_MESSAGE; a closed
 * connection is %ACP_ERROR_CLOSED.
 *
 * Returns: (transfer full): the `result` member, a null node when it was null
 */
JsonNode *
acp_connection_call_finish (AcpConnection  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_connection_call_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * acp_connection_notify:
 * @self: a #AcpConnection
 * @method: the method
 * @params: (nullable) (transfer none): the params, usually an object
 * @error: return location for a #GError
 *
 * Queues a notification.
 *
 * Returns: %FALSE with %ACP_ERROR_CLOSED when the connection is closed
 */
gboolean
acp_connection_notify (AcpConnection  *self,
                       const char     *method,
                       JsonNode       *params,
                       GError        **error)
{
  JsonObject *message;

  g_return_val_if_fail (ACP_IS_CONNECTION (self), FALSE);
  g_return_val_if_fail (method != NULL, FALSE);

  if (self->closed)
    {
      g_propagate_error (error, _acp_connection_new_closed_error (NULL));
      return FALSE;
    }

  message = new_message ();
  json_object_set_string_member (message, "method", method);
  if (params != NULL)
    json_object_set_member (message, "params", json_node_copy (params));
  _acp_connection_queue_object (self, message);

  return TRUE;
}
