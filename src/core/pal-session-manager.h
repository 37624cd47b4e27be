/* pal-session-manager.h: agent processes and live sessions for the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-agent.h"
#include "acp-fs-service.h"
#include "acp-terminal-service.h"
#include "acp-session.h"
#include "pal-agent-store.h"
#include "pal-live-session.h"
#include "pal-mcp-server-store.h"
#include "pal-session-store.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

/*
 * PalSessionManager: one agent process per (agent profile, project folder),
 * shared by the live sessions there; at most one live AcpSession per
 * session, named by its PalSessionKey (agent profile, session id): two
 * agents may hand out the same id.
 *
 * Live sessions are PalLiveSession objects, listed in
 * pal_session_manager_get_live_sessions() while live: bind to their
 * properties ("state", "session", ...) rather than ask by key.
 *
 * Errors: agent errors stay ACP_ERROR with the agent's code, message and
 * data (a dead agent: ACP_ERROR_AGENT_EXITED with exit status and stderr
 * tail); -32000 is pal_session_manager_error_is_auth_required(). Local
 * refusals are PAL_ERROR: NOT_FOUND (unknown profile or session, session
 * not open), INVALID (relative folder, bad profile), NOT_SUPPORTED (the
 * agent lacks the capability; nothing was sent), EXISTS (an agent reused the
 * id of an open session). G_IO_ERROR_CLOSED after shutdown.
 */

#define PAL_TYPE_SESSION_MANAGER (pal_session_manager_get_type ())

G_DECLARE_FINAL_TYPE (PalSessionManager, pal_session_manager, PAL, SESSION_MANAGER, GObject)

/* mcp_server_store is nullable (no MCP servers are passed then); so is
 * pacer (no agent keeps in step with frames then). */
PalSessionManager *pal_session_manager_new              (PalAgentStore       *agent_store,
                                                         PalSessionStore     *session_store,
                                                         PalMcpServerStore   *mcp_server_store,
                                                         AcpPacer            *pacer);

PalAgentStore     *pal_session_manager_get_agent_store  (PalSessionManager   *self);
PalSessionStore   *pal_session_manager_get_session_store (PalSessionManager  *self);
PalMcpServerStore *pal_session_manager_get_mcp_server_store (PalSessionManager *self);
/* The pacer every agent started is given, for the views showing their
 * sessions to report frames to. (transfer none) (nullable) */
AcpPacer          *pal_session_manager_get_pacer        (PalSessionManager   *self);

/* Where every session's updates and prompts are recorded, or NULL.
 * (transfer none) */
PalTranscriptStore *pal_session_manager_get_transcript_store (PalSessionManager *self);

/* Answers the agents' fs/ requests within each session's folder; connect to
 * its "access-request" signal to let the person allow a path outside.
 * (transfer none) */
AcpFsService      *pal_session_manager_get_fs_service   (PalSessionManager   *self);
/* Runs the agents' terminal/ commands in each session's folder; its output
 * and signals feed embedded terminal views. (transfer none) */
AcpTerminalService *pal_session_manager_get_terminal_service (PalSessionManager *self);

/* --- live sessions --- */

/* The live session (open, opening, or failed while open), or NULL.
 * (transfer none) */
PalLiveSession    *pal_session_manager_lookup_live      (PalSessionManager   *self,
                                                         PalSessionKey       *key);
/* The PalLiveSession objects of the live sessions, in the order they became
 * live. (transfer none) */
GListModel        *pal_session_manager_get_live_sessions (PalSessionManager  *self);
/* The object that stands for the live session now, or NULL: the session of
 * pal_session_manager_lookup_live(). (transfer none) */
AcpSession        *pal_session_manager_lookup           (PalSessionManager   *self,
                                                         PalSessionKey       *key);
/* Which session an AcpSession this manager handed out stands for, live or
 * not any more; NULL for another object. (transfer none) */
PalSessionKey     *pal_session_manager_get_session_key  (PalSessionManager   *self,
                                                         AcpSession          *session);
/* The key of the live session that runs on @agent with that id (what an
 * agent's request names), or NULL. (transfer none) */
PalSessionKey     *pal_session_manager_find_live_key    (PalSessionManager   *self,
                                                         AcpAgent            *agent,
                                                         const char          *session_id);
/* The agent of the session, live or shown before (closed, failed), whose
 * log tells what happened; NULL when it has not run here. (transfer full) */
AcpAgent          *pal_session_manager_dup_agent_of     (PalSessionManager   *self,
                                                         PalSessionKey       *key);
gboolean           pal_session_manager_is_agent_out_of_date (PalSessionManager *self,
                                                             const char        *profile_id);
void               pal_session_manager_restart_agent_async (PalSessionManager   *self,
                                                            const char          *profile_id,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
int                pal_session_manager_restart_agent_finish (PalSessionManager  *self,
                                                             GAsyncResult       *result,
                                                             GError            **error);
AcpAgent          *pal_session_manager_dup_last_agent   (PalSessionManager   *self,
                                                         const char          *profile_id);
/* Stops the agent process of a live session, at once (a turn it does not
 * end, say): every session of that agent fails, and opens again with a new
 * agent when written to. Returns: whether there was an agent to stop */
gboolean           pal_session_manager_stop_agent       (PalSessionManager   *self,
                                                         PalSessionKey       *key);

/* Whether the operation can work for the stored session. When the agent of
 * its profile has not run yet in this process, the answer is unknown: TRUE
 * with *reason_out NULL, and the operation itself fails clearly if need be.
 * *reason_out (nullable, transfer full) says why not when FALSE; for
 * can_close it may also carry a caveat when TRUE. */
gboolean           pal_session_manager_can_load         (PalSessionManager   *self,
                                                         PalSessionKey       *key,
                                                         char               **reason_out);
gboolean           pal_session_manager_can_resume       (PalSessionManager   *self,
                                                         PalSessionKey       *key,
                                                         char               **reason_out);
gboolean           pal_session_manager_can_close        (PalSessionManager   *self,
                                                         PalSessionKey       *key,
                                                         char               **reason_out);

/* --- agents --- */

/* The running (initialized) agent of that profile and folder, or NULL.
 * (transfer none) */
AcpAgent          *pal_session_manager_lookup_agent     (PalSessionManager   *self,
                                                         const char          *profile_id,
                                                         const char          *cwd);
/* What the agent of that profile supports: of its running agent in @cwd,
 * else of the last one of the profile that started. FALSE when none has
 * started yet: pal_session_manager_start_agent_async() then tells. */
gboolean           pal_session_manager_get_agent_capabilities (PalSessionManager    *self,
                                                               const char           *profile_id,
                                                               const char           *cwd,
                                                               AcpAgentCapabilities *caps);
/* Starts the agent of that profile and folder unless it runs already (for
 * instance to learn its capabilities before a session exists). */
void               pal_session_manager_start_agent_async (PalSessionManager  *self,
                                                          const char         *profile_id,
                                                          const char         *cwd,
                                                          GCancellable       *cancellable,
                                                          GAsyncReadyCallback callback,
                                                          gpointer            user_data);
/* (transfer full) */
AcpAgent          *pal_session_manager_start_agent_finish (PalSessionManager *self,
                                                           GAsyncResult      *result,
                                                           GError           **error);

/* Whether @error is the agent's "authentication required" (-32000). */
gboolean           pal_session_manager_error_is_auth_required (const GError  *error);

void               pal_session_manager_authenticate_async (PalSessionManager *self,
                                                           const char        *profile_id,
                                                           const char        *cwd,
                                                           const char        *method_id,
                                                           GCancellable      *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer           user_data);
gboolean           pal_session_manager_authenticate_finish (PalSessionManager *self,
                                                            GAsyncResult      *result,
                                                            GError           **error);
/* A "terminal" sign-in method: the command to run for the person. */
void               pal_session_manager_sign_in_command_async (PalSessionManager  *self,
                                                              const char         *profile_id,
                                                              const char         *cwd,
                                                              AcpAuthMethod      *method,
                                                              GCancellable       *cancellable,
                                                              GAsyncReadyCallback callback,
                                                              gpointer            user_data);
char             **pal_session_manager_sign_in_command_finish (PalSessionManager *self,
                                                               GAsyncResult      *result,
                                                               char            ***out_env,
                                                               char             **out_cwd,
                                                               GError           **error);
/* What the agents of the profile read at their start changed (a sign-in):
 * they start anew at their next need. */
void               pal_session_manager_mark_agent_out_of_date (PalSessionManager *self,
                                                               const char        *profile_id);

/* --- opening and closing --- */

/* mcp_server_names: the servers to pass (NULL: every enabled one);
 * additional_directories: more folders for the session (nullable).
 * Returns the READY session (transfer full). */
void               pal_session_manager_new_session_async (PalSessionManager  *self,
                                                          const char         *profile_id,
                                                          const char         *cwd,
                                                          const char * const *mcp_server_names,
                                                          const char * const *additional_directories,
                                                          GCancellable       *cancellable,
                                                          GAsyncReadyCallback callback,
                                                          gpointer            user_data);
AcpSession        *pal_session_manager_new_session_finish (PalSessionManager *self,
                                                           GAsyncResult      *result,
                                                           GError           **error);

/* Load when the agent can, else resume, else PAL_ERROR_NOT_SUPPORTED. */
void               pal_session_manager_open_session_async (PalSessionManager *self,
                                                           PalSessionKey     *key,
                                                           GCancellable      *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer           user_data);
AcpSession        *pal_session_manager_open_session_finish (PalSessionManager *self,
                                                            GAsyncResult      *result,
                                                            GError           **error);
void               pal_session_manager_load_session_async (PalSessionManager *self,
                                                           PalSessionKey     *key,
                                                           GCancellable      *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer           user_data);
AcpSession        *pal_session_manager_load_session_finish (PalSessionManager *self,
                                                            GAsyncResult      *result,
                                                            GError           **error);
void               pal_session_manager_resume_session_async (PalSessionManager *self,
                                                             PalSessionKey     *key,
                                                             GCancellable      *cancellable,
                                                             GAsyncReadyCallback callback,
                                                             gpointer           user_data);
AcpSession        *pal_session_manager_resume_session_finish (PalSessionManager *self,
                                                              GAsyncResult      *result,
                                                              GError           **error);
/* The window's Retry: re-opens a failed session (a new agent process when
 * the old one died). Returns a new AcpSession object (transfer full). */
void               pal_session_manager_restart_async     (PalSessionManager  *self,
                                                          PalSessionKey      *key,
                                                          GCancellable       *cancellable,
                                                          GAsyncReadyCallback callback,
                                                          gpointer            user_data);
AcpSession        *pal_session_manager_restart_finish    (PalSessionManager  *self,
                                                          GAsyncResult       *result,
                                                          GError            **error);

/* Forks the session at its agent (session/fork); returns the fork, READY
 * and listed (transfer full). */
void               pal_session_manager_fork_session_async (PalSessionManager *self,
                                                           PalSessionKey     *key,
                                                           GCancellable      *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer           user_data);
AcpSession        *pal_session_manager_fork_session_finish (PalSessionManager *self,
                                                            GAsyncResult      *result,
                                                            GError           **error);
/* Only where the agent is known to have advertised it: an agent that has not
 * run yet cannot. */
gboolean           pal_session_manager_can_fork         (PalSessionManager   *self,
                                                         PalSessionKey       *key);

void               pal_session_manager_delete_session_async (PalSessionManager   *self,
                                                             PalSessionKey       *key,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean           pal_session_manager_delete_session_finish (PalSessionManager  *self,
                                                              GAsyncResult       *result,
                                                              GError            **error);
gboolean           pal_session_manager_can_delete       (PalSessionManager   *self,
                                                         PalSessionKey       *key,
                                                         char               **reason_out);
void               pal_session_manager_close_session_async (PalSessionManager *self,
                                                            PalSessionKey     *key,
                                                            GCancellable      *cancellable,
                                                            GAsyncReadyCallback callback,
                                                            gpointer           user_data);
gboolean           pal_session_manager_close_session_finish (PalSessionManager *self,
                                                             GAsyncResult      *result,
                                                             GError           **error);
/* Closes the session if it is live (in the background) and removes it from
 * the session list. FALSE when it was neither listed nor live. */
gboolean           pal_session_manager_forget           (PalSessionManager   *self,
                                                         PalSessionKey       *key);

/* --- turns --- */

/* A text prompt; returns the stop reason (transfer full). */
void               pal_session_manager_prompt_async     (PalSessionManager   *self,
                                                         PalSessionKey       *key,
                                                         const char          *text,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
char              *pal_session_manager_prompt_finish    (PalSessionManager   *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);

/* --- the agent's own list --- */

/* Fetches the agent's session/list for @cwd (every page, bounded) and merges
 * it into the session store. PAL_ERROR_NOT_SUPPORTED when the agent cannot
 * list sessions. */
void               pal_session_manager_refresh_listed_async (PalSessionManager *self,
                                                             const char        *profile_id,
                                                             const char        *cwd,
                                                             GCancellable      *cancellable,
                                                             GAsyncReadyCallback callback,
                                                             gpointer           user_data);
/* out_n_added: (optional): how many sessions were new to the list */
gboolean           pal_session_manager_refresh_listed_finish (PalSessionManager *self,
                                                              GAsyncResult      *result,
                                                              guint             *out_n_added,
                                                              GError           **error);

/* --- quitting --- */

/* Stops every agent; later calls fail with G_IO_ERROR_CLOSED. */
void               pal_session_manager_shutdown_async   (PalSessionManager   *self,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean           pal_session_manager_shutdown_finish  (PalSessionManager   *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);

G_END_DECLS
