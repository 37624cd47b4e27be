/* test-markdown.c: Markdown rendering into a text buffer, and into a view
 * of parts (text, code blocks, tables), whole and streamed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>

#include "pal-code-block.h"
#include "pal-markdown.h"
#include "pal-markdown-text.h"
#include "pal-markdown-view.h"
#include "pal-table-view.h"
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

/* The buffer of the @n-th text part of @view, or NULL */
static GtkTextBuffer *
text_part (GtkWidget *view,
           guint      n)
{
  for (GtkWidget *child = gtk_widget_get_first_child (view);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (PAL_IS_MARKDOWN_TEXT (child) && n-- == 0)
        return gtk_text_view_get_buffer (GTK_TEXT_VIEW (child));
    }

  return NULL;
}

/* The @n-th part of @view of @type, or NULL */
static gpointer
nth_part_of_type (GtkWidget *view,
                  GType      type,
                  guint      n)
{
  for (GtkWidget *child = gtk_widget_get_first_child (view);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type) && n-- == 0)
        return child;
    }

  return NULL;
}

/* The text of the first text part of @view, "" when there is none */
static char *
shown_text (GtkWidget *view)
{
  GtkTextBuffer *buffer = text_part (view, 0);

  return buffer != NULL ? buffer_text (buffer) : g_strdup ("");
}

/* Every part of @view, with what it shows: the text and its tags, the
 * code and its fence, the cells */
static char *
describe_view (GtkWidget *view)
{
  GString *out = g_string_new (NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (view);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (PAL_IS_MARKDOWN_TEXT (child))
        {
          GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (child));
          g_autofree char *text = buffer_text (buffer);
          g_autofree char *tags = tag_fingerprint (buffer);

          g_string_append_printf (out, "[text] %s [tags] %s\n", text, tags);
        }
      else if (PAL_IS_CODE_BLOCK (child))
        {
          g_string_append_printf (out, "[code %s, indent %d] %s\n",
                                  pal_code_block_get_info (PAL_CODE_BLOCK (child)),
                                  gtk_widget_get_margin_start (child),
                                  pal_code_block_get_code (PAL_CODE_BLOCK (child)));
        }
      else if (PAL_IS_TABLE_VIEW (child))
        {
          PalTableView *table = PAL_TABLE_VIEW (child);

          g_string_append_printf (out, "[table %u×%u]", pal_table_view_get_n_rows (table),
                                  pal_table_view_get_n_columns (table));
          for (guint r = 0; r < pal_table_view_get_n_rows (table); r++)
            for (guint c = 0; c < pal_table_view_get_n_columns (table); c++)
              g_string_append_printf (out, " %s", gtk_label_get_label (pal_table_view_get_cell (table, r, c)));
          g_string_append_c (out, '\n');
        }
      else
        {
          g_string_append_printf (out, "[%s]\n", G_OBJECT_TYPE_NAME (child));
        }
    }

  return g_string_free (out, FALSE);
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
  g_autofree char *whole_parts = NULL;
  g_autofree char *streamed_parts = NULL;
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

  whole_parts = describe_view (whole);
  streamed_parts = describe_view (streamed);
  g_assert_cmpstr (streamed_parts, ==, whole_parts);

  g_object_unref (whole);
  g_object_unref (streamed);
}

static void
test_stream_renders_on_idle (void)
{
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
  g_autofree char *text = NULL;

  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "Hello **wor", -1);
  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "ld**", -1);
  text = shown_text (view);
  g_assert_cmpstr (text, ==, "");

  test_drain_main_context ();

  g_free (text);
  text = shown_text (view);
  g_assert_cmpstr (text, ==, "Hello world");
  g_assert_true (has_tag_at (text_part (view, 0), "world", "strong"));

  /* plain mode shows the source as it is */
  pal_markdown_view_set_plain (PAL_MARKDOWN_VIEW (view), TRUE);
  g_free (text);
  text = shown_text (view);
  g_assert_cmpstr (text, ==, "Hello **world**");

  g_object_unref (view);
}

static void
test_long_stream (void)
{
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
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

  text = shown_text (view);
  g_assert_cmpuint (strlen (pal_markdown_view_get_text (PAL_MARKDOWN_VIEW (view))), ==,
                    (chunks / 50) * (49 * 5 + 7));
  /* 400 paragraphs of 50 words, separated by one newline each, in one part */
  g_assert_cmpuint (strlen (text), ==, (chunks / 50) * (50 * 5) + (chunks / 50 - 1));
  g_assert_null (text_part (view, 1));

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
  g_autoptr(GString) flood = g_string_new (NULL);
  g_autoptr(GString) code = g_string_new (NULL);
  g_autofree char *text = NULL;
  PalCodeBlock *block;

  for (guint i = 0; i < 1000; i++)
    g_string_append (flood, i % 10 == 9 ? "words.\n\n" : "some words ");
  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), flood->str, -1);

  /* the first pass shows no more than the budget of a frame */
  WAIT_UNTIL (text_part (view, 0) != NULL && gtk_text_buffer_get_char_count (text_part (view, 0)) > 0);
  g_assert_cmpint (gtk_text_buffer_get_char_count (text_part (view, 0)), <=, 1024);

  /* and the rest comes */
  WAIT_UNTIL (shown_length (text_part (view, 0)) >= 900 * 11);

  /* a long code block that has not ended yet: one code block, growing */
  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (view), "Code:\n\n```\n");
  block = nth_part_of_type (view, PAL_TYPE_CODE_BLOCK, 0);
  g_assert_nonnull (block);
  for (guint i = 0; i < 300; i++)
    {
      pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "x = x + 1;\n", -1);
      pal_markdown_view_flush (PAL_MARKDOWN_VIEW (view));
      g_string_append (code, "x = x + 1;\n");
      g_assert_true (nth_part_of_type (view, PAL_TYPE_CODE_BLOCK, 0) == block);
    }
  g_string_truncate (code, code->len - 1);
  g_assert_cmpstr (pal_code_block_get_code (block), ==, code->str);

  /* once it ends, its fence is not code, and the text after it is text */
  pal_markdown_view_append (PAL_MARKDOWN_VIEW (view), "```\n\nDone.", -1);
  pal_markdown_view_flush (PAL_MARKDOWN_VIEW (view));
  g_assert_true (nth_part_of_type (view, PAL_TYPE_CODE_BLOCK, 0) == block);
  g_assert_cmpstr (pal_code_block_get_code (block), ==, code->str);
  text = buffer_text (text_part (view, 1));
  g_assert_cmpstr (text, ==, "Done.");

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
  GtkTextBuffer *buffer;
  g_autofree char *whole_tags = NULL;
  g_autofree char *streamed_tags = NULL;
  gsize len = strlen (text);

  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (whole), text);
  buffer = text_part (whole, 0);
  g_assert_cmpint (gtk_text_view_get_wrap_mode (GTK_TEXT_VIEW (gtk_widget_get_first_child (whole))), ==,
                   GTK_WRAP_WORD);
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
  streamed_tags = tag_fingerprint (text_part (streamed, 0));
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
#define CODE "<span font_family=\"monospace\" insert_hyphens=\"false\">"

static void
test_markup (void)
{
  static const struct { const char *markdown; const char *markup; } cases[] = {
    { "`ls -la`", CODE "ls -la</span>" },
    { "Edit `src/main.c`", "Edit " CODE "src/main.c</span>" },
    { "Read **a** and *b* & ~~c~~", "Read <b>a</b> and <i>b</i> &amp; <s>c</s>" },
    { "`a < b && echo \"<b>\"`", CODE "a &lt; b &amp;&amp; echo &quot;&lt;b&gt;&quot;</span>" },
    { "<b>not markup</b>", "&lt;b&gt;not markup&lt;/b&gt;" },
    { "See [the docs](https://example.org)", "See the docs" },
    { "one\ntwo", "one two" },
    { "# Title\n\nText", "Title\nText" },
    { "Run:\n\n```sh\nmake\nmake check\n```", "Run:\n" CODE "make\nmake check</span>" },
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

/* Code blocks and tables are parts of their own, each where it is: a code
 * block in a list is indented with the list, and the list goes on after
 * it with its numbers */
static void
test_parts (void)
{
  static const char *text =
    "Build it:\n"
    "\n"
    "```c\n"
    "int main (void);\n"
    "```\n"
    "\n"
    "1. First:\n"
    "\n"
    "   ```sh\n"
    "   make\n"
    "   ```\n"
    "\n"
    "2. Then **check**.\n"
    "\n"
    "| Name | Value |\n"
    "|:-----|------:|\n"
    "| `a`  | 1     |\n"
    "\n"
    "Done.\n";
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
  g_autofree char *parts = NULL;

  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (view), text);
  parts = describe_view (view);
  g_assert_cmpstr (parts, ==,
                   "[text] Build it: [tags] \n"
                   "[code c, indent 0] int main (void);\n"
                   "[text] 1. First: [tags] indent1@0 \n"
                   "[code sh, indent 18] make\n"
                   "[text] 2. Then check. [tags] indent1@0 strong@8 \n"
                   "[table 2×2] Name Value "
                   "<span font_family=\"monospace\" insert_hyphens=\"false\">a</span> 1\n"
                   "[text] Done. [tags] \n");

  g_object_unref (view);
}

/* Every tag of @buffer at @offset that says whether to hyphenate says not
 * to, and one of them says it */
static gboolean
no_hyphens_at (GtkTextBuffer *buffer,
               int            offset)
{
  g_autoptr(GSList) tags = NULL;
  GtkTextIter iter;
  gboolean said = FALSE;

  gtk_text_buffer_get_iter_at_offset (buffer, &iter, offset);
  tags = gtk_text_iter_get_tags (&iter);
  for (GSList *l = tags; l != NULL; l = l->next)
    {
      gboolean set = FALSE, hyphens = TRUE;

      g_object_get (l->data, "insert-hyphens-set", &set, "insert-hyphens", &hyphens, NULL);
      if (set && hyphens)
        return FALSE;
      said |= set;
    }

  return said;
}

static gboolean
no_hyphens_in (GtkTextBuffer *buffer,
               const char    *needle)
{
  g_autofree char *text = buffer_text (buffer);
  const char *found = strstr (text, needle);
  int start;

  g_assert_nonnull (found);
  start = (int) g_utf8_pointer_to_offset (text, found);
  for (int i = 0; i < (int) g_utf8_strlen (needle, -1); i++)
    if (!no_hyphens_at (buffer, start + i))
      return FALSE;

  return TRUE;
}

/* A label's markup turns hyphens off over all of @needle */
static gboolean
markup_no_hyphens_in (const char *markup,
                      const char *needle)
{
  PangoAttrList *attrs = NULL;
  g_autofree char *text = NULL;
  PangoAttrIterator *iter;
  const char *found;
  gboolean covered = FALSE;

  g_assert_true (pango_parse_markup (markup, -1, 0, &attrs, &text, NULL, NULL));
  found = strstr (text, needle);
  g_assert_nonnull (found);

  iter = pango_attr_list_get_iterator (attrs);
  do
    {
      int start, end;
      PangoAttrInt *attr = (PangoAttrInt *) pango_attr_iterator_get (iter, PANGO_ATTR_INSERT_HYPHENS);

      pango_attr_iterator_range (iter, &start, &end);
      if (attr != NULL && !attr->value &&
          start <= found - text && end >= found - text + (int) strlen (needle))
        covered = TRUE;
    }
  while (pango_attr_iterator_next (iter));
  pango_attr_iterator_destroy (iter);
  pango_attr_list_unref (attrs);

  return covered;
}

/* Where code, a link or a path wraps, no hyphen is added: "-fsanitize"
 * does not become "-fs-" and "anitize" */
static void
test_no_hyphens (void)
{
  static const char *text =
    "Build with `-fsanitize=address` now.\n"
    "\n"
    "Read [the docs](https://example.org/docs).\n"
    "\n"
    "Or /usr/share/doc/palaver/a-very-long-path/README.md.\n"
    "\n"
    "Plain words may hyphenate.\n";
  g_autoptr(GtkTextBuffer) buffer = gtk_text_buffer_new (NULL);
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
  g_autofree char *title = NULL;
  GtkTextIter iter;

  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (view), text);
  g_assert_true (no_hyphens_in (text_part (view, 0), "-fsanitize=address"));
  g_assert_true (no_hyphens_in (text_part (view, 0), "the docs"));
  g_assert_true (no_hyphens_in (text_part (view, 0), "/usr/share/doc/palaver"));
  g_assert_false (no_hyphens_in (text_part (view, 0), "Plain words"));

  /* a code block inside a text (a tool's output) */
  gtk_text_buffer_get_end_iter (buffer, &iter);
  {
    static const char *code = "```\ncc -fsanitize=address \"world\"\n```\n";

    pal_markdown_insert (buffer, &iter, code, strlen (code));
  }
  g_assert_true (no_hyphens_in (buffer, "-fsanitize=address \"world\""));

  /* a title of a tool call, in a label */
  title = pal_markdown_to_markup ("Run `cc -fsanitize=address`", -1);
  g_assert_true (markup_no_hyphens_in (title, "cc -fsanitize=address"));

  g_object_unref (view);
}

/* A table is a grid: a row of cells per row, the head bold, the columns
 * aligned as the Markdown says, the text of a cell wrapping within it */
static void
test_table (void)
{
  static const char *text =
    "| Option | Default | What it does |\n"
    "|--------|--------:|:------------:|\n"
    "| `-j`   | 2       | **jobs**, at once |\n"
    "| `-k`   |         | go on |\n"
    "| short row |\n";
  GtkWidget *view = g_object_ref_sink (pal_markdown_view_new ());
  PalTableView *table;
  GtkLabel *cell;

  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (view), text);
  table = nth_part_of_type (view, PAL_TYPE_TABLE_VIEW, 0);
  g_assert_nonnull (table);
  g_assert_null (text_part (view, 0));
  g_assert_cmpuint (pal_table_view_get_n_rows (table), ==, 4);
  g_assert_cmpuint (pal_table_view_get_n_columns (table), ==, 3);

  for (guint r = 0; r < 4; r++)
    for (guint c = 0; c < 3; c++)
      {
        int column, row, width, height;

        cell = pal_table_view_get_cell (table, r, c);
        g_assert_nonnull (cell);
        /* one cell a place of the grid */
        gtk_grid_query_child (pal_table_view_get_grid (table), GTK_WIDGET (cell), &column, &row, &width, &height);
        g_assert_cmpint (column, ==, c);
        g_assert_cmpint (row, ==, r);
        g_assert_cmpint (width, ==, 1);
        g_assert_cmpint (height, ==, 1);
        g_assert_true (gtk_label_get_wrap (cell));
        g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (cell), "head"), ==, r == 0);
      }

  cell = pal_table_view_get_cell (table, 0, 2);
  g_assert_cmpstr (gtk_label_get_text (cell), ==, "What it does");
  g_assert_cmpfloat (gtk_label_get_xalign (pal_table_view_get_cell (table, 1, 0)), ==, 0.0f);
  g_assert_cmpfloat (gtk_label_get_xalign (pal_table_view_get_cell (table, 1, 1)), ==, 1.0f);
  g_assert_cmpfloat (gtk_label_get_xalign (pal_table_view_get_cell (table, 1, 2)), ==, 0.5f);
  g_assert_cmpstr (gtk_label_get_label (pal_table_view_get_cell (table, 1, 2)), ==, "<b>jobs</b>, at once");
  g_assert_cmpstr (gtk_label_get_text (pal_table_view_get_cell (table, 1, 0)), ==, "-j");
  g_assert_true (markup_no_hyphens_in (gtk_label_get_label (pal_table_view_get_cell (table, 1, 0)), "-j"));
  /* a row with fewer cells has the rest empty */
  g_assert_cmpstr (gtk_label_get_text (pal_table_view_get_cell (table, 3, 0)), ==, "short row");
  g_assert_cmpstr (gtk_label_get_text (pal_table_view_get_cell (table, 3, 2)), ==, "");

  /* the same table, a row less: the labels there stay */
  pal_markdown_view_set_text (PAL_MARKDOWN_VIEW (view), "| a | b |\n|---|---|\n| 1 | 2 |\n");
  g_assert_true (nth_part_of_type (view, PAL_TYPE_TABLE_VIEW, 0) == table);
  g_assert_cmpuint (pal_table_view_get_n_rows (table), ==, 2);
  g_assert_cmpuint (pal_table_view_get_n_columns (table), ==, 2);
  g_assert_null (pal_table_view_get_cell (table, 2, 0));
  g_assert_cmpstr (gtk_label_get_text (pal_table_view_get_cell (table, 1, 1)), ==, "2");

  g_object_unref (view);
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
  g_test_add_func ("/markdown/parts", test_parts);
  g_test_add_func ("/markdown/no-hyphens", test_no_hyphens);
  g_test_add_func ("/markdown/table", test_table);

  return g_test_run ();
}
