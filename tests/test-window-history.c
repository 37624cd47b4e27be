/* test-window-history.c: past sessions read from the history kept of them,
 * in the real window, with the fake agent
 *
 * A session selected in the sidebar shows its history without its agent;
 * writing opens it: a replay of the same history does not change what is
 * on screen, a changed one replaces it; a resume shows the history above
 * the new turns; a session's history is deleted with it, or all of it from
 * the preferences; a damaged database is told in the window; a search hit
 * is shown where it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-chat-view.h"
#include "pal-composer.h"
#include "pal-markdown.h"
#include "pal-markdown-text.h"
#include "pal-message-row.h"
#include "pal-preferences-window.h"
#include "pal-session-history.h"
#include "pal-session-view.h"
#include "pal-sidebar.h"
#include "pal-window.h"
#include "find-descendant.h"
#include "store-util.h"
#include "test-util.h"

typedef struct
{
  GSettingsBackend   *backend;
  GSettings          *settings;
  PalAgentStore      *agent_store;
  PalSessionStore    *session_store;
  PalTranscriptStore *store;
  PalSessionManager  *manager;
  PalWindow          *window;
  char               *tmpdir;
  char               *folder;
  char               *path;
  GPtrArray          *problems;  /* GError */
  /* what the chat view showed, in turn (borrowed) */
  GPtrArray          *models;
  GAsyncResult       *result;
} Fixture;

/* one application for the whole program: an id can be registered once */
static GtkApplication *test_app;

static void
problem_cb (PalTranscriptStore *store,
            const GError       *error,
            Fixture            *f)
{
  g_ptr_array_add (f->problems, g_error_copy (error));
}

static PalChatView *
chat_view (Fixture *f)
{
  PalSessionView *view = PAL_SESSION_VIEW (pal_window_get_session_view (f->window));

  return PAL_CHAT_VIEW (pal_session_view_get_chat_view (view));
}

static PalSessionView *
session_view (Fixture *f)
{
  return PAL_SESSION_VIEW (pal_window_get_session_view (f->window));
}

static void
model_changed_cb (PalChatView *view,
                  GParamSpec  *pspec,
                  Fixture     *f)
{
  GListModel *model = pal_chat_view_get_model (view);

  if (model != NULL)
    g_ptr_array_add (f->models, model);
}

/* A store at the fixture's path, and the window on a manager recording into
 * it */
static void
make_window (Fixture *f)
{
  f->store = pal_transcript_store_new (f->path);
  g_signal_connect (f->store, "problem", G_CALLBACK (problem_cb), f);
  f->manager = g_object_new (PAL_TYPE_SESSION_MANAGER,
                             "agent-store", f->agent_store,
                             "session-store", f->session_store,
                             "transcript-store", f->store,
                             NULL);
  f->window = pal_window_new (test_app, f->manager, NULL);
  gtk_window_present (GTK_WINDOW (f->window));
  g_signal_connect (chat_view (f), "notify::model", G_CALLBACK (model_changed_cb), f);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("palaver-window-history-XXXXXX", &error);
  const char *fake = g_getenv ("PALAVER_FAKE_AGENT");

  g_assert_no_error (error);
  f->tmpdir = g_canonicalize_filename (tmpdir, NULL);
  f->folder = g_build_filename (f->tmpdir, "project", NULL);
  g_assert_cmpint (g_mkdir (f->folder, 0700), ==, 0);
  f->path = g_build_filename (f->tmpdir, "transcripts.db", NULL);
  f->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  f->models = g_ptr_array_new ();

  f->backend = g_memory_settings_backend_new ();
  f->settings = g_settings_new_with_backend (APPLICATION_ID, f->backend);
  f->agent_store = pal_agent_store_new (f->settings);
  f->session_store = pal_session_store_new (f->settings);
  test_add_agent (f->agent_store, "history", fake, "history.json");
  test_add_agent (f->agent_store, "resume-only", fake, "resume-only.json");
  test_add_agent (f->agent_store, "blocks", fake, "user-blocks.json");
  /* an agent that is not installed any more */
  test_add_agent (f->agent_store, "gone", "/nonexistent/palaver-test-agent", "history.json");

  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);
  if (data == NULL)
    make_window (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (l->data != f->window && ADW_IS_MESSAGE_DIALOG (l->data))
      gtk_window_destroy (l->data);
  gtk_window_destroy (GTK_WINDOW (f->window));
  pal_session_manager_shutdown_async (f->manager, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  pal_session_manager_shutdown_finish (f->manager, result, NULL);

  g_clear_object (&f->manager);
  g_clear_object (&f->store);
  g_clear_object (&f->session_store);
  g_clear_object (&f->agent_store);
  g_clear_object (&f->settings);
  g_clear_object (&f->backend);
  g_ptr_array_unref (f->problems);
  g_ptr_array_unref (f->models);
  test_remove_tree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->folder);
  g_free (f->path);
}

/* --- helpers --- */

static PalSessionKey *
add_session (Fixture    *f,
             const char *agent_id,
             const char *session_id,
             const char *title)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new (session_id, agent_id, f->folder);

  PalSessionKey *key = pal_session_key_ref (pal_session_record_get_key (record));

  pal_session_record_set_title (record, title);
  pal_session_store_add (f->session_store, record);
  /* the record may go: the test keeps the key */
  g_test_queue_destroy ((GDestroyNotify) pal_session_key_unref, key);

  return key;
}

static void
select_session (Fixture       *f,
                PalSessionKey *key)
{
  g_signal_emit_by_name (pal_window_get_sidebar (f->window), "session-activated", key);
}

static guint
n_stored (Fixture       *f,
          PalSessionKey *key)
{
  g_autoptr(PalStoredTranscript) stored = test_load_stored (f->store, key);

  return pal_stored_transcript_get_n_entries (stored);
}

static gboolean
history_shown (gpointer data)
{
  Fixture *f = data;

  return pal_session_view_get_history (session_view (f)) != NULL;
}

static gboolean
current_ready (gpointer data)
{
  Fixture *f = data;
  AcpSession *session = pal_session_view_get_session (session_view (f));

  return session != NULL && acp_session_get_state (session) == ACP_SESSION_STATE_READY;
}

/* The chat shows the session's own transcript, the history gone */
static gboolean
live_shown (gpointer data)
{
  Fixture *f = data;
  AcpSession *session = pal_session_view_get_session (session_view (f));

  return current_ready (f) &&
         pal_chat_view_get_model (chat_view (f)) ==
         G_LIST_MODEL (acp_session_get_transcript (session));
}

/* Records a past session into the store, as a live one would have been:
 * a prompt and the answer */
static void
record_by_hand (Fixture       *f,
                PalSessionKey *key)
{
  pal_transcript_store_record_prompt (f->store, key,
                                      "[{\"type\":\"text\",\"text\":\"Where is the walrus?\"}]");
  pal_transcript_store_record_update (f->store, key,
                                      "{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"m1\","
                                      "\"content\":{\"type\":\"text\",\"text\":\"Far north.\"}}");
  pal_transcript_store_record_update (f->store, key,
                                      "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"c1\","
                                      "\"title\":\"Read walrus.txt\",\"status\":\"completed\"}");
}

static void
write_prompt (Fixture    *f,
              const char *text)
{
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (session_view (f)));

  pal_composer_set_text (composer, text);
  g_assert_true (pal_composer_submit (composer));
}

/* --- tests --- */

static gboolean
failed_notice_shown (gpointer data)
{
  Fixture *f = data;
  g_autofree char *items = test_describe_items (pal_chat_view_get_model (chat_view (f)));

  return strstr (items, "notice: The session could not be opened") != NULL;
}

/* A session whose agent is not installed any more is read from its
 * history, without starting anything; writing tries the agent, and the
 * history stays readable when it cannot start */
/* The state of @key as the manager tells it: NOT_RUNNING when not live */
static PalSessionState
session_state (PalSessionManager *manager,
               PalSessionKey     *key)
{
  PalLiveSession *live = pal_session_manager_lookup_live (manager, key);

  return live != NULL ? pal_live_session_get_state (live) : PAL_SESSION_STATE_NOT_RUNNING;
}

static void
test_browse_without_agent (Fixture       *f,
                           gconstpointer  data)
{
  PalSessionKey *key = add_session (f, "gone", "past", "The walrus");
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (session_view (f)));
  g_autofree char *items = NULL;
  g_autofree char *text = NULL;

  record_by_hand (f, key);
  select_session (f, key);
  WAIT_UNTIL (history_shown (f));

  /* at once, read-only, and no agent was started */
  g_assert_true (pal_session_key_equal (pal_window_get_current_session (f->window), key));
  g_assert_null (pal_session_view_get_session (session_view (f)));
  g_assert_null (pal_session_manager_dup_last_agent (f->manager, "gone"));
  g_assert_cmpint (session_state (f->manager, key), ==,
                   PAL_SESSION_STATE_NOT_RUNNING);
  items = test_describe_items (pal_chat_view_get_model (chat_view (f)));
  g_assert_cmpstr (items, ==, "user: Where is the walrus? | agent: Far north. | "
                              "tool: Read walrus.txt (completed)");
  /* the composer says what writing does */
  g_assert_true (pal_composer_get_can_send (composer));
  g_assert_cmpstr (pal_composer_get_placeholder (composer), ==,
                   "Write to open this session again with its agent");

  /* writing tries the agent: it cannot start, the history stays, with why */
  write_prompt (f, "Are you there?");
  WAIT_UNTIL (failed_notice_shown (f));
  g_assert_nonnull (pal_session_view_get_history (session_view (f)));
  g_clear_pointer (&items, g_free);
  items = test_describe_items (pal_chat_view_get_model (chat_view (f)));
  g_assert_true (g_str_has_prefix (items, "user: Where is the walrus? | agent: Far north."));
  /* and what was written is given back */
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "Are you there?");
  /* nothing of it was recorded */
  g_assert_cmpuint (n_stored (f, key), ==, 3);
}

static gboolean
loading (gpointer data)
{
  Fixture *f = data;
  PalSessionKey *key = pal_window_get_current_session (f->window);

  return key != NULL &&
         session_state (f->manager, key) == PAL_SESSION_STATE_LOADING;
}

static void
load_and_close (Fixture       *f,
                PalSessionKey *key)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpSession) session = NULL;

  pal_session_manager_load_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  session = pal_session_manager_load_session_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  pal_session_manager_close_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_close_session_finish (f->manager, result, &error));
}

/* The person looks at another session, then at @key (closed): its history */
static void
browse_again (Fixture       *f,
              PalSessionKey *other,
              PalSessionKey *key)
{
  select_session (f, other);
  WAIT_UNTIL (history_shown (f));
  g_ptr_array_set_size (f->models, 0);
  select_session (f, key);
  WAIT_UNTIL (history_shown (f));
}

typedef struct
{
  Fixture    *f;
  GListModel *history;
  gboolean    saw_loading;
} Opening;

/* The session opened, its own transcript shown; until then, while it
 * loads, the history is what the chat shows */
static gboolean
opened_over_history (gpointer data)
{
  Opening *opening = data;

  if (loading (opening->f))
    {
      opening->saw_loading = TRUE;
      g_assert_true (pal_chat_view_get_model (chat_view (opening->f)) == opening->history);
    }

  return live_shown (opening->f);
}

static gboolean
answered (gpointer data)
{
  Fixture *f = data;
  g_autofree char *items = test_describe_items (pal_chat_view_get_model (chat_view (f)));

  return live_shown (f) && strstr (items, "user: And now?") != NULL;
}

/* Written in a session shown from its history: it opens; while its replay
 * comes, the history stays; the same history replayed shows no change, and
 * is not kept twice; a changed one replaces what was shown and kept */
static void
test_replay_over_history (Fixture       *f,
                          gconstpointer  data)
{
  PalSessionKey *key = add_session (f, "history", "walrus", "The walrus");
  PalSessionKey *other = add_session (f, "gone", "other", "Another one");
  GListModel *history;
  g_autofree char *history_items = NULL;
  g_autofree char *live_items = NULL;
  Opening opening = { f, NULL, FALSE };

  record_by_hand (f, other);
  /* the first load keeps the history */
  load_and_close (f, key);
  g_assert_cmpuint (n_stored (f, key), ==, 4);

  browse_again (f, other, key);
  history = pal_chat_view_get_model (chat_view (f));
  history_items = test_describe_items (history);
  g_assert_cmpstr (history_items, ==, "user: Where is the walrus? | "
                                      "agent: The walrus lives far north. | tool: Read walrus.txt (completed)");

  /* Open: the same history, cut otherwise */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-session", "(ss)",
                                             "history", "walrus"));
  opening.history = history;
  WAIT_UNTIL (opened_over_history (&opening));
  g_assert_true (opening.saw_loading);
  /* two pictures: the history, then the live transcript, nothing between */
  g_assert_cmpuint (f->models->len, ==, 2);
  g_assert_true (g_ptr_array_index (f->models, 0) == history);
  live_items = test_describe_items (pal_chat_view_get_model (chat_view (f)));
  g_assert_cmpstr (live_items, ==, history_items);
  g_assert_true (pal_chat_view_get_stick_to_bottom (chat_view (f)));
  g_assert_cmpuint (n_stored (f, key), ==, 4);

  /* closed, shown again from its history; the third load is another history */
  {
    g_autoptr(GAsyncResult) result = NULL;

    pal_session_manager_close_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
    result = WAIT_RESULT (&f->result);
    g_assert_true (pal_session_manager_close_session_finish (f->manager, result, NULL));
  }
  browse_again (f, other, key);
  write_prompt (f, "And now?");
  WAIT_UNTIL (answered (f));
  g_clear_pointer (&live_items, g_free);
  live_items = test_describe_items (pal_chat_view_get_model (chat_view (f)));
  g_assert_true (g_str_has_prefix (live_items, "user: Where is the walrus? | "
                                               "agent: It went south. | user: And now?"));
  g_assert_null (strstr (live_items, "far north"));
}

static gboolean
resumed_shown (gpointer data)
{
  Fixture *f = data;
  g_autofree char *items = test_describe_items (pal_chat_view_get_model (chat_view (f)));

  return live_shown (f) && g_str_has_suffix (items, "notice: Session resumed");
}

/* A resume replays nothing: the history shown stays above the new turns */
static void
test_resume_history (Fixture       *f,
                     gconstpointer  data)
{
  PalSessionKey *key = add_session (f, "resume-only", "kept", "Kept");
  g_autofree char *items = NULL;

  Opening opening = { f, NULL, FALSE };

  record_by_hand (f, key);
  select_session (f, key);
  WAIT_UNTIL (history_shown (f));
  g_ptr_array_set_size (f->models, 0);

  /* while it resumes, the history; then the session's own transcript */
  opening.history = pal_chat_view_get_model (chat_view (f));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.resume-session", "(ss)",
                                             "resume-only", "kept"));
  WAIT_UNTIL (opened_over_history (&opening));
  g_assert_true (opening.saw_loading);
  WAIT_UNTIL (resumed_shown (f));
  items = test_describe_items (pal_chat_view_get_model (chat_view (f)));
  g_assert_cmpstr (items, ==, "user: Where is the walrus? | agent: Far north. | "
                              "tool: Read walrus.txt (completed) | notice: Session resumed");
  /* the history, then the session's own: nothing between */
  g_assert_cmpuint (f->models->len, ==, 1);
}

static AdwMessageDialog *
find_dialog (void)
{
  AdwMessageDialog *found = NULL;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      found = l->data;

  return found;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_dialog () != NULL;
}

/* What a click on the button of @response does: the answer, and the
 * dialog goes */
static void
answer (AdwMessageDialog *dialog,
        const char       *response)
{
  adw_message_dialog_response (dialog, response);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

typedef struct
{
  Fixture       *f;
  PalSessionKey *key;
} Gone;

static gboolean
history_gone (gpointer data)
{
  Gone *gone = data;

  return n_stored (gone->f, gone->key) == 0;
}

/* Removing a session from the list offers to delete its history too */
static void
test_delete_one (Fixture       *f,
                 gconstpointer  data)
{
  PalSessionKey *kept = add_session (f, "gone", "kept", "Kept");
  PalSessionKey *deleted = add_session (f, "gone", "deleted", "Deleted");
  AdwMessageDialog *dialog;
  GtkCheckButton *check;
  Gone gone = { f, deleted };

  record_by_hand (f, kept);
  record_by_hand (f, deleted);

  /* kept: the history stays */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.forget-session",
                                             "(ss)", "gone", "kept"));
  WAIT_UNTIL (dialog_shown (NULL));
  dialog = find_dialog ();
  check = GTK_CHECK_BUTTON (adw_message_dialog_get_extra_child (dialog));
  g_assert_false (gtk_check_button_get_active (check));
  answer (dialog, "remove");
  g_assert_null (pal_session_store_lookup (f->session_store, kept));

  /* deleted: with the check */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.forget-session",
                                             "(ss)", "gone", "deleted"));
  WAIT_UNTIL (dialog_shown (NULL));
  dialog = find_dialog ();
  check = GTK_CHECK_BUTTON (adw_message_dialog_get_extra_child (dialog));
  gtk_check_button_set_active (check, TRUE);
  answer (dialog, "remove");
  g_assert_null (pal_session_store_lookup (f->session_store, deleted));
  WAIT_UNTIL (history_gone (&gone));

  g_assert_cmpuint (n_stored (f, kept), ==, 3);
}

static gboolean
all_gone (gpointer data)
{
  Fixture *f = data;
  g_autoptr(PalSessionKey) first = pal_session_key_new ("gone", "first");
  g_autoptr(PalSessionKey) second = pal_session_key_new ("gone", "second");

  return n_stored (f, first) == 0 && n_stored (f, second) == 0;
}

static gboolean
label_says (GtkWidget  *widget,
            const char *text);

static gboolean
deleted_all_said (gpointer data)
{
  return label_says (data, "All history deleted");
}

/* The History page says how much space is used (g_format_size ()) */
static gboolean
size_said (gpointer data)
{
  return label_says (data, "kB") || label_says (data, "MB");
}

/* The preferences say how much space the history takes, and delete all
 * of it, after asking */
static void
test_delete_all (Fixture       *f,
                 gconstpointer  data)
{
  PalSessionKey *first = add_session (f, "gone", "first", "First");
  PalSessionKey *second = add_session (f, "gone", "second", "Second");
  g_autoptr(PalMcpServerStore) servers = NULL;
  g_autoptr(SoupSession) session = NULL;
  PalPreferencesWindow *preferences;
  AdwMessageDialog *dialog;

  record_by_hand (f, first);
  record_by_hand (f, second);
  g_assert_cmpuint (n_stored (f, first), ==, 3);

  servers = pal_mcp_server_store_new (f->settings);
  session = soup_session_new ();
  preferences = pal_preferences_window_new (f->agent_store, servers, session);
  pal_preferences_window_set_transcript_store (preferences, f->store);
  gtk_window_present (GTK_WINDOW (preferences));
  adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (preferences), "history");
  /* the space it takes, in words */
  WAIT_UNTIL (size_said (preferences));

  /* asked first: Cancel keeps everything */
  dialog = pal_preferences_window_delete_all_history (preferences);
  answer (dialog, "cancel");
  g_assert_cmpuint (n_stored (f, second), ==, 3);

  dialog = pal_preferences_window_delete_all_history (preferences);
  answer (dialog, "delete");
  WAIT_UNTIL (all_gone (f));
  WAIT_UNTIL (deleted_all_said (preferences));
  /* the list of sessions stays */
  g_assert_nonnull (pal_session_store_lookup (f->session_store, first));

  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* A label in @widget, on screen, saying @text (a toast's) */
static gboolean
label_says (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL &&
      gtk_widget_get_mapped (widget))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (label_says (child, text))
      return TRUE;

  return FALSE;
}

static gboolean
damage_told (gpointer data)
{
  Fixture *f = data;

  return label_says (GTK_WIDGET (f->window), "is damaged");
}

/* A damaged database is moved aside and a new one started: the window
 * says so (where it went, what is no longer shown), and goes on */
static void
test_problem_shown (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *garbage = g_strnfill (8192, 'x');
  PalSessionKey *key;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (f->path, garbage, -1, &error));
  make_window (f);
  key = add_session (f, "gone", "after", "After");

  /* the first use of the store finds it */
  record_by_hand (f, key);
  select_session (f, key);
  WAIT_UNTIL (damage_told (f));
  g_assert_cmpuint (f->problems->len, ==, 1);
  g_assert_nonnull (strstr (f->problems->pdata[0] != NULL
                            ? ((GError *) f->problems->pdata[0])->message : "", "moved to"));

  /* and the new one works */
  WAIT_UNTIL (history_shown (f));
  g_assert_cmpuint (n_stored (f, key), ==, 3);
}

typedef struct
{
  Fixture *f;
  gpointer item;
} Target;

/* The item is highlighted and its row on screen */
static gboolean
target_shown (gpointer data)
{
  Target *target = data;
  PalChatView *view = chat_view (target->f);
  GtkWidget *scroller = find_descendant (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *list = find_descendant (GTK_WIDGET (view), GTK_TYPE_LIST_VIEW);
  double height = gtk_widget_get_height (scroller);

  if (target->item == NULL || pal_chat_view_get_highlighted (view) != target->item)
    return FALSE;

  for (GtkWidget *row = gtk_widget_get_first_child (list);
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (row);
      graphene_rect_t bounds;

      if (clamp == NULL || !gtk_widget_has_css_class (clamp, "highlighted") ||
          !gtk_widget_compute_bounds (row, scroller, &bounds))
        continue;
      if (bounds.origin.y >= 0 && bounds.origin.y < height)
        return TRUE;
    }

  return FALSE;
}

/* A search hit: the session is shown at the message found, highlighted */
/* Stores @n turns of @key: "Question i" prompted, "Answer i" answered
 * (entries 2i and 2i + 1) */
static void
record_questions (Fixture       *f,
                  PalSessionKey *key,
                  guint          n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *prompt = g_strdup_printf ("[{\"type\":\"text\",\"text\":\"Question %u\"}]", i);
      g_autofree char *answer = g_strdup_printf ("{\"sessionUpdate\":\"agent_message_chunk\","
                                                 "\"messageId\":\"m%u\",\"content\":{\"type\":"
                                                 "\"text\",\"text\":\"Answer %u\"}}", i, i);

      pal_transcript_store_record_prompt (f->store, key, prompt);
      pal_transcript_store_record_update (f->store, key, answer);
    }
}

static void
test_show_at (Fixture       *f,
              gconstpointer  data)
{
  PalSessionKey *key = add_session (f, "gone", "long", "Long");
  g_autoptr(PalSessionHistory) history = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Target target = { f, NULL };
  int position;

  record_questions (f, key, 400);

  /* the answer to question 20: entry 41 */
  pal_session_history_load_async (f->store, key, PAL_SESSION_HISTORY_LOAD_NONE, NULL,
                                  test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  history = pal_session_history_load_finish (result, &error);
  g_assert_no_error (error);
  position = pal_session_history_find_item (history, pal_session_history_get_item (history, 41));
  g_assert_cmpint (position, ==, 41);

  pal_window_show_session_at (f->window, key, 41);
  WAIT_UNTIL (history_shown (f));
  {
    g_autoptr(GObject) item = g_list_model_get_item (pal_chat_view_get_model (chat_view (f)), 41);

    g_assert_cmpstr (acp_message_item_get_text (ACP_MESSAGE_ITEM (item)), ==, "Answer 20");
    target.item = item;
    WAIT_UNTIL (target_shown (&target));
  }
  g_assert_false (pal_chat_view_get_stick_to_bottom (chat_view (f)));
}

/* Selects @key, a long history: its end is shown first. Returns: (transfer
 * full): the chat's model then */
static GListModel *
show_end_first (Fixture       *f,
                PalSessionKey *key)
{
  GListModel *end;

  select_session (f, key);
  WAIT_UNTIL (history_shown (f));
  end = g_object_ref (pal_chat_view_get_model (chat_view (f)));
  g_assert_cmpuint (g_list_model_get_n_items (end), <, 1000);

  return end;
}

/* A long history is shown from its end, and its earlier turns come in
 * front of it in the same chat; a search hit among them, asked for
 * meanwhile, is gone to once they are there */
static void
test_long_end_first (Fixture       *f,
                     gconstpointer  data)
{
  PalSessionKey *key = add_session (f, "gone", "longer", "Longer");
  Target target = { f, NULL };
  g_autoptr(GListModel) model = NULL;

  record_questions (f, key, 10000);
  g_assert_cmpuint (n_stored (f, key), ==, 20000);

  model = show_end_first (f, key);
  {
    g_autoptr(GObject) last = g_list_model_get_item (model, g_list_model_get_n_items (model) - 1);

    g_assert_cmpstr (acp_message_item_get_text (ACP_MESSAGE_ITEM (last)), ==, "Answer 9999");
  }

  /* the answer to question 20: entry 41 */
  pal_window_show_session_at (f->window, key, 41);
  WAIT_UNTIL (g_list_model_get_n_items (model) == 20000);
  g_assert_true (pal_chat_view_get_model (chat_view (f)) == model);
  {
    g_autoptr(GObject) item = g_list_model_get_item (model, 41);

    g_assert_cmpstr (acp_message_item_get_text (ACP_MESSAGE_ITEM (item)), ==, "Answer 20");
    target.item = item;
    WAIT_UNTIL (target_shown (&target));
  }
}

/* The chat shows the end of its transcript, every item in the list */
static gboolean
chat_at_end (Fixture *f)
{
  GtkWidget *scroller = find_descendant (GTK_WIDGET (chat_view (f)), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

  return pal_chat_view_get_caught_up (chat_view (f)) &&
         pal_chat_view_get_stick_to_bottom (chat_view (f)) &&
         gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) &&
         gtk_adjustment_get_value (adjustment) >=
           gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 1;
}

/* The last turn of a long history finishes a tool call of its first: the
 * end shown first gives way to the whole history, built on, in the same
 * chat */
static void
test_long_end_first_reaching_back (Fixture       *f,
                                   gconstpointer  data)
{
  PalSessionKey *key = add_session (f, "gone", "reaching", "Reaching back");
  g_autoptr(GListModel) end = NULL;
  g_autoptr(GObject) first = NULL;
  GListModel *whole;

  pal_transcript_store_record_update (f->store, key, "{\"sessionUpdate\":\"tool_call\","
                                      "\"toolCallId\":\"t0\",\"title\":\"Build\","
                                      "\"status\":\"in_progress\"}");
  record_questions (f, key, 10000);
  pal_transcript_store_record_update (f->store, key, "{\"sessionUpdate\":\"tool_call_update\","
                                      "\"toolCallId\":\"t0\",\"status\":\"completed\"}");

  end = show_end_first (f, key);

  WAIT_UNTIL (pal_chat_view_get_model (chat_view (f)) != end);
  whole = pal_chat_view_get_model (chat_view (f));
  g_assert_true (whole == G_LIST_MODEL (pal_session_view_get_history (session_view (f))));
  g_assert_cmpuint (g_list_model_get_n_items (whole), ==, 20001);
  first = g_list_model_get_item (whole, 0);
  g_assert_cmpstr (acp_tool_call_item_get_status (ACP_TOOL_CALL_ITEM (first)), ==, "completed");
  /* and the chat is at its end again */
  POLL_UNTIL (chat_at_end (f));
}

/* The row of the first item the chat shows, once it is made for it */
static PalMessageRow *
first_message_row (Fixture *f)
{
  GListModel *model = pal_chat_view_get_model (chat_view (f));
  GtkWidget *row = find_descendant (GTK_WIDGET (chat_view (f)), PAL_TYPE_MESSAGE_ROW);
  g_autoptr(GObject) first = NULL;

  if (model == NULL || g_list_model_get_n_items (model) == 0 || row == NULL)
    return NULL;
  first = g_list_model_get_item (model, 0);
  if (G_OBJECT (pal_message_row_get_item (PAL_MESSAGE_ROW (row))) != first)
    return NULL;

  return PAL_MESSAGE_ROW (row);
}

/* The prompt of tests/scenarios/user-blocks.json, shown as it was sent:
 * its mention a link, a chip for each resource, a thumbnail of its image
 * and a broken image chip for the data that is none */
static void
assert_prompt_shown (Fixture *f)
{
  static const char *names[] = {
    "Attached file hello.c", "Attached file logo.bin", "Attached file notes.md",
    "Image, 8 × 6", "Broken image",
  };
  PalMessageRow *row;
  PalMessageAttachments *chips;
  GtkWidget *text;
  GtkTextIter iter;

  WAIT_UNTIL ((row = first_message_row (f)) != NULL);
  g_assert_cmpint (acp_message_item_get_role (pal_message_row_get_item (row)), ==,
                   ACP_MESSAGE_ROLE_USER);
  g_assert_cmpstr (acp_message_item_get_text (pal_message_row_get_item (row)), ==,
                   "Compare @src/hello.c with @notes.md.");
  chips = pal_message_row_get_attachments (row);
  WAIT_UNTIL (pal_message_attachments_get_n_decoding (chips) == 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (pal_message_attachments_get_chip_name (pal_message_attachments_get_chip (chips, i)), ==,
                     names[i]);
  g_assert_null (pal_message_attachments_get_chip (chips, G_N_ELEMENTS (names)));
  g_assert_true (GTK_IS_BUTTON (pal_message_attachments_get_chip (chips, 3)));

  /* "@src/hello.c" from the 8th character */
  text = find_descendant (GTK_WIDGET (row), PAL_TYPE_MARKDOWN_TEXT);
  gtk_text_buffer_get_iter_at_offset (gtk_text_view_get_buffer (GTK_TEXT_VIEW (text)), &iter, 9);
  g_assert_cmpstr (pal_markdown_get_link_at (&iter), ==, "file:///project/src/hello.c");
}

/* A replay (session/load) of a prompt with every kind of block shows it
 * as it was sent */
static void
test_replay_user_blocks (Fixture       *f,
                         gconstpointer  data)
{
  add_session (f, "blocks", "blocks", "Every block");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-session", "(ss)",
                                             "blocks", "blocks"));
  WAIT_UNTIL (live_shown (f));
  assert_prompt_shown (f);
}

/* The same prompt, kept in the history and shown from there without the
 * agent: every block was kept */
static void
test_stored_user_blocks (Fixture       *f,
                         gconstpointer  data)
{
  PalSessionKey *key = add_session (f, "blocks", "blocks", "Every block");
  PalSessionKey *other = add_session (f, "gone", "other", "Another one");

  record_by_hand (f, other);
  load_and_close (f, key);
  browse_again (f, other, key);
  g_assert_null (pal_session_view_get_session (session_view (f)));
  assert_prompt_shown (f);
}

int
main (int   argc,
      char *argv[])
{
  test_tolerate_scroll_warning ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  test_app = test_app_new ("io.github.palaverapp.PalaverHistoryTest");

#define ADD(path, func) \
  g_test_add ("/window-history/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("browse-without-agent", test_browse_without_agent);
  ADD ("replay-over-history", test_replay_over_history);
  ADD ("resume", test_resume_history);
  ADD ("delete-one", test_delete_one);
  ADD ("delete-all", test_delete_all);
  ADD ("show-at", test_show_at);
  ADD ("long-end-first", test_long_end_first);
  ADD ("long-end-first/reaching-back", test_long_end_first_reaching_back);
  ADD ("replay-user-blocks", test_replay_user_blocks);
  ADD ("stored-user-blocks", test_stored_user_blocks);
  /* the window is made by the test, on a damaged database */
  g_test_add ("/window-history/problem-shown", Fixture, "later", fixture_set_up,
              test_problem_shown, fixture_tear_down);

#undef ADD

  return g_test_run ();
}
