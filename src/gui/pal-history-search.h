/* pal-history-search.h: a search of the messages of every stored session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-agent-store.h"
#include "pal-session-store.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_HISTORY_SEARCH (pal_history_search_get_type ())

G_DECLARE_FINAL_TYPE (PalHistorySearch, pal_history_search, PAL, HISTORY_SEARCH, AdwWindow)

GtkWidget  *pal_history_search_new         (PalTranscriptStore *store,
                                            PalSessionStore    *sessions,
                                            PalAgentStore      *agents);
void        pal_history_search_set_text    (PalHistorySearch   *self,
                                            const char         *text);
/* What the search last found (a GListModel of PalTranscriptSearchResult),
 * shown now; NULL before any search and while the text is empty */
GListModel *pal_history_search_get_results (PalHistorySearch   *self);

G_END_DECLS
