/* test-code-block.c: code blocks and diffs: language, Copy, scrolling, colours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "pal-code-block.h"
#include "pal-code-view.h"
#include "pal-diff-view.h"
#include "test-util.h"

static GtkWidget *
make_window (GtkWidget *child,
             int        width)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, 400);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

static void
set_style (AdwColorScheme scheme)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();

  adw_style_manager_set_color_scheme (manager, scheme);
  WAIT_UNTIL (adw_style_manager_get_dark (manager) == (scheme == ADW_COLOR_SCHEME_FORCE_DARK));
}

/* What the fence says is what the header says, and the code is
 * highlighted as that */
static void
test_language (void)
{
  static const struct
  {
    const char *info;
    const char *language;   /* its id, or NULL */
    const char *label;      /* without a language; else its name */
  } cases[] = {
    { "c", "c", NULL },
    { "python", "python3", NULL },
    { "py", "python3", NULL },
    { "bash", "sh", NULL },
    { "Rust", "rust", NULL },
    { "main.rs", "rust", NULL },
    { "c++", "cpp", NULL },
    { "ts", "typescript", NULL },
    { "json title=\"x\"", "json", NULL },
    { "nosuchlanguage", NULL, "nosuchlanguage" },
    { NULL, NULL, "Code" },
    { "", NULL, "Code" },
  };
  GtkWidget *block = g_object_ref_sink (pal_code_block_new ());

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PalCodeView *view = pal_code_block_get_view (PAL_CODE_BLOCK (block));
      GtkSourceLanguage *language;

      pal_code_block_set_code (PAL_CODE_BLOCK (block), cases[i].info, "x = 1\n", -1);
      language = pal_code_view_get_language (view);
      g_assert_cmpstr (language != NULL ? gtk_source_language_get_id (language) : NULL, ==, cases[i].language);
      g_assert_cmpstr (pal_code_block_get_label (PAL_CODE_BLOCK (block)), ==,
                       language != NULL ? gtk_source_language_get_name (language) : cases[i].label);
      g_assert_false (pal_code_view_get_diff (view));
      /* the line break that ends the code makes no empty line */
      g_assert_cmpstr (pal_code_block_get_code (PAL_CODE_BLOCK (block)), ==, "x = 1");
    }

  /* a diff is tinted line by line, not highlighted by a language */
  pal_code_block_set_code (PAL_CODE_BLOCK (block), "diff", "-a\n+b\n", -1);
  g_assert_true (pal_code_view_get_diff (pal_code_block_get_view (PAL_CODE_BLOCK (block))));
  g_assert_null (pal_code_view_get_language (pal_code_block_get_view (PAL_CODE_BLOCK (block))));
  g_assert_cmpstr (pal_code_block_get_label (PAL_CODE_BLOCK (block)), ==, "Diff");

  g_object_unref (block);
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

/* The clipboard of @widget, read back */
static char *
read_clipboard (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, read_text_cb, &text);
  WAIT_UNTIL (text != NULL);

  return text;
}

/* Copy puts the code on the clipboard, as it is; the button says so */
static void
test_copy (void)
{
  static const char *code = "if [ -n \"$x\" ]; then\n  echo \"-fsanitize=address\"\nfi\n";
  GtkWidget *block = pal_code_block_new ();
  GtkWidget *window = make_window (block, 600);
  GtkWidget *button = pal_code_block_get_copy_button (PAL_CODE_BLOCK (block));
  g_autofree char *copied = NULL;

  pal_code_block_set_code (PAL_CODE_BLOCK (block), "sh", code, -1);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (block), "something else");
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (button)), ==, "edit-copy-symbolic");

  g_signal_emit_by_name (button, "clicked");
  copied = read_clipboard (block);
  g_assert_cmpstr (copied, ==, "if [ -n \"$x\" ]; then\n  echo \"-fsanitize=address\"\nfi");
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (button)), ==, "object-select-symbolic");

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
scrolls_sideways (GtkScrolledWindow *scroller)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_hadjustment (scroller);

  return gtk_adjustment_get_page_size (adjustment) > 0 &&
         gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment);
}

/* A long line is not wrapped: the block scrolls sideways, and is never
 * wider than the window, nor taller than its lines */
static void
test_scrolls_sideways (void)
{
  g_autoptr(GString) code = g_string_new ("short\n");
  GtkWidget *block = pal_code_block_new ();
  GtkWidget *window = make_window (block, 300);
  GtkScrolledWindow *scroller = pal_code_block_get_scroller (PAL_CODE_BLOCK (block));
  PalCodeView *view = pal_code_block_get_view (PAL_CODE_BLOCK (block));
  GtkPolicyType hpolicy, vpolicy;
  int one_line, two_lines;

  gtk_scrolled_window_get_policy (scroller, &hpolicy, &vpolicy);
  g_assert_cmpint (hpolicy, ==, GTK_POLICY_AUTOMATIC);
  g_assert_cmpint (vpolicy, ==, GTK_POLICY_NEVER);
  g_assert_cmpint (gtk_text_view_get_wrap_mode (GTK_TEXT_VIEW (view)), ==, GTK_WRAP_NONE);
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (view)));

  pal_code_block_set_code (PAL_CODE_BLOCK (block), NULL, "short", -1);
  WAIT_UNTIL (gtk_widget_get_height (GTK_WIDGET (view)) > 0);
  one_line = gtk_widget_get_height (GTK_WIDGET (view));

  for (guint i = 0; i < 40; i++)
    g_string_append (code, "a_long_line_of_code_without_end ");
  pal_code_block_set_code (PAL_CODE_BLOCK (block), NULL, code->str, -1);
  WAIT_UNTIL (scrolls_sideways (scroller));
  WAIT_UNTIL (gtk_widget_get_height (GTK_WIDGET (view)) > one_line);
  test_wait_frames (window, 2);
  two_lines = gtk_widget_get_height (GTK_WIDGET (view));

  /* two lines, not forty wrapped ones */
  g_assert_cmpint (two_lines, <, 2 * one_line);
  g_assert_cmpint (gtk_widget_get_width (block), <=, 300);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The scheme follows the style: Adwaita, light or dark */
static void
test_scheme_follows_style (void)
{
  GtkWidget *block = pal_code_block_new ();
  GtkWidget *window = make_window (block, 400);
  PalCodeView *view = pal_code_block_get_view (PAL_CODE_BLOCK (block));

  set_style (ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_cmpstr (gtk_source_style_scheme_get_id (pal_code_view_get_scheme (view)), ==,
                   PAL_CODE_VIEW_SCHEME_LIGHT);
  set_style (ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_cmpstr (gtk_source_style_scheme_get_id (pal_code_view_get_scheme (view)), ==,
                   PAL_CODE_VIEW_SCHEME_DARK);
  set_style (ADW_COLOR_SCHEME_FORCE_LIGHT);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The tag that tints the line of @buffer starting with @prefix, or NULL */
static GtkTextTag *
line_tag (GtkTextBuffer *buffer,
          const char    *prefix)
{
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  do
    {
      GtkTextIter end = iter;
      g_autofree char *line = NULL;
      g_autoptr(GSList) tags = NULL;

      if (!gtk_text_iter_ends_line (&end))
        gtk_text_iter_forward_to_line_end (&end);
      line = gtk_text_iter_get_text (&iter, &end);
      if (!g_str_has_prefix (line, prefix))
        continue;

      tags = gtk_text_iter_get_tags (&iter);
      for (GSList *l = tags; l != NULL; l = l->next)
        {
          gboolean set = FALSE;

          g_object_get (l->data, "paragraph-background-set", &set, NULL);
          if (set)
            return l->data;
        }
      return NULL;
    }
  while (gtk_text_iter_forward_line (&iter));

  g_assert_not_reached ();
}

/* The colour the scheme of @view gives @style_id */
static GdkRGBA
scheme_color (PalCodeView *view,
              const char  *style_id)
{
  GtkSourceStyle *style = gtk_source_style_scheme_get_style (pal_code_view_get_scheme (view), style_id);
  g_autofree char *color = NULL;
  GdkRGBA rgba;

  g_assert_nonnull (style);
  g_object_get (style, "foreground", &color, NULL);
  g_assert_true (gdk_rgba_parse (&rgba, color));

  return rgba;
}

static void
assert_tinted (PalCodeView *view,
               const char  *prefix,
               const char  *style_id)
{
  GtkTextTag *tag = line_tag (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), prefix);
  GdkRGBA expected = scheme_color (view, style_id);
  GdkRGBA *tint = NULL;

  g_assert_nonnull (tag);
  g_object_get (tag, "paragraph-background-rgba", &tint, NULL);
  g_assert_nonnull (tint);
  /* the scheme's colour, thinned */
  g_assert_cmpfloat_with_epsilon (tint->red, expected.red, 0.002);
  g_assert_cmpfloat_with_epsilon (tint->green, expected.green, 0.002);
  g_assert_cmpfloat_with_epsilon (tint->blue, expected.blue, 0.002);
  g_assert_cmpfloat (tint->alpha, <, 0.5);
  gdk_rgba_free (tint);
}

/* The lines of a diff are tinted with the colours the scheme gives them,
 * light and dark; the text keeps its own colour */
static void
test_diff_colours (void)
{
  GtkWidget *view = pal_code_view_new ();
  GtkWidget *window = make_window (view, 400);
  GdkRGBA light, dark;

  set_style (ADW_COLOR_SCHEME_FORCE_LIGHT);
  pal_code_view_set_diff (PAL_CODE_VIEW (view), TRUE);
  pal_code_view_set_text (PAL_CODE_VIEW (view),
                          "--- a/hello.c\n+++ b/hello.c\n@@ -1,2 +1,2 @@\n int x;\n-int y;\n+long y;", -1);

  assert_tinted (PAL_CODE_VIEW (view), "-int", "diff:removed-line");
  assert_tinted (PAL_CODE_VIEW (view), "+long", "diff:added-line");
  assert_tinted (PAL_CODE_VIEW (view), "@@", "diff:location");
  assert_tinted (PAL_CODE_VIEW (view), "---", "diff:diff-file");
  g_assert_null (line_tag (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), " int"));
  light = scheme_color (PAL_CODE_VIEW (view), "diff:removed-line");

  set_style (ADW_COLOR_SCHEME_FORCE_DARK);
  assert_tinted (PAL_CODE_VIEW (view), "-int", "diff:removed-line");
  assert_tinted (PAL_CODE_VIEW (view), "+long", "diff:added-line");
  dark = scheme_color (PAL_CODE_VIEW (view), "diff:added-line");
  g_assert_false (gdk_rgba_equal (&light, &dark));

  /* lines that come later are tinted too */
  pal_code_view_set_text (PAL_CODE_VIEW (view),
                          "--- a/hello.c\n+++ b/hello.c\n@@ -1,2 +1,2 @@\n int x;\n-int y;\n+long y;\n-int z;", -1);
  assert_tinted (PAL_CODE_VIEW (view), "-int z", "diff:removed-line");

  set_style (ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* x^2.4 for x in [0, 1]: x² times the square of the fifth root (Newton) */
static double
pow_2_4 (double x)
{
  double root = 1.0;

  if (x <= 0)
    return 0;
  for (guint i = 0; i < 60; i++)
    root -= (root * root * root * root * root - x) / (5 * root * root * root * root);

  return x * x * root * root;
}

/* WCAG's relative luminance */
static double
luminance (const GdkRGBA *c)
{
  double rgb[3] = { c->red, c->green, c->blue };

  for (guint i = 0; i < 3; i++)
    rgb[i] = rgb[i] <= 0.03928 ? rgb[i] / 12.92 : pow_2_4 ((rgb[i] + 0.055) / 1.055);

  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

static double
contrast (const GdkRGBA *a,
          const GdkRGBA *b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static GdkRGBA
named_color (GtkWidget  *widget,
             const char *name)
{
  GdkRGBA color;

  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, &color));

  return color;
}

/* The counts of added and removed lines are readable (4.5:1) on the
 * window's background and a view's, light and dark */
static void
test_diff_counts_contrast (void)
{
  GtkWidget *diff = pal_diff_view_new ();
  GtkWidget *window = make_window (diff, 500);
  AdwColorScheme schemes[] = { ADW_COLOR_SCHEME_FORCE_LIGHT, ADW_COLOR_SCHEME_FORCE_DARK };

  pal_diff_view_set_diff (PAL_DIFF_VIEW (diff), "hello.c", NULL, "int y;\nint z;\n", "long y;\n");
  g_assert_cmpuint (pal_diff_view_get_n_added (PAL_DIFF_VIEW (diff)), ==, 1);
  g_assert_cmpuint (pal_diff_view_get_n_removed (PAL_DIFF_VIEW (diff)), ==, 2);
  g_assert_true (pal_code_view_get_diff (pal_diff_view_get_code_view (PAL_DIFF_VIEW (diff))));

  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      g_autoptr(GPtrArray) labels = g_ptr_array_new ();
      GtkWidget *stack[64];
      guint depth = 0;
      guint counts = 0;

      set_style (schemes[s]);
      test_wait_frames (window, 2);

      stack[depth++] = diff;
      while (depth > 0)
        {
          GtkWidget *widget = stack[--depth];

          if (GTK_IS_LABEL (widget))
            g_ptr_array_add (labels, widget);
          for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL && depth < 64;
               c = gtk_widget_get_next_sibling (c))
            stack[depth++] = c;
        }

      for (guint i = 0; i < labels->len; i++)
        {
          GtkWidget *label = g_ptr_array_index (labels, i);
          const char *text = gtk_label_get_text (GTK_LABEL (label));
          GdkRGBA color, window_bg, view_bg;

          if (strcmp (text, "+1") != 0 && strcmp (text, "−2") != 0)
            continue;

          counts++;
          gtk_style_context_get_color (gtk_widget_get_style_context (label), &color);
          window_bg = named_color (label, "window_bg_color");
          view_bg = named_color (label, "view_bg_color");
          g_assert_cmpfloat (contrast (&color, &window_bg), >=, 4.5);
          g_assert_cmpfloat (contrast (&color, &view_bg), >=, 4.5);
        }
      g_assert_cmpuint (counts, ==, 2);
    }

  set_style (ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A tool call's diff wraps its long lines, without hyphens, as code */
static void
test_diff_wraps (void)
{
  GtkWidget *diff = g_object_ref_sink (pal_diff_view_new ());
  PalCodeView *view = pal_diff_view_get_code_view (PAL_DIFF_VIEW (diff));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter iter;

  pal_diff_view_set_diff (PAL_DIFF_VIEW (diff), "a.c", NULL, "cc -o a a.c\n", "cc -fsanitize=address -o a a.c\n");
  g_assert_cmpint (gtk_text_view_get_wrap_mode (GTK_TEXT_VIEW (view)), ==, GTK_WRAP_CHAR);
  gtk_text_buffer_get_start_iter (buffer, &iter);
  do
    {
      g_autoptr(GSList) tags = gtk_text_iter_get_tags (&iter);
      gboolean off = FALSE;

      for (GSList *l = tags; l != NULL; l = l->next)
        {
          gboolean set = FALSE, hyphens = TRUE;

          g_object_get (l->data, "insert-hyphens-set", &set, "insert-hyphens", &hyphens, NULL);
          g_assert_false (set && hyphens);
          off |= set;
        }
      g_assert_true (off || gtk_text_iter_ends_line (&iter));
    }
  while (gtk_text_iter_forward_char (&iter) && !gtk_text_iter_is_end (&iter));

  g_object_unref (diff);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GtkCssProvider) provider = NULL;

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  /* the application's style sheet, as AdwApplication loads it */
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/io/github/palaverapp/Palaver/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  g_test_add_func ("/code-block/language", test_language);
  g_test_add_func ("/code-block/copy", test_copy);
  g_test_add_func ("/code-block/scrolls-sideways", test_scrolls_sideways);
  g_test_add_func ("/code-block/scheme-follows-style", test_scheme_follows_style);
  g_test_add_func ("/code-view/diff-colours", test_diff_colours);
  g_test_add_func ("/diff-view/counts-contrast", test_diff_counts_contrast);
  g_test_add_func ("/diff-view/wraps", test_diff_wraps);

  return g_test_run ();
}
