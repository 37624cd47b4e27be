/* pal-text-match.h: finding words in text as a person types them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean pal_text_match_all (const char *text,
                             gsize       length,
                             const char *needle,
                             guint       max,
                             GArray     *offsets);
guint    pal_text_match_count (const char *text,
                               gsize       length,
                               const char *needle);

G_END_DECLS
