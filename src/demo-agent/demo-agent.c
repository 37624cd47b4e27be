/* demo-agent.c: the demo agent's side of ACP: requests, the open sessions, replay
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "demo-agent.h"
#include "demo-script.h"
#include "demo-session.h"

#define LIST_PAGE_SIZE  50
#define REPLAY_BATCH    500  /* history lines sent per main loop iteration */

struct _DemoAgent
{
  GObject        parent_instance;

  AcpConnection *connection;
  DemoStore     *store;
  double         speed;
  GHashTable    *sessions;      /* id → DemoSession, owned */
  gboolean       shutting_down;
  gboolean       plan_updates;  /* the client shows plan_update */
};

G_DEFINE_FINAL_TYPE (DemoAgent, demo_agent, G_TYPE_OBJECT)

enum {
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static gint64
parse_time (const char *iso8601)
{
  g_autoptr(GDateTime) time = NULL;

  if (iso8601 == NULL)
    return 0;

  time = g_date_time_new_from_iso8601 (iso8601, NULL);
  if (time == NULL)
    return 0;

  return g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

static JsonNode *
node_take_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);

  return node;
}

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

static void
reply_take_object (AcpIncomingRequest *request,
                   JsonObject         *object)
{
  g_autoptr(JsonNode) node = node_take_object (object);

  acp_incoming_request_reply (request, node);
}

static void G_GNUC_PRINTF (2, 3)
reply_invalid (AcpIncomingRequest *request,
               const char         *format,
               ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("%s: %s", acp_incoming_request_get_method (request), message);
  acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS, message);
}

static void
reply_not_found (AcpIncomingRequest *request,
                 const char         *session_id)
{
  g_autofree char *message = g_strdup_printf ("The demo agent has no session “%s”", session_id);

  acp_incoming_request_reply_error_literal (request, ACP_ERROR_RESOURCE_NOT_FOUND, message);
}

/* --- params --- */

static JsonObject *
get_params (AcpIncomingRequest *request)
{
  JsonObject *params = acp_incoming_request_get_params_object (request);

  if (params == NULL)
    reply_invalid (request, "The params must be an object");

  return params;
}

static gboolean
get_string (AcpIncomingRequest *request,
            JsonObject         *params,
            const char         *name,
            gboolean            required,
            const char        **out)
{
  JsonNode *node = json_object_get_member (params, name);

  *out = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        {
          reply_invalid (request, "“%s” is missing", name);
          return FALSE;
        }
      return TRUE;
    }

  if (!node_is_string (node))
    {
      reply_invalid (request, "“%s” must be a string", name);
      return FALSE;
    }

  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_session_id (AcpIncomingRequest *request,
                JsonObject         *params,
                const char        **out)
{
  if (!get_string (request, params, "sessionId", TRUE, out))
    return FALSE;

  if (!demo_store_is_valid_session_id (*out))
    {
      reply_invalid (request, "“sessionId” is not a session id of the demo agent");
      return FALSE;
    }

  return TRUE;
}

static gboolean
get_cwd (AcpIncomingRequest *request,
         JsonObject         *params,
         gboolean            required,
         const char        **out)
{
  if (!get_string (request, params, "cwd", required, out))
    return FALSE;

  if (*out != NULL && !g_path_is_absolute (*out))
    {
      reply_invalid (request, "“cwd” must be an absolute path");
      return FALSE;
    }

  return TRUE;
}

/* A missing or null list is an empty one. */
static gboolean
get_mcp_servers (AcpIncomingRequest *request,
                 JsonObject         *params,
                 JsonArray         **out)
{
  JsonNode *node = json_object_get_member (params, "mcpServers");
  JsonArray *servers;

  *out = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *out = json_array_new ();
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      reply_invalid (request, "“mcpServers” must be an array");
      return FALSE;
    }

  servers = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (servers); i++)
    {
      JsonNode *server = json_array_get_element (servers, i);

      if (!JSON_NODE_HOLDS_OBJECT (server) ||
          !node_is_string (json_object_get_member (json_node_get_object (server), "name")))
        {
          reply_invalid (request, "mcpServers[%u] must be an object with a string “name”", i);
          return FALSE;
        }
    }

  *out = json_array_ref (servers);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Sessions                                                                  */

static DemoSession *
lookup_live_session (DemoAgent  *self,
                     const char *session_id)
{
  return g_hash_table_lookup (self->sessions, session_id);
}

static void
add_live_session (DemoAgent   *self,
                  DemoSession *session)
{
  session->plan_updates = self->plan_updates;
  g_hash_table_replace (self->sessions, session->id, demo_session_ref (session));
}

/* Looks an id up among the live sessions, else in the index (async). */
typedef struct
{
  DemoAgent          *agent;
  AcpIncomingRequest *request;
  char               *session_id;
  char               *cwd;
  JsonArray          *mcp_servers;
} LookupData;

static void
lookup_data_free (LookupData *data)
{
  g_object_unref (data->agent);
  g_object_unref (data->request);
  g_free (data->session_id);
  g_free (data->cwd);
  g_clear_pointer (&data->mcp_servers, json_array_unref);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LookupData, lookup_data_free)

static LookupData *
lookup_data_new (DemoAgent          *agent,
                 AcpIncomingRequest *request,
                 const char         *session_id,
                 const char         *cwd,
                 JsonArray          *mcp_servers)
{
  LookupData *data = g_new0 (LookupData, 1);

  data->agent = g_object_ref (agent);
  data->request = g_object_ref (request);
  data->session_id = g_strdup (session_id);
  data->cwd = g_strdup (cwd);
  data->mcp_servers = mcp_servers != NULL ? json_array_ref (mcp_servers) : NULL;

  return data;
}

/* The live session of data->session_id, revived from the index entries when
 * needed; NULL when the id is unknown. */
static DemoSession *
revive_session (LookupData *data,
                GPtrArray  *entries)
{
  DemoSession *session = lookup_live_session (data->agent, data->session_id);

  if (session != NULL)
    return session;

  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      JsonObject *entry = g_ptr_array_index (entries, i);

      if (g_strcmp0 (json_object_get_string_member (entry, "sessionId"), data->session_id) == 0)
        {
          g_autoptr(DemoSession) revived = demo_session_new_from_entry (data->agent->connection,
                                                                        data->agent->store,
                                                                        data->agent->speed,
                                                                        entry);

          add_live_session (data->agent, revived);
          return revived;
        }
    }

  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Requests                                                                  */

static void
handle_initialize (DemoAgent          *self,
                   AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  JsonNode *version;
  JsonNode *client_caps;
  JsonObject *result;
  JsonObject *info;
  JsonObject *caps;
  JsonObject *prompt_caps;
  JsonObject *mcp_caps;
  JsonObject *session_caps;

  if (params == NULL)
    return;

  version = json_object_get_member (params, "protocolVersion");
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_INT64)
    {
      reply_invalid (request, "“protocolVersion” must be an integer");
      return;
    }

  /* A client that shows plans by id (unstable) gets them: an empty
   * object says so */
  client_caps = json_object_get_member (params, "clientCapabilities");
  if (client_caps != NULL && JSON_NODE_HOLDS_OBJECT (client_caps))
    {
      JsonNode *plan = json_object_get_member (json_node_get_object (client_caps), "plan");

      self->plan_updates = plan != NULL && JSON_NODE_HOLDS_OBJECT (plan);
    }

  info = json_object_new ();
  json_object_set_string_member (info, "name", "palaver-demo-agent");
  json_object_set_string_member (info, "title", "Demo Agent");
  json_object_set_string_member (info, "version", PACKAGE_VERSION);

  prompt_caps = json_object_new ();
  json_object_set_boolean_member (prompt_caps, "embeddedContext", TRUE);
  json_object_set_boolean_member (prompt_caps, "image", TRUE);

  mcp_caps = json_object_new ();
  json_object_set_boolean_member (mcp_caps, "http", TRUE);
  json_object_set_boolean_member (mcp_caps, "sse", TRUE);

  session_caps = json_object_new ();
  json_object_set_object_member (session_caps, "list", json_object_new ());
  json_object_set_object_member (session_caps, "resume", json_object_new ());
  json_object_set_object_member (session_caps, "close", json_object_new ());

  caps = json_object_new ();
  json_object_set_boolean_member (caps, "loadSession", TRUE);
  json_object_set_object_member (caps, "promptCapabilities", prompt_caps);
  json_object_set_object_member (caps, "mcpCapabilities", mcp_caps);
  json_object_set_object_member (caps, "sessionCapabilities", session_caps);

  result = json_object_new ();
  /* Version 1 is the only one we speak, whatever the client asked for. */
  json_object_set_int_member (result, "protocolVersion", 1);
  json_object_set_object_member (result, "agentInfo", info);
  json_object_set_object_member (result, "agentCapabilities", caps);
  json_object_set_array_member (result, "authMethods", json_array_new ());
  reply_take_object (request, result);
}

/* The session's modes and models, as session/new, session/load and
 * session/resume answer them: a reopened session keeps its selectors. */
static JsonObject *
session_state (DemoSession *session)
{
  JsonObject *result = json_object_new ();

  json_object_set_member (result, "modes", demo_script_modes (session->mode_id));
  json_object_set_member (result, "configOptions",
                          demo_script_config_options (session->mode_id, session->model_id));

  return result;
}

static void
handle_new_session (DemoAgent          *self,
                    AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  g_autoptr(JsonArray) servers = NULL;
  g_autoptr(DemoSession) session = NULL;
  g_autofree char *id = NULL;
  g_autoptr(JsonNode) commands = NULL;
  const char *cwd;
  JsonObject *result;

  if (params == NULL ||
      !get_cwd (request, params, TRUE, &cwd) ||
      !get_mcp_servers (request, params, &servers))
    return;

  id = g_uuid_string_random ();
  session = demo_session_new (self->connection, self->store, self->speed, id, cwd);
  demo_session_set_mcp_servers (session, servers);
  add_live_session (self, session);
  demo_session_save_index (session);

  result = session_state (session);
  json_object_set_string_member (result, "sessionId", session->id);
  reply_take_object (request, result);

  /* After the response, so the client knows the session by then. */
  commands = demo_script_commands_update ();
  demo_session_send_update (session, commands, TRUE);
}

/* --- session/load --- */

typedef struct
{
  DemoAgent          *agent;
  AcpIncomingRequest *request;
  DemoSession        *session;
  GPtrArray          *updates;
  guint               next;
} Replay;

static void
replay_free (Replay *replay)
{
  g_object_unref (replay->agent);
  g_object_unref (replay->request);
  demo_session_unref (replay->session);
  g_ptr_array_unref (replay->updates);
  g_free (replay);
}

static gboolean
replay_tick (gpointer user_data)
{
  Replay *replay = user_data;

  if (acp_connection_is_closed (replay->agent->connection))
    return G_SOURCE_REMOVE;

  for (guint i = 0; i < REPLAY_BATCH && replay->next < replay->updates->len; i++)
    demo_session_send_update (replay->session, g_ptr_array_index (replay->updates, replay->next++), FALSE);

  if (replay->next < replay->updates->len)
    return G_SOURCE_CONTINUE;

  reply_take_object (replay->request, session_state (replay->session));
  return G_SOURCE_REMOVE;
}

static void
load_history_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(LookupData) data = user_data;
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(GError) error = NULL;
  DemoSession *session;
  Replay *replay;

  updates = demo_store_read_history_finish (DEMO_STORE (source), result, &error);
  if (updates == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      /* Indexed, but nothing was said yet. */
      updates = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
    }
  else if (updates == NULL)
    {
      acp_incoming_request_reply_error_literal (data->request, ACP_ERROR_INTERNAL_ERROR,
                                                error->message);
      return;
    }

  session = lookup_live_session (data->agent, data->session_id);
  if (session == NULL)
    {
      reply_not_found (data->request, data->session_id);
      return;
    }

  replay = g_new0 (Replay, 1);
  replay->agent = g_object_ref (data->agent);
  replay->request = g_object_ref (data->request);
  replay->session = demo_session_ref (session);
  replay->updates = g_steal_pointer (&updates);
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, replay_tick, replay, (GDestroyNotify) replay_free);
}

static void
load_index_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(LookupData) data = user_data;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  DemoSession *session;

  entries = demo_store_read_index_finish (DEMO_STORE (source), result, &error);
  if (entries == NULL)
    g_debug ("Cannot read the session index: %s", error->message);

  session = revive_session (data, entries);
  if (session == NULL)
    {
      reply_not_found (data->request, data->session_id);
      return;
    }
  demo_session_set_mcp_servers (session, data->mcp_servers);

  {
    DemoStore *store = data->agent->store;
    const char *id = data->session_id;

    demo_store_read_history_async (store, id, NULL, load_history_cb, g_steal_pointer (&data));
  }
}

static void
handle_load_session (DemoAgent          *self,
                     AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  g_autoptr(JsonArray) servers = NULL;
  const char *id;
  const char *cwd;

  if (params == NULL ||
      !get_session_id (request, params, &id) ||
      !get_cwd (request, params, TRUE, &cwd) ||
      !get_mcp_servers (request, params, &servers))
    return;

  /* The index read comes after every write queued so far, so it sees the
   * sessions of this process too. */
  demo_store_read_index_async (self->store, NULL, load_index_cb,
                               lookup_data_new (self, request, id, cwd, servers));
}

/* --- session/resume --- */

static void
resume_index_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(LookupData) data = user_data;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  DemoSession *session;

  entries = demo_store_read_index_finish (DEMO_STORE (source), result, &error);
  if (entries == NULL)
    g_debug ("Cannot read the session index: %s", error->message);

  session = revive_session (data, entries);
  if (session == NULL)
    {
      reply_not_found (data->request, data->session_id);
      return;
    }
  demo_session_set_mcp_servers (session, data->mcp_servers);

  reply_take_object (data->request, session_state (session));
}

static void
handle_resume_session (DemoAgent          *self,
                       AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  g_autoptr(JsonArray) servers = NULL;
  DemoSession *session;
  const char *id;
  const char *cwd;

  if (params == NULL ||
      !get_session_id (request, params, &id) ||
      !get_cwd (request, params, TRUE, &cwd) ||
      !get_mcp_servers (request, params, &servers))
    return;

  session = lookup_live_session (self, id);
  if (session != NULL)
    {
      demo_session_set_mcp_servers (session, servers);
      reply_take_object (request, session_state (session));
      return;
    }

  demo_store_read_index_async (self->store, NULL, resume_index_cb,
                               lookup_data_new (self, request, id, cwd, servers));
}

/* --- session/close --- */

static void
handle_close_session (DemoAgent          *self,
                      AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  DemoSession *session;
  const char *id;

  if (params == NULL || !get_session_id (request, params, &id))
    return;

  session = lookup_live_session (self, id);
  if (session != NULL)
    {
      demo_session_cancel_turn (session);
      g_hash_table_remove (self->sessions, id);
    }

  /* Closing what is not open is not an error: the result is the same. */
  reply_take_object (request, json_object_new ());
}

/* --- session/list --- */

typedef struct
{
  JsonObject *entry;
  gint64      time;
} ListItem;

static int
compare_list_items (gconstpointer a,
                    gconstpointer b)
{
  const ListItem *x = a;
  const ListItem *y = b;

  if (x->time != y->time)
    return x->time > y->time ? -1 : 1;

  return g_strcmp0 (json_object_get_string_member (x->entry, "sessionId"),
                    json_object_get_string_member (y->entry, "sessionId"));
}

static void
list_index_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(LookupData) data = user_data;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (ListItem));
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  JsonArray *sessions = json_array_new ();
  JsonObject *reply = json_object_new ();
  GHashTableIter iter;
  gpointer value;
  guint64 offset = 0;

  entries = demo_store_read_index_finish (DEMO_STORE (source), result, &error);
  if (entries == NULL)
    g_debug ("Cannot read the session index: %s", error->message);

  /* The live sessions know best. */
  g_hash_table_iter_init (&iter, data->agent->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      DemoSession *session = value;

      g_ptr_array_add (keep, demo_session_index_entry (session));
      g_hash_table_add (seen, session->id);
    }
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      JsonObject *entry = g_ptr_array_index (entries, i);

      if (!g_hash_table_contains (seen, json_object_get_string_member (entry, "sessionId")))
        g_ptr_array_add (keep, json_object_ref (entry));
    }

  for (guint i = 0; i < keep->len; i++)
    {
      JsonObject *entry = g_ptr_array_index (keep, i);
      ListItem item;

      if (data->cwd != NULL && g_strcmp0 (json_object_get_string_member (entry, "cwd"), data->cwd) != 0)
        continue;
      item.entry = entry;
      item.time = parse_time (json_object_get_string_member_with_default (entry, "updatedAt", NULL));
      g_array_append_val (items, item);
    }
  g_array_sort (items, compare_list_items);

  /* The cursor was checked when the request came. */
  if (data->session_id != NULL)
    offset = g_ascii_strtoull (data->session_id, NULL, 10);

  for (guint64 i = offset; i < items->len && i < offset + LIST_PAGE_SIZE; i++)
    {
      JsonObject *entry = g_array_index (items, ListItem, i).entry;
      JsonObject *info = json_object_new ();
      const char *title = json_object_get_string_member_with_default (entry, "title", NULL);
      const char *updated = json_object_get_string_member_with_default (entry, "updatedAt", NULL);

      json_object_set_string_member (info, "sessionId", json_object_get_string_member (entry, "sessionId"));
      json_object_set_string_member (info, "cwd", json_object_get_string_member (entry, "cwd"));
      if (title != NULL)
        json_object_set_string_member (info, "title", title);
      if (updated != NULL)
        json_object_set_string_member (info, "updatedAt", updated);
      json_array_add_object_element (sessions, info);
    }

  json_object_set_array_member (reply, "sessions", sessions);
  if (offset + LIST_PAGE_SIZE < items->len)
    {
      g_autofree char *cursor = g_strdup_printf ("%" G_GUINT64_FORMAT, offset + LIST_PAGE_SIZE);

      json_object_set_string_member (reply, "nextCursor", cursor);
    }
  reply_take_object (data->request, reply);
}

static void
handle_list_sessions (DemoAgent          *self,
                      AcpIncomingRequest *request)
{
  JsonObject *params = acp_incoming_request_get_params_object (request);
  const char *cwd = NULL;
  const char *cursor = NULL;

  /* Every parameter is optional, params included. */
  if (params != NULL &&
      (!get_cwd (request, params, FALSE, &cwd) ||
       !get_string (request, params, "cursor", FALSE, &cursor)))
    return;

  if (params == NULL && acp_incoming_request_get_params (request) != NULL)
    {
      reply_invalid (request, "The params must be an object");
      return;
    }

  if (cursor != NULL)
    {
      guint64 offset;

      if (!g_ascii_string_to_unsigned (cursor, 10, 0, G_MAXUINT32, &offset, NULL))
        {
          reply_invalid (request, "“cursor” is not a cursor this agent gave out");
          return;
        }
    }

  /* The cursor rides in the session id slot. */
  demo_store_read_index_async (self->store, NULL, list_index_cb,
                               lookup_data_new (self, request, cursor, cwd, NULL));
}

/* --- modes and options --- */

static DemoSession *
get_live_session (DemoAgent          *self,
                  AcpIncomingRequest *request,
                  JsonObject         *params)
{
  DemoSession *session;
  const char *id;

  if (!get_session_id (request, params, &id))
    return NULL;

  session = lookup_live_session (self, id);
  if (session == NULL)
    {
      g_autofree char *message =
        g_strdup_printf ("The demo agent has no open session “%s”: load or resume it first", id);

      acp_incoming_request_reply_error_literal (request, ACP_ERROR_RESOURCE_NOT_FOUND, message);
    }

  return session;
}

/* Tells the client the session's mode or model changed, both as modes
 * and as config options (a client shows one or the other), into the
 * history too, so that a replay ends up with the same selectors */
static void
send_options_changed (DemoSession *session,
                      gboolean     mode_changed)
{
  JsonObject *update;

  if (mode_changed)
    {
      update = json_object_new ();
      json_object_set_string_member (update, "sessionUpdate", "current_mode_update");
      json_object_set_string_member (update, "currentModeId", session->mode_id);
      demo_session_send_update_object (session, update, TRUE);
    }

  update = json_object_new ();
  json_object_set_string_member (update, "sessionUpdate", "config_option_update");
  json_object_set_member (update, "configOptions",
                          demo_script_config_options (session->mode_id, session->model_id));
  demo_session_send_update_object (session, update, TRUE);
}

static void
handle_set_mode (DemoAgent          *self,
                 AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  DemoSession *session;
  const char *mode;

  if (params == NULL ||
      (session = get_live_session (self, request, params)) == NULL ||
      !get_string (request, params, "modeId", TRUE, &mode))
    return;

  if (!demo_script_is_mode (mode))
    {
      reply_invalid (request, "The demo agent has no mode “%s” (it has “code” and “ask”)", mode);
      return;
    }

  g_free (session->mode_id);
  session->mode_id = g_strdup (mode);
  demo_session_save_index (session);
  reply_take_object (request, json_object_new ());
  send_options_changed (session, TRUE);
}

static void
handle_set_config_option (DemoAgent          *self,
                          AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  DemoSession *session;
  JsonObject *result;
  JsonNode *value;
  const char *config;
  const char *type;
  const char *chosen;
  gboolean is_mode;

  if (params == NULL ||
      (session = get_live_session (self, request, params)) == NULL ||
      !get_string (request, params, "configId", TRUE, &config) ||
      !get_string (request, params, "type", FALSE, &type))
    return;

  is_mode = g_str_equal (config, "mode");
  if (!is_mode && !g_str_equal (config, "model"))
    {
      reply_invalid (request, "The demo agent has no option “%s” (it has “mode” and “model”)", config);
      return;
    }

  value = json_object_get_member (params, "value");
  if (g_strcmp0 (type, "boolean") == 0 || !node_is_string (value))
    {
      reply_invalid (request, "“%s” is a select option: “value” must be a value id string", config);
      return;
    }

  chosen = json_node_get_string (value);
  if (is_mode ? !demo_script_is_mode (chosen) : !demo_script_is_model (chosen))
    {
      reply_invalid (request, "The demo agent has no %s “%s”", config, chosen);
      return;
    }

  if (is_mode)
    {
      g_free (session->mode_id);
      session->mode_id = g_strdup (chosen);
    }
  else
    {
      g_free (session->model_id);
      session->model_id = g_strdup (chosen);
    }
  demo_session_save_index (session);

  result = json_object_new ();
  json_object_set_member (result, "configOptions",
                          demo_script_config_options (session->mode_id, session->model_id));
  reply_take_object (request, result);
  send_options_changed (session, is_mode);
}

/* --- session/prompt --- */

static void
handle_prompt (DemoAgent          *self,
               AcpIncomingRequest *request)
{
  JsonObject *params = get_params (request);
  DemoSession *session;
  JsonNode *node;
  JsonArray *prompt;

  if (params == NULL || (session = get_live_session (self, request, params)) == NULL)
    return;

  node = json_object_get_member (params, "prompt");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      reply_invalid (request, "“prompt” must be an array of content blocks");
      return;
    }
  prompt = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (prompt); i++)
    {
      JsonNode *block = json_array_get_element (prompt, i);

      if (!JSON_NODE_HOLDS_OBJECT (block) ||
          !node_is_string (json_object_get_member (json_node_get_object (block), "type")))
        {
          reply_invalid (request, "prompt[%u] must be a content block with a string “type”", i);
          return;
        }
    }

  if (demo_session_is_prompting (session))
    {
      acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_REQUEST,
                                                "A turn is already running in this session: "
                                                "cancel it first");
      return;
    }

  demo_session_prompt (session, request, prompt);
}

/* ------------------------------------------------------------------------ */
/* The connection                                                            */

static gboolean
connection_request_cb (AcpConnection      *connection,
                       AcpIncomingRequest *request,
                       DemoAgent          *self)
{
  static const struct {
    const char *method;
    void      (*handle) (DemoAgent *, AcpIncomingRequest *);
  } handlers[] = {
    { "initialize", handle_initialize },
    { "session/new", handle_new_session },
    { "session/load", handle_load_session },
    { "session/resume", handle_resume_session },
    { "session/close", handle_close_session },
    { "session/list", handle_list_sessions },
    { "session/set_mode", handle_set_mode },
    { "session/set_config_option", handle_set_config_option },
    { "session/prompt", handle_prompt },
  };
  const char *method = acp_incoming_request_get_method (request);

  if (self->shutting_down)
    return FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (handlers); i++)
    {
      if (g_str_equal (method, handlers[i].method))
        {
          handlers[i].handle (self, request);
          return TRUE;
        }
    }

  /* The connection answers -32601. */
  return FALSE;
}

static void
connection_cancel_cb (AcpConnection *connection,
                      const char    *method,
                      JsonNode      *params,
                      DemoAgent     *self)
{
  DemoSession *session;
  const char *id;

  if (params == NULL || !JSON_NODE_HOLDS_OBJECT (params))
    {
      g_debug ("session/cancel without params");
      return;
    }

  id = json_object_get_string_member_with_default (json_node_get_object (params), "sessionId", NULL);
  session = id != NULL ? lookup_live_session (self, id) : NULL;
  if (session == NULL)
    {
      g_debug ("session/cancel for no open session");
      return;
    }

  demo_session_cancel_turn (session);
}

static void
store_flushed_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(DemoAgent) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!demo_store_flush_finish (DEMO_STORE (source), result, &error))
    g_debug ("Flushing the history failed: %s", error->message);

  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
}

static void
connection_closed_cb (AcpConnection *connection,
                      const GError  *reason,
                      DemoAgent     *self)
{
  GHashTableIter iter;
  gpointer value;

  if (self->shutting_down)
    return;
  self->shutting_down = TRUE;

  if (reason != NULL)
    g_debug ("The connection closed: %s", reason->message);

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    demo_session_cancel_turn (value);

  demo_store_flush_async (self->store, NULL, store_flushed_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* The object                                                                */

static void
demo_agent_dispose (GObject *object)
{
  DemoAgent *self = DEMO_AGENT (object);

  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);

  if (self->sessions != NULL)
    {
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, self->sessions);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        demo_session_cancel_turn (value);
      g_clear_pointer (&self->sessions, g_hash_table_unref);
    }

  g_clear_object (&self->connection);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (demo_agent_parent_class)->dispose (object);
}

static void
demo_agent_class_init (DemoAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = demo_agent_dispose;

  /**
   * DemoAgent::finished:
   *
   * Emitted once the connection is closed and the history is on disk.
   */
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
demo_agent_init (DemoAgent *self)
{
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) demo_session_unref);
}

DemoAgent *
demo_agent_new (AcpConnection *connection,
                DemoStore     *store,
                double         speed)
{
  DemoAgent *self;

  g_return_val_if_fail (ACP_IS_CONNECTION (connection), NULL);
  g_return_val_if_fail (DEMO_IS_STORE (store), NULL);

  self = g_object_new (DEMO_TYPE_AGENT, NULL);
  self->connection = g_object_ref (connection);
  self->store = g_object_ref (store);
  self->speed = MAX (speed, 0.0);

  g_signal_connect (connection, "request", G_CALLBACK (connection_request_cb), self);
  g_signal_connect (connection, "notification::session/cancel",
                    G_CALLBACK (connection_cancel_cb), self);
  g_signal_connect (connection, "closed", G_CALLBACK (connection_closed_cb), self);

  return self;
}

void
demo_agent_shut_down (DemoAgent *self)
{
  g_return_if_fail (DEMO_IS_AGENT (self));

  if (self->shutting_down)
    return;

  if (!acp_connection_is_closed (self->connection))
    acp_connection_close (self->connection, NULL);

  /* The closed handler did the rest, unless the connection was closed
   * before we listened. */
  connection_closed_cb (self->connection, NULL, self);
}
