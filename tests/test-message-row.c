/* test-message-row.c: a message's buttons: Copy, and Edit & Resend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "acp-session.h"
#include "acp-transcript.h"
#include "pal-block-model.h"
#include "pal-composer.h"
#include "pal-copy-button.h"
#include "pal-message-row.h"
#include "pal-session-view.h"
#include "test-util.h"

static GtkWidget *
make_window (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 600);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

static void
read_text_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*text);
}

static char *
read_clipboard (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, read_text_cb, &text);
  WAIT_UNTIL (text != NULL);

  return text;
}

/* A click on @button, once it is on screen */
static void
click (GtkWidget *button)
{
  WAIT_UNTIL (gtk_widget_get_mapped (button));
  g_signal_emit_by_name (button, "clicked");
}

static AcpMessageItem *
message_new (AcpMessageRole  role,
             const char     *text)
{
  AcpMessageItem *item = acp_message_item_new (role, NULL);

  acp_message_item_append_text (item, text, -1);
  return item;
}

/* Copy gives the message as Markdown, as the agent wrote it (or as the
 * person typed it) */
static void
test_copy (void)
{
  static const char *answer = "Use **this**:\n\n```sh\nmake -j2\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
  g_autoptr(AcpMessageItem) agent = message_new (ACP_MESSAGE_ROLE_AGENT, answer);
  g_autoptr(AcpMessageItem) user = message_new (ACP_MESSAGE_ROLE_USER, "Fix *the* build\nplease");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *agent_row = pal_message_row_new (agent);
  GtkWidget *user_row = pal_message_row_new (user);
  GtkWidget *window;
  GtkWidget *button;
  g_autofree char *copied = NULL;
  g_autofree char *typed = NULL;

  gtk_box_append (GTK_BOX (box), user_row);
  gtk_box_append (GTK_BOX (box), agent_row);
  window = make_window (box);

  button = pal_message_row_get_copy_button (PAL_MESSAGE_ROW (agent_row));
  g_assert_nonnull (button);
  /* a button a keyboard reaches, shown, named */
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (gtk_widget_get_focusable (button));
  g_assert_false (pal_copy_button_get_copied (button));
  click (button);
  copied = read_clipboard (agent_row);
  g_assert_cmpstr (copied, ==, answer);
  g_assert_true (pal_copy_button_get_copied (button));

  click (pal_message_row_get_copy_button (PAL_MESSAGE_ROW (user_row)));
  typed = read_clipboard (user_row);
  g_assert_cmpstr (typed, ==, "Fix *the* build\nplease");

  gtk_window_destroy (GTK_WINDOW (window));
}

static gint64
fake_clock (void)
{
  return 0;
}

/* A long answer in blocks: its buttons are under its last block, and Copy
 * gives all of it */
static void
test_copy_blocks (void)
{
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(PalBlockModel) blocks = pal_block_model_new (64);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(AcpMessageItem) item = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *window;
  GtkWidget *last = NULL;
  g_autofree char *copied = NULL;
  guint n;

  for (guint i = 0; i < 10; i++)
    g_string_append_printf (text, "Paragraph %u, long enough to fill a block of its own.\n\n", i);
  item = message_new (ACP_MESSAGE_ROLE_AGENT, text->str);
  pal_block_model_set_clock (blocks, fake_clock);
  g_list_store_append (store, item);
  pal_block_model_set_model (blocks, G_LIST_MODEL (store));
  n = g_list_model_get_n_items (G_LIST_MODEL (blocks));
  g_assert_cmpuint (n, >, 2);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalMessageBlock) block = g_list_model_get_item (G_LIST_MODEL (blocks), i);
      GtkWidget *row = pal_message_row_new_block (block);

      gtk_box_append (GTK_BOX (box), row);
      if (i + 1 < n)
        g_assert_null (pal_message_row_get_copy_button (PAL_MESSAGE_ROW (row)));
      last = row;
    }
  window = make_window (box);

  click (pal_message_row_get_copy_button (PAL_MESSAGE_ROW (last)));
  copied = read_clipboard (last);
  g_assert_cmpstr (copied, ==, text->str);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first message row of @widget showing a message of @role with @text */
static PalMessageRow *
find_row (GtkWidget      *widget,
          AcpMessageRole  role,
          const char     *text)
{
  if (PAL_IS_MESSAGE_ROW (widget))
    {
      AcpMessageItem *item = pal_message_row_get_item (PAL_MESSAGE_ROW (widget));

      if (acp_message_item_get_role (item) == role &&
          g_strcmp0 (acp_message_item_get_text (item), text) == 0)
        return PAL_MESSAGE_ROW (widget);
      return NULL;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      PalMessageRow *row = find_row (child, role, text);

      if (row != NULL)
        return row;
    }

  return NULL;
}

static gboolean
resend_shown (GtkWidget  *window,
              const char *prompt)
{
  PalMessageRow *row = find_row (window, ACP_MESSAGE_ROLE_USER, prompt);

  return row != NULL && gtk_widget_get_mapped (GTK_WIDGET (row)) &&
         gtk_widget_get_visible (pal_message_row_get_resend_button (row));
}

static guint
count_prompts (AcpSession *session)
{
  GListModel *transcript = G_LIST_MODEL (acp_session_get_transcript (session));
  guint n = 0;

  acp_transcript_flush (acp_session_get_transcript (session));
  for (guint i = 0; i < g_list_model_get_n_items (transcript); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (transcript, i);

      if (ACP_IS_MESSAGE_ITEM (item) && acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_USER)
        n++;
    }

  return n;
}

/* The last prompt can be edited and sent again once the turn is over:
 * Edit & Resend puts it in the composer, and sending it is a new prompt;
 * the earlier prompt then has no such button */
static void
test_edit_and_resend (void)
{
  g_autoptr(AcpAgent) agent = test_fake_agent_new ("basic.json", NULL);
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *view = pal_session_view_new ();
  GtkWidget *window = make_window (view);
  PalComposer *composer = PAL_COMPOSER (pal_session_view_get_composer (PAL_SESSION_VIEW (view)));
  PalMessageRow *row;
  g_autofree char *text = NULL;

  test_agent_start (agent);
  session = acp_session_new (agent, "/tmp");
  acp_session_create_async (session, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_create_finish (session, result, &error));
  g_assert_no_error (error);
  pal_session_view_set_session (PAL_SESSION_VIEW (view), session);
  g_assert_null (pal_session_view_get_resend_prompt (PAL_SESSION_VIEW (view)));

  {
    g_autoptr(PalPrompt) prompt = pal_prompt_new ("Read the README");

    g_assert_true (pal_session_view_send_prompt (PAL_SESSION_VIEW (view), session, prompt));
  }
  /* not while the agent answers */
  g_assert_cmpint (acp_session_get_state (session), ==, ACP_SESSION_STATE_PROMPTING);
  g_assert_null (pal_session_view_get_resend_prompt (PAL_SESSION_VIEW (view)));

  /* once it answered: the button, which puts the prompt back */
  WAIT_UNTIL (acp_session_get_state (session) == ACP_SESSION_STATE_READY);
  WAIT_UNTIL (resend_shown (window, "Read the README"));
  click (pal_message_row_get_resend_button (find_row (window, ACP_MESSAGE_ROLE_USER, "Read the README")));
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "Read the README");

  /* edited and sent: a new prompt, the last one now */
  pal_composer_set_text (composer, "Read the README twice");
  g_assert_true (pal_composer_submit (composer));
  WAIT_UNTIL (count_prompts (session) == 2);
  WAIT_UNTIL (acp_session_get_state (session) == ACP_SESSION_STATE_READY);
  WAIT_UNTIL (resend_shown (window, "Read the README twice"));
  row = find_row (window, ACP_MESSAGE_ROLE_USER, "Read the README");
  g_assert_nonnull (row);
  g_assert_false (gtk_widget_get_visible (pal_message_row_get_resend_button (row)));

  gtk_window_destroy (GTK_WINDOW (window));
  test_agent_stop (agent);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/message-row/copy", test_copy);
  g_test_add_func ("/message-row/copy-blocks", test_copy_blocks);
  g_test_add_func ("/message-row/edit-and-resend", test_edit_and_resend);

  return g_test_run ();
}
