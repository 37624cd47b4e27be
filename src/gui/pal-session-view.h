/* pal-session-view.h: one session: its transcript, its composer, its status
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-message-item.h"
#include "acp-pacer.h"
#include "acp-permission-item.h"
#include "acp-session.h"
#include "acp-terminal-service.h"
#include "pal-prompt.h"
#include "pal-prompt-queue.h"

G_BEGIN_DECLS

#define PAL_TYPE_SESSION_VIEW (pal_session_view_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionView, pal_session_view, PAL, SESSION_VIEW, AdwBin)

GtkWidget  *pal_session_view_new          (void);
AcpSession *pal_session_view_get_session  (PalSessionView *self);
void        pal_session_view_set_session  (PalSessionView *self,
                                           AcpSession     *session);
/* The history kept of the session, shown until it is open (nullable) */
void        pal_session_view_set_history  (PalSessionView *self,
                                           AcpTranscript  *history);
/* The history while it is on screen, else NULL */
AcpTranscript *pal_session_view_get_history (PalSessionView *self);
gboolean    pal_session_view_stop         (PalSessionView *self);
gboolean    pal_session_view_send_prompt  (PalSessionView *self,
                                           AcpSession     *session,
                                           PalPrompt      *prompt);
void        pal_session_view_set_starting (PalSessionView *self,
                                           gboolean        holding);
gboolean    pal_session_view_get_starting (PalSessionView *self);
void        pal_session_view_pause_start  (PalSessionView *self);
void        pal_session_view_focus_composer (PalSessionView *self);
AcpPermissionItem *pal_session_view_get_pending_permission (PalSessionView *self);
gboolean    pal_session_view_answer_permission (PalSessionView *self,
                                                guint           index);
GtkWidget  *pal_session_view_get_composer (PalSessionView *self);
AcpMessageItem *pal_session_view_get_resend_prompt (PalSessionView *self);
GtkWidget  *pal_session_view_get_chat_view (PalSessionView *self);
void        pal_session_view_set_terminal_service (PalSessionView     *self,
                                                   AcpTerminalService *service);
/* The pacer of the agents' connections: the transcript reports its frames
 * to it. */
void        pal_session_view_set_pacer    (PalSessionView *self,
                                           AcpPacer       *pacer);
/* The queue of the session shown: prompts written while a turn runs wait
 * there (nullable) */
void        pal_session_view_set_queue    (PalSessionView *self,
                                           PalPromptQueue *queue);
PalPromptQueue *pal_session_view_get_queue (PalSessionView *self);
GtkWidget  *pal_session_view_get_queue_view (PalSessionView *self);

G_END_DECLS
