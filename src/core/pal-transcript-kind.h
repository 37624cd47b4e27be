/* pal-transcript-kind.h: what a stored transcript entry is, and what of
 * an update is searched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "acp-json-reader.h"

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

/* What the store's worker reads of a recorded entry */
typedef struct
{
  PalTranscriptKind  kind;
  char              *item;         /* messageId of a chunk, toolCallId of a tool call */
  char              *text;         /* what is searched of it */
  gboolean           plain_chunk;  /* a text chunk with nothing more to it */
} PalTranscriptEntry;

void        pal_transcript_entry_read             (PalTranscriptEntry *entry,
                                                   AcpJsonDoc         *doc,
                                                   PalTranscriptKind   kind,
                                                   const char         *json,
                                                   gsize               length);
void        pal_transcript_entry_clear            (PalTranscriptEntry *entry);

const char *pal_transcript_kind_get_chunk_variant (PalTranscriptKind   kind);
void        pal_transcript_chunk_write            (GString            *out,
                                                   PalTranscriptKind   kind,
                                                   const char         *message_id,
                                                   const char         *text,
                                                   gsize               length);

G_END_DECLS
