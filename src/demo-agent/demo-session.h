/* demo-session.h: one session of the demo agent, and its canned turns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-connection.h"
#include "demo-store.h"

G_BEGIN_DECLS

typedef struct _DemoTurn DemoTurn;
typedef struct _DemoSession DemoSession;

/* A reference-counted record; the agent reads and sets its fields. */
struct _DemoSession
{
  AcpConnection *connection;
  DemoStore     *store;
  double         speed;         /* pause factor: 0 means no pauses */
  char          *id;
  char          *cwd;
  char          *title;         /* nullable */
  char          *updated_at;    /* ISO 8601 */
  char          *mode_id;
  char          *model_id;
  JsonArray     *mcp_servers;   /* as the client sent them */
  guint          turn_count;    /* turns in this process */
  gboolean       plan_updates;  /* the client shows plan_update */
  gboolean       edits_always_allowed;
  DemoTurn      *turn;          /* the running turn, if any */
};

DemoSession *demo_session_new                (AcpConnection *connection,
                                              DemoStore     *store,
                                              double         speed,
                                              const char    *id,
                                              const char    *cwd);
/* A session of an earlier process, from its (checked) index entry. */
DemoSession *demo_session_new_from_entry     (AcpConnection *connection,
                                              DemoStore     *store,
                                              double         speed,
                                              JsonObject    *entry);
DemoSession *demo_session_ref                (DemoSession   *session);
void         demo_session_unref              (DemoSession   *session);

void         demo_session_set_mcp_servers    (DemoSession   *session,
                                              JsonArray     *servers);
JsonObject  *demo_session_index_entry        (DemoSession   *session);
void         demo_session_save_index         (DemoSession   *session);

/* Sends one session/update and, when record is set, adds it to the history. */
void         demo_session_send_update        (DemoSession   *session,
                                              JsonNode      *update,
                                              gboolean       record);
void         demo_session_send_update_object (DemoSession   *session,
                                              JsonObject    *update,
                                              gboolean       record);

gboolean     demo_session_is_prompting       (DemoSession   *session);
/* Records the prompt (checked: an array of objects with a type) and plays a
 * canned turn; request is answered with its stopReason when the turn ends. */
void         demo_session_prompt             (DemoSession        *session,
                                              AcpIncomingRequest *request,
                                              JsonArray          *prompt);
/* Ends the running turn, if any, with stopReason "cancelled". */
void         demo_session_cancel_turn        (DemoSession   *session);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DemoSession, demo_session_unref)

G_END_DECLS
