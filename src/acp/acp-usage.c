/* acp-usage.c: how much of its context and money a session has used
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-error.h"
#include "acp-json.h"
#include "acp-usage.h"

/**
 * AcpUsage:
 *
 * What the last `usage_update` said: the tokens in the context window and
 * its size, and the session's cost so far when the agent tells it. It does
 * not change once made: the next update brings a new object.
 */
struct _AcpUsage
{
  GObject   parent_instance;

  guint64   used;
  guint64   size;
  gboolean  has_cost;
  double    cost_amount;
  char     *cost_currency;
};

G_DEFINE_FINAL_TYPE (AcpUsage, acp_usage, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_USED,
  PROP_SIZE,
  PROP_HAS_COST,
  PROP_COST_AMOUNT,
  PROP_COST_CURRENCY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_usage_finalize (GObject *object)
{
  AcpUsage *self = (AcpUsage *)object;

  g_clear_pointer (&self->cost_currency, g_free);

  G_OBJECT_CLASS (acp_usage_parent_class)->finalize (object);
}

static void
acp_usage_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  AcpUsage *self = ACP_USAGE (object);

  switch (prop_id)
    {
    case PROP_USED:
      g_value_set_uint64 (value, self->used);
      break;

    case PROP_SIZE:
      g_value_set_uint64 (value, self->size);
      break;

    case PROP_HAS_COST:
      g_value_set_boolean (value, self->has_cost);
      break;

    case PROP_COST_AMOUNT:
      g_value_set_double (value, self->cost_amount);
      break;

    case PROP_COST_CURRENCY:
      g_value_set_string (value, self->cost_currency);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_usage_class_init (AcpUsageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = acp_usage_finalize;
  object_class->get_property = acp_usage_get_property;

  properties[PROP_USED] = g_param_spec_uint64 ("used", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_SIZE] = g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_HAS_COST] = g_param_spec_boolean ("has-cost", NULL, NULL, FALSE, ro);
  properties[PROP_COST_AMOUNT] =
    g_param_spec_double ("cost-amount", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, ro);
  properties[PROP_COST_CURRENCY] = g_param_spec_string ("cost-currency", NULL, NULL, NULL, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_usage_init (AcpUsage *self)
{
}

static gboolean
node_is_count (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_INT64 &&
         json_node_get_int (node) >= 0;
}

static gboolean
node_is_number (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_INT64 ||
          json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

/**
 * acp_usage_new_from_json:
 * @object: a `usage_update` (or an object of the same members)
 * @error: return location for an error
 *
 * A usage needs non-negative integers `used` and `size`; its `cost`, when
 * present and not null, a number `amount` and a string `currency`.
 *
 * Returns: (transfer full) (nullable): the usage, or %NULL with
 *   %ACP_ERROR_INVALID_MESSAGE saying what is wrong with @object
 */
AcpUsage *
acp_usage_new_from_json (JsonObject  *object,
                         GError     **error)
{
  JsonNode *used, *size, *cost;
  JsonObject *cost_object = NULL;
  AcpUsage *self;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  used = json_object_get_member (object, "used");
  size = json_object_get_member (object, "size");
  cost = json_object_get_member (object, "cost");

  if (!node_is_count (used))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "used must be a non-negative integer");
      return NULL;
    }
  if (!node_is_count (size))
    {
      g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                           "size must be a non-negative integer");
      return NULL;
    }
  if (cost != NULL && !JSON_NODE_HOLDS_NULL (cost))
    {
      if (!JSON_NODE_HOLDS_OBJECT (cost))
        {
          g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                               "cost must be an object or null");
          return NULL;
        }
      cost_object = json_node_get_object (cost);
      if (!node_is_number (json_object_get_member (cost_object, "amount")) ||
          acp_json_get_string (cost_object, "currency", NULL) == NULL)
        {
          g_set_error_literal (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE,
                               "cost needs a number amount and a string currency");
          return NULL;
        }
    }

  self = g_object_new (ACP_TYPE_USAGE, NULL);
  self->used = (guint64) json_node_get_int (used);
  self->size = (guint64) json_node_get_int (size);
  if (cost_object != NULL)
    {
      self->has_cost = TRUE;
      self->cost_amount = json_node_get_double (json_object_get_member (cost_object, "amount"));
      self->cost_currency = g_strdup (acp_json_get_string (cost_object, "currency", NULL));
    }

  return self;
}

/* Returns: the tokens in the context window now */
guint64
acp_usage_get_used (AcpUsage *self)
{
  g_return_val_if_fail (ACP_IS_USAGE (self), 0);

  return self->used;
}

/* Returns: the size of the context window, in tokens */
guint64
acp_usage_get_size (AcpUsage *self)
{
  g_return_val_if_fail (ACP_IS_USAGE (self), 0);

  return self->size;
}

gboolean
acp_usage_get_has_cost (AcpUsage *self)
{
  g_return_val_if_fail (ACP_IS_USAGE (self), FALSE);

  return self->has_cost;
}

/* Returns: the session's cost so far (0 when it has none) */
double
acp_usage_get_cost_amount (AcpUsage *self)
{
  g_return_val_if_fail (ACP_IS_USAGE (self), 0.0);

  return self->cost_amount;
}

/**
 * acp_usage_get_cost_currency:
 * @self: an #AcpUsage
 *
 * Returns: (nullable): the currency of the cost (ISO 4217), or %NULL when
 *   the agent told no cost
 */
const char *
acp_usage_get_cost_currency (AcpUsage *self)
{
  g_return_val_if_fail (ACP_IS_USAGE (self), NULL);

  return self->cost_currency;
}

/**
 * acp_usage_equal:
 * @a: (nullable): an #AcpUsage
 * @b: (nullable): an #AcpUsage
 *
 * Returns: whether @a and @b say the same (two %NULL do)
 */
gboolean
acp_usage_equal (AcpUsage *a,
                 AcpUsage *b)
{
  g_return_val_if_fail (a == NULL || ACP_IS_USAGE (a), FALSE);
  g_return_val_if_fail (b == NULL || ACP_IS_USAGE (b), FALSE);

  if (a == NULL || b == NULL)
    return a == b;

  return a->used == b->used &&
         a->size == b->size &&
         a->has_cost == b->has_cost &&
         a->cost_amount == b->cost_amount &&
         g_strcmp0 (a->cost_currency, b->cost_currency) == 0;
}
