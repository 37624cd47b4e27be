/* pal-mention-finder.h: '@' in the composer: a file finder, and chips in the text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pal-prompt.h"

G_BEGIN_DECLS

#define PAL_TYPE_MENTION_FINDER (pal_mention_finder_get_type ())

G_DECLARE_FINAL_TYPE (PalMentionFinder, pal_mention_finder, PAL, MENTION_FINDER, GObject)

PalMentionFinder *pal_mention_finder_new            (GtkTextView      *view);
void              pal_mention_finder_set_folders    (PalMentionFinder *self,
                                                     GFile           **folders,
                                                     guint             n_folders);
gboolean          pal_mention_finder_key_pressed    (PalMentionFinder *self,
                                                     guint             keyval,
                                                     GdkModifierType   state);
void              pal_mention_finder_hide           (PalMentionFinder *self);
guint             pal_mention_finder_get_n_hits     (PalMentionFinder *self);
char             *pal_mention_finder_dup_text       (PalMentionFinder *self);
void              pal_mention_finder_add_attachments (PalMentionFinder *self,
                                                     PalPrompt        *prompt);
void              pal_mention_finder_set_text       (PalMentionFinder *self,
                                                     const char       *text,
                                                     GListModel       *attachments);
void              pal_mention_finder_unparent       (PalMentionFinder *self);

G_END_DECLS
