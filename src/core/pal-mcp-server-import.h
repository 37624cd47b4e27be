/* pal-mcp-server-import.h: servers from another client added to the store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-mcp-server-store.h"

G_BEGIN_DECLS

gboolean pal_mcp_server_config_same_server (PalMcpServerConfig *a,
                                            PalMcpServerConfig *b);
guint    pal_mcp_server_store_import        (PalMcpServerStore  *store,
                                            GPtrArray          *configs,
                                            guint              *out_renamed,
                                            guint              *out_present);

G_END_DECLS
