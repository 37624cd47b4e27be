/* pal-session-row.h: one session in the sidebar
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-session-menu.h"
#include "pal-session-record.h"

G_BEGIN_DECLS

/* What the sidebar shows about a session's live state. */
typedef enum
{
  PAL_ROW_STATE_NOT_RUNNING,
  PAL_ROW_STATE_STARTING,
  PAL_ROW_STATE_LOADING,
  PAL_ROW_STATE_READY,
  PAL_ROW_STATE_WORKING,
  PAL_ROW_STATE_WAITING,     /* waiting for the person to answer a permission request */
  PAL_ROW_STATE_STOPPING,    /* the turn was stopped; the agent has yet to end it */
  PAL_ROW_STATE_FAILED,
} PalRowState;

#define PAL_TYPE_SESSION_ROW (pal_session_row_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionRow, pal_session_row, PAL, SESSION_ROW, GtkWidget)

GtkWidget        *pal_session_row_new            (void);
PalSessionRecord *pal_session_row_get_record     (PalSessionRow    *self);
void              pal_session_row_set_record     (PalSessionRow    *self,
                                                  PalSessionRecord *record,
                                                  const char       *agent_name);
PalRowState       pal_session_row_get_state      (PalSessionRow    *self);
void              pal_session_row_set_state      (PalSessionRow    *self,
                                                  PalRowState       state);
void              pal_session_row_update_time    (PalSessionRow    *self,
                                                  gint64            now);
const char       *pal_row_state_describe         (PalRowState       state);
char             *pal_format_relative_time       (gint64            then,
                                                  gint64            now);
char             *pal_format_session_folder      (PalSessionRecord *record);
char             *pal_describe_session_folders   (PalSessionRecord *record);
gboolean          pal_session_row_popup_menu     (PalSessionRow         *self);
void              pal_session_row_set_can_func   (PalSessionRow         *self,
                                                  PalSessionMenuCanFunc  func,
                                                  gpointer               user_data);

G_END_DECLS
