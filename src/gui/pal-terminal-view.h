/* pal-terminal-view.h: the output of a command a tool call runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-terminal-service.h"
#include "pal-output-view.h"

G_BEGIN_DECLS

#define PAL_TYPE_TERMINAL_VIEW (pal_terminal_view_get_type ())

G_DECLARE_FINAL_TYPE (PalTerminalView, pal_terminal_view, PAL, TERMINAL_VIEW, AdwBin)

GtkWidget     *pal_terminal_view_new             (AcpTerminalService *service,
                                                 const char         *terminal_id);
gboolean       pal_terminal_view_get_live        (PalTerminalView    *self);
void           pal_terminal_view_set_command     (PalTerminalView    *self,
                                                 const char         *command);
void           pal_terminal_view_set_output      (PalTerminalView    *self,
                                                 const char         *output);
void           pal_terminal_view_append_output   (PalTerminalView    *self,
                                                 const char         *text);
void           pal_terminal_view_set_state       (PalTerminalView    *self,
                                                 gboolean            running,
                                                 int                 exit_status,
                                                 const char         *signal_name);
char          *pal_terminal_view_dup_text        (PalTerminalView    *self);
char          *pal_terminal_view_dup_status      (PalTerminalView    *self);
PalOutputView *pal_terminal_view_get_output_view (PalTerminalView    *self);

G_END_DECLS
