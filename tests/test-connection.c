/* test-connection.c: AcpConnection against a peer played by the test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The connection talks over one end of a socketpair; the test reads and writes
 * raw bytes on the other end, all on the same main loop.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-connection.h"
#include "acp-connection-private.h"
#include "acp-error.h"
#include "acp-pacer.h"
#include "test-util.h"

typedef struct
{
  AcpConnection     *conn;
  AcpPacer          *pacer;           /* the connection's own, this test's only */
  GSocketConnection *local;
  GSocketConnection *peer;

  /* what the peer received */
  GString           *received;
  GCancellable      *peer_cancellable;
  gboolean           peer_reading;
  gboolean           peer_eof;
  guint              n_peer_writes_pending;
  GString           *flood;           /* being written by flood_held () */

  /* what the connection emitted */
  GPtrArray         *notifications;   /* JsonNode: {"method": …, "params": …} */
  GPtrArray         *message_errors;  /* GError */
  guint              n_closed;
  guint              n_closed_notifies;
  GError            *closed_reason;
} Fixture;

/* Waits until the worker threads of every connection ended: they tell no
 * one. */
static void
wait_for_workers_to_end (void)
{
  POLL_UNTIL (_acp_connection_get_n_workers () == 0);
}

/* ------------------------------------------------------------------------ */
/* The peer                                                                  */

static void peer_start_read (Fixture *f);

static void
peer_read_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Fixture *f = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  f->peer_reading = FALSE;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      f->peer_eof = TRUE;
      return;
    }

  g_string_append_len (f->received, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  peer_start_read (f);
}

static void
peer_start_read (Fixture *f)
{
  f->peer_reading = TRUE;
  g_input_stream_read_bytes_async (g_io_stream_get_input_stream (G_IO_STREAM (f->peer)),
                                   64 * 1024, G_PRIORITY_DEFAULT, f->peer_cancellable,
                                   peer_read_cb, f);
}

static void
peer_write_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  Fixture *f = user_data;
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error);
  g_assert_no_error (error);
  f->n_peer_writes_pending--;
}

/* Writes raw bytes from the peer and waits until they are written. */
static void
peer_write_len (Fixture    *f,
                const char *data,
                gsize       length)
{
  f->n_peer_writes_pending++;
  g_output_stream_write_all_async (g_io_stream_get_output_stream (G_IO_STREAM (f->peer)),
                                   data, length, G_PRIORITY_DEFAULT, NULL, peer_write_cb, f);
  WAIT_UNTIL (f->n_peer_writes_pending == 0);
}

static void
peer_write (Fixture    *f,
            const char *data)
{
  peer_write_len (f, data, strlen (data));
}

/* Ends the peer's output: the connection reads end of stream. */
static void
peer_shutdown_write (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  g_socket_shutdown (g_socket_connection_get_socket (f->peer), FALSE, TRUE, &error);
  g_assert_no_error (error);
}

/* Waits for the next line the connection wrote; returns it without '\n'. */
static char *
peer_read_line (Fixture *f)
{
  const char *newline;
  char *line;

  WAIT_UNTIL ((newline = memchr (f->received->str, '\n', f->received->len)) != NULL || f->peer_eof);
  g_assert_nonnull (newline);

  line = g_strndup (f->received->str, newline - f->received->str);
  g_string_erase (f->received, 0, newline - f->received->str + 1);

  return line;
}

/* Waits for the next message the connection wrote and parses it. */
static JsonObject *
peer_read_message (Fixture *f)
{
  g_autofree char *line = peer_read_line (f);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_data (parser, line, -1, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "jsonrpc"), ==, "2.0");

  return json_object_ref (json_node_get_object (root));
}

/* Sends an unknown request with @id and expects its -32601 as the very next
 * line: proves that nothing else was written before it. */
static void
peer_round_trip (Fixture *f,
                 int      id)
{
  g_autofree char *request = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"test/ping\"}\n", id);
  g_autoptr(JsonObject) reply = NULL;

  peer_write (f, request);
  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, id);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, ACP_ERROR_METHOD_NOT_FOUND);
}

/* ------------------------------------------------------------------------ */
/* Fixture                                                                   */

static void
notification_cb (AcpConnection *conn,
                 const char    *method,
                 JsonNode      *params,
                 Fixture       *f)
{
  JsonObject *record = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (record, "method", method);
  if (params != NULL)
    json_object_set_member (record, "params", json_node_copy (params));
  json_node_take_object (node, record);
  g_ptr_array_add (f->notifications, node);
}

static void
message_error_cb (AcpConnection *conn,
                  const GError  *error,
                  Fixture       *f)
{
  g_ptr_array_add (f->message_errors, g_error_copy (error));
}

static void
closed_cb (AcpConnection *conn,
           const GError  *reason,
           Fixture       *f)
{
  f->n_closed++;
  g_clear_error (&f->closed_reason);
  if (reason != NULL)
    f->closed_reason = g_error_copy (reason);
}

static void
notify_closed_cb (AcpConnection *conn,
                  GParamSpec    *pspec,
                  Fixture       *f)
{
  f->n_closed_notifies++;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  test_socket_pair (&f->local, &f->peer);

  f->received = g_string_new (NULL);
  f->peer_cancellable = g_cancellable_new ();
  f->notifications = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  f->message_errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);

  f->pacer = acp_pacer_new ();
  f->conn = acp_connection_new (G_IO_STREAM (f->local));
  acp_connection_set_pacer (f->conn, f->pacer);
  g_signal_connect (f->conn, "notification", G_CALLBACK (notification_cb), f);
  g_signal_connect (f->conn, "message-error", G_CALLBACK (message_error_cb), f);
  g_signal_connect (f->conn, "closed", G_CALLBACK (closed_cb), f);
  g_signal_connect (f->conn, "notify::closed", G_CALLBACK (notify_closed_cb), f);

  /* a test may change settings before starting */
  if (data == NULL)
    acp_connection_start (f->conn);

  peer_start_read (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->conn != NULL)
    {
      acp_connection_close (f->conn, NULL);
      /* nothing may keep the connection alive once closed */
      g_object_add_weak_pointer (G_OBJECT (f->conn), (gpointer *) &f->conn);
      g_object_unref (f->conn);
      g_assert_null (f->conn);
    }
  /* and every worker thread ends */
  wait_for_workers_to_end ();
  g_clear_object (&f->pacer);

  g_cancellable_cancel (f->peer_cancellable);
  WAIT_UNTIL (!f->peer_reading);
  g_io_stream_close (G_IO_STREAM (f->peer), NULL, NULL);
  test_drain_main_context ();

  g_clear_object (&f->local);
  g_clear_object (&f->peer);
  g_clear_object (&f->peer_cancellable);
  g_string_free (f->received, TRUE);
  if (f->flood != NULL)
    g_string_free (f->flood, TRUE);
  g_ptr_array_unref (f->notifications);
  g_ptr_array_unref (f->message_errors);
  g_clear_error (&f->closed_reason);
  test_drain_main_context ();
}

static JsonObject *
notification_at (Fixture *f,
                 guint    index)
{
  g_assert_cmpuint (index, <, f->notifications->len);
  return json_node_get_object (g_ptr_array_index (f->notifications, index));
}

/* ------------------------------------------------------------------------ */
/* Framing                                                                   */

static void
test_split_into_bytes (Fixture       *f,
                       gconstpointer  data)
{
  const char *message =
    "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"text\":\"h\\u00e9llo \\\"w\\\"\"}}\n";
  gsize length = strlen (message);
  JsonObject *params;

  for (gsize i = 0; i < length; i++)
    {
      peer_write_len (f, message + i, 1);
      /* let the connection read this byte on its own */
      test_drain_main_context ();
      if (i + 1 < length)
        g_assert_cmpuint (f->notifications->len, ==, 0);
    }

  WAIT_UNTIL (f->notifications->len == 1);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 0), "method"), ==,
                   "session/update");
  params = json_object_get_object_member (notification_at (f, 0), "params");
  g_assert_cmpstr (json_object_get_string_member (params, "text"), ==, "h\xc3\xa9llo \"w\"");
  g_assert_cmpuint (f->message_errors->len, ==, 0);
}

static void
test_many_in_one_write (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;

  peer_write (f,
              "{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":{\"n\":1}}\n"
              "{\"jsonrpc\":\"2.0\",\"method\":\"b\",\"params\":[2]}\n"
              "{\"jsonrpc\":\"2.0\",\"method\":\"c\"}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"test/unknown\"}\n");

  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 9);
  g_assert_cmpuint (f->notifications->len, ==, 3);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 0), "method"), ==, "a");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, 0),
                                                                              "params"), "n"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 1), "method"), ==, "b");
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (notification_at (f, 1),
                                                                             "params"), 0), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 2), "method"), ==, "c");
  g_assert_false (json_object_has_member (notification_at (f, 2), "params"));
}

typedef struct
{
  Fixture *f;
  guint    expected;
  guint    runs_during_flood;
} FloodData;

static gboolean
redraw_like_cb (gpointer user_data)
{
  FloodData *flood = user_data;

  if (flood->f->notifications->len > 0 && flood->f->notifications->len < flood->expected)
    flood->runs_during_flood++;

  return G_SOURCE_CONTINUE;
}

static void
slow_handler_cb (AcpConnection *conn,
                 const char    *method,
                 JsonNode      *params,
                 gpointer       user_data)
{
  gint64 until = g_get_monotonic_time () + 20;

  /* a little work per message, as a transcript update does */
  while (g_get_monotonic_time () < until)
    ;
}

/* A peer flooding the pipe (an agent replaying a long history) must not keep
 * the main loop from running what sits below the default priority, such as
 * GTK's layout and paint. */
static void
test_flood_shares_loop (Fixture       *f,
                        gconstpointer  data)
{
  FloodData flood = { f, 30000, 0 };
  GString *lines = g_string_new (NULL);
  guint idle_id;

  for (guint i = 0; i < flood.expected; i++)
    g_string_append_printf (lines, "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"n\":%u}}\n", i);

  g_signal_connect (f->conn, "notification", G_CALLBACK (slow_handler_cb), NULL);
  /* the priority GTK paints frames at */
  idle_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, redraw_like_cb, &flood, NULL);

  peer_write_len (f, lines->str, lines->len);
  WAIT_UNTIL (f->notifications->len == flood.expected);
  g_source_remove (idle_id);
  g_string_free (lines, TRUE);

  /* in order, and the loop ran other work many times meanwhile */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, 0), "params"), "n"),
                   ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, flood.expected - 1),
                                                                              "params"), "n"),
                   ==, flood.expected - 1);
  g_test_message ("lower-priority source ran %u times during the flood", flood.runs_during_flood);
  g_assert_cmpuint (flood.runs_during_flood, >=, 5);
}

/* The pacer's clock in the tests of pacing: it stands still but for what the
 * test and the handlers of messages add, so that what a slice holds and when
 * frames count as stopped do not depend on how busy the machine is. */
static gint64 fake_now;

static gint64
fake_clock (void)
{
  return fake_now;
}

static void
use_fake_clock (AcpPacer *pacer)
{
  fake_now = g_get_monotonic_time ();
  acp_pacer_set_clock (pacer, fake_clock);
}

/* Each message takes 20 µs by the fake clock, as a transcript update may:
 * a slice of 2 ms holds 100 of them. */
#define MESSAGE_US 20

static void
timed_handler_cb (AcpConnection *conn,
                  const char    *method,
                  JsonNode      *params,
                  gpointer       user_data)
{
  fake_now += MESSAGE_US;
}

/* The peer writes @n_lines numbered session/update notifications, each
 * taking MESSAGE_US by the fake clock, while dispatching is held: on return
 * at least @parsed bytes of them are parsed, none dispatched yet (the caller
 * lets them go with _acp_connection_set_dispatch_held (FALSE)); beyond the
 * worker's bound, the rest is written as it reads on. */
static void
flood_held (Fixture *f,
            guint    n_lines,
            guint64  parsed)
{
  GString *lines = f->flood = g_string_new (NULL);

  for (guint i = 0; i < n_lines; i++)
    g_string_append_printf (lines, "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"n\":%u}}\n", i);
  g_signal_connect (f->conn, "notification", G_CALLBACK (timed_handler_cb), NULL);

  _acp_connection_set_dispatch_held (f->conn, TRUE);
  f->n_peer_writes_pending++;
  g_output_stream_write_all_async (g_io_stream_get_output_stream (G_IO_STREAM (f->peer)),
                                   lines->str, lines->len, G_PRIORITY_DEFAULT, NULL, peer_write_cb, f);
  WAIT_UNTIL (_acp_connection_get_n_parsed (f->conn) >= parsed);
}

/* In step with frames (AcpPacer), a flood is dispatched a slice after each
 * frame and waits for the next; once frames stop coming, it goes on alone. */
static void
test_flood_paced_by_frames (Fixture       *f,
                            gconstpointer  data)
{
  AcpPacer *pacer = f->pacer;
  const guint n_lines = 20000;
  /* a slice of 2 ms */
  const guint per_slice = 2 * G_TIME_SPAN_MILLISECOND / MESSAGE_US;

  use_fake_clock (pacer);
  /* parsed well beyond what five slices take before the first frame */
  flood_held (f, n_lines, 64 * 1024);

  g_assert_false (acp_pacer_in_step (pacer, fake_now, NULL));
  for (guint frame = 0; frame < 5; frame++)
    {
      /* a frame: the next slice */
      acp_pacer_frame_painted (pacer, 2 * G_TIME_SPAN_MILLISECOND);
      g_assert_true (acp_pacer_in_step (pacer, fake_now, NULL));
      if (frame == 0)
        _acp_connection_set_dispatch_held (f->conn, FALSE);
      WAIT_UNTIL (_acp_connection_is_waiting_for_frame (f->conn));
      g_assert_cmpuint (f->notifications->len, ==, (frame + 1) * per_slice);

      /* no frame for a while, short of frames counting as stopped: nothing
       * after the slice */
      fake_now += ACP_PACER_IN_STEP_FOR / 2;
      test_drain_main_context ();
      g_assert_true (_acp_connection_is_waiting_for_frame (f->conn));
      g_assert_cmpuint (f->notifications->len, ==, (frame + 1) * per_slice);
    }

  /* frames stop: the rest comes without them, in order */
  fake_now += ACP_PACER_IN_STEP_FOR;
  g_assert_false (acp_pacer_in_step (pacer, fake_now, NULL));
  WAIT_UNTIL (f->notifications->len == n_lines && f->n_peer_writes_pending == 0);
  g_assert_false (_acp_connection_is_waiting_for_frame (f->conn));
  for (guint i = 0; i < n_lines; i += 997)
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, i), "params"), "n"),
                     ==, i);

  /* a frame that allows no slice ends the pacing at once */
  acp_pacer_frame_painted (pacer, 2 * G_TIME_SPAN_MILLISECOND);
  acp_pacer_frame_painted (pacer, 0);
  g_assert_false (acp_pacer_in_step (pacer, fake_now, NULL));
}

/* A frame held for (the one showing a prompt): nothing is dispatched before
 * it is painted, a slice after it; without it for a while, all goes on. */
static void
test_held_until_frame (Fixture       *f,
                       gconstpointer  data)
{
  AcpPacer *pacer = f->pacer;
  const guint n_lines = 2000;
  gint64 slice = -1;

  use_fake_clock (pacer);
  flood_held (f, n_lines, 64 * 1024);

  acp_pacer_hold_until_frame (pacer);
  g_assert_true (acp_pacer_in_step (pacer, fake_now, &slice));
  g_assert_cmpint (slice, ==, 0);
  _acp_connection_set_dispatch_held (f->conn, FALSE);
  g_assert_true (_acp_connection_is_waiting_for_frame (f->conn));
  /* the frame is late, but not yet given up on */
  fake_now += ACP_PACER_IN_STEP_FOR;
  test_drain_main_context ();
  g_assert_true (_acp_connection_is_waiting_for_frame (f->conn));
  g_assert_cmpuint (f->notifications->len, ==, 0);

  /* the frame: a slice of 2 ms, 100 messages, then a wait again */
  acp_pacer_frame_painted (pacer, 2 * G_TIME_SPAN_MILLISECOND);
  g_assert_true (acp_pacer_in_step (pacer, fake_now, &slice));
  g_assert_cmpint (slice, ==, 2 * G_TIME_SPAN_MILLISECOND);
  WAIT_UNTIL (_acp_connection_is_waiting_for_frame (f->conn));
  g_assert_cmpuint (f->notifications->len, ==, 2 * G_TIME_SPAN_MILLISECOND / MESSAGE_US);

  /* no more frames: the rest, in order */
  fake_now += ACP_PACER_IN_STEP_FOR;
  WAIT_UNTIL (f->notifications->len == n_lines && f->n_peer_writes_pending == 0);
  g_assert_false (acp_pacer_in_step (pacer, fake_now, NULL));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, n_lines - 1), "params"), "n"),
                   ==, n_lines - 1);

  /* a hold without its frame lapses too */
  acp_pacer_hold_until_frame (pacer);
  g_assert_true (acp_pacer_in_step (pacer, fake_now + ACP_PACER_IN_STEP_FOR, NULL));
  g_assert_false (acp_pacer_in_step (pacer, fake_now + ACP_PACER_IN_STEP_FOR + 1, NULL));
}

static void
assert_in_order (Fixture *f,
                 guint    n_lines)
{
  g_assert_cmpuint (f->notifications->len, ==, n_lines);
  for (guint i = 0; i < n_lines; i += 97)
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, i), "params"), "n"),
                     ==, i);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, n_lines - 1), "params"), "n"),
                   ==, n_lines - 1);
}

/* Two connections given two pacers: each keeps in step with the frames of
 * its own, and the frames of the other mean nothing to it. Without a pacer
 * any more, a connection waiting for a frame goes on at once. */
static void
test_pacers_independent (Fixture       *f,
                         gconstpointer  data)
{
  Fixture other = { 0 };
  const guint n_lines = 1000;
  /* a slice of 2 ms */
  const guint per_slice = 2 * G_TIME_SPAN_MILLISECOND / MESSAGE_US;

  fixture_setup (&other, NULL);
  g_assert_true (acp_connection_get_pacer (f->conn) == f->pacer);
  g_assert_true (acp_connection_get_pacer (other.conn) == other.pacer);
  g_assert_true (f->pacer != other.pacer);
  /* one clock for both, moved by the messages of both: 1000 of them take
   * 20 ms, short of frames counting as stopped */
  use_fake_clock (f->pacer);
  acp_pacer_set_clock (other.pacer, fake_clock);
  flood_held (f, n_lines, 32 * 1024);
  flood_held (&other, n_lines, 32 * 1024);

  /* a frame of the first pacer: its connection dispatches a slice and
   * waits for the next frame */
  acp_pacer_frame_painted (f->pacer, 2 * G_TIME_SPAN_MILLISECOND);
  _acp_connection_set_dispatch_held (f->conn, FALSE);
  WAIT_UNTIL (_acp_connection_is_waiting_for_frame (f->conn));
  g_assert_cmpuint (f->notifications->len, ==, per_slice);

  /* the other pacer has no frames: its connection goes on alone, while the
   * first one still waits for its frame */
  g_assert_false (acp_pacer_in_step (other.pacer, fake_now, NULL));
  _acp_connection_set_dispatch_held (other.conn, FALSE);
  WAIT_UNTIL (other.notifications->len == n_lines && other.n_peer_writes_pending == 0);
  g_assert_false (_acp_connection_is_waiting_for_frame (other.conn));
  assert_in_order (&other, n_lines);
  g_assert_true (acp_pacer_in_step (f->pacer, fake_now, NULL));
  g_assert_true (_acp_connection_is_waiting_for_frame (f->conn));
  g_assert_cmpuint (f->notifications->len, ==, per_slice);

  /* a frame of the other pacer lets nothing of the first connection go */
  acp_pacer_frame_painted (other.pacer, 2 * G_TIME_SPAN_MILLISECOND);
  test_drain_main_context ();
  g_assert_true (_acp_connection_is_waiting_for_frame (f->conn));
  g_assert_cmpuint (f->notifications->len, ==, per_slice);

  /* its own does: the next slice */
  acp_pacer_frame_painted (f->pacer, 2 * G_TIME_SPAN_MILLISECOND);
  WAIT_UNTIL (_acp_connection_is_waiting_for_frame (f->conn));
  g_assert_cmpuint (f->notifications->len, ==, 2 * per_slice);

  /* taken its pacer, it no longer waits for frames: the rest, in order,
   * though its old pacer is still in step */
  acp_connection_set_pacer (f->conn, NULL);
  g_assert_true (acp_pacer_in_step (f->pacer, fake_now, NULL));
  WAIT_UNTIL (f->notifications->len == n_lines && f->n_peer_writes_pending == 0);
  g_assert_false (_acp_connection_is_waiting_for_frame (f->conn));
  assert_in_order (f, n_lines);

  /* every worker ends, this test's other connection's and then the
   * fixture's */
  acp_connection_close (f->conn, NULL);
  fixture_teardown (&other, NULL);
}

/* A connection without a pacer dispatches everything, in order, in time
 * slices (by the monotonic clock then): a flood leaves the loop between
 * them, and frames reported anywhere do not hold it up. */
static void
test_no_pacer (Fixture       *f,
               gconstpointer  data)
{
  const guint n_lines = 2000;

  /* the fixture's pacer, in step with frames, no longer the connection's */
  acp_connection_set_pacer (f->conn, NULL);
  g_assert_null (acp_connection_get_pacer (f->conn));
  acp_connection_start (f->conn);
  use_fake_clock (f->pacer);
  acp_pacer_frame_painted (f->pacer, 2 * G_TIME_SPAN_MILLISECOND);

  /* each message takes at least 20 µs of real time: 2000 of them take
   * 40 ms, more than a slice */
  g_signal_connect (f->conn, "notification", G_CALLBACK (slow_handler_cb), NULL);
  flood_held (f, n_lines, 64 * 1024);
  _acp_connection_set_dispatch_held (f->conn, FALSE);
  g_assert_cmpuint (f->notifications->len, >, 0);
  g_assert_cmpuint (f->notifications->len, <, n_lines);
  g_assert_false (_acp_connection_is_waiting_for_frame (f->conn));

  /* the rest, slice after slice, with no frame, while the old pacer is
   * still in step */
  WAIT_UNTIL (f->notifications->len == n_lines && f->n_peer_writes_pending == 0);
  g_assert_false (_acp_connection_is_waiting_for_frame (f->conn));
  g_assert_true (acp_pacer_in_step (f->pacer, fake_now, NULL));
  assert_in_order (f, n_lines);
}

/* A test preparer: {"method": "t", "params": {"k": key, "s": text}}
 * becomes a Piece, and pieces of one key join; anything else is left
 * alone. */
typedef struct
{
  char    *key;
  GString *text;
  guint    n;          /* notifications it stands for */
} Piece;

static void
piece_free (gpointer data)
{
  Piece *piece = data;

  g_free (piece->key);
  g_string_free (piece->text, TRUE);
  g_free (piece);
}

static Piece *
piece_new (const char *key,
           const char *text,
           guint       n)
{
  Piece *piece = g_new0 (Piece, 1);

  piece->key = g_strdup (key);
  piece->text = g_string_new (text);
  piece->n = n;
  return piece;
}

static GThread *preparing_thread;  /* where prepare_piece last ran */

static gpointer
prepare_piece (const char         *method,
               const AcpJsonDoc   *doc,
               const AcpJsonValue *params)
{
  const char *key = acp_json_value_get_string_member (doc, params, "k");
  const char *text = acp_json_value_get_string_member (doc, params, "s");

  preparing_thread = g_thread_self ();
  if (g_strcmp0 (method, "t") != 0 || key == NULL || text == NULL)
    return NULL;

  return piece_new (key, text, 1);
}

static gboolean
join_pieces (gpointer into,
             gpointer next)
{
  Piece *piece = into;
  Piece *more = next;

  if (!g_str_equal (piece->key, more->key))
    return FALSE;

  g_string_append_len (piece->text, more->text->str, more->text->len);
  piece->n += more->n;
  return TRUE;
}

/* every piece dispatched, and every notification as a piece of key
 * "plain", in order */
static void
dispatch_piece (AcpConnection *conn,
                gpointer       prepared,
                gpointer       user_data)
{
  Piece *piece = prepared;

  g_ptr_array_add (user_data, piece_new (piece->key, piece->text->str, piece->n));
}

static void
plain_notification_cb (AcpConnection *conn,
                       const char    *method,
                       JsonNode      *params,
                       GPtrArray     *dispatched)
{
  g_ptr_array_add (dispatched, piece_new ("plain", "", 1));
}

static const AcpConnectionPreparer piece_preparer = {
  prepare_piece, join_pieces, dispatch_piece, piece_free,
};

/* Notifications are taken apart in the reading thread, and pieces of text
 * read together and continuing one another are dispatched as one, in
 * order, saying how many they stand for; anything else between them ends
 * the joining. */
static void
test_join (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GPtrArray) dispatched = g_ptr_array_new_with_free_func (piece_free);
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GString) expected_a = g_string_new (NULL);
  g_autoptr(GString) a = g_string_new (NULL);
  g_autoptr(GString) later_a = g_string_new (NULL);
  g_autoptr(GString) b = g_string_new (NULL);
  guint n_a = 0, n_total = 0;
  gboolean seen_plain = FALSE;

  for (guint i = 0; i < 600; i++)
    {
      g_string_append_printf (lines, "{\"jsonrpc\":\"2.0\",\"method\":\"t\",\"params\":{\"k\":\"A\",\"s\":\"%u,\"}}\n", i);
      g_string_append_printf (expected_a, "%u,", i);
    }
  /* not text to join (no "s"), then more of the same stream (not to be
   * joined to what came before it), another stream, then a request */
  g_string_append (lines, "{\"jsonrpc\":\"2.0\",\"method\":\"t\",\"params\":{\"k\":\"A\"}}\n");
  for (guint i = 0; i < 200; i++)
    g_string_append (lines, "{\"jsonrpc\":\"2.0\",\"method\":\"t\",\"params\":{\"k\":\"A\",\"s\":\"a\"}}\n");
  for (guint i = 0; i < 100; i++)
    g_string_append (lines, "{\"jsonrpc\":\"2.0\",\"method\":\"t\",\"params\":{\"k\":\"B\",\"s\":\"b\"}}\n");
  g_string_append (lines, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"t\",\"params\":{\"k\":\"B\",\"s\":\"b\"}}\n");

  acp_connection_set_preparer (f->conn, &piece_preparer, dispatched);
  g_signal_connect (f->conn, "notification", G_CALLBACK (plain_notification_cb), dispatched);
  /* everything is there before the first read */
  peer_write_len (f, lines->str, lines->len);
  acp_connection_start (f->conn);
  /* the request is answered (no handler: -32601) after every notification */
  WAIT_UNTIL (strstr (f->received->str, "-32601") != NULL);

  g_assert_nonnull (preparing_thread);
  g_assert_true (preparing_thread != g_thread_self ());
  /* the prepared ones are not emitted as notifications */
  g_assert_cmpuint (f->notifications->len, ==, 1);

  for (guint i = 0; i < dispatched->len; i++)
    {
      Piece *piece = g_ptr_array_index (dispatched, i);

      g_assert_cmpuint (piece->n, >=, 1);
      n_total += piece->n;
      if (g_str_equal (piece->key, "plain"))
        {
          g_assert_false (seen_plain);
          seen_plain = TRUE;
        }
      else if (!seen_plain)
        {
          g_assert_cmpstr (piece->key, ==, "A");
          g_string_append (a, piece->text->str);
          n_a += piece->n;
        }
      else
        {
          g_string_append (g_str_equal (piece->key, "A") ? later_a : b, piece->text->str);
        }
    }
  g_assert_cmpuint (n_total, ==, 901);
  g_assert_cmpstr (a->str, ==, expected_a->str);
  g_assert_cmpuint (n_a, ==, 600);
  g_assert_true (seen_plain);
  g_assert_cmpuint (later_a->len, ==, 200);
  g_assert_null (strchr (later_a->str, 'b'));
  g_assert_cmpuint (b->len, ==, 100);
  g_assert_null (strchr (b->str, 'a'));
  g_test_message ("901 notifications dispatched as %u", dispatched->len);
  g_assert_cmpuint (dispatched->len, <, 901);
}

/* Every notification is offered, under its method as key */
static gpointer
prepare_any (const char         *method,
             const AcpJsonDoc   *doc,
             const AcpJsonValue *params)
{
  return piece_new (method, "", 1);
}

static const AcpConnectionPreparer any_preparer = {
  prepare_any, NULL, dispatch_piece, piece_free,
};

/* The reading thread offers a preparer exactly the messages that
 * dispatching would emit as notifications: the rules of JSON-RPC checked
 * on the document are those checked on the tree */
static void
test_prepare_envelopes (Fixture       *f,
                        gconstpointer  data)
{
  static const char *lines[] = {
    "{\"jsonrpc\":\"2.0\",\"method\":\"m0\",\"params\":{\"a\":1}}",
    "{\"method\":\"m1\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m2\",\"params\":null}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m3\",\"params\":[1,2]}",
    "{\"jsonrpc\":\"1.0\",\"method\":\"m4\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m5\",\"params\":\"x\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"m6\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"m7\"}",
    "{\"jsonrpc\":2,\"method\":\"m8\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":5}",
    "[{\"jsonrpc\":\"2.0\",\"method\":\"m9\"}]",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m10\",\"params\":{},\"method\":\"m11\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"last\"}",
  };
  static const char *notifications[] = { "m0", "m1", "m2", "m3", "m11" };
  g_autoptr(GPtrArray) dispatched = g_ptr_array_new_with_free_func (piece_free);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_string_append_printf (text, "%s\n", lines[i]);

  acp_connection_set_preparer (f->conn, &any_preparer, dispatched);
  peer_write_len (f, text->str, text->len);
  acp_connection_start (f->conn);
  WAIT_UNTIL (strstr (f->received->str, "\"id\":99") != NULL);

  g_assert_cmpuint (f->notifications->len, ==, 0);
  g_assert_cmpuint (dispatched->len, ==, G_N_ELEMENTS (notifications));
  for (guint i = 0; i < G_N_ELEMENTS (notifications); i++)
    g_assert_cmpstr (((Piece *) g_ptr_array_index (dispatched, i))->key, ==, notifications[i]);
}

typedef struct
{
  Fixture *f;
  guint    ticks_while_parsing;
} TickData;

static gboolean
tick_cb (gpointer user_data)
{
  TickData *ticks = user_data;

  if (_acp_connection_is_parsing (ticks->f->conn))
    ticks->ticks_while_parsing++;

  return G_SOURCE_CONTINUE;
}

static void
test_huge_line (Fixture       *f,
                gconstpointer  data)
{
  const gsize text_length = 8 * 1024 * 1024;
  const char *prefix = "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"text\":\"";
  const char *suffix = "\\n\\u00e9\"}}\n";
  g_autoptr(GString) expected = g_string_sized_new (text_length + 8);
  g_autoptr(GString) line = g_string_sized_new (text_length + 128);
  TickData ticks = { f, 0 };
  JsonObject *params;
  const char *text;
  guint tick_id;
  guint attempt;

  for (gsize i = 0; i < text_length; i++)
    g_string_append_c (expected, 'a' + (i * 7) % 26);
  g_string_append (line, prefix);
  g_string_append_len (line, expected->str, expected->len);
  g_string_append (line, suffix);
  g_string_append (expected, "\n\xc3\xa9");

  tick_id = g_idle_add (tick_cb, &ticks);

  /* the line and a small message after it: order must be kept */
  peer_write_len (f, line->str, line->len);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"method\":\"after\"}\n");
  WAIT_UNTIL (f->notifications->len == 2);

  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 0), "method"), ==,
                   "session/update");
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 1), "method"), ==, "after");
  params = json_object_get_object_member (notification_at (f, 0), "params");
  text = json_object_get_string_member (params, "text");
  g_assert_cmpuint (strlen (text), ==, expected->len);
  g_assert_true (memcmp (text, expected->str, expected->len) == 0);

  /* parsed in a worker thread while the main loop kept iterating: the loop
   * finds the worker in the parser, if need be at a later line (a busy
   * machine may keep the main thread from a core while one is parsed) */
  for (attempt = 0; attempt < 100 && ticks.ticks_while_parsing == 0; attempt++)
    {
      peer_write_len (f, line->str, line->len);
      WAIT_UNTIL (f->notifications->len == 3);
      g_ptr_array_set_size (f->notifications, 2);
    }
  g_source_remove (tick_id);
  g_test_message ("the loop found the worker parsing after %u more lines", attempt);
  g_assert_cmpuint (ticks.ticks_while_parsing, >, 0);
  g_assert_cmpuint (f->message_errors->len, ==, 0);
}

static void
test_line_too_long (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *filler = g_strnfill (5000, 'x');
  g_autofree char *long_line = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"big\","
                                                "\"params\":{\"t\":\"%s\"}}", filler);
  gsize half = strlen (long_line) / 2;
  const GError *error;

  g_assert_cmpuint (acp_connection_get_max_line_length (f->conn), ==,
                    ACP_CONNECTION_DEFAULT_MAX_LINE_LENGTH);
  acp_connection_set_max_line_length (f->conn, 1024);
  g_assert_cmpuint (acp_connection_get_max_line_length (f->conn), ==, 1024);
  acp_connection_start (f->conn);

  /* the long line arrives in two writes, so the skipping spans reads */
  peer_write_len (f, long_line, half);
  test_drain_main_context ();
  peer_write (f, long_line + half);
  peer_write (f, "\n{\"jsonrpc\":\"2.0\",\"method\":\"small\"}\n");

  WAIT_UNTIL (f->notifications->len == 1);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 0), "method"), ==, "small");

  g_assert_cmpuint (f->message_errors->len, ==, 1);
  error = g_ptr_array_index (f->message_errors, 0);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_LINE_TOO_LONG);
  g_assert_nonnull (strstr (error->message, "1024"));

  /* a line of exactly the cap is fine */
  {
    g_autofree char *pad = NULL;
    g_autofree char *exact = NULL;
    const char *head = "{\"jsonrpc\":\"2.0\",\"method\":\"exact\",\"params\":{\"t\":\"";
    const char *tail = "\"}}";

    pad = g_strnfill (1024 - strlen (head) - strlen (tail), 'y');
    exact = g_strconcat (head, pad, tail, "\n", NULL);
    g_assert_cmpuint (strlen (exact), ==, 1025);
    peer_write (f, exact);
    WAIT_UNTIL (f->notifications->len == 2);
    g_assert_cmpstr (json_object_get_string_member (notification_at (f, 1), "method"), ==, "exact");
  }

  /* nothing was written back for the skipped line */
  peer_round_trip (f, 1);
  g_assert_cmpuint (f->message_errors->len, ==, 1);
}

static void
test_crlf_and_empty_lines (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;

  peer_write (f,
              "\r\n\n  \n"
              "{\"jsonrpc\":\"2.0\",\"method\":\"one\"}\r\n"
              "\r\n"
              "{\"jsonrpc\":\"2.0\",\"method\":\"two\",\"params\":{\"s\":\"x\\r\"}}\r\n"
              "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"test/unknown\"}\r\n");

  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 3);
  g_assert_cmpuint (f->notifications->len, ==, 2);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 0), "method"), ==, "one");
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 1), "method"), ==, "two");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (notification_at (f, 1),
                                                                                 "params"), "s"),
                   ==, "x\r");
  g_assert_cmpuint (f->message_errors->len, ==, 0);
}

static void
test_last_line_without_newline (Fixture       *f,
                                gconstpointer  data)
{
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"method\":\"last\"}");
  peer_shutdown_write (f);
  WAIT_UNTIL (f->n_closed == 1);
  g_assert_cmpuint (f->notifications->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, 0), "method"), ==, "last");
}

/* ------------------------------------------------------------------------ */
/* Incoming requests                                                         */

static gboolean
echo_request_cb (AcpConnection      *conn,
                 AcpIncomingRequest *request,
                 gpointer            user_data)
{
  g_autoptr(JsonNode) result = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  g_assert_cmpstr (acp_incoming_request_get_method (request), ==, "test/echo");
  g_assert_false (acp_incoming_request_get_answered (request));
  json_object_set_member (object, "params",
                          acp_incoming_request_get_params (request) != NULL ?
                          json_node_copy (acp_incoming_request_get_params (request)) :
                          json_node_new (JSON_NODE_NULL));
  json_node_take_object (result, object);
  acp_incoming_request_reply (request, result);
  g_assert_true (acp_incoming_request_get_answered (request));

  return TRUE;
}

static void
test_request_ids_echoed (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *line0 = NULL;
  g_autofree char *line42 = NULL;
  g_autofree char *line_abc = NULL;
  g_autofree char *line_null = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *reply;

  /* detailed: only test/echo reaches the handler */
  g_signal_connect (f->conn, "request::test/echo", G_CALLBACK (echo_request_cb), NULL);

  peer_write (f,
              "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"test/echo\",\"params\":{\"v\":1}}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"test/echo\"}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"test/echo\",\"params\":[]}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"test/echo\"}\n");

  line0 = peer_read_line (f);
  line42 = peer_read_line (f);
  line_abc = peer_read_line (f);
  line_null = peer_read_line (f);

  /* the raw bytes carry the ids exactly */
  g_assert_nonnull (strstr (line0, "\"id\":0,"));
  g_assert_nonnull (strstr (line42, "\"id\":42,"));
  g_assert_nonnull (strstr (line_abc, "\"id\":\"abc\","));
  g_assert_nonnull (strstr (line_null, "\"id\":null,"));

  g_assert_true (json_parser_load_from_data (parser, line0, -1, NULL));
  reply = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_node_get_value_type (json_object_get_member (reply, "id")) == G_TYPE_INT64);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (
                     json_object_get_object_member (reply, "result"), "params"), "v"), ==, 1);
  g_assert_false (json_object_has_member (reply, "error"));

  g_assert_true (json_parser_load_from_data (parser, line42, -1, NULL));
  reply = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 42);
  g_assert_true (json_object_get_null_member (json_object_get_object_member (reply, "result"),
                                              "params"));

  g_assert_true (json_parser_load_from_data (parser, line_abc, -1, NULL));
  reply = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_node_get_value_type (json_object_get_member (reply, "id")) == G_TYPE_STRING);
  g_assert_cmpstr (json_object_get_string_member (reply, "id"), ==, "abc");

  /* another method is not handled by the detailed handler */
  peer_round_trip (f, 5);
}

static gboolean
decline_request_cb (AcpConnection      *conn,
                    AcpIncomingRequest *request,
                    guint              *count)
{
  (*count)++;
  return FALSE;
}

static gboolean
reply_and_decline_cb (AcpConnection      *conn,
                      AcpIncomingRequest *request,
                      guint              *count)
{
  g_autoptr(JsonNode) result = json_from_string ("\"answered\"", NULL);

  (*count)++;
  acp_incoming_request_reply (request, result);
  return FALSE;
}

static void
test_request_handlers_chain (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  guint n_declined = 0;
  guint n_answered = 0;

  /* the first handler declines, the next one answers (but returns FALSE):
   * exactly one reply, no -32601 */
  g_signal_connect (f->conn, "request", G_CALLBACK (decline_request_cb), &n_declined);
  g_signal_connect (f->conn, "request::x/answer", G_CALLBACK (reply_and_decline_cb), &n_answered);

  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x/answer\"}\n");
  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (reply, "result"), ==, "answered");
  g_assert_cmpuint (n_declined, ==, 1);
  g_assert_cmpuint (n_answered, ==, 1);

  /* the next line is the reply to the ping: nothing else was sent for id 1 */
  peer_round_trip (f, 2);
  g_assert_cmpuint (n_declined, ==, 2);
  g_assert_cmpuint (n_answered, ==, 1);
}

static void
test_unknown_request (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  JsonObject *error;

  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"foo/bar\",\"params\":{}}\n");
  reply = peer_read_message (f);

  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 7);
  g_assert_false (json_object_has_member (reply, "result"));
  error = json_object_get_object_member (reply, "error");
  g_assert_cmpint (json_object_get_int_member (error, "code"), ==, -32601);
  g_assert_cmpstr (json_object_get_string_member (error, "message"), ==, "Method not found");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (error, "data"),
                                                  "method"), ==, "foo/bar");
}

static void
detailed_notification_cb (AcpConnection *conn,
                          const char    *method,
                          JsonNode      *params,
                          guint         *count)
{
  g_assert_cmpstr (method, ==, "session/update");
  (*count)++;
}

static void
test_notifications (Fixture       *f,
                    gconstpointer  data)
{
  guint n_session_updates = 0;

  g_signal_connect (f->conn, "notification::session/update",
                    G_CALLBACK (detailed_notification_cb), &n_session_updates);

  peer_write (f,
              "{\"jsonrpc\":\"2.0\",\"method\":\"_auth/status_update\",\"params\":{\"x\":1}}\n"
              "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\"}}\n"
              "{\"jsonrpc\":\"2.0\",\"method\":\"session/other\",\"params\":null}\n");

  /* nothing was written for any of them: the next line is the ping's reply */
  peer_round_trip (f, 1);

  g_assert_cmpuint (f->notifications->len, ==, 3);
  g_assert_cmpuint (n_session_updates, ==, 1);
  /* params null is passed as NULL */
  g_assert_false (json_object_has_member (notification_at (f, 2), "params"));
  g_assert_cmpuint (f->message_errors->len, ==, 0);
}

static void
test_parse_error (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GString) deep = g_string_new ("{\"jsonrpc\":\"2.0\",\"method\":\"deep\",\"params\":");

  peer_write (f, "this is not json\n");
  reply = peer_read_message (f);
  g_assert_true (json_object_get_null_member (reply, "id"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, -32700);
  g_clear_pointer (&reply, json_object_unref);
  /* and reported, the line quoted */
  g_assert_cmpuint (f->message_errors->len, ==, 1);
  {
    GError *reported = g_ptr_array_index (f->message_errors, 0);

    g_assert_error (reported, ACP_ERROR, ACP_ERROR_PARSE_ERROR);
    g_assert_nonnull (strstr (reported->message, "“this is not json”"));
  }

  /* a long line with control characters: its start, on one line */
  {
    g_autoptr(GString) line = g_string_new ("Usage:\tclaude [options]\x1b[0m ");
    const char *message;
    const char *quote;

    for (guint i = 0; i < 100; i++)
      g_string_append (line, "word ");
    g_string_append_c (line, '\n');
    peer_write_len (f, line->str, line->len);
    reply = peer_read_message (f);
    g_clear_pointer (&reply, json_object_unref);
    g_assert_cmpuint (f->message_errors->len, ==, 2);
    message = ((GError *) g_ptr_array_index (f->message_errors, 1))->message;
    quote = strstr (message, "“Usage: claude [options] [0m word");
    g_assert_nonnull (quote);
    g_assert_true (g_str_has_suffix (message, "…”"));
    g_assert_cmpuint (g_utf8_strlen (quote, -1), ==, 1 + 80 + 2);
  }

  /* invalid UTF-8 */
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"a\":\"\xff\xfe\"}}\n");
  reply = peer_read_message (f);
  g_assert_true (json_object_get_null_member (reply, "id"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, -32700);
  g_clear_pointer (&reply, json_object_unref);

  /* nesting deep enough to exhaust a recursive parser's stack */
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (deep, '[');
  g_string_append (deep, "}\n");
  peer_write_len (f, deep->str, deep->len);
  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, -32700);

  /* the connection still works */
  g_assert_false (acp_connection_is_closed (f->conn));
  peer_round_trip (f, 2);
  g_assert_cmpuint (f->notifications->len, ==, 0);
}

static void
expect_invalid_request (Fixture    *f,
                        const char *line,
                        const char *expected_id)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(JsonNode) expected = json_from_string (expected_id, NULL);

  peer_write (f, line);
  reply = peer_read_message (f);
  g_assert_true (json_node_equal (json_object_get_member (reply, "id"), expected));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, -32600);
}

static void
test_invalid_requests (Fixture       *f,
                       gconstpointer  data)
{
  expect_invalid_request (f, "42\n", "null");
  expect_invalid_request (f, "\"text\"\n", "null");
  expect_invalid_request (f, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}]\n", "null");
  expect_invalid_request (f, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":7}\n", "5");
  expect_invalid_request (f, "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"\"}\n", "\"q\"");
  expect_invalid_request (f, "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"a\"}\n", "null");
  expect_invalid_request (f, "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"a\"}\n", "null");
  expect_invalid_request (f, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"a\",\"params\":3}\n", "6");
  expect_invalid_request (f, "{\"jsonrpc\":\"1.0\",\"id\":8,\"method\":\"a\"}\n", "8");
  expect_invalid_request (f, "{\"foo\":1}\n", "null");
  expect_invalid_request (f, "{\"jsonrpc\":\"2.0\",\"id\":77}\n", "77");

  g_assert_false (acp_connection_is_closed (f->conn));
  g_assert_cmpuint (f->notifications->len, ==, 0);
  g_assert_cmpuint (f->message_errors->len, ==, 0);
}

typedef struct
{
  AcpIncomingRequest *request;
  guint               n_calls;
} KeepData;

static gboolean
keep_request_cb (AcpConnection      *conn,
                 AcpIncomingRequest *request,
                 KeepData           *keep)
{
  keep->n_calls++;
  g_assert_null (keep->request);
  keep->request = g_object_ref (request);
  return TRUE;
}

static gboolean
reply_later_cb (gpointer user_data)
{
  KeepData *keep = user_data;
  g_autoptr(JsonNode) result = json_from_string ("{\"outcome\":\"selected\"}", NULL);

  acp_incoming_request_reply (keep->request, result);
  g_clear_object (&keep->request);

  return G_SOURCE_REMOVE;
}

static void
test_deferred_reply (Fixture       *f,
                     gconstpointer  data)
{
  KeepData keep = { NULL, 0 };
  g_autoptr(JsonObject) reply = NULL;
  JsonObject *params;

  g_signal_connect (f->conn, "request", G_CALLBACK (keep_request_cb), &keep);

  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session/request_permission\","
                 "\"params\":{\"sessionId\":\"s1\"}}\n");
  WAIT_UNTIL (keep.request != NULL);

  g_assert_cmpstr (acp_incoming_request_get_method (keep.request), ==, "session/request_permission");
  params = acp_incoming_request_get_params_object (keep.request);
  g_assert_nonnull (params);
  g_assert_cmpstr (json_object_get_string_member (params, "sessionId"), ==, "s1");
  g_assert_cmpint (json_node_get_int (acp_incoming_request_get_id (keep.request)), ==, 0);
  g_assert_false (g_cancellable_is_cancelled (acp_incoming_request_get_cancellable (keep.request)));

  /* nothing was answered yet */
  test_drain_main_context ();
  g_assert_cmpuint (f->received->len, ==, 0);

  /* answered later, from the main loop */
  g_idle_add (reply_later_cb, &keep);
  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (reply, "result"),
                                                  "outcome"), ==, "selected");
  g_assert_null (keep.request);
}

static gboolean
forget_request_cb (AcpConnection      *conn,
                   AcpIncomingRequest *request,
                   gpointer            user_data)
{
  /* claims the request but keeps no reference: a bug the connection survives */
  return TRUE;
}

static void
test_dropped_request (Fixture       *f,
                      gconstpointer  data)
{
  KeepData keep = { NULL, 0 };
  g_autoptr(JsonObject) reply = NULL;
  gulong handler;

  handler = g_signal_connect (f->conn, "request", G_CALLBACK (keep_request_cb), &keep);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"fs/read_text_file\"}\n");
  WAIT_UNTIL (keep.request != NULL);
  g_signal_handler_disconnect (f->conn, handler);

  g_clear_object (&keep.request);
  reply = peer_read_message (f);
  g_assert_cmpstr (json_object_get_string_member (reply, "id"), ==, "r1");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, -32603);
  g_clear_pointer (&reply, json_object_unref);

  g_signal_connect (f->conn, "request", G_CALLBACK (forget_request_cb), NULL);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"fs/read_text_file\"}\n");
  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, -32603);
}

static void
test_incoming_cancelled (Fixture       *f,
                         gconstpointer  data)
{
  KeepData keep = { NULL, 0 };
  g_autoptr(AcpIncomingRequest) first = NULL;
  g_autoptr(GError) cancelled = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  g_autoptr(JsonObject) reply = NULL;

  g_signal_connect (f->conn, "request", G_CALLBACK (keep_request_cb), &keep);

  /* the peer cancels its own request */
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/request_permission\"}\n");
  WAIT_UNTIL (keep.request != NULL);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancel_request\",\"params\":{\"requestId\":4}}\n");
  WAIT_UNTIL (g_cancellable_is_cancelled (acp_incoming_request_get_cancellable (keep.request)));
  acp_incoming_request_reply_error (keep.request, cancelled);
  g_clear_object (&keep.request);
  reply = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"), "code"),
                   ==, -32800);

  /* closing cancels a pending request and drops its late reply */
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/request_permission\"}\n");
  WAIT_UNTIL (keep.request != NULL);
  first = g_steal_pointer (&keep.request);
  acp_connection_close (f->conn, NULL);
  g_assert_true (g_cancellable_is_cancelled (acp_incoming_request_get_cancellable (first)));
  acp_incoming_request_reply (first, NULL);
  g_assert_true (acp_incoming_request_get_answered (first));

  WAIT_UNTIL (f->peer_eof);
  g_assert_cmpuint (f->received->len, ==, 0);
}

/* ------------------------------------------------------------------------ */
/* Outgoing calls                                                            */

typedef struct
{
  gboolean  done;
  JsonNode *result;
  GError   *error;
} CallData;

static void
call_data_clear (CallData *call)
{
  g_clear_pointer (&call->result, json_node_unref);
  g_clear_error (&call->error);
  call->done = FALSE;
}

static void
call_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  CallData *call = user_data;

  g_assert_false (call->done);
  call->result = acp_connection_call_finish (ACP_CONNECTION (source), result, &call->error);
  g_assert_true ((call->result == NULL) != (call->error == NULL));
  call->done = TRUE;
}

/* Reads the request the connection sent and checks its method; returns its id. */
static gint64
peer_expect_request (Fixture    *f,
                     const char *method)
{
  g_autoptr(JsonObject) request = peer_read_message (f);
  JsonNode *id = json_object_get_member (request, "id");

  g_assert_cmpstr (json_object_get_string_member (request, "method"), ==, method);
  g_assert_nonnull (id);
  g_assert_true (json_node_get_value_type (id) == G_TYPE_INT64);
  return json_node_get_int (id);
}

static void
test_call_results (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(JsonNode) params = json_from_string ("{\"cwd\":\"/tmp\",\"mcpServers\":[]}", NULL);
  g_autoptr(JsonObject) request = NULL;
  CallData call = { 0 };

  acp_connection_call_async (f->conn, "session/new", params, NULL, call_cb, &call);
  request = peer_read_message (f);
  g_assert_cmpstr (json_object_get_string_member (request, "method"), ==, "session/new");
  g_assert_cmpint (json_object_get_int_member (request, "id"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (request, "params"),
                                                  "cwd"), ==, "/tmp");
  g_assert_false (call.done);

  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"sessionId\":\"s1\"}}\n");
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (call.result));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (call.result), "sessionId"),
                   ==, "s1");
  call_data_clear (&call);

  /* result null; no params */
  acp_connection_call_async (f->conn, "session/cancel_all", NULL, NULL, call_cb, &call);
  g_clear_pointer (&request, json_object_unref);
  request = peer_read_message (f);
  g_assert_cmpint (json_object_get_int_member (request, "id"), ==, 2);
  g_assert_false (json_object_has_member (request, "params"));
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":null}\n");
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_nonnull (call.result);
  g_assert_true (JSON_NODE_HOLDS_NULL (call.result));
  call_data_clear (&call);

  /* the string form of our id is accepted, and "error": null is no error */
  acp_connection_call_async (f->conn, "x", NULL, NULL, call_cb, &call);
  g_assert_cmpint (peer_expect_request (f, "x"), ==, 3);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":\"3\",\"result\":7,\"error\":null}\n");
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_cmpint (json_node_get_int (call.result), ==, 7);
  call_data_clear (&call);

  /* params are not taken: the caller's node is still usable */
  g_assert_true (JSON_NODE_HOLDS_OBJECT (params));
  g_assert_cmpuint (f->message_errors->len, ==, 0);
}

static void
test_call_errors (Fixture       *f,
                  gconstpointer  data)
{
  CallData call = { 0 };
  JsonNode *error_data;

  acp_connection_call_async (f->conn, "session/new", NULL, NULL, call_cb, &call);
  g_assert_cmpint (peer_expect_request (f, "session/new"), ==, 1);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32000,"
                 "\"message\":\"Authentication required\",\"data\":{\"methods\":[\"a\"]}}}\n");
  WAIT_UNTIL (call.done);
  g_assert_error (call.error, ACP_ERROR, ACP_ERROR_AUTH_REQUIRED);
  g_assert_cmpstr (call.error->message, ==, "Authentication required");
  g_assert_true (acp_error_is_remote (call.error));
  error_data = acp_error_get_data (call.error);
  g_assert_nonnull (error_data);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (
                     json_node_get_object (error_data), "methods"), 0), ==, "a");
  call_data_clear (&call);

  /* a non-standard code is kept as it is */
  acp_connection_call_async (f->conn, "session/prompt", NULL, NULL, call_cb, &call);
  g_assert_cmpint (peer_expect_request (f, "session/prompt"), ==, 2);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":500,\"message\":\"boom\"}}\n");
  WAIT_UNTIL (call.done);
  g_assert_error (call.error, ACP_ERROR, 500);
  g_assert_true (acp_error_is_remote (call.error));
  g_assert_null (acp_error_get_data (call.error));
  call_data_clear (&call);

  /* the reason agents put in data joins a generic message: data.details,
   * data.message, a string; nothing twice, nothing from other members */
  {
    static const struct {
      const char *error;
      const char *message;
    } cases[] = {
      { "{\"code\":-32603,\"message\":\"Internal error\","
        "\"data\":{\"details\":\"Claude Code process exited with code 1\"}}",
        "Internal error: Claude Code process exited with code 1" },
      { "{\"code\":-32603,\"message\":\"Internal error\",\"data\":{\"message\":\" quota exceeded\\n\"}}",
        "Internal error: quota exceeded" },
      { "{\"code\":-32603,\"message\":\"Internal error\",\"data\":\"disk full\"}",
        "Internal error: disk full" },
      { "{\"code\":-32603,\"message\":\"\",\"data\":\"disk full\"}", "disk full" },
      { "{\"code\":-32603,\"message\":\"Internal error: disk full\",\"data\":{\"details\":\"disk full\"}}",
        "Internal error: disk full" },
      { "{\"code\":-32603,\"message\":\"Internal error\",\"data\":{\"details\":\"  \"}}", "Internal error" },
      { "{\"code\":-32601,\"message\":\"Method not found\",\"data\":{\"method\":\"x/y\"}}", "Method not found" },
      { "{\"code\":-32603,\"message\":\"Internal error\",\"data\":{\"details\":7}}", "Internal error" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *line = NULL;
        gint64 id;

        acp_connection_call_async (f->conn, "session/new", NULL, NULL, call_cb, &call);
        id = peer_expect_request (f, "session/new");
        line = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":%s}\n",
                                id, cases[i].error);
        peer_write (f, line);
        WAIT_UNTIL (call.done);
        g_assert_true (acp_error_is_remote (call.error));
        g_assert_cmpstr (call.error->message, ==, cases[i].message);
        /* data is kept as it came */
        g_assert_nonnull (acp_error_get_data (call.error));
        call_data_clear (&call);
      }
  }
}

static void
test_call_invalid_responses (Fixture       *f,
                             gconstpointer  data)
{
  /* what follows {"jsonrpc":"2.0","id":<id> */
  const char *responses[] = {
    "}",
    ",\"result\":1,\"error\":{\"code\":1,\"message\":\"m\"}}",
    ",\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
    ",\"error\":{\"code\":1}}",
    ",\"error\":\"bad\"}",
    ",\"error\":{\"code\":99999999999,\"message\":\"m\"}}",
  };
  const GError *error;

  for (guint i = 0; i < G_N_ELEMENTS (responses); i++)
    {
      CallData call = { 0 };
      g_autofree char *response = NULL;
      gint64 id;

      acp_connection_call_async (f->conn, "m", NULL, NULL, call_cb, &call);
      id = peer_expect_request (f, "m");
      g_assert_cmpint (id, ==, i + 1);
      response = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%d%s\n", (int) id, responses[i]);
      peer_write (f, response);
      WAIT_UNTIL (call.done);
      g_assert_error (call.error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
      g_assert_false (acp_error_is_remote (call.error));
      call_data_clear (&call);
    }

  /* responses that match no call: reported, never answered */
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":1000,\"result\":{}}\n");
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n");
  peer_round_trip (f, 1);
  g_assert_cmpuint (f->message_errors->len, ==, 2);
  error = g_ptr_array_index (f->message_errors, 0);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "1000"));
  error = g_ptr_array_index (f->message_errors, 1);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "Parse error"));
  g_assert_false (acp_connection_is_closed (f->conn));
}

static void
test_call_cancelled (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(JsonObject) cancel = NULL;
  CallData call = { 0 };
  CallData other = { 0 };
  JsonObject *params;

  acp_connection_call_async (f->conn, "session/prompt", NULL, cancellable, call_cb, &call);
  g_assert_cmpint (peer_expect_request (f, "session/prompt"), ==, 1);

  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (call.done);
  g_assert_error (call.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  cancel = peer_read_message (f);
  g_assert_cmpstr (json_object_get_string_member (cancel, "method"), ==, "$/cancel_request");
  g_assert_false (json_object_has_member (cancel, "id"));
  params = json_object_get_object_member (cancel, "params");
  g_assert_cmpint (json_object_get_int_member (params, "requestId"), ==, 1);

  /* the late response is dropped quietly and completes nothing */
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"stopReason\":\"cancelled\"}}\n");
  peer_round_trip (f, 1);
  g_assert_cmpuint (f->message_errors->len, ==, 0);
  call_data_clear (&call);

  /* a call with an already cancelled cancellable sends nothing */
  acp_connection_call_async (f->conn, "never", NULL, cancellable, call_cb, &call);
  WAIT_UNTIL (call.done);
  g_assert_error (call.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  call_data_clear (&call);

  /* the next call still works, with the next id */
  acp_connection_call_async (f->conn, "after", NULL, NULL, call_cb, &other);
  g_assert_cmpint (peer_expect_request (f, "after"), ==, 2);
  peer_write (f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":true}\n");
  WAIT_UNTIL (other.done);
  g_assert_no_error (other.error);
  call_data_clear (&other);
}

/* ------------------------------------------------------------------------ */
/* Closing                                                                   */

static void
test_eof_fails_pending (Fixture       *f,
                        gconstpointer  data)
{
  CallData calls[3] = { { 0 } };

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    acp_connection_call_async (f->conn, "session/load", NULL, NULL, call_cb, &calls[i]);
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    g_assert_cmpint (peer_expect_request (f, "session/load"), ==, i + 1);

  peer_shutdown_write (f);
  WAIT_UNTIL (calls[0].done && calls[1].done && calls[2].done);

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_assert_error (calls[i].error, ACP_ERROR, ACP_ERROR_CLOSED);
      g_assert_true (g_str_has_prefix (calls[i].error->message,
                                       "The connection to the agent was closed"));
      call_data_clear (&calls[i]);
    }

  test_drain_main_context ();
  g_assert_cmpuint (f->n_closed, ==, 1);
  g_assert_cmpuint (f->n_closed_notifies, ==, 1);
  g_assert_true (acp_connection_is_closed (f->conn));

  /* closing again changes nothing */
  acp_connection_close (f->conn, NULL);
  g_assert_cmpuint (f->n_closed, ==, 1);
  g_assert_cmpuint (f->n_closed_notifies, ==, 1);
}

static void
flush_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  CallData *flush = user_data;

  if (acp_connection_flush_finish (ACP_CONNECTION (source), result, &flush->error))
    flush->result = json_node_new (JSON_NODE_NULL);
  flush->done = TRUE;
}

static void
test_after_close (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) reason = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "Stopped by test");
  g_autoptr(GError) error = NULL;
  CallData pending = { 0 };
  CallData call = { 0 };
  CallData flush = { 0 };

  acp_connection_call_async (f->conn, "session/prompt", NULL, NULL, call_cb, &pending);
  g_assert_cmpint (peer_expect_request (f, "session/prompt"), ==, 1);

  acp_connection_close (f->conn, reason);
  g_assert_true (acp_connection_is_closed (f->conn));
  g_assert_cmpuint (f->n_closed, ==, 1);
  WAIT_UNTIL (pending.done);
  g_assert_error (pending.error, ACP_ERROR, ACP_ERROR_CLOSED);
  g_assert_nonnull (strstr (pending.error->message, "Stopped by test"));
  call_data_clear (&pending);

  acp_connection_call_async (f->conn, "session/new", NULL, NULL, call_cb, &call);
  WAIT_UNTIL (call.done);
  g_assert_error (call.error, ACP_ERROR, ACP_ERROR_CLOSED);
  call_data_clear (&call);

  g_assert_false (acp_connection_notify (f->conn, "session/cancel", NULL, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_CLOSED);

  acp_connection_flush_async (f->conn, NULL, flush_cb, &flush);
  WAIT_UNTIL (flush.done);
  g_assert_error (flush.error, ACP_ERROR, ACP_ERROR_CLOSED);
  call_data_clear (&flush);

  /* the stream gets closed, and nothing was written after the close */
  WAIT_UNTIL (f->peer_eof);
  g_assert_cmpuint (f->received->len, ==, 0);
  g_assert_cmpuint (f->n_closed, ==, 1);
}

static void
test_write_error_closes (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  CallData call = { 0 };

  /* the connection is not started, so it cannot see the end of stream first:
   * the peer goes away and the next write fails */
  g_cancellable_cancel (f->peer_cancellable);
  WAIT_UNTIL (!f->peer_reading);
  g_io_stream_close (G_IO_STREAM (f->peer), NULL, NULL);

  g_assert_true (acp_connection_notify (f->conn, "session/cancel", NULL, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (f->n_closed == 1);
  g_assert_true (acp_connection_is_closed (f->conn));
  g_assert_nonnull (f->closed_reason);
  g_assert_true (f->closed_reason->domain == G_IO_ERROR);

  acp_connection_call_async (f->conn, "session/new", NULL, NULL, call_cb, &call);
  WAIT_UNTIL (call.done);
  g_assert_error (call.error, ACP_ERROR, ACP_ERROR_CLOSED);
  call_data_clear (&call);
}

static void
test_flush_cancelled (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GString) big = g_string_new ("{\"text\":\"");
  g_autoptr(JsonNode) params = NULL;
  CallData flush = { 0 };

  /* more than the socket buffers hold: the write cannot finish while the
   * peer does not read */
  g_cancellable_cancel (f->peer_cancellable);
  WAIT_UNTIL (!f->peer_reading);
  for (guint i = 0; i < 4 * 1024 * 1024; i++)
    g_string_append_c (big, 'z');
  g_string_append (big, "\"}");
  params = json_from_string (big->str, NULL);
  g_assert_true (acp_connection_notify (f->conn, "big", params, NULL));

  acp_connection_flush_async (f->conn, cancellable, flush_cb, &flush);
  test_drain_main_context ();
  g_assert_false (flush.done);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (flush.done);
  g_assert_error (flush.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  call_data_clear (&flush);
  g_assert_false (acp_connection_is_closed (f->conn));
}

static void
test_write_order (Fixture       *f,
                  gconstpointer  data)
{
  CallData flush = { 0 };
  CallData calls[10] = { { 0 } };
  guint n_calls = 0;

  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) params = json_node_new (JSON_NODE_OBJECT);
      JsonObject *object = json_object_new ();

      json_object_set_int_member (object, "n", i);
      json_node_take_object (params, object);
      if (i % 10 == 5)
        acp_connection_call_async (f->conn, "ordered", params, NULL, call_cb, &calls[n_calls++]);
      else
        g_assert_true (acp_connection_notify (f->conn, "ordered", params, &error));
      g_assert_no_error (error);
    }

  acp_connection_flush_async (f->conn, NULL, flush_cb, &flush);
  WAIT_UNTIL (flush.done);
  g_assert_no_error (flush.error);
  call_data_clear (&flush);

  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(JsonObject) message = peer_read_message (f);

      g_assert_cmpstr (json_object_get_string_member (message, "method"), ==, "ordered");
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (message, "params"),
                                                   "n"), ==, i);
      g_assert_true (json_object_has_member (message, "id") == (i % 10 == 5));
      if (i % 10 == 5)
        g_assert_cmpint (json_object_get_int_member (message, "id"), ==, i / 10 + 1);
    }

  /* a flush with nothing queued completes */
  acp_connection_flush_async (f->conn, NULL, flush_cb, &flush);
  WAIT_UNTIL (flush.done);
  g_assert_no_error (flush.error);
  call_data_clear (&flush);

  acp_connection_close (f->conn, NULL);
  WAIT_UNTIL (calls[n_calls - 1].done);
  for (guint i = 0; i < n_calls; i++)
    {
      g_assert_error (calls[i].error, ACP_ERROR, ACP_ERROR_CLOSED);
      call_data_clear (&calls[i]);
    }
}

static void
test_dispose_while_reading (Fixture       *f,
                            gconstpointer  data)
{
  /* a read is in flight and a write is queued */
  g_assert_true (acp_connection_notify (f->conn, "bye", NULL, NULL));
  g_object_add_weak_pointer (G_OBJECT (f->conn), (gpointer *) &f->conn);
  g_object_unref (f->conn);
  g_assert_null (f->conn);

  /* the stream is closed once the cancelled operations are done */
  WAIT_UNTIL (f->peer_eof);
  g_assert_cmpuint (f->n_closed, ==, 0);
}

/* ------------------------------------------------------------------------ */
/* The worker thread: order, read-ahead, ending                              */

/* Writes a buffer from the peer's side in a thread of its own, blocking as a
 * real agent does when the pipe is full. */
typedef struct
{
  GThread    *thread;
  int         fd;
  const char *data;
  gsize       length;
  gboolean    repeat;    /* writes the data again and again, until it fails or stops */

  GMutex      lock;
  gsize       written;   /* guarded by lock */
  gboolean    failed;    /* guarded by lock */
  gboolean    stop;      /* guarded by lock */
} PeerWriter;

static gpointer
peer_writer_thread (gpointer data)
{
  PeerWriter *writer = data;
  gsize offset = 0;
  gsize written = 0;

  while (offset < writer->length)
    {
      struct pollfd pfd = { writer->fd, POLLOUT, 0 };
      gboolean stop;
      gssize n;

      g_mutex_lock (&writer->lock);
      stop = writer->stop;
      g_mutex_unlock (&writer->lock);
      if (stop)
        break;

      if (poll (&pfd, 1, 100) <= 0)
        continue;

      n = send (writer->fd, writer->data + offset, MIN (writer->length - offset, 64 * 1024),
                MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EINTR))
        continue;
      if (n <= 0)
        {
          g_mutex_lock (&writer->lock);
          writer->failed = TRUE;
          g_mutex_unlock (&writer->lock);
          break;
        }

      offset += (gsize) n;
      written += (gsize) n;
      g_mutex_lock (&writer->lock);
      writer->written = written;
      g_mutex_unlock (&writer->lock);
      if (writer->repeat && offset == writer->length)
        offset = 0;
    }

  return NULL;
}

/* Starts writing @data (set writer->repeat before, to write it forever). */
static void
peer_writer_start (PeerWriter *writer,
                   Fixture    *f,
                   const char *data,
                   gsize       length)
{
  g_mutex_init (&writer->lock);
  writer->fd = g_socket_get_fd (g_socket_connection_get_socket (f->peer));
  writer->data = data;
  writer->length = length;
  writer->thread = g_thread_new ("test-peer-writer", peer_writer_thread, writer);
}

static gsize
peer_writer_get_written (PeerWriter *writer)
{
  gsize written;

  g_mutex_lock (&writer->lock);
  written = writer->written;
  g_mutex_unlock (&writer->lock);

  return written;
}

static void
peer_writer_finish (PeerWriter *writer)
{
  g_mutex_lock (&writer->lock);
  writer->stop = TRUE;
  g_mutex_unlock (&writer->lock);
  g_thread_join (writer->thread);
  g_mutex_clear (&writer->lock);
}

typedef struct
{
  AcpConnection *conn;
  GArray        *log;            /* guint: the "i" of each message, in dispatch order */
  guint64        max_parsed;
} OrderLog;

static void
order_notification_cb (AcpConnection *conn,
                       const char    *method,
                       JsonNode      *params,
                       OrderLog      *log)
{
  guint i = (guint) json_object_get_int_member (json_node_get_object (params), "i");

  g_array_append_val (log->log, i);
  log->max_parsed = MAX (log->max_parsed, _acp_connection_get_n_parsed (conn));
}

static gboolean
order_request_cb (AcpConnection      *conn,
                  AcpIncomingRequest *request,
                  OrderLog           *log)
{
  JsonObject *params = acp_incoming_request_get_params_object (request);
  guint i = (guint) json_object_get_int_member (params, "i");
  g_autoptr(JsonNode) result = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  g_array_append_val (log->log, i);
  json_object_set_int_member (object, "i", i);
  json_node_take_object (result, object);
  acp_incoming_request_reply (request, result);

  return TRUE;
}

static void
order_message_error_cb (AcpConnection *conn,
                        const GError  *error,
                        OrderLog      *log)
{
  const char *id;
  guint i;

  /* a line that is not JSON, quoted */
  if (g_error_matches (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR))
    {
      const char *garbage = strstr (error->message, "“garbage ");

      g_assert_nonnull (garbage);
      i = (guint) g_ascii_strtoull (garbage + strlen ("“garbage "), NULL, 10);
      g_array_append_val (log->log, i);
      return;
    }

  id = strstr (error->message, "(id ");
  g_assert_nonnull (id);
  i = (guint) g_ascii_strtoull (id + strlen ("(id "), NULL, 10) - 1000000;
  g_array_append_val (log->log, i);
}

/* Many lines of every kind, arriving in chunks of random sizes, are handled
 * in exactly the order they came, the -32700 replies to garbage included. */
static void
test_order_random_chunks (Fixture       *f,
                          gconstpointer  data)
{
  const guint n_lines = 20000;
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(GArray) expected_log = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) expected_replies = g_array_new (FALSE, FALSE, sizeof (gint));  /* id, -1: -32700 */
  OrderLog log = { f->conn, g_array_new (FALSE, FALSE, sizeof (guint)), 0 };
  gsize offset = 0;

  g_signal_connect (f->conn, "notification::seq", G_CALLBACK (order_notification_cb), &log);
  g_signal_connect (f->conn, "request::seq/req", G_CALLBACK (order_request_cb), &log);
  g_signal_connect (f->conn, "message-error", G_CALLBACK (order_message_error_cb), &log);

  for (guint i = 0; i < n_lines; i++)
    {
      int kind = g_test_rand_int_range (0, 100);
      const char *end = i % 3 == 0 ? "\r\n" : "\n";
      gint reply;

      if (kind < 55)
        {
          g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"method\":\"seq\",\"params\":{\"i\":%u}}%s",
                                  i, end);
          g_array_append_val (expected_log, i);
        }
      else if (kind < 75)
        {
          g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"seq/req\","
                                  "\"params\":{\"i\":%u}}%s", i, i, end);
          g_array_append_val (expected_log, i);
          reply = (gint) i;
          g_array_append_val (expected_replies, reply);
        }
      else if (kind < 87)
        {
          g_string_append_printf (input, "garbage %u {%s", i, end);
          reply = -1;
          g_array_append_val (expected_replies, reply);
          g_array_append_val (expected_log, i);
        }
      else if (kind < 93)
        {
          /* answers no call: reported through "message-error" */
          g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":null}%s",
                                  1000000 + i, end);
          g_array_append_val (expected_log, i);
        }
      else
        {
          g_string_append (input, kind % 2 == 0 ? " \t " : "");
          g_string_append (input, end);
        }
    }

  while (offset < input->len)
    {
      gsize size = g_test_rand_bit () ? (gsize) g_test_rand_int_range (1, 17)
                                      : (gsize) g_test_rand_int_range (1, 40000);

      size = MIN (size, input->len - offset);
      peer_write_len (f, input->str + offset, size);
      offset += size;
    }

  WAIT_UNTIL (log.log->len == expected_log->len);
  for (guint i = 0; i < expected_log->len; i++)
    g_assert_cmpuint (g_array_index (log.log, guint, i), ==, g_array_index (expected_log, guint, i));

  for (guint i = 0; i < expected_replies->len; i++)
    {
      g_autoptr(JsonObject) reply = peer_read_message (f);
      gint id = g_array_index (expected_replies, gint, i);

      if (id >= 0)
        {
          g_assert_cmpint (json_object_get_int_member (reply, "id"), ==, id);
          g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "result"),
                                                       "i"), ==, id);
        }
      else
        {
          g_assert_true (json_object_get_null_member (reply, "id"));
          g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (reply, "error"),
                                                       "code"), ==, ACP_ERROR_PARSE_ERROR);
        }
    }

  /* nothing else was written */
  peer_round_trip (f, 1);
  g_assert_false (acp_connection_is_closed (f->conn));
  g_array_unref (log.log);
}

/* A peer writing far more than the application dispatches blocks on a full
 * pipe: the connection reads and parses little more than its bound ahead
 * (parsed lines take much more memory than their text). */
static void
test_read_ahead_bound (Fixture       *f,
                       gconstpointer  data)
{
  const gsize text_length = 8000;
  const gsize total = 50 * 1000 * 1000;
  /* the bound, the chunk that passed it, and a line gathered across reads */
  const guint64 bound = ACP_CONNECTION_PARSE_AHEAD_MAX + ACP_CONNECTION_READ_CHUNK_SIZE + 16 * 1024;
  g_autofree char *text = g_strnfill (text_length, 'q');
  g_autoptr(GString) input = g_string_new (NULL);
  OrderLog log = { f->conn, g_array_new (FALSE, FALSE, sizeof (guint)), 0 };
  PeerWriter writer = { 0 };
  guint n_lines = 0;
  guint64 n_read;
  gsize written;

  while (input->len < total)
    g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"method\":\"seq\",\"params\":{\"i\":%u,"
                            "\"text\":\"%s\"}}\n", n_lines++, text);

  /* keep nothing: the fixture would hold every message */
  g_signal_handlers_disconnect_by_func (f->conn, notification_cb, f);
  g_signal_connect (f->conn, "notification::seq", G_CALLBACK (order_notification_cb), &log);

  _acp_connection_set_dispatch_held (f->conn, TRUE);
  peer_writer_start (&writer, f, input->str, input->len);

  /* reading stops at the bound... */
  POLL_UNTIL (_acp_connection_is_throttled (f->conn) &&
            _acp_connection_get_n_parsed (f->conn) > ACP_CONNECTION_PARSE_AHEAD_MAX);
  n_read = _acp_connection_get_n_read (f->conn);
  g_test_message ("throttled with %" G_GUINT64_FORMAT " bytes read", n_read);
  g_assert_cmpuint (_acp_connection_get_n_parsed (f->conn), <=, bound);
  g_assert_cmpuint (n_read, <=, bound);

  /* ...and stays stopped: the worker reads on only once dispatching made
   * room, so with dispatching held, everything pending handled leaves it
   * waiting (checked on what is pending, not over some time); the peer
   * blocks, having written little more than what was read (the rest sits
   * in the socket's buffers) */
  test_drain_main_context ();
  g_assert_true (_acp_connection_is_throttled (f->conn));
  g_assert_cmpuint (_acp_connection_get_n_read (f->conn), ==, n_read);
  written = peer_writer_get_written (&writer);
  g_test_message ("the peer wrote %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes", written, input->len);
  g_assert_cmpuint (written, <, input->len);
  g_assert_cmpuint (written, <=, bound + 4 * 1024 * 1024);
  g_assert_cmpuint (log.log->len, ==, 0);

  /* once dispatching goes on, everything arrives, in order, and the bound
   * holds all along */
  _acp_connection_set_dispatch_held (f->conn, FALSE);
  WAIT_UNTIL (log.log->len == n_lines);
  for (guint i = 0; i < n_lines; i++)
    g_assert_cmpuint (g_array_index (log.log, guint, i), ==, i);
  g_test_message ("at most %" G_GUINT64_FORMAT " bytes parsed ahead while dispatching",
                  log.max_parsed);
  g_assert_cmpuint (log.max_parsed, <=, bound);
  g_assert_cmpuint (_acp_connection_get_n_read (f->conn), ==, input->len);

  peer_writer_finish (&writer);
  g_assert_cmpuint (writer.written, ==, input->len);
  g_assert_false (writer.failed);
  g_assert_cmpuint (f->message_errors->len, ==, 0);
  g_array_unref (log.log);
}

typedef struct
{
  Fixture *f;
  gboolean disposed;
  guint    n_notifications;
  guint    n_message_errors;
} DisposeData;

static gboolean
dispose_while_parsing_cb (gpointer user_data)
{
  DisposeData *dispose = user_data;
  Fixture *f = dispose->f;

  if (f->notifications->len == 0 || !_acp_connection_is_parsing (f->conn))
    return G_SOURCE_CONTINUE;

  dispose->n_notifications = f->notifications->len;
  dispose->n_message_errors = f->message_errors->len;
  g_object_add_weak_pointer (G_OBJECT (f->conn), (gpointer *) &f->conn);
  g_object_unref (f->conn);
  g_assert_null (f->conn);
  dispose->disposed = TRUE;

  return G_SOURCE_REMOVE;
}

/* Dropping the connection while its worker parses, in the middle of a flood,
 * is safe: the worker ends on its own and nothing is emitted any more. The
 * flood has no end: the worker parses long lines again and again until the
 * main loop, however late it runs, finds it at it. */
static void
test_dispose_mid_flood (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *big = g_strnfill (2 * 1024 * 1024, 'b');
  g_autoptr(GString) input = g_string_new (NULL);
  DisposeData dispose = { f, FALSE, 0, 0 };
  PeerWriter writer = { 0 };

  for (guint round = 0; round < 10; round++)
    {
      for (guint i = 0; i < 500; i++)
        g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"method\":\"small\",\"params\":{\"i\":%u}}\n", i);
      g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"method\":\"big\",\"params\":{\"t\":\"%s\"}}\n", big);
      g_string_append (input, "not json\n");
    }

  g_idle_add (dispose_while_parsing_cb, &dispose);
  writer.repeat = TRUE;
  peer_writer_start (&writer, f, input->str, input->len);
  WAIT_UNTIL (dispose.disposed);

  wait_for_workers_to_end ();
  /* the stream is closed: the peer sees the end, its writes fail */
  WAIT_UNTIL (f->peer_eof);
  /* the worker is gone: nothing is emitted from what it left pending */
  test_drain_main_context ();
  g_assert_cmpuint (f->notifications->len, ==, dispose.n_notifications);
  g_assert_cmpuint (f->message_errors->len, ==, dispose.n_message_errors);
  g_assert_cmpuint (f->n_closed, ==, 0);
  g_assert_cmpuint (f->n_closed_notifies, ==, 0);

  peer_writer_finish (&writer);
}

/* Dropping the connection while its worker waits for the application to
 * dispatch what it parsed ahead: the worker is woken and ends. */
static void
test_dispose_while_worker_waits (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(GString) input = g_string_new (NULL);
  PeerWriter writer = { 0 };

  while (input->len < 2 * 1024 * 1024)
    g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"method\":\"seq\",\"params\":{\"i\":%u}}\n",
                            (guint) input->len);

  _acp_connection_set_dispatch_held (f->conn, TRUE);
  peer_writer_start (&writer, f, input->str, input->len);
  POLL_UNTIL (_acp_connection_is_throttled (f->conn) &&
            _acp_connection_get_n_parsed (f->conn) > ACP_CONNECTION_PARSE_AHEAD_MAX);
  g_assert_cmpuint (_acp_connection_get_n_workers (), ==, 1);

  g_object_add_weak_pointer (G_OBJECT (f->conn), (gpointer *) &f->conn);
  g_object_unref (f->conn);
  g_assert_null (f->conn);

  wait_for_workers_to_end ();
  WAIT_UNTIL (f->peer_eof);
  g_assert_cmpuint (f->notifications->len, ==, 0);
  g_assert_cmpuint (f->n_closed, ==, 0);

  peer_writer_finish (&writer);
}

typedef struct
{
  Fixture *f;
  guint    n_calls_done;
  guint    n_notifications_then;
  GError  *error;
} EofCall;

static void
eof_call_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  EofCall *call = user_data;
  g_autoptr(JsonNode) node = NULL;

  node = acp_connection_call_finish (ACP_CONNECTION (source), result, &call->error);
  g_assert_null (node);
  call->n_calls_done++;
  call->n_notifications_then = call->f->notifications->len;
}

/* lines that the worker parses without waiting for room */
#define N_QUEUED 5000

static void
closed_count_cb (AcpConnection *conn,
                 const GError  *reason,
                 Fixture       *f)
{
  /* every line before the end was dispatched first */
  g_assert_cmpuint (f->notifications->len, ==, N_QUEUED + 1);
}

/* The end of the stream right after many lines still waiting to be
 * dispatched: all of them are dispatched before the connection closes and
 * the pending call fails, once. */
static void
test_eof_after_queued_lines (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GString) input = g_string_new (NULL);
  EofCall call = { f, 0, 0, NULL };

  acp_connection_call_async (f->conn, "session/load", NULL, NULL, eof_call_cb, &call);
  g_assert_cmpint (peer_expect_request (f, "session/load"), ==, 1);
  g_signal_connect (f->conn, "closed", G_CALLBACK (closed_count_cb), f);

  for (guint i = 0; i < N_QUEUED; i++)
    g_string_append_printf (input, "{\"jsonrpc\":\"2.0\",\"method\":\"seq\",\"params\":{\"i\":%u}}\n", i);
  /* the last line has no newline */
  g_string_append (input, "{\"jsonrpc\":\"2.0\",\"method\":\"last\"}");

  _acp_connection_set_dispatch_held (f->conn, TRUE);
  peer_write_len (f, input->str, input->len);
  peer_shutdown_write (f);

  /* the end is read, and the lines wait, parsed; nothing is dispatched yet */
  g_assert_cmpuint (input->len, <, ACP_CONNECTION_PARSE_AHEAD_MAX);
  WAIT_UNTIL (_acp_connection_has_read_to_end (f->conn));
  /* (a line's size leaves out its newline) */
  g_assert_cmpuint (_acp_connection_get_n_parsed (f->conn), ==, input->len - N_QUEUED);
  /* the worker ends there; what it handed over waits */
  wait_for_workers_to_end ();
  g_assert_cmpuint (f->notifications->len, ==, 0);
  g_assert_cmpuint (f->n_closed, ==, 0);
  g_assert_false (acp_connection_is_closed (f->conn));
  g_assert_cmpuint (call.n_calls_done, ==, 0);

  _acp_connection_set_dispatch_held (f->conn, FALSE);
  WAIT_UNTIL (f->n_closed == 1 && call.n_calls_done == 1);
  test_drain_main_context ();

  g_assert_cmpuint (f->notifications->len, ==, N_QUEUED + 1);
  for (guint i = 0; i < N_QUEUED; i++)
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (notification_at (f, i),
                                                                                "params"), "i"),
                     ==, i);
  g_assert_cmpstr (json_object_get_string_member (notification_at (f, N_QUEUED), "method"), ==, "last");

  g_assert_cmpuint (call.n_calls_done, ==, 1);
  g_assert_cmpuint (call.n_notifications_then, ==, N_QUEUED + 1);
  g_assert_error (call.error, ACP_ERROR, ACP_ERROR_CLOSED);
  g_assert_cmpuint (f->n_closed, ==, 1);
  g_assert_cmpuint (f->n_closed_notifies, ==, 1);
  g_assert_null (f->closed_reason);
  g_clear_error (&call.error);
}

static void
test_properties (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(AcpPacer) pacer = NULL;
  guint64 max_line_length = 0;
  gboolean closed = TRUE;

  g_object_get (f->conn,
                "stream", &stream,
                "max-line-length", &max_line_length,
                "pacer", &pacer,
                "closed", &closed,
                NULL);
  g_assert_true (stream == G_IO_STREAM (f->local));
  g_assert_true (pacer == f->pacer);
  g_assert_true (acp_connection_get_stream (f->conn) == G_IO_STREAM (f->local));
  g_assert_cmpuint (max_line_length, ==, ACP_CONNECTION_DEFAULT_MAX_LINE_LENGTH);
  g_assert_false (closed);

  g_object_set (f->conn, "max-line-length", (guint64) 4096, NULL);
  g_assert_cmpuint (acp_connection_get_max_line_length (f->conn), ==, 4096);
  g_object_set (f->conn, "pacer", NULL, NULL);
  g_assert_null (acp_connection_get_pacer (f->conn));

  acp_connection_close (f->conn, NULL);
  g_object_get (f->conn, "closed", &closed, NULL);
  g_assert_true (closed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
#define ADD_UNSTARTED(path, func) \
  g_test_add (path, Fixture, GINT_TO_POINTER (1), fixture_setup, func, fixture_teardown)

  ADD ("/acp/connection/framing/split-into-bytes", test_split_into_bytes);
  ADD ("/acp/connection/framing/many-in-one-write", test_many_in_one_write);
  ADD ("/acp/connection/framing/huge-line", test_huge_line);
  ADD ("/acp/connection/framing/flood-shares-loop", test_flood_shares_loop);
  ADD ("/acp/connection/framing/flood-paced-by-frames", test_flood_paced_by_frames);
  ADD ("/acp/connection/framing/held-until-frame", test_held_until_frame);
  ADD ("/acp/connection/framing/pacers-independent", test_pacers_independent);
  ADD_UNSTARTED ("/acp/connection/framing/no-pacer", test_no_pacer);
  ADD_UNSTARTED ("/acp/connection/framing/join", test_join);
  ADD_UNSTARTED ("/acp/connection/framing/prepare-envelopes", test_prepare_envelopes);
  ADD ("/acp/connection/framing/order-random-chunks", test_order_random_chunks);
  ADD ("/acp/connection/framing/read-ahead-bound", test_read_ahead_bound);
  ADD_UNSTARTED ("/acp/connection/framing/line-too-long", test_line_too_long);
  ADD ("/acp/connection/framing/crlf-and-empty-lines", test_crlf_and_empty_lines);
  ADD ("/acp/connection/framing/last-line-without-newline", test_last_line_without_newline);
  ADD ("/acp/connection/incoming/ids-echoed", test_request_ids_echoed);
  ADD ("/acp/connection/incoming/handlers-chain", test_request_handlers_chain);
  ADD ("/acp/connection/incoming/unknown-request", test_unknown_request);
  ADD ("/acp/connection/incoming/notifications", test_notifications);
  ADD ("/acp/connection/incoming/parse-error", test_parse_error);
  ADD ("/acp/connection/incoming/invalid-requests", test_invalid_requests);
  ADD ("/acp/connection/incoming/deferred-reply", test_deferred_reply);
  ADD ("/acp/connection/incoming/dropped-request", test_dropped_request);
  ADD ("/acp/connection/incoming/cancelled", test_incoming_cancelled);
  ADD ("/acp/connection/call/results", test_call_results);
  ADD ("/acp/connection/call/errors", test_call_errors);
  ADD ("/acp/connection/call/invalid-responses", test_call_invalid_responses);
  ADD ("/acp/connection/call/cancelled", test_call_cancelled);
  ADD ("/acp/connection/close/eof-fails-pending", test_eof_fails_pending);
  ADD ("/acp/connection/close/after-close", test_after_close);
  ADD ("/acp/connection/close/dispose-while-reading", test_dispose_while_reading);
  ADD ("/acp/connection/close/dispose-mid-flood", test_dispose_mid_flood);
  ADD ("/acp/connection/close/dispose-while-worker-waits", test_dispose_while_worker_waits);
  ADD ("/acp/connection/close/eof-after-queued-lines", test_eof_after_queued_lines);
  ADD_UNSTARTED ("/acp/connection/close/write-error", test_write_error_closes);
  ADD ("/acp/connection/write-order", test_write_order);
  ADD ("/acp/connection/flush-cancelled", test_flush_cancelled);
  ADD ("/acp/connection/properties", test_properties);

#undef ADD
#undef ADD_UNSTARTED

  return g_test_run ();
}
