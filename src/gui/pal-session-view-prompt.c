/* pal-session-view-prompt.c: what the person sends from the session view
 *
 * The composer's prompt goes to the session when it is ready, asks for the
 * session to be opened again when it is closed or shown from its history,
 * is held while a new session starts, and waits in the session's queue
 * while a turn runs. A prompt's files are read on a worker thread before
 * it goes. The end of every turn is told ("turn-ended"), and one the agent
 * refused for want of a sign-in asks for one. The options bar's changes go
 * to the session too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-session-manager.h"
#include "pal-session-view-private.h"

/* A stop reason in words, or NULL for the ordinary end of a turn. */
static char *
describe_stop_reason (const char *reason)
{
  if (reason == NULL || g_str_equal (reason, "end_turn"))
    return NULL;
  if (g_str_equal (reason, "cancelled"))
    return g_strdup (_("The turn was stopped."));
  if (g_str_equal (reason, "max_tokens"))
    return g_strdup (_("The turn ended: the agent reached its token limit."));
  if (g_str_equal (reason, "max_turn_requests"))
    return g_strdup (_("The turn ended: the agent reached its limit of requests in one turn."));
  if (g_str_equal (reason, "refusal"))
    return g_strdup (_("The agent refused to continue."));

  /* Translators: %s is a stop reason the app does not know, as the agent sent it */
  return g_strdup_printf (_("The turn ended: “%s”."), reason);
}

typedef struct
{
  PalSessionView *self;
  AcpSession     *session;
  PalPrompt      *prompt;
} PromptData;

static void
prompt_data_free (PromptData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->session);
  g_object_unref (data->prompt);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PromptData, prompt_data_free)

/* The agent died in the middle of the turn: the prompt is offered again in
 * the composer, where sending it starts the agent and reopens the session
 * (unless the person wrote something else meanwhile). */
static void
offer_again (PalSessionView *self,
             AcpSession     *session,
             PalPrompt      *prompt)
{
  g_autoptr(PalPrompt) written = NULL;

  if (session != self->session)
    return;

  written = pal_composer_dup_prompt (self->composer);
  if (written == NULL)
    pal_composer_set_prompt (self->composer, prompt);
}

static void
prompt_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  AcpSession *session = ACP_SESSION (object);
  g_autoptr(PromptData) data = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *text = NULL;

  reason = acp_session_prompt_finish (session, result, &error);

  /* a failed turn (or a dead agent) left its own notice in the transcript;
   * one refused for want of a sign-in can be sent again after one */
  if (error != NULL)
    {
      g_autofree char *failure = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      if (pal_session_manager_error_is_auth_required (error))
        {
          g_signal_emit (data->self, _pal_session_view_signals[SIGN_IN_REQUESTED], 0, session, data->prompt);
          failure = g_strdup (_("The agent asks you to sign in."));
        }
      else
        {
          if (acp_session_get_state (session) == ACP_SESSION_STATE_FAILED &&
              !acp_agent_get_stop_requested (acp_session_get_agent (session)))
            offer_again (data->self, session, data->prompt);
          /* Translators: %s is the error, as the agent or the app tells it */
          failure = g_strdup_printf (_("The turn failed: %s"), error->message);
        }
      g_signal_emit (data->self, _pal_session_view_signals[TURN_ENDED], 0, session, failure);
      return;
    }

  text = describe_stop_reason (reason);
  if (text != NULL)
    acp_transcript_append_notice (acp_session_get_transcript (session),
                                  g_str_equal (reason, "cancelled") ? ACP_NOTICE_SEVERITY_INFO
                                                                    : ACP_NOTICE_SEVERITY_WARNING,
                                  text, NULL, NULL);
  g_signal_emit (data->self, _pal_session_view_signals[TURN_ENDED], 0, session, text);
}

/* What the person should know of what went out (files sent as links, an
 * image left out) is said in the session's transcript, before the turn */
static void
send_blocks (PromptData *data,
             JsonArray  *blocks,
             GStrv       notes)
{
  AcpSession *session = data->session;

  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    acp_transcript_append_notice (acp_session_get_transcript (session), ACP_NOTICE_SEVERITY_INFO,
                                  notes[i], NULL, NULL);

  if (session == data->self->session)
    pal_chat_view_prompt_sent (data->self->chat_view);
  acp_session_prompt_async (session, blocks, data->self->cancellable, prompt_cb, data);
}

static void
blocks_built_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  PromptData *data = user_data;
  g_auto(GStrv) notes = NULL;
  g_autoptr(JsonArray) blocks = NULL;

  blocks = pal_prompt_build_blocks_finish (PAL_PROMPT (object), result, &notes, NULL);
  if (blocks == NULL)
    {
      prompt_data_free (data);
      return;
    }

  /* the session went on meanwhile (another prompt, or it closed): the
   * prompt comes back to the composer */
  if (acp_session_get_state (data->session) != ACP_SESSION_STATE_READY)
    {
      offer_again (data->self, data->session, data->prompt);
      prompt_data_free (data);
      return;
    }

  send_blocks (data, blocks, notes);
}

/* What the composer sends: to the session, or to be opened again with it,
 * or held for the session that starts */
static void
take_prompt (PalSessionView *self,
             PalPrompt      *prompt)
{
  if (self->session == NULL && self->history != NULL && !self->starting)
    {
      g_signal_emit (self, _pal_session_view_signals[REOPEN_REQUESTED], 0, prompt);
      return;
    }

  if (self->session == NULL)
    {
      if (self->starting && !self->holding)
        {
          self->holding = TRUE;
          adw_status_page_set_description (ADW_STATUS_PAGE (self->starting_page),
                                           _("What you wrote is sent once the session has started."));
          _pal_session_view_update_state (self);
          g_signal_emit (self, _pal_session_view_signals[PROMPT_HELD], 0, prompt);
        }
      return;
    }

  if (acp_session_get_state (self->session) == ACP_SESSION_STATE_CLOSED ||
      acp_session_get_state (self->session) == ACP_SESSION_STATE_FAILED)
    {
      g_signal_emit (self, _pal_session_view_signals[REOPEN_REQUESTED], 0, prompt);
      return;
    }

  pal_session_view_send_prompt (self, self->session, prompt);
}

/* The next entry of the queue, when the session can take it now */
static void
send_queued (PalSessionView *self)
{
  AcpSessionState state = self->session != NULL ? acp_session_get_state (self->session)
                                                : ACP_SESSION_STATE_NEW;
  g_autoptr(PalPrompt) prompt = NULL;

  if (self->queue == NULL || self->starting)
    return;
  /* ready, or to be opened again to take it */
  if (state != ACP_SESSION_STATE_READY && state != ACP_SESSION_STATE_CLOSED &&
      state != ACP_SESSION_STATE_FAILED && !(self->session == NULL && self->history != NULL))
    return;

  prompt = pal_prompt_queue_next (self->queue);
  if (prompt != NULL)
    take_prompt (self, prompt);
}

static void
composer_submit_cb (PalComposer    *composer,
                    PalPrompt      *prompt,
                    PalSessionView *self)
{
  /* an entry that was edited goes back to its place */
  if (self->queue != NULL && pal_prompt_queue_get_editing (self->queue))
    {
      pal_prompt_queue_add (self->queue, prompt);
      send_queued (self);
      return;
    }

  /* one written while a turn runs waits for its end */
  if (self->queue != NULL && self->session != NULL &&
      acp_session_get_state (self->session) == ACP_SESSION_STATE_PROMPTING)
    {
      pal_prompt_queue_add (self->queue, prompt);
      return;
    }

  take_prompt (self, prompt);
}

static void
queue_send_now_cb (PalPromptQueueView *view,
                   guint               position,
                   PalSessionView     *self)
{
  pal_prompt_queue_send_now (self->queue, position);
  /* the end of the turn stopped sends it */
  if (!pal_session_view_stop (self))
    send_queued (self);
}

static void
queue_edit_cb (PalPromptQueueView *view,
               guint               position,
               PalSessionView     *self)
{
  g_autoptr(PalPrompt) written = pal_composer_dup_prompt (self->composer);
  g_autoptr(PalPrompt) prompt = NULL;

  /* what is written is not thrown away */
  if (written != NULL)
    {
      pal_prompt_queue_view_set_notice (view, _("Send or clear what you are writing first, then edit."));
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }

  prompt = pal_prompt_queue_take_for_edit (self->queue, position);
  pal_composer_set_prompt (self->composer, prompt);
  pal_composer_grab_focus (self->composer);
}

static void
queue_resume_cb (PalPromptQueueView *view,
                 PalSessionView     *self)
{
  pal_prompt_queue_go_on (self->queue);
  send_queued (self);
}

static void
composer_stop_cb (PalComposer    *composer,
                  PalSessionView *self)
{
  pal_session_view_stop (self);
}

static void
option_set_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PalSessionView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!acp_session_set_config_option_finish (ACP_SESSION (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      acp_transcript_append_notice (acp_session_get_transcript (ACP_SESSION (object)),
                                    ACP_NOTICE_SEVERITY_WARNING,
                                    _("The agent did not accept the setting"), error->message, NULL);
      pal_options_bar_revert (pal_composer_get_options_bar (self->composer));
    }
}

static void
mode_set_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PalSessionView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!acp_session_set_mode_finish (ACP_SESSION (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      acp_transcript_append_notice (acp_session_get_transcript (ACP_SESSION (object)),
                                    ACP_NOTICE_SEVERITY_WARNING,
                                    _("The agent did not change its mode"), error->message, NULL);
      pal_options_bar_revert (pal_composer_get_options_bar (self->composer));
    }
}

static void
config_option_changed_cb (PalOptionsBar  *bar,
                          const char     *config_id,
                          JsonNode       *value,
                          PalSessionView *self)
{
  if (self->session != NULL)
    acp_session_set_config_option_async (self->session, config_id, value, self->cancellable,
                                         option_set_cb, g_object_ref (self));
}

static void
mode_changed_cb (PalOptionsBar  *bar,
                 const char     *mode_id,
                 PalSessionView *self)
{
  if (self->session != NULL)
    acp_session_set_mode_async (self->session, mode_id, self->cancellable,
                                mode_set_cb, g_object_ref (self));
}

/**
 * pal_session_view_send_prompt:
 * @self: a #PalSessionView
 * @session: a session ready for a prompt, shown here or not
 * @prompt: the prompt
 *
 * Sends @prompt to @session. A turn that ends other than by
 * end_turn leaves a notice in its transcript; when @session is the one shown,
 * the chat follows its end.
 *
 * Returns: whether it was sent (%FALSE when @session is not ready)
 */
gboolean
pal_session_view_send_prompt (PalSessionView *self,
                              AcpSession     *session,
                              PalPrompt      *prompt)
{
  AcpAgentCapabilities caps;
  PromptData *data;

  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), FALSE);
  g_return_val_if_fail (ACP_IS_SESSION (session), FALSE);
  g_return_val_if_fail (PAL_IS_PROMPT (prompt), FALSE);

  if (acp_session_get_state (session) != ACP_SESSION_STATE_READY)
    return FALSE;

  data = g_new0 (PromptData, 1);
  data->self = g_object_ref (self);
  data->session = g_object_ref (session);
  data->prompt = g_object_ref (prompt);
  caps = acp_agent_get_capabilities (acp_session_get_agent (session));

  /* files are read on a worker thread first */
  if (pal_prompt_needs_reading (prompt))
    {
      pal_prompt_build_blocks_async (prompt, caps, self->cancellable, blocks_built_cb, data);
      return TRUE;
    }

  {
    g_auto(GStrv) notes = NULL;
    g_autoptr(JsonArray) blocks = pal_prompt_to_blocks (prompt, caps, &notes);

    send_blocks (data, blocks, notes);
  }

  return TRUE;
}

/* The composer, its options bar and the queue, to what is above */
void
_pal_session_view_connect_prompts (PalSessionView *self)
{
  PalOptionsBar *bar = pal_composer_get_options_bar (self->composer);

  g_signal_connect (self->composer, "submit", G_CALLBACK (composer_submit_cb), self);
  g_signal_connect (self->composer, "stop", G_CALLBACK (composer_stop_cb), self);
  g_signal_connect (bar, "config-option-changed", G_CALLBACK (config_option_changed_cb), self);
  g_signal_connect (bar, "mode-changed", G_CALLBACK (mode_changed_cb), self);
  g_signal_connect (self->queue_view, "send-now", G_CALLBACK (queue_send_now_cb), self);
  g_signal_connect (self->queue_view, "edit", G_CALLBACK (queue_edit_cb), self);
  g_signal_connect (self->queue_view, "resume", G_CALLBACK (queue_resume_cb), self);
}
