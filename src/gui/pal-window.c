/* pal-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-window.h"

struct _PalWindow
{
  AdwApplicationWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (PalWindow, pal_window, ADW_TYPE_APPLICATION_WINDOW)

static void
pal_window_class_init (PalWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/gui/pal-window.ui");
}

static void
pal_window_init (PalWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PalWindow *
pal_window_new (PalApplication *application)
{
  return g_object_new (PAL_TYPE_WINDOW, "application", application, NULL);
}
