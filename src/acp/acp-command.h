/* acp-command.h: one command an agent offers (a slash command)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ACP_TYPE_COMMAND (acp_command_get_type ())

G_DECLARE_FINAL_TYPE (AcpCommand, acp_command, ACP, COMMAND, GObject)

AcpCommand *acp_command_new_from_json    (JsonNode    *node,
                                          GError     **error);

const char *acp_command_get_name         (AcpCommand  *self);
const char *acp_command_get_description  (AcpCommand  *self);
/* nullable: what to type after the name, for a command that takes input */
const char *acp_command_get_input_hint   (AcpCommand  *self);
gboolean    acp_command_equal            (AcpCommand  *a,
                                          AcpCommand  *b);

G_END_DECLS
