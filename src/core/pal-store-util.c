/* pal-store-util.c: helpers shared by the settings-backed stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-store-private.h"

static gboolean
lookup_typed (GVariant    *dict,
              const char  *key,
              const char  *type_string,
              gboolean     required,
              GVariant   **out,
              char       **reason)
{
  g_autoptr(GVariant) value = NULL;

  g_assert (g_variant_is_of_type (dict, G_VARIANT_TYPE_VARDICT));

  value = g_variant_lookup_value (dict, key, NULL);
  if (value == NULL)
    {
      if (required)
        {
          *reason = g_strdup_printf (_("the key “%s” is missing"), key);
          return FALSE;
        }
      *out = NULL;
      return TRUE;
    }

  if (!g_variant_is_of_type (value, G_VARIANT_TYPE (type_string)))
    {
      *reason = g_strdup_printf (_("the key “%s” has the type “%s” instead of “%s”"),
                                 key, g_variant_get_type_string (value), type_string);
      return FALSE;
    }

  *out = g_steal_pointer (&value);
  return TRUE;
}

gboolean
_pal_dict_get_string (GVariant    *dict,
                      const char  *key,
                      gboolean     required,
                      char       **out,
                      char       **reason)
{
  g_autoptr(GVariant) value = NULL;

  if (!lookup_typed (dict, key, "s", required, &value, reason))
    return FALSE;
  if (value != NULL)
    {
      g_free (*out);
      *out = g_variant_dup_string (value, NULL);
    }
  return TRUE;
}

gboolean
_pal_dict_get_strv (GVariant    *dict,
                    const char  *key,
                    gboolean     required,
                    char      ***out,
                    char       **reason)
{
  g_autoptr(GVariant) value = NULL;

  if (!lookup_typed (dict, key, "as", required, &value, reason))
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
  g_autoptr(GVariant) value = NULL;

  if (!lookup_typed (dict, key, "b", required, &value, reason))
    return FALSE;
  if (value != NULL)
    *out = g_variant_get_boolean (value);
  return TRUE;
}

gboolean
_pal_dict_get_int64 (GVariant    *dict,
                     const char  *key,
                     gboolean     required,
                     gint64      *out,
                     char       **reason)
{
  g_autoptr(GVariant) value = NULL;

  if (!lookup_typed (dict, key, "x", required, &value, reason))
    return FALSE;
  if (value != NULL)
    *out = g_variant_get_int64 (value);
  return TRUE;
}

gboolean
_pal_dict_get_value (GVariant    *dict,
                     const char  *key,
                     const char  *type_string,
                     gboolean     required,
                     GVariant   **out,
                     char       **reason)
{
  g_autoptr(GVariant) value = NULL;

  if (!lookup_typed (dict, key, type_string, required, &value, reason))
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
