/* pal-agent-store-secrets.c: the values a sign-in asks for, kept where they
 * belong
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An API key given at sign-in goes to the keyring when a Secret Service
 * answers: the profile then names the variable in its secrets and holds no
 * value, and the session manager looks the values up when it starts the
 * agent. With no keyring (or none that answers), the values go to the
 * profile's environment, in Palaver's settings, as they did before there
 * was a keyring to use.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-agent-store.h"
#include "pal-error.h"

typedef struct
{
  char  *id;
  GStrv  entries;   /* NAME=VALUE */
} SaveValues;

static void
save_values_free (SaveValues *save)
{
  g_free (save->id);
  g_strfreev (save->entries);
  g_free (save);
}

/* Whether one of @entries ("NAME=VALUE") is of the variable named by the
 * first @length bytes of @name. */
static gboolean
names (const char * const *entries,
       const char         *name,
       gsize               length)
{
  for (guint i = 0; entries[i] != NULL; i++)
    if (strncmp (entries[i], name, length) == 0 && entries[i][length] == '=')
      return TRUE;

  return FALSE;
}

/* The profile @id, or NULL with PAL_ERROR_NOT_FOUND. */
static PalAgentProfile *
lookup_profile (PalAgentStore  *self,
                const char     *id,
                GError        **error)
{
  PalAgentProfile *profile = pal_agent_store_lookup (self, id);

  if (profile == NULL)
    g_set_error_literal (error, PAL_ERROR, PAL_ERROR_NOT_FOUND,
                         _("The agent is not configured any more"));

  return profile;
}

/* The profile with @entries in its environment (in_keyring FALSE), or with
 * their names among its secrets and none of them in its environment. */
static gboolean
update_profile (PalAgentStore       *self,
                const char          *id,
                const char * const  *entries,
                gboolean             in_keyring,
                GError             **error)
{
  PalAgentProfile *profile = lookup_profile (self, id, error);
  g_autoptr(PalAgentProfile) edited = NULL;
  g_autoptr(GStrvBuilder) env = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) secrets = g_strv_builder_new ();
  g_auto(GStrv) new_env = NULL;
  g_auto(GStrv) new_secrets = NULL;
  const char * const *old;

  if (profile == NULL)
    return FALSE;

  /* the values given replace those of the same names, wherever they were */
  old = pal_agent_profile_get_env (profile);
  for (guint i = 0; old[i] != NULL; i++)
    if (!names (entries, old[i], strcspn (old[i], "=")))
      g_strv_builder_add (env, old[i]);
  old = pal_agent_profile_get_secrets (profile);
  for (guint i = 0; old[i] != NULL; i++)
    if (!names (entries, old[i], strlen (old[i])))
      g_strv_builder_add (secrets, old[i]);

  for (guint i = 0; entries[i] != NULL; i++)
    {
      if (in_keyring)
        {
          g_autofree char *name = g_strndup (entries[i], strcspn (entries[i], "="));

          g_strv_builder_add (secrets, name);
        }
      else
        g_strv_builder_add (env, entries[i]);
    }

  new_env = g_strv_builder_end (env);
  new_secrets = g_strv_builder_end (secrets);
  edited = pal_agent_profile_copy (profile);
  pal_agent_profile_set_env (edited, (const char * const *) new_env);
  pal_agent_profile_set_secrets (edited, (const char * const *) new_secrets);

  return pal_agent_store_update (self, edited, error);
}

static void
values_saved_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalAgentStore *self = g_task_get_source_object (task);
  SaveValues *save = g_task_get_task_data (task);
  const char * const *entries = (const char * const *) save->entries;
  g_autoptr(GError) error = NULL;
  gboolean in_keyring = TRUE;

  if (!pal_secret_store_save_finish (PAL_SECRET_STORE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* no keyring answers, or it refused: the settings keep them */
      g_debug ("Keeping the values of agent %s in its profile: %s", save->id, error->message);
      g_clear_error (&error);
      in_keyring = FALSE;
    }

  if (!update_profile (self, save->id, entries, in_keyring, &error))
    {
      /* removed meanwhile: so are its values */
      if (in_keyring && g_error_matches (error, PAL_ERROR, PAL_ERROR_NOT_FOUND))
        pal_secret_store_clear_async (PAL_SECRET_STORE (object), save->id, NULL, NULL, NULL, NULL);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (in_keyring)
    g_signal_emit_by_name (self, "secrets-changed", save->id);
  g_task_return_int (task, in_keyring);
}

/**
 * pal_agent_store_save_values_async:
 * @self: a #PalAgentStore
 * @id: the profile the values are for
 * @entries: "NAME=VALUE" entries, as a sign-in gives them
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when they are kept
 * @user_data: data for @callback
 *
 * Keeps the values in the keyring when one answers, else in the profile's
 * environment; either way the agent starts with them from its next start on.
 */
void
pal_agent_store_save_values_async (PalAgentStore       *self,
                                   const char          *id,
                                   const char * const  *entries,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  PalSecretStore *secret_store = pal_agent_store_get_secret_store (self);
  PalAgentProfile *profile;
  const char *malformed;
  SaveValues *save;

  g_return_if_fail (PAL_IS_AGENT_STORE (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (entries != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_agent_store_save_values_async);
  save = g_new0 (SaveValues, 1);
  save->id = g_strdup (id);
  save->entries = g_strdupv ((char **) entries);
  g_task_set_task_data (task, save, (GDestroyNotify) save_values_free);

  profile = lookup_profile (self, id, &error);
  if (profile == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  malformed = pal_secret_store_find_malformed_entry (entries);
  if (malformed != NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_INVALID,
                               _("The environment variable “%s” has no name or no “=”"),
                               malformed);
      return;
    }

  if (secret_store == NULL || entries[0] == NULL)
    {
      if (!update_profile (self, id, entries, FALSE, &error))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_int (task, FALSE);
      return;
    }

  pal_secret_store_save_async (secret_store, id, pal_agent_profile_get_name (profile), entries,
                               cancellable, values_saved_cb, g_steal_pointer (&task));
}

/**
 * pal_agent_store_save_values_finish:
 * @self: a #PalAgentStore
 * @result: the result
 * @in_keyring: (out) (optional): whether the keyring keeps them (rather
 *   than Palaver's settings)
 * @error: return location for an error
 *
 * Returns: %TRUE when the values are kept
 */
gboolean
pal_agent_store_save_values_finish (PalAgentStore  *self,
                                    GAsyncResult   *result,
                                    gboolean       *in_keyring,
                                    GError        **error)
{
  gssize where;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_agent_store_save_values_async, FALSE);

  where = g_task_propagate_int (G_TASK (result), error);
  if (in_keyring != NULL)
    *in_keyring = where == 1;

  return where >= 0;
}

static void
secrets_looked_up_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char **values;

  values = pal_secret_store_lookup_finish (PAL_SECRET_STORE (object), result, &error);
  if (values == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, values, (GDestroyNotify) g_strfreev);
}

/**
 * pal_agent_store_lookup_secrets_async:
 * @self: a #PalAgentStore
 * @profile: a profile
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the values
 * @user_data: data for @callback
 *
 * Reads the values of the profile's secrets from the keyring (which may ask
 * the person to unlock it). A profile without secrets needs no keyring.
 */
void
pal_agent_store_lookup_secrets_async (PalAgentStore       *self,
                                      PalAgentProfile     *profile,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  PalSecretStore *secret_store = pal_agent_store_get_secret_store (self);
  g_autoptr(GTask) task = NULL;
  const char * const *names;

  g_return_if_fail (PAL_IS_AGENT_STORE (self));
  g_return_if_fail (PAL_IS_AGENT_PROFILE (profile));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_agent_store_lookup_secrets_async);

  names = pal_agent_profile_get_secrets (profile);
  if (names[0] == NULL)
    {
      g_task_return_pointer (task, g_new0 (char *, 1), (GDestroyNotify) g_strfreev);
      return;
    }
  if (secret_store == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED, "%s",
                               _("The agent’s values are kept in a keyring, and Palaver uses none"));
      return;
    }

  pal_secret_store_lookup_async (secret_store, pal_agent_profile_get_id (profile), names,
                                 cancellable, secrets_looked_up_cb, g_steal_pointer (&task));
}

/**
 * pal_agent_store_lookup_secrets_finish:
 *
 * Returns: (transfer full): "NAME=VALUE" for each secret the keyring has a
 *   value of; %NULL on error
 */
char **
pal_agent_store_lookup_secrets_finish (PalAgentStore  *self,
                                       GAsyncResult   *result,
                                       GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_agent_store_lookup_secrets_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
