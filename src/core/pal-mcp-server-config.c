/* pal-mcp-server-config.c: one MCP server as the person configured it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-mcp-server-config.h"
#include "pal-mcp-server-store.h"
#include "pal-store-private.h"

/**
 * PalMcpServerConfig:
 *
 * An MCP server the person configured: a name unique in its
 * #PalMcpServerStore, a transport, whether it is handed to agents, and the
 * settings of every transport (so that switching the transport back and
 * forth in an editor loses nothing): command, args and env for stdio, URL
 * and headers for the others.
 *
 * The env and header lists are #GListStores of #PalNameValue that an editor
 * changes directly. Any change of a property, of a list or of a row emits
 * #PalMcpServerConfig::changed, which the store follows.
 */
/* How each transport is shown; one missing here shows its wire name. */
static const struct
{
  const char *label;
  const char *title;
} transport_names[ACP_MCP_N_TRANSPORTS] = {
  [ACP_MCP_TRANSPORT_STDIO] = { N_("stdio"), N_("Local Program (stdio)") },
  [ACP_MCP_TRANSPORT_HTTP] = { N_("HTTP"), N_("Streamable HTTP") },
  [ACP_MCP_TRANSPORT_SSE] = { N_("SSE"), N_("Server-Sent Events (SSE)") },
};

const char *
pal_mcp_transport_get_label (AcpMcpTransport transport)
{
  g_return_val_if_fail ((guint) transport < ACP_MCP_N_TRANSPORTS, NULL);

  if (transport_names[transport].label == NULL)
    return acp_mcp_transport_to_string (transport);
  return _(transport_names[transport].label);
}

const char *
pal_mcp_transport_get_title (AcpMcpTransport transport)
{
  g_return_val_if_fail ((guint) transport < ACP_MCP_N_TRANSPORTS, NULL);

  if (transport_names[transport].title == NULL)
    return acp_mcp_transport_to_string (transport);
  return _(transport_names[transport].title);
}

struct _PalMcpServerConfig
{
  GObject parent_instance;

  char *name;
  AcpMcpTransport transport;
  gboolean enabled;
  char *command;
  char **args;
  GListStore *env;
  char *url;
  GListStore *headers;
};

G_DEFINE_FINAL_TYPE (PalMcpServerConfig, pal_mcp_server_config, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_TRANSPORT,
  PROP_ENABLED,
  PROP_COMMAND,
  PROP_ARGS,
  PROP_ENV,
  PROP_URL,
  PROP_HEADERS,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
emit_changed (PalMcpServerConfig *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
notify_changed (PalMcpServerConfig *self,
                int                 prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  emit_changed (self);
}

static void
row_notify_cb (PalNameValue       *row,
               GParamSpec         *pspec,
               PalMcpServerConfig *self)
{
  guint position;

  /* a row removed from the list no longer counts */
  if (g_list_store_find (self->env, row, &position) ||
      g_list_store_find (self->headers, row, &position))
    emit_changed (self);
}

static void
rows_changed_cb (GListModel         *list,
                 guint               position,
                 guint               removed,
                 guint               added,
                 PalMcpServerConfig *self)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (list, i);

      if (g_signal_handler_find (row, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA,
                                 0, 0, NULL, row_notify_cb, self) == 0)
        g_signal_connect_object (row, "notify", G_CALLBACK (row_notify_cb), self, 0);
    }

  emit_changed (self);
}

static void
pal_mcp_server_config_dispose (GObject *object)
{
  PalMcpServerConfig *self = (PalMcpServerConfig *) object;

  if (self->env != NULL)
    g_signal_handlers_disconnect_by_func (self->env, rows_changed_cb, self);
  if (self->headers != NULL)
    g_signal_handlers_disconnect_by_func (self->headers, rows_changed_cb, self);
  g_clear_object (&self->env);
  g_clear_object (&self->headers);

  G_OBJECT_CLASS (pal_mcp_server_config_parent_class)->dispose (object);
}

static void
pal_mcp_server_config_finalize (GObject *object)
{
  PalMcpServerConfig *self = (PalMcpServerConfig *) object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->args, g_strfreev);
  g_clear_pointer (&self->url, g_free);

  G_OBJECT_CLASS (pal_mcp_server_config_parent_class)->finalize (object);
}

static void
pal_mcp_server_config_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PalMcpServerConfig *self = PAL_MCP_SERVER_CONFIG (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_TRANSPORT:
      g_value_set_enum (value, self->transport);
      break;
    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;
    case PROP_COMMAND:
      g_value_set_string (value, self->command);
      break;
    case PROP_ARGS:
      g_value_set_boxed (value, self->args);
      break;
    case PROP_ENV:
      g_value_set_object (value, self->env);
      break;
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;
    case PROP_HEADERS:
      g_value_set_object (value, self->headers);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_server_config_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PalMcpServerConfig *self = PAL_MCP_SERVER_CONFIG (object);

  switch (prop_id)
    {
    case PROP_NAME:
      pal_mcp_server_config_set_name (self, g_value_get_string (value));
      break;
    case PROP_TRANSPORT:
      pal_mcp_server_config_set_transport (self, g_value_get_enum (value));
      break;
    case PROP_ENABLED:
      pal_mcp_server_config_set_enabled (self, g_value_get_boolean (value));
      break;
    case PROP_COMMAND:
      pal_mcp_server_config_set_command (self, g_value_get_string (value));
      break;
    case PROP_ARGS:
      pal_mcp_server_config_set_args (self, g_value_get_boxed (value));
      break;
    case PROP_URL:
      pal_mcp_server_config_set_url (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_server_config_class_init (PalMcpServerConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_mcp_server_config_dispose;
  object_class->finalize = pal_mcp_server_config_finalize;
  object_class->get_property = pal_mcp_server_config_get_property;
  object_class->set_property = pal_mcp_server_config_set_property;

  /* Unique in the store; the agents see it too. */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TRANSPORT] =
    g_param_spec_enum ("transport", NULL, NULL,
                       ACP_TYPE_MCP_TRANSPORT, ACP_MCP_TRANSPORT_STDIO,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                       G_PARAM_EXPLICIT_NOTIFY);
  /* Whether sessions get this server. */
  properties[PROP_ENABLED] =
    g_param_spec_boolean ("enabled", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);
  /* stdio: an absolute path, or a program name looked up in PATH. */
  properties[PROP_COMMAND] =
    g_param_spec_string ("command", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ARGS] =
    g_param_spec_boxed ("args", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  /* stdio: a GListStore of PalNameValue. */
  properties[PROP_ENV] =
    g_param_spec_object ("env", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* the transports with a URL */
  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  /* the transports with a URL: a GListStore of PalNameValue. */
  properties[PROP_HEADERS] =
    g_param_spec_object ("headers", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalMcpServerConfig::changed:
   *
   * Something to store changed: a property, a list or a row of a list.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
pal_mcp_server_config_init (PalMcpServerConfig *self)
{
  self->name = g_strdup ("");
  self->enabled = TRUE;
  self->command = g_strdup ("");
  self->args = g_new0 (char *, 1);
  self->url = g_strdup ("");
  self->env = g_list_store_new (PAL_TYPE_NAME_VALUE);
  self->headers = g_list_store_new (PAL_TYPE_NAME_VALUE);

  g_signal_connect (self->env, "items-changed", G_CALLBACK (rows_changed_cb), self);
  g_signal_connect (self->headers, "items-changed", G_CALLBACK (rows_changed_cb), self);
}

/**
 * pal_mcp_server_config_new:
 * @name: the name
 * @transport: the transport
 *
 * Returns: (transfer full): a new, enabled configuration
 */
PalMcpServerConfig *
pal_mcp_server_config_new (const char      *name,
                           AcpMcpTransport  transport)
{
  return g_object_new (PAL_TYPE_MCP_SERVER_CONFIG,
                       "name", name,
                       "transport", transport,
                       NULL);
}

static void
copy_rows (GListStore *to,
           GListStore *from)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (from));
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (from), i);

      g_ptr_array_add (rows, pal_name_value_copy (row));
    }

  g_list_store_splice (to, 0, g_list_model_get_n_items (G_LIST_MODEL (to)),
                       rows->pdata, rows->len);
}

/**
 * pal_mcp_server_config_copy:
 * @self: a #PalMcpServerConfig
 *
 * Returns: (transfer full): a configuration with the same settings and new
 *   rows, not in any store
 */
PalMcpServerConfig *
pal_mcp_server_config_copy (PalMcpServerConfig *self)
{
  PalMcpServerConfig *copy;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);

  copy = g_object_new (PAL_TYPE_MCP_SERVER_CONFIG,
                       "name", self->name,
                       "transport", self->transport,
                       "enabled", self->enabled,
                       "command", self->command,
                       "args", self->args,
                       "url", self->url,
                       NULL);
  copy_rows (copy->env, self->env);
  copy_rows (copy->headers, self->headers);
  return copy;
}

const char *
pal_mcp_server_config_get_name (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);
  return self->name;
}

void
pal_mcp_server_config_set_name (PalMcpServerConfig *self,
                                const char         *name)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_CONFIG (self));

  if (_pal_set_string (&self->name, name != NULL ? name : ""))
    notify_changed (self, PROP_NAME);
}

AcpMcpTransport
pal_mcp_server_config_get_transport (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), ACP_MCP_TRANSPORT_STDIO);
  return self->transport;
}

void
pal_mcp_server_config_set_transport (PalMcpServerConfig *self,
                                     AcpMcpTransport     transport)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_CONFIG (self));
  g_return_if_fail ((guint) transport < ACP_MCP_N_TRANSPORTS);

  if (self->transport == transport)
    return;
  self->transport = transport;
  notify_changed (self, PROP_TRANSPORT);
}

gboolean
pal_mcp_server_config_get_enabled (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), FALSE);
  return self->enabled;
}

void
pal_mcp_server_config_set_enabled (PalMcpServerConfig *self,
                                   gboolean            enabled)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_CONFIG (self));

  enabled = !!enabled;
  if (self->enabled == enabled)
    return;
  self->enabled = enabled;
  notify_changed (self, PROP_ENABLED);
}

const char *
pal_mcp_server_config_get_command (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);
  return self->command;
}

void
pal_mcp_server_config_set_command (PalMcpServerConfig *self,
                                   const char         *command)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_CONFIG (self));

  if (_pal_set_string (&self->command, command != NULL ? command : ""))
    notify_changed (self, PROP_COMMAND);
}

const char * const *
pal_mcp_server_config_get_args (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);
  return (const char * const *) self->args;
}

void
pal_mcp_server_config_set_args (PalMcpServerConfig *self,
                                const char * const *args)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_CONFIG (self));

  if (_pal_set_strv (&self->args, args))
    notify_changed (self, PROP_ARGS);
}

/**
 * pal_mcp_server_config_get_env:
 * @self: a #PalMcpServerConfig
 *
 * Returns: (transfer none): the environment variables of a stdio server
 */
GListStore *
pal_mcp_server_config_get_env (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);
  return self->env;
}

const char *
pal_mcp_server_config_get_url (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);
  return self->url;
}

void
pal_mcp_server_config_set_url (PalMcpServerConfig *self,
                               const char         *url)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_CONFIG (self));

  if (_pal_set_string (&self->url, url != NULL ? url : ""))
    notify_changed (self, PROP_URL);
}

/**
 * pal_mcp_server_config_get_headers:
 * @self: a #PalMcpServerConfig
 *
 * Returns: (transfer none): the HTTP headers of a server with a URL
 */
GListStore *
pal_mcp_server_config_get_headers (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);
  return self->headers;
}

/**
 * pal_mcp_server_config_add_env:
 * @self: a #PalMcpServerConfig
 * @name: the variable name
 * @value: its value
 *
 * Appends a variable, marked secret when pal_name_value_name_looks_secret()
 * says so.
 *
 * Returns: (transfer none): the new row
 */
PalNameValue *
pal_mcp_server_config_add_env (PalMcpServerConfig *self,
                               const char         *name,
                               const char         *value)
{
  g_autoptr(PalNameValue) row = NULL;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);

  row = pal_name_value_new (name, value, pal_name_value_name_looks_secret (name));
  g_list_store_append (self->env, row);
  return row;
}

/**
 * pal_mcp_server_config_add_header:
 * @self: a #PalMcpServerConfig
 * @name: the header name
 * @value: its value
 *
 * Appends a header, marked secret when pal_name_value_name_looks_secret()
 * says so.
 *
 * Returns: (transfer none): the new row
 */
PalNameValue *
pal_mcp_server_config_add_header (PalMcpServerConfig *self,
                                  const char         *name,
                                  const char         *value)
{
  g_autoptr(PalNameValue) row = NULL;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);

  row = pal_name_value_new (name, value, pal_name_value_name_looks_secret (name));
  g_list_store_append (self->headers, row);
  return row;
}

/**
 * pal_mcp_server_config_resolve_command:
 * @self: a #PalMcpServerConfig
 *
 * The program a stdio server runs: the command itself when it is an absolute
 * path, else the executable of that name found in `PATH`. A relative path
 * with a slash is not looked up: Palaver's own working directory means
 * nothing to the person.
 *
 * This stats a few files: not for the main thread of an editor, which uses
 * pal_program_lookup_async() and pal_mcp_server_config_validate_resolved().
 *
 * Returns: (transfer full) (nullable): an absolute path, or %NULL
 */
char *
pal_mcp_server_config_resolve_command (PalMcpServerConfig *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);

  if (*self->command == '\0')
    return NULL;
  if (g_path_is_absolute (self->command))
    return g_strdup (self->command);
  if (strchr (self->command, '/') != NULL)
    return NULL;

  return g_find_program_in_path (self->command);
}

static AcpMcpServer *
build_acp (PalMcpServerConfig *self,
           const char         *command)
{
  AcpMcpServer *server;
  GListStore *rows;
  guint n;

  if (self->transport == ACP_MCP_TRANSPORT_STDIO)
    {
      server = acp_mcp_server_new_stdio (self->name, command, (const char * const *) self->args);
      rows = self->env;
    }
  else
    {
      server = acp_mcp_server_new_remote (self->transport, self->name, self->url);
      rows = self->headers;
    }

  n = g_list_model_get_n_items (G_LIST_MODEL (rows));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (rows), i);

      if (self->transport == ACP_MCP_TRANSPORT_STDIO)
        acp_mcp_server_add_env (server, pal_name_value_get_name (row),
                                pal_name_value_get_value (row));
      else
        acp_mcp_server_add_header (server, pal_name_value_get_name (row),
                                   pal_name_value_get_value (row));
    }

  return server;
}

/* All the checks, with the command of a stdio server already resolved
 * (@resolved: NULL when it was not found; not looked at for the others):
 * those that need the store here, AcpMcpServer does the rest. Looks at no
 * file. Returns the server as sent to agents. */
static AcpMcpServer *
validate (PalMcpServerConfig  *self,
          PalMcpServerStore   *store,
          const char          *resolved,
          GError             **error)
{
  g_autoptr(AcpMcpServer) server = NULL;
  g_autoptr(GError) local_error = NULL;

  if (_pal_str_is_blank (self->name))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("MCP server: the name is empty"));
      return NULL;
    }

  if (store != NULL)
    {
      PalMcpServerConfig *other = pal_mcp_server_store_lookup (store, self->name);

      if (other != NULL && other != self)
        {
          g_set_error (error, PAL_ERROR, PAL_ERROR_EXISTS,
                       _("MCP server “%s”: the name is already taken"), self->name);
          return NULL;
        }
    }

  if (self->transport == ACP_MCP_TRANSPORT_STDIO)
    {
      if (_pal_str_is_blank (self->command))
        {
          g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                       _("MCP server “%s”: the command is empty"), self->name);
          return NULL;
        }

      if (resolved == NULL)
        {
          g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                       _("MCP server “%s”: the command “%s” is not an absolute path and "
                         "was not found in PATH"),
                       self->name, self->command);
          return NULL;
        }
    }

  server = build_acp (self, resolved);
  if (!acp_mcp_server_validate (server, &local_error))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID, local_error->message);
      return NULL;
    }

  return g_steal_pointer (&server);
}

/* The command as pal_mcp_server_config_resolve_command() finds it, for the
 * transports that have one. */
static char *
resolve_for_transport (PalMcpServerConfig *self)
{
  if (self->transport != ACP_MCP_TRANSPORT_STDIO)
    return NULL;
  return pal_mcp_server_config_resolve_command (self);
}

/**
 * pal_mcp_server_config_validate:
 * @self: a #PalMcpServerConfig
 * @store: (nullable): the store the name must be unique in
 * @error: return location for an error whose message names the server and
 *   the bad field
 *
 * Checks the settings of the current transport: the name (not empty,
 * %PAL_ERROR_EXISTS when another server of @store has it), for stdio the
 * command (found, see pal_mcp_server_config_resolve_command()) and the
 * variable names, for the others the URL (http or https, with a host) and
 * the header names and values. The fields of the other transports are not
 * looked at.
 *
 * For stdio this looks the command up in `PATH`: an editor that has done so
 * in a worker thread uses pal_mcp_server_config_validate_resolved().
 *
 * Returns: %TRUE when the server can be handed to agents
 */
gboolean
pal_mcp_server_config_validate (PalMcpServerConfig  *self,
                                PalMcpServerStore   *store,
                                GError             **error)
{
  g_autoptr(AcpMcpServer) server = NULL;
  g_autofree char *resolved = NULL;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), FALSE);
  g_return_val_if_fail (store == NULL || PAL_IS_MCP_SERVER_STORE (store), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  resolved = resolve_for_transport (self);
  server = validate (self, store, resolved, error);
  return server != NULL;
}

/**
 * pal_mcp_server_config_validate_resolved:
 * @self: a #PalMcpServerConfig
 * @store: (nullable): the store the name must be unique in
 * @resolved_command: (nullable): for stdio, the absolute path the command
 *   was resolved to (as by pal_mcp_server_config_resolve_command(), done
 *   beforehand, e.g. in a worker thread), or %NULL when it was not found;
 *   not looked at for the others
 * @error: as for pal_mcp_server_config_validate()
 *
 * The checks of pal_mcp_server_config_validate(), with the command already
 * resolved: looks at no file, so it is fine on the main thread.
 *
 * Returns: %TRUE when the server can be handed to agents
 */
gboolean
pal_mcp_server_config_validate_resolved (PalMcpServerConfig  *self,
                                         PalMcpServerStore   *store,
                                         const char          *resolved_command,
                                         GError             **error)
{
  g_autoptr(AcpMcpServer) server = NULL;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), FALSE);
  g_return_val_if_fail (store == NULL || PAL_IS_MCP_SERVER_STORE (store), FALSE);
  g_return_val_if_fail (resolved_command == NULL || g_path_is_absolute (resolved_command),
                        FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  server = validate (self, store, resolved_command, error);
  return server != NULL;
}

/**
 * pal_mcp_server_config_to_acp:
 * @self: a #PalMcpServerConfig
 * @error: as for pal_mcp_server_config_validate() (without a store)
 *
 * The configuration as sent to agents, with the command resolved to an
 * absolute path and the rows of the transport in order (secret or not).
 *
 * Returns: (transfer full) (nullable): a valid #AcpMcpServer, or %NULL
 */
AcpMcpServer *
pal_mcp_server_config_to_acp (PalMcpServerConfig  *self,
                              GError             **error)
{
  g_autofree char *resolved = NULL;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  resolved = resolve_for_transport (self);
  return validate (self, NULL, resolved, error);
}
