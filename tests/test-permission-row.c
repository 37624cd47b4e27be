/* test-permission-row.c: a permission request of the agent, in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "acp-permission-item.h"
#include "acp-transcript.h"
#include "pal-chat-view.h"
#include "pal-permission-row.h"
#include "test-util.h"

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, type, out);
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect (root, type, found);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}

/* A request with @n options named @name and their number */
static AcpPermissionItem *
make_item (guint       n,
           const char *name)
{
  g_autoptr(GString) json = g_string_new ("{\"sessionId\":\"s\",\"toolCall\":{\"toolCallId\":\"t1\","
                                          "\"title\":\"Run the build\"},\"options\":[");
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(GError) error = NULL;
  AcpPermissionItem *item;

  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (json, "%s{\"optionId\":\"o%u\",\"name\":\"%s %u\",\"kind\":\"%s\"}",
                              i > 0 ? "," : "", i, name, i, i % 2 == 0 ? "allow_once" : "reject_once");
    }
  g_string_append (json, "]}");

  params = json_from_string (json->str, &error);
  g_assert_no_error (error);
  item = acp_permission_item_new (json_node_get_object (params), NULL, &error);
  g_assert_no_error (error);

  return item;
}

typedef struct
{
  GtkWidget *window;
  GtkWidget *view;
  AcpTranscript *transcript;
} Chat;

static gboolean
has_permission_row (gpointer data)
{
  return find_widget (data, PAL_TYPE_PERMISSION_ROW) != NULL;
}

/* A chat in a window, showing @item */
static void
chat_new (Chat              *chat,
          AcpPermissionItem *item)
{
  chat->transcript = acp_transcript_new ();
  chat->view = pal_chat_view_new ();
  chat->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (chat->window), 800, 700);
  gtk_window_set_child (GTK_WINDOW (chat->window), chat->view);
  gtk_window_present (GTK_WINDOW (chat->window));
  if (item != NULL)
    acp_transcript_append (chat->transcript, ACP_ITEM (item));
  pal_chat_view_set_model (PAL_CHAT_VIEW (chat->view), G_LIST_MODEL (chat->transcript));
  if (item != NULL)
    WAIT_UNTIL (has_permission_row (chat->window));
}

static void
chat_clear (Chat *chat)
{
  gtk_window_destroy (GTK_WINDOW (chat->window));
  g_clear_object (&chat->transcript);
}

static void
measure_width (GtkWidget *widget,
               int       *minimum,
               int       *natural)
{
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, minimum, natural, NULL, NULL);
}

/* Neither long names nor a thousand options make the chat (and so the
 * window) any wider, and the thousand take a bounded height */
static void
test_width (void)
{
  g_autoptr(AcpPermissionItem) short_item = make_item (2, "Yes");
  Chat baseline = { NULL };
  int chat_min, chat_nat, row_min;
  const struct { guint n; const char *name; } cases[] = {
    { 3, "Yes, and do not ask again for `npm run build:all --workspace=packages/a-very-long-package-name` "
         "in this project folder and in every folder below it, option" },
    { 3, "Yes_and_do_not_ask_again_for_npm_run_build_all_workspace_packages_a_very_long_package_name" },
    { 1000, "Allow option number" },
    { 1000, "A long option name that goes on and on, well past the width of any window, number" },
  };

  /* two short options */
  chat_new (&baseline, short_item);
  measure_width (baseline.view, &chat_min, &chat_nat);
  measure_width (find_widget (baseline.window, PAL_TYPE_PERMISSION_ROW), &row_min, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AcpPermissionItem) item = make_item (cases[i].n, cases[i].name);
      Chat chat = { NULL };
      GtkWidget *row;
      int min, nat, height;

      chat_new (&chat, item);
      row = find_widget (chat.window, PAL_TYPE_PERMISSION_ROW);
      measure_width (chat.view, &min, &nat);
      g_test_message ("%u options: chat %d/%d wide (two short ones: %d/%d)", cases[i].n, min, nat, chat_min, chat_nat);
      /* what one character more or less of a name that wraps anywhere
       * makes, not the name's width: a phone's screen is 360 wide */
      g_assert_cmpint (min, <=, chat_min + 12);
      g_assert_cmpint (nat, <=, chat_nat + 12);

      measure_width (row, &min, NULL);
      g_assert_cmpint (min, <=, row_min + 12);
      gtk_widget_measure (row, GTK_ORIENTATION_VERTICAL, 700, NULL, &height, NULL, NULL);
      g_assert_cmpint (height, <, 600);

      chat_clear (&chat);
    }

  chat_clear (&baseline);
}

/* A few options are buttons that answer */
static void
test_buttons (void)
{
  g_autoptr(AcpPermissionItem) item = make_item (3, "Option");
  Chat chat = { NULL };
  GtkWidget *row;
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  chat_new (&chat, item);
  row = find_widget (chat.window, PAL_TYPE_PERMISSION_ROW);
  g_assert_null (find_widget (row, GTK_TYPE_LIST_VIEW));
  collect (row, GTK_TYPE_BUTTON, buttons);
  g_assert_cmpuint (buttons->len, ==, 3);
  g_assert_cmpstr (gtk_button_get_label (g_ptr_array_index (buttons, 2)), ==, "Option 2");

  g_signal_emit_by_name (g_ptr_array_index (buttons, 2), "clicked");
  g_assert_cmpint (acp_permission_item_get_state (item), ==, ACP_PERMISSION_STATE_SELECTED);
  g_assert_cmpstr (acp_permission_item_get_selected_option_id (item), ==, "o2");

  chat_clear (&chat);
}

/* Many options are a list, any of which answers */
static void
test_list (void)
{
  g_autoptr(AcpPermissionItem) item = make_item (1000, "Option");
  Chat chat = { NULL };
  GtkWidget *row, *list;

  chat_new (&chat, item);
  row = find_widget (chat.window, PAL_TYPE_PERMISSION_ROW);
  list = find_widget (row, GTK_TYPE_LIST_VIEW);
  g_assert_nonnull (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)))),
                    ==, 1000);

  g_signal_emit_by_name (list, "activate", 999);
  g_assert_cmpint (acp_permission_item_get_state (item), ==, ACP_PERMISSION_STATE_SELECTED);
  g_assert_cmpstr (acp_permission_item_get_selected_option_id (item), ==, "o999");

  chat_clear (&chat);
}

static gboolean
has_label (GtkWidget  *root,
           const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), text))
      return TRUE;

  return FALSE;
}

/* No options: the card says so, and refusing answers "cancelled" */
static void
test_no_options (void)
{
  g_autoptr(AcpPermissionItem) item = make_item (0, "");
  Chat chat = { NULL };
  GtkWidget *row;
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  chat_new (&chat, item);
  row = find_widget (chat.window, PAL_TYPE_PERMISSION_ROW);
  g_assert_true (has_label (row, "The agent offered no choices."));
  collect (row, GTK_TYPE_BUTTON, buttons);
  g_assert_cmpuint (buttons->len, ==, 1);
  g_assert_cmpstr (gtk_button_get_label (g_ptr_array_index (buttons, 0)), ==, "_Reject");

  g_signal_emit_by_name (g_ptr_array_index (buttons, 0), "clicked");
  g_assert_cmpint (acp_permission_item_get_state (item), ==, ACP_PERMISSION_STATE_CANCELLED);

  chat_clear (&chat);
}

/* Claude's Markdown in the title: the command in backticks */
static void
test_title_markdown (void)
{
  g_autoptr(JsonNode) params = json_from_string ("{\"sessionId\":\"s\",\"toolCall\":{\"toolCallId\":\"t\","
                                                 "\"title\":\"`rm -rf build` & <b>\"},\"options\":[]}", NULL);
  g_autoptr(AcpPermissionItem) item = acp_permission_item_new (json_node_get_object (params), NULL, NULL);
  Chat chat = { NULL };
  GtkWidget *row;

  g_assert_nonnull (item);
  chat_new (&chat, item);
  row = find_widget (chat.window, PAL_TYPE_PERMISSION_ROW);
  g_assert_true (has_label (row, "The agent asks for permission: rm -rf build & <b>"));

  chat_clear (&chat);
}

/* A key pressed in the chat: given to the chat's key handler, which sees
 * keys before the list view does */
static gboolean
press (GtkWidget       *view,
       guint            keyval,
       GdkModifierType  state)
{
  GtkWidget *list = find_widget (view, GTK_TYPE_LIST_VIEW);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (list);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      gboolean handled = FALSE;

      if (!GTK_IS_EVENT_CONTROLLER_KEY (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_CAPTURE)
        continue;
      g_signal_emit_by_name (controller, "key-pressed", keyval, 0, state, &handled);
      return handled;
    }

  g_assert_not_reached ();
}

static guint
count_permission_rows (GtkWidget *window)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect (window, PAL_TYPE_PERMISSION_ROW, rows);
  return rows->len;
}

static GtkWidget *
focus_of (Chat *chat)
{
  return gtk_root_get_focus (GTK_ROOT (chat->window));
}

static GtkWidget *
focused_button (Chat *chat)
{
  GtkWidget *focus = focus_of (chat);

  return focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_BUTTON) : NULL;
}

/* For the keyboard: each row of the chat takes the focus; Tab goes into
 * the row, through its buttons, and out of the chat; Shift+Tab back
 * through them to the row; Up and Down from row to row. The rows are
 * named for a screen reader after what they ask, their buttons after
 * their labels. */
static void
test_keyboard (void)
{
  g_autoptr(AcpPermissionItem) first = make_item (2, "First");
  g_autoptr(AcpPermissionItem) second = make_item (2, "Second");
  Chat chat = { NULL };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *after = gtk_button_new_with_label ("After the chat");
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GtkWidget *row0, *row1;

  chat_new (&chat, first);
  g_object_ref (chat.view);
  gtk_window_set_child (GTK_WINDOW (chat.window), box);
  gtk_widget_set_vexpand (chat.view, TRUE);
  gtk_box_append (GTK_BOX (box), chat.view);
  gtk_box_append (GTK_BOX (box), after);
  g_object_unref (chat.view);
  acp_transcript_append (chat.transcript, ACP_ITEM (second));
  WAIT_UNTIL (count_permission_rows (chat.window) == 2);
  collect (chat.window, PAL_TYPE_PERMISSION_ROW, rows);
  row0 = g_ptr_array_index (rows, 0);
  row1 = g_ptr_array_index (rows, 1);

  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (row0), GTK_ACCESSIBLE_ROLE_GROUP));
  gtk_test_accessible_assert_property (row0, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "The agent asks for permission: Run the build. Waiting for an answer");

  /* the row takes the focus */
  g_assert_true (gtk_widget_get_focusable (row0));
  g_assert_true (pal_chat_view_focus_item (PAL_CHAT_VIEW (chat.view), first));
  g_assert_true (gtk_widget_has_focus (row0));

  /* Tab: into the row, through its buttons, then out of the chat */
  g_assert_true (press (chat.view, GDK_KEY_Tab, 0));
  g_assert_nonnull (focused_button (&chat));
  g_assert_true (gtk_widget_is_ancestor (focused_button (&chat), row0));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focused_button (&chat))), ==, "First 0");
  gtk_test_accessible_assert_property (focused_button (&chat), GTK_ACCESSIBLE_PROPERTY_LABEL, "First 0");
  g_assert_true (press (chat.view, GDK_KEY_Tab, 0));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focused_button (&chat))), ==, "First 1");
  g_assert_true (press (chat.view, GDK_KEY_Tab, 0));
  g_assert_true (focus_of (&chat) == after);

  /* Shift+Tab: back through the buttons to the row */
  g_assert_true (pal_chat_view_focus_item (PAL_CHAT_VIEW (chat.view), first));
  g_assert_true (press (chat.view, GDK_KEY_Tab, 0));
  g_assert_true (press (chat.view, GDK_KEY_Tab, 0));
  g_assert_true (press (chat.view, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focused_button (&chat))), ==, "First 0");
  g_assert_true (press (chat.view, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  g_assert_true (gtk_widget_has_focus (row0));

  /* Down and Up: from row to row, from a row or from a button in it */
  g_assert_true (press (chat.view, GDK_KEY_Down, 0));
  g_assert_true (gtk_widget_has_focus (row1));
  g_assert_true (press (chat.view, GDK_KEY_Up, 0));
  g_assert_true (gtk_widget_has_focus (row0));
  g_assert_true (press (chat.view, GDK_KEY_Tab, 0));
  g_assert_true (press (chat.view, GDK_KEY_Down, 0));
  g_assert_true (gtk_widget_has_focus (row1));

  chat_clear (&chat);
}

int
main (int   argc,
      char *argv[])
{
  /* accessible names and roles kept, for the tests to read */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/permission-row/width", test_width);
  g_test_add_func ("/permission-row/buttons", test_buttons);
  g_test_add_func ("/permission-row/list", test_list);
  g_test_add_func ("/permission-row/no-options", test_no_options);
  g_test_add_func ("/permission-row/title-markdown", test_title_markdown);
  g_test_add_func ("/permission-row/keyboard", test_keyboard);

  return g_test_run ();
}
