/* pal-mcp-server-store.c: the MCP servers handed to agents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-mcp-server-store.h"
#include "pal-store-private.h"

#define MCP_SERVERS_KEY "mcp-servers"

/**
 * PalMcpServerStore:
 *
 * A #GListModel of #PalMcpServerConfig in the order the person added them,
 * names unique, stored in the `mcp-servers` key. Changes through the API are
 * written at once; changes made directly on a configuration (an editor bound
 * to its properties and rows) once per main loop iteration. Entries of the
 * key that cannot be read are skipped, reported by
 * pal_mcp_server_store_get_load_errors() and written back unchanged after
 * the readable ones.
 *
 * A rename through the configuration's #PalMcpServerConfig:name is not
 * checked here: editors validate with pal_mcp_server_config_validate() and
 * the store before they apply one. Were two names equal anyway, the later
 * entry would be skipped (and kept) on the next read.
 */
struct _PalMcpServerStore
{
  GObject parent_instance;

  GSettings *settings;

  /* owning, in order */
  GPtrArray *items;
  /* raw entries of the key that could not be read */
  GPtrArray *skipped;
  /* NULL-terminated array of translated messages */
  GPtrArray *load_errors;

  GVariant *last_value;
  guint save_source;
  guint loading : 1;
};

static void pal_mcp_server_store_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PalMcpServerStore, pal_mcp_server_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      pal_mcp_server_store_list_model_init))

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_LOAD_ERRORS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void config_changed_cb (PalMcpServerConfig *config,
                               PalMcpServerStore  *self);

static const char *
transport_name (AcpMcpTransport transport)
{
  switch (transport)
    {
    case ACP_MCP_TRANSPORT_HTTP:
      return "http";
    case ACP_MCP_TRANSPORT_SSE:
      return "sse";
    case ACP_MCP_TRANSPORT_STDIO:
    default:
      return "stdio";
    }
}

static PalMcpServerConfig *
find_by_name (GPtrArray  *array,
              const char *name)
{
  for (guint i = 0; i < array->len; i++)
    {
      PalMcpServerConfig *config = g_ptr_array_index (array, i);

      if (g_strcmp0 (pal_mcp_server_config_get_name (config), name) == 0)
        return config;
    }
  return NULL;
}

static void
watch_config (PalMcpServerStore  *self,
              PalMcpServerConfig *config)
{
  g_signal_connect_object (config, "changed", G_CALLBACK (config_changed_cb), self, 0);
}

static void
unwatch_config (PalMcpServerStore  *self,
                PalMcpServerConfig *config)
{
  g_signal_handlers_disconnect_by_func (config, config_changed_cb, self);
}

/* --- writing --- */

static GVariant *
rows_to_variant (GListStore *rows)
{
  GVariantBuilder builder;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (rows));

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ssb)"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (rows), i);

      g_variant_builder_add (&builder, "(ssb)",
                             pal_name_value_get_name (row),
                             pal_name_value_get_value (row),
                             pal_name_value_get_secret (row));
    }
  return g_variant_builder_end (&builder);
}

static GVariant *
config_to_variant (PalMcpServerConfig *config)
{
  GVariantBuilder builder;

  /* Every transport's settings are kept, so switching back loses nothing. */
  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&builder, "{sv}", "name",
                         g_variant_new_string (pal_mcp_server_config_get_name (config)));
  g_variant_builder_add (&builder, "{sv}", "transport",
                         g_variant_new_string (transport_name (pal_mcp_server_config_get_transport (config))));
  g_variant_builder_add (&builder, "{sv}", "enabled",
                         g_variant_new_boolean (pal_mcp_server_config_get_enabled (config)));
  g_variant_builder_add (&builder, "{sv}", "command",
                         g_variant_new_string (pal_mcp_server_config_get_command (config)));
  g_variant_builder_add (&builder, "{sv}", "args",
                         g_variant_new_strv (pal_mcp_server_config_get_args (config), -1));
  g_variant_builder_add (&builder, "{sv}", "env",
                         rows_to_variant (pal_mcp_server_config_get_env (config)));
  g_variant_builder_add (&builder, "{sv}", "url",
                         g_variant_new_string (pal_mcp_server_config_get_url (config)));
  g_variant_builder_add (&builder, "{sv}", "headers",
                         rows_to_variant (pal_mcp_server_config_get_headers (config)));
  return g_variant_builder_end (&builder);
}

static void
save_now (PalMcpServerStore *self)
{
  GVariantBuilder builder;
  g_autoptr(GVariant) value = NULL;

  g_clear_handle_id (&self->save_source, g_source_remove);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < self->items->len; i++)
    g_variant_builder_add_value (&builder, config_to_variant (g_ptr_array_index (self->items, i)));
  for (guint i = 0; i < self->skipped->len; i++)
    g_variant_builder_add_value (&builder, g_ptr_array_index (self->skipped, i));
  value = g_variant_ref_sink (g_variant_builder_end (&builder));

  if (self->last_value != NULL && g_variant_equal (self->last_value, value))
    return;

  g_clear_pointer (&self->last_value, g_variant_unref);
  self->last_value = g_variant_ref (value);
  g_settings_set_value (self->settings, MCP_SERVERS_KEY, value);
}

static gboolean
save_idle_cb (gpointer user_data)
{
  PalMcpServerStore *self = user_data;

  self->save_source = 0;
  save_now (self);
  return G_SOURCE_REMOVE;
}

static void
config_changed_cb (PalMcpServerConfig *config,
                   PalMcpServerStore  *self)
{
  if (self->loading || !g_ptr_array_find (self->items, config, NULL))
    return;

  if (self->save_source == 0)
    self->save_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, save_idle_cb, self, NULL);
}

/* --- reading --- */

static void
add_load_error (PalMcpServerStore *self,
                guint              index,
                const char        *reason)
{
  char *message;

  /* TRANSLATORS: %u is the position of the entry, counted from 1; %s says what is wrong */
  message = g_strdup_printf (_("Stored MCP server %u: %s"), index + 1, reason);
  g_debug ("Skipping an entry of “%s”: %s", MCP_SERVERS_KEY, message);
  g_ptr_array_add (self->load_errors, message);
}

static GPtrArray *
rows_from_variant (GVariant *rows)
{
  GPtrArray *array = g_ptr_array_new_with_free_func (g_object_unref);
  GVariantIter iter;
  const char *name;
  const char *value;
  gboolean secret;

  if (rows == NULL)
    return array;

  g_variant_iter_init (&iter, rows);
  while (g_variant_iter_next (&iter, "(&s&sb)", &name, &value, &secret))
    g_ptr_array_add (array, pal_name_value_new (name, value, secret));
  return array;
}

static void
assign_rows (GListStore *store,
             GPtrArray  *rows)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));
  gboolean same = n == rows->len;

  for (guint i = 0; same && i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (store), i);
      PalNameValue *other = g_ptr_array_index (rows, i);

      same = g_strcmp0 (pal_name_value_get_name (row), pal_name_value_get_name (other)) == 0 &&
             g_strcmp0 (pal_name_value_get_value (row), pal_name_value_get_value (other)) == 0 &&
             pal_name_value_get_secret (row) == pal_name_value_get_secret (other);
    }

  if (!same)
    g_list_store_splice (store, 0, n, rows->pdata, rows->len);
}

static PalMcpServerConfig *
parse_entry (GVariant  *entry,
             GPtrArray **out_env,
             GPtrArray **out_headers,
             char      **reason)
{
  g_autofree char *name = NULL;
  g_autofree char *transport = NULL;
  g_autofree char *command = NULL;
  g_autofree char *url = NULL;
  g_auto(GStrv) args = NULL;
  g_autoptr(GVariant) env = NULL;
  g_autoptr(GVariant) headers = NULL;
  gboolean enabled = TRUE;
  AcpMcpTransport kind;
  PalMcpServerConfig *config;

  if (!_pal_dict_get_string (entry, "name", TRUE, &name, reason) ||
      !_pal_dict_get_string (entry, "transport", TRUE, &transport, reason))
    return NULL;

  if (_pal_str_is_blank (name))
    {
      *reason = g_strdup (_("the name is empty"));
      return NULL;
    }

  if (g_str_equal (transport, "stdio"))
    kind = ACP_MCP_TRANSPORT_STDIO;
  else if (g_str_equal (transport, "http"))
    kind = ACP_MCP_TRANSPORT_HTTP;
  else if (g_str_equal (transport, "sse"))
    kind = ACP_MCP_TRANSPORT_SSE;
  else
    {
      *reason = g_strdup_printf (_("the transport “%s” is not stdio, http or sse"), transport);
      return NULL;
    }

  if (!_pal_dict_get_boolean (entry, "enabled", FALSE, &enabled, reason) ||
      !_pal_dict_get_string (entry, "command", kind == ACP_MCP_TRANSPORT_STDIO, &command, reason) ||
      !_pal_dict_get_strv (entry, "args", FALSE, &args, reason) ||
      !_pal_dict_get_value (entry, "env", "a(ssb)", FALSE, &env, reason) ||
      !_pal_dict_get_string (entry, "url", kind != ACP_MCP_TRANSPORT_STDIO, &url, reason) ||
      !_pal_dict_get_value (entry, "headers", "a(ssb)", FALSE, &headers, reason))
    return NULL;

  config = g_object_new (PAL_TYPE_MCP_SERVER_CONFIG,
                         "name", name,
                         "transport", kind,
                         "enabled", enabled,
                         "command", command,
                         "args", args,
                         "url", url,
                         NULL);
  *out_env = rows_from_variant (env);
  *out_headers = rows_from_variant (headers);
  return config;
}

static void
load (PalMcpServerStore *self,
      GVariant          *value)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean had_errors = self->load_errors->len > 0;
  GVariantIter iter;
  GVariant *child;
  guint index = 0;

  g_clear_pointer (&self->last_value, g_variant_unref);
  self->last_value = g_variant_ref (value);
  g_ptr_array_set_size (self->skipped, 0);
  g_ptr_array_set_size (self->load_errors, 0);

  self->loading = TRUE;

  g_variant_iter_init (&iter, value);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_autoptr(GVariant) entry = child;
      g_autoptr(PalMcpServerConfig) parsed = NULL;
      g_autoptr(GPtrArray) env = NULL;
      g_autoptr(GPtrArray) headers = NULL;
      g_autofree char *reason = NULL;
      PalMcpServerConfig *config;
      const char *name;

      parsed = parse_entry (entry, &env, &headers, &reason);
      if (parsed != NULL &&
          g_hash_table_contains (seen, pal_mcp_server_config_get_name (parsed)))
        {
          reason = g_strdup_printf (_("the name “%s” is used by an earlier entry"),
                                    pal_mcp_server_config_get_name (parsed));
          g_clear_object (&parsed);
        }

      if (parsed == NULL)
        {
          add_load_error (self, index++, reason);
          g_ptr_array_add (self->skipped, g_steal_pointer (&entry));
          continue;
        }
      index++;

      name = pal_mcp_server_config_get_name (parsed);
      config = find_by_name (self->items, name);
      if (config != NULL && !g_ptr_array_find (items, config, NULL))
        {
          g_object_freeze_notify (G_OBJECT (config));
          pal_mcp_server_config_set_transport (config, pal_mcp_server_config_get_transport (parsed));
          pal_mcp_server_config_set_enabled (config, pal_mcp_server_config_get_enabled (parsed));
          pal_mcp_server_config_set_command (config, pal_mcp_server_config_get_command (parsed));
          pal_mcp_server_config_set_args (config, pal_mcp_server_config_get_args (parsed));
          pal_mcp_server_config_set_url (config, pal_mcp_server_config_get_url (parsed));
          g_object_thaw_notify (G_OBJECT (config));
        }
      else
        {
          config = parsed;
          watch_config (self, config);
        }
      assign_rows (pal_mcp_server_config_get_env (config), env);
      assign_rows (pal_mcp_server_config_get_headers (config), headers);

      g_hash_table_add (seen, g_strdup (name));
      g_ptr_array_add (items, g_object_ref (config));
    }

  for (guint i = 0; i < self->items->len; i++)
    {
      PalMcpServerConfig *config = g_ptr_array_index (self->items, i);

      if (!g_ptr_array_find (items, config, NULL))
        unwatch_config (self, config);
    }

  _pal_items_replace (G_LIST_MODEL (self), self->items, items);
  self->loading = FALSE;

  if (had_errors || self->load_errors->len > 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOAD_ERRORS]);
}

static void
settings_changed_cb (PalMcpServerStore *self,
                     const char        *key,
                     GSettings         *settings)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, MCP_SERVERS_KEY);

  if (self->last_value != NULL && g_variant_equal (self->last_value, value))
    return;

  /* Someone else wrote the key: theirs is newer than any pending change. */
  g_clear_handle_id (&self->save_source, g_source_remove);
  load (self, value);
}

/* --- GObject --- */

static GType
pal_mcp_server_store_get_item_type (GListModel *model)
{
  return PAL_TYPE_MCP_SERVER_CONFIG;
}

static guint
pal_mcp_server_store_get_n_items (GListModel *model)
{
  return PAL_MCP_SERVER_STORE (model)->items->len;
}

static gpointer
pal_mcp_server_store_get_item (GListModel *model,
                               guint       position)
{
  PalMcpServerStore *self = PAL_MCP_SERVER_STORE (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
pal_mcp_server_store_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = pal_mcp_server_store_get_item_type;
  iface->get_n_items = pal_mcp_server_store_get_n_items;
  iface->get_item = pal_mcp_server_store_get_item;
}

static void
pal_mcp_server_store_constructed (GObject *object)
{
  PalMcpServerStore *self = PAL_MCP_SERVER_STORE (object);
  g_autoptr(GVariant) value = NULL;

  G_OBJECT_CLASS (pal_mcp_server_store_parent_class)->constructed (object);

  g_return_if_fail (G_IS_SETTINGS (self->settings));

  g_signal_connect_object (self->settings, "changed::" MCP_SERVERS_KEY,
                           G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  value = g_settings_get_value (self->settings, MCP_SERVERS_KEY);
  load (self, value);
}

static void
pal_mcp_server_store_dispose (GObject *object)
{
  PalMcpServerStore *self = PAL_MCP_SERVER_STORE (object);

  if (self->save_source != 0)
    save_now (self);

  for (guint i = 0; i < self->items->len; i++)
    unwatch_config (self, g_ptr_array_index (self->items, i));
  g_ptr_array_set_size (self->items, 0);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_func (self->settings, settings_changed_cb, self);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (pal_mcp_server_store_parent_class)->dispose (object);
}

static void
pal_mcp_server_store_finalize (GObject *object)
{
  PalMcpServerStore *self = PAL_MCP_SERVER_STORE (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->skipped, g_ptr_array_unref);
  g_clear_pointer (&self->load_errors, g_ptr_array_unref);
  g_clear_pointer (&self->last_value, g_variant_unref);

  G_OBJECT_CLASS (pal_mcp_server_store_parent_class)->finalize (object);
}

static void
pal_mcp_server_store_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PalMcpServerStore *self = PAL_MCP_SERVER_STORE (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_LOAD_ERRORS:
      g_value_set_boxed (value, _pal_ptr_array_as_strv (self->load_errors));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_server_store_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PalMcpServerStore *self = PAL_MCP_SERVER_STORE (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_mcp_server_store_class_init (PalMcpServerStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = pal_mcp_server_store_constructed;
  object_class->dispose = pal_mcp_server_store_dispose;
  object_class->finalize = pal_mcp_server_store_finalize;
  object_class->get_property = pal_mcp_server_store_get_property;
  object_class->set_property = pal_mcp_server_store_set_property;

  /* The io.github.palaverapp.Palaver settings (or a test's own). */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* Why stored entries were skipped; see pal_mcp_server_store_get_load_errors(). */
  properties[PROP_LOAD_ERRORS] =
    g_param_spec_boxed ("load-errors", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_mcp_server_store_init (PalMcpServerStore *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->skipped = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  self->load_errors = g_ptr_array_new_null_terminated (1, g_free, TRUE);
}

/* --- public API --- */

/**
 * pal_mcp_server_store_new:
 * @settings: the io.github.palaverapp.Palaver settings
 *
 * Returns: (transfer full): a new store holding the stored servers
 */
PalMcpServerStore *
pal_mcp_server_store_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (PAL_TYPE_MCP_SERVER_STORE, "settings", settings, NULL);
}

GSettings *
pal_mcp_server_store_get_settings (PalMcpServerStore *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), NULL);
  return self->settings;
}

/**
 * pal_mcp_server_store_get_load_errors:
 * @self: a #PalMcpServerStore
 *
 * Returns: (transfer none): one translated sentence per stored entry that was
 *   skipped the last time the key was read; empty when all were read.
 */
const char * const *
pal_mcp_server_store_get_load_errors (PalMcpServerStore *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), NULL);
  return _pal_ptr_array_as_strv (self->load_errors);
}

/**
 * pal_mcp_server_store_lookup:
 * @self: a #PalMcpServerStore
 * @name: a server name
 *
 * Returns: (transfer none) (nullable): the server of that name
 */
PalMcpServerConfig *
pal_mcp_server_store_lookup (PalMcpServerStore *self,
                             const char        *name)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), NULL);

  if (name == NULL)
    return NULL;
  return find_by_name (self->items, name);
}

/**
 * pal_mcp_server_store_insert:
 * @self: a #PalMcpServerStore
 * @position: where; past the end appends
 * @config: a configuration in no store
 * @error: %PAL_ERROR_INVALID for an empty name, %PAL_ERROR_EXISTS when
 *   another server has the name
 *
 * Inserts @config itself (the store takes a reference) and writes the key;
 * with the position pal_mcp_server_store_remove() gave, this undoes a
 * removal. Only the name is checked: a server whose other settings are not
 * valid yet can be stored and fixed later.
 *
 * Returns: %TRUE on success
 */
gboolean
pal_mcp_server_store_insert (PalMcpServerStore   *self,
                             guint                position,
                             PalMcpServerConfig  *config,
                             GError             **error)
{
  const char *name;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), FALSE);
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (config), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  name = pal_mcp_server_config_get_name (config);
  if (_pal_str_is_blank (name))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("MCP server: the name is empty"));
      return FALSE;
    }
  if (find_by_name (self->items, name) != NULL || g_ptr_array_find (self->items, config, NULL))
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_EXISTS,
                   _("MCP server “%s”: the name is already taken"), name);
      return FALSE;
    }

  position = MIN (position, self->items->len);
  g_ptr_array_insert (self->items, position, g_object_ref (config));
  watch_config (self, config);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);

  save_now (self);
  return TRUE;
}

/**
 * pal_mcp_server_store_add:
 * @self: a #PalMcpServerStore
 * @config: a configuration in no store
 * @error: as for pal_mcp_server_store_insert()
 *
 * Appends @config; see pal_mcp_server_store_insert().
 *
 * Returns: %TRUE on success
 */
gboolean
pal_mcp_server_store_add (PalMcpServerStore   *self,
                          PalMcpServerConfig  *config,
                          GError             **error)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), FALSE);

  return pal_mcp_server_store_insert (self, G_MAXUINT, config, error);
}

/**
 * pal_mcp_server_store_remove:
 * @self: a #PalMcpServerStore
 * @config: a configuration of the store
 * @out_position: (out) (optional): where it was
 *
 * Removes @config and writes the key. To undo, hand the result and the
 * position to pal_mcp_server_store_insert().
 *
 * Returns: (transfer full) (nullable): @config, or %NULL when it was not in
 *   the store
 */
PalMcpServerConfig *
pal_mcp_server_store_remove (PalMcpServerStore  *self,
                             PalMcpServerConfig *config,
                             guint              *out_position)
{
  guint position;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), NULL);
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (config), NULL);

  if (!g_ptr_array_find (self->items, config, &position))
    return NULL;

  unwatch_config (self, config);
  g_ptr_array_steal_index (self->items, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  save_now (self);

  if (out_position != NULL)
    *out_position = position;
  return config;
}

/**
 * pal_mcp_server_store_duplicate:
 * @self: a #PalMcpServerStore
 * @config: a configuration of the store
 *
 * Adds a copy of @config right after it, named “NAME (copy)”, or
 * “NAME (copy 2)”, “NAME (copy 3)”… when that is taken.
 *
 * Returns: (transfer none) (nullable): the copy, or %NULL when @config is not
 *   in the store
 */
PalMcpServerConfig *
pal_mcp_server_store_duplicate (PalMcpServerStore  *self,
                                PalMcpServerConfig *config)
{
  g_autoptr(PalMcpServerConfig) copy = NULL;
  g_autofree char *name = NULL;
  const char *base;
  guint position;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), NULL);
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (config), NULL);

  if (!g_ptr_array_find (self->items, config, &position))
    return NULL;

  base = pal_mcp_server_config_get_name (config);
  /* TRANSLATORS: the name of a duplicated MCP server; %s is the original name */
  name = g_strdup_printf (_("%s (copy)"), base);
  for (guint n = 2; find_by_name (self->items, name) != NULL; n++)
    {
      g_free (name);
      /* TRANSLATORS: the name of a duplicated MCP server when “NAME (copy)” is taken;
       * %s is the original name, %u counts from 2 */
      name = g_strdup_printf (_("%s (copy %u)"), base, n);
    }

  copy = pal_mcp_server_config_copy (config);
  pal_mcp_server_config_set_name (copy, name);
  if (!pal_mcp_server_store_insert (self, position + 1, copy, NULL))
    return NULL;

  return copy;
}
