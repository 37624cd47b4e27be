/* acp-agent.c: an ACP agent process and the client side of its protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the life of the agent: spawning, the stderr tail,
 * initialize, the agent→client traffic, exit watching and stopping. The
 * typed client→agent calls live in acp-agent-calls.c.
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
#include "acp-json.h"
#include "acp-marshal.h"
#include "acp-process-group.h"
#include "acp-update-variants-private.h"

#define STDERR_TAIL_SIZE              8192
#define STDERR_READ_SIZE              65536
#define DEFAULT_INITIALIZE_TIMEOUT_MS 60000
#define DEFAULT_STOP_GRACE_MS         2000
/* After the process exited: how long to wait for stdout and stderr to reach
 * EOF (a grandchild may keep them open). */
#define EXIT_DRAIN_TIMEOUT_MS         1000
/* The entries of the traffic log kept: messages and stderr lines. */
#define TRAFFIC_LOG_SIZE              5000
/* A stderr line longer than this is logged in pieces. */
#define STDERR_LINE_MAX               4096

G_DEFINE_ENUM_TYPE (AcpAgentState, acp_agent_state,
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_NEW, "new"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_STARTING, "starting"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_READY, "ready"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_STOPPING, "stopping"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_EXITED, "exited"))

typedef struct
{
  GTask  *task;
  GError *error;   /* what the connection said, in case no exit follows */
} HeldCall;

struct _AcpAgent
{
  GObject                parent_instance;

  /* how to start it (NULL argv for an agent built for a stream) */
  char                 **argv;
  char                 **env;
  char                  *cwd;

  AcpClientCapabilities  client_caps;
  guint                  initialize_timeout_ms;
  guint                  grace_ms;

  AcpAgentState          state;
  GCancellable          *cancellable;

  GSubprocess           *subprocess;
  GPid                   pgid;           /* its process group: it leads one */
  gboolean               group_ended;    /* nothing of the group runs any more */
  GIOStream             *stream;
  AcpConnection         *connection;
  AcpPacer              *pacer;          /* given to the connection */
  gulong                 notification_id;
  gulong                 request_id;
  gulong                 closed_id;
  gulong                 message_error_id;
  gboolean               connection_closed;
  /* the first line it wrote that is not the protocol, quoted (a program
   * that is not an ACP agent, or one that logs on its standard output) */
  char                  *stray_output;

  /* what initialize told us */
  guint                  protocol_version;
  AcpAgentCapabilities   caps;
  JsonObject            *caps_object;
  char                  *agent_name;
  char                  *agent_title;
  char                  *agent_version;
  GPtrArray             *auth_methods;

  /* the last bytes of stderr; trimmed to STDERR_TAIL_SIZE when it doubles */
  GByteArray            *stderr_buf;
  gboolean               stderr_done;
  GString               *stderr_line;    /* the start of a line not ended yet */
  AcpTrafficLog         *log;

  /* start */
  GTask                 *start_task;
  gulong                 start_cancel_id;
  guint                  initialize_timeout_id;

  /* stop */
  GPtrArray             *stop_tasks;
  gboolean               stop_requested;
  guint                  term_id;
  guint                  kill_id;

  /* exit */
  gboolean               process_exited;
  int                    exit_status;
  guint                  drain_timeout_id;
  guint                  orphan_timeout_id;
  GError                *exit_error;
  GArray                *held_calls;     /* HeldCall */
};

G_DEFINE_FINAL_TYPE (AcpAgent, acp_agent, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

enum {
  SESSION_UPDATE,
  REQUEST,
  PROTOCOL_ERROR,
  EXITED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void begin_stop        (AcpAgent *self);
static void maybe_finish_exit (AcpAgent *self);

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

static void
held_call_clear (gpointer data)
{
  HeldCall *held = data;

  g_clear_object (&held->task);
  g_clear_error (&held->error);
}

static void
set_state (AcpAgent      *self,
           AcpAgentState  state)
{
  if (self->state == state)
    return;

  g_debug ("Agent %p: state %d → %d", self, self->state, state);
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
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
      maybe_finish_exit (self);
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

static void fail_start (AcpAgent *self,
                        GError   *error,
                        gboolean  stop);

static void
finish_exit (AcpAgent     *self,
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

  set_state (self, ACP_AGENT_STATE_EXITED);

  if (self->connection != NULL)
    acp_connection_close (self->connection, self->exit_error);

  held = g_steal_pointer (&self->held_calls);
  self->held_calls = g_array_new (FALSE, TRUE, sizeof (HeldCall));
  g_array_set_clear_func (self->held_calls, held_call_clear);
  for (guint i = 0; i < held->len; i++)
    {
      HeldCall *call = &g_array_index (held, HeldCall, i);

      g_task_return_error (call->task, g_error_copy (self->exit_error));
    }

  if (self->start_task != NULL)
    fail_start (self, g_error_copy (self->exit_error), FALSE);

  g_signal_emit (self, signals[EXITED], 0);

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
  finish_exit (self, NULL);

  return G_SOURCE_REMOVE;
}

static void
maybe_finish_exit (AcpAgent *self)
{
  if (self->exit_error != NULL || !self->process_exited)
    return;

  if (self->stderr_done && (self->connection == NULL || self->connection_closed))
    {
      finish_exit (self, NULL);
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

  maybe_finish_exit (self);
}

/* }}} */

/* agent → client traffic {{{ */

static void
emit_protocol_error (AcpAgent   *self,
                     const char *format,
                     ...) G_GNUC_PRINTF (2, 3);

static void
emit_protocol_error (AcpAgent   *self,
                     const char *format,
                     ...)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("Agent %p: %s", self, message);
  error = g_error_new_literal (ACP_ERROR, ACP_ERROR_INVALID_MESSAGE, message);
  g_signal_emit (self, signals[PROTOCOL_ERROR], 0, error);
}

static void
connection_notification_cb (AcpConnection *connection,
                            const char    *method,
                            JsonNode      *params,
                            AcpAgent      *self)
{
  JsonObject *object;
  JsonNode *update;
  const char *session_id;
  JsonObject *update_object;

  if (g_strcmp0 (method, "session/update") != 0)
    {
      g_debug ("Agent %p: ignoring notification %s", self, method);
      return;
    }

  if (params == NULL || !JSON_NODE_HOLDS_OBJECT (params))
    {
      emit_protocol_error (self,
                           _("Malformed session/update notification: params is not an object"));
      return;
    }

  object = json_node_get_object (params);
  session_id = acp_json_get_string (object, "sessionId", NULL);
  if (session_id == NULL)
    {
      emit_protocol_error (self, _("Malformed session/update notification: no string sessionId"));
      return;
    }

  update = json_object_get_member (object, "update");
  if (update == NULL || !JSON_NODE_HOLDS_OBJECT (update))
    {
      emit_protocol_error (self,
                           _("Malformed session/update notification: update is not an object"));
      return;
    }

  update_object = json_node_get_object (update);
  if (acp_json_get_string (update_object, "sessionUpdate", NULL) == NULL)
    {
      emit_protocol_error (self,
                           _("Malformed session/update notification: no string sessionUpdate"));
      return;
    }

  g_signal_emit (self, signals[SESSION_UPDATE], 0, session_id, update_object);
}

static gboolean
connection_request_cb (AcpConnection      *connection,
                       AcpIncomingRequest *request,
                       AcpAgent           *self)
{
  JsonObject *params = acp_incoming_request_get_params_object (request);
  const char *session_id = NULL;
  gboolean handled = FALSE;

  if (params != NULL)
    session_id = acp_json_get_string (params, "sessionId", NULL);

  g_signal_emit (self, signals[REQUEST], 0, session_id, request, &handled);

  return handled;
}

static gboolean
orphan_timeout_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  self->orphan_timeout_id = 0;
  g_debug ("Agent %p: its output is closed but it still runs: stopping it", self);
  begin_stop (self);

  return G_SOURCE_REMOVE;
}

static void
connection_closed_cb (AcpConnection *connection,
                      const GError  *reason,
                      AcpAgent      *self)
{
  g_autoptr(AcpAgent) hold = g_object_ref (self);

  if (self->connection_closed)
    return;

  self->connection_closed = TRUE;
  g_debug ("Agent %p: connection closed: %s", self, reason != NULL ? reason->message : "EOF");

  if (self->subprocess == NULL)
    {
      /* no process: the stream is the agent */
      finish_exit (self, reason);
      return;
    }

  if (!self->process_exited)
    {
      /* Usually the exit follows at once. If it does not, the agent closed
       * its stdout but still runs, and is of no use any more. */
      if (self->orphan_timeout_id == 0)
        self->orphan_timeout_id = g_timeout_add (EXIT_DRAIN_TIMEOUT_MS, orphan_timeout_cb, self);
      return;
    }

  maybe_finish_exit (self);
}

/* Text chunks of one message (AcpConnectionJoinFunc, in the connection's
 * reading thread): a session/update of a TEXT_CHUNK variant (agent, user or
 * thought chunk) whose content is text and nothing else, from the same
 * session, of the same kind and message. Anything more (annotations, _meta)
 * is left alone: it would be lost in the joining. */
static JsonNode *
join_text_chunk (JsonNode  *message,
                 char     **key)
{
  JsonObject *object, *params, *update, *content;
  const char *session_id, *kind, *message_id;
  const AcpUpdateVariant *variant;
  JsonNode *text;

  if (!JSON_NODE_HOLDS_OBJECT (message))
    return NULL;
  object = json_node_get_object (message);
  if (json_object_has_member (object, "id") ||
      g_strcmp0 (acp_json_get_string (object, "method", NULL), "session/update") != 0)
    return NULL;

  params = acp_json_get_object (object, "params");
  if (params == NULL || json_object_get_size (params) != 2)
    return NULL;
  session_id = acp_json_get_string (params, "sessionId", NULL);
  update = acp_json_get_object (params, "update");
  if (session_id == NULL || update == NULL)
    return NULL;

  kind = acp_json_get_string (update, "sessionUpdate", NULL);
  variant = _acp_update_variant_lookup (kind);
  if (variant == NULL || (variant->flags & ACP_UPDATE_FLAGS_TEXT_CHUNK) == 0)
    return NULL;
  message_id = acp_json_get_string (update, "messageId", NULL);
  if (json_object_get_size (update) != (message_id != NULL ? 3u : 2u))
    return NULL;

  content = acp_json_get_object (update, "content");
  if (content == NULL || json_object_get_size (content) != 2 ||
      g_strcmp0 (acp_json_get_string (content, "type", NULL), "text") != 0)
    return NULL;
  text = json_object_get_member (content, "text");
  if (text == NULL || !JSON_NODE_HOLDS_VALUE (text) || json_node_get_value_type (text) != G_TYPE_STRING)
    return NULL;

  /* unambiguous whatever the strings hold */
  *key = g_strdup_printf ("%zu:%s %s %c%s", strlen (session_id), session_id, kind,
                          message_id != NULL ? '+' : '-', message_id != NULL ? message_id : "");
  return text;
}

static void
connection_message_error_cb (AcpConnection *connection,
                             const GError  *error,
                             AcpAgent      *self)
{
  if (self->stray_output == NULL && g_error_matches (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR))
    self->stray_output = g_strdup (error->message);
  /* a whole message is lost, whatever it was for: the sessions say so */
  if (g_error_matches (error, ACP_ERROR, ACP_ERROR_LINE_TOO_LONG))
    g_signal_emit (self, signals[PROTOCOL_ERROR], 0, error);
}

static void
setup_connection (AcpAgent *self)
{
  acp_connection_set_join_func (self->connection, join_text_chunk);
  acp_connection_set_traffic_log (self->connection, self->log);
  acp_connection_set_pacer (self->connection, self->pacer);
  self->notification_id =
    g_signal_connect (self->connection, "notification",
                      G_CALLBACK (connection_notification_cb), self);
  self->request_id =
    g_signal_connect (self->connection, "request",
                      G_CALLBACK (connection_request_cb), self);
  self->closed_id =
    g_signal_connect (self->connection, "closed",
                      G_CALLBACK (connection_closed_cb), self);
  self->message_error_id =
    g_signal_connect (self->connection, "message-error",
                      G_CALLBACK (connection_message_error_cb), self);
}

/* }}} */

/* calls {{{ */

gboolean
_acp_agent_check_ready (AcpAgent  *self,
                        GError   **error)
{
  switch (self->state)
    {
    case ACP_AGENT_STATE_READY:
      return TRUE;

    case ACP_AGENT_STATE_NEW:
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_FAILED,
                           _("The agent has not been started"));
      return FALSE;

    case ACP_AGENT_STATE_STARTING:
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_FAILED,
                           _("The agent is still starting"));
      return FALSE;

    case ACP_AGENT_STATE_STOPPING:
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_CLOSED,
                           _("The agent is being stopped"));
      return FALSE;

    case ACP_AGENT_STATE_EXITED:
    default:
      if (self->exit_error != NULL)
        g_propagate_error (error, g_error_copy (self->exit_error));
      else
        g_set_error_literal (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED, _("The agent has exited"));
      return FALSE;
    }
}

static void
agent_call_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpAgent *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  node = acp_connection_call_finish (ACP_CONNECTION (object), result, &error);
  if (node != NULL)
    {
      g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
      return;
    }

  if (error == NULL)
    {
      /* a result of JSON null */
      g_task_return_pointer (task, json_node_new (JSON_NODE_NULL),
                             (GDestroyNotify) json_node_unref);
      return;
    }

  if (g_error_matches (error, ACP_ERROR, ACP_ERROR_CLOSED) && !acp_error_is_remote (error))
    {
      if (self->exit_error != NULL)
        {
          g_task_return_error (task, g_error_copy (self->exit_error));
          return;
        }

      if (self->subprocess != NULL)
        {
          HeldCall held = { g_steal_pointer (&task), g_steal_pointer (&error) };

          /* the exit (or our stop) follows; answer then */
          g_array_append_val (self->held_calls, held);
          return;
        }
    }

  g_task_return_error (task, g_steal_pointer (&error));
}

void
_acp_agent_call_async (AcpAgent            *self,
                       const char          *method,
                       JsonObject          *params,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert (ACP_IS_AGENT (self));
  g_assert (method != NULL);
  g_assert (params != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _acp_agent_call_async);
  g_task_set_task_data (task, g_strdup (method), g_free);

  if (self->connection == NULL)
    {
      g_task_return_new_error (task, ACP_ERROR, ACP_ERROR_CLOSED, _("The agent is not running"));
      return;
    }

  node = json_node_init_object (json_node_alloc (), params);
  acp_connection_call_async (self->connection, method, node, cancellable,
                             agent_call_cb, g_steal_pointer (&task));
}

JsonNode *
_acp_agent_call_finish (AcpAgent      *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_assert (g_task_is_valid (result, self));

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* }}} */

/* start {{{ */

static void
fail_start (AcpAgent *self,
            GError   *error,
            gboolean  stop)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->start_task);

  g_clear_handle_id (&self->initialize_timeout_id, g_source_remove);

  if (task == NULL)
    {
      g_error_free (error);
      return;
    }

  if (self->start_cancel_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (task), self->start_cancel_id);
  self->start_cancel_id = 0;

  g_debug ("Agent %p: start failed: %s", self, error->message);
  g_task_return_error (task, error);

  if (stop)
    begin_stop (self);
}

static gboolean
is_true (JsonObject *object,
         const char *member)
{
  gboolean value = FALSE;

  return acp_json_get_boolean (object, member, &value) && value;
}

/* Object-valued capabilities are on when present as an object, booleans
 * when true; anything of another type counts as off. */
static void
parse_capabilities (AcpAgent   *self,
                    JsonObject *caps)
{
  JsonObject *prompt = acp_json_get_object (caps, "promptCapabilities");
  JsonObject *session = acp_json_get_object (caps, "sessionCapabilities");
  JsonObject *auth = acp_json_get_object (caps, "auth");
  struct {
    JsonObject           *parent;
    const char           *member;
    gboolean              is_object;
    AcpAgentCapabilities  cap;
  } table[] = {
    { caps, "loadSession", FALSE, ACP_AGENT_CAP_LOAD_SESSION },
    { prompt, "image", FALSE, ACP_AGENT_CAP_PROMPT_IMAGE },
    { prompt, "audio", FALSE, ACP_AGENT_CAP_PROMPT_AUDIO },
    { prompt, "embeddedContext", FALSE, ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT },
    { session, "list", TRUE, ACP_AGENT_CAP_SESSION_LIST },
    { session, "resume", TRUE, ACP_AGENT_CAP_SESSION_RESUME },
    { session, "close", TRUE, ACP_AGENT_CAP_SESSION_CLOSE },
    { session, "delete", TRUE, ACP_AGENT_CAP_SESSION_DELETE },
    { session, "fork", TRUE, ACP_AGENT_CAP_SESSION_FORK },
    { session, "additionalDirectories", TRUE, ACP_AGENT_CAP_ADDITIONAL_DIRECTORIES },
    { auth, "logout", TRUE, ACP_AGENT_CAP_LOGOUT },
  };

  self->caps = ACP_AGENT_CAP_NONE;

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      gboolean on;

      if (table[i].is_object)
        on = acp_json_get_object (table[i].parent, table[i].member) != NULL;
      else
        on = is_true (table[i].parent, table[i].member);

      if (on)
        self->caps |= table[i].cap;
    }
}

static gboolean
parse_initialize_result (AcpAgent  *self,
                         JsonNode  *result,
                         GError   **error)
{
  JsonObject *object;
  JsonNode *node;
  gint64 version;

  if (!JSON_NODE_HOLDS_OBJECT (result))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           _("The agent's initialize result is not an object"));
      return FALSE;
    }

  object = json_node_get_object (result);
  node = json_object_get_member (object, "protocolVersion");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           _("The agent's initialize result has no integer protocolVersion"));
      return FALSE;
    }

  version = json_node_get_int (node);
  if (version != ACP_PROTOCOL_VERSION)
    {
      /* the number is formatted apart: a format macro inside the message
       * would cut the translatable text short at the % */
      g_autofree char *spoken = g_strdup_printf ("%" G_GINT64_FORMAT, version);

      g_set_error (error, ACP_ERROR, ACP_ERROR_PROTOCOL_VERSION,
                   _("The agent speaks version %s of the Agent Client Protocol; "
                     "only version %d is supported"),
                   spoken, ACP_PROTOCOL_VERSION);
      return FALSE;
    }
  self->protocol_version = (guint) version;

  node = json_object_get_member (object, "agentCapabilities");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    self->caps_object = json_object_ref (json_node_get_object (node));
  parse_capabilities (self, self->caps_object);

  node = json_object_get_member (object, "agentInfo");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *info = json_node_get_object (node);

      self->agent_name = g_strdup (acp_json_get_string (info, "name", NULL));
      self->agent_title = g_strdup (acp_json_get_string (info, "title", NULL));
      self->agent_version = g_strdup (acp_json_get_string (info, "version", NULL));
    }

  node = json_object_get_member (object, "authMethods");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *entry = json_array_get_element (array, i);
          AcpAuthMethod *method = _acp_auth_method_new_from_json (entry);

          if (method != NULL)
            g_ptr_array_add (self->auth_methods, method);
          else
            g_debug ("Agent %p: skipping malformed auth method %u", self, i);
        }
    }

  return TRUE;
}

static void
initialize_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  AcpAgent *self = ACP_AGENT (object);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;

  node = _acp_agent_call_finish (self, result, &error);

  if (self->start_task == NULL)
    return; /* timed out, cancelled or exited already */

  if (node == NULL)
    {
      fail_start (self, g_steal_pointer (&error), TRUE);
      return;
    }

  if (!parse_initialize_result (self, node, &error))
    {
      fail_start (self, g_steal_pointer (&error), TRUE);
      return;
    }

  g_clear_handle_id (&self->initialize_timeout_id, g_source_remove);
  task = g_steal_pointer (&self->start_task);
  if (self->start_cancel_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (task), self->start_cancel_id);
  self->start_cancel_id = 0;

  set_state (self, ACP_AGENT_STATE_READY);
  g_task_return_boolean (task, TRUE);
}

static gboolean
initialize_timeout_cb (gpointer user_data)
{
  AcpAgent *self = user_data;
  GError *error;

  self->initialize_timeout_id = 0;

  if (self->initialize_timeout_ms % 1000 == 0)
    error = g_error_new (ACP_ERROR, ACP_ERROR_TIMEOUT,
                         g_dngettext (NULL,
                                      "The agent did not answer initialize within %u second",
                                      "The agent did not answer initialize within %u seconds",
                                      self->initialize_timeout_ms / 1000),
                         self->initialize_timeout_ms / 1000);
  else
    error = g_error_new (ACP_ERROR, ACP_ERROR_TIMEOUT,
                         _("The agent did not answer initialize within %u ms"),
                         self->initialize_timeout_ms);

  fail_start (self, error, TRUE);

  return G_SOURCE_REMOVE;
}

static gboolean
start_cancelled_idle_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  if (self->start_task != NULL &&
      g_cancellable_is_cancelled (g_task_get_cancellable (self->start_task)))
    fail_start (self,
                g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                     _("Operation was cancelled")),
                TRUE);

  return G_SOURCE_REMOVE;
}

static void
start_cancelled_cb (GCancellable *cancellable,
                    AcpAgent     *self)
{
  /* never disconnect or complete from inside a cancellation handler */
  g_idle_add_full (G_PRIORITY_DEFAULT, start_cancelled_idle_cb,
                   g_object_ref (self), g_object_unref);
}

static JsonObject *
build_initialize_params (AcpAgent *self)
{
  JsonObject *params = json_object_new ();
  JsonObject *caps = json_object_new ();
  JsonObject *fs = json_object_new ();
  JsonObject *info = json_object_new ();

  json_object_set_int_member (params, "protocolVersion", ACP_PROTOCOL_VERSION);

  json_object_set_boolean_member (fs, "readTextFile",
                                  (self->client_caps & ACP_CLIENT_CAP_FS_READ) != 0);
  json_object_set_boolean_member (fs, "writeTextFile",
                                  (self->client_caps & ACP_CLIENT_CAP_FS_WRITE) != 0);
  json_object_set_object_member (caps, "fs", fs);
  json_object_set_boolean_member (caps, "terminal",
                                  (self->client_caps & ACP_CLIENT_CAP_TERMINAL) != 0);
  if ((self->client_caps & ACP_CLIENT_CAP_BOOLEAN_CONFIG) != 0)
    {
      JsonObject *session = json_object_new ();
      JsonObject *config_options = json_object_new ();

      json_object_set_object_member (config_options, "boolean", json_object_new ());
      json_object_set_object_member (session, "configOptions", config_options);
      json_object_set_object_member (caps, "session", session);
    }
  if ((self->client_caps & ACP_CLIENT_CAP_AUTH_TERMINAL) != 0)
    {
      JsonObject *auth = json_object_new ();

      json_object_set_boolean_member (auth, "terminal", TRUE);
      json_object_set_object_member (caps, "auth", auth);
    }
  json_object_set_object_member (params, "clientCapabilities", caps);

  json_object_set_string_member (info, "name", "palaver");
  json_object_set_string_member (info, "title", "Palaver");
  json_object_set_string_member (info, "version", PACKAGE_VERSION);
  json_object_set_object_member (params, "clientInfo", info);

  return params;
}

static gboolean
spawn (AcpAgent  *self,
       GError   **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *program = NULL;
  g_autofree char **argv = NULL;
  const char *identifier;
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

  g_subprocess_launcher_set_child_setup (launcher, acp_process_group_child_setup,
                                         GINT_TO_POINTER (getpid ()), NULL);

  argc = g_strv_length (self->argv);
  argv = g_new0 (char *, argc + 1);
  argv[0] = program;
  for (guint i = 1; i < argc; i++)
    argv[i] = self->argv[i];

  self->subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv,
                                                   &local_error);
  if (self->subprocess == NULL)
    {
      g_set_error (error, ACP_ERROR, ACP_ERROR_SPAWN_FAILED,
                   _("Cannot start the agent “%s”: %s"), self->argv[0], local_error->message);
      return FALSE;
    }

  /* NULL once reaped: an agent that exited at once left no group to end
   * that can still be found by its id */
  identifier = g_subprocess_get_identifier (self->subprocess);
  self->pgid = identifier != NULL ? atoi (identifier) : 0;
  self->group_ended = self->pgid <= 1;
  g_debug ("Agent %p: started %s as pid %d", self, program, (int) self->pgid);

  self->stream = g_simple_io_stream_new (g_subprocess_get_stdout_pipe (self->subprocess),
                                         g_subprocess_get_stdin_pipe (self->subprocess));
  self->connection = acp_connection_new (self->stream);
  setup_connection (self);

  read_stderr (self);
  g_subprocess_wait_async (self->subprocess, self->cancellable,
                           subprocess_wait_cb, weak_ref_new (self));

  return TRUE;
}

/**
 * acp_agent_start_async:
 * @self: a new #AcpAgent
 * @cancellable: (nullable): cancelling it stops the agent
 * @callback: called when the agent is ready or failed
 * @user_data: data for @callback
 *
 * Spawns the agent (unless it was built for a stream) and runs initialize.
 * The start fails with %ACP_ERROR_SPAWN_FAILED, %ACP_ERROR_TIMEOUT,
 * %ACP_ERROR_PROTOCOL_VERSION, %ACP_ERROR_AGENT_EXITED (with the exit status
 * and stderr tail) or the agent's own error; in every case but the exit, the
 * agent is then stopped.
 */
void
acp_agent_start_async (AcpAgent            *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_agent_start_async);

  if (self->state != ACP_AGENT_STATE_NEW)
    {
      g_task_return_new_error (task, ACP_ERROR, ACP_ERROR_FAILED,
                               _("The agent was already started"));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  set_state (self, ACP_AGENT_STATE_STARTING);

  if (self->argv != NULL && !spawn (self, &error))
    {
      /* nothing runs: this agent is over before it began */
      self->exit_error = g_error_copy (error);
      set_state (self, ACP_AGENT_STATE_EXITED);
      g_task_return_error (task, g_steal_pointer (&error));
      g_signal_emit (self, signals[EXITED], 0);
      return;
    }

  self->start_task = g_steal_pointer (&task);
  if (cancellable != NULL)
    self->start_cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (start_cancelled_cb),
                                                   self, NULL);
  if (self->initialize_timeout_ms > 0)
    self->initialize_timeout_id = g_timeout_add (self->initialize_timeout_ms,
                                                 initialize_timeout_cb, self);

  acp_connection_start (self->connection);

  params = build_initialize_params (self);
  _acp_agent_call_async (self, "initialize", params, self->cancellable, initialize_cb, NULL);
}

gboolean
acp_agent_start_finish (AcpAgent      *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_agent_start_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
static void
begin_stop (AcpAgent *self)
{
  if (self->state == ACP_AGENT_STATE_EXITED || self->state == ACP_AGENT_STATE_STOPPING)
    return;

  set_state (self, ACP_AGENT_STATE_STOPPING);

  if (self->subprocess == NULL)
    {
      g_autoptr(GError) reason = NULL;

      reason = g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED, _("The agent was stopped"));
      if (self->connection != NULL && !self->connection_closed)
        acp_connection_close (self->connection, reason);
      /* normally the closed signal has finished the exit already */
      if (self->exit_error == NULL)
        finish_exit (self, reason);
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
    fail_start (self,
                g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The agent was stopped")),
                FALSE);

  /* asked for: an exit that follows is no fault of the agent's */
  self->stop_requested = TRUE;
  cancel_id = g_new0 (gulong, 1);
  g_task_set_task_data (task, cancel_id, g_free);
  g_ptr_array_add (self->stop_tasks, g_object_ref (task));

  if (cancellable != NULL)
    *cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (stop_cancelled_cb), task, NULL);

  begin_stop (self);
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

/* GObject {{{ */

static void
acp_agent_dispose (GObject *object)
{
  AcpAgent *self = ACP_AGENT (object);

  g_cancellable_cancel (self->cancellable);

  g_clear_handle_id (&self->initialize_timeout_id, g_source_remove);
  g_clear_handle_id (&self->term_id, g_source_remove);
  g_clear_handle_id (&self->kill_id, g_source_remove);
  g_clear_handle_id (&self->drain_timeout_id, g_source_remove);
  g_clear_handle_id (&self->orphan_timeout_id, g_source_remove);

  if (self->subprocess != NULL && !self->group_ended)
    {
      /* Nobody stopped it and nobody can any more: do not leave it behind. */
      g_debug ("Agent %p disposed while running: killing it", self);
      acp_process_group_signal (self->pgid, SIGKILL);
    }

  if (self->connection != NULL)
    {
      g_clear_signal_handler (&self->notification_id, self->connection);
      g_clear_signal_handler (&self->request_id, self->connection);
      g_clear_signal_handler (&self->closed_id, self->connection);
      g_clear_signal_handler (&self->message_error_id, self->connection);
      if (self->subprocess != NULL)
        {
          g_autoptr(GError) reason = g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED,
                                                          _("The agent was stopped"));

          acp_connection_close (self->connection, reason);
        }
    }

  g_clear_object (&self->connection);
  g_clear_object (&self->stream);
  g_clear_object (&self->subprocess);

  G_OBJECT_CLASS (acp_agent_parent_class)->dispose (object);
}

static void
acp_agent_finalize (GObject *object)
{
  AcpAgent *self = ACP_AGENT (object);

  g_clear_pointer (&self->argv, g_strfreev);
  g_clear_pointer (&self->env, g_strfreev);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->caps_object, json_object_unref);
  g_clear_pointer (&self->agent_name, g_free);
  g_clear_pointer (&self->agent_title, g_free);
  g_clear_pointer (&self->agent_version, g_free);
  g_clear_pointer (&self->auth_methods, g_ptr_array_unref);
  g_clear_pointer (&self->stderr_buf, g_byte_array_unref);
  if (self->stderr_line != NULL)
    g_string_free (self->stderr_line, TRUE);
  g_clear_object (&self->log);
  g_clear_object (&self->pacer);
  g_clear_pointer (&self->stray_output, g_free);
  g_clear_pointer (&self->stop_tasks, g_ptr_array_unref);
  g_clear_pointer (&self->held_calls, g_array_unref);
  g_clear_error (&self->exit_error);

  G_OBJECT_CLASS (acp_agent_parent_class)->finalize (object);
}

static void
acp_agent_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  AcpAgent *self = ACP_AGENT (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_agent_class_init (AcpAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /* Writing to an agent that died must be an EPIPE error for the connection,
   * not the end of this process (GIO does the same for sockets). */
  signal (SIGPIPE, SIG_IGN);

  object_class->dispose = acp_agent_dispose;
  object_class->finalize = acp_agent_finalize;
  object_class->get_property = acp_agent_get_property;

  /**
   * AcpAgent:state:
   *
   * Where the agent is in its life.
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       ACP_TYPE_AGENT_STATE, ACP_AGENT_STATE_NEW,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AcpAgent::session-update:
   * @self: the agent
   * @session_id: the session the update is for
   * @update: the `update` object; it has a string `sessionUpdate`
   *
   * A well-formed session/update notification arrived.
   */
  signals[SESSION_UPDATE] =
    g_signal_new ("session-update",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  acp_marshal_VOID__STRING_BOXED,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[SESSION_UPDATE], G_TYPE_FROM_CLASS (klass),
                              acp_marshal_VOID__STRING_BOXEDv);

  /**
   * AcpAgent::request:
   * @self: the agent
   * @session_id: (nullable): params.sessionId when it is a string
   * @request: the request; reply to it (now or later) to handle it
   *
   * An agent→client request arrived. Return %TRUE from a handler that takes
   * the request (and then must reply to it); when no handler does, the agent
   * gets -32601 (method not found).
   *
   * Returns: %TRUE when handled
   */
  signals[REQUEST] =
    g_signal_new ("request",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  ACP_TYPE_INCOMING_REQUEST);

  /**
   * AcpAgent::protocol-error:
   * @self: the agent
   * @error: what was wrong (%ACP_ERROR_INVALID_MESSAGE, or
   *   %ACP_ERROR_LINE_TOO_LONG for a message over the connection's limit)
   *
   * The agent sent a message of the wrong shape, or too long; it was dropped.
   */
  signals[PROTOCOL_ERROR] =
    g_signal_new ("protocol-error",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AcpAgent::exited:
   * @self: the agent
   *
   * The agent process is gone (or its stream closed), whether it was stopped
   * or not. acp_agent_get_exit_error() says why; every pending call has
   * failed with that error.
   */
  signals[EXITED] =
    g_signal_new ("exited",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
acp_agent_init (AcpAgent *self)
{
  self->state = ACP_AGENT_STATE_NEW;
  self->initialize_timeout_ms = DEFAULT_INITIALIZE_TIMEOUT_MS;
  self->grace_ms = DEFAULT_STOP_GRACE_MS;
  self->exit_status = -1;
  /* until there is a process */
  self->group_ended = TRUE;
  self->cancellable = g_cancellable_new ();
  self->auth_methods = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_auth_method_unref);
  self->stderr_buf = g_byte_array_new ();
  self->stderr_line = g_string_new (NULL);
  self->log = acp_traffic_log_new (TRAFFIC_LOG_SIZE);
  self->stop_tasks = g_ptr_array_new_with_free_func (g_object_unref);
  self->held_calls = g_array_new (FALSE, TRUE, sizeof (HeldCall));
  g_array_set_clear_func (self->held_calls, held_call_clear);
}

/**
 * acp_agent_new:
 * @argv: the command; argv[0] is looked up on PATH
 * @env: (nullable): "NAME=VALUE" entries added to (or replacing in) the
 *   inherited environment
 * @cwd: (nullable): the working directory; %NULL for the current one
 *
 * Returns: (transfer full): a new agent; nothing runs until
 *   acp_agent_start_async()
 */
AcpAgent *
acp_agent_new (const char * const *argv,
               const char * const *env,
               const char         *cwd)
{
  AcpAgent *self;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL && argv[0][0] != '\0', NULL);

  self = g_object_new (ACP_TYPE_AGENT, NULL);
  self->argv = g_strdupv ((char **) argv);
  self->env = g_strdupv ((char **) env);
  self->cwd = g_strdup (cwd);

  return self;
}

/**
 * acp_agent_new_for_stream:
 * @stream: a stream connected to an agent
 *
 * An agent that is already running at the other end of @stream (tests, or
 * an agent started elsewhere). It "exits" when the connection closes.
 *
 * Returns: (transfer full): a new agent
 */
AcpAgent *
acp_agent_new_for_stream (GIOStream *stream)
{
  AcpAgent *self;

  g_return_val_if_fail (G_IS_IO_STREAM (stream), NULL);

  self = g_object_new (ACP_TYPE_AGENT, NULL);
  self->stream = g_object_ref (stream);
  self->connection = acp_connection_new (stream);
  setup_connection (self);

  return self;
}

/* }}} */

/* accessors {{{ */

void
acp_agent_set_client_capabilities (AcpAgent              *self,
                                   AcpClientCapabilities  caps)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (self->state == ACP_AGENT_STATE_NEW);

  self->client_caps = caps;
}

AcpClientCapabilities
acp_agent_get_client_capabilities (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), ACP_CLIENT_CAP_NONE);

  return self->client_caps;
}

/* 0 disables the timeout */
void
acp_agent_set_initialize_timeout (AcpAgent *self,
                                  guint     timeout_ms)
{
  g_return_if_fail (ACP_IS_AGENT (self));

  self->initialize_timeout_ms = timeout_ms;
}

void
acp_agent_set_stop_grace_period (AcpAgent *self,
                                 guint     grace_ms)
{
  g_return_if_fail (ACP_IS_AGENT (self));

  self->grace_ms = grace_ms;
}

/**
 * acp_agent_set_pacer:
 * @self: a #AcpAgent
 * @pacer: (nullable): the frames its messages are dispatched in step with
 *
 * Gives @pacer to the agent's connection (see acp_connection_set_pacer()),
 * now and once the agent is spawned; %NULL dispatches in time slices only.
 */
void
acp_agent_set_pacer (AcpAgent *self,
                     AcpPacer *pacer)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (pacer == NULL || ACP_IS_PACER (pacer));

  g_set_object (&self->pacer, pacer);
  if (self->connection != NULL)
    acp_connection_set_pacer (self->connection, pacer);
}

/**
 * acp_agent_get_pacer:
 * @self: a #AcpAgent
 *
 * Returns: (transfer none) (nullable): the pacer given to its connection
 */
AcpPacer *
acp_agent_get_pacer (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->pacer;
}

guint
acp_agent_get_n_joined (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), 1);

  return self->connection != NULL ? acp_connection_get_n_joined (self->connection) : 1;
}

AcpAgentState
acp_agent_get_state (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), ACP_AGENT_STATE_NEW);

  return self->state;
}

/* Returns: (transfer none) (nullable): NULL before a process agent started */
AcpConnection *
acp_agent_get_connection (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->connection;
}

AcpAgentCapabilities
acp_agent_get_capabilities (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), ACP_AGENT_CAP_NONE);

  return self->caps;
}

gboolean
acp_agent_has_capability (AcpAgent             *self,
                          AcpAgentCapabilities  cap)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);

  return cap != 0 && (self->caps & cap) == cap;
}

/**
 * acp_agent_supports_mcp_transport:
 * @self: an #AcpAgent
 * @transport: an #AcpMcpTransport
 *
 * Returns: %TRUE for stdio (every agent must support it), and for another
 *   transport when the agent's mcpCapabilities has the transport's name
 *   true. Before the agent is ready, only stdio.
 */
gboolean
acp_agent_supports_mcp_transport (AcpAgent        *self,
                                  AcpMcpTransport  transport)
{
  const char *name;

  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    return TRUE;

  name = acp_mcp_transport_to_string (transport);
  return name != NULL &&
         is_true (acp_json_get_object (self->caps_object, "mcpCapabilities"), name);
}

JsonObject *
acp_agent_get_capabilities_object (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->caps_object;
}

guint
acp_agent_get_protocol_version (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), 0);

  return self->protocol_version;
}

const char *
acp_agent_get_agent_name (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->agent_name;
}

const char *
acp_agent_get_agent_title (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->agent_title;
}

const char *
acp_agent_get_agent_version (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->agent_version;
}

GPtrArray *
acp_agent_get_auth_methods (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->auth_methods;
}

/* Returns: (transfer none) (nullable): the advertised method with that id */
AcpAuthMethod *
acp_agent_get_auth_method (AcpAgent   *self,
                           const char *method_id)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);
  g_return_val_if_fail (method_id != NULL, NULL);

  for (guint i = 0; i < self->auth_methods->len; i++)
    {
      AcpAuthMethod *method = g_ptr_array_index (self->auth_methods, i);

      if (g_str_equal (acp_auth_method_get_id (method), method_id))
        return method;
    }

  return NULL;
}

gboolean
acp_agent_get_stop_requested (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);

  return self->stop_requested;
}

/**
 * acp_agent_get_traffic_log:
 * @self: an #AcpAgent
 *
 * Returns: (transfer none): the last messages to and from the agent and the
 *   lines of its stderr
 */
AcpTrafficLog *
acp_agent_get_traffic_log (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->log;
}

GPid
acp_agent_get_pid (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), 0);

  return self->pgid;
}

int
acp_agent_get_exit_status (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), -1);

  return self->exit_status;
}

const GError *
acp_agent_get_exit_error (AcpAgent *self)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);

  return self->exit_error;
}

/* }}} */
