/* acp-agent.h: an ACP agent process and the client side of its protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-connection.h"
#include "acp-error.h"
#include "acp-mcp-server.h"
#include "acp-update.h"

G_BEGIN_DECLS

#define ACP_PROTOCOL_VERSION 1

typedef enum
{
  ACP_AGENT_STATE_NEW,          /* not started */
  ACP_AGENT_STATE_STARTING,     /* spawned, initialize in flight */
  ACP_AGENT_STATE_READY,        /* initialize answered */
  ACP_AGENT_STATE_STOPPING,     /* stop requested */
  ACP_AGENT_STATE_EXITED,       /* the process is gone (or the stream ended) */
} AcpAgentState;

#define ACP_TYPE_AGENT_STATE (acp_agent_state_get_type ())
GType acp_agent_state_get_type (void) G_GNUC_CONST;

/* What the agent advertised in its initialize response. */
typedef enum /*< flags >*/
{
  ACP_AGENT_CAP_NONE                     = 0,
  ACP_AGENT_CAP_LOAD_SESSION             = 1 << 0,
  ACP_AGENT_CAP_SESSION_LIST             = 1 << 1,
  ACP_AGENT_CAP_SESSION_RESUME           = 1 << 2,
  ACP_AGENT_CAP_SESSION_CLOSE            = 1 << 3,
  ACP_AGENT_CAP_SESSION_DELETE           = 1 << 4,
  ACP_AGENT_CAP_ADDITIONAL_DIRECTORIES   = 1 << 5,
  /* MCP transports: acp_agent_supports_mcp_transport() */
  ACP_AGENT_CAP_PROMPT_IMAGE             = 1 << 8,
  ACP_AGENT_CAP_PROMPT_AUDIO             = 1 << 9,
  ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT  = 1 << 10,
  ACP_AGENT_CAP_LOGOUT                   = 1 << 11,
  ACP_AGENT_CAP_SESSION_FORK             = 1 << 12,  /* unstable: sessionCapabilities.fork */
} AcpAgentCapabilities;

/* What this client implements and therefore advertises. */
typedef enum /*< flags >*/
{
  ACP_CLIENT_CAP_NONE           = 0,
  ACP_CLIENT_CAP_FS_READ        = 1 << 0,
  ACP_CLIENT_CAP_FS_WRITE       = 1 << 1,
  ACP_CLIENT_CAP_TERMINAL       = 1 << 2,
  ACP_CLIENT_CAP_BOOLEAN_CONFIG = 1 << 3,
  /* runs "terminal" auth methods (clientCapabilities.auth.terminal) */
  ACP_CLIENT_CAP_AUTH_TERMINAL  = 1 << 4,
  /* unstable: shows plan_update and plan_removed (clientCapabilities.plan) */
  ACP_CLIENT_CAP_PLAN           = 1 << 5,
} AcpClientCapabilities;

/* One entry of the agent's authMethods. */
typedef struct _AcpAuthMethod AcpAuthMethod;

#define ACP_TYPE_AUTH_METHOD (acp_auth_method_get_type ())
GType          acp_auth_method_get_type        (void) G_GNUC_CONST;
AcpAuthMethod *acp_auth_method_ref             (AcpAuthMethod *self);
void           acp_auth_method_unref           (AcpAuthMethod *self);
const char    *acp_auth_method_get_id          (AcpAuthMethod *self);
const char    *acp_auth_method_get_name        (AcpAuthMethod *self);
const char    *acp_auth_method_get_description (AcpAuthMethod *self);
/* "agent" (the default), "terminal", or whatever else the agent sent */
const char    *acp_auth_method_get_kind        (AcpAuthMethod *self);
/* for "terminal" methods: extra args and env (NAME=VALUE) to run the agent with */
const char * const *acp_auth_method_get_terminal_args (AcpAuthMethod *self);
const char * const *acp_auth_method_get_terminal_env  (AcpAuthMethod *self);

/* An environment variable an "env_var" sign-in method asks for. */
typedef struct
{
  char     *name;
  char     *label;     /* (nullable) */
  gboolean  optional;
  gboolean  secret;
} AcpAuthVar;

guint             acp_auth_method_get_n_vars (AcpAuthMethod *self);
const AcpAuthVar *acp_auth_method_get_var    (AcpAuthMethod *self,
                                              guint          index);
const char       *acp_auth_method_get_link   (AcpAuthMethod *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AcpAuthMethod, acp_auth_method_unref)

/*
 * AcpAgent signals:
 *   "update" (AcpUpdate *update): a session/update whose params have a
 *     string sessionId and an object update with a string sessionUpdate,
 *     taken apart in the connection's reading thread (see acp-update.c).
 *     Malformed ones are dropped and reported with "protocol-error". Text
 *     chunks of one message read together arrive as one update holding all
 *     their text: acp_update_get_n_notifications() tells how many it stands
 *     for.
 *   "request" (const char *session_id nullable, AcpIncomingRequest *request)
 *     → gboolean: an agent→client request; session_id is params.sessionId
 *     when it is a string. Return TRUE to take it (keep a reference and reply,
 *     possibly later); when no handler does, the agent gets -32601.
 *   "protocol-error" (const GError *error): a malformed message was dropped
 *     (ACP_ERROR_INVALID_MESSAGE), or one longer than the connection's
 *     "max-line-length" (ACP_ERROR_LINE_TOO_LONG).
 *   "exited": the process exited (or the stream closed), stopped or not;
 *     acp_agent_get_exit_error() says why, and every pending call failed
 *     with that error (ACP_ERROR_AGENT_EXITED: status or signal, stderr tail).
 * Property: "state" (AcpAgentState, read-only, notifies).
 */

#define ACP_TYPE_AGENT (acp_agent_get_type ())

G_DECLARE_FINAL_TYPE (AcpAgent, acp_agent, ACP, AGENT, GObject)

/* argv[0] is resolved on PATH; env entries are "NAME=VALUE" added to (or
 * replacing in) the inherited environment; cwd NULL means the current one. */
AcpAgent             *acp_agent_new                 (const char * const *argv,
                                                     const char * const *env,
                                                     const char         *cwd);
/* An agent already connected over a stream (tests; no process to manage). */
AcpAgent             *acp_agent_new_for_stream      (GIOStream          *stream);

/* Before the start only. */
void                  acp_agent_set_client_capabilities (AcpAgent              *self,
                                                         AcpClientCapabilities  caps);
AcpClientCapabilities acp_agent_get_client_capabilities (AcpAgent              *self);
/* Default 60000 ms; 0 waits forever. */
void                  acp_agent_set_initialize_timeout  (AcpAgent              *self,
                                                         guint                  timeout_ms);
/* Default 2000 ms, between EOF and SIGTERM and between SIGTERM and SIGKILL. */
void                  acp_agent_set_stop_grace_period   (AcpAgent              *self,
                                                         guint                  grace_ms);
/* The frames its messages are dispatched in step with, given to its
 * connection (acp_connection_set_pacer()); NULL (the default): none. */
void                  acp_agent_set_pacer               (AcpAgent              *self,
                                                         AcpPacer              *pacer);
AcpPacer             *acp_agent_get_pacer               (AcpAgent              *self);

AcpAgentState         acp_agent_get_state           (AcpAgent           *self);
AcpConnection        *acp_agent_get_connection      (AcpAgent           *self);
AcpAgentCapabilities  acp_agent_get_capabilities    (AcpAgent           *self);
gboolean              acp_agent_has_capability      (AcpAgent           *self,
                                                     AcpAgentCapabilities cap);
/* The raw agentCapabilities object of the initialize response, or NULL. */
JsonObject           *acp_agent_get_capabilities_object (AcpAgent       *self);
guint                 acp_agent_get_protocol_version (AcpAgent          *self);
const char           *acp_agent_get_agent_name      (AcpAgent           *self);
const char           *acp_agent_get_agent_title     (AcpAgent           *self);
const char           *acp_agent_get_agent_version   (AcpAgent           *self);
/* (element-type AcpAuthMethod) */
GPtrArray            *acp_agent_get_auth_methods    (AcpAgent           *self);
/* (nullable): the advertised method with that id */
AcpAuthMethod        *acp_agent_get_auth_method     (AcpAgent           *self,
                                                     const char         *method_id);
/* stdio always; another transport when mcpCapabilities has it true. */
gboolean              acp_agent_supports_mcp_transport (AcpAgent        *self,
                                                     AcpMcpTransport     transport);
/* Whether the server validates and the agent supports its transport: for
 * greying out servers in a UI. */
gboolean              acp_agent_can_use_mcp_server  (AcpAgent           *self,
                                                     AcpMcpServer       *server);
char                 *acp_agent_dup_stderr_tail     (AcpAgent           *self);
/* The agent's process id, which is also the id of the process group it
 * leads; 0 before it was spawned or when it runs over a stream. */
GPid                  acp_agent_get_pid             (AcpAgent           *self);
AcpTrafficLog        *acp_agent_get_traffic_log     (AcpAgent           *self);
/* Whether it was asked to stop (rather than exiting on its own). */
gboolean              acp_agent_get_stop_requested  (AcpAgent           *self);
/* Valid once the state is EXITED: the wait status as g_spawn_check_wait_status
 * understands it, or -1 when there was no process. */
int                   acp_agent_get_exit_status     (AcpAgent           *self);
/* Why the agent is gone (exit status, signal, stderr tail), once EXITED. */
const GError         *acp_agent_get_exit_error      (AcpAgent           *self);

/* Spawn (unless built for a stream) and run initialize. */
void                  acp_agent_start_async         (AcpAgent           *self,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean              acp_agent_start_finish        (AcpAgent           *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
/* Close stdin, SIGTERM after the grace period, then SIGKILL. Completes when the
 * process has exited. */
void                  acp_agent_stop_async          (AcpAgent           *self,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean              acp_agent_stop_finish         (AcpAgent           *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);

/* Client → agent methods. Each fails with ACP_ERROR_NOT_SUPPORTED, without
 * writing anything, when the agent did not advertise what it needs. Results
 * are validated; the _finish functions return the result object (transfer
 * full) unless noted. mcp_servers is (element-type AcpMcpServer) (nullable). */
void        acp_agent_authenticate_async   (AcpAgent *self, const char *method_id,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean    acp_agent_authenticate_finish  (AcpAgent *self, GAsyncResult *result, GError **error);
void        acp_agent_logout_async         (AcpAgent *self,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean    acp_agent_logout_finish        (AcpAgent *self, GAsyncResult *result, GError **error);

void        acp_agent_new_session_async    (AcpAgent *self, const char *cwd, GPtrArray *mcp_servers,
                                            const char * const *additional_directories,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
/* The result has a string "sessionId" (checked), maybe "modes", "configOptions". */
JsonObject *acp_agent_new_session_finish   (AcpAgent *self, GAsyncResult *result, GError **error);
void        acp_agent_load_session_async   (AcpAgent *self, const char *session_id, const char *cwd,
                                            GPtrArray *mcp_servers, const char * const *additional_directories,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
/* A null result is accepted and returned as an empty object. */
JsonObject *acp_agent_load_session_finish  (AcpAgent *self, GAsyncResult *result, GError **error);
void        acp_agent_resume_session_async (AcpAgent *self, const char *session_id, const char *cwd,
                                            GPtrArray *mcp_servers, const char * const *additional_directories,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
JsonObject *acp_agent_resume_session_finish (AcpAgent *self, GAsyncResult *result, GError **error);
/* session/fork (unstable): a new session from the context of @session_id.
 * The result is as session/new's: a string "sessionId" (checked), maybe
 * "modes", "configOptions". */
void        acp_agent_fork_session_async   (AcpAgent *self, const char *session_id, const char *cwd,
                                            GPtrArray *mcp_servers, const char * const *additional_directories,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
JsonObject *acp_agent_fork_session_finish  (AcpAgent *self, GAsyncResult *result, GError **error);
void        acp_agent_close_session_async  (AcpAgent *self, const char *session_id,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean    acp_agent_close_session_finish (AcpAgent *self, GAsyncResult *result, GError **error);
void        acp_agent_delete_session_async (AcpAgent *self, const char *session_id,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean    acp_agent_delete_session_finish (AcpAgent *self, GAsyncResult *result, GError **error);
/* One page. cwd and cursor are nullable. The result has "sessions" (an array;
 * entries without a string sessionId and cwd are dropped) and maybe "nextCursor". */
void        acp_agent_list_sessions_async  (AcpAgent *self, const char *cwd, const char *cursor,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
JsonObject *acp_agent_list_sessions_finish (AcpAgent *self, GAsyncResult *result, GError **error);
/* prompt is a JSON array of ContentBlock objects; the result is the stop
 * reason ("end_turn", "cancelled", ...), checked to be a string. */
void        acp_agent_prompt_async         (AcpAgent *self, const char *session_id, JsonArray *prompt,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
char       *acp_agent_prompt_finish        (AcpAgent *self, GAsyncResult *result, GError **error);
gboolean    acp_agent_cancel               (AcpAgent *self, const char *session_id, GError **error);
void        acp_agent_set_mode_async       (AcpAgent *self, const char *session_id, const char *mode_id,
                                            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean    acp_agent_set_mode_finish      (AcpAgent *self, GAsyncResult *result, GError **error);
/* value is a string node (select) or a boolean node (boolean options). The
 * result is the full new configOptions array. */
void        acp_agent_set_config_option_async  (AcpAgent *self, const char *session_id, const char *config_id,
                                                JsonNode *value,
                                                GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
JsonArray  *acp_agent_set_config_option_finish (AcpAgent *self, GAsyncResult *result, GError **error);

G_END_DECLS
