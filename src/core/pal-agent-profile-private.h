/* pal-agent-profile-private.h: what only the agent store changes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-agent-profile.h"

G_BEGIN_DECLS

void  _pal_agent_profile_set_is_preset (PalAgentProfile *self,
                                        gboolean         is_preset);
void  _pal_agent_profile_set_is_demo   (PalAgentProfile *self,
                                        gboolean         is_demo);
/* Copies name, command, args, env and secrets of @from; returns TRUE if any changed. */
gboolean _pal_agent_profile_assign     (PalAgentProfile *self,
                                        PalAgentProfile *from);

G_END_DECLS
