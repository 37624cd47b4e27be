/* load-stored.h: what a transcript store keeps of a session, for the tests
 * of the store and of what reads it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-transcript-store.h"
#include "test-util.h"

/* What @store keeps of @key, once what was recorded before is written;
 * fails the test on an error */
static inline PalStoredTranscript *
test_load_stored (PalTranscriptStore *store,
                  PalSessionKey      *key)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  PalStoredTranscript *stored;

  pal_transcript_store_load_async (store, key, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  stored = pal_transcript_store_load_finish (store, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stored);

  return stored;
}
