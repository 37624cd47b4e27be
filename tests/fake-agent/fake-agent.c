/* fake-agent.c: a scripted ACP agent for the test suite
 *
 * Copyright 2026 The Palaver authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This program plays the agent side of the Agent Client Protocol from a
 * scenario file (see tests/scenarios/README.md). It is deliberately its own
 * little implementation of JSON-RPC framing, sharing nothing with src/acp, so
 * that a bug in the library under test cannot hide itself.
 *
 * Exit statuses: 0 after stdin closed (unless ignore_eof), 2 for a bad command
 * line or an invalid scenario, 3 when a response did not match "expect", or
 * whatever an "exit" step asks for.
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <json-glib/json-glib.h>

#define EXIT_BAD_SCENARIO  2
#define EXIT_EXPECT_FAILED 3

#define READ_CHUNK_SIZE    (256 * 1024)
#define OUT_BUFFER_SIZE    (64 * 1024)
#define BATCH_FLUSH_SIZE   (1024 * 1024)
#define MAX_REPEAT_BYTES   ((gint64) 1 << 31)
#define MAX_NESTING        512

typedef struct _Agent Agent;
typedef struct _Script Script;
typedef struct _UpdatesBatch UpdatesBatch;

typedef enum
{
  STEP_CONTINUE,  /* go on with the next step */
  STEP_SUSPEND,   /* a callback resumes the script later */
  STEP_STOP,      /* the script is over (hang) */
} StepResult;

typedef enum
{
  PIECE_END,
  PIECE_INDEX,    /* ${i} */
  PIECE_CYCLE,    /* ${cycle} */
} PieceKind;

/* One serialized session/update message per template, cut at the ${i} and
 * ${cycle} markers so that N messages are written without touching JSON. */
typedef struct
{
  GPtrArray *literals;  /* char *, one more than markers */
  GArray    *markers;   /* PieceKind */
} Pieces;

struct _UpdatesBatch
{
  GPtrArray *templates;  /* Pieces * */
  gint64     count;
  gint64     next;
  guint      delay_ms;
};

struct _Script
{
  Agent        *agent;
  char         *name;         /* method name or "on_start", for messages */
  JsonNode     *id;           /* request id; NULL for notifications and on_start */
  JsonNode     *params;       /* NULL when the message had none */
  char         *session_id;   /* params.sessionId when it is a string */
  JsonArray    *steps;
  guint         pc;
  gboolean      is_on_start;

  /* notifications: index into Agent.notifications where this script's view
   * starts, and per method the index after the last one it consumed */
  guint         notification_start;
  GHashTable   *consumed;

  JsonObject   *request_step; /* the "request" step awaiting its response */
  char         *request_key;
  char         *wait_method;  /* for wait_notification */
  guint         timeout_id;
  UpdatesBatch *batch;        /* an "updates" step with a delay */
};

struct _Agent
{
  GMainLoop     *loop;
  JsonNode      *root;
  JsonObject    *handlers;
  JsonArray     *on_start;
  gboolean       ignore_eof;
  gboolean       ignore_sigterm;
  gboolean       string_ids;
  gboolean       unknown_ignore;

  GInputStream  *in;
  GByteArray    *inbuf;
  gsize          scan_from;
  guint8        *readbuf;
  gboolean       reading;

  GOutputStream *out;
  gboolean       out_closed;
  gboolean       out_failed;

  FILE          *record;

  GHashTable    *call_counts;    /* method -> GUINT_TO_POINTER (calls so far) */
  GHashTable    *pending;        /* id key -> Script * */
  gint64         next_request_id;
  guint          session_counter;
  guint          fork_counter;
  char          *last_session_id;
  GPtrArray     *notifications;  /* method names, in arrival order */
  GPtrArray     *waiters;        /* Script * in wait_notification */
};

static void script_run (Script *s);
static void start_reading (Agent *a);

/* ---------------------------------------------------------------- output */

static void
write_fd_all (int         fd,
              const char *data,
              gsize       len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, len);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return;
        }
      data += n;
      len -= (gsize) n;
    }
}

static void
say (const char *format,
     ...) G_GNUC_PRINTF (1, 2);

static void
say (const char *format,
     ...)
{
  g_autofree char *msg = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  line = g_strconcat ("fake-agent: ", msg, "\n", NULL);
  write_fd_all (STDERR_FILENO, line, strlen (line));
}

static void
out_failed (Agent  *a,
            GError *error)
{
  if (!a->out_failed)
    say ("cannot write to stdout: %s", error->message);
  a->out_failed = TRUE;
}

static void
out_write (Agent      *a,
           const char *data,
           gsize       len)
{
  g_autoptr(GError) error = NULL;

  if (a->out_closed || a->out_failed)
    return;
  if (!g_output_stream_write_all (a->out, data, len, NULL, NULL, &error))
    out_failed (a, error);
}

static void
out_flush (Agent *a)
{
  g_autoptr(GError) error = NULL;

  if (a->out_closed || a->out_failed)
    return;
  if (!g_output_stream_flush (a->out, NULL, &error))
    out_failed (a, error);
}

static void
send_object (Agent      *a,
             JsonObject *message)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), message);
  g_autofree char *text = json_to_string (node, FALSE);

  out_write (a, text, strlen (text));
  out_write (a, "\n", 1);
  out_flush (a);
}

static JsonObject *
message_new (void)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "jsonrpc", "2.0");
  return message;
}

static void
send_error (Agent      *a,
            JsonNode   *id,
            gint64      code,
            const char *text,
            JsonNode   *data)
{
  g_autoptr(JsonObject) message = message_new ();
  g_autoptr(JsonObject) error = json_object_new ();

  json_object_set_member (message, "id",
                          id ? json_node_copy (id) : json_node_new (JSON_NODE_NULL));
  json_object_set_int_member (error, "code", code);
  json_object_set_string_member (error, "message", text);
  if (data)
    json_object_set_member (error, "data", json_node_copy (data));
  json_object_set_object_member (message, "error", g_steal_pointer (&error));
  send_object (a, message);
}

static void
finish_and_exit (Agent *a,
                 int    status)
{
  out_flush (a);
  if (a->record)
    fflush (a->record);
  exit (status);
}

/* ------------------------------------------------------------ templating */

static const char *
current_session_id (Script *s)
{
  return s->session_id ? s->session_id : s->agent->last_session_id;
}

static JsonNode *
string_node (const char *str)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, str);
  return node;
}

static JsonNode *
session_id_node (Script *s)
{
  const char *id = current_session_id (s);

  return id ? string_node (id) : json_node_new (JSON_NODE_NULL);
}

static gboolean
is_repeat_object (JsonObject *object)
{
  return json_object_get_size (object) == 2
         && json_object_has_member (object, "$repeat")
         && json_object_has_member (object, "count");
}

static char *
repeat_string (const char *unit,
               gint64      count)
{
  gsize unit_len = strlen (unit);
  gsize total = unit_len * (gsize) count;
  gsize filled;
  char *buffer;

  buffer = g_malloc (total + 1);
  buffer[total] = '\0';
  if (total == 0)
    return buffer;

  memcpy (buffer, unit, unit_len);
  filled = unit_len;
  while (filled < total)
    {
      gsize chunk = MIN (filled, total - filled);

      memcpy (buffer + filled, buffer, chunk);
      filled += chunk;
    }
  return buffer;
}

static JsonNode *
lookup_params (Script     *s,
               const char *path)
{
  g_auto(GStrv) parts = NULL;
  JsonNode *node = s->params;

  if (*path == '\0')
    return node ? json_node_copy (node) : json_node_new (JSON_NODE_NULL);

  parts = g_strsplit (path, ".", -1);
  for (guint i = 0; parts[i] && node; i++)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *object = json_node_get_object (node);

          node = json_object_get_member (object, parts[i]);
        }
      else if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);
          char *end = NULL;
          guint64 index = g_ascii_strtoull (parts[i], &end, 10);

          if (end == parts[i] || *end != '\0' || index >= json_array_get_length (array))
            node = NULL;
          else
            node = json_array_get_element (array, (guint) index);
        }
      else
        node = NULL;
    }

  return node ? json_node_copy (node) : json_node_new (JSON_NODE_NULL);
}

static JsonNode *
expand_string (Script     *s,
               const char *str)
{
  Agent *a = s->agent;

  if (g_str_equal (str, "${session_id}"))
    return session_id_node (s);

  if (g_str_equal (str, "${new_session_id}"))
    {
      g_free (a->last_session_id);
      a->last_session_id = g_strdup_printf ("fake-session-%u", ++a->session_counter);
      return string_node (a->last_session_id);
    }

  /* a fork: "<the current session>-fork-N", current for the rest of the
   * script (its updates are the fork's) */
  if (g_str_equal (str, "${fork_session_id}"))
    {
      const char *source = current_session_id (s);
      char *id = g_strdup_printf ("%s-fork-%u", source != NULL ? source : "none",
                                  ++a->fork_counter);

      g_free (s->session_id);
      s->session_id = id;
      return string_node (id);
    }

  if (g_str_has_prefix (str, "${params") && g_str_has_suffix (str, "}"))
    {
      const char *rest = str + strlen ("${params");

      if (g_str_equal (rest, "}"))
        return lookup_params (s, "");
      if (rest[0] == '.')
        {
          g_autofree char *path = g_strndup (rest + 1, strlen (rest + 1) - 1);

          return lookup_params (s, path);
        }
    }

  return string_node (str);
}

/* Returns a new node: @node with every placeholder replaced. */
static JsonNode *
expand (Script   *s,
        JsonNode *node)
{
  if (node == NULL)
    return json_node_new (JSON_NODE_NULL);

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(JsonObject) copy = NULL;
        g_autoptr(GList) members = NULL;

        if (is_repeat_object (object))
          {
            g_autofree char *str = NULL;

            str = repeat_string (json_object_get_string_member (object, "$repeat"),
                                 json_object_get_int_member (object, "count"));
            return string_node (str);
          }

        copy = json_object_new ();
        members = json_object_get_members (object);
        for (GList *l = members; l; l = l->next)
          json_object_set_member (copy, l->data,
                                  expand (s, json_object_get_member (object, l->data)));
        return json_node_init_object (json_node_alloc (), copy);
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint len = json_array_get_length (array);
        g_autoptr(JsonArray) copy = json_array_sized_new (len);

        for (guint i = 0; i < len; i++)
          json_array_add_element (copy, expand (s, json_array_get_element (array, i)));
        return json_node_init_array (json_node_alloc (), copy);
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        return expand_string (s, json_node_get_string (node));
      return json_node_copy (node);

    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}

/* ------------------------------------------------------ expect matching */

static char *
node_to_string (JsonNode *node)
{
  if (node == NULL)
    return g_strdup ("(missing)");
  return json_to_string (node, FALSE);
}

static gboolean
values_equal (JsonNode *expected,
              JsonNode *actual)
{
  GType et = json_node_get_value_type (expected);
  GType at = json_node_get_value_type (actual);

  if ((et == G_TYPE_INT64 || et == G_TYPE_DOUBLE) && (at == G_TYPE_INT64 || at == G_TYPE_DOUBLE))
    {
      if (et == G_TYPE_INT64 && at == G_TYPE_INT64)
        return json_node_get_int (expected) == json_node_get_int (actual);
      return json_node_get_double (expected) == json_node_get_double (actual);
    }
  if (et != at)
    return FALSE;
  if (et == G_TYPE_STRING)
    return g_strcmp0 (json_node_get_string (expected), json_node_get_string (actual)) == 0;
  if (et == G_TYPE_BOOLEAN)
    return json_node_get_boolean (expected) == json_node_get_boolean (actual);
  return FALSE;
}

/* Is @expected a subset of @actual? Objects: every expected member matches;
 * arrays: same length, elements match in order; scalars: equal.
 * On mismatch, @path says where. */
static gboolean
subset_match (JsonNode *expected,
              JsonNode *actual,
              GString  *path)
{
  if (actual == NULL || JSON_NODE_TYPE (expected) != JSON_NODE_TYPE (actual))
    return FALSE;

  switch (JSON_NODE_TYPE (expected))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *eo = json_node_get_object (expected);
        JsonObject *ao = json_node_get_object (actual);
        g_autoptr(GList) members = json_object_get_members (eo);

        for (GList *l = members; l; l = l->next)
          {
            gsize len = path->len;

            g_string_append_printf (path, ".%s", (const char *) l->data);
            if (!subset_match (json_object_get_member (eo, l->data),
                               json_object_get_member (ao, l->data), path))
              return FALSE;
            g_string_truncate (path, len);
          }
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *ea = json_node_get_array (expected);
        JsonArray *aa = json_node_get_array (actual);
        guint len = json_array_get_length (ea);

        if (len != json_array_get_length (aa))
          return FALSE;
        for (guint i = 0; i < len; i++)
          {
            gsize plen = path->len;

            g_string_append_printf (path, "[%u]", i);
            if (!subset_match (json_array_get_element (ea, i),
                               json_array_get_element (aa, i), path))
              return FALSE;
            g_string_truncate (path, plen);
          }
        return TRUE;
      }

    case JSON_NODE_VALUE:
      return values_equal (expected, actual);

    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

static JsonNode *
walk_path (JsonNode   *root,
           const char *path)
{
  /* Finds the node a subset_match() path points at, for the message. */
  JsonNode *node = root;
  const char *p = path;

  while (node && *p)
    {
      if (*p == '.')
        {
          const char *end = p + 1;
          g_autofree char *name = NULL;

          while (*end && *end != '.' && *end != '[')
            end++;
          name = g_strndup (p + 1, end - p - 1);
          node = JSON_NODE_HOLDS_OBJECT (node)
                 ? json_object_get_member (json_node_get_object (node), name) : NULL;
          p = end;
        }
      else if (*p == '[')
        {
          char *end = NULL;
          guint64 index = g_ascii_strtoull (p + 1, &end, 10);

          if (!JSON_NODE_HOLDS_ARRAY (node)
              || index >= json_array_get_length (json_node_get_array (node)))
            node = NULL;
          else
            node = json_array_get_element (json_node_get_array (node), (guint) index);
          p = (end && *end == ']') ? end + 1 : end;
        }
      else
        break;
    }
  return node;
}

static void
check_response (Script     *s,
                JsonObject *step,
                JsonObject *response)
{
  const char *method = json_object_get_string_member (step, "method");
  const char *what;
  JsonNode *spec;
  JsonNode *actual;
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(GString) path = NULL;
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  g_autofree char *whole = NULL;
  g_autoptr(JsonNode) response_node = NULL;

  if (json_object_has_member (step, "expect"))
    {
      what = "result";
      spec = json_object_get_member (step, "expect");
    }
  else if (json_object_has_member (step, "expect_error"))
    {
      what = "error";
      spec = json_object_get_member (step, "expect_error");
    }
  else
    return;

  expected = expand (s, spec);
  actual = json_object_get_member (response, what);
  path = g_string_new (what);
  if (subset_match (expected, actual, path))
    return;

  response_node = json_node_init_object (json_node_alloc (), response);
  want = node_to_string (walk_path (expected, path->str + strlen (what)));
  got = node_to_string (walk_path (actual, path->str + strlen (what)));
  whole = node_to_string (response_node);
  say ("the response to %s (id %s) does not match at %s: expected %s, got %s",
       method, s->request_key + 2, path->str, want, got);
  say ("whole response: %s", whole);
  finish_and_exit (s->agent, EXIT_EXPECT_FAILED);
}

/* --------------------------------------------------------------- updates */

static Pieces *
pieces_new (const char *text)
{
  Pieces *p = g_new0 (Pieces, 1);
  const char *start = text;
  const char *c = text;

  p->literals = g_ptr_array_new_with_free_func (g_free);
  p->markers = g_array_new (FALSE, FALSE, sizeof (PieceKind));

  while ((c = strchr (c, '$')))
    {
      PieceKind kind;
      gsize skip;

      if (g_str_has_prefix (c, "${i}"))
        {
          kind = PIECE_INDEX;
          skip = 4;
        }
      else if (g_str_has_prefix (c, "${cycle}"))
        {
          kind = PIECE_CYCLE;
          skip = 8;
        }
      else
        {
          c++;
          continue;
        }
      g_ptr_array_add (p->literals, g_strndup (start, c - start));
      g_array_append_val (p->markers, kind);
      c += skip;
      start = c;
    }
  g_ptr_array_add (p->literals, g_strdup (start));
  return p;
}

static void
pieces_free (Pieces *p)
{
  g_ptr_array_unref (p->literals);
  g_array_unref (p->markers);
  g_free (p);
}

static void
updates_batch_free (UpdatesBatch *batch)
{
  g_ptr_array_unref (batch->templates);
  g_free (batch);
}

static UpdatesBatch *
updates_batch_new (Script     *s,
                   JsonObject *step)
{
  UpdatesBatch *batch = g_new0 (UpdatesBatch, 1);
  JsonArray *templates = json_object_get_array_member (step, "templates");
  guint n = json_array_get_length (templates);

  batch->templates = g_ptr_array_new_with_free_func ((GDestroyNotify) pieces_free);
  batch->count = json_object_get_int_member (step, "count");
  if (json_object_has_member (step, "delay_ms"))
    batch->delay_ms = (guint) json_object_get_int_member (step, "delay_ms");

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonObject) message = message_new ();
      g_autoptr(JsonObject) params = json_object_new ();
      g_autoptr(JsonNode) node = NULL;
      g_autofree char *text = NULL;

      json_object_set_string_member (message, "method", "session/update");
      json_object_set_member (params, "sessionId", session_id_node (s));
      json_object_set_member (params, "update", expand (s, json_array_get_element (templates, i)));
      json_object_set_object_member (message, "params", g_steal_pointer (&params));
      node = json_node_init_object (json_node_alloc (), message);
      text = json_to_string (node, FALSE);
      g_ptr_array_add (batch->templates, pieces_new (text));
    }
  return batch;
}

static void
append_update (GString      *buffer,
               UpdatesBatch *batch,
               gint64        i)
{
  guint n = batch->templates->len;
  Pieces *p = g_ptr_array_index (batch->templates, i % n);

  for (guint k = 0; k < p->markers->len; k++)
    {
      PieceKind kind = g_array_index (p->markers, PieceKind, k);

      g_string_append (buffer, g_ptr_array_index (p->literals, k));
      g_string_append_printf (buffer, "%" G_GINT64_FORMAT,
                              kind == PIECE_INDEX ? i : i / (gint64) n);
    }
  g_string_append (buffer, g_ptr_array_index (p->literals, p->markers->len));
  g_string_append_c (buffer, '\n');
}

static void
write_all_updates (Agent        *a,
                   UpdatesBatch *batch)
{
  g_autoptr(GString) buffer = g_string_sized_new (BATCH_FLUSH_SIZE + 64 * 1024);

  for (gint64 i = 0; i < batch->count; i++)
    {
      append_update (buffer, batch, i);
      if (buffer->len >= BATCH_FLUSH_SIZE)
        {
          out_write (a, buffer->str, buffer->len);
          g_string_truncate (buffer, 0);
        }
    }
  out_write (a, buffer->str, buffer->len);
  out_flush (a);
}

static gboolean
updates_tick_cb (gpointer user_data)
{
  Script *s = user_data;
  UpdatesBatch *batch = s->batch;
  g_autoptr(GString) buffer = g_string_new (NULL);

  append_update (buffer, batch, batch->next++);
  out_write (s->agent, buffer->str, buffer->len);
  out_flush (s->agent);

  if (batch->next < batch->count)
    return G_SOURCE_CONTINUE;

  s->timeout_id = 0;
  g_clear_pointer (&s->batch, updates_batch_free);
  script_run (s);
  return G_SOURCE_REMOVE;
}

/* --------------------------------------------------------------- scripts */

static Script *
script_new (Agent      *a,
            const char *name,
            JsonNode   *id,
            JsonNode   *params,
            JsonArray  *steps)
{
  Script *s = g_new0 (Script, 1);

  s->agent = a;
  s->name = g_strdup (name);
  s->id = id ? json_node_copy (id) : NULL;
  s->params = params ? json_node_copy (params) : NULL;
  s->steps = json_array_ref (steps);
  s->notification_start = a->notifications->len;
  s->consumed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (params && JSON_NODE_HOLDS_OBJECT (params))
    {
      JsonNode *sid = json_object_get_member (json_node_get_object (params), "sessionId");

      if (sid && JSON_NODE_HOLDS_VALUE (sid) && json_node_get_value_type (sid) == G_TYPE_STRING)
        s->session_id = g_strdup (json_node_get_string (sid));
    }
  return s;
}

static void
script_free (Script *s)
{
  Agent *a = s->agent;

  if (s->request_key)
    g_hash_table_remove (a->pending, s->request_key);
  g_ptr_array_remove (a->waiters, s);
  g_clear_handle_id (&s->timeout_id, g_source_remove);
  g_clear_pointer (&s->batch, updates_batch_free);
  g_clear_pointer (&s->id, json_node_unref);
  g_clear_pointer (&s->params, json_node_unref);
  g_clear_pointer (&s->steps, json_array_unref);
  g_clear_pointer (&s->consumed, g_hash_table_unref);
  g_free (s->request_key);
  g_free (s->wait_method);
  g_free (s->session_id);
  g_free (s->name);
  g_free (s);
}

static void
script_finish (Script *s)
{
  Agent *a = s->agent;
  gboolean was_on_start = s->is_on_start;

  script_free (s);
  if (was_on_start)
    start_reading (a);
}

/* Takes the first unconsumed @method notification that arrived after the
 * script started. */
static gboolean
consume_notification (Script     *s,
                      const char *method)
{
  Agent *a = s->agent;
  gpointer value;
  guint from = s->notification_start;

  if (g_hash_table_lookup_extended (s->consumed, method, NULL, &value))
    from = GPOINTER_TO_UINT (value);

  for (guint i = from; i < a->notifications->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (a->notifications, i), method))
        {
          g_hash_table_insert (s->consumed, g_strdup (method), GUINT_TO_POINTER (i + 1));
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
sleep_done_cb (gpointer user_data)
{
  Script *s = user_data;

  s->timeout_id = 0;
  script_run (s);
  return G_SOURCE_REMOVE;
}

static gboolean
wait_timeout_cb (gpointer user_data)
{
  Script *s = user_data;

  s->timeout_id = 0;
  say ("%s: no %s notification arrived in time, going on", s->name, s->wait_method);
  g_clear_pointer (&s->wait_method, g_free);
  g_ptr_array_remove (s->agent->waiters, s);
  script_run (s);
  return G_SOURCE_REMOVE;
}

static JsonNode *
new_request_id (Agent *a)
{
  gint64 n = a->next_request_id++;
  JsonNode *id = json_node_new (JSON_NODE_VALUE);

  if (a->string_ids)
    {
      g_autofree char *str = g_strdup_printf ("r%" G_GINT64_FORMAT, n);

      json_node_set_string (id, str);
    }
  else
    json_node_set_int (id, n);
  return id;
}

/* "i:N" or "s:STR"; NULL for ids that can never match one of ours */
static char *
id_key (JsonNode *id)
{
  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return NULL;
  if (json_node_get_value_type (id) == G_TYPE_INT64)
    return g_strdup_printf ("i:%" G_GINT64_FORMAT, json_node_get_int (id));
  if (json_node_get_value_type (id) == G_TYPE_STRING)
    return g_strconcat ("s:", json_node_get_string (id), NULL);
  return NULL;
}

static void
raise_signal (Agent *a,
              int    signum)
{
  struct rlimit no_core = { 0, 0 };
  sigset_t set;

  out_flush (a);
  if (a->record)
    fflush (a->record);

  /* a crash on purpose should not leave a core file behind */
  setrlimit (RLIMIT_CORE, &no_core);
  signal (signum, SIG_DFL);
  sigemptyset (&set);
  sigaddset (&set, signum);
  sigprocmask (SIG_UNBLOCK, &set, NULL);
  raise (signum);
}

static StepResult
run_step (Script     *s,
          JsonObject *step)
{
  Agent *a = s->agent;
  const char *op = json_object_get_string_member (step, "op");

  if (g_str_equal (op, "result"))
    {
      g_autoptr(JsonObject) message = NULL;

      if (s->id == NULL)
        return STEP_CONTINUE;
      message = message_new ();
      json_object_set_member (message, "id", json_node_copy (s->id));
      json_object_set_member (message, "result",
                              expand (s, json_object_get_member (step, "result")));
      send_object (a, message);
      return STEP_CONTINUE;
    }

  if (g_str_equal (op, "error"))
    {
      g_autoptr(JsonNode) data = NULL;

      if (s->id == NULL)
        return STEP_CONTINUE;
      if (json_object_has_member (step, "data"))
        data = expand (s, json_object_get_member (step, "data"));
      send_error (a, s->id,
                  json_object_get_int_member (step, "code"),
                  json_object_get_string_member (step, "message"),
                  data);
      return STEP_CONTINUE;
    }

  if (g_str_equal (op, "notify"))
    {
      g_autoptr(JsonObject) message = message_new ();

      json_object_set_string_member (message, "method",
                                     json_object_get_string_member (step, "method"));
      if (json_object_has_member (step, "params"))
        json_object_set_member (message, "params",
                                expand (s, json_object_get_member (step, "params")));
      send_object (a, message);
      return STEP_CONTINUE;
    }

  if (g_str_equal (op, "update"))
    {
      g_autoptr(JsonObject) message = message_new ();
      g_autoptr(JsonObject) params = json_object_new ();

      json_object_set_string_member (message, "method", "session/update");
      json_object_set_member (params, "sessionId", session_id_node (s));
      json_object_set_member (params, "update",
                              expand (s, json_object_get_member (step, "update")));
      json_object_set_object_member (message, "params", g_steal_pointer (&params));
      send_object (a, message);
      return STEP_CONTINUE;
    }

  if (g_str_equal (op, "updates"))
    {
      UpdatesBatch *batch = updates_batch_new (s, step);

      if (batch->delay_ms == 0 || batch->count == 0)
        {
          write_all_updates (a, batch);
          updates_batch_free (batch);
          return STEP_CONTINUE;
        }
      s->batch = batch;
      s->timeout_id = g_timeout_add (batch->delay_ms, updates_tick_cb, s);
      return STEP_SUSPEND;
    }

  if (g_str_equal (op, "request"))
    {
      g_autoptr(JsonObject) message = message_new ();
      JsonNode *id = new_request_id (a);

      s->request_key = id_key (id);
      s->request_step = step;
      g_hash_table_insert (a->pending, g_strdup (s->request_key), s);

      json_object_set_member (message, "id", id);
      json_object_set_string_member (message, "method",
                                     json_object_get_string_member (step, "method"));
      if (json_object_has_member (step, "params"))
        json_object_set_member (message, "params",
                                expand (s, json_object_get_member (step, "params")));
      send_object (a, message);
      return STEP_SUSPEND;
    }

  if (g_str_equal (op, "sleep"))
    {
      s->timeout_id = g_timeout_add ((guint) json_object_get_int_member (step, "ms"),
                                     sleep_done_cb, s);
      return STEP_SUSPEND;
    }

  if (g_str_equal (op, "stderr"))
    {
      const char *text = json_object_get_string_member (step, "text");
      gint64 repeat = 1;
      g_autoptr(GString) buffer = g_string_new (NULL);

      if (json_object_has_member (step, "repeat"))
        repeat = json_object_get_int_member (step, "repeat");
      for (gint64 i = 0; i < repeat; i++)
        {
          g_string_append (buffer, text);
          g_string_append_c (buffer, '\n');
          if (buffer->len >= 64 * 1024)
            {
              write_fd_all (STDERR_FILENO, buffer->str, buffer->len);
              g_string_truncate (buffer, 0);
            }
        }
      write_fd_all (STDERR_FILENO, buffer->str, buffer->len);
      return STEP_CONTINUE;
    }

  if (g_str_equal (op, "raw"))
    {
      const char *line = json_object_get_string_member (step, "line");

      out_write (a, line, strlen (line));
      out_write (a, "\n", 1);
      out_flush (a);
      return STEP_CONTINUE;
    }

  if (g_str_equal (op, "exit"))
    finish_and_exit (a, (int) json_object_get_int_member (step, "status"));

  if (g_str_equal (op, "signal"))
    {
      raise_signal (a, (int) json_object_get_int_member (step, "signal"));
      return STEP_CONTINUE;
    }

  if (g_str_equal (op, "hang"))
    return STEP_STOP;

  if (g_str_equal (op, "require_env"))
    {
      if (g_strcmp0 (g_getenv (json_object_get_string_member (step, "name")),
                     json_object_get_string_member (step, "value")) == 0)
        return STEP_CONTINUE;
      if (s->id != NULL)
        send_error (a, s->id, json_object_get_int_member (step, "code"),
                    json_object_get_string_member (step, "message"), NULL);
      return STEP_STOP;
    }

  if (g_str_equal (op, "require_file"))
    {
      const char *path = g_getenv (json_object_get_string_member (step, "path_env"));

      if (path != NULL && *path != '\0' && g_file_test (path, G_FILE_TEST_EXISTS))
        return STEP_CONTINUE;
      if (s->id != NULL)
        send_error (a, s->id, json_object_get_int_member (step, "code"),
                    json_object_get_string_member (step, "message"), NULL);
      return STEP_STOP;
    }

  if (g_str_equal (op, "wait_notification"))
    {
      const char *method = json_object_get_string_member (step, "method");

      if (consume_notification (s, method))
        return STEP_CONTINUE;
      s->wait_method = g_strdup (method);
      g_ptr_array_add (a->waiters, s);
      if (json_object_has_member (step, "timeout_ms"))
        s->timeout_id = g_timeout_add ((guint) json_object_get_int_member (step, "timeout_ms"),
                                       wait_timeout_cb, s);
      return STEP_SUSPEND;
    }

  if (g_str_equal (op, "close_stdout"))
    {
      int devnull;

      out_flush (a);
      a->out_closed = TRUE;
      devnull = open ("/dev/null", O_WRONLY | O_CLOEXEC);
      if (devnull >= 0)
        {
          dup2 (devnull, STDOUT_FILENO);
          close (devnull);
        }
      else
        close (STDOUT_FILENO);
      return STEP_CONTINUE;
    }

  /* validate_step() lets no other op through */
  g_assert_not_reached ();
}

static void
script_run (Script *s)
{
  while (s->pc < json_array_get_length (s->steps))
    {
      JsonObject *step = json_array_get_object_element (s->steps, s->pc++);

      switch (run_step (s, step))
        {
        case STEP_CONTINUE:
          break;
        case STEP_SUSPEND:
          return;
        case STEP_STOP:
        default:
          script_finish (s);
          return;
        }
    }
  script_finish (s);
}

/* -------------------------------------------------------------- incoming */

static JsonArray *
steps_for_call (Agent      *a,
                const char *method)
{
  JsonNode *handler = a->handlers ? json_object_get_member (a->handlers, method) : NULL;
  guint calls_so_far;
  JsonArray *calls;
  guint len;

  if (handler == NULL)
    return NULL;

  calls_so_far = GPOINTER_TO_UINT (g_hash_table_lookup (a->call_counts, method));
  g_hash_table_insert (a->call_counts, g_strdup (method), GUINT_TO_POINTER (calls_so_far + 1));

  if (JSON_NODE_HOLDS_ARRAY (handler))
    return json_node_get_array (handler);

  calls = json_object_get_array_member (json_node_get_object (handler), "calls");
  len = json_array_get_length (calls);
  return json_array_get_array_element (calls, MIN (calls_so_far, len - 1));
}

static void
wake_waiters (Agent      *a,
              const char *method)
{
  g_autoptr(GPtrArray) snapshot = g_ptr_array_copy (a->waiters, NULL, NULL);

  for (guint i = 0; i < snapshot->len; i++)
    {
      Script *s = g_ptr_array_index (snapshot, i);

      /* scripts only ever free themselves, so the others are still alive */
      if (s->wait_method == NULL || !g_str_equal (s->wait_method, method))
        continue;
      if (!consume_notification (s, method))
        continue;
      g_clear_pointer (&s->wait_method, g_free);
      g_clear_handle_id (&s->timeout_id, g_source_remove);
      g_ptr_array_remove (a->waiters, s);
      script_run (s);
    }
}

static void
handle_call (Agent      *a,
             const char *method,
             JsonNode   *id,
             JsonNode   *params)
{
  JsonArray *steps = steps_for_call (a, method);

  if (id == NULL)
    g_ptr_array_add (a->notifications, g_strdup (method));

  if (steps != NULL)
    script_run (script_new (a, method, id, params, steps));
  else if (id != NULL && !a->unknown_ignore)
    send_error (a, id, -32601, "Method not found", NULL);

  if (id == NULL)
    wake_waiters (a, method);
}

static void
handle_response (Agent      *a,
                 JsonNode   *id,
                 JsonObject *message)
{
  g_autofree char *key = id_key (id);
  Script *s = key ? g_hash_table_lookup (a->pending, key) : NULL;
  JsonObject *step;

  if (s == NULL)
    {
      g_autofree char *text = node_to_string (id);

      say ("ignoring a response with unknown id %s", text);
      return;
    }

  g_hash_table_remove (a->pending, key);
  step = g_steal_pointer (&s->request_step);
  check_response (s, step, message);  /* uses s->request_key in its message */
  g_clear_pointer (&s->request_key, g_free);

  script_run (s);
}

static gboolean
is_valid_id (JsonNode *id)
{
  if (JSON_NODE_HOLDS_NULL (id))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (id))
    return FALSE;
  return json_node_get_value_type (id) == G_TYPE_INT64
         || json_node_get_value_type (id) == G_TYPE_STRING;
}

static void
handle_message (Agent      *a,
                JsonObject *message)
{
  JsonNode *id = json_object_get_member (message, "id");
  JsonNode *method = json_object_get_member (message, "method");
  JsonNode *params = json_object_get_member (message, "params");
  JsonNode *jsonrpc;
  const char *version = NULL;

  if (id != NULL && !is_valid_id (id))
    {
      send_error (a, NULL, -32600, "Invalid Request: bad id", NULL);
      return;
    }

  jsonrpc = json_object_get_member (message, "jsonrpc");
  if (jsonrpc && JSON_NODE_HOLDS_VALUE (jsonrpc)
      && json_node_get_value_type (jsonrpc) == G_TYPE_STRING)
    version = json_node_get_string (jsonrpc);

  if (method == NULL)
    {
      if (id != NULL
          && (json_object_has_member (message, "result")
              || json_object_has_member (message, "error")))
        {
          if (g_strcmp0 (version, "2.0") != 0)
            say ("a response without \"jsonrpc\": \"2.0\"");
          handle_response (a, id, message);
          return;
        }
      send_error (a, id, -32600, "Invalid Request", NULL);
      return;
    }

  if (g_strcmp0 (version, "2.0") != 0)
    {
      send_error (a, id, -32600, "Invalid Request: \"jsonrpc\" must be \"2.0\"", NULL);
      return;
    }

  if (!JSON_NODE_HOLDS_VALUE (method) || json_node_get_value_type (method) != G_TYPE_STRING)
    {
      send_error (a, id, -32600, "Invalid Request: \"method\" must be a string", NULL);
      return;
    }

  if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params) && !JSON_NODE_HOLDS_ARRAY (params))
    {
      if (id != NULL)
        send_error (a, id, -32602, "Invalid params", NULL);
      else
        say ("ignoring a notification with bad params");
      return;
    }

  handle_call (a, json_node_get_string (method), id, params);
}

/* json-glib parses recursively: refuse absurd nesting before it can
 * exhaust the stack. Brackets inside strings do not count. */
static gboolean
nesting_ok (const char *text,
            gsize       len)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < len; i++)
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
          if (++depth > MAX_NESTING)
            return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

static void
handle_line (Agent      *a,
             const char *line,
             gsize       len)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *root;
  gboolean blank = TRUE;

  if (a->record)
    {
      fwrite (line, 1, len, a->record);
      fputc ('\n', a->record);
      fflush (a->record);
    }

  for (gsize i = 0; i < len && blank; i++)
    blank = line[i] == ' ' || line[i] == '\t' || line[i] == '\r';
  if (blank)
    return;

  parser = json_parser_new ();
  if (!nesting_ok (line, len)
      || !json_parser_load_from_data (parser, line, (gssize) len, &error))
    {
      send_error (a, NULL, -32700, "Parse error", NULL);
      return;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      send_error (a, NULL, -32600, "Invalid Request", NULL);
      return;
    }

  handle_message (a, json_node_get_object (root));
}

/* ----------------------------------------------------------------- stdin */

static void
process_lines (Agent *a)
{
  gsize start = 0;

  for (;;)
    {
      const guint8 *data = a->inbuf->data;
      const guint8 *nl = memchr (data + a->scan_from, '\n', a->inbuf->len - a->scan_from);
      gsize end;

      if (nl == NULL)
        break;
      end = (gsize) (nl - data);
      handle_line (a, (const char *) data + start, end - start);
      start = end + 1;
      a->scan_from = start;
    }

  a->scan_from = a->inbuf->len - start;
  if (start > 0)
    g_byte_array_remove_range (a->inbuf, 0, (guint) start);
}

static void
handle_eof (Agent *a)
{
  if (a->inbuf->len > 0)
    {
      g_autoptr(GByteArray) rest = g_steal_pointer (&a->inbuf);

      a->inbuf = g_byte_array_new ();
      a->scan_from = 0;
      handle_line (a, (const char *) rest->data, rest->len);
    }

  if (!a->ignore_eof)
    finish_and_exit (a, 0);

  say ("stdin closed; staying alive (ignore_eof)");
}

static void read_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
read_more (Agent *a)
{
  g_input_stream_read_async (a->in, a->readbuf, READ_CHUNK_SIZE, G_PRIORITY_DEFAULT,
                             NULL, read_cb, a);
}

static void
read_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Agent *a = user_data;
  g_autoptr(GError) error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);
  if (n < 0)
    say ("cannot read stdin: %s", error->message);
  if (n <= 0)
    {
      handle_eof (a);
      return;
    }

  g_byte_array_append (a->inbuf, a->readbuf, (guint) n);
  process_lines (a);
  read_more (a);
}

static void
start_reading (Agent *a)
{
  if (a->reading)
    return;
  a->reading = TRUE;
  read_more (a);
}

/* ------------------------------------------------------------ validation */

#define SCENARIO_ERROR (g_quark_from_static_string ("fake-agent-scenario"))

static gboolean
check_keys (JsonObject  *object,
            const char  *where,
            const char **allowed,
            GError     **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l; l = l->next)
    {
      if (!g_strv_contains (allowed, l->data))
        {
          g_set_error (error, SCENARIO_ERROR, 0, "%s: unknown key \"%s\"",
                       where, (const char *) l->data);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
get_int (JsonObject  *object,
         const char  *key,
         gboolean     required,
         gint64       min,
         gint64       max,
         const char  *where,
         GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL)
    {
      if (!required)
        return TRUE;
      g_set_error (error, SCENARIO_ERROR, 0, "%s: \"%s\" is required", where, key);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64
      || json_node_get_int (node) < min || json_node_get_int (node) > max)
    {
      g_set_error (error, SCENARIO_ERROR, 0,
                   "%s: \"%s\" must be an integer from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                   where, key, min, max);
      return FALSE;
    }
  return TRUE;
}

static gboolean
get_string (JsonObject  *object,
            const char  *key,
            gboolean     required,
            const char  *where,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL && !required)
    return TRUE;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, SCENARIO_ERROR, 0, "%s: \"%s\" must be a string", where, key);
      return FALSE;
    }
  return TRUE;
}

static gboolean
get_bool (JsonObject  *object,
          const char  *key,
          gboolean    *value,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *value = FALSE;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, SCENARIO_ERROR, 0, "\"%s\" must be true or false", key);
      return FALSE;
    }
  *value = json_node_get_boolean (node);
  return TRUE;
}

/* Checks every {"$repeat": ...} object inside a value. */
static gboolean
validate_value (JsonNode    *node,
                const char  *where,
                GError     **error)
{
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!validate_value (json_array_get_element (array, i), where, error))
          return FALSE;
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = NULL;

      if (json_object_has_member (object, "$repeat"))
        {
          static const char *keys[] = { "$repeat", "count", NULL };
          gsize unit_len;

          if (!check_keys (object, where, keys, error)
              || !get_string (object, "$repeat", TRUE, where, error)
              || !get_int (object, "count", TRUE, 0, G_MAXINT64, where, error))
            return FALSE;
          unit_len = strlen (json_object_get_string_member (object, "$repeat"));
          if (unit_len > 0
              && json_object_get_int_member (object, "count") > MAX_REPEAT_BYTES / (gint64) unit_len)
            {
              g_set_error (error, SCENARIO_ERROR, 0, "%s: \"$repeat\" result too large", where);
              return FALSE;
            }
          return TRUE;
        }

      members = json_object_get_members (object);
      for (GList *l = members; l; l = l->next)
        if (!validate_value (json_object_get_member (object, l->data), where, error))
          return FALSE;
    }
  return TRUE;
}

static gboolean
validate_value_member (JsonObject  *step,
                       const char  *key,
                       gboolean     required,
                       const char  *where,
                       GError     **error)
{
  JsonNode *node = json_object_get_member (step, key);

  if (node == NULL)
    {
      if (!required)
        return TRUE;
      g_set_error (error, SCENARIO_ERROR, 0, "%s: \"%s\" is required", where, key);
      return FALSE;
    }
  return validate_value (node, where, error);
}

static gboolean
validate_step (JsonNode    *node,
               const char  *where,
               gboolean     in_on_start,
               GError     **error)
{
  JsonObject *step;
  const char *op;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, SCENARIO_ERROR, 0, "%s: a step must be an object", where);
      return FALSE;
    }
  step = json_node_get_object (node);
  if (!get_string (step, "op", TRUE, where, error))
    return FALSE;
  op = json_object_get_string_member (step, "op");

  if (g_str_equal (op, "result"))
    {
      static const char *keys[] = { "op", "comment", "result", NULL };

      if (!check_keys (step, where, keys, error)
          || !validate_value_member (step, "result", TRUE, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "error"))
    {
      static const char *keys[] = { "op", "comment", "code", "message", "data", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_int (step, "code", TRUE, G_MININT32, G_MAXINT32, where, error)
          || !get_string (step, "message", TRUE, where, error)
          || !validate_value_member (step, "data", FALSE, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "notify"))
    {
      static const char *keys[] = { "op", "comment", "method", "params", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_string (step, "method", TRUE, where, error)
          || !validate_value_member (step, "params", FALSE, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "update"))
    {
      static const char *keys[] = { "op", "comment", "update", NULL };

      if (!check_keys (step, where, keys, error)
          || !validate_value_member (step, "update", TRUE, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "updates"))
    {
      static const char *keys[] = { "op", "comment", "count", "templates", "delay_ms", NULL };
      JsonNode *templates = json_object_get_member (step, "templates");

      if (!check_keys (step, where, keys, error)
          || !get_int (step, "count", TRUE, 0, G_MAXINT32, where, error)
          || !get_int (step, "delay_ms", FALSE, 0, G_MAXINT32, where, error))
        return FALSE;
      if (templates == NULL || !JSON_NODE_HOLDS_ARRAY (templates)
          || json_array_get_length (json_node_get_array (templates)) == 0)
        {
          g_set_error (error, SCENARIO_ERROR, 0,
                       "%s: \"templates\" must be a non-empty array", where);
          return FALSE;
        }
      if (!validate_value (templates, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "request"))
    {
      static const char *keys[] = { "op", "comment", "method", "params", "expect",
                                    "expect_error", NULL };
      JsonNode *expect_error = json_object_get_member (step, "expect_error");

      if (!check_keys (step, where, keys, error)
          || !get_string (step, "method", TRUE, where, error)
          || !validate_value_member (step, "params", FALSE, where, error)
          || !validate_value_member (step, "expect", FALSE, where, error))
        return FALSE;
      if (expect_error && json_object_has_member (step, "expect"))
        {
          g_set_error (error, SCENARIO_ERROR, 0,
                       "%s: \"expect\" and \"expect_error\" exclude each other", where);
          return FALSE;
        }
      if (expect_error && !JSON_NODE_HOLDS_OBJECT (expect_error))
        {
          g_set_error (error, SCENARIO_ERROR, 0, "%s: \"expect_error\" must be an object", where);
          return FALSE;
        }
    }
  else if (g_str_equal (op, "sleep"))
    {
      static const char *keys[] = { "op", "comment", "ms", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_int (step, "ms", TRUE, 0, G_MAXINT32, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "stderr"))
    {
      static const char *keys[] = { "op", "comment", "text", "repeat", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_string (step, "text", TRUE, where, error)
          || !get_int (step, "repeat", FALSE, 0, G_MAXINT32, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "raw"))
    {
      static const char *keys[] = { "op", "comment", "line", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_string (step, "line", TRUE, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "exit"))
    {
      static const char *keys[] = { "op", "comment", "status", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_int (step, "status", TRUE, 0, 255, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "signal"))
    {
      static const char *keys[] = { "op", "comment", "signal", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_int (step, "signal", TRUE, 1, 64, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "require_env"))
    {
      static const char *keys[] = { "op", "comment", "name", "value", "code", "message", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_string (step, "name", TRUE, where, error)
          || !get_string (step, "value", TRUE, where, error)
          || !get_int (step, "code", TRUE, G_MININT32, G_MAXINT32, where, error)
          || !get_string (step, "message", TRUE, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "require_file"))
    {
      static const char *keys[] = { "op", "comment", "path_env", "code", "message", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_string (step, "path_env", TRUE, where, error)
          || !get_int (step, "code", TRUE, G_MININT32, G_MAXINT32, where, error)
          || !get_string (step, "message", TRUE, where, error))
        return FALSE;
    }
  else if (g_str_equal (op, "hang") || g_str_equal (op, "close_stdout"))
    {
      static const char *keys[] = { "op", "comment", NULL };

      if (!check_keys (step, where, keys, error))
        return FALSE;
    }
  else if (g_str_equal (op, "wait_notification"))
    {
      static const char *keys[] = { "op", "comment", "method", "timeout_ms", NULL };

      if (!check_keys (step, where, keys, error)
          || !get_string (step, "method", TRUE, where, error)
          || !get_int (step, "timeout_ms", FALSE, 0, G_MAXINT32, where, error))
        return FALSE;
    }
  else
    {
      g_set_error (error, SCENARIO_ERROR, 0, "%s: unknown op \"%s\"", where, op);
      return FALSE;
    }

  if (in_on_start && (g_str_equal (op, "result") || g_str_equal (op, "error")))
    {
      g_set_error (error, SCENARIO_ERROR, 0,
                   "%s: on_start has no request to answer", where);
      return FALSE;
    }
  return TRUE;
}

static gboolean
validate_steps (JsonNode    *node,
                const char  *where,
                gboolean     in_on_start,
                GError     **error)
{
  JsonArray *steps;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, SCENARIO_ERROR, 0, "%s: steps must be an array", where);
      return FALSE;
    }
  steps = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      g_autofree char *step_where = g_strdup_printf ("%s[%u]", where, i);

      if (!validate_step (json_array_get_element (steps, i), step_where, in_on_start, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
validate_handler (JsonNode    *node,
                  const char  *where,
                  GError     **error)
{
  static const char *keys[] = { "calls", "comment", NULL };
  JsonObject *object;
  JsonNode *calls;

  if (JSON_NODE_HOLDS_ARRAY (node))
    return validate_steps (node, where, FALSE, error);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, SCENARIO_ERROR, 0,
                   "%s: a handler is an array of steps or {\"calls\": [...]}", where);
      return FALSE;
    }
  object = json_node_get_object (node);
  if (!check_keys (object, where, keys, error))
    return FALSE;
  calls = json_object_get_member (object, "calls");
  if (calls == NULL || !JSON_NODE_HOLDS_ARRAY (calls)
      || json_array_get_length (json_node_get_array (calls)) == 0)
    {
      g_set_error (error, SCENARIO_ERROR, 0, "%s: \"calls\" must be a non-empty array", where);
      return FALSE;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (calls)); i++)
    {
      g_autofree char *call_where = g_strdup_printf ("%s.calls[%u]", where, i);

      if (!validate_steps (json_array_get_element (json_node_get_array (calls), i),
                           call_where, FALSE, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
load_scenario (Agent       *a,
               const char  *path,
               GError     **error)
{
  static const char *keys[] = { "description", "ignore_eof", "ignore_sigterm", "string_ids",
                                "on_start", "handlers", "unknown", NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  gsize len;
  JsonObject *scenario;
  JsonNode *node;

  if (!g_file_get_contents (path, &text, &len, error))
    return FALSE;
  if (!nesting_ok (text, len))
    {
      g_set_error (error, SCENARIO_ERROR, 0, "nested too deeply");
      return FALSE;
    }
  if (!json_parser_load_from_data (parser, text, (gssize) len, error))
    return FALSE;

  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, SCENARIO_ERROR, 0, "the scenario must be a JSON object");
      return FALSE;
    }
  a->root = json_node_ref (node);
  scenario = json_node_get_object (a->root);

  if (!check_keys (scenario, "scenario", keys, error)
      || !get_string (scenario, "description", FALSE, "scenario", error)
      || !get_bool (scenario, "ignore_eof", &a->ignore_eof, error)
      || !get_bool (scenario, "ignore_sigterm", &a->ignore_sigterm, error)
      || !get_bool (scenario, "string_ids", &a->string_ids, error)
      || !get_string (scenario, "unknown", FALSE, "scenario", error))
    return FALSE;

  if (json_object_has_member (scenario, "unknown"))
    {
      const char *unknown = json_object_get_string_member (scenario, "unknown");

      if (g_str_equal (unknown, "ignore"))
        a->unknown_ignore = TRUE;
      else if (!g_str_equal (unknown, "method_not_found"))
        {
          g_set_error (error, SCENARIO_ERROR, 0,
                       "\"unknown\" must be \"method_not_found\" or \"ignore\"");
          return FALSE;
        }
    }

  node = json_object_get_member (scenario, "on_start");
  if (node)
    {
      if (!validate_steps (node, "on_start", TRUE, error))
        return FALSE;
      a->on_start = json_node_get_array (node);
    }

  node = json_object_get_member (scenario, "handlers");
  if (node)
    {
      g_autoptr(GList) methods = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, SCENARIO_ERROR, 0, "\"handlers\" must be an object");
          return FALSE;
        }
      a->handlers = json_node_get_object (node);
      methods = json_object_get_members (a->handlers);
      for (GList *l = methods; l; l = l->next)
        {
          g_autofree char *where = g_strdup_printf ("handlers.%s", (const char *) l->data);

          if (!validate_handler (json_object_get_member (a->handlers, l->data), where, error))
            return FALSE;
        }
    }

  return TRUE;
}

/* ------------------------------------------------------------------ main */

static gboolean
sigterm_cb (gpointer user_data)
{
  say ("ignoring SIGTERM");
  return G_SOURCE_CONTINUE;
}

static char *
find_scenario (const char *name)
{
  const char *dir = g_getenv ("PALAVER_SCENARIO_DIR");
  g_autofree char *path = NULL;

  if (g_path_is_absolute (name) || dir == NULL || *dir == '\0')
    path = g_strdup (name);
  else
    path = g_build_filename (dir, name, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS) && !g_str_has_suffix (path, ".json"))
    {
      g_autofree char *with_suffix = g_strconcat (path, ".json", NULL);

      if (g_file_test (with_suffix, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&with_suffix);
    }
  return g_steal_pointer (&path);
}

/* A "terminal" sign-in method runs the agent's own command with the
 * method's args: "--login PROGRAM ARG..." runs PROGRAM instead of playing
 * the scenario; a relative PROGRAM is in the folder above the scenario's
 * (tests/). Returns only on failure. */
static int
run_login (const char  *scenario_path,
           char       **argv)
{
  g_autofree char *scenario_dir = g_path_get_dirname (scenario_path);
  g_autofree char *tests_dir = g_path_get_dirname (scenario_dir);
  g_autofree char *program = g_path_is_absolute (argv[0])
                             ? g_strdup (argv[0])
                             : g_build_filename (tests_dir, argv[0], NULL);

  execv (program, argv);
  say ("cannot run %s: %s", program, g_strerror (errno));
  return EXIT_BAD_SCENARIO;
}

static void
usage (void)
{
  const char *text =
    "usage: fake-agent SCENARIO.json [--record FILE]\n"
    "       fake-agent --check SCENARIO.json\n"
    "       fake-agent SCENARIO.json [--record FILE] --login PROGRAM [ARG...]\n";

  write_fd_all (STDERR_FILENO, text, strlen (text));
}

int
main (int   argc,
      char *argv[])
{
  Agent agent = { 0 };
  Agent *a = &agent;
  const char *scenario_name = NULL;
  const char *record_path = g_getenv ("FAKE_AGENT_RECORD");
  gboolean check_only = FALSE;
  g_autofree char *scenario_path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) unix_out = NULL;
  char **login = NULL;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--login") && i + 1 < argc)
        {
          login = argv + i + 1;
          break;
        }
      else if (g_str_equal (argv[i], "--record") && i + 1 < argc)
        record_path = argv[++i];
      else if (g_str_has_prefix (argv[i], "--record="))
        record_path = argv[i] + strlen ("--record=");
      else if (g_str_equal (argv[i], "--check"))
        check_only = TRUE;
      else if (g_str_equal (argv[i], "--help") || g_str_equal (argv[i], "-h"))
        {
          usage ();
          return 0;
        }
      else if (argv[i][0] != '-' && scenario_name == NULL)
        scenario_name = argv[i];
      else
        {
          usage ();
          return EXIT_BAD_SCENARIO;
        }
    }
  if (scenario_name == NULL)
    {
      usage ();
      return EXIT_BAD_SCENARIO;
    }

  scenario_path = find_scenario (scenario_name);
  if (login != NULL)
    return run_login (scenario_path, login);
  if (!load_scenario (a, scenario_path, &error))
    {
      say ("invalid scenario %s: %s", scenario_path, error->message);
      g_clear_pointer (&a->root, json_node_unref);
      return EXIT_BAD_SCENARIO;
    }
  if (check_only)
    {
      /* returning ends the life of *a, on this stack frame: free what it holds */
      g_clear_pointer (&a->root, json_node_unref);
      return 0;
    }

  if (record_path && *record_path)
    {
      a->record = fopen (record_path, "ae");
      if (a->record == NULL)
        {
          say ("cannot open %s: %s", record_path, g_strerror (errno));
          return EXIT_BAD_SCENARIO;
        }
    }

  /* a closed stdout must be a write error, not a silent death */
  signal (SIGPIPE, SIG_IGN);
  if (a->ignore_sigterm)
    g_unix_signal_add (SIGTERM, sigterm_cb, a);

  a->loop = g_main_loop_new (NULL, FALSE);
  a->in = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  a->inbuf = g_byte_array_new ();
  a->readbuf = g_malloc (READ_CHUNK_SIZE);
  unix_out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  a->out = g_buffered_output_stream_new_sized (unix_out, OUT_BUFFER_SIZE);
  a->call_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  a->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  a->notifications = g_ptr_array_new_with_free_func (g_free);
  a->waiters = g_ptr_array_new ();

  if (a->on_start)
    {
      Script *s = script_new (a, "on_start", NULL, NULL, a->on_start);

      s->is_on_start = TRUE;
      script_run (s);
    }
  else
    start_reading (a);

  g_main_loop_run (a->loop);
  return 0;
}
