/* pal-session-manager-private.h: internals shared by the session manager's files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-fs-service.h"
#include "acp-terminal-service.h"
#include "pal-launcher.h"
#include "pal-session-manager.h"

G_BEGIN_DECLS

/* What this client implements, and therefore advertises: fs/ and terminal/
 * requests through the manager's AcpFsService and AcpTerminalService;
 * "terminal" sign-in methods, whose command
 * (pal_session_manager_sign_in_command_async()) the window runs in a
 * terminal; plans by id (plan_update, plan_removed), which the chat shows.
 * The window renders no boolean config options yet. Advertise more only
 * once it is really handled. */
#define PAL_CLIENT_CAPABILITIES \
  (ACP_CLIENT_CAP_FS_READ | ACP_CLIENT_CAP_FS_WRITE | ACP_CLIENT_CAP_TERMINAL | \
   ACP_CLIENT_CAP_AUTH_TERMINAL | ACP_CLIENT_CAP_PLAN)

/* Put in every agent's environment, unless its profile sets the variable
 * itself. Gemini CLI runs commands in a pseudo-terminal when it can, and
 * then sends the client nothing of their output (its tool call updates
 * carry an empty content): the output is kept for its own terminal screen.
 * Without one, it sends the output as the tool call's text content. This
 * client has no terminal to offer a command either way. */
#define PAL_AGENT_ENV_DEFAULTS { "GEMINI_PTY_INFO=child_process", NULL }

/* Real agents may take a long time to initialize (npx, first run). */
#define PAL_AGENT_INITIALIZE_TIMEOUT_MS 60000

/* Tasks waiting for one shared operation (an agent start, a session being
 * opened; pal-session-manager-wait-list.c). A waiter whose own cancellable
 * fires leaves at once with G_IO_ERROR_CANCELLED; when the last one leaves,
 * @cancellable (the shared operation's) is cancelled too. */
typedef struct
{
  GPtrArray    *waiters;
  GCancellable *cancellable;
} PalWaitList;

void      _pal_wait_list_init          (PalWaitList   *list);
/* Fails the remaining waiters with @error (when not NULL) and frees. */
void      _pal_wait_list_clear         (PalWaitList   *list,
                                        const GError  *error);
void      _pal_wait_list_add           (PalWaitList   *list,
                                        GTask         *task);
gboolean  _pal_wait_list_is_empty      (PalWaitList   *list);
/* Each waiter gets a new reference to @object. */
void      _pal_wait_list_return_object (PalWaitList   *list,
                                        gpointer       object);
void      _pal_wait_list_return_error  (PalWaitList   *list,
                                        const GError  *error);

typedef struct _AgentSlot AgentSlot;

struct _PalSessionManager
{
  GObject             parent_instance;

  PalAgentStore      *agent_store;
  PalSessionStore    *session_store;
  PalMcpServerStore  *mcp_server_store;
  AcpPacer           *pacer;           /* given to every agent; nullable */

  PalLauncherSandbox  sandbox;
  /* answer the fs/ and terminal/ requests of every agent, in session folders */
  AcpFsService       *fs_service;
  AcpTerminalService *terminal_service;

  /* "profile\ncwd" keys (length-prefixed) → AgentSlot (owned reference) */
  GHashTable         *agents;
  /* profile id → capabilities of the last agent of that profile that started,
   * with KNOWN_CAPS_BIT set */
  GHashTable         *known_caps;
  /* profile id → the last agent started of that profile (owned), for its
   * log after it failed */
  GHashTable         *last_agents;
  /* PalSessionKey → PalLiveSession (owned reference) */
  GHashTable         *live;
  /* the same PalLiveSession objects, in the order they became live */
  GListStore         *live_list;
  /* PalSessionKey → GWeakRef to the AcpSession it had when it stopped being
   * live (closed): a resume keeps its transcript while it is on screen */
  GHashTable         *previous;

  guint               shut_down : 1;
};

#define KNOWN_CAPS_BIT (1u << 31)

AcpSession *_pal_session_manager_dup_previous (PalSessionManager *self,
                                               PalSessionKey     *key);

/* Live sessions (pal-session-manager.c); their fields are in
 * pal-live-session-private.h. */

/* A new live session for @key, in the table and the list. */
PalLiveSession *_pal_session_manager_add_live     (PalSessionManager *self,
                                                   PalSessionKey     *key);
/* Takes @live out of the table and the list; it is NOT_RUNNING, without a
 * session, from then on. Waiters of an open in flight get a "closed" error
 * when @fail_waiters (otherwise the caller answers them). */
void            _pal_session_manager_remove_live  (PalSessionManager *self,
                                                   PalLiveSession    *live,
                                                   gboolean           fail_waiters);
/* Recomputes the state of @live, while it is live. */
void            _pal_session_manager_update_state (PalLiveSession    *live);
/* Follows @session from now on: @live stands for it. */
void            _pal_session_manager_follow       (PalSessionManager *self,
                                                   PalLiveSession    *live,
                                                   AcpSession        *session);
/* READY or PROMPTING */
gboolean        _pal_session_is_open              (AcpSession        *session);

/* pal-session-manager-open.c */

/* What a new session object starts with, whether it is created, opened or
 * forked: its folders, the MCP servers its agent can use, and notices of
 * what was left out, for its transcript once the agent answered. */
typedef struct
{
  char      *cwd;                     /* canonical */
  char     **additional_directories;  /* tidied by pal_folders_clean() */
  gboolean   folders_left_out;        /* the agent does not take them */
  GPtrArray *notices;
} PalSessionSetup;

/* Takes @cwd (canonical); tidies @additional_directories. */
void       _pal_session_setup_init        (PalSessionSetup    *setup,
                                           char               *cwd,
                                           const char * const *additional_directories);
void       _pal_session_setup_clear       (PalSessionSetup    *setup);
/* A new session on @agent in the setup's folders (the additional ones when
 * the agent takes them); @servers gets the MCP servers to pass it: the
 * named ones (NULL: every enabled one), less those it cannot use or that
 * are not valid. What is left out gets a notice. (transfer full) */
AcpSession *_pal_session_setup_new_session (PalSessionSetup    *setup,
                                            PalSessionManager  *self,
                                            AcpAgent           *agent,
                                            const char * const *mcp_server_names,
                                            GPtrArray         **servers);
/* Appends the notices of what was left out to the session's transcript. */
void       _pal_session_setup_append_notices (PalSessionSetup *setup,
                                              AcpSession      *session);
/* A session the agent has just created (session/new, session/fork) joins
 * the list as one of @profile_id in @cwd, with the folders it was given and
 * @title (nullable), becomes live and is returned from @task (taken).
 * After shutdown, or when an open session has its key already, it is
 * closed at the agent instead, and @task fails. */
void       _pal_session_manager_return_created (PalSessionManager *self,
                                                GTask             *task,
                                                const char        *profile_id,
                                                const char        *cwd,
                                                AcpSession        *session,
                                                const char        *title);
/* Appends the items of @from's transcript to @to's; returns how many. */
guint      _pal_session_carry_transcript  (AcpSession         *from,
                                           AcpSession         *to);

/* pal-session-manager-agents.c */

/* The agent of one profile and folder, in PalSessionManager.agents. */
struct _AgentSlot
{
  PalSessionManager *manager;   /* unowned; NULL once the manager is disposed */
  char              *key;
  char              *profile_id;
  char              *cwd;
  char              *launch;    /* how it was started: see _pal_agent_launch_of () */
  AcpAgent          *agent;
  gulong             exited_id;
  gboolean           starting;
  PalWaitList        start;
};

AgentSlot *_pal_agent_slot_ref          (AgentSlot           *slot);
void       _pal_agent_slot_unref        (AgentSlot           *slot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentSlot, _pal_agent_slot_unref)

void      _pal_session_manager_init_agents      (PalSessionManager   *self);
void      _pal_session_manager_dispose_agents   (PalSessionManager   *self);
/* Canonical form of a project folder, or NULL (with PAL_ERROR_INVALID) when
 * it is not an absolute path. */
char     *_pal_session_manager_canonical_cwd    (const char          *cwd,
                                                 GError             **error);
void      _pal_session_manager_ensure_agent_async (PalSessionManager *self,
                                                   const char        *profile_id,
                                                   const char        *cwd,
                                                   GCancellable      *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer           user_data);
AcpAgent *_pal_session_manager_ensure_agent_finish (PalSessionManager *self,
                                                    GAsyncResult      *result,
                                                    GError           **error);
/* The capabilities of the running agent of that profile and folder, else
 * of the last agent of that profile; FALSE when none is known. */
gboolean  _pal_session_manager_get_known_caps   (PalSessionManager   *self,
                                                 const char          *profile_id,
                                                 const char          *cwd,
                                                 AcpAgentCapabilities *caps);
/* Cancels the starts in flight and stops every agent. */
void      _pal_session_manager_stop_agents_async (PalSessionManager  *self,
                                                  GCancellable       *cancellable,
                                                  GAsyncReadyCallback callback,
                                                  gpointer            user_data);
gboolean  _pal_session_manager_stop_agents_finish (PalSessionManager *self,
                                                   GAsyncResult      *result,
                                                   GError           **error);

/* pal-session-manager-out-of-date.c */
/* The program, arguments and environment a profile starts (the names of
 * the values in the keyring too), as one string: an agent started from
 * another is out of date. */
char     *_pal_agent_launch_of                  (PalAgentProfile     *profile);
/* Whether a session that is still open runs on @agent */
gboolean  _pal_session_manager_agent_in_use     (PalSessionManager   *self,
                                                 AcpAgent            *agent);
/* PalAgentStore::secrets-changed */
void      _pal_session_manager_secrets_changed_cb (PalAgentStore     *store,
                                                   const char        *profile_id,
                                                   PalSessionManager *self);

G_END_DECLS
