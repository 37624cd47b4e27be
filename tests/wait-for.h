/* wait-for.h: running the main loop until a condition holds, for the
 * widget tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

typedef gboolean (*Condition) (gpointer data);

static inline gboolean
wait_for_timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main loop until @cond holds, for 10 s at most.
 * Returns: whether it held */
static inline gboolean
wait_until (Condition cond,
            gpointer  data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (10000, wait_for_timeout_cb, &timed_out);

  while (!cond (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (id);

  return !timed_out;
}

/* Iterates the main loop until @cond holds; fails the test after 10 s. */
static inline void
wait_for (Condition cond,
          gpointer  data)
{
  g_assert_true (wait_until (cond, data));
}

/* Runs the main loop for @ms milliseconds */
static inline void
pause_for (guint ms)
{
  gboolean paused = FALSE;

  g_timeout_add (ms, wait_for_timeout_cb, &paused);
  while (!paused)
    g_main_context_iteration (NULL, TRUE);
}
