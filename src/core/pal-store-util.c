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

gboolean
_pal_note_left_out (GPtrArray  *notes,
                    gboolean    read,
                    char      **reason)
{
  g_autofree char *taken = g_steal_pointer (reason);

  if (read)
    return TRUE;

  g_assert (taken != NULL);
  /* TRANSLATORS: %s says what is wrong with a member of a stored entry
   * (“the key “title” has the type “i” instead of “s””) */
  g_ptr_array_add (notes, g_strdup_printf (_("%s, and was left out"), taken));
  return FALSE;
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
