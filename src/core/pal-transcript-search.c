/* pal-transcript-search.c: what a search of the stored transcripts found,
 * and the query for what a person typed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-transcript-search.h"

/* --- PalTranscriptHit --- */

/**
 * PalTranscriptHit:
 *
 * One message that matched a search: where it starts in its session's
 * stored transcript, what it is, and a snippet of its text around the
 * match with the matching words marked. Immutable.
 */
struct _PalTranscriptHit
{
  guint index;
  PalTranscriptKind kind;
  char *snippet;
  GArray *highlights;  /* PalTextRange */
};

G_DEFINE_BOXED_TYPE (PalTranscriptHit, pal_transcript_hit,
                     pal_transcript_hit_ref, pal_transcript_hit_unref)

static void
hit_clear (gpointer data)
{
  PalTranscriptHit *self = data;

  g_free (self->snippet);
  g_array_unref (self->highlights);
}

/* @marked_snippet has its matches between PAL_TRANSCRIPT_MATCH_START and
 * PAL_TRANSCRIPT_MATCH_END: they become highlights of the plain text. */
PalTranscriptHit *
_pal_transcript_hit_new (guint              index,
                         PalTranscriptKind  kind,
                         const char        *marked_snippet)
{
  PalTranscriptHit *self = g_atomic_rc_box_new0 (PalTranscriptHit);
  GString *plain = g_string_new (NULL);
  PalTextRange range = { 0, 0 };
  gboolean in_match = FALSE;

  self->index = index;
  self->kind = kind;
  self->highlights = g_array_new (FALSE, FALSE, sizeof (PalTextRange));

  for (const char *p = marked_snippet; *p != '\0'; p++)
    {
      if (*p == PAL_TRANSCRIPT_MATCH_START[0] && !in_match)
        {
          range.start = (guint) plain->len;
          in_match = TRUE;
        }
      else if (*p == PAL_TRANSCRIPT_MATCH_END[0] && in_match)
        {
          range.end = (guint) plain->len;
          if (range.end > range.start)
            g_array_append_val (self->highlights, range);
          in_match = FALSE;
        }
      else if (*p != PAL_TRANSCRIPT_MATCH_START[0] && *p != PAL_TRANSCRIPT_MATCH_END[0])
        {
          g_string_append_c (plain, *p);
        }
    }

  self->snippet = g_string_free (plain, FALSE);

  return self;
}

PalTranscriptHit *
pal_transcript_hit_ref (PalTranscriptHit *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
pal_transcript_hit_unref (PalTranscriptHit *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, hit_clear);
}

guint
pal_transcript_hit_get_index (PalTranscriptHit *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->index;
}

PalTranscriptKind
pal_transcript_hit_get_kind (PalTranscriptHit *self)
{
  g_return_val_if_fail (self != NULL, PAL_TRANSCRIPT_KIND_OTHER);

  return self->kind;
}

const char *
pal_transcript_hit_get_snippet (PalTranscriptHit *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->snippet;
}

const PalTextRange *
pal_transcript_hit_get_highlights (PalTranscriptHit *self,
                                   guint            *n_highlights)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_highlights != NULL, NULL);

  *n_highlights = self->highlights->len;

  return (const PalTextRange *) (gpointer) self->highlights->data;
}

/* --- PalTranscriptSearchResult --- */

/**
 * PalTranscriptSearchResult:
 *
 * The matches of a search in one session: the session, how many of its
 * messages matched (up to a limit when the search has very many), and the
 * newest of them as #PalTranscriptHit. Built by
 * the store and not changed afterwards.
 */
struct _PalTranscriptSearchResult
{
  GObject parent_instance;

  PalSessionKey *key;
  gint64 updated;
  guint n_matches;
  gboolean more_matches;
  GPtrArray *hits;
};

G_DEFINE_FINAL_TYPE (PalTranscriptSearchResult, pal_transcript_search_result, G_TYPE_OBJECT)

static void
pal_transcript_search_result_finalize (GObject *object)
{
  PalTranscriptSearchResult *self = PAL_TRANSCRIPT_SEARCH_RESULT (object);

  g_clear_pointer (&self->key, pal_session_key_unref);
  g_clear_pointer (&self->hits, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_transcript_search_result_parent_class)->finalize (object);
}

static void
pal_transcript_search_result_class_init (PalTranscriptSearchResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pal_transcript_search_result_finalize;
}

static void
pal_transcript_search_result_init (PalTranscriptSearchResult *self)
{
  self->hits = g_ptr_array_new_with_free_func ((GDestroyNotify) pal_transcript_hit_unref);
}

PalTranscriptSearchResult *
_pal_transcript_search_result_new (PalSessionKey *key,
                                   gint64         updated,
                                   guint          n_matches,
                                   gboolean       more_matches)
{
  PalTranscriptSearchResult *self = g_object_new (PAL_TYPE_TRANSCRIPT_SEARCH_RESULT, NULL);

  self->key = pal_session_key_ref (key);
  self->updated = updated;
  self->n_matches = n_matches;
  self->more_matches = more_matches;

  return self;
}

void
_pal_transcript_search_result_add_hit (PalTranscriptSearchResult *self,
                                       PalTranscriptHit          *hit)
{
  g_ptr_array_add (self->hits, pal_transcript_hit_ref (hit));
}

PalSessionKey *
pal_transcript_search_result_get_key (PalTranscriptSearchResult *self)
{
  g_return_val_if_fail (PAL_IS_TRANSCRIPT_SEARCH_RESULT (self), NULL);

  return self->key;
}

gint64
pal_transcript_search_result_get_updated (PalTranscriptSearchResult *self)
{
  g_return_val_if_fail (PAL_IS_TRANSCRIPT_SEARCH_RESULT (self), 0);

  return self->updated;
}

guint
pal_transcript_search_result_get_n_matches (PalTranscriptSearchResult *self)
{
  g_return_val_if_fail (PAL_IS_TRANSCRIPT_SEARCH_RESULT (self), 0);

  return self->n_matches;
}

gboolean
pal_transcript_search_result_get_more_matches (PalTranscriptSearchResult *self)
{
  g_return_val_if_fail (PAL_IS_TRANSCRIPT_SEARCH_RESULT (self), FALSE);

  return self->more_matches;
}

guint
pal_transcript_search_result_get_n_hits (PalTranscriptSearchResult *self)
{
  g_return_val_if_fail (PAL_IS_TRANSCRIPT_SEARCH_RESULT (self), 0);

  return self->hits->len;
}

PalTranscriptHit *
pal_transcript_search_result_get_hit (PalTranscriptSearchResult *self,
                                      guint                      index)
{
  g_return_val_if_fail (PAL_IS_TRANSCRIPT_SEARCH_RESULT (self), NULL);
  g_return_val_if_fail (index < self->hits->len, NULL);

  return g_ptr_array_index (self->hits, index);
}

/* --- the query --- */

/* Whether the tokenizer (unicode61) finds a word in @term */
static gboolean
has_word (const char *term,
          gsize       length)
{
  for (const char *p = term; p < term + length; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isalnum (c) || g_unichar_ismark (c))
        return TRUE;
    }

  return FALSE;
}

static void
append_term (GString    *query,
             const char *term,
             gsize       length,
             gboolean    prefix)
{
  if (!has_word (term, length))
    return;

  if (query->len > 0)
    g_string_append_c (query, ' ');
  g_string_append_c (query, '"');
  for (gsize i = 0; i < length; i++)
    {
      if (term[i] == '"')
        g_string_append_c (query, '"');
      g_string_append_c (query, term[i]);
    }
  g_string_append_c (query, '"');
  if (prefix)
    g_string_append_c (query, '*');
}

/**
 * pal_transcript_search_build_query:
 * @text: what a person typed
 *
 * Turns @text into an FTS5 query that cannot be malformed, whatever @text
 * holds: every word must occur (in any order), text between double quotes
 * is a phrase, and a word or phrase followed by `*` matches as a prefix.
 * Everything else is taken literally (FTS5's operators, parentheses,
 * colons, unbalanced quotes); a term without letters or digits, which
 * matches nothing, is left out.
 *
 * Returns: (transfer full) (nullable): the query, or %NULL when @text has
 *   no word to look for
 */
char *
pal_transcript_search_build_query (const char *text)
{
  g_autofree char *valid = NULL;
  GString *query = g_string_new (NULL);
  const char *p;

  g_return_val_if_fail (text != NULL, NULL);

  valid = g_utf8_make_valid (text, -1);
  p = valid;
  while (*p != '\0')
    {
      const char *start;
      gsize length;
      gboolean prefix = FALSE;

      if (g_unichar_isspace (g_utf8_get_char (p)))
        {
          p = g_utf8_next_char (p);
          continue;
        }

      if (*p == '"')
        {
          const char *end;

          start = p + 1;
          end = strchr (start, '"');
          if (end == NULL)
            end = start + strlen (start);
          length = (gsize) (end - start);
          p = *end == '"' ? end + 1 : end;
          if (*p == '*')
            {
              prefix = TRUE;
              p++;
            }
        }
      else
        {
          start = p;
          while (*p != '\0' && *p != '"' && !g_unichar_isspace (g_utf8_get_char (p)))
            p = g_utf8_next_char (p);
          length = (gsize) (p - start);
          while (length > 0 && start[length - 1] == '*')
            {
              prefix = TRUE;
              length--;
            }
        }

      append_term (query, start, length, prefix);
    }

  if (query->len == 0)
    {
      g_string_free (query, TRUE);
      return NULL;
    }

  return g_string_free (query, FALSE);
}
