/* acp-tool-call-item.h: a tool call in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-item.h"
#include "acp-location.h"
#include "acp-tool-call-content.h"

G_BEGIN_DECLS

#define ACP_TYPE_TOOL_CALL_ITEM (acp_tool_call_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpToolCallItem, acp_tool_call_item, ACP, TOOL_CALL_ITEM, AcpItem)

AcpToolCallItem *acp_tool_call_item_new            (const char      *tool_call_id);

const char      *acp_tool_call_item_get_tool_call_id (AcpToolCallItem *self);

/* "" until the agent sends one */
const char      *acp_tool_call_item_get_title      (AcpToolCallItem *self);
void             acp_tool_call_item_set_title      (AcpToolCallItem *self,
                                                    const char      *title);
/* The programmatic tool name (newer agents), or NULL. */
const char      *acp_tool_call_item_get_name       (AcpToolCallItem *self);
void             acp_tool_call_item_set_name       (AcpToolCallItem *self,
                                                    const char      *name);
/* A ToolKind: read, edit, delete, move, search, execute, think, fetch,
 * switch_mode or other (the default). */
const char      *acp_tool_call_item_get_tool_kind  (AcpToolCallItem *self);
void             acp_tool_call_item_set_tool_kind  (AcpToolCallItem *self,
                                                    const char      *tool_kind);
/* A ToolCallStatus: pending (the default), in_progress, completed, failed. */
const char      *acp_tool_call_item_get_status     (AcpToolCallItem *self);
void             acp_tool_call_item_set_status     (AcpToolCallItem *self,
                                                    const char      *status);
gboolean         acp_tool_call_item_is_finished    (AcpToolCallItem *self);
/* Left unfinished when its turn ended, until the agent reports a status. */
gboolean         acp_tool_call_item_get_stopped    (AcpToolCallItem *self);
void             acp_tool_call_item_stop           (AcpToolCallItem *self);
/* The person refused it, in the last answer to a permission request. */
gboolean         acp_tool_call_item_get_rejected   (AcpToolCallItem *self);
void             acp_tool_call_item_set_rejected   (AcpToolCallItem *self,
                                                    gboolean         rejected);
/* What it shows (AcpToolCallContent) and the files it touches
 * (AcpLocation): list models that never change; the item replaces them,
 * with a notification, when the agent sends new lists. Never NULL. */
GListModel      *acp_tool_call_item_get_content    (AcpToolCallItem *self);
GListModel      *acp_tool_call_item_get_locations  (AcpToolCallItem *self);
JsonNode        *acp_tool_call_item_get_raw_input  (AcpToolCallItem *self);
void             acp_tool_call_item_set_raw_input  (AcpToolCallItem *self,
                                                    JsonNode        *raw_input);
JsonNode        *acp_tool_call_item_get_raw_output (AcpToolCallItem *self);
void             acp_tool_call_item_set_raw_output (AcpToolCallItem *self,
                                                    JsonNode        *raw_output);

/* The raw input and output as text to show, NULL when there is none; see
 * the functions' documentation for the shapes that give plain text. */
char            *acp_tool_call_item_dup_raw_input_text  (AcpToolCallItem *self,
                                                         gboolean        *is_json);
char            *acp_tool_call_item_dup_raw_output_text (AcpToolCallItem *self,
                                                         gboolean        *is_json);
/* The command line in rawInput.command (a string or an argv), or NULL. */
char            *acp_tool_call_item_dup_command         (AcpToolCallItem *self);
/* The exit code in the raw output (exit_code or exitCode). */
gboolean         acp_tool_call_item_get_exit_code       (AcpToolCallItem *self,
                                                         int             *exit_code);

/* Bytes of output kept per terminal of the agent's own; older output goes */
#define ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT ((gsize) 1024 * 1024)

/* The terminals the agent runs itself and reports in `_meta` (see the
 * functions' documentation). */
void             acp_tool_call_item_apply_meta          (AcpToolCallItem *self,
                                                         JsonObject      *meta);
char           **acp_tool_call_item_dup_terminal_ids    (AcpToolCallItem *self);
const char      *acp_tool_call_item_get_terminal_output (AcpToolCallItem *self,
                                                         const char      *terminal_id,
                                                         gboolean        *truncated);
gboolean         acp_tool_call_item_get_terminal_exit   (AcpToolCallItem *self,
                                                         const char      *terminal_id,
                                                         int             *exit_code,
                                                         const char     **signal_name);

G_END_DECLS
