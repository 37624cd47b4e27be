/* acp-traffic-log.h: what went between the client and an agent, lately
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "acp-json-reader.h"

G_BEGIN_DECLS

typedef enum
{
  ACP_TRAFFIC_IN,       /* from the agent */
  ACP_TRAFFIC_OUT,      /* to the agent */
  ACP_TRAFFIC_STDERR,   /* a line of the agent's error output */
  ACP_TRAFFIC_DROPPED,  /* a message from the agent that could not be read */
} AcpTrafficDirection;

#define ACP_TYPE_TRAFFIC_ENTRY (acp_traffic_entry_get_type ())
G_DECLARE_FINAL_TYPE (AcpTrafficEntry, acp_traffic_entry, ACP, TRAFFIC_ENTRY, GObject)

/* Microseconds since the epoch. */
gint64               acp_traffic_entry_get_time       (AcpTrafficEntry *self);
AcpTrafficDirection  acp_traffic_entry_get_direction  (AcpTrafficEntry *self);
/* The method of a request or notification; NULL for a response. */
const char          *acp_traffic_entry_get_method     (AcpTrafficEntry *self);
/* The id of a request or response, as JSON ("0", "\"abc\""); NULL for none. */
const char          *acp_traffic_entry_get_id         (AcpTrafficEntry *self);
/* The sessionId of its params, or NULL. */
const char          *acp_traffic_entry_get_session_id (AcpTrafficEntry *self);
/* Whether it is an error response. */
gboolean             acp_traffic_entry_get_is_error   (AcpTrafficEntry *self);
/* The size of the whole message in bytes. */
gsize                acp_traffic_entry_get_size       (AcpTrafficEntry *self);
/* For a response: how long after its request it came, in microseconds;
 * -1 when not a response or its request is not in the log. */
gint64               acp_traffic_entry_get_duration   (AcpTrafficEntry *self);
/* The message as it went (cut short past ACP_TRAFFIC_TEXT_MAX, see
 * acp_traffic_entry_get_truncated()), or the stderr line. */
const char          *acp_traffic_entry_get_text       (AcpTrafficEntry *self);
gboolean             acp_traffic_entry_get_truncated  (AcpTrafficEntry *self);
/* The entry as one line of JSON: time, direction, and the message itself
 * (or its text when it is not JSON, or was cut short). (transfer full) */
char                *acp_traffic_entry_to_json_line   (AcpTrafficEntry *self);

/* How much of a message's text an entry keeps. */
#define ACP_TRAFFIC_TEXT_MAX (256 * 1024)

#define ACP_TYPE_TRAFFIC_LOG (acp_traffic_log_get_type ())
G_DECLARE_FINAL_TYPE (AcpTrafficLog, acp_traffic_log, ACP, TRAFFIC_LOG, GObject)

/* A #GListModel of #AcpTrafficEntry, oldest first, of the last @max_entries
 * entries; older ones are dropped and counted. Entries may be added from
 * any thread: they join the model in the main context of the thread that
 * made the log, in batches. */
AcpTrafficLog *acp_traffic_log_new             (guint                max_entries);

/* @message: (nullable): @text as read into @doc, described when an object */
void           acp_traffic_log_add_message     (AcpTrafficLog       *self,
                                                AcpTrafficDirection  direction,
                                                const char          *text,
                                                gsize                size,
                                                const AcpJsonDoc    *doc,
                                                const AcpJsonValue  *message);
void           acp_traffic_log_add_text        (AcpTrafficLog       *self,
                                                AcpTrafficDirection  direction,
                                                const char          *text,
                                                gsize                size);
/* Entries dropped to keep the bound. */
guint64        acp_traffic_log_get_n_dropped   (AcpTrafficLog       *self);
/* Adds what is still on its way to the model now (main context only). */
void           acp_traffic_log_flush           (AcpTrafficLog       *self);

G_END_DECLS
