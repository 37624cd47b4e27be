/* acp-generic-item.c: a session update this library does not know
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-generic-item.h"

/**
 * AcpGenericItem:
 *
 * An update of a variant this library does not know (newer agents send newer
 * ones). It is kept and shown, never dropped.
 */
struct _AcpGenericItem
{
  AcpItem     parent_instance;

  char       *update_name;
  JsonObject *update;
};

G_DEFINE_FINAL_TYPE (AcpGenericItem, acp_generic_item, ACP_TYPE_ITEM)

enum {
  PROP_0,
  PROP_UPDATE_NAME,
  PROP_UPDATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_generic_item_finalize (GObject *object)
{
  AcpGenericItem *self = (AcpGenericItem *)object;

  g_clear_pointer (&self->update_name, g_free);
  g_clear_pointer (&self->update, json_object_unref);

  G_OBJECT_CLASS (acp_generic_item_parent_class)->finalize (object);
}

static void
acp_generic_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AcpGenericItem *self = ACP_GENERIC_ITEM (object);

  switch (prop_id)
    {
    case PROP_UPDATE_NAME:
      g_value_set_string (value, self->update_name);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_generic_item_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AcpGenericItem *self = ACP_GENERIC_ITEM (object);
  JsonObject *update;

  switch (prop_id)
    {
    case PROP_UPDATE_NAME:
      g_free (self->update_name);
      self->update_name = g_strdup (g_value_get_string (value) != NULL ? g_value_get_string (value) : "");
      break;

    case PROP_UPDATE:
      update = g_value_get_boxed (value);
      g_clear_pointer (&self->update, json_object_unref);
      self->update = update != NULL ? json_object_ref (update) : json_object_new ();
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_generic_item_class_init (AcpGenericItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AcpItemClass *item_class = ACP_ITEM_CLASS (klass);

  object_class->finalize = acp_generic_item_finalize;
  object_class->get_property = acp_generic_item_get_property;
  object_class->set_property = acp_generic_item_set_property;

  item_class->kind = ACP_ITEM_KIND_GENERIC;

  properties[PROP_UPDATE_NAME] =
    g_param_spec_string ("update-name", NULL, NULL,
                         "",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /* read as text: acp_generic_item_dup_update_json() */
  properties[PROP_UPDATE] =
    g_param_spec_boxed ("update", NULL, NULL,
                        JSON_TYPE_OBJECT,
                        G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_generic_item_init (AcpGenericItem *self)
{
  self->update_name = g_strdup ("");
  self->update = json_object_new ();
}

/**
 * acp_generic_item_new:
 * @update_name: (nullable): the `sessionUpdate` value
 * @update: the whole update object; a reference is kept
 *
 * Returns: (transfer full): a new generic item
 */
AcpGenericItem *
acp_generic_item_new (const char *update_name,
                      JsonObject *update)
{
  g_return_val_if_fail (update != NULL, NULL);

  return g_object_new (ACP_TYPE_GENERIC_ITEM,
                       "update-name", update_name,
                       "update", update,
                       NULL);
}

const char *
acp_generic_item_get_update_name (AcpGenericItem *self)
{
  g_return_val_if_fail (ACP_IS_GENERIC_ITEM (self), NULL);

  return self->update_name;
}

/**
 * acp_generic_item_dup_update_json:
 * @self: an #AcpGenericItem
 *
 * Returns: (transfer full): the whole update object as indented JSON, to
 *   show as it came
 */
char *
acp_generic_item_dup_update_json (AcpGenericItem *self)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (ACP_IS_GENERIC_ITEM (self), NULL);

  node = json_node_init_object (json_node_alloc (), self->update);
  return json_to_string (node, TRUE);
}
