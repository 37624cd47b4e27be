/* pal-mcp-probe-stdio.c: the MCP connection test over a child process
 *
 * The server runs in a process group of its own; an AcpConnection speaks
 * newline-delimited JSON-RPC on its stdin and stdout, and its stderr is
 * kept (the last few KiB) to explain failures.
 *
 * Where the connection differs from what MCP over stdio could use, and why
 * that is fine here: it answers a batch with -32600 (MCP 2025-06-18, the
 * version the probe asks for, has no batches); it answers JSON that is not
 * JSON-RPC with -32600 too, without telling, so only lines that are not
 * JSON count towards giving up on a server that logs to its standard
 * output; and it skips an error answer to no request (id null: the server
 * could not read a message) like any answer to nothing, where the limit
 * then ends the test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "acp-connection.h"
#include "acp-json-reader.h"
#include "acp-process-group.h"
#include "pal-error.h"
#include "pal-mcp-probe-private.h"

#define STDERR_TAIL_SIZE 4096
#define MAX_LINE_SIZE (16 * 1024 * 1024)
/* As deep as the connection reads JSON. */
#define MAX_JSON_DEPTH 512
/* Some servers log to stdout; past this many lines that are not JSON, the
 * server is not speaking MCP. */
#define MAX_GARBAGE_LINES 100
/* After stdout ends: how long to wait for the exit status and the last
 * error output before reporting. */
#define EXIT_GRACE_MS 2000
/* After SIGTERM: how long the server and what it started get before SIGKILL. */
#define KILL_GRACE_MS 2000

/* ------------------------------------------------------------------------ */
/* The first line of stdout that is not JSON                                 */

/* The connection reports that a line is not JSON in words of its own, not
 * the line. To quote the first one when giving up, this filter looks at the
 * lines as the connection's reading thread reads them, until it found one
 * (or one was too long, which ends the test anyway). */

#define PAL_TYPE_STDOUT_WATCH (pal_stdout_watch_get_type ())

G_DECLARE_FINAL_TYPE (PalStdoutWatch, pal_stdout_watch, PAL, STDOUT_WATCH, GFilterInputStream)

struct _PalStdoutWatch
{
  GFilterInputStream  parent_instance;

  GByteArray         *line;   /* the reading thread's; NULL once done */
  char               *first;  /* atomic; set once */
};

G_DEFINE_FINAL_TYPE (PalStdoutWatch, pal_stdout_watch, G_TYPE_FILTER_INPUT_STREAM)

static void
pal_stdout_watch_check_line (PalStdoutWatch *self)
{
  const char *data = (const char *) self->line->data;
  gsize length = self->line->len;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;

  if (length > 0 && data[length - 1] == '\r')
    length--;

  if (length == 0 || (root = acp_json_read (data, length, MAX_JSON_DEPTH, &error)) != NULL ||
      error == NULL)
    {
      g_byte_array_set_size (self->line, 0);
      return;
    }

  g_atomic_pointer_set (&self->first, _pal_mcp_probe_excerpt (data, length, 80));
  g_clear_pointer (&self->line, g_byte_array_unref);
}

static gssize
pal_stdout_watch_read (GInputStream  *stream,
                       void          *buffer,
                       gsize          count,
                       GCancellable  *cancellable,
                       GError       **error)
{
  PalStdoutWatch *self = PAL_STDOUT_WATCH (stream);
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));
  gssize n = g_input_stream_read (base, buffer, count, cancellable, error);
  const char *data = buffer;

  for (gssize start = 0; start < n && self->line != NULL;)
    {
      const char *newline = memchr (data + start, '\n', n - start);
      gsize piece = newline != NULL ? (gsize) (newline - (data + start)) : (gsize) (n - start);

      g_byte_array_append (self->line, (const guint8 *) data + start, piece);
      if (self->line->len > MAX_LINE_SIZE)
        g_clear_pointer (&self->line, g_byte_array_unref);
      else if (newline != NULL)
        pal_stdout_watch_check_line (self);
      start += piece + 1;
    }

  /* A last line without a newline counts too. */
  if (n == 0 && self->line != NULL)
    pal_stdout_watch_check_line (self);

  return n;
}

static void
pal_stdout_watch_finalize (GObject *object)
{
  PalStdoutWatch *self = PAL_STDOUT_WATCH (object);

  g_clear_pointer (&self->line, g_byte_array_unref);
  g_free (self->first);

  G_OBJECT_CLASS (pal_stdout_watch_parent_class)->finalize (object);
}

static void
pal_stdout_watch_class_init (PalStdoutWatchClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pal_stdout_watch_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = pal_stdout_watch_read;
}

static void
pal_stdout_watch_init (PalStdoutWatch *self)
{
  self->line = g_byte_array_new ();
}

/* The first line that is not JSON, as an excerpt, or "". */
static const char *
pal_stdout_watch_get_first (PalStdoutWatch *self)
{
  const char *first = g_atomic_pointer_get (&self->first);

  return first != NULL ? first : "";
}

/* ------------------------------------------------------------------------ */
/* The transport                                                             */

#define PAL_TYPE_MCP_STDIO_TRANSPORT (pal_mcp_stdio_transport_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpStdioTransport, pal_mcp_stdio_transport,
                      PAL, MCP_STDIO_TRANSPORT, GObject)

struct _PalMcpStdioTransport
{
  GObject         parent_instance;

  GSubprocess    *process;
  GPid            pid;
  AcpConnection  *connection;
  PalStdoutWatch *watch;
  GCancellable   *cancellable;       /* the reads of stderr, the wait */
  GByteArray     *stderr_tail;
  gboolean        stderr_truncated;
  guint           n_garbage;
  GError         *closed_reason;     /* why the connection closed, if not at the end */
  gboolean        stdout_ended;
  gboolean        stderr_ended;
  gboolean        exited;
  GSource        *exit_grace_source;
  gboolean        failed;
  gboolean        closed;
};

static void pal_mcp_stdio_transport_iface_init (PalMcpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PalMcpStdioTransport, pal_mcp_stdio_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PAL_TYPE_MCP_TRANSPORT,
                                                      pal_mcp_stdio_transport_iface_init))

static gboolean
is_over (PalMcpStdioTransport *self)
{
  return self->failed || self->closed;
}

/* @error: (transfer full) */
static void
fail (PalMcpStdioTransport *self,
      GError               *error)
{
  g_autoptr(GError) owned = error;

  if (is_over (self))
    return;

  self->failed = TRUE;
  pal_mcp_transport_emit_failed (PAL_MCP_TRANSPORT (self), error);
}

static void
clear_exit_grace (PalMcpStdioTransport *self)
{
  if (self->exit_grace_source != NULL)
    g_source_destroy (self->exit_grace_source);
  g_clear_pointer (&self->exit_grace_source, g_source_unref);
}

/* How the process ended */

static void
report_exit (PalMcpStdioTransport *self)
{
  GError *error;

  if (!self->exited && self->closed_reason != NULL)
    error = g_error_new (PAL_ERROR, PAL_ERROR_FAILED, _("Could not talk to the server: %s"),
                         self->closed_reason->message);
  else if (!self->exited)
    error = g_error_new_literal (PAL_ERROR, PAL_ERROR_FAILED,
                                 _("The server closed its standard output before it answered"));
  else if (g_subprocess_get_if_signaled (self->process))
    {
      int signum = g_subprocess_get_term_sig (self->process);

      error = g_error_new (PAL_ERROR, PAL_ERROR_FAILED,
                           _("The server was stopped by signal %d (%s) before it answered"),
                           signum, g_strsignal (signum));
    }
  else
    error = g_error_new (PAL_ERROR, PAL_ERROR_FAILED,
                         _("The server exited with status %d before it answered"),
                         g_subprocess_get_exit_status (self->process));

  fail (self, error);
}

static void
maybe_report_exit (PalMcpStdioTransport *self)
{
  if (self->stdout_ended && self->exited && self->stderr_ended)
    report_exit (self);
}

static gboolean
exit_grace_cb (gpointer user_data)
{
  PalMcpStdioTransport *self = user_data;

  g_clear_pointer (&self->exit_grace_source, g_source_unref);
  report_exit (self);

  return G_SOURCE_REMOVE;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PalMcpStdioTransport) self = user_data;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL) || is_over (self))
    return;

  self->exited = TRUE;
  maybe_report_exit (self);
}

/* The error output */

static void read_stderr (PalMcpStdioTransport *self);

static void
stderr_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PalMcpStdioTransport) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *data;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (is_over (self))
    return;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      if (error != NULL)
        g_debug ("Could not read the MCP server's error output: %s", error->message);
      self->stderr_ended = TRUE;
      maybe_report_exit (self);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size >= STDERR_TAIL_SIZE)
    {
      g_byte_array_set_size (self->stderr_tail, 0);
      g_byte_array_append (self->stderr_tail, data + size - STDERR_TAIL_SIZE, STDERR_TAIL_SIZE);
      self->stderr_truncated = TRUE;
    }
  else
    {
      g_byte_array_append (self->stderr_tail, data, size);
      if (self->stderr_tail->len > STDERR_TAIL_SIZE)
        {
          g_byte_array_remove_range (self->stderr_tail, 0,
                                     self->stderr_tail->len - STDERR_TAIL_SIZE);
          self->stderr_truncated = TRUE;
        }
    }

  read_stderr (self);
}

static void
read_stderr (PalMcpStdioTransport *self)
{
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (self->process), 8192,
                                   G_PRIORITY_DEFAULT, self->cancellable,
                                   stderr_read_cb, g_object_ref (self));
}

static char *
dup_stderr_tail (PalMcpStdioTransport *self)
{
  g_autofree char *text = NULL;
  const char *start;

  if (self->stderr_tail->len == 0)
    return NULL;

  text = g_utf8_make_valid ((const char *) self->stderr_tail->data, self->stderr_tail->len);
  start = text;

  /* A cut tail starts at the next whole line when there is one. */
  if (self->stderr_truncated)
    {
      const char *newline = strchr (text, '\n');

      if (newline != NULL && newline[1] != '\0')
        start = newline + 1;
    }

  g_strstrip ((char *) start);
  if (*start == '\0')
    return NULL;

  return g_strdup (start);
}

/* The connection */

static gboolean
connection_ping_cb (AcpConnection      *connection,
                    AcpIncomingRequest *request,
                    gpointer            user_data)
{
  g_autoptr(JsonNode) empty = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (empty, json_object_new ());
  acp_incoming_request_reply (request, empty);

  return TRUE;
}

static void
connection_message_error_cb (AcpConnection *connection,
                             const GError  *error,
                             gpointer       user_data)
{
  PalMcpStdioTransport *self = user_data;

  if (g_error_matches (error, ACP_ERROR, ACP_ERROR_LINE_TOO_LONG))
    {
      fail (self, g_error_new (PAL_ERROR, PAL_ERROR_PROTOCOL,
                               _("The server wrote a line longer than %u MiB"),
                               MAX_LINE_SIZE / (1024 * 1024)));
    }
  else if (g_error_matches (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR) &&
           ++self->n_garbage > MAX_GARBAGE_LINES)
    {
      const char *first = pal_stdout_watch_get_first (self->watch);

      fail (self, g_error_new (PAL_ERROR, PAL_ERROR_PROTOCOL,
                               _("The server wrote more than %u lines that are not MCP "
                                 "messages to its standard output, the first one: “%s”"),
                               MAX_GARBAGE_LINES, first));
    }
  else
    {
      /* A log line, or an answer to nothing: skipped. */
      g_debug ("The MCP server wrote something that is not for us: %s", error->message);
    }
}

/* The end of stdout (or a broken pipe): the exit status and the last error
 * output tell how the server ended. */
static void
connection_closed_cb (AcpConnection *connection,
                      const GError  *reason,
                      gpointer       user_data)
{
  PalMcpStdioTransport *self = user_data;

  if (is_over (self))
    return;

  self->stdout_ended = TRUE;
  if (reason != NULL)
    self->closed_reason = g_error_copy (reason);

  g_subprocess_wait_async (self->process, self->cancellable, wait_cb, g_object_ref (self));

  self->exit_grace_source = g_timeout_source_new (EXIT_GRACE_MS);
  g_source_set_static_name (self->exit_grace_source, "[palaver] mcp probe exit grace");
  g_source_set_callback (self->exit_grace_source, exit_grace_cb, self, NULL);
  g_source_attach (self->exit_grace_source, g_main_context_get_thread_default ());
}

/* PalMcpTransport */

static void
connection_call_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  JsonNode *node = acp_connection_call_finish (ACP_CONNECTION (object), result, &error);

  if (node == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
}

static void
pal_mcp_stdio_transport_send_async (PalMcpTransport     *transport,
                                    const char          *method,
                                    JsonNode            *params,
                                    gboolean             notification,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  PalMcpStdioTransport *self = PAL_MCP_STDIO_TRANSPORT (transport);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;

  g_task_set_source_tag (task, pal_mcp_stdio_transport_send_async);

  if (!notification)
    acp_connection_call_async (self->connection, method, params, cancellable,
                               connection_call_cb, task);
  /* The pipe keeps the order: what comes next may go right away. */
  else if (acp_connection_notify (self->connection, method, params, &error))
    {
      g_task_return_pointer (task, NULL, NULL);
      g_object_unref (task);
    }
  else
    {
      g_task_return_error (task, error);
      g_object_unref (task);
    }
}

static char *
pal_mcp_stdio_transport_explain (PalMcpTransport *transport,
                                 const char      *message)
{
  PalMcpStdioTransport *self = PAL_MCP_STDIO_TRANSPORT (transport);
  g_autofree char *tail = dup_stderr_tail (self);

  if (tail == NULL)
    return NULL;

  return g_strdup_printf ("%s\n%s\n%s%s", message, _("The server’s error output ends with:"),
                          self->stderr_truncated ? "…\n" : "", tail);
}

static void
pal_mcp_stdio_transport_close (PalMcpTransport *transport)
{
  PalMcpStdioTransport *self = PAL_MCP_STDIO_TRANSPORT (transport);

  if (self->closed)
    return;

  self->closed = TRUE;
  clear_exit_grace (self);
  g_cancellable_cancel (self->cancellable);
  /* Closes the server's stdin (once nothing is being written) and fails the
   * calls still pending. */
  acp_connection_close (self->connection, NULL);
  /* SIGTERM to the server's process group, so helpers it started (npx
   * starting node, a shell script starting python) go too, and SIGKILL to
   * what is left after a grace period. */
  acp_process_group_end_async (self->pid, KILL_GRACE_MS, NULL, NULL, NULL);
}

static void
pal_mcp_stdio_transport_iface_init (PalMcpTransportInterface *iface)
{
  iface->send_async = pal_mcp_stdio_transport_send_async;
  iface->explain = pal_mcp_stdio_transport_explain;
  iface->close = pal_mcp_stdio_transport_close;
}

static void
pal_mcp_stdio_transport_dispose (GObject *object)
{
  PalMcpStdioTransport *self = PAL_MCP_STDIO_TRANSPORT (object);

  if (self->connection != NULL)
    {
      pal_mcp_stdio_transport_close (PAL_MCP_TRANSPORT (self));
      g_signal_handlers_disconnect_by_data (self->connection, self);
      g_clear_object (&self->connection);
    }

  G_OBJECT_CLASS (pal_mcp_stdio_transport_parent_class)->dispose (object);
}

static void
pal_mcp_stdio_transport_finalize (GObject *object)
{
  PalMcpStdioTransport *self = PAL_MCP_STDIO_TRANSPORT (object);

  clear_exit_grace (self);
  g_clear_object (&self->watch);
  g_clear_object (&self->process);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->stderr_tail, g_byte_array_unref);
  g_clear_error (&self->closed_reason);

  G_OBJECT_CLASS (pal_mcp_stdio_transport_parent_class)->finalize (object);
}

static void
pal_mcp_stdio_transport_class_init (PalMcpStdioTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /* Writing to a server that died must be an EPIPE error for the
   * connection, not the end of this process. */
  signal (SIGPIPE, SIG_IGN);

  object_class->dispose = pal_mcp_stdio_transport_dispose;
  object_class->finalize = pal_mcp_stdio_transport_finalize;
}

static void
pal_mcp_stdio_transport_init (PalMcpStdioTransport *self)
{
  self->cancellable = g_cancellable_new ();
  self->stderr_tail = g_byte_array_new ();
}

/* ------------------------------------------------------------------------ */
/* Starting                                                                  */

static GError *
describe_spawn_error (const char   *command,
                      const GError *error)
{
  g_autofree char *shown = _pal_mcp_probe_excerpt (command, -1, 200);

  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT))
    {
      if (strchr (command, '/') != NULL)
        return g_error_new (PAL_ERROR, PAL_ERROR_NOT_FOUND,
                            _("The command “%s” does not exist"), shown);
      return g_error_new (PAL_ERROR, PAL_ERROR_NOT_FOUND,
                          _("The command “%s” was not found in the search path (PATH)"), shown);
    }

  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_ACCES) ||
      g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_PERM))
    return g_error_new (PAL_ERROR, PAL_ERROR_FAILED,
                        _("The command “%s” cannot be run: permission denied"), shown);

  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOEXEC))
    return g_error_new (PAL_ERROR, PAL_ERROR_FAILED,
                        _("The command “%s” is not a program that can be run"), shown);

  return g_error_new (PAL_ERROR, PAL_ERROR_FAILED,
                      _("The command “%s” could not be started: %s"), shown, error->message);
}

static gboolean
check_env (const char * const  *env,
           GError             **error)
{
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *equals = strchr (env[i], '=');

      if (equals == NULL || equals == env[i])
        {
          g_autofree char *shown = _pal_mcp_probe_excerpt (env[i], -1, 60);

          g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                       _("The environment entry “%s” is not of the form NAME=VALUE"), shown);
          return FALSE;
        }
    }

  return TRUE;
}

/* Starts the server and talks to it. */
static PalMcpStdioTransport *
pal_mcp_stdio_transport_new (const char * const  *argv,
                             const char * const  *env,
                             GError             **error)
{
  g_autoptr(PalMcpStdioTransport) self = g_object_new (PAL_TYPE_MCP_STDIO_TRANSPORT, NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  AcpGroupSetup group_setup;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *equals = strchr (env[i], '=');
      g_autofree char *name = g_strndup (env[i], equals - env[i]);

      g_subprocess_launcher_setenv (launcher, name, equals + 1, TRUE);
    }
  if (!acp_group_setup_init (&group_setup, &local_error))
    {
      g_propagate_error (error, describe_spawn_error (argv[0], local_error));
      return NULL;
    }
  g_subprocess_launcher_set_child_setup (launcher, acp_group_setup_run, &group_setup, NULL);

  self->process = g_subprocess_launcher_spawnv (launcher, argv, &local_error);
  self->pid = acp_group_setup_finish (&group_setup);
  if (self->process == NULL)
    {
      g_propagate_error (error, describe_spawn_error (argv[0], local_error));
      return NULL;
    }

  g_debug ("MCP probe started %s as process %d", argv[0], (int) self->pid);

  self->watch = g_object_new (PAL_TYPE_STDOUT_WATCH,
                              "base-stream", g_subprocess_get_stdout_pipe (self->process),
                              NULL);
  stream = g_simple_io_stream_new (G_INPUT_STREAM (self->watch),
                                   g_subprocess_get_stdin_pipe (self->process));
  self->connection = acp_connection_new (stream);
  acp_connection_set_max_line_length (self->connection, MAX_LINE_SIZE);
  g_signal_connect (self->connection, "request::ping",
                    G_CALLBACK (connection_ping_cb), self);
  g_signal_connect (self->connection, "message-error",
                    G_CALLBACK (connection_message_error_cb), self);
  g_signal_connect (self->connection, "closed",
                    G_CALLBACK (connection_closed_cb), self);
  acp_connection_start (self->connection);
  read_stderr (self);

  return g_steal_pointer (&self);
}

/**
 * pal_mcp_probe_stdio_async:
 * @argv: the command and its arguments
 * @env: (nullable): environment additions, each "NAME=VALUE"
 * @timeout_ms: the limit for the whole exchange, 0 for the default
 * @cancellable: (nullable): a cancellable
 * @callback: called when the test is over
 * @user_data: data for @callback
 *
 * Starts the server and runs initialize and tools/list over its stdio. The
 * server is stopped afterwards (SIGTERM to its process group, SIGKILL if it
 * is still there two seconds later), also on failure, timeout and
 * cancellation. Finish with pal_mcp_probe_finish().
 */
void
pal_mcp_probe_stdio_async (const char * const  *argv,
                           const char * const  *env,
                           guint                timeout_ms,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(PalMcpStdioTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  PalMcpProbe *probe;

  g_return_if_fail (argv != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = _pal_mcp_probe_new_task (pal_mcp_probe_stdio_async, timeout_ms,
                                  cancellable, callback, user_data);
  probe = _pal_mcp_probe_from_task (task);

  if (argv[0] == NULL || *argv[0] == '\0')
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_INVALID,
                                  _("No command to start the server"));
      return;
    }

  if (!check_env (env, &error))
    {
      _pal_mcp_probe_fail (probe, g_steal_pointer (&error));
      return;
    }

  if (g_cancellable_is_cancelled (cancellable))
    return;  /* the cancelled source completes the task */

  transport = pal_mcp_stdio_transport_new (argv, env, &error);
  if (transport == NULL)
    {
      _pal_mcp_probe_fail (probe, g_steal_pointer (&error));
      return;
    }

  _pal_mcp_probe_run (probe, PAL_MCP_TRANSPORT (transport));
}
