/* pal-name-value-row.c: one environment variable or HTTP header in an editor
 *
 * Two entries bound to a #PalNameValue, a toggle that marks the value secret
 * (masked, with an eye icon to show it), a remove button and a line for what
 * is wrong with the row. The row changes the item directly; removing is the
 * owner's business (#PalNameValueRow::remove-requested).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-a11y.h"
#include "pal-name-value-row.h"

struct _PalNameValueRow
{
  AdwPreferencesRow parent_instance;

  GtkEntry *name_entry;
  GtkEntry *value_entry;
  GtkToggleButton *secret_button;
  GtkButton *remove_button;
  GtkLabel *error_label;

  PalNameValue *item;
  char *error;
  gboolean can_be_secret;
  gboolean revealed;
};

G_DEFINE_FINAL_TYPE (PalNameValueRow, pal_name_value_row, ADW_TYPE_PREFERENCES_ROW)

enum {
  PROP_0,
  PROP_ITEM,
  PROP_CAN_BE_SECRET,
  PROP_REVEALED,
  N_PROPS
};

enum {
  REMOVE_REQUESTED,
  TEXT_PASTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
update_masking (PalNameValueRow *self)
{
  gboolean secret = self->can_be_secret && pal_name_value_get_secret (self->item);

  gtk_entry_set_visibility (self->value_entry, !secret || self->revealed);
  if (secret)
    {
      gtk_entry_set_icon_from_icon_name (self->value_entry, GTK_ENTRY_ICON_SECONDARY,
                                         self->revealed ? "view-conceal-symbolic"
                                                        : "view-reveal-symbolic");
      gtk_entry_set_icon_tooltip_text (self->value_entry, GTK_ENTRY_ICON_SECONDARY,
                                       self->revealed ? _("Hide") : _("Show"));
    }
  else
    gtk_entry_set_icon_from_icon_name (self->value_entry, GTK_ENTRY_ICON_SECONDARY, NULL);
}

static void
item_secret_notify_cb (PalNameValueRow *self)
{
  /* a value just marked secret is hidden at once */
  if (pal_name_value_get_secret (self->item))
    pal_name_value_row_set_revealed (self, FALSE);
  update_masking (self);
}

static void
value_icon_press_cb (PalNameValueRow      *self,
                     GtkEntryIconPosition  position)
{
  if (position == GTK_ENTRY_ICON_SECONDARY)
    pal_name_value_row_set_revealed (self, !self->revealed);
}

static void
remove_clicked_cb (PalNameValueRow *self)
{
  g_signal_emit (self, signals[REMOVE_REQUESTED], 0);
}

/* More than a character at once, with a line break or a separator in it:
 * pasted lines of NAME=VALUE, which the group may make rows of. Typing
 * goes in a character at a time. */
static void
entry_insert_text_cb (GtkEditable     *editable,
                      const char      *text,
                      int              length,
                      int             *position,
                      PalNameValueRow *self)
{
  g_autofree char *inserted = NULL;
  gboolean handled = FALSE;

  if (length < 0)
    length = strlen (text);
  if (g_utf8_strlen (text, length) < 2)
    return;

  inserted = g_strndup (text, length);
  g_signal_emit (self, signals[TEXT_PASTED], 0, inserted,
                 editable == gtk_editable_get_delegate (GTK_EDITABLE (self->name_entry))
                 ? PAL_NAME_VALUE_FIELD_NAME : PAL_NAME_VALUE_FIELD_VALUE,
                 &handled);
  if (handled)
    g_signal_stop_emission_by_name (editable, "insert-text");
}

static void
pal_name_value_row_constructed (GObject *object)
{
  PalNameValueRow *self = PAL_NAME_VALUE_ROW (object);

  G_OBJECT_CLASS (pal_name_value_row_parent_class)->constructed (object);

  g_return_if_fail (PAL_IS_NAME_VALUE (self->item));

  g_object_bind_property (self->item, "name", self->name_entry, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->item, "value", self->value_entry, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  /* the row's title is what search and screen readers see */
  g_object_bind_property (self->item, "name", self, "title", G_BINDING_SYNC_CREATE);

  gtk_widget_set_visible (GTK_WIDGET (self->secret_button), self->can_be_secret);
  if (self->can_be_secret)
    g_object_bind_property (self->item, "secret", self->secret_button, "active",
                            G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  g_signal_connect_object (self->item, "notify::secret",
                           G_CALLBACK (item_secret_notify_cb), self, G_CONNECT_SWAPPED);
  update_masking (self);

  /* the entries' own text widgets, where insert-text is emitted */
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (self->name_entry)), "insert-text",
                    G_CALLBACK (entry_insert_text_cb), self);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (self->value_entry)), "insert-text",
                    G_CALLBACK (entry_insert_text_cb), self);
}

static void
pal_name_value_row_dispose (GObject *object)
{
  PalNameValueRow *self = PAL_NAME_VALUE_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_NAME_VALUE_ROW);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (pal_name_value_row_parent_class)->dispose (object);
}

static void
pal_name_value_row_finalize (GObject *object)
{
  PalNameValueRow *self = PAL_NAME_VALUE_ROW (object);

  g_free (self->error);

  G_OBJECT_CLASS (pal_name_value_row_parent_class)->finalize (object);
}

static void
pal_name_value_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PalNameValueRow *self = PAL_NAME_VALUE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    case PROP_CAN_BE_SECRET:
      g_value_set_boolean (value, self->can_be_secret);
      break;
    case PROP_REVEALED:
      g_value_set_boolean (value, self->revealed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_name_value_row_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  PalNameValueRow *self = PAL_NAME_VALUE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      self->item = g_value_dup_object (value);
      break;
    case PROP_CAN_BE_SECRET:
      self->can_be_secret = g_value_get_boolean (value);
      break;
    case PROP_REVEALED:
      pal_name_value_row_set_revealed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_name_value_row_class_init (PalNameValueRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = pal_name_value_row_constructed;
  object_class->dispose = pal_name_value_row_dispose;
  object_class->finalize = pal_name_value_row_finalize;
  object_class->get_property = pal_name_value_row_get_property;
  object_class->set_property = pal_name_value_row_set_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, PAL_TYPE_NAME_VALUE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* Whether the row offers the secret toggle (HTTP headers, MCP variables). */
  properties[PROP_CAN_BE_SECRET] =
    g_param_spec_boolean ("can-be-secret", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS);
  properties[PROP_REVEALED] =
    g_param_spec_boolean ("revealed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalNameValueRow::remove-requested:
   *
   * The person clicked the remove button.
   */
  signals[REMOVE_REQUESTED] =
    g_signal_new ("remove-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * PalNameValueRow::text-pasted:
   * @text: what is about to go into the name or the value
   * @field: which (a #PalNameValueField)
   *
   * More than one character is about to go into a field at once (pasted,
   * most likely). A handler that returns %TRUE took it: it does not go in.
   */
  signals[TEXT_PASTED] =
    g_signal_new ("text-pasted",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 2, G_TYPE_STRING, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-name-value-row.ui");
  gtk_widget_class_bind_template_child (widget_class, PalNameValueRow, name_entry);
  gtk_widget_class_bind_template_child (widget_class, PalNameValueRow, value_entry);
  gtk_widget_class_bind_template_child (widget_class, PalNameValueRow, secret_button);
  gtk_widget_class_bind_template_child (widget_class, PalNameValueRow, remove_button);
  gtk_widget_class_bind_template_child (widget_class, PalNameValueRow, error_label);
  gtk_widget_class_bind_template_callback (widget_class, value_icon_press_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked_cb);
}

static void
pal_name_value_row_init (PalNameValueRow *self)
{
  self->can_be_secret = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * pal_name_value_row_new:
 * @item: the variable or header to edit
 * @can_be_secret: whether to offer the secret toggle
 *
 * Returns: (transfer floating): a new row
 */
GtkWidget *
pal_name_value_row_new (PalNameValue *item,
                        gboolean      can_be_secret)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE (item), NULL);

  return g_object_new (PAL_TYPE_NAME_VALUE_ROW,
                       "item", item,
                       "can-be-secret", can_be_secret,
                       NULL);
}

PalNameValue *
pal_name_value_row_get_item (PalNameValueRow *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_ROW (self), NULL);
  return self->item;
}

GtkEditable *
pal_name_value_row_get_name_entry (PalNameValueRow *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_ROW (self), NULL);
  return GTK_EDITABLE (self->name_entry);
}

GtkEditable *
pal_name_value_row_get_value_entry (PalNameValueRow *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_ROW (self), NULL);
  return GTK_EDITABLE (self->value_entry);
}

gboolean
pal_name_value_row_get_revealed (PalNameValueRow *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_ROW (self), FALSE);
  return self->revealed;
}

void
pal_name_value_row_set_revealed (PalNameValueRow *self,
                                 gboolean         revealed)
{
  g_return_if_fail (PAL_IS_NAME_VALUE_ROW (self));

  revealed = !!revealed;
  if (self->revealed == revealed)
    return;

  self->revealed = revealed;
  update_masking (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVEALED]);
}

void
pal_name_value_row_set_error (PalNameValueRow   *self,
                              PalNameValueField  field,
                              const char        *message)
{
  GtkWidget *bad = GTK_WIDGET (field == PAL_NAME_VALUE_FIELD_NAME ? self->name_entry
                                                                  : self->value_entry);
  GtkWidget *good = GTK_WIDGET (field == PAL_NAME_VALUE_FIELD_NAME ? self->value_entry
                                                                   : self->name_entry);

  g_return_if_fail (PAL_IS_NAME_VALUE_ROW (self));

  gtk_widget_remove_css_class (good, "error");
  pal_a11y_set_invalid (good, FALSE);
  if (message != NULL)
    gtk_widget_add_css_class (bad, "error");
  else
    gtk_widget_remove_css_class (bad, "error");
  pal_a11y_set_invalid (bad, message != NULL);

  if (g_strcmp0 (self->error, message) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (message);

  /* the bad entry is marked, not the whole row: "error" on the row would
   * paint the good entry and the buttons too */
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/**
 * pal_name_value_row_get_error:
 * @self: a #PalNameValueRow
 *
 * Returns: (nullable): the message shown under the row
 */
const char *
pal_name_value_row_get_error (PalNameValueRow *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_ROW (self), NULL);
  return self->error;
}
