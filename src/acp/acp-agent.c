/* acp-agent.c: an ACP agent process and the client side of its protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file holds the type: its state and signals, the generic call to the
 * agent (_acp_agent_call_async()) and the accessors. The other jobs (the
 * process, the start, the agent→client traffic, the typed client→agent
 * calls) have files of their own, listed in acp-agent-private.h.
 */

#include "config.h"

#include <signal.h>

#include <glib/gi18n.h>

#include "acp-agent-private.h"
#include "acp-marshal.h"
#include "acp-process-group.h"

#define DEFAULT_INITIALIZE_TIMEOUT_MS 60000
#define DEFAULT_STOP_GRACE_MS         2000
/* The entries of the traffic log kept: messages and stderr lines. */
#define TRAFFIC_LOG_SIZE              5000

G_DEFINE_ENUM_TYPE (AcpAgentState, acp_agent_state,
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_NEW, "new"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_STARTING, "starting"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_READY, "ready"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_STOPPING, "stopping"),
                    G_DEFINE_ENUM_VALUE (ACP_AGENT_STATE_EXITED, "exited"))

G_DEFINE_FINAL_TYPE (AcpAgent, acp_agent, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

enum {
  UPDATE,
  REQUEST,
  PROTOCOL_ERROR,
  EXITED,
  PROMPT_SENT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
_acp_agent_held_call_clear (gpointer data)
{
  HeldCall *held = data;

  g_clear_object (&held->task);
  g_clear_error (&held->error);
}

void
_acp_agent_set_state (AcpAgent      *self,
                      AcpAgentState  state)
{
  if (self->state == state)
    return;

  g_debug ("Agent %p: state %d → %d", self, self->state, state);
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* signals {{{ */

void
_acp_agent_emit_update (AcpAgent  *self,
                        AcpUpdate *update)
{
  g_signal_emit (self, signals[UPDATE], 0, update);
}

gboolean
_acp_agent_emit_request (AcpAgent           *self,
                         const char         *session_id,
                         AcpIncomingRequest *request)
{
  gboolean handled = FALSE;

  g_signal_emit (self, signals[REQUEST], 0, session_id, request, &handled);

  return handled;
}

void
_acp_agent_emit_protocol_error (AcpAgent     *self,
                                const GError *error)
{
  g_signal_emit (self, signals[PROTOCOL_ERROR], 0, error);
}

void
_acp_agent_emit_exited (AcpAgent *self)
{
  g_signal_emit (self, signals[EXITED], 0);
}

void
_acp_agent_emit_prompt_sent (AcpAgent   *self,
                             const char *session_id,
                             JsonArray  *prompt)
{
  g_signal_emit (self, signals[PROMPT_SENT], 0, session_id, prompt);
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
   * AcpAgent::update:
   * @self: the agent
   * @update: a session/update notification, taken apart
   *
   * A well-formed session/update notification arrived, or several: text
   * chunks of one message read together come as one update holding all
   * their text (acp_update_get_n_notifications()).
   */
  signals[UPDATE] =
    g_signal_new ("update",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__BOXED,
                  G_TYPE_NONE, 1,
                  ACP_TYPE_UPDATE | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[UPDATE], G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__BOXEDv);

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

  /**
   * AcpAgent::prompt-sent:
   * @self: the agent
   * @session_id: the session
   * @prompt: (element-type JsonObject): the content blocks
   *
   * A session/prompt request goes out now (acp_agent_prompt_async()), for
   * a client that keeps a history of its own: with the
   * session/update notifications (#AcpAgent::update), it is all of a
   * session's turns.
   */
  signals[PROMPT_SENT] =
    g_signal_new ("prompt-sent",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_ARRAY | G_SIGNAL_TYPE_STATIC_SCOPE);
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
  g_array_set_clear_func (self->held_calls, _acp_agent_held_call_clear);
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
  _acp_agent_setup_connection (self);

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
