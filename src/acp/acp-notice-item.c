/* acp-notice-item.c: a notice (information, warning, error) in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-notice-item.h"

/**
 * AcpNoticeItem:
 *
 * Something to tell the person that is not a message: an agent's `notice`
 * update, a context compaction, a failed turn, an agent that exited.
 */
struct _AcpNoticeItem
{
  AcpItem            parent_instance;

  AcpNoticeSeverity  severity;
  char              *title;
  char              *body;
  char              *details;
};

G_DEFINE_ENUM_TYPE (AcpNoticeSeverity, acp_notice_severity,
  G_DEFINE_ENUM_VALUE (ACP_NOTICE_SEVERITY_INFO, "info"),
  G_DEFINE_ENUM_VALUE (ACP_NOTICE_SEVERITY_WARNING, "warning"),
  G_DEFINE_ENUM_VALUE (ACP_NOTICE_SEVERITY_ERROR, "error"))

G_DEFINE_FINAL_TYPE (AcpNoticeItem, acp_notice_item, ACP_TYPE_ITEM)

enum {
  PROP_0,
  PROP_SEVERITY,
  PROP_TITLE,
  PROP_BODY,
  PROP_DETAILS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
acp_notice_item_finalize (GObject *object)
{
  AcpNoticeItem *self = (AcpNoticeItem *)object;

  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->body, g_free);
  g_clear_pointer (&self->details, g_free);

  G_OBJECT_CLASS (acp_notice_item_parent_class)->finalize (object);
}

static void
acp_notice_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AcpNoticeItem *self = ACP_NOTICE_ITEM (object);

  switch (prop_id)
    {
    case PROP_SEVERITY:
      g_value_set_enum (value, self->severity);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_BODY:
      g_value_set_string (value, self->body);
      break;

    case PROP_DETAILS:
      g_value_set_string (value, self->details);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_notice_item_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AcpNoticeItem *self = ACP_NOTICE_ITEM (object);

  switch (prop_id)
    {
    case PROP_SEVERITY:
      acp_notice_item_set_severity (self, g_value_get_enum (value));
      break;

    case PROP_TITLE:
      acp_notice_item_set_title (self, g_value_get_string (value));
      break;

    case PROP_BODY:
      acp_notice_item_set_body (self, g_value_get_string (value));
      break;

    case PROP_DETAILS:
      acp_notice_item_set_details (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_notice_item_class_init (AcpNoticeItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AcpItemClass *item_class = ACP_ITEM_CLASS (klass);

  object_class->finalize = acp_notice_item_finalize;
  object_class->get_property = acp_notice_item_get_property;
  object_class->set_property = acp_notice_item_set_property;

  item_class->kind = ACP_ITEM_KIND_NOTICE;

  properties[PROP_SEVERITY] =
    g_param_spec_enum ("severity", NULL, NULL,
                       ACP_TYPE_NOTICE_SEVERITY,
                       ACP_NOTICE_SEVERITY_INFO,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_BODY] =
    g_param_spec_string ("body", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_DETAILS] =
    g_param_spec_string ("details", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_notice_item_init (AcpNoticeItem *self)
{
  self->severity = ACP_NOTICE_SEVERITY_INFO;
  self->title = g_strdup ("");
}

/**
 * acp_notice_item_new:
 * @severity: how serious it is
 * @title: (nullable): a short summary
 * @body: (nullable): more text
 * @details: (nullable): technical details (an agent's stderr tail)
 *
 * Returns: (transfer full): a new notice
 */
AcpNoticeItem *
acp_notice_item_new (AcpNoticeSeverity  severity,
                     const char        *title,
                     const char        *body,
                     const char        *details)
{
  return g_object_new (ACP_TYPE_NOTICE_ITEM,
                       "severity", severity,
                       "title", title,
                       "body", body,
                       "details", details,
                       NULL);
}

static void
set_string (AcpNoticeItem  *self,
            char          **field,
            const char     *value,
            guint           prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

AcpNoticeSeverity
acp_notice_item_get_severity (AcpNoticeItem *self)
{
  g_return_val_if_fail (ACP_IS_NOTICE_ITEM (self), ACP_NOTICE_SEVERITY_INFO);

  return self->severity;
}

void
acp_notice_item_set_severity (AcpNoticeItem     *self,
                              AcpNoticeSeverity  severity)
{
  g_return_if_fail (ACP_IS_NOTICE_ITEM (self));

  if (self->severity == severity)
    return;

  self->severity = severity;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEVERITY]);
}

const char *
acp_notice_item_get_title (AcpNoticeItem *self)
{
  g_return_val_if_fail (ACP_IS_NOTICE_ITEM (self), NULL);

  return self->title;
}

void
acp_notice_item_set_title (AcpNoticeItem *self,
                           const char    *title)
{
  g_return_if_fail (ACP_IS_NOTICE_ITEM (self));

  set_string (self, &self->title, title != NULL ? title : "", PROP_TITLE);
}

/**
 * acp_notice_item_get_body:
 * @self: an #AcpNoticeItem
 *
 * Returns: (nullable): the body text
 */
const char *
acp_notice_item_get_body (AcpNoticeItem *self)
{
  g_return_val_if_fail (ACP_IS_NOTICE_ITEM (self), NULL);

  return self->body;
}

void
acp_notice_item_set_body (AcpNoticeItem *self,
                          const char    *body)
{
  g_return_if_fail (ACP_IS_NOTICE_ITEM (self));

  set_string (self, &self->body, body, PROP_BODY);
}

/**
 * acp_notice_item_get_details:
 * @self: an #AcpNoticeItem
 *
 * Returns: (nullable): technical details
 */
const char *
acp_notice_item_get_details (AcpNoticeItem *self)
{
  g_return_val_if_fail (ACP_IS_NOTICE_ITEM (self), NULL);

  return self->details;
}

void
acp_notice_item_set_details (AcpNoticeItem *self,
                             const char    *details)
{
  g_return_if_fail (ACP_IS_NOTICE_ITEM (self));

  set_string (self, &self->details, details, PROP_DETAILS);
}
