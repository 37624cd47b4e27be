/* pal-session-record.h: one entry of the session list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pal-session-key.h"

G_BEGIN_DECLS

#define PAL_TYPE_SESSION_RECORD (pal_session_record_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionRecord, pal_session_record, PAL, SESSION_RECORD, GObject)

PalSessionRecord *pal_session_record_new          (const char       *id,
                                                   const char       *agent_id,
                                                   const char       *cwd);

/* (agent profile id, session id): fixed for the record's life */
PalSessionKey    *pal_session_record_get_key      (PalSessionRecord *self);
const char       *pal_session_record_get_id       (PalSessionRecord *self);
const char       *pal_session_record_get_agent_id (PalSessionRecord *self);
const char       *pal_session_record_get_cwd      (PalSessionRecord *self);
void              pal_session_record_set_cwd      (PalSessionRecord *self,
                                                   const char       *cwd);
/* Folders the session may use besides its project folder (absolute
 * paths); never NULL, empty when there are none. */
const char * const *pal_session_record_get_additional_directories (PalSessionRecord   *self);
void              pal_session_record_set_additional_directories (PalSessionRecord   *self,
                                                                 const char * const *directories);
/* Never NULL; empty when the session has no title yet. */
const char       *pal_session_record_get_title    (PalSessionRecord *self);
void              pal_session_record_set_title    (PalSessionRecord *self,
                                                   const char       *title);
/* Microseconds since the epoch (g_get_real_time()); 0 when unknown. */
gint64            pal_session_record_get_created  (PalSessionRecord *self);
void              pal_session_record_set_created  (PalSessionRecord *self,
                                                   gint64            created);
gint64            pal_session_record_get_updated  (PalSessionRecord *self);
void              pal_session_record_set_updated  (PalSessionRecord *self,
                                                   gint64            updated);
gboolean          pal_session_record_get_pinned   (PalSessionRecord *self);
void              pal_session_record_set_pinned   (PalSessionRecord *self,
                                                   gboolean          pinned);
/* The person gave the title: one from the agent or the first prompt does
 * not replace it. */
gboolean          pal_session_record_get_renamed  (PalSessionRecord *self);
void              pal_session_record_set_renamed  (PalSessionRecord *self,
                                                   gboolean          renamed);
/* Learned from an agent's session/list and not stored (yet). */
gboolean          pal_session_record_get_from_agent (PalSessionRecord *self);
void              pal_session_record_set_from_agent (PalSessionRecord *self,
                                                     gboolean          from_agent);

char             *pal_session_record_title_from_prompt (const char    *prompt);

G_END_DECLS
