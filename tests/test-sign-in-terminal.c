/* test-sign-in-terminal.c: a sign-in run in a terminal window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command is tests/sign-in.sh, a login that succeeds, fails once, or
 * asks for a code and waits; the window shows what it writes, reports its
 * end, and stops it, with everything it started, when cancelled.
 */

#include "config.h"

#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#include "pal-sign-in-terminal.h"
#include "process-group.h"
#include "vte-text.h"
#include "test-util.h"

typedef struct
{
  char              *dir;
  char              *signed_in;   /* the file sign-in.sh creates */
  char              *helper_file; /* where sign-in.sh wait writes its helper's pid */
  PalSignInTerminal *window;      /* weak */
  GString           *seen;        /* the terminal's text, the last time it changed */
  int                finished;    /* -1 until "finished", then its argument */
} Fixture;

static void
contents_changed_cb (VteTerminal *terminal,
                     Fixture     *f)
{
  g_autofree char *text = vte_text (GTK_WIDGET (terminal));

  g_string_assign (f->seen, text != NULL ? text : "");
}

static void
finished_cb (PalSignInTerminal *window,
             gboolean           signed_in,
             Fixture           *f)
{
  g_assert_cmpint (f->finished, ==, -1);
  f->finished = signed_in;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = test_make_tmpdir ("palaver-sign-in");
  f->signed_in = g_build_filename (f->dir, "signed-in", NULL);
  f->helper_file = g_build_filename (f->dir, "helper-pid", NULL);
  f->seen = g_string_new (NULL);
  f->finished = -1;

  f->window = pal_sign_in_terminal_new (NULL, "Fake Agent", "Fake Login", "With the fake service.");
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  g_signal_connect (f->window, "finished", G_CALLBACK (finished_cb), f);
  g_signal_connect (pal_sign_in_terminal_get_terminal (f->window), "contents-changed",
                    G_CALLBACK (contents_changed_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_null (f->window);

  g_free (f->dir);
  g_free (f->signed_in);
  g_free (f->helper_file);
  g_string_free (f->seen, TRUE);
}

static void
start (Fixture    *f,
       const char *mode)
{
  g_autofree char *script = g_build_filename (g_getenv ("PALAVER_SCENARIO_DIR"), "..", "sign-in.sh", NULL);
  g_autofree char *signed_in = g_strconcat ("FAKE_SIGNED_IN=", f->signed_in, NULL);
  g_autofree char *helper = g_strconcat ("FAKE_LOGIN_HELPER_PID_FILE=", f->helper_file, NULL);
  const char *argv[] = { script, mode, NULL };
  const char *env[] = { signed_in, helper, "FAKE_LOGIN_GREETING=Welcome to the fake service", NULL };

  pal_sign_in_terminal_start (f->window, argv, env, f->dir);
}

static gboolean
is_finished (gpointer data)
{
  return ((Fixture *) data)->finished != -1;
}

static gboolean
failed (gpointer data)
{
  Fixture *f = data;

  return pal_sign_in_terminal_get_problem (f->window) != NULL;
}

static gboolean
window_gone (gpointer data)
{
  return ((Fixture *) data)->window == NULL;
}

static const char *wanted_text;

static gboolean
shows_wanted (gpointer data)
{
  return strstr (((Fixture *) data)->seen->str, wanted_text) != NULL;
}

static void
wait_for_text (Fixture    *f,
               const char *text)
{
  wanted_text = text;
  WAIT_UNTIL (shows_wanted (f));
}

/* Exit status 0: signed in, and the window goes. */
static void
test_success (Fixture       *f,
              gconstpointer  data)
{
  start (f, "ok");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->window)));
  g_assert_cmpint (pal_sign_in_terminal_get_pid (f->window), >, 0);

  WAIT_UNTIL (is_finished (f));
  g_assert_cmpint (f->finished, ==, TRUE);
  g_assert_null (f->window);
  g_assert_true (g_file_test (f->signed_in, G_FILE_TEST_EXISTS));
  /* what the command wrote, with the environment it was given */
  g_assert_nonnull (strstr (f->seen->str, "Welcome to the fake service"));
}

/* Another status: why, and Try Again, which runs the command anew. */
static void
test_failure_then_retry (Fixture       *f,
                         gconstpointer  data)
{
  GtkWidget *retry;

  start (f, "fail-once");
  WAIT_UNTIL (failed (f));
  g_assert_cmpint (f->finished, ==, -1);
  g_assert_cmpint (pal_sign_in_terminal_get_pid (f->window), ==, 0);
  g_assert_nonnull (strstr (pal_sign_in_terminal_get_problem (f->window), "exit status 1"));
  wait_for_text (f, "The fake service did not answer.");
  g_assert_false (g_file_test (f->signed_in, G_FILE_TEST_EXISTS));

  /* Try Again has the focus */
  retry = gtk_window_get_focus (GTK_WINDOW (f->window));
  g_assert_true (GTK_IS_BUTTON (retry));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (retry)), ==, "_Try Again");
  g_assert_true (gtk_widget_get_visible (retry));
  g_signal_emit_by_name (retry, "clicked");
  g_assert_null (pal_sign_in_terminal_get_problem (f->window));

  WAIT_UNTIL (is_finished (f));
  g_assert_cmpint (f->finished, ==, TRUE);
  g_assert_true (g_file_test (f->signed_in, G_FILE_TEST_EXISTS));
}

static gboolean
helper_started (gpointer data)
{
  return g_file_test (((Fixture *) data)->helper_file, G_FILE_TEST_EXISTS);
}

static GPid
read_helper (Fixture *f)
{
  g_autofree char *contents = NULL;

  POLL_UNTIL (helper_started (f));
  g_assert_true (g_file_get_contents (f->helper_file, &contents, NULL, NULL));
  return (GPid) g_ascii_strtoll (contents, NULL, 10);
}

static gboolean
helper_gone (gpointer data)
{
  return !process_runs (GPOINTER_TO_INT (data));
}

/* The terminal is the command's: what the person types reaches it. */
static void
test_input (Fixture       *f,
            gconstpointer  data)
{
  GPid helper;

  start (f, "wait");
  wait_for_text (f, "Paste the code from your browser:");
  helper = read_helper (f);

  vte_terminal_feed_child (VTE_TERMINAL (pal_sign_in_terminal_get_terminal (f->window)), "1234\r", -1);
  WAIT_UNTIL (is_finished (f));
  g_assert_cmpint (f->finished, ==, TRUE);
  g_assert_true (g_file_test (f->signed_in, G_FILE_TEST_EXISTS));
  /* what it left running (a helper that ignores SIGTERM) is stopped too */
  POLL_UNTIL (helper_gone (GINT_TO_POINTER (helper)));
}

typedef struct
{
  GPid pgid;
  GPid helper;
} Group;

static gboolean
group_gone (gpointer data)
{
  Group *group = data;

  return count_group (group->pgid) == 0 && !process_runs (group->helper);
}

/* Cancel stops the command and all it started, even what ignores SIGTERM;
 * the window waits out of sight for that, then goes. */
static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  Group group;

  start (f, "wait");
  wait_for_text (f, "Paste the code from your browser:");
  group.pgid = pal_sign_in_terminal_get_pid (f->window);
  group.helper = read_helper (f);
  /* a group of its own, which the helper is in */
  g_assert_cmpint (getpgid (group.pgid), ==, group.pgid);
  g_assert_cmpint (getpgid (group.helper), ==, group.pgid);
  g_assert_cmpuint (count_group (group.pgid), ==, 2);

  pal_sign_in_terminal_cancel (f->window);
  g_assert_cmpint (f->finished, ==, FALSE);
  g_assert_true (f->window == NULL || !gtk_widget_get_visible (GTK_WIDGET (f->window)));

  POLL_UNTIL (group_gone (&group));
  WAIT_UNTIL (window_gone (f));
  g_assert_false (g_file_test (f->signed_in, G_FILE_TEST_EXISTS));
}

/* Closing the window is cancelling. */
static void
test_close (Fixture       *f,
            gconstpointer  data)
{
  Group group;

  start (f, "wait");
  wait_for_text (f, "Paste the code from your browser:");
  group.pgid = pal_sign_in_terminal_get_pid (f->window);
  group.helper = read_helper (f);

  gtk_window_close (GTK_WINDOW (f->window));
  g_assert_cmpint (f->finished, ==, FALSE);
  POLL_UNTIL (group_gone (&group));
  WAIT_UNTIL (window_gone (f));
}

/* A command that cannot run: why, and nothing else. */
static void
test_not_found (Fixture       *f,
                gconstpointer  data)
{
  const char *argv[] = { "/nonexistent/palaver-sign-in", NULL };

  pal_sign_in_terminal_start (f->window, argv, NULL, NULL);
  g_assert_nonnull (pal_sign_in_terminal_get_problem (f->window));
  g_assert_true (g_str_has_prefix (pal_sign_in_terminal_get_problem (f->window),
                                   "The sign-in could not be started:"));
  g_assert_cmpint (pal_sign_in_terminal_get_pid (f->window), ==, 0);
  g_assert_cmpint (f->finished, ==, -1);

  pal_sign_in_terminal_cancel (f->window);
  g_assert_cmpint (f->finished, ==, FALSE);
  g_assert_null (f->window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/sign-in-terminal/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("success", test_success);
  ADD ("failure-then-retry", test_failure_then_retry);
  ADD ("input", test_input);
  ADD ("cancel", test_cancel);
  ADD ("close", test_close);
  ADD ("not-found", test_not_found);

  return g_test_run ();
}
