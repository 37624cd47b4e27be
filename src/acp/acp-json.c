/* acp-json.c: reading JSON from an untrusted peer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-json.h"

static JsonNode *
get_value (JsonObject *object,
           const char *member,
           GType       type)
{
  JsonNode *node;

  if (object == NULL || member == NULL)
    return NULL;

  node = json_object_get_member (object, member);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != type)
    return NULL;

  return node;
}

/**
 * acp_json_get_string:
 * @object: (nullable): an object
 * @member: a member name
 * @default_value: (nullable): returned when the member is absent or not a string
 *
 * Returns: (transfer none) (nullable): the string
 */
const char *
acp_json_get_string (JsonObject *object,
                     const char *member,
                     const char *default_value)
{
  JsonNode *node = get_value (object, member, G_TYPE_STRING);

  return node != NULL ? json_node_get_string (node) : default_value;
}

/**
 * acp_json_get_object:
 * @object: (nullable): an object
 * @member: a member name
 *
 * Returns: (transfer none) (nullable): the member when it is an object
 */
JsonObject *
acp_json_get_object (JsonObject *object,
                     const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/**
 * acp_json_get_array:
 * @object: (nullable): an object
 * @member: a member name
 *
 * Returns: (transfer none) (nullable): the member when it is an array
 */
JsonArray *
acp_json_get_array (JsonObject *object,
                    const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/**
 * acp_json_get_int:
 * @object: (nullable): an object
 * @member: a member name
 * @value: (out) (optional): the integer
 *
 * Returns: whether the member is an integer (a JSON number without fraction)
 */
gboolean
acp_json_get_int (JsonObject *object,
                  const char *member,
                  gint64     *value)
{
  JsonNode *node = get_value (object, member, G_TYPE_INT64);

  if (node == NULL)
    return FALSE;
  if (value != NULL)
    *value = json_node_get_int (node);

  return TRUE;
}

/**
 * acp_json_get_boolean:
 * @object: (nullable): an object
 * @member: a member name
 * @value: (out) (optional): the boolean
 *
 * Returns: whether the member is a boolean
 */
gboolean
acp_json_get_boolean (JsonObject *object,
                      const char *member,
                      gboolean   *value)
{
  JsonNode *node = get_value (object, member, G_TYPE_BOOLEAN);

  if (node == NULL)
    return FALSE;
  if (value != NULL)
    *value = json_node_get_boolean (node);

  return TRUE;
}

/**
 * acp_json_array_get_object:
 * @array: (nullable): an array
 * @index: an index
 *
 * Returns: (transfer none) (nullable): the element when it is an object
 */
JsonObject *
acp_json_array_get_object (JsonArray *array,
                           guint      index)
{
  JsonNode *node;

  if (array == NULL || index >= json_array_get_length (array))
    return NULL;

  node = json_array_get_element (array, index);
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}
