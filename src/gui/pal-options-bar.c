/* pal-options-bar.c: the selectors of a session's modes and config options
 *
 * One selector for each config option the session offers (a drop-down for
 * a select option, a toggle for a boolean one), or, for agents that offer
 * modes instead, one for the mode. The bar shows the session's lists
 * themselves (AcpConfigOption and AcpMode items): a change of a list
 * replaces the selectors of the items that changed, and the others stay as
 * they are. The drop-downs list the items of the lists directly.
 *
 * The bar knows nothing of sessions: what the person picks is emitted as
 * "config-option-changed" or "mode-changed", and the selectors show what
 * the lists say until they change (pal_options_bar_revert() puts them back
 * when the agent refused a change).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-config-option.h"
#include "acp-mode.h"
#include "pal-a11y.h"
#include "pal-options-bar.h"

struct _PalOptionsBar
{
  AdwBin        parent_instance;

  GtkFlowBox   *box;            /* a child per config option, or the mode's */
  GtkDropDown  *mode_dropdown;  /* while there are modes and no config options */

  GListModel   *modes;
  char         *current_mode_id;
  GListModel   *config_options;
  gboolean      updating;       /* the selectors follow the lists, not the person */
};

enum {
  PROP_0,
  PROP_MODES,
  PROP_CURRENT_MODE_ID,
  PROP_CONFIG_OPTIONS,
  N_PROPS
};

enum {
  CONFIG_OPTION_CHANGED,
  MODE_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalOptionsBar, pal_options_bar, ADW_TYPE_BIN)

/* --- the rows of a selector --- */

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

/* The button shows the option's name with its value: three selectors that
 * all read "Default" (an agent's mode, model and effort) say nothing. The
 * items are AcpMode or AcpConfigChoice, both with a "name". */
static void
button_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                const char               *option_name)
{
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_object_get (gtk_list_item_get_item (item), "name", &name, NULL);
  /* Translators: a selector below the prompt, e.g. “Model: Sonnet” */
  text = g_strdup_printf (_("%s: %s"), option_name, name);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
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
              gpointer                  user_data)
{
  GtkWidget *texts = gtk_widget_get_first_child (gtk_list_item_get_child (item));
  GtkWidget *name_label = gtk_widget_get_first_child (texts);
  GtkWidget *description_label = gtk_widget_get_last_child (texts);
  g_autofree char *name = NULL;
  g_autofree char *description = NULL;

  g_object_get (gtk_list_item_get_item (item), "name", &name, "description", &description, NULL);
  gtk_label_set_text (GTK_LABEL (name_label), name);
  gtk_label_set_text (GTK_LABEL (description_label), description);
  gtk_widget_set_visible (description_label, description != NULL && *description != '\0');
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

/* A drop-down over @model (AcpMode or AcpConfigChoice items) */
static GtkWidget *
make_dropdown (GListModel *model,
               const char *option_name)
{
  GtkWidget *dropdown = gtk_drop_down_new (model != NULL ? g_object_ref (model) : NULL, NULL);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkListItemFactory *list_factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (button_label_setup_cb), NULL);
  g_signal_connect_data (factory, "bind", G_CALLBACK (button_bind_cb), g_strdup (option_name),
                         (GClosureNotify) g_free, 0);
  g_signal_connect (list_factory, "setup", G_CALLBACK (list_label_setup_cb), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (list_bind_cb), NULL);
  g_signal_connect (list_factory, "unbind", G_CALLBACK (list_unbind_cb), NULL);
  gtk_drop_down_set_factory (GTK_DROP_DOWN (dropdown), factory);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (dropdown), list_factory);
  g_object_unref (factory);
  g_object_unref (list_factory);

  gtk_widget_set_tooltip_text (dropdown, option_name);
  pal_a11y_set_label (dropdown, option_name);
  gtk_widget_add_css_class (dropdown, "flat");

  return dropdown;
}

/* --- config options --- */

static void
option_selected_cb (GtkDropDown   *dropdown,
                    GParamSpec    *pspec,
                    PalOptionsBar *self)
{
  AcpConfigOption *option = g_object_get_data (G_OBJECT (dropdown), "option");
  AcpConfigChoice *choice = gtk_drop_down_get_selected_item (dropdown);
  g_autoptr(JsonNode) node = NULL;

  if (self->updating || choice == NULL)
    return;

  node = json_node_init_string (json_node_alloc (), acp_config_choice_get_value (choice));
  g_signal_emit (self, signals[CONFIG_OPTION_CHANGED], 0, acp_config_option_get_id (option), node);
}

static void
option_toggled_cb (GtkToggleButton *button,
                   PalOptionsBar   *self)
{
  AcpConfigOption *option = g_object_get_data (G_OBJECT (button), "option");
  g_autoptr(JsonNode) node = NULL;

  if (self->updating)
    return;

  node = json_node_init_boolean (json_node_alloc (), gtk_toggle_button_get_active (button));
  g_signal_emit (self, signals[CONFIG_OPTION_CHANGED], 0, acp_config_option_get_id (option), node);
}

/* Shows the option's value, as the list says */
static void
show_option_value (GtkWidget       *widget,
                   AcpConfigOption *option)
{
  if (GTK_IS_DROP_DOWN (widget))
    {
      guint position = acp_config_option_get_current_position (option);

      if (position != G_MAXUINT)
        gtk_drop_down_set_selected (GTK_DROP_DOWN (widget), position);
    }
  else if (GTK_IS_TOGGLE_BUTTON (widget))
    {
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (widget),
                                    acp_config_option_get_current_boolean (option));
    }
}

/* The selector of @option, or NULL when it has none (a type Palaver does
 * not know, a select without values) */
static GtkWidget *
make_option_selector (PalOptionsBar   *self,
                      AcpConfigOption *option)
{
  const char *name = acp_config_option_get_name (option);
  GListModel *choices = acp_config_option_get_choices (option);
  GtkWidget *widget;

  switch (acp_config_option_get_option_type (option))
    {
    case ACP_CONFIG_OPTION_TYPE_SELECT:
      if (g_list_model_get_n_items (choices) == 0)
        return NULL;
      widget = make_dropdown (choices, name);
      show_option_value (widget, option);
      g_signal_connect (widget, "notify::selected", G_CALLBACK (option_selected_cb), self);
      break;

    case ACP_CONFIG_OPTION_TYPE_BOOLEAN:
      widget = gtk_toggle_button_new_with_label (name);
      show_option_value (widget, option);
      gtk_label_set_ellipsize (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (widget))),
                               PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (widget, name);
      gtk_widget_add_css_class (widget, "flat");
      g_signal_connect (widget, "toggled", G_CALLBACK (option_toggled_cb), self);
      break;

    case ACP_CONFIG_OPTION_TYPE_UNKNOWN:
    default:
      return NULL;
    }

  g_object_set_data_full (G_OBJECT (widget), "option", g_object_ref (option), g_object_unref);
  return widget;
}

/* Every option has a child in the box, at its position: a hidden one when
 * it has no selector, so that the positions of the list are the box's. */
static void
insert_option (PalOptionsBar   *self,
               AcpConfigOption *option,
               guint            position)
{
  GtkWidget *selector = make_option_selector (self, option);
  GtkWidget *widget = selector != NULL ? selector : gtk_label_new (NULL);
  GtkWidget *child;

  gtk_flow_box_insert (self->box, widget, (int) position);
  child = gtk_widget_get_parent (widget);
  /* the selector takes the focus, not the cell around it */
  gtk_widget_set_focusable (child, FALSE);
  gtk_widget_set_visible (child, selector != NULL);
}

static GtkWidget *
get_selector (PalOptionsBar *self,
              guint          position)
{
  GtkFlowBoxChild *child = gtk_flow_box_get_child_at_index (self->box, (int) position);

  return child != NULL ? gtk_flow_box_child_get_child (child) : NULL;
}

/* --- modes --- */

static void
show_current_mode (PalOptionsBar *self)
{
  guint n = self->modes != NULL ? g_list_model_get_n_items (self->modes) : 0;

  if (self->mode_dropdown == NULL)
    return;

  for (guint i = 0; self->current_mode_id != NULL && i < n; i++)
    {
      g_autoptr(AcpMode) mode = g_list_model_get_item (self->modes, i);

      if (g_str_equal (acp_mode_get_id (mode), self->current_mode_id))
        {
          self->updating = TRUE;
          gtk_drop_down_set_selected (self->mode_dropdown, i);
          self->updating = FALSE;
          return;
        }
    }
}

static void
mode_selected_cb (GtkDropDown   *dropdown,
                  GParamSpec    *pspec,
                  PalOptionsBar *self)
{
  AcpMode *mode = gtk_drop_down_get_selected_item (dropdown);

  if (self->updating || mode == NULL)
    return;

  g_signal_emit (self, signals[MODE_CHANGED], 0, acp_mode_get_id (mode));
}

/* Config options supersede modes: the mode's selector is there only
 * without them */
static void
update_mode_selector (PalOptionsBar *self)
{
  gboolean wanted = self->modes != NULL && g_list_model_get_n_items (self->modes) > 0 &&
                    (self->config_options == NULL ||
                     g_list_model_get_n_items (self->config_options) == 0);

  if (wanted && self->mode_dropdown == NULL)
    {
      self->mode_dropdown = GTK_DROP_DOWN (make_dropdown (self->modes, _("Mode")));
      show_current_mode (self);
      g_signal_connect (self->mode_dropdown, "notify::selected", G_CALLBACK (mode_selected_cb),
                        self);
      gtk_flow_box_append (self->box, GTK_WIDGET (self->mode_dropdown));
      gtk_widget_set_focusable (gtk_widget_get_parent (GTK_WIDGET (self->mode_dropdown)), FALSE);
    }
  else if (!wanted && self->mode_dropdown != NULL)
    {
      gtk_flow_box_remove (self->box, gtk_widget_get_parent (GTK_WIDGET (self->mode_dropdown)));
      self->mode_dropdown = NULL;
    }
}

/* Connected before the drop-down's own handler: the drop-down moves its
 * selection when the list changes under it, which is not the person's
 * doing */
static void
modes_changing_cb (GListModel    *model,
                   guint          position,
                   guint          removed,
                   guint          added,
                   PalOptionsBar *self)
{
  self->updating = TRUE;
}

/* Connected after: the selection back on the current mode */
static void
modes_changed_cb (GListModel    *model,
                  guint          position,
                  guint          removed,
                  guint          added,
                  PalOptionsBar *self)
{
  self->updating = FALSE;
  show_current_mode (self);
  update_mode_selector (self);
}

static void
config_options_changed_cb (GListModel    *model,
                           guint          position,
                           guint          removed,
                           guint          added,
                           PalOptionsBar *self)
{
  self->updating = TRUE;
  for (guint i = 0; i < removed; i++)
    gtk_flow_box_remove (self->box, GTK_WIDGET (gtk_flow_box_get_child_at_index (self->box,
                                                                                 (int) position)));
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(AcpConfigOption) option = g_list_model_get_item (model, position + i);

      insert_option (self, option, position + i);
    }
  self->updating = FALSE;

  update_mode_selector (self);
}

/* --- GObject --- */

static void
pal_options_bar_dispose (GObject *object)
{
  PalOptionsBar *self = PAL_OPTIONS_BAR (object);

  /* what the selectors do while they go is nobody's pick */
  self->updating = TRUE;
  if (self->modes != NULL)
    g_signal_handlers_disconnect_by_data (self->modes, self);
  if (self->config_options != NULL)
    g_signal_handlers_disconnect_by_data (self->config_options, self);
  g_clear_object (&self->modes);
  g_clear_object (&self->config_options);

  G_OBJECT_CLASS (pal_options_bar_parent_class)->dispose (object);
}

static void
pal_options_bar_finalize (GObject *object)
{
  PalOptionsBar *self = PAL_OPTIONS_BAR (object);

  g_clear_pointer (&self->current_mode_id, g_free);

  G_OBJECT_CLASS (pal_options_bar_parent_class)->finalize (object);
}

static void
pal_options_bar_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PalOptionsBar *self = PAL_OPTIONS_BAR (object);

  switch (prop_id)
    {
    case PROP_MODES:
      g_value_set_object (value, self->modes);
      break;

    case PROP_CURRENT_MODE_ID:
      g_value_set_string (value, self->current_mode_id);
      break;

    case PROP_CONFIG_OPTIONS:
      g_value_set_object (value, self->config_options);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_options_bar_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PalOptionsBar *self = PAL_OPTIONS_BAR (object);

  switch (prop_id)
    {
    case PROP_MODES:
      pal_options_bar_set_modes (self, g_value_get_object (value));
      break;

    case PROP_CURRENT_MODE_ID:
      pal_options_bar_set_current_mode_id (self, g_value_get_string (value));
      break;

    case PROP_CONFIG_OPTIONS:
      pal_options_bar_set_config_options (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_options_bar_class_init (PalOptionsBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = pal_options_bar_dispose;
  object_class->finalize = pal_options_bar_finalize;
  object_class->get_property = pal_options_bar_get_property;
  object_class->set_property = pal_options_bar_set_property;

  /**
   * PalOptionsBar:modes:
   *
   * The #AcpMode items to choose from, when there are no config options.
   */
  properties[PROP_MODES] =
    g_param_spec_object ("modes", NULL, NULL, G_TYPE_LIST_MODEL, rw);
  properties[PROP_CURRENT_MODE_ID] =
    g_param_spec_string ("current-mode-id", NULL, NULL, NULL, rw);
  /**
   * PalOptionsBar:config-options:
   *
   * The #AcpConfigOption items: a selector for each that Palaver can show.
   */
  properties[PROP_CONFIG_OPTIONS] =
    g_param_spec_object ("config-options", NULL, NULL, G_TYPE_LIST_MODEL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalOptionsBar::config-option-changed:
   * @self: the bar
   * @config_id: the id of the option
   * @value: a string node (a select option's value id) or a boolean node
   *
   * The person changed a config option.
   */
  signals[CONFIG_OPTION_CHANGED] =
    g_signal_new ("config-option-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, JSON_TYPE_NODE);
  /**
   * PalOptionsBar::mode-changed:
   * @self: the bar
   * @mode_id: the id of the mode picked
   *
   * The person picked another mode.
   */
  signals[MODE_CHANGED] =
    g_signal_new ("mode-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
pal_options_bar_init (PalOptionsBar *self)
{
  /* the selectors wrap, and their names shrink: however many an agent
   * offers, and however long their values, the window is no wider */
  self->box = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->box, GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (self->box, 12);
  gtk_flow_box_set_column_spacing (self->box, 4);
  gtk_flow_box_set_row_spacing (self->box, 2);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->box));
}

GtkWidget *
pal_options_bar_new (void)
{
  return g_object_new (PAL_TYPE_OPTIONS_BAR, NULL);
}

/**
 * pal_options_bar_get_modes:
 * @self: a #PalOptionsBar
 *
 * Returns: (transfer none) (nullable): the #AcpMode items
 */
GListModel *
pal_options_bar_get_modes (PalOptionsBar *self)
{
  g_return_val_if_fail (PAL_IS_OPTIONS_BAR (self), NULL);

  return self->modes;
}

/**
 * pal_options_bar_set_modes:
 * @self: a #PalOptionsBar
 * @modes: (nullable): #AcpMode items
 *
 * Offers the modes of @modes, while there are no config options. The
 * selector follows the changes of @modes.
 */
void
pal_options_bar_set_modes (PalOptionsBar *self,
                           GListModel    *modes)
{
  g_return_if_fail (PAL_IS_OPTIONS_BAR (self));
  g_return_if_fail (modes == NULL || G_IS_LIST_MODEL (modes));

  if (self->modes == modes)
    return;

  if (self->modes != NULL)
    g_signal_handlers_disconnect_by_data (self->modes, self);
  g_set_object (&self->modes, modes);
  if (modes != NULL)
    {
      /* before the drop-down's own handler, which comes with the model */
      g_signal_connect (modes, "items-changed", G_CALLBACK (modes_changing_cb), self);
      g_signal_connect_after (modes, "items-changed", G_CALLBACK (modes_changed_cb), self);
    }

  if (self->mode_dropdown != NULL)
    {
      self->updating = TRUE;
      gtk_drop_down_set_model (self->mode_dropdown, modes);
      self->updating = FALSE;
      show_current_mode (self);
    }
  update_mode_selector (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODES]);
}

const char *
pal_options_bar_get_current_mode_id (PalOptionsBar *self)
{
  g_return_val_if_fail (PAL_IS_OPTIONS_BAR (self), NULL);

  return self->current_mode_id;
}

/**
 * pal_options_bar_set_current_mode_id:
 * @self: a #PalOptionsBar
 * @mode_id: (nullable): the id of the mode the agent is in
 */
void
pal_options_bar_set_current_mode_id (PalOptionsBar *self,
                                     const char    *mode_id)
{
  g_return_if_fail (PAL_IS_OPTIONS_BAR (self));

  if (g_strcmp0 (self->current_mode_id, mode_id) == 0)
    return;

  g_free (self->current_mode_id);
  self->current_mode_id = g_strdup (mode_id);
  show_current_mode (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_MODE_ID]);
}

/**
 * pal_options_bar_get_config_options:
 * @self: a #PalOptionsBar
 *
 * Returns: (transfer none) (nullable): the #AcpConfigOption items
 */
GListModel *
pal_options_bar_get_config_options (PalOptionsBar *self)
{
  g_return_val_if_fail (PAL_IS_OPTIONS_BAR (self), NULL);

  return self->config_options;
}

/**
 * pal_options_bar_set_config_options:
 * @self: a #PalOptionsBar
 * @config_options: (nullable): #AcpConfigOption items
 *
 * Shows a selector for each option; config options win over modes when an
 * agent sends both, as the protocol asks. When an item of @config_options
 * is replaced, so is its selector; the others stay.
 */
void
pal_options_bar_set_config_options (PalOptionsBar *self,
                                    GListModel    *config_options)
{
  guint n_old;

  g_return_if_fail (PAL_IS_OPTIONS_BAR (self));
  g_return_if_fail (config_options == NULL || G_IS_LIST_MODEL (config_options));

  if (self->config_options == config_options)
    return;

  n_old = self->config_options != NULL ? g_list_model_get_n_items (self->config_options) : 0;
  if (self->config_options != NULL)
    g_signal_handlers_disconnect_by_data (self->config_options, self);
  g_set_object (&self->config_options, config_options);
  if (config_options != NULL)
    g_signal_connect (config_options, "items-changed", G_CALLBACK (config_options_changed_cb),
                      self);

  /* as if the old list had changed into the new one */
  config_options_changed_cb (config_options, 0, n_old,
                             config_options != NULL ? g_list_model_get_n_items (config_options) : 0,
                             self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONFIG_OPTIONS]);
}

/**
 * pal_options_bar_revert:
 * @self: a #PalOptionsBar
 *
 * Puts every selector back to the value its list says: after the agent
 * refused what the person picked.
 */
void
pal_options_bar_revert (PalOptionsBar *self)
{
  guint n;

  g_return_if_fail (PAL_IS_OPTIONS_BAR (self));

  n = self->config_options != NULL ? g_list_model_get_n_items (self->config_options) : 0;

  self->updating = TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpConfigOption) option = g_list_model_get_item (self->config_options, i);
      GtkWidget *selector = get_selector (self, i);

      if (selector != NULL)
        show_option_value (selector, option);
    }
  self->updating = FALSE;

  show_current_mode (self);
}
