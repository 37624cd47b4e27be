/* pal-transcript-db.c: the transcript database (SQLite), used by the
 * store's worker thread alone
 *
 * Layout (schema version 1):
 *
 * - `transcripts`: one row per (agent profile, session id), with when its
 *   transcript was created and last changed.
 * - `updates`: every recorded entry, its kind, time and JSON text. The
 *   rowid is the transcript's id in the upper 32 bits and the entry's
 *   index in the lower: a transcript is a range of rowids, read in order
 *   without an index of its own.
 * - `docs`: the searchable text, one row per message (chunks of the same
 *   message joined, tool calls with their updates), the rowid made the same
 *   way from a counter of its own; `seq` is the index of the entry where
 *   the message starts.
 * - `messages_fts` and `thoughts_fts`: FTS5 indexes over `docs` (external
 *   content, kept by triggers), thoughts apart so that leaving them out of
 *   a search costs nothing.
 *
 * Writes happen in transactions the worker batches. Appends keep the state
 * of each transcript touched in memory (next index, the messages still
 * growing) and write the grown messages once per transaction, at commit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "pal-error.h"
#include "pal-transcript-db-private.h"

/* The messages with an id that a transcript keeps in memory to grow them
 * (their text included): past that, the next update of one of them starts
 * a new message in the index */
#define MAX_OPEN_ITEMS 32
/* The transcripts whose state is kept in memory past the transaction that
 * last wrote them: more than that, and those the transaction did not
 * write are forgotten (and read again when written next) */
#define MAX_KEPT_TRANSCRIPTS 32

typedef struct
{
  gint64 id;
  guint32 seq;
  PalTranscriptKind kind;
  char *item;
  GString *text;
  gboolean in_db;
  gboolean dirty;
} Doc;

typedef struct
{
  gint64 id;
  guint32 next_seq;
  guint32 next_doc;
  gint64 updated;
  gboolean touched;
  /* the message the last searchable entry went to */
  Doc *last_doc;
  /* "kind:item" → Doc */
  GHashTable *item_docs;
} Transcript;

static const char * const statement_sql[N_STMTS] = {
  [STMT_FIND_TRANSCRIPT] =
    "SELECT id, updated FROM transcripts WHERE agent_id = ?1 AND session_id = ?2",
  [STMT_ADD_TRANSCRIPT] =
    "INSERT INTO transcripts (agent_id, session_id, created, updated) VALUES (?1, ?2, ?3, ?3)",
  [STMT_TOUCH_TRANSCRIPT] = "UPDATE transcripts SET updated = ?2 WHERE id = ?1",
  [STMT_GET_TRANSCRIPT] =
    "SELECT agent_id, session_id, updated FROM transcripts WHERE id = ?1",
  [STMT_DROP_TRANSCRIPT] = "DELETE FROM transcripts WHERE id = ?1",
  [STMT_LAST_UPDATE] = "SELECT max(id) FROM updates WHERE id BETWEEN ?1 AND ?2",
  [STMT_LAST_DOC] = "SELECT max(id) FROM docs WHERE id BETWEEN ?1 AND ?2",
  [STMT_ADD_UPDATE] = "INSERT INTO updates (id, kind, time, json) VALUES (?1, ?2, ?3, ?4)",
  [STMT_ADD_DOC] = "INSERT INTO docs (id, seq, kind, text) VALUES (?1, ?2, ?3, ?4)",
  [STMT_SET_DOC] = "UPDATE docs SET text = ?2 WHERE id = ?1",
  [STMT_READ_UPDATES] =
    "SELECT kind, time, json FROM updates WHERE id BETWEEN ?1 AND ?2 ORDER BY id",
  [STMT_CLEAR_UPDATES] = "DELETE FROM updates WHERE id BETWEEN ?1 AND ?2",
  [STMT_CLEAR_DOCS] = "DELETE FROM docs WHERE id BETWEEN ?1 AND ?2",
  [STMT_MESSAGE_MATCHES] = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1",
  [STMT_THOUGHT_MATCHES] = "SELECT rowid FROM thoughts_fts WHERE thoughts_fts MATCH ?1",
  [STMT_TRANSCRIPTS_BY_TIME] =
    "SELECT id, agent_id, session_id, updated FROM transcripts ORDER BY updated DESC, id DESC",
  [STMT_MESSAGE_MATCHES_IN] =
    "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3 "
    "ORDER BY rowid DESC",
  [STMT_THOUGHT_MATCHES_IN] =
    "SELECT rowid FROM thoughts_fts WHERE thoughts_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3 "
    "ORDER BY rowid DESC",
  [STMT_MESSAGE_SNIPPETS] =
    "SELECT f.rowid, d.seq, d.kind, snippet (messages_fts, 0, ?4, ?5, '…', 16) "
    "FROM messages_fts AS f JOIN docs AS d ON d.id = f.rowid "
    "WHERE messages_fts MATCH ?1 AND f.rowid BETWEEN ?2 AND ?3 AND pal_wanted (f.rowid)",
  [STMT_THOUGHT_SNIPPETS] =
    "SELECT f.rowid, d.seq, d.kind, snippet (thoughts_fts, 0, ?4, ?5, '…', 16) "
    "FROM thoughts_fts AS f JOIN docs AS d ON d.id = f.rowid "
    "WHERE thoughts_fts MATCH ?1 AND f.rowid BETWEEN ?2 AND ?3 AND pal_wanted (f.rowid)",
};

/* --- errors --- */

/* Sets @error from an SQLite result @code (PAL_ERROR_DAMAGED,
 * PAL_ERROR_LOCKED, G_IO_ERROR_CANCELLED, G_IO_ERROR_NO_SPACE or
 * PAL_ERROR_FAILED) and returns FALSE */
gboolean
_pal_transcript_db_set_error (GError     **error,
                              sqlite3     *db,
                              int          code,
                              const char  *what)
{
  const char *message = db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (code);
  GQuark domain = PAL_ERROR;
  int error_code = PAL_ERROR_FAILED;

  g_debug ("%s: %s", what, message);

  switch (code & 0xff)
    {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      error_code = PAL_ERROR_DAMAGED;
      break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      error_code = PAL_ERROR_LOCKED;
      break;
    case SQLITE_INTERRUPT:
      domain = G_IO_ERROR;
      error_code = G_IO_ERROR_CANCELLED;
      break;
    case SQLITE_FULL:
      domain = G_IO_ERROR;
      error_code = G_IO_ERROR_NO_SPACE;
      break;
    default:
      break;
    }

  /* SQLite's own words: the statement is only in the log */
  g_set_error_literal (error, domain, error_code, message);

  return FALSE;
}

gboolean
_pal_transcript_db_exec (sqlite3     *db,
                         const char  *sql,
                         GError     **error)
{
  int rc = sqlite3_exec (db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    return _pal_transcript_db_set_error (error, db, rc, sql);

  return TRUE;
}

/* Steps a statement that returns no rows (or whose rows do not matter),
 * then resets it. */
static gboolean
run (PalTranscriptDb  *self,
     sqlite3_stmt     *stmt,
     GError          **error)
{
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    ;
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  if (rc != SQLITE_DONE)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  return TRUE;
}

void
_pal_transcript_db_reset (sqlite3_stmt *stmt)
{
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

/* --- opening --- */

static void
doc_clear (gpointer data)
{
  Doc *doc = data;

  g_free (doc->item);
  g_string_free (doc->text, TRUE);
}

static void
doc_release (gpointer data)
{
  g_rc_box_release_full (data, doc_clear);
}

static void
transcript_free (gpointer data)
{
  Transcript *transcript = data;

  g_clear_pointer (&transcript->last_doc, doc_release);
  g_hash_table_unref (transcript->item_docs);
  g_free (transcript);
}

static int
progress_cb (void *data)
{
  PalTranscriptDb *self = data;

  return g_cancellable_is_cancelled (self->cancellable) ? 1 : 0;
}

/**
 * _pal_transcript_db_open:
 *
 * Opens (creating it and its folder when missing) the database at @path,
 * in WAL mode, and brings its schema to PAL_TRANSCRIPT_DB_VERSION.
 */
PalTranscriptDb *
_pal_transcript_db_open (const char  *path,
                         int          busy_timeout_ms,
                         GError     **error)
{
  g_autofree char *folder = g_path_get_dirname (path);
  PalTranscriptDb *self;
  sqlite3 *db = NULL;
  int rc;

  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", folder, g_strerror (saved_errno));
      return NULL;
    }

  rc = sqlite3_open_v2 (path, &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL);
  if (rc != SQLITE_OK)
    {
      _pal_transcript_db_set_error (error, db, rc, path);
      sqlite3_close (db);
      return NULL;
    }

  sqlite3_extended_result_codes (db, 1);
  sqlite3_busy_timeout (db, busy_timeout_ms);

  /* The first read finds a file that is no database, and the version
   * one that a later version wrote, before anything is changed;
   * auto_vacuum takes effect only in a new file, so before its first
   * write. */
  if (!_pal_transcript_db_exec (db, "SELECT count(*) FROM sqlite_schema", error) ||
      !_pal_transcript_db_check_version (db, error) ||
      !_pal_transcript_db_exec (db, "PRAGMA auto_vacuum = INCREMENTAL", error) ||
      !_pal_transcript_db_exec (db, "PRAGMA journal_mode = WAL", error) ||
      !_pal_transcript_db_exec (db, "PRAGMA synchronous = NORMAL", error) ||
      !_pal_transcript_db_exec (db, "PRAGMA journal_size_limit = 16777216", error) ||
      !_pal_transcript_db_add_tokenizer (db, error) ||
      !_pal_transcript_db_migrate (db, error))
    {
      sqlite3_close (db);
      return NULL;
    }

  self = g_new0 (PalTranscriptDb, 1);
  self->db = db;
  self->transcripts = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                             (GDestroyNotify) pal_session_key_unref,
                                             transcript_free);
  self->dirty_docs = g_ptr_array_new_with_free_func (doc_release);
  self->wanted = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->count_all = PAL_TRANSCRIPT_DB_COUNT_ALL;
  _pal_transcript_db_add_functions (self);

  for (guint i = 0; i < N_STMTS; i++)
    {
      rc = sqlite3_prepare_v3 (db, statement_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &self->stmts[i], NULL);
      if (rc != SQLITE_OK)
        {
          /* the tables of its version are not all there, or not as made */
          g_debug ("%s: %s", statement_sql[i], sqlite3_errmsg (db));
          g_set_error_literal (error, PAL_ERROR, PAL_ERROR_DAMAGED, sqlite3_errmsg (db));
          _pal_transcript_db_close (self);
          return NULL;
        }
    }

  sqlite3_progress_handler (db, 1000, progress_cb, self);

  return self;
}

void
_pal_transcript_db_close (PalTranscriptDb *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < N_STMTS; i++)
    sqlite3_finalize (self->stmts[i]);
  /* a clean close checkpoints the WAL into the file and removes it */
  sqlite3_close (self->db);
  g_hash_table_unref (self->transcripts);
  g_ptr_array_unref (self->dirty_docs);
  g_hash_table_unref (self->wanted);
  g_free (self);
}

/* --- transactions --- */

gboolean
_pal_transcript_db_begin (PalTranscriptDb  *self,
                          GError          **error)
{
  return _pal_transcript_db_exec (self->db, "BEGIN IMMEDIATE", error);
}

static gboolean
write_docs (PalTranscriptDb  *self,
            GError          **error)
{
  for (guint i = 0; i < self->dirty_docs->len; i++)
    {
      Doc *doc = g_ptr_array_index (self->dirty_docs, i);
      sqlite3_stmt *stmt;

      if (doc->in_db)
        {
          stmt = self->stmts[STMT_SET_DOC];
          sqlite3_bind_int64 (stmt, 1, doc->id);
          sqlite3_bind_text (stmt, 2, doc->text->str, (int) doc->text->len, SQLITE_STATIC);
        }
      else
        {
          stmt = self->stmts[STMT_ADD_DOC];
          sqlite3_bind_int64 (stmt, 1, doc->id);
          sqlite3_bind_int64 (stmt, 2, doc->seq);
          sqlite3_bind_int (stmt, 3, doc->kind);
          sqlite3_bind_text (stmt, 4, doc->text->str, (int) doc->text->len, SQLITE_STATIC);
        }
      if (!run (self, stmt, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
write_times (PalTranscriptDb  *self,
             GError          **error)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->transcripts);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Transcript *transcript = value;
      sqlite3_stmt *stmt = self->stmts[STMT_TOUCH_TRANSCRIPT];

      if (!transcript->touched)
        continue;
      sqlite3_bind_int64 (stmt, 1, transcript->id);
      sqlite3_bind_int64 (stmt, 2, transcript->updated);
      if (!run (self, stmt, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
_pal_transcript_db_commit (PalTranscriptDb  *self,
                           GError          **error)
{
  GHashTableIter iter;
  gpointer value;
  gboolean keep_all;

  if (!write_docs (self, error) || !write_times (self, error) ||
      !_pal_transcript_db_exec (self->db, "COMMIT", error))
    return FALSE;

  for (guint i = 0; i < self->dirty_docs->len; i++)
    {
      Doc *doc = g_ptr_array_index (self->dirty_docs, i);

      doc->in_db = TRUE;
      doc->dirty = FALSE;
    }
  g_ptr_array_set_size (self->dirty_docs, 0);

  keep_all = g_hash_table_size (self->transcripts) <= MAX_KEPT_TRANSCRIPTS;
  g_hash_table_iter_init (&iter, self->transcripts);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Transcript *transcript = value;

      if (!transcript->touched && !keep_all)
        g_hash_table_iter_remove (&iter);
      else
        transcript->touched = FALSE;
    }

  return TRUE;
}

void
_pal_transcript_db_rollback (PalTranscriptDb *self)
{
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);

  /* what memory says no longer matches the file: read it again */
  g_ptr_array_set_size (self->dirty_docs, 0);
  g_hash_table_remove_all (self->transcripts);
}

/* --- appending --- */

static gboolean
get_max_index (PalTranscriptDb  *self,
               int               which,
               gint64            transcript,
               guint32          *next,
               GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[which];
  int rc;

  sqlite3_bind_int64 (stmt, 1, FIRST_ROWID (transcript));
  sqlite3_bind_int64 (stmt, 2, LAST_ROWID (transcript));
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      if (sqlite3_column_type (stmt, 0) == SQLITE_NULL)
        *next = 0;
      else
        *next = (guint32) (sqlite3_column_int64 (stmt, 0) & G_MAXUINT32) + 1;
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_ROW)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  return TRUE;
}

/* Finds the stored transcript of @key, making it when there is none and
 * @create; *@out is NULL when there is none. */
static gboolean
get_transcript (PalTranscriptDb  *self,
                PalSessionKey    *key,
                gboolean          create,
                gint64            time,
                Transcript      **out,
                GError          **error)
{
  Transcript *transcript = g_hash_table_lookup (self->transcripts, key);
  sqlite3_stmt *stmt;
  gint64 id = 0, updated = time;
  int rc;

  *out = transcript;
  if (transcript != NULL)
    return TRUE;

  stmt = self->stmts[STMT_FIND_TRANSCRIPT];
  sqlite3_bind_text (stmt, 1, pal_session_key_get_agent_id (key), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, pal_session_key_get_session_id (key), -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      id = sqlite3_column_int64 (stmt, 0);
      updated = sqlite3_column_int64 (stmt, 1);
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  if (rc == SQLITE_DONE)
    {
      if (!create)
        return TRUE;

      stmt = self->stmts[STMT_ADD_TRANSCRIPT];
      sqlite3_bind_text (stmt, 1, pal_session_key_get_agent_id (key), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, pal_session_key_get_session_id (key), -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 3, time);
      if (!run (self, stmt, error))
        return FALSE;
      id = sqlite3_last_insert_rowid (self->db);
    }

  if (id <= 0 || id > G_MAXINT32)
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_DAMAGED, "transcript id %" G_GINT64_FORMAT, id);
      return FALSE;
    }

  transcript = g_new0 (Transcript, 1);
  transcript->id = id;
  transcript->updated = updated;
  transcript->item_docs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, doc_release);
  if (!get_max_index (self, STMT_LAST_UPDATE, id, &transcript->next_seq, error) ||
      !get_max_index (self, STMT_LAST_DOC, id, &transcript->next_doc, error))
    {
      transcript_free (transcript);
      return FALSE;
    }

  g_hash_table_insert (self->transcripts, pal_session_key_ref (key), transcript);
  *out = transcript;

  return TRUE;
}

/* The id of the stored transcript of @key and how many entries it has;
 * an id of 0 when there is none */
gboolean
_pal_transcript_db_find (PalTranscriptDb  *self,
                         PalSessionKey    *key,
                         gint64           *id,
                         guint32          *n_entries,
                         GError          **error)
{
  Transcript *transcript;

  if (!get_transcript (self, key, FALSE, 0, &transcript, error))
    return FALSE;

  *id = transcript != NULL ? transcript->id : 0;
  *n_entries = transcript != NULL ? transcript->next_seq : 0;

  return TRUE;
}

static Doc *
new_doc (PalTranscriptDb   *self,
         Transcript        *transcript,
         guint32            seq,
         PalTranscriptKind  kind,
         const char        *item)
{
  Doc *doc = g_rc_box_new0 (Doc);

  doc->id = ROWID (transcript->id, transcript->next_doc++);
  doc->seq = seq;
  doc->kind = kind;
  doc->item = g_strdup (item);
  doc->text = g_string_new (NULL);

  return doc;
}

static void
mark_dirty (PalTranscriptDb *self,
            Doc             *doc)
{
  if (doc->dirty)
    return;

  doc->dirty = TRUE;
  g_ptr_array_add (self->dirty_docs, g_rc_box_acquire (doc));
}

static gboolean
is_chunk (PalTranscriptKind kind)
{
  return kind == PAL_TRANSCRIPT_KIND_USER_MESSAGE ||
         kind == PAL_TRANSCRIPT_KIND_AGENT_MESSAGE ||
         kind == PAL_TRANSCRIPT_KIND_THOUGHT;
}

/* The message that text of this entry joins, if it joins one: the one of
 * the same kind and item id, or without an id, the message of the same
 * kind that the last searchable entry went to. Prompts and tool calls
 * without an id always start their own. */
static Doc *
find_doc (Transcript        *transcript,
          PalTranscriptKind  kind,
          const char        *item,
          char             **item_key)
{
  if (item != NULL && kind != PAL_TRANSCRIPT_KIND_PROMPT)
    {
      *item_key = g_strdup_printf ("%d:%s", kind, item);
      return g_hash_table_lookup (transcript->item_docs, *item_key);
    }

  if (is_chunk (kind) && transcript->last_doc != NULL &&
      transcript->last_doc->kind == kind && transcript->last_doc->item == NULL)
    return transcript->last_doc;

  return NULL;
}

/* A copy of @text without the bytes that mark matches in snippets */
static char *
clean_text (const char *text)
{
  char *copy = g_strdup (text);

  for (char *p = copy; *p != '\0'; p++)
    if (*p == PAL_TRANSCRIPT_MATCH_START[0] || *p == PAL_TRANSCRIPT_MATCH_END[0])
      *p = ' ';

  return copy;
}

static void
add_text (PalTranscriptDb   *self,
          Transcript        *transcript,
          guint32            seq,
          PalTranscriptKind  kind,
          const char        *item,
          const char        *text)
{
  g_autofree char *item_key = NULL;
  g_autofree char *clean = clean_text (text);
  const char *rest = clean;
  Doc *doc = find_doc (transcript, kind, item, &item_key);

  if (doc != NULL && kind == PAL_TRANSCRIPT_KIND_TOOL_CALL && doc->text->len > 0)
    {
      if (doc->text->len + 1 + strlen (rest) <= PAL_TRANSCRIPT_DB_MAX_TEXT)
        g_string_append_c (doc->text, '\n');
      else
        doc = NULL;
    }

  while (*rest != '\0')
    {
      gsize room = doc != NULL ? PAL_TRANSCRIPT_DB_MAX_TEXT - MIN (doc->text->len,
                                                                   PAL_TRANSCRIPT_DB_MAX_TEXT)
                               : 0;
      gsize length = strlen (rest);

      if (room == 0 || (length > room && doc->text->len > 0 &&
                        length <= PAL_TRANSCRIPT_DB_MAX_TEXT))
        {
          /* a new message, or a new piece of a long one */
          doc = new_doc (self, transcript, seq, kind, item);
          if (item_key != NULL)
            {
              if (g_hash_table_size (transcript->item_docs) >= MAX_OPEN_ITEMS)
                g_hash_table_remove_all (transcript->item_docs);
              g_hash_table_replace (transcript->item_docs, g_strdup (item_key),
                                    g_rc_box_acquire (doc));
            }
          g_clear_pointer (&transcript->last_doc, doc_release);
          transcript->last_doc = doc;
          room = PAL_TRANSCRIPT_DB_MAX_TEXT;
        }

      if (length > room)
        {
          /* cut at a character boundary */
          const char *cut = g_utf8_find_prev_char (rest, rest + room + 1);

          length = cut != NULL && cut > rest ? (gsize) (cut - rest) : room;
        }

      g_string_append_len (doc->text, rest, (gssize) length);
      mark_dirty (self, doc);
      rest += length;
    }

  if (doc != NULL && doc != transcript->last_doc)
    {
      g_clear_pointer (&transcript->last_doc, doc_release);
      transcript->last_doc = g_rc_box_acquire (doc);
    }
}

/**
 * _pal_transcript_db_append:
 * @item: (nullable): the id of the message or tool call the entry belongs
 *   to: its searchable text joins that message's
 * @text: (nullable): its searchable text
 *
 * Appends an entry to the transcript of @key (creating it), as the next
 * entry. Within a transaction.
 */
gboolean
_pal_transcript_db_append (PalTranscriptDb    *self,
                           PalSessionKey      *key,
                           PalTranscriptKind   kind,
                           const char         *item,
                           gint64              time,
                           const char         *json,
                           const char         *text,
                           GError            **error)
{
  sqlite3_stmt *stmt = self->stmts[STMT_ADD_UPDATE];
  Transcript *transcript;
  guint32 seq;

  if (!get_transcript (self, key, TRUE, time, &transcript, error))
    return FALSE;

  if (transcript->next_seq == G_MAXUINT32)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_FAILED,
                           "the transcript has as many entries as it can hold");
      return FALSE;
    }

  seq = transcript->next_seq;
  sqlite3_bind_int64 (stmt, 1, ROWID (transcript->id, seq));
  sqlite3_bind_int (stmt, 2, kind);
  sqlite3_bind_int64 (stmt, 3, time);
  sqlite3_bind_text (stmt, 4, json, -1, SQLITE_STATIC);
  if (!run (self, stmt, error))
    return FALSE;

  transcript->next_seq++;
  transcript->updated = MAX (transcript->updated, time);
  transcript->touched = TRUE;

  if (text != NULL && *text != '\0' && kind != PAL_TRANSCRIPT_KIND_OTHER)
    add_text (self, transcript, seq, kind, item, text);

  return TRUE;
}

/* --- deleting --- */

static gboolean
clear_range (PalTranscriptDb  *self,
             int               which,
             gint64            transcript,
             GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[which];

  sqlite3_bind_int64 (stmt, 1, FIRST_ROWID (transcript));
  sqlite3_bind_int64 (stmt, 2, LAST_ROWID (transcript));

  return run (self, stmt, error);
}

gboolean
_pal_transcript_db_clear (PalTranscriptDb  *self,
                          PalSessionKey    *key,
                          gboolean          drop,
                          GError          **error)
{
  Transcript *transcript;
  gint64 id;

  if (!get_transcript (self, key, FALSE, 0, &transcript, error))
    return FALSE;
  if (transcript == NULL)
    return TRUE;

  id = transcript->id;
  /* docs not yet written must not be written now */
  for (guint i = self->dirty_docs->len; i-- > 0;)
    {
      Doc *doc = g_ptr_array_index (self->dirty_docs, i);

      if (doc->id >> 32 == id)
        {
          doc->dirty = FALSE;
          g_ptr_array_remove_index (self->dirty_docs, i);
        }
    }
  g_hash_table_remove (self->transcripts, key);

  if (!clear_range (self, STMT_CLEAR_DOCS, id, error) ||
      !clear_range (self, STMT_CLEAR_UPDATES, id, error))
    return FALSE;

  if (drop)
    {
      sqlite3_stmt *stmt = self->stmts[STMT_DROP_TRANSCRIPT];

      sqlite3_bind_int64 (stmt, 1, id);
      return run (self, stmt, error);
    }

  return TRUE;
}

gboolean
_pal_transcript_db_clear_all (PalTranscriptDb  *self,
                              GError          **error)
{
  g_ptr_array_set_size (self->dirty_docs, 0);
  g_hash_table_remove_all (self->transcripts);

  /* emptied whole, not row by row through the triggers */
  return _pal_transcript_db_exec (self->db,
               "INSERT INTO messages_fts (messages_fts) VALUES ('delete-all');"
               "INSERT INTO thoughts_fts (thoughts_fts) VALUES ('delete-all');"
               "DROP TRIGGER docs_messages_delete;"
               "DROP TRIGGER docs_thoughts_delete;"
               "DELETE FROM docs;"
               "DELETE FROM updates;"
               "DELETE FROM transcripts;"
               "CREATE TRIGGER docs_messages_delete AFTER DELETE ON docs WHEN old.kind != 4 BEGIN"
               "  INSERT INTO messages_fts (messages_fts, rowid, text)"
               "    VALUES ('delete', old.id, old.text); END;"
               "CREATE TRIGGER docs_thoughts_delete AFTER DELETE ON docs WHEN old.kind = 4 BEGIN"
               "  INSERT INTO thoughts_fts (thoughts_fts, rowid, text)"
               "    VALUES ('delete', old.id, old.text); END;",
               error);
}

gboolean
_pal_transcript_db_shrink (PalTranscriptDb  *self,
                           GError          **error)
{
  return _pal_transcript_db_exec (self->db, "PRAGMA incremental_vacuum", error) &&
         _pal_transcript_db_exec (self->db, "PRAGMA wal_checkpoint(TRUNCATE)", error);
}

/* --- moving a damaged file aside --- */

static gboolean
move_file (const char  *from,
           const char  *to,
           gboolean     must_exist,
           GError     **error)
{
  if (g_rename (from, to) != 0)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT && !must_exist)
        return TRUE;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", from, g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

char *
_pal_transcript_db_move_aside (const char  *path,
                               GError     **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *target = NULL;

  for (guint n = 1; target == NULL; n++)
    {
      g_autofree char *name = n == 1
        ? g_strdup_printf ("%s.damaged-%s", path, stamp)
        : g_strdup_printf ("%s.damaged-%s-%u", path, stamp, n);

      if (!g_file_test (name, G_FILE_TEST_EXISTS))
        target = g_steal_pointer (&name);
    }

  if (!move_file (path, target, TRUE, error))
    return NULL;

  for (guint i = 0; i < 2; i++)
    {
      const char *suffix = i == 0 ? "-wal" : "-shm";
      g_autofree char *from = g_strconcat (path, suffix, NULL);
      g_autofree char *to = g_strconcat (target, suffix, NULL);

      if (!move_file (from, to, FALSE, error))
        return NULL;
    }

  return g_steal_pointer (&target);
}
