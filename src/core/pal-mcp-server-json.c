/* pal-mcp-server-json.c: the mcpServers JSON other MCP clients use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "pal-error.h"
#include "pal-mcp-server-json.h"
#include "pal-store-private.h"

/*
 * The form many MCP clients read and write:
 *
 *   {"mcpServers": {
 *      "NAME": {"command": "...", "args": ["..."], "env": {"VAR": "value"}},
 *      "NAME": {"url": "https://...", "headers": {"Header": "value"},
 *               "type": "http" | "sse"}}}
 *
 * A server with a "url" and no "type" is a (streamable) http server. Some
 * clients write "servers" instead of "mcpServers", "stdio" as an explicit
 * type, "streamable-http" for http, and "disabled": true; all are read.
 *
 * Every string read is checked to be UTF-8: JSON escapes can spell what is
 * not (a lone surrogate, "\uD800", decodes to bytes that are no UTF-8), and
 * such a string cannot be stored in the settings nor shown. A server that
 * cannot be read is refused, named with the member at fault; the others
 * are read.
 */

static gboolean
fail (GError     **error,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError     **error,
      const char  *format,
      ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID, message);
  return FALSE;
}

static gboolean
is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
is_text (const char *str)
{
  return g_utf8_validate (str, -1, NULL);
}

static gboolean
read_string (JsonObject  *object,
             const char  *server,
             const char  *member,
             const char **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    {
      *out = NULL;
      return TRUE;
    }
  if (!is_string (node))
    return fail (error, _("MCP server “%s”: “%s” is not a string"), server, member);
  if (!is_text (json_node_get_string (node)))
    return fail (error, _("MCP server “%s”: “%s” is not valid UTF-8 text"), server, member);

  *out = json_node_get_string (node);
  return TRUE;
}

/* An object of string values, e.g. "env" or "headers", appended in order. */
static gboolean
read_pairs (JsonObject          *object,
            const char          *server,
            const char          *member,
            PalMcpServerConfig  *config,
            gboolean             headers,
            GError             **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autoptr(GList) names = NULL;
  JsonObject *pairs;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, _("MCP server “%s”: “%s” is not an object"), server, member);

  pairs = json_node_get_object (node);
  names = json_object_get_members (pairs);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (pairs, name);

      if (!is_text (name))
        return fail (error, _("MCP server “%s”: a name in “%s” is not valid UTF-8 text"),
                     server, member);
      if (!is_string (value))
        return fail (error, _("MCP server “%s”: the value of “%s” in “%s” is not a string"),
                     server, name, member);
      if (!is_text (json_node_get_string (value)))
        return fail (error, _("MCP server “%s”: the value of “%s” in “%s” is not valid UTF-8 text"),
                     server, name, member);

      if (headers)
        pal_mcp_server_config_add_header (config, name, json_node_get_string (value));
      else
        pal_mcp_server_config_add_env (config, name, json_node_get_string (value));
    }

  return TRUE;
}

static gboolean
read_args (JsonObject          *object,
           const char          *server,
           PalMcpServerConfig  *config,
           GError             **error)
{
  JsonNode *node = json_object_get_member (object, "args");
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) args = NULL;
  JsonArray *array;
  guint length;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, _("MCP server “%s”: “args” is not an array"), server);

  builder = g_strv_builder_new ();
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  for (guint i = 0; i < length; i++)
    {
      JsonNode *arg = json_array_get_element (array, i);

      if (!is_string (arg))
        return fail (error, _("MCP server “%s”: argument %u in “args” is not a string"),
                     server, i + 1);
      if (!is_text (json_node_get_string (arg)))
        return fail (error, _("MCP server “%s”: argument %u in “args” is not valid UTF-8 text"),
                     server, i + 1);
      g_strv_builder_add (builder, json_node_get_string (arg));
    }

  args = g_strv_builder_end (builder);
  pal_mcp_server_config_set_args (config, (const char * const *) args);
  return TRUE;
}

static PalMcpServerConfig *
read_server (const char  *name,
             JsonNode    *node,
             GError     **error)
{
  g_autoptr(PalMcpServerConfig) config = NULL;
  JsonObject *object;
  JsonNode *disabled;
  const char *type;
  const char *command;
  const char *url;
  AcpMcpTransport transport;

  if (_pal_str_is_blank (name))
    {
      fail (error, _("An MCP server has an empty name"));
      return NULL;
    }
  if (!is_text (name))
    {
      fail (error, _("An MCP server has a name that is not valid UTF-8 text"));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (error, _("MCP server “%s”: the entry is not an object"), name);
      return NULL;
    }
  object = json_node_get_object (node);

  if (!read_string (object, name, "type", &type, error) ||
      !read_string (object, name, "command", &command, error) ||
      !read_string (object, name, "url", &url, error))
    return NULL;

  if (type == NULL)
    {
      if (command != NULL)
        transport = ACP_MCP_TRANSPORT_STDIO;
      else if (url != NULL)
        transport = ACP_MCP_TRANSPORT_HTTP;
      else
        {
          fail (error, _("MCP server “%s”: there is neither a “command” nor a “url”"), name);
          return NULL;
        }
    }
  else if (g_str_equal (type, "streamable-http") || g_str_equal (type, "streamableHttp"))
    transport = ACP_MCP_TRANSPORT_HTTP;
  else if (!acp_mcp_transport_from_string (type, &transport))
    {
      g_autofree char *known = acp_mcp_transport_dup_names ();

      /* TRANSLATORS: the last %s lists the transports: "stdio, http, sse" */
      fail (error, _("MCP server “%s”: the “type” “%s” is not one of %s"), name, type, known);
      return NULL;
    }

  config = pal_mcp_server_config_new (name, transport);

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    {
      if (command == NULL || _pal_str_is_blank (command))
        {
          fail (error, _("MCP server “%s”: “command” is missing or empty"), name);
          return NULL;
        }
      pal_mcp_server_config_set_command (config, command);
      if (!read_args (object, name, config, error) ||
          !read_pairs (object, name, "env", config, FALSE, error))
        return NULL;
    }
  else
    {
      if (url == NULL || _pal_str_is_blank (url))
        {
          fail (error, _("MCP server “%s”: “url” is missing or empty"), name);
          return NULL;
        }
      pal_mcp_server_config_set_url (config, url);
      if (!read_pairs (object, name, "headers", config, TRUE, error))
        return NULL;
    }

  disabled = json_object_get_member (object, "disabled");
  if (disabled != NULL && !JSON_NODE_HOLDS_NULL (disabled))
    {
      if (!JSON_NODE_HOLDS_VALUE (disabled) || json_node_get_value_type (disabled) != G_TYPE_BOOLEAN)
        {
          fail (error, _("MCP server “%s”: “disabled” is not true or false"), name);
          return NULL;
        }
      pal_mcp_server_config_set_enabled (config, !json_node_get_boolean (disabled));
    }

  return g_steal_pointer (&config);
}

/**
 * pal_mcp_server_import_json:
 * @json: the text of a configuration file of another MCP client
 * @out_configs: (out) (transfer container) (element-type PalMcpServerConfig):
 *   the servers that could be read, in the order of the file, in no store
 * @out_failures: (out) (optional) (transfer container) (element-type GError):
 *   one %PAL_ERROR_INVALID per server that could not be read, naming it
 *   and the member at fault, in the order of the file
 * @error: %PAL_ERROR_INVALID when the text as a whole cannot be read
 *
 * Reads the `mcpServers` object (see the top of this file); every string in
 * the result is valid UTF-8. A server that cannot be read is left out, with
 * its error in @out_failures; the others are read. Variables and headers
 * whose names look secret (pal_name_value_name_looks_secret()) are marked
 * secret. Only the form is checked: the values (a command on this machine,
 * a URL scheme) are for pal_mcp_server_config_validate(), and the names may
 * collide with stored ones (pal_mcp_server_store_import()).
 *
 * Returns: %TRUE when the text could be read, whatever its servers
 */
gboolean
pal_mcp_server_import_json (const char  *json,
                            GPtrArray  **out_configs,
                            GPtrArray  **out_failures,
                            GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GPtrArray) configs = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GList) names = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;
  JsonNode *servers;
  JsonObject *object;

  g_return_val_if_fail (json != NULL, FALSE);
  g_return_val_if_fail (out_configs != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!is_text (json))
    return fail (error, _("The text is not valid UTF-8"));

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, json, -1, &local_error))
    {
      /* json-glib quotes the text it choked on, lone surrogates decoded */
      g_autofree char *reason = g_utf8_make_valid (local_error->message, -1);

      return fail (error, _("The text is not valid JSON: %s"), reason);
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return fail (error, _("The JSON is not an object with an “mcpServers” member"));

  object = json_node_get_object (root);
  servers = json_object_get_member (object, "mcpServers");
  if (servers == NULL)
    servers = json_object_get_member (object, "servers");
  if (servers == NULL)
    return fail (error, _("The JSON has no “mcpServers” member"));
  if (!JSON_NODE_HOLDS_OBJECT (servers))
    return fail (error, _("“mcpServers” is not an object"));

  configs = g_ptr_array_new_with_free_func (g_object_unref);
  failures = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  object = json_node_get_object (servers);
  names = json_object_get_members (object);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      GError *server_error = NULL;
      PalMcpServerConfig *config;

      config = read_server (l->data, json_object_get_member (object, l->data), &server_error);
      if (config != NULL)
        g_ptr_array_add (configs, config);
      else
        g_ptr_array_add (failures, server_error);
    }

  *out_configs = g_steal_pointer (&configs);
  if (out_failures != NULL)
    *out_failures = g_steal_pointer (&failures);
  return TRUE;
}

static void
add_pairs (JsonBuilder *builder,
           const char  *member,
           GListModel  *rows)
{
  guint n = g_list_model_get_n_items (rows);

  if (n == 0)
    return;

  json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (rows, i);

      json_builder_set_member_name (builder, pal_name_value_get_name (row));
      json_builder_add_string_value (builder, pal_name_value_get_value (row));
    }
  json_builder_end_object (builder);
}

/**
 * pal_mcp_server_export_json:
 * @configs: a #GListModel of #PalMcpServerConfig (a #PalMcpServerStore, or a
 *   selection)
 *
 * Writes the servers in the `mcpServers` form other MCP clients read: stdio
 * servers with command, args and env, the others with `type`, url and
 * headers, and `"disabled": true` for disabled ones. Only the settings of
 * each server's transport are written.
 *
 * Secret values are written as they are: the person asked for an export,
 * and a file without its tokens would not work elsewhere. Callers should say
 * so before saving it.
 *
 * Returns: (transfer full): indented JSON text
 */
char *
pal_mcp_server_export_json (GListModel *configs)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  guint n;

  g_return_val_if_fail (G_IS_LIST_MODEL (configs), NULL);

  builder = json_builder_new_immutable ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);

  n = g_list_model_get_n_items (configs);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMcpServerConfig) config = g_list_model_get_item (configs, i);
      AcpMcpTransport transport;

      if (!PAL_IS_MCP_SERVER_CONFIG (config))
        continue;

      transport = pal_mcp_server_config_get_transport (config);
      json_builder_set_member_name (builder, pal_mcp_server_config_get_name (config));
      json_builder_begin_object (builder);

      if (transport == ACP_MCP_TRANSPORT_STDIO)
        {
          const char * const *args = pal_mcp_server_config_get_args (config);

          json_builder_set_member_name (builder, "command");
          json_builder_add_string_value (builder, pal_mcp_server_config_get_command (config));
          json_builder_set_member_name (builder, "args");
          json_builder_begin_array (builder);
          for (guint j = 0; args[j] != NULL; j++)
            json_builder_add_string_value (builder, args[j]);
          json_builder_end_array (builder);
          add_pairs (builder, "env", G_LIST_MODEL (pal_mcp_server_config_get_env (config)));
        }
      else
        {
          json_builder_set_member_name (builder, "type");
          json_builder_add_string_value (builder, acp_mcp_transport_to_string (transport));
          json_builder_set_member_name (builder, "url");
          json_builder_add_string_value (builder, pal_mcp_server_config_get_url (config));
          add_pairs (builder, "headers",
                     G_LIST_MODEL (pal_mcp_server_config_get_headers (config)));
        }

      if (!pal_mcp_server_config_get_enabled (config))
        {
          json_builder_set_member_name (builder, "disabled");
          json_builder_add_boolean_value (builder, TRUE);
        }

      json_builder_end_object (builder);
    }

  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}
