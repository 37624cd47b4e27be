/* pal-tool-call-row.h: a tool call of the chat
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-terminal-service.h"
#include "acp-tool-call-item.h"

G_BEGIN_DECLS

#define PAL_TYPE_TOOL_CALL_ROW (pal_tool_call_row_get_type ())

G_DECLARE_FINAL_TYPE (PalToolCallRow, pal_tool_call_row, PAL, TOOL_CALL_ROW, AdwBin)

GtkWidget       *pal_tool_call_row_new      (AcpToolCallItem    *item,
                                             AcpTerminalService *terminal_service,
                                             const char         *folder);
AcpToolCallItem *pal_tool_call_row_get_item (PalToolCallRow  *self);
const char      *pal_tool_call_kind_icon    (const char      *tool_kind);

G_END_DECLS
