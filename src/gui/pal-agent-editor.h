/* pal-agent-editor.h: the dialog that adds or edits one agent profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-agent-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_AGENT_EDITOR (pal_agent_editor_get_type ())

G_DECLARE_FINAL_TYPE (PalAgentEditor, pal_agent_editor, PAL, AGENT_EDITOR, AdwWindow)

/* @profile: (nullable): a profile of @store to edit, or NULL to add one */
PalAgentEditor  *pal_agent_editor_new          (PalAgentStore   *store,
                                                PalAgentProfile *profile);
PalAgentProfile *pal_agent_editor_get_profile  (PalAgentEditor  *self);
gboolean         pal_agent_editor_get_can_save (PalAgentEditor  *self);
/* The first problem found, as shown next to its field; NULL when valid. */
const char      *pal_agent_editor_get_problem  (PalAgentEditor  *self);
/* Stores the profile without closing the dialog; Save does this, then closes. */
gboolean         pal_agent_editor_save         (PalAgentEditor  *self,
                                                GError         **error);

G_END_DECLS
