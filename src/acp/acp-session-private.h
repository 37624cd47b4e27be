/* acp-session-private.h: internals shared by the files of AcpSession
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   acp-session.c          the type, its state and properties, failing when
 *                          the agent is gone, the getters
 *   acp-session-open.c     create, fork, load, resume, and close
 *   acp-session-turn.c     prompts, cancelling, permission requests
 *   acp-session-config.c   switching modes and config options
 *   acp-session-updates.c  session/update: the session-level variants, and
 *                          the updates routed to the transcript
 */

#pragma once

#include "acp-command.h"
#include "acp-config-option.h"
#include "acp-mode.h"
#include "acp-session.h"
#include "acp-usage.h"

G_BEGIN_DECLS

struct _AcpSession
{
  GObject          parent_instance;

  AcpAgent        *agent;
  char            *cwd;
  char           **additional_directories; /* never NULL */
  char            *session_id;
  AcpSessionState  state;
  GError          *error;
  AcpTranscript   *transcript;

  char            *title;
  char            *updated_at;
  GListStore      *modes;              /* AcpMode */
  char            *current_mode_id;
  GListStore      *config_options;     /* AcpConfigOption */
  GListStore      *available_commands; /* AcpCommand */
  AcpUsage        *usage;
  guint            replay_count;
  guint            replay_notify_id; /* "replay-count" is notified once a batch */
  char            *stop_reason;
  gboolean         cancelling;      /* the turn was cancelled; the agent has yet to end it */

  GCancellable    *open_cancellable; /* of the create, load or resume in flight */
  GPtrArray       *permissions;     /* pending AcpPermissionItem */
  GPtrArray       *early_updates;   /* AcpUpdate */

  gulong           update_handler_id;
  gulong           request_handler_id;
  gulong           exited_handler_id;
  gulong           protocol_error_handler_id;
};

enum {
  PROP_0,
  PROP_AGENT,
  PROP_CWD,
  PROP_ADDITIONAL_DIRECTORIES,
  PROP_SESSION_ID,
  PROP_STATE,
  PROP_ERROR,
  PROP_TRANSCRIPT,
  PROP_TITLE,
  PROP_UPDATED_AT,
  PROP_MODES,
  PROP_CURRENT_MODE_ID,
  PROP_CONFIG_OPTIONS,
  PROP_AVAILABLE_COMMANDS,
  PROP_USAGE,
  PROP_REPLAY_COUNT,
  PROP_PENDING_PERMISSIONS,
  PROP_STOP_REASON,
  PROP_CANCELLING,
  N_PROPS
};

#define STATE_BIT(s) (1u << (s))

/* acp-session.c */

void      _acp_session_notify              (AcpSession       *self,
                                            guint             prop_id);
void      _acp_session_notify_replay_count (AcpSession       *self);
void      _acp_session_set_state           (AcpSession       *self,
                                            AcpSessionState   state);
void      _acp_session_set_string          (AcpSession       *self,
                                            char            **field,
                                            const char       *value,
                                            guint             prop_id);
gboolean  _acp_session_is_live             (AcpSessionState   state);
gboolean  _acp_session_check_agent_gone    (AcpSession       *self);
GError   *_acp_session_state_error         (AcpSession       *self);
gboolean  _acp_session_check_state         (AcpSession       *self,
                                            guint             allowed,
                                            GTask            *task);
void      _acp_session_disconnect_agent    (AcpSession       *self);

/* acp-session-updates.c */

void       _acp_session_set_config_options      (AcpSession  *self,
                                                 JsonArray   *options);
void       _acp_session_apply_response          (AcpSession  *self,
                                                 JsonObject  *response);
void       _acp_session_agent_update_cb         (AcpAgent    *agent,
                                                 AcpUpdate   *update,
                                                 AcpSession  *self);
void       _acp_session_apply_early_updates     (AcpSession  *self);

/* acp-session-turn.c */

void      _acp_session_stop_turn         (AcpSession         *self);
gboolean  _acp_session_agent_request_cb  (AcpAgent           *agent,
                                          const char         *session_id,
                                          AcpIncomingRequest *request,
                                          AcpSession         *self);

G_END_DECLS
