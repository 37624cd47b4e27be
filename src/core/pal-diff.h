/* pal-diff.h: line diffs for the diff content of tool calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PAL_DIFF_EQUAL,
  PAL_DIFF_DELETE,
  PAL_DIFF_INSERT,
} PalDiffOp;

typedef struct
{
  PalDiffOp   op;
  guint       old_line;   /* 1-based line in the old text, 0 for insertions */
  guint       new_line;   /* 1-based line in the new text, 0 for deletions */
  const char *text;       /* points into the texts given to pal_diff_new(), no newline */
  gsize       length;
} PalDiffLine;

typedef struct
{
  guint old_start;        /* 1-based, as in a unified diff header */
  guint old_count;
  guint new_start;
  guint new_count;
  guint first;            /* index of the hunk's first line in the diff */
  guint n_lines;
} PalDiffHunk;

typedef struct _PalDiff PalDiff;

/* Beyond this many differing lines the diff stops looking for the shortest
 * edit script and shows the rest of the changed region as replaced. */
#define PAL_DIFF_DEFAULT_MAX_EDITS 4000

PalDiff           *pal_diff_new           (const char *old_text,
                                           const char *new_text,
                                           guint       max_edits);
void               pal_diff_free          (PalDiff    *diff);
guint              pal_diff_get_n_lines   (PalDiff    *diff);
const PalDiffLine *pal_diff_get_line      (PalDiff    *diff,
                                           guint       index);
guint              pal_diff_get_n_added   (PalDiff    *diff);
guint              pal_diff_get_n_removed (PalDiff    *diff);
GArray            *pal_diff_get_hunks     (PalDiff    *diff,
                                           guint       context);
char              *pal_diff_to_unified    (PalDiff    *diff,
                                           const char *path,
                                           guint       context);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalDiff, pal_diff_free)

G_END_DECLS
