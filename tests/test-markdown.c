/* test-markdown.c: Markdown rendering into a text buffer, whole and streamed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>

#include "pal-markdown.h"
#include "pal-markdown-view.h"
#include "test-util.h"

static const char *document =
  "# Title\n"
  "\n"
  "A paragraph with **bold**, *emphasis*, `inline code` and a [link](https://example.org).\n"
  "It continues on a second line.\n"
  "\n"
  "```c\n"
  "int main (void)\n"
  "{\n"
  "\n"
  "  return 0;\n"
  "}\n"
  "```\n"
  "\n"
  "- first\n"
  "- second with ~~strike~~\n"
  "  - nested\n"
  "\n"
  "1. one\n"
  "2. two\n"
  "\n"
  "> quoted text\n"
  "\n"
  "| a | b |\n"
  "|---|---|\n"
  "| 1 | 2 |\n"
  "\n"
  "Last &amp; final &#x263A;\n";

static char *
buffer_text (GtkTextBuffer *buffer)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
}

/* "name@offset" for every tag toggled on at every offset: a rendering's
 * fingerprint that ignores tag identity but not names or ranges. */
static char *
tag_fingerprint (GtkTextBuffer *buffer)
{
  GString *out = g_string_new (NULL);
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  do
    {
      g_autoptr(GSList) tags = gtk_text_iter_get_toggled_tags (&iter, TRUE);

      for (GSList *l = tags; l != NULL; l = l->next)
        {
          g_autofree char *name = NULL;
          const char *uri = g_object_get_data (l->data, PAL_MARKDOWN_LINK_URI);

          g_object_get (l->data, "name", &name, NULL);
          g_string_append_printf (out, "%s@%d ", name ? name : (uri ? uri : "?"),
                                  gtk_text_iter_get_offset (&iter));
        }
    }
  while (gtk_text_iter_forward_char (&iter));

  return g_string_free (out, FALSE);
}

static gboolean
has_tag_at (GtkTextBuffer *buffer,
            const char    *needle,
            const char    *tag_name)
{
  g_autofree char *text = buffer_text (buffer);
  const char *found = strstr (text, needle);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), tag_name);
  GtkTextIter iter;

  g_assert_nonnull (found);
  g_assert_nonnull (tag);
  gtk_text_buffer_get_iter_at_offset (buffer, &iter, (int) g_utf8_pointer_to_offset (text, found));

  for (glong i = 0; i < g_utf8_strlen (needle, -1); i++)
    {
      if (!gtk_text_iter_has_tag (&iter, tag))
        return FALSE;
      gtk_text_iter_forward_char (&iter);
    }

  return TRUE;
}

static void
test_render_elements (void)
{
  g_autoptr(GtkTextBuffer) buffer = gtk_text_buffer_new (NULL);
  g_autofree char *text = NULL;
  GtkTextIter iter;

  gtk_text_buffer_get_end_iter (buffer, &iter);
  pal_markdown_insert (buffer, &iter, document, strlen (document));
  text = buffer_text (buffer);

  /* markup is gone, content stays */
  g_assert_true (g_str_has_prefix (text, "Title\n"));
  g_assert_nonnull (strstr (text, "A paragraph with bold, emphasis, inline code and a link. It continues"));
  g_assert_null (strstr (text, "**"));
  g_assert_null (strstr (text, "```"));
  g_assert_nonnull (strstr (text, "int main (void)\n{\n\n  return 0;\n}"));
  g_assert_nonnull (strstr (text, "• first\n• second with strike\n◦ nested"));
  g_assert_nonnull (strstr (text, "1. one\n2. two"));
  g_assert_nonnull (strstr (text, "a │ b\n1 │ 2"));
  g_assert_nonnull (strstr (text, "Last & final ☺"));

  g_assert_true (has_tag_at (buffer, "Title", "h1"));
  g_assert_true (has_tag_at (buffer, "bold", "strong"));
  g_assert_true (has_tag_at (buffer, "emphasis", "em"));
  g_assert_true (has_tag_at (buffer, "inline code", "code"));
  g_assert_true (has_tag_at (buffer, "return 0;", "codeblock"));
  g_assert_true (has_tag_at (buffer, "strike", "del"));
  g_assert_true (has_tag_at (buffer, "quoted text", "quote"));
  g_assert_false (has_tag_at (buffer, "paragraph", "strong"));

  /* the link keeps its target */
  {
    const char *found = strstr (text, "link.");
    GtkTextIter at;

    gtk_text_buffer_get_iter_at_offset (buffer, &at, (int) g_utf8_pointer_to_offset (text, found));
    g_assert_cmpstr (pal_markdown_get_link_at (&at), ==, "https://example.org");
    gtk_text_iter_backward_chars (&at, 2);
    g_assert_null (pal_markdown_get_link_at (&at));
  }
}

static void
test_render_bad_input (void)
{
  g_autoptr(GtkTextBuffer) buffer = gtk_text_buffer_new (NULL);
  const char bad[] = "abc \xff\xfe def\n\n**unclosed *spans `x\n\n```\nnever closed";
  g_autofree char *text = NULL;
  GtkTextIter iter;

  gtk_text_buffer_get_end_iter (buffer, &iter);
  pal_markdown_insert (buffer, &iter, bad, sizeof bad - 1);
  text = buffer_text (buffer);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (text, "abc "));
  g_assert_nonnull (strstr (text, "never closed"));
}

static void
test_scanner (void)
{
  PalMarkdownScanner scanner;
  const char *text = "para one\n\npara two\n\n```\ncode\n\nstill code\n```\n\n  indented\n\nlast";

  pal_markdown_scanner_init (&scanner);
  pal_markdown_scanner_feed (&scanner, text, strlen ("para one\n"));
  g_assert_cmpuint (scanner.stable, ==, 0);

  pal_markdown_scanner_feed (&scanner, text, strlen (text));
  /* the cut is at "last": not inside the fence, not before the indented line */
  g_assert_cmpuint (scanner.stable, ==, strlen (text) - strlen ("last"));

  /* fed the text up to inside the fence, the cut stays before the fence */
  pal_markdown_scanner_init (&scanner);
  pal_markdown_scanner_feed (&scanner, text, strstr (text, "still") - text);
  g_assert_cmpuint (scanner.stable, ==, strstr (text, "```") - text);
}

static void
test_streamed_equals_whole (void)
{
  GtkWidget *whole = g_object_ref_sink (pal_markdown_view_new ());
  GtkWidget *streamed = g_object_ref_sink (pal_markdown_view_new ());
  GtkTextBuffer *whole_buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (whole));
  GtkTextBuffer *streamed_buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (streamed));
  g_autofree char *whole_text = NULL;
  g_autofree char *streamed_text = NULL;
  g_autofree char *whole_tags = NULL;
  g_autofree char *streamed_tags = NULL;
  gsize len = strlen (document);

  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (whole), document);

  /* chunks of varying size, rendering in between as a main loop would */
  for (gsize i = 0; i < len;)
    {
      gsize n = MIN (1 + (i % 7), len - i);

      pal_markdown_view_append (PAL_MARKDOWN_VIEW (streamed), document + i, (gssize) n);
      if (i % 3 == 0)
        pal_markdown_view_flush (PAL_MARKDOWN_VIEW (streamed));
      i += n;
    }
  pal_markdown_view_flush (PAL_MARKDOWN_VIEW (streamed));

  g_assert_cmpstr (pal_markdown_view_get_text (PAL_MARKDOWN_VIEW (streamed)), ==, document);

  whole_text = buffer_text (whole_buffer);
  streamed_text = buffer_text (streamed_buffer);
  g_assert_cmpstr (streamed_text, ==, whole_text);

  whole_tags = tag_fingerprint (whole_buffer);
  streamed_tags = tag_fingerprint (streamed_buffer);
  g_assert_cmpstr (streamed_tags, ==, whole_tags);

  g_object_unref (whole);
  g_object_unref (streamed);
}

static void
test_stream_renders_on_idle (void)
{
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  g_autofree char *text = NULL;

  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "Hello **wor", -1);
  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "ld**", -1);
  g_assert_cmpint (gtk_text_buffer_get_char_count (buffer), ==, 0);

  test_drain_main_context ();

  text = buffer_text (buffer);
  g_assert_cmpstr (text, ==, "Hello world");
  g_assert_true (has_tag_at (buffer, "world", "strong"));

  /* plain mode shows the source as it is */
  pal_markdown_view_set_plain (PAL_MARKDOWN_VIEW (view), TRUE);
  g_free (text);
  text = buffer_text (buffer);
  g_assert_cmpstr (text, ==, "Hello **world**");

  g_object_unref (view);
}

static void
test_long_stream (void)
{
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  g_autofree char *text = NULL;
  guint chunks = 20000;

  /* many paragraphs: the rendered prefix must stay put while the tail moves */
  for (guint i = 0; i < chunks; i++)
    {
      pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), i % 50 == 49 ? "word.\n\n" : "word ", -1);
      if (i % 100 == 0)
        pal_markdown_view_flush (PAL_MARKDOWN_VIEW (view));
    }
  pal_markdown_view_flush (PAL_MARKDOWN_VIEW (view));

  text = buffer_text (buffer);
  g_assert_cmpuint (strlen (pal_markdown_view_get_text (PAL_MARKDOWN_VIEW (view))), ==,
                    (chunks / 50) * (49 * 5 + 7));
  /* 400 paragraphs of 50 words, separated by one newline each */
  g_assert_cmpuint (strlen (text), ==, (chunks / 50) * (50 * 5) + (chunks / 50 - 1));

  g_object_unref (view);
}

/* The length of the text @buffer shows */
static gsize
shown_length (GtkTextBuffer *buffer)
{
  g_autofree char *text = buffer_text (buffer);

  return strlen (text);
}

/* A flood of streamed text is shown a bounded amount at a time, and all of
 * it in the end; a long unfinished code block grows as plain text and is
 * styled once finished. */

static void
test_stream_budget (void)
{
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  g_autoptr(GString) flood = g_string_new (NULL);
  g_autofree char *text = NULL;

  for (guint i = 0; i < 1000; i++)
    g_string_append (flood, i % 10 == 9 ? "words.\n\n" : "some words ");
  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), flood->str, -1);

  /* the first pass shows no more than the budget of a frame */
  WAIT_UNTIL (gtk_text_buffer_get_char_count (buffer) > 0);
  g_assert_cmpint (gtk_text_buffer_get_char_count (buffer), <=, 1024);

  /* and the rest comes */
  WAIT_UNTIL (shown_length (buffer) >= 900 * 11);

  /* a long code block that has not ended yet */
  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (view), "Code:\n\n```\n");
  for (guint i = 0; i < 300; i++)
    {
      pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "x = x + 1;\n", -1);
      pal_markdown_view_flush (PAL_MARKDOWN_VIEW (view));
    }
  text = buffer_text (buffer);
  g_assert_true (g_str_has_suffix (text, "x = x + 1;\n"));
  g_clear_pointer (&text, g_free);

  /* once it ends, it is rendered as code: no fence left in the text */
  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "```\n\nDone.", -1);
  pal_markdown_view_flush (PAL_MARKDOWN_VIEW (view));
  text = buffer_text (buffer);
  g_assert_null (strstr (text, "```"));
  g_assert_true (g_str_has_suffix (text, "Done."));
  g_assert_true (has_tag_at (buffer, "x = x + 1;", "codeblock"));

  g_object_unref (view);
}

/* Lines wrap between words; a line holding a word too long for that (a path)
 * may break anywhere, streamed or not. */
static void
test_long_words (void)
{
  static const char *text =
    "Short words only, and quite a few of them, but none of them is long.\n"
    "\n"
    "Open /home/someone/projects/palaver/src/gui/pal-chat-view.c and look.\n"
    "\n"
    "- an item\n"
    "- an item with `0123456789abcdef0123456789abcdef` in it\n";
  GtkWidget *whole = g_object_ref_sink (pal_markdown_view_new ());
  GtkWidget *streamed = g_object_ref_sink (pal_markdown_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (whole));
  GtkTextBuffer *streamed_buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (streamed));
  g_autofree char *whole_tags = NULL;
  g_autofree char *streamed_tags = NULL;
  gsize len = strlen (text);

  g_assert_cmpint (gtk_text_view_get_wrap_mode (GTK_TEXT_VIEW (whole)), ==, GTK_WRAP_WORD);

  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (whole), text);
  g_assert_false (has_tag_at (buffer, "Short", "long-words"));
  g_assert_true (has_tag_at (buffer, "Open /home", "long-words"));
  g_assert_true (has_tag_at (buffer, "and look.", "long-words"));
  g_assert_false (has_tag_at (buffer, "an item\n", "long-words"));
  g_assert_true (has_tag_at (buffer, "an item with", "long-words"));

  for (gsize i = 0; i < len;)
    {
      gsize n = MIN (1 + (i % 5), len - i);

      pal_markdown_view_append (PAL_MARKDOWN_VIEW (streamed), text + i, (gssize) n);
      pal_markdown_view_flush (PAL_MARKDOWN_VIEW (streamed));
      i += n;
    }
  whole_tags = tag_fingerprint (buffer);
  streamed_tags = tag_fingerprint (streamed_buffer);
  g_assert_cmpstr (streamed_tags, ==, whole_tags);

  g_object_unref (whole);
  g_object_unref (streamed);
}

static gboolean
has_font (GPtrArray  *fonts,
          const char *name)
{
  g_autoptr(PangoFontDescription) wanted = pango_font_description_from_string (name);

  for (guint i = 0; i < fonts->len; i++)
    if (pango_font_description_equal (g_ptr_array_index (fonts, i), wanted))
      return TRUE;

  return FALSE;
}

/* The fonts Markdown may show text in, from the tags themselves */
static void
test_fonts (void)
{
  g_autoptr(PangoFontDescription) base = pango_font_description_from_string ("Cantarell 10");
  g_autoptr(GPtrArray) fonts = pal_markdown_dup_fonts (base);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_assert_true (has_font (fonts, "Cantarell 10"));
  g_assert_true (has_font (fonts, "Cantarell Bold 10"));                     /* strong */
  g_assert_true (has_font (fonts, "Cantarell Italic 10"));                   /* em, quote */
  g_assert_true (has_font (fonts, "Cantarell Bold Italic 10"));              /* both */
  g_assert_true (has_font (fonts, "Monospace 10"));                          /* code */
  g_assert_true (has_font (fonts, "Monospace Bold 10"));                     /* code in strong */
  g_assert_true (has_font (fonts, "Monospace Italic 10"));                   /* code in a quote */
  g_assert_true (has_font (fonts, "Cantarell Bold 16"));                     /* h1: 1.6 */
  g_assert_true (has_font (fonts, "Cantarell Bold 11"));                     /* h4: 1.1 */
  g_assert_true (has_font (fonts, "Cantarell Bold Italic 14"));              /* em in h2 */
  g_assert_false (has_font (fonts, "Cantarell 16"));                         /* headings are bold */

  /* each once */
  for (guint i = 0; i < fonts->len; i++)
    g_assert_true (g_hash_table_add (names, pango_font_description_to_string (g_ptr_array_index (fonts, i))));

  /* a base without a size stays without one */
  g_clear_pointer (&base, pango_font_description_free);
  g_clear_pointer (&fonts, g_ptr_array_unref);
  base = pango_font_description_from_string ("Sans");
  fonts = pal_markdown_dup_fonts (base);
  g_assert_true (has_font (fonts, "Sans Bold"));
  g_assert_true (has_font (fonts, "Monospace"));
}

/* Markdown for a label: Claude's titles and the like */
static void
test_markup (void)
{
  static const struct { const char *markdown; const char *markup; } cases[] = {
    { "`ls -la`", "<tt>ls -la</tt>" },
    { "Edit `src/main.c`", "Edit <tt>src/main.c</tt>" },
    { "Read **a** and *b* & ~~c~~", "Read <b>a</b> and <i>b</i> &amp; <s>c</s>" },
    { "`a < b && echo \"<b>\"`", "<tt>a &lt; b &amp;&amp; echo &quot;&lt;b&gt;&quot;</tt>" },
    { "<b>not markup</b>", "&lt;b&gt;not markup&lt;/b&gt;" },
    { "See [the docs](https://example.org)", "See the docs" },
    { "one\ntwo", "one two" },
    { "# Title\n\nText", "Title\nText" },
    { "Run:\n\n```sh\nmake\nmake check\n```", "Run:\n<tt>make\nmake check</tt>" },
    { "- a\n- b\n\n  more", "• a\n• b\nmore" },
    { "Caf\xc3\xa9 &amp; &#x41;", "Café &amp; A" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *markup = pal_markdown_to_markup (cases[i].markdown, -1);
      PangoAttrList *attrs = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_cmpstr (markup, ==, cases[i].markup);
      /* what a label can take */
      g_assert_true (pango_parse_markup (markup, -1, 0, &attrs, NULL, NULL, &error));
      g_assert_no_error (error);
      pango_attr_list_unref (attrs);
    }

  /* invalid UTF-8 is replaced, and the markup still parses */
  {
    g_autofree char *markup = pal_markdown_to_markup ("`a\xff`", -1);

    g_assert_true (g_utf8_validate (markup, -1, NULL));
    g_assert_true (pango_parse_markup (markup, -1, 0, NULL, NULL, NULL, NULL));
  }
}

/* A text that is one fenced code block, and only that, is code */
static void
test_code_block (void)
{
  static const struct { const char *markdown; const char *code; } cases[] = {
    { "```\nint main;\n```", "int main;\n" },
    { "```sh\nls\nREADME.md\n```\n", "ls\nREADME.md\n" },
    { "\n~~~\na\n\nb\n~~~\n\n", "a\n\nb\n" },
    { "````\n```\nnested fence\n```\n````", "```\nnested fence\n```\n" },
    /* still streaming in: not closed yet */
    { "```sh\npartial", "partial\n" },
    { "```\n```", "" },
    { "Text\n```\ncode\n```", NULL },
    { "```\ncode\n```\nText after", NULL },
    { "```\na\n```\n```\nb\n```", NULL },
    { "    indented code", NULL },
    { "plain output", NULL },
    { "``not a fence``", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *code = pal_markdown_dup_code_block (cases[i].markdown, -1);

      g_assert_cmpstr (code, ==, cases[i].code);
    }
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/markdown/elements", test_render_elements);
  g_test_add_func ("/markdown/bad-input", test_render_bad_input);
  g_test_add_func ("/markdown/scanner", test_scanner);
  g_test_add_func ("/markdown/streamed-equals-whole", test_streamed_equals_whole);
  g_test_add_func ("/markdown/stream-renders-on-idle", test_stream_renders_on_idle);
  g_test_add_func ("/markdown/long-stream", test_long_stream);
  g_test_add_func ("/markdown/stream-budget", test_stream_budget);
  g_test_add_func ("/markdown/long-words", test_long_words);
  g_test_add_func ("/markdown/fonts", test_fonts);
  g_test_add_func ("/markdown/markup", test_markup);
  g_test_add_func ("/markdown/code-block", test_code_block);

  return g_test_run ();
}
