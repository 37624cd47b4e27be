/* pal-mcp-server-import.c: servers from another client added to the store
 *
 * What pal_mcp_server_import_json() read goes into the store in the order
 * of the file. A server the store has already (the same settings, under
 * whatever name) is not added again: importing one file twice, or a file
 * that holds what was exported from here, adds nothing, where it used to
 * add "everything (2)". A server whose name another one has is added under
 * "NAME (2)", "NAME (3)"…
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-mcp-server-import.h"

/* The names and values of two lists of rows are the same, in order (the
 * secret marks only say how a value is shown). */
static gboolean
same_rows (GListModel *a,
           GListModel *b)
{
  guint n = g_list_model_get_n_items (a);

  if (n != g_list_model_get_n_items (b))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row_a = g_list_model_get_item (a, i);
      g_autoptr(PalNameValue) row_b = g_list_model_get_item (b, i);

      if (g_strcmp0 (pal_name_value_get_name (row_a), pal_name_value_get_name (row_b)) != 0 ||
          g_strcmp0 (pal_name_value_get_value (row_a), pal_name_value_get_value (row_b)) != 0)
        return FALSE;
    }

  return TRUE;
}

/**
 * pal_mcp_server_config_same_server:
 * @a: a server
 * @b: another one
 *
 * Whether both start or reach the same server the same way: the same
 * transport, and the settings it uses (command, arguments and environment;
 * or URL and headers). The names, and whether they are turned on, do not
 * count.
 *
 * Returns: %TRUE when they are the same server
 */
gboolean
pal_mcp_server_config_same_server (PalMcpServerConfig *a,
                                   PalMcpServerConfig *b)
{
  AcpMcpTransport transport;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (a), FALSE);
  g_return_val_if_fail (PAL_IS_MCP_SERVER_CONFIG (b), FALSE);

  transport = pal_mcp_server_config_get_transport (a);
  if (transport != pal_mcp_server_config_get_transport (b))
    return FALSE;

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    return g_strcmp0 (pal_mcp_server_config_get_command (a),
                      pal_mcp_server_config_get_command (b)) == 0 &&
           g_strv_equal (pal_mcp_server_config_get_args (a),
                         pal_mcp_server_config_get_args (b)) &&
           same_rows (G_LIST_MODEL (pal_mcp_server_config_get_env (a)),
                      G_LIST_MODEL (pal_mcp_server_config_get_env (b)));

  return g_strcmp0 (pal_mcp_server_config_get_url (a), pal_mcp_server_config_get_url (b)) == 0 &&
         same_rows (G_LIST_MODEL (pal_mcp_server_config_get_headers (a)),
                    G_LIST_MODEL (pal_mcp_server_config_get_headers (b)));
}

static gboolean
is_present (PalMcpServerStore  *store,
            PalMcpServerConfig *config)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMcpServerConfig) stored = g_list_model_get_item (G_LIST_MODEL (store), i);

      if (pal_mcp_server_config_same_server (stored, config))
        return TRUE;
    }

  return FALSE;
}

static char *
free_name (PalMcpServerStore *store,
           const char        *name)
{
  if (pal_mcp_server_store_lookup (store, name) == NULL)
    return g_strdup (name);

  for (guint i = 2; ; i++)
    {
      /* TRANSLATORS: an imported server whose name is taken; %s is the name, %u a number */
      g_autofree char *candidate = g_strdup_printf (_("%s (%u)"), name, i);

      if (pal_mcp_server_store_lookup (store, candidate) == NULL)
        return g_steal_pointer (&candidate);
    }
}

/**
 * pal_mcp_server_store_import:
 * @store: the store
 * @configs: (element-type PalMcpServerConfig): servers in no store, as
 *   pal_mcp_server_import_json() read them; those added are renamed where
 *   their names are taken
 * @out_renamed: (out) (optional): how many were added under another name
 * @out_present: (out) (optional): how many were not added: the store has
 *   the same server already
 *
 * Adds @configs to @store in order (see the top of this file).
 *
 * Returns: how many were added
 */
guint
pal_mcp_server_store_import (PalMcpServerStore *store,
                             GPtrArray         *configs,
                             guint             *out_renamed,
                             guint             *out_present)
{
  guint renamed = 0;
  guint present = 0;
  guint added = 0;

  g_return_val_if_fail (PAL_IS_MCP_SERVER_STORE (store), 0);
  g_return_val_if_fail (configs != NULL, 0);

  for (guint i = 0; i < configs->len; i++)
    {
      PalMcpServerConfig *config = g_ptr_array_index (configs, i);
      g_autofree char *name = NULL;
      g_autoptr(GError) error = NULL;

      if (is_present (store, config))
        {
          present++;
          continue;
        }

      name = free_name (store, pal_mcp_server_config_get_name (config));
      if (g_strcmp0 (name, pal_mcp_server_config_get_name (config)) != 0)
        {
          pal_mcp_server_config_set_name (config, name);
          renamed++;
        }

      /* the name is free; only an empty one can still fail */
      if (pal_mcp_server_store_add (store, config, &error))
        added++;
      else
        g_debug ("Could not import the MCP server “%s”: %s", name, error->message);
    }

  if (out_renamed != NULL)
    *out_renamed = renamed;
  if (out_present != NULL)
    *out_present = present;
  return added;
}
