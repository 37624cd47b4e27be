/* pal-preferences-window.h: agent profiles and MCP servers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "pal-agent-editor.h"
#include "pal-agent-store.h"
#include "pal-mcp-import-dialog.h"
#include "pal-mcp-server-editor.h"
#include "pal-mcp-server-store.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_PREFERENCES_WINDOW (pal_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (PalPreferencesWindow, pal_preferences_window, PAL, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

PalPreferencesWindow *pal_preferences_window_new           (PalAgentStore        *agent_store,
                                                            PalMcpServerStore    *mcp_server_store,
                                                            SoupSession          *session);
PalAgentStore        *pal_preferences_window_get_agent_store (PalPreferencesWindow *self);
/* pal-preferences-window-history.c: the History page shows only with a
 * store; store: (nullable) */
void                  pal_preferences_window_set_transcript_store (PalPreferencesWindow *self,
                                                                   PalTranscriptStore   *store);
/* Asks whether to delete all history (and does); returns the dialog */
AdwMessageDialog     *pal_preferences_window_delete_all_history (PalPreferencesWindow *self);
PalMcpServerStore    *pal_preferences_window_get_mcp_server_store (PalPreferencesWindow *self);

/* What the actions of the window do, for other windows and tests. Each
 * shows its dialog transient for the window and returns it (transfer none). */
PalAgentEditor       *pal_preferences_window_edit_agent    (PalPreferencesWindow *self,
                                                            PalAgentProfile      *profile);
PalMcpServerEditor   *pal_preferences_window_edit_server   (PalPreferencesWindow *self,
                                                            PalMcpServerConfig   *config);
PalMcpImportDialog   *pal_preferences_window_import        (PalPreferencesWindow *self);
/* Removes @config and shows a toast whose Undo puts it back where it was.
 * Returns: (transfer full): the toast */
AdwToast             *pal_preferences_window_remove_server (PalPreferencesWindow *self,
                                                            PalMcpServerConfig   *config);

G_END_DECLS
