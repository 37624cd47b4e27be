/* acp-session.h: one conversation with an agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-agent.h"
#include "acp-command.h"
#include "acp-config-option.h"
#include "acp-error.h"
#include "acp-mode.h"
#include "acp-transcript.h"
#include "acp-usage.h"

G_BEGIN_DECLS

typedef enum
{
  ACP_SESSION_STATE_NEW,        /* nothing asked of the agent yet (or that failed) */
  ACP_SESSION_STATE_CREATING,   /* session/new in flight */
  ACP_SESSION_STATE_LOADING,    /* session/load in flight; the replay fills the transcript */
  ACP_SESSION_STATE_RESUMING,   /* session/resume in flight */
  ACP_SESSION_STATE_READY,      /* open, no turn running */
  ACP_SESSION_STATE_PROMPTING,  /* a prompt turn is running */
  ACP_SESSION_STATE_CLOSING,    /* session/close in flight */
  ACP_SESSION_STATE_CLOSED,     /* closed; nothing more happens */
  ACP_SESSION_STATE_FAILED,     /* the agent went away; see "error" */
} AcpSessionState;

#define ACP_TYPE_SESSION_STATE (acp_session_state_get_type ())
GType acp_session_state_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_SESSION (acp_session_get_type ())

G_DECLARE_FINAL_TYPE (AcpSession, acp_session, ACP, SESSION, GObject)

/* agent must be started (READY) before the first call. */
AcpSession      *acp_session_new                    (AcpAgent        *agent,
                                                     const char      *cwd);

AcpAgent        *acp_session_get_agent              (AcpSession      *self);
const char      *acp_session_get_cwd                (AcpSession      *self);
/* Folders besides cwd, sent by the next create, load or resume; never NULL. */
const char * const *acp_session_get_additional_directories (AcpSession *self);
void             acp_session_set_additional_directories (AcpSession         *self,
                                                         const char * const *directories);
/* NULL until create, load or resume set it */
const char      *acp_session_get_session_id         (AcpSession      *self);
AcpSessionState  acp_session_get_state              (AcpSession      *self);
/* Why the session FAILED (the agent's exit error), else NULL. */
const GError    *acp_session_get_error              (AcpSession      *self);
AcpTranscript   *acp_session_get_transcript         (AcpSession      *self);
/* From session_info_update; nullable. */
const char      *acp_session_get_title              (AcpSession      *self);
const char      *acp_session_get_updated_at         (AcpSession      *self);
/* The lists below are the same objects for the session's life; each
 * change is one items-changed. */
/* AcpMode items; empty when the agent sent configOptions, which supersede
 * modes. */
GListModel      *acp_session_get_modes              (AcpSession      *self);
const char      *acp_session_get_current_mode_id    (AcpSession      *self);
/* AcpConfigOption items. */
GListModel      *acp_session_get_config_options     (AcpSession      *self);
/* AcpCommand items. */
GListModel      *acp_session_get_available_commands (AcpSession      *self);
/* The last usage_update, or NULL. */
AcpUsage        *acp_session_get_usage              (AcpSession      *self);
/* session/update notifications received during the last load. */
guint            acp_session_get_replay_count       (AcpSession      *self);
/* Permission items still waiting for an answer. */
guint            acp_session_get_pending_permissions (AcpSession     *self);
/* The stop reason of the last finished turn, or NULL. */
const char      *acp_session_get_stop_reason        (AcpSession      *self);
/* The turn was cancelled and the agent has not ended it yet. */
gboolean         acp_session_get_cancelling         (AcpSession      *self);

/* Applies one `update` object: session-level variants to the session,
 * the others to the transcript (acp_transcript_apply_update()). */
gboolean         acp_session_apply_update           (AcpSession      *self,
                                                     JsonObject      *update,
                                                     GError         **error);

/* mcp_servers: (element-type AcpMcpServer) (nullable) */
void             acp_session_create_async           (AcpSession         *self,
                                                     GPtrArray          *mcp_servers,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean         acp_session_create_finish          (AcpSession         *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
void             acp_session_fork_async             (AcpSession         *self,
                                                     const char         *source_id,
                                                     GPtrArray          *mcp_servers,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean         acp_session_fork_finish            (AcpSession         *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
void             acp_session_load_async             (AcpSession         *self,
                                                     const char         *session_id,
                                                     GPtrArray          *mcp_servers,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean         acp_session_load_finish            (AcpSession         *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
void             acp_session_resume_async           (AcpSession         *self,
                                                     const char         *session_id,
                                                     GPtrArray          *mcp_servers,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean         acp_session_resume_finish          (AcpSession         *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
/* prompt: ContentBlock objects. Returns the stop reason (transfer full). */
void             acp_session_prompt_async           (AcpSession         *self,
                                                     JsonArray          *prompt,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
char            *acp_session_prompt_finish          (AcpSession         *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
/* Sends session/cancel (during a turn) and answers every pending permission
 * request with the "cancelled" outcome. */
gboolean         acp_session_cancel                 (AcpSession         *self,
                                                     GError            **error);
/* session/close when the agent advertises it, else closes locally. */
void             acp_session_close_async            (AcpSession         *self,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean         acp_session_close_finish           (AcpSession         *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
void             acp_session_set_mode_async         (AcpSession         *self,
                                                     const char         *mode_id,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean         acp_session_set_mode_finish        (AcpSession         *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
/* value: a string node (select) or a boolean node (boolean options). */
void             acp_session_set_config_option_async (AcpSession        *self,
                                                     const char         *config_id,
                                                     JsonNode           *value,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean         acp_session_set_config_option_finish (AcpSession       *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);

G_END_DECLS
