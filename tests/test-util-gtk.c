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

/* The log writer of test_tolerate_scroll_warning () */
static GLogWriterOutput
tolerating_writer (GLogLevelFlags   log_level,
                   const GLogField *fields,
                   gsize            n_fields,
                   gpointer         user_data)
{
  const char *domain = NULL;
  const char *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (fields[i].length >= 0)
        continue;
      if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0)
        domain = fields[i].value;
      else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0)
        message = fields[i].value;
    }

  if ((log_level & G_LOG_LEVEL_WARNING) && g_strcmp0 (domain, "Gtk") == 0 &&
      message != NULL && strstr (message, "failed to scroll to given position") != NULL)
    return G_LOG_WRITER_HANDLED;

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

void
test_tolerate_scroll_warning (void)
{
  /* GTK logs it structured: the writer decides, g_test_log_set_fatal_handler () is
   * not asked */
  g_log_set_writer_func (tolerating_writer, NULL, NULL);
}
