/* palaver-demo-agent.c: an ACP agent with canned answers, for trying Palaver
 *
 * It speaks ACP version 1 over stdin and stdout, needs no account and no
 * network, and exercises every feature of a client: streamed thoughts and
 * Markdown, plans, tool calls with text, diffs and a permission request,
 * modes, a model option, commands, titles, usage, and a session history that
 * survives a restart (session/load replays it).
 *
 * Environment:
 *   PALAVER_DEMO_AGENT_DATA_DIR  where the history lives (default:
 *                                $XDG_DATA_HOME/palaver/demo-agent)
 *   PALAVER_DEMO_AGENT_SPEED     pacing factor: 1 is normal, 2 twice as fast,
 *                                0 no pauses at all (tests)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>

#include "acp-connection.h"
#include "demo-agent.h"
#include "demo-store.h"

static char *
default_data_dir (void)
{
  const char *env = g_getenv ("PALAVER_DEMO_AGENT_DATA_DIR");

  if (env != NULL && env[0] != '\0')
    return g_canonicalize_filename (env, NULL);

  return g_build_filename (g_get_user_data_dir (), "palaver", "demo-agent", NULL);
}

static double
speed_from_env (void)
{
  const char *env = g_getenv ("PALAVER_DEMO_AGENT_SPEED");
  char *end = NULL;
  double speed;

  if (env == NULL || env[0] == '\0')
    return 1.0;

  speed = g_ascii_strtod (env, &end);
  if (end == env || *end != '\0' || !(speed >= 0.0) || speed > 1000.0)
    {
      g_debug ("Ignoring PALAVER_DEMO_AGENT_SPEED=%s: not a number from 0 to 1000", env);
      return 1.0;
    }

  return speed;
}

static void
agent_finished_cb (DemoAgent *agent,
                   gpointer   user_data)
{
  g_main_loop_quit (user_data);
}

static gboolean
terminate_cb (gpointer user_data)
{
  demo_agent_shut_down (user_data);

  return G_SOURCE_CONTINUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) options = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(AcpConnection) connection = NULL;
  g_autoptr(DemoStore) store = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autofree char *data_dir = NULL;
  DemoAgent *agent;
  gboolean version = FALSE;
  GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  /* stdout carries the protocol: every log line goes to stderr. */
  g_log_writer_default_set_use_stderr (TRUE);
  /* A client that goes away must not kill us before the history is saved. */
  signal (SIGPIPE, SIG_IGN);

  options = g_option_context_new (NULL);
  g_option_context_set_summary (options,
                                "An ACP agent with canned answers, for trying Palaver without an "
                                "account. It speaks the Agent Client Protocol on stdin and stdout.");
  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (version)
    {
      g_print ("palaver-demo-agent %s\n", PACKAGE_VERSION);
      return 0;
    }

  data_dir = default_data_dir ();
  store = demo_store_new (data_dir);

  input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  output = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  stream = g_simple_io_stream_new (input, output);
  connection = acp_connection_new (stream);

  loop = g_main_loop_new (NULL, FALSE);
  agent = demo_agent_new (connection, store, speed_from_env ());
  g_signal_connect (agent, "finished", G_CALLBACK (agent_finished_cb), loop);
  g_unix_signal_add (SIGTERM, terminate_cb, agent);
  g_unix_signal_add (SIGINT, terminate_cb, agent);
  g_unix_signal_add (SIGHUP, terminate_cb, agent);

  acp_connection_start (connection);
  g_main_loop_run (loop);

  demo_store_shutdown (store);
  g_object_unref (agent);

  return 0;
}
