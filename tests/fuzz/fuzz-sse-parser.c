/* fuzz-sse-parser.c: an event stream from an MCP server, through the parser
 *
 * The first byte of the input picks the size limit (small ones too, so
 * that the limits are reached), the second how the rest is cut into
 * chunks; the rest is the stream. The stream is parsed whole and in
 * chunks: both must give the same events (cutting anywhere is allowed),
 * and every event must be UTF-8.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "fuzz-util.h"
#include "pal-sse-parser.h"

typedef struct
{
  GPtrArray *events;  /* "type\x1fid\x1fdata", one string each */
  gboolean   failed;
  char      *last_event_id;
  gint64     retry;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_pointer (&outcome->events, g_ptr_array_unref);
  g_clear_pointer (&outcome->last_event_id, g_free);
}

static void
take_events (PalSseParser *parser,
             Outcome      *outcome)
{
  PalSseEvent *event;

  while ((event = pal_sse_parser_pop (parser)) != NULL)
    {
      FUZZ_CHECK (event->type != NULL && event->data != NULL && event->id != NULL);
      FUZZ_CHECK (fuzz_is_text (event->type));
      FUZZ_CHECK (fuzz_is_text (event->data));
      FUZZ_CHECK (fuzz_is_text (event->id));
      g_ptr_array_add (outcome->events,
                       g_strdup_printf ("%s\x1f%s\x1f%s", event->type, event->id, event->data));
      pal_sse_event_free (event);
    }
}

/* Parses @stream, in chunks of 1 to 16 bytes picked from @seed, or whole
 * when @seed is 0. */
static void
parse (const char *stream,
       gsize       length,
       gsize       max_size,
       guint       seed,
       Outcome    *outcome)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  guint32 state = seed;
  gsize at = 0;

  outcome->events = g_ptr_array_new_with_free_func (g_free);
  if (max_size > 0)
    pal_sse_parser_set_max_size (parser, max_size);

  while (at < length && !outcome->failed)
    {
      g_autoptr(GError) error = NULL;
      gsize chunk = length - at;

      if (seed != 0)
        {
          state = state * 1103515245u + 12345u;
          chunk = MIN (chunk, 1 + (state >> 16) % 16);
        }

      if (!pal_sse_parser_feed (parser, stream + at, chunk, &error))
        {
          FUZZ_CHECK (fuzz_is_text (error->message));
          outcome->failed = TRUE;
        }
      take_events (parser, outcome);
      at += chunk;
    }

  pal_sse_parser_end (parser);
  take_events (parser, outcome);
  FUZZ_CHECK (fuzz_is_text (pal_sse_parser_get_last_event_id (parser)));
  outcome->last_event_id = g_strdup (pal_sse_parser_get_last_event_id (parser));
  outcome->retry = pal_sse_parser_get_retry (parser);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  Outcome whole = { 0, };
  Outcome chunked = { 0, };
  gsize max_size;
  guint seed;

  if (size < 2)
    return 0;

  /* odd: a limit of 1 to 128 bytes; even: the default */
  max_size = (data[0] & 1) != 0 ? 1 + (data[0] >> 1) : 0;
  seed = 1 + data[1];

  parse ((const char *) data + 2, size - 2, max_size, 0, &whole);
  parse ((const char *) data + 2, size - 2, max_size, seed, &chunked);

  FUZZ_CHECK (whole.failed == chunked.failed);
  if (!whole.failed)
    {
      FUZZ_CHECK (whole.events->len == chunked.events->len);
      for (guint i = 0; i < whole.events->len; i++)
        FUZZ_CHECK (g_str_equal (g_ptr_array_index (whole.events, i),
                                 g_ptr_array_index (chunked.events, i)));
      FUZZ_CHECK (g_str_equal (whole.last_event_id, chunked.last_event_id));
      FUZZ_CHECK (whole.retry == chunked.retry);
    }

  outcome_clear (&whole);
  outcome_clear (&chunked);
  return 0;
}
