/* pal-path.h: file paths as a person reads them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *pal_path_display (const char *path,
                        const char *folder,
                        const char *home);

G_END_DECLS
