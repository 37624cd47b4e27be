/* test-fs-service.c: fs/read_text_file and fs/write_text_file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test plays the agent: an AcpConnection on one end of a socketpair
 * sends the requests a real agent would send to an AcpAgent on the other
 * end, to which an AcpFsService is attached. One test runs the scripted fake
 * agent (tests/scenarios/fs.json) as a real process instead.
 */

#include "config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "acp-agent.h"
#include "acp-fs-service.h"
#include "test-util.h"

#define SESSION "sess-1"

static void
count_cb (guint *counter)
{
  (*counter)++;
}

/* fixture {{{ */

typedef enum
{
  ACCESS_NONE,      /* no handler */
  ACCESS_ALLOW,     /* answers allow at once */
  ACCESS_DENY,      /* answers deny at once */
  ACCESS_LATER,     /* keeps the request; the test answers */
  ACCESS_IGNORE,    /* returns TRUE without answering or keeping it */
} AccessMode;

typedef struct
{
  char               *tmpdir;
  char               *root;       /* the session folder */
  char               *outside;    /* a sibling folder outside it */
  AcpConnection      *peer;       /* the test, as agent */
  AcpAgent           *agent;
  AcpFsService       *service;
  AccessMode          access_mode;
  GPtrArray          *access_requests; /* AcpFsAccessRequest */
} Fixture;

static gboolean
access_request_cb (AcpFsService       *service,
                   const char         *session_id,
                   const char         *path,
                   gboolean            write,
                   AcpFsAccessRequest *request,
                   Fixture            *f)
{
  g_assert_cmpstr (session_id, ==, acp_fs_access_request_get_session_id (request));
  g_assert_cmpstr (path, ==, acp_fs_access_request_get_path (request));
  g_assert_cmpint (write, ==, acp_fs_access_request_get_write (request));
  g_assert_false (acp_fs_access_request_get_answered (request));
  g_ptr_array_add (f->access_requests, g_object_ref (request));

  switch (f->access_mode)
    {
    case ACCESS_NONE:
      g_assert_not_reached ();
    case ACCESS_ALLOW:
      acp_fs_access_request_allow (request);
      return TRUE;
    case ACCESS_DENY:
      acp_fs_access_request_deny (request);
      return TRUE;
    case ACCESS_LATER:
      return TRUE;
    case ACCESS_IGNORE:
      /* the test's own reference is dropped at once */
      g_ptr_array_remove (f->access_requests, request);
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static void
start_agent (Fixture               *f,
             AcpClientCapabilities  caps)
{
  const char *roots[] = { f->root, NULL };

  acp_agent_set_client_capabilities (f->agent, caps);
  f->service = acp_fs_service_new ();
  acp_fs_service_attach (f->service, f->agent);
  /* attaching twice changes nothing */
  acp_fs_service_attach (f->service, f->agent);
  acp_fs_service_set_roots (f->service, f->agent, SESSION, roots);
  test_agent_start (f->agent);
}

static void
write_file (const char *path,
            const char *contents,
            gssize      len)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->tmpdir = test_make_tmpdir ("test-fs-service");
  f->root = g_build_filename (f->tmpdir, "root", NULL);
  f->outside = g_build_filename (f->tmpdir, "outside", NULL);
  g_assert_cmpint (g_mkdir (f->root, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (f->outside, 0755), ==, 0);
  f->access_requests = g_ptr_array_new_with_free_func (g_object_unref);

  f->agent = test_agent_new_with_peer (&f->peer);

  if (data == NULL)
    start_agent (f, ACP_CLIENT_CAP_FS_READ | ACP_CLIENT_CAP_FS_WRITE);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_pointer (&f->access_requests, g_ptr_array_unref);
  test_peer_close (f->peer, f->agent);
  g_clear_object (&f->agent);
  g_clear_object (&f->service);
  g_clear_object (&f->peer);
  g_free (f->tmpdir);
  g_free (f->root);
  g_free (f->outside);
}

/* }}} */

/* calls {{{ */

/* Calls @method as the agent at the other end of @peer. */
static JsonNode *
call_as (AcpConnection  *peer,
         const char     *method,
         JsonObject     *params,
         GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), params);

  acp_connection_call_async (peer, method, node, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);

  return acp_connection_call_finish (peer, result, error);
}

static JsonNode *
call (Fixture     *f,
      const char  *method,
      JsonObject  *params,
      GError     **error)
{
  return call_as (f->peer, method, params, error);
}

static JsonObject *
read_params (const char *session_id,
             const char *path)
{
  JsonObject *params = json_object_new ();

  if (session_id != NULL)
    json_object_set_string_member (params, "sessionId", session_id);
  if (path != NULL)
    json_object_set_string_member (params, "path", path);

  return params;
}

/* Reads @path: the content, or NULL and @error. */
static char *
read_file_full (Fixture     *f,
                const char  *path,
                gint64       line,
                gint64       limit,
                GError     **error)
{
  g_autoptr(JsonObject) params = read_params (SESSION, path);
  g_autoptr(JsonNode) result = NULL;
  JsonObject *object;

  if (line != 0)
    json_object_set_int_member (params, "line", line);
  if (limit >= 0)
    json_object_set_int_member (params, "limit", limit);

  result = call (f, "fs/read_text_file", params, error);
  if (result == NULL)
    return NULL;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  object = json_node_get_object (result);
  g_assert_true (json_object_has_member (object, "content"));

  return g_strdup (json_object_get_string_member (object, "content"));
}

static char *
read_file (Fixture    *f,
           const char *path)
{
  g_autoptr(GError) error = NULL;
  char *content = read_file_full (f, path, 0, -1, &error);

  g_assert_no_error (error);
  return content;
}

static gboolean
write_text (Fixture     *f,
            const char  *path,
            const char  *content,
            GError     **error)
{
  g_autoptr(JsonObject) params = read_params (SESSION, path);
  g_autoptr(JsonNode) result = NULL;

  json_object_set_string_member (params, "content", content);
  result = call (f, "fs/write_text_file", params, error);
  if (result == NULL)
    return FALSE;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  return TRUE;
}

/* Asserts a remote error with @code whose message contains @text and whose
 * data names @path (when not NULL). */
static void
assert_wire_error (const GError *error,
                   int           code,
                   const char   *text,
                   const char   *path)
{
  JsonNode *data;

  g_assert_nonnull (error);
  g_assert_true (acp_error_is_remote (error));
  g_assert_error (error, ACP_ERROR, code);
  if (text != NULL && strstr (error->message, text) == NULL)
    g_error ("“%s” does not contain “%s”", error->message, text);

  if (path != NULL)
    {
      data = acp_error_get_data (error);
      g_assert_nonnull (data);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (data));
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (data), "path"), ==, path);
    }
}

static char *
root_file (Fixture    *f,
           const char *name)
{
  return g_build_filename (f->root, name, NULL);
}

static char *
outside_file (Fixture    *f,
              const char *name)
{
  return g_build_filename (f->outside, name, NULL);
}

/* }}} */

/* reading {{{ */

static void
test_read_whole (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = root_file (f, "a.txt");
  g_autofree char *content = NULL;
  g_autofree char *empty_path = root_file (f, "empty.txt");
  g_autofree char *empty = NULL;

  write_file (path, "héllo\r\nwörld\nno newline at the end", -1);
  content = read_file (f, path);
  g_assert_cmpstr (content, ==, "héllo\r\nwörld\nno newline at the end");

  write_file (empty_path, "", 0);
  empty = read_file (f, empty_path);
  g_assert_cmpstr (empty, ==, "");
}

static void
test_read_lines (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = root_file (f, "lines.txt");
  struct {
    gint64      line;
    gint64      limit;
    const char *expected;
  } cases[] = {
    { 1, -1, "one\ntwo\r\nthree\nfour\nfive" },
    { 2, 2, "two\r\nthree\n" },
    { 4, -1, "four\nfive" },
    { 5, 10, "five" },
    { 6, -1, "" },
    { 1000, 1, "" },
    { 1, 0, "" },
    { 3, 1, "three\n" },
    { 0, 1, "one\n" },     /* 0 reads as the first line */
  };

  write_file (path, "one\ntwo\r\nthree\nfour\nfive", -1);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *content = read_file_full (f, path, cases[i].line, cases[i].limit, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (content, ==, cases[i].expected);
    }
}

static void
test_read_wrong_types (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *path = root_file (f, "lines.txt");
  g_autoptr(JsonObject) params = read_params (SESSION, path);
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GError) error = NULL;

  write_file (path, "one\ntwo\n", -1);

  /* as the schema says: line and limit of the wrong kind read as absent */
  json_object_set_string_member (params, "line", "2");
  json_object_set_int_member (params, "limit", -3);
  result = call (f, "fs/read_text_file", params, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (result), "content"), ==,
                   "one\ntwo\n");
}

static void
test_read_bad_params (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *path = root_file (f, "a.txt");
  struct {
    const char *json;
    const char *text;
  } cases[] = {
    { "{\"sessionId\": \"" SESSION "\"}", "path" },
    { "{\"sessionId\": \"" SESSION "\", \"path\": 42}", "path" },
    { "{\"sessionId\": \"" SESSION "\", \"path\": \"\"}", "path" },
    { "{\"sessionId\": \"" SESSION "\", \"path\": \"relative/a.txt\"}", "absolute" },
    { "{\"sessionId\": \"" SESSION "\", \"path\": \"../a.txt\"}", "absolute" },
    { "{\"path\": \"/etc/hostname\"}", "sessionId" },
    { "{\"sessionId\": 7, \"path\": \"/etc/hostname\"}", "sessionId" },
  };

  write_file (path, "x", -1);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) params = json_from_string (cases[i].json, NULL);
      g_autoptr(JsonNode) result = NULL;
      g_autoptr(GError) error = NULL;

      result = call (f, "fs/read_text_file", json_node_get_object (params), &error);
      g_assert_null (result);
      assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, cases[i].text, NULL);
    }

  /* params that are not an object */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(JsonNode) params = json_from_string ("[1, 2]", NULL);
    g_autoptr(JsonNode) reply = NULL;
    g_autoptr(GError) error = NULL;

    acp_connection_call_async (f->peer, "fs/read_text_file", params, NULL, test_store_result_cb, &result);
    WAIT_UNTIL (result != NULL);
    reply = acp_connection_call_finish (f->peer, result, &error);
    g_assert_null (reply);
    assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, NULL, NULL);
  }

  /* nothing was asked of the application */
  g_assert_cmpuint (f->access_requests->len, ==, 0);
}

static void
test_read_missing (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = root_file (f, "nope.txt");
  g_autofree char *deep = root_file (f, "no/such/dir/x.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) deep_error = NULL;
  g_autofree char *content = NULL;
  g_autofree char *deep_content = NULL;

  content = read_file_full (f, path, 0, -1, &error);
  g_assert_null (content);
  assert_wire_error (error, ACP_ERROR_RESOURCE_NOT_FOUND, path, path);

  deep_content = read_file_full (f, deep, 0, -1, &deep_error);
  g_assert_null (deep_content);
  assert_wire_error (deep_error, ACP_ERROR_RESOURCE_NOT_FOUND, deep, deep);
}

static void
test_read_not_text (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *latin1 = root_file (f, "latin1.txt");
  g_autofree char *nul = root_file (f, "nul.bin");
  g_autofree char *mixed = root_file (f, "mixed.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) nul_error = NULL;
  g_autoptr(GError) dir_error = NULL;
  g_autofree char *content = NULL;
  g_autofree char *first = NULL;

  write_file (latin1, "caf\xe9\n", -1);
  content = read_file_full (f, latin1, 0, -1, &error);
  g_assert_null (content);
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "UTF-8", latin1);

  write_file (nul, "ab\0cd", 5);
  g_clear_pointer (&content, g_free);
  content = read_file_full (f, nul, 0, -1, &nul_error);
  g_assert_null (content);
  assert_wire_error (nul_error, ACP_ERROR_INVALID_PARAMS, "UTF-8", nul);

  /* only the lines returned must be text */
  write_file (mixed, "fine\nbad \xff\xfe\n", -1);
  first = read_file_full (f, mixed, 1, 1, NULL);
  g_assert_cmpstr (first, ==, "fine\n");

  /* a folder */
  g_clear_pointer (&content, g_free);
  content = read_file_full (f, f->root, 0, -1, &dir_error);
  g_assert_null (content);
  assert_wire_error (dir_error, ACP_ERROR_INVALID_PARAMS, "folder", f->root);
}

static void
test_read_special_file (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *fifo = root_file (f, "fifo");
  g_autoptr(GError) error = NULL;
  g_autofree char *content = NULL;

  /* must be refused, not hang waiting for a writer */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  content = read_file_full (f, fifo, 0, -1, &error);
  g_assert_null (content);
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "regular file", fifo);
}

static void
test_read_size_cap (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *path = root_file (f, "big.txt");
  g_autoptr(GError) error = NULL;
  g_autofree char *content = NULL;
  guint notified = 0;

  g_assert_cmpuint (acp_fs_service_get_max_file_size (f->service), ==,
                    ACP_FS_SERVICE_DEFAULT_MAX_FILE_SIZE);
  g_assert_cmpuint (ACP_FS_SERVICE_DEFAULT_MAX_FILE_SIZE, ==, 50 * 1024 * 1024);

  g_signal_connect_swapped (f->service, "notify::max-file-size", G_CALLBACK (count_cb), &notified);
  acp_fs_service_set_max_file_size (f->service, 10);
  g_assert_cmpuint (notified, ==, 1);
  acp_fs_service_set_max_file_size (f->service, 10);
  g_assert_cmpuint (notified, ==, 1);   /* no change, no notify */

  write_file (path, "0123456789", -1);
  content = read_file (f, path);
  g_assert_cmpstr (content, ==, "0123456789");

  /* one byte more: refused, even when only the first line is asked for */
  write_file (path, "0\n23456789A", -1);
  g_clear_pointer (&content, g_free);
  content = read_file_full (f, path, 1, 1, &error);
  g_assert_null (content);
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "too large", path);
}

static void
test_read_large (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = root_file (f, "large.txt");
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *content = NULL;
  g_autofree char *tail = NULL;

  /* several read chunks, and many lines */
  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (text, "line %u ünïcode\n", i);
  write_file (path, text->str, text->len);

  content = read_file (f, path);
  g_assert_cmpuint (strlen (content), ==, text->len);
  g_assert_cmpstr (content, ==, text->str);

  tail = read_file_full (f, path, 99999, 5, NULL);
  g_assert_cmpstr (tail, ==, "line 99998 ünïcode\nline 99999 ünïcode\n");
}

/* }}} */

/* confinement {{{ */

static void
assert_refused (Fixture    *f,
                const char *path,
                const char *canonical)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *content = read_file_full (f, path, 0, -1, &error);

  g_assert_null (content);
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "outside", canonical);
}

static void
test_outside_refused (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *secret = outside_file (f, "secret.txt");
  g_autofree char *dotdot = g_build_filename (f->root, "..", "outside", "secret.txt", NULL);
  g_autofree char *deep_dotdot = g_build_filename (f->root, "sub", "..", "..", "outside", "secret.txt", NULL);
  g_autofree char *dots = g_strconcat (f->root, "/./sub/./../../outside/./secret.txt", NULL);
  g_autofree char *missing_then_up = g_strconcat (f->root, "/nonexistent/../../outside/secret.txt", NULL);
  g_autofree char *sibling = g_strconcat (f->root, "-sibling", NULL);
  g_autofree char *sibling_file = g_build_filename (sibling, "x.txt", NULL);
  g_autofree char *sub = root_file (f, "sub");

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  write_file (secret, "top secret", -1);
  g_assert_cmpint (g_mkdir (sibling, 0755), ==, 0);
  write_file (sibling_file, "sibling", -1);

  assert_refused (f, secret, secret);
  assert_refused (f, dotdot, secret);
  assert_refused (f, deep_dotdot, secret);
  assert_refused (f, dots, secret);
  assert_refused (f, missing_then_up, secret);
  /* a folder whose name starts with the root's name is not inside it */
  assert_refused (f, sibling_file, sibling_file);
  assert_refused (f, "/etc/passwd", "/etc/passwd");
  assert_refused (f, "/", "/");

  /* no handler: nothing asked */
  g_assert_cmpuint (f->access_requests->len, ==, 0);
}

static void
test_symlink_outside (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *secret = outside_file (f, "secret.txt");
  g_autofree char *file_link = root_file (f, "link.txt");
  g_autofree char *dir_link = root_file (f, "linkdir");
  g_autofree char *through_dir = g_build_filename (dir_link, "secret.txt", NULL);
  g_autofree char *relative_link = root_file (f, "rel.txt");
  g_autofree char *chain1 = root_file (f, "chain1");
  g_autofree char *chain2 = root_file (f, "chain2");
  g_autofree char *dangling = root_file (f, "dangling.txt");
  g_autofree char *dangling_target = outside_file (f, "new.txt");
  g_autofree char *loop = root_file (f, "loop");
  g_autofree char *loop_file = g_build_filename (loop, "x", NULL);
  g_autoptr(GError) write_error = NULL;
  g_autoptr(GError) dangling_error = NULL;
  g_autoptr(GError) loop_error = NULL;
  g_autofree char *loop_content = NULL;
  g_autofree char *after = NULL;

  write_file (secret, "top secret", -1);
  g_assert_cmpint (symlink (secret, file_link), ==, 0);
  g_assert_cmpint (symlink (f->outside, dir_link), ==, 0);
  g_assert_cmpint (symlink ("../outside/secret.txt", relative_link), ==, 0);
  g_assert_cmpint (symlink ("chain2", chain1), ==, 0);
  g_assert_cmpint (symlink ("linkdir/secret.txt", chain2), ==, 0);
  g_assert_cmpint (symlink (dangling_target, dangling), ==, 0);
  g_assert_cmpint (symlink ("loop", loop), ==, 0);

  assert_refused (f, file_link, secret);
  assert_refused (f, through_dir, secret);
  assert_refused (f, relative_link, secret);
  assert_refused (f, chain1, secret);

  /* a write through a link is refused and changes nothing */
  g_assert_false (write_text (f, file_link, "overwritten", &write_error));
  assert_wire_error (write_error, ACP_ERROR_INVALID_PARAMS, "outside", secret);
  g_file_get_contents (secret, &after, NULL, NULL);
  g_assert_cmpstr (after, ==, "top secret");

  /* nor can a dangling link create a file outside */
  g_assert_false (write_text (f, dangling, "created", &dangling_error));
  assert_wire_error (dangling_error, ACP_ERROR_INVALID_PARAMS, "outside", dangling_target);
  g_assert_false (g_file_test (dangling_target, G_FILE_TEST_EXISTS));

  /* a loop is an error, not a hang */
  loop_content = read_file_full (f, loop_file, 0, -1, &loop_error);
  g_assert_null (loop_content);
  assert_wire_error (loop_error, ACP_ERROR_INVALID_PARAMS, "symbolic links", NULL);
}

static void
test_symlink_inside (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *real = root_file (f, "real.txt");
  g_autofree char *alias = root_file (f, "alias.txt");
  g_autofree char *root_link = g_strconcat (f->tmpdir, "/rootlink", NULL);
  g_autofree char *via_root_link = g_build_filename (root_link, "real.txt", NULL);
  g_autofree char *content = NULL;
  g_autofree char *content2 = NULL;
  g_autofree char *content3 = NULL;
  const char *roots[] = { root_link, NULL };

  write_file (real, "real", -1);
  g_assert_cmpint (symlink ("real.txt", alias), ==, 0);
  g_assert_cmpint (symlink (f->root, root_link), ==, 0);

  content = read_file (f, alias);
  g_assert_cmpstr (content, ==, "real");
  content2 = read_file (f, via_root_link);
  g_assert_cmpstr (content2, ==, "real");

  /* a folder given through a link counts as the folder it names */
  acp_fs_service_set_roots (f->service, f->agent, SESSION, roots);
  content3 = read_file (f, real);
  g_assert_cmpstr (content3, ==, "real");
}

static void
test_several_roots (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *secret = outside_file (f, "secret.txt");
  g_autofree char *content = NULL;
  g_auto(GStrv) roots = NULL;
  const char *new_roots[] = { "relative/ignored", f->root, f->outside, NULL };

  write_file (secret, "top secret", -1);
  assert_refused (f, secret, secret);

  /* an additional directory */
  acp_fs_service_set_roots (f->service, f->agent, SESSION, new_roots);
  roots = acp_fs_service_dup_roots (f->service, f->agent, SESSION);
  g_assert_cmpuint (g_strv_length (roots), ==, 2);
  g_assert_cmpstr (roots[0], ==, f->root);
  g_assert_cmpstr (roots[1], ==, f->outside);
  content = read_file (f, secret);
  g_assert_cmpstr (content, ==, "top secret");

  /* another session does not share them */
  {
    g_autoptr(JsonObject) params = read_params ("sess-2", secret);
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) result = call (f, "fs/read_text_file", params, &error);

    g_assert_null (result);
    assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "outside", secret);
  }

  /* forgetting the session */
  acp_fs_service_set_roots (f->service, f->agent, SESSION, NULL);
  g_assert_null (acp_fs_service_dup_roots (f->service, f->agent, SESSION));
  assert_refused (f, secret, secret);
}

/* Reads @path of session SESSION as the agent at the other end of @peer. */
static char *
read_as (AcpConnection  *peer,
         const char     *path,
         GError        **error)
{
  g_autoptr(JsonObject) params = read_params (SESSION, path);
  g_autoptr(JsonNode) result = call_as (peer, "fs/read_text_file", params, error);

  if (result == NULL)
    return NULL;
  return g_strdup (json_object_get_string_member (json_node_get_object (result), "content"));
}

/* Two agents may give their sessions the same id: each reaches the folders
 * of its own session only, and one session forgotten leaves the other's */
static void
test_same_id_two_agents (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *mine = root_file (f, "mine.txt");
  g_autofree char *theirs = outside_file (f, "theirs.txt");
  const char *other_roots[] = { f->outside, NULL };
  g_autoptr(AcpConnection) peer = NULL;
  g_autoptr(AcpAgent) other = test_agent_new_with_peer (&peer);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) roots = NULL;
  char *content;

  write_file (mine, "mine", -1);
  write_file (theirs, "theirs", -1);

  acp_agent_set_client_capabilities (other, ACP_CLIENT_CAP_FS_READ);
  acp_fs_service_attach (f->service, other);
  acp_fs_service_set_roots (f->service, other, SESSION, other_roots);
  test_agent_start (other);

  f->access_mode = ACCESS_DENY;
  g_signal_connect (f->service, "access-request", G_CALLBACK (access_request_cb), f);

  /* the fixture's agent: its session has f->root */
  content = read_as (f->peer, mine, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (content, ==, "mine");
  g_free (content);
  g_assert_null (read_as (f->peer, theirs, &error));
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "outside", theirs);
  g_clear_error (&error);

  /* the other agent: its session of the same id has f->outside */
  content = read_as (peer, theirs, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (content, ==, "theirs");
  g_free (content);
  g_assert_null (read_as (peer, mine, &error));
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "outside", mine);
  g_clear_error (&error);

  /* the person is asked on behalf of the agent that asks */
  g_assert_cmpuint (f->access_requests->len, ==, 2);
  g_assert_true (acp_fs_access_request_get_agent (f->access_requests->pdata[0]) == f->agent);
  g_assert_true (acp_fs_access_request_get_agent (f->access_requests->pdata[1]) == other);

  /* the fixture's session goes; the other keeps its folders */
  acp_fs_service_set_roots (f->service, f->agent, SESSION, NULL);
  g_assert_null (acp_fs_service_dup_roots (f->service, f->agent, SESSION));
  roots = acp_fs_service_dup_roots (f->service, other, SESSION);
  g_assert_cmpstrv (roots, other_roots);
  content = read_as (peer, theirs, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (content, ==, "theirs");
  g_free (content);
  g_assert_null (read_as (f->peer, mine, &error));
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "outside", mine);

  test_peer_close (peer, other);
}

/* }}} */

/* access requests {{{ */

static void
test_access_allowed (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *secret = outside_file (f, "secret.txt");
  g_autofree char *dotdot = g_build_filename (f->root, "..", "outside", "secret.txt", NULL);
  g_autofree char *content = NULL;
  g_autofree char *written = outside_file (f, "written.txt");
  g_autofree char *back = NULL;
  g_autofree char *no_dir = outside_file (f, "no/such/dir.txt");
  g_autofree char *no_dir_parent = outside_file (f, "no/such");
  g_autoptr(GError) error = NULL;
  AcpFsAccessRequest *request;

  write_file (secret, "top secret", -1);
  f->access_mode = ACCESS_ALLOW;
  g_signal_connect (f->service, "access-request", G_CALLBACK (access_request_cb), f);

  content = read_file (f, dotdot);
  g_assert_cmpstr (content, ==, "top secret");
  g_assert_cmpuint (f->access_requests->len, ==, 1);
  request = g_ptr_array_index (f->access_requests, 0);
  /* the application sees where the agent really goes */
  g_assert_cmpstr (acp_fs_access_request_get_path (request), ==, secret);
  g_assert_cmpstr (acp_fs_access_request_get_session_id (request), ==, SESSION);
  g_assert_true (acp_fs_access_request_get_agent (request) == f->agent);
  g_assert_false (acp_fs_access_request_get_write (request));
  g_assert_true (acp_fs_access_request_get_answered (request));

  g_assert_true (write_text (f, written, "allowed", NULL));
  g_assert_cmpuint (f->access_requests->len, ==, 2);
  request = g_ptr_array_index (f->access_requests, 1);
  g_assert_true (acp_fs_access_request_get_write (request));
  g_file_get_contents (written, &back, NULL, NULL);
  g_assert_cmpstr (back, ==, "allowed");

  /* allowed outside, but no folders are made there */
  g_assert_false (write_text (f, no_dir, "x", &error));
  assert_wire_error (error, ACP_ERROR_RESOURCE_NOT_FOUND, "folder", no_dir);
  g_assert_false (g_file_test (no_dir_parent, G_FILE_TEST_EXISTS));

  /* inside the folders nothing is asked */
  {
    g_autofree char *inside = root_file (f, "in.txt");
    g_autofree char *inside_content = NULL;

    write_file (inside, "in", -1);
    inside_content = read_file (f, inside);
    g_assert_cmpstr (inside_content, ==, "in");
    g_assert_cmpuint (f->access_requests->len, ==, 3);
  }
}

static void
test_access_denied (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *secret = outside_file (f, "secret.txt");
  g_autofree char *target = outside_file (f, "target.txt");
  g_autoptr(GError) error = NULL;

  write_file (secret, "top secret", -1);
  f->access_mode = ACCESS_DENY;
  g_signal_connect (f->service, "access-request", G_CALLBACK (access_request_cb), f);

  assert_refused (f, secret, secret);
  g_assert_cmpuint (f->access_requests->len, ==, 1);

  g_assert_false (write_text (f, target, "x", &error));
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "Writing", target);
  g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));

  /* a handler that neither answers nor keeps the request: denied */
  f->access_mode = ACCESS_IGNORE;
  assert_refused (f, secret, secret);
}

static gboolean
allow_later_cb (gpointer data)
{
  acp_fs_access_request_allow (data);

  return G_SOURCE_REMOVE;
}

static void
test_access_later (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *secret = outside_file (f, "secret.txt");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) params = read_params (SESSION, secret);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), params);
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GError) error = NULL;
  AcpFsAccessRequest *request;
  guint answered_notifies = 0;

  write_file (secret, "top secret", -1);
  f->access_mode = ACCESS_LATER;
  g_signal_connect (f->service, "access-request", G_CALLBACK (access_request_cb), f);

  acp_connection_call_async (f->peer, "fs/read_text_file", node, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (f->access_requests->len == 1);
  request = g_ptr_array_index (f->access_requests, 0);
  g_signal_connect_swapped (request, "notify::answered", G_CALLBACK (count_cb), &answered_notifies);

  /* the agent waits while the person thinks: all that is pending handled,
   * no answer */
  test_drain_main_context ();
  g_assert_null (result);

  g_idle_add (allow_later_cb, request);
  WAIT_UNTIL (result != NULL);
  g_assert_cmpuint (answered_notifies, ==, 1);
  reply = acp_connection_call_finish (f->peer, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (reply), "content"), ==,
                   "top secret");

  /* a second answer changes nothing */
  acp_fs_access_request_deny (request);
  g_assert_true (acp_fs_access_request_get_answered (request));
  g_assert_cmpuint (answered_notifies, ==, 1);
}

static void
access_cancelled_cb (GCancellable       *cancellable,
                     AcpFsAccessRequest *request)
{
  /* a dialog that closes itself when the agent gives up */
  acp_fs_access_request_deny (request);
}

static void
test_access_cancelled (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *secret = outside_file (f, "secret.txt");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(JsonObject) params = read_params (SESSION, secret);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), params);
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GError) error = NULL;
  AcpFsAccessRequest *request;
  GCancellable *request_cancellable;

  write_file (secret, "top secret", -1);
  f->access_mode = ACCESS_LATER;
  g_signal_connect (f->service, "access-request", G_CALLBACK (access_request_cb), f);

  acp_connection_call_async (f->peer, "fs/read_text_file", node, cancellable, test_store_result_cb, &result);
  WAIT_UNTIL (f->access_requests->len == 1);
  request = g_ptr_array_index (f->access_requests, 0);
  request_cancellable = acp_fs_access_request_get_cancellable (request);
  g_assert_false (g_cancellable_is_cancelled (request_cancellable));
  g_signal_connect (request_cancellable, "cancelled", G_CALLBACK (access_cancelled_cb), request);

  /* the agent sends $/cancel_request: the question is withdrawn */
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (g_cancellable_is_cancelled (request_cancellable));
  g_assert_true (acp_fs_access_request_get_answered (request));
  WAIT_UNTIL (result != NULL);
  reply = acp_connection_call_finish (f->peer, result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* the service still works */
  {
    g_autofree char *inside = root_file (f, "in.txt");
    g_autofree char *content = NULL;

    write_file (inside, "in", -1);
    content = read_file (f, inside);
    g_assert_cmpstr (content, ==, "in");
  }
}

static void
test_unknown_session (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *inside = root_file (f, "in.txt");
  g_autoptr(JsonObject) params = read_params ("no-such-session", inside);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = NULL;
  AcpFsAccessRequest *request;

  write_file (inside, "in", -1);
  f->access_mode = ACCESS_DENY;
  g_signal_connect (f->service, "access-request", G_CALLBACK (access_request_cb), f);

  /* a session without folders: everything needs the application's consent */
  result = call (f, "fs/read_text_file", params, &error);
  g_assert_null (result);
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "outside", inside);
  g_assert_cmpuint (f->access_requests->len, ==, 1);
  request = g_ptr_array_index (f->access_requests, 0);
  g_assert_cmpstr (acp_fs_access_request_get_session_id (request), ==, "no-such-session");
}

/* }}} */

/* writing {{{ */

static void
test_write_create_replace (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *path = root_file (f, "new.txt");
  g_autofree char *nested = root_file (f, "a/b/c/nested.txt");
  g_autofree char *back = NULL;
  g_autofree char *nested_back = NULL;
  g_autofree char *content = NULL;

  g_assert_true (write_text (f, path, "first ✓\n", NULL));
  g_file_get_contents (path, &back, NULL, NULL);
  g_assert_cmpstr (back, ==, "first ✓\n");

  g_assert_true (write_text (f, path, "second", NULL));
  g_clear_pointer (&back, g_free);
  g_file_get_contents (path, &back, NULL, NULL);
  g_assert_cmpstr (back, ==, "second");

  /* empty content truncates */
  g_assert_true (write_text (f, path, "", NULL));
  g_clear_pointer (&back, g_free);
  g_file_get_contents (path, &back, NULL, NULL);
  g_assert_cmpstr (back, ==, "");

  /* missing folders inside the root are made */
  g_assert_true (write_text (f, nested, "deep", NULL));
  g_file_get_contents (nested, &nested_back, NULL, NULL);
  g_assert_cmpstr (nested_back, ==, "deep");

  /* and it reads back through the service */
  content = read_file (f, nested);
  g_assert_cmpstr (content, ==, "deep");
}

static void
test_write_atomic (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = root_file (f, "atomic.txt");
  g_autofree char *back = NULL;
  g_autoptr(GDir) dir = NULL;
  GStatBuf before, after;
  const char *name;
  char old[8] = { 0 };
  guint n = 0;
  int fd;

  write_file (path, "old", -1);
  g_assert_cmpint (g_stat (path, &before), ==, 0);
  /* a reader that has the old file open keeps seeing all of the old file:
   * the new one is written aside and renamed over it */
  fd = g_open (path, O_RDONLY, 0);
  g_assert_cmpint (fd, >=, 0);

  g_assert_true (write_text (f, path, "new", NULL));
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_assert_cmpuint (before.st_ino, !=, after.st_ino);
  g_file_get_contents (path, &back, NULL, NULL);
  g_assert_cmpstr (back, ==, "new");
  g_assert_cmpint (read (fd, old, sizeof old - 1), ==, 3);
  g_assert_cmpstr (old, ==, "old");
  g_close (fd, NULL);

  /* no backup or temporary file is left behind */
  dir = g_dir_open (f->root, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_assert_cmpstr (name, ==, "atomic.txt");
      n++;
    }
  g_assert_cmpuint (n, ==, 1);
}

static void
test_write_keeps_mode (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *script = root_file (f, "run.sh");
  g_autofree char *private = root_file (f, "private.txt");
  GStatBuf st;

  write_file (script, "#!/bin/sh\n", -1);
  g_assert_cmpint (g_chmod (script, 0751), ==, 0);
  write_file (private, "secret", -1);
  g_assert_cmpint (g_chmod (private, 0600), ==, 0);

  g_assert_true (write_text (f, script, "#!/bin/sh\necho hi\n", NULL));
  g_assert_true (write_text (f, private, "still secret", NULL));

  g_assert_cmpint (g_stat (script, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0751);
  g_assert_cmpint (g_stat (private, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
}

static void
test_write_errors (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *outside = outside_file (f, "x.txt");
  g_autofree char *outside_deep = outside_file (f, "made/x.txt");
  g_autofree char *escape = g_build_filename (f->root, "..", "outside", "made", "x.txt", NULL);
  g_autofree char *dir = root_file (f, "adir");
  g_autofree char *file = root_file (f, "file.txt");
  g_autofree char *under_file = root_file (f, "file.txt/x.txt");
  g_autofree char *outside_made = outside_file (f, "made");
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) deep_error = NULL;
  g_autoptr(GError) dir_error = NULL;
  g_autoptr(GError) content_error = NULL;
  g_autoptr(GError) under_error = NULL;
  g_autoptr(JsonObject) params = read_params (SESSION, file);
  g_autoptr(JsonNode) result = NULL;

  g_assert_false (write_text (f, outside, "x", &error));
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "outside", outside);
  g_assert_false (g_file_test (outside, G_FILE_TEST_EXISTS));

  /* no folder is made outside the root on the way to a refusal */
  g_assert_false (write_text (f, escape, "x", &deep_error));
  assert_wire_error (deep_error, ACP_ERROR_INVALID_PARAMS, "outside", outside_deep);
  g_assert_false (g_file_test (outside_made, G_FILE_TEST_EXISTS));

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_false (write_text (f, dir, "x", &dir_error));
  assert_wire_error (dir_error, ACP_ERROR_INVALID_PARAMS, "folder", dir);

  write_file (file, "a file", -1);
  g_assert_false (write_text (f, under_file, "x", &under_error));
  g_assert_true (acp_error_is_remote (under_error));
  g_assert_true (strstr (under_error->message, under_file) != NULL);

  /* content must be a string */
  json_object_set_int_member (params, "content", 5);
  result = call (f, "fs/write_text_file", params, &content_error);
  g_assert_null (result);
  assert_wire_error (content_error, ACP_ERROR_INVALID_PARAMS, "content", NULL);
}

static void
test_permission_denied (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *locked = root_file (f, "locked");
  g_autofree char *path = root_file (f, "locked/x.txt");
  g_autofree char *unreadable = root_file (f, "unreadable.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) read_error = NULL;
  g_autofree char *content = NULL;

  if (geteuid () == 0)
    {
      g_test_skip ("permissions do not apply to root");
      return;
    }

  g_assert_cmpint (g_mkdir (locked, 0555), ==, 0);
  g_assert_false (write_text (f, path, "x", &error));
  assert_wire_error (error, ACP_ERROR_INVALID_PARAMS, "Permission denied", path);

  write_file (unreadable, "x", -1);
  g_assert_cmpint (g_chmod (unreadable, 0200), ==, 0);
  content = read_file_full (f, unreadable, 0, -1, &read_error);
  g_assert_null (content);
  assert_wire_error (read_error, ACP_ERROR_INVALID_PARAMS, "Permission denied", unreadable);
}

/* }}} */

/* capabilities and life {{{ */

static void
test_not_advertised (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *path = root_file (f, "a.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) write_error = NULL;
  g_autofree char *content = NULL;

  write_file (path, "x", -1);
  /* only reading was advertised */
  start_agent (f, ACP_CLIENT_CAP_FS_READ);

  content = read_file (f, path);
  g_assert_cmpstr (content, ==, "x");

  g_assert_false (write_text (f, path, "y", &write_error));
  g_assert_error (write_error, ACP_ERROR, ACP_ERROR_METHOD_NOT_FOUND);

  /* after detaching, reads are not served either */
  acp_fs_service_detach (f->service, f->agent);
  g_clear_pointer (&content, g_free);
  content = read_file_full (f, path, 0, -1, &error);
  g_assert_null (content);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_METHOD_NOT_FOUND);
}

static void
test_service_gone (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = root_file (f, "a.txt");
  g_autoptr(GError) error = NULL;
  g_autofree char *content = NULL;

  write_file (path, "x", -1);
  g_clear_object (&f->service);

  content = read_file_full (f, path, 0, -1, &error);
  g_assert_null (content);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_METHOD_NOT_FOUND);
}

/* }}} */

/* the fake agent, a real process {{{ */

static void
test_fake_agent (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = test_make_tmpdir ("test-fs-service");
  g_autofree char *root = g_build_filename (tmpdir, "root", NULL);
  g_autofree char *inside = g_build_filename (root, "notes.txt", NULL);
  g_autofree char *written = g_build_filename (root, "out", "written.txt", NULL);
  g_autofree char *escape = g_build_filename (root, "..", "secret.txt", NULL);
  g_autofree char *secret = g_build_filename (tmpdir, "secret.txt", NULL);
  g_autofree char *missing = g_build_filename (root, "missing.txt", NULL);
  g_autofree char *back = NULL;
  const char *roots[] = { root, NULL };
  g_autoptr(AcpAgent) agent = test_fake_agent_new ("fs.json", NULL);
  g_autoptr(AcpFsService) service = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) session = NULL;
  g_autoptr(JsonArray) prompt = json_array_new ();
  g_autofree char *stop_reason = NULL;
  const char *session_id;
  const char *texts[] = { inside, written, escape, missing };

  g_assert_cmpint (g_mkdir (root, 0755), ==, 0);
  write_file (inside, "line 1\nline 2\nline 3\n", -1);
  write_file (secret, "secret", -1);

  acp_agent_set_client_capabilities (agent, ACP_CLIENT_CAP_FS_READ | ACP_CLIENT_CAP_FS_WRITE);
  service = acp_fs_service_new ();
  acp_fs_service_attach (service, agent);
  test_agent_start (agent);

  acp_agent_new_session_async (agent, root, NULL, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  session = acp_agent_new_session_finish (agent, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  session_id = json_object_get_string_member (session, "sessionId");
  acp_fs_service_set_roots (service, agent, session_id, roots);

  /* the scenario takes its paths from the prompt blocks and checks every
   * answer itself (it exits with status 3 on a mismatch) */
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(JsonObject) block = json_object_new ();

      json_object_set_string_member (block, "type", "text");
      json_object_set_string_member (block, "text", texts[i]);
      json_array_add_object_element (prompt, g_steal_pointer (&block));
    }
  acp_agent_prompt_async (agent, session_id, prompt, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  stop_reason = acp_agent_prompt_finish (agent, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_clear_object (&result);

  g_file_get_contents (written, &back, NULL, NULL);
  g_assert_cmpstr (back, ==, "written by the agent\n");

  test_agent_stop (agent);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/fs-service/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
#define ADD_UNSTARTED(path, func) \
  g_test_add ("/fs-service/" path, Fixture, GINT_TO_POINTER (1), fixture_setup, func, fixture_teardown)

  ADD ("read/whole", test_read_whole);
  ADD ("read/lines", test_read_lines);
  ADD ("read/wrong-types", test_read_wrong_types);
  ADD ("read/bad-params", test_read_bad_params);
  ADD ("read/missing", test_read_missing);
  ADD ("read/not-text", test_read_not_text);
  ADD ("read/special-file", test_read_special_file);
  ADD ("read/size-cap", test_read_size_cap);
  ADD ("read/large", test_read_large);
  ADD ("confine/outside", test_outside_refused);
  ADD ("confine/symlink-outside", test_symlink_outside);
  ADD ("confine/symlink-inside", test_symlink_inside);
  ADD ("confine/several-roots", test_several_roots);
  ADD ("confine/same-id-two-agents", test_same_id_two_agents);
  ADD ("access/allowed", test_access_allowed);
  ADD ("access/denied", test_access_denied);
  ADD ("access/later", test_access_later);
  ADD ("access/cancelled", test_access_cancelled);
  ADD ("access/unknown-session", test_unknown_session);
  ADD ("write/create-replace", test_write_create_replace);
  ADD ("write/atomic", test_write_atomic);
  ADD ("write/keeps-mode", test_write_keeps_mode);
  ADD ("write/errors", test_write_errors);
  ADD ("permission-denied", test_permission_denied);
  ADD_UNSTARTED ("not-advertised", test_not_advertised);
  ADD ("service-gone", test_service_gone);
  g_test_add_func ("/fs-service/fake-agent", test_fake_agent);

  return g_test_run ();
}
