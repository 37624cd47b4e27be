/* acp-generic-item.h: a session update this library does not know
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "acp-item.h"

G_BEGIN_DECLS

#define ACP_TYPE_GENERIC_ITEM (acp_generic_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpGenericItem, acp_generic_item, ACP, GENERIC_ITEM, AcpItem)

AcpGenericItem *acp_generic_item_new             (const char     *update_name,
                                                  JsonObject     *update);
/* The sessionUpdate value ("" if it had none). */
const char     *acp_generic_item_get_update_name (AcpGenericItem *self);
/* The whole update object, as indented JSON text. */
char           *acp_generic_item_dup_update_json (AcpGenericItem *self);

G_END_DECLS
