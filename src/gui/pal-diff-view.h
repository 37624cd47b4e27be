/* pal-diff-view.h: the diff content of a tool call
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-code-view.h"

G_BEGIN_DECLS

#define PAL_TYPE_DIFF_VIEW (pal_diff_view_get_type ())

G_DECLARE_FINAL_TYPE (PalDiffView, pal_diff_view, PAL, DIFF_VIEW, AdwBin)

GtkWidget *pal_diff_view_new      (void);
void       pal_diff_view_set_diff (PalDiffView *self,
                                   const char  *path,
                                   const char  *folder,
                                   const char  *old_text,
                                   const char  *new_text);
guint      pal_diff_view_get_n_added   (PalDiffView *self);
guint      pal_diff_view_get_n_removed (PalDiffView *self);
char      *pal_diff_view_dup_text      (PalDiffView *self);
PalCodeView *pal_diff_view_get_code_view (PalDiffView *self);

G_END_DECLS
