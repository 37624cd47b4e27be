/* acp-json-reader.h: one JSON text into a JsonNode tree, fast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonNode *acp_json_read (const char  *data,
                         gsize        length,
                         guint        max_depth,
                         GError     **error);

G_END_DECLS
