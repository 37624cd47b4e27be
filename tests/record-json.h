/* record-json.h: filling a transcript store the way the application does,
 * from the JSON text of the entries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "pal-transcript-store.h"

/* Records @json for @key: an array is a prompt's content blocks, an object
 * a `session/update`'s update; any other text an update that says nothing
 * searchable. */
static inline void
record_json (PalTranscriptStore *store,
             PalSessionKey      *key,
             const char         *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autofree char *text = NULL;
  const char *item = NULL;
  PalTranscriptKind kind = PAL_TRANSCRIPT_KIND_OTHER;

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *blocks = json_node_get_array (node);
      GString *prompt = g_string_new (NULL);

      for (guint i = 0; i < json_array_get_length (blocks); i++)
        {
          JsonNode *block = json_array_get_element (blocks, i);
          JsonObject *object = JSON_NODE_HOLDS_OBJECT (block) ? json_node_get_object (block) : NULL;

          JsonNode *text_node = object != NULL ? json_object_get_member (object, "text") : NULL;

          if (text_node != NULL && JSON_NODE_HOLDS_VALUE (text_node) &&
              json_node_get_value_type (text_node) == G_TYPE_STRING)
            g_string_append (prompt, json_node_get_string (text_node));
        }
      pal_transcript_store_record_prompt (store, key, json, prompt->str);
      g_string_free (prompt, TRUE);
      return;
    }

  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    kind = pal_transcript_kind_from_update (json_node_get_object (node), &item, &text);
  pal_transcript_store_record_update (store, key, kind, item, json, text);
}
