/* acp-agent-process.c: the agent's process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Spawning the agent in a process group of its own, keeping the tail of its
 * stderr (and logging its lines), watching for the exit, and stopping it.
 *
 * Exit handling: when the process exits, its stdout and stderr usually reach
 * EOF first, and the connection then fails its pending calls with a plain
 * "closed" error. Calls made through _acp_agent_call_async() that fail that
 * way are held back until the exit has been seen, and then fail with the exit
 * error (status or signal, and the stderr tail), which is what a person needs
 * to read. After the exit, the agent waits (briefly) for stdout and stderr to
 * drain, so that the last messages and the last stderr line are not lost.
 */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "acp-agent-private.h"
#include "acp-process-group.h"

#define STDERR_TAIL_SIZE              8192
#define STDERR_READ_SIZE              65536
/* A stderr line longer than this is logged in pieces. */
#define STDERR_LINE_MAX               4096

/* A weak reference handed to async operations that must not keep the agent
 * alive (reading stderr, waiting for the process). */
static GWeakRef *
weak_ref_new (gpointer object)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_weak_ref_init (ref, object);

  return ref;
}

/* Frees @ref; returns a strong reference or NULL. */
static gpointer
weak_ref_steal (GWeakRef *ref)
{
  gpointer object = g_weak_ref_get (ref);

  g_weak_ref_clear (ref);
  g_free (ref);

  return object;
}

/* stderr {{{ */

static void
trim_stderr (AcpAgent *self)
{
  if (self->stderr_buf->len > STDERR_TAIL_SIZE)
    g_byte_array_remove_range (self->stderr_buf, 0, self->stderr_buf->len - STDERR_TAIL_SIZE);
}

static void read_stderr (AcpAgent *self);

/* Each line of stderr is an entry of the log. */
static void
log_stderr (AcpAgent     *self,
            const guint8 *data,
            gsize         size,
            gboolean      ended)
{
  for (gsize i = 0; i < size; i++)
    {
      if (data[i] == '\n' || self->stderr_line->len >= STDERR_LINE_MAX)
        {
          if (self->stderr_line->len > 0)
            acp_traffic_log_add_text (self->log, ACP_TRAFFIC_STDERR,
                                      self->stderr_line->str, self->stderr_line->len);
          g_string_truncate (self->stderr_line, 0);
          if (data[i] == '\n')
            continue;
        }
      g_string_append_c (self->stderr_line, data[i]);
    }

  if (ended && self->stderr_line->len > 0)
    {
      acp_traffic_log_add_text (self->log, ACP_TRAFFIC_STDERR,
                                self->stderr_line->str, self->stderr_line->len);
      g_string_truncate (self->stderr_line, 0);
    }
}

static void
stderr_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AcpAgent) self = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  self = weak_ref_steal (user_data);
  if (self == NULL)
    return;

  if (bytes == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_debug ("Reading the agent's stderr failed: %s", error->message);
    }

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      log_stderr (self, NULL, 0, TRUE);
      self->stderr_done = TRUE;
      _acp_agent_maybe_finish_exit (self);
      return;
    }

  log_stderr (self, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), FALSE);

  /* Keep at most twice the tail, so that a flood costs one memmove per
   * STDERR_TAIL_SIZE bytes rather than one per read. */
  if (g_bytes_get_size (bytes) >= STDERR_TAIL_SIZE)
    {
      gsize size = g_bytes_get_size (bytes);
      const guint8 *data = g_bytes_get_data (bytes, NULL);

      g_byte_array_set_size (self->stderr_buf, 0);
      g_byte_array_append (self->stderr_buf, data + size - STDERR_TAIL_SIZE, STDERR_TAIL_SIZE);
    }
  else
    {
      g_byte_array_append (self->stderr_buf,
                           g_bytes_get_data (bytes, NULL),
                           g_bytes_get_size (bytes));
      if (self->stderr_buf->len >= 2 * STDERR_TAIL_SIZE)
        trim_stderr (self);
    }

  read_stderr (self);
}

static void
read_stderr (AcpAgent *self)
{
  GInputStream *pipe = g_subprocess_get_stderr_pipe (self->subprocess);

  g_input_stream_read_bytes_async (pipe, STDERR_READ_SIZE, G_PRIORITY_DEFAULT,
                                   self->cancellable, stderr_read_cb, weak_ref_new (self));
}

/**
 * acp_agent_dup_stderr_tail:
 * @self: an #AcpAgent
 *
 * Returns: (transfer full): the last bytes (at most 8 KiB) the agent wrote to
 *   stderr, starting at a character boundary, as valid UTF-8 (invalid bytes
 *   are replaced); an empty string when there are none
 */
char *
acp_agent_dup_stderr_tail (AcpAgent *self)
{
  const char *data;
  gsize len;
  g_autofree char *valid = NULL;
  const char *start;
  gsize valid_len;

  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  data = (const char *) self->stderr_buf->data;
  len = self->stderr_buf->len;
  if (len > STDERR_TAIL_SIZE)
    {
      data += len - STDERR_TAIL_SIZE;
      len = STDERR_TAIL_SIZE;
    }

  /* skip UTF-8 continuation bytes of a character cut in half */
  while (len > 0 && ((guchar) *data & 0xC0) == 0x80)
    {
      data++;
      len--;
    }

  if (len == 0)
    return g_strdup ("");

  valid = g_utf8_make_valid (data, len);

  /* replacement characters may have made it longer: cut again */
  start = valid;
  valid_len = strlen (valid);
  while (valid_len > STDERR_TAIL_SIZE)
    {
      const char *next = g_utf8_next_char (start);

      valid_len -= next - start;
      start = next;
    }

  return g_strdup (start);
}

/* }}} */

/* exit {{{ */

static GError *
build_exit_error (AcpAgent     *self,
                  const GError *stream_reason)
{
  g_autofree char *summary = NULL;
  g_autofree char *tail = NULL;

  if (self->subprocess == NULL)
    {
      if (stream_reason != NULL)
        summary = g_strdup_printf (_("The connection to the agent was closed: %s"),
                                   stream_reason->message);
      else
        summary = g_strdup (_("The connection to the agent was closed"));
    }
  else if (g_subprocess_get_if_exited (self->subprocess))
    {
      summary = g_strdup_printf (_("The agent exited with status %d"),
                                 g_subprocess_get_exit_status (self->subprocess));
    }
  else if (g_subprocess_get_if_signaled (self->subprocess))
    {
      int sig = g_subprocess_get_term_sig (self->subprocess);

      summary = g_strdup_printf (_("The agent was killed by signal %d (%s)"),
                                 sig, g_strsignal (sig));
    }
  else
    {
      summary = g_strdup_printf (_("The agent ended with wait status %d"), self->exit_status);
    }

  /* what it wrote instead of the protocol tells what it is */
  if (self->stray_output != NULL)
    {
      /* TRANSLATORS: how the agent ended, then the first line it wrote
       * that is not the protocol */
      char *with_output = g_strdup_printf (_("%s. %s"), summary, self->stray_output);

      g_free (summary);
      summary = with_output;
    }

  tail = acp_agent_dup_stderr_tail (self);
  g_strstrip (tail);
  if (*tail != '\0')
    return g_error_new (ACP_ERROR, ACP_ERROR_AGENT_EXITED,
                        _("%s. Its last error output:\n%s"), summary, tail);

  return g_error_new (ACP_ERROR, ACP_ERROR_AGENT_EXITED, "%s", summary);
}

static void
complete_stop_tasks (AcpAgent *self)
{
  g_autoptr(GPtrArray) tasks = g_steal_pointer (&self->stop_tasks);

  self->stop_tasks = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (tasks, i);
      gulong *cancel_id = g_task_get_task_data (task);

      if (*cancel_id != 0)
        g_cancellable_disconnect (g_task_get_cancellable (task), *cancel_id);
      *cancel_id = 0;
      g_task_return_boolean (task, TRUE);
    }
}

void
_acp_agent_finish_exit (AcpAgent     *self,
                        const GError *stream_reason)
{
  g_autoptr(AcpAgent) hold = g_object_ref (self);
  g_autoptr(GArray) held = NULL;

  if (self->exit_error != NULL)
    return;

  g_clear_handle_id (&self->drain_timeout_id, g_source_remove);
  g_clear_handle_id (&self->orphan_timeout_id, g_source_remove);
  g_clear_handle_id (&self->term_id, g_source_remove);
  g_clear_handle_id (&self->kill_id, g_source_remove);

  self->exit_error = build_exit_error (self, stream_reason);
  g_debug ("Agent %p: %s", self, self->exit_error->message);

  _acp_agent_set_state (self, ACP_AGENT_STATE_EXITED);

  if (self->connection != NULL)
    acp_connection_close (self->connection, self->exit_error);

  held = g_steal_pointer (&self->held_calls);
  self->held_calls = g_array_new (FALSE, TRUE, sizeof (HeldCall));
  g_array_set_clear_func (self->held_calls, _acp_agent_held_call_clear);
  for (guint i = 0; i < held->len; i++)
    {
      HeldCall *call = &g_array_index (held, HeldCall, i);

      g_task_return_error (call->task, g_error_copy (self->exit_error));
    }

  if (self->start_task != NULL)
    _acp_agent_fail_start (self, g_error_copy (self->exit_error), FALSE);

  _acp_agent_emit_exited (self);

  /* A stop is over once nothing the agent started runs either, and after
   * everyone was told of the exit (sessions failed, slots forgotten). */
  if (self->group_ended)
    complete_stop_tasks (self);
}

static gboolean
drain_timeout_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  self->drain_timeout_id = 0;
  g_debug ("Agent %p: stdout or stderr still open after the exit", self);
  _acp_agent_finish_exit (self, NULL);

  return G_SOURCE_REMOVE;
}

void
_acp_agent_maybe_finish_exit (AcpAgent *self)
{
  if (self->exit_error != NULL || !self->process_exited)
    return;

  if (self->stderr_done && (self->connection == NULL || self->connection_closed))
    {
      _acp_agent_finish_exit (self, NULL);
      return;
    }

  if (self->drain_timeout_id == 0)
    self->drain_timeout_id = g_timeout_add (EXIT_DRAIN_TIMEOUT_MS, drain_timeout_cb, self);
}

static void
group_ended_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AcpAgent) self = weak_ref_steal (user_data);

  acp_process_group_end_finish (result, NULL);
  if (self == NULL)
    return;

  self->group_ended = TRUE;
  if (self->exit_error != NULL)
    complete_stop_tasks (self);
}

static void
subprocess_wait_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GSubprocess *subprocess = G_SUBPROCESS (object);
  g_autoptr(AcpAgent) self = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_wait_finish (subprocess, result, &error);
  self = weak_ref_steal (user_data);
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    g_debug ("Waiting for the agent failed: %s", error->message);

  self->process_exited = TRUE;
  self->exit_status = g_subprocess_get_status (subprocess);
  g_clear_handle_id (&self->term_id, g_source_remove);
  g_clear_handle_id (&self->kill_id, g_source_remove);

  /* What it started and left behind (a launcher's real agent, an MCP server,
   * a child of a script that did not exec) is of no use without it. Most
   * agents leave nothing: no process of the group is left at all. */
  if (acp_process_group_signal (self->pgid, 0))
    acp_process_group_end_async (self->pgid, self->grace_ms, self->cancellable,
                                 group_ended_cb, weak_ref_new (self));
  else
    self->group_ended = TRUE;

  _acp_agent_maybe_finish_exit (self);
}

/* }}} */

/* spawn {{{ */

gboolean
_acp_agent_spawn (AcpAgent  *self,
                  GError   **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *program = NULL;
  g_autofree char **argv = NULL;
  AcpGroupSetup group_setup;
  guint argc;

  program = g_find_program_in_path (self->argv[0]);
  if (program == NULL)
    {
      g_set_error (error, ACP_ERROR, ACP_ERROR_SPAWN_FAILED,
                   _("The agent command “%s” was not found"), self->argv[0]);
      return FALSE;
    }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);

  for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL || eq == self->env[i])
        {
          g_set_error (error, ACP_ERROR, ACP_ERROR_SPAWN_FAILED,
                       _("Cannot start the agent “%s”: "
                         "the environment entry “%s” is not NAME=VALUE"),
                       self->argv[0], self->env[i]);
          return FALSE;
        }

      name = g_strndup (self->env[i], eq - self->env[i]);
      g_subprocess_launcher_setenv (launcher, name, eq + 1, TRUE);
    }

  if (self->cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, self->cwd);

  if (!acp_group_setup_init (&group_setup, &local_error))
    {
      g_set_error (error, ACP_ERROR, ACP_ERROR_SPAWN_FAILED,
                   _("Cannot start the agent “%s”: %s"), self->argv[0], local_error->message);
      return FALSE;
    }
  g_subprocess_launcher_set_child_setup (launcher, acp_group_setup_run, &group_setup, NULL);

  argc = g_strv_length (self->argv);
  argv = g_new0 (char *, argc + 1);
  argv[0] = program;
  for (guint i = 1; i < argc; i++)
    argv[i] = self->argv[i];

  self->subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv,
                                                   &local_error);
  self->pgid = acp_group_setup_finish (&group_setup);
  if (self->subprocess == NULL)
    {
      g_set_error (error, ACP_ERROR, ACP_ERROR_SPAWN_FAILED,
                   _("Cannot start the agent “%s”: %s"), self->argv[0], local_error->message);
      return FALSE;
    }

  self->group_ended = self->pgid <= 1;
  g_debug ("Agent %p: started %s as pid %d", self, program, (int) self->pgid);

  self->stream = g_simple_io_stream_new (g_subprocess_get_stdout_pipe (self->subprocess),
                                         g_subprocess_get_stdin_pipe (self->subprocess));
  self->connection = acp_connection_new (self->stream);
  _acp_agent_setup_connection (self);

  read_stderr (self);
  g_subprocess_wait_async (self->subprocess, self->cancellable,
                           subprocess_wait_cb, weak_ref_new (self));

  return TRUE;
}

/* }}} */

/* stop {{{ */

static gboolean
kill_timeout_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  self->kill_id = 0;
  if (!self->process_exited)
    {
      g_debug ("Agent %p: still running after SIGTERM, sending SIGKILL", self);
      acp_process_group_signal (self->pgid, SIGKILL);
    }

  return G_SOURCE_REMOVE;
}

static gboolean
term_timeout_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  self->term_id = 0;
  if (!self->process_exited)
    {
      g_debug ("Agent %p: still running after EOF, sending SIGTERM", self);
      acp_process_group_signal (self->pgid, SIGTERM);
      self->kill_id = g_timeout_add (self->grace_ms, kill_timeout_cb, self);
    }

  return G_SOURCE_REMOVE;
}

static void
stdin_closed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_close_finish (G_OUTPUT_STREAM (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED))
    g_debug ("Closing the agent's stdin failed: %s", error->message);
}

static void
close_stdin (AcpAgent *self)
{
  GOutputStream *pipe = g_subprocess_get_stdin_pipe (self->subprocess);

  g_output_stream_close_async (pipe, G_PRIORITY_DEFAULT, self->cancellable,
                               stdin_closed_cb, NULL);
}

static void
flush_before_stop_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(AcpAgent) self = weak_ref_steal (user_data);
  g_autoptr(GError) error = NULL;

  if (!acp_connection_flush_finish (ACP_CONNECTION (object), result, &error))
    g_debug ("Flushing before the stop failed: %s", error->message);

  if (self != NULL && !self->process_exited)
    close_stdin (self);
}

/* Starts the escalation: close stdin now, SIGTERM after the grace period,
 * SIGKILL after another. Idempotent. */
void
_acp_agent_begin_stop (AcpAgent *self)
{
  if (self->state == ACP_AGENT_STATE_EXITED || self->state == ACP_AGENT_STATE_STOPPING)
    return;

  _acp_agent_set_state (self, ACP_AGENT_STATE_STOPPING);

  if (self->subprocess == NULL)
    {
      g_autoptr(GError) reason = NULL;

      reason = g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED, _("The agent was stopped"));
      if (self->connection != NULL && !self->connection_closed)
        acp_connection_close (self->connection, reason);
      /* normally the closed signal has finished the exit already */
      if (self->exit_error == NULL)
        _acp_agent_finish_exit (self, reason);
      return;
    }

  if (self->process_exited)
    return;

  self->term_id = g_timeout_add (self->grace_ms, term_timeout_cb, self);

  /* Let queued messages (a session/cancel) go out before EOF. */
  if (self->connection != NULL && !self->connection_closed)
    acp_connection_flush_async (self->connection, self->cancellable,
                                flush_before_stop_cb, weak_ref_new (self));
  else
    close_stdin (self);
}

static gboolean
stop_cancelled_idle_cb (gpointer user_data)
{
  GTask *task = user_data;
  AcpAgent *self = g_task_get_source_object (task);
  gulong *cancel_id = g_task_get_task_data (task);

  /* still waiting for the exit? then give up waiting (the stop goes on) */
  if (*cancel_id != 0 && g_ptr_array_find (self->stop_tasks, task, NULL))
    {
      g_cancellable_disconnect (g_task_get_cancellable (task), *cancel_id);
      *cancel_id = 0;
      /* drops the array's reference; the idle holds another */
      g_ptr_array_remove (self->stop_tasks, task);
      g_task_return_error_if_cancelled (task);
    }

  return G_SOURCE_REMOVE;
}

static void
stop_cancelled_cb (GCancellable *cancellable,
                   GTask        *task)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, stop_cancelled_idle_cb,
                   g_object_ref (task), g_object_unref);
}

/**
 * acp_agent_stop_async:
 * @self: an #AcpAgent
 * @cancellable: (nullable): cancelling it only stops the waiting; the
 *   escalation continues
 * @callback: called once the process and every process it started have
 *   exited
 * @user_data: data for @callback
 *
 * Closes the agent's stdin, sends SIGTERM to its process group after the
 * grace period and SIGKILL after another; what is left of the group once the
 * agent exited gets the same. An agent built for a stream is stopped by
 * closing the connection.
 */
void
acp_agent_stop_async (AcpAgent            *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gulong *cancel_id;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_agent_stop_async);

  if (self->state == ACP_AGENT_STATE_NEW ||
      (self->state == ACP_AGENT_STATE_EXITED && self->group_ended))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (self->start_task != NULL)
    _acp_agent_fail_start (self,
                           g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                _("The agent was stopped")),
                           FALSE);

  /* asked for: an exit that follows is no fault of the agent's */
  self->stop_requested = TRUE;
  cancel_id = g_new0 (gulong, 1);
  g_task_set_task_data (task, cancel_id, g_free);
  g_ptr_array_add (self->stop_tasks, g_object_ref (task));

  if (cancellable != NULL)
    *cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (stop_cancelled_cb), task, NULL);

  _acp_agent_begin_stop (self);
}

gboolean
acp_agent_stop_finish (AcpAgent      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_agent_stop_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* }}} */
