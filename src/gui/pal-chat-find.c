/* pal-chat-find.c: bringing a message of the transcript into view, marked
 *
 * pal_chat_view_reveal () scrolls to an item of the transcript (for a long
 * answer, to the block of it that holds the offset asked for) and marks its
 * row; in the text of that row (all of its parts: the text between its code
 * blocks and tables, and its code), the matches of a needle are tagged and
 * the one at the offset stands out, scrolled into view. The list view only has
 * rows near what it shows, and GTK 4.8 estimates the height of the rows it
 * has not measured: so the view scrolls to the row, and at each frame after
 * (REVEAL_FRAMES at most) checks that the row is there and on screen, and
 * scrolls again until it is; then it tags the text. A row bound again later
 * (the person scrolled away and back) is marked again; its text tags are
 * gone with the text it was made with.
 *
 * The find bar (PalFindBar) uses it for Ctrl+F in a session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-message-item.h"
#include "pal-chat-view-private.h"
#include "pal-message-row.h"
#include "pal-text-match.h"

/* Frames the view tries to bring the row on screen */
#define REVEAL_FRAMES  30
#define MATCH_TAG      "find-match"
#define CURRENT_TAG    "find-current"

/* The index in the rows (blocks) of the item at @position, or of its block
 * that holds @offset; G_MAXUINT when there is none */
static guint
find_row (PalChatView *self,
          gpointer     item,
          guint        position,
          gsize        offset)
{
  GListModel *rows = G_LIST_MODEL (self->blocks);
  guint n = g_list_model_get_n_items (rows);

  /* an item has one row or more: its rows are at its position or after */
  for (guint i = position; i < n; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (rows, i);

      if (row == item)
        return i;
      if (PAL_IS_MESSAGE_BLOCK (row) &&
          (gpointer) pal_message_block_get_item (PAL_MESSAGE_BLOCK (row)) == item &&
          offset >= pal_message_block_get_start (PAL_MESSAGE_BLOCK (row)) &&
          offset < pal_message_block_get_end (PAL_MESSAGE_BLOCK (row)))
        return i;
    }

  return G_MAXUINT;
}

/* The widget bound to the revealed row, or NULL */
static GtkWidget *
bound_row (PalChatView *self,
           GtkWidget  **clamp_out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (child);

      if (ADW_IS_CLAMP (clamp) && self->reveal_target != NULL &&
          g_object_get_data (G_OBJECT (clamp), PAL_CHAT_ROW_ITEM_KEY) == self->reveal_target)
        {
          if (clamp_out != NULL)
            *clamp_out = clamp;
          return child;
        }
    }

  return NULL;
}

static void
collect_text_views (GtkWidget *widget,
                    GPtrArray *views)
{
  if (GTK_IS_TEXT_VIEW (widget))
    g_ptr_array_add (views, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_text_views (child, views);
}

static void
unmark_text (PalChatView *self)
{
  for (guint i = 0; self->marked_buffers != NULL && i < self->marked_buffers->len; i++)
    {
      GtkTextBuffer *buffer = g_ptr_array_index (self->marked_buffers, i);
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      gtk_text_buffer_remove_tag_by_name (buffer, MATCH_TAG, &start, &end);
      gtk_text_buffer_remove_tag_by_name (buffer, CURRENT_TAG, &start, &end);
    }
  g_clear_pointer (&self->marked_buffers, g_ptr_array_unref);
}

static void
ensure_tags (GtkTextBuffer *buffer)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);

  if (gtk_text_tag_table_lookup (table, MATCH_TAG) == NULL)
    gtk_text_buffer_create_tag (buffer, MATCH_TAG,
                                "background-rgba", &(GdkRGBA) { 0.96, 0.83, 0.18, 0.35 }, NULL);
  if (gtk_text_tag_table_lookup (table, CURRENT_TAG) == NULL)
    gtk_text_buffer_create_tag (buffer, CURRENT_TAG,
                                "background-rgba", &(GdkRGBA) { 1.0, 0.47, 0.0, 0.5 }, NULL);
}

/* Scrolls so that @rect of @view (its buffer's coordinates) is on screen */
static void
scroll_to_rect (PalChatView        *self,
                GtkTextView        *view,
                const GdkRectangle *rect)
{
  double page = gtk_adjustment_get_page_size (self->vadjustment);
  int x = 0, y = 0;
  double left, top, bottom;

  gtk_text_view_buffer_to_window_coords (view, GTK_TEXT_WINDOW_WIDGET, rect->x, rect->y, &x, &y);
  if (!gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (self->scroller),
                                         x, y, &left, &top))
    return;
  bottom = top + rect->height;
  if (top >= 0 && bottom <= page)
    return;

  self->scrolling = TRUE;
  gtk_adjustment_set_value (self->vadjustment,
                            gtk_adjustment_get_value (self->vadjustment) + top - page / 3);
  self->scrolling = FALSE;
}

/* Tags the matches of the needle in the row's text, the current one apart,
 * and brings that one on screen */
static void
mark_text (PalChatView *self,
           GtkWidget   *row)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  GtkTextSearchFlags flags = GTK_TEXT_SEARCH_CASE_INSENSITIVE | GTK_TEXT_SEARCH_TEXT_ONLY;

  unmark_text (self);
  if (self->reveal_needle == NULL)
    return;

  if (PAL_IS_MESSAGE_ROW (row))
    pal_message_row_flush (PAL_MESSAGE_ROW (row));
  collect_text_views (row, views);
  if (views->len == 0)
    return;

  self->marked_buffers = g_ptr_array_new_with_free_func (g_object_unref);
  {
    GtkTextView *current_view = NULL;
    GtkTextIter current;
    guint n = 0;

    for (guint i = 0; i < views->len; i++)
      {
        GtkTextView *view = g_ptr_array_index (views, i);
        GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
        GtkWidget *expander = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_EXPANDER);
        GtkTextIter iter, start, end;

        /* a thought is folded */
        if (expander != NULL)
          gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);

        ensure_tags (buffer);
        g_ptr_array_add (self->marked_buffers, g_object_ref (buffer));
        gtk_text_buffer_get_start_iter (buffer, &iter);
        while (gtk_text_iter_forward_search (&iter, self->reveal_needle, flags, &start, &end, NULL))
          {
            /* the match at the offset, or the last one when the rendering has
             * fewer (Markdown shows less than its source) */
            if (n <= self->reveal_occurrence)
              {
                current = start;
                current_view = view;
              }
            gtk_text_buffer_apply_tag_by_name (buffer, MATCH_TAG, &start, &end);
            iter = end;
            n++;
          }
      }

    if (current_view != NULL)
      {
        GtkTextIter end = current;
        GdkRectangle rect;

        gtk_text_iter_forward_chars (&end, g_utf8_strlen (self->reveal_needle, -1));
        gtk_text_buffer_apply_tag_by_name (gtk_text_view_get_buffer (current_view), CURRENT_TAG, &current, &end);
        gtk_text_view_get_iter_location (current_view, &current, &rect);
        scroll_to_rect (self, current_view, &rect);
      }
  }
}

static void
stop_revealing (PalChatView *self)
{
  _pal_chat_view_remove_tick (self, &self->reveal_tick);
}

/* Scrolls to the revealed row, when it is still where it was */
static void
scroll_to_row (PalChatView *self)
{
  GListModel *rows = G_LIST_MODEL (self->blocks);
  g_autoptr(GObject) at = NULL;

  if (self->reveal_row < g_list_model_get_n_items (rows) &&
      (at = g_list_model_get_item (rows, self->reveal_row)) == self->reveal_target)
    _pal_chat_place_scroll_to_row (self, self->reveal_row);
}

static gboolean
reveal_tick_cb (GtkWidget     *widget,
                GdkFrameClock *frame_clock,
                gpointer       user_data)
{
  PalChatView *self = user_data;
  GtkWidget *clamp = NULL;
  GtkWidget *row = bound_row (self, &clamp);
  GtkWidget *shown = clamp != NULL ? adw_clamp_get_child (ADW_CLAMP (clamp)) : NULL;

  if (++self->reveal_frames > REVEAL_FRAMES)
    {
      self->reveal_tick = 0;
      return G_SOURCE_REMOVE;
    }

  /* not made yet, or still a line of a flood, or off screen */
  if (row == NULL || shown == NULL || gtk_widget_has_css_class (shown, "summary-row") ||
      _pal_chat_view_widget_distance (self, row) != 0)
    {
      scroll_to_row (self);
      return G_SOURCE_CONTINUE;
    }

  gtk_widget_add_css_class (clamp, "revealed");
  mark_text (self, shown);
  self->reveal_tick = 0;
  return G_SOURCE_REMOVE;
}

/* Marks @clamp when it shows the revealed row, and only then: called as
 * rows are bound */
void
_pal_chat_find_bind (PalChatView *self,
                     GtkWidget   *clamp,
                     gpointer     item)
{
  if (self->reveal_target != NULL && item == self->reveal_target)
    gtk_widget_add_css_class (clamp, "revealed");
  else
    gtk_widget_remove_css_class (clamp, "revealed");
}

void
_pal_chat_find_dispose (PalChatView *self)
{
  stop_revealing (self);
  unmark_text (self);
  g_clear_object (&self->reveal_target);
  g_clear_pointer (&self->reveal_needle, g_free);
}

/**
 * pal_chat_view_reveal:
 * @self: a #PalChatView
 * @position: an item of the model
 * @offset: for a message, a byte offset in its text: the block that holds
 *   it is shown, and the match of @needle there
 * @needle: (nullable): text to mark in the item's row, in any case
 *
 * Scrolls to the item and marks it (the view stops following the end),
 * until pal_chat_view_clear_reveal() or another reveal.
 */
void
pal_chat_view_reveal (PalChatView *self,
                      guint        position,
                      gsize        offset,
                      const char  *needle)
{
  g_autoptr(GObject) item = NULL;
  g_autoptr(GObject) row = NULL;
  GtkWidget *clamp = NULL;
  guint index;

  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  if (self->model == NULL || position >= g_list_model_get_n_items (self->model))
    return;

  item = g_list_model_get_item (self->model, position);
  index = find_row (self, item, position, offset);
  if (index == G_MAXUINT)
    return;
  row = g_list_model_get_item (G_LIST_MODEL (self->blocks), index);

  pal_chat_view_clear_reveal (self);
  self->reveal_target = g_steal_pointer (&row);
  self->reveal_row = index;
  self->reveal_needle = needle != NULL && *needle != '\0' ? g_strdup (needle) : NULL;
  self->reveal_occurrence = 0;
  if (self->reveal_needle != NULL && ACP_IS_MESSAGE_ITEM (item))
    {
      AcpMessageItem *message = ACP_MESSAGE_ITEM (item);
      gsize start = PAL_IS_MESSAGE_BLOCK (self->reveal_target)
        ? pal_message_block_get_start (PAL_MESSAGE_BLOCK (self->reveal_target)) : 0;
      gsize length = acp_message_item_get_text_length (message);

      if (start <= offset && offset <= length)
        self->reveal_occurrence = pal_text_match_count (acp_message_item_get_text (message) + start,
                                                        offset - start, self->reveal_needle);
    }

  /* what the person looks for is not at the end */
  _pal_chat_view_set_stick_to_bottom (self, FALSE);
  scroll_to_row (self);
  if (bound_row (self, &clamp) != NULL)
    gtk_widget_add_css_class (clamp, "revealed");

  self->reveal_frames = 0;
  self->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view), reveal_tick_cb,
                                                    self, NULL);
}

/**
 * pal_chat_view_clear_reveal:
 * @self: a #PalChatView
 *
 * Takes the marks of pal_chat_view_reveal() away.
 */
void
pal_chat_view_clear_reveal (PalChatView *self)
{
  GtkWidget *clamp = NULL;

  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  stop_revealing (self);
  unmark_text (self);
  if (bound_row (self, &clamp) != NULL)
    gtk_widget_remove_css_class (clamp, "revealed");
  g_clear_object (&self->reveal_target);
  g_clear_pointer (&self->reveal_needle, g_free);
}

/**
 * pal_chat_view_get_revealed:
 * @self: a #PalChatView
 *
 * Returns: (transfer none) (nullable): the widget of the row marked by
 *   pal_chat_view_reveal(), once it is on screen and its text marked
 */
GtkWidget *
pal_chat_view_get_revealed (PalChatView *self)
{
  GtkWidget *clamp = NULL;

  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), NULL);

  if (self->reveal_tick != 0 || bound_row (self, &clamp) == NULL ||
      !gtk_widget_has_css_class (clamp, "revealed"))
    return NULL;

  return adw_clamp_get_child (ADW_CLAMP (clamp));
}
