/* pal-session-groups.h: sessions grouped by project folder, as one flat list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PAL_TYPE_SESSION_GROUP (pal_session_group_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionGroup, pal_session_group, PAL, SESSION_GROUP, GObject)

const char *pal_session_group_get_cwd        (PalSessionGroup *self);
guint       pal_session_group_get_n_sessions (PalSessionGroup *self);

#define PAL_TYPE_SESSION_GROUPS (pal_session_groups_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionGroups, pal_session_groups, PAL, SESSION_GROUPS, GObject)

PalSessionGroups *pal_session_groups_new       (GListModel       *records);
GListModel       *pal_session_groups_get_model (PalSessionGroups *self);

G_END_DECLS
