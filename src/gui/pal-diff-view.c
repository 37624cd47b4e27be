/* pal-diff-view.c: the diff content of a tool call
 *
 * A header with the file name and the count of added and removed lines
 * (in libadwaita's success and error colours, readable on the light
 * style's background and the dark one's: see style.css), then the hunks in a
 * code view (PalCodeView): each added, removed and location line tinted
 * with the colour the style scheme gives it, as a diff fenced in a message
 * is. Long lines wrap (without a hyphen) rather than scroll sideways: most
 * edits have a diff, and a scrolled window doubled what one costs to show
 * (0.4 ms of 0.8, while a long history pours in).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-code-view.h"
#include "pal-diff.h"
#include "pal-diff-view.h"
#include "pal-path.h"
#include "pal-tooltip.h"

/* Past this many lines the view shows the start and says what it left out. */
#define MAX_SHOWN_LINES 3000

struct _PalDiffView
{
  AdwBin       parent_instance;

  GtkLabel    *path_label;
  GtkLabel    *added_label;
  GtkLabel    *removed_label;
  PalCodeView *code_view;
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

  gtk_widget_add_css_class (box, "diff");
  gtk_widget_set_overflow (box, GTK_OVERFLOW_HIDDEN);

  self->path_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->path_label, 0);
  gtk_label_set_ellipsize (self->path_label, PANGO_ELLIPSIZE_START);
  gtk_widget_set_hexpand (GTK_WIDGET (self->path_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->path_label), "monospace");

  self->added_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->added_label), "added-count");
  self->removed_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->removed_label), "removed-count");

  gtk_widget_add_css_class (header, "diff-header");
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->path_label));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->added_label));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->removed_label));

  self->code_view = PAL_CODE_VIEW (pal_code_view_new ());
  pal_code_view_set_diff (self->code_view, TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->code_view), GTK_WRAP_CHAR);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->code_view));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
pal_diff_view_new (void)
{
  return g_object_new (PAL_TYPE_DIFF_VIEW, NULL);
}

static void
append_line (GString    *text,
             char        mark,
             const char *line,
             gsize       length)
{
  if (text->len > 0)
    g_string_append_c (text, '\n');
  g_string_append_c (text, mark);
  g_string_append_len (text, line, (gssize) length);
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
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *shown_path = NULL;
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
    {
      gtk_label_set_text (self->added_label, _("New file"));
      gtk_widget_set_visible (GTK_WIDGET (self->removed_label), FALSE);
    }
  else
    {
      g_autofree char *added = g_strdup_printf ("+%u", self->n_added);
      g_autofree char *removed = g_strdup_printf ("−%u", self->n_removed);

      gtk_label_set_text (self->added_label, added);
      gtk_label_set_text (self->removed_label, removed);
      gtk_widget_set_visible (GTK_WIDGET (self->removed_label), TRUE);
    }

  for (guint h = 0; h < hunks->len; h++)
    total += g_array_index (hunks, PalDiffHunk, h).n_lines + 1;

  for (guint h = 0; h < hunks->len && shown < MAX_SHOWN_LINES; h++)
    {
      const PalDiffHunk *hunk = &g_array_index (hunks, PalDiffHunk, h);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_printf (text, "@@ -%u,%u +%u,%u @@",
                              hunk->old_start, hunk->old_count, hunk->new_start, hunk->new_count);
      shown++;

      for (guint j = hunk->first; j < hunk->first + hunk->n_lines && shown < MAX_SHOWN_LINES; j++)
        {
          const PalDiffLine *line = pal_diff_get_line (diff, j);

          switch (line->op)
            {
            case PAL_DIFF_INSERT:
              append_line (text, '+', line->text, line->length);
              break;
            case PAL_DIFF_DELETE:
              append_line (text, '-', line->text, line->length);
              break;
            case PAL_DIFF_EQUAL:
            default:
              append_line (text, ' ', line->text, line->length);
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
      append_line (text, ' ', more, strlen (more));
    }
  else if (hunks->len == 0)
    {
      const char *none = _("No changes");
      append_line (text, ' ', none, strlen (none));
    }

  pal_code_view_set_text (self->code_view, text->str, (gssize) text->len);
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
  g_return_val_if_fail (PAL_IS_DIFF_VIEW (self), NULL);

  return g_strdup (pal_code_view_get_text (self->code_view));
}

/**
 * pal_diff_view_get_code_view:
 * @self: a #PalDiffView
 *
 * Returns: (transfer none): the view of its lines
 */
PalCodeView *
pal_diff_view_get_code_view (PalDiffView *self)
{
  g_return_val_if_fail (PAL_IS_DIFF_VIEW (self), NULL);

  return self->code_view;
}
