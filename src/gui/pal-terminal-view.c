/* pal-terminal-view.c: the output of a command a tool call runs
 *
 * A tool call's "terminal" content names a terminal. When the agent runs it
 * through the client (terminal/create), the terminal service has its
 * output: this shows what the service kept, appends what arrives, and says
 * how it ended. Agents that run commands themselves (codex-acp) send the
 * ids of their own terminals, which the service never knew, as does a
 * session loaded again after its terminals are gone: then the view shows
 * the command and the output the agent reported (streamed in `_meta`, or
 * its raw output), as the tool call row hands them over. Either is a
 * command of the agent, never an error of its own.
 *
 * The output sits in a PalOutputView: a few lines high, following the end
 * while the command runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-markdown.h"
#include "pal-output-view.h"
#include "pal-terminal-view.h"

struct _PalTerminalView
{
  AdwBin              parent_instance;

  AcpTerminalService *service;    /* (nullable): only for a live terminal */
  char               *terminal_id;
  GtkLabel           *command_label;
  GtkLabel           *status_label;
  PalOutputView      *output_view;
  gboolean            held_newline;  /* the output ends with a line break not shown yet */
};

G_DEFINE_FINAL_TYPE (PalTerminalView, pal_terminal_view, ADW_TYPE_BIN)

/* Returns: (transfer full) (nullable): how a command ended, or that it runs */
static char *
describe_status (gboolean    running,
                 int         exit_status,
                 const char *signal_name)
{
  if (running)
    return g_strdup (_("Running…"));
  if (signal_name != NULL)
    /* Translators: %s is the name of a signal, such as SIGTERM */
    return g_strdup_printf (_("Killed by signal %s"), signal_name);
  if (exit_status < 0)
    return NULL;
  if (exit_status > 128)
    /* Translators: %d is a signal number */
    return g_strdup_printf (_("Killed by signal %d"), exit_status - 128);

  /* Translators: %d is a process exit status */
  return g_strdup_printf (_("Exited with status %d"), exit_status);
}

static void
set_status (PalTerminalView *self,
            gboolean         running,
            int              exit_status,
            const char      *signal_name)
{
  g_autofree char *status = describe_status (running, exit_status, signal_name);

  gtk_label_set_text (self->status_label, status);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), status != NULL);
  pal_output_view_set_follow (self->output_view, running);
}

static void
update_live_status (PalTerminalView *self)
{
  g_autofree char *output = NULL;
  int exit_status = -1;

  output = acp_terminal_service_dup_output (self->service, self->terminal_id, NULL, &exit_status);
  set_status (self, output != NULL && exit_status < 0, exit_status, NULL);
}

static void
service_terminal_output_cb (AcpTerminalService *service,
                            const char         *terminal_id,
                            const char         *text,
                            PalTerminalView    *self)
{
  if (g_strcmp0 (terminal_id, self->terminal_id) == 0)
    pal_output_view_append (self->output_view, text, -1);
}

static void
service_terminal_exited_cb (AcpTerminalService *service,
                            const char         *terminal_id,
                            PalTerminalView    *self)
{
  if (g_strcmp0 (terminal_id, self->terminal_id) == 0)
    update_live_status (self);
}

static void
pal_terminal_view_dispose (GObject *object)
{
  PalTerminalView *self = PAL_TERMINAL_VIEW (object);

  if (self->service != NULL)
    g_signal_handlers_disconnect_by_data (self->service, self);
  g_clear_object (&self->service);

  G_OBJECT_CLASS (pal_terminal_view_parent_class)->dispose (object);
}

static void
pal_terminal_view_finalize (GObject *object)
{
  PalTerminalView *self = PAL_TERMINAL_VIEW (object);

  g_free (self->terminal_id);

  G_OBJECT_CLASS (pal_terminal_view_parent_class)->finalize (object);
}

static void
pal_terminal_view_class_init (PalTerminalViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_terminal_view_dispose;
  object_class->finalize = pal_terminal_view_finalize;

  gtk_widget_class_set_css_name (widget_class, "terminalview");
}

static void
pal_terminal_view_init (PalTerminalView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  self->command_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->command_label, 0);
  gtk_label_set_wrap (self->command_label, TRUE);
  gtk_label_set_wrap_mode (self->command_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->command_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->command_label), "monospace");
  pal_label_set_no_hyphens (self->command_label);
  gtk_widget_add_css_class (GTK_WIDGET (self->command_label), "command");
  gtk_widget_set_visible (GTK_WIDGET (self->command_label), FALSE);

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);

  self->output_view = PAL_OUTPUT_VIEW (pal_output_view_new ());

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->command_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->output_view));
  adw_bin_set_child (ADW_BIN (self), box);
}

/**
 * pal_terminal_view_new:
 * @service: (nullable): the terminal service the agent's terminals run in
 * @terminal_id: the terminal the tool call embeds
 *
 * A view of a terminal of the service, when it knows @terminal_id (see
 * pal_terminal_view_get_live()); otherwise of a command the agent ran
 * itself, which pal_terminal_view_set_command(),
 * pal_terminal_view_set_output() (or pal_terminal_view_append_output()) and
 * pal_terminal_view_set_state() fill.
 *
 * Returns: (transfer floating): a new view
 */
GtkWidget *
pal_terminal_view_new (AcpTerminalService *service,
                       const char         *terminal_id)
{
  PalTerminalView *self;
  g_autofree char *output = NULL;

  g_return_val_if_fail (service == NULL || ACP_IS_TERMINAL_SERVICE (service), NULL);
  g_return_val_if_fail (terminal_id != NULL, NULL);

  self = g_object_new (PAL_TYPE_TERMINAL_VIEW, NULL);
  self->terminal_id = g_strdup (terminal_id);

  if (service != NULL)
    output = acp_terminal_service_dup_output (service, terminal_id, NULL, NULL);

  if (output != NULL)
    {
      self->service = g_object_ref (service);
      pal_output_view_set_text (self->output_view, output, -1);
      g_signal_connect (service, "terminal-output", G_CALLBACK (service_terminal_output_cb), self);
      g_signal_connect (service, "terminal-exited", G_CALLBACK (service_terminal_exited_cb), self);
      update_live_status (self);
    }
  else
    {
      /* the agent's own terminal: nothing until it says */
      gtk_widget_set_visible (GTK_WIDGET (self->output_view), FALSE);
    }

  return GTK_WIDGET (self);
}

/**
 * pal_terminal_view_get_live:
 * @self: a #PalTerminalView
 *
 * Returns: whether the view shows a terminal of the terminal service (the
 *   agent ran the command through the client)
 */
gboolean
pal_terminal_view_get_live (PalTerminalView *self)
{
  g_return_val_if_fail (PAL_IS_TERMINAL_VIEW (self), FALSE);

  return self->service != NULL;
}

/**
 * pal_terminal_view_set_command:
 * @self: a #PalTerminalView
 * @command: (nullable): the command line the agent ran
 */
void
pal_terminal_view_set_command (PalTerminalView *self,
                               const char      *command)
{
  g_autofree char *line = NULL;

  g_return_if_fail (PAL_IS_TERMINAL_VIEW (self));

  if (command != NULL && *command != '\0')
    line = g_strconcat ("$ ", command, NULL);
  gtk_label_set_text (self->command_label, line);
  gtk_widget_set_visible (GTK_WIDGET (self->command_label), line != NULL);
}

/**
 * pal_terminal_view_set_output:
 * @self: a view of a command the agent ran itself
 * @output: (nullable): what the command printed, as far as the agent said
 *
 * Shows the output the agent reported of its own command; when it goes on
 * from what is shown, only the rest is added.
 */
void
pal_terminal_view_set_output (PalTerminalView *self,
                              const char      *output)
{
  g_return_if_fail (PAL_IS_TERMINAL_VIEW (self));
  g_return_if_fail (self->service == NULL);

  if (output == NULL)
    output = "";
  /* a line break at the end shows no empty line */
  pal_output_view_update_text (self->output_view, output);
  self->held_newline = g_str_has_suffix (output, "\n");
  gtk_widget_set_visible (GTK_WIDGET (self->output_view), *output != '\0');
}

/**
 * pal_terminal_view_append_output:
 * @self: a view of a command the agent ran itself
 * @text: more of its output
 *
 * Adds to the output, as the agent streams it. As with
 * pal_terminal_view_set_output(), a line break at the end waits for what
 * comes after it.
 */
void
pal_terminal_view_append_output (PalTerminalView *self,
                                 const char      *text)
{
  gsize length;

  g_return_if_fail (PAL_IS_TERMINAL_VIEW (self));
  g_return_if_fail (self->service == NULL);
  g_return_if_fail (text != NULL);

  length = strlen (text);
  if (length == 0)
    return;

  if (self->held_newline)
    pal_output_view_append (self->output_view, "\n", 1);
  self->held_newline = text[length - 1] == '\n';
  if (self->held_newline)
    length--;
  pal_output_view_append (self->output_view, text, (gssize) length);
  gtk_widget_set_visible (GTK_WIDGET (self->output_view), TRUE);
}

/**
 * pal_terminal_view_set_state:
 * @self: a view of a command the agent ran itself
 * @running: whether the command still runs
 * @exit_status: its exit status, or -1 when not known
 * @signal_name: (nullable): the signal that ended it, when the agent named one
 *
 * Shows whether the command runs, or how it ended.
 */
void
pal_terminal_view_set_state (PalTerminalView *self,
                             gboolean         running,
                             int              exit_status,
                             const char      *signal_name)
{
  g_return_if_fail (PAL_IS_TERMINAL_VIEW (self));
  g_return_if_fail (self->service == NULL);

  set_status (self, running, exit_status, signal_name);
}

/**
 * pal_terminal_view_dup_text:
 * @self: a #PalTerminalView
 *
 * Returns: (transfer full): the output shown
 */
char *
pal_terminal_view_dup_text (PalTerminalView *self)
{
  g_return_val_if_fail (PAL_IS_TERMINAL_VIEW (self), NULL);

  return pal_output_view_dup_text (self->output_view);
}

/**
 * pal_terminal_view_get_output_view:
 * @self: a #PalTerminalView
 *
 * Returns: (transfer none): the view of the output
 */
PalOutputView *
pal_terminal_view_get_output_view (PalTerminalView *self)
{
  g_return_val_if_fail (PAL_IS_TERMINAL_VIEW (self), NULL);

  return self->output_view;
}

/**
 * pal_terminal_view_dup_status:
 * @self: a #PalTerminalView
 *
 * Returns: (transfer full): the status line shown ("" for none)
 */
char *
pal_terminal_view_dup_status (PalTerminalView *self)
{
  g_return_val_if_fail (PAL_IS_TERMINAL_VIEW (self), NULL);

  return g_strdup (gtk_label_get_text (self->status_label));
}
