/* pal-session-store.h: the session list, newest activity first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "pal-session-record.h"
#include "pal-stored-list.h"

G_BEGIN_DECLS

#define PAL_TYPE_SESSION_STORE (pal_session_store_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionStore, pal_session_store, PAL, SESSION_STORE, PalStoredList)

PalSessionStore    *pal_session_store_new             (GSettings        *settings);

/* The stored sessions read ahead, in a thread (see pal_stored_list_read_start()). */
typedef PalStoredListReading PalSessionStoreReading;

PalSessionStoreReading *pal_session_store_read_start  (GSettings              *settings);
PalSessionStore    *pal_session_store_new_from_reading (PalSessionStoreReading *reading);
void                pal_session_store_reading_free    (PalSessionStoreReading *reading);

GSettings          *pal_session_store_get_settings    (PalSessionStore  *self);
/* Why stored entries were skipped, one translated sentence each. Never NULL. */
const char * const *pal_session_store_get_load_errors (PalSessionStore  *self);

PalSessionRecord   *pal_session_store_lookup          (PalSessionStore  *self,
                                                       PalSessionKey    *key);
/* The listed sessions of any agent with that id. (transfer container) */
GPtrArray          *pal_session_store_find_by_id      (PalSessionStore  *self,
                                                       const char       *session_id);
PalSessionRecord   *pal_session_store_add             (PalSessionStore  *self,
                                                       PalSessionRecord *record);
gboolean            pal_session_store_remove          (PalSessionStore  *self,
                                                       PalSessionKey    *key);
gboolean            pal_session_store_set_title       (PalSessionStore  *self,
                                                       PalSessionKey    *key,
                                                       const char       *title);
gboolean            pal_session_store_rename          (PalSessionStore  *self,
                                                       PalSessionKey    *key,
                                                       const char       *title);
gboolean            pal_session_store_touch           (PalSessionStore  *self,
                                                       PalSessionKey    *key);
gboolean            pal_session_store_set_pinned      (PalSessionStore  *self,
                                                       PalSessionKey    *key,
                                                       gboolean          pinned);
guint               pal_session_store_merge_listed    (PalSessionStore  *self,
                                                       const char       *agent_id,
                                                       JsonArray        *sessions);
GStrv               pal_session_store_show_hidden     (PalSessionStore  *self);
guint               pal_session_store_get_n_hidden    (PalSessionStore  *self);

G_END_DECLS
