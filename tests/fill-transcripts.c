/* fill-transcripts.c: a transcript store filled from JSON Lines, for the
 * command line's checks
 *
 * usage: fill-transcripts DATABASE AGENT SESSION FILE [AGENT SESSION FILE]...
 *
 * Records each line of each FILE (an update object, or a prompt's content
 * blocks as an array) for the session (AGENT, SESSION), in order, and
 * exits once everything is written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-transcript-store.h"
#include "record-json.h"

typedef struct
{
  gboolean failed;
  gboolean flushed;
} State;

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  State *state = user_data;
  g_autoptr(GError) error = NULL;

  if (!pal_transcript_store_flush_finish (PAL_TRANSCRIPT_STORE (object), result, &error))
    {
      g_printerr ("%s\n", error->message);
      state->failed = TRUE;
    }
  state->flushed = TRUE;
}

static void
problem_cb (PalTranscriptStore *store,
            const GError       *error,
            State              *state)
{
  g_printerr ("%s\n", error->message);
  state->failed = TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PalTranscriptStore) store = NULL;
  State state = { FALSE, FALSE };

  if (argc < 5 || (argc - 2) % 3 != 0)
    {
      g_printerr ("usage: fill-transcripts DATABASE AGENT SESSION FILE [AGENT SESSION FILE]...\n");
      return 2;
    }

  store = pal_transcript_store_new (argv[1]);
  g_signal_connect (store, "problem", G_CALLBACK (problem_cb), &state);

  for (int i = 2; i + 2 < argc; i += 3)
    {
      g_autoptr(PalSessionKey) key = pal_session_key_new (argv[i], argv[i + 1]);
      g_autofree char *contents = NULL;
      g_auto(GStrv) lines = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_file_get_contents (argv[i + 2], &contents, NULL, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      lines = g_strsplit (contents, "\n", -1);
      for (guint j = 0; lines[j] != NULL; j++)
        if (*lines[j] != '\0')
          record_json (store, key, lines[j]);
    }

  /* everything written (and any problem told) before the end */
  pal_transcript_store_flush_async (store, NULL, flushed_cb, &state);
  while (!state.flushed)
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  return state.failed ? 1 : 0;
}
