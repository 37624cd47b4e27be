/* pal-message-row.c: a user, agent or thought message of the chat
 *
 * The text lives in a PalMarkdownView; streamed text is appended to it as
 * the item announces it, never by re-reading the whole text. A thought is
 * collapsed behind an expander; user messages are shown as typed. A row may
 * show one block of a long agent message (see PalBlockModel): the bytes of
 * the text from the block's start to its end, growing while it is the last.
 *
 * Under the message (under its last block), its buttons, which show when
 * the pointer is over the row or the focus in it: Copy puts the whole
 * message on the clipboard as Markdown; the last prompt also has Edit &
 * Resend while the agent can be asked again, which the session view says
 * (PalSessionView:resend-prompt) and does (session.edit-prompt). The
 * buttons are made when the pointer or the focus first comes to the row
 * (the focus comes to its text first, then Tab goes on to them): rows are
 * made by the dozen as the person scrolls, and few of them are pointed at.
 *
 * What came with the message besides text is under its text (under its
 * first block): thumbnails of images and chips of files
 * (PalMessageAttachments). In a prompt, a mention of a file (`@src/main.c`)
 * that came with it is a link to the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-a11y.h"
#include "pal-message-attachments.h"
#include "pal-block-model.h"
#include "pal-copy-button.h"
#include "pal-markdown-view.h"
#include "pal-message-row.h"
#include "pal-session-view.h"
#include "pal-tooltip.h"

/* Bytes: a longer block is laid out over several frames */
#define PROGRESSIVE_AFTER 1024

struct _PalMessageRow
{
  AdwBin           parent_instance;

  AcpMessageItem  *item;
  PalMessageBlock *block;        /* (nullable): the part of the text shown */
  gsize            start;        /* where the part shown starts in the text */
  gsize            shown;        /* where the part shown ends in the text */
  PalMarkdownView *view;
  PalMessageAttachments *chips;
  GListModel      *attachments;  /* (nullable): followed, when the row shows them */
  GtkWidget       *actions;      /* the message's buttons */
  GtkWidget       *copy_button;    /* (nullable): until the buttons are made */
  GtkWidget       *resend_button;  /* (nullable): a prompt's, once made */
  gboolean         prompt;
  PalSessionView  *session_view;   /* (nullable): a prompt's, while mapped */
};

G_DEFINE_FINAL_TYPE (PalMessageRow, pal_message_row, ADW_TYPE_BIN)

static void update_mentions (PalMessageRow *self);

static gsize
end_of_part (PalMessageRow *self)
{
  gsize length = acp_message_item_get_text_length (self->item);

  if (self->block != NULL)
    return MIN (length, pal_message_block_get_end (self->block));

  return length;
}

/* Shows the part of the text anew. A long part given @progressively (the
 * block of an answer that is streaming) is laid out over the next frames, as
 * streamed text is, rather than in one. */
static void
reset_text (PalMessageRow *self,
            gboolean       progressively)
{
  const char *text = acp_message_item_get_text (self->item);
  gsize end = end_of_part (self);
  g_autofree char *part = NULL;

  self->start = MIN (self->start, end);
  if (progressively && end - self->start > PROGRESSIVE_AFTER)
    {
      pal_markdown_view_set_text (self->view, NULL);
      pal_markdown_view_append (self->view, text + self->start, (gssize) (end - self->start));
    }
  else
    {
      part = g_strndup (text + self->start, end - self->start);
      pal_markdown_view_set_text (self->view, part);
    }
  self->shown = end;
}

static void
item_text_appended_cb (AcpMessageItem *item,
                       const char     *chunk,
                       PalMessageRow  *self)
{
  gsize end = end_of_part (self);

  /* what is new in the part shown: nothing once a later block took over */
  if (end > self->shown)
    {
      pal_markdown_view_append (self->view, acp_message_item_get_text (item) + self->shown,
                                (gssize) (end - self->shown));
      self->shown = end;
      update_mentions (self);
    }
}

static void
item_notify_text_cb (AcpMessageItem *item,
                     GParamSpec     *pspec,
                     PalMessageRow  *self)
{
  reset_text (self, FALSE);
  update_mentions (self);
}

/* The buttons are under the message's last block */
static void
update_actions (PalMessageRow *self)
{
  gtk_widget_set_visible (self->actions,
                          self->block == NULL || pal_message_block_get_end (self->block) == G_MAXSIZE);
}

static void
update_resend (PalMessageRow *self)
{
  if (self->resend_button == NULL)
    return;

  gtk_widget_set_visible (self->resend_button,
                          self->session_view != NULL &&
                          pal_session_view_get_resend_prompt (self->session_view) == self->item);
}

static void
block_notify_end_cb (PalMessageBlock *block,
                     GParamSpec      *pspec,
                     PalMessageRow   *self)
{
  gsize end = end_of_part (self);

  update_actions (self);

  /* the next block starts here: what was shown after it goes */
  if (self->shown > end)
    {
      pal_markdown_view_truncate (self->view, end - self->start);
      self->shown = end;
    }
}

/* The file of the path a mention names: a resource or a link to one
 * that came with the message, whose path ends in @path */
static const char *
lookup_mention (GListModel *attachments,
                const char *path,
                gsize       length)
{
  guint n = g_list_model_get_n_items (attachments);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpContentBlock) block = g_list_model_get_item (attachments, i);
      AcpContentBlockType type = acp_content_block_get_block_type (block);
      const char *uri = acp_content_block_get_uri (block);
      g_autofree char *file = NULL;
      gsize file_length;

      if ((type != ACP_CONTENT_BLOCK_TYPE_RESOURCE && type != ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK) ||
          uri == NULL || (file = g_filename_from_uri (uri, NULL, NULL)) == NULL)
        continue;

      file_length = strlen (file);
      if (file_length >= length && memcmp (file + file_length - length, path, length) == 0 &&
          (file_length == length || file[file_length - length - 1] == '/'))
        /* the block lives as long as the model keeps it */
        return uri;
    }

  return NULL;
}

/* In a prompt, each `@path` that names a file that came with it becomes a
 * link to the file. Called again as text or attachments come: links stay
 * where they were. */
static void
update_mentions (PalMessageRow *self)
{
  GListModel *attachments = acp_message_item_get_attachments (self->item);
  const char *text = pal_markdown_view_get_text (self->view);

  if (!self->prompt || g_list_model_get_n_items (attachments) == 0)
    return;

  for (const char *at = strchr (text, '@'); at != NULL; at = strchr (at + 1, '@'))
    {
      const char *path = at + 1;
      gsize length = 0;
      const char *uri = NULL;

      if (at > text && !g_ascii_isspace (at[-1]) && at[-1] != '(' && at[-1] != '[')
        continue;
      while (path[length] != '\0' && !g_ascii_isspace (path[length]))
        length++;
      /* a mention at the end of a sentence, or in brackets */
      while (length > 0 && (uri = lookup_mention (attachments, path, length)) == NULL &&
             strchr (".,;:!?)]'\"", path[length - 1]) != NULL)
        length--;

      if (uri != NULL)
        pal_markdown_view_link_plain (self->view, (gsize) (at - text), (gsize) (path + length - text), uri);
    }
}

static void
attachments_changed_cb (GListModel    *attachments,
                        guint          position,
                        guint          removed,
                        guint          added,
                        PalMessageRow *self)
{
  update_mentions (self);
}

static void
pal_message_row_dispose (GObject *object)
{
  PalMessageRow *self = PAL_MESSAGE_ROW (object);

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  if (self->block != NULL)
    g_signal_handlers_disconnect_by_data (self->block, self);
  if (self->attachments != NULL)
    g_signal_handlers_disconnect_by_data (self->attachments, self);
  g_clear_object (&self->attachments);
  g_clear_object (&self->item);
  g_clear_object (&self->block);

  G_OBJECT_CLASS (pal_message_row_parent_class)->dispose (object);
}

/* A prompt's row follows which prompt can be sent again while it is on
 * screen */
static void
pal_message_row_map (GtkWidget *widget)
{
  PalMessageRow *self = PAL_MESSAGE_ROW (widget);

  GTK_WIDGET_CLASS (pal_message_row_parent_class)->map (widget);

  if (!self->prompt)
    return;

  self->session_view = PAL_SESSION_VIEW (gtk_widget_get_ancestor (widget, PAL_TYPE_SESSION_VIEW));
  if (self->session_view != NULL)
    g_signal_connect_swapped (self->session_view, "notify::resend-prompt", G_CALLBACK (update_resend), self);
  update_resend (self);
}

static void
pal_message_row_unmap (GtkWidget *widget)
{
  PalMessageRow *self = PAL_MESSAGE_ROW (widget);

  if (self->session_view != NULL)
    g_signal_handlers_disconnect_by_func (self->session_view, update_resend, self);
  self->session_view = NULL;

  GTK_WIDGET_CLASS (pal_message_row_parent_class)->unmap (widget);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  pal_message_row_copy (PAL_MESSAGE_ROW (widget));
}

static void
pal_message_row_class_init (PalMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_message_row_dispose;
  widget_class->map = pal_message_row_map;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  widget_class->unmap = pal_message_row_unmap;

  gtk_widget_class_install_action (widget_class, "message.copy", NULL, copy_action);

  gtk_widget_class_set_css_name (widget_class, "messagerow");
}

static void
pal_message_row_init (PalMessageRow *self)
{
}

/* The message's buttons: Copy, and Edit & Resend for a prompt */
static void
ensure_buttons (PalMessageRow *self)
{
  if (self->copy_button != NULL)
    return;

  self->copy_button = pal_copy_button_new (_("Copy Message"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->copy_button), "message.copy");
  gtk_box_append (GTK_BOX (self->actions), self->copy_button);

  if (self->prompt)
    {
      self->resend_button = gtk_button_new_from_icon_name ("document-edit-symbolic");
      gtk_widget_add_css_class (self->resend_button, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->resend_button), "session.edit-prompt");
      pal_widget_set_quiet_tooltip (self->resend_button, _("Edit & Resend"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->resend_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Edit & Resend"), -1);
      gtk_box_prepend (GTK_BOX (self->actions), self->resend_button);
      update_resend (self);
    }
}

static void
pointer_enter_cb (GtkEventControllerMotion *controller,
                  double                    x,
                  double                    y,
                  PalMessageRow            *self)
{
  ensure_buttons (self);
}

static void
focus_enter_cb (GtkEventControllerFocus *controller,
                PalMessageRow           *self)
{
  ensure_buttons (self);
}

/* Where the buttons go (see the top of the file) */
static GtkWidget *
build_actions (PalMessageRow *self,
               AcpMessageRole role)
{
  GtkEventController *controller;

  self->prompt = role == ACP_MESSAGE_ROLE_USER;
  self->actions = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_widget_add_css_class (self->actions, "message-actions");
  gtk_widget_set_halign (self->actions, self->prompt ? GTK_ALIGN_END : GTK_ALIGN_START);
  update_actions (self);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (pointer_enter_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
  controller = gtk_event_controller_focus_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (focus_enter_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  return self->actions;
}

static void
build (PalMessageRow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  AcpMessageRole role = acp_message_item_get_role (self->item);

  self->view = PAL_MARKDOWN_VIEW (pal_markdown_view_new ());
  reset_text (self, self->block != NULL);

  self->chips = PAL_MESSAGE_ATTACHMENTS (pal_message_attachments_new ());

  /* what a screen reader says of the row and of its text: who wrote it */
  {
    const char *who = role == ACP_MESSAGE_ROLE_USER ? _("You")
                      : role == ACP_MESSAGE_ROLE_THOUGHT ? _("Thought")
                      : _("Agent");

    pal_a11y_set_label (GTK_WIDGET (self), who);
    pal_a11y_set_label (GTK_WIDGET (self->view), who);
  }

  switch (role)
    {
    case ACP_MESSAGE_ROLE_USER:
      pal_markdown_view_set_plain (self->view, TRUE);
      gtk_widget_add_css_class (box, "user-message");
      gtk_widget_add_css_class (box, "card");
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->view));
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->chips));
      {
        GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

        gtk_box_append (GTK_BOX (outer), box);
        gtk_box_append (GTK_BOX (outer), build_actions (self, role));
        adw_bin_set_child (ADW_BIN (self), outer);
      }
      break;

    case ACP_MESSAGE_ROLE_THOUGHT:
      {
        GtkWidget *expander = gtk_expander_new (_("Thought"));

        pal_a11y_set_label (expander, _("Thought"));
        gtk_widget_add_css_class (box, "thought");
        gtk_widget_add_css_class (GTK_WIDGET (self->view), "dim-label");
        gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->view));
        gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->chips));
        gtk_box_append (GTK_BOX (box), build_actions (self, role));
        gtk_expander_set_child (GTK_EXPANDER (expander), box);
        gtk_widget_add_css_class (expander, "thought");
        adw_bin_set_child (ADW_BIN (self), expander);
      }
      break;

    case ACP_MESSAGE_ROLE_AGENT:
    default:
      gtk_widget_add_css_class (box, "agent-message");
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->view));
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->chips));
      gtk_box_append (GTK_BOX (box), build_actions (self, role));
      adw_bin_set_child (ADW_BIN (self), box);
      break;
    }

  /* a later block of a message: its attachments are with the first */
  if (self->block == NULL || pal_message_block_get_index (self->block) == 0)
    {
      self->attachments = g_object_ref (acp_message_item_get_attachments (self->item));
      pal_message_attachments_set_model (self->chips, self->attachments);
      g_signal_connect (self->attachments, "items-changed", G_CALLBACK (attachments_changed_cb), self);
      update_mentions (self);
    }

  g_signal_connect_object (self->item, "text-appended", G_CALLBACK (item_text_appended_cb), self, 0);
  g_signal_connect_object (self->item, "notify::text", G_CALLBACK (item_notify_text_cb), self, 0);
  if (self->block != NULL)
    g_signal_connect_object (self->block, "notify::end", G_CALLBACK (block_notify_end_cb), self, 0);
}

GtkWidget *
pal_message_row_new (AcpMessageItem *item)
{
  PalMessageRow *self;

  g_return_val_if_fail (ACP_IS_MESSAGE_ITEM (item), NULL);

  self = g_object_new (PAL_TYPE_MESSAGE_ROW, NULL);
  self->item = g_object_ref (item);
  build (self);

  return GTK_WIDGET (self);
}

/**
 * pal_message_row_new_block:
 * @block: a block of an agent message
 *
 * Returns: (transfer floating): a row showing the part of the message's
 *   text that @block covers
 */
GtkWidget *
pal_message_row_new_block (PalMessageBlock *block)
{
  PalMessageRow *self;

  g_return_val_if_fail (PAL_IS_MESSAGE_BLOCK (block), NULL);

  self = g_object_new (PAL_TYPE_MESSAGE_ROW, NULL);
  self->item = g_object_ref (pal_message_block_get_item (block));
  self->block = g_object_ref (block);
  self->start = pal_message_block_get_start (block);
  build (self);

  return GTK_WIDGET (self);
}

/**
 * pal_message_row_flush:
 * @self: a #PalMessageRow
 *
 * Shows the whole text now, rather than at the pace of streamed text.
 */
void
pal_message_row_flush (PalMessageRow *self)
{
  g_return_if_fail (PAL_IS_MESSAGE_ROW (self));

  pal_markdown_view_flush (self->view);
}

/**
 * pal_message_row_get_lagging:
 * @self: a #PalMessageRow
 *
 * A long block is laid out at the pace of streamed text (see reset_text ()),
 * also when it is made again for text that came before.
 *
 * Returns: whether the row shows only part of a block that is not streaming
 *   any more, the rest waiting for that pace: pal_message_row_flush() shows
 *   it whole
 */
gboolean
pal_message_row_get_lagging (PalMessageRow *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ROW (self), FALSE);

  return self->block != NULL &&
         !pal_message_block_is_streaming (self->block) &&
         pal_markdown_view_get_pending (self->view);
}

/**
 * pal_message_row_copy:
 * @self: a #PalMessageRow
 *
 * Puts the whole message on the clipboard, as the Markdown it came as (for
 * a prompt, as it was typed); the Copy button says so for a moment.
 */
void
pal_message_row_copy (PalMessageRow *self)
{
  g_return_if_fail (PAL_IS_MESSAGE_ROW (self));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)),
                          acp_message_item_get_text (self->item));
  if (self->copy_button != NULL)
    pal_copy_button_show_copied (self->copy_button);
}

/**
 * pal_message_row_get_copy_button:
 * @self: a #PalMessageRow
 *
 * The buttons are made if they were not yet, as the pointer or the focus
 * coming to the row makes them.
 *
 * Returns: (transfer none) (nullable): its Copy button; none for a block
 *   that is not the last of its message
 */
GtkWidget *
pal_message_row_get_copy_button (PalMessageRow *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ROW (self), NULL);

  if (!gtk_widget_get_visible (self->actions))
    return NULL;

  ensure_buttons (self);
  return self->copy_button;
}

/**
 * pal_message_row_get_resend_button:
 * @self: a #PalMessageRow
 *
 * As pal_message_row_get_copy_button(), the buttons are made if need be.
 *
 * Returns: (transfer none) (nullable): Edit & Resend, a prompt's (shown
 *   only for the last prompt, while the agent can be asked again)
 */
GtkWidget *
pal_message_row_get_resend_button (PalMessageRow *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ROW (self), NULL);

  ensure_buttons (self);
  return self->resend_button;
}

AcpMessageItem *
pal_message_row_get_item (PalMessageRow *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ROW (self), NULL);

  return self->item;
}

/**
 * pal_message_row_get_attachments:
 * @self: a #PalMessageRow
 *
 * Returns: (transfer none): what shows what came with the message (empty
 *   and hidden in a block that is not its first)
 */
PalMessageAttachments *
pal_message_row_get_attachments (PalMessageRow *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ROW (self), NULL);

  return self->chips;
}
