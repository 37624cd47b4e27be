/* pal-notice-row.c: a notice, an error, or an update the client does not know
 *
 * The icon says what the notice is: an error, a warning, or information
 * (an "i" of our own: Adwaita 43's dialog-information is a light bulb,
 * which reads as a hint).
 *
 * Errors offer Retry (the window's win.retry-session action, enabled while
 * the session has failed; the button shows only then) and keep technical
 * details, such as the agent's stderr, behind an expander. Unknown update
 * variants are shown the same way with their JSON, so nothing an agent
 * sends disappears silently.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-generic-item.h"
#include "acp-notice-item.h"
#include "pal-a11y.h"
#include "pal-markdown.h"
#include "pal-notice-row.h"

/* The icon of information (see the top of the file) */
#define INFORMATION_ICON "pal-information-symbolic"

struct _PalNoticeRow
{
  AdwBin       parent_instance;

  AcpItem     *item;
  GtkImage    *icon;
  GtkLabel    *title_label;
  GtkLabel    *body_label;
  GtkExpander *details_expander;
  GtkLabel    *details_label;
  GtkButton   *retry_button;
  GtkWidget   *log_button;   /* errors: what the agent said and wrote */
  gboolean     retries;      /* an error: Retry shows while it can be done */
};

G_DEFINE_FINAL_TYPE (PalNoticeRow, pal_notice_row, ADW_TYPE_BIN)

static void
set_label (GtkLabel   *label,
           const char *text)
{
  gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}

/* A Retry that cannot be done (a failed turn of a session that still runs)
 * is not shown greyed out: it is not shown. */
static void
update_retry (PalNoticeRow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button),
                          self->retries && gtk_widget_get_sensitive (GTK_WIDGET (self->retry_button)));
}

static void
update (PalNoticeRow *self)
{
  if (ACP_IS_NOTICE_ITEM (self->item))
    {
      AcpNoticeItem *notice = ACP_NOTICE_ITEM (self->item);
      AcpNoticeSeverity severity = acp_notice_item_get_severity (notice);
      const char *details = acp_notice_item_get_details (notice);
      const char *icon;

      switch (severity)
        {
        case ACP_NOTICE_SEVERITY_ERROR:
          icon = "dialog-error-symbolic";
          break;
        case ACP_NOTICE_SEVERITY_WARNING:
          icon = "dialog-warning-symbolic";
          break;
        case ACP_NOTICE_SEVERITY_INFO:
        default:
          icon = INFORMATION_ICON;
          break;
        }

      gtk_image_set_from_icon_name (self->icon, icon);
      set_label (self->title_label, acp_notice_item_get_title (notice));
      set_label (self->body_label, acp_notice_item_get_body (notice));
      gtk_label_set_text (self->details_label, details);
      gtk_widget_set_visible (GTK_WIDGET (self->details_expander), details != NULL && *details != '\0');
      self->retries = severity == ACP_NOTICE_SEVERITY_ERROR;
      update_retry (self);
      gtk_widget_set_visible (self->log_button, severity == ACP_NOTICE_SEVERITY_ERROR);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      severity == ACP_NOTICE_SEVERITY_ERROR ? _("Error")
                                      : severity == ACP_NOTICE_SEVERITY_WARNING ? _("Warning")
                                      : _("Information"), -1);
      gtk_widget_remove_css_class (GTK_WIDGET (self), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self), "warning");
      if (severity == ACP_NOTICE_SEVERITY_ERROR)
        gtk_widget_add_css_class (GTK_WIDGET (self), "error");
      else if (severity == ACP_NOTICE_SEVERITY_WARNING)
        gtk_widget_add_css_class (GTK_WIDGET (self), "warning");
    }
  else if (ACP_IS_GENERIC_ITEM (self->item))
    {
      AcpGenericItem *generic = ACP_GENERIC_ITEM (self->item);
      g_autofree char *title = NULL;
      g_autofree char *update = acp_generic_item_dup_update_json (generic);

      /* Translators: %s is the name of an update kind the app does not know */
      title = g_strdup_printf (_("The agent sent an update this version does not show: “%s”"),
                               acp_generic_item_get_update_name (generic));

      gtk_image_set_from_icon_name (self->icon, INFORMATION_ICON);
      set_label (self->title_label, title);
      set_label (self->body_label, NULL);
      gtk_label_set_text (self->details_label, update);
      gtk_widget_set_visible (GTK_WIDGET (self->details_expander), TRUE);
      self->retries = FALSE;
      update_retry (self);
      gtk_widget_set_visible (self->log_button, FALSE);
    }

  /* what a screen reader says of the row: its title */
  pal_a11y_set_label (GTK_WIDGET (self), gtk_label_get_text (self->title_label));
}

static void
item_notify_cb (GObject      *item,
                GParamSpec   *pspec,
                PalNoticeRow *self)
{
  update (self);
}

static void
pal_notice_row_dispose (GObject *object)
{
  PalNoticeRow *self = PAL_NOTICE_ROW (object);

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (pal_notice_row_parent_class)->dispose (object);
}

static void
pal_notice_row_class_init (PalNoticeRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_notice_row_dispose;

  gtk_widget_class_set_css_name (widget_class, "noticerow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
pal_notice_row_init (PalNoticeRow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  gtk_widget_add_css_class (box, "notice");

  self->icon = GTK_IMAGE (gtk_image_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->icon), GTK_ALIGN_START);

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_wrap (self->title_label, TRUE);
  gtk_label_set_wrap_mode (self->title_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->title_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");
  /* what went wrong often names a path or a command */
  pal_label_set_no_hyphens (self->title_label);

  self->body_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->body_label, 0);
  gtk_label_set_wrap (self->body_label, TRUE);
  gtk_label_set_wrap_mode (self->body_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->body_label, TRUE);
  pal_label_set_no_hyphens (self->body_label);

  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->body_label));
  gtk_widget_set_hexpand (texts, TRUE);

  self->retry_button = GTK_BUTTON (pal_a11y_mnemonic_button_new (_("_Retry")));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->retry_button), "win.retry-session");
  gtk_widget_set_valign (GTK_WIDGET (self->retry_button), GTK_ALIGN_START);
  g_signal_connect_swapped (self->retry_button, "notify::sensitive", G_CALLBACK (update_retry), self);

  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->icon));
  gtk_box_append (GTK_BOX (header), texts);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->retry_button));

  self->log_button = pal_a11y_mnemonic_button_new (_("Agent _Log"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->log_button), "win.show-agent-log");
  gtk_widget_set_valign (self->log_button, GTK_ALIGN_START);
  gtk_widget_set_visible (self->log_button, FALSE);
  gtk_box_append (GTK_BOX (header), self->log_button);

  self->details_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->details_label, 0);
  gtk_label_set_wrap (self->details_label, TRUE);
  gtk_label_set_wrap_mode (self->details_label, PANGO_WRAP_CHAR);
  gtk_label_set_selectable (self->details_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->details_label), "monospace");
  pal_label_set_no_hyphens (self->details_label);
  self->details_expander = GTK_EXPANDER (gtk_expander_new (_("Details")));
  pal_a11y_set_label (GTK_WIDGET (self->details_expander), _("Details"));
  gtk_expander_set_child (self->details_expander, GTK_WIDGET (self->details_label));

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->details_expander));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
pal_notice_row_new (AcpItem *item)
{
  PalNoticeRow *self;

  g_return_val_if_fail (ACP_IS_NOTICE_ITEM (item) || ACP_IS_GENERIC_ITEM (item), NULL);

  self = g_object_new (PAL_TYPE_NOTICE_ROW, NULL);
  self->item = g_object_ref (item);
  update (self);
  g_signal_connect_object (item, "notify", G_CALLBACK (item_notify_cb), self, 0);

  return GTK_WIDGET (self);
}
