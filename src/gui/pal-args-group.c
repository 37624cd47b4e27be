/* pal-args-group.c: the command-line arguments in an editor, one row each
 *
 * Each argument is an entry row of its own, passed to the program as it is
 * (no shell splits or quotes it), with buttons to move it up or down and to
 * remove it. #PalArgsGroup::changed follows every edit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-args-group.h"

struct _PalArgsGroup
{
  AdwPreferencesGroup parent_instance;

  GtkButton *add_button;

  /* AdwEntryRow, in order */
  GPtrArray *rows;
  guint updating;
};

G_DEFINE_FINAL_TYPE (PalArgsGroup, pal_args_group, ADW_TYPE_PREFERENCES_GROUP)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

#define ROW_UP_BUTTON "pal-up-button"
#define ROW_DOWN_BUTTON "pal-down-button"

static void
emit_changed (PalArgsGroup *self)
{
  if (self->updating == 0)
    g_signal_emit (self, signals[CHANGED], 0);
}

static guint
row_position (PalArgsGroup *self,
              GtkWidget    *child)
{
  GtkWidget *row = gtk_widget_get_ancestor (child, ADW_TYPE_ENTRY_ROW);
  guint position;

  if (row == NULL || !g_ptr_array_find (self->rows, row, &position))
    return G_MAXUINT;
  return position;
}

/* Titles say which argument a row is; the ends cannot move further. */
static void
update_rows (PalArgsGroup *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);
      g_autofree char *title = NULL;

      /* TRANSLATORS: the title of the row holding command-line argument number %u */
      title = g_strdup_printf (_("Argument %u"), i + 1);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), ROW_UP_BUTTON), i > 0);
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), ROW_DOWN_BUTTON),
                                i + 1 < self->rows->len);
    }
}

static void
up_clicked_cb (GtkButton    *button,
               PalArgsGroup *self)
{
  guint position = row_position (self, GTK_WIDGET (button));

  if (position != G_MAXUINT)
    pal_args_group_move (self, position, TRUE);
}

static void
down_clicked_cb (GtkButton    *button,
                 PalArgsGroup *self)
{
  guint position = row_position (self, GTK_WIDGET (button));

  if (position != G_MAXUINT)
    pal_args_group_move (self, position, FALSE);
}

static void
remove_clicked_cb (GtkButton    *button,
                   PalArgsGroup *self)
{
  guint position = row_position (self, GTK_WIDGET (button));

  if (position != G_MAXUINT)
    pal_args_group_remove (self, position);
}

static GtkWidget *
add_suffix_button (PalArgsGroup *self,
                   AdwEntryRow  *row,
                   const char   *icon_name,
                   const char   *tooltip,
                   GCallback     callback)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  /* GTK 4.8 does not name an icon button after its tooltip */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_add_css_class (button, "flat");
  g_signal_connect_object (button, "clicked", callback, self, 0);
  adw_entry_row_add_suffix (row, button);
  return button;
}

static AdwEntryRow *
append_row (PalArgsGroup *self,
            const char   *text)
{
  AdwEntryRow *row = ADW_ENTRY_ROW (adw_entry_row_new ());

  gtk_editable_set_text (GTK_EDITABLE (row), text);
  adw_entry_row_set_input_hints (row, GTK_INPUT_HINT_NO_SPELLCHECK | GTK_INPUT_HINT_NO_EMOJI);
  g_object_set_data (G_OBJECT (row), ROW_UP_BUTTON,
                     add_suffix_button (self, row, "go-up-symbolic", _("Move Up"),
                                        G_CALLBACK (up_clicked_cb)));
  g_object_set_data (G_OBJECT (row), ROW_DOWN_BUTTON,
                     add_suffix_button (self, row, "go-down-symbolic", _("Move Down"),
                                        G_CALLBACK (down_clicked_cb)));
  add_suffix_button (self, row, "user-trash-symbolic", _("Remove"),
                     G_CALLBACK (remove_clicked_cb));
  g_signal_connect_object (row, "changed", G_CALLBACK (emit_changed), self, G_CONNECT_SWAPPED);

  g_ptr_array_add (self->rows, row);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (row));
  return row;
}

static void
remove_all (PalArgsGroup *self)
{
  while (self->rows->len > 0)
    {
      GtkWidget *row = g_ptr_array_steal_index (self->rows, self->rows->len - 1);

      adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self), row);
    }
}

static void
add_clicked_cb (PalArgsGroup *self)
{
  pal_args_group_add (self, "");
}

static void
pal_args_group_dispose (GObject *object)
{
  PalArgsGroup *self = PAL_ARGS_GROUP (object);

  g_ptr_array_set_size (self->rows, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_ARGS_GROUP);

  G_OBJECT_CLASS (pal_args_group_parent_class)->dispose (object);
}

static void
pal_args_group_finalize (GObject *object)
{
  PalArgsGroup *self = PAL_ARGS_GROUP (object);

  g_ptr_array_unref (self->rows);

  G_OBJECT_CLASS (pal_args_group_parent_class)->finalize (object);
}

static void
pal_args_group_class_init (PalArgsGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_args_group_dispose;
  object_class->finalize = pal_args_group_finalize;

  /**
   * PalArgsGroup::changed:
   *
   * An argument was added, removed, moved or edited.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-args-group.ui");
  gtk_widget_class_bind_template_child (widget_class, PalArgsGroup, add_button);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked_cb);
}

static void
pal_args_group_init (PalArgsGroup *self)
{
  /* the group owns the row widgets; the array only orders them */
  self->rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
pal_args_group_set_args (PalArgsGroup       *self,
                         const char * const *args)
{
  g_return_if_fail (PAL_IS_ARGS_GROUP (self));

  self->updating++;
  remove_all (self);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    append_row (self, args[i]);
  update_rows (self);
  self->updating--;

  emit_changed (self);
}

/**
 * pal_args_group_dup_args:
 * @self: a #PalArgsGroup
 *
 * Returns: (transfer full): the arguments, in order, empty ones included
 */
char **
pal_args_group_dup_args (PalArgsGroup *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (PAL_IS_ARGS_GROUP (self), NULL);

  for (guint i = 0; i < self->rows->len; i++)
    g_strv_builder_add (builder, gtk_editable_get_text (g_ptr_array_index (self->rows, i)));
  return g_strv_builder_end (builder);
}

guint
pal_args_group_get_n_args (PalArgsGroup *self)
{
  g_return_val_if_fail (PAL_IS_ARGS_GROUP (self), 0);
  return self->rows->len;
}

/**
 * pal_args_group_get_row:
 * @self: a #PalArgsGroup
 * @position: the index of an argument
 *
 * Returns: (transfer none) (nullable): the row of that argument
 */
AdwEntryRow *
pal_args_group_get_row (PalArgsGroup *self,
                        guint         position)
{
  g_return_val_if_fail (PAL_IS_ARGS_GROUP (self), NULL);

  if (position >= self->rows->len)
    return NULL;
  return g_ptr_array_index (self->rows, position);
}

/**
 * pal_args_group_add:
 * @self: a #PalArgsGroup
 * @text: the argument
 *
 * Returns: (transfer none): the new row
 */
AdwEntryRow *
pal_args_group_add (PalArgsGroup *self,
                    const char   *text)
{
  AdwEntryRow *row;

  g_return_val_if_fail (PAL_IS_ARGS_GROUP (self), NULL);

  self->updating++;
  row = append_row (self, text != NULL ? text : "");
  update_rows (self);
  self->updating--;

  gtk_widget_grab_focus (GTK_WIDGET (row));
  emit_changed (self);
  return row;
}

void
pal_args_group_remove (PalArgsGroup *self,
                       guint         position)
{
  GtkWidget *row;

  g_return_if_fail (PAL_IS_ARGS_GROUP (self));
  g_return_if_fail (position < self->rows->len);

  row = g_ptr_array_steal_index (self->rows, position);
  adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self), row);
  update_rows (self);

  /* keep the keyboard where it was: on the next row, else the previous */
  if (self->rows->len > 0)
    gtk_widget_grab_focus (g_ptr_array_index (self->rows, MIN (position, self->rows->len - 1)));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->add_button));

  emit_changed (self);
}

void
pal_args_group_move (PalArgsGroup *self,
                     guint         position,
                     gboolean      up)
{
  guint other;
  GtkEditable *a, *b;
  GtkWidget *button;
  g_autofree char *text = NULL;

  g_return_if_fail (PAL_IS_ARGS_GROUP (self));
  g_return_if_fail (position < self->rows->len);

  if (up ? position == 0 : position + 1 >= self->rows->len)
    return;
  other = up ? position - 1 : position + 1;

  /* Rows of a preferences group cannot be reordered: move the texts. */
  a = g_ptr_array_index (self->rows, position);
  b = g_ptr_array_index (self->rows, other);
  text = g_strdup (gtk_editable_get_text (a));

  self->updating++;
  gtk_editable_set_text (a, gtk_editable_get_text (b));
  gtk_editable_set_text (b, text);
  self->updating--;

  /* follow the argument, on the same button when it can go further */
  button = g_object_get_data (G_OBJECT (b), up ? ROW_UP_BUTTON : ROW_DOWN_BUTTON);
  if (gtk_widget_get_sensitive (button))
    gtk_widget_grab_focus (button);
  else
    gtk_widget_grab_focus (GTK_WIDGET (b));
  emit_changed (self);
}
