/* acp-values.c: lists of the typed values of transcript items
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-values-private.h"

/* The lists an agent sends (a tool call's content and locations, a plan's
 * entries, a permission request's options) become GListStores of typed
 * values. The protocol replaces such a list whole, so an item replaces its
 * model too rather than changing it: a view that holds one sees a list that
 * never changes under it. */

GListModel *
_acp_values_new_list (const AcpJsonDoc   *doc,
                      const AcpJsonValue *array,
                      GType               type,
                      AcpValueParseFunc   parse,
                      const char         *what)
{
  GListStore *store = g_list_store_new (type);
  g_autoptr(GPtrArray) values = g_ptr_array_new_full (acp_json_value_get_size (array), g_object_unref);
  guint i = 0;

  for (const AcpJsonValue *element = acp_json_value_get_first (doc, array);
       element != NULL;
       element = acp_json_value_get_next (doc, element), i++)
    {
      gpointer value = parse (doc, element);

      if (value != NULL)
        g_ptr_array_add (values, value);
      else
        g_debug ("Skipping an invalid %s (index %u)", what, i);
    }

  /* one splice: no signal per value */
  g_list_store_splice (store, 0, 0, values->pdata, values->len);

  return G_LIST_MODEL (store);
}

GListModel *
_acp_values_new_empty_list (GType type)
{
  return G_LIST_MODEL (g_list_store_new (type));
}

gboolean
_acp_values_list_equal (GListModel *a,
                        GListModel *b,
                        GEqualFunc  equal)
{
  guint n = g_list_model_get_n_items (a);

  if (a == b)
    return TRUE;
  if (n != g_list_model_get_n_items (b))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) x = g_list_model_get_item (a, i);
      g_autoptr(GObject) y = g_list_model_get_item (b, i);

      if (!equal (x, y))
        return FALSE;
    }

  return TRUE;
}

int
_acp_values_find_name (const char * const *names,
                       int                 n_names,
                       const char         *name,
                       int                 unknown)
{
  for (int i = 0; i < n_names; i++)
    {
      if (names[i] != NULL && strcmp (names[i], name) == 0)
        return i;
    }

  return unknown;
}
