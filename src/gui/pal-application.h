/* pal-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PAL_TYPE_APPLICATION (pal_application_get_type ())

G_DECLARE_FINAL_TYPE (PalApplication, pal_application, PAL, APPLICATION, AdwApplication)

PalApplication *pal_application_new (void);

G_END_DECLS
