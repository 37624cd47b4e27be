/* demo-agent.h: the demo agent's side of ACP: sessions, turns, history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-connection.h"
#include "demo-store.h"

G_BEGIN_DECLS

#define DEMO_TYPE_AGENT (demo_agent_get_type ())

G_DECLARE_FINAL_TYPE (DemoAgent, demo_agent, DEMO, AGENT, GObject)

/* Serves ACP requests arriving on connection (started by the caller).
 * speed scales every pause: 1 is normal, 0 means no pauses. When the
 * connection closes, or on demo_agent_shut_down(), running turns stop, the
 * store is flushed and "finished" is emitted once. */
DemoAgent *demo_agent_new       (AcpConnection *connection,
                                 DemoStore     *store,
                                 double         speed);
void       demo_agent_shut_down (DemoAgent     *self);

G_END_DECLS
