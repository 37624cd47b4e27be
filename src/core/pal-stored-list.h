/* pal-stored-list.h: a list model kept in one settings key, the base of the stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PAL_TYPE_STORED_LIST (pal_stored_list_get_type ())

G_DECLARE_DERIVABLE_TYPE (PalStoredList, pal_stored_list, PAL, STORED_LIST, GObject)

/**
 * PalStoredListClass:
 * @key: the settings key, of type `aa{sv}`
 * @title: what the key holds, for the person ("Sessions"), marked for
 *   translation and translated where it is shown; %NULL: the key
 * @item_type: the type of the items
 * @changed_signal: the signal of an item that says something to store
 *   changed, without arguments; %NULL: #GObject::notify
 * @id_hash: @id_equal: @id_copy: @id_free: for what get_id() returns;
 *   %NULL: it is a string
 * @decode: a new item read from one `a{sv}` entry, or %NULL with @reason
 *   set to a translated sentence; an optional member that cannot be read is
 *   left out of the item, with a translated note added to @notes
 *   (_pal_note_left_out())
 * @encode: a floating `a{sv}` for @item, or %NULL to leave it out of the key
 * @get_id: what two listed items must not share
 * @describe_skipped: a translated load error for the unreadable entry at
 *   @index (from 0)
 * @describe_repeated: a translated reason for skipping @item, whose id an
 *   earlier entry has; the default quotes a string id
 * @update_item: copies what @entry read into @item, the listed item of the
 *   same id
 * @apply_entries: lists @items, the readable entries of the key in stored
 *   order (listed items where the ids matched, else new ones); may change
 *   @items and keep a reference to it. The default lists them as they are
 * @get_stored_items: the items to write, in order; the default: the list
 * @item_changed: a listed item changed (@pspec is %NULL for a
 *   @changed_signal); the default writes the key once the main loop is idle
 *
 * decode(), get_id() and the describe functions may be called from another
 * thread (pal_stored_list_read_start()). Changes of items are not followed
 * while the list reads the key, nor while the subclass blocks them
 * (_pal_stored_list_block_changes()).
 */
struct _PalStoredListClass
{
  GObjectClass parent_class;

  const char *key;
  const char *title;
  GType item_type;
  const char *changed_signal;
  GHashFunc id_hash;
  GEqualFunc id_equal;
  GBoxedCopyFunc id_copy;
  GDestroyNotify id_free;

  gpointer       (*decode)            (GVariant       *entry,
                                       GPtrArray      *notes,
                                       char          **reason);
  GVariant      *(*encode)            (gpointer        item);
  gconstpointer  (*get_id)            (gpointer        item);
  char          *(*describe_skipped)  (guint           index,
                                       const char     *reason);
  char          *(*describe_repeated) (gpointer        item);

  void           (*update_item)       (PalStoredList  *self,
                                       gpointer        item,
                                       gpointer        entry);
  void           (*apply_entries)     (PalStoredList  *self,
                                       GPtrArray      *items);
  GPtrArray     *(*get_stored_items)  (PalStoredList  *self);
  void           (*item_changed)      (PalStoredList  *self,
                                       gpointer        item,
                                       GParamSpec     *pspec);
  /* (nullable): whether the item of @id was removed on purpose by another
   * writer of the key, as the settings show now */
  gboolean       (*removed_elsewhere) (PalStoredList  *self,
                                       gconstpointer   id);
};

GSettings          *pal_stored_list_get_settings    (PalStoredList *self);
/* Why stored entries were skipped, one translated sentence each. Never NULL. */
const char * const *pal_stored_list_get_load_errors (PalStoredList *self);
const char         *pal_stored_list_get_backup_path (PalStoredList *self);
gpointer            pal_stored_list_lookup          (PalStoredList *self,
                                                     gconstpointer  id);

/* A key read ahead, its entries decoded in a thread. */
typedef struct _PalStoredListReading PalStoredListReading;

PalStoredListReading *pal_stored_list_read_start    (GType                 type,
                                                     GSettings            *settings);
gpointer            pal_stored_list_new_from_reading (PalStoredListReading *reading);
void                pal_stored_list_reading_free    (PalStoredListReading *reading);

G_END_DECLS
