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
 * notifies "entries". A plan with an id (`plan_update`) may be entries,
 * Markdown text or a file's URI, each update replacing whatever it was,
 * until `plan_removed` marks it removed.
 */
struct _AcpPlanItem
{
  AcpItem      parent_instance;

  char        *plan_id;   /* (nullable) */
  AcpPlanForm  form;
  GListModel  *entries;   /* (nullable): AcpPlanEntry; none yet */
  char        *markdown;  /* (nullable) */
  char        *uri;       /* (nullable) */
  gboolean     removed;
};

G_DEFINE_ENUM_TYPE (AcpPlanForm, acp_plan_form,
  G_DEFINE_ENUM_VALUE (ACP_PLAN_FORM_ITEMS, "items"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_FORM_MARKDOWN, "markdown"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_FORM_FILE, "file"))

G_DEFINE_FINAL_TYPE (AcpPlanItem, acp_plan_item, ACP_TYPE_ITEM)

enum {
  PROP_0,
  PROP_PLAN_ID,
  PROP_FORM,
  PROP_ENTRIES,
  PROP_MARKDOWN,
  PROP_URI,
  PROP_REMOVED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_plan_item_finalize (GObject *object)
{
  AcpPlanItem *self = (AcpPlanItem *)object;

  g_clear_pointer (&self->plan_id, g_free);
  g_clear_object (&self->entries);
  g_clear_pointer (&self->markdown, g_free);
  g_clear_pointer (&self->uri, g_free);

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
    case PROP_PLAN_ID:
      g_value_set_string (value, self->plan_id);
      break;

    case PROP_FORM:
      g_value_set_enum (value, self->form);
      break;

    case PROP_ENTRIES:
      g_value_set_object (value, acp_plan_item_get_entries (self));
      break;

    case PROP_MARKDOWN:
      g_value_set_string (value, self->markdown);
      break;

    case PROP_URI:
      g_value_set_string (value, self->uri);
      break;

    case PROP_REMOVED:
      g_value_set_boolean (value, self->removed);
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
    case PROP_PLAN_ID:
      self->plan_id = g_value_dup_string (value);
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

  properties[PROP_PLAN_ID] =
    g_param_spec_string ("plan-id", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_FORM] =
    g_param_spec_enum ("form", NULL, NULL,
                       ACP_TYPE_PLAN_FORM,
                       ACP_PLAN_FORM_ITEMS,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* AcpPlanEntry */
  properties[PROP_ENTRIES] =
    g_param_spec_object ("entries", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_MARKDOWN] =
    g_param_spec_string ("markdown", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_URI] =
    g_param_spec_string ("uri", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_REMOVED] =
    g_param_spec_boolean ("removed", NULL, NULL,
                          FALSE,
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
 * Returns: (transfer full): a new plan item without id nor entries
 */
AcpPlanItem *
acp_plan_item_new (void)
{
  return g_object_new (ACP_TYPE_PLAN_ITEM, NULL);
}

/**
 * acp_plan_item_new_with_id:
 * @plan_id: the planId of its `plan_update` updates
 *
 * Returns: (transfer full): a new plan item without entries
 */
AcpPlanItem *
acp_plan_item_new_with_id (const char *plan_id)
{
  g_return_val_if_fail (plan_id != NULL, NULL);

  return g_object_new (ACP_TYPE_PLAN_ITEM, "plan-id", plan_id, NULL);
}

const char *
acp_plan_item_get_plan_id (AcpPlanItem *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ITEM (self), NULL);

  return self->plan_id;
}

AcpPlanForm
acp_plan_item_get_form (AcpPlanItem *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ITEM (self), ACP_PLAN_FORM_ITEMS);

  return self->form;
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

const char *
acp_plan_item_get_markdown (AcpPlanItem *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ITEM (self), NULL);

  return self->markdown;
}

const char *
acp_plan_item_get_uri (AcpPlanItem *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ITEM (self), NULL);

  return self->uri;
}

gboolean
acp_plan_item_get_removed (AcpPlanItem *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ITEM (self), FALSE);

  return self->removed;
}

static void
set_form (AcpPlanItem *self,
          AcpPlanForm  form)
{
  if (self->form == form)
    return;

  self->form = form;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORM]);
}

static void
set_string (AcpPlanItem  *self,
            char        **field,
            const char   *value,
            GParamSpec   *pspec)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

static void
replace_entries (AcpPlanItem *self,
                 GListModel  *entries)
{
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

/* Makes the plan @form, holding @entries, @markdown or @uri (the others
 * emptied), with one notification per property that changed, after all of
 * them changed. */
static void
set_content (AcpPlanItem *self,
             AcpPlanForm  form,
             GListModel  *entries,
             const char  *markdown,
             const char  *uri)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (entries != NULL)
    {
      replace_entries (self, entries);
    }
  else if (self->entries != NULL && g_list_model_get_n_items (self->entries) > 0)
    {
      g_autoptr(GListModel) none = _acp_values_new_empty_list (ACP_TYPE_PLAN_ENTRY);

      replace_entries (self, none);
    }
  set_string (self, &self->markdown, markdown, properties[PROP_MARKDOWN]);
  set_string (self, &self->uri, uri, properties[PROP_URI]);
  set_form (self, form);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * _acp_plan_item_set_entries:
 * @self: an #AcpPlanItem
 * @entries: the new #AcpPlanEntry values (a reference is kept)
 *
 * Makes the plan these entries: replaces the list and notifies "entries",
 * unless @entries holds the same values.
 */
void
_acp_plan_item_set_entries (AcpPlanItem *self,
                            GListModel  *entries)
{
  g_return_if_fail (ACP_IS_PLAN_ITEM (self));
  g_return_if_fail (G_IS_LIST_MODEL (entries));

  set_content (self, ACP_PLAN_FORM_ITEMS, entries, NULL, NULL);
}

/* Makes the plan this Markdown text */
void
_acp_plan_item_set_markdown (AcpPlanItem *self,
                             const char  *markdown)
{
  g_return_if_fail (ACP_IS_PLAN_ITEM (self));
  g_return_if_fail (markdown != NULL);

  set_content (self, ACP_PLAN_FORM_MARKDOWN, NULL, markdown, NULL);
}

/* Makes the plan the file of this URI */
void
_acp_plan_item_set_uri (AcpPlanItem *self,
                        const char  *uri)
{
  g_return_if_fail (ACP_IS_PLAN_ITEM (self));
  g_return_if_fail (uri != NULL);

  set_content (self, ACP_PLAN_FORM_FILE, NULL, NULL, uri);
}

/* Marks the plan removed; what it held stays */
void
_acp_plan_item_set_removed (AcpPlanItem *self)
{
  g_return_if_fail (ACP_IS_PLAN_ITEM (self));

  if (self->removed)
    return;

  self->removed = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REMOVED]);
}
