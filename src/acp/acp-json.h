/* acp-json.h: reading JSON from an untrusted peer
 *
 * json-glib's getters complain (g_critical) when a member has another type
 * than asked for, and its _with_default variants do too for objects and
 * arrays. Anything an agent sent is read through these instead: a member of
 * the wrong type reads as absent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

const char *acp_json_get_string       (JsonObject *object,
                                       const char *member,
                                       const char *default_value);
JsonObject *acp_json_get_object       (JsonObject *object,
                                       const char *member);
JsonArray  *acp_json_get_array        (JsonObject *object,
                                       const char *member);
gboolean    acp_json_get_int          (JsonObject *object,
                                       const char *member,
                                       gint64     *value);
gboolean    acp_json_get_boolean      (JsonObject *object,
                                       const char *member,
                                       gboolean   *value);
JsonObject *acp_json_array_get_object (JsonArray  *array,
                                       guint       index);

G_END_DECLS
