/* test-mcp-server-store.c: MCP server configurations, their store and JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-error.h"
#include "pal-mcp-server-import.h"
#include "pal-mcp-server-json.h"
#include "pal-mcp-server-store.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"

typedef struct
{
  GSettingsBackend *backend;
  GSettings *settings;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->backend = g_memory_settings_backend_new ();
  fixture->settings = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->settings);
  g_clear_object (&fixture->backend);
}

static PalMcpServerConfig *
item (GListModel *model,
      guint       position)
{
  g_autoptr(PalMcpServerConfig) config = g_list_model_get_item (model, position);

  g_assert_nonnull (config);
  return config; /* the model keeps it alive */
}

static guint
n_items (gpointer model)
{
  return g_list_model_get_n_items (G_LIST_MODEL (model));
}

static PalNameValue *
row (GListStore *rows,
     guint       position)
{
  g_autoptr(PalNameValue) nv = g_list_model_get_item (G_LIST_MODEL (rows), position);

  g_assert_nonnull (nv);
  return nv;
}

static void
assert_row (GListStore *rows,
            guint       position,
            const char *name,
            const char *value,
            gboolean    secret)
{
  PalNameValue *nv = row (rows, position);

  g_assert_cmpstr (pal_name_value_get_name (nv), ==, name);
  g_assert_cmpstr (pal_name_value_get_value (nv), ==, value);
  g_assert_cmpint (pal_name_value_get_secret (nv), ==, secret);
}

static void
count_cb (GSettings  *settings,
          const char *key,
          guint      *count)
{
  (*count)++;
}

static PalMcpServerConfig *
new_stdio (const char *name,
           const char *command)
{
  PalMcpServerConfig *config = pal_mcp_server_config_new (name, ACP_MCP_TRANSPORT_STDIO);

  pal_mcp_server_config_set_command (config, command);
  return config;
}

static PalMcpServerConfig *
new_remote (const char      *name,
            AcpMcpTransport  transport,
            const char      *url)
{
  PalMcpServerConfig *config = pal_mcp_server_config_new (name, transport);

  pal_mcp_server_config_set_url (config, url);
  return config;
}

static void
assert_same_config (PalMcpServerConfig *a,
                    PalMcpServerConfig *b)
{
  GListStore *lists_a[2] = { pal_mcp_server_config_get_env (a), pal_mcp_server_config_get_headers (a) };
  GListStore *lists_b[2] = { pal_mcp_server_config_get_env (b), pal_mcp_server_config_get_headers (b) };

  g_assert_cmpstr (pal_mcp_server_config_get_name (a), ==, pal_mcp_server_config_get_name (b));
  g_assert_cmpint (pal_mcp_server_config_get_transport (a), ==, pal_mcp_server_config_get_transport (b));
  g_assert_cmpint (pal_mcp_server_config_get_enabled (a), ==, pal_mcp_server_config_get_enabled (b));
  g_assert_cmpstr (pal_mcp_server_config_get_command (a), ==, pal_mcp_server_config_get_command (b));
  g_assert_cmpstrv (pal_mcp_server_config_get_args (a), pal_mcp_server_config_get_args (b));
  g_assert_cmpstr (pal_mcp_server_config_get_url (a), ==, pal_mcp_server_config_get_url (b));

  for (guint l = 0; l < 2; l++)
    {
      g_assert_cmpuint (n_items (lists_a[l]), ==, n_items (lists_b[l]));
      for (guint i = 0; i < n_items (lists_a[l]); i++)
        {
          PalNameValue *nv = row (lists_b[l], i);

          assert_row (lists_a[l], i, pal_name_value_get_name (nv),
                      pal_name_value_get_value (nv), pal_name_value_get_secret (nv));
        }
    }
}

/* --- configurations --- */

static void
test_looks_secret (void)
{
  const char *secret[] = { "Authorization", "Proxy-Authorization", "GITHUB_TOKEN", "api_key",
                           "X-Api-Key", "CLIENT_SECRET", "DB_PASSWORD", "token", NULL };
  const char *plain[] = { "PATH", "HOME", "Accept", "Content-Type", "DEBUG", "", NULL };

  for (guint i = 0; secret[i] != NULL; i++)
    g_assert_true (pal_name_value_name_looks_secret (secret[i]));
  for (guint i = 0; plain[i] != NULL; i++)
    g_assert_false (pal_name_value_name_looks_secret (plain[i]));
  g_assert_false (pal_name_value_name_looks_secret (NULL));
}

static void
assert_invalid (PalMcpServerConfig *config,
                PalMcpServerStore  *store,
                int                 code,
                const char         *part1,
                const char         *part2)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (pal_mcp_server_config_validate (config, store, &error));
  g_assert_error (error, PAL_ERROR, code);
  if (part1 != NULL && strstr (error->message, part1) == NULL)
    g_error ("“%s” is not in “%s”", part1, error->message);
  if (part2 != NULL && strstr (error->message, part2) == NULL)
    g_error ("“%s” is not in “%s”", part2, error->message);
}

static void
assert_valid (PalMcpServerConfig *config,
              PalMcpServerStore  *store)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (pal_mcp_server_config_validate (config, store, &error));
  g_assert_no_error (error);
}

static void
test_validate (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerConfig) stdio = new_stdio ("files", "/usr/bin/env");
  g_autoptr(PalMcpServerConfig) other = new_stdio ("files", "/usr/bin/env");
  g_autoptr(PalMcpServerConfig) http = new_remote ("web", ACP_MCP_TRANSPORT_HTTP,
                                                   "https://mcp.example.com/mcp");
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpMcpServer) server = NULL;
  g_autoptr(JsonNode) wire = NULL;
  g_autofree char *bin_dir = g_dir_make_tmp ("palaver-mcp-XXXXXX", &error);
  g_autofree char *program = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  JsonObject *object;
  PalNameValue *nv;

  g_assert_no_error (error);
  program = g_build_filename (bin_dir, "my-mcp", NULL);
  g_file_set_contents (program, "#!/bin/sh\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);

  assert_valid (stdio, NULL);
  g_assert_true (pal_mcp_server_store_add (store, stdio, &error));
  g_assert_no_error (error);
  assert_valid (stdio, store);

  /* name */
  assert_invalid (other, store, PAL_ERROR_EXISTS, "“files”", "taken");
  assert_valid (other, NULL);
  pal_mcp_server_config_set_name (other, "  ");
  assert_invalid (other, store, PAL_ERROR_INVALID, "name", "empty");
  pal_mcp_server_config_set_name (other, "other");
  assert_valid (other, store);

  /* command */
  pal_mcp_server_config_set_command (other, "");
  assert_invalid (other, store, PAL_ERROR_INVALID, "“other”", "command is empty");
  g_setenv ("PATH", bin_dir, TRUE);
  pal_mcp_server_config_set_command (other, "not-installed-anywhere");
  g_assert_null (pal_mcp_server_config_resolve_command (other));
  assert_invalid (other, store, PAL_ERROR_INVALID, "“not-installed-anywhere”", "PATH");
  pal_mcp_server_config_set_command (other, "./my-mcp");
  assert_invalid (other, store, PAL_ERROR_INVALID, "“./my-mcp”", "PATH");
  pal_mcp_server_config_set_command (other, "my-mcp");
  resolved = pal_mcp_server_config_resolve_command (other);
  g_assert_cmpstr (resolved, ==, program);
  assert_valid (other, store);

  /* with the command resolved beforehand: the same checks, no lookup */
  pal_mcp_server_config_set_command (other, "not-installed-anywhere");
  g_assert_true (pal_mcp_server_config_validate_resolved (other, store,
                                                          "/opt/elsewhere/not-installed-anywhere",
                                                          &error));
  g_assert_no_error (error);
  g_assert_false (pal_mcp_server_config_validate_resolved (other, store, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "“not-installed-anywhere”"));
  g_clear_error (&error);
  pal_mcp_server_config_set_name (other, "files");
  g_assert_false (pal_mcp_server_config_validate_resolved (other, store, program, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_true (pal_mcp_server_config_validate_resolved (http, store, NULL, &error));
  g_assert_no_error (error);
  pal_mcp_server_config_set_name (other, "other");
  pal_mcp_server_config_set_command (other, "my-mcp");

  /* variable names, by AcpMcpServer's rules */
  nv = pal_mcp_server_config_add_env (other, "1BAD", "x");
  assert_invalid (other, store, PAL_ERROR_INVALID, "“1BAD”", NULL);
  g_assert_false (pal_name_value_get_secret (nv));
  /* marking happens when a row is added; the person may change it later */
  pal_name_value_set_name (nv, "API_KEY");
  g_assert_false (pal_name_value_get_secret (nv));
  pal_name_value_set_value (nv, "s3cret");
  assert_valid (other, store);

  /* the conversion resolves the command and keeps the rows */
  server = pal_mcp_server_config_to_acp (other, &error);
  g_assert_no_error (error);
  g_assert_nonnull (server);
  g_assert_cmpint (acp_mcp_server_get_transport (server), ==, ACP_MCP_TRANSPORT_STDIO);
  g_assert_cmpstr (acp_mcp_server_get_name (server), ==, "other");
  g_assert_cmpstr (acp_mcp_server_get_command (server), ==, program);
  g_assert_cmpuint (acp_mcp_server_get_n_env (server), ==, 1);
  g_assert_cmpstr (acp_mcp_server_get_env_name (server, 0), ==, "API_KEY");
  g_assert_cmpstr (acp_mcp_server_get_env_value (server, 0), ==, "s3cret");
  wire = acp_mcp_server_to_json (server);
  object = json_node_get_object (wire);
  g_assert_cmpstr (json_object_get_string_member (object, "command"), ==, program);
  g_clear_object (&server);

  /* URL */
  assert_valid (http, store);
  pal_mcp_server_config_set_url (http, "ftp://mcp.example.com/");
  assert_invalid (http, store, PAL_ERROR_INVALID, "“web”", "ftp");
  pal_mcp_server_config_set_url (http, "");
  assert_invalid (http, store, PAL_ERROR_INVALID, "“web”", "URL");
  pal_mcp_server_config_set_url (http, "http://localhost:8080/mcp");
  pal_mcp_server_config_set_transport (http, ACP_MCP_TRANSPORT_SSE);
  assert_valid (http, store);

  /* headers */
  nv = pal_mcp_server_config_add_header (http, "Bad Header", "x");
  g_assert_false (pal_name_value_get_secret (nv));
  assert_invalid (http, store, PAL_ERROR_INVALID, "“Bad Header”", NULL);
  pal_name_value_set_name (nv, "Authorization");
  pal_name_value_set_value (nv, "Bearer a\r\nInjected: yes");
  assert_invalid (http, store, PAL_ERROR_INVALID, "“Authorization”", "line break");
  pal_name_value_set_value (nv, "Bearer abc");
  server = pal_mcp_server_config_to_acp (http, &error);
  g_assert_no_error (error);
  g_assert_cmpint (acp_mcp_server_get_transport (server), ==, ACP_MCP_TRANSPORT_SSE);
  g_assert_cmpstr (acp_mcp_server_get_url (server), ==, "http://localhost:8080/mcp");
  g_assert_cmpuint (acp_mcp_server_get_n_headers (server), ==, 1);
  g_assert_cmpstr (acp_mcp_server_get_header_value (server, 0), ==, "Bearer abc");

  /* the stdio settings of an http server are not looked at */
  pal_mcp_server_config_set_command (http, "");
  assert_valid (http, store);

  /* to_acp refuses what validate refuses */
  pal_mcp_server_config_set_url (http, "nope");
  g_assert_null (pal_mcp_server_config_to_acp (http, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);

  if (old_path != NULL)
    g_setenv ("PATH", old_path, TRUE);
  g_unlink (program);
  g_rmdir (bin_dir);
}

/* --- the store --- */

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerConfig) files = new_stdio ("files", "npx");
  g_autoptr(PalMcpServerConfig) web = new_remote ("web", ACP_MCP_TRANSPORT_HTTP, "https://x.test/mcp");
  g_autoptr(PalMcpServerConfig) events = new_remote ("events", ACP_MCP_TRANSPORT_SSE, "http://127.0.0.1:9/sse");
  g_autoptr(GSettings) settings2 = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  g_autoptr(PalMcpServerStore) restarted = NULL;
  g_autoptr(GError) error = NULL;
  const char *args[] = { "-y", "@modelcontextprotocol/server-filesystem", "/home/me", NULL };
  PalMcpServerConfig *configs[3];

  pal_mcp_server_config_set_args (files, args);
  pal_mcp_server_config_add_env (files, "DEBUG", "1");
  pal_mcp_server_config_add_env (files, "GITHUB_TOKEN", "ghp_abc");
  pal_mcp_server_config_set_enabled (files, FALSE);
  /* the other transport's settings are kept too */
  pal_mcp_server_config_set_url (files, "https://left.over/");
  pal_mcp_server_config_add_header (web, "Authorization", "Bearer xyz");
  pal_name_value_set_secret (pal_mcp_server_config_add_header (web, "X-Trace", "on"), TRUE);

  configs[0] = files;
  configs[1] = web;
  configs[2] = events;
  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      g_assert_true (pal_mcp_server_store_add (store, configs[i], &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (n_items (store), ==, 3);
  g_assert_true (pal_mcp_server_store_lookup (store, "web") == web);
  g_assert_null (pal_mcp_server_store_lookup (store, "nope"));

  restarted = pal_mcp_server_store_new (settings2);
  g_assert_cmpuint (n_items (restarted), ==, 3);
  g_assert_cmpstrv (pal_mcp_server_store_get_load_errors (restarted), ((const char *[]) { NULL }));
  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      PalMcpServerConfig *read = item (G_LIST_MODEL (restarted), i);

      g_assert_true (read != configs[i]);
      assert_same_config (read, configs[i]);
    }
  assert_row (pal_mcp_server_config_get_env (item (G_LIST_MODEL (restarted), 0)),
              1, "GITHUB_TOKEN", "ghp_abc", TRUE);
  assert_row (pal_mcp_server_config_get_headers (item (G_LIST_MODEL (restarted), 1)),
              1, "X-Trace", "on", TRUE);
  g_assert_false (pal_mcp_server_config_get_enabled (item (G_LIST_MODEL (restarted), 0)));
  g_assert_cmpstr (pal_mcp_server_config_get_url (item (G_LIST_MODEL (restarted), 0)),
                   ==, "https://left.over/");
}

static void
test_unique_names (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerConfig) a = new_stdio ("a", "/bin/a");
  g_autoptr(PalMcpServerConfig) a2 = new_stdio ("a", "/bin/other");
  g_autoptr(PalMcpServerConfig) blank = new_stdio (" ", "/bin/a");
  g_autoptr(GError) error = NULL;

  g_assert_true (pal_mcp_server_store_add (store, a, &error));
  g_assert_no_error (error);
  g_assert_false (pal_mcp_server_store_add (store, a2, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_false (pal_mcp_server_store_add (store, a, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_false (pal_mcp_server_store_add (store, blank, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpuint (n_items (store), ==, 1);
}

static void
test_duplicate (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerConfig) fs = new_stdio ("fs", "/bin/fs");
  g_autoptr(PalMcpServerConfig) last = new_stdio ("last", "/bin/last");
  PalMcpServerConfig *copy;
  PalMcpServerConfig *copy2;
  PalMcpServerConfig *copy_of_copy;

  pal_mcp_server_config_add_env (fs, "ROOT", "/srv");
  pal_mcp_server_store_add (store, fs, NULL);
  pal_mcp_server_store_add (store, last, NULL);

  copy = pal_mcp_server_store_duplicate (store, fs);
  g_assert_nonnull (copy);
  g_assert_cmpstr (pal_mcp_server_config_get_name (copy), ==, "fs (copy)");
  g_assert_true (item (G_LIST_MODEL (store), 1) == copy);
  g_assert_cmpstr (pal_mcp_server_config_get_command (copy), ==, "/bin/fs");
  assert_row (pal_mcp_server_config_get_env (copy), 0, "ROOT", "/srv", FALSE);
  /* a deep copy: editing the copy's rows leaves the original alone */
  g_assert_true (row (pal_mcp_server_config_get_env (copy), 0) !=
                 row (pal_mcp_server_config_get_env (fs), 0));
  pal_name_value_set_value (row (pal_mcp_server_config_get_env (copy), 0), "/tmp");
  assert_row (pal_mcp_server_config_get_env (fs), 0, "ROOT", "/srv", FALSE);

  copy2 = pal_mcp_server_store_duplicate (store, fs);
  g_assert_cmpstr (pal_mcp_server_config_get_name (copy2), ==, "fs (copy 2)");
  g_assert_true (item (G_LIST_MODEL (store), 1) == copy2);

  copy_of_copy = pal_mcp_server_store_duplicate (store, copy);
  g_assert_cmpstr (pal_mcp_server_config_get_name (copy_of_copy), ==, "fs (copy) (copy)");
  g_assert_cmpuint (n_items (store), ==, 5);

  {
    g_autoptr(PalMcpServerConfig) stranger = new_stdio ("stranger", "/bin/x");

    g_assert_null (pal_mcp_server_store_duplicate (store, stranger));
  }

  test_drain_main_context ();
  {
    g_autoptr(PalMcpServerStore) again = pal_mcp_server_store_new (fixture->settings);

    g_assert_cmpuint (n_items (again), ==, 5);
    g_assert_cmpstr (pal_mcp_server_config_get_name (item (G_LIST_MODEL (again), 3)), ==,
                     "fs (copy) (copy)");
    assert_row (pal_mcp_server_config_get_env (item (G_LIST_MODEL (again), 2)),
                0, "ROOT", "/tmp", FALSE);
  }
}

static void
test_remove_undo (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerConfig) removed = NULL;
  g_autoptr(GError) error = NULL;
  const char *names[] = { "a", "b", "c" };
  PalMcpServerConfig *b;
  guint position = G_MAXUINT;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(PalMcpServerConfig) config = new_stdio (names[i], "/bin/x");
      pal_mcp_server_store_add (store, config, NULL);
    }
  b = item (G_LIST_MODEL (store), 1);

  removed = pal_mcp_server_store_remove (store, b, &position);
  g_assert_true (removed == b);
  g_assert_cmpuint (position, ==, 1);
  g_assert_cmpuint (n_items (store), ==, 2);
  g_assert_null (pal_mcp_server_store_lookup (store, "b"));
  g_assert_null (pal_mcp_server_store_remove (store, b, NULL));
  {
    g_autoptr(PalMcpServerStore) again = pal_mcp_server_store_new (fixture->settings);
    g_assert_cmpuint (n_items (again), ==, 2);
  }

  /* a removed config no longer writes */
  pal_mcp_server_config_set_command (b, "/bin/y");
  test_drain_main_context ();

  g_assert_true (pal_mcp_server_store_insert (store, position, removed, &error));
  g_assert_no_error (error);
  g_assert_true (item (G_LIST_MODEL (store), 1) == b);
  {
    g_autoptr(PalMcpServerStore) again = pal_mcp_server_store_new (fixture->settings);

    g_assert_cmpuint (n_items (again), ==, 3);
    g_assert_cmpstr (pal_mcp_server_config_get_name (item (G_LIST_MODEL (again), 1)), ==, "b");
    g_assert_cmpstr (pal_mcp_server_config_get_command (item (G_LIST_MODEL (again), 1)), ==, "/bin/y");
  }
}

static GVariant *
entry (const char *name,
       const char *transport,
       const char *command,
       const char *url)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  if (name != NULL)
    g_variant_dict_insert (&dict, "name", "s", name);
  if (transport != NULL)
    g_variant_dict_insert (&dict, "transport", "s", transport);
  if (command != NULL)
    g_variant_dict_insert (&dict, "command", "s", command);
  if (url != NULL)
    g_variant_dict_insert (&dict, "url", "s", url);
  return g_variant_dict_end (&dict);
}

static gboolean
has_backup (gpointer store)
{
  return pal_stored_list_get_backup_path (store) != NULL;
}

/* Entries that cannot be read are skipped, reported and kept as they were;
 * an optional member that cannot be read costs the server only that. */
static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = NULL;
  g_autoptr(PalMcpServerConfig) added = new_stdio ("added", "/bin/added");
  g_autoptr(GVariant) stored = NULL;
  GVariantBuilder builder;
  GVariantDict dict;
  GVariant *bad[8];
  const char * const *errors;
  const char *reasons[G_N_ELEMENTS (bad)] = {
    "“name” is missing", "name is empty", "“carrier-pigeon”", "“command” is missing",
    "“url” is missing", "“env”", "“good”", "“enabled”",
  };

  bad[0] = entry (NULL, "stdio", "/bin/x", NULL);
  bad[1] = entry ("", "stdio", "/bin/x", NULL);
  bad[2] = entry ("pigeon", "carrier-pigeon", "/bin/x", NULL);
  bad[3] = entry ("no-command", "stdio", NULL, "http://x/");
  bad[4] = entry ("no-url", "sse", "/bin/x", NULL);
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "name", "s", "env-typed");
  g_variant_dict_insert (&dict, "transport", "s", "stdio");
  g_variant_dict_insert (&dict, "command", "s", "/bin/x");
  g_variant_dict_insert_value (&dict, "env", g_variant_new_parsed ("{'A': 'b'}"));
  bad[5] = g_variant_dict_end (&dict);
  bad[6] = entry ("good", "http", NULL, "http://dup/");
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "name", "s", "enabled-typed");
  g_variant_dict_insert (&dict, "transport", "s", "http");
  g_variant_dict_insert (&dict, "url", "s", "http://x/");
  g_variant_dict_insert (&dict, "enabled", "s", "yes");
  bad[7] = g_variant_dict_end (&dict);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("good", "http", NULL, "http://good/"));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_variant_ref_sink (bad[i]);
      g_variant_builder_add_value (&builder, bad[i]);
    }
  g_variant_builder_add_value (&builder, entry ("fine", "stdio", "/bin/fine", NULL));
  g_settings_set_value (fixture->settings, "mcp-servers", g_variant_builder_end (&builder));

  store = pal_mcp_server_store_new (fixture->settings);
  g_assert_cmpuint (n_items (store), ==, 4);
  g_assert_cmpstr (pal_mcp_server_config_get_name (item (G_LIST_MODEL (store), 0)), ==, "good");
  g_assert_cmpstr (pal_mcp_server_config_get_url (item (G_LIST_MODEL (store), 0)), ==, "http://good/");
  /* an environment that cannot be read is left out */
  g_assert_cmpstr (pal_mcp_server_config_get_name (item (G_LIST_MODEL (store), 1)), ==, "env-typed");
  g_assert_cmpuint (n_items (pal_mcp_server_config_get_env (item (G_LIST_MODEL (store), 1))), ==, 0);
  /* a switch that cannot be read turns the server off */
  g_assert_cmpstr (pal_mcp_server_config_get_name (item (G_LIST_MODEL (store), 2)), ==,
                   "enabled-typed");
  g_assert_false (pal_mcp_server_config_get_enabled (item (G_LIST_MODEL (store), 2)));
  /* optional keys take their defaults */
  g_assert_true (pal_mcp_server_config_get_enabled (item (G_LIST_MODEL (store), 3)));
  g_assert_cmpuint (n_items (pal_mcp_server_config_get_env (item (G_LIST_MODEL (store), 3))), ==, 0);

  errors = pal_mcp_server_store_get_load_errors (store);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, G_N_ELEMENTS (bad));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *prefix = g_strdup_printf ("Stored MCP server %u: ", i + 2);

      g_assert_true (g_str_has_prefix (errors[i], prefix));
      if (strstr (errors[i], reasons[i]) == NULL)
        g_error ("“%s” is not in “%s”", reasons[i], errors[i]);
    }

  /* what is left out is copied before the key is written */
  WAIT_UNTIL (has_backup (store));
  g_assert_true (pal_mcp_server_store_add (store, added, NULL));
  stored = g_settings_get_value (fixture->settings, "mcp-servers");
  g_assert_cmpuint (g_variant_n_children (stored), ==, 5 + G_N_ELEMENTS (bad) - 2);
  for (guint i = 0, k = 5; i < G_N_ELEMENTS (bad); i++)
    {
      if (i != 5 && i != 7)
        {
          g_autoptr(GVariant) child = g_variant_get_child_value (stored, k++);

          g_assert_true (g_variant_equal (child, bad[i]));
        }
      g_variant_unref (bad[i]);
    }
}

static void
test_batched_writes (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerConfig) config = new_stdio ("s", "/bin/s");
  g_autoptr(PalNameValue) detached = NULL;
  PalNameValue *nv;
  guint writes = 0;

  nv = pal_mcp_server_config_add_env (config, "A", "1");
  pal_mcp_server_store_add (store, config, NULL);
  g_signal_connect (fixture->settings, "changed::mcp-servers", G_CALLBACK (count_cb), &writes);

  /* properties of the config and of a row, and a new row: one write */
  pal_mcp_server_config_set_command (config, "/bin/t");
  pal_name_value_set_value (nv, "2");
  pal_name_value_set_secret (nv, TRUE);
  pal_mcp_server_config_add_env (config, "B", "3");
  g_assert_cmpuint (writes, ==, 0);
  test_drain_main_context ();
  g_assert_cmpuint (writes, ==, 1);
  {
    g_autoptr(PalMcpServerStore) again = pal_mcp_server_store_new (fixture->settings);
    GListStore *env = pal_mcp_server_config_get_env (item (G_LIST_MODEL (again), 0));

    g_assert_cmpstr (pal_mcp_server_config_get_command (item (G_LIST_MODEL (again), 0)), ==, "/bin/t");
    g_assert_cmpuint (n_items (env), ==, 2);
    assert_row (env, 0, "A", "2", TRUE);
    assert_row (env, 1, "B", "3", FALSE);
  }

  /* a row taken out of the list changes nothing any more */
  detached = g_object_ref (nv);
  g_list_store_remove (pal_mcp_server_config_get_env (config), 0);
  test_drain_main_context ();
  g_assert_cmpuint (writes, ==, 2);
  pal_name_value_set_value (detached, "gone");
  test_drain_main_context ();
  g_assert_cmpuint (writes, ==, 2);

  g_signal_handlers_disconnect_by_func (fixture->settings, count_cb, &writes);
}

static void
test_external_change (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(GSettings) other = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  g_autoptr(PalMcpServerConfig) a = new_stdio ("a", "/bin/a");
  g_autoptr(PalMcpServerConfig) b = new_stdio ("b", "/bin/b");
  g_autoptr(PalMcpServerStore) writer = NULL;
  PalNameValue *kept;
  PalMcpServerConfig *b_there;

  kept = pal_mcp_server_config_add_env (a, "KEEP", "1");
  pal_mcp_server_store_add (store, a, NULL);
  pal_mcp_server_store_add (store, b, NULL);

  /* another instance edits b only */
  writer = pal_mcp_server_store_new (other);
  b_there = pal_mcp_server_store_lookup (writer, "b");
  pal_mcp_server_config_set_enabled (b_there, FALSE);
  pal_mcp_server_config_add_env (b_there, "NEW", "x");
  test_drain_main_context ();

  g_assert_true (item (G_LIST_MODEL (store), 0) == a);
  g_assert_true (item (G_LIST_MODEL (store), 1) == b);
  g_assert_false (pal_mcp_server_config_get_enabled (b));
  assert_row (pal_mcp_server_config_get_env (b), 0, "NEW", "x", FALSE);
  /* unchanged rows keep their objects */
  g_assert_true (row (pal_mcp_server_config_get_env (a), 0) == kept);
}

/* --- JSON --- */

static const char *import_example =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"filesystem\": {\n"
  "      \"command\": \"npx\",\n"
  "      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/home/me\"],\n"
  "      \"env\": {\"DEBUG\": \"1\", \"GITHUB_TOKEN\": \"ghp_x\", \"My_Api_Key\": \"k\"}\n"
  "    },\n"
  "    \"remote\": {\n"
  "      \"url\": \"https://mcp.example.com/mcp\",\n"
  "      \"headers\": {\"Authorization\": \"Bearer t\", \"Accept\": \"application/json\"}\n"
  "    },\n"
  "    \"events\": {\"type\": \"sse\", \"url\": \"http://localhost:3001/sse\", \"disabled\": true},\n"
  "    \"streamable\": {\"type\": \"streamable-http\", \"url\": \"http://localhost:3002/mcp\"},\n"
  "    \"plain\": {\"type\": \"stdio\", \"command\": \"/usr/bin/mcp-plain\", \"cwd\": \"/ignored\"}\n"
  "  }\n"
  "}\n";

static void
test_import (void)
{
  g_autoptr(GPtrArray) configs = NULL;
  g_autoptr(GError) error = NULL;
  const char *fs_args[] = { "-y", "@modelcontextprotocol/server-filesystem", "/home/me", NULL };
  PalMcpServerConfig *config;

  g_assert_true (pal_mcp_server_import_json (import_example, &configs, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (configs->len, ==, 5);

  config = g_ptr_array_index (configs, 0);
  g_assert_cmpstr (pal_mcp_server_config_get_name (config), ==, "filesystem");
  g_assert_cmpint (pal_mcp_server_config_get_transport (config), ==, ACP_MCP_TRANSPORT_STDIO);
  g_assert_true (pal_mcp_server_config_get_enabled (config));
  g_assert_cmpstr (pal_mcp_server_config_get_command (config), ==, "npx");
  g_assert_cmpstrv (pal_mcp_server_config_get_args (config), fs_args);
  g_assert_cmpuint (n_items (pal_mcp_server_config_get_env (config)), ==, 3);
  assert_row (pal_mcp_server_config_get_env (config), 0, "DEBUG", "1", FALSE);
  assert_row (pal_mcp_server_config_get_env (config), 1, "GITHUB_TOKEN", "ghp_x", TRUE);
  assert_row (pal_mcp_server_config_get_env (config), 2, "My_Api_Key", "k", TRUE);

  config = g_ptr_array_index (configs, 1);
  g_assert_cmpstr (pal_mcp_server_config_get_name (config), ==, "remote");
  g_assert_cmpint (pal_mcp_server_config_get_transport (config), ==, ACP_MCP_TRANSPORT_HTTP);
  g_assert_cmpstr (pal_mcp_server_config_get_url (config), ==, "https://mcp.example.com/mcp");
  assert_row (pal_mcp_server_config_get_headers (config), 0, "Authorization", "Bearer t", TRUE);
  assert_row (pal_mcp_server_config_get_headers (config), 1, "Accept", "application/json", FALSE);

  config = g_ptr_array_index (configs, 2);
  g_assert_cmpint (pal_mcp_server_config_get_transport (config), ==, ACP_MCP_TRANSPORT_SSE);
  g_assert_false (pal_mcp_server_config_get_enabled (config));

  config = g_ptr_array_index (configs, 3);
  g_assert_cmpint (pal_mcp_server_config_get_transport (config), ==, ACP_MCP_TRANSPORT_HTTP);

  config = g_ptr_array_index (configs, 4);
  g_assert_cmpint (pal_mcp_server_config_get_transport (config), ==, ACP_MCP_TRANSPORT_STDIO);
  g_assert_cmpstr (pal_mcp_server_config_get_command (config), ==, "/usr/bin/mcp-plain");
  g_assert_cmpstrv (pal_mcp_server_config_get_args (config), ((const char *[]) { NULL }));

  /* the other spelling of the top member */
  g_clear_pointer (&configs, g_ptr_array_unref);
  g_assert_true (pal_mcp_server_import_json ("{\"servers\": {\"x\": {\"command\": \"x\"}}}",
                                             &configs, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (configs->len, ==, 1);
  g_clear_pointer (&configs, g_ptr_array_unref);
  g_assert_true (pal_mcp_server_import_json ("{\"mcpServers\": {}}", &configs, NULL, &error));
  g_assert_cmpuint (configs->len, ==, 0);
}

/* A text that cannot be read is refused whole; a server that cannot be
 * read is refused, named with what is wrong, and the others are read. */
static void
test_import_errors (void)
{
  static const struct {
    const char *json;
    const char *part1;
    const char *part2;
  } cases[] = {
    { "", "not an object", NULL },
    { "{\"mcpServers\": {", "not valid JSON", NULL },
    { "[]", "“mcpServers”", NULL },
    { "{\"other\": {}}", "no “mcpServers”", NULL },
    { "{\"mcpServers\": []}", "“mcpServers” is not an object", NULL },
    { "{\"mcpServers\": {\"s\": 1}}", "“s”", "not an object" },
    { "{\"mcpServers\": {\"\": {\"command\": \"x\"}}}", "empty name", NULL },
    { "{\"mcpServers\": {\"s\": {}}}", "“s”", "neither" },
    { "{\"mcpServers\": {\"s\": {\"command\": 5}}}", "“s”", "“command” is not a string" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"  \"}}}", "“s”", "“command” is missing or empty" },
    { "{\"mcpServers\": {\"s\": {\"type\": \"stdio\", \"url\": \"http://x/\"}}}", "“s”", "“command”" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": \"-v\"}}}", "“s”", "“args” is not an array" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"a\", 2]}}}", "“s”", "argument 2" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": [\"A=1\"]}}}", "“s”", "“env” is not an object" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"PORT\": 80}}}}", "“s”", "“PORT” in “env”" },
    { "{\"mcpServers\": {\"s\": {\"url\": 1}}}", "“s”", "“url” is not a string" },
    { "{\"mcpServers\": {\"s\": {\"type\": \"sse\"}}}", "“s”", "“url” is missing" },
    { "{\"mcpServers\": {\"s\": {\"type\": \"ws\", \"url\": \"ws://x/\"}}}", "“s”", "“ws”" },
    { "{\"mcpServers\": {\"s\": {\"type\": 1, \"url\": \"http://x/\"}}}", "“s”", "“type” is not a string" },
    { "{\"mcpServers\": {\"s\": {\"url\": \"http://x/\", \"headers\": {\"A\": true}}}}", "“s”", "“A” in “headers”" },
    { "{\"mcpServers\": {\"s\": {\"url\": \"http://x/\", \"headers\": \"A: b\"}}}", "“s”", "“headers” is not an object" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"disabled\": \"yes\"}}}", "“s”", "“disabled”" },
    { "{\"mcpServers\": {\"ok\": {\"command\": \"x\"}, \"bad\": {\"command\": \"\"}}}", "“bad”", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) configs = NULL;
      g_autoptr(GPtrArray) failures = NULL;
      g_autoptr(GError) error = NULL;
      const GError *failure;

      /* the first five: the text */
      if (i < 5)
        {
          g_assert_false (pal_mcp_server_import_json (cases[i].json, &configs, &failures, &error));
          g_assert_null (configs);
          g_assert_null (failures);
          failure = error;
        }
      else
        {
          g_assert_true (pal_mcp_server_import_json (cases[i].json, &configs, &failures, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (failures->len, ==, 1);
          /* the last has a good server too */
          g_assert_cmpuint (configs->len, ==, i == G_N_ELEMENTS (cases) - 1 ? 1 : 0);
          failure = g_ptr_array_index (failures, 0);
        }
      g_assert_error (failure, PAL_ERROR, PAL_ERROR_INVALID);
      if (strstr (failure->message, cases[i].part1) == NULL ||
          (cases[i].part2 != NULL && strstr (failure->message, cases[i].part2) == NULL))
        g_error ("case %u: unexpected message “%s”", i, failure->message);
    }
}

/* JSON escapes can spell strings that are not UTF-8 (a lone surrogate):
 * the settings cannot hold them, so such a server is refused, named. */
static void
test_import_invalid_utf8 (void)
{
  static const struct {
    const char *json;
    const char *part;
  } cases[] = {
    { "{\"mcpServers\": {\"s\": {\"command\": \"/bin/x\\uD800y\"}}}", "“command”" },
    { "{\"mcpServers\": {\"s\": {\"url\": \"https://x.test/\\uDC00x\"}}}", "“url”" },
    { "{\"mcpServers\": {\"s\": {\"type\": \"\\uDBFFx\", \"url\": \"http://x/\"}}}", "“type”" },
    { "{\"mcpServers\": {\"s\\uD800t\": {\"command\": \"x\"}}}", "a name" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"a\", \"\\uD800b\"]}}}",
      "argument 2" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"K\\uD800k\": \"v\"}}}}",
      "a name in “env”" },
    { "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"K\": \"v\\uDFFFx\"}}}}",
      "“K” in “env”" },
    { "{\"mcpServers\": {\"s\": {\"url\": \"http://x/\", \"headers\": {\"A\": \"\\uD83Dx\"}}}}",
      "“A” in “headers”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) configs = NULL;
      g_autoptr(GPtrArray) failures = NULL;
      g_autoptr(GError) error = NULL;
      const GError *failure;

      g_assert_true (pal_mcp_server_import_json (cases[i].json, &configs, &failures, &error));
      g_assert_no_error (error);
      if (configs->len != 0)
        g_error ("case %u: imported", i);
      g_assert_cmpuint (failures->len, ==, 1);
      failure = g_ptr_array_index (failures, 0);
      g_assert_error (failure, PAL_ERROR, PAL_ERROR_INVALID);
      g_assert_true (g_utf8_validate (failure->message, -1, NULL));
      if (strstr (failure->message, "UTF-8") == NULL || strstr (failure->message, cases[i].part) == NULL)
        g_error ("case %u: unexpected message “%s”", i, failure->message);
    }

  /* raw bytes that are not UTF-8: the text as a whole */
  {
    g_autoptr(GPtrArray) configs = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_false (pal_mcp_server_import_json ("{\"mcpServers\": {\"s\": {\"command\": \"/bin/\xff\"}}}",
                                                &configs, NULL, &error));
    g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "UTF-8"));
  }

  /* the parser's own message quotes the text it choked on: made valid */
  {
    g_autoptr(GPtrArray) configs = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_false (pal_mcp_server_import_json ("{\"mcpServers\": {\"s\\uDE00x\" {}}}",
                                                &configs, NULL, &error));
    g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
    g_assert_true (g_utf8_validate (error->message, -1, NULL));
  }

  /* a surrogate pair is a proper character */
  {
    g_autoptr(GPtrArray) configs = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_true (pal_mcp_server_import_json ("{\"mcpServers\": {\"s\": "
                                               "{\"command\": \"/bin/\\uD83D\\uDE00\"}}}",
                                               &configs, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (pal_mcp_server_config_get_command (g_ptr_array_index (configs, 0)),
                     ==, "/bin/\xf0\x9f\x98\x80");
  }
}

/* An import with one server that cannot be read (a lone surrogate in its
 * command) imports the others, and says which failed. */
static void
test_import_partial (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerStore) again = NULL;
  g_autoptr(GPtrArray) configs = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;
  const GError *failure;

  g_assert_true (pal_mcp_server_import_json ("{\"mcpServers\": {"
                                             "\"first\": {\"command\": \"/bin/first\"},"
                                             "\"broken\": {\"command\": \"a\\ud800b\"},"
                                             "\"last\": {\"url\": \"https://last.test/mcp\"}}}",
                                             &configs, &failures, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (configs->len, ==, 2);
  g_assert_cmpstr (pal_mcp_server_config_get_name (g_ptr_array_index (configs, 0)), ==, "first");
  g_assert_cmpstr (pal_mcp_server_config_get_name (g_ptr_array_index (configs, 1)), ==, "last");
  g_assert_cmpuint (failures->len, ==, 1);
  failure = g_ptr_array_index (failures, 0);
  g_assert_error (failure, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_cmpstr (failure->message, ==, "MCP server “broken”: “command” is not valid UTF-8 text");

  g_assert_cmpuint (pal_mcp_server_store_import (store, configs, NULL, NULL), ==, 2);
  /* and they are there after a restart */
  again = pal_mcp_server_store_new (fixture->settings);
  g_assert_cmpuint (n_items (again), ==, 2);
  g_assert_cmpstr (pal_mcp_server_config_get_command (pal_mcp_server_store_lookup (again, "first")),
                   ==, "/bin/first");
}

/* The same file imported twice adds its servers once; a server whose name
 * another one has is added under a number. */
static void
test_import_twice (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(PalMcpServerConfig) other = new_stdio ("everything", "/bin/other");
  const char *json = "{\"mcpServers\": {"
                     "\"everything\": {\"command\": \"npx\", "
                     "\"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"], "
                     "\"env\": {\"DEBUG\": \"1\"}},"
                     "\"remote\": {\"url\": \"https://mcp.test/mcp\", "
                     "\"headers\": {\"Authorization\": \"Bearer t\"}}}}";
  guint renamed = 99;
  guint present = 99;

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(GPtrArray) configs = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (pal_mcp_server_import_json (json, &configs, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (pal_mcp_server_store_import (store, configs, &renamed, &present), ==,
                        round == 0 ? 2 : 0);
      g_assert_cmpuint (renamed, ==, 0);
      g_assert_cmpuint (present, ==, round == 0 ? 0 : 2);
    }
  g_assert_cmpuint (n_items (store), ==, 2);
  g_assert_null (pal_mcp_server_store_lookup (store, "everything (2)"));

  /* the same server turned off, or under another name, is still the same */
  pal_mcp_server_config_set_enabled (pal_mcp_server_store_lookup (store, "remote"), FALSE);
  pal_mcp_server_config_set_name (pal_mcp_server_store_lookup (store, "remote"), "Remote");
  {
    g_autoptr(GPtrArray) configs = NULL;

    g_assert_true (pal_mcp_server_import_json (json, &configs, NULL, NULL));
    g_assert_cmpuint (pal_mcp_server_store_import (store, configs, &renamed, &present), ==, 0);
    g_assert_cmpuint (present, ==, 2);
  }

  /* another server under a taken name: numbered */
  {
    g_autoptr(GPtrArray) configs = g_ptr_array_new_with_free_func (g_object_unref);

    g_ptr_array_add (configs, g_object_ref (other));
    g_assert_cmpuint (pal_mcp_server_store_import (store, configs, &renamed, &present), ==, 1);
    g_assert_cmpuint (renamed, ==, 1);
    g_assert_cmpuint (present, ==, 0);
    g_assert_true (pal_mcp_server_store_lookup (store, "everything (2)") == other);
  }
}

static void
test_export_round_trip (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(GPtrArray) imported = NULL;
  g_autoptr(GPtrArray) reimported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  g_assert_true (pal_mcp_server_import_json (import_example, &imported, NULL, &error));
  for (guint i = 0; i < imported->len; i++)
    {
      g_assert_true (pal_mcp_server_store_add (store, g_ptr_array_index (imported, i), &error));
      g_assert_no_error (error);
    }

  json = pal_mcp_server_export_json (G_LIST_MODEL (store));
  g_assert_true (g_str_has_prefix (json, "{\n  \"mcpServers\" : {\n"));
  /* secrets are exported as they are */
  g_assert_nonnull (strstr (json, "ghp_x"));
  g_assert_nonnull (strstr (json, "Bearer t"));
  /* the streamable one is written with its canonical type */
  g_assert_nonnull (strstr (json, "\"type\" : \"http\""));
  g_assert_null (strstr (json, "streamable-http"));

  g_assert_true (pal_mcp_server_import_json (json, &reimported, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reimported->len, ==, imported->len);
  for (guint i = 0; i < imported->len; i++)
    assert_same_config (g_ptr_array_index (reimported, i), g_ptr_array_index (imported, i));

  /* an empty list exports an empty object */
  {
    g_autoptr(GListStore) empty = g_list_store_new (PAL_TYPE_MCP_SERVER_CONFIG);
    g_autofree char *text = pal_mcp_server_export_json (G_LIST_MODEL (empty));
    g_autoptr(GPtrArray) none = NULL;

    g_assert_true (pal_mcp_server_import_json (text, &none, NULL, &error));
    g_assert_cmpuint (none->len, ==, 0);
  }
}

/* Every transport is stored, exported, imported and handed to agents
 * under its own name, and has a label and a title. */
static void
test_every_transport (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PalMcpServerStore) store = pal_mcp_server_store_new (fixture->settings);
  g_autoptr(GSettings) settings2 = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  g_autoptr(PalMcpServerStore) restarted = NULL;
  g_autoptr(GPtrArray) imported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  for (AcpMcpTransport t = 0; t < ACP_MCP_N_TRANSPORTS; t++)
    {
      g_autofree char *name = g_strdup_printf ("server-%s", acp_mcp_transport_to_string (t));
      g_autoptr(PalMcpServerConfig) config = t == ACP_MCP_TRANSPORT_STDIO
                                             ? new_stdio (name, "/bin/true")
                                             : new_remote (name, t, "https://x.test/mcp");
      g_autoptr(AcpMcpServer) server = pal_mcp_server_config_to_acp (config, &error);
      g_autoptr(JsonNode) wire = NULL;

      g_assert_no_error (error);
      g_assert_cmpint (acp_mcp_server_get_transport (server), ==, t);
      wire = acp_mcp_server_to_json (server);
      if (t != ACP_MCP_TRANSPORT_STDIO)
        g_assert_cmpstr (json_object_get_string_member (json_node_get_object (wire), "type"),
                         ==, acp_mcp_transport_to_string (t));

      g_assert_cmpstr (pal_mcp_transport_get_label (t), !=, "");
      g_assert_cmpstr (pal_mcp_transport_get_title (t), !=, "");

      g_assert_true (pal_mcp_server_store_add (store, config, &error));
      g_assert_no_error (error);
    }

  restarted = pal_mcp_server_store_new (settings2);
  g_assert_cmpstrv (pal_mcp_server_store_get_load_errors (restarted), ((const char *[]) { NULL }));
  json = pal_mcp_server_export_json (G_LIST_MODEL (store));
  g_assert_true (pal_mcp_server_import_json (json, &imported, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_items (restarted), ==, ACP_MCP_N_TRANSPORTS);
  g_assert_cmpuint (imported->len, ==, ACP_MCP_N_TRANSPORTS);
  for (AcpMcpTransport t = 0; t < ACP_MCP_N_TRANSPORTS; t++)
    {
      g_assert_cmpint (pal_mcp_server_config_get_transport (item (G_LIST_MODEL (restarted), t)),
                       ==, t);
      g_assert_cmpint (pal_mcp_server_config_get_transport (g_ptr_array_index (imported, t)),
                       ==, t);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  g_test_add_func ("/mcp-server-store/looks-secret", test_looks_secret);
  ADD ("/mcp-server-store/validate", test_validate);
  ADD ("/mcp-server-store/round-trip", test_round_trip);
  ADD ("/mcp-server-store/unique-names", test_unique_names);
  ADD ("/mcp-server-store/duplicate", test_duplicate);
  ADD ("/mcp-server-store/remove-undo", test_remove_undo);
  ADD ("/mcp-server-store/malformed", test_malformed);
  ADD ("/mcp-server-store/batched-writes", test_batched_writes);
  ADD ("/mcp-server-store/external-change", test_external_change);
  g_test_add_func ("/mcp-server-store/import", test_import);
  g_test_add_func ("/mcp-server-store/import-errors", test_import_errors);
  g_test_add_func ("/mcp-server-store/import-invalid-utf8", test_import_invalid_utf8);
  ADD ("/mcp-server-store/import-partial", test_import_partial);
  ADD ("/mcp-server-store/import-twice", test_import_twice);
  ADD ("/mcp-server-store/export-round-trip", test_export_round_trip);
  ADD ("/mcp-server-store/every-transport", test_every_transport);

#undef ADD

  return g_test_run ();
}
