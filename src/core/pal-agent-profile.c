/* pal-agent-profile.c: how to start one ACP agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-agent-profile-private.h"
#include "pal-error.h"
#include "pal-store-private.h"

/**
 * PalAgentProfile:
 *
 * The command line and environment that start one ACP agent, under a name the
 * person recognizes. Profiles live in a #PalAgentStore; the built-in presets
 * have #PalAgentProfile:is-preset set until the person edits them.
 */
struct _PalAgentProfile
{
  GObject parent_instance;

  char *id;
  char *name;
  char *command;
  char **args;
  char **env;
  char **secrets;
  guint is_preset : 1;
  guint is_demo : 1;
};

G_DEFINE_FINAL_TYPE (PalAgentProfile, pal_agent_profile, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_COMMAND,
  PROP_ARGS,
  PROP_ENV,
  PROP_SECRETS,
  PROP_IS_PRESET,
  PROP_IS_DEMO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pal_agent_profile_finalize (GObject *object)
{
  PalAgentProfile *self = (PalAgentProfile *) object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->args, g_strfreev);
  g_clear_pointer (&self->env, g_strfreev);
  g_clear_pointer (&self->secrets, g_strfreev);

  G_OBJECT_CLASS (pal_agent_profile_parent_class)->finalize (object);
}

static void
pal_agent_profile_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  PalAgentProfile *self = PAL_AGENT_PROFILE (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_COMMAND:
      g_value_set_string (value, self->command);
      break;
    case PROP_ARGS:
      g_value_set_boxed (value, self->args);
      break;
    case PROP_ENV:
      g_value_set_boxed (value, self->env);
      break;
    case PROP_SECRETS:
      g_value_set_boxed (value, self->secrets);
      break;
    case PROP_IS_PRESET:
      g_value_set_boolean (value, self->is_preset);
      break;
    case PROP_IS_DEMO:
      g_value_set_boolean (value, self->is_demo);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_agent_profile_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  PalAgentProfile *self = PAL_AGENT_PROFILE (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_free (self->id);
      self->id = g_value_dup_string (value);
      if (self->id == NULL)
        self->id = g_strdup ("");
      break;
    case PROP_NAME:
      pal_agent_profile_set_name (self, g_value_get_string (value));
      break;
    case PROP_COMMAND:
      pal_agent_profile_set_command (self, g_value_get_string (value));
      break;
    case PROP_ARGS:
      pal_agent_profile_set_args (self, g_value_get_boxed (value));
      break;
    case PROP_ENV:
      pal_agent_profile_set_env (self, g_value_get_boxed (value));
      break;
    case PROP_SECRETS:
      pal_agent_profile_set_secrets (self, g_value_get_boxed (value));
      break;
    case PROP_IS_PRESET:
      _pal_agent_profile_set_is_preset (self, g_value_get_boolean (value));
      break;
    case PROP_IS_DEMO:
      _pal_agent_profile_set_is_demo (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_agent_profile_class_init (PalAgentProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pal_agent_profile_finalize;
  object_class->get_property = pal_agent_profile_get_property;
  object_class->set_property = pal_agent_profile_set_property;

  /* The stable key of the profile: sessions refer to it. */
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_COMMAND] =
    g_param_spec_string ("command", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ARGS] =
    g_param_spec_boxed ("args", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  /* "NAME=VALUE" strings, in order. */
  properties[PROP_ENV] =
    g_param_spec_boxed ("env", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  /* Names of environment variables whose values are kept in the keyring
   * (PalSecretStore), not here. */
  properties[PROP_SECRETS] =
    g_param_spec_boxed ("secrets", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  /* A built-in profile the person has not edited: not stored. */
  properties[PROP_IS_PRESET] =
    g_param_spec_boolean ("is-preset", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The demo agent shipped with the application. */
  properties[PROP_IS_DEMO] =
    g_param_spec_boolean ("is-demo", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_agent_profile_init (PalAgentProfile *self)
{
  self->id = g_strdup ("");
  self->name = g_strdup ("");
  self->command = g_strdup ("");
  self->args = g_new0 (char *, 1);
  self->env = g_new0 (char *, 1);
  self->secrets = g_new0 (char *, 1);
}

/**
 * pal_agent_profile_new:
 * @id: (nullable): the stable id, or %NULL for a new unique one
 * @name: the name shown to the person
 * @command: the program: an absolute path or a name looked up in `PATH`
 * @args: (nullable): its arguments
 *
 * Returns: (transfer full): a new profile, not a preset.
 */
PalAgentProfile *
pal_agent_profile_new (const char         *id,
                       const char         *name,
                       const char         *command,
                       const char * const *args)
{
  g_autofree char *uuid = NULL;

  if (id == NULL || *id == '\0')
    id = uuid = g_uuid_string_random ();

  return g_object_new (PAL_TYPE_AGENT_PROFILE,
                       "id", id,
                       "name", name,
                       "command", command,
                       "args", args,
                       NULL);
}

/**
 * pal_agent_profile_copy:
 * @self: a #PalAgentProfile
 *
 * Returns: (transfer full): a new profile with the same id and settings, for
 *   an editor to change before it hands it to pal_agent_store_update().
 */
PalAgentProfile *
pal_agent_profile_copy (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);

  return g_object_new (PAL_TYPE_AGENT_PROFILE,
                       "id", self->id,
                       "name", self->name,
                       "command", self->command,
                       "args", self->args,
                       "env", self->env,
                       "secrets", self->secrets,
                       "is-preset", self->is_preset,
                       "is-demo", self->is_demo,
                       NULL);
}

const char *
pal_agent_profile_get_id (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);
  return self->id;
}

const char *
pal_agent_profile_get_name (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);
  return self->name;
}

void
pal_agent_profile_set_name (PalAgentProfile *self,
                            const char      *name)
{
  g_return_if_fail (PAL_IS_AGENT_PROFILE (self));

  if (name == NULL)
    name = "";
  if (_pal_set_string (&self->name, name))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

const char *
pal_agent_profile_get_command (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);
  return self->command;
}

void
pal_agent_profile_set_command (PalAgentProfile *self,
                               const char      *command)
{
  g_return_if_fail (PAL_IS_AGENT_PROFILE (self));

  if (command == NULL)
    command = "";
  if (_pal_set_string (&self->command, command))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMMAND]);
}

const char * const *
pal_agent_profile_get_args (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);
  return (const char * const *) self->args;
}

void
pal_agent_profile_set_args (PalAgentProfile    *self,
                            const char * const *args)
{
  g_return_if_fail (PAL_IS_AGENT_PROFILE (self));

  if (_pal_set_strv (&self->args, args))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGS]);
}

const char * const *
pal_agent_profile_get_env (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);
  return (const char * const *) self->env;
}

void
pal_agent_profile_set_env (PalAgentProfile    *self,
                           const char * const *env)
{
  g_return_if_fail (PAL_IS_AGENT_PROFILE (self));

  if (_pal_set_strv (&self->env, env))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENV]);
}

/* Returns: the names of the variables kept in the keyring; never NULL */
const char * const *
pal_agent_profile_get_secrets (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);
  return (const char * const *) self->secrets;
}

void
pal_agent_profile_set_secrets (PalAgentProfile    *self,
                               const char * const *secrets)
{
  g_return_if_fail (PAL_IS_AGENT_PROFILE (self));

  if (_pal_set_strv (&self->secrets, secrets))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SECRETS]);
}

/**
 * pal_agent_profile_has_secret:
 * @self: a #PalAgentProfile
 * @name: an environment variable name
 *
 * Returns: whether the value of @name is kept in the keyring
 */
gboolean
pal_agent_profile_has_secret (PalAgentProfile *self,
                              const char      *name)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return g_strv_contains ((const char * const *) self->secrets, name);
}

gboolean
pal_agent_profile_get_is_preset (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), FALSE);
  return self->is_preset;
}

gboolean
pal_agent_profile_get_is_demo (PalAgentProfile *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), FALSE);
  return self->is_demo;
}

void
_pal_agent_profile_set_is_preset (PalAgentProfile *self,
                                  gboolean         is_preset)
{
  is_preset = !!is_preset;
  if (self->is_preset == (guint) is_preset)
    return;
  self->is_preset = is_preset;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IS_PRESET]);
}

void
_pal_agent_profile_set_is_demo (PalAgentProfile *self,
                                gboolean         is_demo)
{
  is_demo = !!is_demo;
  if (self->is_demo == (guint) is_demo)
    return;
  self->is_demo = is_demo;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IS_DEMO]);
}

gboolean
_pal_agent_profile_assign (PalAgentProfile *self,
                           PalAgentProfile *from)
{
  gboolean changed = FALSE;

  g_object_freeze_notify (G_OBJECT (self));
  if (g_strcmp0 (self->name, from->name) != 0 ||
      g_strcmp0 (self->command, from->command) != 0 ||
      !g_strv_equal ((const char * const *) self->args, (const char * const *) from->args) ||
      !g_strv_equal ((const char * const *) self->env, (const char * const *) from->env) ||
      !g_strv_equal ((const char * const *) self->secrets, (const char * const *) from->secrets))
    changed = TRUE;
  pal_agent_profile_set_name (self, from->name);
  pal_agent_profile_set_command (self, from->command);
  pal_agent_profile_set_args (self, (const char * const *) from->args);
  pal_agent_profile_set_env (self, (const char * const *) from->env);
  pal_agent_profile_set_secrets (self, (const char * const *) from->secrets);
  g_object_thaw_notify (G_OBJECT (self));

  return changed;
}

/**
 * pal_agent_profile_dup_argv:
 * @self: a #PalAgentProfile
 *
 * Returns: (transfer full): the command followed by the arguments.
 */
char **
pal_agent_profile_dup_argv (PalAgentProfile *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), NULL);

  g_strv_builder_add (builder, self->command);
  g_strv_builder_addv (builder, (const char **) self->args);
  return g_strv_builder_end (builder);
}

/**
 * pal_agent_profile_apply_env:
 * @self: a #PalAgentProfile
 * @envp: (transfer full) (nullable): an environment, as from g_get_environ()
 *
 * Returns: (transfer full): @envp with every variable of the profile set, in
 *   order (a later entry of the same name wins). Entries without `=` are
 *   ignored.
 */
char **
pal_agent_profile_apply_env (PalAgentProfile  *self,
                             char            **envp)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), envp);

  if (envp == NULL)
    envp = g_new0 (char *, 1);

  for (guint i = 0; self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL || eq == self->env[i])
        continue;
      name = g_strndup (self->env[i], eq - self->env[i]);
      envp = g_environ_setenv (envp, name, eq + 1, TRUE);
    }

  return envp;
}

/**
 * pal_agent_profile_validate:
 * @self: a #PalAgentProfile
 * @error: return location for a #PAL_ERROR_INVALID error naming the field
 *
 * Returns: %TRUE if the profile can be stored and started: a name and a
 *   command, variables with names, and every string UTF-8.
 */
gboolean
pal_agent_profile_validate (PalAgentProfile  *self,
                            GError          **error)
{
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* the settings hold text only */
  if (self->id != NULL && !g_utf8_validate (self->id, -1, NULL))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("The id of the agent is not valid UTF-8 text"));
      return FALSE;
    }
  if (self->name != NULL && !g_utf8_validate (self->name, -1, NULL))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("The name of the agent is not valid UTF-8 text"));
      return FALSE;
    }
  if (self->command != NULL && !g_utf8_validate (self->command, -1, NULL))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("The command of the agent is not valid UTF-8 text"));
      return FALSE;
    }
  for (guint i = 0; self->args[i] != NULL; i++)
    if (!g_utf8_validate (self->args[i], -1, NULL))
      {
        g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                     _("Argument %u of the agent is not valid UTF-8 text"), i + 1);
        return FALSE;
      }
  for (guint i = 0; self->env[i] != NULL; i++)
    if (!g_utf8_validate (self->env[i], -1, NULL))
      {
        g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                     _("Environment variable %u of the agent is not valid UTF-8 text"), i + 1);
        return FALSE;
      }

  if (_pal_str_is_blank (self->name))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("The name of the agent is empty"));
      return FALSE;
    }

  if (_pal_str_is_blank (self->command))
    {
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_INVALID,
                           _("The command of the agent is empty"));
      return FALSE;
    }

  for (guint i = 0; self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');

      if (eq == NULL || eq == self->env[i])
        {
          g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                       _("The environment variable “%s” has no name or no “=”"),
                       self->env[i]);
          return FALSE;
        }
    }

  for (guint i = 0; self->secrets[i] != NULL; i++)
    {
      if (*self->secrets[i] == '\0' || strchr (self->secrets[i], '=') != NULL)
        {
          g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                       _("The environment variable name “%s” is invalid"), self->secrets[i]);
          return FALSE;
        }
      for (guint j = 0; self->env[j] != NULL; j++)
        if (g_str_has_prefix (self->env[j], self->secrets[i]) &&
            self->env[j][strlen (self->secrets[i])] == '=')
          {
            g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                         _("The environment variable “%s” is set here and kept in the keyring: "
                           "remove one of them"), self->secrets[i]);
            return FALSE;
          }
    }

  return TRUE;
}
