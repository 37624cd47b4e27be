/* acp-transcript.h: the items of one session, as a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-error.h"
#include "acp-item.h"
#include "acp-message-item.h"
#include "acp-notice-item.h"
#include "acp-tool-call-item.h"
#include "acp-update.h"

G_BEGIN_DECLS

/* The priority of the idle source that flushes queued items: after input,
 * before GTK's layout and redraw (G_PRIORITY_HIGH_IDLE + 20). */
#define ACP_TRANSCRIPT_FLUSH_PRIORITY (G_PRIORITY_HIGH_IDLE + 10)

#define ACP_TYPE_TRANSCRIPT (acp_transcript_get_type ())

G_DECLARE_FINAL_TYPE (AcpTranscript, acp_transcript, ACP, TRANSCRIPT, GObject)

AcpTranscript   *acp_transcript_new               (void);

/* Queue an item (a reference is taken); it shows in the model at the next
 * flush. Appending a USER message starts a new plan item for later plans. */
void             acp_transcript_append            (AcpTranscript      *self,
                                                   AcpItem            *item);
/* Show every queued item now, with one items-changed. */
void             acp_transcript_flush             (AcpTranscript      *self);
guint            acp_transcript_get_n_pending     (AcpTranscript      *self);
/* FALSE: queued items wait for acp_transcript_flush(), for a transcript
 * filled on another thread (the flush's idle source is the main context's);
 * TRUE (the default) again on the main thread. */
void             acp_transcript_set_flush_on_idle (AcpTranscript      *self,
                                                   gboolean            on_idle);
/* Remove every item (queued or shown), with one items-changed. */
void             acp_transcript_clear             (AcpTranscript      *self);
/* A history read from its end: the later part is built first (keeping
 * what its updates did not find), shown, and gets the earlier part in front
 * once that is read, if none of its updates reached into it. */
void             acp_transcript_keep_gaps         (AcpTranscript      *self);
gboolean         acp_transcript_can_follow        (AcpTranscript      *self,
                                                   AcpTranscript      *earlier);
void             acp_transcript_prepend           (AcpTranscript      *self,
                                                   AcpTranscript      *earlier);
/* The turn is over (ended, cancelled, the agent gone) or the history
 * replayed: every tool call not finished is marked stopped. */
void             acp_transcript_stop_tool_calls   (AcpTranscript      *self);

/* Lookups; they see queued items too. (transfer none) (nullable) */
AcpItem         *acp_transcript_peek_last         (AcpTranscript      *self);
AcpToolCallItem *acp_transcript_lookup_tool_call  (AcpTranscript      *self,
                                                   const char         *tool_call_id);
AcpMessageItem  *acp_transcript_lookup_message    (AcpTranscript      *self,
                                                   const char         *message_id);

/* Convenience for upper layers; returns the queued item (transfer none). */
AcpNoticeItem   *acp_transcript_append_notice     (AcpTranscript      *self,
                                                   AcpNoticeSeverity   severity,
                                                   const char         *title,
                                                   const char         *body,
                                                   const char         *details);
/* A new USER message from the ContentBlocks of a prompt: text blocks are
 * concatenated, other blocks become attachments. (transfer none) */
AcpMessageItem  *acp_transcript_append_prompt     (AcpTranscript      *self,
                                                   JsonArray          *prompt);

/* The reducer: applies one `update` object of a session/update notification
 * (the variants are in acp-update-variants.c). Session-level variants are
 * not about the transcript: they are accepted and ignored here (AcpSession
 * applies them). A malformed update fails with ACP_ERROR_INVALID_MESSAGE and
 * changes nothing. */
gboolean         acp_transcript_apply_update      (AcpTranscript      *self,
                                                   JsonObject         *update,
                                                   GError            **error);
/* The same for an update taken apart (AcpAgent::update,
 * acp_update_new_from_json()): a history kept elsewhere, shown without a
 * session. */
gboolean         acp_transcript_apply             (AcpTranscript      *self,
                                                   AcpUpdate          *update,
                                                   GError            **error);
/* Merges a ToolCall / ToolCallUpdate object (toolCallId required, other
 * fields only when present) into the tool call item of that id, creating and
 * queuing it first if it is unknown. Fails with ACP_ERROR_INVALID_MESSAGE
 * (nothing changed) if the object is malformed. (transfer none) */
AcpToolCallItem *acp_transcript_merge_tool_call   (AcpTranscript      *self,
                                                   JsonObject         *tool_call,
                                                   GError            **error);

G_END_DECLS
