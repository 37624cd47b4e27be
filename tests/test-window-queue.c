/* test-window-queue.c: prompts queued while the agent works, in the real
 * window, with the fake agent
 *
 * Each turn of the fake agent's "queue" scenarios asks for permission, and
 * stays open until the test answers: the prompts written meanwhile wait in
 * the queue, go out one by one in their order (as moved), come back edited
 * to their place, jump ahead with Send Now, go on while another session is
 * shown, and wait, saying why, after a turn that failed or was stopped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "acp-permission-item.h"
#include "pal-composer.h"
#include "pal-prompt-queue-view.h"
#include "pal-session-view.h"
#include "pal-window.h"
#include "store-util.h"
#include "test-util.h"

typedef struct
{
  GSettings          *settings;
  PalAgentStore      *agent_store;
  PalSessionStore    *session_store;
  PalMcpServerStore  *mcp_store;
  AcpPacer           *pacer;
  PalSessionManager  *manager;
  PalWindow          *window;
  PalSessionView     *view;
  PalComposer        *composer;
  char               *folder;
  GAsyncResult       *result;
} Fixture;

/* one application for the whole program: an id can be registered once */
static GtkApplication *test_app;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->settings = g_settings_new (APPLICATION_ID);
  g_settings_reset (f->settings, "sessions");
  g_settings_reset (f->settings, "agents");
  g_settings_reset (f->settings, "mcp-servers");
  f->folder = test_make_tmpdir ("palaver-queue-XXXXXX");

  f->agent_store = pal_agent_store_new (f->settings);
  f->session_store = pal_session_store_new (f->settings);
  f->mcp_store = pal_mcp_server_store_new (f->settings);
  f->pacer = acp_pacer_new ();
  f->manager = pal_session_manager_new (f->agent_store, f->session_store, f->mcp_store, f->pacer);
  test_add_agent (f->agent_store, "fake-queue", test_fake_agent_path (), "queue.json");
  test_add_agent (f->agent_store, "fake-queue-stop", test_fake_agent_path (), "queue-stop.json");
  test_add_agent (f->agent_store, "fake-queue-error", test_fake_agent_path (), "queue-error.json");
  test_add_agent (f->agent_store, "fake-basic", test_fake_agent_path (), "basic.json");

  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);
  f->window = pal_window_new (test_app, f->manager, NULL);
  f->view = PAL_SESSION_VIEW (pal_window_get_session_view (f->window));
  f->composer = PAL_COMPOSER (pal_session_view_get_composer (f->view));
  gtk_window_present (GTK_WINDOW (f->window));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  gtk_window_destroy (GTK_WINDOW (f->window));
  pal_session_manager_shutdown_async (f->manager, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_shutdown_finish (f->manager, result, NULL));

  g_clear_object (&f->manager);
  g_clear_object (&f->pacer);
  g_clear_object (&f->mcp_store);
  g_clear_object (&f->session_store);
  g_clear_object (&f->agent_store);
  g_clear_object (&f->settings);
  g_free (f->folder);
}

static AcpSession *
shown_session (Fixture *f)
{
  return pal_session_view_get_session (f->view);
}

static gboolean
in_state (AcpSession      *session,
          AcpSessionState  state)
{
  return session != NULL && acp_session_get_state (session) == state;
}

/* Starts a session of @agent_id and waits until it is ready.
 * Returns: (transfer none): it */
static AcpSession *
start_session (Fixture    *f,
               const char *agent_id)
{
  PalSessionKey *before = pal_window_get_current_session (f->window);

  pal_window_start_session (f->window, agent_id, f->folder, NULL);
  WAIT_UNTIL (pal_window_get_current_session (f->window) != NULL &&
              pal_window_get_current_session (f->window) != before &&
              in_state (shown_session (f), ACP_SESSION_STATE_READY));

  return shown_session (f);
}

/* Writes @text and presses Enter, as the person does */
static void
write_prompt (Fixture    *f,
              const char *text)
{
  pal_composer_set_text (f->composer, text);
  g_assert_true (pal_composer_submit (f->composer));
}

/* The permission request the turn of @session waits on, or NULL */
static AcpPermissionItem *
pending_permission (AcpSession *session)
{
  GListModel *items = G_LIST_MODEL (acp_session_get_transcript (session));

  for (guint i = g_list_model_get_n_items (items); i > 0; i--)
    {
      g_autoptr(GObject) item = g_list_model_get_item (items, i - 1);

      if (ACP_IS_PERMISSION_ITEM (item) &&
          acp_permission_item_get_state (ACP_PERMISSION_ITEM (item)) == ACP_PERMISSION_STATE_PENDING)
        return ACP_PERMISSION_ITEM (item);
    }

  return NULL;
}

/* Waits for the turn of @session to ask, and lets it end. */
static void
end_turn (AcpSession *session)
{
  g_autoptr(GError) error = NULL;

  WAIT_UNTIL (pending_permission (session) != NULL);
  g_assert_true (acp_permission_item_select (pending_permission (session), "allow_once", &error));
  g_assert_no_error (error);
}

/* The prompts the session was sent, joined by "|" */
static char *
sent_prompts (AcpSession *session)
{
  GListModel *items = G_LIST_MODEL (acp_session_get_transcript (session));
  GString *out = g_string_new (NULL);

  /* new items wait for the next frame */
  acp_transcript_flush (acp_session_get_transcript (session));

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (items, i);

      if (!ACP_IS_MESSAGE_ITEM (item) ||
          acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) != ACP_MESSAGE_ROLE_USER)
        continue;
      if (out->len > 0)
        g_string_append_c (out, '|');
      g_string_append (out, acp_message_item_get_text (ACP_MESSAGE_ITEM (item)));
    }

  return g_string_free (out, FALSE);
}

static gboolean
sent_are (AcpSession *session,
          const char *expected)
{
  g_autofree char *sent = sent_prompts (session);

  return g_str_equal (sent, expected);
}

#define assert_sent(session, expected) \
  G_STMT_START { \
    g_autofree char *sent_ = sent_prompts (session); \
    g_assert_cmpstr (sent_, ==, expected); \
  } G_STMT_END

/* The texts of the rows shown in the queue, joined by "|"; "" while it is
 * hidden */
static char *
shown_queue (Fixture *f)
{
  GtkWidget *queue_view = pal_session_view_get_queue_view (f->view);
  GtkWidget *list = NULL;
  GString *out = g_string_new (NULL);

  if (!gtk_widget_get_visible (queue_view))
    return g_string_free (out, FALSE);

  for (GtkWidget *w = queue_view; w != NULL && list == NULL; w = gtk_widget_get_first_child (w))
    for (GtkWidget *c = w; c != NULL && list == NULL; c = gtk_widget_get_next_sibling (c))
      if (GTK_IS_LIST_BOX (c))
        list = c;
  g_assert_nonnull (list);

  for (int i = 0; ; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), i);
      GtkWidget *label;

      if (row == NULL)
        break;
      label = gtk_widget_get_first_child (gtk_list_box_row_get_child (row));
      if (out->len > 0)
        g_string_append_c (out, '|');
      g_string_append (out, gtk_label_get_text (GTK_LABEL (label)));
    }

  return g_string_free (out, FALSE);
}

#define assert_queue(f, expected) \
  G_STMT_START { \
    g_autofree char *shown_ = shown_queue (f); \
    g_assert_cmpstr (shown_, ==, expected); \
  } G_STMT_END

static gboolean
queue_is (Fixture    *f,
          const char *expected)
{
  g_autofree char *shown = shown_queue (f);

  return g_str_equal (shown, expected);
}

/* Clicks the button named @name (its tooltip and accessible name) of the
 * queue's row @index */
static void
click_row_button (Fixture    *f,
                  int         index,
                  const char *name)
{
  GtkWidget *queue_view = pal_session_view_get_queue_view (f->view);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  int row_index = -1;

  g_ptr_array_add (stack, queue_view);
  while (stack->len > 0)
    {
      GtkWidget *widget = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_LIST_BOX_ROW (widget))
        row_index = gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (widget));
      if (GTK_IS_BUTTON (widget) &&
          g_strcmp0 (gtk_widget_get_tooltip_text (widget), name) == 0 &&
          gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_BOX_ROW))) == index)
        {
          g_assert_true (gtk_widget_is_sensitive (widget));
          g_signal_emit_by_name (widget, "clicked");
          return;
        }
      for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }

  g_error ("No button “%s” in row %d (last row seen: %d)", name, index, row_index);
}

static void
click_resume (Fixture *f)
{
  GtkWidget *queue_view = pal_session_view_get_queue_view (f->view);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, queue_view);
  while (stack->len > 0)
    {
      GtkWidget *widget = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), "_Resume") == 0)
        {
          g_assert_true (gtk_widget_get_visible (widget));
          g_signal_emit_by_name (widget, "clicked");
          return;
        }
      for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }

  g_error ("No Resume button");
}

static const char *
queue_status (Fixture *f)
{
  return pal_prompt_queue_view_get_status (PAL_PROMPT_QUEUE_VIEW (pal_session_view_get_queue_view (f->view)));
}

static void
test_order (Fixture       *f,
            gconstpointer  data)
{
  AcpSession *session = start_session (f, "fake-queue");
  g_autofree char *text = NULL;

  /* nothing queued: no queue shown */
  assert_queue (f, "");

  write_prompt (f, "one");
  g_assert_true (in_state (session, ACP_SESSION_STATE_PROMPTING));

  /* Enter while the agent works queues the prompt */
  write_prompt (f, "two");
  write_prompt (f, "three");
  write_prompt (f, "four");
  text = pal_composer_dup_text (f->composer);
  g_assert_cmpstr (text, ==, "");
  assert_queue (f, "two|three|four");
  g_assert_cmpstr (queue_status (f), ==, "3 prompts queued, sent one by one as the agent finishes");
  assert_sent (session, "one");

  /* reordered, and one removed */
  click_row_button (f, 2, "Move Up");
  assert_queue (f, "two|four|three");
  click_row_button (f, 0, "Move Down");
  assert_queue (f, "four|two|three");
  click_row_button (f, 1, "Remove");
  assert_queue (f, "four|three");

  /* each turn's end sends the next, in the queue's order */
  end_turn (session);
  WAIT_UNTIL (sent_are (session, "one|four"));
  assert_queue (f, "three");
  g_assert_true (in_state (session, ACP_SESSION_STATE_PROMPTING));
  end_turn (session);
  WAIT_UNTIL (sent_are (session, "one|four|three"));
  assert_queue (f, "");
  end_turn (session);
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
  test_drain_main_context ();
  assert_sent (session, "one|four|three");
}

static void
test_edit (Fixture       *f,
           gconstpointer  data)
{
  AcpSession *session = start_session (f, "fake-queue");
  g_autofree char *text = NULL;

  write_prompt (f, "one");
  write_prompt (f, "two");
  write_prompt (f, "three");

  /* what is being written is not thrown away for an edit */
  pal_composer_set_text (f->composer, "half written");
  click_row_button (f, 0, "Edit");
  assert_queue (f, "two|three");
  g_assert_cmpstr (queue_status (f), ==, "Send or clear what you are writing first, then edit.");
  pal_composer_set_text (f->composer, NULL);

  /* the entry goes to the composer; the queue waits for it */
  click_row_button (f, 0, "Edit");
  text = pal_composer_dup_text (f->composer);
  g_assert_cmpstr (text, ==, "two");
  assert_queue (f, "three");
  end_turn (session);
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
  test_drain_main_context ();
  assert_sent (session, "one");
  assert_queue (f, "three");

  /* sent, edited, it is back in its place: first, so it goes now */
  pal_composer_set_text (f->composer, "two, edited");
  g_assert_true (pal_composer_submit (f->composer));
  WAIT_UNTIL (sent_are (session, "one|two, edited"));
  assert_queue (f, "three");
  end_turn (session);
  WAIT_UNTIL (sent_are (session, "one|two, edited|three"));
  end_turn (session);
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
}

static void
test_send_now (Fixture       *f,
               gconstpointer  data)
{
  AcpSession *session = start_session (f, "fake-queue-stop");

  write_prompt (f, "one");
  write_prompt (f, "two");
  write_prompt (f, "three");

  /* Send Now stops the turn (the agent ends it "cancelled") and sends it */
  WAIT_UNTIL (pending_permission (session) != NULL);
  click_row_button (f, 1, "Send Now");
  WAIT_UNTIL (sent_are (session, "one|three"));
  assert_queue (f, "two");
  /* the stop was asked for: the queue goes on */
  g_assert_null (pal_prompt_queue_get_waiting_reason (pal_session_view_get_queue (f->view)));
  end_turn (session);
  WAIT_UNTIL (sent_are (session, "one|three|two"));
  end_turn (session);
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
}

static void
test_stop_waits (Fixture       *f,
                 gconstpointer  data)
{
  AcpSession *session = start_session (f, "fake-queue-stop");

  write_prompt (f, "one");
  write_prompt (f, "two");

  /* the person stops the turn: the queue waits, and says why */
  WAIT_UNTIL (pending_permission (session) != NULL);
  g_assert_true (pal_session_view_stop (f->view));
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
  WAIT_UNTIL (g_str_equal (queue_status (f), "Queue paused. The turn was stopped."));
  test_drain_main_context ();
  assert_sent (session, "one");
  assert_queue (f, "two");

  /* Resume sends it */
  click_resume (f);
  WAIT_UNTIL (sent_are (session, "one|two"));
  assert_queue (f, "");
  end_turn (session);
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
}

static void
test_waits_after_error (Fixture       *f,
                        gconstpointer  data)
{
  AcpSession *session = start_session (f, "fake-queue-error");

  write_prompt (f, "one");
  write_prompt (f, "two");
  write_prompt (f, "three");

  /* the second turn fails: the third waits, with the agent's words */
  end_turn (session);
  WAIT_UNTIL (sent_are (session, "one|two"));
  WAIT_UNTIL (g_str_has_prefix (queue_status (f), "Queue paused. The turn failed: "));
  g_assert_nonnull (strstr (queue_status (f), "The model is overloaded"));
  g_assert_true (in_state (session, ACP_SESSION_STATE_READY));
  test_drain_main_context ();
  assert_sent (session, "one|two");
  assert_queue (f, "three");

  /* a prompt the person sends meanwhile goes straight out; the queue
   * still waits after it */
  write_prompt (f, "direct");
  WAIT_UNTIL (sent_are (session, "one|two|direct"));
  end_turn (session);
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
  test_drain_main_context ();
  assert_queue (f, "three");

  click_resume (f);
  WAIT_UNTIL (sent_are (session, "one|two|direct|three"));
  end_turn (session);
  WAIT_UNTIL (in_state (session, ACP_SESSION_STATE_READY));
}

static void
test_survives_switch (Fixture       *f,
                      gconstpointer  data)
{
  AcpSession *first = start_session (f, "fake-queue");
  g_autoptr(PalSessionKey) first_key = pal_session_key_ref (pal_window_get_current_session (f->window));

  write_prompt (f, "one");
  write_prompt (f, "two");
  write_prompt (f, "three");

  /* another session shown: its own (empty) queue */
  start_session (f, "fake-basic");
  assert_queue (f, "");

  /* the first session's turn ends meanwhile: its next prompt goes out */
  end_turn (first);
  WAIT_UNTIL (sent_are (first, "one|two"));

  /* back: the rest of its queue is there */
  pal_window_open_session (f->window, first_key);
  WAIT_UNTIL (shown_session (f) == first);
  assert_queue (f, "three");
  end_turn (first);
  WAIT_UNTIL (sent_are (first, "one|two|three"));
  WAIT_UNTIL (queue_is (f, ""));
  end_turn (first);
  WAIT_UNTIL (in_state (first, ACP_SESSION_STATE_READY));
}

int
main (int   argc,
      char *argv[])
{
  
  test_isolate_user_dirs ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  test_app = test_app_new ("io.github.palaverapp.PalaverQueueTest");

#define ADD(path, func) \
  g_test_add ("/window-queue/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("order", test_order);
  ADD ("edit", test_edit);
  ADD ("send-now", test_send_now);
  ADD ("stop-waits", test_stop_waits);
  ADD ("waits-after-error", test_waits_after_error);
  ADD ("survives-switch", test_survives_switch);

#undef ADD

  return g_test_run ();
}
