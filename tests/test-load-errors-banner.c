/* test-load-errors-banner.c: what the stores could not read, told in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-load-errors-banner.h"
#include "pal-mcp-server-store.h"
#include "pal-session-store.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"

typedef struct
{
  GSettingsBackend    *backend;
  GSettings           *settings;
  GtkWidget           *window;
  PalLoadErrorsBanner *banner;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->backend = g_memory_settings_backend_new ();
  f->settings = g_settings_new_with_backend (SCHEMA_ID, f->backend);
  f->window = gtk_window_new ();
  f->banner = PAL_LOAD_ERRORS_BANNER (pal_load_errors_banner_new ());
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->banner));
  gtk_window_present (GTK_WINDOW (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->settings);
  g_clear_object (&f->backend);
}

static GVariant *
session (const char *id,
         const char *cwd)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "id", "s", id);
  g_variant_dict_insert (&dict, "agent", "s", "codex");
  if (cwd != NULL)
    g_variant_dict_insert (&dict, "cwd", "s", cwd);
  return g_variant_dict_end (&dict);
}

/* One session fine, one without its folder (skipped), one whose title is
 * a number (listed without it). */
static void
store_damaged_sessions (GSettings *settings)
{
  GVariantBuilder builder;
  GVariantDict dict;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, session ("fine", "/p"));
  g_variant_builder_add_value (&builder, session ("no-folder", NULL));
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "id", "s", "odd-title");
  g_variant_dict_insert (&dict, "agent", "s", "codex");
  g_variant_dict_insert (&dict, "cwd", "s", "/p");
  g_variant_dict_insert (&dict, "title", "i", 42);
  g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
  g_settings_set_value (settings, "sessions", g_variant_builder_end (&builder));
}

static gboolean
has_backup (gpointer list)
{
  return pal_stored_list_get_backup_path (list) != NULL;
}

static void
test_sessions (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  g_autofree char *details = NULL;
  g_autofree char *copy_line = NULL;
  GtkWindow *dialog;

  store_damaged_sessions (f->settings);
  store = pal_session_store_new (f->settings);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 2);
  pal_load_errors_banner_add_list (f->banner, PAL_STORED_LIST (store));

  g_assert_true (pal_load_errors_banner_get_revealed (f->banner));
  g_assert_cmpstr (pal_load_errors_banner_get_title (f->banner), ==,
                   "2 stored sessions could not be read");

  /* Details names each one, and where the copy is */
  WAIT_UNTIL (has_backup (store));
  details = pal_load_errors_banner_dup_details (f->banner);
  g_assert_nonnull (strstr (details, "Stored session 2: the key “cwd” is missing"));
  g_assert_nonnull (strstr (details, "Stored session 3: the key “title” has the type “i” "
                                     "instead of “s”, and was left out"));
  copy_line = g_strdup_printf ("A copy of what was stored is in “%s”.",
                               pal_stored_list_get_backup_path (PAL_STORED_LIST (store)));
  g_assert_true (g_str_has_suffix (details, copy_line));

  dialog = pal_load_errors_banner_show_details (f->banner);
  g_assert_true (ADW_IS_MESSAGE_DIALOG (dialog));
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (f->window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  gtk_window_destroy (dialog);
}

static void
test_nothing_wrong (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, session ("fine", "/p"));
  g_settings_set_value (f->settings, "sessions", g_variant_builder_end (&builder));
  store = pal_session_store_new (f->settings);
  pal_load_errors_banner_add_list (f->banner, PAL_STORED_LIST (store));

  g_assert_false (pal_load_errors_banner_get_revealed (f->banner));
}

/* Closed, the bar stays away until the errors change. */
static void
test_dismiss (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(GSettings) other = g_settings_new_with_backend (SCHEMA_ID, f->backend);
  GVariantBuilder builder;

  store_damaged_sessions (f->settings);
  store = pal_session_store_new (f->settings);
  pal_load_errors_banner_add_list (f->banner, PAL_STORED_LIST (store));
  g_assert_true (pal_load_errors_banner_get_revealed (f->banner));

  pal_load_errors_banner_dismiss (f->banner);
  g_assert_false (pal_load_errors_banner_get_revealed (f->banner));
  WAIT_UNTIL (has_backup (store));
  g_assert_false (pal_load_errors_banner_get_revealed (f->banner));

  /* another instance writes another damaged entry */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, session ("fine", "/p"));
  g_variant_builder_add_value (&builder, session ("", "/p"));
  g_settings_set_value (other, "sessions", g_variant_builder_end (&builder));
  g_assert_true (pal_load_errors_banner_get_revealed (f->banner));
  g_assert_cmpstr (pal_load_errors_banner_get_title (f->banner), ==,
                   "1 stored session could not be read");
}

/* Sessions and servers: one count, and every reason. */
static void
test_several_lists (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(PalSessionStore) sessions = NULL;
  g_autoptr(PalMcpServerStore) servers = NULL;
  g_autofree char *details = NULL;

  store_damaged_sessions (f->settings);
  g_settings_set_value (f->settings, "mcp-servers",
                        g_variant_new_parsed ("[{'name': <'no transport'>}]"));
  sessions = pal_session_store_new (f->settings);
  servers = pal_mcp_server_store_new (f->settings);
  pal_load_errors_banner_add_list (f->banner, PAL_STORED_LIST (sessions));
  pal_load_errors_banner_add_list (f->banner, PAL_STORED_LIST (servers));

  g_assert_cmpstr (pal_load_errors_banner_get_title (f->banner), ==,
                   "3 stored settings could not be read");
  details = pal_load_errors_banner_dup_details (f->banner);
  g_assert_nonnull (strstr (details, "Stored MCP server 1: the key “transport” is missing"));
  WAIT_UNTIL (has_backup (sessions));
}

/* A value GSettings cannot read at all: the one sentence says it all. */
static void
test_unreadable_value (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  g_autofree char *details = NULL;
  GVariant *value = g_variant_ref_sink (g_variant_new_string ("not a list"));

  g_assert_true (G_SETTINGS_BACKEND_GET_CLASS (f->backend)->write (f->backend,
                                                                   "/io/github/palaverapp/Palaver/sessions",
                                                                   value, NULL));
  g_variant_unref (value);
  store = pal_session_store_new (f->settings);
  pal_load_errors_banner_add_list (f->banner, PAL_STORED_LIST (store));
  g_assert_true (pal_load_errors_banner_get_revealed (f->banner));
  g_assert_cmpstr (pal_load_errors_banner_get_title (f->banner), ==,
                   "1 stored session could not be read");

  WAIT_UNTIL (has_backup (store));
  details = pal_load_errors_banner_dup_details (f->banner);
  g_assert_true (g_str_has_prefix (details, "The stored list “Sessions” could not be read: it has "
                                            "the type “s” instead of “aa{sv}”. What it held was "
                                            "copied to “"));
  /* the copy is named once */
  g_assert_null (strstr (details, "A copy of what was stored"));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = g_dir_make_tmp ("palaver-banner-XXXXXX", NULL);
  int result;

  /* the stores' copies go to a folder of the test's own */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/load-errors-banner/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("sessions", test_sessions);
  ADD ("nothing-wrong", test_nothing_wrong);
  ADD ("dismiss", test_dismiss);
  ADD ("several-lists", test_several_lists);
  ADD ("unreadable-value", test_unreadable_value);

#undef ADD

  result = g_test_run ();

  /* the copies, then the folders they went to */
  {
    g_autofree char *folder = g_build_filename (data_home, "palaver", "settings-backup", NULL);
    g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (folder, name, NULL);

        g_unlink (path);
      }
    g_rmdir (folder);
    g_clear_pointer (&folder, g_free);
    folder = g_build_filename (data_home, "palaver", NULL);
    g_rmdir (folder);
    g_rmdir (data_home);
  }

  return result;
}
