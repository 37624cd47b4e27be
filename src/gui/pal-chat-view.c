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
 * Floods. GTK 4.8's list view keeps up to 200 rows alive around its anchor,
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
 * REVEAL_WAIT_FRAMES at most) and, one frame more, until their text is laid
 * out to be drawn. Scrolling up ends a flood at once. The
 * budget follows what the last frame cost, from the start of this work to
 * its paint (the rows made full are laid out and drawn after it), so that a
 * frame takes SETTLE_FRAME_US; after text poured in, SETTLE_FRAME_POURED_US
 * (a frame of a stream is to keep time).
 *
 * Pace. An agent may write faster than anyone reads (a test agent, a
 * runaway tool): the connection would fill every frame interval with
 * dispatching, and the window would answer input and paint late. While the
 * view is on screen and its content grows, it reports every frame it paints
 * to the AcpPacer with the time left for incoming messages: connections
 * dispatch that much after each frame, and the frame keeps time. That
 * slice shrinks while frames come late (a tenth over the refresh interval)
 * and grows back slowly while they come in time. A flood is the exception:
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
#include "pal-block-model.h"
#include "pal-chat-view.h"
#include "pal-message-row.h"
#include "pal-notice-row.h"
#include "pal-permission-row.h"
#include "pal-plan-row.h"
#include "pal-summary-line.h"
#include "pal-tail-model.h"
#include "pal-text-view.h"
#include "pal-tool-call-row.h"

/* Within this many pixels of the end counts as at the bottom. */
#define BOTTOM_SLACK 48.0

/* Bytes: long agent messages are cut into blocks of at least this, a row
 * each (see PalBlockModel) */
#define BLOCK_SIZE        4096

/* Pixels: the widest a row of the transcript gets */
#define ROW_MAX_WIDTH     860

/* On a row's clamp: the item it shows */
#define ROW_ITEM_KEY      "pal-chat-view-item"

/* See "Floods" above. */
#define FLOOD_BATCH       24
#define FLOOD_CALM_MS     120
#define FLOOD_RELABEL_US  (80 * G_TIME_SPAN_MILLISECOND)
#define FLOOD_LINES_MAX   80
#define FLOOD_KEEP_MIN    8
#define FLOOD_KEEP_MAX    40
#define FLOOD_KEEP_SPARE  3
#define FLOOD_ROW_GUESS   56.0   /* pixels, when no row is there to judge by */
#define FLOOD_TEXT_BLOCKS 3      /* of BLOCK_SIZE: 120 KB/s, when real agents send a few */
#define FLOOD_TEXT_US     (100 * G_TIME_SPAN_MILLISECOND)
#define EXPAND_STEP       10
#define EXPAND_ALL        210
#define SETTLE_BUDGET_US     (3 * G_TIME_SPAN_MILLISECOND)
#define SETTLE_BUDGET_MIN_US (G_TIME_SPAN_MILLISECOND / 4)
#define SETTLE_BUDGET_MAX_US (7 * G_TIME_SPAN_MILLISECOND)
#define SETTLE_FRAME_US      (25 * G_TIME_SPAN_MILLISECOND)
/* after text poured in: the frames of a stream are to keep time */
#define SETTLE_FRAME_POURED_US (5 * G_TIME_SPAN_MILLISECOND)
/* frames the rows back after a flood stay hidden at most, waiting for the
 * summaries on screen to become full rows */
#define REVEAL_WAIT_FRAMES 8
/* blocks of earlier answers shown whole in a frame, at most */
#define LAGGING_FLUSH_MAX 3
#define SUMMARY_MIN_CHARS 16
#define SUMMARY_MAX_CHARS 200
/* See "Pace" above. */
#define STREAM_SLICE_MIN_US (1 * G_TIME_SPAN_MILLISECOND)
#define STREAM_SLICE_MAX_US (6 * G_TIME_SPAN_MILLISECOND)
#define GROWING_FOR_US      (100 * G_TIME_SPAN_MILLISECOND)

struct _PalChatView
{
  AdwBin             parent_instance;

  GListModel        *model;       /* the transcript */
  PalBlockModel     *blocks;      /* its rows */
  PalTailModel      *tail;        /* what the list view shows of them */
  GtkNoSelection    *selection;
  GtkScrolledWindow *scroller;
  GtkListView       *list_view;
  GtkButton         *bottom_button;
  GtkAdjustment     *vadjustment;
  AcpTerminalService *terminal_service;
  char              *folder;      /* the session's, for the paths tool calls name */
  gboolean           stick_to_bottom;
  gboolean           scrolling;
  gint64             last_input;   /* monotonic time of the last scroll/key/scrollbar input */
  guint              follow_id;    /* pending scroll to the end */
  guint              flood_tick;   /* shows a flood's new items, per frame */
  GtkWidget         *flood_panel;  /* the last items as lines, over the list */
  GtkBox            *flood_box;
  GPtrArray         *flood_lines;  /* (element-type PalSummaryLine) (owned) */
  guint              flood_shown;  /* items of the transcript the lines show */
  guint              flood_count;  /* lines shown for them */
  gint64             flood_relabelled; /* frame time of the last relabelling */
  guint              line_chars;   /* about what a line of the width shows */
  guint              calm_id;      /* ends the flood */
  gboolean           expect_flood; /* between begin_flood () and end_flood () */
  guint              settle_tick;  /* after a flood: full rows, hidden items back */
  GHashTable        *summarized;   /* (element-type GtkListItem): bound as summaries */
  gboolean           summarize;    /* bind new rows as summaries */
  guint              settle_waits; /* frames the settling waited for a layout */
  gint64             settle_started; /* monotonic time its last frame began */
  gint64             settle_budget; /* of its frames, in time it works */
  gint64             settle_used;  /* of it, by its last frame */
  guint              reveal_waits; /* frames painted with the rows back and hidden */
  guint              prepare_tick; /* lays out the text of those on screen to draw */
  gboolean           rows_prepared; /* and it did, since they last changed */
  gboolean           revealed;     /* the rows were shown: the next frame draws them */
  GdkFrameClock     *frame_clock;  /* while mapped, to report frames to the pacer */
  gulong             layout_id;
  gboolean           check_lagging; /* rows were made or the view scrolled */
  gint64             flush_frame;   /* the frame the count below is of */
  guint              flushed_in_frame;
  gulong             after_paint_id;
  gint64             last_paint;   /* monotonic time of the last frame painted */
  gint64             last_growth;  /* the pacer's time of the last time the content grew */
  gint64             slice;        /* what the pacer is told a frame leaves for messages */
  gint64             pour_start;   /* monotonic time the blocks below were counted from */
  guint              pour_blocks;  /* blocks of answers added since */
  gboolean           poured;       /* the last flood was text pouring in */
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_STICK_TO_BOTTOM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PalChatView, pal_chat_view, ADW_TYPE_BIN)

/* Returns: (transfer floating): the widget showing @item */
static GtkWidget *
create_row (PalChatView *self,
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
  int width = MIN (gtk_widget_get_width (GTK_WIDGET (self)), ROW_MAX_WIDTH);

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
static GtkWidget *
create_summary_row (PalChatView *self,
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

/* Distance in pixels from @child, a row or within one, to the visible part
 * of the chat: 0 when on screen */
static double
widget_distance_to_view (PalChatView *self,
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

/* The same for the row of @list_item */
static double
distance_to_view (PalChatView *self,
                  GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  return child != NULL ? widget_distance_to_view (self, child) : G_MAXDOUBLE;
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
  GtkWidget *row = create_row (self, gtk_list_item_get_item (list_item));

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

static void queue_scroll_to_end (PalChatView *self);
static gboolean reveal_pending (PalChatView *self);

static void
remove_tick (PalChatView *self,
             guint       *tick_id)
{
  if (*tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->list_view), *tick_id);
      *tick_id = 0;
    }
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

  /* after text poured in, the frame that lays out the text of the rows on
   * screen to be drawn, and the one that draws them, have enough to do to
   * keep time */
  if (self->poured && (self->prepare_tick != 0 || self->revealed ||
                       (self->rows_prepared && reveal_pending (self))))
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

      if (nearest != NULL && distance >= G_MAXDOUBLE / 2 && self->settle_waits < 2)
        {
          /* the rows just bound are not laid out: which of them are on
           * screen is known at the next frame, and they come first */
          self->settle_waits++;
          break;
        }
      else if (nearest != NULL && distance == 0 &&
               PAL_IS_MESSAGE_BLOCK (gtk_list_item_get_item (nearest)))
        {
          /* a block of a long answer, one a frame: laid out, it moves the
           * rows above it, and which of them are still on screen is known
           * at the next frame. Its cost is its own, not the budget's. */
          upgrade_row (self, nearest, TRUE);
          self->settle_used = 0;
          break;
        }
      else if (nearest != NULL && distance == 0)
        {
          upgrade_row (self, nearest, TRUE);
        }
      else if (nearest != NULL && hidden == 0)
        {
          upgrade_row (self, nearest, FALSE);
        }
      else if (hidden > 0)
        {
          guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->tail));

          pal_tail_model_expand (self->tail, shown >= EXPAND_ALL ? G_MAXUINT : EXPAND_STEP);
          /* every item is back: rows built from now on are full ones */
          if (pal_tail_model_get_hidden (self->tail) == 0)
            self->summarize = FALSE;
        }
      else
        {
          self->summarize = FALSE;
          self->settle_tick = 0;
          return G_SOURCE_REMOVE;
        }

      self->settle_used = g_get_monotonic_time () - start;
    }
  while (self->settle_used < self->settle_budget);

  return G_SOURCE_CONTINUE;
}

static void
start_settling (PalChatView *self)
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
static guint
flood_keep (PalChatView *self)
{
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->tail));
  double upper = gtk_adjustment_get_upper (self->vadjustment);
  double page = gtk_adjustment_get_page_size (self->vadjustment);
  double row_height;

  if (page <= 0)
    return FLOOD_KEEP_MAX;
  if (n_shown == 0 || upper <= 0)
    return CLAMP ((guint) (page / FLOOD_ROW_GUESS) + FLOOD_KEEP_SPARE, FLOOD_KEEP_MIN, FLOOD_KEEP_MAX);

  row_height = MAX (upper / n_shown, 1.0);
  return CLAMP ((guint) (page / row_height) + FLOOD_KEEP_SPARE, FLOOD_KEEP_MIN, FLOOD_KEEP_MAX);
}

/* How many lines of text fill the window */
static guint
flood_line_count (PalChatView *self)
{
  GtkWidget *probe;
  int line_height = 0;
  int spacing = gtk_box_get_spacing (self->flood_box);

  if (self->flood_lines->len == 0)
    g_ptr_array_add (self->flood_lines, g_object_ref_sink (create_summary_row (self, NULL)));
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
    g_ptr_array_add (self->flood_lines, g_object_ref_sink (create_summary_row (self, NULL)));
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
  remove_tick (self, &self->settle_tick);
  self->summarize = TRUE;
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

static void scroll_to_end (PalChatView *self);

/* Whether the rows back after a flood wait to be shown */
static gboolean
reveal_pending (PalChatView *self)
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
    if (widget_distance_to_view (self, row) == 0)
      prepare_draw (row);

  self->rows_prepared = TRUE;
  self->prepare_tick = 0;

  return G_SOURCE_REMOVE;
}

static void
reveal_rows (PalChatView *self)
{
  remove_tick (self, &self->prepare_tick);
  gtk_widget_set_visible (self->flood_panel, FALSE);
  gtk_widget_set_opacity (GTK_WIDGET (self->scroller), 1);
  self->revealed = TRUE;
}

static void
stop_flood (PalChatView *self)
{
  g_clear_handle_id (&self->calm_id, g_source_remove);
  if (self->flood_tick == 0)
    return;

  remove_tick (self, &self->flood_tick);
  self->reveal_waits = 0;
  self->rows_prepared = FALSE;

  /* the end of the flood in as few rows as fill the window, then the rest */
  pal_tail_model_sync (self->tail, flood_keep (self));
  pal_tail_model_set_frozen (self->tail, FALSE);
  /* the list view anchored on the last item now, so that the next frame
   * lays out the rows of the end; after that layout, to the end of what it
   * measured */
  if (self->stick_to_bottom)
    {
      scroll_to_end (self);
      queue_scroll_to_end (self);
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
  stop_flood (self);
  start_settling (self);

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
  gint64 now = g_get_monotonic_time ();

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
static void
model_items_changed_cb (GListModel  *model,
                        guint        position,
                        guint        removed,
                        guint        added,
                        PalChatView *self)
{
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

static void
set_stick_to_bottom (PalChatView *self,
                     gboolean     stick)
{
  if (self->stick_to_bottom == stick)
    return;

  self->stick_to_bottom = stick;
  /* the person scrolls up: what is above must be there */
  if (!stick)
    {
      stop_flood (self);
      start_settling (self);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->bottom_button), !stick);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STICK_TO_BOTTOM]);
}

static void
scroll_to_end (PalChatView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tail));
  double bottom;

  self->scrolling = TRUE;

  /* GTK 4.8's list view keeps its place by an anchor item, and estimates
   * the height of rows it has not measured: setting the value to the end
   * alone can leave the last rows below the view. Bring the last item in
   * first, then go to the end of what is now measured. */
  if (n > 0)
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
    scroll_to_end (self);

  return G_SOURCE_REMOVE;
}

/* The adjustment changes while the list view lays itself out; a value set
 * from inside that is overridden by the list view's own anchor. Follow the
 * end once the layout is done, before the next frame: at a priority above
 * the frames', since when frames take longer than the refresh interval one
 * is always due and nothing below them runs. */
static void
queue_scroll_to_end (PalChatView *self)
{
  if (self->follow_id == 0)
    self->follow_id = g_idle_add_full (GDK_PRIORITY_REDRAW - 1, follow_cb, self, NULL);
}

static void
vadjustment_changed_cb (GtkAdjustment *adjustment,
                        PalChatView   *self)
{
  /* the content or the window grew: follow it when at the bottom */
  self->last_growth = acp_pacer_get_time (acp_pacer_get_default ());
  if (self->stick_to_bottom)
    queue_scroll_to_end (self);
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
    set_stick_to_bottom (self, TRUE);
  else if (g_get_monotonic_time () - self->last_input < INPUT_WINDOW)
    set_stick_to_bottom (self, FALSE);
  else if (self->stick_to_bottom)
    queue_scroll_to_end (self);
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

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          PalChatView              *self)
{
  GtkWidget *clamp = adw_clamp_new ();

  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), ROW_MAX_WIDTH);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), 600);
  gtk_widget_add_css_class (clamp, "transcript-row");
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

  /* GTK 4.8 binds every row again when items are inserted before it (as
   * the earlier items come back after a flood): keep what it shows */
  if (shown != NULL && g_object_get_data (G_OBJECT (clamp), ROW_ITEM_KEY) == item)
    {
      if (gtk_widget_has_css_class (shown, "summary-row"))
        g_hash_table_add (self->summarized, list_item);
      return;
    }

  g_object_set_data_full (G_OBJECT (clamp), ROW_ITEM_KEY, g_object_ref (item), g_object_unref);
  if (self->summarize)
    {
      adw_clamp_set_child (clamp, create_summary_row (self, item));
      g_hash_table_add (self->summarized, list_item);
    }
  else
    {
      adw_clamp_set_child (clamp, create_row (self, item));
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
  /* growth is timed by the pacer's clock, like the frames it is told of */
  gint64 since_growth = acp_pacer_get_time (acp_pacer_get_default ()) - self->last_growth;
  gboolean growing = since_growth < GROWING_FOR_US;
  gint64 refresh = 0;
  gint64 slice = 0;

  /* frames one after the other, late: less for messages; in time: more */
  gdk_frame_clock_get_refresh_info (frame_clock, 0, &refresh, NULL);
  if (refresh <= 0)
    refresh = 16667;
  if (interval > refresh * 11 / 10 && interval < 4 * refresh)
    self->slice = MAX (self->slice * 2 / 3, STREAM_SLICE_MIN_US);
  else if (interval <= refresh * 21 / 20)
    self->slice = MIN (self->slice + G_TIME_SPAN_MILLISECOND / 4, STREAM_SLICE_MAX_US);
  self->last_paint = now;

  if (reveal_pending (self))
    {
      if (!rows_ready (self))
        self->reveal_waits++;
      else if (self->rows_prepared)
        reveal_rows (self);
      else if (self->prepare_tick == 0)
        self->prepare_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view),
                                                           prepare_tick_cb, self, NULL);
    }

  if (growing && !flooding)
    slice = self->slice;
  else if (self->flood_tick != 0 && self->poured &&
           gdk_frame_clock_get_frame_time (frame_clock) + refresh - self->flood_relabelled >= FLOOD_RELABEL_US)
    slice = STREAM_SLICE_MIN_US;  /* the next frame relabels the lines of a stream: it keeps time too */
  acp_pacer_frame_painted (acp_pacer_get_default (), slice);
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

  if (!self->check_lagging || self->flood_tick != 0 || reveal_pending (self))
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

      distance = widget_distance_to_view (self, row);
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
}

static void
pal_chat_view_unmap (GtkWidget *widget)
{
  PalChatView *self = PAL_CHAT_VIEW (widget);

  if (self->frame_clock != NULL)
    {
      g_clear_signal_handler (&self->after_paint_id, self->frame_clock);
      g_clear_signal_handler (&self->layout_id, self->frame_clock);
    }
  g_clear_object (&self->frame_clock);
  /* no frame to wait for */
  if (reveal_pending (self))
    reveal_rows (self);

  GTK_WIDGET_CLASS (pal_chat_view_parent_class)->unmap (widget);
}

static void
pal_chat_view_dispose (GObject *object)
{
  PalChatView *self = PAL_CHAT_VIEW (object);

  g_clear_handle_id (&self->follow_id, g_source_remove);
  g_clear_handle_id (&self->calm_id, g_source_remove);
  remove_tick (self, &self->flood_tick);
  remove_tick (self, &self->settle_tick);
  remove_tick (self, &self->prepare_tick);
  g_clear_pointer (&self->flood_lines, g_ptr_array_unref);
  g_clear_object (&self->model);
  g_clear_object (&self->tail);
  if (self->blocks != NULL)
    g_signal_handlers_disconnect_by_func (self->blocks, model_items_changed_cb, self);
  g_clear_object (&self->blocks);
  g_clear_pointer (&self->summarized, g_hash_table_unref);
  g_clear_object (&self->selection);
  g_clear_object (&self->terminal_service);
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
  self->line_chars = SUMMARY_MAX_CHARS;
  /* transcript → rows (long answers cut into blocks) → the end of them;
   * the flood check sees a change of the rows before the tail model does */
  self->blocks = pal_block_model_new (BLOCK_SIZE);
  g_signal_connect (self->blocks, "items-changed", G_CALLBACK (model_items_changed_cb), self);
  self->tail = pal_tail_model_new ();
  pal_tail_model_set_model (self->tail, G_LIST_MODEL (self->blocks), G_MAXUINT);
  self->summarized = g_hash_table_new (NULL, NULL);
  self->selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->tail)));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);

  self->list_view = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)),
                                                      factory));
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "transcript");
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "background");

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

  /* the flood panel: lines at the bottom, input goes through to the list */
  self->flood_lines = g_ptr_array_new_with_free_func (g_object_unref);
  self->flood_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
  self->flood_panel = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (self->flood_panel), ROW_MAX_WIDTH);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (self->flood_panel), 600);
  adw_clamp_set_child (ADW_CLAMP (self->flood_panel), GTK_WIDGET (self->flood_box));
  gtk_widget_add_css_class (self->flood_panel, "flood");
  gtk_widget_set_valign (self->flood_panel, GTK_ALIGN_END);
  gtk_widget_set_can_target (self->flood_panel, FALSE);
  gtk_widget_set_visible (self->flood_panel, FALSE);

  gtk_overlay_set_child (GTK_OVERLAY (overlay), GTK_WIDGET (self->scroller));
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->flood_panel);
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

  stop_flood (self);
  self->expect_flood = FALSE;
  remove_tick (self, &self->settle_tick);
  g_set_object (&self->model, model);
  set_stick_to_bottom (self, TRUE);

  /* A long transcript: its end at once (as summaries), the rest over the
   * next frames. The rows are not a flood. */
  pal_tail_model_set_model (self->tail, NULL, G_MAXUINT);
  g_signal_handlers_block_by_func (self->blocks, model_items_changed_cb, self);
  pal_block_model_set_model (self->blocks, model);
  g_signal_handlers_unblock_by_func (self->blocks, model_items_changed_cb, self);
  self->summarize = g_list_model_get_n_items (G_LIST_MODEL (self->blocks)) > FLOOD_KEEP_MAX;
  pal_tail_model_set_model (self->tail, G_LIST_MODEL (self->blocks), flood_keep (self));
  start_settling (self);
  scroll_to_end (self);

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

  set_stick_to_bottom (self, TRUE);
  scroll_to_end (self);
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
 * too.
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
      self->last_growth = acp_pacer_get_time (acp_pacer_get_default ());
      self->slice = STREAM_SLICE_MIN_US;
      acp_pacer_hold_until_frame (acp_pacer_get_default ());
    }
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
      stop_flood (self);
      start_settling (self);
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
