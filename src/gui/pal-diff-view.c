/* pal-diff-view.c: the diff content of a tool call
 *
 * A header with the file name and the count of added and removed lines, then
 * the hunks in a monospace text view, added and removed lines coloured.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-diff.h"
#include "pal-diff-view.h"
#include "pal-path.h"
#include "pal-text-view.h"
#include "pal-tooltip.h"

/* Past this many lines the view shows the start and says what it left out. */
#define MAX_SHOWN_LINES 3000

struct _PalDiffView
{
  AdwBin       parent_instance;

  GtkLabel    *path_label;
  GtkLabel    *stats_label;
  GtkTextView *text_view;
  guint        n_added;
  guint        n_removed;
};

G_DEFINE_FINAL_TYPE (PalDiffView, pal_diff_view, ADW_TYPE_BIN)

static void
pal_diff_view_class_init (PalDiffViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_css_name (widget_class, "diffview");
}

static void
pal_diff_view_init (PalDiffView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkTextBuffer *buffer;

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "diff");

  self->path_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->path_label, 0);
  gtk_label_set_ellipsize (self->path_label, PANGO_ELLIPSIZE_START);
  gtk_widget_set_hexpand (GTK_WIDGET (self->path_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->path_label), "monospace");

  self->stats_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_use_markup (self->stats_label, TRUE);

  gtk_widget_set_margin_start (header, 8);
  gtk_widget_set_margin_end (header, 8);
  gtk_widget_set_margin_top (header, 6);
  gtk_widget_set_margin_bottom (header, 6);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->path_label));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->stats_label));

  self->text_view = GTK_TEXT_VIEW (pal_text_view_new ());
  gtk_text_view_set_editable (self->text_view, FALSE);
  /* nothing to undo in a view */
  gtk_text_buffer_set_enable_undo (gtk_text_view_get_buffer (self->text_view), FALSE);
  gtk_text_view_set_cursor_visible (self->text_view, FALSE);
  gtk_text_view_set_monospace (self->text_view, TRUE);
  gtk_text_view_set_wrap_mode (self->text_view, GTK_WRAP_CHAR);
  gtk_text_view_set_left_margin (self->text_view, 4);
  gtk_text_view_set_bottom_margin (self->text_view, 6);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_create_tag (buffer, "added",
                              "paragraph-background", "rgba(46,194,126,0.18)", NULL);
  gtk_text_buffer_create_tag (buffer, "removed",
                              "paragraph-background", "rgba(224,27,36,0.15)", NULL);
  gtk_text_buffer_create_tag (buffer, "hunk",
                              "foreground", "rgba(128,128,128,1)",
                              "pixels-above-lines", 4, NULL);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->text_view));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
pal_diff_view_new (void)
{
  return g_object_new (PAL_TYPE_DIFF_VIEW, NULL);
}

static void
append_line (GtkTextBuffer *buffer,
             const char    *tag,
             char           mark,
             const char    *text,
             gsize          length)
{
  GtkTextIter end;
  int start;
  char prefix[2] = { mark, 0 };

  gtk_text_buffer_get_end_iter (buffer, &end);
  start = gtk_text_iter_get_offset (&end);
  if (start > 0)
    gtk_text_buffer_insert (buffer, &end, "\n", 1), start++;
  gtk_text_buffer_insert (buffer, &end, prefix, 1);
  gtk_text_buffer_insert (buffer, &end, text, (int) length);

  if (tag != NULL)
    {
      GtkTextIter from;

      gtk_text_buffer_get_iter_at_offset (buffer, &from, start);
      gtk_text_buffer_apply_tag_by_name (buffer, tag, &from, &end);
    }
}

/**
 * pal_diff_view_set_diff:
 * @self: a #PalDiffView
 * @path: (nullable): the file the diff is about
 * @folder: (nullable): the project folder, to show @path relative to it
 * @old_text: (nullable): the old content; %NULL for a new file
 * @new_text: (nullable): the new content
 */
void
pal_diff_view_set_diff (PalDiffView *self,
                        const char  *path,
                        const char  *folder,
                        const char  *old_text,
                        const char  *new_text)
{
  g_autoptr(PalDiff) diff = NULL;
  g_autoptr(GArray) hunks = NULL;
  g_autofree char *stats = NULL;
  g_autofree char *shown_path = NULL;
  GtkTextBuffer *buffer;
  guint shown = 0;
  guint total = 0;

  g_return_if_fail (PAL_IS_DIFF_VIEW (self));

  diff = pal_diff_new (old_text, new_text, PAL_DIFF_DEFAULT_MAX_EDITS);
  hunks = pal_diff_get_hunks (diff, 3);
  self->n_added = pal_diff_get_n_added (diff);
  self->n_removed = pal_diff_get_n_removed (diff);

  if (path == NULL || *path == '\0')
    gtk_label_set_text (self->path_label, _("Untitled"));
  else
    {
      shown_path = pal_path_display (path, folder, g_get_home_dir ());
      gtk_label_set_text (self->path_label, shown_path);
    }
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->path_label), path);

  if (old_text == NULL)
    stats = g_strdup_printf ("<span foreground=\"#26a269\">%s</span>", _("New file"));
  else
    stats = g_strdup_printf ("<span foreground=\"#26a269\">+%u</span> <span foreground=\"#c01c28\">−%u</span>",
                             self->n_added, self->n_removed);
  gtk_label_set_markup (self->stats_label, stats);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_set_text (buffer, "", 0);

  for (guint h = 0; h < hunks->len; h++)
    total += g_array_index (hunks, PalDiffHunk, h).n_lines + 1;

  for (guint h = 0; h < hunks->len && shown < MAX_SHOWN_LINES; h++)
    {
      const PalDiffHunk *hunk = &g_array_index (hunks, PalDiffHunk, h);
      g_autofree char *header = g_strdup_printf ("@@ -%u,%u +%u,%u @@",
                                                 hunk->old_start, hunk->old_count,
                                                 hunk->new_start, hunk->new_count);

      append_line (buffer, "hunk", ' ', header, strlen (header));
      shown++;

      for (guint j = hunk->first; j < hunk->first + hunk->n_lines && shown < MAX_SHOWN_LINES; j++)
        {
          const PalDiffLine *line = pal_diff_get_line (diff, j);

          switch (line->op)
            {
            case PAL_DIFF_INSERT:
              append_line (buffer, "added", '+', line->text, line->length);
              break;
            case PAL_DIFF_DELETE:
              append_line (buffer, "removed", '-', line->text, line->length);
              break;
            case PAL_DIFF_EQUAL:
            default:
              append_line (buffer, NULL, ' ', line->text, line->length);
              break;
            }
          shown++;
        }
    }

  if (shown < total)
    {
      g_autofree char *more = g_strdup_printf (ngettext ("… %u more line not shown",
                                                         "… %u more lines not shown",
                                                         total - shown),
                                               total - shown);
      append_line (buffer, "hunk", ' ', more, strlen (more));
    }
  else if (hunks->len == 0)
    {
      const char *none = _("No changes");
      append_line (buffer, "hunk", ' ', none, strlen (none));
    }
}

guint
pal_diff_view_get_n_added (PalDiffView *self)
{
  g_return_val_if_fail (PAL_IS_DIFF_VIEW (self), 0);
  return self->n_added;
}

guint
pal_diff_view_get_n_removed (PalDiffView *self)
{
  g_return_val_if_fail (PAL_IS_DIFF_VIEW (self), 0);
  return self->n_removed;
}

/**
 * pal_diff_view_dup_text:
 * @self: a #PalDiffView
 *
 * Returns: (transfer full): the text shown, as a unified diff body
 */
char *
pal_diff_view_dup_text (PalDiffView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (PAL_IS_DIFF_VIEW (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
