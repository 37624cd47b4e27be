/* test-notice-row.c: a notice's icon says what it is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "acp-notice-item.h"
#include "find-descendant.h"
#include "pal-notice-row.h"

static const char *
icon_of (GtkWidget *row)
{
  GtkWidget *image = find_descendant (row, GTK_TYPE_IMAGE);

  g_assert_nonnull (image);
  return gtk_image_get_icon_name (GTK_IMAGE (image));
}

/* An error, a warning and information each have their icon (information
 * not Adwaita's light bulb, which says "a hint"), and it follows the
 * notice */
static void
test_icon_by_severity (void)
{
  static const struct
  {
    AcpNoticeSeverity severity;
    const char       *icon;
  } cases[] = {
    { ACP_NOTICE_SEVERITY_ERROR, "dialog-error-symbolic" },
    { ACP_NOTICE_SEVERITY_WARNING, "dialog-warning-symbolic" },
    { ACP_NOTICE_SEVERITY_INFO, "pal-information-symbolic" },
  };
  g_autoptr(AcpNoticeItem) followed = acp_notice_item_new (ACP_NOTICE_SEVERITY_INFO, "Compacting", NULL, NULL);
  GtkWidget *row;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AcpNoticeItem) item = acp_notice_item_new (cases[i].severity, "Something", NULL, NULL);

      row = g_object_ref_sink (pal_notice_row_new (ACP_ITEM (item)));
      g_assert_cmpstr (icon_of (row), ==, cases[i].icon);
      g_object_unref (row);
    }

  /* the icon is one the application has */
  g_assert_true (g_resources_get_info ("/io/github/palaverapp/Palaver/icons/scalable/status/"
                                       "pal-information-symbolic.svg",
                                       G_RESOURCE_LOOKUP_FLAGS_NONE, NULL, NULL, NULL));

  row = g_object_ref_sink (pal_notice_row_new (ACP_ITEM (followed)));
  g_assert_cmpstr (icon_of (row), ==, "pal-information-symbolic");
  acp_notice_item_set_severity (followed, ACP_NOTICE_SEVERITY_WARNING);
  g_assert_cmpstr (icon_of (row), ==, "dialog-warning-symbolic");
  g_assert_true (gtk_widget_has_css_class (row, "warning"));
  g_object_unref (row);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/notice-row/icon-by-severity", test_icon_by_severity);

  return g_test_run ();
}
