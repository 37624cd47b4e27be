/* acp-permission-option.c: a PermissionOption of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-values-private.h"

/**
 * AcpPermissionOption:
 *
 * One answer the agent offers to its permission request: its id (what the
 * answer sends back), its name for people, and what kind of answer it is.
 * Immutable.
 */
struct _AcpPermissionOption
{
  GObject                  parent_instance;

  char                    *id;
  char                    *name;
  AcpPermissionOptionKind  kind;
};

G_DEFINE_ENUM_TYPE (AcpPermissionOptionKind, acp_permission_option_kind,
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_OPTION_KIND_ALLOW_ONCE, "allow_once"),
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_OPTION_KIND_ALLOW_ALWAYS, "allow_always"),
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_OPTION_KIND_REJECT_ONCE, "reject_once"),
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_OPTION_KIND_REJECT_ALWAYS, "reject_always"),
  G_DEFINE_ENUM_VALUE (ACP_PERMISSION_OPTION_KIND_UNKNOWN, "unknown"))

static const char * const kind_names[] = {
  [ACP_PERMISSION_OPTION_KIND_ALLOW_ONCE] = "allow_once",
  [ACP_PERMISSION_OPTION_KIND_ALLOW_ALWAYS] = "allow_always",
  [ACP_PERMISSION_OPTION_KIND_REJECT_ONCE] = "reject_once",
  [ACP_PERMISSION_OPTION_KIND_REJECT_ALWAYS] = "reject_always",
};

G_DEFINE_FINAL_TYPE (AcpPermissionOption, acp_permission_option, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_permission_option_finalize (GObject *object)
{
  AcpPermissionOption *self = (AcpPermissionOption *)object;

  g_free (self->id);
  g_free (self->name);

  G_OBJECT_CLASS (acp_permission_option_parent_class)->finalize (object);
}

static void
acp_permission_option_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AcpPermissionOption *self = ACP_PERMISSION_OPTION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_permission_option_class_init (AcpPermissionOptionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = acp_permission_option_finalize;
  object_class->get_property = acp_permission_option_get_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       ACP_TYPE_PERMISSION_OPTION_KIND,
                       ACP_PERMISSION_OPTION_KIND_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_permission_option_init (AcpPermissionOption *self)
{
  self->kind = ACP_PERMISSION_OPTION_KIND_UNKNOWN;
}

/**
 * _acp_permission_option_new_from_json:
 * @doc: the document @value is in
 * @value: a PermissionOption
 *
 * Returns: (transfer full) (nullable): the option, %NULL unless @value is
 *   an object with string optionId, name and kind (a kind this library does
 *   not know is kept as UNKNOWN)
 */
AcpPermissionOption *
_acp_permission_option_new_from_json (const AcpJsonDoc   *doc,
                                      const AcpJsonValue *value)
{
  const char *id = acp_json_value_get_string_member (doc, value, "optionId");
  const char *name = acp_json_value_get_string_member (doc, value, "name");
  const char *kind = acp_json_value_get_string_member (doc, value, "kind");
  AcpPermissionOption *self;

  if (id == NULL || name == NULL || kind == NULL)
    return NULL;

  self = g_object_new (ACP_TYPE_PERMISSION_OPTION, NULL);
  self->id = g_strdup (id);
  self->name = g_strdup (name);
  self->kind = _acp_values_find_name (kind_names, G_N_ELEMENTS (kind_names), kind,
                                      ACP_PERMISSION_OPTION_KIND_UNKNOWN);

  return self;
}

/**
 * acp_permission_option_get_id:
 * @self: an #AcpPermissionOption
 *
 * Returns: the optionId, which the answer names
 */
const char *
acp_permission_option_get_id (AcpPermissionOption *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_OPTION (self), NULL);

  return self->id;
}

/**
 * acp_permission_option_get_name:
 * @self: an #AcpPermissionOption
 *
 * Returns: the name to show (agents may write Markdown there)
 */
const char *
acp_permission_option_get_name (AcpPermissionOption *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_OPTION (self), NULL);

  return self->name;
}

AcpPermissionOptionKind
acp_permission_option_get_kind (AcpPermissionOption *self)
{
  g_return_val_if_fail (ACP_IS_PERMISSION_OPTION (self), ACP_PERMISSION_OPTION_KIND_UNKNOWN);

  return self->kind;
}
