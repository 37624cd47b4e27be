/* json-text.h: JSON written in a test, with single quotes for readability
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

/* Parses @json, with every ' read as " (so no ' inside strings).
 * Returns: (transfer full): the node */
static inline JsonNode *
json_text_parse (const char *json)
{
  g_autofree char *text = g_strdelimit (g_strdup (json), "'", '"');
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}
