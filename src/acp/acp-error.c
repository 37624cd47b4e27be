/* acp-error.c: the ACP_ERROR domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-error.h"

typedef struct
{
  JsonNode *data;
  gboolean  remote;
} AcpErrorPrivate;

static void
acp_error_private_init (AcpErrorPrivate *priv)
{
  priv->data = NULL;
  priv->remote = FALSE;
}

static void
acp_error_private_copy (const AcpErrorPrivate *src,
                        AcpErrorPrivate       *dest)
{
  dest->data = src->data != NULL ? json_node_copy (src->data) : NULL;
  dest->remote = src->remote;
}

static void
acp_error_private_clear (AcpErrorPrivate *priv)
{
  g_clear_pointer (&priv->data, json_node_unref);
}

G_DEFINE_EXTENDED_ERROR (AcpError, acp_error)

/**
 * acp_error_new_remote:
 * @code: the JSON-RPC error code the peer sent
 * @message: (nullable): the message the peer sent
 * @data: (nullable): the `data` member the peer sent; copied
 *
 * Returns: (transfer full): an error in %ACP_ERROR for an error object received
 *   from the peer.
 */
GError *
acp_error_new_remote (int          code,
                      const char  *message,
                      JsonNode    *data)
{
  GError *error;
  AcpErrorPrivate *priv;

  error = g_error_new_literal (ACP_ERROR, code,
                               message != NULL && *message != '\0' ? message : "Unknown error");
  priv = acp_error_get_private (error);
  priv->remote = TRUE;
  if (data != NULL && !JSON_NODE_HOLDS_NULL (data))
    priv->data = json_node_copy (data);

  return error;
}

/**
 * acp_error_is_remote:
 * @error: a #GError
 *
 * Returns: whether @error is an %ACP_ERROR the peer sent.
 */
gboolean
acp_error_is_remote (const GError *error)
{
  AcpErrorPrivate *priv;

  if (error == NULL || error->domain != ACP_ERROR)
    return FALSE;

  priv = acp_error_get_private (error);
  return priv != NULL && priv->remote;
}

/**
 * acp_error_get_data:
 * @error: a #GError
 *
 * Returns: (transfer none) (nullable): the `data` member of a remote error.
 */
JsonNode *
acp_error_get_data (const GError *error)
{
  AcpErrorPrivate *priv;

  if (error == NULL || error->domain != ACP_ERROR)
    return NULL;

  priv = acp_error_get_private (error);
  return priv != NULL ? priv->data : NULL;
}

/**
 * acp_error_to_json:
 * @error: a #GError
 *
 * Builds the JSON-RPC error object to send for @error. Errors of other
 * domains, and local %ACP_ERROR codes, become -32603 (internal error).
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
acp_error_to_json (const GError *error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  int code = ACP_ERROR_INTERNAL_ERROR;
  JsonNode *data;

  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain == ACP_ERROR && (error->code > -40000 || acp_error_is_remote (error)))
    code = error->code;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, code);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, error->message);
  data = acp_error_get_data (error);
  if (data != NULL)
    {
      json_builder_set_member_name (builder, "data");
      json_builder_add_value (builder, json_node_copy (data));
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
