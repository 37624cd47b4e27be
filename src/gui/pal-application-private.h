/* pal-application-private.h: what the files of the application share
 *
 * pal-application.c      the application: its context, actions, the
 *                        command line that a running instance handles
 * pal-application-cli.c  naming sessions on the command line, and the
 *                        options that only read the history (--export,
 *                        --search), handled without a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-application.h"

G_BEGIN_DECLS

/* An agent profile named on the command line: its id, or its name in any
 * case; NULL when none is */
const char    *_pal_application_find_agent      (PalAgentStore    *agents,
                                                 const char       *name);
/* The session named on the command line as an id or AGENT:ID, with
 * --agent NAME (nullable); NULL with *message set when that names none
 * or several */
PalSessionKey *_pal_application_resolve_session (PalSessionStore  *sessions,
                                                 PalAgentStore    *agents,
                                                 const char       *spec,
                                                 const char       *agent,
                                                 char            **message);
/* --export and --search, in this process, and the check of the options
 * only they or --new take: the exit status, or -1 when the command line
 * is for the running instance */
int            _pal_application_run_local       (GVariantDict     *options);

G_END_DECLS
