/* pal-prompt.h: what the person sends in one turn
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "acp-agent.h"

G_BEGIN_DECLS

#define PAL_TYPE_PROMPT (pal_prompt_get_type ())

G_DECLARE_FINAL_TYPE (PalPrompt, pal_prompt, PAL, PROMPT, GObject)

PalPrompt  *pal_prompt_new        (const char           *text);
const char *pal_prompt_get_text   (PalPrompt            *self);
JsonArray  *pal_prompt_to_blocks  (PalPrompt            *self,
                                   AcpAgentCapabilities  caps);

G_END_DECLS
