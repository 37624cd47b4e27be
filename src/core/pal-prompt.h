/* pal-prompt.h: what the person sends in one turn
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "acp-agent.h"
#include "pal-attachment.h"

G_BEGIN_DECLS

/* A text file larger than this is sent as a link, not embedded */
#define PAL_PROMPT_EMBED_LIMIT (256 * 1024)

#define PAL_TYPE_PROMPT (pal_prompt_get_type ())

G_DECLARE_FINAL_TYPE (PalPrompt, pal_prompt, PAL, PROMPT, GObject)

PalPrompt  *pal_prompt_new                  (const char           *text);
const char *pal_prompt_get_text             (PalPrompt            *self);
/* PalAttachment items, in the order given */
GListModel *pal_prompt_get_attachments      (PalPrompt            *self);
void        pal_prompt_add_attachment       (PalPrompt            *self,
                                             PalAttachment        *attachment);
void        pal_prompt_remove_attachment    (PalPrompt            *self,
                                             PalAttachment        *attachment);
/* Whether building its blocks reads files */
gboolean    pal_prompt_needs_reading        (PalPrompt            *self);
JsonArray  *pal_prompt_to_blocks            (PalPrompt            *self,
                                             AcpAgentCapabilities  caps,
                                             GStrv                *notes);
void        pal_prompt_build_blocks_async   (PalPrompt            *self,
                                             AcpAgentCapabilities  caps,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
JsonArray  *pal_prompt_build_blocks_finish  (PalPrompt            *self,
                                             GAsyncResult         *result,
                                             GStrv                *notes,
                                             GError              **error);

G_END_DECLS
