/* acp-mode.h: one mode an agent offers for a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ACP_TYPE_MODE (acp_mode_get_type ())

G_DECLARE_FINAL_TYPE (AcpMode, acp_mode, ACP, MODE, GObject)

AcpMode    *acp_mode_new_from_json    (JsonNode  *node,
                                       GError   **error);

const char *acp_mode_get_id           (AcpMode   *self);
const char *acp_mode_get_name         (AcpMode   *self);
/* nullable */
const char *acp_mode_get_description  (AcpMode   *self);
gboolean    acp_mode_equal            (AcpMode   *a,
                                       AcpMode   *b);

G_END_DECLS
