/* acp-terminal-service.c: the terminal/ requests of agents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One command is one Terminal, a reference-counted record owned by the
 * service's table and by the reads and the wait in flight. Everything runs
 * on the main context; the only blocking call is the spawn itself.
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "acp-json.h"
#include "acp-terminal-service.h"
#include "acp-process-group.h"
#include "acp-session-name-private.h"

#define READ_SIZE                 65536
#define DEFAULT_KILL_GRACE_MS     2000
/* after the process exited, how long its output may stay open (something it
 * started in the background holds it) before the command counts as exited */
#define DRAIN_TIMEOUT_MS          1000

struct _AcpTerminalService
{
  GObject     parent_instance;

  GHashTable *terminals;      /* id → Terminal */
  GPtrArray  *order;          /* Terminal, oldest first */
  GHashTable *session_cwds;   /* AcpSessionName → char * */
  /* AcpAgent * (an identity) → its group, from attaching until it exits or
   * is detached */
  GHashTable *groups;
  guint       next_id;
  guint       kill_grace_ms;
};

G_DEFINE_FINAL_TYPE (AcpTerminalService, acp_terminal_service, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KILL_GRACE_PERIOD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  TERMINAL_OUTPUT,
  TERMINAL_EXITED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* terminals {{{ */

typedef struct
{
  AcpTerminalService *service;     /* NULL once the service is gone */
  char               *id;
  char               *session_id;
  gconstpointer       agent;       /* identity only, never dereferenced */
  char               *group;       /* the agent's, nullable; outlives the agent */
  GPid                pid;         /* also the process group id */
  guint               child_watch_id;
  GInputStream       *stdout_pipe;
  GCancellable       *cancellable;

  GString            *output;
  gsize               start;       /* the kept output is output->str + start */
  gsize               limit;
  gboolean            truncated;
  guint8              partial[4];  /* an incomplete UTF-8 sequence at the end */
  gsize               n_partial;

  gboolean            process_exited;
  gboolean            stream_done;
  gboolean            exited;
  int                 exit_code;   /* -1 when a signal ended it */
  int                 term_sig;    /* 0 unless a signal ended it */

  GPtrArray          *waiters;     /* AcpIncomingRequest */
  guint               kill_timeout_id;
  guint               drain_timeout_id;
  gboolean            released;
} Terminal;

static void
terminal_clear (gpointer data)
{
  Terminal *term = data;

  g_clear_handle_id (&term->kill_timeout_id, g_source_remove);
  g_clear_handle_id (&term->drain_timeout_id, g_source_remove);
  g_clear_pointer (&term->id, g_free);
  g_clear_pointer (&term->session_id, g_free);
  g_clear_pointer (&term->group, g_free);
  g_clear_handle_id (&term->child_watch_id, g_source_remove);
  g_clear_object (&term->stdout_pipe);
  g_clear_object (&term->cancellable);
  if (term->output != NULL)
    g_string_free (g_steal_pointer (&term->output), TRUE);
  g_clear_pointer (&term->waiters, g_ptr_array_unref);
}

static Terminal *
terminal_ref (Terminal *term)
{
  return g_rc_box_acquire (term);
}

static void
terminal_unref (Terminal *term)
{
  g_rc_box_release_full (term, terminal_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Terminal, terminal_unref)

static const char *
signal_name (int signum)
{
  static const struct {
    int         signum;
    const char *name;
  } names[] = {
    { SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
    { SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
    { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
    { SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
    { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
    { SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" },
    { SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" }, { SIGTTOU, "SIGTTOU" },
    { SIGURG, "SIGURG" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
    { SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" }, { SIGWINCH, "SIGWINCH" },
    { SIGIO, "SIGIO" }, { SIGSYS, "SIGSYS" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].signum == signum)
      return names[i].name;

  return NULL;
}

/* {"exitCode": n | null, "signal": "SIGX" | null} */
static JsonObject *
exit_status_object (Terminal *term)
{
  JsonObject *object = json_object_new ();

  if (term->term_sig == 0)
    json_object_set_int_member (object, "exitCode", term->exit_code);
  else
    json_object_set_null_member (object, "exitCode");

  if (term->term_sig != 0)
    {
      const char *name = signal_name (term->term_sig);
      g_autofree char *number = NULL;

      if (name == NULL)
        name = number = g_strdup_printf ("SIG%d", term->term_sig);
      json_object_set_string_member (object, "signal", name);
    }
  else
    {
      json_object_set_null_member (object, "signal");
    }

  return object;
}

static void
reply_object (AcpIncomingRequest *request,
              JsonObject         *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  if (!acp_incoming_request_get_answered (request))
    acp_incoming_request_reply (request, node);
}

static void
answer_waiters (Terminal *term)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&term->waiters);

  term->waiters = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < waiters->len; i++)
    {
      g_autoptr(JsonObject) status = exit_status_object (term);

      reply_object (g_ptr_array_index (waiters, i), status);
    }
}

/* Appends text to the kept output and drops the oldest part beyond the
 * limit, at a character boundary. */
static void
append_text (Terminal   *term,
             const char *text,
             gsize       len)
{
  if (len == 0)
    return;

  g_string_append_len (term->output, text, len);

  if (term->output->len - term->start > term->limit)
    {
      gsize start = term->output->len - term->limit;

      while (start < term->output->len && ((guchar) term->output->str[start] & 0xC0) == 0x80)
        start++;
      term->start = start;
      term->truncated = TRUE;

      /* move the kept part down once the dropped part outgrows it */
      if (term->start > MAX (term->limit, (gsize) READ_SIZE))
        {
          g_string_erase (term->output, 0, term->start);
          term->start = 0;
        }
    }

  if (term->service != NULL)
    g_signal_emit (term->service, signals[TERMINAL_OUTPUT], 0, term->id, text);
}

/* How many bytes at the end of @data start a UTF-8 sequence that is not
 * complete yet (more bytes may follow in the next read). */
static gsize
incomplete_tail (const guint8 *data,
                 gsize         len)
{
  for (gsize i = 1; i <= MIN (len, (gsize) 3); i++)
    {
      guint8 c = data[len - i];
      gsize need;

      if ((c & 0xC0) == 0x80)
        continue;           /* a continuation byte: look further back */
      if (c >= 0xF0)
        need = 4;
      else if (c >= 0xE0)
        need = 3;
      else if (c >= 0xC0)
        need = 2;
      else
        return 0;

      return need > i ? i : 0;
    }

  return 0;
}

static void
feed_output (Terminal     *term,
             const guint8 *data,
             gsize         len,
             gboolean      at_end)
{
  g_autoptr(GByteArray) joined = NULL;
  g_autofree char *valid = NULL;
  gsize keep;

  if (term->n_partial > 0)
    {
      joined = g_byte_array_sized_new (term->n_partial + len);
      g_byte_array_append (joined, term->partial, term->n_partial);
      g_byte_array_append (joined, data, len);
      data = joined->data;
      len = joined->len;
      term->n_partial = 0;
    }

  keep = at_end ? 0 : incomplete_tail (data, len);
  memcpy (term->partial, data + len - keep, keep);
  term->n_partial = keep;

  if (len - keep == 0)
    return;

  /* invalid bytes (and NUL) become U+FFFD */
  valid = g_utf8_make_valid ((const char *) data, len - keep);
  append_text (term, valid, strlen (valid));
}

static void
finish_exit (Terminal *term)
{
  if (term->exited)
    return;

  term->exited = TRUE;
  g_clear_handle_id (&term->drain_timeout_id, g_source_remove);

  /* a character cut off by the end of the output */
  if (term->stream_done && term->n_partial > 0)
    feed_output (term, NULL, 0, TRUE);

  g_debug ("Terminal %s exited (code %d, signal %d)", term->id, term->exit_code, term->term_sig);
  answer_waiters (term);

  if (term->service != NULL)
    g_signal_emit (term->service, signals[TERMINAL_EXITED], 0, term->id);
}

static gboolean
drain_timeout_cb (gpointer data)
{
  Terminal *term = data;

  term->drain_timeout_id = 0;
  finish_exit (term);

  return G_SOURCE_REMOVE;
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Terminal) term = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Terminal %s: reading its output failed: %s", term->id, error->message);

      term->stream_done = TRUE;
      if (term->n_partial > 0)
        feed_output (term, NULL, 0, TRUE);
      if (term->process_exited)
        finish_exit (term);
      return;
    }

  feed_output (term, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), FALSE);

  g_input_stream_read_bytes_async (term->stdout_pipe, READ_SIZE, G_PRIORITY_DEFAULT,
                                   term->cancellable, read_cb, terminal_ref (term));
}

static void
child_watch_cb (GPid     pid,
                int      wait_status,
                gpointer user_data)
{
  Terminal *term = user_data;

  term->child_watch_id = 0;
  term->process_exited = TRUE;
  if (WIFSIGNALED (wait_status))
    {
      term->exit_code = -1;
      term->term_sig = WTERMSIG (wait_status);
    }
  else
    {
      term->exit_code = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
      term->term_sig = 0;
    }

  if (term->stream_done)
    finish_exit (term);
  else if (term->drain_timeout_id == 0)
    term->drain_timeout_id = g_timeout_add (DRAIN_TIMEOUT_MS, drain_timeout_cb, term);
}

static gboolean
group_alive (Terminal *term)
{
  /* the group outlives its leader while a background child holds the output */
  return term->pid > 0 && (!term->process_exited || !term->stream_done);
}

static void
signal_group (Terminal *term,
              int       signum)
{
  if (!group_alive (term))
    return;

  acp_process_group_signal (term->pid, signum);
}

static gboolean
kill_timeout_cb (gpointer data)
{
  Terminal *term = data;

  term->kill_timeout_id = 0;
  signal_group (term, SIGKILL);

  return G_SOURCE_REMOVE;
}

static void
terminal_kill (Terminal *term,
               guint     grace_ms)
{
  /* even after the exit, a background child may still hold the output */
  if (!group_alive (term))
    return;

  signal_group (term, SIGTERM);
  if (grace_ms == 0)
    signal_group (term, SIGKILL);
  else if (term->kill_timeout_id == 0)
    term->kill_timeout_id = g_timeout_add (grace_ms, kill_timeout_cb, term);
}

static void
terminal_release (AcpTerminalService *self,
                  Terminal           *term)
{
  if (term->released)
    return;

  g_debug ("Releasing terminal %s", term->id);
  term->released = TRUE;
  terminal_kill (term, self->kill_grace_ms);
}

/* }}} */

/* requests {{{ */

static void
reply_error (AcpIncomingRequest *request,
             int                 code,
             const char         *message)
{
  g_debug ("%s: %s", acp_incoming_request_get_method (request), message);
  if (!acp_incoming_request_get_answered (request))
    acp_incoming_request_reply_error_literal (request, code, message);
}

static void
reply_empty (AcpIncomingRequest *request)
{
  g_autoptr(JsonObject) object = json_object_new ();

  reply_object (request, object);
}

/* Whether a command without args is a shell line rather than a program. */
static gboolean
is_shell_line (const char *command)
{
  return strpbrk (command, " \t\n;&|<>()$`\\\"'*?[]{}~#=%!") != NULL;
}

static void
handle_create (AcpTerminalService *self,
               AcpAgent           *agent,
               const char         *session_id,
               JsonObject         *params,
               AcpIncomingRequest *request)
{
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  const char *command = acp_json_get_string (params, "command", NULL);
  const char *cwd = acp_json_get_string (params, "cwd", NULL);
  JsonArray *args = acp_json_get_array (params, "args");
  JsonArray *env = acp_json_get_array (params, "env");
  Terminal *term;
  gint64 limit = -1;
  guint n_args = 0;
  int pipe_fds[2];
  GPid pid;
  gboolean spawned;

  if (command == NULL || command[0] == '\0')
    {
      reply_error (request, ACP_ERROR_INVALID_PARAMS, _("The command is missing or empty"));
      return;
    }

  if (cwd != NULL && !g_path_is_absolute (cwd))
    {
      g_autofree char *message = g_strdup_printf (_("The working directory must be absolute: %s"), cwd);

      reply_error (request, ACP_ERROR_INVALID_PARAMS, message);
      return;
    }
  if (cwd == NULL)
    {
      AcpSessionName name = { agent, (char *) session_id };

      cwd = g_hash_table_lookup (self->session_cwds, &name);
    }
  if (cwd == NULL)
    {
      reply_error (request, ACP_ERROR_INVALID_PARAMS,
                   _("No working directory: the request has no cwd and the session has no folder"));
      return;
    }

  /* as the schema says: args that are not strings are skipped */
  g_ptr_array_add (argv, g_strdup (command));
  for (guint i = 0; args != NULL && i < json_array_get_length (args); i++)
    {
      JsonNode *node = json_array_get_element (args, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_ptr_array_add (argv, g_strdup (json_node_get_string (node)));
          n_args++;
        }
    }
  if (n_args == 0 && is_shell_line (command))
    {
      g_ptr_array_set_size (argv, 0);
      g_ptr_array_add (argv, g_strdup ("/bin/sh"));
      g_ptr_array_add (argv, g_strdup ("-c"));
      g_ptr_array_add (argv, g_strdup (command));
    }
  g_ptr_array_add (argv, NULL);

  envp = g_environ_setenv (envp, "PWD", cwd, TRUE);
  for (guint i = 0; env != NULL && i < json_array_get_length (env); i++)
    {
      JsonObject *entry = acp_json_array_get_object (env, i);
      const char *name = acp_json_get_string (entry, "name", NULL);
      const char *value = acp_json_get_string (entry, "value", NULL);

      if (name == NULL || name[0] == '\0' || strchr (name, '=') != NULL || value == NULL)
        {
          g_debug ("terminal/create: skipping a malformed env entry");
          continue;
        }
      envp = g_environ_setenv (envp, name, value, TRUE);
    }

  if (acp_json_get_int (params, "outputByteLimit", &limit) && limit >= 0)
    limit = MIN ((guint64) limit, (guint64) ACP_TERMINAL_SERVICE_MAX_OUTPUT_BYTE_LIMIT);
  else
    limit = ACP_TERMINAL_SERVICE_DEFAULT_OUTPUT_BYTE_LIMIT;

  /* Not GSubprocess: it reaps the child in a thread of its own, so its pid,
   * which is also the id of the process group, may be gone before it can be
   * read, and a background child of a quick command could then not be
   * killed. Here the pid stays ours until the child watch reaps it.
   * stdout and stderr share one pipe; stdin is /dev/null. */
  if (!g_unix_open_pipe (pipe_fds, FD_CLOEXEC, &error))
    {
      reply_error (request, ACP_ERROR_INTERNAL_ERROR, error->message);
      return;
    }
  spawned = g_spawn_async_with_pipes_and_fds (cwd, (const char * const *) argv->pdata,
                                              (const char * const *) envp,
                                              G_SPAWN_SEARCH_PATH_FROM_ENVP | G_SPAWN_DO_NOT_REAP_CHILD,
                                              /* a group of its own: kill() reaches
                                               * the whole command */
                                              acp_process_group_child_setup,
                                              GINT_TO_POINTER (getpid ()),
                                              -1, pipe_fds[1], pipe_fds[1],
                                              NULL, NULL, 0,
                                              &pid, NULL, NULL, NULL, &error);
  g_close (pipe_fds[1], NULL);
  if (!spawned)
    {
      g_autofree char *message = g_strdup_printf (_("Cannot run “%s”: %s"), command, error->message);

      g_close (pipe_fds[0], NULL);
      reply_error (request, ACP_ERROR_INTERNAL_ERROR, message);
      return;
    }

  term = g_rc_box_new0 (Terminal);
  term->service = self;
  term->id = g_strdup_printf ("terminal-%u", ++self->next_id);
  term->session_id = g_strdup (session_id);
  term->agent = agent;
  term->group = g_strdup (g_hash_table_lookup (self->groups, agent));
  term->pid = pid;
  term->stdout_pipe = g_unix_input_stream_new (pipe_fds[0], TRUE);
  term->cancellable = g_cancellable_new ();
  term->output = g_string_new (NULL);
  term->limit = limit;
  term->exit_code = -1;
  term->waiters = g_ptr_array_new_with_free_func (g_object_unref);

  g_hash_table_insert (self->terminals, term->id, term);
  g_ptr_array_add (self->order, term);
  g_debug ("Terminal %s: %s in %s", term->id, command, cwd);

  g_input_stream_read_bytes_async (term->stdout_pipe, READ_SIZE, G_PRIORITY_DEFAULT,
                                   term->cancellable, read_cb, terminal_ref (term));
  term->child_watch_id = g_child_watch_add_full (G_PRIORITY_DEFAULT, pid, child_watch_cb,
                                                 terminal_ref (term), (GDestroyNotify) terminal_unref);

  reply = json_object_new ();
  json_object_set_string_member (reply, "terminalId", term->id);
  reply_object (request, reply);
}

/* The terminal a request names, or NULL after replying with the error. */
static Terminal *
lookup_for_request (AcpTerminalService *self,
                    AcpAgent           *agent,
                    const char         *session_id,
                    JsonObject         *params,
                    AcpIncomingRequest *request)
{
  const char *terminal_id = acp_json_get_string (params, "terminalId", NULL);
  g_autofree char *message = NULL;
  Terminal *term;

  if (terminal_id == NULL)
    {
      reply_error (request, ACP_ERROR_INVALID_PARAMS, _("The terminalId is missing or not a string"));
      return NULL;
    }

  term = g_hash_table_lookup (self->terminals, terminal_id);
  if (term != NULL && !term->released && term->agent == agent &&
      g_strcmp0 (term->session_id, session_id) == 0)
    return term;

  message = g_strdup_printf (_("Unknown terminal: %s"), terminal_id);
  reply_error (request, ACP_ERROR_RESOURCE_NOT_FOUND, message);

  return NULL;
}

static void
waiter_cancelled_cb (GCancellable       *cancellable,
                     AcpIncomingRequest *request)
{
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                 _("The request was cancelled"));

  if (!acp_incoming_request_get_answered (request))
    acp_incoming_request_reply_error (request, error);
}

static void
handle_terminal_request (AcpTerminalService *self,
                         AcpAgent           *agent,
                         const char         *method,
                         const char         *session_id,
                         JsonObject         *params,
                         AcpIncomingRequest *request)
{
  Terminal *term = lookup_for_request (self, agent, session_id, params, request);

  if (term == NULL)
    return;

  if (g_str_equal (method, "terminal/output"))
    {
      g_autoptr(JsonObject) reply = json_object_new ();
      g_autofree char *output = g_strndup (term->output->str + term->start,
                                           term->output->len - term->start);

      json_object_set_string_member (reply, "output", output);
      json_object_set_boolean_member (reply, "truncated", term->truncated);
      if (term->exited)
        json_object_set_object_member (reply, "exitStatus", exit_status_object (term));
      reply_object (request, reply);
    }
  else if (g_str_equal (method, "terminal/wait_for_exit"))
    {
      if (term->exited)
        {
          g_autoptr(JsonObject) status = exit_status_object (term);

          reply_object (request, status);
          return;
        }

      /* answered by finish_exit(), or -32800 when the agent gives up */
      g_ptr_array_add (term->waiters, g_object_ref (request));
      g_signal_connect_object (acp_incoming_request_get_cancellable (request), "cancelled",
                               G_CALLBACK (waiter_cancelled_cb), request, 0);
    }
  else if (g_str_equal (method, "terminal/kill"))
    {
      terminal_kill (term, self->kill_grace_ms);
      reply_empty (request);
    }
  else if (g_str_equal (method, "terminal/release"))
    {
      terminal_release (self, term);
      reply_empty (request);
    }
  else
    {
      g_assert_not_reached ();
    }
}

static gboolean
agent_request_cb (AcpAgent           *agent,
                  const char         *session_id,
                  AcpIncomingRequest *request,
                  AcpTerminalService *self)
{
  const char *method = acp_incoming_request_get_method (request);
  JsonObject *params;

  if (!g_str_equal (method, "terminal/create") &&
      !g_str_equal (method, "terminal/output") &&
      !g_str_equal (method, "terminal/wait_for_exit") &&
      !g_str_equal (method, "terminal/kill") &&
      !g_str_equal (method, "terminal/release"))
    return FALSE;

  /* not advertised: not served (the agent gets -32601) */
  if (!(acp_agent_get_client_capabilities (agent) & ACP_CLIENT_CAP_TERMINAL))
    return FALSE;

  params = acp_incoming_request_get_params_object (request);
  if (params == NULL)
    reply_error (request, ACP_ERROR_INVALID_PARAMS, _("The params must be an object"));
  else if (session_id == NULL)
    reply_error (request, ACP_ERROR_INVALID_PARAMS, _("The sessionId is missing or not a string"));
  else if (g_str_equal (method, "terminal/create"))
    handle_create (self, agent, session_id, params, request);
  else
    handle_terminal_request (self, agent, method, session_id, params, request);

  return TRUE;
}

static void
release_matching (AcpTerminalService *self,
                  gconstpointer       agent,
                  const char         *session_id)
{
  for (guint i = 0; i < self->order->len; i++)
    {
      Terminal *term = g_ptr_array_index (self->order, i);

      if ((agent == NULL || term->agent == agent) &&
          (session_id == NULL || g_str_equal (term->session_id, session_id)))
        terminal_release (self, term);
    }
}

/* Whether @term is of the session: @agent's, or (when @agent is NULL)
 * that of any agent of @group. */
static gboolean
terminal_is_of (Terminal      *term,
                gconstpointer  agent,
                const char    *group,
                const char    *session_id)
{
  if (!g_str_equal (term->session_id, session_id))
    return FALSE;

  return agent != NULL ? term->agent == agent : g_strcmp0 (term->group, group) == 0;
}

/* Releases the terminals of the session and drops them, output and all. */
static void
forget_matching (AcpTerminalService *self,
                 gconstpointer       agent,
                 const char         *group,
                 const char         *session_id)
{
  for (guint i = 0; i < self->order->len; i++)
    {
      Terminal *term = g_ptr_array_index (self->order, i);

      if (terminal_is_of (term, agent, group, session_id))
        terminal_release (self, term);
    }

  for (guint i = self->order->len; i > 0; i--)
    {
      Terminal *term = g_ptr_array_index (self->order, i - 1);

      if (!terminal_is_of (term, agent, group, session_id))
        continue;

      /* the command may still be dying: it needs no service for that */
      term->service = NULL;
      g_hash_table_remove (self->terminals, term->id);
      g_ptr_array_remove_index (self->order, i - 1);
    }
}

static void
agent_exited_cb (AcpAgent           *agent,
                 AcpTerminalService *self)
{
  release_matching (self, agent, NULL);
  /* it makes no more terminals; its address may serve another agent */
  g_hash_table_remove (self->groups, agent);
}

/* }}} */

/* GObject {{{ */

static void
acp_terminal_service_dispose (GObject *object)
{
  AcpTerminalService *self = ACP_TERMINAL_SERVICE (object);

  /* nobody is left to release them: end every command now */
  for (guint i = 0; i < self->order->len; i++)
    {
      Terminal *term = g_ptr_array_index (self->order, i);

      term->released = TRUE;
      signal_group (term, SIGKILL);
      term->service = NULL;
      g_clear_handle_id (&term->kill_timeout_id, g_source_remove);
      g_clear_handle_id (&term->drain_timeout_id, g_source_remove);
      g_cancellable_cancel (term->cancellable);
    }
  g_hash_table_remove_all (self->terminals);
  g_ptr_array_set_size (self->order, 0);

  G_OBJECT_CLASS (acp_terminal_service_parent_class)->dispose (object);
}

static void
acp_terminal_service_finalize (GObject *object)
{
  AcpTerminalService *self = ACP_TERMINAL_SERVICE (object);

  g_clear_pointer (&self->terminals, g_hash_table_unref);
  g_clear_pointer (&self->order, g_ptr_array_unref);
  g_clear_pointer (&self->session_cwds, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_hash_table_unref);

  G_OBJECT_CLASS (acp_terminal_service_parent_class)->finalize (object);
}

static void
acp_terminal_service_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AcpTerminalService *self = ACP_TERMINAL_SERVICE (object);

  switch (prop_id)
    {
    case PROP_KILL_GRACE_PERIOD:
      g_value_set_uint (value, self->kill_grace_ms);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_terminal_service_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AcpTerminalService *self = ACP_TERMINAL_SERVICE (object);

  switch (prop_id)
    {
    case PROP_KILL_GRACE_PERIOD:
      acp_terminal_service_set_kill_grace_period (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_terminal_service_class_init (AcpTerminalServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = acp_terminal_service_dispose;
  object_class->finalize = acp_terminal_service_finalize;
  object_class->get_property = acp_terminal_service_get_property;
  object_class->set_property = acp_terminal_service_set_property;

  properties[PROP_KILL_GRACE_PERIOD] =
    g_param_spec_uint ("kill-grace-period", NULL, NULL,
                       0, G_MAXUINT, DEFAULT_KILL_GRACE_MS,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AcpTerminalService::terminal-output:
   * @self: the service
   * @terminal_id: the terminal
   * @text: the text appended to its output (valid UTF-8)
   */
  signals[TERMINAL_OUTPUT] =
    g_signal_new ("terminal-output",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AcpTerminalService::terminal-exited:
   * @self: the service
   * @terminal_id: the terminal whose command has exited
   */
  signals[TERMINAL_EXITED] =
    g_signal_new ("terminal-exited",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
acp_terminal_service_init (AcpTerminalService *self)
{
  self->terminals = g_hash_table_new (g_str_hash, g_str_equal);
  self->order = g_ptr_array_new_with_free_func ((GDestroyNotify) terminal_unref);
  self->session_cwds = g_hash_table_new_full (_acp_session_name_hash, _acp_session_name_equal,
                                              _acp_session_name_free, g_free);
  self->groups = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->kill_grace_ms = DEFAULT_KILL_GRACE_MS;
}

/* }}} */

/* public API {{{ */

/**
 * acp_terminal_service_new:
 *
 * Returns: (transfer full): a new service, attached to no agent
 */
AcpTerminalService *
acp_terminal_service_new (void)
{
  return g_object_new (ACP_TYPE_TERMINAL_SERVICE, NULL);
}

/**
 * acp_terminal_service_attach:
 * @self: a #AcpTerminalService
 * @agent: an agent
 *
 * Answers the terminal/ requests of @agent (when its client capabilities
 * include ACP_CLIENT_CAP_TERMINAL) and releases its terminals when it exits.
 */
void
acp_terminal_service_attach (AcpTerminalService *self,
                             AcpAgent           *agent)
{
  acp_terminal_service_attach_in_group (self, agent, NULL);
}

/**
 * acp_terminal_service_attach_in_group:
 * @self: a #AcpTerminalService
 * @agent: an agent
 * @group: (nullable): what @agent is one process of, in the application's
 *   terms (an agent profile, say)
 *
 * As acp_terminal_service_attach(); the terminals @agent creates keep
 * @group, so that acp_terminal_service_forget_group_session() finds them
 * after the agent is gone. Attaching again changes the group.
 */
void
acp_terminal_service_attach_in_group (AcpTerminalService *self,
                                      AcpAgent           *agent,
                                      const char         *group)
{
  g_return_if_fail (ACP_IS_TERMINAL_SERVICE (self));
  g_return_if_fail (ACP_IS_AGENT (agent));

  if (group != NULL)
    g_hash_table_replace (self->groups, agent, g_strdup (group));
  else
    g_hash_table_remove (self->groups, agent);

  if (g_signal_handler_find (agent, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA,
                             0, 0, NULL, agent_request_cb, self) != 0)
    return;

  g_signal_connect_object (agent, "request", G_CALLBACK (agent_request_cb), self, 0);
  g_signal_connect_object (agent, "exited", G_CALLBACK (agent_exited_cb), self, 0);
}

/**
 * acp_terminal_service_detach:
 * @self: a #AcpTerminalService
 * @agent: an agent
 *
 * Stops answering @agent and releases its terminals.
 */
void
acp_terminal_service_detach (AcpTerminalService *self,
                             AcpAgent           *agent)
{
  g_return_if_fail (ACP_IS_TERMINAL_SERVICE (self));
  g_return_if_fail (ACP_IS_AGENT (agent));

  g_signal_handlers_disconnect_by_func (agent, agent_request_cb, self);
  g_signal_handlers_disconnect_by_func (agent, agent_exited_cb, self);
  g_hash_table_remove (self->groups, agent);
  release_matching (self, agent, NULL);
}

/**
 * acp_terminal_service_set_session_cwd:
 * @self: a #AcpTerminalService
 * @agent: the agent of the session (an identity: it is not kept)
 * @session_id: the agent's session id
 * @cwd: (nullable): an absolute folder, or %NULL to forget it
 */
void
acp_terminal_service_set_session_cwd (AcpTerminalService *self,
                                      AcpAgent           *agent,
                                      const char         *session_id,
                                      const char         *cwd)
{
  AcpSessionName name = { agent, (char *) session_id };

  g_return_if_fail (ACP_IS_TERMINAL_SERVICE (self));
  g_return_if_fail (ACP_IS_AGENT (agent));
  g_return_if_fail (session_id != NULL);

  if (cwd != NULL && !g_path_is_absolute (cwd))
    {
      g_debug ("Ignoring the relative folder %s of session %s", cwd, session_id);
      cwd = NULL;
    }

  if (cwd == NULL)
    g_hash_table_remove (self->session_cwds, &name);
  else
    g_hash_table_replace (self->session_cwds, _acp_session_name_new (agent, session_id),
                          g_strdup (cwd));
}

/**
 * acp_terminal_service_release_session:
 * @self: a #AcpTerminalService
 * @agent: the agent of the session (an identity: it may have exited)
 * @session_id: the agent's session id
 *
 * Kills and releases every terminal of the session. Their output stays
 * available to acp_terminal_service_dup_output().
 */
void
acp_terminal_service_release_session (AcpTerminalService *self,
                                      AcpAgent           *agent,
                                      const char         *session_id)
{
  g_return_if_fail (ACP_IS_TERMINAL_SERVICE (self));
  g_return_if_fail (agent != NULL);
  g_return_if_fail (session_id != NULL);

  release_matching (self, agent, session_id);
}

/**
 * acp_terminal_service_forget_session:
 * @self: a #AcpTerminalService
 * @agent: the agent of the session (an identity: it may have exited)
 * @session_id: the agent's session id
 *
 * Releases every terminal of the session, drops their output and forgets
 * the session's folder.
 */
void
acp_terminal_service_forget_session (AcpTerminalService *self,
                                     AcpAgent           *agent,
                                     const char         *session_id)
{
  AcpSessionName name = { agent, (char *) session_id };

  g_return_if_fail (ACP_IS_TERMINAL_SERVICE (self));
  g_return_if_fail (agent != NULL);
  g_return_if_fail (session_id != NULL);

  forget_matching (self, agent, NULL, session_id);
  g_hash_table_remove (self->session_cwds, &name);
}

/**
 * acp_terminal_service_forget_group_session:
 * @self: a #AcpTerminalService
 * @group: a group of acp_terminal_service_attach_in_group()
 * @session_id: a session id
 *
 * As acp_terminal_service_forget_session() for the session of that id of
 * every agent of @group, those gone included: the terminals of a session
 * that ran on several processes of one agent profile (one crashed, another
 * took over) all go.
 */
void
acp_terminal_service_forget_group_session (AcpTerminalService *self,
                                           const char         *group,
                                           const char         *session_id)
{
  GHashTableIter iter;
  AcpSessionName *name;

  g_return_if_fail (ACP_IS_TERMINAL_SERVICE (self));
  g_return_if_fail (group != NULL);
  g_return_if_fail (session_id != NULL);

  forget_matching (self, NULL, group, session_id);

  g_hash_table_iter_init (&iter, self->session_cwds);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    if (g_str_equal (name->session_id, session_id) &&
        g_strcmp0 (g_hash_table_lookup (self->groups, name->agent), group) == 0)
      g_hash_table_iter_remove (&iter);
}

/**
 * acp_terminal_service_dup_output:
 * @self: a #AcpTerminalService
 * @terminal_id: a terminal id
 * @truncated: (out) (optional): whether older output was dropped
 * @exit_status: (out) (optional): -1 while running, else the exit code, or
 *   128 + the number of the signal that ended it
 *
 * Returns: (transfer full) (nullable): the kept output, or %NULL when the
 *   service has no such terminal (any more)
 */
char *
acp_terminal_service_dup_output (AcpTerminalService *self,
                                 const char         *terminal_id,
                                 gboolean           *truncated,
                                 int                *exit_status)
{
  Terminal *term;

  g_return_val_if_fail (ACP_IS_TERMINAL_SERVICE (self), NULL);
  g_return_val_if_fail (terminal_id != NULL, NULL);

  term = g_hash_table_lookup (self->terminals, terminal_id);
  if (term == NULL)
    {
      if (truncated != NULL)
        *truncated = FALSE;
      if (exit_status != NULL)
        *exit_status = -1;
      return NULL;
    }

  if (truncated != NULL)
    *truncated = term->truncated;
  if (exit_status != NULL)
    {
      if (!term->exited)
        *exit_status = -1;
      else if (term->term_sig != 0)
        *exit_status = 128 + term->term_sig;
      else
        *exit_status = term->exit_code;
    }

  return g_strndup (term->output->str + term->start, term->output->len - term->start);
}

/**
 * acp_terminal_service_dup_terminal_ids:
 * @self: a #AcpTerminalService
 * @agent: the agent of the session
 * @session_id: the agent's session id
 *
 * Returns: (transfer full): the ids of the session's terminals that are not
 *   released, oldest first
 */
char **
acp_terminal_service_dup_terminal_ids (AcpTerminalService *self,
                                       AcpAgent           *agent,
                                       const char         *session_id)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (ACP_IS_TERMINAL_SERVICE (self), NULL);
  g_return_val_if_fail (agent != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  for (guint i = 0; i < self->order->len; i++)
    {
      Terminal *term = g_ptr_array_index (self->order, i);

      if (!term->released && term->agent == (gconstpointer) agent &&
          g_str_equal (term->session_id, session_id))
        g_strv_builder_add (builder, term->id);
    }

  return g_strv_builder_end (builder);
}

guint
acp_terminal_service_get_kill_grace_period (AcpTerminalService *self)
{
  g_return_val_if_fail (ACP_IS_TERMINAL_SERVICE (self), 0);

  return self->kill_grace_ms;
}

/**
 * acp_terminal_service_set_kill_grace_period:
 * @self: a #AcpTerminalService
 * @grace_ms: how long a killed command has between SIGTERM and SIGKILL; 0
 *   sends both at once
 */
void
acp_terminal_service_set_kill_grace_period (AcpTerminalService *self,
                                            guint               grace_ms)
{
  g_return_if_fail (ACP_IS_TERMINAL_SERVICE (self));

  if (self->kill_grace_ms == grace_ms)
    return;

  self->kill_grace_ms = grace_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KILL_GRACE_PERIOD]);
}

/* }}} */
