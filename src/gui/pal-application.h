/* pal-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "pal-agent-store.h"
#include "pal-mcp-server-store.h"
#include "pal-session-manager.h"
#include "pal-session-store.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_APPLICATION (pal_application_get_type ())

G_DECLARE_FINAL_TYPE (PalApplication, pal_application, PAL, APPLICATION, AdwApplication)

PalApplication    *pal_application_new                  (void);

/* The application's context, created on first use and kept until shutdown. */
GSettings         *pal_application_get_settings         (PalApplication *self);
PalAgentStore     *pal_application_get_agent_store      (PalApplication *self);
PalMcpServerStore *pal_application_get_mcp_server_store (PalApplication *self);
SoupSession       *pal_application_get_soup_session     (PalApplication *self);
PalSessionStore   *pal_application_get_session_store    (PalApplication *self);
PalSessionManager *pal_application_get_session_manager  (PalApplication *self);
PalTranscriptStore *pal_application_get_transcript_store (PalApplication *self);

G_END_DECLS
