/* acp-tool-call-content.h: a ToolCallContent of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-content-block.h"

G_BEGIN_DECLS

typedef enum
{
  ACP_TOOL_CALL_CONTENT_KIND_CONTENT,
  ACP_TOOL_CALL_CONTENT_KIND_DIFF,
  ACP_TOOL_CALL_CONTENT_KIND_TERMINAL,
  ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN,   /* a type this library does not know */
} AcpToolCallContentKind;

#define ACP_TYPE_TOOL_CALL_CONTENT_KIND (acp_tool_call_content_kind_get_type ())
GType acp_tool_call_content_kind_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_TOOL_CALL_CONTENT (acp_tool_call_content_get_type ())

G_DECLARE_FINAL_TYPE (AcpToolCallContent, acp_tool_call_content, ACP, TOOL_CALL_CONTENT, GObject)

AcpToolCallContentKind  acp_tool_call_content_get_kind        (AcpToolCallContent *self);
/* The type as the agent sent it ("diff", or an unknown one's name) */
const char             *acp_tool_call_content_get_type_name   (AcpToolCallContent *self);
/* CONTENT: the block; NULL otherwise */
AcpContentBlock        *acp_tool_call_content_get_block       (AcpToolCallContent *self);
/* DIFF: the file, its old text (NULL for a new file) and new text */
const char             *acp_tool_call_content_get_path        (AcpToolCallContent *self);
const char             *acp_tool_call_content_get_old_text    (AcpToolCallContent *self);
const char             *acp_tool_call_content_get_new_text    (AcpToolCallContent *self);
/* TERMINAL: the terminal's id */
const char             *acp_tool_call_content_get_terminal_id (AcpToolCallContent *self);

G_END_DECLS
