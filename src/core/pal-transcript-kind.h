/* pal-transcript-kind.h: what a stored transcript entry is, and what of
 * an update is searched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What a recorded entry is. The values are stored in the transcript
 * database: never renumber them, only add new ones at the end. */
typedef enum
{
  PAL_TRANSCRIPT_KIND_OTHER = 0,          /* plans, commands, modes, usage…: not searched */
  PAL_TRANSCRIPT_KIND_PROMPT = 1,         /* a prompt sent: its content blocks */
  PAL_TRANSCRIPT_KIND_USER_MESSAGE = 2,   /* user_message_chunk (replays) */
  PAL_TRANSCRIPT_KIND_AGENT_MESSAGE = 3,  /* agent_message_chunk */
  PAL_TRANSCRIPT_KIND_THOUGHT = 4,        /* agent_thought_chunk */
  PAL_TRANSCRIPT_KIND_TOOL_CALL = 5,      /* tool_call, tool_call_update */
} PalTranscriptKind;

#define PAL_TRANSCRIPT_KIND_LAST PAL_TRANSCRIPT_KIND_TOOL_CALL

PalTranscriptKind pal_transcript_kind_from_update (JsonObject  *update,
                                                   const char **item,
                                                   char       **text);

G_END_DECLS
