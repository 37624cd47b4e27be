/* pal-session-manager-sign-in.c: signing in to an agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An agent that answers "authentication required" offers sign-in methods.
 * One of type "agent" is run by the agent itself, with `authenticate`.
 *
 * One of type "terminal" is run by the client, not by the agent: the
 * agent's own command, as its profile starts it, with the method's
 * arguments appended and the method's environment on top of the profile's
 * (keyring values included), with the TERM of the window's terminal, in the
 * project folder, and on the host when Palaver runs in Flatpak. The window
 * runs it in a terminal for the person; an exit status of 0 means signed
 * in.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-session-manager-private.h"

/* authenticate {{{ */

/**
 * pal_session_manager_error_is_auth_required:
 * @error: (nullable): an error from the session manager
 *
 * Whether the agent refused because it needs a login (-32000). The window
 * then offers the agent's methods (acp_agent_get_auth_methods() of
 * pal_session_manager_lookup_agent(): the agent stays running), calls
 * pal_session_manager_authenticate_async() and tries again.
 *
 * Returns: %TRUE for "authentication required"
 */
gboolean
pal_session_manager_error_is_auth_required (const GError *error)
{
  return g_error_matches (error, ACP_ERROR, ACP_ERROR_AUTH_REQUIRED);
}

static void
authenticated_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!acp_agent_authenticate_finish (ACP_AGENT (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
authenticate_agent_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(AcpAgent) agent = NULL;
  GCancellable *cancellable;
  const char *method_id;
  GError *error = NULL;

  agent = _pal_session_manager_ensure_agent_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (agent == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  method_id = g_task_get_task_data (task);
  cancellable = g_task_get_cancellable (task);
  acp_agent_authenticate_async (agent, method_id, cancellable,
                                authenticated_cb, g_steal_pointer (&task));
}

/**
 * pal_session_manager_authenticate_async:
 * @self: a #PalSessionManager
 * @profile_id: the agent profile
 * @cwd: the project folder
 * @method_id: one of the agent's auth methods (of kind "agent")
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Authenticates the agent of that profile and folder (started unless it
 * runs) with `authenticate`. Methods of kind "terminal" cannot go through
 * this (%ACP_ERROR_NOT_SUPPORTED): the person runs the command of
 * pal_session_manager_sign_in_command_async() in a terminal instead.
 */
void
pal_session_manager_authenticate_async (PalSessionManager   *self,
                                        const char          *profile_id,
                                        const char          *cwd,
                                        const char          *method_id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);
  g_return_if_fail (method_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_authenticate_async);
  g_task_set_task_data (task, g_strdup (method_id), g_free);

  _pal_session_manager_ensure_agent_async (self, profile_id, cwd, cancellable,
                                           authenticate_agent_cb, task);
}

gboolean
pal_session_manager_authenticate_finish (PalSessionManager  *self,
                                         GAsyncResult       *result,
                                         GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_authenticate_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* }}} */

/* in a terminal {{{ */

typedef struct
{
  char          *profile_id;
  char          *cwd;
  AcpAuthMethod *method;
} SignInCommand;

typedef struct
{
  GStrv  argv;
  GStrv  env;
  char  *cwd;
} Command;

static void
sign_in_command_free (SignInCommand *data)
{
  g_free (data->profile_id);
  g_free (data->cwd);
  acp_auth_method_unref (data->method);
  g_free (data);
}

static void
command_free (Command *command)
{
  g_strfreev (command->argv);
  g_strfreev (command->env);
  g_free (command->cwd);
  g_free (command);
}

static void
sign_in_secrets_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  SignInCommand *data = g_task_get_task_data (task);
  PalAgentProfile *profile = pal_agent_store_lookup (self->agent_store, data->profile_id);
  g_autoptr(GStrvBuilder) argv = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) env = g_strv_builder_new ();
  g_auto(GStrv) secret_env = NULL;
  g_auto(GStrv) full_argv = NULL;
  g_auto(GStrv) full_env = NULL;
  g_autoptr(GError) error = NULL;
  Command *command;

  secret_env = pal_agent_store_lookup_secrets_finish (PAL_AGENT_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (secret_env == NULL)
    g_debug ("Signing in to agent %s without its values from the keyring: %s",
             data->profile_id, error->message);
  if (profile == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND, "%s",
                               _("The agent is not configured any more"));
      return;
    }

  {
    g_auto(GStrv) profile_argv = pal_agent_profile_dup_argv (profile);

    g_strv_builder_addv (argv, (const char **) profile_argv);
  }
  g_strv_builder_addv (argv, (const char **) acp_auth_method_get_terminal_args (data->method));
  full_argv = g_strv_builder_end (argv);

  /* the method's variables win over the launch's */
  g_strv_builder_addv (env, (const char **) pal_agent_profile_get_env (profile));
  if (secret_env != NULL)
    g_strv_builder_addv (env, (const char **) secret_env);
  g_strv_builder_addv (env, (const char **) acp_auth_method_get_terminal_env (data->method));
  /* what the window's terminal (VTE) understands: passed on as the rest,
   * so that it reaches a command on the host too */
  g_strv_builder_add (env, "TERM=xterm-256color");
  g_strv_builder_add (env, "COLORTERM=truecolor");
  full_env = g_strv_builder_end (env);

  command = g_new0 (Command, 1);
  command->argv = pal_launcher_wrap_argv (self->sandbox, (const char * const *) full_argv,
                                          (const char * const *) full_env, data->cwd,
                                          &command->env, &command->cwd, &error);
  if (command->argv == NULL)
    {
      command_free (command);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, command, (GDestroyNotify) command_free);
}

/**
 * pal_session_manager_sign_in_command_async:
 * @self: a #PalSessionManager
 * @profile_id: the agent profile
 * @cwd: the project folder
 * @method: a sign-in method of type "terminal"
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the command
 * @user_data: data for @callback
 *
 * The command that runs @method: the profile's program and arguments, then
 * the method's arguments; the profile's environment (its values in the
 * keyring too), then the method's, then TERM and COLORTERM; in @cwd. Fails with %PAL_ERROR_NOT_FOUND
 * for an unknown profile, %PAL_ERROR_INVALID for a bad profile or folder,
 * %PAL_ERROR_NOT_SUPPORTED for a method of another type.
 */
void
pal_session_manager_sign_in_command_async (PalSessionManager   *self,
                                           const char          *profile_id,
                                           const char          *cwd,
                                           AcpAuthMethod       *method,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  PalAgentProfile *profile;
  SignInCommand *data;
  char *canonical;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);
  g_return_if_fail (method != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_sign_in_command_async);

  if (g_strcmp0 (acp_auth_method_get_kind (method), "terminal") != 0)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                               _("The sign-in method “%s” does not run in a terminal"),
                               acp_auth_method_get_name (method));
      return;
    }
  profile = pal_agent_store_lookup (self->agent_store, profile_id);
  if (profile == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND, "%s",
                               _("The agent is not configured any more"));
      return;
    }
  canonical = _pal_session_manager_canonical_cwd (cwd, &error);
  if (canonical == NULL || !pal_agent_profile_validate (profile, &error))
    {
      g_free (canonical);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_new0 (SignInCommand, 1);
  data->profile_id = g_strdup (profile_id);
  data->cwd = canonical;
  data->method = acp_auth_method_ref (method);
  g_task_set_task_data (task, data, (GDestroyNotify) sign_in_command_free);

  pal_agent_store_lookup_secrets_async (self->agent_store, profile, cancellable,
                                        sign_in_secrets_cb, g_steal_pointer (&task));
}

/**
 * pal_session_manager_sign_in_command_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @out_env: (out) (transfer full): "NAME=VALUE" to add to the environment
 * @out_cwd: (out) (transfer full) (nullable): the working directory; %NULL
 *   when the command carries it (Flatpak)
 * @error: return location for an error
 *
 * Returns: (transfer full): the command line, or %NULL
 */
char **
pal_session_manager_sign_in_command_finish (PalSessionManager  *self,
                                            GAsyncResult       *result,
                                            char             ***out_env,
                                            char              **out_cwd,
                                            GError            **error)
{
  Command *command;
  char **argv;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_sign_in_command_async, NULL);
  g_return_val_if_fail (out_env != NULL && out_cwd != NULL, NULL);

  command = g_task_propagate_pointer (G_TASK (result), error);
  if (command == NULL)
    return NULL;

  argv = g_steal_pointer (&command->argv);
  *out_env = g_steal_pointer (&command->env);
  *out_cwd = g_steal_pointer (&command->cwd);
  command_free (command);

  return argv;
}

/* }}} */
