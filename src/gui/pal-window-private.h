/* pal-window-private.h: what pal-window.c and pal-window-actions.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-session-view.h"
#include "pal-sidebar.h"
#include "pal-window.h"

G_BEGIN_DECLS

struct _PalWindow
{
  AdwApplicationWindow  parent_instance;

  PalSessionManager    *manager;
  GSettings            *settings;
  GCancellable         *cancellable;
  PalSessionKey        *current;
  PalSessionRecord     *current_record;   /* its record, watched for renames */
  GHashTable           *last_states;   /* session id → PalSessionState, for notifications */
  GHashTable           *drafts;        /* session id → what the person wrote and did not send */
  /* file access outside the folders: one dialog, the rest waiting */
  GQueue                access_queue;  /* AcpFsAccessRequest, owned */
  GtkWidget            *access_dialog;
  GtkWidget            *access_waiting;
  char                 *signed_in_agent;   /* the agent the person last signed in to, */
  gint64                signed_in_at;      /* and when (monotonic) */
  guint                 notifications_watch[2];
  gboolean              notifications_owned[2];

  /* template children */
  AdwToastOverlay      *toast_overlay;
  GtkPaned             *paned;
  AdwBin               *sidebar_bin;
  AdwWindowTitle       *window_title;
  GtkLabel             *state_label;
  GtkMenuButton        *session_menu_button;
  GtkMenuButton        *main_menu_button;
  GtkStack             *content_stack;
  PalSessionView       *session_view;

  PalSidebar           *sidebar;
  AdwStatusPage        *error_page;
  GtkLabel             *error_details;
  GtkExpander          *error_expander;
  GtkWidget            *error_agent_button;
  GtkWidget            *error_log_button;
  char                 *error_agent_id;
  /* the Attempt of the new session being started, owned by its call */
  gpointer              starting_attempt;
};

void     _pal_window_class_init_actions (GtkWidgetClass *widget_class);
void     _pal_window_refresh_listed     (PalWindow      *self,
                                         const char     *agent_id,
                                         const char     *folder);
gboolean _pal_window_show_agent_log     (PalWindow      *self,
                                         PalSessionKey  *key);
void     _pal_window_present_agent_log  (PalWindow      *self,
                                         AcpAgent       *agent,
                                         const char     *agent_name);
/* Stops the agent a new session waits for, and the start. */
void     _pal_window_stop_starting_agent (PalWindow     *self);
/* Cancels what is in flight for the window (a new session starting). */
void     _pal_window_cancel_start       (PalWindow      *self);
void     _pal_window_update_actions     (PalWindow      *self);
gboolean _pal_window_can                (PalSessionKey  *key,
                                         const char     *action,
                                         char          **reason,
                                         gpointer        user_data);
void     _pal_window_show_error         (PalWindow      *self,
                                         const char     *title,
                                         const char     *agent_id,
                                         const GError   *error);
void     _pal_window_handle_error       (PalWindow      *self,
                                         PalSessionKey  *key,
                                         const char     *agent_id,
                                         const char     *folder,
                                         const char     *title,
                                         const GError   *error);
void     _pal_window_show_session       (PalWindow      *self,
                                         PalSessionKey  *key);
void     _pal_window_resume_session     (PalWindow      *self,
                                         PalSessionKey  *key);

G_END_DECLS
