/* acp-location.c: a ToolCallLocation of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-values-private.h"

/**
 * AcpLocation:
 *
 * A file a tool call reads or changes, and the line there if the agent
 * said which. Immutable.
 */
struct _AcpLocation
{
  GObject  parent_instance;

  char    *path;
  gint64   line;
};

G_DEFINE_FINAL_TYPE (AcpLocation, acp_location, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_LINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_location_finalize (GObject *object)
{
  AcpLocation *self = (AcpLocation *)object;

  g_free (self->path);

  G_OBJECT_CLASS (acp_location_parent_class)->finalize (object);
}

static void
acp_location_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  AcpLocation *self = ACP_LOCATION (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_LINE:
      g_value_set_int64 (value, self->line);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_location_class_init (AcpLocationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = acp_location_finalize;
  object_class->get_property = acp_location_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_LINE] =
    g_param_spec_int64 ("line", NULL, NULL,
                        -1, G_MAXUINT32, -1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_location_init (AcpLocation *self)
{
  self->line = -1;
}

/**
 * _acp_location_new_from_json:
 * @doc: the document @value is in
 * @value: a ToolCallLocation
 *
 * Returns: (transfer full) (nullable): the location, %NULL unless @value is
 *   an object with a string path; a line that is not a uint32 counts as
 *   none, as the schema says
 */
AcpLocation *
_acp_location_new_from_json (const AcpJsonDoc   *doc,
                             const AcpJsonValue *value)
{
  const char *path = acp_json_value_get_string_member (doc, value, "path");
  const AcpJsonValue *line;
  AcpLocation *self;

  if (path == NULL)
    return NULL;

  self = g_object_new (ACP_TYPE_LOCATION, NULL);
  self->path = g_strdup (path);
  line = acp_json_value_get_member (doc, value, "line");
  if (acp_json_value_is (line, ACP_JSON_INT) &&
      acp_json_value_get_int (line) >= 0 && acp_json_value_get_int (line) <= G_MAXUINT32)
    self->line = acp_json_value_get_int (line);

  return self;
}

gboolean
_acp_location_equal (gconstpointer a,
                     gconstpointer b)
{
  const AcpLocation *x = a, *y = b;

  return x == y || (x->line == y->line && g_strcmp0 (x->path, y->path) == 0);
}

const char *
acp_location_get_path (AcpLocation *self)
{
  g_return_val_if_fail (ACP_IS_LOCATION (self), NULL);

  return self->path;
}

gint64
acp_location_get_line (AcpLocation *self)
{
  g_return_val_if_fail (ACP_IS_LOCATION (self), -1);

  return self->line;
}
