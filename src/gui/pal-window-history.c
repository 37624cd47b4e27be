/* pal-window-history.c: past sessions read from the history kept of them
 *
 * Selecting a session that is not open shows the history the transcript
 * store keeps of it at once, read-only, without starting its agent (a
 * session with nothing kept is opened as before). Writing, or Open, starts
 * the agent and opens the session; the history stays on screen until it
 * is open (see PalSessionView). A session found by a search is shown
 * scrolled to the message found, highlighted for a moment. The store's
 * problems (a damaged database set aside, writes lost) are told in a toast
 * that stays until dismissed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-chat-view.h"
#include "pal-session-history.h"
#include "pal-window-private.h"

#define NO_TARGET G_MAXUINT

static PalTranscriptStore *
get_store (PalWindow *self)
{
  return pal_session_manager_get_transcript_store (self->manager);
}

static PalChatView *
get_chat_view (PalWindow *self)
{
  return PAL_CHAT_VIEW (pal_session_view_get_chat_view (self->session_view));
}

static void
drop_history (PalWindow *self)
{
  if (self->history_cancellable != NULL)
    {
      g_cancellable_cancel (self->history_cancellable);
      g_clear_object (&self->history_cancellable);
    }
  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  g_clear_object (&self->history);
  self->history_target = NO_TARGET;
}

/* The chat goes to the item entry @index of @history made, in @model (the
 * history's transcript, or the live one of the same session: the same
 * items, and the new ones after) */
static void
go_to_entry (PalWindow         *self,
             PalSessionHistory *history,
             guint              index)
{
  AcpItem *item;
  int position;

  /* its earlier turns are still to come: when they are there */
  if (!pal_session_history_is_complete (history))
    {
      self->history_target = index;
      return;
    }

  item = pal_session_history_get_item (history, index);
  position = item != NULL ? pal_session_history_find_item (history, item) : -1;
  if (position >= 0)
    pal_chat_view_scroll_to_item (get_chat_view (self), (guint) position, TRUE);
}

/* The earlier turns of the history shown came in front of its end */
static void
history_complete_cb (PalSessionHistory *history,
                     GParamSpec        *pspec,
                     PalWindow         *self)
{
  guint target = self->history_target;

  self->history_target = NO_TARGET;
  if (target != NO_TARGET && pal_session_view_get_history (self->session_view) != NULL)
    go_to_entry (self, history, target);
}

/* The end shown first reached into the earlier turns: the whole history
 * replaces it */
static void
history_transcript_cb (PalSessionHistory *history,
                       GParamSpec        *pspec,
                       PalWindow         *self)
{
  if (pal_session_view_get_history (self->session_view) != NULL)
    pal_session_view_set_history (self->session_view, pal_session_history_get_transcript (history));
}

/* Makes @key the session shown: a history of another one goes. Called by
 * _pal_window_show_session () first. */
void
_pal_window_history_follow (PalWindow     *self,
                            PalSessionKey *key)
{
  if (self->history != NULL &&
      pal_session_key_equal0 (pal_session_history_get_key (self->history), key))
    return;
  if (self->history == NULL && self->history_cancellable == NULL)
    return;

  drop_history (self);
  pal_session_view_set_history (self->session_view, NULL);
}

typedef struct
{
  PalWindow     *self;
  PalSessionKey *key;
  guint          target;
  gboolean       live;  /* to place the live transcript */
} Load;

static void
load_free (Load *load)
{
  g_object_unref (load->self);
  pal_session_key_unref (load->key);
  g_free (load);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Load, load_free)

static void
history_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Load) load = user_data;
  PalWindow *self = load->self;
  g_autoptr(PalSessionHistory) history = NULL;
  g_autoptr(GError) error = NULL;

  history = pal_session_history_load_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (!pal_session_key_equal0 (load->key, self->current))
    return;
  if (load->live)
    {
      /* the live transcript: the same items at the same places */
      if (history != NULL && pal_session_view_get_history (self->session_view) == NULL)
        go_to_entry (self, history, load->target);
      return;
    }

  /* opened meanwhile: its own transcript is shown */
  if (pal_session_manager_lookup (self->manager, load->key) != NULL)
    {
      g_clear_object (&self->history_cancellable);
      return;
    }

  if (history == NULL || pal_session_history_get_n_entries (history) == 0)
    {
      /* nothing kept (a session from before, or only listed by its agent):
       * the agent shows it */
      if (error != NULL)
        g_debug ("The history of a session could not be read: %s", error->message);
      g_clear_object (&self->history_cancellable);
      pal_window_open_session (self, load->key);
      return;
    }

  /* the cancellable stays: it stops what is still to build of the history
   * (its earlier turns, when its end came first) */
  g_set_object (&self->history, history);
  g_signal_connect (history, "notify::complete", G_CALLBACK (history_complete_cb), self);
  g_signal_connect (history, "notify::transcript", G_CALLBACK (history_transcript_cb), self);
  pal_session_view_set_history (self->session_view, pal_session_history_get_transcript (history));
  if (load->target != NO_TARGET)
    go_to_entry (self, history, load->target);
}

static void
load_history (PalWindow     *self,
              PalSessionKey *key,
              guint          target,
              gboolean       live)
{
  Load *load = g_new0 (Load, 1);
  GCancellable *cancellable;

  load->self = g_object_ref (self);
  load->key = pal_session_key_ref (key);
  load->target = target;
  load->live = live;

  if (!live)
    {
      drop_history (self);
      self->history_cancellable = g_cancellable_new ();
      cancellable = self->history_cancellable;
    }
  else
    {
      cancellable = self->cancellable;
    }

  /* browsing shows the end of a long history first; a search hit may be
   * anywhere in it */
  pal_session_history_load_async (get_store (self), key,
                                  !live && target == NO_TARGET ? PAL_SESSION_HISTORY_LOAD_END_FIRST
                                                               : PAL_SESSION_HISTORY_LOAD_NONE,
                                  cancellable, history_loaded_cb, load);
}

/* Shows @key: live, its own transcript; else its history, at the entry
 * @target (NO_TARGET: at its end) */
static void
browse (PalWindow     *self,
        PalSessionKey *key,
        guint          target)
{
  AcpSession *session = pal_session_manager_lookup (self->manager, key);

  if (get_store (self) == NULL)
    {
      pal_window_open_session (self, key);
      return;
    }

  if (session != NULL)
    {
      _pal_window_show_session (self, key);
      if (target != NO_TARGET)
        load_history (self, key, target, TRUE);
      return;
    }

  /* on screen already */
  if (self->history != NULL && pal_session_key_equal0 (self->current, key) &&
      pal_session_view_get_history (self->session_view) != NULL)
    {
      _pal_window_show_session (self, key);
      if (target != NO_TARGET)
        go_to_entry (self, self->history, target);
      return;
    }

  if (_pal_window_lookup_record (self, key) == NULL)
    {
      pal_window_add_toast (self, _("There is no such session in the list"));
      return;
    }

  _pal_window_show_session (self, key);
  load_history (self, key, target, FALSE);
}

/* A session selected in the sidebar */
void
_pal_window_browse_session (PalWindow     *self,
                            PalSessionKey *key)
{
  browse (self, key, NO_TARGET);
}

/**
 * pal_window_show_session_at:
 * @self: a #PalWindow
 * @key: a session of the list
 * @update_index: an entry of its stored transcript (a search hit's,
 *   pal_transcript_hit_get_index())
 *
 * Shows the session (live, or its history without starting the agent)
 * scrolled to the item made from that entry, highlighted for a moment.
 */
void
pal_window_show_session_at (PalWindow     *self,
                            PalSessionKey *key,
                            guint          update_index)
{
  g_return_if_fail (PAL_IS_WINDOW (self));
  g_return_if_fail (key != NULL);

  browse (self, key, MIN (update_index, NO_TARGET - 1));
}

/* The view shows the session's own transcript now: the history goes */
static void
view_history_cb (PalSessionView *view,
                 GParamSpec     *pspec,
                 PalWindow      *self)
{
  if (pal_session_view_get_history (view) == NULL && self->history != NULL)
    drop_history (self);
}

/* For _pal_window_handle_error (): a failure to open a session whose
 * history is on screen is told under it, and the history stays readable.
 * Returns: whether it was */
gboolean
_pal_window_history_show_error (PalWindow     *self,
                                PalSessionKey *key,
                                const char    *title,
                                const GError  *error)
{
  AcpTranscript *history = pal_session_view_get_history (self->session_view);

  if (history == NULL || !pal_session_key_equal0 (key, self->current))
    return FALSE;

  acp_transcript_append_notice (history, ACP_NOTICE_SEVERITY_ERROR, title, error->message, NULL);
  acp_transcript_flush (history);
  pal_chat_view_scroll_to_bottom (get_chat_view (self));

  return TRUE;
}

/* --- deleting a session's history --- */

/**
 * _pal_window_history_add_check:
 * @dialog: a confirmation that a session leaves the list
 * @active: whether the history goes too unless the person says otherwise
 *
 * Gives @dialog a check to delete the history kept of the session too,
 * when the window keeps one (else does nothing).
 *
 * Returns: (transfer none) (nullable): the check
 */
GtkCheckButton *
_pal_window_history_add_check (PalWindow        *self,
                               AdwMessageDialog *dialog,
                               gboolean          active)
{
  GtkWidget *check;

  if (get_store (self) == NULL)
    return NULL;

  check = gtk_check_button_new_with_mnemonic (_("Also delete its _history kept on this computer"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), active);
  gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
  adw_message_dialog_set_extra_child (dialog, check);

  return GTK_CHECK_BUTTON (check);
}

static void
history_deleted_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(PalWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!pal_transcript_store_delete_finish (PAL_TRANSCRIPT_STORE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    pal_window_add_toast (self, error->message);
}

/* Deletes what the store keeps of @key */
void
_pal_window_delete_history (PalWindow     *self,
                            PalSessionKey *key)
{
  PalTranscriptStore *store = get_store (self);

  if (store == NULL)
    return;

  if (pal_session_key_equal0 (key, self->current))
    _pal_window_history_follow (self, NULL);
  pal_transcript_store_delete_async (store, key, self->cancellable, history_deleted_cb,
                                     g_object_ref (self));
}

/* --- the store's problems --- */

static void
store_problem_cb (PalTranscriptStore *store,
                  const GError       *error,
                  PalWindow          *self)
{
  GtkWidget *label = gtk_label_new (error->message);
  AdwToast *toast;

  /* what was lost is said in full: a toast's title would be cut */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "history-problem");

  toast = adw_toast_new (error->message);
  adw_toast_set_custom_title (toast, label);
  /* stays until read */
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
_pal_window_setup_history (PalWindow *self)
{
  PalTranscriptStore *store = get_store (self);

  self->history_target = NO_TARGET;
  g_signal_connect_object (self->session_view, "notify::history", G_CALLBACK (view_history_cb), self, 0);
  if (store != NULL)
    g_signal_connect_object (store, "problem", G_CALLBACK (store_problem_cb), self, 0);
}

void
_pal_window_dispose_history (PalWindow *self)
{
  drop_history (self);
}
