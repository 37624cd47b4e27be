/* pal-mcp-server-editor.h: the dialog that adds or edits one MCP server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "pal-mcp-probe.h"
#include "pal-mcp-server-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_MCP_SERVER_EDITOR (pal_mcp_server_editor_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpServerEditor, pal_mcp_server_editor, PAL, MCP_SERVER_EDITOR, AdwWindow)

/* @config: (nullable): a server of @store to edit, or NULL to add one */
PalMcpServerEditor *pal_mcp_server_editor_new             (PalMcpServerStore  *store,
                                                           PalMcpServerConfig *config,
                                                           SoupSession        *session);
/* The server being edited: NULL when adding. */
PalMcpServerConfig *pal_mcp_server_editor_get_original    (PalMcpServerEditor *self);
/* The working copy the fields are bound to. */
PalMcpServerConfig *pal_mcp_server_editor_get_config      (PalMcpServerEditor *self);
gboolean            pal_mcp_server_editor_get_can_save    (PalMcpServerEditor *self);
/* The first problem found, as shown next to its field; NULL when valid. */
const char         *pal_mcp_server_editor_get_problem     (PalMcpServerEditor *self);
/* Stores the server (resolving a stdio command to an absolute path) without
 * closing the dialog; the Save button does this, then closes it. */
gboolean            pal_mcp_server_editor_save            (PalMcpServerEditor *self,
                                                           GError            **error);
/* Runs the connection test, or cancels the one running. */
void                pal_mcp_server_editor_test_connection (PalMcpServerEditor *self);
gboolean            pal_mcp_server_editor_get_testing     (PalMcpServerEditor *self);
/* The outcome of the last test: one of them is set once it finished. */
PalMcpProbeResult  *pal_mcp_server_editor_get_test_result (PalMcpServerEditor *self);
const GError       *pal_mcp_server_editor_get_test_error  (PalMcpServerEditor *self);

G_END_DECLS
