/* acp-config-option.h: one setting an agent offers for a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-config-choice.h"

G_BEGIN_DECLS

typedef enum
{
  ACP_CONFIG_OPTION_TYPE_UNKNOWN,  /* a type Palaver does not know: not shown */
  ACP_CONFIG_OPTION_TYPE_SELECT,   /* one of its choices */
  ACP_CONFIG_OPTION_TYPE_BOOLEAN,  /* on or off */
} AcpConfigOptionType;

#define ACP_TYPE_CONFIG_OPTION_TYPE (acp_config_option_type_get_type ())
GType acp_config_option_type_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_CONFIG_OPTION (acp_config_option_get_type ())

G_DECLARE_FINAL_TYPE (AcpConfigOption, acp_config_option, ACP, CONFIG_OPTION, GObject)

AcpConfigOption     *acp_config_option_new_from_json      (JsonNode         *node,
                                                           GError          **error);

const char          *acp_config_option_get_id             (AcpConfigOption  *self);
const char          *acp_config_option_get_name           (AcpConfigOption  *self);
/* nullable */
const char          *acp_config_option_get_description    (AcpConfigOption  *self);
/* nullable: "mode", "model", "model_config", "thought_level" or another */
const char          *acp_config_option_get_category       (AcpConfigOption  *self);
AcpConfigOptionType  acp_config_option_get_option_type    (AcpConfigOption  *self);
/* a select option's current value; NULL for the other types */
const char          *acp_config_option_get_current_value  (AcpConfigOption  *self);
/* a boolean option's current value; FALSE for the other types */
gboolean             acp_config_option_get_current_boolean (AcpConfigOption *self);
/* AcpConfigChoice items of a select option; empty for the other types */
GListModel          *acp_config_option_get_choices        (AcpConfigOption  *self);
/* the position of the current value among the choices, or G_MAXUINT */
guint                acp_config_option_get_current_position (AcpConfigOption *self);
gboolean             acp_config_option_equal              (AcpConfigOption  *a,
                                                           AcpConfigOption  *b);

G_END_DECLS
