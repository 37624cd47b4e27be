/* pal-live-session-private.h: what the session manager sees of a live session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-live-session.h"
#include "pal-session-manager-private.h"
#include "pal-session-store.h"

G_BEGIN_DECLS

struct _PalLiveSession
{
  GObject           parent_instance;

  /* what the properties show (pal-live-session.c) */
  PalSessionKey    *key;
  PalSessionState   state;
  AcpSession       *session;
  GError           *open_error;      /* why the last open failed */
  GError           *error;           /* the "error" property, a copy */
  PalSessionStore  *store;           /* nullable; where the record is found */
  PalSessionRecord *record;          /* followed for its title; nullable */
  char             *title;
  gulong            session_title_id;

  /* the session manager's bookkeeping (pal-session-manager*.c) */
  PalSessionManager *manager;        /* unowned; NULL once no longer live */
  AcpSessionState    last_acp_state;
  gulong             state_id;
  gulong             permissions_id;
  gulong             cancelling_id;
  gulong             title_id;
  gboolean           starting_agent;
  gboolean           opening;
  PalWaitList        open;
};

/* @store (nullable): where the session's record is, for the title. */
PalLiveSession *_pal_live_session_new            (PalSessionKey   *key,
                                                  PalSessionStore *store);
/* Also tells the "error" that goes with the state. */
void            _pal_live_session_set_state      (PalLiveSession  *self,
                                                  PalSessionState  state);
/* @session (nullable) */
void            _pal_live_session_set_session    (PalLiveSession  *self,
                                                  AcpSession      *session);
/* @error (nullable): why the last open failed; the "error" while FAILED,
 * from the next _pal_live_session_set_state() on */
void            _pal_live_session_set_open_error (PalLiveSession  *self,
                                                  const GError    *error);

G_END_DECLS
