/* pal-window-private.h: what the files of the main window share
 *
 * pal-window.c         the window itself: header, current session, drafts,
 *                      state changes, notifications
 * pal-window-actions.c its actions and their shortcuts
 * pal-window-open.c    opening, resuming and starting sessions
 * pal-window-sign-in.c signing in when an agent asks for it
 * pal-window-error.c   the error page, and what a failure becomes
 * pal-window-access.c  the agent's requests for files outside the folders
 * pal-window-search.c  the search across every session, export, find in the
 *                      session
 * pal-window-history.c past sessions read from the history kept of them
 * pal-window-layout.c  the panes side by side, or folded into one

 * pal-window-queue.c   the queues of prompts of the sessions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-composer.h"
#include "pal-find-bar.h"
#include "pal-session-history.h"
#include "pal-session-view.h"
#include "pal-transcript-export.h"
#include "pal-sidebar.h"
#include "pal-window.h"

G_BEGIN_DECLS

/* An open or a start of a session, with what it takes to try it again:
 * after a sign-in, or from Retry on the error page (pal-window-open.c). */
typedef struct
{
  PalWindow     *self;
  PalSessionKey *key;             /* NULL for a new session */
  char          *agent_id;
  char          *folder;
  GStrv          mcp_servers;
  GStrv          additional_dirs;
  PalPrompt     *prompt;          /* to send once the session is open, or signed in */
} Attempt;

struct _PalWindow
{
  AdwApplicationWindow  parent_instance;

  PalSessionManager    *manager;
  GSettings            *settings;
  GCancellable         *cancellable;
  PalSessionKey        *current;
  PalSessionRecord     *current_record;   /* its record, watched for renames */
  /* its live session, if it is live: the header's state is bound to it
   * (live_bindings), the actions and the view follow it (live_signals) */
  GBindingGroup        *live_bindings;
  GSignalGroup         *live_signals;
  GHashTable           *last_states;   /* session key → PalSessionState, for notifications */
  GHashTable           *drafts;        /* session id → what the person wrote and did not send */
  GHashTable           *started;       /* keys of the sessions started here, this run */

  GHashTable           *queues;        /* session key → PalPromptQueue (pal-window-queue.c) */
  /* file access outside the folders: one dialog, the rest waiting */
  GQueue                access_queue;  /* AcpFsAccessRequest, owned */
  GtkWidget            *access_dialog;
  GtkWidget            *access_waiting;
  char                 *signed_in_agent;   /* the agent the person last signed in to, */
  gint64                signed_in_at;      /* and when (monotonic) */
  int                   sidebar_width;  /* beside the content, unfolded */
  int                   drag_start_width;
  guint                 notifications_watch[2];
  gboolean              notifications_owned[2];

  /* template children */
  AdwToastOverlay      *toast_overlay;
  AdwLeaflet           *leaflet;        /* folds into one pane when narrow */
  AdwBin               *sidebar_pane;
  GtkWidget            *sidebar_handle;
  GtkWidget            *back_button;
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
  /* what Retry on the error page tries again, owned */
  Attempt              *retry_attempt;
  /* the new session being started, owned by its call */
  Attempt              *starting_attempt;

  /* the stored history (pal-window-search.c) */
  PalTranscriptStore   *transcript_store;  /* nullable */
  GtkWidget            *history_search;    /* the search window, once made (weak) */
  PalFindBar           *find_bar;
  /* the history of the current session on screen, and its load in flight
   * (pal-window-history.c) */
  PalSessionHistory    *history;
  GCancellable         *history_cancellable;
  guint                 history_target;  /* an entry to go to once the history is complete */
};

/* pal-window.c */
const char  *_pal_window_agent_name         (PalWindow      *self,
                                             const char     *agent_id);
PalComposer *_pal_window_get_composer       (PalWindow      *self);
/* The record of @key in the session list, or NULL. */
PalSessionRecord *_pal_window_lookup_record (PalWindow      *self,
                                             PalSessionKey  *key);
/* Makes @key (nullable) the current session, keeping the draft of the
 * one shown until now; shows nothing yet. */
void         _pal_window_set_current        (PalWindow      *self,
                                             PalSessionKey  *key);
void         _pal_window_update_header      (PalWindow      *self);
void         _pal_window_show_session       (PalWindow      *self,
                                             PalSessionKey  *key);
/* Folded, shows the content (TRUE) or the list of sessions. */
void         _pal_window_navigate           (PalWindow      *self,
                                             gboolean        content);

/* pal-window-layout.c */
void     _pal_window_class_init_layout   (GtkWidgetClass *widget_class);
void     _pal_window_setup_layout        (PalWindow      *self);
int      _pal_window_get_sidebar_width   (PalWindow      *self);
void     _pal_window_set_sidebar_width   (PalWindow      *self,
                                          int             width);

/* pal-window-actions.c */
void     _pal_window_class_init_actions (GtkWidgetClass *widget_class);
void     _pal_window_present_agent_log  (PalWindow      *self,
                                         AcpAgent       *agent,
                                         const char     *agent_name);
void     _pal_window_update_actions     (PalWindow      *self);
gboolean _pal_window_can                (PalSessionKey  *key,
                                         const char     *action,
                                         char          **reason,
                                         gpointer        user_data);

/* pal-window-open.c */
Attempt *_pal_attempt_new                (PalWindow          *self,
                                          PalSessionKey      *key,
                                          const char         *agent_id,
                                          const char         *folder,
                                          const char * const *mcp_servers);
/* An attempt on a stored session, with its agent and folder; NULL when the
 * list has no such session. */
Attempt *_pal_attempt_for_session        (PalWindow          *self,
                                          PalSessionKey      *key,
                                          PalPrompt          *prompt);
void     _pal_attempt_free               (Attempt            *attempt);
/* The running agent the attempt needs, or NULL. */
AcpAgent *_pal_attempt_lookup_agent      (Attempt            *attempt);
/* Tries @attempt (taken) again: opens its session or starts it anew. */
void     _pal_attempt_retry              (Attempt            *attempt);
/* Puts the prompt that could not go out back where it was written. */
void     _pal_attempt_give_back_prompt   (Attempt            *attempt);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Attempt, _pal_attempt_free)

void     _pal_window_setup_open          (PalWindow      *self);
void     _pal_window_refresh_listed      (PalWindow      *self,
                                          const char     *agent_id,
                                          const char     *folder);
void     _pal_window_resume_session      (PalWindow      *self,
                                          PalSessionKey  *key);
/* Stops the agent a new session waits for, and the start. */
void     _pal_window_stop_starting_agent (PalWindow      *self);
/* Cancels what is in flight for the window (a new session starting). */
void     _pal_window_cancel_start        (PalWindow      *self);

/* pal-window-sign-in.c */
void     _pal_window_setup_sign_in       (PalWindow      *self);
/* Asks the person to sign in to the agent of @attempt (taken), then tries
 * it again. */
void     _pal_window_sign_in             (PalWindow      *self,
                                          Attempt        *attempt);
/* Whether the agent asks for a sign-in again just after one. */
gboolean _pal_window_sign_in_did_not_take (PalWindow     *self,
                                           const char    *agent_id);

/* pal-window-error.c */
void     _pal_window_build_error_page    (PalWindow      *self);
void     _pal_window_show_error          (PalWindow      *self,
                                          const char     *title,
                                          const char     *agent_id,
                                          const GError   *error);
/* The error page, whose Retry tries @attempt (taken) again. */
void     _pal_window_show_retry_error    (PalWindow      *self,
                                          const char     *title,
                                          Attempt        *attempt,
                                          const GError   *error);
void     _pal_window_handle_error        (PalWindow      *self,
                                          PalSessionKey  *key,
                                          const char     *agent_id,
                                          const char     *folder,
                                          const char     *title,
                                          const GError   *error);

/* pal-window-access.c */
void     _pal_window_setup_file_access   (PalWindow      *self);

/* pal-window-search.c */
void     _pal_window_class_init_search   (GtkWidgetClass *widget_class);
void     _pal_window_setup_search        (PalWindow      *self);
void     _pal_window_dispose_search      (PalWindow      *self);
/* Export… of a session's menu: asks where to, and in which format */
void     _pal_window_export_session      (PalWindow        *self,
                                          PalSessionKey    *key,
                                          PalSessionRecord *record);
void     _pal_window_export_to_file      (PalWindow           *self,
                                          PalSessionKey       *key,
                                          PalTranscriptFormat  format,
                                          GFile               *file);

/* pal-window-history.c */
void     _pal_window_setup_history       (PalWindow      *self);
void     _pal_window_dispose_history     (PalWindow      *self);
/* Shows a session selected: its history when it is not open */
void     _pal_window_browse_session      (PalWindow      *self,
                                          PalSessionKey  *key);
/* In _pal_window_show_session (): the history of another session goes */
void     _pal_window_history_follow      (PalWindow      *self,
                                          PalSessionKey  *key);
/* A check in a confirmation that a session leaves the list: its history
 * goes too (NULL when the window keeps none) */
GtkCheckButton *_pal_window_history_add_check (PalWindow        *self,
                                               AdwMessageDialog *dialog,
                                               gboolean          active);
void     _pal_window_delete_history      (PalWindow      *self,
                                          PalSessionKey  *key);
gboolean _pal_window_history_show_error  (PalWindow      *self,
                                          PalSessionKey  *key,
                                          const char     *title,
                                          const GError   *error);

/* pal-window-queue.c */
void     _pal_window_setup_queue         (PalWindow      *self);
/* The current session went from @previous to @key (both nullable): the
 * view shows the queue of @key */
void     _pal_window_follow_queue        (PalWindow      *self,
                                          PalSessionKey  *previous,
                                          PalSessionKey  *key);

G_END_DECLS
