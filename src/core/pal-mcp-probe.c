/* pal-mcp-probe.c: the MCP connection test: the protocol and the result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-error.h"
#include "acp-json.h"
#include "pal-error.h"
#include "pal-launcher.h"
#include "pal-mcp-probe-private.h"
#include "pal-name-value.h"

/* A server that keeps sending pages is broken; stop asking after this many. */
#define MAX_TOOL_PAGES 100

/* ------------------------------------------------------------------------ */
/* The probe                                                                 */

struct _PalMcpProbe
{
  GTask             *task;  /* unowned: the task owns the probe */
  PalMcpTransport   *transport;
  gulong             failed_handler;

  GCancellable      *cancellable;
  GSource           *timeout_source;
  GSource           *cancelled_source;
  guint              timeout_ms;
  gboolean           done;

  guint              n_pages;
  char              *server_name;
  char              *server_title;
  char              *server_version;
  char              *protocol_version;
  gboolean           has_tools_capability;
  GPtrArray         *tool_names;
  GPtrArray         *tool_descriptions;
};

static void
probe_free (PalMcpProbe *probe)
{
  if (probe->transport != NULL)
    {
      g_clear_signal_handler (&probe->failed_handler, probe->transport);
      g_object_unref (probe->transport);
    }

  if (probe->timeout_source != NULL)
    g_source_destroy (probe->timeout_source);
  g_clear_pointer (&probe->timeout_source, g_source_unref);
  if (probe->cancelled_source != NULL)
    g_source_destroy (probe->cancelled_source);
  g_clear_pointer (&probe->cancelled_source, g_source_unref);
  g_clear_object (&probe->cancellable);
  g_free (probe->server_name);
  g_free (probe->server_title);
  g_free (probe->server_version);
  g_free (probe->protocol_version);
  g_clear_pointer (&probe->tool_names, g_ptr_array_unref);
  g_clear_pointer (&probe->tool_descriptions, g_ptr_array_unref);
  g_free (probe);
}

static void
probe_complete (PalMcpProbe       *probe,
                PalMcpProbeResult *result,
                GError            *error)
{
  g_autoptr(GTask) task = g_object_ref (probe->task);

  g_assert ((result == NULL) != (error == NULL));

  if (probe->done)
    {
      g_clear_object (&result);
      g_clear_error (&error);
      return;
    }

  probe->done = TRUE;

  if (probe->timeout_source != NULL)
    g_source_destroy (probe->timeout_source);
  if (probe->cancelled_source != NULL)
    g_source_destroy (probe->cancelled_source);

  if (error != NULL && probe->transport != NULL &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      char *explained = pal_mcp_transport_explain (probe->transport, error->message);

      if (explained != NULL)
        {
          g_free (error->message);
          error->message = explained;
        }
    }

  /* Closed first: requests still pending end as closed, not as cancelled
   * (which a connection would tell the server). */
  if (probe->transport != NULL)
    pal_mcp_transport_close (probe->transport);

  /* Whatever is still in flight stops now. */
  g_cancellable_cancel (probe->cancellable);

  if (error != NULL)
    {
      g_debug ("MCP probe failed: %s", error->message);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, result, g_object_unref);
}

void
_pal_mcp_probe_fail (PalMcpProbe *probe,
                     GError      *error)
{
  g_assert (probe != NULL);
  g_assert (error != NULL);

  probe_complete (probe, NULL, error);
}

void
_pal_mcp_probe_fail_printf (PalMcpProbe *probe,
                            int          code,
                            const char  *format,
                            ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  _pal_mcp_probe_fail (probe, g_error_new_literal (PAL_ERROR, code, message));
  g_free (message);
}

/* Completes the probe with a cancellation error if the operation that gave
 * @error was cancelled; returns whether it was. */
static gboolean
fail_if_cancelled (PalMcpProbe  *probe,
                   const GError *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;

  if (!probe->done)
    _pal_mcp_probe_fail (probe, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                     _("The connection test was cancelled")));

  return TRUE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  guint seconds = (probe->timeout_ms + 999) / 1000;

  _pal_mcp_probe_fail (probe,
                       g_error_new (PAL_ERROR, PAL_ERROR_TIMEOUT,
                                    g_dngettext (GETTEXT_PACKAGE,
                                                 "The server did not answer within %u second",
                                                 "The server did not answer within %u seconds",
                                                 seconds),
                                    seconds));

  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  GTask *task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "");

  fail_if_cancelled (probe, error);

  return G_SOURCE_REMOVE;
}

static PalMcpProbeTimerFunc timer_func = g_timeout_source_new;

void
_pal_mcp_probe_set_timer_func (PalMcpProbeTimerFunc func)
{
  timer_func = func != NULL ? func : g_timeout_source_new;
}

/* Creates the task of one probe; the timeout and the caller's cancellable
 * are watched from here on. */
GTask *
_pal_mcp_probe_new_task (gpointer             source_tag,
                         guint                timeout_ms,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  PalMcpProbe *probe = g_new0 (PalMcpProbe, 1);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, probe, (GDestroyNotify) probe_free);

  probe->task = task;
  probe->cancellable = g_cancellable_new ();
  probe->timeout_ms = timeout_ms > 0 ? timeout_ms : PAL_MCP_PROBE_DEFAULT_TIMEOUT_MS;
  probe->tool_names = g_ptr_array_new_with_free_func (g_free);
  probe->tool_descriptions = g_ptr_array_new_with_free_func (g_free);

  probe->timeout_source = timer_func (probe->timeout_ms);
  g_source_set_static_name (probe->timeout_source, "[palaver] mcp probe timeout");
  g_task_attach_source (task, probe->timeout_source, timeout_cb);

  if (cancellable != NULL)
    {
      probe->cancelled_source = g_cancellable_source_new (cancellable);
      g_source_set_static_name (probe->cancelled_source, "[palaver] mcp probe cancelled");
      g_task_attach_source (task, probe->cancelled_source, (GSourceFunc) (GCallback) cancelled_cb);
    }

  return task;
}

PalMcpProbe *
_pal_mcp_probe_from_task (GTask *task)
{
  return g_task_get_task_data (task);
}

/* ------------------------------------------------------------------------ */
/* Helpers for untrusted text                                                */

char *
_pal_mcp_probe_excerpt (const char *text,
                        gssize      length,
                        gsize       max_chars)
{
  g_autofree char *valid = NULL;
  GString *out;
  const char *p;
  gsize n = 0;

  if (text == NULL)
    return g_strdup ("");

  if (length < 0)
    length = strlen (text);

  valid = g_utf8_make_valid (text, length);
  out = g_string_new (NULL);

  for (p = valid; *p != '\0' && n < max_chars; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || c == 0x7F)
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }

  g_strstrip (out->str);
  g_string_set_size (out, strlen (out->str));

  if (*p != '\0')
    g_string_append (out, "…");

  return g_string_free (out, FALSE);
}

static gboolean
is_token_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("!#$%&'*+-.^_`|~", c) != NULL;
}

gboolean
_pal_mcp_probe_check_headers (const char * const  *names,
                              const char * const  *values,
                              GError             **error)
{
  guint n_names = names != NULL ? g_strv_length ((char **) names) : 0;
  guint n_values = values != NULL ? g_strv_length ((char **) values) : 0;

  if (n_names != n_values)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("Every header needs a name and a value"));
      return FALSE;
    }

  for (guint i = 0; i < n_names; i++)
    {
      const char *name = names[i];

      if (*name == '\0')
        {
          g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                               _("A header has an empty name"));
          return FALSE;
        }

      for (const char *p = name; *p != '\0'; p++)
        if (!is_token_char (*p))
          {
            g_autofree char *shown = _pal_mcp_probe_excerpt (name, -1, 60);

            g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                         _("“%s” is not a valid header name"), shown);
            return FALSE;
          }

      if (strpbrk (values[i], "\r\n") != NULL)
        {
          g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                       _("The value of the header “%s” contains a line break"), name);
          return FALSE;
        }
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The exchange                                                              */

static void send_tools_list (PalMcpProbe *probe,
                             const char  *cursor);

static char *
dup_valid_string (JsonObject *object,
                  const char *member)
{
  const char *value = acp_json_get_string (object, member, NULL);

  if (value == NULL)
    return NULL;

  return g_utf8_make_valid (value, -1);
}

static void
finish_with_result (PalMcpProbe *probe)
{
  PalMcpProbeResult *result;

  g_ptr_array_add (probe->tool_names, NULL);
  g_ptr_array_add (probe->tool_descriptions, NULL);

  result = pal_mcp_probe_result_new (probe->server_name,
                                     probe->server_title,
                                     probe->server_version,
                                     probe->protocol_version,
                                     (const char * const *) probe->tool_names->pdata,
                                     (const char * const *) probe->tool_descriptions->pdata);

  probe_complete (probe, result, NULL);
}

/* Fails the probe for what went wrong with @method, unless the probe is
 * over or the transport tells why itself. @error: (transfer full) */
static void
fail_request (PalMcpProbe *probe,
              const char  *method,
              GError      *error)
{
  g_autoptr(GError) owned = error;

  /* An ended transport emits "failed" with the reason (a process's exit
   * status, say), which beats "closed". */
  if (probe->done || fail_if_cancelled (probe, error) ||
      (g_error_matches (error, ACP_ERROR, ACP_ERROR_CLOSED) && !acp_error_is_remote (error)))
    return;

  if (acp_error_is_remote (error))
    {
      g_autofree char *message = _pal_mcp_probe_excerpt (error->message, -1, 300);
      g_autofree char *code = g_strdup_printf ("%d", error->code);

      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_FAILED,
                                  _("The server answered “%s” with an error: %s (code %s)"),
                                  method, message, code);
    }
  else if (g_error_matches (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE))
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server answered “%s” with a malformed response"),
                                  method);
    }
  else
    {
      _pal_mcp_probe_fail (probe, g_steal_pointer (&owned));
    }
}

/* @params: (transfer full) (nullable) */
static void
send_message (PalMcpProbe         *probe,
              const char          *method,
              JsonNode            *params,
              gboolean             notification,
              GAsyncReadyCallback  callback)
{
  g_autoptr(JsonNode) owned = params;

  g_debug ("MCP probe sends %s", method);
  pal_mcp_transport_send_async (probe->transport, method, params, notification,
                                probe->cancellable, callback, g_object_ref (probe->task));
}

static gboolean
is_header_safe (const char *text)
{
  if (*text == '\0' || strlen (text) > 64)
    return FALSE;

  for (const char *p = text; *p != '\0'; p++)
    if (*p < 0x21 || *p > 0x7E)
      return FALSE;

  return TRUE;
}

static void
initialized_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  GError *error = NULL;

  pal_mcp_transport_send_finish (PAL_MCP_TRANSPORT (object), result, &error);
  if (error != NULL)
    fail_request (probe, "notifications/initialized", error);
  else if (!probe->done)
    send_tools_list (probe, NULL);
}

static void
handle_initialize_result (PalMcpProbe *probe,
                          JsonNode    *result_node)
{
  JsonObject *result;
  JsonObject *server_info;
  JsonObject *capabilities;
  const char *version;

  if (!JSON_NODE_HOLDS_OBJECT (result_node))
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server’s answer to initialize is not an object"));
      return;
    }

  result = json_node_get_object (result_node);
  version = acp_json_get_string (result, "protocolVersion", NULL);
  if (version == NULL || !is_header_safe (version))
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server’s answer to initialize has no valid "
                                    "protocol version"));
      return;
    }

  probe->protocol_version = g_strdup (version);
  pal_mcp_transport_set_protocol_version (probe->transport, version);

  if (json_object_has_member (result, "serverInfo"))
    {
      server_info = acp_json_get_object (result, "serverInfo");
      if (server_info == NULL)
        {
          _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                      _("The server’s answer to initialize has an invalid "
                                        "serverInfo"));
          return;
        }

      probe->server_name = dup_valid_string (server_info, "name");
      probe->server_title = dup_valid_string (server_info, "title");
      probe->server_version = dup_valid_string (server_info, "version");
    }

  capabilities = acp_json_get_object (result, "capabilities");
  probe->has_tools_capability = capabilities != NULL &&
                                json_object_has_member (capabilities, "tools");

  g_debug ("MCP server %s %s speaks %s",
           probe->server_name ? probe->server_name : "(unnamed)",
           probe->server_version ? probe->server_version : "(no version)",
           probe->protocol_version);

  send_message (probe, "notifications/initialized", NULL, TRUE, initialized_cb);
}

static void
initialize_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  GError *error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = pal_mcp_transport_send_finish (PAL_MCP_TRANSPORT (object), result, &error);
  if (node == NULL)
    fail_request (probe, "initialize", error);
  else if (!probe->done)
    handle_initialize_result (probe, node);
}

static void
send_initialize (PalMcpProbe *probe)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "protocolVersion");
  json_builder_add_string_value (builder, PAL_MCP_PROBE_PROTOCOL_VERSION);
  json_builder_set_member_name (builder, "capabilities");
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "clientInfo");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, PACKAGE_NAME);
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  send_message (probe, "initialize", json_builder_get_root (builder), FALSE, initialize_cb);
}

static void
handle_tools_list_result (PalMcpProbe *probe,
                          JsonNode    *result_node)
{
  JsonObject *result;
  JsonArray *tools;
  JsonNode *cursor_node;
  guint n;

  if (!JSON_NODE_HOLDS_OBJECT (result_node))
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server’s answer to tools/list is not an object"));
      return;
    }

  result = json_node_get_object (result_node);
  tools = acp_json_get_array (result, "tools");
  if (tools == NULL)
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server’s answer to tools/list has no list of tools"));
      return;
    }

  n = json_array_get_length (tools);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *tool = acp_json_array_get_object (tools, i);
      char *name = tool != NULL ? dup_valid_string (tool, "name") : NULL;
      char *description;

      if (name == NULL || *name == '\0')
        {
          g_free (name);
          _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                      _("Tool %u in the server’s list has no name"),
                                      probe->tool_names->len + 1);
          return;
        }

      description = dup_valid_string (tool, "description");
      g_ptr_array_add (probe->tool_names, name);
      g_ptr_array_add (probe->tool_descriptions, description != NULL ? description : g_strdup (""));
    }

  cursor_node = json_object_get_member (result, "nextCursor");
  if (cursor_node != NULL && !JSON_NODE_HOLDS_NULL (cursor_node))
    {
      const char *cursor = acp_json_get_string (result, "nextCursor", NULL);

      if (cursor == NULL)
        {
          _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                      _("The server’s answer to tools/list has an invalid "
                                        "nextCursor"));
          return;
        }

      if (*cursor != '\0')
        {
          if (++probe->n_pages >= MAX_TOOL_PAGES)
            {
              _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                          _("The server’s list of tools did not end after "
                                            "%u pages"),
                                          MAX_TOOL_PAGES);
              return;
            }

          send_tools_list (probe, cursor);
          return;
        }
    }

  finish_with_result (probe);
}

static void
tools_list_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalMcpProbe *probe = _pal_mcp_probe_from_task (task);
  GError *error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = pal_mcp_transport_send_finish (PAL_MCP_TRANSPORT (object), result, &error);

  /* A server without tools may not know the method at all. */
  if (node == NULL && !probe->done && !probe->has_tools_capability &&
      acp_error_is_remote (error) && error->code == ACP_ERROR_METHOD_NOT_FOUND)
    {
      g_error_free (error);
      finish_with_result (probe);
    }
  else if (node == NULL)
    fail_request (probe, "tools/list", error);
  else if (!probe->done)
    handle_tools_list_result (probe, node);
}

static void
send_tools_list (PalMcpProbe *probe,
                 const char  *cursor)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  if (cursor != NULL)
    {
      json_builder_set_member_name (builder, "cursor");
      json_builder_add_string_value (builder, cursor);
    }
  json_builder_end_object (builder);

  send_message (probe, "tools/list", json_builder_get_root (builder), FALSE, tools_list_cb);
}

static void
transport_failed_cb (PalMcpTransport *transport,
                     const GError    *error,
                     gpointer         user_data)
{
  _pal_mcp_probe_fail (user_data, g_error_copy (error));
}

void
_pal_mcp_probe_run (PalMcpProbe     *probe,
                    PalMcpTransport *transport)
{
  g_assert (probe->transport == NULL);
  g_assert (!probe->done);

  probe->transport = g_object_ref (transport);
  probe->failed_handler = g_signal_connect (transport, "failed",
                                            G_CALLBACK (transport_failed_cb), probe);
  send_initialize (probe);
}

/* "NAME=VALUE" (env) or the names and values (headers) of a config's rows,
 * leaving out blank rows. */
static void
collect_rows (GListStore  *rows,
              GPtrArray   *pairs,
              GPtrArray   *names,
              GPtrArray   *values)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (rows));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (rows), i);
      const char *name = pal_name_value_get_name (row);
      const char *value = pal_name_value_get_value (row);

      if ((name == NULL || *name == '\0') && (value == NULL || *value == '\0'))
        continue;

      if (pairs != NULL)
        g_ptr_array_add (pairs, g_strconcat (name ? name : "", "=", value ? value : "", NULL));
      if (names != NULL)
        g_ptr_array_add (names, g_strdup (name ? name : ""));
      if (values != NULL)
        g_ptr_array_add (values, g_strdup (value ? value : ""));
    }
}

/**
 * pal_mcp_probe_config_async:
 * @config: the server as configured
 * @session: the session for http and sse servers
 * @timeout_ms: the limit for the whole exchange, 0 for the default
 * @cancellable: (nullable): a cancellable
 * @callback: called when the test is over
 * @user_data: data for @callback
 *
 * Runs pal_mcp_probe_stdio_async(), pal_mcp_probe_http_async() or
 * pal_mcp_probe_sse_async() as @config says. Finish with
 * pal_mcp_probe_finish().
 */
void
pal_mcp_probe_config_async (PalMcpServerConfig  *config,
                            SoupSession         *session,
                            guint                timeout_ms,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (PAL_IS_MCP_SERVER_CONFIG (config));
  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  switch (pal_mcp_server_config_get_transport (config))
    {
    case ACP_MCP_TRANSPORT_STDIO:
      {
        g_autoptr(GPtrArray) argv = g_ptr_array_new_null_terminated (8, g_free, TRUE);
        g_autoptr(GPtrArray) env = g_ptr_array_new_null_terminated (8, g_free, TRUE);
        const char * const *args = pal_mcp_server_config_get_args (config);
        g_auto(GStrv) wrapped = NULL;
        g_auto(GStrv) wrapped_env = NULL;
        g_autofree char *cwd = NULL;
        g_autoptr(GError) error = NULL;

        g_ptr_array_add (argv, g_strdup (pal_mcp_server_config_get_command (config)));
        for (guint i = 0; args != NULL && args[i] != NULL; i++)
          g_ptr_array_add (argv, g_strdup (args[i]));
        collect_rows (pal_mcp_server_config_get_env (config), env, NULL, NULL);

        wrapped = pal_launcher_wrap_argv (PAL_LAUNCHER_SANDBOX_DETECT,
                                          (const char * const *) argv->pdata,
                                          (const char * const *) env->pdata,
                                          NULL, &wrapped_env, &cwd, &error);
        if (wrapped == NULL)
          {
            g_autoptr(GTask) task = _pal_mcp_probe_new_task (pal_mcp_probe_config_async, timeout_ms,
                                                             cancellable, callback, user_data);

            _pal_mcp_probe_fail (_pal_mcp_probe_from_task (task), g_steal_pointer (&error));
            return;
          }

        pal_mcp_probe_stdio_async ((const char * const *) wrapped,
                                   (const char * const *) wrapped_env,
                                   timeout_ms, cancellable, callback, user_data);
      }
      break;

    case ACP_MCP_TRANSPORT_HTTP:
    case ACP_MCP_TRANSPORT_SSE:
      {
        g_autoptr(GPtrArray) names = g_ptr_array_new_null_terminated (8, g_free, TRUE);
        g_autoptr(GPtrArray) values = g_ptr_array_new_null_terminated (8, g_free, TRUE);
        const char *url = pal_mcp_server_config_get_url (config);

        collect_rows (pal_mcp_server_config_get_headers (config), NULL, names, values);

        if (pal_mcp_server_config_get_transport (config) == ACP_MCP_TRANSPORT_HTTP)
          pal_mcp_probe_http_async (session, url != NULL ? url : "",
                                    (const char * const *) names->pdata,
                                    (const char * const *) values->pdata,
                                    timeout_ms, cancellable, callback, user_data);
        else
          pal_mcp_probe_sse_async (session, url != NULL ? url : "",
                                   (const char * const *) names->pdata,
                                   (const char * const *) values->pdata,
                                   timeout_ms, cancellable, callback, user_data);
      }
      break;

    default:
      {
        g_autoptr(GTask) task = _pal_mcp_probe_new_task (pal_mcp_probe_config_async, timeout_ms,
                                                         cancellable, callback, user_data);

        _pal_mcp_probe_fail (_pal_mcp_probe_from_task (task),
                             g_error_new_literal (PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                                                  _("This kind of MCP server cannot be tested")));
      }
      break;
    }
}

/**
 * pal_mcp_probe_finish:
 * @result: the result given to the callback
 * @error: a place for the error
 *
 * Returns: (transfer full): what the server said, or %NULL with @error set
 */
PalMcpProbeResult *
pal_mcp_probe_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
