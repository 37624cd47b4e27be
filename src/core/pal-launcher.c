/* pal-launcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-error.h"
#include "pal-launcher.h"

PalLauncherSandbox
pal_launcher_detect_sandbox (void)
{
  static gsize flatpak_info = 0;
  const char *forced;

  forced = g_getenv ("PALAVER_FORCE_FLATPAK");
  if (g_strcmp0 (forced, "1") == 0)
    return PAL_LAUNCHER_SANDBOX_FLATPAK;
  if (g_strcmp0 (forced, "0") == 0)
    return PAL_LAUNCHER_SANDBOX_NONE;

  /* The file cannot appear or vanish while we run: look once. */
  if (g_once_init_enter (&flatpak_info))
    {
      gboolean exists = g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);

      g_once_init_leave (&flatpak_info, exists ? 2 : 1);
    }

  return flatpak_info == 2 ? PAL_LAUNCHER_SANDBOX_FLATPAK : PAL_LAUNCHER_SANDBOX_NONE;
}

static gboolean
check_command (const char * const  *argv,
               const char * const  *env,
               const char          *cwd,
               GError             **error)
{
  if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0')
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("The command is empty"));
      return FALSE;
    }

  /* flatpak-spawn takes every leading argument that starts with "-" as its
   * own option, and so would any shell; no program is named like that. */
  if (argv[0][0] == '-')
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                   _("The command “%s” starts with “-”"), argv[0]);
      return FALSE;
    }

  if (cwd != NULL && !g_path_is_absolute (cwd))
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                   _("The folder “%s” is not an absolute path"), cwd);
      return FALSE;
    }

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *eq = strchr (env[i], '=');

      if (eq == NULL || eq == env[i])
        {
          g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                       _("The environment entry “%s” is not of the form NAME=VALUE"),
                       env[i]);
          return FALSE;
        }
    }

  return TRUE;
}

char **
pal_launcher_wrap_argv (PalLauncherSandbox   sandbox,
                        const char * const  *argv,
                        const char * const  *env,
                        const char          *cwd,
                        char              ***out_env,
                        char               **out_cwd,
                        GError             **error)
{
  g_autoptr(GPtrArray) wrapped = NULL;

  g_return_val_if_fail (out_env != NULL, NULL);
  g_return_val_if_fail (out_cwd != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  *out_env = NULL;
  *out_cwd = NULL;

  if (cwd != NULL && cwd[0] == '\0')
    cwd = NULL;

  if (!check_command (argv, env, cwd, error))
    return NULL;

  if (sandbox == PAL_LAUNCHER_SANDBOX_DETECT)
    sandbox = pal_launcher_detect_sandbox ();

  if (sandbox != PAL_LAUNCHER_SANDBOX_FLATPAK)
    {
      *out_env = env != NULL ? g_strdupv ((char **) env) : g_new0 (char *, 1);
      *out_cwd = g_strdup (cwd);
      return g_strdupv ((char **) argv);
    }

  wrapped = g_ptr_array_new_null_terminated (8, g_free, TRUE);
  g_ptr_array_add (wrapped, g_strdup ("flatpak-spawn"));
  g_ptr_array_add (wrapped, g_strdup ("--host"));
  g_ptr_array_add (wrapped, g_strdup ("--watch-bus"));
  if (cwd != NULL)
    g_ptr_array_add (wrapped, g_strconcat ("--directory=", cwd, NULL));
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    g_ptr_array_add (wrapped, g_strconcat ("--env=", env[i], NULL));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (wrapped, g_strdup (argv[i]));

  *out_env = g_new0 (char *, 1);
  return (char **) g_ptr_array_free (g_steal_pointer (&wrapped), FALSE);
}
