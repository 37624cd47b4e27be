/* acp-update.h: one session/update, taken apart where it was read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ACP_TYPE_UPDATE (acp_update_get_type ())

typedef struct _AcpUpdate AcpUpdate;

GType       acp_update_get_type            (void) G_GNUC_CONST;

/* Takes @update (the `update` object of a session/update notification)
 * apart, on any thread: its variant's members are checked and kept as
 * values of their own, so that @update itself is not needed any more. A
 * malformed update is kept as such: applying it fails. @session_id:
 * (nullable) */
AcpUpdate  *acp_update_new                 (const char *session_id,
                                            JsonObject *update);
/* The same from the update object's JSON text (@length -1: up to a NUL),
 * on any thread. Returns NULL when it is not JSON (ACP_ERROR_PARSE_ERROR)
 * or not an object (ACP_ERROR_INVALID_MESSAGE). */
AcpUpdate  *acp_update_new_from_json       (const char  *session_id,
                                            const char  *json,
                                            gssize       length,
                                            GError     **error);
AcpUpdate  *acp_update_ref                 (AcpUpdate  *self);
void        acp_update_unref               (AcpUpdate  *self);

/* (nullable) */
const char *acp_update_get_session_id      (AcpUpdate  *self);
/* Its `sessionUpdate`; NULL when that is not a string. */
const char *acp_update_get_kind            (AcpUpdate  *self);
/* The id of what it is about: the `messageId` of a chunk, the
 * `toolCallId` of a tool call or its update, the `compactionId` of a
 * compaction; NULL when it has none (or is malformed). */
const char *acp_update_get_item_id         (AcpUpdate  *self);
/* How many session/update notifications it stands for: text chunks of one
 * message read together come joined (see AcpAgent::update). */
guint       acp_update_get_n_notifications (AcpUpdate  *self);

/* The `update` object as JSON text, as the agent sent it (members in their
 * order; text chunks that came joined as one chunk holding all their
 * text), to be kept and replayed. Safe from any thread once the update was
 * handed over. Returns: (transfer full) */
char       *acp_update_dup_json            (AcpUpdate  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AcpUpdate, acp_update_unref)

G_END_DECLS
