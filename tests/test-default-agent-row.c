/* test-default-agent-row.c: the default agent in the preferences, bound to
 * its setting
 *
 * The combo row shows the default-agent key, and the person's choice is
 * written to it; profiles coming and going move the row, but that is no
 * choice and writes nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-preferences-window.h"
#include "store-util.h"
#include "test-util.h"

static char *
stored_default (GSettings *settings)
{
  return g_settings_get_string (settings, "default-agent");
}

static void
test_default_agent_row (void)
{
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = g_settings_new_with_backend (APPLICATION_ID, backend);
  /* someone else writing the key: another window, dconf */
  g_autoptr(GSettings) elsewhere = g_settings_new_with_backend (APPLICATION_ID, backend);
  g_autoptr(PalAgentStore) store = pal_agent_store_new (settings);
  g_autoptr(PalMcpServerStore) servers = pal_mcp_server_store_new (settings);
  g_autoptr(SoupSession) session = soup_session_new ();
  PalPreferencesWindow *window;
  AdwComboRow *row;
  char *value;

  /* [a, b, demo] */
  test_add_agent (store, "a", "/bin/true", NULL);
  test_add_agent (store, "b", "/bin/true", NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 3);

  window = pal_preferences_window_new (store, servers, session);
  row = ADW_COMBO_ROW (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                      PAL_TYPE_PREFERENCES_WINDOW,
                                                      "default_agent_row"));
  gtk_window_present (GTK_WINDOW (window));

  /* none chosen and no agent found on this computer: the demo is shown
   * (agents the person added are the default once chosen), and nothing is
   * written */
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 2);
  value = stored_default (settings);
  g_assert_cmpstr (value, ==, "");
  g_free (value);

  /* written elsewhere: shown */
  g_settings_set_string (elsewhere, "default-agent", "b");
  WAIT_UNTIL (adw_combo_row_get_selected (row) == 1);

  /* the person chooses */
  adw_combo_row_set_selected (row, 2);
  value = stored_default (settings);
  g_assert_cmpstr (value, ==, "demo");
  g_free (value);

  /* a new profile moves the demo down the list: still the default */
  test_add_agent (store, "c", "/bin/true", NULL);
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 3);
  /* and one removed moves it up */
  g_assert_true (pal_agent_store_remove (store, "a", NULL));
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 2);
  value = stored_default (settings);
  g_assert_cmpstr (value, ==, "demo");
  g_free (value);

  /* the default removed: the store's choice is shown in its place, and the
   * key is left alone */
  adw_combo_row_set_selected (row, 1);
  value = stored_default (settings);
  g_assert_cmpstr (value, ==, "c");
  g_free (value);
  g_assert_true (pal_agent_store_remove (store, "c", NULL));
  /* [b, demo] */
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 1);
  value = stored_default (settings);
  g_assert_cmpstr (value, ==, "c");
  g_free (value);

  /* a profile that is not listed: the store's choice in its place (from
   * another, so that the change shows) */
  g_settings_set_string (elsewhere, "default-agent", "b");
  WAIT_UNTIL (adw_combo_row_get_selected (row) == 0);
  g_settings_set_string (elsewhere, "default-agent", "gone");
  WAIT_UNTIL (adw_combo_row_get_selected (row) == 1);
  value = stored_default (settings);
  g_assert_cmpstr (value, ==, "gone");
  g_free (value);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/default-agent-row", test_default_agent_row);

  return g_test_run ();
}
