/* pal-markdown.c: Markdown (CommonMark + GitHub extensions) into a GtkTextBuffer
 *
 * md4c parses; this file turns its callbacks into text and tags. Blocks are
 * separated by a newline; the first line of each block carries the "block"
 * tag for spacing, list items carry an indent tag per depth.
 *
 * Rendered with a sink (pal_markdown_render ()), code blocks and tables
 * are not text: the sink gets each as what it is (the code and its fence's
 * info string; the cells as Pango markup), to show as a widget of its own,
 * and the text after one goes to a buffer the sink gives anew. The buffers
 * share one tag table (pal_markdown_get_tag_table ()), so that a list's
 * indent goes on past a code block in it, and so that the tags are made
 * once, not for each message shown.
 *
 * Nothing that is code or an address is ever hyphenated where it wraps:
 * the tags of code, links and lines with a long word (a path) say so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <md4c.h>
#include <string.h>

#include "pal-markdown.h"
#include "pal-markdown-private.h"

#define MAX_DEPTH 8

/* On a tag table: the link tags by target, (element-type utf8 GtkTextTag) */
#define LINK_TAGS_KEY "pal-markdown-link-tags"

typedef struct
{
  gboolean ordered;
  gboolean first;
  guint    number;
} ListLevel;

typedef struct
{
  GtkTextBuffer *buffer;          /* (nullable): with a sink, until text comes */
  GtkTextIter   *iter;
  GtkTextTagTable *tag_table;     /* of the buffer, or of all the sink's */
  const PalMarkdownSink *sink;    /* (nullable) */
  gpointer       sink_data;
  GtkTextIter    end;             /* where text goes, with a sink */
  GString       *code;            /* (nullable): the code block being read, with a sink */
  char          *code_info;
  guint          code_depth;
  PalMarkdownTable *table;        /* (nullable): the table being read, with a sink */
  GPtrArray     *row;             /* (element-type utf8): its row being read */
  GString       *cell;            /* (nullable): the markup of its cell being read */
  gboolean       in_head;
  GPtrArray     *tags;            /* open span and block tags, (element-type GtkTextTag) */
  ListLevel      lists[MAX_DEPTH];
  int            list_depth;      /* number of open lists */
  int            quote_depth;
  gboolean       need_break;      /* a block was finished: next text starts a new line */
  gboolean       block_start;     /* next inserted text starts a block */
  guint          table_cell;
  gboolean       hard_breaks;     /* a line break in a paragraph is kept */
} Renderer;

/**
 * pal_markdown_ensure_tag_table:
 * @table: the tag table of the buffers Markdown is rendered into
 *
 * Adds the tags rendering uses, once.
 */
void
pal_markdown_ensure_tag_table (GtkTextTagTable *table)
{
  static const double scales[] = { 1.6, 1.4, 1.2, 1.1, 1.0, 1.0 };

  g_return_if_fail (GTK_IS_TEXT_TAG_TABLE (table));

  if (gtk_text_tag_table_lookup (table, "strong") != NULL)
    return;

#define ADD_TAG(name, ...) \
  G_STMT_START { \
    GtkTextTag *tag_ = g_object_new (GTK_TYPE_TEXT_TAG, "name", name, __VA_ARGS__, NULL); \
    gtk_text_tag_table_add (table, tag_); \
    g_object_unref (tag_); \
  } G_STMT_END
  /* first, the lowest priority: a code block's own wrapping wins (see
   * tag_long_words () in pal-markdown-text.c) */
  ADD_TAG ("long-words", "wrap-mode", GTK_WRAP_WORD_CHAR, "insert-hyphens", FALSE);
  ADD_TAG ("strong", "weight", PANGO_WEIGHT_BOLD);
  ADD_TAG ("em", "style", PANGO_STYLE_ITALIC);
  ADD_TAG ("del", "strikethrough", TRUE);
  ADD_TAG ("u", "underline", PANGO_UNDERLINE_SINGLE);
  ADD_TAG ("code", "family", "monospace", "insert-hyphens", FALSE);
  ADD_TAG ("codeblock",
           "family", "monospace",
           "wrap-mode", GTK_WRAP_CHAR,
           "insert-hyphens", FALSE,
           "left-margin", 12,
           "right-margin", 12);
  ADD_TAG ("quote", "style", PANGO_STYLE_ITALIC, "left-margin", 18);
  ADD_TAG ("block", "pixels-above-lines", 8);
  ADD_TAG ("rule", "foreground", "gray");
  ADD_TAG ("table", "family", "monospace", "insert-hyphens", FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
    {
      char name[4] = { 'h', (char) ('1' + i), 0, 0 };

      ADD_TAG (name, "weight", PANGO_WEIGHT_BOLD, "scale", scales[i]);
    }
  for (guint i = 1; i <= MAX_DEPTH; i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "indent%u", i);
      ADD_TAG (name, "left-margin", (int) i * 18, "indent", -14);
    }
#undef ADD_TAG
}

/**
 * pal_markdown_get_tag_table:
 *
 * Returns: (transfer none): the tag table that the text of every Markdown
 *   view shares: its tags are made once, not for each message shown
 */
GtkTextTagTable *
pal_markdown_get_tag_table (void)
{
  static GtkTextTagTable *table;

  if (table == NULL)
    {
      table = gtk_text_tag_table_new ();
      pal_markdown_ensure_tag_table (table);
    }

  return table;
}

void
pal_markdown_ensure_tags (GtkTextBuffer *buffer)
{
  g_return_if_fail (GTK_IS_TEXT_BUFFER (buffer));

  pal_markdown_ensure_tag_table (gtk_text_buffer_get_tag_table (buffer));
}

PalMarkdownTable *
_pal_markdown_table_new (guint n_columns)
{
  PalMarkdownTable *table = g_new0 (PalMarkdownTable, 1);

  table->n_columns = n_columns;
  table->xaligns = g_new0 (float, MAX (n_columns, 1));
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  return table;
}

void
_pal_markdown_table_free (PalMarkdownTable *table)
{
  g_ptr_array_unref (table->rows);
  g_free (table->xaligns);
  g_free (table);
}

static GtkTextTag *
lookup_tag (Renderer   *r,
            const char *name)
{
  return gtk_text_tag_table_lookup (r->tag_table, name);
}

static void
push_tag (Renderer   *r,
          GtkTextTag *tag)
{
  if (tag != NULL)
    g_ptr_array_add (r->tags, g_object_ref (tag));
}

static void
pop_tag (Renderer   *r,
         GtkTextTag *tag)
{
  if (tag == NULL)
    return;

  /* remove the innermost occurrence */
  for (guint i = r->tags->len; i > 0; i--)
    {
      if (g_ptr_array_index (r->tags, i - 1) == tag)
        {
          g_ptr_array_remove_index (r->tags, i - 1);
          return;
        }
    }
}

static void
insert_text (Renderer   *r,
             const char *text,
             gsize       length)
{
  GtkTextIter start;
  int start_offset;

  if (length == 0)
    return;

  if (r->code != NULL)
    {
      g_string_append_len (r->code, text, (gssize) length);
      return;
    }
  if (r->table != NULL)
    {
      /* text between the cells is none of them */
      if (r->cell != NULL)
        _pal_markdown_markup_append_escaped (r->cell, text, length);
      return;
    }
  if (r->buffer == NULL)
    {
      /* the sink's text buffer, after a code block or a table */
      r->buffer = r->sink->text_buffer (r->sink_data);
      gtk_text_buffer_get_end_iter (r->buffer, &r->end);
      r->iter = &r->end;
    }

  if (r->need_break)
    {
      if (gtk_text_iter_get_offset (r->iter) > 0)
        gtk_text_buffer_insert (r->buffer, r->iter, "\n", 1);
      r->need_break = FALSE;
    }

  start_offset = gtk_text_iter_get_offset (r->iter);
  gtk_text_buffer_insert (r->buffer, r->iter, text, (int) length);
  gtk_text_buffer_get_iter_at_offset (r->buffer, &start, start_offset);

  for (guint i = 0; i < r->tags->len; i++)
    gtk_text_buffer_apply_tag (r->buffer, g_ptr_array_index (r->tags, i), &start, r->iter);

  if (r->block_start)
    {
      /* the first line of a block gets the spacing above it */
      if (start_offset > 0)
        gtk_text_buffer_apply_tag (r->buffer, lookup_tag (r, "block"), &start, r->iter);
      r->block_start = FALSE;
    }
}

static void
insert_literal (Renderer   *r,
                const char *text)
{
  insert_text (r, text, strlen (text));
}

static GtkTextTag *
indent_tag (Renderer *r)
{
  char name[16];
  int depth = r->list_depth + r->quote_depth;

  if (depth <= 0)
    return NULL;

  g_snprintf (name, sizeof name, "indent%d", MIN (depth, MAX_DEPTH));
  return lookup_tag (r, name);
}

static void
start_block (Renderer *r,
             gboolean  spaced)
{
  r->need_break = TRUE;
  r->block_start = spaced;
}

static guint
depth (Renderer *r)
{
  return (guint) (r->list_depth + r->quote_depth);
}

/* With a sink, code blocks and tables are read for it rather than
 * rendered. Returns: whether @type was taken care of so */
static gboolean
enter_part_block (Renderer     *r,
                  MD_BLOCKTYPE  type,
                  void         *detail)
{
  switch (type)
    {
    case MD_BLOCK_CODE:
      {
        MD_BLOCK_CODE_DETAIL *code = detail;

        r->code = g_string_new (NULL);
        g_clear_pointer (&r->code_info, g_free);
        if (code->info.size > 0)
          r->code_info = g_strndup (code->info.text, code->info.size);
        r->code_depth = depth (r);
      }
      return TRUE;

    case MD_BLOCK_TABLE:
      r->table = _pal_markdown_table_new (((MD_BLOCK_TABLE_DETAIL *) detail)->col_count);
      r->code_depth = depth (r);
      return TRUE;

    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      r->in_head = (type == MD_BLOCK_THEAD);
      return r->table != NULL;

    case MD_BLOCK_TR:
      if (r->table == NULL)
        return FALSE;
      g_clear_pointer (&r->row, g_ptr_array_unref);
      r->row = g_ptr_array_new_with_free_func (g_free);
      return TRUE;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (r->table == NULL || r->row == NULL)
        return FALSE;
      /* the alignment of a column is that of its cells */
      if (r->table->rows->len == 0 && r->row->len < r->table->n_columns)
        {
          static const float xaligns[] = { 0.0f, 0.0f, 0.5f, 1.0f };
          MD_ALIGN align = ((MD_BLOCK_TD_DETAIL *) detail)->align;

          r->table->xaligns[r->row->len] = xaligns[CLAMP ((int) align, 0, 3)];
        }
      if (r->cell != NULL)
        g_string_free (r->cell, TRUE);
      r->cell = g_string_new (NULL);
      return TRUE;

    default:
      return FALSE;
    }
}

static gboolean
leave_part_block (Renderer     *r,
                  MD_BLOCKTYPE  type)
{
  switch (type)
    {
    case MD_BLOCK_CODE:
      if (r->code == NULL)
        return FALSE;
      r->sink->code_block (r->sink_data, r->code_info, r->code->str, r->code->len, r->code_depth);
      g_string_free (g_steal_pointer (&r->code), TRUE);
      g_clear_pointer (&r->code_info, g_free);
      /* what follows goes to a new text buffer */
      r->buffer = NULL;
      start_block (r, TRUE);
      return TRUE;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (r->cell == NULL)
        return FALSE;
      g_ptr_array_add (r->row, g_string_free (g_steal_pointer (&r->cell), FALSE));
      return TRUE;

    case MD_BLOCK_TR:
      if (r->row == NULL)
        return FALSE;
      g_ptr_array_add (r->row, NULL);
      g_ptr_array_add (r->table->rows, g_ptr_array_free (g_steal_pointer (&r->row), FALSE));
      if (r->in_head)
        r->table->n_head_rows++;
      return TRUE;

    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      return r->table != NULL;

    case MD_BLOCK_TABLE:
      if (r->table == NULL)
        return FALSE;
      r->sink->table (r->sink_data, r->table, r->code_depth);
      g_clear_pointer (&r->table, _pal_markdown_table_free);
      r->buffer = NULL;
      start_block (r, TRUE);
      return TRUE;

    default:
      return FALSE;
    }
}

static int
enter_block_cb (MD_BLOCKTYPE  type,
                void         *detail,
                void         *user_data)
{
  Renderer *r = user_data;

  if (r->sink != NULL && enter_part_block (r, type, detail))
    return 0;

  switch (type)
    {
    case MD_BLOCK_DOC:
      break;

    case MD_BLOCK_QUOTE:
      r->quote_depth++;
      push_tag (r, lookup_tag (r, "quote"));
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      if (r->list_depth < MAX_DEPTH)
        {
          ListLevel *level = &r->lists[r->list_depth];

          level->ordered = (type == MD_BLOCK_OL);
          level->number = level->ordered ? ((MD_BLOCK_OL_DETAIL *) detail)->start : 0;
          level->first = TRUE;
        }
      start_block (r, r->list_depth == 0);
      r->list_depth++;
      break;

    case MD_BLOCK_LI:
      {
        MD_BLOCK_LI_DETAIL *li = detail;
        ListLevel *level = &r->lists[MIN (r->list_depth, MAX_DEPTH) - 1];
        GtkTextTag *indent;
        char marker[32];

        if (r->list_depth == 0)
          break;

        /* the first item opens the list's block; the others follow it */
        if (level->first)
          level->first = FALSE;
        else
          start_block (r, FALSE);
        indent = indent_tag (r);
        push_tag (r, indent);

        if (li->is_task)
          g_strlcpy (marker, (li->task_mark == ' ') ? "☐ " : "☑ ", sizeof marker);
        else if (level->ordered)
          g_snprintf (marker, sizeof marker, "%u. ", level->number++);
        else
          g_strlcpy (marker, r->list_depth % 2 == 1 ? "• " : "◦ ", sizeof marker);
        insert_literal (r, marker);
      }
      break;

    case MD_BLOCK_HR:
      start_block (r, TRUE);
      push_tag (r, lookup_tag (r, "rule"));
      insert_literal (r, "――――――――――――――――――――");
      pop_tag (r, lookup_tag (r, "rule"));
      break;

    case MD_BLOCK_H:
      {
        MD_BLOCK_H_DETAIL *h = detail;
        char name[4] = { 'h', (char) ('0' + CLAMP (h->level, 1, 6)), 0, 0 };

        start_block (r, TRUE);
        push_tag (r, lookup_tag (r, name));
      }
      break;

    case MD_BLOCK_CODE:
      start_block (r, TRUE);
      push_tag (r, lookup_tag (r, "codeblock"));
      break;

    case MD_BLOCK_HTML:
      start_block (r, TRUE);
      push_tag (r, lookup_tag (r, "code"));
      break;

    case MD_BLOCK_P:
      /* the first paragraph of a list item continues the marker's line */
      if (r->list_depth == 0)
        start_block (r, TRUE);
      else if (r->need_break)
        start_block (r, FALSE);
      push_tag (r, indent_tag (r));
      break;

    case MD_BLOCK_TABLE:
      start_block (r, TRUE);
      push_tag (r, lookup_tag (r, "table"));
      break;

    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      break;

    case MD_BLOCK_TR:
      start_block (r, FALSE);
      r->table_cell = 0;
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (r->table_cell++ > 0)
        insert_literal (r, " │ ");
      if (type == MD_BLOCK_TH)
        push_tag (r, lookup_tag (r, "strong"));
      break;

    default:
      break;
    }

  return 0;
}

static int
leave_block_cb (MD_BLOCKTYPE  type,
                void         *detail,
                void         *user_data)
{
  Renderer *r = user_data;

  if (r->sink != NULL && leave_part_block (r, type))
    return 0;

  switch (type)
    {
    case MD_BLOCK_QUOTE:
      r->quote_depth--;
      pop_tag (r, lookup_tag (r, "quote"));
      start_block (r, TRUE);
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      r->list_depth--;
      start_block (r, TRUE);
      break;

    case MD_BLOCK_LI:
      if (r->list_depth > 0)
        pop_tag (r, indent_tag (r));
      start_block (r, FALSE);
      break;

    case MD_BLOCK_H:
      {
        MD_BLOCK_H_DETAIL *h = detail;
        char name[4] = { 'h', (char) ('0' + CLAMP (h->level, 1, 6)), 0, 0 };

        pop_tag (r, lookup_tag (r, name));
        start_block (r, TRUE);
      }
      break;

    case MD_BLOCK_CODE:
      {
        GtkTextIter before = *r->iter;

        /* md4c hands code blocks over with their final newline: drop it */
        if (gtk_text_iter_backward_char (&before) && gtk_text_iter_get_char (&before) == '\n')
          {
            gtk_text_buffer_delete (r->buffer, &before, r->iter);
          }
        pop_tag (r, lookup_tag (r, "codeblock"));
        start_block (r, TRUE);
      }
      break;

    case MD_BLOCK_HTML:
      pop_tag (r, lookup_tag (r, "code"));
      start_block (r, TRUE);
      break;

    case MD_BLOCK_P:
      pop_tag (r, indent_tag (r));
      start_block (r, r->list_depth == 0);
      break;

    case MD_BLOCK_TABLE:
      pop_tag (r, lookup_tag (r, "table"));
      start_block (r, TRUE);
      break;

    case MD_BLOCK_TH:
      pop_tag (r, lookup_tag (r, "strong"));
      break;

    default:
      break;
    }

  return 0;
}

static GtkTextTag *
span_tag (Renderer    *r,
          MD_SPANTYPE  type)
{
  switch (type)
    {
    case MD_SPAN_EM:
      return lookup_tag (r, "em");
    case MD_SPAN_STRONG:
      return lookup_tag (r, "strong");
    case MD_SPAN_CODE:
      return lookup_tag (r, "code");
    case MD_SPAN_DEL:
      return lookup_tag (r, "del");
    case MD_SPAN_U:
      return lookup_tag (r, "u");
    case MD_SPAN_A:
    case MD_SPAN_IMG:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      return NULL;
    }
}

/* The tag of the links to @href (one per target, in the table) */
static GtkTextTag *
link_tag (GtkTextTagTable *table,
          const char      *href,
          gsize            size)
{
  GHashTable *tags = g_object_get_data (G_OBJECT (table), LINK_TAGS_KEY);
  g_autofree char *uri = g_strndup (href, size);
  GtkTextTag *tag;

  if (tags == NULL)
    {
      tags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_object_set_data_full (G_OBJECT (table), LINK_TAGS_KEY, tags, (GDestroyNotify) g_hash_table_unref);
    }

  tag = g_hash_table_lookup (tags, uri);
  if (tag != NULL)
    return tag;

  /* anonymous, holding its target */
  tag = g_object_new (GTK_TYPE_TEXT_TAG,
                      "underline", PANGO_UNDERLINE_SINGLE,
                      "foreground", "#1c71d8",
                      "insert-hyphens", FALSE,
                      NULL);
  g_object_set_data_full (G_OBJECT (tag), PAL_MARKDOWN_LINK_URI, g_strdup (uri), g_free);
  gtk_text_tag_table_add (table, tag);
  g_object_unref (tag);
  g_hash_table_insert (tags, g_steal_pointer (&uri), tag);

  return tag;
}

static int
enter_span_cb (MD_SPANTYPE  type,
               void        *detail,
               void        *user_data)
{
  Renderer *r = user_data;

  if (r->table != NULL)
    {
      if (r->cell != NULL)
        _pal_markdown_markup_open_span (r->cell, type, detail, TRUE);
      return 0;
    }

  if (type == MD_SPAN_A)
    {
      MD_SPAN_A_DETAIL *a = detail;

      push_tag (r, link_tag (r->tag_table, a->href.text, a->href.size));
      return 0;
    }

  push_tag (r, span_tag (r, type));
  return 0;
}

static int
leave_span_cb (MD_SPANTYPE  type,
               void        *detail,
               void        *user_data)
{
  Renderer *r = user_data;

  if (r->table != NULL)
    {
      if (r->cell != NULL)
        _pal_markdown_markup_close_span (r->cell, type, TRUE);
      return 0;
    }

  if (type == MD_SPAN_A)
    {
      /* the innermost link tag */
      for (guint i = r->tags->len; i > 0; i--)
        {
          GtkTextTag *tag = g_ptr_array_index (r->tags, i - 1);

          if (g_object_get_data (G_OBJECT (tag), PAL_MARKDOWN_LINK_URI) != NULL)
            {
              g_ptr_array_remove_index (r->tags, i - 1);
              break;
            }
        }
      return 0;
    }

  pop_tag (r, span_tag (r, type));
  return 0;
}

/**
 * pal_markdown_append_entity:
 * @out: where to append
 * @text: an entity as md4c reports it, e.g. `&amp;` or `&#x41;`
 * @size: its length in bytes
 *
 * Appends the character an entity stands for; an entity it does not know
 * as it is.
 */
void
pal_markdown_append_entity (GString    *out,
                            const char *text,
                            gsize       size)
{
  static const struct { const char *name; const char *value; } named[] = {
    { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
    { "&apos;", "'" }, { "&nbsp;", "\xc2\xa0" }, { "&copy;", "©" }, { "&mdash;", "—" },
    { "&ndash;", "–" }, { "&hellip;", "…" },
  };
  g_autofree char *entity = g_strndup (text, size);

  if (size > 3 && entity[1] == '#')
    {
      gunichar ch;

      if (entity[2] == 'x' || entity[2] == 'X')
        ch = (gunichar) g_ascii_strtoull (entity + 3, NULL, 16);
      else
        ch = (gunichar) g_ascii_strtoull (entity + 2, NULL, 10);

      if (ch == 0 || !g_unichar_validate (ch))
        ch = 0xFFFD;
      g_string_append_unichar (out, ch);
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    {
      if (g_str_equal (entity, named[i].name))
        {
          g_string_append (out, named[i].value);
          return;
        }
    }

  g_string_append_len (out, text, (gssize) size);
}

static void
insert_entity (Renderer   *r,
               const char *text,
               gsize       size)
{
  g_autoptr(GString) decoded = g_string_new (NULL);

  pal_markdown_append_entity (decoded, text, size);
  insert_text (r, decoded->str, decoded->len);
}

static int
text_cb (MD_TEXTTYPE    type,
         const MD_CHAR *text,
         MD_SIZE        size,
         void          *user_data)
{
  Renderer *r = user_data;

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      insert_literal (r, "\xef\xbf\xbd");
      break;

    case MD_TEXT_BR:
      insert_literal (r, "\n");
      break;

    case MD_TEXT_SOFTBR:
      insert_literal (r, r->hard_breaks ? "\n" : " ");
      break;

    case MD_TEXT_ENTITY:
      insert_entity (r, text, size);
      break;

    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      insert_text (r, text, size);
      break;
    }

  return 0;
}

static void
render (Renderer   *r,
        const char *text,
        gsize       length)
{
  g_autoptr(GPtrArray) tags = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *valid = NULL;
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
    .enter_block = enter_block_cb,
    .leave_block = leave_block_cb,
    .enter_span = enter_span_cb,
    .leave_span = leave_span_cb,
    .text = text_cb,
  };

  if (length == 0)
    return;

  if (!g_utf8_validate_len (text, length, NULL))
    {
      valid = g_utf8_make_valid (text, length);
      text = valid;
      length = strlen (valid);
    }

  r->tags = tags;
  /* What is rendered here starts a new block after what the buffer has. */
  r->need_break = TRUE;
  r->block_start = TRUE;

  if (length > G_MAXUINT32)
    {
      insert_text (r, text, length);
      return;
    }

  md_parse (text, (MD_SIZE) length, &parser, r);

  /* md4c stopped early (it only does when out of memory) */
  if (r->code != NULL)
    g_string_free (r->code, TRUE);
  g_free (r->code_info);
  g_clear_pointer (&r->table, _pal_markdown_table_free);
  g_clear_pointer (&r->row, g_ptr_array_unref);
  if (r->cell != NULL)
    g_string_free (r->cell, TRUE);
}

/**
 * pal_markdown_insert:
 * @buffer: a #GtkTextBuffer
 * @iter: where to insert; moved to the end of the inserted text
 * @text: Markdown, need not be nul-terminated; invalid UTF-8 is replaced
 * @length: length of @text in bytes
 *
 * Renders @text at @iter with the tags of pal_markdown_ensure_tags().
 */
void
pal_markdown_insert (GtkTextBuffer *buffer,
                     GtkTextIter   *iter,
                     const char    *text,
                     gsize          length)
{
  pal_markdown_insert_full (buffer, iter, text, length, FALSE);
}

/**
 * pal_markdown_insert_full:
 * @buffer: a #GtkTextBuffer
 * @iter: where to insert; moved to the end of the inserted text
 * @text: Markdown, need not be nul-terminated; invalid UTF-8 is replaced
 * @length: length of @text in bytes
 * @hard_breaks: whether a line break within a paragraph stays one (as in
 *   a tool's output, which may be Markdown or not), rather than a space
 *
 * Renders @text at @iter with the tags of pal_markdown_ensure_tags().
 */
void
pal_markdown_insert_full (GtkTextBuffer *buffer,
                          GtkTextIter   *iter,
                          const char    *text,
                          gsize          length,
                          gboolean       hard_breaks)
{
  Renderer r = {
    .buffer = buffer,
    .iter = iter,
    .hard_breaks = hard_breaks,
  };

  g_return_if_fail (GTK_IS_TEXT_BUFFER (buffer));
  g_return_if_fail (iter != NULL);
  g_return_if_fail (text != NULL || length == 0);

  pal_markdown_ensure_tags (buffer);
  r.tag_table = gtk_text_buffer_get_tag_table (buffer);
  render (&r, text, length);
}

/**
 * pal_markdown_render:
 * @tag_table: the tag table of every buffer @sink gives
 * @text: Markdown, need not be nul-terminated; invalid UTF-8 is replaced
 * @length: length of @text in bytes
 * @sink: where the text, the code blocks and the tables go
 * @user_data: for @sink's functions
 *
 * Renders @text: its text into the buffers @sink gives, code blocks and
 * tables to @sink as they are (see the top of the file).
 */
void
pal_markdown_render (GtkTextTagTable       *tag_table,
                     const char            *text,
                     gsize                  length,
                     const PalMarkdownSink *sink,
                     gpointer               user_data)
{
  Renderer r = {
    .tag_table = tag_table,
    .sink = sink,
    .sink_data = user_data,
  };

  g_return_if_fail (GTK_IS_TEXT_TAG_TABLE (tag_table));
  g_return_if_fail (text != NULL || length == 0);
  g_return_if_fail (sink != NULL);

  pal_markdown_ensure_tag_table (tag_table);
  render (&r, text, length);
}

/**
 * pal_markdown_get_link_tag:
 * @table: a tag table of Markdown tags
 * @uri: a link's target
 *
 * Returns: (transfer none): the tag of the links to @uri in @table, as
 *   rendered Markdown links are tagged
 */
GtkTextTag *
pal_markdown_get_link_tag (GtkTextTagTable *table,
                           const char      *uri)
{
  g_return_val_if_fail (GTK_IS_TEXT_TAG_TABLE (table), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  return link_tag (table, uri, strlen (uri));
}

/**
 * pal_markdown_get_link_at:
 * @iter: a position in a buffer filled by pal_markdown_insert()
 *
 * Returns: (nullable): the target of the link at @iter
 */
const char *
pal_markdown_get_link_at (const GtkTextIter *iter)
{
  g_autoptr(GSList) tags = NULL;

  g_return_val_if_fail (iter != NULL, NULL);

  tags = gtk_text_iter_get_tags (iter);
  for (GSList *l = tags; l != NULL; l = l->next)
    {
      const char *uri = g_object_get_data (l->data, PAL_MARKDOWN_LINK_URI);

      if (uri != NULL)
        return uri;
    }

  return NULL;
}

typedef struct
{
  int                   priority;
  PangoFontDescription *font;    /* the fields the tag sets */
  double                scale;   /* 0 when the tag sets none */
} FontTag;

static void
collect_font_tag_cb (GtkTextTag *tag,
                     gpointer    user_data)
{
  GArray *tags = user_data;
  PangoFontDescription *font = NULL;
  gboolean scale_set = FALSE;
  double scale = 1.0;
  FontTag font_tag;

  g_object_get (tag, "font-desc", &font, "scale-set", &scale_set, "scale", &scale, NULL);
  if (font != NULL && pango_font_description_get_set_fields (font) == 0)
    g_clear_pointer (&font, pango_font_description_free);
  if (font == NULL && !scale_set)
    return;

  font_tag.priority = gtk_text_tag_get_priority (tag);
  font_tag.font = font;
  font_tag.scale = scale_set ? scale : 0.0;
  g_array_append_val (tags, font_tag);
}

static int
compare_priority (gconstpointer a,
                  gconstpointer b)
{
  return ((const FontTag *) a)->priority - ((const FontTag *) b)->priority;
}

static void
clear_font_tag (gpointer data)
{
  g_clear_pointer (&((FontTag *) data)->font, pango_font_description_free);
}

/* @base with @low then @high (either may be NULL) on top, as the text view
 * combines the tags: the one of higher priority wins where both set a field */
static PangoFontDescription *
combine_font (const PangoFontDescription *base,
              const FontTag              *low,
              const FontTag              *high)
{
  PangoFontDescription *font = pango_font_description_copy (base);
  const FontTag *tags[] = { low, high };
  double scale = 1.0;

  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    {
      if (tags[i] == NULL)
        continue;
      if (tags[i]->font != NULL)
        pango_font_description_merge (font, tags[i]->font, TRUE);
      if (tags[i]->scale > 0.0)
        scale = tags[i]->scale;
    }

  if (scale != 1.0 && pango_font_description_get_size (font) > 0)
    {
      int size = (int) (pango_font_description_get_size (font) * scale + 0.5);

      if (pango_font_description_get_size_is_absolute (font))
        pango_font_description_set_absolute_size (font, size);
      else
        pango_font_description_set_size (font, size);
    }

  return font;
}

static void
add_font (GPtrArray            *fonts,
          GHashTable           *seen,
          PangoFontDescription *font)
{
  if (g_hash_table_add (seen, pango_font_description_to_string (font)))
    g_ptr_array_add (fonts, font);
  else
    pango_font_description_free (font);
}

/**
 * pal_markdown_dup_fonts:
 * @base: the font of the view the Markdown is shown in
 *
 * The fonts Markdown text may be shown in over @base: @base itself, @base
 * with the font of each tag of pal_markdown_ensure_tags(), and with those of
 * each two tags together (bold inside a heading, code inside a quote). Each
 * font is listed once.
 *
 * Returns: (transfer full) (element-type PangoFontDescription): the fonts
 */
GPtrArray *
pal_markdown_dup_fonts (const PangoFontDescription *base)
{
  g_autoptr(GtkTextBuffer) buffer = NULL;
  g_autoptr(GArray) tags = NULL;
  g_autoptr(GHashTable) seen = NULL;
  GPtrArray *fonts;

  g_return_val_if_fail (base != NULL, NULL);

  buffer = gtk_text_buffer_new (NULL);
  pal_markdown_ensure_tags (buffer);
  tags = g_array_new (FALSE, FALSE, sizeof (FontTag));
  g_array_set_clear_func (tags, clear_font_tag);
  gtk_text_tag_table_foreach (gtk_text_buffer_get_tag_table (buffer), collect_font_tag_cb, tags);
  g_array_sort (tags, compare_priority);

  fonts = g_ptr_array_new_with_free_func ((GDestroyNotify) pango_font_description_free);
  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  add_font (fonts, seen, pango_font_description_copy (base));
  for (guint i = 0; i < tags->len; i++)
    {
      const FontTag *low = &g_array_index (tags, FontTag, i);

      add_font (fonts, seen, combine_font (base, low, NULL));
      for (guint j = i + 1; j < tags->len; j++)
        add_font (fonts, seen, combine_font (base, low, &g_array_index (tags, FontTag, j)));
    }

  return fonts;
}

void
pal_markdown_scanner_init (PalMarkdownScanner *scanner)
{
  g_return_if_fail (scanner != NULL);

  memset (scanner, 0, sizeof *scanner);
}

/* Returns the fence length when line opens or closes a fence with fence_char
 * (0 = any), else 0. */
static guint
fence_at (const char *line,
          gsize       length,
          char        fence_char)
{
  gsize i = 0;
  guint n = 0;
  char c;

  while (i < length && i < 3 && line[i] == ' ')
    i++;
  if (i >= length)
    return 0;

  c = line[i];
  if (c != '`' && c != '~')
    return 0;
  if (fence_char != 0 && c != fence_char)
    return 0;

  while (i < length && line[i] == c)
    {
      i++;
      n++;
    }

  return n >= 3 ? n : 0;
}

void
pal_markdown_scanner_feed (PalMarkdownScanner *scanner,
                           const char         *text,
                           gsize               length)
{
  g_return_if_fail (scanner != NULL);

  while (scanner->scanned < length)
    {
      const char *line = text + scanner->scanned;
      gsize from = MAX (scanner->searched, scanner->scanned);
      const char *nl = from < length ? memchr (text + from, '\n', length - from) : NULL;
      gsize line_len;
      gboolean blank = TRUE;

      if (nl == NULL)
        {
          scanner->searched = MAX (from, length);
          /* an incomplete line can already start a block */
          if (scanner->fence_char == 0 && scanner->prev_blank &&
              line[0] != ' ' && line[0] != '\t' && line[0] != '\r')
            scanner->stable = scanner->scanned;
          break;
        }

      line_len = nl - line;
      for (gsize i = 0; i < line_len; i++)
        {
          if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            {
              blank = FALSE;
              break;
            }
        }

      if (scanner->fence_char != 0)
        {
          guint n = fence_at (line, line_len, scanner->fence_char);

          if (n >= scanner->fence_len)
            {
              /* a closing fence has nothing but spaces after it */
              gsize i = 0;

              while (i < line_len && line[i] == ' ')
                i++;
              i += n;
              while (i < line_len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
                i++;
              if (i == line_len)
                scanner->fence_char = 0;
            }
        }
      else if (!blank)
        {
          guint n;

          if (scanner->prev_blank && line[0] != ' ' && line[0] != '\t')
            scanner->stable = scanner->scanned;

          n = fence_at (line, line_len, 0);
          if (n > 0)
            {
              gsize i = 0;

              while (i < line_len && line[i] == ' ')
                i++;
              scanner->fence_char = line[i];
              scanner->fence_len = n;
            }
        }

      scanner->prev_blank = blank && scanner->fence_char == 0;
      scanner->scanned += line_len + 1;
    }
}
