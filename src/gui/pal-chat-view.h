/* pal-chat-view.h: the transcript of a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-pacer.h"
#include "acp-terminal-service.h"

G_BEGIN_DECLS

#define PAL_TYPE_CHAT_VIEW (pal_chat_view_get_type ())

G_DECLARE_FINAL_TYPE (PalChatView, pal_chat_view, PAL, CHAT_VIEW, AdwBin)

GtkWidget  *pal_chat_view_new                (void);
GListModel *pal_chat_view_get_model          (PalChatView *self);
void        pal_chat_view_set_model          (PalChatView *self,
                                              GListModel  *model);
gboolean    pal_chat_view_get_stick_to_bottom (PalChatView *self);
/* pal-chat-place.c: the item at the top of the view (its position in the
 * transcript, -1 when none), and going to one */
int         pal_chat_view_get_top_item       (PalChatView *self);
void        pal_chat_view_scroll_to_item     (PalChatView *self,
                                              guint        position,
                                              gboolean     highlight);
gpointer    pal_chat_view_get_highlighted    (PalChatView *self);
void        pal_chat_view_scroll_to_bottom   (PalChatView *self);
/* pal-chat-keys.c */
gboolean    pal_chat_view_focus_last         (PalChatView *self);
gboolean    pal_chat_view_focus_item         (PalChatView *self,
                                              gpointer     item);
void        pal_chat_view_prompt_sent        (PalChatView *self);
void        pal_chat_view_begin_flood        (PalChatView *self);
void        pal_chat_view_end_flood          (PalChatView *self);
gboolean    pal_chat_view_get_caught_up      (PalChatView *self);
void        pal_chat_view_set_folder   (PalChatView        *self,
                                        const char         *folder);
void        pal_chat_view_set_terminal_service (PalChatView        *self,
                                                AcpTerminalService *service);
/* Where the frames painted are reported: the pacer of the connections whose
 * messages the view shows (NULL: nowhere) */
void        pal_chat_view_set_pacer          (PalChatView *self,
                                              AcpPacer    *pacer);
AcpPacer   *pal_chat_view_get_pacer          (PalChatView *self);

/* pal-chat-find.c */
void        pal_chat_view_reveal             (PalChatView *self,
                                              guint        position,
                                              gsize        offset,
                                              const char  *needle);
void        pal_chat_view_clear_reveal       (PalChatView *self);
GtkWidget  *pal_chat_view_get_revealed       (PalChatView *self);

/* A test sets the clock that tells when text reached a block (see
 * pal_block_model_set_clock()), before setting the model. */
void        pal_chat_view_set_block_clock (PalChatView *self,
                                           gint64     (*clock) (void));

G_END_DECLS
