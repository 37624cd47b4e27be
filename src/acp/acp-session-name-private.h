/* acp-session-name-private.h: what names a session in the client services
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A session id is the agent's: two agents may use the same one. The client
 * services (files, terminals) therefore name a session by the pair (agent,
 * session id); the agent is an identity, never dereferenced. A stack
 * AcpSessionName { agent, (char *) id } serves for lookups. */
typedef struct
{
  gconstpointer  agent;
  char          *session_id;
} AcpSessionName;

AcpSessionName *_acp_session_name_new   (gconstpointer  agent,
                                         const char    *session_id);
void            _acp_session_name_free  (gpointer       name);
/* For GHashTable */
guint           _acp_session_name_hash  (gconstpointer  name);
gboolean        _acp_session_name_equal (gconstpointer  a,
                                         gconstpointer  b);

G_END_DECLS
