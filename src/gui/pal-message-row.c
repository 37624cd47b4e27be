/* pal-message-row.c: a user, agent or thought message of the chat
 *
 * The text lives in a PalMarkdownView; streamed text is appended to it as
 * the item announces it, never by re-reading the whole text. A thought is
 * collapsed behind an expander; user messages are shown as typed. A row may
 * show one block of a long agent message (see PalBlockModel): the bytes of
 * the text from the block's start to its end, growing while it is the last.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-block-model.h"
#include "pal-markdown-view.h"
#include "pal-message-row.h"

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
  GtkLabel        *attachments_label;
  GListModel      *attachments;  /* (nullable): followed, when the row shows them */
};

G_DEFINE_FINAL_TYPE (PalMessageRow, pal_message_row, ADW_TYPE_BIN)

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
    }
}

static void
item_notify_text_cb (AcpMessageItem *item,
                     GParamSpec     *pspec,
                     PalMessageRow  *self)
{
  reset_text (self, FALSE);
}

static void
block_notify_end_cb (PalMessageBlock *block,
                     GParamSpec      *pspec,
                     PalMessageRow   *self)
{
  gsize end = end_of_part (self);

  /* the next block starts here: what was shown after it goes */
  if (self->shown > end)
    {
      pal_markdown_view_truncate (self->view, end - self->start);
      self->shown = end;
    }
}

static void
update_attachments (PalMessageRow *self)
{
  GListModel *attachments = acp_message_item_get_attachments (self->item);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = g_list_model_get_n_items (attachments);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpContentBlock) block = g_list_model_get_item (attachments, i);
      const char *name;

      switch (acp_content_block_get_block_type (block))
        {
        case ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK:
          name = acp_content_block_get_name (block);
          break;

        case ACP_CONTENT_BLOCK_TYPE_RESOURCE:
          name = acp_content_block_get_uri (block);
          break;

        case ACP_CONTENT_BLOCK_TYPE_IMAGE:
          name = _("Image");
          break;

        case ACP_CONTENT_BLOCK_TYPE_AUDIO:
          name = _("Audio");
          break;

        case ACP_CONTENT_BLOCK_TYPE_TEXT:
        case ACP_CONTENT_BLOCK_TYPE_UNKNOWN:
        default:
          name = acp_content_block_get_type_name (block);
          break;
        }

      if (text->len > 0)
        g_string_append (text, "\n");
      g_string_append_printf (text, "📎 %s", name);
    }

  gtk_label_set_text (self->attachments_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->attachments_label), text->len > 0);
}

static void
attachments_changed_cb (GListModel    *attachments,
                        guint          position,
                        guint          removed,
                        guint          added,
                        PalMessageRow *self)
{
  update_attachments (self);
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

static void
pal_message_row_class_init (PalMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_message_row_dispose;

  gtk_widget_class_set_css_name (widget_class, "messagerow");
}

static void
pal_message_row_init (PalMessageRow *self)
{
}

static void
build (PalMessageRow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  AcpMessageRole role = acp_message_item_get_role (self->item);

  self->view = PAL_MARKDOWN_VIEW (pal_markdown_view_new ());
  reset_text (self, self->block != NULL);

  self->attachments_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->attachments_label, 0);
  gtk_label_set_wrap (self->attachments_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->attachments_label), "dim-label");

  switch (role)
    {
    case ACP_MESSAGE_ROLE_USER:
      pal_markdown_view_set_plain (self->view, TRUE);
      gtk_widget_add_css_class (box, "user-message");
      gtk_widget_add_css_class (box, "card");
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->view));
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->attachments_label));
      adw_bin_set_child (ADW_BIN (self), box);
      break;

    case ACP_MESSAGE_ROLE_THOUGHT:
      {
        GtkWidget *expander = gtk_expander_new (_("Thought"));

        gtk_widget_add_css_class (box, "thought");
        gtk_widget_add_css_class (GTK_WIDGET (self->view), "dim-label");
        gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->view));
        gtk_expander_set_child (GTK_EXPANDER (expander), box);
        gtk_widget_add_css_class (expander, "thought");
        adw_bin_set_child (ADW_BIN (self), expander);
      }
      break;

    case ACP_MESSAGE_ROLE_AGENT:
    default:
      gtk_widget_add_css_class (box, "agent-message");
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->view));
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->attachments_label));
      adw_bin_set_child (ADW_BIN (self), box);
      break;
    }

  /* a later block of a message: its attachments are with the first */
  if (self->block != NULL && pal_message_block_get_index (self->block) > 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->attachments_label), FALSE);
    }
  else
    {
      update_attachments (self);
      self->attachments = g_object_ref (acp_message_item_get_attachments (self->item));
      g_signal_connect (self->attachments, "items-changed", G_CALLBACK (attachments_changed_cb), self);
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

AcpMessageItem *
pal_message_row_get_item (PalMessageRow *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ROW (self), NULL);

  return self->item;
}
