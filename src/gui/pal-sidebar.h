/* pal-sidebar.h: the sessions, grouped by folder, with search
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-agent-store.h"
#include "pal-session-row.h"
#include "pal-session-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_SIDEBAR (pal_sidebar_get_type ())

G_DECLARE_FINAL_TYPE (PalSidebar, pal_sidebar, PAL, SIDEBAR, AdwBin)

GtkWidget *pal_sidebar_new             (PalSessionStore     *session_store,
                                        PalAgentStore       *agent_store);
void       pal_sidebar_set_live_sessions (PalSidebar        *self,
                                          GListModel        *live_sessions);
void       pal_sidebar_set_can_func    (PalSidebar            *self,
                                        PalSessionMenuCanFunc  func,
                                        gpointer               user_data);
void       pal_sidebar_select          (PalSidebar          *self,
                                        PalSessionKey       *key);
gboolean   pal_sidebar_activate_adjacent (PalSidebar        *self,
                                          int                step);
void       pal_sidebar_focus_search    (PalSidebar          *self);
void       pal_sidebar_set_search_text (PalSidebar          *self,
                                        const char          *text);
guint      pal_sidebar_get_n_shown     (PalSidebar          *self);
PalSessionRow *pal_sidebar_get_row     (PalSidebar          *self,
                                        PalSessionKey       *key);

G_END_DECLS
