/* pal-terminal-view.h: the live output of a terminal a tool call embeds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-terminal-service.h"

G_BEGIN_DECLS

#define PAL_TYPE_TERMINAL_VIEW (pal_terminal_view_get_type ())

G_DECLARE_FINAL_TYPE (PalTerminalView, pal_terminal_view, PAL, TERMINAL_VIEW, AdwBin)

GtkWidget *pal_terminal_view_new      (AcpTerminalService *service,
                                       const char         *terminal_id);
char      *pal_terminal_view_dup_text (PalTerminalView    *self);

G_END_DECLS
