/* test-mcp-server.c: AcpMcpServer validation and wire JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-mcp-server.h"

static char *
server_to_string (AcpMcpServer *server)
{
  g_autoptr(JsonNode) node = acp_mcp_server_to_json (server);

  return json_to_string (node, FALSE);
}

/* Asserts that validation fails with INVALID_ARGUMENT and a message that
 * contains every word of @needles (case-insensitively). */
static void
assert_invalid (AcpMcpServer *server,
                const char   *needles)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) words = g_strsplit (needles, " ", -1);
  g_autofree char *message = NULL;

  g_assert_false (acp_mcp_server_validate (server, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_ARGUMENT);
  message = g_ascii_strdown (error->message, -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *word = g_ascii_strdown (words[i], -1);

      if (strstr (message, word) == NULL)
        g_error ("“%s” does not mention “%s”", error->message, words[i]);
    }
}

static void
assert_valid (AcpMcpServer *server)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (acp_mcp_server_validate (server, &error));
  g_assert_no_error (error);
}

static void
test_stdio_json (void)
{
  const char *args[] = { "dist/index.js", "stdio", "--flag=\"quoted\"", NULL };
  g_autoptr(AcpMcpServer) server = acp_mcp_server_new_stdio ("everything", "/usr/bin/node", args);
  g_autofree char *json = NULL;

  acp_mcp_server_add_env (server, "API_KEY", "secret value");
  acp_mcp_server_add_env (server, "_DEBUG2", "");
  acp_mcp_server_add_env (server, "API_KEY", "second");

  assert_valid (server);
  g_assert_cmpint (acp_mcp_server_get_transport (server), ==, ACP_MCP_TRANSPORT_STDIO);
  g_assert_cmpstr (acp_mcp_server_get_transport_name (server), ==, "stdio");
  g_assert_cmpstr (acp_mcp_server_get_name (server), ==, "everything");
  g_assert_cmpstr (acp_mcp_server_get_command (server), ==, "/usr/bin/node");
  g_assert_true (g_strv_equal (acp_mcp_server_get_args (server), args));
  g_assert_null (acp_mcp_server_get_url (server));
  g_assert_cmpuint (acp_mcp_server_get_n_env (server), ==, 3);
  g_assert_cmpstr (acp_mcp_server_get_env_name (server, 1), ==, "_DEBUG2");
  g_assert_cmpstr (acp_mcp_server_get_env_value (server, 2), ==, "second");
  g_assert_cmpuint (acp_mcp_server_get_n_headers (server), ==, 0);

  json = server_to_string (server);
  g_assert_cmpstr (json, ==,
                   "{\"name\":\"everything\",\"command\":\"/usr/bin/node\","
                   "\"args\":[\"dist/index.js\",\"stdio\",\"--flag=\\\"quoted\\\"\"],"
                   "\"env\":[{\"name\":\"API_KEY\",\"value\":\"secret value\"},"
                   "{\"name\":\"_DEBUG2\",\"value\":\"\"},"
                   "{\"name\":\"API_KEY\",\"value\":\"second\"}]}");
}

static void
test_stdio_json_empty (void)
{
  g_autoptr(AcpMcpServer) server = acp_mcp_server_new_stdio ("fs", "/opt/fs-server", NULL);
  g_autofree char *json = NULL;

  assert_valid (server);
  g_assert_nonnull (acp_mcp_server_get_args (server));
  g_assert_null (acp_mcp_server_get_args (server)[0]);

  /* the schema requires args and env even when empty, and no "type" */
  json = server_to_string (server);
  g_assert_cmpstr (json, ==,
                   "{\"name\":\"fs\",\"command\":\"/opt/fs-server\",\"args\":[],\"env\":[]}");
}

static void
test_http_json (void)
{
  g_autoptr(AcpMcpServer) server = NULL;
  g_autofree char *json = NULL;

  server = acp_mcp_server_new_http ("remote", "https://mcp.example.org/mcp?x=1");
  acp_mcp_server_add_header (server, "Authorization", "Bearer abc");
  acp_mcp_server_add_header (server, "X-Trace", "1");

  assert_valid (server);
  g_assert_cmpint (acp_mcp_server_get_transport (server), ==, ACP_MCP_TRANSPORT_HTTP);
  g_assert_cmpstr (acp_mcp_server_get_url (server), ==, "https://mcp.example.org/mcp?x=1");
  g_assert_null (acp_mcp_server_get_command (server));
  g_assert_null (acp_mcp_server_get_args (server));
  g_assert_cmpuint (acp_mcp_server_get_n_headers (server), ==, 2);
  g_assert_cmpstr (acp_mcp_server_get_header_name (server, 0), ==, "Authorization");
  g_assert_cmpstr (acp_mcp_server_get_header_value (server, 1), ==, "1");

  json = server_to_string (server);
  g_assert_cmpstr (json, ==,
                   "{\"type\":\"http\",\"name\":\"remote\","
                   "\"url\":\"https://mcp.example.org/mcp?x=1\","
                   "\"headers\":[{\"name\":\"Authorization\",\"value\":\"Bearer abc\"},"
                   "{\"name\":\"X-Trace\",\"value\":\"1\"}]}");
}

static void
test_sse_json (void)
{
  g_autoptr(AcpMcpServer) server = acp_mcp_server_new_sse ("events", "http://127.0.0.1:3001/sse");
  g_autofree char *json = NULL;

  assert_valid (server);
  g_assert_cmpstr (acp_mcp_server_get_transport_name (server), ==, "sse");

  json = server_to_string (server);
  g_assert_cmpstr (json, ==,
                   "{\"type\":\"sse\",\"name\":\"events\",\"url\":\"http://127.0.0.1:3001/sse\","
                   "\"headers\":[]}");
}

static void
test_validate_name (void)
{
  g_autoptr(AcpMcpServer) empty = acp_mcp_server_new_stdio ("", "/bin/true", NULL);
  g_autoptr(AcpMcpServer) blank = acp_mcp_server_new_http ("  ", "https://example.org");
  g_autoptr(AcpMcpServer) null_name = acp_mcp_server_new_sse (NULL, "https://example.org");

  assert_invalid (empty, "name empty");
  assert_invalid (blank, "name empty");
  assert_invalid (null_name, "name empty");
}

static void
test_validate_command (void)
{
  g_autoptr(AcpMcpServer) empty = acp_mcp_server_new_stdio ("s", "", NULL);
  g_autoptr(AcpMcpServer) null_cmd = acp_mcp_server_new_stdio ("s", NULL, NULL);
  g_autoptr(AcpMcpServer) relative = acp_mcp_server_new_stdio ("s", "node", NULL);
  g_autoptr(AcpMcpServer) dot = acp_mcp_server_new_stdio ("s", "./bin/server", NULL);

  assert_invalid (empty, "command empty");
  assert_invalid (null_cmd, "command empty");
  assert_invalid (relative, "command absolute node");
  assert_invalid (dot, "command absolute ./bin/server");
}

static void
test_validate_url (void)
{
  struct {
    const char *url;
    const char *needles;
  } cases[] = {
    { "", "URL empty" },
    { "not a url", "URL not valid" },
    { "ftp://example.org/mcp", "URL scheme ftp" },
    { "file:///tmp/socket", "URL scheme file" },
    { "http://[::1/mcp", "URL not valid" },
    { "https:///nohost", "URL" },
    { "http://127.0.0.1:3000/mcp Bad Header", "URL space" },
    { "http://example.org/\tmcp", "URL control" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AcpMcpServer) http = acp_mcp_server_new_http ("s", cases[i].url);
      g_autoptr(AcpMcpServer) sse = acp_mcp_server_new_sse ("s", cases[i].url);

      assert_invalid (http, cases[i].needles);
      assert_invalid (sse, cases[i].needles);
    }

  {
    g_autoptr(AcpMcpServer) upper = acp_mcp_server_new_http ("s", "HTTPS://Example.org:8443/mcp");
    g_autoptr(AcpMcpServer) v6 = acp_mcp_server_new_sse ("s", "http://[::1]:3000/sse");

    assert_valid (upper);
    assert_valid (v6);
  }
}

static void
test_validate_headers (void)
{
  const char *bad_names[] = { "", "Bad Name", "X:Y", "Ümlaut", "a\"b", "(x)", "x/y" };
  const char *good_names[] = { "X-Api-Key", "!#$%&'*+-.^_`|~09azAZ" };

  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autoptr(AcpMcpServer) server = acp_mcp_server_new_http ("s", "https://example.org/");

      acp_mcp_server_add_header (server, "Good", "v");
      acp_mcp_server_add_header (server, bad_names[i], "v");
      assert_invalid (server, "header name");
    }

  for (guint i = 0; i < G_N_ELEMENTS (good_names); i++)
    {
      g_autoptr(AcpMcpServer) server = acp_mcp_server_new_sse ("s", "https://example.org/");

      acp_mcp_server_add_header (server, good_names[i], "any value: with ; punctuation");
      assert_valid (server);
    }

  {
    g_autoptr(AcpMcpServer) cr = acp_mcp_server_new_http ("s", "https://example.org/");
    g_autoptr(AcpMcpServer) lf = acp_mcp_server_new_sse ("s", "https://example.org/");

    acp_mcp_server_add_header (cr, "Authorization", "Bearer x\rInjected: 1");
    acp_mcp_server_add_header (lf, "X-Key", "a\nb");
    assert_invalid (cr, "value header Authorization line break");
    assert_invalid (lf, "value header X-Key line break");
  }
}

static void
test_validate_env (void)
{
  const char *bad_names[] = { "", "A=B", "1ABC", "MY-VAR", "MY VAR", "ÄÖ", "=" };
  const char *good_names[] = { "A", "_", "_x9", "PATH", "lower_case" };

  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autoptr(AcpMcpServer) server = acp_mcp_server_new_stdio ("s", "/bin/true", NULL);

      acp_mcp_server_add_env (server, "OK", "1");
      acp_mcp_server_add_env (server, bad_names[i], "1");
      assert_invalid (server, "environment variable name");
    }

  for (guint i = 0; i < G_N_ELEMENTS (good_names); i++)
    {
      g_autoptr(AcpMcpServer) server = acp_mcp_server_new_stdio ("s", "/bin/true", NULL);

      acp_mcp_server_add_env (server, good_names[i], "value with = and spaces");
      assert_valid (server);
    }
}

static void
test_validate_utf8 (void)
{
  const char *args[] = { "ok", "\xff\xfe", NULL };
  g_autoptr(AcpMcpServer) bad_name = acp_mcp_server_new_stdio ("\xc3", "/bin/true", NULL);
  g_autoptr(AcpMcpServer) bad_arg = acp_mcp_server_new_stdio ("s", "/bin/true", args);
  g_autoptr(AcpMcpServer) bad_header = acp_mcp_server_new_http ("s", "https://example.org/");

  acp_mcp_server_add_header (bad_header, "X-A", "\xe2\x82");

  assert_invalid (bad_name, "name UTF-8");
  assert_invalid (bad_arg, "argument 2 UTF-8");
  assert_invalid (bad_header, "header X-A UTF-8");
}

static void
test_properties (void)
{
  g_autoptr(AcpMcpServer) server = acp_mcp_server_new_sse ("p", "https://example.org/sse");
  g_autofree char *name = NULL;
  g_autofree char *url = NULL;
  AcpMcpTransport transport;

  g_object_get (server, "name", &name, "url", &url, "transport", &transport, NULL);
  g_assert_cmpstr (name, ==, "p");
  g_assert_cmpstr (url, ==, "https://example.org/sse");
  g_assert_cmpint (transport, ==, ACP_MCP_TRANSPORT_SSE);
}

/* The wire names are the GEnum's nicks, one per transport. */
static void
test_transport_names (void)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (ACP_TYPE_MCP_TRANSPORT);
  g_autofree char *names = acp_mcp_transport_dup_names ();
  AcpMcpTransport transport = ACP_MCP_TRANSPORT_HTTP;

  g_assert_cmpuint (klass->n_values, ==, ACP_MCP_N_TRANSPORTS);
  for (AcpMcpTransport t = 0; t < ACP_MCP_N_TRANSPORTS; t++)
    {
      AcpMcpTransport read = ACP_MCP_N_TRANSPORTS;

      g_assert_nonnull (acp_mcp_transport_to_string (t));
      g_assert_true (acp_mcp_transport_from_string (acp_mcp_transport_to_string (t), &read));
      g_assert_cmpint (read, ==, t);
      if (t != ACP_MCP_TRANSPORT_STDIO)
        {
          g_autoptr(AcpMcpServer) server = acp_mcp_server_new_remote (t, "r", "https://x.test/");

          g_assert_cmpstr (acp_mcp_server_get_transport_name (server), ==,
                           acp_mcp_transport_to_string (t));
        }
    }
  g_assert_cmpstr (acp_mcp_transport_to_string (ACP_MCP_TRANSPORT_SSE), ==, "sse");
  g_assert_null (acp_mcp_transport_to_string (ACP_MCP_N_TRANSPORTS));

  g_assert_false (acp_mcp_transport_from_string ("SSE", &transport));
  g_assert_false (acp_mcp_transport_from_string ("carrier-pigeon", &transport));
  g_assert_false (acp_mcp_transport_from_string (NULL, &transport));
  g_assert_cmpint (transport, ==, ACP_MCP_TRANSPORT_HTTP);

  g_assert_cmpstr (names, ==, "stdio, http, sse");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp-server/json/stdio", test_stdio_json);
  g_test_add_func ("/mcp-server/json/stdio-empty", test_stdio_json_empty);
  g_test_add_func ("/mcp-server/json/http", test_http_json);
  g_test_add_func ("/mcp-server/json/sse", test_sse_json);
  g_test_add_func ("/mcp-server/validate/name", test_validate_name);
  g_test_add_func ("/mcp-server/validate/command", test_validate_command);
  g_test_add_func ("/mcp-server/validate/url", test_validate_url);
  g_test_add_func ("/mcp-server/validate/headers", test_validate_headers);
  g_test_add_func ("/mcp-server/validate/env", test_validate_env);
  g_test_add_func ("/mcp-server/validate/utf8", test_validate_utf8);
  g_test_add_func ("/mcp-server/properties", test_properties);
  g_test_add_func ("/mcp-server/transport-names", test_transport_names);

  return g_test_run ();
}
