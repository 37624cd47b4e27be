/* pal-chat-view-private.h: what the chat view shares with its flood
 * handling (pal-chat-flood.c) and its reveal of a message (pal-chat-find.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-block-model.h"
#include "pal-chat-view.h"
#include "pal-tail-model.h"

G_BEGIN_DECLS

/* Pixels: the widest a row of the transcript gets */
#define PAL_CHAT_ROW_MAX_WIDTH      860
/* The most characters of a summary line */
#define PAL_CHAT_SUMMARY_MAX_CHARS  200
/* On a row's clamp: the item (or block) it shows */
#define PAL_CHAT_ROW_ITEM_KEY       "pal-chat-view-item"
/* Rows a flood leaves in the list, at most */
#define PAL_CHAT_FLOOD_KEEP_MAX     40
/* On a row's clamp: the item it shows */
#define PAL_CHAT_ROW_ITEM_KEY       "pal-chat-view-item"

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
  AcpPacer          *pacer;       /* told of the frames painted, or NULL */
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
  gboolean           opening;      /* after a transcript was set: the rows on
                                    * screen made full at once, the earlier
                                    * items back at once */
  double             opening_filled; /* the height of rows made full so */
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
  /* pal_chat_view_reveal () (pal-chat-find.c) */
  GObject           *reveal_target; /* the row (item or block) marked, or NULL */
  guint              reveal_row;   /* its index in the rows, when last looked */
  char              *reveal_needle; /* the text to mark in it, or NULL */
  guint              reveal_occurrence; /* which match of it is the one revealed */
  guint              reveal_tick;  /* brings it on screen, frame by frame */
  guint              reveal_frames; /* frames that tried */
  GtkWidget         *focus_row;    /* (weak): the row the focus was last in */
  GtkRoot           *focus_root;   /* (weak): while mapped, told where the focus goes */
  gulong             focus_root_id;
  GObject           *target;       /* the item gone to (pal-chat-place.c) */
  guint              target_tick;  /* goes to it again as rows get laid out */
  guint              target_frames;
  GObject           *highlighted;  /* the item highlighted for a moment */
  guint              highlight_id;
  GPtrArray         *marked_buffers; /* (element-type GtkTextBuffer) (nullable):
                                      * where the matches are tagged */
};

/* pal-chat-view.c */
GtkWidget *_pal_chat_view_create_row          (PalChatView *self,
                                               gpointer     item);
double     _pal_chat_view_widget_distance     (PalChatView *self,
                                               GtkWidget   *child);
void       _pal_chat_view_remove_tick         (PalChatView *self,
                                               guint       *tick_id);
void       _pal_chat_view_scroll_to_end       (PalChatView *self);
/* Now, by the pacer's clock (the monotonic clock without a pacer) */
gint64     _pal_chat_view_now                 (PalChatView *self);
void       _pal_chat_view_queue_scroll_to_end (PalChatView *self);
void       _pal_chat_view_set_stick_to_bottom (PalChatView *self,
                                               gboolean     stick);

/* pal-chat-keys.c */
void       _pal_chat_keys_init                (PalChatView *self);
void       _pal_chat_keys_map                 (PalChatView *self);
void       _pal_chat_keys_unmap               (PalChatView *self);
void       _pal_chat_keys_row_made            (PalChatView *self,
                                               GtkWidget   *row);

/* pal-chat-place.c */
void       _pal_chat_place_row_bound          (PalChatView *self,
                                               GtkWidget   *clamp,
                                               gpointer     row_item);
void       _pal_chat_place_clear              (PalChatView *self);
gboolean   _pal_chat_place_scroll_to_row      (PalChatView *self,
                                               guint        index);

/* pal-chat-flood.c */
GtkWidget *_pal_chat_flood_init               (PalChatView *self);
void       _pal_chat_flood_dispose            (PalChatView *self);
void       _pal_chat_flood_rows_changed_cb    (GListModel  *model,
                                               guint        position,
                                               guint        removed,
                                               guint        added,
                                               PalChatView *self);
void       _pal_chat_flood_rows_prepended_cb  (GListModel  *model,
                                               guint        position,
                                               guint        removed,
                                               guint        added,
                                               PalChatView *self);
void       _pal_chat_flood_stop               (PalChatView *self);
void       _pal_chat_flood_settle             (PalChatView *self);
guint      _pal_chat_flood_keep               (PalChatView *self);
GtkWidget *_pal_chat_flood_create_summary_row (PalChatView *self,
                                               gpointer     item);
gboolean   _pal_chat_flood_reveal_pending     (PalChatView *self);
void       _pal_chat_flood_reveal_now         (PalChatView *self);
gboolean   _pal_chat_flood_frame_painted      (PalChatView   *self,
                                               GdkFrameClock *frame_clock,
                                               gint64         refresh);

/* pal-chat-find.c */
void       _pal_chat_find_bind                (PalChatView *self,
                                               GtkWidget   *clamp,
                                               gpointer     item);
void       _pal_chat_find_dispose             (PalChatView *self);

G_END_DECLS
