/* acp-update-variants.c: the table of session/update variants
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-update-private.h"

/* Every `sessionUpdate` value Palaver understands: what takes it apart (in
 * the connection's reading thread, see acp-update.c) and what applies it.
 * AcpSession applies the session-level ones and hands the others to
 * AcpTranscript; the transcript keeps a variant missing here as a generic
 * item; the agent joins floods of text chunks (_acp_update_join). Adding a
 * variant is a row here, its parse function and its handler (see README.md
 * beside this file).
 *
 * Looked up once per update, in the connection's reading thread: the most
 * frequent come first. */
static const AcpUpdateVariant variants[] = {
  /* text and other content blocks, merged by messageId or adjacency */
  { "agent_message_chunk", _acp_update_parse_chunk, _acp_transcript_apply_chunk, NULL,
    ACP_MESSAGE_ROLE_AGENT },
  { "agent_thought_chunk", _acp_update_parse_chunk, _acp_transcript_apply_chunk, NULL,
    ACP_MESSAGE_ROLE_THOUGHT },
  { "user_message_chunk", _acp_update_parse_chunk, _acp_transcript_apply_chunk, NULL,
    ACP_MESSAGE_ROLE_USER },
  /* merged by toolCallId, created on first sight */
  { "tool_call", _acp_update_parse_tool_call, _acp_transcript_apply_tool_call, NULL, 0 },
  { "tool_call_update", _acp_update_parse_tool_call, _acp_transcript_apply_tool_call, NULL, 0 },
  /* the whole list replaced */
  { "plan", _acp_update_parse_plan, _acp_transcript_apply_plan, NULL, 0 },
  /* one plan item per planId, its content replaced */
  { "plan_update", _acp_update_parse_plan_update, _acp_transcript_apply_plan_update, NULL, 0 },
  { "plan_removed", _acp_update_parse_plan_removed, _acp_transcript_apply_plan_removed, NULL, 0 },
  { "notice", _acp_update_parse_notice, _acp_transcript_apply_notice, NULL, 0 },
  /* one notice per compactionId */
  { "compaction_update", _acp_update_parse_compaction_update,
    _acp_transcript_apply_compaction_update, NULL, 0 },
  { "compaction_summary_chunk", _acp_update_parse_compaction_summary_chunk,
    _acp_transcript_apply_compaction_summary_chunk, NULL, 0 },

  /* session-level: rare, their handlers read the update's JSON */
  { "available_commands_update", NULL, NULL, _acp_session_apply_available_commands, 0 },
  { "current_mode_update", NULL, NULL, _acp_session_apply_current_mode, 0 },
  { "config_option_update", NULL, NULL, _acp_session_apply_config_options, 0 },
  { "session_info_update", NULL, NULL, _acp_session_apply_session_info, 0 },
  { "usage_update", NULL, NULL, _acp_session_apply_usage, 0 },
};

const AcpUpdateVariant *
_acp_update_variant_lookup (const char *name)
{
  if (name == NULL)
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      if (strcmp (variants[i].name, name) == 0)
        return &variants[i];
    }

  return NULL;
}

const AcpUpdateVariant *
_acp_update_variants_get (guint *n_variants)
{
  *n_variants = G_N_ELEMENTS (variants);
  return variants;
}

gboolean
_acp_update_node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}
