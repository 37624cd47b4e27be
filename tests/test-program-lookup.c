/* test-program-lookup.c: finding a command's program off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "pal-program-lookup.h"
#include "test-util.h"

typedef struct
{
  gboolean done;
  gboolean ok;
  char *path;
  gboolean executable;
  GError *error;
} Answer;

static void
lookup_done_cb (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Answer *answer = user_data;

  answer->ok = pal_program_lookup_finish (result, &answer->path, &answer->executable,
                                          &answer->error);
  answer->done = TRUE;
}

/* Looks @command up and waits for the answer. */
static void
look_up (const char   *command,
         GCancellable *cancellable,
         Answer       *answer)
{
  memset (answer, 0, sizeof *answer);
  pal_program_lookup_async (command, cancellable, lookup_done_cb, answer);
  WAIT_UNTIL (answer->done);
}

static void
answer_clear (Answer *answer)
{
  g_clear_pointer (&answer->path, g_free);
  g_clear_error (&answer->error);
}

static void
test_lookup (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = test_make_tmpdir ("palaver-lookup");
  g_autofree char *program = NULL;
  g_autofree char *data = NULL;
  g_autofree char *path = NULL;
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Answer answer;

  g_assert_no_error (error);
  program = g_build_filename (dir, "my-program", NULL);
  data = g_build_filename (dir, "my-data", NULL);
  g_assert_true (g_file_set_contents (program, "#!/bin/sh\n", -1, &error));
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);
  g_assert_true (g_file_set_contents (data, "", -1, &error));
  g_assert_cmpint (g_chmod (data, 0644), ==, 0);

  /* PATH is read when asked */
  path = g_strconcat (".:", dir, NULL);
  g_setenv ("PATH", path, TRUE);

  look_up ("my-program", NULL, &answer);
  g_assert_true (answer.ok);
  g_assert_no_error (answer.error);
  g_assert_cmpstr (answer.path, ==, program);
  g_assert_true (answer.executable);
  answer_clear (&answer);

  /* not executable: not found in PATH */
  look_up ("my-data", NULL, &answer);
  g_assert_true (answer.ok);
  g_assert_null (answer.path);
  g_assert_false (answer.executable);
  answer_clear (&answer);

  /* an absolute path is itself, executable or not */
  look_up (data, NULL, &answer);
  g_assert_true (answer.ok);
  g_assert_cmpstr (answer.path, ==, data);
  g_assert_false (answer.executable);
  answer_clear (&answer);

  look_up (dir, NULL, &answer);
  g_assert_cmpstr (answer.path, ==, dir);
  g_assert_false (answer.executable);
  answer_clear (&answer);

  /* a relative path with a slash is not looked up */
  look_up ("./my-program", NULL, &answer);
  g_assert_true (answer.ok);
  g_assert_null (answer.path);
  answer_clear (&answer);

  /* cancelled: no answer, whatever the worker found */
  g_cancellable_cancel (cancellable);
  look_up ("my-program", cancellable, &answer);
  g_assert_false (answer.ok);
  g_assert_error (answer.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (answer.path);
  answer_clear (&answer);

  g_setenv ("PATH", old_path, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/program-lookup/lookup", test_lookup);

  return g_test_run ();
}
