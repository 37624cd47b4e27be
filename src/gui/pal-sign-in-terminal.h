/* pal-sign-in-terminal.h: a sign-in that runs in a terminal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PAL_TYPE_SIGN_IN_TERMINAL (pal_sign_in_terminal_get_type ())

G_DECLARE_FINAL_TYPE (PalSignInTerminal, pal_sign_in_terminal, PAL, SIGN_IN_TERMINAL, AdwWindow)

/*
 * Signal "finished" (gboolean signed_in): once, TRUE when the command ended
 * with status 0 (the window then closes), FALSE when the person cancelled
 * or closed it (what runs is stopped).
 */

PalSignInTerminal *pal_sign_in_terminal_new      (GtkWindow          *parent,
                                                  const char         *agent_name,
                                                  const char         *method_name,
                                                  const char         *description);
/* @env: "NAME=VALUE" added to Palaver's environment; @cwd nullable. */
void               pal_sign_in_terminal_start    (PalSignInTerminal  *self,
                                                  const char * const *argv,
                                                  const char * const *env,
                                                  const char         *cwd);
void               pal_sign_in_terminal_cancel   (PalSignInTerminal  *self);
/* The process group of the command that runs, or 0. */
GPid               pal_sign_in_terminal_get_pid  (PalSignInTerminal  *self);
/* Why the last run failed, or NULL while one runs or before any ended. */
const char        *pal_sign_in_terminal_get_problem (PalSignInTerminal *self);
GtkWidget         *pal_sign_in_terminal_get_terminal (PalSignInTerminal *self);

G_END_DECLS
