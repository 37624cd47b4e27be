/* pal-plan-row.c: the agent's plan: a checklist, Markdown text or a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-markdown-view.h"
#include "pal-a11y.h"
#include "pal-plan-row.h"
#include "pal-tooltip.h"

struct _PalPlanRow
{
  AdwBin            parent_instance;

  AcpPlanItem      *item;
  GCancellable     *cancellable;    /* opening the file */
  GtkWidget        *card;
  GtkLabel         *title_label;
  GtkBox           *entries_box;
  PalMarkdownView  *markdown_view;  /* (nullable): made for a Markdown plan */
  GtkWidget        *file_button;    /* opens a local file */
  AdwButtonContent *file_content;
  GtkLabel         *uri_label;      /* any other URI, as text */
  GtkLabel         *error_label;    /* why the file did not open */
  guint             n_entries;
  guint             n_done;
};

G_DEFINE_FINAL_TYPE (PalPlanRow, pal_plan_row, ADW_TYPE_BIN)

static void
update_entries (PalPlanRow *self)
{
  GListModel *entries = acp_plan_item_get_entries (self->item);
  guint n = g_list_model_get_n_items (entries);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->entries_box))) != NULL)
    gtk_box_remove (self->entries_box, child);

  self->n_entries = n;
  self->n_done = 0;
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
          self->n_done++;
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
}

/* Shows the plan as what it is now: the title, and the checklist, the
 * Markdown text or the file; a removed plan is a dimmed title alone. */
static void
update_form (PalPlanRow *self)
{
  AcpPlanForm form = acp_plan_item_get_form (self->item);
  gboolean removed = acp_plan_item_get_removed (self->item);
  const char *uri = acp_plan_item_get_uri (self->item);
  g_autofree char *path = NULL;
  g_autofree char *title = NULL;

  if (form == ACP_PLAN_FORM_MARKDOWN && self->markdown_view == NULL)
    {
      self->markdown_view = PAL_MARKDOWN_VIEW (pal_markdown_view_new ());
      gtk_box_insert_child_after (GTK_BOX (self->card), GTK_WIDGET (self->markdown_view),
                                  GTK_WIDGET (self->entries_box));
    }
  if (self->markdown_view != NULL)
    {
      pal_markdown_view_set_text (self->markdown_view, acp_plan_item_get_markdown (self->item));
      gtk_widget_set_visible (GTK_WIDGET (self->markdown_view),
                              !removed && form == ACP_PLAN_FORM_MARKDOWN);
    }

  /* a local file opens with the desktop's application for it; whatever
   * else the agent sent (another scheme, another host) is only shown */
  if (form == ACP_PLAN_FORM_FILE && uri != NULL && g_str_has_prefix (uri, "file://"))
    {
      g_autofree char *host = NULL;

      path = g_filename_from_uri (uri, &host, NULL);
      if (host != NULL && g_ascii_strcasecmp (host, "localhost") != 0)
        g_clear_pointer (&path, g_free);
    }
  if (path != NULL)
    {
      g_autofree char *name = g_filename_display_basename (path);
      g_autofree char *shown = g_filename_display_name (path);
      /* Translators: the tooltip of a plan's file; %s is its path */
      g_autofree char *tooltip = g_strdup_printf (_("Open %s"), shown);

      adw_button_content_set_label (self->file_content, name);
      gtk_widget_set_tooltip_text (self->file_button, tooltip);
    }
  gtk_label_set_text (self->uri_label, path == NULL && uri != NULL ? uri : "");
  gtk_widget_set_visible (self->file_button, !removed && path != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->uri_label),
                          !removed && form == ACP_PLAN_FORM_FILE && path == NULL);

  gtk_widget_set_visible (GTK_WIDGET (self->entries_box), !removed && form == ACP_PLAN_FORM_ITEMS);

  if (removed)
    title = g_strdup (_("Plan removed"));
  else if (form == ACP_PLAN_FORM_ITEMS)
    /* Translators: the plan's header, e.g. “Plan (2 of 5 done)” */
    title = g_strdup_printf (_("Plan (%u of %u done)"), self->n_done, self->n_entries);
  else
    title = g_strdup (_("Plan"));
  gtk_label_set_text (self->title_label, title);

  if (removed)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self), "removed");
      gtk_widget_add_css_class (self->card, "dim-label");
    }
}

static void
item_notify_entries_cb (AcpPlanItem *item,
                        GParamSpec  *pspec,
                        PalPlanRow  *self)
{
  update_entries (self);
  update_form (self);
}

/* the form, the text, the URI or the removal: a failure to open the file
 * is about a file no longer shown */
static void
item_notify_cb (AcpPlanItem *item,
                GParamSpec  *pspec,
                PalPlanRow  *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  update_form (self);
}

static void
show_uri_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PalPlanRow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    return;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  {
    /* Translators: %s says why, as the system put it */
    g_autofree char *message = g_strdup_printf (_("The file could not be opened: %s"),
                                                error->message);

    gtk_label_set_text (self->error_label, message);
    gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
  }
}

static void
file_button_clicked_cb (GtkButton  *button,
                        PalPlanRow *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  const char *uri = acp_plan_item_get_uri (self->item);

  if (uri == NULL)
    return;

  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_show_uri_full (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME,
                     self->cancellable, show_uri_cb, g_object_ref (self));
}

static void
pal_plan_row_dispose (GObject *object)
{
  PalPlanRow *self = PAL_PLAN_ROW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (pal_plan_row_parent_class)->dispose (object);
}

static void
pal_plan_row_finalize (GObject *object)
{
  PalPlanRow *self = PAL_PLAN_ROW (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (pal_plan_row_parent_class)->finalize (object);
}

static void
pal_plan_row_class_init (PalPlanRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_plan_row_dispose;
  object_class->finalize = pal_plan_row_finalize;

  gtk_widget_class_set_css_name (widget_class, "planrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static GtkLabel *
wrapping_label (void)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_xalign (label, 0);
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);

  return label;
}

static void
pal_plan_row_init (PalPlanRow *self)
{
  self->cancellable = g_cancellable_new ();

  pal_a11y_set_label (GTK_WIDGET (self), _("Plan"));

  self->card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (self->card, "card");
  gtk_widget_add_css_class (self->card, "plan");

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");
  self->entries_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));

  self->file_content = ADW_BUTTON_CONTENT (adw_button_content_new ());
  adw_button_content_set_icon_name (self->file_content, "document-open-symbolic");
  adw_button_content_set_use_underline (self->file_content, FALSE);
  self->file_button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (self->file_button), GTK_WIDGET (self->file_content));
  gtk_widget_set_halign (self->file_button, GTK_ALIGN_START);
  g_signal_connect (self->file_button, "clicked", G_CALLBACK (file_button_clicked_cb), self);

  self->uri_label = wrapping_label ();
  gtk_label_set_selectable (self->uri_label, TRUE);
  self->error_label = wrapping_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);

  gtk_box_append (GTK_BOX (self->card), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (self->card), GTK_WIDGET (self->entries_box));
  gtk_box_append (GTK_BOX (self->card), self->file_button);
  gtk_box_append (GTK_BOX (self->card), GTK_WIDGET (self->uri_label));
  gtk_box_append (GTK_BOX (self->card), GTK_WIDGET (self->error_label));
  adw_bin_set_child (ADW_BIN (self), self->card);
}

GtkWidget *
pal_plan_row_new (AcpPlanItem *item)
{
  PalPlanRow *self;

  g_return_val_if_fail (ACP_IS_PLAN_ITEM (item), NULL);

  self = g_object_new (PAL_TYPE_PLAN_ROW, NULL);
  self->item = g_object_ref (item);
  update_entries (self);
  update_form (self);
  g_signal_connect_object (item, "notify::entries", G_CALLBACK (item_notify_entries_cb), self, 0);
  g_signal_connect_object (item, "notify::form", G_CALLBACK (item_notify_cb), self, 0);
  g_signal_connect_object (item, "notify::markdown", G_CALLBACK (item_notify_cb), self, 0);
  g_signal_connect_object (item, "notify::uri", G_CALLBACK (item_notify_cb), self, 0);
  g_signal_connect_object (item, "notify::removed", G_CALLBACK (item_notify_cb), self, 0);

  return GTK_WIDGET (self);
}
