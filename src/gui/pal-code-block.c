/* pal-code-block.c: a fenced code block of a message
 *
 * A frame with a header, the language (from the fence's info string) and a
 * Copy button, over the code in a PalCodeView: highlighted by its language,
 * or tinted line by line when it is a diff, and scrolled sideways rather
 * than wrapped. Copy puts the code on the clipboard as it is (see
 * pal-copy-button.c).
 *
 * A streaming message sets the code of its last block again and again as
 * it grows (see PalMarkdownView): what continues the code shown is added,
 * not shown anew.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-code-block.h"
#include "pal-copy-button.h"

struct _PalCodeBlock
{
  AdwBin             parent_instance;

  char              *info;
  GString           *code;           /* as the message has it, with its last line break */
  GtkLabel          *language_label;
  GtkWidget         *copy_button;
  GtkScrolledWindow *scroller;
  PalCodeView       *view;
};

G_DEFINE_FINAL_TYPE (PalCodeBlock, pal_code_block, ADW_TYPE_BIN)

static void
copy_clicked_cb (PalCodeBlock *self)
{
  pal_code_block_copy (self);
}

static void update_language (PalCodeBlock *self);

static void
pal_code_block_finalize (GObject *object)
{
  PalCodeBlock *self = PAL_CODE_BLOCK (object);

  g_free (self->info);
  g_string_free (self->code, TRUE);

  G_OBJECT_CLASS (pal_code_block_parent_class)->finalize (object);
}

static void
pal_code_block_class_init (PalCodeBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = pal_code_block_finalize;

  gtk_widget_class_set_css_name (widget_class, "codeblock");
}

static void
pal_code_block_init (PalCodeBlock *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->code = g_string_new (NULL);
  self->language_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->language_label, 0);
  gtk_label_set_ellipsize (self->language_label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->language_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->language_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->language_label), "dim-label");

  self->copy_button = pal_copy_button_new (_("Copy Code"));
  g_signal_connect_swapped (self->copy_button, "clicked", G_CALLBACK (copy_clicked_cb), self);

  gtk_widget_add_css_class (header, "code-header");
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->language_label));
  gtk_box_append (GTK_BOX (header), self->copy_button);

  self->view = PAL_CODE_VIEW (pal_code_view_new ());
  update_language (self);
  /* long lines scroll sideways; the block is as tall as its code */
  self->scroller = GTK_SCROLLED_WINDOW (pal_code_view_new_scroller (self->view));

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->scroller));
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  adw_bin_set_child (ADW_BIN (self), box);
}

/**
 * pal_code_block_new:
 *
 * Returns: (transfer floating): an empty code block
 */
GtkWidget *
pal_code_block_new (void)
{
  return g_object_new (PAL_TYPE_CODE_BLOCK, NULL);
}

/* What the header says the code is */
static void
update_language (PalCodeBlock *self)
{
  GtkSourceLanguage *language = NULL;
  gboolean diff = pal_code_view_is_diff_info (self->info);
  g_autofree char *word = NULL;

  if (!diff)
    language = pal_code_view_guess_language (self->info);
  pal_code_view_set_language (self->view, language);
  pal_code_view_set_diff (self->view, diff);

  if (diff)
    {
      gtk_label_set_text (self->language_label, _("Diff"));
    }
  else if (language != NULL)
    {
      gtk_label_set_text (self->language_label, gtk_source_language_get_name (language));
    }
  else if (self->info != NULL && *self->info != '\0')
    {
      const char *end = self->info;

      while (*end != '\0' && !g_ascii_isspace (*end))
        end++;
      word = g_strndup (self->info, end - self->info);
      gtk_label_set_text (self->language_label, word);
    }
  else
    {
      gtk_label_set_text (self->language_label, _("Code"));
    }
}

/* The code without the line break that ends it: no empty line under it */
static void
show_code (PalCodeBlock *self)
{
  gsize length = self->code->len;

  if (length > 0 && self->code->str[length - 1] == '\n')
    length--;
  pal_code_view_set_text (self->view, self->code->str, (gssize) length);
}

/**
 * pal_code_block_set_code:
 * @self: a #PalCodeBlock
 * @info: (nullable): the info string of the fence: the language, or a file
 *   name, and perhaps more words after it
 * @code: the code (valid UTF-8), as the message has it
 * @length: its length in bytes, or -1 when nul-terminated
 */
void
pal_code_block_set_code (PalCodeBlock *self,
                         const char   *info,
                         const char   *code,
                         gssize        length)
{
  g_return_if_fail (PAL_IS_CODE_BLOCK (self));
  g_return_if_fail (code != NULL || length == 0);

  if (info != NULL)
    while (g_ascii_isspace (*info))
      info++;
  if (info != NULL && *info == '\0')
    info = NULL;

  if (g_strcmp0 (info, self->info) != 0)
    {
      g_free (self->info);
      self->info = g_strdup (info);
      update_language (self);
    }

  g_string_truncate (self->code, 0);
  if (code != NULL)
    g_string_append_len (self->code, code, length);
  show_code (self);
}

/**
 * pal_code_block_append:
 * @self: a #PalCodeBlock
 * @code: more code (valid UTF-8)
 * @length: its length in bytes, or -1 when nul-terminated
 */
void
pal_code_block_append (PalCodeBlock *self,
                       const char   *code,
                       gssize        length)
{
  g_return_if_fail (PAL_IS_CODE_BLOCK (self));
  g_return_if_fail (code != NULL || length == 0);

  g_string_append_len (self->code, code, length);
  show_code (self);
}

/**
 * pal_code_block_get_code:
 * @self: a #PalCodeBlock
 *
 * Returns: the code, without the line break that ends it
 */
const char *
pal_code_block_get_code (PalCodeBlock *self)
{
  g_return_val_if_fail (PAL_IS_CODE_BLOCK (self), NULL);

  return pal_code_view_get_text (self->view);
}

/**
 * pal_code_block_get_info:
 * @self: a #PalCodeBlock
 *
 * Returns: (nullable): the info string of the fence
 */
const char *
pal_code_block_get_info (PalCodeBlock *self)
{
  g_return_val_if_fail (PAL_IS_CODE_BLOCK (self), NULL);

  return self->info;
}

/**
 * pal_code_block_get_label:
 * @self: a #PalCodeBlock
 *
 * Returns: what the header says the code is
 */
const char *
pal_code_block_get_label (PalCodeBlock *self)
{
  g_return_val_if_fail (PAL_IS_CODE_BLOCK (self), NULL);

  return gtk_label_get_text (self->language_label);
}

PalCodeView *
pal_code_block_get_view (PalCodeBlock *self)
{
  g_return_val_if_fail (PAL_IS_CODE_BLOCK (self), NULL);

  return self->view;
}

GtkScrolledWindow *
pal_code_block_get_scroller (PalCodeBlock *self)
{
  g_return_val_if_fail (PAL_IS_CODE_BLOCK (self), NULL);

  return self->scroller;
}

/**
 * pal_code_block_copy:
 * @self: a #PalCodeBlock
 *
 * Puts the code on the clipboard; the Copy button says so for a moment.
 */
void
pal_code_block_copy (PalCodeBlock *self)
{
  g_return_if_fail (PAL_IS_CODE_BLOCK (self));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), pal_code_block_get_code (self));
  pal_copy_button_show_copied (self->copy_button);
}

/**
 * pal_code_block_get_copy_button:
 * @self: a #PalCodeBlock
 *
 * Returns: (transfer none): its Copy button
 */
GtkWidget *
pal_code_block_get_copy_button (PalCodeBlock *self)
{
  g_return_val_if_fail (PAL_IS_CODE_BLOCK (self), NULL);

  return self->copy_button;
}
