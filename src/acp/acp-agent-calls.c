/* acp-agent-calls.c: the typed client → agent methods of AcpAgent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every call checks, before anything is written, that the agent is ready and
 * advertised what the call needs (capability gating), and every result is
 * checked for the shape the schema gives it.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-agent-private.h"

static gboolean
is_string_node (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
require_capability (AcpAgent              *self,
                    AcpAgentCapabilities   cap,
                    const char            *method,
                    const char            *capability,
                    GError               **error)
{
  if (acp_agent_has_capability (self, cap))
    return TRUE;

  g_set_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED,
               _("The agent does not support %s (it did not advertise %s)"),
               method, capability);

  return FALSE;
}

static gboolean
check_mcp_server (AcpAgent      *self,
                  AcpMcpServer  *server,
                  GError       **error)
{
  const char *transport = acp_mcp_server_get_transport_name (server);
  g_autofree char *capability = NULL;

  if (!acp_mcp_server_validate (server, error))
    return FALSE;

  if (acp_agent_supports_mcp_transport (self, acp_mcp_server_get_transport (server)))
    return TRUE;

  capability = g_strconcat ("mcpCapabilities.", transport, NULL);
  g_set_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED,
               _("The agent does not support MCP servers over %s, so “%s” cannot be used "
                 "(it did not advertise %s)"),
               transport, acp_mcp_server_get_name (server), capability);

  return FALSE;
}

/**
 * acp_agent_can_use_mcp_server:
 * @self: an #AcpAgent
 * @server: an #AcpMcpServer
 *
 * Returns: whether @server is valid and its transport is one the agent
 *   supports (acp_agent_supports_mcp_transport()).
 */
gboolean
acp_agent_can_use_mcp_server (AcpAgent     *self,
                              AcpMcpServer *server)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);
  g_return_val_if_fail (ACP_IS_MCP_SERVER (server), FALSE);

  return check_mcp_server (self, server, NULL);
}

static GError *
invalid_result (const char *method,
                const char *what)
{
  return g_error_new (ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                      _("The agent's answer to %s is not valid: %s"), method, what);
}

/* Builds the params of session/new, session/load, session/resume and session/fork. */
static JsonObject *
build_session_params (AcpAgent            *self,
                      const char          *method,
                      const char          *session_id,
                      const char          *cwd,
                      GPtrArray           *mcp_servers,
                      const char * const  *additional_directories,
                      GError             **error)
{
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(JsonArray) servers = json_array_new ();

  if (cwd == NULL || !g_path_is_absolute (cwd))
    {
      g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT,
                   _("The working directory of a session must be an absolute path, not “%s”"),
                   cwd != NULL ? cwd : "");
      return NULL;
    }

  for (guint i = 0; mcp_servers != NULL && i < mcp_servers->len; i++)
    {
      AcpMcpServer *server = g_ptr_array_index (mcp_servers, i);

      g_return_val_if_fail (ACP_IS_MCP_SERVER (server), NULL);

      if (!check_mcp_server (self, server, error))
        return NULL;

      json_array_add_element (servers, acp_mcp_server_to_json (server));
    }

  if (additional_directories != NULL && additional_directories[0] != NULL)
    {
      if (!require_capability (self, ACP_AGENT_CAP_ADDITIONAL_DIRECTORIES, method,
                               "sessionCapabilities.additionalDirectories", error))
        return NULL;

      for (guint i = 0; additional_directories[i] != NULL; i++)
        {
          if (!g_path_is_absolute (additional_directories[i]))
            {
              g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT,
                           _("An additional directory must be an absolute path, not “%s”"),
                           additional_directories[i]);
              return NULL;
            }
        }
    }

  params = json_object_new ();
  if (session_id != NULL)
    json_object_set_string_member (params, "sessionId", session_id);
  json_object_set_string_member (params, "cwd", cwd);
  json_object_set_array_member (params, "mcpServers", g_steal_pointer (&servers));

  if (additional_directories != NULL && additional_directories[0] != NULL)
    {
      JsonArray *dirs = json_array_new ();

      for (guint i = 0; additional_directories[i] != NULL; i++)
        json_array_add_string_element (dirs, additional_directories[i]);
      json_object_set_array_member (params, "additionalDirectories", dirs);
    }

  return g_steal_pointer (&params);
}

/* The params of the calls that name a session and maybe one more string. */
static JsonObject *
session_params (const char *session_id,
                const char *member,
                const char *value)
{
  JsonObject *params = json_object_new ();

  json_object_set_string_member (params, "sessionId", session_id);
  if (member != NULL)
    json_object_set_string_member (params, member, value);

  return params;
}

/* the common steps of a call {{{ */

/*
 * Reads the agent's answer (an object) into @task with g_task_return_*(), or
 * returns what is wrong with it: a translated phrase for invalid_result().
 */
typedef const char *(*ReadResultFunc) (GTask      *task,
                                       JsonObject *result);

typedef struct
{
  const char           *method;
  /* what the agent must have advertised, and its name in the schema;
   * ACP_AGENT_CAP_NONE for calls every agent takes */
  AcpAgentCapabilities  cap;
  const char           *capability;
  /* whether a null answer counts as an empty object */
  gboolean              null_is_empty;
  ReadResultFunc        read_result;
} AgentCall;

static void
call_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  const AgentCall *call = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonObject) answer = NULL;
  GError *error = NULL;
  const char *problem;

  node = _acp_agent_call_finish (ACP_AGENT (object), result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    answer = json_object_ref (json_node_get_object (node));
  else if (JSON_NODE_HOLDS_NULL (node) && call->null_is_empty)
    answer = json_object_new ();
  else
    {
      g_task_return_error (task, invalid_result (call->method, _("not an object")));
      return;
    }

  problem = call->read_result (task, answer);
  if (problem != NULL)
    g_task_return_error (task, invalid_result (call->method, problem));
}

/*
 * Starts @call: a task for @source_tag, failed at once (and NULL returned)
 * unless the agent is ready and advertised the capability the call needs.
 * Hand the task to send_call() with the params.
 */
static GTask *
begin_call (AcpAgent            *self,
            const AgentCall     *call,
            gpointer             source_tag,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;

  g_task_set_source_tag (task, source_tag);
  g_task_set_name (task, call->method);
  g_task_set_task_data (task, (gpointer) call, NULL);

  if (!_acp_agent_check_ready (self, &error) ||
      (call->cap != ACP_AGENT_CAP_NONE &&
       !require_capability (self, call->cap, call->method, call->capability, &error)))
    {
      g_task_return_error (task, error);
      return NULL;
    }

  return g_steal_pointer (&task);
}

/* Sends the call of @task (consumed) with @params (consumed), or fails it
 * with @error (consumed) when building the params failed. */
static void
send_call (AcpAgent   *self,
           GTask      *task,
           JsonObject *params,
           GError     *error)
{
  g_autoptr(JsonObject) owned = params;
  const AgentCall *call = g_task_get_task_data (task);

  if (error != NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  _acp_agent_call_async (self, call->method, owned, g_task_get_cancellable (task),
                         call_done_cb, task);
}

static gboolean
boolean_finish (AcpAgent      *self,
                GAsyncResult  *result,
                gpointer       source_tag,
                GError       **error)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static gpointer
pointer_finish (AcpAgent      *self,
                GAsyncResult  *result,
                gpointer       source_tag,
                GError       **error)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Results that carry nothing: an object (usually {}), or null. */
static const char *
read_empty (GTask      *task,
            JsonObject *result)
{
  g_task_return_boolean (task, TRUE);
  return NULL;
}

/* load and resume: an object, or null (which load's documentation shows) */
static const char *
read_object (GTask      *task,
             JsonObject *result)
{
  g_task_return_pointer (task, json_object_ref (result), (GDestroyNotify) json_object_unref);
  return NULL;
}

/* }}} */

/* authenticate {{{ */

static const AgentCall authenticate_call = {
  "authenticate", ACP_AGENT_CAP_NONE, NULL, TRUE, read_empty
};

void
acp_agent_authenticate_async (AcpAgent            *self,
                              const char          *method_id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;
  AcpAuthMethod *method;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (method_id != NULL);

  task = begin_call (self, &authenticate_call, acp_agent_authenticate_async,
                     cancellable, callback, user_data);
  if (task == NULL)
    return;

  method = acp_agent_get_auth_method (self, method_id);
  if (method == NULL)
    error = g_error_new (ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT,
                         _("The agent does not offer the authentication method “%s”"),
                         method_id);
  else if (!g_str_equal (acp_auth_method_get_kind (method), "agent"))
    error = g_error_new (ACP_ERROR, ACP_ERROR_NOT_SUPPORTED,
                         _("The authentication method “%s” is of type “%s”; "
                           "only methods of type “agent” go through authenticate"),
                         method_id, acp_auth_method_get_kind (method));
  else
    {
      params = json_object_new ();
      json_object_set_string_member (params, "methodId", method_id);
    }

  send_call (self, task, params, error);
}

gboolean
acp_agent_authenticate_finish (AcpAgent      *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  return boolean_finish (self, result, acp_agent_authenticate_async, error);
}

/* }}} */

/* logout {{{ */

static const AgentCall logout_call = {
  "logout", ACP_AGENT_CAP_LOGOUT, "auth.logout", TRUE, read_empty
};

void
acp_agent_logout_async (AcpAgent            *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (ACP_IS_AGENT (self));

  task = begin_call (self, &logout_call, acp_agent_logout_async, cancellable, callback, user_data);
  if (task != NULL)
    send_call (self, task, json_object_new (), NULL);
}

gboolean
acp_agent_logout_finish (AcpAgent      *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  return boolean_finish (self, result, acp_agent_logout_async, error);
}

/* }}} */

/* session/new, session/load, session/resume, session/fork {{{ */

static const char *
read_new_session (GTask      *task,
                  JsonObject *result)
{
  if (!is_string_node (json_object_get_member (result, "sessionId")) ||
      *json_object_get_string_member (result, "sessionId") == '\0')
    return _("no sessionId");

  g_task_return_pointer (task, json_object_ref (result), (GDestroyNotify) json_object_unref);
  return NULL;
}

static const AgentCall new_session_call = {
  "session/new", ACP_AGENT_CAP_NONE, NULL, FALSE, read_new_session
};
static const AgentCall load_session_call = {
  "session/load", ACP_AGENT_CAP_LOAD_SESSION, "loadSession", TRUE, read_object
};
static const AgentCall resume_session_call = {
  "session/resume", ACP_AGENT_CAP_SESSION_RESUME, "sessionCapabilities.resume", TRUE, read_object
};
static const AgentCall fork_session_call = {
  "session/fork", ACP_AGENT_CAP_SESSION_FORK, "sessionCapabilities.fork", FALSE, read_new_session
};

static void
session_call (AcpAgent            *self,
              const AgentCall     *call,
              gpointer             source_tag,
              const char          *session_id,
              const char          *cwd,
              GPtrArray           *mcp_servers,
              const char * const  *additional_directories,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  GTask *task;
  GError *error = NULL;
  JsonObject *params;

  task = begin_call (self, call, source_tag, cancellable, callback, user_data);
  if (task == NULL)
    return;

  params = build_session_params (self, call->method, session_id, cwd, mcp_servers,
                                 additional_directories, &error);
  send_call (self, task, params, error);
}

void
acp_agent_new_session_async (AcpAgent            *self,
                             const char          *cwd,
                             GPtrArray           *mcp_servers,
                             const char * const  *additional_directories,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (ACP_IS_AGENT (self));

  session_call (self, &new_session_call, acp_agent_new_session_async, NULL, cwd, mcp_servers,
                additional_directories, cancellable, callback, user_data);
}

JsonObject *
acp_agent_new_session_finish (AcpAgent      *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  return pointer_finish (self, result, acp_agent_new_session_async, error);
}

void
acp_agent_load_session_async (AcpAgent            *self,
                              const char          *session_id,
                              const char          *cwd,
                              GPtrArray           *mcp_servers,
                              const char * const  *additional_directories,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);

  session_call (self, &load_session_call, acp_agent_load_session_async, session_id, cwd,
                mcp_servers, additional_directories, cancellable, callback, user_data);
}

JsonObject *
acp_agent_load_session_finish (AcpAgent      *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  return pointer_finish (self, result, acp_agent_load_session_async, error);
}

void
acp_agent_resume_session_async (AcpAgent            *self,
                                const char          *session_id,
                                const char          *cwd,
                                GPtrArray           *mcp_servers,
                                const char * const  *additional_directories,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);

  session_call (self, &resume_session_call, acp_agent_resume_session_async, session_id, cwd,
                mcp_servers, additional_directories, cancellable, callback, user_data);
}

JsonObject *
acp_agent_resume_session_finish (AcpAgent      *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return pointer_finish (self, result, acp_agent_resume_session_async, error);
}

/* session/fork is unstable: only sessionId and cwd are required, and the
 * answer is a new session's, as for session/new. */
void
acp_agent_fork_session_async (AcpAgent            *self,
                              const char          *session_id,
                              const char          *cwd,
                              GPtrArray           *mcp_servers,
                              const char * const  *additional_directories,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);

  session_call (self, &fork_session_call, acp_agent_fork_session_async, session_id, cwd,
                mcp_servers, additional_directories, cancellable, callback, user_data);
}

JsonObject *
acp_agent_fork_session_finish (AcpAgent      *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  return pointer_finish (self, result, acp_agent_fork_session_async, error);
}

/* }}} */

/* session/close, session/delete, session/set_mode {{{ */

static const AgentCall close_session_call = {
  "session/close", ACP_AGENT_CAP_SESSION_CLOSE, "sessionCapabilities.close", TRUE, read_empty
};
static const AgentCall delete_session_call = {
  "session/delete", ACP_AGENT_CAP_SESSION_DELETE, "sessionCapabilities.delete", TRUE, read_empty
};
static const AgentCall set_mode_call = {
  "session/set_mode", ACP_AGENT_CAP_NONE, NULL, TRUE, read_empty
};

static void
session_id_call (AcpAgent            *self,
                 const AgentCall     *call,
                 gpointer             source_tag,
                 const char          *session_id,
                 const char          *extra_member,
                 const char          *extra_value,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  GTask *task = begin_call (self, call, source_tag, cancellable, callback, user_data);

  if (task != NULL)
    send_call (self, task, session_params (session_id, extra_member, extra_value), NULL);
}

void
acp_agent_close_session_async (AcpAgent            *self,
                               const char          *session_id,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);

  session_id_call (self, &close_session_call, acp_agent_close_session_async,
                   session_id, NULL, NULL, cancellable, callback, user_data);
}

gboolean
acp_agent_close_session_finish (AcpAgent      *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return boolean_finish (self, result, acp_agent_close_session_async, error);
}

void
acp_agent_delete_session_async (AcpAgent            *self,
                                const char          *session_id,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);

  session_id_call (self, &delete_session_call, acp_agent_delete_session_async,
                   session_id, NULL, NULL, cancellable, callback, user_data);
}

gboolean
acp_agent_delete_session_finish (AcpAgent      *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return boolean_finish (self, result, acp_agent_delete_session_async, error);
}

void
acp_agent_set_mode_async (AcpAgent            *self,
                          const char          *session_id,
                          const char          *mode_id,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (mode_id != NULL);

  session_id_call (self, &set_mode_call, acp_agent_set_mode_async,
                   session_id, "modeId", mode_id, cancellable, callback, user_data);
}

gboolean
acp_agent_set_mode_finish (AcpAgent      *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return boolean_finish (self, result, acp_agent_set_mode_async, error);
}

/* }}} */

/* session/list {{{ */

static gboolean
sanitize_session_info (JsonNode *node)
{
  JsonObject *info;
  const char *optional_strings[] = { "title", "updatedAt" };
  JsonNode *dirs;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  info = json_node_get_object (node);
  if (!is_string_node (json_object_get_member (info, "sessionId")) ||
      *json_object_get_string_member (info, "sessionId") == '\0' ||
      !is_string_node (json_object_get_member (info, "cwd")))
    return FALSE;

  /* optional members of the wrong type are dropped, the entry is kept */
  for (guint i = 0; i < G_N_ELEMENTS (optional_strings); i++)
    {
      JsonNode *member = json_object_get_member (info, optional_strings[i]);

      if (member != NULL && !JSON_NODE_HOLDS_NULL (member) && !is_string_node (member))
        json_object_remove_member (info, optional_strings[i]);
    }

  dirs = json_object_get_member (info, "additionalDirectories");
  if (dirs != NULL && !JSON_NODE_HOLDS_ARRAY (dirs))
    json_object_remove_member (info, "additionalDirectories");

  return TRUE;
}

static const char *
read_session_list (GTask      *task,
                   JsonObject *page)
{
  JsonArray *sessions;
  JsonArray *valid;
  JsonNode *member;

  member = json_object_get_member (page, "sessions");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    return _("no sessions array");

  sessions = json_node_get_array (member);
  valid = json_array_new ();
  for (guint i = 0; i < json_array_get_length (sessions); i++)
    {
      JsonNode *entry = json_array_get_element (sessions, i);

      if (sanitize_session_info (entry))
        json_array_add_element (valid, json_node_ref (entry));
      else
        g_debug ("session/list: dropping malformed entry %u", i);
    }
  json_object_set_array_member (page, "sessions", valid);

  member = json_object_get_member (page, "nextCursor");
  if (member != NULL && (!is_string_node (member) || *json_node_get_string (member) == '\0'))
    json_object_remove_member (page, "nextCursor");

  g_task_return_pointer (task, json_object_ref (page), (GDestroyNotify) json_object_unref);
  return NULL;
}

static const AgentCall list_sessions_call = {
  "session/list", ACP_AGENT_CAP_SESSION_LIST, "sessionCapabilities.list", FALSE, read_session_list
};

void
acp_agent_list_sessions_async (AcpAgent            *self,
                               const char          *cwd,
                               const char          *cursor,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  JsonObject *params;

  g_return_if_fail (ACP_IS_AGENT (self));

  task = begin_call (self, &list_sessions_call, acp_agent_list_sessions_async,
                     cancellable, callback, user_data);
  if (task == NULL)
    return;

  params = json_object_new ();
  if (cwd != NULL)
    json_object_set_string_member (params, "cwd", cwd);
  if (cursor != NULL)
    json_object_set_string_member (params, "cursor", cursor);

  send_call (self, task, params, NULL);
}

JsonObject *
acp_agent_list_sessions_finish (AcpAgent      *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return pointer_finish (self, result, acp_agent_list_sessions_async, error);
}

/* }}} */

/* session/prompt and session/cancel {{{ */

static const char *
read_stop_reason (GTask      *task,
                  JsonObject *result)
{
  JsonNode *stop_reason = json_object_get_member (result, "stopReason");

  if (!is_string_node (stop_reason))
    return _("no stopReason");

  g_task_return_pointer (task, g_strdup (json_node_get_string (stop_reason)), g_free);
  return NULL;
}

static const AgentCall prompt_call = {
  "session/prompt", ACP_AGENT_CAP_NONE, NULL, FALSE, read_stop_reason
};

void
acp_agent_prompt_async (AcpAgent            *self,
                        const char          *session_id,
                        JsonArray           *prompt,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;
  JsonObject *params;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (prompt != NULL);

  task = begin_call (self, &prompt_call, acp_agent_prompt_async, cancellable, callback, user_data);
  if (task == NULL)
    return;

  params = session_params (session_id, NULL, NULL);
  json_object_set_array_member (params, "prompt", json_array_ref (prompt));
  _acp_agent_emit_prompt_sent (self, session_id, prompt);
  send_call (self, task, params, NULL);
}

/* Returns: (transfer full): the stop reason */
char *
acp_agent_prompt_finish (AcpAgent      *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  return pointer_finish (self, result, acp_agent_prompt_async, error);
}

/**
 * acp_agent_cancel:
 * @self: an #AcpAgent
 * @session_id: the session whose turn to cancel
 * @error: return location for an error
 *
 * Sends the session/cancel notification. The running prompt then ends with
 * the stop reason "cancelled"; the caller must answer the session's open
 * permission requests with the "cancelled" outcome.
 *
 * Returns: whether the notification was queued
 */
gboolean
acp_agent_cancel (AcpAgent    *self,
                  const char  *session_id,
                  GError     **error)
{
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_acp_agent_check_ready (self, error))
    return FALSE;

  params = json_object_new ();
  json_object_set_string_member (params, "sessionId", session_id);
  node = json_node_init_object (json_node_alloc (), params);

  return acp_connection_notify (acp_agent_get_connection (self), "session/cancel", node, error);
}

/* }}} */

/* session/set_config_option {{{ */

static const char *
read_config_options (GTask      *task,
                     JsonObject *result)
{
  JsonNode *options = json_object_get_member (result, "configOptions");

  if (options == NULL || !JSON_NODE_HOLDS_ARRAY (options))
    return _("no configOptions array");

  g_task_return_pointer (task, json_array_ref (json_node_get_array (options)),
                         (GDestroyNotify) json_array_unref);
  return NULL;
}

static const AgentCall set_config_option_call = {
  "session/set_config_option", ACP_AGENT_CAP_NONE, NULL, FALSE, read_config_options
};

void
acp_agent_set_config_option_async (AcpAgent            *self,
                                   const char          *session_id,
                                   const char          *config_id,
                                   JsonNode            *value,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;
  GType value_type = G_TYPE_INVALID;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (config_id != NULL);
  g_return_if_fail (value != NULL);

  task = begin_call (self, &set_config_option_call, acp_agent_set_config_option_async,
                     cancellable, callback, user_data);
  if (task == NULL)
    return;

  if (JSON_NODE_HOLDS_VALUE (value))
    value_type = json_node_get_value_type (value);

  if (value_type != G_TYPE_STRING && value_type != G_TYPE_BOOLEAN)
    error = g_error_new (ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT,
                         _("The value of config option “%s” must be a string or a boolean"),
                         config_id);
  else if (value_type == G_TYPE_BOOLEAN &&
           (acp_agent_get_client_capabilities (self) & ACP_CLIENT_CAP_BOOLEAN_CONFIG) == 0)
    error = g_error_new (ACP_ERROR, ACP_ERROR_NOT_SUPPORTED,
                         _("Cannot send session/set_config_option with a boolean value for “%s”: "
                           "the client did not advertise session.configOptions.boolean"),
                         config_id);
  else
    {
      params = session_params (session_id, "configId", config_id);
      if (value_type == G_TYPE_BOOLEAN)
        json_object_set_string_member (params, "type", "boolean");
      json_object_set_member (params, "value", json_node_copy (value));
    }

  send_call (self, task, params, error);
}

/* Returns: (transfer full): the full new configOptions array */
JsonArray *
acp_agent_set_config_option_finish (AcpAgent      *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  return pointer_finish (self, result, acp_agent_set_config_option_async, error);
}

/* }}} */
