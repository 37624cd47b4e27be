/* acp-tool-call-item.c: a tool call in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-json.h"
#include "acp-tool-call-item.h"
#include "acp-update-private.h"
#include "acp-values-private.h"

/**
 * AcpToolCallItem:
 *
 * A tool call of the agent, merged from its `tool_call` and
 * `tool_call_update` notifications. Every property notifies only when its
 * value really changes. Its content and locations are list models of
 * typed values (#AcpToolCallContent, #AcpLocation), made where the
 * notification was read; a new list replaces the model whole.
 *
 * Its rawInput and rawOutput are whatever the agent sent; many agents put
 * a tool's result there alone (an MCP tool's result, a command's output),
 * so they are also offered as text to show.
 *
 * Agents that run commands themselves may stream what a command prints in
 * the `_meta` of the updates instead, for a terminal of their own that the
 * content names (see acp_tool_call_item_apply_meta()): the item keeps that
 * output, and says what it adds with the "terminal-output" signal and when a
 * terminal appears or ends with "terminal-changed".
 */
struct _AcpToolCallItem
{
  AcpItem    parent_instance;

  char      *tool_call_id;
  char      *title;         /* (nullable): "" */
  char      *name;
  const char *tool_kind;  /* interned: a few known values */
  const char *status;     /* likewise */
  gboolean   stopped;
  gboolean   rejected;
  GListModel *content;     /* (nullable): none yet */
  GListModel *locations;   /* (nullable): likewise */
  JsonNode  *raw_input;
  JsonNode  *raw_output;
  GPtrArray *terminals;   /* (element-type AgentTerminal) (nullable): in the order first
                           * reported; most tool calls have none */
};

/* A terminal the agent runs itself */
typedef struct
{
  char     *id;
  GString  *output;
  gsize     start;       /* the kept output is output->str + start */
  gboolean  truncated;
  gboolean  exited;
  int       exit_code;   /* -1: none reported */
  char     *signal_name;
} AgentTerminal;

static void
agent_terminal_free (AgentTerminal *terminal)
{
  g_free (terminal->id);
  g_string_free (terminal->output, TRUE);
  g_free (terminal->signal_name);
  g_free (terminal);
}

G_DEFINE_FINAL_TYPE (AcpToolCallItem, acp_tool_call_item, ACP_TYPE_ITEM)

enum {
  PROP_0,
  PROP_TOOL_CALL_ID,
  PROP_TITLE,
  PROP_NAME,
  PROP_TOOL_KIND,
  PROP_STATUS,
  PROP_STOPPED,
  PROP_REJECTED,
  PROP_CONTENT,
  PROP_LOCATIONS,
  PROP_RAW_INPUT,
  PROP_RAW_OUTPUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  TERMINAL_OUTPUT,
  TERMINAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
acp_tool_call_item_finalize (GObject *object)
{
  AcpToolCallItem *self = (AcpToolCallItem *)object;

  g_clear_pointer (&self->tool_call_id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_object (&self->content);
  g_clear_object (&self->locations);
  g_clear_pointer (&self->raw_input, json_node_unref);
  g_clear_pointer (&self->raw_output, json_node_unref);
  g_clear_pointer (&self->terminals, g_ptr_array_unref);

  G_OBJECT_CLASS (acp_tool_call_item_parent_class)->finalize (object);
}

static void
acp_tool_call_item_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AcpToolCallItem *self = ACP_TOOL_CALL_ITEM (object);

  switch (prop_id)
    {
    case PROP_TOOL_CALL_ID:
      g_value_set_string (value, self->tool_call_id);
      break;

    case PROP_TITLE:
      g_value_set_string (value, acp_tool_call_item_get_title (self));
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_TOOL_KIND:
      g_value_set_string (value, self->tool_kind);
      break;

    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;

    case PROP_STOPPED:
      g_value_set_boolean (value, self->stopped);
      break;

    case PROP_REJECTED:
      g_value_set_boolean (value, self->rejected);
      break;

    case PROP_CONTENT:
      g_value_set_object (value, acp_tool_call_item_get_content (self));
      break;

    case PROP_LOCATIONS:
      g_value_set_object (value, acp_tool_call_item_get_locations (self));
      break;

    case PROP_RAW_INPUT:
      g_value_set_boxed (value, self->raw_input);
      break;

    case PROP_RAW_OUTPUT:
      g_value_set_boxed (value, self->raw_output);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_tool_call_item_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AcpToolCallItem *self = ACP_TOOL_CALL_ITEM (object);

  switch (prop_id)
    {
    case PROP_TOOL_CALL_ID:
      self->tool_call_id = g_value_dup_string (value);
      break;

    case PROP_TITLE:
      acp_tool_call_item_set_title (self, g_value_get_string (value));
      break;

    case PROP_NAME:
      acp_tool_call_item_set_name (self, g_value_get_string (value));
      break;

    case PROP_TOOL_KIND:
      acp_tool_call_item_set_tool_kind (self, g_value_get_string (value));
      break;

    case PROP_STATUS:
      acp_tool_call_item_set_status (self, g_value_get_string (value));
      break;

    case PROP_RAW_INPUT:
      acp_tool_call_item_set_raw_input (self, g_value_get_boxed (value));
      break;

    case PROP_RAW_OUTPUT:
      acp_tool_call_item_set_raw_output (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_tool_call_item_class_init (AcpToolCallItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AcpItemClass *item_class = ACP_ITEM_CLASS (klass);

  object_class->finalize = acp_tool_call_item_finalize;
  object_class->get_property = acp_tool_call_item_get_property;
  object_class->set_property = acp_tool_call_item_set_property;

  item_class->kind = ACP_ITEM_KIND_TOOL_CALL;

  properties[PROP_TOOL_CALL_ID] =
    g_param_spec_string ("tool-call-id", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_TOOL_KIND] =
    g_param_spec_string ("tool-kind", NULL, NULL,
                         "other",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL,
                         "pending",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* unfinished when its turn ended; the status is what the agent said last */
  properties[PROP_STOPPED] =
    g_param_spec_boolean ("stopped", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* the person refused it when the agent asked for permission */
  properties[PROP_REJECTED] =
    g_param_spec_boolean ("rejected", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* AcpToolCallContent */
  properties[PROP_CONTENT] =
    g_param_spec_object ("content", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* AcpLocation */
  properties[PROP_LOCATIONS] =
    g_param_spec_object ("locations", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_RAW_INPUT] =
    g_param_spec_boxed ("raw-input", NULL, NULL,
                        JSON_TYPE_NODE,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_RAW_OUTPUT] =
    g_param_spec_boxed ("raw-output", NULL, NULL,
                        JSON_TYPE_NODE,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AcpToolCallItem::terminal-output:
   * @item: the tool call
   * @terminal_id: a terminal the agent runs itself
   * @text: what was added to its output (valid UTF-8)
   */
  signals[TERMINAL_OUTPUT] =
    g_signal_new ("terminal-output",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AcpToolCallItem::terminal-changed:
   * @item: the tool call
   * @terminal_id: a terminal the agent runs itself
   *
   * The agent reported the terminal for the first time, or its end.
   */
  signals[TERMINAL_CHANGED] =
    g_signal_new ("terminal-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
acp_tool_call_item_init (AcpToolCallItem *self)
{
  /* a million tool calls make a long history: nothing allocated that is
   * the same for most of them */
  self->tool_kind = g_intern_static_string ("other");
  self->status = g_intern_static_string ("pending");
}

/**
 * acp_tool_call_item_new:
 * @tool_call_id: the agent's id of the tool call
 *
 * Returns: (transfer full): a pending tool call of kind "other"
 */
AcpToolCallItem *
acp_tool_call_item_new (const char *tool_call_id)
{
  g_return_val_if_fail (tool_call_id != NULL, NULL);

  return g_object_new (ACP_TYPE_TOOL_CALL_ITEM,
                       "tool-call-id", tool_call_id,
                       NULL);
}

const char *
acp_tool_call_item_get_tool_call_id (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return self->tool_call_id;
}

static void
set_interned (AcpToolCallItem  *self,
              const char      **field,
              const char       *value,
              guint             prop_id)
{
  value = g_intern_string (value);
  if (*field == value)
    return;

  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
set_string (AcpToolCallItem  *self,
            char            **field,
            const char       *value,
            guint             prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

/* Takes @value in place of the list in @field, unless they hold the same
 * values (no list is an empty one) */
static void
set_list (AcpToolCallItem  *self,
          GListModel      **field,
          GListModel       *value,
          GEqualFunc        equal,
          guint             prop_id)
{
  guint n_old = *field != NULL ? g_list_model_get_n_items (*field) : 0;

  if (*field == value)
    return;
  if (n_old == 0 && g_list_model_get_n_items (value) == 0)
    return;
  if (*field != NULL && _acp_values_list_equal (*field, value, equal))
    return;

  g_set_object (field, value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
set_node (AcpToolCallItem  *self,
          JsonNode        **field,
          JsonNode         *value,
          guint             prop_id)
{
  if (*field == value)
    return;
  if (*field != NULL && value != NULL && json_node_equal (*field, value))
    return;

  g_clear_pointer (field, json_node_unref);
  if (value != NULL)
    *field = json_node_ref (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

const char *
acp_tool_call_item_get_title (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return self->title != NULL ? self->title : "";
}

void
acp_tool_call_item_set_title (AcpToolCallItem *self,
                              const char      *title)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  /* "" is kept as none */
  set_string (self, &self->title, title != NULL && *title != '\0' ? title : NULL, PROP_TITLE);
}

/**
 * acp_tool_call_item_get_name:
 * @self: an #AcpToolCallItem
 *
 * Returns: (nullable): the programmatic name of the tool
 */
const char *
acp_tool_call_item_get_name (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return self->name;
}

void
acp_tool_call_item_set_name (AcpToolCallItem *self,
                             const char      *name)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  set_string (self, &self->name, name, PROP_NAME);
}

const char *
acp_tool_call_item_get_tool_kind (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return self->tool_kind;
}

void
acp_tool_call_item_set_tool_kind (AcpToolCallItem *self,
                                  const char      *tool_kind)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  set_interned (self, &self->tool_kind, tool_kind != NULL ? tool_kind : "other", PROP_TOOL_KIND);
}

const char *
acp_tool_call_item_get_status (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return self->status;
}

/**
 * acp_tool_call_item_set_status:
 * @self: an #AcpToolCallItem
 * @status: (nullable): a ToolCallStatus, %NULL for "pending"
 *
 * Sets the status the agent reported; a tool call stopped with its turn
 * (see acp_tool_call_item_stop()) is no longer stopped: the agent said
 * where it is.
 */
void
acp_tool_call_item_set_status (AcpToolCallItem *self,
                               const char      *status)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_interned (self, &self->status, status != NULL ? status : "pending", PROP_STATUS);
  if (self->stopped)
    {
      self->stopped = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STOPPED]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * acp_tool_call_item_is_finished:
 * @self: an #AcpToolCallItem
 *
 * Returns: whether the agent reported the tool call completed or failed
 */
gboolean
acp_tool_call_item_is_finished (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), FALSE);

  return g_str_equal (self->status, "completed") || g_str_equal (self->status, "failed");
}

/**
 * acp_tool_call_item_get_stopped:
 * @self: an #AcpToolCallItem
 *
 * Returns: whether the tool call was left unfinished when its turn ended
 *   (or was cancelled, or the agent went away), until the agent reports a
 *   status again
 */
gboolean
acp_tool_call_item_get_stopped (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), FALSE);

  return self->stopped;
}

/**
 * acp_tool_call_item_stop:
 * @self: an #AcpToolCallItem
 *
 * Marks the tool call stopped if it is not finished: its turn is over, so
 * it is no longer running, whatever the agent last said.
 */
void
acp_tool_call_item_stop (AcpToolCallItem *self)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  if (self->stopped || acp_tool_call_item_is_finished (self))
    return;

  self->stopped = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STOPPED]);
}

/**
 * acp_tool_call_item_get_rejected:
 * @self: an #AcpToolCallItem
 *
 * Returns: whether the last answer to a permission request about the tool
 *   call refused it (a reject option was chosen): a "failed" status then
 *   means it was not allowed to run
 */
gboolean
acp_tool_call_item_get_rejected (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), FALSE);

  return self->rejected;
}

/**
 * acp_tool_call_item_set_rejected:
 * @self: an #AcpToolCallItem
 * @rejected: whether the person refused it, in the last answer to a
 *   permission request about it
 */
void
acp_tool_call_item_set_rejected (AcpToolCallItem *self,
                                 gboolean         rejected)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  rejected = !!rejected;
  if (rejected == self->rejected)
    return;

  self->rejected = rejected;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REJECTED]);
}

/**
 * acp_tool_call_item_get_content:
 * @self: an #AcpToolCallItem
 *
 * Returns: (transfer none): the #AcpToolCallContent values, never %NULL;
 *   the model never changes: the item notifies "content" when it holds
 *   another one
 */
GListModel *
acp_tool_call_item_get_content (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  if (self->content == NULL)
    self->content = _acp_values_new_empty_list (ACP_TYPE_TOOL_CALL_CONTENT);

  return self->content;
}

/**
 * acp_tool_call_item_get_locations:
 * @self: an #AcpToolCallItem
 *
 * Returns: (transfer none): the #AcpLocation values, never %NULL; the
 *   model never changes: the item notifies "locations" when it holds
 *   another one
 */
GListModel *
acp_tool_call_item_get_locations (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  if (self->locations == NULL)
    self->locations = _acp_values_new_empty_list (ACP_TYPE_LOCATION);

  return self->locations;
}

/**
 * acp_tool_call_item_get_raw_input:
 * @self: an #AcpToolCallItem
 *
 * Returns: (transfer none) (nullable): the raw input of the tool
 */
JsonNode *
acp_tool_call_item_get_raw_input (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return self->raw_input;
}

void
acp_tool_call_item_set_raw_input (AcpToolCallItem *self,
                                  JsonNode        *raw_input)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  set_node (self, &self->raw_input, raw_input, PROP_RAW_INPUT);
}

/**
 * acp_tool_call_item_get_raw_output:
 * @self: an #AcpToolCallItem
 *
 * Returns: (transfer none) (nullable): the raw output of the tool
 */
JsonNode *
acp_tool_call_item_get_raw_output (AcpToolCallItem *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return self->raw_output;
}

void
acp_tool_call_item_set_raw_output (AcpToolCallItem *self,
                                   JsonNode        *raw_output)
{
  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));

  set_node (self, &self->raw_output, raw_output, PROP_RAW_OUTPUT);
}

/**
 * _acp_tool_call_item_merge:
 * @self: an #AcpToolCallItem
 * @fields: the members of a ToolCall or ToolCallUpdate
 *
 * Takes in the members present in @fields (see
 * acp_transcript_merge_tool_call()), notifying once for all of them.
 */
void
_acp_tool_call_item_merge (AcpToolCallItem         *self,
                           const AcpToolCallFields *fields)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (fields->title != NULL)
    acp_tool_call_item_set_title (self, fields->title);
  if (fields->name != NULL)
    acp_tool_call_item_set_name (self, fields->name);
  if (fields->tool_kind != NULL)
    acp_tool_call_item_set_tool_kind (self, fields->tool_kind);
  if (fields->status != NULL)
    acp_tool_call_item_set_status (self, fields->status);
  if (fields->content != NULL)
    set_list (self, &self->content, fields->content, _acp_tool_call_content_equal, PROP_CONTENT);
  if (fields->locations != NULL)
    set_list (self, &self->locations, fields->locations, _acp_location_equal, PROP_LOCATIONS);
  if (fields->raw_input != NULL)
    acp_tool_call_item_set_raw_input (self, fields->raw_input);
  if (fields->raw_output != NULL)
    acp_tool_call_item_set_raw_output (self, fields->raw_output);
  /* the output of the agent's own terminals */
  if (fields->meta != NULL)
    acp_tool_call_item_apply_meta (self, fields->meta);
  g_object_thaw_notify (G_OBJECT (self));
}

/* --- raw values as text --- */

/* Appends the text of @node if it is a text content block */
static gboolean
append_text_block (GString  *text,
                   JsonNode *node)
{
  JsonObject *block;
  const char *value;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  block = json_node_get_object (node);
  value = acp_json_get_string (block, "text", NULL);
  if (g_strcmp0 (acp_json_get_string (block, "type", NULL), "text") != 0 || value == NULL)
    return FALSE;

  if (text->len > 0 && text->str[text->len - 1] != '\n')
    g_string_append_c (text, '\n');
  g_string_append (text, value);
  return TRUE;
}

/* The text of @blocks when every element is a text content block (or a
 * ToolCallContent of type "content" holding one) */
static char *
dup_text_blocks (JsonArray *blocks)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = json_array_get_length (blocks);

  if (n == 0)
    return NULL;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (blocks, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      if (object != NULL &&
          g_strcmp0 (acp_json_get_string (object, "type", NULL), "content") == 0 &&
          json_object_has_member (object, "content"))
        node = json_object_get_member (object, "content");

      if (!append_text_block (text, node))
        return NULL;
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* What a command printed, in the result objects of the agents that run
 * commands themselves */
static char *
dup_command_output (JsonObject *object)
{
  static const char * const members[] = { "aggregated_output", "output", "formatted_output" };
  const char *out, *err;

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      const char *value = acp_json_get_string (object, members[i], NULL);

      if (value != NULL)
        return g_strdup (value);
    }

  out = acp_json_get_string (object, "stdout", NULL);
  err = acp_json_get_string (object, "stderr", NULL);
  if (out == NULL && err == NULL)
    return NULL;
  if (out == NULL || *out == '\0')
    return g_strdup (err != NULL ? err : "");
  if (err == NULL || *err == '\0')
    return g_strdup (out);

  return g_strconcat (out, g_str_has_suffix (out, "\n") ? "" : "\n", err, NULL);
}

static char *
dup_raw_text (JsonNode *node,
              gboolean  output,
              gboolean *is_json)
{
  char *text = NULL;

  if (is_json != NULL)
    *is_json = FALSE;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));

  if (JSON_NODE_HOLDS_ARRAY (node))
    text = dup_text_blocks (json_node_get_array (node));
  else if (JSON_NODE_HOLDS_OBJECT (node) && output)
    {
      JsonObject *object = json_node_get_object (node);
      JsonArray *content = acp_json_get_array (object, "content");

      /* an MCP tool result */
      if (content != NULL)
        text = dup_text_blocks (content);
      if (text == NULL)
        text = dup_command_output (object);
    }

  if (text != NULL)
    return text;

  if (is_json != NULL)
    *is_json = TRUE;
  return json_to_string (node, TRUE);
}

/**
 * acp_tool_call_item_dup_raw_input_text:
 * @self: an #AcpToolCallItem
 * @is_json: (out) (optional): set to whether the text is JSON
 *
 * Returns: (transfer full) (nullable): the raw input as text: a string as
 *   it is, text content blocks as their text, anything else as indented
 *   JSON; %NULL without raw input
 */
char *
acp_tool_call_item_dup_raw_input_text (AcpToolCallItem *self,
                                       gboolean        *is_json)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return dup_raw_text (self->raw_input, FALSE, is_json);
}

/**
 * acp_tool_call_item_dup_raw_output_text:
 * @self: an #AcpToolCallItem
 * @is_json: (out) (optional): set to whether the text is JSON
 *
 * The raw output as text: a string as it is; text content blocks as their
 * text, alone or as the `content` of an MCP tool result; the output of a
 * command in the result objects of agents that run commands themselves
 * (`aggregated_output`, `output`, `formatted_output`, or `stdout` and
 * `stderr`); anything else as indented JSON.
 *
 * Returns: (transfer full) (nullable): the text, %NULL without raw output
 */
char *
acp_tool_call_item_dup_raw_output_text (AcpToolCallItem *self,
                                        gboolean        *is_json)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  return dup_raw_text (self->raw_output, TRUE, is_json);
}

static gboolean
is_shell (const char *program)
{
  static const char * const shells[] = { "sh", "bash", "dash", "zsh", "ksh", "fish", NULL };
  g_autofree char *base = g_path_get_basename (program);

  return g_strv_contains (shells, base);
}

/**
 * acp_tool_call_item_dup_command:
 * @self: an #AcpToolCallItem
 *
 * The command the tool runs, from `rawInput.command`: a string as it is;
 * an argv as a shell line, or, for a shell given `-c` and a script, the
 * script.
 *
 * Returns: (transfer full) (nullable): the command line
 */
char *
acp_tool_call_item_dup_command (AcpToolCallItem *self)
{
  JsonObject *input;
  JsonNode *command;
  JsonArray *argv;
  g_autoptr(GPtrArray) words = NULL;
  guint n;

  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  if (self->raw_input == NULL || !JSON_NODE_HOLDS_OBJECT (self->raw_input))
    return NULL;
  input = json_node_get_object (self->raw_input);
  command = json_object_get_member (input, "command");
  if (command == NULL)
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (command) && json_node_get_value_type (command) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (command));
  if (!JSON_NODE_HOLDS_ARRAY (command))
    return NULL;

  argv = json_node_get_array (command);
  n = json_array_get_length (argv);
  words = g_ptr_array_sized_new (n);   /* borrowed strings */
  for (guint i = 0; i < n; i++)
    {
      JsonNode *word = json_array_get_element (argv, i);

      if (!JSON_NODE_HOLDS_VALUE (word) || json_node_get_value_type (word) != G_TYPE_STRING)
        return NULL;
      g_ptr_array_add (words, (char *) json_node_get_string (word));
    }
  if (n == 0)
    return NULL;

  if (n == 3 && is_shell (g_ptr_array_index (words, 0)) &&
      (g_str_equal (g_ptr_array_index (words, 1), "-c") ||
       g_str_equal (g_ptr_array_index (words, 1), "-lc")))
    return g_strdup (g_ptr_array_index (words, 2));

  {
    g_autoptr(GString) line = g_string_new (NULL);

    for (guint i = 0; i < n; i++)
      {
        const char *word = g_ptr_array_index (words, i);
        gboolean plain = *word != '\0';

        for (const char *p = word; *p != '\0' && plain; p++)
          plain = g_ascii_isalnum (*p) || strchr ("-_./=:,+@%", *p) != NULL;

        if (i > 0)
          g_string_append_c (line, ' ');
        if (plain)
          g_string_append (line, word);
        else
          {
            g_autofree char *quoted = g_shell_quote (word);
            g_string_append (line, quoted);
          }
      }

    return g_string_free (g_steal_pointer (&line), FALSE);
  }
}

/**
 * acp_tool_call_item_get_exit_code:
 * @self: an #AcpToolCallItem
 * @exit_code: (out) (optional): the exit code
 *
 * Returns: whether the raw output is an object with an integer `exit_code`
 *   or `exitCode`
 */
gboolean
acp_tool_call_item_get_exit_code (AcpToolCallItem *self,
                                  int             *exit_code)
{
  JsonObject *output;
  gint64 value;

  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), FALSE);

  if (self->raw_output == NULL || !JSON_NODE_HOLDS_OBJECT (self->raw_output))
    return FALSE;
  output = json_node_get_object (self->raw_output);
  if (!acp_json_get_int (output, "exit_code", &value) &&
      !acp_json_get_int (output, "exitCode", &value))
    return FALSE;
  if (value < G_MININT || value > G_MAXINT)
    return FALSE;

  if (exit_code != NULL)
    *exit_code = (int) value;
  return TRUE;
}

/* --- the agent's own terminals --- */

static AgentTerminal *
find_terminal (AcpToolCallItem *self,
               const char      *terminal_id)
{
  for (guint i = 0; self->terminals != NULL && i < self->terminals->len; i++)
    {
      AgentTerminal *terminal = g_ptr_array_index (self->terminals, i);

      if (g_str_equal (terminal->id, terminal_id))
        return terminal;
    }

  return NULL;
}

/* The terminal of the `_meta` entry @key, known from now on; NULL (and
 * nothing known) when the entry is not an object with a string terminal_id */
static AgentTerminal *
meta_terminal (AcpToolCallItem  *self,
               JsonObject       *meta,
               const char       *key,
               JsonObject      **entry_out)
{
  JsonObject *entry = acp_json_get_object (meta, key);
  const char *id = entry != NULL ? acp_json_get_string (entry, "terminal_id", NULL) : NULL;
  AgentTerminal *terminal;

  *entry_out = entry;
  if (entry == NULL && json_object_has_member (meta, key))
    g_debug ("Tool call %s: _meta.%s is not an object, ignored", self->tool_call_id, key);
  if (entry == NULL)
    return NULL;
  if (id == NULL || !g_utf8_validate (id, -1, NULL))
    {
      g_debug ("Tool call %s: _meta.%s has no terminal_id, ignored", self->tool_call_id, key);
      return NULL;
    }

  terminal = find_terminal (self, id);
  if (terminal != NULL)
    return terminal;

  terminal = g_new0 (AgentTerminal, 1);
  terminal->id = g_strdup (id);
  terminal->output = g_string_new (NULL);
  terminal->exit_code = -1;
  if (self->terminals == NULL)
    self->terminals = g_ptr_array_new_with_free_func ((GDestroyNotify) agent_terminal_free);
  g_ptr_array_add (self->terminals, terminal);
  g_signal_emit (self, signals[TERMINAL_CHANGED], 0, terminal->id);

  return terminal;
}

/* Adds @data to the output, keeping its last
 * ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT bytes, cut at a character */
static void
append_terminal_output (AcpToolCallItem *self,
                        AgentTerminal   *terminal,
                        const char      *data)
{
  g_autofree char *valid = NULL;
  GString *output = terminal->output;

  if (*data == '\0')
    return;
  if (!g_utf8_validate (data, -1, NULL))
    data = valid = g_utf8_make_valid (data, -1);

  g_string_append (output, data);
  if (output->len - terminal->start > ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT)
    {
      gsize start = output->len - ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT;

      while (start < output->len && ((guchar) output->str[start] & 0xC0) == 0x80)
        start++;
      terminal->start = start;
      terminal->truncated = TRUE;
      /* what is dropped goes once it is as long as what is kept */
      if (terminal->start >= ACP_TOOL_CALL_ITEM_TERMINAL_OUTPUT_LIMIT)
        {
          g_string_erase (output, 0, (gssize) terminal->start);
          terminal->start = 0;
        }
    }

  g_signal_emit (self, signals[TERMINAL_OUTPUT], 0, terminal->id, data);
}

static void
apply_terminal_exit (AcpToolCallItem *self,
                     AgentTerminal   *terminal,
                     JsonObject      *exit)
{
  const char *signal_name = acp_json_get_string (exit, "signal", NULL);
  gint64 code;

  if (!acp_json_get_int (exit, "exit_code", &code) || code < 0 || code > G_MAXINT)
    code = -1;
  if (signal_name != NULL && !g_utf8_validate (signal_name, -1, NULL))
    signal_name = NULL;
  if (terminal->exited && terminal->exit_code == code &&
      g_strcmp0 (terminal->signal_name, signal_name) == 0)
    return;

  terminal->exited = TRUE;
  terminal->exit_code = (int) code;
  g_free (terminal->signal_name);
  terminal->signal_name = g_strdup (signal_name);
  g_signal_emit (self, signals[TERMINAL_CHANGED], 0, terminal->id);
}

/**
 * acp_tool_call_item_apply_meta:
 * @self: an #AcpToolCallItem
 * @meta: the `_meta` of a `tool_call` or `tool_call_update`
 *
 * Takes in what the agent reports there of the terminals it runs itself,
 * as codex-acp does for its commands (whether or not the client offered
 * terminals), each entry naming its terminal in `terminal_id`:
 * `terminal_info` (a terminal starts), `terminal_output_delta` and Zed's
 * `terminal_output` (`data`: more of its output, appended) and
 * `terminal_exit` (`exit_code` and `signal`, either null: it ended), in
 * that order when an update holds several. Malformed entries and other
 * members are ignored.
 */
void
acp_tool_call_item_apply_meta (AcpToolCallItem *self,
                               JsonObject      *meta)
{
  static const char * const output_keys[] = { "terminal_output_delta", "terminal_output" };
  AgentTerminal *terminal;
  JsonObject *entry;

  g_return_if_fail (ACP_IS_TOOL_CALL_ITEM (self));
  g_return_if_fail (meta != NULL);

  meta_terminal (self, meta, "terminal_info", &entry);

  for (guint i = 0; i < G_N_ELEMENTS (output_keys); i++)
    {
      const char *data;

      terminal = meta_terminal (self, meta, output_keys[i], &entry);
      if (terminal == NULL)
        continue;
      data = acp_json_get_string (entry, "data", NULL);
      if (data != NULL)
        append_terminal_output (self, terminal, data);
      else
        g_debug ("Tool call %s: _meta.%s has no data, ignored", self->tool_call_id, output_keys[i]);
    }

  terminal = meta_terminal (self, meta, "terminal_exit", &entry);
  if (terminal != NULL)
    apply_terminal_exit (self, terminal, entry);
}

/**
 * acp_tool_call_item_dup_terminal_ids:
 * @self: an #AcpToolCallItem
 *
 * Returns: (transfer full): the ids of the terminals the agent reported in
 *   `_meta`, in the order first reported
 */
char **
acp_tool_call_item_dup_terminal_ids (AcpToolCallItem *self)
{
  GStrvBuilder *builder;
  char **ids;

  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; self->terminals != NULL && i < self->terminals->len; i++)
    g_strv_builder_add (builder, ((AgentTerminal *) g_ptr_array_index (self->terminals, i))->id);
  ids = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return ids;
}

/**
 * acp_tool_call_item_get_terminal_output:
 * @self: an #AcpToolCallItem
 * @terminal_id: a terminal id
 * @truncated: (out) (optional): whether older output was dropped
 *
 * Returns: (nullable): the output of the agent's terminal kept so far,
 *   valid until it changes; %NULL when the agent reported no such terminal
 */
const char *
acp_tool_call_item_get_terminal_output (AcpToolCallItem *self,
                                        const char      *terminal_id,
                                        gboolean        *truncated)
{
  AgentTerminal *terminal;

  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), NULL);
  g_return_val_if_fail (terminal_id != NULL, NULL);

  terminal = find_terminal (self, terminal_id);
  if (truncated != NULL)
    *truncated = terminal != NULL && terminal->truncated;

  return terminal != NULL ? terminal->output->str + terminal->start : NULL;
}

/**
 * acp_tool_call_item_get_terminal_exit:
 * @self: an #AcpToolCallItem
 * @terminal_id: a terminal id
 * @exit_code: (out) (optional): the exit code, or -1 when the agent gave none
 * @signal_name: (out) (optional) (transfer none) (nullable): the signal that
 *   ended the command ("SIGTERM"), or %NULL
 *
 * Returns: whether the agent reported that the terminal's command ended
 */
gboolean
acp_tool_call_item_get_terminal_exit (AcpToolCallItem  *self,
                                      const char       *terminal_id,
                                      int              *exit_code,
                                      const char      **signal_name)
{
  AgentTerminal *terminal;

  g_return_val_if_fail (ACP_IS_TOOL_CALL_ITEM (self), FALSE);
  g_return_val_if_fail (terminal_id != NULL, FALSE);

  terminal = find_terminal (self, terminal_id);
  if (exit_code != NULL)
    *exit_code = terminal != NULL ? terminal->exit_code : -1;
  if (signal_name != NULL)
    *signal_name = terminal != NULL ? terminal->signal_name : NULL;

  return terminal != NULL && terminal->exited;
}
