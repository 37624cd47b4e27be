/* fuzz-connection.c: bytes from an agent, through the connection
 *
 * The input is what an agent writes to its stdout. An agent over a memory
 * stream reads it (framing, the JSON reader in the connection's worker
 * thread, joining of streamed text, dispatch) and answers initialize with
 * whatever the input holds for request 1. Everything the agent hands on is
 * checked to be UTF-8 and applied to a session, as the session manager
 * would. The input ends as a closed stream, which ends the agent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-agent.h"
#include "acp-session.h"
#include "acp-update-private.h"
#include "fuzz-util.h"

typedef struct
{
  AcpSession *session;
  gboolean    started;
  gboolean    exited;
} Run;

static void
check_strv (const char * const *strv)
{
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    FUZZ_CHECK (fuzz_is_text (strv[i]));
}

/* What sign-in shows and stores (variable names go into the profile). */
static void
check_auth_methods (AcpAgent *agent)
{
  GPtrArray *methods = acp_agent_get_auth_methods (agent);

  for (guint i = 0; methods != NULL && i < methods->len; i++)
    {
      AcpAuthMethod *method = g_ptr_array_index (methods, i);

      FUZZ_CHECK (fuzz_is_text (acp_auth_method_get_id (method)));
      FUZZ_CHECK (fuzz_is_text (acp_auth_method_get_name (method)));
      FUZZ_CHECK (fuzz_is_text (acp_auth_method_get_description (method)));
      FUZZ_CHECK (fuzz_is_text (acp_auth_method_get_kind (method)));
      FUZZ_CHECK (fuzz_is_text (acp_auth_method_get_link (method)));
      check_strv (acp_auth_method_get_terminal_args (method));
      check_strv (acp_auth_method_get_terminal_env (method));
      for (guint j = 0; j < acp_auth_method_get_n_vars (method); j++)
        {
          const AcpAuthVar *var = acp_auth_method_get_var (method, j);

          FUZZ_CHECK (fuzz_is_text (var->name));
          FUZZ_CHECK (fuzz_is_text (var->label));
        }
    }
}

static void
update_cb (AcpAgent  *agent,
           AcpUpdate *update,
           Run       *run)
{
  FUZZ_CHECK (fuzz_is_text (acp_update_get_session_id (update)));
  FUZZ_CHECK (fuzz_is_text (acp_update_get_kind (update)));
  FUZZ_CHECK (acp_update_get_n_notifications (update) >= 1);
  /* what the reading thread kept, applied as the session applies it */
  _acp_session_apply (run->session, update, NULL);
}

static gboolean
request_cb (AcpAgent           *agent,
            const char         *session_id,
            AcpIncomingRequest *request,
            Run                *run)
{
  FUZZ_CHECK (fuzz_is_text (session_id));
  FUZZ_CHECK (fuzz_is_text (acp_incoming_request_get_method (request)));
  fuzz_check_json_text (acp_incoming_request_get_params (request));

  /* answer some, leave the others to the connection's -32601 */
  if (!g_str_has_prefix (acp_incoming_request_get_method (request), "fs/"))
    return FALSE;
  acp_incoming_request_reply (request, NULL);
  return TRUE;
}

static void
protocol_error_cb (AcpAgent     *agent,
                   const GError *error,
                   Run          *run)
{
  FUZZ_CHECK (fuzz_is_text (error->message));
}

static void
exited_cb (AcpAgent *agent,
           Run      *run)
{
  run->exited = TRUE;
}

static void
started_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;

  if (!acp_agent_start_finish (ACP_AGENT (object), result, &error))
    FUZZ_CHECK (fuzz_is_text (error->message));
  run->started = TRUE;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(AcpAgent) agent = NULL;
  Run run = { NULL, FALSE, FALSE };

  input = g_memory_input_stream_new_from_data (g_memdup2 (data, size), size, g_free);
  output = g_memory_output_stream_new_resizable ();
  stream = g_simple_io_stream_new (input, output);
  agent = acp_agent_new_for_stream (stream);
  run.session = acp_session_new (agent, "/");

  g_signal_connect (agent, "update", G_CALLBACK (update_cb), &run);
  g_signal_connect (agent, "request", G_CALLBACK (request_cb), &run);
  g_signal_connect (agent, "protocol-error", G_CALLBACK (protocol_error_cb), &run);
  g_signal_connect (agent, "exited", G_CALLBACK (exited_cb), &run);

  acp_agent_start_async (agent, NULL, started_cb, &run);
  while (!run.started || !run.exited)
    g_main_context_iteration (NULL, TRUE);

  if (acp_agent_get_exit_error (agent) != NULL)
    FUZZ_CHECK (fuzz_is_text (acp_agent_get_exit_error (agent)->message));
  FUZZ_CHECK (fuzz_is_text (acp_agent_get_agent_name (agent)));
  FUZZ_CHECK (fuzz_is_text (acp_agent_get_agent_title (agent)));
  FUZZ_CHECK (fuzz_is_text (acp_agent_get_agent_version (agent)));
  check_auth_methods (agent);

  acp_transcript_flush (acp_session_get_transcript (run.session));
  fuzz_read_properties (G_OBJECT (run.session));

  g_signal_handlers_disconnect_by_data (agent, &run);
  g_clear_object (&run.session);
  g_clear_object (&agent);
  fuzz_drain_main_context ();

  return 0;
}
