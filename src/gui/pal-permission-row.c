/* pal-permission-row.c: a permission request of the agent, as a card
 *
 * One button per option the agent offers, in a row, or one above the other
 * with their names wrapped where the row would not fit; more than
 * FEW_OPTIONS options are a list instead, which
 * scrolls within LIST_MAX_HEIGHT pixels when there are more than
 * LIST_ROWS_SHOWN of them. However many options and however long their
 * names, the card is never wider than the chat. A request without options
 * says so, and can be refused (the agent is told "cancelled", as for a
 * turn that was stopped). Once answered (or cancelled with the turn) the
 * options give way to the answer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "pal-a11y.h"
#include "pal-markdown.h"
#include "pal-permission-row.h"

/* Up to this many options are buttons; more are a list */
#define FEW_OPTIONS     4
/* A list of more options than this scrolls within */
#define LIST_ROWS_SHOWN 8
#define LIST_MAX_HEIGHT 320
/* Bytes of the title rendered */
#define MAX_TITLE       (64 * 1024)

struct _PalPermissionRow
{
  AdwBin             parent_instance;

  AcpPermissionItem *item;
  GtkLabel          *title_label;
  GtkWidget         *options_box;  /* what answers: buttons, a list, or a refusal */
  GtkLabel          *answer_label;
};

G_DEFINE_FINAL_TYPE (PalPermissionRow, pal_permission_row, ADW_TYPE_BIN)

static const char *
option_name (PalPermissionRow *self,
             const char       *option_id)
{
  GListModel *options = acp_permission_item_get_options (self->item);
  guint n = g_list_model_get_n_items (options);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpPermissionOption) option = g_list_model_get_item (options, i);

      if (g_strcmp0 (acp_permission_option_get_id (option), option_id) == 0)
        return acp_permission_option_get_name (option);
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

  gtk_widget_set_visible (self->options_box, answer == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->answer_label), answer != NULL);
  gtk_label_set_text (self->answer_label, answer);

  /* what a screen reader says of the row: the request, and its answer */
  {
    g_autofree char *name = g_strdup_printf ("%s. %s", gtk_label_get_text (self->title_label),
                                             answer != NULL ? answer : _("Waiting for an answer"));

    pal_a11y_set_label (GTK_WIDGET (self), name);
  }

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

static const char *
kind_icon (AcpPermissionOptionKind kind)
{
  switch (kind)
    {
    case ACP_PERMISSION_OPTION_KIND_ALLOW_ONCE:
    case ACP_PERMISSION_OPTION_KIND_ALLOW_ALWAYS:
      return "object-select-symbolic";

    case ACP_PERMISSION_OPTION_KIND_REJECT_ONCE:
    case ACP_PERMISSION_OPTION_KIND_REJECT_ALWAYS:
      return "window-close-symbolic";

    case ACP_PERMISSION_OPTION_KIND_UNKNOWN:
    default:
      return "dialog-question-symbolic";
    }
}

/* A label that wraps anywhere it must: a long text never widens the card */
static GtkWidget *
wrapping_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_WORD);

  return label;
}

static GtkWidget *
option_button (PalPermissionRow    *self,
               AcpPermissionOption *option,
               gboolean             wrap)
{
  const char *name = acp_permission_option_get_name (option);
  AcpPermissionOptionKind kind = acp_permission_option_get_kind (option);
  GtkWidget *button = gtk_button_new_with_label (name);
  GtkLabel *label = GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button)));
  g_autofree char *markup = pal_markdown_to_markup (name, -1);

  /* Claude's names hold commands in backticks too */
  gtk_label_set_markup (label, markup);

  if (wrap)
    {
      gtk_label_set_wrap (label, TRUE);
      gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
      gtk_label_set_natural_wrap_mode (label, GTK_NATURAL_WRAP_WORD);
      gtk_label_set_justify (label, GTK_JUSTIFY_CENTER);
    }
  g_object_set_data_full (G_OBJECT (button), "option-id",
                          g_strdup (acp_permission_option_get_id (option)), g_free);
  if (kind == ACP_PERMISSION_OPTION_KIND_ALLOW_ONCE)
    gtk_widget_add_css_class (button, "suggested-action");
  else if (kind == ACP_PERMISSION_OPTION_KIND_REJECT_ALWAYS)
    gtk_widget_add_css_class (button, "destructive-action");
  g_signal_connect (button, "clicked", G_CALLBACK (option_clicked_cb), self);

  return button;
}

/* A few options: buttons in a row where their names fit on one line, else
 * one above the other, their names wrapped. (GTK 4.8's flow box gives
 * buttons whose labels wrap negative widths.) */
static GtkWidget *
build_buttons (PalPermissionRow *self,
               GListModel       *options)
{
  GtkWidget *squeezer = adw_squeezer_new ();
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  guint n = g_list_model_get_n_items (options);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpPermissionOption) option = g_list_model_get_item (options, i);

      gtk_box_append (GTK_BOX (row), option_button (self, option, FALSE));
      gtk_box_append (GTK_BOX (column), option_button (self, option, TRUE));
    }

  gtk_widget_set_halign (row, GTK_ALIGN_END);
  adw_squeezer_set_homogeneous (ADW_SQUEEZER (squeezer), FALSE);
  adw_squeezer_set_transition_type (ADW_SQUEEZER (squeezer), ADW_SQUEEZER_TRANSITION_TYPE_NONE);
  adw_squeezer_add (ADW_SQUEEZER (squeezer), row);
  adw_squeezer_add (ADW_SQUEEZER (squeezer), column);

  return squeezer;
}

static void
list_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *label = wrapping_label (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), gtk_image_new ());
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (list_item, box);
}

static void
list_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  AcpPermissionOption *option = gtk_list_item_get_item (list_item);
  g_autofree char *markup = NULL;

  gtk_image_set_from_icon_name (GTK_IMAGE (gtk_widget_get_first_child (box)),
                                kind_icon (acp_permission_option_get_kind (option)));
  markup = pal_markdown_to_markup (acp_permission_option_get_name (option), -1);
  gtk_label_set_markup (GTK_LABEL (gtk_widget_get_last_child (box)), markup);
}

static void
list_activate_cb (GtkListView      *list_view,
                  guint             position,
                  PalPermissionRow *self)
{
  g_autoptr(AcpPermissionOption) option = g_list_model_get_item (acp_permission_item_get_options (self->item),
                                                                 position);
  g_autoptr(GError) error = NULL;

  if (option == NULL)
    return;
  if (!acp_permission_item_select (self->item, acp_permission_option_get_id (option), &error))
    g_debug ("Could not answer the permission request: %s", error->message);
}

/* Many options: a list of them, only the rows on screen built */
static GtkWidget *
build_list (PalPermissionRow *self,
            GListModel       *options)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *list_view, *scroller;

  g_signal_connect (factory, "setup", G_CALLBACK (list_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (list_bind_cb), NULL);
  list_view = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (options))),
                                 factory);
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (list_view), TRUE);
  gtk_widget_add_css_class (list_view, "permission-options");
  g_signal_connect (list_view, "activate", G_CALLBACK (list_activate_cb), self);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), list_view);
  gtk_widget_add_css_class (scroller, "permission-options-frame");
  if (g_list_model_get_n_items (options) > LIST_ROWS_SHOWN)
    {
      /* as tall when laid out as when measured: the chat gives a row its
       * minimum height */
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), LIST_MAX_HEIGHT);
      gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), LIST_MAX_HEIGHT);
    }
  else
    {
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_NEVER);
    }

  return scroller;
}

static void
refuse_clicked_cb (GtkButton        *button,
                   PalPermissionRow *self)
{
  acp_permission_item_cancel (self->item);
}

/* No options: nothing to allow, but the agent waits for an answer */
static GtkWidget *
build_refusal (PalPermissionRow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = wrapping_label (_("The agent offered no choices."));
  GtkWidget *button = pal_a11y_mnemonic_button_new (_("_Reject"));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Tell the agent it may not go on"));
  gtk_widget_add_css_class (button, "destructive-action");
  g_signal_connect (button, "clicked", G_CALLBACK (refuse_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), button);

  return box;
}

static void
build (PalPermissionRow *self)
{
  AcpToolCallItem *tool_call = acp_permission_item_get_tool_call_snapshot (self->item);
  GListModel *options = acp_permission_item_get_options (self->item);
  guint n = g_list_model_get_n_items (options);
  const char *title = acp_tool_call_item_get_title (tool_call);
  g_autofree char *heading = NULL;
  GtkWidget *box = gtk_widget_get_parent (GTK_WIDGET (self->answer_label));

  if (*title != '\0')
    {
      /* Claude writes Markdown there: the command in backticks */
      g_autofree char *markup = pal_markdown_to_markup (title, (gssize) strnlen (title, MAX_TITLE));
      g_autofree char *format = NULL;
      g_auto(GStrv) parts = NULL;

      /* Translators: %s is what the agent wants to do, e.g. “Write main.c” */
      format = g_markup_escape_text (_("The agent asks for permission: %s"), -1);
      /* the title's markup in place of %s (printf would take it as a format) */
      parts = g_strsplit (format, "%s", 2);
      heading = g_strjoinv (markup, parts);
      gtk_label_set_markup (self->title_label, heading);
    }
  else
    {
      gtk_label_set_text (self->title_label, _("The agent asks for permission"));
    }

  if (n == 0)
    self->options_box = build_refusal (self);
  else if (n <= FEW_OPTIONS)
    self->options_box = build_buttons (self, options);
  else
    self->options_box = build_list (self, options);
  gtk_box_insert_child_after (GTK_BOX (box), self->options_box, gtk_widget_get_first_child (box));

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
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
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

  self->answer_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->answer_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->answer_label), "dim-label");

  gtk_box_append (GTK_BOX (box), header);
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
