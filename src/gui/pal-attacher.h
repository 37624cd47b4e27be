/* pal-attacher.h: files, folders and images on their way to a prompt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PAL_TYPE_ATTACHER (pal_attacher_get_type ())

G_DECLARE_FINAL_TYPE (PalAttacher, pal_attacher, PAL, ATTACHER, GObject)

/* @attachments: where the PalAttachment items go; @widget: the one whose
 * window the questions are asked over (not referenced: it owns this) */
PalAttacher *pal_attacher_new          (GListStore         *attachments,
                                        GtkWidget          *widget);
/* The session's folders (absolute paths); NULL: not known, every file asks */
void         pal_attacher_set_folders  (PalAttacher        *self,
                                        const char * const *folders);
gboolean     pal_attacher_is_inside    (PalAttacher        *self,
                                        GFile              *file);
/* @files: (element-type GFile) */
void         pal_attacher_add_files    (PalAttacher        *self,
                                        GSList             *files);
void         pal_attacher_add_texture  (PalAttacher        *self,
                                        GdkTexture         *texture);
/* An image on @clipboard (and no text) is attached: returns whether it is */
gboolean     pal_attacher_paste        (PalAttacher        *self,
                                        GdkClipboard       *clipboard);
void         pal_attacher_choose_files (PalAttacher        *self);
/* How many are still being read */
guint        pal_attacher_get_pending  (PalAttacher        *self);

G_END_DECLS
