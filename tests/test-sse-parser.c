/* test-sse-parser.c: the server-sent events parser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-error.h"
#include "pal-sse-parser.h"

typedef struct
{
  const char *type;
  const char *data;
  const char *id;
} Expected;

/* Renders every event the parser produced as one string, so that whole event
 * sequences compare with one assertion and a failure shows the difference. */
static char *
render_events (PalSseParser *parser)
{
  GString *out = g_string_new (NULL);
  PalSseEvent *event;

  while ((event = pal_sse_parser_pop (parser)) != NULL)
    {
      g_autofree char *data = g_strescape (event->data, NULL);

      g_string_append_printf (out, "[%s|%s|%s]", event->type, data, event->id);
      pal_sse_event_free (event);
    }

  return g_string_free (out, FALSE);
}

static char *
render_expected (const Expected *expected,
                 gsize           n_expected)
{
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < n_expected; i++)
    {
      g_autofree char *data = g_strescape (expected[i].data, NULL);

      g_string_append_printf (out, "[%s|%s|%s]", expected[i].type, data, expected[i].id);
    }

  return g_string_free (out, FALSE);
}

/* Parses @stream fed in the given pieces (cut at the sorted offsets in @cuts)
 * and returns the rendered events. */
static char *
parse_with_cuts (const char  *stream,
                 gsize        length,
                 const gsize *cuts,
                 gsize        n_cuts)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  gsize start = 0;

  for (gsize i = 0; i <= n_cuts; i++)
    {
      gsize end = i < n_cuts ? cuts[i] : length;
      g_autoptr(GError) error = NULL;

      g_assert_cmpuint (end, >=, start);
      g_assert_true (pal_sse_parser_feed (parser, stream + start, end - start, &error));
      g_assert_no_error (error);
      start = end;
    }

  pal_sse_parser_end (parser);

  return render_events (parser);
}

static char *
parse_whole (const char *stream,
             gsize       length)
{
  return parse_with_cuts (stream, length, NULL, 0);
}

/* Checks that @stream gives @expected however it is cut: whole, byte by
 * byte, cut once at every position and cut twice at every pair of positions. */
static void
check_stream_len (const char     *stream,
                  gsize           length,
                  const Expected *expected,
                  gsize           n_expected)
{
  g_autofree char *want = render_expected (expected, n_expected);
  g_autofree char *whole = parse_whole (stream, length);
  g_autoptr(PalSseParser) bytewise = pal_sse_parser_new ();
  g_autofree char *by_byte = NULL;

  g_assert_cmpstr (whole, ==, want);

  for (gsize i = 0; i < length; i++)
    g_assert_true (pal_sse_parser_feed (bytewise, stream + i, 1, NULL));
  pal_sse_parser_end (bytewise);
  by_byte = render_events (bytewise);
  g_assert_cmpstr (by_byte, ==, want);

  for (gsize i = 0; i <= length; i++)
    {
      g_autofree char *got = parse_with_cuts (stream, length, &i, 1);

      if (g_strcmp0 (got, want) != 0)
        g_error ("cut at %" G_GSIZE_FORMAT ": got %s, want %s", i, got, want);
    }

  for (gsize i = 0; i <= length; i++)
    for (gsize j = i; j <= length; j++)
      {
        gsize cuts[2] = { i, j };
        g_autofree char *got = parse_with_cuts (stream, length, cuts, 2);

        if (g_strcmp0 (got, want) != 0)
          g_error ("cuts at %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ": got %s, want %s",
                   i, j, got, want);
      }
}

#define check_stream(stream, expected) \
  check_stream_len ((stream), sizeof (stream) - 1, (expected), G_N_ELEMENTS (expected))

static void
test_single_event (void)
{
  static const Expected expected[] = {
    { "message", "hello", "" },
  };

  check_stream ("data: hello\n\n", expected);
}

static void
test_line_endings (void)
{
  static const Expected expected[] = {
    { "message", "one\ntwo", "" },
    { "ping", "three", "" },
  };

  check_stream ("data: one\ndata: two\n\nevent: ping\ndata: three\n\n", expected);
  check_stream ("data: one\r\ndata: two\r\n\r\nevent: ping\r\ndata: three\r\n\r\n", expected);
  check_stream ("data: one\rdata: two\r\revent: ping\rdata: three\r\r", expected);
  /* All three in one stream. */
  check_stream ("data: one\r\ndata: two\r\revent: ping\ndata: three\r\n\n", expected);
}

static void
test_cr_then_lf_is_one_ending (void)
{
  static const Expected expected[] = {
    { "message", "a", "" },
    { "message", "b", "" },
  };

  /* "\r\n" followed by "\n" is two line endings (a blank line), not three;
   * "\r" "\r" is two. */
  check_stream ("data: a\r\n\ndata: b\r\r", expected);
}

static void
test_multiline_data (void)
{
  static const Expected expected[] = {
    { "message", "first\nsecond\n\n", "" },
    { "message", "", "" },
    { "message", "x", "" },
  };

  /* "data" without a colon and "data:" both add an empty line; an event whose
   * only line is empty still dispatches with empty data. */
  check_stream ("data: first\ndata: second\ndata\ndata:\n\n"
                "data\n\n"
                "data:x\n\n", expected);
}

static void
test_one_space_removed (void)
{
  static const Expected expected[] = {
    { "message", "  two spaces left\nno space", "" },
  };

  check_stream ("data:   two spaces left\ndata:no space\n\n", expected);
}

static void
test_comments (void)
{
  static const Expected expected[] = {
    { "message", "kept", "" },
  };

  /* Comments never dispatch and never interrupt an event; a blank line after
   * only comments dispatches nothing. */
  check_stream (": keep-alive\n:\n\n"
                "data: kept\n: in the middle\n\n"
                ": trailing comment\n\n", expected);
}

static void
test_event_names (void)
{
  static const Expected expected[] = {
    { "endpoint", "/messages?session=1", "" },
    { "message", "{\"jsonrpc\":\"2.0\"}", "" },
    { "second", "b", "" },
    { "message", "c", "" },
  };

  /* The event type resets after each dispatch, also when an event without
   * data was dropped; the last "event" field wins; "event:" with nothing
   * after it means the default type. */
  check_stream ("event: endpoint\ndata: /messages?session=1\n\n"
                "data: {\"jsonrpc\":\"2.0\"}\n\n"
                "event: dropped\n\n"
                "event: first\nevent: second\ndata: b\n\n"
                "event: x\nevent:\ndata: c\n\n", expected);
}

static void
test_unknown_fields (void)
{
  static const Expected expected[] = {
    { "message", "yes", "" },
  };

  /* Field names are case-sensitive; unknown fields are ignored. */
  check_stream ("Data: no\nDATA: no\nfoo: bar\nfoo\n\n"
                "data: yes\nextra: 1\n\n", expected);
}

static void
test_ids (void)
{
  static const Expected expected[] = {
    { "message", "a", "7" },
    { "message", "b", "7" },
    { "message", "c", "" },
    { "message", "d", "x y" },
  };

  /* The id persists over later events until changed; "id" alone clears it;
   * an id containing NUL is ignored. */
  check_stream ("id: 7\ndata: a\n\n"
                "data: b\n\n"
                "id\ndata: c\n\n"
                "id: x y\ndata: d\nid: bad\0id\n\n", expected);
}

static void
test_id_without_event (void)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  static const char stream[] = "id: 42\n\n: nothing else\n";

  g_assert_cmpstr (pal_sse_parser_get_last_event_id (parser), ==, "");
  g_assert_true (pal_sse_parser_feed (parser, stream, strlen (stream), NULL));
  g_assert_cmpuint (pal_sse_parser_get_n_pending (parser), ==, 0);
  g_assert_null (pal_sse_parser_pop (parser));
  g_assert_cmpstr (pal_sse_parser_get_last_event_id (parser), ==, "42");
}

static void
test_retry (void)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  static const struct {
    const char *line;
    gint64      retry;
  } cases[] = {
    { "retry: 3000\n", 3000 },
    { "retry: 12a\n", 3000 },
    { "retry:\n", 3000 },
    { "retry: -5\n", 3000 },
    { "retry: 99999999999999999999999\n", 3000 },
    { "retry:0\n", 0 },
    { "retry: 250\n", 250 },
    { "retry:  7\n", 250 },  /* two spaces: the value " 7" is not all digits */
  };

  g_assert_cmpint (pal_sse_parser_get_retry (parser), ==, -1);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (pal_sse_parser_feed (parser, cases[i].line, strlen (cases[i].line), NULL));
      g_assert_cmpint (pal_sse_parser_get_retry (parser), ==, cases[i].retry);
    }

  /* retry alone never dispatches */
  g_assert_true (pal_sse_parser_feed (parser, "\n", 1, NULL));
  g_assert_null (pal_sse_parser_pop (parser));
}

static void
test_bom (void)
{
  static const Expected expected[] = {
    { "message", "x", "" },
  };
  static const Expected only_second[] = {
    { "message", "second", "" },
  };

  check_stream ("\xEF\xBB\xBF" "data: x\n\n", expected);
  check_stream ("data: x\n\n", expected);
  /* Only one BOM, only at the start: a second one makes the field name
   * "\xEF\xBB\xBF" "data", which is unknown. */
  check_stream ("\xEF\xBB\xBF\xEF\xBB\xBF" "data: first\n\ndata: second\n\n", only_second);
  check_stream ("\xEF\xBB\xBF" "data: first\n\xEF\xBB\xBF" "data: ignored\n\ndata: second\n\n",
                ((const Expected[]) { { "message", "first", "" }, { "message", "second", "" } }));
}

static void
test_partial_bom (void)
{
  static const Expected expected[] = {
    { "message", "kept", "" },
  };
  static const Expected lf_first[] = {
    { "message", "x", "" },
  };

  /* The first two bytes of a BOM then something else: those bytes belong to
   * the first line (an unknown field here), the rest parses normally. */
  check_stream ("\xEF\xBB" "data: lost\n\ndata: kept\n\n", expected);
  /* A line ending right after a partial BOM still ends the line. */
  check_stream ("\xEF\n\ndata: x\n\n", lf_first);
  check_stream ("\n\xEF\xBB\xBF" "data: no\n\ndata: x\n\n", lf_first);
}

static void
test_no_blank_line_at_end (void)
{
  static const Expected expected[] = {
    { "message", "a", "" },
  };

  /* An event not completed by a blank line is discarded at the end of the
   * stream, with or without a final line ending. */
  check_stream ("data: a\n\ndata: b\n", expected);
  check_stream ("data: a\n\ndata: b", expected);
  check_stream ("data: a\r\n\r\ndata: b\r\n", expected);
  check_stream ("data: a\n\nevent: x\ndata: b\r", expected);
}

static void
test_end_discards_pending (void)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  g_autoptr(PalSseEvent) event = NULL;
  static const char first[] = "event: half\ndata: incomplete\ndata: more";
  static const char second[] = "data: fresh\n\n";

  g_assert_true (pal_sse_parser_feed (parser, first, strlen (first), NULL));
  pal_sse_parser_end (parser);
  g_assert_null (pal_sse_parser_pop (parser));

  /* Fed again after the end, nothing of the old event remains. */
  g_assert_true (pal_sse_parser_feed (parser, second, strlen (second), NULL));
  event = pal_sse_parser_pop (parser);
  g_assert_nonnull (event);
  g_assert_cmpstr (event->type, ==, "message");
  g_assert_cmpstr (event->data, ==, "fresh");
}

static void
test_events_queue_in_order (void)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  g_autoptr(GString) stream = g_string_new (NULL);
  g_autofree char *rendered = NULL;
  g_autoptr(GString) want = g_string_new (NULL);

  for (guint i = 0; i < 1000; i++)
    {
      g_string_append_printf (stream, "id: %u\ndata: %u\n\n", i, i * 2);
      g_string_append_printf (want, "[message|%u|%u]", i * 2, i);
    }

  g_assert_true (pal_sse_parser_feed (parser, stream->str, stream->len, NULL));
  g_assert_cmpuint (pal_sse_parser_get_n_pending (parser), ==, 1000);
  rendered = render_events (parser);
  g_assert_cmpstr (rendered, ==, want->str);
  g_assert_cmpuint (pal_sse_parser_get_n_pending (parser), ==, 0);
}

static void
test_invalid_utf8_and_nul (void)
{
  static const Expected expected[] = {
    { "ev\xEF\xBF\xBDnt", "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c", "" },
    { "message", "caf\xC3\xA9 \xE2\x82\xAC", "" },
  };

  /* A lone continuation byte and a NUL both become U+FFFD; valid multibyte
   * characters survive being cut between any two bytes. */
  check_stream ("event: ev\x80nt\ndata: a\x80" "b\0c\n\n"
                "data: caf\xC3\xA9 \xE2\x82\xAC\n\n", expected);
}

static void
test_json_payloads (void)
{
  static const Expected expected[] = {
    { "message", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"a: b\\n\"}}", "ev-1" },
  };

  /* Only the first colon separates the field; colons and escaped newlines
   * inside the value stay. */
  check_stream (": stream opened\r\n"
                "id: ev-1\r\n"
                "event: message\r\n"
                "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"a: b\\n\"}}\r\n"
                "\r\n", expected);
}

static void
test_line_too_long (void)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) again = NULL;
  g_autofree char *rendered = NULL;

  pal_sse_parser_set_max_size (parser, 16);

  /* Exactly at the limit is fine. */
  g_assert_true (pal_sse_parser_feed (parser, "data: 1234567890\n\n", 18, &error));
  g_assert_no_error (error);
  rendered = render_events (parser);
  g_assert_cmpstr (rendered, ==, "[message|1234567890|]");

  /* Fed in small pieces, a line without an ending still hits the limit. */
  g_assert_true (pal_sse_parser_feed (parser, "data: 12345", 11, &error));
  g_assert_false (pal_sse_parser_feed (parser, "678901", 6, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);

  /* and stays broken */
  g_assert_false (pal_sse_parser_feed (parser, "\n\n", 2, &again));
  g_assert_error (again, PAL_ERROR, PAL_ERROR_PROTOCOL);
}

static void
test_data_too_large (void)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  g_autoptr(GError) error = NULL;
  static const char stream[] = "data: 12345\ndata: 12345\ndata: 12345\n\n";

  pal_sse_parser_set_max_size (parser, 16);

  /* Each line fits, their sum does not. */
  g_assert_false (pal_sse_parser_feed (parser, stream, strlen (stream), &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL);
  g_assert_null (pal_sse_parser_pop (parser));
}

static void
test_empty_feeds (void)
{
  g_autoptr(PalSseParser) parser = pal_sse_parser_new ();
  g_autofree char *rendered = NULL;

  g_assert_true (pal_sse_parser_feed (parser, NULL, 0, NULL));
  g_assert_true (pal_sse_parser_feed (parser, "\xEF", 1, NULL));
  g_assert_true (pal_sse_parser_feed (parser, "", 0, NULL));
  g_assert_true (pal_sse_parser_feed (parser, "\xBB\xBF", 2, NULL));
  g_assert_true (pal_sse_parser_feed (parser, "data: z\r", 8, NULL));
  g_assert_true (pal_sse_parser_feed (parser, "", 0, NULL));
  g_assert_true (pal_sse_parser_feed (parser, "\n", 1, NULL));
  /* the LF completed "\r\n": no blank line yet */
  g_assert_cmpuint (pal_sse_parser_get_n_pending (parser), ==, 0);
  g_assert_true (pal_sse_parser_feed (parser, "\n", 1, NULL));
  rendered = render_events (parser);
  g_assert_cmpstr (rendered, ==, "[message|z|]");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sse-parser/single-event", test_single_event);
  g_test_add_func ("/sse-parser/line-endings", test_line_endings);
  g_test_add_func ("/sse-parser/cr-then-lf", test_cr_then_lf_is_one_ending);
  g_test_add_func ("/sse-parser/multiline-data", test_multiline_data);
  g_test_add_func ("/sse-parser/one-space-removed", test_one_space_removed);
  g_test_add_func ("/sse-parser/comments", test_comments);
  g_test_add_func ("/sse-parser/event-names", test_event_names);
  g_test_add_func ("/sse-parser/unknown-fields", test_unknown_fields);
  g_test_add_func ("/sse-parser/ids", test_ids);
  g_test_add_func ("/sse-parser/id-without-event", test_id_without_event);
  g_test_add_func ("/sse-parser/retry", test_retry);
  g_test_add_func ("/sse-parser/bom", test_bom);
  g_test_add_func ("/sse-parser/partial-bom", test_partial_bom);
  g_test_add_func ("/sse-parser/no-blank-line-at-end", test_no_blank_line_at_end);
  g_test_add_func ("/sse-parser/end-discards-pending", test_end_discards_pending);
  g_test_add_func ("/sse-parser/events-queue-in-order", test_events_queue_in_order);
  g_test_add_func ("/sse-parser/invalid-utf8-and-nul", test_invalid_utf8_and_nul);
  g_test_add_func ("/sse-parser/json-payloads", test_json_payloads);
  g_test_add_func ("/sse-parser/line-too-long", test_line_too_long);
  g_test_add_func ("/sse-parser/data-too-large", test_data_too_large);
  g_test_add_func ("/sse-parser/empty-feeds", test_empty_feeds);

  return g_test_run ();
}
