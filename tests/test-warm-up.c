/* test-warm-up.c: loading ahead what the first answer would load
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>

#include "pal-warm-up.h"
#include "test-util.h"


static gboolean
done (gpointer data)
{
  return pal_warm_up_is_done (data);
}

/* Runs once for a display; a widget gone first leaves it to the next one */
static void
test_once_per_display (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  GtkWidget *label = g_object_ref_sink (gtk_label_new ("gone"));
  GtkWidget *window;

  g_assert_false (pal_warm_up_is_done (display));

  /* the widget goes before the first step: nothing loaded */
  pal_warm_up_start (label);
  g_object_unref (label);
  test_drain_main_context ();
  g_assert_false (pal_warm_up_is_done (display));

  /* a window: everything, one step an idle iteration */
  window = gtk_window_new ();
  gtk_window_present (GTK_WINDOW (window));
  pal_warm_up_start (window);
  pal_warm_up_start (window);   /* already under way: not twice */
  g_assert_false (pal_warm_up_is_done (display));
  WAIT_UNTIL (done (display));

  /* and done for good: a later window does not start again */
  pal_warm_up_start (window);
  g_assert_true (pal_warm_up_is_done (display));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/warm-up/once-per-display", test_once_per_display);

  return g_test_run ();
}
