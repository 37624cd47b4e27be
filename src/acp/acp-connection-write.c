/* acp-connection-write.c: AcpConnection's write queue, and the flushes that
 * wait on it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How it works
 *
 * Writing. Every message is serialised to one line and queued; one
 * g_output_stream_write_all_async() is in flight at a time.
 *
 * A write error closes the connection. A flush completes once as many
 * messages are written as were queued when it was asked for. The write
 * callbacks hold the connection's IoLink, not the connection (see
 * acp-connection.c).
 */

#include "config.h"

#include "acp-connection-internal.h"

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

/* ------------------------------------------------------------------------ */
/* Flushes                                                                   */

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

/* Fails every flush with @error: the connection closed. */
void
_acp_connection_fail_flushes (AcpConnection *self,
                              const GError  *error)
{
  FlushWaiter *waiter;

  while ((waiter = g_queue_pop_head (&self->flush_waiters)) != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

      flush_waiter_free (waiter);
      g_task_return_error (task, g_error_copy (error));
    }
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
      g_task_return_error (task, _acp_connection_new_closed_error (NULL));
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
  waiter->cancel_source = _acp_connection_attach_cancel_source (self, cancellable,
                                                                flush_cancelled_cb, waiter);
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

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */

static void
write_op_free (WriteOp *op)
{
  _acp_io_link_unref (op->link);
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
      _acp_io_link_maybe_close (link);
      write_op_free (op);
      return;
    }

  write_op_free (op);
  self->writing = FALSE;

  g_object_ref (self);

  if (!ok)
    {
      g_debug ("Writing failed: %s", error->message);
      _acp_connection_close (self, error, TRUE);
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
  op->link = _acp_io_link_ref (self->link);
  op->bytes = g_queue_pop_head (&self->write_queue);
  data = g_bytes_get_data (op->bytes, &size);

  self->writing = TRUE;
  self->link->n_in_flight++;
  g_output_stream_write_all_async (g_io_stream_get_output_stream (self->stream),
                                   data, size, G_PRIORITY_DEFAULT, self->cancellable,
                                   write_cb, op);
}

/* Serialises @message (transfer full) onto one line and queues it. */
void
_acp_connection_queue_object (AcpConnection *self,
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
    {
      g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();

      acp_traffic_log_add_message (self->log, ACP_TRAFFIC_OUT, line->str, line->len,
                                   doc, acp_json_doc_load (doc, node));
    }
  g_string_append_c (line, '\n');

  g_queue_push_tail (&self->write_queue, g_string_free_to_bytes (line));
  self->n_queued++;

  write_next (self);
}
