/* test-history.c: the stored history from the window: the search across
 * every session, export, and finding in the open session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "pal-chat-view.h"
#include "pal-find-bar.h"
#include "pal-history-search.h"
#include "pal-message-row.h"
#include "pal-session-menu.h"
#include "pal-sidebar.h"
#include "pal-window.h"
#include "pal-window-private.h"
#include "find-descendant.h"
#include "record-json.h"
#include "store-util.h"
#include "test-util.h"

typedef struct
{
  GtkApplication     *app;
  GSettings          *settings;
  PalAgentStore      *agent_store;
  PalSessionStore    *session_store;
  PalMcpServerStore  *mcp_store;
  AcpPacer           *pacer;
  PalSessionManager  *manager;
  char               *tmpdir;
  PalTranscriptStore *transcripts;
  PalWindow          *window;
} Fixture;

/* one application for the whole program: an id can be registered once */
static GtkApplication *test_app;

static void
add_session (Fixture    *f,
             const char *agent_id,
             const char *session_id,
             const char *title)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new (session_id, agent_id, f->tmpdir);

  pal_session_record_set_title (record, title);
  pal_session_store_add (f->session_store, record);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->settings = g_settings_new (APPLICATION_ID);
  g_settings_reset (f->settings, "sessions");
  g_settings_reset (f->settings, "agents");
  g_settings_reset (f->settings, "mcp-servers");
  f->tmpdir = g_dir_make_tmp ("palaver-history-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->tmpdir, "transcripts.db", NULL);
  f->transcripts = pal_transcript_store_new (path);

  f->app = g_object_ref (test_app);
  f->agent_store = pal_agent_store_new (f->settings);
  f->session_store = pal_session_store_new (f->settings);
  f->mcp_store = pal_mcp_server_store_new (f->settings);
  f->pacer = acp_pacer_new ();
  f->manager = pal_session_manager_new (f->agent_store, f->session_store, f->mcp_store, f->pacer);
  test_add_agent (f->agent_store, "fake-basic", test_fake_agent_path (), "basic.json");
  test_add_agent (f->agent_store, "fake-replay", test_fake_agent_path (), "replay-10k.json");

  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);
  f->window = pal_window_new (f->app, f->manager, NULL);
  pal_window_set_transcript_store (f->window, f->transcripts);
  gtk_window_present (GTK_WINDOW (f->window));
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
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
set_true (gboolean *flag)
{
  *flag = TRUE;
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gboolean shut_down = FALSE;

  gtk_window_destroy (GTK_WINDOW (f->window));
  pal_session_manager_shutdown_async (f->manager, NULL, shutdown_cb, &shut_down);
  WAIT_UNTIL (is_true (&shut_down));

  g_clear_object (&f->manager);
  g_clear_object (&f->pacer);
  g_clear_object (&f->mcp_store);
  g_clear_object (&f->session_store);
  g_clear_object (&f->agent_store);
  g_clear_object (&f->transcripts);
  g_clear_object (&f->app);
  g_clear_object (&f->settings);
  test_remove_tree (f->tmpdir);
  g_free (f->tmpdir);
}

/* --- the search across every session --- */

/* Three sessions: two that mention bananas (the newer recorded last), one
 * that does not; a thought of the older one mentions cherries */
static void
record_sessions (Fixture *f)
{
  g_autoptr(PalSessionKey) older = pal_session_key_new ("fake-basic", "older");
  g_autoptr(PalSessionKey) other = pal_session_key_new ("fake-basic", "other");
  g_autoptr(PalSessionKey) newer = pal_session_key_new ("fake-basic", "newer");

  add_session (f, "fake-basic", "older", "Older session");
  add_session (f, "fake-basic", "newer", "Newer session");
  record_json (f->transcripts, older, "[{\"type\":\"text\",\"text\":\"Where is the <banana> & co?\"}]");
  record_json (f->transcripts, older,
               "{\"sessionUpdate\":\"agent_thought_chunk\","
               "\"content\":{\"type\":\"text\",\"text\":\"A cherry pie would do.\"}}");
  record_json (f->transcripts, older,
               "{\"sessionUpdate\":\"agent_message_chunk\","
               "\"content\":{\"type\":\"text\",\"text\":\"The banana is in the kitchen.\"}}");
  record_json (f->transcripts, other,
               "{\"sessionUpdate\":\"agent_message_chunk\","
               "\"content\":{\"type\":\"text\",\"text\":\"Nothing to see.\"}}");
  record_json (f->transcripts, newer,
               "{\"sessionUpdate\":\"agent_message_chunk\","
               "\"content\":{\"type\":\"text\",\"text\":\"Hello.\"}}");
  record_json (f->transcripts, newer,
               "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m2\","
               "\"content\":{\"type\":\"text\",\"text\":\"One more banana here.\"}}");
}

static PalHistorySearch *
open_search (Fixture    *f,
             const char *text)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search-history", "s", text));
  g_assert_nonnull (f->window->history_search);
  g_assert_true (gtk_widget_get_visible (f->window->history_search));

  return PAL_HISTORY_SEARCH (f->window->history_search);
}

static gboolean
has_results (gpointer data)
{
  return pal_history_search_get_results (data) != NULL;
}

static void
count_results_cb (PalHistorySearch *search,
                  GParamSpec       *pspec,
                  GArray           *counts)
{
  GListModel *results = pal_history_search_get_results (search);
  guint n = results != NULL ? g_list_model_get_n_items (results) : G_MAXUINT;

  g_array_append_val (counts, n);
}

static void
collect_by_class (GtkWidget  *widget,
                  const char *css_class,
                  GPtrArray  *out)
{
  if (gtk_widget_has_css_class (widget, css_class))
    g_ptr_array_add (out, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_by_class (child, css_class, out);
}

/* The result groups shown, in order */
static GPtrArray *
groups_shown (PalHistorySearch *search)
{
  GPtrArray *groups = g_ptr_array_new ();

  collect_by_class (GTK_WIDGET (search), "search-result", groups);
  return groups;
}

static const char *
group_title (GtkWidget *group)
{
  g_autoptr(GPtrArray) headings = g_ptr_array_new ();

  collect_by_class (group, "heading", headings);
  g_assert_cmpuint (headings->len, ==, 1);
  return gtk_label_get_text (g_ptr_array_index (headings, 0));
}

static GPtrArray *
snippets_of (GtkWidget *group)
{
  GPtrArray *snippets = g_ptr_array_new ();

  collect_by_class (group, "snippet", snippets);
  return snippets;
}

/* Sessions newest first, each with its snippets, the matches in bold and
 * the rest escaped */
static void
test_search_grouped (Fixture       *f,
                     gconstpointer  data)
{
  PalHistorySearch *search;
  g_autoptr(GPtrArray) groups = NULL;
  g_autoptr(GPtrArray) newer = NULL;
  g_autoptr(GPtrArray) older = NULL;

  record_sessions (f);
  search = open_search (f, "banana");
  WAIT_UNTIL (has_results (search));

  g_assert_cmpuint (g_list_model_get_n_items (pal_history_search_get_results (search)), ==, 2);
  groups = groups_shown (search);
  g_assert_cmpuint (groups->len, ==, 2);
  g_assert_cmpstr (group_title (g_ptr_array_index (groups, 0)), ==, "Newer session");
  g_assert_cmpstr (group_title (g_ptr_array_index (groups, 1)), ==, "Older session");

  newer = snippets_of (g_ptr_array_index (groups, 0));
  g_assert_cmpuint (newer->len, ==, 1);
  g_assert_cmpstr (gtk_label_get_label (g_ptr_array_index (newer, 0)), ==, "One more <b>banana</b> here.");

  /* newest message first; markup in a message is text */
  older = snippets_of (g_ptr_array_index (groups, 1));
  g_assert_cmpuint (older->len, ==, 2);
  g_assert_cmpstr (gtk_label_get_label (g_ptr_array_index (older, 0)), ==,
                   "The <b>banana</b> is in the kitchen.");
  g_assert_cmpstr (gtk_label_get_label (g_ptr_array_index (older, 1)), ==,
                   "Where is the &lt;<b>banana</b>&gt; &amp; co?");
  g_assert_cmpstr (gtk_label_get_text (g_ptr_array_index (older, 1)), ==, "Where is the <banana> & co?");
}

/* Thoughts only when asked */
static void
test_search_thoughts (Fixture       *f,
                      gconstpointer  data)
{
  PalHistorySearch *search;
  GtkWidget *check;
  GListModel *results;
  gboolean changed;

  record_sessions (f);
  search = open_search (f, "cherry");
  WAIT_UNTIL (has_results (search));
  g_assert_cmpuint (g_list_model_get_n_items (pal_history_search_get_results (search)), ==, 0);

  check = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (search), PAL_TYPE_HISTORY_SEARCH,
                                                     "thoughts_check"));
  changed = FALSE;
  g_signal_connect_swapped (search, "notify::results", G_CALLBACK (set_true), &changed);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  WAIT_UNTIL (is_true (&changed));
  g_signal_handlers_disconnect_by_func (search, set_true, &changed);
  results = pal_history_search_get_results (search);
  g_assert_nonnull (results);
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 1);
}

/* A new text cancels the search under way: its results never show */
static void
test_search_restarts (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (guint));
  PalHistorySearch *search;

  record_sessions (f);
  search = open_search (f, "");
  g_signal_connect (search, "notify::results", G_CALLBACK (count_results_cb), counts);
  pal_history_search_set_text (search, "banana");
  pal_history_search_set_text (search, "kitchen");
  WAIT_UNTIL (has_results (search));

  /* what "banana" found (two sessions) never came */
  g_assert_cmpuint (counts->len, ==, 1);
  g_assert_cmpuint (g_array_index (counts, guint, 0), ==, 1);
  g_signal_handlers_disconnect_by_func (search, count_results_cb, counts);
}

static gboolean
session_ready (gpointer data)
{
  Fixture *f = data;
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (f->window));
  AcpSession *session = pal_session_view_get_session (view);

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_READY;
}

typedef struct
{
  PalSessionKey *key;
  guint          index;
} Activated;

static void
hit_activated_cb (PalHistorySearch *search,
                  PalSessionKey    *key,
                  guint             index,
                  Activated        *activated)
{
  activated->key = pal_session_key_ref (key);
  activated->index = index;
}

/* Enter (or a click) on a snippet shows its session at that message */
static void
test_search_activate (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(PalSessionKey) newer = pal_session_key_new ("fake-basic", "newer");
  Activated activated = { NULL, 0 };
  PalHistorySearch *search;
  GtkWidget *entry;

  record_sessions (f);
  search = open_search (f, "banana");
  WAIT_UNTIL (has_results (search));
  g_signal_connect (search, "hit-activated", G_CALLBACK (hit_activated_cb), &activated);

  entry = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (search), PAL_TYPE_HISTORY_SEARCH,
                                                     "search_entry"));
  g_signal_emit_by_name (entry, "activate");

  /* the newest match: the second entry of the newer session */
  g_assert_nonnull (activated.key);
  g_assert_true (pal_session_key_equal (activated.key, newer));
  g_assert_cmpuint (activated.index, ==, 1);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (search)));
  g_assert_true (pal_session_key_equal0 (pal_window_get_current_session (f->window), newer));
  pal_session_key_unref (activated.key);
  /* and opened */
  WAIT_UNTIL (session_ready (f));

  /* shown again, it has kept its search */
  search = open_search (f, "");
  g_assert_nonnull (pal_history_search_get_results (search));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "banana");
}

/* What is typed in the sidebar's search can be looked for in the messages */
static void
test_sidebar_entry_point (Fixture       *f,
                          gconstpointer  data)
{
  PalSidebar *sidebar = PAL_SIDEBAR (pal_window_get_sidebar (f->window));
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *button = NULL;
  PalHistorySearch *search;

  record_sessions (f);
  pal_sidebar_set_search_text (sidebar, "banana");

  collect_by_class (GTK_WIDGET (sidebar), "flat", buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (g_ptr_array_index (buttons, i)), "win.search-history") == 0)
      button = g_ptr_array_index (buttons, i);
  g_assert_nonnull (button);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_parent (button))));

  g_signal_emit_by_name (button, "clicked");
  g_assert_nonnull (f->window->history_search);
  search = PAL_HISTORY_SEARCH (f->window->history_search);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (search)));
  WAIT_UNTIL (has_results (search));
  g_assert_cmpuint (g_list_model_get_n_items (pal_history_search_get_results (search)), ==, 2);

  /* nothing typed: nothing offered */
  pal_sidebar_set_search_text (sidebar, "");
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_parent (button))));
}

/* --- export --- */

static char *
read_file (const char *path)
{
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);

  if (file == NULL)
    return NULL;
  return g_strndup (g_mapped_file_get_contents (file), g_mapped_file_get_length (file));
}

typedef struct
{
  const char *path;
  const char *prefix;
} FileWait;

static gboolean
file_written (gpointer data)
{
  FileWait *wait = data;
  g_autofree char *contents = read_file (wait->path);

  return contents != NULL && g_str_has_prefix (contents, wait->prefix);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("fake-basic", "exported");
  g_autofree char *jsonl = g_test_build_filename (G_TEST_DIST, "export", "every-kind.jsonl", NULL);
  g_autofree char *golden_path = g_test_build_filename (G_TEST_DIST, "export", "every-kind.md", NULL);
  g_autofree char *golden = read_file (golden_path);
  g_autofree char *input = read_file (jsonl);
  g_autofree char *md_path = g_build_filename (f->tmpdir, "out.md", NULL);
  g_autofree char *jsonl_path = g_build_filename (f->tmpdir, "out.jsonl", NULL);
  g_autoptr(GFile) md_file = g_file_new_for_path (md_path);
  g_autoptr(GFile) jsonl_file = g_file_new_for_path (jsonl_path);
  g_auto(GStrv) lines = g_strsplit (input, "\n", -1);
  g_autofree char *markdown = NULL;
  g_autofree char *exported_lines = NULL;
  FileWait wait = { md_path, "# Fix the login bug\n" };
  g_autoptr(GPtrArray) recorded = g_ptr_array_new ();
  g_autoptr(GPtrArray) entries = NULL;

  add_session (f, "fake-basic", "exported", "Fix the login bug");
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      {
        record_json (f->transcripts, key, lines[i]);
        g_ptr_array_add (recorded, lines[i]);
      }
  /* text chunks of one message in a row are kept as one */
  entries = stored_entries (recorded);

  _pal_window_export_to_file (f->window, key, PAL_TRANSCRIPT_FORMAT_MARKDOWN, md_file);
  WAIT_UNTIL (file_written (&wait));
  markdown = read_file (md_path);
  /* below the header (the time it was recorded differs), the golden text
   * with the agent's name */
  g_assert_nonnull (strstr (markdown, "\n- Agent: fake-basic\n"));
  {
    g_auto(GStrv) parts = g_strsplit (strstr (golden, "\n## You\n"), "## Fake Agent", -1);
    g_autofree char *expected = g_strjoinv ("## fake-basic", parts);

    g_assert_cmpstr (strstr (markdown, "\n## You\n"), ==, expected);
  }

  wait.path = jsonl_path;
  wait.prefix = "[";
  _pal_window_export_to_file (f->window, key, PAL_TRANSCRIPT_FORMAT_JSON_LINES, jsonl_file);
  WAIT_UNTIL (file_written (&wait));
  exported_lines = read_file (jsonl_path);
  {
    g_auto(GStrv) out = g_strsplit (exported_lines, "\n", -1);

    g_assert_cmpuint (g_strv_length (out), ==, entries->len + 1);
    g_assert_cmpstr (out[0], ==, lines[0]);
  }
}

/* The session menu offers Export… for every session */
static void
test_export_in_menu (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("fake-basic", "any");
  GtkWidget *menu = g_object_ref_sink (pal_session_menu_new ());
  GtkWidget *box = gtk_popover_get_child (GTK_POPOVER (menu));
  GtkWidget *export = NULL;

  pal_session_menu_update (menu, key, FALSE, _pal_window_can, f->window);
  for (GtkWidget *child = gtk_widget_get_first_child (box); child; child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (child), "action"), "win.export-session") == 0)
      export = child;

  g_assert_nonnull (export);
  g_assert_true (gtk_widget_get_visible (export));
  g_assert_true (gtk_widget_get_sensitive (export));
  g_object_unref (menu);
}

/* --- find in the session --- */

static gboolean
replayed (gpointer data)
{
  Fixture *f = data;
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (f->window));

  return session_ready (f) &&
         pal_chat_view_get_caught_up (PAL_CHAT_VIEW (pal_session_view_get_chat_view (view)));
}

static gboolean
revealed (gpointer data)
{
  return pal_chat_view_get_revealed (data) != NULL;
}

/* The row revealed is a message holding @text, on screen, with @text
 * tagged as the current match */
static void
assert_revealed (PalChatView *chat,
                 const char  *text)
{
  GtkWidget *row;
  GtkWidget *view;
  GtkTextBuffer *buffer;
  GtkTextTag *current;
  GtkTextIter iter;
  graphene_rect_t bounds;
  g_autofree char *marked = NULL;

  WAIT_UNTIL (revealed (chat));
  row = pal_chat_view_get_revealed (chat);
  g_assert_true (PAL_IS_MESSAGE_ROW (row));
  g_assert_nonnull (strstr (acp_message_item_get_text (pal_message_row_get_item (PAL_MESSAGE_ROW (row))), text));

  g_assert_true (gtk_widget_compute_bounds (row, GTK_WIDGET (chat), &bounds));
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, >, 0);
  g_assert_cmpfloat (bounds.origin.y, <, gtk_widget_get_height (GTK_WIDGET (chat)));

  view = find_descendant (row, GTK_TYPE_TEXT_VIEW);
  g_assert_nonnull (view);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  current = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "find-current");
  g_assert_nonnull (current);
  gtk_text_buffer_get_start_iter (buffer, &iter);
  g_assert_true (gtk_text_iter_forward_to_tag_toggle (&iter, current));
  {
    GtkTextIter end = iter;

    g_assert_true (gtk_text_iter_forward_to_tag_toggle (&end, current));
    marked = gtk_text_iter_get_text (&iter, &end);
  }
  g_assert_cmpstr (marked, ==, text);
}

static void
test_find_in_session (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("fake-replay", "past-session");
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (f->window));
  PalChatView *chat = PAL_CHAT_VIEW (pal_session_view_get_chat_view (view));
  PalFindBar *bar = f->window->find_bar;

#ifdef __SANITIZE_ADDRESS__
  /* Scrolled to a row thousands of rows up while it measures the rows it
   * makes, a list view lays out again more than four times in one frame in
   * this slow build; GTK 4.8's frame clock then gives up that frame with a
   * warning and warns again while drawing it. The normal build runs this. */
  g_test_skip ("too slow for GTK 4.8's frame clock in a sanitizer build");
  return;
#endif

  add_session (f, "fake-replay", "past-session", "A long past session");
  pal_window_open_session (f->window, key);
  WAIT_UNTIL (replayed (f));

  /* Ctrl+F: the bar above the chat */
  g_assert_false (pal_find_bar_get_open (bar));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  g_assert_true (pal_find_bar_get_open (bar));

  /* one match, in the eighth of 2,000 turns: far above the end shown */
  pal_find_bar_set_text (bar, "module-7.c");
  g_assert_cmpuint (pal_find_bar_get_n_matches (bar), ==, 1);
  g_assert_false (pal_chat_view_get_stick_to_bottom (chat));
  assert_revealed (chat, "module-7.c");

  /* a match in every turn: the newest first, then up and around */
  pal_find_bar_set_text (bar, "PARSER drops");
  g_assert_cmpuint (pal_find_bar_get_n_matches (bar), ==, 2000);
  g_assert_cmpuint (pal_find_bar_get_current (bar), ==, 1999);
  assert_revealed (chat, "parser drops");
  pal_find_bar_previous (bar);
  g_assert_cmpuint (pal_find_bar_get_current (bar), ==, 1998);
  pal_find_bar_next (bar);
  pal_find_bar_next (bar);
  g_assert_cmpuint (pal_find_bar_get_current (bar), ==, 0);
  assert_revealed (chat, "parser drops");
  g_assert_nonnull (strstr (acp_message_item_get_text (pal_message_row_get_item (
                              PAL_MESSAGE_ROW (pal_chat_view_get_revealed (chat)))), "Turn 0:"));

  /* nothing found: nothing marked */
  pal_find_bar_set_text (bar, "no such words");
  g_assert_cmpuint (pal_find_bar_get_n_matches (bar), ==, 0);
  g_assert_null (pal_chat_view_get_revealed (chat));

  /* closed: the marks go */
  pal_find_bar_set_text (bar, "module-7.c");
  assert_revealed (chat, "module-7.c");
  pal_find_bar_close (bar);
  g_assert_null (pal_chat_view_get_revealed (chat));

  /* another session shown: the bar closes */
  pal_find_bar_set_text (bar, "module-7.c");
  assert_revealed (chat, "module-7.c");
  pal_session_view_set_session (view, NULL);
  g_assert_false (pal_find_bar_get_open (bar));
  g_assert_null (pal_chat_view_get_revealed (chat));
}

/* With no session shown, Ctrl+F searches the list */
static void
test_find_without_session (Fixture       *f,
                           gconstpointer  data)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.find", NULL));
  g_assert_false (pal_find_bar_get_open (f->window->find_bar));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  test_app = test_app_new ("io.github.palaverapp.PalaverHistoryTest");

  g_test_add ("/history/search/grouped", Fixture, NULL,
              fixture_set_up, test_search_grouped, fixture_tear_down);
  g_test_add ("/history/search/thoughts", Fixture, NULL,
              fixture_set_up, test_search_thoughts, fixture_tear_down);
  g_test_add ("/history/search/restarts", Fixture, NULL,
              fixture_set_up, test_search_restarts, fixture_tear_down);
  g_test_add ("/history/search/activate", Fixture, NULL,
              fixture_set_up, test_search_activate, fixture_tear_down);
  g_test_add ("/history/search/sidebar", Fixture, NULL,
              fixture_set_up, test_sidebar_entry_point, fixture_tear_down);
  g_test_add ("/history/export/files", Fixture, NULL,
              fixture_set_up, test_export, fixture_tear_down);
  g_test_add ("/history/export/menu", Fixture, NULL,
              fixture_set_up, test_export_in_menu, fixture_tear_down);
  g_test_add ("/history/find/in-session", Fixture, NULL,
              fixture_set_up, test_find_in_session, fixture_tear_down);
  g_test_add ("/history/find/without-session", Fixture, NULL,
              fixture_set_up, test_find_without_session, fixture_tear_down);

  {
    int status = g_test_run ();

    g_clear_object (&test_app);
    return status;
  }
}
