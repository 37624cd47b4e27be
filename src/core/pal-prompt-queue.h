/* pal-prompt-queue.h: prompts written while the agent works, sent one by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pal-prompt.h"

G_BEGIN_DECLS

#define PAL_TYPE_PROMPT_QUEUE (pal_prompt_queue_get_type ())

G_DECLARE_FINAL_TYPE (PalPromptQueue, pal_prompt_queue, PAL, PROMPT_QUEUE, GObject)

PalPromptQueue *pal_prompt_queue_new                (void);
/* At the end, or back where the entry being edited was */
void            pal_prompt_queue_add                (PalPromptQueue *self,
                                                     PalPrompt      *prompt);
/* At the front: a prompt that could not go out after all */
void            pal_prompt_queue_put_back           (PalPromptQueue *self,
                                                     PalPrompt      *prompt);
void            pal_prompt_queue_remove             (PalPromptQueue *self,
                                                     guint           position);
void            pal_prompt_queue_move               (PalPromptQueue *self,
                                                     guint           from,
                                                     guint           to);
/* Takes the entry out to be edited; its place is kept (transfer full) */
PalPrompt      *pal_prompt_queue_take_for_edit      (PalPromptQueue *self,
                                                     guint           position);
gboolean        pal_prompt_queue_get_editing        (PalPromptQueue *self);
/* The entry goes first, and out at the next chance, whatever the end of
 * the turn that runs */
void            pal_prompt_queue_send_now           (PalPromptQueue *self,
                                                     guint           position);
gboolean        pal_prompt_queue_get_sending_now    (PalPromptQueue *self);
/* Why the queue waits for the person, or NULL */
const char     *pal_prompt_queue_get_waiting_reason (PalPromptQueue *self);
void            pal_prompt_queue_wait               (PalPromptQueue *self,
                                                     const char     *reason);
/* Stops waiting, for an error or for an entry being edited */
void            pal_prompt_queue_go_on              (PalPromptQueue *self);
/* The entry to send now that the agent is free, taken out; NULL when there
 * is none or the queue waits (transfer full) */
PalPrompt      *pal_prompt_queue_next               (PalPromptQueue *self);
/* A turn ended, well (@failure NULL) or not (@failure says how): the entry
 * to send now, if any (transfer full) */
PalPrompt      *pal_prompt_queue_turn_ended         (PalPromptQueue *self,
                                                     const char     *failure);

G_END_DECLS
