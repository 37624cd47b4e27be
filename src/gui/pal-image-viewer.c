/* pal-image-viewer.c: an attached image, larger, in a window of its own
 *
 * The image is decoded whole on a worker thread, then shown scaled to fit
 * the window (never larger than it is); Escape closes the window. Data
 * that is no image says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-image-decode.h"
#include "pal-image-viewer.h"

/* Of the window it is shown over: the most the viewer takes at first */
#define SHARE_OF_PARENT 0.9

struct _PalImageViewer
{
  AdwWindow        parent_instance;

  AcpContentBlock *block;
  GtkWindow       *parent;      /* (nullable) (weak): for the first size */
  GtkWidget       *stack;
  GtkWidget       *picture;
  GtkWidget       *failed_page;
  GdkTexture      *texture;
  gboolean         failed;
  GCancellable    *cancellable;
};

G_DEFINE_FINAL_TYPE (PalImageViewer, pal_image_viewer, ADW_TYPE_WINDOW)

static void
pal_image_viewer_dispose (GObject *object)
{
  PalImageViewer *self = PAL_IMAGE_VIEWER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->texture);
  g_clear_object (&self->block);
  g_clear_weak_pointer (&self->parent);

  G_OBJECT_CLASS (pal_image_viewer_parent_class)->dispose (object);
}

static void
pal_image_viewer_class_init (PalImageViewerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_image_viewer_dispose;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_image_viewer_init (PalImageViewer *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *spinner = gtk_spinner_new ();

  self->cancellable = g_cancellable_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("Image"));
  gtk_box_append (GTK_BOX (box), header);

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_widget_set_halign (spinner, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (spinner, GTK_ALIGN_CENTER);
  gtk_stack_add_named (GTK_STACK (self->stack), spinner, "loading");

  self->picture = gtk_picture_new ();
  gtk_picture_set_can_shrink (GTK_PICTURE (self->picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (self->picture), GTK_CONTENT_FIT_SCALE_DOWN);
  gtk_stack_add_named (GTK_STACK (self->stack), self->picture, "image");

  self->failed_page = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->failed_page), "image-missing-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (self->failed_page), _("Broken image"));
  gtk_stack_add_named (GTK_STACK (self->stack), self->failed_page, "failed");

  gtk_box_append (GTK_BOX (box), self->stack);
  adw_window_set_content (ADW_WINDOW (self), box);
}

/* Its first size: the image's, within the window it is shown over */
static void
fit_size (PalImageViewer *self,
          int             width,
          int             height)
{
  int most_width = 1024, most_height = 768;
  double scale;

  if (self->parent != NULL)
    {
      most_width = MAX (320, (int) (gtk_widget_get_width (GTK_WIDGET (self->parent)) * SHARE_OF_PARENT));
      most_height = MAX (240, (int) (gtk_widget_get_height (GTK_WIDGET (self->parent)) * SHARE_OF_PARENT));
    }
  scale = MIN (1.0, MIN ((double) most_width / width, (double) most_height / height));
  gtk_window_set_default_size (GTK_WINDOW (self), MAX (200, (int) (width * scale)),
                               MAX (150, (int) (height * scale) + 46));
}

static void
decode_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  PalImageViewer *self = user_data;
  g_autoptr(GError) error = NULL;
  int width = 0, height = 0;
  GdkTexture *texture = pal_image_decode_finish (result, &width, &height, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (texture == NULL)
    {
      adw_status_page_set_description (ADW_STATUS_PAGE (self->failed_page), error->message);
      gtk_stack_set_visible_child (GTK_STACK (self->stack), self->failed_page);
      self->failed = TRUE;
      return;
    }

  {
    /* Translators: an image's width and height in pixels */
    g_autofree char *name = g_strdup_printf (_("Image, %d × %d"), width, height);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self->picture),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
    gtk_window_set_title (GTK_WINDOW (self), name);
  }
  self->texture = texture;
  gtk_picture_set_paintable (GTK_PICTURE (self->picture), GDK_PAINTABLE (texture));
  gtk_stack_set_visible_child (GTK_STACK (self->stack), self->picture);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    fit_size (self, width, height);
}

/**
 * pal_image_viewer_new:
 * @parent: (nullable): the window it is shown over
 * @block: an image block
 *
 * Returns: (transfer none): a new viewer, not yet shown: present it
 */
GtkWidget *
pal_image_viewer_new (GtkWindow       *parent,
                      AcpContentBlock *block)
{
  PalImageViewer *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (block), NULL);

  self = g_object_new (PAL_TYPE_IMAGE_VIEWER,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       "destroy-with-parent", TRUE,
                       NULL);
  self->block = g_object_ref (block);
  g_set_weak_pointer (&self->parent, parent);
  if (parent != NULL)
    fit_size (self, 640, 480);
  /* the viewer waits for its image: its cancellable goes with it */
  pal_image_decode_async (block, 0, 0, self->cancellable, decode_cb, self);

  return GTK_WIDGET (self);
}

GdkTexture *
pal_image_viewer_get_texture (PalImageViewer *self)
{
  g_return_val_if_fail (PAL_IS_IMAGE_VIEWER (self), NULL);

  return self->texture;
}

gboolean
pal_image_viewer_get_failed (PalImageViewer *self)
{
  g_return_val_if_fail (PAL_IS_IMAGE_VIEWER (self), FALSE);

  return self->failed;
}
