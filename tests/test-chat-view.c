/* test-chat-view.c: the transcript in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "acp-pacer.h"
#include "acp-permission-item.h"
#include "acp-transcript.h"
#include "pal-chat-view.h"
#include "pal-message-attachments.h"
#include "pal-diff-view.h"
#include "pal-markdown-view.h"
#include "pal-message-row.h"
#include "pal-notice-row.h"
#include "pal-permission-row.h"
#include "pal-plan-row.h"
#include "pal-summary-line.h"
#include "pal-text-view.h"
#include "pal-tool-call-row.h"
#include "pal-tooltip.h"
#include "find-descendant.h"
#include "summary-rows.h"
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

static guint
count_widgets (GtkWidget *root,
               GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect (root, type, found);
  return found->len;
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect (root, type, found);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}

static void
apply (AcpTranscript *transcript,
       const char    *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (node);
  acp_transcript_apply_update (transcript, json_node_get_object (node), &error);
  g_assert_no_error (error);
}

typedef struct
{
  GtkWidget *window;
  GType      type;
  guint      count;
} CountData;

static gboolean
has_count (gpointer data)
{
  CountData *d = data;

  return count_widgets (d->window, d->type) >= d->count;
}

static GtkWidget *
make_window (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

/* The label showing @text mapped in @widget, or NULL */
static GtkLabel *
find_label (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect (widget, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), text) == 0)
        return g_ptr_array_index (labels, i);
    }

  return NULL;
}

/* Whether a label showing @text is mapped in @widget */
static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  return find_label (widget, text) != NULL;
}

static void
test_rows_per_kind (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  PalMarkdownView *markdown;
  CountData d = { window, PAL_TYPE_MESSAGE_ROW, 3 };
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(AcpPermissionItem) permission = NULL;
  g_autoptr(GError) error = NULL;

  apply (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Fix the **bug**\"}}");
  apply (transcript, "{\"sessionUpdate\":\"agent_thought_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Thinking\"}}");
  apply (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"On **it**\"}}");
  apply (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Edit main.c\",\"kind\":\"edit\","
                     "\"locations\":[{\"path\":\"/p/src/main.c\",\"line\":3},{\"path\":\"/etc/hosts\"}],"
                     "\"status\":\"in_progress\",\"content\":[{\"type\":\"diff\",\"path\":\"/p/src/main.c\","
                     "\"oldText\":\"a\\nb\\n\",\"newText\":\"a\\nc\\n\"}]}");
  apply (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":[{\"content\":\"Read\",\"priority\":\"high\",\"status\":\"completed\"},"
                     "{\"content\":\"Write\",\"priority\":\"low\",\"status\":\"pending\"}]}");
  apply (transcript, "{\"sessionUpdate\":\"something_new\",\"value\":1}");

  params = json_from_string ("{\"sessionId\":\"s\",\"toolCall\":{\"toolCallId\":\"t1\",\"title\":\"Edit main.c\"},"
                             "\"options\":[{\"optionId\":\"yes\",\"name\":\"Allow\",\"kind\":\"allow_once\"},"
                             "{\"optionId\":\"no\",\"name\":\"Reject\",\"kind\":\"reject_once\"}]}", NULL);
  permission = acp_permission_item_new (json_node_get_object (params), NULL, &error);
  g_assert_no_error (error);
  acp_transcript_append (transcript, ACP_ITEM (permission));

  /* the session's folder: the files tool calls name are shown from it */
  pal_chat_view_set_folder (PAL_CHAT_VIEW (view), "/p");
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  WAIT_UNTIL (has_count (&d));
  test_wait_frames (window, 5);

  g_assert_cmpuint (count_widgets (window, PAL_TYPE_MESSAGE_ROW), ==, 3);
  g_assert_cmpuint (count_widgets (window, PAL_TYPE_TOOL_CALL_ROW), ==, 1);
  g_assert_cmpuint (count_widgets (window, PAL_TYPE_DIFF_VIEW), ==, 1);
  g_assert_cmpuint (count_widgets (window, PAL_TYPE_PLAN_ROW), ==, 1);
  g_assert_cmpuint (count_widgets (window, PAL_TYPE_PERMISSION_ROW), ==, 1);
  g_assert_cmpuint (count_widgets (window, PAL_TYPE_NOTICE_ROW), ==, 1);

  {
    PalDiffView *diff = PAL_DIFF_VIEW (find_widget (window, PAL_TYPE_DIFF_VIEW));
    g_autofree char *text = pal_diff_view_dup_text (diff);

    g_assert_cmpuint (pal_diff_view_get_n_added (diff), ==, 1);
    g_assert_cmpuint (pal_diff_view_get_n_removed (diff), ==, 1);
    g_assert_nonnull (strstr (text, "-b\n+c"));
    g_assert_cmpstr (pal_widget_get_quiet_tooltip (GTK_WIDGET (find_label (GTK_WIDGET (diff), "src/main.c"))),
                     ==, "/p/src/main.c");
  }

  /* the locations, below the title: short, and whole in the tooltip */
  {
    GtkLabel *locations = find_label (window, "src/main.c:3, /etc/hosts");

    g_assert_nonnull (locations);
    g_assert_cmpstr (pal_widget_get_quiet_tooltip (GTK_WIDGET (locations)), ==, "/p/src/main.c:3\n/etc/hosts");
  }

  /* a running tool call spins; once its turn is over it is shown
   * interrupted, and nothing spins */
  {
    GtkWidget *row = find_widget (window, PAL_TYPE_TOOL_CALL_ROW);
    GtkWidget *spinner = find_widget (row, GTK_TYPE_SPINNER);

    g_assert_nonnull (spinner);
    g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
    g_assert_true (has_label (row, "Running"));

    acp_transcript_stop_tool_calls (transcript);
    test_wait_frames (window, 5);
    g_assert_false (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
    g_assert_false (gtk_widget_get_visible (spinner));
    g_assert_true (has_label (row, "Interrupted"));
    g_assert_false (has_label (row, "Running"));
  }

  /* streaming into the last agent message reaches its view */
  apply (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"On **it**\"}}");
  test_wait_frames (window, 5);
  apply (transcript, "{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\" and done\"}}");
  test_wait_frames (window, 5);
  {
    g_autoptr(GPtrArray) views = g_ptr_array_new ();
    gboolean found = FALSE;

    collect (window, PAL_TYPE_MARKDOWN_VIEW, views);
    for (guint i = 0; i < views->len; i++)
      {
        markdown = g_ptr_array_index (views, i);
        if (g_strcmp0 (pal_markdown_view_get_text (markdown), "On **it** and done") == 0)
          found = TRUE;
      }
    g_assert_true (found);
  }

  /* the permission card answers through its buttons */
  {
    GtkWidget *row = find_widget (window, PAL_TYPE_PERMISSION_ROW);
    g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
    GtkButton *allow = NULL;

    collect (row, GTK_TYPE_BUTTON, buttons);
    g_assert_cmpuint (buttons->len, ==, 2);
    for (guint i = 0; i < buttons->len; i++)
      if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), "Allow") == 0)
        allow = g_ptr_array_index (buttons, i);
    g_assert_nonnull (allow);
    g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (allow)));

    g_signal_emit_by_name (allow, "clicked");
    g_assert_cmpint (acp_permission_item_get_state (permission), ==, ACP_PERMISSION_STATE_SELECTED);
    g_assert_cmpstr (acp_permission_item_get_selected_option_id (permission), ==, "yes");
    test_wait_frames (window, 5);
    g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (allow)));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GtkAdjustment *adjustment;
} AdjData;

static gboolean
at_bottom (gpointer data)
{
  AdjData *d = data;
  double bottom = gtk_adjustment_get_upper (d->adjustment) - gtk_adjustment_get_page_size (d->adjustment);

  return bottom > 0 && gtk_adjustment_get_value (d->adjustment) >= bottom - 1;
}

static gboolean
caught_up (gpointer data)
{
  return pal_chat_view_get_caught_up (data);
}

/* The person scrolls @scroller to @value: a scroll event, then the move */
static void
scroll_as_person (GtkScrolledWindow *scroller,
                  double             value)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (scroller));
  gboolean handled = FALSE;
  guint n_scroll = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_SCROLL (controller))
        {
          g_signal_emit_by_name (controller, "scroll", 0.0, -5.0, &handled);
          n_scroll++;
        }
    }
  g_assert_cmpuint (n_scroll, >=, 1);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (scroller), value);
}

static void
test_stick_to_bottom (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  GtkScrolledWindow *scroller;
  AdjData d;

  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *json =
        g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t%u\",\"title\":\"Step %u\"}", i, i);
      apply (transcript, json);
    }
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));

  scroller = GTK_SCROLLED_WINDOW (find_widget (window, GTK_TYPE_SCROLLED_WINDOW));
  d.adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  WAIT_UNTIL (at_bottom (&d));
  g_assert_true (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));

  /* new content keeps the end in view */
  for (guint i = 300; i < 400; i++)
    {
      g_autofree char *json =
        g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t%u\",\"title\":\"Step %u\"}", i, i);
      apply (transcript, json);
    }
  test_wait_frames (window, 5);
  WAIT_UNTIL (at_bottom (&d));

  /* a tall row (a diff expands itself) then a last one: the last one is on
   * screen, not only the adjustment at its end */
  {
    GString *old_text = g_string_new (NULL);
    GString *new_text = g_string_new (NULL);
    g_autoptr(JsonBuilder) builder = json_builder_new ();
    g_autoptr(JsonNode) node = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) rows = g_ptr_array_new ();
    gboolean last_shown = FALSE;

    for (guint i = 0; i < 60; i++)
      {
        g_string_append_printf (old_text, "line %u\n", i);
        g_string_append_printf (new_text, "line %u changed\n", i);
      }
    json_builder_begin_object (builder);
    json_builder_set_member_name (builder, "sessionUpdate");
    json_builder_add_string_value (builder, "tool_call");
    json_builder_set_member_name (builder, "toolCallId");
    json_builder_add_string_value (builder, "tall");
    json_builder_set_member_name (builder, "title");
    json_builder_add_string_value (builder, "Edit a long file");
    json_builder_set_member_name (builder, "content");
    json_builder_begin_array (builder);
    json_builder_begin_object (builder);
    json_builder_set_member_name (builder, "type");
    json_builder_add_string_value (builder, "diff");
    json_builder_set_member_name (builder, "path");
    json_builder_add_string_value (builder, "/p/long.c");
    json_builder_set_member_name (builder, "oldText");
    json_builder_add_string_value (builder, old_text->str);
    json_builder_set_member_name (builder, "newText");
    json_builder_add_string_value (builder, new_text->str);
    json_builder_end_object (builder);
    json_builder_end_array (builder);
    json_builder_end_object (builder);
    node = json_builder_get_root (builder);
    acp_transcript_apply_update (transcript, json_node_get_object (node), &error);
    g_assert_no_error (error);
    apply (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"last\",\"title\":\"The last one\"}");
    g_string_free (old_text, TRUE);
    g_string_free (new_text, TRUE);

    for (guint round = 0; round < 20 && !last_shown; round++)
      {
        test_wait_frames (window, 5);
        g_ptr_array_set_size (rows, 0);
        collect (window, PAL_TYPE_TOOL_CALL_ROW, rows);
        for (guint i = 0; i < rows->len; i++)
          {
            GtkWidget *row = g_ptr_array_index (rows, i);
            graphene_rect_t bounds;

            if (g_strcmp0 (acp_tool_call_item_get_title (pal_tool_call_row_get_item (PAL_TOOL_CALL_ROW (row))),
                           "The last one") != 0)
              continue;
            /* inside the scrolled window's visible area */
            if (gtk_widget_compute_bounds (row, GTK_WIDGET (scroller), &bounds) &&
                bounds.origin.y >= 0 &&
                bounds.origin.y + bounds.size.height <= gtk_widget_get_height (GTK_WIDGET (scroller)) + 1)
              last_shown = TRUE;
          }
      }
    g_assert_true (last_shown);
  }

  /* whatever was held back after the batches above is in the list again */
  WAIT_UNTIL (caught_up (view));

  /* the layout moving the value is not the person scrolling: still stuck */
  gtk_adjustment_set_value (d.adjustment, 0);
  test_wait_frames (window, 5);
  WAIT_UNTIL (at_bottom (&d));
  g_assert_true (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));

  /* scrolled up by the person: new content leaves the view where it is */
  scroll_as_person (scroller, 0);
  test_wait_frames (window, 5);
  g_assert_false (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));
  apply (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"late\",\"title\":\"Late\"}");
  test_wait_frames (window, 5);
  g_assert_cmpfloat (gtk_adjustment_get_value (d.adjustment), <, 1);

  pal_chat_view_scroll_to_bottom (PAL_CHAT_VIEW (view));
  WAIT_UNTIL (at_bottom (&d));
  g_assert_true (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* --- a prompt sent: its frame first --- */

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static gboolean
counted (gpointer data)
{
  return *(guint *) data > 0;
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* The pacer's clock here: it stands still, so that the frame showing the
 * prompt comes in time however busy the machine is. */
static gint64
frozen_clock (void)
{
  static gint64 now;

  if (now == 0)
    now = g_get_monotonic_time ();

  return now;
}

static void
test_prompt_sent (void)
{
  g_autoptr(AcpPacer) pacer = acp_pacer_new ();
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window;
  gint64 slice = -1;
  guint n_frames = 0;
  gulong handler;

  acp_pacer_set_clock (pacer, frozen_clock);
  pal_chat_view_set_pacer (PAL_CHAT_VIEW (view), pacer);

  /* off screen, no frame is coming: nothing is held */
  g_object_ref_sink (view);
  acp_pacer_frame_painted (pacer, 0);
  pal_chat_view_prompt_sent (PAL_CHAT_VIEW (view));
  g_assert_false (acp_pacer_in_step (pacer, acp_pacer_get_time (pacer), NULL));

  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  window = make_window (view);
  WAIT_UNTIL (is_mapped (view));
  test_wait_frames (window, 5);

  /* on screen: the answer waits for the frame that shows the prompt */
  pal_chat_view_prompt_sent (PAL_CHAT_VIEW (view));
  g_assert_true (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));
  g_assert_true (acp_pacer_in_step (pacer, acp_pacer_get_time (pacer), &slice));
  g_assert_cmpint (slice, ==, 0);

  /* painted (the prompt and the emptied composer are, in the window; here
   * nothing else asks for a frame): the answer comes, a slice a frame, as
   * content that grows */
  handler = g_signal_connect (pacer, "frame", G_CALLBACK (count_cb), &n_frames);
  gtk_widget_queue_draw (view);
  WAIT_UNTIL (counted (&n_frames));
  g_signal_handler_disconnect (pacer, handler);
  g_assert_true (acp_pacer_in_step (pacer, acp_pacer_get_time (pacer), &slice));
  g_assert_cmpint (slice, >, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (view);
}

/* --- a flood: thousands of items at once while the view follows the end --- */

typedef struct
{
  GtkListView *list_view;
  GListModel  *transcript;
  guint        n_changes;
  guint        first_n_items;     /* items in the list view after the first change */
  guint        first_n_summaries; /* summary rows bound by then */
} FloodData;

static guint
count_summaries (GtkWidget *widget)
{
  guint n = gtk_widget_has_css_class (widget, "summary-row") ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_summaries (child);

  return n;
}

static void
flood_items_changed_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        FloodData  *d)
{
  if (d->n_changes++ > 0)
    return;

  d->first_n_items = g_list_model_get_n_items (model);
  d->first_n_summaries = count_summaries (GTK_WIDGET (d->list_view));
}

/* Counts the changes of the list view's model of @window from now on */
static void
flood_data_watch (FloodData     *d,
                  GtkWidget     *window,
                  AcpTranscript *transcript)
{
  d->list_view = GTK_LIST_VIEW (find_widget (window, GTK_TYPE_LIST_VIEW));
  d->transcript = G_LIST_MODEL (transcript);
  g_signal_connect_after (gtk_list_view_get_model (d->list_view), "items-changed",
                          G_CALLBACK (flood_items_changed_cb), d);
}

static void
flood_data_unwatch (FloodData *d)
{
  g_signal_handlers_disconnect_by_data (gtk_list_view_get_model (d->list_view), d);
}

static gboolean
flood_settled (gpointer data)
{
  FloodData *d = data;
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (d->list_view), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  GListModel *shown = G_LIST_MODEL (gtk_list_view_get_model (d->list_view));

  return g_list_model_get_n_items (shown) == g_list_model_get_n_items (d->transcript) &&
         count_summaries (GTK_WIDGET (d->list_view)) == 0 &&
         gtk_adjustment_get_value (adjustment) >=
           gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 1;
}

static void
test_flood (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  FloodData d = { 0 };
  GtkWidget *last_row = NULL;
  g_autofree char *last_title = NULL;
  guint n_shown = 0;
  guint n_more = 0;

  apply (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"first\",\"title\":\"First\"}");
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  acp_transcript_flush (transcript);
  test_wait_frames (window, 5);

  flood_data_watch (&d, window, transcript);

  /* 3000 items in one batch, as a replay delivers them */
  for (guint i = 0; i < 3000; i++)
    {
      g_autofree char *json =
        g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"f%u\",\"title\":\"Flood %u\"}", i, i);
      apply (transcript, json);
    }
  acp_transcript_flush (transcript);
  /* the list view has not seen the batch */
  g_assert_cmpuint (d.n_changes, ==, 0);
  /* the rest comes as a replay's, announced: a pause of a busy machine
   * longer than a flood's calm does not end it before the test does */
  pal_chat_view_begin_flood (PAL_CHAT_VIEW (view));

  /* while more keeps coming, the panel over the list shows the last items
   * as lines (each round adds two: fewer come between two relabellings
   * than there are lines, and the lines move up) */
  for (guint round = 0; round < 1000 && n_shown < 3; round++)
    {
      g_autofree char *title = NULL;
      g_autofree char *answer = NULL;
      g_autoptr(GPtrArray) lines = g_ptr_array_new ();
      gboolean title_seen = FALSE, answer_seen = FALSE;

      {
        g_autofree char *json =
          g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"m%u\",\"title\":\"More %u\"}",
                           n_more, n_more);
        apply (transcript, json);
        n_more++;
      }
      /* and an answer, whose line shows its text without the Markdown */
      {
        g_autofree char *json =
          g_strdup_printf ("{\"sessionUpdate\":\"agent_message_chunk\",\"messageId\":\"r%u\","
                           "\"content\":{\"type\":\"text\",\"text\":\"## **Round** `%u`\\n\\nmore\"}}",
                           round, round);
        apply (transcript, json);
      }
      acp_transcript_flush (transcript);
      g_main_context_iteration (NULL, TRUE);

      title = g_strdup_printf ("More %u", n_more - 1);
      answer = g_strdup_printf ("Round %u", round);
      /* the flood's lines are summary lines */
      collect (window, PAL_TYPE_SUMMARY_LINE, lines);
      for (guint i = 0; i < lines->len; i++)
        {
          const char *text = pal_summary_line_get_text (g_ptr_array_index (lines, i));

          title_seen |= g_strcmp0 (text, title) == 0;
          answer_seen |= g_strcmp0 (text, answer) == 0;
        }
      if (title_seen && answer_seen)
        n_shown++;
    }
  /* three relabellings, the last items at the bottom each time */
  g_assert_cmpuint (n_shown, ==, 3);
  /* the lines are in the order of their items, the last at the bottom,
   * however many relabellings moved them up */
  {
    g_autoptr(GPtrArray) lines = g_ptr_array_new ();
    g_autofree char *last_tool = g_strdup_printf ("More %u", n_more - 1);
    guint n_visible = 0;
    const char *visible[2] = { NULL, NULL };

    collect (window, PAL_TYPE_SUMMARY_LINE, lines);
    for (guint i = 0; i < lines->len; i++)
      if (gtk_widget_get_visible (g_ptr_array_index (lines, i)))
        {
          visible[0] = visible[1];
          visible[1] = pal_summary_line_get_text (g_ptr_array_index (lines, i));
          n_visible++;
        }
    g_assert_cmpuint (n_visible, >, 6);
    g_assert_cmpstr (visible[0], ==, last_tool);
    g_assert_true (g_str_has_prefix (visible[1], "Round "));
  }
  g_assert_cmpuint (d.n_changes, ==, 0);

  /* the replay is over: the list view gets the end at once, as summaries */
  pal_chat_view_end_flood (PAL_CHAT_VIEW (view));
  g_assert_cmpuint (d.n_changes, >, 0);
  g_assert_cmpuint (d.first_n_items, >, 0);
  g_assert_cmpuint (d.first_n_items, <=, 40);
  g_assert_cmpuint (d.first_n_summaries, >, 0);

  WAIT_UNTIL (flood_settled (&d));

  /* once calm, everything is back, in full rows, and the last one is on
   * screen */
  last_title = g_strdup_printf ("More %u", n_more - 1);
  collect (window, PAL_TYPE_TOOL_CALL_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);

      if (g_strcmp0 (acp_tool_call_item_get_title (pal_tool_call_row_get_item (PAL_TOOL_CALL_ROW (row))),
                     last_title) == 0)
        last_row = row;
    }
  g_assert_nonnull (last_row);
  g_assert_true (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));

  flood_data_unwatch (&d);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The summary line of the item with @prefix in a flood's panel of @window,
 * or NULL */
static const char *
flood_line_with_prefix (GtkWidget  *window,
                        const char *prefix)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new ();

  collect (window, PAL_TYPE_SUMMARY_LINE, lines);
  for (guint i = 0; i < lines->len; i++)
    {
      const char *text = pal_summary_line_get_text (g_ptr_array_index (lines, i));

      if (g_str_has_prefix (text, prefix))
        return text;
    }

  return NULL;
}

/* In a flood's panel, a long text is cut to two thirds of what a line as
 * wide as the view shows (800 pixels: about 110 characters), with an
 * ellipsis. */
static void
test_flood_long_line (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  g_autoptr(GString) long_title = g_string_new ("Long");
  g_autofree char *json = NULL;
  const char *shown;

  apply (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"first\",\"title\":\"First\"}");
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  acp_transcript_flush (transcript);
  test_wait_frames (window, 5);
  pal_chat_view_begin_flood (PAL_CHAT_VIEW (view));

  for (guint i = 0; i < 100; i++)
    g_string_append (long_title, " title");
  json = g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"long\",\"title\":\"%s\"}",
                          long_title->str);
  apply (transcript, json);
  acp_transcript_flush (transcript);
  WAIT_UNTIL (flood_line_with_prefix (window, "Long title") != NULL);
  shown = flood_line_with_prefix (window, "Long title");
  g_assert_true (g_str_has_suffix (shown, "…"));
  g_assert_cmpuint (g_utf8_strlen (shown, -1), >, 40);
  g_assert_cmpuint (g_utf8_strlen (shown, -1), <, 100);

  pal_chat_view_end_flood (PAL_CHAT_VIEW (view));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A load announced with pal_chat_view_begin_flood() floods from its first
 * item, however small the batches and long the pauses, until it ends. */
static void
test_expected_flood (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  FloodData d = { 0 };

  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  test_wait_frames (window, 5);
  flood_data_watch (&d, window, transcript);

  pal_chat_view_begin_flood (PAL_CHAT_VIEW (view));
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *json =
        g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"e%u\",\"title\":\"Early %u\"}", i, i);

      apply (transcript, json);
      acp_transcript_flush (transcript);
      test_wait_frames (window, 5);
    }
  /* no pause, however long, ends it: with frames painted and everything
   * pending handled, no timer of the view's is left that could end it (a
   * flood's calm, see pal-chat-flood.c), checked on what is pending rather
   * than by waiting longer than the calm */
  test_wait_frames (window, 5);
  test_drain_main_context ();
  g_assert_null (g_main_context_find_source_by_funcs_user_data (NULL, &g_timeout_funcs, view));
  g_assert_cmpuint (d.n_changes, ==, 0);
  g_assert_false (pal_chat_view_get_caught_up (PAL_CHAT_VIEW (view)));

  pal_chat_view_end_flood (PAL_CHAT_VIEW (view));
  g_assert_cmpuint (d.n_changes, >, 0);
  WAIT_UNTIL (flood_settled (&d));
  g_assert_true (pal_chat_view_get_caught_up (PAL_CHAT_VIEW (view)));

  /* and afterwards, small batches are rows at once again */
  d.n_changes = 0;
  apply (transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"late\",\"title\":\"Late\"}");
  acp_transcript_flush (transcript);
  g_assert_cmpuint (d.n_changes, >, 0);

  flood_data_unwatch (&d);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Applies an agent_message_chunk of @text */
static void
apply_agent_text (AcpTranscript *transcript,
                  const char    *text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *json = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sessionUpdate");
  json_builder_add_string_value (builder, "agent_message_chunk");
  json_builder_set_member_name (builder, "content");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "text");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  json = json_to_string (node, FALSE);
  apply (transcript, json);
}

/* Whether the panel of a flood is shown over the list */
static gboolean
flood_panel_shown (GtkWidget *widget)
{
  if (gtk_widget_has_css_class (widget, "flood"))
    return gtk_widget_get_visible (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (flood_panel_shown (child))
      return TRUE;

  return FALSE;
}

static gboolean
flood_panel_hidden (gpointer data)
{
  return !flood_panel_shown (data);
}

/* Returns: (transfer full): @n_paragraphs paragraphs of about 60 bytes */
static char *
paragraphs (guint from,
            guint n_paragraphs)
{
  GString *text = g_string_new (NULL);

  for (guint i = from; i < from + n_paragraphs; i++)
    g_string_append_printf (text, "Paragraph %u of a long answer, with **bold** words.\n\n", i);

  return g_string_free (text, FALSE);
}

/* Text pours in when blocks come within 100 ms (FLOOD_TEXT_US) by the
 * pacer's clock: the test's pacer has this one, and the time of a reader's
 * pace passes on it before more text comes, however busy the machine. */
static gint64 reader_clock_now;

static gint64
reader_clock (void)
{
  return reader_clock_now;
}

static void
at_reader_pace (void)
{
  reader_clock_now += 150 * G_TIME_SPAN_MILLISECOND;
}

/* An answer growing faster than anyone reads (a runaway agent) floods the
 * view as a replay does: the panel shows it while the list view waits,
 * then everything is back, the end on screen. At a reader's pace, however
 * long the answer grows, it does not. */
typedef struct
{
  GtkWidget  *window;
  const char *text;
} AnswerData;

static gboolean has_rows_of_blocks (gpointer data);

static gboolean
list_changed (gpointer data)
{
  return ((FloodData *) data)->n_changes > 0;
}

/* The widgets of @type mapped within the chat's area */
static GPtrArray *
on_screen (GtkWidget *window,
           GType      type)
{
  GtkWidget *scroller = find_widget (window, GTK_TYPE_SCROLLED_WINDOW);
  g_autoptr(GPtrArray) widgets = g_ptr_array_new ();
  GPtrArray *shown = g_ptr_array_new ();

  collect (window, type, widgets);
  for (guint i = 0; i < widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (widgets, i);
      graphene_rect_t bounds;

      if (gtk_widget_get_mapped (widget) &&
          gtk_widget_compute_bounds (widget, scroller, &bounds) &&
          bounds.origin.y + bounds.size.height > 0 &&
          bounds.origin.y < gtk_widget_get_height (scroller))
        g_ptr_array_add (shown, widget);
    }

  return shown;
}

/* Every row of text on screen has laid out the last paragraph of its part */
static gboolean
shown_whole_on_screen (GtkWidget *window)
{
  g_autoptr(GPtrArray) views = on_screen (window, PAL_TYPE_MARKDOWN_VIEW);
  guint with_paragraphs = 0;

  for (guint i = 0; i < views->len; i++)
    {
      GtkWidget *view = g_ptr_array_index (views, i);
      const char *last = g_strrstr (pal_markdown_view_get_text (PAL_MARKDOWN_VIEW (view)), "Paragraph ");
      /* text alone: one text part */
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (gtk_widget_get_last_child (view)));
      g_autofree char *number = NULL;
      g_autofree char *shown = NULL;
      GtkTextIter start, end;

      if (last == NULL)
        continue;

      with_paragraphs++;
      number = g_strndup (last, strcspn (last, "o") - 1);
      gtk_text_buffer_get_bounds (buffer, &start, &end);
      shown = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      if (strstr (shown, number) == NULL)
        return FALSE;
    }

  return with_paragraphs > 0;
}

/* Every text view on screen has its lines laid out to be drawn */
static gboolean
prepared_on_screen (GtkWidget *window)
{
  g_autoptr(GPtrArray) views = on_screen (window, PAL_TYPE_TEXT_VIEW);

  for (guint i = 0; i < views->len; i++)
    if (!pal_text_view_get_prepared (g_ptr_array_index (views, i)))
      return FALSE;

  return views->len > 0;
}

static void
test_pouring_text (void)
{
  g_autoptr(AcpPacer) pacer = acp_pacer_new ();
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  g_autoptr(GString) text = g_string_new (NULL);
  FloodData d = { 0 };
  AnswerData answer;
  guint n = 0;

  reader_clock_now = 0;
  acp_pacer_set_clock (pacer, reader_clock);
  pal_chat_view_set_pacer (PAL_CHAT_VIEW (view), pacer);
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  test_wait_frames (window, 5);
  flood_data_watch (&d, window, transcript);

  /* a block and more at a time, in pauses longer than the flood's window:
   * 24 KB in all */
  for (guint round = 0; round < 4; round++)
    {
      g_autofree char *more = paragraphs (n, 100);

      n += 100;
      g_string_append (text, more);
      apply_agent_text (transcript, more);
      acp_transcript_flush (transcript);
      g_assert_false (flood_panel_shown (window));
      at_reader_pace ();
    }
  g_assert_cmpuint (d.n_changes, >, 0);
  g_assert_false (flood_panel_shown (window));

  /* 60 KB at once: more than eight blocks */
  {
    g_autofree char *more = paragraphs (n, 1000);

    g_string_append (text, more);
    d.n_changes = 0;
    apply_agent_text (transcript, more);
    acp_transcript_flush (transcript);
    g_assert_true (flood_panel_shown (window));
    g_assert_cmpuint (d.n_changes, ==, 0);
  }

  /* the list view learns of every block at once when the flood is over;
   * its rows are laid out under the panel, those on screen made full rows
   * (a frame each), their text laid out to be drawn, and then shown: no
   * summary of a block is seen */
  WAIT_UNTIL (list_changed (&d));
  g_assert_true (flood_panel_shown (window));
  WAIT_UNTIL (flood_panel_hidden (window));
  g_assert_false (summary_on_screen (GTK_WIDGET (d.list_view), find_widget (window, GTK_TYPE_SCROLLED_WINDOW)));
  /* and their text laid out to be drawn, in the frame before */
  g_assert_true (prepared_on_screen (window));
  WAIT_UNTIL (caught_up (view));
  g_assert_true (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));
  answer.window = window;
  answer.text = text->str;
  WAIT_UNTIL (has_rows_of_blocks (&answer));
  /* the rows on screen show all of their text at once, not at the pace
   * of streamed text */
  g_assert_true (shown_whole_on_screen (window));

  flood_data_unwatch (&d);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A long answer is shown as a run of rows, each a block of it: the last one
 * ends where the text ends, and none holds much more than a block. */
/* several rows for the one item, and the one with the end of the text is
 * on screen */
static gboolean
has_rows_of_blocks (gpointer data)
{
  AnswerData *d = data;
  GtkListView *list_view = GTK_LIST_VIEW (find_widget (d->window, GTK_TYPE_LIST_VIEW));
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  if (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (list_view))) < 5)
    return FALSE;

  collect (d->window, PAL_TYPE_MARKDOWN_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    {
      const char *shown = pal_markdown_view_get_text (g_ptr_array_index (views, i));

      if (*shown != '\0' && g_str_has_suffix (d->text, shown))
        return TRUE;
    }

  return FALSE;
}

static void
test_long_answer (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  AcpMessageItem *message;
  AnswerData answer;

  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *paragraph = paragraphs (i, 1);

      g_string_append (text, paragraph);
      apply_agent_text (transcript, paragraph);
      if (i % 50 == 0)
        test_wait_frames (window, 5);
    }
  acp_transcript_flush (transcript);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (transcript)), ==, 1);
  message = g_list_model_get_item (G_LIST_MODEL (transcript), 0);
  g_object_unref (message);
  g_assert_cmpstr (acp_message_item_get_text (message), ==, text->str);

  answer.window = window;
  answer.text = text->str;
  WAIT_UNTIL (has_rows_of_blocks (&answer));
  collect (window, PAL_TYPE_MESSAGE_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      PalMarkdownView *markdown = PAL_MARKDOWN_VIEW (find_widget (g_ptr_array_index (rows, i), PAL_TYPE_MARKDOWN_VIEW));
      const char *shown = pal_markdown_view_get_text (markdown);

      g_assert_true (pal_message_row_get_item (g_ptr_array_index (rows, i)) == message);
      g_assert_cmpuint (strlen (shown), <, 3 * 4096);
      g_assert_nonnull (strstr (text->str, shown));
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GtkWidget *window;
  guint      frames;    /* painted with Markdown views on screen */
  gboolean   whole;     /* in the last of them, none waited to be rendered */
} PaintedData;

static void
check_painted_cb (GdkFrameClock *frame_clock,
                  PaintedData   *d)
{
  g_autoptr(GPtrArray) views = NULL;

  if (d->whole)
    return;

  views = on_screen (d->window, PAL_TYPE_MARKDOWN_VIEW);
  if (views->len == 0)
    return;

  d->frames++;
  d->whole = TRUE;
  for (guint i = 0; i < views->len; i++)
    {
      if (pal_markdown_view_get_pending (g_ptr_array_index (views, i)))
        d->whole = FALSE;
    }
}

static gboolean
shown_whole (gpointer data)
{
  return ((PaintedData *) data)->whole;
}

/* How many frames may show an earlier answer before it is whole: a third of
 * what its blocks take at the pace of streamed text */
#define WHOLE_WITHIN_FRAMES 10

/* The block clock of test_earlier_answer_whole (): the answer came at 0 */
static gint64 block_clock_now;

static gint64
block_clock (void)
{
  return block_clock_now;
}

/* A long answer that came before (the session shown again, the person
 * scrolling back to it): the blocks on screen show their whole text within
 * the first frames that show them, not at the pace of streamed text (a
 * block is laid out at STREAM_BUDGET bytes a frame, all views together:
 * some thirty frames here). */
static void
test_earlier_answer_whole (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  g_autofree char *text = paragraphs (0, 3000);
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window;
  GtkScrolledWindow *scroller;
  PaintedData d = { 0 };
  gulong handler;

  /* some 160 KB: forty blocks, each longer than a stream shows in a frame */
  apply_agent_text (transcript, text);
  acp_transcript_flush (transcript);
  g_assert_cmpuint (strlen (text), >, 40 * 4096);

  /* it came long ago by the blocks' clock, however fast the machine */
  block_clock_now = 0;
  pal_chat_view_set_block_clock (PAL_CHAT_VIEW (view), block_clock);
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  block_clock_now = 10 * PAL_MESSAGE_BLOCK_STREAMING_US;
  window = make_window (view);
  d.window = window;
  handler = g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                              G_CALLBACK (check_painted_cb), &d);
  WAIT_UNTIL (shown_whole (&d));
  /* At stream pace it takes some thirty frames; whole, three on a calm
   * machine. A slow one (a sanitizer build, a busy CI) paints a frame or
   * a few more before the one that lays the blocks out whole, so the bound
   * is the difference that matters, not the best case. */
  g_assert_cmpuint (d.frames, <=, WHOLE_WITHIN_FRAMES);

  /* back to the start of the answer, at once */
  scroller = GTK_SCROLLED_WINDOW (find_widget (window, GTK_TYPE_SCROLLED_WINDOW));
  d.frames = 0;
  d.whole = FALSE;
  scroll_as_person (scroller, 0);
  WAIT_UNTIL (shown_whole (&d));
  g_assert_false (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));
  g_assert_cmpuint (d.frames, <=, WHOLE_WITHIN_FRAMES);

  g_signal_handler_disconnect (gtk_widget_get_frame_clock (window), handler);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Stands for frames that are always due, each taking longer than the
 * refresh interval (a software GL renderer, a slow machine): nothing of a
 * lower priority than the frames runs while it is there */
static gboolean
busy_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* The text view of the mapped Markdown view of @window whose text ends
 * with @text (the text of its last part), or NULL */
static GtkWidget *
find_view_ending_with (GtkWidget  *window,
                       const char *text)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  collect (window, PAL_TYPE_MARKDOWN_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    {
      const char *shown = pal_markdown_view_get_text (g_ptr_array_index (views, i));

      if (*shown != '\0' && g_str_has_suffix (shown, text))
        return gtk_widget_get_last_child (g_ptr_array_index (views, i));
    }

  return NULL;
}

static gboolean
text_ends_with (gpointer data)
{
  AnswerData *d = data;

  return find_view_ending_with (d->window, d->text) != NULL;
}

/* Whether the last line of @text_view is laid out and within its height;
 * @line_height: (out): that line's height */
static gboolean
laid_out_to_end (GtkWidget *text_view,
                 int       *line_height)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
  GtkTextIter end;
  int y, height;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_iter_set_line_offset (&end, 0);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (text_view), &end, &y, &height);
  *line_height = height;

  return height > 0 && y + height <= gtk_widget_get_height (text_view);
}

/* Whether the view holding the end of the answer is laid out to its last
 * line and on screen at the bottom of the list */
static gboolean
end_shown (gpointer data)
{
  AnswerData *d = data;
  GtkWidget *last = find_view_ending_with (d->window, d->text);
  GtkWidget *scroller = find_widget (d->window, GTK_TYPE_SCROLLED_WINDOW);
  AdjData adj = { gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)) };
  graphene_point_t bottom;
  int line_height;

  return last != NULL && laid_out_to_end (last, &line_height) && at_bottom (&adj) &&
         gtk_widget_compute_point (last, scroller,
                                   &GRAPHENE_POINT_INIT (0, gtk_widget_get_height (last)), &bottom) &&
         bottom.y > 0 && bottom.y <= gtk_widget_get_height (scroller);
}

/* When frames are always due, an answer streamed past its row's first
 * height still grows its row to the end, and the view follows it. */
static void
test_frames_always_due (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  GtkWidget *scroller;
  GtkWidget *last;
  graphene_point_t bottom;
  AnswerData answer;
  AdjData d;
  int line_height;
  guint busy;

  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  apply_agent_text (transcript, "The answer starts.\n\n");
  test_wait_frames (window, 5);

  busy = g_idle_add_full (GDK_PRIORITY_REDRAW + 1, busy_cb, NULL, NULL);
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *paragraph = paragraphs (i, 1);

      apply_agent_text (transcript, paragraph);
      test_wait_frames (window, 5);
    }
  answer.window = window;
  answer.text = "Paragraph 39 of a long answer, with **bold** words.\n\n";
  WAIT_UNTIL (text_ends_with (&answer));
  WAIT_UNTIL (end_shown (&answer));

  /* the row holding the end is laid out to its end and as tall as that */
  last = find_view_ending_with (window, answer.text);
  g_assert_nonnull (last);
  g_assert_true (laid_out_to_end (last, &line_height));

  /* and the view followed it there */
  scroller = find_widget (window, GTK_TYPE_SCROLLED_WINDOW);
  d.adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_true (at_bottom (&d));
  g_assert_true (gtk_widget_compute_point (last, scroller,
                                           &GRAPHENE_POINT_INIT (0, gtk_widget_get_height (last)),
                                           &bottom));
  g_assert_cmpfloat (bottom.y, >, 0);
  g_assert_cmpfloat (bottom.y, <=, gtk_widget_get_height (scroller));

  g_source_remove (busy);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
view_laid_out (gpointer data)
{
  int line_height;

  return laid_out_to_end (data, &line_height);
}

static gboolean
narrow_view_laid_out (gpointer data)
{
  return gtk_widget_get_width (data) <= 300 && view_laid_out (data);
}

/* The same for every text view of the rows: text set past the height a
 * view was given is laid out, and the view as tall as it, also once the
 * window is narrower and the lines wrap */
static void
test_text_view_frames_always_due (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *window = make_window (scroller);
  GtkWidget *text_view = pal_text_view_new ();
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
  g_autoptr(GString) text = g_string_new (NULL);
  int line_height, wide_height;
  guint busy;

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_box_append (GTK_BOX (box), text_view);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (text_view), GTK_WRAP_WORD);
  gtk_text_buffer_set_text (buffer, "The first line", -1);
  test_wait_frames (window, 5);

  busy = g_idle_add_full (GDK_PRIORITY_REDRAW + 1, busy_cb, NULL, NULL);
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (text, "Line %u of the output of a command, in words that wrap on a narrow window\n", i);
  g_string_truncate (text, text->len - 1);
  gtk_text_buffer_set_text (buffer, text->str, -1);
  WAIT_UNTIL (view_laid_out (text_view));
  g_assert_true (laid_out_to_end (text_view, &line_height));
  wide_height = gtk_widget_get_height (text_view);
  g_assert_cmpint (wide_height, >=, 40 * line_height);

  gtk_window_set_default_size (GTK_WINDOW (window), 300, 600);
  WAIT_UNTIL (narrow_view_laid_out (text_view));
  g_assert_cmpint (gtk_widget_get_width (text_view), <=, 300);
  g_assert_true (laid_out_to_end (text_view, &line_height));
  g_assert_cmpint (gtk_widget_get_height (text_view), >, wide_height * 3 / 2);

  g_source_remove (busy);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
width_at_most_300 (gpointer data)
{
  return gtk_widget_get_width (data) <= 300;
}

static void
set_lines (GtkTextBuffer *buffer,
           guint          n_lines)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < n_lines; i++)
    g_string_append_printf (text, "%sLine %u", i > 0 ? "\n" : "", i);
  gtk_text_buffer_set_text (buffer, text->str, -1);
}

/* A text view lays out the lines it shows to be drawn ahead of its first
 * frame, and says so until its text or its width change */
static void
test_text_view_prepare_draw (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *window;
  GtkWidget *text_view = pal_text_view_new ();
  PalTextView *view = PAL_TEXT_VIEW (text_view);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_box_append (GTK_BOX (box), text_view);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (text_view), GTK_WRAP_WORD);
  set_lines (buffer, 30);

  /* not laid out: nothing to do */
  g_assert_cmpuint (pal_text_view_prepare_draw (view), ==, 0);
  g_assert_false (pal_text_view_get_prepared (view));

  window = make_window (scroller);
  WAIT_UNTIL (view_laid_out (text_view));
  g_assert_false (pal_text_view_get_prepared (view));
  g_assert_cmpuint (pal_text_view_prepare_draw (view), ==, 30);
  g_assert_true (pal_text_view_get_prepared (view));
  /* frames that change nothing keep the layouts */
  test_wait_frames (window, 5);
  g_assert_true (pal_text_view_get_prepared (view));

  gtk_text_buffer_insert_at_cursor (buffer, "\nOne line more", -1);
  g_assert_false (pal_text_view_get_prepared (view));
  WAIT_UNTIL (view_laid_out (text_view));
  g_assert_cmpuint (pal_text_view_prepare_draw (view), ==, 31);
  g_assert_true (pal_text_view_get_prepared (view));

  gtk_window_set_default_size (GTK_WINDOW (window), 300, 600);
  WAIT_UNTIL (width_at_most_300 (text_view));
  g_assert_false (pal_text_view_get_prepared (view));

  /* no more lines than GtkTextView keeps laid out for drawing */
  set_lines (buffer, 400);
  WAIT_UNTIL (view_laid_out (text_view));
  g_assert_cmpuint (pal_text_view_prepare_draw (view), ==, 200);
  g_assert_true (pal_text_view_get_prepared (view));

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
taller_than (gpointer user_data)
{
  GtkWidget **line_and_height = user_data;

  return gtk_widget_get_height (line_and_height[0]) > GPOINTER_TO_INT (line_and_height[1]);
}

static gboolean
has_height (gpointer user_data)
{
  return gtk_widget_get_height (user_data) > 0;
}

/* The width of the widest text in @node, clips left aside */
static double
text_width (GskRenderNode *node)
{
  graphene_rect_t bounds;
  double widest = 0;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXT_NODE:
      gsk_render_node_get_bounds (node, &bounds);
      return bounds.size.width;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        widest = MAX (widest, text_width (gsk_container_node_get_child (node, i)));
      return widest;
    case GSK_CLIP_NODE:
      return text_width (gsk_clip_node_get_child (node));
    case GSK_TRANSFORM_NODE:
      return text_width (gsk_transform_node_get_child (node));
    case GSK_DEBUG_NODE:
      return text_width (gsk_debug_node_get_child (node));
    default:
      return 0;
    }
}

/* The width of the text @widget draws, 0 when none */
static double
drawn_width (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  gdk_paintable_snapshot (paintable, snapshot,
                          gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);

  return node != NULL ? text_width (node) : 0;
}

/* A summary line is one line of its font source's font high, whatever its
 * text, follows that font when it changes, and draws no more of its text
 * than fits its width */
static void
test_summary_line (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label = gtk_label_new ("One line");
  GtkWidget *line = pal_summary_line_new (box, "A summary");
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();
  g_autoptr(GString) long_text = g_string_new (NULL);
  GtkWidget *window;
  gpointer line_and_height[2];
  int height, label_height, natural_width;

  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), line);
  gtk_widget_set_valign (box, GTK_ALIGN_START);
  gtk_css_provider_load_from_data (provider, ".big-text { font-size: 40px; }", -1);
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  window = make_window (box);
  WAIT_UNTIL (has_height (line));

  g_assert_cmpstr (pal_summary_line_get_text (PAL_SUMMARY_LINE (line)), ==, "A summary");
  /* as high as a label of one line, within a pixel */
  height = gtk_widget_get_height (line);
  label_height = gtk_widget_get_height (label);
  g_assert_cmpint (ABS (height - label_height), <=, 1);
  /* as wide as it is given */
  gtk_widget_measure (line, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural_width, NULL, NULL);
  g_assert_cmpint (natural_width, ==, 0);
  g_assert_cmpint (gtk_widget_get_width (line), ==, 800);

  /* a text a hundred times as wide as the line: cut, its height the same */
  for (guint i = 0; i < 200; i++)
    g_string_append (long_text, "word word ");
  pal_summary_line_set_text (PAL_SUMMARY_LINE (line), long_text->str);
  test_wait_frames (window, 5);
  g_assert_cmpint (gtk_widget_get_height (line), ==, height);
  g_assert_cmpfloat (drawn_width (line), >, 700);
  g_assert_cmpfloat (drawn_width (line), <=, 800);

  /* a short one is drawn short; none, not at all */
  pal_summary_line_set_text (PAL_SUMMARY_LINE (line), "Short");
  test_wait_frames (window, 5);
  g_assert_cmpfloat (drawn_width (line), >, 0);
  g_assert_cmpfloat (drawn_width (line), <, 200);
  pal_summary_line_set_text (PAL_SUMMARY_LINE (line), NULL);
  test_wait_frames (window, 5);
  g_assert_null (pal_summary_line_get_text (PAL_SUMMARY_LINE (line)));
  g_assert_cmpfloat (drawn_width (line), ==, 0);

  /* the font grows: so does the line */
  gtk_widget_add_css_class (box, "big-text");
  line_and_height[0] = line;
  line_and_height[1] = GINT_TO_POINTER (2 * height);
  WAIT_UNTIL (taller_than (line_and_height));
  g_assert_cmpint (ABS (gtk_widget_get_height (line) - gtk_widget_get_height (label)), <=, 1);

  gtk_style_context_remove_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider));
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GtkWidget  *window;
  const char *text;
} LabelData;

static gboolean
label_shown (gpointer data)
{
  LabelData *d = data;

  return has_label (d->window, d->text);
}

/* The accessible names of the chips of the first message row, joined by
 * " | ", once no image is being decoded; NULL until there is such a row */
static char *
chip_names (GtkWidget *window)
{
  GtkWidget *row = find_descendant (window, PAL_TYPE_MESSAGE_ROW);
  PalMessageAttachments *chips;
  g_autoptr(GString) names = g_string_new (NULL);
  GtkWidget *chip;

  if (row == NULL)
    return NULL;
  chips = pal_message_row_get_attachments (PAL_MESSAGE_ROW (row));
  if (pal_message_attachments_get_n_decoding (chips) > 0)
    return NULL;
  for (guint i = 0; (chip = pal_message_attachments_get_chip (chips, i)) != NULL; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? " | " : "", pal_message_attachments_get_chip_name (chip));

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static gboolean
chips_shown (GtkWidget  *window,
             const char *expected)
{
  g_autofree char *names = chip_names (window);

  return g_strcmp0 (names, expected) == 0;
}

/* A message's blocks that are not text are shown below it, as they come;
 * a plan counts what is done, a status it does not know as not done */
static void
test_attachments_and_plan (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  LabelData d = { window, "Plan (1 of 2 done)" };

  apply (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"text\",\"text\":\"See\"}}");
  apply (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"resource_link\","
                     "\"uri\":\"file:///p/notes.txt\",\"name\":\"notes.txt\"}}");
  apply (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"image\","
                     "\"data\":\"AA==\",\"mimeType\":\"image/png\"}}");
  apply (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":["
                     "{\"content\":\"Read\",\"priority\":\"high\",\"status\":\"completed\"},"
                     "{\"content\":\"Wait\",\"priority\":\"urgent\",\"status\":\"blocked\"}]}");
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  WAIT_UNTIL (chips_shown (window, "Attached file notes.txt | Broken image"));
  WAIT_UNTIL (label_shown (&d));
  g_assert_true (has_label (window, "Wait"));

  /* one more, to the message on screen */
  apply (transcript, "{\"sessionUpdate\":\"user_message_chunk\",\"messageId\":\"m1\",\"content\":{\"type\":\"resource\","
                     "\"resource\":{\"uri\":\"file:///p/b.c\",\"text\":\"int b;\"}}}");
  WAIT_UNTIL (chips_shown (window, "Attached file notes.txt | Broken image | Attached file b.c"));

  /* the plan replaced */
  apply (transcript, "{\"sessionUpdate\":\"plan\",\"entries\":["
                     "{\"content\":\"Read\",\"priority\":\"high\",\"status\":\"completed\"},"
                     "{\"content\":\"Wait\",\"priority\":\"urgent\",\"status\":\"completed\"}]}");
  d.text = "Plan (2 of 2 done)";
  WAIT_UNTIL (label_shown (&d));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The text of @buffer that @tag_name is on first, or NULL */
static char *
tagged_text (GtkTextBuffer *buffer,
             const char    *tag_name)
{
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), tag_name);
  GtkTextIter start, end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (tag == NULL || (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag)))
    return NULL;
  end = start;
  gtk_text_iter_forward_to_tag_toggle (&end, tag);

  return gtk_text_iter_get_text (&start, &end);
}

/* Found in a message with a code block: the matches are marked in every
 * part of it, the text and the code, and the one asked for is current */
static void
test_reveal_in_parts (void)
{
  static const char *text =
    "Call `greet` first:\n"
    "\n"
    "```c\n"
    "greet (\"world\");\n"
    "```\n"
    "\n"
    "Then greet again.\n";
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window;
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  GtkWidget *row;
  guint with_match = 0;
  g_autofree char *current = NULL;
  GtkTextBuffer *code_buffer;

  apply_agent_text (transcript, text);
  acp_transcript_flush (transcript);
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  window = make_window (view);

  /* the second "greet": the one in the code */
  pal_chat_view_reveal (PAL_CHAT_VIEW (view), 0, strstr (text, "greet (") - text, "greet");
  WAIT_UNTIL (pal_chat_view_get_revealed (PAL_CHAT_VIEW (view)) != NULL);
  row = pal_chat_view_get_revealed (PAL_CHAT_VIEW (view));
  collect (row, GTK_TYPE_TEXT_VIEW, views);
  g_assert_cmpuint (views->len, ==, 3);
  for (guint i = 0; i < views->len; i++)
    {
      g_autofree char *match = tagged_text (gtk_text_view_get_buffer (g_ptr_array_index (views, i)), "find-match");

      if (match != NULL && g_ascii_strcasecmp (match, "greet") == 0)
        with_match++;
    }
  g_assert_cmpuint (with_match, ==, 3);

  code_buffer = gtk_text_view_get_buffer (g_ptr_array_index (views, 1));
  g_assert_true (GTK_SOURCE_IS_BUFFER (code_buffer));
  current = tagged_text (code_buffer, "find-current");
  g_assert_cmpstr (current, ==, "greet");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether the view shows @transcript's end in full: every row in the list,
 * at the bottom, rows on screen and no summary among them */
static gboolean
end_shown_in_full (GtkWidget *view)
{
  GtkWidget *scroller = find_widget (view, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

  return pal_chat_view_get_caught_up (PAL_CHAT_VIEW (view)) &&
         count_widgets (view, PAL_TYPE_TOOL_CALL_ROW) > 0 &&
         !summary_on_screen (view, scroller) &&
         gtk_adjustment_get_value (adjustment) >=
           gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 1;
}

/* A long transcript set on the view (a stored session opened): every
 * earlier item comes back in the list at once, and the frame after the
 * one that lays out the end makes the rows on screen full, whatever that
 * costs; the rows off screen come after. Four frames here; a few rows
 * first, ten items back a frame and the rows on screen within the frame
 * budget took eight to ten. */
/* Turns @from to @to of a history: a question, an answer, a tool call */
static void
apply_turns (AcpTranscript *transcript,
             guint          from,
             guint          to)
{
  for (guint i = from; i < to; i++)
    {
      g_autofree char *user = g_strdup_printf ("{\"sessionUpdate\":\"user_message_chunk\",\"content\":"
                                               "{\"type\":\"text\",\"text\":\"Question %u\"}}", i);
      g_autofree char *agent = g_strdup_printf ("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":"
                                                "{\"type\":\"text\",\"text\":\"Answer %u, with **Markdown**"
                                                " that takes a line or two.\"}}", i);
      g_autofree char *tool = g_strdup_printf ("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t%u\","
                                               "\"title\":\"Read file %u\",\"kind\":\"read\","
                                               "\"status\":\"completed\"}", i, i);

      apply (transcript, user);
      apply (transcript, agent);
      apply (transcript, tool);
    }
  acp_transcript_flush (transcript);
}

static void
test_open_long (void)
{
  g_autoptr(AcpTranscript) transcript = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  guint frames = 0;

  apply_turns (transcript, 0, 400);
  test_wait_frames (window, 2);

  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (transcript));
  while (!end_shown_in_full (view) && frames < 10)
    {
      test_wait_frames (window, 1);
      frames++;
    }
  g_assert_true (end_shown_in_full (view));
  g_assert_cmpuint (frames, <=, 5);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The bottom row of the list: a tool call row, whose item is returned */
static AcpToolCallItem *
last_tool_call_shown (GtkWidget  *view,
                      GtkWidget **row)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect (view, PAL_TYPE_TOOL_CALL_ROW, rows);
  g_assert_cmpuint (rows->len, >, 0);
  *row = g_ptr_array_index (rows, rows->len - 1);

  return pal_tool_call_row_get_item (PAL_TOOL_CALL_ROW (*row));
}

static void
count_removed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  *count += removed;
}

/* A history shown from its end gets its earlier turns in front: the rows on
 * screen stay as they are (no flood, the list view not told until they come
 * back as hidden items do), and then every item is in the list, the view
 * still at the end. */
static void
test_prepend_earlier (void)
{
  g_autoptr(AcpTranscript) later = acp_transcript_new ();
  g_autoptr(AcpTranscript) earlier = acp_transcript_new ();
  GtkWidget *view = pal_chat_view_new ();
  GtkWidget *window = make_window (view);
  GListModel *shown = NULL;
  GtkWidget *row = NULL, *row_after = NULL;
  AcpToolCallItem *bottom;
  guint removed = 0, frames = 0, n_shown;

  acp_transcript_keep_gaps (later);
  apply_turns (later, 400, 430);
  apply_turns (earlier, 0, 400);
  pal_chat_view_set_model (PAL_CHAT_VIEW (view), G_LIST_MODEL (later));
  while (!end_shown_in_full (view) && frames++ < 10)
    test_wait_frames (window, 1);
  g_assert_true (end_shown_in_full (view));
  test_wait_frames (window, 2);

  bottom = last_tool_call_shown (view, &row);
  g_assert_cmpstr (acp_tool_call_item_get_title (bottom), ==, "Read file 429");
  shown = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (find_widget (view, GTK_TYPE_LIST_VIEW))));
  n_shown = g_list_model_get_n_items (shown);
  g_signal_connect (shown, "items-changed", G_CALLBACK (count_removed_cb), &removed);

  g_assert_true (acp_transcript_can_follow (later, earlier));
  acp_transcript_prepend (later, earlier);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, n_shown);
  g_assert_false (pal_chat_view_get_caught_up (PAL_CHAT_VIEW (view)));

  frames = 0;
  while (!end_shown_in_full (view) && frames++ < 20)
    test_wait_frames (window, 1);
  g_assert_true (end_shown_in_full (view));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 3 * 430);
  g_assert_cmpuint (removed, ==, 0);
  g_assert_true (pal_chat_view_get_stick_to_bottom (PAL_CHAT_VIEW (view)));
  g_assert_true (last_tool_call_shown (view, &row_after) == bottom);
  g_assert_true (row_after == row);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  test_tolerate_scroll_warning ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/chat-view/rows-per-kind", test_rows_per_kind);
  g_test_add_func ("/chat-view/attachments-and-plan", test_attachments_and_plan);
  g_test_add_func ("/chat-view/stick-to-bottom", test_stick_to_bottom);
  g_test_add_func ("/chat-view/open-long", test_open_long);
  g_test_add_func ("/chat-view/prepend-earlier", test_prepend_earlier);
  g_test_add_func ("/chat-view/prompt-sent", test_prompt_sent);
  g_test_add_func ("/chat-view/flood", test_flood);
  g_test_add_func ("/chat-view/flood-long-line", test_flood_long_line);
  g_test_add_func ("/chat-view/expected-flood", test_expected_flood);
  g_test_add_func ("/chat-view/long-answer", test_long_answer);
  g_test_add_func ("/chat-view/earlier-answer-whole", test_earlier_answer_whole);
  g_test_add_func ("/chat-view/pouring-text", test_pouring_text);
  g_test_add_func ("/chat-view/reveal-in-parts", test_reveal_in_parts);
  g_test_add_func ("/chat-view/frames-always-due", test_frames_always_due);
  g_test_add_func ("/text-view/frames-always-due", test_text_view_frames_always_due);
  g_test_add_func ("/text-view/prepare-draw", test_text_view_prepare_draw);
  g_test_add_func ("/summary-line/one-line", test_summary_line);

  return g_test_run ();
}
