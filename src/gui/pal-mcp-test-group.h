/* pal-mcp-test-group.h: the connection test of the MCP server editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "pal-mcp-probe.h"
#include "pal-mcp-server-config.h"

G_BEGIN_DECLS

#define PAL_TYPE_MCP_TEST_GROUP (pal_mcp_test_group_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpTestGroup, pal_mcp_test_group, PAL, MCP_TEST_GROUP, AdwPreferencesGroup)

/* The server to test, as the editor has it now. */
void               pal_mcp_test_group_set_config   (PalMcpTestGroup    *self,
                                                    PalMcpServerConfig *config);
void               pal_mcp_test_group_set_session  (PalMcpTestGroup    *self,
                                                    SoupSession        *session);
/* Whether the settings are complete enough to test (the editor says). */
void               pal_mcp_test_group_set_can_test (PalMcpTestGroup    *self,
                                                    gboolean            can_test);
/* Starts the test, or cancels the one running. */
void               pal_mcp_test_group_run          (PalMcpTestGroup    *self);
void               pal_mcp_test_group_cancel       (PalMcpTestGroup    *self);
gboolean           pal_mcp_test_group_get_testing  (PalMcpTestGroup    *self);
/* The outcome of the last test: one of them is set once it finished. */
PalMcpProbeResult *pal_mcp_test_group_get_result   (PalMcpTestGroup    *self);
const GError      *pal_mcp_test_group_get_error    (PalMcpTestGroup    *self);

G_END_DECLS
