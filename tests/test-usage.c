/* test-usage.c: AcpUsage, made from a usage_update
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-error.h"
#include "acp-usage.h"
#include "json-text.h"

static AcpUsage *
usage_from (const char  *json,
            GError     **error)
{
  g_autoptr(JsonNode) node = json_text_parse (json);

  return acp_usage_new_from_json (json_node_get_object (node), error);
}

static void
test_valid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AcpUsage) usage = NULL;
  g_autofree char *currency = NULL;
  guint64 size = 0;

  usage = usage_from ("{'sessionUpdate': 'usage_update', 'used': 12000, 'size': 200000,"
                      " 'cost': {'amount': 0.42, 'currency': 'USD'}}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (acp_usage_get_used (usage), ==, 12000);
  g_assert_cmpuint (acp_usage_get_size (usage), ==, 200000);
  g_assert_true (acp_usage_get_has_cost (usage));
  g_assert_cmpfloat_with_epsilon (acp_usage_get_cost_amount (usage), 0.42, 1e-9);
  g_assert_cmpstr (acp_usage_get_cost_currency (usage), ==, "USD");
  g_object_get (usage, "size", &size, "cost-currency", &currency, NULL);
  g_assert_cmpuint (size, ==, 200000);
  g_assert_cmpstr (currency, ==, "USD");

  /* an amount without a fraction is a number too */
  g_clear_object (&usage);
  usage = usage_from ("{'used': 0, 'size': 0, 'cost': {'amount': 3, 'currency': 'EUR'}}", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (acp_usage_get_cost_amount (usage), 3.0, 1e-9);
}

/* cost is optional: absent or null, none */
static void
test_optional_members (void)
{
  const char *json[] = {
    "{'used': 10, 'size': 100}",
    "{'used': 10, 'size': 100, 'cost': null}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpUsage) usage = usage_from (json[i], &error);

      g_assert_no_error (error);
      g_assert_cmpuint (acp_usage_get_used (usage), ==, 10);
      g_assert_false (acp_usage_get_has_cost (usage));
      g_assert_null (acp_usage_get_cost_currency (usage));
      g_assert_cmpfloat (acp_usage_get_cost_amount (usage), ==, 0.0);
    }
}

static void
test_invalid (void)
{
  const char *json[] = {
    "{}",
    "{'used': 1}",
    "{'size': 1}",
    "{'used': -1, 'size': 5}",
    "{'used': '1', 'size': 5}",
    "{'used': 1.5, 'size': 5}",
    "{'used': 1, 'size': null}",
    "{'used': 1, 'size': 5, 'cost': 3}",
    "{'used': 1, 'size': 5, 'cost': {'amount': 'x', 'currency': 'EUR'}}",
    "{'used': 1, 'size': 5, 'cost': {'amount': 1}}",
    "{'used': 1, 'size': 5, 'cost': {'currency': 'EUR'}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AcpUsage) usage = usage_from (json[i], &error);

      g_test_message ("%s", json[i]);
      g_assert_null (usage);
      g_assert_error (error, ACP_ERROR, ACP_ERROR_INVALID_MESSAGE);
    }
}

static void
test_equal (void)
{
  g_autoptr(AcpUsage) a = usage_from ("{'used': 1, 'size': 5}", NULL);
  g_autoptr(AcpUsage) b = usage_from ("{'used': 1, 'size': 5, 'cost': null}", NULL);
  g_autoptr(AcpUsage) c = usage_from ("{'used': 1, 'size': 5, 'cost': {'amount': 0, 'currency': 'USD'}}",
                                      NULL);
  g_autoptr(AcpUsage) d = usage_from ("{'used': 2, 'size': 5}", NULL);

  g_assert_true (acp_usage_equal (a, b));
  g_assert_false (acp_usage_equal (a, c));
  g_assert_false (acp_usage_equal (a, d));
  g_assert_false (acp_usage_equal (a, NULL));
  g_assert_true (acp_usage_equal (NULL, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/usage/valid", test_valid);
  g_test_add_func ("/usage/optional-members", test_optional_members);
  g_test_add_func ("/usage/invalid", test_invalid);
  g_test_add_func ("/usage/equal", test_equal);

  return g_test_run ();
}
