/* acp-content-block.c: a ContentBlock of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-values-private.h"

/**
 * AcpContentBlock:
 *
 * What an agent shows or is shown: text, an image, audio, a link to a
 * resource or a resource embedded whole. Which members are set follows the
 * type:
 *
 * - text: the text;
 * - image: data (base64, as given), mime type, and a uri if given;
 * - audio: data and mime type;
 * - resource_link: uri, name, and the title, description, mime type and
 *   size if given;
 * - resource: the embedded resource's uri, its mime type if given, and its
 *   text or its blob (base64, as given);
 * - a type this library does not know: its name alone.
 *
 * Immutable.
 */
struct _AcpContentBlock
{
  GObject              parent_instance;

  AcpContentBlockType  block_type;
  char                *type_name;
  char                *text;
  char                *uri;
  char                *name;
  char                *title;
  char                *description;
  char                *mime_type;
  char                *data;
  char                *blob;
  gint64               size;
};

G_DEFINE_ENUM_TYPE (AcpContentBlockType, acp_content_block_type,
  G_DEFINE_ENUM_VALUE (ACP_CONTENT_BLOCK_TYPE_TEXT, "text"),
  G_DEFINE_ENUM_VALUE (ACP_CONTENT_BLOCK_TYPE_IMAGE, "image"),
  G_DEFINE_ENUM_VALUE (ACP_CONTENT_BLOCK_TYPE_AUDIO, "audio"),
  G_DEFINE_ENUM_VALUE (ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK, "resource_link"),
  G_DEFINE_ENUM_VALUE (ACP_CONTENT_BLOCK_TYPE_RESOURCE, "resource"),
  G_DEFINE_ENUM_VALUE (ACP_CONTENT_BLOCK_TYPE_UNKNOWN, "unknown"))

static const char * const type_names[] = {
  [ACP_CONTENT_BLOCK_TYPE_TEXT] = "text",
  [ACP_CONTENT_BLOCK_TYPE_IMAGE] = "image",
  [ACP_CONTENT_BLOCK_TYPE_AUDIO] = "audio",
  [ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK] = "resource_link",
  [ACP_CONTENT_BLOCK_TYPE_RESOURCE] = "resource",
};

G_DEFINE_FINAL_TYPE (AcpContentBlock, acp_content_block, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BLOCK_TYPE,
  PROP_TYPE_NAME,
  PROP_TEXT,
  PROP_URI,
  PROP_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_MIME_TYPE,
  PROP_DATA,
  PROP_BLOB,
  PROP_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_content_block_finalize (GObject *object)
{
  AcpContentBlock *self = (AcpContentBlock *)object;

  g_free (self->type_name);
  g_free (self->text);
  g_free (self->uri);
  g_free (self->name);
  g_free (self->title);
  g_free (self->description);
  g_free (self->mime_type);
  g_free (self->data);
  g_free (self->blob);

  G_OBJECT_CLASS (acp_content_block_parent_class)->finalize (object);
}

static void
acp_content_block_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AcpContentBlock *self = ACP_CONTENT_BLOCK (object);

  switch (prop_id)
    {
    case PROP_BLOCK_TYPE:
      g_value_set_enum (value, self->block_type);
      break;

    case PROP_TYPE_NAME:
      g_value_set_string (value, self->type_name);
      break;

    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;

    case PROP_URI:
      g_value_set_string (value, self->uri);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_MIME_TYPE:
      g_value_set_string (value, self->mime_type);
      break;

    case PROP_DATA:
      g_value_set_string (value, self->data);
      break;

    case PROP_BLOB:
      g_value_set_string (value, self->blob);
      break;

    case PROP_SIZE:
      g_value_set_int64 (value, self->size);
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
acp_content_block_class_init (AcpContentBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = acp_content_block_finalize;
  object_class->get_property = acp_content_block_get_property;

  properties[PROP_BLOCK_TYPE] =
    g_param_spec_enum ("block-type", NULL, NULL,
                       ACP_TYPE_CONTENT_BLOCK_TYPE,
                       ACP_CONTENT_BLOCK_TYPE_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TYPE_NAME] = string_property ("type-name");
  properties[PROP_TEXT] = string_property ("text");
  properties[PROP_URI] = string_property ("uri");
  properties[PROP_NAME] = string_property ("name");
  properties[PROP_TITLE] = string_property ("title");
  properties[PROP_DESCRIPTION] = string_property ("description");
  properties[PROP_MIME_TYPE] = string_property ("mime-type");
  properties[PROP_DATA] = string_property ("data");
  properties[PROP_BLOB] = string_property ("blob");
  properties[PROP_SIZE] =
    g_param_spec_int64 ("size", NULL, NULL,
                        -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_content_block_init (AcpContentBlock *self)
{
  self->block_type = ACP_CONTENT_BLOCK_TYPE_UNKNOWN;
  self->size = -1;
}

/* A required string member: FALSE (and @problem set) when it is not one */
static gboolean
take_required (const AcpJsonDoc    *doc,
               const AcpJsonValue  *object,
               const char          *member,
               char               **field,
               const char          *problem_text,
               const char         **problem)
{
  const char *value = acp_json_value_get_string_member (doc, object, member);

  if (value == NULL)
    {
      *problem = problem_text;
      return FALSE;
    }

  *field = g_strdup (value);
  return TRUE;
}

/* An optional string member: a value of another type counts as absent */
static void
take_optional (const AcpJsonDoc    *doc,
               const AcpJsonValue  *object,
               const char          *member,
               char               **field)
{
  *field = g_strdup (acp_json_value_get_string_member (doc, object, member));
}

static gboolean
parse_members (AcpContentBlock     *self,
               const AcpJsonDoc    *doc,
               const AcpJsonValue  *value,
               const char         **problem)
{
  switch (self->block_type)
    {
    case ACP_CONTENT_BLOCK_TYPE_TEXT:
      return take_required (doc, value, "text", &self->text, "text must be a string", problem);

    case ACP_CONTENT_BLOCK_TYPE_IMAGE:
      take_optional (doc, value, "uri", &self->uri);
      G_GNUC_FALLTHROUGH;

    case ACP_CONTENT_BLOCK_TYPE_AUDIO:
      return take_required (doc, value, "data", &self->data, "data must be a string", problem) &&
             take_required (doc, value, "mimeType", &self->mime_type,
                            "mimeType must be a string", problem);

    case ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK:
      {
        const AcpJsonValue *size = acp_json_value_get_member (doc, value, "size");

        take_optional (doc, value, "title", &self->title);
        take_optional (doc, value, "description", &self->description);
        take_optional (doc, value, "mimeType", &self->mime_type);
        if (acp_json_value_is (size, ACP_JSON_INT) && acp_json_value_get_int (size) >= 0)
          self->size = acp_json_value_get_int (size);

        return take_required (doc, value, "uri", &self->uri, "uri must be a string", problem) &&
               take_required (doc, value, "name", &self->name, "name must be a string", problem);
      }

    case ACP_CONTENT_BLOCK_TYPE_RESOURCE:
      {
        const AcpJsonValue *resource = acp_json_value_get_member (doc, value, "resource");

        if (!acp_json_value_is (resource, ACP_JSON_OBJECT))
          {
            *problem = "resource must be an object";
            return FALSE;
          }
        /* TextResourceContents or BlobResourceContents */
        take_optional (doc, resource, "text", &self->text);
        take_optional (doc, resource, "blob", &self->blob);
        take_optional (doc, resource, "mimeType", &self->mime_type);
        if (self->text == NULL && self->blob == NULL)
          {
            *problem = "resource.text or resource.blob must be a string";
            return FALSE;
          }
        return take_required (doc, resource, "uri", &self->uri,
                              "resource.uri must be a string", problem);
      }

    case ACP_CONTENT_BLOCK_TYPE_UNKNOWN:
    default:
      /* newer agents, newer types: kept, by name */
      return TRUE;
    }
}

/**
 * _acp_content_block_new_from_json:
 * @doc: the document @value is in
 * @value: a ContentBlock
 * @problem: (out) (optional): why @value is not a valid block, naming the
 *   member ("data must be a string")
 *
 * Returns: (transfer full) (nullable): the block, %NULL if @value is not
 *   an object with a string type and the members its type requires
 */
AcpContentBlock *
_acp_content_block_new_from_json (const AcpJsonDoc    *doc,
                                  const AcpJsonValue  *value,
                                  const char         **problem)
{
  g_autoptr(AcpContentBlock) self = NULL;
  const char *type;
  const char *ignored;

  if (problem == NULL)
    problem = &ignored;

  if (!acp_json_value_is (value, ACP_JSON_OBJECT))
    {
      *problem = "must be a content block object";
      return NULL;
    }
  type = acp_json_value_get_string_member (doc, value, "type");
  if (type == NULL)
    {
      *problem = "type must be a string";
      return NULL;
    }

  self = g_object_new (ACP_TYPE_CONTENT_BLOCK, NULL);
  self->block_type = _acp_values_find_name (type_names, G_N_ELEMENTS (type_names), type,
                                            ACP_CONTENT_BLOCK_TYPE_UNKNOWN);
  self->type_name = g_strdup (type);
  if (!parse_members (self, doc, value, problem))
    return NULL;

  return g_steal_pointer (&self);
}

gboolean
_acp_content_block_equal (gconstpointer a,
                          gconstpointer b)
{
  const AcpContentBlock *x = a, *y = b;

  return x == y ||
         (x->block_type == y->block_type && x->size == y->size &&
          g_strcmp0 (x->type_name, y->type_name) == 0 &&
          g_strcmp0 (x->text, y->text) == 0 &&
          g_strcmp0 (x->uri, y->uri) == 0 &&
          g_strcmp0 (x->name, y->name) == 0 &&
          g_strcmp0 (x->title, y->title) == 0 &&
          g_strcmp0 (x->description, y->description) == 0 &&
          g_strcmp0 (x->mime_type, y->mime_type) == 0 &&
          g_strcmp0 (x->data, y->data) == 0 &&
          g_strcmp0 (x->blob, y->blob) == 0);
}

AcpContentBlockType
acp_content_block_get_block_type (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), ACP_CONTENT_BLOCK_TYPE_UNKNOWN);

  return self->block_type;
}

/**
 * acp_content_block_get_type_name:
 * @self: an #AcpContentBlock
 *
 * Returns: the block's type as the agent sent it: the name of a known
 *   type, or of one this library does not know
 */
const char *
acp_content_block_get_type_name (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->type_name;
}

/**
 * acp_content_block_get_text:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): a text block's text, or an embedded resource's
 */
const char *
acp_content_block_get_text (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->text;
}

/**
 * acp_content_block_get_uri:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): a resource link's uri, an embedded resource's, or
 *   an image's when given
 */
const char *
acp_content_block_get_uri (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->uri;
}

/**
 * acp_content_block_get_name:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): a resource link's name
 */
const char *
acp_content_block_get_name (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->name;
}

/**
 * acp_content_block_get_title:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): a resource link's title for people, when given
 */
const char *
acp_content_block_get_title (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->title;
}

/**
 * acp_content_block_get_description:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): a resource link's description, when given
 */
const char *
acp_content_block_get_description (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->description;
}

/**
 * acp_content_block_get_mime_type:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): the MIME type of an image or audio, or of a
 *   resource when given
 */
const char *
acp_content_block_get_mime_type (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->mime_type;
}

/**
 * acp_content_block_get_data:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): an image's or audio's data, base64-encoded as the
 *   agent sent it
 */
const char *
acp_content_block_get_data (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->data;
}

/**
 * acp_content_block_get_blob:
 * @self: an #AcpContentBlock
 *
 * Returns: (nullable): an embedded binary resource, base64-encoded as the
 *   agent sent it
 */
const char *
acp_content_block_get_blob (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), NULL);

  return self->blob;
}

gint64
acp_content_block_get_size (AcpContentBlock *self)
{
  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (self), -1);

  return self->size;
}
