/* test-composer.c: prompt entry, Send/Stop, slash completion, selectors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "acp-command.h"
#include "acp-config-option.h"
#include "acp-message-item.h"
#include "acp-mode.h"
#include "pal-attachment-chip.h"
#include "pal-composer.h"
#include "test-util.h"

typedef struct
{
  GPtrArray *submitted;
  guint      stops;
  char      *config_id;
  JsonNode  *config_value;
  char      *mode;
} Events;

static void
submit_cb (PalComposer *composer,
           PalPrompt   *prompt,
           Events      *events)
{
  g_ptr_array_add (events->submitted, g_strdup (pal_prompt_get_text (prompt)));
}

static void
stop_cb (PalComposer *composer,
         Events      *events)
{
  events->stops++;
}

static void
config_cb (PalOptionsBar *bar,
           const char  *config_id,
           JsonNode    *value,
           Events      *events)
{
  g_free (events->config_id);
  events->config_id = g_strdup (config_id);
  g_clear_pointer (&events->config_value, json_node_unref);
  events->config_value = json_node_copy (value);
}

static void
mode_cb (PalOptionsBar *bar,
         const char  *mode,
         Events      *events)
{
  g_free (events->mode);
  events->mode = g_strdup (mode);
}

static GtkWidget *
find (GtkWidget *widget,
      GType      type,
      guint      skip)
{
  guint seen = 0;
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, widget);
  while (stack->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (stack, 0);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && seen++ == skip)
        return w;
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }

  return NULL;
}

/* Whether a mapped label in @widget reads @text */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  for (guint i = 0; ; i++)
    {
      GtkWidget *label = find (widget, GTK_TYPE_LABEL, i);

      if (label == NULL)
        return FALSE;
      if (gtk_widget_get_mapped (label) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) == 0)
        return TRUE;
    }
}

/* Whether a label in @widget that is not hidden reads @text */
static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  for (guint i = 0; ; i++)
    {
      GtkWidget *label = find (widget, GTK_TYPE_LABEL, i);

      if (label == NULL)
        return FALSE;
      if (gtk_widget_get_visible (label) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) == 0)
        return TRUE;
    }
}

/* Sends a key press to the text view's key controller, as typing would. */
static gboolean
press (PalComposer     *composer,
       guint            keyval,
       GdkModifierType  state)
{
  GtkWidget *text_view = find (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW, 0);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (text_view);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller) &&
          gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE)
        {
          g_signal_emit_by_name (controller, "key-pressed", keyval, 0, state, &handled);
          return handled;
        }
    }

  g_assert_not_reached ();
}

/* A list of the valid entries of the JSON array @json, as a session keeps
 * them: AcpCommand, AcpMode or AcpConfigOption items */
static GListModel *
list_from_json (GType       type,
                const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  JsonArray *array = json_node_get_array (node);
  GListStore *store = g_list_store_new (type);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autoptr(GObject) item = NULL;

      if (type == ACP_TYPE_COMMAND)
        item = G_OBJECT (acp_command_new_from_json (element, NULL));
      else if (type == ACP_TYPE_MODE)
        item = G_OBJECT (acp_mode_new_from_json (element, NULL));
      else
        item = G_OBJECT (acp_config_option_new_from_json (element, NULL));
      if (item != NULL)
        g_list_store_append (store, item);
    }

  return G_LIST_MODEL (store);
}

static void
test_send_and_stop (void)
{
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  Events events = { g_ptr_array_new_with_free_func (g_free) };
  g_autofree char *text = NULL;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (composer, "submit", G_CALLBACK (submit_cb), &events);
  g_signal_connect (composer, "stop", G_CALLBACK (stop_cb), &events);

  /* an empty composer says what it is for; typing hides that */
  test_drain_main_context ();
  g_assert_true (shows_label (GTK_WIDGET (composer), "Ask the agent, or type / for its commands"));
  pal_composer_set_text (composer, "x");
  test_drain_main_context ();
  g_assert_false (shows_label (GTK_WIDGET (composer), "Ask the agent, or type / for its commands"));
  pal_composer_set_text (composer, NULL);
  test_drain_main_context ();
  g_assert_true (shows_label (GTK_WIDGET (composer), "Ask the agent, or type / for its commands"));

  /* empty or blank text is not sent */
  g_assert_true (press (composer, GDK_KEY_Return, 0));
  pal_composer_set_text (composer, "  \n ");
  press (composer, GDK_KEY_Return, 0);
  g_assert_cmpuint (events.submitted->len, ==, 0);

  /* Shift+Enter leaves the key to the text view: a new line */
  pal_composer_set_text (composer, "first line");
  g_assert_false (press (composer, GDK_KEY_Return, GDK_SHIFT_MASK));
  g_assert_cmpuint (events.submitted->len, ==, 0);

  /* Enter sends and clears */
  pal_composer_set_text (composer, "first line\nsecond");
  g_assert_true (press (composer, GDK_KEY_Return, 0));
  g_assert_cmpuint (events.submitted->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (events.submitted, 0), ==, "first line\nsecond");
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "");

  /* while busy Stop is offered, and nothing is sent unless it can wait
   * for the turn's end (can-send) */
  pal_composer_set_busy (composer, TRUE);
  pal_composer_set_can_send (composer, FALSE);
  pal_composer_set_text (composer, "queued");
  press (composer, GDK_KEY_Return, 0);
  g_assert_cmpuint (events.submitted->len, ==, 1);
  {
    GtkWidget *stop = NULL;

    for (guint i = 0; (stop = find (GTK_WIDGET (composer), GTK_TYPE_BUTTON, i)) != NULL; i++)
      if (gtk_widget_get_visible (stop) &&
          g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (stop)), "media-playback-stop-symbolic") == 0)
        break;
    g_assert_nonnull (stop);
    g_signal_emit_by_name (stop, "clicked");
    g_assert_cmpuint (events.stops, ==, 1);
  }

  pal_composer_set_can_send (composer, TRUE);
  g_assert_true (press (composer, GDK_KEY_Return, 0));
  g_assert_cmpuint (events.submitted->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (events.submitted, 1), ==, "queued");

  /* a session that cannot take prompts does not get them */
  pal_composer_set_busy (composer, FALSE);
  pal_composer_set_can_send (composer, FALSE);
  pal_composer_set_text (composer, "later");
  g_assert_false (pal_composer_submit (composer));
  pal_composer_set_can_send (composer, TRUE);
  g_assert_true (pal_composer_submit (composer));
  g_assert_cmpstr (g_ptr_array_index (events.submitted, 2), ==, "later");

  g_ptr_array_unref (events.submitted);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_slash_completion (void)
{
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  g_autoptr(GListModel) commands = list_from_json (ACP_TYPE_COMMAND,
    "[{\"name\":\"help\",\"description\":\"Show help\"},"
    "{\"name\":\"plan\",\"description\":\"Make a plan\"},"
    "{\"name\":\"plot\",\"description\":\"Plot\",\"input\":{\"hint\":\"what\"}},"
    "{\"description\":\"no name\"}, 42]");
  g_autofree char *text = NULL;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));
  test_drain_main_context ();

  pal_composer_set_commands (composer, commands);
  pal_composer_set_text (composer, "/");
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_completions (composer), ==, 3);

  pal_composer_set_text (composer, "/pl");
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_completions (composer), ==, 2);

  /* Down picks the second, Enter completes instead of sending */
  g_assert_true (press (composer, GDK_KEY_Down, 0));
  g_assert_true (press (composer, GDK_KEY_Return, 0));
  text = pal_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "/plot ");
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_completions (composer), ==, 0);

  /* no match, or text that is not a command, closes it */
  pal_composer_set_text (composer, "/zzz");
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_completions (composer), ==, 0);
  pal_composer_set_text (composer, "/h");
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_completions (composer), ==, 1);
  g_assert_true (press (composer, GDK_KEY_Escape, 0));
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_completions (composer), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_session_options (void)
{
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  PalOptionsBar *bar = pal_composer_get_options_bar (composer);
  Events events = { g_ptr_array_new_with_free_func (g_free) };
  g_autoptr(GListModel) options = list_from_json (ACP_TYPE_CONFIG_OPTION,
    "[{\"id\":\"model\",\"name\":\"Model\",\"type\":\"select\",\"currentValue\":\"b\","
    "  \"options\":[{\"group\":\"g\",\"name\":\"G\",\"options\":[{\"value\":\"a\",\"name\":\"Model A\"}]},"
    "               {\"value\":\"b\",\"name\":\"Model B\"}]},"
    " {\"id\":\"fast\",\"name\":\"Fast\",\"type\":\"boolean\",\"currentValue\":false},"
    " {\"id\":\"bad\",\"type\":\"select\",\"options\":\"nope\"}]");
  g_autoptr(GListModel) modes = list_from_json (ACP_TYPE_MODE,
    "[{\"id\":\"ask\",\"name\":\"Ask\"},{\"id\":\"code\",\"name\":\"Code\"}]");
  GtkDropDown *dropdown;
  GtkToggleButton *toggle;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (bar, "config-option-changed", G_CALLBACK (config_cb), &events);
  g_signal_connect (bar, "mode-changed", G_CALLBACK (mode_cb), &events);

  /* config options win over modes */
  pal_options_bar_set_modes (bar, modes);
  pal_options_bar_set_current_mode_id (bar, "ask");
  pal_options_bar_set_config_options (bar, options);
  dropdown = GTK_DROP_DOWN (find (GTK_WIDGET (composer), GTK_TYPE_DROP_DOWN, 0));
  g_assert_nonnull (dropdown);
  g_assert_null (find (GTK_WIDGET (composer), GTK_TYPE_DROP_DOWN, 1));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  g_assert_null (events.config_id);
  /* the selector says which option it sets */
  test_drain_main_context ();
  g_assert_true (shows_label (GTK_WIDGET (dropdown), "Model: Model B"));
  g_assert_false (shows_label (GTK_WIDGET (dropdown), "Model B"));

  gtk_drop_down_set_selected (dropdown, 0);
  g_assert_cmpstr (events.config_id, ==, "model");
  g_assert_cmpstr (json_node_get_string (events.config_value), ==, "a");

  toggle = GTK_TOGGLE_BUTTON (find (GTK_WIDGET (composer), GTK_TYPE_TOGGLE_BUTTON, 0));
  g_assert_nonnull (toggle);
  gtk_toggle_button_set_active (toggle, TRUE);
  g_assert_cmpstr (events.config_id, ==, "fast");
  g_assert_true (json_node_get_boolean (events.config_value));

  /* without config options, modes get a selector */
  pal_options_bar_set_config_options (bar, NULL);
  dropdown = GTK_DROP_DOWN (find (GTK_WIDGET (composer), GTK_TYPE_DROP_DOWN, 0));
  g_assert_nonnull (dropdown);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpstr (events.mode, ==, "code");
  test_drain_main_context ();
  g_assert_true (shows_label (GTK_WIDGET (dropdown), "Mode: Code"));

  g_free (events.config_id);
  events.config_id = NULL;
  g_free (events.mode);
  g_clear_pointer (&events.config_value, json_node_unref);
  g_ptr_array_unref (events.submitted);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The list of a selector marks the current choice and shows the agent's
 * descriptions. */
static void
test_options_list (void)
{
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  PalOptionsBar *bar = pal_composer_get_options_bar (composer);
  g_autoptr(GListModel) modes = list_from_json (ACP_TYPE_MODE,
    "[{\"id\":\"ask\",\"name\":\"Ask\",\"description\":\"Asks before every change\"},"
    " {\"id\":\"code\",\"name\":\"Code\"}]");
  GtkDropDown *dropdown;
  guint n_checks_shown = 0;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));
  pal_options_bar_set_modes (bar, modes);
  pal_options_bar_set_current_mode_id (bar, "code");
  dropdown = GTK_DROP_DOWN (find (GTK_WIDGET (composer), GTK_TYPE_DROP_DOWN, 0));
  /* the rows of the list are made with the selector, shown or not */
  test_drain_main_context ();

  g_assert_true (has_label (GTK_WIDGET (dropdown), "Asks before every change"));
  g_assert_true (has_label (GTK_WIDGET (dropdown), "Ask"));
  /* one check, on the current mode ("Code") */
  for (guint i = 0; ; i++)
    {
      GtkWidget *image = find (GTK_WIDGET (dropdown), GTK_TYPE_IMAGE, i);

      if (image == NULL)
        break;
      if (g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (image)), "object-select-symbolic") == 0 &&
          gtk_widget_get_opacity (image) > 0.5)
        {
          GtkWidget *row = gtk_widget_get_parent (image);

          n_checks_shown++;
          g_assert_true (has_label (row, "Code"));
        }
    }
  g_assert_cmpuint (n_checks_shown, ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Five selectors with long names and values: the composer is no wider than
 * without them (the window would grow past the screen) */
static void
test_options_width (void)
{
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  g_autoptr(GString) json = g_string_new ("[");
  g_autoptr(GListModel) options = NULL;
  int min_before, nat_before, min_after, nat_after;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));
  test_drain_main_context ();
  gtk_widget_measure (GTK_WIDGET (composer), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_before, &nat_before, NULL, NULL);

  for (guint i = 0; i < 5; i++)
    g_string_append_printf (json, "%s{\"id\":\"option-%u\",\"name\":\"A rather long option name %u\","
                            "\"type\":\"select\",\"currentValue\":\"v\",\"options\":[{\"value\":\"v\","
                            "\"name\":\"The value chosen for it, with a long and descriptive name\"}]}",
                            i > 0 ? "," : "", i, i);
  g_string_append (json, ",{\"id\":\"b\",\"name\":\"A boolean option with a long name too\",\"type\":\"boolean\","
                         "\"currentValue\":true}]");
  options = list_from_json (ACP_TYPE_CONFIG_OPTION, json->str);
  g_assert_cmpuint (g_list_model_get_n_items (options), ==, 6);
  pal_options_bar_set_config_options (pal_composer_get_options_bar (composer), options);
  test_drain_main_context ();
  g_assert_nonnull (find (GTK_WIDGET (composer), GTK_TYPE_DROP_DOWN, 4));

  gtk_widget_measure (GTK_WIDGET (composer), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_after, &nat_after, NULL, NULL);
  g_test_message ("minimum %d → %d, natural %d → %d", min_before, min_after, nat_before, nat_after);
  g_assert_cmpint (min_after, <=, MAX (min_before, 200));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
collect_chips (GtkWidget *widget,
               GPtrArray *chips)
{
  if (PAL_IS_ATTACHMENT_CHIP (widget))
    g_ptr_array_add (chips, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_chips (child, chips);
}

static GPtrArray *
chips_of (PalComposer *composer)
{
  GPtrArray *chips = g_ptr_array_new ();

  collect_chips (GTK_WIDGET (composer), chips);
  return chips;
}

static PalAttachment *
new_png_attachment (void)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 64, 32);
  g_autoptr(GBytes) bytes = NULL;
  char *buffer = NULL;
  gsize length = 0;

  gdk_pixbuf_fill (pixbuf, 0xff0000ff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &length, "png", NULL, NULL));
  bytes = g_bytes_new_take (buffer, length);

  return pal_attachment_new_image (bytes, "image/png", 64, 32, NULL);
}

/* Chips for what is attached, kept in the prompt, removed by their button */
static void
test_attachment_chips (void)
{
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  g_autoptr(GFile) file = g_file_new_for_path ("/project/hello.c");
  g_autoptr(GFile) folder = g_file_new_for_path ("/project/src");
  g_autoptr(PalAttachment) of_file = pal_attachment_new_file (file);
  g_autoptr(PalAttachment) of_folder = pal_attachment_new_folder (folder);
  g_autoptr(PalAttachment) image = new_png_attachment ();
  g_autoptr(PalPrompt) prompt = pal_prompt_new ("Look");
  g_autoptr(PalPrompt) kept = NULL;
  g_autoptr(GPtrArray) chips = NULL;
  g_autoptr(PalAttachment) first = NULL;
  GtkWidget *remove;
  const AcpAgentCapabilities text_only = ACP_AGENT_CAP_NONE;
  const AcpAgentCapabilities with_images = ACP_AGENT_CAP_PROMPT_IMAGE;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));

  /* a prompt given back shows its attachments */
  pal_prompt_add_attachment (prompt, of_file);
  pal_prompt_add_attachment (prompt, of_folder);
  pal_prompt_add_attachment (prompt, image);
  pal_composer_set_prompt (composer, prompt);
  chips = chips_of (composer);
  g_assert_cmpuint (chips->len, ==, 3);
  g_assert_cmpstr (pal_attachment_get_name (pal_attachment_chip_get_attachment (g_ptr_array_index (chips, 0))),
                   ==, "hello.c");
  /* the image gets its thumbnail, made off the main thread */
  WAIT_UNTIL (pal_attachment_chip_get_thumbnail (g_ptr_array_index (chips, 2)) != NULL);

  /* and the prompt taken from the composer has them */
  kept = pal_composer_dup_prompt (composer);
  g_assert_cmpstr (pal_prompt_get_text (kept), ==, "Look");
  g_assert_cmpuint (g_list_model_get_n_items (pal_prompt_get_attachments (kept)), ==, 3);

  /* an agent without images: the image is marked, the composer says so */
  g_assert_false (pal_composer_get_refusing_images (composer));
  pal_composer_set_agent_capabilities (composer, &text_only);
  g_assert_true (pal_composer_get_refusing_images (composer));
  g_assert_true (pal_attachment_chip_get_refused (g_ptr_array_index (chips, 2)));
  g_assert_false (pal_attachment_chip_get_refused (g_ptr_array_index (chips, 0)));
  pal_composer_set_agent_capabilities (composer, &with_images);
  g_assert_false (pal_composer_get_refusing_images (composer));

  /* the remove button of the first takes it away, and only it */
  remove = find (g_ptr_array_index (chips, 0), GTK_TYPE_BUTTON, 0);
  g_assert_nonnull (remove);
  g_signal_emit_by_name (remove, "clicked");
  g_assert_cmpuint (g_list_model_get_n_items (pal_composer_get_attachments (composer)), ==, 2);
  first = g_list_model_get_item (pal_composer_get_attachments (composer), 0);
  g_assert_cmpint (pal_attachment_get_kind (first), ==, PAL_ATTACHMENT_FOLDER);

  /* attachments alone can be sent; sending empties the composer */
  pal_composer_set_text (composer, "");
  g_assert_true (pal_composer_submit (composer));
  g_assert_cmpuint (g_list_model_get_n_items (pal_composer_get_attachments (composer)), ==, 0);
  g_ptr_array_unref (chips);
  chips = chips_of (composer);
  g_assert_cmpuint (chips->len, ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
type_text (PalComposer *composer,
           const char  *text)
{
  GtkTextView *view = GTK_TEXT_VIEW (find (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW, 0));

  gtk_text_buffer_insert_at_cursor (gtk_text_view_get_buffer (view), text, -1);
}

static void
write_empty (const char *dir,
             const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
}

static gboolean
attachment_is (PalPrompt         *prompt,
               guint              i,
               PalAttachmentKind  kind,
               GFile             *root,
               const char        *rel)
{
  g_autoptr(PalAttachment) attachment = g_list_model_get_item (pal_prompt_get_attachments (prompt), i);
  g_autoptr(GFile) expected = g_file_resolve_relative_path (root, rel);

  return attachment != NULL && pal_attachment_get_kind (attachment) == kind &&
         g_file_equal (pal_attachment_get_file (attachment), expected);
}

static gboolean
is_anchor_char (gunichar c,
                gpointer data)
{
  return c == 0xFFFC;
}

static void
test_mention (void)
{
  g_autofree char *dir = test_make_tmpdir ("composer-mention-XXXXXX");
  g_autoptr(GFile) root = g_file_new_for_path (dir);
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  GtkTextView *view;
  GtkTextBuffer *buffer;
  g_autoptr(PalPrompt) prompt = NULL;
  g_autoptr(PalPrompt) restored = NULL;
  GtkTextIter iter;

  write_empty (dir, "src/main.c");
  write_empty (dir, "src/util.c");
  write_empty (dir, "docs/guide.md");
  write_empty (dir, "build/main.o");
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));
  view = GTK_TEXT_VIEW (find (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW, 0));
  buffer = gtk_text_view_get_buffer (view);

  /* no folders, no finder */
  type_text (composer, "@ma");
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_file_hits (composer), ==, 0);
  pal_composer_set_text (composer, NULL);
  {
    const char *folders[] = { dir, NULL };

    pal_composer_set_folders (composer, folders);
  }

  /* an '@' inside a word is not a mention */
  type_text (composer, "me@ma");
  test_drain_main_context ();
  g_assert_cmpuint (pal_composer_get_n_file_hits (composer), ==, 0);
  pal_composer_set_text (composer, NULL);

  /* Escape closes the finder, leaving the text */
  type_text (composer, "@s");
  WAIT_UNTIL (pal_composer_get_n_file_hits (composer) > 0);
  g_assert_true (press (composer, GDK_KEY_Escape, 0));
  g_assert_cmpuint (pal_composer_get_n_file_hits (composer), ==, 0);
  pal_composer_set_text (composer, NULL);

  /* a file created while the finder is open shows in it */
  type_text (composer, "@fresh");
  write_empty (dir, "src/fresh.c");
  WAIT_UNTIL (pal_composer_get_n_file_hits (composer) == 1);
  pal_composer_set_text (composer, NULL);

  /* typing filters; Enter chooses: a chip, "@path" in the text */
  type_text (composer, "Look at @");
  WAIT_UNTIL (pal_composer_get_n_file_hits (composer) == 6);
  type_text (composer, "ma");
  WAIT_UNTIL (pal_composer_get_n_file_hits (composer) == 1);
  g_assert_true (press (composer, GDK_KEY_Return, 0));
  g_assert_cmpuint (pal_composer_get_n_file_hits (composer), ==, 0);

  /* Up and Down pick, Tab chooses: here the first hit, a folder */
  type_text (composer, "and @d");
  WAIT_UNTIL (pal_composer_get_n_file_hits (composer) == 2);
  g_assert_true (press (composer, GDK_KEY_Down, 0));
  g_assert_true (press (composer, GDK_KEY_Down, 0));
  g_assert_true (press (composer, GDK_KEY_Up, 0));
  g_assert_true (press (composer, GDK_KEY_Tab, 0));
  type_text (composer, "please");

  prompt = pal_composer_dup_prompt (composer);
  g_assert_cmpstr (pal_prompt_get_text (prompt), ==, "Look at @src/main.c and @docs please");
  g_assert_cmpuint (g_list_model_get_n_items (pal_prompt_get_attachments (prompt)), ==, 2);
  g_assert_true (attachment_is (prompt, 0, PAL_ATTACHMENT_FILE, root, "src/main.c"));
  g_assert_true (attachment_is (prompt, 1, PAL_ATTACHMENT_FOLDER, root, "docs"));

  /* a draft comes back with its chips */
  pal_composer_set_prompt (composer, NULL);
  g_assert_null (pal_composer_dup_prompt (composer));
  pal_composer_set_prompt (composer, prompt);
  restored = pal_composer_dup_prompt (composer);
  g_assert_cmpstr (pal_prompt_get_text (restored), ==, "Look at @src/main.c and @docs please");
  g_assert_cmpuint (g_list_model_get_n_items (pal_prompt_get_attachments (restored)), ==, 2);
  g_assert_true (attachment_is (restored, 0, PAL_ATTACHMENT_FILE, root, "src/main.c"));
  g_clear_object (&restored);

  /* deleting a chip is one character: its attachment goes with it */
  gtk_text_buffer_get_start_iter (buffer, &iter);
  g_assert_true (gtk_text_iter_forward_find_char (&iter, is_anchor_char, NULL, NULL));
  {
    GtkTextIter next = iter;

    gtk_text_iter_forward_char (&next);
    gtk_text_buffer_delete (buffer, &iter, &next);
  }
  restored = pal_composer_dup_prompt (composer);
  g_assert_cmpstr (pal_prompt_get_text (restored), ==, "Look at  and @docs please");
  g_assert_cmpuint (g_list_model_get_n_items (pal_prompt_get_attachments (restored)), ==, 1);
  g_assert_true (attachment_is (restored, 0, PAL_ATTACHMENT_FOLDER, root, "docs"));

  gtk_window_destroy (GTK_WINDOW (window));
  test_remove_tree (dir);
}

static void
append_message (GListStore     *store,
                AcpMessageRole  role,
                const char     *text)
{
  g_autoptr(AcpMessageItem) item = acp_message_item_new (role, NULL);

  acp_message_item_set_text (item, text);
  g_list_store_append (store, item);
}

#define assert_text(composer, expected) \
  G_STMT_START { \
    g_autofree char *text_ = pal_composer_dup_text (composer); \
    g_assert_cmpstr (text_, ==, expected); \
  } G_STMT_END

static void
test_recall (void)
{
  GtkWidget *window = gtk_window_new ();
  PalComposer *composer = PAL_COMPOSER (pal_composer_new ());
  g_autoptr(GListStore) items = g_list_store_new (G_TYPE_OBJECT);

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));

  append_message (items, ACP_MESSAGE_ROLE_USER, "first");
  append_message (items, ACP_MESSAGE_ROLE_AGENT, "an answer");
  append_message (items, ACP_MESSAGE_ROLE_USER, "second\nof two lines");
  append_message (items, ACP_MESSAGE_ROLE_AGENT, "another");
  append_message (items, ACP_MESSAGE_ROLE_USER, "third");
  append_message (items, ACP_MESSAGE_ROLE_USER, "third");
  pal_composer_set_recall_model (composer, G_LIST_MODEL (items));

  /* Up in the empty composer: the prompts, newest first (the same twice
   * in a row once), never an answer */
  g_assert_true (press (composer, GDK_KEY_Up, 0));
  assert_text (composer, "third");
  g_assert_true (press (composer, GDK_KEY_Up, 0));
  assert_text (composer, "second\nof two lines");
  /* in a prompt of two lines, Up first goes up a line (the text view's) */
  g_assert_false (press (composer, GDK_KEY_Up, 0));
  {
    GtkTextView *view = GTK_TEXT_VIEW (find (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW, 0));
    GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
    GtkTextIter start;

    gtk_text_buffer_get_start_iter (buffer, &start);
    gtk_text_buffer_place_cursor (buffer, &start);
  }
  g_assert_true (press (composer, GDK_KEY_Up, 0));
  assert_text (composer, "first");
  /* the oldest stays */
  g_assert_true (press (composer, GDK_KEY_Up, 0));
  assert_text (composer, "first");

  /* Down goes forward, and past the newest to an empty composer */
  g_assert_true (press (composer, GDK_KEY_Down, 0));
  assert_text (composer, "second\nof two lines");
  g_assert_true (press (composer, GDK_KEY_Down, 0));
  assert_text (composer, "third");
  g_assert_true (press (composer, GDK_KEY_Down, 0));
  assert_text (composer, "");
  g_assert_false (press (composer, GDK_KEY_Down, 0));

  /* a recalled prompt once edited, or text written, is the person's: the
   * keys move the cursor */
  g_assert_true (press (composer, GDK_KEY_Up, 0));
  pal_composer_set_text (composer, "third, changed");
  g_assert_false (press (composer, GDK_KEY_Up, 0));
  assert_text (composer, "third, changed");
  pal_composer_set_text (composer, "my own");
  g_assert_false (press (composer, GDK_KEY_Up, 0));

  /* another transcript: its own prompts */
  {
    g_autoptr(GListStore) other = g_list_store_new (G_TYPE_OBJECT);

    append_message (other, ACP_MESSAGE_ROLE_USER, "elsewhere");
    pal_composer_set_recall_model (composer, G_LIST_MODEL (other));
    pal_composer_set_text (composer, NULL);
    g_assert_true (press (composer, GDK_KEY_Up, 0));
    assert_text (composer, "elsewhere");
    pal_composer_set_recall_model (composer, NULL);
    pal_composer_set_text (composer, NULL);
    g_assert_false (press (composer, GDK_KEY_Up, 0));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/composer/send-and-stop", test_send_and_stop);
  g_test_add_func ("/composer/slash-completion", test_slash_completion);
  g_test_add_func ("/composer/recall", test_recall);
  g_test_add_func ("/composer/mention", test_mention);
  g_test_add_func ("/composer/session-options", test_session_options);
  g_test_add_func ("/composer/options-width", test_options_width);
  g_test_add_func ("/composer/options-list", test_options_list);
  g_test_add_func ("/composer/attachment-chips", test_attachment_chips);

  return g_test_run ();
}
