/* pal-load-errors-banner.c: what the stores could not read, told in the window
 *
 * A bar across the top of the content ("2 stored sessions could not be
 * read") while any of the lists it follows has load errors: entries
 * skipped, entries read without a member, a value GSettings could not read
 * at all. Details lists them, with where a copy of the stored value went;
 * the close button hides the bar until the errors change.
 *
 * libadwaita 1.3 has AdwBanner for this; 1.2 (Debian 12) has not: with it
 * this becomes an AdwBanner and the same Details dialog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-a11y.h"
#include "pal-load-errors-banner.h"
#include "pal-session-store.h"

struct _PalLoadErrorsBanner
{
  AdwBin parent_instance;

  GtkRevealer *revealer;
  GtkLabel *title;

  /* PalStoredList, followed */
  GPtrArray *lists;
  /* the errors when the person closed the bar, joined; NULL: not closed */
  char *dismissed;
  GtkWindow *dialog;
};

G_DEFINE_FINAL_TYPE (PalLoadErrorsBanner, pal_load_errors_banner, ADW_TYPE_BIN)

/* All errors of all lists, one per line. */
static char *
join_errors (PalLoadErrorsBanner *self,
             guint               *n_errors,
             gboolean            *only_sessions)
{
  GString *joined = g_string_new (NULL);

  *n_errors = 0;
  *only_sessions = TRUE;
  for (guint i = 0; i < self->lists->len; i++)
    {
      PalStoredList *list = g_ptr_array_index (self->lists, i);
      const char * const *errors = pal_stored_list_get_load_errors (list);

      for (guint j = 0; errors[j] != NULL; j++)
        {
          g_string_append (joined, errors[j]);
          g_string_append_c (joined, '\n');
          (*n_errors)++;
          if (!PAL_IS_SESSION_STORE (list))
            *only_sessions = FALSE;
        }
    }

  return g_string_free (joined, FALSE);
}

static void
update (PalLoadErrorsBanner *self)
{
  g_autofree char *joined = NULL;
  g_autofree char *title = NULL;
  gboolean only_sessions;
  guint n;

  joined = join_errors (self, &n, &only_sessions);

  /* closed for these errors, not for new ones */
  if (self->dismissed != NULL && g_strcmp0 (self->dismissed, joined) != 0)
    g_clear_pointer (&self->dismissed, g_free);

  if (only_sessions)
    title = g_strdup_printf (ngettext ("%u stored session could not be read",
                                       "%u stored sessions could not be read", n), n);
  else
    title = g_strdup_printf (ngettext ("%u stored setting could not be read",
                                       "%u stored settings could not be read", n), n);
  gtk_label_set_text (self->title, title);
  gtk_revealer_set_reveal_child (self->revealer, n > 0 && self->dismissed == NULL);
}

static void
list_changed_cb (PalLoadErrorsBanner *self)
{
  update (self);
}

static void
dialog_destroy_cb (PalLoadErrorsBanner *self)
{
  self->dialog = NULL;
}

static void
details_clicked_cb (PalLoadErrorsBanner *self)
{
  pal_load_errors_banner_show_details (self);
}

static void
dismiss_clicked_cb (PalLoadErrorsBanner *self)
{
  pal_load_errors_banner_dismiss (self);
}

/* --- GObject --- */

static void
pal_load_errors_banner_dispose (GObject *object)
{
  PalLoadErrorsBanner *self = PAL_LOAD_ERRORS_BANNER (object);

  if (self->dialog != NULL)
    gtk_window_destroy (self->dialog);

  for (guint i = 0; self->lists != NULL && i < self->lists->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->lists, i), self);
  g_clear_pointer (&self->lists, g_ptr_array_unref);

  G_OBJECT_CLASS (pal_load_errors_banner_parent_class)->dispose (object);
}

static void
pal_load_errors_banner_finalize (GObject *object)
{
  PalLoadErrorsBanner *self = PAL_LOAD_ERRORS_BANNER (object);

  g_free (self->dismissed);

  G_OBJECT_CLASS (pal_load_errors_banner_parent_class)->finalize (object);
}

static void
pal_load_errors_banner_class_init (PalLoadErrorsBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_load_errors_banner_dispose;
  object_class->finalize = pal_load_errors_banner_finalize;
}

static void
pal_load_errors_banner_init (PalLoadErrorsBanner *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *details = pal_a11y_mnemonic_button_new (_("_Details"));
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  self->lists = g_ptr_array_new_with_free_func (g_object_unref);

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->title, TRUE);
  gtk_label_set_xalign (self->title, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->title), TRUE);

  gtk_widget_set_valign (details, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (details, "clicked", G_CALLBACK (details_clicked_cb), self);
  gtk_widget_set_valign (close, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_tooltip_text (close, _("Dismiss"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (close),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Dismiss"),
                                  -1);
  g_signal_connect_swapped (close, "clicked", G_CALLBACK (dismiss_clicked_cb), self);

  gtk_widget_add_css_class (box, "load-errors-banner");
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (box), details);
  gtk_box_append (GTK_BOX (box), close);

  self->revealer = GTK_REVEALER (gtk_revealer_new ());
  gtk_revealer_set_transition_type (self->revealer, GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN);
  gtk_revealer_set_child (self->revealer, box);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->revealer));
}

/* --- public API --- */

GtkWidget *
pal_load_errors_banner_new (void)
{
  return g_object_new (PAL_TYPE_LOAD_ERRORS_BANNER, NULL);
}

void
pal_load_errors_banner_add_list (PalLoadErrorsBanner *self,
                                 PalStoredList       *list)
{
  g_return_if_fail (PAL_IS_LOAD_ERRORS_BANNER (self));
  g_return_if_fail (PAL_IS_STORED_LIST (list));

  g_ptr_array_add (self->lists, g_object_ref (list));
  g_signal_connect_swapped (list, "notify::load-errors", G_CALLBACK (list_changed_cb), self);
  g_signal_connect_swapped (list, "notify::backup-path", G_CALLBACK (list_changed_cb), self);
  update (self);
}

gboolean
pal_load_errors_banner_get_revealed (PalLoadErrorsBanner *self)
{
  g_return_val_if_fail (PAL_IS_LOAD_ERRORS_BANNER (self), FALSE);

  return gtk_revealer_get_reveal_child (self->revealer);
}

const char *
pal_load_errors_banner_get_title (PalLoadErrorsBanner *self)
{
  g_return_val_if_fail (PAL_IS_LOAD_ERRORS_BANNER (self), NULL);

  return gtk_label_get_text (self->title);
}

/**
 * pal_load_errors_banner_dup_details:
 * @self: a #PalLoadErrorsBanner
 *
 * Returns: (transfer full): the load errors, a paragraph each, then where
 *   copies of the stored values are (those the errors do not name)
 */
char *
pal_load_errors_banner_dup_details (PalLoadErrorsBanner *self)
{
  GString *details = g_string_new (NULL);

  g_return_val_if_fail (PAL_IS_LOAD_ERRORS_BANNER (self), NULL);

  for (guint i = 0; i < self->lists->len; i++)
    {
      const char * const *errors = pal_stored_list_get_load_errors (g_ptr_array_index (self->lists, i));

      for (guint j = 0; errors[j] != NULL; j++)
        {
          g_string_append (details, details->len > 0 ? "\n\n" : "");
          g_string_append (details, errors[j]);
        }
    }

  for (guint i = 0; i < self->lists->len; i++)
    {
      const char *path = pal_stored_list_get_backup_path (g_ptr_array_index (self->lists, i));

      if (path != NULL && strstr (details->str, path) == NULL)
        {
          g_string_append (details, details->len > 0 ? "\n\n" : "");
          /* TRANSLATORS: %s is a file */
          g_string_append_printf (details, _("A copy of what was stored is in “%s”."), path);
        }
    }

  return g_string_free (details, FALSE);
}

/**
 * pal_load_errors_banner_show_details:
 * @self: a #PalLoadErrorsBanner
 *
 * Presents the load errors in a dialog over the window.
 *
 * Returns: (transfer none): the dialog
 */
GtkWindow *
pal_load_errors_banner_show_details (PalLoadErrorsBanner *self)
{
  g_autofree char *text = NULL;
  GtkWidget *dialog;
  GtkWidget *label;
  GtkWidget *scrolled;
  GtkRoot *root;

  g_return_val_if_fail (PAL_IS_LOAD_ERRORS_BANNER (self), NULL);

  if (self->dialog != NULL)
    gtk_window_destroy (self->dialog);

  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Stored Settings That Could Not Be Read"),
                                   _("What could not be read stays as it was stored until "
                                     "it is replaced, and is copied to a file first."));
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));

  text = pal_load_errors_banner_dup_details (self);
  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  /* wrapped text has no natural height to go by: room for a few reasons */
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 240);
  gtk_widget_set_size_request (scrolled, 420, -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), label);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), scrolled);

  self->dialog = GTK_WINDOW (dialog);
  g_signal_connect_object (dialog, "destroy", G_CALLBACK (dialog_destroy_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (self->dialog);
  return self->dialog;
}

void
pal_load_errors_banner_dismiss (PalLoadErrorsBanner *self)
{
  gboolean only_sessions;
  guint n;

  g_return_if_fail (PAL_IS_LOAD_ERRORS_BANNER (self));

  g_free (self->dismissed);
  self->dismissed = join_errors (self, &n, &only_sessions);
  update (self);
}
