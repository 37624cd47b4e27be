/* pal-file-index-match.c: ranking paths against what is typed after '@'
 *
 * A path matches when the query's characters appear in it in order,
 * ignoring ASCII case. Among matches, in this order of weight:
 *
 * - the query found whole in the last component (the name), better still
 *   at its start, best as the whole name;
 * - the query found whole elsewhere in the path;
 * - the query's characters all in the name;
 * - matched characters next to each other, or at the start of a component
 *   or a word ('/', '.', '_', '-', ' ' before them);
 * - shorter paths.
 *
 * Only the best `limit` are kept, in a small sorted array, so a query over
 * 100,000 paths sorts nothing big.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-file-index-private.h"

#define NO_MATCH G_MININT

static gboolean
is_word_start (const char *text,
               const char *p)
{
  return p == text || strchr ("/._- ", p[-1]) != NULL;
}

/* leftmost matches of @query in @text; the bonus of their placement, or
 * NO_MATCH when @query is not a subsequence of @text */
static int
subsequence_bonus (const char *text,
                   const char *query)
{
  const char *t = text;
  const char *previous = NULL;
  int bonus = 0;

  for (const char *q = query; *q != '\0'; q++)
    {
      t = strchr (t, *q);
      if (t == NULL)
        return NO_MATCH;
      if (previous != NULL && t == previous + 1)
        bonus += 10;
      if (is_word_start (text, t))
        bonus += 5;
      previous = t;
      t++;
    }

  return bonus;
}

static int
score_entry (const PalFileEntry *entry,
             const char         *query,
             gsize               query_len)
{
  const char *path = entry->lower;
  const char *name = path + entry->name_offset;
  const char *found;
  int score;

  if (query_len == 0)
    return -(int) entry->length;

  /* quick refusal: the first and last characters */
  if (strchr (path, query[0]) == NULL || strrchr (path, query[query_len - 1]) == NULL)
    return NO_MATCH;

  if ((found = strstr (name, query)) != NULL)
    {
      score = 30000;
      if (found == name)
        score += 10000;
      if (strlen (name) == query_len)
        score += 10000;
      else if (is_word_start (name, found))
        score += 1000;
    }
  else if ((found = strstr (path, query)) != NULL)
    {
      score = 20000;
      if (is_word_start (path, found))
        score += 1000;
    }
  else
    {
      int bonus = subsequence_bonus (name, query);

      if (bonus != NO_MATCH)
        score = 10000 + bonus;
      else
        {
          bonus = subsequence_bonus (path, query);
          if (bonus == NO_MATCH)
            return NO_MATCH;
          score = bonus;
        }
    }

  return score - (int) entry->length;
}

typedef struct
{
  int                 score;
  const PalFileEntry *entry;
} Ranked;

static gboolean
ranks_before (const Ranked *a,
              const Ranked *b)
{
  if (a->score != b->score)
    return a->score > b->score;
  return strcmp (a->entry->data, b->entry->data) < 0;
}

/**
 * _pal_file_index_match:
 * @snapshot: (element-type PalFileEntry): the paths
 * @roots: the index's roots, by number
 * @query: what was typed
 * @limit: how many to return at most
 *
 * Safe on any thread: @snapshot is never changed.
 *
 * Returns: (transfer full) (element-type PalFileHit): the best matches,
 *   best first
 */
GPtrArray *
_pal_file_index_match (GPtrArray   *snapshot,
                       GFile      **roots,
                       const char  *query,
                       guint        limit)
{
  g_autofree char *lower = g_ascii_strdown (query, -1);
  gsize query_len = strlen (lower);
  g_autofree Ranked *best = g_new (Ranked, limit + 1);
  guint n_best = 0;
  GPtrArray *hits = g_ptr_array_new_with_free_func ((GDestroyNotify) pal_file_hit_free);

  if (limit == 0)
    return hits;

  for (guint i = 0; i < snapshot->len; i++)
    {
      const PalFileEntry *entry = g_ptr_array_index (snapshot, i);
      Ranked ranked = { score_entry (entry, lower, query_len), entry };
      guint at;

      if (ranked.score == NO_MATCH)
        continue;
      if (n_best == limit && !ranks_before (&ranked, &best[n_best - 1]))
        continue;

      at = n_best;
      while (at > 0 && ranks_before (&ranked, &best[at - 1]))
        at--;
      memmove (&best[at + 1], &best[at], (n_best - at) * sizeof (Ranked));
      best[at] = ranked;
      if (n_best < limit)
        n_best++;
    }

  for (guint i = 0; i < n_best; i++)
    {
      const PalFileEntry *entry = best[i].entry;
      PalFileHit *hit = g_new0 (PalFileHit, 1);

      hit->path = g_strdup (entry->data);
      hit->file = g_file_resolve_relative_path (roots[entry->root], _pal_file_entry_rel (entry));
      hit->is_folder = entry->is_dir;
      hit->score = best[i].score;
      g_ptr_array_add (hits, hit);
    }

  return hits;
}
