/* acp-values.c: lists of the typed values of transcript items
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-values-private.h"

/* The lists an agent sends (a tool call's content and locations, a plan's
 * entries) become lists of typed values. The protocol replaces such a list
 * whole, so an item replaces its model too rather than changing it: a view
 * that holds one sees a list that never changes under it. A history may
 * hold a million of them, most with one value: an AcpValueList is an
 * object and an array, where a GListStore is a sequence of nodes. */

#define ACP_TYPE_VALUE_LIST (acp_value_list_get_type ())

G_DECLARE_FINAL_TYPE (AcpValueList, acp_value_list, ACP, VALUE_LIST, GObject)

struct _AcpValueList
{
  GObject   parent_instance;

  GType     item_type;
  guint     n_items;
  gpointer *items;      /* (nullable) (owned): n_items references */
};

static GType
acp_value_list_get_item_type (GListModel *model)
{
  return ACP_VALUE_LIST (model)->item_type;
}

static guint
acp_value_list_get_n_items (GListModel *model)
{
  return ACP_VALUE_LIST (model)->n_items;
}

static gpointer
acp_value_list_get_item (GListModel *model,
                         guint       position)
{
  AcpValueList *self = ACP_VALUE_LIST (model);

  return position < self->n_items ? g_object_ref (self->items[position]) : NULL;
}

static void
acp_value_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = acp_value_list_get_item_type;
  iface->get_n_items = acp_value_list_get_n_items;
  iface->get_item = acp_value_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AcpValueList, acp_value_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, acp_value_list_model_init))

static void
acp_value_list_finalize (GObject *object)
{
  AcpValueList *self = ACP_VALUE_LIST (object);

  for (guint i = 0; i < self->n_items; i++)
    g_object_unref (self->items[i]);
  g_free (self->items);

  G_OBJECT_CLASS (acp_value_list_parent_class)->finalize (object);
}

static void
acp_value_list_class_init (AcpValueListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = acp_value_list_finalize;
}

static void
acp_value_list_init (AcpValueList *self)
{
}

/* Takes @items (of @type, owned; nullable when @n_items is 0) */
static GListModel *
value_list_new (GType     type,
                gpointer *items,
                guint     n_items)
{
  AcpValueList *self = g_object_new (ACP_TYPE_VALUE_LIST, NULL);

  self->item_type = type;
  self->items = items;
  self->n_items = n_items;

  return G_LIST_MODEL (self);
}

GListModel *
_acp_values_new_list (const AcpJsonDoc   *doc,
                      const AcpJsonValue *array,
                      GType               type,
                      AcpValueParseFunc   parse,
                      const char         *what)
{
  GPtrArray *values = g_ptr_array_sized_new (acp_json_value_get_size (array));
  guint i = 0;
  gsize n;
  gpointer *items;

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

  items = g_ptr_array_steal (values, &n);
  g_ptr_array_unref (values);

  return value_list_new (type, items, (guint) n);
}

GListModel *
_acp_values_new_empty_list (GType type)
{
  return value_list_new (type, NULL, 0);
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
