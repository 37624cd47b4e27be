/* test-sidebar.c: sessions grouped by folder, searched, with live state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "find-descendant.h"
#include "test-util.h"
#include "pal-agent-store.h"
#include "pal-live-session-private.h"
#include "pal-sidebar.h"
#include "pal-tooltip.h"

/* A key freed at the end of the test. */
static PalSessionKey *
key_of (const char *agent_id,
        const char *session_id)
{
  PalSessionKey *key = pal_session_key_new (agent_id, session_id);

  g_test_queue_destroy ((GDestroyNotify) pal_session_key_unref, key);
  return key;
}

#define DEMO(id) key_of ("demo", id)

/* A session made live in @live_sessions, in @state, as the session
 * manager would. (transfer none) */
static PalLiveSession *
add_live (GListStore      *live_sessions,
          PalSessionKey   *key,
          PalSessionState  state)
{
  PalLiveSession *live = _pal_live_session_new (key, NULL);

  _pal_live_session_set_state (live, state);
  g_list_store_append (live_sessions, live);
  /* the list keeps it */
  g_object_unref (live);
  return live;
}

/* the session activated last, as "agent/id" */
static void
activated_cb (PalSidebar     *sidebar,
              PalSessionKey  *key,
              char          **out)
{
  g_free (*out);
  *out = g_strdup_printf ("%s/%s", pal_session_key_get_agent_id (key),
                          pal_session_key_get_session_id (key));
}

static void
add_record_of (PalSessionStore *store,
               const char      *agent_id,
               const char      *id,
               const char      *cwd,
               const char      *title,
               gint64           updated)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new (id, agent_id, cwd);

  pal_session_record_set_title (record, title);
  pal_session_record_set_updated (record, updated);
  pal_session_record_set_created (record, updated);
  pal_session_store_add (store, record);
}

static void
add_record (PalSessionStore *store,
            const char      *id,
            const char      *cwd,
            const char      *title,
            gint64           updated)
{
  add_record_of (store, "demo", id, cwd, title, updated);
}

/* The label showing exactly @text */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
test_sidebar (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(GListStore) live_sessions = g_list_store_new (PAL_TYPE_LIVE_SESSION);
  g_autofree char *activated = NULL;
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  gint64 now = g_get_real_time ();
  PalLiveSession *live;
  PalSessionRow *row;
  GtkListView *list;

  g_settings_reset (settings, "sessions");
  store = pal_session_store_new (settings);
  add_record (store, "s1", "/home/p/alpha", "Fix the parser", now - (gint64) 3600 * G_USEC_PER_SEC);
  add_record (store, "s2", "/home/p/beta", "Write docs", now - (gint64) 60 * G_USEC_PER_SEC);
  add_record (store, "s3", "/home/p/alpha", "Refactor", now);

  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  add_live (live_sessions, DEMO ("s3"), PAL_SESSION_STATE_WORKING);
  pal_sidebar_set_live_sessions (sidebar, G_LIST_MODEL (live_sessions));
  g_signal_connect (sidebar, "session-activated", G_CALLBACK (activated_cb), &activated);

  gtk_window_set_default_size (GTK_WINDOW (window), 320, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 3);
  row = pal_sidebar_get_row (sidebar, DEMO ("s3"));
  g_assert_nonnull (row);
  g_assert_cmpint (pal_session_row_get_state (row), ==, PAL_SESSION_STATE_WORKING);
  g_assert_cmpint (pal_session_row_get_state (pal_sidebar_get_row (sidebar, DEMO ("s1"))), ==,
                   PAL_SESSION_STATE_NOT_RUNNING);

  /* a session that becomes live: its row follows it */
  live = add_live (live_sessions, DEMO ("s1"), PAL_SESSION_STATE_WAITING_PERMISSION);
  row = pal_sidebar_get_row (sidebar, DEMO ("s1"));
  g_assert_true (pal_session_row_get_live_session (row) == live);
  g_assert_cmpint (pal_session_row_get_state (row), ==, PAL_SESSION_STATE_WAITING_PERMISSION);

  /* search by title, by folder; no match shows the empty page */
  pal_sidebar_set_search_text (sidebar, "DOCS");
  test_wait_frames (window, 5);
  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 1);
  pal_sidebar_set_search_text (sidebar, "alpha");
  test_wait_frames (window, 5);
  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 2);
  pal_sidebar_set_search_text (sidebar, "nothing like this");
  test_wait_frames (window, 5);
  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 0);
  pal_sidebar_set_search_text (sidebar, "");
  test_wait_frames (window, 5);
  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 3);

  /* a folder's header is no choice: its row of the list does not light
   * up when the list's focus starts on it (style.css), a session's does */
  {
    GtkWidget *header = find_label (GTK_WIDGET (sidebar), "alpha");
    GtkWidget *session_row = GTK_WIDGET (pal_sidebar_get_row (sidebar, DEMO ("s3")));

    g_assert_nonnull (header);
    g_assert_true (gtk_widget_has_css_class (gtk_widget_get_parent (gtk_widget_get_parent (header)),
                                             "folder-row"));
    g_assert_false (gtk_widget_has_css_class (gtk_widget_get_parent (gtk_widget_get_parent (session_row)),
                                              "folder-row"));
  }

  /* activating a list position of a session emits its id; folders do nothing */
  list = GTK_LIST_VIEW (find_descendant (GTK_WIDGET (sidebar), GTK_TYPE_LIST_VIEW));
  g_assert_nonnull (list);
  /* [alpha] s3 s1 [beta] s2 */
  g_signal_emit_by_name (list, "activate", 0);
  g_assert_null (activated);
  g_signal_emit_by_name (list, "activate", 1);
  g_assert_cmpstr (activated, ==, "demo/s3");
  g_signal_emit_by_name (list, "activate", 4);
  g_assert_cmpstr (activated, ==, "demo/s2");

  /* a click on a row opens its session; one on its menu button does not
   * (the list view, which would take it for a click on the row, does not
   * activate rows on a single click) */
  {
    GtkWidget *menu_button;
    GtkPopover *popover;
    GtkGesture *click = NULL;
    g_autoptr(GListModel) controllers = NULL;
    graphene_point_t centre;

    row = pal_sidebar_get_row (sidebar, DEMO ("s1"));
    menu_button = find_descendant (GTK_WIDGET (row), GTK_TYPE_MENU_BUTTON);
    g_assert_nonnull (menu_button);
    controllers = gtk_widget_observe_controllers (GTK_WIDGET (row));
    for (guint i = 0; i < g_list_model_get_n_items (controllers) && click == NULL; i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (GTK_IS_GESTURE_CLICK (controller))
          click = GTK_GESTURE (controller);
      }
    g_assert_nonnull (click);

    g_clear_pointer (&activated, g_free);
    g_assert_true (gtk_widget_compute_point (menu_button, GTK_WIDGET (row),
                                             &GRAPHENE_POINT_INIT (gtk_widget_get_width (menu_button) / 2.f,
                                                                   gtk_widget_get_height (menu_button) / 2.f),
                                             &centre));
    g_signal_emit_by_name (click, "released", 1, (double) centre.x, (double) centre.y);
    g_assert_null (activated);
    g_signal_emit_by_name (click, "released", 1, 10.0, gtk_widget_get_height (GTK_WIDGET (row)) / 2.0);
    g_assert_cmpstr (activated, ==, "demo/s1");
    g_assert_false (gtk_list_view_get_single_click_activate (list));

    /* no tooltip over the menu while it is open (asked at once: with
     * the main loop run, another program's window on the same display
     * may take the focus, and the menu closes) */
    g_assert_true (gtk_widget_get_has_tooltip (menu_button));
    g_assert_true (pal_session_row_popup_menu (row));
    /* the menu is made when first opened */
    popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button));
    g_assert_nonnull (popover);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
    g_assert_false (gtk_widget_get_has_tooltip (menu_button));
    gtk_popover_popdown (popover);
    g_assert_true (gtk_widget_get_has_tooltip (menu_button));
    test_wait_frames (window, 5);
    g_assert_true (gtk_widget_get_has_tooltip (menu_button));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
record_action_cb (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  GPtrArray *calls = user_data;

  const char *agent_id, *session_id;

  g_variant_get (parameter, "(&s&s)", &agent_id, &session_id);
  g_ptr_array_add (calls, g_strdup_printf ("%s %s/%s", g_action_get_name (G_ACTION (action)),
                                           agent_id, session_id));
}

static void
test_keyboard (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  const GActionEntry entries[] = {
    { "rename-session", record_action_cb, "(ss)" },
    { "forget-session", record_action_cb, "(ss)" },
  };
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  GtkWidget *list = NULL;
  gboolean handled = FALSE;

  g_settings_reset (settings, "sessions");
  store = pal_session_store_new (settings);
  add_record (store, "k1", "/home/p/gamma", "Keyboard", g_get_real_time ());

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), calls);
  gtk_widget_insert_action_group (window, "win", G_ACTION_GROUP (group));
  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  pal_sidebar_select (sidebar, DEMO ("k1"));
  for (GtkWidget *w = GTK_WIDGET (sidebar); w != NULL && list == NULL;)
    {
      g_autoptr(GPtrArray) stack = g_ptr_array_new ();

      g_ptr_array_add (stack, w);
      w = NULL;
      while (stack->len > 0 && list == NULL)
        {
          GtkWidget *x = g_ptr_array_steal_index (stack, 0);

          if (GTK_IS_LIST_VIEW (x))
            list = x;
          for (GtkWidget *c = gtk_widget_get_first_child (x); c; c = gtk_widget_get_next_sibling (c))
            g_ptr_array_add (stack, c);
        }
    }
  g_assert_nonnull (list);

  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (list);

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (!GTK_IS_EVENT_CONTROLLER_KEY (controller))
          continue;
        g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_F2, 0, 0, &handled);
        g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_Delete, 0, 0, &handled);
        g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_a, 0, 0, &handled);
        g_assert_false (handled);
      }
  }

  g_assert_cmpuint (calls->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (calls, 0), ==, "rename-session demo/k1");
  g_assert_cmpstr (g_ptr_array_index (calls, 1), ==, "forget-session demo/k1");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether a label in @widget starts with @text */
static gboolean
has_text (GtkWidget  *widget,
          const char *text)
{
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), text))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (has_text (child, text))
      return TRUE;

  return FALSE;
}

static void
test_agent_names (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(PalAgentStore) agents = NULL;
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("s1", "later", "/home/p/alpha");
  g_autoptr(PalAgentProfile) profile = NULL;
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(GError) error = NULL;
  const char * const args[] = { NULL };
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  GtkWidget *row;

  g_settings_reset (settings, "sessions");
  g_settings_reset (settings, "agents");
  store = pal_session_store_new (settings);
  agents = pal_agent_store_new (settings);
  pal_session_store_add (store, record);

  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, agents));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 500);
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  /* a profile not (yet) known shows by its id */
  row = GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("later", "s1")));
  g_assert_nonnull (row);
  g_assert_true (has_text (row, "later"));

  /* it turns up (as agents found on PATH do, after the list is shown) */
  profile = pal_agent_profile_new ("later", "Later Agent", "/bin/true", args);
  g_assert_true (pal_agent_store_add (agents, profile, &error));
  g_assert_no_error (error);
  test_wait_frames (window, 5);
  row = GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("later", "s1")));
  g_assert_true (has_text (row, "Later Agent"));

  /* a search by an agent name finds nothing yet... */
  pal_sidebar_set_search_text (sidebar, "renamed agent");
  test_wait_frames (window, 5);
  g_assert_null (pal_sidebar_get_row (sidebar, key_of ("later", "s1")));

  /* ...until the profile is renamed in Preferences */
  edited = pal_agent_profile_copy (pal_agent_store_lookup (agents, "later"));
  pal_agent_profile_set_name (edited, "Renamed Agent");
  g_assert_true (pal_agent_store_update (agents, edited, &error));
  g_assert_no_error (error);
  test_wait_frames (window, 5);
  row = GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("later", "s1")));
  g_assert_nonnull (row);
  g_assert_true (has_text (row, "Renamed Agent"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "agents");
}

/* The label in @widget that starts with @text, or NULL */
/* The icon of a session's state in its row */
static GtkWidget *
find_state_icon (GtkWidget *widget)
{
  if (GTK_IS_IMAGE (widget) && gtk_widget_has_css_class (widget, "state-icon"))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_state_icon (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The subtitle of a session's row */
static GtkWidget *
find_subtitle (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "caption"))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_subtitle (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_icon (GtkWidget  *widget,
           const char *icon_name)
{
  if (GTK_IS_IMAGE (widget) && g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (widget)), icon_name) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_icon (child, icon_name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* A session with additional folders says how many; its tooltip names them */
static void
test_additional_folders (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("s1", "demo", "/home/p/alpha");
  const char *folders[] = { "/srv/lib", "/srv/docs", NULL };
  const char *one[] = { "/srv/lib", NULL };
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  GtkWidget *label;

  g_settings_reset (settings, "sessions");
  store = pal_session_store_new (settings);
  pal_session_record_set_additional_directories (record, folders);
  pal_session_store_add (store, record);

  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 500);
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  label = find_subtitle (GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("demo", "s1"))));
  g_assert_nonnull (label);
  g_assert_true (g_str_has_suffix (gtk_label_get_text (GTK_LABEL (label)), "+2 folders"));
  g_assert_cmpstr (pal_widget_get_quiet_tooltip (label), ==,
                   "Project folder: /home/p/alpha\nAdditional folders: /srv/lib, /srv/docs");

  /* a change of the record shows at once */
  pal_session_record_set_additional_directories (record, one);
  test_wait_frames (window, 5);
  label = find_subtitle (GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("demo", "s1"))));
  g_assert_nonnull (label);
  g_assert_true (g_str_has_suffix (gtk_label_get_text (GTK_LABEL (label)), "+1 folder"));
  g_assert_cmpstr (pal_widget_get_quiet_tooltip (label), ==,
                   "Project folder: /home/p/alpha\nAdditional folders: /srv/lib");

  /* none: the agent alone (the folder is the group's header) */
  pal_session_record_set_additional_directories (record, NULL);
  test_wait_frames (window, 5);
  label = find_subtitle (GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("demo", "s1"))));
  g_assert_nonnull (label);
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (label)), "folder"));
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (label)), "alpha"));
  g_assert_nonnull (label);
  g_assert_cmpstr (pal_widget_get_quiet_tooltip (label), ==, "/home/p/alpha");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The folder is the group's header: a row says agent and time, whole even
 * in a narrow sidebar, and marks a pinned session. */
static void
test_row_subtitle (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(PalAgentStore) agents = NULL;
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("s1", "demo",
                                                              "/home/p/a-project-folder-with-a-long-name");
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  GtkWidget *row;
  GtkWidget *label;
  GtkWidget *pin;

  g_settings_reset (settings, "sessions");
  store = pal_session_store_new (settings);
  pal_session_record_set_title (record, "Fix the parser");
  pal_session_record_set_updated (record, g_get_real_time () - 5 * 60 * G_USEC_PER_SEC);
  pal_session_store_add (store, record);
  agents = pal_agent_store_new (settings);

  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, agents));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  /* as wide as the sidebar starts */
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 500);
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  row = GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("demo", "s1")));
  label = find_subtitle (row);
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Demo Agent · 5 min ago");
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));

  pin = find_icon (row, "view-pin-symbolic");
  g_assert_nonnull (pin);
  g_assert_false (gtk_widget_get_visible (pin));
  pal_session_record_set_pinned (record, TRUE);
  test_wait_frames (window, 5);
  row = GTK_WIDGET (pal_sidebar_get_row (sidebar, key_of ("demo", "s1")));
  pin = find_icon (row, "view-pin-symbolic");
  g_assert_true (gtk_widget_get_visible (pin));
  g_assert_cmpstr (pal_widget_get_quiet_tooltip (pin), ==, "Pinned");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A row is bound to its session's live session: the spinner and the state
 * icon follow the state the live session tells, with nobody telling the
 * sidebar; when the session is live no more, the row is not running. */
static void
test_row_follows_live_session (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(GListStore) live_sessions = g_list_store_new (PAL_TYPE_LIVE_SESSION);
  g_autoptr(PalLiveSession) live = NULL;
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  PalSessionRow *row;
  GtkWidget *spinner, *icon;

  g_settings_reset (settings, "sessions");
  store = pal_session_store_new (settings);
  add_record (store, "s1", "/home/p/alpha", "Fix the parser", g_get_real_time ());

  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  live = g_object_ref (add_live (live_sessions, DEMO ("s1"), PAL_SESSION_STATE_READY));
  pal_sidebar_set_live_sessions (sidebar, G_LIST_MODEL (live_sessions));
  gtk_window_set_default_size (GTK_WINDOW (window), 320, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  row = pal_sidebar_get_row (sidebar, DEMO ("s1"));
  g_assert_nonnull (row);
  spinner = find_descendant (GTK_WIDGET (row), GTK_TYPE_SPINNER);
  icon = find_state_icon (GTK_WIDGET (row));
  g_assert_nonnull (spinner);
  g_assert_nonnull (icon);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_true (gtk_widget_get_visible (icon));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "ready"));

  /* a turn starts: the spinner turns */
  _pal_live_session_set_state (live, PAL_SESSION_STATE_WORKING);
  g_assert_true (gtk_widget_get_visible (spinner));
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  g_assert_false (gtk_widget_get_visible (icon));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (row), "ready"));
  g_assert_cmpstr (pal_widget_get_quiet_tooltip (spinner), ==, "Working");

  /* the agent asks the person */
  _pal_live_session_set_state (live, PAL_SESSION_STATE_WAITING_PERMISSION);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_true (gtk_widget_get_visible (icon));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (icon)), ==, "dialog-question-symbolic");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "waiting"));

  _pal_live_session_set_state (live, PAL_SESSION_STATE_STOPPING);
  g_assert_true (gtk_widget_get_visible (spinner));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (row), "waiting"));

  /* live no more: not running, and what the old object says is not heard */
  g_list_store_remove (live_sessions, 0);
  g_assert_null (pal_session_row_get_live_session (row));
  g_assert_cmpint (pal_session_row_get_state (row), ==, PAL_SESSION_STATE_NOT_RUNNING);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_false (gtk_widget_get_visible (icon));
  _pal_live_session_set_state (live, PAL_SESSION_STATE_FAILED);
  g_assert_cmpint (pal_session_row_get_state (row), ==, PAL_SESSION_STATE_NOT_RUNNING);
  g_assert_false (gtk_widget_get_visible (icon));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Two agents' sessions of the same id are two rows: each with its own
 * state, activated, selected and removed on its own. */
static void
test_same_id_two_agents (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(GListStore) live_sessions = g_list_store_new (PAL_TYPE_LIVE_SESSION);
  g_autofree char *activated = NULL;
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  PalSessionRow *demo_row, *other_row;
  PalLiveSession *demo_live;
  GtkListView *list;
  gint64 now = g_get_real_time ();

  g_settings_reset (settings, "sessions");
  store = pal_session_store_new (settings);
  add_record_of (store, "demo", "dup", "/home/p/alpha", "The demo’s", now - G_USEC_PER_SEC);
  add_record_of (store, "other", "dup", "/home/p/alpha", "The other’s", now);

  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  add_live (live_sessions, key_of ("other", "dup"), PAL_SESSION_STATE_WORKING);
  demo_live = add_live (live_sessions, key_of ("demo", "dup"), PAL_SESSION_STATE_READY);
  pal_sidebar_set_live_sessions (sidebar, G_LIST_MODEL (live_sessions));
  g_signal_connect (sidebar, "session-activated", G_CALLBACK (activated_cb), &activated);
  gtk_window_set_default_size (GTK_WINDOW (window), 320, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 2);
  demo_row = pal_sidebar_get_row (sidebar, key_of ("demo", "dup"));
  other_row = pal_sidebar_get_row (sidebar, key_of ("other", "dup"));
  g_assert_nonnull (demo_row);
  g_assert_nonnull (other_row);
  g_assert_true (demo_row != other_row);
  g_assert_cmpstr (pal_session_record_get_title (pal_session_row_get_record (demo_row)), ==, "The demo’s");
  g_assert_cmpstr (pal_session_record_get_title (pal_session_row_get_record (other_row)), ==, "The other’s");
  g_assert_cmpint (pal_session_row_get_state (other_row), ==, PAL_SESSION_STATE_WORKING);
  g_assert_cmpint (pal_session_row_get_state (demo_row), ==, PAL_SESSION_STATE_READY);

  /* a state change of one reaches that row alone */
  _pal_live_session_set_state (demo_live, PAL_SESSION_STATE_FAILED);
  g_assert_cmpint (pal_session_row_get_state (demo_row), ==, PAL_SESSION_STATE_FAILED);
  g_assert_cmpint (pal_session_row_get_state (other_row), ==, PAL_SESSION_STATE_WORKING);

  /* [alpha] other demo: each activates its own */
  list = GTK_LIST_VIEW (find_descendant (GTK_WIDGET (sidebar), GTK_TYPE_LIST_VIEW));
  g_signal_emit_by_name (list, "activate", 1);
  g_assert_cmpstr (activated, ==, "other/dup");
  g_signal_emit_by_name (list, "activate", 2);
  g_assert_cmpstr (activated, ==, "demo/dup");

  pal_sidebar_select (sidebar, key_of ("demo", "dup"));
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (list))),
                    ==, 2);
  pal_sidebar_select (sidebar, key_of ("other", "dup"));
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (list))),
                    ==, 1);

  /* removing one leaves the other's row */
  g_assert_true (pal_session_store_remove (store, key_of ("other", "dup")));
  test_wait_frames (window, 5);
  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 1);
  g_assert_null (pal_sidebar_get_row (sidebar, key_of ("other", "dup")));
  g_assert_nonnull (pal_sidebar_get_row (sidebar, key_of ("demo", "dup")));

  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "hidden-sessions");
}

/* the can-func of test_fork_item: "demo" forks, "other" does not say,
 * "busy" cannot now and says why */
static gboolean
fork_can_func (PalSessionKey  *key,
               const char     *action,
               char          **reason,
               gpointer        user_data)
{
  const char *agent_id = pal_session_key_get_agent_id (key);

  if (!g_str_equal (action, "win.fork-session"))
    return TRUE;
  if (g_str_equal (agent_id, "busy"))
    *reason = g_strdup ("Not now");
  return g_str_equal (agent_id, "demo");
}

static GtkWidget *
fork_item (PalSessionRow *row)
{
  GtkWidget *menu_button = find_descendant (GTK_WIDGET (row), GTK_TYPE_MENU_BUTTON);
  GtkWidget *box;

  g_assert_true (pal_session_row_popup_menu (row));
  box = gtk_popover_get_child (gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button)));
  for (GtkWidget *child = gtk_widget_get_first_child (box); child; child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (child), "action"), "win.fork-session") == 0)
      {
        gtk_popover_popdown (gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button)));
        return child;
      }

  g_assert_not_reached ();
}

/* Fork is in a session's menu only where the can-func offers it: absent
 * (not greyed out) when it says no without a reason. */
static void
test_fork_item (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = NULL;
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar;
  g_autoptr(GVariant) target = g_variant_ref_sink (g_variant_new ("(ss)", "demo", "s"));
  GtkWidget *item;
  gint64 now = g_get_real_time ();

  g_settings_reset (settings, "sessions");
  store = pal_session_store_new (settings);
  add_record_of (store, "demo", "s", "/home/p/alpha", "Forks", now);
  add_record_of (store, "other", "s", "/home/p/alpha", "Does not", now - 1);
  add_record_of (store, "busy", "s", "/home/p/alpha", "Not now", now - 2);

  sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  pal_sidebar_set_can_func (sidebar, fork_can_func, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 320, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_present (GTK_WINDOW (window));
  test_wait_frames (window, 5);

  item = fork_item (pal_sidebar_get_row (sidebar, key_of ("demo", "s")));
  g_assert_true (gtk_widget_get_visible (item));
  g_assert_true (gtk_widget_get_sensitive (item));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (item)), ==, "win.fork-session");
  g_assert_true (g_variant_equal (gtk_actionable_get_action_target_value (GTK_ACTIONABLE (item)),
                                  target));

  item = fork_item (pal_sidebar_get_row (sidebar, key_of ("other", "s")));
  g_assert_false (gtk_widget_get_visible (item));

  item = fork_item (pal_sidebar_get_row (sidebar, key_of ("busy", "s")));
  g_assert_true (gtk_widget_get_visible (item));
  g_assert_false (gtk_widget_get_sensitive (item));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (item), ==, "Not now");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* @n sessions of one folder written to the settings, newest first: m000 … */
static PalSessionStore *
new_long_store (GSettings *settings,
                guint      n)
{
  gint64 now = g_get_real_time ();
  GVariantBuilder list;

  g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%03u", i);
      GVariantDict entry;

      g_variant_dict_init (&entry, NULL);
      g_variant_dict_insert (&entry, "id", "s", id);
      g_variant_dict_insert (&entry, "agent", "s", "demo");
      g_variant_dict_insert (&entry, "cwd", "s", "/home/p/many");
      g_variant_dict_insert (&entry, "title", "s", id);
      g_variant_dict_insert (&entry, "updated", "x", now - (gint64) i * G_USEC_PER_SEC);
      g_variant_builder_add_value (&list, g_variant_dict_end (&entry));
    }
  g_settings_set_value (settings, "sessions", g_variant_builder_end (&list));

  return pal_session_store_new (settings);
}

static GListModel *
list_model (PalSidebar *sidebar)
{
  GtkWidget *list = find_descendant (GTK_WIDGET (sidebar), GTK_TYPE_LIST_VIEW);

  g_assert_nonnull (list);
  return G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)));
}

static gboolean
all_let_in (gpointer data)
{
  /* 300 sessions and their folder */
  return g_list_model_get_n_items (list_model (data)) == 301;
}

/* GTK's list view builds up to 200 rows as soon as it has the items: a long
 * list shows its first items in the first frame, and the others from the
 * next frames on. */
static void
test_long_list (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = new_long_store (settings, 300);
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  guint first, bound = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 320, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_present (GTK_WINDOW (window));

  /* before the first frame: a tall screen's worth, not 200 rows */
  first = g_list_model_get_n_items (list_model (sidebar));
  g_assert_cmpuint (first, >, 20);
  g_assert_cmpuint (first, <, 100);
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%03u", i);

      if (pal_sidebar_get_row (sidebar, DEMO (id)) != NULL)
        bound++;
    }
  g_assert_cmpuint (bound, <=, first);
  g_assert_cmpuint (pal_sidebar_get_n_shown (sidebar), ==, 300);

  /* then every one, frame by frame */
  WAIT_UNTIL (all_let_in (sidebar));
  g_assert_nonnull (pal_sidebar_get_row (sidebar, DEMO ("m150")));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A session not in the list view yet is selected all the same. */
static void
test_select_in_long_list (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(PalSessionStore) store = new_long_store (settings, 300);
  GtkWidget *window = gtk_window_new ();
  PalSidebar *sidebar = PAL_SIDEBAR (pal_sidebar_new (store, NULL));
  GtkSingleSelection *selection;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (sidebar));
  gtk_window_present (GTK_WINDOW (window));

  pal_sidebar_select (sidebar, DEMO ("m299"));
  selection = GTK_SINGLE_SELECTION (list_model (sidebar));
  g_assert_true (all_let_in (sidebar));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 300);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_relative_time (void)
{
  gint64 now = g_get_real_time ();
  g_autofree char *just = pal_format_relative_time (now - 5 * G_USEC_PER_SEC, now);
  g_autofree char *minutes = pal_format_relative_time (now - 5 * 60 * G_USEC_PER_SEC, now);
  g_autofree char *never = pal_format_relative_time (0, now);
  g_autofree char *old = pal_format_relative_time (now - (gint64) 400 * 24 * 3600 * G_USEC_PER_SEC, now);

  g_assert_cmpstr (just, ==, "Just now");
  g_assert_cmpstr (minutes, ==, "5 min ago");
  g_assert_cmpstr (never, ==, "");
  /* more than a year ago carries the year */
  g_assert_true (g_regex_match_simple ("[0-9]{4}$", old, 0, 0));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/sidebar/sessions", test_sidebar);
  g_test_add_func ("/sidebar/keyboard", test_keyboard);
  g_test_add_func ("/sidebar/relative-time", test_relative_time);
  g_test_add_func ("/sidebar/agent-names", test_agent_names);
  g_test_add_func ("/sidebar/additional-folders", test_additional_folders);
  g_test_add_func ("/sidebar/row-subtitle", test_row_subtitle);
  g_test_add_func ("/sidebar/same-id-two-agents", test_same_id_two_agents);
  g_test_add_func ("/sidebar/row-follows-live-session", test_row_follows_live_session);
  g_test_add_func ("/sidebar/fork-item", test_fork_item);
  g_test_add_func ("/sidebar/long-list", test_long_list);
  g_test_add_func ("/sidebar/select-in-long-list", test_select_in_long_list);

  return g_test_run ();
}
