/* pal-terminal-view.c: the live output of a terminal a tool call embeds
 *
 * A tool call's "terminal" content names a terminal the agent runs through
 * the client (terminal/create). This shows what the terminal service kept of
 * its output, then appends what arrives, and says how it ended. Without the
 * service (an agent that ran the command itself, or a replayed session whose
 * terminal is gone) it shows the id alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-terminal-view.h"
#include "pal-text-view.h"

/* Beyond this the view drops its oldest text (the service keeps its own). */
#define MAX_SHOWN_CHARS (256 * 1024)

struct _PalTerminalView
{
  AdwBin              parent_instance;

  AcpTerminalService *service;
  char               *terminal_id;
  GtkTextView        *text_view;
  GtkLabel           *status_label;
};

G_DEFINE_FINAL_TYPE (PalTerminalView, pal_terminal_view, ADW_TYPE_BIN)

static void
update_status (PalTerminalView *self)
{
  g_autofree char *output = NULL;
  g_autofree char *status = NULL;
  gboolean truncated = FALSE;
  int exit_status = -1;

  if (self->service == NULL)
    {
      gtk_label_set_text (self->status_label, NULL);
      return;
    }

  output = acp_terminal_service_dup_output (self->service, self->terminal_id, &truncated, &exit_status);
  if (output == NULL)
    status = g_strdup (_("The terminal is no longer available"));
  else if (exit_status < 0)
    status = g_strdup (_("Running…"));
  else if (exit_status > 128)
    /* Translators: %d is a signal number */
    status = g_strdup_printf (_("Killed by signal %d"), exit_status - 128);
  else
    /* Translators: %d is a process exit status */
    status = g_strdup_printf (_("Exited with status %d"), exit_status);

  gtk_label_set_text (self->status_label, status);
}

static void
trim (PalTerminalView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  int excess = gtk_text_buffer_get_char_count (buffer) - MAX_SHOWN_CHARS;

  if (excess > 0)
    {
      GtkTextIter start, cut;

      gtk_text_buffer_get_start_iter (buffer, &start);
      gtk_text_buffer_get_iter_at_offset (buffer, &cut, excess);
      gtk_text_buffer_delete (buffer, &start, &cut);
    }
}

static void
service_terminal_output_cb (AcpTerminalService *service,
                            const char         *terminal_id,
                            const char         *text,
                            PalTerminalView    *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter end;

  if (g_strcmp0 (terminal_id, self->terminal_id) != 0)
    return;

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, text, -1);
  trim (self);
}

static void
service_terminal_exited_cb (AcpTerminalService *service,
                            const char         *terminal_id,
                            PalTerminalView    *self)
{
  if (g_strcmp0 (terminal_id, self->terminal_id) == 0)
    update_status (self);
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

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");

  self->text_view = GTK_TEXT_VIEW (pal_text_view_new ());
  gtk_text_view_set_editable (self->text_view, FALSE);
  gtk_text_view_set_cursor_visible (self->text_view, FALSE);
  gtk_text_view_set_monospace (self->text_view, TRUE);
  gtk_text_view_set_wrap_mode (self->text_view, GTK_WRAP_CHAR);
  gtk_widget_add_css_class (GTK_WIDGET (self->text_view), "tool-output");

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->text_view));
  adw_bin_set_child (ADW_BIN (self), box);
}

/**
 * pal_terminal_view_new:
 * @service: (nullable): the terminal service the agent's terminals run in
 * @terminal_id: the terminal the tool call embeds
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
  self->service = service != NULL ? g_object_ref (service) : NULL;

  if (service != NULL)
    output = acp_terminal_service_dup_output (service, terminal_id, NULL, NULL);

  if (output != NULL)
    {
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), output, -1);
      trim (self);
      g_signal_connect (service, "terminal-output", G_CALLBACK (service_terminal_output_cb), self);
      g_signal_connect (service, "terminal-exited", G_CALLBACK (service_terminal_exited_cb), self);
    }
  else
    {
      g_autofree char *label = g_strdup_printf (_("Terminal %s"), terminal_id);

      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), label, -1);
    }

  update_status (self);

  return GTK_WIDGET (self);
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
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (PAL_IS_TERMINAL_VIEW (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
