/* acp-session-updates.c: what the agent reports about a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every session/update for the session's id is applied as it arrives (during
 * a load too, so the transcript fills live; "replay-count" counts them). The
 * session-level variants of the table in acp-update-variants.c change the
 * session's properties (commands, mode, config options, title, usage); the
 * others go to the transcript. Updates that come while session/new is in
 * flight, before the session has an id, are kept and applied once it has
 * one. The modes and config options of the answers to session/new, load and
 * resume are applied here too.
 */

#include "config.h"

#include "acp-session-private.h"
#include "acp-update-private.h"

/* Updates for an unknown session kept while session/new is in flight (some
 * agents send commands before answering). */
#define MAX_EARLY_UPDATES 256

static gboolean
notify_replay_count_cb (gpointer user_data)
{
  AcpSession *self = user_data;

  self->replay_notify_id = 0;
  _acp_session_notify_replay_count (self);

  return G_SOURCE_REMOVE;
}

/* --- validation helpers --- */

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
  return _acp_update_node_is_string (json_object_get_member (object, first)) &&
         (second == NULL || _acp_update_node_is_string (json_object_get_member (object, second)));
}

/* The elements of @array that are objects with string members @first and
 * @second (the schema says invalid items are skipped). */
JsonArray *
_acp_session_filter_objects (JsonArray  *array,
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
  filtered = _acp_session_filter_objects (json_node_get_array (node), "name", "description");
  _acp_session_set_array (self, &self->available_commands, filtered, PROP_AVAILABLE_COMMANDS);
  return TRUE;
}

gboolean
_acp_session_apply_current_mode (AcpSession  *self,
                                 AcpUpdate   *update,
                                 GError     **error)
{
  JsonNode *node = json_object_get_member (update->object, "currentModeId");

  if (!_acp_update_node_is_string (node))
    return _acp_update_invalid (error, update->kind, "currentModeId must be a string");
  _acp_session_set_string (self, &self->current_mode_id, json_node_get_string (node),
                           PROP_CURRENT_MODE_ID);
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
  filtered = _acp_session_filter_objects (json_node_get_array (node), "id", "name");
  _acp_session_set_array (self, &self->config_options, filtered, PROP_CONFIG_OPTIONS);
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

  if (title != NULL && !JSON_NODE_HOLDS_NULL (title) && !_acp_update_node_is_string (title))
    return _acp_update_invalid (error, variant, "title must be a string or null");
  if (updated_at != NULL && !JSON_NODE_HOLDS_NULL (updated_at) &&
      !_acp_update_node_is_string (updated_at))
    return _acp_update_invalid (error, variant, "updatedAt must be a string or null");

  /* absent: unchanged; null: cleared */
  if (title != NULL)
    _acp_session_set_string (self, &self->title,
                             _acp_update_node_is_string (title) ? json_node_get_string (title)
                                                                : NULL,
                             PROP_TITLE);
  if (updated_at != NULL)
    _acp_session_set_string (self, &self->updated_at,
                             _acp_update_node_is_string (updated_at)
                               ? json_node_get_string (updated_at) : NULL,
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
          !_acp_update_node_is_string (json_object_get_member (object, "currency")))
        return _acp_update_invalid (error, variant,
                                    "cost needs a number amount and a string currency");
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

  _acp_session_set_object (self, &self->usage, usage, PROP_USAGE);

  return TRUE;
}

/* The session-level variants to the session, the others to the transcript */
gboolean
_acp_session_apply (AcpSession  *self,
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
  return _acp_session_apply (self, taken, error);
}

/* The modes and configOptions of a session/new, load or resume response. */
void
_acp_session_apply_response (AcpSession *self,
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

      if (_acp_update_node_is_string (json_object_get_member (object, "currentModeId")) &&
          available != NULL && JSON_NODE_HOLDS_ARRAY (available))
        {
          valid_modes = object;
          _acp_session_set_string (self, &self->current_mode_id,
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
      g_autoptr(JsonArray) filtered = NULL;

      filtered = _acp_session_filter_objects (json_node_get_array (options), "id", "name");

      /* Config options supersede modes: offer one or the other. */
      _acp_session_set_array (self, &self->config_options, filtered, PROP_CONFIG_OPTIONS);
      _acp_session_set_object (self, &self->modes, NULL, PROP_MODES);
    }
  else
    {
      _acp_session_set_object (self, &self->modes, valid_modes, PROP_MODES);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

/* --- updates --- */

void
_acp_session_agent_update_cb (AcpAgent   *agent,
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
  if (!_acp_session_is_live (self->state) && self->state != ACP_SESSION_STATE_CLOSING)
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
  if (!_acp_session_apply (self, update, &error))
    g_debug ("Session %s: %s", self->session_id, error->message);
}

void
_acp_session_apply_early_updates (AcpSession *self)
{
  g_autoptr(GPtrArray) early = g_steal_pointer (&self->early_updates);

  self->early_updates = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_update_unref);

  for (guint i = 0; i < early->len; i++)
    {
      AcpUpdate *update = g_ptr_array_index (early, i);

      if (g_strcmp0 (update->session_id, self->session_id) == 0)
        _acp_session_agent_update_cb (self->agent, update, self);
    }
}
