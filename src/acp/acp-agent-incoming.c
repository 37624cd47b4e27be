/* acp-agent-incoming.c: what the agent sends
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The agent → client traffic: session/update notifications are checked for
 * their shape, taken apart and handed on as AcpAgent::update, requests as
 * AcpAgent::request (routed by their sessionId), malformed and too long
 * messages become AcpAgent::protocol-error. The end of the connection starts
 * the end of the agent (acp-agent-process.c). In the connection's reading
 * thread, updates are taken apart and text chunks of one message joined
 * (the preparer).
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-agent-private.h"
#include "acp-json.h"
#include "acp-update-private.h"

static void
emit_protocol_error (AcpAgent   *self,
                     const char *format,
                     ...) G_GNUC_PRINTF (2, 3);

static void
emit_protocol_error (AcpAgent   *self,
                     const char *format,
                     ...)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("Agent %p: %s", self, message);
  error = g_error_new_literal (ACP_ERROR, ACP_ERROR_INVALID_MESSAGE, message);
  _acp_agent_emit_protocol_error (self, error);
}

/* Takes the params of a session/update notification apart (in the
 * connection's reading thread, see preparer, or on the main thread).
 * Returns: (transfer full) (nullable): NULL when they are malformed, and
 * @why (untranslated) */
static AcpUpdate *
take_update (const AcpJsonDoc    *doc,
             const AcpJsonValue  *params,
             const char         **why)
{
  const AcpJsonValue *update;
  const char *session_id;
  AcpUpdate *taken;

  if (!acp_json_value_is (params, ACP_JSON_OBJECT))
    {
      *why = N_("Malformed session/update notification: params is not an object");
      return NULL;
    }

  session_id = acp_json_value_get_string_member (doc, params, "sessionId");
  if (session_id == NULL)
    {
      *why = N_("Malformed session/update notification: no string sessionId");
      return NULL;
    }

  update = acp_json_value_get_member (doc, params, "update");
  if (!acp_json_value_is (update, ACP_JSON_OBJECT))
    {
      *why = N_("Malformed session/update notification: update is not an object");
      return NULL;
    }

  if (acp_json_value_get_string_member (doc, update, "sessionUpdate") == NULL)
    {
      *why = N_("Malformed session/update notification: no string sessionUpdate");
      return NULL;
    }

  taken = _acp_update_new_from_doc (session_id, doc, update);
  /* more in the params than these two would be lost in a joining */
  if (acp_json_value_get_size (params) != 2)
    taken->joinable = FALSE;

  return taken;
}

static void
connection_notification_cb (AcpConnection *connection,
                            const char    *method,
                            JsonNode      *params,
                            AcpAgent      *self)
{
  g_autoptr(AcpJsonDoc) doc = NULL;
  g_autoptr(AcpUpdate) update = NULL;
  const char *why = NULL;

  if (g_strcmp0 (method, "session/update") != 0)
    {
      g_debug ("Agent %p: ignoring notification %s", self, method);
      return;
    }

  /* the well-formed ones were taken apart already (see preparer) */
  doc = acp_json_doc_new ();
  update = take_update (doc, params != NULL ? acp_json_doc_load (doc, params) : NULL, &why);
  if (update == NULL)
    {
      emit_protocol_error (self, "%s", _(why));
      return;
    }

  _acp_agent_emit_update (self, update);
}

static gboolean
connection_request_cb (AcpConnection      *connection,
                       AcpIncomingRequest *request,
                       AcpAgent           *self)
{
  JsonObject *params = acp_incoming_request_get_params_object (request);
  const char *session_id = NULL;

  if (params != NULL)
    session_id = acp_json_get_string (params, "sessionId", NULL);

  return _acp_agent_emit_request (self, session_id, request);
}

static gboolean
orphan_timeout_cb (gpointer user_data)
{
  AcpAgent *self = user_data;

  self->orphan_timeout_id = 0;
  g_debug ("Agent %p: its output is closed but it still runs: stopping it", self);
  _acp_agent_begin_stop (self);

  return G_SOURCE_REMOVE;
}

static void
connection_closed_cb (AcpConnection *connection,
                      const GError  *reason,
                      AcpAgent      *self)
{
  g_autoptr(AcpAgent) hold = g_object_ref (self);

  if (self->connection_closed)
    return;

  self->connection_closed = TRUE;
  g_debug ("Agent %p: connection closed: %s", self, reason != NULL ? reason->message : "EOF");

  if (self->subprocess == NULL)
    {
      /* no process: the stream is the agent */
      _acp_agent_finish_exit (self, reason);
      return;
    }

  if (!self->process_exited)
    {
      /* Usually the exit follows at once. If it does not, the agent closed
       * its stdout but still runs, and is of no use any more. */
      if (self->orphan_timeout_id == 0)
        self->orphan_timeout_id = g_timeout_add (EXIT_DRAIN_TIMEOUT_MS, orphan_timeout_cb, self);
      return;
    }

  _acp_agent_maybe_finish_exit (self);
}

/* session/update notifications are taken apart in the connection's reading
 * thread, from the document they were read into (see acp-update.c), and
 * text chunks of one message read together are joined there */
static gpointer
prepare_notification (const char         *method,
                      const AcpJsonDoc   *doc,
                      const AcpJsonValue *params)
{
  const char *why;

  if (g_strcmp0 (method, "session/update") != 0)
    return NULL;

  return take_update (doc, params, &why);
}

static gboolean
join_updates (gpointer into,
              gpointer next)
{
  return _acp_update_join (into, next);
}

static void
dispatch_update (AcpConnection *connection,
                 gpointer       update,
                 gpointer       user_data)
{
  _acp_agent_emit_update (user_data, update);
}

static const AcpConnectionPreparer preparer = {
  prepare_notification,
  join_updates,
  dispatch_update,
  (GDestroyNotify) acp_update_unref,
};

static void
connection_message_error_cb (AcpConnection *connection,
                             const GError  *error,
                             AcpAgent      *self)
{
  if (self->stray_output == NULL && g_error_matches (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR))
    self->stray_output = g_strdup (error->message);
  /* a whole message is lost, whatever it was for: the sessions say so */
  if (g_error_matches (error, ACP_ERROR, ACP_ERROR_LINE_TOO_LONG))
    _acp_agent_emit_protocol_error (self, error);
}

void
_acp_agent_setup_connection (AcpAgent *self)
{
  acp_connection_set_preparer (self->connection, &preparer, self);
  acp_connection_set_traffic_log (self->connection, self->log);
  acp_connection_set_pacer (self->connection, self->pacer);
  self->notification_id =
    g_signal_connect (self->connection, "notification",
                      G_CALLBACK (connection_notification_cb), self);
  self->request_id =
    g_signal_connect (self->connection, "request",
                      G_CALLBACK (connection_request_cb), self);
  self->closed_id =
    g_signal_connect (self->connection, "closed",
                      G_CALLBACK (connection_closed_cb), self);
  self->message_error_id =
    g_signal_connect (self->connection, "message-error",
                      G_CALLBACK (connection_message_error_cb), self);
}

