/* pal-store-util.c: helpers shared by the settings-backed stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-store-private.h"

/* Checks a value looked up under @key (NULL: missing) against @type_string. */
static gboolean
check_typed (GVariant    *value,
             const char  *key,
             const char  *type_string,
             gboolean     required,
             char       **reason)
{
  if (value == NULL)
    {
      if (required)
        {
          *reason = g_strdup_printf (_("the key “%s” is missing"), key);
          return FALSE;
        }
      return TRUE;
    }

  if (!g_variant_is_of_type (value, G_VARIANT_TYPE (type_string)))
    {
      *reason = g_strdup_printf (_("the key “%s” has the type “%s” instead of “%s”"),
                                 key, g_variant_get_type_string (value), type_string);
      return FALSE;
    }

  return TRUE;
}

static GVariant *
lookup (GVariant   *dict,
        const char *key)
{
  g_assert (g_variant_is_of_type (dict, G_VARIANT_TYPE_VARDICT));

  return g_variant_lookup_value (dict, key, NULL);
}

void
_pal_dict_lookup_values (GVariant           *dict,
                         const char * const *keys,
                         guint               n_keys,
                         GVariant          **values)
{
  GVariantIter iter;
  GVariant *entry;
  guint n_found = 0;

  g_assert (g_variant_is_of_type (dict, G_VARIANT_TYPE_VARDICT));

  for (guint i = 0; i < n_keys; i++)
    values[i] = NULL;

  g_variant_iter_init (&iter, dict);
  while (n_found < n_keys && (entry = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_autoptr(GVariant) key = g_variant_get_child_value (entry, 0);
      const char *name = g_variant_get_string (key, NULL);
      guint i;

      /* the first of repeated keys counts, as for g_variant_lookup_value() */
      for (i = 0; i < n_keys; i++)
        if (values[i] == NULL && strcmp (keys[i], name) == 0)
          break;

      if (i < n_keys)
        {
          g_autoptr(GVariant) boxed = g_variant_get_child_value (entry, 1);

          values[i] = g_variant_get_variant (boxed);
          n_found++;
        }
      g_variant_unref (entry);
    }
}

void
_pal_values_clear (GVariant **values,
                   guint      n_values)
{
  for (guint i = 0; i < n_values; i++)
    g_clear_pointer (&values[i], g_variant_unref);
}

gboolean
_pal_value_get_string (GVariant    *value,
                       const char  *key,
                       gboolean     required,
                       char       **out,
                       char       **reason)
{
  if (!check_typed (value, key, "s", required, reason))
    return FALSE;
  if (value != NULL)
    {
      g_free (*out);
      *out = g_variant_dup_string (value, NULL);
    }
  return TRUE;
}

gboolean
_pal_value_get_boolean (GVariant    *value,
                        const char  *key,
                        gboolean     required,
                        gboolean    *out,
                        char       **reason)
{
  if (!check_typed (value, key, "b", required, reason))
    return FALSE;
  if (value != NULL)
    *out = g_variant_get_boolean (value);
  return TRUE;
}

gboolean
_pal_value_get_int64 (GVariant    *value,
                      const char  *key,
                      gboolean     required,
                      gint64      *out,
                      char       **reason)
{
  if (!check_typed (value, key, "x", required, reason))
    return FALSE;
  if (value != NULL)
    *out = g_variant_get_int64 (value);
  return TRUE;
}

gboolean
_pal_dict_get_string (GVariant    *dict,
                      const char  *key,
                      gboolean     required,
                      char       **out,
                      char       **reason)
{
  g_autoptr(GVariant) value = lookup (dict, key);

  return _pal_value_get_string (value, key, required, out, reason);
}

gboolean
_pal_dict_get_strv (GVariant    *dict,
                    const char  *key,
                    gboolean     required,
                    char      ***out,
                    char       **reason)
{
  g_autoptr(GVariant) value = lookup (dict, key);

  if (!check_typed (value, key, "as", required, reason))
    return FALSE;
  if (value != NULL)
    {
      g_strfreev (*out);
      *out = g_variant_dup_strv (value, NULL);
    }
  return TRUE;
}

gboolean
_pal_dict_get_boolean (GVariant    *dict,
                       const char  *key,
                       gboolean     required,
                       gboolean    *out,
                       char       **reason)
{
  g_autoptr(GVariant) value = lookup (dict, key);

  return _pal_value_get_boolean (value, key, required, out, reason);
}

gboolean
_pal_dict_get_int64 (GVariant    *dict,
                     const char  *key,
                     gboolean     required,
                     gint64      *out,
                     char       **reason)
{
  g_autoptr(GVariant) value = lookup (dict, key);

  return _pal_value_get_int64 (value, key, required, out, reason);
}

gboolean
_pal_dict_get_value (GVariant    *dict,
                     const char  *key,
                     const char  *type_string,
                     gboolean     required,
                     GVariant   **out,
                     char       **reason)
{
  g_autoptr(GVariant) value = lookup (dict, key);

  if (!check_typed (value, key, type_string, required, reason))
    return FALSE;
  if (value != NULL)
    {
      g_clear_pointer (out, g_variant_unref);
      *out = g_steal_pointer (&value);
    }
  return TRUE;
}

void
_pal_items_replace (GListModel *model,
                    GPtrArray  *items,
                    GPtrArray  *new_items)
{
  guint old_len = items->len;
  guint new_len = new_items->len;
  guint prefix = 0;
  guint suffix = 0;
  guint removed;
  guint added;

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

  /* Take the new references first: an object present in both must not die
   * in between. */
  for (guint i = 0; i < added; i++)
    g_object_ref (g_ptr_array_index (new_items, prefix + i));
  g_ptr_array_remove_range (items, prefix, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (items, prefix + i, g_ptr_array_index (new_items, prefix + i));

  g_list_model_items_changed (model, prefix, removed, added);
}

gboolean
_pal_set_string (char       **str,
                 const char  *value)
{
  if (g_strcmp0 (*str, value) == 0)
    return FALSE;
  g_free (*str);
  *str = g_strdup (value);
  return TRUE;
}

gboolean
_pal_str_is_blank (const char *str)
{
  if (str == NULL)
    return TRUE;
  for (; *str != '\0'; str++)
    if (!g_ascii_isspace (*str))
      return FALSE;
  return TRUE;
}

gboolean
_pal_set_strv (char               ***strv,
               const char * const   *value)
{
  static const char * const empty[] = { NULL };

  if (value == NULL)
    value = empty;

  if (*strv != NULL && g_strv_equal ((const char * const *) *strv, value))
    return FALSE;

  g_strfreev (*strv);
  *strv = g_strdupv ((char **) value);
  return TRUE;
}

const char * const *
_pal_ptr_array_as_strv (GPtrArray *array)
{
  static const char * const empty[] = { NULL };

  if (array->len == 0 || array->pdata == NULL)
    return empty;
  return (const char * const *) array->pdata;
}

/* --- PalStoredList --- */

void
_pal_stored_list_init (PalStoredList            *list,
                       const PalStoredListFuncs *funcs,
                       GObject                  *owner,
                       GParamSpec               *load_errors_pspec)
{
  g_assert (funcs != NULL && funcs->key != NULL);
  g_assert (G_IS_OBJECT (owner));
  g_assert (G_IS_PARAM_SPEC (load_errors_pspec));

  list->funcs = funcs;
  list->owner = owner;
  list->load_errors_pspec = load_errors_pspec;
  list->skipped = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  list->load_errors = g_ptr_array_new_null_terminated (1, g_free, TRUE);
}

void
_pal_stored_list_save (PalStoredList *list)
{
  GPtrArray *items = list->funcs->get_items (list->owner);
  GVariantBuilder builder;
  g_autoptr(GVariant) value = NULL;

  g_clear_handle_id (&list->save_source, g_source_remove);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < items->len; i++)
    {
      GVariant *entry = list->funcs->serialize (g_ptr_array_index (items, i));

      if (entry != NULL)
        g_variant_builder_add_value (&builder, entry);
    }
  for (guint i = 0; i < list->skipped->len; i++)
    g_variant_builder_add_value (&builder, g_ptr_array_index (list->skipped, i));
  value = g_variant_ref_sink (g_variant_builder_end (&builder));

  if (list->last_value != NULL && g_variant_equal (list->last_value, value))
    return;

  g_clear_pointer (&list->last_value, g_variant_unref);
  list->last_value = g_variant_ref (value);
  g_settings_set_value (list->settings, list->funcs->key, value);
}

static gboolean
save_idle_cb (gpointer user_data)
{
  PalStoredList *list = user_data;

  list->save_source = 0;
  _pal_stored_list_save (list);
  return G_SOURCE_REMOVE;
}

void
_pal_stored_list_queue_save (PalStoredList *list)
{
  if (list->save_source == 0)
    list->save_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, save_idle_cb, list, NULL);
}

struct _PalStoredListParse
{
  GVariant  *value;
  /* the readable entries, new items in stored order */
  GPtrArray *items;
  /* the raw entries that could not be read, and why */
  GPtrArray *skipped;
  GPtrArray *load_errors;
};

static char *
describe_repeated (const PalStoredListFuncs *funcs,
                   gpointer                  item)
{
  const char *identity;

  if (funcs->describe_repeated != NULL)
    return funcs->describe_repeated (item);

  identity = funcs->get_identity (item);
  switch (funcs->identity)
    {
    case PAL_STORED_LIST_IDENTITY_NAME:
      return g_strdup_printf (_("the name “%s” is used by an earlier entry"), identity);
    case PAL_STORED_LIST_IDENTITY_ID:
    default:
      return g_strdup_printf (_("the id “%s” is used by an earlier entry"), identity);
    }
}

PalStoredListParse *
_pal_stored_list_parse (const PalStoredListFuncs *funcs,
                        GVariant                 *value)
{
  PalStoredListParse *parse = g_new0 (PalStoredListParse, 1);
  /* identities of the items in parse->items, borrowed */
  GHashFunc hash = funcs->identity_hash != NULL ? funcs->identity_hash : g_str_hash;
  GEqualFunc equal = funcs->identity_equal != NULL ? funcs->identity_equal : g_str_equal;
  g_autoptr(GHashTable) seen = g_hash_table_new (hash, equal);
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
      g_autofree char *reason = NULL;

      item = funcs->parse_entry (entry, &reason);
      if (item != NULL && g_hash_table_contains (seen, funcs->get_identity (item)))
        {
          reason = describe_repeated (funcs, item);
          g_clear_object (&item);
        }

      if (item == NULL)
        {
          char *message = funcs->describe_skipped (index, reason);

          g_debug ("Skipping an entry of “%s”: %s", funcs->key, message);
          g_ptr_array_add (parse->load_errors, message);
          g_ptr_array_add (parse->skipped, g_steal_pointer (&entry));
          continue;
        }

      g_hash_table_add (seen, (gpointer) funcs->get_identity (item));
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

/* Takes over what @parse read: the key's value as the one last read, its
 * readable entries handed to the store, the others kept raw. */
static void
apply_parse (PalStoredList      *list,
             PalStoredListParse *parse)
{
  gboolean had_errors = list->load_errors->len > 0;

  g_clear_pointer (&list->last_value, g_variant_unref);
  list->last_value = g_steal_pointer (&parse->value);
  g_clear_pointer (&list->skipped, g_ptr_array_unref);
  list->skipped = g_steal_pointer (&parse->skipped);
  g_clear_pointer (&list->load_errors, g_ptr_array_unref);
  list->load_errors = g_steal_pointer (&parse->load_errors);

  list->loading = TRUE;
  list->funcs->apply (list->owner, parse->items);
  list->loading = FALSE;

  if (had_errors || list->load_errors->len > 0)
    g_object_notify_by_pspec (list->owner, list->load_errors_pspec);

  _pal_stored_list_parse_free (parse);
}

static void
settings_changed_cb (GSettings  *settings,
                     const char *key,
                     gpointer    user_data)
{
  PalStoredList *list = user_data;
  g_autoptr(GVariant) value = g_settings_get_value (settings, list->funcs->key);

  if (list->last_value != NULL && g_variant_equal (list->last_value, value))
    return;

  /* Someone else wrote the key: theirs is newer than any pending change. */
  g_clear_handle_id (&list->save_source, g_source_remove);
  apply_parse (list, _pal_stored_list_parse (list->funcs, value));
}

void
_pal_stored_list_start_parsed (PalStoredList      *list,
                               GSettings          *settings,
                               PalStoredListParse *parse)
{
  g_autofree char *signal = NULL;

  g_assert (list->settings == NULL);
  g_assert (G_IS_SETTINGS (settings));

  list->settings = g_object_ref (settings);
  signal = g_strconcat ("changed::", list->funcs->key, NULL);
  list->changed_id = g_signal_connect (settings, signal, G_CALLBACK (settings_changed_cb), list);

  if (parse == NULL)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, list->funcs->key);

      parse = _pal_stored_list_parse (list->funcs, value);
    }
  apply_parse (list, parse);
}

void
_pal_stored_list_start (PalStoredList *list,
                        GSettings     *settings)
{
  _pal_stored_list_start_parsed (list, settings, NULL);
}

void
_pal_stored_list_dispose (PalStoredList *list)
{
  if (list->save_source != 0)
    _pal_stored_list_save (list);

  if (list->settings != NULL)
    g_clear_signal_handler (&list->changed_id, list->settings);
  g_clear_object (&list->settings);
}

void
_pal_stored_list_clear (PalStoredList *list)
{
  g_clear_handle_id (&list->save_source, g_source_remove);
  g_clear_pointer (&list->skipped, g_ptr_array_unref);
  g_clear_pointer (&list->load_errors, g_ptr_array_unref);
  g_clear_pointer (&list->last_value, g_variant_unref);
}

const char * const *
_pal_stored_list_get_load_errors (PalStoredList *list)
{
  return _pal_ptr_array_as_strv (list->load_errors);
}
