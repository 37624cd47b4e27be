/* acp-update-variants.c: the table of session/update variants
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-error.h"
#include "acp-update-variants-private.h"

/* Every `sessionUpdate` value Palaver understands, and what applies it.
 * AcpSession applies the session-level ones and hands the others to
 * AcpTranscript; the transcript keeps a variant missing here as a generic
 * item; the agent joins floods of the TEXT_CHUNK ones. Adding a variant is
 * a row here and its handler (see README.md beside this file).
 *
 * Looked up once per update, also on the connection's reading thread: the
 * most frequent come first. */
static const AcpUpdateVariant variants[] = {
  /* text and other content blocks, merged by messageId or adjacency */
  { "agent_message_chunk", _acp_transcript_apply_chunk, NULL,
    ACP_UPDATE_FLAGS_TEXT_CHUNK, ACP_MESSAGE_ROLE_AGENT },
  { "agent_thought_chunk", _acp_transcript_apply_chunk, NULL,
    ACP_UPDATE_FLAGS_TEXT_CHUNK, ACP_MESSAGE_ROLE_THOUGHT },
  { "user_message_chunk", _acp_transcript_apply_chunk, NULL,
    ACP_UPDATE_FLAGS_TEXT_CHUNK, ACP_MESSAGE_ROLE_USER },
  /* merged by toolCallId, created on first sight */
  { "tool_call", _acp_transcript_apply_tool_call, NULL, ACP_UPDATE_FLAGS_NONE, 0 },
  { "tool_call_update", _acp_transcript_apply_tool_call, NULL, ACP_UPDATE_FLAGS_NONE, 0 },
  /* the whole list replaced */
  { "plan", _acp_transcript_apply_plan, NULL, ACP_UPDATE_FLAGS_NONE, 0 },
  { "notice", _acp_transcript_apply_notice, NULL, ACP_UPDATE_FLAGS_NONE, 0 },
  /* one notice per compactionId */
  { "compaction_update", _acp_transcript_apply_compaction_update, NULL,
    ACP_UPDATE_FLAGS_NONE, 0 },
  { "compaction_summary_chunk", _acp_transcript_apply_compaction_summary_chunk, NULL,
    ACP_UPDATE_FLAGS_NONE, 0 },

  /* session-level */
  { "available_commands_update", NULL, _acp_session_apply_available_commands,
    ACP_UPDATE_FLAGS_NONE, 0 },
  { "current_mode_update", NULL, _acp_session_apply_current_mode, ACP_UPDATE_FLAGS_NONE, 0 },
  { "config_option_update", NULL, _acp_session_apply_config_options, ACP_UPDATE_FLAGS_NONE, 0 },
  { "session_info_update", NULL, _acp_session_apply_session_info, ACP_UPDATE_FLAGS_NONE, 0 },
  { "usage_update", NULL, _acp_session_apply_usage, ACP_UPDATE_FLAGS_NONE, 0 },
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
_acp_update_invalid (GError     **error,
                     const char  *variant,
                     const char  *format,
                     ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
               "Invalid %s update: %s", variant, message);

  return FALSE;
}

gboolean
_acp_update_node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}
