/* pal-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "pal-application-private.h"
#include "pal-preferences-window.h"
#include "pal-startup-report.h"
#include "pal-window.h"

struct _PalApplication
{
  AdwApplication parent_instance;

  /* The context handed down to windows; each created on first use. */
  GSettings *settings;
  PalAgentStore *agent_store;
  PalMcpServerStore *mcp_server_store;
  SoupSession *soup_session;
  PalSessionStore *session_store;
  PalSessionManager *session_manager;
  PalTranscriptStore *transcript_store;
  /* the stored sessions, read while GTK starts */
  PalSessionStoreReading *session_reading;

  GCancellable *cancellable;
  /* SIGTERM, SIGINT, SIGHUP: quit as Ctrl+Q does */
  guint signal_ids[3];
};

G_DEFINE_FINAL_TYPE (PalApplication, pal_application, ADW_TYPE_APPLICATION)

/* The main window, created when there is none; one per application. */
static PalWindow *
ensure_window (PalApplication *self)
{
  PalWindow *window;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (PAL_IS_WINDOW (l->data))
        return l->data;
    }

  window = pal_window_new (GTK_APPLICATION (self),
                          pal_application_get_session_manager (self),
                          pal_application_get_settings (self));
  pal_window_set_transcript_store (window, pal_application_get_transcript_store (self));
  pal_startup_report_watch (GTK_WINDOW (window),
                            G_LIST_MODEL (pal_application_get_session_store (self)));
  return window;
}

static void
pal_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (ensure_window (PAL_APPLICATION (app))));
}

typedef struct
{
  PalApplication *self;
  char           *agent;
  char           *folder;
  char           *prompt;
} NewRequest;

static void
new_request_free (NewRequest *request)
{
  g_clear_object (&request->self);
  g_free (request->agent);
  g_free (request->folder);
  g_free (request->prompt);
  g_free (request);
}

static void
start_requested_session (NewRequest *request)
{
  PalWindow *window = ensure_window (request->self);
  g_autofree char *agent_id = NULL;
  const char *found;

  if (request->agent != NULL)
    {
      found = _pal_application_find_agent (pal_application_get_agent_store (request->self),
                                           request->agent);
      if (found == NULL)
        {
          g_autofree char *message = NULL;

          /* Translators: %s is an agent name given on the command line */
          message = g_strdup_printf (_("There is no agent named “%s”"), request->agent);
          gtk_window_present (GTK_WINDOW (window));
          pal_window_add_toast (window, message);
          return;
        }
      agent_id = g_strdup (found);
    }
  else
    {
      agent_id = pal_agent_store_dup_default_id (pal_application_get_agent_store (request->self));
    }

  gtk_window_present (GTK_WINDOW (window));
  pal_window_start_session_with_prompt (window, agent_id, request->folder, request->prompt);
}

static void
detected_for_request_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  NewRequest *request = user_data;

  pal_agent_store_detect_finish (PAL_AGENT_STORE (object), result, NULL);
  if (!g_cancellable_is_cancelled (request->self->cancellable))
    start_requested_session (request);
  g_application_release (G_APPLICATION (request->self));
  new_request_free (request);
}

/* palaver [--new [--agent NAME] [DIR] [--prompt TEXT]] [--open SESSION [--agent NAME]];
 * --export and --search never get here, and --prompt was checked
 * (pal-application-cli.c) */
static int
pal_application_command_line (GApplication            *app,
                              GApplicationCommandLine *command_line)
{
  PalApplication *self = PAL_APPLICATION (app);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autofree const char **remaining = NULL;
  const char *agent = NULL;
  const char *open_id = NULL;
  const char *prompt = NULL;
  gboolean new_session = FALSE;

  g_variant_dict_lookup (options, "new", "b", &new_session);
  g_variant_dict_lookup (options, "agent", "&s", &agent);
  g_variant_dict_lookup (options, "open", "&s", &open_id);
  g_variant_dict_lookup (options, "prompt", "&s", &prompt);
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &remaining);

  if (open_id != NULL && new_session)
    {
      g_application_command_line_printerr (command_line, "%s\n",
                                           _("Use either --new or --open, not both."));
      return 1;
    }
  if (!new_session &&
      ((agent != NULL && open_id == NULL) || (remaining != NULL && remaining[0] != NULL)))
    {
      g_application_command_line_printerr (command_line, "%s\n",
                                           _("An agent can only be given with --new or --open, a "
                                             "folder only with --new."));
      return 1;
    }

  if (new_session)
    {
      g_autoptr(GFile) folder = NULL;
      NewRequest *request;

      if (remaining != NULL && remaining[0] != NULL && remaining[1] != NULL)
        {
          g_application_command_line_printerr (command_line, "%s\n", _("Give one folder only."));
          return 1;
        }

      folder = remaining != NULL && remaining[0] != NULL
        ? g_application_command_line_create_file_for_arg (command_line, remaining[0])
        : g_file_new_for_path (g_application_command_line_get_cwd (command_line));
      if (g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_DIRECTORY)
        {
          g_autofree char *name = g_file_get_parse_name (folder);
          /* Translators: %s is a path given on the command line */
          g_autofree char *message = g_strdup_printf (_("“%s” is not a folder."), name);

          g_application_command_line_printerr (command_line, "%s\n", message);
          return 1;
        }

      request = g_new0 (NewRequest, 1);
      request->self = g_object_ref (self);
      request->agent = g_strdup (agent);
      request->folder = g_file_get_path (folder);
      request->prompt = g_strdup (prompt);

      /* a preset named on the command line may not be detected yet, and
       * neither may the default agent (the demo agent stands in until then) */
      if (agent == NULL || _pal_application_find_agent (pal_application_get_agent_store (self), agent) == NULL)
        {
          /* no window yet: the application would quit meanwhile */
          g_application_hold (app);
          pal_agent_store_detect_async (pal_application_get_agent_store (self), self->cancellable,
                                        detected_for_request_cb, request);
          return 0;
        }

      start_requested_session (request);
      new_request_free (request);
      return 0;
    }

  if (open_id != NULL)
    {
      g_autofree char *message = NULL;
      g_autoptr(PalSessionKey) key = NULL;

      key = _pal_application_resolve_session (pal_application_get_session_store (self),
                                              pal_application_get_agent_store (self),
                                              open_id, agent, &message);

      if (key == NULL)
        {
          g_application_command_line_printerr (command_line, "%s\n", message);
          return 1;
        }
      g_application_activate (app);
      pal_window_open_session (ensure_window (self), key);
      return 0;
    }

  g_application_activate (app);
  return 0;
}

static int
pal_application_handle_local_options (GApplication *app,
                                      GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
      return 0;
    }

  /* before the application registers: no window, no display, and a
   * running instance left alone */
  return _pal_application_run_local (options);
}

static void
about_action_cb (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  PalApplication *self = user_data;
  static const char *developers[] = { "The Palaver developers", NULL };
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  adw_show_about_window (parent,
                         "application-name", _("Palaver"),
                         "application-icon", APPLICATION_ID,
                         "developer-name", _("The Palaver developers"),
                         "version", PACKAGE_VERSION,
                         "website", "https://github.com/palaverapp/palaver",
                         "issue-url", "https://github.com/palaverapp/palaver/issues",
                         "developers", developers,
                         /* Translators: replace with your names, one per line */
                         "translator-credits", _("translator-credits"),
                         "copyright", "© 2026 The Palaver developers",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "comments", _("Chat with coding agents that speak the Agent Client Protocol."),
                         NULL);
}

static void
show_session_action_cb (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  PalApplication *self = user_data;
  PalWindow *window = ensure_window (self);

  g_autoptr(PalSessionKey) key = pal_session_key_new_from_variant (parameter);

  gtk_window_present (GTK_WINDOW (window));
  pal_window_open_session (window, key);
}

static void
quit_action_cb (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  PalApplication *self = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* close (not destroy) so each window saves its size */
  while (windows != NULL)
    {
      GtkWindow *window = windows->data;

      windows = windows->next;
      gtk_window_close (window);
    }

  g_application_quit (G_APPLICATION (self));
}

/* Presents the preferences window, one at a time, and returns it. */
static PalPreferencesWindow *
present_preferences (PalApplication *self)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWindow *window = NULL;

  /* one preferences window at a time */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (PAL_IS_PREFERENCES_WINDOW (l->data))
      window = l->data;

  if (window == NULL)
    {
      window = GTK_WINDOW (pal_preferences_window_new (pal_application_get_agent_store (self),
                                                       pal_application_get_mcp_server_store (self),
                                                       pal_application_get_soup_session (self)));
      gtk_window_set_application (window, GTK_APPLICATION (self));
      if (parent != NULL && !PAL_IS_PREFERENCES_WINDOW (parent))
        gtk_window_set_transient_for (window, parent);
    }

  gtk_window_present (window);
  return PAL_PREFERENCES_WINDOW (window);
}

static void
preferences_action_cb (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  present_preferences (user_data);
}

/* The settings of one agent (its environment, say, for an API key), from
 * an error that concerns it */
static void
edit_agent_action_cb (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  PalApplication *self = user_data;
  PalAgentProfile *profile = pal_agent_store_lookup (pal_application_get_agent_store (self),
                                                     g_variant_get_string (parameter, NULL));
  PalPreferencesWindow *preferences = present_preferences (self);

  if (profile != NULL)
    pal_preferences_window_edit_agent (preferences, profile);
}

static const GActionEntry app_actions[] = {
  { "preferences", preferences_action_cb },
  { "edit-agent", edit_agent_action_cb, "s" },
  { "about", about_action_cb },
  { "quit", quit_action_cb },
  { "show-session", show_session_action_cb, PAL_SESSION_KEY_VARIANT_TYPE_STRING },
};

static gboolean
quit_signal_cb (gpointer user_data)
{
  PalApplication *self = user_data;

  /* the way Ctrl+Q goes: windows save their state, agents are stopped */
  g_debug ("Quitting on a signal");
  g_action_group_activate_action (G_ACTION_GROUP (self), "quit", NULL);

  return G_SOURCE_CONTINUE;
}

static void
pal_application_startup (GApplication *app)
{
  PalApplication *self = PAL_APPLICATION (app);
  const int quit_signals[G_N_ELEMENTS (self->signal_ids)] = { SIGTERM, SIGINT, SIGHUP };

  /* A long list takes a while to read: on another core, while GTK opens
   * the display and loads its styles. */
  if (self->session_store == NULL && self->session_reading == NULL)
    self->session_reading = pal_session_store_read_start (pal_application_get_settings (self));

  G_APPLICATION_CLASS (pal_application_parent_class)->startup (app);

  /* Killed by a signal's default action, the application would leave its
   * agents to themselves: their process groups are stopped on quitting. */
  for (guint i = 0; i < G_N_ELEMENTS (quit_signals); i++)
    self->signal_ids[i] = g_unix_signal_add (quit_signals[i], quit_signal_cb, self);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         (const char *[]) { "<Control>comma", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]) { "<Control>q", NULL });
  pal_startup_report_startup_done ();
}

static void
agents_stopped_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  gboolean *done = user_data;

  pal_session_manager_shutdown_finish (PAL_SESSION_MANAGER (object), result, NULL);
  *done = TRUE;
}

static void
pal_application_shutdown (GApplication *app)
{
  PalApplication *self = PAL_APPLICATION (app);

  /* Agents get their grace period to exit (stdin closed, then SIGTERM, then
   * SIGKILL); the main loop has stopped, so run the context until then. */
  if (self->session_manager != NULL)
    {
      gboolean done = FALSE;
      gint64 deadline = g_get_monotonic_time () + 8 * G_USEC_PER_SEC;

      pal_session_manager_shutdown_async (self->session_manager, NULL, agents_stopped_cb, &done);
      while (!done && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, TRUE);
    }

  g_cancellable_cancel (self->cancellable);
  if (self->soup_session != NULL)
    soup_session_abort (self->soup_session);
  for (guint i = 0; i < G_N_ELEMENTS (self->signal_ids); i++)
    g_clear_handle_id (&self->signal_ids[i], g_source_remove);

  G_APPLICATION_CLASS (pal_application_parent_class)->shutdown (app);
}

static void
pal_application_dispose (GObject *object)
{
  PalApplication *self = PAL_APPLICATION (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->session_reading, pal_session_store_reading_free);
  g_clear_object (&self->session_manager);
  /* writes what is still queued */
  g_clear_object (&self->transcript_store);
  g_clear_object (&self->session_store);
  g_clear_object (&self->mcp_server_store);
  g_clear_object (&self->agent_store);
  g_clear_object (&self->soup_session);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (pal_application_parent_class)->dispose (object);
}

static void
pal_application_class_init (PalApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = pal_application_dispose;

  app_class->activate = pal_application_activate;
  app_class->command_line = pal_application_command_line;
  app_class->handle_local_options = pal_application_handle_local_options;
  app_class->startup = pal_application_startup;
  app_class->shutdown = pal_application_shutdown;
}

static void
pal_application_init (PalApplication *self)
{
  static const GOptionEntry entries[] = {
    { "new", 'n', 0, G_OPTION_ARG_NONE, NULL,
      N_("Start a new session in FOLDER (default: the current folder)"), NULL },
    { "agent", 'a', 0, G_OPTION_ARG_STRING, NULL,
      N_("The agent for --new, --open or --export, by name or id"), N_("NAME") },
    { "prompt", 'p', 0, G_OPTION_ARG_STRING, NULL,
      N_("With --new: send TEXT to the agent once the session has started"), N_("TEXT") },
    { "open", 'o', 0, G_OPTION_ARG_STRING, NULL,
      N_("Open the stored session SESSION, an id or AGENT:ID (or give --agent)"),
      N_("SESSION") },
    { "export", 'e', 0, G_OPTION_ARG_STRING, NULL,
      N_("Write the stored history of SESSION to FILE, or to the standard output, and quit"),
      N_("SESSION") },
    { "format", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("With --export: markdown (the default) or jsonl, the updates as stored"), N_("FORMAT") },
    { "search", 's', 0, G_OPTION_ARG_STRING, NULL,
      N_("Print the stored sessions whose messages match TEXT, with the matches, and quit"),
      N_("TEXT") },
    { "thoughts", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("With --search: search the agent’s thoughts too"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Show the version and quit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_("[FOLDER|FILE]") },
    { NULL }
  };

  self->cancellable = g_cancellable_new ();
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}

PalApplication *
pal_application_new (void)
{
  return g_object_new (PAL_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "resource-base-path", RESOURCE_BASE,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       NULL);
}

/**
 * pal_application_get_settings:
 * @self: a #PalApplication
 *
 * Returns: (transfer none): the application's settings
 */
GSettings *
pal_application_get_settings (PalApplication *self)
{
  g_return_val_if_fail (PAL_IS_APPLICATION (self), NULL);

  if (self->settings == NULL)
    self->settings = g_settings_new (APPLICATION_ID);
  return self->settings;
}

static void
detect_agents_cb (GObject      *source_object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!pal_agent_store_detect_finish (PAL_AGENT_STORE (source_object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Could not look for installed agents: %s", error->message);
}

/**
 * pal_application_get_agent_store:
 * @self: a #PalApplication
 *
 * The agent profiles; the first call starts looking for installed agents.
 *
 * Returns: (transfer none): the agent store
 */
PalAgentStore *
pal_application_get_agent_store (PalApplication *self)
{
  g_return_val_if_fail (PAL_IS_APPLICATION (self), NULL);

  if (self->agent_store == NULL)
    {
      g_autoptr(PalSecretStore) secrets = pal_secret_store_new ();

      self->agent_store = pal_agent_store_new (pal_application_get_settings (self));
      /* API keys go to the desktop's keyring when one answers */
      pal_agent_store_set_secret_store (self->agent_store, secrets);
      pal_agent_store_detect_async (self->agent_store, self->cancellable,
                                    detect_agents_cb, NULL);
    }
  return self->agent_store;
}

/**
 * pal_application_get_mcp_server_store:
 * @self: a #PalApplication
 *
 * Returns: (transfer none): the MCP server store
 */
PalMcpServerStore *
pal_application_get_mcp_server_store (PalApplication *self)
{
  g_return_val_if_fail (PAL_IS_APPLICATION (self), NULL);

  if (self->mcp_server_store == NULL)
    self->mcp_server_store = pal_mcp_server_store_new (pal_application_get_settings (self));
  return self->mcp_server_store;
}

/**
 * pal_application_get_soup_session:
 * @self: a #PalApplication
 *
 * Returns: (transfer none): the HTTP session for MCP servers
 */
SoupSession *
pal_application_get_soup_session (PalApplication *self)
{
  g_return_val_if_fail (PAL_IS_APPLICATION (self), NULL);

  if (self->soup_session == NULL)
    {
      g_autofree char *user_agent = g_strdup_printf ("%s/%s", PACKAGE_NAME, PACKAGE_VERSION);

      self->soup_session = soup_session_new_with_options ("user-agent", user_agent, NULL);
    }
  return self->soup_session;
}

/**
 * pal_application_get_session_store:
 * @self: a #PalApplication
 *
 * Returns: (transfer none): the list of sessions
 */
PalSessionStore *
pal_application_get_session_store (PalApplication *self)
{
  g_return_val_if_fail (PAL_IS_APPLICATION (self), NULL);

  if (self->session_store != NULL)
    return self->session_store;

  if (self->session_reading != NULL)
    self->session_store = pal_session_store_new_from_reading (g_steal_pointer (&self->session_reading));
  else
    self->session_store = pal_session_store_new (pal_application_get_settings (self));
  return self->session_store;
}

/**
 * pal_application_get_session_manager:
 * @self: a #PalApplication
 *
 * Returns: (transfer none): the session manager, which runs the agents
 */
PalSessionManager *
pal_application_get_session_manager (PalApplication *self)
{
  g_return_val_if_fail (PAL_IS_APPLICATION (self), NULL);

  if (self->session_manager == NULL)
    {
      /* The one pacer: the windows report their frames to it (they take
       * it from the manager, with its services), and every agent's
       * messages keep in step with them. */
      g_autoptr(AcpPacer) pacer = acp_pacer_new ();

      self->session_manager = pal_session_manager_new (pal_application_get_agent_store (self),
                                                       pal_application_get_session_store (self),
                                                       pal_application_get_mcp_server_store (self),
                                                       pacer);
    }
  return self->session_manager;
}

/**
 * pal_application_get_transcript_store:
 * @self: a #PalApplication
 *
 * Returns: (transfer none): the stored history of the sessions
 */
PalTranscriptStore *
pal_application_get_transcript_store (PalApplication *self)
{
  g_return_val_if_fail (PAL_IS_APPLICATION (self), NULL);

  if (self->transcript_store == NULL)
    self->transcript_store = pal_transcript_store_new (NULL);
  return self->transcript_store;
}
