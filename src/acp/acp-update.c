/* acp-update.c: one session/update, taken apart where it was read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* An agent replaying a long session sends hundreds of thousands of
 * session/update notifications. As json-glib trees each one is many small
 * allocations, and freed on another thread than the one that built it they
 * cost more again; walking one for its members is a hash lookup and a
 * string comparison each. So the agent has every update taken apart in the
 * connection's reading thread, from the document it was read into (see
 * AcpConnectionPreparer, acp-json-reader.c and acp-agent.c): the parse
 * function of its variant (the table in acp-update-variants.c) checks its
 * members and keeps what applying it needs, and the main thread gets an
 * AcpUpdate. What the items keep of it is made there too: a tool call's
 * content and locations, a plan's entries and a chunk's content block as
 * list models of typed values (acp-values-private.h), plain GObjects that
 * may change threads; what stays JSON (a tool call's raw input and output
 * and its `_meta`) as json-glib values that belong to the update alone
 * (json-glib does not count references atomically).
 *
 * A variant without a parse function (the session-level ones, rare) keeps
 * its update object, which its handler reads; so does one unknown to
 * Palaver, which becomes a generic item. A malformed update keeps the error
 * its parse function found, and applying it fails with that error. */

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "acp-error.h"
#include "acp-json-reader.h"
#include "acp-update-private.h"
#include "acp-values-private.h"

/* Text chunks are joined up to about this many bytes */
#define JOIN_MAX (1024 * 1024)

G_DEFINE_BOXED_TYPE (AcpUpdate, acp_update, acp_update_ref, acp_update_unref)

/* --- checking members --- */

gboolean
_acp_update_invalid (GError     **error,
                     const char  *variant,
                     const char  *format,
                     ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
               "Invalid %s update: %s", variant, message);

  return FALSE;
}

static gboolean
is_string (const AcpJsonValue *value)
{
  return acp_json_value_is (value, ACP_JSON_STRING);
}

static gboolean
is_null (const AcpJsonValue *value)
{
  return value == NULL || acp_json_value_is (value, ACP_JSON_NULL);
}

/* An optional string member: absent or null gives NULL; another type is an
 * error. A required one must be a string. */
static gboolean
get_string (const AcpJsonDoc    *doc,
            const AcpJsonValue  *object,
            const char          *name,
            gboolean             required,
            const char         **out,
            const char          *variant,
            GError             **error)
{
  const AcpJsonValue *value = acp_json_value_get_member (doc, object, name);

  *out = NULL;

  if (is_string (value))
    {
      *out = acp_json_value_get_string (doc, value);
      return TRUE;
    }
  if (required)
    return _acp_update_invalid (error, variant, "%s must be a string", name);
  if (!is_null (value))
    return _acp_update_invalid (error, variant, "%s must be a string or null", name);

  return TRUE;
}

/* An optional array member: absent or null gives NULL. */
static gboolean
get_array (const AcpJsonDoc     *doc,
           const AcpJsonValue   *object,
           const char           *name,
           gboolean              required,
           const AcpJsonValue  **out,
           const char           *variant,
           GError              **error)
{
  const AcpJsonValue *value = acp_json_value_get_member (doc, object, name);

  *out = NULL;

  if (acp_json_value_is (value, ACP_JSON_ARRAY))
    {
      *out = value;
      return TRUE;
    }
  if (required)
    return _acp_update_invalid (error, variant, "%s must be an array", name);
  if (!is_null (value))
    return _acp_update_invalid (error, variant, "%s must be an array or null", name);

  return TRUE;
}

/* A ContentBlock: an object with a string type; a text block has a string
 * text. Other types are checked where they are made into an
 * AcpContentBlock. */
static gboolean
check_content_block (const AcpJsonDoc    *doc,
                     const AcpJsonValue  *block,
                     const char          *where,
                     const char         **text_out,
                     const char          *variant,
                     GError             **error)
{
  const char *type;

  if (!acp_json_value_is (block, ACP_JSON_OBJECT))
    return _acp_update_invalid (error, variant, "%s must be a content block object", where);

  type = acp_json_value_get_string_member (doc, block, "type");
  if (type == NULL)
    return _acp_update_invalid (error, variant, "%s.type must be a string", where);

  if (text_out != NULL)
    *text_out = NULL;

  if (strcmp (type, "text") == 0)
    {
      const char *text = acp_json_value_get_string_member (doc, block, "text");

      if (text == NULL)
        return _acp_update_invalid (error, variant, "%s.text must be a string", where);
      if (text_out != NULL)
        *text_out = text;
    }

  return TRUE;
}

/* --- tool calls --- */

static const char * const tool_kinds[] = {
  "read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other",
};

static const char * const tool_statuses[] = {
  "pending", "in_progress", "completed", "failed",
};

/* Returns: the static string of @names equal to @name, or NULL */
static const char *
find_name (const char * const *names,
           guint               n_names,
           const char         *name)
{
  for (guint i = 0; i < n_names; i++)
    {
      if (strcmp (names[i], name) == 0)
        return names[i];
    }

  return NULL;
}

void
_acp_tool_call_fields_clear (AcpToolCallFields *fields)
{
  g_clear_pointer (&fields->tool_call_id, g_free);
  g_clear_pointer (&fields->title, g_free);
  g_clear_pointer (&fields->name, g_free);
  fields->tool_kind = NULL;
  fields->status = NULL;
  g_clear_object (&fields->content);
  g_clear_object (&fields->locations);
  g_clear_pointer (&fields->raw_input, json_node_unref);
  g_clear_pointer (&fields->raw_output, json_node_unref);
  g_clear_pointer (&fields->meta, json_object_unref);
}

gboolean
_acp_tool_call_fields_parse (AcpToolCallFields   *fields,
                             const AcpJsonDoc    *doc,
                             const AcpJsonValue  *object,
                             const char          *variant,
                             GError             **error)
{
  const char *id, *title, *name, *kind, *status;
  const AcpJsonValue *content, *locations, *raw_input, *raw_output, *meta;

  _acp_tool_call_fields_clear (fields);

  /* Check everything before keeping anything. */
  if (!get_string (doc, object, "toolCallId", TRUE, &id, variant, error) ||
      !get_string (doc, object, "title", FALSE, &title, variant, error) ||
      !get_string (doc, object, "name", FALSE, &name, variant, error) ||
      !get_string (doc, object, "kind", FALSE, &kind, variant, error) ||
      !get_string (doc, object, "status", FALSE, &status, variant, error) ||
      !get_array (doc, object, "content", FALSE, &content, variant, error) ||
      !get_array (doc, object, "locations", FALSE, &locations, variant, error))
    return FALSE;

  fields->tool_call_id = g_strdup (id);
  fields->title = g_strdup (title);
  fields->name = g_strdup (name);
  if (kind != NULL)
    {
      fields->tool_kind = find_name (tool_kinds, G_N_ELEMENTS (tool_kinds), kind);
      if (fields->tool_kind == NULL)
        {
          g_debug ("Unknown tool kind “%s”, using “other”", kind);
          fields->tool_kind = "other";
        }
    }
  if (status != NULL)
    {
      fields->status = find_name (tool_statuses, G_N_ELEMENTS (tool_statuses), status);
      if (fields->status == NULL)
        g_debug ("Unknown tool call status “%s”, ignored", status);
    }
  if (content != NULL)
    fields->content = _acp_values_new_list (doc, content, ACP_TYPE_TOOL_CALL_CONTENT,
                                            (AcpValueParseFunc) _acp_tool_call_content_new_from_json,
                                            "tool call content");
  if (locations != NULL)
    fields->locations = _acp_values_new_list (doc, locations, ACP_TYPE_LOCATION,
                                              (AcpValueParseFunc) _acp_location_new_from_json,
                                              "tool call location");

  raw_input = acp_json_value_get_member (doc, object, "rawInput");
  raw_output = acp_json_value_get_member (doc, object, "rawOutput");
  meta = acp_json_value_get_member (doc, object, "_meta");
  if (!is_null (raw_input))
    fields->raw_input = acp_json_value_to_node (doc, raw_input);
  if (!is_null (raw_output))
    fields->raw_output = acp_json_value_to_node (doc, raw_output);
  /* the output of the agent's own terminals */
  if (acp_json_value_is (meta, ACP_JSON_OBJECT))
    {
      g_autoptr(JsonNode) node = acp_json_value_to_node (doc, meta);

      fields->meta = json_object_ref (json_node_get_object (node));
    }

  return TRUE;
}

/* tool_call and tool_call_update */
gboolean
_acp_update_parse_tool_call (AcpUpdate           *self,
                             const AcpJsonDoc    *doc,
                             const AcpJsonValue  *object,
                             GError             **error)
{
  return _acp_tool_call_fields_parse (&self->tool_call, doc, object, self->variant->name, error);
}

/* --- messages --- */

/* user_message_chunk, agent_message_chunk, agent_thought_chunk: the
 * messageId, and the text or the content block that is not text */
gboolean
_acp_update_parse_chunk (AcpUpdate           *self,
                         const AcpJsonDoc    *doc,
                         const AcpJsonValue  *object,
                         GError             **error)
{
  const char *variant = self->variant->name;
  const char *message_id, *text;
  const AcpJsonValue *content = acp_json_value_get_member (doc, object, "content");

  if (!get_string (doc, object, "messageId", FALSE, &message_id, variant, error) ||
      !check_content_block (doc, content, "content", &text, variant, error))
    return FALSE;

  /* a block that is not text: what its type requires (the schema's) */
  if (text == NULL)
    {
      const char *problem = NULL;

      self->block = _acp_content_block_new_from_json (doc, content, &problem);
      if (self->block == NULL)
        return _acp_update_invalid (error, variant, "content.%s", problem);
    }

  self->id = g_strdup (message_id);
  if (text != NULL)
    {
      const AcpJsonValue *text_value = acp_json_value_get_member (doc, content, "text");

      self->text = g_string_new_len (text, (gssize) acp_json_value_get_length (text_value));
      /* nothing else to it that joining would lose (annotations, _meta) */
      self->joinable = acp_json_value_get_size (object) == (message_id != NULL ? 3u : 2u) &&
                       acp_json_value_get_size (content) == 2;
    }

  return TRUE;
}

gboolean
_acp_update_join (AcpUpdate *self,
                  AcpUpdate *next)
{
  if (!self->joinable || !next->joinable || self->variant != next->variant ||
      g_strcmp0 (self->session_id, next->session_id) != 0 ||
      g_strcmp0 (self->id, next->id) != 0 || self->text->len >= JOIN_MAX)
    return FALSE;

  g_string_append_len (self->text, next->text->str, next->text->len);
  self->n_notifications += next->n_notifications;

  return TRUE;
}

/* --- plans --- */

/* plan: the valid entries */
gboolean
_acp_update_parse_plan (AcpUpdate           *self,
                        const AcpJsonDoc    *doc,
                        const AcpJsonValue  *object,
                        GError             **error)
{
  const AcpJsonValue *entries;

  if (!get_array (doc, object, "entries", TRUE, &entries, self->variant->name, error))
    return FALSE;

  self->entries = _acp_values_new_list (doc, entries, ACP_TYPE_PLAN_ENTRY,
                                        (AcpValueParseFunc) _acp_plan_entry_new_from_json,
                                        "plan entry");

  return TRUE;
}

/* plan_update: the planId and what the plan is: its valid entries, its
 * Markdown text or its file's URI */
gboolean
_acp_update_parse_plan_update (AcpUpdate           *self,
                               const AcpJsonDoc    *doc,
                               const AcpJsonValue  *object,
                               GError             **error)
{
  const char *variant = self->variant->name;
  const AcpJsonValue *plan = acp_json_value_get_member (doc, object, "plan");
  const AcpJsonValue *entries = NULL;
  const char *type, *plan_id, *text = NULL;
  AcpPlanForm form;

  if (!acp_json_value_is (plan, ACP_JSON_OBJECT))
    return _acp_update_invalid (error, variant, "plan must be an object");
  if (!get_string (doc, plan, "type", TRUE, &type, variant, error) ||
      !get_string (doc, plan, "planId", TRUE, &plan_id, variant, error))
    return FALSE;

  if (strcmp (type, "items") == 0)
    {
      form = ACP_PLAN_FORM_ITEMS;
      if (!get_array (doc, plan, "entries", TRUE, &entries, variant, error))
        return FALSE;
    }
  else if (strcmp (type, "markdown") == 0)
    {
      form = ACP_PLAN_FORM_MARKDOWN;
      if (!get_string (doc, plan, "content", TRUE, &text, variant, error))
        return FALSE;
    }
  else if (strcmp (type, "file") == 0)
    {
      form = ACP_PLAN_FORM_FILE;
      if (!get_string (doc, plan, "uri", TRUE, &text, variant, error))
        return FALSE;
    }
  else
    {
      return _acp_update_invalid (error, variant, "plan.type “%s” is not known", type);
    }

  self->id = g_strdup (plan_id);
  self->plan_form = form;
  if (entries != NULL)
    self->entries = _acp_values_new_list (doc, entries, ACP_TYPE_PLAN_ENTRY,
                                          (AcpValueParseFunc) _acp_plan_entry_new_from_json,
                                          "plan entry");
  if (text != NULL)
    self->text = g_string_new (text);

  return TRUE;
}

/* plan_removed: the planId */
gboolean
_acp_update_parse_plan_removed (AcpUpdate           *self,
                                const AcpJsonDoc    *doc,
                                const AcpJsonValue  *object,
                                GError             **error)
{
  const char *plan_id;

  if (!get_string (doc, object, "planId", TRUE, &plan_id, self->variant->name, error))
    return FALSE;

  self->id = g_strdup (plan_id);

  return TRUE;
}

/* --- notices and compactions --- */

/* notice: severity, title and description */
gboolean
_acp_update_parse_notice (AcpUpdate           *self,
                          const AcpJsonDoc    *doc,
                          const AcpJsonValue  *object,
                          GError             **error)
{
  const char *variant = self->variant->name;
  const char *severity, *title, *description;

  if (!get_string (doc, object, "severity", TRUE, &severity, variant, error) ||
      !get_string (doc, object, "title", TRUE, &title, variant, error) ||
      !get_string (doc, object, "description", FALSE, &description, variant, error))
    return FALSE;

  if (strcmp (severity, "warning") == 0)
    self->severity = ACP_NOTICE_SEVERITY_WARNING;
  else if (strcmp (severity, "error") == 0)
    self->severity = ACP_NOTICE_SEVERITY_ERROR;
  else
    self->severity = ACP_NOTICE_SEVERITY_INFO;
  self->title = g_strdup (title);
  self->description = g_strdup (description);

  return TRUE;
}

/* compaction_update: compactionId, status, the text of the summary's text
 * blocks (when it has one) and the error */
gboolean
_acp_update_parse_compaction_update (AcpUpdate           *self,
                                     const AcpJsonDoc    *doc,
                                     const AcpJsonValue  *object,
                                     GError             **error)
{
  const char *variant = self->variant->name;
  const char *compaction_id, *status, *failure;
  const AcpJsonValue *summary;

  if (!get_string (doc, object, "compactionId", TRUE, &compaction_id, variant, error) ||
      !get_string (doc, object, "status", TRUE, &status, variant, error) ||
      !get_array (doc, object, "summary", FALSE, &summary, variant, error) ||
      !get_string (doc, object, "error", FALSE, &failure, variant, error))
    return FALSE;

  self->id = g_strdup (compaction_id);
  self->status = g_strdup (status);
  self->description = g_strdup (failure);
  if (summary != NULL)
    {
      self->text = g_string_new (NULL);
      for (const AcpJsonValue *block = acp_json_value_get_first (doc, summary);
           block != NULL;
           block = acp_json_value_get_next (doc, block))
        {
          const char *block_text;

          if (check_content_block (doc, block, "summary", &block_text, variant, NULL) &&
              block_text != NULL)
            g_string_append (self->text, block_text);
        }
    }

  return TRUE;
}

/* compaction_summary_chunk: compactionId and the text of its content block
 * (none for another block) */
gboolean
_acp_update_parse_compaction_summary_chunk (AcpUpdate           *self,
                                            const AcpJsonDoc    *doc,
                                            const AcpJsonValue  *object,
                                            GError             **error)
{
  const char *variant = self->variant->name;
  const char *compaction_id, *text;

  if (!get_string (doc, object, "compactionId", TRUE, &compaction_id, variant, error) ||
      !check_content_block (doc, acp_json_value_get_member (doc, object, "content"), "content",
                            &text, variant, error))
    return FALSE;

  self->id = g_strdup (compaction_id);
  if (text != NULL)
    self->text = g_string_new (text);

  return TRUE;
}

/* --- the update --- */

AcpUpdate *
_acp_update_new_from_doc (const char         *session_id,
                          const AcpJsonDoc   *doc,
                          const AcpJsonValue *update)
{
  AcpUpdate *self = g_new0 (AcpUpdate, 1);
  const char *kind;

  g_atomic_ref_count_init (&self->ref_count);
  self->session_id = g_strdup (session_id);
  self->n_notifications = 1;

  kind = acp_json_value_get_string_member (doc, update, "sessionUpdate");
  if (kind == NULL)
    {
      g_set_error_literal (&self->error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "Invalid update: sessionUpdate must be a string");
      return self;
    }

  self->kind = g_strdup (kind);
  self->variant = _acp_update_variant_lookup (self->kind);
  if (self->variant == NULL || self->variant->parse == NULL)
    {
      g_autoptr(JsonNode) node = acp_json_value_to_node (doc, update);

      self->object = json_object_ref (json_node_get_object (node));
    }
  else
    {
      self->variant->parse (self, doc, update, &self->error);  /* keeps nothing when it fails */
    }

  if (!self->joinable)
    {
      GString *json = g_string_sized_new (256);

      acp_json_value_write (doc, update, json);
      self->json = g_string_free (json, FALSE);
    }

  return self;
}

AcpUpdate *
acp_update_new (const char *session_id,
                JsonObject *update)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (update != NULL, NULL);

  node = json_node_init_object (json_node_alloc (), update);
  return _acp_update_new_from_doc (session_id, doc, acp_json_doc_load (doc, node));
}

AcpUpdate *
acp_update_ref (AcpUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
acp_update_unref (AcpUpdate *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->session_id);
  g_free (self->kind);
  g_clear_error (&self->error);
  g_free (self->json);
  g_clear_pointer (&self->object, json_object_unref);
  g_free (self->id);
  if (self->text != NULL)
    g_string_free (self->text, TRUE);
  g_clear_object (&self->block);
  g_free (self->title);
  g_free (self->description);
  g_free (self->status);
  g_clear_object (&self->entries);
  _acp_tool_call_fields_clear (&self->tool_call);
  g_free (self);
}

char *
acp_update_dup_json (AcpUpdate *self)
{
  GString *json;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->json != NULL)
    return g_strdup (self->json);

  /* a text chunk with nothing more to it, maybe several joined */
  json = g_string_sized_new (64 + self->text->len);
  g_string_append (json, "{\"sessionUpdate\":");
  acp_json_write_string (json, self->kind, strlen (self->kind));
  if (self->id != NULL)
    {
      g_string_append (json, ",\"messageId\":");
      acp_json_write_string (json, self->id, strlen (self->id));
    }
  g_string_append (json, ",\"content\":{\"type\":\"text\",\"text\":");
  acp_json_write_string (json, self->text->str, self->text->len);
  g_string_append (json, "}}");

  return g_string_free (json, FALSE);
}

const char *
acp_update_get_session_id (AcpUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->session_id;
}

const char *
acp_update_get_kind (AcpUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->kind;
}

guint
acp_update_get_n_notifications (AcpUpdate *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_notifications;
}
