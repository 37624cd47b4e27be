/* record-json.h: filling a transcript store the way the application does,
 * from the JSON text of the entries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <json-glib/json-glib.h>

#include "pal-transcript-store.h"

/* Records @json for @key: an array is a prompt's content blocks, anything
 * else a `session/update`'s update (the store reads what it searches from
 * the text itself). */
static inline void
record_json (PalTranscriptStore *store,
             PalSessionKey      *key,
             const char         *json)
{
  if (json[strspn (json, " \t\n")] == '[')
    pal_transcript_store_record_prompt (store, key, json);
  else
    pal_transcript_store_record_update (store, key, json);
}

/* The message id of @update when it is a text chunk with nothing more to it
 * ("" without one), else NULL: what the store joins */
static inline const char *
plain_chunk_id (JsonNode *update)
{
  static const char * const kinds[] = { "user_message_chunk", "agent_message_chunk",
                                        "agent_thought_chunk" };
  JsonObject *object, *content;
  JsonNode *id, *text;
  gboolean is_chunk = FALSE;

  if (update == NULL || !JSON_NODE_HOLDS_OBJECT (update))
    return NULL;
  object = json_node_get_object (update);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    is_chunk |= g_strcmp0 (json_object_get_string_member_with_default (object, "sessionUpdate", ""),
                           kinds[i]) == 0;
  id = json_object_get_member (object, "messageId");
  content = json_object_has_member (object, "content") &&
            JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "content"))
            ? json_object_get_object_member (object, "content") : NULL;
  if (!is_chunk || content == NULL || json_object_get_size (object) != (id != NULL ? 3u : 2u) ||
      (id != NULL && (!JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING)) ||
      json_object_get_size (content) != 2 ||
      g_strcmp0 (json_object_get_string_member_with_default (content, "type", ""), "text") != 0)
    return NULL;
  text = json_object_get_member (content, "text");
  if (text == NULL || !JSON_NODE_HOLDS_VALUE (text) || json_node_get_value_type (text) != G_TYPE_STRING)
    return NULL;

  return id != NULL ? json_node_get_string (id) : "";
}

/* The entries the store keeps of the updates @jsons (JSON texts; others
 * are left out): text chunks of one message in a row as one chunk holding
 * all their text. Returns: (transfer full) (element-type JsonNode) */
static inline GPtrArray *
stored_entries (GPtrArray *jsons)
{
  GPtrArray *stored = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  for (guint i = 0; i < jsons->len; i++)
    {
      JsonNode *node = json_from_string (g_ptr_array_index (jsons, i), NULL);
      JsonNode *last = stored->len > 0 ? g_ptr_array_index (stored, stored->len - 1) : NULL;
      const char *id = plain_chunk_id (node);
      const char *last_id = plain_chunk_id (last);

      if (node == NULL)
        continue;
      if (id != NULL && last_id != NULL && g_str_equal (id, last_id) &&
          g_str_equal (json_object_get_string_member (json_node_get_object (node), "sessionUpdate"),
                       json_object_get_string_member (json_node_get_object (last), "sessionUpdate")))
        {
          JsonObject *content = json_object_get_object_member (json_node_get_object (last), "content");
          JsonObject *more = json_object_get_object_member (json_node_get_object (node), "content");
          g_autofree char *joined = g_strconcat (json_object_get_string_member (content, "text"),
                                                 json_object_get_string_member (more, "text"), NULL);

          json_object_set_string_member (content, "text", joined);
          json_node_unref (node);
          continue;
        }
      g_ptr_array_add (stored, node);
    }

  return stored;
}
