/* pal-a11y.c: names and states for screen readers
 *
 * GTK 4.8 names a button made with a mnemonic after its label's text with
 * the underscore in it, and the label's text again ("_Start Start"): such
 * buttons are given their name without it. A field whose value is wrong
 * says so (the "error" style alone is only seen).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-a11y.h"

/* @mnemonic without its underscores ("__" is one underscore) */
static char *
strip_mnemonic (const char *mnemonic)
{
  GString *text = g_string_new (NULL);

  for (const char *p = mnemonic; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          if (p[1] != '_')
            continue;
          p++;
        }
      g_string_append_c (text, *p);
    }

  return g_string_free (text, FALSE);
}

/**
 * pal_a11y_mnemonic_button_new:
 * @mnemonic: the button's label, with an underscore before its mnemonic
 *
 * Returns: (transfer floating): a button whose accessible name is its
 *   label without the underscore
 */
GtkWidget *
pal_a11y_mnemonic_button_new (const char *mnemonic)
{
  GtkWidget *button;
  g_autofree char *name = NULL;

  g_return_val_if_fail (mnemonic != NULL, NULL);

  button = gtk_button_new_with_mnemonic (mnemonic);
  name = strip_mnemonic (mnemonic);
  pal_a11y_set_label (button, name);

  return button;
}

void
pal_a11y_set_label (GtkWidget  *widget,
                    const char *label)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label != NULL ? label : "", -1);
}

void
pal_a11y_set_invalid (GtkWidget *widget,
                      gboolean   invalid)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (invalid)
    gtk_accessible_update_state (GTK_ACCESSIBLE (widget),
                                 GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
  else
    gtk_accessible_reset_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_INVALID);
}
