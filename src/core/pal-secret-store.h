/* pal-secret-store.h: agents' secret values in the desktop's Secret Service
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The schema of the items: attributes "agent" (a profile id) and "variable"
 * (an environment variable name). */
#define PAL_SECRET_SCHEMA_NAME "io.github.palaverapp.Palaver.AgentSecret"

#define PAL_TYPE_SECRET_STORE (pal_secret_store_get_type ())

G_DECLARE_FINAL_TYPE (PalSecretStore, pal_secret_store, PAL, SECRET_STORE, GObject)

PalSecretStore *pal_secret_store_new           (void);

void            pal_secret_store_probe_async   (PalSecretStore      *self,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean        pal_secret_store_probe_finish  (PalSecretStore      *self,
                                                GAsyncResult        *result,
                                                GError             **error);

void            pal_secret_store_save_async    (PalSecretStore      *self,
                                                const char          *agent_id,
                                                const char          *agent_name,
                                                const char * const  *entries,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean        pal_secret_store_save_finish   (PalSecretStore      *self,
                                                GAsyncResult        *result,
                                                GError             **error);

void            pal_secret_store_lookup_async  (PalSecretStore      *self,
                                                const char          *agent_id,
                                                const char * const  *names,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
char          **pal_secret_store_lookup_finish (PalSecretStore      *self,
                                                GAsyncResult        *result,
                                                GError             **error);

void            pal_secret_store_clear_async   (PalSecretStore      *self,
                                                const char          *agent_id,
                                                const char          *name,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean        pal_secret_store_clear_finish  (PalSecretStore      *self,
                                                GAsyncResult        *result,
                                                GError             **error);

/* The first of @entries that is not "NAME=VALUE" with a name, or NULL. */
const char     *pal_secret_store_find_malformed_entry (const char * const *entries);

G_END_DECLS
