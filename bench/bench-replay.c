/* bench-replay.c: opening a long past session in the real window
 *
 * A stored session whose agent profile runs the fake agent with
 * replay-mix.json (count set by --updates), or any agent given with --agent,
 * is opened through pal_window_open_session(): the agent starts,
 * session/load replays the history as session/update notifications, and the
 * window shows them live.
 * Measured from the call until the session is READY, its transcript flushed,
 * the chat view scrolled to the end and two more frames painted:
 *
 *   total_ms            wall time until fully rendered
 *   ready_ms            wall time until the session manager said READY
 *   cpu_ms              CPU time of the process (all threads) meanwhile;
 *                       cpu_main_ms of the main thread, cpu_reader_ms of the
 *                       connection's reading thread
 *   frames              frames painted meanwhile (the frame clock is kept
 *                       ticking, as a spinner would)
 *   longest_frame_ms    longest interval between two painted frames
 *   longest_frame_work_ms  most main-loop busy time within one such interval
 *   longest_paint_ms    longest layout + snapshot + render of one frame
 *   longest_iteration_ms   longest single main-loop iteration
 *   rss_*_mib           VmRSS before, VmHWM (peak, reset before the run),
 *                       VmRSS at the end, peak - before, and VmRSS after the
 *                       session was closed and forgotten
 *
 * The session is recorded into a transcript store, as the application
 * records it, unless --no-record (record=yes|no on the line).
 *
 * --from-store: the session is recorded by one load first (not measured),
 * its agent stopped, and then each run selects it in the sidebar: the
 * window shows the history kept of it, with no agent running. Measured
 * from the selection until its end is shown in full rows, scrolled to the
 * end, and two more frames painted (bench=from-store: shown_ms; a long
 * history shows its last turns first), and until all of its items are in
 * the chat view, still at its end, and two more frames painted (total_ms);
 * entries stored, items shown and the same statistics, to the end.
 *
 * With --scroll N, once the session is shown the chat is then scrolled up
 * half a page a frame, as a person flinging the wheel would, N times (or
 * to the top): scroll_steps, scroll_ms, and the frames meanwhile
 * (scroll_frames, scroll_longest_frame_ms, scroll_p95_frame_ms,
 * scroll_longest_frame_work_ms, scroll_p95_frame_work_ms,
 * scroll_frames_work_over_16ms, scroll_p95_frame_own_ms) and the main
 * thread's CPU time (scroll_cpu_ms): rows come on screen and are built all
 * the time.
 *
 * One line of key=value per run on stdout.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>

#include <glib/gstdio.h>

#include "bench-common.h"
#include "pal-chat-view.h"
#include "pal-session-view.h"

typedef struct
{
  BenchFixture    *fixture;
  PalSessionKey   *key;
  gint64           ready_time;
} Run;

/* whether the sessions are recorded */
static const char *recorded = "yes";

/* --scroll: half pages scrolled up after the replay */
static int scroll_steps;

typedef struct
{
  GtkScrolledWindow *scroller;
  guint              left;
  guint              done;
} Scroll;

/* What the chat view takes for the person scrolling: a scroll event
 * (without it, a move of the value is layout, and the view goes back to
 * its end) */
static void
scroll_event (GtkWidget *scroller)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (scroller);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
      gboolean handled = FALSE;

      if (GTK_IS_EVENT_CONTROLLER_SCROLL (controller) &&
          gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE)
        g_signal_emit_by_name (controller, "scroll", 0.0, -1.0, &handled);
    }
}

static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *frame_clock,
                gpointer       data)
{
  Scroll *scroll = data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroll->scroller);
  double value = gtk_adjustment_get_value (adjustment);

  if (scroll->left == 0 || value <= 0)
    {
      scroll->left = 0;
      return G_SOURCE_REMOVE;
    }

  scroll_event (GTK_WIDGET (scroll->scroller));
  gtk_adjustment_set_value (adjustment, MAX (value - gtk_adjustment_get_page_size (adjustment) / 2, 0));
  scroll->left--;
  scroll->done++;

  return G_SOURCE_CONTINUE;
}

static gboolean
scroll_over (gpointer data)
{
  return ((Scroll *) data)->left == 0;
}

/* The first scrolled window in @widget, depth first: the chat's own */
static GtkWidget *
first_scroller (GtkWidget *widget)
{
  if (GTK_IS_SCROLLED_WINDOW (widget))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = first_scroller (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Scrolls the chat up, scroll_steps half pages, and adds what it took to
 * @line */
static void
measure_scroll (BenchFixture *fixture,
                GString      *line)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkWidget *chat = pal_session_view_get_chat_view (PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window)));
  GtkWidget *scroller = first_scroller (chat);
  Scroll scroll = { NULL, (guint) scroll_steps, 0 };
  BenchFrameStats stats;
  gint64 start, cpu_start;
  guint tick;

  if (scroller == NULL)
    return;
  scroll.scroller = GTK_SCROLLED_WINDOW (scroller);

  bench_monitor_start (window);
  start = g_get_monotonic_time ();
  cpu_start = bench_main_thread_cpu_time_us ();
  tick = gtk_widget_add_tick_callback (scroller, scroll_tick_cb, &scroll, NULL);
  if (!bench_wait (scroll_over, &scroll, 600000))
    gtk_widget_remove_tick_callback (scroller, tick);
  bench_wait_frames (window, 2);
  bench_monitor_stop (&stats);

  g_string_append_printf (line,
                          " scroll_steps=%u scroll_ms=%.0f scroll_frames=%u"
                          " scroll_longest_frame_ms=%.1f scroll_p95_frame_ms=%.1f"
                          " scroll_longest_frame_work_ms=%.1f scroll_p95_frame_work_ms=%.1f"
                          " scroll_frames_work_over_16ms=%u scroll_p95_frame_own_ms=%.1f"
                          " scroll_cpu_ms=%.0f",
                          scroll.done, (g_get_monotonic_time () - start) / 1000.0, stats.n_frames,
                          stats.longest_frame / 1000.0, stats.p95_frame / 1000.0,
                          stats.longest_frame_work / 1000.0, stats.p95_frame_work / 1000.0,
                          stats.n_work_over_16ms, stats.p95_frame_own / 1000.0,
                          (bench_main_thread_cpu_time_us () - cpu_start) / 1000.0);
}

static void
state_changed_cb (PalLiveSession *live,
                  GParamSpec     *pspec,
                  Run            *run)
{
  PalSessionState state = pal_live_session_get_state (live);

  if (state == PAL_SESSION_STATE_READY && run->ready_time == 0)
    run->ready_time = g_get_monotonic_time ();
  if (state == PAL_SESSION_STATE_LOADING)
    bench_trace ("loading");
  else if (state == PAL_SESSION_STATE_READY)
    bench_trace ("ready");
}

static PalSessionState
state_of (PalSessionManager *manager,
          PalSessionKey     *key)
{
  PalLiveSession *live = pal_session_manager_lookup_live (manager, key);

  return live != NULL ? pal_live_session_get_state (live) : PAL_SESSION_STATE_NOT_RUNNING;
}

static gboolean
fully_shown (gpointer data)
{
  Run *run = data;
  PalSessionManager *manager = run->fixture->manager;
  PalSessionState state = state_of (manager, run->key);
  GtkWidget *view = pal_window_get_session_view (run->fixture->window);
  AcpSession *session;
  AcpTranscript *transcript;

  if (state == PAL_SESSION_STATE_FAILED)
    return TRUE;
  if (state != PAL_SESSION_STATE_READY)
    return FALSE;

  session = pal_session_manager_lookup (manager, run->key);
  if (session == NULL)
    return FALSE;
  transcript = acp_session_get_transcript (session);
  if (acp_transcript_get_n_pending (transcript) > 0)
    return FALSE;

  return bench_chat_view_at_bottom (pal_session_view_get_chat_view (PAL_SESSION_VIEW (view)),
                                    G_LIST_MODEL (transcript));
}

static double
mib (guint64 kib)
{
  return kib / 1024.0;
}

/* @updates: how many the load must replay, 0 when not known */
static gboolean
run_once (BenchFixture *fixture,
          guint         number,
          const char   *given_session_id,
          const char   *cwd,
          guint         updates)
{
  g_autofree char *session_id = given_session_id != NULL
                                ? g_strdup (given_session_id)
                                : g_strdup_printf ("bench-replay-%u", number);
  g_autoptr(PalSessionRecord) record = pal_session_record_new (session_id, "bench-replay",
                                                               cwd != NULL ? cwd : fixture->folder);
  PalSessionKey *key = pal_session_record_get_key (record);
  GtkWidget *window = GTK_WIDGET (fixture->window);
  Run run = { fixture, key, 0 };
  BenchFrameStats stats;
  guint64 rss_before, rss_peak, rss_after, rss_closed;
  gboolean peak_reset;
  gint64 start, end, cpu_start, cpu, main_start, main_cpu, reader_start, reader_cpu;
  g_autoptr(PalLiveSession) live = NULL;
  AcpSession *session;
  guint replayed = 0, items = 0;
  gboolean shown = FALSE;
  g_autoptr(GString) line = NULL;
  g_autoptr(GString) scroll_line = NULL;

  pal_session_record_set_title (record, "A long past session");
  pal_session_store_add (fixture->session_store, record);
  bench_settle (300);

  peak_reset = bench_reset_peak_rss ();
  rss_before = bench_read_status_kib ("VmRSS");

  start = g_get_monotonic_time ();
  cpu_start = bench_cpu_time_us ();
  main_start = bench_main_thread_cpu_time_us ();
  reader_start = bench_threads_cpu_time_us ("acp-reader");
  bench_monitor_start (window);
  pal_window_open_session (fixture->window, key);
  /* live from the start of the open */
  live = pal_session_manager_lookup_live (fixture->manager, key);
  if (live != NULL)
    {
      g_object_ref (live);
      g_signal_connect (live, "notify::state", G_CALLBACK (state_changed_cb), &run);
    }

  /* READY, flushed and at the bottom, then two frames painted, and still so */
  for (guint attempt = 0; attempt < 100 && !shown; attempt++)
    {
      if (!bench_wait (fully_shown, &run, 300))
        break;
      if (state_of (fixture->manager, key) == PAL_SESSION_STATE_FAILED)
        break;
      bench_trace ("shown");
      bench_wait_frames (window, 2);
      shown = fully_shown (&run);
    }

  end = g_get_monotonic_time ();
  cpu = bench_cpu_time_us () - cpu_start;
  main_cpu = bench_main_thread_cpu_time_us () - main_start;
  reader_cpu = bench_threads_cpu_time_us ("acp-reader") - reader_start;
  bench_monitor_stop (&stats);
  if (live != NULL)
    g_signal_handlers_disconnect_by_data (live, &run);

  rss_peak = bench_read_status_kib ("VmHWM");
  rss_after = bench_read_status_kib ("VmRSS");

  scroll_line = g_string_new (NULL);
  if (shown && scroll_steps > 0)
    measure_scroll (fixture, scroll_line);

  session = pal_session_manager_lookup (fixture->manager, key);
  if (session != NULL)
    {
      replayed = acp_session_get_replay_count (session);
      items = g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (session)));
    }

  if (!shown)
    {
      PalLiveSession *now = pal_session_manager_lookup_live (fixture->manager, key);
      const GError *error = now != NULL ? pal_live_session_get_error (now) : NULL;

      g_printerr ("run %u: the session was not shown (state %d%s%s)\n", number,
                  state_of (fixture->manager, key),
                  error != NULL ? ": " : "", error != NULL ? error->message : "");
    }

  /* what is given back once the session is gone */
  pal_session_manager_forget (fixture->manager, key);
  bench_settle (1000);
  rss_closed = bench_read_status_kib ("VmRSS");

  line = g_string_new (NULL);
  g_string_append_printf (line,
                          "bench=replay run=%u ok=%s record=%s updates=%u replayed=%u items=%u"
                          " total_ms=%.0f ready_ms=%.0f cpu_ms=%.0f cpu_main_ms=%.0f"
                          " cpu_reader_ms=%.0f",
                          number, shown && (updates == 0 || replayed == updates) ? "yes" : "no",
                          recorded, updates, replayed, items,
                          (end - start) / 1000.0,
                          run.ready_time != 0 ? (run.ready_time - start) / 1000.0 : -1.0,
                          cpu / 1000.0, main_cpu / 1000.0, reader_cpu / 1000.0);
  bench_append_frame_stats (line, &stats);
  g_string_append_printf (line,
                          " rss_before_mib=%.1f rss_peak_mib=%.1f rss_after_mib=%.1f"
                          " rss_growth_mib=%.1f rss_closed_mib=%.1f peak_reset=%s",
                          mib (rss_before), mib (rss_peak), mib (rss_after),
                          mib (rss_peak > rss_before ? rss_peak - rss_before : 0), mib (rss_closed),
                          peak_reset ? "yes" : "no");
  g_string_append (line, scroll_line->str);
  printf ("%s\n", line->str);
  fflush (stdout);

  return shown && (updates == 0 || replayed == updates);
}

/* --- from the store --- */

typedef struct
{
  BenchFixture  *fixture;
  PalSessionKey *key;
  guint          n_items;  /* in the history at least */
} Shown;

/* The window shows the history of @key (at least n_items of it), all its
 * rows in the list, at its end */
static gboolean
history_shown (gpointer data)
{
  Shown *shown = data;
  GtkWidget *view = pal_window_get_session_view (shown->fixture->window);
  AcpTranscript *history = pal_session_view_get_history (PAL_SESSION_VIEW (view));

  if (history == NULL ||
      !pal_session_key_equal0 (pal_window_get_current_session (shown->fixture->window),
                               shown->key) ||
      acp_transcript_get_n_pending (history) > 0 ||
      g_list_model_get_n_items (G_LIST_MODEL (history)) < shown->n_items)
    return FALSE;

  return bench_chat_view_at_bottom (pal_session_view_get_chat_view (PAL_SESSION_VIEW (view)),
                                    G_LIST_MODEL (history));
}

static gboolean
result_set (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

static void
got_result_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Records the session @key by loading it once, then stops its agent.
 * Returns: how many items its transcript had, 0 when the load failed */
static guint
record_by_loading (BenchFixture  *fixture,
                   PalSessionKey *key)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  guint items;

  pal_session_manager_load_session_async (fixture->manager, key, NULL, got_result_cb, &result);
  if (!bench_wait (result_set, &result, 600))
    return 0;
  session = pal_session_manager_load_session_finish (fixture->manager, result, &error);
  if (session == NULL)
    {
      g_printerr ("The load failed: %s\n", error->message);
      return 0;
    }
  acp_transcript_flush (acp_session_get_transcript (session));
  items = g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (session)));

  /* everything written, the session closed, no agent left */
  g_clear_object (&result);
  pal_session_manager_close_session_async (fixture->manager, key, NULL, got_result_cb, &result);
  bench_wait (result_set, &result, 60);
  g_clear_object (&result);
  pal_transcript_store_flush_async (fixture->transcript_store, NULL, got_result_cb, &result);
  bench_wait (result_set, &result, 600);
  bench_shutdown_manager (fixture);

  return items;
}

static gboolean
run_from_store (BenchFixture  *fixture,
                guint          number,
                PalSessionKey *key,
                PalSessionKey *other,
                guint          updates,
                guint          expected_items)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkWidget *sidebar = pal_window_get_sidebar (fixture->window);
  Shown shown = { fixture, other, 0 };
  BenchFrameStats stats;
  guint64 rss_before, rss_peak;
  gboolean peak_reset, shown_ok = FALSE, ok = FALSE;
  gint64 start, shown_at, end, cpu_start, cpu;
  AcpTranscript *history;
  guint items = 0;
  g_autoptr(PalStoredTranscript) stored = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(AcpAgent) agent = NULL;

  /* from another session, as a person would come */
  g_signal_emit_by_name (sidebar, "session-activated", other);
  bench_wait (history_shown, &shown, 30);
  bench_settle (300);

  shown.key = key;
  peak_reset = bench_reset_peak_rss ();
  rss_before = bench_read_status_kib ("VmRSS");
  start = g_get_monotonic_time ();
  cpu_start = bench_cpu_time_us ();
  bench_monitor_start (window);
  g_signal_emit_by_name (sidebar, "session-activated", key);

  for (guint attempt = 0; attempt < 100 && !shown_ok; attempt++)
    {
      if (!bench_wait (history_shown, &shown, 60))
        break;
      bench_trace ("shown");
      bench_wait_frames (window, 2);
      shown_ok = history_shown (&shown);
    }
  shown_at = g_get_monotonic_time ();

  /* then the earlier turns, the end still on screen (a history built
   * whole has them already) */
  shown.n_items = expected_items;
  ok = shown_ok && history_shown (&shown);
  for (guint attempt = 0; attempt < 100 && shown_ok && !ok; attempt++)
    {
      if (!bench_wait (history_shown, &shown, 60))
        break;
      bench_trace ("complete");
      bench_wait_frames (window, 2);
      ok = history_shown (&shown);
    }

  end = g_get_monotonic_time ();
  cpu = bench_cpu_time_us () - cpu_start;
  bench_monitor_stop (&stats);
  rss_peak = bench_read_status_kib ("VmHWM");

  history = pal_session_view_get_history (PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window)));
  if (history != NULL)
    items = g_list_model_get_n_items (G_LIST_MODEL (history));
  pal_transcript_store_load_async (fixture->transcript_store, key, NULL, got_result_cb, &result);
  bench_wait (result_set, &result, 60);
  stored = pal_transcript_store_load_finish (fixture->transcript_store, result, NULL);
  agent = pal_session_manager_dup_last_agent (fixture->manager, pal_session_key_get_agent_id (key));

  g_string_append_printf (line,
                          "bench=from-store run=%u ok=%s updates=%u entries=%u items=%u"
                          " agent_running=%s shown_ms=%.0f total_ms=%.0f cpu_ms=%.0f",
                          number, ok && items == expected_items ? "yes" : "no", updates,
                          stored != NULL ? pal_stored_transcript_get_n_entries (stored) : 0,
                          items, agent != NULL && acp_agent_get_state (agent) !=
                                 ACP_AGENT_STATE_EXITED ? "yes" : "no",
                          (shown_at - start) / 1000.0, (end - start) / 1000.0, cpu / 1000.0);
  bench_append_frame_stats (line, &stats);
  g_string_append_printf (line, " rss_before_mib=%.1f rss_peak_mib=%.1f rss_growth_mib=%.1f"
                          " peak_reset=%s",
                          mib (rss_before), mib (rss_peak),
                          mib (rss_peak > rss_before ? rss_peak - rss_before : 0),
                          peak_reset ? "yes" : "no");
  printf ("%s\n", line->str);
  fflush (stdout);

  return ok && items == expected_items;
}

static gboolean
from_store (BenchFixture *fixture,
            guint         updates,
            int           repeat)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("bench-stored", "bench-replay",
                                                               fixture->folder);
  g_autoptr(PalSessionRecord) other = pal_session_record_new ("bench-other", "bench-replay",
                                                              fixture->folder);
  PalSessionKey *key = pal_session_record_get_key (record);
  gboolean ok = TRUE;
  guint items;

  pal_session_record_set_title (record, "A long past session");
  pal_session_store_add (fixture->session_store, record);
  pal_session_record_set_title (other, "Another session");
  pal_session_store_add (fixture->session_store, other);
  pal_transcript_store_record_prompt (fixture->transcript_store, pal_session_record_get_key (other),
                                      "[{\"type\":\"text\",\"text\":\"Hello\"}]");

  items = record_by_loading (fixture, key);
  if (items == 0)
    return FALSE;

  for (int i = 1; i <= repeat; i++)
    ok = run_from_store (fixture, i, key, pal_session_record_get_key (other), updates, items) && ok;

  return ok;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *scenario_path = NULL;
  g_autofree char *write_scenario = NULL;
  g_autofree char *agent = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *cwd = NULL;
  g_auto(GStrv) agent_argv = NULL;
  BenchFixture *fixture;
  int updates = -1;
  int repeat = 1;
  gboolean no_record = FALSE;
  gboolean stored = FALSE;
  gboolean ok = TRUE;
  const GOptionEntry entries[] = {
    { "updates", 'n', 0, G_OPTION_ARG_INT, &updates,
      "Updates replayed (default 100000; with --agent, what the load must replay if given)", "N" },
    { "repeat", 'r', 0, G_OPTION_ARG_INT, &repeat, "Runs in this process (default 1)", "N" },
    { "scenario", 's', 0, G_OPTION_ARG_FILENAME, &scenario,
      "Use this scenario as it is (its load must replay --updates updates)", "FILE" },
    { "agent", 'a', 0, G_OPTION_ARG_STRING, &agent,
      "Replay with this agent command line instead of the fake agent", "CMD" },
    { "session-id", 'i', 0, G_OPTION_ARG_STRING, &session_id,
      "The session the agent loads (with --agent)", "ID" },
    { "cwd", 'C', 0, G_OPTION_ARG_FILENAME, &cwd,
      "The session's folder (default: an empty temporary one)", "DIR" },
    { "scroll", 0, 0, G_OPTION_ARG_INT, &scroll_steps,
      "Then scroll up this many half pages, one a frame", "N" },
    { "write-scenario", 'w', 0, G_OPTION_ARG_FILENAME, &write_scenario,
      "Only write the fake agent's scenario for --updates to FILE, and print the command "
      "line that plays it", "FILE" },
    { "no-record", 0, 0, G_OPTION_ARG_NONE, &no_record,
      "Record nothing into a transcript store (the application records every session)", NULL },
    { "from-store", 0, 0, G_OPTION_ARG_NONE, &stored,
      "Record the session by loading it once, stop its agent, then time showing it from the "
      "store", NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bench_setup_environment ();

  context = g_option_context_new ("- replay a long session in the window");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (updates == -1 && agent == NULL)
    updates = 100000;
  if ((updates < 1 && !(updates == -1 && agent != NULL)) || repeat < 1)
    {
      g_printerr ("--updates and --repeat must be positive\n");
      return 2;
    }
  if (agent != NULL && scenario != NULL)
    {
      g_printerr ("--agent and --scenario exclude each other\n");
      return 2;
    }
  if (agent != NULL && !g_shell_parse_argv (agent, NULL, &agent_argv, &error))
    {
      g_printerr ("--agent: %s\n", error->message);
      return 2;
    }

  if (write_scenario != NULL)
    {
      g_autofree char *written = bench_write_scenario ("replay-mix.json", "session/load",
                                                       updates, &error);
      g_autofree char *text = NULL;
      gsize length;

      if (written == NULL || !g_file_get_contents (written, &text, &length, &error) ||
          !g_file_set_contents (write_scenario, text, (gssize) length, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      g_unlink (written);
      /* the command line that plays it, for run.sh */
      {
        g_autofree char *program = g_shell_quote (bench_fake_agent_path ());
        g_autofree char *path = g_shell_quote (write_scenario);

        printf ("%s %s\n", program, path);
      }
      return 0;
    }

  if (scenario != NULL)
    scenario_path = g_canonicalize_filename (scenario, NULL);
  else if (agent == NULL)
    {
      scenario_path = bench_write_scenario ("replay-mix.json", "session/load", updates, &error);
      if (scenario_path == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }

  gtk_init ();
  adw_init ();

  if (stored && no_record)
    {
      g_printerr ("--from-store needs the session recorded\n");
      return 2;
    }
  recorded = no_record ? "no" : "yes";
  fixture = bench_fixture_new (!no_record);
  if (agent_argv != NULL)
    bench_fixture_add_agent (fixture, "bench-replay", (const char * const *) agent_argv);
  else
    bench_fixture_add_profile (fixture, "bench-replay", scenario_path);

  if (stored)
    ok = from_store (fixture, MAX (updates, 0), repeat);
  else
    for (int i = 1; i <= repeat; i++)
      ok = run_once (fixture, i, session_id, cwd, MAX (updates, 0)) && ok;

  bench_fixture_free (fixture);
  if (scenario == NULL && scenario_path != NULL)
    g_unlink (scenario_path);

  return ok ? 0 : 1;
}
