/* pal-chat-view.c: the transcript of a session
 *
 * A GtkListView over the session's AcpTranscript: only the rows on screen
 * exist as widgets, so a replay of 100,000 updates costs what the screen
 * shows. Each row builds the widget for its item's kind; a long answer of
 * the agent is a run of rows, one per block of it. The view sticks to
 * the bottom while content arrives, unless the person scrolled up (a scroll,
 * a key or the scrollbar moved it: layout moving the value does not count);
 * a button then brings them back.
 *
 * Floods. A long history pouring in (a replay), or text faster than anyone
 * reads, is not built row by row: see pal-chat-flood.c.
 *
 * Pace. An agent may write faster than anyone reads (a test agent, a
 * runaway tool): the connection would fill every frame interval with
 * dispatching, and the window would answer input and paint late. While the
 * view is on screen and its content grows, it reports every frame it paints
 * to its AcpPacer (the one the connections of the agents were given) with
 * the time left for incoming messages: connections dispatch that much after
 * each frame, and the frame keeps time. That slice shrinks while frames
 * come late (a tenth over the refresh interval) and grows back slowly while
 * they come in time. A flood is the exception:
 * its frames cost little and the sooner the history is in the better, so
 * while it lasts (and while it settles) messages go at their own pace, as
 * they do when nothing grows here (another session is loading, say); but
 * when text floods in, the frame before a relabelling of the lines gives
 * the smallest slice, so that the relabelling frame keeps time too. When
 * the person sends a prompt, the answer waits for the frame that shows it
 * (see pal_chat_view_prompt_sent ()).
 *
 * Earlier answers. A row made for a long block of an answer lays its text
 * out at the pace of streamed text, a kilobyte a frame for all views
 * together: rows are made by the dozen when the session is shown again or
 * the person scrolls far. Text that came before does not stream: in the
 * frame that lays them out, the blocks of it on screen are shown whole
 * (see layout_cb ()), and only those off screen fill in at that pace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "acp-generic-item.h"
#include "acp-message-item.h"
#include "acp-notice-item.h"
#include "acp-pacer.h"
#include "acp-permission-item.h"
#include "acp-plan-item.h"
#include "acp-tool-call-item.h"
#include "acp-transcript.h"
#include "pal-chat-view-private.h"
#include "pal-message-row.h"
#include "pal-notice-row.h"
#include "pal-permission-row.h"
#include "pal-plan-row.h"
#include "pal-tool-call-row.h"

/* Within this many pixels of the end counts as at the bottom. */
#define BOTTOM_SLACK 48.0

/* Bytes: long agent messages are cut into blocks of at least this, a row
 * each (see PalBlockModel) */
#define BLOCK_SIZE        4096

/* On a row's clamp: the item it shows */
#define ROW_ITEM_KEY      PAL_CHAT_ROW_ITEM_KEY

/* blocks of earlier answers shown whole in a frame, at most */
#define LAGGING_FLUSH_MAX 3
/* See "Pace" above. */
#define STREAM_SLICE_MIN_US (1 * G_TIME_SPAN_MILLISECOND)
#define STREAM_SLICE_MAX_US (6 * G_TIME_SPAN_MILLISECOND)
#define GROWING_FOR_US      (100 * G_TIME_SPAN_MILLISECOND)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_STICK_TO_BOTTOM,
  PROP_PACER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PalChatView, pal_chat_view, ADW_TYPE_BIN)

/* Returns: (transfer floating): the widget showing @item */
GtkWidget *
_pal_chat_view_create_row (PalChatView *self,
                           gpointer     item)
{
  if (PAL_IS_MESSAGE_BLOCK (item))
    return pal_message_row_new_block (item);
  if (ACP_IS_MESSAGE_ITEM (item))
    return pal_message_row_new (item);
  if (ACP_IS_TOOL_CALL_ITEM (item))
    return pal_tool_call_row_new (item, self->terminal_service, self->folder);
  if (ACP_IS_PLAN_ITEM (item))
    return pal_plan_row_new (item);
  if (ACP_IS_PERMISSION_ITEM (item))
    return pal_permission_row_new (item);
  if (ACP_IS_NOTICE_ITEM (item) || ACP_IS_GENERIC_ITEM (item))
    return pal_notice_row_new (item);

  return gtk_label_new (NULL);
}

/* The time growth is measured in: the pacer's clock, like the frames it is
 * told of (a test's, when it gives the view a pacer with a clock of its
 * own) */
gint64
_pal_chat_view_now (PalChatView *self)
{
  return self->pacer != NULL ? acp_pacer_get_time (self->pacer) : g_get_monotonic_time ();
}

/* Distance in pixels from @child, a row or within one, to the visible part
 * of the chat: 0 when on screen */
double
_pal_chat_view_widget_distance (PalChatView *self,
                                GtkWidget   *child)
{
  double height = gtk_widget_get_height (GTK_WIDGET (self->scroller));
  graphene_rect_t bounds;

  /* not laid out yet: where it goes is known at the next frame (and its
   * bounds would have its style computed now, out of turn) */
  if (!gtk_widget_get_mapped (child) || gtk_widget_get_height (child) <= 0)
    return G_MAXDOUBLE / 2;
  if (!gtk_widget_compute_bounds (child, GTK_WIDGET (self->scroller), &bounds))
    return G_MAXDOUBLE;

  if (bounds.origin.y + bounds.size.height < 0)
    return -(bounds.origin.y + bounds.size.height);
  if (bounds.origin.y > height)
    return bounds.origin.y - height;
  return 0;
}

void
_pal_chat_view_remove_tick (PalChatView *self,
                            guint       *tick_id)
{
  if (*tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->list_view), *tick_id);
      *tick_id = 0;
    }
}

void
_pal_chat_view_set_stick_to_bottom (PalChatView *self,
                                    gboolean     stick)
{
  if (self->stick_to_bottom == stick)
    return;

  self->stick_to_bottom = stick;
  /* the person scrolls up: what is above must be there */
  if (!stick)
    {
      _pal_chat_flood_stop (self);
      _pal_chat_flood_settle (self);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->bottom_button), !stick);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STICK_TO_BOTTOM]);
}

void
_pal_chat_view_scroll_to_end (PalChatView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tail));
  double bottom;

  /* nothing to scroll to; and moving the value of a list view left
   * without items (a view scrolled up, given no transcript) makes GTK 4.8
   * warn that it cannot find the position */
  if (n == 0)
    return;

  self->scrolling = TRUE;

  /* GTK 4.8's list view keeps its place by an anchor item, and estimates
   * the height of rows it has not measured: setting the value to the end
   * alone can leave the last rows below the view. Bring the last item in
   * first, then go to the end of what is now measured. (From GTK 4.12,
   * gtk_list_view_scroll_to () does this in one call.) */
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", n - 1);

  bottom = gtk_adjustment_get_upper (self->vadjustment) - gtk_adjustment_get_page_size (self->vadjustment);
  gtk_adjustment_set_value (self->vadjustment, MAX (bottom, 0));

  self->scrolling = FALSE;
}

static gboolean
follow_cb (gpointer user_data)
{
  PalChatView *self = user_data;

  self->follow_id = 0;
  if (self->stick_to_bottom)
    _pal_chat_view_scroll_to_end (self);

  return G_SOURCE_REMOVE;
}

/* The adjustment changes while the list view lays itself out; a value set
 * from inside that is overridden by the list view's own anchor. Follow the
 * end once the layout is done, before the next frame: at a priority above
 * the frames', since when frames take longer than the refresh interval one
 * is always due and nothing below them runs. */
void
_pal_chat_view_queue_scroll_to_end (PalChatView *self)
{
  if (self->follow_id == 0)
    self->follow_id = g_idle_add_full (GDK_PRIORITY_REDRAW - 1, follow_cb, self, NULL);
}

static void
vadjustment_changed_cb (GtkAdjustment *adjustment,
                        PalChatView   *self)
{
  /* the content or the window grew: follow it when at the bottom */
  self->last_growth = _pal_chat_view_now (self);
  if (self->stick_to_bottom)
    _pal_chat_view_queue_scroll_to_end (self);
}

/* Layout moves the value too (rows measured, estimates corrected); only a
 * move the person just asked for may unstick the view. */
#define INPUT_WINDOW (500 * G_TIME_SPAN_MILLISECOND)

static void
vadjustment_value_changed_cb (GtkAdjustment *adjustment,
                              PalChatView   *self)
{
  double bottom;
  gboolean at_bottom;

  /* rows may come on screen */
  self->check_lagging = TRUE;
  if (self->scrolling)
    return;

  bottom = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
  at_bottom = gtk_adjustment_get_value (adjustment) >= bottom - BOTTOM_SLACK;

  if (at_bottom)
    _pal_chat_view_set_stick_to_bottom (self, TRUE);
  else if (g_get_monotonic_time () - self->last_input < INPUT_WINDOW)
    _pal_chat_view_set_stick_to_bottom (self, FALSE);
  else if (self->stick_to_bottom)
    _pal_chat_view_queue_scroll_to_end (self);
}

static void
note_input (PalChatView *self)
{
  self->last_input = g_get_monotonic_time ();
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           PalChatView              *self)
{
  note_input (self);
  return FALSE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                PalChatView           *self)
{
  note_input (self);
  return FALSE;
}

static void
scrollbar_pressed_cb (GtkGestureClick *gesture,
                      int              n_press,
                      double           x,
                      double           y,
                      PalChatView     *self)
{
  note_input (self);
}

static void
scrollbar_drag_cb (GtkGestureDrag *gesture,
                   double          x,
                   double          y,
                   PalChatView    *self)
{
  note_input (self);
}

static void
bottom_button_clicked_cb (PalChatView *self)
{
  pal_chat_view_scroll_to_bottom (self);
}

/* whatever a row shows (a summary, the row itself) takes the focus */
static void
clamp_notify_child_cb (AdwClamp    *clamp,
                       GParamSpec  *pspec,
                       PalChatView *self)
{
  GtkWidget *child = adw_clamp_get_child (clamp);
  GtkWidget *list_item = gtk_widget_get_parent (GTK_WIDGET (clamp));

  if (child == NULL)
    return;
  _pal_chat_keys_row_made (self, child);
  /* the list's row is named after the row it shows */
  if (list_item != NULL)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (list_item),
                                    GTK_ACCESSIBLE_RELATION_LABELLED_BY, child, NULL, -1);
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          PalChatView              *self)
{
  GtkWidget *clamp = adw_clamp_new ();

  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), PAL_CHAT_ROW_MAX_WIDTH);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), 600);
  gtk_widget_add_css_class (clamp, "transcript-row");
  g_signal_connect_object (clamp, "notify::child", G_CALLBACK (clamp_notify_child_cb), self, 0);
  gtk_list_item_set_child (list_item, clamp);
  gtk_list_item_set_activatable (list_item, FALSE);
  gtk_list_item_set_selectable (list_item, FALSE);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         PalChatView              *self)
{
  AdwClamp *clamp = ADW_CLAMP (gtk_list_item_get_child (list_item));
  gpointer item = gtk_list_item_get_item (list_item);
  GtkWidget *shown = adw_clamp_get_child (clamp);

  _pal_chat_find_bind (self, GTK_WIDGET (clamp), item);

  /* GTK 4.8 binds every row again when items are inserted before it (as
   * the earlier items come back after a flood): keep what it shows */
  if (shown != NULL && g_object_get_data (G_OBJECT (clamp), ROW_ITEM_KEY) == item)
    {
      if (gtk_widget_has_css_class (shown, "summary-row"))
        g_hash_table_add (self->summarized, list_item);
      _pal_chat_place_row_bound (self, GTK_WIDGET (clamp), item);
      return;
    }

  g_object_set_data_full (G_OBJECT (clamp), ROW_ITEM_KEY, g_object_ref (item), g_object_unref);
  _pal_chat_place_row_bound (self, GTK_WIDGET (clamp), item);
  if (self->summarize)
    {
      adw_clamp_set_child (clamp, _pal_chat_flood_create_summary_row (self, item));
      g_hash_table_add (self->summarized, list_item);
    }
  else
    {
      adw_clamp_set_child (clamp, _pal_chat_view_create_row (self, item));
      self->check_lagging = TRUE;
    }
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           PalChatView              *self)
{
  /* the row stays until the list item is bound to another item or goes:
   * it may be bound to the same item again */
  g_hash_table_remove (self->summarized, list_item);
}

static void
after_paint_cb (GdkFrameClock *frame_clock,
                PalChatView   *self)
{
  gboolean flooding = self->flood_tick != 0 || self->settle_tick != 0;
  gint64 now = g_get_monotonic_time ();
  gint64 interval = now - self->last_paint;
  gint64 since_growth = _pal_chat_view_now (self) - self->last_growth;
  gboolean growing = since_growth < GROWING_FOR_US;
  gint64 refresh = 0;
  gint64 slice = 0;
  gboolean relabels;

  /* frames one after the other, late: less for messages; in time: more */
  gdk_frame_clock_get_refresh_info (frame_clock, 0, &refresh, NULL);
  if (refresh <= 0)
    refresh = 16667;
  if (interval > refresh * 11 / 10 && interval < 4 * refresh)
    self->slice = MAX (self->slice * 2 / 3, STREAM_SLICE_MIN_US);
  else if (interval <= refresh * 21 / 20)
    self->slice = MIN (self->slice + G_TIME_SPAN_MILLISECOND / 4, STREAM_SLICE_MAX_US);
  self->last_paint = now;

  relabels = _pal_chat_flood_frame_painted (self, frame_clock, refresh);

  if (growing && !flooding)
    slice = self->slice;
  else if (relabels)
    slice = STREAM_SLICE_MIN_US;  /* the next frame relabels the lines of a stream: it keeps time too */
  if (self->pacer != NULL)
    acp_pacer_frame_painted (self->pacer, slice);
}

/* After the layout of a frame in which rows were made or the view scrolled
 * (connected after GTK's own layout): the blocks of answers that came
 * before (see pal_message_row_get_lagging ()), on screen, are shown whole,
 * not over the next frames at the pace of streamed text: LAGGING_FLUSH_MAX
 * a frame at most, the nearest the end the view holds to first. Rows just
 * made are short, so many may be on screen; shown whole, a block moves the
 * others off, and the frame clock lays out again. A flood's rows are made
 * full and shown whole by the settling. */
static void
layout_cb (GdkFrameClock *frame_clock,
           PalChatView   *self)
{
  gint64 frame = gdk_frame_clock_get_frame_counter (frame_clock);
  g_autoptr(GPtrArray) lagging = NULL;
  gboolean unplaced = FALSE;

  if (!self->check_lagging || self->flood_tick != 0 || _pal_chat_flood_reveal_pending (self))
    return;

  if (frame != self->flush_frame)
    {
      self->flush_frame = frame;
      self->flushed_in_frame = 0;
    }

  lagging = g_ptr_array_new ();
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *clamp = gtk_widget_get_first_child (row);
      GtkWidget *shown = ADW_IS_CLAMP (clamp) ? adw_clamp_get_child (ADW_CLAMP (clamp)) : NULL;
      double distance;

      if (!PAL_IS_MESSAGE_ROW (shown) || !pal_message_row_get_lagging (PAL_MESSAGE_ROW (shown)))
        continue;

      distance = _pal_chat_view_widget_distance (self, row);
      /* made in this layout: placed in the next */
      if (distance >= G_MAXDOUBLE / 2)
        unplaced = TRUE;
      else if (distance == 0)
        g_ptr_array_add (lagging, shown);
    }

  for (guint i = 0; i < lagging->len && self->flushed_in_frame < LAGGING_FLUSH_MAX; i++)
    {
      guint index = self->stick_to_bottom ? lagging->len - 1 - i : i;

      pal_message_row_flush (g_ptr_array_index (lagging, index));
      self->flushed_in_frame++;
    }

  self->check_lagging = lagging->len > 0 || unplaced;
}

static void
pal_chat_view_map (GtkWidget *widget)
{
  PalChatView *self = PAL_CHAT_VIEW (widget);

  GTK_WIDGET_CLASS (pal_chat_view_parent_class)->map (widget);

  self->frame_clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  self->after_paint_id = g_signal_connect (self->frame_clock, "after-paint",
                                           G_CALLBACK (after_paint_cb), self);
  self->layout_id = g_signal_connect_after (self->frame_clock, "layout", G_CALLBACK (layout_cb), self);
  self->check_lagging = TRUE;
  _pal_chat_keys_map (self);
}

static void
pal_chat_view_unmap (GtkWidget *widget)
{
  PalChatView *self = PAL_CHAT_VIEW (widget);

  _pal_chat_keys_unmap (self);
  if (self->frame_clock != NULL)
    {
      g_clear_signal_handler (&self->after_paint_id, self->frame_clock);
      g_clear_signal_handler (&self->layout_id, self->frame_clock);
    }
  g_clear_object (&self->frame_clock);
  /* no frame to wait for */
  _pal_chat_flood_reveal_now (self);

  GTK_WIDGET_CLASS (pal_chat_view_parent_class)->unmap (widget);
}

static void
pal_chat_view_dispose (GObject *object)
{
  PalChatView *self = PAL_CHAT_VIEW (object);

  g_clear_handle_id (&self->follow_id, g_source_remove);
  _pal_chat_keys_unmap (self);
  _pal_chat_find_dispose (self);
  _pal_chat_place_clear (self);
  _pal_chat_flood_dispose (self);
  g_clear_object (&self->model);
  g_clear_object (&self->tail);
  if (self->blocks != NULL)
    g_signal_handlers_disconnect_by_func (self->blocks, _pal_chat_flood_rows_changed_cb, self);
  g_clear_object (&self->blocks);
  g_clear_object (&self->selection);
  g_clear_object (&self->terminal_service);
  g_clear_object (&self->pacer);
  g_clear_pointer (&self->folder, g_free);

  G_OBJECT_CLASS (pal_chat_view_parent_class)->dispose (object);
}

static void
pal_chat_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  PalChatView *self = PAL_CHAT_VIEW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;

    case PROP_STICK_TO_BOTTOM:
      g_value_set_boolean (value, self->stick_to_bottom);
      break;

    case PROP_PACER:
      g_value_set_object (value, self->pacer);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_chat_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  PalChatView *self = PAL_CHAT_VIEW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      pal_chat_view_set_model (self, g_value_get_object (value));
      break;

    case PROP_PACER:
      pal_chat_view_set_pacer (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_chat_view_class_init (PalChatViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_chat_view_dispose;
  object_class->get_property = pal_chat_view_get_property;
  object_class->set_property = pal_chat_view_set_property;
  widget_class->map = pal_chat_view_map;
  widget_class->unmap = pal_chat_view_unmap;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_STICK_TO_BOTTOM] =
    g_param_spec_boolean ("stick-to-bottom", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* where frames are reported (nullable: nowhere) */
  properties[PROP_PACER] =
    g_param_spec_object ("pacer", NULL, NULL, ACP_TYPE_PACER,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "chatview");
}

static void
pal_chat_view_init (PalChatView *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *overlay = gtk_overlay_new ();

  self->stick_to_bottom = TRUE;
  self->slice = STREAM_SLICE_MAX_US;
  /* transcript → rows (long answers cut into blocks) → the end of them;
   * the flood check sees a change of the rows before the tail model does */
  self->blocks = pal_block_model_new (BLOCK_SIZE);
  g_signal_connect (self->blocks, "items-changed", G_CALLBACK (_pal_chat_flood_rows_changed_cb), self);
  g_signal_connect_after (self->blocks, "items-changed", G_CALLBACK (_pal_chat_flood_rows_prepended_cb),
                          self);
  self->tail = pal_tail_model_new ();
  pal_tail_model_set_model (self->tail, G_LIST_MODEL (self->blocks), G_MAXUINT);
  self->selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->tail)));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);

  self->list_view = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)),
                                                      factory));
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "transcript");
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "background");

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Messages"), -1);
  _pal_chat_keys_init (self);

  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (self->scroller, GTK_WIDGET (self->list_view));
  gtk_widget_set_vexpand (GTK_WIDGET (self->scroller), TRUE);

  /* what counts as the person scrolling */
  {
    GtkEventController *controller;
    GtkWidget *scrollbar = gtk_scrolled_window_get_vscrollbar (self->scroller);

    controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
    gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
    g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self->scroller), controller);

    controller = gtk_event_controller_key_new ();
    gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
    g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self->scroller), controller);

    controller = GTK_EVENT_CONTROLLER (gtk_gesture_click_new ());
    gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
    g_signal_connect (controller, "pressed", G_CALLBACK (scrollbar_pressed_cb), self);
    gtk_widget_add_controller (scrollbar, controller);

    controller = GTK_EVENT_CONTROLLER (gtk_gesture_drag_new ());
    gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
    g_signal_connect (controller, "drag-update", G_CALLBACK (scrollbar_drag_cb), self);
    gtk_widget_add_controller (scrollbar, controller);
  }

  self->vadjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect (self->vadjustment, "changed", G_CALLBACK (vadjustment_changed_cb), self);
  g_signal_connect (self->vadjustment, "value-changed", G_CALLBACK (vadjustment_value_changed_cb), self);

  self->bottom_button = GTK_BUTTON (gtk_button_new_from_icon_name ("go-bottom-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->bottom_button), _("Scroll to the End"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->bottom_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scroll to the End"), -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->bottom_button), "osd");
  gtk_widget_add_css_class (GTK_WIDGET (self->bottom_button), "circular");
  gtk_widget_set_halign (GTK_WIDGET (self->bottom_button), GTK_ALIGN_END);
  gtk_widget_set_valign (GTK_WIDGET (self->bottom_button), GTK_ALIGN_END);
  gtk_widget_set_margin_end (GTK_WIDGET (self->bottom_button), 18);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->bottom_button), 18);
  gtk_widget_set_visible (GTK_WIDGET (self->bottom_button), FALSE);
  g_signal_connect_swapped (self->bottom_button, "clicked", G_CALLBACK (bottom_button_clicked_cb), self);

  gtk_overlay_set_child (GTK_OVERLAY (overlay), GTK_WIDGET (self->scroller));
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), _pal_chat_flood_init (self));
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), GTK_WIDGET (self->bottom_button));
  /* a flood's panel may have a line more than the chat has room for, at
   * its top (its lines are counted before the window is laid out anew):
   * never over the header bar */
  gtk_widget_set_overflow (overlay, GTK_OVERFLOW_HIDDEN);
  adw_bin_set_child (ADW_BIN (self), overlay);
}

GtkWidget *
pal_chat_view_new (void)
{
  return g_object_new (PAL_TYPE_CHAT_VIEW, NULL);
}

GListModel *
pal_chat_view_get_model (PalChatView *self)
{
  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), NULL);

  return self->model;
}

/**
 * pal_chat_view_set_model:
 * @self: a #PalChatView
 * @model: (nullable): a transcript (a #GListModel of #AcpItem)
 *
 * Shows @model, scrolled to its end.
 */
void
pal_chat_view_set_model (PalChatView *self,
                         GListModel  *model)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;

  _pal_chat_flood_stop (self);
  self->expect_flood = FALSE;
  _pal_chat_view_remove_tick (self, &self->settle_tick);
  pal_chat_view_clear_reveal (self);
  _pal_chat_place_clear (self);
  g_set_object (&self->model, model);
  _pal_chat_view_set_stick_to_bottom (self, TRUE);

  /* A long transcript: its end at once (as summaries), the rest over the
   * next frames. The rows are not a flood. */
  pal_tail_model_set_model (self->tail, NULL, G_MAXUINT);
  g_signal_handlers_block_by_func (self->blocks, _pal_chat_flood_rows_changed_cb, self);
  pal_block_model_set_model (self->blocks, model);
  g_signal_handlers_unblock_by_func (self->blocks, _pal_chat_flood_rows_changed_cb, self);
  self->summarize = g_list_model_get_n_items (G_LIST_MODEL (self->blocks)) > PAL_CHAT_FLOOD_KEEP_MAX;
  pal_tail_model_set_model (self->tail, G_LIST_MODEL (self->blocks), _pal_chat_flood_keep (self));
  _pal_chat_flood_settle (self);
  self->opening = self->settle_tick != 0;
  self->opening_filled = 0;
  _pal_chat_view_scroll_to_end (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

gboolean
pal_chat_view_get_stick_to_bottom (PalChatView *self)
{
  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), FALSE);

  return self->stick_to_bottom;
}

void
pal_chat_view_scroll_to_bottom (PalChatView *self)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  _pal_chat_view_set_stick_to_bottom (self, TRUE);
  _pal_chat_view_scroll_to_end (self);
}

/**
 * pal_chat_view_prompt_sent:
 * @self: a #PalChatView
 *
 * The person sent a prompt: the view goes to the end and follows the
 * answer. While the view is on screen, the frame that shows the prompt (and
 * the composer emptied, the session working) comes first: the answer's
 * messages wait for it (see acp_pacer_hold_until_frame()), rather than have
 * an agent quick to answer put the first rows of the answer into that frame
 * too; that takes a pacer (pal_chat_view_set_pacer()).
 */
void
pal_chat_view_prompt_sent (PalChatView *self)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  pal_chat_view_scroll_to_bottom (self);
  if (self->frame_clock != NULL)
    {
      /* the answer grows the content: frames keep pacing the messages,
       * from the smallest slice (its first frames build its first rows) */
      self->last_growth = _pal_chat_view_now (self);
      self->slice = STREAM_SLICE_MIN_US;
      if (self->pacer != NULL)
        acp_pacer_hold_until_frame (self->pacer);
    }
}

/**
 * pal_chat_view_set_pacer:
 * @self: a #PalChatView
 * @pacer: (nullable): where to report the frames painted, the pacer of the
 *   connections whose messages the view shows; %NULL: nowhere
 */
void
pal_chat_view_set_pacer (PalChatView *self,
                         AcpPacer    *pacer)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));
  g_return_if_fail (pacer == NULL || ACP_IS_PACER (pacer));

  if (!g_set_object (&self->pacer, pacer))
    return;

  /* timed by another clock */
  self->last_growth = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PACER]);
}

/**
 * pal_chat_view_get_pacer:
 * @self: a #PalChatView
 *
 * Returns: (transfer none) (nullable): where the frames painted are reported
 */
AcpPacer *
pal_chat_view_get_pacer (PalChatView *self)
{
  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), NULL);

  return self->pacer;
}

/**
 * pal_chat_view_set_terminal_service:
 * @self: a #PalChatView
 * @service: (nullable): where the agent's terminals run, for tool calls that
 *   embed one
 */
void
pal_chat_view_set_terminal_service (PalChatView        *self,
                                    AcpTerminalService *service)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));
  g_return_if_fail (service == NULL || ACP_IS_TERMINAL_SERVICE (service));

  g_set_object (&self->terminal_service, service);
}

/**
 * pal_chat_view_set_folder:
 * @self: a #PalChatView
 * @folder: (nullable): the session's project folder: the files tool calls
 *   name are shown relative to it
 *
 * Applies to the rows made from then on: set it before the model.
 */
void
pal_chat_view_set_folder (PalChatView *self,
                          const char  *folder)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  g_free (self->folder);
  self->folder = g_strdup (folder);
}

/**
 * pal_chat_view_begin_flood:
 * @self: a #PalChatView
 *
 * Says that a long history is about to pour in (a session loads): it is
 * shown as a flood from its first item on, however small the batches, and
 * the flood lasts until pal_chat_view_end_flood(). Without this, the first
 * batches of a replay (smaller than a flood's) are built as full rows, tens
 * of them in one frame.
 */
void
pal_chat_view_begin_flood (PalChatView *self)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  self->expect_flood = TRUE;
}

/**
 * pal_chat_view_end_flood:
 * @self: a #PalChatView
 *
 * Tells the view that no more items are coming for now (a replay ended): a
 * flood is then shown in full at once rather than after a pause.
 */
void
pal_chat_view_end_flood (PalChatView *self)
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  self->expect_flood = FALSE;

  if (ACP_IS_TRANSCRIPT (self->model))
    acp_transcript_flush (ACP_TRANSCRIPT (self->model));

  if (self->flood_tick != 0)
    {
      _pal_chat_flood_stop (self);
      _pal_chat_flood_settle (self);
    }
}

/**
 * pal_chat_view_get_caught_up:
 * @self: a #PalChatView
 *
 * Returns: whether the list holds every row of the transcript: no flood
 *   under way, no row held back
 */
gboolean
pal_chat_view_get_caught_up (PalChatView *self)
{
  g_return_val_if_fail (PAL_IS_CHAT_VIEW (self), FALSE);

  return self->flood_tick == 0 &&
         pal_tail_model_get_hidden (self->tail) == 0 &&
         pal_tail_model_get_waiting (self->tail) == 0;
}

void
pal_chat_view_set_block_clock (PalChatView  *self,
                               gint64      (*clock) (void))
{
  g_return_if_fail (PAL_IS_CHAT_VIEW (self));

  pal_block_model_set_clock (self->blocks, clock);
}
