/* pal-markdown-text.h: a read-only text view of Markdown text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-text-view.h"

G_BEGIN_DECLS

#define PAL_TYPE_MARKDOWN_TEXT (pal_markdown_text_get_type ())

G_DECLARE_FINAL_TYPE (PalMarkdownText, pal_markdown_text, PAL, MARKDOWN_TEXT, PalTextView)

GtkWidget *pal_markdown_text_new             (void);
void       pal_markdown_text_set_markdown    (PalMarkdownText *self,
                                              const char      *markdown,
                                              gboolean         hard_breaks);
void       pal_markdown_text_tag_long_words  (PalMarkdownText *self,
                                              int              from_offset);

G_END_DECLS
