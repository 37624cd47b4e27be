/* acp-session-updates.c: what the agent reports about a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every session/update for the session's id is applied as it arrives (during
 * a load too, so the transcript fills live; "replay-count" counts them). The
 * session-level variants of the table in acp-update-variants.c change the
 * session's properties and lists (commands, mode, config options, title,
 * usage); the others go to the transcript. Updates that come while
 * session/new is in flight, before the session has an id, are kept and
 * applied once it has one. The modes and config options of the answers to
 * session/new, load and resume are applied here too.
 */

#include "config.h"

#include "acp-json.h"
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

/* --- the session's lists --- */

typedef gpointer (*ItemFromJson) (JsonNode  *node,
                                  GError   **error);

static gpointer
mode_from_json (JsonNode  *node,
                GError   **error)
{
  return acp_mode_new_from_json (node, error);
}

static gpointer
command_from_json (JsonNode  *node,
                   GError   **error)
{
  return acp_command_new_from_json (node, error);
}

static gpointer
config_option_from_json (JsonNode  *node,
                         GError   **error)
{
  return acp_config_option_new_from_json (node, error);
}

/* Replaces the items of @store by those of @array (made by @from_json; the
 * schema says invalid items are skipped), in place: the items at the start
 * and at the end that are @equal stay, the others are replaced in one
 * items-changed, and nothing happens when the lists are the same. */
static void
replace_items (GListStore   *store,
               JsonArray    *array,
               ItemFromJson  from_json,
               GEqualFunc    equal)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GListModel *model = G_LIST_MODEL (store);
  guint n_old = g_list_model_get_n_items (model);
  guint start = 0, end_old, end_new;

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) error = NULL;
      gpointer item = from_json (json_array_get_element (array, i), &error);

      if (item != NULL)
        g_ptr_array_add (items, item);
      else
        g_debug ("Skipping an invalid element %u: %s", i, error->message);
    }

  while (start < n_old && start < items->len)
    {
      g_autoptr(GObject) old = g_list_model_get_item (model, start);

      if (!equal (old, g_ptr_array_index (items, start)))
        break;
      start++;
    }

  end_old = n_old;
  end_new = items->len;
  while (end_old > start && end_new > start)
    {
      g_autoptr(GObject) old = g_list_model_get_item (model, end_old - 1);

      if (!equal (old, g_ptr_array_index (items, end_new - 1)))
        break;
      end_old--;
      end_new--;
    }

  if (end_old > start || end_new > start)
    g_list_store_splice (store, start, end_old - start, items->pdata + start, end_new - start);
}

/* The config options of an answer or an update: the full list */
void
_acp_session_set_config_options (AcpSession *self,
                                 JsonArray  *options)
{
  replace_items (self->config_options, options, config_option_from_json,
                 (GEqualFunc) acp_config_option_equal);
}

/* --- session-level updates --- */

/* available_commands_update: the list is replaced; invalid entries are
 * skipped */
gboolean
_acp_session_apply_available_commands (AcpSession  *self,
                                       AcpUpdate   *update,
                                       GError     **error)
{
  JsonArray *commands = acp_json_get_array (update->object, "availableCommands");

  if (commands == NULL)
    return _acp_update_invalid (error, update->kind, "availableCommands must be an array");
  replace_items (self->available_commands, commands, command_from_json,
                 (GEqualFunc) acp_command_equal);
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
  JsonArray *options = acp_json_get_array (update->object, "configOptions");

  if (options == NULL)
    return _acp_update_invalid (error, update->kind, "configOptions must be an array");
  _acp_session_set_config_options (self, options);
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
  g_autoptr(AcpUsage) usage = NULL;
  g_autoptr(GError) local_error = NULL;

  usage = acp_usage_new_from_json (update->object, &local_error);
  if (usage == NULL)
    return _acp_update_invalid (error, update->kind, "%s", local_error->message);

  if (acp_usage_equal (self->usage, usage))
    return TRUE;
  g_set_object (&self->usage, usage);
  _acp_session_notify (self, PROP_USAGE);

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
  JsonObject *modes = acp_json_get_object (response, "modes");
  JsonArray *options = acp_json_get_array (response, "configOptions");
  JsonArray *available = NULL;

  g_object_freeze_notify (G_OBJECT (self));

  if (modes != NULL)
    {
      const char *current = acp_json_get_string (modes, "currentModeId", NULL);

      available = acp_json_get_array (modes, "availableModes");
      if (current != NULL && available != NULL)
        _acp_session_set_string (self, &self->current_mode_id, current, PROP_CURRENT_MODE_ID);
      else
        {
          g_debug ("Ignoring malformed modes in a session response");
          available = NULL;
        }
    }

  if (options != NULL)
    {
      /* Config options supersede modes: offer one or the other. */
      _acp_session_set_config_options (self, options);
      available = NULL;
    }
  replace_items (self->modes, available, mode_from_json, (GEqualFunc) acp_mode_equal);

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
