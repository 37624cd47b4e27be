/* demo-script.c: the demo agent's canned turns and canned session state
 *
 * Everything here is made up on purpose: the demo agent has no model behind
 * it, reads and writes no file and runs no command. Its turns exist to show
 * every kind of update a client can display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "demo-script.h"

/* Pauses at speed 1, in milliseconds. */
#define PAUSE_SHORT      100
#define PAUSE_STEP       200
#define PAUSE_TOOL       350
#define THOUGHT_DELAY    15
#define MESSAGE_DELAY    10
#define LONG_DELAY       4

#define EXCERPT_CHARS    80
#define TITLE_WORDS      6
#define TITLE_CHARS      50

static const char *old_hello =
  "#include <stdio.h>\n"
  "\n"
  "int\n"
  "main (void)\n"
  "{\n"
  "  printf (\"Hello\\n\");\n"
  "  return 0;\n"
  "}\n";

static const char *new_hello =
  "#include <stdio.h>\n"
  "\n"
  "int\n"
  "main (int    argc,\n"
  "      char **argv)\n"
  "{\n"
  "  const char *name = argc > 1 ? argv[1] : \"world\";\n"
  "\n"
  "  printf (\"Hello, %s!\\n\", name);\n"
  "  return 0;\n"
  "}\n";

void
demo_step_free (DemoStep *step)
{
  if (step == NULL)
    return;

  g_clear_pointer (&step->update, json_node_unref);
  g_free (step->chunk_kind);
  g_free (step->message_id);
  g_clear_pointer (&step->chunks, g_ptr_array_unref);
  g_free (step->tool_call_id);
  g_clear_pointer (&step->tool_call, json_node_unref);
  g_clear_pointer (&step->if_allowed, g_ptr_array_unref);
  g_clear_pointer (&step->if_rejected, g_ptr_array_unref);
  g_free (step);
}

static GPtrArray *
steps_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) demo_step_free);
}

/* --- JSON helpers --- */

static JsonNode *
node_take_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);

  return node;
}

static JsonNode *
node_take_array (JsonArray *array)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, array);

  return node;
}

static JsonObject *
update_new (const char *kind)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "sessionUpdate", kind);

  return object;
}

static JsonObject *
text_block (const char *text)
{
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);

  return block;
}

static JsonObject *
text_content (const char *text)
{
  JsonObject *content = json_object_new ();

  json_object_set_string_member (content, "type", "content");
  json_object_set_object_member (content, "content", text_block (text));

  return content;
}

static JsonObject *
diff_content (const char *path)
{
  JsonObject *content = json_object_new ();

  json_object_set_string_member (content, "type", "diff");
  json_object_set_string_member (content, "path", path);
  json_object_set_string_member (content, "oldText", old_hello);
  json_object_set_string_member (content, "newText", new_hello);

  return content;
}

static JsonArray *
array_of (JsonObject *first,
          ...)
{
  JsonArray *array = json_array_new ();
  va_list args;

  va_start (args, first);
  for (JsonObject *o = first; o != NULL; o = va_arg (args, JsonObject *))
    json_array_add_object_element (array, o);
  va_end (args);

  return array;
}

static JsonObject *
location (const char *path,
          gint64      line)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "path", path);
  if (line > 0)
    json_object_set_int_member (object, "line", line);

  return object;
}

static JsonObject *
tool_call_new (const char *id,
               const char *title,
               const char *kind,
               const char *status)
{
  JsonObject *object = update_new ("tool_call");

  json_object_set_string_member (object, "toolCallId", id);
  json_object_set_string_member (object, "title", title);
  json_object_set_string_member (object, "kind", kind);
  json_object_set_string_member (object, "status", status);

  return object;
}

static JsonObject *
tool_call_update_new (const char *id,
                      const char *status)
{
  JsonObject *object = update_new ("tool_call_update");

  json_object_set_string_member (object, "toolCallId", id);
  json_object_set_string_member (object, "status", status);

  return object;
}

static char *
new_id (const char *prefix)
{
  g_autofree char *uuid = g_uuid_string_random ();

  return g_strdup_printf ("%s-%.8s", prefix, uuid);
}

/* --- steps --- */

static DemoStep *
step_update (guint       delay_ms,
             JsonObject *update)
{
  DemoStep *step = g_new0 (DemoStep, 1);

  step->kind = DEMO_STEP_UPDATE;
  step->delay_ms = delay_ms;
  step->update = node_take_object (update);

  return step;
}

/* Cut text into pieces of min_words..max_words words (a word keeps the
 * white space after it), so that joined they give the text back exactly. */
static GPtrArray *
split_chunks (const char *text,
              guint       min_words,
              guint       max_words,
              guint32     seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  GPtrArray *chunks = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  while (*p != '\0')
    {
      guint words = (guint) g_rand_int_range (rand, (gint32) min_words, (gint32) max_words + 1);
      const char *start = p;

      for (guint i = 0; i < words && *p != '\0'; i++)
        {
          while (*p != '\0' && !g_ascii_isspace (*p))
            p++;
          while (*p != '\0' && g_ascii_isspace (*p))
            p++;
        }
      g_ptr_array_add (chunks, g_strndup (start, (gsize) (p - start)));
    }

  return chunks;
}

static DemoStep *
step_text (guint       delay_ms,
           const char *chunk_kind,
           const char *text,
           guint       chunk_delay_ms,
           guint       max_words,
           guint       chunks_per_tick)
{
  DemoStep *step = g_new0 (DemoStep, 1);

  step->kind = DEMO_STEP_TEXT;
  step->delay_ms = delay_ms;
  step->chunk_kind = g_strdup (chunk_kind);
  step->message_id = g_uuid_string_random ();
  {
    /* Each step is a message of its own: no trailing blank lines. */
    g_autofree char *trimmed = g_strchomp (g_strdup (text));

    step->chunks = split_chunks (trimmed, 1, max_words, g_str_hash (trimmed));
  }
  step->chunk_delay_ms = chunk_delay_ms;
  step->chunks_per_tick = chunks_per_tick;

  return step;
}

static DemoStep *
step_message (guint       delay_ms,
              const char *text)
{
  return step_text (delay_ms, "agent_message_chunk", text, MESSAGE_DELAY, 3, 1);
}

static DemoStep *
step_thought (guint       delay_ms,
              const char *text)
{
  return step_text (delay_ms, "agent_thought_chunk", text, THOUGHT_DELAY, 3, 1);
}

/* --- the plan --- */

typedef struct
{
  const char *content[3];
} PlanText;

static DemoStep *
step_plan (guint           delay_ms,
           const PlanText *text,
           const char     *s0,
           const char     *s1,
           const char     *s2)
{
  static const char *priorities[3] = { "high", "medium", "low" };
  const char *statuses[3] = { s0, s1, s2 };
  JsonObject *update = update_new ("plan");
  JsonArray *entries = json_array_new ();

  for (guint i = 0; i < 3; i++)
    {
      JsonObject *entry = json_object_new ();

      json_object_set_string_member (entry, "content", text->content[i]);
      json_object_set_string_member (entry, "priority", priorities[i]);
      json_object_set_string_member (entry, "status", statuses[i]);
      json_array_add_object_element (entries, entry);
    }
  json_object_set_array_member (update, "entries", entries);

  return step_update (delay_ms, update);
}

/* A client that shows plans by id gets the turn's plan as plan_update
 * updates of one planId: the same entries, in the steps and in the
 * branches of permission steps. */
static void
use_plan_updates (GPtrArray  *steps,
                  const char *plan_id)
{
  for (guint i = 0; steps != NULL && i < steps->len; i++)
    {
      DemoStep *step = g_ptr_array_index (steps, i);
      JsonObject *update, *plan;

      use_plan_updates (step->if_allowed, plan_id);
      use_plan_updates (step->if_rejected, plan_id);
      if (step->kind != DEMO_STEP_UPDATE)
        continue;
      update = json_node_get_object (step->update);
      if (g_strcmp0 (json_object_get_string_member (update, "sessionUpdate"), "plan") != 0)
        continue;

      plan = json_object_new ();
      json_object_set_string_member (plan, "type", "items");
      json_object_set_string_member (plan, "planId", plan_id);
      json_object_set_member (plan, "entries",
                              json_node_copy (json_object_get_member (update, "entries")));
      json_object_remove_member (update, "entries");
      json_object_set_string_member (update, "sessionUpdate", "plan_update");
      json_object_set_object_member (update, "plan", plan);
    }
}

/* --- the prompt --- */

typedef struct
{
  GString   *text;         /* the text blocks, joined */
  GPtrArray *attachments;  /* (element-type utf8) what each link, resource and image was */
} PromptInfo;

static void
prompt_info_clear (PromptInfo *info)
{
  if (info->text != NULL)
    g_string_free (info->text, TRUE);
  g_clear_pointer (&info->attachments, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PromptInfo, prompt_info_clear)

/* Backticks would break the inline code spans we put names in. */
static char *
code_safe (const char *text,
           gsize       max_chars)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *out = g_string_new (NULL);
  const char *p = valid;

  for (gsize n = 0; *p != '\0' && n < max_chars; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '`')
        c = '\'';
      else if (c == '\n' || c == '\r' || c == '\t')
        c = ' ';
      g_string_append_unichar (out, c);
    }
  if (*p != '\0')
    g_string_append (out, "…");

  return g_string_free (out, FALSE);
}

/* The last part of a URI or path (a folder's URI may end with a slash):
 * what a person calls the file */
static char *
base_name (const char *uri)
{
  g_autofree char *trimmed = g_strdup (uri);
  gsize length = strlen (trimmed);
  const char *slash;

  if (length > 1 && trimmed[length - 1] == '/')
    trimmed[length - 1] = '\0';
  slash = strrchr (trimmed, '/');

  return g_strdup (slash != NULL && slash[1] != '\0' ? slash + 1 : trimmed);
}

static guint
read_be16 (const guchar *p)
{
  return ((guint) p[0] << 8) | p[1];
}

static guint
read_be32 (const guchar *p)
{
  return ((guint) p[0] << 24) | ((guint) p[1] << 16) | ((guint) p[2] << 8) | p[3];
}

/* The pixel size written in a PNG's or a JPEG's header, without decoding
 * the image; FALSE when the data is neither (or cut short) */
static gboolean
image_dimensions (const guchar *data,
                  gsize         length,
                  guint        *width,
                  guint        *height)
{
  static const guchar png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

  if (length >= 24 && memcmp (data, png, sizeof png) == 0 && memcmp (data + 12, "IHDR", 4) == 0)
    {
      *width = read_be32 (data + 16);
      *height = read_be32 (data + 20);
      return TRUE;
    }

  if (length >= 4 && data[0] == 0xff && data[1] == 0xd8)
    {
      gsize i = 2;

      /* segments up to a start of frame (SOF0..SOF15 but DHT, JPG, DAC) */
      while (i + 4 <= length)
        {
          guint marker, size;

          if (data[i] != 0xff)
            return FALSE;
          marker = data[i + 1];
          if (marker == 0xff)
            {
              i++;
              continue;
            }
          if (marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01)
            {
              i += 2;
              continue;
            }
          size = read_be16 (data + i + 2);
          if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc)
            {
              if (i + 9 > length)
                return FALSE;
              *height = read_be16 (data + i + 5);
              *width = read_be16 (data + i + 7);
              return TRUE;
            }
          if (size < 2)
            return FALSE;
          i += 2 + size;
        }
    }

  return FALSE;
}

static char *
describe_image (JsonObject *block)
{
  const char *base64 = json_object_get_string_member_with_default (block, "data", "");
  const char *uri = json_object_get_string_member_with_default (block, "uri", NULL);
  g_autofree guchar *data = NULL;
  g_autofree char *name = NULL;
  g_autofree char *safe = NULL;
  gsize length = 0;
  guint width = 0, height = 0;

  name = uri != NULL ? base_name (uri) : g_strdup ("pasted image");
  safe = code_safe (name, 200);
  data = g_base64_decode (base64, &length);
  if (!image_dimensions (data, length, &width, &height))
    return g_strdup_printf ("`%s` (%" G_GSIZE_FORMAT " bytes, an image I cannot read)", safe, length);

  return g_strdup_printf ("`%s` (%u × %u image, %" G_GSIZE_FORMAT " bytes)", safe, width, height, length);
}

static void
prompt_info_init (PromptInfo *info,
                  JsonArray  *prompt)
{
  info->text = g_string_new (NULL);
  info->attachments = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; prompt != NULL && i < json_array_get_length (prompt); i++)
    {
      JsonNode *node = json_array_get_element (prompt, i);
      JsonObject *block;
      const char *type;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      block = json_node_get_object (node);
      type = json_object_get_string_member_with_default (block, "type", "");

      if (g_str_equal (type, "text"))
        {
          const char *text = json_object_get_string_member_with_default (block, "text", "");

          if (info->text->len > 0)
            g_string_append_c (info->text, '\n');
          g_string_append (info->text, text);
        }
      else if (g_str_equal (type, "resource_link"))
        {
          const char *name = json_object_get_string_member_with_default (block, "name", NULL);
          const char *uri = json_object_get_string_member_with_default (block, "uri", "?");
          const char *mime = json_object_get_string_member_with_default (block, "mimeType", "");
          JsonNode *size = json_object_get_member (block, "size");
          g_autofree char *safe = code_safe (name != NULL ? name : uri, 200);

          if (g_strcmp0 (mime, "inode/directory") == 0)
            g_ptr_array_add (info->attachments, g_strdup_printf ("`%s` (a folder, linked)", safe));
          else if (size != NULL && JSON_NODE_HOLDS_VALUE (size) &&
                   json_node_get_value_type (size) == G_TYPE_INT64)
            g_ptr_array_add (info->attachments,
                             g_strdup_printf ("`%s` (%" G_GINT64_FORMAT " bytes, linked)", safe,
                                              json_node_get_int (size)));
          else
            g_ptr_array_add (info->attachments, g_strdup_printf ("`%s` (linked)", safe));
        }
      else if (g_str_equal (type, "resource"))
        {
          JsonNode *member = json_object_get_member (block, "resource");
          JsonObject *resource = member != NULL && JSON_NODE_HOLDS_OBJECT (member)
                                 ? json_node_get_object (member) : NULL;
          const char *uri = NULL, *text = NULL;
          g_autofree char *name = NULL;
          g_autofree char *safe = NULL;

          if (resource != NULL)
            {
              uri = json_object_get_string_member_with_default (resource, "uri", NULL);
              text = json_object_get_string_member_with_default (resource, "text", NULL);
            }
          name = base_name (uri != NULL ? uri : "?");
          safe = code_safe (name, 200);
          if (text != NULL)
            g_ptr_array_add (info->attachments,
                             g_strdup_printf ("`%s` (%" G_GSIZE_FORMAT " bytes, embedded)", safe, strlen (text)));
          else
            g_ptr_array_add (info->attachments, g_strdup_printf ("`%s` (embedded)", safe));
        }
      else if (g_str_equal (type, "image"))
        {
          g_ptr_array_add (info->attachments, describe_image (block));
        }
    }
}

char *
demo_script_prompt_text (JsonArray *prompt)
{
  g_auto(PromptInfo) info = { NULL, NULL };

  prompt_info_init (&info, prompt);

  return g_strdup (info.text->str);
}

char *
demo_script_make_title (const char *prompt_text)
{
  g_autofree char *valid = g_utf8_make_valid (prompt_text != NULL ? prompt_text : "", -1);
  g_auto(GStrv) words = g_regex_split_simple ("\\s+", g_strstrip (valid), 0, 0);
  g_autoptr(GString) title = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; words[i] != NULL && n < TITLE_WORDS; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (title->len > 0)
        g_string_append_c (title, ' ');
      g_string_append (title, words[i]);
      n++;
    }

  if (title->len == 0)
    return g_strdup ("Demo session");

  if (g_utf8_strlen (title->str, -1) > TITLE_CHARS)
    {
      g_string_truncate (title, (gsize) (g_utf8_offset_to_pointer (title->str, TITLE_CHARS) - title->str));
      g_string_append (title, "…");
    }

  return g_string_free (g_steal_pointer (&title), FALSE);
}

/* --- session state --- */

typedef struct
{
  const char *id;
  const char *name;
  const char *description;
} Choice;

static const Choice modes[] = {
  { "code", "Code", "The demo pretends to read, edit and run things (it changes nothing)" },
  { "ask", "Ask", "The demo only pretends to read and answers; no edits, no commands" },
};

static const Choice models[] = {
  { "demo-quick", "Canned Quick", "Instant canned answers (no model behind them)" },
  { "demo-thorough", "Canned Thorough", "The same canned answers, with a longer thought first" },
};

const char *
demo_script_default_mode (void)
{
  return modes[0].id;
}

const char *
demo_script_default_model (void)
{
  return models[0].id;
}

static const Choice *
find_choice (const Choice *choices,
             gsize         n_choices,
             const char   *id)
{
  for (gsize i = 0; id != NULL && i < n_choices; i++)
    {
      if (g_str_equal (choices[i].id, id))
        return &choices[i];
    }

  return NULL;
}

gboolean
demo_script_is_mode (const char *mode_id)
{
  return find_choice (modes, G_N_ELEMENTS (modes), mode_id) != NULL;
}

gboolean
demo_script_is_model (const char *model_id)
{
  return find_choice (models, G_N_ELEMENTS (models), model_id) != NULL;
}

JsonNode *
demo_script_modes (const char *current_mode_id)
{
  JsonObject *state = json_object_new ();
  JsonArray *available = json_array_new ();

  for (gsize i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      JsonObject *mode = json_object_new ();

      json_object_set_string_member (mode, "id", modes[i].id);
      json_object_set_string_member (mode, "name", modes[i].name);
      json_object_set_string_member (mode, "description", modes[i].description);
      json_array_add_object_element (available, mode);
    }
  json_object_set_string_member (state, "currentModeId", current_mode_id);
  json_object_set_array_member (state, "availableModes", available);

  return node_take_object (state);
}

/* A select config option (its id is also its category) */
static JsonObject *
select_option (const char   *id,
               const char   *name,
               const char   *description,
               const Choice *choices,
               gsize         n_choices,
               const char   *current)
{
  JsonObject *option = json_object_new ();
  JsonArray *values = json_array_new ();

  for (gsize i = 0; i < n_choices; i++)
    {
      JsonObject *value = json_object_new ();

      json_object_set_string_member (value, "value", choices[i].id);
      json_object_set_string_member (value, "name", choices[i].name);
      json_object_set_string_member (value, "description", choices[i].description);
      json_array_add_object_element (values, value);
    }
  json_object_set_string_member (option, "id", id);
  json_object_set_string_member (option, "name", name);
  json_object_set_string_member (option, "description", description);
  json_object_set_string_member (option, "category", id);
  json_object_set_string_member (option, "type", "select");
  json_object_set_string_member (option, "currentValue", current);
  json_object_set_array_member (option, "options", values);

  return option;
}

/* The mode is a config option too: a client that has config options uses
 * them rather than modes, so it would not see the modes otherwise. */
JsonNode *
demo_script_config_options (const char *mode_id,
                            const char *model_id)
{
  return node_take_array (array_of (select_option ("mode", "Mode", "How far the demo pretends to go",
                                                   modes, G_N_ELEMENTS (modes), mode_id),
                                    select_option ("model", "Model", "Which canned answers the demo gives",
                                                   models, G_N_ELEMENTS (models), model_id),
                                    NULL));
}

JsonNode *
demo_script_permission_options (void)
{
  static const char *options[][3] = {
    { DEMO_OPTION_ALLOW_ONCE, "Allow", "allow_once" },
    { DEMO_OPTION_ALLOW_ALWAYS, "Always allow", "allow_always" },
    { DEMO_OPTION_REJECT_ONCE, "Reject", "reject_once" },
  };
  JsonArray *array = json_array_new ();

  for (gsize i = 0; i < G_N_ELEMENTS (options); i++)
    {
      JsonObject *option = json_object_new ();

      json_object_set_string_member (option, "optionId", options[i][0]);
      json_object_set_string_member (option, "name", options[i][1]);
      json_object_set_string_member (option, "kind", options[i][2]);
      json_array_add_object_element (array, option);
    }

  return node_take_array (array);
}

JsonNode *
demo_script_commands_update (void)
{
  static const char *commands[][3] = {
    { "help", "What the demo agent can show you", NULL },
    { "plan", "A turn that only makes and follows a plan", "what to plan" },
    { "diff", "A turn that only proposes an edit (asks for permission)", NULL },
    { "think", "A turn with a long thought before a short answer", "what to think about" },
    { "long", "A very long streamed answer, to try scrolling", NULL },
    { "code", "Code in three languages, a table, a diff and a long output", NULL },
  };
  JsonObject *update = update_new ("available_commands_update");
  JsonArray *array = json_array_new ();

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      JsonObject *command = json_object_new ();

      json_object_set_string_member (command, "name", commands[i][0]);
      json_object_set_string_member (command, "description", commands[i][1]);
      if (commands[i][2] != NULL)
        {
          JsonObject *input = json_object_new ();

          json_object_set_string_member (input, "hint", commands[i][2]);
          json_object_set_object_member (command, "input", input);
        }
      json_array_add_object_element (array, command);
    }
  json_object_set_array_member (update, "availableCommands", array);

  return node_take_object (update);
}

/* --- turns --- */

static const PlanText plan_code = { {
  "Read the project's README",
  "Propose a small edit to hello.c",
  "Run the tests",
} };

static const PlanText plan_code_rejected = { {
  "Read the project's README",
  "Propose a small edit to hello.c (rejected)",
  "Run the tests",
} };

static const PlanText plan_ask = { {
  "Read the project's README",
  "Think about an answer",
  "Answer in Markdown",
} };

static const PlanText plan_plan = { {
  "Understand the request",
  "Sketch an answer",
  "Write the answer down",
} };

static char *
mcp_servers_sentence (JsonArray *servers)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; servers != NULL && i < json_array_get_length (servers); i++)
    {
      JsonNode *node = json_array_get_element (servers, i);
      JsonObject *server;
      const char *type;
      const char *target;
      g_autofree char *name = NULL;
      g_autofree char *shown = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      server = json_node_get_object (node);
      name = code_safe (json_object_get_string_member_with_default (server, "name", "?"), 60);
      type = json_object_get_string_member_with_default (server, "type", "stdio");
      if (g_str_equal (type, "stdio"))
        {
          target = json_object_get_string_member_with_default (server, "command", "?");
          shown = code_safe (target, 120);
        }
      else
        {
          /* Never repeat a query string: it may hold a token. */
          g_auto(GStrv) parts = NULL;

          target = json_object_get_string_member_with_default (server, "url", "?");
          parts = g_strsplit_set (target, "?#", 2);
          shown = code_safe (parts[0] != NULL ? parts[0] : "?", 120);
        }

      g_string_append_printf (text, "%s`%s` (%s: `%s`)", n > 0 ? ", " : "", name,
                              g_str_equal (type, "http") || g_str_equal (type, "sse") ? type : "stdio",
                              shown);
      n++;
    }

  if (n == 0)
    return g_strdup ("I was given no MCP servers. Add some in Preferences and they will be "
                     "listed here in your next session.");

  return g_strdup_printf ("I was given %s MCP server%s: %s. The demo does not connect to %s; "
                          "it only shows you what was passed.",
                          n == 1 ? "this" : "these", n == 1 ? "" : "s", text->str,
                          n == 1 ? "it" : "them");
}

static char *
attachments_sentence (PromptInfo *info)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (info->attachments->len == 0)
    return g_strdup ("");

  for (guint i = 0; i < info->attachments->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "; " : "",
                            (const char *) g_ptr_array_index (info->attachments, i));

  return g_strdup_printf ("\n\nYou sent: %s. The demo only looks at their size.", text->str);
}

static const char *
model_name (const DemoTurnContext *context)
{
  const Choice *model = find_choice (models, G_N_ELEMENTS (models), context->model_id);

  return model != NULL ? model->name : models[0].name;
}

static gboolean
is_thorough (const DemoTurnContext *context)
{
  return g_strcmp0 (context->model_id, "demo-thorough") == 0;
}

static void
add_thought (GPtrArray             *steps,
             const char            *excerpt,
             const DemoTurnContext *context)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_append_printf (text,
                          "The request was “%s”. I am the demo agent: there is no model behind me, "
                          "so I will not really think about it. I will play my canned turn instead, "
                          "which shows what Palaver can display: a plan, tool calls (one of them an "
                          "edit that needs permission) and an answer in Markdown.",
                          excerpt);
  if (is_thorough (context))
    g_string_append (text,
                     "\n\nAs the “Canned Thorough” model I pretend to think a little longer. "
                     "I could answer at once, look at a file first, or propose a change. A real "
                     "agent would weigh these against the code in the project folder; my script "
                     "simply does all three, in that order.");

  g_ptr_array_add (steps, step_thought (PAUSE_SHORT, text->str));
}

static void
add_read_tool (GPtrArray             *steps,
               const DemoTurnContext *context)
{
  g_autofree char *id = new_id ("read");
  g_autofree char *path = g_build_filename (context->cwd, "README.md", NULL);
  JsonObject *update;
  JsonObject *raw_input;

  update = tool_call_new (id, "Read README.md", "read", "pending");
  json_object_set_array_member (update, "locations", array_of (location (path, 1), NULL));
  raw_input = json_object_new ();
  json_object_set_string_member (raw_input, "path", path);
  json_object_set_object_member (update, "rawInput", raw_input);
  g_ptr_array_add (steps, step_update (PAUSE_STEP, update));

  g_ptr_array_add (steps, step_update (PAUSE_SHORT, tool_call_update_new (id, "in_progress")));

  update = tool_call_update_new (id, "completed");
  json_object_set_array_member (update, "content", array_of (text_content (
    "# Demo project\n"
    "\n"
    "(Canned text: the demo agent did not read your README.)\n"
    "\n"
    "This project prints a greeting. Build it with `make`, test it with `make check`.\n"), NULL));
  g_ptr_array_add (steps, step_update (PAUSE_TOOL, update));
}

static JsonObject *
edit_tool_call (const char *id,
                const char *path,
                gboolean    as_update)
{
  JsonObject *object;

  if (as_update)
    {
      object = json_object_new ();
      json_object_set_string_member (object, "toolCallId", id);
      json_object_set_string_member (object, "title", "Edit hello.c");
      json_object_set_string_member (object, "kind", "edit");
      json_object_set_string_member (object, "status", "pending");
    }
  else
    {
      object = tool_call_new (id, "Edit hello.c", "edit", "pending");
    }
  json_object_set_array_member (object, "content", array_of (diff_content (path), NULL));
  json_object_set_array_member (object, "locations", array_of (location (path, 4), NULL));

  return object;
}

/* The edit: announce it, ask, and branch on the answer. with_plan: move the
 * plan on as the answer comes. */
static void
add_edit_tool (GPtrArray             *steps,
               const DemoTurnContext *context,
               gboolean               with_plan)
{
  g_autofree char *id = new_id ("edit");
  g_autofree char *path = g_build_filename (context->cwd, "hello.c", NULL);
  g_autoptr(GPtrArray) allowed = steps_new ();
  g_autoptr(GPtrArray) rejected = steps_new ();
  JsonObject *update;
  DemoStep *ask;

  g_ptr_array_add (steps, step_update (PAUSE_STEP, edit_tool_call (id, path, FALSE)));

  /* allowed */
  g_ptr_array_add (allowed, step_update (PAUSE_SHORT, tool_call_update_new (id, "in_progress")));
  update = tool_call_update_new (id, "completed");
  json_object_set_array_member (update, "content",
                                array_of (diff_content (path),
                                          text_content ("Demo only: this change was not written to disk."),
                                          NULL));
  g_ptr_array_add (allowed, step_update (PAUSE_TOOL, update));
  if (with_plan)
    g_ptr_array_add (allowed, step_plan (PAUSE_SHORT, &plan_code, "completed", "completed", "in_progress"));
  g_ptr_array_add (allowed,
                   step_message (PAUSE_SHORT,
                                 context->edits_always_allowed
                                 ? "You chose *Always allow* earlier, so I did not ask again. A real "
                                   "agent would have changed `hello.c` now; the demo wrote nothing.\n\n"
                                 : "You allowed the edit. A real agent would have changed `hello.c` "
                                   "now; the demo wrote nothing.\n\n"));

  /* rejected */
  update = tool_call_update_new (id, "failed");
  json_object_set_array_member (update, "content",
                                array_of (diff_content (path),
                                          text_content ("Rejected: nothing was changed."),
                                          NULL));
  g_ptr_array_add (rejected, step_update (PAUSE_SHORT, update));
  if (with_plan)
    g_ptr_array_add (rejected, step_plan (PAUSE_SHORT, &plan_code_rejected,
                                          "completed", "completed", "in_progress"));
  g_ptr_array_add (rejected,
                   step_message (PAUSE_SHORT,
                                 "You rejected the edit, so I left `hello.c` alone. That is fine: "
                                 "it was only a demo, and a real agent would respect it the same way.\n\n"));

  if (context->edits_always_allowed)
    {
      g_ptr_array_extend_and_steal (steps, g_steal_pointer (&allowed));
      return;
    }

  ask = g_new0 (DemoStep, 1);
  ask->kind = DEMO_STEP_PERMISSION;
  ask->delay_ms = PAUSE_SHORT;
  ask->tool_call_id = g_strdup (id);
  ask->tool_call = node_take_object (edit_tool_call (id, path, TRUE));
  ask->if_allowed = g_steal_pointer (&allowed);
  ask->if_rejected = g_steal_pointer (&rejected);
  g_ptr_array_add (steps, ask);
}

static void
add_execute_tool (GPtrArray             *steps,
                  const DemoTurnContext *context)
{
  g_autofree char *id = new_id ("run");
  JsonObject *update;
  JsonObject *raw;

  update = tool_call_new (id, "Run make check", "execute", "in_progress");
  raw = json_object_new ();
  json_object_set_string_member (raw, "command", "make check");
  json_object_set_string_member (raw, "cwd", context->cwd);
  json_object_set_object_member (update, "rawInput", raw);
  g_ptr_array_add (steps, step_update (PAUSE_STEP, update));

  update = tool_call_update_new (id, "completed");
  json_object_set_array_member (update, "content", array_of (text_content (
    "$ make check\n"
    "cc -Wall -o hello hello.c\n"
    "./hello tester\n"
    "Hello, tester!\n"
    "PASS: hello\n"
    "1 test passed\n"
    "(canned output: the demo agent ran nothing)\n"), NULL));
  raw = json_object_new ();
  json_object_set_int_member (raw, "exitCode", 0);
  json_object_set_object_member (update, "rawOutput", raw);
  g_ptr_array_add (steps, step_update (PAUSE_TOOL * 2, update));
}

static char *
closing_markdown (const DemoTurnContext *context,
                  gboolean               ask_mode)
{
  g_autoptr(GString) text = g_string_new ("## What you just saw\n\n");

  g_string_append (text,
                   "That was a **canned turn** from the *demo agent*. It showed:\n"
                   "\n"
                   "- a streamed *thought*\n"
                   "- a **plan** whose entries advanced as the turn went on\n");
  if (ask_mode)
    g_string_append (text,
                     "- a `read` tool call with its text\n"
                     "\n"
                     "In *Ask* mode the demo proposes no edits and runs no commands. Switch to "
                     "**Code** mode to see an edit with a diff and a permission request, and a "
                     "command with its output. The edit it proposes there looks like this:\n");
  else
    g_string_append (text,
                     "- three tool calls: `read`, `edit` (with a diff and a permission request) "
                     "and `execute`\n"
                     "- a session title and a usage report\n"
                     "\n"
                     "The edit it proposed looks like this:\n");
  g_string_append_printf (text, "\n```c\n%s```\n", new_hello);

  g_string_append_printf (text,
                          "\n"
                          "Things to try next:\n"
                          "\n"
                          "1. Type `/` to see the demo's commands, or send `/help` for a tour.\n"
                          "2. Send `/long` for a very long answer to scroll through.\n"
                          "3. Switch between the *Code* and *Ask* modes, or pick the other canned "
                          "model (this answer came from *%s*).\n"
                          "4. Close Palaver and open this session again: the demo keeps its "
                          "history and replays it.\n"
                          "\n"
                          "When you are ready for the real thing, add an agent such as Claude, "
                          "Codex or Gemini in Preferences. The protocol behind all of this is "
                          "described at [agentclientprotocol.com](https://agentclientprotocol.com/).\n",
                          model_name (context));

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
add_full_turn (GPtrArray             *steps,
               PromptInfo            *info,
               const char            *excerpt,
               const char            *unknown_command,
               const DemoTurnContext *context)
{
  gboolean ask_mode = g_strcmp0 (context->mode_id, "ask") == 0;
  const PlanText *plan = ask_mode ? &plan_ask : &plan_code;
  g_autofree char *mcp = mcp_servers_sentence (context->mcp_servers);
  g_autofree char *attached = attachments_sentence (info);
  g_autofree char *intro = NULL;
  g_autofree char *closing = NULL;
  g_autofree char *unknown = NULL;

  if (unknown_command != NULL)
    unknown = g_strdup_printf ("The demo has no `/%s` command (send `/help` to see them all), "
                               "so here is its usual canned turn.\n\n", unknown_command);

  add_thought (steps, excerpt, context);
  g_ptr_array_add (steps, step_plan (PAUSE_SHORT, plan, "in_progress", "pending", "pending"));

  intro = g_strdup_printf ("%s**This is the demo agent: every answer is canned.** No model is "
                           "involved, nothing leaves this computer, and no file is read, changed "
                           "or run.\n"
                           "\n"
                           "You wrote “%s”. I will pretend to work on it: %s\n"
                           "\n"
                           "%s%s\n\n",
                           unknown != NULL ? unknown : "",
                           excerpt,
                           ask_mode
                           ? "in *Ask* mode I only look at a file and answer."
                           : "first I look at a file, then I propose an edit (you will be asked "
                             "for permission), then I run the tests.",
                           mcp, attached);
  g_ptr_array_add (steps, step_message (PAUSE_SHORT, intro));

  add_read_tool (steps, context);
  if (ask_mode)
    {
      g_ptr_array_add (steps, step_plan (PAUSE_SHORT, plan, "completed", "in_progress", "pending"));
      g_ptr_array_add (steps, step_plan (PAUSE_STEP, plan, "completed", "completed", "in_progress"));
    }
  else
    {
      g_ptr_array_add (steps, step_plan (PAUSE_SHORT, plan, "completed", "in_progress", "pending"));
      add_edit_tool (steps, context, TRUE);
      add_execute_tool (steps, context);
    }

  g_ptr_array_add (steps, step_plan (PAUSE_SHORT, plan, "completed", "completed", "completed"));
  closing = closing_markdown (context, ask_mode);
  g_ptr_array_add (steps, step_message (PAUSE_SHORT, closing));
}

static void
add_help_turn (GPtrArray *steps)
{
  g_ptr_array_add (steps, step_message (PAUSE_SHORT,
    "**Palaver's demo agent** gives canned answers: no account, no model, and nothing on your "
    "computer is read, changed or run.\n"
    "\n"
    "It shows everything an agent can send:\n"
    "\n"
    "- streamed answers in Markdown, and *thoughts*\n"
    "- a **plan** that advances during the turn\n"
    "- tool calls that read, edit (with a diff and a permission request) and run commands\n"
    "- two modes (*Code* and *Ask*) and a model selector with two canned models\n"
    "- a session title, token usage, and a history you can reopen after a restart\n"
    "\n"
    "Commands:\n"
    "\n"
    "1. `/help`: this text\n"
    "2. `/plan`: a turn that makes and follows a plan\n"
    "3. `/diff`: a turn that only proposes an edit\n"
    "4. `/think`: a long thought, then a short answer\n"
    "5. `/long`: a very long answer, to try scrolling\n"
    "6. `/code`: code in three languages, a table, a diff and a long output\n"
    "\n"
    "Anything else you send gets the full canned turn. Press **Stop** during a turn to see "
    "how cancelling works.\n"));
}

static void
add_plan_turn (GPtrArray  *steps,
               const char *excerpt)
{
  g_autofree char *thought = g_strdup_printf ("A plan for “%s”, then. A canned one, of course.",
                                              excerpt);

  g_ptr_array_add (steps, step_thought (PAUSE_SHORT, thought));
  g_ptr_array_add (steps, step_plan (PAUSE_SHORT, &plan_plan, "pending", "pending", "pending"));
  g_ptr_array_add (steps, step_plan (PAUSE_STEP, &plan_plan, "in_progress", "pending", "pending"));
  g_ptr_array_add (steps, step_message (PAUSE_STEP,
    "**Step one** (canned): I would read the request twice and note what is unclear.\n\n"));
  g_ptr_array_add (steps, step_plan (PAUSE_STEP, &plan_plan, "completed", "in_progress", "pending"));
  g_ptr_array_add (steps, step_message (PAUSE_STEP,
    "**Step two** (canned): I would sketch the answer as a short list.\n\n"));
  g_ptr_array_add (steps, step_plan (PAUSE_STEP, &plan_plan, "completed", "completed", "in_progress"));
  g_ptr_array_add (steps, step_message (PAUSE_STEP,
    "**Step three** (canned): I would write it down. Done: the plan above is complete, and "
    "nothing was actually planned by a model.\n"));
  g_ptr_array_add (steps, step_plan (PAUSE_SHORT, &plan_plan, "completed", "completed", "completed"));
}

static void
add_diff_turn (GPtrArray             *steps,
               const DemoTurnContext *context)
{
  g_ptr_array_add (steps, step_message (PAUSE_SHORT,
    "Here is a canned edit to `hello.c`. You will be asked for permission; whatever you "
    "choose, the demo writes nothing.\n\n"));
  add_edit_tool (steps, context, FALSE);
}

static void
add_think_turn (GPtrArray  *steps,
                const char *excerpt)
{
  g_autoptr(GString) thought = g_string_new (NULL);

  g_string_append_printf (thought, "Something to think about: “%s”.\n\n", excerpt);
  for (guint i = 1; i <= 6; i++)
    g_string_append_printf (thought,
                            "Canned thought %u of 6. A real agent would reason here about the "
                            "code, the request and the next step to take. The demo agent only "
                            "pretends, so that you can see how a long thought streams in and how "
                            "it folds away once the answer starts.\n\n", i);

  g_ptr_array_add (steps, step_thought (PAUSE_SHORT, thought->str));
  g_ptr_array_add (steps, step_message (PAUSE_SHORT,
    "After all that (canned) thinking, the answer is short: **42**. It is a demo.\n"));
}

static const char *long_sentences[] = {
  "This is a very long canned answer from the demo agent, streamed in thousands of small chunks.",
  "Scroll up while it streams: the view should stay where you put it.",
  "Scroll back to the bottom and it should follow the new text again.",
  "None of this text means anything; it only fills the screen.",
  "A real agent writes long answers when it explains a large change.",
  "The chunks arrive a word or two at a time, as they would from a model.",
  "Press Stop at any moment to cancel the rest of this answer.",
};

static void
add_long_turn (GPtrArray *steps)
{
  g_autoptr(GString) text = g_string_new (
    "**A long canned answer** follows, for trying scrolling. It is a demo: the text repeats.\n\n");
  guint s = 0;

  for (guint i = 1; i <= 120; i++)
    {
      if (i % 10 == 1)
        g_string_append_printf (text, "## Part %u\n\n", i / 10 + 1);

      if (i % 7 == 0)
        {
          for (guint j = 0; j < 3; j++, s++)
            g_string_append_printf (text, "- %s\n", long_sentences[s % G_N_ELEMENTS (long_sentences)]);
          g_string_append_c (text, '\n');
          continue;
        }
      if (i % 13 == 0)
        {
          g_string_append_printf (text, "```\nparagraph %u: canned code block\n```\n\n", i);
          continue;
        }

      g_string_append_printf (text, "Paragraph %u. ", i);
      for (guint j = 0; j < 5; j++, s++)
        g_string_append_printf (text, "%s ", long_sentences[s % G_N_ELEMENTS (long_sentences)]);
      g_string_append (text, "\n\n");
    }
  g_string_append (text, "**The end.** That was the whole long answer.\n");

  g_ptr_array_add (steps, step_text (PAUSE_SHORT, "agent_message_chunk", text->str,
                                     LONG_DELAY, 2, 3));
}

/* Code blocks in three languages, a table, a diff fenced in the answer and
 * a command's output of CODE_OUTPUT_LINES lines */
#define CODE_OUTPUT_LINES 600

static void
add_code_turn (GPtrArray             *steps,
               const DemoTurnContext *context)
{
  g_autofree char *id = new_id ("run");
  g_autoptr(GString) output = g_string_new ("$ ./run-tests --verbose\n");
  JsonObject *update;
  JsonObject *raw;

  g_ptr_array_add (steps, step_message (PAUSE_SHORT,
    "Here is **canned code**, as an agent would show it. The greeting in C:\n"
    "\n"
    "```c\n"
    "#include <stdio.h>\n"
    "\n"
    "int\n"
    "main (int argc, char *argv[])\n"
    "{\n"
    "  const char *name = argc > 1 ? argv[1] : \"world\";\n"
    "\n"
    "  printf (\"Hello, %s!\\n\", name);\n"
    "  return 0;\n"
    "}\n"
    "```\n"
    "\n"
    "The same in Python:\n"
    "\n"
    "```python\n"
    "import sys\n"
    "\n"
    "def greet(name: str = \"world\") -> str:\n"
    "    return f\"Hello, {name}!\"\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    print(greet(*sys.argv[1:2]))\n"
    "```\n"
    "\n"
    "Build it with the address sanitizer (the line is long: it scrolls sideways):\n"
    "\n"
    "```bash\n"
    "cc -Wall -Wextra -g -fsanitize=address,undefined -fno-omit-frame-pointer -o hello hello.c "
    "&& ./hello \"world\" && python3 hello.py \"world\"\n"
    "```\n"
    "\n"
    "| Language | File | Lines | Runs with |\n"
    "|:---------|:-----|------:|:----------|\n"
    "| C | `hello.c` | 10 | `cc`, then `./hello` |\n"
    "| Python | `hello.py` | 7 | `python3` |\n"
    "| Shell | `build.sh` | 1 | `sh`, any POSIX shell; the sanitizer needs GCC or Clang |\n"
    "\n"
    "And the change I would make, as a diff:\n"
    "\n"
    "```diff\n"
    "--- a/hello.c\n"
    "+++ b/hello.c\n"
    "@@ -5,6 +5,6 @@ main (int argc, char *argv[])\n"
    " {\n"
    "-  const char *name = \"world\";\n"
    "+  const char *name = argc > 1 ? argv[1] : \"world\";\n"
    " \n"
    "   printf (\"Hello, %s!\\n\", name);\n"
    "```\n"
    "\n"
    "Now the tests, which print a lot:\n\n"));

  update = tool_call_new (id, "Run `./run-tests --verbose`", "execute", "in_progress");
  raw = json_object_new ();
  json_object_set_string_member (raw, "command", "./run-tests --verbose");
  json_object_set_string_member (raw, "cwd", context->cwd);
  json_object_set_object_member (update, "rawInput", raw);
  g_ptr_array_add (steps, step_update (PAUSE_STEP, update));

  for (guint i = 1; i <= CODE_OUTPUT_LINES; i++)
    g_string_append_printf (output, "ok %u - greet %s (canned)\n", i, i % 2 == 0 ? "in C" : "in Python");
  update = tool_call_update_new (id, "completed");
  json_object_set_array_member (update, "content", array_of (text_content (output->str), NULL));
  raw = json_object_new ();
  json_object_set_int_member (raw, "exitCode", 0);
  json_object_set_object_member (update, "rawOutput", raw);
  g_ptr_array_add (steps, step_update (PAUSE_TOOL, update));

  g_ptr_array_add (steps, step_message (PAUSE_SHORT,
    "All 600 (canned) tests passed. Nothing was built or run: it is a demo.\n"));
}

static DemoStep *
step_usage (const DemoTurnContext *context,
            gsize                  prompt_len)
{
  JsonObject *update = update_new ("usage_update");
  JsonObject *cost = json_object_new ();
  gint64 size = 200000;
  gint64 used = 3000 + (gint64) context->turn_number * 2500 + (gint64) prompt_len / 4;

  json_object_set_int_member (update, "used", MIN (used, size));
  json_object_set_int_member (update, "size", size);
  json_object_set_double_member (cost, "amount", 0.0);
  json_object_set_string_member (cost, "currency", "USD");
  json_object_set_object_member (update, "cost", cost);

  return step_update (PAUSE_SHORT, update);
}

GPtrArray *
demo_script_build_turn (JsonArray             *prompt,
                        const DemoTurnContext *context)
{
  g_auto(PromptInfo) info = { NULL, NULL };
  g_autoptr(GPtrArray) steps = steps_new ();
  g_autofree char *excerpt = NULL;
  g_autofree char *command = NULL;
  const char *text;

  g_return_val_if_fail (context != NULL, NULL);
  g_return_val_if_fail (context->cwd != NULL, NULL);

  prompt_info_init (&info, prompt);
  text = info.text->str;
  while (g_ascii_isspace (*text))
    text++;

  if (text[0] == '/')
    {
      const char *end = text + 1;

      while (*end != '\0' && !g_ascii_isspace (*end))
        end++;
      command = g_ascii_strdown (text + 1, end - (text + 1));
      text = end;
      while (g_ascii_isspace (*text))
        text++;
    }
  excerpt = code_safe (text[0] != '\0' ? text : info.text->str, EXCERPT_CHARS);
  if (excerpt[0] == '\0')
    {
      g_free (excerpt);
      excerpt = g_strdup ("(nothing)");
    }

  if (g_strcmp0 (command, "help") == 0)
    add_help_turn (steps);
  else if (g_strcmp0 (command, "plan") == 0)
    add_plan_turn (steps, excerpt);
  else if (g_strcmp0 (command, "diff") == 0)
    add_diff_turn (steps, context);
  else if (g_strcmp0 (command, "think") == 0)
    add_think_turn (steps, excerpt);
  else if (g_strcmp0 (command, "long") == 0)
    add_long_turn (steps);
  else if (g_strcmp0 (command, "code") == 0)
    add_code_turn (steps, context);
  else
    add_full_turn (steps, &info, excerpt, command, context);

  if (context->title != NULL)
    {
      JsonObject *update = update_new ("session_info_update");

      json_object_set_string_member (update, "title", context->title);
      if (context->updated_at != NULL)
        json_object_set_string_member (update, "updatedAt", context->updated_at);
      g_ptr_array_insert (steps, MIN (1, (gint) steps->len), step_update (PAUSE_SHORT, update));
    }

  g_ptr_array_add (steps, step_usage (context, info.text->len));

  if (context->plan_updates)
    {
      g_autofree char *plan_id = g_uuid_string_random ();

      use_plan_updates (steps, plan_id);
    }

  return g_steal_pointer (&steps);
}
