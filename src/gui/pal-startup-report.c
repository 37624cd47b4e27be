/* pal-startup-report.c: how long the start took, for the start-up benchmark
 *
 * With PALAVER_REPORT_STARTUP set in the environment (bench/bench-startup.c
 * sets it), the application prints one line on stdout about its start:
 *
 *   startup_us=… window_us=… first_frame_us=… cpu_us=… sessions=…
 *
 * The times are CLOCK_MONOTONIC (g_get_monotonic_time()), which the parent
 * process shares, so it subtracts the time it launched the process: when
 * GApplication's startup ended (the display is open, the name on the bus
 * taken), when the main window was built, when its first frame was painted
 * (the first "after-paint" of its frame clock while it is mapped). cpu_us is
 * the process's user and system time by then, all threads; sessions is how
 * many sessions the list held then.
 *
 * With the value "quit" the line comes at the first frame and the
 * application quits right after, without saving anything. With "settle" it
 * goes on for a second, for what start-up left to later frames, and adds
 *
 *   later_frames=… longest_later_frame_us=…
 *
 * (frames painted in that second, and the longest of them from
 * "before-paint" to "after-paint": their updates, layout and paint), then
 * quits. Any other value prints the line at the first frame and goes on.
 * Without the variable none of this costs more than one getenv().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <sys/resource.h>

#include "pal-startup-report.h"

#define ENV_VARIABLE "PALAVER_REPORT_STARTUP"
#define SETTLE_MS    1000

static struct
{
  gboolean  checked;
  gboolean  enabled;
  gboolean  quit;
  gboolean  settle;
  gint64    startup;
  gint64    window;
} report;

static gboolean
enabled (void)
{
  if (!report.checked)
    {
      const char *value = g_getenv (ENV_VARIABLE);

      report.checked = TRUE;
      report.enabled = value != NULL && *value != '\0';
      report.quit = g_strcmp0 (value, "quit") == 0;
      report.settle = g_strcmp0 (value, "settle") == 0;
    }
  return report.enabled;
}

/**
 * pal_startup_report_startup_done:
 *
 * Notes that GApplication's startup has run.
 */
void
pal_startup_report_startup_done (void)
{
  if (enabled () && report.startup == 0)
    report.startup = g_get_monotonic_time ();
}

static gint64
cpu_time_us (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return -1;
  return (gint64) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

typedef struct
{
  GtkWidget     *window;    /* (weak) */
  GListModel    *sessions;
  GdkFrameClock *clock;
  gulong         before_id;
  gulong         after_id;
  GString       *line;
  /* after the first frame */
  gint64         frame_start;
  guint          n_later;
  gint64         longest_later;
  guint          settle_id;
} Watch;

static void
watch_free (Watch *watch)
{
  g_clear_handle_id (&watch->settle_id, g_source_remove);
  if (watch->clock != NULL)
    {
      g_clear_signal_handler (&watch->before_id, watch->clock);
      g_clear_signal_handler (&watch->after_id, watch->clock);
    }
  g_clear_object (&watch->clock);
  if (watch->window != NULL)
    g_object_remove_weak_pointer (G_OBJECT (watch->window), (gpointer *) &watch->window);
  g_clear_object (&watch->sessions);
  if (watch->line != NULL)
    g_string_free (watch->line, TRUE);
  g_free (watch);
}

/* Prints the line, quits when asked to, and ends the watch. */
static void
finish (Watch *watch)
{
  GtkApplication *app = watch->window != NULL
    ? gtk_window_get_application (GTK_WINDOW (watch->window)) : NULL;

  if (report.settle)
    g_string_append_printf (watch->line, " later_frames=%u longest_later_frame_us=%" G_GINT64_FORMAT,
                            watch->n_later, watch->longest_later);
  printf ("%s\n", watch->line->str);
  fflush (stdout);

  if ((report.quit || report.settle) && app != NULL)
    g_application_quit (G_APPLICATION (app));

  watch_free (watch);
}

static gboolean
settled_cb (gpointer user_data)
{
  Watch *watch = user_data;

  watch->settle_id = 0;
  finish (watch);
  return G_SOURCE_REMOVE;
}

static void
before_paint_cb (GdkFrameClock *clock,
                 Watch         *watch)
{
  watch->frame_start = g_get_monotonic_time ();
}

static void
after_paint_cb (GdkFrameClock *clock,
                Watch         *watch)
{
  gint64 now = g_get_monotonic_time ();

  if (watch->line != NULL)
    {
      /* a frame after the first */
      watch->n_later++;
      if (watch->frame_start > 0)
        watch->longest_later = MAX (watch->longest_later, now - watch->frame_start);
      return;
    }

  if (watch->window == NULL || !gtk_widget_get_mapped (watch->window))
    return;

  watch->line = g_string_new (NULL);
  g_string_append_printf (watch->line,
                          "startup_us=%" G_GINT64_FORMAT " window_us=%" G_GINT64_FORMAT
                          " first_frame_us=%" G_GINT64_FORMAT " cpu_us=%" G_GINT64_FORMAT
                          " sessions=%u",
                          report.startup, report.window, now, cpu_time_us (),
                          g_list_model_get_n_items (watch->sessions));

  if (report.settle)
    watch->settle_id = g_timeout_add (SETTLE_MS, settled_cb, watch);
  else
    finish (watch);
}

static void
window_realize_cb (GtkWidget *window,
                   Watch     *watch)
{
  g_signal_handlers_disconnect_by_func (window, window_realize_cb, watch);

  watch->clock = g_object_ref (gtk_widget_get_frame_clock (window));
  watch->before_id = g_signal_connect (watch->clock, "before-paint", G_CALLBACK (before_paint_cb),
                                       watch);
  watch->after_id = g_signal_connect (watch->clock, "after-paint", G_CALLBACK (after_paint_cb),
                                      watch);
}

/**
 * pal_startup_report_watch:
 * @window: the main window, just built and not realized yet
 * @sessions: the session list
 *
 * Notes that the main window was built, and reports when it first painted.
 */
void
pal_startup_report_watch (GtkWindow  *window,
                          GListModel *sessions)
{
  Watch *watch;

  g_return_if_fail (GTK_IS_WINDOW (window));
  g_return_if_fail (G_IS_LIST_MODEL (sessions));

  /* one report per process: the first window's */
  if (!enabled () || report.window != 0)
    return;
  report.window = g_get_monotonic_time ();

  watch = g_new0 (Watch, 1);
  watch->window = GTK_WIDGET (window);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &watch->window);
  watch->sessions = g_object_ref (sessions);
  g_signal_connect (window, "realize", G_CALLBACK (window_realize_cb), watch);
}
