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
  PalStoredList parent_instance;
};

G_DEFINE_FINAL_TYPE (PalMcpServerStore, pal_mcp_server_store, PAL_TYPE_STORED_LIST)

static GPtrArray *
get_items (PalMcpServerStore *self)
{
  return _pal_stored_list_get_items (PAL_STORED_LIST (self));
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
encode (gpointer item)
{
  PalMcpServerConfig *config = item;
  AcpMcpTransport transport = pal_mcp_server_config_get_transport (config);
  GVariantBuilder builder;

  /* Every transport's settings are kept, so switching back loses nothing. */
  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&builder, "{sv}", "name",
                         g_variant_new_string (pal_mcp_server_config_get_name (config)));
  g_variant_builder_add (&builder, "{sv}", "transport",
                         g_variant_new_string (acp_mcp_transport_to_string (transport)));
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

/* --- reading --- */

static char *
describe_skipped (guint       index,
                  const char *reason)
{
  /* TRANSLATORS: %u is the position of the entry, counted from 1; %s says what is wrong */
  return g_strdup_printf (_("Stored MCP server %u: %s"), index + 1, reason);
}

static void
rows_from_variant (GListStore *store,
                   GVariant   *rows)
{
  g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);
  GVariantIter iter;
  const char *name;
  const char *value;
  gboolean secret;

  if (rows == NULL)
    return;

  g_variant_iter_init (&iter, rows);
  while (g_variant_iter_next (&iter, "(&s&sb)", &name, &value, &secret))
    g_ptr_array_add (array, pal_name_value_new (name, value, secret));
  g_list_store_splice (store, 0, 0, array->pdata, array->len);
}

/* Gives @store the rows of @rows (a read entry's) unless it has equal ones. */
static void
assign_rows (GListStore *store,
             GListModel *rows)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));
  guint n_rows = g_list_model_get_n_items (rows);
  g_autoptr(GPtrArray) copies = NULL;
  gboolean same = n == n_rows;

  for (guint i = 0; same && i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (store), i);
      g_autoptr(PalNameValue) other = g_list_model_get_item (rows, i);

      same = g_strcmp0 (pal_name_value_get_name (row), pal_name_value_get_name (other)) == 0 &&
             g_strcmp0 (pal_name_value_get_value (row), pal_name_value_get_value (other)) == 0 &&
             pal_name_value_get_secret (row) == pal_name_value_get_secret (other);
    }
  if (same)
    return;

  copies = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_rows; i++)
    {
      g_autoptr(PalNameValue) other = g_list_model_get_item (rows, i);

      g_ptr_array_add (copies, pal_name_value_copy (other));
    }
  g_list_store_splice (store, 0, n, copies->pdata, copies->len);
}

static gpointer
decode (GVariant   *entry,
        GPtrArray  *notes,
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
  char *note = NULL;
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

  if (!acp_mcp_transport_from_string (transport, &kind))
    {
      g_autofree char *known = acp_mcp_transport_dup_names ();

      /* TRANSLATORS: the second %s lists the transports: "stdio, http, sse" */
      *reason = g_strdup_printf (_("the transport “%s” is not one of %s"), transport, known);
      return NULL;
    }

  /* the command, its arguments and the URL make the server: without them
   * it would be another one */
  if (!_pal_dict_get_string (entry, "command", kind == ACP_MCP_TRANSPORT_STDIO, &command, reason) ||
      !_pal_dict_get_strv (entry, "args", FALSE, &args, reason) ||
      !_pal_dict_get_string (entry, "url", kind != ACP_MCP_TRANSPORT_STDIO, &url, reason))
    return NULL;

  /* A switch that cannot be read leaves the server off: agents get no
   * server the person may have turned off. */
  if (!_pal_dict_get_boolean (entry, "enabled", FALSE, &enabled, &note))
    {
      /* TRANSLATORS: %s says what is wrong (“the key “enabled” has the type…”) */
      g_autofree char *off = g_strdup_printf (_("%s, so the server was turned off"), note);

      g_ptr_array_add (notes, g_steal_pointer (&off));
      g_clear_pointer (&note, g_free);
      enabled = FALSE;
    }
  _pal_note_left_out (notes, _pal_dict_get_value (entry, "env", "a(ssb)", FALSE, &env, &note),
                      &note);
  _pal_note_left_out (notes, _pal_dict_get_value (entry, "headers", "a(ssb)", FALSE, &headers,
                                                  &note), &note);

  config = g_object_new (PAL_TYPE_MCP_SERVER_CONFIG,
                         "name", name,
                         "transport", kind,
                         "enabled", enabled,
                         "command", command,
                         "args", args,
                         "url", url,
                         NULL);
  rows_from_variant (pal_mcp_server_config_get_env (config), env);
  rows_from_variant (pal_mcp_server_config_get_headers (config), headers);
  return config;
}

static gconstpointer
get_id (gpointer item)
{
  return pal_mcp_server_config_get_name (item);
}

static char *
describe_repeated (gpointer item)
{
  return g_strdup_printf (_("the name “%s” is used by an earlier entry"),
                          pal_mcp_server_config_get_name (item));
}

static void
update_item (PalStoredList *list,
             gpointer       item,
             gpointer       entry)
{
  PalMcpServerConfig *config = item;

  g_object_freeze_notify (G_OBJECT (config));
  pal_mcp_server_config_set_transport (config, pal_mcp_server_config_get_transport (entry));
  pal_mcp_server_config_set_enabled (config, pal_mcp_server_config_get_enabled (entry));
  pal_mcp_server_config_set_command (config, pal_mcp_server_config_get_command (entry));
  pal_mcp_server_config_set_args (config, pal_mcp_server_config_get_args (entry));
  pal_mcp_server_config_set_url (config, pal_mcp_server_config_get_url (entry));
  g_object_thaw_notify (G_OBJECT (config));
  assign_rows (pal_mcp_server_config_get_env (config),
               G_LIST_MODEL (pal_mcp_server_config_get_env (entry)));
  assign_rows (pal_mcp_server_config_get_headers (config),
               G_LIST_MODEL (pal_mcp_server_config_get_headers (entry)));
}

/* --- GObject --- */

static void
pal_mcp_server_store_class_init (PalMcpServerStoreClass *klass)
{
  PalStoredListClass *list_class = PAL_STORED_LIST_CLASS (klass);

  list_class->key = MCP_SERVERS_KEY;
  list_class->title = N_("MCP servers");
  list_class->item_type = PAL_TYPE_MCP_SERVER_CONFIG;
  /* a change of the env or header rows too */
  list_class->changed_signal = "changed";
  list_class->decode = decode;
  list_class->encode = encode;
  list_class->get_id = get_id;
  list_class->describe_skipped = describe_skipped;
  list_class->describe_repeated = describe_repeated;
  list_class->update_item = update_item;
}

static void
pal_mcp_server_store_init (PalMcpServerStore *self)
{
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
  return pal_stored_list_get_settings (PAL_STORED_LIST (self));
}

/**
 * pal_mcp_server_store_get_load_errors:
 * @self: a #PalMcpServerStore
 *
 * Returns: (transfer none): the load errors of the list, translated: see
 *   pal_stored_list_get_load_errors(); empty when all was read.
 */
const char * const *
pal_mcp_server_store_get_load_errors (PalMcpServerStore *self)
{
  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (self), NULL);
  return pal_stored_list_get_load_errors (PAL_STORED_LIST (self));
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

  return pal_stored_list_lookup (PAL_STORED_LIST (self), name);
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
  if (pal_mcp_server_store_lookup (self, name) != NULL ||
      g_ptr_array_find (get_items (self), config, NULL))
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_EXISTS,
                   _("MCP server “%s”: the name is already taken"), name);
      return FALSE;
    }

  _pal_stored_list_insert (PAL_STORED_LIST (self), position, config);
  _pal_stored_list_save (PAL_STORED_LIST (self));
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

  if (!g_ptr_array_find (get_items (self), config, &position))
    return NULL;

  _pal_stored_list_steal (PAL_STORED_LIST (self), position);
  _pal_stored_list_save (PAL_STORED_LIST (self));

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

  if (!g_ptr_array_find (get_items (self), config, &position))
    return NULL;

  base = pal_mcp_server_config_get_name (config);
  /* TRANSLATORS: the name of a duplicated MCP server; %s is the original name */
  name = g_strdup_printf (_("%s (copy)"), base);
  for (guint n = 2; pal_mcp_server_store_lookup (self, name) != NULL; n++)
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
