/* test-window.c: the main window driven as a person would, with the fake agent
 *
 * New session → prompt → permission card answered → end of turn; a past
 * session opened with a live replay of 10,000 updates; a screenshot of the
 * window saved for a person to look at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "acp-fs-access-request-private.h"
#include "acp-notice-item.h"
#include "acp-permission-item.h"
#include "pal-agent-log-window.h"
#include "pal-chat-view.h"
#include "pal-composer.h"
#include "pal-new-session-dialog.h"
#include "pal-notice-row.h"
#include "pal-output-view.h"
#include "pal-permission-row.h"
#include "pal-session-row.h"
#include "pal-session-view.h"
#include "pal-sign-in-terminal.h"
#include "pal-terminal-view.h"
#include "pal-tooltip.h"
#include "pal-sidebar.h"
#include "pal-window.h"
#include "pal-window-private.h"
#include "find-descendant.h"
#include "store-util.h"
#include "test-util.h"
#include "process-group.h"
#include "vte-text.h"

/* Processes end without telling anyone but their parent: waiting for that
 * looks again this often. */
#define POLL_MS 10

typedef struct
{
  GtkApplication    *app;
  GSettings         *settings;
  PalAgentStore     *agent_store;
  PalSessionStore   *session_store;
  PalMcpServerStore *mcp_store;
  AcpPacer          *pacer;
  PalSessionManager *manager;
  PalWindow         *window;
  char              *folder;
} Fixture;

typedef gboolean (*Condition) (Fixture *fixture);

/* A key freed at the end of the test. */
static PalSessionKey *
key_of (const char *agent_id,
        const char *session_id)
{
  PalSessionKey *key = pal_session_key_new (agent_id, session_id);

  g_test_queue_destroy ((GDestroyNotify) pal_session_key_unref, key);
  return key;
}

/* the stored session of the replay tests */
#define PAST_SESSION key_of ("fake-replay", "past-session")

/* NOT_RUNNING when the session is not live */
static PalSessionState
state_of (Fixture       *fixture,
          PalSessionKey *key)
{
  PalLiveSession *live = pal_session_manager_lookup_live (fixture->manager, key);

  return live != NULL ? pal_live_session_get_state (live) : PAL_SESSION_STATE_NOT_RUNNING;
}

/* one application for the whole program: an id can be registered once */
static GtkApplication *test_app;

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_for (Fixture   *fixture,
          Condition  cond,
          guint      seconds)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (seconds, timeout_cb, &timed_out);

  while (!cond (fixture) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (id);
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 150 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->settings = g_settings_new (APPLICATION_ID);
  g_settings_reset (fixture->settings, "sessions");
  g_settings_reset (fixture->settings, "agents");
  g_settings_reset (fixture->settings, "mcp-servers");
  fixture->folder = g_dir_make_tmp ("palaver-window-XXXXXX", &error);
  g_assert_no_error (error);

  fixture->app = g_object_ref (test_app);

  fixture->agent_store = pal_agent_store_new (fixture->settings);
  fixture->session_store = pal_session_store_new (fixture->settings);
  fixture->mcp_store = pal_mcp_server_store_new (fixture->settings);
  fixture->pacer = acp_pacer_new ();
  fixture->manager = pal_session_manager_new (fixture->agent_store, fixture->session_store, fixture->mcp_store,
                                              fixture->pacer);

  test_add_agent (fixture->agent_store, "fake-permission", test_fake_agent_path (), "permission.json");
  test_add_agent (fixture->agent_store, "fake-replay", test_fake_agent_path (), "replay-10k.json");
  test_add_agent (fixture->agent_store, "fake-basic", test_fake_agent_path (), "basic.json");
  test_add_agent (fixture->agent_store, "fake-auth", test_fake_agent_path (), "auth-required.json");
  test_add_agent (fixture->agent_store, "fake-exit", test_fake_agent_path (), "exit-on-start.json");
  test_add_agent (fixture->agent_store, "fake-terminal", test_fake_agent_path (), "terminal-embed.json");
  test_add_agent (fixture->agent_store, "fake-codex-shell", test_fake_agent_path (), "codex-shell.json");
  test_add_agent (fixture->agent_store, "fake-gemini-shell", test_fake_agent_path (), "gemini-shell.json");
  test_add_agent (fixture->agent_store, "fake-fs-outside", test_fake_agent_path (), "fs-outside.json");
  test_add_agent (fixture->agent_store, "fake-minimal", test_fake_agent_path (), "minimal.json");
  test_add_agent (fixture->agent_store, "fake-auth-prompt", test_fake_agent_path (), "auth-on-prompt.json");
  test_add_agent (fixture->agent_store, "fake-auth-fails", test_fake_agent_path (), "auth-fails.json");
  test_add_agent (fixture->agent_store, "fake-auth-ignored", test_fake_agent_path (), "auth-ignored.json");
  test_add_agent (fixture->agent_store, "fake-hang-turn", test_fake_agent_path (), "hang-turn.json");
  test_add_agent (fixture->agent_store, "fake-env-key", test_fake_agent_path (), "auth-env-var.json");
  test_add_agent (fixture->agent_store, "fake-login", test_fake_agent_path (), "auth-terminal.json");
  test_add_agent (fixture->agent_store, "fake-hang-new", test_fake_agent_path (), "hang-new.json");
  test_add_agent (fixture->agent_store, "fake-crash", test_fake_agent_path (), "crash-mid-request.json");

  /* GTK animates a blinking cursor at every frame for ten seconds after the
   * last key; assert_goes_idle () looks for other work */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  fixture->window = pal_window_new (fixture->app, fixture->manager, NULL);
  gtk_window_present (GTK_WINDOW (fixture->window));
  settle ();
}

static gboolean
shutdown_done (Fixture *fixture)
{
  return g_object_get_data (G_OBJECT (fixture->manager), "test-shut-down") != NULL;
}

static void
shutdown_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  pal_session_manager_shutdown_finish (PAL_SESSION_MANAGER (object), result, NULL);
  g_object_set_data (object, "test-shut-down", GINT_TO_POINTER (1));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  pal_session_manager_shutdown_async (fixture->manager, NULL, shutdown_cb, NULL);
  wait_for (fixture, shutdown_done, 20);

  g_clear_object (&fixture->manager);
  g_clear_object (&fixture->pacer);
  g_clear_object (&fixture->mcp_store);
  g_clear_object (&fixture->session_store);
  g_clear_object (&fixture->agent_store);
  g_clear_object (&fixture->app);
  g_clear_object (&fixture->settings);
  g_rmdir (fixture->folder);
  g_free (fixture->folder);
}

static AcpSession *
current_session (Fixture *fixture)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));

  return pal_session_view_get_session (view);
}

static gboolean
session_ready (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_READY;
}

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect (child, type, out);
}

static gboolean
permission_card_shown (Fixture *fixture)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect (GTK_WIDGET (fixture->window), PAL_TYPE_PERMISSION_ROW, rows);
  return rows->len > 0;
}

typedef struct
{
  GtkWidget  *window;
  const char *name;
  gboolean    done;
} Screenshot;

/* Right after a frame was painted, every widget has its allocation: take
 * the snapshot then, not at an arbitrary point between layout passes. */
static void
after_paint_cb (GdkFrameClock *clock,
                Screenshot    *shot)
{
  GtkWidget *widget = adw_application_window_get_content (ADW_APPLICATION_WINDOW (shot->window));
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *dir = g_build_filename (g_getenv ("MESON_BUILD_ROOT") ? g_getenv ("MESON_BUILD_ROOT") : ".",
                                           "screenshots", NULL);
  g_autofree char *path = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  if (shot->done)
    return;
  shot->done = TRUE;

  /* the window's background is drawn by the window, not its content */
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.98, 0.98, 0.98, 1.0 },
                             &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_widget_snapshot_child (gtk_widget_get_parent (widget), widget, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));

  g_mkdir_with_parents (dir, 0755);
  path = g_build_filename (dir, shot->name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("Screenshot saved to %s", path);
}

static void
save_screenshot (GtkWidget  *window,
                 const char *name)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  Screenshot shot = { window, name, FALSE };
  gulong id;
  gboolean timed_out = FALSE;
  guint timeout_id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &shot);
  gtk_widget_queue_draw (window);
  timeout_id = g_timeout_add_seconds (10, timeout_cb, &timed_out);
  while (!shot.done && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
  g_assert_false (timed_out);
  g_source_remove (timeout_id);
}

static gboolean
permission_row_focused (Fixture *fixture)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (fixture->window));

  return focus != NULL && PAL_IS_PERMISSION_ROW (focus);
}

static AcpPermissionItem *
first_permission (Fixture *fixture)
{
  AcpTranscript *transcript = acp_session_get_transcript (current_session (fixture));

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (transcript)); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (G_LIST_MODEL (transcript), i);

      if (ACP_IS_PERMISSION_ITEM (item))
        return ACP_PERMISSION_ITEM (item);
    }

  return NULL;
}

/* For the keyboard alone: a permission request asked while the person
 * waits takes the focus, says what it asks to a screen reader, and Alt+1
 * (the action it is bound to) answers it with its first option */
static void
test_permission_keyboard (Fixture       *fixture,
                          gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  GtkWidget *row;
  AcpPermissionItem *item;

  pal_window_start_session (fixture->window, "fake-permission", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  pal_session_view_focus_composer (view);

  pal_composer_set_text (composer, "Please write the file");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, permission_row_focused, 30);

  row = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_true (gtk_widget_has_focus (row));
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_ROLE_GROUP));
  gtk_test_accessible_assert_property (row, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "The agent asks for permission: Write file. Waiting for an answer");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.answer-permission",
                                             "u", 0));
  item = first_permission (fixture);
  g_assert_nonnull (item);
  g_assert_cmpint (acp_permission_item_get_state (item), ==, ACP_PERMISSION_STATE_SELECTED);
  g_assert_cmpstr (acp_permission_item_get_selected_option_id (item), ==, "allow_once");
  wait_for (fixture, session_ready, 30);
  {
    g_autoptr(GPtrArray) rows = g_ptr_array_new ();

    collect (GTK_WIDGET (fixture->window), PAL_TYPE_PERMISSION_ROW, rows);
    g_assert_cmpuint (rows->len, ==, 1);
    gtk_test_accessible_assert_property (g_ptr_array_index (rows, 0), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                         "The agent asks for permission: Write file. Answered: Allow");
  }
}

static void
test_new_prompt_permission (Fixture       *fixture,
                            gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  PalSessionKey *key;
  PalSessionRecord *record;
  AcpTranscript *transcript;
  gboolean saw_agent_text = FALSE;

  pal_window_start_session (fixture->window, "fake-permission", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);

  key = pal_window_get_current_session (fixture->window);
  g_assert_nonnull (key);
  record = pal_session_store_lookup (fixture->session_store, key);
  g_assert_nonnull (record);
  g_assert_cmpstr (pal_session_record_get_cwd (record), ==, fixture->folder);

  /* the person types a prompt and presses Enter */
  pal_composer_set_text (composer, "Please write the file\nwith care");
  g_assert_true (pal_composer_submit (composer));
  g_assert_true (pal_composer_get_busy (composer));

  /* the permission card appears; the person allows */
  wait_for (fixture, permission_card_shown, 30);
  g_assert_cmpint (state_of (fixture, key), ==, PAL_SESSION_STATE_WAITING_PERMISSION);
  {
    g_autoptr(GPtrArray) rows = g_ptr_array_new ();
    g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

    collect (GTK_WIDGET (fixture->window), PAL_TYPE_PERMISSION_ROW, rows);
    collect (g_ptr_array_index (rows, 0), GTK_TYPE_BUTTON, buttons);
    g_assert_cmpuint (buttons->len, >=, 1);
    save_screenshot (GTK_WIDGET (fixture->window), "window-permission.png");
    g_signal_emit_by_name (g_ptr_array_index (buttons, 0), "clicked");
  }

  /* the turn ends */
  wait_for (fixture, session_ready, 30);
  g_assert_false (pal_composer_get_busy (composer));
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");

  transcript = acp_session_get_transcript (current_session (fixture));
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (transcript)); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (G_LIST_MODEL (transcript), i);

      if (ACP_IS_PERMISSION_ITEM (item))
        g_assert_cmpint (acp_permission_item_get_state (ACP_PERMISSION_ITEM (item)), ==,
                         ACP_PERMISSION_STATE_SELECTED);
      if (ACP_IS_MESSAGE_ITEM (item) &&
          acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_AGENT)
        saw_agent_text = TRUE;
    }
  g_assert_true (saw_agent_text);

  /* the sidebar's record took the first line of the prompt as its title */
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Please write the file");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "Please write the file");

  /* a rename shows in the window at once */
  pal_session_store_rename (fixture->session_store, key, "Renamed");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "Renamed");
  settle ();
  save_screenshot (GTK_WIDGET (fixture->window), "window.png");
}

static gboolean
replay_started (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_LOADING &&
         acp_session_get_replay_count (session) > 0;
}

static gboolean
loading (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_LOADING;
}

/* The label within @widget whose text starts with @prefix, mapped or not */
static GtkLabel *
find_label_starting (GtkWidget  *widget,
                     const char *prefix)
{
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix))
    return GTK_LABEL (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *label = find_label_starting (child, prefix);

      if (label != NULL)
        return label;
    }

  return NULL;
}

typedef struct
{
  GtkWidget *window;
  guint      count;
  char      *text;
  gboolean   revealed;
  gboolean   bar;
} FirstCount;

/* Connected after the session view: what it shows of the first count */
static void
first_count_cb (AcpSession *session,
                GParamSpec *pspec,
                FirstCount *first)
{
  GtkLabel *label;

  if (first->text != NULL || acp_session_get_state (session) != ACP_SESSION_STATE_LOADING)
    return;

  label = find_label_starting (first->window, "Loading the conversation…");
  first->count = acp_session_get_replay_count (session);
  first->text = g_strdup (label != NULL ? gtk_label_get_text (label) : "");
  /* whole, not cut off halfway through an animation the replay stalls */
  if (label != NULL)
    {
      GtkWidget *revealer = gtk_widget_get_ancestor (GTK_WIDGET (label), GTK_TYPE_REVEALER);

      first->revealed = gtk_revealer_get_child_revealed (GTK_REVEALER (revealer));
      first->bar = find_descendant (revealer, GTK_TYPE_PROGRESS_BAR) != NULL;
    }
}

static void
items_during_load_cb (GListModel *model,
                      guint       position,
                      guint       removed,
                      guint       added,
                      gpointer    user_data)
{
  AcpSession *session = user_data;
  guint *shown_while_loading = g_object_get_data (G_OBJECT (model), "shown-while-loading");

  if (added > 0 && acp_session_get_state (session) == ACP_SESSION_STATE_LOADING)
    *shown_while_loading += added;
}

static void
count_update_cb (GdkFrameClock *clock,
                 guint         *count)
{
  (*count)++;
}

/* Within 15 s, half a second passes without the frame clock updating: no
 * animation, tick callback or layout keeps the window working (the cursor
 * does not blink in these tests, see fixture_set_up ()) */
static void
assert_goes_idle (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gint64 deadline = g_get_monotonic_time () + 15 * G_TIME_SPAN_SECOND;
  guint updates = 1;
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "update", G_CALLBACK (count_update_cb), &updates);
  while (updates > 0 && g_get_monotonic_time () < deadline)
    {
      gint64 until = g_get_monotonic_time () + 500 * G_TIME_SPAN_MILLISECOND;

      updates = 0;
      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, FALSE);
    }
  g_signal_handler_disconnect (clock, id);

  g_assert_cmpuint (updates, ==, 0);
}

static void
count_paint_cb (GdkFrameClock *frame_clock,
                guint         *count)
{
  (*count)++;
}

static guint n_painted;

static gboolean
painted (Fixture *fixture)
{
  return n_painted > 0;
}

/* The frame that shows a session comes before its opening: the agent and
 * its replay would share the machine with that frame. */
static void
test_open_after_frame (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("past-session", "fake-replay", fixture->folder);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (fixture->window));
  gulong id;

  pal_session_record_set_title (record, "A long past session");
  pal_session_store_add (fixture->session_store, record);
  g_assert_nonnull (clock);

  n_painted = 0;
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint_cb), &n_painted);
  pal_window_open_session (fixture->window, PAST_SESSION);

  /* shown, not opened yet */
  g_assert_true (pal_session_key_equal0 (pal_window_get_current_session (fixture->window), PAST_SESSION));
  g_assert_true (gtk_widget_get_mapped (pal_window_get_session_view (fixture->window)));
  g_assert_cmpint (state_of (fixture, PAST_SESSION), ==, PAL_SESSION_STATE_NOT_RUNNING);

  /* the frame, then the opening */
  wait_for (fixture, painted, 10);
  g_signal_handler_disconnect (clock, id);
  g_assert_cmpint (state_of (fixture, PAST_SESSION), !=, PAL_SESSION_STATE_NOT_RUNNING);
  wait_for (fixture, session_ready, 60);
}

static guint n_paced_frames;

static void
paced_frame_cb (AcpPacer *pacer,
                guint    *count)
{
  (*count)++;
}

static gboolean
paced_frame_reported (Fixture *fixture)
{
  return n_paced_frames > 0;
}

/* The window's transcript reports its frames to the pacer the manager gives
 * the agents, so that their messages keep in step with them. */
static void
test_frames_pace_agent (Fixture       *fixture,
                        gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  GtkWidget *chat_view = pal_session_view_get_chat_view (view);
  AcpAgent *agent;
  gulong id;

  g_assert_true (pal_chat_view_get_pacer (PAL_CHAT_VIEW (chat_view)) == fixture->pacer);

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  agent = acp_session_get_agent (current_session (fixture));
  g_assert_true (acp_agent_get_pacer (agent) == fixture->pacer);
  g_assert_true (acp_connection_get_pacer (acp_agent_get_connection (agent)) == fixture->pacer);

  n_paced_frames = 0;
  id = g_signal_connect (fixture->pacer, "frame", G_CALLBACK (paced_frame_cb), &n_paced_frames);
  gtk_widget_queue_draw (chat_view);
  wait_for (fixture, paced_frame_reported, 10);
  g_signal_handler_disconnect (fixture->pacer, id);
}

/* Whether @widget holds a one-line summary row, on screen or not */
static gboolean
holds_summary (GtkWidget *widget)
{
  if (!gtk_widget_get_visible (widget))
    return FALSE;
  if (gtk_widget_has_css_class (widget, "summary-row"))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (holds_summary (child))
      return TRUE;

  return FALSE;
}

/* The chat has caught up with a flood: every item back in the list, every
 * row of the list built in full */
static gboolean
chat_settled (Fixture *fixture)
{
  GtkWidget *chat_view = pal_session_view_get_chat_view (PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window)));

  return pal_chat_view_get_caught_up (PAL_CHAT_VIEW (chat_view)) &&
         !holds_summary (find_descendant (chat_view, GTK_TYPE_LIST_VIEW));
}

static void
test_open_replays_live (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("past-session", "fake-replay", fixture->folder);
  AcpSession *session;
  guint shown_while_loading = 0;
  FirstCount first = { GTK_WIDGET (fixture->window) };

  pal_session_record_set_title (record, "A long past session");
  pal_session_store_add (fixture->session_store, record);

  pal_window_open_session (fixture->window, PAST_SESSION);

  /* the view shows the session while the replay streams in ... */
  wait_for (fixture, loading, 30);
  g_signal_connect (current_session (fixture), "notify::replay-count", G_CALLBACK (first_count_cb), &first);
  wait_for (fixture, replay_started, 30);
  session = current_session (fixture);
  g_object_set_data (G_OBJECT (acp_session_get_transcript (session)), "shown-while-loading",
                     &shown_while_loading);
  g_signal_connect (acp_session_get_transcript (session), "items-changed",
                    G_CALLBACK (items_during_load_cb), session);

  wait_for (fixture, session_ready, 60);
  g_signal_handlers_disconnect_by_func (acp_session_get_transcript (session), items_during_load_cb, session);
  g_signal_handlers_disconnect_by_func (session, first_count_cb, &first);

  /* the loading showed as soon as the first updates were counted, in
   * words of the person's, with a bar */
  g_assert_cmpuint (first.count, >, 0);
  g_assert_cmpstr (first.text, ==, "Loading the conversation…");
  g_assert_true (first.revealed);
  g_assert_true (first.bar);
  g_free (first.text);

  /* ... and the transcript grew before the load finished, not after */
  g_assert_cmpuint (shown_while_loading, >, 0);
  g_assert_cmpuint (acp_session_get_replay_count (current_session (fixture)), ==, 10000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (current_session (fixture)))),
                    >, 1000);
  g_assert_true (pal_session_key_equal0 (pal_window_get_current_session (fixture->window), PAST_SESSION));

  /* once the replay is shown and its rows are built, the window rests:
   * nothing ticks at every frame (the replay's progress bar did, hidden,
   * for ever). How long the rows take depends on how busy the machine is:
   * they are waited for first. */
  wait_for (fixture, chat_settled, 60);
  assert_goes_idle (GTK_WIDGET (fixture->window));
}

static gboolean
listed_sessions_shown (Fixture *fixture)
{
  return pal_session_store_lookup (fixture->session_store, key_of ("fake-basic", "listed-1")) != NULL;
}

static void
test_agent_sessions_listed (Fixture       *fixture,
                            gconstpointer  data)
{
  PalSessionRecord *listed;

  /* an agent with session/list: its sessions join the sidebar, marked */
  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  wait_for (fixture, listed_sessions_shown, 30);

  listed = pal_session_store_lookup (fixture->session_store, key_of ("fake-basic", "listed-1"));
  g_assert_true (pal_session_record_get_from_agent (listed));
  g_assert_cmpstr (pal_session_record_get_title (listed), ==, "Fix the build");
  g_assert_cmpstr (pal_session_record_get_agent_id (listed), ==, "fake-basic");
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

/* As a click on a response button does: the response, then the dialog closes. */
static void
answer_dialog (AdwMessageDialog *dialog,
               const char       *response)
{
  adw_message_dialog_response (dialog, response);
  gtk_window_destroy (GTK_WINDOW (dialog));
  settle ();
}

static gboolean
auth_dialog_shown (Fixture *fixture)
{
  return find_message_dialog () != NULL;
}

static void
test_sign_in (Fixture       *fixture,
              gconstpointer  data)
{
  AdwMessageDialog *dialog;

  /* the agent answers session/new with "authentication required": the
   * window lists its sign-in methods, runs the chosen one, then retries */
  pal_window_start_session (fixture->window, "fake-auth", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);

  dialog = find_message_dialog ();
  g_assert_true (adw_message_dialog_has_response (dialog, "agent:api-key"));
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, "agent:api-key"), ==, "API key");
  adw_message_dialog_response (dialog, "agent:api-key");
  gtk_window_destroy (GTK_WINDOW (dialog));

  wait_for (fixture, session_ready, 30);
  g_assert_nonnull (pal_window_get_current_session (fixture->window));
}

static gboolean
error_page_visible (Fixture *fixture)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (fixture->window->content_stack), "error") == 0;
}

static void
test_sign_in_fails (Fixture       *fixture,
                    gconstpointer  data)
{
  AdwMessageDialog *dialog;
  GtkWidget *retry;

  /* cancelling the sign-in of a new session goes back to where the person
   * was, rather than leaving "Starting" on screen */
  pal_window_start_session (fixture->window, "fake-auth-fails", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fixture->window->content_stack), ==, "welcome");

  /* a sign-in the agent refuses: its reason, from the error's data, on the
   * error page; Retry there starts over and asks again */
  pal_window_start_session (fixture->window, "fake-auth-fails", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "agent:api-key");
  gtk_window_destroy (GTK_WINDOW (dialog));
  wait_for (fixture, error_page_visible, 30);
  g_assert_cmpstr (adw_status_page_get_title (fixture->window->error_page), ==, "Signing in failed");
  g_assert_cmpstr (adw_status_page_get_description (fixture->window->error_page), ==,
                   "Internal error: FAKE_API_KEY is not set");

  retry = GTK_WIDGET (find_label_starting (GTK_WIDGET (fixture->window->error_page), "Retry"));
  g_assert_nonnull (retry);
  retry = gtk_widget_get_ancestor (retry, GTK_TYPE_BUTTON);
  g_assert_nonnull (retry);
  g_signal_emit_by_name (retry, "clicked");
  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* an agent that takes the sign-in and still asks for one: the window says
   * so instead of asking again and again */
  pal_window_start_session (fixture->window, "fake-auth-ignored", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "agent:api-key");
  gtk_window_destroy (GTK_WINDOW (dialog));
  wait_for (fixture, error_page_visible, 30);
  g_assert_null (find_message_dialog ());
  g_assert_cmpstr (adw_status_page_get_title (fixture->window->error_page), ==,
                   "The agent still asks for a sign-in");
  g_assert_cmpstr (adw_status_page_get_description (fixture->window->error_page), ==,
                   "The API key is missing or not configured.");
  /* where an API key would go: the agent's settings */
  g_assert_true (gtk_widget_get_visible (fixture->window->error_agent_button));
  g_assert_cmpstr (fixture->window->error_agent_id, ==, "fake-auth-ignored");
}

static gboolean
no_dialog_shown (Fixture *fixture)
{
  return find_message_dialog () == NULL;
}

static gboolean
values_dialog_shown (Fixture *fixture)
{
  AdwMessageDialog *dialog = find_message_dialog ();

  return dialog != NULL && adw_message_dialog_has_response (dialog, "sign-in");
}

/* A method that is an API key in the environment asks for it (masked), keeps
 * it in the agent's settings, and the agent starts again with it. */
static void
test_sign_in_values (Fixture       *fixture,
                     gconstpointer  data)
{
  AdwMessageDialog *dialog;
  g_autoptr(GPtrArray) secret_rows = g_ptr_array_new ();
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  PalAgentProfile *profile;
  const char *env_expected[] = { "FAKE_API_KEY=sk-test", NULL };

  pal_window_start_session (fixture->window, "fake-env-key", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  g_assert_true (adw_message_dialog_has_response (dialog, "values:fake-key"));
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, "values:fake-key"), ==, "Fake API Key…");
  answer_dialog (dialog, "values:fake-key");

  wait_for (fixture, values_dialog_shown, 30);
  dialog = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "A key of the fake service."));
  /* no keyring here: the dialog says where the values go instead */
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "not in a keyring"));
  collect (GTK_WIDGET (dialog), ADW_TYPE_PASSWORD_ENTRY_ROW, secret_rows);
  collect (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, rows);
  /* the key masked, the optional organisation not */
  g_assert_cmpuint (secret_rows->len, ==, 1);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpstr (adw_preferences_row_get_title (secret_rows->pdata[0]), ==, "API key");
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "sign-in"));
  gtk_editable_set_text (GTK_EDITABLE (secret_rows->pdata[0]), "  sk-test ");
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "sign-in"));
  /* Enter in the row signs in */
  gtk_widget_grab_focus (secret_rows->pdata[0]);
  g_signal_emit_by_name (secret_rows->pdata[0], "entry-activated");
  wait_for (fixture, no_dialog_shown, 30);

  /* kept in the profile (trimmed; the empty optional value left out), and
   * the agent started again with it */
  profile = pal_agent_store_lookup (fixture->agent_store, "fake-env-key");
  g_assert_true (g_strv_equal (pal_agent_profile_get_env (profile), env_expected));
  wait_for (fixture, session_ready, 30);
  g_assert_null (find_message_dialog ());
}

/* With a keyring, the values go there and the dialog says so; the agent
 * gets them all the same. Run by tests/secret-service.sh keyring. */
static void
test_sign_in_values_keyring (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(PalSecretStore) secrets = pal_secret_store_new ();
  g_autoptr(GPtrArray) secret_rows = g_ptr_array_new ();
  const char *names[] = { "FAKE_API_KEY", NULL };
  AdwMessageDialog *dialog;
  PalAgentProfile *profile;

  if (g_strcmp0 (g_getenv ("PALAVER_TEST_SECRET_SERVICE"), "keyring") != 0)
    {
      g_test_skip ("Needs a Secret Service: run by tests/secret-service.sh keyring");
      return;
    }
  pal_agent_store_set_secret_store (fixture->agent_store, secrets);

  pal_window_start_session (fixture->window, "fake-env-key", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);
  answer_dialog (find_message_dialog (), "values:fake-key");
  wait_for (fixture, values_dialog_shown, 30);
  dialog = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "kept in your keyring"));
  collect (GTK_WIDGET (dialog), ADW_TYPE_PASSWORD_ENTRY_ROW, secret_rows);
  gtk_editable_set_text (GTK_EDITABLE (secret_rows->pdata[0]), "sk-test");
  answer_dialog (dialog, "sign-in");

  wait_for (fixture, session_ready, 30);
  profile = pal_agent_store_lookup (fixture->agent_store, "fake-env-key");
  g_assert_cmpuint (g_strv_length ((char **) pal_agent_profile_get_env (profile)), ==, 0);
  g_assert_cmpstrv (pal_agent_profile_get_secrets (profile), names);
}

static gboolean
error_page_shown (Fixture *fixture)
{
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();

  collect (GTK_WIDGET (fixture->window), ADW_TYPE_STATUS_PAGE, pages);
  for (guint i = 0; i < pages->len; i++)
    {
      const char *icon = adw_status_page_get_icon_name (g_ptr_array_index (pages, i));

      if (g_strcmp0 (icon, "dialog-error-symbolic") == 0)
        return TRUE;
    }

  return FALSE;
}

static void
test_agent_fails_to_start (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(AcpAgent) agent = NULL;
  AcpTrafficLog *log;
  gboolean stderr_logged = FALSE;

  /* the agent exits before answering: an error page that says so in one
   * sentence, links the agent log (which has its stderr) instead of quoting
   * it, and has Retry */
  pal_window_start_session (fixture->window, "fake-exit", fixture->folder, NULL);
  wait_for (fixture, error_page_shown, 30);

  g_assert_cmpstr (adw_status_page_get_description (fixture->window->error_page), ==,
                   "The agent exited with status 7.");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fixture->window->error_expander)));
  g_assert_true (gtk_widget_get_visible (fixture->window->error_log_button));
  agent = pal_session_manager_dup_last_agent (fixture->manager, "fake-exit");
  g_assert_nonnull (agent);
  log = acp_agent_get_traffic_log (agent);
  acp_traffic_log_flush (log);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (log)); i++)
    {
      g_autoptr(AcpTrafficEntry) entry = g_list_model_get_item (G_LIST_MODEL (log), i);

      if (acp_traffic_entry_get_direction (entry) == ACP_TRAFFIC_STDERR &&
          g_strcmp0 (acp_traffic_entry_get_text (entry), "fatal: cannot find config") == 0)
        stderr_logged = TRUE;
    }
  g_assert_true (stderr_logged);
  /* the agent's settings are a click away */
  g_assert_true (gtk_widget_get_visible (fixture->window->error_agent_button));

  /* the agent's own words, as they are, never read as markup; with no
   * agent concerned, no settings to offer */
  {
    g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                   "The agent said: R&D <broken>\nmore of it");

    _pal_window_show_error (fixture->window, "Failed", NULL, error);
    settle ();
    g_assert_nonnull (find_label_starting (GTK_WIDGET (fixture->window), "The agent said: R&D <broken>"));
    g_assert_false (gtk_widget_get_visible (fixture->window->error_agent_button));
    /* no agent ran, no log: the whole message behind Details */
    g_assert_false (gtk_widget_get_visible (fixture->window->error_log_button));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fixture->window->error_expander)));
  }
}

/* A spinning spinner animates its style at every frame, whether or not it
 * is on screen; one left spinning on a page that is not shown would keep
 * the window busy at every frame while idle. */
static guint
count_spinning (GtkWidget *widget,
                gboolean   drawable)
{
  guint n = 0;

  /* mapped or not, unlike collect () */
  if (GTK_IS_SPINNER (widget) && gtk_spinner_get_spinning (GTK_SPINNER (widget)) &&
      gtk_widget_is_drawable (widget) == drawable)
    n++;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    n += count_spinning (child, drawable);

  return n;
}

static void
test_no_spinner_off_screen (Fixture       *fixture,
                            gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);

  /* the welcome page: nothing spins */
  g_assert_cmpuint (count_spinning (window, FALSE), ==, 0);
  g_assert_cmpuint (count_spinning (window, TRUE), ==, 0);

  /* while the agent starts, the page saying so spins, on screen */
  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  g_assert_cmpuint (count_spinning (window, TRUE), ==, 1);
  g_assert_cmpuint (count_spinning (window, FALSE), ==, 0);

  /* once it is ready, nothing spins off screen */
  wait_for (fixture, session_ready, 30);
  settle ();
  g_assert_cmpuint (count_spinning (window, FALSE), ==, 0);
}

static PalNewSessionDialog *
find_new_session_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (PAL_IS_NEW_SESSION_DIALOG (window))
        return PAL_NEW_SESSION_DIALOG (window);
    }

  return NULL;
}

/* The button of @root labelled @label (mnemonic or not), or NULL */
static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_descendant_of_type (GtkWidget *root,
                         GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_descendant_of_type (c, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
agent_shown (Fixture *fixture)
{
  PalNewSessionDialog *dialog = find_new_session_dialog ();

  return dialog != NULL && find_label_starting (GTK_WIDGET (dialog), "fake-permission") != NULL;
}

/* New Session for a screen reader and the keyboard: its buttons are named
 * without their mnemonics' underscores; the agent shown in the Agent row
 * names its row; Return on that row opens its list (it does not start) */
static void
test_new_session_keyboard (Fixture       *fixture,
                           gconstpointer  data)
{
  PalNewSessionDialog *dialog;
  GtkWidget *agent_row, *popover, *shown;
  GtkEventController *keys = NULL;
  g_autoptr(GListModel) controllers = NULL;
  gboolean handled = FALSE;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-session", NULL));
  dialog = find_new_session_dialog ();
  g_assert_nonnull (dialog);
  pal_new_session_dialog_set_agent_id (dialog, "fake-permission");

  gtk_test_accessible_assert_property (find_button (GTK_WIDGET (dialog), "_Start"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Start");
  gtk_test_accessible_assert_property (find_button (GTK_WIDGET (dialog), "_Cancel"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Cancel");
  gtk_test_accessible_assert_property (find_button (GTK_WIDGET (dialog), "_Choose…"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Choose…");

  agent_row = find_descendant_of_type (GTK_WIDGET (dialog), ADW_TYPE_COMBO_ROW);
  g_assert_nonnull (agent_row);
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (agent_row), GTK_ACCESSIBLE_ROLE_COMBO_BOX));
  /* named by its title alone, not by it and the same label again */
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (agent_row), GTK_ACCESSIBLE_PROPERTY_LABEL));
  /* the row of the list showing the agent chosen is named after it */
  wait_for (fixture, agent_shown, 10);
  shown = GTK_WIDGET (find_label_starting (agent_row, "fake-permission"));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (gtk_widget_get_parent (gtk_widget_get_parent (shown))),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));

  /* Return on the row opens its list */
  popover = find_descendant_of_type (agent_row, GTK_TYPE_POPOVER);
  g_assert_nonnull (popover);
  g_assert_false (gtk_widget_get_visible (popover));
  g_assert_true (gtk_widget_grab_focus (agent_row));
  controllers = gtk_widget_observe_controllers (agent_row);
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && keys == NULL; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        keys = controller;
    }
  g_assert_nonnull (keys);
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Return, 0, 0, &handled);
  g_assert_true (handled);
  g_assert_true (gtk_widget_get_visible (popover));
  g_assert_true (find_new_session_dialog () == dialog);

  gtk_popover_popdown (GTK_POPOVER (popover));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_new_session_dialog (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(PalMcpServerConfig) stdio = pal_mcp_server_config_new ("tools", ACP_MCP_TRANSPORT_STDIO);
  g_autoptr(PalMcpServerConfig) web = pal_mcp_server_config_new ("web", ACP_MCP_TRANSPORT_HTTP);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) servers = NULL;
  PalNewSessionDialog *dialog;

  g_autoptr(PalMcpServerConfig) broken = pal_mcp_server_config_new ("broken", ACP_MCP_TRANSPORT_HTTP);

  pal_mcp_server_config_set_command (stdio, "/bin/cat");
  pal_mcp_server_config_set_url (web, "http://127.0.0.1:9/mcp");
  pal_mcp_server_config_set_url (broken, "ftp://127.0.0.1/mcp");
  pal_mcp_server_store_add (fixture->mcp_store, broken, &error);
  g_assert_no_error (error);
  {
    /* bare program names, as imported configurations have: looked up on PATH */
    g_autoptr(PalMcpServerConfig) bare = pal_mcp_server_config_new ("bare", ACP_MCP_TRANSPORT_STDIO);
    g_autoptr(PalMcpServerConfig) missing = pal_mcp_server_config_new ("missing", ACP_MCP_TRANSPORT_STDIO);

    pal_mcp_server_config_set_command (bare, "sh");
    pal_mcp_server_config_set_command (missing, "no-such-program-for-palaver");
    pal_mcp_server_store_add (fixture->mcp_store, bare, &error);
    g_assert_no_error (error);
    pal_mcp_server_store_add (fixture->mcp_store, missing, &error);
    g_assert_no_error (error);
  }
  pal_mcp_server_store_add (fixture->mcp_store, stdio, &error);
  g_assert_no_error (error);
  pal_mcp_server_store_add (fixture->mcp_store, web, &error);
  g_assert_no_error (error);
  {
    g_autoptr(PalMcpServerConfig) odd = pal_mcp_server_config_new ("R&D <tools>", ACP_MCP_TRANSPORT_STDIO);

    pal_mcp_server_config_set_command (odd, "/bin/cat");
    pal_mcp_server_config_set_enabled (odd, TRUE);
    pal_mcp_server_store_add (fixture->mcp_store, odd, &error);
    g_assert_no_error (error);
  }

  /* the main menu opens without a tooltip over its first item */
  {
    GtkWidget *found = NULL;
    GtkWidget *menu;
    g_autoptr(GPtrArray) stack = g_ptr_array_new ();

    g_ptr_array_add (stack, fixture->window);
    while (stack->len > 0 && found == NULL)
      {
        GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);

        if (GTK_IS_MENU_BUTTON (w) &&
            g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (w)), "open-menu-symbolic") == 0)
          found = w;
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
          g_ptr_array_add (stack, c);
      }
    g_assert_nonnull (found);
    /* asked at once: with the main loop run, another program's window on
     * the same display may take the focus, and the menu closes */
    g_assert_true (gtk_widget_get_has_tooltip (found));
    gtk_menu_button_popup (GTK_MENU_BUTTON (found));
    menu = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (found)));
    g_assert_true (gtk_widget_get_visible (menu));
    g_assert_false (gtk_widget_get_has_tooltip (found));
    gtk_menu_button_popdown (GTK_MENU_BUTTON (found));
    g_assert_true (gtk_widget_get_has_tooltip (found));
    settle ();
    g_assert_true (gtk_widget_get_has_tooltip (found));
  }

  /* Ctrl+N's action opens the dialog with every enabled server ticked,
   * except one that does not validate */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-session", NULL));
  dialog = find_new_session_dialog ();
  g_assert_nonnull (dialog);
  /* with an agent and a folder preselected, Enter starts: Start has the
   * focus, not Cancel */
  {
    GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (dialog));

    g_assert_true (GTK_IS_BUTTON (focus));
    g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focus)), ==, "_Start");
    g_assert_true (gtk_widget_get_sensitive (focus));
  }
  /* "bare" is ticked once "sh" is found; "missing" is not */
  for (guint round = 0; round < 100; round++)
    {
      g_clear_pointer (&servers, g_strfreev);
      servers = pal_new_session_dialog_dup_mcp_servers (dialog);
      if (g_strv_length (servers) == 4)
        break;
      settle ();
    }
  g_assert_cmpuint (g_strv_length (servers), ==, 4);
  g_assert_true (g_strv_contains ((const char * const *) servers, "bare"));
  g_assert_false (g_strv_contains ((const char * const *) servers, "missing"));
  pal_new_session_dialog_set_mcp_server_active (dialog, "bare", FALSE);
  pal_new_session_dialog_set_mcp_server_active (dialog, "R&D <tools>", FALSE);

  /* the person unticks one, picks an agent and a folder, and starts */
  pal_new_session_dialog_set_mcp_server_active (dialog, "web", FALSE);
  g_strfreev (servers);
  servers = pal_new_session_dialog_dup_mcp_servers (dialog);
  g_assert_cmpuint (g_strv_length (servers), ==, 1);
  g_assert_cmpstr (servers[0], ==, "tools");

  pal_new_session_dialog_set_agent_id (dialog, "fake-permission");
  g_assert_cmpstr (pal_new_session_dialog_get_agent_id (dialog), ==, "fake-permission");
  /* names and folders are shown as they are, never read as markup */
  {
    g_autofree char *odd = g_build_filename (fixture->folder, "R&D <notes>", NULL);

    pal_new_session_dialog_set_folder (dialog, odd);
    settle ();
    g_assert_nonnull (find_label_starting (GTK_WIDGET (dialog), odd));
    g_assert_nonnull (find_label_starting (GTK_WIDGET (dialog), "R&D <tools>"));
  }
  /* a folder in the home folder reads from there */
  {
    g_autofree char *in_home = g_build_filename (g_get_home_dir (), "projects", "hello", NULL);

    pal_new_session_dialog_set_folder (dialog, in_home);
    settle ();
    g_assert_nonnull (find_label_starting (GTK_WIDGET (dialog), "~/projects/hello"));
    g_assert_cmpstr (pal_new_session_dialog_get_folder (dialog), ==, in_home);
  }
  /* a folder whose name is not UTF-8 is shown escaped and cannot be
   * started in: agents are given folders as text */
  {
    g_autofree char *latin1 = g_build_filename (fixture->folder, "caf\xe9", NULL);
    g_autofree char *shown = g_filename_display_name (latin1);

    pal_new_session_dialog_set_folder (dialog, latin1);
    settle ();
    g_assert_nonnull (find_label_starting (GTK_WIDGET (dialog), shown));
    g_assert_false (pal_new_session_dialog_start (dialog));
    g_assert_nonnull (find_new_session_dialog ());
  }
  /* the demo says what it is; other agents need no such word */
  g_assert_null (find_label_starting (GTK_WIDGET (dialog), "Canned answers"));
  pal_new_session_dialog_set_agent_id (dialog, PAL_AGENT_ID_DEMO);
  g_assert_cmpstr (pal_new_session_dialog_get_agent_id (dialog), ==, PAL_AGENT_ID_DEMO);
  settle ();
  g_assert_nonnull (find_label_starting (GTK_WIDGET (dialog), "Canned answers, no account needed"));
  pal_new_session_dialog_set_agent_id (dialog, "fake-permission");
  settle ();
  g_assert_null (find_label_starting (GTK_WIDGET (dialog), "Canned answers"));

  pal_new_session_dialog_set_folder (dialog, fixture->folder);
  g_assert_true (pal_new_session_dialog_start (dialog));
  settle ();
  g_assert_null (find_new_session_dialog ());

  wait_for (fixture, session_ready, 30);
  g_assert_cmpstr (acp_session_get_cwd (current_session (fixture)), ==, fixture->folder);
}

static gboolean
dialog_knows_agent (Fixture *fixture)
{
  PalNewSessionDialog *dialog = find_new_session_dialog ();

  return dialog != NULL && !pal_new_session_dialog_get_checking_agent (dialog);
}

static gboolean
label_shown (GtkWidget  *widget,
             const char *text)
{
  GtkLabel *label = find_label_starting (widget, text);

  return label != NULL && gtk_widget_is_visible (GTK_WIDGET (label));
}

static void
assert_dialog_folders (PalNewSessionDialog *dialog,
                       const char * const  *expected)
{
  g_auto(GStrv) folders = pal_new_session_dialog_dup_additional_folders (dialog);

  g_assert_cmpstrv (folders, expected);
}

/* The dialog offers additional folders for an agent that takes them, only */
static void
test_new_session_dialog_folders (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *extra = g_dir_make_tmp ("palaver-extra-XXXXXX", &error);
  g_autofree char *other = g_dir_make_tmp ("palaver-other-XXXXXX", &error);
  g_autofree char *inside = g_build_filename (fixture->folder, "sub", NULL);
  const char *none[] = { NULL };
  const char *only_extra[] = { extra, NULL };
  const char *both[] = { extra, other, NULL };
  PalNewSessionDialog *dialog;
  PalSessionRecord *record;

  g_assert_no_error (error);
  test_add_agent (fixture->agent_store, "fake-folders", test_fake_agent_path (), "folders.json");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-session", NULL));
  dialog = find_new_session_dialog ();
  g_assert_nonnull (dialog);
  pal_new_session_dialog_set_folder (dialog, fixture->folder);

  /* the agent is started to learn what it supports; it takes folders */
  pal_new_session_dialog_set_agent_id (dialog, "fake-folders");
  wait_for (fixture, dialog_knows_agent, 30);
  g_assert_true (pal_new_session_dialog_get_offers_folders (dialog));
  g_assert_true (label_shown (GTK_WIDGET (dialog), "Additional Folders"));

  g_assert_true (pal_new_session_dialog_add_folder (dialog, extra));
  g_assert_true (label_shown (GTK_WIDGET (dialog), extra));
  /* the project folder's own, and repeats, are refused */
  g_assert_false (pal_new_session_dialog_add_folder (dialog, inside));
  g_assert_false (pal_new_session_dialog_add_folder (dialog, fixture->folder));
  g_assert_false (pal_new_session_dialog_add_folder (dialog, extra));
  assert_dialog_folders (dialog, only_extra);

  /* an agent that does not take them: no list, and none given */
  pal_new_session_dialog_set_agent_id (dialog, "fake-permission");
  wait_for (fixture, dialog_knows_agent, 30);
  g_assert_false (pal_new_session_dialog_get_offers_folders (dialog));
  g_assert_false (label_shown (GTK_WIDGET (dialog), "Additional Folders"));
  g_assert_false (label_shown (GTK_WIDGET (dialog), extra));
  assert_dialog_folders (dialog, none);

  /* back: known at once now, and the list kept */
  pal_new_session_dialog_set_agent_id (dialog, "fake-folders");
  g_assert_false (pal_new_session_dialog_get_checking_agent (dialog));
  g_assert_true (pal_new_session_dialog_get_offers_folders (dialog));
  assert_dialog_folders (dialog, only_extra);

  /* a row's remove button takes its folder out */
  g_assert_true (pal_new_session_dialog_add_folder (dialog, other));
  assert_dialog_folders (dialog, both);
  {
    GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (find_label_starting (GTK_WIDGET (dialog), extra)),
                                              ADW_TYPE_ACTION_ROW);
    g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

    g_assert_nonnull (row);
    collect (row, GTK_TYPE_BUTTON, buttons);
    g_assert_cmpuint (buttons->len, ==, 1);
    g_signal_emit_by_name (g_ptr_array_index (buttons, 0), "clicked");
  }
  {
    const char *only_other[] = { other, NULL };

    assert_dialog_folders (dialog, only_other);
    g_assert_null (find_label_starting (GTK_WIDGET (dialog), extra));

    /* the session starts with them */
    g_assert_true (pal_new_session_dialog_start (dialog));
    wait_for (fixture, session_ready, 30);
    g_assert_cmpstrv (acp_session_get_additional_directories (current_session (fixture)), only_other);
    record = pal_session_store_lookup (fixture->session_store,
                                       pal_window_get_current_session (fixture->window));
    g_assert_cmpstrv (pal_session_record_get_additional_directories (record), only_other);

    /* the header says the session has one more folder, and names it */
    {
      g_autofree char *base = g_path_get_basename (fixture->folder);
      g_autofree char *subtitle = g_strdup_printf ("%s +1 · fake-folders", base);
      AdwWindowTitle *title = fixture->window->window_title;

      g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, subtitle);
      g_assert_nonnull (strstr (pal_widget_get_quiet_tooltip (GTK_WIDGET (title)), other));
    }
  }

  g_rmdir (extra);
  g_rmdir (other);
}

static void
test_geometry_remembered (Fixture       *fixture,
                          gconstpointer  data)
{
  PalWindow *window;
  int width, height;

  g_settings_set_int (fixture->settings, "window-width", 900);
  g_settings_set_int (fixture->settings, "window-height", 640);
  g_settings_set_int (fixture->settings, "sidebar-width", 280);
  g_settings_set_boolean (fixture->settings, "window-maximized", FALSE);

  /* a window built with the settings starts at the stored size */
  window = pal_window_new (fixture->app, fixture->manager, fixture->settings);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 640);
  g_assert_cmpint (_pal_window_get_sidebar_width (window), ==, 280);

  /* the person resizes; closing the window stores the new geometry */
  gtk_window_present (GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  _pal_window_set_sidebar_width (window, 333);
  settle ();
  gtk_window_close (GTK_WINDOW (window));
  settle ();

  g_assert_cmpint (g_settings_get_int (fixture->settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (fixture->settings, "window-height"), ==, 700);
  g_assert_cmpint (g_settings_get_int (fixture->settings, "sidebar-width"), ==, 333);
}

static gboolean
window_folded (Fixture *fixture)
{
  /* and the folding animation over: the list has the whole width */
  return adw_leaflet_get_folded (fixture->window->leaflet) &&
         gtk_widget_get_width (GTK_WIDGET (fixture->window->leaflet)) == 360 &&
         gtk_widget_get_width (pal_window_get_sidebar (fixture->window)) == 360;
}

static gboolean
window_unfolded (Fixture *fixture)
{
  /* (the window's frame takes a little of its size) */
  return !adw_leaflet_get_folded (fixture->window->leaflet) &&
         gtk_widget_get_width (GTK_WIDGET (fixture->window->leaflet)) > 1000 &&
         gtk_widget_get_width (pal_window_get_sidebar (fixture->window)) == 300;
}

static gboolean
chat_whole_width (Fixture *fixture)
{
  graphene_rect_t bounds;

  return gtk_widget_compute_bounds (GTK_WIDGET (fixture->window->session_view),
                                    GTK_WIDGET (fixture->window->leaflet), &bounds) &&
         bounds.origin.x == 0 && bounds.size.width == 360;
}

static const char *
shown_pane (Fixture *fixture)
{
  return adw_leaflet_get_visible_child_name (fixture->window->leaflet);
}

/* A narrow window (a phone, half a small screen) shows one pane at a time:
 * the list, then the chat of the session chosen, with a way back. */
static void
test_folds_narrow (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("narrow-session", "fake-basic",
                                                               fixture->folder);
  PalSessionKey *key = key_of ("fake-basic", "narrow-session");
  int minimum = 0;

  pal_session_record_set_title (record, "Fix the build");
  pal_session_store_add (fixture->session_store, record);
  /* libadwaita 1.2's leaflet loses the render nodes of a child transition
   * still running when its window goes (a leak the sanitizer build sees):
   * the panes change at once here */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  /* the window may be as narrow as a phone */
  gtk_widget_measure (GTK_WIDGET (fixture->window->toast_overlay), GTK_ORIENTATION_HORIZONTAL, -1,
                      &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 360);

  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 360, 700);
  wait_for (fixture, window_folded, 10);
  g_assert_cmpstr (shown_pane (fixture), ==, "sidebar");
  save_screenshot (GTK_WIDGET (fixture->window), "window-narrow-sessions.png");

  /* choosing a session shows it, titled, with a button back to the list */
  _pal_window_show_session (fixture->window, key);
  g_assert_cmpstr (shown_pane (fixture), ==, "content");
  g_assert_true (gtk_widget_get_visible (fixture->window->back_button));
  g_assert_cmpstr (adw_window_title_get_title (fixture->window->window_title), ==, "Fix the build");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fixture->window->state_label)));
  wait_for (fixture, chat_whole_width, 10);
  save_screenshot (GTK_WIDGET (fixture->window), "window-narrow-session.png");

  /* back: the list, the session still chosen */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window->back_button),
                                             "win.show-sessions", NULL));
  g_assert_cmpstr (shown_pane (fixture), ==, "sidebar");
  g_assert_true (pal_session_key_equal0 (pal_window_get_current_session (fixture->window), key));

  /* chosen again, it is shown again; no session chosen, the list is */
  _pal_window_show_session (fixture->window, key);
  g_assert_cmpstr (shown_pane (fixture), ==, "content");
  _pal_window_show_session (fixture->window, NULL);
  g_assert_cmpstr (shown_pane (fixture), ==, "sidebar");

  /* wide again: side by side, and no back button */
  _pal_window_show_session (fixture->window, key);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1100, 760);
  wait_for (fixture, window_unfolded, 10);
  g_assert_false (gtk_widget_get_visible (fixture->window->back_button));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fixture->window->state_label)));
  g_assert_true (gtk_widget_get_mapped (pal_window_get_sidebar (fixture->window)));
  g_assert_true (gtk_widget_get_mapped (pal_window_get_session_view (fixture->window)));
  settle ();
  save_screenshot (GTK_WIDGET (fixture->window), "window-wide.png");
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", TRUE, NULL);
}

static gboolean
terminal_output_shown (Fixture *fixture)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  collect (GTK_WIDGET (fixture->window), PAL_TYPE_TERMINAL_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    {
      g_autofree char *text = pal_terminal_view_dup_text (g_ptr_array_index (views, i));

      if (strstr (text, "hello from the terminal") != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
test_embedded_terminal (Fixture       *fixture,
                        gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));

  /* the agent runs a command through the client and embeds its terminal in
   * a tool call: the row shows the command's output */
  pal_window_start_session (fixture->window, "fake-terminal", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  pal_composer_set_text (composer, "Run it");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, terminal_output_shown, 30);
  wait_for (fixture, session_ready, 30);
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");
}

/* What shell_output_shown () looks for */
static const char *shell_output;

static gboolean
shell_output_shown (Fixture *fixture)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  collect (GTK_WIDGET (fixture->window), PAL_TYPE_OUTPUT_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    {
      g_autofree char *text = pal_output_view_dup_text (g_ptr_array_index (views, i));

      if (strstr (text, shell_output) != NULL)
        return TRUE;
    }

  return FALSE;
}

static gboolean
permission_pending (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session != NULL && acp_session_get_pending_permissions (session) > 0;
}

/* An agent runs a command, allowed with its option: what it printed shows
 * in the chat */
typedef struct
{
  const char *profile_id;
  const char *option;
  const char *output;
  const char *screenshot;
} ShellTurn;

/* Codex streams it in the updates' _meta */
static const ShellTurn codex_shell = {
  "fake-codex-shell", "allow_once", "aaa\nbbb", "window-codex-shell.png"
};

/* Gemini CLI sends it as text, once it runs commands without a
 * pseudo-terminal */
static const ShellTurn gemini_shell = {
  "fake-gemini-shell", "proceed_once", "line-one\nno newline", "window-gemini-shell.png"
};

static void
test_agent_shell_output (Fixture       *fixture,
                         gconstpointer  data)
{
  const ShellTurn *turn = data;
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  GListModel *transcript;
  g_autoptr(GError) error = NULL;
  gboolean allowed = FALSE;

  pal_window_start_session (fixture->window, turn->profile_id, fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  pal_composer_set_text (composer, "Run it");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, permission_pending, 30);

  /* the person allows */
  transcript = G_LIST_MODEL (acp_session_get_transcript (current_session (fixture)));
  acp_transcript_flush (ACP_TRANSCRIPT (transcript));
  for (guint i = 0; i < g_list_model_get_n_items (transcript); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (transcript, i);

      if (ACP_IS_PERMISSION_ITEM (item))
        {
          g_assert_true (acp_permission_item_select (ACP_PERMISSION_ITEM (item), turn->option, &error));
          g_assert_no_error (error);
          allowed = TRUE;
        }
    }
  g_assert_true (allowed);

  shell_output = turn->output;
  wait_for (fixture, shell_output_shown, 30);
  wait_for (fixture, session_ready, 30);
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");
  save_screenshot (GTK_WIDGET (fixture->window), turn->screenshot);
}

static void
test_file_outside_asks (Fixture       *fixture,
                        gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autofree char *outside_dir = g_dir_make_tmp ("palaver-outside-XXXXXX", NULL);
  g_autofree char *outside = g_build_filename (outside_dir, "note.txt", NULL);
  AdwMessageDialog *dialog;

  g_assert_true (g_file_set_contents (outside, "outside\n", -1, NULL));

  /* the agent reads a file outside the project: the person is asked, allows,
   * and the agent gets the content (its scenario checks it) */
  pal_window_start_session (fixture->window, "fake-fs-outside", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  pal_composer_set_text (composer, outside);
  g_assert_true (pal_composer_submit (composer));

  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), outside));
  adw_message_dialog_response (dialog, "allow");

  wait_for (fixture, session_ready, 30);
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");

  g_unlink (outside);
  g_rmdir (outside_dir);
}

static void
count_answer (gboolean allowed,
              gpointer user_data)
{
  int *answers = user_data;

  *answers = *answers * 10 + (allowed ? 1 : 2);
}

static gboolean
has_label_with (GtkWidget  *root,
                const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_is_visible (labels->pdata[i]) &&
        strstr (gtk_label_get_text (labels->pdata[i]), text) != NULL)
      return TRUE;

  return FALSE;
}

static guint
count_message_dialogs (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        n++;
    }

  return n;
}

/* Many file requests at once are asked one at a time, the dialog says how
 * many wait, withdrawn ones are skipped; and a path is said for what it is:
 * a file of this very process, a link leading out of the project. */
static void
test_file_requests_queued (Fixture       *fixture,
                           gconstpointer  data)
{
  AcpFsService *service = pal_session_manager_get_fs_service (fixture->manager);
  g_autofree char *own = g_strdup_printf ("/proc/%d/environ", (int) getpid ());
  g_autoptr(GCancellable) third_withdrawn = g_cancellable_new ();
  g_autoptr(AcpFsAccessRequest) first = NULL;
  g_autoptr(AcpFsAccessRequest) second = NULL;
  g_autoptr(AcpFsAccessRequest) third = NULL;
  int answers = 0;
  gboolean handled = FALSE;
  AdwMessageDialog *dialog;

  first = _acp_fs_access_request_new (NULL, "s1", "/proc/self/environ", own, FALSE, NULL,
                                      count_answer, &answers);
  second = _acp_fs_access_request_new (NULL, "s1", "/tmp/project/link", "/etc/passwd", TRUE, NULL,
                                       count_answer, &answers);
  third = _acp_fs_access_request_new (NULL, "s1", "/etc/hosts", "/etc/hosts", FALSE,
                                      third_withdrawn, count_answer, &answers);
  g_signal_emit_by_name (service, "access-request", "s1", own, FALSE, first, &handled);
  g_assert_true (handled);
  g_signal_emit_by_name (service, "access-request", "s1", "/etc/passwd", TRUE, second, &handled);
  g_signal_emit_by_name (service, "access-request", "s1", "/etc/hosts", FALSE, third, &handled);
  settle ();

  g_assert_cmpuint (count_message_dialogs (), ==, 1);
  dialog = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), own));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "Palaver’s own process"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "“/proc/self/environ”"));
  g_assert_true (has_label_with (GTK_WIDGET (dialog), "2 more requests wait"));

  answer_dialog (dialog, "deny");
  g_assert_cmpint (answers, ==, 2);
  g_assert_cmpuint (count_message_dialogs (), ==, 1);
  dialog = find_message_dialog ();
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "which leads to “/etc/passwd”"));
  g_assert_false (strstr (adw_message_dialog_get_body (dialog), "own process"));
  g_assert_true (has_label_with (GTK_WIDGET (dialog), "1 more request waits"));

  /* the third is withdrawn while it waits: it is not asked */
  g_cancellable_cancel (third_withdrawn);
  answer_dialog (dialog, "allow");
  g_assert_cmpint (answers, ==, 21);
  g_assert_cmpuint (count_message_dialogs (), ==, 0);
}

static gboolean
live_and_ready (Fixture    *fixture,
                const char *agent_id)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new (agent_id, "fake-session-1");
  AcpSession *session = pal_session_manager_lookup (fixture->manager, key);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_READY;
}

static gboolean
basic_ready (Fixture *fixture)
{
  return live_and_ready (fixture, "fake-basic");
}

static gboolean
minimal_ready (Fixture *fixture)
{
  return live_and_ready (fixture, "fake-minimal");
}

/* Two agents' sessions of the same id are live: the question names the
 * one whose agent asks */
static void
test_file_request_names_session (Fixture       *fixture,
                                 gconstpointer  data)
{
  AcpFsService *service = pal_session_manager_get_fs_service (fixture->manager);
  PalSessionKey *basic = key_of ("fake-basic", "fake-session-1");
  PalSessionKey *minimal = key_of ("fake-minimal", "fake-session-1");
  g_autoptr(AcpFsAccessRequest) request = NULL;
  gboolean handled = FALSE;
  int answers = 0;
  AdwMessageDialog *dialog;
  AcpAgent *agent;

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, basic_ready, 30);
  pal_window_start_session (fixture->window, "fake-minimal", fixture->folder, NULL);
  wait_for (fixture, minimal_ready, 30);
  pal_session_store_set_title (fixture->session_store, basic, "The basic agent's work");
  pal_session_store_set_title (fixture->session_store, minimal, "The minimal agent's work");

  agent = acp_session_get_agent (pal_session_manager_lookup (fixture->manager, minimal));
  request = _acp_fs_access_request_new (agent, "fake-session-1", "/etc/hosts", "/etc/hosts", FALSE,
                                        NULL, count_answer, &answers);
  g_signal_emit_by_name (service, "access-request", "fake-session-1", "/etc/hosts", FALSE, request,
                         &handled);
  g_assert_true (handled);
  settle ();

  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (has_label_with (GTK_WIDGET (dialog), "The minimal agent's work"));
  g_assert_false (has_label_with (GTK_WIDGET (dialog), "The basic agent's work"));
  answer_dialog (dialog, "deny");
  g_assert_cmpint (answers, ==, 2);
}

static gboolean
session_closed (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_CLOSED;
}

static gboolean
turn_ended (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session_ready (fixture) && acp_session_get_stop_reason (session) != NULL;
}

static gboolean
has_message (AcpSession     *session,
             AcpMessageRole  role,
             const char     *text)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (session));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (ACP_IS_MESSAGE_ITEM (item) &&
          acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == role &&
          g_strcmp0 (acp_message_item_get_text (ACP_MESSAGE_ITEM (item)), text) == 0)
        return TRUE;
    }

  return FALSE;
}

/* The body of the last notice of the session shown */
static const char *
last_notice_body (Fixture *fixture)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (current_session (fixture)));
  const char *body = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (ACP_IS_NOTICE_ITEM (item))
        body = acp_notice_item_get_body (ACP_NOTICE_ITEM (item));
    }

  return body;
}

/* The window tells that the session shown is closed once its close is
 * done, a little after the session's state says so. */
static gboolean
closed_notice_shown (Fixture *fixture)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (current_session (fixture)));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (ACP_IS_NOTICE_ITEM (item) &&
          g_strcmp0 (acp_notice_item_get_title (ACP_NOTICE_ITEM (item)), "The session is closed") == 0)
        return TRUE;
    }

  return FALSE;
}

/* Activates the window's @action on the session @key, as the session's menu
 * does. The parameter is sunk here: a widget's action does not take a
 * floating one (GTK 4.8). */
static gboolean
activate_on_session (Fixture       *fixture,
                     const char    *action,
                     PalSessionKey *key)
{
  g_autoptr(GVariant) target = g_variant_ref_sink (pal_session_key_to_variant (key));

  return gtk_widget_activate_action_variant (GTK_WIDGET (fixture->window), action, target);
}

/* Closes the session shown, as its menu's Close does, and waits until it is. */
static void
close_current (Fixture *fixture)
{
  PalSessionKey *key = pal_window_get_current_session (fixture->window);

  g_assert_true (activate_on_session (fixture, "win.close-session", key));
  wait_for (fixture, session_closed, 30);
}

/* Writes to the session shown and waits for the end of the turn: a
 * session written to stays listed when it is closed. */
static void
prompt_current (Fixture    *fixture,
                const char *text)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));

  pal_composer_set_text (composer, text);
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_ended, 30);
}

static gboolean
nothing_current (Fixture *fixture)
{
  return pal_window_get_current_session (fixture->window) == NULL;
}

/* A new session closed before anything was written to it leaves no
 * "New Session" behind in the list; one written to stays. */
static void
test_unused_session_dropped (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = NULL;

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  key = pal_session_key_ref (pal_window_get_current_session (fixture->window));
  g_assert_nonnull (pal_session_store_lookup (fixture->session_store, key));

  g_assert_true (activate_on_session (fixture, "win.close-session", key));
  wait_for (fixture, nothing_current, 30);
  g_assert_null (pal_session_store_lookup (fixture->session_store, key));
  g_assert_null (pal_session_manager_lookup (fixture->manager, key));
  g_assert_null (pal_sidebar_get_row (PAL_SIDEBAR (pal_window_get_sidebar (fixture->window)), key));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fixture->window->content_stack), ==, "welcome");

  /* written to, it stays */
  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  g_clear_pointer (&key, pal_session_key_unref);
  key = pal_session_key_ref (pal_window_get_current_session (fixture->window));
  prompt_current (fixture, "Hello");
  close_current (fixture);
  g_assert_nonnull (pal_session_store_lookup (fixture->session_store, key));
}

static void
test_closed_session_reopens (Fixture       *fixture,
                             gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autoptr(AcpSession) closed = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *left = NULL;
  PalSessionKey *key;

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  key = pal_window_get_current_session (fixture->window);

  /* an open session has nothing to resume, and its menu says why */
  g_assert_false (_pal_window_can (key, "win.resume-session", &reason, fixture->window));
  g_assert_cmpstr (reason, ==, "The session is open already.");
  g_assert_true (_pal_window_can (key, "win.open-session", NULL, fixture->window));

  prompt_current (fixture, "Hello");
  close_current (fixture);
  closed = g_object_ref (current_session (fixture));
  wait_for (fixture, closed_notice_shown, 30);
  g_assert_cmpstr (last_notice_body (fixture), ==, "Write to the agent to open it again.");
  g_assert_true (_pal_window_can (key, "win.resume-session", NULL, fixture->window));

  /* the closed transcript stays; what the person writes opens it again */
  g_assert_true (pal_composer_get_can_send (composer));
  pal_composer_set_text (composer, "Go on please");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_ended, 30);

  g_assert_true (current_session (fixture) != closed);
  g_assert_true (pal_session_key_equal0 (pal_window_get_current_session (fixture->window), key));
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");
  g_assert_true (has_message (current_session (fixture), ACP_MESSAGE_ROLE_USER, "Go on please"));
  g_assert_false (has_message (closed, ACP_MESSAGE_ROLE_USER, "Go on please"));
  left = pal_composer_dup_text (composer);
  g_assert_cmpstr (left, ==, "");
}

static gboolean
session_failed (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_FAILED;
}

/* Settings of an agent edited while a session of it is open: the window
 * says that it keeps the old ones, and offers to restart it. */
static void
test_agent_edited_while_open (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(GError) error = NULL;
  const char *env[] = { "EDITED=1", NULL };

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  g_assert_false (has_label_with (GTK_WIDGET (fixture->window), "keep its old settings"));

  edited = pal_agent_profile_copy (pal_agent_store_lookup (fixture->agent_store, "fake-basic"));
  pal_agent_profile_set_env (edited, env);
  g_assert_true (pal_agent_store_update (fixture->agent_store, edited, &error));
  g_assert_no_error (error);
  settle ();
  g_assert_true (has_label_with (GTK_WIDGET (fixture->window),
                                 "Open sessions of fake-basic keep its old settings until it starts again"));
}

/* The agent died: what the person writes starts it again, opens the session
 * again and is sent there. */
static void
test_failed_session_reopens (Fixture       *fixture,
                             gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autoptr(AcpSession) failed = NULL;
  g_autofree char *left = NULL;
  PalSessionKey *key;
  GPid pid;

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  key = pal_window_get_current_session (fixture->window);
  pid = acp_agent_get_pid (acp_session_get_agent (current_session (fixture)));
  g_assert_cmpint (pid, >, 1);

  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  wait_for (fixture, session_failed, 30);
  failed = g_object_ref (current_session (fixture));

  g_assert_true (pal_composer_get_can_send (composer));
  pal_composer_set_text (composer, "Go on please");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_ended, 30);

  g_assert_true (current_session (fixture) != failed);
  g_assert_true (pal_session_key_equal0 (pal_window_get_current_session (fixture->window), key));
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");
  g_assert_true (has_message (current_session (fixture), ACP_MESSAGE_ROLE_USER, "Go on please"));
  g_assert_cmpint (acp_agent_get_pid (acp_session_get_agent (current_session (fixture))), !=, pid);
  left = pal_composer_dup_text (composer);
  g_assert_cmpstr (left, ==, "");
}

static gboolean
turn_streamed (Fixture *fixture)
{
  AcpSession *session = current_session (fixture);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_PROMPTING &&
         has_message (session, ACP_MESSAGE_ROLE_AGENT, "Thinking it over");
}

/* The button that stops the agent of a turn that does not end, or NULL */
static GtkWidget *
find_stop_agent_button (Fixture *fixture)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect (pal_window_get_session_view (fixture->window), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (buttons->pdata[i]), "win.stop-agent") == 0)
      return buttons->pdata[i];

  return NULL;
}

static gboolean
stop_agent_offered (Fixture *fixture)
{
  GtkWidget *button = find_stop_agent_button (fixture);

  return button != NULL && gtk_widget_is_visible (button) && gtk_widget_is_sensitive (button);
}

static PalSessionState
current_state (Fixture *fixture)
{
  return state_of (fixture, pal_window_get_current_session (fixture->window));
}

static gboolean
focus_in (GtkWidget *focus,
          GtkWidget *ancestor)
{
  return focus != NULL && (focus == ancestor || gtk_widget_is_ancestor (focus, ancestor));
}

/* While a new session starts, the composer is there with the focus (keys
 * typed do not press Cancel); what is sent waits for the session. */
static void
test_prompt_while_starting (Fixture       *fixture,
                            gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autofree char *left = NULL;

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  g_assert_true (pal_session_view_get_starting (view));
  g_assert_null (current_session (fixture));
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (composer)));
  g_assert_true (focus_in (gtk_window_get_focus (GTK_WINDOW (fixture->window)), GTK_WIDGET (composer)));

  g_assert_true (pal_composer_get_can_send (composer));
  pal_composer_set_text (composer, "Written early");
  g_assert_true (pal_composer_submit (composer));
  /* one prompt waits; the composer takes no other meanwhile */
  g_assert_false (pal_composer_get_can_send (composer));

  wait_for (fixture, turn_ended, 30);
  g_assert_false (pal_session_view_get_starting (view));
  g_assert_true (has_message (current_session (fixture), ACP_MESSAGE_ROLE_USER, "Written early"));
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");
  left = pal_composer_dup_text (composer);
  g_assert_cmpstr (left, ==, "");
}

static PalAgentLogWindow *
find_log_window (Fixture *fixture)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (fixture->app)); l != NULL; l = l->next)
    if (PAL_IS_AGENT_LOG_WINDOW (l->data))
      return l->data;

  return NULL;
}

/* The agent log shows the session's traffic live, filtered, each message
 * in full, and saves as JSON Lines. */
static void
test_agent_log (Fixture       *fixture,
                gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  PalAgentLogWindow *log_window;
  GListModel *shown;
  AcpTrafficLog *log;
  g_autofree char *detail = NULL;
  g_autoptr(GBytes) lines = NULL;
  g_auto(GStrv) split = NULL;
  guint n_all, prompt_at = G_MAXUINT;

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  pal_composer_set_text (composer, "Hello log");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_ended, 30);

  g_assert_null (find_log_window (fixture));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-agent-log", NULL));
  log_window = find_log_window (fixture);
  g_assert_nonnull (log_window);
  g_assert_true (pal_agent_log_window_get_agent (log_window) ==
                 acp_session_get_agent (current_session (fixture)));
  /* one window per agent: asked again, the same one */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-agent-log", NULL));
  g_assert_true (find_log_window (fixture) == log_window);

  log = acp_agent_get_traffic_log (pal_agent_log_window_get_agent (log_window));
  acp_traffic_log_flush (log);
  n_all = g_list_model_get_n_items (G_LIST_MODEL (log));
  shown = pal_agent_log_window_get_shown (log_window);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, n_all);
  g_assert_cmpuint (n_all, >=, 5);  /* initialize, session/new, the prompt and their answers */

  pal_agent_log_window_set_filter (log_window, "SESSION/PROMPT");
  g_assert_cmpuint (g_list_model_get_n_items (shown), >=, 1);
  g_assert_cmpuint (g_list_model_get_n_items (shown), <, n_all);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(AcpTrafficEntry) entry = g_list_model_get_item (shown, i);

      if (g_strcmp0 (acp_traffic_entry_get_method (entry), "session/prompt") == 0)
        prompt_at = i;
    }
  g_assert_cmpuint (prompt_at, !=, G_MAXUINT);
  pal_agent_log_window_select (log_window, prompt_at);
  detail = pal_agent_log_window_dup_detail (log_window);
  g_assert_nonnull (strstr (detail, "\"method\" : \"session/prompt\""));
  g_assert_nonnull (strstr (detail, "Hello log"));

  lines = pal_agent_log_to_json_lines (G_LIST_MODEL (log));
  split = g_strsplit (g_bytes_get_data (lines, NULL), "\n", -1);
  g_assert_cmpuint (g_strv_length (split), ==, n_all + 1);
  for (guint i = 0; i < n_all; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (split[i], NULL);

      g_assert_nonnull (node);
    }

  gtk_window_destroy (GTK_WINDOW (log_window));
}

/* The "params" of the first session/prompt in the fake agent's record */
static JsonNode *
recorded_prompt (const char *record)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (record, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (lines[i], NULL);
      JsonObject *message = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      if (message != NULL &&
          g_strcmp0 (json_object_get_string_member_with_default (message, "method", ""), "session/prompt") == 0)
        return json_node_ref (json_object_get_member (message, "params"));
    }

  return NULL;
}

static gboolean
one_file_hit (Fixture *fixture)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));

  return pal_composer_get_n_file_hits (PAL_COMPOSER (pal_session_view_get_composer (view))) == 1;
}

/* Sends a key press to the composer's key handling, as typing would */
static gboolean
press_key (GtkWidget *text_view,
           guint      keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (text_view);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller) &&
          gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE)
        {
          g_signal_emit_by_name (controller, "key-pressed", keyval, 0, 0, &handled);
          return handled;
        }
    }

  g_assert_not_reached ();
}

/* A file mentioned with "@" goes to the agent as the protocol and the
 * agent's capabilities say: its text embedded for an agent that takes
 * embedded context (basic.json), a link for one that does not
 * (minimal.json) */
static void
test_mention_sent (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *scenario = data;
  gboolean embedded = g_str_equal (scenario, "basic.json");
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  GtkWidget *text_view = find_descendant (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
  g_autofree char *notes = g_build_filename (fixture->folder, "notes.txt", NULL);
  g_autofree char *record = g_build_filename (fixture->folder, "record.jsonl", NULL);
  g_autofree char *uri = g_filename_to_uri (notes, NULL, NULL);
  const char *fake = g_getenv ("PALAVER_FAKE_AGENT");
  const char *args[] = { scenario, "--record", record, NULL };
  g_autoptr(PalAgentProfile) profile = pal_agent_profile_new ("fake-recorded", "fake-recorded", fake, args);
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *blocks;
  JsonObject *block;

  g_assert_true (g_file_set_contents (notes, "Remember the milk\n", -1, NULL));
  pal_agent_store_add (fixture->agent_store, profile, &error);
  g_assert_no_error (error);

  pal_window_start_session (fixture->window, "fake-recorded", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);

  /* the person types "@no", picks the file, and sends */
  gtk_text_buffer_insert_at_cursor (buffer, "Read @no", -1);
  wait_for (fixture, one_file_hit, 30);
  if (embedded)
    save_screenshot (GTK_WIDGET (fixture->window), "window-mention-finder.png");
  g_assert_true (press_key (text_view, GDK_KEY_Return));
  gtk_text_buffer_insert_at_cursor (buffer, "please", -1);
  if (embedded)
    save_screenshot (GTK_WIDGET (fixture->window), "window-mention.png");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_ended, 30);

  params = recorded_prompt (record);
  g_assert_nonnull (params);
  blocks = json_object_get_array_member (json_node_get_object (params), "prompt");
  g_assert_cmpuint (json_array_get_length (blocks), ==, 2);
  block = json_array_get_object_element (blocks, 0);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (block, "text"), ==, "Read @notes.txt please");
  block = json_array_get_object_element (blocks, 1);
  if (embedded)
    {
      JsonObject *resource = json_object_get_object_member (block, "resource");

      g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "resource");
      g_assert_cmpstr (json_object_get_string_member (resource, "uri"), ==, uri);
      g_assert_cmpstr (json_object_get_string_member (resource, "text"), ==, "Remember the milk\n");
    }
  else
    {
      g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "resource_link");
      g_assert_cmpstr (json_object_get_string_member (block, "uri"), ==, uri);
      g_assert_cmpstr (json_object_get_string_member (block, "name"), ==, "notes.txt");
    }

  g_unlink (notes);
  g_unlink (record);
}

/* A turn the agent never ends: Stop says "Stopping…", then offers to stop
 * the agent; that keeps the session, and writing starts the agent again. */
static void
test_hung_turn_stops_agent (Fixture       *fixture,
                            gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autoptr(AcpSession) stopped = NULL;
  PalSessionRow *row;
  PalSessionKey *key;
  GPid pid;

  pal_window_start_session (fixture->window, "fake-hang-turn", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  key = pal_window_get_current_session (fixture->window);
  pid = acp_agent_get_pid (acp_session_get_agent (current_session (fixture)));
  pal_composer_set_text (composer, "Take your time");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_streamed, 30);
  g_assert_cmpint (current_state (fixture), ==, PAL_SESSION_STATE_WORKING);
  g_assert_cmpstr (gtk_label_get_text (fixture->window->state_label), ==, "Working");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.stop-turn", NULL));
  g_assert_true (acp_session_get_cancelling (current_session (fixture)));
  g_assert_cmpint (current_state (fixture), ==, PAL_SESSION_STATE_STOPPING);
  /* the header and the row follow the live session */
  g_assert_cmpstr (gtk_label_get_text (fixture->window->state_label), ==, "Stopping…");
  row = pal_sidebar_get_row (PAL_SIDEBAR (pal_window_get_sidebar (fixture->window)), key);
  g_assert_cmpint (pal_session_row_get_state (row), ==, PAL_SESSION_STATE_STOPPING);

  /* the agent ignores the cancel: the offer comes */
  wait_for (fixture, stop_agent_offered, 30);
  g_assert_cmpint (acp_session_get_state (current_session (fixture)), ==, ACP_SESSION_STATE_PROMPTING);
  stopped = g_object_ref (current_session (fixture));
  g_assert_true (gtk_widget_activate (find_stop_agent_button (fixture)));
  wait_for (fixture, session_failed, 30);
  g_assert_cmpstr (last_notice_body (fixture), ==, "Write to start it again and open the session again.");
  g_assert_false (stop_agent_offered (fixture));
  g_assert_false (process_runs (pid));

  /* writing starts a new agent and opens the same session again */
  pal_composer_set_text (composer, "Again");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_streamed, 30);
  g_assert_true (current_session (fixture) != stopped);
  g_assert_true (pal_session_key_equal0 (pal_window_get_current_session (fixture->window), key));
  g_assert_true (has_message (current_session (fixture), ACP_MESSAGE_ROLE_USER, "Again"));
  g_assert_cmpint (acp_agent_get_pid (acp_session_get_agent (current_session (fixture))), !=, pid);
}

/* The agent crashed in the middle of a turn: its prompt is offered again in
 * the composer, where sending it reopens the session. */
static void
test_crash_offers_prompt_again (Fixture       *fixture,
                                gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autofree char *offered = NULL;

  pal_window_start_session (fixture->window, "fake-crash", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  pal_composer_set_text (composer, "Do the thing");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, session_failed, 30);
  settle ();

  offered = pal_composer_dup_text (composer);
  g_assert_cmpstr (offered, ==, "Do the thing");
  g_assert_true (pal_composer_get_can_send (composer));
}

static gboolean
welcome_shown (Fixture *fixture)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (fixture->window->content_stack), "welcome") == 0;
}

/* The pid test_hung_start_stops_agent () waits to end */
static GPid stopped_pid;

static gboolean
stopped_agent_gone (Fixture *fixture)
{
  return !process_runs (stopped_pid);
}

static gboolean
poll_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* An agent that never answers session/new: the start offers to stop it,
 * which ends its process and the start. */
static void
test_hung_start_stops_agent (Fixture       *fixture,
                             gconstpointer  data)
{
  AcpAgent *agent;
  GPid pid;

  pal_window_start_session (fixture->window, "fake-hang-new", fixture->folder, NULL);
  wait_for (fixture, stop_agent_offered, 30);
  agent = pal_session_manager_lookup_agent (fixture->manager, "fake-hang-new", fixture->folder);
  g_assert_nonnull (agent);
  pid = acp_agent_get_pid (agent);
  g_assert_true (process_runs (pid));

  g_assert_true (gtk_widget_activate (find_stop_agent_button (fixture)));
  wait_for (fixture, welcome_shown, 30);
  /* a process ends without telling: looked at every few milliseconds */
  {
    guint poll_id = g_timeout_add (POLL_MS, poll_cb, NULL);

    stopped_pid = pid;
    wait_for (fixture, stopped_agent_gone, 30);
    g_source_remove (poll_id);
  }
}

static void
test_closed_session_keeps_prompt (Fixture       *fixture,
                                  gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autofree char *text = NULL;

  /* an agent that can neither load nor resume: the session cannot be
   * opened again, and what the person wrote is not lost */
  pal_window_start_session (fixture->window, "fake-minimal", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  prompt_current (fixture, "Hello");
  close_current (fixture);
  wait_for (fixture, closed_notice_shown, 30);
  g_assert_cmpstr (last_notice_body (fixture), ==, "The agent cannot open it again.");

  pal_composer_set_text (composer, "Are you there?");
  g_assert_false (_pal_window_can (pal_window_get_current_session (fixture->window),
                                   "win.open-session", NULL, fixture->window));
  g_assert_true (pal_composer_submit (composer));
  settle ();

  /* told why in a toast; the closed transcript and the text stay */
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "Are you there?");
  g_assert_true (session_closed (fixture));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fixture->window->content_stack), ==, "session");
}

static gboolean
started_session_shown (Fixture *fixture)
{
  return pal_window_get_current_session (fixture->window) != NULL && session_ready (fixture);
}

static void
test_drafts (Fixture       *fixture,
             gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autoptr(PalSessionKey) first = NULL;
  g_autoptr(PalSessionKey) second = NULL;
  g_autofree char *text = NULL;

  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  first = pal_session_key_ref (pal_window_get_current_session (fixture->window));
  pal_composer_set_text (composer, "half a thought");

  /* a new session starts with an empty composer (the same agent: the fake
   * agent numbers its sessions from 1 in each process) */
  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "");
  wait_for (fixture, started_session_shown, 30);
  second = pal_session_key_ref (pal_window_get_current_session (fixture->window));
  g_assert_false (pal_session_key_equal (first, second));
  pal_composer_set_text (composer, "another");

  /* back to the first: its text is back, and the second keeps its own */
  pal_window_open_session (fixture->window, first);
  g_clear_pointer (&text, g_free);
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "half a thought");

  pal_composer_set_text (composer, NULL);
  pal_window_open_session (fixture->window, second);
  g_clear_pointer (&text, g_free);
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "another");

  /* an emptied composer leaves no draft behind */
  pal_window_open_session (fixture->window, first);
  g_clear_pointer (&text, g_free);
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "");
}

static gboolean
retry_shown (Fixture *fixture)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect (GTK_WIDGET (fixture->window), PAL_TYPE_NOTICE_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

      collect (g_ptr_array_index (rows, i), GTK_TYPE_BUTTON, buttons);
      for (guint j = 0; j < buttons->len; j++)
        if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, j)), "_Retry") == 0)
          return TRUE;
    }

  return FALSE;
}

static void
test_sign_in_on_prompt (Fixture       *fixture,
                        gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  g_autofree char *text = NULL;
  AdwMessageDialog *dialog;

  pal_window_start_session (fixture->window, "fake-auth-prompt", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);

  /* the agent refuses the prompt until the person signs in: the sign-in
   * dialog comes; cancelled, the text is back in the composer */
  pal_composer_set_text (composer, "Do the thing");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  g_assert_true (adw_message_dialog_has_response (dialog, "agent:api-key"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "before it can answer"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "sent again once you are signed in"));
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "Do the thing");
  g_assert_true (session_ready (fixture));

  /* the failed turn's notice offers no Retry: the session still runs */
  settle ();
  g_assert_false (retry_shown (fixture));

  /* sent again, refused again; this time the person signs in, and the
   * prompt goes again by itself */
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, auth_dialog_shown, 30);
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "agent:api-key");
  gtk_window_destroy (GTK_WINDOW (dialog));
  wait_for (fixture, turn_ended, 30);
  g_assert_cmpstr (acp_session_get_stop_reason (current_session (fixture)), ==, "end_turn");
  g_clear_pointer (&text, g_free);
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "");
  g_assert_true (has_message (current_session (fixture), ACP_MESSAGE_ROLE_AGENT, "Signed in, and answering."));
}

static PalSignInTerminal *
find_sign_in_terminal (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (PAL_IS_SIGN_IN_TERMINAL (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return PAL_SIGN_IN_TERMINAL (window);
    }

  return NULL;
}

static gboolean
sign_in_terminal_shown (Fixture *fixture)
{
  return find_sign_in_terminal () != NULL;
}

static gboolean
asks_for_code (Fixture *fixture)
{
  PalSignInTerminal *window = find_sign_in_terminal ();
  g_autofree char *text = window != NULL ? vte_text (pal_sign_in_terminal_get_terminal (window)) : NULL;

  return text != NULL && strstr (text, "Paste the code") != NULL;
}

/* The profile of auth-terminal.json, signed in once $FAKE_SIGNED_IN is
 * there. */
static char *
set_up_login (Fixture *fixture)
{
  PalAgentProfile *profile = pal_agent_store_lookup (fixture->agent_store, "fake-login");
  g_autoptr(PalAgentProfile) edited = pal_agent_profile_copy (profile);
  g_autofree char *signed_in = g_build_filename (fixture->folder, "signed-in", NULL);
  g_autofree char *helper = g_build_filename (fixture->folder, "helper-pid", NULL);
  g_autofree char *signed_in_var = g_strconcat ("FAKE_SIGNED_IN=", signed_in, NULL);
  g_autofree char *helper_var = g_strconcat ("FAKE_LOGIN_HELPER_PID_FILE=", helper, NULL);
  const char *env[] = { signed_in_var, helper_var, NULL };
  g_autoptr(GError) error = NULL;

  pal_agent_profile_set_env (edited, env);
  g_assert_true (pal_agent_store_update (fixture->agent_store, edited, &error));
  g_assert_no_error (error);

  return g_steal_pointer (&signed_in);
}

/* A method of type "terminal" runs the agent's login in a terminal; once it
 * succeeds the agent starts anew and the session it refused starts. A
 * method of a type Palaver does not know is described, not offered. */
static void
test_sign_in_terminal (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *signed_in = set_up_login (fixture);
  g_autoptr(AcpAgent) refusing = NULL;
  AdwMessageDialog *dialog;
  const char *body;

  pal_window_start_session (fixture->window, "fake-login", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);
  refusing = g_object_ref (pal_session_manager_lookup_agent (fixture->manager, "fake-login", fixture->folder));

  dialog = find_message_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, "terminal:fake-login"), ==, "Fake Login…");
  g_assert_true (adw_message_dialog_has_response (dialog, "terminal:flaky-login"));
  g_assert_true (adw_message_dialog_has_response (dialog, "terminal:slow-login"));
  g_assert_false (adw_message_dialog_has_response (dialog, "company-sso"));
  g_assert_false (adw_message_dialog_has_response (dialog, "agent:company-sso"));
  body = adw_message_dialog_get_body (dialog);
  g_assert_nonnull (strstr (body, "Fake Login: Sign in to the fake service in a terminal."));
  g_assert_nonnull (strstr (body, "cannot use here"));
  g_assert_nonnull (strstr (body, "Company SSO: Ask your administrator for an invitation."));

  answer_dialog (dialog, "terminal:fake-login");
  wait_for (fixture, session_ready, 30);
  g_assert_null (find_sign_in_terminal ());
  g_assert_true (g_file_test (signed_in, G_FILE_TEST_EXISTS));
  /* the agent that refused made way for one started after the sign-in */
  g_assert_true (acp_session_get_agent (current_session (fixture)) != refusing);
  g_unlink (signed_in);
}

/* The login test_sign_in_terminal_cancel () waits to end */
static GPid login_pgid, login_helper;

static gboolean
login_gone (Fixture *fixture)
{
  return count_group (login_pgid) == 0 && !process_runs (login_helper);
}

/* Cancelling a sign-in in a terminal stops the login, and all it started,
 * and the new session that waited for it is over. */
static void
test_sign_in_terminal_cancel (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autofree char *signed_in = set_up_login (fixture);
  g_autofree char *helper_file = g_build_filename (fixture->folder, "helper-pid", NULL);
  g_autofree char *helper = NULL;
  PalSignInTerminal *terminal;
  guint poll_id;

  pal_window_start_session (fixture->window, "fake-login", fixture->folder, NULL);
  wait_for (fixture, auth_dialog_shown, 30);
  answer_dialog (find_message_dialog (), "terminal:slow-login");
  wait_for (fixture, sign_in_terminal_shown, 30);
  wait_for (fixture, asks_for_code, 30);

  terminal = find_sign_in_terminal ();
  login_pgid = pal_sign_in_terminal_get_pid (terminal);
  g_assert_true (g_file_get_contents (helper_file, &helper, NULL, NULL));
  login_helper = (GPid) g_ascii_strtoll (helper, NULL, 10);
  g_assert_true (process_runs (login_helper));
  g_assert_cmpuint (count_group (login_pgid), ==, 2);

  pal_sign_in_terminal_cancel (terminal);
  wait_for (fixture, welcome_shown, 30);
  /* a process ends without telling: looked at every few milliseconds */
  poll_id = g_timeout_add (POLL_MS, poll_cb, NULL);
  wait_for (fixture, login_gone, 30);
  g_source_remove (poll_id);
  g_assert_null (find_sign_in_terminal ());
  g_assert_null (pal_window_get_current_session (fixture->window));
  g_assert_false (g_file_test (signed_in, G_FILE_TEST_EXISTS));
  g_unlink (helper_file);
}

static gboolean
second_agent_shown (Fixture *fixture)
{
  PalSessionKey *key = pal_window_get_current_session (fixture->window);

  return key != NULL && g_str_equal (pal_session_key_get_agent_id (key), "fake-basic-2") &&
         session_ready (fixture);
}

static gboolean
first_closed (Fixture *fixture)
{
  return pal_session_manager_lookup (fixture->manager, key_of ("fake-basic", "fake-session-1")) == NULL;
}

/* Two agents hand out the same session id: two sessions in the window,
 * each shown, closed and removed by its own actions. */
static void
test_same_id_two_agents (Fixture       *fixture,
                         gconstpointer  data)
{
  PalSidebar *sidebar = PAL_SIDEBAR (pal_window_get_sidebar (fixture->window));
  PalSessionKey *first = key_of ("fake-basic", "fake-session-1");
  PalSessionKey *second = key_of ("fake-basic-2", "fake-session-1");
  AcpSession *first_session;
  AcpSession *second_session;

  test_add_agent (fixture->agent_store, "fake-basic-2", test_fake_agent_path (), "basic.json");
  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  g_assert_true (pal_session_key_equal (pal_window_get_current_session (fixture->window), first));
  first_session = current_session (fixture);
  prompt_current (fixture, "Hello");
  pal_window_start_session (fixture->window, "fake-basic-2", fixture->folder, NULL);
  wait_for (fixture, second_agent_shown, 30);
  g_assert_true (pal_session_key_equal (pal_window_get_current_session (fixture->window), second));
  second_session = current_session (fixture);
  g_assert_true (first_session != second_session);
  settle ();

  /* both listed, each its own row */
  g_assert_nonnull (pal_session_store_lookup (fixture->session_store, first));
  g_assert_nonnull (pal_session_store_lookup (fixture->session_store, second));
  g_assert_nonnull (pal_sidebar_get_row (sidebar, first));
  g_assert_nonnull (pal_sidebar_get_row (sidebar, second));
  g_assert_true (pal_sidebar_get_row (sidebar, first) != pal_sidebar_get_row (sidebar, second));

  /* showing the first shows the first agent's session */
  pal_window_open_session (fixture->window, first);
  g_assert_true (pal_session_key_equal (pal_window_get_current_session (fixture->window), first));
  g_assert_true (current_session (fixture) == first_session);

  /* closing the first leaves the second open */
  g_assert_true (activate_on_session (fixture, "win.close-session", first));
  wait_for (fixture, first_closed, 30);
  g_assert_cmpint (state_of (fixture, second), ==, PAL_SESSION_STATE_READY);
  g_assert_cmpint (acp_session_get_state (second_session), ==, ACP_SESSION_STATE_READY);

  /* removing the second from the list leaves the first */
  g_assert_true (activate_on_session (fixture, "win.forget-session", second));
  settle ();
  g_assert_null (pal_session_store_lookup (fixture->session_store, second));
  g_assert_null (pal_session_manager_lookup (fixture->manager, second));
  g_assert_nonnull (pal_session_store_lookup (fixture->session_store, first));
  g_assert_null (pal_sidebar_get_row (sidebar, second));
  g_assert_nonnull (pal_sidebar_get_row (sidebar, first));
  g_assert_true (pal_session_key_equal (pal_window_get_current_session (fixture->window), first));
  g_settings_reset (fixture->settings, "hidden-sessions");
}

static gboolean
fork_shown (Fixture *fixture)
{
  PalSessionKey *key = pal_window_get_current_session (fixture->window);

  return key != NULL && g_str_has_suffix (pal_session_key_get_session_id (key), "-fork-1") &&
         session_ready (fixture);
}

/* The button of @action in the menu of @row. */
static GtkWidget *
row_menu_item (PalSessionRow *row,
               const char    *action)
{
  GtkWidget *menu_button = find_descendant (GTK_WIDGET (row), GTK_TYPE_MENU_BUTTON);
  GtkPopover *popover;
  GtkWidget *box;

  g_assert_nonnull (menu_button);
  g_assert_true (pal_session_row_popup_menu (row));
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button));
  box = gtk_popover_get_child (popover);
  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (child), "action"), action) == 0)
      return child;

  g_assert_not_reached ();
}

static gboolean
label_says (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (label_says (child, text))
      return TRUE;

  return FALSE;
}

static gboolean
fork_refusal_told (Fixture *fixture)
{
  return label_says (GTK_WIDGET (fixture->window->toast_overlay), "Cannot fork a session without history");
}

/* Fork, in the menu of a session whose agent offers it: the fork joins the
 * list and is shown, selected, with the original's messages; absent where
 * the agent does not offer it; the agent's refusal is told in a toast. */
static void
test_fork (Fixture       *fixture,
           gconstpointer  data)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (fixture->window));
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (view));
  PalSidebar *sidebar = PAL_SIDEBAR (pal_window_get_sidebar (fixture->window));
  g_autoptr(PalSessionKey) original = NULL;
  g_autoptr(PalSessionKey) plain = NULL;
  PalSessionKey *fork;
  PalSessionKey *refused;
  PalSessionRecord *record;
  GtkWidget *item;
  GtkListView *list;
  GtkSelectionModel *selection;
  guint selected;
  g_autoptr(GObject) selected_item = NULL;

  test_add_agent (fixture->agent_store, "fake-fork", test_fake_agent_path (), "fork.json");
  test_add_agent (fixture->agent_store, "fake-fork-fails", test_fake_agent_path (), "fork-fails.json");

  /* an agent without fork: not in the menu at all */
  pal_window_start_session (fixture->window, "fake-basic", fixture->folder, NULL);
  wait_for (fixture, session_ready, 30);
  plain = pal_session_key_ref (pal_window_get_current_session (fixture->window));
  settle ();
  item = row_menu_item (pal_sidebar_get_row (sidebar, plain), "win.fork-session");
  g_assert_false (gtk_widget_get_visible (item));
  gtk_popover_popdown (GTK_POPOVER (gtk_widget_get_ancestor (item, GTK_TYPE_POPOVER)));

  pal_window_start_session (fixture->window, "fake-fork", fixture->folder, NULL);
  wait_for (fixture, started_session_shown, 30);
  original = pal_session_key_ref (pal_window_get_current_session (fixture->window));
  g_assert_cmpstr (pal_session_key_get_agent_id (original), ==, "fake-fork");
  pal_composer_set_text (composer, "Plan the release");
  g_assert_true (pal_composer_submit (composer));
  wait_for (fixture, turn_ended, 30);
  settle ();

  item = row_menu_item (pal_sidebar_get_row (sidebar, original), "win.fork-session");
  g_assert_true (gtk_widget_get_visible (item));
  g_assert_true (gtk_widget_get_sensitive (item));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (item)))), ==, "Fork");
  g_assert_true (gtk_widget_activate (item));
  wait_for (fixture, fork_shown, 30);
  settle ();

  fork = pal_window_get_current_session (fixture->window);
  g_assert_cmpstr (pal_session_key_get_agent_id (fork), ==, "fake-fork");
  record = pal_session_store_lookup (fixture->session_store, fork);
  g_assert_nonnull (record);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Fork of Plan the release");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "Fork of Plan the release");
  g_assert_true (has_message (current_session (fixture), ACP_MESSAGE_ROLE_USER, "Plan the release"));
  g_assert_nonnull (strstr (last_notice_body (fixture),
                            "The messages above are those of “Plan the release”"));

  /* beside the original, and the one selected */
  g_assert_nonnull (pal_sidebar_get_row (sidebar, original));
  g_assert_nonnull (pal_sidebar_get_row (sidebar, fork));
  list = GTK_LIST_VIEW (find_descendant (GTK_WIDGET (sidebar), GTK_TYPE_LIST_VIEW));
  selection = gtk_list_view_get_model (list);
  selected = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (selection));
  selected_item = g_list_model_get_item (G_LIST_MODEL (selection), selected);
  g_assert_true (PAL_IS_SESSION_RECORD (selected_item));
  g_assert_true (pal_session_key_equal (pal_session_record_get_key (PAL_SESSION_RECORD (selected_item)),
                                        fork));

  /* the agent refuses: a toast says why, and nothing joins the list */
  pal_window_start_session (fixture->window, "fake-fork-fails", fixture->folder, NULL);
  wait_for (fixture, started_session_shown, 30);
  refused = pal_window_get_current_session (fixture->window);
  g_assert_true (activate_on_session (fixture, "win.fork-session", refused));
  wait_for (fixture, fork_refusal_told, 30);
  refused = pal_window_get_current_session (fixture->window);
  g_assert_cmpstr (pal_session_key_get_agent_id (refused), ==, "fake-fork-fails");
}

int
main (int   argc,
      char *argv[])
{
  
  /* accessible names and roles kept, for the tests to read */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  /* the app's resource base path, so its style sheet applies as in the app */
  test_app = test_app_new ("io.github.palaverapp.PalaverTest");

  g_test_add ("/window/new-prompt-permission", Fixture, NULL,
              fixture_set_up, test_new_prompt_permission, fixture_tear_down);
  g_test_add ("/window/mention-embedded", Fixture, "basic.json",
              fixture_set_up, test_mention_sent, fixture_tear_down);
  g_test_add ("/window/mention-link", Fixture, "minimal.json",
              fixture_set_up, test_mention_sent, fixture_tear_down);
  g_test_add ("/window/open-after-frame", Fixture, NULL,
              fixture_set_up, test_open_after_frame, fixture_tear_down);
  g_test_add ("/window/frames-pace-agent", Fixture, NULL,
              fixture_set_up, test_frames_pace_agent, fixture_tear_down);
  g_test_add ("/window/open-replays-live", Fixture, NULL,
              fixture_set_up, test_open_replays_live, fixture_tear_down);
  g_test_add ("/window/agent-sessions-listed", Fixture, NULL,
              fixture_set_up, test_agent_sessions_listed, fixture_tear_down);
  g_test_add ("/window/new-session-keyboard", Fixture, NULL,
              fixture_set_up, test_new_session_keyboard, fixture_tear_down);
  g_test_add ("/window/permission-keyboard", Fixture, NULL,
              fixture_set_up, test_permission_keyboard, fixture_tear_down);
  g_test_add ("/window/sign-in", Fixture, NULL,
              fixture_set_up, test_sign_in, fixture_tear_down);
  g_test_add ("/window/sign-in-values", Fixture, NULL,
              fixture_set_up, test_sign_in_values, fixture_tear_down);
  g_test_add ("/window/sign-in-values-keyring", Fixture, NULL,
              fixture_set_up, test_sign_in_values_keyring, fixture_tear_down);
  g_test_add ("/window/sign-in-terminal", Fixture, NULL,
              fixture_set_up, test_sign_in_terminal, fixture_tear_down);
  g_test_add ("/window/sign-in-terminal-cancel", Fixture, NULL,
              fixture_set_up, test_sign_in_terminal_cancel, fixture_tear_down);
  g_test_add ("/window/sign-in-fails", Fixture, NULL,
              fixture_set_up, test_sign_in_fails, fixture_tear_down);
  g_test_add ("/window/no-spinner-off-screen", Fixture, NULL,
              fixture_set_up, test_no_spinner_off_screen, fixture_tear_down);
  g_test_add ("/window/agent-fails-to-start", Fixture, NULL,
              fixture_set_up, test_agent_fails_to_start, fixture_tear_down);
  g_test_add ("/window/new-session-dialog", Fixture, NULL,
              fixture_set_up, test_new_session_dialog, fixture_tear_down);
  g_test_add ("/window/new-session-dialog-folders", Fixture, NULL,
              fixture_set_up, test_new_session_dialog_folders, fixture_tear_down);
  g_test_add ("/window/folds-narrow", Fixture, NULL,
              fixture_set_up, test_folds_narrow, fixture_tear_down);
  g_test_add ("/window/geometry-remembered", Fixture, NULL,
              fixture_set_up, test_geometry_remembered, fixture_tear_down);
  g_test_add ("/window/embedded-terminal", Fixture, NULL,
              fixture_set_up, test_embedded_terminal, fixture_tear_down);
  g_test_add ("/window/shell-output/codex", Fixture, &codex_shell,
              fixture_set_up, test_agent_shell_output, fixture_tear_down);
  g_test_add ("/window/shell-output/gemini", Fixture, &gemini_shell,
              fixture_set_up, test_agent_shell_output, fixture_tear_down);
  g_test_add ("/window/file-outside-asks", Fixture, NULL,
              fixture_set_up, test_file_outside_asks, fixture_tear_down);
  g_test_add ("/window/file-request-names-session", Fixture, NULL,
              fixture_set_up, test_file_request_names_session, fixture_tear_down);
  g_test_add ("/window/file-requests-queued", Fixture, NULL,
              fixture_set_up, test_file_requests_queued, fixture_tear_down);
  g_test_add ("/window/unused-session-dropped", Fixture, NULL,
              fixture_set_up, test_unused_session_dropped, fixture_tear_down);
  g_test_add ("/window/closed-session-reopens", Fixture, NULL,
              fixture_set_up, test_closed_session_reopens, fixture_tear_down);
  g_test_add ("/window/agent-log", Fixture, NULL,
              fixture_set_up, test_agent_log, fixture_tear_down);
  g_test_add ("/window/prompt-while-starting", Fixture, NULL,
              fixture_set_up, test_prompt_while_starting, fixture_tear_down);
  g_test_add ("/window/hung-start-stops-agent", Fixture, NULL,
              fixture_set_up, test_hung_start_stops_agent, fixture_tear_down);
  g_test_add ("/window/hung-turn-stops-agent", Fixture, NULL,
              fixture_set_up, test_hung_turn_stops_agent, fixture_tear_down);
  g_test_add ("/window/crash-offers-prompt-again", Fixture, NULL,
              fixture_set_up, test_crash_offers_prompt_again, fixture_tear_down);
  g_test_add ("/window/agent-edited-while-open", Fixture, NULL,
              fixture_set_up, test_agent_edited_while_open, fixture_tear_down);
  g_test_add ("/window/failed-session-reopens", Fixture, NULL,
              fixture_set_up, test_failed_session_reopens, fixture_tear_down);
  g_test_add ("/window/closed-session-keeps-prompt", Fixture, NULL,
              fixture_set_up, test_closed_session_keeps_prompt, fixture_tear_down);
  g_test_add ("/window/sign-in-on-prompt", Fixture, NULL,
              fixture_set_up, test_sign_in_on_prompt, fixture_tear_down);
  g_test_add ("/window/fork", Fixture, NULL,
              fixture_set_up, test_fork, fixture_tear_down);
  g_test_add ("/window/same-id-two-agents", Fixture, NULL,
              fixture_set_up, test_same_id_two_agents, fixture_tear_down);
  g_test_add ("/window/drafts", Fixture, NULL,
              fixture_set_up, test_drafts, fixture_tear_down);

  {
    int status = g_test_run ();

    g_clear_object (&test_app);
    return status;
  }
}
