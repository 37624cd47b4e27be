/* bench-common.c: what the window benchmarks share
 *
 * Frame timing. While a benchmark measures, a tick callback keeps the
 * window's frame clock asking for a frame at every refresh, as a running
 * spinner would, so that the interval between two "after-paint" signals is the
 * time the window could not show anything new: the frame's own layout and
 * paint plus whatever the main loop ran in between. The main loop's poll
 * function is wrapped to tell busy time (between the return of one poll() and
 * the start of the next) from time spent waiting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "bench-common.h"
#include "summary-rows.h"
#include "pal-chat-view.h"
#include "pal-renderer.h"
#include "pal-warm-up.h"

#define WINDOW_WIDTH  1280
#define WINDOW_HEIGHT 900

/* --- environment --- */

void
bench_setup_environment (void)
{
  /* never touch the person's real settings */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, FALSE);
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("NO_AT_BRIDGE", "1", FALSE);
  g_setenv ("LC_ALL", "C.UTF-8", FALSE);
  /* the renderer the application would draw with (GSK_RENDERER wins) */
  pal_renderer_choose ("/dev/dri");
}

const char *
bench_fake_agent_path (void)
{
  const char *path = g_getenv ("PALAVER_FAKE_AGENT");

  return path != NULL && *path != '\0' ? path : BENCH_FAKE_AGENT;
}

static JsonArray *
find_steps (JsonObject *scenario,
            const char *method)
{
  JsonObject *handlers;
  JsonNode *handler;

  if (!json_object_has_member (scenario, "handlers"))
    return NULL;
  handlers = json_object_get_object_member (scenario, "handlers");
  if (handlers == NULL || !json_object_has_member (handlers, method))
    return NULL;

  handler = json_object_get_member (handlers, method);
  if (JSON_NODE_HOLDS_ARRAY (handler))
    return json_node_get_array (handler);

  return NULL;
}

char *
bench_write_scenario (const char  *name,
                      const char  *method,
                      guint        count,
                      GError     **error)
{
  g_autofree char *source = g_build_filename (BENCH_SOURCE_DIR, name, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  JsonArray *steps;
  JsonObject *scenario;
  gboolean found = FALSE;
  int fd;

  if (!json_parser_load_from_file (parser, source, error))
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s is not a scenario", source);
      return NULL;
    }
  scenario = json_node_get_object (json_parser_get_root (parser));

  steps = find_steps (scenario, method);
  for (guint i = 0; steps != NULL && i < json_array_get_length (steps) && !found; i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);

      if (step != NULL && g_strcmp0 (json_object_get_string_member_with_default (step, "op", ""),
                                     "updates") == 0)
        {
          if (count > 0)
            json_object_set_int_member (step, "count", count);
          found = TRUE;
        }
    }
  if (!found)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s has no \"updates\" step for %s", source, method);
      return NULL;
    }

  generator = json_generator_new ();
  json_generator_set_root (generator, json_parser_get_root (parser));
  text = json_generator_to_data (generator, NULL);

  fd = g_file_open_tmp ("palaver-bench-XXXXXX.json", &path, error);
  if (fd < 0)
    return NULL;
  close (fd);

  if (!g_file_set_contents (path, text, -1, error))
    {
      g_unlink (path);
      return NULL;
    }

  return g_steal_pointer (&path);
}

/* --- main loop helpers --- */

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
bench_wait (BenchCondition cond,
            gpointer       data,
            guint          seconds)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (seconds, timeout_cb, &timed_out);

  while (!cond (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (id);

  return !timed_out;
}

void
bench_settle (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
count_frame_cb (GdkFrameClock *clock,
                guint         *counter)
{
  (*counter)++;
}

static gboolean
keep_ticking_cb (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
frames_reached (gpointer data)
{
  guint *counter = data;

  return counter[0] >= counter[1];
}

gboolean
bench_wait_frames (GtkWidget *widget,
                   guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  guint counter[2] = { 0, n };
  gulong handler;
  guint tick;
  gboolean reached;

  g_return_val_if_fail (clock != NULL, FALSE);

  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (count_frame_cb), &counter[0]);
  tick = gtk_widget_add_tick_callback (widget, keep_ticking_cb, NULL, NULL);
  reached = bench_wait (frames_reached, counter, 60);
  gtk_widget_remove_tick_callback (widget, tick);
  g_signal_handler_disconnect (clock, handler);

  return reached;
}

/* --- the frame and main-loop monitor --- */

static struct
{
  gboolean         active;
  GtkWidget       *widget;
  GdkFrameClock   *clock;
  gulong           before_paint_id;
  gulong           after_paint_id;
  gulong           layout_id;
  gulong           paint_id;
  guint            tick_id;
  gint64           last_after_paint;
  gint64           before_paint;
  gint64           laid_out;       /* end of the layout phase (trace only) */
  gint64           painted;        /* end of the paint phase (trace only) */
  gint64           busy;           /* busy time in the current frame interval */
  gint64           busy_mark;      /* start of the current busy stretch */
  gint64           last_cpu;       /* the main thread's CPU time at the last after-paint */
  gint64           last_process_cpu; /* the process's, all threads (trace only) */
  int              schedstat_fd;   /* the main thread's scheduler statistics, or -1 */
  gint64           waited;         /* busy time in the current frame interval spent
                                    * waiting for a core */
  gint64           wait_mark;      /* the run-queue wait at the start of the busy stretch */
  gint64           iteration_start;
  gint64           start;
  gboolean         trace;
  GArray          *intervals;
  GArray          *works;
  GArray          *cpus;
  GArray          *owns;
  BenchFrameStats  stats;
} monitor = { .schedstat_fd = -1 };

static GPollFunc default_poll;

/* CPU time in microseconds, of the calling thread (CLOCK_THREAD_CPUTIME_ID:
 * unlike the busy time, it leaves out the time the thread was runnable but
 * another thread or process had the core) or of the whole process
 * (CLOCK_PROCESS_CPUTIME_ID) */
static gint64
cpu_time_us (clockid_t clock)
{
  struct timespec ts;

  if (clock_gettime (clock, &ts) != 0)
    return 0;

  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* How long the main thread has waited, runnable, for a core since it
 * started, in microseconds (the second figure of its schedstat): what the
 * busy time holds of other threads' and processes' work. 0 when the kernel
 * does not tell. */
static gint64
runqueue_wait_us (void)
{
  char buf[96];
  ssize_t len;
  char *end;
  guint64 wait_ns;

  if (monitor.schedstat_fd < 0)
    return 0;
  len = pread (monitor.schedstat_fd, buf, sizeof buf - 1, 0);
  if (len <= 0)
    return 0;
  buf[len] = '\0';
  /* "<on cpu ns> <waiting ns> <timeslices>" */
  end = strchr (buf, ' ');
  if (end == NULL)
    return 0;
  wait_ns = g_ascii_strtoull (end + 1, NULL, 10);

  return (gint64) (wait_ns / 1000);
}

static gint
monitor_poll (GPollFD *fds,
              guint    nfds,
              gint     timeout)
{
  gint64 now = g_get_monotonic_time ();
  gint ret;

  if (monitor.active)
    {
      gint64 iteration = now - monitor.iteration_start;

      monitor.stats.longest_iteration = MAX (monitor.stats.longest_iteration, iteration);
      monitor.stats.n_iterations++;
      monitor.busy += now - monitor.busy_mark;
      monitor.waited += runqueue_wait_us () - monitor.wait_mark;
    }

  ret = default_poll (fds, nfds, timeout);

  monitor.iteration_start = monitor.busy_mark = g_get_monotonic_time ();
  /* the wait for a core after a wake-up is not busy time */
  if (monitor.active)
    monitor.wait_mark = runqueue_wait_us ();

  return ret;
}

static void
before_paint_cb (GdkFrameClock *clock,
                 gpointer       data)
{
  monitor.before_paint = g_get_monotonic_time ();
  monitor.laid_out = monitor.painted = 0;
}

/* Connected after GTK's own handlers, so these mark the end of the layout
 * (with the update phase before it) and of the paint (snapshot and render) */
static void
layout_cb (GdkFrameClock *clock,
           gpointer       data)
{
  monitor.laid_out = g_get_monotonic_time ();
}

static void
paint_cb (GdkFrameClock *clock,
          gpointer       data)
{
  monitor.painted = g_get_monotonic_time ();
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 work = monitor.busy + (now - monitor.busy_mark);
  gint64 interval = now - monitor.last_after_paint;
  gint64 cpu_now = cpu_time_us (CLOCK_THREAD_CPUTIME_ID);
  gint64 cpu = cpu_now - monitor.last_cpu;
  gint64 wait_now = runqueue_wait_us ();
  gint64 waited = monitor.waited + (wait_now - monitor.wait_mark);
  gint64 own = work - waited;

  monitor.stats.longest_frame = MAX (monitor.stats.longest_frame, interval);
  monitor.stats.longest_frame_work = MAX (monitor.stats.longest_frame_work, work);
  if (interval > 50 * G_TIME_SPAN_MILLISECOND)
    monitor.stats.n_frames_over_50ms++;
  if (work > 16 * G_TIME_SPAN_MILLISECOND)
    monitor.stats.n_work_over_16ms++;
  monitor.stats.longest_frame_cpu = MAX (monitor.stats.longest_frame_cpu, cpu);
  if (cpu > 16 * G_TIME_SPAN_MILLISECOND)
    monitor.stats.n_cpu_over_16ms++;
  monitor.stats.longest_frame_own = MAX (monitor.stats.longest_frame_own, own);
  if (own > 16 * G_TIME_SPAN_MILLISECOND)
    monitor.stats.n_own_over_16ms++;
  g_array_append_val (monitor.intervals, interval);
  g_array_append_val (monitor.works, work);
  g_array_append_val (monitor.cpus, cpu);
  g_array_append_val (monitor.owns, own);
  if (monitor.trace)
    {
      gint64 process_cpu = cpu_time_us (CLOCK_PROCESS_CPUTIME_ID);

      g_printerr ("trace t=%.1f frame interval=%.1f work=%.1f cpu=%.1f wait=%.1f others=%.1f"
                  " paint=%.1f layout=%.1f render=%.1f\n",
                  (now - monitor.start) / 1000.0, interval / 1000.0, work / 1000.0, cpu / 1000.0,
                  waited / 1000.0, (process_cpu - monitor.last_process_cpu - cpu) / 1000.0,
                  monitor.before_paint != 0 ? (now - monitor.before_paint) / 1000.0 : 0.0,
                  monitor.laid_out != 0 ? (monitor.laid_out - monitor.before_paint) / 1000.0 : 0.0,
                  monitor.painted != 0 && monitor.laid_out != 0 ? (monitor.painted - monitor.laid_out) / 1000.0 : 0.0);
      monitor.last_process_cpu = process_cpu;
    }
  if (monitor.before_paint != 0)
    monitor.stats.longest_paint = MAX (monitor.stats.longest_paint, now - monitor.before_paint);
  monitor.stats.n_frames++;

  monitor.last_after_paint = now;
  monitor.last_cpu = cpu_now;
  monitor.busy = 0;
  monitor.busy_mark = now;
  monitor.waited = 0;
  monitor.wait_mark = wait_now;
}

void
bench_monitor_start (GtkWidget *widget)
{
  gint64 now = g_get_monotonic_time ();

  g_return_if_fail (!monitor.active);

  if (default_poll == NULL)
    {
      default_poll = g_main_context_get_poll_func (NULL);
      g_main_context_set_poll_func (NULL, monitor_poll);
    }

  memset (&monitor.stats, 0, sizeof monitor.stats);
  monitor.intervals = g_array_new (FALSE, FALSE, sizeof (gint64));
  monitor.works = g_array_new (FALSE, FALSE, sizeof (gint64));
  monitor.cpus = g_array_new (FALSE, FALSE, sizeof (gint64));
  monitor.owns = g_array_new (FALSE, FALSE, sizeof (gint64));
  if (monitor.schedstat_fd < 0)
    monitor.schedstat_fd = open ("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  monitor.widget = g_object_ref (widget);
  monitor.clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  monitor.before_paint_id = g_signal_connect (monitor.clock, "before-paint",
                                              G_CALLBACK (before_paint_cb), NULL);
  monitor.after_paint_id = g_signal_connect (monitor.clock, "after-paint",
                                             G_CALLBACK (after_paint_cb), NULL);
  monitor.layout_id = g_signal_connect (monitor.clock, "layout", G_CALLBACK (layout_cb), NULL);
  monitor.paint_id = g_signal_connect (monitor.clock, "paint", G_CALLBACK (paint_cb), NULL);
  monitor.tick_id = gtk_widget_add_tick_callback (widget, keep_ticking_cb, NULL, NULL);
  monitor.last_after_paint = now;
  monitor.start = now;
  monitor.trace = g_getenv ("BENCH_TRACE") != NULL;
  if (monitor.trace)
    g_printerr ("trace start monotonic_s=%.6f\n", now / 1e6);
  monitor.before_paint = 0;
  monitor.last_cpu = cpu_time_us (CLOCK_THREAD_CPUTIME_ID);
  monitor.last_process_cpu = cpu_time_us (CLOCK_PROCESS_CPUTIME_ID);
  monitor.busy = 0;
  monitor.waited = 0;
  monitor.wait_mark = runqueue_wait_us ();
  /* the caller is running: this iteration is busy from now on */
  monitor.busy_mark = now;
  monitor.iteration_start = now;
  monitor.active = TRUE;
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* mean of values[from, to) */
static gint64
mean (GArray *values,
      guint   from,
      guint   to)
{
  gint64 sum = 0;

  if (to <= from)
    return 0;
  for (guint i = from; i < to; i++)
    sum += g_array_index (values, gint64, i);

  return sum / (to - from);
}

static gint64
percentile (GArray *values,
            guint   percent)
{
  if (values->len == 0)
    return 0;

  g_array_sort (values, compare_int64);
  /* nearest rank */
  return g_array_index (values, gint64,
                        MIN (values->len - 1, (values->len * percent + 99) / 100 - 1));
}

void
bench_monitor_stop (BenchFrameStats *out)
{
  g_return_if_fail (monitor.active);

  monitor.active = FALSE;
  gtk_widget_remove_tick_callback (monitor.widget, monitor.tick_id);
  g_clear_signal_handler (&monitor.before_paint_id, monitor.clock);
  g_clear_signal_handler (&monitor.after_paint_id, monitor.clock);
  g_clear_signal_handler (&monitor.layout_id, monitor.clock);
  g_clear_signal_handler (&monitor.paint_id, monitor.clock);
  g_clear_object (&monitor.clock);
  g_clear_object (&monitor.widget);

  if (monitor.works->len > 0)
    {
      guint tenth = MAX (1, monitor.works->len / 10);

      monitor.stats.first_tenth_work = mean (monitor.works, 0, tenth);
      monitor.stats.last_tenth_work = mean (monitor.works, monitor.works->len - tenth,
                                            monitor.works->len);
    }
  monitor.stats.p95_frame = percentile (monitor.intervals, 95);
  monitor.stats.p95_frame_work = percentile (monitor.works, 95);
  monitor.stats.p95_frame_cpu = percentile (monitor.cpus, 95);
  monitor.stats.p95_frame_own = percentile (monitor.owns, 95);
  g_clear_pointer (&monitor.intervals, g_array_unref);
  g_clear_pointer (&monitor.works, g_array_unref);
  g_clear_pointer (&monitor.cpus, g_array_unref);
  g_clear_pointer (&monitor.owns, g_array_unref);

  if (out != NULL)
    *out = monitor.stats;
}

void
bench_append_frame_stats (GString               *line,
                          const BenchFrameStats *stats)
{
  g_string_append_printf (line,
                          " frames=%u longest_frame_ms=%.1f p95_frame_ms=%.1f"
                          " frames_over_50ms=%u longest_frame_work_ms=%.1f"
                          " p95_frame_work_ms=%.1f frames_work_over_16ms=%u"
                          " first_tenth_work_ms=%.1f last_tenth_work_ms=%.1f"
                          " longest_frame_cpu_ms=%.1f p95_frame_cpu_ms=%.1f frames_cpu_over_16ms=%u"
                          " longest_frame_own_ms=%.1f p95_frame_own_ms=%.1f frames_own_over_16ms=%u"
                          " longest_paint_ms=%.1f longest_iteration_ms=%.1f iterations=%u",
                          stats->n_frames, stats->longest_frame / 1000.0, stats->p95_frame / 1000.0,
                          stats->n_frames_over_50ms, stats->longest_frame_work / 1000.0,
                          stats->p95_frame_work / 1000.0, stats->n_work_over_16ms,
                          stats->first_tenth_work / 1000.0, stats->last_tenth_work / 1000.0,
                          stats->longest_frame_cpu / 1000.0, stats->p95_frame_cpu / 1000.0,
                          stats->n_cpu_over_16ms,
                          stats->longest_frame_own / 1000.0, stats->p95_frame_own / 1000.0,
                          stats->n_own_over_16ms,
                          stats->longest_paint / 1000.0, stats->longest_iteration / 1000.0,
                          stats->n_iterations);
}

void
bench_trace (const char *event)
{
  if (monitor.active && monitor.trace)
    g_printerr ("trace t=%.1f %s\n", (g_get_monotonic_time () - monitor.start) / 1000.0, event);
}

guint
bench_monitor_get_n_frames (void)
{
  return monitor.active ? monitor.stats.n_frames : 0;
}

/* --- resources --- */

gint64
bench_cpu_time_us (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return 0;

  return (gint64) usage.ru_utime.tv_sec * G_USEC_PER_SEC + usage.ru_utime.tv_usec +
         (gint64) usage.ru_stime.tv_sec * G_USEC_PER_SEC + usage.ru_stime.tv_usec;
}

gint64
bench_main_thread_cpu_time_us (void)
{
  return cpu_time_us (CLOCK_THREAD_CPUTIME_ID);
}

gint64
bench_threads_cpu_time_us (const char *name)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  gint64 total = 0;

  if (dir == NULL)
    return 0;

  while ((tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *comm_path = g_build_filename ("/proc/self/task", tid, "comm", NULL);
      g_autofree char *stat_path = g_build_filename ("/proc/self/task", tid, "schedstat", NULL);
      g_autofree char *comm = NULL;
      g_autofree char *stat = NULL;

      if (!g_file_get_contents (comm_path, &comm, NULL, NULL) ||
          !g_file_get_contents (stat_path, &stat, NULL, NULL))
        continue;
      if (strcmp (g_strchomp (comm), name) != 0)
        continue;
      /* "<on cpu ns> <waiting ns> <timeslices>" */
      total += (gint64) (g_ascii_strtoull (stat, NULL, 10) / 1000);
    }

  return total;
}

guint64
bench_read_status_kib (const char *key)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize key_len = strlen (key);

  if (!g_file_get_contents ("/proc/self/status", &contents, NULL, NULL))
    return 0;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strncmp (lines[i], key, key_len) == 0 && lines[i][key_len] == ':')
        return g_ascii_strtoull (lines[i] + key_len + 1, NULL, 10);
    }

  return 0;
}

gboolean
bench_reset_peak_rss (void)
{
  FILE *file = fopen ("/proc/self/clear_refs", "w");
  gboolean ok;

  if (file == NULL)
    return FALSE;

  ok = fputs ("5", file) >= 0;
  ok = (fclose (file) == 0) && ok;

  return ok;
}

/* --- widgets --- */

GtkWidget *
bench_find_descendant (GtkWidget *widget,
                       GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = bench_find_descendant (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Whether a row of @list_view (not a one-line summary) is mapped within
 * @scroller's area: a model set a moment ago has none until it is laid out */
static gboolean
row_on_screen (GtkWidget *list_view,
               GtkWidget *scroller)
{
  for (GtkWidget *row = gtk_widget_get_first_child (list_view);
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      graphene_rect_t bounds;

      if (gtk_widget_get_mapped (row) && !summary_on_screen (row, scroller) &&
          gtk_widget_compute_bounds (row, scroller, &bounds) &&
          bounds.size.height > 0 &&
          bounds.origin.y + bounds.size.height > 0 &&
          bounds.origin.y < gtk_widget_get_height (scroller))
        return TRUE;
    }

  return FALSE;
}

gboolean
bench_chat_view_at_bottom (GtkWidget  *chat_view,
                           GListModel *model)
{
  GtkWidget *scroller;
  GtkAdjustment *adjustment;
  double bottom;

  if (pal_chat_view_get_model (PAL_CHAT_VIEW (chat_view)) != model)
    return FALSE;
  if (!pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (chat_view)))
    return FALSE;

  /* every row is in the list view: none held back after a flood */
  if (!pal_chat_view_get_caught_up (PAL_CHAT_VIEW (chat_view)))
    return FALSE;

  scroller = bench_find_descendant (chat_view, GTK_TYPE_SCROLLED_WINDOW);
  if (scroller == NULL)
    return FALSE;
  if (gtk_widget_get_height (scroller) <= 0)
    return FALSE;

  /* rendered in full: rows on screen, no one-line summary among them */
  if (summary_on_screen (chat_view, scroller) ||
      (g_list_model_get_n_items (model) > 0 &&
       !row_on_screen (bench_find_descendant (chat_view, GTK_TYPE_LIST_VIEW), scroller)))
    return FALSE;

  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  bottom = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  return gtk_adjustment_get_value (adjustment) >= bottom - 1.0;
}

/* --- the fixture --- */

static gboolean
window_mapped (gpointer data)
{
  BenchFixture *fixture = data;

  return gtk_widget_get_mapped (GTK_WIDGET (fixture->window)) &&
         gtk_widget_get_frame_clock (GTK_WIDGET (fixture->window)) != NULL;
}

static gboolean
warmed_up (gpointer data)
{
  BenchFixture *fixture = data;

  return pal_warm_up_is_done (gtk_widget_get_display (GTK_WIDGET (fixture->window)));
}

BenchFixture *
bench_fixture_new (gboolean record)
{
  BenchFixture *fixture = g_new0 (BenchFixture, 1);
  g_autoptr(GError) error = NULL;

  fixture->settings = g_settings_new (APPLICATION_ID);
  g_settings_set_int (fixture->settings, "window-width", WINDOW_WIDTH);
  g_settings_set_int (fixture->settings, "window-height", WINDOW_HEIGHT);
  g_settings_set_boolean (fixture->settings, "window-maximized", FALSE);

  fixture->folder = g_dir_make_tmp ("palaver-bench-XXXXXX", &error);
  if (fixture->folder == NULL)
    g_error ("Cannot make a folder: %s", error->message);

  fixture->app = GTK_APPLICATION (adw_application_new ("io.github.palaverapp.PalaverBench",
                                                       G_APPLICATION_NON_UNIQUE));
  if (!g_application_register (G_APPLICATION (fixture->app), NULL, &error))
    g_error ("Cannot register the application: %s", error->message);

  fixture->agent_store = pal_agent_store_new (fixture->settings);
  fixture->session_store = pal_session_store_new (fixture->settings);
  fixture->mcp_store = pal_mcp_server_store_new (fixture->settings);
  /* as the application: the window's frames pace the agents' messages */
  fixture->pacer = acp_pacer_new ();
  if (record)
    {
      g_autofree char *path = g_build_filename (fixture->folder, "transcripts.db", NULL);

      fixture->transcript_store = pal_transcript_store_new (path);
    }
  fixture->manager = g_object_new (PAL_TYPE_SESSION_MANAGER,
                                   "agent-store", fixture->agent_store,
                                   "session-store", fixture->session_store,
                                   "mcp-server-store", fixture->mcp_store,
                                   "pacer", fixture->pacer,
                                   "transcript-store", fixture->transcript_store,
                                   NULL);

  fixture->window = pal_window_new (fixture->app, fixture->manager, fixture->settings);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), WINDOW_WIDTH, WINDOW_HEIGHT);
  gtk_window_present (GTK_WINDOW (fixture->window));

  if (!bench_wait (window_mapped, fixture, 30))
    g_error ("The window was not shown");
  /* the fonts and icon the window loads once shown, as a person would wait
   * for before typing */
  if (!bench_wait (warmed_up, fixture, 30))
    g_error ("The window did not load its fonts");
  bench_wait_frames (GTK_WIDGET (fixture->window), 3);
  bench_settle (200);

  return fixture;
}

void
bench_fixture_add_agent (BenchFixture       *fixture,
                         const char         *id,
                         const char * const *argv)
{
  g_autoptr(PalAgentProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = pal_agent_profile_new (id, id, argv[0], argv + 1);
  if (!pal_agent_store_add (fixture->agent_store, profile, &error))
    g_error ("Cannot add the agent profile: %s", error->message);
}

void
bench_fixture_add_profile (BenchFixture *fixture,
                           const char   *id,
                           const char   *scenario_path)
{
  const char *argv[] = { bench_fake_agent_path (), scenario_path, NULL };

  bench_fixture_add_agent (fixture, id, argv);
}

static void
shutdown_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  pal_session_manager_shutdown_finish (PAL_SESSION_MANAGER (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

void
bench_shutdown_manager (BenchFixture *fixture)
{
  /* static: the callback may still come after a time-out */
  static gboolean done;

  done = FALSE;
  pal_session_manager_shutdown_async (fixture->manager, NULL, shutdown_cb, &done);
  if (!bench_wait (flag_set, &done, 30))
    g_printerr ("The agents did not stop in time\n");
}

void
bench_fixture_free (BenchFixture *fixture)
{
  if (fixture == NULL)
    return;

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  bench_shutdown_manager (fixture);

  g_clear_object (&fixture->manager);
  if (fixture->transcript_store != NULL)
    {
      g_autofree char *path = g_strdup (pal_transcript_store_get_path (fixture->transcript_store));
      const char *suffixes[] = { "", "-wal", "-shm" };

      g_clear_object (&fixture->transcript_store);
      for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
        {
          g_autofree char *file = g_strconcat (path, suffixes[i], NULL);

          g_unlink (file);
        }
    }
  g_clear_object (&fixture->pacer);
  g_clear_object (&fixture->mcp_store);
  g_clear_object (&fixture->session_store);
  g_clear_object (&fixture->agent_store);
  g_clear_object (&fixture->app);
  g_clear_object (&fixture->settings);
  g_rmdir (fixture->folder);
  g_free (fixture->folder);
  g_free (fixture);
}
