/* pal-transcript-store.h: every session's transcript, kept on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-update.h"

#include "pal-session-key.h"
#include "pal-stored-transcript.h"
#include "pal-transcript-kind.h"
#include "pal-transcript-search.h"

G_BEGIN_DECLS

#define PAL_TYPE_TRANSCRIPT_STORE (pal_transcript_store_get_type ())

G_DECLARE_FINAL_TYPE (PalTranscriptStore, pal_transcript_store, PAL, TRANSCRIPT_STORE, GObject)

PalTranscriptStore  *pal_transcript_store_new               (const char          *path);
/* (transfer full): where the application keeps it */
char                *pal_transcript_store_dup_default_path  (void);
const char          *pal_transcript_store_get_path          (PalTranscriptStore  *self);

/* --- recording: cheap, never waits --- */
void                 pal_transcript_store_record_update     (PalTranscriptStore  *self,
                                                             PalSessionKey       *key,
                                                             const char          *json);
void                 pal_transcript_store_record_acp_update (PalTranscriptStore  *self,
                                                             PalSessionKey       *key,
                                                             AcpUpdate           *update);
void                 pal_transcript_store_record_prompt     (PalTranscriptStore  *self,
                                                             PalSessionKey       *key,
                                                             const char          *blocks_json);

/* --- replays --- */
void                 pal_transcript_store_begin_replay      (PalTranscriptStore  *self,
                                                             PalSessionKey       *key);
void                 pal_transcript_store_abort_replay      (PalTranscriptStore  *self,
                                                             PalSessionKey       *key);
void                 pal_transcript_store_end_replay_async  (PalTranscriptStore  *self,
                                                             PalSessionKey       *key,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             pal_transcript_store_end_replay_finish (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             gboolean            *replaced,
                                                             GError             **error);

/* --- waiting for the writes --- */
void                 pal_transcript_store_flush_async       (PalTranscriptStore  *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             pal_transcript_store_flush_finish      (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);
void                 pal_transcript_store_close_async       (PalTranscriptStore  *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             pal_transcript_store_close_finish      (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);

/* --- reading --- */
void                 pal_transcript_store_load_async        (PalTranscriptStore  *self,
                                                             PalSessionKey       *key,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
PalStoredTranscript *pal_transcript_store_load_finish       (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);
void                 pal_transcript_store_search_async      (PalTranscriptStore  *self,
                                                             const char          *text,
                                                             PalTranscriptSearchFlags flags,
                                                             guint                max_sessions,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
GListModel          *pal_transcript_store_search_finish     (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);
void                 pal_transcript_store_get_size_async    (PalTranscriptStore  *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             pal_transcript_store_get_size_finish   (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             guint64             *size,
                                                             GError             **error);

/* --- deleting --- */
void                 pal_transcript_store_delete_async      (PalTranscriptStore  *self,
                                                             PalSessionKey       *key,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             pal_transcript_store_delete_finish     (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);
void                 pal_transcript_store_delete_all_async  (PalTranscriptStore  *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             pal_transcript_store_delete_all_finish (PalTranscriptStore  *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);

G_END_DECLS
