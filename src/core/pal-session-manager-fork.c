/* pal-session-manager-fork.c: forking a session at its agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents that advertise sessionCapabilities.fork (unstable in ACP) start a
 * new session from the context of an existing one (session/fork). The fork
 * is a new session of the same agent profile and folder, with the
 * original's additional folders (as its record has them): it joins the list
 * beside the original and is live and READY, as a new session is.
 *
 * session/fork replays nothing. What the window showed of the original (its
 * live session, or the closed one still on screen) is carried into the
 * fork's transcript, followed by a notice that says where the fork starts;
 * when nothing of the original is at hand, the fork's transcript starts
 * with that notice alone.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-session-manager-private.h"

typedef struct
{
  PalSessionKey   *source;
  PalSessionSetup  setup;
  AcpSession      *session;
} ForkData;

static void
fork_data_free (gpointer data)
{
  ForkData *fork = data;

  pal_session_key_unref (fork->source);
  _pal_session_setup_clear (&fork->setup);
  g_clear_object (&fork->session);
  g_free (fork);
}

/* The title of a fork of @record. */
static char *
fork_title (PalSessionRecord *record)
{
  const char *title = pal_session_record_get_title (record);

  if (*title == '\0')
    return g_strdup (_("Forked Session"));

  /* Translators: the title of a session forked from the session titled %s */
  return g_strdup_printf (_("Fork of %s"), title);
}

/* What the fork's transcript starts with: what is at hand of the original,
 * and where the fork starts. */
static void
fill_transcript (PalSessionManager *self,
                 ForkData          *data,
                 const char        *source_title)
{
  AcpTranscript *transcript = acp_session_get_transcript (data->session);
  AcpSession *live = pal_session_manager_lookup (self, data->source);
  g_autoptr(AcpSession) source = NULL;
  g_autofree char *body = NULL;
  guint n_carried = 0;

  source = live != NULL ? g_object_ref (live) : _pal_session_manager_dup_previous (self, data->source);
  if (source != NULL)
    n_carried = _pal_session_carry_transcript (source, data->session);

  if (n_carried > 0)
    /* Translators: %s is the title of the session that was forked */
    body = g_strdup_printf (_("The messages above are those of “%s”. From here on, this "
                              "session goes its own way; the original is left as it was."),
                            source_title);
  else
    /* Translators: %s is the title of the session that was forked */
    body = g_strdup_printf (_("This session starts from the history of “%s”, which the agent "
                              "keeps but does not show again here. The original is left as it "
                              "was."),
                            source_title);

  acp_transcript_append_notice (transcript, ACP_NOTICE_SEVERITY_INFO, _("Session forked"), body,
                                NULL);
  _pal_session_setup_append_notices (&data->setup, data->session);
  acp_transcript_flush (transcript);
}

static void
forked_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  ForkData *data = g_task_get_task_data (task);
  AcpSession *session = ACP_SESSION (object);
  g_autofree char *title = NULL;
  g_autofree char *source_title = NULL;
  PalSessionRecord *source;
  GError *error = NULL;

  if (!acp_session_fork_finish (session, result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* the original may have left the list meanwhile: its title is then lost */
  source = pal_session_store_lookup (self->session_store, data->source);
  source_title = g_strdup (source != NULL && *pal_session_record_get_title (source) != '\0'
                           ? pal_session_record_get_title (source) : _("New Session"));
  title = source != NULL ? fork_title (source) : g_strdup (_("Forked Session"));

  fill_transcript (self, data, source_title);
  _pal_session_manager_return_created (self, g_steal_pointer (&task),
                                       pal_session_key_get_agent_id (data->source),
                                       data->setup.cwd, session, title);
}

static void
fork_agent_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = PAL_SESSION_MANAGER (object);
  ForkData *data = g_task_get_task_data (task);
  g_autoptr(AcpAgent) agent = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  agent = _pal_session_manager_ensure_agent_finish (self, result, &error);
  if (agent == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!acp_agent_has_capability (agent, ACP_AGENT_CAP_SESSION_FORK))
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED, "%s",
                               _("The agent cannot fork sessions"));
      return;
    }

  data->session = _pal_session_setup_new_session (&data->setup, self, agent, NULL, &servers);
  cancellable = g_task_get_cancellable (task);
  acp_session_fork_async (data->session, pal_session_key_get_session_id (data->source), servers,
                          cancellable, forked_cb, g_steal_pointer (&task));
}

/**
 * pal_session_manager_fork_session_async:
 * @self: a #PalSessionManager
 * @key: a session of the list
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the fork is READY or could not be made
 * @user_data: data for @callback
 *
 * Forks the session at its agent (session/fork, unstable): the agent of its
 * profile and folder is started unless it runs, and asked for a new session
 * from the context of this one. The fork joins the list, titled after the
 * original, in the same folder and with the same additional folders (when
 * the agent takes them; a notice says so when not), and is live: its
 * transcript holds what is at hand of the original (see
 * pal-session-manager-fork.c) and a notice. The original is not touched.
 *
 * Fails with %PAL_ERROR_NOT_FOUND for a session not in the list,
 * %PAL_ERROR_NOT_SUPPORTED (nothing sent) when the agent did not advertise
 * sessionCapabilities.fork, and with the agent's error otherwise.
 */
void
pal_session_manager_fork_session_async (PalSessionManager   *self,
                                        PalSessionKey       *key,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *cwd = NULL;
  PalSessionRecord *record;
  GError *error = NULL;
  ForkData *data;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_fork_session_async);

  if (self->shut_down)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED, "%s", _("Palaver is quitting"));
      return;
    }

  record = pal_session_store_lookup (self->session_store, key);
  if (record == NULL)
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_FOUND, "%s",
                               _("There is no such session in the list"));
      return;
    }

  cwd = _pal_session_manager_canonical_cwd (pal_session_record_get_cwd (record), &error);
  if (cwd == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  data = g_new0 (ForkData, 1);
  data->source = pal_session_key_ref (key);
  _pal_session_setup_init (&data->setup, g_steal_pointer (&cwd),
                           pal_session_record_get_additional_directories (record));
  g_task_set_task_data (task, data, fork_data_free);

  _pal_session_manager_ensure_agent_async (self, pal_session_key_get_agent_id (key),
                                           data->setup.cwd, cancellable, fork_agent_cb,
                                           g_steal_pointer (&task));
}

/**
 * pal_session_manager_fork_session_finish:
 * @self: a #PalSessionManager
 * @result: the result
 * @error: return location for an error
 *
 * Returns: (transfer full): the fork, READY (its key:
 *   pal_session_manager_get_session_key()), or %NULL
 */
AcpSession *
pal_session_manager_fork_session_finish (PalSessionManager  *self,
                                         GAsyncResult       *result,
                                         GError            **error)
{
  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_fork_session_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * pal_session_manager_can_fork:
 * @self: a #PalSessionManager
 * @key: a session
 *
 * Whether the session is listed and its agent is known to fork sessions.
 * Unlike the other checks, an agent that has not run yet counts as one that
 * cannot: forking is offered only where the agent advertised it.
 *
 * Returns: whether pal_session_manager_fork_session_async() can work
 */
gboolean
pal_session_manager_can_fork (PalSessionManager *self,
                              PalSessionKey     *key)
{
  PalSessionRecord *record;
  AcpAgentCapabilities caps = ACP_AGENT_CAP_NONE;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  record = pal_session_store_lookup (self->session_store, key);
  return record != NULL &&
         _pal_session_manager_get_known_caps (self, pal_session_key_get_agent_id (key),
                                              pal_session_record_get_cwd (record), &caps) &&
         (caps & ACP_AGENT_CAP_SESSION_FORK) != 0;
}
