/* acp-update-private.h: what an AcpUpdate holds, for the code that applies
 * it (and tests)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-json-reader.h"
#include "acp-content-block.h"
#include "acp-notice-item.h"
#include "acp-plan-item.h"
#include "acp-tool-call-item.h"
#include "acp-update.h"
#include "acp-update-variants-private.h"

G_BEGIN_DECLS

/* The members of a ToolCall or ToolCallUpdate, checked: NULL for a member
 * absent or null. */
typedef struct
{
  char       *tool_call_id;   /* never NULL once parsed */
  char       *title;
  char       *name;
  const char *tool_kind;      /* a known kind ("other" for an unknown one) */
  const char *status;         /* a known status (an unknown one is left out) */
  GListModel *content;       /* its valid elements, as AcpToolCallContent */
  GListModel *locations;     /* its valid elements, as AcpLocation */
  JsonNode   *raw_input;
  JsonNode   *raw_output;
  JsonObject *meta;           /* `_meta`, when an object */
} AcpToolCallFields;

/* Every value here belongs to the update alone: taken apart in the
 * connection's reading thread, it is handed whole to the main thread. Which
 * members are set depends on the variant (see the parse functions in
 * acp-update.c). */
struct _AcpUpdate
{
  gatomicrefcount          ref_count;
  char                    *session_id;
  char                    *kind;           /* sessionUpdate */
  const AcpUpdateVariant  *variant;        /* NULL: unknown to Palaver */
  guint                    n_notifications;
  GError                  *error;          /* malformed: why (nothing else is set) */
  /* the update as it came, as JSON text; NULL for a joinable text chunk,
   * which acp_update_dup_json() writes from what it holds */
  char                    *json;

  /* a variant without a parse function (session-level ones, unknown ones):
   * the update as it came */
  JsonObject              *object;

  /* chunks: messageId; compactions: compactionId; plan_update,
   * plan_removed: planId */
  char                    *id;
  /* chunks: the text (NULL for another content block); compactions: the
   * summary (NULL when it says none); plan_update: the Markdown text or the
   * file's URI */
  GString                 *text;
  /* a chunk's content block that is not text */
  AcpContentBlock         *block;
  /* a text chunk that holds nothing more, which may be joined to the next */
  gboolean                 joinable;
  /* notices: title, description, severity; compactions: status and error */
  char                    *title;
  char                    *description;
  char                    *status;
  AcpNoticeSeverity        severity;
  /* plan, plan_update of items: the valid entries, as AcpPlanEntry */
  GListModel              *entries;
  /* plan_update: what the plan is (entries, text or URI) */
  AcpPlanForm              plan_form;
  /* tool_call, tool_call_update */
  AcpToolCallFields        tool_call;
};

/* Fails with ACP_ERROR_INVALID_MESSAGE: "Invalid @variant update: …".
 * Returns: FALSE */
gboolean _acp_update_invalid         (GError             **error,
                                      const char          *variant,
                                      const char          *format,
                                      ...) G_GNUC_PRINTF (3, 4);

/* Takes @update (a session/update's `update` object) apart, as
 * acp_update_new() does. */
AcpUpdate *_acp_update_new_from_doc  (const char          *session_id,
                                      const AcpJsonDoc    *doc,
                                      const AcpJsonValue  *update);

/* Checks the members of a ToolCall or ToolCallUpdate object into @fields
 * (cleared first); fails with ACP_ERROR_INVALID_MESSAGE naming @variant. */
gboolean _acp_tool_call_fields_parse (AcpToolCallFields   *fields,
                                      const AcpJsonDoc    *doc,
                                      const AcpJsonValue  *object,
                                      const char          *variant,
                                      GError             **error);
void     _acp_tool_call_fields_clear (AcpToolCallFields  *fields);
/* Replace what a plan is, or mark it removed (acp-plan-item.c) */
void     _acp_plan_item_set_entries  (AcpPlanItem              *item,
                                      GListModel               *entries);
void     _acp_plan_item_set_markdown (AcpPlanItem              *item,
                                      const char               *markdown);
void     _acp_plan_item_set_uri      (AcpPlanItem              *item,
                                      const char               *uri);
void     _acp_plan_item_set_removed  (AcpPlanItem              *item);
/* Takes the members present in @fields into @item (acp-tool-call-item.c) */
void     _acp_tool_call_item_merge   (AcpToolCallItem          *item,
                                      const AcpToolCallFields  *fields);

/* Appends @next's text to @self when both are joinable text chunks of one
 * session, variant and message (up to a bound): then @self stands for
 * @next's notifications too and @next is not needed. */
gboolean _acp_update_join            (AcpUpdate          *self,
                                      AcpUpdate          *next);

/* Parse functions of the table (acp-update-variants.c) */
gboolean _acp_update_parse_chunk                    (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);
gboolean _acp_update_parse_tool_call                (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);
gboolean _acp_update_parse_plan                     (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);
gboolean _acp_update_parse_plan_update              (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);
gboolean _acp_update_parse_plan_removed             (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);
gboolean _acp_update_parse_notice                   (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);
gboolean _acp_update_parse_compaction_update        (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);
gboolean _acp_update_parse_compaction_summary_chunk (AcpUpdate           *self,
                                                     const AcpJsonDoc    *doc,
                                                     const AcpJsonValue  *object,
                                                     GError             **error);

G_END_DECLS
