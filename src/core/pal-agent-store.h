/* pal-agent-store.h: the agent profiles: presets, the demo and the person's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pal-agent-profile.h"
#include "pal-secret-store.h"
#include "pal-stored-list.h"

G_BEGIN_DECLS

/* Ids of the built-in profiles. */
#define PAL_AGENT_ID_CLAUDE "claude-agent"
#define PAL_AGENT_ID_CODEX  "codex"
#define PAL_AGENT_ID_GEMINI "gemini"
#define PAL_AGENT_ID_DEMO   "demo"

#define PAL_TYPE_AGENT_STORE (pal_agent_store_get_type ())

G_DECLARE_FINAL_TYPE (PalAgentStore, pal_agent_store, PAL, AGENT_STORE, PalStoredList)

PalAgentStore      *pal_agent_store_new             (GSettings           *settings);

GSettings          *pal_agent_store_get_settings    (PalAgentStore       *self);
PalSecretStore     *pal_agent_store_get_secret_store (PalAgentStore      *self);
void                pal_agent_store_set_secret_store (PalAgentStore      *self,
                                                      PalSecretStore     *secret_store);
/* Why stored entries were skipped, one translated sentence each. Never NULL. */
const char * const *pal_agent_store_get_load_errors (PalAgentStore       *self);

const char         *pal_agent_store_get_name        (PalAgentStore       *self,
                                                     const char          *id);
gboolean            pal_agent_store_is_preset_id    (const char          *id);
char               *pal_agent_store_describe_missing (PalAgentStore      *self,
                                                     const char          *id);
PalAgentProfile    *pal_agent_store_lookup          (PalAgentStore       *self,
                                                     const char          *id);
gboolean            pal_agent_store_add             (PalAgentStore       *self,
                                                     PalAgentProfile     *profile,
                                                     GError             **error);
gboolean            pal_agent_store_update          (PalAgentStore       *self,
                                                     PalAgentProfile     *edited,
                                                     GError             **error);
gboolean            pal_agent_store_remove          (PalAgentStore       *self,
                                                     const char          *id,
                                                     GError             **error);

char               *pal_agent_store_dup_default_id  (PalAgentStore       *self);
void                pal_agent_store_set_default_id  (PalAgentStore       *self,
                                                     const char          *id);

void                pal_agent_store_detect_async    (PalAgentStore       *self,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean            pal_agent_store_detect_finish   (PalAgentStore       *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);

/* pal-agent-store-secrets.c: values a sign-in asks for */
void                pal_agent_store_save_values_async     (PalAgentStore       *self,
                                                           const char          *id,
                                                           const char * const  *entries,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean            pal_agent_store_save_values_finish    (PalAgentStore       *self,
                                                           GAsyncResult        *result,
                                                           gboolean            *in_keyring,
                                                           GError             **error);
void                pal_agent_store_lookup_secrets_async  (PalAgentStore       *self,
                                                           PalAgentProfile     *profile,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
char              **pal_agent_store_lookup_secrets_finish (PalAgentStore       *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

G_END_DECLS
