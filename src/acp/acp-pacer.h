/* acp-pacer.h: keeps the dispatching of incoming messages in step with frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ACP_TYPE_PACER (acp_pacer_get_type ())

G_DECLARE_FINAL_TYPE (AcpPacer, acp_pacer, ACP, PACER, GObject)

/* A clock in microseconds, counting like g_get_monotonic_time() */
typedef gint64 (*AcpPacerClockFunc) (void);

/* Frames older than this (by the pacer's clock) no longer count: the window
 * stopped painting (it has nothing new to show, or it is hidden), so nobody
 * is waiting for a frame. */
#define ACP_PACER_IN_STEP_FOR (50 * G_TIME_SPAN_MILLISECOND)

/* Returns: (transfer full): a pacer with no frames yet. The application
 * makes one and gives it to the user interface that reports frames and to
 * the connections that are to keep in step with them (see
 * acp_connection_set_pacer()); a pacer is used from one thread only, the
 * one whose main context runs those connections. */
AcpPacer *acp_pacer_new           (void);

/* A user interface reports each frame it painted, and how much time of the
 * next frame interval incoming messages may take (@slice_us), 0 for as much
 * as they like (a view that shows a replay's progress only, say). While
 * frames come with a slice, connections dispatch one slice after each frame
 * and then wait for the next one, so that what the messages cost on screen
 * still fits the frame; without frames for a while (nothing changes on
 * screen, the window is hidden) they go on at their own pace. */
void      acp_pacer_frame_painted (AcpPacer *self,
                                   gint64    slice_us);

/* A frame is due that should not wait for incoming messages (the one that
 * shows what the person just did): until it is reported, connections
 * dispatch nothing, as if its slice were already spent. Should no frame be
 * reported for a while, they go on at their own pace. */
void      acp_pacer_hold_until_frame (AcpPacer *self);

/* Returns: TRUE when dispatching is to keep in step with frames now, and
 * then the slice a frame allows in @slice_us */
gboolean  acp_pacer_in_step       (AcpPacer *self,
                                   gint64    now,
                                   gint64   *slice_us);

/* What measures the time of frames and slices: g_get_monotonic_time() unless
 * set (a test sets a clock of its own to be independent of the machine's
 * speed); NULL sets it back. Connections given the pacer measure their
 * slices with it too. */
void      acp_pacer_set_clock     (AcpPacer          *self,
                                   AcpPacerClockFunc  clock);

/* Returns: the time now, by the pacer's clock */
gint64    acp_pacer_get_time      (AcpPacer *self);

/* Returns: (transfer full): a source that fires once the pacer no longer
 * keeps dispatching in step (frames stopped coming, or a hold lapsed), by
 * the pacer's clock; it does not fire on frames (see AcpPacer::frame) */
GSource  *acp_pacer_lapse_source_new (AcpPacer *self);

/* The pacer emits AcpPacer::frame after each frame reported. */

G_END_DECLS
