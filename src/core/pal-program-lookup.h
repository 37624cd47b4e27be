/* pal-program-lookup.h: where a command would run from, found off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void     pal_program_lookup_async  (const char           *command,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
/* FALSE only with an error (cancelled); *@out_path is NULL when not found. */
gboolean pal_program_lookup_finish (GAsyncResult         *result,
                                    char                **out_path,
                                    gboolean             *out_executable,
                                    GError              **error);

G_END_DECLS
