/* pal-live-session.c: a session the session manager keeps live, for binding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-live-session-private.h"

/**
 * PalLiveSession:
 *
 * One session while the #PalSessionManager keeps it live: from the start
 * of an open (or its creation) until it is closed or forgotten, failed
 * ones included. Widgets bind to its properties: what the session is doing
 * (#PalLiveSession:state, #PalLiveSession:busy), why it failed
 * (#PalLiveSession:error), the #AcpSession that stands for it now
 * (#PalLiveSession:session: a session opened again after it failed gets a
 * new one) and its title. Each is notified once per change.
 *
 * The manager hands them out with pal_session_manager_lookup_live() and
 * lists them in pal_session_manager_get_live_sessions(). One that is no
 * longer live is NOT_RUNNING and without a session for good; opening the
 * session again makes a new object.
 *
 * Only the manager changes the state (pal-live-session-private.h); the title
 * is followed here: the title the person gave (a rename in the session
 * list), else the agent's (session_info_update), else the stored one (from
 * the first prompt, say).
 */

G_DEFINE_ENUM_TYPE (PalSessionState, pal_session_state,
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_NOT_RUNNING, "not-running"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_STARTING_AGENT, "starting-agent"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_LOADING, "loading"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_WORKING, "working"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_WAITING_PERMISSION, "waiting-permission"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_STOPPING, "stopping"),
  G_DEFINE_ENUM_VALUE (PAL_SESSION_STATE_FAILED, "failed"))

G_DEFINE_FINAL_TYPE (PalLiveSession, pal_live_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KEY,
  PROP_STATE,
  PROP_BUSY,
  PROP_ERROR,
  PROP_SESSION,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
state_is_busy (PalSessionState state)
{
  return state == PAL_SESSION_STATE_STARTING_AGENT ||
         state == PAL_SESSION_STATE_LOADING ||
         state == PAL_SESSION_STATE_WORKING ||
         state == PAL_SESSION_STATE_STOPPING;
}

/* title {{{ */

static char *
compute_title (PalLiveSession *self)
{
  const char *from_agent = self->session != NULL ? acp_session_get_title (self->session) : NULL;

  /* the person's title stays, as in the session list */
  if (self->record != NULL && pal_session_record_get_renamed (self->record))
    return g_strdup (pal_session_record_get_title (self->record));
  if (from_agent != NULL && *from_agent != '\0')
    return g_utf8_make_valid (from_agent, -1);
  if (self->record != NULL)
    return g_strdup (pal_session_record_get_title (self->record));
  return g_strdup ("");
}

static void
update_title (PalLiveSession *self)
{
  g_autofree char *title = compute_title (self);

  if (g_strcmp0 (title, self->title) == 0)
    return;

  g_free (self->title);
  self->title = g_steal_pointer (&title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/* The record of the session in the list: the store makes new ones when
 * another process rewrote the list. */
static void
follow_record (PalLiveSession *self)
{
  PalSessionRecord *record = self->store != NULL
                             ? pal_session_store_lookup (self->store, self->key)
                             : NULL;

  if (record != self->record)
    {
      if (self->record != NULL)
        g_signal_handlers_disconnect_by_data (self->record, self);
      g_set_object (&self->record, record);
      if (record != NULL)
        {
          g_signal_connect_swapped (record, "notify::title", G_CALLBACK (update_title), self);
          g_signal_connect_swapped (record, "notify::renamed", G_CALLBACK (update_title), self);
        }
    }

  update_title (self);
}

/* }}} */

/* error {{{ */

static gboolean
same_error (const GError *a,
            const GError *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return a->domain == b->domain && a->code == b->code && g_strcmp0 (a->message, b->message) == 0;
}

/* The "error" property: why the session FAILED, the open's error before
 * that of the session object. */
static void
update_error (PalLiveSession *self)
{
  const GError *error = NULL;

  if (self->state == PAL_SESSION_STATE_FAILED)
    {
      if (self->open_error != NULL)
        error = self->open_error;
      else if (self->session != NULL)
        error = acp_session_get_error (self->session);
    }

  if (same_error (error, self->error))
    return;

  g_clear_error (&self->error);
  self->error = error != NULL ? g_error_copy (error) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/* }}} */

/* for the session manager {{{ */

PalLiveSession *
_pal_live_session_new (PalSessionKey   *key,
                       PalSessionStore *store)
{
  PalLiveSession *self;

  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (store == NULL || PAL_IS_SESSION_STORE (store), NULL);

  self = g_object_new (PAL_TYPE_LIVE_SESSION, "key", key, NULL);
  if (store != NULL)
    {
      self->store = g_object_ref (store);
      g_signal_connect_swapped (store, "items-changed", G_CALLBACK (follow_record), self);
      follow_record (self);
    }

  return self;
}

void
_pal_live_session_set_state (PalLiveSession  *self,
                             PalSessionState  state)
{
  gboolean was_busy;

  g_return_if_fail (PAL_IS_LIVE_SESSION (self));

  was_busy = state_is_busy (self->state);
  g_object_freeze_notify (G_OBJECT (self));
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
      if (was_busy != state_is_busy (state))
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
  update_error (self);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
drop_session (PalLiveSession *self)
{
  if (self->session == NULL)
    return;

  g_clear_signal_handler (&self->session_title_id, self->session);
  g_clear_object (&self->session);
}

void
_pal_live_session_set_session (PalLiveSession *self,
                               AcpSession     *session)
{
  g_return_if_fail (PAL_IS_LIVE_SESSION (self));
  g_return_if_fail (session == NULL || ACP_IS_SESSION (session));

  if (self->session == session)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  drop_session (self);
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      self->session_title_id = g_signal_connect_swapped (session, "notify::title",
                                                         G_CALLBACK (update_title), self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
  update_title (self);
  g_object_thaw_notify (G_OBJECT (self));
}

void
_pal_live_session_set_open_error (PalLiveSession *self,
                                  const GError   *error)
{
  g_return_if_fail (PAL_IS_LIVE_SESSION (self));

  if (self->open_error == error)
    return;

  g_clear_error (&self->open_error);
  self->open_error = error != NULL ? g_error_copy (error) : NULL;
}

/* }}} */

/* GObject {{{ */

static void
pal_live_session_dispose (GObject *object)
{
  PalLiveSession *self = PAL_LIVE_SESSION (object);

  /* the manager lets go of the session before it drops the object; this
   * is in case it did not */
  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->state_id, self->session);
      g_clear_signal_handler (&self->permissions_id, self->session);
      g_clear_signal_handler (&self->cancelling_id, self->session);
      g_clear_signal_handler (&self->title_id, self->session);
    }
  drop_session (self);
  if (self->record != NULL)
    g_signal_handlers_disconnect_by_data (self->record, self);
  g_clear_object (&self->record);
  if (self->store != NULL)
    g_signal_handlers_disconnect_by_data (self->store, self);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (pal_live_session_parent_class)->dispose (object);
}

static void
pal_live_session_finalize (GObject *object)
{
  PalLiveSession *self = PAL_LIVE_SESSION (object);
  g_autoptr(GError) closed = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                  _("The session was closed"));

  _pal_wait_list_clear (&self->open, closed);
  g_clear_pointer (&self->key, pal_session_key_unref);
  g_clear_error (&self->open_error);
  g_clear_error (&self->error);
  g_free (self->title);

  G_OBJECT_CLASS (pal_live_session_parent_class)->finalize (object);
}

static void
pal_live_session_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PalLiveSession *self = PAL_LIVE_SESSION (object);

  switch (prop_id)
    {
    case PROP_KEY:
      g_value_set_boxed (value, self->key);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, pal_live_session_get_busy (self));
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_TITLE:
      g_value_set_string (value, pal_live_session_get_title (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_live_session_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PalLiveSession *self = PAL_LIVE_SESSION (object);

  switch (prop_id)
    {
    case PROP_KEY:
      self->key = g_value_dup_boxed (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_live_session_class_init (PalLiveSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_live_session_dispose;
  object_class->finalize = pal_live_session_finalize;
  object_class->get_property = pal_live_session_get_property;
  object_class->set_property = pal_live_session_set_property;

  /* Which session: (agent profile, session id). */
  properties[PROP_KEY] =
    g_param_spec_boxed ("key", NULL, NULL, PAL_TYPE_SESSION_KEY,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* What the session is doing. */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, PAL_TYPE_SESSION_STATE,
                       PAL_SESSION_STATE_NOT_RUNNING,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The agent is starting, loading, working on a turn or stopping one. */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Why the session FAILED (a #GError); %NULL in other states. */
  properties[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The #AcpSession that stands for the session now, or %NULL. */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, ACP_TYPE_SESSION,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The title to show; empty when there is none yet. */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_live_session_init (PalLiveSession *self)
{
  self->state = PAL_SESSION_STATE_NOT_RUNNING;
  self->title = g_strdup ("");
  _pal_wait_list_init (&self->open);
}

/* }}} */

/* getters {{{ */

/**
 * pal_live_session_get_key:
 * @self: a #PalLiveSession
 *
 * Returns: (transfer none): which session it is
 */
PalSessionKey *
pal_live_session_get_key (PalLiveSession *self)
{
  g_return_val_if_fail (PAL_IS_LIVE_SESSION (self), NULL);

  return self->key;
}

PalSessionState
pal_live_session_get_state (PalLiveSession *self)
{
  g_return_val_if_fail (PAL_IS_LIVE_SESSION (self), PAL_SESSION_STATE_NOT_RUNNING);

  return self->state;
}

gboolean
pal_live_session_get_busy (PalLiveSession *self)
{
  g_return_val_if_fail (PAL_IS_LIVE_SESSION (self), FALSE);

  return state_is_busy (self->state);
}

/**
 * pal_live_session_get_error:
 * @self: a #PalLiveSession
 *
 * Returns: (transfer none) (nullable): why the session FAILED (the agent's
 *   exit error, or why it could not be opened); %NULL in any other state
 */
const GError *
pal_live_session_get_error (PalLiveSession *self)
{
  g_return_val_if_fail (PAL_IS_LIVE_SESSION (self), NULL);

  return self->error;
}

/**
 * pal_live_session_get_session:
 * @self: a #PalLiveSession
 *
 * Returns: (transfer none) (nullable): the session object that stands for
 *   the session now: bind to it when it appears, so that a replay fills the
 *   view while it loads
 */
AcpSession *
pal_live_session_get_session (PalLiveSession *self)
{
  g_return_val_if_fail (PAL_IS_LIVE_SESSION (self), NULL);

  return self->session;
}

/**
 * pal_live_session_get_title:
 * @self: a #PalLiveSession
 *
 * Returns: the title the person gave, else the agent's, else the stored
 *   one; empty when there is none
 */
const char *
pal_live_session_get_title (PalLiveSession *self)
{
  g_return_val_if_fail (PAL_IS_LIVE_SESSION (self), NULL);

  return self->title;
}

/* }}} */
