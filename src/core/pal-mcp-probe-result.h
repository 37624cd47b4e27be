/* pal-mcp-probe-result.h: what an MCP server said about itself and its tools
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define PAL_TYPE_MCP_PROBE_RESULT (pal_mcp_probe_result_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpProbeResult, pal_mcp_probe_result, PAL, MCP_PROBE_RESULT, GObject)

/* What a server said about itself and its tools. Immutable. */
PalMcpProbeResult  *pal_mcp_probe_result_new              (const char         *server_name,
                                                           const char         *server_title,
                                                           const char         *server_version,
                                                           const char         *protocol_version,
                                                           const char * const *tool_names,
                                                           const char * const *tool_descriptions);
/* serverInfo.name, .title and .version: NULL when the server left them out. */
const char         *pal_mcp_probe_result_get_server_name  (PalMcpProbeResult  *self);
const char         *pal_mcp_probe_result_get_server_title (PalMcpProbeResult  *self);
const char         *pal_mcp_probe_result_get_server_version (PalMcpProbeResult *self);
/* The version the server answered initialize with. */
const char         *pal_mcp_probe_result_get_protocol_version (PalMcpProbeResult *self);
guint               pal_mcp_probe_result_get_n_tools      (PalMcpProbeResult  *self);
/* Never NULL; in the server's order. */
const char * const *pal_mcp_probe_result_get_tool_names   (PalMcpProbeResult  *self);
/* Parallel to the names; "" for a tool without a description. */
const char * const *pal_mcp_probe_result_get_tool_descriptions (PalMcpProbeResult *self);

G_END_DECLS
