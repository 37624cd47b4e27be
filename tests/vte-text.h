/* vte-text.h: what a VTE terminal shows, for the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <vte/vte.h>

/* Returns: (transfer full): the text on the terminal's screen and in its
 * scrollback */
static inline char *
vte_text (GtkWidget *terminal)
{
#if VTE_CHECK_VERSION (0, 76, 0)
  return vte_terminal_get_text_format (VTE_TERMINAL (terminal), VTE_FORMAT_TEXT);
#else
  return vte_terminal_get_text (VTE_TERMINAL (terminal), NULL, NULL, NULL);
#endif
}
