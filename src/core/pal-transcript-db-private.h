/* pal-transcript-db-private.h: the transcript database, used by the
 * store's worker thread alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

#include "pal-session-key.h"
#include "pal-stored-transcript.h"
#include "pal-transcript-kind.h"
#include "pal-transcript-search.h"

G_BEGIN_DECLS

/* The schema version this build writes (PRAGMA user_version) */
#define PAL_TRANSCRIPT_DB_VERSION 2

/* A searchable text longer than this is indexed in pieces of this size,
 * which keeps snippets and the rewrite of a growing message cheap. */
#define PAL_TRANSCRIPT_DB_MAX_TEXT 32768

/* The newest matches of each session that a search gives snippets for */
#define PAL_TRANSCRIPT_DB_HITS_PER_SESSION 5

/* A search counts the matches of every session while there are at most
 * this many in all; past that it asks the newest sessions one by one,
 * counting up to PAL_TRANSCRIPT_DB_COUNT_IN_SESSION in each */
#define PAL_TRANSCRIPT_DB_COUNT_ALL 200000
#define PAL_TRANSCRIPT_DB_COUNT_IN_SESSION 1000
/* …or when counting them all takes longer than this (phrases of common
 * words) */
#define PAL_TRANSCRIPT_DB_COUNT_ALL_US (30 * G_TIME_SPAN_MILLISECOND)

typedef struct _PalTranscriptDb PalTranscriptDb;

/* Fails with PAL_ERROR_DAMAGED when the file is not a database or is
 * damaged, PAL_ERROR_LOCKED when another program holds it for longer than
 * @busy_timeout_ms, PAL_ERROR_NOT_SUPPORTED when a newer schema is in it. */
PalTranscriptDb     *_pal_transcript_db_open        (const char           *path,
                                                     int                   busy_timeout_ms,
                                                     GError              **error);
void                 _pal_transcript_db_close       (PalTranscriptDb      *db);

gboolean             _pal_transcript_db_begin       (PalTranscriptDb      *db,
                                                     GError              **error);
/* Writes what the appends left in memory (search texts, times), then commits */
gboolean             _pal_transcript_db_commit      (PalTranscriptDb      *db,
                                                     GError              **error);
/* Also forgets what was kept in memory about the transcripts */
void                 _pal_transcript_db_rollback    (PalTranscriptDb      *db);

/* Within a transaction */
gboolean             _pal_transcript_db_append      (PalTranscriptDb      *db,
                                                     PalSessionKey        *key,
                                                     PalTranscriptKind     kind,
                                                     const char           *item,
                                                     gint64                time,
                                                     const char           *json,
                                                     const char           *text,
                                                     GError              **error);
/* Within a transaction; @drop also forgets the transcript itself */
gboolean             _pal_transcript_db_clear       (PalTranscriptDb      *db,
                                                     PalSessionKey        *key,
                                                     gboolean              drop,
                                                     GError              **error);
/* Within a transaction */
gboolean             _pal_transcript_db_clear_all   (PalTranscriptDb      *db,
                                                     GError              **error);
/* Outside a transaction: gives freed space back to the file system */
gboolean             _pal_transcript_db_shrink      (PalTranscriptDb      *db,
                                                     GError              **error);

/* Whether the stored entries of @key are exactly @n_entries entries whose
 * kinds and texts are those that @get gives */
typedef void (*PalTranscriptDbEntryFunc) (gpointer           data,
                                          guint              index,
                                          PalTranscriptKind *kind,
                                          const char       **json);
gboolean             _pal_transcript_db_equals      (PalTranscriptDb      *db,
                                                     PalSessionKey        *key,
                                                     guint                 n_entries,
                                                     PalTranscriptDbEntryFunc get,
                                                     gpointer              data,
                                                     gboolean             *equal,
                                                     GError              **error);

PalStoredTranscript *_pal_transcript_db_load        (PalTranscriptDb      *db,
                                                     PalSessionKey        *key,
                                                     GCancellable         *cancellable,
                                                     GError              **error);
/* A GListModel of PalTranscriptSearchResult */
GListModel          *_pal_transcript_db_search      (PalTranscriptDb      *db,
                                                     const char           *query,
                                                     PalTranscriptSearchFlags flags,
                                                     guint                 max_sessions,
                                                     GCancellable         *cancellable,
                                                     GError              **error);

/* Moves the file at @path, and its -wal and -shm files, to a new name
 * beside it. Returns: (transfer full): the new name */
char                *_pal_transcript_db_move_aside  (const char           *path,
                                                     GError              **error);

/* --- shared by pal-transcript-db*.c --- */

/* A transcript is the range of rowids with its id in the upper 32 bits;
 * its entries (and its messages) are numbered in the lower */
#define ROWID(transcript, index) (((gint64) (transcript) << 32) | (gint64) (index))
#define FIRST_ROWID(transcript) ROWID (transcript, 0)
#define LAST_ROWID(transcript) ROWID (transcript, G_MAXUINT32)

enum {
  STMT_FIND_TRANSCRIPT,
  STMT_ADD_TRANSCRIPT,
  STMT_TOUCH_TRANSCRIPT,
  STMT_GET_TRANSCRIPT,
  STMT_DROP_TRANSCRIPT,
  STMT_LAST_UPDATE,
  STMT_LAST_DOC,
  STMT_ADD_UPDATE,
  STMT_ADD_DOC,
  STMT_SET_DOC,
  STMT_READ_UPDATES,
  STMT_CLEAR_UPDATES,
  STMT_CLEAR_DOCS,
  STMT_MESSAGE_MATCHES,
  STMT_THOUGHT_MATCHES,
  STMT_TRANSCRIPTS_BY_TIME,
  STMT_MESSAGE_MATCHES_IN,
  STMT_THOUGHT_MATCHES_IN,
  STMT_MESSAGE_SNIPPETS,
  STMT_THOUGHT_SNIPPETS,
  N_STMTS
};

struct _PalTranscriptDb
{
  sqlite3 *db;
  sqlite3_stmt *stmts[N_STMTS];
  /* PalSessionKey → Transcript, of the transcripts written since the last
   * rollback */
  GHashTable *transcripts;
  /* Doc, written at commit */
  GPtrArray *dirty_docs;
  /* what a long read checks, through the progress handler */
  GCancellable *cancellable;
  /* the rowids (gint64 *, borrowed) whose snippets a search wants */
  GHashTable *wanted;
  /* PAL_TRANSCRIPT_DB_COUNT_ALL, unless set */
  guint count_all;
};

gboolean             _pal_transcript_db_set_error   (GError              **error,
                                                     sqlite3              *db,
                                                     int                   code,
                                                     const char           *what);
gboolean             _pal_transcript_db_exec        (sqlite3              *db,
                                                     const char           *sql,
                                                     GError              **error);
/* Resets a statement and clears its bindings */
void                 _pal_transcript_db_reset       (sqlite3_stmt         *stmt);
/* pal-transcript-db-read.c: the SQL functions a search uses */
void                 _pal_transcript_db_add_functions (PalTranscriptDb    *db);
gboolean             _pal_transcript_db_find        (PalTranscriptDb      *db,
                                                     PalSessionKey        *key,
                                                     gint64               *id,
                                                     guint32              *n_entries,
                                                     GError              **error);
/* pal-transcript-db-schema.c: brings the schema of a newly opened file to
 * PAL_TRANSCRIPT_DB_VERSION; fails with PAL_ERROR_NOT_SUPPORTED for a
 * later version */
gboolean             _pal_transcript_db_check_version (sqlite3            *db,
                                                       GError            **error);
gboolean             _pal_transcript_db_migrate     (sqlite3              *db,
                                                     GError              **error);
/* pal-transcript-db-tokenizer.c: the tokenizer of the search indexes, made
 * known to a new connection */
gboolean             _pal_transcript_db_add_tokenizer (sqlite3            *db,
                                                       GError            **error);

G_END_DECLS
