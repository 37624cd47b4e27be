/* test-command.c: AcpCommand, made from an AvailableCommand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-command.h"
#include "acp-error.h"
#include "json-text.h"

static AcpCommand *
command_from (const char  *json,
              GError     **error)
{
  g_autoptr(JsonNode) node = json_text_parse (json);

  return acp_command_new_from_json (node, error);
}

static void
test_valid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpCommand) command = NULL;
  g_autofree char *hint = NULL;

  command = command_from ("{'name': 'web', 'description': 'Search the web',"
                          " 'input': {'hint': 'what to look for'}}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (acp_command_get_name (command), ==, "web");
  g_assert_cmpstr (acp_command_get_description (command), ==, "Search the web");
  g_assert_cmpstr (acp_command_get_input_hint (command), ==, "what to look for");
  g_object_get (command, "input-hint", &hint, NULL);
  g_assert_cmpstr (hint, ==, "what to look for");
}

/* input is optional: absent, null or malformed, no hint */
static void
test_optional_members (void)
{
  const char *json[] = {
    "{'name': 'plan', 'description': 'Plan it'}",
    "{'name': 'plan', 'description': 'Plan it', 'input': null}",
    "{'name': 'plan', 'description': 'Plan it', 'input': 'text'}",
    "{'name': 'plan', 'description': 'Plan it', 'input': {}}",
    "{'name': 'plan', 'description': 'Plan it', 'input': {'hint': 3}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpCommand) command = command_from (json[i], &error);

      g_test_message ("%s", json[i]);
      g_assert_no_error (error);
      g_assert_cmpstr (acp_command_get_name (command), ==, "plan");
      g_assert_null (acp_command_get_input_hint (command));
    }
}

static void
test_invalid (void)
{
  const char *json[] = {
    "42",
    "'plan'",
    "{'description': 'no name'}",
    "{'name': 'plan'}",
    "{'name': 'plan', 'description': null}",
    "{'name': ['plan'], 'description': 'Plan it'}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpCommand) command = command_from (json[i], &error);

      g_test_message ("%s", json[i]);
      g_assert_null (command);
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    }
}

static void
test_equal (void)
{
  g_autoptr(AcpCommand) a = command_from ("{'name': 'web', 'description': 'Search'}", NULL);
  g_autoptr(AcpCommand) b = command_from ("{'name': 'web', 'description': 'Search', 'input': null}",
                                          NULL);
  g_autoptr(AcpCommand) c = command_from ("{'name': 'web', 'description': 'Search',"
                                          " 'input': {'hint': 'q'}}", NULL);

  g_assert_true (acp_command_equal (a, b));
  g_assert_false (acp_command_equal (a, c));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/command/valid", test_valid);
  g_test_add_func ("/command/optional-members", test_optional_members);
  g_test_add_func ("/command/invalid", test_invalid);
  g_test_add_func ("/command/equal", test_equal);

  return g_test_run ();
}
