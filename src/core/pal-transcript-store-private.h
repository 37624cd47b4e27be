/* pal-transcript-store-private.h: the transcript store and its worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-update.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

/* What the store asks its worker, besides recording and searching */
typedef enum
{
  PAL_TRANSCRIPT_REQUEST_BEGIN_REPLAY,
  PAL_TRANSCRIPT_REQUEST_ABORT_REPLAY,
  PAL_TRANSCRIPT_REQUEST_END_REPLAY,
  PAL_TRANSCRIPT_REQUEST_FLUSH,
  PAL_TRANSCRIPT_REQUEST_LOAD,
  PAL_TRANSCRIPT_REQUEST_SIZE,
  PAL_TRANSCRIPT_REQUEST_DELETE,
  PAL_TRANSCRIPT_REQUEST_DELETE_ALL,
  PAL_TRANSCRIPT_REQUEST_CLOSE,
} PalTranscriptRequest;

typedef struct _PalTranscriptWorker PalTranscriptWorker;

/* pal-transcript-store-worker.c */
PalTranscriptWorker *_pal_transcript_worker_new    (PalTranscriptStore       *store,
                                                    const char               *path,
                                                    int                       busy_timeout_ms,
                                                    guint                     search_count_limit);
void                 _pal_transcript_worker_free   (PalTranscriptWorker      *worker);
void                 _pal_transcript_worker_record (PalTranscriptWorker      *worker,
                                                    PalSessionKey            *key,
                                                    PalTranscriptKind         kind,
                                                    const char               *json,
                                                    gsize                     length);
void                 _pal_transcript_worker_record_update (PalTranscriptWorker *worker,
                                                           PalSessionKey       *key,
                                                           AcpUpdate           *update);
void                 _pal_transcript_worker_ask    (PalTranscriptWorker      *worker,
                                                    PalTranscriptRequest      request,
                                                    PalSessionKey            *key,
                                                    GTask                    *task);
void                 _pal_transcript_worker_search (PalTranscriptWorker      *worker,
                                                    char                     *query,
                                                    PalTranscriptSearchFlags  flags,
                                                    guint                     max_sessions,
                                                    GTask                    *task);

/* pal-transcript-store.c: ::problem */
void                 _pal_transcript_store_emit_problem (PalTranscriptStore  *self,
                                                         const GError        *error);

G_END_DECLS
