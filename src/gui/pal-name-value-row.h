/* pal-name-value-row.h: one environment variable or HTTP header in an editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-name-value.h"

G_BEGIN_DECLS

typedef enum
{
  PAL_NAME_VALUE_FIELD_NAME,
  PAL_NAME_VALUE_FIELD_VALUE,
} PalNameValueField;

#define PAL_TYPE_NAME_VALUE_ROW (pal_name_value_row_get_type ())

G_DECLARE_FINAL_TYPE (PalNameValueRow, pal_name_value_row, PAL, NAME_VALUE_ROW, AdwPreferencesRow)

GtkWidget    *pal_name_value_row_new             (PalNameValue    *item,
                                                  gboolean         can_be_secret);
PalNameValue *pal_name_value_row_get_item        (PalNameValueRow *self);
GtkEditable  *pal_name_value_row_get_name_entry  (PalNameValueRow *self);
GtkEditable  *pal_name_value_row_get_value_entry (PalNameValueRow *self);
/* Whether a secret value is shown in clear. */
gboolean      pal_name_value_row_get_revealed    (PalNameValueRow *self);
void          pal_name_value_row_set_revealed    (PalNameValueRow *self,
                                                  gboolean         revealed);
/* @message: (nullable): what is wrong with @field, or NULL when nothing is */
void          pal_name_value_row_set_error       (PalNameValueRow   *self,
                                                  PalNameValueField  field,
                                                  const char        *message);
const char   *pal_name_value_row_get_error       (PalNameValueRow *self);

G_END_DECLS
