/* acp-pacer.c: keeps the dispatching of incoming messages in step with frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An agent that writes as fast as the pipe takes keeps the main thread busy:
 * the connection dispatches in slices (see acp-connection.c), but between two
 * frames it takes whatever time the loop leaves, so every frame interval is
 * filled with work and the window reacts late. A user interface that wants
 * smooth frames reports them here with the time a frame may give to incoming
 * messages; connections then dispatch that much after each frame and wait for
 * the next. The pacer knows nothing of GTK: frames are whatever its user says.
 */

#include "config.h"

#include "acp-pacer.h"

/* Frames older than this no longer count: the window stopped painting (it has
 * nothing new to show, or it is hidden), so nobody is waiting for a frame. */
#define IN_STEP_FOR (50 * G_TIME_SPAN_MILLISECOND)

struct _AcpPacer
{
  GObject parent_instance;

  gint64  last_frame;     /* monotonic time of the last frame reported; 0: none */
  gint64  slice_us;       /* what that frame allowed; 0: no pacing */
  gboolean held;          /* nothing until the next frame is reported */
};

G_DEFINE_FINAL_TYPE (AcpPacer, acp_pacer, G_TYPE_OBJECT)

enum {
  FRAME,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
acp_pacer_class_init (AcpPacerClass *klass)
{
  /**
   * AcpPacer::frame:
   *
   * A frame was painted: connections waiting for it go on.
   */
  signals[FRAME] = g_signal_new ("frame",
                                 G_TYPE_FROM_CLASS (klass),
                                 G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 0);
}

static void
acp_pacer_init (AcpPacer *self)
{
}

AcpPacer *
acp_pacer_get_default (void)
{
  static AcpPacer *pacer;

  /* the main context's, used from the main thread only */
  if (pacer == NULL)
    pacer = g_object_new (ACP_TYPE_PACER, NULL);

  return pacer;
}

void
acp_pacer_frame_painted (AcpPacer *self,
                         gint64    slice_us)
{
  g_return_if_fail (ACP_IS_PACER (self));

  self->last_frame = g_get_monotonic_time ();
  self->slice_us = MAX (slice_us, 0);
  self->held = FALSE;

  g_signal_emit (self, signals[FRAME], 0);
}

void
acp_pacer_hold_until_frame (AcpPacer *self)
{
  g_return_if_fail (ACP_IS_PACER (self));

  /* counted from now: the frame is due within IN_STEP_FOR */
  self->last_frame = g_get_monotonic_time ();
  self->held = TRUE;
}

gboolean
acp_pacer_in_step (AcpPacer *self,
                   gint64    now,
                   gint64   *slice_us)
{
  g_return_val_if_fail (ACP_IS_PACER (self), FALSE);

  if ((self->slice_us == 0 && !self->held) || self->last_frame == 0 ||
      now - self->last_frame > IN_STEP_FOR)
    return FALSE;

  if (slice_us != NULL)
    *slice_us = self->held ? 0 : self->slice_us;

  return TRUE;
}
