/* acp-connection.c: a JSON-RPC 2.0 peer over a GIOStream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How it works
 *
 * Reading, parsing and joining lines happen in a worker thread: see
 * acp-line-reader.c.
 *
 * Dispatching. On the main thread the pump takes the whole list and
 * dispatches it in order, line by line, in time slices (see PUMP_SLICE) so
 * that a flood leaves GTK its frames, or in step with the frames when the
 * interface asks for it (AcpPacer). The end of the stream comes through the
 * worker like a line, so everything before it is dispatched before the
 * connection closes and the pending calls fail. Trees are freed here after dispatch, not in the worker:
 * handlers may keep references into them, and json-glib counts the
 * references of objects and arrays without atomic operations.
 *
 * Writing. Every message is serialised to one line and queued; one
 * g_output_stream_write_all_async() is in flight at a time.
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

#include <string.h>

#include <glib/gi18n.h>

#include "acp-connection-internal.h"
#include "acp-connection-private.h"
#include "acp-line-reader.h"
#include "acp-marshal.h"
#include "acp-pacer.h"
#include "acp-traffic-log.h"

#define PARSE_AHEAD_REPORT       ((gsize) 64 * 1024)
#define MAX_ID_DESCRIPTION       64

/* ------------------------------------------------------------------------ */
/* IoLink: what the in-flight I/O callbacks share with the connection        */

typedef struct
{
  grefcount      ref_count;
  AcpConnection *connection;      /* not owned; NULL once disposed */
  GIOStream     *stream;          /* owned */
  guint          n_in_flight;     /* writes not yet called back, and the worker's reading */
  guint          close_requested : 1;
  guint          close_started : 1;
} IoLink;

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

static IoLink *
io_link_ref (IoLink *link)
{
  g_ref_count_inc (&link->ref_count);
  return link;
}

static void
io_link_unref (IoLink *link)
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
static void
io_link_maybe_close (IoLink *link)
{
  if (!link->close_requested || link->close_started || link->n_in_flight > 0)
    return;

  link->close_started = TRUE;
  g_io_stream_close_async (link->stream, G_PRIORITY_DEFAULT, NULL, stream_close_cb, NULL);
}

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

typedef struct
{
  gint64   id;              /* the key in AcpConnection.pending */
  char    *method;
  GTask   *task;
  GSource *cancel_source;   /* nullable */
} PendingCall;

typedef struct
{
  guint64  target;          /* complete once this many messages are written */
  GTask   *task;
  GSource *cancel_source;   /* nullable */
} FlushWaiter;

typedef struct
{
  IoLink *link;
  GBytes *bytes;
} WriteOp;

struct _AcpConnection
{
  GObject       parent_instance;

  GIOStream    *stream;
  IoLink       *link;
  GMainContext *context;
  GCancellable *cancellable;     /* cancels reads and writes on close */
  gsize         max_line_length;

  /* reading (see pump ()) */
  AcpLineReader *reader;         /* NULL until started and once closed */
  GSource      *results_source;  /* fires when the worker handed results over */
  AcpParsedList ready;           /* taken from the worker, not yet dispatched */
  guint64       n_read;          /* bytes the worker read and is done with */
  guint64       n_produced;      /* the sizes of the results it handed over */
  guint64       n_dispatched;    /* the sizes of the results dispatched */
  guint64       n_reported;      /* n_dispatched as the worker last heard it */

  /* writing */
  GQueue        write_queue;     /* GBytes, each one line */
  GQueue        flush_waiters;   /* FlushWaiter, in target order */
  guint64       n_queued;
  guint64       n_written;

  /* requests */
  gint64        next_id;
  GHashTable   *pending;         /* gint64 id → PendingCall */
  GHashTable   *cancelled_ids;   /* gint64 ids whose late response is ignored */
  GHashTable   *incoming;        /* set of unanswered AcpIncomingRequest, not owned */

  AcpConnectionJoinFunc join_func;
  AcpTrafficLog *log;            /* every message read and written, or NULL */
  guint         n_joined;        /* of the message being dispatched; 1 otherwise */

  /* sharing the main loop during a flood (see pump ()) */
  gint64        slice_start;     /* when the current busy stretch began; 0: none */
  GSource      *resume_idle;
  GSource      *resume_timeout;  /* a timeout, or the pacer's lapse while waiting for a frame */
  gulong        frame_handler;   /* waiting for the next frame (see AcpPacer) */
  GSource      *quiet_idle;      /* ends the stretch once the loop has nothing else to do */

  guint         started : 1;
  guint         input_ended : 1;    /* the end of the stream or an error was read */
  guint         dispatch_held : 1;  /* for tests */
  guint         writing : 1;        /* a write is in flight */
  guint         closed : 1;
};

G_DEFINE_FINAL_TYPE (AcpConnection, acp_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STREAM,
  PROP_MAX_LINE_LENGTH,
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

static void queue_object         (AcpConnection *self,
                                  JsonObject    *message);
static void close_internal       (AcpConnection *self,
                                  const GError  *reason,
                                  gboolean       emit);
static void pump                 (AcpConnection *self);

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
static void
send_error_response (AcpConnection *self,
                     JsonNode      *id,
                     JsonNode      *error_node)
{
  JsonObject *message = new_message ();

  if (id != NULL)
    json_object_set_member (message, "id", json_node_copy (id));
  else
    json_object_set_null_member (message, "id");
  json_object_set_member (message, "error", error_node);
  queue_object (self, message);
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
  queue_object (self, message);
}

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
/* Pending calls and flushes                                                 */

static void
pending_call_free (PendingCall *call)
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

static void
flush_waiter_free (FlushWaiter *waiter)
{
  if (waiter->cancel_source != NULL)
    {
      g_source_destroy (waiter->cancel_source);
      g_clear_pointer (&waiter->cancel_source, g_source_unref);
    }
  g_clear_object (&waiter->task);
  g_free (waiter);
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
  pending_call_free (call);

  g_debug ("Call %" G_GINT64_FORMAT " cancelled", id);
  g_hash_table_add (self->cancelled_ids, g_memdup2 (&id, sizeof id));

  params = json_object_new ();
  json_object_set_int_member (params, "requestId", id);
  message = new_message ();
  json_object_set_string_member (message, "method", "$/cancel_request");
  json_object_set_object_member (message, "params", params);
  queue_object (self, message);

  g_task_return_error_if_cancelled (task);

  return G_SOURCE_REMOVE;
}

static gboolean
flush_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  FlushWaiter *waiter = user_data;
  g_autoptr(GTask) task = g_steal_pointer (&waiter->task);
  AcpConnection *self = g_task_get_source_object (task);

  g_queue_remove (&self->flush_waiters, waiter);
  flush_waiter_free (waiter);
  g_task_return_error_if_cancelled (task);

  return G_SOURCE_REMOVE;
}

static GSource *
attach_cancel_source (AcpConnection          *self,
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

static void
complete_flushes (AcpConnection *self)
{
  FlushWaiter *waiter;

  while ((waiter = g_queue_peek_head (&self->flush_waiters)) != NULL &&
         waiter->target <= self->n_written)
    {
      g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

      g_queue_pop_head (&self->flush_waiters);
      flush_waiter_free (waiter);
      g_task_return_boolean (task, TRUE);
    }
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */

static void
write_op_free (WriteOp *op)
{
  io_link_unref (op->link);
  g_bytes_unref (op->bytes);
  g_free (op);
}

static void write_next (AcpConnection *self);

static void
write_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  WriteOp *op = user_data;
  IoLink *link = op->link;
  AcpConnection *self = link->connection;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  ok = g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error);
  link->n_in_flight--;

  if (self == NULL || self->closed)
    {
      io_link_maybe_close (link);
      write_op_free (op);
      return;
    }

  write_op_free (op);
  self->writing = FALSE;

  g_object_ref (self);

  if (!ok)
    {
      g_debug ("Writing failed: %s", error->message);
      close_internal (self, error, TRUE);
    }
  else
    {
      self->n_written++;
      complete_flushes (self);
      write_next (self);
    }

  g_object_unref (self);
}

static void
write_next (AcpConnection *self)
{
  WriteOp *op;
  const guint8 *data;
  gsize size;

  if (self->writing || self->closed || g_queue_is_empty (&self->write_queue))
    return;

  op = g_new0 (WriteOp, 1);
  op->link = io_link_ref (self->link);
  op->bytes = g_queue_pop_head (&self->write_queue);
  data = g_bytes_get_data (op->bytes, &size);

  self->writing = TRUE;
  self->link->n_in_flight++;
  g_output_stream_write_all_async (g_io_stream_get_output_stream (self->stream),
                                   data, size, G_PRIORITY_DEFAULT, self->cancellable,
                                   write_cb, op);
}

/* Serialises @message (transfer full) onto one line and queues it. */
static void
queue_object (AcpConnection *self,
              JsonObject    *message)
{
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) node = NULL;
  GString *line;

  if (self->closed)
    {
      json_object_unref (message);
      return;
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, message);

  generator = json_generator_new ();
  json_generator_set_pretty (generator, FALSE);
  json_generator_set_root (generator, node);

  line = g_string_sized_new (256);
  json_generator_to_gstring (generator, line);
  if (self->log != NULL)
    acp_traffic_log_add_message (self->log, ACP_TRAFFIC_OUT, line->str, line->len, message);
  g_string_append_c (line, '\n');

  g_queue_push_tail (&self->write_queue, g_string_free_to_bytes (line));
  self->n_queued++;

  write_next (self);
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
  g_signal_emit (self, signals[SIGNAL_MESSAGE_ERROR], 0, error);
}

static void
reply_invalid_request (AcpConnection *self,
                       JsonNode      *id,
                       const char    *why)
{
  g_debug ("Invalid request: %s", why);
  send_error_response (self, id,
                       _acp_connection_new_error_node (ACP_ERROR_INVALID_REQUEST,
                                                       "Invalid Request",
                                                       json_node_init_string (json_node_alloc (),
                                                                              why)));
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

static void
dispatch_method_message (AcpConnection *self,
                         JsonObject    *object)
{
  JsonNode *method_node = get_member_or_null (object, "method");
  JsonNode *id = get_member_or_null (object, "id");
  JsonNode *params = get_member_or_null (object, "params");
  JsonNode *version = get_member_or_null (object, "jsonrpc");
  const char *method = NULL;

  if (id != NULL && !id_is_valid (id))
    {
      reply_invalid_request (self, NULL, "The id must be an integer, a string or null");
      return;
    }

  if (node_holds_type (method_node, G_TYPE_STRING))
    method = json_node_get_string (method_node);

  if (method == NULL || *method == '\0')
    {
      reply_invalid_request (self, id, "The method must be a non-empty string");
      return;
    }

  if (version != NULL &&
      (!node_holds_type (version, G_TYPE_STRING) ||
       g_strcmp0 (json_node_get_string (version), "2.0") != 0))
    {
      reply_invalid_request (self, id, "Only JSON-RPC 2.0 is supported");
      return;
    }

  if (params != NULL && JSON_NODE_HOLDS_NULL (params))
    params = NULL;

  if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params) && !JSON_NODE_HOLDS_ARRAY (params))
    {
      reply_invalid_request (self, id, "The params must be an object or an array");
      return;
    }

  if (id == NULL)
    {
      if (g_str_equal (method, "$/cancel_request"))
        cancel_incoming (self, params);

      g_signal_emit (self, signals[SIGNAL_NOTIFICATION], g_quark_try_string (method),
                     method, params);
    }
  else
    {
      g_autoptr(AcpIncomingRequest) request = _acp_incoming_request_new (self, method, id, params);
      gboolean handled = FALSE;

      g_hash_table_add (self->incoming, request);
      g_signal_emit (self, signals[SIGNAL_REQUEST], g_quark_try_string (method),
                     request, &handled);

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
  pending_call_free (call);

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
      send_error_response (self, NULL,
                           _acp_connection_new_error_node (ACP_ERROR_PARSE_ERROR, "Parse error",
                                                           data));
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

/* ------------------------------------------------------------------------ */
/* Reading and dispatching, on the main thread                               */

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

/* Takes what the worker handed over so far. */
static void
take_results (AcpConnection *self)
{
  gboolean ended;

  if (self->reader == NULL)
    return;

  acp_line_reader_take_results (self->reader, &self->ready,
                                &self->n_read, &ended, &self->n_produced);
  self->input_ended = ended;
}

/* Tells the worker how far dispatching got, and lets it parse on when it
 * waits for room. Done every PARSE_AHEAD_REPORT bytes and whenever the pump
 * stops, not for every line. */
static void
report_dispatched (AcpConnection *self)
{
  if (self->reader == NULL || self->n_reported == self->n_dispatched)
    return;

  acp_line_reader_report_dispatched (self->reader, self->n_dispatched);
  self->n_reported = self->n_dispatched;
}

/* An agent replaying a long history keeps the pipe full, and the worker hands
 * over batches as fast as it parses them, at the default priority, above
 * GTK's layout and paint. Dispatched in one go, a replay of 100,000 updates
 * would paint no frame until the end. So the pump works in slices: after
 * PUMP_SLICE of continuous work it stops before the next line and resumes
 * from an idle (at once when no frame is due) or, so that dispatching goes on
 * when every frame is slow, from a timeout. The timeout leaves room for what
 * a slice makes the application do before the next frame (a transcript
 * flush, text to lay out): a shorter one fired before the frame could, and
 * the frame waited for another slice. Messages keep their order; the worker
 * reads and parses ahead meanwhile, up to its bound.
 *
 * In step with frames (see AcpPacer), the pump dispatches the slice a frame
 * allows after each frame and waits for the next; should the next frame not
 * come, it goes on once the pacer says that pacing lapsed. On the main
 * context, slices are measured with the pacer's clock, so that a test that
 * sets its own clock decides what a slice holds. */
#define PUMP_SLICE      (8 * G_TIME_SPAN_MILLISECOND)
#define PUMP_RESUME_MS  12

static void pump (AcpConnection *self);

/* Returns: (nullable): the pacer of the connection's context; only the main
 * context's frames mean anything */
static AcpPacer *
get_pacer (AcpConnection *self)
{
  return self->context == g_main_context_default () ? acp_pacer_get_default () : NULL;
}

/* The time slices are measured in */
static gint64
pump_now (AcpConnection *self)
{
  AcpPacer *pacer = get_pacer (self);

  return pacer != NULL ? acp_pacer_get_time (pacer) : g_get_monotonic_time ();
}

static gboolean
quiet_cb (gpointer user_data)
{
  AcpConnection *self = user_data;

  /* the loop had nothing else to do: the busy stretch is over */
  g_clear_pointer (&self->quiet_idle, g_source_unref);
  self->slice_start = 0;

  return G_SOURCE_REMOVE;
}

static void
stop_waiting (AcpConnection *self)
{
  clear_source (&self->resume_idle);
  clear_source (&self->resume_timeout);
  if (self->frame_handler != 0)
    g_clear_signal_handler (&self->frame_handler, acp_pacer_get_default ());
}

static gboolean
resume_cb (gpointer user_data)
{
  AcpConnection *self = user_data;

  stop_waiting (self);
  self->slice_start = pump_now (self);
  pump (self);

  return G_SOURCE_REMOVE;
}

static GSource *
attach (AcpConnection *self,
        GSource       *source,
        int            priority,
        GSourceFunc    func)
{
  g_source_set_priority (source, priority);
  g_source_set_callback (source, func, self, NULL);
  g_source_set_static_name (source, "[palaver] acp connection pump");
  g_source_attach (source, self->context);

  return source;
}

static void
frame_cb (AcpConnection *self)
{
  /* after the frame's own signal handlers, before anything of lower priority */
  stop_waiting (self);
  self->resume_idle = attach (self, g_idle_source_new (), G_PRIORITY_DEFAULT, resume_cb);
}

/* Returns TRUE when the pump should stop here and let the loop run. */
static gboolean
slice_over (AcpConnection *self)
{
  gint64 now = pump_now (self);
  gint64 slice = PUMP_SLICE;
  AcpPacer *pacer;

  if (self->resume_idle != NULL || self->resume_timeout != NULL)
    return TRUE;

  if (self->slice_start == 0)
    self->slice_start = now;
  if (self->quiet_idle == NULL)
    self->quiet_idle = attach (self, g_idle_source_new (), G_PRIORITY_DEFAULT_IDLE, quiet_cb);

  pacer = get_pacer (self);
  if (pacer != NULL && !acp_pacer_in_step (pacer, now, &slice))
    pacer = NULL;

  if (now - self->slice_start < slice)
    return FALSE;

  if (pacer != NULL)
    {
      /* the next frame, or frames stopping as the pacer's clock tells */
      self->frame_handler = g_signal_connect_swapped (pacer, "frame", G_CALLBACK (frame_cb), self);
      self->resume_timeout = attach (self, acp_pacer_lapse_source_new (pacer),
                                     G_PRIORITY_DEFAULT, resume_cb);
    }
  else
    {
      self->resume_idle = attach (self, g_idle_source_new (), G_PRIORITY_DEFAULT_IDLE, resume_cb);
      self->resume_timeout = attach (self, g_timeout_source_new (PUMP_RESUME_MS),
                                     G_PRIORITY_DEFAULT, resume_cb);
    }

  return TRUE;
}

/* Dispatches one result of the worker. @parsed: (transfer full) */
static void
dispatch_one (AcpConnection *self,
              AcpParsed     *parsed)
{
  switch (parsed->kind)
    {
    case ACP_PARSED_MESSAGE:
      self->n_joined = parsed->n_messages;
      dispatch_parsed (self, g_steal_pointer (&parsed->root), NULL);
      self->n_joined = 1;
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
      close_internal (self, NULL, TRUE);
      break;

    case ACP_PARSED_READ_ERROR:
      close_internal (self, parsed->error, TRUE);
      break;

    default:
      g_assert_not_reached ();
    }

  acp_parsed_free (parsed);
}

/* Dispatches what the worker handed over, in order, until it is used up or
 * the slice is over. */
static void
pump (AcpConnection *self)
{
  g_autoptr(AcpConnection) hold = g_object_ref (self);

  while (!self->closed)
    {
      AcpParsed *parsed;

      if (self->ready.head == NULL)
        take_results (self);

      if (self->ready.head == NULL || self->dispatch_held || slice_over (self))
        break;

      parsed = acp_parsed_list_pop (&self->ready);
      self->n_dispatched += parsed->size;
      if (self->n_dispatched - self->n_reported >= PARSE_AHEAD_REPORT)
        report_dispatched (self);
      dispatch_one (self, parsed);
    }

  report_dispatched (self);
}

static gboolean
results_ready_cb (gpointer user_data)
{
  AcpConnection *self = user_data;

  /* take them even when the slice is over, so the source stops firing */
  take_results (self);
  pump (self);

  return G_SOURCE_CONTINUE;
}

/* The worker no longer reads: the stream may be closed. */
static gboolean
reader_done_cb (gpointer user_data)
{
  IoLink *link = user_data;

  link->n_in_flight--;
  io_link_maybe_close (link);

  return G_SOURCE_REMOVE;
}

static gboolean
start_reader (AcpConnection  *self,
              GError        **error)
{
  AcpLineReader *reader = acp_line_reader_new (self->context,
                                               g_io_stream_get_input_stream (self->stream),
                                               self->cancellable, self->max_line_length);
  GSource *source;

  acp_line_reader_set_join_func (reader, self->join_func);
  acp_line_reader_set_traffic_log (reader, self->log);
  acp_line_reader_set_done_func (reader, reader_done_cb, io_link_ref (self->link),
                                 (GDestroyNotify) io_link_unref);

  if (!acp_line_reader_start (reader, error))
    {
      acp_line_reader_unref (reader);
      return FALSE;
    }
  self->link->n_in_flight++;

  source = acp_line_reader_results_source_new (reader);
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, results_ready_cb, self, NULL);
  g_source_set_static_name (source, "[palaver] acp connection results");
  g_source_attach (source, self->context);

  self->reader = reader;
  self->results_source = source;

  return TRUE;
}

/* Tells the worker to stop; it ends on its own. What was parsed and not
 * dispatched is dropped. */
static void
stop_reader (AcpConnection *self)
{
  AcpLineReader *reader = g_steal_pointer (&self->reader);

  clear_source (&self->results_source);
  acp_parsed_list_clear (&self->ready);

  if (reader == NULL)
    return;

  acp_line_reader_stop (reader);
  acp_line_reader_unref (reader);
}

/* ------------------------------------------------------------------------ */
/* Closing                                                                   */

static GError *
new_closed_error (const GError *reason)
{
  if (reason != NULL)
    return g_error_new (ACP_ERROR, ACP_ERROR_CLOSED,
                        _("The connection to the agent was closed: %s"), reason->message);

  return g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED,
                              _("The connection to the agent was closed"));
}

/* Fails everything pending and closes the stream. @emit is FALSE in dispose,
 * where nobody can be listening any more. */
static void
close_internal (AcpConnection *self,
                const GError  *reason,
                gboolean       emit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) requests = NULL;
  GList *calls;
  FlushWaiter *waiter;
  GHashTableIter iter;
  gpointer key;

  if (self->closed)
    return;

  g_object_ref (self);

  g_debug ("Closing the connection%s%s",
           reason != NULL ? ": " : "", reason != NULL ? reason->message : "");

  self->closed = TRUE;
  g_cancellable_cancel (self->cancellable);
  stop_waiting (self);
  clear_source (&self->quiet_idle);
  g_queue_clear_full (&self->write_queue, (GDestroyNotify) g_bytes_unref);
  stop_reader (self);

  if (self->link != NULL)
    {
      self->link->close_requested = TRUE;
      io_link_maybe_close (self->link);
    }

  error = new_closed_error (reason);

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

  while ((waiter = g_queue_pop_head (&self->flush_waiters)) != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

      flush_waiter_free (waiter);
      g_task_return_error (task, g_error_copy (error));
    }

  calls = g_hash_table_get_values (self->pending);
  g_hash_table_steal_all (self->pending);
  for (GList *l = calls; l != NULL; l = l->next)
    {
      PendingCall *call = l->data;
      g_autoptr(GTask) task = g_steal_pointer (&call->task);

      pending_call_free (call);
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

  close_internal (self, NULL, FALSE);

  if (self->link != NULL)
    {
      self->link->connection = NULL;
      g_clear_pointer (&self->link, io_link_unref);
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
  self->n_joined = 1;
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                         NULL, (GDestroyNotify) pending_call_free);
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
 * acp_connection_set_join_func:
 * @self: a #AcpConnection
 * @join_func: (nullable): see #AcpConnectionJoinFunc
 *
 * Sets how pieces of text read together are joined, before
 * acp_connection_start().
 */
void
acp_connection_set_join_func (AcpConnection         *self,
                              AcpConnectionJoinFunc  join_func)
{
  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (!self->started);

  self->join_func = join_func;
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
 * acp_connection_get_n_joined:
 * @self: a #AcpConnection
 *
 * Returns: during #AcpConnection::notification, how many messages the one
 *   dispatched stands for (see #AcpConnectionJoinFunc); 1 otherwise
 */
guint
acp_connection_get_n_joined (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), 1);

  return self->n_joined;
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

  if (!start_reader (self, &error))
    {
      g_debug ("Could not start the reader thread: %s", error->message);
      close_internal (self, error, TRUE);
      return;
    }

  pump (self);
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

  close_internal (self, reason, TRUE);
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
      g_task_return_error (task, new_closed_error (NULL));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  call = g_new0 (PendingCall, 1);
  call->id = self->next_id++;
  call->method = g_strdup (method);
  call->task = g_object_ref (task);
  call->cancel_source = attach_cancel_source (self, cancellable, call_cancelled_cb, call);
  g_hash_table_insert (self->pending, &call->id, call);

  message = new_message ();
  json_object_set_int_member (message, "id", call->id);
  json_object_set_string_member (message, "method", method);
  if (params != NULL)
    json_object_set_member (message, "params", json_node_copy (params));
  queue_object (self, message);
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
      g_propagate_error (error, new_closed_error (NULL));
      return FALSE;
    }

  message = new_message ();
  json_object_set_string_member (message, "method", method);
  if (params != NULL)
    json_object_set_member (message, "params", json_node_copy (params));
  queue_object (self, message);

  return TRUE;
}

/**
 * acp_connection_flush_async:
 * @self: a #AcpConnection
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Waits until every message queued so far is written.
 */
void
acp_connection_flush_async (AcpConnection       *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FlushWaiter *waiter;

  g_return_if_fail (ACP_IS_CONNECTION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_connection_flush_async);

  if (self->closed)
    {
      g_task_return_error (task, new_closed_error (NULL));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  if (self->n_written >= self->n_queued)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  waiter = g_new0 (FlushWaiter, 1);
  waiter->target = self->n_queued;
  waiter->task = g_object_ref (task);
  waiter->cancel_source = attach_cancel_source (self, cancellable, flush_cancelled_cb, waiter);
  g_queue_push_tail (&self->flush_waiters, waiter);
}

/**
 * acp_connection_flush_finish:
 * @self: a #AcpConnection
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE when everything queued was written; %FALSE with
 *   %ACP_ERROR_CLOSED when the connection closed first
 */
gboolean
acp_connection_flush_finish (AcpConnection  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_connection_flush_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Whether the worker thread is in the parser right now. */
gboolean
_acp_connection_is_parsing (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), FALSE);

  return self->reader != NULL && acp_line_reader_is_parsing (self->reader);
}

/* Bytes the worker read, as of its last hand-over. */
guint64
_acp_connection_get_n_read (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), 0);

  return self->n_read;
}

/* Bytes of the lines parsed and not yet dispatched, as of the last
 * hand-over of the worker. */
guint64
_acp_connection_get_n_parsed (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), 0);

  return self->n_produced - self->n_dispatched;
}

/* Whether the end of the stream (or a read error) was read. */
gboolean
_acp_connection_has_read_to_end (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), FALSE);

  return self->input_ended;
}

/* Whether the worker waits, reading nothing, because too much is parsed
 * ahead of dispatching. */
gboolean
_acp_connection_is_throttled (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), FALSE);

  return self->reader != NULL && acp_line_reader_is_waiting (self->reader);
}

/* Whether dispatching stopped after a slice, until the next frame (or
 * until frames stop, see AcpPacer). */
gboolean
_acp_connection_is_waiting_for_frame (AcpConnection *self)
{
  g_return_val_if_fail (ACP_IS_CONNECTION (self), FALSE);

  return self->frame_handler != 0;
}

/* Holds back dispatching (reading and parsing go on, up to the bound), as an
 * application too busy to dispatch would. */
void
_acp_connection_set_dispatch_held (AcpConnection *self,
                                   gboolean       held)
{
  g_return_if_fail (ACP_IS_CONNECTION (self));

  self->dispatch_held = !!held;
  if (!held && self->started)
    pump (self);
}

/* The worker threads still running, of every connection. */
guint
_acp_connection_get_n_workers (void)
{
  return acp_line_reader_get_n_running ();
}
