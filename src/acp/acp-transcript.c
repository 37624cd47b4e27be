/* acp-transcript.c: the items of one session, as a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-generic-item.h"
#include "acp-plan-item.h"
#include "acp-transcript.h"
#include "acp-update-private.h"
#include "acp-values-private.h"

/**
 * AcpTranscript:
 *
 * The transcript of a session: a #GListModel of #AcpItem objects, and the
 * reducer that turns `session/update` notifications into items.
 *
 * New items are batched. acp_transcript_append() queues; the queue is shown
 * with a single #GListModel::items-changed from an idle source that runs
 * before GTK draws the next frame, or at once by acp_transcript_flush().
 * get_n_items() and get_item() see only shown items, consistently with the
 * signals; the lookups the reducer uses see queued items too. A list view
 * pays O(n) per items-changed, so this keeps a replay of 100,000 updates
 * linear.
 *
 * Streaming into an item changes that item (a notification or
 * #AcpMessageItem::text-appended), never the list. Streamed text is batched
 * too: it is in the item's text at once, and announced with one
 * text-appended per message at the flush. An agent sending 200,000 chunks a
 * few bytes each makes a few hundred announcements, not 200,000.
 */
/* What a transcript of the later part of a history looked for and did not
 * find: the items an earlier part would have given it (see
 * acp_transcript_keep_gaps()) */
typedef struct
{
  GHashTable *tool_calls;   /* toolCallIds */
  GHashTable *plans;        /* planIds */
  GHashTable *compactions;  /* compactionIds */
  /* until its first user message, which starts a turn: what a chunk and a
   * plan would have continued */
  GHashTable *messages;     /* messageIds */
  guint       last_roles;   /* 1 << AcpMessageRole of a chunk without an id, at the start */
  gboolean    plan;         /* a `plan` with no current plan */
  gboolean    user_seen;
} Gaps;

static Gaps *
gaps_new (void)
{
  Gaps *gaps = g_new0 (Gaps, 1);

  gaps->tool_calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gaps->plans = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gaps->compactions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gaps->messages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  return gaps;
}

static void
gaps_free (Gaps *gaps)
{
  g_hash_table_unref (gaps->tool_calls);
  g_hash_table_unref (gaps->plans);
  g_hash_table_unref (gaps->compactions);
  g_hash_table_unref (gaps->messages);
  g_free (gaps);
}

static void
gap (GHashTable *ids,
     const char *id)
{
  if (id != NULL && !g_hash_table_contains (ids, id))
    g_hash_table_add (ids, g_strdup (id));
}

struct _AcpTranscript
{
  GObject      parent_instance;

  GPtrArray   *items;        /* shown (AcpItem) */
  GPtrArray   *pending;      /* queued (AcpItem) */
  GPtrArray   *unannounced;  /* messages with text not announced yet (AcpMessageItem) */
  GPtrArray   *spare_pending;     /* (nullable): empty, with room, for the next batch */
  GPtrArray   *spare_unannounced; /* (nullable): likewise */
  guint        flush_id;
  gboolean     flush_by_hand; /* filled on another thread: no flush from an idle */

  GHashTable  *tool_calls;   /* toolCallId (the item's own) → AcpToolCallItem */
  GHashTable  *unsettled;    /* set of AcpToolCallItem not known to be finished */
  GHashTable  *messages;     /* messageId → AcpMessageItem */
  GHashTable  *compactions;  /* compactionId → AcpNoticeItem */
  AcpPlanItem *current_plan; /* the plan item `plan` updates replace */
  GHashTable  *plans;        /* planId → AcpPlanItem not removed */

  Gaps        *gaps;         /* (nullable): see acp_transcript_keep_gaps() */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AcpTranscript, acp_transcript, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* --- GListModel --- */

static GType
acp_transcript_get_item_type (GListModel *model)
{
  return ACP_TYPE_ITEM;
}

static guint
acp_transcript_get_n_items (GListModel *model)
{
  AcpTranscript *self = ACP_TRANSCRIPT (model);

  return self->items->len;
}

static gpointer
acp_transcript_get_item (GListModel *model,
                         guint       position)
{
  AcpTranscript *self = ACP_TRANSCRIPT (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = acp_transcript_get_item_type;
  iface->get_n_items = acp_transcript_get_n_items;
  iface->get_item = acp_transcript_get_item;
}

/* --- GObject --- */

static void
acp_transcript_dispose (GObject *object)
{
  AcpTranscript *self = (AcpTranscript *)object;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  g_hash_table_remove_all (self->tool_calls);
  g_hash_table_remove_all (self->unsettled);
  g_hash_table_remove_all (self->messages);
  g_hash_table_remove_all (self->compactions);
  g_hash_table_remove_all (self->plans);
  g_clear_object (&self->current_plan);
  g_ptr_array_set_size (self->pending, 0);
  g_ptr_array_set_size (self->unannounced, 0);
  g_ptr_array_set_size (self->items, 0);

  G_OBJECT_CLASS (acp_transcript_parent_class)->dispose (object);
}

static void
acp_transcript_finalize (GObject *object)
{
  AcpTranscript *self = (AcpTranscript *)object;

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->unannounced, g_ptr_array_unref);
  g_clear_pointer (&self->spare_pending, g_ptr_array_unref);
  g_clear_pointer (&self->spare_unannounced, g_ptr_array_unref);
  g_clear_pointer (&self->tool_calls, g_hash_table_unref);
  g_clear_pointer (&self->unsettled, g_hash_table_unref);
  g_clear_pointer (&self->messages, g_hash_table_unref);
  g_clear_pointer (&self->compactions, g_hash_table_unref);
  g_clear_pointer (&self->plans, g_hash_table_unref);
  g_clear_pointer (&self->gaps, gaps_free);

  G_OBJECT_CLASS (acp_transcript_parent_class)->finalize (object);
}

static void
acp_transcript_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AcpTranscript *self = ACP_TRANSCRIPT (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_transcript_class_init (AcpTranscriptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = acp_transcript_dispose;
  object_class->finalize = acp_transcript_finalize;
  object_class->get_property = acp_transcript_get_property;

  /**
   * AcpTranscript:n-items:
   *
   * The number of shown items, as get_n_items() reports it.
   */
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL,
                       0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_transcript_init (AcpTranscript *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->unannounced = g_ptr_array_new_with_free_func (g_object_unref);
  self->tool_calls = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->unsettled = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->messages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->compactions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->plans = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * acp_transcript_new:
 *
 * Returns: (transfer full): an empty transcript
 */
AcpTranscript *
acp_transcript_new (void)
{
  return g_object_new (ACP_TYPE_TRANSCRIPT, NULL);
}

/* --- batching --- */

static gboolean
flush_idle_cb (gpointer user_data)
{
  AcpTranscript *self = user_data;

  self->flush_id = 0;
  acp_transcript_flush (self);

  return G_SOURCE_REMOVE;
}

/* The queues are taken whole at a flush (handlers may queue again) and used
 * again once emptied, rather than made anew: a new array growing past 128
 * items makes a large allocation, and for that glibc first merges every
 * small chunk freed since the last one, thousands after a batch of parsed
 * messages was freed (a few percent of a replay). */
static GPtrArray *
take_spare (GPtrArray **spare)
{
  if (*spare != NULL)
    return g_steal_pointer (spare);

  return g_ptr_array_new_with_free_func (g_object_unref);
}

/* @array: (transfer full): emptied */
static void
keep_spare (GPtrArray **spare,
            GPtrArray  *array)
{
  if (*spare == NULL)
    *spare = array;
  else
    g_ptr_array_unref (array);
}

/**
 * acp_transcript_flush:
 * @self: an #AcpTranscript
 *
 * Shows every queued item, with one #GListModel::items-changed, then
 * announces the text streamed into messages since the last flush, one
 * #AcpMessageItem::text-appended per message. Nothing happens when nothing
 * is queued.
 */
void
acp_transcript_flush (AcpTranscript *self)
{
  guint position;

  g_return_if_fail (ACP_IS_TRANSCRIPT (self));

  g_clear_handle_id (&self->flush_id, g_source_remove);

  if (self->pending->len > 0)
    {
      GPtrArray *batch = self->pending;

      self->pending = take_spare (&self->spare_pending);

      /* the references move to the items */
      position = self->items->len;
      g_ptr_array_extend (self->items, batch, NULL, NULL);
      g_ptr_array_set_free_func (batch, NULL);
      g_ptr_array_set_size (batch, 0);
      g_ptr_array_set_free_func (batch, g_object_unref);
      keep_spare (&self->spare_pending, batch);

      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, self->items->len - position);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }

  /* then the text streamed into messages, once per message */
  if (self->unannounced->len > 0)
    {
      g_autoptr(AcpTranscript) hold = g_object_ref (self);  /* for its handlers */
      GPtrArray *messages = self->unannounced;

      self->unannounced = take_spare (&self->spare_unannounced);
      for (guint i = 0; i < messages->len; i++)
        acp_message_item_announce (g_ptr_array_index (messages, i));
      g_ptr_array_set_size (messages, 0);
      keep_spare (&self->spare_unannounced, messages);
    }
}

static void
queue_flush (AcpTranscript *self)
{
  if (self->flush_by_hand)
    return;

  if (self->flush_id == 0)
    {
      self->flush_id = g_idle_add_full (ACP_TRANSCRIPT_FLUSH_PRIORITY, flush_idle_cb, self, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->flush_id),
                                "[acp] transcript flush");
    }
}

/**
 * acp_transcript_set_flush_on_idle:
 * @self: an #AcpTranscript
 * @on_idle: whether queued items are shown from an idle source (the
 *   default), or only by acp_transcript_flush()
 *
 * The idle source belongs to the main context: a transcript filled on
 * another thread (a history read back, say, with no one watching it yet)
 * is set not to flush on idle there, flushed by hand, and handed to the
 * main thread, which sets it back.
 */
void
acp_transcript_set_flush_on_idle (AcpTranscript *self,
                                  gboolean       on_idle)
{
  g_return_if_fail (ACP_IS_TRANSCRIPT (self));

  self->flush_by_hand = !on_idle;
  if (self->flush_by_hand)
    g_clear_handle_id (&self->flush_id, g_source_remove);
  else if (self->pending->len > 0 || self->unannounced->len > 0)
    queue_flush (self);
}

/**
 * acp_transcript_get_n_pending:
 * @self: an #AcpTranscript
 *
 * Returns: how many items are queued and not shown yet
 */
guint
acp_transcript_get_n_pending (AcpTranscript *self)
{
  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), 0);

  return self->pending->len;
}

/* Turns end by stopping what did not finish: the few tool calls that may
 * still run are kept apart, so that this is not a walk over a history of a
 * million of them. */
static void
track_unsettled (AcpTranscript   *self,
                 AcpToolCallItem *item)
{
  if (acp_tool_call_item_is_finished (item) || acp_tool_call_item_get_stopped (item))
    g_hash_table_remove (self->unsettled, item);
  else if (!g_hash_table_contains (self->unsettled, item))
    g_hash_table_add (self->unsettled, g_object_ref (item));
}

static void
index_item (AcpTranscript *self,
            AcpItem       *item)
{
  if (ACP_IS_TOOL_CALL_ITEM (item))
    {
      const char *id = acp_tool_call_item_get_tool_call_id (ACP_TOOL_CALL_ITEM (item));

      if (id != NULL && !g_hash_table_contains (self->tool_calls, id))
        g_hash_table_insert (self->tool_calls, (gpointer) id, g_object_ref (item));
      track_unsettled (self, ACP_TOOL_CALL_ITEM (item));
    }
  else if (ACP_IS_MESSAGE_ITEM (item))
    {
      AcpMessageItem *message = ACP_MESSAGE_ITEM (item);
      const char *id = acp_message_item_get_message_id (message);

      /* A new prompt is a new turn: a message id of an earlier turn seen
       * again (an agent that numbers its messages per turn) is a new
       * message, not more of an old one. So is a plan. */
      if (acp_message_item_get_role (message) == ACP_MESSAGE_ROLE_USER)
        {
          g_hash_table_remove_all (self->messages);
          g_clear_object (&self->current_plan);
          if (self->gaps != NULL)
            self->gaps->user_seen = TRUE;
        }

      if (id != NULL)
        g_hash_table_replace (self->messages, g_strdup (id), g_object_ref (item));
    }
}

/**
 * acp_transcript_append:
 * @self: an #AcpTranscript
 * @item: the item to add; a reference is taken
 *
 * Queues @item at the end. It is shown at the next flush: from an idle
 * source of priority %ACP_TRANSCRIPT_FLUSH_PRIORITY, or
 * acp_transcript_flush().
 */
void
acp_transcript_append (AcpTranscript *self,
                       AcpItem       *item)
{
  g_return_if_fail (ACP_IS_TRANSCRIPT (self));
  g_return_if_fail (ACP_IS_ITEM (item));

  g_ptr_array_add (self->pending, g_object_ref (item));
  index_item (self, item);
  queue_flush (self);
}

/**
 * acp_transcript_clear:
 * @self: an #AcpTranscript
 *
 * Removes every item, shown or queued, with one items-changed.
 */
void
acp_transcript_clear (AcpTranscript *self)
{
  guint n;

  g_return_if_fail (ACP_IS_TRANSCRIPT (self));

  g_clear_handle_id (&self->flush_id, g_source_remove);
  g_hash_table_remove_all (self->tool_calls);
  g_hash_table_remove_all (self->unsettled);
  g_hash_table_remove_all (self->messages);
  g_hash_table_remove_all (self->compactions);
  g_hash_table_remove_all (self->plans);
  g_clear_object (&self->current_plan);
  g_ptr_array_set_size (self->pending, 0);

  n = self->items->len;
  if (n == 0)
    return;

  g_ptr_array_set_size (self->items, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* --- a history read from its end --- */

/**
 * acp_transcript_keep_gaps:
 * @self: an empty #AcpTranscript
 *
 * Makes @self the later part of a history, shown before its earlier part is
 * read: from here on, it keeps what its updates looked for and did not find
 * (a tool call, a plan, a compaction of an id; until its first user
 * message, a message of an id, a message to continue, a current plan), so
 * that acp_transcript_can_follow() tells whether the earlier part, once
 * read, holds any of it. Start the later part at a user message: a turn
 * rarely reaches into an earlier one.
 */
void
acp_transcript_keep_gaps (AcpTranscript *self)
{
  g_return_if_fail (ACP_IS_TRANSCRIPT (self));
  g_return_if_fail (self->gaps == NULL);

  self->gaps = gaps_new ();
}

static gboolean
holds_any (GHashTable *table,
           GHashTable *ids)
{
  GHashTableIter iter;
  gpointer id;

  g_hash_table_iter_init (&iter, ids);
  while (g_hash_table_iter_next (&iter, &id, NULL))
    {
      if (g_hash_table_contains (table, id))
        return TRUE;
    }

  return FALSE;
}

/**
 * acp_transcript_can_follow:
 * @self: the later part of a history (see acp_transcript_keep_gaps())
 * @earlier: its earlier part, built on its own
 *
 * Returns: whether the items of @self are what its updates would have
 *   made after those of @earlier (none of them reached into an item of
 *   @earlier), so that acp_transcript_prepend() gives the transcript the
 *   whole history would have made
 */
gboolean
acp_transcript_can_follow (AcpTranscript *self,
                           AcpTranscript *earlier)
{
  AcpItem *last;

  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), FALSE);
  g_return_val_if_fail (ACP_IS_TRANSCRIPT (earlier), FALSE);

  if (self->gaps == NULL)
    return FALSE;

  last = acp_transcript_peek_last (earlier);
  if (last != NULL && ACP_IS_MESSAGE_ITEM (last) &&
      (self->gaps->last_roles & (1u << acp_message_item_get_role (ACP_MESSAGE_ITEM (last)))) != 0)
    return FALSE;
  if (self->gaps->plan && earlier->current_plan != NULL)
    return FALSE;

  return !holds_any (earlier->tool_calls, self->gaps->tool_calls) &&
         !holds_any (earlier->plans, self->gaps->plans) &&
         !holds_any (earlier->compactions, self->gaps->compactions) &&
         !holds_any (earlier->messages, self->gaps->messages);
}

/* Adds what @from holds and @to does not; the values are referenced
 * objects */
static void
add_missing (GHashTable *to,
             GHashTable *from,
             gboolean    copy_keys)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, from);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (!g_hash_table_contains (to, key))
        g_hash_table_insert (to, copy_keys ? g_strdup (key) : key,
                             value != NULL ? g_object_ref (value) : NULL);
    }
}

/**
 * acp_transcript_prepend:
 * @self: an #AcpTranscript
 * @earlier: the items before those of @self; emptied
 *
 * Moves every item of @earlier (queued ones too) before the items of
 * @self, with one #GListModel::items-changed at position 0, and takes
 * what its reducer keeps of them: later updates reach them as if they had
 * been applied to @self. Check with acp_transcript_can_follow() first.
 * @self keeps no gaps from here on.
 */
void
acp_transcript_prepend (AcpTranscript *self,
                        AcpTranscript *earlier)
{
  GHashTableIter iter;
  gpointer item;
  guint n;

  g_return_if_fail (ACP_IS_TRANSCRIPT (self));
  g_return_if_fail (ACP_IS_TRANSCRIPT (earlier));
  g_return_if_fail (self != earlier);

  acp_transcript_flush (earlier);
  g_clear_handle_id (&earlier->flush_id, g_source_remove);

  add_missing (self->tool_calls, earlier->tool_calls, FALSE);
  add_missing (self->plans, earlier->plans, TRUE);
  add_missing (self->compactions, earlier->compactions, TRUE);
  g_hash_table_iter_init (&iter, earlier->unsettled);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    {
      if (!g_hash_table_contains (self->unsettled, item))
        g_hash_table_add (self->unsettled, g_object_ref (item));
    }
  /* a turn of @self started since: what the earlier turn had is over */
  if (self->gaps == NULL || !self->gaps->user_seen)
    {
      add_missing (self->messages, earlier->messages, TRUE);
      if (self->current_plan == NULL && earlier->current_plan != NULL)
        self->current_plan = g_object_ref (earlier->current_plan);
    }
  g_clear_pointer (&self->gaps, gaps_free);

  /* the references move */
  n = earlier->items->len;
  if (n == 0)
    return;
  g_ptr_array_set_free_func (earlier->items, NULL);
  g_ptr_array_extend_and_steal (earlier->items, g_steal_pointer (&self->items));
  self->items = g_steal_pointer (&earlier->items);
  g_ptr_array_set_free_func (self->items, g_object_unref);
  earlier->items = g_ptr_array_new_with_free_func (g_object_unref);
  acp_transcript_clear (earlier);
  g_list_model_items_changed (G_LIST_MODEL (earlier), 0, n, 0);
  g_object_notify_by_pspec (G_OBJECT (earlier), properties[PROP_N_ITEMS]);

  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, n);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/**
 * acp_transcript_peek_last:
 * @self: an #AcpTranscript
 *
 * Returns: (transfer none) (nullable): the last item, queued or shown
 */
AcpItem *
acp_transcript_peek_last (AcpTranscript *self)
{
  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), NULL);

  if (self->pending->len > 0)
    return g_ptr_array_index (self->pending, self->pending->len - 1);
  if (self->items->len > 0)
    return g_ptr_array_index (self->items, self->items->len - 1);

  return NULL;
}

/**
 * acp_transcript_lookup_tool_call:
 * @self: an #AcpTranscript
 * @tool_call_id: a toolCallId
 *
 * Returns: (transfer none) (nullable): the tool call of that id, queued or
 *   shown
 */
AcpToolCallItem *
acp_transcript_lookup_tool_call (AcpTranscript *self,
                                 const char    *tool_call_id)
{
  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (tool_call_id != NULL, NULL);

  return g_hash_table_lookup (self->tool_calls, tool_call_id);
}

/**
 * acp_transcript_lookup_message:
 * @self: an #AcpTranscript
 * @message_id: a messageId
 *
 * Returns: (transfer none) (nullable): the latest message of that id, queued
 *   or shown
 */
AcpMessageItem *
acp_transcript_lookup_message (AcpTranscript *self,
                               const char    *message_id)
{
  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (message_id != NULL, NULL);

  return g_hash_table_lookup (self->messages, message_id);
}

/**
 * acp_transcript_stop_tool_calls:
 * @self: an #AcpTranscript
 *
 * Marks every tool call the agent did not report finished as stopped (see
 * acp_tool_call_item_stop()): called when a turn is over, is cancelled or
 * the agent is gone, and when a replayed history is complete, so that
 * nothing shows as running when nothing runs.
 */
void
acp_transcript_stop_tool_calls (AcpTranscript *self)
{
  GHashTableIter iter;
  gpointer item;

  g_return_if_fail (ACP_IS_TRANSCRIPT (self));

  g_hash_table_iter_init (&iter, self->unsettled);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    acp_tool_call_item_stop (item);
  g_hash_table_remove_all (self->unsettled);
}

/**
 * acp_transcript_append_notice:
 * @self: an #AcpTranscript
 * @severity: how serious it is
 * @title: a short summary
 * @body: (nullable): more text
 * @details: (nullable): technical details, such as an agent's stderr tail
 *
 * Returns: (transfer none): the queued notice
 */
AcpNoticeItem *
acp_transcript_append_notice (AcpTranscript     *self,
                              AcpNoticeSeverity  severity,
                              const char        *title,
                              const char        *body,
                              const char        *details)
{
  g_autoptr(AcpNoticeItem) notice = NULL;

  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), NULL);

  notice = acp_notice_item_new (severity, title, body, details);
  acp_transcript_append (self, ACP_ITEM (notice));

  return notice;
}

/* --- tool calls --- */

static AcpToolCallItem *
merge_tool_call (AcpTranscript           *self,
                 const AcpToolCallFields *fields)
{
  AcpToolCallItem *item = g_hash_table_lookup (self->tool_calls, fields->tool_call_id);

  if (item == NULL)
    {
      g_autoptr(AcpToolCallItem) created = acp_tool_call_item_new (fields->tool_call_id);

      if (self->gaps != NULL)
        gap (self->gaps->tool_calls, fields->tool_call_id);

      acp_transcript_append (self, ACP_ITEM (created));
      item = created;
    }

  _acp_tool_call_item_merge (item, fields);
  track_unsettled (self, item);

  return item;
}

/**
 * acp_transcript_merge_tool_call:
 * @self: an #AcpTranscript
 * @tool_call: a ToolCall or ToolCallUpdate object
 * @error: return location for an error
 *
 * Applies the fields present in @tool_call to the tool call item of its
 * `toolCallId`, creating (and queuing) the item if it is not known yet: an
 * update or a permission request may come before the `tool_call` itself.
 * `content` and `locations` replace whole lists; absent or null fields
 * change nothing; an unknown kind becomes "other"; an unknown status is
 * ignored; invalid list elements are skipped. What `_meta` says of the
 * agent's own terminals goes to acp_tool_call_item_apply_meta().
 *
 * Returns: (transfer none) (nullable): the tool call item, or %NULL with
 *   %ACP_ERROR_INVALID_MESSAGE if @tool_call is malformed (nothing changed)
 */
AcpToolCallItem *
acp_transcript_merge_tool_call (AcpTranscript  *self,
                                JsonObject     *tool_call,
                                GError        **error)
{
  g_autoptr(AcpJsonDoc) doc = NULL;
  g_autoptr(JsonNode) node = NULL;
  AcpToolCallFields fields = { 0 };
  AcpToolCallItem *item;

  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (tool_call != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  doc = acp_json_doc_new ();
  node = json_node_init_object (json_node_alloc (), tool_call);
  if (!_acp_tool_call_fields_parse (&fields, doc, acp_json_doc_load (doc, node), "toolCall", error))
    return NULL;
  item = merge_tool_call (self, &fields);
  _acp_tool_call_fields_clear (&fields);

  return item;
}

/* tool_call and tool_call_update */
gboolean
_acp_transcript_apply_tool_call (AcpTranscript  *self,
                                 AcpUpdate      *update,
                                 GError        **error)
{
  merge_tool_call (self, &update->tool_call);
  return TRUE;
}

/* --- messages --- */

static AcpMessageItem *
find_message (AcpTranscript  *self,
              AcpMessageRole  role,
              const char     *message_id)
{
  AcpItem *last;

  if (message_id != NULL)
    {
      AcpMessageItem *message = g_hash_table_lookup (self->messages, message_id);

      if (message != NULL && acp_message_item_get_role (message) == role)
        return message;
      if (message == NULL && self->gaps != NULL && !self->gaps->user_seen)
        gap (self->gaps->messages, message_id);
      return NULL;
    }

  /* No id: chunks of one message come one after the other. */
  last = acp_transcript_peek_last (self);
  if (last == NULL && self->gaps != NULL && !self->gaps->user_seen)
    self->gaps->last_roles |= 1u << role;
  if (last != NULL && ACP_IS_MESSAGE_ITEM (last) &&
      acp_message_item_get_role (ACP_MESSAGE_ITEM (last)) == role)
    return ACP_MESSAGE_ITEM (last);

  return NULL;
}

/* user_message_chunk, agent_message_chunk, agent_thought_chunk (the role
 * is the variant's data): appended to the message of the same `messageId`
 * and role, or without an id to the last item if it is a message of the
 * same role, else to a new message. Text is appended; other blocks become
 * attachments; an empty text chunk changes nothing. */
gboolean
_acp_transcript_apply_chunk (AcpTranscript  *self,
                             AcpUpdate      *update,
                             GError        **error)
{
  AcpMessageRole role = update->variant->data;
  AcpMessageItem *message;

  /* Empty chunks (agents send them) create nothing. */
  if (update->text != NULL && update->text->len == 0)
    return TRUE;

  message = find_message (self, role, update->id);
  if (message == NULL)
    {
      g_autoptr(AcpMessageItem) created = acp_message_item_new (role, update->id);

      acp_transcript_append (self, ACP_ITEM (created));
      message = created;
    }

  if (update->text != NULL)
    {
      /* announced at the flush, with the rest of the batch */
      if (!g_ptr_array_find (self->unannounced, message, NULL))
        g_ptr_array_add (self->unannounced, g_object_ref (message));
      acp_message_item_append_text_quietly (message, update->text->str,
                                            (gssize) update->text->len);
      queue_flush (self);
    }
  else
    {
      acp_message_item_add_attachment (message, update->block);
    }

  return TRUE;
}

static void
append_blocks (AcpMessageItem *message,
               JsonArray      *blocks)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), blocks);
  g_autoptr(GString) text = g_string_new (NULL);
  const AcpJsonValue *value = acp_json_value_get_first (doc, acp_json_doc_load (doc, node));

  for (; value != NULL; value = acp_json_value_get_next (doc, value))
    {
      g_autoptr(AcpContentBlock) block = _acp_content_block_new_from_json (doc, value, NULL);

      if (block == NULL)
        continue;
      if (acp_content_block_get_block_type (block) == ACP_CONTENT_BLOCK_TYPE_TEXT)
        g_string_append (text, acp_content_block_get_text (block));
      else
        acp_message_item_add_attachment (message, block);
    }

  acp_message_item_set_text (message, text->str);
}

/**
 * acp_transcript_append_prompt:
 * @self: an #AcpTranscript
 * @prompt: the ContentBlock objects of a prompt
 *
 * Queues a new USER message for a prompt the person sent. Text blocks are
 * concatenated into its text, the other blocks become attachments; blocks
 * of a wrong shape are left out.
 *
 * Returns: (transfer none): the new message
 */
AcpMessageItem *
acp_transcript_append_prompt (AcpTranscript *self,
                              JsonArray     *prompt)
{
  g_autoptr(AcpMessageItem) message = NULL;

  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), NULL);
  g_return_val_if_fail (prompt != NULL, NULL);

  message = acp_message_item_new (ACP_MESSAGE_ROLE_USER, NULL);
  append_blocks (message, prompt);
  acp_transcript_append (self, ACP_ITEM (message));

  return message;
}

/* --- plans --- */

/* plan: replaces the entries of the current plan item; the first plan
 * after a new user message is a new item. */
gboolean
_acp_transcript_apply_plan (AcpTranscript  *self,
                            AcpUpdate      *update,
                            GError        **error)
{
  if (self->current_plan == NULL)
    {
      if (self->gaps != NULL && !self->gaps->user_seen)
        self->gaps->plan = TRUE;
      self->current_plan = acp_plan_item_new ();
      acp_transcript_append (self, ACP_ITEM (self->current_plan));
    }
  _acp_plan_item_set_entries (self->current_plan, update->entries);

  return TRUE;
}

/* plan_update: the first update of a planId appends its plan item; the
 * next ones replace what it is, in place. */
gboolean
_acp_transcript_apply_plan_update (AcpTranscript  *self,
                                   AcpUpdate      *update,
                                   GError        **error)
{
  AcpPlanItem *plan = g_hash_table_lookup (self->plans, update->id);

  if (plan == NULL)
    {
      if (self->gaps != NULL)
        gap (self->gaps->plans, update->id);
      plan = acp_plan_item_new_with_id (update->id);
      g_hash_table_insert (self->plans, g_strdup (update->id), plan);
      acp_transcript_append (self, ACP_ITEM (plan));
    }

  switch (update->plan_form)
    {
    case ACP_PLAN_FORM_ITEMS:
      _acp_plan_item_set_entries (plan, update->entries);
      break;

    case ACP_PLAN_FORM_MARKDOWN:
      _acp_plan_item_set_markdown (plan, update->text->str);
      break;

    case ACP_PLAN_FORM_FILE:
      _acp_plan_item_set_uri (plan, update->text->str);
      break;

    default:
      g_assert_not_reached ();
    }

  return TRUE;
}

/* plan_removed: the plan item stays in the history, marked removed; a later
 * plan_update of its planId is a new plan. An unknown planId changes
 * nothing. */
gboolean
_acp_transcript_apply_plan_removed (AcpTranscript  *self,
                                    AcpUpdate      *update,
                                    GError        **error)
{
  AcpPlanItem *plan = g_hash_table_lookup (self->plans, update->id);

  if (plan == NULL)
    {
      if (self->gaps != NULL)
        gap (self->gaps->plans, update->id);
      g_debug ("plan_removed of an unknown plan “%s”, ignored", update->id);
      return TRUE;
    }

  _acp_plan_item_set_removed (plan);
  g_hash_table_remove (self->plans, update->id);

  return TRUE;
}

/* --- notices and compactions --- */

/* notice: a notice item */
gboolean
_acp_transcript_apply_notice (AcpTranscript  *self,
                              AcpUpdate      *update,
                              GError        **error)
{
  acp_transcript_append_notice (self, update->severity, update->title, update->description, NULL);

  return TRUE;
}

static AcpNoticeItem *
ensure_compaction (AcpTranscript *self,
                   const char    *compaction_id)
{
  AcpNoticeItem *notice = g_hash_table_lookup (self->compactions, compaction_id);

  if (notice == NULL)
    {
      if (self->gaps != NULL)
        gap (self->gaps->compactions, compaction_id);
      notice = acp_transcript_append_notice (self, ACP_NOTICE_SEVERITY_INFO,
                                             _("Compacting the conversation…"), NULL, NULL);
      g_hash_table_insert (self->compactions, g_strdup (compaction_id), g_object_ref (notice));
    }

  return notice;
}

/* compaction_update and compaction_summary_chunk: one notice item per
 * compactionId, its title following the status and its body the summary */
gboolean
_acp_transcript_apply_compaction_update (AcpTranscript  *self,
                                         AcpUpdate      *update,
                                         GError        **error)
{
  const char *status = update->status;
  AcpNoticeItem *notice;
  AcpNoticeSeverity severity = ACP_NOTICE_SEVERITY_INFO;
  const char *title;

  if (strcmp (status, "in_progress") == 0)
    {
      title = _("Compacting the conversation…");
    }
  else if (strcmp (status, "completed") == 0)
    {
      title = _("Conversation compacted");
    }
  else if (strcmp (status, "failed") == 0)
    {
      title = _("Compacting the conversation failed");
      severity = ACP_NOTICE_SEVERITY_WARNING;
    }
  else if (strcmp (status, "cancelled") == 0)
    {
      title = _("Compacting the conversation was cancelled");
    }
  else
    {
      g_debug ("Unknown compaction status “%s”", status);
      title = NULL;
    }

  notice = ensure_compaction (self, update->id);

  g_object_freeze_notify (G_OBJECT (notice));
  if (title != NULL)
    acp_notice_item_set_title (notice, title);
  acp_notice_item_set_severity (notice, severity);
  if (update->text != NULL)
    acp_notice_item_set_body (notice, update->text->str);
  if (update->description != NULL)
    acp_notice_item_set_details (notice, update->description);
  g_object_thaw_notify (G_OBJECT (notice));

  return TRUE;
}

gboolean
_acp_transcript_apply_compaction_summary_chunk (AcpTranscript  *self,
                                                AcpUpdate      *update,
                                                GError        **error)
{
  AcpNoticeItem *notice = ensure_compaction (self, update->id);

  if (update->text != NULL && update->text->len > 0)
    {
      g_autofree char *body = g_strconcat (acp_notice_item_get_body (notice) != NULL
                                             ? acp_notice_item_get_body (notice) : "",
                                           update->text->str, NULL);

      acp_notice_item_set_body (notice, body);
    }

  return TRUE;
}

/* --- the reducer --- */

gboolean
_acp_transcript_apply (AcpTranscript  *self,
                       AcpUpdate      *update,
                       GError        **error)
{
  if (update->error != NULL)
    {
      g_propagate_error (error, g_error_copy (update->error));
      return FALSE;
    }

  if (update->variant != NULL && update->variant->apply_transcript != NULL)
    return update->variant->apply_transcript (self, update, error);
  if (update->variant != NULL)
    return TRUE;

  {
    g_autoptr(AcpGenericItem) generic = acp_generic_item_new (update->kind, update->object);

    acp_transcript_append (self, ACP_ITEM (generic));
  }

  return TRUE;
}

/**
 * acp_transcript_apply:
 * @self: an #AcpTranscript
 * @update: an update taken apart (from #AcpAgent::update, or read back with
 *   acp_update_new_from_json())
 * @error: return location for an error
 *
 * Applies @update as acp_transcript_apply_update() applies its object: a
 * history kept elsewhere is shown this way without an #AcpSession.
 * Session-level variants change nothing.
 *
 * Returns: %FALSE with %ACP_ERROR_INVALID_MESSAGE if @update is malformed;
 *   nothing changed then
 */
gboolean
acp_transcript_apply (AcpTranscript  *self,
                      AcpUpdate      *update,
                      GError        **error)
{
  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), FALSE);
  g_return_val_if_fail (update != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return _acp_transcript_apply (self, update, error);
}

/**
 * acp_transcript_apply_update:
 * @self: an #AcpTranscript
 * @update: the `update` member of a `session/update` notification
 * @error: return location for an error
 *
 * Applies one update with the handler of its variant (the table in
 * acp-update-variants.c). Session-level variants are accepted and change
 * nothing here; a variant missing from the table becomes an
 * #AcpGenericItem, so that nothing is lost.
 *
 * A malformed update of a known variant (a required member missing, a
 * member of the wrong type) fails and changes nothing.
 *
 * Returns: %FALSE with %ACP_ERROR_INVALID_MESSAGE if @update is malformed
 */
gboolean
acp_transcript_apply_update (AcpTranscript  *self,
                             JsonObject     *update,
                             GError        **error)
{
  g_autoptr(AcpUpdate) taken = NULL;

  g_return_val_if_fail (ACP_IS_TRANSCRIPT (self), FALSE);
  g_return_val_if_fail (update != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  taken = acp_update_new (NULL, update);
  return _acp_transcript_apply (self, taken, error);
}
