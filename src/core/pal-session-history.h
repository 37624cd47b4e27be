/* pal-session-history.h: a session's stored transcript, as items to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-transcript.h"
#include "pal-session-key.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_SESSION_HISTORY (pal_session_history_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionHistory, pal_session_history, PAL, SESSION_HISTORY, GObject)

typedef enum
{
  PAL_SESSION_HISTORY_LOAD_NONE      = 0,
  /* a long history is handed over with its last turns, and the earlier
   * ones come in front of them in the same transcript ("complete") */
  PAL_SESSION_HISTORY_LOAD_END_FIRST = 1 << 0,
} PalSessionHistoryLoadFlags;

void               pal_session_history_load_async    (PalTranscriptStore         *store,
                                                      PalSessionKey              *key,
                                                      PalSessionHistoryLoadFlags  flags,
                                                      GCancellable               *cancellable,
                                                      GAsyncReadyCallback         callback,
                                                      gpointer                    user_data);
/* (transfer full) */
PalSessionHistory *pal_session_history_load_finish   (GAsyncResult        *result,
                                                      GError             **error);

PalSessionKey     *pal_session_history_get_key       (PalSessionHistory   *self);
/* Its items. Loaded with its end first, it may change once (see
 * "transcript"). (transfer none) */
AcpTranscript     *pal_session_history_get_transcript (PalSessionHistory  *self);
/* Whether every entry is in the transcript */
gboolean           pal_session_history_is_complete   (PalSessionHistory   *self);
/* How many entries the store held: nothing stored gives 0 */
guint              pal_session_history_get_n_entries (PalSessionHistory   *self);
/* The item entry @index of the stored transcript made or last changed (a
 * search hit's index), or the nearest such before it; NULL when there is
 * none. (transfer none) */
AcpItem           *pal_session_history_get_item      (PalSessionHistory   *self,
                                                      guint                index);
/* Where @item is in the transcript, or -1 */
int                pal_session_history_find_item     (PalSessionHistory   *self,
                                                      AcpItem             *item);

G_END_DECLS
