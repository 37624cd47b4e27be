/* pal-attachment-bar.c: the row of what is attached to the prompt
 *
 * Above the composer's text: a chip (PalAttachmentChip) for each item of
 * the list store it is given, wrapping onto more lines when there are
 * many; hidden while nothing is attached. When the agent does not accept
 * images, image chips are marked and a line under them says that they
 * will not be sent (the prompt leaves them out when it is sent).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-attachment-bar.h"
#include "pal-attachment-chip.h"

struct _PalAttachmentBar
{
  GtkWidget   parent_instance;

  GListStore *attachments;
  GtkWidget  *box;
  GtkWidget  *flow;
  GtkWidget  *notice;
  gboolean    accepts_images;
};

G_DEFINE_FINAL_TYPE (PalAttachmentBar, pal_attachment_bar, GTK_TYPE_WIDGET)

static gboolean
has_image (PalAttachmentBar *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->attachments));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalAttachment) attachment = g_list_model_get_item (G_LIST_MODEL (self->attachments), i);

      if (pal_attachment_get_kind (attachment) == PAL_ATTACHMENT_IMAGE)
        return TRUE;
    }

  return FALSE;
}

static void
update (PalAttachmentBar *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->attachments));

  for (guint i = 0; i < n; i++)
    {
      GtkFlowBoxChild *child = gtk_flow_box_get_child_at_index (GTK_FLOW_BOX (self->flow), i);
      GtkWidget *chip = child != NULL ? gtk_flow_box_child_get_child (child) : NULL;

      if (chip == NULL)
        continue;
      pal_attachment_chip_set_refused (PAL_ATTACHMENT_CHIP (chip),
                                       !self->accepts_images &&
                                       pal_attachment_get_kind (pal_attachment_chip_get_attachment (PAL_ATTACHMENT_CHIP (chip))) == PAL_ATTACHMENT_IMAGE);
    }

  gtk_widget_set_visible (self->notice, !self->accepts_images && has_image (self));
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0);
}

static void
chip_remove_cb (PalAttachmentChip *chip,
                PalAttachmentBar  *self)
{
  PalAttachment *attachment = pal_attachment_chip_get_attachment (chip);
  guint position;

  if (g_list_store_find (self->attachments, attachment, &position))
    g_list_store_remove (self->attachments, position);
}

static GtkWidget *
create_chip (gpointer item,
             gpointer user_data)
{
  PalAttachmentBar *self = user_data;
  GtkWidget *chip = pal_attachment_chip_new (PAL_ATTACHMENT (item));

  g_signal_connect_object (chip, "remove", G_CALLBACK (chip_remove_cb), self, 0);
  return chip;
}

static void
attachments_changed_cb (GListModel       *model,
                        guint             position,
                        guint             removed,
                        guint             added,
                        PalAttachmentBar *self)
{
  update (self);
}

static void
pal_attachment_bar_dispose (GObject *object)
{
  PalAttachmentBar *self = PAL_ATTACHMENT_BAR (object);

  if (self->attachments != NULL)
    g_signal_handlers_disconnect_by_data (self->attachments, self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->attachments);

  G_OBJECT_CLASS (pal_attachment_bar_parent_class)->dispose (object);
}

static void
pal_attachment_bar_class_init (PalAttachmentBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_attachment_bar_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "attachment-bar");
}

static void
pal_attachment_bar_init (PalAttachmentBar *self)
{
  self->accepts_images = TRUE;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->flow = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->flow), 20);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->flow), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (self->flow), 6);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->flow), FALSE);
  gtk_widget_set_halign (self->flow, GTK_ALIGN_START);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->flow), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Attachments"), -1);
  gtk_box_append (GTK_BOX (self->box), self->flow);

  self->notice = gtk_label_new (_("This agent does not accept images: they will not be sent"));
  gtk_label_set_wrap (GTK_LABEL (self->notice), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->notice), 0);
  gtk_widget_add_css_class (self->notice, "caption");
  gtk_widget_add_css_class (self->notice, "warning");
  gtk_widget_set_visible (self->notice, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->notice);
}

/**
 * pal_attachment_bar_new:
 * @attachments: a #GListStore of #PalAttachment
 *
 * Returns: (transfer floating): a bar showing @attachments
 */
GtkWidget *
pal_attachment_bar_new (GListStore *attachments)
{
  PalAttachmentBar *self;

  g_return_val_if_fail (G_IS_LIST_STORE (attachments), NULL);

  self = g_object_new (PAL_TYPE_ATTACHMENT_BAR, NULL);
  self->attachments = g_object_ref (attachments);
  gtk_flow_box_bind_model (GTK_FLOW_BOX (self->flow), G_LIST_MODEL (attachments),
                           create_chip, self, NULL);
  /* after the flow box's own handler: the chips exist by then */
  g_signal_connect_after (attachments, "items-changed", G_CALLBACK (attachments_changed_cb), self);
  update (self);

  return GTK_WIDGET (self);
}

/**
 * pal_attachment_bar_set_accepts_images:
 * @self: a #PalAttachmentBar
 * @accepts: whether the agent takes images
 */
void
pal_attachment_bar_set_accepts_images (PalAttachmentBar *self,
                                       gboolean          accepts)
{
  g_return_if_fail (PAL_IS_ATTACHMENT_BAR (self));

  accepts = !!accepts;
  if (self->accepts_images == accepts)
    return;

  self->accepts_images = accepts;
  update (self);
}

gboolean
pal_attachment_bar_get_accepts_images (PalAttachmentBar *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT_BAR (self), TRUE);

  return self->accepts_images;
}

gboolean
pal_attachment_bar_get_refusing (PalAttachmentBar *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT_BAR (self), FALSE);

  return gtk_widget_get_visible (self->notice);
}
