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
  AcpAgentCapabilities cap;
  const char *capability;

  if (!acp_mcp_server_validate (server, error))
    return FALSE;

  switch (acp_mcp_server_get_transport (server))
    {
    case ACP_MCP_TRANSPORT_HTTP:
      cap = ACP_AGENT_CAP_MCP_HTTP;
      capability = "mcpCapabilities.http";
      break;
    case ACP_MCP_TRANSPORT_SSE:
      cap = ACP_AGENT_CAP_MCP_SSE;
      capability = "mcpCapabilities.sse";
      break;
    case ACP_MCP_TRANSPORT_STDIO:
    default:
      return TRUE;
    }

  if (acp_agent_has_capability (self, cap))
    return TRUE;

  g_set_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED,
               _("The agent does not support MCP servers over %s, so “%s” cannot be used "
                 "(it did not advertise %s)"),
               acp_mcp_server_get_transport_name (server),
               acp_mcp_server_get_name (server),
               capability);

  return FALSE;
}

/**
 * acp_agent_can_use_mcp_server:
 * @self: an #AcpAgent
 * @server: an #AcpMcpServer
 *
 * Returns: whether @server is valid and its transport is one the agent
 *   supports (stdio always, http and sse when advertised). Before the agent
 *   is ready, only stdio servers pass.
 */
gboolean
acp_agent_can_use_mcp_server (AcpAgent     *self,
                              AcpMcpServer *server)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), FALSE);
  g_return_val_if_fail (ACP_IS_MCP_SERVER (server), FALSE);

  return check_mcp_server (self, server, NULL);
}

static GTask *
new_task (AcpAgent            *self,
          gpointer             source_tag,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);

  return task;
}

static GError *
invalid_result (const char *method,
                const char *what)
{
  return g_error_new (ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                      _("The agent's answer to %s is not valid: %s"), method, what);
}

/* Builds the params of session/new, session/load and session/resume. */
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

/* Results that carry nothing: an object (usually {}), or null. */
static void
empty_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;

  node = _acp_agent_call_finish (ACP_AGENT (object), result, &error);
  if (node == NULL)
    g_task_return_error (task, error);
  else if (!JSON_NODE_HOLDS_OBJECT (node) && !JSON_NODE_HOLDS_NULL (node))
    g_task_return_error (task, invalid_result (g_task_get_name (task), _("not an object")));
  else
    g_task_return_boolean (task, TRUE);
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

static JsonObject *
object_finish (AcpAgent      *self,
               GAsyncResult  *result,
               gpointer       source_tag,
               GError       **error)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Sends @params (consumed) as @method, or fails @task with @error. */
static void
send_or_fail (AcpAgent            *self,
              GTask               *task,
              const char          *method,
              JsonObject          *params,
              GError              *error,
              GAsyncReadyCallback  callback)
{
  g_autoptr(JsonObject) owned = params;

  g_task_set_name (task, method);

  if (error != NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  _acp_agent_call_async (self, method, owned, g_task_get_cancellable (task), callback, task);
}

/* authenticate {{{ */

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

  task = new_task (self, acp_agent_authenticate_async, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error))
    {
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
    }

  if (error == NULL)
    {
      params = json_object_new ();
      json_object_set_string_member (params, "methodId", method_id);
    }

  send_or_fail (self, task, "authenticate", params, error, empty_result_cb);
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

void
acp_agent_logout_async (AcpAgent            *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;

  g_return_if_fail (ACP_IS_AGENT (self));

  task = new_task (self, acp_agent_logout_async, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error) &&
      require_capability (self, ACP_AGENT_CAP_LOGOUT, "logout", "auth.logout", &error))
    params = json_object_new ();

  send_or_fail (self, task, "logout", params, error, empty_result_cb);
}

gboolean
acp_agent_logout_finish (AcpAgent      *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  return boolean_finish (self, result, acp_agent_logout_async, error);
}

/* }}} */

/* session/new, session/load, session/resume {{{ */

static void
new_session_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  JsonObject *session;

  node = _acp_agent_call_finish (ACP_AGENT (object), result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_error (task, invalid_result ("session/new", _("not an object")));
      return;
    }

  session = json_node_get_object (node);
  if (!is_string_node (json_object_get_member (session, "sessionId")) ||
      *json_object_get_string_member (session, "sessionId") == '\0')
    {
      g_task_return_error (task, invalid_result ("session/new", _("no sessionId")));
      return;
    }

  g_task_return_pointer (task, json_object_ref (session), (GDestroyNotify) json_object_unref);
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
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;

  g_return_if_fail (ACP_IS_AGENT (self));

  task = new_task (self, acp_agent_new_session_async, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error))
    params = build_session_params (self, "session/new", NULL, cwd, mcp_servers,
                                   additional_directories, &error);

  send_or_fail (self, task, "session/new", params, error, new_session_cb);
}

JsonObject *
acp_agent_new_session_finish (AcpAgent      *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  return object_finish (self, result, acp_agent_new_session_async, error);
}

/* load and resume: an object, or null (which load's documentation shows) */
static void
session_object_result_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;

  node = _acp_agent_call_finish (ACP_AGENT (object), result, &error);
  if (node == NULL)
    g_task_return_error (task, error);
  else if (JSON_NODE_HOLDS_NULL (node))
    g_task_return_pointer (task, json_object_new (), (GDestroyNotify) json_object_unref);
  else if (JSON_NODE_HOLDS_OBJECT (node))
    g_task_return_pointer (task, json_object_ref (json_node_get_object (node)),
                           (GDestroyNotify) json_object_unref);
  else
    g_task_return_error (task, invalid_result (g_task_get_name (task), _("not an object")));
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
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);

  task = new_task (self, acp_agent_load_session_async, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error) &&
      require_capability (self, ACP_AGENT_CAP_LOAD_SESSION, "session/load", "loadSession", &error))
    params = build_session_params (self, "session/load", session_id, cwd, mcp_servers,
                                   additional_directories, &error);

  send_or_fail (self, task, "session/load", params, error, session_object_result_cb);
}

JsonObject *
acp_agent_load_session_finish (AcpAgent      *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  return object_finish (self, result, acp_agent_load_session_async, error);
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
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);

  task = new_task (self, acp_agent_resume_session_async, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error) &&
      require_capability (self, ACP_AGENT_CAP_SESSION_RESUME, "session/resume",
                          "sessionCapabilities.resume", &error))
    params = build_session_params (self, "session/resume", session_id, cwd, mcp_servers,
                                   additional_directories, &error);

  send_or_fail (self, task, "session/resume", params, error, session_object_result_cb);
}

JsonObject *
acp_agent_resume_session_finish (AcpAgent      *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return object_finish (self, result, acp_agent_resume_session_async, error);
}

/* }}} */

/* session/close, session/delete, session/set_mode {{{ */

static void
session_id_call (AcpAgent             *self,
                 gpointer              source_tag,
                 const char           *method,
                 AcpAgentCapabilities  cap,
                 const char           *capability,
                 const char           *session_id,
                 const char           *extra_member,
                 const char           *extra_value,
                 GCancellable         *cancellable,
                 GAsyncReadyCallback   callback,
                 gpointer              user_data)
{
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;

  task = new_task (self, source_tag, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error) &&
      (cap == ACP_AGENT_CAP_NONE || require_capability (self, cap, method, capability, &error)))
    {
      params = json_object_new ();
      json_object_set_string_member (params, "sessionId", session_id);
      if (extra_member != NULL)
        json_object_set_string_member (params, extra_member, extra_value);
    }

  send_or_fail (self, task, method, params, error, empty_result_cb);
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

  session_id_call (self, acp_agent_close_session_async, "session/close",
                   ACP_AGENT_CAP_SESSION_CLOSE, "sessionCapabilities.close",
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

  session_id_call (self, acp_agent_delete_session_async, "session/delete",
                   ACP_AGENT_CAP_SESSION_DELETE, "sessionCapabilities.delete",
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

  session_id_call (self, acp_agent_set_mode_async, "session/set_mode",
                   ACP_AGENT_CAP_NONE, NULL,
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

static void
list_sessions_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonObject) page = NULL;
  JsonArray *sessions;
  JsonArray *valid;
  JsonNode *member;
  GError *error = NULL;

  node = _acp_agent_call_finish (ACP_AGENT (object), result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_error (task, invalid_result ("session/list", _("not an object")));
      return;
    }

  page = json_object_ref (json_node_get_object (node));
  member = json_object_get_member (page, "sessions");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    {
      g_task_return_error (task, invalid_result ("session/list", _("no sessions array")));
      return;
    }

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

  g_task_return_pointer (task, g_steal_pointer (&page), (GDestroyNotify) json_object_unref);
}

void
acp_agent_list_sessions_async (AcpAgent            *self,
                               const char          *cwd,
                               const char          *cursor,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;

  g_return_if_fail (ACP_IS_AGENT (self));

  task = new_task (self, acp_agent_list_sessions_async, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error) &&
      require_capability (self, ACP_AGENT_CAP_SESSION_LIST, "session/list",
                          "sessionCapabilities.list", &error))
    {
      params = json_object_new ();
      if (cwd != NULL)
        json_object_set_string_member (params, "cwd", cwd);
      if (cursor != NULL)
        json_object_set_string_member (params, "cursor", cursor);
    }

  send_or_fail (self, task, "session/list", params, error, list_sessions_cb);
}

JsonObject *
acp_agent_list_sessions_finish (AcpAgent      *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return object_finish (self, result, acp_agent_list_sessions_async, error);
}

/* }}} */

/* session/prompt and session/cancel {{{ */

static void
prompt_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  JsonNode *stop_reason;

  node = _acp_agent_call_finish (ACP_AGENT (object), result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_error (task, invalid_result ("session/prompt", _("not an object")));
      return;
    }

  stop_reason = json_object_get_member (json_node_get_object (node), "stopReason");
  if (!is_string_node (stop_reason))
    {
      g_task_return_error (task, invalid_result ("session/prompt", _("no stopReason")));
      return;
    }

  g_task_return_pointer (task, g_strdup (json_node_get_string (stop_reason)), g_free);
}

void
acp_agent_prompt_async (AcpAgent            *self,
                        const char          *session_id,
                        JsonArray           *prompt,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;
  GError *error = NULL;
  JsonObject *params = NULL;

  g_return_if_fail (ACP_IS_AGENT (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (prompt != NULL);

  task = new_task (self, acp_agent_prompt_async, cancellable, callback, user_data);

  if (_acp_agent_check_ready (self, &error))
    {
      params = json_object_new ();
      json_object_set_string_member (params, "sessionId", session_id);
      json_object_set_array_member (params, "prompt", json_array_ref (prompt));
    }

  send_or_fail (self, task, "session/prompt", params, error, prompt_cb);
}

/* Returns: (transfer full): the stop reason */
char *
acp_agent_prompt_finish (AcpAgent      *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_agent_prompt_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
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

static void
set_config_option_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  JsonNode *options;

  node = _acp_agent_call_finish (ACP_AGENT (object), result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_error (task, invalid_result ("session/set_config_option", _("not an object")));
      return;
    }

  options = json_object_get_member (json_node_get_object (node), "configOptions");
  if (options == NULL || !JSON_NODE_HOLDS_ARRAY (options))
    {
      g_task_return_error (task, invalid_result ("session/set_config_option",
                                                 _("no configOptions array")));
      return;
    }

  g_task_return_pointer (task, json_array_ref (json_node_get_array (options)),
                         (GDestroyNotify) json_array_unref);
}

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

  task = new_task (self, acp_agent_set_config_option_async, cancellable, callback, user_data);

  if (JSON_NODE_HOLDS_VALUE (value))
    value_type = json_node_get_value_type (value);

  if (!_acp_agent_check_ready (self, &error))
    {
      /* error set */
    }
  else if (value_type != G_TYPE_STRING && value_type != G_TYPE_BOOLEAN)
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
      params = json_object_new ();
      json_object_set_string_member (params, "sessionId", session_id);
      json_object_set_string_member (params, "configId", config_id);
      if (value_type == G_TYPE_BOOLEAN)
        json_object_set_string_member (params, "type", "boolean");
      json_object_set_member (params, "value", json_node_copy (value));
    }

  send_or_fail (self, task, "session/set_config_option", params, error, set_config_option_cb);
}

/* Returns: (transfer full): the full new configOptions array */
JsonArray *
acp_agent_set_config_option_finish (AcpAgent      *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (ACP_IS_AGENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        acp_agent_set_config_option_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* }}} */
