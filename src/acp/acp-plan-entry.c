/* acp-plan-entry.c: a PlanEntry of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-values-private.h"

/**
 * AcpPlanEntry:
 *
 * One task of the agent's plan: what it is, how much it matters, and how
 * far it got. Immutable: a `plan` update replaces every entry.
 */
struct _AcpPlanEntry
{
  GObject               parent_instance;

  char                 *content;
  AcpPlanEntryPriority  priority;
  AcpPlanEntryStatus    status;
};

G_DEFINE_ENUM_TYPE (AcpPlanEntryPriority, acp_plan_entry_priority,
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_PRIORITY_HIGH, "high"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_PRIORITY_MEDIUM, "medium"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_PRIORITY_LOW, "low"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_PRIORITY_UNKNOWN, "unknown"))

G_DEFINE_ENUM_TYPE (AcpPlanEntryStatus, acp_plan_entry_status,
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_STATUS_PENDING, "pending"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_STATUS_IN_PROGRESS, "in_progress"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_STATUS_COMPLETED, "completed"),
  G_DEFINE_ENUM_VALUE (ACP_PLAN_ENTRY_STATUS_UNKNOWN, "unknown"))

static const char * const priority_names[] = {
  [ACP_PLAN_ENTRY_PRIORITY_HIGH] = "high",
  [ACP_PLAN_ENTRY_PRIORITY_MEDIUM] = "medium",
  [ACP_PLAN_ENTRY_PRIORITY_LOW] = "low",
};

static const char * const status_names[] = {
  [ACP_PLAN_ENTRY_STATUS_PENDING] = "pending",
  [ACP_PLAN_ENTRY_STATUS_IN_PROGRESS] = "in_progress",
  [ACP_PLAN_ENTRY_STATUS_COMPLETED] = "completed",
};

G_DEFINE_FINAL_TYPE (AcpPlanEntry, acp_plan_entry, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONTENT,
  PROP_PRIORITY,
  PROP_STATUS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_plan_entry_finalize (GObject *object)
{
  AcpPlanEntry *self = (AcpPlanEntry *)object;

  g_free (self->content);

  G_OBJECT_CLASS (acp_plan_entry_parent_class)->finalize (object);
}

static void
acp_plan_entry_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AcpPlanEntry *self = ACP_PLAN_ENTRY (object);

  switch (prop_id)
    {
    case PROP_CONTENT:
      g_value_set_string (value, self->content);
      break;

    case PROP_PRIORITY:
      g_value_set_enum (value, self->priority);
      break;

    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_plan_entry_class_init (AcpPlanEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = acp_plan_entry_finalize;
  object_class->get_property = acp_plan_entry_get_property;

  properties[PROP_CONTENT] =
    g_param_spec_string ("content", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_PRIORITY] =
    g_param_spec_enum ("priority", NULL, NULL,
                       ACP_TYPE_PLAN_ENTRY_PRIORITY,
                       ACP_PLAN_ENTRY_PRIORITY_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL,
                       ACP_TYPE_PLAN_ENTRY_STATUS,
                       ACP_PLAN_ENTRY_STATUS_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_plan_entry_init (AcpPlanEntry *self)
{
  self->priority = ACP_PLAN_ENTRY_PRIORITY_UNKNOWN;
  self->status = ACP_PLAN_ENTRY_STATUS_UNKNOWN;
}

/**
 * _acp_plan_entry_new_from_json:
 * @doc: the document @value is in
 * @value: a PlanEntry
 *
 * Returns: (transfer full) (nullable): the entry, %NULL unless @value is an
 *   object with string content, priority and status (a priority or status
 *   this library does not know is kept as UNKNOWN)
 */
AcpPlanEntry *
_acp_plan_entry_new_from_json (const AcpJsonDoc   *doc,
                               const AcpJsonValue *value)
{
  const char *content = acp_json_value_get_string_member (doc, value, "content");
  const char *priority = acp_json_value_get_string_member (doc, value, "priority");
  const char *status = acp_json_value_get_string_member (doc, value, "status");
  AcpPlanEntry *self;

  if (content == NULL || priority == NULL || status == NULL)
    return NULL;

  self = g_object_new (ACP_TYPE_PLAN_ENTRY, NULL);
  self->content = g_strdup (content);
  self->priority = _acp_values_find_name (priority_names, G_N_ELEMENTS (priority_names), priority,
                                          ACP_PLAN_ENTRY_PRIORITY_UNKNOWN);
  self->status = _acp_values_find_name (status_names, G_N_ELEMENTS (status_names), status,
                                        ACP_PLAN_ENTRY_STATUS_UNKNOWN);

  return self;
}

gboolean
_acp_plan_entry_equal (gconstpointer a,
                       gconstpointer b)
{
  const AcpPlanEntry *x = a, *y = b;

  return x == y ||
         (x->priority == y->priority && x->status == y->status &&
          g_strcmp0 (x->content, y->content) == 0);
}

const char *
acp_plan_entry_get_content (AcpPlanEntry *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ENTRY (self), NULL);

  return self->content;
}

AcpPlanEntryPriority
acp_plan_entry_get_priority (AcpPlanEntry *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ENTRY (self), ACP_PLAN_ENTRY_PRIORITY_UNKNOWN);

  return self->priority;
}

AcpPlanEntryStatus
acp_plan_entry_get_status (AcpPlanEntry *self)
{
  g_return_val_if_fail (ACP_IS_PLAN_ENTRY (self), ACP_PLAN_ENTRY_STATUS_UNKNOWN);

  return self->status;
}
