/* acp-config-choice.c: one value a select config option offers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-config-choice.h"
#include "acp-error.h"
#include "acp-json.h"

/**
 * AcpConfigChoice:
 *
 * A SessionConfigSelectOption: one value of a select #AcpConfigOption,
 * with the name of its group when the agent sent the values grouped
 * (SessionConfigSelectGroup). It does not change once made.
 */
struct _AcpConfigChoice
{
  GObject  parent_instance;

  char    *value;
  char    *name;
  char    *description;
  char    *group_name;
};

G_DEFINE_FINAL_TYPE (AcpConfigChoice, acp_config_choice, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_VALUE,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_GROUP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_config_choice_finalize (GObject *object)
{
  AcpConfigChoice *self = (AcpConfigChoice *)object;

  g_clear_pointer (&self->value, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->group_name, g_free);

  G_OBJECT_CLASS (acp_config_choice_parent_class)->finalize (object);
}

static void
acp_config_choice_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AcpConfigChoice *self = ACP_CONFIG_CHOICE (object);

  switch (prop_id)
    {
    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_GROUP_NAME:
      g_value_set_string (value, self->group_name);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_config_choice_class_init (AcpConfigChoiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = acp_config_choice_finalize;
  object_class->get_property = acp_config_choice_get_property;

  properties[PROP_VALUE] = g_param_spec_string ("value", NULL, NULL, NULL, ro);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, ro);
  properties[PROP_GROUP_NAME] = g_param_spec_string ("group-name", NULL, NULL, NULL, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_config_choice_init (AcpConfigChoice *self)
{
}

/**
 * acp_config_choice_new_from_json:
 * @node: a SessionConfigSelectOption
 * @group_name: (nullable): the name of the group it came in
 * @error: return location for an error
 *
 * A value needs a string `value` and `name`; a `description` that is not a
 * string reads as none.
 *
 * Returns: (transfer full) (nullable): the choice, or %NULL with
 *   %ACP_ERROR_INVALID_MESSAGE saying what is wrong with @node
 */
AcpConfigChoice *
acp_config_choice_new_from_json (JsonNode    *node,
                                 const char  *group_name,
                                 GError     **error)
{
  JsonObject *object;
  const char *value, *name;
  AcpConfigChoice *self;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A config option value must be an object");
      return NULL;
    }

  object = json_node_get_object (node);
  value = acp_json_get_string (object, "value", NULL);
  name = acp_json_get_string (object, "name", NULL);
  if (value == NULL || name == NULL)
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A config option value needs a string value and name");
      return NULL;
    }

  self = g_object_new (ACP_TYPE_CONFIG_CHOICE, NULL);
  self->value = g_strdup (value);
  self->name = g_strdup (name);
  self->description = g_strdup (acp_json_get_string (object, "description", NULL));
  self->group_name = g_strdup (group_name);

  return self;
}

/* Returns: the value id to send when this one is chosen */
const char *
acp_config_choice_get_value (AcpConfigChoice *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_CHOICE (self), NULL);

  return self->value;
}

const char *
acp_config_choice_get_name (AcpConfigChoice *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_CHOICE (self), NULL);

  return self->name;
}

/* Returns: (nullable) */
const char *
acp_config_choice_get_description (AcpConfigChoice *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_CHOICE (self), NULL);

  return self->description;
}

/* Returns: (nullable): the name of the group the agent put it in */
const char *
acp_config_choice_get_group_name (AcpConfigChoice *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_CHOICE (self), NULL);

  return self->group_name;
}

/**
 * acp_config_choice_equal:
 * @a: an #AcpConfigChoice
 * @b: an #AcpConfigChoice
 *
 * Returns: whether @a and @b say the same
 */
gboolean
acp_config_choice_equal (AcpConfigChoice *a,
                         AcpConfigChoice *b)
{
  g_return_val_if_fail (ACP_IS_CONFIG_CHOICE (a), FALSE);
  g_return_val_if_fail (ACP_IS_CONFIG_CHOICE (b), FALSE);

  return g_str_equal (a->value, b->value) &&
         g_str_equal (a->name, b->name) &&
         g_strcmp0 (a->description, b->description) == 0 &&
         g_strcmp0 (a->group_name, b->group_name) == 0;
}
