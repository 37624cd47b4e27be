/* acp-permission-option.h: a PermissionOption of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  ACP_PERMISSION_OPTION_KIND_ALLOW_ONCE,
  ACP_PERMISSION_OPTION_KIND_ALLOW_ALWAYS,
  ACP_PERMISSION_OPTION_KIND_REJECT_ONCE,
  ACP_PERMISSION_OPTION_KIND_REJECT_ALWAYS,
  ACP_PERMISSION_OPTION_KIND_UNKNOWN,   /* a kind this library does not know */
} AcpPermissionOptionKind;

#define ACP_TYPE_PERMISSION_OPTION_KIND (acp_permission_option_kind_get_type ())
GType acp_permission_option_kind_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_PERMISSION_OPTION (acp_permission_option_get_type ())

G_DECLARE_FINAL_TYPE (AcpPermissionOption, acp_permission_option, ACP, PERMISSION_OPTION, GObject)

const char              *acp_permission_option_get_id   (AcpPermissionOption *self);
const char              *acp_permission_option_get_name (AcpPermissionOption *self);
AcpPermissionOptionKind  acp_permission_option_get_kind (AcpPermissionOption *self);

G_END_DECLS
