/* pal-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-application.h"

G_BEGIN_DECLS

#define PAL_TYPE_WINDOW (pal_window_get_type ())

G_DECLARE_FINAL_TYPE (PalWindow, pal_window, PAL, WINDOW, AdwApplicationWindow)

PalWindow *pal_window_new (PalApplication *application);

G_END_DECLS
