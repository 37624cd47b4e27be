/* fuzz-session-update.c: session/update params, through the update reducer
 *
 * The input is lines of JSON, read as the connection reads them: each a
 * session/update params object ({"sessionId", "update"}) or a bare update.
 * They are applied in order to one session (session-level variants) and
 * its transcript (the others), so that later updates merge into what
 * earlier ones made. Then every item is read as a view would, and every
 * string must be UTF-8.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-agent.h"
#include "acp-json-reader.h"
#include "acp-session.h"
#include "fuzz-util.h"

/* as deep as the connection lets a message nest */
#define MAX_DEPTH 512

/* a session needs an agent; this one never runs */
static AcpAgent *agent;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  const char *argv_agent[] = { "/nonexistent/palaver-fuzz-agent", NULL };

  fuzz_init ();
  agent = acp_agent_new (argv_agent, NULL, NULL);
  return 0;
}

static void
apply_line (AcpSession *session,
            const char *line,
            gsize       length)
{
  g_autoptr(JsonNode) root = acp_json_read (line, length, MAX_DEPTH, NULL);
  JsonObject *update;
  JsonNode *member;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;

  update = json_node_get_object (root);
  member = json_object_get_member (update, "update");
  if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
    update = json_node_get_object (member);

  acp_session_apply_update (session, update, NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AcpSession) session = acp_session_new (agent, "/");
  AcpTranscript *transcript = acp_session_get_transcript (session);
  const char *p = (const char *) data;
  const char *end = p + size;
  guint n_lines = 0;

  while (p < end)
    {
      const char *newline = memchr (p, '\n', end - p);
      const char *line_end = newline != NULL ? newline : end;

      apply_line (session, p, line_end - p);
      /* now and then shown, as the main loop would between reads */
      if (++n_lines % 4 == 0)
        acp_transcript_flush (transcript);
      p = newline != NULL ? newline + 1 : end;
    }

  acp_transcript_stop_tool_calls (transcript);
  acp_transcript_flush (transcript);

  /* the session's, and through its lists every item's; its usage */
  fuzz_read_properties (G_OBJECT (session));
  if (acp_session_get_usage (session) != NULL)
    fuzz_read_properties (G_OBJECT (acp_session_get_usage (session)));

  g_clear_object (&session);
  fuzz_drain_main_context ();
  return 0;
}
