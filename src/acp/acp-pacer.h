/* acp-pacer.h: keeps the dispatching of incoming messages in step with frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ACP_TYPE_PACER (acp_pacer_get_type ())

G_DECLARE_FINAL_TYPE (AcpPacer, acp_pacer, ACP, PACER, GObject)

/* The pacer of the main context: connections dispatching there consult it.
 * (transfer none) */
AcpPacer *acp_pacer_get_default   (void);

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

/* The pacer emits AcpPacer::frame after each frame reported. */

G_END_DECLS
