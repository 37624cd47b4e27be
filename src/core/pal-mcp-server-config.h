/* pal-mcp-server-config.h: one MCP server as the person configured it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-mcp-server.h"
#include "pal-name-value.h"

G_BEGIN_DECLS

#define PAL_TYPE_MCP_SERVER_CONFIG (pal_mcp_server_config_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpServerConfig, pal_mcp_server_config, PAL, MCP_SERVER_CONFIG, GObject)

/* How a transport is shown, translated: a short label ("HTTP") and a
 * title to choose it by ("Streamable HTTP"). */
const char         *pal_mcp_transport_get_label        (AcpMcpTransport      transport);
const char         *pal_mcp_transport_get_title        (AcpMcpTransport      transport);

/* Declared here to avoid an include cycle; see pal-mcp-server-store.h. */
typedef struct _PalMcpServerStore PalMcpServerStore;

PalMcpServerConfig *pal_mcp_server_config_new          (const char          *name,
                                                        AcpMcpTransport      transport);
/* A deep copy: new PalNameValue objects too. */
PalMcpServerConfig *pal_mcp_server_config_copy         (PalMcpServerConfig  *self);

const char         *pal_mcp_server_config_get_name     (PalMcpServerConfig  *self);
void                pal_mcp_server_config_set_name     (PalMcpServerConfig  *self,
                                                        const char          *name);
AcpMcpTransport     pal_mcp_server_config_get_transport (PalMcpServerConfig *self);
void                pal_mcp_server_config_set_transport (PalMcpServerConfig *self,
                                                         AcpMcpTransport     transport);
gboolean            pal_mcp_server_config_get_enabled  (PalMcpServerConfig  *self);
void                pal_mcp_server_config_set_enabled  (PalMcpServerConfig  *self,
                                                        gboolean             enabled);
/* stdio */
const char         *pal_mcp_server_config_get_command  (PalMcpServerConfig  *self);
void                pal_mcp_server_config_set_command  (PalMcpServerConfig  *self,
                                                        const char          *command);
const char * const *pal_mcp_server_config_get_args     (PalMcpServerConfig  *self);
void                pal_mcp_server_config_set_args     (PalMcpServerConfig  *self,
                                                        const char * const  *args);
/* A GListStore of PalNameValue: add, remove and edit rows directly. */
GListStore         *pal_mcp_server_config_get_env      (PalMcpServerConfig  *self);
/* every transport but stdio */
const char         *pal_mcp_server_config_get_url      (PalMcpServerConfig  *self);
void                pal_mcp_server_config_set_url      (PalMcpServerConfig  *self,
                                                        const char          *url);
GListStore         *pal_mcp_server_config_get_headers  (PalMcpServerConfig  *self);

/* Appends a row; secret when the name looks like one. */
PalNameValue       *pal_mcp_server_config_add_env      (PalMcpServerConfig  *self,
                                                        const char          *name,
                                                        const char          *value);
PalNameValue       *pal_mcp_server_config_add_header   (PalMcpServerConfig  *self,
                                                        const char          *name,
                                                        const char          *value);

char               *pal_mcp_server_config_resolve_command (PalMcpServerConfig *self);
gboolean            pal_mcp_server_config_validate     (PalMcpServerConfig  *self,
                                                        PalMcpServerStore   *store,
                                                        GError             **error);
/* The same checks with the command already resolved: looks at no file. */
gboolean            pal_mcp_server_config_validate_resolved (PalMcpServerConfig  *self,
                                                             PalMcpServerStore   *store,
                                                             const char          *resolved_command,
                                                             GError             **error);
AcpMcpServer       *pal_mcp_server_config_to_acp       (PalMcpServerConfig  *self,
                                                        GError             **error);

G_END_DECLS
