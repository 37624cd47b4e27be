/* test-util.h: what the tests share: waiting on events, and fixtures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Waiting. A test waits for what it expects to happen, never for a time:
 *
 *   WAIT_UNTIL (cond)     iterates the main context until @cond holds, for
 *                         whatever announces itself there (a signal, a
 *                         source, a reply, a child's exit);
 *   POLL_UNTIL (cond)     the same, looking again every TEST_POLL_MS for a
 *                         condition that no event announces (another process
 *                         ended, a file was written, a thread went on);
 *   WAIT_RESULT (&slot)   waits for the GAsyncResult that
 *                         test_store_result_cb() puts into @slot;
 *   test_drain_main_context ()  handles everything pending, without
 *                         waiting: after it, what is to happen because of
 *                         what already happened has happened (the way to
 *                         check that something does NOT happen).
 *
 * A wait has a guard (TEST_GUARD_SECONDS) that fails the test with the
 * condition's text and the place of the wait: the guard is there so that a
 * hang is a failure with a message rather than a test killed by its runner,
 * never a wait. No test may rely on it expiring.
 */

#pragma once

#include <gio/gio.h>

#include "acp-agent.h"
#include "acp-connection.h"

G_BEGIN_DECLS

/* waiting {{{ */

/* How long a wait goes on before the test fails: far more than anything
 * takes on a busy machine, however slow (see test_set_guard_seconds()). */
#define TEST_GUARD_SECONDS 60

/* How often POLL_UNTIL looks again */
#define TEST_POLL_MS 10

/* A program whose waits take longer (real agents from npm) raises the guard
 * for all of its waits. */
void     test_set_guard_seconds  (guint seconds);

/* One wait, as the macros below run it: begin, iterate while the condition
 * does not hold (it fails the test once the guard expired, naming
 * @condition and the place), end. A helper that waits for a condition with
 * a name of its own runs it itself. */
typedef struct
{
  guint    guard_id;
  guint    poll_id;
  gboolean expired;
} TestWait;

void     test_wait_begin         (TestWait   *wait,
                                  guint       poll_ms);
void     test_wait_iterate       (TestWait   *wait,
                                  const char *condition,
                                  const char *file,
                                  int         line,
                                  const char *func);
void     test_wait_end           (TestWait   *wait);

#define TEST_WAIT_LOOP_(cond, poll_ms) \
  G_STMT_START { \
    TestWait test_wait_; \
    test_wait_begin (&test_wait_, (poll_ms)); \
    while (!(cond)) \
      test_wait_iterate (&test_wait_, #cond, __FILE__, __LINE__, G_STRFUNC); \
    test_wait_end (&test_wait_); \
  } G_STMT_END

/* Iterates the main context until @cond holds. */
#define WAIT_UNTIL(cond) TEST_WAIT_LOOP_ (cond, 0)

/* Iterates the main context until @cond holds, waking every TEST_POLL_MS
 * to look again: for conditions that nothing announces. */
#define POLL_UNTIL(cond) TEST_WAIT_LOOP_ (cond, TEST_POLL_MS)

/* A GAsyncReadyCallback that keeps the result in @user_data, a
 * GAsyncResult * that is NULL until then. */
void     test_store_result_cb    (GObject      *object,
                                  GAsyncResult *result,
                                  gpointer      user_data);

GAsyncResult *test_wait_result   (GAsyncResult **slot,
                                  const char    *file,
                                  int            line,
                                  const char    *func);

/* Waits until @slot (set by test_store_result_cb()) holds a result.
 * Returns: (transfer full): the result, @slot emptied for the next one */
#define WAIT_RESULT(slot) test_wait_result ((slot), __FILE__, __LINE__, G_STRFUNC)

/* Handles everything pending on the main context, without waiting for
 * anything that is not due yet. */
void     test_drain_main_context (void);

/* Waits until the window of @widget (a GtkWidget in a realized window)
 * painted @n_frames frames, one after the other, each asked for: what the
 * last changes asked for is laid out and drawn, and what is done at a frame
 * had that many frames to be done in. (In test-util-gtk.c, linked into the
 * tests of widgets only.) */
void     test_wait_frames        (gpointer    widget,
                                  guint       n_frames);

/* The application of a whole test program of windows (an id registers
 * once): a non-unique AdwApplication with the application's resources,
 * registered. (In test-util-gtk.c.) */
gpointer test_app_new            (const char *application_id);

/* Lets one warning of GTK 4.8 pass, for the whole program (call it once,
 * first in main ()): a list view that cannot scroll to a position which
 * the rows added meanwhile moved (a long transcript shown while a busy
 * machine delays the frame), not a fault of what the tests check. Every
 * other warning stays as fatal as G_DEBUG makes it. (In test-util-gtk.c.) */
void     test_tolerate_scroll_warning (void);

/* }}} */

/* files {{{ */

/* Makes a temporary directory; it goes with everything in it once the
 * test ends (after its teardown).
 * Returns: (transfer full): its path */
char    *test_make_tmpdir        (const char *prefix);

/* Removes @path and everything under it (made writable first) */
void     test_remove_tree        (const char *path);

/* Points the user's data, config and cache directories at one temporary
 * folder for the whole test program, removed at exit: what
 * G_TEST_OPTION_ISOLATE_DIRS does for each test case, without the strings
 * GLib 2.74 leaks at each (which LeakSanitizer cannot tell from ours).
 * Call before g_test_init(). */
void     test_isolate_user_dirs  (void);

/* The items of @model (nullable) in words, " | " between them: "user:
 * TEXT", "agent: TEXT", "tool: TITLE (STATUS)", "notice: TITLE" */
char    *test_describe_items     (GListModel *model);

/* }}} */

/* agents {{{ */

/* Returns: the scripted fake agent ($PALAVER_FAKE_AGENT) */
const char    *test_fake_agent_path   (void);

/* Returns: (transfer full): an agent running the fake agent on @scenario
 * (a file of tests/scenarios or a path) with @extra_args, not started */
AcpAgent      *test_fake_agent_new    (const char         *scenario,
                                       const char * const *extra_args);

/* Starts @agent and waits until it is ready, asserting it started. */
void           test_agent_start       (AcpAgent           *agent);

/* Stops @agent and waits until it is stopped. */
void           test_agent_stop        (AcpAgent           *agent);

/* Two connected ends of a socket pair. */
void           test_socket_pair       (GSocketConnection **one,
                                       GSocketConnection **other);

/* An agent (not started) on one end of a socket pair, the test playing the
 * agent on the other end through @peer (started; it answers initialize at
 * once, with no capabilities).
 * Returns: (transfer full): the agent */
AcpAgent      *test_agent_new_with_peer (AcpConnection    **peer);

/* Closes @peer's end and waits until @agent saw its agent go. */
void           test_peer_close        (AcpConnection      *peer,
                                       AcpAgent           *agent);

/* }}} */

G_END_DECLS
