/* fuzz-mcp-import.c: an MCP configuration file, through the import
 *
 * The input is the text of a file another MCP client wrote. What imports
 * must be UTF-8 throughout, must survive the settings (stored, then read
 * by a store started afresh, as on the next start of the application),
 * and must import again from its own export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "fuzz-util.h"
#include "pal-mcp-server-json.h"
#include "pal-mcp-server-store.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

static void
check_rows (GListStore *rows)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (rows), i);

      FUZZ_CHECK (fuzz_is_text (pal_name_value_get_name (row)));
      FUZZ_CHECK (fuzz_is_text (pal_name_value_get_value (row)));
    }
}

static void
check_text (PalMcpServerConfig *config)
{
  const char * const *args = pal_mcp_server_config_get_args (config);

  FUZZ_CHECK (fuzz_is_text (pal_mcp_server_config_get_name (config)));
  FUZZ_CHECK (fuzz_is_text (pal_mcp_server_config_get_command (config)));
  FUZZ_CHECK (fuzz_is_text (pal_mcp_server_config_get_url (config)));
  for (guint i = 0; args[i] != NULL; i++)
    FUZZ_CHECK (fuzz_is_text (args[i]));
  check_rows (pal_mcp_server_config_get_env (config));
  check_rows (pal_mcp_server_config_get_headers (config));
}

static gboolean
same_rows (GListStore *a,
           GListStore *b)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (a));

  if (n != g_list_model_get_n_items (G_LIST_MODEL (b)))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) x = g_list_model_get_item (G_LIST_MODEL (a), i);
      g_autoptr(PalNameValue) y = g_list_model_get_item (G_LIST_MODEL (b), i);

      if (g_strcmp0 (pal_name_value_get_name (x), pal_name_value_get_name (y)) != 0 ||
          g_strcmp0 (pal_name_value_get_value (x), pal_name_value_get_value (y)) != 0 ||
          pal_name_value_get_secret (x) != pal_name_value_get_secret (y))
        return FALSE;
    }
  return TRUE;
}

static gboolean
same_config (PalMcpServerConfig *a,
             PalMcpServerConfig *b)
{
  return g_strcmp0 (pal_mcp_server_config_get_name (a), pal_mcp_server_config_get_name (b)) == 0 &&
         pal_mcp_server_config_get_transport (a) == pal_mcp_server_config_get_transport (b) &&
         pal_mcp_server_config_get_enabled (a) == pal_mcp_server_config_get_enabled (b) &&
         g_strcmp0 (pal_mcp_server_config_get_command (a), pal_mcp_server_config_get_command (b)) == 0 &&
         g_strv_equal (pal_mcp_server_config_get_args (a), pal_mcp_server_config_get_args (b)) &&
         g_strcmp0 (pal_mcp_server_config_get_url (a), pal_mcp_server_config_get_url (b)) == 0 &&
         same_rows (pal_mcp_server_config_get_env (a), pal_mcp_server_config_get_env (b)) &&
         same_rows (pal_mcp_server_config_get_headers (a), pal_mcp_server_config_get_headers (b));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GPtrArray) configs = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GPtrArray) again_failures = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GSettings) settings_later = NULL;
  g_autoptr(PalMcpServerStore) store = NULL;
  g_autoptr(PalMcpServerStore) store_later = NULL;
  g_autofree char *exported = NULL;
  guint n;

  if (!pal_mcp_server_import_json (text, &configs, &failures, &error))
    {
      FUZZ_CHECK (configs == NULL);
      FUZZ_CHECK (failures == NULL);
      FUZZ_CHECK (fuzz_is_text (error->message));
      return 0;
    }

  /* the servers that could not be read are named, in text */
  for (guint i = 0; i < failures->len; i++)
    FUZZ_CHECK (fuzz_is_text (((GError *) g_ptr_array_index (failures, i))->message));

  for (guint i = 0; i < configs->len; i++)
    check_text (g_ptr_array_index (configs, i));

  /* stored, and read back by the next start */
  backend = g_memory_settings_backend_new ();
  settings = g_settings_new_with_backend (SCHEMA_ID, backend);
  store = pal_mcp_server_store_new (settings);
  for (guint i = 0; i < configs->len; i++)
    {
      g_autoptr(GError) add_error = NULL;

      /* names may repeat: the later one is refused, with a message */
      if (!pal_mcp_server_store_add (store, g_ptr_array_index (configs, i), &add_error))
        FUZZ_CHECK (fuzz_is_text (add_error->message));
    }
  fuzz_drain_main_context ();

  settings_later = g_settings_new_with_backend (SCHEMA_ID, backend);
  store_later = pal_mcp_server_store_new (settings_later);
  n = g_list_model_get_n_items (G_LIST_MODEL (store));
  FUZZ_CHECK (g_list_model_get_n_items (G_LIST_MODEL (store_later)) == n);
  FUZZ_CHECK (pal_mcp_server_store_get_load_errors (store_later)[0] == NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMcpServerConfig) stored = g_list_model_get_item (G_LIST_MODEL (store), i);
      g_autoptr(PalMcpServerConfig) read = g_list_model_get_item (G_LIST_MODEL (store_later), i);

      FUZZ_CHECK (same_config (stored, read));
    }

  /* what is exported imports again, the same */
  exported = pal_mcp_server_export_json (G_LIST_MODEL (store));
  FUZZ_CHECK (pal_mcp_server_import_json (exported, &again, &again_failures, NULL));
  FUZZ_CHECK (again->len == n);
  FUZZ_CHECK (again_failures->len == 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMcpServerConfig) stored = g_list_model_get_item (G_LIST_MODEL (store), i);
      PalMcpServerConfig *reimported = g_ptr_array_index (again, i);

      FUZZ_CHECK (g_strcmp0 (pal_mcp_server_config_get_name (stored),
                             pal_mcp_server_config_get_name (reimported)) == 0);
    }

  g_clear_object (&store_later);
  g_clear_object (&store);
  fuzz_drain_main_context ();
  return 0;
}
