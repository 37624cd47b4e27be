/* pal-block-model.c: the rows of a transcript, long answers cut into blocks
 *
 * A list view lays out and draws only the rows near its window. An agent's
 * answer of a megabyte in one row would be laid out and drawn whole, at every
 * frame it grows. This model gives the chat view one row per transcript item,
 * except for agent messages: those are cut into blocks of at least
 * @block_size bytes, each a row of its own. Cuts are made only at the points
 * PalMarkdownScanner calls stable (the start of a line after a blank line,
 * outside a code fence): what comes before such a point renders the same
 * whether or not the rest follows, so each block renders as its own
 * document, and only the last block of a growing answer ever changes.
 *
 * A line that goes on and on (an agent writing megabytes without a newline)
 * has no such point: outside a code fence it is cut anyway every
 * PAL_MESSAGE_BLOCK_LONG_LINE bytes, after a space where there is one, so
 * that no row holds more than that of it. The two sides of such a cut show
 * as two paragraphs; in a line that long that reads no worse.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-block-model.h"
#include "pal-markdown.h"

/* ------------------------------------------------------------------------ */
/* PalMessageBlock                                                           */

struct _PalMessageBlock
{
  GObject         parent_instance;

  AcpMessageItem *item;
  guint           index;
  gsize           start;
  gsize           end;
  gint64          arrived;   /* when text last reached it; 0: it was there before */
  gint64        (*clock) (void);  /* that of the model that made it */
};

enum {
  BLOCK_PROP_0,
  BLOCK_PROP_END,
  BLOCK_N_PROPS
};

static GParamSpec *block_properties[BLOCK_N_PROPS];

G_DEFINE_FINAL_TYPE (PalMessageBlock, pal_message_block, G_TYPE_OBJECT)

static void
pal_message_block_finalize (GObject *object)
{
  PalMessageBlock *self = PAL_MESSAGE_BLOCK (object);

  g_clear_object (&self->item);

  G_OBJECT_CLASS (pal_message_block_parent_class)->finalize (object);
}

static void
pal_message_block_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  PalMessageBlock *self = PAL_MESSAGE_BLOCK (object);

  switch (prop_id)
    {
    case BLOCK_PROP_END:
      g_value_set_uint64 (value, self->end);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_message_block_class_init (PalMessageBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pal_message_block_finalize;
  object_class->get_property = pal_message_block_get_property;

  /* changes once, when the block is closed by the next one */
  block_properties[BLOCK_PROP_END] =
    g_param_spec_uint64 ("end", NULL, NULL, 0, G_MAXUINT64, G_MAXUINT64,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, BLOCK_N_PROPS, block_properties);
}

static void
pal_message_block_init (PalMessageBlock *self)
{
  self->end = G_MAXSIZE;
}

static PalMessageBlock *
pal_message_block_new (AcpMessageItem  *item,
                       guint            index,
                       gsize            start,
                       gint64           arrived,
                       gint64         (*clock) (void))
{
  PalMessageBlock *self = g_object_new (PAL_TYPE_MESSAGE_BLOCK, NULL);

  self->item = g_object_ref (item);
  self->index = index;
  self->start = start;
  self->arrived = arrived;
  self->clock = clock;

  return self;
}

AcpMessageItem *
pal_message_block_get_item (PalMessageBlock *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_BLOCK (self), NULL);

  return self->item;
}

guint
pal_message_block_get_index (PalMessageBlock *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_BLOCK (self), 0);

  return self->index;
}

gsize
pal_message_block_get_start (PalMessageBlock *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_BLOCK (self), 0);

  return self->start;
}

/**
 * pal_message_block_get_end:
 * @self: a #PalMessageBlock
 *
 * Returns: where the block ends in its message's text, %G_MAXSIZE for the
 *   last block, which grows with the text
 */
gsize
pal_message_block_get_end (PalMessageBlock *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_BLOCK (self), 0);

  return self->end;
}

/**
 * pal_message_block_is_streaming:
 * @self: a #PalMessageBlock
 *
 * Returns: whether text reached the block in the last
 *   PAL_MESSAGE_BLOCK_STREAMING_US, as it does while an answer streams in;
 *   not when its text was in the transcript before the model saw it
 */
gboolean
pal_message_block_is_streaming (PalMessageBlock *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_BLOCK (self), FALSE);

  return self->arrived != 0 &&
         self->clock () - self->arrived < PAL_MESSAGE_BLOCK_STREAMING_US;
}

/* ------------------------------------------------------------------------ */
/* PalBlockModel                                                             */

/* One item of the transcript. Most are no agent message, and a history
 * may have a million: those get this alone, agent messages a MessageEntry. */
typedef struct
{
  PalBlockModel      *model;     /* not owned */
  GObject            *item;      /* owned */
  GPtrArray          *blocks;    /* (element-type PalMessageBlock) (nullable): agent messages */
} Entry;

typedef struct
{
  Entry               entry;
  PalMarkdownScanner  scanner;
} MessageEntry;

/* the scanner of an agent message's entry */
#define SCANNER(entry) (&((MessageEntry *) (entry))->scanner)

struct _PalBlockModel
{
  GObject     parent_instance;

  GListModel *model;
  gsize       block_size;
  gint64    (*clock) (void);
  GPtrArray  *entries;    /* (element-type Entry) */
  GArray     *first_row;  /* (element-type guint) the first row of each entry */
  guint       n_valid;    /* entries whose first_row is right */
  guint       n_rows;
};

enum {
  PROP_0,
  PROP_MODEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint
entry_n_rows (Entry *entry)
{
  return entry->blocks != NULL ? entry->blocks->len : 1;
}

static void
ensure_first_rows (PalBlockModel *self)
{
  g_array_set_size (self->first_row, self->entries->len);

  for (guint i = self->n_valid; i < self->entries->len; i++)
    {
      guint row = 0;

      if (i > 0)
        row = g_array_index (self->first_row, guint, i - 1) +
              entry_n_rows (g_ptr_array_index (self->entries, i - 1));
      g_array_index (self->first_row, guint, i) = row;
    }

  self->n_valid = self->entries->len;
}

/* The entry holding @row, and the row's place in it */
static Entry *
find_row (PalBlockModel *self,
          guint          row,
          guint         *index)
{
  guint lo = 0, hi;

  ensure_first_rows (self);
  hi = self->entries->len;

  /* the last entry whose first row is at or before @row */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->first_row, guint, mid) <= row)
        lo = mid;
      else
        hi = mid;
    }

  *index = row - g_array_index (self->first_row, guint, lo);
  return g_ptr_array_index (self->entries, lo);
}

static GType
pal_block_model_get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
pal_block_model_get_n_items (GListModel *list)
{
  return PAL_BLOCK_MODEL (list)->n_rows;
}

static gpointer
pal_block_model_get_item (GListModel *list,
                          guint       position)
{
  PalBlockModel *self = PAL_BLOCK_MODEL (list);
  Entry *entry;
  guint index;

  if (position >= self->n_rows)
    return NULL;

  entry = find_row (self, position, &index);
  if (entry->blocks != NULL)
    return g_object_ref (g_ptr_array_index (entry->blocks, index));

  return g_object_ref (entry->item);
}

static void
pal_block_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = pal_block_model_get_item_type;
  iface->get_n_items = pal_block_model_get_n_items;
  iface->get_item = pal_block_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (PalBlockModel, pal_block_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, pal_block_model_list_model_init))

static guint
entry_position (PalBlockModel *self,
                Entry         *entry)
{
  /* the entries that grow are the last ones */
  for (guint i = self->entries->len; i > 1; i--)
    {
      if (g_ptr_array_index (self->entries, i - 1) == entry)
        return i - 1;
    }

  return 0;
}

/* Returns: where to cut the unfinished line the scanner is in, in a block
 * that starts at @start, or 0 when it is not that long (or in a fence) */
static gsize
long_line_cut (const PalMarkdownScanner *scanner,
               const char               *text,
               gsize                     length,
               gsize                     start)
{
  gsize cut = MAX (scanner->scanned, start) + PAL_MESSAGE_BLOCK_LONG_LINE;
  gsize floor = cut - PAL_MESSAGE_BLOCK_LONG_LINE / 4;

  if (scanner->fence_char != 0 || cut >= length)
    return 0;

  for (gsize i = cut; i > floor; i--)
    {
      if (text[i - 1] == ' ')
        return i;
    }

  /* no space near: never in the middle of a character */
  while (cut > floor && (text[cut] & 0xC0) == 0x80)
    cut--;

  return cut;
}

/* Cuts what can be cut of the entry's last block; the blocks added got
 * their text at @arrived. Returns the number of blocks added. */
static guint
cut_blocks (PalBlockModel *self,
            Entry         *entry,
            gint64         arrived)
{
  AcpMessageItem *item = ACP_MESSAGE_ITEM (entry->item);
  const char *text = acp_message_item_get_text (item);
  gsize length = acp_message_item_get_text_length (item);
  guint added = 0;

  for (;;)
    {
      PalMessageBlock *last = g_ptr_array_index (entry->blocks, entry->blocks->len - 1);
      gsize wanted = last->start + self->block_size;
      PalMessageBlock *next;
      gsize cut;

      if (length <= wanted)
        {
          pal_markdown_scanner_feed (SCANNER (entry), text, length);
        }
      else
        {
          /* feed a little at a time, so that the cut comes soon after the
           * size is reached even when a long text arrives at once */
          gsize step = MAX (self->block_size / 4, 1);
          gsize fed = MAX (MAX (SCANNER (entry)->scanned, SCANNER (entry)->searched), wanted);

          while (SCANNER (entry)->stable < wanted && fed < length)
            {
              fed = MIN (fed + step, length);
              pal_markdown_scanner_feed (SCANNER (entry), text, fed);
            }
        }

      if (SCANNER (entry)->stable >= wanted)
        cut = SCANNER (entry)->stable;
      else if ((cut = long_line_cut (SCANNER (entry), text, length, last->start)) == 0)
        break;

      last->end = cut;
      g_object_notify_by_pspec (G_OBJECT (last), block_properties[BLOCK_PROP_END]);

      next = pal_message_block_new (item, entry->blocks->len, cut, arrived, self->clock);
      g_ptr_array_add (entry->blocks, next);
      added++;
    }

  return added;
}

static void
text_appended_cb (AcpMessageItem *item,
                  const char     *chunk,
                  Entry          *entry)
{
  PalBlockModel *self = entry->model;
  guint before = entry->blocks->len;
  gint64 now = self->clock ();
  PalMessageBlock *last = g_ptr_array_index (entry->blocks, before - 1);
  guint added;
  guint position;

  last->arrived = now;
  added = cut_blocks (self, entry, now);
  if (added == 0)
    return;

  position = entry_position (self, entry);
  self->n_valid = MIN (self->n_valid, position + 1);
  self->n_rows += added;
  ensure_first_rows (self);
  g_list_model_items_changed (G_LIST_MODEL (self),
                              g_array_index (self->first_row, guint, position) + before,
                              0, added);
}

static void entry_reset_blocks (PalBlockModel *self,
                                Entry         *entry,
                                gint64         arrived);

static void
notify_text_cb (AcpMessageItem *item,
                GParamSpec     *pspec,
                Entry          *entry)
{
  PalBlockModel *self = entry->model;
  guint before = entry->blocks->len;
  guint position = entry_position (self, entry);
  guint first;

  /* the whole text was replaced: cut it anew */
  ensure_first_rows (self);
  first = g_array_index (self->first_row, guint, position);
  entry_reset_blocks (self, entry, self->clock ());
  self->n_valid = MIN (self->n_valid, position + 1);
  self->n_rows = self->n_rows - before + entry->blocks->len;
  g_list_model_items_changed (G_LIST_MODEL (self), first, before, entry->blocks->len);
}

static void
entry_reset_blocks (PalBlockModel *self,
                    Entry         *entry,
                    gint64         arrived)
{
  g_ptr_array_set_size (entry->blocks, 0);
  pal_markdown_scanner_init (SCANNER (entry));
  g_ptr_array_add (entry->blocks,
                   pal_message_block_new (ACP_MESSAGE_ITEM (entry->item), 0, 0, arrived, self->clock));
  cut_blocks (self, entry, arrived);
}

/* @arrived: when the item came, 0 when it was in the model before */
static Entry *
entry_new (PalBlockModel *self,
           GObject       *item,
           gint64         arrived)
{
  gboolean agent_message = ACP_IS_MESSAGE_ITEM (item) &&
                           acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_AGENT;
  /* the entry is the first member of a MessageEntry */
  Entry *entry = agent_message ? g_malloc0 (sizeof (MessageEntry)) : g_malloc0 (sizeof (Entry));

  entry->model = self;
  entry->item = item;   /* the reference from get_item () */

  if (agent_message)
    {
      entry->blocks = g_ptr_array_new_with_free_func (g_object_unref);
      entry_reset_blocks (self, entry, arrived);
      g_signal_connect (item, "text-appended", G_CALLBACK (text_appended_cb), entry);
      g_signal_connect (item, "notify::text", G_CALLBACK (notify_text_cb), entry);
    }

  return entry;
}

static void
entry_free (Entry *entry)
{
  if (entry->blocks != NULL)
    {
      g_signal_handlers_disconnect_by_data (entry->item, entry);
      g_ptr_array_unref (entry->blocks);
    }
  g_object_unref (entry->item);
  g_free (entry);
}

static void
items_changed_cb (GListModel    *model,
                  guint          position,
                  guint          removed,
                  guint          added,
                  PalBlockModel *self)
{
  guint first, removed_rows = 0, added_rows = 0;
  guint n_after;
  /* items put in front of others (a history's earlier turns) did not
   * just come */
  gint64 now = position == 0 && removed == 0 && self->entries->len > 0 ? 0 : self->clock ();

  ensure_first_rows (self);
  first = position < self->entries->len ? g_array_index (self->first_row, guint, position) : self->n_rows;

  for (guint i = 0; i < removed; i++)
    removed_rows += entry_n_rows (g_ptr_array_index (self->entries, position + i));
  g_ptr_array_remove_range (self->entries, position, removed);

  /* room for the new entries at once: tens of thousands of them may come
   * in front of the others */
  n_after = self->entries->len - position;
  g_ptr_array_set_size (self->entries, self->entries->len + added);
  memmove (self->entries->pdata + position + added, self->entries->pdata + position,
           n_after * sizeof (gpointer));
  for (guint i = 0; i < added; i++)
    {
      Entry *entry = entry_new (self, g_list_model_get_item (model, position + i), now);

      added_rows += entry_n_rows (entry);
      self->entries->pdata[position + i] = entry;
    }

  self->n_valid = MIN (self->n_valid, position);
  self->n_rows = self->n_rows - removed_rows + added_rows;
  g_list_model_items_changed (G_LIST_MODEL (self), first, removed_rows, added_rows);
}

static void
pal_block_model_dispose (GObject *object)
{
  PalBlockModel *self = PAL_BLOCK_MODEL (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_clear_object (&self->model);
  g_ptr_array_set_size (self->entries, 0);
  self->n_rows = 0;
  self->n_valid = 0;

  G_OBJECT_CLASS (pal_block_model_parent_class)->dispose (object);
}

static void
pal_block_model_finalize (GObject *object)
{
  PalBlockModel *self = PAL_BLOCK_MODEL (object);

  g_ptr_array_unref (self->entries);
  g_array_unref (self->first_row);

  G_OBJECT_CLASS (pal_block_model_parent_class)->finalize (object);
}

static void
pal_block_model_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PalBlockModel *self = PAL_BLOCK_MODEL (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_block_model_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PalBlockModel *self = PAL_BLOCK_MODEL (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      pal_block_model_set_model (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_block_model_class_init (PalBlockModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_block_model_dispose;
  object_class->finalize = pal_block_model_finalize;
  object_class->get_property = pal_block_model_get_property;
  object_class->set_property = pal_block_model_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_block_model_init (PalBlockModel *self)
{
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  self->first_row = g_array_new (FALSE, FALSE, sizeof (guint));
  self->clock = g_get_monotonic_time;
  self->block_size = 4096;
}

/**
 * pal_block_model_new:
 * @block_size: the least size of a block, in bytes, but for the last
 */
PalBlockModel *
pal_block_model_new (gsize block_size)
{
  PalBlockModel *self = g_object_new (PAL_TYPE_BLOCK_MODEL, NULL);

  self->block_size = MAX (block_size, 1);

  return self;
}

GListModel *
pal_block_model_get_model (PalBlockModel *self)
{
  g_return_val_if_fail (PAL_IS_BLOCK_MODEL (self), NULL);

  return self->model;
}

/**
 * pal_block_model_set_model:
 * @self: a #PalBlockModel
 * @model: (nullable): a transcript: a #GListModel of #AcpItem
 */
void
pal_block_model_set_model (PalBlockModel *self,
                           GListModel    *model)
{
  guint n_before;

  g_return_if_fail (PAL_IS_BLOCK_MODEL (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;

  n_before = self->n_rows;
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_set_object (&self->model, model);
  g_ptr_array_set_size (self->entries, 0);
  self->n_rows = 0;
  self->n_valid = 0;

  if (model != NULL)
    {
      guint n = g_list_model_get_n_items (model);

      g_signal_connect_object (model, "items-changed", G_CALLBACK (items_changed_cb), self, 0);
      for (guint i = 0; i < n; i++)
        {
          Entry *entry = entry_new (self, g_list_model_get_item (model, i), 0);

          self->n_rows += entry_n_rows (entry);
          g_ptr_array_add (self->entries, entry);
        }
    }

  if (n_before > 0 || self->n_rows > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n_before, self->n_rows);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/**
 * pal_block_model_set_clock:
 * @self: a #PalBlockModel
 * @clock: (nullable): the clock, in microseconds
 *
 * Sets what tells when text reached a block and whether it still streams,
 * g_get_monotonic_time() when %NULL. Blocks made before keep the clock they
 * were made with: set it before pal_block_model_set_model().
 */
void
pal_block_model_set_clock (PalBlockModel  *self,
                           gint64        (*clock) (void))
{
  g_return_if_fail (PAL_IS_BLOCK_MODEL (self));

  self->clock = clock != NULL ? clock : g_get_monotonic_time;
}
