/* pal-launcher.h: run agents and stdio MCP servers where the person's tools are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PAL_LAUNCHER_SANDBOX_DETECT,   /* look at the environment we run in */
  PAL_LAUNCHER_SANDBOX_NONE,     /* run the command as it is */
  PAL_LAUNCHER_SANDBOX_FLATPAK,  /* run the command on the host through flatpak-spawn */
} PalLauncherSandbox;

/* Flatpak when PALAVER_FORCE_FLATPAK is "1", none when it is "0", otherwise
 * Flatpak when /.flatpak-info exists. Never returns _DETECT. */
PalLauncherSandbox pal_launcher_detect_sandbox (void);

/* Turns a command (argv, environment additions as "NAME=VALUE", working
 * directory, both nullable) into what to hand to GSubprocessLauncher or
 * acp_agent_new(): the returned argv, *out_env (additions, never NULL, maybe
 * empty) and *out_cwd (NULL: keep the current directory).
 *
 * Outside a sandbox these are copies of the input. Inside Flatpak the command
 * runs on the host — where the agents, node and the person's tools are — as
 *   flatpak-spawn --host --watch-bus [--directory=CWD] [--env=NAME=VALUE ...] ARGV...
 * with no environment additions and no working directory of its own (both
 * travel as options, and the host path may not exist in the sandbox).
 * --watch-bus ends the host command when Palaver goes away.
 *
 * An empty cwd counts as none. Fails with PAL_ERROR_INVALID on an empty
 * argv, a program name starting with "-", a relative cwd, or an environment
 * entry without "=" or with an empty name. */
char **pal_launcher_wrap_argv (PalLauncherSandbox   sandbox,
                               const char * const  *argv,
                               const char * const  *env,
                               const char          *cwd,
                               char              ***out_env,
                               char               **out_cwd,
                               GError             **error);

G_END_DECLS
