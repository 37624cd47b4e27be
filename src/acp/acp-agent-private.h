/* acp-agent-private.h: internals shared by the files of AcpAgent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   acp-agent.c           the type, its state and signals, the generic
 *                         call, the accessors
 *   acp-agent-process.c   the process: spawning, the stderr tail, exit
 *                         watching and stopping
 *   acp-agent-start.c     the start: the initialize handshake and what it
 *                         told (version, capabilities, info, auth methods)
 *   acp-agent-incoming.c  what the agent sends: notifications and requests
 *                         routed to the sessions, the connection's end
 *   acp-agent-calls.c     the typed client → agent methods
 */

#pragma once

#include "acp-agent.h"

G_BEGIN_DECLS

/* After the process exited: how long to wait for stdout and stderr to reach
 * EOF (a grandchild may keep them open). */
#define EXIT_DRAIN_TIMEOUT_MS         1000

typedef struct
{
  GTask  *task;
  GError *error;   /* what the connection said, in case no exit follows */
} HeldCall;

struct _AcpAgent
{
  GObject                parent_instance;

  /* how to start it (NULL argv for an agent built for a stream) */
  char                 **argv;
  char                 **env;
  char                  *cwd;

  AcpClientCapabilities  client_caps;
  guint                  initialize_timeout_ms;
  guint                  grace_ms;

  AcpAgentState          state;
  GCancellable          *cancellable;

  GSubprocess           *subprocess;
  GPid                   pgid;           /* its process group: it leads one */
  gboolean               group_ended;    /* nothing of the group runs any more */
  GIOStream             *stream;
  AcpConnection         *connection;
  AcpPacer              *pacer;          /* given to the connection */
  gulong                 notification_id;
  gulong                 request_id;
  gulong                 closed_id;
  gulong                 message_error_id;
  gboolean               connection_closed;
  /* the first line it wrote that is not the protocol, quoted (a program
   * that is not an ACP agent, or one that logs on its standard output) */
  char                  *stray_output;

  /* what initialize told us */
  guint                  protocol_version;
  AcpAgentCapabilities   caps;
  JsonObject            *caps_object;
  char                  *agent_name;
  char                  *agent_title;
  char                  *agent_version;
  GPtrArray             *auth_methods;

  /* the last bytes of stderr; trimmed to STDERR_TAIL_SIZE when it doubles */
  GByteArray            *stderr_buf;
  gboolean               stderr_done;
  GString               *stderr_line;    /* the start of a line not ended yet */
  AcpTrafficLog         *log;

  /* start */
  GTask                 *start_task;
  gulong                 start_cancel_id;
  guint                  initialize_timeout_id;

  /* stop */
  GPtrArray             *stop_tasks;
  gboolean               stop_requested;
  guint                  term_id;
  guint                  kill_id;

  /* exit */
  gboolean               process_exited;
  int                    exit_status;
  guint                  drain_timeout_id;
  guint                  orphan_timeout_id;
  GError                *exit_error;
  GArray                *held_calls;     /* HeldCall */
};

/* acp-agent.c */

void      _acp_agent_held_call_clear     (gpointer             data);
void      _acp_agent_set_state           (AcpAgent            *self,
                                          AcpAgentState        state);

void      _acp_agent_emit_update         (AcpAgent            *self,
                                          AcpUpdate           *update);
/* Returns: whether a handler took @request */
gboolean  _acp_agent_emit_request        (AcpAgent            *self,
                                          const char          *session_id,
                                          AcpIncomingRequest  *request);
void      _acp_agent_emit_protocol_error (AcpAgent            *self,
                                          const GError        *error);
void      _acp_agent_emit_exited         (AcpAgent            *self);
void      _acp_agent_emit_prompt_sent    (AcpAgent            *self,
                                          const char          *session_id,
                                          JsonArray           *prompt);

/* Fails unless the agent is READY, with an error saying why. */
gboolean  _acp_agent_check_ready   (AcpAgent            *self,
                                    GError             **error);

/* A request to the agent. A call that fails because the agent went away
 * fails with the agent's exit error (status, signal, stderr tail). The
 * params object is not consumed. */
void      _acp_agent_call_async    (AcpAgent            *self,
                                    const char          *method,
                                    JsonObject          *params,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
/* The result node (transfer full); never NULL on success (a JSON null
 * result is a null node). */
JsonNode *_acp_agent_call_finish   (AcpAgent            *self,
                                    GAsyncResult        *result,
                                    GError             **error);

/* acp-agent-process.c */

gboolean  _acp_agent_spawn             (AcpAgent      *self,
                                        GError       **error);
void      _acp_agent_finish_exit       (AcpAgent      *self,
                                        const GError  *stream_reason);
void      _acp_agent_maybe_finish_exit (AcpAgent      *self);
void      _acp_agent_begin_stop        (AcpAgent      *self);

/* acp-agent-start.c */

void      _acp_agent_fail_start        (AcpAgent      *self,
                                        GError        *error,
                                        gboolean       stop);

/* acp-agent-incoming.c */

void      _acp_agent_setup_connection  (AcpAgent      *self);

/* acp-auth-method.c */

/* An entry of authMethods, or NULL when it is not usable. */
AcpAuthMethod *_acp_auth_method_new_from_json (JsonNode *node);

G_END_DECLS
