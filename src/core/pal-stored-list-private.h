/* pal-stored-list-private.h: what the files of PalStoredList share
 *
 * pal-stored-list.c        the list model, its index, the items followed
 * pal-stored-list-key.c    the key read and written, other writers, values
 *                          GSettings cannot read
 * pal-stored-list-read.c   entries decoded in any thread, reading ahead
 * pal-stored-list-merge.c  one writer's changes on top of another's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-store-private.h"
#include "pal-stored-list.h"

G_BEGIN_DECLS

typedef enum
{
  CHECK_NONE,
  CHECK_RUNNING,
  CHECK_FAILED,
} PalKeyCheckState;

typedef struct
{
  GSettings *settings;
  gulong changed_id;
  /* construct-only: the key read ahead, taken over in constructed */
  PalStoredListReading *reading;

  /* the model, owning */
  GPtrArray *items;
  /* id (a copy) → the first listed item with it */
  GHashTable *index;
  /* two listed items share an id: the index is rebuilt on each change of the list */
  gboolean duplicates;

  /* raw entries of the key that could not be read */
  GPtrArray *skipped;
  /* the entries' load errors, translated, and what is wrong with the
   * key as a whole (or NULL) */
  GPtrArray *entry_errors;
  char *key_error;
  /* both, a NULL-terminated array of translated messages */
  GPtrArray *load_errors;
  /* the value read or written last */
  GVariant *last_value;
  /* the value before the list's first write since it last heard of
   * someone else's (see pal-stored-list-merge.c), or NULL */
  GVariant *before_write;
  /* entries of it lost members when read */
  gboolean lossy;
  guint save_source;
  /* changes of the list that are not written yet */
  gboolean dirty;

  /* the key's value checked and copied before a write: writes wait while
   * a check runs or after one failed */
  PalKeyCheckState check_state;
  GCancellable *check_cancellable;
  /* the check is of a value someone else wrote: the list was kept */
  gboolean check_rereads;
  /* where the value was copied last */
  char *backup_path;
  gboolean disposing;
  /* changes of items are not followed while positive */
  guint blocked;
} PalStoredListPrivate;

PalStoredListPrivate *_pal_stored_list_get_private (PalStoredList *self);

/* pal-stored-list-read.c */
typedef struct
{
  GVariant  *value;
  /* the readable entries, new items in stored order */
  GPtrArray *items;
  /* the raw entries that could not be read, and why */
  GPtrArray *skipped;
  GPtrArray *load_errors;
  /* readable entries lost members */
  gboolean   lossy;
} PalStoredListParse;

/* A table keyed by ids of the class's items. */
GHashTable         *_pal_stored_list_new_id_table   (PalStoredListClass   *klass,
                                                     GDestroyNotify        key_free);
PalStoredListParse *_pal_stored_list_parse          (PalStoredListClass   *klass,
                                                     GVariant             *value);
void                _pal_stored_list_parse_free     (PalStoredListParse   *parse);
/* Waits for the thread; returns what it read, or NULL when the key has
 * changed since. Frees @reading. */
PalStoredListParse *_pal_stored_list_finish_reading (PalStoredListReading *reading);

/* pal-stored-list-key.c */
void                _pal_stored_list_read_first     (PalStoredList        *self,
                                                     PalStoredListParse   *parse);
void                _pal_stored_list_key_changed_cb (GSettings            *settings,
                                                     const char           *key,
                                                     gpointer              user_data);
void                _pal_stored_list_write_before_dispose (PalStoredList  *self);

/* pal-stored-list-merge.c */
GVariant           *_pal_stored_list_merge          (PalStoredListClass   *klass,
                                                     GVariant             *base,
                                                     GPtrArray            *items,
                                                     GVariant             *theirs);
GVariant           *_pal_stored_list_keep_unseen    (PalStoredList        *list,
                                                     GVariant             *before,
                                                     GVariant             *written,
                                                     GVariant             *theirs);
GVariant           *_pal_stored_list_keep_lost      (PalStoredList        *list,
                                                     GVariant             *theirs);

G_END_DECLS
