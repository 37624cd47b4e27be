/* pal-code-block.h: a fenced code block of a message
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-code-view.h"

G_BEGIN_DECLS

#define PAL_TYPE_CODE_BLOCK (pal_code_block_get_type ())

G_DECLARE_FINAL_TYPE (PalCodeBlock, pal_code_block, PAL, CODE_BLOCK, AdwBin)

GtkWidget   *pal_code_block_new          (void);
void         pal_code_block_set_code     (PalCodeBlock *self,
                                          const char   *info,
                                          const char   *code,
                                          gssize        length);
void         pal_code_block_append       (PalCodeBlock *self,
                                          const char   *code,
                                          gssize        length);
const char  *pal_code_block_get_code     (PalCodeBlock *self);
const char  *pal_code_block_get_info     (PalCodeBlock *self);
const char  *pal_code_block_get_label    (PalCodeBlock *self);
PalCodeView *pal_code_block_get_view     (PalCodeBlock *self);
GtkScrolledWindow *pal_code_block_get_scroller (PalCodeBlock *self);
void         pal_code_block_copy         (PalCodeBlock *self);
GtkWidget   *pal_code_block_get_copy_button (PalCodeBlock *self);

G_END_DECLS
