/* test-plan-row.c: the agent's plan as a checklist, Markdown text or a file,
 * and removed, in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "acp-plan-item.h"
#include "acp-transcript.h"
#include "pal-markdown-view.h"
#include "pal-plan-row.h"
#include "find-descendant.h"
#include "test-util.h"

typedef struct
{
  AcpTranscript *transcript;
  GtkWidget     *window;
  GtkWidget     *row;
} Fixture;

static void
apply (Fixture    *f,
       const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (node);
  g_assert_true (acp_transcript_apply_update (f->transcript, json_node_get_object (node), &error));
  g_assert_no_error (error);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* The row of the transcript's first item (a plan), in a window */
static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  AcpItem *item;

  f->transcript = acp_transcript_new ();
  apply (f, data);
  acp_transcript_flush (f->transcript);
  item = g_list_model_get_item (G_LIST_MODEL (f->transcript), 0);
  g_assert_true (ACP_IS_PLAN_ITEM (item));

  f->row = pal_plan_row_new (ACP_PLAN_ITEM (item));
  g_object_unref (item);
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 600, 400);
  gtk_window_set_child (GTK_WINDOW (f->window), f->row);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (is_mapped (f->row));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->transcript);
}

static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget) && *gtk_label_get_text (GTK_LABEL (widget)) != '\0')
    g_string_append_printf (out, "%s%s", out->len > 0 ? "|" : "", gtk_label_get_text (GTK_LABEL (widget)));

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

/* The text of the labels shown, in order, joined with "|" */
static char *
shown_labels (GtkWidget *row)
{
  GString *out = g_string_new (NULL);

  collect_labels (row, out);
  return g_string_free (out, FALSE);
}

/* The visible widget of @type in @row, or NULL */
static GtkWidget *
find_shown (GtkWidget *row,
            GType      type)
{
  GtkWidget *found = find_descendant (row, type);

  for (GtkWidget *up = found; up != NULL && up != row; up = gtk_widget_get_parent (up))
    {
      if (!gtk_widget_get_visible (up))
        return NULL;
    }

  return found;
}

#define ITEMS_P1 \
  "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"items\",\"planId\":\"p1\",\"entries\":[" \
  "{\"content\":\"Read\",\"priority\":\"high\",\"status\":\"completed\"}," \
  "{\"content\":\"Write\",\"priority\":\"high\",\"status\":\"pending\"}]}}"
#define MARKDOWN_P1 \
  "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"markdown\",\"planId\":\"p1\"," \
  "\"content\":\"1. **Read** the code\\n2. Write\"}}"

/* Markdown text is rendered; the same plan turned into entries is a
 * checklist again, in the same row */
static void
test_markdown (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *labels = NULL;
  GtkWidget *view = find_shown (f->row, PAL_TYPE_MARKDOWN_VIEW);

  g_assert_nonnull (view);
  g_assert_cmpstr (pal_markdown_view_get_text (PAL_MARKDOWN_VIEW (view)), ==,
                   "1. **Read** the code\n2. Write");
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan");

  apply (f, ITEMS_P1);
  g_assert_null (find_shown (f->row, PAL_TYPE_MARKDOWN_VIEW));
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan (1 of 2 done)|Read|Write");

  /* and back */
  apply (f, MARKDOWN_P1);
  g_assert_true (find_shown (f->row, PAL_TYPE_MARKDOWN_VIEW) == view);
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan");
}

static gboolean
has_error (gpointer data)
{
  g_autofree char *labels = shown_labels (data);

  return strstr (labels, "The file could not be opened: ") != NULL;
}

/* A local file is a button named after it that opens it (here it does not
 * exist, which the row says); another URI is only text */
static void
test_file (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *labels = NULL;
  GtkWidget *button = find_shown (f->row, GTK_TYPE_BUTTON);

  g_assert_nonnull (button);
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan|no such plan.md");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Open /nonexistent/no such plan.md");

  g_signal_emit_by_name (button, "clicked");
  WAIT_UNTIL (has_error (f->row));

  apply (f, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"file\",\"planId\":\"p1\","
            "\"uri\":\"https://example.com/plan.md\"}}");
  g_assert_null (find_shown (f->row, GTK_TYPE_BUTTON));
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan|https://example.com/plan.md");

  /* not a file name, though a file URI */
  apply (f, "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"file\",\"planId\":\"p1\","
            "\"uri\":\"file://host/plan.md\"}}");
  g_assert_null (find_shown (f->row, GTK_TYPE_BUTTON));
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan|file://host/plan.md");
}

/* A removed plan stays, dimmed, its entries collapsed */
static void
test_removed (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *labels = shown_labels (f->row);

  g_assert_cmpstr (labels, ==, "Plan (1 of 2 done)|Read|Write");
  g_assert_false (gtk_widget_has_css_class (f->row, "removed"));

  apply (f, "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p1\"}");
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan removed");
  g_assert_true (gtk_widget_has_css_class (f->row, "removed"));
  g_assert_true (gtk_widget_has_css_class (adw_bin_get_child (ADW_BIN (f->row)), "dim-label"));
  g_assert_true (gtk_widget_get_mapped (f->row));
}

/* A Markdown plan removed shows its text no more either */
static void
test_removed_markdown (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *labels = NULL;

  g_assert_nonnull (find_shown (f->row, PAL_TYPE_MARKDOWN_VIEW));
  apply (f, "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p1\"}");
  g_assert_null (find_shown (f->row, PAL_TYPE_MARKDOWN_VIEW));
  labels = shown_labels (f->row);
  g_assert_cmpstr (labels, ==, "Plan removed");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/plan-row/markdown", Fixture, MARKDOWN_P1,
              fixture_set_up, test_markdown, fixture_tear_down);
  g_test_add ("/plan-row/file", Fixture,
              "{\"sessionUpdate\":\"plan_update\",\"plan\":{\"type\":\"file\",\"planId\":\"p1\","
              "\"uri\":\"file:///nonexistent/no%20such%20plan.md\"}}",
              fixture_set_up, test_file, fixture_tear_down);
  g_test_add ("/plan-row/removed", Fixture, ITEMS_P1,
              fixture_set_up, test_removed, fixture_tear_down);
  g_test_add ("/plan-row/removed-markdown", Fixture, MARKDOWN_P1,
              fixture_set_up, test_removed_markdown, fixture_tear_down);

  return g_test_run ();
}
