/* acp-plan-item.h: the agent's plan in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-item.h"
#include "acp-plan-entry.h"

G_BEGIN_DECLS

#define ACP_TYPE_PLAN_ITEM (acp_plan_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpPlanItem, acp_plan_item, ACP, PLAN_ITEM, AcpItem)

/* A plan without entries */
AcpPlanItem *acp_plan_item_new         (void);
/* The AcpPlanEntry values: a list model that never changes; the item
 * replaces it, with a notification, when a new plan comes. Never NULL. */
GListModel  *acp_plan_item_get_entries (AcpPlanItem *self);

G_END_DECLS
