/* pal-transcript-db-schema.c: the schema of the transcript database and
 * its migrations
 *
 * The version of a file's schema is its `PRAGMA user_version`: 0 for a new
 * (or empty) file. migrations[N] takes a file from version N to N + 1, in
 * a transaction of its own; a new version is a new function at the end of
 * the table, never a change to one that shipped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-transcript-db-private.h"

typedef gboolean (*Migration) (sqlite3 *db, GError **error);

static gboolean
migrate_to_1 (sqlite3  *db,
              GError  **error)
{
  return _pal_transcript_db_exec (db,
               "CREATE TABLE transcripts ("
               "  id INTEGER PRIMARY KEY,"
               "  agent_id TEXT NOT NULL,"
               "  session_id TEXT NOT NULL,"
               "  created INTEGER NOT NULL,"
               "  updated INTEGER NOT NULL,"
               "  UNIQUE (agent_id, session_id));"
               "CREATE INDEX transcripts_by_time ON transcripts (updated);"
               "CREATE TABLE updates ("
               "  id INTEGER PRIMARY KEY,"
               "  kind INTEGER NOT NULL,"
               "  time INTEGER NOT NULL,"
               "  json TEXT NOT NULL);"
               "CREATE TABLE docs ("
               "  id INTEGER PRIMARY KEY,"
               "  seq INTEGER NOT NULL,"
               "  kind INTEGER NOT NULL,"
               "  text TEXT NOT NULL);"
               "CREATE VIRTUAL TABLE messages_fts USING fts5 ("
               "  text, content = 'docs', content_rowid = 'id', columnsize = 0,"
               "  tokenize = 'unicode61 remove_diacritics 2');"
               "CREATE VIRTUAL TABLE thoughts_fts USING fts5 ("
               "  text, content = 'docs', content_rowid = 'id', columnsize = 0,"
               "  tokenize = 'unicode61 remove_diacritics 2');"
               "CREATE TRIGGER docs_messages_insert AFTER INSERT ON docs WHEN new.kind != 4 BEGIN"
               "  INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text); END;"
               "CREATE TRIGGER docs_messages_delete AFTER DELETE ON docs WHEN old.kind != 4 BEGIN"
               "  INSERT INTO messages_fts (messages_fts, rowid, text)"
               "    VALUES ('delete', old.id, old.text); END;"
               "CREATE TRIGGER docs_messages_update AFTER UPDATE OF text ON docs"
               "  WHEN old.kind != 4 BEGIN"
               "  INSERT INTO messages_fts (messages_fts, rowid, text)"
               "    VALUES ('delete', old.id, old.text);"
               "  INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text); END;"
               "CREATE TRIGGER docs_thoughts_insert AFTER INSERT ON docs WHEN new.kind = 4 BEGIN"
               "  INSERT INTO thoughts_fts (rowid, text) VALUES (new.id, new.text); END;"
               "CREATE TRIGGER docs_thoughts_delete AFTER DELETE ON docs WHEN old.kind = 4 BEGIN"
               "  INSERT INTO thoughts_fts (thoughts_fts, rowid, text)"
               "    VALUES ('delete', old.id, old.text); END;"
               "CREATE TRIGGER docs_thoughts_update AFTER UPDATE OF text ON docs"
               "  WHEN old.kind = 4 BEGIN"
               "  INSERT INTO thoughts_fts (thoughts_fts, rowid, text)"
               "    VALUES ('delete', old.id, old.text);"
               "  INSERT INTO thoughts_fts (rowid, text) VALUES (new.id, new.text); END;",
               error);
}

/* The indexes cut Chinese and Japanese into characters
 * (pal-transcript-db-tokenizer.c): made again with that tokenizer, from
 * the texts kept. */
static gboolean
migrate_to_2 (sqlite3  *db,
              GError  **error)
{
  return _pal_transcript_db_exec (db,
               "DROP TABLE messages_fts;"
               "DROP TABLE thoughts_fts;"
               "CREATE VIRTUAL TABLE messages_fts USING fts5 ("
               "  text, content = 'docs', content_rowid = 'id', columnsize = 0,"
               "  tokenize = 'palaver remove_diacritics 2');"
               "CREATE VIRTUAL TABLE thoughts_fts USING fts5 ("
               "  text, content = 'docs', content_rowid = 'id', columnsize = 0,"
               "  tokenize = 'palaver remove_diacritics 2');"
               "INSERT INTO messages_fts (rowid, text) SELECT id, text FROM docs WHERE kind != 4;"
               "INSERT INTO thoughts_fts (rowid, text) SELECT id, text FROM docs WHERE kind = 4;",
               error);
}

/* migrations[N] takes a database from version N to N + 1 */
static const Migration migrations[] = {
  migrate_to_1,
  migrate_to_2,
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == PAL_TRANSCRIPT_DB_VERSION);
G_STATIC_ASSERT (PAL_TRANSCRIPT_KIND_THOUGHT == 4);

static gboolean
get_version (sqlite3  *db,
             int      *version,
             GError  **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL);

  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);

  if (rc != SQLITE_ROW)
    return _pal_transcript_db_set_error (error, db, rc, "PRAGMA user_version");

  return TRUE;
}

gboolean
_pal_transcript_db_check_version (sqlite3  *db,
                                  GError  **error)
{
  int version = 0;

  if (!get_version (db, &version, error))
    return FALSE;

  if (version > PAL_TRANSCRIPT_DB_VERSION)
    {
      /* TRANSLATORS: the reason a file could not be opened */
      g_set_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                   _("it was written by a newer version of Palaver (format %d; this "
                     "version knows up to %d)"),
                   version, PAL_TRANSCRIPT_DB_VERSION);
      return FALSE;
    }
  if (version < 0)
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_DAMAGED, "user_version %d", version);
      return FALSE;
    }

  return TRUE;
}

/* One version a transaction */
gboolean
_pal_transcript_db_migrate (sqlite3  *db,
                            GError  **error)
{
  int version = 0;

  if (!get_version (db, &version, error))
    return FALSE;

  for (; version < PAL_TRANSCRIPT_DB_VERSION; version++)
    {
      g_autofree char *set_version = g_strdup_printf ("PRAGMA user_version = %d",
                                                      version + 1);

      if (!_pal_transcript_db_exec (db, "BEGIN IMMEDIATE", error))
        return FALSE;
      if (!migrations[version] (db, error) || !_pal_transcript_db_exec (db, set_version, error) ||
          !_pal_transcript_db_exec (db, "COMMIT", error))
        {
          sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
          return FALSE;
        }
    }

  return TRUE;
}
