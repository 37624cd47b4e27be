/* pal-copy-button.c: a small Copy button that says when it copied
 *
 * A flat button with the copy icon, for code blocks and messages. What it
 * copies is its owner's business (its "clicked" signal or action); once
 * that is on the clipboard, pal_copy_button_show_copied () turns the icon
 * into a check mark and the tooltip into "Copied" for a moment. Its
 * tooltip is set the quiet way (pal-tooltip.c): buttons like it are built
 * by the hundred while a history loads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-copy-button.h"
#include "pal-tooltip.h"

/* How long the button says it copied */
#define COPIED_SECONDS 2

/* On the button: the source that turns it back, while it says it copied */
#define COPIED_KEY "pal-copy-button-copied"

static void
show_state (GtkWidget *button,
            gboolean   copied)
{
  gtk_button_set_icon_name (GTK_BUTTON (button), copied ? "object-select-symbolic" : "edit-copy-symbolic");
  pal_widget_set_quiet_tooltip (button, copied ? _("Copied") : _("Copy"));
}

static gboolean
copied_cb (gpointer user_data)
{
  GtkWidget *button = user_data;

  /* the source is gone: only the key is taken off */
  g_object_steal_data (G_OBJECT (button), COPIED_KEY);
  show_state (button, FALSE);

  return G_SOURCE_REMOVE;
}

static void
remove_source (gpointer data)
{
  g_source_remove (GPOINTER_TO_UINT (data));
}

/**
 * pal_copy_button_new:
 * @accessible_label: what a screen reader says it copies ("Copy Code")
 *
 * Returns: (transfer floating): a new button
 */
GtkWidget *
pal_copy_button_new (const char *accessible_label)
{
  GtkWidget *button = gtk_button_new ();

  g_return_val_if_fail (accessible_label != NULL, NULL);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "copy-button");
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_label, -1);
  show_state (button, FALSE);

  return button;
}

/**
 * pal_copy_button_show_copied:
 * @button: a button of pal_copy_button_new()
 *
 * Says that the copy was made, for COPIED_SECONDS.
 */
void
pal_copy_button_show_copied (GtkWidget *button)
{
  guint id;

  g_return_if_fail (GTK_IS_BUTTON (button));

  show_state (button, TRUE);
  id = g_timeout_add_seconds (COPIED_SECONDS, copied_cb, button);
  /* a source still there from before is removed */
  g_object_set_data_full (G_OBJECT (button), COPIED_KEY, GUINT_TO_POINTER (id), remove_source);
}

/**
 * pal_copy_button_get_copied:
 * @button: a button of pal_copy_button_new()
 *
 * Returns: whether it says that it copied
 */
gboolean
pal_copy_button_get_copied (GtkWidget *button)
{
  g_return_val_if_fail (GTK_IS_BUTTON (button), FALSE);

  return g_object_get_data (G_OBJECT (button), COPIED_KEY) != NULL;
}
