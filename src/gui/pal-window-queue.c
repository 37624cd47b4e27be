/* pal-window-queue.c: the queues of prompts of the sessions
 *
 * A session's queue (PalPromptQueue) belongs to the session, not to what is
 * on screen: the window keeps one per session it showed, gives the session
 * view the queue of the session shown, and at the end of any session's turn
 * sends that session's next entry, whether it is shown or not. A queue
 * left empty goes when the person looks elsewhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-window-private.h"

static void
session_view_turn_ended_cb (PalSessionView *view,
                            AcpSession     *session,
                            const char     *failure,
                            PalWindow      *self)
{
  PalSessionKey *key;
  PalPromptQueue *queue;
  g_autoptr(PalPrompt) next = NULL;

  /* a turn that ends as the window goes (its agent stopped) */
  if (self->manager == NULL)
    return;

  key = pal_session_manager_get_session_key (self->manager, session);
  queue = key != NULL ? g_hash_table_lookup (self->queues, key) : NULL;
  if (queue == NULL)
    return;

  next = pal_prompt_queue_turn_ended (queue, failure);
  /* the person sent one of their own in the meantime: after it, then */
  if (next != NULL && !pal_session_view_send_prompt (view, session, next))
    pal_prompt_queue_put_back (queue, next);
}

static gboolean
queue_is_idle (PalPromptQueue *queue)
{
  return g_list_model_get_n_items (G_LIST_MODEL (queue)) == 0 &&
         !pal_prompt_queue_get_editing (queue);
}

void
_pal_window_follow_queue (PalWindow     *self,
                          PalSessionKey *previous,
                          PalSessionKey *key)
{
  PalPromptQueue *queue = NULL;

  if (previous != NULL)
    {
      PalPromptQueue *left = g_hash_table_lookup (self->queues, previous);

      if (left != NULL && queue_is_idle (left))
        g_hash_table_remove (self->queues, previous);
    }

  if (key != NULL)
    {
      queue = g_hash_table_lookup (self->queues, key);
      if (queue == NULL)
        {
          queue = pal_prompt_queue_new ();
          g_hash_table_insert (self->queues, pal_session_key_ref (key), queue);
        }
    }

  pal_session_view_set_queue (self->session_view, queue);
}

void
_pal_window_setup_queue (PalWindow *self)
{
  self->queues = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                        (GDestroyNotify) pal_session_key_unref, g_object_unref);
  /* a turn can end after the window went: the view is kept alive by the
   * prompt it waits for */
  g_signal_connect_object (self->session_view, "turn-ended", G_CALLBACK (session_view_turn_ended_cb),
                           self, 0);
}
