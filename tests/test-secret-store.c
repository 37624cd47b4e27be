/* test-secret-store.c: agents' secret values in a real Secret Service, and
 * where they go when there is none
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/secret-service.sh runs this program twice on a private bus: once
 * with gnome-keyring-daemon answering ("keyring"), once with no Secret
 * Service at all ("none"); $PALAVER_TEST_SECRET_SERVICE says which, and each
 * test skips itself on the other. The agent is the fake agent playing
 * auth-env-var.json: session/new fails with "authentication required"
 * unless FAKE_API_KEY is sk-test in its environment.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <libsecret/secret.h>

#include "pal-error.h"
#include "pal-secret-store.h"
#include "pal-session-manager.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"
#define AGENT_ID  "keyed"

typedef struct
{
  GSettingsBackend  *backend;
  GSettings         *settings;
  PalSecretStore    *secrets;
  PalAgentStore     *agents;
  PalSessionStore   *sessions;
  PalSessionManager *manager;
  char              *folder;
  GAsyncResult      *result;
} Fixture;

static gboolean
have_keyring (void)
{
  return g_strcmp0 (g_getenv ("PALAVER_TEST_SECRET_SERVICE"), "keyring") == 0;
}

/* Whether the test runs where it means to; skips it otherwise. */
static gboolean
runs_with (gboolean keyring)
{
  if (g_getenv ("PALAVER_TEST_SECRET_SERVICE") == NULL)
    {
      g_test_skip ("Not run by tests/secret-service.sh");
      return FALSE;
    }
  if (have_keyring () != keyring)
    {
      g_test_skip (keyring ? "Needs a Secret Service" : "Needs no Secret Service");
      return FALSE;
    }
  return TRUE;
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Fixture *f = user_data;

  g_assert_null (f->result);
  f->result = g_object_ref (result);
}

static GAsyncResult *
wait_result (Fixture *f)
{
  return WAIT_RESULT (&f->result);
}

static void
add_profile (Fixture    *f,
             const char *id)
{
  const char *args[] = { "auth-env-var.json", NULL };
  g_autoptr(PalAgentProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = pal_agent_profile_new (id, "Keyed Agent", g_getenv ("PALAVER_FAKE_AGENT"), args);
  g_assert_true (pal_agent_store_add (f->agents, profile, &error));
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *folder = NULL;

  f->backend = g_memory_settings_backend_new ();
  f->settings = g_settings_new_with_backend (SCHEMA_ID, f->backend);
  f->secrets = pal_secret_store_new ();
  f->agents = pal_agent_store_new (f->settings);
  pal_agent_store_set_secret_store (f->agents, f->secrets);
  f->sessions = pal_session_store_new (f->settings);
  /* no window, no frames: no pacer */
  f->manager = pal_session_manager_new (f->agents, f->sessions, NULL, NULL);
  folder = test_make_tmpdir ("palaver-secrets");
  f->folder = g_canonicalize_filename (folder, NULL);

  add_profile (f, AGENT_ID);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_shutdown_async (f->manager, NULL, store_result_cb, f);
  result = wait_result (f);
  g_assert_true (pal_session_manager_shutdown_finish (f->manager, result, NULL));

  g_clear_object (&f->manager);
  g_clear_object (&f->sessions);
  g_clear_object (&f->agents);
  g_clear_object (&f->secrets);
  g_clear_object (&f->settings);
  g_clear_object (&f->backend);
  g_free (f->folder);
  /* the shared Secret Service proxy, and what it holds, go with each test:
   * what is left after it is lost */
  secret_service_disconnect ();
}

/* --- helpers --- */

static char **
lookup (Fixture            *f,
        const char         *agent_id,
        const char * const *names)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char **values;

  pal_secret_store_lookup_async (f->secrets, agent_id, names, NULL, store_result_cb, f);
  result = wait_result (f);
  values = pal_secret_store_lookup_finish (f->secrets, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (values);

  return values;
}

static void
save (Fixture            *f,
      const char         *agent_id,
      const char * const *entries)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean saved;

  pal_secret_store_save_async (f->secrets, agent_id, "An Agent", entries, NULL, store_result_cb, f);
  result = wait_result (f);
  saved = pal_secret_store_save_finish (f->secrets, result, &error);
  g_assert_no_error (error);
  g_assert_true (saved);
}

static void
clear (Fixture    *f,
       const char *agent_id,
       const char *name)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_secret_store_clear_async (f->secrets, agent_id, name, NULL, store_result_cb, f);
  result = wait_result (f);
  g_assert_true (pal_secret_store_clear_finish (f->secrets, result, &error));
  g_assert_no_error (error);
}

/* Whether the keyring holds a value of @name for the agent */
static gboolean
keyring_holds (Fixture    *f,
               const char *agent_id,
               const char *name)
{
  const char *names[] = { name, NULL };
  g_auto(GStrv) values = lookup (f, agent_id, names);

  return values[0] != NULL;
}

/* Waits until the keyring has no value of @name for the agent: what the
 * agent store removes, it removes without telling when, so this asks again
 * and again. */
static void
wait_until_gone (Fixture    *f,
                 const char *agent_id,
                 const char *name)
{
  POLL_UNTIL (!keyring_holds (f, agent_id, name));
}

static gboolean
save_values (Fixture            *f,
             const char         *agent_id,
             const char * const *entries)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean in_keyring = -1;

  pal_agent_store_save_values_async (f->agents, agent_id, entries, NULL, store_result_cb, f);
  result = wait_result (f);
  g_assert_true (pal_agent_store_save_values_finish (f->agents, result, &in_keyring, &error));
  g_assert_no_error (error);
  g_assert_true (in_keyring == TRUE || in_keyring == FALSE);

  return in_keyring;
}

static AcpSession *
new_session (Fixture            *f,
             PalSessionManager  *manager,
             GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_new_session_async (manager, AGENT_ID, f->folder, NULL, NULL, NULL,
                                         store_result_cb, f);
  result = wait_result (f);
  return pal_session_manager_new_session_finish (manager, result, error);
}

/* --- with a keyring --- */

static void
test_store_lookup_clear (Fixture       *f,
                         gconstpointer  data)
{
  const char *entries[] = { "FIRST_KEY=one", "SECOND_KEY=two=2", NULL };
  const char *names[] = { "SECOND_KEY", "MISSING_KEY", "FIRST_KEY", NULL };
  const char *found[] = { "SECOND_KEY=two=2", "FIRST_KEY=one", NULL };
  const char *replaced[] = { "SECOND_KEY=three", NULL };
  const char *first[] = { "FIRST_KEY=one", NULL };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;

  if (!runs_with (TRUE))
    return;

  pal_secret_store_probe_async (f->secrets, NULL, store_result_cb, f);
  result = wait_result (f);
  g_assert_true (pal_secret_store_probe_finish (f->secrets, result, &error));
  g_assert_no_error (error);

  save (f, "agent-a", entries);
  values = lookup (f, "agent-a", names);
  g_assert_true (g_strv_equal ((const char * const *) values, found));
  g_clear_pointer (&values, g_strfreev);

  /* another agent's values are its own */
  values = lookup (f, "agent-b", names);
  g_assert_cmpuint (g_strv_length (values), ==, 0);
  g_clear_pointer (&values, g_strfreev);

  /* a value stored again replaces the old one */
  save (f, "agent-a", replaced);
  values = lookup (f, "agent-a", (const char *[]) { "SECOND_KEY", NULL });
  g_assert_true (g_strv_equal ((const char * const *) values, replaced));
  g_clear_pointer (&values, g_strfreev);

  /* one value, then all of them */
  clear (f, "agent-a", "SECOND_KEY");
  values = lookup (f, "agent-a", names);
  g_assert_true (g_strv_equal ((const char * const *) values, first));
  g_clear_pointer (&values, g_strfreev);
  clear (f, "agent-a", NULL);
  values = lookup (f, "agent-a", names);
  g_assert_cmpuint (g_strv_length (values), ==, 0);
  /* nothing left to remove is no error */
  clear (f, "agent-a", NULL);
}

/* A key given at sign-in goes to the keyring, not to the settings, and the
 * agent finds it in its environment at its next start, in this run and
 * the next. */
static void
test_sign_in_keeps_key_in_keyring (Fixture       *f,
                                   gconstpointer  data)
{
  const char *entries[] = { "FAKE_API_KEY=sk-test", NULL };
  const char *secrets[] = { "FAKE_API_KEY", NULL };
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(AcpSession) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) stored = NULL;
  g_autofree char *stored_text = NULL;
  g_autoptr(AcpAgent) first_agent = NULL;
  PalAgentProfile *profile;

  if (!runs_with (TRUE))
    return;

  session = new_session (f, f->manager, &error);
  g_assert_null (session);
  g_assert_true (pal_session_manager_error_is_auth_required (error));
  g_clear_error (&error);
  first_agent = g_object_ref (pal_session_manager_lookup_agent (f->manager, AGENT_ID, f->folder));

  g_assert_true (save_values (f, AGENT_ID, entries));
  profile = pal_agent_store_lookup (f->agents, AGENT_ID);
  g_assert_cmpuint (g_strv_length ((char **) pal_agent_profile_get_env (profile)), ==, 0);
  g_assert_true (g_strv_equal (pal_agent_profile_get_secrets (profile), secrets));
  stored = g_settings_get_value (f->settings, "agents");
  stored_text = g_variant_print (stored, FALSE);
  g_assert_null (strstr (stored_text, "sk-test"));
  g_assert_nonnull (strstr (stored_text, "FAKE_API_KEY"));

  /* the agent that refused is replaced by one that has the key */
  session = new_session (f, f->manager, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
  g_assert_true (acp_session_get_agent (session) != first_agent);

  /* a new value under the same name: the agent in use has the old one */
  g_assert_false (pal_session_manager_is_agent_out_of_date (f->manager, AGENT_ID));
  g_assert_true (save_values (f, AGENT_ID, (const char *[]) { "FAKE_API_KEY=sk-test", NULL }));
  g_assert_true (pal_session_manager_is_agent_out_of_date (f->manager, AGENT_ID));

  /* Palaver started again: the same settings, a new store and manager */
  {
    g_autoptr(PalAgentStore) agents = pal_agent_store_new (f->settings);
    g_autoptr(PalSessionManager) manager = NULL;
    g_autoptr(GAsyncResult) result = NULL;

    pal_agent_store_set_secret_store (agents, f->secrets);
    manager = pal_session_manager_new (agents, f->sessions, NULL, NULL);
    again = new_session (f, manager, &error);
    g_assert_no_error (error);
    g_assert_nonnull (again);

    pal_session_manager_shutdown_async (manager, NULL, store_result_cb, f);
    result = wait_result (f);
    g_assert_true (pal_session_manager_shutdown_finish (manager, result, NULL));
  }
}

/* The command of a sign-in in a terminal has the keyring's values too. */
static void
test_sign_in_command_has_secrets (Fixture       *f,
                                  gconstpointer  data)
{
  const char *entries[] = { "FAKE_API_KEY=sk-test", NULL };
  const char *args[] = { "auth-terminal.json", NULL };
  g_autoptr(PalAgentProfile) profile = NULL;
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;

  if (!runs_with (TRUE))
    return;

  profile = pal_agent_profile_new ("terminal", "Terminal Agent", g_getenv ("PALAVER_FAKE_AGENT"), args);
  g_assert_true (pal_agent_store_add (f->agents, profile, &error));
  g_assert_no_error (error);
  g_assert_true (save_values (f, "terminal", entries));

  pal_session_manager_start_agent_async (f->manager, "terminal", f->folder, NULL, store_result_cb, f);
  result = wait_result (f);
  agent = pal_session_manager_start_agent_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  pal_session_manager_sign_in_command_async (f->manager, "terminal", f->folder,
                                             acp_agent_get_auth_method (agent, "fake-login"), NULL,
                                             store_result_cb, f);
  result = wait_result (f);
  argv = pal_session_manager_sign_in_command_finish (f->manager, result, &env, &cwd, &error);
  g_assert_no_error (error);
  g_assert_nonnull (argv);
  g_assert_true (g_strv_contains ((const char * const *) env, "FAKE_API_KEY=sk-test"));
  g_assert_true (g_strv_contains ((const char * const *) env,
                                  "FAKE_LOGIN_GREETING=Welcome to the fake service"));
}

/* Removing a value from the profile, or the profile, removes it from the
 * keyring. */
static void
test_removing_forgets (Fixture       *f,
                       gconstpointer  data)
{
  const char *entries[] = { "FAKE_API_KEY=sk-test", "FAKE_ORG=acme", NULL };
  const char *org[] = { "FAKE_ORG", NULL };
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;

  if (!runs_with (TRUE))
    return;

  g_assert_true (save_values (f, AGENT_ID, entries));
  values = lookup (f, AGENT_ID, (const char *[]) { "FAKE_API_KEY", "FAKE_ORG", NULL });
  g_assert_true (g_strv_equal ((const char * const *) values, entries));

  edited = pal_agent_profile_copy (pal_agent_store_lookup (f->agents, AGENT_ID));
  pal_agent_profile_set_secrets (edited, org);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);
  wait_until_gone (f, AGENT_ID, "FAKE_API_KEY");
  g_clear_pointer (&values, g_strfreev);
  values = lookup (f, AGENT_ID, org);
  g_assert_true (g_strv_equal ((const char * const *) values, (const char *[]) { "FAKE_ORG=acme", NULL }));

  g_assert_true (pal_agent_store_remove (f->agents, AGENT_ID, &error));
  g_assert_no_error (error);
  wait_until_gone (f, AGENT_ID, "FAKE_ORG");
}

/* --- without one --- */

/* No keyring answers: the key goes to the profile, as it always did, and
 * the agent still gets it. */
static void
test_fallback_to_settings (Fixture       *f,
                           gconstpointer  data)
{
  const char *entries[] = { "FAKE_API_KEY=sk-test", NULL };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  PalAgentProfile *profile;

  if (!runs_with (FALSE))
    return;

  pal_secret_store_probe_async (f->secrets, NULL, store_result_cb, f);
  result = wait_result (f);
  g_assert_false (pal_secret_store_probe_finish (f->secrets, result, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_assert_false (save_values (f, AGENT_ID, entries));
  profile = pal_agent_store_lookup (f->agents, AGENT_ID);
  g_assert_true (g_strv_equal (pal_agent_profile_get_env (profile), entries));
  g_assert_cmpuint (g_strv_length ((char **) pal_agent_profile_get_secrets (profile)), ==, 0);

  session = new_session (f, f->manager, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
}

/* A profile that names values in a keyring that no longer answers: the
 * agent starts without them, and asks for a sign-in. */
static void
test_keyring_gone (Fixture       *f,
                   gconstpointer  data)
{
  const char *secrets[] = { "FAKE_API_KEY", NULL };
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;

  if (!runs_with (FALSE))
    return;

  edited = pal_agent_profile_copy (pal_agent_store_lookup (f->agents, AGENT_ID));
  pal_agent_profile_set_secrets (edited, secrets);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);

  session = new_session (f, f->manager, &error);
  g_assert_null (session);
  g_assert_true (pal_session_manager_error_is_auth_required (error));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/secret-store/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("keyring/store-lookup-clear", test_store_lookup_clear);
  ADD ("keyring/sign-in", test_sign_in_keeps_key_in_keyring);
  ADD ("keyring/sign-in-command", test_sign_in_command_has_secrets);
  ADD ("keyring/removing-forgets", test_removing_forgets);
  ADD ("none/fallback", test_fallback_to_settings);
  ADD ("none/keyring-gone", test_keyring_gone);

  return g_test_run ();
}
