/* pal-sse-parser.c: an incremental parser for server-sent events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-sse-parser.h"

static const guchar bom[3] = { 0xEF, 0xBB, 0xBF };

struct _PalSseParser
{
  GByteArray *line;          /* the current line, not yet terminated */
  GString    *data;          /* the data buffer of the event being built */
  GString    *event_type;    /* the event type buffer */
  char       *last_event_id;
  gint64      retry;
  GQueue      events;        /* of PalSseEvent, ready to pop */
  gsize       max_size;
  GError     *error;         /* sticky: a stream that broke a limit stays broken */
  guchar      bom_buf[3];
  guint       bom_len;
  guint       bom_checked : 1;
  guint       after_cr : 1;  /* the last byte fed was a CR: a LF right after it is not a new line */
};

void
pal_sse_event_free (PalSseEvent *event)
{
  if (event == NULL)
    return;

  g_free (event->type);
  g_free (event->data);
  g_free (event->id);
  g_free (event);
}

PalSseParser *
pal_sse_parser_new (void)
{
  PalSseParser *self = g_new0 (PalSseParser, 1);

  self->line = g_byte_array_new ();
  self->data = g_string_new (NULL);
  self->event_type = g_string_new (NULL);
  self->last_event_id = g_strdup ("");
  self->retry = -1;
  self->max_size = PAL_SSE_PARSER_DEFAULT_MAX_SIZE;
  g_queue_init (&self->events);

  return self;
}

void
pal_sse_parser_free (PalSseParser *self)
{
  if (self == NULL)
    return;

  g_byte_array_unref (self->line);
  g_string_free (self->data, TRUE);
  g_string_free (self->event_type, TRUE);
  g_free (self->last_event_id);
  g_queue_clear_full (&self->events, (GDestroyNotify) pal_sse_event_free);
  g_clear_error (&self->error);
  g_free (self);
}

/**
 * pal_sse_parser_set_max_size:
 * @self: a parser
 * @max_size: the largest line, and the largest data of one event, in bytes
 *
 * Feeding more than this without a line ending, or an event whose data grows
 * beyond it, is an error.
 */
void
pal_sse_parser_set_max_size (PalSseParser *self,
                             gsize         max_size)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_size > 0);

  self->max_size = max_size;
}

/* A UTF-8 string from untrusted bytes: invalid sequences and NUL bytes become
 * U+FFFD, so the result is a proper C string. */
static char *
to_utf8 (const char *bytes,
         gsize       length)
{
  if (length == 0)
    return g_strdup ("");

  return g_utf8_make_valid (bytes, length);
}

static void
append_utf8 (GString    *string,
             const char *bytes,
             gsize       length)
{
  g_autofree char *valid = NULL;

  if (length == 0)
    return;

  if (memchr (bytes, '\0', length) == NULL && g_utf8_validate (bytes, length, NULL))
    {
      g_string_append_len (string, bytes, length);
      return;
    }

  valid = to_utf8 (bytes, length);
  g_string_append (string, valid);
}

static gboolean
field_is (const char *field,
          gsize       field_length,
          const char *name)
{
  return field_length == strlen (name) && memcmp (field, name, field_length) == 0;
}

static void
dispatch_event (PalSseParser *self)
{
  PalSseEvent *event;

  if (self->data->len == 0)
    {
      g_string_truncate (self->event_type, 0);
      return;
    }

  /* Every data line appended a LF; the last one does not belong to the data. */
  g_string_truncate (self->data, self->data->len - 1);

  event = g_new0 (PalSseEvent, 1);
  event->type = self->event_type->len > 0 ? g_strdup (self->event_type->str) : g_strdup ("message");
  event->data = g_strndup (self->data->str, self->data->len);
  event->id = g_strdup (self->last_event_id);
  g_queue_push_tail (&self->events, event);

  g_string_truncate (self->data, 0);
  g_string_truncate (self->event_type, 0);
}

static gboolean
process_line (PalSseParser  *self,
              const char    *line,
              gsize          length,
              GError       **error)
{
  const char *colon;
  const char *value;
  gsize field_length;
  gsize value_length;

  if (length == 0)
    {
      dispatch_event (self);
      return TRUE;
    }

  if (line[0] == ':')
    return TRUE;  /* a comment */

  colon = memchr (line, ':', length);
  if (colon != NULL)
    {
      field_length = colon - line;
      value = colon + 1;
      value_length = length - field_length - 1;
      if (value_length > 0 && value[0] == ' ')
        {
          value++;
          value_length--;
        }
    }
  else
    {
      field_length = length;
      value = line + length;
      value_length = 0;
    }

  if (field_is (line, field_length, "event"))
    {
      g_string_truncate (self->event_type, 0);
      append_utf8 (self->event_type, value, value_length);
    }
  else if (field_is (line, field_length, "data"))
    {
      if (self->data->len + value_length + 1 > self->max_size)
        {
          g_autofree char *limit = g_format_size (self->max_size);

          g_set_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                       _("An event in the event stream is larger than %s"), limit);
          return FALSE;
        }
      append_utf8 (self->data, value, value_length);
      g_string_append_c (self->data, '\n');
    }
  else if (field_is (line, field_length, "id"))
    {
      /* The standard ignores an id that contains NUL. */
      if (memchr (value, '\0', value_length) == NULL)
        {
          g_free (self->last_event_id);
          self->last_event_id = to_utf8 (value, value_length);
        }
    }
  else if (field_is (line, field_length, "retry"))
    {
      guint64 retry = 0;
      gboolean digits = value_length > 0;

      for (gsize i = 0; i < value_length && digits; i++)
        {
          if (!g_ascii_isdigit (value[i]))
            digits = FALSE;
          else if (retry > (G_MAXINT64 - 9) / 10)
            digits = FALSE;  /* too large to mean anything: ignore it */
          else
            retry = retry * 10 + (value[i] - '0');
        }

      if (digits)
        self->retry = (gint64) retry;
    }

  /* Any other field is ignored. */
  return TRUE;
}

static gboolean
process_bytes (PalSseParser  *self,
               const char    *bytes,
               gsize          length,
               GError       **error)
{
  gsize i = 0;

  while (i < length)
    {
      gsize j;

      if (self->after_cr)
        {
          self->after_cr = FALSE;
          if (bytes[i] == '\n')
            {
              i++;
              continue;
            }
        }

      for (j = i; j < length && bytes[j] != '\n' && bytes[j] != '\r'; j++)
        ;

      if (self->line->len + (j - i) > self->max_size)
        {
          g_autofree char *limit = g_format_size (self->max_size);

          g_set_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                       _("A line in the event stream is longer than %s"), limit);
          return FALSE;
        }

      g_byte_array_append (self->line, (const guint8 *) bytes + i, j - i);

      if (j == length)
        break;

      if (!process_line (self, (const char *) self->line->data, self->line->len, error))
        return FALSE;

      g_byte_array_set_size (self->line, 0);
      self->after_cr = bytes[j] == '\r';
      i = j + 1;
    }

  return TRUE;
}

/**
 * pal_sse_parser_feed:
 * @self: a parser
 * @bytes: the next bytes of the stream
 * @length: the number of bytes
 * @error: a place for the error
 *
 * Parses @bytes; the events they complete can then be taken with
 * pal_sse_parser_pop(). Fails (with %PAL_ERROR_PROTOCOL) when a line or an
 * event's data grows beyond the limit; after that, every call fails.
 *
 * Returns: %TRUE when the bytes were parsed
 */
gboolean
pal_sse_parser_feed (PalSseParser  *self,
                     const char    *bytes,
                     gsize          length,
                     GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (bytes != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }

  /* A byte order mark at the very start of the stream is dropped; it may
   * arrive split over several chunks. */
  while (!self->bom_checked && length > 0)
    {
      if ((guchar) bytes[0] == bom[self->bom_len])
        {
          self->bom_buf[self->bom_len++] = bytes[0];
          bytes++;
          length--;
          if (self->bom_len == G_N_ELEMENTS (bom))
            {
              self->bom_checked = TRUE;
              self->bom_len = 0;
            }
        }
      else
        {
          guint held = self->bom_len;

          self->bom_checked = TRUE;
          self->bom_len = 0;
          if (held > 0 && !process_bytes (self, (const char *) self->bom_buf, held, &self->error))
            break;
        }
    }

  if (self->error == NULL)
    process_bytes (self, bytes, length, &self->error);

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }

  return TRUE;
}

/**
 * pal_sse_parser_end:
 * @self: a parser
 *
 * Tells the parser the stream ended. As the standard says, an event that was
 * not completed by an empty line is discarded.
 */
void
pal_sse_parser_end (PalSseParser *self)
{
  g_return_if_fail (self != NULL);

  g_byte_array_set_size (self->line, 0);
  g_string_truncate (self->data, 0);
  g_string_truncate (self->event_type, 0);
  self->after_cr = FALSE;
  self->bom_checked = TRUE;
  self->bom_len = 0;
}

/**
 * pal_sse_parser_pop:
 * @self: a parser
 *
 * Returns: (transfer full) (nullable): the oldest dispatched event not yet
 *   taken, or %NULL
 */
PalSseEvent *
pal_sse_parser_pop (PalSseParser *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_queue_pop_head (&self->events);
}

guint
pal_sse_parser_get_n_pending (PalSseParser *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->events.length;
}

/**
 * pal_sse_parser_get_last_event_id:
 * @self: a parser
 *
 * Returns: the last event id set by the stream, "" when none
 */
const char *
pal_sse_parser_get_last_event_id (PalSseParser *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->last_event_id;
}

/**
 * pal_sse_parser_get_retry:
 * @self: a parser
 *
 * Returns: the reconnection time in milliseconds that the stream asked for,
 *   or -1 when it did not
 */
gint64
pal_sse_parser_get_retry (PalSseParser *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->retry;
}
