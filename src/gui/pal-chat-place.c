/* pal-chat-place.c: where the chat view is in its transcript: the item at
 * the top, and going to an item (a search hit, the place kept when one
 * transcript replaces another)
 *
 * The list view shows rows, not items: a long answer is a run of rows
 * (PalBlockModel), and during a flood or just after one the rows before
 * the last few are held back (PalTailModel). Going to an item brings its
 * rows back first, then asks the list view to show its first row
 * ("list.scroll-to-item": GTK 4.8 has no gtk_list_view_scroll_to ()),
 * again once the rows around it are laid out, as their estimated heights
 * give way to real ones. Revealing a match (pal-chat-find.c) scrolls to
 * its row the same way (_pal_chat_place_scroll_to_row()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-chat-view-private.h"

/* How long an item gone to stays highlighted */
#define HIGHLIGHT_MS 2500

/* The transcript item a row shows (the message of a block) */
static gpointer
item_of_row (gpointer row)
{
  if (PAL_IS_MESSAGE_BLOCK (row))
    return pal_message_block_get_item (row);

  return row;
}

static int
position_in (GListModel *model,
             gpointer    item)
{
  guint n = model != NULL ? g_list_model_get_n_items (model) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) at = g_list_model_get_item (model, i);

      if (at == item)
        return (int) i;
    }

  return -1;
}

/**
 * pal_chat_view_get_top_item:
 * @self: a #PalChatView
 *
 * Returns: the position in the transcript of the item whose row is at the
 *   top of the view, or -1 when nothing is laid out
 */
int
pal_chat_view_get_top_item (PalChatView *self)
{
  GtkWidget *scroller;
  gpointer top = NULL;
  double top_y = G_MAXDOUBLE;

  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), -1);

  if (self->model == NULL)
    return -1;

  scroller = GTK_WIDGET (self->scroller);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (row);
      graphene_rect_t bounds;
      gpointer item;

      if (clamp == NULL || !gtk_widget_get_mapped (row) || gtk_widget_get_height (row) <= 0 ||
          !gtk_widget_compute_bounds (row, scroller, &bounds))
        continue;
      /* below the top edge, or across it */
      if (bounds.origin.y + bounds.size.height <= 0 || bounds.origin.y >= top_y)
        continue;
      item = g_object_get_data (G_OBJECT (clamp), PAL_CHAT_ROW_ITEM_KEY);
      if (item == NULL)
        continue;
      top = item_of_row (item);
      top_y = bounds.origin.y;
    }

  return top != NULL ? position_in (self->model, top) : -1;
}

static void
mark_rows (PalChatView *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (row);
      gpointer item = clamp != NULL ? g_object_get_data (G_OBJECT (clamp), PAL_CHAT_ROW_ITEM_KEY) : NULL;

      if (item == NULL)
        continue;
      if (self->highlighted != NULL && item_of_row (item) == self->highlighted)
        gtk_widget_add_css_class (clamp, "highlighted");
      else
        gtk_widget_remove_css_class (clamp, "highlighted");
    }
}

/* A row was bound (pal-chat-view.c): marked when its item is highlighted */
void
_pal_chat_place_row_bound (PalChatView *self,
                           GtkWidget   *clamp,
                           gpointer     row_item)
{
  if (self->highlighted != NULL && item_of_row (row_item) == self->highlighted)
    gtk_widget_add_css_class (clamp, "highlighted");
  else
    gtk_widget_remove_css_class (clamp, "highlighted");
}

static gboolean
highlight_over_cb (gpointer user_data)
{
  PalChatView *self = user_data;

  self->highlight_id = 0;
  g_clear_object (&self->highlighted);
  mark_rows (self);

  return G_SOURCE_REMOVE;
}

/* Scrolls to the row at @index of the rows (PalBlockModel), making it one
 * of those the list view has first: the rows held back before it, and
 * after it, come back, and so do those waiting to be shown. Returns
 * whether it could be scrolled to. */
gboolean
_pal_chat_place_scroll_to_row (PalChatView *self,
                               guint        index)
{
  guint hidden;

  if (index >= g_list_model_get_n_items (G_LIST_MODEL (self->blocks)))
    return FALSE;

  if (pal_tail_model_get_waiting (self->tail) > 0 && !pal_tail_model_get_frozen (self->tail))
    pal_tail_model_sync (self->tail, G_MAXUINT);
  hidden = pal_tail_model_get_hidden (self->tail);
  if (index < hidden)
    {
      pal_tail_model_expand (self->tail, hidden - index);
      hidden = pal_tail_model_get_hidden (self->tail);
    }
  if (index < hidden || index - hidden >= g_list_model_get_n_items (G_LIST_MODEL (self->tail)))
    return FALSE;

  self->scrolling = TRUE;
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", index - hidden);
  self->scrolling = FALSE;

  return TRUE;
}

/* Scrolls to the first row of the item gone to */
static void
go_to_target (PalChatView *self)
{
  GListModel *rows = G_LIST_MODEL (self->blocks);
  guint n = g_list_model_get_n_items (rows);

  for (guint i = 0; i < n && self->target != NULL; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (rows, i);

      if (item_of_row (row) == self->target)
        {
          _pal_chat_place_scroll_to_row (self, i);
          return;
        }
    }
}

/* Once the rows around the item are laid out, again: their heights were
 * estimates */
static gboolean
go_again_cb (GtkWidget     *widget,
             GdkFrameClock *frame_clock,
             gpointer       user_data)
{
  PalChatView *self = PAL_CHAT_VIEW (user_data);

  go_to_target (self);
  if (++self->target_frames < 3)
    return G_SOURCE_CONTINUE;

  self->target_tick = 0;
  g_clear_object (&self->target);
  return G_SOURCE_REMOVE;
}

/**
 * pal_chat_view_scroll_to_item:
 * @self: a #PalChatView
 * @position: an item of the transcript
 * @highlight: whether to highlight it for a moment
 *
 * Shows the item at @position (its first row at the top, when the
 * transcript is long enough), and stops following the end.
 */
void
pal_chat_view_scroll_to_item (PalChatView *self,
                              guint        position,
                              gboolean     highlight)
{
  g_autoptr(GObject) item = NULL;

  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  if (self->model == NULL || position >= g_list_model_get_n_items (self->model))
    return;

  item = g_list_model_get_item (self->model, position);
  _pal_chat_view_set_stick_to_bottom (self, FALSE);
  g_set_object (&self->target, item);
  self->target_frames = 0;
  go_to_target (self);
  if (self->target_tick == 0)
    self->target_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view), go_again_cb,
                                                      self, NULL);

  if (highlight)
    {
      g_set_object (&self->highlighted, item);
      mark_rows (self);
      g_clear_handle_id (&self->highlight_id, g_source_remove);
      self->highlight_id = g_timeout_add (HIGHLIGHT_MS, highlight_over_cb, self);
    }
}

/**
 * pal_chat_view_get_highlighted:
 * @self: a #PalChatView
 *
 * Returns: (transfer none) (nullable): the item highlighted
 *   (pal_chat_view_scroll_to_item()), if any still is
 */
gpointer
pal_chat_view_get_highlighted (PalChatView *self)
{
  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), NULL);

  return self->highlighted;
}

/* The model changes or the view goes (pal-chat-view.c) */
void
_pal_chat_place_clear (PalChatView *self)
{
  _pal_chat_view_remove_tick (self, &self->target_tick);
  g_clear_object (&self->target);
  g_clear_handle_id (&self->highlight_id, g_source_remove);
  g_clear_object (&self->highlighted);
}
