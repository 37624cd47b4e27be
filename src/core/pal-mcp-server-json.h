/* pal-mcp-server-json.h: the mcpServers JSON other MCP clients use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pal-mcp-server-config.h"

G_BEGIN_DECLS

gboolean  pal_mcp_server_import_json (const char   *json,
                                      GPtrArray   **out_configs,
                                      GPtrArray   **out_failures,
                                      GError      **error);
char     *pal_mcp_server_export_json (GListModel   *configs);

G_END_DECLS
