/* pal-secret-store.c: agents' secret values in the desktop's Secret Service
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * API keys and tokens an agent reads from its environment are kept in the
 * keyring (GNOME Keyring, KWallet, or the portal inside Flatpak), one item
 * per agent profile and variable, through libsecret. Everything is
 * asynchronous: a keyring may have to be unlocked first, which asks the
 * person. Where no Secret Service answers, every call fails, and the caller
 * keeps the values elsewhere (PalAgentStore: in the profile).
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "pal-secret-store.h"

struct _PalSecretStore
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (PalSecretStore, pal_secret_store, G_TYPE_OBJECT)

static const SecretSchema agent_secret_schema = {
  PAL_SECRET_SCHEMA_NAME, SECRET_SCHEMA_NONE,
  {
    { "agent", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "variable", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
  0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

static void
pal_secret_store_class_init (PalSecretStoreClass *klass)
{
}

static void
pal_secret_store_init (PalSecretStore *self)
{
}

/**
 * pal_secret_store_new:
 *
 * Returns: (transfer full): a store on the session bus's Secret Service
 */
PalSecretStore *
pal_secret_store_new (void)
{
  return g_object_new (PAL_TYPE_SECRET_STORE, NULL);
}

static GHashTable *
attributes_for (const char *agent_id,
                const char *name)
{
  GHashTable *attributes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_hash_table_insert (attributes, g_strdup ("agent"), g_strdup (agent_id));
  if (name != NULL)
    g_hash_table_insert (attributes, g_strdup ("variable"), g_strdup (name));

  return attributes;
}

/* Fails @task with @error (taken), put as what the keyring did: @what. */
static void
return_keyring_error (GTask      *task,
                      GError     *error,
                      const char *what)
{
  g_prefix_error (&error, "%s", what);
  g_task_return_error (task, error);
}

/**
 * pal_secret_store_find_malformed_entry:
 * @entries: "NAME=VALUE" entries
 *
 * Returns: (nullable): the first entry without a name or an "=", or %NULL
 */
const char *
pal_secret_store_find_malformed_entry (const char * const *entries)
{
  g_return_val_if_fail (entries != NULL, NULL);

  for (guint i = 0; entries[i] != NULL; i++)
    {
      const char *eq = strchr (entries[i], '=');

      if (eq == NULL || eq == entries[i])
        return entries[i];
    }

  return NULL;
}

/* --- probe --- */

static void
probe_looked_up_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *value;

  /* nothing found is the answer expected: someone answered */
  value = secret_password_lookup_finish (result, &error);
  if (value != NULL)
    secret_password_free (value);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * pal_secret_store_probe_async:
 * @self: a #PalSecretStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * Finds out whether a Secret Service answers (starting it when the bus can),
 * the way the values will be stored: inside Flatpak that is the keyring
 * behind the Secret portal.
 */
void
pal_secret_store_probe_async (PalSecretStore      *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GHashTable) attributes = NULL;
  GTask *task;

  g_return_if_fail (PAL_IS_SECRET_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_secret_store_probe_async);
  /* a lookup of what no agent has: no item to unlock, so no prompt */
  attributes = attributes_for ("", "");
  secret_password_lookupv (&agent_secret_schema, attributes, cancellable, probe_looked_up_cb, task);
}

/**
 * pal_secret_store_probe_finish:
 *
 * Returns: %TRUE when a Secret Service answered
 */
gboolean
pal_secret_store_probe_finish (PalSecretStore  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_secret_store_probe_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- save --- */

typedef struct
{
  char  *agent_id;
  char  *agent_name;
  GStrv  entries;   /* NAME=VALUE */
  guint  next;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_free (data->agent_id);
  g_free (data->agent_name);
  /* values, gone from memory as soon as they are stored */
  for (guint i = 0; data->entries != NULL && data->entries[i] != NULL; i++)
    memset (data->entries[i], 0, strlen (data->entries[i]));
  g_strfreev (data->entries);
  g_free (data);
}

static void save_next (GTask *task);

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!secret_password_store_finish (result, &error))
    {
      return_keyring_error (task, error, _("The keyring did not keep the value: "));
      return;
    }

  save_next (g_steal_pointer (&task));
}

/* Takes @task_in. */
static void
save_next (GTask *task_in)
{
  g_autoptr(GTask) task = task_in;
  SaveData *data = g_task_get_task_data (task);
  g_autoptr(GHashTable) attributes = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  GCancellable *cancellable;
  const char *entry, *eq;

  if (data->entries[data->next] == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  entry = data->entries[data->next++];
  eq = strchr (entry, '=');
  g_assert (eq != NULL);
  name = g_strndup (entry, eq - entry);
  attributes = attributes_for (data->agent_id, name);
  /* Translators: the name of a keyring item; the first %s is an
   * environment variable (an API key), the second an agent */
  label = g_strdup_printf (_("%s for %s (Palaver)"), name, data->agent_name);
  /* read before the task is handed over: the order in which a call's
   * arguments are evaluated is not defined */
  cancellable = g_task_get_cancellable (task);
  secret_password_storev (&agent_secret_schema, attributes, SECRET_COLLECTION_DEFAULT, label,
                          eq + 1, cancellable, stored_cb, g_steal_pointer (&task));
}

/**
 * pal_secret_store_save_async:
 * @self: a #PalSecretStore
 * @agent_id: the agent profile the values are for
 * @agent_name: its name, for the items' labels
 * @entries: "NAME=VALUE" entries
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when every value is stored, or one could not be
 * @user_data: data for @callback
 *
 * Stores each value in the default collection, replacing what the agent had
 * under that name.
 */
void
pal_secret_store_save_async (PalSecretStore      *self,
                             const char          *agent_id,
                             const char          *agent_name,
                             const char * const  *entries,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  const char *malformed;
  SaveData *data;

  g_return_if_fail (PAL_IS_SECRET_STORE (self));
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (entries != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_secret_store_save_async);
  data = g_new0 (SaveData, 1);
  data->agent_id = g_strdup (agent_id);
  data->agent_name = g_strdup (agent_name != NULL ? agent_name : agent_id);
  data->entries = g_strdupv ((char **) entries);
  g_task_set_task_data (task, data, (GDestroyNotify) save_data_free);

  malformed = pal_secret_store_find_malformed_entry (entries);
  if (malformed != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("“%s” is not of the form NAME=VALUE"), malformed);
      return;
    }

  save_next (g_steal_pointer (&task));
}

gboolean
pal_secret_store_save_finish (PalSecretStore  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_secret_store_save_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- lookup --- */

typedef struct
{
  char         *agent_id;
  GStrv         names;
  guint         next;
  GStrvBuilder *found;
} LookupData;

static void
lookup_data_free (LookupData *data)
{
  g_free (data->agent_id);
  g_strfreev (data->names);
  g_strv_builder_unref (data->found);
  g_free (data);
}

static void lookup_next (GTask *task);

/* An item found, then removed before it could be read (a removal under
 * way while the search ran): no value, as a moment later. A Secret Service
 * answers so for an object it no longer has. */
static gboolean
item_vanished (const GError *error)
{
  return g_error_matches (error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD);
}

/* Whether a step of a lookup failed, @task with it: @error (nullable,
 * taken) is not that of an item that vanished. */
static gboolean
read_failed (GTask  *task,
             GError *error)
{
  if (error == NULL)
    return FALSE;
  if (item_vanished (error))
    {
      g_error_free (error);
      return FALSE;
    }

  return_keyring_error (task, error, _("The keyring could not be read: "));
  return TRUE;
}

static void
retrieved_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LookupData *data = g_task_get_task_data (task);
  g_autoptr(SecretValue) value = NULL;
  GError *error = NULL;
  const char *text;

  value = secret_retrievable_retrieve_secret_finish (SECRET_RETRIEVABLE (object), result, &error);
  if (read_failed (task, error))
    return;

  /* a value that is not text is none this store wrote: no value */
  text = value != NULL ? secret_value_get_text (value) : NULL;
  if (text != NULL)
    {
      g_autofree char *entry = g_strconcat (data->names[data->next - 1], "=", text, NULL);

      g_strv_builder_add (data->found, entry);
    }

  lookup_next (g_steal_pointer (&task));
}

static void
searched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  GList *items;
  GCancellable *cancellable;

  items = secret_password_search_finish (result, &error);
  if (read_failed (task, error))
    return;

  /* nothing found, or still locked because the person would not unlock
   * it: no value */
  if (items == NULL || (SECRET_IS_ITEM (items->data) && secret_item_get_locked (items->data)))
    {
      g_list_free_full (items, g_object_unref);
      lookup_next (g_steal_pointer (&task));
      return;
    }

  cancellable = g_task_get_cancellable (task);
  secret_retrievable_retrieve_secret (items->data, cancellable, retrieved_cb, g_steal_pointer (&task));
  g_list_free_full (items, g_object_unref);
}

/* Takes @task_in.
 *
 * A search and then the item's value, rather than secret_password_lookup():
 * libsecret 0.20.5 loses the reply that carries the value a lookup finds
 * (the D-Bus message's body is never freed), once for every value read. */
static void
lookup_next (GTask *task_in)
{
  g_autoptr(GTask) task = task_in;
  LookupData *data = g_task_get_task_data (task);
  g_autoptr(GHashTable) attributes = NULL;
  GCancellable *cancellable;

  if (data->names[data->next] == NULL)
    {
      g_task_return_pointer (task, g_strv_builder_end (data->found), (GDestroyNotify) g_strfreev);
      return;
    }

  attributes = attributes_for (data->agent_id, data->names[data->next++]);
  cancellable = g_task_get_cancellable (task);
  /* the first item, unlocked if it has to be (which may ask the person) */
  secret_password_searchv (&agent_secret_schema, attributes, SECRET_SEARCH_UNLOCK, cancellable,
                           searched_cb, g_steal_pointer (&task));
}

/**
 * pal_secret_store_lookup_async:
 * @self: a #PalSecretStore
 * @agent_id: an agent profile id
 * @names: the variables to look up
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the values
 * @user_data: data for @callback
 *
 * Reads the agent's values of @names, unlocking the keyring if it has to
 * (which may ask the person).
 */
void
pal_secret_store_lookup_async (PalSecretStore      *self,
                               const char          *agent_id,
                               const char * const  *names,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  LookupData *data;

  g_return_if_fail (PAL_IS_SECRET_STORE (self));
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (names != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_secret_store_lookup_async);
  data = g_new0 (LookupData, 1);
  data->agent_id = g_strdup (agent_id);
  data->names = g_strdupv ((char **) names);
  data->found = g_strv_builder_new ();
  g_task_set_task_data (task, data, (GDestroyNotify) lookup_data_free);

  lookup_next (task);
}

/**
 * pal_secret_store_lookup_finish:
 *
 * Returns: (transfer full): "NAME=VALUE" for each name the keyring had a
 *   value of, in the order of the names; %NULL on error
 */
char **
pal_secret_store_lookup_finish (PalSecretStore  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_secret_store_lookup_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* --- clear --- */

static void
cleared_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  /* FALSE without an error: there was nothing to remove */
  if (!secret_password_clear_finish (result, &error) && error != NULL)
    {
      return_keyring_error (task, error, _("The keyring did not remove the value: "));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * pal_secret_store_clear_async:
 * @self: a #PalSecretStore
 * @agent_id: an agent profile id
 * @name: (nullable): a variable, or %NULL for every one of the agent
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Removes the agent's value of @name, or all its values, from the keyring.
 * Nothing to remove is no error.
 */
void
pal_secret_store_clear_async (PalSecretStore      *self,
                              const char          *agent_id,
                              const char          *name,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GHashTable) attributes = NULL;
  GTask *task;

  g_return_if_fail (PAL_IS_SECRET_STORE (self));
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_secret_store_clear_async);
  attributes = attributes_for (agent_id, name);
  secret_password_clearv (&agent_secret_schema, attributes, cancellable, cleared_cb, task);
}

gboolean
pal_secret_store_clear_finish (PalSecretStore  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_secret_store_clear_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
