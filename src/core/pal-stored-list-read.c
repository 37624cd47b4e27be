/* pal-stored-list-read.c: a stored list's entries decoded, in any thread
 *
 * Decoding the entries of the key (PalStoredListClass.decode) into new
 * items, the entries that cannot be read kept raw with a load error each;
 * and reading the key ahead, its entries decoded in a thread of their own
 * (pal_stored_list_read_start()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-stored-list-private.h"

/* A table keyed by ids of the class's items. */
GHashTable *
_pal_stored_list_new_id_table (PalStoredListClass *klass,
                               GDestroyNotify      key_free)
{
  return g_hash_table_new_full (klass->id_hash != NULL ? klass->id_hash : g_str_hash,
                                klass->id_equal != NULL ? klass->id_equal : g_str_equal,
                                key_free, NULL);
}

static char *
describe_repeated (PalStoredListClass *klass,
                   gpointer            item)
{
  if (klass->describe_repeated != NULL)
    return klass->describe_repeated (item);

  return g_strdup_printf (_("the id “%s” is used by an earlier entry"),
                          (const char *) klass->get_id (item));
}

PalStoredListParse *
_pal_stored_list_parse (PalStoredListClass *klass,
                        GVariant           *value)
{
  PalStoredListParse *parse = g_new0 (PalStoredListParse, 1);
  /* ids of the items in parse->items, borrowed */
  g_autoptr(GHashTable) seen = _pal_stored_list_new_id_table (klass, NULL);
  GVariantIter iter;
  GVariant *child;
  guint index = 0;

  parse->value = g_variant_ref (value);
  parse->items = g_ptr_array_new_with_free_func (g_object_unref);
  parse->skipped = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  parse->load_errors = g_ptr_array_new_null_terminated (1, g_free, TRUE);

  g_variant_iter_init (&iter, value);
  for (; (child = g_variant_iter_next_value (&iter)) != NULL; index++)
    {
      g_autoptr(GVariant) entry = child;
      g_autoptr(GObject) item = NULL;
      g_autoptr(GPtrArray) notes = g_ptr_array_new_null_terminated (0, g_free, TRUE);
      g_autofree char *reason = NULL;

      item = klass->decode (entry, notes, &reason);
      if (item != NULL && g_hash_table_contains (seen, klass->get_id (item)))
        {
          reason = describe_repeated (klass, item);
          g_clear_object (&item);
        }

      if (item == NULL)
        {
          char *message = klass->describe_skipped (index, reason);

          g_debug ("Skipping an entry of “%s”: %s", klass->key, message);
          g_ptr_array_add (parse->load_errors, message);
          g_ptr_array_add (parse->skipped, g_steal_pointer (&entry));
          continue;
        }

      if (notes->len > 0)
        {
          /* TRANSLATORS: separates what was left out of one stored entry */
          g_autofree char *joined = g_strjoinv (_("; "), (char **) notes->pdata);
          char *message = klass->describe_skipped (index, joined);

          g_debug ("Reading an entry of “%s”: %s", klass->key, message);
          g_ptr_array_add (parse->load_errors, message);
          parse->lossy = TRUE;
        }

      g_hash_table_add (seen, (gpointer) klass->get_id (item));
      g_ptr_array_add (parse->items, g_steal_pointer (&item));
    }

  return parse;
}

void
_pal_stored_list_parse_free (PalStoredListParse *parse)
{
  g_clear_pointer (&parse->value, g_variant_unref);
  g_clear_pointer (&parse->items, g_ptr_array_unref);
  g_clear_pointer (&parse->skipped, g_ptr_array_unref);
  g_clear_pointer (&parse->load_errors, g_ptr_array_unref);
  g_free (parse);
}

/* --- reading ahead --- */

struct _PalStoredListReading
{
  /* a reference */
  PalStoredListClass *klass;
  GSettings          *settings;
  gulong              changed_id;
  /* someone wrote the key since it was read */
  gboolean            changed;
  GVariant           *value;
  GThread            *thread;
  PalStoredListParse              *parse;
};

static gpointer
reading_thread (gpointer data)
{
  PalStoredListReading *reading = data;

  reading->parse = _pal_stored_list_parse (reading->klass, reading->value);
  return NULL;
}

static void
reading_changed_cb (GSettings            *settings,
                    const char           *key,
                    PalStoredListReading *reading)
{
  reading->changed = TRUE;
}

/**
 * pal_stored_list_read_start:
 * @type: a subclass of #PalStoredList
 * @settings: the settings to read its key from
 *
 * Reads the key of @type now and decodes its entries in a thread of its
 * own, so that pal_stored_list_new_from_reading() finds them decoded: a list
 * of thousands takes a while (tens of milliseconds for 10,000 sessions),
 * which a start spends better while the display opens. The key is read on
 * the calling thread, the only one that uses @settings.
 *
 * Returns: (transfer full): the reading, for
 *   pal_stored_list_new_from_reading() or pal_stored_list_reading_free()
 */
PalStoredListReading *
pal_stored_list_read_start (GType      type,
                            GSettings *settings)
{
  PalStoredListReading *reading;
  g_autofree char *signal = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (g_type_is_a (type, PAL_TYPE_STORED_LIST) && !G_TYPE_IS_ABSTRACT (type),
                        NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  reading = g_new0 (PalStoredListReading, 1);
  reading->klass = g_type_class_ref (type);
  reading->settings = g_object_ref (settings);
  signal = g_strconcat ("changed::", reading->klass->key, NULL);
  reading->changed_id = g_signal_connect (settings, signal, G_CALLBACK (reading_changed_cb),
                                          reading);
  reading->value = g_settings_get_value (settings, reading->klass->key);
  name = g_strconcat ("pal-", reading->klass->key, NULL);
  reading->thread = g_thread_try_new (name, reading_thread, reading, &error);
  /* else it is read when needed */
  if (reading->thread == NULL)
    g_debug ("Could not read “%s” ahead: %s", reading->klass->key, error->message);

  return reading;
}

/* Waits for the thread; returns what it read (transfer full), or NULL when
 * the key has changed since. Frees @reading. */
PalStoredListParse *
_pal_stored_list_finish_reading (PalStoredListReading *reading)
{
  PalStoredListParse *parse;

  if (reading->thread != NULL)
    g_thread_join (g_steal_pointer (&reading->thread));
  g_clear_signal_handler (&reading->changed_id, reading->settings);

  parse = g_steal_pointer (&reading->parse);
  if (parse == NULL && !reading->changed)
    parse = _pal_stored_list_parse (reading->klass, reading->value);
  else if (parse != NULL && reading->changed)
    g_clear_pointer (&parse, _pal_stored_list_parse_free);

  g_clear_pointer (&reading->value, g_variant_unref);
  g_clear_object (&reading->settings);
  g_type_class_unref (reading->klass);
  g_free (reading);

  return parse;
}

/**
 * pal_stored_list_new_from_reading:
 * @reading: (transfer full): from pal_stored_list_read_start()
 *
 * A new list of the type and on the settings of @reading, with the entries
 * it read (waiting for it to finish when need be); the key is read again
 * only when it changed since.
 *
 * Returns: (transfer full) (type PalStoredList): the list
 */
gpointer
pal_stored_list_new_from_reading (PalStoredListReading *reading)
{
  g_return_val_if_fail (reading != NULL, NULL);

  return g_object_new (G_TYPE_FROM_CLASS (reading->klass),
                       "settings", reading->settings,
                       "reading", reading,
                       NULL);
}

/**
 * pal_stored_list_reading_free:
 * @reading: (transfer full): a reading not handed to a list
 *
 * Waits for its thread and drops what it read.
 */
void
pal_stored_list_reading_free (PalStoredListReading *reading)
{
  PalStoredListParse *parse;

  g_return_if_fail (reading != NULL);

  /* no need to read what is thrown away */
  reading->changed = TRUE;
  parse = _pal_stored_list_finish_reading (reading);
  g_clear_pointer (&parse, _pal_stored_list_parse_free);
}
