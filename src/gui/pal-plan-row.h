/* pal-plan-row.h: the agent's plan: a checklist, Markdown text or a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-plan-item.h"

G_BEGIN_DECLS

#define PAL_TYPE_PLAN_ROW (pal_plan_row_get_type ())

G_DECLARE_FINAL_TYPE (PalPlanRow, pal_plan_row, PAL, PLAN_ROW, AdwBin)

GtkWidget *pal_plan_row_new (AcpPlanItem *item);

G_END_DECLS
