/* acp-config-choice.h: one value a select config option offers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ACP_TYPE_CONFIG_CHOICE (acp_config_choice_get_type ())

G_DECLARE_FINAL_TYPE (AcpConfigChoice, acp_config_choice, ACP, CONFIG_CHOICE, GObject)

AcpConfigChoice *acp_config_choice_new_from_json   (JsonNode         *node,
                                                    const char       *group_name,
                                                    GError          **error);

const char      *acp_config_choice_get_value       (AcpConfigChoice  *self);
const char      *acp_config_choice_get_name        (AcpConfigChoice  *self);
/* nullable */
const char      *acp_config_choice_get_description (AcpConfigChoice  *self);
/* nullable: the name of its group, when the agent groups the values */
const char      *acp_config_choice_get_group_name  (AcpConfigChoice  *self);
gboolean         acp_config_choice_equal           (AcpConfigChoice  *a,
                                                    AcpConfigChoice  *b);

G_END_DECLS
