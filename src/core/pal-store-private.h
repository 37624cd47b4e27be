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

/*
 * PalStoredList: the part of a store that keeps a list of objects in one
 * aa{sv} settings key. Embedded in the store and set up with
 * _pal_stored_list_init() in its init; _pal_stored_list_start() in its
 * constructed reads the key and follows it; _pal_stored_list_dispose() and
 * _pal_stored_list_clear() in its dispose and finalize.
 *
 * Reading keeps the entries that cannot be read (and those whose identity an
 * earlier entry has) as raw values with one translated load error each, and
 * hands the readable ones to the store. Writing puts the readable items
 * first, then the raw entries unchanged. A change of the key by someone else
 * is read again, dropping any pending write; writing the value read last is
 * skipped.
 */

typedef enum
{
  PAL_STORED_LIST_IDENTITY_ID,
  PAL_STORED_LIST_IDENTITY_NAME,
} PalStoredListIdentity;

typedef struct
{
  /* the settings key, of type aa{sv} */
  const char *key;
  /* what get_identity() returns, for the load error of a repeated one */
  PalStoredListIdentity identity;

  /* A new item read from one a{sv} entry, or NULL with @reason set. This,
   * get_identity, the identity functions and the describe functions may be
   * called from another thread (_pal_stored_list_parse()). */
  gpointer     (*parse_entry)      (GVariant    *entry,
                                    char       **reason);
  /* What two entries must not share; of an item parse_entry() returned. A
   * string unless identity_hash and identity_equal say otherwise. */
  gconstpointer (*get_identity)    (gpointer     item);
  GHashFunc      identity_hash;
  GEqualFunc     identity_equal;
  /* A translated reason for skipping @item, whose identity an earlier
   * entry has; NULL: one that quotes the identity string, after @identity. */
  char        *(*describe_repeated) (gpointer    item);
  /* A translated load error for the skipped entry at @index (from 0). */
  char        *(*describe_skipped) (guint        index,
                                    const char  *reason);
  /* The items to write, in order. */
  GPtrArray   *(*get_items)        (gpointer     owner);
  /* A floating a{sv} for @item, or NULL to leave it out of the key. */
  GVariant    *(*serialize)        (gpointer     item);
  /* Takes over the readable entries (new items, in stored order, unique),
   * keeping listed items where they match; called with @loading set. */
  void         (*apply)            (gpointer     owner,
                                    GPtrArray   *parsed);
} PalStoredListFuncs;

typedef struct
{
  const PalStoredListFuncs *funcs;
  /* the store, not owned */
  GObject *owner;
  /* the owner's load-errors property */
  GParamSpec *load_errors_pspec;

  GSettings *settings;
  gulong changed_id;
  /* raw entries of the key that could not be read */
  GPtrArray *skipped;
  /* NULL-terminated array of translated messages */
  GPtrArray *load_errors;
  /* the value read or written last */
  GVariant *last_value;
  guint save_source;
  /* set while the store changes its items itself */
  guint loading : 1;
} PalStoredList;

void      _pal_stored_list_init       (PalStoredList            *list,
                                       const PalStoredListFuncs *funcs,
                                       GObject                  *owner,
                                       GParamSpec               *load_errors_pspec);
void      _pal_stored_list_start      (PalStoredList            *list,
                                       GSettings                *settings);

/*
 * Reading the entries of a value of the key apart from the store, in any
 * thread: the parse holds the readable ones as new items, and the others
 * with their load errors. _pal_stored_list_start_parsed() starts the list
 * with it (taking it over) instead of reading the key; with NULL it reads
 * the key, as _pal_stored_list_start() does.
 */
typedef struct _PalStoredListParse PalStoredListParse;

PalStoredListParse *_pal_stored_list_parse (const PalStoredListFuncs *funcs,
                                            GVariant                 *value);
void      _pal_stored_list_parse_free (PalStoredListParse       *parse);
void      _pal_stored_list_start_parsed (PalStoredList          *list,
                                         GSettings              *settings,
                                         PalStoredListParse     *parse);
/* Writes the items now (when they changed). */
void      _pal_stored_list_save       (PalStoredList            *list);
/* Writes the items once the main loop is idle. */
void      _pal_stored_list_queue_save (PalStoredList            *list);
/* Writes a pending change and stops following the key. */
void      _pal_stored_list_dispose    (PalStoredList            *list);
void      _pal_stored_list_clear      (PalStoredList            *list);
const char * const *_pal_stored_list_get_load_errors (PalStoredList *list);

G_END_DECLS
