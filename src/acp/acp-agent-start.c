/* acp-agent-start.c: starting the agent: the initialize handshake
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * acp_agent_start_async() spawns the agent (acp-agent-process.c) and runs
 * initialize, with a timeout and the caller's cancellable; a failed start
 * stops the agent again. The answer gives the protocol version (only ours
 * is accepted), the agent's capabilities, its name and its auth methods,
 * which the accessors at the end of this file return.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-agent-private.h"
#include "acp-json.h"

/* start {{{ */

void
_acp_agent_fail_start (AcpAgent *self,
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
    _acp_agent_begin_stop (self);
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
      _acp_agent_fail_start (self, g_steal_pointer (&error), TRUE);
      return;
    }

  if (!parse_initialize_result (self, node, &error))
    {
      _acp_agent_fail_start (self, g_steal_pointer (&error), TRUE);
      return;
    }

  g_clear_handle_id (&self->initialize_timeout_id, g_source_remove);
  task = g_steal_pointer (&self->start_task);
  if (self->start_cancel_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (task), self->start_cancel_id);
  self->start_cancel_id = 0;

  _acp_agent_set_state (self, ACP_AGENT_STATE_READY);
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

  _acp_agent_fail_start (self, error, TRUE);

  return G_SOURCE_REMOVE;
}

static gboolean
start_cancelled_idle_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  if (self->start_task != NULL &&
      g_cancellable_is_cancelled (g_task_get_cancellable (self->start_task)))
    _acp_agent_fail_start (self,
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
  if ((self->client_caps & ACP_CLIENT_CAP_PLAN) != 0)
    json_object_set_object_member (caps, "plan", json_object_new ());
  json_object_set_object_member (params, "clientCapabilities", caps);

  json_object_set_string_member (info, "name", "palaver");
  json_object_set_string_member (info, "title", "Palaver");
  json_object_set_string_member (info, "version", PACKAGE_VERSION);
  json_object_set_object_member (params, "clientInfo", info);

  return params;
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

  _acp_agent_set_state (self, ACP_AGENT_STATE_STARTING);

  if (self->argv != NULL && !_acp_agent_spawn (self, &error))
    {
      /* nothing runs: this agent is over before it began */
      self->exit_error = g_error_copy (error);
      _acp_agent_set_state (self, ACP_AGENT_STATE_EXITED);
      g_task_return_error (task, g_steal_pointer (&error));
      _acp_agent_emit_exited (self);
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

/* what initialize told {{{ */

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

/* }}} */
