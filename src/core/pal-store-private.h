/* pal-store-private.h: helpers shared by the settings-backed stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * Reading one stored dictionary. Each returns FALSE and sets @reason (a
 * translated sentence naming the key) when the key is missing although
 * required, or has another type than expected. A missing optional key leaves
 * the output untouched and returns TRUE.
 */
gboolean  _pal_dict_get_string  (GVariant    *dict,
                                 const char  *key,
                                 gboolean     required,
                                 char       **out,
                                 char       **reason);
gboolean  _pal_dict_get_strv    (GVariant    *dict,
                                 const char  *key,
                                 gboolean     required,
                                 char      ***out,
                                 char       **reason);
gboolean  _pal_dict_get_boolean (GVariant    *dict,
                                 const char  *key,
                                 gboolean     required,
                                 gboolean    *out,
                                 char       **reason);
gboolean  _pal_dict_get_int64   (GVariant    *dict,
                                 const char  *key,
                                 gboolean     required,
                                 gint64      *out,
                                 char       **reason);
/* Any other type: @out receives a new reference to the value. */
gboolean  _pal_dict_get_value   (GVariant    *dict,
                                 const char  *key,
                                 const char  *type_string,
                                 gboolean     required,
                                 GVariant   **out,
                                 char       **reason);

/*
 * Replaces the content of @items (GObjects, owning) by @new_items and emits
 * one items-changed on @model for the range that differs, keeping the common
 * prefix and suffix untouched. Does nothing when both hold the same objects.
 */
void      _pal_items_replace    (GListModel  *model,
                                 GPtrArray   *items,
                                 GPtrArray   *new_items);

/* Sets *@str to a copy of @value; returns FALSE when both were equal. */
gboolean  _pal_set_string       (char       **str,
                                 const char  *value);
/* NULL, empty or only white space. */
gboolean  _pal_str_is_blank     (const char  *str);

/* Sets *@strv to a copy of @value; returns FALSE when both were equal. */
gboolean  _pal_set_strv         (char      ***strv,
                                 const char * const *value);

/* The strings of a null-terminated GPtrArray, never NULL. */
const char * const *_pal_ptr_array_as_strv (GPtrArray *array);

G_END_DECLS
