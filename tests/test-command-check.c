/* test-command-check.c: a command checked as it is typed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "pal-command-check.h"
#include "test-util.h"

typedef struct
{
  char *dir;
  char *program;
  char *data;
  char *old_path;
  PalCommandCheck *check;
  guint answers;
} Fixture;

static void
looked_up_cb (PalCommandCheck *check,
              Fixture         *fixture)
{
  fixture->answers++;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = test_make_tmpdir ("palaver-command-check");
  fixture->program = g_build_filename (fixture->dir, "my-program", NULL);
  fixture->data = g_build_filename (fixture->dir, "my-data", NULL);
  g_assert_true (g_file_set_contents (fixture->program, "#!/bin/sh\n", -1, &error));
  g_assert_cmpint (g_chmod (fixture->program, 0755), ==, 0);
  g_assert_true (g_file_set_contents (fixture->data, "", -1, &error));
  g_assert_cmpint (g_chmod (fixture->data, 0644), ==, 0);

  fixture->old_path = g_strdup (g_getenv ("PATH"));
  g_setenv ("PATH", fixture->dir, TRUE);

  fixture->check = pal_command_check_new ();
  g_signal_connect (fixture->check, "looked-up", G_CALLBACK (looked_up_cb), fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->check);
  if (fixture->old_path != NULL)
    g_setenv ("PATH", fixture->old_path, TRUE);
  else
    g_unsetenv ("PATH");
  g_free (fixture->old_path);
  g_free (fixture->data);
  g_free (fixture->program);
  g_free (fixture->dir);
}

/* Waits for one more answer. */
static void
wait_for_answer (Fixture *fixture)
{
  guint answers = fixture->answers;

  WAIT_UNTIL (fixture->answers > answers);
}

/* Whether a timer of @check's is pending: a lookup waiting for its moment */
static gboolean
lookup_scheduled (gpointer check)
{
  return g_main_context_find_source_by_funcs_user_data (NULL, &g_timeout_funcs, check) != NULL;
}

/* Checks that no answer is on its way, on what is pending rather than by
 * waiting longer than a lookup's delay: no lookup waits for its moment,
 * and none runs (a lookup holds a reference to the check until its answer,
 * or the news that it was cancelled, is handled: that is waited for). */
static void
assert_no_answer_coming (Fixture *fixture)
{
  guint answers = fixture->answers;

  WAIT_UNTIL (g_atomic_int_get (&G_OBJECT (fixture->check)->ref_count) == 1);
  test_drain_main_context ();
  g_assert_false (lookup_scheduled (fixture->check));
  g_assert_cmpuint (fixture->answers, ==, answers);
}

/* Gives @command, waits for its answer and checks it. */
static void
assert_answer (Fixture          *fixture,
               const char       *command,
               PalCommandStatus  status,
               const char       *message)
{
  g_autofree char *said = NULL;

  g_assert_cmpint (pal_command_check_update (fixture->check, command, &said), ==,
                   PAL_COMMAND_STATUS_LOOKING);
  g_assert_cmpstr (said, ==, "Looking for the program…");
  g_assert_null (pal_command_check_get_resolved (fixture->check));
  wait_for_answer (fixture);

  g_clear_pointer (&said, g_free);
  g_assert_cmpint (pal_command_check_update (fixture->check, command, &said), ==, status);
  g_assert_cmpstr (said, ==, message);
}

static void
test_statuses (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *message = NULL;
  g_autofree char *found = g_strdup_printf ("Found at %s", fixture->program);
  g_autofree char *not_executable =
    g_strdup_printf ("“%s” is not an executable program on this computer", fixture->data);

  /* not looked up at all */
  g_assert_cmpint (pal_command_check_update (fixture->check, " \t", &message), ==,
                   PAL_COMMAND_STATUS_EMPTY);
  g_assert_cmpstr (message, ==, "Enter the program to start");
  g_clear_pointer (&message, g_free);
  g_assert_cmpint (pal_command_check_update (fixture->check, "bin/my-program", &message), ==,
                   PAL_COMMAND_STATUS_RELATIVE);
  g_assert_cmpstr (message, ==, "“bin/my-program” is a relative path: enter an absolute "
                                "path, or a program name to look up in PATH");
  g_clear_pointer (&message, g_free);
  assert_no_answer_coming (fixture);
  g_assert_cmpuint (fixture->answers, ==, 0);
  g_assert_null (pal_command_check_get_resolved (fixture->check));

  /* a name in PATH, found, missing; an absolute path that cannot run, that can */
  assert_answer (fixture, "my-program", PAL_COMMAND_STATUS_FOUND, found);
  g_assert_cmpstr (pal_command_check_get_resolved (fixture->check), ==, fixture->program);
  assert_answer (fixture, "palaver-no-such-program", PAL_COMMAND_STATUS_NOT_FOUND,
                 "“palaver-no-such-program” was not found in PATH");
  g_assert_null (pal_command_check_get_resolved (fixture->check));
  assert_answer (fixture, fixture->data, PAL_COMMAND_STATUS_NOT_EXECUTABLE, not_executable);
  assert_answer (fixture, fixture->program, PAL_COMMAND_STATUS_FOUND, NULL);

  /* asking again costs no second lookup; the message is optional */
  g_assert_cmpint (pal_command_check_update (fixture->check, fixture->program, NULL), ==,
                   PAL_COMMAND_STATUS_FOUND);
  assert_no_answer_coming (fixture);
  g_assert_cmpuint (fixture->answers, ==, 4);
}

/* A command replaced before its answer came never gets that answer; a
 * cancelled one gets none, and is not looked up again. */
static void
test_last_wins (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *found = g_strdup_printf ("Found at %s", fixture->program);
  g_autofree char *message = NULL;
  gpointer check;

  pal_command_check_update (fixture->check, "palaver-no-such-program", NULL);
  assert_answer (fixture, "my-program", PAL_COMMAND_STATUS_FOUND, found);
  assert_no_answer_coming (fixture);
  g_assert_cmpuint (fixture->answers, ==, 1);

  pal_command_check_update (fixture->check, "palaver-no-such-program", NULL);
  pal_command_check_start_now (fixture->check);
  pal_command_check_cancel (fixture->check);
  assert_no_answer_coming (fixture);
  g_assert_cmpuint (fixture->answers, ==, 1);
  g_assert_cmpint (pal_command_check_update (fixture->check, "palaver-no-such-program",
                                             &message), ==, PAL_COMMAND_STATUS_LOOKING);
  assert_no_answer_coming (fixture);
  g_assert_cmpuint (fixture->answers, ==, 1);

  /* dropped while it waits for its moment: nothing comes, nothing breaks
   * (its timer went with it) */
  pal_command_check_update (fixture->check, "my-program", NULL);
  check = fixture->check;
  g_assert_true (lookup_scheduled (check));
  g_clear_object (&fixture->check);
  g_assert_false (lookup_scheduled (check));
  test_drain_main_context ();
  g_assert_cmpuint (fixture->answers, ==, 1);
}

/* The command replaced by the path it resolved to keeps its answer. */
static void
test_adopt_resolved (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *found = g_strdup_printf ("Found at %s", fixture->program);
  g_autofree char *message = NULL;

  assert_answer (fixture, "my-program", PAL_COMMAND_STATUS_FOUND, found);
  pal_command_check_adopt_resolved (fixture->check);
  g_assert_cmpint (pal_command_check_update (fixture->check, fixture->program, &message), ==,
                   PAL_COMMAND_STATUS_FOUND);
  g_assert_null (message);
  g_assert_cmpstr (pal_command_check_get_resolved (fixture->check), ==, fixture->program);
  assert_no_answer_coming (fixture);
  g_assert_cmpuint (fixture->answers, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/command-check/statuses", Fixture, NULL,
              fixture_set_up, test_statuses, fixture_tear_down);
  g_test_add ("/command-check/last-wins", Fixture, NULL,
              fixture_set_up, test_last_wins, fixture_tear_down);
  g_test_add ("/command-check/adopt-resolved", Fixture, NULL,
              fixture_set_up, test_adopt_resolved, fixture_tear_down);

  return g_test_run ();
}
