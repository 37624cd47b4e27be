/* acp-location.h: a ToolCallLocation of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ACP_TYPE_LOCATION (acp_location_get_type ())

G_DECLARE_FINAL_TYPE (AcpLocation, acp_location, ACP, LOCATION, GObject)

const char *acp_location_get_path (AcpLocation *self);
/* The line in the file, -1 when not given */
gint64      acp_location_get_line (AcpLocation *self);

G_END_DECLS
