/* pal-markdown-markup.c: Markdown for labels
 *
 * Agents write Markdown in short texts too: Claude's tool call titles hold
 * the command in backticks ("`ls -la`"), its permission requests the same.
 * md4c parses; this turns the result into Pango markup for a GtkLabel:
 * emphasis, code (monospace, never hyphenated where it wraps),
 * strike-through and underline as such; links as their text (a label is no
 * place to follow an agent's link from);
 * blocks one a line, list items with a bullet, a code block as monospace
 * lines. Everything else is text, escaped.
 *
 * It also tells whether a text is one fenced code block and nothing else
 * (Claude and Codex wrap a command's or a file's text so), and gives its
 * code, to be shown as the output it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <md4c.h>
#include <string.h>

#include "pal-markdown.h"
#include "pal-markdown-private.h"

/* Code: monospace, and where it wraps, no hyphen added ("-fsanitize" is
 * not "-fs-" and "anitize") */
#define CODE_OPEN  "<span font_family=\"monospace\" insert_hyphens=\"false\">"
#define CODE_CLOSE "</span>"

typedef struct
{
  GString  *out;
  gboolean  need_break;  /* a block ended: the next text starts a line */
  gboolean  bulleted;    /* a list item's bullet was just written */
  guint     code_block;  /* inside a code block */
} Markup;

static void
start_text (Markup *m)
{
  if (m->need_break)
    {
      if (m->out->len > 0)
        g_string_append_c (m->out, '\n');
      m->need_break = FALSE;
    }
}

static void
append_escaped (Markup     *m,
                const char *text,
                gsize       size)
{
  if (size == 0)
    return;

  start_text (m);
  m->bulleted = FALSE;
  _pal_markdown_markup_append_escaped (m->out, text, size);
}

static int
markup_enter_block_cb (MD_BLOCKTYPE  type,
                       void         *detail,
                       void         *user_data)
{
  Markup *m = user_data;

  switch (type)
    {
    case MD_BLOCK_LI:
      m->need_break = TRUE;
      start_text (m);
      g_string_append (m->out, "• ");
      m->bulleted = TRUE;
      break;

    case MD_BLOCK_CODE:
      m->need_break = TRUE;
      start_text (m);
      g_string_append (m->out, CODE_OPEN);
      m->code_block++;
      break;

    case MD_BLOCK_HR:
      m->need_break = TRUE;
      start_text (m);
      g_string_append (m->out, "――――");
      break;

    case MD_BLOCK_H:
    case MD_BLOCK_P:
    case MD_BLOCK_TR:
      /* the first paragraph of a list item goes after its bullet */
      m->need_break = !m->bulleted;
      break;

    default:
      break;
    }

  return 0;
}

static int
markup_leave_block_cb (MD_BLOCKTYPE  type,
                       void         *detail,
                       void         *user_data)
{
  Markup *m = user_data;

  if (type == MD_BLOCK_CODE)
    {
      /* a code block's last line ends with its newline */
      if (m->out->len > 0 && m->out->str[m->out->len - 1] == '\n')
        g_string_truncate (m->out, m->out->len - 1);
      g_string_append (m->out, CODE_CLOSE);
      m->code_block--;
    }
  else if (type == MD_BLOCK_TD || type == MD_BLOCK_TH)
    {
      g_string_append (m->out, "  ");
    }

  if (type != MD_BLOCK_TD && type != MD_BLOCK_TH)
    m->need_break = TRUE;

  return 0;
}

void
_pal_markdown_markup_append_escaped (GString    *out,
                                     const char *text,
                                     gsize       size)
{
  g_autofree char *escaped = NULL;

  if (size == 0)
    return;

  escaped = g_markup_escape_text (text, (gssize) size);
  g_string_append (out, escaped);
}

void
_pal_markdown_markup_open_span (GString     *out,
                                MD_SPANTYPE  type,
                                void        *detail,
                                gboolean     links)
{
  switch (type)
    {
    case MD_SPAN_EM:
      g_string_append (out, "<i>");
      break;
    case MD_SPAN_STRONG:
      g_string_append (out, "<b>");
      break;
    case MD_SPAN_CODE:
      g_string_append (out, CODE_OPEN);
      break;
    case MD_SPAN_DEL:
      g_string_append (out, "<s>");
      break;
    case MD_SPAN_U:
      g_string_append (out, "<u>");
      break;
    case MD_SPAN_A:
      if (links)
        {
          MD_SPAN_A_DETAIL *a = detail;

          g_string_append (out, "<a href=\"");
          _pal_markdown_markup_append_escaped (out, a->href.text, a->href.size);
          g_string_append (out, "\">");
        }
      break;
    case MD_SPAN_IMG:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      break;
    }
}

void
_pal_markdown_markup_close_span (GString     *out,
                                 MD_SPANTYPE  type,
                                 gboolean     links)
{
  switch (type)
    {
    case MD_SPAN_EM:
      g_string_append (out, "</i>");
      break;
    case MD_SPAN_STRONG:
      g_string_append (out, "</b>");
      break;
    case MD_SPAN_CODE:
      g_string_append (out, CODE_CLOSE);
      break;
    case MD_SPAN_DEL:
      g_string_append (out, "</s>");
      break;
    case MD_SPAN_U:
      g_string_append (out, "</u>");
      break;
    case MD_SPAN_A:
      if (links)
        g_string_append (out, "</a>");
      break;
    case MD_SPAN_IMG:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      break;
    }
}

static int
markup_enter_span_cb (MD_SPANTYPE  type,
                      void        *detail,
                      void        *user_data)
{
  Markup *m = user_data;

  start_text (m);
  m->bulleted = FALSE;
  _pal_markdown_markup_open_span (m->out, type, detail, FALSE);

  return 0;
}

static int
markup_leave_span_cb (MD_SPANTYPE  type,
                      void        *detail,
                      void        *user_data)
{
  Markup *m = user_data;

  _pal_markdown_markup_close_span (m->out, type, FALSE);

  return 0;
}

static int
markup_text_cb (MD_TEXTTYPE    type,
                const MD_CHAR *text,
                MD_SIZE        size,
                void          *user_data)
{
  Markup *m = user_data;

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      append_escaped (m, "\xef\xbf\xbd", 3);
      break;

    case MD_TEXT_BR:
      append_escaped (m, "\n", 1);
      break;

    case MD_TEXT_SOFTBR:
      append_escaped (m, " ", 1);
      break;

    case MD_TEXT_ENTITY:
      {
        g_autoptr(GString) decoded = g_string_new (NULL);

        pal_markdown_append_entity (decoded, text, size);
        append_escaped (m, decoded->str, decoded->len);
      }
      break;

    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      append_escaped (m, text, size);
      break;
    }

  return 0;
}

/* Valid UTF-8 of @text, and its length */
static const char *
valid_text (const char  *text,
            gssize       length,
            char       **copy,
            gsize       *size)
{
  gsize n = length < 0 ? strlen (text) : (gsize) length;

  if (g_utf8_validate_len (text, n, NULL))
    {
      *size = n;
      return text;
    }

  *copy = g_utf8_make_valid (text, (gssize) n);
  *size = strlen (*copy);
  return *copy;
}

/**
 * pal_markdown_to_markup:
 * @text: Markdown; invalid UTF-8 is replaced
 * @length: its length in bytes, or -1 when nul-terminated
 *
 * Returns: (transfer full): Pango markup for a label (see the top of the
 *   file)
 */
char *
pal_markdown_to_markup (const char *text,
                        gssize      length)
{
  g_autofree char *copy = NULL;
  Markup m = { 0 };
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
    .enter_block = markup_enter_block_cb,
    .leave_block = markup_leave_block_cb,
    .enter_span = markup_enter_span_cb,
    .leave_span = markup_leave_span_cb,
    .text = markup_text_cb,
  };
  gsize size;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (text == NULL)
    return g_strdup ("");
  text = valid_text (text, length, &copy, &size);

  m.out = g_string_sized_new (size + size / 4);
  if (size > G_MAXUINT32 || md_parse (text, (MD_SIZE) size, &parser, &m) != 0)
    {
      g_autofree char *escaped = g_markup_escape_text (text, (gssize) size);

      g_string_assign (m.out, escaped);
    }

  return g_string_free (m.out, FALSE);
}

/* --- a text that is one code block --- */

typedef struct
{
  GString  *code;
  guint     blocks;      /* top-level blocks seen */
  guint     depth;
  gboolean  fenced;      /* the first top-level block is a fenced code block */
} CodeBlock;

static int
code_enter_block_cb (MD_BLOCKTYPE  type,
                     void         *detail,
                     void         *user_data)
{
  CodeBlock *c = user_data;

  if (type == MD_BLOCK_DOC)
    return 0;

  if (c->depth++ == 0)
    {
      c->blocks++;
      if (c->blocks == 1 && type == MD_BLOCK_CODE)
        c->fenced = ((MD_BLOCK_CODE_DETAIL *) detail)->fence_char != 0;
    }

  return 0;
}

static int
code_leave_block_cb (MD_BLOCKTYPE  type,
                     void         *detail,
                     void         *user_data)
{
  CodeBlock *c = user_data;

  if (type != MD_BLOCK_DOC)
    c->depth--;

  return 0;
}

static int
code_span_cb (MD_SPANTYPE  type,
              void        *detail,
              void        *user_data)
{
  return 0;
}

static int
code_text_cb (MD_TEXTTYPE    type,
              const MD_CHAR *text,
              MD_SIZE        size,
              void          *user_data)
{
  CodeBlock *c = user_data;

  if (c->blocks == 1 && c->fenced)
    g_string_append_len (c->code, text, size);

  return 0;
}

/**
 * pal_markdown_dup_code_block:
 * @text: Markdown; invalid UTF-8 is replaced
 * @length: its length in bytes, or -1 when nul-terminated
 *
 * Returns: (transfer full) (nullable): when @text is one fenced code block
 *   and nothing else (but blank lines), its code; otherwise %NULL
 */
char *
pal_markdown_dup_code_block (const char *text,
                             gssize      length)
{
  g_autofree char *copy = NULL;
  CodeBlock c = { 0 };
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
    .enter_block = code_enter_block_cb,
    .leave_block = code_leave_block_cb,
    .enter_span = code_span_cb,
    .leave_span = code_span_cb,
    .text = code_text_cb,
  };
  gsize size;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (text == NULL)
    return NULL;
  text = valid_text (text, length, &copy, &size);

  /* a fence opens the text, and nothing but its code can come before */
  while (size > 0 && (*text == '\n' || *text == '\r'))
    {
      text++;
      size--;
    }
  if (size < 3 || size > G_MAXUINT32 || !(g_str_has_prefix (text, "```") || g_str_has_prefix (text, "~~~")))
    return NULL;

  c.code = g_string_new (NULL);
  if (md_parse (text, (MD_SIZE) size, &parser, &c) != 0 || c.blocks != 1 || !c.fenced)
    {
      g_string_free (c.code, TRUE);
      return NULL;
    }

  return g_string_free (c.code, FALSE);
}

/**
 * pal_label_set_no_hyphens:
 * @label: a label that wraps code, a command, a path or an address
 *
 * Where @label wraps, no hyphen is added (Pango adds one where it breaks a
 * word, which in "-fsanitize" reads as part of the option).
 */
void
pal_label_set_no_hyphens (GtkLabel *label)
{
  g_autoptr(PangoAttrList) attrs = pango_attr_list_new ();

  g_return_if_fail (GTK_IS_LABEL (label));

  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (label, attrs);
}
