/* acp-connection-pump.c: AcpConnection's side of reading, on the main
 * thread: taking what the worker parsed and dispatching it in time slices,
 * or in step with frames, so that a flood leaves the interface its frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How it works
 *
 * Dispatching. On the main thread the pump takes the whole list the worker
 * handed over (see acp-line-reader.c) and dispatches it in order, line by
 * line, in time slices (see PUMP_SLICE) so that a flood leaves GTK its
 * frames, or in step with the frames when the interface asks for it
 * (AcpPacer). The end of the stream comes through the worker like a line,
 * so everything before it is dispatched before the connection closes and
 * the pending calls fail. Trees are freed here after dispatch, not in the
 * worker: handlers may keep references into them, and json-glib counts the
 * references of objects and arrays without atomic operations. (A
 * notification that a preparer took apart comes without its tree, which
 * the worker freed: see AcpConnectionPreparer.)
 *
 * What dispatching one message does is in acp-connection-dispatch.c.
 */

#include "config.h"

#include "acp-connection-internal.h"
#include "acp-connection-private.h"
#include "acp-pacer.h"

#define PARSE_AHEAD_REPORT       ((gsize) 64 * 1024)

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
 * come, it goes on once the pacer says that pacing lapsed. That takes a
 * pacer, given to the connection (acp_connection_set_pacer ()); without
 * one, it works in time slices only. With one, slices are measured with the
 * pacer's clock, so that a test that sets its own clock decides what a
 * slice holds. */
#define PUMP_SLICE      (8 * G_TIME_SPAN_MILLISECOND)
#define PUMP_RESUME_MS  12

static void pump (AcpConnection *self);

/* The time slices are measured in */
static gint64
pump_now (AcpConnection *self)
{
  return self->pacer != NULL ? acp_pacer_get_time (self->pacer) : g_get_monotonic_time ();
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
    g_clear_signal_handler (&self->frame_handler, self->pacer);
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

  pacer = self->pacer;
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
      _acp_connection_dispatch (self, parsed);
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
  _acp_io_link_maybe_close (link);

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

  acp_line_reader_set_preparer (reader, self->preparer);
  acp_line_reader_set_traffic_log (reader, self->log);
  acp_line_reader_set_done_func (reader, reader_done_cb, _acp_io_link_ref (self->link),
                                 (GDestroyNotify) _acp_io_link_unref);

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
/* Starting and stopping                                                     */

gboolean
_acp_connection_start_reading (AcpConnection  *self,
                               GError        **error)
{
  if (!start_reader (self, error))
    return FALSE;

  pump (self);

  return TRUE;
}

void
_acp_connection_stop_reading (AcpConnection *self)
{
  stop_waiting (self);
  clear_source (&self->quiet_idle);
  stop_reader (self);
}

void
_acp_connection_replace_pacer (AcpConnection *self,
                               AcpPacer      *pacer)
{
  gboolean waiting = self->frame_handler != 0;

  /* a wait for a frame of the old pacer ends: the new one decides at once */
  if (waiting)
    stop_waiting (self);
  g_set_object (&self->pacer, pacer);
  /* the stretch was timed by the old clock */
  self->slice_start = 0;
  if (waiting && !self->closed)
    self->resume_idle = attach (self, g_idle_source_new (), G_PRIORITY_DEFAULT, resume_cb);
}

/* ------------------------------------------------------------------------ */
/* For tests (acp-connection-private.h)                                      */

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

/* Whether dispatching stopped after a slice, until the next frame of the
 * connection's pacer (or until frames stop, see AcpPacer). */
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
