/* acp-fs-access-request.c: the agent asks for a file outside its folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "acp-fs-access-request-private.h"

struct _AcpFsAccessRequest
{
  GObject                parent_instance;

  AcpAgent              *agent;
  char                  *session_id;
  char                  *path;
  char                  *requested_path;
  gboolean               write;
  gboolean               answered;
  GCancellable          *cancellable;
  AcpFsAccessAnswerFunc  func;
  gpointer               user_data;
};

G_DEFINE_FINAL_TYPE (AcpFsAccessRequest, acp_fs_access_request, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_AGENT,
  PROP_SESSION_ID,
  PROP_PATH,
  PROP_WRITE,
  PROP_ANSWERED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
answer (AcpFsAccessRequest *self,
        gboolean            allowed,
        gboolean            notify)
{
  AcpFsAccessAnswerFunc func = self->func;
  gpointer user_data = self->user_data;

  if (self->answered)
    return;

  self->answered = TRUE;
  self->func = NULL;
  self->user_data = NULL;

  if (func != NULL)
    func (allowed, user_data);

  if (notify)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANSWERED]);
}

static void
acp_fs_access_request_finalize (GObject *object)
{
  AcpFsAccessRequest *self = ACP_FS_ACCESS_REQUEST (object);

  /* dropped without an answer: denied */
  answer (self, FALSE, FALSE);

  g_clear_object (&self->agent);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->requested_path, g_free);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (acp_fs_access_request_parent_class)->finalize (object);
}

static void
acp_fs_access_request_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AcpFsAccessRequest *self = ACP_FS_ACCESS_REQUEST (object);

  switch (prop_id)
    {
    case PROP_AGENT:
      g_value_set_object (value, self->agent);
      break;

    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;

    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_WRITE:
      g_value_set_boolean (value, self->write);
      break;

    case PROP_ANSWERED:
      g_value_set_boolean (value, self->answered);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_fs_access_request_class_init (AcpFsAccessRequestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = acp_fs_access_request_finalize;
  object_class->get_property = acp_fs_access_request_get_property;

  properties[PROP_AGENT] =
    g_param_spec_object ("agent", NULL, NULL, ACP_TYPE_AGENT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_WRITE] =
    g_param_spec_boolean ("write", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ANSWERED] =
    g_param_spec_boolean ("answered", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
acp_fs_access_request_init (AcpFsAccessRequest *self)
{
}

AcpFsAccessRequest *
_acp_fs_access_request_new (AcpAgent              *agent,
                            const char            *session_id,
                            const char            *requested_path,
                            const char            *path,
                            gboolean               write,
                            GCancellable          *cancellable,
                            AcpFsAccessAnswerFunc  func,
                            gpointer               user_data)
{
  AcpFsAccessRequest *self;

  g_return_val_if_fail (agent == NULL || ACP_IS_AGENT (agent), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (ACP_TYPE_FS_ACCESS_REQUEST, NULL);
  self->agent = agent != NULL ? g_object_ref (agent) : NULL;
  self->session_id = g_strdup (session_id);
  self->path = g_strdup (path);
  self->requested_path = g_strdup (requested_path != NULL ? requested_path : path);
  self->write = !!write;
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  self->func = func;
  self->user_data = user_data;

  return self;
}

/**
 * acp_fs_access_request_get_agent:
 * @self: a #AcpFsAccessRequest
 *
 * Returns: (transfer none) (nullable): the agent that asks; with the
 *   session id, it names the session
 */
AcpAgent *
acp_fs_access_request_get_agent (AcpFsAccessRequest *self)
{
  g_return_val_if_fail (ACP_IS_FS_ACCESS_REQUEST (self), NULL);

  return self->agent;
}

/**
 * acp_fs_access_request_get_session_id:
 * @self: a #AcpFsAccessRequest
 *
 * Returns: (nullable): the session the agent asked for
 */
const char *
acp_fs_access_request_get_session_id (AcpFsAccessRequest *self)
{
  g_return_val_if_fail (ACP_IS_FS_ACCESS_REQUEST (self), NULL);

  return self->session_id;
}

/**
 * acp_fs_access_request_get_requested_path:
 * @self: an #AcpFsAccessRequest
 *
 * Returns: the path as the agent wrote it (a link inside a session folder
 *   may lead out of it: see acp_fs_access_request_get_path())
 */
const char *
acp_fs_access_request_get_requested_path (AcpFsAccessRequest *self)
{
  g_return_val_if_fail (ACP_IS_FS_ACCESS_REQUEST (self), NULL);

  return self->requested_path;
}

/**
 * acp_fs_access_request_get_path:
 * @self: a #AcpFsAccessRequest
 *
 * Returns: the canonical absolute path the agent wants to read or write
 */
const char *
acp_fs_access_request_get_path (AcpFsAccessRequest *self)
{
  g_return_val_if_fail (ACP_IS_FS_ACCESS_REQUEST (self), NULL);

  return self->path;
}

/**
 * acp_fs_access_request_get_write:
 * @self: a #AcpFsAccessRequest
 *
 * Returns: %TRUE for a write, %FALSE for a read
 */
gboolean
acp_fs_access_request_get_write (AcpFsAccessRequest *self)
{
  g_return_val_if_fail (ACP_IS_FS_ACCESS_REQUEST (self), FALSE);

  return self->write;
}

gboolean
acp_fs_access_request_get_answered (AcpFsAccessRequest *self)
{
  g_return_val_if_fail (ACP_IS_FS_ACCESS_REQUEST (self), FALSE);

  return self->answered;
}

/**
 * acp_fs_access_request_get_cancellable:
 * @self: a #AcpFsAccessRequest
 *
 * Returns: (transfer none): cancelled when the agent stops waiting for the
 *   answer
 */
GCancellable *
acp_fs_access_request_get_cancellable (AcpFsAccessRequest *self)
{
  g_return_val_if_fail (ACP_IS_FS_ACCESS_REQUEST (self), NULL);

  return self->cancellable;
}

/**
 * acp_fs_access_request_allow:
 * @self: a #AcpFsAccessRequest
 *
 * Lets the agent read or write the file this once. Does nothing once
 * answered.
 */
void
acp_fs_access_request_allow (AcpFsAccessRequest *self)
{
  g_return_if_fail (ACP_IS_FS_ACCESS_REQUEST (self));

  answer (self, TRUE, TRUE);
}

/**
 * acp_fs_access_request_deny:
 * @self: a #AcpFsAccessRequest
 *
 * Refuses the access. Does nothing once answered.
 */
void
acp_fs_access_request_deny (AcpFsAccessRequest *self)
{
  g_return_if_fail (ACP_IS_FS_ACCESS_REQUEST (self));

  answer (self, FALSE, TRUE);
}
