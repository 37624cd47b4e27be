/* acp-agent-private.h: internals shared by acp-agent.c and acp-agent-calls.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-agent.h"

G_BEGIN_DECLS

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

/* An entry of authMethods, or NULL when it is not usable. */
AcpAuthMethod *_acp_auth_method_new_from_json (JsonNode *node);

G_END_DECLS
