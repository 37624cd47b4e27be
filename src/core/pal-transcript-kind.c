/* pal-transcript-kind.c: what a stored transcript entry is, and what of an
 * update is searched
 *
 * The transcript store's worker reads every entry recorded (the JSON text
 * of an update, or of a prompt's content blocks) here, off the main
 * thread: the main thread only hands the text over.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-transcript-kind.h"

/* An entry's JSON nests no deeper than a message may */
#define MAX_DEPTH 512

/* The text of a content block, when it is a text block */
static const char *
block_text (const AcpJsonDoc   *doc,
            const AcpJsonValue *block)
{
  const char *type = acp_json_value_get_string_member (doc, block, "type");

  return g_strcmp0 (type, "text") == 0 ? acp_json_value_get_string_member (doc, block, "text")
                                       : NULL;
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

static char *
take_text (GString *text)
{
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }

  return g_string_free (text, FALSE);
}

/* A tool call's title and the text of its output: content blocks, and the
 * path of each diff */
static char *
tool_call_text (const AcpJsonDoc   *doc,
                const AcpJsonValue *update)
{
  GString *text = g_string_new (NULL);
  const AcpJsonValue *content = acp_json_value_get_member (doc, update, "content");

  append_line (text, acp_json_value_get_string_member (doc, update, "title"));
  if (!acp_json_value_is (content, ACP_JSON_ARRAY))
    return take_text (text);

  for (const AcpJsonValue *element = acp_json_value_get_first (doc, content);
       element != NULL;
       element = acp_json_value_get_next (doc, element))
    {
      const char *type = acp_json_value_get_string_member (doc, element, "type");

      if (g_strcmp0 (type, "content") == 0)
        append_line (text, block_text (doc, acp_json_value_get_member (doc, element, "content")));
      else if (g_strcmp0 (type, "diff") == 0)
        append_line (text, acp_json_value_get_string_member (doc, element, "path"));
    }

  return take_text (text);
}

static PalTranscriptKind
kind_of_variant (const char *variant)
{
  if (variant == NULL)
    return PAL_TRANSCRIPT_KIND_OTHER;
  if (strcmp (variant, "agent_message_chunk") == 0)
    return PAL_TRANSCRIPT_KIND_AGENT_MESSAGE;
  if (strcmp (variant, "agent_thought_chunk") == 0)
    return PAL_TRANSCRIPT_KIND_THOUGHT;
  if (strcmp (variant, "user_message_chunk") == 0)
    return PAL_TRANSCRIPT_KIND_USER_MESSAGE;
  if (strcmp (variant, "tool_call") == 0 || strcmp (variant, "tool_call_update") == 0)
    return PAL_TRANSCRIPT_KIND_TOOL_CALL;

  return PAL_TRANSCRIPT_KIND_OTHER;
}

/**
 * pal_transcript_entry_read:
 * @entry: where to put what was read (cleared first)
 * @doc: a document to read into (the caller's thread's)
 * @kind: %PAL_TRANSCRIPT_KIND_PROMPT for a prompt's content blocks, else
 *   %PAL_TRANSCRIPT_KIND_OTHER for an update, whose kind is read
 * @json: the JSON text recorded
 * @length: its length in bytes
 *
 * What the transcript store keeps of an entry besides its text: its kind,
 * the id of the message or tool call it belongs to, its searchable text,
 * and whether it is a text chunk with nothing more to it, which may be
 * joined to the next one of the same message. An entry that is not JSON,
 * or not of the expected shape, is of kind OTHER with nothing to search
 * (it is kept all the same: it is what the agent sent).
 */
void
pal_transcript_entry_read (PalTranscriptEntry *entry,
                           AcpJsonDoc         *doc,
                           PalTranscriptKind   kind,
                           const char         *json,
                           gsize               length)
{
  const AcpJsonValue *root;
  const AcpJsonValue *content;
  const char *message_id;
  const char *chunk;

  g_return_if_fail (entry != NULL);
  g_return_if_fail (doc != NULL);
  g_return_if_fail (json != NULL);

  memset (entry, 0, sizeof *entry);
  entry->kind = kind == PAL_TRANSCRIPT_KIND_PROMPT ? kind : PAL_TRANSCRIPT_KIND_OTHER;

  root = acp_json_doc_read (doc, json, length, MAX_DEPTH, NULL);
  if (root == NULL)
    return;

  if (kind == PAL_TRANSCRIPT_KIND_PROMPT)
    {
      GString *text = g_string_new (NULL);

      if (!acp_json_value_is (root, ACP_JSON_ARRAY))
        {
          g_string_free (text, TRUE);
          return;
        }
      for (const AcpJsonValue *block = acp_json_value_get_first (doc, root);
           block != NULL;
           block = acp_json_value_get_next (doc, block))
        append_line (text, block_text (doc, block));
      entry->text = take_text (text);
      return;
    }

  entry->kind = kind_of_variant (acp_json_value_get_string_member (doc, root, "sessionUpdate"));
  switch (entry->kind)
    {
    case PAL_TRANSCRIPT_KIND_TOOL_CALL:
      entry->item = g_strdup (acp_json_value_get_string_member (doc, root, "toolCallId"));
      entry->text = tool_call_text (doc, root);
      break;

    case PAL_TRANSCRIPT_KIND_USER_MESSAGE:
    case PAL_TRANSCRIPT_KIND_AGENT_MESSAGE:
    case PAL_TRANSCRIPT_KIND_THOUGHT:
      message_id = acp_json_value_get_string_member (doc, root, "messageId");
      content = acp_json_value_get_member (doc, root, "content");
      chunk = block_text (doc, content);
      entry->item = g_strdup (message_id);
      if (chunk != NULL && *chunk != '\0')
        entry->text = g_strdup (chunk);
      /* what AcpUpdate joins, and writes back the same way */
      entry->plain_chunk = chunk != NULL &&
                           acp_json_value_get_size (root) == (message_id != NULL ? 3u : 2u) &&
                           acp_json_value_get_size (content) == 2;
      break;

    case PAL_TRANSCRIPT_KIND_OTHER:
    case PAL_TRANSCRIPT_KIND_PROMPT:
    default:
      break;
    }
}

void
pal_transcript_entry_clear (PalTranscriptEntry *entry)
{
  g_return_if_fail (entry != NULL);

  g_clear_pointer (&entry->item, g_free);
  g_clear_pointer (&entry->text, g_free);
}

/**
 * pal_transcript_kind_get_chunk_variant:
 * @kind: the kind of a message chunk
 *
 * Returns: (nullable): the `sessionUpdate` of a chunk of that kind, or
 *   %NULL for another kind
 */
const char *
pal_transcript_kind_get_chunk_variant (PalTranscriptKind kind)
{
  switch (kind)
    {
    case PAL_TRANSCRIPT_KIND_USER_MESSAGE:
      return "user_message_chunk";
    case PAL_TRANSCRIPT_KIND_AGENT_MESSAGE:
      return "agent_message_chunk";
    case PAL_TRANSCRIPT_KIND_THOUGHT:
      return "agent_thought_chunk";
    case PAL_TRANSCRIPT_KIND_OTHER:
    case PAL_TRANSCRIPT_KIND_PROMPT:
    case PAL_TRANSCRIPT_KIND_TOOL_CALL:
    default:
      return NULL;
    }
}

/**
 * pal_transcript_chunk_write:
 * @out: where to append
 * @kind: a message chunk's kind
 * @message_id: (nullable): its `messageId`
 * @text: its text
 * @length: the length of @text in bytes
 *
 * Appends the JSON text of a text chunk with nothing more to it, as
 * acp_update_dup_json() writes one: joined chunks are kept this way.
 */
void
pal_transcript_chunk_write (GString           *out,
                            PalTranscriptKind  kind,
                            const char        *message_id,
                            const char        *text,
                            gsize              length)
{
  const char *variant = pal_transcript_kind_get_chunk_variant (kind);

  g_return_if_fail (out != NULL);
  g_return_if_fail (variant != NULL);

  g_string_append (out, "{\"sessionUpdate\":");
  acp_json_write_string (out, variant, strlen (variant));
  if (message_id != NULL)
    {
      g_string_append (out, ",\"messageId\":");
      acp_json_write_string (out, message_id, strlen (message_id));
    }
  g_string_append (out, ",\"content\":{\"type\":\"text\",\"text\":");
  acp_json_write_string (out, text, length);
  g_string_append (out, "}}");
}
