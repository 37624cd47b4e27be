/* acp-plan-item.h: the agent's plan in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-item.h"
#include "acp-plan-entry.h"

G_BEGIN_DECLS

/* What a plan is made of: the `plan` update always sends entries; a
 * `plan_update` sends entries, Markdown text or a file's URI. */
typedef enum
{
  ACP_PLAN_FORM_ITEMS,
  ACP_PLAN_FORM_MARKDOWN,
  ACP_PLAN_FORM_FILE,
} AcpPlanForm;

#define ACP_TYPE_PLAN_FORM (acp_plan_form_get_type ())
GType acp_plan_form_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_PLAN_ITEM (acp_plan_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpPlanItem, acp_plan_item, ACP, PLAN_ITEM, AcpItem)

/* A plan without entries, for `plan` updates (no id) */
AcpPlanItem *acp_plan_item_new          (void);
/* A plan without entries, for the `plan_update` updates of @plan_id */
AcpPlanItem *acp_plan_item_new_with_id  (const char  *plan_id);
/* (nullable): the planId of a plan from `plan_update` */
const char  *acp_plan_item_get_plan_id  (AcpPlanItem *self);
/* Which of the entries, the Markdown text or the URI the plan is now */
AcpPlanForm  acp_plan_item_get_form     (AcpPlanItem *self);
/* The AcpPlanEntry values: a list model that never changes; the item
 * replaces it, with a notification, when a new plan comes. Never NULL;
 * empty unless the form is ACP_PLAN_FORM_ITEMS. */
GListModel  *acp_plan_item_get_entries  (AcpPlanItem *self);
/* (nullable): the Markdown text of an ACP_PLAN_FORM_MARKDOWN plan */
const char  *acp_plan_item_get_markdown (AcpPlanItem *self);
/* (nullable): the URI of an ACP_PLAN_FORM_FILE plan, as the agent sent it */
const char  *acp_plan_item_get_uri      (AcpPlanItem *self);
/* Whether the agent removed the plan (`plan_removed`); what it held stays */
gboolean     acp_plan_item_get_removed  (AcpPlanItem *self);

G_END_DECLS
