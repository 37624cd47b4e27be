/* pal-attachment-chip.c: one thing attached to the prompt being written
 *
 * A small pill: an icon for a file or folder, or a thumbnail of an image
 * (made on a worker thread), the name, and a button that emits "remove".
 * An image the agent does not accept is marked, and says so in its
 * tooltip.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-attachment-chip.h"
#include "pal-image-prepare.h"

#define THUMBNAIL_SIZE 48

struct _PalAttachmentChip
{
  GtkWidget      parent_instance;

  PalAttachment *attachment;
  GtkWidget     *box;
  GtkWidget     *image;
  GtkWidget     *picture;
  GtkWidget     *label;
  GtkWidget     *remove_button;
  GCancellable  *cancellable;
  gboolean       refused;
};

enum {
  REMOVE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalAttachmentChip, pal_attachment_chip, GTK_TYPE_WIDGET)

static void
update_tooltip (PalAttachmentChip *self)
{
  g_autofree char *tooltip = NULL;
  GFile *file = pal_attachment_get_file (self->attachment);
  g_autofree char *where = NULL;

  if (file != NULL)
    where = g_file_peek_path (file) != NULL ? g_strdup (g_file_peek_path (file))
                                           : g_file_get_uri (file);
  if (self->refused)
    tooltip = g_strdup_printf ("%s\n%s", where != NULL ? where : pal_attachment_get_name (self->attachment),
                               _("This agent does not accept images"));
  else if (pal_attachment_get_kind (self->attachment) == PAL_ATTACHMENT_IMAGE)
    /* Translators: an image's name, then its width and height in pixels */
    tooltip = g_strdup_printf (_("%s (%d × %d)"),
                               where != NULL ? where : pal_attachment_get_name (self->attachment),
                               pal_attachment_get_width (self->attachment),
                               pal_attachment_get_height (self->attachment));
  else
    tooltip = g_steal_pointer (&where);

  gtk_widget_set_tooltip_text (self->box, tooltip);
}

static void
thumbnail_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  PalAttachmentChip *self;

  texture = pal_image_thumbnail_finish (result, &error);
  if (texture == NULL)
    {
      /* a chip already gone, or an image it cannot show: the icon stays */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No thumbnail: %s", error->message);
      return;
    }

  self = PAL_ATTACHMENT_CHIP (user_data);
  gtk_picture_set_paintable (GTK_PICTURE (self->picture), GDK_PAINTABLE (texture));
  gtk_widget_set_visible (self->picture, TRUE);
  gtk_widget_set_visible (self->image, FALSE);
}

static void
remove_clicked_cb (PalAttachmentChip *self)
{
  g_signal_emit (self, signals[REMOVE], 0);
}

static void
pal_attachment_chip_dispose (GObject *object)
{
  PalAttachmentChip *self = PAL_ATTACHMENT_CHIP (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->attachment);

  G_OBJECT_CLASS (pal_attachment_chip_parent_class)->dispose (object);
}

static void
pal_attachment_chip_class_init (PalAttachmentChipClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_attachment_chip_dispose;

  /**
   * PalAttachmentChip::remove:
   *
   * The person asked for the attachment to be taken away.
   */
  signals[REMOVE] =
    g_signal_new ("remove", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "attachment-chip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
pal_attachment_chip_init (PalAttachmentChip *self)
{
  self->cancellable = g_cancellable_new ();
}

static const char *
icon_name_of (PalAttachment *attachment)
{
  switch (pal_attachment_get_kind (attachment))
    {
    case PAL_ATTACHMENT_FOLDER:
      return "folder-symbolic";
    case PAL_ATTACHMENT_IMAGE:
      return "image-x-generic-symbolic";
    case PAL_ATTACHMENT_FILE:
    default:
      return "text-x-generic-symbolic";
    }
}

/**
 * pal_attachment_chip_new:
 * @attachment: what it shows
 *
 * Returns: (transfer floating): a chip of @attachment
 */
GtkWidget *
pal_attachment_chip_new (PalAttachment *attachment)
{
  PalAttachmentChip *self;
  const char *name;
  g_autofree char *remove_label = NULL;

  g_return_val_if_fail (PAL_IS_ATTACHMENT (attachment), NULL);

  self = g_object_new (PAL_TYPE_ATTACHMENT_CHIP, NULL);
  self->attachment = g_object_ref (attachment);
  name = pal_attachment_get_name (attachment);

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->image = gtk_image_new_from_icon_name (icon_name_of (attachment));
  gtk_widget_set_valign (self->image, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), self->image);

  self->picture = gtk_picture_new ();
  gtk_picture_set_can_shrink (GTK_PICTURE (self->picture), TRUE);
  gtk_widget_set_size_request (self->picture, 32, 32);
  gtk_widget_set_valign (self->picture, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->picture, "thumbnail");
  gtk_widget_set_visible (self->picture, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->picture);

  self->label = gtk_label_new (name);
  gtk_label_set_ellipsize (GTK_LABEL (self->label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->label), 24);
  /* the flow box gives a chip its minimum width: a short name stays whole */
  gtk_label_set_width_chars (GTK_LABEL (self->label), (int) MIN (g_utf8_strlen (name, -1), 12));
  gtk_widget_set_valign (self->label, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), self->label);

  self->remove_button = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (self->remove_button, "flat");
  gtk_widget_add_css_class (self->remove_button, "circular");
  gtk_widget_set_valign (self->remove_button, GTK_ALIGN_CENTER);
  /* Translators: the button that takes an attachment away; %s is its name */
  remove_label = g_strdup_printf (_("Remove %s"), name);
  gtk_widget_set_tooltip_text (self->remove_button, remove_label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->remove_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, remove_label, -1);
  g_signal_connect_swapped (self->remove_button, "clicked", G_CALLBACK (remove_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->box), self->remove_button);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  update_tooltip (self);

  if (pal_attachment_get_kind (attachment) == PAL_ATTACHMENT_IMAGE)
    pal_image_thumbnail_async (pal_attachment_get_data (attachment), THUMBNAIL_SIZE,
                               self->cancellable, thumbnail_cb, self);

  return GTK_WIDGET (self);
}

PalAttachment *
pal_attachment_chip_get_attachment (PalAttachmentChip *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT_CHIP (self), NULL);

  return self->attachment;
}

void
pal_attachment_chip_set_refused (PalAttachmentChip *self,
                                 gboolean           refused)
{
  g_return_if_fail (PAL_IS_ATTACHMENT_CHIP (self));

  refused = !!refused;
  if (self->refused == refused)
    return;

  self->refused = refused;
  if (refused)
    gtk_widget_add_css_class (GTK_WIDGET (self), "refused");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "refused");
  update_tooltip (self);
}

gboolean
pal_attachment_chip_get_refused (PalAttachmentChip *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT_CHIP (self), FALSE);

  return self->refused;
}

GdkPaintable *
pal_attachment_chip_get_thumbnail (PalAttachmentChip *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT_CHIP (self), NULL);

  return gtk_picture_get_paintable (GTK_PICTURE (self->picture));
}
