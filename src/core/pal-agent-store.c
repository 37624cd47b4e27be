/* pal-agent-store.c: the agent profiles: presets, the demo and the person's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-agent-profile-private.h"
#include "pal-agent-store.h"
#include "pal-error.h"
#include "pal-secret-store.h"
#include "pal-store-private.h"

#define AGENTS_KEY "agents"
#define DEFAULT_AGENT_KEY "default-agent"

/**
 * PalAgentStore:
 *
 * A #GListModel of #PalAgentProfile: the detected presets (Claude Agent,
 * Codex, Gemini CLI) first, then the profiles the person added, in the order
 * stored, then the demo agent, which is always there.
 *
 * Only profiles the person added or edited are stored, in the `agents` key;
 * a preset the person edits becomes a stored profile with the preset's id and
 * #PalAgentProfile:is-preset turns %FALSE (the object stays the same), and
 * removing that stored profile brings the preset back (when it is detected).
 *
 * Presets are found by pal_agent_store_detect_async(), which walks `PATH` in a
 * worker thread; until it finished only the demo and the stored profiles are
 * listed.
 *
 * Changes made through the API are written at once; changes made directly on
 * a profile's properties are written once per main loop iteration. Entries of
 * the key that cannot be read are skipped, reported by
 * pal_agent_store_get_load_errors() and written back unchanged after the
 * readable ones.
 *
 * Secret values (API keys a sign-in asks for) are kept in the keyring
 * (#PalAgentStore:secret-store) when one answers: the profile lists their
 * names (#PalAgentProfile:secrets), and removing a profile or a name from
 * that list removes the values too. See pal-agent-store-secrets.c.
 */

typedef enum
{
  SLOT_CLAUDE,
  SLOT_CODEX,
  SLOT_GEMINI,
  SLOT_DEMO,
  N_SLOTS,
  N_DETECTED_SLOTS = SLOT_DEMO,
} Slot;

typedef struct
{
  const char *id;
  const char *name;
  /* candidates, in order of preference */
  const char *programs[3];
  const char *args[3];
  const char *install;   /* how a person installs it */
} Preset;

/* Gemini CLI silently disables MCP servers in folders it does not trust and
 * would ask about trust in a terminal we do not have; the person picked the
 * folder in Palaver, so it is trusted on their behalf. */
static const Preset presets[N_SLOTS] = {
  [SLOT_CLAUDE] = { PAL_AGENT_ID_CLAUDE, N_("Claude Agent"),
                    { "claude-agent-acp", "claude-code-acp", NULL }, { NULL },
                    "npm install -g @agentclientprotocol/claude-agent-acp" },
  [SLOT_CODEX] = { PAL_AGENT_ID_CODEX, N_("Codex"),
                   { "codex-acp", NULL }, { NULL },
                   "npm install -g @agentclientprotocol/codex-acp" },
  [SLOT_GEMINI] = { PAL_AGENT_ID_GEMINI, N_("Gemini CLI"),
                    { "gemini", NULL }, { "--acp", "--skip-trust", NULL },
                    "npm install -g @google/gemini-cli" },
  [SLOT_DEMO] = { PAL_AGENT_ID_DEMO, N_("Demo Agent"), { NULL }, { NULL }, NULL },
};

struct _PalAgentStore
{
  PalStoredList parent_instance;

  PalSecretStore *secret_store;   /* (nullable) */
  GCancellable *cancellable;

  /* the profiles of the key, in stored order, owning; all listed */
  GPtrArray *stored;

  /* absolute paths of the detected presets; the demo's command */
  char *detected[N_SLOTS];
  /* the unedited preset objects currently listed (or NULL) */
  PalAgentProfile *preset_items[N_SLOTS];
};

G_DEFINE_FINAL_TYPE (PalAgentStore, pal_agent_store, PAL_TYPE_STORED_LIST)

enum {
  PROP_0,
  PROP_SECRET_STORE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  PROFILE_EDITED,
  SECRETS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static int
slot_of_id (const char *id)
{
  for (guint i = 0; i < N_SLOTS; i++)
    if (g_strcmp0 (presets[i].id, id) == 0)
      return i;
  return -1;
}

static PalAgentProfile *
find_in (GPtrArray  *array,
         const char *id)
{
  for (guint i = 0; i < array->len; i++)
    {
      PalAgentProfile *profile = g_ptr_array_index (array, i);

      if (g_strcmp0 (pal_agent_profile_get_id (profile), id) == 0)
        return profile;
    }
  return NULL;
}

/* --- writing --- */

static GVariant *
encode (gpointer item)
{
  PalAgentProfile *profile = item;
  GVariantBuilder builder;
  GVariantBuilder env;
  const char * const *vars = pal_agent_profile_get_env (profile);

  g_variant_builder_init (&env, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; vars[i] != NULL; i++)
    {
      const char *eq = strchr (vars[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL)
        g_variant_builder_add (&env, "{ss}", vars[i], "");
      else
        {
          name = g_strndup (vars[i], eq - vars[i]);
          g_variant_builder_add (&env, "{ss}", name, eq + 1);
        }
    }

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&builder, "{sv}", "id",
                         g_variant_new_string (pal_agent_profile_get_id (profile)));
  g_variant_builder_add (&builder, "{sv}", "name",
                         g_variant_new_string (pal_agent_profile_get_name (profile)));
  g_variant_builder_add (&builder, "{sv}", "command",
                         g_variant_new_string (pal_agent_profile_get_command (profile)));
  g_variant_builder_add (&builder, "{sv}", "args",
                         g_variant_new_strv (pal_agent_profile_get_args (profile), -1));
  g_variant_builder_add (&builder, "{sv}", "env", g_variant_builder_end (&env));
  g_variant_builder_add (&builder, "{sv}", "secrets",
                         g_variant_new_strv (pal_agent_profile_get_secrets (profile), -1));
  return g_variant_builder_end (&builder);
}

static GPtrArray *
get_stored_items (PalStoredList *list)
{
  return PAL_AGENT_STORE (list)->stored;
}

/* --- the model --- */

static PalAgentProfile *
ensure_preset_item (PalAgentStore *self,
                    Slot           slot)
{
  if (self->preset_items[slot] == NULL)
    {
      PalAgentProfile *profile;

      profile = g_object_new (PAL_TYPE_AGENT_PROFILE,
                              "id", presets[slot].id,
                              "name", _(presets[slot].name),
                              "command", self->detected[slot],
                              "args", presets[slot].args,
                              "is-preset", TRUE,
                              "is-demo", slot == SLOT_DEMO,
                              NULL);
      self->preset_items[slot] = profile;
    }
  else
    {
      /* a later detection may have found another path */
      _pal_stored_list_block_changes (PAL_STORED_LIST (self));
      pal_agent_profile_set_command (self->preset_items[slot], self->detected[slot]);
      _pal_stored_list_unblock_changes (PAL_STORED_LIST (self));
    }

  return self->preset_items[slot];
}

static void
rebuild (PalAgentStore *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new ();

  for (guint slot = 0; slot < N_SLOTS; slot++)
    {
      PalAgentProfile *stored;

      if (slot == SLOT_DEMO)
        {
          /* the person's own profiles come before the demo */
          for (guint i = 0; i < self->stored->len; i++)
            {
              PalAgentProfile *profile = g_ptr_array_index (self->stored, i);

              if (slot_of_id (pal_agent_profile_get_id (profile)) < 0)
                g_ptr_array_add (items, profile);
            }
        }

      stored = find_in (self->stored, presets[slot].id);
      if (stored != NULL)
        {
          g_clear_object (&self->preset_items[slot]);
          g_ptr_array_add (items, stored);
        }
      else if (self->detected[slot] != NULL)
        g_ptr_array_add (items, ensure_preset_item (self, slot));
      else
        g_clear_object (&self->preset_items[slot]);
    }

  _pal_stored_list_replace (PAL_STORED_LIST (self), items);
}

/* A preset the person edits becomes a stored profile: the same object. */
static void
adopt_preset_item (PalAgentStore *self,
                   Slot           slot)
{
  PalAgentProfile *profile = g_steal_pointer (&self->preset_items[slot]);

  _pal_agent_profile_set_is_preset (profile, FALSE);
  g_ptr_array_add (self->stored, profile);
}

/* Adopts @profile when it is an unedited preset. */
static void
adopt_if_preset (PalAgentStore   *self,
                 PalAgentProfile *profile)
{
  int slot = slot_of_id (pal_agent_profile_get_id (profile));

  if (slot >= 0 && self->preset_items[slot] == profile)
    adopt_preset_item (self, slot);
}

static void
item_changed (PalStoredList *list,
              gpointer       item,
              GParamSpec    *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "is-preset") || g_str_equal (name, "is-demo"))
    return;

  adopt_if_preset (PAL_AGENT_STORE (list), item);
  _pal_stored_list_queue_save (list);
}

/* --- reading --- */

static char *
describe_skipped (guint       index,
                  const char *reason)
{
  /* TRANSLATORS: %u is the position of the entry, counted from 1; %s says what is wrong */
  return g_strdup_printf (_("Stored agent profile %u: %s"), index + 1, reason);
}

static gboolean
is_variable_name (const char *name)
{
  return *name != '\0' && strchr (name, '=') == NULL;
}

static gpointer
decode (GVariant   *entry,
        GPtrArray  *notes,
        char      **reason)
{
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;
  g_autofree char *command = NULL;
  g_auto(GStrv) args = NULL;
  g_auto(GStrv) secrets = NULL;
  g_autoptr(GVariant) env_dict = NULL;
  g_autoptr(GStrvBuilder) env = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) secret_names = g_strv_builder_new ();
  g_auto(GStrv) envv = NULL;
  g_auto(GStrv) secretv = NULL;
  char *note = NULL;
  GVariantIter iter;
  const char *var_name;
  const char *var_value;

  /* without its arguments the command would do something else */
  if (!_pal_dict_get_string (entry, "id", TRUE, &id, reason) ||
      !_pal_dict_get_string (entry, "name", TRUE, &name, reason) ||
      !_pal_dict_get_string (entry, "command", TRUE, &command, reason) ||
      !_pal_dict_get_strv (entry, "args", FALSE, &args, reason))
    return NULL;

  if (*id == '\0')
    {
      *reason = g_strdup (_("the id is empty"));
      return NULL;
    }

  /* the environment and the secrets cost the profile only what cannot be read */
  _pal_note_left_out (notes, _pal_dict_get_value (entry, "env", "a{ss}", FALSE, &env_dict, &note),
                      &note);
  _pal_note_left_out (notes, _pal_dict_get_strv (entry, "secrets", FALSE, &secrets, &note), &note);

  if (env_dict != NULL)
    {
      g_variant_iter_init (&iter, env_dict);
      while (g_variant_iter_next (&iter, "{&s&s}", &var_name, &var_value))
        {
          g_autofree char *var = NULL;

          if (!is_variable_name (var_name))
            {
              note = g_strdup_printf (_("the environment variable name “%s” is invalid"), var_name);
              _pal_note_left_out (notes, FALSE, &note);
              continue;
            }
          var = g_strconcat (var_name, "=", var_value, NULL);
          g_strv_builder_add (env, var);
        }
    }
  envv = g_strv_builder_end (env);

  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    {
      if (!is_variable_name (secrets[i]))
        {
          note = g_strdup_printf (_("the environment variable name “%s” is invalid"), secrets[i]);
          _pal_note_left_out (notes, FALSE, &note);
          continue;
        }
      g_strv_builder_add (secret_names, secrets[i]);
    }
  secretv = g_strv_builder_end (secret_names);

  return g_object_new (PAL_TYPE_AGENT_PROFILE,
                       "id", id,
                       "name", name,
                       "command", command,
                       "args", args,
                       "env", envv,
                       "secrets", secretv,
                       "is-demo", g_str_equal (id, PAL_AGENT_ID_DEMO),
                       NULL);
}

static gconstpointer
get_id (gpointer item)
{
  return pal_agent_profile_get_id (item);
}

static void
update_item (PalStoredList *list,
             gpointer       item,
             gpointer       entry)
{
  adopt_if_preset (PAL_AGENT_STORE (list), item);
  _pal_agent_profile_assign (item, entry);
}

static void
apply_entries (PalStoredList *list,
               GPtrArray     *items)
{
  PalAgentStore *self = PAL_AGENT_STORE (list);

  g_ptr_array_unref (self->stored);
  self->stored = g_ptr_array_ref (items);
  rebuild (self);
}

/* --- GObject --- */

static void
pal_agent_store_dispose (GObject *object)
{
  PalAgentStore *self = PAL_AGENT_STORE (object);

  g_cancellable_cancel (self->cancellable);

  for (guint slot = 0; slot < N_SLOTS; slot++)
    g_clear_object (&self->preset_items[slot]);
  g_clear_object (&self->secret_store);

  G_OBJECT_CLASS (pal_agent_store_parent_class)->dispose (object);
}

static void
pal_agent_store_finalize (GObject *object)
{
  PalAgentStore *self = PAL_AGENT_STORE (object);

  /* kept until here: a detection still running checks it when it ends */
  g_clear_object (&self->cancellable);
  /* and these, which the parent's dispose may still write */
  g_clear_pointer (&self->stored, g_ptr_array_unref);
  for (guint slot = 0; slot < N_SLOTS; slot++)
    g_clear_pointer (&self->detected[slot], g_free);

  G_OBJECT_CLASS (pal_agent_store_parent_class)->finalize (object);
}

static void
pal_agent_store_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PalAgentStore *self = PAL_AGENT_STORE (object);

  switch (prop_id)
    {
    case PROP_SECRET_STORE:
      g_value_set_object (value, self->secret_store);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_agent_store_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PalAgentStore *self = PAL_AGENT_STORE (object);

  switch (prop_id)
    {
    case PROP_SECRET_STORE:
      pal_agent_store_set_secret_store (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_agent_store_class_init (PalAgentStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  PalStoredListClass *list_class = PAL_STORED_LIST_CLASS (klass);

  object_class->dispose = pal_agent_store_dispose;
  object_class->finalize = pal_agent_store_finalize;
  object_class->get_property = pal_agent_store_get_property;
  object_class->set_property = pal_agent_store_set_property;

  list_class->key = AGENTS_KEY;
  list_class->title = N_("Agent profiles");
  list_class->item_type = PAL_TYPE_AGENT_PROFILE;
  list_class->decode = decode;
  list_class->encode = encode;
  list_class->get_id = get_id;
  list_class->describe_skipped = describe_skipped;
  list_class->update_item = update_item;
  list_class->apply_entries = apply_entries;
  list_class->get_stored_items = get_stored_items;
  list_class->item_changed = item_changed;

  /**
   * PalAgentStore::profile-edited:
   * @self: the store
   * @profile: the profile, as it is now
   *
   * pal_agent_store_update() changed a profile (agents of it that run keep
   * what they were started with).
   */
  signals[PROFILE_EDITED] =
    g_signal_new ("profile-edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, PAL_TYPE_AGENT_PROFILE);

  /**
   * PalAgentStore::secrets-changed:
   * @self: the store
   * @id: the profile id
   *
   * Values of the profile's variables were stored in the keyring: agents of
   * it that run have the old ones.
   */
  signals[SECRETS_CHANGED] =
    g_signal_new ("secrets-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /* Where secret values go; none keeps them all in the profiles. */
  properties[PROP_SECRET_STORE] =
    g_param_spec_object ("secret-store", NULL, NULL, PAL_TYPE_SECRET_STORE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_agent_store_init (PalAgentStore *self)
{
  const char *demo = g_getenv ("PALAVER_DEMO_AGENT");

  if (demo == NULL || *demo == '\0')
    demo = LIBEXECDIR "/palaver-demo-agent";
  self->detected[SLOT_DEMO] = g_strdup (demo);
  self->cancellable = g_cancellable_new ();
  self->stored = g_ptr_array_new_with_free_func (g_object_unref);
}

/* --- secrets --- */

static void
secrets_forgotten_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* nothing left to tell anyone: the profile or the name is gone already */
  if (!pal_secret_store_clear_finish (PAL_SECRET_STORE (object), result, &error))
    g_debug ("Removing an agent's values from the keyring: %s", error->message);
}

/* Removes the value of @name (NULL: every value) of the agent @id from the
 * keyring. Not cancelled with the store: the removal is what was asked. */
static void
forget_secrets (PalAgentStore *self,
                const char    *id,
                const char    *name)
{
  if (self->secret_store == NULL)
    return;

  pal_secret_store_clear_async (self->secret_store, id, name, NULL, secrets_forgotten_cb, NULL);
}

/* --- public API --- */

/**
 * pal_agent_store_new:
 * @settings: the io.github.palaverapp.Palaver settings
 *
 * Reads the stored profiles at once. Call pal_agent_store_detect_async() to
 * find the presets.
 *
 * Returns: (transfer full): a new store
 */
PalAgentStore *
pal_agent_store_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (PAL_TYPE_AGENT_STORE, "settings", settings, NULL);
}

/* Returns: (transfer none) (nullable): where secret values go */
PalSecretStore *
pal_agent_store_get_secret_store (PalAgentStore *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), NULL);
  return self->secret_store;
}

void
pal_agent_store_set_secret_store (PalAgentStore  *self,
                                  PalSecretStore *secret_store)
{
  g_return_if_fail (PAL_IS_AGENT_STORE (self));
  g_return_if_fail (secret_store == NULL || PAL_IS_SECRET_STORE (secret_store));

  if (g_set_object (&self->secret_store, secret_store))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SECRET_STORE]);
}

GSettings *
pal_agent_store_get_settings (PalAgentStore *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), NULL);
  return pal_stored_list_get_settings (PAL_STORED_LIST (self));
}

/**
 * pal_agent_store_get_load_errors:
 * @self: a #PalAgentStore
 *
 * Returns: (transfer none): the load errors of the list, translated: see
 *   pal_stored_list_get_load_errors(); empty when all was read.
 */
const char * const *
pal_agent_store_get_load_errors (PalAgentStore *self)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), NULL);
  return pal_stored_list_get_load_errors (PAL_STORED_LIST (self));
}

/**
 * pal_agent_store_lookup:
 * @self: a #PalAgentStore
 * @id: a profile id
 *
 * Returns: (transfer none) (nullable): the listed profile with that id
 */
PalAgentProfile *
pal_agent_store_lookup (PalAgentStore *self,
                        const char    *id)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), NULL);

  return pal_stored_list_lookup (PAL_STORED_LIST (self), id);
}

/**
 * pal_agent_store_get_name:
 * @self: a #PalAgentStore
 * @id: (nullable): a profile id, as a stored session names it
 *
 * Returns: (nullable): the name to show for @id: its profile's; else, for
 *   an agent no longer found on this computer, the name of its preset;
 *   else @id itself
 */
const char *
pal_agent_store_get_name (PalAgentStore *self,
                          const char    *id)
{
  PalAgentProfile *profile;
  int slot;

  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), NULL);

  if (id == NULL)
    return NULL;

  profile = pal_agent_store_lookup (self, id);
  if (profile != NULL)
    return pal_agent_profile_get_name (profile);

  slot = slot_of_id (id);
  return slot >= 0 ? _(presets[slot].name) : id;
}

/**
 * pal_agent_store_is_preset_id:
 * @id: (nullable): a profile id
 *
 * Returns: whether @id is the id of a preset, found on this computer or not
 */
gboolean
pal_agent_store_is_preset_id (const char *id)
{
  return slot_of_id (id) >= 0;
}

/**
 * pal_agent_store_describe_missing:
 * @self: a #PalAgentStore
 * @id: a profile id that is not listed
 *
 * Returns: (transfer full): why there is no agent @id, and what to do
 */
char *
pal_agent_store_describe_missing (PalAgentStore *self,
                                  const char    *id)
{
  int slot;

  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  slot = slot_of_id (id);
  if (slot >= 0 && presets[slot].install != NULL)
    /* Translators: %1$s is an agent's name, %2$s the command that installs it */
    return g_strdup_printf (_("%1$s was not found on this computer. Install it with “%2$s”, then try again."),
                            _(presets[slot].name), presets[slot].install);

  /* Translators: %s is the id of an agent profile that was removed */
  return g_strdup_printf (_("The agent “%s” is not set up any more: add it again in Preferences, or start a new session with another agent."),
                          id);
}

/**
 * pal_agent_store_add:
 * @self: a #PalAgentStore
 * @profile: a new profile (see pal_agent_profile_new())
 * @error: %PAL_ERROR_INVALID when the profile does not validate,
 *   %PAL_ERROR_EXISTS when its id is taken (edit presets with
 *   pal_agent_store_update())
 *
 * Adds @profile itself (the store takes a reference) and writes the key.
 *
 * Returns: %TRUE on success
 */
gboolean
pal_agent_store_add (PalAgentStore    *self,
                     PalAgentProfile  *profile,
                     GError          **error)
{
  const char *id;

  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), FALSE);
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (profile), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!pal_agent_profile_validate (profile, error))
    return FALSE;

  id = pal_agent_profile_get_id (profile);
  if (pal_agent_store_lookup (self, id) != NULL || slot_of_id (id) >= 0 ||
      g_ptr_array_find (_pal_stored_list_get_items (PAL_STORED_LIST (self)), profile, NULL))
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_EXISTS,
                   _("An agent profile with the id “%s” already exists"), id);
      return FALSE;
    }

  _pal_agent_profile_set_is_preset (profile, FALSE);
  g_ptr_array_add (self->stored, g_object_ref (profile));
  rebuild (self);
  _pal_stored_list_save (PAL_STORED_LIST (self));
  return TRUE;
}

/**
 * pal_agent_store_update:
 * @self: a #PalAgentStore
 * @edited: a profile with the id of a listed one, usually from
 *   pal_agent_profile_copy(), carrying the new settings
 * @error: %PAL_ERROR_NOT_FOUND or %PAL_ERROR_INVALID
 *
 * Copies name, command, args, env and secrets of @edited into the listed
 * profile of the same id and writes the key. A preset becomes a stored
 * profile. Names no longer in secrets have their values removed from the
 * keyring.
 *
 * Returns: %TRUE on success
 */
gboolean
pal_agent_store_update (PalAgentStore    *self,
                        PalAgentProfile  *edited,
                        GError          **error)
{
  PalAgentProfile *profile;
  gboolean changed;

  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), FALSE);
  g_return_val_if_fail (PAL_IS_AGENT_PROFILE (edited), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  profile = pal_agent_store_lookup (self, pal_agent_profile_get_id (edited));
  if (profile == NULL)
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND,
                   _("There is no agent profile with the id “%s”"),
                   pal_agent_profile_get_id (edited));
      return FALSE;
    }

  if (!pal_agent_profile_validate (edited, error))
    return FALSE;

  /* values no longer listed leave the keyring */
  {
    const char * const *old_secrets = pal_agent_profile_get_secrets (profile);

    for (guint i = 0; old_secrets[i] != NULL; i++)
      if (!pal_agent_profile_has_secret (edited, old_secrets[i]))
        forget_secrets (self, pal_agent_profile_get_id (profile), old_secrets[i]);
  }

  _pal_stored_list_block_changes (PAL_STORED_LIST (self));
  changed = _pal_agent_profile_assign (profile, edited);
  _pal_stored_list_unblock_changes (PAL_STORED_LIST (self));
  if (!changed)
    return TRUE;

  adopt_if_preset (self, profile);
  _pal_stored_list_save (PAL_STORED_LIST (self));
  g_signal_emit (self, signals[PROFILE_EDITED], 0, profile);
  return TRUE;
}

/**
 * pal_agent_store_remove:
 * @self: a #PalAgentStore
 * @id: the id of a profile the person added or edited
 * @error: %PAL_ERROR_NOT_FOUND, or %PAL_ERROR_NOT_SUPPORTED for an unedited
 *   preset or the demo
 *
 * Removes a stored profile and writes the key, and its values from the
 * keyring. Removing an edited preset restores the preset when it is
 * detected (and always for the demo).
 *
 * Returns: %TRUE on success
 */
gboolean
pal_agent_store_remove (PalAgentStore  *self,
                        const char     *id,
                        GError        **error)
{
  PalAgentProfile *profile;
  guint index;

  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  profile = find_in (self->stored, id);
  if (profile == NULL)
    {
      if (pal_agent_store_lookup (self, id) != NULL)
        g_set_error (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                     _("The built-in agent profile “%s” cannot be removed"), id);
      else
        g_set_error (error, PAL_ERROR, PAL_ERROR_NOT_FOUND,
                     _("There is no agent profile with the id “%s”"), id);
      return FALSE;
    }

  forget_secrets (self, id, NULL);
  g_ptr_array_find (self->stored, profile, &index);
  g_ptr_array_remove_index (self->stored, index);
  rebuild (self);
  _pal_stored_list_save (PAL_STORED_LIST (self));
  return TRUE;
}

/**
 * pal_agent_store_dup_default_id:
 * @self: a #PalAgentStore
 *
 * The profile to preselect for a new session: the one named by the
 * `default-agent` key when it is listed, else the first detected preset
 * (edited or not), else the demo. A profile the person adds becomes the
 * default only when they choose it: adding one does not change the default.
 *
 * Returns: (transfer full): a profile id
 */
char *
pal_agent_store_dup_default_id (PalAgentStore *self)
{
  g_autofree char *id = NULL;
  GPtrArray *items;

  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), NULL);

  id = g_settings_get_string (pal_agent_store_get_settings (self), DEFAULT_AGENT_KEY);
  if (*id != '\0' && pal_agent_store_lookup (self, id) != NULL)
    return g_steal_pointer (&id);

  items = _pal_stored_list_get_items (PAL_STORED_LIST (self));
  for (guint i = 0; i < items->len; i++)
    {
      PalAgentProfile *profile = g_ptr_array_index (items, i);

      if (!pal_agent_profile_get_is_demo (profile) &&
          pal_agent_store_is_preset_id (pal_agent_profile_get_id (profile)))
        return g_strdup (pal_agent_profile_get_id (profile));
    }

  return g_strdup (PAL_AGENT_ID_DEMO);
}

/**
 * pal_agent_store_set_default_id:
 * @self: a #PalAgentStore
 * @id: (nullable): a profile id, or %NULL to choose automatically
 */
void
pal_agent_store_set_default_id (PalAgentStore *self,
                                const char    *id)
{
  g_return_if_fail (PAL_IS_AGENT_STORE (self));

  g_settings_set_string (pal_agent_store_get_settings (self), DEFAULT_AGENT_KEY,
                         id != NULL ? id : "");
}

/* --- detection --- */

typedef struct
{
  char *path;
  char *found[N_DETECTED_SLOTS];
} DetectData;

static void
detect_data_free (gpointer data)
{
  DetectData *detect = data;

  g_free (detect->path);
  for (guint i = 0; i < N_DETECTED_SLOTS; i++)
    g_free (detect->found[i]);
  g_free (detect);
}

/* Like g_find_program_in_path(), but on a PATH read on the main thread:
 * getenv() is not safe while another thread may call setenv(). */
static char *
find_program (const char *path,
              const char *program)
{
  g_auto(GStrv) dirs = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *file = NULL;

      /* an empty PATH element means the current directory: not a place
       * to pick an agent from; nor is a folder whose name is not UTF-8,
       * as the settings could not hold the command once edited */
      if (!g_path_is_absolute (dirs[i]) || !g_utf8_validate (dirs[i], -1, NULL))
        continue;

      file = g_build_filename (dirs[i], program, NULL);
      if (g_file_test (file, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (file, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&file);
    }

  return NULL;
}

static void
detect_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  DetectData *detect = task_data;

  for (guint slot = 0; slot < N_DETECTED_SLOTS; slot++)
    {
      if (g_task_return_error_if_cancelled (task))
        return;

      for (guint i = 0; presets[slot].programs[i] != NULL && detect->found[slot] == NULL; i++)
        detect->found[slot] = find_program (detect->path, presets[slot].programs[i]);
    }

  g_task_return_boolean (task, TRUE);
}

static void
detect_done_cb (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  PalAgentStore *self = PAL_AGENT_STORE (source_object);
  g_autoptr(GTask) task = user_data;
  DetectData *detect = g_task_get_task_data (G_TASK (result));
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error) ||
      g_cancellable_set_error_if_cancelled (self->cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  for (guint slot = 0; slot < N_DETECTED_SLOTS; slot++)
    {
      if (detect->found[slot] != NULL)
        g_debug ("Found the %s agent at %s", presets[slot].id, detect->found[slot]);
      g_free (self->detected[slot]);
      self->detected[slot] = g_steal_pointer (&detect->found[slot]);
    }

  rebuild (self);
  g_task_return_boolean (task, TRUE);
}

/**
 * pal_agent_store_detect_async:
 * @self: a #PalAgentStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Looks for the preset agents' programs in `PATH` (read now) in a worker
 * thread, then lists the presets found and drops those no longer found
 * (stored profiles stay). Safe to call again, e.g. after an install.
 */
void
pal_agent_store_detect_async (PalAgentStore       *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) worker = NULL;
  DetectData *detect;
  const char *path;

  g_return_if_fail (PAL_IS_AGENT_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_agent_store_detect_async);

  path = g_getenv ("PATH");
  detect = g_new0 (DetectData, 1);
  detect->path = g_strdup (path != NULL ? path : "/usr/local/bin:/usr/bin:/bin");

  worker = g_task_new (self, cancellable, detect_done_cb, g_steal_pointer (&task));
  g_task_set_source_tag (worker, pal_agent_store_detect_async);
  g_task_set_task_data (worker, detect, detect_data_free);
  g_task_run_in_thread (worker, detect_thread);
}

/**
 * pal_agent_store_detect_finish:
 * @self: a #PalAgentStore
 * @result: the result
 * @error: only %G_IO_ERROR_CANCELLED
 *
 * Returns: %TRUE when the presets were updated
 */
gboolean
pal_agent_store_detect_finish (PalAgentStore  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (PAL_IS_AGENT_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pal_agent_store_detect_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
