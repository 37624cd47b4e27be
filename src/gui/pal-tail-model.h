/* pal-tail-model.h: a list model that can hide all but the end of another
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PAL_TYPE_TAIL_MODEL (pal_tail_model_get_type ())

G_DECLARE_FINAL_TYPE (PalTailModel, pal_tail_model, PAL, TAIL_MODEL, GObject)

PalTailModel *pal_tail_model_new        (void);
GListModel   *pal_tail_model_get_model  (PalTailModel *self);
void          pal_tail_model_set_model  (PalTailModel *self,
                                         GListModel   *model,
                                         guint         keep);
guint         pal_tail_model_get_hidden (PalTailModel *self);
void          pal_tail_model_collapse   (PalTailModel *self,
                                         guint         keep);
void          pal_tail_model_expand     (PalTailModel *self,
                                         guint         count);
gboolean      pal_tail_model_get_frozen (PalTailModel *self);
void          pal_tail_model_set_frozen (PalTailModel *self,
                                         gboolean      frozen);
guint         pal_tail_model_get_waiting (PalTailModel *self);
void          pal_tail_model_sync       (PalTailModel *self,
                                         guint         keep);

G_END_DECLS
