/* pal-session-view.c: one session: its transcript, its composer, its status
 *
 * Binds an AcpSession to a PalChatView and a PalComposer: the composer is
 * busy while a turn runs and sends only when the session is ready; while a
 * load replays history a bar moves as its updates arrive; usage (context
 * and cost) shows under the transcript when the agent reports it. Prompts
 * go straight to the session; a turn that ends other than by end_turn leaves
 * a notice in the transcript (a failed turn gets one from the session). A
 * prompt written in a closed or failed session asks, with "reopen-requested",
 * for the session to be opened again: the window sends it once it is ready. A
 * prompt the agent refused for want of a sign-in asks, with
 * "sign-in-requested", for one: the window sends it again after. The
 * session's commands, modes and config options (its list models) and its
 * usage are bound to the composer, its options bar and the usage line.
 *
 * History. A session that is not open shows the history kept of it
 * (pal_session_view_set_history()), read-only: writing asks for the
 * session to be opened again. While it opens, the history stays on screen
 * (a load's replay fills the session's own transcript meanwhile, unseen);
 * once it is open, its own transcript replaces the history, at the same
 * place: a replay of the same history shows no change.
 *
 * Queue. A prompt written while a turn runs waits in the session's queue
 * (pal_session_view_set_queue(): the queue is the session's, kept by the
 * window), shown above the composer. Every turn's end is told with
 * "turn-ended", with what went wrong if anything did: the window sends the
 * next entry then, whichever session is shown. Send Now on an entry stops
 * the turn (its end sends the entry), Edit puts the entry in the composer
 * (sending it puts it back in its place), Resume goes on after a turn that
 * ended badly. The composer recalls the prompts of the transcript shown
 * with Up and Down.
 *
 * The last prompt of the transcript can be edited and sent again while the
 * agent can be asked (its message shows the button, see PalMessageRow): the
 * action session.edit-prompt puts its text back in the composer, and what
 * the person sends then is a new prompt. (ACP has no way to take back a
 * turn: the one answered stays in the session.)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-message-item.h"
#include "acp-permission-item.h"
#include "acp-transcript.h"
#include "pal-a11y.h"
#include "pal-chat-view.h"
#include "pal-composer.h"
#include "pal-prompt-queue-view.h"
#include "pal-session-manager.h"
#include "pal-session-view-private.h"

/* How long a stopped turn may take to end before the person is offered to
 * stop the agent itself (it may be waiting on a slow model or a tool). */
#define STOP_AGENT_OFFER_SECONDS 5

enum {
  PROP_0,
  PROP_SESSION,
  PROP_HISTORY,
  PROP_RESEND_PROMPT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

guint _pal_session_view_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalSessionView, pal_session_view, ADW_TYPE_BIN)

/* The history is on screen: there is no session, or it is not open yet
 * (it opens, or it could not be opened) */
static gboolean
showing_history (PalSessionView *self)
{
  return self->history != NULL && !self->opened;
}

/* What the chat shows: the history, or the session's own transcript. Going
 * from one to the other keeps the place: the end, or the item at the top. */
static void
show_transcript (PalSessionView *self)
{
  GListModel *model = NULL;
  GListModel *shown = pal_chat_view_get_model (self->chat_view);
  gboolean at_bottom = pal_chat_view_get_stick_to_bottom (self->chat_view);
  int top = pal_chat_view_get_top_item (self->chat_view);

  if (showing_history (self))
    model = G_LIST_MODEL (self->history);
  else if (self->session != NULL)
    model = G_LIST_MODEL (acp_session_get_transcript (self->session));

  if (model == shown)
    return;

  pal_chat_view_set_folder (self->chat_view,
                            self->session != NULL ? acp_session_get_cwd (self->session) : NULL);
  pal_chat_view_set_model (self->chat_view, model);
  pal_composer_set_recall_model (self->composer, model);
  /* the same items (a replay of the same history), or the history above
   * new ones (a resume): the place is the same */
  if (shown != NULL && model != NULL && !at_bottom && top >= 0)
    pal_chat_view_scroll_to_item (self->chat_view, (guint) top, FALSE);
}

static void
update_opened (PalSessionView *self)
{
  AcpSessionState state = self->session != NULL ? acp_session_get_state (self->session)
                                                : ACP_SESSION_STATE_NEW;

  if (self->opened || self->session == NULL)
    return;

  /* open, or open once (closed, or failed after) */
  if (state == ACP_SESSION_STATE_READY || state == ACP_SESSION_STATE_PROMPTING ||
      state == ACP_SESSION_STATE_CLOSING || state == ACP_SESSION_STATE_CLOSED ||
      (state == ACP_SESSION_STATE_FAILED && self->history == NULL))
    self->opened = TRUE;

  /* the session's own transcript holds it now */
  if (self->opened && self->history != NULL)
    {
      g_clear_object (&self->history);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);
    }
}

/* A new session's empty transcript says what to do. */
static void
update_empty_hint (PalSessionView *self)
{
  gboolean empty = self->session != NULL &&
                   acp_session_get_state (self->session) == ACP_SESSION_STATE_READY &&
                   g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (self->session))) == 0;

  gtk_widget_set_visible (self->empty_hint, empty);
}

static void track_last_prompt (PalSessionView *self,
                               GListModel     *model,
                               guint           position,
                               guint           removed,
                               guint           added);

/* Frames a permission request's row is waited for, to take the focus */
#define FOCUS_PERMISSION_FRAMES 30

static gboolean
focus_permission_tick_cb (GtkWidget     *widget,
                          GdkFrameClock *frame_clock,
                          gpointer       user_data)
{
  PalSessionView *self = PAL_SESSION_VIEW (user_data);
  AcpPermissionItem *pending = pal_session_view_get_pending_permission (self);

  if (pending == NULL || pending != self->focus_permission ||
      pal_chat_view_focus_item (self->chat_view, pending) ||
      ++self->focus_permission_frames >= FOCUS_PERMISSION_FRAMES)
    {
      self->focus_permission_tick = 0;
      g_clear_object (&self->focus_permission);
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

/* A permission request came: it takes the focus, unless the person is
 * busy elsewhere (the focus out of this view, or a prompt being written) */
static void
permission_came (PalSessionView    *self,
                 AcpPermissionItem *item)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  g_autofree char *text = pal_composer_dup_text (self->composer);

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || *text != '\0' ||
      (focus != NULL && !gtk_widget_is_ancestor (focus, GTK_WIDGET (self))))
    return;

  g_set_object (&self->focus_permission, item);
  self->focus_permission_frames = 0;
  pal_chat_view_scroll_to_bottom (self->chat_view);
  if (self->focus_permission_tick == 0)
    self->focus_permission_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->chat_view),
                                                                focus_permission_tick_cb,
                                                                self, NULL);
}

static void
transcript_items_changed_cb (GListModel     *model,
                             guint           position,
                             guint           removed,
                             guint           added,
                             PalSessionView *self)
{
  update_empty_hint (self);
  track_last_prompt (self, model, position, removed, added);

  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (ACP_IS_PERMISSION_ITEM (item) &&
          acp_permission_item_get_state (ACP_PERMISSION_ITEM (item)) == ACP_PERMISSION_STATE_PENDING)
        permission_came (self, ACP_PERMISSION_ITEM (item));
    }
}

/* What the agent is waited for, where it may never answer. */
typedef enum
{
  WAITING_NONE,
  WAITING_CANCEL,  /* to end a turn that was stopped */
  WAITING_OPEN,    /* to start, or to create, load or resume the session */
} Waiting;

static Waiting
waiting_for (PalSessionView *self)
{
  AcpSessionState state;

  if (self->session == NULL)
    return self->starting && !self->start_paused ? WAITING_OPEN : WAITING_NONE;
  if (acp_session_get_cancelling (self->session))
    return WAITING_CANCEL;

  state = acp_session_get_state (self->session);
  if (state == ACP_SESSION_STATE_CREATING || state == ACP_SESSION_STATE_LOADING ||
      state == ACP_SESSION_STATE_RESUMING)
    return WAITING_OPEN;

  return WAITING_NONE;
}

static guint
replay_count (PalSessionView *self)
{
  return self->session != NULL ? acp_session_get_replay_count (self->session) : 0;
}

static gboolean
stop_agent_offer_cb (gpointer user_data)
{
  PalSessionView *self = user_data;

  /* a replay that goes on is an answer */
  if (self->waiting == WAITING_OPEN && replay_count (self) != self->waiting_count)
    {
      self->waiting_count = replay_count (self);
      return G_SOURCE_CONTINUE;
    }

  self->stop_agent_offer_id = 0;
  gtk_label_set_text (self->stopping_label,
                      self->waiting == WAITING_CANCEL ? _("The agent has not ended the turn yet.")
                                                      : _("The agent has not answered yet."));
  gtk_widget_set_visible (self->stop_agent_button, TRUE);
  gtk_revealer_set_reveal_child (self->stopping_revealer, TRUE);

  return G_SOURCE_REMOVE;
}

/* A stopped turn says so until the agent ends it; one that does not end,
 * and a start or an opening the agent does not answer, get the offer to
 * stop the agent itself. */
static void
update_stopping (PalSessionView *self)
{
  Waiting waiting = waiting_for (self);

  if ((int) waiting == self->waiting)
    return;

  self->waiting = waiting;
  self->waiting_count = replay_count (self);
  g_clear_handle_id (&self->stop_agent_offer_id, g_source_remove);
  gtk_widget_set_visible (self->stop_agent_button, FALSE);
  gtk_label_set_text (self->stopping_label, _("Stopping…"));
  /* an opening shows its own progress until the offer */
  gtk_revealer_set_reveal_child (self->stopping_revealer, waiting == WAITING_CANCEL);
  if (waiting != WAITING_NONE)
    self->stop_agent_offer_id = g_timeout_add_seconds (STOP_AGENT_OFFER_SECONDS,
                                                       stop_agent_offer_cb, self);
}

/* The last prompt is offered to be sent again while the agent can be
 * asked: a closed or failed session is opened again to send it */
static void
update_resend (PalSessionView *self)
{
  AcpSessionState state = self->session != NULL ? acp_session_get_state (self->session)
                                                : ACP_SESSION_STATE_NEW;
  AcpMessageItem *prompt = NULL;

  if (state == ACP_SESSION_STATE_READY || state == ACP_SESSION_STATE_CLOSED ||
      state == ACP_SESSION_STATE_FAILED)
    prompt = self->last_prompt;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.edit-prompt", prompt != NULL);
  if (g_set_object (&self->resend_prompt, prompt))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESEND_PROMPT]);
}

static gboolean
is_prompt (gpointer item)
{
  return ACP_IS_MESSAGE_ITEM (item) &&
         acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_USER;
}

/* The last prompt among the items before @end, looked for from there down
 * to @start; keeps the one known when there is none */
static gboolean
find_last_prompt (PalSessionView *self,
                  GListModel     *model,
                  guint           start,
                  guint           end)
{
  for (guint i = end; i > start; i--)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i - 1);

      if (is_prompt (item))
        {
          g_set_object (&self->last_prompt, ACP_MESSAGE_ITEM (item));
          self->last_prompt_position = i - 1;
          return TRUE;
        }
    }

  return FALSE;
}

/* Items come at the end of a transcript: only they are looked at; when
 * anything before the last prompt changed, it is looked for again */
static void
track_last_prompt (PalSessionView *self,
                   GListModel     *model,
                   guint           position,
                   guint           removed,
                   guint           added)
{
  if (self->last_prompt != NULL && position <= self->last_prompt_position)
    {
      g_clear_object (&self->last_prompt);
      find_last_prompt (self, model, 0, g_list_model_get_n_items (model));
    }
  else
    {
      find_last_prompt (self, model, position, position + added);
    }
  update_resend (self);
}

/* What the composer must know of where the prompt goes: the session's
 * folders (a file from elsewhere asks first) and, once its agent has
 * answered initialize, what the agent takes */
static void
update_composer_target (PalSessionView *self)
{
  AcpAgent *agent = self->session != NULL ? acp_session_get_agent (self->session) : NULL;
  g_autoptr(GStrvBuilder) folders = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  if (agent != NULL && acp_agent_get_state (agent) == ACP_AGENT_STATE_READY)
    {
      AcpAgentCapabilities caps = acp_agent_get_capabilities (agent);

      pal_composer_set_agent_capabilities (self->composer, &caps);
    }
  else
    pal_composer_set_agent_capabilities (self->composer, NULL);

  if (self->session == NULL)
    {
      pal_composer_set_folders (self->composer, NULL);
      return;
    }
  g_strv_builder_add (folders, acp_session_get_cwd (self->session));
  g_strv_builder_addv (folders, (const char **) acp_session_get_additional_directories (self->session));
  strv = g_strv_builder_end (folders);
  pal_composer_set_folders (self->composer, (const char * const *) strv);
}

void
_pal_session_view_update_state (PalSessionView *self)
{
  AcpSessionState state = self->session != NULL ? acp_session_get_state (self->session)
                                                : ACP_SESSION_STATE_NEW;
  gboolean reopens, progressing;

  pal_composer_set_busy (self->composer, state == ACP_SESSION_STATE_PROMPTING);
  update_composer_target (self);
  /* a closed session takes a prompt too, and so does one whose agent went
   * away, and one shown from its history: it is opened again (the agent
   * started anew) to send it */
  reopens = state == ACP_SESSION_STATE_CLOSED || state == ACP_SESSION_STATE_FAILED ||
            (self->session == NULL && self->history != NULL);
  pal_composer_set_can_send (self->composer,
                             state == ACP_SESSION_STATE_READY || reopens ||
                             (state == ACP_SESSION_STATE_PROMPTING && self->queue != NULL) ||
                             (self->starting && !self->holding));
  if (reopens && self->history != NULL)
    pal_composer_set_placeholder (self->composer, _("Write to open this session again with its agent"));
  else if (state == ACP_SESSION_STATE_PROMPTING && self->queue != NULL)
    pal_composer_set_placeholder (self->composer, _("Write the next prompt: Enter queues it"));
  else
    pal_composer_set_placeholder (self->composer, NULL);
  gtk_widget_set_visible (self->starting_page, self->starting);
  /* nothing turns while the start waits for the person (a sign-in) */
  gtk_spinner_set_spinning (self->starting_spinner, self->starting && !self->start_paused);
  /* without a transition, a revealer keeps its child's height hidden: it
   * goes away whole */
  progressing = state == ACP_SESSION_STATE_LOADING || state == ACP_SESSION_STATE_CREATING ||
                state == ACP_SESSION_STATE_RESUMING;
  gtk_revealer_set_reveal_child (self->progress_revealer, progressing);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_revealer), progressing);
  /* once pulsed, a progress bar ticks at every frame until it is given a
   * fraction, hidden or not */
  if (state != ACP_SESSION_STATE_LOADING)
    gtk_progress_bar_set_fraction (self->progress_bar, 0.0);

  if (state == ACP_SESSION_STATE_CREATING)
    gtk_label_set_text (self->progress_label, _("Starting the session…"));
  else if (state == ACP_SESSION_STATE_RESUMING)
    gtk_label_set_text (self->progress_label, _("Resuming the session…"));

  update_empty_hint (self);
  update_resend (self);
}

static void
update_progress (PalSessionView *self)
{
  if (self->session == NULL || acp_session_get_state (self->session) != ACP_SESSION_STATE_LOADING)
    return;

  /* the updates of the replay are the protocol's business: the bar moves
   * as they come, the words say what the person waits for */
  gtk_label_set_text (self->progress_label, _("Loading the conversation…"));
  gtk_progress_bar_pulse (self->progress_bar);
}

static void queue_progress (PalSessionView *self);

static gboolean
progress_cb (gpointer user_data)
{
  PalSessionView *self = user_data;

  self->progress_id = 0;
  if (self->progress_due)
    queue_progress (self);

  return G_SOURCE_REMOVE;
}

/* A replay counts up to hundreds of thousands: the label follows a few times
 * a second, not once per update. The first count shows at once: a short
 * replay is over before a tenth of a second. */
static void
queue_progress (PalSessionView *self)
{
  if (self->progress_id != 0)
    {
      self->progress_due = TRUE;
      return;
    }

  self->progress_due = FALSE;
  update_progress (self);
  self->progress_id = g_timeout_add (100, progress_cb, self);
}

/* "Context: 12,000 of 200,000 tokens (6%) · Cost: 0.42 USD", or "" */
static char *
format_usage (AcpUsage *usage)
{
  GString *text = g_string_new (NULL);
  guint64 used, size;

  if (usage == NULL)
    return g_string_free (text, FALSE);

  used = acp_usage_get_used (usage);
  size = acp_usage_get_size (usage);
  if (size > 0)
    {
      g_autofree char *used_text = g_strdup_printf ("%'" G_GUINT64_FORMAT, used);
      g_autofree char *size_text = g_strdup_printf ("%'" G_GUINT64_FORMAT, size);

      /* Translators: context window use, e.g. “Context: 12,000 of 200,000 tokens (6%)” */
      g_string_append_printf (text, _("Context: %s of %s tokens (%u%%)"),
                              used_text, size_text, (guint) MIN (100, used * 100 / size));
    }
  if (acp_usage_get_has_cost (usage))
    {
      if (text->len > 0)
        g_string_append (text, " · ");
      /* Translators: money spent so far, e.g. “Cost: 0.42 USD” */
      g_string_append_printf (text, _("Cost: %.2f %s"), acp_usage_get_cost_amount (usage),
                              acp_usage_get_cost_currency (usage));
    }

  return g_string_free (text, FALSE);
}

static gboolean
usage_to_label (GBinding     *binding,
                const GValue *from,
                GValue       *to,
                gpointer      user_data)
{
  g_value_take_string (to, format_usage (g_value_get_object (from)));
  return TRUE;
}

static gboolean
usage_to_visible (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  g_autofree char *text = format_usage (g_value_get_object (from));

  g_value_set_boolean (to, *text != '\0');
  return TRUE;
}

static void
session_notify_cb (AcpSession     *session,
                   GParamSpec     *pspec,
                   PalSessionView *self)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "state"))
    {
      gboolean loading = acp_session_get_state (session) == ACP_SESSION_STATE_LOADING &&
                         !showing_history (self);

      update_opened (self);
      show_transcript (self);
      _pal_session_view_update_state (self);
      update_stopping (self);
      update_progress (self);
      /* a replay: a flood from its first item, until the load answers
       * (no need to wait for the chat to notice) */
      if (!self->was_loading && loading)
        pal_chat_view_begin_flood (self->chat_view);
      else if (self->was_loading && !loading)
        pal_chat_view_end_flood (self->chat_view);
      self->was_loading = loading;
    }
  else if (g_str_equal (name, "cancelling"))
    update_stopping (self);
  else if (g_str_equal (name, "replay-count"))
    queue_progress (self);
  else if (g_str_equal (name, "additional-directories"))
    update_composer_target (self);
}

/* Files dropped on the transcript go to the composer, as if dropped there */
static gboolean
chat_drop_cb (GtkDropTarget  *target,
              const GValue   *value,
              double          x,
              double          y,
              PalSessionView *self)
{
  GSList *files = g_value_get_boxed (value);

  if (files == NULL)
    return FALSE;

  pal_composer_add_files (self->composer, files);
  pal_composer_grab_focus (self->composer);
  return TRUE;
}

static void
pal_session_view_dispose (GObject *object)
{
  PalSessionView *self = PAL_SESSION_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_handle_id (&self->stop_agent_offer_id, g_source_remove);
  if (self->focus_permission_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->chat_view), self->focus_permission_tick);
  self->focus_permission_tick = 0;
  g_clear_object (&self->focus_permission);
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (acp_session_get_transcript (self->session), self);
    }
  g_clear_object (&self->session);
  g_clear_object (&self->history);
  g_clear_object (&self->queue);
  g_clear_object (&self->bindings);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->last_prompt);
  g_clear_object (&self->resend_prompt);

  G_OBJECT_CLASS (pal_session_view_parent_class)->dispose (object);
}

static void
pal_session_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PalSessionView *self = PAL_SESSION_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    case PROP_HISTORY:
      g_value_set_object (value, pal_session_view_get_history (self));
      break;

    case PROP_RESEND_PROMPT:
      g_value_set_object (value, self->resend_prompt);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
edit_prompt_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PalSessionView *self = PAL_SESSION_VIEW (widget);

  if (self->resend_prompt == NULL)
    return;

  pal_composer_set_text (self->composer, acp_message_item_get_text (self->resend_prompt));
  pal_composer_grab_focus (self->composer);
}

static void
pal_session_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PalSessionView *self = PAL_SESSION_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      pal_session_view_set_session (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_view_class_init (PalSessionViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_session_view_dispose;
  object_class->get_property = pal_session_view_get_property;
  object_class->set_property = pal_session_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, ACP_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The history on screen (pal_session_view_set_history()), until the
   * session is open */
  properties[PROP_HISTORY] =
    g_param_spec_object ("history", NULL, NULL, ACP_TYPE_TRANSCRIPT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* the last prompt of the transcript, while it can be edited and sent
   * again (nullable) */
  properties[PROP_RESEND_PROMPT] =
    g_param_spec_object ("resend-prompt", NULL, NULL, ACP_TYPE_MESSAGE_ITEM,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* puts the last prompt back in the composer, to be sent again */
  gtk_widget_class_install_action (widget_class, "session.edit-prompt", NULL, edit_prompt_action);

  /**
   * PalSessionView::reopen-requested:
   * @self: the view
   * @prompt: the prompt the person sent
   *
   * The person sent @prompt in a session that is closed: open it again,
   * then send @prompt with pal_session_view_send_prompt(). The composer is
   * empty by then; should the prompt not go out, give it back with
   * pal_composer_set_prompt().
   */
  _pal_session_view_signals[REOPEN_REQUESTED] =
    g_signal_new ("reopen-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, PAL_TYPE_PROMPT);

  /**
   * PalSessionView::prompt-held:
   * @self: the view
   * @prompt: the prompt
   *
   * The person sent @prompt while a new session starts (see
   * pal_session_view_set_starting()): send it once the session is open.
   */
  _pal_session_view_signals[PROMPT_HELD] =
    g_signal_new ("prompt-held", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, PAL_TYPE_PROMPT);

  /**
   * PalSessionView::sign-in-requested:
   * @self: the view
   * @session: the session whose agent refused the prompt
   * @prompt: the prompt
   *
   * The agent answered a prompt with "authentication required": have the
   * person sign in, then send @prompt again with
   * pal_session_view_send_prompt().
   */
  _pal_session_view_signals[SIGN_IN_REQUESTED] =
    g_signal_new ("sign-in-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, ACP_TYPE_SESSION, PAL_TYPE_PROMPT);

  /**
   * PalSessionView::turn-ended:
   * @self: the view
   * @session: the session, shown here or not
   * @failure: (nullable): how the turn went wrong, in words, or %NULL for
   *   an ordinary end
   *
   * A turn of a prompt sent with pal_session_view_send_prompt() ended: the
   * session may take the next entry of its queue.
   */
  _pal_session_view_signals[TURN_ENDED] =
    g_signal_new ("turn-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, ACP_TYPE_SESSION, G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "sessionview");
}

static void
pal_session_view_init (PalSessionView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *progress_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *bottom = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *chat_overlay;
  PalOptionsBar *bar;

  self->cancellable = g_cancellable_new ();

  self->progress_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->progress_label), "caption");
  self->progress_bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_pulse_step (self->progress_bar, 0.05);
  gtk_box_append (GTK_BOX (progress_box), GTK_WIDGET (self->progress_label));
  gtk_box_append (GTK_BOX (progress_box), GTK_WIDGET (self->progress_bar));
  gtk_widget_set_margin_top (progress_box, 6);
  gtk_widget_set_margin_start (progress_box, 12);
  gtk_widget_set_margin_end (progress_box, 12);
  self->progress_revealer = GTK_REVEALER (gtk_revealer_new ());
  /* shown whole at once: a replay floods the main loop, and a slide would
   * stop halfway, the words cut off at the top */
  gtk_revealer_set_transition_type (self->progress_revealer, GTK_REVEALER_TRANSITION_TYPE_NONE);
  gtk_revealer_set_child (self->progress_revealer, progress_box);

  self->chat_view = PAL_CHAT_VIEW (pal_chat_view_new ());

  self->empty_hint = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->empty_hint), "document-edit-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (self->empty_hint), _("Ask the Agent"));
  adw_status_page_set_description (ADW_STATUS_PAGE (self->empty_hint),
                                   _("Write what you want done below and press Enter. Type / for the agent’s commands."));
  gtk_widget_add_css_class (self->empty_hint, "compact");
  gtk_widget_set_can_target (self->empty_hint, FALSE);
  gtk_widget_set_visible (self->empty_hint, FALSE);

  {
    GtkWidget *spinner = gtk_spinner_new ();
    GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
    GtkWidget *starting_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);

    self->starting_spinner = GTK_SPINNER (spinner);
    gtk_widget_set_size_request (spinner, 32, 32);
    gtk_widget_set_halign (cancel, GTK_ALIGN_CENTER);
    gtk_widget_add_css_class (cancel, "pill");
    /* not a default: keys typed meanwhile go to the composer, which has the focus */
    gtk_widget_set_focus_on_click (cancel, FALSE);
    gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "win.cancel-start");
    gtk_box_append (GTK_BOX (starting_box), spinner);
    gtk_box_append (GTK_BOX (starting_box), cancel);
    self->starting_page = adw_status_page_new ();
    adw_status_page_set_title (ADW_STATUS_PAGE (self->starting_page), _("Starting the Session"));
    adw_status_page_set_child (ADW_STATUS_PAGE (self->starting_page), starting_box);
    gtk_widget_set_visible (self->starting_page, FALSE);
  }

  chat_overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (chat_overlay), GTK_WIDGET (self->chat_view));
  gtk_overlay_add_overlay (GTK_OVERLAY (chat_overlay), self->empty_hint);
  gtk_overlay_add_overlay (GTK_OVERLAY (chat_overlay), self->starting_page);
  gtk_widget_set_vexpand (chat_overlay, TRUE);
  {
    GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

    /* highlighted while a drop hovers (style.css) */
    gtk_widget_add_css_class (chat_overlay, "chat-drop");
    gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drop), GTK_PHASE_CAPTURE);
    g_signal_connect (drop, "drop", G_CALLBACK (chat_drop_cb), self);
    gtk_widget_add_controller (chat_overlay, GTK_EVENT_CONTROLLER (drop));
  }

  self->usage_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->usage_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->usage_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->usage_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->usage_label), FALSE);

  self->stopping_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->stopping_label, TRUE);
  gtk_label_set_xalign (self->stopping_label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->stopping_label), TRUE);
  self->stop_agent_button = pal_a11y_mnemonic_button_new (_("Stop the _Agent"));
  gtk_widget_set_tooltip_text (self->stop_agent_button,
                               _("End the agent’s process; the session stays, and writing starts the agent again"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->stop_agent_button), "win.stop-agent");
  gtk_widget_add_css_class (self->stop_agent_button, "destructive-action");
  gtk_widget_set_valign (self->stop_agent_button, GTK_ALIGN_CENTER);
  {
    GtkWidget *stopping_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

    gtk_box_append (GTK_BOX (stopping_box), GTK_WIDGET (self->stopping_label));
    gtk_box_append (GTK_BOX (stopping_box), self->stop_agent_button);
    gtk_widget_add_css_class (stopping_box, "stopping");
    self->stopping_revealer = GTK_REVEALER (gtk_revealer_new ());
    gtk_revealer_set_child (self->stopping_revealer, stopping_box);
  }

  self->composer = PAL_COMPOSER (pal_composer_new ());
  bar = pal_composer_get_options_bar (self->composer);

  self->bindings = g_binding_group_new ();
  g_binding_group_bind (self->bindings, "available-commands", self->composer, "commands",
                        G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->bindings, "modes", bar, "modes", G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->bindings, "current-mode-id", bar, "current-mode-id",
                        G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->bindings, "config-options", bar, "config-options",
                        G_BINDING_SYNC_CREATE);
  g_binding_group_bind_full (self->bindings, "usage", self->usage_label, "label",
                             G_BINDING_SYNC_CREATE, usage_to_label, NULL, NULL, NULL);
  g_binding_group_bind_full (self->bindings, "usage", self->usage_label, "visible",
                             G_BINDING_SYNC_CREATE, usage_to_visible, NULL, NULL, NULL);

  gtk_box_append (GTK_BOX (bottom), GTK_WIDGET (self->usage_label));
  self->queue_view = PAL_PROMPT_QUEUE_VIEW (pal_prompt_queue_view_new ());

  _pal_session_view_connect_prompts (self);
  gtk_box_append (GTK_BOX (bottom), GTK_WIDGET (self->stopping_revealer));
  gtk_box_append (GTK_BOX (bottom), GTK_WIDGET (self->queue_view));
  gtk_box_append (GTK_BOX (bottom), GTK_WIDGET (self->composer));
  gtk_widget_set_margin_start (bottom, 12);
  gtk_widget_set_margin_end (bottom, 12);
  gtk_widget_set_margin_top (bottom, 6);
  gtk_widget_set_margin_bottom (bottom, 12);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 860);
  adw_clamp_set_child (ADW_CLAMP (clamp), bottom);

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->progress_revealer));
  gtk_box_append (GTK_BOX (box), chat_overlay);
  gtk_box_append (GTK_BOX (box), clamp);
  adw_bin_set_child (ADW_BIN (self), box);

  _pal_session_view_update_state (self);
}

GtkWidget *
pal_session_view_new (void)
{
  return g_object_new (PAL_TYPE_SESSION_VIEW, NULL);
}

AcpSession *
pal_session_view_get_session (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  return self->session;
}

/* The bindings follow a session; without one, the widgets show nothing. */
static void
show_session_lists (PalSessionView *self)
{
  PalOptionsBar *bar = pal_composer_get_options_bar (self->composer);

  g_binding_group_set_source (self->bindings, self->session);
  if (self->session != NULL)
    return;

  pal_composer_set_commands (self->composer, NULL);
  pal_options_bar_set_config_options (bar, NULL);
  pal_options_bar_set_modes (bar, NULL);
  pal_options_bar_set_current_mode_id (bar, NULL);
  gtk_label_set_text (self->usage_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->usage_label), FALSE);
}

/* "@" in the composer finds files in the session's folders */
/**
 * pal_session_view_set_session:
 * @self: a #PalSessionView
 * @session: (nullable): the session to show
 */
void
pal_session_view_set_session (PalSessionView *self,
                              AcpSession     *session)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));
  g_return_if_fail (session == NULL || ACP_IS_SESSION (session));

  if (self->session == session && !self->starting)
    return;

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (acp_session_get_transcript (self->session), self);
    }
  g_set_object (&self->session, session);
  g_clear_object (&self->last_prompt);
  if (session != NULL)
    find_last_prompt (self, G_LIST_MODEL (acp_session_get_transcript (session)), 0,
                      g_list_model_get_n_items (G_LIST_MODEL (acp_session_get_transcript (session))));
  /* the session the start was for, or another one: the start is over */
  self->starting = FALSE;
  self->holding = FALSE;
  self->opened = FALSE;
  update_opened (self);
  self->was_loading = session != NULL &&
                      acp_session_get_state (session) == ACP_SESSION_STATE_LOADING &&
                      !showing_history (self);
  if (session != NULL)
    {
      g_signal_connect (session, "notify", G_CALLBACK (session_notify_cb), self);
      g_signal_connect (acp_session_get_transcript (session), "items-changed",
                        G_CALLBACK (transcript_items_changed_cb), self);
    }

  show_transcript (self);
  if (self->was_loading)
    pal_chat_view_begin_flood (self->chat_view);
  _pal_session_view_update_state (self);
  update_stopping (self);
  update_progress (self);
  show_session_lists (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * pal_session_view_set_history:
 * @self: a #PalSessionView
 * @history: (nullable): the history kept of the session shown (or about to
 *   be): a transcript that does not change
 *
 * Shows @history, read-only, while there is no session or it is not open
 * yet; writing then emits #PalSessionView::reopen-requested. Once the
 * session is open, its own transcript replaces the history for good.
 */
void
pal_session_view_set_history (PalSessionView *self,
                              AcpTranscript  *history)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));
  g_return_if_fail (history == NULL || ACP_IS_TRANSCRIPT (history));

  if (history != NULL && self->opened)
    return;
  if (!g_set_object (&self->history, history))
    return;

  show_transcript (self);
  _pal_session_view_update_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);
}

AcpTranscript *
pal_session_view_get_history (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  return showing_history (self) ? self->history : NULL;
}

/**
 * pal_session_view_stop:
 * @self: a #PalSessionView
 *
 * Stops the running turn: session/cancel, and every pending permission
 * request is answered "cancelled".
 *
 * Returns: whether a turn was running
 */
gboolean
pal_session_view_stop (PalSessionView *self)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), FALSE);

  if (self->session == NULL || acp_session_get_state (self->session) != ACP_SESSION_STATE_PROMPTING)
    return FALSE;

  if (!acp_session_cancel (self->session, &error))
    g_debug ("Could not cancel the turn: %s", error->message);

  return TRUE;
}

/**
 * pal_session_view_set_starting:
 * @self: a #PalSessionView
 * @holding: whether a prompt waits for the session already
 *
 * Shows, without a session, that a new one is starting, with a Cancel
 * button (the action win.cancel-start). The composer stays, with the focus:
 * the first prompt the person sends meanwhile is handed over with
 * PalSessionView::prompt-held, to be sent once the session is open; the
 * composer then takes no more. Setting a session (or %NULL) ends the start.
 */
void
pal_session_view_set_starting (PalSessionView *self,
                               gboolean        holding)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));

  pal_session_view_set_history (self, NULL);
  pal_session_view_set_session (self, NULL);
  self->starting = TRUE;
  self->holding = holding;
  self->start_paused = FALSE;
  adw_status_page_set_description (ADW_STATUS_PAGE (self->starting_page),
                                   holding
                                   ? _("What you wrote is sent once the session has started.")
                                   : _("Some agents take a while to start, especially the first time. "
                                       "You can write already."));
  _pal_session_view_update_state (self);
  update_stopping (self);
  pal_composer_grab_focus (self->composer);
}

/**
 * pal_session_view_pause_start:
 * @self: a #PalSessionView showing a start
 *
 * The start waits for the person now (a sign-in), not for the agent: no
 * spinner and no offer to stop the agent, until
 * pal_session_view_set_starting() again.
 */
void
pal_session_view_pause_start (PalSessionView *self)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));

  self->start_paused = TRUE;
  _pal_session_view_update_state (self);
  update_stopping (self);
}

gboolean
pal_session_view_get_starting (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), FALSE);

  return self->starting;
}

/**
 * pal_session_view_get_pending_permission:
 * @self: a #PalSessionView
 *
 * Returns: (transfer none) (nullable): the last permission request of the
 *   session shown that waits for an answer
 */
AcpPermissionItem *
pal_session_view_get_pending_permission (PalSessionView *self)
{
  GListModel *model;
  guint n;

  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  if (self->session == NULL ||
      acp_session_get_state (self->session) != ACP_SESSION_STATE_PROMPTING)
    return NULL;

  /* requests come near the end of a turn's items */
  model = G_LIST_MODEL (acp_session_get_transcript (self->session));
  n = g_list_model_get_n_items (model);
  for (guint i = n; i > 0; i--)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i - 1);

      if (ACP_IS_PERMISSION_ITEM (item) &&
          acp_permission_item_get_state (ACP_PERMISSION_ITEM (item)) == ACP_PERMISSION_STATE_PENDING)
        return ACP_PERMISSION_ITEM (item);
      if (ACP_IS_MESSAGE_ITEM (item) &&
          acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_USER)
        break;
    }

  return NULL;
}

/**
 * pal_session_view_answer_permission:
 * @self: a #PalSessionView
 * @index: which option of the pending request, from 0
 *
 * Answers the pending permission request (see
 * pal_session_view_get_pending_permission()) with its option @index.
 *
 * Returns: whether there was such a request and option
 */
gboolean
pal_session_view_answer_permission (PalSessionView *self,
                                    guint           index)
{
  AcpPermissionItem *pending;
  g_autoptr(AcpPermissionOption) option = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), FALSE);

  pending = pal_session_view_get_pending_permission (self);
  if (pending == NULL)
    return FALSE;
  option = g_list_model_get_item (acp_permission_item_get_options (pending), index);
  if (option == NULL)
    return FALSE;
  if (!acp_permission_item_select (pending, acp_permission_option_get_id (option), &error))
    {
      g_debug ("Could not answer the permission request: %s", error->message);
      return FALSE;
    }

  return TRUE;
}

void
pal_session_view_focus_composer (PalSessionView *self)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));

  pal_composer_grab_focus (self->composer);
}

/**
 * pal_session_view_get_resend_prompt:
 * @self: a #PalSessionView
 *
 * Returns: (transfer none) (nullable): the last prompt of the transcript,
 *   while the agent can be asked again (see session.edit-prompt)
 */
AcpMessageItem *
pal_session_view_get_resend_prompt (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  return self->resend_prompt;
}

GtkWidget *
pal_session_view_get_composer (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  return GTK_WIDGET (self->composer);
}

GtkWidget *
pal_session_view_get_chat_view (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  return GTK_WIDGET (self->chat_view);
}

/**
 * pal_session_view_set_terminal_service:
 * @self: a #PalSessionView
 * @service: (nullable): where the agent's terminals run
 */
void
pal_session_view_set_terminal_service (PalSessionView     *self,
                                       AcpTerminalService *service)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));

  pal_chat_view_set_terminal_service (self->chat_view, service);
}

/**
 * pal_session_view_set_pacer:
 * @self: a #PalSessionView
 * @pacer: (nullable): the pacer of the agents' connections: the transcript
 *   reports its frames to it
 */
void
pal_session_view_set_pacer (PalSessionView *self,
                            AcpPacer       *pacer)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));

  pal_chat_view_set_pacer (self->chat_view, pacer);
}

/**
 * pal_session_view_set_queue:
 * @self: a #PalSessionView
 * @queue: (nullable): the queue of the session shown (or about to be)
 *
 * Prompts written while a turn runs wait in @queue, shown above the
 * composer.
 */
void
pal_session_view_set_queue (PalSessionView *self,
                            PalPromptQueue *queue)
{
  g_return_if_fail (PAL_IS_SESSION_VIEW (self));
  g_return_if_fail (queue == NULL || PAL_IS_PROMPT_QUEUE (queue));

  if (!g_set_object (&self->queue, queue))
    return;

  pal_prompt_queue_view_set_queue (self->queue_view, queue);
  _pal_session_view_update_state (self);
}

PalPromptQueue *
pal_session_view_get_queue (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  return self->queue;
}

GtkWidget *
pal_session_view_get_queue_view (PalSessionView *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_VIEW (self), NULL);

  return GTK_WIDGET (self->queue_view);
}
