/* pal-file-index-private.h: the parts of the file index, between its files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-file-index.h"
#include "pal-ignore-rules.h"

G_BEGIN_DECLS

/* One file or folder; shared between snapshots (an atomic rc box) */
typedef struct
{
  guint     root;
  guint     rel_offset;   /* where the path relative to the root starts */
  guint     name_offset;  /* where the last component starts */
  guint     length;
  gboolean  is_dir;
  char     *lower;        /* points into data, after the path */
  char      data[];       /* the path as shown, then its lowercase copy */
} PalFileEntry;

PalFileEntry *_pal_file_entry_new     (guint               root,
                                       const char         *prefix,
                                       const char         *rel,
                                       gboolean            is_dir);
PalFileEntry *_pal_file_entry_ref     (PalFileEntry       *entry);
void          _pal_file_entry_unref   (gpointer            entry);
guint         _pal_file_entry_hash    (gconstpointer       entry);
gboolean      _pal_file_entry_equal   (gconstpointer       a,
                                       gconstpointer       b);
static inline const char *
_pal_file_entry_rel (const PalFileEntry *entry)
{
  return entry->data + entry->rel_offset;
}

/* A folder the walk went through, with the rules that hold inside it */
typedef struct
{
  guint           root;
  char           *rel;
  PalIgnoreRules *rules;
} PalWalkedDir;

void          _pal_walked_dir_free    (gpointer            dir);

/* Where a walk starts: a path (a file or a folder), with the rules of the
 * folder holding it; "" with no rules for a whole root */
typedef struct
{
  guint           root;
  char           *rel;
  PalIgnoreRules *rules;
} PalWalkStart;

typedef struct
{
  GPtrArray *entries;  /* of PalFileEntry */
  GPtrArray *dirs;     /* of PalWalkedDir */
} PalWalkResult;

void           _pal_walk_result_free  (PalWalkResult      *result);
PalWalkResult *_pal_file_index_walk   (GFile             **roots,
                                       char              **prefixes,
                                       GPtrArray          *starts,
                                       GCancellable       *cancellable);

GPtrArray     *_pal_file_index_match  (GPtrArray          *snapshot,
                                       GFile             **roots,
                                       const char         *query,
                                       guint               limit);

G_END_DECLS
