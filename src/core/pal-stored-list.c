/* pal-stored-list.c: a list model kept in one settings key, the base of the stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-stored-list-private.h"

/**
 * PalStoredList:
 *
 * A #GListModel of objects kept in one `aa{sv}` settings key, an entry per
 * object. The stores of agent profiles, MCP servers and sessions derive
 * from it and say how one entry is read and written and what identifies an
 * item (see #PalStoredListClass); this class does the rest.
 *
 * Reading keeps the entries that cannot be read, and those whose id an
 * earlier entry has, as they are, with one translated load error each
 * (#PalStoredList:load-errors), and lists the others, keeping the listed
 * objects whose ids match; an entry read without an optional member that
 * could not be read is listed, with a load error too. Writing puts the
 * stored items first, then those entries unchanged: a damaged entry is
 * reported, never lost. Writing the value read last is skipped.
 *
 * A value of the key that GSettings cannot read at all reads as the
 * schema's default (see pal-settings-backup.c): it is reported, and copied
 * to a file before anything is written, as is a value whose entries lost
 * members when read (#PalStoredList:backup-path). Until the copy is made,
 * writes wait; when it cannot be made, nothing is written.
 *
 * A change of the key by someone else is read again. Changes of the list
 * not written yet are not dropped: they are put on top of the other
 * writer's entries (pal-stored-list-merge.c) and written. A write checks
 * that the key still holds what the list read last, so that a change not
 * heard of yet is merged the same way. The first value another process
 * writes after the list did is checked for a copy older than that write
 * (GLib's keyfile backend writes its whole file from what it read last):
 * what it lacks of the list's write goes back.
 *
 * The listed items are followed (#PalStoredListClass.changed_signal): a
 * change of one is written once per main loop iteration. Lookup by id goes
 * through an index, which follows an item whose id changes (an MCP server
 * renamed in an editor).
 */

static void pal_stored_list_list_model_init (GListModelInterface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (PalStoredList, pal_stored_list, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (PalStoredList)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                         pal_stored_list_list_model_init))

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_LOAD_ERRORS,
  PROP_BACKUP_PATH,
  PROP_READING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

PalStoredListPrivate *
_pal_stored_list_get_private (PalStoredList *self)
{
  return pal_stored_list_get_instance_private (self);
}

/* --- the index and the items followed --- */

/* Of two items with one id, the later indexed wins; items_changed() puts
 * the first listed back (reindex). One hash lookup: lists hold thousands. */
static void
index_add (PalStoredList *self,
           gpointer       item)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  gconstpointer id = klass->get_id (item);

  if (!g_hash_table_insert (priv->index,
                            klass->id_copy != NULL ? klass->id_copy ((gpointer) id) : g_strdup (id),
                            item))
    priv->duplicates = TRUE;
}

static gboolean
is_value (gpointer key,
          gpointer value,
          gpointer item)
{
  return value == item;
}

static void
index_remove (PalStoredList *self,
              gpointer       item)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);
  gconstpointer id = PAL_STORED_LIST_GET_CLASS (self)->get_id (item);

  if (g_hash_table_lookup (priv->index, id) == item)
    g_hash_table_remove (priv->index, id);
  else
    /* one of two with that id, or renamed before it was indexed anew */
    g_hash_table_foreach_remove (priv->index, is_value, item);
}

static void
reindex (PalStoredList *self)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  g_hash_table_remove_all (priv->index);
  priv->duplicates = FALSE;
  /* backwards: the first listed wins */
  for (guint i = priv->items->len; i > 0; i--)
    index_add (self, g_ptr_array_index (priv->items, i - 1));
}

static void
item_changed (PalStoredList *self,
              gpointer       item,
              GParamSpec    *pspec)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  /* an id that changed is indexed anew */
  if (g_hash_table_lookup (priv->index, PAL_STORED_LIST_GET_CLASS (self)->get_id (item)) != item)
    reindex (self);

  if (priv->blocked == 0)
    PAL_STORED_LIST_GET_CLASS (self)->item_changed (self, item, pspec);
}

static void
item_notify_cb (GObject    *item,
                GParamSpec *pspec,
                gpointer    user_data)
{
  item_changed (user_data, item, pspec);
}

static void
item_signal_cb (GObject  *item,
                gpointer  user_data)
{
  item_changed (user_data, item, NULL);
}

/* An item joins the list. */
static void
track_item (PalStoredList *self,
            gpointer       item)
{
  const char *signal = PAL_STORED_LIST_GET_CLASS (self)->changed_signal;

  /* Not g_signal_connect_object(): that also keeps every item's handler in
   * a list on the store, which each disconnection searches. Items are
   * untracked when they leave the list, and all in dispose. */
  if (signal != NULL)
    g_signal_connect (item, signal, G_CALLBACK (item_signal_cb), self);
  else
    g_signal_connect (item, "notify", G_CALLBACK (item_notify_cb), self);
  index_add (self, item);
}

static void
disconnect_item (PalStoredList *self,
                 gpointer       item)
{
  if (PAL_STORED_LIST_GET_CLASS (self)->changed_signal != NULL)
    g_signal_handlers_disconnect_by_func (item, item_signal_cb, self);
  else
    g_signal_handlers_disconnect_by_func (item, item_notify_cb, self);
}

/* An item leaves the list. */
static void
untrack_item (PalStoredList *self,
              gpointer       item)
{
  disconnect_item (self, item);
  index_remove (self, item);
}

static void
items_changed (PalStoredList *self,
               guint          position,
               guint          removed,
               guint          added)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  if (priv->duplicates)
    reindex (self);
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/* --- for subclasses --- */

/* Returns: (transfer none): the listed items, in order; not to be changed */
GPtrArray *
_pal_stored_list_get_items (PalStoredList *self)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  return priv->items;
}

void
_pal_stored_list_insert (PalStoredList *self,
                         guint          position,
                         gpointer       item)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  g_assert (G_TYPE_CHECK_INSTANCE_TYPE (item, PAL_STORED_LIST_GET_CLASS (self)->item_type));

  position = MIN (position, priv->items->len);
  g_ptr_array_insert (priv->items, position, g_object_ref (item));
  track_item (self, item);
  items_changed (self, position, 0, 1);
}

gpointer
_pal_stored_list_steal (PalStoredList *self,
                        guint          position)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);
  gpointer item;

  g_assert (position < priv->items->len);

  item = g_ptr_array_steal_index (priv->items, position);
  untrack_item (self, item);
  items_changed (self, position, 1, 0);
  return item;
}

void
_pal_stored_list_move (PalStoredList *self,
                       guint          from,
                       guint          to)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);
  guint first = MIN (from, to);
  guint n = MAX (from, to) - first + 1;

  g_assert (from < priv->items->len && to < priv->items->len);

  if (from == to)
    return;

  g_ptr_array_insert (priv->items, to, g_ptr_array_steal_index (priv->items, from));
  g_list_model_items_changed (G_LIST_MODEL (self), first, n, n);
}

void
_pal_stored_list_replace (PalStoredList *self,
                          GPtrArray     *new_items)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);
  GPtrArray *items = priv->items;
  guint old_len = items->len;
  guint new_len = new_items->len;
  guint prefix = 0;
  guint suffix = 0;
  guint removed;
  guint added;
  g_autoptr(GHashTable) leaving = NULL;
  g_autoptr(GHashTable) coming = NULL;

  while (prefix < old_len && prefix < new_len &&
         g_ptr_array_index (items, prefix) == g_ptr_array_index (new_items, prefix))
    prefix++;

  while (suffix < old_len - prefix && suffix < new_len - prefix &&
         g_ptr_array_index (items, old_len - 1 - suffix) ==
         g_ptr_array_index (new_items, new_len - 1 - suffix))
    suffix++;

  removed = old_len - prefix - suffix;
  added = new_len - prefix - suffix;

  if (removed == 0 && added == 0)
    return;

  /* The range may move items that stay: only the others are tracked anew
   * (the sets only when both sides have items, not for a first read). */
  if (removed > 0 && added > 0)
    {
      leaving = g_hash_table_new (NULL, NULL);
      coming = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < removed; i++)
        g_hash_table_add (leaving, g_ptr_array_index (items, prefix + i));
      for (guint i = 0; i < added; i++)
        g_hash_table_add (coming, g_ptr_array_index (new_items, prefix + i));
    }

  /* Take the new references first: an object present in both must not die
   * in between. */
  for (guint i = 0; i < added; i++)
    g_object_ref (g_ptr_array_index (new_items, prefix + i));
  for (guint i = 0; i < removed; i++)
    {
      gpointer item = g_ptr_array_index (items, prefix + i);

      if (coming == NULL || !g_hash_table_contains (coming, item))
        untrack_item (self, item);
    }
  g_ptr_array_remove_range (items, prefix, removed);
  for (guint i = 0; i < added; i++)
    {
      gpointer item = g_ptr_array_index (new_items, prefix + i);

      g_ptr_array_insert (items, prefix + i, item);
      if (leaving == NULL || !g_hash_table_contains (leaving, item))
        track_item (self, item);
    }

  items_changed (self, prefix, removed, added);
}

/* --- GObject --- */

static GType
pal_stored_list_get_item_type (GListModel *model)
{
  return PAL_STORED_LIST_GET_CLASS (model)->item_type;
}

static guint
pal_stored_list_get_n_items (GListModel *model)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (PAL_STORED_LIST (model));

  return priv->items->len;
}

static gpointer
pal_stored_list_get_item (GListModel *model,
                          guint       position)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (PAL_STORED_LIST (model));

  if (position >= priv->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (priv->items, position));
}

static void
pal_stored_list_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = pal_stored_list_get_item_type;
  iface->get_n_items = pal_stored_list_get_n_items;
  iface->get_item = pal_stored_list_get_item;
}

static void
pal_stored_list_real_apply_entries (PalStoredList *self,
                                    GPtrArray     *items)
{
  _pal_stored_list_replace (self, items);
}

static GPtrArray *
pal_stored_list_real_get_stored_items (PalStoredList *self)
{
  return _pal_stored_list_get_items (self);
}

static void
pal_stored_list_real_item_changed (PalStoredList *self,
                                   gpointer       item,
                                   GParamSpec    *pspec)
{
  _pal_stored_list_queue_save (self);
}

static void
pal_stored_list_constructed (GObject *object)
{
  PalStoredList *self = PAL_STORED_LIST (object);
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  g_autofree char *signal = NULL;
  PalStoredListParse *parse = NULL;

  G_OBJECT_CLASS (pal_stored_list_parent_class)->constructed (object);

  g_assert (klass->key != NULL && klass->decode != NULL && klass->encode != NULL &&
            klass->get_id != NULL && klass->describe_skipped != NULL &&
            klass->update_item != NULL);

  /* the class is known from here on */
  priv->index = _pal_stored_list_new_id_table (klass, klass->id_free != NULL ? klass->id_free : g_free);

  g_return_if_fail (G_IS_SETTINGS (priv->settings));

  signal = g_strconcat ("changed::", klass->key, NULL);
  priv->changed_id = g_signal_connect (priv->settings, signal, G_CALLBACK (_pal_stored_list_key_changed_cb),
                                       self);

  if (priv->reading != NULL)
    parse = _pal_stored_list_finish_reading (g_steal_pointer (&priv->reading));
  if (parse == NULL)
    {
      g_autoptr(GVariant) value = g_settings_get_value (priv->settings, klass->key);

      parse = _pal_stored_list_parse (klass, value);
    }
  _pal_stored_list_read_first (self, parse);
}

static void
pal_stored_list_dispose (GObject *object)
{
  PalStoredList *self = PAL_STORED_LIST (object);
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  if (priv->settings != NULL && priv->index != NULL)
    _pal_stored_list_write_before_dispose (self);

  if (priv->settings != NULL)
    g_clear_signal_handler (&priv->changed_id, priv->settings);
  g_clear_object (&priv->settings);
  g_clear_pointer (&priv->reading, pal_stored_list_reading_free);

  for (guint i = 0; i < priv->items->len; i++)
    disconnect_item (self, g_ptr_array_index (priv->items, i));
  if (priv->index != NULL)
    g_hash_table_remove_all (priv->index);
  g_ptr_array_set_size (priv->items, 0);

  G_OBJECT_CLASS (pal_stored_list_parent_class)->dispose (object);
}

static void
pal_stored_list_finalize (GObject *object)
{
  PalStoredList *self = PAL_STORED_LIST (object);
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  g_clear_handle_id (&priv->save_source, g_source_remove);
  g_clear_pointer (&priv->items, g_ptr_array_unref);
  g_clear_pointer (&priv->index, g_hash_table_unref);
  g_clear_pointer (&priv->skipped, g_ptr_array_unref);
  g_clear_pointer (&priv->entry_errors, g_ptr_array_unref);
  g_clear_pointer (&priv->load_errors, g_ptr_array_unref);
  g_clear_pointer (&priv->last_value, g_variant_unref);
  g_clear_pointer (&priv->before_write, g_variant_unref);
  g_clear_pointer (&priv->key_error, g_free);
  g_clear_pointer (&priv->backup_path, g_free);
  g_clear_object (&priv->check_cancellable);

  G_OBJECT_CLASS (pal_stored_list_parent_class)->finalize (object);
}

static void
pal_stored_list_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PalStoredList *self = PAL_STORED_LIST (object);
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, priv->settings);
      break;
    case PROP_LOAD_ERRORS:
      g_value_set_boxed (value, pal_stored_list_get_load_errors (self));
      break;
    case PROP_BACKUP_PATH:
      g_value_set_string (value, priv->backup_path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_stored_list_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PalStoredList *self = PAL_STORED_LIST (object);
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      priv->settings = g_value_dup_object (value);
      break;
    case PROP_READING:
      priv->reading = g_value_get_pointer (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_stored_list_class_init (PalStoredListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = pal_stored_list_constructed;
  object_class->dispose = pal_stored_list_dispose;
  object_class->finalize = pal_stored_list_finalize;
  object_class->get_property = pal_stored_list_get_property;
  object_class->set_property = pal_stored_list_set_property;

  klass->item_type = G_TYPE_OBJECT;
  klass->apply_entries = pal_stored_list_real_apply_entries;
  klass->get_stored_items = pal_stored_list_real_get_stored_items;
  klass->item_changed = pal_stored_list_real_item_changed;

  /* The io.github.palaverapp.Palaver settings (or a test's own). */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* Why stored entries were skipped; see pal_stored_list_get_load_errors(). */
  properties[PROP_LOAD_ERRORS] =
    g_param_spec_boxed ("load-errors", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  /* Where the key's value was copied before it was replaced: a value
   * GSettings could not read, or one whose entries lost members when read
   * (see pal_stored_list_get_backup_path()). */
  properties[PROP_BACKUP_PATH] =
    g_param_spec_string ("backup-path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  /* (skip) A PalStoredListReading taken over: pal_stored_list_new_from_reading(). */
  properties[PROP_READING] =
    g_param_spec_pointer ("reading", NULL, NULL,
                          G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_stored_list_init (PalStoredList *self)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  priv->items = g_ptr_array_new_with_free_func (g_object_unref);
  priv->skipped = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  priv->entry_errors = g_ptr_array_new_with_free_func (g_free);
  priv->load_errors = g_ptr_array_new_null_terminated (1, g_free, TRUE);
}

/* --- public API --- */

/* Returns: (transfer none): the settings the list is kept in */
GSettings *
pal_stored_list_get_settings (PalStoredList *self)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  g_return_val_if_fail (PAL_IS_STORED_LIST (self), NULL);
  return priv->settings;
}

/**
 * pal_stored_list_get_load_errors:
 * @self: a #PalStoredList
 *
 * Returns: (transfer none): one translated sentence per stored entry that was
 *   skipped, or read without a member, the last time the key was read; and
 *   first one about the key's value when GSettings could not read it.
 *   Empty when all was read.
 */
const char * const *
pal_stored_list_get_load_errors (PalStoredList *self)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  g_return_val_if_fail (PAL_IS_STORED_LIST (self), NULL);
  return _pal_ptr_array_as_strv (priv->load_errors);
}

/**
 * pal_stored_list_get_backup_path:
 * @self: a #PalStoredList
 *
 * Returns: (nullable): the file the key's value was copied to before it was
 *   replaced, when GSettings could not read it or its entries lost members
 *   when read; %NULL when no copy was needed
 */
const char *
pal_stored_list_get_backup_path (PalStoredList *self)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  g_return_val_if_fail (PAL_IS_STORED_LIST (self), NULL);
  return priv->backup_path;
}

/**
 * pal_stored_list_lookup:
 * @self: a #PalStoredList
 * @id: (nullable): an id, as #PalStoredListClass.get_id gives
 *
 * Returns: (transfer none) (nullable): the (first) listed item with @id
 */
gpointer
pal_stored_list_lookup (PalStoredList *self,
                        gconstpointer  id)
{
  PalStoredListPrivate *priv = pal_stored_list_get_instance_private (self);

  g_return_val_if_fail (PAL_IS_STORED_LIST (self), NULL);

  if (id == NULL || priv->index == NULL)
    return NULL;
  return g_hash_table_lookup (priv->index, id);
}
