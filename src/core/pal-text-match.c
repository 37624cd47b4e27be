/* pal-text-match.c: finding words in text as a person types them
 *
 * What Ctrl+F in a session looks for: the text typed, in any case, found
 * anywhere (not only at word starts), matches not overlapping. Characters
 * are compared lowercased one by one, so a match has as many characters as
 * the needle; a needle of ASCII alone is compared byte by byte, which is
 * what a long history needs to be searched at each keystroke.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-text-match.h"

static gboolean
is_ascii (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if ((guchar) *p >= 0x80)
      return FALSE;

  return TRUE;
}

/* Whether @needle (lowercased ASCII, @n bytes) is at @p, in any case */
static gboolean
ascii_at (const char *p,
          const char *end,
          const char *needle,
          gsize       n)
{
  if ((gsize) (end - p) < n)
    return FALSE;

  for (gsize i = 0; i < n; i++)
    if (g_ascii_tolower (p[i]) != needle[i])
      return FALSE;

  return TRUE;
}

/* The end of a match of @needle (@n lowercased characters) at @p, or NULL */
static const char *
unichars_at (const char     *p,
             const char     *end,
             const gunichar *needle,
             glong           n)
{
  for (glong i = 0; i < n; i++)
    {
      if (p >= end || g_unichar_tolower (g_utf8_get_char (p)) != needle[i])
        return NULL;
      p = g_utf8_next_char (p);
    }

  return p <= end ? p : NULL;
}

/**
 * pal_text_match_all:
 * @text: valid UTF-8
 * @length: its length in bytes
 * @needle: what to find, valid UTF-8
 * @max: how many matches to give at most
 * @offsets: (element-type gsize): where the byte offset of each match is
 *   appended, in order
 *
 * Returns: whether @text has more than @max matches
 */
gboolean
pal_text_match_all (const char *text,
                    gsize       length,
                    const char *needle,
                    guint       max,
                    GArray     *offsets)
{
  const char *end = text + length;
  guint found = 0;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);
  g_return_val_if_fail (needle != NULL, FALSE);
  g_return_val_if_fail (offsets != NULL, FALSE);

  if (*needle == '\0')
    return FALSE;

  if (is_ascii (needle))
    {
      g_autofree char *lower = g_ascii_strdown (needle, -1);
      gsize n = strlen (lower);

      for (const char *p = text; p + n <= end; p++)
        {
          if (!ascii_at (p, end, lower, n))
            continue;
          gsize offset = (gsize) (p - text);

          if (found++ == max)
            return TRUE;
          g_array_append_val (offsets, offset);
          p += n - 1;
        }
      return FALSE;
    }

  {
    glong n = 0;
    g_autofree gunichar *chars = g_utf8_to_ucs4_fast (needle, -1, &n);

    for (glong i = 0; i < n; i++)
      chars[i] = g_unichar_tolower (chars[i]);

    for (const char *p = text; p < end; p = g_utf8_next_char (p))
      {
        const char *match_end = unichars_at (p, end, chars, n);
        gsize offset = (gsize) (p - text);

        if (match_end == NULL)
          continue;
        if (found++ == max)
          return TRUE;
        g_array_append_val (offsets, offset);
        p = g_utf8_prev_char (match_end);
      }
  }

  return FALSE;
}

/**
 * pal_text_match_count:
 *
 * Returns: how many times @needle is in the @length bytes of @text, as
 *   pal_text_match_all() finds it
 */
guint
pal_text_match_count (const char *text,
                      gsize       length,
                      const char *needle)
{
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));

  pal_text_match_all (text, length, needle, G_MAXUINT, offsets);
  return offsets->len;
}
