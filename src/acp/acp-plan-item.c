/* acp-plan-item.c: the agent's plan in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-plan-item.h"

/**
 * AcpPlanItem:
 *
 * The agent's plan. Each `plan` update carries the full list, which
 * replaces the entries.
 */
struct _AcpPlanItem
{
  AcpItem    parent_instance;

  JsonArray *entries;
};

G_DEFINE_FINAL_TYPE (AcpPlanItem, acp_plan_item, ACP_TYPE_ITEM)

enum {
  PROP_0,
  PROP_ENTRIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_plan_item_finalize (GObject *object)
{
  AcpPlanItem *self = (AcpPlanItem *)object;

  g_clear_pointer (&self->entries, json_array_unref);

  G_OBJECT_CLASS (acp_plan_item_parent_class)->finalize (object);
}

static void
acp_plan_item_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  AcpPlanItem *self = ACP_PLAN_ITEM (object);

  switch (prop_id)
    {
    case PROP_ENTRIES:
      g_value_set_boxed (value, self->entries);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_plan_item_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  AcpPlanItem *self = ACP_PLAN_ITEM (object);

  switch (prop_id)
    {
    case PROP_ENTRIES:
      acp_plan_item_set_entries (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_plan_item_class_init (AcpPlanItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AcpItemClass *item_class = ACP_ITEM_CLASS (klass);

  object_class->finalize = acp_plan_item_finalize;
  object_class->get_property = acp_plan_item_get_property;
  object_class->set_property = acp_plan_item_set_property;

  item_class->kind = ACP_ITEM_KIND_PLAN;

  properties[PROP_ENTRIES] =
    g_param_spec_boxed ("entries", NULL, NULL,
                        JSON_TYPE_ARRAY,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_plan_item_init (AcpPlanItem *self)
{
  self->entries = json_array_new ();
}

/**
 * acp_plan_item_new:
 * @entries: (nullable): PlanEntry objects; a reference is kept
 *
 * Returns: (transfer full): a new plan item
 */
AcpPlanItem *
acp_plan_item_new (JsonArray *entries)
{
  return g_object_new (ACP_TYPE_PLAN_ITEM,
                       "entries", entries,
                       NULL);
}

/**
 * acp_plan_item_get_entries:
 * @self: an #AcpPlanItem
 *
 * Returns: (transfer none): the PlanEntry objects, never %NULL
 */
JsonArray *
acp_plan_item_get_entries (AcpPlanItem *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ITEM (self), NULL);

  return self->entries;
}

/**
 * acp_plan_item_set_entries:
 * @self: an #AcpPlanItem
 * @entries: (nullable): the new list; a reference is kept; %NULL empties it
 *
 * Replaces the whole list and notifies "entries" if it differs.
 */
void
acp_plan_item_set_entries (AcpPlanItem *self,
                           JsonArray   *entries)
{
  g_autoptr(JsonArray) empty = NULL;

  g_return_if_fail (ACP_IS_PLAN_ITEM (self));

  if (entries == NULL)
    entries = empty = json_array_new ();

  if (self->entries == entries || json_array_equal (self->entries, entries))
    return;

  json_array_unref (self->entries);
  self->entries = json_array_ref (entries);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENTRIES]);
}
