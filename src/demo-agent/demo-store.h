/* demo-store.h: the demo agent's session history on disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define DEMO_TYPE_STORE (demo_store_get_type ())

G_DECLARE_FINAL_TYPE (DemoStore, demo_store, DEMO, STORE, GObject)

/* Layout under the base directory:
 *   index.jsonl             one JSON object a line: sessionId, cwd, title,
 *                           updatedAt, modeId, model; the last line of an id wins
 *   sessions/<id>.jsonl     one session/update "update" object a line
 * Both files are only ever appended to, one whole line per write, by one
 * thread that also serves the reads, so a read sees every write queued before
 * it. A damaged line (a crash mid-write) is skipped when read, and the first
 * write of a process to a file that does not end in a newline starts a new
 * line, so a torn line never swallows the next one. */
DemoStore  *demo_store_new                 (const char   *base_dir);
const char *demo_store_get_base_dir        (DemoStore    *self);

gboolean    demo_store_is_valid_session_id (const char   *session_id);

/* Queue one line for the history of session_id (a valid id). */
void        demo_store_append_update       (DemoStore    *self,
                                            const char   *session_id,
                                            JsonNode     *update);
void        demo_store_append_index        (DemoStore    *self,
                                            JsonObject   *entry);

/* Completes once every write queued before it is on disk. */
void        demo_store_flush_async         (DemoStore          *self,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
gboolean    demo_store_flush_finish        (DemoStore          *self,
                                            GAsyncResult       *result,
                                            GError            **error);

/* The newest index entry of every session (element-type JsonObject), in no
 * particular order. A missing index is an empty array. */
void        demo_store_read_index_async    (DemoStore          *self,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
GPtrArray  *demo_store_read_index_finish   (DemoStore          *self,
                                            GAsyncResult       *result,
                                            GError            **error);

/* The updates of one session in order (element-type JsonNode). A session
 * with no history file fails with G_IO_ERROR_NOT_FOUND. */
void        demo_store_read_history_async  (DemoStore          *self,
                                            const char         *session_id,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
GPtrArray  *demo_store_read_history_finish (DemoStore          *self,
                                            GAsyncResult       *result,
                                            GError            **error);

/* Finish every queued write and stop the store's thread. */
void        demo_store_shutdown            (DemoStore    *self);

G_END_DECLS
