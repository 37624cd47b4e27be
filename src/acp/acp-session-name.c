/* acp-session-name.c: what names a session in the client services
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-session-name-private.h"

AcpSessionName *
_acp_session_name_new (gconstpointer  agent,
                       const char    *session_id)
{
  AcpSessionName *name = g_new0 (AcpSessionName, 1);

  name->agent = agent;
  name->session_id = g_strdup (session_id);
  return name;
}

void
_acp_session_name_free (gpointer data)
{
  AcpSessionName *name = data;

  g_free (name->session_id);
  g_free (name);
}

guint
_acp_session_name_hash (gconstpointer data)
{
  const AcpSessionName *name = data;

  return g_str_hash (name->session_id) ^ g_direct_hash (name->agent);
}

gboolean
_acp_session_name_equal (gconstpointer a,
                         gconstpointer b)
{
  const AcpSessionName *name_a = a;
  const AcpSessionName *name_b = b;

  return name_a->agent == name_b->agent && g_str_equal (name_a->session_id, name_b->session_id);
}
