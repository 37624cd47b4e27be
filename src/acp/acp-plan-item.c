/* acp-plan-item.c: the agent's plan in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-plan-item.h"
#include "acp-update-private.h"
#include "acp-values-private.h"

/**
 * AcpPlanItem:
 *
 * The agent's plan. Each `plan` update carries the full list, which
 * replaces the entries: the item holds another list model then, and
 * notifies "entries".
 */
struct _AcpPlanItem
{
  AcpItem     parent_instance;

  GListModel *entries;   /* (nullable): AcpPlanEntry; none yet */
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

  g_clear_object (&self->entries);

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
      g_value_set_object (value, acp_plan_item_get_entries (self));
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

  item_class->kind = ACP_ITEM_KIND_PLAN;

  /* AcpPlanEntry */
  properties[PROP_ENTRIES] =
    g_param_spec_object ("entries", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_plan_item_init (AcpPlanItem *self)
{
}

/**
 * acp_plan_item_new:
 *
 * Returns: (transfer full): a new plan item without entries
 */
AcpPlanItem *
acp_plan_item_new (void)
{
  return g_object_new (ACP_TYPE_PLAN_ITEM, NULL);
}

/**
 * acp_plan_item_get_entries:
 * @self: an #AcpPlanItem
 *
 * Returns: (transfer none): the #AcpPlanEntry values, never %NULL
 */
GListModel *
acp_plan_item_get_entries (AcpPlanItem *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ITEM (self), NULL);

  if (self->entries == NULL)
    self->entries = _acp_values_new_empty_list (ACP_TYPE_PLAN_ENTRY);

  return self->entries;
}

/**
 * _acp_plan_item_set_entries:
 * @self: an #AcpPlanItem
 * @entries: the new #AcpPlanEntry values (a reference is kept)
 *
 * Replaces the list and notifies "entries", unless @entries holds the
 * same values.
 */
void
_acp_plan_item_set_entries (AcpPlanItem *self,
                            GListModel  *entries)
{
  g_return_if_fail (ACP_IS_PLAN_ITEM (self));
  g_return_if_fail (G_IS_LIST_MODEL (entries));

  if (self->entries == NULL)
    {
      /* no entries before: nothing changes for an empty list */
      g_set_object (&self->entries, entries);
      if (g_list_model_get_n_items (entries) > 0)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENTRIES]);
      return;
    }
  if (_acp_values_list_equal (self->entries, entries, _acp_plan_entry_equal))
    return;

  g_set_object (&self->entries, entries);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENTRIES]);
}
