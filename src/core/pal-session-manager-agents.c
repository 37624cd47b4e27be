/* pal-session-manager-agents.c: one agent process per profile and folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session manager keeps one AcpAgent per (agent profile, project folder).
 * The process runs in that folder (some agents key their history on their
 * working directory) and is shared by every live session there. An agent is
 * started on first need; callers that need it while it starts wait for that
 * start (PalWaitList). When it exits, its slot is dropped, so the next need
 * starts a new process; the sessions on it fail by themselves (AcpSession).
 * Agents with no session left keep running: real agents take seconds to
 * start, and the next session in that folder is then immediate. Shutdown
 * stops them all. An agent whose profile was edited since it started (an
 * API key put in its environment, say) is replaced by a new process at the
 * next need once no session is open on it; so is one whose values in the
 * keyring changed, or that a sign-in in a terminal changed the files of.
 * Values the profile keeps in the keyring are looked up before each start
 * (the start waits for the keyring, which may ask to be unlocked).
 *
 * The calls to an agent itself are beside: authenticate in
 * pal-session-manager-sign-in.c, session/list in pal-session-manager-list.c;
 * replacing agents out of date in pal-session-manager-out-of-date.c.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-session-manager-private.h"

/* AgentSlot {{{ */

static void
agent_slot_clear (gpointer data)
{
  AgentSlot *slot = data;
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                 _("The agent was stopped"));

  if (slot->agent != NULL)
    g_clear_signal_handler (&slot->exited_id, slot->agent);
  _pal_wait_list_clear (&slot->start, error);
  g_clear_object (&slot->agent);
  g_clear_pointer (&slot->key, g_free);
  g_clear_pointer (&slot->profile_id, g_free);
  g_clear_pointer (&slot->cwd, g_free);
  g_clear_pointer (&slot->launch, g_free);
}

AgentSlot *
_pal_agent_slot_ref (AgentSlot *slot)
{
  return g_rc_box_acquire (slot);
}

void
_pal_agent_slot_unref (AgentSlot *slot)
{
  g_rc_box_release_full (slot, agent_slot_clear);
}

static char *
make_key (const char *profile_id,
          const char *cwd)
{
  /* length-prefixed: no profile id or folder can make two keys collide */
  return g_strdup_printf ("%zu:%s\n%s", strlen (profile_id), profile_id, cwd);
}

/* Drops @slot from the table if it is still the one for its key. */
static void
forget_slot (PalSessionManager *self,
             AgentSlot         *slot)
{
  if (self == NULL)
    return;

  if (g_hash_table_lookup (self->agents, slot->key) == slot)
    g_hash_table_remove (self->agents, slot->key);
}

static void
agent_exited_cb (AcpAgent  *agent,
                 AgentSlot *slot)
{
  const GError *reason = acp_agent_get_exit_error (agent);

  g_debug ("Agent %s in %s exited: %s", slot->profile_id, slot->cwd,
           reason != NULL ? reason->message : "no reason");

  /* the next need starts a new process */
  forget_slot (slot->manager, slot);
}

static void
agent_started_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentSlot) slot = user_data;
  AcpAgent *agent = ACP_AGENT (object);
  g_autoptr(GError) error = NULL;

  slot->starting = FALSE;

  if (!acp_agent_start_finish (agent, result, &error))
    {
      g_debug ("Agent %s in %s did not start: %s", slot->profile_id, slot->cwd, error->message);
      forget_slot (slot->manager, slot);
      _pal_wait_list_return_error (&slot->start, error);
      return;
    }

  if (slot->manager != NULL)
    g_hash_table_insert (slot->manager->known_caps, g_strdup (slot->profile_id),
                         GUINT_TO_POINTER (acp_agent_get_capabilities (agent) | KNOWN_CAPS_BIT));

  _pal_wait_list_return_object (&slot->start, agent);
}

/* The environment additions of @profile, after the defaults it does not
 * set itself */
static char **
dup_agent_env (PalAgentProfile *profile)
{
  static const char * const defaults[] = PAL_AGENT_ENV_DEFAULTS;
  const char * const *own = pal_agent_profile_get_env (profile);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; defaults[i] != NULL; i++)
    {
      gsize name_length = strchr (defaults[i], '=') - defaults[i] + 1;
      gboolean set = FALSE;

      for (guint j = 0; own != NULL && own[j] != NULL && !set; j++)
        set = strncmp (own[j], defaults[i], name_length) == 0;
      if (!set)
        g_strv_builder_add (builder, defaults[i]);
    }
  if (own != NULL)
    g_strv_builder_addv (builder, (const char **) own);

  return g_strv_builder_end (builder);
}

/* The agent of @profile, not yet started; @secret_env (nullable): the
 * profile's values from the keyring. */
static AcpAgent *
create_agent (PalSessionManager   *self,
              PalAgentProfile     *profile,
              const char          *cwd,
              const char * const  *secret_env,
              GError             **error)
{
  g_autoptr(GStrvBuilder) env_builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) agent_env = NULL;
  g_auto(GStrv) wrapped = NULL;
  g_auto(GStrv) env = NULL;
  g_auto(GStrv) all_env = NULL;
  g_autofree char *wrapped_cwd = NULL;
  AcpAgent *agent;

  if (!pal_agent_profile_validate (profile, error))
    return NULL;

  argv = pal_agent_profile_dup_argv (profile);
  agent_env = dup_agent_env (profile);
  g_strv_builder_addv (env_builder, (const char **) agent_env);
  if (secret_env != NULL)
    g_strv_builder_addv (env_builder, (const char **) secret_env);
  all_env = g_strv_builder_end (env_builder);
  wrapped = pal_launcher_wrap_argv (self->sandbox, (const char * const *) argv,
                                    (const char * const *) all_env, cwd,
                                    &env, &wrapped_cwd, error);
  if (wrapped == NULL)
    return NULL;

  agent = acp_agent_new ((const char * const *) wrapped, (const char * const *) env, wrapped_cwd);
  acp_agent_set_pacer (agent, self->pacer);
  acp_agent_set_client_capabilities (agent, PAL_CLIENT_CAPABILITIES);
  acp_agent_set_initialize_timeout (agent, PAL_AGENT_INITIALIZE_TIMEOUT_MS);
  acp_fs_service_attach (self->fs_service, agent);
  /* a session's terminals are found by its profile, on whichever of the
   * profile's processes they ran */
  acp_terminal_service_attach_in_group (self->terminal_service, agent,
                                        pal_agent_profile_get_id (profile));
  _pal_session_manager_record_agent (self, agent, pal_agent_profile_get_id (profile));
  g_hash_table_replace (self->last_agents, g_strdup (pal_agent_profile_get_id (profile)),
                        g_object_ref (agent));

  return agent;
}

/**
 * pal_session_manager_dup_last_agent:
 * @self: a #PalSessionManager
 * @profile_id: an agent profile id
 *
 * Returns: (transfer full) (nullable): the last agent of the profile that
 *   was started, running or not (its log tells why a start failed)
 */
AcpAgent *
pal_session_manager_dup_last_agent (PalSessionManager *self,
                                    const char        *profile_id)
{
  AcpAgent *agent;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);

  if (profile_id == NULL || self->last_agents == NULL)
    return NULL;
  agent = g_hash_table_lookup (self->last_agents, profile_id);

  return agent != NULL ? g_object_ref (agent) : NULL;
}

static void
replaced_agent_stopped_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!acp_agent_stop_finish (ACP_AGENT (object), result, &error))
    g_debug ("Stopping an agent started from an older profile: %s", error->message);
}

char *
_pal_session_manager_canonical_cwd (const char  *cwd,
                                    GError     **error)
{
  g_autofree char *shown = g_filename_display_name (cwd != NULL ? cwd : "");

  if (cwd == NULL || !g_path_is_absolute (cwd))
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                   _("The project folder “%s” is not an absolute path"), shown);
      return NULL;
    }
  /* the protocol and the settings hold text: a name that is not UTF-8
   * could be neither sent to the agent nor stored */
  if (!g_utf8_validate (cwd, -1, NULL))
    {
      g_set_error (error, PAL_ERROR, PAL_ERROR_INVALID,
                   _("The name of the project folder “%s” is not valid UTF-8 text, "
                     "which agents cannot be given"),
                   shown);
      return NULL;
    }

  return g_canonicalize_filename (cwd, NULL);
}

typedef struct
{
  char  *profile_id;
  char  *cwd;
  GStrv  secret_env;   /* the profile's values from the keyring, once looked up */
} EnsureData;

static void
ensure_data_free (EnsureData *data)
{
  g_free (data->profile_id);
  g_free (data->cwd);
  g_strfreev (data->secret_env);
  g_free (data);
}

static void ensure_agent (PalSessionManager *self,
                          GTask             *task,
                          const char        *profile_id,
                          const char        *cwd,
                          gboolean           may_detect);

static void
redetected_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  EnsureData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!pal_agent_store_detect_finish (PAL_AGENT_STORE (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  ensure_agent (g_task_get_source_object (task), task, data->profile_id, data->cwd, FALSE);
}

static void
secrets_looked_up_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  EnsureData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  data->secret_env = pal_agent_store_lookup_secrets_finish (PAL_AGENT_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  /* Started without them, the agent asks for a sign-in, and the values
   * given then go where they can. */
  if (data->secret_env == NULL)
    {
      g_debug ("Starting agent %s without its values from the keyring: %s",
               data->profile_id, error->message);
      data->secret_env = g_new0 (char *, 1);
    }

  ensure_agent (g_task_get_source_object (task), task, data->profile_id, data->cwd, FALSE);
}

void
_pal_session_manager_ensure_agent_async (PalSessionManager   *self,
                                         const char          *profile_id,
                                         const char          *cwd,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  GTask *task;
  EnsureData *data;

  g_assert (PAL_IS_SESSION_MANAGER (self));
  g_assert (profile_id != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _pal_session_manager_ensure_agent_async);
  data = g_new0 (EnsureData, 1);
  data->profile_id = g_strdup (profile_id);
  data->cwd = g_strdup (cwd);
  g_task_set_task_data (task, data, (GDestroyNotify) ensure_data_free);

  ensure_agent (self, task, profile_id, cwd, TRUE);
}

/* Takes @task. A preset that is not listed is looked for on PATH once more
 * (@may_detect) before the answer is that there is no such agent: it may
 * have been installed since, or the first look may not be over yet. */
static void
ensure_agent (PalSessionManager *self,
              GTask             *task_in,
              const char        *profile_id,
              const char        *cwd,
              gboolean           may_detect)
{
  g_autoptr(GTask) task = task_in;
  EnsureData *data = g_task_get_task_data (task_in);
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *key = NULL;
  PalAgentProfile *profile;
  AgentSlot *slot;

  if (self->shut_down)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                               "%s", _("Palaver is quitting"));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  canonical = _pal_session_manager_canonical_cwd (cwd, &error);
  if (canonical == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  key = make_key (profile_id, canonical);
  slot = g_hash_table_lookup (self->agents, key);

  if (slot != NULL && slot->starting)
    {
      if (!g_cancellable_is_cancelled (slot->start.cancellable))
        {
          _pal_wait_list_add (&slot->start, task);
          return;
        }

      /* called off, its waiters all gone, and not over yet: a new process
       * takes its place */
      g_hash_table_remove (self->agents, key);
      slot = NULL;
    }
  profile = pal_agent_store_lookup (self->agent_store, profile_id);
  if (slot != NULL && acp_agent_get_state (slot->agent) == ACP_AGENT_STATE_READY)
    {
      g_autofree char *launch = profile != NULL ? _pal_agent_launch_of (profile) : NULL;

      if (launch == NULL || g_strcmp0 (launch, slot->launch) == 0 ||
          _pal_session_manager_agent_in_use (self, slot->agent))
        {
          g_task_return_pointer (task, g_object_ref (slot->agent), g_object_unref);
          return;
        }

      /* edited since it started, and idle: a new process takes its place */
      g_debug ("Restarting agent %s in %s: its profile changed", profile_id, canonical);
      acp_agent_stop_async (slot->agent, NULL, replaced_agent_stopped_cb, NULL);
    }
  if (slot != NULL)
    {
      /* stopping or gone: a new process takes its place */
      g_hash_table_remove (self->agents, key);
      slot = NULL;
    }

  if (profile == NULL && may_detect && pal_agent_store_is_preset_id (profile_id))
    {
      /* read before the task is handed over: the order in which a call's
       * arguments are evaluated is not defined */
      GCancellable *cancellable = g_task_get_cancellable (task);

      pal_agent_store_detect_async (self->agent_store, cancellable, redetected_cb, g_steal_pointer (&task));
      return;
    }
  if (profile == NULL)
    {
      g_autofree char *message = pal_agent_store_describe_missing (self->agent_store, profile_id);

      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND, "%s", message);
      return;
    }

  if (data->secret_env == NULL && pal_agent_profile_get_secrets (profile)[0] != NULL)
    {
      GCancellable *cancellable = g_task_get_cancellable (task);

      pal_agent_store_lookup_secrets_async (self->agent_store, profile, cancellable,
                                            secrets_looked_up_cb, g_steal_pointer (&task));
      return;
    }

  agent = create_agent (self, profile, canonical, (const char * const *) data->secret_env, &error);
  if (agent == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  slot = g_rc_box_new0 (AgentSlot);
  slot->manager = self;
  slot->key = g_strdup (key);
  slot->profile_id = g_strdup (profile_id);
  slot->cwd = g_strdup (canonical);
  slot->launch = _pal_agent_launch_of (profile);
  slot->agent = g_steal_pointer (&agent);
  slot->starting = TRUE;
  _pal_wait_list_init (&slot->start);
  slot->exited_id = g_signal_connect (slot->agent, "exited", G_CALLBACK (agent_exited_cb), slot);
  g_hash_table_insert (self->agents, g_steal_pointer (&key), slot);

  g_debug ("Starting agent %s in %s", profile_id, canonical);

  _pal_wait_list_add (&slot->start, task);
  acp_agent_start_async (slot->agent, slot->start.cancellable, agent_started_cb,
                         _pal_agent_slot_ref (slot));
}

AcpAgent *
_pal_session_manager_ensure_agent_finish (PalSessionManager  *self,
                                          GAsyncResult       *result,
                                          GError            **error)
{
  g_assert (g_task_is_valid (result, self));
  g_assert (g_task_get_source_tag (G_TASK (result)) == _pal_session_manager_ensure_agent_async);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static AgentSlot *
find_ready_slot (PalSessionManager *self,
                 const char        *profile_id,
                 const char        *cwd)
{
  g_autofree char *canonical = NULL;
  g_autofree char *key = NULL;
  AgentSlot *slot;

  canonical = _pal_session_manager_canonical_cwd (cwd, NULL);
  if (canonical == NULL)
    return NULL;

  key = make_key (profile_id, canonical);
  slot = g_hash_table_lookup (self->agents, key);
  if (slot == NULL || slot->starting ||
      acp_agent_get_state (slot->agent) != ACP_AGENT_STATE_READY)
    return NULL;

  return slot;
}

gboolean
_pal_session_manager_get_known_caps (PalSessionManager    *self,
                                     const char           *profile_id,
                                     const char           *cwd,
                                     AcpAgentCapabilities *caps)
{
  AgentSlot *slot = find_ready_slot (self, profile_id, cwd);
  guint known;

  if (slot != NULL)
    {
      *caps = acp_agent_get_capabilities (slot->agent);
      return TRUE;
    }

  known = GPOINTER_TO_UINT (g_hash_table_lookup (self->known_caps, profile_id));
  if ((known & KNOWN_CAPS_BIT) == 0)
    return FALSE;

  *caps = known & ~KNOWN_CAPS_BIT;
  return TRUE;
}

/* }}} */

/* stopping {{{ */

typedef struct
{
  guint pending;
} StopData;

static void
agent_stopped_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StopData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  /* The agent is gone either way; a failed stop is no reason to fail the
   * others. */
  if (!acp_agent_stop_finish (ACP_AGENT (object), result, &error))
    g_debug ("Stopping an agent: %s", error->message);

  if (--data->pending == 0)
    g_task_return_boolean (task, TRUE);
}

void
_pal_session_manager_stop_agents_async (PalSessionManager   *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) slots = NULL;
  StopData *data;
  GHashTableIter iter;
  gpointer value;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _pal_session_manager_stop_agents_async);
  data = g_new0 (StopData, 1);
  g_task_set_task_data (task, data, g_free);

  /* Out of the table first: an exiting agent drops its slot. */
  slots = g_ptr_array_new_with_free_func ((GDestroyNotify) _pal_agent_slot_unref);
  g_hash_table_iter_init (&iter, self->agents);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_ptr_array_add (slots, _pal_agent_slot_ref (value));
      g_hash_table_iter_remove (&iter);
    }

  /* one for the loop, so that agents stopping at once do not finish early */
  data->pending = 1;
  for (guint i = 0; i < slots->len; i++)
    {
      AgentSlot *slot = g_ptr_array_index (slots, i);

      if (slot->starting)
        g_cancellable_cancel (slot->start.cancellable);

      data->pending++;
      acp_agent_stop_async (slot->agent, cancellable, agent_stopped_cb, g_object_ref (task));
    }

  if (--data->pending == 0)
    g_task_return_boolean (task, TRUE);
}

gboolean
_pal_session_manager_stop_agents_finish (PalSessionManager  *self,
                                         GAsyncResult       *result,
                                         GError            **error)
{
  g_assert (g_task_is_valid (result, self));
  g_assert (g_task_get_source_tag (G_TASK (result)) == _pal_session_manager_stop_agents_async);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* }}} */

/* setup and public API {{{ */

static void
slot_detach (gpointer data)
{
  AgentSlot *slot = data;

  /* An agent still running dies with its last reference (AcpAgent kills
   * what nobody can stop any more). */
  slot->manager = NULL;
  _pal_agent_slot_unref (slot);
}

void
_pal_session_manager_init_agents (PalSessionManager *self)
{
  self->agents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, slot_detach);
  self->known_caps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->last_agents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->sandbox = pal_launcher_detect_sandbox ();
}

void
_pal_session_manager_dispose_agents (PalSessionManager *self)
{
  GHashTableIter iter;
  gpointer value;

  if (self->agents == NULL)
    return;

  g_hash_table_iter_init (&iter, self->agents);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AgentSlot *slot = value;

      if (slot->starting)
        g_cancellable_cancel (slot->start.cancellable);
    }

  g_clear_pointer (&self->agents, g_hash_table_unref);
  g_clear_pointer (&self->known_caps, g_hash_table_unref);
  g_clear_pointer (&self->last_agents, g_hash_table_unref);
}

/**
 * pal_session_manager_lookup_agent:
 * @self: a #PalSessionManager
 * @profile_id: an agent profile id
 * @cwd: a project folder
 *
 * Returns: (transfer none) (nullable): the running, initialized agent of
 *   that profile and folder
 */
AcpAgent *
pal_session_manager_lookup_agent (PalSessionManager *self,
                                  const char        *profile_id,
                                  const char        *cwd)
{
  AgentSlot *slot;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (profile_id != NULL, NULL);
  g_return_val_if_fail (cwd != NULL, NULL);

  if (self->agents == NULL)
    return NULL;

  slot = find_ready_slot (self, profile_id, cwd);
  return slot != NULL ? slot->agent : NULL;
}

/**
 * pal_session_manager_get_agent_capabilities:
 * @self: a #PalSessionManager
 * @profile_id: an agent profile id
 * @cwd: (nullable): a project folder
 * @caps: (out): what the agent advertised
 *
 * What an agent of that profile supports, as far as this process knows: the
 * capabilities of its running agent in @cwd, else of the last agent of the
 * profile that started (in any folder).
 *
 * Returns: %FALSE when no agent of the profile has started yet; start one
 *   with pal_session_manager_start_agent_async() to learn them
 */
gboolean
pal_session_manager_get_agent_capabilities (PalSessionManager    *self,
                                            const char           *profile_id,
                                            const char           *cwd,
                                            AcpAgentCapabilities *caps)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (profile_id != NULL, FALSE);
  g_return_val_if_fail (caps != NULL, FALSE);

  if (self->agents == NULL)
    return FALSE;

  return _pal_session_manager_get_known_caps (self, profile_id, cwd, caps);
}

static void
start_agent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  AcpAgent *agent;

  agent = _pal_session_manager_ensure_agent_finish (PAL_SESSION_MANAGER (object), result, &error);
  if (agent == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, agent, g_object_unref);
}

/**
 * pal_session_manager_start_agent_async:
 * @self: a #PalSessionManager
 * @profile_id: an agent profile id
 * @cwd: an absolute project folder
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the agent is ready
 * @user_data: data for @callback
 *
 * Starts the agent of that profile and folder (spawn and initialize) unless
 * it runs already; a start in progress is shared. The process runs in @cwd.
 * Use it to learn what the agent supports before a session exists (auth
 * methods, MCP transports). Fails with %PAL_ERROR_NOT_FOUND for an unknown
 * profile, %PAL_ERROR_INVALID for a bad profile or folder, or the agent's
 * error (spawn failure, exit with its stderr tail, timeout).
 */
void
pal_session_manager_start_agent_async (PalSessionManager   *self,
                                       const char          *profile_id,
                                       const char          *cwd,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_start_agent_async);

  _pal_session_manager_ensure_agent_async (self, profile_id, cwd, cancellable,
                                           start_agent_cb, task);
}

/**
 * pal_session_manager_start_agent_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the ready agent, or %NULL
 */
AcpAgent *
pal_session_manager_start_agent_finish (PalSessionManager  *self,
                                        GAsyncResult       *result,
                                        GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_start_agent_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* }}} */
