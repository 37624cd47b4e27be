/* acp-item.c: the base class of transcript items
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-item.h"

G_DEFINE_ENUM_TYPE (AcpItemKind, acp_item_kind,
  G_DEFINE_ENUM_VALUE (ACP_ITEM_KIND_MESSAGE, "message"),
  G_DEFINE_ENUM_VALUE (ACP_ITEM_KIND_TOOL_CALL, "tool-call"),
  G_DEFINE_ENUM_VALUE (ACP_ITEM_KIND_PLAN, "plan"),
  G_DEFINE_ENUM_VALUE (ACP_ITEM_KIND_PERMISSION, "permission"),
  G_DEFINE_ENUM_VALUE (ACP_ITEM_KIND_NOTICE, "notice"),
  G_DEFINE_ENUM_VALUE (ACP_ITEM_KIND_GENERIC, "generic"))

G_DEFINE_ABSTRACT_TYPE (AcpItem, acp_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_item_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  AcpItem *self = ACP_ITEM (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, acp_item_get_kind (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_item_class_init (AcpItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = acp_item_get_property;

  klass->kind = ACP_ITEM_KIND_GENERIC;

  /**
   * AcpItem:kind:
   *
   * What kind of item this is, so that a view can pick a row type without
   * type checks.
   */
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       ACP_TYPE_ITEM_KIND,
                       ACP_ITEM_KIND_GENERIC,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_item_init (AcpItem *self)
{
}

/**
 * acp_item_get_kind:
 * @self: an #AcpItem
 *
 * Returns: the kind of @self
 */
AcpItemKind
acp_item_get_kind (AcpItem *self)
{
  g_return_val_if_fail (ACP_IS_ITEM (self), ACP_ITEM_KIND_GENERIC);

  return ACP_ITEM_GET_CLASS (self)->kind;
}
