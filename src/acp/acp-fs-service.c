/* acp-fs-service.c: the fs/ requests of agents, confined to their folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One request is one FsOp, a reference-counted record that travels through
 * up to two worker-thread steps:
 *
 *   params checked (main) → resolve (thread: canonical path and folders)
 *     → inside a folder, or allowed through "access-request" (main)
 *     → read or write (thread) → reply (main)
 *
 * Every file system call happens in a worker thread. The worker steps run as
 * GTasks with the cancellable of the incoming request, so a $/cancel_request
 * or a closed connection ends them with -32800.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "acp-fs-access-request-private.h"
#include "acp-fs-service.h"
#include "acp-json.h"
#include "acp-session-name-private.h"

/* like the kernel's limit on symbolic links followed in one lookup */
#define MAX_SYMLINKS 40
#define READ_CHUNK   (64 * 1024)

struct _AcpFsService
{
  GObject     parent_instance;

  GHashTable *roots;          /* AcpSessionName → char ** */
  guint64     max_file_size;
};

G_DEFINE_FINAL_TYPE (AcpFsService, acp_fs_service, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MAX_FILE_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  ACCESS_REQUEST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* the operation {{{ */

typedef struct
{
  AcpFsService       *self;
  AcpIncomingRequest *request;
  GCancellable       *cancellable;
  gulong              cancelled_id;
  gboolean            write;
  GWeakRef            agent;       /* for the access request */
  char               *session_id;
  char               *path;        /* as sent */
  char              **roots;       /* as set, copied */
  gint64              line;        /* 1-based */
  gint64              limit;       /* -1: no limit */
  char               *content;     /* for writes */
  guint64             max_file_size;

  /* set by the resolve step */
  char               *canonical;
  char               *root;        /* canonical folder containing it, or NULL */
} FsOp;

static void
fs_op_clear (gpointer data)
{
  FsOp *op = data;

  g_clear_object (&op->self);
  g_clear_object (&op->request);
  g_clear_object (&op->cancellable);
  /* the last reference may go in a worker thread: a weak one, so that the
   * agent is never finalized there */
  g_weak_ref_clear (&op->agent);
  g_clear_pointer (&op->session_id, g_free);
  g_clear_pointer (&op->path, g_free);
  g_clear_pointer (&op->roots, g_strfreev);
  g_clear_pointer (&op->content, g_free);
  g_clear_pointer (&op->canonical, g_free);
  g_clear_pointer (&op->root, g_free);
}

static FsOp *
fs_op_ref (FsOp *op)
{
  return g_atomic_rc_box_acquire (op);
}

static void
fs_op_unref (FsOp *op)
{
  g_atomic_rc_box_release_full (op, fs_op_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsOp, fs_op_unref)

static void
fs_op_closure_notify (gpointer  data,
                      GClosure *closure)
{
  fs_op_unref (data);
}

/* An error object for the wire: code, message and {"path": path}. */
static GError *
new_wire_error (int         code,
                const char *path,
                const char *message)
{
  g_autoptr(JsonNode) data = NULL;

  if (path != NULL)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "path", path);
      data = json_node_init_object (json_node_alloc (), object);
    }

  /* acp_error_new_remote() is the way to carry a code and data that the
   * connection sends as they are */
  return acp_error_new_remote (code, message, data);
}

static void
fs_op_reply_error (FsOp         *op,
                   const GError *error)
{
  if (acp_incoming_request_get_answered (op->request))
    return;

  g_debug ("%s %s: %s", acp_incoming_request_get_method (op->request),
           op->path, error->message);
  acp_incoming_request_reply_error (op->request, error);
}

static void
fs_op_reply (FsOp     *op,
             JsonNode *result)
{
  if (acp_incoming_request_get_answered (op->request))
    return;

  acp_incoming_request_reply (op->request, result);
}

/* }}} */

/* paths {{{ */

/* Removes the last component of an absolute canonical path ("/" stays). */
static void
path_pop (GString *path)
{
  const char *slash = strrchr (path->str, '/');

  if (slash == NULL || slash == path->str)
    g_string_truncate (path, 1);
  else
    g_string_truncate (path, slash - path->str);
}

static void
path_push (GString    *path,
           const char *component)
{
  if (path->len > 1)
    g_string_append_c (path, '/');
  g_string_append (path, component);
}

/* Pushes the components of @path in front of the queue, in order. */
static void
queue_prepend_components (GQueue     *queue,
                          const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = g_strv_length (parts); i > 0; i--)
    {
      if (parts[i - 1][0] == '\0' || g_str_equal (parts[i - 1], "."))
        continue;
      g_queue_push_head (queue, g_strdup (parts[i - 1]));
    }
}

/*
 * canonicalize:
 * @path: an absolute path
 *
 * Like realpath(), but the part of the path that does not exist (yet) is
 * kept, with "." and ".." applied to it as text. Every component that exists
 * is looked at with lstat(); symbolic links are followed (relative targets
 * from the link's folder). Blocking: worker threads only.
 */
static char *
canonicalize (const char  *path,
              GError     **error)
{
  g_autoptr(GString) resolved = g_string_new ("/");
  GQueue queue = G_QUEUE_INIT;
  guint missing_depth = 0;   /* components appended below one that is missing */
  guint links = 0;
  char *component;

  g_assert (g_path_is_absolute (path));

  queue_prepend_components (&queue, path);

  while ((component = g_queue_pop_head (&queue)) != NULL)
    {
      g_autofree char *owned = component;
      g_autofree char *candidate = NULL;
      struct stat st;

      if (g_str_equal (component, ".."))
        {
          path_pop (resolved);
          if (missing_depth > 0)
            missing_depth--;
          continue;
        }

      candidate = resolved->len > 1
        ? g_strconcat (resolved->str, "/", component, NULL)
        : g_strconcat ("/", component, NULL);

      if (missing_depth > 0)
        {
          path_push (resolved, component);
          missing_depth++;
          continue;
        }

      if (lstat (candidate, &st) != 0)
        {
          /* does not exist (or cannot be looked at): the rest is text; the
           * read or write that follows reports the real error */
          path_push (resolved, component);
          missing_depth = 1;
          continue;
        }

      if (S_ISLNK (st.st_mode))
        {
          g_autofree char *target = NULL;
          g_autoptr(GError) local_error = NULL;

          if (++links > MAX_SYMLINKS)
            {
              g_queue_clear_full (&queue, g_free);
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS,
                           _("Too many levels of symbolic links in %s"), path);
              return NULL;
            }

          target = g_file_read_link (candidate, &local_error);
          if (target == NULL || target[0] == '\0')
            {
              /* vanished or unreadable: treat as missing */
              path_push (resolved, component);
              missing_depth = 1;
              continue;
            }

          if (g_path_is_absolute (target))
            g_string_assign (resolved, "/");
          queue_prepend_components (&queue, target);
          continue;
        }

      path_push (resolved, component);
    }

  return g_string_free (g_steal_pointer (&resolved), FALSE);
}

static gboolean
path_is_inside (const char *path,
                const char *root)
{
  gsize len = strlen (root);

  if (g_str_equal (root, "/"))
    return TRUE;

  return strncmp (path, root, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

/* }}} */

/* resolving {{{ */

static void
resolve_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  FsOp *op = task_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *canonical = NULL;

  canonical = canonicalize (op->path, &error);
  if (canonical == NULL)
    {
      g_task_return_error (task, new_wire_error (ACP_ERROR_INVALID_PARAMS, op->path,
                                                 error->message));
      return;
    }

  for (guint i = 0; op->roots != NULL && op->roots[i] != NULL; i++)
    {
      g_autofree char *root = canonicalize (op->roots[i], NULL);

      if (root != NULL && path_is_inside (canonical, root))
        {
          op->root = g_steal_pointer (&root);
          break;
        }
    }

  op->canonical = g_steal_pointer (&canonical);
  g_task_return_boolean (task, TRUE);
}

static void run_io (FsOp *op);

static void
access_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  FsOp *op = user_data;
  g_autoptr(GError) error = NULL;

  /* the agent stopped waiting for the person */
  g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The request was cancelled"));
  fs_op_reply_error (op, error);
}

static void
access_answered (gboolean allowed,
                 gpointer user_data)
{
  g_autoptr(FsOp) op = user_data;

  /* not g_cancellable_disconnect(): that deadlocks when the application
   * answers from its own "cancelled" handler */
  g_clear_signal_handler (&op->cancelled_id, op->cancellable);

  if (acp_incoming_request_get_answered (op->request))
    return;

  if (allowed)
    {
      g_debug ("Access to %s outside the session folders was allowed", op->canonical);
      run_io (op);
    }
  else
    {
      g_autofree char *message = NULL;
      g_autoptr(GError) error = NULL;

      if (op->write)
        message = g_strdup_printf (_("Writing %s is not allowed: it is outside the session's folders"),
                                   op->canonical);
      else
        message = g_strdup_printf (_("Reading %s is not allowed: it is outside the session's folders"),
                                   op->canonical);
      error = new_wire_error (ACP_ERROR_INVALID_PARAMS, op->canonical, message);
      fs_op_reply_error (op, error);
    }
}

static void
resolve_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(FsOp) op = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpFsAccessRequest) access = NULL;
  g_autoptr(AcpAgent) agent = NULL;
  gboolean handled = FALSE;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      fs_op_reply_error (op, error);
      return;
    }

  if (op->root != NULL)
    {
      run_io (op);
      return;
    }

  /* the agent is gone: nobody waits for an answer */
  agent = g_weak_ref_get (&op->agent);
  if (agent == NULL)
    {
      access_cancelled_cb (op->cancellable, op);
      return;
    }

  /* outside every folder: the application decides; the answer function
   * owns a reference and is called exactly once */
  access = _acp_fs_access_request_new (agent, op->session_id, op->path, op->canonical, op->write,
                                       op->cancellable, access_answered, fs_op_ref (op));
  if (g_cancellable_is_cancelled (op->cancellable))
    access_cancelled_cb (op->cancellable, op);
  else
    op->cancelled_id = g_signal_connect_data (op->cancellable, "cancelled",
                                              G_CALLBACK (access_cancelled_cb),
                                              fs_op_ref (op), fs_op_closure_notify, 0);

  g_signal_emit (op->self, signals[ACCESS_REQUEST], 0,
                 op->session_id, op->canonical, op->write, access, &handled);

  if (!handled)
    acp_fs_access_request_deny (access);
}

static void
start_op (FsOp *op)
{
  g_autoptr(GTask) task = g_task_new (op->self, op->cancellable, resolve_done_cb, fs_op_ref (op));

  g_task_set_source_tag (task, start_op);
  g_task_set_task_data (task, fs_op_ref (op), (GDestroyNotify) fs_op_unref);
  g_task_run_in_thread (task, resolve_thread);
}

/* }}} */

/* reading and writing {{{ */

/* A G_IO_ERROR (or errno) of the file system, as the agent gets it. */
static GError *
wire_error_from_io (const GError *error,
                    const char   *path,
                    gboolean      write)
{
  g_autofree char *message = NULL;
  int code = ACP_ERROR_INVALID_PARAMS;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);

  if (error->domain != G_IO_ERROR)
    return new_wire_error (ACP_ERROR_INTERNAL_ERROR, path, error->message);

  switch (error->code)
    {
    case G_IO_ERROR_NOT_FOUND:
      code = ACP_ERROR_RESOURCE_NOT_FOUND;
      if (write)
        message = g_strdup_printf (_("Cannot write %s: its folder does not exist"), path);
      else
        message = g_strdup_printf (_("File not found: %s"), path);
      break;

    case G_IO_ERROR_IS_DIRECTORY:
      message = g_strdup_printf (_("%s is a folder, not a file"), path);
      break;

    case G_IO_ERROR_NOT_DIRECTORY:
      code = write ? ACP_ERROR_INVALID_PARAMS : ACP_ERROR_RESOURCE_NOT_FOUND;
      message = g_strdup_printf (_("%s: a part of the path is a file, not a folder"), path);
      break;

    case G_IO_ERROR_PERMISSION_DENIED:
      if (write)
        message = g_strdup_printf (_("Permission denied: cannot write %s"), path);
      else
        message = g_strdup_printf (_("Permission denied: cannot read %s"), path);
      break;

    case G_IO_ERROR_TOO_MANY_LINKS:
      message = g_strdup_printf (_("%s: too many levels of symbolic links"), path);
      break;

    default:
      code = ACP_ERROR_INTERNAL_ERROR;
      if (write)
        message = g_strdup_printf (_("Cannot write %s: %s"), path, error->message);
      else
        message = g_strdup_printf (_("Cannot read %s: %s"), path, error->message);
      break;
    }

  return new_wire_error (code, path, message);
}

static GError *
wire_error_from_errno (int         saved_errno,
                       const char *path,
                       gboolean    write)
{
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, g_io_error_from_errno (saved_errno),
                                                 g_strerror (saved_errno));

  return wire_error_from_io (error, path, write);
}

/* The byte range of @limit lines from line @line (1-based) on; line
 * endings belong to their line. */
static void
select_lines (const char *data,
              gsize       len,
              gint64      line,
              gint64      limit,
              gsize      *out_start,
              gsize      *out_len)
{
  const char *end = data + len;
  const char *start = data;
  const char *stop;

  for (gint64 i = 1; i < line && start < end; i++)
    {
      const char *nl = memchr (start, '\n', end - start);

      start = nl != NULL ? nl + 1 : end;
    }

  stop = start;
  if (limit < 0)
    stop = end;
  else
    for (gint64 i = 0; i < limit && stop < end; i++)
      {
        const char *nl = memchr (stop, '\n', end - stop);

        stop = nl != NULL ? nl + 1 : end;
      }

  *out_start = start - data;
  *out_len = stop - start;
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  FsOp *op = task_data;
  const char *path = op->canonical;
  g_autoptr(GByteArray) bytes = NULL;
  g_autofree char *size_text = NULL;
  g_autofree char *cap_text = NULL;
  struct stat st;
  gsize start, len;
  int fd;

  /* O_NONBLOCK: opening a FIFO must not hang; O_NOFOLLOW: a link put there
   * since the path was resolved is not followed */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW, 0);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_task_return_error (task, wire_error_from_errno (saved_errno, path, FALSE));
      return;
    }

  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      g_close (fd, NULL);
      g_task_return_error (task, wire_error_from_errno (saved_errno, path, FALSE));
      return;
    }

  if (S_ISDIR (st.st_mode))
    {
      g_close (fd, NULL);
      g_task_return_error (task, wire_error_from_errno (EISDIR, path, FALSE));
      return;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_autofree char *message = g_strdup_printf (_("%s is not a regular file"), path);

      g_close (fd, NULL);
      g_task_return_error (task, new_wire_error (ACP_ERROR_INVALID_PARAMS, path, message));
      return;
    }

  bytes = g_byte_array_sized_new (MIN ((guint64) st.st_size, op->max_file_size) + 1);
  for (;;)
    {
      guint8 buf[READ_CHUNK];
      gssize n;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      if ((guint64) bytes->len > op->max_file_size)
        break;

      n = read (fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_close (fd, NULL);
          g_task_return_error (task, wire_error_from_errno (saved_errno, path, FALSE));
          return;
        }
      if (n == 0)
        break;

      g_byte_array_append (bytes, buf, n);
    }
  g_close (fd, NULL);

  if (g_task_return_error_if_cancelled (task))
    return;

  if ((guint64) bytes->len > op->max_file_size)
    {
      g_autofree char *message = NULL;

      size_text = g_format_size (MAX ((guint64) st.st_size, (guint64) bytes->len));
      cap_text = g_format_size (op->max_file_size);
      message = g_strdup_printf (_("%s is too large to read (%s; the limit is %s)"),
                                 path, size_text, cap_text);
      g_task_return_error (task, new_wire_error (ACP_ERROR_INVALID_PARAMS, path, message));
      return;
    }

  select_lines ((const char *) bytes->data, bytes->len, op->line, op->limit, &start, &len);

  /* g_utf8_validate_len() also refuses NUL bytes, which no text file has */
  if (!g_utf8_validate_len ((const char *) bytes->data + start, len, NULL))
    {
      g_autofree char *message = g_strdup_printf (_("%s is not a UTF-8 text file"), path);

      g_task_return_error (task, new_wire_error (ACP_ERROR_INVALID_PARAMS, path, message));
      return;
    }

  g_task_return_pointer (task, g_strndup ((const char *) bytes->data + start, len), g_free);
}

static void
write_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  FsOp *op = task_data;
  const char *path = op->canonical;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  /* Missing folders are made only strictly inside a session folder (never
   * for a path the person allowed outside them). Below the resolved part no
   * component exists, so no link can lead the new folders elsewhere. */
  if (op->root != NULL && path_is_inside (path, op->root) && !g_str_equal (path, op->root))
    {
      g_autofree char *parent = g_path_get_dirname (path);

      if (g_mkdir_with_parents (parent, 0777) != 0)
        {
          int saved_errno = errno;

          g_task_return_error (task, wire_error_from_errno (saved_errno, path, TRUE));
          return;
        }
    }

  /* no backup; without REPLACE_DESTINATION the new contents go to a
   * temporary file that gets the old file's mode and owner, and is then
   * renamed over it */
  if (!g_file_replace_contents (file, op->content, strlen (op->content), NULL, FALSE,
                                G_FILE_CREATE_NONE, NULL, cancellable, &error))
    {
      g_task_return_error (task, wire_error_from_io (error, path, TRUE));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
io_done_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(FsOp) op = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  if (op->write)
    {
      if (!g_task_propagate_boolean (G_TASK (result), &error))
        {
          fs_op_reply_error (op, error);
          return;
        }
    }
  else
    {
      g_autofree char *content = g_task_propagate_pointer (G_TASK (result), &error);

      if (content == NULL)
        {
          fs_op_reply_error (op, error);
          return;
        }
      json_object_set_string_member (reply, "content", content);
    }

  node = json_node_init_object (json_node_alloc (), reply);
  fs_op_reply (op, node);
}

static void
run_io (FsOp *op)
{
  g_autoptr(GTask) task = g_task_new (op->self, op->cancellable, io_done_cb, fs_op_ref (op));

  g_task_set_source_tag (task, run_io);
  g_task_set_task_data (task, fs_op_ref (op), (GDestroyNotify) fs_op_unref);
  g_task_run_in_thread (task, op->write ? write_thread : read_thread);
}

/* }}} */

/* requests {{{ */

static void
reply_invalid_params (AcpIncomingRequest *request,
                      const char         *message)
{
  g_debug ("%s: %s", acp_incoming_request_get_method (request), message);
  acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS, message);
}

static gboolean
agent_request_cb (AcpAgent           *agent,
                  const char         *session_id,
                  AcpIncomingRequest *request,
                  AcpFsService       *self)
{
  const char *method = acp_incoming_request_get_method (request);
  AcpClientCapabilities caps = acp_agent_get_client_capabilities (agent);
  JsonObject *params;
  const char *path;
  AcpSessionName name = { agent, (char *) session_id };
  const char * const *roots;
  g_autoptr(FsOp) op = NULL;
  gboolean write;
  gint64 value;

  if (g_strcmp0 (method, "fs/read_text_file") == 0)
    write = FALSE;
  else if (g_strcmp0 (method, "fs/write_text_file") == 0)
    write = TRUE;
  else
    return FALSE;

  /* not advertised: not served (the agent gets -32601) */
  if (!(caps & (write ? ACP_CLIENT_CAP_FS_WRITE : ACP_CLIENT_CAP_FS_READ)))
    return FALSE;

  params = acp_incoming_request_get_params_object (request);
  if (params == NULL)
    {
      reply_invalid_params (request, _("The params must be an object"));
      return TRUE;
    }

  if (session_id == NULL)
    {
      reply_invalid_params (request, _("The sessionId is missing or not a string"));
      return TRUE;
    }

  path = acp_json_get_string (params, "path", NULL);
  if (path == NULL || path[0] == '\0')
    {
      reply_invalid_params (request, _("The path is missing or not a string"));
      return TRUE;
    }

  if (!g_path_is_absolute (path))
    {
      g_autofree char *message = g_strdup_printf (_("The path must be absolute: %s"), path);

      reply_invalid_params (request, message);
      return TRUE;
    }

  op = g_atomic_rc_box_new0 (FsOp);
  op->self = g_object_ref (self);
  op->request = g_object_ref (request);
  op->cancellable = g_object_ref (acp_incoming_request_get_cancellable (request));
  op->write = write;
  g_weak_ref_init (&op->agent, agent);
  op->session_id = g_strdup (session_id);
  op->path = g_strdup (path);
  roots = g_hash_table_lookup (self->roots, &name);
  op->roots = g_strdupv ((char **) roots);
  op->max_file_size = self->max_file_size;
  op->line = 1;
  op->limit = -1;

  if (write)
    {
      const char *content = acp_json_get_string (params, "content", NULL);

      if (content == NULL)
        {
          reply_invalid_params (request, _("The content is missing or not a string"));
          return TRUE;
        }
      op->content = g_strdup (content);
    }
  else
    {
      /* as the schema says, a value of the wrong kind counts as absent */
      if (acp_json_get_int (params, "line", &value) && value > 1)
        op->line = value;
      if (acp_json_get_int (params, "limit", &value) && value >= 0)
        op->limit = value;
    }

  start_op (op);

  return TRUE;
}

/* }}} */

/* GObject {{{ */

static void
acp_fs_service_finalize (GObject *object)
{
  AcpFsService *self = ACP_FS_SERVICE (object);

  g_clear_pointer (&self->roots, g_hash_table_unref);

  G_OBJECT_CLASS (acp_fs_service_parent_class)->finalize (object);
}

static void
acp_fs_service_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AcpFsService *self = ACP_FS_SERVICE (object);

  switch (prop_id)
    {
    case PROP_MAX_FILE_SIZE:
      g_value_set_uint64 (value, self->max_file_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_fs_service_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  AcpFsService *self = ACP_FS_SERVICE (object);

  switch (prop_id)
    {
    case PROP_MAX_FILE_SIZE:
      acp_fs_service_set_max_file_size (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_fs_service_class_init (AcpFsServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = acp_fs_service_finalize;
  object_class->get_property = acp_fs_service_get_property;
  object_class->set_property = acp_fs_service_set_property;

  properties[PROP_MAX_FILE_SIZE] =
    g_param_spec_uint64 ("max-file-size", NULL, NULL,
                         0, G_MAXUINT64, ACP_FS_SERVICE_DEFAULT_MAX_FILE_SIZE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AcpFsService::access-request:
   * @self: the service
   * @session_id: the session of the request (of the agent
   *   acp_fs_access_request_get_agent() gives)
   * @path: the canonical path outside the session's folders
   * @write: whether the agent wants to write
   * @request: answer with acp_fs_access_request_allow() or _deny()
   *
   * Returns: %TRUE when the handler answered or will answer @request
   */
  signals[ACCESS_REQUEST] =
    g_signal_new ("access-request",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 4,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_BOOLEAN,
                  ACP_TYPE_FS_ACCESS_REQUEST);
}

static void
acp_fs_service_init (AcpFsService *self)
{
  self->roots = g_hash_table_new_full (_acp_session_name_hash, _acp_session_name_equal,
                                       _acp_session_name_free, (GDestroyNotify) g_strfreev);
  self->max_file_size = ACP_FS_SERVICE_DEFAULT_MAX_FILE_SIZE;
}

/* }}} */

/* public API {{{ */

/**
 * acp_fs_service_new:
 *
 * Returns: (transfer full): a new service, attached to no agent
 */
AcpFsService *
acp_fs_service_new (void)
{
  return g_object_new (ACP_TYPE_FS_SERVICE, NULL);
}

/**
 * acp_fs_service_attach:
 * @self: a #AcpFsService
 * @agent: an agent
 *
 * Answers the fs/ requests of @agent that its client capabilities allow,
 * until acp_fs_service_detach() or until either object goes away.
 */
void
acp_fs_service_attach (AcpFsService *self,
                       AcpAgent     *agent)
{
  g_return_if_fail (ACP_IS_FS_SERVICE (self));
  g_return_if_fail (ACP_IS_AGENT (agent));

  if (g_signal_handler_find (agent, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA,
                             0, 0, NULL, agent_request_cb, self) != 0)
    return;

  g_signal_connect_object (agent, "request", G_CALLBACK (agent_request_cb), self, 0);
}

/**
 * acp_fs_service_detach:
 * @self: a #AcpFsService
 * @agent: an agent
 *
 * Stops answering the requests of @agent. Requests already taken are still
 * answered.
 */
void
acp_fs_service_detach (AcpFsService *self,
                       AcpAgent     *agent)
{
  g_return_if_fail (ACP_IS_FS_SERVICE (self));
  g_return_if_fail (ACP_IS_AGENT (agent));

  g_signal_handlers_disconnect_by_func (agent, agent_request_cb, self);
}

/**
 * acp_fs_service_set_roots:
 * @self: a #AcpFsService
 * @agent: the agent of the session (an identity: it is not kept)
 * @session_id: the agent's session id
 * @roots: (nullable) (array zero-terminated=1): absolute folder paths
 *
 * Sets the folders of the session. Relative paths are ignored; %NULL or an
 * empty list forgets the session.
 */
void
acp_fs_service_set_roots (AcpFsService       *self,
                          AcpAgent           *agent,
                          const char         *session_id,
                          const char * const *roots)
{
  AcpSessionName name = { agent, (char *) session_id };
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;

  g_return_if_fail (ACP_IS_FS_SERVICE (self));
  g_return_if_fail (ACP_IS_AGENT (agent));
  g_return_if_fail (session_id != NULL);

  for (guint i = 0; roots != NULL && roots[i] != NULL; i++)
    {
      if (!g_path_is_absolute (roots[i]))
        {
          g_debug ("Ignoring the relative folder %s of session %s", roots[i], session_id);
          continue;
        }
      g_strv_builder_add (builder, roots[i]);
    }

  list = g_strv_builder_end (builder);
  if (list[0] == NULL)
    g_hash_table_remove (self->roots, &name);
  else
    g_hash_table_replace (self->roots, _acp_session_name_new (agent, session_id),
                          g_steal_pointer (&list));
}

/**
 * acp_fs_service_dup_roots:
 * @self: a #AcpFsService
 * @agent: the agent of the session (an identity: it may have exited)
 * @session_id: the agent's session id
 *
 * Returns: (transfer full) (nullable): the folders of the session
 */
char **
acp_fs_service_dup_roots (AcpFsService *self,
                          AcpAgent     *agent,
                          const char   *session_id)
{
  AcpSessionName name = { agent, (char *) session_id };

  g_return_val_if_fail (ACP_IS_FS_SERVICE (self), NULL);
  g_return_val_if_fail (agent != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  return g_strdupv (g_hash_table_lookup (self->roots, &name));
}

guint64
acp_fs_service_get_max_file_size (AcpFsService *self)
{
  g_return_val_if_fail (ACP_IS_FS_SERVICE (self), 0);

  return self->max_file_size;
}

/**
 * acp_fs_service_set_max_file_size:
 * @self: a #AcpFsService
 * @max_file_size: the largest file, in bytes, that reads accept
 */
void
acp_fs_service_set_max_file_size (AcpFsService *self,
                                  guint64       max_file_size)
{
  g_return_if_fail (ACP_IS_FS_SERVICE (self));

  if (self->max_file_size == max_file_size)
    return;

  self->max_file_size = max_file_size;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_FILE_SIZE]);
}

/* }}} */
