/* pal-block-model.h: the rows of a transcript, long answers cut into blocks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-message-item.h"

G_BEGIN_DECLS

/* A block of an agent message: the bytes [start, end) of its text, or from
 * start to the end of the text for the last block (end G_MAXSIZE). */
#define PAL_TYPE_MESSAGE_BLOCK (pal_message_block_get_type ())

G_DECLARE_FINAL_TYPE (PalMessageBlock, pal_message_block, PAL, MESSAGE_BLOCK, GObject)

AcpMessageItem *pal_message_block_get_item     (PalMessageBlock *self);
guint           pal_message_block_get_index    (PalMessageBlock *self);
gsize           pal_message_block_get_start    (PalMessageBlock *self);
gsize           pal_message_block_get_end      (PalMessageBlock *self);
gboolean        pal_message_block_is_streaming (PalMessageBlock *self);

/* Microseconds: how long a block counts as streaming after text reached it */
#define PAL_MESSAGE_BLOCK_STREAMING_US (250 * G_TIME_SPAN_MILLISECOND)

/* Bytes of a line without end (outside a code fence) one block holds at
 * most: a longer line is cut into blocks of about this size */
#define PAL_MESSAGE_BLOCK_LONG_LINE (64 * 1024)

#define PAL_TYPE_BLOCK_MODEL (pal_block_model_get_type ())

G_DECLARE_FINAL_TYPE (PalBlockModel, pal_block_model, PAL, BLOCK_MODEL, GObject)

PalBlockModel *pal_block_model_new       (gsize          block_size);
GListModel    *pal_block_model_get_model (PalBlockModel *self);
void           pal_block_model_set_model (PalBlockModel *self,
                                          GListModel    *model);
/* A test sets a clock of its own, to be independent of the machine's speed */
void           pal_block_model_set_clock (PalBlockModel  *self,
                                          gint64        (*clock) (void));

G_END_DECLS
