/* pal-prompt-queue-view.c: the prompts queued in a session, above the composer
 *
 * Shows a PalPromptQueue while it has entries (or one is being edited): a
 * line that says what the queue does or why it waits, with Resume while it
 * waits, then one row per entry, its text and its buttons: Send Now, Edit,
 * Move Up, Move Down, Remove. Moving and removing change the queue here;
 * the rest is the session view's, through the signals "send-now", "edit"
 * (with the entry's position) and "resume".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-prompt-queue-view.h"

struct _PalPromptQueueView
{
  AdwBin          parent_instance;

  PalPromptQueue *queue;
  char           *notice;

  GtkLabel       *status_label;
  GtkWidget      *resume_button;
  GtkListBox     *list;
};

enum {
  SEND_NOW,
  EDIT,
  RESUME,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalPromptQueueView, pal_prompt_queue_view, ADW_TYPE_BIN)

static void
update_status (PalPromptQueueView *self)
{
  guint n = self->queue != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->queue)) : 0;
  gboolean editing = self->queue != NULL && pal_prompt_queue_get_editing (self->queue);
  const char *reason = self->queue != NULL ? pal_prompt_queue_get_waiting_reason (self->queue) : NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), n > 0 || editing);
  gtk_widget_set_visible (self->resume_button, reason != NULL || editing);

  if (self->notice != NULL)
    text = g_strdup (self->notice);
  else if (self->queue != NULL && pal_prompt_queue_get_sending_now (self->queue))
    text = g_strdup (_("Stopping the turn to send the first prompt…"));
  else if (reason != NULL)
    /* Translators: %s says why, e.g. “The agent refused to continue.” */
    text = g_strdup_printf (_("Queue paused. %s"), reason);
  else if (editing)
    text = g_strdup (_("Queue paused while you edit a prompt: send it to put it back."));
  else
    text = g_strdup_printf (ngettext ("%u prompt queued, sent when the agent finishes",
                                      "%u prompts queued, sent one by one as the agent finishes",
                                      n),
                            n);

  gtk_label_set_text (self->status_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "warning");
  if (reason != NULL && self->notice == NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "warning");
}

/* Move Up on the first row and Move Down on the last do nothing */
static void
update_rows (PalPromptQueueView *self)
{
  guint n = self->queue != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->queue)) : 0;

  for (guint i = 0; i < n; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list, (int) i);

      if (row == NULL)
        continue;
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), "move-up"), i > 0);
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), "move-down"), i + 1 < n);
    }
}

static int
position_of (GtkWidget *button)
{
  GtkWidget *row = gtk_widget_get_ancestor (button, GTK_TYPE_LIST_BOX_ROW);

  return row != NULL ? gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)) : -1;
}

static void
row_button_clicked_cb (GtkButton          *button,
                       PalPromptQueueView *self)
{
  const char *what = g_object_get_data (G_OBJECT (button), "what");
  int position = position_of (GTK_WIDGET (button));
  guint n = self->queue != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->queue)) : 0;

  if (position < 0 || (guint) position >= n)
    return;

  pal_prompt_queue_view_set_notice (self, NULL);
  if (g_str_equal (what, "send-now"))
    g_signal_emit (self, signals[SEND_NOW], 0, (guint) position);
  else if (g_str_equal (what, "edit"))
    g_signal_emit (self, signals[EDIT], 0, (guint) position);
  else if (g_str_equal (what, "move-up") && position > 0)
    pal_prompt_queue_move (self->queue, (guint) position, (guint) position - 1);
  else if (g_str_equal (what, "move-down") && (guint) position + 1 < n)
    pal_prompt_queue_move (self->queue, (guint) position, (guint) position + 1);
  else if (g_str_equal (what, "remove"))
    pal_prompt_queue_remove (self->queue, (guint) position);
}

static GtkWidget *
add_button (PalPromptQueueView *self,
            GtkWidget          *box,
            GtkWidget          *row,
            const char         *what,
            const char         *icon_name,
            const char         *label)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "circular");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (button), "what", (gpointer) what);
  g_signal_connect (button, "clicked", G_CALLBACK (row_button_clicked_cb), self);
  g_object_set_data (G_OBJECT (row), what, button);
  gtk_box_append (GTK_BOX (box), button);

  return button;
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  PalPromptQueueView *self = user_data;
  PalPrompt *prompt = PAL_PROMPT (item);
  const char *text = pal_prompt_get_text (prompt);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_tooltip_text (label, text);
  gtk_box_append (GTK_BOX (box), label);

  add_button (self, box, row, "send-now", "mail-send-symbolic", _("Send Now"));
  add_button (self, box, row, "edit", "document-edit-symbolic", _("Edit"));
  add_button (self, box, row, "move-up", "go-up-symbolic", _("Move Up"));
  add_button (self, box, row, "move-down", "go-down-symbolic", _("Move Down"));
  add_button (self, box, row, "remove", "edit-delete-symbolic", _("Remove"));

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);

  return row;
}

static void
queue_items_changed_cb (GListModel         *model,
                        guint               position,
                        guint               removed,
                        guint               added,
                        PalPromptQueueView *self)
{
  update_rows (self);
  update_status (self);
}

static void
queue_notify_cb (PalPromptQueue     *queue,
                 GParamSpec         *pspec,
                 PalPromptQueueView *self)
{
  update_status (self);
}

static void
resume_clicked_cb (PalPromptQueueView *self)
{
  pal_prompt_queue_view_set_notice (self, NULL);
  g_signal_emit (self, signals[RESUME], 0);
}

static void
pal_prompt_queue_view_dispose (GObject *object)
{
  PalPromptQueueView *self = PAL_PROMPT_QUEUE_VIEW (object);

  pal_prompt_queue_view_set_queue (self, NULL);

  G_OBJECT_CLASS (pal_prompt_queue_view_parent_class)->dispose (object);
}

static void
pal_prompt_queue_view_finalize (GObject *object)
{
  PalPromptQueueView *self = PAL_PROMPT_QUEUE_VIEW (object);

  g_free (self->notice);

  G_OBJECT_CLASS (pal_prompt_queue_view_parent_class)->finalize (object);
}

static void
pal_prompt_queue_view_class_init (PalPromptQueueViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_prompt_queue_view_dispose;
  object_class->finalize = pal_prompt_queue_view_finalize;

  /**
   * PalPromptQueueView::send-now:
   * @self: the view
   * @position: the entry
   *
   * Send Now on an entry: stop the turn that runs, and send it.
   */
  signals[SEND_NOW] =
    g_signal_new ("send-now", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * PalPromptQueueView::edit:
   * @self: the view
   * @position: the entry
   *
   * Edit on an entry: take it out to be edited (see
   * pal_prompt_queue_take_for_edit()).
   */
  signals[EDIT] =
    g_signal_new ("edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * PalPromptQueueView::resume:
   * @self: the view
   *
   * Resume on a queue that waits: go on, and send the next entry if the
   * agent is free.
   */
  signals[RESUME] =
    g_signal_new ("resume", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "promptqueue");
}

static void
pal_prompt_queue_view_init (PalPromptQueueView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");

  self->resume_button = gtk_button_new_with_mnemonic (_("_Resume"));
  gtk_widget_set_tooltip_text (self->resume_button, _("Send the queued prompts again, one by one"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->resume_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Resume the Queue"), -1);
  gtk_widget_add_css_class (self->resume_button, "flat");
  gtk_widget_set_valign (self->resume_button, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (self->resume_button, "clicked", G_CALLBACK (resume_clicked_cb), self);

  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->status_label));
  gtk_box_append (GTK_BOX (header), self->resume_button);
  gtk_widget_set_margin_start (header, 6);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Queued Prompts"), -1);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list));
  adw_bin_set_child (ADW_BIN (self), box);

  update_status (self);
}

GtkWidget *
pal_prompt_queue_view_new (void)
{
  return g_object_new (PAL_TYPE_PROMPT_QUEUE_VIEW, NULL);
}

PalPromptQueue *
pal_prompt_queue_view_get_queue (PalPromptQueueView *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE_VIEW (self), NULL);

  return self->queue;
}

/**
 * pal_prompt_queue_view_set_queue:
 * @self: a #PalPromptQueueView
 * @queue: (nullable): the queue of the session shown
 */
void
pal_prompt_queue_view_set_queue (PalPromptQueueView *self,
                                 PalPromptQueue     *queue)
{
  g_return_if_fail (PAL_IS_PROMPT_QUEUE_VIEW (self));
  g_return_if_fail (queue == NULL || PAL_IS_PROMPT_QUEUE (queue));

  if (self->queue == queue)
    return;

  if (self->queue != NULL)
    g_signal_handlers_disconnect_by_data (self->queue, self);
  gtk_list_box_bind_model (self->list, NULL, NULL, NULL, NULL);
  g_set_object (&self->queue, queue);
  g_clear_pointer (&self->notice, g_free);
  if (queue != NULL)
    {
      gtk_list_box_bind_model (self->list, G_LIST_MODEL (queue), create_row, self, NULL);
      /* after the list box made its rows */
      g_signal_connect (queue, "items-changed", G_CALLBACK (queue_items_changed_cb), self);
      g_signal_connect (queue, "notify", G_CALLBACK (queue_notify_cb), self);
    }

  update_rows (self);
  update_status (self);
}

void
pal_prompt_queue_view_set_notice (PalPromptQueueView *self,
                                  const char         *text)
{
  g_return_if_fail (PAL_IS_PROMPT_QUEUE_VIEW (self));

  g_free (self->notice);
  self->notice = g_strdup (text);
  update_status (self);
}

const char *
pal_prompt_queue_view_get_status (PalPromptQueueView *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT_QUEUE_VIEW (self), NULL);

  return gtk_label_get_text (self->status_label);
}
