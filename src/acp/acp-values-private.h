/* acp-values-private.h: the typed values of transcript items, made from
 * JSON where it is read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-content-block.h"
#include "acp-json-reader.h"
#include "acp-location.h"
#include "acp-permission-option.h"
#include "acp-plan-entry.h"
#include "acp-tool-call-content.h"

G_BEGIN_DECLS

/* Each makes its value of @value, read into @doc, as the schema defines
 * it: NULL when @value is not a valid one. Members the schema lets fall
 * back to their default on error (`x-deserialize-default-on-error`) do so;
 * required ones of the wrong type make the value invalid. A string that
 * names a kind this library does not know is kept as the "unknown" value of
 * its enum. Plain GObjects without signal handlers: they may be made in
 * any thread and handed to another. */
AcpContentBlock     *_acp_content_block_new_from_json     (const AcpJsonDoc    *doc,
                                                           const AcpJsonValue  *value,
                                                           const char         **problem);
AcpToolCallContent  *_acp_tool_call_content_new_from_json (const AcpJsonDoc    *doc,
                                                           const AcpJsonValue  *value);
AcpLocation         *_acp_location_new_from_json          (const AcpJsonDoc    *doc,
                                                           const AcpJsonValue  *value);
AcpPlanEntry        *_acp_plan_entry_new_from_json        (const AcpJsonDoc    *doc,
                                                           const AcpJsonValue  *value);
AcpPermissionOption *_acp_permission_option_new_from_json (const AcpJsonDoc    *doc,
                                                           const AcpJsonValue  *value);

/* Whether two values are the same (GEqualFunc) */
gboolean             _acp_content_block_equal             (gconstpointer        a,
                                                           gconstpointer        b);
gboolean             _acp_tool_call_content_equal         (gconstpointer        a,
                                                           gconstpointer        b);
gboolean             _acp_location_equal                  (gconstpointer        a,
                                                           gconstpointer        b);
gboolean             _acp_plan_entry_equal                (gconstpointer        a,
                                                           gconstpointer        b);

typedef gpointer (*AcpValueParseFunc) (const AcpJsonDoc   *doc,
                                       const AcpJsonValue *value);

/* The values @parse makes of the elements of @array, as a new list model of
 * @type; the elements it refuses are skipped (the schema's
 * `x-deserialize-skip-invalid-items`), with a debug message naming @what. */
GListModel          *_acp_values_new_list                 (const AcpJsonDoc    *doc,
                                                           const AcpJsonValue  *array,
                                                           GType                type,
                                                           AcpValueParseFunc    parse,
                                                           const char          *what);
/* An empty list model of @type */
GListModel          *_acp_values_new_empty_list           (GType                type);
/* Whether @a and @b hold as many values, pairwise @equal */
gboolean             _acp_values_list_equal               (GListModel          *a,
                                                           GListModel          *b,
                                                           GEqualFunc           equal);
/* The index in @names (n_names of them) of @name, or @unknown */
int                  _acp_values_find_name                (const char * const  *names,
                                                           int                  n_names,
                                                           const char          *name,
                                                           int                  unknown);

G_END_DECLS
