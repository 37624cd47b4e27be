/* fuzz-settings.c: stored settings, through the stores that read them
 *
 * The first byte of the input picks a settings key, the rest is its value
 * as dconf keeps it: a serialized GVariant of the key's type, in any state
 * a broken or hostile file could leave it. The store of that key reads it
 * at start, keeping what it can and telling why it skipped the rest; every
 * string it shows must be UTF-8. Then the store writes (a change made as
 * the person would), and a store started afresh on what was written must
 * read as many entries as the first did, and skip as many; entries read
 * without a member that could not be read are written without it, so it
 * reports no more than the first. The stores copy such values to files
 * before they write: those go to a folder of the fuzzer's own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "fuzz-util.h"
#include "pal-agent-store.h"
#include "pal-mcp-server-store.h"
#include "pal-session-store.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"

typedef enum
{
  KEY_AGENTS,
  KEY_MCP_SERVERS,
  KEY_SESSIONS,
  KEY_HIDDEN_SESSIONS,
  N_KEYS,
} Key;

static const struct {
  const char *name;
  const char *type;
} keys[N_KEYS] = {
  { "agents", "aa{sv}" },
  { "mcp-servers", "aa{sv}" },
  { "sessions", "aa{sv}" },
  { "hidden-sessions", "a(sss)" },
};

/* The seed corpus: values as the stores write them (the shapes the store
 * tests use), and some they must refuse, in GVariant text form. */
static const struct {
  Key         key;
  const char *text;
} seeds[] = {
  { KEY_AGENTS, "[{'id': <'my-agent'>, 'name': <'My Agent'>, 'command': <'/usr/bin/agent'>, "
                "'args': <['--acp', '-v']>, 'env': <{'DEBUG': '1', 'API_TOKEN': 'x'}>}, "
                "{'id': <'codex'>, 'name': <'Codex'>, 'command': <'codex-acp'>, "
                "'args': <@as []>, 'env': <@a{ss} {}>}]" },
  { KEY_AGENTS, "[{'id': <'a'>, 'name': <'A'>, 'command': <'x'>}, "
                "{'id': <'a'>, 'name': <'Again'>, 'command': <'y'>}, "
                "{'id': <'b'>, 'name': <2>, 'command': <'z'>}, {'name': <'no id'>}, "
                "{'id': <'c'>, 'name': <'C'>, 'command': <'c'>, 'env': <['A=1']>}]" },
  { KEY_MCP_SERVERS, "[{'name': <'files'>, 'transport': <'stdio'>, 'enabled': <false>, "
                     "'command': <'npx'>, 'args': <['-y', '@modelcontextprotocol/server-filesystem']>, "
                     "'env': <[('DEBUG', '1', false), ('GITHUB_TOKEN', 'ghp_abc', true)]>, "
                     "'url': <'https://left.over/'>, 'headers': <@a(ssb) []>}, "
                     "{'name': <'web'>, 'transport': <'http'>, 'enabled': <true>, 'command': <''>, "
                     "'args': <@as []>, 'env': <@a(ssb) []>, 'url': <'https://x.test/mcp'>, "
                     "'headers': <[('Authorization', 'Bearer xyz', true)]>}, "
                     "{'name': <'events'>, 'transport': <'sse'>, 'url': <'http://127.0.0.1:9/sse'>}]" },
  { KEY_MCP_SERVERS, "[{'name': <'x'>, 'transport': <'ws'>}, {'name': <'x'>, 'transport': <'stdio'>}, "
                     "{'name': <''>, 'transport': <'http'>, 'url': <'http://x/'>}, "
                     "{'name': <'y'>, 'transport': <'stdio'>, 'command': <'y'>, 'env': <['A']>}, "
                     "{'name': <'z'>, 'transport': <'stdio'>, 'command': <'z'>}, "
                     "{'name': <'z'>, 'transport': <'sse'>, 'url': <'http://z/'>}]" },
  { KEY_SESSIONS, "[{'id': <'s-1'>, 'agent': <'codex'>, 'cwd': <'/home/me/project'>, "
                  "'title': <'Fix the build'>, 'created': <int64 1700000000000000>, "
                  "'updated': <int64 1700000100000000>, 'pinned': <true>, 'renamed': <true>}, "
                  "{'id': <'s-2'>, 'agent': <'claude-agent'>, 'cwd': <'/tmp'>, 'title': <''>, "
                  "'created': <int64 1>, 'updated': <int64 2>, 'pinned': <false>}]" },
  { KEY_SESSIONS, "[{'id': <'odd'>, 'agent': <'codex'>, 'cwd': <'/p'>, 'renamed': <'yes'>}, "
                  "{'id': <'fine'>, 'agent': <'codex'>, 'cwd': <'/p'>, 'updated': <int64 4>}, "
                  "{'id': <'fine'>, 'agent': <'gemini'>, 'cwd': <'relative'>}, "
                  "{'agent': <'codex'>, 'cwd': <'/p'>}, {'id': <'t'>, 'agent': <'codex'>, "
                  "'cwd': <'/p'>, 'created': <-1>}]" },
  { KEY_HIDDEN_SESSIONS, "[('codex', '/home/me/project', 's-1'), ('claude-agent', '/tmp', 's-2'), "
                         "('codex', '/p', 's-1')]" },
};

/* With PALAVER_FUZZ_WRITE_SEEDS=DIR set, writes the seed corpus into DIR
 * (the first byte picks the key, as the fuzzer reads it) and exits. */
static void
write_seeds (const char *dir)
{
  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GVariant) value = NULL;
      g_autoptr(GByteArray) bytes = g_byte_array_new ();
      g_autofree char *name = g_strdup_printf ("%s-%u", keys[seeds[i].key].name, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      guint8 key = seeds[i].key;

      value = g_variant_parse (G_VARIANT_TYPE (keys[seeds[i].key].type), seeds[i].text,
                               NULL, NULL, &error);
      if (value == NULL)
        g_error ("seed %u: %s", i, error->message);
      g_byte_array_append (bytes, &key, 1);
      g_byte_array_append (bytes, g_variant_get_data (value), g_variant_get_size (value));
      if (!g_file_set_contents (path, (const char *) bytes->data, bytes->len, &error))
        g_error ("%s", error->message);
    }
}

/* the folder the stores copy values to, removed at exit */
static char *data_home;

static void
remove_data_home (void)
{
  g_autofree char *folder = g_build_filename (data_home, "palaver", "settings-backup", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      g_unlink (path);
    }
  g_rmdir (folder);
  g_clear_pointer (&folder, g_free);
  folder = g_build_filename (data_home, "palaver", NULL);
  g_rmdir (folder);
  g_rmdir (data_home);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  const char *seeds_dir = g_getenv ("PALAVER_FUZZ_WRITE_SEEDS");

  if (seeds_dir != NULL)
    {
      write_seeds (seeds_dir);
      exit (0);
    }

  fuzz_init ();
  /* the stores' copies of values they could not read in full */
  data_home = g_dir_make_tmp ("palaver-fuzz-settings-XXXXXX", NULL);
  g_assert (data_home != NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  atexit (remove_data_home);
  /* the demo agent is always listed: the same one every time */
  g_setenv ("PALAVER_DEMO_AGENT", "/nonexistent/palaver-demo-agent", TRUE);
  return 0;
}

static guint
n_strv (const char * const *strv)
{
  guint n = 0;

  for (; strv[n] != NULL; n++)
    FUZZ_CHECK (fuzz_is_text (strv[n]));
  return n;
}

static void
read_items (GListModel *model)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      fuzz_read_properties (item);
    }
}

/* Starts the store of @key on @settings; returns its item count and sets
 * @n_errors to the number of entries it skipped. */
static GObject *
start_store (Key        key,
             GSettings *settings,
             guint     *n_items,
             guint     *n_errors)
{
  GObject *store = NULL;
  const char * const *errors = NULL;

  switch (key)
    {
    case KEY_AGENTS:
      store = G_OBJECT (pal_agent_store_new (settings));
      errors = pal_agent_store_get_load_errors (PAL_AGENT_STORE (store));
      break;
    case KEY_MCP_SERVERS:
      store = G_OBJECT (pal_mcp_server_store_new (settings));
      errors = pal_mcp_server_store_get_load_errors (PAL_MCP_SERVER_STORE (store));
      break;
    case KEY_SESSIONS:
    case KEY_HIDDEN_SESSIONS:
      store = G_OBJECT (pal_session_store_new (settings));
      errors = pal_session_store_get_load_errors (PAL_SESSION_STORE (store));
      break;
    case N_KEYS:
    default:
      g_assert_not_reached ();
    }

  read_items (G_LIST_MODEL (store));
  *n_items = g_list_model_get_n_items (G_LIST_MODEL (store));
  if (key == KEY_HIDDEN_SESSIONS)
    *n_items = pal_session_store_get_n_hidden (PAL_SESSION_STORE (store));
  *n_errors = n_strv (errors);
  return store;
}

/* A change the person could make, which writes the key. Returns how many
 * items it added. */
static guint
change (Key      key,
        GObject *store)
{
  switch (key)
    {
    case KEY_AGENTS:
      {
        const char *args[] = { "--fuzz", NULL };
        g_autoptr(PalAgentProfile) profile = pal_agent_profile_new ("fuzz-added", "Added",
                                                                    "/bin/true", args);

        return pal_agent_store_add (PAL_AGENT_STORE (store), profile, NULL) ? 1 : 0;
      }
    case KEY_MCP_SERVERS:
      {
        g_autoptr(PalMcpServerConfig) config = pal_mcp_server_config_new ("fuzz added",
                                                                          ACP_MCP_TRANSPORT_STDIO);

        pal_mcp_server_config_set_command (config, "/bin/true");
        pal_mcp_server_config_add_env (config, "TOKEN", "secret");
        return pal_mcp_server_store_add (PAL_MCP_SERVER_STORE (store), config, NULL) ? 1 : 0;
      }
    case KEY_SESSIONS:
      {
        g_autoptr(PalSessionRecord) record = pal_session_record_new ("fuzz-added", "fuzz-agent",
                                                                     "/fuzz");
        guint before = g_list_model_get_n_items (G_LIST_MODEL (store));

        pal_session_store_add (PAL_SESSION_STORE (store), record);
        return g_list_model_get_n_items (G_LIST_MODEL (store)) - before;
      }
    case KEY_HIDDEN_SESSIONS:
      {
        g_auto(GStrv) shown = NULL;

        /* writes the key (empty), and lists what was hidden */
        shown = pal_session_store_show_hidden (PAL_SESSION_STORE (store));
        n_strv ((const char * const *) shown);
        return 0;
      }
    case N_KEYS:
    default:
      g_assert_not_reached ();
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GSettings) settings_later = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GVariant) value = NULL;
  g_autoptr(GObject) store = NULL;
  g_autoptr(GObject) store_later = NULL;
  guint n_items, n_errors, n_items_later, n_errors_later, added;
  Key key;

  if (size < 1)
    return 0;

  key = data[0] % N_KEYS;
  bytes = g_bytes_new (data + 1, size - 1);
  value = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (keys[key].type),
                                                        bytes, FALSE));
  backend = g_memory_settings_backend_new ();
  settings = g_settings_new_with_backend (SCHEMA_ID, backend);
  g_settings_set_value (settings, keys[key].name, value);

  store = start_store (key, settings, &n_items, &n_errors);
  added = change (key, store);
  fuzz_drain_main_context ();
  /* a write waiting for a copy of the value is made as the store goes */
  g_clear_object (&store);

  settings_later = g_settings_new_with_backend (SCHEMA_ID, backend);
  store_later = start_store (key, settings_later, &n_items_later, &n_errors_later);
  if (key == KEY_HIDDEN_SESSIONS)
    FUZZ_CHECK (n_items_later == 0);
  else
    FUZZ_CHECK (n_items_later == n_items + added);
  FUZZ_CHECK (n_errors_later <= n_errors);

  g_clear_object (&store_later);
  fuzz_drain_main_context ();
  return 0;
}
