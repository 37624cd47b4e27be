/* pal-renderer.h: which renderer GTK draws the windows with
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean pal_renderer_choose (const char *dri_dir);

G_END_DECLS
