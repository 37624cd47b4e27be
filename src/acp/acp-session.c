/* acp-session.c: one conversation with an agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-permission-item.h"
#include "acp-session.h"
#include "acp-update-private.h"

/**
 * AcpSession:
 *
 * One conversation with an agent: its id, its state, its transcript and the
 * session-level state the agent reports (title, modes, config options,
 * commands, usage).
 *
 * The session listens to its agent: every `session/update` for its id is
 * applied as it arrives (during a load too, so the transcript fills live),
 * `session/request_permission` requests for its id become
 * #AcpPermissionItem entries, and when the agent exits the session FAILS:
 * pending permissions are cancelled and an error notice with the agent's
 * stderr tail is appended, while everything shown so far stays.
 *
 * A failed create, load or resume (an agent error, a capability the agent
 * did not advertise, a cancellation) returns the session to NEW, so that the
 * caller can try something else; a failed turn returns it to READY and
 * leaves an error notice in the transcript.
 */

/* Updates for an unknown session kept while session/new is in flight (some
 * agents send commands before answering). */
#define MAX_EARLY_UPDATES 256

struct _AcpSession
{
  GObject          parent_instance;

  AcpAgent        *agent;
  char            *cwd;
  char           **additional_directories; /* never NULL */
  char            *session_id;
  AcpSessionState  state;
  GError          *error;
  AcpTranscript   *transcript;

  char            *title;
  char            *updated_at;
  JsonObject      *modes;
  char            *current_mode_id;
  JsonArray       *config_options;
  JsonArray       *available_commands;
  JsonObject      *usage;
  guint            replay_count;
  guint            replay_notify_id; /* "replay-count" is notified once a batch */
  char            *stop_reason;
  gboolean         cancelling;      /* the turn was cancelled; the agent has yet to end it */

  GCancellable    *open_cancellable; /* of the create, load or resume in flight */
  GPtrArray       *permissions;     /* pending AcpPermissionItem */
  GPtrArray       *early_updates;   /* AcpUpdate */

  gulong           update_handler_id;
  gulong           request_handler_id;
  gulong           exited_handler_id;
  gulong           protocol_error_handler_id;
};

G_DEFINE_ENUM_TYPE (AcpSessionState, acp_session_state,
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_NEW, "new"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_CREATING, "creating"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_LOADING, "loading"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_RESUMING, "resuming"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_PROMPTING, "prompting"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_CLOSING, "closing"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_CLOSED, "closed"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_FAILED, "failed"))

G_DEFINE_FINAL_TYPE (AcpSession, acp_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_AGENT,
  PROP_CWD,
  PROP_ADDITIONAL_DIRECTORIES,
  PROP_SESSION_ID,
  PROP_STATE,
  PROP_ERROR,
  PROP_TRANSCRIPT,
  PROP_TITLE,
  PROP_UPDATED_AT,
  PROP_MODES,
  PROP_CURRENT_MODE_ID,
  PROP_CONFIG_OPTIONS,
  PROP_AVAILABLE_COMMANDS,
  PROP_USAGE,
  PROP_REPLAY_COUNT,
  PROP_PENDING_PERMISSIONS,
  PROP_STOP_REASON,
  PROP_CANCELLING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define STATE_BIT(s) (1u << (s))

/* --- small setters --- */

static const char * const state_names[] = {
  "new", "creating", "loading", "resuming", "ready", "prompting", "closing", "closed", "failed",
};

static void
notify_replay_count (AcpSession *self)
{
  g_clear_handle_id (&self->replay_notify_id, g_source_remove);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPLAY_COUNT]);
}

static gboolean
notify_replay_count_cb (gpointer user_data)
{
  AcpSession *self = user_data;

  self->replay_notify_id = 0;
  notify_replay_count (self);

  return G_SOURCE_REMOVE;
}

static void
set_state (AcpSession      *self,
           AcpSessionState  state)
{
  if (self->state == state)
    return;

  /* the count as it was while loading, before the state says it is over */
  if (self->replay_notify_id != 0)
    notify_replay_count (self);

  g_debug ("Session %s: state %s -> %s", self->session_id != NULL ? self->session_id : "(none)",
           state_names[self->state], state_names[state]);
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);

  /* whichever way the turn ended */
  if (state != ACP_SESSION_STATE_PROMPTING && self->cancelling)
    {
      self->cancelling = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLING]);
    }
}

static void
set_string (AcpSession  *self,
            char       **field,
            const char  *value,
            guint        prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
set_array (AcpSession  *self,
           JsonArray  **field,
           JsonArray   *value,
           guint        prop_id)
{
  if (*field == value)
    return;
  if (*field != NULL && value != NULL && json_array_equal (*field, value))
    return;

  g_clear_pointer (field, json_array_unref);
  if (value != NULL)
    *field = json_array_ref (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
set_object (AcpSession  *self,
            JsonObject **field,
            JsonObject  *value,
            guint        prop_id)
{
  if (*field == value)
    return;
  if (*field != NULL && value != NULL && json_object_equal (*field, value))
    return;

  g_clear_pointer (field, json_object_unref);
  if (value != NULL)
    *field = json_object_ref (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

/* --- validation helpers --- */

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
node_is_count (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_INT64 &&
         json_node_get_int (node) >= 0;
}

static gboolean
node_is_number (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_INT64 ||
          json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

static gboolean
object_has_strings (JsonNode    *node,
                    const char  *first,
                    const char  *second)
{
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  object = json_node_get_object (node);
  return node_is_string (json_object_get_member (object, first)) &&
         (second == NULL || node_is_string (json_object_get_member (object, second)));
}

/* The elements of @array that are objects with string members @first and
 * @second (the schema says invalid items are skipped). */
static JsonArray *
filter_objects (JsonArray  *array,
                const char *first,
                const char *second)
{
  JsonArray *filtered = json_array_new ();
  guint n = json_array_get_length (array);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (object_has_strings (element, first, second))
        json_array_add_element (filtered, json_node_ref (element));
      else
        g_debug ("Skipping an invalid element %u (needs string %s%s%s)", i, first,
                 second != NULL ? " and " : "", second != NULL ? second : "");
    }

  return filtered;
}

/* --- session-level updates --- */

/* available_commands_update: the list is replaced; invalid entries are
 * skipped */
gboolean
_acp_session_apply_available_commands (AcpSession  *self,
                                       AcpUpdate   *update,
                                       GError     **error)
{
  JsonNode *node = json_object_get_member (update->object, "availableCommands");
  g_autoptr(JsonArray) filtered = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return _acp_update_invalid (error, update->kind, "availableCommands must be an array");
  filtered = filter_objects (json_node_get_array (node), "name", "description");
  set_array (self, &self->available_commands, filtered, PROP_AVAILABLE_COMMANDS);
  return TRUE;
}

gboolean
_acp_session_apply_current_mode (AcpSession  *self,
                                 AcpUpdate   *update,
                                 GError     **error)
{
  JsonNode *node = json_object_get_member (update->object, "currentModeId");

  if (!node_is_string (node))
    return _acp_update_invalid (error, update->kind, "currentModeId must be a string");
  set_string (self, &self->current_mode_id, json_node_get_string (node), PROP_CURRENT_MODE_ID);
  return TRUE;
}

/* config_option_update: the full list; invalid entries are skipped */
gboolean
_acp_session_apply_config_options (AcpSession  *self,
                                   AcpUpdate   *update,
                                   GError     **error)
{
  JsonNode *node = json_object_get_member (update->object, "configOptions");
  g_autoptr(JsonArray) filtered = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return _acp_update_invalid (error, update->kind, "configOptions must be an array");
  filtered = filter_objects (json_node_get_array (node), "id", "name");
  set_array (self, &self->config_options, filtered, PROP_CONFIG_OPTIONS);
  return TRUE;
}

/* session_info_update: title and updatedAt (absent leaves, null clears) */
gboolean
_acp_session_apply_session_info (AcpSession  *self,
                                 AcpUpdate   *update,
                                 GError     **error)
{
  const char *variant = update->kind;
  JsonNode *title = json_object_get_member (update->object, "title");
  JsonNode *updated_at = json_object_get_member (update->object, "updatedAt");

  if (title != NULL && !JSON_NODE_HOLDS_NULL (title) && !node_is_string (title))
    return _acp_update_invalid (error, variant, "title must be a string or null");
  if (updated_at != NULL && !JSON_NODE_HOLDS_NULL (updated_at) && !node_is_string (updated_at))
    return _acp_update_invalid (error, variant, "updatedAt must be a string or null");

  /* absent: unchanged; null: cleared */
  if (title != NULL)
    set_string (self, &self->title, node_is_string (title) ? json_node_get_string (title) : NULL,
                PROP_TITLE);
  if (updated_at != NULL)
    set_string (self, &self->updated_at,
                node_is_string (updated_at) ? json_node_get_string (updated_at) : NULL,
                PROP_UPDATED_AT);

  return TRUE;
}

gboolean
_acp_session_apply_usage (AcpSession  *self,
                          AcpUpdate   *update,
                          GError     **error)
{
  const char *variant = update->kind;
  JsonNode *used = json_object_get_member (update->object, "used");
  JsonNode *size = json_object_get_member (update->object, "size");
  JsonNode *cost = json_object_get_member (update->object, "cost");
  g_autoptr(JsonObject) usage = NULL;

  if (!node_is_count (used))
    return _acp_update_invalid (error, variant, "used must be a non-negative integer");
  if (!node_is_count (size))
    return _acp_update_invalid (error, variant, "size must be a non-negative integer");
  if (cost != NULL && !JSON_NODE_HOLDS_NULL (cost))
    {
      JsonObject *object;

      if (!JSON_NODE_HOLDS_OBJECT (cost))
        return _acp_update_invalid (error, variant, "cost must be an object or null");
      object = json_node_get_object (cost);
      if (!node_is_number (json_object_get_member (object, "amount")) ||
          !node_is_string (json_object_get_member (object, "currency")))
        return _acp_update_invalid (error, variant, "cost needs a number amount and a string currency");
    }

  usage = json_object_new ();
  json_object_set_int_member (usage, "used", json_node_get_int (used));
  json_object_set_int_member (usage, "size", json_node_get_int (size));
  if (cost != NULL && JSON_NODE_HOLDS_OBJECT (cost))
    {
      JsonObject *object = json_node_get_object (cost);
      JsonObject *copy = json_object_new ();

      json_object_set_double_member (copy, "amount",
                                     json_node_get_double (json_object_get_member (object, "amount")));
      json_object_set_string_member (copy, "currency",
                                     json_object_get_string_member (object, "currency"));
      json_object_set_object_member (usage, "cost", copy);
    }

  set_object (self, &self->usage, usage, PROP_USAGE);

  return TRUE;
}

/* The session-level variants to the session, the others to the transcript */
static gboolean
apply_update (AcpSession  *self,
              AcpUpdate   *update,
              GError     **error)
{
  if (update->error == NULL && update->variant != NULL && update->variant->apply_session != NULL)
    return update->variant->apply_session (self, update, error);

  return _acp_transcript_apply (self->transcript, update, error);
}

/**
 * acp_session_apply_update:
 * @self: an #AcpSession
 * @update: the `update` object of a `session/update` notification
 * @error: return location for an error
 *
 * Applies one update. The session-level variants of the table in
 * acp-update-variants.c change the session; everything else goes to the
 * transcript (acp_transcript_apply_update()).
 *
 * Returns: %FALSE with %ACP_ERROR_INVALID_MESSAGE if @update is malformed;
 *   nothing changed then
 */
gboolean
acp_session_apply_update (AcpSession  *self,
                          JsonObject  *update,
                          GError     **error)
{
  g_autoptr(AcpUpdate) taken = NULL;

  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (update != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  taken = acp_update_new (NULL, update);
  return apply_update (self, taken, error);
}

/* The modes and configOptions of a session/new, load or resume response. */
static void
apply_session_response (AcpSession *self,
                        JsonObject *response)
{
  JsonNode *modes = json_object_get_member (response, "modes");
  JsonNode *options = json_object_get_member (response, "configOptions");
  JsonObject *valid_modes = NULL;

  g_object_freeze_notify (G_OBJECT (self));

  if (modes != NULL && JSON_NODE_HOLDS_OBJECT (modes))
    {
      JsonObject *object = json_node_get_object (modes);
      JsonNode *available = json_object_get_member (object, "availableModes");

      if (node_is_string (json_object_get_member (object, "currentModeId")) &&
          available != NULL && JSON_NODE_HOLDS_ARRAY (available))
        {
          valid_modes = object;
          set_string (self, &self->current_mode_id,
                      json_object_get_string_member (object, "currentModeId"),
                      PROP_CURRENT_MODE_ID);
        }
      else
        {
          g_debug ("Ignoring malformed modes in a session response");
        }
    }

  if (options != NULL && JSON_NODE_HOLDS_ARRAY (options))
    {
      g_autoptr(JsonArray) filtered = filter_objects (json_node_get_array (options), "id", "name");

      /* Config options supersede modes: offer one or the other. */
      set_array (self, &self->config_options, filtered, PROP_CONFIG_OPTIONS);
      set_object (self, &self->modes, NULL, PROP_MODES);
    }
  else
    {
      set_object (self, &self->modes, valid_modes, PROP_MODES);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

/* --- permissions --- */

static void
permission_state_cb (AcpPermissionItem *item,
                     GParamSpec        *pspec,
                     AcpSession        *self)
{
  if (acp_permission_item_get_state (item) == ACP_PERMISSION_STATE_PENDING)
    return;

  g_signal_handlers_disconnect_by_data (item, self);
  if (g_ptr_array_remove (self->permissions, item))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING_PERMISSIONS]);
}

static void
cancel_pending_permissions (AcpSession *self)
{
  g_autoptr(GPtrArray) pending = NULL;

  if (self->permissions->len == 0)
    return;

  /* Answering removes items from the list: work on a copy. */
  pending = g_ptr_array_copy (self->permissions, (GCopyFunc) g_object_ref, NULL);
  g_ptr_array_set_free_func (pending, g_object_unref);
  for (guint i = 0; i < pending->len; i++)
    acp_permission_item_cancel (g_ptr_array_index (pending, i));
}

/* Nothing is running anymore (the turn ended or was cancelled, the agent is
 * gone, the session closes): no answer is awaited, no tool call runs. */
static void
stop_turn (AcpSession *self)
{
  cancel_pending_permissions (self);
  acp_transcript_stop_tool_calls (self->transcript);
}

static gboolean
is_live (AcpSessionState state)
{
  return state == ACP_SESSION_STATE_LOADING ||
         state == ACP_SESSION_STATE_RESUMING ||
         state == ACP_SESSION_STATE_READY ||
         state == ACP_SESSION_STATE_PROMPTING;
}

static gboolean
agent_request_cb (AcpAgent           *agent,
                  const char         *session_id,
                  AcpIncomingRequest *request,
                  AcpSession         *self)
{
  g_autoptr(AcpPermissionItem) item = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *params;

  if (g_strcmp0 (acp_incoming_request_get_method (request), "session/request_permission") != 0)
    return FALSE;
  if (self->session_id == NULL || g_strcmp0 (session_id, self->session_id) != 0)
    return FALSE;
  if (!is_live (self->state))
    return FALSE;

  params = acp_incoming_request_get_params_object (request);
  if (params == NULL)
    {
      acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS,
                                                "params must be an object");
      return TRUE;
    }

  item = acp_permission_item_new (params, request, &error);
  if (item == NULL)
    {
      g_debug ("Refusing a permission request: %s", error->message);
      acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS, error->message);
      return TRUE;
    }

  /* The tool call first: agents ask about tool calls they never announced. */
  if (acp_transcript_merge_tool_call (self->transcript,
                                      acp_permission_item_get_tool_call (item), &error) == NULL)
    {
      g_debug ("Refusing a permission request: %s", error->message);
      acp_incoming_request_reply_error_literal (request, ACP_ERROR_INVALID_PARAMS, error->message);
      return TRUE;
    }

  g_ptr_array_add (self->permissions, g_object_ref (item));
  g_signal_connect (item, "notify::state", G_CALLBACK (permission_state_cb), self);
  acp_transcript_append (self->transcript, ACP_ITEM (item));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING_PERMISSIONS]);

  return TRUE;
}

/* --- updates --- */

static void
agent_update_cb (AcpAgent   *agent,
                 AcpUpdate  *update,
                 AcpSession *self)
{
  g_autoptr(GError) error = NULL;

  if (self->state == ACP_SESSION_STATE_CREATING && self->session_id == NULL)
    {
      if (self->early_updates->len < MAX_EARLY_UPDATES)
        g_ptr_array_add (self->early_updates, acp_update_ref (update));
      return;
    }

  if (self->session_id == NULL || g_strcmp0 (update->session_id, self->session_id) != 0)
    return;
  if (!is_live (self->state) && self->state != ACP_SESSION_STATE_CLOSING)
    return;
  /* A cancelled load ends in a later main loop iteration: stop at once. */
  if (self->open_cancellable != NULL && g_cancellable_is_cancelled (self->open_cancellable))
    return;

  /* counted at once, told once a batch (with the transcript's flush): a
   * replay has hundreds of thousands of updates */
  if (self->state == ACP_SESSION_STATE_LOADING)
    {
      self->replay_count += update->n_notifications;
      if (self->replay_notify_id == 0)
        self->replay_notify_id = g_idle_add_full (ACP_TRANSCRIPT_FLUSH_PRIORITY,
                                                  notify_replay_count_cb, self, NULL);
    }

  /* the transcript flushes when the loop gets a turn: the connection
   * yields to the loop during a flood, so a replay shows as it comes */
  if (!apply_update (self, update, &error))
    g_debug ("Session %s: %s", self->session_id, error->message);
}

static void
apply_early_updates (AcpSession *self)
{
  g_autoptr(GPtrArray) early = g_steal_pointer (&self->early_updates);

  self->early_updates = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_update_unref);

  for (guint i = 0; i < early->len; i++)
    {
      AcpUpdate *update = g_ptr_array_index (early, i);

      if (g_strcmp0 (update->session_id, self->session_id) == 0)
        agent_update_cb (self->agent, update, self);
    }
}

/* --- failure --- */

static void
fail (AcpSession   *self,
      const GError *error)
{
  g_autofree char *tail = NULL;

  if (self->state == ACP_SESSION_STATE_CLOSED || self->state == ACP_SESSION_STATE_FAILED)
    return;

  g_clear_error (&self->error);
  if (error != NULL)
    self->error = g_error_copy (error);
  else
    self->error = g_error_new_literal (ACP_ERROR, ACP_ERROR_AGENT_EXITED, _("The agent exited"));

  stop_turn (self);
  g_ptr_array_set_size (self->early_updates, 0);

  if (acp_agent_get_stop_requested (self->agent))
    {
      /* stopped on purpose (a turn it did not end): no fault to report */
      acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_INFO,
                                    _("The agent was stopped"),
                                    _("Write to start it again and open the session again."), NULL);
    }
  else
    {
      tail = acp_agent_dup_stderr_tail (self->agent);
      if (tail != NULL && *tail == '\0')
        g_clear_pointer (&tail, g_free);
      acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_ERROR,
                                    _("The agent stopped"), self->error->message, tail);
    }
  acp_transcript_flush (self->transcript);

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  set_state (self, ACP_SESSION_STATE_FAILED);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
agent_exited_cb (AcpAgent   *agent,
                 AcpSession *self)
{
  fail (self, acp_agent_get_exit_error (agent));
}

/* A message too long to be read was skipped: nobody knows which session it
 * was for, so every live session of the agent says that something may be
 * missing, rather than none. */
static void
agent_protocol_error_cb (AcpAgent     *agent,
                         const GError *error,
                         AcpSession   *self)
{
  gsize limit;
  g_autofree char *size = NULL;
  g_autofree char *body = NULL;

  if (!g_error_matches (error, ACP_ERROR, ACP_ERROR_LINE_TOO_LONG) || !is_live (self->state))
    return;

  limit = acp_connection_get_max_line_length (acp_agent_get_connection (agent));
  size = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
  /* Translators: %s is a size such as “64.0 MiB” */
  body = g_strdup_printf (_("The agent sent a message larger than %s. It was skipped: part of "
                            "an answer, a tool call or an update may be missing here."), size);
  acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_WARNING,
                                _("A message from the agent was too long to be read"),
                                body, NULL);
}

/* After a call failed: if the agent is gone, the session failed. */
static gboolean
check_agent_gone (AcpSession *self)
{
  if (self->state == ACP_SESSION_STATE_FAILED)
    return TRUE;
  if (acp_agent_get_state (self->agent) != ACP_AGENT_STATE_EXITED)
    return FALSE;

  fail (self, acp_agent_get_exit_error (self->agent));
  return TRUE;
}

/* The error for an operation that cannot run (or went on) in this state. */
static GError *
state_error (AcpSession *self)
{
  switch (self->state)
    {
    case ACP_SESSION_STATE_FAILED:
      return g_error_copy (self->error);

    case ACP_SESSION_STATE_CLOSING:
    case ACP_SESSION_STATE_CLOSED:
      return g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED, _("The session is closed"));

    case ACP_SESSION_STATE_NEW:
      return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                                  _("The session is not open"));

    case ACP_SESSION_STATE_READY:
      return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, _("The session is already open"));

    case ACP_SESSION_STATE_CREATING:
    case ACP_SESSION_STATE_LOADING:
    case ACP_SESSION_STATE_RESUMING:
    case ACP_SESSION_STATE_PROMPTING:
    default:
      return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_BUSY, _("The session is busy"));
    }
}

static gboolean
check_state (AcpSession *self,
             guint       allowed,
             GTask      *task)
{
  if ((allowed & STATE_BIT (self->state)) != 0)
    return TRUE;

  g_task_return_error (task, state_error (self));
  return FALSE;
}

/* --- GObject --- */

static void
disconnect_agent (AcpSession *self)
{
  if (self->agent == NULL)
    return;

  g_clear_signal_handler (&self->update_handler_id, self->agent);
  g_clear_signal_handler (&self->request_handler_id, self->agent);
  g_clear_signal_handler (&self->exited_handler_id, self->agent);
  g_clear_signal_handler (&self->protocol_error_handler_id, self->agent);
}

static void
acp_session_constructed (GObject *object)
{
  AcpSession *self = (AcpSession *)object;

  G_OBJECT_CLASS (acp_session_parent_class)->constructed (object);

  g_assert (ACP_IS_AGENT (self->agent));

  self->update_handler_id =
    g_signal_connect (self->agent, "update", G_CALLBACK (agent_update_cb), self);
  self->request_handler_id =
    g_signal_connect (self->agent, "request", G_CALLBACK (agent_request_cb), self);
  self->exited_handler_id =
    g_signal_connect (self->agent, "exited", G_CALLBACK (agent_exited_cb), self);
  self->protocol_error_handler_id =
    g_signal_connect (self->agent, "protocol-error", G_CALLBACK (agent_protocol_error_cb), self);

  if (acp_agent_get_state (self->agent) == ACP_AGENT_STATE_EXITED)
    fail (self, acp_agent_get_exit_error (self->agent));
}

static void
acp_session_dispose (GObject *object)
{
  AcpSession *self = (AcpSession *)object;

  disconnect_agent (self);
  g_clear_handle_id (&self->replay_notify_id, g_source_remove);

  /* Nobody can answer them anymore. */
  for (guint i = 0; i < self->permissions->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->permissions, i), self);
  for (guint i = 0; i < self->permissions->len; i++)
    acp_permission_item_cancel (g_ptr_array_index (self->permissions, i));
  g_ptr_array_set_size (self->permissions, 0);

  g_ptr_array_set_size (self->early_updates, 0);
  g_clear_object (&self->open_cancellable);
  g_clear_object (&self->transcript);
  g_clear_object (&self->agent);

  G_OBJECT_CLASS (acp_session_parent_class)->dispose (object);
}

static void
acp_session_finalize (GObject *object)
{
  AcpSession *self = (AcpSession *)object;

  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->additional_directories, g_strfreev);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_error (&self->error);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->updated_at, g_free);
  g_clear_pointer (&self->modes, json_object_unref);
  g_clear_pointer (&self->current_mode_id, g_free);
  g_clear_pointer (&self->config_options, json_array_unref);
  g_clear_pointer (&self->available_commands, json_array_unref);
  g_clear_pointer (&self->usage, json_object_unref);
  g_clear_pointer (&self->stop_reason, g_free);
  g_clear_pointer (&self->permissions, g_ptr_array_unref);
  g_clear_pointer (&self->early_updates, g_ptr_array_unref);

  G_OBJECT_CLASS (acp_session_parent_class)->finalize (object);
}

static void
acp_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  AcpSession *self = ACP_SESSION (object);

  switch (prop_id)
    {
    case PROP_AGENT:
      g_value_set_object (value, self->agent);
      break;

    case PROP_CWD:
      g_value_set_string (value, self->cwd);
      break;

    case PROP_ADDITIONAL_DIRECTORIES:
      g_value_set_boxed (value, self->additional_directories);
      break;

    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;

    case PROP_TRANSCRIPT:
      g_value_set_object (value, self->transcript);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_UPDATED_AT:
      g_value_set_string (value, self->updated_at);
      break;

    case PROP_MODES:
      g_value_set_boxed (value, self->modes);
      break;

    case PROP_CURRENT_MODE_ID:
      g_value_set_string (value, self->current_mode_id);
      break;

    case PROP_CONFIG_OPTIONS:
      g_value_set_boxed (value, self->config_options);
      break;

    case PROP_AVAILABLE_COMMANDS:
      g_value_set_boxed (value, self->available_commands);
      break;

    case PROP_USAGE:
      g_value_set_boxed (value, self->usage);
      break;

    case PROP_REPLAY_COUNT:
      g_value_set_uint (value, self->replay_count);
      break;

    case PROP_PENDING_PERMISSIONS:
      g_value_set_uint (value, self->permissions->len);
      break;

    case PROP_STOP_REASON:
      g_value_set_string (value, self->stop_reason);
      break;

    case PROP_CANCELLING:
      g_value_set_boolean (value, self->cancelling);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_session_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  AcpSession *self = ACP_SESSION (object);

  switch (prop_id)
    {
    case PROP_AGENT:
      self->agent = g_value_dup_object (value);
      break;

    case PROP_CWD:
      self->cwd = g_value_dup_string (value);
      break;

    case PROP_ADDITIONAL_DIRECTORIES:
      acp_session_set_additional_directories (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_session_class_init (AcpSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->constructed = acp_session_constructed;
  object_class->dispose = acp_session_dispose;
  object_class->finalize = acp_session_finalize;
  object_class->get_property = acp_session_get_property;
  object_class->set_property = acp_session_set_property;

  properties[PROP_AGENT] =
    g_param_spec_object ("agent", NULL, NULL,
                         ACP_TYPE_AGENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CWD] =
    g_param_spec_string ("cwd", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AcpSession:additional-directories:
   *
   * Folders the session may use besides its cwd (absolute paths), sent as
   * `additionalDirectories` by the next create, load or resume. Never %NULL.
   */
  properties[PROP_ADDITIONAL_DIRECTORIES] =
    g_param_spec_boxed ("additional-directories", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL, NULL, ro);

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       ACP_TYPE_SESSION_STATE, ACP_SESSION_STATE_NEW, ro);

  properties[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, ro);

  properties[PROP_TRANSCRIPT] =
    g_param_spec_object ("transcript", NULL, NULL, ACP_TYPE_TRANSCRIPT, ro);

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, ro);

  properties[PROP_UPDATED_AT] =
    g_param_spec_string ("updated-at", NULL, NULL, NULL, ro);

  properties[PROP_MODES] =
    g_param_spec_boxed ("modes", NULL, NULL, JSON_TYPE_OBJECT, ro);

  properties[PROP_CURRENT_MODE_ID] =
    g_param_spec_string ("current-mode-id", NULL, NULL, NULL, ro);

  properties[PROP_CONFIG_OPTIONS] =
    g_param_spec_boxed ("config-options", NULL, NULL, JSON_TYPE_ARRAY, ro);

  properties[PROP_AVAILABLE_COMMANDS] =
    g_param_spec_boxed ("available-commands", NULL, NULL, JSON_TYPE_ARRAY, ro);

  properties[PROP_USAGE] =
    g_param_spec_boxed ("usage", NULL, NULL, JSON_TYPE_OBJECT, ro);

  properties[PROP_REPLAY_COUNT] =
    g_param_spec_uint ("replay-count", NULL, NULL, 0, G_MAXUINT, 0, ro);

  properties[PROP_PENDING_PERMISSIONS] =
    g_param_spec_uint ("pending-permissions", NULL, NULL, 0, G_MAXUINT, 0, ro);

  properties[PROP_STOP_REASON] =
    g_param_spec_string ("stop-reason", NULL, NULL, NULL, ro);

  /**
   * AcpSession:cancelling:
   *
   * The running turn was cancelled and the agent has not ended it yet: it
   * should soon answer the prompt with the stop reason "cancelled". An agent
   * that never does can only be stopped.
   */
  properties[PROP_CANCELLING] =
    g_param_spec_boolean ("cancelling", NULL, NULL, FALSE, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_session_init (AcpSession *self)
{
  self->state = ACP_SESSION_STATE_NEW;
  self->additional_directories = g_new0 (char *, 1);
  self->transcript = acp_transcript_new ();
  self->available_commands = json_array_new ();
  self->permissions = g_ptr_array_new_with_free_func (g_object_unref);
  self->early_updates = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_update_unref);
}

/**
 * acp_session_new:
 * @agent: a started #AcpAgent
 * @cwd: the absolute working directory of the session
 *
 * Returns: (transfer full): a session in state NEW; create, load or resume
 *   it next
 */
AcpSession *
acp_session_new (AcpAgent   *agent,
                 const char *cwd)
{
  g_return_val_if_fail (ACP_IS_AGENT (agent), NULL);
  g_return_val_if_fail (cwd != NULL, NULL);

  return g_object_new (ACP_TYPE_SESSION,
                       "agent", agent,
                       "cwd", cwd,
                       NULL);
}

/* --- getters --- */

/**
 * acp_session_get_agent:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the agent
 */
AcpAgent *
acp_session_get_agent (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->agent;
}

const char *
acp_session_get_cwd (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->cwd;
}

/**
 * acp_session_get_additional_directories:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the folders the session may use besides its
 *   cwd; empty, never %NULL
 */
const char * const *
acp_session_get_additional_directories (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return (const char * const *) self->additional_directories;
}

/**
 * acp_session_set_additional_directories:
 * @self: an #AcpSession
 * @directories: (nullable) (array zero-terminated=1): absolute paths
 *
 * Sets the folders the next create, load or resume sends as
 * `additionalDirectories` (nothing is sent when there are none). An agent
 * that does not advertise `sessionCapabilities.additionalDirectories` makes
 * those calls fail locally with %ACP_ERROR_NOT_SUPPORTED, and a relative
 * path with %ACP_ERROR_INVALID_ARGUMENT.
 */
void
acp_session_set_additional_directories (AcpSession         *self,
                                        const char * const *directories)
{
  static const char * const none[] = { NULL };

  g_return_if_fail (ACP_IS_SESSION (self));

  if (directories == NULL)
    directories = none;
  if (g_strv_equal ((const char * const *) self->additional_directories, directories))
    return;

  g_strfreev (self->additional_directories);
  self->additional_directories = g_strdupv ((char **) directories);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ADDITIONAL_DIRECTORIES]);
}

/**
 * acp_session_get_session_id:
 * @self: an #AcpSession
 *
 * Returns: (nullable): the agent's id of the session
 */
const char *
acp_session_get_session_id (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->session_id;
}

AcpSessionState
acp_session_get_state (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), ACP_SESSION_STATE_FAILED);

  return self->state;
}

/**
 * acp_session_get_error:
 * @self: an #AcpSession
 *
 * Returns: (nullable): why the session FAILED
 */
const GError *
acp_session_get_error (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->error;
}

/**
 * acp_session_get_transcript:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the transcript
 */
AcpTranscript *
acp_session_get_transcript (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->transcript;
}

const char *
acp_session_get_title (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->title;
}

const char *
acp_session_get_updated_at (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->updated_at;
}

/**
 * acp_session_get_modes:
 * @self: an #AcpSession
 *
 * The SessionModeState of the last session response, unless the agent also
 * sent configOptions (which supersede modes). Its currentModeId is not kept
 * up to date: acp_session_get_current_mode_id() is.
 *
 * Returns: (transfer none) (nullable): the modes
 */
JsonObject *
acp_session_get_modes (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->modes;
}

const char *
acp_session_get_current_mode_id (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->current_mode_id;
}

/**
 * acp_session_get_config_options:
 * @self: an #AcpSession
 *
 * Returns: (transfer none) (nullable): the SessionConfigOption objects
 */
JsonArray *
acp_session_get_config_options (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->config_options;
}

/**
 * acp_session_get_available_commands:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the AvailableCommand objects, never %NULL
 */
JsonArray *
acp_session_get_available_commands (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->available_commands;
}

/**
 * acp_session_get_usage:
 * @self: an #AcpSession
 *
 * Returns: (transfer none) (nullable): {used, size, cost?{amount, currency}}
 *   from the last usage_update
 */
JsonObject *
acp_session_get_usage (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->usage;
}

/**
 * acp_session_get_context_usage:
 * @self: an #AcpSession
 * @used: (out) (optional): tokens used
 * @size: (out) (optional): size of the context window
 *
 * Returns: whether the agent reported usage
 */
gboolean
acp_session_get_context_usage (AcpSession *self,
                               guint64    *used,
                               guint64    *size)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);

  if (used != NULL)
    *used = self->usage != NULL ? (guint64) json_object_get_int_member (self->usage, "used") : 0;
  if (size != NULL)
    *size = self->usage != NULL ? (guint64) json_object_get_int_member (self->usage, "size") : 0;

  return self->usage != NULL;
}

/**
 * acp_session_get_cost:
 * @self: an #AcpSession
 * @amount: (out) (optional): the cost so far
 * @currency: (out) (optional) (transfer none): its currency (ISO 4217)
 *
 * Returns: whether the agent reported a cost
 */
gboolean
acp_session_get_cost (AcpSession  *self,
                      double      *amount,
                      const char **currency)
{
  JsonObject *cost = NULL;

  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);

  if (self->usage != NULL && json_object_has_member (self->usage, "cost"))
    cost = json_object_get_object_member (self->usage, "cost");

  if (amount != NULL)
    *amount = cost != NULL ? json_object_get_double_member (cost, "amount") : 0.0;
  if (currency != NULL)
    *currency = cost != NULL ? json_object_get_string_member (cost, "currency") : NULL;

  return cost != NULL;
}

guint
acp_session_get_replay_count (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), 0);

  return self->replay_count;
}

guint
acp_session_get_pending_permissions (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), 0);

  return self->permissions->len;
}

gboolean
acp_session_get_cancelling (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);

  return self->cancelling;
}

const char *
acp_session_get_stop_reason (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->stop_reason;
}

/* --- create, fork, load, resume --- */

typedef JsonObject *(*OpenFinishFunc) (AcpAgent      *agent,
                                       GAsyncResult  *result,
                                       GError       **error);

/* The end of a session/new or a session/fork: a new session id. */
static void
finish_create (GTask          *task,
               GAsyncResult   *result,
               OpenFinishFunc  finish)
{
  AcpSession *self = g_task_get_source_object (task);
  g_autoptr(JsonObject) response = NULL;
  GError *error = NULL;

  response = finish (self->agent, result, &error);
  g_clear_object (&self->open_cancellable);

  if (self->state != ACP_SESSION_STATE_CREATING)
    {
      g_clear_error (&error);
      g_ptr_array_set_size (self->early_updates, 0);
      g_task_return_error (task, state_error (self));
      return;
    }

  if (response == NULL)
    {
      g_ptr_array_set_size (self->early_updates, 0);
      if (check_agent_gone (self))
        {
          g_clear_error (&error);
          g_task_return_error (task, state_error (self));
          return;
        }
      set_state (self, ACP_SESSION_STATE_NEW);
      g_task_return_error (task, error);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->session_id, json_object_get_string_member (response, "sessionId"),
              PROP_SESSION_ID);
  apply_session_response (self, response);
  set_state (self, ACP_SESSION_STATE_READY);
  g_object_thaw_notify (G_OBJECT (self));

  apply_early_updates (self);

  g_task_return_boolean (task, TRUE);
}

static void
create_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_create (task, result, acp_agent_new_session_finish);
}

/* CREATING, without an id until the answer; NULL (the task is answered)
 * when the session is not NEW. */
static GTask *
begin_create (AcpSession          *self,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data,
              gpointer             source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  if (!check_state (self, STATE_BIT (ACP_SESSION_STATE_NEW), task))
    return NULL;

  /* The id comes with the answer; until then updates for unknown ids are
   * kept (see agent_update_cb). */
  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->session_id, NULL, PROP_SESSION_ID);
  set_state (self, ACP_SESSION_STATE_CREATING);
  g_object_thaw_notify (G_OBJECT (self));

  g_set_object (&self->open_cancellable, cancellable);

  return g_steal_pointer (&task);
}

/**
 * acp_session_create_async:
 * @self: an #AcpSession in state NEW
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Creates the session on the agent (session/new): CREATING, then READY
 * with the new session id, or NEW again on failure.
 */
void
acp_session_create_async (AcpSession          *self,
                          GPtrArray           *mcp_servers,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_create (self, cancellable, callback, user_data, acp_session_create_async);
  if (task == NULL)
    return;

  acp_agent_new_session_async (self->agent, self->cwd, mcp_servers,
                               (const char * const *) self->additional_directories, cancellable,
                               create_cb, g_steal_pointer (&task));
}

gboolean
acp_session_create_finish (AcpSession    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_create_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
fork_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_create (task, result, acp_agent_fork_session_finish);
}

/**
 * acp_session_fork_async:
 * @self: an #AcpSession in state NEW
 * @source_id: the id of the session (of the same agent) to fork
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Creates the session as a fork of @source_id (session/fork, unstable): the
 * agent starts it from that session's context and gives it a new id.
 * CREATING, then READY with the new id, or NEW again on failure; nothing is
 * replayed, so the transcript keeps what it had. Fails locally with
 * %ACP_ERROR_NOT_SUPPORTED when the agent did not advertise
 * sessionCapabilities.fork.
 */
void
acp_session_fork_async (AcpSession          *self,
                        const char          *source_id,
                        GPtrArray           *mcp_servers,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (source_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_create (self, cancellable, callback, user_data, acp_session_fork_async);
  if (task == NULL)
    return;

  acp_agent_fork_session_async (self->agent, source_id, self->cwd, mcp_servers,
                                (const char * const *) self->additional_directories, cancellable,
                                fork_cb, g_steal_pointer (&task));
}

gboolean
acp_session_fork_finish (AcpSession    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_fork_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The end of a load or a resume. */
static void
finish_open (GTask           *task,
             GAsyncResult    *result,
             OpenFinishFunc   finish,
             AcpSessionState  expected)
{
  AcpSession *self = g_task_get_source_object (task);
  g_autoptr(JsonObject) response = NULL;
  GError *error = NULL;

  response = finish (self->agent, result, &error);
  g_clear_object (&self->open_cancellable);

  if (self->state != expected)
    {
      g_clear_error (&error);
      g_task_return_error (task, state_error (self));
      return;
    }

  /* a replayed history is over: nothing of it runs */
  acp_transcript_stop_tool_calls (self->transcript);
  acp_transcript_flush (self->transcript);
  /* the last count while still LOADING */
  if (self->replay_notify_id != 0)
    notify_replay_count (self);

  if (response == NULL)
    {
      if (check_agent_gone (self))
        {
          g_clear_error (&error);
          g_task_return_error (task, state_error (self));
          return;
        }
      set_state (self, ACP_SESSION_STATE_NEW);
      g_task_return_error (task, error);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  apply_session_response (self, response);
  set_state (self, ACP_SESSION_STATE_READY);
  g_object_thaw_notify (G_OBJECT (self));

  g_task_return_boolean (task, TRUE);
}

/* What a load and a resume share: the task, the state check, the id and the
 * new state; a load also starts from an empty transcript and counter.
 * Returns NULL (the task is answered) when the session is not NEW. */
static GTask *
begin_open (AcpSession          *self,
            const char          *session_id,
            AcpSessionState      state,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data,
            gpointer             source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  if (!check_state (self, STATE_BIT (ACP_SESSION_STATE_NEW), task))
    return NULL;

  if (state == ACP_SESSION_STATE_LOADING)
    acp_transcript_clear (self->transcript);

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->session_id, session_id, PROP_SESSION_ID);
  if (state == ACP_SESSION_STATE_LOADING && self->replay_count != 0)
    {
      self->replay_count = 0;
      notify_replay_count (self);
    }
  set_state (self, state);
  g_object_thaw_notify (G_OBJECT (self));

  g_set_object (&self->open_cancellable, cancellable);

  return g_steal_pointer (&task);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_open (task, result, acp_agent_load_session_finish, ACP_SESSION_STATE_LOADING);
}

/**
 * acp_session_load_async:
 * @self: an #AcpSession in state NEW
 * @session_id: the id of a session the agent knows
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Loads a session (session/load): the transcript is cleared, then fills as
 * the agent replays the history (state LOADING, "replay-count" counting the
 * updates, notified once a batch and before the state changes); READY when the agent answers, or NEW again on failure. Fails
 * locally with %ACP_ERROR_NOT_SUPPORTED if the agent cannot load sessions.
 */
void
acp_session_load_async (AcpSession          *self,
                        const char          *session_id,
                        GPtrArray           *mcp_servers,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_open (self, session_id, ACP_SESSION_STATE_LOADING, cancellable, callback, user_data,
                     acp_session_load_async);
  if (task == NULL)
    return;

  acp_agent_load_session_async (self->agent, session_id, self->cwd, mcp_servers,
                                (const char * const *) self->additional_directories,
                                cancellable, load_cb, g_steal_pointer (&task));
}

gboolean
acp_session_load_finish (AcpSession    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_load_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
resume_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  finish_open (task, result, acp_agent_resume_session_finish, ACP_SESSION_STATE_RESUMING);
}

/**
 * acp_session_resume_async:
 * @self: an #AcpSession in state NEW
 * @session_id: the id of a session the agent knows
 * @mcp_servers: (element-type AcpMcpServer) (nullable): MCP servers for it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Reopens a session without replaying its history (session/resume):
 * RESUMING, then READY, or NEW again on failure. Fails locally with
 * %ACP_ERROR_NOT_SUPPORTED if the agent cannot resume sessions.
 */
void
acp_session_resume_async (AcpSession          *self,
                          const char          *session_id,
                          GPtrArray           *mcp_servers,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = begin_open (self, session_id, ACP_SESSION_STATE_RESUMING, cancellable, callback, user_data,
                     acp_session_resume_async);
  if (task == NULL)
    return;

  acp_agent_resume_session_async (self->agent, session_id, self->cwd, mcp_servers,
                                  (const char * const *) self->additional_directories,
                                  cancellable, resume_cb, g_steal_pointer (&task));
}

gboolean
acp_session_resume_finish (AcpSession    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_resume_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- prompt and cancel --- */

typedef struct
{
  GCancellable *cancellable;
  gulong        cancelled_id;
} PromptData;

static void
prompt_data_free (PromptData *data)
{
  if (data->cancellable != NULL)
    g_clear_signal_handler (&data->cancelled_id, data->cancellable);
  g_clear_object (&data->cancellable);
  g_free (data);
}

static void
prompt_cancelled_cb (GCancellable *cancellable,
                     AcpSession   *self)
{
  g_autoptr(GError) error = NULL;

  if (!acp_session_cancel (self, &error))
    g_debug ("Could not cancel the turn: %s", error->message);
}

static void
prompt_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  PromptData *data = g_task_get_task_data (task);
  g_autofree char *stop_reason = NULL;
  GError *error = NULL;

  if (data->cancellable != NULL)
    g_clear_signal_handler (&data->cancelled_id, data->cancellable);

  stop_reason = acp_agent_prompt_finish (ACP_AGENT (object), result, &error);

  if (stop_reason == NULL)
    {
      if (check_agent_gone (self))
        {
          g_clear_error (&error);
          g_task_return_error (task, state_error (self));
          return;
        }
      if (self->state == ACP_SESSION_STATE_PROMPTING)
        {
          g_autofree char *details = NULL;
          JsonNode *data_node = acp_error_get_data (error);

          if (data_node != NULL)
            details = json_to_string (data_node, TRUE);
          stop_turn (self);
          acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_ERROR,
                                        _("The turn failed"), error->message, details);
          acp_transcript_flush (self->transcript);
          set_state (self, ACP_SESSION_STATE_READY);
        }
      g_task_return_error (task, error);
      return;
    }

  set_string (self, &self->stop_reason, stop_reason, PROP_STOP_REASON);
  if (self->state == ACP_SESSION_STATE_PROMPTING)
    {
      /* The turn is over: nobody waits for these answers anymore. */
      stop_turn (self);
      acp_transcript_flush (self->transcript);
      set_state (self, ACP_SESSION_STATE_READY);
    }

  g_task_return_pointer (task, g_steal_pointer (&stop_reason), g_free);
}

/**
 * acp_session_prompt_async:
 * @self: an #AcpSession in state READY
 * @prompt: the ContentBlock objects to send
 * @cancellable: (nullable): cancelling it cancels the turn (session/cancel)
 * @callback: called when the turn ends
 * @user_data: data for @callback
 *
 * Runs a prompt turn: a USER message with the prompt is added to the
 * transcript, the state is PROMPTING until the agent answers, then READY
 * and "stop-reason" holds the answer. Cancelling @cancellable sends
 * session/cancel; the call still completes when the agent ends the turn,
 * then with %G_IO_ERROR_CANCELLED. A failed turn (but not a dead agent)
 * leaves an error notice in the transcript.
 */
void
acp_session_prompt_async (AcpSession          *self,
                          JsonArray           *prompt,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PromptData *data;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (prompt != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_prompt_async);

  if (g_task_return_error_if_cancelled (task))
    return;
  if (!check_state (self, STATE_BIT (ACP_SESSION_STATE_READY), task))
    return;

  data = g_new0 (PromptData, 1);
  g_task_set_task_data (task, data, (GDestroyNotify) prompt_data_free);

  acp_transcript_append_prompt (self->transcript, prompt);

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->stop_reason, NULL, PROP_STOP_REASON);
  set_state (self, ACP_SESSION_STATE_PROMPTING);
  g_object_thaw_notify (G_OBJECT (self));

  if (cancellable != NULL)
    {
      data->cancellable = g_object_ref (cancellable);
      data->cancelled_id = g_signal_connect_object (cancellable, "cancelled",
                                                    G_CALLBACK (prompt_cancelled_cb), self, 0);
    }

  /* Not @cancellable: a cancelled turn still ends with the agent's answer. */
  acp_agent_prompt_async (self->agent, self->session_id, prompt, NULL,
                          prompt_cb, g_steal_pointer (&task));
}

/**
 * acp_session_prompt_finish:
 * @self: an #AcpSession
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the stop reason ("end_turn", "cancelled", ...)
 */
char *
acp_session_prompt_finish (AcpSession    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_prompt_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * acp_session_cancel:
 * @self: an #AcpSession
 * @error: return location for an error
 *
 * Cancels the running turn: sends session/cancel (only while PROMPTING),
 * then answers every pending permission request with the "cancelled"
 * outcome and marks the tool calls not finished as stopped, without waiting
 * for the agent. The turn ends when the agent answers the prompt, normally
 * with the stop reason "cancelled".
 *
 * Returns: %FALSE if session/cancel could not be sent (the permissions are
 *   cancelled anyway)
 */
gboolean
acp_session_cancel (AcpSession  *self,
                    GError     **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->state == ACP_SESSION_STATE_PROMPTING)
    {
      ok = acp_agent_cancel (self->agent, self->session_id, error);
      if (!self->cancelling)
        {
          self->cancelling = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLING]);
        }
    }

  stop_turn (self);

  return ok;
}

/* --- close --- */

static void
finish_close (AcpSession *self)
{
  disconnect_agent (self);
  stop_turn (self);
  g_ptr_array_set_size (self->early_updates, 0);
  acp_transcript_flush (self->transcript);
  set_state (self, ACP_SESSION_STATE_CLOSED);
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!acp_agent_close_session_finish (ACP_AGENT (object), result, &error))
    g_debug ("session/close failed: %s", error->message);

  /* Closed for us whatever the agent said (a dead agent has failed it). */
  if (self->state == ACP_SESSION_STATE_CLOSING)
    finish_close (self);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * acp_session_close_async:
 * @self: an #AcpSession
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Closes the session: with session/close when the agent advertises it
 * (CLOSING, then CLOSED whatever the answer; an error is still returned),
 * else locally at once (a running turn is cancelled with session/cancel).
 * Pending permissions are cancelled and the session stops listening to the
 * agent. Closing a CLOSED or FAILED session does nothing.
 */
void
acp_session_close_async (AcpSession          *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gboolean can_close;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_close_async);

  if (self->state == ACP_SESSION_STATE_CLOSED || self->state == ACP_SESSION_STATE_FAILED)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (self->state == ACP_SESSION_STATE_CLOSING)
    {
      g_task_return_error (task, state_error (self));
      return;
    }

  can_close = (self->state == ACP_SESSION_STATE_READY ||
               self->state == ACP_SESSION_STATE_PROMPTING) &&
              acp_agent_has_capability (self->agent, ACP_AGENT_CAP_SESSION_CLOSE);

  if (!can_close)
    {
      if (self->state == ACP_SESSION_STATE_PROMPTING)
        {
          g_autoptr(GError) error = NULL;

          if (!acp_session_cancel (self, &error))
            g_debug ("Could not cancel the turn: %s", error->message);
        }
      finish_close (self);
      g_task_return_boolean (task, TRUE);
      return;
    }

  stop_turn (self);
  set_state (self, ACP_SESSION_STATE_CLOSING);
  acp_agent_close_session_async (self->agent, self->session_id, cancellable,
                                 close_cb, g_steal_pointer (&task));
}

gboolean
acp_session_close_finish (AcpSession    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_close_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- modes and config options --- */

static void
set_mode_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  const char *mode_id = g_task_get_task_data (task);
  GError *error = NULL;

  if (!acp_agent_set_mode_finish (ACP_AGENT (object), result, &error))
    {
      check_agent_gone (self);
      g_task_return_error (task, error);
      return;
    }

  set_string (self, &self->current_mode_id, mode_id, PROP_CURRENT_MODE_ID);
  g_task_return_boolean (task, TRUE);
}

/**
 * acp_session_set_mode_async:
 * @self: an open #AcpSession
 * @mode_id: the id of one of the available modes
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Switches the mode (session/set_mode); "current-mode-id" follows on
 * success.
 */
void
acp_session_set_mode_async (AcpSession          *self,
                            const char          *mode_id,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (mode_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_set_mode_async);
  g_task_set_task_data (task, g_strdup (mode_id), g_free);

  if (!check_state (self, STATE_BIT (ACP_SESSION_STATE_READY) |
                          STATE_BIT (ACP_SESSION_STATE_PROMPTING), task))
    return;

  acp_agent_set_mode_async (self->agent, self->session_id, mode_id, cancellable,
                            set_mode_cb, g_steal_pointer (&task));
}

gboolean
acp_session_set_mode_finish (AcpSession    *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_set_mode_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
set_config_option_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AcpSession *self = g_task_get_source_object (task);
  g_autoptr(JsonArray) options = NULL;
  g_autoptr(JsonArray) filtered = NULL;
  GError *error = NULL;

  options = acp_agent_set_config_option_finish (ACP_AGENT (object), result, &error);
  if (options == NULL)
    {
      check_agent_gone (self);
      g_task_return_error (task, error);
      return;
    }

  filtered = filter_objects (options, "id", "name");
  set_array (self, &self->config_options, filtered, PROP_CONFIG_OPTIONS);
  g_task_return_boolean (task, TRUE);
}

/**
 * acp_session_set_config_option_async:
 * @self: an open #AcpSession
 * @config_id: the id of a config option
 * @value: a string node (select options) or a boolean node (boolean ones)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Sets a config option (session/set_config_option); "config-options" is
 * replaced by the full state the agent answers.
 */
void
acp_session_set_config_option_async (AcpSession          *self,
                                     const char          *config_id,
                                     JsonNode            *value,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ACP_IS_SESSION (self));
  g_return_if_fail (config_id != NULL);
  g_return_if_fail (value != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, acp_session_set_config_option_async);

  if (!check_state (self, STATE_BIT (ACP_SESSION_STATE_READY) |
                          STATE_BIT (ACP_SESSION_STATE_PROMPTING), task))
    return;

  acp_agent_set_config_option_async (self->agent, self->session_id, config_id, value, cancellable,
                                     set_config_option_cb, g_steal_pointer (&task));
}

gboolean
acp_session_set_config_option_finish (AcpSession    *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == acp_session_set_config_option_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
