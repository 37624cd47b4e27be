/* test-message-row.c: a message's buttons: Copy, and Edit & Resend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "acp-session.h"
#include "acp-transcript.h"
#include "pal-message-attachments.h"
#include "pal-block-model.h"
#include "pal-image-viewer.h"
#include "pal-markdown.h"
#include "pal-markdown-text.h"
#include "pal-composer.h"
#include "pal-copy-button.h"
#include "pal-message-row.h"
#include "pal-session-view.h"
#include "find-descendant.h"
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

/* A PNG of @width × @height, base64-encoded */
static char *
png_base64 (int width,
            int height)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GError) error = NULL;
  g_autofree char *png = NULL;
  gsize length;

  gdk_pixbuf_fill (pixbuf, 0x3584e4ff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &png, &length, "png", &error, NULL));
  g_assert_no_error (error);

  return g_base64_encode ((const guchar *) png, length);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

/* The link at the @n-th character of @row's text, or NULL */
static const char *
link_at (PalMessageRow *row,
         int            n)
{
  GtkWidget *text = find_descendant (GTK_WIDGET (row), PAL_TYPE_MARKDOWN_TEXT);
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_offset (gtk_text_view_get_buffer (GTK_TEXT_VIEW (text)), &iter, n);
  return pal_markdown_get_link_at (&iter);
}

static void
open_uri_cb (PalMessageAttachments *chips,
             const char         *uri,
             char              **opened)
{
  g_free (*opened);
  *opened = g_strdup (uri);
  /* not the desktop's application, in a test */
  g_signal_stop_emission_by_name (chips, "open-uri");
}

static PalImageViewer *
find_viewer (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (PAL_IS_IMAGE_VIEWER (window))
        return PAL_IMAGE_VIEWER (window);
    }

  return NULL;
}

/* A prompt of every kind of block, as it is sent: its text with the
 * mentions linked to their files, a chip for each resource and link, a
 * thumbnail for the image (larger on a click), a broken image chip for data
 * that is no image */
static void
test_attachments (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autoptr(JsonArray) blocks = json_array_new ();
  g_autofree char *image = png_base64 (640, 480);
  g_autofree char *image_json = g_strdup_printf ("{\"type\":\"image\",\"mimeType\":\"image/png\","
                                                 "\"data\":\"%s\"}", image);
  static const char *names[] = {
    "Attached file hello.c", "Attached file logo.bin", "Attached file notes.md",
    "Attached link spec", "Attached link zed://thing", "Image, 640 × 480", "Broken image",
  };
  g_autofree char *opened = NULL;
  AcpMessageItem *item;
  PalMessageRow *row;
  PalMessageAttachments *chips;
  GtkWidget *window, *picture;
  PalImageViewer *viewer;
  int width, height;

  json_array_add_object_element (blocks, parse_object ("{\"type\":\"text\",\"text\":"
                                                       "\"Compare @src/hello.c with @notes.md.\"}"));
  json_array_add_object_element (blocks, parse_object ("{\"type\":\"resource\",\"resource\":"
                                                       "{\"uri\":\"file:///project/src/hello.c\","
                                                       "\"mimeType\":\"text/x-csrc\",\"text\":\"int x;\\n\"}}"));
  json_array_add_object_element (blocks, parse_object ("{\"type\":\"resource\",\"resource\":"
                                                       "{\"uri\":\"file:///project/logo.bin\","
                                                       "\"blob\":\"AAECAwQF\"}}"));
  json_array_add_object_element (blocks, parse_object ("{\"type\":\"resource_link\","
                                                       "\"uri\":\"file:///project/notes.md\","
                                                       "\"name\":\"notes.md\",\"size\":1234}"));
  json_array_add_object_element (blocks, parse_object ("{\"type\":\"resource_link\","
                                                       "\"uri\":\"https://example.com/spec\",\"name\":\"spec\"}"));
  json_array_add_object_element (blocks, parse_object ("{\"type\":\"resource_link\","
                                                       "\"uri\":\"zed://thing\",\"name\":\"\"}"));
  json_array_add_object_element (blocks, parse_object (image_json));
  json_array_add_object_element (blocks, parse_object ("{\"type\":\"image\",\"mimeType\":\"image/png\","
                                                       "\"data\":\"bm90IGFuIGltYWdl\"}"));
  item = acp_transcript_append_prompt (transcript, blocks);
  g_assert_cmpstr (acp_message_item_get_text (item), ==, "Compare @src/hello.c with @notes.md.");

  row = PAL_MESSAGE_ROW (pal_message_row_new (item));
  window = make_window (GTK_WIDGET (row));
  chips = pal_message_row_get_attachments (row);
  WAIT_UNTIL (pal_message_attachments_get_n_decoding (chips) == 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (chips)));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (pal_message_attachments_get_chip_name (pal_message_attachments_get_chip (chips, i)), ==,
                     names[i]);
  g_assert_null (pal_message_attachments_get_chip (chips, G_N_ELEMENTS (names)));

  /* files and web pages open, the rest only shows what it is */
  g_assert_true (GTK_IS_BUTTON (pal_message_attachments_get_chip (chips, 0)));
  g_assert_true (GTK_IS_BUTTON (pal_message_attachments_get_chip (chips, 3)));
  g_assert_false (GTK_IS_BUTTON (pal_message_attachments_get_chip (chips, 4)));
  g_assert_false (GTK_IS_BUTTON (pal_message_attachments_get_chip (chips, 6)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (pal_message_attachments_get_chip (chips, 0)), ==,
                   "/project/src/hello.c");
  g_signal_connect (chips, "open-uri", G_CALLBACK (open_uri_cb), &opened);
  click (pal_message_attachments_get_chip (chips, 0));
  g_assert_cmpstr (opened, ==, "file:///project/src/hello.c");
  click (pal_message_attachments_get_chip (chips, 3));
  g_assert_cmpstr (opened, ==, "https://example.com/spec");

  /* the thumbnail: at most 160 pixels tall */
  picture = find_descendant (pal_message_attachments_get_chip (chips, 5), GTK_TYPE_PICTURE);
  gtk_widget_get_size_request (picture, &width, &height);
  g_assert_cmpint (height, ==, 160);
  g_assert_cmpint (width, ==, 213);

  /* the mentions: "@src/hello.c" (from 8 to 20) and "@notes.md" (26 to 35,
   * the full stop after it not) */
  g_assert_null (link_at (row, 7));
  g_assert_cmpstr (link_at (row, 8), ==, "file:///project/src/hello.c");
  g_assert_cmpstr (link_at (row, 19), ==, "file:///project/src/hello.c");
  g_assert_null (link_at (row, 20));
  g_assert_cmpstr (link_at (row, 26), ==, "file:///project/notes.md");
  g_assert_cmpstr (link_at (row, 34), ==, "file:///project/notes.md");
  g_assert_null (link_at (row, 35));

  /* a click on the thumbnail: the image, larger; it closes */
  g_assert_null (find_viewer ());
  click (pal_message_attachments_get_chip (chips, 5));
  viewer = find_viewer ();
  g_assert_nonnull (viewer);
  WAIT_UNTIL (pal_image_viewer_get_texture (viewer) != NULL);
  g_assert_cmpint (gdk_texture_get_width (pal_image_viewer_get_texture (viewer)), ==, 640);
  g_assert_cmpint (gdk_texture_get_height (pal_image_viewer_get_texture (viewer)), ==, 480);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (viewer), "window.close", NULL));
  WAIT_UNTIL (find_viewer () == NULL);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A row of a message with no attachments shows none */
static void
test_no_attachments (void)
{
  g_autoptr(AcpMessageItem) item = message_new (ACP_MESSAGE_ROLE_USER, "Just @text");
  PalMessageRow *row = PAL_MESSAGE_ROW (pal_message_row_new (item));
  GtkWidget *window = make_window (GTK_WIDGET (row));

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (pal_message_row_get_attachments (row))));
  g_assert_null (link_at (row, 5));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A screen reader names a message after who wrote it: "You", "Agent", or
 * the agent's "Thought", whose expander says so too */
static void
test_accessible_name (void)
{
  g_autoptr(AcpMessageItem) user = message_new (ACP_MESSAGE_ROLE_USER, "Fix the build");
  g_autoptr(AcpMessageItem) agent = message_new (ACP_MESSAGE_ROLE_AGENT, "Done.");
  g_autoptr(AcpMessageItem) thought = message_new (ACP_MESSAGE_ROLE_THOUGHT, "Hmm.");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *user_row = pal_message_row_new (user);
  GtkWidget *agent_row = pal_message_row_new (agent);
  GtkWidget *thought_row = pal_message_row_new (thought);
  GtkWidget *window;
  GtkWidget *expander = NULL;

  gtk_box_append (GTK_BOX (box), user_row);
  gtk_box_append (GTK_BOX (box), agent_row);
  gtk_box_append (GTK_BOX (box), thought_row);
  window = make_window (box);

  gtk_test_accessible_assert_property (user_row, GTK_ACCESSIBLE_PROPERTY_LABEL, "You");
  gtk_test_accessible_assert_property (agent_row, GTK_ACCESSIBLE_PROPERTY_LABEL, "Agent");
  gtk_test_accessible_assert_property (thought_row, GTK_ACCESSIBLE_PROPERTY_LABEL, "Thought");
  for (GtkWidget *w = gtk_widget_get_first_child (thought_row); w != NULL && expander == NULL;
       w = gtk_widget_get_first_child (w))
    if (GTK_IS_EXPANDER (w))
      expander = w;
  g_assert_nonnull (expander);
  gtk_test_accessible_assert_property (expander, GTK_ACCESSIBLE_PROPERTY_LABEL, "Thought");

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  /* accessible names and roles kept, for the tests to read */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/message-row/copy", test_copy);
  g_test_add_func ("/message-row/accessible-name", test_accessible_name);
  g_test_add_func ("/message-row/copy-blocks", test_copy_blocks);
  g_test_add_func ("/message-row/edit-and-resend", test_edit_and_resend);
  g_test_add_func ("/message-row/attachments", test_attachments);
  g_test_add_func ("/message-row/no-attachments", test_no_attachments);

  return g_test_run ();
}
