/* acp-update-variants-private.h: the table of session/update variants
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "acp-session.h"
#include "acp-transcript.h"

G_BEGIN_DECLS

typedef struct _AcpUpdateVariant AcpUpdateVariant;

typedef enum
{
  ACP_UPDATE_FLAGS_NONE       = 0,
  /* text chunks of one message: the agent may join a flood of them into
   * one update before the main loop sees them (join_text_chunk) */
  ACP_UPDATE_FLAGS_TEXT_CHUNK = 1 << 0,
} AcpUpdateFlags;

/* A handler checks the whole update before it changes anything, and fails
 * with ACP_ERROR_INVALID_MESSAGE naming @variant->name. */
typedef gboolean (*AcpTranscriptUpdateFunc) (AcpTranscript           *transcript,
                                             JsonObject              *update,
                                             const AcpUpdateVariant  *variant,
                                             GError                 **error);
typedef gboolean (*AcpSessionUpdateFunc)    (AcpSession              *session,
                                             JsonObject              *update,
                                             const AcpUpdateVariant  *variant,
                                             GError                 **error);

/* One `sessionUpdate` value. Exactly one of the handlers is set: a
 * transcript-level variant changes the items of the transcript, a
 * session-level one the session's own state (its properties). */
struct _AcpUpdateVariant
{
  const char              *name;
  AcpTranscriptUpdateFunc  apply_transcript;
  AcpSessionUpdateFunc     apply_session;
  AcpUpdateFlags           flags;
  int                      data;       /* for the handler: the role of a chunk */
};

/* The row of @name, or NULL for a variant Palaver does not know (the
 * transcript keeps those as generic items). Safe from any thread. */
const AcpUpdateVariant *_acp_update_variant_lookup (const char *name);
/* Every row, for tests. */
const AcpUpdateVariant *_acp_update_variants_get   (guint      *n_variants);

/* Transcript-level handlers (acp-transcript.c) */
gboolean _acp_transcript_apply_chunk                    (AcpTranscript           *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_transcript_apply_tool_call                (AcpTranscript           *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_transcript_apply_plan                     (AcpTranscript           *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_transcript_apply_notice                   (AcpTranscript           *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_transcript_apply_compaction_update        (AcpTranscript           *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_transcript_apply_compaction_summary_chunk (AcpTranscript           *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);

/* Session-level handlers (acp-session-updates.c) */
gboolean _acp_session_apply_available_commands          (AcpSession              *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_session_apply_current_mode                (AcpSession              *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_session_apply_config_options              (AcpSession              *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_session_apply_session_info                (AcpSession              *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);
gboolean _acp_session_apply_usage                       (AcpSession              *self,
                                                         JsonObject              *update,
                                                         const AcpUpdateVariant  *variant,
                                                         GError                 **error);

/* For the handlers: fails with ACP_ERROR_INVALID_MESSAGE, "Invalid
 * @variant update: …". Returns: FALSE */
gboolean _acp_update_invalid        (GError     **error,
                                     const char  *variant,
                                     const char  *format,
                                     ...) G_GNUC_PRINTF (3, 4);
gboolean _acp_update_node_is_string (JsonNode    *node);

G_END_DECLS
