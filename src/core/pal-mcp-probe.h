/* pal-mcp-probe.h: the MCP connection test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "pal-mcp-probe-result.h"
#include "pal-mcp-server-config.h"

G_BEGIN_DECLS

/* The protocol version the probe asks for; any version the server answers
 * with is accepted. */
#define PAL_MCP_PROBE_PROTOCOL_VERSION "2025-06-18"

/* The overall time limit used when a probe is given 0. */
#define PAL_MCP_PROBE_DEFAULT_TIMEOUT_MS 15000

/* Starts @argv (argv[0] is looked up in PATH, with @env applied) with pipes
 * on stdin, stdout and stderr, the way an agent starts a stdio server.
 * @env: nullable, "NAME=VALUE" entries added to this process's environment.
 * @timeout_ms: the limit for the whole exchange; 0 means the default. */
void                pal_mcp_probe_stdio_async   (const char * const  *argv,
                                                 const char * const  *env,
                                                 guint                timeout_ms,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);

/* Streamable HTTP: every message is a POST to @url; answers come as JSON or
 * as an event stream. @header_names and @header_values: nullable, parallel,
 * sent with every request. */
void                pal_mcp_probe_http_async    (SoupSession         *session,
                                                 const char          *url,
                                                 const char * const  *header_names,
                                                 const char * const  *header_values,
                                                 guint                timeout_ms,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);

/* The older HTTP+SSE transport: a GET event stream announces the address to
 * POST messages to, and carries the answers. */
void                pal_mcp_probe_sse_async     (SoupSession         *session,
                                                 const char          *url,
                                                 const char * const  *header_names,
                                                 const char * const  *header_values,
                                                 guint                timeout_ms,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);

/* Tests @config over its transport: stdio runs where agents run (on the host
 * through flatpak-spawn inside Flatpak), http and sse use @session. Blank
 * rows (no name, no value) of the environment and headers are left out. */
void                pal_mcp_probe_config_async  (PalMcpServerConfig  *config,
                                                 SoupSession         *session,
                                                 guint                timeout_ms,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);

/* Errors: PAL_ERROR_INVALID (bad arguments: URL, header, environment entry),
 * PAL_ERROR_NOT_FOUND (command not found, HTTP 404/410), PAL_ERROR_TIMEOUT,
 * PAL_ERROR_PROTOCOL (the server broke MCP or JSON-RPC: not JSON, not
 * JSON-RPC, missing fields, an event stream that ended early),
 * PAL_ERROR_FAILED (the server exited, answered with a JSON-RPC error or
 * another HTTP status), G_IO_ERROR_CANCELLED, and network errors keeping
 * their G_IO_ERROR, G_RESOLVER_ERROR, G_TLS_ERROR or SOUP_SESSION_ERROR
 * code. Messages are for people, in their language; a stdio server's error
 * output (its last lines, up to 4 KiB) ends the message when there is any. */
PalMcpProbeResult  *pal_mcp_probe_finish        (GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
