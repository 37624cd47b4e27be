/* test-util.c: what the tests share: waiting on events, and fixtures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include <sys/socket.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "acp-message-item.h"
#include "acp-notice-item.h"
#include "acp-tool-call-item.h"
#include "test-util.h"

/* waiting {{{ */

static guint guard_seconds = TEST_GUARD_SECONDS;

void
test_set_guard_seconds (guint seconds)
{
  g_assert_cmpuint (seconds, >, 0);
  guard_seconds = seconds;
}

static gboolean
guard_expired_cb (gpointer data)
{
  TestWait *wait = data;

  wait->expired = TRUE;
  wait->guard_id = 0;

  return G_SOURCE_REMOVE;
}

static gboolean
look_again_cb (gpointer data)
{
  /* waking the main context is all it is for */
  return G_SOURCE_CONTINUE;
}

void
test_wait_begin (TestWait *wait,
                 guint     poll_ms)
{
  wait->expired = FALSE;
  wait->guard_id = g_timeout_add_seconds (guard_seconds, guard_expired_cb, wait);
  wait->poll_id = poll_ms > 0 ? g_timeout_add (poll_ms, look_again_cb, NULL) : 0;
}

/* Called while the condition does not hold: fails once the guard expired
 * (the condition was looked at after that), else waits for the next event. */
void
test_wait_iterate (TestWait   *wait,
                   const char *condition,
                   const char *file,
                   int         line,
                   const char *func)
{
  if (wait->expired)
    {
      g_autofree char *message =
        g_strdup_printf ("still waiting after %u s for: %s", guard_seconds, condition);

      g_assertion_message (G_LOG_DOMAIN, file, line, func, message);
    }

  g_main_context_iteration (NULL, TRUE);
}

void
test_wait_end (TestWait *wait)
{
  g_clear_handle_id (&wait->guard_id, g_source_remove);
  g_clear_handle_id (&wait->poll_id, g_source_remove);
}

void
test_store_result_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  g_assert_null (*slot);
  *slot = g_object_ref (result);
}

GAsyncResult *
test_wait_result (GAsyncResult **slot,
                  const char    *file,
                  int            line,
                  const char    *func)
{
  TestWait wait;

  test_wait_begin (&wait, 0);
  while (*slot == NULL)
    test_wait_iterate (&wait, "the result of an asynchronous call", file, line, func);
  test_wait_end (&wait);

  return g_steal_pointer (slot);
}

void
test_drain_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* }}} */

/* files {{{ */

static void
remove_tree_and_free (gpointer path)
{
  test_remove_tree (path);
  g_free (path);
}

char *
test_make_tmpdir (const char *prefix)
{
  g_autofree char *template = g_strconcat (prefix, "-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  char *path;

  path = g_dir_make_tmp (template, &error);
  g_assert_no_error (error);
  g_test_queue_destroy (remove_tree_and_free, g_strdup (path));

  return path;
}

void
test_remove_tree (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;

  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = NULL;
      const char *name;

      /* a test may have taken the rights away */
      g_chmod (path, 0755);
      dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          test_remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    {
      g_unlink (path);
    }
}

static char *isolated_dirs;

static void
remove_isolated_dirs (void)
{
  test_remove_tree (isolated_dirs);
  g_clear_pointer (&isolated_dirs, g_free);
}

void
test_isolate_user_dirs (void)
{
  static const char * const variables[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME" };

  g_autoptr(GError) error = NULL;

  g_assert_null (isolated_dirs);
  /* not test_make_tmpdir (): this outlives every test case */
  isolated_dirs = g_dir_make_tmp ("palaver-test-dirs-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    {
      g_autofree char *dir = g_build_filename (isolated_dirs, variables[i], NULL);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      g_setenv (variables[i], dir, TRUE);
    }
  atexit (remove_isolated_dirs);
}

/* }}} */

/* agents {{{ */

const char *
test_fake_agent_path (void)
{
  const char *path = g_getenv ("PALAVER_FAKE_AGENT");

  if (path == NULL)
    g_error ("PALAVER_FAKE_AGENT is not set: run the tests with meson test");

  return path;
}

AcpAgent *
test_fake_agent_new (const char         *scenario,
                     const char * const *extra_args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) test_fake_agent_path ());
  g_ptr_array_add (argv, (gpointer) scenario);
  for (guint i = 0; extra_args != NULL && extra_args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra_args[i]);
  g_ptr_array_add (argv, NULL);

  return acp_agent_new ((const char * const *) argv->pdata, NULL, NULL);
}

void
test_agent_start (AcpAgent *agent)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  acp_agent_start_async (agent, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_agent_start_finish (agent, result, &error));
  g_assert_no_error (error);
}

void
test_agent_stop (AcpAgent *agent)
{
  g_autoptr(GAsyncResult) result = NULL;

  acp_agent_stop_async (agent, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  acp_agent_stop_finish (agent, result, NULL);
}

static GSocketConnection *
connection_from_fd (int fd)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocket) socket = g_socket_new_from_fd (fd, &error);

  g_assert_no_error (error);

  return g_socket_connection_factory_create_connection (socket);
}

void
test_socket_pair (GSocketConnection **one,
                  GSocketConnection **other)
{
  int fds[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), ==, 0);
  *one = connection_from_fd (fds[0]);
  *other = connection_from_fd (fds[1]);
}

static gboolean
peer_initialize_cb (AcpConnection      *connection,
                    AcpIncomingRequest *request,
                    gpointer            user_data)
{
  g_autoptr(JsonNode) result =
    json_from_string ("{\"protocolVersion\": 1, \"agentCapabilities\": {}}", NULL);

  acp_incoming_request_reply (request, result);

  return TRUE;
}

AcpAgent *
test_agent_new_with_peer (AcpConnection **peer)
{
  g_autoptr(GSocketConnection) agent_end = NULL;
  g_autoptr(GSocketConnection) client_end = NULL;

  test_socket_pair (&agent_end, &client_end);
  *peer = acp_connection_new (G_IO_STREAM (agent_end));
  g_signal_connect (*peer, "request::initialize", G_CALLBACK (peer_initialize_cb), NULL);
  acp_connection_start (*peer);

  return acp_agent_new_for_stream (G_IO_STREAM (client_end));
}

void
test_peer_close (AcpConnection *peer,
                 AcpAgent      *agent)
{
  acp_connection_close (peer, NULL);
  if (agent != NULL)
    WAIT_UNTIL (acp_agent_get_state (agent) == ACP_AGENT_STATE_EXITED);
}

/* }}} */

char *
test_describe_items (GListModel *model)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (out->len > 0)
        g_string_append (out, " | ");
      if (ACP_IS_MESSAGE_ITEM (item))
        g_string_append_printf (out, "%s: %s",
                                acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) ==
                                ACP_MESSAGE_ROLE_USER ? "user" : "agent",
                                acp_message_item_get_text (ACP_MESSAGE_ITEM (item)));
      else if (ACP_IS_TOOL_CALL_ITEM (item))
        g_string_append_printf (out, "tool: %s (%s)",
                                acp_tool_call_item_get_title (ACP_TOOL_CALL_ITEM (item)),
                                acp_tool_call_item_get_status (ACP_TOOL_CALL_ITEM (item)));
      else if (ACP_IS_NOTICE_ITEM (item))
        g_string_append_printf (out, "notice: %s",
                                acp_notice_item_get_title (ACP_NOTICE_ITEM (item)));
      else
        g_string_append (out, G_OBJECT_TYPE_NAME (item));
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}
