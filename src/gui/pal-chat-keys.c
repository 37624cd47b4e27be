/* pal-chat-keys.c: the chat for the keyboard
 *
 * Every row of the chat takes the focus (and shows it): Up and Down go
 * from row to row. Tab goes into the row with the
 * focus, through its buttons, expanders and text, and from the last of them
 * out of the chat (to the composer); Shift+Tab goes back through them to
 * the row, and from the row out of the chat the other way. The focus that
 * comes into the chat lands on the last row on screen, not on the first row
 * of a long transcript.
 *
 * GTK 4.8's list view takes Tab from anything in a row to the next row, so
 * that a row's second button is never reached, and its Up and Down follow
 * a focus it only knows of when the row itself is focused: these keys are
 * handled here, before it sees them. From GTK 4.12, gtk_list_view_set_tab_behavior
 * (GTK_LIST_TAB_ITEM) does the same, and this file's Tab handling can go.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-chat-view-private.h"

/* The widget a row of the list view shows (the child of its clamp), that
 * @widget is or is in; NULL when @widget is not in a row */
static GtkWidget *
row_of (PalChatView *self,
        GtkWidget   *widget)
{
  GtkWidget *list = GTK_WIDGET (self->list_view);

  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    {
      GtkWidget *parent = gtk_widget_get_parent (w);

      /* list view > row (list item) > clamp > the row's widget */
      if (parent != NULL && gtk_widget_get_parent (parent) != NULL &&
          gtk_widget_get_parent (gtk_widget_get_parent (parent)) == list)
        return w;
    }

  return NULL;
}

/* Moves the focus to what comes after (or before) @widget in the focus
 * chain, as Tab would from the last widget of @widget's subtree */
static gboolean
focus_past (GtkWidget        *widget,
            GtkDirectionType  direction)
{
  for (GtkWidget *w = widget; w != NULL && !GTK_IS_ROOT (w); w = gtk_widget_get_parent (w))
    {
      for (GtkWidget *s = direction == GTK_DIR_TAB_FORWARD ? gtk_widget_get_next_sibling (w)
                                                           : gtk_widget_get_prev_sibling (w);
           s != NULL;
           s = direction == GTK_DIR_TAB_FORWARD ? gtk_widget_get_next_sibling (s)
                                                : gtk_widget_get_prev_sibling (s))
        {
          if (gtk_widget_get_visible (s) && gtk_widget_child_focus (s, direction))
            return TRUE;
        }
    }

  return FALSE;
}

static gboolean
tab_pressed (PalChatView      *self,
             GtkDirectionType  direction)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *row = focus != NULL ? row_of (self, focus) : NULL;

  if (row == NULL)
    return FALSE;

  if (direction == GTK_DIR_TAB_FORWARD)
    {
      /* on through the row's own widgets, then out */
      if (!gtk_widget_child_focus (row, direction))
        focus_past (GTK_WIDGET (self->list_view), direction);
      return TRUE;
    }

  if (focus == row)
    focus_past (GTK_WIDGET (self->list_view), direction);
  else if (!gtk_widget_child_focus (row, direction))
    gtk_widget_grab_focus (row);

  return TRUE;
}

/* The row above or below @row's (they are the list view's children in the
 * order of the items) takes the focus, brought on screen */
static gboolean
arrow_pressed (PalChatView *self,
               int          step)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *row = focus != NULL ? row_of (self, focus) : NULL;
  GtkWidget *list_item;

  /* text keeps its keys */
  if (row == NULL || GTK_IS_TEXT_VIEW (focus) || GTK_IS_EDITABLE (focus))
    return FALSE;

  list_item = gtk_widget_get_parent (gtk_widget_get_parent (row));
  for (GtkWidget *next = step > 0 ? gtk_widget_get_next_sibling (list_item)
                                  : gtk_widget_get_prev_sibling (list_item);
       next != NULL;
       next = step > 0 ? gtk_widget_get_next_sibling (next) : gtk_widget_get_prev_sibling (next))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (next);
      GtkWidget *next_row = clamp != NULL ? gtk_widget_get_first_child (clamp) : NULL;

      if (next_row != NULL && gtk_widget_get_visible (next) && gtk_widget_get_focusable (next_row))
        {
          /* the person moves: the view stays where they take it */
          if (step < 0)
            _pal_chat_view_set_stick_to_bottom (self, FALSE);
          gtk_widget_grab_focus (next_row);
          gtk_widget_activate_action (next, "listitem.scroll-to", NULL);
          return TRUE;
        }
    }

  return TRUE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                PalChatView           *self)
{
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();

  if ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) && mods == 0)
    return tab_pressed (self, GTK_DIR_TAB_FORWARD);
  if (keyval == GDK_KEY_ISO_Left_Tab || ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) &&
                                         mods == GDK_SHIFT_MASK))
    return tab_pressed (self, GTK_DIR_TAB_BACKWARD);
  if ((keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up) && mods == 0)
    return arrow_pressed (self, -1);
  if ((keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down) && mods == 0)
    return arrow_pressed (self, 1);

  return FALSE;
}

/* The last row on screen, or NULL */
static GtkWidget *
last_row_on_screen (PalChatView *self)
{
  GtkWidget *last = NULL;
  double last_y = -G_MAXDOUBLE;

  for (GtkWidget *item = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       item != NULL;
       item = gtk_widget_get_next_sibling (item))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (item);
      GtkWidget *row = clamp != NULL ? gtk_widget_get_first_child (clamp) : NULL;
      graphene_rect_t bounds;

      if (row == NULL || !gtk_widget_get_focusable (row) ||
          _pal_chat_view_widget_distance (self, item) != 0 ||
          !gtk_widget_compute_bounds (item, GTK_WIDGET (self->scroller), &bounds))
        continue;
      if (bounds.origin.y > last_y)
        {
          last_y = bounds.origin.y;
          last = row;
        }
    }

  return last;
}

static void
focus_enter_cb (GtkEventControllerFocus *controller,
                PalChatView             *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *row = focus != NULL ? row_of (self, focus) : NULL;
  GtkWidget *left = self->focus_row;
  GtkWidget *last;

  /* something in a row took it (a click on its text or a button) */
  if (row != NULL && row != focus)
    return;
  /* the row the focus left, back on it when still on screen; else the
   * list view's choice (its first row, or the one it last had) gives way
   * to the last row on screen */
  if (left != NULL && gtk_widget_get_mapped (left) && row_of (self, left) == left &&
      _pal_chat_view_widget_distance (self, left) == 0)
    {
      if (left != row)
        gtk_widget_grab_focus (left);
      return;
    }

  last = last_row_on_screen (self);
  if (last != NULL && last != row)
    gtk_widget_grab_focus (last);
}

/* the row the focus is in, to come back to */
static void
root_notify_focus_cb (GtkRoot     *root,
                      GParamSpec  *pspec,
                      PalChatView *self)
{
  GtkWidget *focus = gtk_root_get_focus (root);
  GtkWidget *row = focus != NULL ? row_of (self, focus) : NULL;

  if (row != NULL)
    g_set_weak_pointer (&self->focus_row, row);
}

void
_pal_chat_keys_map (PalChatView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  g_set_weak_pointer (&self->focus_root, root);
  self->focus_root_id = g_signal_connect (root, "notify::focus-widget",
                                          G_CALLBACK (root_notify_focus_cb), self);
}

void
_pal_chat_keys_unmap (PalChatView *self)
{
  if (self->focus_root != NULL)
    g_clear_signal_handler (&self->focus_root_id, self->focus_root);
  g_clear_weak_pointer (&self->focus_root);
  g_clear_weak_pointer (&self->focus_row);
}

/* Rows take the focus themselves: a row's widget is made focusable when it
 * is put in the list (see _pal_chat_keys_row_made ()) */
void
_pal_chat_keys_init (PalChatView *self)
{
  GtkEventController *controller;

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), controller);

  controller = gtk_event_controller_focus_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (focus_enter_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), controller);
}

/* @row, the widget of a row just put in the list, takes the focus */
void
_pal_chat_keys_row_made (PalChatView *self,
                         GtkWidget   *row)
{
  gtk_widget_set_focusable (row, TRUE);
  gtk_widget_add_css_class (row, "chat-row");
}

/**
 * pal_chat_view_focus_last:
 * @self: a #PalChatView
 *
 * Scrolls to the end and puts the focus on the last row.
 *
 * Returns: whether a row took the focus
 */
gboolean
pal_chat_view_focus_last (PalChatView *self)
{
  GtkWidget *last;

  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), FALSE);

  pal_chat_view_scroll_to_bottom (self);
  last = last_row_on_screen (self);

  return last != NULL && gtk_widget_grab_focus (last);
}

/**
 * pal_chat_view_focus_item:
 * @self: a #PalChatView
 * @item: an item of the transcript
 *
 * Puts the focus on the row of @item, when it is on screen.
 *
 * Returns: whether it took the focus
 */
gboolean
pal_chat_view_focus_item (PalChatView *self,
                          gpointer     item)
{
  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), FALSE);

  for (GtkWidget *list_item = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       list_item != NULL;
       list_item = gtk_widget_get_next_sibling (list_item))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (list_item);
      GtkWidget *row = clamp != NULL ? gtk_widget_get_first_child (clamp) : NULL;

      if (row != NULL && g_object_get_data (G_OBJECT (clamp), PAL_CHAT_ROW_ITEM_KEY) == item &&
          gtk_widget_get_mapped (row))
        return gtk_widget_grab_focus (row);
    }

  return FALSE;
}
