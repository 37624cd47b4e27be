/* pal-transcript-db-read.c: reading the transcript database: a session's
 * entries, and searching every session
 *
 * A search runs in three steps. It collects the rowid of every message
 * that matches from the FTS5 index alone (no text is read): the upper bits
 * of a rowid name the transcript, so the matches are counted by session
 * and the newest few of each kept as they come. It then reads each
 * session's row and sorts the sessions by their last change. Only for the
 * sessions it gives and their newest matches does it ask FTS5 for a
 * snippet, the costly part, one message at a time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-transcript-db-private.h"

static PalTranscriptKind
column_kind (sqlite3_stmt *stmt,
             int           column)
{
  int kind = sqlite3_column_int (stmt, column);

  /* a value from a later version, or a damaged one */
  if (kind < 0 || kind > PAL_TRANSCRIPT_KIND_LAST)
    return PAL_TRANSCRIPT_KIND_OTHER;

  return kind;
}

static const char *
column_text (sqlite3_stmt *stmt,
             int           column,
             gsize        *length)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);

  *length = text != NULL ? (gsize) sqlite3_column_bytes (stmt, column) : 0;

  return text != NULL ? text : "";
}

gboolean
_pal_transcript_db_equals (PalTranscriptDb          *self,
                           PalSessionKey            *key,
                           guint                     n_entries,
                           PalTranscriptDbEntryFunc  get,
                           gpointer                  data,
                           gboolean                 *equal,
                           GError                  **error)
{
  sqlite3_stmt *stmt = self->stmts[STMT_READ_UPDATES];
  guint32 n_stored;
  gint64 id;
  guint index = 0;
  int rc;

  *equal = FALSE;
  if (!_pal_transcript_db_find (self, key, &id, &n_stored, error))
    return FALSE;
  if (n_stored != n_entries)
    return TRUE;
  if (n_entries == 0)
    {
      *equal = TRUE;
      return TRUE;
    }

  sqlite3_bind_int64 (stmt, 1, FIRST_ROWID (id));
  sqlite3_bind_int64 (stmt, 2, LAST_ROWID (id));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      PalTranscriptKind kind;
      const char *json;
      const char *stored;
      gsize length;

      if (index >= n_entries)
        break;
      get (data, index++, &kind, &json);
      stored = column_text (stmt, 2, &length);
      if (column_kind (stmt, 0) != kind || strlen (json) != length ||
          memcmp (stored, json, length) != 0)
        break;
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  *equal = rc == SQLITE_DONE && index == n_entries;

  return TRUE;
}

PalStoredTranscript *
_pal_transcript_db_load (PalTranscriptDb  *self,
                         PalSessionKey    *key,
                         GCancellable     *cancellable,
                         GError          **error)
{
  g_autoptr(PalStoredTranscript) stored = _pal_stored_transcript_new ();
  sqlite3_stmt *stmt = self->stmts[STMT_READ_UPDATES];
  guint32 n_stored;
  gint64 id;
  int rc;

  if (!_pal_transcript_db_find (self, key, &id, &n_stored, error))
    return NULL;
  if (n_stored == 0)
    return g_steal_pointer (&stored);

  self->cancellable = cancellable;
  sqlite3_bind_int64 (stmt, 1, FIRST_ROWID (id));
  sqlite3_bind_int64 (stmt, 2, LAST_ROWID (id));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gsize length;
      const char *json = column_text (stmt, 2, &length);

      _pal_stored_transcript_append (stored, column_kind (stmt, 0),
                                     sqlite3_column_int64 (stmt, 1), json, length);
    }
  _pal_transcript_db_reset (stmt);
  self->cancellable = NULL;

  if (rc != SQLITE_DONE)
    {
      _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));
      return NULL;
    }

  return g_steal_pointer (&stored);
}

/* --- searching --- */

typedef struct
{
  gint64 transcript;
  gint64 updated;
  guint n_matches;
  guint n_newest;
  /* the newest matches, newest first; the upper bit of each says it is a
   * thought */
  gint64 newest[PAL_TRANSCRIPT_DB_HITS_PER_SESSION];
  gboolean thought[PAL_TRANSCRIPT_DB_HITS_PER_SESSION];
  char *agent_id;
  char *session_id;
} Found;

static void
found_free (gpointer data)
{
  Found *found = data;

  g_free (found->agent_id);
  g_free (found->session_id);
  g_free (found);
}

static void
found_add (Found    *found,
           gint64    rowid,
           gboolean  thought)
{
  guint at;

  found->n_matches++;
  for (at = 0; at < found->n_newest && found->newest[at] > rowid; at++)
    ;
  if (at >= PAL_TRANSCRIPT_DB_HITS_PER_SESSION)
    return;

  if (found->n_newest < PAL_TRANSCRIPT_DB_HITS_PER_SESSION)
    found->n_newest++;
  for (guint i = found->n_newest - 1; i > at; i--)
    {
      found->newest[i] = found->newest[i - 1];
      found->thought[i] = found->thought[i - 1];
    }
  found->newest[at] = rowid;
  found->thought[at] = thought;
}

/* Every match of @query in one index, counted by transcript */
static gboolean
collect_matches (PalTranscriptDb  *self,
                 int               which,
                 const char       *query,
                 GHashTable       *found,
                 GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[which];
  int rc;

  sqlite3_bind_text (stmt, 1, query, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);
      gint64 transcript = rowid >> 32;
      Found *entry = g_hash_table_lookup (found, &transcript);

      if (entry == NULL)
        {
          entry = g_new0 (Found, 1);
          entry->transcript = transcript;
          g_hash_table_insert (found, &entry->transcript, entry);
        }
      found_add (entry, rowid, which == STMT_THOUGHT_MATCHES);
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_DONE)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  return TRUE;
}

static gboolean
read_session (PalTranscriptDb  *self,
              Found            *found,
              GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[STMT_GET_TRANSCRIPT];
  int rc;

  sqlite3_bind_int64 (stmt, 1, found->transcript);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      found->agent_id = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      found->session_id = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      found->updated = sqlite3_column_int64 (stmt, 2);
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  return TRUE;
}

static int
compare_found (gconstpointer a,
               gconstpointer b)
{
  const Found *found_a = *(Found **) a;
  const Found *found_b = *(Found **) b;

  if (found_a->updated != found_b->updated)
    return found_a->updated > found_b->updated ? -1 : 1;
  if (found_a->transcript != found_b->transcript)
    return found_a->transcript > found_b->transcript ? -1 : 1;

  return 0;
}

static PalTranscriptHit *
read_hit (PalTranscriptDb  *self,
          const char       *query,
          gint64            rowid,
          gboolean          thought,
          GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[thought ? STMT_THOUGHT_SNIPPET : STMT_MESSAGE_SNIPPET];
  PalTranscriptHit *hit = NULL;
  int rc;

  sqlite3_bind_text (stmt, 1, query, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, rowid);
  sqlite3_bind_text (stmt, 3, PAL_TRANSCRIPT_MATCH_START, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 4, PAL_TRANSCRIPT_MATCH_END, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      gint64 seq = sqlite3_column_int64 (stmt, 0);
      const char *snippet = (const char *) sqlite3_column_text (stmt, 2);

      if (seq >= 0 && seq <= G_MAXUINT32 && snippet != NULL && g_utf8_validate (snippet, -1, NULL))
        hit = _pal_transcript_hit_new ((guint) seq, column_kind (stmt, 1), snippet);
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));
      return NULL;
    }

  /* NULL without an error: the message is gone (or unreadable): no hit */
  return hit;
}

static GListModel *
search (PalTranscriptDb           *self,
        const char                *query,
        PalTranscriptSearchFlags   flags,
        guint                      max_sessions,
        GError                   **error)
{
  g_autoptr(GHashTable) found = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                       NULL, found_free);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr(GListStore) results = g_list_store_new (PAL_TYPE_TRANSCRIPT_SEARCH_RESULT);
  GHashTableIter iter;
  gpointer value;

  if (!collect_matches (self, STMT_MESSAGE_MATCHES, query, found, error))
    return NULL;
  if ((flags & PAL_TRANSCRIPT_SEARCH_THOUGHTS) != 0 &&
      !collect_matches (self, STMT_THOUGHT_MATCHES, query, found, error))
    return NULL;

  g_hash_table_iter_init (&iter, found);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Found *entry = value;

      if (!read_session (self, entry, error))
        return NULL;
      if (entry->agent_id != NULL && entry->session_id != NULL)
        g_ptr_array_add (sorted, entry);
    }
  g_ptr_array_sort (sorted, compare_found);

  for (guint i = 0; i < sorted->len && i < max_sessions; i++)
    {
      Found *entry = g_ptr_array_index (sorted, i);
      g_autoptr(PalSessionKey) key = pal_session_key_new (entry->agent_id, entry->session_id);
      g_autoptr(PalTranscriptSearchResult) result =
        _pal_transcript_search_result_new (key, entry->updated, entry->n_matches);

      for (guint j = 0; j < entry->n_newest; j++)
        {
          g_autoptr(GError) local_error = NULL;
          g_autoptr(PalTranscriptHit) hit = read_hit (self, query, entry->newest[j],
                                                      entry->thought[j], &local_error);

          if (local_error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }
          if (hit != NULL)
            _pal_transcript_search_result_add_hit (result, hit);
        }

      g_list_store_append (results, result);
    }

  return G_LIST_MODEL (g_steal_pointer (&results));
}

GListModel *
_pal_transcript_db_search (PalTranscriptDb           *self,
                           const char                *query,
                           PalTranscriptSearchFlags   flags,
                           guint                      max_sessions,
                           GCancellable              *cancellable,
                           GError                   **error)
{
  GListModel *results;

  self->cancellable = cancellable;
  results = search (self, query, flags, max_sessions, error);
  self->cancellable = NULL;

  return results;
}
