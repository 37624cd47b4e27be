/* pal-sign-in-terminal.c: a sign-in that runs in a terminal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A "terminal" sign-in method is the agent's own login, a text interface
 * (`claude auth login`, say): this window runs its command in a VTE
 * terminal for the person to follow. Exit status 0 means signed in: the
 * window says "finished" with TRUE and closes. Any other end shows why,
 * with Try Again. Cancel, or closing the window, stops what runs.
 *
 * The command gets a pseudo-terminal of its own and leads a new session,
 * so a process group of its own, like the agents (acp-process-group.h):
 * stopping it signals the whole group, SIGTERM then SIGKILL, and it is
 * killed should Palaver die first. It is spawned on the main thread with
 * g_spawn_async() rather than vte_terminal_spawn_async(), which forks in a
 * worker thread: the death signal follows the thread that forked, and
 * GLib ends idle worker threads.
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <vte/vte.h>

#include "acp-process-group.h"
#include "pal-sign-in-terminal.h"

/* How long the command gets to end after SIGTERM before SIGKILL. */
#define STOP_GRACE_MS 1000

struct _PalSignInTerminal
{
  AdwWindow       parent_instance;

  AdwWindowTitle *window_title;
  GtkLabel       *status_label;
  GtkWidget      *retry_button;
  VteTerminal    *terminal;

  char           *description;
  GStrv           argv;
  GStrv           envp;      /* the whole environment */
  char           *cwd;
  GPid            pid;       /* 0: nothing runs */
  char           *problem;
  gboolean        finished;  /* "finished" was emitted */
};

G_DEFINE_FINAL_TYPE (PalSignInTerminal, pal_sign_in_terminal, ADW_TYPE_WINDOW)

enum {
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  VtePty *pty;
  GPid    parent;
} ChildSetup;

/* Between fork and exec. */
static void
child_setup (gpointer user_data)
{
  ChildSetup *setup = user_data;

  /* a new session on the pseudo-terminal: a process group of its own */
  vte_pty_child_setup (setup->pty);
  /* the death signal (setpgid fails for a session leader: nothing lost) */
  acp_process_group_child_setup (GINT_TO_POINTER (setup->parent));
}

static void
show_status (PalSignInTerminal *self,
             const char        *text,
             gboolean           is_error)
{
  gtk_label_set_text (self->status_label, text);
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
}

static void
fail (PalSignInTerminal *self,
      char              *problem)
{
  g_free (self->problem);
  self->problem = problem;
  show_status (self, problem, TRUE);
  gtk_widget_set_visible (self->retry_button, TRUE);
  gtk_widget_grab_focus (self->retry_button);
}

static void
group_ended_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  acp_process_group_end_finish (result, NULL);
}

/* Stops what is left of the group @pid: the command, and whatever it
 * started (in a thread: it watches /proc). */
static void
end_group (GPid pid)
{
  acp_process_group_end_async (pid, STOP_GRACE_MS, NULL, group_ended_cb, NULL);
}

static void
run (PalSignInTerminal *self)
{
  g_autoptr(VtePty) pty = NULL;
  g_autoptr(GError) error = NULL;
  ChildSetup setup;
  GPid pid;

  g_clear_pointer (&self->problem, g_free);
  gtk_widget_set_visible (self->retry_button, FALSE);
  vte_terminal_reset (self->terminal, TRUE, TRUE);

  pty = vte_pty_new_sync (VTE_PTY_DEFAULT, NULL, &error);
  if (pty == NULL)
    {
      /* Translators: %s says why */
      fail (self, g_strdup_printf (_("The terminal could not be opened: %s"), error->message));
      return;
    }
  vte_terminal_set_pty (self->terminal, pty);

  setup.pty = pty;
  setup.parent = getpid ();
  if (!g_spawn_async (self->cwd, self->argv, self->envp,
                      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH_FROM_ENVP,
                      child_setup, &setup, &pid, &error))
    {
      /* Translators: %s says why */
      fail (self, g_strdup_printf (_("The sign-in could not be started: %s"), error->message));
      return;
    }

  self->pid = pid;
  vte_terminal_watch_child (self->terminal, pid);
  show_status (self, self->description, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->terminal));
}

static void
child_exited_cb (PalSignInTerminal *self,
                 int                status)
{
  GPid pid = self->pid;

  self->pid = 0;
  if (pid != 0)
    end_group (pid);

  /* cancelled: the window only waited for the end */
  if (self->finished)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }

  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    {
      self->finished = TRUE;
      g_object_ref (self);
      g_signal_emit (self, signals[FINISHED], 0, TRUE);
      gtk_window_destroy (GTK_WINDOW (self));
      g_object_unref (self);
      return;
    }

  if (WIFSIGNALED (status))
    /* Translators: %d is a signal number */
    fail (self, g_strdup_printf (_("The sign-in was stopped by signal %d. The terminal may tell why."),
                                 WTERMSIG (status)));
  else
    /* Translators: %d is the exit status of the sign-in command */
    fail (self, g_strdup_printf (_("The sign-in did not succeed: it ended with exit status %d. "
                                   "The terminal may tell why."), WEXITSTATUS (status)));
}

static void
retry_clicked_cb (PalSignInTerminal *self)
{
  if (self->pid == 0 && !self->finished)
    run (self);
}

/**
 * pal_sign_in_terminal_cancel:
 * @self: a #PalSignInTerminal
 *
 * Stops the command (and everything it started) and closes the window;
 * "finished" says %FALSE unless it was said already.
 */
void
pal_sign_in_terminal_cancel (PalSignInTerminal *self)
{
  g_return_if_fail (PAL_IS_SIGN_IN_TERMINAL (self));

  g_object_ref (self);
  if (!self->finished)
    {
      self->finished = TRUE;
      g_signal_emit (self, signals[FINISHED], 0, FALSE);
    }

  if (self->pid != 0)
    {
      /* out of sight until the terminal saw its command end */
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      end_group (self->pid);
    }
  else
    gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

static gboolean
pal_sign_in_terminal_close_request (GtkWindow *window)
{
  pal_sign_in_terminal_cancel (PAL_SIGN_IN_TERMINAL (window));

  return TRUE;
}

static void
pal_sign_in_terminal_dispose (GObject *object)
{
  PalSignInTerminal *self = PAL_SIGN_IN_TERMINAL (object);

  /* destroyed with a command still running (Palaver quits) */
  if (self->pid != 0)
    {
      end_group (self->pid);
      self->pid = 0;
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_SIGN_IN_TERMINAL);

  G_OBJECT_CLASS (pal_sign_in_terminal_parent_class)->dispose (object);
}

static void
pal_sign_in_terminal_finalize (GObject *object)
{
  PalSignInTerminal *self = PAL_SIGN_IN_TERMINAL (object);

  g_free (self->description);
  g_strfreev (self->argv);
  g_strfreev (self->envp);
  g_free (self->cwd);
  g_free (self->problem);

  G_OBJECT_CLASS (pal_sign_in_terminal_parent_class)->finalize (object);
}

static void
pal_sign_in_terminal_class_init (PalSignInTerminalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = pal_sign_in_terminal_dispose;
  object_class->finalize = pal_sign_in_terminal_finalize;
  window_class->close_request = pal_sign_in_terminal_close_request;

  signals[FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  g_type_ensure (VTE_TYPE_TERMINAL);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-sign-in-terminal.ui");
  gtk_widget_class_bind_template_child (widget_class, PalSignInTerminal, window_title);
  gtk_widget_class_bind_template_child (widget_class, PalSignInTerminal, status_label);
  gtk_widget_class_bind_template_child (widget_class, PalSignInTerminal, retry_button);
  gtk_widget_class_bind_template_child (widget_class, PalSignInTerminal, terminal);
  gtk_widget_class_bind_template_callback (widget_class, pal_sign_in_terminal_cancel);
  gtk_widget_class_bind_template_callback (widget_class, retry_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, child_exited_cb);
}

static void
pal_sign_in_terminal_init (PalSignInTerminal *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * pal_sign_in_terminal_new:
 * @parent: (nullable): the window to be modal for
 * @agent_name: the agent's name
 * @method_name: the sign-in method's name
 * @description: (nullable): the method's description
 *
 * Returns: (transfer none): the window, not shown yet; it destroys itself
 *   once done
 */
PalSignInTerminal *
pal_sign_in_terminal_new (GtkWindow  *parent,
                          const char *agent_name,
                          const char *method_name,
                          const char *description)
{
  PalSignInTerminal *self;
  g_autofree char *title = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (agent_name != NULL, NULL);
  g_return_val_if_fail (method_name != NULL, NULL);

  /* goes with its window, stopping what runs */
  self = g_object_new (PAL_TYPE_SIGN_IN_TERMINAL,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
  /* Translators: %s is an agent's name */
  title = g_strdup_printf (_("Sign In to %s"), agent_name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, method_name);

  if (description != NULL)
    {
      g_autofree char *stripped = g_strstrip (g_strdup (description));

      if (*stripped != '\0')
        g_string_append_printf (text, "%s ", stripped);
    }
  g_string_append (text, _("Follow the agent in the terminal below; this window closes once you are signed in."));
  self->description = g_strdup (text->str);
  show_status (self, self->description, FALSE);

  return self;
}

/**
 * pal_sign_in_terminal_start:
 * @self: a #PalSignInTerminal
 * @argv: the command line
 * @env: (nullable): "NAME=VALUE" entries set on top of Palaver's environment
 *   (TERM among them: pal_session_manager_sign_in_command_async() sets it)
 * @cwd: (nullable): the working directory
 *
 * Shows the window and runs the command in it.
 */
void
pal_sign_in_terminal_start (PalSignInTerminal  *self,
                            const char * const *argv,
                            const char * const *env,
                            const char         *cwd)
{
  char **envp = g_get_environ ();

  g_return_if_fail (PAL_IS_SIGN_IN_TERMINAL (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (self->argv == NULL);

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *eq = strchr (env[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL || eq == env[i])
        continue;
      name = g_strndup (env[i], eq - env[i]);
      envp = g_environ_setenv (envp, name, eq + 1, TRUE);
    }

  self->argv = g_strdupv ((char **) argv);
  self->envp = envp;
  self->cwd = g_strdup (cwd);

  gtk_window_present (GTK_WINDOW (self));
  run (self);
}

GPid
pal_sign_in_terminal_get_pid (PalSignInTerminal *self)
{
  g_return_val_if_fail (PAL_IS_SIGN_IN_TERMINAL (self), 0);

  return self->pid;
}

const char *
pal_sign_in_terminal_get_problem (PalSignInTerminal *self)
{
  g_return_val_if_fail (PAL_IS_SIGN_IN_TERMINAL (self), NULL);

  return self->problem;
}

/* Returns: (transfer none): the VteTerminal */
GtkWidget *
pal_sign_in_terminal_get_terminal (PalSignInTerminal *self)
{
  g_return_val_if_fail (PAL_IS_SIGN_IN_TERMINAL (self), NULL);

  return GTK_WIDGET (self->terminal);
}
