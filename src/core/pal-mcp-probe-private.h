/* pal-mcp-probe-private.h: what the probe's transports share
 *
 * The protocol (pal-mcp-probe.c) drives one exchange over a PalMcpTransport:
 * initialize, the notifications/initialized notification, tools/list
 * pages. pal-mcp-probe-stdio.c and pal-mcp-probe-http.c make the transport
 * and hand it over with _pal_mcp_probe_run().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-mcp-probe.h"
#include "pal-mcp-transport.h"

G_BEGIN_DECLS

typedef struct _PalMcpProbe PalMcpProbe;

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
/* Runs the exchange over @transport (a reference is taken), which the
 * probe closes when it completes. */
void                 _pal_mcp_probe_run                 (PalMcpProbe                 *probe,
                                                         PalMcpTransport             *transport);
/* Completes the probe with @error (taken), unless it already completed. */
void                 _pal_mcp_probe_fail                (PalMcpProbe                 *probe,
                                                         GError                      *error);
/* Completes the probe with a PAL_ERROR, unless it already completed. */
void                 _pal_mcp_probe_fail_printf         (PalMcpProbe                 *probe,
                                                         int                          code,
                                                         const char                  *format,
                                                         ...) G_GNUC_PRINTF (3, 4);

/* Validates header names and values: PAL_ERROR_INVALID. */
gboolean             _pal_mcp_probe_check_headers       (const char * const          *names,
                                                         const char * const          *values,
                                                         GError                     **error);
/* A short, valid UTF-8 version of untrusted text for an error message. */
char                *_pal_mcp_probe_excerpt             (const char                  *text,
                                                         gssize                       length,
                                                         gsize                        max_chars);

G_END_DECLS
