/* pal-name-value-group.h: the environment variables or HTTP headers in an editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-name-value-row.h"

G_BEGIN_DECLS

typedef enum
{
  PAL_NAME_VALUE_KIND_ENV,
  PAL_NAME_VALUE_KIND_HEADER,
} PalNameValueKind;

#define PAL_TYPE_NAME_VALUE_KIND (pal_name_value_kind_get_type ())
GType pal_name_value_kind_get_type (void) G_GNUC_CONST;

#define PAL_TYPE_NAME_VALUE_GROUP (pal_name_value_group_get_type ())

G_DECLARE_FINAL_TYPE (PalNameValueGroup, pal_name_value_group, PAL, NAME_VALUE_GROUP,
                      AdwPreferencesGroup)

/* @model: (nullable): a GListStore of PalNameValue, edited in place */
void             pal_name_value_group_set_model (PalNameValueGroup *self,
                                                 GListStore        *model);
GListStore      *pal_name_value_group_get_model (PalNameValueGroup *self);
PalNameValueRow *pal_name_value_group_get_row   (PalNameValueGroup *self,
                                                 guint              position);
/* Appends an empty row, as the Add button does, and focuses it. */
PalNameValue    *pal_name_value_group_add       (PalNameValueGroup *self);
/* Whether every row is valid for its kind. */
gboolean         pal_name_value_group_get_valid (PalNameValueGroup *self);
void             pal_name_value_group_reveal_problems (PalNameValueGroup *self);

G_END_DECLS
