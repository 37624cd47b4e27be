/* pal-transcript-kind.c: what a stored transcript entry is, and what of an
 * update is searched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-transcript-kind.h"

/* @name of @object when it is a string, else NULL */
static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The text of a content block, when it is a text block */
static const char *
block_text (JsonObject *block)
{
  const char *type = block != NULL ? get_string (block, "type") : NULL;

  return g_strcmp0 (type, "text") == 0 ? get_string (block, "text") : NULL;
}

static void
append_line (GString    *text,
             const char *line)
{
  if (line == NULL || *line == '\0')
    return;
  if (text->len > 0)
    g_string_append_c (text, '\n');
  g_string_append (text, line);
}

/* A tool call's title and the text of its output: content blocks, and the
 * path of each diff */
static void
tool_call_text (JsonObject *update,
                GString    *text)
{
  JsonNode *content = json_object_get_member (update, "content");
  JsonArray *array;

  append_line (text, get_string (update, "title"));
  if (content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    return;

  array = json_node_get_array (content);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *element;
      const char *type;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      element = json_node_get_object (node);
      type = get_string (element, "type");
      if (g_strcmp0 (type, "content") == 0)
        append_line (text, block_text (get_object (element, "content")));
      else if (g_strcmp0 (type, "diff") == 0)
        append_line (text, get_string (element, "path"));
    }
}

/**
 * pal_transcript_kind_from_update:
 * @update: the `update` object of a `session/update`
 * @item: (out) (transfer none): the `messageId` of a chunk or the
 *   `toolCallId` of a tool call, or %NULL; it lives as long as @update
 * @text: (out) (transfer full): what is searched of it, or %NULL
 *
 * What pal_transcript_store_record_update() needs to know of an update:
 * it only reads members (of any type; a member of a wrong type counts as
 * missing), so it is cheap enough for the main thread.
 *
 * Returns: its kind
 */
PalTranscriptKind
pal_transcript_kind_from_update (JsonObject  *update,
                                 const char **item,
                                 char       **text)
{
  const char *variant;
  PalTranscriptKind kind;

  g_return_val_if_fail (update != NULL, PAL_TRANSCRIPT_KIND_OTHER);
  g_return_val_if_fail (item != NULL, PAL_TRANSCRIPT_KIND_OTHER);
  g_return_val_if_fail (text != NULL, PAL_TRANSCRIPT_KIND_OTHER);

  *item = NULL;
  *text = NULL;
  variant = get_string (update, "sessionUpdate");
  if (variant == NULL)
    return PAL_TRANSCRIPT_KIND_OTHER;

  if (strcmp (variant, "user_message_chunk") == 0)
    kind = PAL_TRANSCRIPT_KIND_USER_MESSAGE;
  else if (strcmp (variant, "agent_message_chunk") == 0)
    kind = PAL_TRANSCRIPT_KIND_AGENT_MESSAGE;
  else if (strcmp (variant, "agent_thought_chunk") == 0)
    kind = PAL_TRANSCRIPT_KIND_THOUGHT;
  else if (strcmp (variant, "tool_call") == 0 || strcmp (variant, "tool_call_update") == 0)
    kind = PAL_TRANSCRIPT_KIND_TOOL_CALL;
  else
    return PAL_TRANSCRIPT_KIND_OTHER;

  if (kind == PAL_TRANSCRIPT_KIND_TOOL_CALL)
    {
      g_autoptr(GString) found = g_string_new (NULL);

      *item = get_string (update, "toolCallId");
      tool_call_text (update, found);
      if (found->len > 0)
        *text = g_string_free (g_steal_pointer (&found), FALSE);
    }
  else
    {
      const char *chunk = block_text (get_object (update, "content"));

      *item = get_string (update, "messageId");
      *text = chunk != NULL && *chunk != '\0' ? g_strdup (chunk) : NULL;
    }

  return kind;
}
