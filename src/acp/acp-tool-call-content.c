/* acp-tool-call-content.c: a ToolCallContent of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-values-private.h"

/**
 * AcpToolCallContent:
 *
 * One thing a tool call shows: a content block, a diff of a file, or a
 * terminal (by id) whose output it embeds. A type this library does not
 * know is kept by its name alone. Immutable.
 */
struct _AcpToolCallContent
{
  GObject                 parent_instance;

  AcpToolCallContentKind  kind;
  char                   *type_name;
  AcpContentBlock        *block;
  char                   *path;
  char                   *old_text;
  char                   *new_text;
  char                   *terminal_id;
};

G_DEFINE_ENUM_TYPE (AcpToolCallContentKind, acp_tool_call_content_kind,
  G_DEFINE_ENUM_VALUE (ACP_TOOL_CALL_CONTENT_KIND_CONTENT, "content"),
  G_DEFINE_ENUM_VALUE (ACP_TOOL_CALL_CONTENT_KIND_DIFF, "diff"),
  G_DEFINE_ENUM_VALUE (ACP_TOOL_CALL_CONTENT_KIND_TERMINAL, "terminal"),
  G_DEFINE_ENUM_VALUE (ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN, "unknown"))

static const char * const kind_names[] = {
  [ACP_TOOL_CALL_CONTENT_KIND_CONTENT] = "content",
  [ACP_TOOL_CALL_CONTENT_KIND_DIFF] = "diff",
  [ACP_TOOL_CALL_CONTENT_KIND_TERMINAL] = "terminal",
};

G_DEFINE_FINAL_TYPE (AcpToolCallContent, acp_tool_call_content, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KIND,
  PROP_TYPE_NAME,
  PROP_BLOCK,
  PROP_PATH,
  PROP_OLD_TEXT,
  PROP_NEW_TEXT,
  PROP_TERMINAL_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_tool_call_content_finalize (GObject *object)
{
  AcpToolCallContent *self = (AcpToolCallContent *)object;

  g_free (self->type_name);
  g_clear_object (&self->block);
  g_free (self->path);
  g_free (self->old_text);
  g_free (self->new_text);
  g_free (self->terminal_id);

  G_OBJECT_CLASS (acp_tool_call_content_parent_class)->finalize (object);
}

static void
acp_tool_call_content_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AcpToolCallContent *self = ACP_TOOL_CALL_CONTENT (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;

    case PROP_TYPE_NAME:
      g_value_set_string (value, self->type_name);
      break;

    case PROP_BLOCK:
      g_value_set_object (value, self->block);
      break;

    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_OLD_TEXT:
      g_value_set_string (value, self->old_text);
      break;

    case PROP_NEW_TEXT:
      g_value_set_string (value, self->new_text);
      break;

    case PROP_TERMINAL_ID:
      g_value_set_string (value, self->terminal_id);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
string_property (const char *name)
{
  return g_param_spec_string (name, NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void
acp_tool_call_content_class_init (AcpToolCallContentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = acp_tool_call_content_finalize;
  object_class->get_property = acp_tool_call_content_get_property;

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       ACP_TYPE_TOOL_CALL_CONTENT_KIND,
                       ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TYPE_NAME] = string_property ("type-name");
  properties[PROP_BLOCK] =
    g_param_spec_object ("block", NULL, NULL,
                         ACP_TYPE_CONTENT_BLOCK,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] = string_property ("path");
  properties[PROP_OLD_TEXT] = string_property ("old-text");
  properties[PROP_NEW_TEXT] = string_property ("new-text");
  properties[PROP_TERMINAL_ID] = string_property ("terminal-id");

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_tool_call_content_init (AcpToolCallContent *self)
{
  self->kind = ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN;
}

static gboolean
parse_members (AcpToolCallContent *self,
               const AcpJsonDoc   *doc,
               const AcpJsonValue *value)
{
  const char *path, *new_text, *terminal_id;

  switch (self->kind)
    {
    case ACP_TOOL_CALL_CONTENT_KIND_CONTENT:
      self->block = _acp_content_block_new_from_json (doc, acp_json_value_get_member (doc, value, "content"),
                                                      NULL);
      return self->block != NULL;

    case ACP_TOOL_CALL_CONTENT_KIND_DIFF:
      path = acp_json_value_get_string_member (doc, value, "path");
      new_text = acp_json_value_get_string_member (doc, value, "newText");
      if (path == NULL || new_text == NULL)
        return FALSE;
      self->path = g_strdup (path);
      self->new_text = g_strdup (new_text);
      /* absent, null, or (falling back to its default) of another type: a new file */
      self->old_text = g_strdup (acp_json_value_get_string_member (doc, value, "oldText"));
      return TRUE;

    case ACP_TOOL_CALL_CONTENT_KIND_TERMINAL:
      terminal_id = acp_json_value_get_string_member (doc, value, "terminalId");
      self->terminal_id = g_strdup (terminal_id);
      return terminal_id != NULL;

    case ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN:
    default:
      /* newer agents, newer kinds: kept, the view shows what it can */
      return TRUE;
    }
}

/**
 * _acp_tool_call_content_new_from_json:
 * @doc: the document @value is in
 * @value: a ToolCallContent
 *
 * Returns: (transfer full) (nullable): the content, %NULL if @value is not
 *   an object with a string type and what its type requires: a valid
 *   content block, a diff's string path and newText, a terminal's string
 *   terminalId
 */
AcpToolCallContent *
_acp_tool_call_content_new_from_json (const AcpJsonDoc   *doc,
                                      const AcpJsonValue *value)
{
  g_autoptr(AcpToolCallContent) self = NULL;
  const char *type = acp_json_value_get_string_member (doc, value, "type");

  if (type == NULL)
    return NULL;

  self = g_object_new (ACP_TYPE_TOOL_CALL_CONTENT, NULL);
  self->kind = _acp_values_find_name (kind_names, G_N_ELEMENTS (kind_names), type,
                                      ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN);
  self->type_name = g_strdup (type);
  if (!parse_members (self, doc, value))
    return NULL;

  return g_steal_pointer (&self);
}

gboolean
_acp_tool_call_content_equal (gconstpointer a,
                              gconstpointer b)
{
  const AcpToolCallContent *x = a, *y = b;

  if (x == y)
    return TRUE;
  if ((x->block == NULL) != (y->block == NULL) ||
      (x->block != NULL && !_acp_content_block_equal (x->block, y->block)))
    return FALSE;

  return x->kind == y->kind &&
         g_strcmp0 (x->type_name, y->type_name) == 0 &&
         g_strcmp0 (x->path, y->path) == 0 &&
         g_strcmp0 (x->old_text, y->old_text) == 0 &&
         g_strcmp0 (x->new_text, y->new_text) == 0 &&
         g_strcmp0 (x->terminal_id, y->terminal_id) == 0;
}

AcpToolCallContentKind
acp_tool_call_content_get_kind (AcpToolCallContent *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_CONTENT (self), ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN);

  return self->kind;
}

const char *
acp_tool_call_content_get_type_name (AcpToolCallContent *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_CONTENT (self), NULL);

  return self->type_name;
}

/**
 * acp_tool_call_content_get_block:
 * @self: an #AcpToolCallContent
 *
 * Returns: (transfer none) (nullable): the content block of a "content"
 */
AcpContentBlock *
acp_tool_call_content_get_block (AcpToolCallContent *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_CONTENT (self), NULL);

  return self->block;
}

/**
 * acp_tool_call_content_get_path:
 * @self: an #AcpToolCallContent
 *
 * Returns: (nullable): the file a diff changes
 */
const char *
acp_tool_call_content_get_path (AcpToolCallContent *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_CONTENT (self), NULL);

  return self->path;
}

/**
 * acp_tool_call_content_get_old_text:
 * @self: an #AcpToolCallContent
 *
 * Returns: (nullable): a diff's old text; %NULL for a new file
 */
const char *
acp_tool_call_content_get_old_text (AcpToolCallContent *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_CONTENT (self), NULL);

  return self->old_text;
}

/**
 * acp_tool_call_content_get_new_text:
 * @self: an #AcpToolCallContent
 *
 * Returns: (nullable): a diff's new text (never %NULL for a diff)
 */
const char *
acp_tool_call_content_get_new_text (AcpToolCallContent *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_CONTENT (self), NULL);

  return self->new_text;
}

/**
 * acp_tool_call_content_get_terminal_id:
 * @self: an #AcpToolCallContent
 *
 * Returns: (nullable): the id of the terminal a "terminal" embeds
 */
const char *
acp_tool_call_content_get_terminal_id (AcpToolCallContent *self)
{
  g_return_val_if_fail (ACP_IS_TOOL_CALL_CONTENT (self), NULL);

  return self->terminal_id;
}
