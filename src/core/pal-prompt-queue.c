/* pal-prompt-queue.c: prompts written while the agent works, sent one by one
 *
 * A session's queue: a list model of the PalPrompt entries the person wrote
 * while a turn ran, in the order they go out. Whoever drives it asks, at the
 * end of each turn (pal_prompt_queue_turn_ended()) or when the agent is free
 * (pal_prompt_queue_next()), for the entry to send; the queue gives none
 * while it waits:
 *
 * - for the person, after a turn that did not end well (an error, a
 *   refusal, a stop): "waiting-reason" says why, until
 *   pal_prompt_queue_go_on();
 * - for an entry taken out to be edited ("editing"): it comes back to its
 *   place with the next pal_prompt_queue_add().
 *
 * An entry to be sent now ("sending-now") goes first and out at the next
 * chance, whatever ended the turn (its end is what was asked for) and even
 * while the queue waits; the queue still waits afterwards.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-prompt-queue.h"

struct _PalPromptQueue
{
  GObject    parent_instance;

  GPtrArray *prompts;        /* PalPrompt, owned */
  char      *waiting_reason;
  gboolean   editing;
  guint      edit_position;  /* where the entry being edited goes back */
  gboolean   sending_now;    /* the first entry goes out at the next chance */
};

enum {
  PROP_0,
  PROP_WAITING_REASON,
  PROP_EDITING,
  PROP_SENDING_NOW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PalPromptQueue, pal_prompt_queue, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return PAL_TYPE_PROMPT;
}

static guint
get_n_items (GListModel *model)
{
  return PAL_PROMPT_QUEUE (model)->prompts->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  PalPromptQueue *self = PAL_PROMPT_QUEUE (model);

  if (position >= self->prompts->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->prompts, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
set_editing (PalPromptQueue *self,
             gboolean        editing)
{
  if (self->editing == editing)
    return;

  self->editing = editing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITING]);
}

static void
set_sending_now (PalPromptQueue *self,
                 gboolean        sending_now)
{
  if (self->sending_now == sending_now)
    return;

  self->sending_now = sending_now;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SENDING_NOW]);
}

static void
set_waiting_reason (PalPromptQueue *self,
                    const char     *reason)
{
  if (g_strcmp0 (self->waiting_reason, reason) == 0)
    return;

  g_free (self->waiting_reason);
  self->waiting_reason = g_strdup (reason);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WAITING_REASON]);
}

/* An empty queue has nothing to wait with */
static void
forget_waiting_when_empty (PalPromptQueue *self)
{
  if (self->prompts->len == 0 && !self->editing)
    set_waiting_reason (self, NULL);
}

static void
insert (PalPromptQueue *self,
        guint           position,
        PalPrompt      *prompt)
{
  g_ptr_array_insert (self->prompts, (int) position, g_object_ref (prompt));
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);
}

static PalPrompt *
take (PalPromptQueue *self,
      guint           position)
{
  PalPrompt *prompt = g_ptr_array_steal_index (self->prompts, position);

  /* the entry to send now is the first: anything that moves it ends that */
  if (position == 0)
    set_sending_now (self, FALSE);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);

  return prompt;
}

static void
pal_prompt_queue_finalize (GObject *object)
{
  PalPromptQueue *self = PAL_PROMPT_QUEUE (object);

  g_ptr_array_unref (self->prompts);
  g_free (self->waiting_reason);

  G_OBJECT_CLASS (pal_prompt_queue_parent_class)->finalize (object);
}

static void
pal_prompt_queue_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PalPromptQueue *self = PAL_PROMPT_QUEUE (object);

  switch (prop_id)
    {
    case PROP_WAITING_REASON:
      g_value_set_string (value, self->waiting_reason);
      break;

    case PROP_EDITING:
      g_value_set_boolean (value, self->editing);
      break;

    case PROP_SENDING_NOW:
      g_value_set_boolean (value, self->sending_now);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_prompt_queue_class_init (PalPromptQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pal_prompt_queue_finalize;
  object_class->get_property = pal_prompt_queue_get_property;

  properties[PROP_WAITING_REASON] =
    g_param_spec_string ("waiting-reason", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_EDITING] =
    g_param_spec_boolean ("editing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SENDING_NOW] =
    g_param_spec_boolean ("sending-now", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_prompt_queue_init (PalPromptQueue *self)
{
  self->prompts = g_ptr_array_new_with_free_func (g_object_unref);
}

PalPromptQueue *
pal_prompt_queue_new (void)
{
  return g_object_new (PAL_TYPE_PROMPT_QUEUE, NULL);
}

/**
 * pal_prompt_queue_add:
 * @self: a #PalPromptQueue
 * @prompt: a prompt written while the agent works
 *
 * Queues @prompt at the end; while an entry is edited, @prompt is that
 * entry back, and takes its place.
 */
void
pal_prompt_queue_add (PalPromptQueue *self,
                      PalPrompt      *prompt)
{
  guint position;

  g_return_if_fail (PAL_IS_PROMPT_QUEUE (self));
  g_return_if_fail (PAL_IS_PROMPT (prompt));

  position = self->editing ? MIN (self->edit_position, self->prompts->len) : self->prompts->len;
  /* the entry to send now stays the first */
  if (position == 0 && self->sending_now)
    position = 1;
  set_editing (self, FALSE);
  insert (self, position, prompt);
}

/**
 * pal_prompt_queue_put_back:
 * @self: a #PalPromptQueue
 * @prompt: an entry that was taken to be sent and could not be
 *
 * Puts @prompt first again.
 */
void
pal_prompt_queue_put_back (PalPromptQueue *self,
                           PalPrompt      *prompt)
{
  g_return_if_fail (PAL_IS_PROMPT_QUEUE (self));
  g_return_if_fail (PAL_IS_PROMPT (prompt));

  insert (self, 0, prompt);
}

void
pal_prompt_queue_remove (PalPromptQueue *self,
                         guint           position)
{
  g_autoptr(PalPrompt) prompt = NULL;

  g_return_if_fail (PAL_IS_PROMPT_QUEUE (self));
  g_return_if_fail (position < self->prompts->len);

  prompt = take (self, position);
  if (self->editing && self->edit_position > position)
    self->edit_position--;
  forget_waiting_when_empty (self);
}

/**
 * pal_prompt_queue_move:
 * @self: a #PalPromptQueue
 * @from: the position of an entry
 * @to: its new position, counted after it left @from
 */
void
pal_prompt_queue_move (PalPromptQueue *self,
                       guint           from,
                       guint           to)
{
  g_autoptr(PalPrompt) prompt = NULL;

  g_return_if_fail (PAL_IS_PROMPT_QUEUE (self));
  g_return_if_fail (from < self->prompts->len);
  g_return_if_fail (to < self->prompts->len);

  if (from == to)
    return;

  prompt = take (self, from);
  insert (self, to, prompt);
}

/**
 * pal_prompt_queue_take_for_edit:
 * @self: a #PalPromptQueue
 * @position: the entry to edit
 *
 * Takes the entry out, to be edited elsewhere; its place is kept, and the
 * queue waits for it: the next pal_prompt_queue_add() puts it back there.
 * Another entry taken for edit meanwhile gives up the first one's place.
 *
 * Returns: (transfer full): the entry
 */
PalPrompt *
pal_prompt_queue_take_for_edit (PalPromptQueue *self,
                                guint           position)
{
  PalPrompt *prompt;

  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE (self), NULL);
  g_return_val_if_fail (position < self->prompts->len, NULL);

  prompt = take (self, position);
  self->edit_position = position;
  set_editing (self, TRUE);

  return prompt;
}

gboolean
pal_prompt_queue_get_editing (PalPromptQueue *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE (self), FALSE);

  return self->editing;
}

/**
 * pal_prompt_queue_send_now:
 * @self: a #PalPromptQueue
 * @position: the entry to send
 *
 * Puts the entry first, to go out at the next chance: once the running
 * turn ended (however it did: stopping it is the caller's), or at once when
 * none runs, even while the queue waits.
 */
void
pal_prompt_queue_send_now (PalPromptQueue *self,
                           guint           position)
{
  g_return_if_fail (PAL_IS_PROMPT_QUEUE (self));
  g_return_if_fail (position < self->prompts->len);

  pal_prompt_queue_move (self, position, 0);
  if (self->editing && self->edit_position <= position)
    self->edit_position++;
  set_sending_now (self, TRUE);
}

gboolean
pal_prompt_queue_get_sending_now (PalPromptQueue *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE (self), FALSE);

  return self->sending_now;
}

const char *
pal_prompt_queue_get_waiting_reason (PalPromptQueue *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE (self), NULL);

  return self->waiting_reason;
}

/**
 * pal_prompt_queue_wait:
 * @self: a #PalPromptQueue
 * @reason: why, for the person
 *
 * Sends nothing more until pal_prompt_queue_go_on(), but the entry to send
 * now. An empty queue does not wait.
 */
void
pal_prompt_queue_wait (PalPromptQueue *self,
                       const char     *reason)
{
  g_return_if_fail (PAL_IS_PROMPT_QUEUE (self));
  g_return_if_fail (reason != NULL);

  if (self->prompts->len == 0 && !self->editing)
    return;

  set_waiting_reason (self, reason);
}

/**
 * pal_prompt_queue_go_on:
 * @self: a #PalPromptQueue
 *
 * Waits no more: for the person, nor for an entry being edited (which,
 * added again, goes to the end).
 */
void
pal_prompt_queue_go_on (PalPromptQueue *self)
{
  g_return_if_fail (PAL_IS_PROMPT_QUEUE (self));

  set_editing (self, FALSE);
  set_waiting_reason (self, NULL);
}

PalPrompt *
pal_prompt_queue_next (PalPromptQueue *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE (self), NULL);

  if (self->prompts->len == 0)
    return NULL;
  if (!self->sending_now && (self->waiting_reason != NULL || self->editing))
    return NULL;

  return take (self, 0);
}

PalPrompt *
pal_prompt_queue_turn_ended (PalPromptQueue *self,
                             const char     *failure)
{
  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE (self), NULL);

  /* a turn stopped for the entry to send now ended as asked */
  if (failure != NULL && !self->sending_now)
    pal_prompt_queue_wait (self, failure);

  return pal_prompt_queue_next (self);
}
