/* pal-new-session-dialog.h: choose an agent, folders and MCP servers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-session-manager.h"

G_BEGIN_DECLS

#define PAL_TYPE_NEW_SESSION_DIALOG (pal_new_session_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PalNewSessionDialog, pal_new_session_dialog, PAL, NEW_SESSION_DIALOG, AdwWindow)

PalNewSessionDialog *pal_new_session_dialog_new            (PalSessionManager   *manager,
                                                            const char          *default_agent_id,
                                                            const char          *folder);
const char          *pal_new_session_dialog_get_agent_id   (PalNewSessionDialog *self);
void                 pal_new_session_dialog_set_agent_id   (PalNewSessionDialog *self,
                                                            const char          *agent_id);
const char          *pal_new_session_dialog_get_folder     (PalNewSessionDialog *self);
void                 pal_new_session_dialog_set_folder     (PalNewSessionDialog *self,
                                                            const char          *folder);
char               **pal_new_session_dialog_dup_mcp_servers (PalNewSessionDialog *self);
void                 pal_new_session_dialog_set_mcp_server_active (PalNewSessionDialog *self,
                                                                   const char          *name,
                                                                   gboolean             active);
gboolean             pal_new_session_dialog_get_offers_folders (PalNewSessionDialog *self);
gboolean             pal_new_session_dialog_get_checking_agent (PalNewSessionDialog *self);
gboolean             pal_new_session_dialog_add_folder     (PalNewSessionDialog *self,
                                                            const char          *folder);
char               **pal_new_session_dialog_dup_additional_folders (PalNewSessionDialog *self);
gboolean             pal_new_session_dialog_start          (PalNewSessionDialog *self);

G_END_DECLS
