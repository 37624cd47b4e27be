/* pal-markdown-view.h: a read-only text view rendering streamed Markdown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-text-view.h"

G_BEGIN_DECLS

#define PAL_TYPE_MARKDOWN_VIEW (pal_markdown_view_get_type ())

G_DECLARE_FINAL_TYPE (PalMarkdownView, pal_markdown_view, PAL, MARKDOWN_VIEW, PalTextView)

GtkWidget  *pal_markdown_view_new         (void);
void        pal_markdown_view_set_text    (PalMarkdownView *self,
                                           const char      *text);
void        pal_markdown_view_append      (PalMarkdownView *self,
                                           const char      *chunk,
                                           gssize           length);
const char *pal_markdown_view_get_text    (PalMarkdownView *self);
gboolean    pal_markdown_view_get_plain   (PalMarkdownView *self);
void        pal_markdown_view_set_plain   (PalMarkdownView *self,
                                           gboolean         plain);
void        pal_markdown_view_flush       (PalMarkdownView *self);
void        pal_markdown_view_set_hard_breaks (PalMarkdownView *self,
                                               gboolean         hard_breaks);
gboolean    pal_markdown_view_get_pending (PalMarkdownView *self);

void             pal_markdown_view_truncate  (PalMarkdownView *self,
                                              gsize            length);

G_END_DECLS
