/* pal-window-access.c: the agent asks for a file outside the session's folders
 *
 * The file service refuses a path outside the folders of the session
 * unless someone allows it: the window asks the person, one request at a
 * time, saying what the path really is when the agent's words hide it.
 * Requests that come meanwhile wait in a queue; one answered or withdrawn
 * while it waited is not asked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "acp-fs-access-request.h"
#include "pal-window-private.h"

/* What the path really is, when the agent's words hide it: a file of this
 * very process (its environment holds API keys), of another process, or a
 * link inside the project that leads out of it. (transfer full) */
static char *
describe_access_path (AcpFsAccessRequest *request)
{
  const char *path = acp_fs_access_request_get_path (request);
  const char *requested = acp_fs_access_request_get_requested_path (request);
  g_autofree char *own = g_strdup_printf ("/proc/%d", (int) getpid ());
  GString *what = g_string_new (NULL);

  if (g_str_equal (path, own) ||
      (g_str_has_prefix (path, own) && path[strlen (own)] == '/'))
    g_string_append (what, _("This is a file of Palaver’s own process: its environment and memory "
                             "hold your API keys and other secrets."));
  else if (g_str_has_prefix (path, "/proc/"))
    g_string_append (what, _("This is a file of another running process."));

  if (g_strcmp0 (requested, path) != 0)
    {
      if (what->len > 0)
        g_string_append_c (what, ' ');
      /* Translators: the first %s is the path the agent asked for, the second where it leads */
      g_string_append_printf (what, _("The agent asked for “%s”, which leads to “%s”."), requested, path);
    }

  return g_string_free (what, what->len == 0);
}

static void show_next_access (PalWindow *self);

static void
access_response_cb (AdwMessageDialog   *dialog,
                    const char         *response,
                    AcpFsAccessRequest *request)
{
  PalWindow *self = PAL_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));

  if (g_str_equal (response, "allow"))
    acp_fs_access_request_allow (request);
  else
    acp_fs_access_request_deny (request);

  if (self->access_dialog == GTK_WIDGET (dialog))
    {
      self->access_dialog = NULL;
      show_next_access (self);
    }
}

static void
access_withdrawn_cb (GCancellable     *cancellable,
                     AdwMessageDialog *dialog)
{
  PalWindow *self = PAL_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));

  /* the agent stopped waiting: the question is moot */
  if (self->access_dialog == GTK_WIDGET (dialog))
    self->access_dialog = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));
  show_next_access (self);
}

/* One question at a time: requests that come meanwhile wait in a queue (an
 * agent may ask for many files at once), and the dialog says how many. */
static void
update_access_waiting (PalWindow *self)
{
  guint n = g_queue_get_length (&self->access_queue);
  g_autofree char *text = NULL;

  if (self->access_dialog == NULL || self->access_waiting == NULL)
    return;

  gtk_widget_set_visible (self->access_waiting, n > 0);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more request waits", "%u more requests wait", n), n);
  gtk_label_set_text (GTK_LABEL (self->access_waiting), text);
}

/* The record of the live session that asks: its agent and id name it
 * (two agents may use the same id). */
static PalSessionRecord *
find_live_record (PalWindow          *self,
                  AcpFsAccessRequest *request)
{
  PalSessionKey *key;

  key = pal_session_manager_find_live_key (self->manager, acp_fs_access_request_get_agent (request),
                                           acp_fs_access_request_get_session_id (request));
  if (key == NULL)
    return NULL;

  return _pal_window_lookup_record (self, key);
}

static void
show_next_access (PalWindow *self)
{
  g_autoptr(AcpFsAccessRequest) request = NULL;
  PalSessionRecord *record;
  g_autofree char *body = NULL;
  g_autofree char *what = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *extra;
  const char *path;
  gboolean write;

  if (self->access_dialog != NULL)
    return;

  /* those answered or withdrawn while they waited are skipped */
  while ((request = g_queue_pop_head (&self->access_queue)) != NULL &&
         (acp_fs_access_request_get_answered (request) ||
          g_cancellable_is_cancelled (acp_fs_access_request_get_cancellable (request))))
    g_clear_object (&request);
  if (request == NULL)
    return;

  path = acp_fs_access_request_get_path (request);
  write = acp_fs_access_request_get_write (request);
  what = describe_access_path (request);
  if (write)
    /* Translators: %s is a file path */
    body = g_strdup_printf (_("The agent wants to write “%s”, which is outside the folders of this session."),
                            path);
  else
    /* Translators: %s is a file path */
    body = g_strdup_printf (_("The agent wants to read “%s”, which is outside the folders of this session."),
                            path);
  if (what != NULL)
    {
      char *longer = g_strconcat (body, "\n\n", what, NULL);

      g_free (body);
      body = longer;
    }

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                       write ? _("Allow Writing Outside the Project?")
                                                             : _("Allow Reading Outside the Project?"),
                                                       body));
  extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  record = find_live_record (self, request);
  if (record != NULL && *pal_session_record_get_title (record) != '\0')
    gtk_box_append (GTK_BOX (extra), gtk_label_new (pal_session_record_get_title (record)));
  self->access_waiting = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->access_waiting, "dim-label");
  gtk_box_append (GTK_BOX (extra), self->access_waiting);
  adw_message_dialog_set_extra_child (dialog, extra);
  adw_message_dialog_add_responses (dialog, "deny", _("_Deny"), "allow", _("_Allow"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "allow",
                                              write || what != NULL ? ADW_RESPONSE_DESTRUCTIVE
                                                                    : ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "deny");
  adw_message_dialog_set_close_response (dialog, "deny");
  g_signal_connect_data (dialog, "response", G_CALLBACK (access_response_cb),
                         g_object_ref (request), (GClosureNotify) (void (*) (void)) g_object_unref, 0);
  g_cancellable_connect (acp_fs_access_request_get_cancellable (request),
                         G_CALLBACK (access_withdrawn_cb), g_object_ref (dialog), g_object_unref);
  self->access_dialog = GTK_WIDGET (dialog);
  update_access_waiting (self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The agent asks for a file outside the session's folders: the person says
 * yes or no; nothing outside is touched without that. */
static gboolean
fs_access_request_cb (AcpFsService       *service,
                      const char         *session_id,
                      const char         *path,
                      gboolean            write,
                      AcpFsAccessRequest *request,
                      PalWindow          *self)
{
  g_queue_push_tail (&self->access_queue, g_object_ref (request));
  update_access_waiting (self);
  show_next_access (self);

  return TRUE;
}

void
_pal_window_setup_file_access (PalWindow *self)
{
  g_signal_connect_object (pal_session_manager_get_fs_service (self->manager), "access-request",
                           G_CALLBACK (fs_access_request_cb), self, 0);
}
