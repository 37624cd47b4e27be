/* pal-session-menu.c: the actions of one session, with why some are unavailable
 *
 * A popover of flat buttons rather than a GMenu: a GAction is enabled or not
 * for every target at once, and menu items have no tooltips, while here one
 * session may be resumable and the next not, and the person should see why.
 * Each button activates a win.* action with the session's key (agent,
 * session id) as target. An optional action (Fork, which only some agents
 * offer) that the session cannot do, with no reason given, is left out
 * rather than greyed out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-session-menu.h"

static const struct {
  const char *action;
  const char *label;
  gboolean    separator_before;
  gboolean    optional;
} entries[] = {
  { "win.open-session", N_("_Open"), FALSE, FALSE },
  { "win.resume-session", N_("Re_sume"), FALSE, FALSE },
  { "win.fork-session", N_("_Fork"), FALSE, TRUE },
  { "win.close-session", N_("_Close"), FALSE, FALSE },
  { "win.rename-session", N_("_Rename…"), TRUE, FALSE },
  { "win.pin-session", NULL, FALSE, FALSE },
  { "win.forget-session", N_("Remove From _List"), FALSE, FALSE },
  { "win.delete-session", N_("_Delete…"), FALSE, FALSE },
  { "win.export-session", N_("_Export…"), TRUE, FALSE },
  { "win.agent-log", N_("Agent _Log"), FALSE, FALSE },
};

static void
button_clicked_cb (GtkButton *button,
                   GtkWidget *popover)
{
  gtk_popover_popdown (GTK_POPOVER (popover));
}

/**
 * pal_session_menu_new:
 *
 * Returns: (transfer floating): a #GtkPopover with the session actions;
 *   call pal_session_menu_update() before showing it
 */
GtkWidget *
pal_session_menu_new (void)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      GtkWidget *button = gtk_button_new ();
      GtkWidget *label = gtk_label_new_with_mnemonic (entries[i].label != NULL ? _(entries[i].label) : "");

      if (entries[i].separator_before)
        gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), button);
      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_add_css_class (button, "session-menu-item");
      g_object_set_data (G_OBJECT (button), "action", (gpointer) entries[i].action);
      g_object_set_data (G_OBJECT (button), "optional", GINT_TO_POINTER (entries[i].optional));
      g_signal_connect (button, "clicked", G_CALLBACK (button_clicked_cb), popover);
      gtk_box_append (GTK_BOX (box), button);
    }

  gtk_widget_add_css_class (popover, "menu");
  gtk_popover_set_child (GTK_POPOVER (popover), box);

  return popover;
}

/**
 * pal_session_menu_update:
 * @menu: a menu from pal_session_menu_new()
 * @key: the session the actions apply to
 * @pinned: whether it is pinned (for the Pin/Unpin label)
 * @can_func: (nullable): tells which actions are possible
 * @user_data: for @can_func
 */
void
pal_session_menu_update (GtkWidget             *menu,
                         PalSessionKey         *key,
                         gboolean               pinned,
                         PalSessionMenuCanFunc  can_func,
                         gpointer               user_data)
{
  GtkWidget *box;

  g_return_if_fail (GTK_IS_POPOVER (menu));
  g_return_if_fail (key != NULL);

  box = gtk_popover_get_child (GTK_POPOVER (menu));
  for (GtkWidget *child = gtk_widget_get_first_child (box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *action = g_object_get_data (G_OBJECT (child), "action");
      g_autofree char *reason = NULL;
      gboolean can = TRUE;
      gboolean optional = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (child), "optional"));

      if (action == NULL)
        continue;

      if (g_str_equal (action, "win.pin-session"))
        gtk_label_set_text_with_mnemonic (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (child))),
                                          pinned ? _("Un_pin") : _("_Pin"));

      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (child), pal_session_key_to_variant (key));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (child), action);

      if (can_func != NULL)
        can = can_func (key, action, &reason, user_data);

      /* the action may be enabled for other sessions: gate this button alone */
      gtk_widget_set_sensitive (child, can);
      gtk_widget_set_tooltip_text (child, can ? NULL : reason);
      gtk_widget_set_visible (child, can || reason != NULL || !optional);
    }
}
