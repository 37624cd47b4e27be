/* test-mcp-everything.c: the MCP connection test against the reference
 * server @modelcontextprotocol/server-everything, over its three transports
 *
 * Skipped when node or the package (installed into $PALAVER_NODE_MODULES by
 * build-aux/setup.sh test) is missing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <sys/prctl.h>

#include "pal-error.h"
#include "pal-mcp-probe.h"
#include "test-util.h"

#define PROBE_TIMEOUT_MS 30000

typedef struct
{
  char *node;
  char *index_js;
} Peer;

static gboolean
find_peer (Peer *peer)
{
  const char *modules = g_getenv ("PALAVER_NODE_MODULES");

  peer->node = g_find_program_in_path ("node");
  if (peer->node == NULL)
    {
      g_test_skip ("node is not installed");
      return FALSE;
    }

  if (modules == NULL)
    {
      g_test_skip ("PALAVER_NODE_MODULES is not set");
      return FALSE;
    }

  peer->index_js = g_build_filename (modules, "@modelcontextprotocol", "server-everything",
                                     "dist", "index.js", NULL);
  if (!g_file_test (peer->index_js, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("@modelcontextprotocol/server-everything is not installed "
                   "(build-aux/setup.sh test installs it)");
      return FALSE;
    }

  return TRUE;
}

static void
peer_clear (Peer *peer)
{
  g_free (peer->node);
  g_free (peer->index_js);
}

static PalMcpProbeResult *
wait_result (GAsyncResult **slot,
             GError       **error)
{
  g_autoptr(GAsyncResult) result = WAIT_RESULT (slot);

  return pal_mcp_probe_finish (result, error);
}

static void
assert_everything (PalMcpProbeResult *result)
{
  const char * const *names;

  g_assert_nonnull (result);
  g_assert_nonnull (pal_mcp_probe_result_get_server_name (result));
  g_assert_cmpstr (pal_mcp_probe_result_get_server_name (result), !=, "");
  g_assert_nonnull (pal_mcp_probe_result_get_protocol_version (result));
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), >, 1);

  names = pal_mcp_probe_result_get_tool_names (result);
  g_assert_true (g_strv_contains (names, "echo"));
  g_assert_cmpuint (g_strv_length ((char **) pal_mcp_probe_result_get_tool_descriptions (result)),
                    ==, pal_mcp_probe_result_get_n_tools (result));
}

/* ------------------------------------------------------------------------ */
/* A server on a port of its own                                              */

static void
die_with_parent (gpointer user_data)
{
  /* If this test aborts on a failed assertion, the server goes too. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static guint
find_free_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  guint port;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any_port, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  return port;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

/* Whether something listens on @port of the loopback address */
static gboolean
port_listens (guint port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;

  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);

  return connection != NULL;
}

/* Starts `PORT=N node index.js MODE` and waits until the port takes
 * connections or the server exited (it says nothing when it listens: this
 * polls). */
static GSubprocess *
start_server (Peer       *peer,
              const char *mode,
              guint      *out_port,
              gboolean   *exited)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *port_text = NULL;
  GSubprocess *process;
  guint port = find_free_port ();

  port_text = g_strdup_printf ("%u", port);
  /* It logs to stdout, which would break the test's own output. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "PORT", port_text, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, peer->node, peer->index_js, mode, NULL);
  g_assert_no_error (error);

  *exited = FALSE;
  g_subprocess_wait_async (process, NULL, wait_cb, exited);

  POLL_UNTIL (*exited || port_listens (port));
  if (*exited)
    g_error ("server-everything %s exited before listening on port %u", mode, port);

  *out_port = port;

  return process;
}

static void
stop_server (GSubprocess *process,
             gboolean    *exited)
{
  g_subprocess_force_exit (process);
  WAIT_UNTIL (*exited);
  g_object_unref (process);
}

/* ------------------------------------------------------------------------ */
/* The tests                                                                 */

static void
test_stdio (void)
{
  Peer peer = { 0 };
  GAsyncResult *async_result = NULL;
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (find_peer (&peer))
    {
      const char *argv[] = { peer.node, peer.index_js, "stdio", NULL };

      pal_mcp_probe_stdio_async (argv, NULL, PROBE_TIMEOUT_MS, NULL, test_store_result_cb, &async_result);
      result = wait_result (&async_result, &error);
      g_assert_no_error (error);
      assert_everything (result);
    }

  peer_clear (&peer);
}

static void
probe_over_http (const char *mode,
                 const char *path)
{
  Peer peer = { 0 };
  g_autoptr(SoupSession) session = soup_session_new ();
  GAsyncResult *async_result = NULL;
  g_autoptr(PalMcpProbeResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  GSubprocess *process;
  gboolean exited = FALSE;
  guint port;

  if (!find_peer (&peer))
    {
      peer_clear (&peer);
      return;
    }

  process = start_server (&peer, mode, &port, &exited);
  url = g_strdup_printf ("http://127.0.0.1:%u%s", port, path);

  if (g_str_equal (mode, "sse"))
    pal_mcp_probe_sse_async (session, url, NULL, NULL, PROBE_TIMEOUT_MS, NULL,
                             test_store_result_cb, &async_result);
  else
    pal_mcp_probe_http_async (session, url, NULL, NULL, PROBE_TIMEOUT_MS, NULL,
                              test_store_result_cb, &async_result);
  result = wait_result (&async_result, &error);

  /* Stop the server before asserting anything (an assertion aborts; the
   * server would then die with us anyway). */
  g_assert_false (exited);
  stop_server (process, &exited);

  g_assert_no_error (error);
  assert_everything (result);

  peer_clear (&peer);
}

static void
test_streamable_http (void)
{
  probe_over_http ("streamableHttp", "/mcp");
}

static void
test_sse (void)
{
  probe_over_http ("sse", "/sse");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp-everything/stdio", test_stdio);
  g_test_add_func ("/mcp-everything/streamable-http", test_streamable_http);
  g_test_add_func ("/mcp-everything/sse", test_sse);

  return g_test_run ();
}
