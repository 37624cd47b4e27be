/* pal-window.h: the main window: sessions on the left, the chat on the right
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-session-manager.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_WINDOW (pal_window_get_type ())

G_DECLARE_FINAL_TYPE (PalWindow, pal_window, PAL, WINDOW, AdwApplicationWindow)

PalWindow  *pal_window_new              (GtkApplication    *application,
                                         PalSessionManager *manager,
                                         GSettings         *settings);
PalSessionManager *pal_window_get_manager (PalWindow       *self);
PalSessionKey *pal_window_get_current_session (PalWindow   *self);
void        pal_window_open_session     (PalWindow         *self,
                                         PalSessionKey     *key);
void        pal_window_start_session    (PalWindow         *self,
                                         const char        *agent_id,
                                         const char        *folder,
                                         const char * const *mcp_servers);
void        pal_window_start_session_with_prompt (PalWindow  *self,
                                                  const char *agent_id,
                                                  const char *folder,
                                                  const char *prompt);
void        pal_window_show_new_session_dialog (PalWindow  *self);
GtkWidget  *pal_window_get_session_view (PalWindow         *self);
GtkWidget  *pal_window_get_sidebar      (PalWindow         *self);
void        pal_window_add_toast        (PalWindow         *self,
                                         const char        *title);
void        pal_window_set_transcript_store (PalWindow          *self,
                                             PalTranscriptStore *store);
PalTranscriptStore *pal_window_get_transcript_store (PalWindow *self);

G_END_DECLS
