/* pal-plan-row.c: the agent's plan, as a checklist
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-plan-row.h"
#include "pal-tooltip.h"

struct _PalPlanRow
{
  AdwBin       parent_instance;

  AcpPlanItem *item;
  GtkLabel    *title_label;
  GtkBox      *entries_box;
};

G_DEFINE_FINAL_TYPE (PalPlanRow, pal_plan_row, ADW_TYPE_BIN)

static void
update_entries (PalPlanRow *self)
{
  GListModel *entries = acp_plan_item_get_entries (self->item);
  guint n = g_list_model_get_n_items (entries);
  guint done = 0;
  g_autofree char *title = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->entries_box))) != NULL)
    gtk_box_remove (self->entries_box, child);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpPlanEntry) entry = g_list_model_get_item (entries, i);
      AcpPlanEntryStatus status = acp_plan_entry_get_status (entry);
      const char *icon, *tooltip;
      GtkWidget *row, *image, *label;

      if (status == ACP_PLAN_ENTRY_STATUS_COMPLETED)
        {
          icon = "checkbox-checked-symbolic";
          tooltip = C_("plan entry status", "Completed");
          done++;
        }
      else if (status == ACP_PLAN_ENTRY_STATUS_IN_PROGRESS)
        {
          icon = "media-playback-start-symbolic";
          tooltip = C_("plan entry status", "In progress");
        }
      else
        {
          /* pending, or a status this version does not know */
          icon = "checkbox-symbolic";
          tooltip = C_("plan entry status", "Pending");
        }

      row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      image = gtk_image_new_from_icon_name (icon);
      pal_widget_set_quiet_tooltip (image, tooltip);
      gtk_widget_set_valign (image, GTK_ALIGN_START);
      label = gtk_label_new (acp_plan_entry_get_content (entry));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_set_hexpand (label, TRUE);
      if (status == ACP_PLAN_ENTRY_STATUS_COMPLETED)
        gtk_widget_add_css_class (label, "dim-label");
      if (status == ACP_PLAN_ENTRY_STATUS_IN_PROGRESS)
        gtk_widget_add_css_class (label, "heading");

      gtk_box_append (GTK_BOX (row), image);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (self->entries_box, row);
    }

  /* Translators: the plan's header, e.g. “Plan (2 of 5 done)” */
  title = g_strdup_printf (_("Plan (%u of %u done)"), done, n);
  gtk_label_set_text (self->title_label, title);
}

static void
item_notify_entries_cb (AcpPlanItem *item,
                        GParamSpec  *pspec,
                        PalPlanRow  *self)
{
  update_entries (self);
}

static void
pal_plan_row_dispose (GObject *object)
{
  PalPlanRow *self = PAL_PLAN_ROW (object);

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (pal_plan_row_parent_class)->dispose (object);
}

static void
pal_plan_row_class_init (PalPlanRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_plan_row_dispose;

  gtk_widget_class_set_css_name (widget_class, "planrow");
}

static void
pal_plan_row_init (PalPlanRow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "plan");

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");
  self->entries_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->entries_box));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
pal_plan_row_new (AcpPlanItem *item)
{
  PalPlanRow *self;

  g_return_val_if_fail (ACP_IS_PLAN_ITEM (item), NULL);

  self = g_object_new (PAL_TYPE_PLAN_ROW, NULL);
  self->item = g_object_ref (item);
  update_entries (self);
  g_signal_connect_object (item, "notify::entries", G_CALLBACK (item_notify_entries_cb), self, 0);

  return GTK_WIDGET (self);
}
