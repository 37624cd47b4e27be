/* acp-command.c: one command an agent offers (a slash command)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-command.h"
#include "acp-error.h"
#include "acp-json.h"

/**
 * AcpCommand:
 *
 * An AvailableCommand of an `available_commands_update`: what the person
 * may type after a "/" at the start of a prompt. It does not change once
 * made: a new list of commands brings new objects.
 */
struct _AcpCommand
{
  GObject  parent_instance;

  char    *name;
  char    *description;
  char    *input_hint;
};

G_DEFINE_FINAL_TYPE (AcpCommand, acp_command, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_INPUT_HINT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_command_finalize (GObject *object)
{
  AcpCommand *self = (AcpCommand *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->input_hint, g_free);

  G_OBJECT_CLASS (acp_command_parent_class)->finalize (object);
}

static void
acp_command_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  AcpCommand *self = ACP_COMMAND (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_INPUT_HINT:
      g_value_set_string (value, self->input_hint);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_command_class_init (AcpCommandClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = acp_command_finalize;
  object_class->get_property = acp_command_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, ro);
  properties[PROP_INPUT_HINT] = g_param_spec_string ("input-hint", NULL, NULL, NULL, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_command_init (AcpCommand *self)
{
}

/**
 * acp_command_new_from_json:
 * @node: an element of `availableCommands`
 * @error: return location for an error
 *
 * An AvailableCommand needs a string `name` and `description`. Its `input`
 * is optional: one that is not an object with a string `hint` reads as
 * none.
 *
 * Returns: (transfer full) (nullable): the command, or %NULL with
 *   %ACP_ERROR_INVALID_MESSAGE saying what is wrong with @node
 */
AcpCommand *
acp_command_new_from_json (JsonNode  *node,
                           GError   **error)
{
  JsonObject *object;
  const char *name, *description;
  AcpCommand *self;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A command must be an object");
      return NULL;
    }

  object = json_node_get_object (node);
  name = acp_json_get_string (object, "name", NULL);
  description = acp_json_get_string (object, "description", NULL);
  if (name == NULL || description == NULL)
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "A command needs a string name and description");
      return NULL;
    }

  self = g_object_new (ACP_TYPE_COMMAND, NULL);
  self->name = g_strdup (name);
  self->description = g_strdup (description);
  self->input_hint = g_strdup (acp_json_get_string (acp_json_get_object (object, "input"), "hint",
                                                    NULL));

  return self;
}

const char *
acp_command_get_name (AcpCommand *self)
{
  g_return_val_if_fail (ACP_IS_COMMAND (self), NULL);

  return self->name;
}

const char *
acp_command_get_description (AcpCommand *self)
{
  g_return_val_if_fail (ACP_IS_COMMAND (self), NULL);

  return self->description;
}

/**
 * acp_command_get_input_hint:
 * @self: an #AcpCommand
 *
 * Returns: (nullable): the hint of the command's input (what to type after
 *   its name), or %NULL for a command that takes none
 */
const char *
acp_command_get_input_hint (AcpCommand *self)
{
  g_return_val_if_fail (ACP_IS_COMMAND (self), NULL);

  return self->input_hint;
}

/**
 * acp_command_equal:
 * @a: an #AcpCommand
 * @b: an #AcpCommand
 *
 * Returns: whether @a and @b say the same
 */
gboolean
acp_command_equal (AcpCommand *a,
                   AcpCommand *b)
{
  g_return_val_if_fail (ACP_IS_COMMAND (a), FALSE);
  g_return_val_if_fail (ACP_IS_COMMAND (b), FALSE);

  return g_str_equal (a->name, b->name) &&
         g_str_equal (a->description, b->description) &&
         g_strcmp0 (a->input_hint, b->input_hint) == 0;
}
