/* pal-live-session.h: a session the session manager keeps live, for binding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-session.h"
#include "pal-session-key.h"

G_BEGIN_DECLS

/* What a session is doing, for the sidebar. */
typedef enum
{
  PAL_SESSION_STATE_NOT_RUNNING,        /* not open (never opened, closed, or not yet) */
  PAL_SESSION_STATE_STARTING_AGENT,     /* waiting for its agent process to start */
  PAL_SESSION_STATE_LOADING,            /* session/new, load (replay) or resume in flight */
  PAL_SESSION_STATE_READY,              /* open, idle */
  PAL_SESSION_STATE_WORKING,            /* a prompt turn is running */
  PAL_SESSION_STATE_WAITING_PERMISSION, /* the turn waits for a permission answer */
  PAL_SESSION_STATE_STOPPING,           /* the turn was stopped; the agent has yet to end it */
  PAL_SESSION_STATE_FAILED,             /* the agent died or the session could not open */
} PalSessionState;

#define PAL_TYPE_SESSION_STATE (pal_session_state_get_type ())
GType pal_session_state_get_type (void) G_GNUC_CONST;

/*
 * PalLiveSession: one session while the session manager keeps it live
 * (opening, open, or failed while open), with read-only properties to bind
 * to: "key", "state", "busy", "error", "session" and "title". Only the
 * session manager changes them; once the session is no longer live, the
 * object stays NOT_RUNNING, without a session.
 */

#define PAL_TYPE_LIVE_SESSION (pal_live_session_get_type ())

G_DECLARE_FINAL_TYPE (PalLiveSession, pal_live_session, PAL, LIVE_SESSION, GObject)

PalSessionKey   *pal_live_session_get_key     (PalLiveSession *self);
PalSessionState  pal_live_session_get_state   (PalLiveSession *self);
/* Starting its agent, loading, working on a turn or stopping one: the
 * person waits for the agent, not the other way round. */
gboolean         pal_live_session_get_busy    (PalLiveSession *self);
/* Why the session FAILED; NULL in any other state. (transfer none) */
const GError    *pal_live_session_get_error   (PalLiveSession *self);
/* The object that stands for the session now, or NULL (an open that has
 * not reached the agent yet). (transfer none) */
AcpSession      *pal_live_session_get_session (PalLiveSession *self);
/* The title shown: one the person gave, else the agent's, else the stored
 * one; never NULL, empty when there is none yet. */
const char      *pal_live_session_get_title   (PalLiveSession *self);

G_END_DECLS
