/* pal-mcp-server-store.h: the MCP servers handed to agents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pal-mcp-server-config.h"
#include "pal-stored-list.h"

G_BEGIN_DECLS

#define PAL_TYPE_MCP_SERVER_STORE (pal_mcp_server_store_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpServerStore, pal_mcp_server_store, PAL, MCP_SERVER_STORE, PalStoredList)

PalMcpServerStore  *pal_mcp_server_store_new             (GSettings           *settings);

GSettings          *pal_mcp_server_store_get_settings    (PalMcpServerStore   *self);
/* Why stored entries were skipped, one translated sentence each. Never NULL. */
const char * const *pal_mcp_server_store_get_load_errors (PalMcpServerStore   *self);

PalMcpServerConfig *pal_mcp_server_store_lookup          (PalMcpServerStore   *self,
                                                          const char          *name);
gboolean            pal_mcp_server_store_add             (PalMcpServerStore   *self,
                                                          PalMcpServerConfig  *config,
                                                          GError             **error);
gboolean            pal_mcp_server_store_insert          (PalMcpServerStore   *self,
                                                          guint                position,
                                                          PalMcpServerConfig  *config,
                                                          GError             **error);
PalMcpServerConfig *pal_mcp_server_store_remove          (PalMcpServerStore   *self,
                                                          PalMcpServerConfig  *config,
                                                          guint               *out_position);
PalMcpServerConfig *pal_mcp_server_store_duplicate       (PalMcpServerStore   *self,
                                                          PalMcpServerConfig  *config);

G_END_DECLS
