/* pal-permission-row.c: a permission request of the agent, as a card
 *
 * One button per option the agent offers; once answered (or cancelled with
 * the turn) the buttons give way to the answer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-json.h"
#include "pal-permission-row.h"

struct _PalPermissionRow
{
  AdwBin             parent_instance;

  AcpPermissionItem *item;
  GtkLabel          *title_label;
  GtkBox            *buttons_box;
  GtkLabel          *answer_label;
};

G_DEFINE_FINAL_TYPE (PalPermissionRow, pal_permission_row, ADW_TYPE_BIN)

static const char *
option_name (PalPermissionRow *self,
             const char       *option_id)
{
  JsonArray *options = acp_permission_item_get_options (self->item);
  guint n = options != NULL ? json_array_get_length (options) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonObject *option = acp_json_array_get_object (options, i);

      if (option != NULL &&
          g_strcmp0 (acp_json_get_string (option, "optionId", NULL), option_id) == 0)
        return acp_json_get_string (option, "name", option_id);
    }

  return option_id;
}

static void
update_state (PalPermissionRow *self)
{
  AcpPermissionState state = acp_permission_item_get_state (self->item);
  g_autofree char *answer = NULL;

  switch (state)
    {
    case ACP_PERMISSION_STATE_SELECTED:
      /* Translators: %s is the option chosen, e.g. “Allow once” */
      answer = g_strdup_printf (_("Answered: %s"),
                                option_name (self, acp_permission_item_get_selected_option_id (self->item)));
      break;

    case ACP_PERMISSION_STATE_CANCELLED:
      answer = g_strdup (_("Cancelled"));
      break;

    case ACP_PERMISSION_STATE_PENDING:
    default:
      break;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->buttons_box), answer == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->answer_label), answer != NULL);
  gtk_label_set_text (self->answer_label, answer);

  if (answer == NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self), "pending");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "pending");
}

static void
option_clicked_cb (GtkButton        *button,
                   PalPermissionRow *self)
{
  const char *option_id = g_object_get_data (G_OBJECT (button), "option-id");
  g_autoptr(GError) error = NULL;

  if (!acp_permission_item_select (self->item, option_id, &error))
    g_debug ("Could not answer the permission request: %s", error->message);
}

static void
item_notify_state_cb (AcpPermissionItem *item,
                      GParamSpec        *pspec,
                      PalPermissionRow  *self)
{
  update_state (self);
}

static void
build (PalPermissionRow *self)
{
  JsonObject *tool_call = acp_permission_item_get_tool_call (self->item);
  JsonArray *options = acp_permission_item_get_options (self->item);
  guint n = options != NULL ? json_array_get_length (options) : 0;
  const char *title = NULL;
  g_autofree char *heading = NULL;

  if (tool_call != NULL)
    title = acp_json_get_string (tool_call, "title", NULL);

  if (title != NULL && *title != '\0')
    /* Translators: %s is what the agent wants to do, e.g. “Write main.c” */
    heading = g_strdup_printf (_("The agent asks for permission: %s"), title);
  else
    heading = g_strdup (_("The agent asks for permission"));
  gtk_label_set_text (self->title_label, heading);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *option = acp_json_array_get_object (options, i);
      const char *kind, *name, *option_id;
      GtkWidget *button;

      if (option == NULL)
        continue;
      option_id = acp_json_get_string (option, "optionId", NULL);
      name = acp_json_get_string (option, "name", option_id);
      kind = acp_json_get_string (option, "kind", "");
      if (option_id == NULL)
        continue;

      button = gtk_button_new_with_label (name);
      g_object_set_data_full (G_OBJECT (button), "option-id", g_strdup (option_id), g_free);
      if (g_str_equal (kind, "allow_once"))
        gtk_widget_add_css_class (button, "suggested-action");
      else if (g_str_equal (kind, "reject_always"))
        gtk_widget_add_css_class (button, "destructive-action");
      g_signal_connect (button, "clicked", G_CALLBACK (option_clicked_cb), self);
      gtk_box_append (self->buttons_box, button);
    }

  update_state (self);
}

static void
pal_permission_row_dispose (GObject *object)
{
  PalPermissionRow *self = PAL_PERMISSION_ROW (object);

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (pal_permission_row_parent_class)->dispose (object);
}

static void
pal_permission_row_class_init (PalPermissionRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_permission_row_dispose;

  gtk_widget_class_set_css_name (widget_class, "permissionrow");
}

static void
pal_permission_row_init (PalPermissionRow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "permission");

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_wrap (self->title_label, TRUE);
  gtk_label_set_wrap_mode (self->title_label, PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (GTK_WIDGET (self->title_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");

  gtk_box_append (GTK_BOX (header), gtk_image_new_from_icon_name ("dialog-question-symbolic"));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->title_label));

  self->buttons_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));
  gtk_widget_set_halign (GTK_WIDGET (self->buttons_box), GTK_ALIGN_END);

  self->answer_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->answer_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->answer_label), "dim-label");

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->buttons_box));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->answer_label));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
pal_permission_row_new (AcpPermissionItem *item)
{
  PalPermissionRow *self;

  g_return_val_if_fail (ACP_IS_PERMISSION_ITEM (item), NULL);

  self = g_object_new (PAL_TYPE_PERMISSION_ROW, NULL);
  self->item = g_object_ref (item);
  build (self);
  g_signal_connect_object (item, "notify::state", G_CALLBACK (item_notify_state_cb), self, 0);

  return GTK_WIDGET (self);
}
