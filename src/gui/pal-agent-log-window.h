/* pal-agent-log-window.h: an agent's traffic and stderr, live
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-agent.h"

G_BEGIN_DECLS

#define PAL_TYPE_AGENT_LOG_WINDOW (pal_agent_log_window_get_type ())

G_DECLARE_FINAL_TYPE (PalAgentLogWindow, pal_agent_log_window, PAL, AGENT_LOG_WINDOW, AdwWindow)

GtkWidget *pal_agent_log_window_new         (AcpAgent          *agent,
                                             const char        *agent_name);
AcpAgent  *pal_agent_log_window_get_agent   (PalAgentLogWindow *self);
/* The entries shown, after the filter. (transfer none) */
GListModel *pal_agent_log_window_get_shown  (PalAgentLogWindow *self);
void       pal_agent_log_window_set_filter  (PalAgentLogWindow *self,
                                             const char        *text);
/* The selected entry as the detail pane shows it (pretty JSON), or NULL.
 * (transfer full) */
char      *pal_agent_log_window_dup_detail  (PalAgentLogWindow *self);
void       pal_agent_log_window_select      (PalAgentLogWindow *self,
                                             guint              position);

/* Every entry of @log as JSON Lines. (transfer full) */
GBytes    *pal_agent_log_to_json_lines      (GListModel        *entries);

G_END_DECLS
