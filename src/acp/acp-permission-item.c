/* acp-permission-item.c: a permission request of the agent in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-json-reader.h"
#include "acp-permission-item.h"
#include "acp-update-private.h"
#include "acp-values-private.h"

/**
 * AcpPermissionItem:
 *
 * A `session/request_permission` of the agent, waiting for the person's
 * choice. It holds the request and answers it exactly once: with the chosen
 * option, or "cancelled" (turn cancelled, request withdrawn by the agent, or
 * the item dropped unanswered).
 *
 * Its options are #AcpPermissionOption values, and what it says of the
 * tool call is a snapshot of it: an #AcpToolCallItem that took in the
 * request's `toolCall` as the transcript's item of that tool call does.
 */
struct _AcpPermissionItem
{
  AcpItem             parent_instance;

  AcpIncomingRequest *request;
  char               *tool_call_id;
  JsonObject         *tool_call;
  AcpToolCallItem    *snapshot;
  GListModel         *options;      /* AcpPermissionOption */
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
  PROP_TOOL_CALL_SNAPSHOT,
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
  g_clear_object (&self->snapshot);
  g_clear_object (&self->options);
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

    case PROP_TOOL_CALL_SNAPSHOT:
      g_value_set_object (value, self->snapshot);
      break;

    case PROP_OPTIONS:
      g_value_set_object (value, self->options);
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

  properties[PROP_TOOL_CALL_SNAPSHOT] =
    g_param_spec_object ("tool-call-snapshot", NULL, NULL,
                         ACP_TYPE_TOOL_CALL_ITEM,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* AcpPermissionOption */
  properties[PROP_OPTIONS] =
    g_param_spec_object ("options", NULL, NULL,
                         G_TYPE_LIST_MODEL,
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

static GListModel *
parse_options (const AcpJsonDoc    *doc,
               const AcpJsonValue  *options,
               GError             **error)
{
  g_autoptr(GListStore) store = g_list_store_new (ACP_TYPE_PERMISSION_OPTION);
  guint i = 0;

  if (!acp_json_value_is (options, ACP_JSON_ARRAY))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS, "options must be an array");
      return NULL;
    }

  for (const AcpJsonValue *value = acp_json_value_get_first (doc, options);
       value != NULL;
       value = acp_json_value_get_next (doc, value), i++)
    {
      g_autoptr(AcpPermissionOption) option = NULL;

      if (!acp_json_value_is (value, ACP_JSON_OBJECT))
        {
          g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                       "options[%u] must be an object", i);
          return NULL;
        }
      option = _acp_permission_option_new_from_json (doc, value);
      if (option == NULL)
        {
          g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                       "options[%u] needs string optionId, name and kind", i);
          return NULL;
        }
      g_list_store_append (store, option);
    }

  return G_LIST_MODEL (g_steal_pointer (&store));
}

/* The tool call as the request describes it, merged into a new item as
 * the transcript merges it into its own */
static AcpToolCallItem *
parse_snapshot (const AcpJsonDoc    *doc,
                const AcpJsonValue  *tool_call,
                GError             **error)
{
  AcpToolCallFields fields = { 0 };
  g_autoptr(GError) local_error = NULL;
  AcpToolCallItem *snapshot;

  if (!acp_json_value_is (tool_call, ACP_JSON_OBJECT))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                           "toolCall must be an object");
      return NULL;
    }
  if (acp_json_value_get_string_member (doc, tool_call, "toolCallId") == NULL)
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS,
                           "toolCall.toolCallId must be a string");
      return NULL;
    }
  if (!_acp_tool_call_fields_parse (&fields, doc, tool_call, "toolCall", &local_error))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_PARAMS, local_error->message);
      return NULL;
    }

  /* what `_meta` says of the agent's terminals is the transcript's item's */
  g_clear_pointer (&fields.meta, json_object_unref);
  snapshot = acp_tool_call_item_new (fields.tool_call_id);
  _acp_tool_call_item_merge (snapshot, &fields);
  _acp_tool_call_fields_clear (&fields);

  return snapshot;
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
  g_autoptr(AcpJsonDoc) doc = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(AcpToolCallItem) snapshot = NULL;
  g_autoptr(GListModel) options = NULL;
  const AcpJsonValue *root;
  AcpPermissionItem *self;
  GCancellable *cancellable;

  g_return_val_if_fail (params != NULL, NULL);
  g_return_val_if_fail (request == NULL || ACP_IS_INCOMING_REQUEST (request), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  doc = acp_json_doc_new ();
  node = json_node_init_object (json_node_alloc (), params);
  root = acp_json_doc_load (doc, node);

  snapshot = parse_snapshot (doc, acp_json_value_get_member (doc, root, "toolCall"), error);
  if (snapshot == NULL)
    return NULL;
  options = parse_options (doc, acp_json_value_get_member (doc, root, "options"), error);
  if (options == NULL)
    return NULL;

  self = g_object_new (ACP_TYPE_PERMISSION_ITEM, NULL);
  self->tool_call = json_object_ref (json_object_get_object_member (params, "toolCall"));
  self->tool_call_id = g_strdup (acp_tool_call_item_get_tool_call_id (snapshot));
  self->snapshot = g_steal_pointer (&snapshot);
  self->options = g_steal_pointer (&options);

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
 * What #AcpSession merges into its transcript (see
 * acp_transcript_merge_tool_call()); views read
 * acp_permission_item_get_tool_call_snapshot().
 *
 * Returns: (transfer none): the toolCall object of the request, as sent
 */
JsonObject *
acp_permission_item_get_tool_call (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), NULL);

  return self->tool_call;
}

/**
 * acp_permission_item_get_tool_call_snapshot:
 * @self: an #AcpPermissionItem
 *
 * The tool call as the request describes it (a ToolCallUpdate: what it
 * leaves out has its default there). The transcript's own item of the tool
 * call goes on changing; this one does not.
 *
 * Returns: (transfer none): the tool call the request is about
 */
AcpToolCallItem *
acp_permission_item_get_tool_call_snapshot (AcpPermissionItem *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (self), NULL);

  return self->snapshot;
}

/**
 * acp_permission_item_get_options:
 * @self: an #AcpPermissionItem
 *
 * Returns: (transfer none): the #AcpPermissionOption values, in the order
 *   the agent offered them
 */
GListModel *
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
  guint n = g_list_model_get_n_items (self->options);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpPermissionOption) option = g_list_model_get_item (self->options, i);

      if (g_strcmp0 (acp_permission_option_get_id (option), option_id) == 0)
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
