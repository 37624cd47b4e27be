/* pal-find-bar.h: finding text in the open session's chat
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-chat-view.h"

G_BEGIN_DECLS

#define PAL_TYPE_FIND_BAR (pal_find_bar_get_type ())

G_DECLARE_FINAL_TYPE (PalFindBar, pal_find_bar, PAL, FIND_BAR, AdwBin)

GtkWidget *pal_find_bar_new            (void);
void       pal_find_bar_set_chat_view  (PalFindBar  *self,
                                        PalChatView *chat_view);
void       pal_find_bar_open           (PalFindBar  *self);
void       pal_find_bar_close          (PalFindBar  *self);
gboolean   pal_find_bar_get_open       (PalFindBar  *self);
void       pal_find_bar_set_text       (PalFindBar  *self,
                                        const char  *text);
void       pal_find_bar_next           (PalFindBar  *self);
void       pal_find_bar_previous       (PalFindBar  *self);
guint      pal_find_bar_get_n_matches  (PalFindBar  *self);
/* The match shown, from 0; G_MAXUINT for none */
guint      pal_find_bar_get_current    (PalFindBar  *self);

G_END_DECLS
