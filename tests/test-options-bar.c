/* test-options-bar.c: the selectors follow the session's lists in place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "acp-config-option.h"
#include "acp-mode.h"
#include "find-descendant.h"
#include "json-text.h"
#include "pal-options-bar.h"

typedef struct
{
  GtkWidget     *window;
  PalOptionsBar *bar;
  GListStore    *modes;
  GListStore    *options;
  guint          n_mode_changes;
  char          *mode;
  guint          n_option_changes;
  char          *config_id;
  JsonNode      *value;
} Fixture;

static void
mode_changed_cb (PalOptionsBar *bar,
                 const char    *mode,
                 Fixture       *f)
{
  f->n_mode_changes++;
  g_free (f->mode);
  f->mode = g_strdup (mode);
}

static void
config_option_changed_cb (PalOptionsBar *bar,
                          const char    *config_id,
                          JsonNode      *value,
                          Fixture       *f)
{
  f->n_option_changes++;
  g_free (f->config_id);
  f->config_id = g_strdup (config_id);
  g_clear_pointer (&f->value, json_node_unref);
  f->value = json_node_copy (value);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->window = gtk_window_new ();
  f->bar = PAL_OPTIONS_BAR (pal_options_bar_new ());
  f->modes = g_list_store_new (ACP_TYPE_MODE);
  f->options = g_list_store_new (ACP_TYPE_CONFIG_OPTION);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->bar));
  gtk_window_present (GTK_WINDOW (f->window));
  g_signal_connect (f->bar, "mode-changed", G_CALLBACK (mode_changed_cb), f);
  g_signal_connect (f->bar, "config-option-changed", G_CALLBACK (config_option_changed_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->modes);
  g_clear_object (&f->options);
  g_clear_pointer (&f->mode, g_free);
  g_clear_pointer (&f->config_id, g_free);
  g_clear_pointer (&f->value, json_node_unref);
}

static AcpMode *
mode (const char *id)
{
  g_autofree char *json = g_strdup_printf ("{'id': '%s', 'name': '%s'}", id, id);
  g_autoptr(JsonNode) node = json_text_parse (json);

  return acp_mode_new_from_json (node, NULL);
}

static AcpConfigOption *
option (const char *json)
{
  g_autoptr(JsonNode) node = json_text_parse (json);
  AcpConfigOption *made = acp_config_option_new_from_json (node, NULL);

  g_assert_nonnull (made);
  return made;
}

/* Replaces @n_removed items of @store at @position by @added (taken) */
static void
splice (GListStore *store,
        guint       position,
        guint       n_removed,
        GObject    *added)
{
  g_list_store_splice (store, position, n_removed, (gpointer *) &added, added != NULL ? 1 : 0);
  g_clear_object (&added);
}

/* The selectors shown, in order (held: a selector replaced is another
 * object, not one at the same address) */
static GPtrArray *
selectors (Fixture *f)
{
  GtkFlowBox *box = GTK_FLOW_BOX (find_descendant (GTK_WIDGET (f->bar), GTK_TYPE_FLOW_BOX));
  GPtrArray *shown = g_ptr_array_new_with_free_func (g_object_unref);
  GtkFlowBoxChild *child;

  for (int i = 0; (child = gtk_flow_box_get_child_at_index (box, i)) != NULL; i++)
    if (gtk_widget_get_visible (GTK_WIDGET (child)))
      g_ptr_array_add (shown, g_object_ref (gtk_flow_box_child_get_child (child)));

  return shown;
}

static GtkDropDown *
only_dropdown (Fixture *f)
{
  g_autoptr(GPtrArray) shown = selectors (f);

  g_assert_cmpuint (shown->len, ==, 1);
  g_assert_true (GTK_IS_DROP_DOWN (g_ptr_array_index (shown, 0)));
  return g_ptr_array_index (shown, 0);
}

static void
fill_modes (Fixture    *f,
            const char *current)
{
  const char *ids[] = { "ask", "code", "plan" };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    splice (f->modes, i, 0, G_OBJECT (mode (ids[i])));
  pal_options_bar_set_modes (f->bar, G_LIST_MODEL (f->modes));
  pal_options_bar_set_current_mode_id (f->bar, current);
}

/* The agent's list of modes changes under the selector: it shows the
 * current mode still, and nothing is asked of the agent. */
static void
test_modes_in_place (Fixture       *f,
                     gconstpointer  data)
{
  GtkDropDown *dropdown;

  fill_modes (f, "plan");
  dropdown = only_dropdown (f);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 2);

  /* "ask" replaced: the current mode moves up */
  splice (f->modes, 0, 2, G_OBJECT (mode ("code")));
  g_assert_true (only_dropdown (f) == dropdown);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  g_assert_cmpstr (acp_mode_get_id (gtk_drop_down_get_selected_item (dropdown)), ==, "plan");

  /* the current mode itself replaced */
  splice (f->modes, 1, 1, G_OBJECT (mode ("plan")));
  g_assert_cmpstr (acp_mode_get_id (gtk_drop_down_get_selected_item (dropdown)), ==, "plan");

  /* and removed: the selector moves, the agent is not told */
  splice (f->modes, 1, 1, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->modes)), ==, 1);

  g_assert_cmpuint (f->n_mode_changes, ==, 0);
}

/* current-mode-id moves the selection, without asking the agent; the
 * person's pick does ask */
static void
test_current_mode (Fixture       *f,
                   gconstpointer  data)
{
  GtkDropDown *dropdown;

  fill_modes (f, "ask");
  dropdown = only_dropdown (f);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  gtk_test_accessible_assert_property (dropdown, GTK_ACCESSIBLE_PROPERTY_LABEL, "Mode");

  pal_options_bar_set_current_mode_id (f->bar, "plan");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 2);
  g_assert_cmpuint (f->n_mode_changes, ==, 0);

  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpuint (f->n_mode_changes, ==, 1);
  g_assert_cmpstr (f->mode, ==, "code");

  /* the agent refused: back to the mode it is in */
  pal_options_bar_revert (f->bar);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 2);
  g_assert_cmpuint (f->n_mode_changes, ==, 1);
}

static void
fill_options (Fixture *f)
{
  splice (f->options, 0, 0, G_OBJECT (option (
    "{'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': 'a',"
    " 'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'B'}]}")));
  splice (f->options, 1, 0, G_OBJECT (option (
    "{'id': 'secret', 'name': 'Secret', 'type': 'slider'}")));
  splice (f->options, 2, 0, G_OBJECT (option (
    "{'id': 'fast', 'name': 'Fast', 'type': 'boolean', 'currentValue': false}")));
  splice (f->options, 3, 0, G_OBJECT (option (
    "{'id': 'effort', 'name': 'Effort', 'type': 'select', 'currentValue': 'high',"
    " 'options': [{'value': 'low', 'name': 'Low'}, {'value': 'high', 'name': 'High'}]}")));
  pal_options_bar_set_config_options (f->bar, G_LIST_MODEL (f->options));
}

/* An option the agent changed gets a new selector showing its value; the
 * others stay the same widgets; nothing is asked of the agent. */
static void
test_options_in_place (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;

  fill_options (f);
  before = selectors (f);
  /* none for the option of an unknown type */
  g_assert_cmpuint (before->len, ==, 3);
  g_assert_cmpuint (gtk_drop_down_get_selected (g_ptr_array_index (before, 0)), ==, 0);
  g_assert_false (gtk_toggle_button_get_active (g_ptr_array_index (before, 1)));
  g_assert_cmpuint (gtk_drop_down_get_selected (g_ptr_array_index (before, 2)), ==, 1);

  splice (f->options, 0, 1, G_OBJECT (option (
    "{'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': 'b',"
    " 'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'B'}]}")));
  splice (f->options, 2, 1, G_OBJECT (option (
    "{'id': 'fast', 'name': 'Fast', 'type': 'boolean', 'currentValue': true}")));

  after = selectors (f);
  g_assert_cmpuint (after->len, ==, 3);
  g_assert_true (g_ptr_array_index (after, 0) != g_ptr_array_index (before, 0));
  g_assert_cmpuint (gtk_drop_down_get_selected (g_ptr_array_index (after, 0)), ==, 1);
  /* a screen reader names a selector after its option, not its value */
  gtk_test_accessible_assert_property (g_ptr_array_index (after, 0), GTK_ACCESSIBLE_PROPERTY_LABEL, "Model");
  g_assert_true (gtk_toggle_button_get_active (g_ptr_array_index (after, 1)));
  g_assert_true (g_ptr_array_index (after, 2) == g_ptr_array_index (before, 2));
  g_assert_cmpuint (f->n_option_changes, ==, 0);
}

/* The person's picks are emitted; a refused one is put back */
static void
test_options_picked (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GPtrArray) shown = NULL;

  fill_options (f);
  shown = selectors (f);

  gtk_drop_down_set_selected (g_ptr_array_index (shown, 0), 1);
  g_assert_cmpuint (f->n_option_changes, ==, 1);
  g_assert_cmpstr (f->config_id, ==, "model");
  g_assert_cmpstr (json_node_get_string (f->value), ==, "b");

  gtk_toggle_button_set_active (g_ptr_array_index (shown, 1), TRUE);
  g_assert_cmpuint (f->n_option_changes, ==, 2);
  g_assert_cmpstr (f->config_id, ==, "fast");
  g_assert_true (json_node_get_boolean (f->value));

  pal_options_bar_revert (f->bar);
  g_assert_cmpuint (gtk_drop_down_get_selected (g_ptr_array_index (shown, 0)), ==, 0);
  g_assert_false (gtk_toggle_button_get_active (g_ptr_array_index (shown, 1)));
  g_assert_cmpuint (f->n_option_changes, ==, 2);
}

/* Config options supersede modes: the mode's selector goes when they come,
 * and comes back, on the current mode, when they go */
static void
test_modes_give_way (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GPtrArray) shown = NULL;

  fill_modes (f, "code");
  pal_options_bar_set_config_options (f->bar, G_LIST_MODEL (f->options));
  g_assert_cmpuint (gtk_drop_down_get_selected (only_dropdown (f)), ==, 1);

  splice (f->options, 0, 0, G_OBJECT (option (
    "{'id': 'fast', 'name': 'Fast', 'type': 'boolean', 'currentValue': false}")));
  shown = selectors (f);
  g_assert_cmpuint (shown->len, ==, 1);
  g_assert_true (GTK_IS_TOGGLE_BUTTON (g_ptr_array_index (shown, 0)));

  splice (f->options, 0, 1, NULL);
  g_assert_cmpuint (gtk_drop_down_get_selected (only_dropdown (f)), ==, 1);

  /* and without modes, nothing */
  pal_options_bar_set_modes (f->bar, NULL);
  g_clear_pointer (&shown, g_ptr_array_unref);
  shown = selectors (f);
  g_assert_cmpuint (shown->len, ==, 0);
  g_assert_cmpuint (f->n_mode_changes + f->n_option_changes, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  /* accessible names and roles kept, for the tests to read */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/options-bar/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("modes/in-place", test_modes_in_place);
  ADD ("modes/current", test_current_mode);
  ADD ("modes/give-way", test_modes_give_way);
  ADD ("options/in-place", test_options_in_place);
  ADD ("options/picked", test_options_picked);

#undef ADD

  return g_test_run ();
}
