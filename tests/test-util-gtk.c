/* test-util-gtk.c: the waits of test-util.h that need a widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "test-util.h"

static void
frame_painted_cb (GdkFrameClock *clock,
                  guint         *n_painted)
{
  (*n_painted)++;
}

void
test_wait_frames (gpointer widget,
                  guint    n_frames)
{
  GtkWidget *window;
  GdkFrameClock *clock;
  guint n_painted = 0;
  gulong handler;

  g_assert_true (GTK_IS_WIDGET (widget));
  window = GTK_WIDGET (gtk_widget_get_root (widget));
  g_assert_nonnull (window);
  clock = gtk_widget_get_frame_clock (window);
  g_assert_nonnull (clock);

  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (frame_painted_cb), &n_painted);
  for (guint i = 0; i < n_frames; i++)
    {
      gtk_widget_queue_draw (window);
      WAIT_UNTIL (n_painted > i);
    }
  g_signal_handler_disconnect (clock, handler);
}

gpointer
test_app_new (const char *application_id)
{
  g_autoptr(GError) error = NULL;
  GApplication *app = g_object_new (ADW_TYPE_APPLICATION,
                                    "application-id", application_id,
                                    "resource-base-path", RESOURCE_BASE,
                                    "flags", G_APPLICATION_NON_UNIQUE,
                                    NULL);

  g_application_register (app, NULL, &error);
  g_assert_no_error (error);
  return app;
}

gboolean
test_tolerate_scroll_warning (const char     *log_domain,
                              GLogLevelFlags  log_level,
                              const char     *message,
                              gpointer        user_data)
{
  return !(g_strcmp0 (log_domain, "Gtk") == 0 && (log_level & G_LOG_LEVEL_WARNING) &&
           strstr (message, "failed to scroll to given position") != NULL);
}
