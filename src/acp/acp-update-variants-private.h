/* acp-update-variants-private.h: the table of session/update variants
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "acp-json-reader.h"
#include "acp-session.h"
#include "acp-transcript.h"
#include "acp-update.h"

G_BEGIN_DECLS

typedef struct _AcpUpdateVariant AcpUpdateVariant;

/* Takes an update of the variant apart (acp_update_new(), on any thread):
 * checks the members of @object and keeps in @update what the handler
 * needs (see acp-update-private.h), copied out of @doc. Fails with
 * ACP_ERROR_INVALID_MESSAGE naming the variant, keeping nothing. */
typedef gboolean (*AcpUpdateParseFunc)      (AcpUpdate               *update,
                                             const AcpJsonDoc        *doc,
                                             const AcpJsonValue      *object,
                                             GError                 **error);
/* Applies a well-formed update of the variant (on the main thread). */
typedef gboolean (*AcpTranscriptUpdateFunc) (AcpTranscript           *transcript,
                                             AcpUpdate               *update,
                                             GError                 **error);
typedef gboolean (*AcpSessionUpdateFunc)    (AcpSession              *session,
                                             AcpUpdate               *update,
                                             GError                 **error);

/* One `sessionUpdate` value. Exactly one of the handlers is set: a
 * transcript-level variant changes the items of the transcript, a
 * session-level one the session's own state (its properties). Without a
 * parse function, the update keeps its JSON object (update->object), which
 * the handler checks and reads: for rare variants only, as the object then
 * goes to the main thread whole. */
struct _AcpUpdateVariant
{
  const char              *name;
  AcpUpdateParseFunc       parse;
  AcpTranscriptUpdateFunc  apply_transcript;
  AcpSessionUpdateFunc     apply_session;
  int                      data;       /* for the handler: the role of a chunk */
};

/* The row of @name, or NULL for a variant Palaver does not know (the
 * transcript keeps those as generic items). Safe from any thread. */
const AcpUpdateVariant *_acp_update_variant_lookup (const char *name);
/* Every row, for tests. */
const AcpUpdateVariant *_acp_update_variants_get   (guint      *n_variants);

/* Applies @update to the session: a session-level variant changes its
 * properties, the others go to its transcript (_acp_transcript_apply). */
gboolean _acp_session_apply                             (AcpSession              *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);

/* Applies @update to the transcript: its transcript-level handler, a
 * generic item for a variant Palaver does not know; a session-level
 * variant changes nothing. Fails with the error of a malformed update. */
gboolean _acp_transcript_apply                          (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);

/* Transcript-level handlers (acp-transcript.c) */
gboolean _acp_transcript_apply_chunk                    (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_transcript_apply_tool_call                (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_transcript_apply_plan                     (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_transcript_apply_plan_update              (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_transcript_apply_plan_removed             (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_transcript_apply_notice                   (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_transcript_apply_compaction_update        (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_transcript_apply_compaction_summary_chunk (AcpTranscript           *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);

/* Session-level handlers (acp-session-updates.c); they read update->object */
gboolean _acp_session_apply_available_commands          (AcpSession              *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_session_apply_current_mode                (AcpSession              *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_session_apply_config_options              (AcpSession              *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_session_apply_session_info                (AcpSession              *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);
gboolean _acp_session_apply_usage                       (AcpSession              *self,
                                                         AcpUpdate               *update,
                                                         GError                 **error);

/* For the session-level handlers: whether @node (nullable) is a string */
gboolean _acp_update_node_is_string (JsonNode    *node);

G_END_DECLS
