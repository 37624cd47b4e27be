/* pal-mcp-probe.c: the MCP connection test: the protocol and the result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-launcher.h"
#include "pal-mcp-probe-private.h"
#include "pal-name-value.h"

/* A server that keeps sending pages is broken; stop asking after this many. */
#define MAX_TOOL_PAGES 100
/* json-glib parses recursively: refuse deeper nesting before it parses. */
#define MAX_JSON_DEPTH 256

/* ------------------------------------------------------------------------ */
/* The probe                                                                 */

typedef enum
{
  STAGE_CONNECTING,
  STAGE_INITIALIZING,
  STAGE_NOTIFYING,
  STAGE_LISTING,
} Stage;

struct _PalMcpProbe
{
  GTask                      *task;  /* unowned: the task owns the probe */
  const PalMcpTransportClass *klass;
  gpointer                    transport;

  GCancellable               *cancellable;
  GSource                    *timeout_source;
  GSource                    *cancelled_source;
  guint                       timeout_ms;
  gboolean                    done;

  Stage                       stage;
  gint64                      next_id;
  gint64                      pending_id;        /* 0: no request awaits an answer */
  gint64                      last_answered_id;
  GPtrArray                  *methods;           /* method of request id i + 1 */
  guint                       n_pages;

  char                       *server_name;
  char                       *server_title;
  char                       *server_version;
  char                       *protocol_version;
  gboolean                    has_tools_capability;
  GPtrArray                  *tool_names;
  GPtrArray                  *tool_descriptions;
};

static void
probe_free (PalMcpProbe *probe)
{
  if (probe->klass != NULL && probe->klass->free != NULL && probe->transport != NULL)
    probe->klass->free (probe->transport);

  if (probe->timeout_source != NULL)
    g_source_destroy (probe->timeout_source);
  g_clear_pointer (&probe->timeout_source, g_source_unref);
  if (probe->cancelled_source != NULL)
    g_source_destroy (probe->cancelled_source);
  g_clear_pointer (&probe->cancelled_source, g_source_unref);
  g_clear_object (&probe->cancellable);
  g_clear_pointer (&probe->methods, g_ptr_array_unref);
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

  if (error != NULL && probe->klass != NULL && probe->klass->explain != NULL &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      char *explained = probe->klass->explain (probe, error->message);

      if (explained != NULL)
        {
          g_free (error->message);
          error->message = explained;
        }
    }

  if (probe->klass != NULL && probe->klass->close != NULL)
    probe->klass->close (probe);

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

gboolean
_pal_mcp_probe_fail_if_cancelled (PalMcpProbe  *probe,
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

  _pal_mcp_probe_fail_if_cancelled (probe, error);

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
  probe->next_id = 1;
  probe->methods = g_ptr_array_new_with_free_func (g_free);
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

GTask *
_pal_mcp_probe_get_task (PalMcpProbe *probe)
{
  return probe->task;
}

void
_pal_mcp_probe_set_transport (PalMcpProbe                *probe,
                              const PalMcpTransportClass *klass,
                              gpointer                    transport)
{
  g_assert (probe->klass == NULL);

  probe->klass = klass;
  probe->transport = transport;
}

gpointer
_pal_mcp_probe_get_transport (PalMcpProbe *probe)
{
  return probe->transport;
}

GCancellable *
_pal_mcp_probe_get_cancellable (PalMcpProbe *probe)
{
  return probe->cancellable;
}

guint
_pal_mcp_probe_get_timeout_ms (PalMcpProbe *probe)
{
  return probe->timeout_ms;
}

gboolean
_pal_mcp_probe_is_done (PalMcpProbe *probe)
{
  return probe->done;
}

const char *
_pal_mcp_probe_get_protocol_version (PalMcpProbe *probe)
{
  return probe->protocol_version;
}

gboolean
_pal_mcp_probe_has_answer (PalMcpProbe *probe,
                           gint64       id)
{
  return id > 0 && id <= probe->last_answered_id;
}

const char *
_pal_mcp_probe_get_method (PalMcpProbe *probe,
                           gint64       id)
{
  if (id < 1 || id > (gint64) probe->methods->len)
    return "";

  return g_ptr_array_index (probe->methods, id - 1);
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

/* Scans JSON text for nesting deeper than json-glib should recurse into. */
static gboolean
json_depth_ok (const char *text,
               gsize       length)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > MAX_JSON_DEPTH)
            return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* JSON-RPC messages                                                         */

typedef enum
{
  MESSAGE_INVALID,
  MESSAGE_REQUEST,
  MESSAGE_NOTIFICATION,
  MESSAGE_RESPONSE,
} MessageType;

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

static gboolean
get_integer (JsonNode *node,
             gint64   *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *out = json_node_get_int (node);
      return TRUE;
    }

  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (d >= -9007199254740992.0 && d <= 9007199254740992.0 && d == (double) (gint64) d)
        {
          *out = (gint64) d;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
is_valid_id (JsonNode *node)
{
  gint64 unused;

  if (node == NULL)
    return FALSE;

  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  return get_integer (node, &unused) ||
         (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING);
}

static MessageType
classify (JsonNode *node)
{
  JsonObject *object;
  JsonNode *id;
  JsonNode *method;
  gboolean has_result;
  JsonObject *error;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return MESSAGE_INVALID;

  object = json_node_get_object (node);
  if (g_strcmp0 (get_string (object, "jsonrpc"), "2.0") != 0)
    return MESSAGE_INVALID;

  id = json_object_get_member (object, "id");
  method = json_object_get_member (object, "method");

  if (method != NULL)
    {
      if (get_string (object, "method") == NULL)
        return MESSAGE_INVALID;
      if (id == NULL)
        return MESSAGE_NOTIFICATION;
      return is_valid_id (id) && !JSON_NODE_HOLDS_NULL (id) ? MESSAGE_REQUEST : MESSAGE_INVALID;
    }

  if (!is_valid_id (id))
    return MESSAGE_INVALID;

  has_result = json_object_has_member (object, "result");
  error = get_object (object, "error");

  if (has_result == (json_object_has_member (object, "error")))
    return MESSAGE_INVALID;

  if (!has_result)
    {
      gint64 code;

      if (error == NULL || get_string (error, "message") == NULL ||
          !get_integer (json_object_get_member (error, "code"), &code))
        return MESSAGE_INVALID;
    }

  return MESSAGE_RESPONSE;
}

static char *
serialize (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

static void
send_request (PalMcpProbe *probe,
              const char  *method,
              JsonNode    *params)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *text = NULL;
  gint64 id = probe->next_id++;

  g_ptr_array_add (probe->methods, g_strdup (method));
  probe->pending_id = id;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, id);
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, method);
  json_builder_set_member_name (builder, "params");
  json_builder_add_value (builder, params);
  json_builder_end_object (builder);

  text = serialize (builder);
  g_debug ("MCP probe sends %s", text);
  probe->klass->send (probe, text, PAL_MCP_MESSAGE_REQUEST, id);
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

  probe->stage = STAGE_INITIALIZING;
  send_request (probe, "initialize", json_builder_get_root (builder));
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

  probe->stage = STAGE_LISTING;
  send_request (probe, "tools/list", json_builder_get_root (builder));
}

/* Answers a request from the server: ping gets an empty result; we offer no
 * other client feature, so everything else is an unknown method. */
static void
answer_server_request (PalMcpProbe *probe,
                       JsonObject  *request)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *text = NULL;
  const char *method = get_string (request, "method");

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "id");
  json_builder_add_value (builder, json_node_copy (json_object_get_member (request, "id")));
  if (g_strcmp0 (method, "ping") == 0)
    {
      json_builder_set_member_name (builder, "result");
      json_builder_begin_object (builder);
      json_builder_end_object (builder);
    }
  else
    {
      json_builder_set_member_name (builder, "error");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "code");
      json_builder_add_int_value (builder, -32601);
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, "Method not found");
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  text = serialize (builder);
  g_debug ("MCP probe answers the server's %s request", method);
  probe->klass->send (probe, text, PAL_MCP_MESSAGE_RESPONSE, -1);
}

static char *
dup_valid_string (JsonObject *object,
                  const char *member)
{
  const char *value = get_string (object, member);

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
  version = get_string (result, "protocolVersion");
  if (version == NULL || !is_header_safe (version))
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server’s answer to initialize has no valid "
                                    "protocol version"));
      return;
    }

  probe->protocol_version = g_strdup (version);

  if (json_object_has_member (result, "serverInfo"))
    {
      server_info = get_object (result, "serverInfo");
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

  capabilities = get_object (result, "capabilities");
  probe->has_tools_capability = capabilities != NULL &&
                                json_object_has_member (capabilities, "tools");

  g_debug ("MCP server %s %s speaks %s",
           probe->server_name ? probe->server_name : "(unnamed)",
           probe->server_version ? probe->server_version : "(no version)",
           probe->protocol_version);

  probe->stage = STAGE_NOTIFYING;
  probe->klass->send (probe, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                      PAL_MCP_MESSAGE_NOTIFICATION, -1);
}

void
_pal_mcp_probe_notification_sent (PalMcpProbe *probe)
{
  if (probe->done || probe->stage != STAGE_NOTIFYING)
    return;

  send_tools_list (probe, NULL);
}

static void
handle_tools_list_result (PalMcpProbe *probe,
                          JsonNode    *result_node)
{
  JsonObject *result;
  JsonNode *tools_node;
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
  tools_node = json_object_get_member (result, "tools");
  if (tools_node == NULL || !JSON_NODE_HOLDS_ARRAY (tools_node))
    {
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server’s answer to tools/list has no list of tools"));
      return;
    }

  tools = json_node_get_array (tools_node);
  n = json_array_get_length (tools);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *tool_node = json_array_get_element (tools, i);
      JsonObject *tool;
      char *name;
      char *description;

      tool = JSON_NODE_HOLDS_OBJECT (tool_node) ? json_node_get_object (tool_node) : NULL;
      name = tool != NULL ? dup_valid_string (tool, "name") : NULL;
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
      const char *cursor = get_string (result, "nextCursor");

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

static char *
dup_error_code (JsonObject *error)
{
  gint64 code = 0;

  get_integer (json_object_get_member (error, "code"), &code);

  return g_strdup_printf ("%" G_GINT64_FORMAT, code);
}

static void
handle_response (PalMcpProbe *probe,
                 JsonObject  *response)
{
  JsonNode *id_node = json_object_get_member (response, "id");
  JsonObject *error = get_object (response, "error");
  gint64 id;

  if (JSON_NODE_HOLDS_NULL (id_node) && error != NULL)
    {
      g_autofree char *message = _pal_mcp_probe_excerpt (get_string (error, "message"), -1, 300);
      g_autofree char *code = dup_error_code (error);

      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_PROTOCOL,
                                  _("The server could not read a message: %s (code %s)"),
                                  message, code);
      return;
    }

  if (!get_integer (id_node, &id) || id != probe->pending_id || id == 0)
    {
      g_debug ("MCP probe ignores a response to a request it did not send");
      return;
    }

  probe->pending_id = 0;
  probe->last_answered_id = id;

  if (error != NULL)
    {
      g_autofree char *message = _pal_mcp_probe_excerpt (get_string (error, "message"), -1, 300);
      g_autofree char *code_text = NULL;
      gint64 code = 0;

      get_integer (json_object_get_member (error, "code"), &code);

      /* A server without tools may not know the method at all. */
      if (probe->stage == STAGE_LISTING && code == -32601 && !probe->has_tools_capability)
        {
          finish_with_result (probe);
          return;
        }

      code_text = dup_error_code (error);
      _pal_mcp_probe_fail_printf (probe, PAL_ERROR_FAILED,
                                  _("The server answered “%s” with an error: %s (code %s)"),
                                  _pal_mcp_probe_get_method (probe, id), message, code_text);
      return;
    }

  switch (probe->stage)
    {
    case STAGE_INITIALIZING:
      handle_initialize_result (probe, json_object_get_member (response, "result"));
      break;

    case STAGE_LISTING:
      handle_tools_list_result (probe, json_object_get_member (response, "result"));
      break;

    case STAGE_CONNECTING:
    case STAGE_NOTIFYING:
    default:
      g_assert_not_reached ();
    }
}

static void
dispatch (PalMcpProbe *probe,
          JsonNode    *node)
{
  JsonObject *object = json_node_get_object (node);

  switch (classify (node))
    {
    case MESSAGE_REQUEST:
      answer_server_request (probe, object);
      break;

    case MESSAGE_NOTIFICATION:
      g_debug ("MCP probe ignores the notification %s", get_string (object, "method"));
      break;

    case MESSAGE_RESPONSE:
      handle_response (probe, object);
      break;

    case MESSAGE_INVALID:
    default:
      g_assert_not_reached ();
    }
}

/* Parses one JSON text that should hold a JSON-RPC message or a batch of
 * them and acts on it. Nothing is acted on unless all of it is valid. */
PalMcpReceiveStatus
_pal_mcp_probe_receive (PalMcpProbe  *probe,
                        const char   *text,
                        gsize         length,
                        GError      **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if (probe->done)
    return PAL_MCP_RECEIVE_OK;

  if (!json_depth_ok (text, length))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                           _("The server sent JSON nested too deeply"));
      return PAL_MCP_RECEIVE_NOT_JSON;
    }

  if (!json_parser_load_from_data (parser, text, length, &local_error) ||
      (root = json_parser_get_root (parser)) == NULL)
    {
      g_autofree char *excerpt = _pal_mcp_probe_excerpt (text, length, 80);

      g_set_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                   _("The server sent something that is not valid JSON: “%s”"), excerpt);
      return PAL_MCP_RECEIVE_NOT_JSON;
    }

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *batch = json_node_get_array (root);
      guint n = json_array_get_length (batch);

      for (guint i = 0; i < n; i++)
        if (classify (json_array_get_element (batch, i)) == MESSAGE_INVALID)
          n = 0;

      if (n == 0)
        {
          g_autofree char *excerpt = _pal_mcp_probe_excerpt (text, length, 80);

          g_set_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                       _("The server sent JSON that is not a JSON-RPC message: “%s”"), excerpt);
          return PAL_MCP_RECEIVE_NOT_JSON_RPC;
        }

      for (guint i = 0; i < n && !probe->done; i++)
        dispatch (probe, json_array_get_element (batch, i));

      return PAL_MCP_RECEIVE_OK;
    }

  if (classify (root) == MESSAGE_INVALID)
    {
      g_autofree char *excerpt = _pal_mcp_probe_excerpt (text, length, 80);

      g_set_error (error, PAL_ERROR, PAL_ERROR_PROTOCOL,
                   _("The server sent JSON that is not a JSON-RPC message: “%s”"), excerpt);
      return PAL_MCP_RECEIVE_NOT_JSON_RPC;
    }

  dispatch (probe, root);

  return PAL_MCP_RECEIVE_OK;
}

void
_pal_mcp_probe_begin (PalMcpProbe *probe)
{
  g_assert (probe->klass != NULL);

  if (probe->done || probe->stage != STAGE_CONNECTING)
    return;

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
