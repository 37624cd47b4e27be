/* pal-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-application.h"
#include "pal-window.h"

struct _PalApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (PalApplication, pal_application, ADW_TYPE_APPLICATION)

static void
pal_application_activate (GApplication *app)
{
  GtkWindow *window;

  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL)
    window = GTK_WINDOW (pal_window_new (PAL_APPLICATION (app)));

  gtk_window_present (window);
}

static void
pal_application_class_init (PalApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = pal_application_activate;
}

static void
pal_application_init (PalApplication *self)
{
}

PalApplication *
pal_application_new (void)
{
  return g_object_new (PAL_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "resource-base-path", RESOURCE_BASE,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       NULL);
}
