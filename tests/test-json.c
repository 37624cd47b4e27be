/* test-json.c: reading members of the wrong type reads them as absent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-json.h"

static void
test_getters (void)
{
  g_autoptr(JsonNode) node = json_from_string (
    "{\"s\":\"text\",\"i\":42,\"f\":1.5,\"b\":true,\"o\":{\"x\":1},\"a\":[1,{\"y\":2},\"z\"],\"n\":null}", NULL);
  JsonObject *object = json_node_get_object (node);
  gint64 i = 0;
  gboolean b = FALSE;

  /* these members have other types: none of the getters complains */
  g_assert_cmpstr (acp_json_get_string (object, "s", NULL), ==, "text");
  g_assert_cmpstr (acp_json_get_string (object, "i", "def"), ==, "def");
  g_assert_cmpstr (acp_json_get_string (object, "o", "def"), ==, "def");
  g_assert_cmpstr (acp_json_get_string (object, "a", "def"), ==, "def");
  g_assert_cmpstr (acp_json_get_string (object, "n", "def"), ==, "def");
  g_assert_cmpstr (acp_json_get_string (object, "missing", NULL), ==, NULL);
  g_assert_cmpstr (acp_json_get_string (NULL, "s", "def"), ==, "def");

  g_assert_true (acp_json_get_int (object, "i", &i));
  g_assert_cmpint (i, ==, 42);
  g_assert_false (acp_json_get_int (object, "f", &i));
  g_assert_false (acp_json_get_int (object, "s", &i));
  g_assert_false (acp_json_get_int (object, "o", &i));

  g_assert_true (acp_json_get_boolean (object, "b", &b));
  g_assert_true (b);
  g_assert_false (acp_json_get_boolean (object, "i", &b));

  g_assert_nonnull (acp_json_get_object (object, "o"));
  g_assert_null (acp_json_get_object (object, "a"));
  g_assert_null (acp_json_get_object (object, "n"));
  g_assert_nonnull (acp_json_get_array (object, "a"));
  g_assert_null (acp_json_get_array (object, "o"));

  g_assert_null (acp_json_array_get_object (acp_json_get_array (object, "a"), 0));
  g_assert_nonnull (acp_json_array_get_object (acp_json_get_array (object, "a"), 1));
  g_assert_null (acp_json_array_get_object (acp_json_get_array (object, "a"), 2));
  g_assert_null (acp_json_array_get_object (acp_json_get_array (object, "a"), 3));
  g_assert_null (acp_json_array_get_object (NULL, 0));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/getters", test_getters);

  return g_test_run ();
}
