/* pal-markdown.h: Markdown (CommonMark + GitHub extensions) into a GtkTextBuffer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A link's tag carries its target as object data under this key. */
#define PAL_MARKDOWN_LINK_URI "pal-markdown-link-uri"

/* A table, as pal_markdown_render () hands it over */
typedef struct
{
  guint      n_columns;
  guint      n_head_rows;  /* the first rows are its head */
  float     *xaligns;      /* of each column: 0 left, 0.5 centre, 1 right */
  GPtrArray *rows;         /* (element-type GStrv): the cells of each row as
                            * Pango markup; a row may have fewer cells */
} PalMarkdownTable;

/* Where pal_markdown_render () puts what it renders */
typedef struct
{
  /* the buffer text goes into now, at its end (on the tag table given) */
  GtkTextBuffer *(*text_buffer) (gpointer                user_data);
  /* a code block: the info string of its fence (nullable) and its code,
   * each line ending in a line break; @depth: of the lists and quotes it
   * is in */
  void           (*code_block)  (gpointer                user_data,
                                 const char             *info,
                                 const char             *code,
                                 gsize                   length,
                                 guint                   depth);
  void           (*table)       (gpointer                user_data,
                                 const PalMarkdownTable *table,
                                 guint                   depth);
} PalMarkdownSink;

void        pal_markdown_ensure_tag_table (GtkTextTagTable *table);
GtkTextTagTable *pal_markdown_get_tag_table (void);
void        pal_markdown_ensure_tags  (GtkTextBuffer *buffer);
void        pal_markdown_insert       (GtkTextBuffer *buffer,
                                       GtkTextIter   *iter,
                                       const char    *text,
                                       gsize          length);
void        pal_markdown_insert_full  (GtkTextBuffer *buffer,
                                       GtkTextIter   *iter,
                                       const char    *text,
                                       gsize          length,
                                       gboolean       hard_breaks);
void        pal_markdown_render       (GtkTextTagTable       *tag_table,
                                       const char            *text,
                                       gsize                  length,
                                       const PalMarkdownSink *sink,
                                       gpointer               user_data);
const char *pal_markdown_get_link_at  (const GtkTextIter *iter);
GtkTextTag *pal_markdown_get_link_tag (GtkTextTagTable   *table,
                                       const char        *uri);
void        pal_markdown_append_entity (GString          *out,
                                        const char       *text,
                                        gsize             size);

/* Markdown for a label (pal-markdown-markup.c): Pango markup, and the code
 * of a text that is one fenced code block and nothing else (or NULL). */
char       *pal_markdown_to_markup         (const char *text,
                                            gssize      length);
char       *pal_markdown_dup_code_block    (const char *text,
                                            gssize      length);
GPtrArray  *pal_markdown_dup_fonts    (const PangoFontDescription *base);
void        pal_label_set_no_hyphens  (GtkLabel                   *label);

/* Finds where streamed Markdown can be cut: a point before which nothing that
 * may still arrive can change how the text renders. Feed it the whole text
 * each time (it only scans what is new); `stable` is then the byte offset of
 * the last such point: the start of a line that follows a blank line, begins
 * in the first column and lies outside any fenced code block. */
typedef struct
{
  gsize    scanned;     /* bytes of complete lines looked at */
  gsize    searched;    /* the incomplete line after them holds no newline
                         * up to here: a long line is searched once */
  gsize    stable;      /* the last cut point found */
  gboolean prev_blank;
  char     fence_char;  /* '`' or '~' inside a fence, else 0 */
  guint    fence_len;
} PalMarkdownScanner;

void        pal_markdown_scanner_init (PalMarkdownScanner *scanner);
void        pal_markdown_scanner_feed (PalMarkdownScanner *scanner,
                                       const char         *text,
                                       gsize               length);

G_END_DECLS
