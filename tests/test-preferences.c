/* test-preferences.c: the preferences window, its editors and the import
 *
 * Every test builds the window over stores on in-memory settings, drives it
 * the way a person would (typing into rows, toggling switches, activating
 * the actions its buttons and toasts use) and checks both what is shown and
 * what is stored.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <signal.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "find-descendant.h"
#include "pal-application.h"
#include "pal-args-group.h"
#include "pal-error.h"
#include "pal-mcp-test-group.h"
#include "pal-name-value-group.h"
#include "pal-preferences-window.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"
#define FAKE_DEMO "/opt/test/palaver-demo-agent"
#define TEST_PROGRAM "palaver-test-mcp"
#define LOOKING "Looking for the program…"

typedef struct
{
  GSettingsBackend *backend;
  GSettings *settings;
  PalAgentStore *agent_store;
  PalMcpServerStore *servers;
  SoupSession *session;
  PalPreferencesWindow *window;
  char *bin_dir;
  char *old_path;
} Fixture;

static const char *
fake_server (void)
{
  const char *path = g_getenv ("PALAVER_FAKE_MCP_SERVER");

  g_assert_nonnull (path);
  return path;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *link = NULL;
  g_autofree char *path = NULL;

  fixture->bin_dir = test_make_tmpdir ("palaver-preferences");
  link = g_build_filename (fixture->bin_dir, TEST_PROGRAM, NULL);
  g_assert_cmpint (symlink (fake_server (), link), ==, 0);

  fixture->old_path = g_strdup (g_getenv ("PATH"));
  path = g_strconcat (fixture->bin_dir, ":", fixture->old_path, NULL);
  g_setenv ("PATH", path, TRUE);
  g_setenv ("PALAVER_DEMO_AGENT", FAKE_DEMO, TRUE);

  fixture->backend = g_memory_settings_backend_new ();
  fixture->settings = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  fixture->agent_store = pal_agent_store_new (fixture->settings);
  fixture->servers = pal_mcp_server_store_new (fixture->settings);
  fixture->session = soup_session_new ();
  fixture->window = g_object_ref_sink (pal_preferences_window_new (fixture->agent_store,
                                                                   fixture->servers,
                                                                   fixture->session));
  gtk_window_present (GTK_WINDOW (fixture->window));
  test_drain_main_context ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  /* the window and every dialog left open */
  while (g_list_model_get_n_items (toplevels) > 0)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, 0);

      gtk_window_destroy (window);
    }
  test_drain_main_context ();

  g_clear_object (&fixture->window);
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->servers);
  g_clear_object (&fixture->agent_store);
  g_clear_object (&fixture->settings);
  g_clear_object (&fixture->backend);

  g_free (fixture->bin_dir);

  g_setenv ("PATH", fixture->old_path, TRUE);
  g_free (fixture->old_path);
}

/* --- widget helpers --- */

static gpointer
template_child (gpointer    widget,
                GType       type,
                const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert_nonnull (child);
  return child;
}

static GtkWidget *
find_icon (GtkWidget  *widget,
           const char *icon_name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_IMAGE (child) &&
          g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (child)), icon_name) == 0)
        return child;
      if ((found = find_icon (child, icon_name)) != NULL)
        return found;
    }

  return NULL;
}

/* The button under @widget that shows @icon_name. */
static GtkWidget *
find_icon_button (GtkWidget  *widget,
                  const char *icon_name)
{
  GtkWidget *icon = find_icon (widget, icon_name);
  GtkWidget *button;

  g_assert_nonnull (icon);
  button = gtk_widget_get_ancestor (icon, GTK_TYPE_BUTTON);
  g_assert_nonnull (button);
  return button;
}

/* Whether a label under @widget shows @text. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child) && gtk_widget_get_visible (child) &&
          g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), text) == 0)
        return TRUE;
      if (shows_label (child, text))
        return TRUE;
    }

  return FALSE;
}

/* The label under @widget that shows @text, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), text) == 0)
        return child;
      if ((found = find_label (child, text)) != NULL)
        return found;
    }

  return NULL;
}

/* A window of @type that is shown, or NULL. */
static GtkWidget *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return window;
    }

  return NULL;
}

static GPtrArray *
list_rows (GtkListBox *list)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (ADW_IS_ACTION_ROW (child))
      g_ptr_array_add (rows, child);

  return rows;
}

static AdwActionRow *
find_row (GtkListBox *list,
          const char *title)
{
  g_autoptr(GPtrArray) rows = list_rows (list);

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (rows, i)), title) == 0)
      return g_ptr_array_index (rows, i);

  return NULL;
}

static void
type_into (gpointer    editable,
           const char *text)
{
  GtkRoot *root = gtk_widget_get_root (editable);

  gtk_widget_grab_focus (editable);
  gtk_editable_set_text (GTK_EDITABLE (editable), text);
  /* done with it: the editor shows what is wrong with it */
  if (root != NULL)
    gtk_root_set_focus (root, NULL);
  test_drain_main_context ();
}

/* Types @text without leaving the field: the person is still at it */
static void
type_in_place (gpointer    editable,
               const char *text)
{
  gtk_widget_grab_focus (editable);
  gtk_editable_set_text (GTK_EDITABLE (editable), text);
  test_drain_main_context ();
}

/* Waits for the lookup of the command an editor started, off the main thread:
 * until the row no longer says it is looking. */
static void
wait_for_lookup (gpointer editor)
{
  WAIT_UNTIL (!shows_label (GTK_WIDGET (editor), LOOKING));
  test_drain_main_context ();
}

/* Types a command into @row of @editor and waits for its lookup. */
static void
type_command (gpointer    editor,
              gpointer    row,
              const char *text)
{
  type_into (row, text);
  wait_for_lookup (editor);
}

static GVariant *
stored_server (Fixture    *fixture,
               const char *name)
{
  g_autoptr(GVariant) value = g_settings_get_value (fixture->settings, "mcp-servers");
  guint n = g_variant_n_children (value);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GVariant) entry = g_variant_get_child_value (value, i);
      const char *entry_name = NULL;

      if (g_variant_lookup (entry, "name", "&s", &entry_name) &&
          g_strcmp0 (entry_name, name) == 0)
        return g_steal_pointer (&entry);
    }

  return NULL;
}

static gboolean
has_stored_server (Fixture    *fixture,
                   const char *name)
{
  g_autoptr(GVariant) entry = stored_server (fixture, name);

  return entry != NULL;
}

static PalMcpServerConfig *
server_at (Fixture *fixture,
           guint    position)
{
  g_autoptr(PalMcpServerConfig) config = g_list_model_get_item (G_LIST_MODEL (fixture->servers),
                                                                position);

  g_assert_nonnull (config);
  return config;
}

static void
add_stdio_server (Fixture    *fixture,
                  const char *name)
{
  g_autoptr(PalMcpServerConfig) config = pal_mcp_server_config_new (name,
                                                                    ACP_MCP_TRANSPORT_STDIO);
  g_autoptr(GError) error = NULL;

  pal_mcp_server_config_set_command (config, fake_server ());
  pal_mcp_server_store_add (fixture->servers, config, &error);
  g_assert_no_error (error);
}

/* --- agents --- */

static void
detect_done_cb (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (pal_agent_store_detect_finish (PAL_AGENT_STORE (source_object), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
test_agents_page (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkListBox *list = template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW, "agent_list");
  AdwComboRow *default_row = template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW,
                                             "default_agent_row");
  AdwActionRow *demo = find_row (list, "Demo Agent");
  g_autofree char *gemini = g_build_filename (fixture->bin_dir, "gemini", NULL);
  g_autoptr(GError) error = NULL;
  gboolean detected = FALSE;

  g_assert_nonnull (demo);
  g_assert_true (shows_label (GTK_WIDGET (demo), "Demo, no account needed"));

  /* a preset found in PATH is listed and marked */
  g_assert_true (g_file_set_contents (gemini, "#!/bin/sh\n", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (gemini, 0755), ==, 0);
  pal_agent_store_detect_async (fixture->agent_store, NULL, detect_done_cb, &detected);
  WAIT_UNTIL (detected);
  test_drain_main_context ();
  g_assert_nonnull (find_row (list, "Gemini CLI"));
  g_assert_true (shows_label (GTK_WIDGET (find_row (list, "Gemini CLI")), "Detected"));
  g_assert_false (shows_label (GTK_WIDGET (demo), "Detected"));

  /* the combo row shows the default, and choosing another stores it */
  g_assert_cmpuint (adw_combo_row_get_selected (default_row), ==, 0);
  adw_combo_row_set_selected (default_row,
                              g_list_model_get_n_items (G_LIST_MODEL (fixture->agent_store)) - 1);
  {
    g_autofree char *default_agent = g_settings_get_string (fixture->settings, "default-agent");

    g_assert_cmpstr (default_agent, ==, "demo");
  }
}

/* Opens the editor of a new agent through the page's action */
static PalAgentEditor *
open_new_agent_editor (Fixture *fixture)
{
  PalAgentEditor *editor;

  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "prefs.add-agent", NULL);
  test_drain_main_context ();
  editor = (PalAgentEditor *) find_toplevel (PAL_TYPE_AGENT_EDITOR);
  g_assert_nonnull (editor);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (editor)) ==
                 GTK_WINDOW (fixture->window));

  return editor;
}

/* Types a name and a command found in PATH, and waits for its lookup: an
 * agent that can be saved */
static void
fill_in_agent (PalAgentEditor *editor)
{
  type_into (template_child (editor, PAL_TYPE_AGENT_EDITOR, "name_row"), "My Agent");
  type_command (editor, template_child (editor, PAL_TYPE_AGENT_EDITOR, "command_row"),
                TEST_PROGRAM);
  g_assert_true (pal_agent_editor_get_can_save (editor));
}

/* An empty editor: the name is what is missing first; nothing is shown as
 * an error before the person typed (Save waits), but once a save was
 * tried; with a name, the command is what is missing. */
static void
test_agent_editor_empty (Fixture       *fixture,
                         gconstpointer  data)
{
  PalAgentEditor *editor = open_new_agent_editor (fixture);
  AdwEntryRow *name_row = template_child (editor, PAL_TYPE_AGENT_EDITOR, "name_row");
  AdwEntryRow *command_row = template_child (editor, PAL_TYPE_AGENT_EDITOR, "command_row");
  g_autoptr(GError) error = NULL;

  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_cmpstr (pal_agent_editor_get_problem (editor), ==, "Enter a name for the agent");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (name_row), "error"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));
  g_assert_false (shows_label (GTK_WIDGET (editor), "Enter a name for the agent"));
  g_assert_false (pal_agent_editor_save (editor, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (name_row), "error"));
  g_assert_true (shows_label (GTK_WIDGET (editor), "Enter a name for the agent"));

  type_into (name_row, "My Agent");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (name_row), "error"));
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));
}

/* The program is looked for off the main thread, and Save waits for it; a
 * program not found keeps Save off, as in the MCP server editor, and one
 * found says where. */
static void
test_agent_editor_command_lookup (Fixture       *fixture,
                                  gconstpointer  data)
{
  PalAgentEditor *editor = open_new_agent_editor (fixture);
  AdwEntryRow *command_row = template_child (editor, PAL_TYPE_AGENT_EDITOR, "command_row");
  g_autoptr(GError) error = NULL;

  type_into (template_child (editor, PAL_TYPE_AGENT_EDITOR, "name_row"), "My Agent");

  /* typed without running the main loop, in which the lookup could end */
  gtk_editable_set_text (GTK_EDITABLE (command_row), "my-agent-not-installed");
  g_assert_true (shows_label (GTK_WIDGET (editor), LOOKING));
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_cmpstr (pal_agent_editor_get_problem (editor), ==, LOOKING);
  g_assert_false (pal_agent_editor_save (editor, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  wait_for_lookup (editor);

  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_true (shows_label (GTK_WIDGET (editor),
                              "“my-agent-not-installed” was not found in PATH"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));

  type_command (editor, command_row, TEST_PROGRAM);
  g_assert_true (pal_agent_editor_get_can_save (editor));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));
  {
    g_autofree char *resolved = g_build_filename (fixture->bin_dir, TEST_PROGRAM, NULL);
    g_autofree char *found = g_strdup_printf ("Found at %s", resolved);

    g_assert_true (shows_label (GTK_WIDGET (editor), found));
  }
}

/* A field is not marked bad at every keystroke: while the person types in
 * it Save is off, and its problem shows once they leave it. Alike in both
 * editors. */
static void
test_editors_not_red_while_typing (Fixture       *fixture,
                                   gconstpointer  data)
{
  PalAgentEditor *editor = open_new_agent_editor (fixture);
  AdwEntryRow *name_row = template_child (editor, PAL_TYPE_AGENT_EDITOR, "name_row");
  AdwEntryRow *command_row = template_child (editor, PAL_TYPE_AGENT_EDITOR, "command_row");
  PalNameValueGroup *env_group = template_child (editor, PAL_TYPE_AGENT_EDITOR, "env_group");
  PalMcpServerEditor *server_editor;
  AdwEntryRow *url_row;
  PalNameValueRow *env_row;

  gtk_window_present (GTK_WINDOW (editor));
  fill_in_agent (editor);

  /* the command typed in: not found, but not red while typed */
  type_in_place (command_row, "my-agent-not-installed");
  wait_for_lookup (editor);
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));
  /* left: now it is */
  gtk_widget_grab_focus (GTK_WIDGET (name_row));
  test_drain_main_context ();
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));
  /* the focus passing through keeps it so, and fixed, it is not */
  gtk_widget_grab_focus (GTK_WIDGET (command_row));
  test_drain_main_context ();
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));
  type_in_place (command_row, TEST_PROGRAM);
  wait_for_lookup (editor);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (command_row), "error"));

  /* the name emptied while typed in: Save off, not red until left */
  type_in_place (name_row, "");
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (name_row), "error"));
  gtk_widget_grab_focus (GTK_WIDGET (command_row));
  test_drain_main_context ();
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (name_row), "error"));
  type_into (name_row, "My Agent");

  /* a variable likewise */
  pal_name_value_group_add (env_group);
  test_drain_main_context ();
  env_row = pal_name_value_group_get_row (env_group, 0);
  type_in_place (pal_name_value_row_get_name_entry (env_row), "1BAD");
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_null (pal_name_value_row_get_error (env_row));
  gtk_widget_grab_focus (GTK_WIDGET (name_row));
  test_drain_main_context ();
  g_assert_nonnull (pal_name_value_row_get_error (env_row));
  gtk_window_close (GTK_WINDOW (editor));

  /* and the MCP server editor: a URL being typed is not red */
  server_editor = pal_preferences_window_edit_server (fixture->window, NULL);
  gtk_window_present (GTK_WINDOW (server_editor));
  adw_combo_row_set_selected (template_child (server_editor, PAL_TYPE_MCP_SERVER_EDITOR,
                                              "transport_row"), ACP_MCP_TRANSPORT_HTTP);
  url_row = template_child (server_editor, PAL_TYPE_MCP_SERVER_EDITOR, "url_row");
  type_into (template_child (server_editor, PAL_TYPE_MCP_SERVER_EDITOR, "name_row"), "web");
  type_in_place (url_row, "http");
  g_assert_false (pal_mcp_server_editor_get_can_save (server_editor));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (url_row), "error"));
  gtk_widget_grab_focus (template_child (server_editor, PAL_TYPE_MCP_SERVER_EDITOR, "name_row"));
  test_drain_main_context ();
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (url_row), "error"));
}

/* An environment row is checked as it is typed; just added, its empty name
 * keeps Save off without being shown as an error, until a save is tried. */
static void
test_agent_editor_env (Fixture       *fixture,
                       gconstpointer  data)
{
  PalAgentEditor *editor = open_new_agent_editor (fixture);
  PalNameValueGroup *env_group = template_child (editor, PAL_TYPE_AGENT_EDITOR, "env_group");
  PalNameValueRow *env_row;
  g_autoptr(GError) error = NULL;

  fill_in_agent (editor);

  pal_name_value_group_add (env_group);
  test_drain_main_context ();
  env_row = pal_name_value_group_get_row (env_group, 0);
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_null (pal_name_value_row_get_error (env_row));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (pal_name_value_row_get_name_entry (env_row)),
                                            "error"));
  /* a save tried shows it */
  g_assert_false (pal_agent_editor_save (editor, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_cmpstr (pal_name_value_row_get_error (env_row), ==, "Enter the name of the variable");
  type_into (pal_name_value_row_get_name_entry (env_row), "1BAD");
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_nonnull (pal_name_value_row_get_error (env_row));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (pal_name_value_row_get_name_entry (env_row)),
                                           "error"));
  type_into (pal_name_value_row_get_name_entry (env_row), "API_URL");
  type_into (pal_name_value_row_get_value_entry (env_row), "http://localhost:1234");
  g_assert_null (pal_name_value_row_get_error (env_row));
  g_assert_true (pal_agent_editor_get_can_save (editor));
}

/* Whether @row shows whole in the scrolled page around it */
static gboolean
row_in_view (PalNameValueRow *row)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (row), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  return gtk_widget_get_height (GTK_WIDGET (row)) > 0 &&
         gtk_widget_compute_bounds (GTK_WIDGET (row), scrolled, &bounds) &&
         bounds.origin.y >= 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scrolled);
}

static const char *
env_name (PalNameValueGroup *group,
          guint              position)
{
  return pal_name_value_get_name (pal_name_value_row_get_item (pal_name_value_group_get_row (group, position)));
}

static const char *
env_value (PalNameValueGroup *group,
           guint              position)
{
  return pal_name_value_get_value (pal_name_value_row_get_item (pal_name_value_group_get_row (group, position)));
}

/* Lines of NAME=VALUE pasted into a variable's field become rows, each
 * added in view; one pasted into a name is split; a value keeps its "=". */
static void
test_agent_editor_env_paste (Fixture       *fixture,
                             gconstpointer  data)
{
  PalAgentEditor *editor = open_new_agent_editor (fixture);
  PalNameValueGroup *env_group = template_child (editor, PAL_TYPE_AGENT_EDITOR, "env_group");
  GListModel *model = NULL;
  PalNameValueRow *row;
  int position = 0;

  gtk_window_set_default_size (GTK_WINDOW (editor), 500, 420);
  fill_in_agent (editor);
  pal_name_value_group_add (env_group);
  test_drain_main_context ();
  model = G_LIST_MODEL (pal_name_value_group_get_model (env_group));
  row = pal_name_value_group_get_row (env_group, 0);

  gtk_editable_insert_text (pal_name_value_row_get_value_entry (row),
                            "API_URL=http://localhost:1234\n"
                            "export TOKEN_FILE=\"/tmp/a b\"\n"
                            "\n"
                            "# the rest\n"
                            "MODE=fast\n"
                            "LEVEL=3\n"
                            "DEBUG=1\n", -1, &position);
  test_drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 5);
  g_assert_cmpstr (env_name (env_group, 0), ==, "API_URL");
  g_assert_cmpstr (env_value (env_group, 0), ==, "http://localhost:1234");
  g_assert_cmpstr (env_name (env_group, 1), ==, "TOKEN_FILE");
  g_assert_cmpstr (env_value (env_group, 1), ==, "/tmp/a b");
  g_assert_cmpstr (env_name (env_group, 4), ==, "DEBUG");
  g_assert_cmpstr (env_value (env_group, 4), ==, "1");
  g_assert_true (pal_agent_editor_get_can_save (editor));

  /* the last one added shows whole */
  WAIT_UNTIL (row_in_view (pal_name_value_group_get_row (env_group, 4)));

  /* pasted again: the variables listed take the new values */
  position = 0;
  gtk_editable_insert_text (pal_name_value_row_get_name_entry (pal_name_value_group_get_row (env_group, 2)),
                            "LEVEL=4\nEXTRA=yes", -1, &position);
  test_drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  g_assert_cmpstr (env_value (env_group, 3), ==, "4");
  g_assert_cmpstr (env_name (env_group, 2), ==, "MODE");
  g_assert_cmpstr (env_name (env_group, 5), ==, "EXTRA");

  /* one NAME=VALUE into a new name: split; into a value: kept whole */
  pal_name_value_group_add (env_group);
  test_drain_main_context ();
  row = pal_name_value_group_get_row (env_group, 6);
  position = 0;
  gtk_editable_insert_text (pal_name_value_row_get_name_entry (row), "OPTS=--fast", -1, &position);
  test_drain_main_context ();
  g_assert_cmpstr (env_name (env_group, 6), ==, "OPTS");
  g_assert_cmpstr (env_value (env_group, 6), ==, "--fast");
  gtk_editable_set_text (pal_name_value_row_get_value_entry (row), "");
  position = 0;
  gtk_editable_insert_text (pal_name_value_row_get_value_entry (row), "--level=9", -1, &position);
  test_drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 7);
  g_assert_cmpstr (env_value (env_group, 6), ==, "--level=9");
  WAIT_UNTIL (row_in_view (pal_name_value_group_get_row (env_group, 6)));
}

/* Fills in and saves an agent with arguments and a variable.
 * Returns: the profile stored */
static PalAgentProfile *
save_new_agent (Fixture *fixture)
{
  PalAgentEditor *editor = open_new_agent_editor (fixture);
  PalArgsGroup *args_group = template_child (editor, PAL_TYPE_AGENT_EDITOR, "args_group");
  PalNameValueGroup *env_group = template_child (editor, PAL_TYPE_AGENT_EDITOR, "env_group");
  PalNameValueRow *env_row;
  g_autoptr(GError) error = NULL;
  PalAgentProfile *profile;

  fill_in_agent (editor);
  pal_args_group_add (args_group, "--acp");
  pal_args_group_add (args_group, "--verbose");
  pal_args_group_move (args_group, 1, TRUE);
  pal_name_value_group_add (env_group);
  test_drain_main_context ();
  env_row = pal_name_value_group_get_row (env_group, 0);
  type_into (pal_name_value_row_get_name_entry (env_row), "API_URL");
  type_into (pal_name_value_row_get_value_entry (env_row), "http://localhost:1234");

  g_assert_true (pal_agent_editor_save (editor, &error));
  g_assert_no_error (error);
  test_drain_main_context ();

  profile = pal_agent_editor_get_profile (editor);
  g_assert_nonnull (profile);

  return profile;
}

/* Saving stores the agent, arguments in their order, and lists it. */
static void
test_agent_editor_save (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkListBox *list = template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW, "agent_list");
  AdwComboRow *default_row = template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW,
                                             "default_agent_row");
  guint n_before = g_list_model_get_n_items (G_LIST_MODEL (fixture->agent_store));
  g_autofree char *default_before = pal_agent_store_dup_default_id (fixture->agent_store);
  g_autofree char *default_after = NULL;
  g_autofree char *default_key = NULL;
  g_autoptr(PalAgentProfile) shown_default = NULL;
  PalAgentProfile *profile = save_new_agent (fixture);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->agent_store)), ==,
                    n_before + 1);
  g_assert_true (pal_agent_store_lookup (fixture->agent_store,
                                         pal_agent_profile_get_id (profile)) == profile);
  g_assert_cmpstr (pal_agent_profile_get_command (profile), ==, TEST_PROGRAM);
  g_assert_cmpstr (pal_agent_profile_get_args (profile)[0], ==, "--verbose");
  g_assert_cmpstr (pal_agent_profile_get_args (profile)[1], ==, "--acp");
  g_assert_cmpstr (pal_agent_profile_get_env (profile)[0], ==, "API_URL=http://localhost:1234");
  g_assert_nonnull (find_row (list, "My Agent"));
  g_assert_true (shows_label (GTK_WIDGET (find_row (list, "My Agent")),
                              TEST_PROGRAM " --verbose --acp"));
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (find_row (list, "My Agent")),
                                                         "user-trash-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Remove");

  /* the default stays what it was: the person did not choose another */
  default_after = pal_agent_store_dup_default_id (fixture->agent_store);
  g_assert_cmpstr (default_after, ==, default_before);
  default_key = g_settings_get_string (fixture->settings, "default-agent");
  g_assert_cmpstr (default_key, ==, "");
  shown_default = g_list_model_get_item (G_LIST_MODEL (fixture->agent_store),
                                         adw_combo_row_get_selected (default_row));
  g_assert_cmpstr (pal_agent_profile_get_id (shown_default), ==, default_before);
}

/* Removing an agent asks first. */
static void
test_agent_remove (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkListBox *list = template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW, "agent_list");
  guint n_before = g_list_model_get_n_items (G_LIST_MODEL (fixture->agent_store));
  g_autofree char *id = g_strdup (pal_agent_profile_get_id (save_new_agent (fixture)));
  GtkWidget *dialog;

  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "prefs.remove-agent", "s", id);
  test_drain_main_context ();
  dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (dialog);
  g_assert_nonnull (pal_agent_store_lookup (fixture->agent_store, id));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "remove");
  test_drain_main_context ();
  g_assert_null (pal_agent_store_lookup (fixture->agent_store, id));
  g_assert_null (find_row (list, "My Agent"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->agent_store)), ==, n_before);
}

/* The preferences row titled @title under @root, or NULL. */
static GtkWidget *
find_titled_row (GtkWidget  *root,
                 const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (ADW_IS_PREFERENCES_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return child;
      found = find_titled_row (child, title);
      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The variables whose values the keyring keeps are listed by name, never
 * with a value, and can be removed from there. */
static void
test_agent_editor_keyring (Fixture       *fixture,
                           gconstpointer  data)
{
  const char *args[] = { "--acp", NULL };
  const char *env[] = { "ORG=acme", NULL };
  const char *secrets[] = { "MY_API_KEY", "MY_TOKEN", NULL };
  const char *left[] = { "MY_TOKEN", NULL };
  g_autoptr(PalAgentProfile) added = pal_agent_profile_new ("keyed", "Keyed", TEST_PROGRAM, args);
  g_autoptr(GError) error = NULL;
  PalAgentProfile *profile;
  AdwPreferencesGroup *secrets_group;
  PalNameValueGroup *env_group;
  PalNameValueRow *env_row;
  PalAgentEditor *editor;
  GtkWidget *row;
  GtkWidget *remove;

  pal_agent_profile_set_env (added, env);
  pal_agent_profile_set_secrets (added, secrets);
  g_assert_true (pal_agent_store_add (fixture->agent_store, added, &error));
  g_assert_no_error (error);

  editor = pal_agent_editor_new (fixture->agent_store, added);
  gtk_window_present (GTK_WINDOW (editor));
  wait_for_lookup (editor);
  secrets_group = template_child (editor, PAL_TYPE_AGENT_EDITOR, "secrets_group");
  env_group = template_child (editor, PAL_TYPE_AGENT_EDITOR, "env_group");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (secrets_group)));
  g_assert_true (shows_label (GTK_WIDGET (secrets_group), "MY_API_KEY"));
  g_assert_true (shows_label (GTK_WIDGET (secrets_group), "MY_TOKEN"));
  g_assert_true (shows_label (GTK_WIDGET (secrets_group), "Value kept in the keyring"));
  /* the environment rows are the profile's own variables only */
  g_assert_nonnull (pal_name_value_group_get_row (env_group, 0));
  g_assert_null (pal_name_value_group_get_row (env_group, 1));
  g_assert_true (pal_agent_editor_get_can_save (editor));

  /* a variable set here and kept in the keyring: one of them must go */
  pal_name_value_group_add (env_group);
  test_drain_main_context ();
  env_row = pal_name_value_group_get_row (env_group, 1);
  type_into (pal_name_value_row_get_name_entry (env_row), "MY_API_KEY");
  type_into (pal_name_value_row_get_value_entry (env_row), "typed");
  g_assert_false (pal_agent_editor_get_can_save (editor));
  g_assert_nonnull (strstr (pal_agent_editor_get_problem (editor), "keyring"));

  row = find_titled_row (GTK_WIDGET (secrets_group), "MY_API_KEY");
  g_assert_nonnull (row);
  remove = find_icon_button (row, "user-trash-symbolic");
  g_assert_nonnull (remove);
  g_signal_emit_by_name (remove, "clicked");
  test_drain_main_context ();
  g_assert_false (shows_label (GTK_WIDGET (secrets_group), "MY_API_KEY"));
  g_assert_true (pal_agent_editor_get_can_save (editor));

  g_assert_true (pal_agent_editor_save (editor, &error));
  g_assert_no_error (error);
  profile = pal_agent_store_lookup (fixture->agent_store, "keyed");
  g_assert_cmpstrv (pal_agent_profile_get_secrets (profile), left);
  g_assert_true (g_strv_contains (pal_agent_profile_get_env (profile), "MY_API_KEY=typed"));
  g_assert_true (g_strv_contains (pal_agent_profile_get_env (profile), "ORG=acme"));
}

/* --- the MCP server editor --- */

/* An MCP server editor and its rows */
typedef struct
{
  PalMcpServerEditor *editor;
  AdwEntryRow        *name_row;
  AdwEntryRow        *command_row;
  AdwEntryRow        *url_row;
  AdwComboRow        *transport_row;
  PalArgsGroup       *args_group;
  PalNameValueGroup  *env_group;
  PalNameValueGroup  *headers_group;
  GtkWidget          *save_button;
} ServerEditor;

/* Opens the editor of @config, or of a new server for NULL */
static void
server_editor_open (Fixture            *fixture,
                    PalMcpServerConfig *config,
                    ServerEditor       *ed)
{
  ed->editor = pal_preferences_window_edit_server (fixture->window, config);
  ed->name_row = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "name_row");
  ed->command_row = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "command_row");
  ed->url_row = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "url_row");
  ed->transport_row = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "transport_row");
  ed->args_group = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "args_group");
  ed->env_group = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "env_group");
  ed->headers_group = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "headers_group");
  ed->save_button = template_child (ed->editor, PAL_TYPE_MCP_SERVER_EDITOR, "save_button");
}

/* Fills in a stdio server named “files” running the test program, found in
 * PATH: one that can be saved */
static void
server_editor_fill_stdio (ServerEditor *ed)
{
  type_into (ed->name_row, "files");
  type_command (ed->editor, ed->command_row, TEST_PROGRAM);
  g_assert_true (pal_mcp_server_editor_get_can_save (ed->editor));
}

/* Adds the first row to @group and types @name (and @value) into it, unless
 * NULL */
static PalNameValueRow *
server_editor_add_row (PalNameValueGroup *group,
                       const char        *name,
                       const char        *value)
{
  PalNameValueRow *row;

  pal_name_value_group_add (group);
  test_drain_main_context ();
  row = pal_name_value_group_get_row (group, 0);
  if (name != NULL)
    type_into (pal_name_value_row_get_name_entry (row), name);
  if (value != NULL)
    type_into (pal_name_value_row_get_value_entry (row), value);

  return row;
}

/* Switches the editor to HTTP, with a valid name and address */
static void
server_editor_fill_http (ServerEditor *ed)
{
  type_into (ed->name_row, "files");
  adw_combo_row_set_selected (ed->transport_row, ACP_MCP_TRANSPORT_HTTP);
  test_drain_main_context ();
  type_into (ed->url_row, "https://example.com/mcp");
  g_assert_true (pal_mcp_server_editor_get_can_save (ed->editor));
}

/* An empty name is not shown as an error before the person typed (Save
 * waits), but once the field held text and was emptied; a name clears it. */
static void
test_server_editor_empty_name (Fixture       *fixture,
                               gconstpointer  data)
{
  ServerEditor ed;

  server_editor_open (fixture, NULL, &ed);
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_false (gtk_widget_get_sensitive (ed.save_button));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (ed.name_row), "error"));
  g_assert_cmpstr (pal_mcp_server_editor_get_problem (ed.editor), ==, "Enter a name for the server");
  type_into (ed.name_row, "x");
  type_into (ed.name_row, "");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (ed.name_row), "error"));
  g_assert_true (shows_label (GTK_WIDGET (ed.editor), "Enter a name for the server"));

  type_into (ed.name_row, "files");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (ed.name_row), "error"));
}

/* A name another server has is refused. */
static void
test_server_editor_taken_name (Fixture       *fixture,
                               gconstpointer  data)
{
  ServerEditor ed;

  add_stdio_server (fixture, "existing");
  server_editor_open (fixture, NULL, &ed);
  type_into (ed.name_row, "existing");
  g_assert_cmpstr (pal_mcp_server_editor_get_problem (ed.editor), ==,
                   "Another MCP server is already named “existing”");
  g_assert_true (shows_label (GTK_WIDGET (ed.editor),
                              "Another MCP server is already named “existing”"));
}

/* A free name, but no command yet: Save waits, the empty command is not
 * red yet. */
static void
test_server_editor_no_command (Fixture       *fixture,
                               gconstpointer  data)
{
  ServerEditor ed;

  server_editor_open (fixture, NULL, &ed);
  type_into (ed.name_row, "files");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (ed.name_row), "error"));
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_cmpstr (pal_mcp_server_editor_get_problem (ed.editor), ==, "Enter the program to start");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (ed.command_row), "error"));
}

/* A program that is not in PATH is an error. */
static void
test_server_editor_command_not_found (Fixture       *fixture,
                                      gconstpointer  data)
{
  ServerEditor ed;

  server_editor_open (fixture, NULL, &ed);
  type_into (ed.name_row, "files");
  type_command (ed.editor, ed.command_row, "palaver-no-such-program");
  g_assert_false (gtk_widget_get_sensitive (ed.save_button));
  g_assert_cmpstr (pal_mcp_server_editor_get_problem (ed.editor), ==,
                   "“palaver-no-such-program” was not found in PATH");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (ed.command_row), "error"));
}

/* A relative path is refused. */
static void
test_server_editor_relative_command (Fixture       *fixture,
                                     gconstpointer  data)
{
  ServerEditor ed;

  server_editor_open (fixture, NULL, &ed);
  type_into (ed.name_row, "files");
  type_into (ed.command_row, "bin/" TEST_PROGRAM);
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_true (g_str_has_prefix (pal_mcp_server_editor_get_problem (ed.editor),
                                   "“bin/" TEST_PROGRAM "” is a relative path"));
}

/* A program in PATH: until it is found, a note says so and Save waits;
 * then it is valid, and where it was found is shown. */
static void
test_server_editor_command_found (Fixture       *fixture,
                                  gconstpointer  data)
{
  ServerEditor ed;
  g_autofree char *resolved = g_build_filename (fixture->bin_dir, TEST_PROGRAM, NULL);
  g_autofree char *found = g_strdup_printf ("Found at %s", resolved);
  g_autoptr(GError) error = NULL;

  server_editor_open (fixture, NULL, &ed);
  type_into (ed.name_row, "files");

  /* typed without running the main loop, in which the lookup could end */
  gtk_editable_set_text (GTK_EDITABLE (ed.command_row), TEST_PROGRAM);
  g_assert_true (shows_label (GTK_WIDGET (ed.editor), LOOKING));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (ed.command_row), "error"));
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_false (gtk_widget_get_sensitive (ed.save_button));
  g_assert_cmpstr (pal_mcp_server_editor_get_problem (ed.editor), ==, LOOKING);
  g_assert_false (pal_mcp_server_editor_save (ed.editor, &error));
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_assert_false (has_stored_server (fixture, "files"));

  wait_for_lookup (ed.editor);
  g_assert_true (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_true (gtk_widget_get_sensitive (ed.save_button));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (ed.command_row), "error"));
  g_assert_true (shows_label (GTK_WIDGET (ed.editor), found));
}

/* Arguments keep their order, and their buttons have names a screen reader
 * can say. */
static void
test_server_editor_arguments (Fixture       *fixture,
                              gconstpointer  data)
{
  ServerEditor ed;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_stdio (&ed);

  pal_args_group_add (ed.args_group, "verbose");
  pal_args_group_add (ed.args_group, "normal");
  pal_args_group_move (ed.args_group, 0, FALSE);
  g_assert_cmpstr (pal_mcp_server_config_get_args (pal_mcp_server_editor_get_config (ed.editor))[0],
                   ==, "normal");
  pal_args_group_remove (ed.args_group, 1);
  g_assert_cmpuint (pal_args_group_get_n_args (ed.args_group), ==, 1);

  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (ed.args_group),
                                                         "go-up-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Move Up");
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (ed.args_group),
                                                         "go-down-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Move Down");
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (ed.args_group),
                                                         "user-trash-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Remove");
}

/* A variable with no name, or a bad one, keeps the server from being saved;
 * the row's buttons have names a screen reader can say. */
static void
test_server_editor_env_name (Fixture       *fixture,
                             gconstpointer  data)
{
  ServerEditor ed;
  PalNameValueRow *row;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_stdio (&ed);

  row = server_editor_add_row (ed.env_group, NULL, NULL);
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  type_into (pal_name_value_row_get_name_entry (row), "BAD-NAME");
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_true (g_str_has_prefix (pal_name_value_row_get_error (row),
                                   "“BAD-NAME” is not a valid"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (pal_name_value_row_get_name_entry (row)),
                                           "error"));
  g_assert_true (shows_label (GTK_WIDGET (row), pal_name_value_row_get_error (row)));
  g_assert_false (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (row),
                                                         "user-trash-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Remove");
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (row),
                                                         "channel-secure-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Secret: Show the Value Masked");
}

/* A variable whose name looks secret masks its value as it is typed. */
static void
test_server_editor_env_secret_name (Fixture       *fixture,
                                    gconstpointer  data)
{
  ServerEditor ed;
  PalNameValueRow *row;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_stdio (&ed);

  row = server_editor_add_row (ed.env_group, "BAD-NAME", NULL);
  type_into (pal_name_value_row_get_name_entry (row), "API_TOKEN");
  g_assert_true (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
  type_into (pal_name_value_row_get_value_entry (row), "s3cret");
  g_assert_false (gtk_entry_get_visibility (GTK_ENTRY (pal_name_value_row_get_value_entry (row))));
  g_assert_true (pal_mcp_server_editor_get_can_save (ed.editor));
}

/* A secret value is masked until shown. */
static void
test_server_editor_env_reveal (Fixture       *fixture,
                               gconstpointer  data)
{
  ServerEditor ed;
  PalNameValueRow *row;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_stdio (&ed);

  row = server_editor_add_row (ed.env_group, "API_TOKEN", "s3cret");
  pal_name_value_set_secret (pal_name_value_row_get_item (row), TRUE);
  g_assert_false (gtk_entry_get_visibility (GTK_ENTRY (pal_name_value_row_get_value_entry (row))));
  pal_name_value_row_set_revealed (row, TRUE);
  g_assert_true (gtk_entry_get_visibility (GTK_ENTRY (pal_name_value_row_get_value_entry (row))));
  pal_name_value_row_set_revealed (row, FALSE);
  g_assert_false (gtk_entry_get_visibility (GTK_ENTRY (pal_name_value_row_get_value_entry (row))));
}

/* HTTP shows its own fields, checked on their own: the address must be
 * http:// or https://. */
static void
test_server_editor_http_url (Fixture       *fixture,
                             gconstpointer  data)
{
  ServerEditor ed;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_stdio (&ed);

  adw_combo_row_set_selected (ed.transport_row, ACP_MCP_TRANSPORT_HTTP);
  test_drain_main_context ();
  g_assert_false (gtk_widget_get_visible (template_child (ed.editor, PAL_TYPE_MCP_SERVER_EDITOR,
                                                          "command_group")));
  g_assert_true (gtk_widget_get_visible (template_child (ed.editor, PAL_TYPE_MCP_SERVER_EDITOR,
                                                         "url_group")));
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  type_into (ed.url_row, "ftp://example.com/mcp");
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (ed.url_row), "error"));
  g_assert_cmpstr (pal_mcp_server_editor_get_problem (ed.editor), ==,
                   "The URL must start with http:// or https://, not ftp:");
  type_into (ed.url_row, "https://example.com/mcp");
  g_assert_true (pal_mcp_server_editor_get_can_save (ed.editor));
}

/* A bad header name keeps the server from being saved; Authorization is
 * a secret. */
static void
test_server_editor_header_name (Fixture       *fixture,
                                gconstpointer  data)
{
  ServerEditor ed;
  PalNameValueRow *row;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_http (&ed);

  row = server_editor_add_row (ed.headers_group, "Bad Header", NULL);
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (pal_name_value_row_get_name_entry (row)),
                                           "error"));
  type_into (pal_name_value_row_get_name_entry (row), "Authorization");
  g_assert_true (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_true (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
}

/* Whether a header is secret follows its name until the person says
 * otherwise: then their choice stays. */
static void
test_server_editor_header_secret_choice (Fixture       *fixture,
                                         gconstpointer  data)
{
  ServerEditor ed;
  PalNameValueRow *row;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_http (&ed);

  row = server_editor_add_row (ed.headers_group, "Authorization", NULL);
  g_assert_true (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
  type_into (pal_name_value_row_get_name_entry (row), "X-Trace");
  g_assert_false (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_icon_button (GTK_WIDGET (row),
                                                                     "channel-secure-symbolic")),
                                TRUE);
  g_assert_true (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
  type_into (pal_name_value_row_get_name_entry (row), "X-Trace-Id");
  g_assert_true (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_icon_button (GTK_WIDGET (row),
                                                                     "channel-secure-symbolic")),
                                FALSE);
  type_into (pal_name_value_row_get_name_entry (row), "Authorization");
  g_assert_false (pal_name_value_get_secret (pal_name_value_row_get_item (row)));
}

/* Back to stdio from HTTP: what was typed there is still there. */
static void
test_server_editor_transport_back (Fixture       *fixture,
                                   gconstpointer  data)
{
  ServerEditor ed;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_stdio (&ed);
  server_editor_add_row (ed.env_group, "API_TOKEN", "s3cret");

  adw_combo_row_set_selected (ed.transport_row, ACP_MCP_TRANSPORT_HTTP);
  test_drain_main_context ();
  g_assert_false (pal_mcp_server_editor_get_can_save (ed.editor));
  adw_combo_row_set_selected (ed.transport_row, ACP_MCP_TRANSPORT_STDIO);
  test_drain_main_context ();
  g_assert_true (pal_mcp_server_editor_get_can_save (ed.editor));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (ed.command_row)), ==, TEST_PROGRAM);
}

/* Fills in and saves a stdio server “files” with an argument and a
 * variable. Returns: the server stored */
static PalMcpServerConfig *
save_new_server (Fixture *fixture)
{
  ServerEditor ed;
  g_autoptr(GError) error = NULL;
  PalMcpServerConfig *saved;

  server_editor_open (fixture, NULL, &ed);
  server_editor_fill_stdio (&ed);
  pal_args_group_add (ed.args_group, "normal");
  server_editor_add_row (ed.env_group, "API_TOKEN", "s3cret");

  g_assert_true (pal_mcp_server_editor_save (ed.editor, &error));
  g_assert_no_error (error);
  test_drain_main_context ();

  saved = pal_mcp_server_store_lookup (fixture->servers, "files");
  g_assert_nonnull (saved);
  g_assert_true (saved != pal_mcp_server_editor_get_config (ed.editor));

  return saved;
}

/* Saving stores the command resolved in PATH, and lists the server. */
static void
test_server_editor_save (Fixture       *fixture,
                         gconstpointer  data)
{
  GtkListBox *list = template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW,
                                     "server_list");
  g_autofree char *resolved = g_build_filename (fixture->bin_dir, TEST_PROGRAM, NULL);
  g_autofree char *subtitle = g_strdup_printf ("stdio · %s normal", resolved);
  g_autoptr(GVariant) stored = NULL;
  PalMcpServerConfig *saved = save_new_server (fixture);

  g_assert_cmpstr (pal_mcp_server_config_get_command (saved), ==, resolved);
  g_assert_cmpstr (pal_mcp_server_config_get_args (saved)[0], ==, "normal");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pal_mcp_server_config_get_env (saved))),
                    ==, 1);
  g_assert_nonnull (find_row (list, "files"));
  g_assert_true (shows_label (GTK_WIDGET (find_row (list, "files")), subtitle));

  stored = stored_server (fixture, "files");
  g_assert_nonnull (stored);
  g_assert_true (g_variant_lookup (stored, "command", "s", NULL));
}

/* Editing a server changes it in place, once saved. */
static void
test_server_editor_edit (Fixture       *fixture,
                         gconstpointer  data)
{
  ServerEditor ed;
  g_autoptr(GError) error = NULL;
  PalMcpServerConfig *saved;

  add_stdio_server (fixture, "existing");
  saved = save_new_server (fixture);

  server_editor_open (fixture, saved, &ed);
  wait_for_lookup (ed.editor);
  g_assert_true (pal_mcp_server_editor_get_can_save (ed.editor));
  type_into (ed.name_row, "files2");
  g_assert_cmpstr (pal_mcp_server_config_get_name (saved), ==, "files");
  g_assert_true (pal_mcp_server_editor_save (ed.editor, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (pal_mcp_server_config_get_name (saved), ==, "files2");
  g_assert_true (pal_mcp_server_store_lookup (fixture->servers, "files2") == saved);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->servers)), ==, 2);
}

/* The command is looked up off the main thread: a command typed over before
 * its answer came never shows that answer, and closing the dialog while it
 * looks leaves it alone. */
static void
test_editor_lookup (Fixture       *fixture,
                    gconstpointer  data)
{
  PalMcpServerEditor *editor = pal_preferences_window_edit_server (fixture->window, NULL);
  AdwEntryRow *name_row = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR, "name_row");
  AdwEntryRow *command_row = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR, "command_row");
  GtkWidget *save_button = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR, "save_button");
  PalAgentEditor *agent_editor;
  g_autofree char *sh = g_find_program_in_path ("sh");
  g_autofree char *found = NULL;
  const char *not_found = "“nonexistent-x” was not found in PATH";

  g_assert_nonnull (sh);
  found = g_strdup_printf ("Found at %s", sh);
  type_into (name_row, "shell");

  /* typed quickly: only the last command is answered */
  gtk_editable_set_text (GTK_EDITABLE (command_row), "nonexistent-x");
  g_assert_true (shows_label (GTK_WIDGET (editor), LOOKING));
  type_command (editor, command_row, "sh");
  g_assert_true (shows_label (GTK_WIDGET (editor), found));
  g_assert_false (shows_label (GTK_WIDGET (editor), not_found));
  g_assert_true (pal_mcp_server_editor_get_can_save (editor));
  g_assert_true (gtk_widget_get_sensitive (save_button));
  /* and no late answer for the first one comes to change that (checked on
   * what is pending, not over some time: the first lookup never started,
   * its delay was cancelled by the second command) */
  test_drain_main_context ();
  g_assert_true (shows_label (GTK_WIDGET (editor), found));
  g_assert_true (pal_mcp_server_editor_get_can_save (editor));

  /* the other way round, the last answer wins too */
  gtk_editable_set_text (GTK_EDITABLE (command_row), "s");
  type_command (editor, command_row, "nonexistent-x");
  g_assert_true (shows_label (GTK_WIDGET (editor), not_found));
  g_assert_false (pal_mcp_server_editor_get_can_save (editor));
  g_assert_false (gtk_widget_get_sensitive (save_button));

  /* closing while it looks: nothing comes back to the closed dialog */
  g_object_ref (editor);
  gtk_editable_set_text (GTK_EDITABLE (command_row), TEST_PROGRAM);
  g_assert_true (shows_label (GTK_WIDGET (editor), LOOKING));
  gtk_window_close (GTK_WINDOW (editor));
  /* checked on what is pending, not over some time: closing cancelled the
   * lookup, and the answer of a cancelled lookup is dropped */
  test_drain_main_context ();
  g_assert_false (pal_mcp_server_editor_get_can_save (editor));
  g_object_unref (editor);

  /* the agent editor likewise */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "prefs.add-agent", NULL);
  test_drain_main_context ();
  agent_editor = (PalAgentEditor *) find_toplevel (PAL_TYPE_AGENT_EDITOR);
  g_assert_nonnull (agent_editor);
  name_row = template_child (agent_editor, PAL_TYPE_AGENT_EDITOR, "name_row");
  command_row = template_child (agent_editor, PAL_TYPE_AGENT_EDITOR, "command_row");
  type_into (name_row, "Shell");
  gtk_editable_set_text (GTK_EDITABLE (command_row), "nonexistent-x");
  g_assert_true (shows_label (GTK_WIDGET (agent_editor), LOOKING));
  g_assert_false (pal_agent_editor_get_can_save (agent_editor));
  type_command (agent_editor, command_row, "sh");
  g_assert_true (shows_label (GTK_WIDGET (agent_editor), found));
  g_assert_false (shows_label (GTK_WIDGET (agent_editor), not_found));
  g_assert_true (pal_agent_editor_get_can_save (agent_editor));

  /* closed (and gone) while it looks */
  gtk_editable_set_text (GTK_EDITABLE (command_row), TEST_PROGRAM);
  g_assert_true (shows_label (GTK_WIDGET (agent_editor), LOOKING));
  gtk_window_close (GTK_WINDOW (agent_editor));
  test_drain_main_context ();
  g_assert_null (find_toplevel (PAL_TYPE_AGENT_EDITOR));
}

static void
test_transport_names (Fixture       *fixture,
                      gconstpointer  data)
{
  PalMcpServerEditor *editor = pal_preferences_window_edit_server (fixture->window, NULL);
  AdwComboRow *transport_row = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR,
                                               "transport_row");
  const char *name = "Server-Sent Events (SSE)";
  GtkWidget *label = NULL;
  PangoLayout *layout;
  int full_width = 0;

  /* the transport chosen is shown whole where there is room, not cut at
   * twenty characters */
  adw_combo_row_set_selected (transport_row, ACP_MCP_TRANSPORT_SSE);
  WAIT_UNTIL ((label = find_label (GTK_WIDGET (transport_row), name)) != NULL &&
              gtk_widget_get_width (label) > 0);
  layout = gtk_widget_create_pango_layout (label, name);
  pango_layout_get_pixel_size (layout, &full_width, NULL);
  g_object_unref (layout);
  g_assert_cmpint (full_width, >, 0);
  g_assert_cmpint (gtk_widget_get_width (label), >=, full_width);
}

/* --- the server list --- */

static void
test_server_list (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkListBox *list = template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW,
                                     "server_list");
  g_autoptr(AdwToast) toast = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GVariant) stored = NULL;
  PalMcpServerConfig *middle;
  GtkWidget *toggle;
  GtkWidget *warning;
  gboolean enabled = TRUE;

  add_stdio_server (fixture, "one");
  add_stdio_server (fixture, "two");
  add_stdio_server (fixture, "three");
  test_drain_main_context ();

  rows = list_rows (list);
  g_assert_cmpuint (rows->len, ==, 3);
  g_clear_pointer (&rows, g_ptr_array_unref);

  /* icon buttons have names a screen reader can say */
  gtk_test_accessible_assert_property (find_descendant (GTK_WIDGET (fixture->window),
                                                        GTK_TYPE_MENU_BUTTON),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Import and Export");
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (find_row (list, "one")),
                                                         "document-edit-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Edit");
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (find_row (list, "one")),
                                                         "edit-copy-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Duplicate");
  gtk_test_accessible_assert_property (find_icon_button (GTK_WIDGET (find_row (list, "one")),
                                                         "user-trash-symbolic"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Remove");

  /* duplicate: right after the original, with a new name */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "prefs.duplicate-server", "s", "one");
  test_drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->servers)), ==, 4);
  g_assert_cmpstr (pal_mcp_server_config_get_name (server_at (fixture, 1)), ==, "one (copy)");
  g_assert_nonnull (find_row (list, "one (copy)"));

  /* remove the middle one; Undo puts it back where it was */
  middle = server_at (fixture, 2);
  g_assert_cmpstr (pal_mcp_server_config_get_name (middle), ==, "two");
  toast = pal_preferences_window_remove_server (fixture->window, middle);
  g_assert_nonnull (toast);
  test_drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->servers)), ==, 3);
  g_assert_null (find_row (list, "two"));
  g_assert_false (has_stored_server (fixture, "two"));
  g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "_Undo");

  gtk_widget_activate_action_variant (GTK_WIDGET (fixture->window),
                                      adw_toast_get_action_name (toast),
                                      adw_toast_get_action_target_value (toast));
  test_drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->servers)), ==, 4);
  g_assert_true (server_at (fixture, 2) == middle);
  g_assert_nonnull (find_row (list, "two"));
  g_assert_true (has_stored_server (fixture, "two"));

  /* a second Undo of the same toast does nothing */
  gtk_widget_activate_action_variant (GTK_WIDGET (fixture->window),
                                      adw_toast_get_action_name (toast),
                                      adw_toast_get_action_target_value (toast));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->servers)), ==, 4);

  /* the switch writes the store */
  toggle = find_descendant (GTK_WIDGET (find_row (list, "two")), GTK_TYPE_SWITCH);
  g_assert_nonnull (toggle);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (toggle)));
  gtk_switch_set_active (GTK_SWITCH (toggle), FALSE);
  test_drain_main_context ();
  g_assert_false (pal_mcp_server_config_get_enabled (middle));
  stored = stored_server (fixture, "two");
  g_assert_true (g_variant_lookup (stored, "enabled", "b", &enabled));
  g_assert_false (enabled);

  /* and the other way round */
  pal_mcp_server_config_set_enabled (middle, TRUE);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (toggle)));

  /* a server that went bad is flagged in the list */
  pal_mcp_server_config_set_command (middle, "palaver-no-such-program");
  test_drain_main_context ();
  warning = find_icon (GTK_WIDGET (find_row (list, "two")), "dialog-warning-symbolic");
  g_assert_nonnull (warning);
  g_assert_true (gtk_widget_get_visible (warning));
  g_assert_true (g_str_has_suffix (gtk_widget_get_tooltip_text (warning),
                                   "was not found in PATH"));
  gtk_test_accessible_assert_property (warning, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       gtk_widget_get_tooltip_text (warning));
  g_assert_false (gtk_widget_get_visible (find_icon (GTK_WIDGET (find_row (list, "one")),
                                                     "dialog-warning-symbolic")));
}

/* --- import --- */

static void
test_import (Fixture       *fixture,
             gconstpointer  data)
{
  PalMcpImportDialog *dialog;
  GtkWidget *import_button;
  g_autoptr(GError) error = NULL;
  g_autofree char *file_path = NULL;
  g_autoptr(GFile) file = NULL;
  PalMcpServerConfig *config;

  add_stdio_server (fixture, "github");

  dialog = pal_preferences_window_import (fixture->window);
  import_button = template_child (dialog, PAL_TYPE_MCP_IMPORT_DIALOG, "import_button");
  g_assert_false (gtk_widget_get_sensitive (import_button));

  /* not JSON: the reason is shown and Import stays off */
  pal_mcp_import_dialog_set_text (dialog, "{\"mcpServers\": {");
  g_assert_cmpuint (pal_mcp_import_dialog_get_n_found (dialog), ==, 0);
  g_assert_nonnull (pal_mcp_import_dialog_get_problem (dialog));
  g_assert_false (gtk_widget_get_sensitive (import_button));
  g_assert_cmpuint (pal_mcp_import_dialog_import (dialog, &error), ==, 0);
  g_assert_error (error, PAL_ERROR, PAL_ERROR_INVALID);
  g_clear_error (&error);

  /* a file is read without blocking and shown */
  file_path = g_build_filename (fixture->bin_dir, "servers.json", NULL);
  g_assert_true (g_file_set_contents (file_path,
                                      "{\"mcpServers\": {\"from-file\": {\"command\": \"x\"}}}",
                                      -1, &error));
  file = g_file_new_for_path (file_path);
  pal_mcp_import_dialog_load_file (dialog, file);
  g_assert_true (pal_mcp_import_dialog_get_loading (dialog));
  WAIT_UNTIL (!pal_mcp_import_dialog_get_loading (dialog));
  g_assert_cmpuint (pal_mcp_import_dialog_get_n_found (dialog), ==, 1);

  /* pasted JSON: a taken name is numbered */
  pal_mcp_import_dialog_set_text (dialog,
    "{\"mcpServers\": {"
    "  \"github\": {\"url\": \"https://api.example.com/mcp\","
    "              \"headers\": {\"Authorization\": \"Bearer abc\"}},"
    "  \"fetch\": {\"command\": \"" TEST_PROGRAM "\", \"args\": [\"normal\"],"
    "             \"env\": {\"API_KEY\": \"k\"}}}}");
  g_assert_cmpuint (pal_mcp_import_dialog_get_n_found (dialog), ==, 2);
  g_assert_true (gtk_widget_get_sensitive (import_button));
  g_assert_cmpuint (pal_mcp_import_dialog_import (dialog, &error), ==, 2);
  g_assert_no_error (error);
  test_drain_main_context ();

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->servers)), ==, 3);
  config = pal_mcp_server_store_lookup (fixture->servers, "github (2)");
  g_assert_nonnull (config);
  g_assert_cmpint (pal_mcp_server_config_get_transport (config), ==, ACP_MCP_TRANSPORT_HTTP);
  config = pal_mcp_server_store_lookup (fixture->servers, "fetch");
  g_assert_nonnull (config);
  g_assert_cmpstr (pal_mcp_server_config_get_args (config)[0], ==, "normal");
  g_assert_nonnull (find_row (template_child (fixture->window, PAL_TYPE_PREFERENCES_WINDOW,
                                              "server_list"), "github (2)"));
  g_assert_true (has_stored_server (fixture, "fetch"));
}

/* A server that cannot be read is named and left out, the others added;
 * one the list has already is not added again. */
static void
test_import_partial (Fixture       *fixture,
                     gconstpointer  data)
{
  PalMcpImportDialog *dialog;
  GtkLabel *status;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  add_stdio_server (fixture, "github");
  dialog = pal_preferences_window_import (fixture->window);
  status = template_child (dialog, PAL_TYPE_MCP_IMPORT_DIALOG, "status_label");

  /* the one there already, one broken, one new */
  json = g_strdup_printf ("{\"mcpServers\": {"
                          "  \"github\": {\"command\": \"%s\"},"
                          "  \"broken\": {\"command\": \"a\\ud800b\"},"
                          "  \"new\": {\"url\": \"https://new.test/mcp\"}}}",
                          fake_server ());
  pal_mcp_import_dialog_set_text (dialog, json);
  g_assert_cmpuint (pal_mcp_import_dialog_get_n_found (dialog), ==, 2);
  g_assert_cmpuint (pal_mcp_import_dialog_get_n_failed (dialog), ==, 1);
  g_assert_cmpstr (gtk_label_get_text (status), ==,
                   "2 servers found; 1 could not be read:\n"
                   "MCP server “broken”: “command” is not valid UTF-8 text");

  g_assert_cmpuint (pal_mcp_import_dialog_import (dialog, &error), ==, 1);
  g_assert_no_error (error);
  test_drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->servers)), ==, 2);
  g_assert_nonnull (pal_mcp_server_store_lookup (fixture->servers, "new"));
  g_assert_null (pal_mcp_server_store_lookup (fixture->servers, "github (2)"));
  g_assert_null (pal_mcp_server_store_lookup (fixture->servers, "broken"));
}

/* --- the connection test --- */

static gboolean
process_gone (GPid pid)
{
  return kill (pid, 0) != 0 && errno == ESRCH;
}

/* The pid the fake server wrote into @pid_file, 0 while it has not */
static GPid
written_pid (const char *pid_file)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (pid_file, &text, NULL, NULL) || *text == '\0')
    return 0;

  return (GPid) g_ascii_strtoll (text, NULL, 10);
}

static void
test_connection (Fixture       *fixture,
                 gconstpointer  data)
{
  PalMcpServerEditor *editor = pal_preferences_window_edit_server (fixture->window, NULL);
  AdwEntryRow *name_row = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR, "name_row");
  AdwEntryRow *command_row = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR, "command_row");
  PalArgsGroup *args_group = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR, "args_group");
  GtkWidget *test_group = template_child (editor, PAL_TYPE_MCP_SERVER_EDITOR, "test_group");
  AdwEntryRow *mode;
  PalMcpProbeResult *result;
  const GError *test_error;
  g_autofree char *pid_file = g_build_filename (fixture->bin_dir, "server.pid", NULL);
  GPid pid;

  type_into (name_row, "fake");
  type_command (editor, command_row, TEST_PROGRAM);
  mode = pal_args_group_add (args_group, "normal");
  g_assert_true (pal_mcp_server_editor_get_can_save (editor));

  pal_mcp_server_editor_test_connection (editor);
  g_assert_true (pal_mcp_server_editor_get_testing (editor));
  g_assert_true (gtk_widget_get_visible (template_child (test_group, PAL_TYPE_MCP_TEST_GROUP,
                                                         "spinner")));
  WAIT_UNTIL (!pal_mcp_server_editor_get_testing (editor));

  result = pal_mcp_server_editor_get_test_result (editor);
  g_assert_nonnull (result);
  g_assert_cmpuint (pal_mcp_probe_result_get_n_tools (result), ==, 2);
  g_assert_true (shows_label (test_group, "Connected to fake-mcp-server 1.2.3"));
  g_assert_true (shows_label (test_group, "Protocol 2025-06-18 · 2 tools"));
  g_assert_true (shows_label (test_group, "alpha"));
  g_assert_true (shows_label (test_group, "The first tool"));
  g_assert_true (shows_label (test_group, "beta"));

  /* a new name says nothing about the connection: the outcome stays */
  type_into (name_row, "fake2");
  g_assert_true (pal_mcp_server_editor_get_test_result (editor) == result);
  g_assert_true (shows_label (test_group, "alpha"));

  /* other arguments make it stale: it goes */
  pal_args_group_add (args_group, "--extra");
  test_drain_main_context ();
  g_assert_null (pal_mcp_server_editor_get_test_result (editor));
  g_assert_false (shows_label (test_group, "alpha"));
  g_assert_false (shows_label (test_group, "Connected to fake-mcp-server 1.2.3"));
  pal_args_group_remove (args_group, 1);
  test_drain_main_context ();

  /* a server that dies: the precise error */
  type_into (mode, "exit-early");
  pal_mcp_server_editor_test_connection (editor);
  WAIT_UNTIL (!pal_mcp_server_editor_get_testing (editor));
  test_error = pal_mcp_server_editor_get_test_error (editor);
  g_assert_nonnull (test_error);
  g_assert_false (g_error_matches (test_error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_assert_null (pal_mcp_server_editor_get_test_result (editor));
  g_assert_false (shows_label (test_group, "alpha"));
  g_assert_true (shows_label (test_group, "The connection test failed"));
  g_assert_true (shows_label (test_group, test_error->message));

  /* changing how the server is reached cancels the test running */
  type_into (mode, "hang");
  pal_mcp_server_editor_test_connection (editor);
  g_assert_true (pal_mcp_server_editor_get_testing (editor));
  type_into (mode, "normal");
  g_assert_false (pal_mcp_server_editor_get_testing (editor));
  g_assert_null (pal_mcp_server_editor_get_test_result (editor));
  g_assert_null (pal_mcp_server_editor_get_test_error (editor));
  g_assert_false (shows_label (test_group, "The connection test failed"));

  /* closing the dialog cancels a test that hangs, and stops the server */
  g_setenv ("FAKE_MCP_PID_FILE", pid_file, TRUE);
  type_into (mode, "hang");
  pal_mcp_server_editor_test_connection (editor);
  g_unsetenv ("FAKE_MCP_PID_FILE");
  POLL_UNTIL ((pid = written_pid (pid_file)) != 0);
  g_assert_cmpint (pid, >, 0);
  g_assert_true (pal_mcp_server_editor_get_testing (editor));

  g_object_ref (editor);
  gtk_window_close (GTK_WINDOW (editor));
  g_assert_false (pal_mcp_server_editor_get_testing (editor));
  POLL_UNTIL (process_gone (pid));
  g_assert_null (pal_mcp_server_editor_get_test_error (editor));
  g_object_unref (editor);
}

/* --- the application's action --- */

static PalPreferencesWindow *
find_preferences (GtkApplication *app,
                  guint          *n_found)
{
  PalPreferencesWindow *found = NULL;

  *n_found = 0;
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (PAL_IS_PREFERENCES_WINDOW (l->data))
      {
        found = l->data;
        (*n_found)++;
      }

  return found;
}

static void
test_application_action (void)
{
  g_autoptr(PalApplication) app = pal_application_new ();
  g_auto(GStrv) accels = NULL;
  g_autoptr(GError) error = NULL;
  PalPreferencesWindow *window;
  guint n_found;

  /* other tests may run an instance of their own at the same time */
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) |
                           G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.preferences");
  g_assert_cmpstr (accels[0], ==, "<Control>comma");

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  test_drain_main_context ();
  window = find_preferences (GTK_APPLICATION (app), &n_found);
  g_assert_nonnull (window);
  g_assert_true (pal_preferences_window_get_agent_store (window) ==
                 pal_application_get_agent_store (app));
  g_assert_true (pal_preferences_window_get_mcp_server_store (window) ==
                 pal_application_get_mcp_server_store (app));

  /* one window, shown again */
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  test_drain_main_context ();
  g_assert_true (find_preferences (GTK_APPLICATION (app), &n_found) == window);
  g_assert_cmpuint (n_found, ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  test_drain_main_context ();
}

int
main (int   argc,
      char *argv[])
{
  /* accessible names are checked: the test backend records them, with no bus */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/preferences/application-action", test_application_action);
  g_test_add ("/preferences/agents/page", Fixture, NULL,
              fixture_set_up, test_agents_page, fixture_tear_down);
  g_test_add ("/preferences/agents/editor/empty", Fixture, NULL,
              fixture_set_up, test_agent_editor_empty, fixture_tear_down);
  g_test_add ("/preferences/agents/editor/command-lookup", Fixture, NULL,
              fixture_set_up, test_agent_editor_command_lookup, fixture_tear_down);
  g_test_add ("/preferences/agents/editor/env", Fixture, NULL,
              fixture_set_up, test_agent_editor_env, fixture_tear_down);
  g_test_add ("/preferences/agents/editor/env-paste", Fixture, NULL,
              fixture_set_up, test_agent_editor_env_paste, fixture_tear_down);
  g_test_add ("/preferences/editors/not-red-while-typing", Fixture, NULL,
              fixture_set_up, test_editors_not_red_while_typing, fixture_tear_down);
  g_test_add ("/preferences/agents/editor/save", Fixture, NULL,
              fixture_set_up, test_agent_editor_save, fixture_tear_down);
  g_test_add ("/preferences/agents/remove", Fixture, NULL,
              fixture_set_up, test_agent_remove, fixture_tear_down);
  g_test_add ("/preferences/agents/editor-keyring", Fixture, NULL,
              fixture_set_up, test_agent_editor_keyring, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/empty-name", Fixture, NULL,
              fixture_set_up, test_server_editor_empty_name, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/taken-name", Fixture, NULL,
              fixture_set_up, test_server_editor_taken_name, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/no-command", Fixture, NULL,
              fixture_set_up, test_server_editor_no_command, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/command-not-found", Fixture, NULL,
              fixture_set_up, test_server_editor_command_not_found, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/relative-command", Fixture, NULL,
              fixture_set_up, test_server_editor_relative_command, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/command-found", Fixture, NULL,
              fixture_set_up, test_server_editor_command_found, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/arguments", Fixture, NULL,
              fixture_set_up, test_server_editor_arguments, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/env-name", Fixture, NULL,
              fixture_set_up, test_server_editor_env_name, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/env-secret-name", Fixture, NULL,
              fixture_set_up, test_server_editor_env_secret_name, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/env-reveal", Fixture, NULL,
              fixture_set_up, test_server_editor_env_reveal, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/http-url", Fixture, NULL,
              fixture_set_up, test_server_editor_http_url, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/header-name", Fixture, NULL,
              fixture_set_up, test_server_editor_header_name, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/header-secret-choice", Fixture, NULL,
              fixture_set_up, test_server_editor_header_secret_choice, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/transport-back", Fixture, NULL,
              fixture_set_up, test_server_editor_transport_back, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/save", Fixture, NULL,
              fixture_set_up, test_server_editor_save, fixture_tear_down);
  g_test_add ("/preferences/servers/editor/edit", Fixture, NULL,
              fixture_set_up, test_server_editor_edit, fixture_tear_down);
  g_test_add ("/preferences/editors/lookup", Fixture, NULL,
              fixture_set_up, test_editor_lookup, fixture_tear_down);
  g_test_add ("/preferences/servers/transport-names", Fixture, NULL,
              fixture_set_up, test_transport_names, fixture_tear_down);
  g_test_add ("/preferences/servers/list", Fixture, NULL,
              fixture_set_up, test_server_list, fixture_tear_down);
  g_test_add ("/preferences/servers/import", Fixture, NULL,
              fixture_set_up, test_import, fixture_tear_down);
  g_test_add ("/preferences/servers/import-partial", Fixture, NULL,
              fixture_set_up, test_import_partial, fixture_tear_down);
  g_test_add ("/preferences/servers/connection-test", Fixture, NULL,
              fixture_set_up, test_connection, fixture_tear_down);

  return g_test_run ();
}
