/* pal-transcript-db-read.c: reading the transcript database: a session's
 * entries, and searching every session
 *
 * A search finds the sessions that match, newest first, with their
 * newest matches, then asks FTS5 for a snippet of each of those matches
 * alone, the costly part, one message at a time. The sessions are found
 * one of two ways:
 *
 * - by the index: the rowid of every message that matches, from the FTS5
 *   index alone (no text is read); the upper bits of a rowid name the
 *   transcript, so the matches are counted by session and the newest few
 *   of each kept as they come; then the sessions are sorted by their last
 *   change. Fast while the matches are few (a word most messages have is
 *   hundreds of thousands of them), so it stops after
 *   PAL_TRANSCRIPT_DB_COUNT_ALL, or PAL_TRANSCRIPT_DB_COUNT_ALL_US;
 * - then by session: the sessions newest first, each asked for its own
 *   matches (a rowid range of the index), until enough sessions have some.
 *   With that many matches, the first few sessions usually do.
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
  gboolean more;
  guint n_newest;
  /* the newest matches, newest first, and whether each is a thought */
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

/* Every match of @query in one index, counted by transcript, unless there
 * are more than *@budget in all or it takes past @deadline: then FALSE,
 * without an error */
static gboolean
collect_matches (PalTranscriptDb  *self,
                 int               which,
                 const char       *query,
                 GHashTable       *found,
                 guint            *budget,
                 gint64            deadline,
                 GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[which];
  int rc;

  sqlite3_bind_text (stmt, 1, query, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);
      gint64 transcript = rowid >> 32;
      Found *entry;

      if (*budget == 0 ||
          (*budget % 1024 == 0 && g_get_monotonic_time () > deadline))
        break;
      (*budget)--;

      entry = g_hash_table_lookup (found, &transcript);
      if (entry == NULL)
        {
          entry = g_new0 (Found, 1);
          entry->transcript = transcript;
          g_hash_table_insert (found, &entry->transcript, entry);
        }
      found_add (entry, rowid, which == STMT_THOUGHT_MATCHES);
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  return rc == SQLITE_DONE;
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

/* Step 1 and 2 when the matches are few: the sessions that have any, in
 * @sorted, newest first. FALSE without an error when there are too many
 * matches to count them all. */
static gboolean
find_by_index (PalTranscriptDb           *self,
               const char                *query,
               PalTranscriptSearchFlags   flags,
               GHashTable                *found,
               GPtrArray                 *sorted,
               GError                   **error)
{
  g_autoptr(GError) local_error = NULL;
  guint budget = self->count_all;
  gint64 deadline = g_get_monotonic_time () + PAL_TRANSCRIPT_DB_COUNT_ALL_US;
  GHashTableIter iter;
  gpointer value;

  if (!collect_matches (self, STMT_MESSAGE_MATCHES, query, found, &budget, deadline,
                        &local_error) ||
      ((flags & PAL_TRANSCRIPT_SEARCH_THOUGHTS) != 0 &&
       !collect_matches (self, STMT_THOUGHT_MATCHES, query, found, &budget, deadline,
                         &local_error)))
    {
      g_hash_table_remove_all (found);
      if (local_error != NULL)
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_hash_table_iter_init (&iter, found);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Found *entry = value;

      if (!read_session (self, entry, error))
        return FALSE;
      if (entry->agent_id != NULL && entry->session_id != NULL)
        g_ptr_array_add (sorted, entry);
    }
  g_ptr_array_sort (sorted, compare_found);

  return TRUE;
}

/* The matches of @query in one transcript, newest first, counted up to
 * PAL_TRANSCRIPT_DB_COUNT_IN_SESSION */
static gboolean
collect_session_matches (PalTranscriptDb  *self,
                         int               which,
                         const char       *query,
                         Found            *found,
                         GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[which];
  int rc;

  sqlite3_bind_text (stmt, 1, query, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, FIRST_ROWID (found->transcript));
  sqlite3_bind_int64 (stmt, 3, LAST_ROWID (found->transcript));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (found->n_matches >= PAL_TRANSCRIPT_DB_COUNT_IN_SESSION)
        {
          found->more = TRUE;
          break;
        }
      found_add (found, sqlite3_column_int64 (stmt, 0), which == STMT_THOUGHT_MATCHES_IN);
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  return TRUE;
}

/* Step 1 and 2 when the matches are many: the sessions, newest first, each
 * asked for its matches, until @max_sessions have some. With many matches,
 * few sessions are asked. */
static gboolean
find_by_session (PalTranscriptDb           *self,
                 const char                *query,
                 PalTranscriptSearchFlags   flags,
                 guint                      max_sessions,
                 GHashTable                *found,
                 GPtrArray                 *sorted,
                 GError                   **error)
{
  sqlite3_stmt *stmt = self->stmts[STMT_TRANSCRIPTS_BY_TIME];
  g_autoptr(GPtrArray) sessions = g_ptr_array_new ();
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      Found *entry = g_new0 (Found, 1);

      entry->transcript = sqlite3_column_int64 (stmt, 0);
      entry->agent_id = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      entry->session_id = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      entry->updated = sqlite3_column_int64 (stmt, 3);
      g_hash_table_insert (found, &entry->transcript, entry);
      if (entry->agent_id != NULL && entry->session_id != NULL)
        g_ptr_array_add (sessions, entry);
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_DONE)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  for (guint i = 0; i < sessions->len && sorted->len < max_sessions; i++)
    {
      Found *entry = g_ptr_array_index (sessions, i);

      if (!collect_session_matches (self, STMT_MESSAGE_MATCHES_IN, query, entry, error) ||
          ((flags & PAL_TRANSCRIPT_SEARCH_THOUGHTS) != 0 &&
           !collect_session_matches (self, STMT_THOUGHT_MATCHES_IN, query, entry, error)))
        return FALSE;
      if (entry->n_matches > 0)
        g_ptr_array_add (sorted, entry);
    }

  return TRUE;
}

/* pal_wanted(rowid): whether a snippet of that message is wanted */
static void
wanted_cb (sqlite3_context  *context,
           int               n_values,
           sqlite3_value   **values)
{
  GHashTable *wanted = sqlite3_user_data (context);
  gint64 rowid = sqlite3_value_int64 (values[0]);

  sqlite3_result_int (context, wanted != NULL && g_hash_table_contains (wanted, &rowid));
}

void
_pal_transcript_db_add_functions (PalTranscriptDb *self)
{
  /* the set is the caller's: one per database, filled by read_hits */
  sqlite3_create_function_v2 (self->db, "pal_wanted", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                              self->wanted, wanted_cb, NULL, NULL, NULL);
}

/* Snippets of the wanted matches between @first and @last, in one query:
 * a query costs its setup (all the words of a prefix looked up) each time,
 * so not one per snippet. Adds a PalTranscriptHit to @hits (rowid → hit)
 * for each. */
static gboolean
read_hits (PalTranscriptDb  *self,
           const char       *query,
           gboolean          thoughts,
           gint64            first,
           gint64            last,
           GHashTable       *hits,
           GError          **error)
{
  sqlite3_stmt *stmt = self->stmts[thoughts ? STMT_THOUGHT_SNIPPETS : STMT_MESSAGE_SNIPPETS];
  int rc;

  sqlite3_bind_text (stmt, 1, query, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, first);
  sqlite3_bind_int64 (stmt, 3, last);
  sqlite3_bind_text (stmt, 4, PAL_TRANSCRIPT_MATCH_START, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 5, PAL_TRANSCRIPT_MATCH_END, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);
      gint64 seq = sqlite3_column_int64 (stmt, 1);
      const char *snippet = (const char *) sqlite3_column_text (stmt, 3);

      /* an unreadable one gives no hit */
      if (seq >= 0 && seq <= G_MAXUINT32 && snippet != NULL && g_utf8_validate (snippet, -1, NULL))
        g_hash_table_insert (hits, g_memdup2 (&rowid, sizeof rowid),
                             _pal_transcript_hit_new ((guint) seq, column_kind (stmt, 2), snippet));
    }
  _pal_transcript_db_reset (stmt);

  if (rc != SQLITE_DONE)
    return _pal_transcript_db_set_error (error, self->db, rc, sqlite3_sql (stmt));

  return TRUE;
}

/* The hits of the sessions in @sorted (the first @n), in @hits. One query
 * per index over the range of the wanted matches, or with @per_session,
 * one per session: when the matches are many, the range of a session holds
 * far fewer of them than the range of all. */
static gboolean
read_all_hits (PalTranscriptDb           *self,
               const char                *query,
               PalTranscriptSearchFlags   flags,
               GPtrArray                 *sorted,
               guint                      n,
               gboolean                   per_session,
               GHashTable                *hits,
               GError                   **error)
{
  gint64 first = G_MAXINT64, last = G_MININT64;

  for (guint i = 0; i < n; i++)
    {
      Found *entry = g_ptr_array_index (sorted, i);

      for (guint j = 0; j < entry->n_newest; j++)
        {
          g_hash_table_add (self->wanted, &entry->newest[j]);
          first = MIN (first, entry->newest[j]);
          last = MAX (last, entry->newest[j]);
        }
    }

  for (guint t = 0; t < 2; t++)
    {
      gboolean thoughts = t == 1;

      if (thoughts && (flags & PAL_TRANSCRIPT_SEARCH_THOUGHTS) == 0)
        break;

      if (!per_session)
        {
          if (first <= last && !read_hits (self, query, thoughts, first, last, hits, error))
            return FALSE;
          continue;
        }

      for (guint i = 0; i < n; i++)
        {
          Found *entry = g_ptr_array_index (sorted, i);

          if (!read_hits (self, query, thoughts, FIRST_ROWID (entry->transcript),
                          LAST_ROWID (entry->transcript), hits, error))
            return FALSE;
        }
    }

  return TRUE;
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
  g_autoptr(GHashTable) hits = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                      (GDestroyNotify) pal_transcript_hit_unref);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr(GListStore) results = g_list_store_new (PAL_TYPE_TRANSCRIPT_SEARCH_RESULT);
  g_autoptr(GError) local_error = NULL;
  gboolean per_session = FALSE;
  guint n;

  if (!find_by_index (self, query, flags, found, sorted, &local_error))
    {
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      per_session = TRUE;
      if (!find_by_session (self, query, flags, max_sessions, found, sorted, error))
        return NULL;
    }

  n = MIN (sorted->len, max_sessions);
  if (!read_all_hits (self, query, flags, sorted, n, per_session, hits, error))
    {
      g_hash_table_remove_all (self->wanted);
      return NULL;
    }
  g_hash_table_remove_all (self->wanted);

  for (guint i = 0; i < n; i++)
    {
      Found *entry = g_ptr_array_index (sorted, i);
      g_autoptr(PalSessionKey) key = pal_session_key_new (entry->agent_id, entry->session_id);
      g_autoptr(PalTranscriptSearchResult) result =
        _pal_transcript_search_result_new (key, entry->updated, entry->n_matches, entry->more);

      for (guint j = 0; j < entry->n_newest; j++)
        {
          PalTranscriptHit *hit = g_hash_table_lookup (hits, &entry->newest[j]);

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
