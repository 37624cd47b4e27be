/* test-agent-store.c: agent profiles, presets and their persistence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-agent-store.h"
#include "pal-error.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"
#define FAKE_DEMO "/opt/test/palaver-demo-agent"

typedef struct
{
  GSettingsBackend *backend;
  GSettings *settings;
  char *bin_dir;
  char *old_path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->backend = g_memory_settings_backend_new ();
  fixture->settings = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  fixture->bin_dir = g_dir_make_tmp ("palaver-agent-store-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->old_path = g_strdup (g_getenv ("PATH"));
  g_setenv ("PALAVER_DEMO_AGENT", FAKE_DEMO, TRUE);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->bin_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (fixture->bin_dir, name, NULL);
      g_unlink (file);
    }
  g_rmdir (fixture->bin_dir);
  g_free (fixture->bin_dir);

  if (fixture->old_path != NULL)
    g_setenv ("PATH", fixture->old_path, TRUE);
  else
    g_unsetenv ("PATH");
  g_free (fixture->old_path);

  g_clear_object (&fixture->settings);
  g_clear_object (&fixture->backend);
}

static void
make_program (Fixture    *fixture,
              const char *name,
              int         mode)
{
  g_autofree char *file = g_build_filename (fixture->bin_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (file, "#!/bin/sh\nexit 0\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (file, mode), ==, 0);
}

static void
detect_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (pal_agent_store_detect_finish (PAL_AGENT_STORE (object), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
detect (PalAgentStore *store)
{
  gboolean done = FALSE;

  pal_agent_store_detect_async (store, NULL, detect_cb, &done);
  WAIT_UNTIL (done);
}

static PalAgentProfile *
item (PalAgentStore *store,
      guint          position)
{
  g_autoptr(PalAgentProfile) profile = g_list_model_get_item (G_LIST_MODEL (store), position);

  g_assert_nonnull (profile);
  return profile; /* the store keeps it alive */
}

static guint
n_stored (GSettings *settings)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, "agents");

  return g_variant_n_children (value);
}

static GVariant *
entry (const char *id,
       const char *name,
       const char *command)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  if (id != NULL)
    g_variant_dict_insert (&dict, "id", "s", id);
  if (name != NULL)
    g_variant_dict_insert (&dict, "name", "s", name);
  if (command != NULL)
    g_variant_dict_insert (&dict, "command", "s", command);
  return g_variant_dict_end (&dict);
}

static void
test_demo_only (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = pal_agent_store_new (fixture->settings);
  g_autofree char *default_id = NULL;
  PalAgentProfile *demo;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 1);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (store)) == PAL_TYPE_AGENT_PROFILE);
  demo = item (store, 0);
  g_assert_cmpstr (pal_agent_profile_get_id (demo), ==, PAL_AGENT_ID_DEMO);
  g_assert_cmpstr (pal_agent_profile_get_name (demo), ==, "Demo Agent");
  g_assert_cmpstr (pal_agent_profile_get_command (demo), ==, FAKE_DEMO);
  g_assert_true (pal_agent_profile_get_is_demo (demo));
  g_assert_true (pal_agent_profile_get_is_preset (demo));
  g_assert_cmpstrv (pal_agent_store_get_load_errors (store), ((const char *[]) { NULL }));
  g_assert_true (pal_agent_store_lookup (store, PAL_AGENT_ID_DEMO) == demo);
  g_assert_null (pal_agent_store_lookup (store, "nope"));

  /* names to show: a profile's; a preset's that was not found (a stored
   * session of an agent since uninstalled); else the id */
  g_assert_cmpstr (pal_agent_store_get_name (store, PAL_AGENT_ID_DEMO), ==, "Demo Agent");
  g_assert_null (pal_agent_store_lookup (store, PAL_AGENT_ID_CLAUDE));
  g_assert_cmpstr (pal_agent_store_get_name (store, PAL_AGENT_ID_CLAUDE), ==, "Claude Agent");
  g_assert_cmpstr (pal_agent_store_get_name (store, PAL_AGENT_ID_GEMINI), ==, "Gemini CLI");
  g_assert_cmpstr (pal_agent_store_get_name (store, "nope"), ==, "nope");
  g_assert_null (pal_agent_store_get_name (store, NULL));

  default_id = pal_agent_store_dup_default_id (store);
  g_assert_cmpstr (default_id, ==, PAL_AGENT_ID_DEMO);

  /* Nothing was written: presets are not stored. */
  test_drain_main_context ();
  g_assert_cmpuint (n_stored (fixture->settings), ==, 0);
}

static void
test_demo_from_libexecdir (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = NULL;

  g_unsetenv ("PALAVER_DEMO_AGENT");
  store = pal_agent_store_new (fixture->settings);
  g_assert_cmpstr (pal_agent_profile_get_command (item (store, 0)), ==,
                   LIBEXECDIR "/palaver-demo-agent");
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = pal_agent_store_new (fixture->settings);
  g_autoptr(PalAgentStore) again = NULL;
  g_autoptr(PalAgentStore) restarted = NULL;
  g_autoptr(GSettings) settings2 = NULL;
  g_autoptr(PalAgentProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  const char *args[] = { "--stdio", "--verbose", NULL };
  const char *env[] = { "ZED=1", "ALPHA=two=parts", "EMPTY=", NULL };
  const char *secrets[] = { "MY_API_KEY", "MY_TOKEN", NULL };
  PalAgentStore *stores[2];

  profile = pal_agent_profile_new (NULL, "My agent", "/usr/bin/my-agent", args);
  g_assert_cmpuint (strlen (pal_agent_profile_get_id (profile)), >, 0);
  pal_agent_profile_set_env (profile, env);
  pal_agent_profile_set_secrets (profile, secrets);
  g_assert_true (pal_agent_store_add (store, profile, &error));
  g_assert_no_error (error);

  /* custom profiles come before the demo */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 2);
  g_assert_true (item (store, 0) == profile);
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 1)), ==, PAL_AGENT_ID_DEMO);

  again = pal_agent_store_new (fixture->settings);
  settings2 = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  restarted = pal_agent_store_new (settings2);
  stores[0] = again;
  stores[1] = restarted;

  for (guint i = 0; i < G_N_ELEMENTS (stores); i++)
    {
      PalAgentProfile *read;

      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (stores[i])), ==, 2);
      read = item (stores[i], 0);
      g_assert_true (read != profile);
      g_assert_cmpstr (pal_agent_profile_get_id (read), ==, pal_agent_profile_get_id (profile));
      g_assert_cmpstr (pal_agent_profile_get_name (read), ==, "My agent");
      g_assert_cmpstr (pal_agent_profile_get_command (read), ==, "/usr/bin/my-agent");
      g_assert_cmpstrv (pal_agent_profile_get_args (read), args);
      g_assert_cmpstrv (pal_agent_profile_get_env (read), env);
      /* the names of the values in the keyring, never the values */
      g_assert_cmpstrv (pal_agent_profile_get_secrets (read), secrets);
      g_assert_true (pal_agent_profile_has_secret (read, "MY_TOKEN"));
      g_assert_false (pal_agent_profile_has_secret (read, "ZED"));
      g_assert_false (pal_agent_profile_get_is_preset (read));
      g_assert_false (pal_agent_profile_get_is_demo (read));
    }

  /* adding an agent does not make it the default: the person chooses that */
  {
    g_autofree char *default_id = pal_agent_store_dup_default_id (restarted);
    g_assert_cmpstr (default_id, ==, PAL_AGENT_ID_DEMO);
  }
}

static void
test_add_errors (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = pal_agent_store_new (fixture->settings);
  g_autoptr(PalAgentProfile) a = pal_agent_profile_new ("a", "A", "a-agent", NULL);
  g_autoptr(PalAgentProfile) a2 = pal_agent_profile_new ("a", "A again", "a-agent", NULL);
  g_autoptr(PalAgentProfile) no_command = pal_agent_profile_new ("b", "B", "  ", NULL);
  g_autoptr(PalAgentProfile) no_name = pal_agent_profile_new ("c", "", "c-agent", NULL);
  g_autoptr(PalAgentProfile) bad_env = pal_agent_profile_new ("d", "D", "d-agent", NULL);
  g_autoptr(PalAgentProfile) both = pal_agent_profile_new ("e", "E", "e-agent", NULL);
  const char *both_env[] = { "KEY=in the settings", NULL };
  const char *both_secrets[] = { "KEY", NULL };
  const char *bad_secrets[] = { "A=B", NULL };
  g_autoptr(PalAgentProfile) preset = pal_agent_profile_new (PAL_AGENT_ID_CODEX, "X", "x", NULL);
  g_autoptr(GError) error = NULL;
  const char *env[] = { "=value", NULL };

  g_assert_true (pal_agent_store_add (store, a, &error));
  g_assert_no_error (error);

  g_assert_false (pal_agent_store_add (store, a2, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_EXISTS);
  g_clear_error (&error);

  g_assert_false (pal_agent_store_add (store, preset, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_EXISTS);
  g_clear_error (&error);

  g_assert_false (pal_agent_store_add (store, no_command, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "command"));
  g_clear_error (&error);

  g_assert_false (pal_agent_store_add (store, no_name, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "name"));
  g_clear_error (&error);

  pal_agent_profile_set_env (bad_env, env);
  g_assert_false (pal_agent_store_add (store, bad_env, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "=value"));
  g_clear_error (&error);

  /* a variable is set here or kept in the keyring, not both */
  pal_agent_profile_set_env (both, both_env);
  pal_agent_profile_set_secrets (both, both_secrets);
  g_assert_false (pal_agent_store_add (store, both, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "KEY"));
  g_clear_error (&error);
  pal_agent_profile_set_env (both, NULL);
  pal_agent_profile_set_secrets (both, bad_secrets);
  g_assert_false (pal_agent_store_add (store, both, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "A=B"));
  g_clear_error (&error);

  /* the settings hold text only: every field must be UTF-8 */
  {
    const char *latin1_args[] = { "--dir=caf\xe9", NULL };
    const char *latin1_env[] = { "DIR=caf\xe9", NULL };
    g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func (g_object_unref);
    PalAgentProfile *with_env = pal_agent_profile_new ("e", "E", "e-agent", NULL);

    pal_agent_profile_set_env (with_env, latin1_env);
    g_ptr_array_add (profiles, with_env);
    g_ptr_array_add (profiles, pal_agent_profile_new ("e", "caf\xe9", "e-agent", NULL));
    g_ptr_array_add (profiles, pal_agent_profile_new ("e", "E", "/opt/caf\xe9/agent", NULL));
    g_ptr_array_add (profiles, pal_agent_profile_new ("e", "E", "e-agent", latin1_args));
    for (guint i = 0; i < profiles->len; i++)
      {
        g_assert_false (pal_agent_store_add (store, g_ptr_array_index (profiles, i), &error));
        g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
        g_assert_true (g_utf8_validate (error->message, -1, NULL));
        g_assert_nonnull (strstr (error->message, "UTF-8"));
        g_clear_error (&error);
      }
  }

  g_assert_false (pal_agent_store_remove (store, PAL_AGENT_ID_DEMO, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  g_assert_false (pal_agent_store_remove (store, "nope", &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 2);
  g_assert_true (pal_agent_store_remove (store, "a", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 1);
  g_assert_cmpuint (n_stored (fixture->settings), ==, 0);
}

static gboolean
has_backup (gpointer store)
{
  return pal_stored_list_get_backup_path (store) != NULL;
}

/* Entries that cannot be read are skipped, reported and kept as they were;
 * an environment or secret that cannot be read costs the profile only
 * that, reported, the value copied before it is written without it. */
static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = NULL;
  g_autoptr(PalAgentProfile) added = pal_agent_profile_new ("added", "Added", "added-agent", NULL);
  g_autoptr(GVariant) stored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = NULL;
  GVariantBuilder builder;
  GVariantDict dict;
  GVariant *bad[6];
  GVariant *partial[2];
  const char * const *errors;
  const char *kept_env[] = { "D=e", NULL };
  const char *kept_secrets[] = { "OK", NULL };

  bad[0] = entry (NULL, "No id", "x");
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "id", "s", "typed");
  g_variant_dict_insert (&dict, "name", "i", 42);
  g_variant_dict_insert (&dict, "command", "s", "x");
  bad[1] = g_variant_dict_end (&dict);
  bad[2] = entry ("", "Empty id", "x");
  bad[3] = entry ("first", "Duplicate", "y");
  bad[4] = entry ("no-command", "No command", NULL);
  /* without its arguments the command would do something else */
  bad[5] = g_variant_ref_sink (entry ("args", "Bad args", "x"));
  g_variant_dict_init (&dict, bad[5]);
  g_variant_unref (bad[5]);
  g_variant_dict_insert (&dict, "args", "s", "--acp");
  bad[5] = g_variant_dict_end (&dict);

  partial[0] = g_variant_ref_sink (entry ("env", "Bad env", "x"));
  g_variant_dict_init (&dict, partial[0]);
  g_variant_unref (partial[0]);
  g_variant_dict_insert_value (&dict, "env", g_variant_new_parsed ("{'A=B': 'c', 'D': 'e'}"));
  partial[0] = g_variant_ref_sink (g_variant_dict_end (&dict));
  partial[1] = g_variant_ref_sink (entry ("secrets", "Bad secret", "x"));
  g_variant_dict_init (&dict, partial[1]);
  g_variant_unref (partial[1]);
  g_variant_dict_insert_value (&dict, "secrets", g_variant_new_parsed ("['OK', '']"));
  partial[1] = g_variant_ref_sink (g_variant_dict_end (&dict));

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("first", "First", "first-agent"));
  for (guint i = 0; i < 4; i++)
    g_variant_builder_add_value (&builder, g_variant_ref_sink (bad[i]));
  g_variant_builder_add_value (&builder, partial[0]);
  g_variant_builder_add_value (&builder, g_variant_ref_sink (bad[4]));
  g_variant_builder_add_value (&builder, partial[1]);
  g_variant_builder_add_value (&builder, g_variant_ref_sink (bad[5]));
  g_variant_builder_add_value (&builder, entry ("second", "Second", "second-agent"));
  g_settings_set_value (fixture->settings, "agents", g_variant_builder_end (&builder));

  store = pal_agent_store_new (fixture->settings);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 5);
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 0)), ==, "first");
  g_assert_cmpstr (pal_agent_profile_get_name (item (store, 0)), ==, "First");
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 1)), ==, "env");
  g_assert_cmpstrv (pal_agent_profile_get_env (item (store, 1)), kept_env);
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 2)), ==, "secrets");
  g_assert_cmpstrv (pal_agent_profile_get_secrets (item (store, 2)), kept_secrets);
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 3)), ==, "second");
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 4)), ==, PAL_AGENT_ID_DEMO);

  errors = pal_agent_store_get_load_errors (store);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, 8);
  g_assert_nonnull (strstr (errors[0], "2"));
  g_assert_nonnull (strstr (errors[0], "“id” is missing"));
  g_assert_nonnull (strstr (errors[1], "“name”"));
  g_assert_nonnull (strstr (errors[1], "“i”"));
  g_assert_nonnull (strstr (errors[2], "empty"));
  g_assert_nonnull (strstr (errors[3], "“first”"));
  g_assert_cmpstr (errors[4], ==, "Stored agent profile 6: the environment variable name “A=B” "
                                  "is invalid, and was left out");
  g_assert_nonnull (strstr (errors[5], "“command” is missing"));
  g_assert_nonnull (strstr (errors[6], "“”"));
  g_assert_nonnull (strstr (errors[6], "left out"));
  g_assert_nonnull (strstr (errors[7], "“args”"));

  /* copied as it was before anything is written */
  WAIT_UNTIL (has_backup (store));
  g_assert_true (g_file_get_contents (pal_stored_list_get_backup_path (PAL_STORED_LIST (store)),
                                      &copy, NULL, NULL));
  g_assert_nonnull (strstr (copy, "'A=B'"));

  /* a change writes the readable ones and keeps the others as they were */
  g_assert_true (pal_agent_store_add (store, added, &error));
  g_assert_no_error (error);
  stored = g_settings_get_value (fixture->settings, "agents");
  g_assert_cmpuint (g_variant_n_children (stored), ==, 5 + G_N_ELEMENTS (bad));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (stored, 5 + i);
      g_assert_true (g_variant_equal (child, bad[i]));
      g_variant_unref (bad[i]);
    }
  g_variant_unref (partial[0]);
  g_variant_unref (partial[1]);

  /* the re-read reports the same problems and keeps the first "first" */
  {
    g_autoptr(PalAgentStore) again = pal_agent_store_new (fixture->settings);

    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 6);
    g_assert_cmpstr (pal_agent_profile_get_name (item (again, 0)), ==, "First");
    g_assert_cmpstr (pal_agent_profile_get_id (item (again, 4)), ==, "added");
    g_assert_cmpstrv (pal_agent_profile_get_env (item (again, 1)), kept_env);
    g_assert_cmpuint (g_strv_length ((char **) pal_agent_store_get_load_errors (again)), ==, 6);
  }
}

static void
test_detect (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = NULL;
  g_autofree char *claude = g_build_filename (fixture->bin_dir, "claude-agent-acp", NULL);
  g_autofree char *codex = g_build_filename (fixture->bin_dir, "codex-acp", NULL);
  g_autofree char *default_id = NULL;
  g_autofree char *path = NULL;
  PalAgentProfile *profile;

  make_program (fixture, "claude-agent-acp", 0755);
  make_program (fixture, "claude-code-acp", 0755);
  make_program (fixture, "codex-acp", 0755);
  make_program (fixture, "gemini", 0644); /* not executable: not an agent */
  path = g_strconcat ("relative/dir:", fixture->bin_dir, NULL);
  g_setenv ("PATH", path, TRUE);

  store = pal_agent_store_new (fixture->settings);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 1);
  detect (store);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 3);
  profile = item (store, 0);
  g_assert_cmpstr (pal_agent_profile_get_id (profile), ==, PAL_AGENT_ID_CLAUDE);
  g_assert_cmpstr (pal_agent_profile_get_name (profile), ==, "Claude Agent");
  g_assert_cmpstr (pal_agent_profile_get_command (profile), ==, claude);
  g_assert_true (pal_agent_profile_get_is_preset (profile));
  g_assert_false (pal_agent_profile_get_is_demo (profile));
  profile = item (store, 1);
  g_assert_cmpstr (pal_agent_profile_get_id (profile), ==, PAL_AGENT_ID_CODEX);
  g_assert_cmpstr (pal_agent_profile_get_command (profile), ==, codex);
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 2)), ==, PAL_AGENT_ID_DEMO);

  default_id = pal_agent_store_dup_default_id (store);
  g_assert_cmpstr (default_id, ==, PAL_AGENT_ID_CLAUDE);
  g_clear_pointer (&default_id, g_free);
  pal_agent_store_set_default_id (store, PAL_AGENT_ID_CODEX);
  default_id = pal_agent_store_dup_default_id (store);
  g_assert_cmpstr (default_id, ==, PAL_AGENT_ID_CODEX);
  g_clear_pointer (&default_id, g_free);
  pal_agent_store_set_default_id (store, "gone");
  default_id = pal_agent_store_dup_default_id (store);
  g_assert_cmpstr (default_id, ==, PAL_AGENT_ID_CLAUDE);

  /* presets are not stored */
  test_drain_main_context ();
  g_assert_cmpuint (n_stored (fixture->settings), ==, 0);

  /* the older Claude adapter when the new one is gone; Gemini once executable */
  g_unlink (claude);
  {
    g_autofree char *gemini = g_build_filename (fixture->bin_dir, "gemini", NULL);
    g_autofree char *older = g_build_filename (fixture->bin_dir, "claude-code-acp", NULL);
    const char *gemini_args[] = { "--acp", "--skip-trust", NULL };

    g_assert_cmpint (g_chmod (gemini, 0755), ==, 0);
    detect (store);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 4);
    g_assert_cmpstr (pal_agent_profile_get_command (item (store, 0)), ==, older);
    g_assert_cmpstr (pal_agent_profile_get_id (item (store, 2)), ==, PAL_AGENT_ID_GEMINI);
    g_assert_cmpstr (pal_agent_profile_get_name (item (store, 2)), ==, "Gemini CLI");
    g_assert_cmpstr (pal_agent_profile_get_command (item (store, 2)), ==, gemini);
    g_assert_cmpstrv (pal_agent_profile_get_args (item (store, 2)), gemini_args);
  }
}

/* A program in a folder whose name is not UTF-8 would become a command
 * the settings cannot hold once the person edits the preset: such PATH
 * entries are passed over. */
static void
test_detect_not_utf8 (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = NULL;
  g_autofree char *latin1_dir = g_build_filename (fixture->bin_dir, "caf\xe9", NULL);
  g_autofree char *latin1 = g_build_filename (latin1_dir, "claude-agent-acp", NULL);
  g_autofree char *claude = g_build_filename (fixture->bin_dir, "claude-agent-acp", NULL);
  g_autofree char *path = g_strconcat (latin1_dir, ":", fixture->bin_dir, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (latin1_dir, 0700), ==, 0);
  g_file_set_contents (latin1, "#!/bin/sh\nexit 0\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (latin1, 0755), ==, 0);
  make_program (fixture, "claude-agent-acp", 0755);
  g_setenv ("PATH", path, TRUE);

  store = pal_agent_store_new (fixture->settings);
  detect (store);
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 0)), ==, PAL_AGENT_ID_CLAUDE);
  g_assert_cmpstr (pal_agent_profile_get_command (item (store, 0)), ==, claude);

  g_unlink (latin1);
  g_rmdir (latin1_dir);
}

static void
detect_cancelled_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_false (pal_agent_store_detect_finish (PAL_AGENT_STORE (object), result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  *done = TRUE;
}

static void
test_detect_cancelled (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gboolean done = FALSE;

  make_program (fixture, "codex-acp", 0755);
  g_setenv ("PATH", fixture->bin_dir, TRUE);
  store = pal_agent_store_new (fixture->settings);

  /* cancelled by the caller: nothing changes */
  g_cancellable_cancel (cancellable);
  pal_agent_store_detect_async (store, cancellable, detect_cancelled_cb, &done);
  WAIT_UNTIL (done);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 1);

  /* the store is disposed while the thread runs */
  done = FALSE;
  pal_agent_store_detect_async (store, NULL, detect_cancelled_cb, &done);
  g_object_run_dispose (G_OBJECT (store));
  WAIT_UNTIL (done);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 0);
}

static void
count_cb (GSettings  *settings,
          const char *key,
          guint      *count)
{
  (*count)++;
}

static void
test_edit_preset (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = NULL;
  g_autoptr(PalAgentProfile) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *codex = g_build_filename (fixture->bin_dir, "codex-acp", NULL);
  const char *args[] = { "--model", "fast", NULL };
  PalAgentProfile *preset;
  guint writes = 0;

  make_program (fixture, "codex-acp", 0755);
  g_setenv ("PATH", fixture->bin_dir, TRUE);
  store = pal_agent_store_new (fixture->settings);
  detect (store);
  g_signal_connect (fixture->settings, "changed::agents", G_CALLBACK (count_cb), &writes);

  preset = item (store, 0);
  g_assert_cmpstr (pal_agent_profile_get_id (preset), ==, PAL_AGENT_ID_CODEX);

  /* an update without a change writes nothing and stays a preset */
  copy = pal_agent_profile_copy (preset);
  g_assert_true (pal_agent_store_update (store, copy, &error));
  g_assert_no_error (error);
  g_assert_true (pal_agent_profile_get_is_preset (preset));
  g_assert_cmpuint (writes, ==, 0);

  pal_agent_profile_set_args (copy, args);
  g_assert_true (pal_agent_store_update (store, copy, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (writes, ==, 1);
  g_assert_true (item (store, 0) == preset);
  g_assert_false (pal_agent_profile_get_is_preset (preset));
  g_assert_cmpstrv (pal_agent_profile_get_args (preset), args);
  g_assert_cmpuint (n_stored (fixture->settings), ==, 1);

  /* a fresh store lists it in the preset's place before any detection */
  {
    g_autoptr(PalAgentStore) again = pal_agent_store_new (fixture->settings);

    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 2);
    g_assert_cmpstr (pal_agent_profile_get_id (item (again, 0)), ==, PAL_AGENT_ID_CODEX);
    g_assert_cmpstr (pal_agent_profile_get_name (item (again, 0)), ==, "Codex");
    g_assert_cmpstrv (pal_agent_profile_get_args (item (again, 0)), args);
    g_assert_false (pal_agent_profile_get_is_preset (item (again, 0)));
  }

  /* removing the edited preset brings the preset back */
  g_assert_true (pal_agent_store_remove (store, PAL_AGENT_ID_CODEX, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 2);
  preset = item (store, 0);
  g_assert_true (pal_agent_profile_get_is_preset (preset));
  g_assert_cmpstr (pal_agent_profile_get_command (preset), ==, codex);
  g_assert_cmpstrv (pal_agent_profile_get_args (preset), ((const char *[]) { NULL }));
  g_assert_cmpuint (n_stored (fixture->settings), ==, 0);

  /* editing a preset's properties directly stores it too, in one write */
  writes = 0;
  pal_agent_profile_set_name (preset, "Codex (work)");
  pal_agent_profile_set_command (preset, "/opt/codex-acp");
  g_assert_cmpuint (writes, ==, 0);
  test_drain_main_context ();
  g_assert_cmpuint (writes, ==, 1);
  g_assert_false (pal_agent_profile_get_is_preset (preset));
  {
    g_autoptr(PalAgentStore) again = pal_agent_store_new (fixture->settings);

    g_assert_cmpstr (pal_agent_profile_get_name (item (again, 0)), ==, "Codex (work)");
    g_assert_cmpstr (pal_agent_profile_get_command (item (again, 0)), ==, "/opt/codex-acp");
  }

  g_signal_handlers_disconnect_by_func (fixture->settings, count_cb, &writes);
}

typedef struct
{
  guint position;
  guint removed;
  guint added;
  guint count;
} ItemsChanged;

static void
items_changed_cb (GListModel   *model,
                  guint         position,
                  guint         removed,
                  guint         added,
                  ItemsChanged *changed)
{
  changed->position = position;
  changed->removed = removed;
  changed->added = added;
  changed->count++;
}

static void
test_external_change (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PalAgentStore) store = NULL;
  g_autoptr(GSettings) other = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  GVariantBuilder builder;
  ItemsChanged changed = { 0, };
  PalAgentProfile *a;
  PalAgentProfile *b;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("a", "A", "a-agent"));
  g_variant_builder_add_value (&builder, entry ("b", "B", "b-agent"));
  g_settings_set_value (fixture->settings, "agents", g_variant_builder_end (&builder));

  store = pal_agent_store_new (fixture->settings);
  a = item (store, 0);
  b = item (store, 1);
  g_signal_connect (store, "items-changed", G_CALLBACK (items_changed_cb), &changed);

  /* another writer renames b and adds c after it */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("a", "A", "a-agent"));
  g_variant_builder_add_value (&builder, entry ("b", "Bee", "b-agent"));
  g_variant_builder_add_value (&builder, entry ("c", "C", "c-agent"));
  g_settings_set_value (other, "agents", g_variant_builder_end (&builder));
  test_drain_main_context ();

  g_assert_cmpuint (changed.count, ==, 1);
  g_assert_cmpuint (changed.position, ==, 2);
  g_assert_cmpuint (changed.removed, ==, 0);
  g_assert_cmpuint (changed.added, ==, 1);
  g_assert_true (item (store, 0) == a);
  g_assert_true (item (store, 1) == b);
  g_assert_cmpstr (pal_agent_profile_get_name (b), ==, "Bee");
  g_assert_cmpstr (pal_agent_profile_get_id (item (store, 2)), ==, "c");

  /* and drops a */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("b", "Bee", "b-agent"));
  g_variant_builder_add_value (&builder, entry ("c", "C", "c-agent"));
  g_settings_set_value (other, "agents", g_variant_builder_end (&builder));
  test_drain_main_context ();
  g_assert_cmpuint (changed.count, ==, 2);
  g_assert_cmpuint (changed.position, ==, 0);
  g_assert_cmpuint (changed.removed, ==, 1);
  g_assert_cmpuint (changed.added, ==, 0);
  g_assert_true (item (store, 0) == b);

  /* our own writes do not reload */
  pal_agent_profile_set_name (b, "Bea");
  test_drain_main_context ();
  g_assert_cmpuint (changed.count, ==, 2);
  {
    g_autoptr(PalAgentStore) again = pal_agent_store_new (other);
    g_assert_cmpstr (pal_agent_profile_get_name (item (again, 0)), ==, "Bea");
  }
}

int
main (int   argc,
      char *argv[])
{
  test_isolate_user_dirs ();
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/agent-store/demo-only", test_demo_only);
  ADD ("/agent-store/demo-from-libexecdir", test_demo_from_libexecdir);
  ADD ("/agent-store/round-trip", test_round_trip);
  ADD ("/agent-store/add-errors", test_add_errors);
  ADD ("/agent-store/malformed", test_malformed);
  ADD ("/agent-store/detect", test_detect);
  ADD ("/agent-store/detect-not-utf8", test_detect_not_utf8);
  ADD ("/agent-store/detect-cancelled", test_detect_cancelled);
  ADD ("/agent-store/edit-preset", test_edit_preset);
  ADD ("/agent-store/external-change", test_external_change);

#undef ADD

  return g_test_run ();
}
