/* test-launcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>

#include "pal-error.h"
#include "pal-launcher.h"

static const char * const command[] = {
  "/usr/bin/env", "my agent", "--flag=a b", "", "x=y", NULL
};

static const char * const environment[] = {
  "TOKEN=abc=def==", "GREETING=hello world", "EMPTY=", NULL
};

static void
assert_strv (char               **actual,
             const char * const  *expected)
{
  g_assert_nonnull (actual);
  for (guint i = 0; expected[i] != NULL; i++)
    {
      g_assert_nonnull (actual[i]);
      g_assert_cmpstr (actual[i], ==, expected[i]);
    }
  g_assert_cmpuint (g_strv_length (actual), ==, g_strv_length ((char **) expected));
}

static void
test_launcher_none_unchanged (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;

  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_NONE, command, environment,
                                 "/tmp/a project", &env, &cwd, &error);
  g_assert_no_error (error);
  assert_strv (argv, command);
  assert_strv (env, environment);
  g_assert_cmpstr (cwd, ==, "/tmp/a project");

  /* copies, not the caller's arrays */
  g_assert_true ((gpointer) argv != (gpointer) command);
  g_assert_true ((gpointer) env != (gpointer) environment);
}

static void
test_launcher_none_defaults (void)
{
  static const char * const bare[] = { "agent", NULL };
  static const char * const nothing[] = { NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;

  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_NONE, bare, NULL, "",
                                 &env, &cwd, &error);
  g_assert_no_error (error);
  assert_strv (argv, bare);
  assert_strv (env, nothing);
  g_assert_null (cwd);
}

static void
test_launcher_flatpak_wraps (void)
{
  static const char * const expected[] = {
    "flatpak-spawn", "--host", "--watch-bus",
    "--directory=/home/me/a project",
    "--env=TOKEN=abc=def==", "--env=GREETING=hello world", "--env=EMPTY=",
    "/usr/bin/env", "my agent", "--flag=a b", "", "x=y",
    NULL
  };
  static const char * const nothing[] = { NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;

  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_FLATPAK, command, environment,
                                 "/home/me/a project", &env, &cwd, &error);
  g_assert_no_error (error);
  assert_strv (argv, expected);
  /* the environment and the folder travel as options, not on the launcher */
  assert_strv (env, nothing);
  g_assert_null (cwd);
}

static void
test_launcher_flatpak_bare (void)
{
  static const char * const bare[] = { "codex-acp", NULL };
  static const char * const expected[] = {
    "flatpak-spawn", "--host", "--watch-bus", "codex-acp", NULL
  };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;

  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_FLATPAK, bare, NULL, NULL,
                                 &env, &cwd, &error);
  g_assert_no_error (error);
  assert_strv (argv, expected);
  g_assert_nonnull (env);
  g_assert_null (env[0]);
  g_assert_null (cwd);
}

static void
test_launcher_detect (void)
{
  static const char * const bare[] = { "agent", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("PALAVER_FORCE_FLATPAK"));
  PalLauncherSandbox real;

  g_setenv ("PALAVER_FORCE_FLATPAK", "1", TRUE);
  g_assert_cmpint (pal_launcher_detect_sandbox (), ==, PAL_LAUNCHER_SANDBOX_FLATPAK);
  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_DETECT, bare, NULL, NULL,
                                 &env, &cwd, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (argv[0], ==, "flatpak-spawn");
  g_assert_cmpstr (argv[3], ==, "agent");
  g_clear_pointer (&argv, g_strfreev);
  g_clear_pointer (&env, g_strfreev);

  g_setenv ("PALAVER_FORCE_FLATPAK", "0", TRUE);
  g_assert_cmpint (pal_launcher_detect_sandbox (), ==, PAL_LAUNCHER_SANDBOX_NONE);
  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_DETECT, bare, NULL, NULL,
                                 &env, &cwd, &error);
  g_assert_no_error (error);
  assert_strv (argv, bare);
  g_clear_pointer (&argv, g_strfreev);
  g_clear_pointer (&env, g_strfreev);

  /* An explicit choice wins over the environment. */
  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_FLATPAK, bare, NULL, NULL,
                                 &env, &cwd, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (argv[0], ==, "flatpak-spawn");
  g_clear_pointer (&argv, g_strfreev);
  g_clear_pointer (&env, g_strfreev);

  /* Without the override, the file decides. */
  g_unsetenv ("PALAVER_FORCE_FLATPAK");
  real = g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS)
         ? PAL_LAUNCHER_SANDBOX_FLATPAK : PAL_LAUNCHER_SANDBOX_NONE;
  g_assert_cmpint (pal_launcher_detect_sandbox (), ==, real);

  if (saved != NULL)
    g_setenv ("PALAVER_FORCE_FLATPAK", saved, TRUE);
}

static void
assert_invalid (const char * const *argv,
                const char * const *env,
                const char         *cwd)
{
  PalLauncherSandbox sandboxes[] = { PAL_LAUNCHER_SANDBOX_NONE, PAL_LAUNCHER_SANDBOX_FLATPAK };

  for (guint i = 0; i < G_N_ELEMENTS (sandboxes); i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) wrapped = NULL;
      g_auto(GStrv) out_env = NULL;
      g_autofree char *out_cwd = NULL;

      wrapped = pal_launcher_wrap_argv (sandboxes[i], argv, env, cwd,
                                        &out_env, &out_cwd, &error);
      g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
      g_assert_null (wrapped);
      g_assert_null (out_env);
      g_assert_null (out_cwd);
    }
}

static void
test_launcher_invalid (void)
{
  static const char * const empty[] = { NULL };
  static const char * const empty_name[] = { "", "x", NULL };
  static const char * const dash[] = { "--help", NULL };
  static const char * const ok[] = { "agent", NULL };
  static const char * const no_equals[] = { "A=1", "NOVALUE", NULL };
  static const char * const no_name[] = { "=value", NULL };

  assert_invalid (NULL, NULL, NULL);
  assert_invalid (empty, NULL, NULL);
  assert_invalid (empty_name, NULL, NULL);
  assert_invalid (dash, NULL, NULL);
  assert_invalid (ok, no_equals, NULL);
  assert_invalid (ok, no_name, NULL);
  assert_invalid (ok, NULL, "relative/dir");
}

/* What comes out is what a launcher needs: the child gets the arguments,
 * the environment additions and the folder exactly. */
static void
test_launcher_none_runs (void)
{
  static const char * const script[] = {
    "/bin/sh", "-c",
    "printf '%s|' \"$PWD\" \"$TOKEN\" \"$GREETING\" \"$#\" \"$1\" \"$2\"",
    "sh", "an arg with  spaces", "k=v=w", NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *real_dir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *expected = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;

  dir = g_dir_make_tmp ("palaver-launcher XXXXXX", &error);
  g_assert_no_error (error);

  argv = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_NONE, script, environment, dir,
                                 &env, &cwd, &error);
  g_assert_no_error (error);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  for (guint i = 0; env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (env[i], "=", 2);

      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }
  if (cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, cwd);

  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (process));

  real_dir = realpath (dir, NULL);
  g_assert_nonnull (real_dir);
  expected = g_strdup_printf ("%s|abc=def==|hello world|2|an arg with  spaces|k=v=w|", real_dir);
  g_assert_cmpstr (out, ==, expected);

  g_assert_no_errno (g_rmdir (dir));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/launcher/none/unchanged", test_launcher_none_unchanged);
  g_test_add_func ("/launcher/none/defaults", test_launcher_none_defaults);
  g_test_add_func ("/launcher/none/runs", test_launcher_none_runs);
  g_test_add_func ("/launcher/flatpak/wraps", test_launcher_flatpak_wraps);
  g_test_add_func ("/launcher/flatpak/bare", test_launcher_flatpak_bare);
  g_test_add_func ("/launcher/detect", test_launcher_detect);
  g_test_add_func ("/launcher/invalid", test_launcher_invalid);

  return g_test_run ();
}
