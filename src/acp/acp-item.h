/* acp-item.h: the base class of transcript items
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  ACP_ITEM_KIND_MESSAGE,
  ACP_ITEM_KIND_TOOL_CALL,
  ACP_ITEM_KIND_PLAN,
  ACP_ITEM_KIND_PERMISSION,
  ACP_ITEM_KIND_NOTICE,
  ACP_ITEM_KIND_GENERIC,
} AcpItemKind;

#define ACP_TYPE_ITEM_KIND (acp_item_kind_get_type ())
GType acp_item_kind_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_ITEM (acp_item_get_type ())

G_DECLARE_DERIVABLE_TYPE (AcpItem, acp_item, ACP, ITEM, GObject)

/**
 * AcpItemClass:
 * @kind: what the subclass is; set it in class_init
 *
 * One entry of a session transcript. Subclasses set @kind once; the
 * read-only "kind" property reports it.
 */
struct _AcpItemClass
{
  GObjectClass parent_class;

  AcpItemKind  kind;

  /*< private >*/
  gpointer     padding[8];
};

AcpItemKind acp_item_get_kind (AcpItem *self);

G_END_DECLS
