/* pal-tooltip.c: tooltips for widgets built in bulk, and none over menus
 *
 * gtk_widget_set_tooltip_text() on a visible widget asks at once where the
 * pointer is, to show or hide a tooltip under it; on X11 that is a round trip
 * to the server. A replay builds thousands of chat rows, and that question
 * was a tenth of its time. The text set here is only read when a tooltip is
 * due (GtkWidget::query-tooltip), so setting it costs nothing of the kind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-tooltip.h"

#define TOOLTIP_KEY "pal-quiet-tooltip"

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (widget), TOOLTIP_KEY);

  if (text == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/**
 * pal_widget_set_quiet_tooltip:
 * @widget: a #GtkWidget
 * @text: (nullable): the tooltip, also the widget's accessible description
 *
 * Like gtk_widget_set_tooltip_text(), without asking the display where the
 * pointer is. Not to be mixed with GTK's own tooltip setters on @widget.
 */
void
pal_widget_set_quiet_tooltip (GtkWidget  *widget,
                              const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text != NULL && *text == '\0')
    text = NULL;

  if (g_object_get_data (G_OBJECT (widget), TOOLTIP_KEY) == NULL && text != NULL)
    g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  g_object_set_data_full (G_OBJECT (widget), TOOLTIP_KEY, g_strdup (text), g_free);
  gtk_widget_set_has_tooltip (widget, text != NULL);

  if (text != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

/**
 * pal_widget_get_quiet_tooltip:
 * @widget: a #GtkWidget
 *
 * Returns: (nullable): the text set with pal_widget_set_quiet_tooltip()
 */
const char *
pal_widget_get_quiet_tooltip (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return g_object_get_data (G_OBJECT (widget), TOOLTIP_KEY);
}

static void
menu_visible_cb (GtkWidget  *popover,
                 GParamSpec *pspec,
                 GtkWidget  *button)
{
  gtk_widget_set_has_tooltip (button, !gtk_widget_get_visible (popover));
}

/**
 * pal_menu_button_hide_tooltip_while_open:
 * @button: a #GtkMenuButton with its popover or menu set
 *
 * A tooltip that was due when the button was clicked comes up once the menu
 * is open, over its first item, where it takes the next click: while the
 * menu is open, @button has none.
 */
void
pal_menu_button_hide_tooltip_while_open (GtkMenuButton *button)
{
  GtkPopover *popover;

  g_return_if_fail (GTK_IS_MENU_BUTTON (button));

  popover = gtk_menu_button_get_popover (button);
  g_return_if_fail (popover != NULL);
  g_signal_connect_object (popover, "notify::visible", G_CALLBACK (menu_visible_cb), button, 0);
}
