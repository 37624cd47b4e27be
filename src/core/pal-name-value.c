/* pal-name-value.c: one environment variable or HTTP header of an MCP server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-name-value.h"
#include "pal-store-private.h"

/**
 * PalNameValue:
 *
 * A name, a value and whether the value is a secret to show masked. The rows
 * of an MCP server editor bind to these.
 */
struct _PalNameValue
{
  GObject parent_instance;

  char *name;
  char *value;
  gboolean secret;
};

G_DEFINE_FINAL_TYPE (PalNameValue, pal_name_value, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_VALUE,
  PROP_SECRET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pal_name_value_finalize (GObject *object)
{
  PalNameValue *self = (PalNameValue *) object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->value, g_free);

  G_OBJECT_CLASS (pal_name_value_parent_class)->finalize (object);
}

static void
pal_name_value_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PalNameValue *self = PAL_NAME_VALUE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;
    case PROP_SECRET:
      g_value_set_boolean (value, self->secret);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_name_value_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PalNameValue *self = PAL_NAME_VALUE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      pal_name_value_set_name (self, g_value_get_string (value));
      break;
    case PROP_VALUE:
      pal_name_value_set_value (self, g_value_get_string (value));
      break;
    case PROP_SECRET:
      pal_name_value_set_secret (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_name_value_class_init (PalNameValueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pal_name_value_finalize;
  object_class->get_property = pal_name_value_get_property;
  object_class->set_property = pal_name_value_set_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_VALUE] =
    g_param_spec_string ("value", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SECRET] =
    g_param_spec_boolean ("secret", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_name_value_init (PalNameValue *self)
{
  self->name = g_strdup ("");
  self->value = g_strdup ("");
}

PalNameValue *
pal_name_value_new (const char *name,
                    const char *value,
                    gboolean    secret)
{
  return g_object_new (PAL_TYPE_NAME_VALUE,
                       "name", name,
                       "value", value,
                       "secret", secret,
                       NULL);
}

PalNameValue *
pal_name_value_copy (PalNameValue *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE (self), NULL);

  return pal_name_value_new (self->name, self->value, self->secret);
}

const char *
pal_name_value_get_name (PalNameValue *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE (self), NULL);
  return self->name;
}

void
pal_name_value_set_name (PalNameValue *self,
                         const char   *name)
{
  g_return_if_fail (PAL_IS_NAME_VALUE (self));

  if (_pal_set_string (&self->name, name != NULL ? name : ""))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

const char *
pal_name_value_get_value (PalNameValue *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE (self), NULL);
  return self->value;
}

void
pal_name_value_set_value (PalNameValue *self,
                          const char   *value)
{
  g_return_if_fail (PAL_IS_NAME_VALUE (self));

  if (_pal_set_string (&self->value, value != NULL ? value : ""))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE]);
}

gboolean
pal_name_value_get_secret (PalNameValue *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE (self), FALSE);
  return self->secret;
}

void
pal_name_value_set_secret (PalNameValue *self,
                           gboolean      secret)
{
  g_return_if_fail (PAL_IS_NAME_VALUE (self));

  secret = !!secret;
  if (self->secret == secret)
    return;
  self->secret = secret;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SECRET]);
}

/**
 * pal_name_value_name_looks_secret:
 * @name: (nullable): a variable or header name
 *
 * Returns: %TRUE for `Authorization` (also inside a longer name such as
 *   `Proxy-Authorization`) and names containing `TOKEN`, `KEY`, `SECRET` or
 *   `PASSWORD`, ignoring case: their values are masked unless the person
 *   says otherwise.
 */
gboolean
pal_name_value_name_looks_secret (const char *name)
{
  static const char * const words[] = { "AUTHORIZATION", "TOKEN", "KEY", "SECRET", "PASSWORD" };
  g_autofree char *upper = NULL;

  if (name == NULL)
    return FALSE;

  upper = g_ascii_strup (name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (upper, words[i]) != NULL)
      return TRUE;

  return FALSE;
}
