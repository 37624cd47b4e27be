/* acp-mcp-server.c: one MCP server configuration as sent to agents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-mcp-server.h"

G_DEFINE_ENUM_TYPE (AcpMcpTransport, acp_mcp_transport,
                    G_DEFINE_ENUM_VALUE (ACP_MCP_TRANSPORT_STDIO, "stdio"),
                    G_DEFINE_ENUM_VALUE (ACP_MCP_TRANSPORT_HTTP, "http"),
                    G_DEFINE_ENUM_VALUE (ACP_MCP_TRANSPORT_SSE, "sse"))

static GEnumClass *
transport_class (void)
{
  static GEnumClass *klass;

  if (g_once_init_enter (&klass))
    g_once_init_leave (&klass, g_type_class_ref (ACP_TYPE_MCP_TRANSPORT));

  return klass;
}

const char *
acp_mcp_transport_to_string (AcpMcpTransport transport)
{
  GEnumValue *value = g_enum_get_value (transport_class (), transport);

  return value != NULL ? value->value_nick : NULL;
}

gboolean
acp_mcp_transport_from_string (const char      *name,
                               AcpMcpTransport *out_transport)
{
  GEnumValue *value;

  g_return_val_if_fail (out_transport != NULL, FALSE);

  if (name == NULL)
    return FALSE;
  value = g_enum_get_value_by_nick (transport_class (), name);
  if (value == NULL)
    return FALSE;

  *out_transport = value->value;
  return TRUE;
}

char *
acp_mcp_transport_dup_names (void)
{
  GEnumClass *klass = transport_class ();
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < klass->n_values; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", klass->values[i].value_nick);

  return g_string_free (names, FALSE);
}

typedef struct
{
  char *name;
  char *value;
} NameValue;

struct _AcpMcpServer
{
  GObject          parent_instance;

  AcpMcpTransport  transport;
  char            *name;
  char            *command;
  char           **args;
  char            *url;
  GArray          *env;      /* NameValue */
  GArray          *headers;  /* NameValue */
};

G_DEFINE_FINAL_TYPE (AcpMcpServer, acp_mcp_server, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TRANSPORT,
  PROP_NAME,
  PROP_COMMAND,
  PROP_ARGS,
  PROP_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
name_value_clear (gpointer data)
{
  NameValue *nv = data;

  g_clear_pointer (&nv->name, g_free);
  g_clear_pointer (&nv->value, g_free);
}

static void
acp_mcp_server_finalize (GObject *object)
{
  AcpMcpServer *self = ACP_MCP_SERVER (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->args, g_strfreev);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->env, g_array_unref);
  g_clear_pointer (&self->headers, g_array_unref);

  G_OBJECT_CLASS (acp_mcp_server_parent_class)->finalize (object);
}

static void
acp_mcp_server_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AcpMcpServer *self = ACP_MCP_SERVER (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      g_value_set_enum (value, self->transport);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_COMMAND:
      g_value_set_string (value, self->command);
      break;
    case PROP_ARGS:
      g_value_set_boxed (value, self->args);
      break;
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_mcp_server_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  AcpMcpServer *self = ACP_MCP_SERVER (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      self->transport = g_value_get_enum (value);
      break;
    case PROP_NAME:
      g_free (self->name);
      self->name = g_value_dup_string (value);
      break;
    case PROP_COMMAND:
      g_free (self->command);
      self->command = g_value_dup_string (value);
      break;
    case PROP_ARGS:
      g_strfreev (self->args);
      self->args = g_value_dup_boxed (value);
      break;
    case PROP_URL:
      g_free (self->url);
      self->url = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_mcp_server_constructed (GObject *object)
{
  AcpMcpServer *self = ACP_MCP_SERVER (object);

  G_OBJECT_CLASS (acp_mcp_server_parent_class)->constructed (object);

  if (self->name == NULL)
    self->name = g_strdup ("");

  if (self->transport == ACP_MCP_TRANSPORT_STDIO)
    {
      if (self->command == NULL)
        self->command = g_strdup ("");
      if (self->args == NULL)
        self->args = g_new0 (char *, 1);
      g_clear_pointer (&self->url, g_free);
    }
  else
    {
      if (self->url == NULL)
        self->url = g_strdup ("");
      g_clear_pointer (&self->command, g_free);
      g_clear_pointer (&self->args, g_strfreev);
    }
}

static void
acp_mcp_server_class_init (AcpMcpServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = acp_mcp_server_constructed;
  object_class->finalize = acp_mcp_server_finalize;
  object_class->get_property = acp_mcp_server_get_property;
  object_class->set_property = acp_mcp_server_set_property;

  properties[PROP_TRANSPORT] =
    g_param_spec_enum ("transport", NULL, NULL,
                       ACP_TYPE_MCP_TRANSPORT, ACP_MCP_TRANSPORT_STDIO,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_COMMAND] =
    g_param_spec_string ("command", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ARGS] =
    g_param_spec_boxed ("args", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                        G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_mcp_server_init (AcpMcpServer *self)
{
  self->env = g_array_new (FALSE, TRUE, sizeof (NameValue));
  g_array_set_clear_func (self->env, name_value_clear);
  self->headers = g_array_new (FALSE, TRUE, sizeof (NameValue));
  g_array_set_clear_func (self->headers, name_value_clear);
}

/**
 * acp_mcp_server_new_stdio:
 * @name: the name the agent shows for the server
 * @command: absolute path of the server executable
 * @args: (nullable): its arguments
 *
 * Returns: (transfer full): a new stdio MCP server configuration
 */
AcpMcpServer *
acp_mcp_server_new_stdio (const char         *name,
                          const char         *command,
                          const char * const *args)
{
  return g_object_new (ACP_TYPE_MCP_SERVER,
                       "transport", ACP_MCP_TRANSPORT_STDIO,
                       "name", name,
                       "command", command,
                       "args", args,
                       NULL);
}

/**
 * acp_mcp_server_new_remote:
 * @transport: any transport but %ACP_MCP_TRANSPORT_STDIO
 * @name: the name the agent shows for the server
 * @url: the http or https URL of the server
 *
 * Returns: (transfer full): a new MCP server configuration with a URL
 */
AcpMcpServer *
acp_mcp_server_new_remote (AcpMcpTransport  transport,
                           const char      *name,
                           const char      *url)
{
  g_return_val_if_fail (transport != ACP_MCP_TRANSPORT_STDIO, NULL);
  g_return_val_if_fail (acp_mcp_transport_to_string (transport) != NULL, NULL);

  return g_object_new (ACP_TYPE_MCP_SERVER,
                       "transport", transport,
                       "name", name,
                       "url", url,
                       NULL);
}

/**
 * acp_mcp_server_new_http:
 * @name: the name the agent shows for the server
 * @url: the http or https URL of the server
 *
 * Returns: (transfer full): a new streamable-HTTP MCP server configuration
 */
AcpMcpServer *
acp_mcp_server_new_http (const char *name,
                         const char *url)
{
  return acp_mcp_server_new_remote (ACP_MCP_TRANSPORT_HTTP, name, url);
}

/**
 * acp_mcp_server_new_sse:
 * @name: the name the agent shows for the server
 * @url: the http or https URL of the server's event stream
 *
 * Returns: (transfer full): a new SSE MCP server configuration
 */
AcpMcpServer *
acp_mcp_server_new_sse (const char *name,
                        const char *url)
{
  return acp_mcp_server_new_remote (ACP_MCP_TRANSPORT_SSE, name, url);
}

AcpMcpTransport
acp_mcp_server_get_transport (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), ACP_MCP_TRANSPORT_STDIO);

  return self->transport;
}

const char *
acp_mcp_server_get_transport_name (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);

  return acp_mcp_transport_to_string (self->transport);
}

const char *
acp_mcp_server_get_name (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);

  return self->name;
}

const char *
acp_mcp_server_get_command (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);

  return self->command;
}

const char * const *
acp_mcp_server_get_args (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);

  return (const char * const *) self->args;
}

const char *
acp_mcp_server_get_url (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);

  return self->url;
}

static void
append_name_value (GArray     *array,
                   const char *name,
                   const char *value)
{
  NameValue nv;

  nv.name = g_strdup (name != NULL ? name : "");
  nv.value = g_strdup (value != NULL ? value : "");
  g_array_append_val (array, nv);
}

/**
 * acp_mcp_server_add_env:
 * @self: a stdio #AcpMcpServer
 * @name: the variable name
 * @value: its value
 *
 * Appends an environment variable for the server process. The name is
 * checked by acp_mcp_server_validate().
 */
void
acp_mcp_server_add_env (AcpMcpServer *self,
                        const char   *name,
                        const char   *value)
{
  g_return_if_fail (ACP_IS_MCP_SERVER (self));
  g_return_if_fail (self->transport == ACP_MCP_TRANSPORT_STDIO);

  append_name_value (self->env, name, value);
}

guint
acp_mcp_server_get_n_env (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), 0);

  return self->env->len;
}

const char *
acp_mcp_server_get_env_name (AcpMcpServer *self,
                             guint         index)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);
  g_return_val_if_fail (index < self->env->len, NULL);

  return g_array_index (self->env, NameValue, index).name;
}

const char *
acp_mcp_server_get_env_value (AcpMcpServer *self,
                              guint         index)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);
  g_return_val_if_fail (index < self->env->len, NULL);

  return g_array_index (self->env, NameValue, index).value;
}

/**
 * acp_mcp_server_add_header:
 * @self: an http or sse #AcpMcpServer
 * @name: the header name
 * @value: its value
 *
 * Appends an HTTP header sent with every request to the server. Name and
 * value are checked by acp_mcp_server_validate().
 */
void
acp_mcp_server_add_header (AcpMcpServer *self,
                           const char   *name,
                           const char   *value)
{
  g_return_if_fail (ACP_IS_MCP_SERVER (self));
  g_return_if_fail (self->transport != ACP_MCP_TRANSPORT_STDIO);

  append_name_value (self->headers, name, value);
}

guint
acp_mcp_server_get_n_headers (AcpMcpServer *self)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), 0);

  return self->headers->len;
}

const char *
acp_mcp_server_get_header_name (AcpMcpServer *self,
                                guint         index)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);
  g_return_val_if_fail (index < self->headers->len, NULL);

  return g_array_index (self->headers, NameValue, index).name;
}

const char *
acp_mcp_server_get_header_value (AcpMcpServer *self,
                                 guint         index)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);
  g_return_val_if_fail (index < self->headers->len, NULL);

  return g_array_index (self->headers, NameValue, index).value;
}

/* RFC 7230, section 3.2.6: token = 1*tchar */
static gboolean
is_http_token (const char *s)
{
  if (s == NULL || *s == '\0')
    return FALSE;

  for (; *s != '\0'; s++)
    {
      if (g_ascii_isalnum (*s))
        continue;
      if (strchr ("!#$%&'*+-.^_`|~", *s) == NULL)
        return FALSE;
    }

  return TRUE;
}

/* [A-Za-z_][A-Za-z0-9_]* (which also rules out '=' and the empty name) */
static gboolean
is_env_name (const char *s)
{
  if (s == NULL || *s == '\0')
    return FALSE;
  if (!g_ascii_isalpha (*s) && *s != '_')
    return FALSE;

  for (s++; *s != '\0'; s++)
    {
      if (!g_ascii_isalnum (*s) && *s != '_')
        return FALSE;
    }

  return TRUE;
}

static gboolean
is_blank (const char *s)
{
  for (; *s != '\0'; s++)
    {
      if (!g_ascii_isspace (*s))
        return FALSE;
    }

  return TRUE;
}

static gboolean
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT, message);

  return FALSE;
}

static gboolean
validate_url (AcpMcpServer  *self,
              GError       **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *scheme;
  const char *host;

  if (*self->url == '\0')
    return invalid (error, _("MCP server “%s”: the URL is empty"), self->name);

  uri = g_uri_parse (self->url, G_URI_FLAGS_NONE, &local_error);
  if (uri == NULL)
    return invalid (error, _("MCP server “%s”: the URL “%s” is not valid: %s"),
                    self->name, self->url, local_error->message);

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    return invalid (error, _("MCP server “%s”: the URL scheme “%s” is not http or https"),
                    self->name, scheme);

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    return invalid (error, _("MCP server “%s”: the URL “%s” has no host"),
                    self->name, self->url);

  /* GUri takes spaces and control characters as they are; a URL has none */
  for (const char *p = self->url; *p != '\0'; p++)
    {
      if (g_ascii_isspace (*p) || g_ascii_iscntrl (*p))
        return invalid (error,
                        _("MCP server “%s”: the URL “%s” contains a space or a control character"),
                        self->name, self->url);
    }

  return TRUE;
}

/**
 * acp_mcp_server_validate:
 * @self: an #AcpMcpServer
 * @error: return location for an error
 *
 * Checks every field before the configuration goes to an agent.
 *
 * Returns: %TRUE when valid; otherwise %FALSE with an
 *   %ACP_ERROR_INVALID_ARGUMENT error whose message names the bad field.
 */
gboolean
acp_mcp_server_validate (AcpMcpServer  *self,
                         GError       **error)
{
  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_utf8_validate (self->name, -1, NULL))
    return invalid (error, _("MCP server: the name is not valid UTF-8"));
  if (is_blank (self->name))
    return invalid (error, _("MCP server: the name is empty"));

  if (self->transport == ACP_MCP_TRANSPORT_STDIO)
    {
      if (*self->command == '\0')
        return invalid (error, _("MCP server “%s”: the command is empty"), self->name);
      if (!g_utf8_validate (self->command, -1, NULL))
        return invalid (error, _("MCP server “%s”: the command is not valid UTF-8"), self->name);
      if (!g_path_is_absolute (self->command))
        return invalid (error, _("MCP server “%s”: the command “%s” is not an absolute path"),
                        self->name, self->command);

      for (guint i = 0; self->args[i] != NULL; i++)
        {
          if (!g_utf8_validate (self->args[i], -1, NULL))
            return invalid (error, _("MCP server “%s”: argument %u is not valid UTF-8"),
                            self->name, i + 1);
        }

      for (guint i = 0; i < self->env->len; i++)
        {
          const NameValue *nv = &g_array_index (self->env, NameValue, i);

          if (*nv->name == '\0')
            return invalid (error, _("MCP server “%s”: an environment variable name is empty"),
                            self->name);
          if (!g_utf8_validate (nv->name, -1, NULL) || !is_env_name (nv->name))
            return invalid (error,
                            _("MCP server “%s”: the environment variable name “%s” is not valid "
                              "(letters, digits and underscores, not starting with a digit)"),
                            self->name, g_utf8_validate (nv->name, -1, NULL) ? nv->name : "?");
          if (!g_utf8_validate (nv->value, -1, NULL))
            return invalid (error,
                            _("MCP server “%s”: the value of environment variable “%s” is not "
                              "valid UTF-8"),
                            self->name, nv->name);
        }
    }
  else
    {
      if (!g_utf8_validate (self->url, -1, NULL))
        return invalid (error, _("MCP server “%s”: the URL is not valid UTF-8"), self->name);
      if (!validate_url (self, error))
        return FALSE;

      for (guint i = 0; i < self->headers->len; i++)
        {
          const NameValue *nv = &g_array_index (self->headers, NameValue, i);

          if (*nv->name == '\0')
            return invalid (error, _("MCP server “%s”: a header name is empty"), self->name);
          if (!is_http_token (nv->name))
            return invalid (error,
                            _("MCP server “%s”: the header name “%s” is not a valid HTTP token"),
                            self->name, g_utf8_validate (nv->name, -1, NULL) ? nv->name : "?");
          if (strpbrk (nv->value, "\r\n") != NULL)
            return invalid (error,
                            _("MCP server “%s”: the value of header “%s” contains a line break"),
                            self->name, nv->name);
          if (!g_utf8_validate (nv->value, -1, NULL))
            return invalid (error,
                            _("MCP server “%s”: the value of header “%s” is not valid UTF-8"),
                            self->name, nv->name);
        }
    }

  return TRUE;
}

static void
add_name_values (JsonBuilder *builder,
                 const char  *member,
                 GArray      *array)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < array->len; i++)
    {
      const NameValue *nv = &g_array_index (array, NameValue, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, nv->name);
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, nv->value);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/**
 * acp_mcp_server_to_json:
 * @self: an #AcpMcpServer
 *
 * Builds the `McpServer` object of the ACP schema: stdio servers as
 * `{name, command, args, env}` (without a `type` member), the others as
 * `{type, name, url, headers}`.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
acp_mcp_server_to_json (AcpMcpServer *self)
{
  g_autoptr(JsonBuilder) builder = NULL;

  g_return_val_if_fail (ACP_IS_MCP_SERVER (self), NULL);

  builder = json_builder_new ();
  json_builder_begin_object (builder);

  if (self->transport == ACP_MCP_TRANSPORT_STDIO)
    {
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, self->name);
      json_builder_set_member_name (builder, "command");
      json_builder_add_string_value (builder, self->command);
      json_builder_set_member_name (builder, "args");
      json_builder_begin_array (builder);
      for (guint i = 0; self->args[i] != NULL; i++)
        json_builder_add_string_value (builder, self->args[i]);
      json_builder_end_array (builder);
      add_name_values (builder, "env", self->env);
    }
  else
    {
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, acp_mcp_server_get_transport_name (self));
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, self->name);
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, self->url);
      add_name_values (builder, "headers", self->headers);
    }

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
