/* acp-session.c: one conversation with an agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-permission-item.h"
#include "acp-session-private.h"

/**
 * AcpSession:
 *
 * One conversation with an agent: its id, its state, its transcript and the
 * session-level state the agent reports (title, modes, config options,
 * commands, usage).
 *
 * The session listens to its agent: every `session/update` for its id is
 * applied as it arrives (during a load too, so the transcript fills live),
 * `session/request_permission` requests for its id become
 * #AcpPermissionItem entries, and when the agent exits the session FAILS:
 * pending permissions are cancelled and an error notice with the agent's
 * stderr tail is appended, while everything shown so far stays.
 *
 * A failed create, load or resume (an agent error, a capability the agent
 * did not advertise, a cancellation) returns the session to NEW, so that the
 * caller can try something else; a failed turn returns it to READY and
 * leaves an error notice in the transcript.
 */

/* This file holds the type, its state and properties, what happens when
 * the agent is gone, and the getters. The session's other jobs have files
 * of their own, listed in acp-session-private.h.
 */

G_DEFINE_ENUM_TYPE (AcpSessionState, acp_session_state,
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_NEW, "new"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_CREATING, "creating"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_LOADING, "loading"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_RESUMING, "resuming"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_PROMPTING, "prompting"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_CLOSING, "closing"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_CLOSED, "closed"),
  G_DEFINE_ENUM_VALUE (ACP_SESSION_STATE_FAILED, "failed"))

G_DEFINE_FINAL_TYPE (AcpSession, acp_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

/* --- small setters --- */

void
_acp_session_notify (AcpSession *self,
                     guint       prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static const char * const state_names[] = {
  "new", "creating", "loading", "resuming", "ready", "prompting", "closing", "closed", "failed",
};

void
_acp_session_notify_replay_count (AcpSession *self)
{
  g_clear_handle_id (&self->replay_notify_id, g_source_remove);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPLAY_COUNT]);
}
void
_acp_session_set_state (AcpSession      *self,
                        AcpSessionState  state)
{
  if (self->state == state)
    return;

  /* the count as it was while loading, before the state says it is over */
  if (self->replay_notify_id != 0)
    _acp_session_notify_replay_count (self);

  g_debug ("Session %s: state %s -> %s", self->session_id != NULL ? self->session_id : "(none)",
           state_names[self->state], state_names[state]);
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);

  /* whichever way the turn ended */
  if (state != ACP_SESSION_STATE_PROMPTING && self->cancelling)
    {
      self->cancelling = FALSE;
      _acp_session_notify (self, PROP_CANCELLING);
    }
}

void
_acp_session_set_string (AcpSession  *self,
                         char       **field,
                         const char  *value,
                         guint        prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

gboolean
_acp_session_is_live (AcpSessionState state)
{
  return state == ACP_SESSION_STATE_LOADING ||
         state == ACP_SESSION_STATE_RESUMING ||
         state == ACP_SESSION_STATE_READY ||
         state == ACP_SESSION_STATE_PROMPTING;
}

/* --- failure --- */

static void
fail (AcpSession   *self,
      const GError *error)
{
  g_autofree char *tail = NULL;

  if (self->state == ACP_SESSION_STATE_CLOSED || self->state == ACP_SESSION_STATE_FAILED)
    return;

  g_clear_error (&self->error);
  if (error != NULL)
    self->error = g_error_copy (error);
  else
    self->error = g_error_new_literal (ACP_ERROR, ACP_ERROR_AGENT_EXITED, _("The agent exited"));

  _acp_session_stop_turn (self);
  g_ptr_array_set_size (self->early_updates, 0);

  if (acp_agent_get_stop_requested (self->agent))
    {
      /* stopped on purpose (a turn it did not end): no fault to report */
      acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_INFO,
                                    _("The agent was stopped"),
                                    _("Write to start it again and open the session again."), NULL);
    }
  else
    {
      tail = acp_agent_dup_stderr_tail (self->agent);
      if (tail != NULL && *tail == '\0')
        g_clear_pointer (&tail, g_free);
      acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_ERROR,
                                    _("The agent stopped"), self->error->message, tail);
    }
  acp_transcript_flush (self->transcript);

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  _acp_session_set_state (self, ACP_SESSION_STATE_FAILED);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
agent_exited_cb (AcpAgent   *agent,
                 AcpSession *self)
{
  fail (self, acp_agent_get_exit_error (agent));
}

/* A message too long to be read was skipped: nobody knows which session it
 * was for, so every live session of the agent says that something may be
 * missing, rather than none. */
static void
agent_protocol_error_cb (AcpAgent     *agent,
                         const GError *error,
                         AcpSession   *self)
{
  gsize limit;
  g_autofree char *size = NULL;
  g_autofree char *body = NULL;

  if (!g_error_matches (error, ACP_ERROR, ACP_ERROR_LINE_TOO_LONG) ||
      !_acp_session_is_live (self->state))
    return;

  limit = acp_connection_get_max_line_length (acp_agent_get_connection (agent));
  size = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
  /* Translators: %s is a size such as “64.0 MiB” */
  body = g_strdup_printf (_("The agent sent a message larger than %s. It was skipped: part of "
                            "an answer, a tool call or an update may be missing here."), size);
  acp_transcript_append_notice (self->transcript, ACP_NOTICE_SEVERITY_WARNING,
                                _("A message from the agent was too long to be read"),
                                body, NULL);
}

/* After a call failed: if the agent is gone, the session failed. */
gboolean
_acp_session_check_agent_gone (AcpSession *self)
{
  if (self->state == ACP_SESSION_STATE_FAILED)
    return TRUE;
  if (acp_agent_get_state (self->agent) != ACP_AGENT_STATE_EXITED)
    return FALSE;

  fail (self, acp_agent_get_exit_error (self->agent));
  return TRUE;
}

/* The error for an operation that cannot run (or went on) in this state. */
GError *
_acp_session_state_error (AcpSession *self)
{
  switch (self->state)
    {
    case ACP_SESSION_STATE_FAILED:
      return g_error_copy (self->error);

    case ACP_SESSION_STATE_CLOSING:
    case ACP_SESSION_STATE_CLOSED:
      return g_error_new_literal (ACP_ERROR, ACP_ERROR_CLOSED, _("The session is closed"));

    case ACP_SESSION_STATE_NEW:
      return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                                  _("The session is not open"));

    case ACP_SESSION_STATE_READY:
      return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, _("The session is already open"));

    case ACP_SESSION_STATE_CREATING:
    case ACP_SESSION_STATE_LOADING:
    case ACP_SESSION_STATE_RESUMING:
    case ACP_SESSION_STATE_PROMPTING:
    default:
      return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_BUSY, _("The session is busy"));
    }
}

gboolean
_acp_session_check_state (AcpSession *self,
                          guint       allowed,
                          GTask      *task)
{
  if ((allowed & STATE_BIT (self->state)) != 0)
    return TRUE;

  g_task_return_error (task, _acp_session_state_error (self));
  return FALSE;
}

/* --- GObject --- */

void
_acp_session_disconnect_agent (AcpSession *self)
{
  if (self->agent == NULL)
    return;

  g_clear_signal_handler (&self->update_handler_id, self->agent);
  g_clear_signal_handler (&self->request_handler_id, self->agent);
  g_clear_signal_handler (&self->exited_handler_id, self->agent);
  g_clear_signal_handler (&self->protocol_error_handler_id, self->agent);
}

static void
acp_session_constructed (GObject *object)
{
  AcpSession *self = (AcpSession *)object;

  G_OBJECT_CLASS (acp_session_parent_class)->constructed (object);

  g_assert (ACP_IS_AGENT (self->agent));

  self->update_handler_id =
    g_signal_connect (self->agent, "update",
                      G_CALLBACK (_acp_session_agent_update_cb), self);
  self->request_handler_id =
    g_signal_connect (self->agent, "request", G_CALLBACK (_acp_session_agent_request_cb), self);
  self->exited_handler_id =
    g_signal_connect (self->agent, "exited", G_CALLBACK (agent_exited_cb), self);
  self->protocol_error_handler_id =
    g_signal_connect (self->agent, "protocol-error", G_CALLBACK (agent_protocol_error_cb), self);

  if (acp_agent_get_state (self->agent) == ACP_AGENT_STATE_EXITED)
    fail (self, acp_agent_get_exit_error (self->agent));
}

static void
acp_session_dispose (GObject *object)
{
  AcpSession *self = (AcpSession *)object;

  _acp_session_disconnect_agent (self);
  g_clear_handle_id (&self->replay_notify_id, g_source_remove);

  /* Nobody can answer them anymore. */
  for (guint i = 0; i < self->permissions->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->permissions, i), self);
  for (guint i = 0; i < self->permissions->len; i++)
    acp_permission_item_cancel (g_ptr_array_index (self->permissions, i));
  g_ptr_array_set_size (self->permissions, 0);

  g_ptr_array_set_size (self->early_updates, 0);
  g_clear_object (&self->open_cancellable);
  g_clear_object (&self->transcript);
  g_clear_object (&self->modes);
  g_clear_object (&self->config_options);
  g_clear_object (&self->available_commands);
  g_clear_object (&self->usage);
  g_clear_object (&self->agent);

  G_OBJECT_CLASS (acp_session_parent_class)->dispose (object);
}

static void
acp_session_finalize (GObject *object)
{
  AcpSession *self = (AcpSession *)object;

  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->additional_directories, g_strfreev);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_error (&self->error);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->updated_at, g_free);
  g_clear_pointer (&self->current_mode_id, g_free);
  g_clear_pointer (&self->stop_reason, g_free);
  g_clear_pointer (&self->permissions, g_ptr_array_unref);
  g_clear_pointer (&self->early_updates, g_ptr_array_unref);

  G_OBJECT_CLASS (acp_session_parent_class)->finalize (object);
}

static void
acp_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  AcpSession *self = ACP_SESSION (object);

  switch (prop_id)
    {
    case PROP_AGENT:
      g_value_set_object (value, self->agent);
      break;

    case PROP_CWD:
      g_value_set_string (value, self->cwd);
      break;

    case PROP_ADDITIONAL_DIRECTORIES:
      g_value_set_boxed (value, self->additional_directories);
      break;

    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;

    case PROP_TRANSCRIPT:
      g_value_set_object (value, self->transcript);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_UPDATED_AT:
      g_value_set_string (value, self->updated_at);
      break;

    case PROP_MODES:
      g_value_set_object (value, self->modes);
      break;

    case PROP_CURRENT_MODE_ID:
      g_value_set_string (value, self->current_mode_id);
      break;

    case PROP_CONFIG_OPTIONS:
      g_value_set_object (value, self->config_options);
      break;

    case PROP_AVAILABLE_COMMANDS:
      g_value_set_object (value, self->available_commands);
      break;

    case PROP_USAGE:
      g_value_set_object (value, self->usage);
      break;

    case PROP_REPLAY_COUNT:
      g_value_set_uint (value, self->replay_count);
      break;

    case PROP_PENDING_PERMISSIONS:
      g_value_set_uint (value, self->permissions->len);
      break;

    case PROP_STOP_REASON:
      g_value_set_string (value, self->stop_reason);
      break;

    case PROP_CANCELLING:
      g_value_set_boolean (value, self->cancelling);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_session_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  AcpSession *self = ACP_SESSION (object);

  switch (prop_id)
    {
    case PROP_AGENT:
      self->agent = g_value_dup_object (value);
      break;

    case PROP_CWD:
      self->cwd = g_value_dup_string (value);
      break;

    case PROP_ADDITIONAL_DIRECTORIES:
      acp_session_set_additional_directories (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_session_class_init (AcpSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->constructed = acp_session_constructed;
  object_class->dispose = acp_session_dispose;
  object_class->finalize = acp_session_finalize;
  object_class->get_property = acp_session_get_property;
  object_class->set_property = acp_session_set_property;

  properties[PROP_AGENT] =
    g_param_spec_object ("agent", NULL, NULL,
                         ACP_TYPE_AGENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CWD] =
    g_param_spec_string ("cwd", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AcpSession:additional-directories:
   *
   * Folders the session may use besides its cwd (absolute paths), sent as
   * `additionalDirectories` by the next create, load or resume. Never %NULL.
   */
  properties[PROP_ADDITIONAL_DIRECTORIES] =
    g_param_spec_boxed ("additional-directories", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL, NULL, ro);

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       ACP_TYPE_SESSION_STATE, ACP_SESSION_STATE_NEW, ro);

  properties[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, ro);

  properties[PROP_TRANSCRIPT] =
    g_param_spec_object ("transcript", NULL, NULL, ACP_TYPE_TRANSCRIPT, ro);

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, ro);

  properties[PROP_UPDATED_AT] =
    g_param_spec_string ("updated-at", NULL, NULL, NULL, ro);

  /**
   * AcpSession:modes:
   *
   * The #AcpMode items the agent offers (its SessionModeState), from the
   * answer to the last create, load or resume; empty when it offers none or
   * sent config options, which supersede modes. The same list for the
   * session's life: it changes in place.
   */
  properties[PROP_MODES] =
    g_param_spec_object ("modes", NULL, NULL, G_TYPE_LIST_MODEL, ro);

  /**
   * AcpSession:current-mode-id:
   *
   * The id of the mode the agent is in: from the answer, current_mode_update
   * and a successful acp_session_set_mode_async().
   */
  properties[PROP_CURRENT_MODE_ID] =
    g_param_spec_string ("current-mode-id", NULL, NULL, NULL, ro);

  /**
   * AcpSession:config-options:
   *
   * The #AcpConfigOption items of the session, from the answers and
   * config_option_update; the same list for the session's life: it changes
   * in place, each change one #GListModel::items-changed.
   */
  properties[PROP_CONFIG_OPTIONS] =
    g_param_spec_object ("config-options", NULL, NULL, G_TYPE_LIST_MODEL, ro);

  /**
   * AcpSession:available-commands:
   *
   * The #AcpCommand items of the last available_commands_update; the same
   * list for the session's life: it changes in place.
   */
  properties[PROP_AVAILABLE_COMMANDS] =
    g_param_spec_object ("available-commands", NULL, NULL, G_TYPE_LIST_MODEL, ro);

  /**
   * AcpSession:usage:
   *
   * What the last usage_update said, or %NULL before the first.
   */
  properties[PROP_USAGE] =
    g_param_spec_object ("usage", NULL, NULL, ACP_TYPE_USAGE, ro);

  properties[PROP_REPLAY_COUNT] =
    g_param_spec_uint ("replay-count", NULL, NULL, 0, G_MAXUINT, 0, ro);

  properties[PROP_PENDING_PERMISSIONS] =
    g_param_spec_uint ("pending-permissions", NULL, NULL, 0, G_MAXUINT, 0, ro);

  properties[PROP_STOP_REASON] =
    g_param_spec_string ("stop-reason", NULL, NULL, NULL, ro);

  /**
   * AcpSession:cancelling:
   *
   * The running turn was cancelled and the agent has not ended it yet: it
   * should soon answer the prompt with the stop reason "cancelled". An agent
   * that never does can only be stopped.
   */
  properties[PROP_CANCELLING] =
    g_param_spec_boolean ("cancelling", NULL, NULL, FALSE, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_session_init (AcpSession *self)
{
  self->state = ACP_SESSION_STATE_NEW;
  self->additional_directories = g_new0 (char *, 1);
  self->transcript = acp_transcript_new ();
  self->modes = g_list_store_new (ACP_TYPE_MODE);
  self->config_options = g_list_store_new (ACP_TYPE_CONFIG_OPTION);
  self->available_commands = g_list_store_new (ACP_TYPE_COMMAND);
  self->permissions = g_ptr_array_new_with_free_func (g_object_unref);
  self->early_updates = g_ptr_array_new_with_free_func ((GDestroyNotify) acp_update_unref);
}

/**
 * acp_session_new:
 * @agent: a started #AcpAgent
 * @cwd: the absolute working directory of the session
 *
 * Returns: (transfer full): a session in state NEW; create, load or resume
 *   it next
 */
AcpSession *
acp_session_new (AcpAgent   *agent,
                 const char *cwd)
{
  g_return_val_if_fail (ACP_IS_AGENT (agent), NULL);
  g_return_val_if_fail (cwd != NULL, NULL);

  return g_object_new (ACP_TYPE_SESSION,
                       "agent", agent,
                       "cwd", cwd,
                       NULL);
}

/* --- getters --- */

/**
 * acp_session_get_agent:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the agent
 */
AcpAgent *
acp_session_get_agent (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->agent;
}

const char *
acp_session_get_cwd (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->cwd;
}

/**
 * acp_session_get_additional_directories:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the folders the session may use besides its
 *   cwd; empty, never %NULL
 */
const char * const *
acp_session_get_additional_directories (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return (const char * const *) self->additional_directories;
}

/**
 * acp_session_set_additional_directories:
 * @self: an #AcpSession
 * @directories: (nullable) (array zero-terminated=1): absolute paths
 *
 * Sets the folders the next create, load or resume sends as
 * `additionalDirectories` (nothing is sent when there are none). An agent
 * that does not advertise `sessionCapabilities.additionalDirectories` makes
 * those calls fail locally with %ACP_ERROR_NOT_SUPPORTED, and a relative
 * path with %ACP_ERROR_INVALID_ARGUMENT.
 */
void
acp_session_set_additional_directories (AcpSession         *self,
                                        const char * const *directories)
{
  static const char * const none[] = { NULL };

  g_return_if_fail (ACP_IS_SESSION (self));

  if (directories == NULL)
    directories = none;
  if (g_strv_equal ((const char * const *) self->additional_directories, directories))
    return;

  g_strfreev (self->additional_directories);
  self->additional_directories = g_strdupv ((char **) directories);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ADDITIONAL_DIRECTORIES]);
}

/**
 * acp_session_get_session_id:
 * @self: an #AcpSession
 *
 * Returns: (nullable): the agent's id of the session
 */
const char *
acp_session_get_session_id (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->session_id;
}

AcpSessionState
acp_session_get_state (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), ACP_SESSION_STATE_FAILED);

  return self->state;
}

/**
 * acp_session_get_error:
 * @self: an #AcpSession
 *
 * Returns: (nullable): why the session FAILED
 */
const GError *
acp_session_get_error (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->error;
}

/**
 * acp_session_get_transcript:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the transcript
 */
AcpTranscript *
acp_session_get_transcript (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->transcript;
}

const char *
acp_session_get_title (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->title;
}

const char *
acp_session_get_updated_at (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->updated_at;
}

/**
 * acp_session_get_modes:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the #AcpMode items; see #AcpSession:modes
 */
GListModel *
acp_session_get_modes (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return G_LIST_MODEL (self->modes);
}

/* Returns: (nullable): the id of the mode the agent is in */
const char *
acp_session_get_current_mode_id (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->current_mode_id;
}

/**
 * acp_session_get_config_options:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the #AcpConfigOption items; see
 *   #AcpSession:config-options
 */
GListModel *
acp_session_get_config_options (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return G_LIST_MODEL (self->config_options);
}

/**
 * acp_session_get_available_commands:
 * @self: an #AcpSession
 *
 * Returns: (transfer none): the #AcpCommand items
 */
GListModel *
acp_session_get_available_commands (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return G_LIST_MODEL (self->available_commands);
}

/**
 * acp_session_get_usage:
 * @self: an #AcpSession
 *
 * Returns: (transfer none) (nullable): what the last usage_update said
 */
AcpUsage *
acp_session_get_usage (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->usage;
}

guint
acp_session_get_replay_count (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), 0);

  return self->replay_count;
}

guint
acp_session_get_pending_permissions (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), 0);

  return self->permissions->len;
}

gboolean
acp_session_get_cancelling (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), FALSE);

  return self->cancelling;
}

const char *
acp_session_get_stop_reason (AcpSession *self)
{
  g_return_val_if_fail (ACP_IS_SESSION (self), NULL);

  return self->stop_reason;
}
