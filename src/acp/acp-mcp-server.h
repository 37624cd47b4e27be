/* acp-mcp-server.h: one MCP server configuration as sent to agents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-error.h"

G_BEGIN_DECLS

/* The value nicks of ACP_TYPE_MCP_TRANSPORT are the wire names (the
 * McpServer `type`, the mcpCapabilities member); stdio is the only one
 * with a command, the others have a URL. */
typedef enum
{
  ACP_MCP_TRANSPORT_STDIO,
  ACP_MCP_TRANSPORT_HTTP,
  ACP_MCP_TRANSPORT_SSE,
  ACP_MCP_N_TRANSPORTS  /* the count, not a transport */
} AcpMcpTransport;

#define ACP_TYPE_MCP_TRANSPORT (acp_mcp_transport_get_type ())
GType acp_mcp_transport_get_type (void) G_GNUC_CONST;

/* "stdio", "http", "sse", or NULL for a value that is no transport. */
const char         *acp_mcp_transport_to_string    (AcpMcpTransport     transport);
/* FALSE (and @out_transport untouched) for a name that is no transport. */
gboolean            acp_mcp_transport_from_string  (const char         *name,
                                                    AcpMcpTransport    *out_transport);
/* Every wire name, for messages: "stdio, http, sse" (transfer full). */
char               *acp_mcp_transport_dup_names    (void);

#define ACP_TYPE_MCP_SERVER (acp_mcp_server_get_type ())

G_DECLARE_FINAL_TYPE (AcpMcpServer, acp_mcp_server, ACP, MCP_SERVER, GObject)

AcpMcpServer       *acp_mcp_server_new_stdio       (const char         *name,
                                                    const char         *command,
                                                    const char * const *args);
AcpMcpServer       *acp_mcp_server_new_http        (const char         *name,
                                                    const char         *url);
AcpMcpServer       *acp_mcp_server_new_sse         (const char         *name,
                                                    const char         *url);
/* Any transport but stdio. */
AcpMcpServer       *acp_mcp_server_new_remote      (AcpMcpTransport     transport,
                                                    const char         *name,
                                                    const char         *url);

AcpMcpTransport     acp_mcp_server_get_transport   (AcpMcpServer       *self);
/* acp_mcp_transport_to_string() of the transport */
const char         *acp_mcp_server_get_transport_name (AcpMcpServer    *self);
const char         *acp_mcp_server_get_name        (AcpMcpServer       *self);
/* stdio only (NULL otherwise); args is never NULL for stdio */
const char         *acp_mcp_server_get_command     (AcpMcpServer       *self);
const char * const *acp_mcp_server_get_args        (AcpMcpServer       *self);
/* every transport but stdio (NULL otherwise) */
const char         *acp_mcp_server_get_url         (AcpMcpServer       *self);

/* Environment variables (stdio), in the order added. */
void                acp_mcp_server_add_env         (AcpMcpServer       *self,
                                                    const char         *name,
                                                    const char         *value);
guint               acp_mcp_server_get_n_env       (AcpMcpServer       *self);
const char         *acp_mcp_server_get_env_name    (AcpMcpServer       *self,
                                                    guint               index);
const char         *acp_mcp_server_get_env_value   (AcpMcpServer       *self,
                                                    guint               index);

/* HTTP headers (every transport but stdio), in the order added. */
void                acp_mcp_server_add_header      (AcpMcpServer       *self,
                                                    const char         *name,
                                                    const char         *value);
guint               acp_mcp_server_get_n_headers   (AcpMcpServer       *self);
const char         *acp_mcp_server_get_header_name (AcpMcpServer       *self,
                                                    guint               index);
const char         *acp_mcp_server_get_header_value (AcpMcpServer      *self,
                                                    guint               index);

/* Fails with ACP_ERROR_INVALID_ARGUMENT and a message naming the bad field. */
gboolean            acp_mcp_server_validate        (AcpMcpServer       *self,
                                                    GError            **error);
/* The McpServer wire object of the ACP schema (transfer full). */
JsonNode           *acp_mcp_server_to_json         (AcpMcpServer       *self);

G_END_DECLS
