/* pal-mcp-probe-result.c: what an MCP server said about itself and its tools
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-mcp-probe-result.h"

struct _PalMcpProbeResult
{
  GObject parent_instance;

  char  *server_name;
  char  *server_title;
  char  *server_version;
  char  *protocol_version;
  char **tool_names;
  char **tool_descriptions;
};

G_DEFINE_FINAL_TYPE (PalMcpProbeResult, pal_mcp_probe_result, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SERVER_NAME,
  PROP_SERVER_TITLE,
  PROP_SERVER_VERSION,
  PROP_PROTOCOL_VERSION,
  PROP_TOOL_NAMES,
  PROP_TOOL_DESCRIPTIONS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pal_mcp_probe_result_finalize (GObject *object)
{
  PalMcpProbeResult *self = PAL_MCP_PROBE_RESULT (object);

  g_free (self->server_name);
  g_free (self->server_title);
  g_free (self->server_version);
  g_free (self->protocol_version);
  g_strfreev (self->tool_names);
  g_strfreev (self->tool_descriptions);

  G_OBJECT_CLASS (pal_mcp_probe_result_parent_class)->finalize (object);
}

static void
pal_mcp_probe_result_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PalMcpProbeResult *self = PAL_MCP_PROBE_RESULT (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:
      g_value_set_string (value, self->server_name);
      break;

    case PROP_SERVER_TITLE:
      g_value_set_string (value, self->server_title);
      break;

    case PROP_SERVER_VERSION:
      g_value_set_string (value, self->server_version);
      break;

    case PROP_PROTOCOL_VERSION:
      g_value_set_string (value, self->protocol_version);
      break;

    case PROP_TOOL_NAMES:
      g_value_set_boxed (value, self->tool_names);
      break;

    case PROP_TOOL_DESCRIPTIONS:
      g_value_set_boxed (value, self->tool_descriptions);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_probe_result_class_init (PalMcpProbeResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pal_mcp_probe_result_finalize;
  object_class->get_property = pal_mcp_probe_result_get_property;

  properties[PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SERVER_TITLE] =
    g_param_spec_string ("server-title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SERVER_VERSION] =
    g_param_spec_string ("server-version", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PROTOCOL_VERSION] =
    g_param_spec_string ("protocol-version", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TOOL_NAMES] =
    g_param_spec_boxed ("tool-names", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TOOL_DESCRIPTIONS] =
    g_param_spec_boxed ("tool-descriptions", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_mcp_probe_result_init (PalMcpProbeResult *self)
{
}

/**
 * pal_mcp_probe_result_new:
 * @server_name: (nullable): serverInfo.name
 * @server_title: (nullable): serverInfo.title
 * @server_version: (nullable): serverInfo.version
 * @protocol_version: the negotiated protocol version
 * @tool_names: (nullable): the tools' names
 * @tool_descriptions: (nullable): as many descriptions, or %NULL
 *
 * Returns: (transfer full): a new result
 */
PalMcpProbeResult *
pal_mcp_probe_result_new (const char         *server_name,
                          const char         *server_title,
                          const char         *server_version,
                          const char         *protocol_version,
                          const char * const *tool_names,
                          const char * const *tool_descriptions)
{
  PalMcpProbeResult *self;
  guint n_tools = tool_names != NULL ? g_strv_length ((char **) tool_names) : 0;

  g_return_val_if_fail (protocol_version != NULL, NULL);
  g_return_val_if_fail (tool_descriptions == NULL ||
                        g_strv_length ((char **) tool_descriptions) == n_tools, NULL);

  self = g_object_new (PAL_TYPE_MCP_PROBE_RESULT, NULL);
  self->server_name = g_strdup (server_name);
  self->server_title = g_strdup (server_title);
  self->server_version = g_strdup (server_version);
  self->protocol_version = g_strdup (protocol_version);
  self->tool_names = g_new0 (char *, n_tools + 1);
  self->tool_descriptions = g_new0 (char *, n_tools + 1);
  for (guint i = 0; i < n_tools; i++)
    {
      self->tool_names[i] = g_strdup (tool_names[i]);
      self->tool_descriptions[i] = g_strdup (tool_descriptions != NULL ? tool_descriptions[i] : "");
    }

  return self;
}

const char *
pal_mcp_probe_result_get_server_name (PalMcpProbeResult *self)
{
  g_return_val_if_fail (PAL_IS_MCP_PROBE_RESULT (self), NULL);

  return self->server_name;
}

const char *
pal_mcp_probe_result_get_server_title (PalMcpProbeResult *self)
{
  g_return_val_if_fail (PAL_IS_MCP_PROBE_RESULT (self), NULL);

  return self->server_title;
}

const char *
pal_mcp_probe_result_get_server_version (PalMcpProbeResult *self)
{
  g_return_val_if_fail (PAL_IS_MCP_PROBE_RESULT (self), NULL);

  return self->server_version;
}

const char *
pal_mcp_probe_result_get_protocol_version (PalMcpProbeResult *self)
{
  g_return_val_if_fail (PAL_IS_MCP_PROBE_RESULT (self), NULL);

  return self->protocol_version;
}

guint
pal_mcp_probe_result_get_n_tools (PalMcpProbeResult *self)
{
  g_return_val_if_fail (PAL_IS_MCP_PROBE_RESULT (self), 0);

  return g_strv_length (self->tool_names);
}

const char * const *
pal_mcp_probe_result_get_tool_names (PalMcpProbeResult *self)
{
  g_return_val_if_fail (PAL_IS_MCP_PROBE_RESULT (self), NULL);

  return (const char * const *) self->tool_names;
}

const char * const *
pal_mcp_probe_result_get_tool_descriptions (PalMcpProbeResult *self)
{
  g_return_val_if_fail (PAL_IS_MCP_PROBE_RESULT (self), NULL);

  return (const char * const *) self->tool_descriptions;
}
