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
 * The other writer may also write a copy of the key older than what the
 * list wrote, without having read it: GLib's keyfile backend (that of a
 * Flatpak) writes its whole file from what it read last, and reads the file
 * again only when told it changed. Then the list has nothing pending, and
 * its own last write is what is lost. The first value of the key someone
 * else writes after a write of the list is therefore checked against what
 * the key held before that write (_pal_stored_list_keep_unseen()). When
 * it shows nothing of that write (no entry the list added, none as the
 * list changed it, one the list removed still there), the other writer
 * had not read it: what the list changed then and the other value still
 * has as it was before goes back on top; entries the other writer changed
 * stay theirs. A session the list added that the other value lacks may
 * also have been removed there after it was read: the class tells
 * (#PalStoredListClass.removed_elsewhere, the sessions' hidden list);
 * without it, the entry is kept, rather than lost. A value someone sets
 * back to exactly what it was before the list's write, in their first
 * write after it, reads as one that had not seen it.
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

/* The next entry of @iter whose id is not in @done yet (then added to
 * it), and its id in @id, borrowed from @item; entries that cannot be read
 * or repeat an id go to @builder as they are on the way.
 * Returns: (transfer full) (nullable): the entry, NULL at the end */
static GVariant *
next_entry (PalStoredListClass  *klass,
            GVariantIter        *iter,
            GHashTable          *done,
            GVariantBuilder     *builder,
            GObject            **item,
            gconstpointer       *id)
{
  GVariant *child;

  while ((child = g_variant_iter_next_value (iter)) != NULL)
    {
      g_autoptr(GObject) decoded = decode (klass, child);
      gconstpointer decoded_id = decoded != NULL ? klass->get_id (decoded) : NULL;

      /* theirs: unreadable, repeated, or not ours to change */
      if (decoded_id == NULL || g_hash_table_contains (done, decoded_id))
        {
          g_variant_builder_add_value (builder, child);
          g_variant_unref (child);
          continue;
        }
      g_hash_table_add (done, copy_id (klass, decoded_id));
      *id = decoded_id;
      *item = g_steal_pointer (&decoded);
      return child;
    }

  return NULL;
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
  GObject *decoded = NULL;
  gconstpointer id = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      gpointer item = g_ptr_array_index (items, i);
      gconstpointer item_id = klass->get_id (item);
      g_autoptr(GVariant) entry = encode (klass, item);
      GVariant *old;

      if (entry == NULL || g_hash_table_contains (ours, item_id))
        continue;
      g_hash_table_add (ours, copy_id (klass, item_id));
      old = g_hash_table_lookup (before, item_id);
      if (old == NULL || !g_variant_equal (old, entry))
        g_hash_table_insert (changed, copy_id (klass, item_id), g_steal_pointer (&entry));
    }

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));

  g_variant_iter_init (&iter, theirs);
  while ((child = next_entry (klass, &iter, done, &builder, &decoded, &id)) != NULL)
    {
      g_autoptr(GVariant) entry = child;
      g_autoptr(GObject) item = decoded;
      GVariant *mine;
      GVariant *old;

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
      gconstpointer item_id = klass->get_id (g_ptr_array_index (items, i));
      GVariant *mine = g_hash_table_lookup (changed, item_id);

      if (mine != NULL && !g_hash_table_contains (done, item_id))
        {
          g_variant_builder_add_value (&builder, mine);
          g_hash_table_add (done, copy_id (klass, item_id));
        }
    }

  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

/* Whether @table holds @entry (as the list writes it) for @id */
static gboolean
same_entry (GHashTable    *table,
            gconstpointer  id,
            GVariant      *entry)
{
  GVariant *other = g_hash_table_lookup (table, id);

  return other != NULL && entry != NULL && g_variant_equal (other, entry);
}

/* Whether @theirs shows anything of the write that made @ours of @old:
 * an entry it added, one as it changed it, or one it removed gone. Then
 * the other writer read it, and what else they did is theirs. */
static gboolean
shows_write (GHashTable *old,
             GHashTable *ours,
             GHashTable *theirs)
{
  GHashTableIter iter;
  gpointer id, entry;

  g_hash_table_iter_init (&iter, ours);
  while (g_hash_table_iter_next (&iter, &id, &entry))
    {
      GVariant *before = g_hash_table_lookup (old, id);

      if (before == NULL && g_hash_table_contains (theirs, id))
        return TRUE;
      if (before != NULL && !g_variant_equal (before, entry) && same_entry (theirs, id, entry))
        return TRUE;
    }

  g_hash_table_iter_init (&iter, old);
  while (g_hash_table_iter_next (&iter, &id, &entry))
    {
      if (!g_hash_table_contains (ours, id) && !g_hash_table_contains (theirs, id))
        return TRUE;
    }

  return FALSE;
}

/**
 * _pal_stored_list_keep_unseen:
 * @list: the list
 * @before: the value of the key before the list's first write since it
 *   last heard of someone else's
 * @written: the value the list wrote last
 * @theirs: the value someone else wrote since
 *
 * Returns: (transfer full) (nullable): @theirs with what the list changed
 *   from @before to @written that @theirs does not show (see the top of
 *   this file), or %NULL when @theirs shows all of it
 */
GVariant *
_pal_stored_list_keep_unseen (PalStoredList *list,
                              GVariant      *before,
                              GVariant      *written,
                              GVariant      *theirs)
{
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (list);
  g_autoptr(GHashTable) old = written_entries (klass, before);
  g_autoptr(GHashTable) ours = written_entries (klass, written);
  g_autoptr(GHashTable) mentioned = written_entries (klass, theirs);
  g_autoptr(GHashTable) done = new_table (klass, NULL);
  gboolean kept = FALSE;
  GVariantBuilder builder;
  GVariantIter iter;
  GVariant *child;
  GObject *decoded = NULL;
  gconstpointer id = NULL;

  if (shows_write (old, ours, mentioned))
    return NULL;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));

  g_variant_iter_init (&iter, theirs);
  while ((child = next_entry (klass, &iter, done, &builder, &decoded, &id)) != NULL)
    {
      g_autoptr(GVariant) entry = child;
      g_autoptr(GObject) item = decoded;
      g_autoptr(GVariant) as_written = NULL;
      GVariant *mine;

      as_written = encode (klass, item);
      mine = g_hash_table_lookup (ours, id);
      /* as it was before the list wrote: the writer did not read what the
       * list made of it, changed or removed */
      if (same_entry (old, id, as_written) && !same_entry (ours, id, as_written))
        {
          if (mine != NULL)
            g_variant_builder_add_value (&builder, mine);
          kept = TRUE;
          continue;
        }
      g_variant_builder_add_value (&builder, entry);
    }

  /* added by the list, unknown to theirs */
  g_variant_iter_init (&iter, written);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_autoptr(GVariant) entry = child;
      g_autoptr(GObject) item = decode (klass, entry);
      gconstpointer added = item != NULL ? klass->get_id (item) : NULL;

      if (added == NULL || g_hash_table_contains (done, added) || g_hash_table_contains (old, added))
        continue;
      g_hash_table_add (done, copy_id (klass, added));
      if (klass->removed_elsewhere != NULL && klass->removed_elsewhere (list, added))
        continue;
      g_variant_builder_add_value (&builder, g_hash_table_lookup (ours, added));
      kept = TRUE;
    }

  if (!kept)
    {
      g_variant_builder_clear (&builder);
      return NULL;
    }

  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

/**
 * _pal_stored_list_keep_lost:
 * @list: a list whose class knows removals (#PalStoredListClass.removed_elsewhere)
 * @theirs: a value someone else wrote
 *
 * An item of such a list leaves the key only when removed on purpose, which
 * the class can tell: any other listed item that @theirs lacks was lost to
 * a copy written without it, by whichever writer (with three or more, one
 * may write from a copy older than a write the list has already seen
 * answered).
 *
 * Returns: (transfer full) (nullable): @theirs with those items at the
 *   end, or %NULL when it lacks none
 */
GVariant *
_pal_stored_list_keep_lost (PalStoredList *list,
                            GVariant      *theirs)
{
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (list);
  g_autoptr(GHashTable) mentioned = NULL;
  GPtrArray *items;
  gboolean kept = FALSE;
  GVariantBuilder builder;
  GVariantIter iter;
  GVariant *child;

  if (klass->removed_elsewhere == NULL)
    return NULL;

  mentioned = written_entries (klass, theirs);
  items = klass->get_stored_items (list);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_iter_init (&iter, theirs);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_variant_builder_add_value (&builder, child);
      g_variant_unref (child);
    }

  for (guint i = 0; i < items->len; i++)
    {
      gpointer item = g_ptr_array_index (items, i);
      gconstpointer id = klass->get_id (item);
      g_autoptr(GVariant) entry = NULL;

      if (g_hash_table_contains (mentioned, id) || (entry = encode (klass, item)) == NULL ||
          klass->removed_elsewhere (list, id))
        continue;
      g_variant_builder_add_value (&builder, entry);
      g_hash_table_insert (mentioned, copy_id (klass, id), g_steal_pointer (&entry));
      kept = TRUE;
    }

  if (!kept)
    {
      g_variant_builder_clear (&builder);
      return NULL;
    }

  return g_variant_ref_sink (g_variant_builder_end (&builder));
}
