/* bench-startup.c: from launching palaver to its window's first frame
 *
 * Launches the real executable as a child process, again and again, with
 * settings that hold 0, 5,000 or 10,000 stored sessions (--sessions), and
 * measures from just before the launch until the main window has painted its
 * first frame. The application reports that itself when
 * PALAVER_REPORT_STARTUP is set (src/gui/pal-startup-report.c): it prints
 * the CLOCK_MONOTONIC times of the end of GApplication's startup, of the
 * window built and of the first frame, its CPU time by then and how many
 * sessions its list held, and quits.
 *
 * Settings: --backend dconf (as installed from a distribution package; the
 * default) or keyfile (what GLib chooses inside Flatpak, where Palaver has no
 * access to dconf). For each count the program makes a folder of its own with
 * XDG_CONFIG_HOME and XDG_RUNTIME_DIR in it and a private D-Bus daemon whose
 * activated services (dconf's writer) see them, and fills the `sessions` key
 * through GSettings itself (it runs itself with --fill in that environment),
 * so the value is the one the application would have written. Nothing of the
 * person's own settings or bus is touched.
 *
 * Each count gets one launch first that is not measured (it loads the page
 * cache and fontconfig's), then the measured runs go round the counts in
 * turn (run 1: 0, 5000, 10000; run 2: 5000, 10000, 0; …), so that a spell of
 * load from other work on the machine is shared among them. Per run one line
 * of key=value on stdout:
 *
 *   first_frame_ms   launch → the first frame painted
 *   startup_ms       launch → GApplication's startup done (display, bus)
 *   window_ms        launch → the main window built
 *   cpu_ms           the child's user + system time at its first frame
 *   exit_ms          launch → the child gone (it quits at its first frame)
 *   shown            sessions in the list at the first frame (must be the count)
 *
 * then per count a line with the median, lowest and highest of the runs.
 *
 * With --settle the child goes on for a second after its first frame
 * (PALAVER_REPORT_STARTUP=settle), and the line adds what start-up left to
 * the frames after the first: later_frames (painted in that second) and
 * longest_later_frame_ms (the longest of them, from "before-paint" to
 * "after-paint").
 *
 * --palaver PATH given several times compares builds: each run launches
 * each of them in turn (starting with another one each run), and the lines
 * say which (executable=1, 2, …, in the order given).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

/* --- the stored sessions --- */

static const char * const agents[] = { "claude-agent", "codex", "gemini", "demo" };

static const char * const verbs[] = {
  "Fix", "Refactor", "Explain", "Review", "Speed up", "Document", "Test", "Port",
};
static const char * const subjects[] = {
  "the flaky login test", "the settings dialog", "the build on arm64", "the parser's error recovery",
  "the cache eviction", "the CSV import", "the release notes", "the database migration",
  "the retry logic", "the sidebar search",
};

/* @n sessions as the application stores them: a few dozen project folders
 * of unequal size, four agents, activity over the last year, a few pinned,
 * renamed or with more folders. The same every time. */
static GVariant *
make_sessions (guint n)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);
  guint n_folders = CLAMP (n / 50, 1, 100);
  gint64 now = g_get_real_time ();
  GVariantBuilder list;

  g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < n; i++)
    {
      GVariantBuilder entry;
      /* some folders hold far more sessions than others */
      guint folder = (guint) (n_folders * g_rand_double (rand) * g_rand_double (rand));
      g_autofree char *cwd = g_strdup_printf ("/home/bench/src/project-%03u", folder);
      g_autofree char *id = g_strdup_printf ("%08x-%04x-4%03x-a%03x-%08x%04x",
                                             g_rand_int (rand), g_rand_int (rand) & 0xffff,
                                             g_rand_int (rand) & 0xfff, g_rand_int (rand) & 0xfff,
                                             g_rand_int (rand), g_rand_int (rand) & 0xffff);
      g_autofree char *title = g_strdup_printf ("%s %s (%u)",
                                                verbs[g_rand_int_range (rand, 0, G_N_ELEMENTS (verbs))],
                                                subjects[g_rand_int_range (rand, 0, G_N_ELEMENTS (subjects))],
                                                i);
      gint64 created = now - (gint64) (g_rand_double (rand) * 365 * 24 * 3600 * G_USEC_PER_SEC);
      gint64 updated = MIN (now, created + (gint64) (g_rand_double (rand) * 3 * 24 * 3600 * G_USEC_PER_SEC));

      g_variant_builder_init (&entry, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&entry, "{sv}", "id", g_variant_new_string (id));
      g_variant_builder_add (&entry, "{sv}", "agent",
                             g_variant_new_string (agents[g_rand_int_range (rand, 0, G_N_ELEMENTS (agents))]));
      g_variant_builder_add (&entry, "{sv}", "cwd", g_variant_new_string (cwd));
      g_variant_builder_add (&entry, "{sv}", "title", g_variant_new_string (title));
      g_variant_builder_add (&entry, "{sv}", "created", g_variant_new_int64 (created));
      g_variant_builder_add (&entry, "{sv}", "updated", g_variant_new_int64 (updated));
      g_variant_builder_add (&entry, "{sv}", "pinned", g_variant_new_boolean (g_rand_int_range (rand, 0, 500) == 0));
      if (g_rand_int_range (rand, 0, 10) == 0)
        g_variant_builder_add (&entry, "{sv}", "renamed", g_variant_new_boolean (TRUE));
      if (g_rand_int_range (rand, 0, 20) == 0)
        {
          g_autofree char *more = g_strdup_printf ("/home/bench/src/shared-%u", folder % 7);
          const char *dirs[] = { more, NULL };

          g_variant_builder_add (&entry, "{sv}", "additional-directories",
                                 g_variant_new_strv (dirs, -1));
        }
      g_variant_builder_add_value (&list, g_variant_builder_end (&entry));
    }

  return g_variant_builder_end (&list);
}

/* bench-startup --fill N, run in the environment of the count: writes the
 * sessions through the settings backend of that environment. */
static int
fill (guint n)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GVariant) stored = NULL;

  g_settings_set_value (settings, "sessions", make_sessions (n));
  g_settings_sync ();

  stored = g_settings_get_value (settings, "sessions");
  if (g_variant_n_children (stored) != n)
    {
      g_printerr ("The settings hold %zu sessions instead of %u\n", g_variant_n_children (stored), n);
      return 1;
    }
  return 0;
}

/* --- one environment per count --- */

typedef struct
{
  guint        n_sessions;
  char        *dir;
  char       **envp;
  GSubprocess *bus;
  /* per executable: (element-type double), ms, one per measured run */
  GPtrArray   *first_frame;
  GPtrArray   *cpu;
  GPtrArray   *longest_later;
} Count;

static void
count_free (Count *count)
{
  if (count->bus != NULL)
    {
      /* a daemon this program started */
      g_subprocess_send_signal (count->bus, SIGTERM);
      g_subprocess_wait (count->bus, NULL, NULL);
    }
  g_clear_object (&count->bus);
  g_strfreev (count->envp);
  g_free (count->dir);
  g_ptr_array_unref (count->first_frame);
  g_ptr_array_unref (count->cpu);
  g_ptr_array_unref (count->longest_later);
  g_free (count);
}

static char **
make_envp (const char *dir,
           const char *backend)
{
  char **envp = g_get_environ ();
  g_autofree char *config = g_build_filename (dir, "config", NULL);
  g_autofree char *runtime = g_build_filename (dir, "run", NULL);

  g_mkdir_with_parents (config, 0700);
  g_mkdir_with_parents (runtime, 0700);

  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);
  envp = g_environ_setenv (envp, "XDG_RUNTIME_DIR", runtime, TRUE);
  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", backend, TRUE);
  envp = g_environ_setenv (envp, "GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, FALSE);
  envp = g_environ_setenv (envp, "GTK_A11Y", "none", FALSE);
  envp = g_environ_setenv (envp, "NO_AT_BRIDGE", "1", FALSE);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", FALSE);
  envp = g_environ_unsetenv (envp, "DBUS_SESSION_BUS_ADDRESS");
  envp = g_environ_unsetenv (envp, "PALAVER_REPORT_STARTUP");
  return envp;
}

static GSubprocess *
spawn_with_env (char               **envp,
                GSubprocessFlags     flags,
                GError             **error,
                const char * const  *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);

  g_subprocess_launcher_set_environ (launcher, envp);
  return g_subprocess_launcher_spawnv (launcher, argv, error);
}

/* A session bus of the count's own: its activated services (dconf's
 * writer) get the count's XDG folders. */
static gboolean
start_bus (Count   *count,
           GError **error)
{
  const char * const argv[] = { "dbus-daemon", "--session", "--nofork", "--print-address=1", NULL };
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *address = NULL;

  count->bus = spawn_with_env (count->envp,
                              G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                              error, argv);
  if (count->bus == NULL)
    return FALSE;

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (count->bus));
  address = g_data_input_stream_read_line_utf8 (out, NULL, NULL, error);
  if (address == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "dbus-daemon printed no address");
      return FALSE;
    }

  count->envp = g_environ_setenv (count->envp, "DBUS_SESSION_BUS_ADDRESS", address, TRUE);
  return TRUE;
}

static Count *
count_new (const char  *root,
           guint        n_sessions,
           const char  *backend,
           const char  *self_path,
           guint        n_executables,
           GError     **error)
{
  Count *count = g_new0 (Count, 1);
  g_autofree char *name = g_strdup_printf ("sessions-%u", n_sessions);
  g_autofree char *n_text = g_strdup_printf ("%u", n_sessions);
  const char * const fill_argv[] = { self_path, "--fill", n_text, NULL };
  g_autoptr(GSubprocess) filler = NULL;

  count->n_sessions = n_sessions;
  count->dir = g_build_filename (root, name, NULL);
  count->envp = make_envp (count->dir, backend);
  count->first_frame = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  count->cpu = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  count->longest_later = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < n_executables; i++)
    {
      g_ptr_array_add (count->first_frame, g_array_new (FALSE, FALSE, sizeof (double)));
      g_ptr_array_add (count->cpu, g_array_new (FALSE, FALSE, sizeof (double)));
      g_ptr_array_add (count->longest_later, g_array_new (FALSE, FALSE, sizeof (double)));
    }

  if (!start_bus (count, error))
    goto failed;

  filler = spawn_with_env (count->envp, G_SUBPROCESS_FLAGS_NONE, error, fill_argv);
  if (filler == NULL || !g_subprocess_wait_check (filler, NULL, error))
    goto failed;

  return count;

failed:
  count_free (count);
  return NULL;
}

/* --- one launch --- */

typedef struct
{
  gboolean ok;
  double   first_frame_ms;
  double   startup_ms;
  double   window_ms;
  double   cpu_ms;
  double   exit_ms;
  guint    shown;
  int      later_frames;
  double   longest_later_frame_ms;
} Launch;

static gint64
get_int (char       **fields,
         const char  *key)
{
  gsize len = strlen (key);

  for (guint i = 0; fields[i] != NULL; i++)
    if (strncmp (fields[i], key, len) == 0 && fields[i][len] == '=')
      return g_ascii_strtoll (fields[i] + len + 1, NULL, 10);
  return -1;
}

typedef struct
{
  GMainLoop *loop;
  char      *out;
  GError    *error;
} Wait;

static void
communicated_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Wait *wait = user_data;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &wait->out, NULL,
                                        &wait->error);
  g_main_loop_quit (wait->loop);
}

typedef struct
{
  GSubprocess *child;
  guint        id;
} Timeout;

static gboolean
timeout_cb (gpointer user_data)
{
  Timeout *timeout = user_data;

  /* a child this program started */
  g_printerr ("%s did not quit: stopped\n", g_subprocess_get_identifier (timeout->child));
  g_subprocess_force_exit (timeout->child);
  timeout->id = 0;
  return G_SOURCE_REMOVE;
}

static Launch
launch (Count      *count,
        const char *palaver,
        gboolean    settle)
{
  const char * const argv[] = { palaver, NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_strdupv (count->envp), "PALAVER_REPORT_STARTUP",
                                         settle ? "settle" : "quit", TRUE);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) fields = NULL;
  Launch result = { FALSE, -1, -1, -1, -1, -1, 0, -1, -1 };
  Wait wait = { NULL, NULL, NULL };
  gint64 start, first_frame, startup, window, cpu, longest_later;
  Timeout timeout = { NULL, 0 };

  g_subprocess_launcher_set_environ (launcher, envp);

  start = g_get_monotonic_time ();
  child = g_subprocess_launcher_spawnv (launcher, argv, &error);
  if (child == NULL)
    {
      g_printerr ("Could not launch %s: %s\n", palaver, error->message);
      return result;
    }

  wait.loop = g_main_loop_new (NULL, FALSE);
  timeout.child = child;
  timeout.id = g_timeout_add_seconds (60, timeout_cb, &timeout);
  g_subprocess_communicate_utf8_async (child, NULL, NULL, communicated_cb, &wait);
  g_main_loop_run (wait.loop);
  g_subprocess_wait (child, NULL, NULL);
  result.exit_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_clear_handle_id (&timeout.id, g_source_remove);
  g_main_loop_unref (wait.loop);

  if (wait.error != NULL)
    {
      g_printerr ("%s: %s\n", palaver, wait.error->message);
      g_error_free (wait.error);
      g_free (wait.out);
      return result;
    }

  fields = g_strsplit_set (wait.out != NULL ? g_strstrip (wait.out) : "", " \n", -1);
  g_free (wait.out);
  first_frame = get_int (fields, "first_frame_us");
  startup = get_int (fields, "startup_us");
  window = get_int (fields, "window_us");
  cpu = get_int (fields, "cpu_us");
  result.shown = (guint) MAX (get_int (fields, "sessions"), 0);
  result.later_frames = (int) get_int (fields, "later_frames");
  longest_later = get_int (fields, "longest_later_frame_us");
  result.longest_later_frame_ms = longest_later >= 0 ? longest_later / 1000.0 : -1;
  if (first_frame <= 0)
    {
      g_printerr ("%s reported no first frame (exit status %d)\n", palaver,
                  g_subprocess_get_exit_status (child));
      return result;
    }

  result.first_frame_ms = (first_frame - start) / 1000.0;
  result.startup_ms = startup > 0 ? (startup - start) / 1000.0 : -1;
  result.window_ms = window > 0 ? (window - start) / 1000.0 : -1;
  result.cpu_ms = cpu / 1000.0;
  result.ok = result.shown == count->n_sessions;
  return result;
}

/* --- figures --- */

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

static double
median (GArray *values)
{
  g_autoptr(GArray) sorted = NULL;
  guint n = values->len;

  if (n == 0)
    return -1;
  sorted = g_array_copy (values);
  g_array_sort (sorted, compare_doubles);
  if (n % 2 == 1)
    return g_array_index (sorted, double, n / 2);
  return (g_array_index (sorted, double, n / 2 - 1) + g_array_index (sorted, double, n / 2)) / 2;
}

static double
extreme (GArray  *values,
         gboolean highest)
{
  double found = -1;

  for (guint i = 0; i < values->len; i++)
    {
      double value = g_array_index (values, double, i);

      if (i == 0 || (highest ? value > found : value < found))
        found = value;
    }
  return found;
}

static gboolean
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          remove_tree (child);
        else
          g_unlink (child);
      }
  return g_rmdir (path) == 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) counts = g_ptr_array_new_with_free_func ((GDestroyNotify) count_free);
  g_autofree char *sessions = g_strdup ("0,5000,10000");
  g_autofree char *backend = g_strdup ("dconf");
  g_auto(GStrv) executables = NULL;
  g_autofree char *root = NULL;
  g_autofree char *self_path = NULL;
  g_auto(GStrv) sizes = NULL;
  const char *default_executables[] = { BENCH_PALAVER, NULL };
  const char * const *palavers;
  guint n_palavers;
  int fill_count = -1;
  int runs = 5;
  gboolean keep = FALSE;
  gboolean settle = FALSE;
  gboolean all_ok = TRUE;
  GOptionEntry entries[] = {
    { "sessions", 0, 0, G_OPTION_ARG_STRING, &sessions,
      "Stored sessions, a comma-separated list (0,5000,10000)", "N,…" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Measured launches per count (5)", "N" },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend,
      "Settings backend: dconf or keyfile (dconf)", "NAME" },
    { "palaver", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &executables,
      "The executable (the build's); given several times, each is launched in turn", "PATH" },
    { "settle", 0, 0, G_OPTION_ARG_NONE, &settle,
      "Measure the frames of the second after the first frame too", NULL },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the settings folders", NULL },
    { "fill", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &fill_count, NULL, NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");

  context = g_option_context_new ("— launch palaver until its first frame");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (fill_count >= 0)
    return fill ((guint) fill_count);

  if (runs < 1 || (g_strcmp0 (backend, "dconf") != 0 && g_strcmp0 (backend, "keyfile") != 0))
    {
      g_printerr ("--runs must be at least 1, --backend dconf or keyfile\n");
      return 2;
    }
  palavers = executables != NULL ? (const char * const *) executables : default_executables;
  n_palavers = g_strv_length ((char **) palavers);
  for (guint p = 0; p < n_palavers; p++)
    {
      if (!g_file_test (palavers[p], G_FILE_TEST_IS_EXECUTABLE))
        {
          g_printerr ("%s is not an executable\n", palavers[p]);
          return 1;
        }
      if (n_palavers > 1)
        printf ("# executable %u: %s\n", p + 1, palavers[p]);
    }

  self_path = g_file_read_link ("/proc/self/exe", &error);
  root = self_path != NULL ? g_dir_make_tmp ("palaver-bench-startup-XXXXXX", &error) : NULL;
  if (root == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  sizes = g_strsplit (sessions, ",", -1);
  for (guint i = 0; sizes[i] != NULL; i++)
    {
      guint64 n;
      Count *count;

      if (!g_ascii_string_to_unsigned (g_strstrip (sizes[i]), 10, 0, 1000000, &n, &error) ||
          (count = count_new (root, (guint) n, backend, self_path, n_palavers, &error)) == NULL)
        {
          g_printerr ("%s\n", error->message);
          g_clear_pointer (&counts, g_ptr_array_unref);
          if (!keep)
            remove_tree (root);
          return 1;
        }
      g_ptr_array_add (counts, count);

      /* not measured: the page cache, fontconfig's cache */
      for (guint p = 0; p < n_palavers; p++)
        launch (count, palavers[p], FALSE);
    }

  for (int run = 1; run <= runs; run++)
    for (guint k = 0; k < counts->len; k++)
      for (guint q = 0; q < n_palavers; q++)
        {
          /* each run starts at another count, and with another executable */
          Count *count = g_ptr_array_index (counts, (k + run - 1) % counts->len);
          guint p = (q + run - 1) % n_palavers;
          Launch result = launch (count, palavers[p], settle);

          all_ok = all_ok && result.ok;
          if (result.ok)
            {
              g_array_append_val (g_ptr_array_index (count->first_frame, p), result.first_frame_ms);
              g_array_append_val (g_ptr_array_index (count->cpu, p), result.cpu_ms);
              if (settle)
                g_array_append_val (g_ptr_array_index (count->longest_later, p),
                                    result.longest_later_frame_ms);
            }
          printf ("bench=startup backend=%s executable=%u sessions=%u run=%d ok=%s shown=%u"
                  " first_frame_ms=%.1f startup_ms=%.1f window_ms=%.1f cpu_ms=%.1f exit_ms=%.1f",
                  backend, p + 1, count->n_sessions, run, result.ok ? "yes" : "no", result.shown,
                  result.first_frame_ms, result.startup_ms, result.window_ms, result.cpu_ms,
                  result.exit_ms);
          if (settle)
            printf (" later_frames=%d longest_later_frame_ms=%.1f", result.later_frames,
                    result.longest_later_frame_ms);
          printf ("\n");
          fflush (stdout);
        }

  for (guint p = 0; p < n_palavers; p++)
    for (guint k = 0; k < counts->len; k++)
      {
        Count *count = g_ptr_array_index (counts, k);
        GArray *first_frame = g_ptr_array_index (count->first_frame, p);

        printf ("bench=startup-summary backend=%s executable=%u sessions=%u runs=%u"
                " median_first_frame_ms=%.1f min_first_frame_ms=%.1f max_first_frame_ms=%.1f"
                " median_cpu_ms=%.1f",
                backend, p + 1, count->n_sessions, first_frame->len, median (first_frame),
                extreme (first_frame, FALSE), extreme (first_frame, TRUE),
                median (g_ptr_array_index (count->cpu, p)));
        if (settle)
          printf (" median_longest_later_frame_ms=%.1f",
                  median (g_ptr_array_index (count->longest_later, p)));
        printf ("\n");
      }
  fflush (stdout);

  g_clear_pointer (&counts, g_ptr_array_unref);
  if (keep)
    g_printerr ("The settings are kept in %s\n", root);
  else
    remove_tree (root);

  return all_ok ? 0 : 1;
}
