/* pal-agent-editor.c: the dialog that adds or edits one agent profile
 *
 * Name, command, arguments (one row each) and extra environment variables;
 * the variables whose values the keyring keeps are listed by name only,
 * each with a button that removes it.
 * Checked as the person types, the way the MCP server editor checks: an
 * empty name, a command that is not found (where it was found is shown), or
 * a bad variable keeps Save insensitive, and is shown on its field once the
 * person leaves it (pal-field-typing.c). Saving a preset makes it the
 * person's own profile (pal_agent_store_update()).
 *
 * The command is looked up off the main thread by a #PalCommandCheck, shared
 * with the MCP server editor: until the answer is in the row says so and
 * Save waits; closing cancels the lookup.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-a11y.h"
#include "pal-agent-editor.h"
#include "pal-args-group.h"
#include "pal-command-check.h"
#include "pal-error.h"
#include "pal-field-typing.h"
#include "pal-name-value-group.h"

struct _PalAgentEditor
{
  AdwWindow parent_instance;

  GtkButton *save_button;
  AdwEntryRow *name_row;
  GtkLabel *name_label;
  AdwEntryRow *command_row;
  GtkLabel *command_label;
  PalArgsGroup *args_group;
  PalNameValueGroup *env_group;
  AdwPreferencesGroup *secrets_group;

  PalAgentStore *store;
  PalAgentProfile *profile;
  /* PalNameValue rows of the environment */
  GListStore *env;
  /* names of the variables the keyring keeps, still listed */
  GPtrArray *secrets;

  PalCommandCheck *command_check;

  char *problem;
  gboolean can_save;
  /* a field that never held text is not shown as an error (Save waits
   * for it) until a save is tried */
  gboolean name_filled;
  gboolean command_filled;
};

G_DEFINE_FINAL_TYPE (PalAgentEditor, pal_agent_editor, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_STORE,
  PROP_PROFILE,
  PROP_CAN_SAVE,
  N_PROPS
};

enum {
  SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
is_blank (const char *s)
{
  for (; *s != '\0'; s++)
    if (!g_ascii_isspace (*s))
      return FALSE;
  return TRUE;
}

static void
show_field_message (GtkWidget  *row,
                    GtkLabel   *label,
                    const char *message,
                    const char *style)
{
  static const char * const styles[] = { "error", "warning", "dim-label" };

  if (message != NULL && g_strcmp0 (style, "error") == 0)
    gtk_widget_add_css_class (row, "error");
  else
    gtk_widget_remove_css_class (row, "error");
  pal_a11y_set_invalid (row, message != NULL && g_strcmp0 (style, "error") == 0);

  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    {
      if (g_strcmp0 (styles[i], style) == 0)
        gtk_widget_add_css_class (GTK_WIDGET (label), styles[i]);
      else
        gtk_widget_remove_css_class (GTK_WIDGET (label), styles[i]);
    }

  gtk_label_set_text (label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (label), message != NULL);
}

static char **
dup_env (PalAgentEditor *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->env));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalNameValue) row = g_list_model_get_item (G_LIST_MODEL (self->env), i);
      g_autofree char *var = g_strconcat (pal_name_value_get_name (row), "=",
                                          pal_name_value_get_value (row), NULL);

      g_strv_builder_add (builder, var);
    }

  return g_strv_builder_end (builder);
}

/* The profile as the fields say, with the id of the one edited. */
static PalAgentProfile *
build_profile (PalAgentEditor *self)
{
  g_auto(GStrv) args = pal_args_group_dup_args (self->args_group);
  g_auto(GStrv) env = dup_env (self);
  g_autoptr(GStrvBuilder) secrets_builder = g_strv_builder_new ();
  g_auto(GStrv) secrets = NULL;
  PalAgentProfile *profile;

  for (guint i = 0; i < self->secrets->len; i++)
    g_strv_builder_add (secrets_builder, g_ptr_array_index (self->secrets, i));
  secrets = g_strv_builder_end (secrets_builder);

  if (self->profile != NULL)
    profile = pal_agent_profile_copy (self->profile);
  else
    {
      g_autofree char *uuid = g_uuid_string_random ();
      g_autofree char *id = g_strconcat ("custom-", uuid, NULL);

      profile = pal_agent_profile_new (id, "", "", NULL);
    }

  pal_agent_profile_set_name (profile, gtk_editable_get_text (GTK_EDITABLE (self->name_row)));
  pal_agent_profile_set_command (profile,
                                 gtk_editable_get_text (GTK_EDITABLE (self->command_row)));
  pal_agent_profile_set_args (profile, (const char * const *) args);
  pal_agent_profile_set_env (profile, (const char * const *) env);
  pal_agent_profile_set_secrets (profile, (const char * const *) secrets);
  return profile;
}

static void
set_problem (PalAgentEditor *self,
             const char     *problem)
{
  if (self->problem == NULL && problem != NULL)
    self->problem = g_strdup (problem);
}

/* --- validation --- */

static void
validate (PalAgentEditor *self)
{
  const char *name;
  const char *command;
  g_autofree char *name_error = NULL;
  g_autofree char *command_error = NULL;
  g_autofree char *note = NULL;
  const char *note_style = NULL;
  gboolean pending = FALSE;
  gboolean can_save;
  PalCommandStatus status;

  /* groups report while the template is built */
  if (self->env == NULL)
    return;

  g_clear_pointer (&self->problem, g_free);

  name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  command = gtk_editable_get_text (GTK_EDITABLE (self->command_row));
  self->name_filled |= !is_blank (name);
  self->command_filled |= !is_blank (command);

  if (is_blank (name))
    name_error = g_strdup (_("Enter a name for the agent"));
  set_problem (self, name_error);

  /* as the MCP server editor does */
  status = pal_command_check_update (self->command_check, command, &note);
  if (pal_command_status_is_error (status))
    command_error = g_steal_pointer (&note);
  pending = status == PAL_COMMAND_STATUS_LOOKING;
  note_style = status == PAL_COMMAND_STATUS_NOT_EXECUTABLE ? "warning" : "dim-label";
  set_problem (self, command_error);
  if (pending)
    set_problem (self, note);

  if (!pal_name_value_group_get_valid (self->env_group))
    set_problem (self, _("An environment variable is not valid"));

  can_save = name_error == NULL && command_error == NULL && !pending &&
             pal_name_value_group_get_valid (self->env_group);

  /* the profile's own check has the last word */
  if (can_save)
    {
      g_autoptr(PalAgentProfile) profile = build_profile (self);
      g_autoptr(GError) error = NULL;

      if (!pal_agent_profile_validate (profile, &error))
        {
          can_save = FALSE;
          set_problem (self, error->message);
          name_error = g_strdup (error->message);
        }
    }

  show_field_message (GTK_WIDGET (self->name_row), self->name_label,
                      self->name_filled && !pal_field_typing_get (GTK_WIDGET (self->name_row))
                      ? name_error : NULL, "error");
  if (command_error != NULL)
    show_field_message (GTK_WIDGET (self->command_row), self->command_label,
                        self->command_filled && !pal_field_typing_get (GTK_WIDGET (self->command_row))
                        ? command_error : NULL, "error");
  else
    show_field_message (GTK_WIDGET (self->command_row), self->command_label, note, note_style);

  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), can_save);
  if (self->can_save != can_save)
    {
      self->can_save = can_save;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_SAVE]);
    }
}

static void
remove_secret_clicked_cb (GtkButton      *button,
                          PalAgentEditor *self)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), ADW_TYPE_ACTION_ROW);
  const char *name = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row));

  for (guint i = 0; i < self->secrets->len; i++)
    if (g_str_equal (g_ptr_array_index (self->secrets, i), name))
      {
        g_ptr_array_remove_index (self->secrets, i);
        break;
      }
  adw_preferences_group_remove (self->secrets_group, row);
  gtk_widget_set_visible (GTK_WIDGET (self->secrets_group), self->secrets->len > 0);
  validate (self);
}

static void
add_secret_row (PalAgentEditor *self,
                const char     *name)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  /* the value itself is never read back: only where it is */
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Value kept in the keyring"));
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, _("Remove From Keyring"));
  g_signal_connect_object (remove, "clicked", G_CALLBACK (remove_secret_clicked_cb), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
  adw_preferences_group_add (self->secrets_group, row);
  g_ptr_array_add (self->secrets, g_strdup (name));
}

static void
save_clicked_cb (PalAgentEditor *self)
{
  g_autoptr(GError) error = NULL;

  if (pal_agent_editor_save (self, &error))
    gtk_window_close (GTK_WINDOW (self));
  else
    show_field_message (GTK_WIDGET (self->name_row), self->name_label, error->message, "error");
}

static gboolean
pal_agent_editor_close_request (GtkWindow *window)
{
  pal_command_check_cancel (PAL_AGENT_EDITOR (window)->command_check);

  return GTK_WINDOW_CLASS (pal_agent_editor_parent_class)->close_request (window);
}

static void
pal_agent_editor_constructed (GObject *object)
{
  PalAgentEditor *self = PAL_AGENT_EDITOR (object);
  g_autoptr(GListStore) env = g_list_store_new (PAL_TYPE_NAME_VALUE);

  G_OBJECT_CLASS (pal_agent_editor_parent_class)->constructed (object);

  g_return_if_fail (PAL_IS_AGENT_STORE (self->store));

  if (self->profile != NULL)
    {
      const char * const *vars = pal_agent_profile_get_env (self->profile);
      const char * const *secrets = pal_agent_profile_get_secrets (self->profile);

      gtk_window_set_title (GTK_WINDOW (self), _("Edit Agent"));
      gtk_editable_set_text (GTK_EDITABLE (self->name_row),
                             pal_agent_profile_get_name (self->profile));
      gtk_editable_set_text (GTK_EDITABLE (self->command_row),
                             pal_agent_profile_get_command (self->profile));
      pal_args_group_set_args (self->args_group, pal_agent_profile_get_args (self->profile));

      for (guint i = 0; vars[i] != NULL; i++)
        {
          const char *eq = strchr (vars[i], '=');
          g_autofree char *name = eq != NULL ? g_strndup (vars[i], eq - vars[i])
                                             : g_strdup (vars[i]);
          g_autoptr(PalNameValue) row = pal_name_value_new (name, eq != NULL ? eq + 1 : "",
                                                            FALSE);

          g_list_store_append (env, row);
        }
      for (guint i = 0; secrets[i] != NULL; i++)
        add_secret_row (self, secrets[i]);
      gtk_widget_set_visible (GTK_WIDGET (self->secrets_group), secrets[0] != NULL);
    }
  else
    gtk_window_set_title (GTK_WINDOW (self), _("Add Agent"));

  self->env = g_steal_pointer (&env);
  pal_name_value_group_set_model (self->env_group, self->env);
  pal_field_typing_watch (GTK_WIDGET (self->name_row), NULL, G_CALLBACK (validate), self);
  pal_field_typing_watch (GTK_WIDGET (self->command_row), NULL, G_CALLBACK (validate), self);
  g_signal_connect_object (self->env, "items-changed", G_CALLBACK (validate), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->command_check, "looked-up", G_CALLBACK (validate), self,
                           G_CONNECT_SWAPPED);

  validate (self);
  /* the command of a profile edited: no keystroke to wait for */
  pal_command_check_start_now (self->command_check);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

static void
pal_agent_editor_dispose (GObject *object)
{
  PalAgentEditor *self = PAL_AGENT_EDITOR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_AGENT_EDITOR);

  g_clear_object (&self->env);
  g_clear_pointer (&self->secrets, g_ptr_array_unref);
  /* with no env left, nothing starts another */
  if (self->command_check != NULL)
    pal_command_check_cancel (self->command_check);
  g_clear_object (&self->command_check);
  g_clear_object (&self->profile);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (pal_agent_editor_parent_class)->dispose (object);
}

static void
pal_agent_editor_finalize (GObject *object)
{
  PalAgentEditor *self = PAL_AGENT_EDITOR (object);

  g_free (self->problem);

  G_OBJECT_CLASS (pal_agent_editor_parent_class)->finalize (object);
}

static void
pal_agent_editor_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PalAgentEditor *self = PAL_AGENT_EDITOR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_CAN_SAVE:
      g_value_set_boolean (value, self->can_save);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_agent_editor_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PalAgentEditor *self = PAL_AGENT_EDITOR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;
    case PROP_PROFILE:
      self->profile = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_agent_editor_class_init (PalAgentEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = pal_agent_editor_constructed;
  object_class->dispose = pal_agent_editor_dispose;
  object_class->finalize = pal_agent_editor_finalize;
  object_class->get_property = pal_agent_editor_get_property;
  object_class->set_property = pal_agent_editor_set_property;

  window_class->close_request = pal_agent_editor_close_request;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, PAL_TYPE_AGENT_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* The profile edited, or NULL to add one; after adding, the one added. */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, PAL_TYPE_AGENT_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_SAVE] =
    g_param_spec_boolean ("can-save", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalAgentEditor::saved:
   * @profile: the profile as stored
   */
  signals[SAVED] =
    g_signal_new ("saved",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, PAL_TYPE_AGENT_PROFILE);

  g_type_ensure (PAL_TYPE_ARGS_GROUP);
  g_type_ensure (PAL_TYPE_NAME_VALUE_GROUP);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-agent-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, save_button);
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, name_label);
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, command_row);
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, command_label);
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, args_group);
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, env_group);
  gtk_widget_class_bind_template_child (widget_class, PalAgentEditor, secrets_group);
  gtk_widget_class_bind_template_callback (widget_class, validate);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_agent_editor_init (PalAgentEditor *self)
{
  self->command_check = pal_command_check_new ();
  self->secrets = g_ptr_array_new_with_free_func (g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * pal_agent_editor_new:
 * @store: the agent profiles
 * @profile: (nullable): a profile of @store to edit, or %NULL to add one
 *
 * Returns: (transfer floating): a new editor, not shown yet
 */
PalAgentEditor *
pal_agent_editor_new (PalAgentStore   *store,
                      PalAgentProfile *profile)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (store), NULL);
  g_return_val_if_fail (profile == NULL || PAL_IS_AGENT_PROFILE (profile), NULL);

  return g_object_new (PAL_TYPE_AGENT_EDITOR,
                       "store", store,
                       "profile", profile,
                       NULL);
}

/**
 * pal_agent_editor_get_profile:
 * @self: a #PalAgentEditor
 *
 * Returns: (transfer none) (nullable): the stored profile edited; after
 *   adding one, the one added
 */
PalAgentProfile *
pal_agent_editor_get_profile (PalAgentEditor *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_EDITOR (self), NULL);
  return self->profile;
}

gboolean
pal_agent_editor_get_can_save (PalAgentEditor *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_EDITOR (self), FALSE);
  return self->can_save;
}

/**
 * pal_agent_editor_get_problem:
 * @self: a #PalAgentEditor
 *
 * Returns: (nullable): the first problem, as shown next to its field
 */
const char *
pal_agent_editor_get_problem (PalAgentEditor *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_EDITOR (self), NULL);
  return self->problem;
}

/**
 * pal_agent_editor_save:
 * @self: a #PalAgentEditor
 * @error: %PAL_ERROR_INVALID with the problem, or an error of the store
 *
 * Returns: %TRUE when the profile was stored
 */
gboolean
pal_agent_editor_save (PalAgentEditor  *self,
                       GError         **error)
{
  g_autoptr(PalAgentProfile) edited = NULL;

  g_return_val_if_fail (PAL_IS_AGENT_EDITOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* tried: every problem shows */
  self->name_filled = self->command_filled = TRUE;
  pal_field_typing_done (GTK_WIDGET (self->name_row));
  pal_field_typing_done (GTK_WIDGET (self->command_row));
  pal_name_value_group_reveal_problems (self->env_group);
  validate (self);
  if (!self->can_save)
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           self->problem != NULL ? self->problem : _("The agent is not valid"));
      return FALSE;
    }

  edited = build_profile (self);
  if (self->profile != NULL)
    {
      if (!pal_agent_store_update (self->store, edited, error))
        return FALSE;
    }
  else
    {
      if (!pal_agent_store_add (self->store, edited, error))
        return FALSE;
      self->profile = g_object_ref (edited);
    }

  g_signal_emit (self, signals[SAVED], 0, self->profile);
  return TRUE;
}
