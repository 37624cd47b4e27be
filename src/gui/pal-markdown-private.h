/* pal-markdown-private.h: what the Markdown renderers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <md4c.h>

#include "pal-markdown.h"

G_BEGIN_DECLS

/* pal-markdown.c */
PalMarkdownTable *_pal_markdown_table_new           (guint        n_columns);
void              _pal_markdown_table_free          (PalMarkdownTable *table);

/* pal-markdown-markup.c: spans as Pango markup; @links: links as <a>
 * (a label that shows them follows them), else as their text */
void              _pal_markdown_markup_append_escaped (GString     *out,
                                                       const char  *text,
                                                       gsize        size);
void              _pal_markdown_markup_open_span      (GString     *out,
                                                       MD_SPANTYPE  type,
                                                       void        *detail,
                                                       gboolean     links);
void              _pal_markdown_markup_close_span     (GString     *out,
                                                       MD_SPANTYPE  type,
                                                       gboolean     links);

G_END_DECLS
