/* pal-mcp-probe-private.h: what the probe's transports share
 *
 * The protocol (pal-mcp-probe.c) drives one exchange: initialize, the
 * notifications/initialized notification, tools/list pages. A transport
 * (pal-mcp-probe-stdio.c, pal-mcp-probe-http.c) moves messages: it calls
 * _pal_mcp_probe_receive() for every message that arrives and
 * _pal_mcp_probe_fail() when something breaks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "pal-mcp-probe.h"

G_BEGIN_DECLS

typedef struct _PalMcpProbe PalMcpProbe;

typedef enum
{
  PAL_MCP_MESSAGE_REQUEST,       /* ours, with an id: an answer will come */
  PAL_MCP_MESSAGE_NOTIFICATION,  /* ours, no answer */
  PAL_MCP_MESSAGE_RESPONSE,      /* our answer to a request from the server */
} PalMcpMessageKind;

typedef enum
{
  PAL_MCP_RECEIVE_OK,            /* a JSON-RPC message (or batch), handled */
  PAL_MCP_RECEIVE_NOT_JSON,
  PAL_MCP_RECEIVE_NOT_JSON_RPC,
} PalMcpReceiveStatus;

typedef struct
{
  /* Sends @message (a whole serialized JSON-RPC message). @id is the request
   * id for PAL_MCP_MESSAGE_REQUEST, -1 otherwise. A transport calls
   * _pal_mcp_probe_notification_sent() once a notification is accepted. */
  void   (*send)         (PalMcpProbe       *probe,
                          const char        *message,
                          PalMcpMessageKind  kind,
                          gint64             id);
  /* Stops everything (kills the process, closes streams, ends the HTTP
   * session). Called once, when the probe completes. Nullable. */
  void   (*close)        (PalMcpProbe       *probe);
  /* Adds what the transport knows to an error message (a process's error
   * output). Nullable. */
  char  *(*explain)      (PalMcpProbe       *probe,
                          const char        *message);
  void   (*free)         (gpointer           transport);
} PalMcpTransportClass;

/* Makes the source that ends a probe after @timeout_ms (transfer full):
 * g_timeout_source_new() unless a test sets a function of its own, to end
 * probes when it says rather than after a time a busy machine may need for
 * the work before; NULL sets it back. */
typedef GSource *(*PalMcpProbeTimerFunc) (guint timeout_ms);
void                 _pal_mcp_probe_set_timer_func      (PalMcpProbeTimerFunc         func);

GTask               *_pal_mcp_probe_new_task            (gpointer                     source_tag,
                                                         guint                        timeout_ms,
                                                         GCancellable                *cancellable,
                                                         GAsyncReadyCallback          callback,
                                                         gpointer                     user_data);
PalMcpProbe         *_pal_mcp_probe_from_task           (GTask                       *task);
GTask               *_pal_mcp_probe_get_task            (PalMcpProbe                 *probe);
void                 _pal_mcp_probe_set_transport       (PalMcpProbe                 *probe,
                                                         const PalMcpTransportClass  *klass,
                                                         gpointer                     transport);
gpointer             _pal_mcp_probe_get_transport       (PalMcpProbe                 *probe);
/* Cancelled when the probe completes (and when the caller cancels). */
GCancellable        *_pal_mcp_probe_get_cancellable     (PalMcpProbe                 *probe);
guint                _pal_mcp_probe_get_timeout_ms      (PalMcpProbe                 *probe);
gboolean             _pal_mcp_probe_is_done             (PalMcpProbe                 *probe);
/* The version to put in the MCP-Protocol-Version header, once negotiated. */
const char          *_pal_mcp_probe_get_protocol_version (PalMcpProbe                *probe);
/* Whether the answer to our request @id has arrived. */
gboolean             _pal_mcp_probe_has_answer          (PalMcpProbe                 *probe,
                                                         gint64                       id);
/* The method of our request @id (for messages), or "". */
const char          *_pal_mcp_probe_get_method          (PalMcpProbe                 *probe,
                                                         gint64                       id);

/* Sends initialize: the transport is ready. */
void                 _pal_mcp_probe_begin               (PalMcpProbe                 *probe);
void                 _pal_mcp_probe_notification_sent   (PalMcpProbe                 *probe);
PalMcpReceiveStatus  _pal_mcp_probe_receive             (PalMcpProbe                 *probe,
                                                         const char                  *text,
                                                         gsize                        length,
                                                         GError                     **error);
/* Completes the probe with @error (taken), unless it already completed. */
void                 _pal_mcp_probe_fail                (PalMcpProbe                 *probe,
                                                         GError                      *error);
/* Completes the probe with a PAL_ERROR, unless it already completed. */
void                 _pal_mcp_probe_fail_printf         (PalMcpProbe                 *probe,
                                                         int                          code,
                                                         const char                  *format,
                                                         ...) G_GNUC_PRINTF (3, 4);
/* Completes the probe with a cancellation error if the operation that gave
 * @error was cancelled; returns whether it was. */
gboolean             _pal_mcp_probe_fail_if_cancelled   (PalMcpProbe                 *probe,
                                                         const GError                *error);

/* Validates header names and values: PAL_ERROR_INVALID. */
gboolean             _pal_mcp_probe_check_headers       (const char * const          *names,
                                                         const char * const          *values,
                                                         GError                     **error);
/* A short, valid UTF-8 version of untrusted text for an error message. */
char                *_pal_mcp_probe_excerpt             (const char                  *text,
                                                         gssize                       length,
                                                         gsize                        max_chars);

G_END_DECLS
