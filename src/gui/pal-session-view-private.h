/* pal-session-view-private.h: what the files of the session view share
 *
 * pal-session-view.c         the view: the session or its history, the
 *                            states, the progress, the permission focus
 * pal-session-view-prompt.c  what the person sends: prompts to the
 *                            session, held for a start, queued, and what
 *                            a turn's end says; the options they change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-chat-view.h"
#include "pal-composer.h"
#include "pal-prompt-queue-view.h"
#include "pal-session-view.h"

G_BEGIN_DECLS

struct _PalSessionView
{
  AdwBin          parent_instance;

  AcpSession     *session;
  AcpTranscript  *history;        /* kept of the session, shown until it is open */
  gboolean        opened;         /* the session was open: its transcript is the one */
  GCancellable   *cancellable;
  GBindingGroup  *bindings;       /* the session's lists and usage, to the widgets */

  PalChatView    *chat_view;
  PalComposer    *composer;
  PalPromptQueue *queue;          /* (nullable): the session's queue */
  PalPromptQueueView *queue_view;
  GtkRevealer    *progress_revealer;
  GtkLabel       *progress_label;
  GtkProgressBar *progress_bar;
  GtkLabel       *usage_label;
  GtkWidget      *empty_hint;
  /* a new session on its way: the composer takes a prompt for it already */
  gboolean        starting;
  GtkWidget      *starting_page;
  GtkSpinner     *starting_spinner;
  gboolean        holding;        /* a prompt waits for the start */
  gboolean        start_paused;   /* the start waits for the person (a sign-in) */
  GtkRevealer    *stopping_revealer;
  GtkLabel       *stopping_label;
  GtkWidget      *stop_agent_button;
  guint           stop_agent_offer_id;
  int             waiting;        /* Waiting: what the agent is waited for */
  guint           waiting_count;  /* the replay count when the wait began */
  guint           progress_id;   /* the replay counter waits until then to change */
  gboolean        progress_due;  /* and has changed since it was shown */
  gboolean        was_loading;
  AcpMessageItem *last_prompt;   /* (nullable): the transcript's last user message */
  AcpPermissionItem *focus_permission; /* (nullable): a request whose row is to take the focus */
  guint           focus_permission_tick;
  guint           focus_permission_frames;
  guint           last_prompt_position;
  AcpMessageItem *resend_prompt; /* (nullable): it, while the agent can be asked */
};

enum {
  PROMPT_HELD,
  REOPEN_REQUESTED,
  SIGN_IN_REQUESTED,
  TURN_ENDED,
  N_SIGNALS
};

extern guint _pal_session_view_signals[N_SIGNALS];

/* pal-session-view.c */
void _pal_session_view_update_state     (PalSessionView *self);

/* pal-session-view-prompt.c */
void _pal_session_view_connect_prompts  (PalSessionView *self);

G_END_DECLS
