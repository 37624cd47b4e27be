/* pal-transcript-export.c: a stored session as Markdown or as JSON Lines
 *
 * The Markdown is made from the session's stored updates alone, the way
 * the transcript puts them together, without widgets: chunks of a message
 * join (by `messageId`, or when they follow each other), a tool call
 * collects its updates (by `toolCallId`) where it first appeared, a plan
 * shows as last updated within its turn. Then each part is written out:
 * the person's prompts under "You", the agent's turn under its name,
 * thoughts folded in `<details>`, tool calls with their status and output,
 * diffs as fenced `diff` blocks. Updates of other kinds (commands, modes,
 * usage…) are left out; an entry that does not parse is skipped.
 *
 * The JSON Lines are the stored entries themselves, one a line: an update
 * object as the agent sent it, or for a prompt Palaver sent, the array of
 * its content blocks. Each is parsed on the way, so that every line is
 * JSON whatever the store held.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "acp-json.h"
#include "pal-diff.h"
#include "pal-error.h"
#include "pal-transcript-export.h"

/* Lines of context around the changes of a diff */
#define DIFF_CONTEXT 3

typedef enum
{
  PART_USER,
  PART_AGENT,
  PART_THOUGHT,
  PART_TOOL,
  PART_PLAN,
} PartType;

/* A terminal the agent ran itself and reported in `_meta` */
typedef struct
{
  char    *id;
  GString *output;
  gboolean exited;
  gint64   exit_code;   /* -1: none */
  char    *signal_name;
} Terminal;

typedef struct
{
  PartType   type;
  char      *id;          /* messageId or toolCallId */
  GString   *text;        /* of a message */
  char      *title;       /* of a tool call */
  char      *status;
  JsonNode  *content;     /* its last content: an array */
  GPtrArray *terminals;   /* Terminal */
  JsonNode  *entries;     /* of a plan: an array */
} Part;

typedef struct
{
  GPtrArray  *parts;      /* Part */
  GHashTable *by_id;      /* "type:id" (a message's "type:turn:id") → Part, borrowed */
  Part       *plan;       /* the plan of the turn under way */
  guint       turn;       /* user messages so far */
} Reader;

static void
terminal_free (Terminal *terminal)
{
  g_free (terminal->id);
  g_string_free (terminal->output, TRUE);
  g_free (terminal->signal_name);
  g_free (terminal);
}

static void
part_free (Part *part)
{
  g_free (part->id);
  if (part->text != NULL)
    g_string_free (part->text, TRUE);
  g_free (part->title);
  g_free (part->status);
  g_clear_pointer (&part->content, json_node_unref);
  g_clear_pointer (&part->terminals, g_ptr_array_unref);
  g_clear_pointer (&part->entries, json_node_unref);
  g_free (part);
}

/* The key of @id in by_id. A message's is of the turn under way: a new
 * prompt is a new turn, and an agent that numbers its messages per turn
 * starts a new message with an id seen before, as the transcript shows it. */
static char *
part_key (Reader     *reader,
          PartType    type,
          const char *id)
{
  if (type == PART_TOOL || type == PART_PLAN)
    return g_strdup_printf ("%d:%s", type, id);

  return g_strdup_printf ("%d:%u:%s", type, reader->turn, id);
}

static Part *
add_part (Reader     *reader,
          PartType    type,
          const char *id)
{
  Part *part = g_new0 (Part, 1);

  if (type == PART_USER)
    reader->turn++;

  part->type = type;
  part->id = g_strdup (id);
  if (type != PART_TOOL && type != PART_PLAN)
    part->text = g_string_new (NULL);
  if (type == PART_TOOL)
    part->terminals = g_ptr_array_new_with_free_func ((GDestroyNotify) terminal_free);
  g_ptr_array_add (reader->parts, part);
  if (id != NULL)
    g_hash_table_insert (reader->by_id, part_key (reader, type, id), part);

  return part;
}

static Part *
lookup_part (Reader     *reader,
             PartType    type,
             const char *id)
{
  g_autofree char *key = NULL;

  if (id == NULL)
    return NULL;

  key = part_key (reader, type, id);
  return g_hash_table_lookup (reader->by_id, key);
}

static Part *
last_part (Reader *reader)
{
  return reader->parts->len > 0 ? g_ptr_array_index (reader->parts, reader->parts->len - 1) : NULL;
}

/* --- text helpers --- */

/* Ends @out with a blank line, unless it is empty */
static void
begin_paragraph (GString *out)
{
  if (out->len == 0)
    return;
  while (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  g_string_append (out, "\n\n");
}

/* @text on one line */
static void
append_one_line (GString    *out,
                 const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    g_string_append_c (out, *p == '\n' || *p == '\r' ? ' ' : *p);
}

/* The longest run of @mark in @text */
static guint
longest_run (const char *text,
             gsize       length,
             char        mark)
{
  guint longest = 0, run = 0;

  for (gsize i = 0; i < length; i++)
    {
      run = text[i] == mark ? run + 1 : 0;
      longest = MAX (longest, run);
    }

  return longest;
}

/* A fenced code block that whatever @text holds cannot close early */
static void
append_fenced (GString    *out,
               const char *info,
               const char *text,
               gsize       length)
{
  guint fence = MAX (3, longest_run (text, length, '`') + 1);

  begin_paragraph (out);
  for (guint i = 0; i < fence; i++)
    g_string_append_c (out, '`');
  g_string_append (out, info != NULL ? info : "");
  g_string_append_c (out, '\n');
  g_string_append_len (out, text, (gssize) length);
  if (length > 0 && text[length - 1] != '\n')
    g_string_append_c (out, '\n');
  for (guint i = 0; i < fence; i++)
    g_string_append_c (out, '`');
  g_string_append (out, "\n\n");
}

/* A code span around @text, however many backticks it holds */
static void
append_code_span (GString    *out,
                  const char *text)
{
  guint ticks = longest_run (text, strlen (text), '`') + 1;
  gboolean pad = text[0] == '`' || (*text != '\0' && text[strlen (text) - 1] == '`');

  for (guint i = 0; i < ticks; i++)
    g_string_append_c (out, '`');
  if (pad)
    g_string_append_c (out, ' ');
  append_one_line (out, text);
  if (pad)
    g_string_append_c (out, ' ');
  for (guint i = 0; i < ticks; i++)
    g_string_append_c (out, '`');
}

/* A content block: text as it is (it is Markdown), the others described */
static void
append_block (GString    *out,
              JsonObject *block)
{
  const char *type = acp_json_get_string (block, "type", NULL);

  if (g_strcmp0 (type, "text") == 0)
    {
      g_string_append (out, acp_json_get_string (block, "text", ""));
    }
  else if (g_strcmp0 (type, "image") == 0 || g_strcmp0 (type, "audio") == 0)
    {
      const char *mime = acp_json_get_string (block, "mimeType", "");

      gboolean image = g_strcmp0 (type, "image") == 0;

      begin_paragraph (out);
      g_string_append_c (out, '*');
      if (*mime == '\0')
        g_string_append (out, image ? _("[Image]") : _("[Audio]"));
      else
        /* Translators: %s is a MIME type, like image/png */
        g_string_append_printf (out, image ? _("[Image: %s]") : _("[Audio: %s]"), mime);
      g_string_append (out, "*\n\n");
    }
  else if (g_strcmp0 (type, "resource_link") == 0)
    {
      const char *uri = acp_json_get_string (block, "uri", "");
      const char *name = acp_json_get_string (block, "title", acp_json_get_string (block, "name", uri));

      begin_paragraph (out);
      g_string_append_c (out, '[');
      for (const char *p = name; *p != '\0'; p++)
        {
          if (*p == '[' || *p == ']' || *p == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, *p == '\n' ? ' ' : *p);
        }
      g_string_append (out, "](<");
      for (const char *p = uri; *p != '\0'; p++)
        {
          if (*p == '<' || *p == '>' || *p == '\n')
            g_string_append_printf (out, "%%%02X", (guchar) *p);
          else
            g_string_append_c (out, *p);
        }
      g_string_append (out, ">)\n\n");
    }
  else if (g_strcmp0 (type, "resource") == 0)
    {
      JsonObject *resource = acp_json_get_object (block, "resource");
      const char *uri = acp_json_get_string (resource, "uri", "");
      const char *text = acp_json_get_string (resource, "text", NULL);

      begin_paragraph (out);
      append_code_span (out, uri);
      if (text != NULL)
        append_fenced (out, NULL, text, strlen (text));
      else
        g_string_append (out, "\n\n");
    }
}

/* --- reading the updates --- */

static void
add_prompt (Reader    *reader,
            JsonArray *blocks)
{
  Part *part = add_part (reader, PART_USER, NULL);

  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *block = acp_json_array_get_object (blocks, i);

      if (block != NULL)
        append_block (part->text, block);
    }
  reader->plan = NULL;
}

static void
add_chunk (Reader     *reader,
           PartType    type,
           JsonObject *update)
{
  const char *id = acp_json_get_string (update, "messageId", NULL);
  JsonObject *block = acp_json_get_object (update, "content");
  Part *part = lookup_part (reader, type, id);
  Part *last = last_part (reader);

  if (part == NULL && id == NULL && last != NULL && last->type == type && last->id == NULL)
    part = last;
  if (part == NULL)
    part = add_part (reader, type, id);
  if (block != NULL)
    append_block (part->text, block);
  if (type == PART_USER)
    reader->plan = NULL;
}

static void
set_string (char       **field,
            JsonObject  *update,
            const char  *member)
{
  const char *value = acp_json_get_string (update, member, NULL);

  if (value != NULL)
    {
      g_free (*field);
      *field = g_strdup (value);
    }
}

static Terminal *
meta_terminal (Part       *part,
               JsonObject *entry)
{
  const char *id = acp_json_get_string (entry, "terminal_id", NULL);
  Terminal *terminal;

  if (id == NULL)
    return NULL;

  for (guint i = 0; i < part->terminals->len; i++)
    {
      terminal = g_ptr_array_index (part->terminals, i);
      if (g_str_equal (terminal->id, id))
        return terminal;
    }

  terminal = g_new0 (Terminal, 1);
  terminal->id = g_strdup (id);
  terminal->output = g_string_new (NULL);
  terminal->exit_code = -1;
  g_ptr_array_add (part->terminals, terminal);

  return terminal;
}

/* What the agent says in `_meta` of the terminals it runs itself (as
 * acp_tool_call_item_apply_meta() reads it) */
static void
apply_meta (Part       *part,
            JsonObject *meta)
{
  static const char * const output_keys[] = { "terminal_output_delta", "terminal_output" };
  JsonObject *entry;
  Terminal *terminal;

  if ((entry = acp_json_get_object (meta, "terminal_info")) != NULL)
    meta_terminal (part, entry);

  for (guint i = 0; i < G_N_ELEMENTS (output_keys); i++)
    {
      entry = acp_json_get_object (meta, output_keys[i]);
      terminal = entry != NULL ? meta_terminal (part, entry) : NULL;
      if (terminal != NULL)
        g_string_append (terminal->output, acp_json_get_string (entry, "data", ""));
    }

  entry = acp_json_get_object (meta, "terminal_exit");
  terminal = entry != NULL ? meta_terminal (part, entry) : NULL;
  if (terminal != NULL)
    {
      terminal->exited = TRUE;
      if (!acp_json_get_int (entry, "exit_code", &terminal->exit_code))
        terminal->exit_code = -1;
      g_free (terminal->signal_name);
      terminal->signal_name = g_strdup (acp_json_get_string (entry, "signal", NULL));
    }
}

static void
apply_tool_call (Reader     *reader,
                 JsonObject *update)
{
  const char *id = acp_json_get_string (update, "toolCallId", NULL);
  Part *part = lookup_part (reader, PART_TOOL, id);
  JsonArray *content = acp_json_get_array (update, "content");
  JsonObject *meta = acp_json_get_object (update, "_meta");

  if (part == NULL)
    part = add_part (reader, PART_TOOL, id);

  set_string (&part->title, update, "title");
  set_string (&part->status, update, "status");
  if (content != NULL)
    {
      g_clear_pointer (&part->content, json_node_unref);
      part->content = json_node_copy (json_object_get_member (update, "content"));
    }
  if (meta != NULL)
    apply_meta (part, meta);
}

static void
apply_plan (Reader     *reader,
            JsonObject *update)
{
  JsonArray *entries = acp_json_get_array (update, "entries");

  if (entries == NULL)
    return;
  if (reader->plan == NULL)
    reader->plan = add_part (reader, PART_PLAN, NULL);

  g_clear_pointer (&reader->plan->entries, json_node_unref);
  reader->plan->entries = json_node_copy (json_object_get_member (update, "entries"));
}

static void
read_entry (Reader     *reader,
            JsonParser *parser,
            const char *json,
            gsize       length)
{
  JsonNode *root;
  JsonObject *update;
  const char *variant;

  if (!json_parser_load_from_data (parser, json, (gssize) length, NULL))
    return;

  root = json_parser_get_root (parser);
  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root))
    {
      add_prompt (reader, json_node_get_array (root));
      return;
    }
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;

  update = json_node_get_object (root);
  variant = acp_json_get_string (update, "sessionUpdate", "");
  if (g_str_equal (variant, "user_message_chunk"))
    add_chunk (reader, PART_USER, update);
  else if (g_str_equal (variant, "agent_message_chunk"))
    add_chunk (reader, PART_AGENT, update);
  else if (g_str_equal (variant, "agent_thought_chunk"))
    add_chunk (reader, PART_THOUGHT, update);
  else if (g_str_equal (variant, "tool_call") || g_str_equal (variant, "tool_call_update"))
    apply_tool_call (reader, update);
  else if (g_str_equal (variant, "plan"))
    apply_plan (reader, update);
}

/* --- writing Markdown --- */

static const char *
describe_status (const char *status)
{
  if (g_strcmp0 (status, "pending") == 0)
    return C_("tool call status", "pending");
  if (g_strcmp0 (status, "in_progress") == 0)
    return C_("tool call status", "in progress");
  if (g_strcmp0 (status, "completed") == 0)
    return C_("tool call status", "completed");
  if (g_strcmp0 (status, "failed") == 0)
    return C_("tool call status", "failed");
  return status;
}

static void
write_terminal (GString  *out,
                Terminal *terminal)
{
  if (terminal->output->len > 0)
    append_fenced (out, NULL, terminal->output->str, terminal->output->len);
  if (!terminal->exited)
    return;

  begin_paragraph (out);
  if (terminal->signal_name != NULL)
    /* Translators: %s is a signal name, like SIGTERM */
    g_string_append_printf (out, _("Ended by signal %s."), terminal->signal_name);
  else if (terminal->exit_code >= 0 && terminal->exit_code <= G_MAXINT)
    g_string_append_printf (out, _("Exited with status %d."), (int) terminal->exit_code);
  else
    g_string_append (out, _("Ended."));
  g_string_append (out, "\n\n");
}

static void
write_diff (GString    *out,
            JsonObject *element)
{
  const char *path = acp_json_get_string (element, "path", "");
  const char *old_text = acp_json_get_string (element, "oldText", NULL);
  const char *new_text = acp_json_get_string (element, "newText", "");
  g_autoptr(PalDiff) diff = pal_diff_new (old_text != NULL ? old_text : "", new_text,
                                          PAL_DIFF_DEFAULT_MAX_EDITS);
  g_autofree char *unified = NULL;
  GString *text = g_string_new (NULL);

  /* a new file: every line added */
  if (old_text == NULL)
    {
      g_string_append (text, "--- /dev/null\n+++ ");
      append_one_line (text, path);
      g_string_append_c (text, '\n');
      unified = pal_diff_to_unified (diff, NULL, DIFF_CONTEXT);
    }
  else
    {
      g_autofree char *one_line = g_strdelimit (g_strdup (path), "\r\n", ' ');

      unified = pal_diff_to_unified (diff, one_line, DIFF_CONTEXT);
    }
  g_string_append (text, unified);
  append_fenced (out, "diff", text->str, text->len);
  g_string_free (text, TRUE);
}

static void
write_tool_call (GString *out,
                 Part    *part)
{
  JsonArray *content = part->content != NULL ? json_node_get_array (part->content) : NULL;
  g_autoptr(GHashTable) shown = g_hash_table_new (g_str_hash, g_str_equal);
  const char *status = describe_status (part->status);

  begin_paragraph (out);
  g_string_append_printf (out, "**%s** ", _("Tool call:"));
  append_one_line (out, part->title != NULL && *part->title != '\0' ? part->title : _("Untitled"));
  if (status != NULL)
    {
      g_string_append (out, " — *");
      append_one_line (out, status);
      g_string_append_c (out, '*');
    }
  g_string_append (out, "\n\n");

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonObject *element = acp_json_array_get_object (content, i);
      const char *type = acp_json_get_string (element, "type", NULL);

      if (g_strcmp0 (type, "content") == 0)
        {
          JsonObject *block = acp_json_get_object (element, "content");
          const char *block_type = acp_json_get_string (block, "type", NULL);

          /* a tool's text is its output, not Markdown */
          if (g_strcmp0 (block_type, "text") == 0)
            {
              const char *text = acp_json_get_string (block, "text", "");

              if (*text != '\0')
                append_fenced (out, NULL, text, strlen (text));
            }
          else if (block != NULL)
            {
              append_block (out, block);
            }
        }
      else if (g_strcmp0 (type, "diff") == 0)
        {
          write_diff (out, element);
        }
      else if (g_strcmp0 (type, "terminal") == 0)
        {
          const char *id = acp_json_get_string (element, "terminalId", "");
          Terminal *terminal = NULL;

          for (guint j = 0; j < part->terminals->len && terminal == NULL; j++)
            if (g_str_equal (((Terminal *) g_ptr_array_index (part->terminals, j))->id, id))
              terminal = g_ptr_array_index (part->terminals, j);

          g_hash_table_add (shown, (gpointer) id);
          if (terminal != NULL)
            {
              write_terminal (out, terminal);
            }
          else
            {
              begin_paragraph (out);
              g_string_append_printf (out, "*%s*\n\n", _("The terminal’s output is not part of the stored history."));
            }
        }
    }

  for (guint i = 0; i < part->terminals->len; i++)
    {
      Terminal *terminal = g_ptr_array_index (part->terminals, i);

      if (!g_hash_table_contains (shown, terminal->id))
        write_terminal (out, terminal);
    }
}

static void
write_plan (GString *out,
            Part    *part)
{
  JsonArray *entries = json_node_get_array (part->entries);

  begin_paragraph (out);
  g_string_append_printf (out, "**%s**\n\n", _("Plan"));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = acp_json_array_get_object (entries, i);
      const char *status = acp_json_get_string (entry, "status", NULL);

      if (entry == NULL)
        continue;
      g_string_append (out, g_strcmp0 (status, "completed") == 0 ? "- [x] " : "- [ ] ");
      append_one_line (out, acp_json_get_string (entry, "content", ""));
      if (g_strcmp0 (status, "in_progress") == 0)
        g_string_append_printf (out, " *(%s)*", C_("plan entry status", "in progress"));
      g_string_append_c (out, '\n');
    }
  g_string_append_c (out, '\n');
}

static gboolean
is_blank (GString *text)
{
  for (gsize i = 0; i < text->len; i++)
    if (!g_ascii_isspace (text->str[i]))
      return FALSE;

  return TRUE;
}

static void
write_header (GString                       *out,
              PalStoredTranscript           *stored,
              const PalTranscriptExportInfo *info)
{
  const char *title = info != NULL && info->title != NULL && *info->title != '\0'
    ? info->title : _("New Session");

  g_string_append (out, "# ");
  append_one_line (out, title);
  g_string_append (out, "\n\n");

  if (info != NULL && info->agent_name != NULL)
    {
      g_string_append_printf (out, "- %s ", _("Agent:"));
      append_one_line (out, info->agent_name);
      g_string_append_c (out, '\n');
    }
  if (info != NULL && info->folder != NULL)
    {
      g_string_append_printf (out, "- %s ", _("Folder:"));
      append_code_span (out, info->folder);
      g_string_append_c (out, '\n');
    }
  if (info != NULL && info->session_id != NULL)
    {
      g_string_append_printf (out, "- %s ", _("Session:"));
      append_code_span (out, info->session_id);
      g_string_append_c (out, '\n');
    }
  if (pal_stored_transcript_get_n_entries (stored) > 0)
    {
      gint64 time = pal_stored_transcript_get_time (stored, 0);
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (time / G_USEC_PER_SEC);
      g_autofree char *text = when != NULL ? g_date_time_format (when, "%Y-%m-%d %H:%M") : NULL;

      if (text != NULL)
        g_string_append_printf (out, "- %s %s\n", _("Started:"), text);
    }
}

/**
 * pal_transcript_export_markdown:
 * @stored: a session's stored entries
 * @info: (nullable): what the top of the document says of the session
 *
 * Writes the session as a Markdown document (see the top of this file).
 * Needs no widgets and does no I/O: call it on any thread.
 *
 * Returns: (transfer full): the document, valid UTF-8
 */
char *
pal_transcript_export_markdown (PalStoredTranscript           *stored,
                                const PalTranscriptExportInfo *info)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  Reader reader = { 0 };
  GString *out = g_string_new (NULL);
  const char *agent_heading;
  gboolean agent_heading_written = FALSE;
  char *result;

  g_return_val_if_fail (stored != NULL, NULL);

  reader.parts = g_ptr_array_new_with_free_func ((GDestroyNotify) part_free);
  reader.by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < pal_stored_transcript_get_n_entries (stored); i++)
    {
      gsize length = 0;
      const char *json = pal_stored_transcript_get_json (stored, i, &length);

      read_entry (&reader, parser, json, length);
    }

  write_header (out, stored, info);
  agent_heading = info != NULL && info->agent_name != NULL ? info->agent_name : _("Agent");

  for (guint i = 0; i < reader.parts->len; i++)
    {
      Part *part = g_ptr_array_index (reader.parts, i);

      if (part->text != NULL && is_blank (part->text))
        continue;
      if (part->type == PART_PLAN && json_array_get_length (json_node_get_array (part->entries)) == 0)
        continue;

      if (part->type == PART_USER)
        {
          begin_paragraph (out);
          g_string_append_printf (out, "## %s\n\n", _("You"));
          g_string_append_len (out, part->text->str, (gssize) part->text->len);
          agent_heading_written = FALSE;
          continue;
        }

      if (!agent_heading_written)
        {
          begin_paragraph (out);
          g_string_append (out, "## ");
          append_one_line (out, agent_heading);
          g_string_append (out, "\n\n");
          agent_heading_written = TRUE;
        }

      switch (part->type)
        {
        case PART_AGENT:
          begin_paragraph (out);
          g_string_append_len (out, part->text->str, (gssize) part->text->len);
          break;
        case PART_THOUGHT:
          begin_paragraph (out);
          g_string_append_printf (out, "<details>\n<summary>%s</summary>\n\n", _("Thought"));
          g_string_append_len (out, part->text->str, (gssize) part->text->len);
          begin_paragraph (out);
          g_string_append (out, "</details>\n\n");
          break;
        case PART_TOOL:
          write_tool_call (out, part);
          break;
        case PART_PLAN:
          write_plan (out, part);
          break;
        case PART_USER:
        default:
          g_assert_not_reached ();
        }
    }

  /* one newline at the end */
  while (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  g_string_append_c (out, '\n');

  g_ptr_array_unref (reader.parts);
  g_hash_table_unref (reader.by_id);

  if (g_utf8_validate (out->str, (gssize) out->len, NULL))
    return g_string_free (out, FALSE);

  result = g_utf8_make_valid (out->str, (gssize) out->len);
  g_string_free (out, TRUE);
  return result;
}

/**
 * pal_transcript_export_json_lines:
 * @stored: a session's stored entries
 *
 * The entries as stored, one JSON text a line: an update object, or the
 * content blocks of a prompt as an array. An entry whose text spans lines
 * is written again on one (the same value); one that is not JSON (the
 * store was damaged) is left out, so that every line parses.
 *
 * Returns: (transfer full): the lines
 */
char *
pal_transcript_export_json_lines (PalStoredTranscript *stored)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (stored != NULL, NULL);

  for (guint i = 0; i < pal_stored_transcript_get_n_entries (stored); i++)
    {
      gsize length = 0;
      const char *json = pal_stored_transcript_get_json (stored, i, &length);

      if (!json_parser_load_from_data (parser, json, (gssize) length, NULL) ||
          json_parser_get_root (parser) == NULL)
        continue;

      if (memchr (json, '\n', length) == NULL && memchr (json, '\r', length) == NULL)
        {
          g_string_append_len (out, json, (gssize) length);
        }
      else
        {
          g_autofree char *compact = json_to_string (json_parser_get_root (parser), FALSE);

          g_string_append (out, compact);
        }
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

/**
 * pal_transcript_format_from_string:
 * @name: `markdown` (or `md`), or `jsonl` (or `json-lines`)
 * @format: (out): the format
 *
 * Returns: whether @name is a format
 */
gboolean
pal_transcript_format_from_string (const char          *name,
                                   PalTranscriptFormat *format)
{
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  if (g_ascii_strcasecmp (name, "markdown") == 0 || g_ascii_strcasecmp (name, "md") == 0)
    *format = PAL_TRANSCRIPT_FORMAT_MARKDOWN;
  else if (g_ascii_strcasecmp (name, "jsonl") == 0 || g_ascii_strcasecmp (name, "json-lines") == 0)
    *format = PAL_TRANSCRIPT_FORMAT_JSON_LINES;
  else
    return FALSE;

  return TRUE;
}

/* --- from the store --- */

typedef struct
{
  PalTranscriptFormat  format;
  char                *title;
  char                *agent_name;
  char                *folder;
  char                *session_id;
  PalStoredTranscript *stored;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_free (data->title);
  g_free (data->agent_name);
  g_free (data->folder);
  g_free (data->session_id);
  g_clear_pointer (&data->stored, pal_stored_transcript_unref);
  g_free (data);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportData *data = task_data;
  PalTranscriptExportInfo info = { data->title, data->agent_name, data->folder, data->session_id };
  char *text;

  if (data->format == PAL_TRANSCRIPT_FORMAT_JSON_LINES)
    text = pal_transcript_export_json_lines (data->stored);
  else
    text = pal_transcript_export_markdown (data->stored, &info);

  if (!g_task_return_error_if_cancelled (task))
    g_task_return_pointer (task, g_bytes_new_take (text, strlen (text)), (GDestroyNotify) g_bytes_unref);
  else
    g_free (text);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ExportData *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->stored = pal_transcript_store_load_finish (PAL_TRANSCRIPT_STORE (object), result, &error);
  if (data->stored == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  if (pal_stored_transcript_get_n_entries (data->stored) == 0)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND, "%s",
                               _("No history of this session is stored on this computer."));
      return;
    }

  g_task_run_in_thread (task, export_thread);
}

/**
 * pal_transcript_export_async:
 * @store: the transcripts
 * @key: the session
 * @format: what to make of it
 * @info: (nullable): for the top of a Markdown document (copied)
 *
 * Reads the session's stored entries and writes them in @format, on a
 * worker thread. A session with nothing stored is an error
 * (%PAL_ERROR_NOT_FOUND).
 */
void
pal_transcript_export_async (PalTranscriptStore            *store,
                             PalSessionKey                 *key,
                             PalTranscriptFormat            format,
                             const PalTranscriptExportInfo *info,
                             GCancellable                  *cancellable,
                             GAsyncReadyCallback            callback,
                             gpointer                       user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportData *data;

  g_return_if_fail (PAL_IS_TRANSCRIPT_STORE (store));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (ExportData, 1);
  data->format = format;
  if (info != NULL)
    {
      data->title = g_strdup (info->title);
      data->agent_name = g_strdup (info->agent_name);
      data->folder = g_strdup (info->folder);
      data->session_id = g_strdup (info->session_id);
    }

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_transcript_export_async);
  g_task_set_task_data (task, data, (GDestroyNotify) export_data_free);
  pal_transcript_store_load_async (store, key, cancellable, loaded_cb, g_steal_pointer (&task));
}

/**
 * pal_transcript_export_finish:
 *
 * Returns: (transfer full): the text, or %NULL with @error set
 */
GBytes *
pal_transcript_export_finish (PalTranscriptStore  *store,
                              GAsyncResult        *result,
                              GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_transcript_export_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
