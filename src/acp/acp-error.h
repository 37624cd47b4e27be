/* acp-error.h: the ACP_ERROR domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ACP_ERROR (acp_error_quark ())

/**
 * AcpError:
 *
 * Error codes of the %ACP_ERROR domain.
 *
 * An error the peer sent as a JSON-RPC error object keeps the peer's code as
 * its #GError code, whatever integer that is (agents send non-standard codes
 * such as 500); acp_error_is_remote() tells it apart from the local codes, and
 * acp_error_get_data() returns its `data` member.
 *
 * The local codes are negative numbers outside the JSON-RPC reserved range.
 */
typedef enum
{
  /* JSON-RPC and ACP codes, as sent on the wire */
  ACP_ERROR_PARSE_ERROR        = -32700,
  ACP_ERROR_INVALID_REQUEST    = -32600,
  ACP_ERROR_METHOD_NOT_FOUND   = -32601,
  ACP_ERROR_INVALID_PARAMS     = -32602,
  ACP_ERROR_INTERNAL_ERROR     = -32603,
  ACP_ERROR_REQUEST_CANCELLED  = -32800,
  ACP_ERROR_AUTH_REQUIRED      = -32000,
  ACP_ERROR_RESOURCE_NOT_FOUND = -32002,

  /* local conditions, never sent by a peer */
  ACP_ERROR_CLOSED             = -40001, /* the stream ended or was closed */
  ACP_ERROR_LINE_TOO_LONG      = -40002, /* a line exceeded the configured cap */
  ACP_ERROR_INVALID_MESSAGE    = -40003, /* a message of the peer had a wrong shape */
  ACP_ERROR_NOT_SUPPORTED      = -40004, /* the agent did not advertise the capability */
  ACP_ERROR_AGENT_EXITED       = -40005, /* the agent process exited */
  ACP_ERROR_TIMEOUT            = -40006, /* the agent did not answer in time */
  ACP_ERROR_PROTOCOL_VERSION   = -40007, /* the agent speaks a protocol version we do not */
  ACP_ERROR_SPAWN_FAILED       = -40008, /* the agent command could not be started */
  ACP_ERROR_INVALID_ARGUMENT   = -40009, /* a caller-supplied value is invalid */
  ACP_ERROR_PERMISSION_DENIED  = -40010, /* a request of the agent was refused */
  ACP_ERROR_FAILED             = -40011, /* anything else */
} AcpError;

GQuark      acp_error_quark     (void);

GError     *acp_error_new_remote (int          code,
                                  const char  *message,
                                  JsonNode    *data);
gboolean    acp_error_is_remote  (const GError *error);
JsonNode   *acp_error_get_data   (const GError *error);
JsonNode   *acp_error_to_json    (const GError *error);

G_END_DECLS
