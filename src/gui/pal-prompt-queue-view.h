/* pal-prompt-queue-view.h: the prompts queued in a session, above the composer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-prompt-queue.h"

G_BEGIN_DECLS

#define PAL_TYPE_PROMPT_QUEUE_VIEW (pal_prompt_queue_view_get_type ())

G_DECLARE_FINAL_TYPE (PalPromptQueueView, pal_prompt_queue_view, PAL, PROMPT_QUEUE_VIEW, AdwBin)

GtkWidget      *pal_prompt_queue_view_new        (void);
PalPromptQueue *pal_prompt_queue_view_get_queue  (PalPromptQueueView *self);
void            pal_prompt_queue_view_set_queue  (PalPromptQueueView *self,
                                                  PalPromptQueue     *queue);
/* Says @text above the queue until it changes (NULL: what the queue does) */
void            pal_prompt_queue_view_set_notice (PalPromptQueueView *self,
                                                  const char         *text);
/* What the line above the entries says */
const char     *pal_prompt_queue_view_get_status (PalPromptQueueView *self);

G_END_DECLS
