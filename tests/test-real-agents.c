/* test-real-agents.c: full turns with the real agents from npm, offline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Claude Agent (@agentclientprotocol/claude-agent-acp), Codex
 * (@agentclientprotocol/codex-acp) and Gemini CLI (@google/gemini-cli), the
 * pinned versions build-aux/setup.sh test installs into
 * $PALAVER_NODE_MODULES, each talking to the canned model of
 * tests/model-server ($PALAVER_MODEL_SERVER) on a free port of 127.0.0.1, in
 * a home, config folders and a project of its own under a temporary folder.
 * That server is also their HTTPS proxy, so that whatever would leave the
 * machine is refused and shows in its log.
 *
 * Each test drives the agent through Palaver's own AcpAgent and AcpSession:
 *   - a new session with the MCP reference server over stdio, and over
 *     streamable HTTP where the agent advertises it;
 *   - a prompt the model answers with a shell command: the permission
 *     request is answered, the command runs in the project, and what it
 *     printed reaches the tool call;
 *   - a prompt the model answers with a call of the MCP tool `echo`, per
 *     server: its result reaches the transcript (content or raw output) and
 *     the model;
 *   - close, stop, and nothing of the agent left running;
 *   - another agent process: load with replay (the command's output
 *     again), close, resume and a prompt in the resumed session, as far as
 *     the agent advertises them (Gemini CLI loses history, so that its load
 *     fails or replays part), stop.
 *
 * Run one agent with -p /real-agents/claude (or codex, gemini). Skipped when
 * node, python3 or the packages are missing.
 */

#include "config.h"

#include <signal.h>
#include <sys/prctl.h>

#include <glib/gstdio.h>

#include "acp-fs-service.h"
#include "acp-permission-item.h"
#include "acp-session.h"
#include "acp-terminal-service.h"

#include "leftover-processes.h"
#include "test-util.h"

/* The guard of a wait (see test-util.h): an agent takes 2 to 20 s to start
 * on a busy machine. */
#define WAIT_SECONDS 120
/* How long what is left of a stopped agent gets to exit: processes of a
 * group stopped with SIGTERM may still be handling it when the stop is done. */
#define LEFTOVER_SECONDS 5

#define SHELL_PROMPT  "run: touch shell-ok && echo palaver-shell-ok"
#define STDIO_PROMPT  "call: *stdio_everything*echo {\"message\": \"palaver-stdio-ok\"}"
#define HTTP_PROMPT   "call: *http_everything*echo {\"message\": \"palaver-http-ok\"}"
#define RESUME_PROMPT "Hello again after the resume"

/* --- the agents --- */

typedef struct _Fixture Fixture;

typedef struct
{
  const char *name;
  const char *package;          /* for messages */
  const char *bin;              /* under node_modules/.bin */
  const char *args[3];
  void      (*configure) (Fixture *f);
  const char *mode;             /* the mode that asks before running commands */
  const char *history_lost;     /* how session/load fails when the history is lost */
  const char *terminal_login;   /* the "terminal" sign-in method it offers here */
} AgentSpec;

struct _Fixture
{
  const AgentSpec *spec;
  char            *modules;
  char            *node;
  char            *everything;  /* server-everything's dist/index.js */

  char            *tmpdir;
  char            *home;
  char            *project;
  char            *request_log;
  GPtrArray       *env;         /* NAME=VALUE, NULL-terminated */

  GSubprocess     *model_server;
  guint            model_port;
  GSubprocess     *http_server;
  guint            http_port;
  pid_t            server_pids[2];   /* the test's own, not the agent's */
  guint            n_server_pids;

  AcpFsService       *fs_service;
  AcpTerminalService *terminal_service;
};

static void
add_env (Fixture    *f,
         const char *name,
         const char *value)
{
  g_assert_null (g_ptr_array_index (f->env, f->env->len - 1));
  g_ptr_array_index (f->env, f->env->len - 1) = g_strdup_printf ("%s=%s", name, value);
  g_ptr_array_add (f->env, NULL);
}

static char *
make_dir (Fixture    *f,
          const char *relative)
{
  char *path = g_build_filename (f->tmpdir, relative, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);

  return path;
}

static void
write_file (const char *path,
            const char *contents)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
configure_claude (Fixture *f)
{
  g_autofree char *config = make_dir (f, "home/.claude");
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", f->model_port);

  add_env (f, "CLAUDE_CONFIG_DIR", config);
  add_env (f, "ANTHROPIC_BASE_URL", url);
  add_env (f, "ANTHROPIC_API_KEY", "canned-key");
  /* as root it refuses to run unless told it is in a sandbox */
  add_env (f, "IS_SANDBOX", "1");
  /* no telemetry, error reports, update checks */
  add_env (f, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
}

static void
configure_codex (Fixture *f)
{
  g_autofree char *codex_home = make_dir (f, "home/.codex");
  g_autofree char *config_path = g_build_filename (codex_home, "config.toml", NULL);
  g_autofree char *config = NULL;

  /* a model it has no metadata for gets plain function tools (and a
   * warning); plugins would fetch catalogs from github.com and chatgpt.com */
  config = g_strdup_printf ("model = \"canned-model\"\n"
                            "model_provider = \"canned\"\n"
                            "check_for_update_on_startup = false\n"
                            "\n"
                            "[model_providers.canned]\n"
                            "name = \"Canned\"\n"
                            "base_url = \"http://127.0.0.1:%u/v1\"\n"
                            "wire_api = \"responses\"\n"
                            "env_key = \"CANNED_API_KEY\"\n"
                            "\n"
                            "[features]\n"
                            "plugins = false\n"
                            "\n"
                            "[analytics]\n"
                            "enabled = false\n",
                            f->model_port);
  write_file (config_path, config);

  add_env (f, "CODEX_HOME", codex_home);
  add_env (f, "CANNED_API_KEY", "canned-key");
  /* in its default mode its own reviewer decides instead of the client */
  add_env (f, "INITIAL_AGENT_MODE", "workspace-write");
  /* no model requests for suggested next prompts after each turn */
  add_env (f, "CODEX_ACP_PROMPT_SUGGESTIONS", "false");
}

static void
configure_gemini (Fixture *f)
{
  g_autofree char *dir = make_dir (f, "home/.gemini");
  g_autofree char *settings = g_build_filename (dir, "settings.json", NULL);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", f->model_port);

  /* usage statistics go to play.googleapis.com otherwise */
  write_file (settings,
              "{\n"
              "  \"privacy\": { \"usageStatisticsEnabled\": false },\n"
              "  \"telemetry\": { \"enabled\": false },\n"
              "  \"general\": { \"enableAutoUpdate\": false,\n"
              "               \"enableAutoUpdateNotification\": false }\n"
              "}\n");
  add_env (f, "GOOGLE_GEMINI_BASE_URL", url);
  add_env (f, "GEMINI_API_KEY", "canned-key");
  /* as Palaver starts every agent: commands run in a pseudo-terminal send
   * none of their output to the client */
  add_env (f, "GEMINI_PTY_INFO", "child_process");
}

static const AgentSpec claude_spec = {
  .name = "claude",
  .package = "@agentclientprotocol/claude-agent-acp",
  .bin = "claude-agent-acp",
  .configure = configure_claude,
  /* "auto" (the default) lets a classifier decide */
  .mode = "default",
  /* offered once the client runs terminal sign-ins: the TUI login
   * (claude --cli) where no browser can be opened, as with NO_BROWSER here;
   * elsewhere "claude-ai-login" and "console-login" (claude auth login) */
  .terminal_login = "claude-login",
};

static const AgentSpec codex_spec = {
  .name = "codex",
  .package = "@agentclientprotocol/codex-acp",
  .bin = "codex-acp",
  .configure = configure_codex,
};

static const AgentSpec gemini_spec = {
  .name = "gemini",
  .package = "@google/gemini-cli",
  .bin = "gemini",
  /* without --skip-trust, MCP servers are off in a folder not trusted */
  .args = { "--acp", "--skip-trust", NULL },
  .configure = configure_gemini,
  /* When an MCP server says its tools changed (server-everything does, once
   * connected), Gemini CLI records the conversation again from what it holds
   * at that moment, and loses some of the rest: depending on timing, nothing
   * resumable is left to load, or the replay holds only part of the turns. */
  .history_lost = "No previous sessions found for this project.",
};

/* --- the test's own servers --- */

static void
die_with_test (gpointer user_data)
{
  /* a failed assertion aborts the test: its servers go with it */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static GSubprocess *
spawn_server (Fixture             *f,
              GSubprocessFlags     flags,
              const char * const  *env,
              const char * const  *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GError) error = NULL;
  GSubprocess *process;
  gint64 pid;

  for (guint i = 0; env != NULL && env[i] != NULL; i += 2)
    g_subprocess_launcher_setenv (launcher, env[i], env[i + 1], TRUE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (f->n_server_pids, <, G_N_ELEMENTS (f->server_pids));
  pid = g_ascii_strtoll (g_subprocess_get_identifier (process), NULL, 10);
  f->server_pids[f->n_server_pids++] = (pid_t) pid;

  return process;
}

typedef struct
{
  char     *line;
  gboolean  done;
} LineRead;

static void
line_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  LineRead *read = user_data;

  /* NULL at the end of the stream */
  read->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result,
                                                          NULL, NULL);
  read->done = TRUE;
}

/* The next line of @stream, or NULL at its end */
static char *
read_line (GDataInputStream *stream)
{
  LineRead read = { 0 };

  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, NULL, line_read_cb, &read);
  WAIT_UNTIL (read.done);

  return read.line;
}

static void
stop_server (GSubprocess **process)
{
  g_autoptr(GAsyncResult) result = NULL;

  if (*process == NULL)
    return;

  g_subprocess_force_exit (*process);
  g_subprocess_wait_async (*process, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_clear_object (process);
}

/* The canned model; it prints the port it got. */
static void
start_model_server (Fixture *f)
{
  const char *script = g_getenv ("PALAVER_MODEL_SERVER");
  const char *argv[] = { "python3", script, "--log", f->request_log, NULL };
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  guint64 port;

  f->model_server = spawn_server (f, G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, argv);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (f->model_server));
  line = read_line (out);
  g_assert_nonnull (line);
  g_assert_true (g_ascii_string_to_unsigned (line, 10, 1, 65535, &port, NULL));
  f->model_port = (guint) port;
}

static guint
find_free_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  guint port;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any_port, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  return port;
}

/* `PORT=N node index.js streamableHttp`; it says on stderr when it listens
 * (on every interface: the port is a free one of the loopback). */
static gboolean
try_http_server (Fixture *f)
{
  const char *argv[] = { f->node, f->everything, "streamableHttp", NULL };
  g_autofree char *port_text = NULL;
  g_autoptr(GDataInputStream) err = NULL;
  const char *env[3];

  f->http_port = find_free_port ();
  port_text = g_strdup_printf ("%u", f->http_port);
  env[0] = "PORT";
  env[1] = port_text;
  env[2] = NULL;
  f->http_server = spawn_server (f, G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                    G_SUBPROCESS_FLAGS_STDERR_PIPE, env, argv);
  err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (f->http_server));
  for (;;)
    {
      g_autofree char *line = read_line (err);

      if (line == NULL)
        {
          /* someone took the port in between: this one is gone */
          stop_server (&f->http_server);
          f->n_server_pids--;
          return FALSE;
        }
      if (strstr (line, "listening on port") != NULL)
        return TRUE;
    }
}

static void
start_http_server (Fixture *f)
{
  for (guint attempt = 0; attempt < 3; attempt++)
    if (try_http_server (f))
      return;

  g_error ("server-everything streamableHttp exited before listening, three times");
}

/* --- agent processes --- */

/* Agent processes seen running, killed if the test aborts. */
static pid_t seen_pids[256];
static volatile sig_atomic_t n_seen_pids;

static void
abort_handler (int signum)
{
  for (sig_atomic_t i = 0; i < n_seen_pids; i++)
    kill (seen_pids[i], SIGKILL);
  signal (signum, SIG_DFL);
  raise (signum);
}

static void
remember_pids (GArray *pids)
{
  for (guint i = 0; i < pids->len && n_seen_pids < (sig_atomic_t) G_N_ELEMENTS (seen_pids); i++)
    {
      pid_t pid = g_array_index (pids, pid_t, i);
      gboolean known = FALSE;

      for (sig_atomic_t j = 0; j < n_seen_pids; j++)
        known |= seen_pids[j] == pid;
      if (!known)
        seen_pids[n_seen_pids++] = pid;
    }
}

/* Everything of the agent running now (from the test's descendants: the
 * test's own servers and their children are not the agent's) */
static GArray *
find_agent_processes (Fixture *f,
                      pid_t    agent_pgid)
{
  GArray *pids = find_descendants (agent_pgid, f->server_pids, f->n_server_pids);

  remember_pids (pids);

  return pids;
}

/* Notes what runs now, for the abort handler */
static void
remember_agent_processes (Fixture *f)
{
  g_autoptr(GArray) pids = find_agent_processes (f, 0);
}

static char *
dup_agent_path (Fixture *f)
{
  return g_build_filename (f->modules, ".bin", f->spec->bin, NULL);
}

typedef struct
{
  AcpAgent *agent;
  pid_t     pid;
  pid_t     pgid;
} Agent;

static void
start_agent (Fixture *f,
             Agent   *agent)
{
  g_autofree char *path = dup_agent_path (f);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) children = NULL;
  const char *argv[4] = { path, NULL };
  ProcEntry entry;

  for (guint i = 0; f->spec->args[i] != NULL; i++)
    argv[i + 1] = f->spec->args[i];

  agent->agent = acp_agent_new (argv, (const char * const *) f->env->pdata, f->project);
  /* what the application advertises, with its services behind */
  acp_agent_set_client_capabilities (agent->agent, ACP_CLIENT_CAP_FS_READ |
                                                   ACP_CLIENT_CAP_FS_WRITE |
                                                   ACP_CLIENT_CAP_TERMINAL |
                                                   ACP_CLIENT_CAP_AUTH_TERMINAL);
  acp_fs_service_attach (f->fs_service, agent->agent);
  acp_terminal_service_attach (f->terminal_service, agent->agent);

  acp_agent_start_async (agent->agent, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  if (!acp_agent_start_finish (agent->agent, result, &error))
    {
      g_autofree char *tail = acp_agent_dup_stderr_tail (agent->agent);

      g_error ("%s did not start: %s\n%s", f->spec->package, error->message, tail);
    }
  g_assert_cmpuint (acp_agent_get_protocol_version (agent->agent), ==, 1);

  /* the agent is the one child of the test that is not its server */
  children = find_agent_processes (f, 0);
  agent->pid = 0;
  for (guint i = 0; i < children->len; i++)
    if (read_proc_entry (g_array_index (children, pid_t, i), &entry) && entry.ppid == getpid ())
      {
        g_assert_cmpint (agent->pid, ==, 0);
        agent->pid = entry.pid;
        agent->pgid = entry.pgid;
      }
  g_assert_cmpint (agent->pid, >, 0);
  g_test_message ("%s %s started as pid %d, in %s process group",
                  acp_agent_get_agent_name (agent->agent),
                  acp_agent_get_agent_version (agent->agent), (int) agent->pid,
                  agent->pgid == agent->pid ? "its own" : "the test's");
}

/* Stops the agent, then checks that nothing of it is left running. */
static void
stop_agent (Fixture *f,
            Agent   *agent)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) after = NULL;
  g_autoptr(GArray) left = NULL;
  g_autoptr(GString) names = g_string_new (NULL);

  /* every agent leads a process group of its own */
  g_assert_cmpint (agent->pgid, ==, agent->pid);
  before = find_agent_processes (f, agent->pgid);
  g_test_message ("stopping %s: %u processes", f->spec->name, before->len);

  acp_agent_stop_async (agent->agent, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_agent_stop_finish (agent->agent, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_agent_get_state (agent->agent), ==, ACP_AGENT_STATE_EXITED);

  after = find_agent_processes (f, agent->pgid);
  left = wait_for_exits (after, LEFTOVER_SECONDS);
  g_test_message ("stopped %s: %u processes right after, %u after %d s", f->spec->name,
                  after->len, left->len, LEFTOVER_SECONDS);
  for (guint i = 0; i < left->len; i++)
    {
      g_autofree char *name = describe_process (g_array_index (left, pid_t, i));

      g_string_append_printf (names, "\n  %s", name);
    }

  /* whatever happens below, the next agent starts clean */
  for (guint i = 0; i < left->len; i++)
    kill (g_array_index (left, pid_t, i), SIGKILL);
  {
    g_autoptr(GArray) gone = wait_for_exits (left, WAIT_SECONDS);

    g_assert_cmpuint (gone->len, ==, 0);
  }
  reap_orphans (f->server_pids, f->n_server_pids);
  g_clear_object (&agent->agent);
  /* all gone: their pids may be someone else's from now on */
  n_seen_pids = 0;

  if (left->len > 0)
    g_error ("%u processes of %s still ran %d s after it stopped:%s", left->len,
             f->spec->name, LEFTOVER_SECONDS, names->str);
}

/* --- sessions and turns --- */

static GPtrArray *
dup_mcp_servers (Fixture  *f,
                 AcpAgent *agent)
{
  GPtrArray *servers = g_ptr_array_new_with_free_func (g_object_unref);
  const char *args[] = { f->everything, "stdio", NULL };
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", f->http_port);
  g_autoptr(AcpMcpServer) http = acp_mcp_server_new_http ("http_everything", url);

  g_ptr_array_add (servers, acp_mcp_server_new_stdio ("stdio_everything", f->node, args));
  if (acp_agent_can_use_mcp_server (agent, http))
    g_ptr_array_add (servers, g_steal_pointer (&http));

  return servers;
}

static gboolean
uses_http_server (AcpAgent *agent)
{
  return acp_agent_supports_mcp_transport (agent, ACP_MCP_TRANSPORT_HTTP);
}

static void
fail_with_stderr (AcpAgent     *agent,
                  const char   *what,
                  const GError *error)
{
  g_autofree char *tail = acp_agent_dup_stderr_tail (agent);

  g_error ("%s failed: %s\n%s", what, error->message, tail);
}

static void
set_service_roots (Fixture    *f,
                   AcpSession *session)
{
  const char *roots[] = { f->project, NULL };

  acp_fs_service_set_roots (f->fs_service, acp_session_get_agent (session),
                            acp_session_get_session_id (session), roots);
  acp_terminal_service_set_session_cwd (f->terminal_service, acp_session_get_agent (session),
                                        acp_session_get_session_id (session), f->project);
}

static AcpSession *
create_session (Fixture  *f,
                AcpAgent *agent)
{
  g_autoptr(AcpSession) session = acp_session_new (agent, f->project);
  g_autoptr(GPtrArray) servers = dup_mcp_servers (f, agent);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  acp_session_create_async (session, servers, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  if (!acp_session_create_finish (session, result, &error))
    fail_with_stderr (agent, "session/new", error);
  g_assert_cmpint (acp_session_get_state (session), ==, ACP_SESSION_STATE_READY);
  set_service_roots (f, session);

  if (f->spec->mode != NULL)
    {
      g_autoptr(GAsyncResult) mode_result = NULL;

      acp_session_set_mode_async (session, f->spec->mode, NULL, test_store_result_cb, &mode_result);
      WAIT_UNTIL (mode_result != NULL);
      g_assert_true (acp_session_set_mode_finish (session, mode_result, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (acp_session_get_current_mode_id (session), ==, f->spec->mode);
    }

  return g_steal_pointer (&session);
}

static void
close_session (AcpSession *session)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  acp_session_close_async (session, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_close_finish (session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (acp_session_get_state (session), ==, ACP_SESSION_STATE_CLOSED);
}

typedef struct
{
  AcpSession *session;
  guint       n_answered;
  guint       answer_id;
} Permissions;

/* Allows once, the way a person would click the button of that kind. */
static gboolean
answer_permissions_cb (gpointer data)
{
  Permissions *permissions = data;
  AcpTranscript *transcript = acp_session_get_transcript (permissions->session);
  GListModel *model = G_LIST_MODEL (transcript);

  permissions->answer_id = 0;
  acp_transcript_flush (transcript);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);
      AcpPermissionItem *permission;
      GListModel *options;
      const char *allow = NULL;
      g_autoptr(GError) error = NULL;

      if (!ACP_IS_PERMISSION_ITEM (item))
        continue;
      permission = ACP_PERMISSION_ITEM (item);
      if (acp_permission_item_get_state (permission) != ACP_PERMISSION_STATE_PENDING)
        continue;

      options = acp_permission_item_get_options (permission);
      for (guint j = 0; j < g_list_model_get_n_items (options) && allow == NULL; j++)
        {
          g_autoptr(AcpPermissionOption) option = g_list_model_get_item (options, j);

          if (acp_permission_option_get_kind (option) == ACP_PERMISSION_OPTION_KIND_ALLOW_ONCE)
            allow = acp_permission_option_get_id (option);  /* the item keeps the option */
        }
      g_assert_nonnull (allow);
      g_assert_true (acp_permission_item_select (permission, allow, &error));
      g_assert_no_error (error);
      permissions->n_answered++;
    }

  return G_SOURCE_REMOVE;
}

static void
pending_permissions_cb (AcpSession  *session,
                        GParamSpec  *pspec,
                        Permissions *permissions)
{
  if (acp_session_get_pending_permissions (session) > 0 && permissions->answer_id == 0)
    permissions->answer_id = g_idle_add (answer_permissions_cb, permissions);
}

/* Runs one turn, allowing what the agent asks, and returns the position of
 * the first transcript item of the turn. */
static guint
run_turn (AcpSession *session,
          const char *text,
          guint      *n_permissions)
{
  AcpTranscript *transcript = acp_session_get_transcript (session);
  Permissions permissions = { session, 0, 0 };
  g_autoptr(JsonArray) prompt = json_array_new ();
  g_autoptr(JsonObject) block = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stop_reason = NULL;
  gulong handler;
  guint first;

  acp_transcript_flush (transcript);
  first = g_list_model_get_n_items (G_LIST_MODEL (transcript));

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  json_array_add_object_element (prompt, json_object_ref (block));

  handler = g_signal_connect (session, "notify::pending-permissions",
                              G_CALLBACK (pending_permissions_cb), &permissions);
  acp_session_prompt_async (session, prompt, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_signal_handler_disconnect (session, handler);
  g_clear_handle_id (&permissions.answer_id, g_source_remove);

  stop_reason = acp_session_prompt_finish (session, result, &error);
  if (stop_reason == NULL)
    fail_with_stderr (acp_session_get_agent (session), text, error);
  g_assert_cmpstr (stop_reason, ==, "end_turn");
  acp_transcript_flush (transcript);

  if (n_permissions != NULL)
    *n_permissions = permissions.n_answered;

  return first;
}

/* The text of the messages of @role from position @first on */
static char *
dup_text (AcpSession     *session,
          AcpMessageRole  role,
          guint           first)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (session));
  GString *text = g_string_new (NULL);

  for (guint i = first; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (ACP_IS_MESSAGE_ITEM (item) && acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == role)
        g_string_append_printf (text, "%s\n", acp_message_item_get_text (ACP_MESSAGE_ITEM (item)));
    }

  return g_string_free (text, FALSE);
}

/* What a tool call's content says, as text: its blocks, diffs, terminals */
static char *
dup_content_text (AcpToolCallItem *call)
{
  GListModel *content = acp_tool_call_item_get_content (call);
  g_autoptr(GString) text = g_string_new ("[");

  for (guint i = 0; i < g_list_model_get_n_items (content); i++)
    {
      g_autoptr(AcpToolCallContent) entry = g_list_model_get_item (content, i);
      AcpContentBlock *block = acp_tool_call_content_get_block (entry);

      switch (acp_tool_call_content_get_kind (entry))
        {
        case ACP_TOOL_CALL_CONTENT_KIND_CONTENT:
          g_string_append_printf (text, " %s: %s", acp_content_block_get_type_name (block),
                                  acp_content_block_get_text (block) != NULL ? acp_content_block_get_text (block)
                                  : acp_content_block_get_uri (block));
          break;

        case ACP_TOOL_CALL_CONTENT_KIND_DIFF:
          g_string_append_printf (text, " diff of %s: %s", acp_tool_call_content_get_path (entry),
                                  acp_tool_call_content_get_new_text (entry));
          break;

        case ACP_TOOL_CALL_CONTENT_KIND_TERMINAL:
          g_string_append_printf (text, " terminal %s", acp_tool_call_content_get_terminal_id (entry));
          break;

        case ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN:
        default:
          g_string_append_printf (text, " %s", acp_tool_call_content_get_type_name (entry));
          break;
        }
    }
  g_string_append (text, " ]");

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* What a tool call shows of itself: content, raw input and output (JSON) */
static char *
dup_tool_call_json (AcpToolCallItem *call)
{
  g_autofree char *content_json = dup_content_text (call);
  JsonNode *raw_input = acp_tool_call_item_get_raw_input (call);
  JsonNode *raw_output = acp_tool_call_item_get_raw_output (call);
  g_autofree char *input_json = raw_input != NULL ? json_to_string (raw_input, FALSE) : NULL;
  g_autofree char *output_json = raw_output != NULL ? json_to_string (raw_output, FALSE) : NULL;

  return g_strdup_printf ("content %s, raw input %s, raw output %s", content_json,
                          input_json ? input_json : "none", output_json ? output_json : "none");
}

/* The first tool call from position @first on whose content or raw output
 * holds @needle (NULL: any tool call of kind @kind) */
static AcpToolCallItem *
find_tool_call (AcpSession *session,
                guint       first,
                const char *kind,
                const char *needle)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (session));

  for (guint i = first; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);
      AcpToolCallItem *call;
      g_autofree char *content_text = NULL;
      g_autofree char *output_json = NULL;

      if (!ACP_IS_TOOL_CALL_ITEM (item))
        continue;
      call = ACP_TOOL_CALL_ITEM (item);
      if (kind != NULL && g_strcmp0 (acp_tool_call_item_get_tool_kind (call), kind) != 0)
        continue;
      if (needle == NULL)
        return call;

      content_text = dup_content_text (call);
      if (acp_tool_call_item_get_raw_output (call) != NULL)
        output_json = json_to_string (acp_tool_call_item_get_raw_output (call), FALSE);
      if (strstr (content_text, needle) != NULL ||
          (output_json != NULL && strstr (output_json, needle) != NULL))
        return call;
    }

  return NULL;
}

static void
dump_transcript (AcpSession *session,
                 guint       first)
{
  GListModel *model = G_LIST_MODEL (acp_session_get_transcript (session));

  for (guint i = first; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AcpItem) item = g_list_model_get_item (model, i);

      if (ACP_IS_TOOL_CALL_ITEM (item))
        {
          g_autofree char *json = dup_tool_call_json (ACP_TOOL_CALL_ITEM (item));

          g_test_message ("  tool call %s (%s, %s): %s",
                          acp_tool_call_item_get_title (ACP_TOOL_CALL_ITEM (item)),
                          acp_tool_call_item_get_tool_kind (ACP_TOOL_CALL_ITEM (item)),
                          acp_tool_call_item_get_status (ACP_TOOL_CALL_ITEM (item)), json);
        }
      else if (ACP_IS_MESSAGE_ITEM (item))
        {
          AcpMessageItem *message = ACP_MESSAGE_ITEM (item);
          const char *roles[] = { "user", "agent", "thought" };

          g_test_message ("  %s message: %s", roles[acp_message_item_get_role (message)],
                          acp_message_item_get_text (message));
        }
      else
        g_test_message ("  %s", G_OBJECT_TYPE_NAME (item));
    }
}

/* What the tool call shows of a command's output: its text content, its raw
 * output as text, the output of the agent's own terminals */
static char *
dup_shown_output (AcpToolCallItem *call)
{
  GListModel *content = acp_tool_call_item_get_content (call);
  g_auto(GStrv) terminal_ids = acp_tool_call_item_dup_terminal_ids (call);
  g_autofree char *raw = acp_tool_call_item_dup_raw_output_text (call, NULL);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_null_terminated (4, NULL, TRUE);

  if (raw != NULL)
    g_ptr_array_add (parts, raw);
  for (guint i = 0; i < g_list_model_get_n_items (content); i++)
    {
      g_autoptr(AcpToolCallContent) entry = g_list_model_get_item (content, i);
      AcpContentBlock *block = acp_tool_call_content_get_block (entry);

      /* the content keeps the entry and its text */
      if (block != NULL && acp_content_block_get_text (block) != NULL)
        g_ptr_array_add (parts, (char *) acp_content_block_get_text (block));
    }
  for (guint i = 0; terminal_ids[i] != NULL; i++)
    g_ptr_array_add (parts,
                     (char *) acp_tool_call_item_get_terminal_output (call, terminal_ids[i], NULL));

  return g_strjoinv ("\n", (char **) parts->pdata);
}

/* A prompt answered with a shell command: asked, allowed, run, reported. */
static void
check_shell_turn (Fixture    *f,
                  AcpSession *session)
{
  g_autofree char *marker = g_build_filename (f->project, "shell-ok", NULL);
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  AcpToolCallItem *call;
  guint n_permissions = 0;
  guint first;

  first = run_turn (session, SHELL_PROMPT, &n_permissions);
  dump_transcript (session, first);

  /* each of them asks in the mode and configuration given here */
  g_assert_cmpuint (n_permissions, >=, 1);
  g_assert_true (g_file_test (marker, G_FILE_TEST_IS_REGULAR));

  call = find_tool_call (session, first, "execute", NULL);
  g_assert_nonnull (call);
  g_assert_cmpstr (acp_tool_call_item_get_status (call), ==, "completed");
  /* what it printed reached the tool call, to be shown there */
  shown = dup_shown_output (call);
  g_test_message ("the command's output as the tool call has it: %s", shown);
  g_assert_nonnull (strstr (shown, "palaver-shell-ok"));

  /* the output went to the model, which quoted it */
  text = dup_text (session, ACP_MESSAGE_ROLE_AGENT, first);
  g_assert_nonnull (strstr (text, "The tool finished."));
  g_assert_nonnull (strstr (text, "palaver-shell-ok"));
}

/* A prompt answered with a call of the MCP tool echo */
static void
check_echo_turn (AcpSession *session,
                 const char *prompt,
                 const char *expected)
{
  g_autofree char *text = NULL;
  AcpToolCallItem *call;
  guint first;

  first = run_turn (session, prompt, NULL);
  dump_transcript (session, first);

  call = find_tool_call (session, first, NULL, expected);
  g_assert_nonnull (call);
  g_assert_cmpstr (acp_tool_call_item_get_status (call), ==, "completed");

  text = dup_text (session, ACP_MESSAGE_ROLE_AGENT, first);
  g_assert_nonnull (strstr (text, expected));
}

/* Whether the model saw a request holding all of @needles */
static gboolean
model_saw (Fixture            *f,
           const char * const *needles)
{
  g_autofree char *log = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (f->request_log, &log, NULL, NULL));
  lines = g_strsplit (log, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      gboolean all = TRUE;

      for (guint j = 0; needles[j] != NULL && all; j++)
        all = strstr (lines[i], needles[j]) != NULL;
      if (all && lines[i][0] != '\0')
        return TRUE;
    }

  return FALSE;
}

/* Nothing went to the internet: the proxy (the model server) saw no CONNECT
 * and no request for another host. */
static void
check_offline (Fixture *f)
{
  g_autofree char *log = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_true (g_file_get_contents (f->request_log, &log, NULL, NULL));
  lines = g_strsplit (log, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = NULL;
      JsonObject *request;
      const char *method, *path;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], NULL);
      g_assert_nonnull (node);
      request = json_node_get_object (node);
      method = json_object_get_string_member (request, "method");
      path = json_object_get_string_member (request, "path");
      if (g_str_equal (method, "CONNECT") || !g_str_has_prefix (path, "/"))
        g_string_append_printf (out, "\n  %s %s", method, path);
    }

  if (out->len > 0)
    g_error ("%s tried to reach the internet:%s", f->spec->name, out->str);
}

/* --- the test --- */

/* Whether everything the test needs is there; skips it otherwise. */
static gboolean
find_peers (Fixture *f)
{
  const char *modules = g_getenv ("PALAVER_NODE_MODULES");
  const char *script = g_getenv ("PALAVER_MODEL_SERVER");
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *agent = NULL;

  f->node = g_find_program_in_path ("node");
  if (f->node == NULL || python == NULL)
    {
      g_test_skip ("node or python3 is not installed (build-aux/setup.sh test installs node)");
      return FALSE;
    }
  if (script == NULL || !g_file_test (script, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("PALAVER_MODEL_SERVER does not name tests/model-server/model-server.py");
      return FALSE;
    }
  if (modules == NULL)
    {
      g_test_skip ("PALAVER_NODE_MODULES is not set");
      return FALSE;
    }

  f->modules = g_strdup (modules);
  f->everything = g_build_filename (modules, "@modelcontextprotocol", "server-everything",
                                    "dist", "index.js", NULL);
  agent = g_build_filename (modules, ".bin", f->spec->bin, NULL);
  if (!g_file_test (agent, G_FILE_TEST_IS_EXECUTABLE) ||
      !g_file_test (f->everything, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *message = g_strdup_printf ("%s or @modelcontextprotocol/server-everything "
                                                  "is not installed in $PALAVER_NODE_MODULES "
                                                  "(build-aux/setup.sh test installs them)",
                                                  f->spec->package);

      g_test_skip (message);
      return FALSE;
    }

  return TRUE;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const char *dirs[][2] = {
    { "XDG_CONFIG_HOME", "home/.config" },
    { "XDG_DATA_HOME", "home/.local/share" },
    { "XDG_STATE_HOME", "home/.local/state" },
    { "XDG_CACHE_HOME", "home/.cache" },
    { "TMPDIR", "tmp" },
  };

  f->spec = data;
  if (!find_peers (f))
    return;

  f->tmpdir = test_make_tmpdir ("test-real-agents");
  f->home = make_dir (f, "home");
  f->project = make_dir (f, "project");
  f->request_log = g_build_filename (f->tmpdir, "requests.jsonl", NULL);
  f->env = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (f->env, NULL);
  f->fs_service = acp_fs_service_new ();
  f->terminal_service = acp_terminal_service_new ();

  start_model_server (f);

  /* nothing of the person running the tests is read or written */
  add_env (f, "HOME", f->home);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = make_dir (f, dirs[i][1]);

      add_env (f, dirs[i][0], dir);
    }
  add_env (f, "NO_BROWSER", "1");

  /* what would leave the machine goes to the model server, which refuses */
  url = g_strdup_printf ("http://127.0.0.1:%u", f->model_port);
  add_env (f, "HTTPS_PROXY", url);
  add_env (f, "https_proxy", url);
  add_env (f, "HTTP_PROXY", url);
  add_env (f, "http_proxy", url);
  add_env (f, "NO_PROXY", "127.0.0.1,localhost");
  add_env (f, "no_proxy", "127.0.0.1,localhost");

  f->spec->configure (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  stop_server (&f->http_server);
  stop_server (&f->model_server);
  g_clear_object (&f->fs_service);
  g_clear_object (&f->terminal_service);

  g_free (f->tmpdir);
  g_free (f->home);
  g_free (f->project);
  g_free (f->request_log);
  g_clear_pointer (&f->env, g_ptr_array_unref);
  g_free (f->modules);
  g_free (f->node);
  g_free (f->everything);
}

static void
test_agent (Fixture       *f,
            gconstpointer  data)
{
  Agent first = { 0 };
  Agent second = { 0 };
  g_autoptr(AcpSession) session = NULL;
  g_autofree char *session_id = NULL;

  if (f->model_server == NULL)
    return;     /* skipped */

  /* --- one agent: a new session and its turns --- */
  start_agent (f, &first);
  if (f->spec->terminal_login != NULL)
    {
      AcpAuthMethod *login = acp_agent_get_auth_method (first.agent, f->spec->terminal_login);

      g_assert_nonnull (login);
      g_assert_cmpstr (acp_auth_method_get_kind (login), ==, "terminal");
      g_assert_nonnull (acp_auth_method_get_terminal_args (login)[0]);
      g_test_message ("sign-in in a terminal: %s, args %s ...", acp_auth_method_get_name (login),
                      acp_auth_method_get_terminal_args (login)[0]);
    }
  if (uses_http_server (first.agent))
    start_http_server (f);

  session = create_session (f, first.agent);
  session_id = g_strdup (acp_session_get_session_id (session));
  g_test_message ("session %s", session_id);

  remember_agent_processes (f);

  check_shell_turn (f, session);
  check_echo_turn (session, STDIO_PROMPT, "Echo: palaver-stdio-ok");
  if (uses_http_server (first.agent))
    check_echo_turn (session, HTTP_PROMPT, "Echo: palaver-http-ok");
  remember_agent_processes (f);

  close_session (session);
  g_clear_object (&session);
  stop_agent (f, &first);

  /* --- another: the session again --- */
  start_agent (f, &second);

  if (acp_agent_has_capability (second.agent, ACP_AGENT_CAP_LOAD_SESSION))
    {
      g_autoptr(AcpSession) loaded = acp_session_new (second.agent, f->project);
      g_autoptr(GPtrArray) servers = dup_mcp_servers (f, second.agent);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *user_text = NULL;
      g_autofree char *agent_text = NULL;
      g_autofree char *shown = NULL;
      AcpToolCallItem *shell_call;

      acp_session_load_async (loaded, session_id, servers, NULL, test_store_result_cb, &result);
      WAIT_UNTIL (result != NULL);

      if (!acp_session_load_finish (loaded, result, &error))
        {
          if (f->spec->history_lost == NULL ||
              !g_error_matches (error, ACP_ERROR, ACP_ERROR_INTERNAL_ERROR) ||
              strstr (error->message, f->spec->history_lost) == NULL)
            fail_with_stderr (second.agent, "session/load", error);
          g_test_message ("load failed the way it may for this agent: %s", error->message);
          g_assert_cmpint (acp_session_get_state (loaded), ==, ACP_SESSION_STATE_NEW);
        }
      else
        {
          g_assert_cmpint (acp_session_get_state (loaded), ==, ACP_SESSION_STATE_READY);
          set_service_roots (f, loaded);

          /* the replay: prompts, answers and tool calls of the turns above */
          acp_transcript_flush (acp_session_get_transcript (loaded));
          g_assert_cmpuint (acp_session_get_replay_count (loaded), >, 0);
          dump_transcript (loaded, 0);
          user_text = dup_text (loaded, ACP_MESSAGE_ROLE_USER, 0);
          agent_text = dup_text (loaded, ACP_MESSAGE_ROLE_AGENT, 0);
          if (f->spec->history_lost != NULL)
            g_test_message ("replayed %u updates; this agent may have kept any part",
                            acp_session_get_replay_count (loaded));
          else
            {
              g_assert_nonnull (strstr (user_text, SHELL_PROMPT));
              g_assert_nonnull (strstr (user_text, STDIO_PROMPT));
              g_assert_nonnull (strstr (agent_text, "palaver-shell-ok"));
              shell_call = find_tool_call (loaded, 0, "execute", NULL);
              g_assert_nonnull (shell_call);
              shown = dup_shown_output (shell_call);
              g_assert_nonnull (strstr (shown, "palaver-shell-ok"));
              g_assert_nonnull (find_tool_call (loaded, 0, NULL, "Echo: palaver-stdio-ok"));
            }

          close_session (loaded);
        }
    }

  if (acp_agent_has_capability (second.agent, ACP_AGENT_CAP_SESSION_RESUME))
    {
      g_autoptr(AcpSession) resumed = acp_session_new (second.agent, f->project);
      g_autoptr(GPtrArray) servers = dup_mcp_servers (f, second.agent);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      const char * const with_history[] = { RESUME_PROMPT, "palaver-shell-ok", NULL };
      guint first_item;

      acp_session_resume_async (resumed, session_id, servers, NULL, test_store_result_cb, &result);
      WAIT_UNTIL (result != NULL);
      if (!acp_session_resume_finish (resumed, result, &error))
        fail_with_stderr (second.agent, "session/resume", error);
      g_assert_cmpint (acp_session_get_state (resumed), ==, ACP_SESSION_STATE_READY);
      set_service_roots (f, resumed);

      first_item = run_turn (resumed, RESUME_PROMPT, NULL);
      text = dup_text (resumed, ACP_MESSAGE_ROLE_AGENT, first_item);
      g_assert_nonnull (strstr (text, "Canned answer to: " RESUME_PROMPT));
      /* the model got the earlier turns with the new prompt */
      g_assert_true (model_saw (f, with_history));

      close_session (resumed);
    }
  else
    {
      g_autoptr(AcpSession) resumed = acp_session_new (second.agent, f->project);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;

      /* not advertised: refused here, never sent */
      acp_session_resume_async (resumed, session_id, NULL, NULL, test_store_result_cb, &result);
      WAIT_UNTIL (result != NULL);
      g_assert_false (acp_session_resume_finish (resumed, result, &error));
      g_assert_error (error, ACP_ERROR, ACP_ERROR_NOT_SUPPORTED);
    }

  stop_agent (f, &second);
  check_offline (f);
}

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) names = g_listenv ();
  const char *prefixes[] = { "ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_",
                             NULL };

  g_test_init (&argc, &argv, NULL);
  test_set_guard_seconds (WAIT_SECONDS);

  /* none of the person's accounts, endpoints or settings reach the agents */
  for (guint i = 0; names[i] != NULL; i++)
    for (guint j = 0; prefixes[j] != NULL; j++)
      if (g_str_has_prefix (names[i], prefixes[j]))
        g_unsetenv (names[i]);

  /* so that what outlives an agent becomes ours to find */
  become_subreaper ();
  signal (SIGABRT, abort_handler);

  g_test_add ("/real-agents/claude", Fixture, &claude_spec,
              fixture_set_up, test_agent, fixture_tear_down);
  g_test_add ("/real-agents/codex", Fixture, &codex_spec,
              fixture_set_up, test_agent, fixture_tear_down);
  g_test_add ("/real-agents/gemini", Fixture, &gemini_spec,
              fixture_set_up, test_agent, fixture_tear_down);

  return g_test_run ();
}
