/* pal-composer.c: where the person writes a prompt
 *
 * A multi-line text view: Enter sends, Shift+Enter breaks the line. While a
 * turn runs, Send becomes Stop. Typing "/" at the start offers the agent's
 * commands (from available_commands_update); Up/Down pick, Tab or Enter
 * complete, Escape closes. When the session offers config options (or, for
 * older agents, modes) a selector for each sits beside the buttons.
 *
 * The composer knows nothing of sessions: it emits "submit", "stop",
 * "config-option-changed" and "mode-changed", and the window acts on them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "acp-json.h"
#include "pal-composer.h"

struct _PalComposer
{
  AdwBin          parent_instance;

  GtkTextView    *text_view;
  GtkWidget      *placeholder;   /* over the empty text view */
  GtkButton      *send_button;
  GtkButton      *stop_button;
  GtkFlowBox     *options_box;
  GtkPopover     *completion_popover;
  GtkListBox     *completion_list;

  JsonArray      *commands;
  gboolean        busy;
  gboolean        can_send;
  gboolean        updating_options;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_CAN_SEND,
  N_PROPS
};

enum {
  SUBMIT,
  STOP,
  CONFIG_OPTION_CHANGED,
  MODE_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalComposer, pal_composer, ADW_TYPE_BIN)

static void
update_buttons (PalComposer *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  gboolean has_text = gtk_text_buffer_get_char_count (buffer) > 0;

  gtk_widget_set_visible (self->placeholder, !has_text);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), self->busy);
  gtk_widget_set_visible (GTK_WIDGET (self->send_button), !self->busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->send_button), has_text && self->can_send);
}

/* The "/word" being typed at the very start, or NULL. */
static char *
dup_command_prefix (PalComposer *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);

  if (text[0] != '/' || strpbrk (text, " \t\n") != NULL)
    return NULL;

  return g_steal_pointer (&text);
}

static void
hide_completion (PalComposer *self)
{
  if (gtk_widget_get_visible (GTK_WIDGET (self->completion_popover)))
    gtk_popover_popdown (self->completion_popover);
}

static void
update_completion (PalComposer *self)
{
  g_autofree char *prefix = dup_command_prefix (self);
  guint n = self->commands != NULL ? json_array_get_length (self->commands) : 0;
  GtkWidget *child;
  guint shown = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->completion_list))) != NULL)
    gtk_list_box_remove (self->completion_list, child);

  if (prefix == NULL || n == 0)
    {
      hide_completion (self);
      return;
    }

  for (guint i = 0; i < n; i++)
    {
      JsonObject *command = acp_json_array_get_object (self->commands, i);
      const char *name, *description;
      g_autofree char *title = NULL;
      GtkWidget *row, *box, *label;

      if (command == NULL)
        continue;
      name = acp_json_get_string (command, "name", NULL);
      if (name == NULL || !g_str_has_prefix (name, prefix + 1))
        continue;
      description = acp_json_get_string (command, "description", "");

      title = g_strdup_printf ("/%s", name);
      box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      label = gtk_label_new (title);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "heading");
      gtk_box_append (GTK_BOX (box), label);
      label = gtk_label_new (description);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);

      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data_full (G_OBJECT (row), "command-name", g_strdup (name), g_free);
      gtk_list_box_append (self->completion_list, row);
      shown++;
    }

  if (shown == 0)
    {
      hide_completion (self);
      return;
    }

  gtk_list_box_select_row (self->completion_list, gtk_list_box_get_row_at_index (self->completion_list, 0));
  if (!gtk_widget_get_visible (GTK_WIDGET (self->completion_popover)))
    gtk_popover_popup (self->completion_popover);
}

static void
complete_with_row (PalComposer   *self,
                   GtkListBoxRow *row)
{
  const char *name = g_object_get_data (G_OBJECT (row), "command-name");
  g_autofree char *text = g_strdup_printf ("/%s ", name);

  hide_completion (self);
  pal_composer_set_text (self, text);
  gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

static void
completion_row_activated_cb (GtkListBox    *list,
                             GtkListBoxRow *row,
                             PalComposer   *self)
{
  complete_with_row (self, row);
}

static void
move_selection (PalComposer *self,
                int          delta)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->completion_list);
  int index = row != NULL ? gtk_list_box_row_get_index (row) + delta : 0;
  GtkListBoxRow *next = gtk_list_box_get_row_at_index (self->completion_list, MAX (index, 0));

  if (next != NULL)
    gtk_list_box_select_row (self->completion_list, next);
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                PalComposer           *self)
{
  gboolean completing = gtk_widget_get_visible (GTK_WIDGET (self->completion_popover));
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;
  gboolean modified = (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0;

  if (completing)
    {
      switch (keyval)
        {
        case GDK_KEY_Up:
          move_selection (self, -1);
          return TRUE;
        case GDK_KEY_Down:
          move_selection (self, 1);
          return TRUE;
        case GDK_KEY_Escape:
          hide_completion (self);
          return TRUE;
        case GDK_KEY_Tab:
        case GDK_KEY_Return:
        case GDK_KEY_KP_Enter:
          {
            GtkListBoxRow *row = gtk_list_box_get_selected_row (self->completion_list);

            if (row != NULL && !modified)
              {
                complete_with_row (self, row);
                return TRUE;
              }
          }
          break;
        default:
          break;
        }
    }

  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && !shift)
    {
      if (!modified || (state & GDK_CONTROL_MASK) != 0)
        {
          pal_composer_submit (self);
          return TRUE;
        }
    }

  return FALSE;
}

static void
buffer_changed_cb (GtkTextBuffer *buffer,
                   PalComposer   *self)
{
  update_buttons (self);
  update_completion (self);
}

static void
send_clicked_cb (PalComposer *self)
{
  pal_composer_submit (self);
}

static void
stop_clicked_cb (PalComposer *self)
{
  g_signal_emit (self, signals[STOP], 0);
}

static void
dropdown_selected_cb (GtkDropDown *dropdown,
                      GParamSpec  *pspec,
                      PalComposer *self)
{
  GPtrArray *values = g_object_get_data (G_OBJECT (dropdown), "values");
  const char *config_id = g_object_get_data (G_OBJECT (dropdown), "config-id");
  guint selected = gtk_drop_down_get_selected (dropdown);
  const char *value;

  if (self->updating_options || values == NULL || selected >= values->len)
    return;

  value = g_ptr_array_index (values, selected);
  if (config_id != NULL)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

      json_node_set_string (node, value);
      g_signal_emit (self, signals[CONFIG_OPTION_CHANGED], 0, config_id, node);
    }
  else
    {
      g_signal_emit (self, signals[MODE_CHANGED], 0, value);
    }
}

static void
toggle_toggled_cb (GtkToggleButton *button,
                   PalComposer     *self)
{
  const char *config_id = g_object_get_data (G_OBJECT (button), "config-id");
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  if (self->updating_options)
    return;

  json_node_set_boolean (node, gtk_toggle_button_get_active (button));
  g_signal_emit (self, signals[CONFIG_OPTION_CHANGED], 0, config_id, node);
}

/* Flattens select options, grouped or not, into names, value ids and
 * descriptions (NULL for none). */
static void
collect_select_values (JsonArray     *options,
                       GtkStringList *names,
                       GPtrArray     *values,
                       GPtrArray     *descriptions)
{
  guint n = options != NULL ? json_array_get_length (options) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonObject *option = acp_json_array_get_object (options, i);
      const char *value, *name;

      if (option == NULL)
        continue;

      if (json_object_has_member (option, "group") && acp_json_get_array (option, "options") != NULL)
        {
          collect_select_values (acp_json_get_array (option, "options"), names, values, descriptions);
          continue;
        }

      value = acp_json_get_string (option, "value", NULL);
      name = acp_json_get_string (option, "name", value);
      if (value == NULL)
        continue;

      gtk_string_list_append (names, name);
      g_ptr_array_add (values, g_strdup (value));
      g_ptr_array_add (descriptions, g_strdup (acp_json_get_string (option, "description", NULL)));
    }
}

/* On the button: shortened with an ellipsis where the bar is too narrow */
static void
button_label_setup_cb (GtkSignalListItemFactory *factory,
                       GtkListItem              *item,
                       gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 6);
  gtk_list_item_set_child (item, label);
}

static GtkWidget *
wrapping_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 50);

  return label;
}

/* In the list that pops up: the name whole, on several lines if need be,
 * the agent's description under it, and a check on the current choice */
static void
list_label_setup_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *item,
                     gpointer                  user_data)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *description = wrapping_label ();
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_widget_add_css_class (description, "caption");
  gtk_widget_add_css_class (description, "dim-label");
  gtk_box_append (GTK_BOX (texts), wrapping_label ());
  gtk_box_append (GTK_BOX (texts), description);
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (row), texts);
  gtk_box_append (GTK_BOX (row), check);
  gtk_list_item_set_child (item, row);
}

static void
append_option (PalComposer *self,
               GtkWidget   *widget)
{
  gtk_flow_box_append (self->options_box, widget);
  /* the selector takes the focus, not the cell around it */
  gtk_widget_set_focusable (gtk_widget_get_last_child (GTK_WIDGET (self->options_box)), FALSE);
}

/* The button shows the option's name with its value: three selectors that
 * all read "Default" (an agent's mode, model and effort) say nothing */
static void
button_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                const char               *option_name)
{
  const char *value = gtk_string_object_get_string (gtk_list_item_get_item (item));
  g_autofree char *text = NULL;

  /* Translators: a selector below the prompt, e.g. “Model: Sonnet” */
  text = g_strdup_printf (_("%s: %s"), option_name, value);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
update_check (GtkListItem *item)
{
  GtkWidget *row = gtk_list_item_get_child (item);
  gboolean current = gtk_list_item_get_selected (item);

  /* kept in place, so that the names line up */
  gtk_widget_set_opacity (gtk_widget_get_last_child (row), current ? 1.0 : 0.0);
  gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED, current, -1);
}

static void
list_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              GtkDropDown              *dropdown)
{
  GtkWidget *texts = gtk_widget_get_first_child (gtk_list_item_get_child (item));
  GtkWidget *name = gtk_widget_get_first_child (texts);
  GtkWidget *description = gtk_widget_get_last_child (texts);
  GPtrArray *descriptions = g_object_get_data (G_OBJECT (dropdown), "descriptions");
  guint position = gtk_list_item_get_position (item);
  const char *text = descriptions != NULL && position < descriptions->len
    ? g_ptr_array_index (descriptions, position) : NULL;

  gtk_label_set_text (GTK_LABEL (name), gtk_string_object_get_string (gtk_list_item_get_item (item)));
  gtk_label_set_text (GTK_LABEL (description), text);
  gtk_widget_set_visible (description, text != NULL && *text != '\0');
  update_check (item);
  g_signal_connect (item, "notify::selected", G_CALLBACK (update_check), NULL);
}

static void
list_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  g_signal_handlers_disconnect_by_func (item, update_check, NULL);
}

static GtkWidget *
make_dropdown (PalComposer  *self,
               const char   *config_id,
               const char   *option_name,
               GtkStringList *names,
               GPtrArray    *values,
               GPtrArray    *descriptions,
               const char   *current)
{
  GtkWidget *dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (names)), NULL);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkListItemFactory *list_factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (button_label_setup_cb), NULL);
  g_signal_connect_data (factory, "bind", G_CALLBACK (button_bind_cb), g_strdup (option_name),
                         (GClosureNotify) g_free, 0);
  g_signal_connect (list_factory, "setup", G_CALLBACK (list_label_setup_cb), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (list_bind_cb), dropdown);
  g_signal_connect (list_factory, "unbind", G_CALLBACK (list_unbind_cb), NULL);
  gtk_drop_down_set_factory (GTK_DROP_DOWN (dropdown), factory);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (dropdown), list_factory);
  g_object_unref (factory);
  g_object_unref (list_factory);

  for (guint i = 0; i < values->len; i++)
    {
      if (g_strcmp0 (g_ptr_array_index (values, i), current) == 0)
        gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), i);
    }

  g_object_set_data_full (G_OBJECT (dropdown), "values", g_ptr_array_ref (values),
                          (GDestroyNotify) g_ptr_array_unref);
  g_object_set_data_full (G_OBJECT (dropdown), "descriptions", g_ptr_array_ref (descriptions),
                          (GDestroyNotify) g_ptr_array_unref);
  if (config_id != NULL)
    g_object_set_data_full (G_OBJECT (dropdown), "config-id", g_strdup (config_id), g_free);
  gtk_widget_set_tooltip_text (dropdown, option_name);
  gtk_widget_add_css_class (dropdown, "flat");
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (dropdown_selected_cb), self);

  return dropdown;
}

/**
 * pal_composer_set_session_options:
 * @self: a #PalComposer
 * @modes: (nullable): a SessionModeState
 * @config_options: (nullable): SessionConfigOption objects
 *
 * Shows a selector for each option. Config options win over modes when an
 * agent sends both, as the protocol asks.
 */
void
pal_composer_set_session_options (PalComposer *self,
                                  JsonObject  *modes,
                                  JsonArray   *config_options)
{
  GtkWidget *child;
  guint n = config_options != NULL ? json_array_get_length (config_options) : 0;

  g_return_if_fail (PAL_IS_COMPOSER (self));

  self->updating_options = TRUE;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->options_box))) != NULL)
    gtk_flow_box_remove (self->options_box, child);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *option = acp_json_array_get_object (config_options, i);
      const char *type, *config_id, *name;

      if (option == NULL)
        continue;
      type = acp_json_get_string (option, "type", "");
      config_id = acp_json_get_string (option, "id", NULL);
      name = acp_json_get_string (option, "name", config_id);
      if (config_id == NULL)
        continue;

      if (g_str_equal (type, "select"))
        {
          g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
          g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
          g_autoptr(GPtrArray) descriptions = g_ptr_array_new_with_free_func (g_free);
          const char *current = acp_json_get_string (option, "currentValue", NULL);

          collect_select_values (acp_json_get_array (option, "options"), names, values, descriptions);
          if (values->len == 0)
            continue;

          append_option (self, make_dropdown (self, config_id, name, names, values, descriptions, current));
        }
      else if (g_str_equal (type, "boolean"))
        {
          GtkWidget *toggle = gtk_toggle_button_new_with_label (name);
          gboolean current = FALSE;

          acp_json_get_boolean (option, "currentValue", &current);
          gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), current);
          gtk_label_set_ellipsize (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (toggle))),
                                   PANGO_ELLIPSIZE_END);
          gtk_widget_set_tooltip_text (toggle, name);
          g_object_set_data_full (G_OBJECT (toggle), "config-id", g_strdup (config_id), g_free);
          gtk_widget_add_css_class (toggle, "flat");
          g_signal_connect (toggle, "toggled", G_CALLBACK (toggle_toggled_cb), self);
          append_option (self, toggle);
        }
    }

  if (n == 0 && acp_json_get_array (modes, "availableModes") != NULL)
    {
      JsonArray *available = acp_json_get_array (modes, "availableModes");
      g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
      g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) descriptions = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < json_array_get_length (available); i++)
        {
          JsonObject *mode = acp_json_array_get_object (available, i);
          const char *id;

          if (mode == NULL || (id = acp_json_get_string (mode, "id", NULL)) == NULL)
            continue;
          gtk_string_list_append (names, acp_json_get_string (mode, "name", id));
          g_ptr_array_add (values, g_strdup (id));
          g_ptr_array_add (descriptions, g_strdup (acp_json_get_string (mode, "description", NULL)));
        }

      if (values->len > 0)
        append_option (self, make_dropdown (self, NULL, _("Mode"), names, values, descriptions,
                                            acp_json_get_string (modes, "currentModeId", NULL)));
    }

  self->updating_options = FALSE;
}

static void
pal_composer_dispose (GObject *object)
{
  PalComposer *self = PAL_COMPOSER (object);

  g_clear_pointer (&self->commands, json_array_unref);
  if (self->completion_popover != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->completion_popover));
      self->completion_popover = NULL;
    }

  G_OBJECT_CLASS (pal_composer_parent_class)->dispose (object);
}

static void
pal_composer_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PalComposer *self = PAL_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_CAN_SEND:
      g_value_set_boolean (value, self->can_send);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_composer_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  PalComposer *self = PAL_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      pal_composer_set_busy (self, g_value_get_boolean (value));
      break;

    case PROP_CAN_SEND:
      pal_composer_set_can_send (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_composer_class_init (PalComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_composer_dispose;
  object_class->get_property = pal_composer_get_property;
  object_class->set_property = pal_composer_set_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_SEND] =
    g_param_spec_boolean ("can-send", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalComposer::submit:
   * @text: the prompt
   *
   * The person sent a prompt. The text has been cleared from the composer.
   */
  signals[SUBMIT] =
    g_signal_new ("submit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[STOP] =
    g_signal_new ("stop", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CONFIG_OPTION_CHANGED] =
    g_signal_new ("config-option-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, JSON_TYPE_NODE);
  signals[MODE_CHANGED] =
    g_signal_new ("mode-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "composer");
}

static void
pal_composer_init (PalComposer *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *frame = gtk_scrolled_window_new ();
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkEventController *keys;
  GtkTextBuffer *buffer;

  self->can_send = TRUE;

  self->text_view = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_wrap_mode (self->text_view, GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (self->text_view, FALSE);
  gtk_text_view_set_top_margin (self->text_view, 8);
  gtk_text_view_set_bottom_margin (self->text_view, 8);
  gtk_text_view_set_left_margin (self->text_view, 10);
  gtk_text_view_set_right_margin (self->text_view, 10);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Prompt"),
                                  -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->text_view), "prompt");

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (frame), GTK_WIDGET (self->text_view));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (frame), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (frame), TRUE);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (frame), 48);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (frame), 240);
  gtk_widget_add_css_class (frame, "card");
  gtk_widget_add_css_class (frame, "composer-entry");

  /* a text view has no placeholder of its own: a dim line over it, where
   * the text starts, while it is empty (clicks go through to the view) */
  self->placeholder = gtk_label_new (_("Ask the agent, or type / for its commands"));
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_widget_set_halign (self->placeholder, GTK_ALIGN_START);
  gtk_widget_set_valign (self->placeholder, GTK_ALIGN_START);
  gtk_widget_set_margin_start (self->placeholder, 11);
  gtk_widget_set_margin_top (self->placeholder, 9);
  gtk_label_set_ellipsize (GTK_LABEL (self->placeholder), PANGO_ELLIPSIZE_END);
  gtk_widget_set_can_target (self->placeholder, FALSE);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), frame);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->placeholder);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->text_view), keys);

  buffer = gtk_text_view_get_buffer (self->text_view);
  g_signal_connect (buffer, "changed", G_CALLBACK (buffer_changed_cb), self);

  /* the selectors wrap, and their names shrink: however many an agent
   * offers, and however long their values, the window is no wider */
  self->options_box = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->options_box, GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (self->options_box, 12);
  gtk_flow_box_set_column_spacing (self->options_box, 4);
  gtk_flow_box_set_row_spacing (self->options_box, 2);
  gtk_widget_set_hexpand (GTK_WIDGET (self->options_box), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->options_box), GTK_ALIGN_CENTER);

  self->send_button = GTK_BUTTON (gtk_button_new_from_icon_name ("go-up-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->send_button), _("Send (Enter)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->send_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Send"), -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->send_button), "suggested-action");
  gtk_widget_add_css_class (GTK_WIDGET (self->send_button), "circular");
  g_signal_connect_swapped (self->send_button, "clicked", G_CALLBACK (send_clicked_cb), self);

  self->stop_button = GTK_BUTTON (gtk_button_new_from_icon_name ("media-playback-stop-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button), _("Stop (Escape)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->stop_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Stop"), -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->stop_button), "destructive-action");
  gtk_widget_add_css_class (GTK_WIDGET (self->stop_button), "circular");
  g_signal_connect_swapped (self->stop_button, "clicked", G_CALLBACK (stop_clicked_cb), self);

  /* round, whatever the height of the selectors beside them */
  gtk_widget_set_valign (GTK_WIDGET (self->send_button), GTK_ALIGN_END);
  gtk_widget_set_valign (GTK_WIDGET (self->stop_button), GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->options_box));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->send_button));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->stop_button));

  gtk_box_append (GTK_BOX (box), overlay);
  gtk_box_append (GTK_BOX (box), bar);
  adw_bin_set_child (ADW_BIN (self), box);

  self->completion_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->completion_list, GTK_SELECTION_BROWSE);
  g_signal_connect (self->completion_list, "row-activated", G_CALLBACK (completion_row_activated_cb), self);
  self->completion_popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->completion_popover, GTK_WIDGET (self->completion_list));
  gtk_popover_set_autohide (self->completion_popover, FALSE);
  gtk_popover_set_has_arrow (self->completion_popover, FALSE);
  gtk_popover_set_position (self->completion_popover, GTK_POS_TOP);
  gtk_widget_set_halign (GTK_WIDGET (self->completion_popover), GTK_ALIGN_START);
  gtk_widget_set_parent (GTK_WIDGET (self->completion_popover), frame);

  update_buttons (self);
}

GtkWidget *
pal_composer_new (void)
{
  return g_object_new (PAL_TYPE_COMPOSER, NULL);
}

/**
 * pal_composer_dup_text:
 * @self: a #PalComposer
 *
 * Returns: (transfer full): the text typed so far
 */
char *
pal_composer_dup_text (PalComposer *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
pal_composer_set_text (PalComposer *self,
                       const char  *text)
{
  GtkTextBuffer *buffer;
  GtkTextIter end;

  g_return_if_fail (PAL_IS_COMPOSER (self));

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_set_text (buffer, text != NULL ? text : "", -1);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
}

gboolean
pal_composer_get_busy (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), FALSE);

  return self->busy;
}

/**
 * pal_composer_set_busy:
 * @self: a #PalComposer
 * @busy: whether a turn runs
 *
 * While busy, Stop replaces Send and Enter does not send.
 */
void
pal_composer_set_busy (PalComposer *self,
                       gboolean     busy)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  busy = !!busy;
  if (self->busy == busy)
    return;

  self->busy = busy;
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

gboolean
pal_composer_get_can_send (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), FALSE);

  return self->can_send;
}

/**
 * pal_composer_set_can_send:
 * @self: a #PalComposer
 * @can_send: whether the session can take a prompt now
 */
void
pal_composer_set_can_send (PalComposer *self,
                           gboolean     can_send)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  can_send = !!can_send;
  if (self->can_send == can_send)
    return;

  self->can_send = can_send;
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_SEND]);
}

/**
 * pal_composer_set_commands:
 * @self: a #PalComposer
 * @commands: (nullable): AvailableCommand objects for slash completion
 */
void
pal_composer_set_commands (PalComposer *self,
                           JsonArray   *commands)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  if (commands != NULL)
    json_array_ref (commands);
  g_clear_pointer (&self->commands, json_array_unref);
  self->commands = commands;

  update_completion (self);
}

/**
 * pal_composer_submit:
 * @self: a #PalComposer
 *
 * Sends what was typed, as Enter does.
 *
 * Returns: whether a prompt was sent
 */
gboolean
pal_composer_submit (PalComposer *self)
{
  g_autofree char *text = NULL;
  g_autofree char *stripped = NULL;

  g_return_val_if_fail (PAL_IS_COMPOSER (self), FALSE);

  if (self->busy || !self->can_send)
    return FALSE;

  text = pal_composer_dup_text (self);
  stripped = g_strstrip (g_strdup (text));
  if (*stripped == '\0')
    return FALSE;

  hide_completion (self);
  pal_composer_set_text (self, NULL);
  g_signal_emit (self, signals[SUBMIT], 0, text);

  return TRUE;
}

void
pal_composer_grab_focus (PalComposer *self)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

/**
 * pal_composer_get_n_completions:
 * @self: a #PalComposer
 *
 * Returns: how many commands the completion popover offers now (0 when closed)
 */
guint
pal_composer_get_n_completions (PalComposer *self)
{
  guint n = 0;

  g_return_val_if_fail (PAL_IS_COMPOSER (self), 0);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->completion_popover)))
    return 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->completion_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;

  return n;
}
