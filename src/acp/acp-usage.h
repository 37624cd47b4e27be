/* acp-usage.h: how much of its context and money a session has used
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ACP_TYPE_USAGE (acp_usage_get_type ())

G_DECLARE_FINAL_TYPE (AcpUsage, acp_usage, ACP, USAGE, GObject)

AcpUsage   *acp_usage_new_from_json      (JsonObject *object,
                                          GError    **error);

/* tokens in the context window, and its size */
guint64     acp_usage_get_used           (AcpUsage   *self);
guint64     acp_usage_get_size           (AcpUsage   *self);
/* whether the agent said what the session cost */
gboolean    acp_usage_get_has_cost       (AcpUsage   *self);
double      acp_usage_get_cost_amount    (AcpUsage   *self);
/* nullable: ISO 4217, e.g. "USD"; NULL when there is no cost */
const char *acp_usage_get_cost_currency  (AcpUsage   *self);
gboolean    acp_usage_equal              (AcpUsage   *a,
                                          AcpUsage   *b);

G_END_DECLS
