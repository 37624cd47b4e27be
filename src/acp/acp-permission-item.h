/* acp-permission-item.h: a permission request of the agent in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-connection.h"
#include "acp-item.h"
#include "acp-permission-option.h"
#include "acp-tool-call-item.h"

G_BEGIN_DECLS

typedef enum
{
  ACP_PERMISSION_STATE_PENDING,
  ACP_PERMISSION_STATE_SELECTED,
  ACP_PERMISSION_STATE_CANCELLED,
} AcpPermissionState;

#define ACP_TYPE_PERMISSION_STATE (acp_permission_state_get_type ())
GType acp_permission_state_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_PERMISSION_ITEM (acp_permission_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpPermissionItem, acp_permission_item, ACP, PERMISSION_ITEM, AcpItem)

/* Validates the params of session/request_permission (toolCall: a
 * ToolCallUpdate, with a string toolCallId; options: objects with string
 * optionId, name, kind) and fails with ACP_ERROR_INVALID_PARAMS otherwise.
 * request may be NULL (nothing is sent then). */
AcpPermissionItem  *acp_permission_item_new                (JsonObject         *params,
                                                            AcpIncomingRequest *request,
                                                            GError            **error);

AcpIncomingRequest *acp_permission_item_get_request        (AcpPermissionItem  *self);
const char         *acp_permission_item_get_tool_call_id   (AcpPermissionItem  *self);
/* The toolCall object of the request as sent, which AcpSession merges into
 * its transcript; views read the snapshot. */
JsonObject         *acp_permission_item_get_tool_call      (AcpPermissionItem  *self);
/* The tool call as the request describes it, as an item of its own. */
AcpToolCallItem    *acp_permission_item_get_tool_call_snapshot (AcpPermissionItem *self);
/* The AcpPermissionOption values offered; never changes. */
GListModel         *acp_permission_item_get_options        (AcpPermissionItem  *self);
AcpPermissionState  acp_permission_item_get_state          (AcpPermissionItem  *self);
/* NULL unless the state is SELECTED. */
const char         *acp_permission_item_get_selected_option_id (AcpPermissionItem *self);

/* Reply {"outcome":{"outcome":"selected","optionId":...}}. An unknown option
 * id fails with ACP_ERROR_INVALID_ARGUMENT; once answered, does nothing. */
gboolean            acp_permission_item_select             (AcpPermissionItem  *self,
                                                            const char         *option_id,
                                                            GError            **error);
/* Reply {"outcome":{"outcome":"cancelled"}}; once answered, does nothing. */
void                acp_permission_item_cancel             (AcpPermissionItem  *self);

G_END_DECLS
