/* test-live-session.c: what a live session tells those bound to it
 *
 * The session manager drives a PalLiveSession through its private setters;
 * these tests do the same, with no manager and no agent. How the manager
 * computes the state, and the title from an agent, are in
 * test-session-manager.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-live-session-private.h"

/* How often each property was notified. */
typedef struct
{
  guint state;
  guint busy;
  guint error;
  guint title;
  guint session;
} Counts;

static void
count_cb (PalLiveSession *live,
          GParamSpec     *pspec,
          Counts         *counts)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "state"))
    counts->state++;
  else if (g_str_equal (name, "busy"))
    counts->busy++;
  else if (g_str_equal (name, "error"))
    counts->error++;
  else if (g_str_equal (name, "title"))
    counts->title++;
  else if (g_str_equal (name, "session"))
    counts->session++;
  else
    g_assert_not_reached ();
}

static PalLiveSession *
new_live (Counts *counts)
{
  g_autoptr(PalSessionKey) key = pal_session_key_new ("demo", "s1");
  PalLiveSession *live = _pal_live_session_new (key, NULL);

  g_signal_connect (live, "notify", G_CALLBACK (count_cb), counts);
  return live;
}

/* The state and "busy" are notified once per change, and not when nothing
 * changed. */
static void
test_state (void)
{
  Counts counts = { 0 };
  g_autoptr(PalLiveSession) live = new_live (&counts);
  PalSessionState state;
  gboolean busy;

  g_assert_cmpstr (pal_session_key_get_session_id (pal_live_session_get_key (live)), ==, "s1");
  g_assert_cmpint (pal_live_session_get_state (live), ==, PAL_SESSION_STATE_NOT_RUNNING);
  g_assert_false (pal_live_session_get_busy (live));
  g_assert_null (pal_live_session_get_session (live));
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "");

  _pal_live_session_set_state (live, PAL_SESSION_STATE_STARTING_AGENT);
  g_assert_cmpuint (counts.state, ==, 1);
  g_assert_cmpuint (counts.busy, ==, 1);
  g_assert_true (pal_live_session_get_busy (live));

  /* still busy: the state alone */
  _pal_live_session_set_state (live, PAL_SESSION_STATE_LOADING);
  g_assert_cmpuint (counts.state, ==, 2);
  g_assert_cmpuint (counts.busy, ==, 1);

  /* told again, it is not a change */
  _pal_live_session_set_state (live, PAL_SESSION_STATE_LOADING);
  g_assert_cmpuint (counts.state, ==, 2);

  _pal_live_session_set_state (live, PAL_SESSION_STATE_READY);
  g_assert_cmpuint (counts.state, ==, 3);
  g_assert_cmpuint (counts.busy, ==, 2);
  g_assert_false (pal_live_session_get_busy (live));

  /* waiting for the person is not being busy; stopping a turn is */
  _pal_live_session_set_state (live, PAL_SESSION_STATE_WAITING_PERMISSION);
  g_assert_false (pal_live_session_get_busy (live));
  _pal_live_session_set_state (live, PAL_SESSION_STATE_STOPPING);
  g_assert_true (pal_live_session_get_busy (live));
  _pal_live_session_set_state (live, PAL_SESSION_STATE_WORKING);
  g_assert_true (pal_live_session_get_busy (live));
  g_assert_cmpuint (counts.state, ==, 6);
  g_assert_cmpuint (counts.busy, ==, 3);

  /* through the properties too */
  g_object_get (live, "state", &state, "busy", &busy, NULL);
  g_assert_cmpint (state, ==, PAL_SESSION_STATE_WORKING);
  g_assert_true (busy);

  g_assert_cmpuint (counts.error, ==, 0);
  g_assert_cmpuint (counts.title, ==, 0);
  g_assert_cmpuint (counts.session, ==, 0);
  g_signal_handlers_disconnect_by_data (live, &counts);
}

/* Why it failed is told while it is FAILED, and only then. */
static void
test_error (void)
{
  Counts counts = { 0 };
  g_autoptr(PalLiveSession) live = new_live (&counts);
  g_autoptr(GError) failure = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                                   "No such agent");
  g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "Broken");
  g_autoptr(GError) read = NULL;

  _pal_live_session_set_state (live, PAL_SESSION_STATE_STARTING_AGENT);
  _pal_live_session_set_open_error (live, failure);
  g_assert_null (pal_live_session_get_error (live));
  g_assert_cmpuint (counts.error, ==, 0);

  _pal_live_session_set_state (live, PAL_SESSION_STATE_FAILED);
  g_assert_error (pal_live_session_get_error (live), G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_cmpstr (pal_live_session_get_error (live)->message, ==, "No such agent");
  g_assert_cmpuint (counts.error, ==, 1);
  g_object_get (live, "error", &read, NULL);
  g_assert_error (read, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  /* another failure while FAILED */
  _pal_live_session_set_open_error (live, other);
  _pal_live_session_set_state (live, PAL_SESSION_STATE_FAILED);
  g_assert_error (pal_live_session_get_error (live), G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_cmpuint (counts.error, ==, 2);

  /* opened again */
  _pal_live_session_set_open_error (live, NULL);
  _pal_live_session_set_state (live, PAL_SESSION_STATE_STARTING_AGENT);
  g_assert_null (pal_live_session_get_error (live));
  g_assert_cmpuint (counts.error, ==, 3);
  g_signal_handlers_disconnect_by_data (live, &counts);
}

/* Without a title from the agent, the stored one, followed as the list
 * changes: a rename, and a record that another process rewrote. */
static void
test_title_from_record (void)
{
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = g_settings_new_with_backend (APPLICATION_ID, backend);
  g_autoptr(PalSessionStore) store = pal_session_store_new (settings);
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("s1", "demo", "/home/p/alpha");
  g_autoptr(PalSessionRecord) rewritten = pal_session_record_new ("s1", "demo", "/home/p/alpha");
  g_autoptr(PalSessionKey) key = pal_session_key_new ("demo", "s1");
  g_autoptr(PalLiveSession) live = NULL;
  g_autofree char *read = NULL;
  Counts counts = { 0 };

  pal_session_record_set_title (record, "Fix the parser");
  pal_session_store_add (store, record);

  live = _pal_live_session_new (key, store);
  g_signal_connect (live, "notify", G_CALLBACK (count_cb), &counts);
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "Fix the parser");

  g_assert_true (pal_session_store_set_title (store, key, "Parser drops long lines"));
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "Parser drops long lines");
  g_assert_cmpuint (counts.title, ==, 1);
  g_object_get (live, "title", &read, NULL);
  g_assert_cmpstr (read, ==, "Parser drops long lines");

  /* moving in the list is no new title */
  g_assert_true (pal_session_store_touch (store, key));
  g_assert_cmpuint (counts.title, ==, 1);

  /* a new record for the same session */
  g_assert_true (pal_session_store_remove (store, key));
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "");
  pal_session_record_set_title (rewritten, "Long lines");
  pal_session_store_add (store, rewritten);
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "Long lines");
  g_assert_cmpuint (counts.title, ==, 3);

  /* the old record tells nothing any more */
  pal_session_record_set_title (record, "Stale");
  g_assert_cmpstr (pal_live_session_get_title (live), ==, "Long lines");
  g_assert_cmpuint (counts.title, ==, 3);
  g_signal_handlers_disconnect_by_data (live, &counts);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/live-session/state", test_state);
  g_test_add_func ("/live-session/error", test_error);
  g_test_add_func ("/live-session/title-from-record", test_title_from_record);

  return g_test_run ();
}
