/* acp-permission-item.c: a permission request of the agent in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-permission-item.h"

/**
 * AcpPermissionItem:
 *
 * A `session/request_permission` of the agent, waiting for the person's
 * choice. It holds the request and answers it exactly once: with the chosen
 * option, or "cancelled" (turn cancelled, request withdrawn by the agent, or
 * the item dropped unanswered).
 */
struct _AcpPermissionItem
{
  AcpItem             parent_instance;

  AcpIncomingRequest *request;
  char               *tool_call_id;
  JsonObject         *tool_call;
  JsonArray          *options;
  AcpPermissionState  state;
  char               *selected_option_id;
};

G_DEFINE_ENUM_TYPE (AcpPermissionState, acp_permission_state,
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_STATE_PENDING, "pending"),
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_STATE_SELECTED, "selected"),
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_STATE_CANCELLED, "cancelled"))

G_DEFINE_FINAL_TYPE (AcpPermissionItem, acp_permission_item, ACP_TYPE_ITEM)

enum {
  PROP_0,
  PROP_REQUEST,
  PROP_TOOL_CALL_ID,
  PROP_TOOL_CALL,
  PROP_OPTIONS,
  PROP_STATE,
  PROP_SELECTED_OPTION_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
reply_outcome (AcpPermissionItem *self,
               const char        *option_id)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) result = NULL;

  if (self->request == NULL || acp_incoming_request_get_answered (self->request))
    return;

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "outcome");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "outcome");
  json_builder_add_string_value (builder, option_id != NULL ? "selected" : "cancelled");
  if (option_id != NULL)
    {
      json_builder_set_member_name (builder, "optionId");
      json_builder_add_string_value (builder, option_id);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  result = json_builder_get_root (builder);

  acp_incoming_request_reply (self->request, result);
}

static void
request_cancelled_cb (GCancellable      *cancellable,
                      AcpPermissionItem *self)
{
  acp_permission_item_cancel (self);
}

static void
acp_permission_item_dispose (GObject *object)
{
  AcpPermissionItem *self = (AcpPermissionItem *)object;

  /* Never leave the agent waiting for an answer nobody can give anymore. */
  if (self->state == ACP_PERMISSION_STATE_PENDING)
    {
      self->state = ACP_PERMISSION_STATE_CANCELLED;
      reply_outcome (self, NULL);
    }

  g_clear_object (&self->request);

  G_OBJECT_CLASS (acp_permission_item_parent_class)->dispose (object);
}

static void
acp_permission_item_finalize (GObject *object)
{
  AcpPermissionItem *self = (AcpPermissionItem *)object;

  g_clear_pointer (&self->tool_call_id, g_free);
  g_clear_pointer (&self->tool_call, json_object_unref);
  g_clear_pointer (&self->options, json_array_unref);
  g_clear_pointer (&self->selected_option_id, g_free);

  G_OBJECT_CLASS (acp_permission_item_parent_class)->finalize (object);
}

static void
acp_permission_item_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AcpPermissionItem *self = ACP_PERMISSION_ITEM (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_value_set_object (value, self->request);
      break;

    case PROP_TOOL_CALL_ID:
      g_value_set_string (value, self->tool_call_id);
      break;

    case PROP_TOOL_CALL:
      g_value_set_boxed (value, self->tool_call);
      break;

    case PROP_OPTIONS:
      g_value_set_boxed (value, self->options);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_SELECTED_OPTION_ID:
      g_value_set_string (value, self->selected_option_id);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_permission_item_class_init (AcpPermissionItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AcpItemClass *item_class = ACP_ITEM_CLASS (klass);

  object_class->dispose = acp_permission_item_dispose;
  object_class->finalize = acp_permission_item_finalize;
  object_class->get_property = acp_permission_item_get_property;

  item_class->kind = ACP_ITEM_KIND_PERMISSION;

  properties[PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL,
                         ACP_TYPE_INCOMING_REQUEST,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_TOOL_CALL_ID] =
    g_param_spec_string ("tool-call-id", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_TOOL_CALL] =
    g_param_spec_boxed ("tool-call", NULL, NULL,
                        JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_OPTIONS] =
    g_param_spec_boxed ("options", NULL, NULL,
                        JSON_TYPE_ARRAY,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       ACP_TYPE_PERMISSION_STATE,
                       ACP_PERMISSION_STATE_PENDING,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_SELECTED_OPTION_ID] =
    g_param_spec_string ("selected-option-id", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_permission_item_init (AcpPermissionItem *self)
{
  self->state = ACP_PERMISSION_STATE_PENDING;
}

static gboolean
has_string_member (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

/**
 * acp_permission_item_new:
 * @params: the params of a `session/request_permission` request
 * @request: (nullable): the request to answer
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): a pending permission item, or %NULL
 *   with %ACP_ERROR_INVALID_PARAMS if @params do not have the right shape
 */
AcpPermissionItem *
acp_permission_item_new (JsonObject          *params,
                         AcpIncomingRequest  *request,
                         GError             **error)
{
  AcpPermissionItem *self;
  JsonNode *tool_call;
  JsonNode *options;
  GCancellable *cancellable;
  guint n;

  g_return_val_if_fail (params != NULL, NULL);
  g_return_val_if_fail (request == NULL || ACP_IS_INCOMING_REQUEST (request), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  tool_call = json_object_get_member (params, "toolCall");
  if (tool_call == NULL || !JSON_NODE_HOLDS_OBJECT (tool_call))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                           "toolCall must be an object");
      return NULL;
    }
  if (!has_string_member (json_node_get_object (tool_call), "toolCallId"))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                           "toolCall.toolCallId must be a string");
      return NULL;
    }

  options = json_object_get_member (params, "options");
  if (options == NULL || !JSON_NODE_HOLDS_ARRAY (options))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                           "options must be an array");
      return NULL;
    }
  n = json_array_get_length (json_node_get_array (options));
  for (guint i = 0; i < n; i++)
    {
      JsonNode *option = json_array_get_element (json_node_get_array (options), i);
      JsonObject *object;

      if (!JSON_NODE_HOLDS_OBJECT (option))
        {
          g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                       "options[%u] must be an object", i);
          return NULL;
        }
      object = json_node_get_object (option);
      if (!has_string_member (object, "optionId") ||
          !has_string_member (object, "name") ||
          !has_string_member (object, "kind"))
        {
          g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                       "options[%u] needs string optionId, name and kind", i);
          return NULL;
        }
    }

  self = g_object_new (ACP_TYPE_PERMISSION_ITEM, NULL);
  self->tool_call = json_object_ref (json_node_get_object (tool_call));
  self->tool_call_id = g_strdup (json_object_get_string_member (self->tool_call, "toolCallId"));
  self->options = json_array_ref (json_node_get_array (options));

  if (request != NULL)
    {
      self->request = g_object_ref (request);
      cancellable = acp_incoming_request_get_cancellable (request);
      if (cancellable != NULL)
        g_signal_connect_object (cancellable, "cancelled",
                                 G_CALLBACK (request_cancelled_cb), self, 0);
    }

  return self;
}

/**
 * acp_permission_item_get_request:
 * @self: an #AcpPermissionItem
 *
 * Returns: (transfer none) (nullable): the request this item answers
 */
AcpIncomingRequest *
acp_permission_item_get_request (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), NULL);

  return self->request;
}

const char *
acp_permission_item_get_tool_call_id (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), NULL);

  return self->tool_call_id;
}

/**
 * acp_permission_item_get_tool_call:
 * @self: an #AcpPermissionItem
 *
 * Returns: (transfer none): the toolCall object of the request
 */
JsonObject *
acp_permission_item_get_tool_call (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), NULL);

  return self->tool_call;
}

/**
 * acp_permission_item_get_options:
 * @self: an #AcpPermissionItem
 *
 * Returns: (transfer none): the PermissionOption objects
 */
JsonArray *
acp_permission_item_get_options (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), NULL);

  return self->options;
}

AcpPermissionState
acp_permission_item_get_state (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), ACP_PERMISSION_STATE_CANCELLED);

  return self->state;
}

/**
 * acp_permission_item_get_selected_option_id:
 * @self: an #AcpPermissionItem
 *
 * Returns: (nullable): the chosen option, once selected
 */
const char *
acp_permission_item_get_selected_option_id (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), NULL);

  return self->selected_option_id;
}

static gboolean
has_option (AcpPermissionItem *self,
            const char        *option_id)
{
  guint n = json_array_get_length (self->options);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *option = json_array_get_object_element (self->options, i);

      if (g_strcmp0 (json_object_get_string_member (option, "optionId"), option_id) == 0)
        return TRUE;
    }

  return FALSE;
}

/**
 * acp_permission_item_select:
 * @self: an #AcpPermissionItem
 * @option_id: the optionId of one of the options
 * @error: return location for an error
 *
 * Answers the request with the chosen option. If the item was answered
 * already (selected or cancelled), nothing happens and %TRUE is returned.
 *
 * Returns: %FALSE with %ACP_ERROR_INVALID_ARGUMENT if @option_id is not one
 *   of the options
 */
gboolean
acp_permission_item_select (AcpPermissionItem  *self,
                            const char         *option_id,
                            GError            **error)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), FALSE);
  g_return_val_if_fail (option_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->state != ACP_PERMISSION_STATE_PENDING)
    return TRUE;

  if (!has_option (self, option_id))
    {
      g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not one of the offered options"), option_id);
      return FALSE;
    }

  /* Change the state first: a handler of the reply must see it answered. */
  self->state = ACP_PERMISSION_STATE_SELECTED;
  self->selected_option_id = g_strdup (option_id);
  reply_outcome (self, option_id);

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_OPTION_ID]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_thaw_notify (G_OBJECT (self));

  return TRUE;
}

/**
 * acp_permission_item_cancel:
 * @self: an #AcpPermissionItem
 *
 * Answers the request with the "cancelled" outcome, unless it was answered
 * already.
 */
void
acp_permission_item_cancel (AcpPermissionItem *self)
{
  g_return_if_fail (ACP_IS_PERMISSION_ITEM (self));

  if (self->state != ACP_PERMISSION_STATE_PENDING)
    return;

  self->state = ACP_PERMISSION_STATE_CANCELLED;
  reply_outcome (self, NULL);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}
