/* pal-name-value.h: one environment variable or HTTP header of an MCP server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define PAL_TYPE_NAME_VALUE (pal_name_value_get_type ())

G_DECLARE_FINAL_TYPE (PalNameValue, pal_name_value, PAL, NAME_VALUE, GObject)

PalNameValue *pal_name_value_new        (const char   *name,
                                         const char   *value,
                                         gboolean      secret);
PalNameValue *pal_name_value_copy       (PalNameValue *self);

const char   *pal_name_value_get_name   (PalNameValue *self);
void          pal_name_value_set_name   (PalNameValue *self,
                                         const char   *name);
const char   *pal_name_value_get_value  (PalNameValue *self);
void          pal_name_value_set_value  (PalNameValue *self,
                                         const char   *value);
/* Shown masked. */
gboolean      pal_name_value_get_secret (PalNameValue *self);
void          pal_name_value_set_secret (PalNameValue *self,
                                         gboolean      secret);

/* Authorization, or a name containing TOKEN, KEY, SECRET or PASSWORD
 * (ignoring case). */
gboolean      pal_name_value_name_looks_secret (const char *name);

G_END_DECLS
