/* pal-sign-in-values.h: the values a sign-in method needs, asked for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "acp-agent.h"

G_BEGIN_DECLS

/* @entries: (nullable): "NAME=VALUE", or NULL when the person cancelled */
typedef void (*PalSignInValuesFunc) (const char * const *entries,
                                     gpointer            data);

GArray    *pal_sign_in_method_vars (AcpAuthMethod       *method);
GtkWidget *pal_sign_in_values_ask  (GtkWindow           *parent,
                                    const char          *agent_name,
                                    AcpAuthMethod       *method,
                                    gboolean             in_keyring,
                                    PalSignInValuesFunc  func,
                                    gpointer             data);

G_END_DECLS
