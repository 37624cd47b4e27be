/* pal-session-menu.h: the actions of one session, with why some are unavailable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pal-session-key.h"

G_BEGIN_DECLS

/* Whether the session can do @action (a win.* action name); if not, *reason
 * says why (transfer full, may stay NULL). An optional action (win.fork-session)
 * that the session cannot do, without a reason, is left out of the menu. */
typedef gboolean (*PalSessionMenuCanFunc) (PalSessionKey  *key,
                                           const char     *action,
                                           char          **reason,
                                           gpointer        user_data);

GtkWidget *pal_session_menu_new    (void);
void       pal_session_menu_update (GtkWidget             *menu,
                                    PalSessionKey         *key,
                                    gboolean               pinned,
                                    PalSessionMenuCanFunc  can_func,
                                    gpointer               user_data);

G_END_DECLS
