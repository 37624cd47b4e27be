/* test-config-option.c: AcpConfigOption and its AcpConfigChoice values,
 * made from a SessionConfigOption
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-config-option.h"
#include "acp-error.h"
#include "json-text.h"

static AcpConfigOption *
option_from (const char  *json,
             GError     **error)
{
  g_autoptr(JsonNode) node = json_text_parse (json);

  return acp_config_option_new_from_json (node, error);
}

static AcpConfigChoice *
get_choice (AcpConfigOption *option,
            guint            index)
{
  AcpConfigChoice *choice = g_list_model_get_item (acp_config_option_get_choices (option), index);

  g_assert_nonnull (choice);
  /* the option keeps it */
  g_object_unref (choice);
  return choice;
}

static void
test_select (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpConfigOption) option = NULL;
  g_autoptr(GListModel) bound = NULL;
  GListModel *choices;
  AcpConfigChoice *choice;

  option = option_from ("{'id': 'model', 'name': 'Model', 'description': 'Which model answers',"
                        " 'category': 'model', 'type': 'select', 'currentValue': 'smart',"
                        " 'options': [{'value': 'fast', 'name': 'Fast', 'description': 'Quick'},"
                        "             {'value': 'smart', 'name': 'Smart'}]}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (acp_config_option_get_id (option), ==, "model");
  g_assert_cmpstr (acp_config_option_get_name (option), ==, "Model");
  g_assert_cmpstr (acp_config_option_get_description (option), ==, "Which model answers");
  g_assert_cmpstr (acp_config_option_get_category (option), ==, "model");
  g_assert_cmpint (acp_config_option_get_option_type (option), ==, ACP_CONFIG_OPTION_TYPE_SELECT);
  g_assert_cmpstr (acp_config_option_get_current_value (option), ==, "smart");
  g_assert_cmpuint (acp_config_option_get_current_position (option), ==, 1);

  choices = acp_config_option_get_choices (option);
  g_assert_true (g_list_model_get_item_type (choices) == ACP_TYPE_CONFIG_CHOICE);
  g_assert_cmpuint (g_list_model_get_n_items (choices), ==, 2);
  choice = get_choice (option, 0);
  g_assert_cmpstr (acp_config_choice_get_value (choice), ==, "fast");
  g_assert_cmpstr (acp_config_choice_get_name (choice), ==, "Fast");
  g_assert_cmpstr (acp_config_choice_get_description (choice), ==, "Quick");
  g_assert_null (acp_config_choice_get_group_name (choice));
  g_assert_null (acp_config_choice_get_description (get_choice (option, 1)));

  /* the same list through the property */
  g_object_get (option, "choices", &bound, NULL);
  g_assert_true (bound == choices);
}

/* SessionConfigSelectGroup: the values of every group, in order, with the
 * name of their group */
static void
test_select_grouped (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpConfigOption) option = NULL;

  option = option_from ("{'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': 'c',"
                        " 'options': ["
                        "  {'group': 'anthropic', 'name': 'Anthropic',"
                        "   'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'B'}]},"
                        "  {'group': 'local', 'name': 'Local', 'options': [{'value': 'c', 'name': 'C'}]}]}",
                        &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (acp_config_option_get_choices (option)), ==, 3);
  g_assert_cmpstr (acp_config_choice_get_value (get_choice (option, 1)), ==, "b");
  g_assert_cmpstr (acp_config_choice_get_group_name (get_choice (option, 1)), ==, "Anthropic");
  g_assert_cmpstr (acp_config_choice_get_group_name (get_choice (option, 2)), ==, "Local");
  g_assert_cmpuint (acp_config_option_get_current_position (option), ==, 2);
}

/* invalid values are skipped; the option stays */
static void
test_select_invalid_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpConfigOption) option = NULL;

  option = option_from ("{'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': 'gone',"
                        " 'options': [42, {'value': 'a'}, {'name': 'No value'},"
                        "             {'value': 'b', 'name': 'B', 'description': 5},"
                        "             {'group': 'g', 'name': 'G', 'options': [{'value': 1, 'name': 'x'}]}]}",
                        &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (acp_config_option_get_choices (option)), ==, 1);
  g_assert_cmpstr (acp_config_choice_get_value (get_choice (option, 0)), ==, "b");
  g_assert_null (acp_config_choice_get_description (get_choice (option, 0)));
  /* a current value that is none of them */
  g_assert_cmpuint (acp_config_option_get_current_position (option), ==, G_MAXUINT);
}

static void
test_boolean (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpConfigOption) option = NULL;
  gboolean current = FALSE;

  option = option_from ("{'id': 'fast', 'name': 'Fast mode', 'type': 'boolean', 'currentValue': true}",
                        &error);
  g_assert_no_error (error);
  g_assert_cmpint (acp_config_option_get_option_type (option), ==, ACP_CONFIG_OPTION_TYPE_BOOLEAN);
  g_assert_true (acp_config_option_get_current_boolean (option));
  g_assert_null (acp_config_option_get_current_value (option));
  g_assert_cmpuint (g_list_model_get_n_items (acp_config_option_get_choices (option)), ==, 0);
  g_object_get (option, "current-boolean", &current, NULL);
  g_assert_true (current);
}

/* a type Palaver does not know (or none) is kept, as unknown */
static void
test_unknown_type (void)
{
  const char *json[] = {
    "{'id': 'temp', 'name': 'Temperature', 'type': 'slider', 'currentValue': 0.5}",
    "{'id': 'temp', 'name': 'Temperature'}",
    "{'id': 'temp', 'name': 'Temperature', 'type': 3}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpConfigOption) option = option_from (json[i], &error);

      g_test_message ("%s", json[i]);
      g_assert_no_error (error);
      g_assert_cmpstr (acp_config_option_get_id (option), ==, "temp");
      g_assert_cmpint (acp_config_option_get_option_type (option), ==, ACP_CONFIG_OPTION_TYPE_UNKNOWN);
      g_assert_null (acp_config_option_get_current_value (option));
    }
}

/* description and category are optional: absent, null or of another type,
 * none */
static void
test_optional_members (void)
{
  const char *json[] = {
    "{'id': 'fast', 'name': 'Fast', 'type': 'boolean', 'currentValue': false}",
    "{'id': 'fast', 'name': 'Fast', 'type': 'boolean', 'currentValue': false,"
    " 'description': null, 'category': null}",
    "{'id': 'fast', 'name': 'Fast', 'type': 'boolean', 'currentValue': false,"
    " 'description': [], 'category': {}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpConfigOption) option = option_from (json[i], &error);

      g_test_message ("%s", json[i]);
      g_assert_no_error (error);
      g_assert_null (acp_config_option_get_description (option));
      g_assert_null (acp_config_option_get_category (option));
      g_assert_false (acp_config_option_get_current_boolean (option));
    }
}

static void
test_invalid (void)
{
  const char *json[] = {
    "42",
    "[]",
    "{'name': 'No id', 'type': 'boolean', 'currentValue': true}",
    "{'id': 'x', 'type': 'boolean', 'currentValue': true}",
    "{'id': 7, 'name': 'X', 'type': 'boolean', 'currentValue': true}",
    "{'id': 'x', 'name': 'X', 'type': 'select', 'options': []}",
    "{'id': 'x', 'name': 'X', 'type': 'select', 'currentValue': 'a'}",
    "{'id': 'x', 'name': 'X', 'type': 'select', 'currentValue': 'a', 'options': 'nope'}",
    "{'id': 'x', 'name': 'X', 'type': 'select', 'currentValue': 1, 'options': []}",
    "{'id': 'x', 'name': 'X', 'type': 'boolean'}",
    "{'id': 'x', 'name': 'X', 'type': 'boolean', 'currentValue': 'true'}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpConfigOption) option = option_from (json[i], &error);

      g_test_message ("%s", json[i]);
      g_assert_null (option);
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    }
}

static void
test_choice_invalid (void)
{
  const char *json[] = { "'a'", "{'value': 'a'}", "{'name': 'A'}", "{'value': null, 'name': 'A'}" };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(JsonNode) node = json_text_parse (json[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpConfigChoice) choice = acp_config_choice_new_from_json (node, NULL, &error);

      g_test_message ("%s", json[i]);
      g_assert_null (choice);
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    }
}

/* what decides whether a list of options changed */
static void
test_equal (void)
{
  const char *select = "{'id': 'm', 'name': 'M', 'type': 'select', 'currentValue': 'a',"
                       " 'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'B'}]}";
  g_autoptr(AcpConfigOption) a = option_from (select, NULL);
  g_autoptr(AcpConfigOption) same = option_from (select, NULL);
  g_autoptr(AcpConfigOption) other_value = option_from (
    "{'id': 'm', 'name': 'M', 'type': 'select', 'currentValue': 'b',"
    " 'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'B'}]}", NULL);
  g_autoptr(AcpConfigOption) other_choice = option_from (
    "{'id': 'm', 'name': 'M', 'type': 'select', 'currentValue': 'a',"
    " 'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'Bee'}]}", NULL);
  g_autoptr(AcpConfigOption) on = option_from (
    "{'id': 'f', 'name': 'F', 'type': 'boolean', 'currentValue': true}", NULL);
  g_autoptr(AcpConfigOption) off = option_from (
    "{'id': 'f', 'name': 'F', 'type': 'boolean', 'currentValue': false}", NULL);

  g_assert_true (acp_config_option_equal (a, same));
  g_assert_false (acp_config_option_equal (a, other_value));
  g_assert_false (acp_config_option_equal (a, other_choice));
  g_assert_false (acp_config_option_equal (on, off));
  g_assert_false (acp_config_option_equal (a, on));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config-option/select", test_select);
  g_test_add_func ("/config-option/select/grouped", test_select_grouped);
  g_test_add_func ("/config-option/select/invalid-values", test_select_invalid_values);
  g_test_add_func ("/config-option/boolean", test_boolean);
  g_test_add_func ("/config-option/unknown-type", test_unknown_type);
  g_test_add_func ("/config-option/optional-members", test_optional_members);
  g_test_add_func ("/config-option/invalid", test_invalid);
  g_test_add_func ("/config-option/choice/invalid", test_choice_invalid);
  g_test_add_func ("/config-option/equal", test_equal);

  return g_test_run ();
}
