/* pal-file-index.h: the files of a session's folders, for the @ finder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The walk stops there: a folder that big is not a project */
#define PAL_FILE_INDEX_MAX_ENTRIES 1000000
/* Folders watched for changes, nearest the roots first */
#define PAL_FILE_INDEX_MAX_WATCHED 8192

typedef struct
{
  char     *path;      /* as shown and written after '@': relative to its root */
  GFile    *file;
  gboolean  is_folder;
  int       score;
} PalFileHit;

#define PAL_TYPE_FILE_HIT (pal_file_hit_get_type ())
GType       pal_file_hit_get_type (void) G_GNUC_CONST;
PalFileHit *pal_file_hit_copy     (const PalFileHit *hit);
void        pal_file_hit_free     (PalFileHit       *hit);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalFileHit, pal_file_hit_free)

#define PAL_TYPE_FILE_INDEX (pal_file_index_get_type ())

G_DECLARE_FINAL_TYPE (PalFileIndex, pal_file_index, PAL, FILE_INDEX, GObject)

PalFileIndex *pal_file_index_new          (GFile        **roots,
                                           guint          n_roots);
gboolean      pal_file_index_get_ready    (PalFileIndex  *self);
guint         pal_file_index_get_n_files  (PalFileIndex  *self);
char         *pal_file_path_in_folders    (GFile        **folders,
                                           guint          n_folders,
                                           GFile         *file);
GPtrArray    *pal_file_index_query        (PalFileIndex  *self,
                                           const char    *query,
                                           guint          limit);
void          pal_file_index_query_async  (PalFileIndex  *self,
                                           const char    *query,
                                           guint          limit,
                                           GCancellable  *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer       user_data);
GPtrArray    *pal_file_index_query_finish (PalFileIndex  *self,
                                           GAsyncResult  *result,
                                           GError       **error);

G_END_DECLS
