/* test-session-manager.c: PalSessionManager against the scripted fake agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The agent profiles run the fake agent ($PALAVER_FAKE_AGENT) with a
 * scenario of tests/scenarios and --record, so every test can check what
 * the manager really sent to the agent (or that it sent nothing).
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "acp-permission-item.h"
#include "pal-error.h"
#include "pal-session-manager.h"
#include "test-util.h"

#define SCHEMA_ID    "io.github.palaverapp.Palaver"

/* fixture {{{ */

typedef struct
{
  GSettingsBackend  *backend;
  GSettings         *settings;
  PalAgentStore     *agents;
  PalSessionStore   *sessions;
  PalMcpServerStore *mcp_servers;
  AcpPacer          *pacer;
  PalSessionManager *manager;
  char              *tmpdir;
  char              *dir_a;
  char              *dir_b;
  char              *record;
  GAsyncResult      *result;
  /* every live session's state changes, as "id=state" */
  GPtrArray         *states;
  GPtrArray         *watched;   /* the live sessions seen, owned */
} Fixture;

/* NOT_RUNNING when the session is not live */
static PalSessionState
state_of (Fixture       *f,
          PalSessionKey *key)
{
  PalLiveSession *live = pal_session_manager_lookup_live (f->manager, key);

  return live != NULL ? pal_live_session_get_state (live) : PAL_SESSION_STATE_NOT_RUNNING;
}

static const GError *
error_of (Fixture       *f,
          PalSessionKey *key)
{
  PalLiveSession *live = pal_session_manager_lookup_live (f->manager, key);

  return live != NULL ? pal_live_session_get_error (live) : NULL;
}

static void
state_changed_cb (PalLiveSession *live,
                  GParamSpec     *pspec,
                  Fixture        *f)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (PAL_TYPE_SESSION_STATE);
  PalSessionKey *key = pal_live_session_get_key (live);
  PalSessionState state = pal_live_session_get_state (live);

  g_assert_cmpint (state_of (f, key), ==, state);
  g_ptr_array_add (f->states, g_strdup_printf ("%s=%s", pal_session_key_get_session_id (key),
                                               g_enum_get_value (klass, state)->value_nick));
}

static void
live_sessions_changed_cb (GListModel *model,
                          guint       position,
                          guint       removed,
                          guint       added,
                          Fixture    *f)
{
  for (guint i = position; i < position + added; i++)
    {
      PalLiveSession *live = g_list_model_get_item (model, i);

      g_signal_connect (live, "notify::state", G_CALLBACK (state_changed_cb), f);
      g_ptr_array_add (f->watched, live);
    }
}

/* A key freed at the end of the test. */
static PalSessionKey *
key_of (const char *agent_id,
        const char *session_id)
{
  PalSessionKey *key = pal_session_key_new (agent_id, session_id);

  g_test_queue_destroy ((GDestroyNotify) pal_session_key_unref, key);
  return key;
}

/* The key of a session the manager handed out, for the rest of the test. */
static PalSessionKey *
key_for (Fixture    *f,
         AcpSession *session)
{
  PalSessionKey *key = pal_session_manager_get_session_key (f->manager, session);

  g_assert_nonnull (key);
  g_test_queue_destroy ((GDestroyNotify) pal_session_key_unref, pal_session_key_ref (key));
  return key;
}

static char *
make_dir (Fixture    *f,
          const char *name)
{
  char *path = g_build_filename (f->tmpdir, name, NULL);

  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  return path;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = NULL;

  f->backend = g_memory_settings_backend_new ();
  f->settings = g_settings_new_with_backend (SCHEMA_ID, f->backend);
  f->agents = pal_agent_store_new (f->settings);
  f->sessions = pal_session_store_new (f->settings);
  f->mcp_servers = pal_mcp_server_store_new (f->settings);
  f->pacer = acp_pacer_new ();
  f->manager = pal_session_manager_new (f->agents, f->sessions, f->mcp_servers, f->pacer);

  tmpdir = g_dir_make_tmp ("palaver-session-manager-XXXXXX", &error);
  g_assert_no_error (error);
  /* the manager keeps folders canonical */
  f->tmpdir = g_canonicalize_filename (tmpdir, NULL);
  f->dir_a = make_dir (f, "project-a");
  f->dir_b = make_dir (f, "project-b");
  f->record = g_build_filename (f->tmpdir, "record.jsonl", NULL);

  f->states = g_ptr_array_new_with_free_func (g_free);
  f->watched = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (pal_session_manager_get_live_sessions (f->manager), "items-changed",
                    G_CALLBACK (live_sessions_changed_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  g_signal_handlers_disconnect_by_data (pal_session_manager_get_live_sessions (f->manager), f);
  for (guint i = 0; i < f->watched->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (f->watched, i), f);
  pal_session_manager_shutdown_async (f->manager, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_shutdown_finish (f->manager, result, &error));
  g_assert_no_error (error);

  g_clear_object (&f->manager);
  g_clear_object (&f->pacer);
  g_clear_object (&f->mcp_servers);
  g_clear_object (&f->sessions);
  g_clear_object (&f->agents);
  g_clear_object (&f->settings);
  g_clear_object (&f->backend);
  g_clear_pointer (&f->states, g_ptr_array_unref);
  g_clear_pointer (&f->watched, g_ptr_array_unref);

  test_remove_tree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->dir_a);
  g_free (f->dir_b);
  g_free (f->record);
}

static const char *
fake_agent_path (void)
{
  const char *path = g_getenv ("PALAVER_FAKE_AGENT");

  if (path == NULL || *path == '\0')
    g_error ("PALAVER_FAKE_AGENT is not set");
  return path;
}

/* Every fake agent process numbers its sessions fake-session-1, -2, ...;
 * real agents use unique ids. For tests with several processes, a copy of
 * @scenario in the fixture's folder whose plain session/new answers
 * "<prefix>-1", "<prefix>-2", ... instead. */
static char *
unique_ids_scenario (Fixture    *f,
                     const char *scenario,
                     const char *prefix)
{
  g_autofree char *source = g_build_filename (g_getenv ("PALAVER_SCENARIO_DIR"), scenario, NULL);
  g_autofree char *target_name = g_strconcat (prefix, ".json", NULL);
  g_autofree char *target = g_build_filename (f->tmpdir, target_name, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonArray) calls = json_array_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *handlers;
  JsonObject *handler;

  json_parser_load_from_file (parser, source, &error);
  g_assert_no_error (error);
  handlers = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                            "handlers");

  for (guint i = 1; i <= 20; i++)
    {
      g_autofree char *session_id = g_strdup_printf ("%s-%u", prefix, i);
      JsonArray *steps = json_array_new ();
      JsonObject *step = json_object_new ();
      JsonObject *result = json_object_new ();

      json_object_set_string_member (result, "sessionId", session_id);
      json_object_set_string_member (step, "op", "result");
      json_object_set_object_member (step, "result", result);
      json_array_add_object_element (steps, step);
      json_array_add_array_element (calls, steps);
    }
  handler = json_object_new ();
  json_object_set_array_member (handler, "calls", g_steal_pointer (&calls));
  json_object_set_object_member (handlers, "session/new", handler);

  json_generator_set_root (generator, json_parser_get_root (parser));
  json_generator_to_file (generator, target, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&target);
}

/* A profile running the fake agent with @scenario, recording into the
 * fixture's record file. */
static PalAgentProfile *
add_profile_full (Fixture    *f,
                  const char *id,
                  const char *scenario,
                  gboolean    unique_ids)
{
  g_autofree char *path = unique_ids ? unique_ids_scenario (f, scenario, id) : g_strdup (scenario);
  const char *args[] = { path, "--record", f->record, NULL };
  g_autoptr(PalAgentProfile) profile = pal_agent_profile_new (id, id, fake_agent_path (), args);
  g_autoptr(GError) error = NULL;

  g_assert_true (pal_agent_store_add (f->agents, profile, &error));
  g_assert_no_error (error);

  return pal_agent_store_lookup (f->agents, id);
}

static PalAgentProfile *
add_profile (Fixture    *f,
             const char *id,
             const char *scenario)
{
  return add_profile_full (f, id, scenario, FALSE);
}

static void
set_scenario (Fixture    *f,
              const char *id,
              const char *scenario)
{
  const char *args[] = { scenario, "--record", f->record, NULL };
  g_autoptr(PalAgentProfile) edited = pal_agent_profile_copy (pal_agent_store_lookup (f->agents, id));
  g_autoptr(GError) error = NULL;

  pal_agent_profile_set_args (edited, args);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);
}

/* Every message the fake agents received, parsed. */
static GPtrArray *
read_record (Fixture *f)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *messages = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  if (!g_file_get_contents (f->record, &contents, NULL, NULL))
    return messages;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      JsonNode *node;

      if (*lines[i] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_ptr_array_add (messages, node);
    }

  return messages;
}

/* The methods of the requests and notifications received, space-separated. */
static char *
record_methods (Fixture *f)
{
  g_autoptr(GPtrArray) messages = read_record (f);
  g_autoptr(GString) methods = g_string_new (NULL);

  for (guint i = 0; i < messages->len; i++)
    {
      JsonObject *object = json_node_get_object (g_ptr_array_index (messages, i));

      if (!json_object_has_member (object, "method"))
        continue;
      if (methods->len > 0)
        g_string_append_c (methods, ' ');
      g_string_append (methods, json_object_get_string_member (object, "method"));
    }

  return g_string_free (g_steal_pointer (&methods), FALSE);
}

static guint
count_method (Fixture    *f,
              const char *method)
{
  g_autoptr(GPtrArray) messages = read_record (f);
  guint n = 0;

  for (guint i = 0; i < messages->len; i++)
    {
      JsonObject *object = json_node_get_object (g_ptr_array_index (messages, i));

      if (g_strcmp0 (json_object_get_string_member_with_default (object, "method", NULL),
                     method) == 0)
        n++;
    }

  return n;
}

/* The params of the @index-th message with @method (transfer full). */
static JsonObject *
record_params (Fixture    *f,
               const char *method,
               guint       index)
{
  g_autoptr(GPtrArray) messages = read_record (f);

  for (guint i = 0; i < messages->len; i++)
    {
      JsonObject *object = json_node_get_object (g_ptr_array_index (messages, i));

      if (g_strcmp0 (json_object_get_string_member_with_default (object, "method", NULL),
                     method) != 0)
        continue;
      if (index-- == 0)
        return json_object_ref (json_object_get_object_member (object, "params"));
    }

  g_error ("No %s message in the record", method);
  return NULL;
}

static AcpSession *
new_session (Fixture             *f,
             const char          *profile_id,
             const char          *cwd,
             const char * const  *names,
             GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_new_session_async (f->manager, profile_id, cwd, names, NULL, NULL,
                                         test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  return pal_session_manager_new_session_finish (f->manager, result, error);
}

static AcpSession *
new_session_ok (Fixture    *f,
                const char *profile_id,
                const char *cwd)
{
  g_autoptr(GError) error = NULL;
  AcpSession *session = new_session (f, profile_id, cwd, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (ACP_IS_SESSION (session));
  return session;
}

typedef enum
{
  OPEN,
  LOAD,
  RESUME,
  RESTART,
} OpenHow;

static AcpSession *
open_session (Fixture        *f,
              OpenHow         how,
              PalSessionKey  *key,
              GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  switch (how)
    {
    case OPEN:
      pal_session_manager_open_session_async (f->manager, key, NULL,
                                              test_store_result_cb, &f->result);
      result = WAIT_RESULT (&f->result);
      return pal_session_manager_open_session_finish (f->manager, result, error);
    case LOAD:
      pal_session_manager_load_session_async (f->manager, key, NULL,
                                              test_store_result_cb, &f->result);
      result = WAIT_RESULT (&f->result);
      return pal_session_manager_load_session_finish (f->manager, result, error);
    case RESUME:
      pal_session_manager_resume_session_async (f->manager, key, NULL,
                                                test_store_result_cb, &f->result);
      result = WAIT_RESULT (&f->result);
      return pal_session_manager_resume_session_finish (f->manager, result, error);
    case RESTART:
    default:
      pal_session_manager_restart_async (f->manager, key, NULL,
                                         test_store_result_cb, &f->result);
      result = WAIT_RESULT (&f->result);
      return pal_session_manager_restart_finish (f->manager, result, error);
    }
}

static char *
prompt (Fixture        *f,
        PalSessionKey  *key,
        const char     *text,
        GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_prompt_async (f->manager, key, text, NULL,
                                    test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  return pal_session_manager_prompt_finish (f->manager, result, error);
}

/* A stored record for a session the agent knows. */
static void
add_record (Fixture    *f,
            const char *session_id,
            const char *profile_id,
            const char *cwd)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new (session_id, profile_id, cwd);

  pal_session_store_add (f->sessions, record);
}

static guint
count_notices (AcpSession        *session,
               AcpNoticeSeverity  severity,
               const char        *needle)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (session));
  guint n = 0;

  acp_transcript_flush (acp_session_get_transcript (session));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);
      AcpNoticeItem *notice;

      if (!ACP_IS_NOTICE_ITEM (item))
        continue;
      notice = ACP_NOTICE_ITEM (item);
      if (acp_notice_item_get_severity (notice) == severity &&
          strstr (acp_notice_item_get_body (notice) != NULL ?
                  acp_notice_item_get_body (notice) : "", needle) != NULL)
        n++;
    }

  return n;
}

/* Whether the live session of @session_id was told to go to @nick. */
static gboolean
has_state (Fixture    *f,
           const char *session_id,
           const char *nick)
{
  g_autofree char *entry = g_strdup_printf ("%s=%s", session_id, nick);

  for (guint i = 0; i < f->states->len; i++)
    if (g_str_equal (g_ptr_array_index (f->states, i), entry))
      return TRUE;
  return FALSE;
}

static const char *
last_state (Fixture *f)
{
  g_assert_cmpuint (f->states->len, >, 0);
  return g_ptr_array_index (f->states, f->states->len - 1);
}

/* }}} */

/* new sessions and sharing {{{ */

static void
test_new_session_shared (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(AcpAgent) agent_b = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *unclean = NULL;
  PalSessionRecord *record;
  AcpAgent *agent_a;
  const char *id;
  PalSessionKey *key;

  add_profile (f, "fake", "basic.json");

  /* a folder written with a trailing slash is the same folder */
  unclean = g_strconcat (f->dir_a, "/", NULL);
  first = new_session_ok (f, "fake", unclean);
  id = acp_session_get_session_id (first);
  key = key_for (f, first);
  g_assert_nonnull (id);
  g_assert_cmpint (acp_session_get_state (first), ==, ACP_SESSION_STATE_READY);
  g_assert_true (pal_session_manager_lookup (f->manager, key) == first);
  g_assert_cmpint (state_of (f, key), ==, PAL_SESSION_STATE_READY);

  record = pal_session_store_lookup (f->sessions, key);
  g_assert_nonnull (record);
  g_assert_cmpstr (pal_session_record_get_agent_id (record), ==, "fake");
  g_assert_cmpstr (pal_session_record_get_cwd (record), ==, f->dir_a);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "");
  g_assert_cmpint (pal_session_record_get_created (record), >, 0);
  g_assert_cmpint (pal_session_record_get_updated (record), ==,
                   pal_session_record_get_created (record));
  g_assert_false (pal_session_record_get_from_agent (record));

  /* the same folder shares the process */
  second = new_session_ok (f, "fake", f->dir_a);
  g_assert_cmpstr (acp_session_get_session_id (second), !=, id);
  agent_a = pal_session_manager_lookup_agent (f->manager, "fake", f->dir_a);
  g_assert_nonnull (agent_a);
  g_assert_true (acp_session_get_agent (first) == agent_a);
  g_assert_true (acp_session_get_agent (second) == agent_a);
  g_assert_cmpuint (count_method (f, "initialize"), ==, 1);
  g_assert_cmpuint (count_method (f, "session/new"), ==, 2);

  /* what the agent was told: this folder and what this client implements */
  {
    g_autoptr(JsonObject) params = record_params (f, "session/new", 0);
    g_autoptr(JsonObject) init = record_params (f, "initialize", 0);
    JsonObject *caps = json_object_get_object_member (init, "clientCapabilities");

    g_assert_cmpstr (json_object_get_string_member (params, "cwd"), ==, f->dir_a);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (params, "mcpServers")),
                      ==, 0);
    JsonObject *fs = json_object_get_object_member (caps, "fs");

    g_assert_true (json_object_get_boolean_member_with_default (caps, "terminal", FALSE));
    g_assert_true (json_object_get_boolean_member_with_default (fs, "readTextFile", FALSE));
    g_assert_true (json_object_get_boolean_member_with_default (fs, "writeTextFile", FALSE));
    /* plans by id: an empty object says so */
    g_assert_true (json_object_has_member (caps, "plan"));
    g_assert_cmpuint (json_object_get_size (json_object_get_object_member (caps, "plan")), ==, 0);
  }

  /* another folder gets its own process */
  g_assert_null (pal_session_manager_lookup_agent (f->manager, "fake", f->dir_b));
  pal_session_manager_start_agent_async (f->manager, "fake", f->dir_b, NULL,
                                         test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  agent_b = pal_session_manager_start_agent_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (agent_b);
  g_assert_true (agent_b != agent_a);
  g_assert_true (pal_session_manager_lookup_agent (f->manager, "fake", f->dir_b) == agent_b);
  g_assert_cmpuint (count_method (f, "initialize"), ==, 2);

  /* opening a session that is open changes nothing */
  {
    g_autoptr(AcpSession) again = open_session (f, OPEN, key, &error);

    g_assert_no_error (error);
    g_assert_true (again == first);
    g_assert_cmpuint (count_method (f, "session/load"), ==, 0);
  }
}

static AcpAgent *
start_agent_ok (Fixture    *f,
                const char *profile_id,
                const char *cwd)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AcpAgent *agent;

  pal_session_manager_start_agent_async (f->manager, profile_id, cwd, NULL,
                                         test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  agent = pal_session_manager_start_agent_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (agent);

  return agent;
}

/* Every agent started, and its connection, gets the manager's pacer: the
 * one the window reports its frames to. */
static void
test_agents_get_pacer (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AcpAgent) agent_a = NULL;
  g_autoptr(AcpAgent) agent_b = NULL;
  g_autoptr(AcpPacer) pacer = NULL;

  g_object_get (f->manager, "pacer", &pacer, NULL);
  g_assert_true (pacer == f->pacer);
  g_assert_true (pal_session_manager_get_pacer (f->manager) == f->pacer);

  add_profile (f, "fake", "basic.json");
  agent_a = start_agent_ok (f, "fake", f->dir_a);
  agent_b = start_agent_ok (f, "fake", f->dir_b);
  g_assert_true (agent_a != agent_b);
  g_assert_true (acp_agent_get_pacer (agent_a) == f->pacer);
  g_assert_true (acp_agent_get_pacer (agent_b) == f->pacer);
  g_assert_true (acp_connection_get_pacer (acp_agent_get_connection (agent_a)) == f->pacer);
  g_assert_true (acp_connection_get_pacer (acp_agent_get_connection (agent_b)) == f->pacer);
}

static void
test_agent_cwd (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *pwd_file = g_build_filename (f->tmpdir, "pwd.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(PalAgentProfile) profile = NULL;
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  const char *args[] = {
    "-c", "pwd > \"$0\"; exec \"$1\" basic.json", pwd_file, fake_agent_path (), NULL
  };

  /* the process itself runs in the project folder */
  profile = pal_agent_profile_new ("shell", "Shell", "/bin/sh", args);
  g_assert_true (pal_agent_store_add (f->agents, profile, &error));
  g_assert_no_error (error);

  session = new_session_ok (f, "shell", f->dir_b);
  g_assert_true (g_file_get_contents (pwd_file, &contents, NULL, NULL));
  g_strchomp (contents);
  g_assert_cmpstr (contents, ==, f->dir_b);
}

/* A preset agent that was not on PATH when the list was made, installed
 * since: opening it looks again, and until then the error says how to
 * install it. */
static void
test_preset_installed_later (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *bin = make_dir (f, "bin");
  g_autofree char *program = g_build_filename (bin, "claude-agent-acp", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\nexec '%s' basic.json\n", fake_agent_path ());
  g_autoptr(AcpSession) session = NULL;

  g_setenv ("PATH", bin, TRUE);
  g_assert_null (pal_agent_store_lookup (f->agents, PAL_AGENT_ID_CLAUDE));

  session = new_session (f, PAL_AGENT_ID_CLAUDE, f->dir_a, NULL, &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "Claude Agent was not found"));
  g_assert_nonnull (strstr (error->message, "npm install -g @agentclientprotocol/claude-agent-acp"));
  g_clear_error (&error);

  /* a profile that is no preset has nothing to look for */
  session = new_session (f, "removed-long-ago", f->dir_a, NULL, &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "add it again in Preferences"));
  g_clear_error (&error);

  /* installed: the next try finds it */
  g_assert_true (g_file_set_contents (program, script, -1, NULL));
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);
  session = new_session (f, PAL_AGENT_ID_CLAUDE, f->dir_a, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
  g_assert_nonnull (pal_agent_store_lookup (f->agents, PAL_AGENT_ID_CLAUDE));

  g_setenv ("PATH", old_path, TRUE);
}

static void close_session (Fixture        *f,
                           PalSessionKey  *key,
                           GError        **error);
static char *joined_roots (Fixture    *f,
                           AcpSession *session);

/* An idle agent whose profile was edited (an API key added to its
 * environment) is started anew at the next need; one with a session open
 * keeps running until then. */
static void
test_profile_edited (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(AcpSession) third = NULL;
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(GError) error = NULL;
  AcpAgent *agent;
  const char * const env[] = { "FAKE_API_KEY=one", NULL };
  const char * const env2[] = { "FAKE_API_KEY=two", NULL };

  add_profile_full (f, "fake", "basic.json", TRUE);
  first = new_session_ok (f, "fake", f->dir_a);
  agent = acp_session_get_agent (first);

  /* edited while a session is open on it: that agent goes on */
  edited = pal_agent_profile_copy (pal_agent_store_lookup (f->agents, "fake"));
  pal_agent_profile_set_env (edited, env);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);
  second = new_session_ok (f, "fake", f->dir_a);
  g_assert_true (acp_session_get_agent (second) == agent);

  /* once no session is open on it, the next need starts it anew */
  close_session (f, key_for (f, first), &error);
  g_assert_no_error (error);
  close_session (f, key_for (f, second), &error);
  g_assert_no_error (error);
  pal_agent_profile_set_env (edited, env2);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);
  third = new_session_ok (f, "fake", f->dir_a);
  g_assert_true (acp_session_get_agent (third) != agent);
  g_assert_cmpint (acp_agent_get_state (acp_session_get_agent (third)), ==, ACP_AGENT_STATE_READY);
}

static void
test_new_session_errors (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  AcpSession *session;

  add_profile (f, "broken", "exit-on-start.json");

  session = new_session (f, "nobody", f->dir_a, NULL, &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  session = new_session (f, "broken", "relative/folder", NULL, &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (g_file_test (f->record, G_FILE_TEST_EXISTS));

  /* the agent's own words reach the caller */
  session = new_session (f, "broken", f->dir_a, NULL, &error);
  g_assert_null (session);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  g_assert_nonnull (strstr (error->message, "cannot find config"));
  g_assert_null (pal_session_manager_lookup_agent (f->manager, "broken", f->dir_a));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->sessions)), ==, 0);
}

/* A folder name that is not UTF-8 can be neither sent to an agent (JSON)
 * nor kept in the settings: refused before anything starts. */
static void
test_new_session_folder_not_utf8 (Fixture       *f,
                                  gconstpointer  data)
{
  g_autofree char *folder = make_dir (f, "caf\xe9");
  g_autoptr(GError) error = NULL;
  AcpSession *session;

  add_profile (f, "fake", "basic.json");

  session = new_session (f, "fake", folder, NULL, &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "UTF-8"));
  g_assert_false (g_file_test (f->record, G_FILE_TEST_EXISTS));
  g_assert_null (pal_session_manager_lookup_agent (f->manager, "fake", folder));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->sessions)), ==, 0);
}

static void
test_id_collision (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(GError) error = NULL;

  /* two processes of one profile (two folders) that both name their first
   * session fake-session-1: the same session for Palaver, open already */
  add_profile (f, "one", "basic.json");

  first = new_session_ok (f, "one", f->dir_a);
  g_assert_cmpstr (acp_session_get_session_id (first), ==, "fake-session-1");
  second = new_session (f, "one", f->dir_b, NULL, &error);
  g_assert_null (second);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_EXISTS);

  /* the open one is untouched */
  g_assert_true (pal_session_manager_lookup (f->manager, key_of ("one", "fake-session-1")) == first);
  g_assert_cmpstr (pal_session_record_get_cwd (pal_session_store_lookup (f->sessions,
                                                                         key_of ("one", "fake-session-1"))),
                   ==, f->dir_a);
}

/* Two agents that hand out the same id: two sessions, each listed, opened,
 * renamed, closed and removed on its own. */
static void
test_same_id_two_agents (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(AcpSession) reopened = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  PalSessionKey *one = key_of ("one", "fake-session-1");
  PalSessionKey *two = key_of ("two", "fake-session-1");
  PalSessionRecord *record_one, *record_two;

  add_profile (f, "one", "basic.json");
  add_profile (f, "two", "basic.json");

  first = new_session_ok (f, "one", f->dir_a);
  second = new_session_ok (f, "two", f->dir_b);
  g_assert_cmpstr (acp_session_get_session_id (first), ==, acp_session_get_session_id (second));
  g_assert_true (pal_session_key_equal (key_for (f, first), one));
  g_assert_true (pal_session_key_equal (key_for (f, second), two));

  /* both listed and live, each with its own folder */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->sessions)), ==, 2);
  record_one = pal_session_store_lookup (f->sessions, one);
  record_two = pal_session_store_lookup (f->sessions, two);
  g_assert_nonnull (record_one);
  g_assert_nonnull (record_two);
  g_assert_true (record_one != record_two);
  g_assert_cmpstr (pal_session_record_get_cwd (record_one), ==, f->dir_a);
  g_assert_cmpstr (pal_session_record_get_cwd (record_two), ==, f->dir_b);
  g_assert_true (pal_session_manager_lookup (f->manager, one) == first);
  g_assert_true (pal_session_manager_lookup (f->manager, two) == second);

  /* a turn in one titles and moves that one alone */
  stop_reason = prompt (f, two, "Only the second", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pal_session_record_get_title (record_two), ==, "Only the second");
  g_assert_cmpstr (pal_session_record_get_title (record_one), ==, "");
  g_assert_true (pal_session_store_rename (f->sessions, one, "The first"));
  g_assert_cmpstr (pal_session_record_get_title (record_two), ==, "Only the second");

  /* closing one leaves the other open */
  close_session (f, one, &error);
  g_assert_no_error (error);
  g_assert_null (pal_session_manager_lookup (f->manager, one));
  g_assert_cmpint (state_of (f, one), ==, PAL_SESSION_STATE_NOT_RUNNING);
  g_assert_true (pal_session_manager_lookup (f->manager, two) == second);
  g_assert_cmpint (state_of (f, two), ==, PAL_SESSION_STATE_READY);
  g_assert_cmpint (acp_session_get_state (second), ==, ACP_SESSION_STATE_READY);

  /* opening it again loads it from its own agent */
  reopened = open_session (f, OPEN, one, &error);
  g_assert_no_error (error);
  g_assert_true (acp_session_get_agent (reopened) == acp_session_get_agent (first));
  g_assert_true (pal_session_manager_get_session_key (f->manager, reopened) != NULL);
  g_assert_true (pal_session_key_equal (pal_session_manager_get_session_key (f->manager, reopened),
                                        one));

  /* removing one from the list leaves the other */
  g_assert_true (pal_session_manager_forget (f->manager, two));
  g_assert_null (pal_session_store_lookup (f->sessions, two));
  g_assert_null (pal_session_manager_lookup (f->manager, two));
  g_assert_true (pal_session_store_lookup (f->sessions, one) == record_one);
  g_assert_true (pal_session_manager_lookup (f->manager, one) == reopened);
  g_assert_cmpstr (pal_session_record_get_title (record_one), ==, "The first");
}

static void
test_cancel_start (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpSession) session = NULL;
  gint64 start;

  add_profile (f, "hang", "hang-initialize.json");

  start = g_get_monotonic_time ();
  pal_session_manager_new_session_async (f->manager, "hang", f->dir_a, NULL, NULL, cancellable,
                                         test_store_result_cb, &f->result);
  POLL_UNTIL (g_file_test (f->record, G_FILE_TEST_EXISTS) && count_method (f, "initialize") == 1);
  g_cancellable_cancel (cancellable);
  result = WAIT_RESULT (&f->result);
  session = pal_session_manager_new_session_finish (f->manager, result, &error);
  g_assert_null (session);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* promptly: not after the 60 s initialize timeout */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  g_assert_null (pal_session_manager_lookup_agent (f->manager, "hang", f->dir_a));
}

typedef struct
{
  Fixture      *f;
  GAsyncResult *first;
} StartAgain;

/* The first start's answer: cancelled; a second start is asked for at once */
static void
start_again_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  StartAgain *again = user_data;

  again->first = g_object_ref (result);
  pal_session_manager_start_agent_async (again->f->manager, "fake", again->f->dir_a, NULL,
                                         test_store_result_cb, &again->f->result);
}

/* A start asked for while the one before is being called off (everyone
 * waiting for it cancelled) gets an agent, not that start's cancellation */
static void
test_start_after_cancel (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GCancellable) first = g_cancellable_new ();
  g_autoptr(GCancellable) second = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) second_result = NULL;
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  StartAgain again = { f, NULL };

  add_profile (f, "fake", "basic.json");

  /* two waiting: once both are cancelled, the start is called off, and the
   * first one's answer starts anew before it is over */
  pal_session_manager_start_agent_async (f->manager, "fake", f->dir_a, first,
                                         start_again_cb, &again);
  pal_session_manager_start_agent_async (f->manager, "fake", f->dir_a, second,
                                         test_store_result_cb, &second_result);
  g_cancellable_cancel (first);
  g_cancellable_cancel (second);
  POLL_UNTIL (second_result != NULL && again.first != NULL);
  g_assert_null (pal_session_manager_start_agent_finish (f->manager, again.first, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&again.first);

  result = WAIT_RESULT (&f->result);
  agent = pal_session_manager_start_agent_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_assert_true (ACP_IS_AGENT (agent));
  g_assert_true (pal_session_manager_lookup_agent (f->manager, "fake", f->dir_a) == agent);
}

/* }}} */

/* opening stored sessions {{{ */

typedef struct
{
  PalSessionManager *manager;
  PalSessionKey     *key;
  PalLiveSession    *live;
  AcpSession        *session;
  guint              items_while_loading;
  guint              changes;
} LiveWatch;

static void
transcript_changed_cb (GListModel *model,
                       guint       position,
                       guint       removed,
                       guint       added,
                       LiveWatch  *watch)
{
  if (acp_session_get_state (watch->session) == ACP_SESSION_STATE_LOADING)
    watch->items_while_loading = MAX (watch->items_while_loading, g_list_model_get_n_items (model));
}

static void
live_session_changed_cb (PalLiveSession *live,
                         GParamSpec     *pspec,
                         LiveWatch      *watch)
{
  AcpSession *session = pal_live_session_get_session (live);

  watch->changes++;
  if (session == NULL)
    return;

  g_assert_true (pal_session_manager_lookup (watch->manager, watch->key) == session);
  g_set_object (&watch->session, session);
  g_signal_connect (acp_session_get_transcript (session), "items-changed",
                    G_CALLBACK (transcript_changed_cb), watch);
}

/* The watched session became live: its object is followed from now on. */
static void
watch_live_sessions_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        LiveWatch  *watch)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(PalLiveSession) live = g_list_model_get_item (model, i);

      /* another session's changes are not this one's */
      if (!pal_session_key_equal (pal_live_session_get_key (live), watch->key))
        continue;

      g_assert_null (watch->live);
      watch->live = g_object_ref (live);
      g_signal_connect (live, "notify::session", G_CALLBACK (live_session_changed_cb), watch);
    }
}

static void
test_open_loads_live (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) listed = json_array_new ();
  g_autoptr(JsonObject) params = NULL;
  JsonObject *entry = json_object_new ();
  LiveWatch watch = { 0 };
  g_autofree char *methods = NULL;
  PalSessionRecord *record;
  char *reason = NULL;

  add_profile (f, "replay", "replay-10k.json");

  /* a session only the agent listed so far */
  json_object_set_string_member (entry, "sessionId", "old-1");
  json_object_set_string_member (entry, "cwd", f->dir_a);
  json_array_add_object_element (listed, entry);
  g_assert_cmpuint (pal_session_store_merge_listed (f->sessions, "replay", listed), ==, 1);
  record = pal_session_store_lookup (f->sessions, key_of ("replay", "old-1"));
  g_assert_true (pal_session_record_get_from_agent (record));

  /* nothing is known before the agent ran */
  g_assert_true (pal_session_manager_can_load (f->manager, key_of ("replay", "old-1"), &reason));
  g_assert_null (reason);

  watch.manager = f->manager;
  watch.key = key_of ("replay", "old-1");
  g_signal_connect (pal_session_manager_get_live_sessions (f->manager), "items-changed",
                    G_CALLBACK (watch_live_sessions_cb), &watch);
  session = open_session (f, OPEN, key_of ("replay", "old-1"), &error);
  g_assert_no_error (error);
  g_signal_handlers_disconnect_by_data (pal_session_manager_get_live_sessions (f->manager), &watch);
  g_assert_nonnull (watch.live);
  g_signal_handlers_disconnect_by_data (watch.live, &watch);

  g_assert_true (pal_session_manager_lookup_live (f->manager, watch.key) == watch.live);
  g_assert_true (session == watch.session);
  g_assert_cmpuint (watch.changes, ==, 1);
  g_assert_cmpint (acp_session_get_state (session), ==, ACP_SESSION_STATE_READY);
  g_assert_cmpuint (acp_session_get_replay_count (session), ==, 10000);
  /* the transcript filled while the load was in flight */
  g_assert_cmpuint (watch.items_while_loading, >, 0);
  /* 2000 turns: a user message, an agent message, a tool call */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (session))),
                    ==, 6000);
  g_signal_handlers_disconnect_by_data (acp_session_get_transcript (session), &watch);
  g_clear_object (&watch.session);
  g_clear_object (&watch.live);

  g_assert_true (has_state (f, "old-1", "starting-agent"));
  g_assert_true (has_state (f, "old-1", "loading"));
  g_assert_cmpstr (last_state (f), ==, "old-1=ready");

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/load");
  params = record_params (f, "session/load", 0);
  g_assert_cmpstr (json_object_get_string_member (params, "sessionId"), ==, "old-1");
  g_assert_cmpstr (json_object_get_string_member (params, "cwd"), ==, f->dir_a);

  /* opened: now a stored session */
  g_assert_true (pal_session_store_lookup (f->sessions, key_of ("replay", "old-1")) == record);
  g_assert_false (pal_session_record_get_from_agent (record));

  g_assert_true (pal_session_manager_can_load (f->manager, key_of ("replay", "old-1"), &reason));
  g_assert_null (reason);
}

static void
test_open_resumes (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *methods = NULL;

  add_profile (f, "resumer", "resume-only.json");
  add_record (f, "old-2", "resumer", f->dir_a);

  session = open_session (f, OPEN, key_of ("resumer", "old-2"), &error);
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (session), ==, ACP_SESSION_STATE_READY);
  g_assert_cmpstr (acp_session_get_session_id (session), ==, "old-2");
  g_assert_cmpuint (count_notices (session, ACP_NOTICE_SEVERITY_INFO, "History is not replayed"),
                    ==, 1);
  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/resume");
  g_assert_cmpint (state_of (f, key_of ("resumer", "old-2")), ==, PAL_SESSION_STATE_READY);

  /* the capabilities are known now */
  g_assert_false (pal_session_manager_can_load (f->manager, key_of ("resumer", "old-2"), &reason));
  g_assert_nonnull (reason);
  g_clear_pointer (&reason, g_free);
  g_assert_true (pal_session_manager_can_resume (f->manager, key_of ("resumer", "old-2"), &reason));
  g_assert_null (reason);

  /* and for other sessions of that profile, even in another folder */
  add_record (f, "old-3", "resumer", f->dir_b);
  g_assert_false (pal_session_manager_can_load (f->manager, key_of ("resumer", "old-3"), NULL));

  /* an explicit load is refused locally */
  {
    g_autoptr(AcpSession) loaded = open_session (f, LOAD, key_of ("resumer", "old-3"), &error);

    g_assert_null (loaded);
    g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
    g_assert_cmpuint (count_method (f, "session/load"), ==, 0);
    g_assert_null (pal_session_manager_lookup (f->manager, key_of ("resumer", "old-3")));
    g_assert_cmpint (state_of (f, key_of ("resumer", "old-3")), ==, PAL_SESSION_STATE_NOT_RUNNING);
  }
}

static void
test_open_neither (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *methods = NULL;

  add_profile (f, "minimal", "minimal.json");
  add_record (f, "old-4", "minimal", f->dir_a);

  session = open_session (f, OPEN, key_of ("minimal", "old-4"), &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  /* nothing but the handshake went to the agent */
  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize");
  g_assert_null (pal_session_manager_lookup (f->manager, key_of ("minimal", "old-4")));
  g_assert_cmpint (state_of (f, key_of ("minimal", "old-4")), ==, PAL_SESSION_STATE_NOT_RUNNING);
  g_assert_cmpstr (last_state (f), ==, "old-4=not-running");

  session = open_session (f, RESUME, key_of ("minimal", "old-4"), &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  g_clear_pointer (&methods, g_free);
  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize");
  g_assert_false (pal_session_manager_can_load (f->manager, key_of ("minimal", "old-4"), NULL));
  g_assert_false (pal_session_manager_can_resume (f->manager, key_of ("minimal", "old-4"), NULL));

  /* unknown sessions */
  session = open_session (f, OPEN, key_of ("minimal", "nobody"), &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
}

static void
test_crash_during_replay (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(AcpSession) restarted = NULL;
  g_autoptr(GError) error = NULL;
  AcpSession *failed;
  GListModel *items;
  const GError *reason;
  guint n_failed;

  add_profile (f, "crashy", "replay-then-crash.json");
  add_record (f, "old-5", "crashy", f->dir_a);

  session = open_session (f, OPEN, key_of ("crashy", "old-5"), &error);
  g_assert_null (session);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  g_clear_error (&error);

  /* FAILED, keeping what was shown, with the agent's last words */
  g_assert_cmpint (state_of (f, key_of ("crashy", "old-5")), ==, PAL_SESSION_STATE_FAILED);
  reason = error_of (f, key_of ("crashy", "old-5"));
  g_assert_nonnull (reason);
  failed = pal_session_manager_lookup (f->manager, key_of ("crashy", "old-5"));
  g_assert_nonnull (failed);
  g_assert_cmpint (acp_session_get_state (failed), ==, ACP_SESSION_STATE_FAILED);
  items = G_LIST_MODEL (acp_session_get_transcript (failed));
  /* 20 questions, 20 answers, the error notice */
  n_failed = g_list_model_get_n_items (items);
  g_assert_cmpuint (n_failed, ==, 41);
  g_assert_null (pal_session_manager_lookup_agent (f->manager, "crashy", f->dir_a));
  g_object_ref (failed);

  /* Retry, after the person fixed the agent */
  set_scenario (f, "crashy", "basic.json");
  restarted = open_session (f, RESTART, key_of ("crashy", "old-5"), &error);
  g_assert_no_error (error);
  g_assert_true (restarted != failed);
  g_assert_true (pal_session_manager_lookup (f->manager, key_of ("crashy", "old-5")) == restarted);
  g_assert_cmpint (acp_session_get_state (restarted), ==, ACP_SESSION_STATE_READY);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (restarted))),
                    ==, 2);
  g_assert_cmpint (state_of (f, key_of ("crashy", "old-5")), ==, PAL_SESSION_STATE_READY);
  g_assert_null (error_of (f, key_of ("crashy", "old-5")));
  g_assert_cmpuint (count_method (f, "initialize"), ==, 2);
  g_assert_cmpuint (count_method (f, "session/load"), ==, 2);

  /* the failed object keeps its transcript for whoever still shows it */
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, n_failed);
  g_object_unref (failed);
}

static void
test_agent_crash_fails_sessions (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(AcpSession) other = NULL;
  g_autoptr(AcpSession) restarted = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_id = NULL;
  PalSessionKey *first_key;
  g_autofree char *stop_reason = NULL;
  g_autofree char *roots = NULL;

  add_profile_full (f, "crash", "crash-mid-request.json", TRUE);
  add_profile_full (f, "fake", "basic.json", TRUE);

  first = new_session_ok (f, "crash", f->dir_a);
  second = new_session_ok (f, "crash", f->dir_a);
  other = new_session_ok (f, "fake", f->dir_a);
  first_id = g_strdup (acp_session_get_session_id (first));
  first_key = key_for (f, first);

  stop_reason = prompt (f, first_key, "Crash, please", &error);
  g_assert_null (stop_reason);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_AGENT_EXITED);
  g_clear_error (&error);

  /* every session on that agent failed; the other agent's lives on */
  POLL_UNTIL (acp_session_get_state (second) == ACP_SESSION_STATE_FAILED);
  g_assert_cmpint (state_of (f, first_key), ==, PAL_SESSION_STATE_FAILED);
  g_assert_cmpint (state_of (f, key_for (f, second)), ==, PAL_SESSION_STATE_FAILED);
  g_assert_cmpint (acp_session_get_state (other), ==, ACP_SESSION_STATE_READY);
  g_assert_nonnull (error_of (f, first_key));

  /* the agent can load: Retry loads it into a new agent process */
  set_scenario (f, "crash", "basic.json");
  restarted = open_session (f, RESTART, first_key, &error);
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (restarted), ==, ACP_SESSION_STATE_READY);
  g_assert_true (acp_session_get_agent (restarted) != acp_session_get_agent (first));
  g_assert_cmpint (acp_session_get_state (second), ==, ACP_SESSION_STATE_FAILED);
  /* its folder went with it to the new process */
  roots = joined_roots (f, restarted);
  g_assert_cmpstr (roots, ==, f->dir_a);
  g_assert_null (joined_roots (f, first));
}

/* }}} */

/* close and forget {{{ */

static void
close_session (Fixture        *f,
               PalSessionKey  *key,
               GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_close_session_async (f->manager, key, NULL,
                                           test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  pal_session_manager_close_session_finish (f->manager, result, error);
}

static void
test_close (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(AcpSession) with_close = NULL;
  g_autoptr(AcpSession) without_close = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  PalSessionKey *key;
  g_autofree char *reason = NULL;

  add_profile (f, "fake", "basic.json");
  add_profile (f, "resumer", "resume-only.json");

  /* with session/close */
  with_close = new_session_ok (f, "fake", f->dir_a);
  id = g_strdup (acp_session_get_session_id (with_close));
  key = key_for (f, with_close);
  g_assert_true (pal_session_manager_can_close (f->manager, key, &reason));
  g_assert_null (reason);
  close_session (f, key, &error);
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (with_close), ==, ACP_SESSION_STATE_CLOSED);
  g_assert_cmpuint (count_method (f, "session/close"), ==, 1);
  g_assert_null (pal_session_manager_lookup (f->manager, key));
  g_assert_cmpint (state_of (f, key), ==, PAL_SESSION_STATE_NOT_RUNNING);
  g_assert_nonnull (pal_session_store_lookup (f->sessions, key));
  g_assert_false (pal_session_manager_can_close (f->manager, key, &reason));
  g_assert_nonnull (reason);
  g_clear_pointer (&reason, g_free);

  /* without: closed here only, nothing sent */
  g_clear_pointer (&id, g_free);
  without_close = new_session_ok (f, "resumer", f->dir_a);
  id = g_strdup (acp_session_get_session_id (without_close));
  key = key_for (f, without_close);
  g_assert_true (pal_session_manager_can_close (f->manager, key, &reason));
  g_assert_nonnull (reason);
  close_session (f, key, &error);
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (without_close), ==, ACP_SESSION_STATE_CLOSED);
  g_assert_cmpuint (count_method (f, "session/close"), ==, 1);
  g_assert_null (pal_session_manager_lookup (f->manager, key));
  g_assert_nonnull (pal_session_store_lookup (f->sessions, key));

  /* closing what is not live is no error */
  close_session (f, key_of ("fake", "nobody"), &error);
  g_assert_no_error (error);
}

static guint
count_user_messages (AcpSession *session,
                     const char *text)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (session));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (ACP_IS_MESSAGE_ITEM (item) &&
          acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_USER &&
          g_strcmp0 (acp_message_item_get_text (ACP_MESSAGE_ITEM (item)), text) == 0)
        n++;
    }

  return n;
}

/* A resume replays nothing: what was on screen stays, and the notice says
 * only what is true of the agent. */
static void
test_resume_keeps_transcript (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AcpSession) closed = NULL;
  g_autoptr(AcpSession) resumed = NULL;
  g_autoptr(AcpSession) fresh = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  PalSessionKey *key;
  g_autofree char *reason = NULL;

  add_profile (f, "fake", "basic.json");
  closed = new_session_ok (f, "fake", f->dir_a);
  id = g_strdup (acp_session_get_session_id (closed));
  key = key_for (f, closed);
  g_free (prompt (f, key, "Remember this", &error));
  g_assert_no_error (error);
  close_session (f, key, &error);
  g_assert_no_error (error);

  /* still shown (the test holds it, as the window's view does) */
  resumed = open_session (f, RESUME, key, &error);
  g_assert_no_error (error);
  g_assert_true (resumed != closed);
  g_assert_cmpuint (count_user_messages (resumed, "Remember this"), ==, 1);
  g_assert_cmpuint (count_notices (resumed, ACP_NOTICE_SEVERITY_INFO, "were shown before"), ==, 1);
  g_assert_cmpuint (count_notices (resumed, ACP_NOTICE_SEVERITY_INFO, "not show its past"), ==, 0);

  /* nothing on screen, an agent that can load: it says how to see them */
  add_record (f, "old-1", "fake", f->dir_a);
  fresh = open_session (f, RESUME, key_of ("fake", "old-1"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_notices (fresh, ACP_NOTICE_SEVERITY_INFO, "Open the session instead"), ==, 1);
  g_assert_cmpuint (count_notices (fresh, ACP_NOTICE_SEVERITY_INFO, "not show its past"), ==, 0);
}

static gboolean
session_ready_again (Fixture       *f,
                     PalSessionKey *key,
                     AcpSession    *before)
{
  AcpSession *now = pal_session_manager_lookup (f->manager, key);

  return now != NULL && now != before && acp_session_get_state (now) == ACP_SESSION_STATE_READY;
}

/* A profile edited while its agent serves open sessions: the agent is out of
 * date until restarted, which stops it and opens the sessions again with a
 * new process (an idle agent is simply replaced at its next use). */
static void
test_restart_out_of_date (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  const char *env[] = { "EDITED=1", NULL };
  g_autofree char *id = NULL;
  PalSessionKey *key;
  AcpAgent *old_agent;

  add_profile (f, "fake", "basic.json");
  session = new_session_ok (f, "fake", f->dir_a);
  id = g_strdup (acp_session_get_session_id (session));
  key = key_for (f, session);
  old_agent = acp_session_get_agent (session);
  g_assert_false (pal_session_manager_is_agent_out_of_date (f->manager, "fake"));

  edited = pal_agent_profile_copy (pal_agent_store_lookup (f->agents, "fake"));
  pal_agent_profile_set_env (edited, env);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);
  g_assert_true (pal_session_manager_is_agent_out_of_date (f->manager, "fake"));

  pal_session_manager_restart_agent_async (f->manager, "fake", NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_cmpint (pal_session_manager_restart_agent_finish (f->manager, result, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpint (acp_agent_get_state (old_agent), ==, ACP_AGENT_STATE_EXITED);

  POLL_UNTIL (session_ready_again (f, key, session));
  g_assert_true (acp_session_get_agent (pal_session_manager_lookup (f->manager, key)) != old_agent);
  g_assert_false (pal_session_manager_is_agent_out_of_date (f->manager, "fake"));
  g_assert_cmpuint (count_method (f, "session/load"), ==, 1);
}

static void
delete_session (Fixture        *f,
                PalSessionKey  *key,
                GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_delete_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  pal_session_manager_delete_session_finish (f->manager, result, error);
}

/* Delete closes a live session, deletes it at the agent and takes it off
 * the list; an agent that cannot delete is not asked, and nothing changes. */
static void
test_delete (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  PalSessionKey *key;
  g_autofree char *methods = NULL;
  g_autofree char *reason = NULL;

  add_profile (f, "deleter", "delete.json");
  add_profile (f, "resumer", "resume-only.json");

  session = new_session_ok (f, "deleter", f->dir_a);
  id = g_strdup (acp_session_get_session_id (session));
  key = key_for (f, session);
  g_assert_true (pal_session_manager_can_delete (f->manager, key, NULL));
  delete_session (f, key, &error);
  g_assert_no_error (error);
  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new session/close session/delete");
  g_assert_null (pal_session_store_lookup (f->sessions, key));
  g_assert_null (pal_session_manager_lookup (f->manager, key));
  g_assert_cmpint (acp_session_get_state (session), ==, ACP_SESSION_STATE_CLOSED);

  /* not advertised: refused here, the session stays listed */
  add_record (f, "old-1", "resumer", f->dir_a);
  g_clear_object (&session);
  session = open_session (f, RESUME, key_of ("resumer", "old-1"), &error);
  g_assert_no_error (error);
  g_assert_false (pal_session_manager_can_delete (f->manager, key_of ("resumer", "old-1"), &reason));
  g_assert_nonnull (reason);
  delete_session (f, key_of ("resumer", "old-1"), &error);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (pal_session_store_lookup (f->sessions, key_of ("resumer", "old-1")));
  g_assert_cmpuint (count_method (f, "session/delete"), ==, 1);

  /* nothing to delete */
  g_clear_error (&error);
  delete_session (f, key_of ("deleter", "nobody"), &error);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
}

static void
test_forget (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autofree char *id = NULL;
  PalSessionKey *key;

  add_profile (f, "fake", "basic.json");
  session = new_session_ok (f, "fake", f->dir_a);
  id = g_strdup (acp_session_get_session_id (session));
  key = key_for (f, session);

  g_assert_true (pal_session_manager_forget (f->manager, key));
  g_assert_null (pal_session_manager_lookup (f->manager, key));
  g_assert_null (pal_session_store_lookup (f->sessions, key));
  g_assert_true (g_str_has_prefix (last_state (f), id));
  g_assert_true (has_state (f, id, "not-running"));
  /* closed in the background */
  POLL_UNTIL (acp_session_get_state (session) == ACP_SESSION_STATE_CLOSED);
  g_assert_cmpuint (count_method (f, "session/close"), ==, 1);

  g_assert_false (pal_session_manager_forget (f->manager, key));
}

/* The one terminal of the session that ran on @agent. (transfer full) */
static char *
only_terminal (Fixture    *f,
               AcpAgent   *agent,
               const char *session_id)
{
  AcpTerminalService *service = pal_session_manager_get_terminal_service (f->manager);
  g_auto(GStrv) ids = acp_terminal_service_dup_terminal_ids (service, agent, session_id);

  g_assert_cmpuint (g_strv_length (ids), ==, 1);
  return g_strdup (ids[0]);
}

/* A session whose agent process died and that went on in a new one loses
 * the terminals of both when it leaves the list */
static void
test_forget_terminals (Fixture       *f,
                       gconstpointer  data)
{
  AcpTerminalService *service = pal_session_manager_get_terminal_service (f->manager);
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) restarted = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_terminal = NULL;
  g_autofree char *second_terminal = NULL;
  g_autofree char *stop_reason = NULL;
  g_autofree char *output = NULL;
  PalSessionKey *key;

  add_profile (f, "shell", "terminal-load.json");
  first = new_session_ok (f, "shell", f->dir_a);
  key = key_for (f, first);
  stop_reason = prompt (f, key, "Run it", &error);
  g_assert_no_error (error);
  first_terminal = only_terminal (f, acp_session_get_agent (first),
                                  acp_session_get_session_id (first));

  g_assert_true (pal_session_manager_stop_agent (f->manager, key));
  POLL_UNTIL (acp_session_get_state (first) == ACP_SESSION_STATE_FAILED);
  restarted = open_session (f, RESTART, key, &error);
  g_assert_no_error (error);
  g_assert_true (acp_session_get_agent (restarted) != acp_session_get_agent (first));
  g_clear_pointer (&stop_reason, g_free);
  stop_reason = prompt (f, key, "Run it again", &error);
  g_assert_no_error (error);
  second_terminal = only_terminal (f, acp_session_get_agent (restarted),
                                   acp_session_get_session_id (restarted));

  /* the output of both stays while the session is listed */
  output = acp_terminal_service_dup_output (service, first_terminal, NULL, NULL);
  g_assert_nonnull (output);
  g_clear_pointer (&output, g_free);

  g_assert_true (pal_session_manager_forget (f->manager, key));
  g_assert_null (acp_terminal_service_dup_output (service, first_terminal, NULL, NULL));
  g_assert_null (acp_terminal_service_dup_output (service, second_terminal, NULL, NULL));
}

/* }}} */

/* client services {{{ */

static char *
prompt_blocks (Fixture     *f,
               AcpSession  *session,
               const char **texts,
               GError     **error)
{
  g_autoptr(JsonArray) blocks = json_array_new ();
  g_autoptr(GAsyncResult) result = NULL;

  for (guint i = 0; texts[i] != NULL; i++)
    {
      JsonObject *block = json_object_new ();

      json_object_set_string_member (block, "type", "text");
      json_object_set_string_member (block, "text", texts[i]);
      json_array_add_object_element (blocks, block);
    }

  acp_session_prompt_async (session, blocks, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  return acp_session_prompt_finish (session, result, error);
}

static void
test_fs_requests (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *existing = g_build_filename (f->dir_a, "notes.txt", NULL);
  g_autofree char *created = g_build_filename (f->dir_a, "new", "deeper", "file.txt", NULL);
  g_autofree char *outside = g_build_filename (f->tmpdir, "secret.txt", NULL);
  g_autofree char *escaping = g_build_filename (f->dir_a, "..", "secret.txt", NULL);
  g_autofree char *missing = g_build_filename (f->dir_a, "missing.txt", NULL);
  g_autofree char *stop_reason = NULL;
  g_autofree char *contents = NULL;
  const char *texts[] = { existing, created, escaping, missing, NULL };

  g_assert_true (g_file_set_contents (existing, "line 1\nline 2\nline 3\n", -1, NULL));
  g_assert_true (g_file_set_contents (outside, "not for agents\n", -1, NULL));

  /* the agent checks every answer and exits 3 on a mismatch */
  add_profile (f, "files", "fs.json");
  session = new_session_ok (f, "files", f->dir_a);
  stop_reason = prompt_blocks (f, session, texts, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  g_assert_true (g_file_get_contents (created, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "written by the agent\n");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (outside, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "not for agents\n");
}

static void
test_terminal_requests (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  const char *texts[] = { f->dir_b, NULL };

  /* commands run in the session's folder; the agent checks every answer */
  add_profile (f, "shell", "terminal.json");
  session = new_session_ok (f, "shell", f->dir_b);
  stop_reason = prompt_blocks (f, session, texts, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
}

/* }}} */

/* additional folders {{{ */

static AcpSession *
new_session_with_folders (Fixture             *f,
                          const char          *profile_id,
                          const char          *cwd,
                          const char * const  *folders,
                          GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_new_session_async (f->manager, profile_id, cwd, NULL, folders, NULL,
                                         test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  return pal_session_manager_new_session_finish (f->manager, result, error);
}

/* The additionalDirectories of the @index-th @method request, joined by
 * spaces; NULL when the member was not sent. */
static char *
sent_folders (Fixture    *f,
              const char *method,
              guint       index)
{
  g_autoptr(JsonObject) params = record_params (f, method, index);
  JsonArray *dirs;
  GString *joined;

  if (!json_object_has_member (params, "additionalDirectories"))
    return NULL;

  dirs = json_object_get_array_member (params, "additionalDirectories");
  joined = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (dirs); i++)
    g_string_append_printf (joined, "%s%s", i > 0 ? " " : "", json_array_get_string_element (dirs, i));
  return g_string_free (joined, FALSE);
}

/* The folders the file service gives the session, joined by spaces. */
static char *
joined_roots (Fixture    *f,
              AcpSession *session)
{
  g_auto(GStrv) roots = acp_fs_service_dup_roots (pal_session_manager_get_fs_service (f->manager),
                                                  acp_session_get_agent (session),
                                                  acp_session_get_session_id (session));

  return roots != NULL ? g_strjoinv (" ", roots) : NULL;
}

/* Folders besides the project's go with session/new, and again with
 * session/load and session/resume when the session is opened again */
static void
test_folders_sent (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *shared = make_dir (f, "shared");
  g_autofree char *docs = make_dir (f, "docs");
  g_autofree char *docs_slash = g_strconcat (docs, "/", NULL);
  g_autofree char *inside = g_build_filename (f->dir_a, "sub", NULL);
  g_autofree char *expected = g_strdup_printf ("%s %s", shared, docs);
  g_autofree char *expected_roots = g_strdup_printf ("%s %s %s", f->dir_a, shared, docs);
  const char *given[] = { shared, docs_slash, inside, shared, NULL };
  const char *wanted[] = { shared, docs, NULL };
  const char *relative[] = { "docs", NULL };
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(AcpSession) loaded = NULL;
  g_autoptr(AcpSession) resumed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  char *sent;

  add_profile (f, "folders", "folders.json");

  /* the project folder's own, and repeats, are not sent */
  session = new_session_with_folders (f, "folders", f->dir_a, given, &error);
  g_assert_no_error (error);
  id = g_strdup (acp_session_get_session_id (session));
  sent = sent_folders (f, "session/new", 0);
  g_assert_cmpstr (sent, ==, expected);
  g_free (sent);
  g_assert_cmpstrv (acp_session_get_additional_directories (session), wanted);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (f->sessions, key_of ("folders", id))),
                    wanted);
  sent = joined_roots (f, session);
  g_assert_cmpstr (sent, ==, expected_roots);
  g_free (sent);

  close_session (f, key_of ("folders", id), &error);
  g_assert_no_error (error);
  g_assert_null (joined_roots (f, session));
  loaded = open_session (f, LOAD, key_of ("folders", id), &error);
  g_assert_no_error (error);
  sent = sent_folders (f, "session/load", 0);
  g_assert_cmpstr (sent, ==, expected);
  g_free (sent);
  sent = joined_roots (f, loaded);
  g_assert_cmpstr (sent, ==, expected_roots);
  g_free (sent);

  close_session (f, key_of ("folders", id), &error);
  g_assert_no_error (error);
  resumed = open_session (f, RESUME, key_of ("folders", id), &error);
  g_assert_no_error (error);
  sent = sent_folders (f, "session/resume", 0);
  g_assert_cmpstr (sent, ==, expected);
  g_free (sent);

  /* a session without them sends none */
  g_clear_object (&session);
  session = new_session_with_folders (f, "folders", f->dir_a, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (sent_folders (f, "session/new", 1));

  /* a relative folder is refused before anything is sent */
  g_clear_object (&session);
  session = new_session_with_folders (f, "folders", f->dir_a, relative, &error);
  g_assert_null (session);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_cmpuint (count_method (f, "session/new"), ==, 2);
}

/* An agent that does not advertise them is sent none, and the transcript
 * says so */
static void
test_folders_not_advertised (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *shared = make_dir (f, "shared");
  const char *given[] = { shared, NULL };
  const char *none[] = { NULL };
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(AcpSession) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *roots = NULL;
  PalSessionRecord *record;

  add_profile (f, "fake", "basic.json");

  session = new_session_with_folders (f, "fake", f->dir_a, given, &error);
  g_assert_no_error (error);
  g_assert_null (sent_folders (f, "session/new", 0));
  g_assert_cmpuint (count_notices (session, ACP_NOTICE_SEVERITY_INFO,
                                   "does not support additional folders"), ==, 1);
  record = pal_session_store_lookup (f->sessions, key_for (f, session));
  g_assert_cmpstrv (pal_session_record_get_additional_directories (record), none);
  roots = joined_roots (f, session);
  g_assert_cmpstr (roots, ==, f->dir_a);

  /* nor with a load of a stored session that has them */
  add_record (f, "old-1", "fake", f->dir_a);
  pal_session_record_set_additional_directories (pal_session_store_lookup (f->sessions, key_of ("fake", "old-1")), given);
  loaded = open_session (f, LOAD, key_of ("fake", "old-1"), &error);
  g_assert_no_error (error);
  g_assert_null (sent_folders (f, "session/load", 0));
  g_assert_cmpuint (count_notices (loaded, ACP_NOTICE_SEVERITY_INFO,
                                   "does not support additional folders"), ==, 1);
  /* the person's choice stays for an agent that may take them later */
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (f->sessions, key_of ("fake", "old-1"))),
                    given);
}

static gboolean
access_request_cb (AcpFsService       *service,
                   const char         *session_id,
                   const char         *path,
                   gboolean            write,
                   AcpFsAccessRequest *request,
                   GPtrArray          *asked)
{
  g_ptr_array_add (asked, g_strdup (path));
  return FALSE;   /* nobody takes it: refused */
}

/* The agent reads in an additional folder as in the project folder;
 * outside them the person is asked */
static void
test_folders_fs (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *shared = make_dir (f, "shared");
  g_autofree char *inside = g_build_filename (shared, "notes.txt", NULL);
  g_autofree char *outside = g_build_filename (f->dir_b, "secret.txt", NULL);
  const char *given[] = { shared, NULL };
  const char *texts[] = { inside, outside, NULL };
  g_autoptr(GPtrArray) asked = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  AcpFsService *service = pal_session_manager_get_fs_service (f->manager);

  g_assert_true (g_file_set_contents (inside, "shared\n", -1, NULL));
  g_assert_true (g_file_set_contents (outside, "secret\n", -1, NULL));
  g_signal_connect (service, "access-request", G_CALLBACK (access_request_cb), asked);

  /* the agent checks both answers and exits 3 on a mismatch */
  add_profile (f, "folders", "folders.json");
  session = new_session_with_folders (f, "folders", f->dir_a, given, &error);
  g_assert_no_error (error);
  stop_reason = prompt_blocks (f, session, texts, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  g_assert_cmpuint (asked->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (asked, 0), ==, outside);
  g_signal_handlers_disconnect_by_data (service, asked);
}

/* Two agents that give their sessions the same id: each reads in its own
 * session's folders only, and closing one session keeps the other's */
static void
test_folders_same_id (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *one = make_dir (f, "one");
  g_autofree char *two = make_dir (f, "two");
  g_autofree char *in_one = g_build_filename (one, "notes.txt", NULL);
  g_autofree char *in_two = g_build_filename (two, "notes.txt", NULL);
  const char *given_one[] = { one, NULL };
  const char *given_two[] = { two, NULL };
  /* the agent reads both: the first must work, the second be refused */
  const char *first_reads[] = { in_one, in_two, NULL };
  const char *second_reads[] = { in_two, in_one, NULL };
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(GError) error = NULL;
  char *stop_reason;

  g_assert_true (g_file_set_contents (in_one, "shared\n", -1, NULL));
  g_assert_true (g_file_set_contents (in_two, "shared\n", -1, NULL));
  add_profile (f, "first", "folders.json");
  add_profile (f, "second", "folders.json");
  first = new_session_with_folders (f, "first", f->dir_a, given_one, &error);
  g_assert_no_error (error);
  second = new_session_with_folders (f, "second", f->dir_a, given_two, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (acp_session_get_session_id (first), ==, acp_session_get_session_id (second));
  /* what names the session of a request */
  g_assert_true (pal_session_manager_find_live_key (f->manager, acp_session_get_agent (second),
                                                    acp_session_get_session_id (second)) ==
                 key_for (f, second));
  g_assert_true (pal_session_manager_find_live_key (f->manager, acp_session_get_agent (first),
                                                    acp_session_get_session_id (first)) ==
                 key_for (f, first));

  stop_reason = prompt_blocks (f, first, first_reads, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_free (stop_reason);
  stop_reason = prompt_blocks (f, second, second_reads, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_free (stop_reason);

  close_session (f, key_for (f, second), &error);
  g_assert_no_error (error);
  stop_reason = prompt_blocks (f, first, first_reads, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_free (stop_reason);
}

/* The folders an agent lists with its sessions are sent back when one is
 * opened */
static void
test_folders_listed (Fixture       *f,
                     gconstpointer  data)
{
  const char *listed[] = { "/srv/shared", "/srv/docs", NULL };
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sent = NULL;

  add_profile (f, "folders", "folders.json");
  pal_session_manager_refresh_listed_async (f->manager, "folders", f->dir_a, NULL,
                                            test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_refresh_listed_finish (f->manager, result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (f->sessions,
                                                                                             key_of ("folders", "listed-1"))),
                    listed);

  session = open_session (f, OPEN, key_of ("folders", "listed-1"), &error);
  g_assert_no_error (error);
  sent = sent_folders (f, "session/load", 0);
  g_assert_cmpstr (sent, ==, "/srv/shared /srv/docs");
}

/* }}} */

/* MCP servers {{{ */

static void
add_mcp_server (Fixture         *f,
                const char      *name,
                AcpMcpTransport  transport,
                const char      *where,
                gboolean         enabled)
{
  g_autoptr(PalMcpServerConfig) config = pal_mcp_server_config_new (name, transport);
  g_autoptr(GError) error = NULL;

  if (transport == ACP_MCP_TRANSPORT_STDIO)
    pal_mcp_server_config_set_command (config, where);
  else
    pal_mcp_server_config_set_url (config, where);
  pal_mcp_server_config_set_enabled (config, enabled);

  g_assert_true (pal_mcp_server_store_add (f->mcp_servers, config, &error));
  g_assert_no_error (error);
}

static char *
mcp_server_names (Fixture *f,
                  guint    index)
{
  g_autoptr(JsonObject) params = record_params (f, "session/new", index);
  JsonArray *servers = json_object_get_array_member (params, "mcpServers");
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (servers); i++)
    {
      JsonObject *server = json_array_get_object_element (servers, i);

      if (names->len > 0)
        g_string_append_c (names, ' ');
      g_string_append (names, json_object_get_string_member (server, "name"));
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static void
test_mcp_gating (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(AcpSession) all = NULL;
  g_autoptr(AcpSession) ticked = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *names = NULL;
  const char *chosen[] = { "legacy", "files", "gone", NULL };

  add_profile (f, "fake", "basic.json");   /* http: true, sse: false */
  add_mcp_server (f, "files", ACP_MCP_TRANSPORT_STDIO, "/bin/cat", TRUE);
  add_mcp_server (f, "web", ACP_MCP_TRANSPORT_HTTP, "http://127.0.0.1:9/mcp", TRUE);
  add_mcp_server (f, "legacy", ACP_MCP_TRANSPORT_SSE, "http://127.0.0.1:9/sse", TRUE);
  add_mcp_server (f, "off", ACP_MCP_TRANSPORT_STDIO, "/bin/cat", FALSE);

  /* every enabled server the agent supports */
  all = new_session (f, "fake", f->dir_a, NULL, &error);
  g_assert_no_error (error);
  names = mcp_server_names (f, 0);
  g_assert_cmpstr (names, ==, "files web");
  g_assert_cmpuint (count_notices (all, ACP_NOTICE_SEVERITY_INFO,
                                   "The MCP server “legacy” was not passed to the agent: "
                                   "it does not support SSE servers."), ==, 1);
  g_assert_cmpuint (count_notices (all, ACP_NOTICE_SEVERITY_INFO, "“files”"), ==, 0);

  /* the ones the person ticked */
  ticked = new_session (f, "fake", f->dir_a, chosen, &error);
  g_assert_no_error (error);
  g_clear_pointer (&names, g_free);
  names = mcp_server_names (f, 1);
  g_assert_cmpstr (names, ==, "files");
  g_assert_cmpuint (count_notices (ticked, ACP_NOTICE_SEVERITY_INFO, "“legacy”"), ==, 1);
  g_assert_cmpuint (count_notices (ticked, ACP_NOTICE_SEVERITY_WARNING, "“gone”"), ==, 1);
}

/* }}} */

/* the store in step {{{ */

static void
test_titles (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AcpSession) plain = NULL;
  g_autoptr(AcpSession) titled = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  PalSessionRecord *record;
  const char *id;
  PalSessionKey *key;

  add_profile_full (f, "fake", "basic.json", TRUE);
  add_profile_full (f, "titled", "titled.json", TRUE);

  /* the first line of the first prompt */
  plain = new_session_ok (f, "fake", f->dir_a);
  id = acp_session_get_session_id (plain);
  key = key_for (f, plain);
  record = pal_session_store_lookup (f->sessions, key);
  pal_session_record_set_updated (record, 1);

  stop_reason = prompt (f, key, "\n  Fix the parser  \nIt drops long lines.", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Fix the parser");
  g_assert_cmpint (pal_session_record_get_updated (record), >, 1);
  g_assert_true (has_state (f, id, "working"));
  g_assert_cmpint (state_of (f, key), ==, PAL_SESSION_STATE_READY);

  /* a later prompt does not rename it */
  g_clear_pointer (&stop_reason, g_free);
  stop_reason = prompt (f, key, "Something else", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Fix the parser");

  /* the agent's title wins */
  titled = new_session_ok (f, "titled", f->dir_a);
  id = acp_session_get_session_id (titled);
  key = key_for (f, titled);
  g_clear_pointer (&stop_reason, g_free);
  stop_reason = prompt (f, key, "Why are long lines dropped?", &error);
  g_assert_no_error (error);
  record = pal_session_store_lookup (f->sessions, key);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Parser drops long lines");

  /* and it is stored */
  {
    g_autoptr(PalSessionStore) reread = pal_session_store_new (f->settings);
    PalSessionRecord *stored = pal_session_store_lookup (reread, key);

    g_assert_nonnull (stored);
    g_assert_cmpstr (pal_session_record_get_title (stored), ==, "Parser drops long lines");
  }

  /* prompting what is not live */
  g_clear_pointer (&stop_reason, g_free);
  stop_reason = prompt (f, key_of ("fake", "nobody"), "Hello", &error);
  g_assert_null (stop_reason);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
}

/* What a live session notified, in order: "state=working", "title=…"
 * ("busy" goes with the state: its test is in test-live-session.c) */
static void
live_notify_cb (PalLiveSession *live,
                GParamSpec     *pspec,
                GPtrArray      *log)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (PAL_TYPE_SESSION_STATE);
  const char *name = g_param_spec_get_name (pspec);
  PalSessionState state = pal_live_session_get_state (live);
  gboolean has_session = pal_live_session_get_session (live) != NULL;

  if (g_str_equal (name, "state"))
    g_ptr_array_add (log, g_strdup_printf ("state=%s",
                                           g_enum_get_value (klass, state)->value_nick));
  else if (g_str_equal (name, "busy"))
    return;
  else if (g_str_equal (name, "title"))
    g_ptr_array_add (log, g_strdup_printf ("title=%s", pal_live_session_get_title (live)));
  else if (g_str_equal (name, "session"))
    g_ptr_array_add (log, g_strdup_printf ("session=%s", has_session ? "yes" : "no"));
  else
    g_ptr_array_add (log, g_strdup (name));
}

static char *
joined_log (GPtrArray *log)
{
  g_auto(GStrv) told = NULL;

  g_ptr_array_add (log, NULL);
  told = (char **) g_ptr_array_steal (log, NULL);
  return g_strjoinv (" ", told);
}

/* A live session tells each change once, by itself: a turn is WORKING then
 * READY, the first prompt and then the agent's session_info_update title
 * it, a rename by the person wins, and once forgotten it is NOT_RUNNING,
 * without its session and out of the list. */
static void
test_live_session_notifies (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(PalLiveSession) live = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  g_autofree char *told = NULL;
  GListModel *live_sessions = pal_session_manager_get_live_sessions (f->manager);
  PalSessionKey *key;
  guint position;

  add_profile_full (f, "titled", "titled.json", TRUE);
  session = new_session_ok (f, "titled", f->dir_a);
  key = key_for (f, session);

  live = g_object_ref (pal_session_manager_lookup_live (f->manager, key));
  g_assert_true (pal_session_key_equal (pal_live_session_get_key (live), key));
  g_assert_true (pal_live_session_get_session (live) == session);
  g_assert_cmpint (pal_live_session_get_state (live), ==, PAL_SESSION_STATE_READY);
  g_assert_false (pal_live_session_get_busy (live));
  g_assert_null (pal_live_session_get_error (live));
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "");
  g_assert_true (g_list_store_find (G_LIST_STORE (live_sessions), live, &position));

  g_signal_connect (live, "notify", G_CALLBACK (live_notify_cb), log);
  stop_reason = prompt (f, key, "Why are long lines dropped?", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  told = joined_log (log);
  g_assert_cmpstr (told, ==,
                   "title=Why are long lines dropped? state=working "
                   "title=Parser drops long lines state=ready");
  g_clear_pointer (&told, g_free);

  /* the person's title wins over the agent's */
  g_assert_true (pal_session_store_rename (f->sessions, key, "Long lines"));
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "Long lines");
  told = joined_log (log);
  g_assert_cmpstr (told, ==, "title=Long lines");
  g_clear_pointer (&told, g_free);

  /* forgotten: no longer live, then no longer listed */
  g_assert_true (pal_session_manager_forget (f->manager, key));
  told = joined_log (log);
  g_assert_cmpstr (told, ==, "session=no state=not-running title=");
  g_assert_null (pal_live_session_get_session (live));
  g_assert_null (pal_session_manager_lookup_live (f->manager, key));
  g_assert_false (g_list_store_find (G_LIST_STORE (live_sessions), live, &position));

  g_signal_handlers_disconnect_by_data (live, log);
}

static AcpPermissionItem *
find_pending_permission (AcpSession *session)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (session));

  acp_transcript_flush (acp_session_get_transcript (session));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (ACP_IS_PERMISSION_ITEM (item) &&
          acp_permission_item_get_state (ACP_PERMISSION_ITEM (item)) == ACP_PERMISSION_STATE_PENDING)
        return ACP_PERMISSION_ITEM (item);
    }

  return NULL;
}

static void
test_permission_state (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  g_autofree char *id = NULL;
  PalSessionKey *key;
  AcpPermissionItem *permission;

  add_profile (f, "asks", "permission.json");
  session = new_session_ok (f, "asks", f->dir_a);
  id = g_strdup (acp_session_get_session_id (session));
  key = key_for (f, session);

  pal_session_manager_prompt_async (f->manager, key, "Write it", NULL, test_store_result_cb, &f->result);
  POLL_UNTIL (state_of (f, key) == PAL_SESSION_STATE_WAITING_PERMISSION);
  permission = find_pending_permission (session);
  g_assert_nonnull (permission);
  g_assert_true (acp_permission_item_select (permission, "allow_once", &error));
  g_assert_no_error (error);

  result = WAIT_RESULT (&f->result);
  stop_reason = pal_session_manager_prompt_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  g_assert_true (has_state (f, id, "waiting-permission"));
  g_assert_cmpint (state_of (f, key), ==, PAL_SESSION_STATE_READY);
}

#define GEMINI_SHELL_CALL "run_shell_command__run_shell_command_1795755685891_0"

/* A turn of gemini-shell.json, its command allowed */
static char *
run_gemini_shell (Fixture     *f,
                  AcpSession  *session,
                  GError     **error)
{
  PalSessionKey *id = key_for (f, session);
  g_autoptr(GAsyncResult) result = NULL;
  AcpPermissionItem *permission;

  pal_session_manager_prompt_async (f->manager, id, "run: echo line-one && printf 'no newline'",
                                    NULL, test_store_result_cb, &f->result);
  POLL_UNTIL (f->result != NULL ||
              state_of (f, id) == PAL_SESSION_STATE_WAITING_PERMISSION);
  permission = find_pending_permission (session);
  if (permission != NULL)
    g_assert_true (acp_permission_item_select (permission, "proceed_once", NULL));

  result = WAIT_RESULT (&f->result);
  return pal_session_manager_prompt_finish (f->manager, result, error);
}

/* Gemini CLI runs commands without a pseudo-terminal, so that their output
 * reaches the tool call; a profile that sets the variable keeps its value */
static void
test_shell_output_env (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(AcpSession) again = NULL;
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  const char * const env[] = { "GEMINI_PTY_INFO=node-pty", NULL };
  AcpToolCallItem *tool;
  GListModel *content;
  g_autoptr(AcpToolCallContent) entry = NULL;

  add_profile (f, "shell-gemini", "gemini-shell.json");
  session = new_session_ok (f, "shell-gemini", f->dir_a);
  stop_reason = run_gemini_shell (f, session, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");

  tool = acp_transcript_lookup_tool_call (acp_session_get_transcript (session), GEMINI_SHELL_CALL);
  g_assert_nonnull (tool);
  g_assert_cmpstr (acp_tool_call_item_get_status (tool), ==, "completed");
  content = acp_tool_call_item_get_content (tool);
  g_assert_cmpuint (g_list_model_get_n_items (content), ==, 1);
  entry = g_list_model_get_item (content, 0);
  g_assert_cmpstr (acp_content_block_get_text (acp_tool_call_content_get_block (entry)), ==,
                   "line-one\nno newline");

  close_session (f, key_for (f, session), &error);
  g_assert_no_error (error);
  edited = pal_agent_profile_copy (pal_agent_store_lookup (f->agents, "shell-gemini"));
  pal_agent_profile_set_env (edited, env);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);
  again = new_session_ok (f, "shell-gemini", f->dir_a);
  g_assert_true (acp_session_get_agent (again) != acp_session_get_agent (session));
  g_clear_pointer (&stop_reason, g_free);
  stop_reason = run_gemini_shell (f, again, &error);
  g_assert_null (stop_reason);
  g_assert_error (error, ACP_ERROR, ACP_ERROR_INTERNAL_ERROR);
}

static void
test_refresh_listed (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) second_page = NULL;
  PalSessionRecord *record;
  guint n_added = 0;

  add_profile (f, "fake", "basic.json");
  add_profile (f, "minimal", "minimal.json");

  pal_session_manager_refresh_listed_async (f->manager, "fake", f->dir_a, NULL,
                                            test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_refresh_listed_finish (f->manager, result, &n_added, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_added, ==, 3);

  /* both pages, the second with the cursor of the first */
  g_assert_cmpuint (count_method (f, "session/list"), ==, 2);
  second_page = record_params (f, "session/list", 1);
  g_assert_cmpstr (json_object_get_string_member (second_page, "cursor"), ==, "page-2");

  record = pal_session_store_lookup (f->sessions, key_of ("fake", "listed-1"));
  g_assert_nonnull (record);
  g_assert_cmpstr (pal_session_record_get_agent_id (record), ==, "fake");
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Fix the build");
  g_assert_true (pal_session_record_get_from_agent (record));
  g_assert_nonnull (pal_session_store_lookup (f->sessions, key_of ("fake", "listed-3")));

  /* an agent that cannot list is not asked */
  g_clear_object (&result);
  pal_session_manager_refresh_listed_async (f->manager, "minimal", f->dir_a, NULL,
                                            test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_false (pal_session_manager_refresh_listed_finish (f->manager, result, NULL, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  g_assert_cmpuint (count_method (f, "session/list"), ==, 2);
}

/* }}} */

/* authentication {{{ */

static void
test_auth_required (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *methods = NULL;
  AcpAgent *agent;
  GPtrArray *auth_methods;

  add_profile (f, "locked", "auth-required.json");

  session = new_session (f, "locked", f->dir_a, NULL, &error);
  g_assert_null (session);
  g_assert_true (pal_session_manager_error_is_auth_required (error));
  g_assert_false (pal_session_manager_error_is_auth_required (NULL));
  g_clear_error (&error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->sessions)), ==, 0);

  /* the agent is still there, with its methods */
  agent = pal_session_manager_lookup_agent (f->manager, "locked", f->dir_a);
  g_assert_nonnull (agent);
  auth_methods = acp_agent_get_auth_methods (agent);
  g_assert_cmpuint (auth_methods->len, ==, 1);
  g_assert_cmpstr (acp_auth_method_get_id (g_ptr_array_index (auth_methods, 0)), ==, "api-key");

  pal_session_manager_authenticate_async (f->manager, "locked", f->dir_a, "api-key", NULL,
                                          test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_authenticate_finish (f->manager, result, &error));
  g_assert_no_error (error);

  session = new_session (f, "locked", f->dir_a, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
  g_assert_true (acp_session_get_agent (session) == agent);

  methods = record_methods (f);
  g_assert_cmpstr (methods, ==, "initialize session/new authenticate session/new");
}

/* A "terminal" method runs the agent's own command with the method's args
 * and env on top of the profile's, in the folder. */
static void
test_sign_in_command (Fixture       *f,
                      gconstpointer  data)
{
  const char *env[] = { "FAKE_LOGIN_GREETING=from the profile", "KEPT=1", NULL };
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) command_env = NULL;
  g_autofree char *cwd = NULL;
  g_autofree char *roundabout = g_build_filename (f->dir_b, "..", "project-a", NULL);
  AcpAuthMethod *method;
  int greeting_at = -1, profile_greeting_at = -1;

  edited = pal_agent_profile_copy (add_profile (f, "terminal", "auth-terminal.json"));
  pal_agent_profile_set_env (edited, env);
  g_assert_true (pal_agent_store_update (f->agents, edited, &error));
  g_assert_no_error (error);

  pal_session_manager_start_agent_async (f->manager, "terminal", f->dir_a, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  agent = pal_session_manager_start_agent_finish (f->manager, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  method = acp_agent_get_auth_method (agent, "fake-login");
  g_assert_nonnull (method);

  /* the folder as the agent runs in it: canonical */
  pal_session_manager_sign_in_command_async (f->manager, "terminal", roundabout, method, NULL,
                                             test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  argv = pal_session_manager_sign_in_command_finish (f->manager, result, &command_env, &cwd, &error);
  g_assert_no_error (error);
  g_assert_nonnull (argv);
  g_clear_object (&result);

  g_assert_cmpuint (g_strv_length (argv), ==, 7);
  g_assert_cmpstr (argv[0], ==, fake_agent_path ());
  g_assert_cmpstr (argv[1], ==, "auth-terminal.json");
  g_assert_cmpstr (argv[2], ==, "--record");
  g_assert_cmpstr (argv[4], ==, "--login");
  g_assert_cmpstr (argv[5], ==, "sign-in.sh");
  g_assert_cmpstr (argv[6], ==, "ok");
  g_assert_cmpstr (cwd, ==, f->dir_a);
  g_assert_true (g_strv_contains ((const char * const *) command_env, "KEPT=1"));
  /* for the terminal it runs in */
  g_assert_true (g_strv_contains ((const char * const *) command_env, "TERM=xterm-256color"));
  /* the method's value comes later, and wins */
  for (guint i = 0; command_env[i] != NULL; i++)
    if (g_str_equal (command_env[i], "FAKE_LOGIN_GREETING=Welcome to the fake service"))
      greeting_at = i;
    else if (g_str_equal (command_env[i], "FAKE_LOGIN_GREETING=from the profile"))
      profile_greeting_at = i;
  g_assert_cmpint (profile_greeting_at, >=, 0);
  g_assert_cmpint (greeting_at, >, profile_greeting_at);

  /* a method the agent runs itself, or of a type no one knows, is no command */
  pal_session_manager_sign_in_command_async (f->manager, "terminal", f->dir_a,
                                             acp_agent_get_auth_method (agent, "company-sso"), NULL,
                                             test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_null (pal_session_manager_sign_in_command_finish (f->manager, result, &command_env, &cwd, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_clear_object (&result);

  /* nor is there one for an agent that is gone */
  pal_session_manager_sign_in_command_async (f->manager, "gone", f->dir_a, method, NULL,
                                             test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_null (pal_session_manager_sign_in_command_finish (f->manager, result, &command_env, &cwd, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
}

/* After a sign-in outside the agent (in a terminal) an idle agent starts
 * anew, and one in use says it is out of date. */
static void
test_mark_out_of_date (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AcpSession) session = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(AcpSession) third = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpAgent) first_agent = NULL;

  add_profile (f, "fake", "basic.json");
  session = new_session_ok (f, "fake", f->dir_a);
  first_agent = g_object_ref (acp_session_get_agent (session));
  g_assert_false (pal_session_manager_is_agent_out_of_date (f->manager, "fake"));

  pal_session_manager_mark_agent_out_of_date (f->manager, "fake");
  g_assert_true (pal_session_manager_is_agent_out_of_date (f->manager, "fake"));
  /* in use: still shared */
  second = new_session_ok (f, "fake", f->dir_a);
  g_assert_true (acp_session_get_agent (second) == first_agent);

  close_session (f, key_for (f, session), &error);
  g_assert_no_error (error);
  close_session (f, key_for (f, second), &error);
  g_assert_no_error (error);
  third = new_session_ok (f, "fake", f->dir_a);
  g_assert_true (acp_session_get_agent (third) != first_agent);
  g_assert_false (pal_session_manager_is_agent_out_of_date (f->manager, "fake"));
}

/* }}} */

/* shutdown {{{ */

static void
test_shutdown (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AcpSession) first = NULL;
  g_autoptr(AcpSession) second = NULL;
  g_autoptr(AcpSession) refused = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  add_profile_full (f, "fake", "basic.json", TRUE);
  add_profile_full (f, "stubborn", "ignore-eof.json", TRUE);

  first = new_session_ok (f, "fake", f->dir_a);
  second = new_session_ok (f, "stubborn", f->dir_b);

  pal_session_manager_shutdown_async (f->manager, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  g_assert_true (pal_session_manager_shutdown_finish (f->manager, result, &error));
  g_assert_no_error (error);

  g_assert_cmpint (acp_agent_get_state (acp_session_get_agent (first)), ==, ACP_AGENT_STATE_EXITED);
  g_assert_cmpint (acp_agent_get_state (acp_session_get_agent (second)), ==, ACP_AGENT_STATE_EXITED);
  g_assert_null (pal_session_manager_lookup_agent (f->manager, "fake", f->dir_a));

  refused = new_session (f, "fake", f->dir_a, NULL, &error);
  g_assert_null (refused);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED);
}

/* }}} */

static AcpSession *
fork_session (Fixture        *f,
              PalSessionKey  *key,
              GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  pal_session_manager_fork_session_async (f->manager, key, NULL, test_store_result_cb, &f->result);
  result = WAIT_RESULT (&f->result);
  return pal_session_manager_fork_session_finish (f->manager, result, error);
}

/* A fork is a new session of the same agent and folder, listed beside the
 * original with a title after it; it carries what is shown of the original,
 * and the original is left as it was. */
static void
test_fork (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(AcpSession) original = NULL;
  g_autoptr(AcpSession) fork = NULL;
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  PalSessionKey *key;
  PalSessionKey *fork_key;
  PalSessionRecord *record;
  GListModel *items;

  add_profile (f, "forker", "fork.json");
  /* nothing is offered before the agent ran */
  add_record (f, "old-1", "forker", f->dir_b);
  g_assert_false (pal_session_manager_can_fork (f->manager, key_of ("forker", "old-1")));

  original = new_session_ok (f, "forker", f->dir_a);
  key = key_for (f, original);
  stop_reason = prompt (f, key, "Plan the release", &error);
  g_assert_no_error (error);
  g_assert_true (pal_session_manager_can_fork (f->manager, key));
  g_assert_true (pal_session_manager_can_fork (f->manager, key_of ("forker", "old-1")));

  fork = fork_session (f, key, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fork);
  fork_key = key_for (f, fork);
  g_assert_cmpstr (pal_session_key_get_agent_id (fork_key), ==, "forker");
  g_assert_cmpstr (pal_session_key_get_session_id (fork_key), ==, "fake-session-1-fork-1");
  g_assert_cmpint (acp_session_get_state (fork), ==, ACP_SESSION_STATE_READY);
  g_assert_true (acp_session_get_agent (fork) == acp_session_get_agent (original));
  g_assert_true (pal_session_manager_lookup (f->manager, fork_key) == fork);
  g_assert_cmpint (state_of (f, fork_key), ==, PAL_SESSION_STATE_READY);

  /* what the agent was asked */
  g_assert_cmpuint (count_method (f, "session/fork"), ==, 1);
  params = record_params (f, "session/fork", 0);
  g_assert_cmpstr (json_object_get_string_member (params, "sessionId"), ==, "fake-session-1");
  g_assert_cmpstr (json_object_get_string_member (params, "cwd"), ==, f->dir_a);

  /* listed, stored, in the same folder, titled after the original */
  record = pal_session_store_lookup (f->sessions, fork_key);
  g_assert_nonnull (record);
  g_assert_cmpstr (pal_session_record_get_cwd (record), ==, f->dir_a);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Fork of Plan the release");
  g_assert_false (pal_session_record_get_from_agent (record));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->sessions)), ==, 3);

  /* the original's messages, then where the fork starts */
  g_assert_cmpuint (count_user_messages (fork, "Plan the release"), ==, 1);
  g_assert_cmpuint (count_notices (fork, ACP_NOTICE_SEVERITY_INFO, "The messages above are those of"),
                    ==, 1);
  items = G_LIST_MODEL (acp_session_get_transcript (fork));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (original))) + 1);

  /* the original is untouched, and each goes its own way */
  g_assert_cmpint (acp_session_get_state (original), ==, ACP_SESSION_STATE_READY);
  g_assert_cmpuint (count_notices (original, ACP_NOTICE_SEVERITY_INFO, "Fork"), ==, 0);
  g_clear_pointer (&stop_reason, g_free);
  stop_reason = prompt (f, fork_key, "Only in the fork", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_user_messages (fork, "Only in the fork"), ==, 1);
  g_assert_cmpuint (count_user_messages (original, "Only in the fork"), ==, 0);
  g_clear_pointer (&params, json_object_unref);
  params = record_params (f, "session/prompt", 1);
  g_assert_cmpstr (json_object_get_string_member (params, "sessionId"), ==, "fake-session-1-fork-1");

  /* a session of the list that is not open: nothing of it to carry */
  {
    g_autoptr(AcpSession) cold = fork_session (f, key_of ("forker", "old-1"), &error);
    PalSessionRecord *cold_record;

    g_assert_no_error (error);
    g_assert_cmpstr (acp_session_get_session_id (cold), ==, "old-1-fork-1");
    items = G_LIST_MODEL (acp_session_get_transcript (cold));
    g_assert_cmpuint (g_list_model_get_n_items (items), ==, 1);
    g_assert_cmpuint (count_notices (cold, ACP_NOTICE_SEVERITY_INFO, "does not show again"), ==, 1);
    cold_record = pal_session_store_lookup (f->sessions, key_for (f, cold));
    g_assert_cmpstr (pal_session_record_get_cwd (cold_record), ==, f->dir_b);
    g_assert_cmpstr (pal_session_record_get_title (cold_record), ==, "Forked Session");
  }
}

/* An agent that did not advertise it is not asked; an agent's refusal comes
 * back as it is and lists nothing. */
/* A fork starts with the original's additional folders: they go with
 * session/fork, into its record, and to the file service */
static void
test_fork_folders (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *shared = make_dir (f, "shared");
  g_autofree char *expected_roots = g_strdup_printf ("%s %s", f->dir_a, shared);
  const char *given[] = { shared, NULL };
  g_autoptr(AcpSession) original = NULL;
  g_autoptr(AcpSession) fork = NULL;
  g_autoptr(AcpSession) cold = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *roots = NULL;
  PalSessionRecord *record;
  char *sent;

  add_profile (f, "forker", "fork.json");
  original = new_session_with_folders (f, "forker", f->dir_a, given, &error);
  g_assert_no_error (error);

  fork = fork_session (f, key_for (f, original), &error);
  g_assert_no_error (error);
  sent = sent_folders (f, "session/fork", 0);
  g_assert_cmpstr (sent, ==, shared);
  g_free (sent);
  g_assert_cmpstrv (acp_session_get_additional_directories (fork), given);
  record = pal_session_store_lookup (f->sessions, key_for (f, fork));
  g_assert_cmpstrv (pal_session_record_get_additional_directories (record), given);
  roots = joined_roots (f, fork);
  g_assert_cmpstr (roots, ==, expected_roots);

  /* a session that is not open: those of its record */
  add_record (f, "old-1", "forker", f->dir_a);
  record = pal_session_store_lookup (f->sessions, key_of ("forker", "old-1"));
  pal_session_record_set_additional_directories (record, given);
  cold = fork_session (f, key_of ("forker", "old-1"), &error);
  g_assert_no_error (error);
  sent = sent_folders (f, "session/fork", 1);
  g_assert_cmpstr (sent, ==, shared);
  g_free (sent);
  g_assert_cmpstrv (acp_session_get_additional_directories (cold), given);
}

static void
test_fork_refused (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AcpSession) plain = NULL;
  g_autoptr(AcpSession) refusing = NULL;
  g_autoptr(AcpSession) fork = NULL;
  g_autoptr(GError) error = NULL;

  add_profile (f, "minimal", "minimal.json");
  add_profile (f, "refuser", "fork-fails.json");

  plain = new_session_ok (f, "minimal", f->dir_a);
  g_assert_false (pal_session_manager_can_fork (f->manager, key_for (f, plain)));
  fork = fork_session (f, key_for (f, plain), &error);
  g_assert_null (fork);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_cmpuint (count_method (f, "session/fork"), ==, 0);

  refusing = new_session_ok (f, "refuser", f->dir_b);
  g_assert_true (pal_session_manager_can_fork (f->manager, key_for (f, refusing)));
  fork = fork_session (f, key_for (f, refusing), &error);
  g_assert_null (fork);
  g_assert_error (error, ACP_ERROR, -32603);
  g_assert_nonnull (strstr (error->message, "Cannot fork a session without history"));
  g_clear_error (&error);
  g_assert_cmpuint (count_method (f, "session/fork"), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->sessions)), ==, 2);
  g_assert_cmpint (acp_session_get_state (refusing), ==, ACP_SESSION_STATE_READY);

  fork = fork_session (f, key_of ("refuser", "nobody"), &error);
  g_assert_null (fork);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/session-manager/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("new/shared", test_new_session_shared);
  ADD ("new/agent-cwd", test_agent_cwd);
  ADD ("new/pacer", test_agents_get_pacer);
  ADD ("new/errors", test_new_session_errors);
  ADD ("new/folder-not-utf8", test_new_session_folder_not_utf8);
  ADD ("new/preset-installed-later", test_preset_installed_later);
  ADD ("new/profile-edited", test_profile_edited);
  ADD ("new/id-collision", test_id_collision);
  ADD ("new/same-id-two-agents", test_same_id_two_agents);
  ADD ("new/cancel", test_cancel_start);
  ADD ("new/start-after-cancel", test_start_after_cancel);
  ADD ("open/load-live", test_open_loads_live);
  ADD ("open/resume", test_open_resumes);
  ADD ("open/resume-keeps-transcript", test_resume_keeps_transcript);
  ADD ("delete", test_delete);
  ADD ("fork", test_fork);
  ADD ("fork/refused", test_fork_refused);
  ADD ("fork/folders", test_fork_folders);
  ADD ("restart-out-of-date", test_restart_out_of_date);
  ADD ("open/neither", test_open_neither);
  ADD ("open/crash-during-replay", test_crash_during_replay);
  ADD ("agent-crash", test_agent_crash_fails_sessions);
  ADD ("close", test_close);
  ADD ("forget", test_forget);
  ADD ("forget/terminals", test_forget_terminals);
  ADD ("client/fs", test_fs_requests);
  ADD ("client/terminal", test_terminal_requests);
  ADD ("client/shell-output-env", test_shell_output_env);
  ADD ("mcp/gating", test_mcp_gating);
  ADD ("folders/sent", test_folders_sent);
  ADD ("folders/not-advertised", test_folders_not_advertised);
  ADD ("folders/fs", test_folders_fs);
  ADD ("folders/same-id", test_folders_same_id);
  ADD ("folders/listed", test_folders_listed);
  ADD ("store/titles", test_titles);
  ADD ("live/notifies", test_live_session_notifies);
  ADD ("state/permission", test_permission_state);
  ADD ("list/refresh", test_refresh_listed);
  ADD ("auth/required", test_auth_required);
  ADD ("auth/sign-in-command", test_sign_in_command);
  ADD ("auth/mark-out-of-date", test_mark_out_of_date);
  ADD ("shutdown", test_shutdown);

  return g_test_run ();
}
