/* pal-window-error.c: what a failure becomes in the window
 *
 * A failure that left no transcript to hold it (the agent did not even
 * start) shows the error page: the agent's words behind Details, Retry,
 * the agent's log and its settings. One after the agent started goes into
 * the session's transcript; one of a session not on screen is a toast; an
 * agent that asks for a sign-in gets the sign-in dialog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-a11y.h"
#include "pal-window-private.h"

/**
 * _pal_window_show_error:
 *
 * @agent_id: (nullable): the agent profile concerned
 *
 * For a failure that left no transcript to hold it (the agent did not even
 * start): an error page with the agent's words behind Details, and Retry;
 * and the agent's settings, where a missing API key or option goes.
 */
void
_pal_window_show_error (PalWindow    *self,
                        const char   *title,
                        const char   *agent_id,
                        const GError *error)
{
  PalAgentProfile *profile = agent_id != NULL
    ? pal_agent_store_lookup (pal_session_manager_get_agent_store (self->manager), agent_id) : NULL;
  const char *message = error->message;
  const char *newline = strchr (message, '\n');
  g_autofree char *summary = newline != NULL ? g_strndup (message, newline - message) : g_strdup (message);
  g_autofree char *escaped = NULL;

  /* "… exited with status 7. Its last error output:" introduces the
   * details; the summary keeps the sentence before it */
  if (g_str_has_suffix (summary, ":"))
    {
      char *last_stop = g_strrstr (summary, ". ");

      if (last_stop != NULL)
        last_stop[1] = '\0';
    }

  adw_status_page_set_title (self->error_page, title);
  /* the description is markup, and the words may be the agent's */
  escaped = g_markup_escape_text (summary, -1);
  adw_status_page_set_description (self->error_page, escaped);
  gtk_label_set_text (self->error_details, message);
  g_free (self->error_agent_id);
  self->error_agent_id = g_strdup (agent_id);
  /* the demo has nothing to set */
  gtk_widget_set_visible (self->error_agent_button,
                          profile != NULL && !pal_agent_profile_get_is_demo (profile));
  /* What the agent said and wrote, when one ran, is in its log: linked
   * rather than quoted (its last stderr lines are often its own noise) */
  {
    g_autoptr(AcpAgent) agent = pal_session_manager_dup_last_agent (self->manager, agent_id);

    gtk_widget_set_visible (self->error_log_button, agent != NULL);
    gtk_widget_set_visible (GTK_WIDGET (self->error_expander), agent == NULL && newline != NULL);
  }
  gtk_stack_set_visible_child_name (self->content_stack, "error");
}

void
_pal_window_show_retry_error (PalWindow    *self,
                              const char   *title,
                              Attempt      *attempt,
                              const GError *error)
{
  _pal_window_show_error (self, title, attempt->agent_id, error);
  g_clear_pointer (&self->retry_attempt, _pal_attempt_free);
  self->retry_attempt = attempt;
  _pal_window_update_actions (self);
}

/**
 * _pal_window_handle_error:
 *
 * What a failed start, open or resume becomes: nothing when cancelled, the
 * sign-in dialog when the agent asks for it, the session's own transcript
 * when it has one (the session put its notice there), else the error page.
 */
void
_pal_window_handle_error (PalWindow     *self,
                          PalSessionKey *key,
                          const char    *agent_id,
                          const char    *folder,
                          const char    *title,
                          const GError  *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (pal_session_manager_error_is_auth_required (error) && agent_id != NULL &&
      !_pal_window_sign_in_did_not_take (self, agent_id))
    {
      _pal_window_sign_in (self, _pal_attempt_new (self, key, agent_id, folder, NULL));
      return;
    }

  if (key != NULL && !pal_session_key_equal0 (key, self->current))
    {
      /* not on screen: a toast says it */
      pal_window_add_toast (self, error->message);
      return;
    }

  /* its history is on screen: it stays, with the failure under it */
  if (key != NULL && _pal_window_history_show_error (self, key, title, error))
    return;

  if (key != NULL && pal_session_manager_lookup (self->manager, key) != NULL)
    {
      AcpSession *session = pal_session_manager_lookup (self->manager, key);

      /* a failure after the agent started is in the transcript already,
       * unless the session itself refused the operation */
      if (acp_session_get_state (session) != ACP_SESSION_STATE_FAILED)
        acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_ERROR,
                                      title, error->message, NULL);
      _pal_window_show_session (self, key);
      return;
    }

  _pal_window_show_error (self, title, agent_id, error);
}

static void
retry_clicked_cb (PalWindow *self)
{
  Attempt *attempt = g_steal_pointer (&self->retry_attempt);

  if (attempt != NULL)
    _pal_attempt_retry (attempt);
  else if (self->current != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.retry-session", NULL);
}

static void
error_log_clicked_cb (PalWindow *self)
{
  g_autoptr(AcpAgent) agent = pal_session_manager_dup_last_agent (self->manager, self->error_agent_id);

  if (agent != NULL)
    _pal_window_present_agent_log (self, agent,
                                   _pal_window_agent_name (self, self->error_agent_id));
}

static void
error_agent_clicked_cb (PalWindow *self)
{
  if (self->error_agent_id != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "app.edit-agent", "s", self->error_agent_id);
}

void
_pal_window_build_error_page (PalWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *retry = pal_a11y_mnemonic_button_new (_("_Retry"));

  self->error_details = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_selectable (self->error_details, TRUE);
  gtk_label_set_wrap (self->error_details, TRUE);
  gtk_label_set_wrap_mode (self->error_details, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->error_details, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_details), "monospace");
  self->error_expander = GTK_EXPANDER (gtk_expander_new (_("Details")));
  gtk_expander_set_child (self->error_expander, GTK_WIDGET (self->error_details));

  gtk_widget_set_halign (retry, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (retry, "pill");
  gtk_widget_add_css_class (retry, "suggested-action");
  g_signal_connect_swapped (retry, "clicked", G_CALLBACK (retry_clicked_cb), self);

  self->error_agent_button = gtk_button_new_with_mnemonic (_("_Agent Settings…"));
  gtk_widget_set_halign (self->error_agent_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->error_agent_button, "pill");
  gtk_widget_set_visible (self->error_agent_button, FALSE);
  g_signal_connect_swapped (self->error_agent_button, "clicked", G_CALLBACK (error_agent_clicked_cb), self);

  gtk_box_append (GTK_BOX (box), retry);
  gtk_box_append (GTK_BOX (box), self->error_agent_button);

  self->error_log_button = gtk_button_new_with_mnemonic (_("Agent _Log"));
  gtk_widget_set_halign (self->error_log_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->error_log_button, "pill");
  gtk_widget_set_visible (self->error_log_button, FALSE);
  g_signal_connect_swapped (self->error_log_button, "clicked", G_CALLBACK (error_log_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), self->error_log_button);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->error_expander));

  self->error_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->error_page, "dialog-error-symbolic");
  adw_status_page_set_child (self->error_page, box);
  gtk_stack_add_named (self->content_stack, GTK_WIDGET (self->error_page), "error");
}
