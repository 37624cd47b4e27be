/* pal-diff.c: line diffs for the diff content of tool calls
 *
 * GLib has no diff. Linking libgit2 for one function would add a large
 * dependency (and its own view of files) for what is a page of code, so this
 * is Myers' O((N+M)D) algorithm over lines: common prefix and suffix are
 * trimmed first, lines are compared by hash before bytes, and the search is
 * bounded by max_edits so that a huge rewrite costs bounded time and memory
 * (the remaining region then shows as deleted and inserted).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-diff.h"

typedef struct
{
  const char *text;
  gsize       length;
  guint       hash;
} Line;

struct _PalDiff
{
  GArray *lines;    /* PalDiffLine */
  guint   n_added;
  guint   n_removed;
};

static GArray *
split_lines (const char *text)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Line));
  const char *p = text;

  if (text == NULL || *text == '\0')
    return lines;

  while (*p != '\0')
    {
      const char *nl = strchr (p, '\n');
      gsize len = nl != NULL ? (gsize) (nl - p) : strlen (p);
      Line line = { p, len, 5381 };

      if (len > 0 && p[len - 1] == '\r')
        line.length--;
      for (gsize i = 0; i < line.length; i++)
        line.hash = line.hash * 33 + (guchar) p[i];

      g_array_append_val (lines, line);
      if (nl == NULL)
        break;
      p = nl + 1;
    }

  return lines;
}

static inline gboolean
line_equal (const Line *a,
            const Line *b)
{
  return a->hash == b->hash && a->length == b->length &&
         memcmp (a->text, b->text, a->length) == 0;
}

static void
emit (PalDiff    *diff,
      PalDiffOp   op,
      const Line *line,
      guint       old_line,
      guint       new_line)
{
  PalDiffLine out = { op, old_line, new_line, line->text, line->length };

  g_array_append_val (diff->lines, out);
  if (op == PAL_DIFF_INSERT)
    diff->n_added++;
  else if (op == PAL_DIFF_DELETE)
    diff->n_removed++;
}

/* Diffs a[a0..a1) against b[b0..b1), both without common prefix/suffix.
 * Appends the edit script in order. */
static void
diff_region (PalDiff    *diff,
             const Line *a,
             guint       a0,
             guint       a1,
             const Line *b,
             guint       b0,
             guint       b1,
             guint       max_edits)
{
  int n = (int) (a1 - a0);
  int m = (int) (b1 - b0);
  int max = MIN (n + m, (int) max_edits);
  int offset = max + 1;
  g_autofree int *v = NULL;
  g_autoptr(GPtrArray) trace = NULL;
  int found_d = -1;
  int x, y;
  g_autoptr(GArray) script = NULL;

  if (n == 0 || m == 0)
    {
      for (guint i = a0; i < a1; i++)
        emit (diff, PAL_DIFF_DELETE, &a[i], i + 1, 0);
      for (guint j = b0; j < b1; j++)
        emit (diff, PAL_DIFF_INSERT, &b[j], 0, j + 1);
      return;
    }

  v = g_new0 (int, 2 * (gsize) max + 3);
  trace = g_ptr_array_new_with_free_func (g_free);

  for (int d = 0; d <= max && found_d < 0; d++)
    {
      /* keep the diagonals d-1 reached, for the walk back */
      g_ptr_array_add (trace, g_memdup2 (v + offset - d, sizeof (int) * (2 * (gsize) d + 1)));

      for (int k = -d; k <= d; k += 2)
        {
          if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
            x = v[offset + k + 1];
          else
            x = v[offset + k - 1] + 1;
          y = x - k;

          while (x < n && y < m && line_equal (&a[a0 + x], &b[b0 + y]))
            {
              x++;
              y++;
            }
          v[offset + k] = x;

          if (x >= n && y >= m)
            {
              found_d = d;
              break;
            }
        }
    }

  if (found_d < 0)
    {
      /* too many edits: show the region as replaced */
      for (guint i = a0; i < a1; i++)
        emit (diff, PAL_DIFF_DELETE, &a[i], i + 1, 0);
      for (guint j = b0; j < b1; j++)
        emit (diff, PAL_DIFF_INSERT, &b[j], 0, j + 1);
      return;
    }

  /* Walk back through the trace; collect (op, index) pairs in reverse. */
  script = g_array_new (FALSE, FALSE, sizeof (int) * 2);
  x = n;
  y = m;
  for (int d = found_d; d > 0; d--)
    {
      const int *prev = g_ptr_array_index (trace, d);   /* the V at the start of step d */
      int k = x - y;
      int prev_k, prev_x, prev_y;

      /* prev holds diagonals -(d-1)..(d-1) of step d-1, at index k + (d-1)
       * (the copy made at the start of step d covers -d..d; offset by d) */
      if (k == -d || (k != d && prev[k - 1 + d] < prev[k + 1 + d]))
        prev_k = k + 1;
      else
        prev_k = k - 1;
      prev_x = prev[prev_k + d];
      prev_y = prev_x - prev_k;

      while (x > prev_x && y > prev_y)
        {
          int e[2] = { PAL_DIFF_EQUAL, x - 1 };

          g_array_append_vals (script, e, 1);
          x--;
          y--;
        }

      if (x == prev_x)
        {
          int e[2] = { PAL_DIFF_INSERT, y - 1 };

          g_array_append_vals (script, e, 1);
        }
      else
        {
          int e[2] = { PAL_DIFF_DELETE, x - 1 };

          g_array_append_vals (script, e, 1);
        }

      x = prev_x;
      y = prev_y;
    }
  while (x > 0 && y > 0)
    {
      int e[2] = { PAL_DIFF_EQUAL, x - 1 };

      g_array_append_vals (script, e, 1);
      x--;
      y--;
    }

  /* replay forwards, tracking both positions */
  x = 0;
  y = 0;
  for (guint i = script->len; i > 0; i--)
    {
      const int *e = &g_array_index (script, int, 2 * (i - 1));

      switch (e[0])
        {
        case PAL_DIFF_EQUAL:
          emit (diff, PAL_DIFF_EQUAL, &a[a0 + x], a0 + x + 1, b0 + y + 1);
          x++;
          y++;
          break;

        case PAL_DIFF_DELETE:
          emit (diff, PAL_DIFF_DELETE, &a[a0 + x], a0 + x + 1, 0);
          x++;
          break;

        case PAL_DIFF_INSERT:
        default:
          emit (diff, PAL_DIFF_INSERT, &b[b0 + y], 0, b0 + y + 1);
          y++;
          break;
        }
    }
}

/**
 * pal_diff_new:
 * @old_text: (nullable): the old text; %NULL for a new file
 * @new_text: (nullable): the new text
 * @max_edits: bound on the search, e.g. %PAL_DIFF_DEFAULT_MAX_EDITS
 *
 * Computes a line diff. The lines point into the given texts, which must
 * outlive the diff.
 *
 * Returns: (transfer full): the diff
 */
PalDiff *
pal_diff_new (const char *old_text,
              const char *new_text,
              guint       max_edits)
{
  g_autoptr(GArray) a = split_lines (old_text);
  g_autoptr(GArray) b = split_lines (new_text);
  const Line *la = (const Line *) (gpointer) a->data;
  const Line *lb = (const Line *) (gpointer) b->data;
  PalDiff *diff = g_new0 (PalDiff, 1);
  guint prefix = 0, suffix = 0;

  diff->lines = g_array_new (FALSE, FALSE, sizeof (PalDiffLine));

  while (prefix < a->len && prefix < b->len && line_equal (&la[prefix], &lb[prefix]))
    prefix++;
  while (suffix < a->len - prefix && suffix < b->len - prefix &&
         line_equal (&la[a->len - 1 - suffix], &lb[b->len - 1 - suffix]))
    suffix++;

  for (guint i = 0; i < prefix; i++)
    emit (diff, PAL_DIFF_EQUAL, &la[i], i + 1, i + 1);

  diff_region (diff, la, prefix, a->len - suffix, lb, prefix, b->len - suffix, MAX (max_edits, 1));

  for (guint i = 0; i < suffix; i++)
    emit (diff, PAL_DIFF_EQUAL, &la[a->len - suffix + i],
          a->len - suffix + i + 1, b->len - suffix + i + 1);

  return diff;
}

void
pal_diff_free (PalDiff *diff)
{
  if (diff == NULL)
    return;

  g_array_unref (diff->lines);
  g_free (diff);
}

guint
pal_diff_get_n_lines (PalDiff *diff)
{
  g_return_val_if_fail (diff != NULL, 0);

  return diff->lines->len;
}

const PalDiffLine *
pal_diff_get_line (PalDiff *diff,
                   guint    index)
{
  g_return_val_if_fail (diff != NULL, NULL);
  g_return_val_if_fail (index < diff->lines->len, NULL);

  return &g_array_index (diff->lines, PalDiffLine, index);
}

guint
pal_diff_get_n_added (PalDiff *diff)
{
  g_return_val_if_fail (diff != NULL, 0);

  return diff->n_added;
}

guint
pal_diff_get_n_removed (PalDiff *diff)
{
  g_return_val_if_fail (diff != NULL, 0);

  return diff->n_removed;
}

/**
 * pal_diff_get_hunks:
 * @diff: a #PalDiff
 * @context: lines of unchanged context around each change
 *
 * Groups the changes into hunks as a unified diff does.
 *
 * Returns: (transfer full) (element-type PalDiffHunk): the hunks
 */
GArray *
pal_diff_get_hunks (PalDiff *diff,
                    guint    context)
{
  GArray *hunks;
  guint n;
  guint i = 0;

  g_return_val_if_fail (diff != NULL, NULL);

  hunks = g_array_new (FALSE, FALSE, sizeof (PalDiffHunk));
  n = diff->lines->len;

  while (i < n)
    {
      PalDiffHunk hunk = { 0 };
      guint start, end, last_change;

      /* the next change */
      while (i < n && g_array_index (diff->lines, PalDiffLine, i).op == PAL_DIFF_EQUAL)
        i++;
      if (i >= n)
        break;

      start = i > context ? i - context : 0;
      last_change = i;
      end = i;
      while (end < n)
        {
          if (g_array_index (diff->lines, PalDiffLine, end).op != PAL_DIFF_EQUAL)
            last_change = end;
          else if (end - last_change > 2 * context)
            break;
          end++;
        }
      end = MIN (last_change + context + 1, n);

      hunk.first = start;
      hunk.n_lines = end - start;
      for (guint j = start; j < end; j++)
        {
          const PalDiffLine *line = &g_array_index (diff->lines, PalDiffLine, j);

          if (line->op != PAL_DIFF_INSERT)
            {
              if (hunk.old_count++ == 0)
                hunk.old_start = line->old_line;
            }
          if (line->op != PAL_DIFF_DELETE)
            {
              if (hunk.new_count++ == 0)
                hunk.new_start = line->new_line;
            }
        }

      /* an empty side starts at the line before, as diff -u prints it */
      if (hunk.old_count == 0)
        {
          for (guint j = start; j > 0; j--)
            {
              const PalDiffLine *line = &g_array_index (diff->lines, PalDiffLine, j - 1);
              if (line->old_line > 0)
                {
                  hunk.old_start = line->old_line;
                  break;
                }
            }
        }
      if (hunk.new_count == 0)
        {
          for (guint j = start; j > 0; j--)
            {
              const PalDiffLine *line = &g_array_index (diff->lines, PalDiffLine, j - 1);
              if (line->new_line > 0)
                {
                  hunk.new_start = line->new_line;
                  break;
                }
            }
        }

      g_array_append_val (hunks, hunk);
      i = end;
    }

  return hunks;
}

/**
 * pal_diff_to_unified:
 * @diff: a #PalDiff
 * @path: (nullable): the file name for the header
 * @context: lines of context
 *
 * Returns: (transfer full): the diff in unified format
 */
char *
pal_diff_to_unified (PalDiff    *diff,
                     const char *path,
                     guint       context)
{
  g_autoptr(GArray) hunks = NULL;
  GString *out;

  g_return_val_if_fail (diff != NULL, NULL);

  out = g_string_new (NULL);
  if (path != NULL)
    g_string_append_printf (out, "--- %s\n+++ %s\n", path, path);

  hunks = pal_diff_get_hunks (diff, context);
  for (guint h = 0; h < hunks->len; h++)
    {
      const PalDiffHunk *hunk = &g_array_index (hunks, PalDiffHunk, h);

      g_string_append_printf (out, "@@ -%u,%u +%u,%u @@\n",
                              hunk->old_start, hunk->old_count,
                              hunk->new_start, hunk->new_count);
      for (guint j = hunk->first; j < hunk->first + hunk->n_lines; j++)
        {
          const PalDiffLine *line = pal_diff_get_line (diff, j);
          char mark = line->op == PAL_DIFF_EQUAL ? ' ' : line->op == PAL_DIFF_DELETE ? '-' : '+';

          g_string_append_c (out, mark);
          g_string_append_len (out, line->text, (gssize) line->length);
          g_string_append_c (out, '\n');
        }
    }

  return g_string_free (out, FALSE);
}
