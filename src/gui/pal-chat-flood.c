/* pal-chat-flood.c: the chat view when items pour in faster than rows can
 * be built
 *
 * GTK 4.8's list view keeps up to 200 rows alive around its anchor,
 * and a row costs a couple of milliseconds to build and lay out here. When a
 * long history pours in at the end (a replay: hundreds of items a frame),
 * following it would build 200 rows at every jump. So a batch of at least
 * FLOOD_BATCH items while the view follows the end starts a flood (any
 * batch between pal_chat_view_begin_flood() and pal_chat_view_end_flood(),
 * while a session loads), and so does an answer growing by FLOOD_TEXT_BLOCKS
 * blocks within FLOOD_TEXT_US (a runaway agent: nobody reads that fast,
 * and every frame would build and lay out new rows of text): until no item
 * has come for FLOOD_CALM_MS (or pal_chat_view_end_flood() says so), the
 * list view is left alone (its model frozen) and a panel over it shows the
 * last items as lines of text, one summary line each, relabelled every
 * FLOOD_RELABEL_US at most (the lines of items still shown move up): no
 * row is built while the flood lasts. The lines go by too fast to be read
 * whole: each shows two thirds of the width at most (what a relabelling
 * draws, the costliest frames of a flood, is that much less).
 *
 * When it is over, the list view gets only as many of the last items as fill
 * the window (judged by the average height of the rows it showed,
 * FLOOD_KEEP_SPARE more), bound as summaries: one line of text, a fraction
 * of the cost of a full row. Then, at every frame, for as long as a budget
 * allows: full rows for the summaries on screen, then the earlier items
 * back, EXPAND_STEP at a time, the nearest first (as summaries: the list
 * view builds rows for the 200 nearest; once EXPAND_ALL are back the rest
 * come at once), then full rows for the summaries off screen. The list stays
 * under the panel until the summaries on screen are full rows (for
 * REVEAL_WAIT_FRAMES at most) and, after text poured in, one frame more,
 * until their text is laid out to be drawn. Scrolling up ends a flood at
 * once. The
 * budget follows what the last frame cost, from the start of this work to
 * its paint (the rows made full are laid out and drawn after it), so that a
 * frame takes SETTLE_FRAME_US; after text poured in, SETTLE_FRAME_POURED_US
 * (a frame of a stream is to keep time).
 *
 * All of this works around GTK 4.8's list view (Debian 12), which builds
 * and measures up to 200 rows around its anchor whenever it jumps. Measure
 * it again on a newer GTK: from 4.12 a list view can scroll to an item
 * (gtk_list_view_scroll_to ()) and builds its rows by tiles, and this file
 * may then be unnecessary.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "acp-generic-item.h"
#include "acp-message-item.h"
#include "acp-notice-item.h"
#include "acp-permission-item.h"
#include "acp-plan-item.h"
#include "acp-tool-call-item.h"
#include "pal-chat-view-private.h"
#include "pal-message-row.h"
#include "pal-summary-line.h"
#include "pal-text-view.h"

/* See above. */
#define FLOOD_BATCH       24
#define FLOOD_CALM_MS     120
#define FLOOD_RELABEL_US  (80 * G_TIME_SPAN_MILLISECOND)
#define FLOOD_LINES_MAX   80
#define FLOOD_KEEP_MIN    8
#define FLOOD_KEEP_SPARE  3
#define FLOOD_ROW_GUESS   56.0   /* pixels, when no row is there to judge by */
#define FLOOD_TEXT_BLOCKS 3      /* of the block size (4 KiB): 120 KB/s, when real agents send a few */
#define FLOOD_TEXT_US     (100 * G_TIME_SPAN_MILLISECOND)
#define EXPAND_STEP       10
#define EXPAND_ALL        210
#define SETTLE_BUDGET_US     (3 * G_TIME_SPAN_MILLISECOND)
#define SETTLE_BUDGET_MIN_US (G_TIME_SPAN_MILLISECOND / 4)
#define SETTLE_BUDGET_MAX_US (7 * G_TIME_SPAN_MILLISECOND)
#define SETTLE_FRAME_US      (18 * G_TIME_SPAN_MILLISECOND)
/* after text poured in: the frames of a stream are to keep time */
#define SETTLE_FRAME_POURED_US (5 * G_TIME_SPAN_MILLISECOND)
/* frames the rows back after a flood stay hidden at most, waiting for the
 * summaries on screen to become full rows */
#define REVEAL_WAIT_FRAMES 8
#define SUMMARY_MIN_CHARS 16
#define SUMMARY_MAX_CHARS PAL_CHAT_SUMMARY_MAX_CHARS

/* Returns: (transfer full): @line of Markdown without the marks a reader
 * would not see: a heading's, a list item's or a quote's lead, emphasis
 * and code marks */
static char *
strip_markup (const char *line)
{
  GString *text = g_string_sized_new (strlen (line));
  const char *p = line;

  while (*p == '#' || *p == '>' || *p == ' ')
    p++;
  if ((*p == '-' || *p == '*' || *p == '+') && p[1] == ' ')
    p += 2;

  for (; *p != '\0'; p++)
    {
      /* a lone star between spaces is arithmetic, not emphasis */
      if (*p == '`' || (*p == '*' && !(p > line && p[-1] == ' ' && p[1] == ' ')))
        continue;
      g_string_append_c (text, *p);
    }

  return g_string_free (text, FALSE);
}

/* Returns: (transfer full): one line that stands for @item, of
 * @max_chars characters at most */
static char *
summarize_item (gpointer item,
                guint    max_chars)
{
  const char *text = NULL;
  const char *newline;
  gsize length;
  g_autofree char *line = NULL;

  if (PAL_IS_MESSAGE_BLOCK (item))
    {
      AcpMessageItem *message = pal_message_block_get_item (item);
      gsize start = pal_message_block_get_start (item);

      text = acp_message_item_get_text (message) + MIN (start, acp_message_item_get_text_length (message));
    }
  else if (ACP_IS_MESSAGE_ITEM (item))
    {
      if (acp_message_item_get_role (item) == ACP_MESSAGE_ROLE_THOUGHT)
        return g_strdup (_("Thought"));
      text = acp_message_item_get_text (item);
    }
  else if (ACP_IS_TOOL_CALL_ITEM (item))
    {
      text = acp_tool_call_item_get_title (item);
      if (text == NULL || *text == '\0')
        text = _("Tool call");
    }
  else if (ACP_IS_PLAN_ITEM (item))
    text = _("Plan");
  else if (ACP_IS_PERMISSION_ITEM (item))
    text = _("Permission request");
  else if (ACP_IS_NOTICE_ITEM (item))
    text = acp_notice_item_get_title (item);

  if (text == NULL)
    return g_strdup ("");

  /* the first line, cut short (without reading a long text to its end):
   * the label ellipsizes what does not fit */
  length = strnlen (text, (gsize) max_chars * 4);
  newline = memchr (text, '\n', length);
  if (newline != NULL)
    length = (gsize) (newline - text);
  line = g_utf8_make_valid (text, (gssize) length);
  if (max_chars > 1 && g_utf8_strlen (line, -1) > max_chars)
    {
      /* cut where it could not be seen anyway, with the ellipsis it would get */
      char *shortened;

      *g_utf8_offset_to_pointer (line, max_chars - 1) = '\0';
      shortened = g_strconcat (line, "…", NULL);
      g_free (line);
      line = shortened;
    }

  /* Claude's tool call titles hold Markdown too */
  if (ACP_IS_MESSAGE_ITEM (item) || PAL_IS_MESSAGE_BLOCK (item) || ACP_IS_TOOL_CALL_ITEM (item))
    return strip_markup (line);

  return g_steal_pointer (&line);
}

/* About how many characters a line of the transcript shows, by the average
 * width of its font's characters */
static guint
measure_line_chars (PalChatView *self)
{
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  PangoFontMetrics *metrics = pango_context_get_metrics (context, NULL, NULL);
  int char_width = pango_font_metrics_get_approximate_char_width (metrics);
  int width = MIN (gtk_widget_get_width (GTK_WIDGET (self)), PAL_CHAT_ROW_MAX_WIDTH);

  pango_font_metrics_unref (metrics);
  if (width <= 0 || char_width <= 0)
    return SUMMARY_MAX_CHARS;

  return (guint) ((gint64) width * PANGO_SCALE / char_width);
}

/* The most characters of a summary row: longer, it would be shaped and
 * broken whole only to be ellipsized (a third to spare: narrow letters come
 * in runs) */
static guint
summary_chars (PalChatView *self)
{
  return CLAMP (self->line_chars * 4 / 3 + 1, SUMMARY_MIN_CHARS, SUMMARY_MAX_CHARS);
}

/* The most characters of a line of a flood's panel: two thirds of the
 * width. Its lines go by too fast to be read whole, and every character is
 * drawn again at every relabelling, the costliest frames of a flood. */
static guint
flood_line_chars (PalChatView *self)
{
  return CLAMP (self->line_chars * 2 / 3, SUMMARY_MIN_CHARS, SUMMARY_MAX_CHARS);
}

/* Returns: (transfer floating): a one-line stand-in for @item's row (see
 * pal-summary-line.c) */
GtkWidget *
_pal_chat_flood_create_summary_row (PalChatView *self,
                                    gpointer     item)
{
  g_autofree char *text = NULL;
  GtkWidget *line;

  if (item != NULL)
    text = summarize_item (item, summary_chars (self));
  line = pal_summary_line_new (GTK_WIDGET (self), text);
  /* dimmed by its colour (see style.css): the dim-label class's opacity
   * would draw every line apart and blend it in */
  gtk_widget_add_css_class (line, "summary-row");

  return line;
}

/* The same for the row of @list_item */
static double
distance_to_view (PalChatView *self,
                  GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  return child != NULL ? _pal_chat_view_widget_distance (self, child) : G_MAXDOUBLE;
}

/* A full row for the summary of @list_item. The text of a block is shown
 * at the pace of streamed text (a frame would not hold the layout of
 * many), but whole at once @on_screen. */
static void
upgrade_row (PalChatView *self,
             GtkListItem *list_item,
             gboolean     on_screen)
{
  AdwClamp *clamp = ADW_CLAMP (gtk_list_item_get_child (list_item));
  GtkWidget *row = _pal_chat_view_create_row (self, gtk_list_item_get_item (list_item));

  g_hash_table_remove (self->summarized, list_item);
  adw_clamp_set_child (clamp, row);
  if (on_screen && PAL_IS_MESSAGE_ROW (row))
    pal_message_row_flush (PAL_MESSAGE_ROW (row));
  if (on_screen)
    self->rows_prepared = FALSE;
}

/* The summary row nearest the window (its distance in @distance), or
 * NULL; of those on screen, the last (the bottom one, while the view
 * follows the end) */
static GtkListItem *
nearest_summary (PalChatView *self,
                 double      *distance)
{
  GHashTableIter iter;
  gpointer key;
  GtkListItem *nearest = NULL;

  *distance = G_MAXDOUBLE;
  g_hash_table_iter_init (&iter, self->summarized);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      double d = distance_to_view (self, key);

      if (nearest == NULL || d < *distance ||
          (d == 0 && gtk_list_item_get_position (key) > gtk_list_item_get_position (nearest)))
        {
          nearest = key;
          *distance = d;
        }
    }

  return nearest;
}

/* After a flood, at every frame for as long as its budget allows: full
 * rows for the summaries on screen first, then the hidden items back (the
 * nearest first, as summaries), then full rows for the summaries off screen */
static gboolean
settle_tick_cb (GtkWidget     *widget,
                GdkFrameClock *frame_clock,
                gpointer       user_data)
{
  PalChatView *self = user_data;
  gint64 start = g_get_monotonic_time ();
  gint64 exempt = 0;

  /* what the work here brings to a frame (the layout and paint of the rows
   * made full) depends on the machine and on the rows: the last frame, from
   * here to its paint, tells how much of it fits in the frame wanted */
  if (self->settle_used > 0 && self->last_paint > self->settle_started)
    {
      gint64 cost = self->last_paint - self->settle_started;
      gint64 wanted = self->poured ? SETTLE_FRAME_POURED_US : SETTLE_FRAME_US;
      gint64 budget = self->settle_used * wanted / MAX (cost, 1);

      budget = CLAMP (budget, self->settle_budget / 2, self->settle_budget * 3 / 2);
      self->settle_budget = CLAMP (budget, SETTLE_BUDGET_MIN_US, SETTLE_BUDGET_MAX_US);
    }
  self->settle_started = start;
  self->settle_used = 0;

  /* the frame that draws the rows back for the first time has enough to
   * do, and so, after text poured in, has the one that lays out their
   * text to be drawn: a stream's frames are to keep time */
  if (self->revealed ||
      (self->poured && (self->prepare_tick != 0 ||
                        (self->rows_prepared && _pal_chat_flood_reveal_pending (self)))))
    {
      self->revealed = FALSE;
      return G_SOURCE_CONTINUE;
    }
  self->revealed = FALSE;

  do
    {
      double distance;
      GtkListItem *nearest = nearest_summary (self, &distance);
      guint hidden = pal_tail_model_get_hidden (self->tail);

      if (nearest != NULL && distance >= G_MAXDOUBLE / 2 && self->settle_waits < 2 &&
          (self->poured || _pal_chat_flood_reveal_pending (self)))
        {
          /* the rows just bound are not laid out: which of them are on
           * screen is known at the next frame, and they come first (once
           * the rows of a replay show, those on screen are full rows) */
          self->settle_waits++;
          break;
        }
      else if (nearest != NULL && distance == 0 && self->poured &&
               PAL_IS_MESSAGE_BLOCK (gtk_list_item_get_item (nearest)))
        {
          /* after text poured in, a block of a long answer, one a frame:
           * laid out, it moves the rows above it, and which of them are
           * still on screen is known at the next frame. Its cost is its
           * own, not the budget's. After a replay, whose rows are hidden
           * until those on screen are full and whose frames need not keep
           * a stream's time, blocks come within the budget like other
           * rows: one that ends up above the window is made full a little
           * early, and the rows show frames sooner. */
          upgrade_row (self, nearest, TRUE);
          self->settle_used = 0;
          break;
        }
      else if (nearest != NULL && distance == 0)
        {
          gint64 before = g_get_monotonic_time ();

          upgrade_row (self, nearest, TRUE);
          /* a transcript just shown, as a person waits to read it: what is
           * on screen comes whole in this frame, from the bottom up until
           * the window is full (the summaries above then go off screen),
           * whatever the budget */
          if (self->opening &&
              self->opening_filled < gtk_adjustment_get_page_size (self->vadjustment))
            {
              GtkWidget *clamp = gtk_list_item_get_child (nearest);
              int height = 0;

              gtk_widget_measure (clamp, GTK_ORIENTATION_VERTICAL,
                                  gtk_widget_get_width (GTK_WIDGET (self->list_view)),
                                  NULL, &height, NULL, NULL);
              self->opening_filled += height;
              exempt += g_get_monotonic_time () - before;
              /* the next layout tells what is still on screen */
              if (self->opening_filled >= gtk_adjustment_get_page_size (self->vadjustment))
                break;
            }
        }
      else if (nearest != NULL && hidden == 0)
        {
          upgrade_row (self, nearest, FALSE);
        }
      else if (hidden > 0)
        {
          guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->tail));

          /* a transcript just shown: all of it at once, rows for the 200
           * nearest as summaries in one frame */
          pal_tail_model_expand (self->tail,
                                 shown >= EXPAND_ALL || self->opening ? G_MAXUINT : EXPAND_STEP);
          /* every item is back: rows built from now on are full ones */
          if (pal_tail_model_get_hidden (self->tail) == 0)
            self->summarize = FALSE;
        }
      else
        {
          self->summarize = FALSE;
          self->opening = FALSE;
          self->settle_tick = 0;
          return G_SOURCE_REMOVE;
        }

      self->settle_used = g_get_monotonic_time () - start - exempt;
    }
  while (self->settle_used < self->settle_budget);

  /* such a frame does not tell what the budget buys */
  if (exempt > 0)
    self->settle_used = 0;

  return G_SOURCE_CONTINUE;
}

void
_pal_chat_flood_settle (PalChatView *self)
{
  gboolean hidden = pal_tail_model_get_hidden (self->tail) > 0;

  self->summarize = hidden;
  self->settle_waits = 0;
  self->revealed = FALSE;
  self->settle_started = 0;
  self->settle_budget = SETTLE_BUDGET_US;
  self->settle_used = 0;
  if (self->settle_tick == 0 && (hidden || g_hash_table_size (self->summarized) > 0))
    self->settle_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view),
                                                      settle_tick_cb, self, NULL);
}

/* How many of the last items fill the window, judged by the rows shown */
guint
_pal_chat_flood_keep (PalChatView *self)
{
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->tail));
  double upper = gtk_adjustment_get_upper (self->vadjustment);
  double page = gtk_adjustment_get_page_size (self->vadjustment);
  double row_height;

  if (page <= 0)
    return PAL_CHAT_FLOOD_KEEP_MAX;
  if (n_shown == 0 || upper <= 0)
    return CLAMP ((guint) (page / FLOOD_ROW_GUESS) + FLOOD_KEEP_SPARE, FLOOD_KEEP_MIN, PAL_CHAT_FLOOD_KEEP_MAX);

  row_height = MAX (upper / n_shown, 1.0);
  return CLAMP ((guint) (page / row_height) + FLOOD_KEEP_SPARE, FLOOD_KEEP_MIN, PAL_CHAT_FLOOD_KEEP_MAX);
}

/* How many lines of text fill the window */
static guint
flood_line_count (PalChatView *self)
{
  GtkWidget *probe;
  int line_height = 0;
  int spacing = gtk_box_get_spacing (self->flood_box);

  if (self->flood_lines->len == 0)
    g_ptr_array_add (self->flood_lines, g_object_ref_sink (_pal_chat_flood_create_summary_row (self, NULL)));
  probe = g_ptr_array_index (self->flood_lines, 0);
  gtk_widget_measure (probe, GTK_ORIENTATION_VERTICAL, -1, NULL, &line_height, NULL, NULL);

  return CLAMP (gtk_widget_get_height (GTK_WIDGET (self->scroller)) / MAX (line_height + spacing, 1) + 1,
                1, FLOOD_LINES_MAX);
}

/* Moves the line at the top of the first @count lines to their bottom */
static void
rotate_flood_lines (PalChatView *self,
                    guint        count)
{
  GtkWidget *top = g_ptr_array_steal_index (self->flood_lines, 0);

  g_ptr_array_insert (self->flood_lines, (int) count - 1, top);
  if (count > 1)
    gtk_box_reorder_child_after (self->flood_box, top, g_ptr_array_index (self->flood_lines, count - 2));
}

static void
update_flood_lines (PalChatView *self)
{
  GListModel *rows = G_LIST_MODEL (self->blocks);
  guint n = g_list_model_get_n_items (rows);
  guint count = flood_line_count (self);

  while (self->flood_lines->len < count)
    g_ptr_array_add (self->flood_lines, g_object_ref_sink (_pal_chat_flood_create_summary_row (self, NULL)));
  for (guint i = 0; i < self->flood_lines->len; i++)
    if (gtk_widget_get_parent (g_ptr_array_index (self->flood_lines, i)) == NULL)
      gtk_box_append (self->flood_box, g_ptr_array_index (self->flood_lines, i));

  /* the lines of items still shown move up rather than take the text of
   * the line below: an unchanged text costs no new layout */
  if (count == self->flood_count && n > self->flood_shown && n - self->flood_shown < count)
    for (guint i = self->flood_shown; i < n; i++)
      rotate_flood_lines (self, count);

  for (guint i = 0; i < self->flood_lines->len; i++)
    {
      GtkWidget *line = g_ptr_array_index (self->flood_lines, i);

      /* the last line shows the last item */
      if (i < count && count - i <= n)
        {
          g_autoptr(GObject) item = g_list_model_get_item (rows, n - (count - i));
          g_autofree char *text = summarize_item (item, flood_line_chars (self));

          pal_summary_line_set_text (PAL_SUMMARY_LINE (line), text);
          gtk_widget_set_visible (line, TRUE);
        }
      else
        {
          gtk_widget_set_visible (line, FALSE);
        }
    }

  self->flood_shown = n;
  self->flood_count = count;
}

static gboolean
flood_tick_cb (GtkWidget     *widget,
               GdkFrameClock *frame_clock,
               gpointer       user_data)
{
  PalChatView *self = user_data;

  gint64 now = gdk_frame_clock_get_frame_time (frame_clock);

  /* a few times a second is as fast as lines can be read */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->blocks)) != self->flood_shown &&
      now - self->flood_relabelled >= FLOOD_RELABEL_US)
    {
      update_flood_lines (self);
      self->flood_relabelled = now;
    }

  return G_SOURCE_CONTINUE;
}

static void
start_flood (PalChatView *self)
{
  _pal_chat_view_remove_tick (self, &self->settle_tick);
  self->summarize = TRUE;
  self->opening = FALSE;
  self->line_chars = measure_line_chars (self);

  /* the list view learns of nothing until the flood is over */
  pal_tail_model_set_frozen (self->tail, TRUE);
  self->flood_shown = 0;
  self->flood_count = 0;
  self->flood_relabelled = 0;
  gtk_widget_set_visible (self->flood_panel, TRUE);
  gtk_widget_set_opacity (GTK_WIDGET (self->scroller), 0);
  self->flood_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view), flood_tick_cb, self, NULL);
}

/* Whether the rows back after a flood wait to be shown */
gboolean
_pal_chat_flood_reveal_pending (PalChatView *self)
{
  return self->flood_tick == 0 && gtk_widget_get_visible (self->flood_panel);
}

/* Whether the rows back after a flood are ready to be shown: the settling
 * makes the summaries on screen full rows first, a block of a long answer a
 * frame, while they are hidden. Shown with the summaries, they would change
 * under the eyes, and each such frame would lay out and draw the whole chat. */
static gboolean
rows_ready (PalChatView *self)
{
  double distance;

  if (self->settle_tick == 0 || !self->stick_to_bottom || self->reveal_waits >= REVEAL_WAIT_FRAMES)
    return TRUE;

  /* after a frame's layout, a row not laid out is not on screen */
  return nearest_summary (self, &distance) == NULL || distance > 0;
}

static void
prepare_draw (GtkWidget *widget)
{
  if (PAL_IS_TEXT_VIEW (widget))
    {
      if (!pal_text_view_get_prepared (PAL_TEXT_VIEW (widget)))
        pal_text_view_prepare_draw (PAL_TEXT_VIEW (widget));
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    prepare_draw (child);
}

/* In the frame before the rows back after a flood are shown: the text of
 * those on screen laid out to be drawn (see pal_text_view_prepare_draw ()),
 * which would otherwise be a third of the work of the frame that shows them */
static gboolean
prepare_tick_cb (GtkWidget     *widget,
                 GdkFrameClock *frame_clock,
                 gpointer       user_data)
{
  PalChatView *self = user_data;

  for (GtkWidget *row = gtk_widget_get_first_child (widget);
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (_pal_chat_view_widget_distance (self, row) == 0)
      prepare_draw (row);

  self->rows_prepared = TRUE;
  self->prepare_tick = 0;

  return G_SOURCE_REMOVE;
}

static void
reveal_rows (PalChatView *self)
{
  _pal_chat_view_remove_tick (self, &self->prepare_tick);
  gtk_widget_set_visible (self->flood_panel, FALSE);
  gtk_widget_set_opacity (GTK_WIDGET (self->scroller), 1);
  self->revealed = TRUE;
}

void
_pal_chat_flood_stop (PalChatView *self)
{
  g_clear_handle_id (&self->calm_id, g_source_remove);
  if (self->flood_tick == 0)
    return;

  _pal_chat_view_remove_tick (self, &self->flood_tick);
  self->reveal_waits = 0;
  self->rows_prepared = FALSE;

  /* the end of the flood in as few rows as fill the window, then the rest */
  pal_tail_model_sync (self->tail, _pal_chat_flood_keep (self));
  pal_tail_model_set_frozen (self->tail, FALSE);
  /* the list view anchored on the last item now, so that the next frame
   * lays out the rows of the end; after that layout, to the end of what it
   * measured */
  if (self->stick_to_bottom)
    {
      _pal_chat_view_scroll_to_end (self);
      _pal_chat_view_queue_scroll_to_end (self);
    }

  /* The next frame builds and lays out the rows under the panel, the next
   * ones make those on screen full (see rows_ready ()), the next lays out
   * their text to be drawn (see prepare_tick_cb ()), and the frame after
   * draws them, at the end (see after_paint_cb ()): one frame doing all
   * took up to 18 ms (half of it drawing the whole chat). The list is not
   * drawn while transparent. Off screen, no frame comes. */
  if (self->frame_clock == NULL)
    reveal_rows (self);
}

static gboolean
calm_cb (gpointer user_data)
{
  PalChatView *self = user_data;

  self->calm_id = 0;
  _pal_chat_flood_stop (self);
  _pal_chat_flood_settle (self);

  return G_SOURCE_REMOVE;
}

/* Returns: whether answers grow faster than anyone reads, by the blocks
 * added to them lately (@added rows at @position of @model are new) */
static gboolean
text_pours_in (PalChatView *self,
               GListModel  *model,
               guint        position,
               guint        added)
{
  gint64 now = _pal_chat_view_now (self);

  if (now - self->pour_start > FLOOD_TEXT_US)
    {
      self->pour_start = now;
      self->pour_blocks = 0;
    }

  for (guint i = 0; i < added && self->pour_blocks < FLOOD_TEXT_BLOCKS; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (model, position + i);

      if (PAL_IS_MESSAGE_BLOCK (row))
        self->pour_blocks++;
    }

  return self->pour_blocks >= FLOOD_TEXT_BLOCKS;
}

/* Runs before the tail model sees the change. */
void
_pal_chat_flood_rows_changed_cb (GListModel  *model,
                                 guint        position,
                                 guint        removed,
                                 guint        added,
                                 PalChatView *self)
{
  /* put in front of the others (see below): not a flood */
  if (position == 0 && removed == 0 && g_list_model_get_n_items (model) > added)
    return;

  if (self->flood_tick == 0)
    {
      if (!self->stick_to_bottom)
        return;
      /* a replay floods from its first item (see pal_chat_view_begin_flood ()) */
      if (added >= (self->expect_flood ? 1 : FLOOD_BATCH))
        self->poured = FALSE;
      else if (text_pours_in (self, model, position, added))
        self->poured = TRUE;
      else
        return;

      start_flood (self);
    }

  g_clear_handle_id (&self->calm_id, g_source_remove);
  if (!self->expect_flood)
    self->calm_id = g_timeout_add (FLOOD_CALM_MS, calm_cb, self);
}

/* Rows put in front of the others (the earlier turns of a history shown
 * from its end), after the tail model hid them: they come back as after a
 * flood, the nearest first, and the rows on screen stay where they are */
void
_pal_chat_flood_rows_prepended_cb (GListModel  *model,
                                   guint        position,
                                   guint        removed,
                                   guint        added,
                                   PalChatView *self)
{
  if (position == 0 && removed == 0 && added > 0 && self->flood_tick == 0 &&
      pal_tail_model_get_hidden (self->tail) > 0)
    _pal_chat_flood_settle (self);
}

/* At every frame painted while the view is mapped (@refresh: the frame
 * interval): rows back after a flood are shown once ready.
 * Returns: whether the next frame relabels the lines of text pouring in */
gboolean
_pal_chat_flood_frame_painted (PalChatView   *self,
                               GdkFrameClock *frame_clock,
                               gint64         refresh)
{
  if (_pal_chat_flood_reveal_pending (self))
    {
      /* after a replay the frame that shows the rows lays out their text
       * to be drawn itself: a frame sooner, within the time of its frames */
      if (!rows_ready (self))
        self->reveal_waits++;
      else if (self->rows_prepared || !self->poured)
        reveal_rows (self);
      else if (self->prepare_tick == 0)
        self->prepare_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view),
                                                           prepare_tick_cb, self, NULL);
    }

  return self->flood_tick != 0 && self->poured &&
         gdk_frame_clock_get_frame_time (frame_clock) + refresh - self->flood_relabelled >= FLOOD_RELABEL_US;
}

/* The view is unmapped: no frame to wait for */
void
_pal_chat_flood_reveal_now (PalChatView *self)
{
  if (_pal_chat_flood_reveal_pending (self))
    reveal_rows (self);
}

/* Returns: (transfer floating): the panel that shows a flood, to put over
 * the list */
GtkWidget *
_pal_chat_flood_init (PalChatView *self)
{
  /* lines at the bottom, input goes through to the list */
  self->line_chars = SUMMARY_MAX_CHARS;
  self->summarized = g_hash_table_new (NULL, NULL);
  self->flood_lines = g_ptr_array_new_with_free_func (g_object_unref);
  self->flood_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
  self->flood_panel = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (self->flood_panel), PAL_CHAT_ROW_MAX_WIDTH);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (self->flood_panel), 600);
  adw_clamp_set_child (ADW_CLAMP (self->flood_panel), GTK_WIDGET (self->flood_box));
  gtk_widget_add_css_class (self->flood_panel, "flood");
  gtk_widget_set_valign (self->flood_panel, GTK_ALIGN_END);
  gtk_widget_set_can_target (self->flood_panel, FALSE);
  gtk_widget_set_visible (self->flood_panel, FALSE);

  return self->flood_panel;
}

void
_pal_chat_flood_dispose (PalChatView *self)
{
  g_clear_handle_id (&self->calm_id, g_source_remove);
  _pal_chat_view_remove_tick (self, &self->flood_tick);
  _pal_chat_view_remove_tick (self, &self->settle_tick);
  _pal_chat_view_remove_tick (self, &self->prepare_tick);
  g_clear_pointer (&self->flood_lines, g_ptr_array_unref);
  g_clear_pointer (&self->summarized, g_hash_table_unref);
}
