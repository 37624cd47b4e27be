/* pal-folders.h: the folders of a session, its project folder and more
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean  pal_folder_contains        (const char         *folder,
                                      const char         *path);
GStrv     pal_folders_clean          (const char         *project,
                                      const char * const *folders);
gboolean  pal_folders_add            (GPtrArray          *folders,
                                      const char         *project,
                                      const char         *folder,
                                      char              **message);
gboolean  pal_folders_drop_inside    (GPtrArray          *folders,
                                      const char         *project,
                                      char              **message);

G_END_DECLS
