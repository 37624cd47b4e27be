/* acp-pacer.c: keeps the dispatching of incoming messages in step with frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An agent that writes as fast as the pipe takes keeps the main thread busy:
 * the connection dispatches in slices (see acp-connection-pump.c), but
 * between two frames it takes whatever time the loop leaves, so every frame
 * interval is filled with work and the window reacts late. A user interface
 * that wants smooth frames reports them here with the time a frame may give
 * to incoming messages; the connections given this pacer then dispatch that
 * much after each frame and wait for the next. The pacer knows nothing of
 * GTK: frames are whatever its user says. It is no global: the application
 * makes one and hands it to the views and the connections that belong
 * together, and a test makes its own.
 *
 * Time. Whether frames still come is a matter of time, and so is a slice:
 * both are measured with the pacer's clock, the monotonic clock unless a
 * test sets one of its own. A connection waiting for the next frame looks
 * at that clock, not at a timer of its own, to decide that frames stopped
 * (acp_pacer_lapse_source_new()): with a clock that moves only when a test
 * moves it, what is dispatched between two frames does not depend on how
 * busy the machine is.
 */

#include "config.h"

#include "acp-pacer.h"

struct _AcpPacer
{
  GObject parent_instance;

  AcpPacerClockFunc clock;
  gint64  last_frame;     /* the clock's time of the last frame reported; 0: none */
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
  self->clock = g_get_monotonic_time;
}

AcpPacer *
acp_pacer_new (void)
{
  return g_object_new (ACP_TYPE_PACER, NULL);
}

void
acp_pacer_frame_painted (AcpPacer *self,
                         gint64    slice_us)
{
  g_return_if_fail (ACP_IS_PACER (self));

  self->last_frame = self->clock ();
  self->slice_us = MAX (slice_us, 0);
  self->held = FALSE;

  g_signal_emit (self, signals[FRAME], 0);
}

void
acp_pacer_hold_until_frame (AcpPacer *self)
{
  g_return_if_fail (ACP_IS_PACER (self));

  /* counted from now: the frame is due within ACP_PACER_IN_STEP_FOR */
  self->last_frame = self->clock ();
  self->held = TRUE;
}

gboolean
acp_pacer_in_step (AcpPacer *self,
                   gint64    now,
                   gint64   *slice_us)
{
  g_return_val_if_fail (ACP_IS_PACER (self), FALSE);

  if ((self->slice_us == 0 && !self->held) || self->last_frame == 0 ||
      now - self->last_frame > ACP_PACER_IN_STEP_FOR)
    return FALSE;

  if (slice_us != NULL)
    *slice_us = self->held ? 0 : self->slice_us;

  return TRUE;
}

void
acp_pacer_set_clock (AcpPacer          *self,
                     AcpPacerClockFunc  clock)
{
  g_return_if_fail (ACP_IS_PACER (self));

  self->clock = clock != NULL ? clock : g_get_monotonic_time;
}

gint64
acp_pacer_get_time (AcpPacer *self)
{
  g_return_val_if_fail (ACP_IS_PACER (self), 0);

  return self->clock ();
}

/* ------------------------------------------------------------------------ */
/* Waiting for pacing to lapse                                               */

typedef struct
{
  GSource   source;
  AcpPacer *pacer;  /* owned */
} LapseSource;

static gboolean
lapse_source_prepare (GSource *source,
                      gint    *timeout)
{
  AcpPacer *self = ((LapseSource *) source)->pacer;
  gint64 now = self->clock ();
  gint64 left;

  if (!acp_pacer_in_step (self, now, NULL))
    {
      *timeout = 0;
      return TRUE;
    }

  /* Look again just past the lapse as the clock has it then: a clock of a
   * test's own may not have moved, and the source then looks again; a frame
   * meanwhile only moves the lapse further. */
  left = self->last_frame + ACP_PACER_IN_STEP_FOR - now + 1;
  *timeout = (gint) MIN ((left + G_TIME_SPAN_MILLISECOND - 1) / G_TIME_SPAN_MILLISECOND, G_MAXINT);

  return FALSE;
}

static gboolean
lapse_source_check (GSource *source)
{
  AcpPacer *self = ((LapseSource *) source)->pacer;

  return !acp_pacer_in_step (self, self->clock (), NULL);
}

static gboolean
lapse_source_dispatch (GSource     *source,
                       GSourceFunc  callback,
                       gpointer     user_data)
{
  if (callback == NULL)
    return G_SOURCE_REMOVE;

  return callback (user_data);
}

static void
lapse_source_finalize (GSource *source)
{
  g_clear_object (&((LapseSource *) source)->pacer);
}

static GSourceFuncs lapse_source_funcs = {
  lapse_source_prepare,
  lapse_source_check,
  lapse_source_dispatch,
  lapse_source_finalize,
  NULL, NULL
};

GSource *
acp_pacer_lapse_source_new (AcpPacer *self)
{
  GSource *source;

  g_return_val_if_fail (ACP_IS_PACER (self), NULL);

  source = g_source_new (&lapse_source_funcs, sizeof (LapseSource));
  ((LapseSource *) source)->pacer = g_object_ref (self);
  g_source_set_static_name (source, "[palaver] acp pacer lapse");

  return source;
}
