/* fake-mcp-server.c: a scripted MCP server speaking newline-delimited
 * JSON-RPC on stdin/stdout, for the connection test's tests. It shares no
 * code with the application.
 *
 *   fake-mcp-server MODE [--protocol-version=V]
 *
 * Modes:
 *   normal           initialize, then two tools over two pages of tools/list
 *   crlf             like normal, every line it writes ends with "\r\n"
 *   garbage          non-JSON lines, a JSON log line and a stray response first
 *   garbage-forever  500 lines of garbage before behaving like normal
 *   exit-early       writes to stderr and exits with status 4 without reading
 *   hang             reads everything, never answers
 *   hang-stubborn    like hang, and ignores SIGTERM and the end of its input
 *   error            answers initialize with an error
 *   ping             sends ping and roots/list requests to the client before
 *                    answering initialize, and checks the client's answers
 *   ask-while-listing  sends ping (id 0) and elicitation/create requests to
 *                    the client before answering the first tools/list, and
 *                    checks the answers: {} and -32601 naming the method
 *   no-tools         declares no tools capability; tools/list is unknown
 *
 * FAKE_MCP_PID_FILE: the server writes its pid there when it starts.
 * FAKE_MCP_SERVER_VERSION: the version it reports (default 1.2.3).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <json-glib/json-glib.h>

static const char *mode = "normal";
static const char *protocol_version = "2025-06-18";
static gboolean initialized;
static const char *line_end = "\n";

static void
write_node (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, FALSE);

  fputs (text, stdout);
  fputs (line_end, stdout);
  fflush (stdout);
}

static void
write_raw (const char *line)
{
  fputs (line, stdout);
  fputs (line_end, stdout);
  fflush (stdout);
}

static void
send_result (JsonNode *id,
             JsonNode *result)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "id");
  json_builder_add_value (builder, json_node_copy (id));
  json_builder_set_member_name (builder, "result");
  json_builder_add_value (builder, result);
  json_builder_end_object (builder);

  node = json_builder_get_root (builder);
  write_node (node);
}

static void
send_error (JsonNode   *id,
            gint64      code,
            const char *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "id");
  json_builder_add_value (builder, json_node_copy (id));
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, code);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  node = json_builder_get_root (builder);
  write_node (node);
}

static gboolean
member_is_object (JsonObject *object,
                  const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, text, -1, NULL))
    return NULL;

  return json_node_copy (json_parser_get_root (parser));
}

static char *
read_line (void)
{
  char *line = NULL;
  size_t size = 0;
  ssize_t n = getline (&line, &size, stdin);

  if (n < 0)
    {
      free (line);
      return NULL;
    }

  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
    line[--n] = '\0';

  return line;
}

/* Sends a request to the client and waits for the answer with the same id
 * (@id as JSON: "\"srv-1\"", "0"). Returns the answer, or NULL at the end
 * of input. */
static JsonObject *
ask_client (const char *id,
            const char *method)
{
  g_autofree char *request = NULL;

  request = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"%s\"}", id, method);

  write_raw (request);

  for (;;)
    {
      g_autofree char *line = read_line ();
      g_autoptr(JsonNode) node = NULL;
      JsonObject *object;

      if (line == NULL)
        return NULL;

      node = parse (line);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;

      object = json_node_get_object (node);
      if (json_object_has_member (object, "id") && !json_object_has_member (object, "method"))
        {
          g_autofree char *got = json_to_string (json_object_get_member (object, "id"), FALSE);

          if (g_str_equal (got, id))
            return json_object_ref (object);
        }
    }
}

static gboolean
check_client_answers (char **problem)
{
  g_autoptr(JsonObject) pong = ask_client ("\"srv-1\"", "ping");
  g_autoptr(JsonObject) roots = NULL;
  JsonObject *error;

  if (pong == NULL || !member_is_object (pong, "result"))
    {
      *problem = g_strdup ("the client did not answer ping with an object");
      return FALSE;
    }

  roots = ask_client ("\"srv-2\"", "roots/list");
  if (roots == NULL || !member_is_object (roots, "error"))
    {
      *problem = g_strdup ("the client did not answer roots/list with an error");
      return FALSE;
    }

  error = json_object_get_object_member (roots, "error");
  if (json_object_get_int_member_with_default (error, "code", 0) != -32601)
    {
      *problem = g_strdup ("the client answered roots/list with the wrong error code");
      return FALSE;
    }

  return TRUE;
}

/* The answers a client gives through a JSON-RPC peer that knows no other
 * request than ping: an empty result, and -32601 naming the method. */
static gboolean
check_client_answers_while_listing (char **problem)
{
  g_autoptr(JsonObject) pong = ask_client ("0", "ping");
  g_autoptr(JsonObject) elicitation = NULL;
  JsonObject *error;
  JsonObject *data = NULL;

  if (pong == NULL || !member_is_object (pong, "result"))
    {
      *problem = g_strdup ("the client did not answer ping (id 0) with an object");
      return FALSE;
    }

  elicitation = ask_client ("\"srv-3\"", "elicitation/create");
  if (elicitation == NULL || !member_is_object (elicitation, "error"))
    {
      *problem = g_strdup ("the client did not answer elicitation/create with an error");
      return FALSE;
    }

  error = json_object_get_object_member (elicitation, "error");
  if (member_is_object (error, "data"))
    data = json_object_get_object_member (error, "data");
  if (json_object_get_int_member_with_default (error, "code", 0) != -32601 || data == NULL ||
      g_strcmp0 (json_object_get_string_member_with_default (data, "method", NULL),
                 "elicitation/create") != 0)
    {
      *problem = g_strdup ("the client's error for elicitation/create is not -32601 "
                           "naming the method");
      return FALSE;
    }

  return TRUE;
}

static void
handle_initialize (JsonNode   *id,
                   JsonObject *params)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonObject *client_info;
  const char *version = g_getenv ("FAKE_MCP_SERVER_VERSION");

  if (params == NULL ||
      json_object_get_string_member_with_default (params, "protocolVersion", NULL) == NULL ||
      !json_object_has_member (params, "capabilities") ||
      !member_is_object (params, "clientInfo"))
    {
      send_error (id, -32602, "initialize: missing protocolVersion, capabilities or clientInfo");
      return;
    }

  client_info = json_object_get_object_member (params, "clientInfo");
  if (g_strcmp0 (json_object_get_string_member_with_default (client_info, "name", NULL),
                 "palaver") != 0 ||
      json_object_get_string_member_with_default (client_info, "version", NULL) == NULL)
    {
      send_error (id, -32602, "initialize: clientInfo is not palaver's");
      return;
    }

  if (g_str_equal (mode, "error"))
    {
      send_error (id, -32603, "fake failure: no credentials configured");
      return;
    }

  if (g_str_equal (mode, "ping"))
    {
      g_autofree char *problem = NULL;

      if (!check_client_answers (&problem))
        {
          send_error (id, -32603, problem);
          return;
        }
    }

  /* A notification first: the client must not mistake it for the answer. */
  write_raw ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
             "\"params\":{\"level\":\"info\",\"data\":\"starting\"}}");

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "protocolVersion");
  json_builder_add_string_value (builder, protocol_version);
  json_builder_set_member_name (builder, "capabilities");
  json_builder_begin_object (builder);
  if (!g_str_equal (mode, "no-tools"))
    {
      json_builder_set_member_name (builder, "tools");
      json_builder_begin_object (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "serverInfo");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "fake-mcp-server");
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, version != NULL ? version : "1.2.3");
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  send_result (id, json_builder_get_root (builder));
}

static void
add_tool (JsonBuilder *builder,
          const char  *name,
          const char  *description)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, name);
  if (description != NULL)
    {
      json_builder_set_member_name (builder, "description");
      json_builder_add_string_value (builder, description);
    }
  json_builder_set_member_name (builder, "inputSchema");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "object");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
}

static void
handle_tools_list (JsonNode   *id,
                   JsonObject *params)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const char *cursor = NULL;

  if (!initialized)
    {
      send_error (id, -32002, "tools/list before notifications/initialized");
      return;
    }

  if (params != NULL)
    cursor = json_object_get_string_member_with_default (params, "cursor", NULL);

  if (cursor == NULL && g_str_equal (mode, "ask-while-listing"))
    {
      g_autofree char *problem = NULL;

      if (!check_client_answers_while_listing (&problem))
        {
          send_error (id, -32603, problem);
          return;
        }
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tools");
  json_builder_begin_array (builder);

  if (cursor == NULL)
    {
      add_tool (builder, "alpha", "The first tool");
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "nextCursor");
      json_builder_add_string_value (builder, "page-2");
    }
  else if (g_str_equal (cursor, "page-2"))
    {
      add_tool (builder, "beta", NULL);
      json_builder_end_array (builder);
    }
  else
    {
      send_error (id, -32602, "unknown cursor");
      return;
    }

  json_builder_end_object (builder);
  send_result (id, json_builder_get_root (builder));
}

static void
handle_line (const char *line)
{
  g_autoptr(JsonNode) node = parse (line);
  JsonObject *object;
  JsonNode *id;
  JsonObject *params = NULL;
  const char *method;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  object = json_node_get_object (node);
  method = json_object_get_string_member_with_default (object, "method", NULL);
  id = json_object_get_member (object, "id");
  if (member_is_object (object, "params"))
    params = json_object_get_object_member (object, "params");

  if (method == NULL)
    return;

  if (id == NULL)
    {
      if (g_str_equal (method, "notifications/initialized"))
        initialized = TRUE;
      return;
    }

  if (g_str_equal (method, "initialize"))
    handle_initialize (id, params);
  else if (g_str_equal (method, "tools/list") && !g_str_equal (mode, "no-tools"))
    handle_tools_list (id, params);
  else
    send_error (id, -32601, "Method not found");
}

int
main (int   argc,
      char *argv[])
{
  const char *pid_file = g_getenv ("FAKE_MCP_PID_FILE");
  gboolean hang;

  if (argc > 1)
    mode = argv[1];
  for (int i = 2; i < argc; i++)
    if (g_str_has_prefix (argv[i], "--protocol-version="))
      protocol_version = argv[i] + strlen ("--protocol-version=");

  /* before the pid is written: a test that saw it knows SIGTERM will not do */
  if (g_str_equal (mode, "hang-stubborn"))
    signal (SIGTERM, SIG_IGN);

  if (pid_file != NULL)
    {
      g_autofree char *pid = g_strdup_printf ("%d", (int) getpid ());

      if (!g_file_set_contents (pid_file, pid, -1, NULL))
        return 3;
    }

  if (g_str_equal (mode, "exit-early"))
    {
      fputs ("fake-mcp-server: starting\n", stderr);
      fputs ("fake-mcp-server: cannot start: the configuration file is missing\n", stderr);
      return 4;
    }

  if (g_str_equal (mode, "crlf"))
    line_end = "\r\n";

  if (g_str_equal (mode, "garbage"))
    {
      write_raw ("Starting fake server on stdio...");
      write_raw ("");
      write_raw ("not json {");
      write_raw ("[1, 2");
      write_raw ("{\"level\":\"info\",\"msg\":\"a JSON log line, not JSON-RPC\"}");
      write_raw ("{\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}");
    }

  if (g_str_equal (mode, "garbage-forever"))
    for (guint i = 0; i < 500; i++)
      {
        g_autofree char *line = g_strdup_printf ("log line %u", i);

        write_raw (line);
      }

  hang = g_str_equal (mode, "hang") || g_str_equal (mode, "hang-stubborn");

  for (;;)
    {
      g_autofree char *line = read_line ();

      if (line == NULL)
        break;
      if (!hang)
        handle_line (line);
    }

  if (g_str_equal (mode, "hang-stubborn"))
    for (;;)
      pause ();

  return 0;
}
