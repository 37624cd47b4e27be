/* pal-window-layout.c: the sessions and the chat, side by side or one at a time
 *
 * Wide, the list of sessions and the chat sit side by side, the list as
 * wide as the person dragged it. Too narrow for both (a phone, half a
 * small screen) the leaflet folds: one pane at a time, the list when no
 * session is selected, the chat once one is, with a back button to the
 * list in its header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-window-private.h"

#define SIDEBAR_MIN_WIDTH 200
#define SIDEBAR_MAX_WIDTH 600
/* how far from the line between the panes a drag still moves it */
#define HANDLE_REACH 5

void
_pal_window_navigate (PalWindow *self,
                      gboolean   content)
{
  adw_leaflet_set_visible_child_name (self->leaflet, content ? "content" : "sidebar");
}

int
_pal_window_get_sidebar_width (PalWindow *self)
{
  return self->sidebar_width;
}

void
_pal_window_set_sidebar_width (PalWindow *self,
                               int        width)
{
  width = CLAMP (width, SIDEBAR_MIN_WIDTH, SIDEBAR_MAX_WIDTH);
  if (width == self->sidebar_width)
    return;

  self->sidebar_width = width;
  gtk_widget_queue_resize (GTK_WIDGET (self->sidebar_pane));
}

/* The list asks for the width the person gave it, and makes do with its
 * minimum when the window is narrower: the leaflet shares the width out by
 * what the panes ask for, and folds below their minimums. */
static void
sidebar_pane_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);
  PalWindow *self = PAL_WINDOW (gtk_widget_get_ancestor (widget, PAL_TYPE_WINDOW));

  *minimum = *natural = 0;
  *minimum_baseline = *natural_baseline = -1;
  if (child == NULL)
    return;

  gtk_widget_measure (child, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL && self != NULL)
    *natural = MAX (*minimum, self->sidebar_width);
}

static void
sidebar_pane_allocate (GtkWidget *widget,
                       int        width,
                       int        height,
                       int        baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL)
    gtk_widget_allocate (child, width, height, baseline, NULL);
}

/* Whether @x (in the leaflet) is on the line between the panes. */
static gboolean
on_handle (PalWindow *self,
           double     x)
{
  graphene_rect_t bounds;

  if (adw_leaflet_get_folded (self->leaflet) ||
      !gtk_widget_compute_bounds (self->sidebar_handle, GTK_WIDGET (self->leaflet), &bounds))
    return FALSE;

  return x >= bounds.origin.x - HANDLE_REACH &&
         x <= bounds.origin.x + bounds.size.width + HANDLE_REACH;
}

static void
handle_drag_begin_cb (GtkGestureDrag *gesture,
                      double          x,
                      double          y,
                      PalWindow      *self)
{
  if (!on_handle (self, x))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  self->drag_start_width = gtk_widget_get_width (GTK_WIDGET (self->sidebar_pane));
}

static void
handle_drag_update_cb (GtkGestureDrag *gesture,
                       double          offset_x,
                       double          offset_y,
                       PalWindow      *self)
{
  int leaflet_width = gtk_widget_get_width (GTK_WIDGET (self->leaflet));
  int content_min = 0;
  int width;

  gtk_widget_measure (adw_leaflet_get_child_by_name (self->leaflet, "content"),
                      GTK_ORIENTATION_HORIZONTAL, -1, &content_min, NULL, NULL, NULL);
  width = self->drag_start_width + (int) offset_x;
  /* the chat keeps its room: dragging does not fold the window */
  width = MIN (width, leaflet_width - content_min - gtk_widget_get_width (self->sidebar_handle));
  _pal_window_set_sidebar_width (self, width);
}

static void
handle_motion_cb (GtkEventControllerMotion *motion,
                  double                    x,
                  double                    y,
                  PalWindow                *self)
{
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self->leaflet), on_handle (self, x) ? "col-resize" : NULL);
}

/* Leaving the chat folded: the list again, where the person was. */
static void
show_sessions_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  _pal_window_navigate (PAL_WINDOW (widget), FALSE);
}

/* Whatever the content shows came from a choice in the list (or a new
 * session): folded, it is shown; the welcome is not, the list is. */
static void
content_page_cb (GtkStack   *stack,
                 GParamSpec *pspec,
                 PalWindow  *self)
{
  _pal_window_navigate (self, g_strcmp0 (gtk_stack_get_visible_child_name (stack), "welcome") != 0);
}

void
_pal_window_class_init_layout (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.show-sessions", NULL, show_sessions_action);
}

void
_pal_window_setup_layout (PalWindow *self)
{
  GtkEventController *controller;

  self->sidebar_width = 300;
  gtk_widget_set_layout_manager (GTK_WIDGET (self->sidebar_pane),
                                 gtk_custom_layout_new (NULL, sidebar_pane_measure,
                                                        sidebar_pane_allocate));

  /* the line is one pixel: a drag near it moves it too */
  controller = GTK_EVENT_CONTROLLER (gtk_gesture_drag_new ());
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "drag-begin", G_CALLBACK (handle_drag_begin_cb), self);
  g_signal_connect (controller, "drag-update", G_CALLBACK (handle_drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->leaflet), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (handle_motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->leaflet), controller);

  /* folded, the header's room goes to the session's title */
  g_object_bind_property (self->leaflet, "folded", self->state_label, "visible",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);

  g_signal_connect_object (self->content_stack, "notify::visible-child-name",
                           G_CALLBACK (content_page_cb), self, 0);
}
