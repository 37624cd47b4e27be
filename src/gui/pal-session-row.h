/* pal-session-row.h: one session in the sidebar
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-live-session.h"
#include "pal-session-menu.h"
#include "pal-session-record.h"

G_BEGIN_DECLS

#define PAL_TYPE_SESSION_ROW (pal_session_row_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionRow, pal_session_row, PAL, SESSION_ROW, GtkWidget)

GtkWidget        *pal_session_row_new            (void);
PalSessionRecord *pal_session_row_get_record     (PalSessionRow    *self);
void              pal_session_row_set_record     (PalSessionRow    *self,
                                                  PalSessionRecord *record,
                                                  const char       *agent_name);
PalLiveSession   *pal_session_row_get_live_session (PalSessionRow  *self);
void              pal_session_row_set_live_session (PalSessionRow  *self,
                                                    PalLiveSession *live);
PalSessionState   pal_session_row_get_state      (PalSessionRow    *self);
void              pal_session_row_update_time    (PalSessionRow    *self,
                                                  gint64            now);
const char       *pal_describe_session_state     (PalSessionState   state);
char             *pal_format_relative_time       (gint64            then,
                                                  gint64            now);
char             *pal_format_session_folder      (PalSessionRecord *record);
char             *pal_describe_session_folders   (PalSessionRecord *record);
gboolean          pal_session_row_popup_menu     (PalSessionRow         *self);
void              pal_session_row_set_can_func   (PalSessionRow         *self,
                                                  PalSessionMenuCanFunc  func,
                                                  gpointer               user_data);

G_END_DECLS
