/* pal-markdown-view.h: streamed Markdown, its code blocks and tables widgets of their own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PAL_TYPE_MARKDOWN_VIEW (pal_markdown_view_get_type ())

G_DECLARE_FINAL_TYPE (PalMarkdownView, pal_markdown_view, PAL, MARKDOWN_VIEW, GtkWidget)

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
gboolean    pal_markdown_view_get_pending (PalMarkdownView *self);

void        pal_markdown_view_link_plain  (PalMarkdownView *self,
                                           gsize            start,
                                           gsize            end,
                                           const char      *uri);

void             pal_markdown_view_truncate  (PalMarkdownView *self,
                                              gsize            length);

G_END_DECLS
