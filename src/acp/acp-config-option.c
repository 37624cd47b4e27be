/* acp-config-option.c: one setting an agent offers for a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-config-option.h"
#include "acp-error.h"
#include "acp-json.h"

/**
 * AcpConfigOption:
 *
 * A SessionConfigOption: a setting of the session (a model, a mode, a
 * reasoning level…) with its current value. A select option offers its
 * values as a list of #AcpConfigChoice, grouped or not; a boolean one is on
 * or off; one of a type Palaver does not know is kept, as
 * %ACP_CONFIG_OPTION_TYPE_UNKNOWN, and not shown. It does not change once
 * made: the agent sends the whole list again when anything changes.
 */
struct _AcpConfigOption
{
  GObject              parent_instance;

  char                *id;
  char                *name;
  char                *description;
  char                *category;
  AcpConfigOptionType  type;
  char                *current_value;
  gboolean             current_boolean;
  GListStore          *choices;
};

G_DEFINE_ENUM_TYPE (AcpConfigOptionType, acp_config_option_type,
  G_DEFINE_ENUM_VALUE (ACP_CONFIG_OPTION_TYPE_UNKNOWN, "unknown"),
  G_DEFINE_ENUM_VALUE (ACP_CONFIG_OPTION_TYPE_SELECT, "select"),
  G_DEFINE_ENUM_VALUE (ACP_CONFIG_OPTION_TYPE_BOOLEAN, "boolean"))

G_DEFINE_FINAL_TYPE (AcpConfigOption, acp_config_option, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_CATEGORY,
  PROP_OPTION_TYPE,
  PROP_CURRENT_VALUE,
  PROP_CURRENT_BOOLEAN,
  PROP_CHOICES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_config_option_dispose (GObject *object)
{
  AcpConfigOption *self = (AcpConfigOption *)object;

  g_clear_object (&self->choices);

  G_OBJECT_CLASS (acp_config_option_parent_class)->dispose (object);
}

static void
acp_config_option_finalize (GObject *object)
{
  AcpConfigOption *self = (AcpConfigOption *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->category, g_free);
  g_clear_pointer (&self->current_value, g_free);

  G_OBJECT_CLASS (acp_config_option_parent_class)->finalize (object);
}

static void
acp_config_option_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AcpConfigOption *self = ACP_CONFIG_OPTION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_CATEGORY:
      g_value_set_string (value, self->category);
      break;

    case PROP_OPTION_TYPE:
      g_value_set_enum (value, self->type);
      break;

    case PROP_CURRENT_VALUE:
      g_value_set_string (value, self->current_value);
      break;

    case PROP_CURRENT_BOOLEAN:
      g_value_set_boolean (value, self->current_boolean);
      break;

    case PROP_CHOICES:
      g_value_set_object (value, self->choices);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_config_option_class_init (AcpConfigOptionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = acp_config_option_dispose;
  object_class->finalize = acp_config_option_finalize;
  object_class->get_property = acp_config_option_get_property;

  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, ro);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, ro);
  properties[PROP_CATEGORY] = g_param_spec_string ("category", NULL, NULL, NULL, ro);
  /* not "type": its getter would be acp_config_option_get_type(), the GType's */
  properties[PROP_OPTION_TYPE] =
    g_param_spec_enum ("option-type", NULL, NULL, ACP_TYPE_CONFIG_OPTION_TYPE,
                       ACP_CONFIG_OPTION_TYPE_UNKNOWN, ro);
  properties[PROP_CURRENT_VALUE] = g_param_spec_string ("current-value", NULL, NULL, NULL, ro);
  properties[PROP_CURRENT_BOOLEAN] =
    g_param_spec_boolean ("current-boolean", NULL, NULL, FALSE, ro);
  properties[PROP_CHOICES] = g_param_spec_object ("choices", NULL, NULL, G_TYPE_LIST_MODEL, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_config_option_init (AcpConfigOption *self)
{
  self->choices = g_list_store_new (ACP_TYPE_CONFIG_CHOICE);
}

static void
add_choice (GPtrArray  *choices,
            JsonNode   *node,
            const char *group_name)
{
  g_autoptr(GError) error = NULL;
  AcpConfigChoice *choice = acp_config_choice_new_from_json (node, group_name, &error);

  if (choice != NULL)
    g_ptr_array_add (choices, choice);
  else
    g_debug ("Skipping a value of a config option: %s", error->message);
}

/* The values of a select option, flat or in groups (SessionConfigSelectGroup:
 * an object with a group and options of its own); invalid ones are skipped. */
static void
collect_choices (GPtrArray *choices,
                 JsonArray *options)
{
  guint n = json_array_get_length (options);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (options, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonArray *members = acp_json_get_array (object, "options");

      if (object != NULL && json_object_has_member (object, "group") && members != NULL)
        {
          const char *group_name = acp_json_get_string (object, "name", NULL);

          for (guint j = 0; j < json_array_get_length (members); j++)
            add_choice (choices, json_array_get_element (members, j), group_name);
        }
      else
        {
          add_choice (choices, element, NULL);
        }
    }
}

/**
 * acp_config_option_new_from_json:
 * @node: an element of `configOptions`
 * @error: return location for an error
 *
 * A SessionConfigOption needs a string `id` and `name`. A `select` one
 * needs a string `currentValue` and an array of `options` (values, or
 * groups of values; invalid values are skipped), a `boolean` one a boolean
 * `currentValue`; one of another type is kept as
 * %ACP_CONFIG_OPTION_TYPE_UNKNOWN. A `description` or `category` that is
 * not a string reads as none.
 *
 * Returns: (transfer full) (nullable): the option, or %NULL with
 *   %ACP_ERROR_INVALID_MESSAGE saying what is wrong with @node
 */
AcpConfigOption *
acp_config_option_new_from_json (JsonNode  *node,
                                 GError   **error)
{
  g_autoptr(AcpConfigOption) self = NULL;
  g_autoptr(GPtrArray) choices = NULL;
  JsonObject *object;
  const char *id, *name, *type;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A config option must be an object");
      return NULL;
    }

  object = json_node_get_object (node);
  id = acp_json_get_string (object, "id", NULL);
  name = acp_json_get_string (object, "name", NULL);
  if (id == NULL || name == NULL)
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A config option needs a string id and name");
      return NULL;
    }

  self = g_object_new (ACP_TYPE_CONFIG_OPTION, NULL);
  self->id = g_strdup (id);
  self->name = g_strdup (name);
  self->description = g_strdup (acp_json_get_string (object, "description", NULL));
  self->category = g_strdup (acp_json_get_string (object, "category", NULL));

  type = acp_json_get_string (object, "type", "");
  if (g_str_equal (type, "select"))
    {
      const char *current = acp_json_get_string (object, "currentValue", NULL);
      JsonArray *options = acp_json_get_array (object, "options");

      if (current == NULL || options == NULL)
        {
          g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                       "The select config option “%s” needs a string currentValue and an array "
                       "of options", id);
          return NULL;
        }

      self->type = ACP_CONFIG_OPTION_TYPE_SELECT;
      self->current_value = g_strdup (current);
      choices = g_ptr_array_new_with_free_func (g_object_unref);
      collect_choices (choices, options);
      g_list_store_splice (self->choices, 0, 0, choices->pdata, choices->len);
    }
  else if (g_str_equal (type, "boolean"))
    {
      if (!acp_json_get_boolean (object, "currentValue", &self->current_boolean))
        {
          g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                       "The boolean config option “%s” needs a boolean currentValue", id);
          return NULL;
        }

      self->type = ACP_CONFIG_OPTION_TYPE_BOOLEAN;
    }
  else
    {
      self->type = ACP_CONFIG_OPTION_TYPE_UNKNOWN;
    }

  return g_steal_pointer (&self);
}

const char *
acp_config_option_get_id (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), NULL);

  return self->id;
}

const char *
acp_config_option_get_name (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), NULL);

  return self->name;
}

/* Returns: (nullable) */
const char *
acp_config_option_get_description (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), NULL);

  return self->description;
}

/**
 * acp_config_option_get_category:
 * @self: an #AcpConfigOption
 *
 * What the option is about, for placing it ("mode", "model",
 * "model_config", "thought_level", or one of the agent's own); never needed
 * to use it.
 *
 * Returns: (nullable): the category
 */
const char *
acp_config_option_get_category (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), NULL);

  return self->category;
}

AcpConfigOptionType
acp_config_option_get_option_type (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), ACP_CONFIG_OPTION_TYPE_UNKNOWN);

  return self->type;
}

/**
 * acp_config_option_get_current_value:
 * @self: an #AcpConfigOption
 *
 * Returns: (nullable): the value id a select option has now; %NULL for
 *   the other types
 */
const char *
acp_config_option_get_current_value (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), NULL);

  return self->current_value;
}

/* Returns: whether a boolean option is on (FALSE for the other types) */
gboolean
acp_config_option_get_current_boolean (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), FALSE);

  return self->current_boolean;
}

/**
 * acp_config_option_get_choices:
 * @self: an #AcpConfigOption
 *
 * Returns: (transfer none): the #AcpConfigChoice items of a select option,
 *   in the agent's order (groups one after the other); empty for the other
 *   types
 */
GListModel *
acp_config_option_get_choices (AcpConfigOption *self)
{
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), NULL);

  return G_LIST_MODEL (self->choices);
}

/**
 * acp_config_option_get_current_position:
 * @self: an #AcpConfigOption
 *
 * Returns: the position of the current value among the choices, or
 *   %G_MAXUINT when it is none of them (or the option is no select)
 */
guint
acp_config_option_get_current_position (AcpConfigOption *self)
{
  guint n;

  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (self), G_MAXUINT);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->choices));
  for (guint i = 0; self->current_value != NULL && i < n; i++)
    {
      g_autoptr(AcpConfigChoice) choice = g_list_model_get_item (G_LIST_MODEL (self->choices), i);

      if (g_str_equal (acp_config_choice_get_value (choice), self->current_value))
        return i;
    }

  return G_MAXUINT;
}

/**
 * acp_config_option_equal:
 * @a: an #AcpConfigOption
 * @b: an #AcpConfigOption
 *
 * Returns: whether @a and @b say the same, their choices included
 */
gboolean
acp_config_option_equal (AcpConfigOption *a,
                         AcpConfigOption *b)
{
  GListModel *a_choices, *b_choices;
  guint n;

  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (a), FALSE);
  g_return_val_if_fail (ACP_IS_CONFIG_OPTION (b), FALSE);

  a_choices = G_LIST_MODEL (a->choices);
  b_choices = G_LIST_MODEL (b->choices);
  n = g_list_model_get_n_items (a_choices);

  if (!g_str_equal (a->id, b->id) ||
      !g_str_equal (a->name, b->name) ||
      g_strcmp0 (a->description, b->description) != 0 ||
      g_strcmp0 (a->category, b->category) != 0 ||
      a->type != b->type ||
      g_strcmp0 (a->current_value, b->current_value) != 0 ||
      a->current_boolean != b->current_boolean ||
      n != g_list_model_get_n_items (b_choices))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpConfigChoice) a_choice = g_list_model_get_item (a_choices, i);
      g_autoptr(AcpConfigChoice) b_choice = g_list_model_get_item (b_choices, i);

      if (!acp_config_choice_equal (a_choice, b_choice))
        return FALSE;
    }

  return TRUE;
}
