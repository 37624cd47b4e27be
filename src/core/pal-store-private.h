/* pal-store-private.h: helpers shared by the settings-backed stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pal-stored-list.h"

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
 * The same in one pass over the dictionary, for entries read by the
 * thousand: _pal_dict_lookup_values() sets @values[i] to a new reference to
 * the (first) value of @keys[i], or NULL when missing; the
 * _pal_value_get_*() check one of them as the functions above do (@key
 * names it in @reason). _pal_values_clear() drops the references.
 */
void      _pal_dict_lookup_values (GVariant           *dict,
                                   const char * const *keys,
                                   guint               n_keys,
                                   GVariant          **values);
void      _pal_values_clear       (GVariant          **values,
                                   guint               n_values);
gboolean  _pal_value_get_string   (GVariant    *value,
                                   const char  *key,
                                   gboolean     required,
                                   char       **out,
                                   char       **reason);
gboolean  _pal_value_get_boolean  (GVariant    *value,
                                   const char  *key,
                                   gboolean     required,
                                   gboolean    *out,
                                   char       **reason);
gboolean  _pal_value_get_int64    (GVariant    *value,
                                   const char  *key,
                                   gboolean     required,
                                   gint64      *out,
                                   char       **reason);

/*
 * An optional member that could not be read (@read: what one of the
 * functions above returned) is left out of the item read: the note
 * *@reason (taken) saying so goes to @notes (see
 * PalStoredListClass.decode). Returns @read.
 */
gboolean  _pal_note_left_out    (GPtrArray   *notes,
                                 gboolean     read,
                                 char       **reason);

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

/*
 * For the subclasses of PalStoredList (pal-stored-list.c): the list they
 * show, changed only through these functions, which keep its index by id
 * and follow the changes of its items.
 */
GPtrArray *_pal_stored_list_get_items      (PalStoredList *self);
/* Lists @item (a new reference) at @position; past the end appends. */
void      _pal_stored_list_insert          (PalStoredList *self,
                                            guint          position,
                                            gpointer       item);
/* Takes the item at @position out of the list; returns its reference. */
gpointer  _pal_stored_list_steal           (PalStoredList *self,
                                            guint          position);
/* Moves the item at @from to @to, a position in the list without it. */
void      _pal_stored_list_move            (PalStoredList *self,
                                            guint          from,
                                            guint          to);
/* Lists @items instead, with one items-changed for the range that differs
 * (none when nothing does). */
void      _pal_stored_list_replace         (PalStoredList *self,
                                            GPtrArray     *items);
/* Writes the stored items, then the entries that could not be read, now
 * (when that changes the key) or once the main loop is idle. */
void      _pal_stored_list_save            (PalStoredList *self);
void      _pal_stored_list_queue_save      (PalStoredList *self);
/* While blocked (the calls nest), changes of items are not followed. */
void      _pal_stored_list_block_changes   (PalStoredList *self);
void      _pal_stored_list_unblock_changes (PalStoredList *self);

/*
 * What a settings key holds beneath what GSettings shows, and a copy of a
 * value it cannot read (pal-settings-backup.c).
 */
typedef enum
{
  PAL_KEY_READABLE,    /* GSettings shows what is stored, or the key is not set */
  PAL_KEY_UNREADABLE,  /* GSettings shows the default instead of what is stored */
  PAL_KEY_UNKNOWN,     /* only a file can tell: _pal_key_check_run() reads it */
} PalKeyState;

typedef struct _PalKeyCheck PalKeyCheck;

char        *_pal_settings_backup_folder  (void);
gboolean     _pal_settings_in_one_process (GSettings            *settings);
PalKeyCheck *_pal_key_check_new           (GSettings            *settings,
                                           const char           *key);
PalKeyCheck *_pal_key_check_new_for_text  (const char           *key,
                                           const char           *text);
void         _pal_key_check_free          (PalKeyCheck          *check);
PalKeyState  _pal_key_check_get_state     (PalKeyCheck          *check);
const char  *_pal_key_check_get_reason    (PalKeyCheck          *check);
const char  *_pal_key_check_get_backup_path (PalKeyCheck        *check);
gboolean     _pal_key_check_run           (PalKeyCheck          *check,
                                           GError              **error);
void         _pal_key_check_run_async     (PalKeyCheck          *check,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
gboolean     _pal_key_check_run_finish    (GAsyncResult         *result,
                                           PalKeyCheck         **check,
                                           GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalKeyCheck, _pal_key_check_free)

G_END_DECLS
