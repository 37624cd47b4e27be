/* acp-mode.c: one mode an agent offers for a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-error.h"
#include "acp-json.h"
#include "acp-mode.h"

/**
 * AcpMode:
 *
 * A SessionMode: one entry of the `availableModes` an agent offers in its
 * answer to session/new, load or resume. It does not change once made: a
 * new list of modes brings new objects.
 */
struct _AcpMode
{
  GObject  parent_instance;

  char    *id;
  char    *name;
  char    *description;
};

G_DEFINE_FINAL_TYPE (AcpMode, acp_mode, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_DESCRIPTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_mode_finalize (GObject *object)
{
  AcpMode *self = (AcpMode *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->description, g_free);

  G_OBJECT_CLASS (acp_mode_parent_class)->finalize (object);
}

static void
acp_mode_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  AcpMode *self = ACP_MODE (object);

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

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_mode_class_init (AcpModeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = acp_mode_finalize;
  object_class->get_property = acp_mode_get_property;

  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, ro);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_mode_init (AcpMode *self)
{
}

/**
 * acp_mode_new_from_json:
 * @node: an element of `availableModes`
 * @error: return location for an error
 *
 * A SessionMode needs a string `id` and `name`; a `description` that is
 * not a string reads as none.
 *
 * Returns: (transfer full) (nullable): the mode, or %NULL with
 *   %ACP_ERROR_INVALID_MESSAGE saying what is wrong with @node
 */
AcpMode *
acp_mode_new_from_json (JsonNode  *node,
                        GError   **error)
{
  JsonObject *object;
  const char *id, *name;
  AcpMode *self;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A mode must be an object");
      return NULL;
    }

  object = json_node_get_object (node);
  id = acp_json_get_string (object, "id", NULL);
  name = acp_json_get_string (object, "name", NULL);
  if (id == NULL || name == NULL)
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A mode needs a string id and name");
      return NULL;
    }

  self = g_object_new (ACP_TYPE_MODE, NULL);
  self->id = g_strdup (id);
  self->name = g_strdup (name);
  self->description = g_strdup (acp_json_get_string (object, "description", NULL));

  return self;
}

const char *
acp_mode_get_id (AcpMode *self)
{
  g_return_val_if_fail (ACP_IS_MODE (self), NULL);

  return self->id;
}

const char *
acp_mode_get_name (AcpMode *self)
{
  g_return_val_if_fail (ACP_IS_MODE (self), NULL);

  return self->name;
}

/**
 * acp_mode_get_description:
 * @self: an #AcpMode
 *
 * Returns: (nullable): what the mode does, in the agent's words
 */
const char *
acp_mode_get_description (AcpMode *self)
{
  g_return_val_if_fail (ACP_IS_MODE (self), NULL);

  return self->description;
}

/**
 * acp_mode_equal:
 * @a: an #AcpMode
 * @b: an #AcpMode
 *
 * Returns: whether @a and @b say the same
 */
gboolean
acp_mode_equal (AcpMode *a,
                AcpMode *b)
{
  g_return_val_if_fail (ACP_IS_MODE (a), FALSE);
  g_return_val_if_fail (ACP_IS_MODE (b), FALSE);

  return g_str_equal (a->id, b->id) &&
         g_str_equal (a->name, b->name) &&
         g_strcmp0 (a->description, b->description) == 0;
}
