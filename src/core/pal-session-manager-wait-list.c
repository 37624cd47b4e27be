/* pal-session-manager-wait-list.c: callers waiting for one shared operation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An agent start or the opening of a session is shared by whoever needs it
 * while it runs: each caller's task waits in a PalWaitList and gets the
 * operation's result, or leaves alone when its own cancellable fires. The
 * operation itself is called off once nobody waits for it any more.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-session-manager-private.h"

typedef struct
{
  PalWaitList *list;
  GTask       *task;
  GSource     *source;
} Waiter;

static void
waiter_drop_source (Waiter *waiter)
{
  if (waiter->source == NULL)
    return;

  g_source_destroy (waiter->source);
  g_clear_pointer (&waiter->source, g_source_unref);
}

static void
waiter_free (gpointer data)
{
  Waiter *waiter = data;

  waiter_drop_source (waiter);
  g_clear_object (&waiter->task);
  g_free (waiter);
}

static gboolean
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  Waiter *waiter = user_data;
  PalWaitList *list = waiter->list;
  g_autoptr(GTask) task = g_steal_pointer (&waiter->task);
  g_autoptr(GCancellable) shared = NULL;

  /* frees the waiter and destroys this source (allowed from its callback) */
  g_ptr_array_remove (list->waiters, waiter);

  if (list->waiters->len == 0 && list->cancellable != NULL)
    shared = g_object_ref (list->cancellable);

  /* The list may be gone once the shared operation hears of the cancel or
   * the task's callback runs: it is not touched after this point. */
  if (shared != NULL)
    g_cancellable_cancel (shared);

  if (!g_task_return_error_if_cancelled (task))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "%s", _("The operation was cancelled"));

  return G_SOURCE_REMOVE;
}

void
_pal_wait_list_init (PalWaitList *list)
{
  list->waiters = g_ptr_array_new_with_free_func (waiter_free);
  list->cancellable = g_cancellable_new ();
}

void
_pal_wait_list_clear (PalWaitList *list,
                      const GError *error)
{
  if (list->waiters == NULL)
    return;

  if (error != NULL)
    _pal_wait_list_return_error (list, error);
  g_clear_pointer (&list->waiters, g_ptr_array_unref);
  g_clear_object (&list->cancellable);
}

void
_pal_wait_list_add (PalWaitList *list,
                    GTask       *task)
{
  Waiter *waiter;
  GCancellable *cancellable;

  g_assert (list->waiters != NULL);
  g_assert (G_IS_TASK (task));

  waiter = g_new0 (Waiter, 1);
  waiter->list = list;
  waiter->task = g_object_ref (task);

  cancellable = g_task_get_cancellable (task);
  if (cancellable != NULL)
    {
      waiter->source = g_cancellable_source_new (cancellable);
      g_source_set_static_name (waiter->source, "[pal] session manager waiter");
      g_source_set_callback (waiter->source, G_SOURCE_FUNC (waiter_cancelled_cb), waiter, NULL);
      g_source_attach (waiter->source, g_task_get_context (task));
    }

  g_ptr_array_add (list->waiters, waiter);
}

gboolean
_pal_wait_list_is_empty (PalWaitList *list)
{
  return list->waiters == NULL || list->waiters->len == 0;
}

/* Takes the waiters out of the list first: a task's callback may add new
 * waiters or free the list. */
static GPtrArray *
steal_waiters (PalWaitList *list)
{
  GPtrArray *waiters = list->waiters;

  list->waiters = g_ptr_array_new_with_free_func (waiter_free);
  for (guint i = 0; i < waiters->len; i++)
    waiter_drop_source (g_ptr_array_index (waiters, i));

  return waiters;
}

void
_pal_wait_list_return_object (PalWaitList *list,
                              gpointer     object)
{
  g_autoptr(GPtrArray) waiters = NULL;

  g_assert (G_IS_OBJECT (object));

  if (list->waiters == NULL)
    return;

  waiters = steal_waiters (list);
  for (guint i = 0; i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);
      g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

      g_task_return_pointer (task, g_object_ref (object), g_object_unref);
    }
}

void
_pal_wait_list_return_error (PalWaitList  *list,
                             const GError *error)
{
  g_autoptr(GPtrArray) waiters = NULL;

  g_assert (error != NULL);

  if (list->waiters == NULL)
    return;

  waiters = steal_waiters (list);
  for (guint i = 0; i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);
      g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

      g_task_return_error (task, g_error_copy (error));
    }
}

