/* acp-plan-entry.h: a PlanEntry of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  ACP_PLAN_ENTRY_PRIORITY_HIGH,
  ACP_PLAN_ENTRY_PRIORITY_MEDIUM,
  ACP_PLAN_ENTRY_PRIORITY_LOW,
  ACP_PLAN_ENTRY_PRIORITY_UNKNOWN,   /* a priority this library does not know */
} AcpPlanEntryPriority;

typedef enum
{
  ACP_PLAN_ENTRY_STATUS_PENDING,
  ACP_PLAN_ENTRY_STATUS_IN_PROGRESS,
  ACP_PLAN_ENTRY_STATUS_COMPLETED,
  ACP_PLAN_ENTRY_STATUS_UNKNOWN,     /* a status this library does not know */
} AcpPlanEntryStatus;

#define ACP_TYPE_PLAN_ENTRY_PRIORITY (acp_plan_entry_priority_get_type ())
GType acp_plan_entry_priority_get_type (void) G_GNUC_CONST;
#define ACP_TYPE_PLAN_ENTRY_STATUS (acp_plan_entry_status_get_type ())
GType acp_plan_entry_status_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_PLAN_ENTRY (acp_plan_entry_get_type ())

G_DECLARE_FINAL_TYPE (AcpPlanEntry, acp_plan_entry, ACP, PLAN_ENTRY, GObject)

const char           *acp_plan_entry_get_content  (AcpPlanEntry *self);
AcpPlanEntryPriority  acp_plan_entry_get_priority (AcpPlanEntry *self);
AcpPlanEntryStatus    acp_plan_entry_get_status   (AcpPlanEntry *self);

G_END_DECLS
