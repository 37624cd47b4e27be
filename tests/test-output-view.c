/* test-output-view.c: a tool's output, capped, in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "find-descendant.h"
#include "pal-line-cut.h"
#include "pal-output-view.h"
#include "test-util.h"

static char *
numbered_lines (guint from,
                guint to)
{
  GString *text = g_string_new (NULL);

  for (guint i = from; i < to; i++)
    g_string_append_printf (text, "line %u\n", i);

  return g_string_free (text, FALSE);
}

/* A window with @child at the top of a scrolled column, as in the chat */
static GtkWidget *
make_window (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *spacer = gtk_label_new ("after");

  gtk_widget_set_size_request (spacer, -1, 3000);
  gtk_box_append (GTK_BOX (box), child);
  gtk_box_append (GTK_BOX (box), spacer);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 500);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

static GtkAdjustment *
inner_adjustment (GtkWidget *view)
{
  GtkWidget *scroller = find_descendant (view, GTK_TYPE_SCROLLED_WINDOW);

  g_assert_nonnull (scroller);
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
}

static int
text_height (GtkWidget *view)
{
  GtkWidget *text_view = GTK_WIDGET (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view)));
  int natural;

  gtk_widget_measure (text_view, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (text_view),
                      NULL, &natural, NULL, NULL);
  return natural;
}

/* Laid out as it asks, and known to overflow */
static gboolean
overflows (gpointer data)
{
  GtkWidget *view = data;
  int natural;

  if (!pal_output_view_get_overflows (data) || gtk_widget_get_width (view) == 0)
    return FALSE;
  gtk_widget_measure (view, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (view), NULL, &natural, NULL, NULL);

  return gtk_widget_get_height (view) == natural;
}

typedef struct
{
  GtkWidget *widget;
  int        height;
} HeightData;

static gboolean
taller_than (gpointer data)
{
  HeightData *d = data;

  return gtk_widget_get_height (d->widget) > d->height;
}

static gboolean
shorter_than (gpointer data)
{
  HeightData *d = data;

  return gtk_widget_get_height (d->widget) > 0 && gtk_widget_get_height (d->widget) < d->height;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *action_name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_ACTIONABLE (child) &&
          g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (child)), action_name) == 0)
        return child;
      found = find_button (child, action_name);
      if (found != NULL)
        return found;
    }

  return NULL;
}

/* 600 lines take the room of PAL_OUTPUT_VIEW_LINES, until shown all */
static void
test_capped (void)
{
  g_autofree char *text = numbered_lines (0, 600);
  GtkWidget *view = pal_output_view_new ();
  GtkWidget *window;
  GtkWidget *show_all;
  HeightData d = { view, 0 };
  int full, capped, minimum;

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), text, -1);
  window = make_window (view);
  WAIT_UNTIL (overflows (view));

  full = text_height (view);
  capped = gtk_widget_get_height (view);
  g_assert_cmpint (full, >, 600 * 10);
  /* the lines shown and the footer, about 20 lines in all */
  g_assert_cmpint (capped, <, full / 20);
  g_assert_cmpint (capped, >, full / 600 * PAL_OUTPUT_VIEW_LINES);
  gtk_widget_measure (view, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (view), &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, ==, capped);

  show_all = find_button (view, "output.show-all");
  g_assert_nonnull (show_all);
  g_assert_true (gtk_widget_get_mapped (show_all));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (show_all)), ==, "Show All");

  /* all of it, then back */
  g_assert_true (gtk_widget_activate_action (view, "output.show-all", NULL));
  g_assert_true (pal_output_view_get_expanded (PAL_OUTPUT_VIEW (view)));
  d.height = full;
  WAIT_UNTIL (taller_than (&d));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (show_all)), ==, "Show Less");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (show_all)));

  pal_output_view_set_expanded (PAL_OUTPUT_VIEW (view), FALSE);
  d.height = capped + 1;
  WAIT_UNTIL (shorter_than (&d));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (show_all)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* A short output is shown whole, with Copy but no Show All */
static void
test_short (void)
{
  GtkWidget *view = pal_output_view_new ();
  GtkWidget *window;
  GtkWidget *copy;

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), "one\ntwo\nthree\n", -1);
  window = make_window (view);
  copy = find_button (view, "output.copy");
  g_assert_nonnull (copy);
  WAIT_UNTIL (mapped (copy));

  g_assert_false (pal_output_view_get_overflows (PAL_OUTPUT_VIEW (view)));
  g_assert_false (gtk_widget_get_visible (find_button (view, "output.show-all")));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view)))),
                   ==, text_height (view));

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GtkAdjustment *adjustment;
  double         upper;
} AdjData;

static gboolean
at_end (gpointer data)
{
  AdjData *d = data;
  GtkAdjustment *adjustment = d->adjustment;
  double upper = gtk_adjustment_get_upper (adjustment);

  return upper > d->upper &&
         upper > gtk_adjustment_get_page_size (adjustment) &&
         gtk_adjustment_get_value (adjustment) >= upper - gtk_adjustment_get_page_size (adjustment) - 1;
}

static gboolean
grew (gpointer data)
{
  AdjData *d = data;

  return gtk_adjustment_get_upper (d->adjustment) > d->upper;
}

/* While it follows, the end stays in view as output comes; scrolled up,
 * it stays where the person put it */
static void
test_follow (void)
{
  g_autofree char *first = numbered_lines (0, 100);
  g_autofree char *second = numbered_lines (100, 200);
  g_autofree char *third = numbered_lines (200, 300);
  GtkWidget *view = pal_output_view_new ();
  GtkWidget *window;
  AdjData d = { NULL, 0 };

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), first, -1);
  pal_output_view_set_follow (PAL_OUTPUT_VIEW (view), TRUE);
  window = make_window (view);
  d.adjustment = inner_adjustment (view);
  WAIT_UNTIL (at_end (&d));

  d.upper = gtk_adjustment_get_upper (d.adjustment);
  pal_output_view_append (PAL_OUTPUT_VIEW (view), second, -1);
  WAIT_UNTIL (at_end (&d));

  /* the person scrolls up: more output does not move it */
  gtk_adjustment_set_value (d.adjustment, 10);
  d.upper = gtk_adjustment_get_upper (d.adjustment);
  pal_output_view_append (PAL_OUTPUT_VIEW (view), third, -1);
  WAIT_UNTIL (grew (&d));
  g_assert_cmpfloat (gtk_adjustment_get_value (d.adjustment), ==, 10);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Scrolling on past the end of the output scrolls what is around it */
static void
test_scroll_past_end (void)
{
  g_autofree char *text = numbered_lines (0, 100);
  GtkWidget *view = pal_output_view_new ();
  GtkWidget *window;
  GtkWidget *inner;
  GtkAdjustment *outer;
  g_autoptr(GListModel) controllers = NULL;
  AdjData d = { NULL, 0 };
  gboolean handled = FALSE;
  double before;

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), text, -1);
  pal_output_view_set_follow (PAL_OUTPUT_VIEW (view), TRUE);
  window = make_window (view);
  d.adjustment = inner_adjustment (view);
  WAIT_UNTIL (at_end (&d));

  inner = find_descendant (view, GTK_TYPE_SCROLLED_WINDOW);
  outer = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (gtk_window_get_child (GTK_WINDOW (window))));
  before = gtk_adjustment_get_value (outer);
  controllers = gtk_widget_observe_controllers (inner);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      gboolean stop = FALSE;

      /* the scrolled window's own capture controller lets it through */
      if (GTK_IS_EVENT_CONTROLLER_SCROLL (controller) &&
          gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE)
        g_signal_emit_by_name (controller, "scroll", 0.0, 1.0, &stop);
      handled |= stop;
    }
  g_assert_true (handled);
  g_assert_cmpfloat (gtk_adjustment_get_value (outer), >, before);

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  char     *text;
  gboolean  done;
} ReadData;

static void
read_text_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ReadData *d = user_data;
  g_autoptr(GError) error = NULL;

  d->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
  d->done = TRUE;
}

static gboolean
read_done (gpointer data)
{
  return ((ReadData *) data)->done;
}

static void
test_copy (void)
{
  GtkWidget *view = pal_output_view_new ();
  GtkWidget *window;
  ReadData d = { NULL, FALSE };

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), "Echo: hi over mcp\n", -1);
  window = make_window (view);
  g_assert_true (gtk_widget_activate_action (view, "output.copy", NULL));

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (view), NULL, read_text_cb, &d);
  WAIT_UNTIL (read_done (&d));
  g_assert_cmpstr (d.text, ==, "Echo: hi over mcp\n");
  g_free (d.text);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A huge text is cut, and says how much is not shown */
static void
test_cut (void)
{
  GtkWidget *view = g_object_ref_sink (pal_output_view_new ());
  g_autofree char *text = g_malloc (2 * 1024 * 1024 + 1);
  g_autofree char *shown = NULL;
  GtkWidget *label;

  memset (text, 'x', 2 * 1024 * 1024);
  text[2 * 1024 * 1024] = '\0';
  /* a character across the cut */
  memcpy (text + 256 * 1024 - 1, "é", 2);

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), text, -1);
  shown = pal_output_view_dup_text (PAL_OUTPUT_VIEW (view));
  g_assert_cmpuint (strlen (shown), ==, 256 * 1024 - 1);
  g_assert_true (g_utf8_validate (shown, -1, NULL));

  label = find_descendant (view, GTK_TYPE_LABEL);
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "more not shown"));

  /* appended output drops its oldest part */
  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), "", 0);
  g_assert_false (gtk_widget_get_visible (label));
  pal_output_view_append (PAL_OUTPUT_VIEW (view), text, 512 * 1024);
  g_assert_cmpint (gtk_text_buffer_get_char_count (gtk_text_view_get_buffer (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view)))),
                   ==, 256 * 1024);
  g_assert_true (gtk_widget_get_visible (label));

  g_object_unref (view);
}

/* The longest line of the buffer, in characters */
static int
longest_line (GtkWidget *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view)));
  int longest = 0;

  for (int i = 0; i < gtk_text_buffer_get_line_count (buffer); i++)
    {
      GtkTextIter iter;

      gtk_text_buffer_get_iter_at_line (buffer, &iter, i);
      if (!gtk_text_iter_ends_line (&iter))
        gtk_text_iter_forward_to_line_end (&iter);
      longest = MAX (longest, gtk_text_iter_get_line_offset (&iter));
    }

  return longest;
}

/* A long line shows in pieces, set or streamed; its text is the same */
static void
test_long_lines (void)
{
  GtkWidget *view = g_object_ref_sink (pal_output_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view)));
  g_autoptr(GString) text = g_string_new (NULL);
  char *shown;

  for (guint i = 0; i < 5000; i++)
    g_string_append (text, i % 100 == 99 ? "é" : "x");
  g_string_append (text, "\nshort\n");
  for (guint i = 0; i < 3000; i++)
    g_string_append_c (text, 'y');

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), text->str, -1);
  /* 5000 characters in three pieces, "short", 3000 in two */
  g_assert_cmpint (gtk_text_buffer_get_line_count (buffer), ==, 6);
  g_assert_cmpint (longest_line (view), ==, PAL_LINE_CUT_MAX_CHARS);
  shown = pal_output_view_dup_text (PAL_OUTPUT_VIEW (view));
  g_assert_cmpstr (shown, ==, text->str);
  g_free (shown);

  /* streamed a piece at a time, the line goes on where it stopped */
  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), "", 0);
  g_string_truncate (text, 0);
  for (guint i = 0; i < 30; i++)
    {
      const char *piece = i % 10 == 9 ? "a piece\n" : "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
                                                     "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
                                                     "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
                                                     "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
                                                     "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";

      for (guint j = 0; j < (i % 10 == 9 ? 1 : 4); j++)
        {
          pal_output_view_append (PAL_OUTPUT_VIEW (view), piece, -1);
          g_string_append (text, piece);
        }
    }
  g_assert_cmpint (longest_line (view), <=, PAL_LINE_CUT_MAX_CHARS);
  /* each of the three lines of some 10000 characters in five pieces */
  g_assert_cmpint (gtk_text_buffer_get_line_count (buffer), ==, 3 * 5 + 1);
  shown = pal_output_view_dup_text (PAL_OUTPUT_VIEW (view));
  g_assert_cmpstr (shown, ==, text->str);
  g_free (shown);

  /* a selection copied is the text too */
  {
    GtkWidget *window = make_window (view);
    GtkTextIter start, end;
    ReadData d = { NULL, FALSE };

    gtk_text_buffer_get_bounds (buffer, &start, &end);
    gtk_text_buffer_select_range (buffer, &start, &end);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view))),
                                               "clipboard.copy", NULL));
    gdk_clipboard_read_text_async (gtk_widget_get_clipboard (view), NULL, read_text_cb, &d);
    WAIT_UNTIL (read_done (&d));
    g_assert_cmpstr (d.text, ==, text->str);
    g_free (d.text);
    gtk_window_destroy (GTK_WINDOW (window));
  }

  g_object_unref (view);
}

static void
count_insert_cb (GtkTextBuffer *buffer,
                 GtkTextIter   *iter,
                 const char    *text,
                 int            length,
                 guint         *count)
{
  (*count)++;
}

/* An output sent whole again and again as it grows: what is new is added */
static void
test_update_text (void)
{
  GtkWidget *view = g_object_ref_sink (pal_output_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view)));
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  guint inserts = 0;

  pal_output_view_update_text (PAL_OUTPUT_VIEW (view), "one\n");
  a = pal_output_view_dup_text (PAL_OUTPUT_VIEW (view));
  /* no empty line after the last */
  g_assert_cmpstr (a, ==, "one");

  g_signal_connect (buffer, "insert-text", G_CALLBACK (count_insert_cb), &inserts);
  pal_output_view_update_text (PAL_OUTPUT_VIEW (view), "one\ntwo\n");
  b = pal_output_view_dup_text (PAL_OUTPUT_VIEW (view));
  g_assert_cmpstr (b, ==, "one\ntwo");
  g_assert_cmpuint (inserts, ==, 1);
  pal_output_view_update_text (PAL_OUTPUT_VIEW (view), "one\ntwo");
  g_assert_cmpuint (inserts, ==, 1);

  pal_output_view_update_text (PAL_OUTPUT_VIEW (view), "other");
  c = pal_output_view_dup_text (PAL_OUTPUT_VIEW (view));
  g_assert_cmpstr (c, ==, "other");

  g_object_unref (view);
}

/* Every character of @buffer has a tag that turns hyphens off, and none
 * that turns them on */
static gboolean
never_hyphenated (GtkTextBuffer *buffer)
{
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  while (!gtk_text_iter_is_end (&iter))
    {
      g_autoptr(GSList) tags = gtk_text_iter_get_tags (&iter);
      gboolean off = FALSE;

      for (GSList *l = tags; l != NULL; l = l->next)
        {
          gboolean set = FALSE, hyphens = TRUE;

          g_object_get (l->data, "insert-hyphens-set", &set, "insert-hyphens", &hyphens, NULL);
          if (set && hyphens)
            return FALSE;
          off |= set;
        }
      if (!off)
        return FALSE;
      gtk_text_iter_forward_char (&iter);
    }

  return TRUE;
}

/* Output (a command's, a file) is never hyphenated where it wraps, set or
 * added to */
static void
test_no_hyphens (void)
{
  GtkWidget *view = g_object_ref_sink (pal_output_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (pal_output_view_get_text_view (PAL_OUTPUT_VIEW (view)));

  pal_output_view_set_text (PAL_OUTPUT_VIEW (view), "cc -fsanitize=address -o hello hello.c\n", -1);
  g_assert_true (never_hyphenated (buffer));
  pal_output_view_append (PAL_OUTPUT_VIEW (view), "printf(\"hello, world\")\n", -1);
  g_assert_true (never_hyphenated (buffer));
  pal_output_view_update_text (PAL_OUTPUT_VIEW (view), "something else entirely");
  g_assert_true (never_hyphenated (buffer));

  g_object_unref (view);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/output-view/capped", test_capped);
  g_test_add_func ("/output-view/short", test_short);
  g_test_add_func ("/output-view/follow", test_follow);
  g_test_add_func ("/output-view/scroll-past-end", test_scroll_past_end);
  g_test_add_func ("/output-view/copy", test_copy);
  g_test_add_func ("/output-view/cut", test_cut);
  g_test_add_func ("/output-view/update-text", test_update_text);
  g_test_add_func ("/output-view/long-lines", test_long_lines);
  g_test_add_func ("/output-view/no-hyphens", test_no_hyphens);

  return g_test_run ();
}
