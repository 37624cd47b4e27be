/* pal-preferences-window-history.c: the History page of the preferences:
 * the space the history takes, and deleting all of it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-preferences-window-private.h"

static void
size_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PalPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *size_text = NULL;
  guint64 size = 0;

  if (!pal_transcript_store_get_size_finish (PAL_TRANSCRIPT_STORE (object), result, &size,
                                             &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      adw_action_row_set_subtitle (self->history_size_row, error->message);
      return;
    }

  size_text = g_format_size (size);
  adw_action_row_set_subtitle (self->history_size_row, size_text);
  gtk_widget_set_sensitive (self->history_delete_button, TRUE);
}

/* Asks the store how much space it takes now */
static void
update_size (PalPreferencesWindow *self)
{
  if (self->transcript_store == NULL)
    return;

  pal_transcript_store_get_size_async (self->transcript_store, self->cancellable, size_cb,
                                       g_object_ref (self));
}

static void
deleted_all_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PalPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!pal_transcript_store_delete_all_finish (PAL_TRANSCRIPT_STORE (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _pal_preferences_window_add_toast (self, error->message);
      return;
    }

  _pal_preferences_window_add_toast (self, _("All history deleted"));
  update_size (self);
}

static void
delete_all_response_cb (AdwMessageDialog     *dialog,
                        const char           *response,
                        PalPreferencesWindow *self)
{
  if (!g_str_equal (response, "delete") || self->transcript_store == NULL)
    return;

  gtk_widget_set_sensitive (self->history_delete_button, FALSE);
  pal_transcript_store_delete_all_async (self->transcript_store, self->cancellable,
                                         deleted_all_cb, g_object_ref (self));
}

/**
 * pal_preferences_window_delete_all_history:
 * @self: a #PalPreferencesWindow
 *
 * Asks the person whether to delete every session's history, and does if
 * they say so.
 *
 * Returns: (transfer none): the dialog that asks
 */
AdwMessageDialog *
pal_preferences_window_delete_all_history (PalPreferencesWindow *self)
{
  GtkWidget *dialog;

  g_return_val_if_fail (PAL_IS_PREFERENCES_WINDOW (self), NULL);

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Delete All History?"),
                                   _("The messages of every session kept on this computer are "
                                     "deleted: sessions are then shown, and searched, only "
                                     "through their agents. The list of sessions stays. This "
                                     "cannot be undone."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "delete", _("_Delete All"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_all_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));

  return ADW_MESSAGE_DIALOG (dialog);
}

static void
visible_page_cb (PalPreferencesWindow *self)
{
  if (adw_preferences_window_get_visible_page (ADW_PREFERENCES_WINDOW (self)) ==
      self->history_page)
    update_size (self);
}

static void
delete_clicked_cb (PalPreferencesWindow *self)
{
  pal_preferences_window_delete_all_history (self);
}

/**
 * pal_preferences_window_set_transcript_store:
 * @self: a #PalPreferencesWindow
 * @store: (nullable): where the sessions' history is kept
 *
 * Shows the History page, for @store.
 */
void
pal_preferences_window_set_transcript_store (PalPreferencesWindow *self,
                                             PalTranscriptStore   *store)
{
  g_return_if_fail (PAL_IS_PREFERENCES_WINDOW (self));
  g_return_if_fail (store == NULL || PAL_IS_TRANSCRIPT_STORE (store));

  if (!g_set_object (&self->transcript_store, store))
    return;

  gtk_widget_set_visible (GTK_WIDGET (self->history_page), store != NULL);
  update_size (self);
}

void
_pal_preferences_window_history_init (PalPreferencesWindow *self)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  GtkWidget *delete_row = adw_action_row_new ();

  self->history_page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  adw_preferences_page_set_title (self->history_page, _("History"));
  adw_preferences_page_set_icon_name (self->history_page, "document-open-recent-symbolic");
  adw_preferences_page_set_name (self->history_page, "history");

  adw_preferences_group_set_title (group, _("Storage"));
  adw_preferences_group_set_description (group,
                                         _("The messages of every session are kept on this "
                                           "computer, to show them at once without starting "
                                           "the agent."));

  self->history_size_row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->history_size_row), _("Space Used"));
  adw_action_row_set_subtitle (self->history_size_row, "…");
  adw_preferences_group_add (group, GTK_WIDGET (self->history_size_row));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (delete_row), _("Delete All History"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (delete_row),
                               _("The list of sessions stays; their agents may still keep them"));
  self->history_delete_button = gtk_button_new_with_mnemonic (_("_Delete…"));
  gtk_widget_set_valign (self->history_delete_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->history_delete_button, "destructive-action");
  gtk_widget_set_sensitive (self->history_delete_button, FALSE);
  g_signal_connect_swapped (self->history_delete_button, "clicked",
                            G_CALLBACK (delete_clicked_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (delete_row), self->history_delete_button);
  adw_preferences_group_add (group, delete_row);

  adw_preferences_page_add (self->history_page, group);
  gtk_widget_set_visible (GTK_WIDGET (self->history_page), FALSE);
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), self->history_page);
  /* it grows as sessions go on: measured again each time it is shown */
  g_signal_connect_swapped (self, "notify::visible-page", G_CALLBACK (visible_page_cb), self);
}

void
_pal_preferences_window_history_dispose (PalPreferencesWindow *self)
{
  g_clear_object (&self->transcript_store);
}
