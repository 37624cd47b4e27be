/* pal-sse-parser.h: an incremental parser for server-sent events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * PalSseEvent:
 * @type: the event type: the last "event" field, or "message" when there was none
 * @data: the "data" fields joined with "\n" (valid UTF-8, never %NULL)
 * @id: the last event id seen so far in the stream, "" when none (never %NULL)
 *
 * One dispatched event.
 */
typedef struct
{
  char *type;
  char *data;
  char *id;
} PalSseEvent;

void pal_sse_event_free (PalSseEvent *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalSseEvent, pal_sse_event_free)

/**
 * PalSseParser:
 *
 * Follows the event stream interpretation of the HTML standard: bytes may be
 * fed in chunks of any size, split anywhere (even inside a line ending, a
 * UTF-8 sequence or the byte order mark); lines end with "\r\n", "\n" or "\r";
 * an empty line dispatches the event; at the end of the stream an incomplete
 * event is discarded. Invalid UTF-8 and NUL bytes become U+FFFD.
 */
typedef struct _PalSseParser PalSseParser;

/* The default limit on the size of one line and of one event's data. */
#define PAL_SSE_PARSER_DEFAULT_MAX_SIZE (16 * 1024 * 1024)

PalSseParser *pal_sse_parser_new              (void);
void          pal_sse_parser_free             (PalSseParser *self);
void          pal_sse_parser_set_max_size     (PalSseParser *self,
                                               gsize         max_size);
gboolean      pal_sse_parser_feed             (PalSseParser *self,
                                               const char   *bytes,
                                               gsize         length,
                                               GError      **error);
void          pal_sse_parser_end              (PalSseParser *self);
PalSseEvent  *pal_sse_parser_pop              (PalSseParser *self);
guint         pal_sse_parser_get_n_pending    (PalSseParser *self);
const char   *pal_sse_parser_get_last_event_id (PalSseParser *self);
gint64        pal_sse_parser_get_retry        (PalSseParser *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalSseParser, pal_sse_parser_free)

G_END_DECLS
