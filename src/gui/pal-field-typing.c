/* pal-field-typing.c: whether the person is typing in a field of an editor
 *
 * The editors check their fields as the person types, and keep Save off
 * while one is bad; but a field turning red at every keystroke, before the
 * person is done, scolds them for what they have not finished. So a field
 * is "being typed in" from the first change after the focus came into it
 * until the focus leaves it (or a save is tried): meanwhile its problem is
 * not shown, and once it is left, it is. A field that was bad stays so
 * while the focus merely passes through it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-field-typing.h"

typedef struct
{
  GtkEventController *focus;      /* owned by the field */
  PalFieldTextFunc    text_func;  /* NULL: the field is a GtkEditable */
  char               *entered;    /* the text when the focus came in */
  void              (*left) (gpointer data);
  gpointer            data;
} Watch;

#define WATCH_KEY "pal-field-typing"

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  g_free (watch->entered);
  g_free (watch);
}

static char *
dup_text (GtkWidget *field,
          Watch     *watch)
{
  if (watch->text_func != NULL)
    return watch->text_func (field);

  return g_strdup (gtk_editable_get_text (GTK_EDITABLE (field)));
}

/* Whether the window's focus is in @field, active or not: the focus
 * leaves a field, for GTK, when its window goes to the background too */
static gboolean
holds_focus (GtkWidget *field)
{
  GtkRoot *root = gtk_widget_get_root (field);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == field || gtk_widget_is_ancestor (focus, field));
}

static void
focus_enter_cb (GtkEventControllerFocus *focus,
                GtkWidget               *field)
{
  Watch *watch = g_object_get_data (G_OBJECT (field), WATCH_KEY);

  /* back from another window: still the same typing */
  if (watch->entered != NULL)
    return;

  watch->entered = dup_text (field, watch);
}

static void
focus_leave_cb (GtkEventControllerFocus *focus,
                GtkWidget               *field)
{
  Watch *watch = g_object_get_data (G_OBJECT (field), WATCH_KEY);
  GtkRoot *root = gtk_widget_get_root (field);

  /* the window went to the background, the field kept its focus */
  if (holds_focus (field))
    return;

  g_clear_pointer (&watch->entered, g_free);
  /* the focus also leaves a window that goes: nothing to show then */
  if (watch->left != NULL && root != NULL && !gtk_widget_in_destruction (GTK_WIDGET (root)) &&
      !gtk_widget_in_destruction (field))
    watch->left (watch->data);
}

void
pal_field_typing_watch (GtkWidget        *field,
                        PalFieldTextFunc  text_func,
                        GCallback         left,
                        gpointer          data)
{
  Watch *watch;

  g_return_if_fail (GTK_IS_WIDGET (field));
  g_return_if_fail (text_func != NULL || GTK_IS_EDITABLE (field));

  watch = g_new0 (Watch, 1);
  watch->text_func = text_func;
  watch->focus = gtk_event_controller_focus_new ();
  g_object_set_data_full (G_OBJECT (field), WATCH_KEY, watch, watch_free);

  watch->left = (void (*) (gpointer)) left;
  watch->data = data;
  g_signal_connect (watch->focus, "enter", G_CALLBACK (focus_enter_cb), field);
  g_signal_connect (watch->focus, "leave", G_CALLBACK (focus_leave_cb), field);
  gtk_widget_add_controller (field, watch->focus);
}

gboolean
pal_field_typing_get (GtkWidget *field)
{
  Watch *watch;
  g_autofree char *text = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (field), FALSE);

  watch = g_object_get_data (G_OBJECT (field), WATCH_KEY);
  if (watch == NULL || watch->entered == NULL || !holds_focus (field))
    return FALSE;

  text = dup_text (field, watch);
  return g_strcmp0 (text, watch->entered) != 0;
}

void
pal_field_typing_done (GtkWidget *field)
{
  Watch *watch;

  g_return_if_fail (GTK_IS_WIDGET (field));

  watch = g_object_get_data (G_OBJECT (field), WATCH_KEY);
  if (watch != NULL && watch->entered != NULL)
    {
      g_free (watch->entered);
      watch->entered = dup_text (field, watch);
    }
}
