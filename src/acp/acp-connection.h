/* acp-connection.h: a JSON-RPC 2.0 peer over a GIOStream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-error.h"
#include "acp-json-reader.h"
#include "acp-pacer.h"
#include "acp-traffic-log.h"

G_BEGIN_DECLS

/*
 * AcpConnection: a JSON-RPC 2.0 peer over a GIOStream (both directions:
 * requests, notifications and responses are sent and received).
 *
 * Threading: everything happens on the thread-default main context of the
 * thread that created the connection; call every function from there.
 * acp_connection_new() does not read: connect to the signals, then call
 * acp_connection_start().
 *
 * Framing: one message per line, '\n'-terminated ("\r\n" is tolerated, empty
 * lines are skipped, a last line without newline at the end of the stream
 * still counts). Lines of any length are accepted up to "max-line-length"
 * (default ACP_CONNECTION_DEFAULT_MAX_LINE_LENGTH, counted without the
 * newline); a longer line is skipped without being buffered and reported with
 * "message-error" (ACP_ERROR_LINE_TOO_LONG), and reading goes on. Every line
 * is split and parsed in a worker thread so the main loop keeps running;
 * messages are still dispatched strictly in the order they arrived.
 *
 * Bad input never closes the connection: a line that is not JSON is answered
 * with -32700 (id null) and reported with "message-error"
 * (ACP_ERROR_PARSE_ERROR, the start of the line quoted); a JSON value that is
 * not an object, a batch (array), or an object that is neither a request, a
 * notification nor a response is answered with -32600 (with its id when
 * valid, else null). A malformed message that cannot be answered (a response
 * to no pending call) is reported with "message-error".
 *
 * Signals:
 *   "request" (AcpIncomingRequest *request) → gboolean, detailed by method
 *     ("request::fs/read_text_file"). A handler that takes the request returns
 *     TRUE and keeps a reference until it replies (possibly much later). When
 *     no handler returns TRUE (and none replied), -32601 "Method not found"
 *     with data {"method": name} is sent. Dropping the last reference of an
 *     unanswered request sends -32603. Replies echo the id exactly as received.
 *   "notification" (const char *method, JsonNode *params nullable), detailed by
 *     method ("notification::session/update"; '/' is fine in a detail).
 *     Unknown notifications are ignored: nothing is sent.
 *   "message-error" (const GError *error): a malformed message that could not
 *     be answered, or a line that is not JSON.
 *   "closed" (const GError *reason nullable): emitted exactly once, on end of
 *     stream (reason NULL), a read or write error, or acp_connection_close().
 * Properties: "stream" (construct-only), "max-line-length", "pacer",
 * "closed" (read-only).
 *
 * Pacing: incoming messages are dispatched in time slices, so that a flood
 * leaves the main loop its other work. A connection given an AcpPacer
 * ("pacer") also keeps in step with the frames reported to it: a slice
 * after each frame, then a wait for the next, for as long as frames come.
 * Without a pacer (the default) it dispatches in time slices only.
 *
 * Closing: every pending call fails with ACP_ERROR_CLOSED ("The connection to
 * the agent was closed", plus the reason's message), pending incoming
 * requests' cancellables are cancelled and their later replies dropped,
 * queued messages not yet written are dropped, and the stream is closed
 * asynchronously. Afterwards calls, notifications and flushes fail at once
 * with ACP_ERROR_CLOSED and write nothing.
 */

/* The default cap on the length of one incoming line (a message). */
#define ACP_CONNECTION_DEFAULT_MAX_LINE_LENGTH ((gsize) 64 * 1024 * 1024)

#define ACP_TYPE_INCOMING_REQUEST (acp_incoming_request_get_type ())

G_DECLARE_FINAL_TYPE (AcpIncomingRequest, acp_incoming_request, ACP, INCOMING_REQUEST, GObject)

/* A request of the peer. get_id: the id as received (integer, string or null
 * node). get_params: the params (object or array) or NULL. get_cancellable:
 * cancelled when the connection closes or the peer sends $/cancel_request for
 * this id. reply: @result is transfer none, NULL sends null. reply_error: a
 * remote or JSON-RPC-range ACP_ERROR keeps code and data, G_IO_ERROR_CANCELLED
 * becomes -32800, anything else -32603. Replying twice is a programmer error;
 * replying after the connection closed is silently dropped. */

const char *acp_incoming_request_get_method      (AcpIncomingRequest *self);
JsonNode   *acp_incoming_request_get_id          (AcpIncomingRequest *self);
JsonNode   *acp_incoming_request_get_params      (AcpIncomingRequest *self);
JsonObject *acp_incoming_request_get_params_object (AcpIncomingRequest *self);
gboolean    acp_incoming_request_get_answered    (AcpIncomingRequest *self);
GCancellable *acp_incoming_request_get_cancellable (AcpIncomingRequest *self);
void        acp_incoming_request_reply           (AcpIncomingRequest *self,
                                                  JsonNode           *result);
void        acp_incoming_request_reply_error     (AcpIncomingRequest *self,
                                                  const GError       *error);
void        acp_incoming_request_reply_error_literal (AcpIncomingRequest *self,
                                                  int                 code,
                                                  const char         *message);

#define ACP_TYPE_CONNECTION (acp_connection_get_type ())

G_DECLARE_FINAL_TYPE (AcpConnection, acp_connection, ACP, CONNECTION, GObject)

/* call_async: @params is transfer none (NULL: no params); ids are integers
 * from 1. call_finish returns the result (transfer full; a null node for
 * null); a JSON-RPC error is a remote ACP_ERROR (acp_error_is_remote(),
 * acp_error_get_data()); a wrong response shape is ACP_ERROR_INVALID_MESSAGE.
 * Cancelling fails the call with G_IO_ERROR_CANCELLED at once, sends
 * $/cancel_request {"requestId": id} and ignores a late response.
 * notify: queues a notification; FALSE with ACP_ERROR_CLOSED once closed.
 * flush_async: completes when every message queued so far is written.
 * Messages are written in the order they were queued; a write error closes
 * the connection. */
/* Preparing. An agent replaying a long session or streaming an answer sends
 * notifications by the hundred thousand; taking each one's JSON apart costs
 * the main thread more than what it then does with it, and a json-glib
 * tree is many allocations, freed more slowly on another thread than the
 * one that made them. A preparer, set before acp_connection_start(), has
 * that done in the connection's reading thread: prepare() is given every
 * well-formed notification read (its method and its params, or NULL, in
 * the document it was read into: it must keep nothing of them) and may
 * return a value of its own that stands for it. No json-glib tree is made
 * of the notification then and, instead of ::notification, dispatch() is
 * given the value on the connection's context, in order with every other
 * message; free() frees it after. join() (optional) may take a prepared
 * value into the one prepared just before it from the same read (pieces of
 * one text, say) and return TRUE; that one then stands for both, and the
 * other is freed. prepare() and join() run in another thread: they must
 * only look at what they are given. */
typedef struct
{
  gpointer (*prepare)  (const char          *method,
                        const AcpJsonDoc    *doc,
                        const AcpJsonValue  *params);
  gboolean (*join)     (gpointer       into,
                        gpointer       next);
  void     (*dispatch) (AcpConnection *connection,
                        gpointer       prepared,
                        gpointer       user_data);
  GDestroyNotify free;
} AcpConnectionPreparer;

AcpConnection *acp_connection_new                 (GIOStream          *stream);
GIOStream     *acp_connection_get_stream          (AcpConnection      *self);
gsize          acp_connection_get_max_line_length (AcpConnection      *self);
void           acp_connection_set_max_line_length (AcpConnection      *self,
                                                   gsize               max_line_length);
void           acp_connection_set_preparer        (AcpConnection               *self,
                                                   const AcpConnectionPreparer *preparer,
                                                   gpointer                     user_data);
void           acp_connection_set_traffic_log     (AcpConnection      *self,
                                                   AcpTrafficLog      *log);
AcpPacer      *acp_connection_get_pacer           (AcpConnection      *self);
void           acp_connection_set_pacer           (AcpConnection      *self,
                                                   AcpPacer           *pacer);
void           acp_connection_start               (AcpConnection      *self);
gboolean       acp_connection_is_closed           (AcpConnection      *self);
void           acp_connection_close               (AcpConnection      *self,
                                                   const GError       *reason);

void           acp_connection_call_async          (AcpConnection      *self,
                                                   const char         *method,
                                                   JsonNode           *params,
                                                   GCancellable       *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer            user_data);
JsonNode      *acp_connection_call_finish         (AcpConnection      *self,
                                                   GAsyncResult       *result,
                                                   GError            **error);
gboolean       acp_connection_notify              (AcpConnection      *self,
                                                   const char         *method,
                                                   JsonNode           *params,
                                                   GError            **error);
void           acp_connection_flush_async         (AcpConnection      *self,
                                                   GCancellable       *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer            user_data);
gboolean       acp_connection_flush_finish        (AcpConnection      *self,
                                                   GAsyncResult       *result,
                                                   GError            **error);

G_END_DECLS
