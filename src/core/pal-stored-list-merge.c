/* pal-stored-list-merge.c: one writer's changes on top of another's
 *
 * Two instances of the application on one settings store each keep a list
 * of the key. When one writes the key while the other has changes it has
 * not written yet, the other's write would drop the first one's (two
 * sessions started at the same moment, one lost). Instead the other reads
 * the key and puts its own changes on top, entry by entry, by id:
 *
 * - an entry it added or changed since it last read the key replaces theirs
 *   of that id, or is appended when they have none;
 * - an entry it removed is removed from theirs, unless they changed it
 *   since (then theirs stays: nothing is lost);
 * - everything else is theirs, in their order, entries that cannot be read
 *   included.
 *
 * Entries are compared as the list writes them (read, then written again),
 * so that a member order or an unknown member does not count as a change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-stored-list-private.h"

static gpointer
copy_id (PalStoredListClass *klass,
         gconstpointer       id)
{
  return klass->id_copy != NULL ? klass->id_copy ((gpointer) id) : g_strdup (id);
}

/* id (a copy) → value */
static GHashTable *
new_table (PalStoredListClass *klass,
           GDestroyNotify      value_free)
{
  return g_hash_table_new_full (klass->id_hash != NULL ? klass->id_hash : g_str_hash,
                                klass->id_equal != NULL ? klass->id_equal : g_str_equal,
                                klass->id_free != NULL ? klass->id_free : g_free,
                                value_free);
}

/* Reads @entry; NULL when it cannot be read. */
static GObject *
decode (PalStoredListClass *klass,
        GVariant           *entry)
{
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *reason = NULL;

  return klass->decode (entry, notes, &reason);
}

/* @item as the list writes it (a full reference), or NULL */
static GVariant *
encode (PalStoredListClass *klass,
        gpointer            item)
{
  GVariant *entry = klass->encode (item);

  return entry != NULL ? g_variant_ref_sink (entry) : NULL;
}

/* The readable entries of @value, as the list would write them, by id (the
 * first of an id). */
static GHashTable *
written_entries (PalStoredListClass *klass,
                 GVariant           *value)
{
  GHashTable *table = new_table (klass, (GDestroyNotify) g_variant_unref);
  GVariantIter iter;
  GVariant *child;

  g_variant_iter_init (&iter, value);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_autoptr(GVariant) entry = child;
      g_autoptr(GObject) item = decode (klass, entry);
      gconstpointer id;
      GVariant *written;

      if (item == NULL)
        continue;
      id = klass->get_id (item);
      if (g_hash_table_contains (table, id) || (written = encode (klass, item)) == NULL)
        continue;
      g_hash_table_insert (table, copy_id (klass, id), written);
    }

  return table;
}

/**
 * _pal_stored_list_merge:
 * @klass: the class of the list
 * @base: the value of the key the list read (or wrote) last
 * @items: the items the list would write now
 * @theirs: the value someone else wrote since
 *
 * Returns: (transfer full): @theirs with the changes of @items since
 *   @base on top (see the top of this file)
 */
GVariant *
_pal_stored_list_merge (PalStoredListClass *klass,
                        GVariant           *base,
                        GPtrArray          *items,
                        GVariant           *theirs)
{
  g_autoptr(GHashTable) before = written_entries (klass, base);
  /* id → our entry, for those we added or changed */
  g_autoptr(GHashTable) changed = new_table (klass, (GDestroyNotify) g_variant_unref);
  /* ids of ours, for those we removed */
  g_autoptr(GHashTable) ours = new_table (klass, NULL);
  /* ids already in the result */
  g_autoptr(GHashTable) done = new_table (klass, NULL);
  GVariantBuilder builder;
  GVariantIter iter;
  GVariant *child;

  for (guint i = 0; i < items->len; i++)
    {
      gpointer item = g_ptr_array_index (items, i);
      gconstpointer id = klass->get_id (item);
      g_autoptr(GVariant) entry = encode (klass, item);
      GVariant *old;

      if (entry == NULL || g_hash_table_contains (ours, id))
        continue;
      g_hash_table_add (ours, copy_id (klass, id));
      old = g_hash_table_lookup (before, id);
      if (old == NULL || !g_variant_equal (old, entry))
        g_hash_table_insert (changed, copy_id (klass, id), g_steal_pointer (&entry));
    }

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));

  g_variant_iter_init (&iter, theirs);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_autoptr(GVariant) entry = child;
      g_autoptr(GObject) item = decode (klass, entry);
      gconstpointer id = item != NULL ? klass->get_id (item) : NULL;
      GVariant *mine;
      GVariant *old;

      /* theirs: unreadable, repeated, or not ours to change */
      if (id == NULL || g_hash_table_contains (done, id))
        {
          g_variant_builder_add_value (&builder, entry);
          continue;
        }
      g_hash_table_add (done, copy_id (klass, id));

      mine = g_hash_table_lookup (changed, id);
      old = g_hash_table_lookup (before, id);
      if (mine != NULL)
        g_variant_builder_add_value (&builder, mine);
      else if (old != NULL && !g_hash_table_contains (ours, id))
        {
          g_autoptr(GVariant) written = encode (klass, item);

          /* removed here: gone, unless they changed it since */
          if (written == NULL || !g_variant_equal (written, old))
            g_variant_builder_add_value (&builder, entry);
        }
      else
        g_variant_builder_add_value (&builder, entry);
    }

  /* ours that they do not have, in our order */
  for (guint i = 0; i < items->len; i++)
    {
      gconstpointer id = klass->get_id (g_ptr_array_index (items, i));
      GVariant *mine = g_hash_table_lookup (changed, id);

      if (mine != NULL && !g_hash_table_contains (done, id))
        {
          g_variant_builder_add_value (&builder, mine);
          g_hash_table_add (done, copy_id (klass, id));
        }
    }

  return g_variant_ref_sink (g_variant_builder_end (&builder));
}
