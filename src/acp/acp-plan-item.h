/* acp-plan-item.h: the agent's plan in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "acp-item.h"

G_BEGIN_DECLS

#define ACP_TYPE_PLAN_ITEM (acp_plan_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpPlanItem, acp_plan_item, ACP, PLAN_ITEM, AcpItem)

AcpPlanItem *acp_plan_item_new         (JsonArray   *entries);
/* PlanEntry objects {content, priority, status}; never NULL. */
JsonArray   *acp_plan_item_get_entries (AcpPlanItem *self);
void         acp_plan_item_set_entries (AcpPlanItem *self,
                                        JsonArray   *entries);

G_END_DECLS
