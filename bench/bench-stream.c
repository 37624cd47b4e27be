/* bench-stream.c: one long answer streamed in many small chunks
 *
 * Two ways to feed the chunks (--chunks, default 200,000), both into one
 * agent message shown in the chat view of a 1280×900 window:
 *
 * agent (default)  the real window and the whole stack: a new session with
 *                  the fake agent playing stream-chunks.json; the prompt is
 *                  sent from the composer; the agent writes every chunk as
 *                  fast as the pipe takes them (a flood: the connection hands
 *                  over what one 64 KiB read holds, some 340 chunks, per
 *                  main-loop iteration), then ends the turn.
 * --direct         the chat view alone over an AcpTranscript, without agent,
 *                  pipe or JSON parsing: --batch chunks (default 300) are
 *                  applied through acp_transcript_apply_update() at every
 *                  frame, a steady stream of 18,000 chunks a second at 60 Hz.
 *                  --split N starts a new message every N chunks: what the
 *                  frames would cost if a long message were shown as a run of
 *                  blocks, one list row each, rather than one growing row.
 * --long-line      the chunks (1 KiB each) never hold a newline: the answer
 *                  is one line (65,536 chunks: 64 MiB) and every path that
 *                  looks for the end of a line must stay linear.
 *
 * Measured from the prompt (or the first batch) until the turn is over, the
 * message holds every chunk, the view is at the end and two more frames were
 * painted: total_ms, and the frame statistics of bench-common.h. One line of
 * key=value per run on stdout. With the agent, the session is recorded
 * into a transcript store, as the application records it, unless
 * --no-record (record=yes|no on the line).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "acp-transcript.h"
#include "bench-common.h"
#include "pal-chat-view.h"
#include "pal-composer.h"
#include "pal-session-view.h"
#include "pal-warm-up.h"

#define STREAM_SCENARIO "stream-chunks.json"
#define LONG_LINE_SCENARIO "stream-long-line.json"

/* --- the chunks, as the scenario has them --- */

typedef struct
{
  GPtrArray *texts;     /* the templates' texts, with ${cycle} left in */
  guint      count;
  gsize      expected;  /* bytes of the whole message */
} Chunks;

static char *
expand (const char *text,
        guint       i,
        guint       n_templates)
{
  g_autoptr(GString) s = g_string_new (text);
  g_autofree char *cycle = g_strdup_printf ("%u", i / n_templates);
  g_autofree char *index = g_strdup_printf ("%u", i);

  g_string_replace (s, "${cycle}", cycle, 0);
  g_string_replace (s, "${i}", index, 0);

  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean
chunks_load (Chunks      *chunks,
             const char  *scenario,
             guint        count,
             GError     **error)
{
  g_autofree char *path = g_build_filename (BENCH_SOURCE_DIR, scenario, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *handlers;
  JsonArray *steps, *templates;

  if (!json_parser_load_from_file (parser, path, error))
    return FALSE;

  handlers = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                            "handlers");
  steps = json_object_get_array_member (handlers, "session/prompt");
  templates = json_object_get_array_member (json_array_get_object_element (steps, 0), "templates");

  chunks->texts = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < json_array_get_length (templates); i++)
    {
      JsonObject *update = json_array_get_object_element (templates, i);
      JsonObject *content = json_object_get_object_member (update, "content");

      g_ptr_array_add (chunks->texts, g_strdup (json_object_get_string_member (content, "text")));
    }

  chunks->count = count;
  chunks->expected = 0;
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *text = expand (g_ptr_array_index (chunks->texts, i % chunks->texts->len),
                                      i, chunks->texts->len);

      chunks->expected += strlen (text);
    }

  return TRUE;
}

/* @split > 0: every @split chunks start a new message */
static JsonObject *
chunks_make_update (Chunks *chunks,
                    guint   i,
                    guint   split)
{
  g_autofree char *message_id = split > 0 ? g_strdup_printf ("stream-%u", i / split)
                                          : g_strdup ("stream");
  JsonObject *update = json_object_new ();
  JsonObject *content = json_object_new ();
  g_autofree char *text = expand (g_ptr_array_index (chunks->texts, i % chunks->texts->len),
                                  i, chunks->texts->len);

  json_object_set_string_member (content, "type", "text");
  json_object_set_string_member (content, "text", text);
  json_object_set_string_member (update, "sessionUpdate", "agent_message_chunk");
  json_object_set_string_member (update, "messageId", message_id);
  json_object_set_object_member (update, "content", content);

  return update;
}

/* The length of the agent's text in @transcript, all its messages. */
static gsize
agent_text_length (GListModel *transcript)
{
  gsize length = 0;

  for (guint i = 0; i < g_list_model_get_n_items (transcript); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (transcript, i);

      if (ACP_IS_MESSAGE_ITEM (item) &&
          acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_AGENT)
        length += acp_message_item_get_text_length (ACP_MESSAGE_ITEM (item));
    }

  return length;
}

/* whether the agent's session is recorded (not for --direct) */
static const char *recorded = "-";

static void
print_result (const char            *mode,
              guint                  number,
              gboolean               ok,
              Chunks                *chunks,
              gsize                  received,
              gint64                 elapsed,
              gint64                 cpu,
              const BenchFrameStats *stats,
              guint                  batch,
              guint                  split)
{
  g_autoptr(GString) line = g_string_new (NULL);

  g_string_append_printf (line, "bench=stream mode=%s run=%u ok=%s record=%s chunks=%u", mode,
                          number, ok ? "yes" : "no", recorded, chunks->count);
  if (batch > 0)
    g_string_append_printf (line, " batch=%u", batch);
  if (split > 0)
    g_string_append_printf (line, " split=%u", split);
  g_string_append_printf (line,
                          " bytes=%" G_GSIZE_FORMAT " received=%" G_GSIZE_FORMAT
                          " total_ms=%.0f cpu_ms=%.0f",
                          chunks->expected, received, elapsed / 1000.0, cpu / 1000.0);
  bench_append_frame_stats (line, stats);
  g_string_append_printf (line, " rss_peak_mib=%.1f", bench_read_status_kib ("VmHWM") / 1024.0);
  printf ("%s\n", line->str);
  fflush (stdout);
}

/* --- through the fake agent and the real window --- */

typedef struct
{
  BenchFixture *fixture;
  Chunks       *chunks;
} AgentRun;

static AcpSession *
current_session (BenchFixture *fixture)
{
  GtkWidget *view = pal_window_get_session_view (fixture->window);

  return pal_session_view_get_session (PAL_SESSION_VIEW (view));
}

static gboolean
session_ready (gpointer data)
{
  AgentRun *run = data;
  AcpSession *session = current_session (run->fixture);

  return session != NULL && (acp_session_get_state (session) == ACP_SESSION_STATE_READY ||
                             acp_session_get_state (session) == ACP_SESSION_STATE_FAILED);
}

static gboolean
turn_shown (gpointer data)
{
  AgentRun *run = data;
  AcpSession *session = current_session (run->fixture);
  GtkWidget *view = pal_window_get_session_view (run->fixture->window);
  AcpTranscript *transcript;

  if (session == NULL)
    return FALSE;
  if (acp_session_get_state (session) == ACP_SESSION_STATE_FAILED)
    return TRUE;
  if (acp_session_get_state (session) != ACP_SESSION_STATE_READY ||
      acp_session_get_stop_reason (session) == NULL)
    return FALSE;

  transcript = acp_session_get_transcript (session);
  if (acp_transcript_get_n_pending (transcript) > 0)
    return FALSE;
  if (agent_text_length (G_LIST_MODEL (transcript)) < run->chunks->expected)
    return FALSE;

  return bench_chat_view_at_bottom (pal_session_view_get_chat_view (PAL_SESSION_VIEW (view)),
                                    G_LIST_MODEL (transcript));
}

static gboolean
run_agent (BenchFixture *fixture,
           Chunks       *chunks,
           guint         number)
{
  AgentRun run = { fixture, chunks };
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer;
  GtkWidget *window = GTK_WIDGET (fixture->window);
  BenchFrameStats stats;
  AcpSession *session;
  gint64 start, end, cpu_start, cpu;
  gsize received = 0;
  gboolean shown = FALSE;

  pal_window_start_session (fixture->window, "bench-stream", fixture->folder, NULL);
  if (!bench_wait (session_ready, &run, 60) ||
      acp_session_get_state (current_session (fixture)) != ACP_SESSION_STATE_READY)
    {
      g_printerr ("run %u: the session did not start\n", number);
      return FALSE;
    }
  bench_settle (300);

  composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  pal_composer_set_text (composer, "Why does the parser drop long lines?");

  start = g_get_monotonic_time ();
  cpu_start = bench_cpu_time_us ();
  bench_monitor_start (window);
  if (!pal_composer_submit (composer))
    g_printerr ("run %u: the composer did not send\n", number);

  for (guint attempt = 0; attempt < 100 && !shown; attempt++)
    {
      if (!bench_wait (turn_shown, &run, 600))
        break;
      if (acp_session_get_state (current_session (fixture)) == ACP_SESSION_STATE_FAILED)
        break;
      bench_trace ("shown");
      bench_wait_frames (window, 2);
      shown = turn_shown (&run);
    }

  end = g_get_monotonic_time ();
  cpu = bench_cpu_time_us () - cpu_start;
  bench_monitor_stop (&stats);

  session = current_session (fixture);
  if (!shown)
    g_printerr ("run %u: the answer was not shown in full\n", number);
  if (session != NULL)
    received = agent_text_length (G_LIST_MODEL (acp_session_get_transcript (session)));

  print_result ("agent", number, shown, chunks, received, end - start, cpu, &stats, 0, 0);

  if (session != NULL)
    pal_session_manager_forget (fixture->manager,
                                pal_session_manager_get_session_key (fixture->manager, session));
  bench_settle (500);

  return shown;
}

/* --- straight into a transcript --- */

typedef struct
{
  AcpTranscript *transcript;
  Chunks        *chunks;
  GtkWidget     *chat_view;
  guint          batch;
  guint          split;
  guint          next;
  gboolean       failed;
} DirectRun;

static gboolean
feed_tick_cb (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       data)
{
  DirectRun *run = data;
  guint end = MIN (run->chunks->count, run->next + run->batch);

  for (; run->next < end; run->next++)
    {
      g_autoptr(JsonObject) update = chunks_make_update (run->chunks, run->next, run->split);
      g_autoptr(GError) error = NULL;

      if (!acp_transcript_apply_update (run->transcript, update, &error))
        {
          g_printerr ("chunk %u: %s\n", run->next, error->message);
          run->failed = TRUE;
          return G_SOURCE_REMOVE;
        }
    }

  return run->next < run->chunks->count ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean
direct_shown (gpointer data)
{
  DirectRun *run = data;

  if (run->failed)
    return TRUE;
  if (run->next < run->chunks->count || acp_transcript_get_n_pending (run->transcript) > 0)
    return FALSE;

  if (agent_text_length (G_LIST_MODEL (run->transcript)) < run->chunks->expected)
    return FALSE;

  return bench_chat_view_at_bottom (run->chat_view, G_LIST_MODEL (run->transcript));
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static gboolean
warmed_up (gpointer data)
{
  return pal_warm_up_is_done (gtk_widget_get_display (data));
}

static gboolean
run_direct (Chunks *chunks,
            guint   number,
            guint   batch,
            guint   split)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  /* the view reports its frames as in the application; no connection
   * waits for them here */
  g_autoptr(AcpPacer) pacer = acp_pacer_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *chat_view = pal_chat_view_new ();
  DirectRun run = { transcript, chunks, chat_view, batch, split, 0, FALSE };
  BenchFrameStats stats;
  gint64 start, end, cpu_start, cpu;
  gboolean shown = FALSE;
  guint tick;

  /* the prompt, as the session view shows it */
  json_parser_load_from_data (parser,
                              "[{\"type\": \"text\","
                              " \"text\": \"Why does the parser drop long lines?\"}]",
                              -1, NULL);
  acp_transcript_append_prompt (transcript, json_node_get_array (json_parser_get_root (parser)));

  pal_chat_view_set_pacer (PAL_CHAT_VIEW (chat_view), pacer);
  pal_chat_view_set_model (PAL_CHAT_VIEW (chat_view), G_LIST_MODEL (transcript));
  gtk_window_set_child (GTK_WINDOW (window), chat_view);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  gtk_window_present (GTK_WINDOW (window));
  bench_wait (window_mapped, window, 30);
  /* what the application's window loads once shown (see pal-warm-up.c) */
  pal_warm_up_start (window);
  bench_wait (warmed_up, window, 30);
  bench_wait_frames (window, 3);
  bench_settle (200);

  start = g_get_monotonic_time ();
  cpu_start = bench_cpu_time_us ();
  bench_monitor_start (window);
  tick = gtk_widget_add_tick_callback (window, feed_tick_cb, &run, NULL);

  for (guint attempt = 0; attempt < 100 && !shown; attempt++)
    {
      if (!bench_wait (direct_shown, &run, 600) || run.failed)
        break;
      bench_trace ("shown");
      bench_wait_frames (window, 2);
      shown = direct_shown (&run);
    }

  end = g_get_monotonic_time ();
  cpu = bench_cpu_time_us () - cpu_start;
  bench_monitor_stop (&stats);
  if (run.next < chunks->count)
    gtk_widget_remove_tick_callback (window, tick);

  print_result ("direct", number, shown, chunks, agent_text_length (G_LIST_MODEL (transcript)),
                end - start, cpu, &stats, batch, split);

  gtk_window_destroy (GTK_WINDOW (window));
  bench_settle (300);

  return shown;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario_path = NULL;
  BenchFixture *fixture = NULL;
  Chunks chunks = { 0 };
  int count = 200000;
  int repeat = 1;
  int batch = 300;
  int split = 0;
  gboolean direct = FALSE;
  gboolean long_line = FALSE;
  gboolean no_record = FALSE;
  gboolean ok = TRUE;
  const char *scenario;
  const GOptionEntry entries[] = {
    { "chunks", 'n', 0, G_OPTION_ARG_INT, &count, "Chunks streamed (default 200000)", "N" },
    { "repeat", 'r', 0, G_OPTION_ARG_INT, &repeat, "Runs in this process (default 1)", "N" },
    { "direct", 'd', 0, G_OPTION_ARG_NONE, &direct,
      "Feed an AcpTranscript directly, --batch chunks per frame, without the agent", NULL },
    { "batch", 'b', 0, G_OPTION_ARG_INT, &batch,
      "Chunks per frame with --direct (default 300)", "N" },
    { "split", 0, 0, G_OPTION_ARG_INT, &split,
      "With --direct, start a new message every N chunks (a long message shown in blocks)", "N" },
    { "long-line", 0, 0, G_OPTION_ARG_NONE, &long_line,
      "Chunks of 1 KiB that never hold a newline: the answer is one line", NULL },
    { "no-record", 0, 0, G_OPTION_ARG_NONE, &no_record,
      "Record nothing into a transcript store (the application records every session)", NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bench_setup_environment ();

  context = g_option_context_new ("- stream one long answer into the chat view");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (count < 1 || repeat < 1 || batch < 1 || split < 0)
    {
      g_printerr ("--chunks, --repeat and --batch must be positive, --split not negative\n");
      return 2;
    }

  scenario = long_line ? LONG_LINE_SCENARIO : STREAM_SCENARIO;
  if (!chunks_load (&chunks, scenario, count, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  gtk_init ();
  adw_init ();

  if (!direct)
    {
      scenario_path = bench_write_scenario (scenario, "session/prompt", count, &error);
      if (scenario_path == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      fixture = bench_fixture_new (!no_record);
      recorded = no_record ? "no" : "yes";
      bench_fixture_add_profile (fixture, "bench-stream", scenario_path);
    }

  for (int i = 1; i <= repeat; i++)
    {
      if (direct)
        ok = run_direct (&chunks, i, batch, split) && ok;
      else
        ok = run_agent (fixture, &chunks, i) && ok;
    }

  if (fixture != NULL)
    bench_fixture_free (fixture);
  if (scenario_path != NULL)
    g_unlink (scenario_path);
  g_ptr_array_unref (chunks.texts);

  return ok ? 0 : 1;
}
