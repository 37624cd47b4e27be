/* store-util.h: the stores of the tests: an agent profile added, what a
 * transcript store keeps of a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-agent-store.h"
#include "pal-transcript-store.h"
#include "test-util.h"

/* Adds the profile @id (named @id too) that runs @command with @argument
 * (nullable) to @store; fails the test when it cannot */
static inline void
test_add_agent (PalAgentStore *store,
                const char    *id,
                const char    *command,
                const char    *argument)
{
  const char *args[] = { argument, NULL };
  g_autoptr(PalAgentProfile) profile = pal_agent_profile_new (id, id, command, args);
  g_autoptr(GError) error = NULL;

  g_assert_true (pal_agent_store_add (store, profile, &error));
  g_assert_no_error (error);
}

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
