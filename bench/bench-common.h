/* bench-common.h: what the window benchmarks share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-window.h"

G_BEGIN_DECLS

/* What one measured stretch of the main loop looked like. Times in
 * microseconds. */
typedef struct
{
  guint  n_frames;            /* frame clock "after-paint" signals */
  gint64 longest_frame;       /* longest interval between two after-paints */
  gint64 longest_frame_work;  /* most main-loop busy time within one such interval */
  gint64 longest_paint;       /* longest before-paint → after-paint (layout, snapshot, render) */
  gint64 longest_iteration;   /* longest main-loop iteration outside poll() */
  guint  n_iterations;
  gint64 p95_frame;           /* 95th percentile of the frame intervals */
  gint64 p95_frame_work;      /* 95th percentile of the busy time per frame */
  guint  n_frames_over_50ms;  /* intervals longer than 50 ms */
  guint  n_work_over_16ms;    /* frames with more than 16 ms of main-loop work */
  gint64 first_tenth_work;    /* mean busy time per frame over the first tenth of the frames */
  gint64 last_tenth_work;     /* and over the last tenth: growth shows work that grows with size */
  gint64 longest_frame_cpu;   /* most CPU time of the main thread within one frame interval */
  gint64 p95_frame_cpu;       /* 95th percentile of it */
  guint  n_cpu_over_16ms;     /* frames with more than 16 ms of it */
  gint64 longest_frame_own;   /* most busy time within one frame interval less the time
                               * the main thread waited, runnable, for a core */
  gint64 p95_frame_own;       /* 95th percentile of it */
  guint  n_own_over_16ms;     /* frames with more than 16 ms of it */
} BenchFrameStats;

/* The application, its stores on in-memory settings, the session manager
 * with a pacer of its own and a real PalWindow of 1280×900, shown. */
typedef struct
{
  GtkApplication    *app;
  GSettings         *settings;
  PalAgentStore     *agent_store;
  PalSessionStore   *session_store;
  PalMcpServerStore *mcp_store;
  AcpPacer          *pacer;
  PalTranscriptStore *transcript_store;  /* NULL: nothing recorded */
  PalSessionManager *manager;
  PalWindow         *window;
  char              *folder;
} BenchFixture;

typedef gboolean (*BenchCondition) (gpointer data);

/* Call first thing in main(), before GTK is initialised: in-memory settings,
 * the build tree's schemas, no accessibility bus. */
void          bench_setup_environment      (void);

const char   *bench_fake_agent_path        (void);
/* Reads the bench scenario @name (a file next to the programs' sources),
 * sets the "count" of the first "updates" step of the @method handler (when
 * @count > 0) and writes the result to a temporary file. Returns its path
 * (transfer full). */
char         *bench_write_scenario         (const char      *name,
                                            const char      *method,
                                            guint            count,
                                            GError         **error);

/* @record: every session recorded into a transcript store (in a
 * temporary folder), as the application does */
BenchFixture *bench_fixture_new            (gboolean         record);
void          bench_fixture_free           (BenchFixture    *fixture);
/* A profile @id running the fake agent with @scenario_path */
void          bench_fixture_add_profile    (BenchFixture    *fixture,
                                            const char      *id,
                                            const char      *scenario_path);
/* A profile @id running @argv (argv[0] the program) */
void          bench_fixture_add_agent      (BenchFixture       *fixture,
                                            const char         *id,
                                            const char * const *argv);

/* Runs the main loop until @cond holds; FALSE after @seconds. */
gboolean      bench_wait                   (BenchCondition   cond,
                                            gpointer         data,
                                            guint            seconds);
/* Runs the main loop for @ms milliseconds. */
void          bench_settle                 (guint            ms);
/* Runs the main loop until @n more frames have been painted. */
gboolean      bench_wait_frames            (GtkWidget       *widget,
                                            guint            n);

/* Keeps the frame clock of @widget ticking (as a running animation would) and
 * gathers BenchFrameStats until bench_monitor_stop(). */
void          bench_monitor_start          (GtkWidget       *widget);
void          bench_monitor_stop           (BenchFrameStats *out);
/* Appends " frames=… longest_frame_ms=… …" to @line. */
void          bench_append_frame_stats     (GString               *line,
                                            const BenchFrameStats *stats);
/* With BENCH_TRACE set, every frame and these events go to stderr with
 * their time since bench_monitor_start(). */
void          bench_trace                  (const char            *event);
/* Frames painted since bench_monitor_start() (0 when not monitoring). */
guint         bench_monitor_get_n_frames   (void);

/* User + system CPU time of this process (all threads) in microseconds. */
gint64        bench_cpu_time_us            (void);
/* CPU time of the main thread (the caller), in microseconds. */
gint64        bench_main_thread_cpu_time_us (void);
/* CPU time of the process's threads named @name (as /proc shows them: "acp-reader"
 * for the connections' reading threads) since they started, in microseconds;
 * 0 when the kernel does not tell. */
gint64        bench_threads_cpu_time_us    (const char      *name);
/* From /proc/self/status, in KiB: "VmRSS", "VmHWM"; 0 when unknown. */
guint64       bench_read_status_kib        (const char      *key);
/* Resets VmHWM to the current RSS (Linux ≥ 4.0). FALSE when refused. */
gboolean      bench_reset_peak_rss         (void);

GtkWidget    *bench_find_descendant        (GtkWidget       *widget,
                                            GType            type);
/* Whether the chat view shows @model, laid out and scrolled to its end. */
gboolean      bench_chat_view_at_bottom    (GtkWidget       *chat_view,
                                            GListModel      *model);

void          bench_shutdown_manager       (BenchFixture    *fixture);

G_END_DECLS
