/* pal-mcp-probe-stdio.c: the MCP connection test over a child process
 *
 * Newline-delimited JSON-RPC on the child's stdin and stdout; its stderr is
 * kept (the last few KiB) to explain failures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "acp-process-group.h"
#include "pal-error.h"
#include "pal-mcp-probe-private.h"

#define STDERR_TAIL_SIZE 4096
#define MAX_LINE_SIZE (16 * 1024 * 1024)
/* Some servers log to stdout; past this many lines that are not JSON-RPC,
 * the server is not speaking MCP. */
#define MAX_GARBAGE_LINES 100
/* After stdout ends: how long to wait for the exit status and the last
 * error output before reporting. */
#define EXIT_GRACE_MS 2000
/* After SIGTERM: how long a server gets before SIGKILL. */
#define KILL_GRACE_MS 2000

typedef struct
{
  PalMcpProbe   *probe;
  char          *command;
  GSubprocess   *process;
  GPid           pid;
  GOutputStream *stdin_pipe;
  GInputStream  *stdout_pipe;
  GInputStream  *stderr_pipe;
  GByteArray    *stdout_buffer;
  GByteArray    *stderr_tail;
  gboolean       stderr_truncated;
  GQueue         out_queue;       /* of GBytes, whole lines to write */
  gsize          out_offset;      /* into the head of out_queue */
  GSource       *out_source;
  guint          n_garbage;
  char          *first_garbage;
  gboolean       stdout_ended;
  gboolean       stderr_ended;
  gboolean       exited;
  GSource       *exit_grace_source;
} StdioTransport;

static void read_stdout (GTask *task);
static void read_stderr (GTask *task);
static void flush_output (StdioTransport *self);

static StdioTransport *
get_transport (GTask *task)
{
  return _pal_mcp_probe_get_transport (_pal_mcp_probe_from_task (task));
}

/* ------------------------------------------------------------------------ */
/* Stopping the process                                                      */

typedef struct
{
  GSubprocess *process;
  GPid         pid;
  GSource     *kill_source;
  gboolean     signalled;
} Reaper;

static void
reaper_free (Reaper *reaper)
{
  if (reaper->kill_source != NULL)
    {
      g_source_destroy (reaper->kill_source);
      g_source_unref (reaper->kill_source);
    }
  g_object_unref (reaper->process);
  g_free (reaper);
}

static void
signal_group (GPid pid,
              int  signum)
{
  /* The server leads its own process group, so helpers it started (npx
   * starting node, a shell script starting python) get the signal too. */
  acp_process_group_signal (pid, signum);
}

static gboolean
reaper_kill_cb (gpointer user_data)
{
  Reaper *reaper = user_data;

  g_debug ("MCP server %d ignored SIGTERM: killing it", (int) reaper->pid);
  signal_group (reaper->pid, SIGKILL);
  g_subprocess_force_exit (reaper->process);
  g_clear_pointer (&reaper->kill_source, g_source_unref);

  return G_SOURCE_REMOVE;
}

static void
reaper_wait_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Reaper *reaper = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  /* The leader is gone; whatever is left of the group we signalled goes too. */
  if (reaper->signalled)
    signal_group (reaper->pid, SIGKILL);
  reaper_free (reaper);
}

/* Ends the process without blocking: stdin closes, SIGTERM now, SIGKILL if it
 * is still there after a grace period. */
static void
stop_process (StdioTransport *self)
{
  Reaper *reaper;

  if (self->process == NULL)
    return;

  if (self->stdin_pipe != NULL)
    g_output_stream_close (self->stdin_pipe, NULL, NULL);

  reaper = g_new0 (Reaper, 1);
  reaper->process = g_object_ref (self->process);
  reaper->pid = self->pid;

  if (g_subprocess_get_identifier (self->process) != NULL)
    {
      reaper->signalled = TRUE;
      signal_group (self->pid, SIGTERM);
      g_subprocess_send_signal (self->process, SIGTERM);
      reaper->kill_source = g_timeout_source_new (KILL_GRACE_MS);
      g_source_set_static_name (reaper->kill_source, "[palaver] mcp probe kill");
      g_source_set_callback (reaper->kill_source, reaper_kill_cb, reaper, NULL);
      g_source_attach (reaper->kill_source, g_main_context_get_thread_default ());
    }

  g_subprocess_wait_async (self->process, NULL, reaper_wait_cb, reaper);
}

/* ------------------------------------------------------------------------ */
/* The transport class                                                       */

static void
stdio_transport_free (gpointer data)
{
  StdioTransport *self = data;

  if (self->out_source != NULL)
    {
      g_source_destroy (self->out_source);
      g_source_unref (self->out_source);
    }
  if (self->exit_grace_source != NULL)
    {
      g_source_destroy (self->exit_grace_source);
      g_source_unref (self->exit_grace_source);
    }
  g_queue_clear_full (&self->out_queue, (GDestroyNotify) g_bytes_unref);
  g_clear_object (&self->process);
  g_free (self->command);
  g_clear_pointer (&self->stdout_buffer, g_byte_array_unref);
  g_clear_pointer (&self->stderr_tail, g_byte_array_unref);
  g_free (self->first_garbage);
  g_free (self);
}

static void
stdio_transport_close (PalMcpProbe *probe)
{
  StdioTransport *self = _pal_mcp_probe_get_transport (probe);

  if (self->out_source != NULL)
    {
      g_source_destroy (self->out_source);
      g_clear_pointer (&self->out_source, g_source_unref);
    }
  if (self->exit_grace_source != NULL)
    {
      g_source_destroy (self->exit_grace_source);
      g_clear_pointer (&self->exit_grace_source, g_source_unref);
    }
  g_queue_clear_full (&self->out_queue, (GDestroyNotify) g_bytes_unref);

  stop_process (self);
}

static char *
dup_stderr_tail (StdioTransport *self)
{
  g_autofree char *text = NULL;
  const char *start;

  if (self->stderr_tail == NULL || self->stderr_tail->len == 0)
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

static char *
stdio_transport_explain (PalMcpProbe *probe,
                         const char  *message)
{
  StdioTransport *self = _pal_mcp_probe_get_transport (probe);
  g_autofree char *tail = dup_stderr_tail (self);

  if (tail == NULL)
    return NULL;

  return g_strdup_printf ("%s\n%s\n%s%s", message, _("The server’s error output ends with:"),
                          self->stderr_truncated ? "…\n" : "", tail);
}

static gssize
write_without_sigpipe (GPollableOutputStream  *stream,
                       const guint8           *data,
                       gsize                   length,
                       GError                **error)
{
  sigset_t sigpipe_set;
  sigset_t old_set;
  sigset_t pending;
  gboolean was_pending;
  gssize written;

  /* Writing to a pipe whose reader died raises SIGPIPE, which kills the
   * application unless it is ignored. Block it in this thread for the write
   * and swallow the one the write raised, so the write fails with EPIPE. */
  sigemptyset (&sigpipe_set);
  sigaddset (&sigpipe_set, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &sigpipe_set, &old_set);
  sigpending (&pending);
  was_pending = sigismember (&pending, SIGPIPE);

  written = g_pollable_output_stream_write_nonblocking (stream, data, length, NULL, error);

  if (written < 0 && !was_pending)
    {
      struct timespec zero = { 0, 0 };

      sigpending (&pending);
      if (sigismember (&pending, SIGPIPE))
        sigtimedwait (&sigpipe_set, NULL, &zero);
    }

  pthread_sigmask (SIG_SETMASK, &old_set, NULL);

  return written;
}

static gboolean
output_ready_cb (GObject  *stream,
                 gpointer  user_data)
{
  StdioTransport *self = user_data;

  g_clear_pointer (&self->out_source, g_source_unref);
  flush_output (self);

  return G_SOURCE_REMOVE;
}

static void
flush_output (StdioTransport *self)
{
  GPollableOutputStream *stream = G_POLLABLE_OUTPUT_STREAM (self->stdin_pipe);

  while (!g_queue_is_empty (&self->out_queue) && self->out_source == NULL)
    {
      GBytes *head = g_queue_peek_head (&self->out_queue);
      gsize size;
      const guint8 *data = g_bytes_get_data (head, &size);
      g_autoptr(GError) error = NULL;
      gssize written;

      /* At most PIPE_BUF bytes when the pipe is writable: never blocks. */
      written = write_without_sigpipe (stream, data + self->out_offset,
                                       MIN (size - self->out_offset, 4096), &error);

      if (written < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          self->out_source = g_pollable_output_stream_create_source (stream, NULL);
          g_source_set_static_name (self->out_source, "[palaver] mcp probe stdin");
          g_source_set_callback (self->out_source, (GSourceFunc) (GCallback) output_ready_cb,
                                 self, NULL);
          g_source_attach (self->out_source, g_main_context_get_thread_default ());
          return;
        }

      if (written < 0)
        {
          /* The server closed its input (or died): reading its output will
           * tell how it ended. */
          g_debug ("Could not write to the MCP server: %s", error->message);
          g_queue_clear_full (&self->out_queue, (GDestroyNotify) g_bytes_unref);
          self->out_offset = 0;
          return;
        }

      self->out_offset += written;
      if (self->out_offset == size)
        {
          g_bytes_unref (g_queue_pop_head (&self->out_queue));
          self->out_offset = 0;
        }
    }
}

static void
stdio_transport_send (PalMcpProbe       *probe,
                      const char        *message,
                      PalMcpMessageKind  kind,
                      gint64             id)
{
  StdioTransport *self = _pal_mcp_probe_get_transport (probe);
  gsize length = strlen (message);
  char *line = g_malloc (length + 1);

  memcpy (line, message, length);
  line[length] = '\n';
  g_queue_push_tail (&self->out_queue, g_bytes_new_take (line, length + 1));
  flush_output (self);

  /* The pipe keeps the order: the next message may go right away. */
  if (kind == PAL_MCP_MESSAGE_NOTIFICATION)
    _pal_mcp_probe_notification_sent (probe);
}

static const PalMcpTransportClass stdio_transport_class = {
  .send = stdio_transport_send,
  .close = stdio_transport_close,
  .explain = stdio_transport_explain,
  .free = stdio_transport_free,
};

/* ------------------------------------------------------------------------ */
/* How the process ended                                                     */

static void
report_exit (GTask *task)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  StdioTransport *self = get_transport (task);
  GError *error;

  if (_pal_mcp_probe_is_done (probe))
    return;

  if (!self->exited)
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

  _pal_mcp_probe_fail (probe, error);
}

static void
maybe_report_exit (GTask *task)
{
  StdioTransport *self = get_transport (task);

  if (self->stdout_ended && self->exited && self->stderr_ended)
    report_exit (task);
}

static gboolean
exit_grace_cb (gpointer user_data)
{
  GTask *task = user_data;
  StdioTransport *self = get_transport (task);

  g_clear_pointer (&self->exit_grace_source, g_source_unref);
  report_exit (task);

  return G_SOURCE_REMOVE;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error))
    {
      _pal_mcp_probe_fail_if_cancelled (probe, error);
      return;
    }

  get_transport (task)->exited = TRUE;
  maybe_report_exit (task);
}

static void
stdout_ended (GTask *task)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  StdioTransport *self = get_transport (task);

  self->stdout_ended = TRUE;

  g_subprocess_wait_async (self->process, _pal_mcp_probe_get_cancellable (probe),
                           wait_cb, g_object_ref (task));

  self->exit_grace_source = g_timeout_source_new (EXIT_GRACE_MS);
  g_source_set_static_name (self->exit_grace_source, "[palaver] mcp probe exit grace");
  g_task_attach_source (task, self->exit_grace_source, exit_grace_cb);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */

static void
handle_line (GTask      *task,
             const char *line,
             gsize       length)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  StdioTransport *self = get_transport (task);
  g_autoptr(GError) error = NULL;
  gsize i;

  if (length > 0 && line[length - 1] == '\r')
    length--;

  for (i = 0; i < length && g_ascii_isspace (line[i]); i++)
    ;
  if (i == length)
    return;

  if (_pal_mcp_probe_receive (probe, line, length, &error) == PAL_MCP_RECEIVE_OK)
    return;

  g_debug ("MCP server wrote a line that is not JSON-RPC: %s", error->message);

  if (self->first_garbage == NULL)
    self->first_garbage = _pal_mcp_probe_excerpt (line, length, 80);

  if (++self->n_garbage > MAX_GARBAGE_LINES)
    _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                _("The server wrote more than %u lines that are not MCP "
                                  "messages to its standard output, the first one: “%s”"),
                                MAX_GARBAGE_LINES, self->first_garbage);
}

static void
stdout_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  StdioTransport *self = get_transport (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize size;
  gsize start = 0;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (_pal_mcp_probe_is_done (probe))
    return;

  if (bytes == NULL)
    {
      if (!_pal_mcp_probe_fail_if_cancelled (probe, error))
        _pal_mcp_probe_fail_printf (probe, PAL_ERROR_FAILED,
                                    _("Could not read from the server: %s"),
                                    error->message);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size == 0)
    {
      stdout_ended (task);
      return;
    }

  /* Complete lines are handled straight from this chunk when nothing is
   * buffered; the rest waits in the buffer. */
  for (gsize i = 0; i < size && !_pal_mcp_probe_is_done (probe); i++)
    {
      if (data[i] != '\n')
        continue;

      if (self->stdout_buffer->len > 0)
        {
          g_byte_array_append (self->stdout_buffer, (const guint8 *) data + start, i - start);
          handle_line (task, (const char *) self->stdout_buffer->data, self->stdout_buffer->len);
          g_byte_array_set_size (self->stdout_buffer, 0);
        }
      else
        handle_line (task, data + start, i - start);

      start = i + 1;
    }

  if (_pal_mcp_probe_is_done (probe))
    return;

  if (self->stdout_buffer->len + (size - start) > MAX_LINE_SIZE)
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server wrote a line longer than %u MiB"),
                                  MAX_LINE_SIZE / (1024 * 1024));
      return;
    }

  g_byte_array_append (self->stdout_buffer, (const guint8 *) data + start, size - start);
  read_stdout (task);
}

static void
read_stdout (GTask *task)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);

  g_input_stream_read_bytes_async (get_transport (task)->stdout_pipe, 65536, G_PRIORITY_DEFAULT,
                                   _pal_mcp_probe_get_cancellable (probe),
                                   stdout_read_cb, g_object_ref (task));
}

static void
stderr_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  StdioTransport *self = get_transport (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *data;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (_pal_mcp_probe_is_done (probe))
    return;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      if (bytes == NULL && _pal_mcp_probe_fail_if_cancelled (probe, error))
        return;
      if (error != NULL)
        g_debug ("Could not read the MCP server's error output: %s", error->message);
      self->stderr_ended = TRUE;
      maybe_report_exit (task);
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

  read_stderr (task);
}

static void
read_stderr (GTask *task)
{
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);

  g_input_stream_read_bytes_async (get_transport (task)->stderr_pipe, 8192, G_PRIORITY_DEFAULT,
                                   _pal_mcp_probe_get_cancellable (probe),
                                   stderr_read_cb, g_object_ref (task));
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
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  PalMcpProbe *probe;
  StdioTransport *self;
  const char *identifier;

  g_return_if_fail (argv != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = _pal_mcp_probe_new_task (pal_mcp_probe_stdio_async, timeout_ms,
                                  cancellable, callback, user_data);
  probe = _pal_mcp_probe_from_task (task);

  self = g_new0 (StdioTransport, 1);
  self->probe = probe;
  self->stdout_buffer = g_byte_array_new ();
  self->stderr_tail = g_byte_array_new ();
  g_queue_init (&self->out_queue);
  _pal_mcp_probe_set_transport (probe, &stdio_transport_class, self);

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

  self->command = g_strdup (argv[0]);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *equals = strchr (env[i], '=');
      g_autofree char *name = g_strndup (env[i], equals - env[i]);

      g_subprocess_launcher_setenv (launcher, name, equals + 1, TRUE);
    }
  g_subprocess_launcher_set_child_setup (launcher, acp_process_group_child_setup,
                                         GINT_TO_POINTER (getpid ()), NULL);

  self->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  if (self->process == NULL)
    {
      _pal_mcp_probe_fail (probe, describe_spawn_error (argv[0], error));
      return;
    }

  identifier = g_subprocess_get_identifier (self->process);
  self->pid = identifier != NULL ? (GPid) g_ascii_strtoll (identifier, NULL, 10) : 0;
  self->stdin_pipe = g_subprocess_get_stdin_pipe (self->process);
  self->stdout_pipe = g_subprocess_get_stdout_pipe (self->process);
  self->stderr_pipe = g_subprocess_get_stderr_pipe (self->process);

  g_debug ("MCP probe started %s as process %d", argv[0], (int) self->pid);

  read_stdout (task);
  read_stderr (task);
  _pal_mcp_probe_begin (probe);
}
