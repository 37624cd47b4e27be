/* pal-line-cut.c: long lines of plain output, shown in pieces
 *
 * GTK 4.8's text view lays out a line (a paragraph) whole whenever it
 * changes, and Pango 1.50 shapes a line that may break between characters
 * again near every break. A line that grows without end (a progress
 * report, a minified file, a command's output streamed a piece at a time)
 * made every frame slower than the last: 20 KB of one line streamed in 100
 * pieces, a frame each, took 15 to 30 s in an output view (on a busy
 * machine), and a line of a few hundred kilobytes took seconds a frame.
 * Cut into pieces of PAL_LINE_CUT_MAX_CHARS characters, one below the other
 * (as wrapping would show them anyway), the same took 2 to 4 s, as many
 * short lines do.
 *
 * The pieces are parted by a paragraph separator (U+2029), which ends a
 * line of a text buffer as a newline does; the text of the view, copied or
 * compared, leaves it out (and any separator the output held itself).
 *
 * A workaround for GTK 4.8 and Pango 1.50 (Debian 12): measure again on a
 * newer GTK and Pango before keeping it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-line-cut.h"

/* U+2029 PARAGRAPH SEPARATOR */
#define CUT "\xe2\x80\xa9"

/**
 * pal_line_cut_text:
 * @text: valid UTF-8
 * @length: its length in bytes
 * @column: the characters of the line that @text goes on, before it
 *
 * Returns: (transfer full) (nullable): @text with a cut wherever a line
 *   reaches PAL_LINE_CUT_MAX_CHARS characters, or %NULL when it needs none
 */
char *
pal_line_cut_text (const char *text,
                   gsize       length,
                   int         column)
{
  const char *end = text + length;
  const char *copied = text;
  GString *cut = NULL;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      if (*p == '\n' || *p == '\r' || g_str_has_prefix (p, CUT))
        {
          column = 0;
          continue;
        }
      if (column++ < PAL_LINE_CUT_MAX_CHARS)
        continue;

      if (cut == NULL)
        cut = g_string_sized_new (length + (length / PAL_LINE_CUT_MAX_CHARS + 1) * strlen (CUT));
      g_string_append_len (cut, copied, p - copied);
      g_string_append (cut, CUT);
      copied = p;
      column = 1;
    }

  if (cut == NULL)
    return NULL;
  g_string_append_len (cut, copied, end - copied);
  return g_string_free (cut, FALSE);
}

/**
 * pal_line_cut_dup_uncut:
 * @start: where the text starts
 * @end: where it ends
 *
 * Returns: (transfer full): the text of the buffer between @start and
 *   @end, without the cuts
 */
char *
pal_line_cut_dup_uncut (GtkTextIter *start,
                        GtkTextIter *end)
{
  char *text;
  char *to;

  g_return_val_if_fail (start != NULL && end != NULL, NULL);

  text = gtk_text_iter_get_text (start, end);
  to = strstr (text, CUT);
  if (to == NULL)
    return text;

  /* in place: what follows each cut moves up */
  for (const char *from = to; *from != '\0';)
    {
      if (g_str_has_prefix (from, CUT))
        from += strlen (CUT);
      else
        *to++ = *from++;
    }
  *to = '\0';

  return text;
}
