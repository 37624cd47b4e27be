/* pal-window-show-at.c: showing a session at one of its messages
 *
 * What a hit of the search across every session opens. For now the
 * session is shown and opened as from the list; scrolling to the message
 * and marking it comes with the stored transcript shown in the window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-window-private.h"

/**
 * pal_window_show_session_at:
 * @self: a #PalWindow
 * @key: a session
 * @update_index: the index of a message in the session's stored transcript
 *
 * Shows the session (opening it as pal_window_open_session() does) with
 * the window in front.
 */
void
pal_window_show_session_at (PalWindow     *self,
                            PalSessionKey *key,
                            guint          update_index)
{
  g_return_if_fail (PAL_IS_WINDOW (self));
  g_return_if_fail (key != NULL);

  gtk_window_present (GTK_WINDOW (self));
  pal_window_open_session (self, key);
}
