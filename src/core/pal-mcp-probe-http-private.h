/* pal-mcp-probe-http-private.h: what the HTTP transports share
 *
 * One transport object speaks either Streamable HTTP
 * (pal-mcp-probe-http.c) or the older HTTP+SSE transport
 * (pal-mcp-probe-sse.c). Both send messages as POSTs and read answers as
 * exchanges (pal-mcp-probe-http-exchange.c), and match JSON-RPC answers to
 * their requests by id (pal-mcp-probe-http-rpc.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-mcp-probe-private.h"
#include "pal-sse-parser.h"

G_BEGIN_DECLS

#define PAL_TYPE_MCP_HTTP_TRANSPORT (pal_mcp_http_transport_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpHttpTransport, pal_mcp_http_transport,
                      PAL, MCP_HTTP_TRANSPORT, GObject)

struct _PalMcpHttpTransport
{
  GObject        parent_instance;

  SoupSession   *session;
  GUri          *uri;               /* the configured address */
  char         **header_names;
  char         **header_values;
  gboolean       legacy;
  char          *session_id;        /* streamable: given with the initialize answer */
  char          *protocol_version;
  GUri          *endpoint;          /* legacy: where to POST */
  gboolean       listening;         /* legacy: the event stream was asked for */
  GPtrArray     *waiting;           /* legacy: exchanges waiting for the endpoint */
  GCancellable  *cancellable;       /* the event stream, our answers; cancelled by close */
  gint64         next_id;
  GHashTable    *calls;             /* gint64 id → GTask of a call not answered yet */
  gboolean       failed;
  gboolean       closed;
};

typedef enum
{
  KIND_CALL,
  KIND_NOTIFICATION,
  KIND_RESPONSE,      /* our answer to a request of the server */
  KIND_EVENT_SOURCE,  /* legacy: the GET */
} Kind;

typedef enum
{
  READ_JSON,         /* the JSON answer to a request */
  READ_EVENTS,       /* an event stream carrying the answer to a request */
  READ_EVENT_SOURCE, /* legacy: the GET stream */
  READ_ERROR_BODY,   /* the body of an error status, to explain it */
} ReadMode;

/* One HTTP request in flight and the reading of its answer. */
typedef struct
{
  PalMcpHttpTransport *self;
  Kind                 kind;
  gint64               id;          /* KIND_CALL */
  char                *method;      /* KIND_CALL, KIND_NOTIFICATION */
  GTask               *task;        /* KIND_NOTIFICATION: done once the server took it */
  GBytes              *text;        /* what to POST */
  GCancellable        *cancellable;
  SoupMessage         *message;
  GInputStream        *stream;
  ReadMode             mode;
  PalSseParser        *parser;
  GByteArray          *body;
} Exchange;

/* pal-mcp-probe-http-exchange.c */
gboolean             _pal_mcp_http_is_over              (PalMcpHttpTransport         *self);
GError              *_pal_mcp_http_new_closed_error     (void);
void                 _pal_mcp_http_close_stream         (GInputStream                *stream);
Exchange            *_pal_mcp_http_exchange_new         (PalMcpHttpTransport         *self,
                                                         Kind                         kind,
                                                         const char                  *method,
                                                         GBytes                      *text,
                                                         GCancellable                *cancellable);
void                 _pal_mcp_http_exchange_free        (Exchange                    *exchange);
gboolean             _pal_mcp_http_same_origin          (GUri                        *a,
                                                         GUri                        *b);
const char          *_pal_mcp_http_get_content_type     (SoupMessage                 *message);
/* @error: (transfer full) */
void                 _pal_mcp_http_transport_fail       (PalMcpHttpTransport         *self,
                                                         GError                      *error);
/* @error: (transfer full) */
void                 _pal_mcp_http_exchange_fail        (Exchange                    *exchange,
                                                         GError                      *error);
void                 _pal_mcp_http_exchange_fail_printf (Exchange                    *exchange,
                                                         int                          code,
                                                         const char                  *format,
                                                         ...) G_GNUC_PRINTF (3, 4);
/* A failure of the transfer in words; cancellation as it is. */
void                 _pal_mcp_http_exchange_fail_transfer (Exchange                  *exchange,
                                                           GError                    *error);
void                 _pal_mcp_http_exchange_read        (Exchange                    *exchange);
void                 _pal_mcp_http_read_error_body      (Exchange                    *exchange);
gboolean             _pal_mcp_http_is_content_type      (SoupMessage                 *message,
                                                         const char                  *wanted);
SoupMessage         *_pal_mcp_http_new_message          (PalMcpHttpTransport         *self,
                                                         const char                  *method,
                                                         GUri                        *uri);

/* pal-mcp-probe-http-rpc.c */
void                 _pal_mcp_http_complete_call        (PalMcpHttpTransport         *self,
                                                         gint64                       id,
                                                         JsonNode                    *result,
                                                         GError                      *error);
JsonObject          *_pal_mcp_http_new_rpc_message      (void);
/* @message: (transfer full) */
GBytes              *_pal_mcp_http_serialize            (JsonObject                  *message);
/* Parses one JSON text that should hold a JSON-RPC message or a batch of
 * them and acts on it. Nothing is acted on unless all of it is valid. */
gboolean             _pal_mcp_http_receive              (PalMcpHttpTransport         *self,
                                                         const char                  *text,
                                                         gsize                        length,
                                                         GError                     **error);

/* pal-mcp-probe-http.c */
void                 _pal_mcp_http_send_exchange        (Exchange                    *exchange);
/* Sends @exchange (taken), or keeps it until the server named where to. */
void                 _pal_mcp_http_post                 (PalMcpHttpTransport         *self,
                                                         Exchange                    *exchange);
void                 _pal_mcp_http_probe                (gpointer                     source_tag,
                                                         gboolean                     legacy,
                                                         SoupSession                 *session,
                                                         const char                  *url,
                                                         const char * const          *header_names,
                                                         const char * const          *header_values,
                                                         guint                        timeout_ms,
                                                         GCancellable                *cancellable,
                                                         GAsyncReadyCallback          callback,
                                                         gpointer                     user_data);

/* pal-mcp-probe-sse.c */
/* legacy: the GET of the event stream, which names where to post */
void                 _pal_mcp_sse_listen                (PalMcpHttpTransport         *self);
/* legacy: takes the address an "endpoint" event names and sends what
 * waited for it; returns FALSE when the exchange is over (and freed). */
gboolean             _pal_mcp_sse_take_endpoint         (Exchange                    *exchange,
                                                         PalSseEvent                 *event);

G_END_DECLS
