/* acp-connection-internal.h: what the files of AcpConnection share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only for the connection's own files; tests use acp-connection-private.h.
 *
 *   acp-connection.c           the peer: the type, its properties and
 *                              signals, calls and notifications, closing
 *   acp-connection-dispatch.c  what each message read does: signals,
 *                              pending calls, error answers
 *   acp-connection-pump.c      reading on the main thread: taking what the
 *                              worker parsed and dispatching it, in slices
 *                              or in step with frames
 *   acp-connection-write.c     the write queue and the flushes
 *   acp-line-reader.c          the worker thread that reads, splits, parses
 *                              and prepares lines
 *   acp-incoming-request.c     AcpIncomingRequest, a request of the peer
 */

#pragma once

#include "acp-connection.h"
#include "acp-line-reader.h"

G_BEGIN_DECLS

/* IoLink: what the in-flight I/O callbacks share with the connection (see
 * acp-connection.c). */
typedef struct
{
  grefcount      ref_count;
  AcpConnection *connection;      /* not owned; NULL once disposed */
  GIOStream     *stream;          /* owned */
  guint          n_in_flight;     /* writes not yet called back, and the worker's reading */
  guint          close_requested : 1;
  guint          close_started : 1;
} IoLink;

typedef struct
{
  gint64   id;              /* the key in AcpConnection.pending */
  char    *method;
  GTask   *task;
  GSource *cancel_source;   /* nullable */
} PendingCall;

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

  const AcpConnectionPreparer *preparer;  /* nullable */
  gpointer      preparer_data;
  AcpTrafficLog *log;            /* every message read and written, or NULL */

  /* sharing the main loop during a flood (see pump ()) */
  AcpPacer     *pacer;           /* the frames to keep in step with, or NULL */
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

/* acp-connection.c */

IoLink             *_acp_io_link_ref                   (IoLink             *link);
void                _acp_io_link_unref                 (IoLink             *link);
void                _acp_io_link_maybe_close           (IoLink             *link);

void                _acp_pending_call_free             (PendingCall        *call);

/* An error object; @data (transfer full) (nullable). Returns: (transfer full) */
JsonNode           *_acp_connection_new_error_node     (int                 code,
                                                        const char         *text,
                                                        JsonNode           *data);
void                _acp_connection_send_error         (AcpConnection      *self,
                                                        JsonNode           *id,
                                                        JsonNode           *error_node);
void                _acp_connection_reply              (AcpConnection      *self,
                                                        AcpIncomingRequest *request,
                                                        const char         *member,
                                                        JsonNode           *value);

gboolean            _acp_connection_emit_request       (AcpConnection      *self,
                                                        AcpIncomingRequest *request);
void                _acp_connection_emit_notification  (AcpConnection      *self,
                                                        const char         *method,
                                                        JsonNode           *params);
void                _acp_connection_emit_message_error (AcpConnection      *self,
                                                        const GError       *error);

GSource            *_acp_connection_attach_cancel_source (AcpConnection          *self,
                                                          GCancellable           *cancellable,
                                                          GCancellableSourceFunc  func,
                                                          gpointer                data);
GError             *_acp_connection_new_closed_error   (const GError       *reason);
void                _acp_connection_close              (AcpConnection      *self,
                                                        const GError       *reason,
                                                        gboolean            emit);

/* acp-connection-dispatch.c */

void                _acp_connection_dispatch           (AcpConnection      *self,
                                                        AcpParsed          *parsed);

/* acp-connection-pump.c */

/* Starts the worker thread and dispatching what it hands over. */
gboolean            _acp_connection_start_reading      (AcpConnection      *self,
                                                        GError            **error);
/* Stops the worker and the pump; what was parsed and not dispatched is
 * dropped. */
void                _acp_connection_stop_reading       (AcpConnection      *self);
/* Keeps in step with @pacer (nullable) from now on. */
void                _acp_connection_replace_pacer      (AcpConnection      *self,
                                                        AcpPacer           *pacer);

/* acp-connection-write.c */

void                _acp_connection_queue_object       (AcpConnection      *self,
                                                        JsonObject         *message);
void                _acp_connection_fail_flushes       (AcpConnection      *self,
                                                        const GError       *error);

/* acp-incoming-request.c */

AcpIncomingRequest *_acp_incoming_request_new          (AcpConnection      *connection,
                                                        const char         *method,
                                                        JsonNode           *id,
                                                        JsonNode           *params);
void                _acp_incoming_request_send         (AcpIncomingRequest *self,
                                                        const char         *member,
                                                        JsonNode           *value);
void                _acp_incoming_request_detach       (AcpIncomingRequest *self);

G_END_DECLS
