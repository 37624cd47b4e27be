/* test-mode.c: AcpMode, made from a SessionMode
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-error.h"
#include "acp-mode.h"
#include "json-text.h"

static AcpMode *
mode_from (const char  *json,
           GError     **error)
{
  g_autoptr(JsonNode) node = json_text_parse (json);

  return acp_mode_new_from_json (node, error);
}

static void
test_valid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpMode) mode = NULL;
  g_autofree char *name = NULL;

  mode = mode_from ("{'id': 'code', 'name': 'Code', 'description': 'Writes code', '_meta': {}}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (acp_mode_get_id (mode), ==, "code");
  g_assert_cmpstr (acp_mode_get_name (mode), ==, "Code");
  g_assert_cmpstr (acp_mode_get_description (mode), ==, "Writes code");
  /* what a view binds to */
  g_object_get (mode, "name", &name, NULL);
  g_assert_cmpstr (name, ==, "Code");
}

/* the description is optional: absent, null or of another type, none */
static void
test_optional_members (void)
{
  const char *json[] = {
    "{'id': 'ask', 'name': 'Ask'}",
    "{'id': 'ask', 'name': 'Ask', 'description': null}",
    "{'id': 'ask', 'name': 'Ask', 'description': 4}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpMode) mode = mode_from (json[i], &error);

      g_assert_no_error (error);
      g_assert_cmpstr (acp_mode_get_id (mode), ==, "ask");
      g_assert_null (acp_mode_get_description (mode));
    }
}

static void
test_invalid (void)
{
  const char *json[] = {
    "42",
    "null",
    "['code']",
    "{'name': 'No id'}",
    "{'id': 'no-name'}",
    "{'id': 7, 'name': 'Code'}",
    "{'id': 'code', 'name': null}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpMode) mode = mode_from (json[i], &error);

      g_test_message ("%s", json[i]);
      g_assert_null (mode);
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    }
}

static void
test_equal (void)
{
  g_autoptr(AcpMode) a = mode_from ("{'id': 'code', 'name': 'Code'}", NULL);
  g_autoptr(AcpMode) b = mode_from ("{'id': 'code', 'name': 'Code', 'description': null}", NULL);
  g_autoptr(AcpMode) c = mode_from ("{'id': 'code', 'name': 'Code', 'description': 'Writes'}", NULL);
  g_autoptr(AcpMode) d = mode_from ("{'id': 'code', 'name': 'Coding'}", NULL);

  g_assert_true (acp_mode_equal (a, b));
  g_assert_false (acp_mode_equal (a, c));
  g_assert_false (acp_mode_equal (a, d));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mode/valid", test_valid);
  g_test_add_func ("/mode/optional-members", test_optional_members);
  g_test_add_func ("/mode/invalid", test_invalid);
  g_test_add_func ("/mode/equal", test_equal);

  return g_test_run ();
}
