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
  PalFieldTextFunc    text_func;  /* NULL: the field is a GtkEditable */
  char               *entered;    /* the text when the focus came in */
  void              (*left) (gpointer data);
  gpointer            data;
  GtkWindow          *window;     /* whose focus is followed (weak) */
} Watch;

#define WATCH_KEY "pal-field-typing"

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  g_clear_weak_pointer (&watch->window);
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

/* Whether the window's focus is in @field, active or not: GTK takes the
 * focus from a field, for a while, when its window goes to the background
 * (another window, the pointer leaving it with no window manager), and the
 * person has not left the field then */
static gboolean
holds_focus (GtkWidget *field)
{
  GtkRoot *root = gtk_widget_get_root (field);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == field || gtk_widget_is_ancestor (focus, field));
}

/* The window's focus moved: into the field, or out of it */
static void
focus_widget_cb (GtkWindow  *window,
                 GParamSpec *pspec,
                 GtkWidget  *field)
{
  Watch *watch = g_object_get_data (G_OBJECT (field), WATCH_KEY);

  if (holds_focus (field))
    {
      if (watch->entered == NULL)
        watch->entered = dup_text (field, watch);
      return;
    }

  if (watch->entered == NULL)
    return;

  g_clear_pointer (&watch->entered, g_free);
  /* the focus also leaves a window that goes: nothing to show then */
  if (watch->left != NULL && !gtk_widget_in_destruction (GTK_WIDGET (window)) &&
      !gtk_widget_in_destruction (field))
    watch->left (watch->data);
}

/* Once in a window, its focus is followed */
static void
follow_window (GtkWidget *field)
{
  Watch *watch = g_object_get_data (G_OBJECT (field), WATCH_KEY);
  GtkRoot *root = gtk_widget_get_root (field);

  if (!GTK_IS_WINDOW (root) || GTK_WINDOW (root) == watch->window)
    return;

  if (watch->window != NULL)
    g_signal_handlers_disconnect_by_func (watch->window, focus_widget_cb, field);
  g_set_weak_pointer (&watch->window, GTK_WINDOW (root));
  g_signal_connect_object (root, "notify::focus-widget", G_CALLBACK (focus_widget_cb), field, 0);
  focus_widget_cb (GTK_WINDOW (root), NULL, field);
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
  watch->left = (void (*) (gpointer)) left;
  watch->data = data;
  g_object_set_data_full (G_OBJECT (field), WATCH_KEY, watch, watch_free);

  g_signal_connect (field, "map", G_CALLBACK (follow_window), NULL);
  follow_window (field);
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
