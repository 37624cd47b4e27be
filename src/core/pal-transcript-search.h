/* pal-transcript-search.h: what a search of the stored transcripts found
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "pal-session-key.h"
#include "pal-transcript-kind.h"

G_BEGIN_DECLS

typedef enum
{
  PAL_TRANSCRIPT_SEARCH_DEFAULT = 0,
  PAL_TRANSCRIPT_SEARCH_THOUGHTS = 1 << 0,  /* the agent's thoughts too */
} PalTranscriptSearchFlags;

/* A matched stretch of a snippet, in bytes */
typedef struct
{
  guint start;
  guint end;
} PalTextRange;

/* --- one matching message --- */

#define PAL_TYPE_TRANSCRIPT_HIT (pal_transcript_hit_get_type ())

typedef struct _PalTranscriptHit PalTranscriptHit;

GType              pal_transcript_hit_get_type      (void) G_GNUC_CONST;
PalTranscriptHit  *pal_transcript_hit_ref           (PalTranscriptHit *self);
void               pal_transcript_hit_unref         (PalTranscriptHit *self);

/* The entry of the stored transcript where the message starts (an index
 * for pal_stored_transcript_get_json()) */
guint              pal_transcript_hit_get_index     (PalTranscriptHit *self);
PalTranscriptKind  pal_transcript_hit_get_kind      (PalTranscriptHit *self);
/* The text around the match, plain; "…" where it was cut */
const char        *pal_transcript_hit_get_snippet   (PalTranscriptHit *self);
/* The matching words in the snippet, in order */
const PalTextRange *pal_transcript_hit_get_highlights (PalTranscriptHit *self,
                                                       guint            *n_highlights);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalTranscriptHit, pal_transcript_hit_unref)

/* --- the matches of one session --- */

#define PAL_TYPE_TRANSCRIPT_SEARCH_RESULT (pal_transcript_search_result_get_type ())

G_DECLARE_FINAL_TYPE (PalTranscriptSearchResult, pal_transcript_search_result,
                      PAL, TRANSCRIPT_SEARCH_RESULT, GObject)

PalSessionKey     *pal_transcript_search_result_get_key    (PalTranscriptSearchResult *self);
/* When the session's transcript last changed, microseconds since the epoch */
gint64             pal_transcript_search_result_get_updated (PalTranscriptSearchResult *self);
/* The matching messages of the session, of which only the newest are in
 * the hits */
guint              pal_transcript_search_result_get_n_matches (PalTranscriptSearchResult *self);
/* The session has more matches than n-matches: a search with very many
 * matches stops counting them */
gboolean           pal_transcript_search_result_get_more_matches (PalTranscriptSearchResult *self);
guint              pal_transcript_search_result_get_n_hits (PalTranscriptSearchResult *self);
/* Newest first */
PalTranscriptHit  *pal_transcript_search_result_get_hit    (PalTranscriptSearchResult *self,
                                                            guint                      index);

/* The FTS5 query for what a person typed: NULL when it has nothing to
 * look for */
char              *pal_transcript_search_build_query       (const char *text);

/* for the store */
PalTranscriptHit  *_pal_transcript_hit_new (guint              index,
                                            PalTranscriptKind  kind,
                                            const char        *marked_snippet);
PalTranscriptSearchResult *_pal_transcript_search_result_new (PalSessionKey *key,
                                                              gint64         updated,
                                                              guint          n_matches,
                                                              gboolean       more_matches);
void               _pal_transcript_search_result_add_hit (PalTranscriptSearchResult *self,
                                                          PalTranscriptHit          *hit);

/* What the store puts around a match in the snippets it builds; taken out
 * of the searchable text first */
#define PAL_TRANSCRIPT_MATCH_START "\x01"
#define PAL_TRANSCRIPT_MATCH_END "\x02"

G_END_DECLS
