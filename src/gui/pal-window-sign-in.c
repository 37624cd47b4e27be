/* pal-window-sign-in.c: signing in when an agent asks for it
 *
 * An agent that refuses to start a session, or a prompt, for want of a
 * sign-in offers methods: the person chooses one in a dialog, gives the
 * values it asks for (API keys, kept in the keyring when there is one),
 * runs the agent's own login in a terminal, or lets the agent do it. Once
 * signed in, what waited (the attempt: a start, an open, a prompt) goes on;
 * cancelled, the prompt comes back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-sign-in-terminal.h"
#include "pal-sign-in-values.h"
#include "pal-window-private.h"

/* An agent can accept a sign-in and still refuse what follows (Gemini CLI
 * does, for an API key it has not got): asking again would go round in
 * circles. Whether the agent asks for a sign-in within a minute of one. */
#define SIGN_IN_WINDOW_US (60 * G_USEC_PER_SEC)

gboolean
_pal_window_sign_in_did_not_take (PalWindow  *self,
                                  const char *agent_id)
{
  gboolean just = self->signed_in_agent != NULL &&
                  g_strcmp0 (self->signed_in_agent, agent_id) == 0 &&
                  g_get_monotonic_time () - self->signed_in_at < SIGN_IN_WINDOW_US;

  g_clear_pointer (&self->signed_in_agent, g_free);
  return just;
}

/* The sign-in did not work (the agent refused it, its values could not be
 * kept): a session on screen gets a toast, a start that waited for it the
 * error page, whose Retry starts over and asks again. Takes @attempt_in. */
static void
sign_in_failed (Attempt      *attempt_in,
                const GError *error)
{
  g_autoptr(Attempt) attempt = attempt_in;
  PalWindow *self = attempt->self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  _pal_attempt_give_back_prompt (attempt);
  /* a session on screen stays there: the failure is a toast */
  if (attempt->key != NULL && pal_session_manager_lookup (self->manager, attempt->key) != NULL)
    {
      pal_window_add_toast (self, error->message);
      return;
    }

  _pal_window_show_retry_error (self, _("Signing in failed"), g_steal_pointer (&attempt), error);
}

/* Signed in: what waited for it goes on. Takes @attempt. */
static void
signed_in (Attempt *attempt)
{
  PalWindow *self = attempt->self;

  g_free (self->signed_in_agent);
  self->signed_in_agent = g_strdup (attempt->agent_id);
  self->signed_in_at = g_get_monotonic_time ();
  _pal_attempt_retry (attempt);
}

static void
authenticate_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Attempt *attempt = user_data;
  g_autoptr(GError) error = NULL;

  if (!pal_session_manager_authenticate_finish (PAL_SESSION_MANAGER (object), result, &error))
    sign_in_failed (attempt, error);
  else
    signed_in (attempt);
}

/* Authenticates the agent of @attempt (taken) with @method_id, then goes
 * on. */
static void
authenticate_attempt (Attempt    *attempt,
                      const char *method_id)
{
  PalWindow *self = attempt->self;

  pal_session_manager_authenticate_async (self->manager, attempt->agent_id, attempt->folder,
                                          method_id, self->cancellable, authenticate_cb, attempt);
}

/* The sign-in was cancelled: the prompt comes back, a new session that
 * waited for it is over. Takes @attempt_in. */
static void
sign_in_cancelled (Attempt *attempt_in)
{
  g_autoptr(Attempt) attempt = attempt_in;
  PalWindow *self = attempt->self;

  _pal_attempt_give_back_prompt (attempt);
  /* a new session waits for nothing more: back to where the person was */
  if (attempt->key == NULL && self->current == NULL &&
      pal_session_view_get_starting (self->session_view))
    _pal_window_show_session (self, NULL);
}

/* The method @method_id of the agent the attempt needs; NULL when the
 * agent went away meanwhile. */
static AcpAuthMethod *
lookup_method (Attempt    *attempt,
               const char *method_id)
{
  AcpAgent *agent = _pal_attempt_lookup_agent (attempt);

  return agent != NULL ? acp_agent_get_auth_method (agent, method_id) : NULL;
}

/* --- values (API keys) --- */

typedef struct
{
  Attempt  *attempt;
  char     *method_id;
  gboolean  authenticate;  /* an "agent" method: authenticate after the restart */
  gboolean  in_keyring;    /* the dialog said the keyring keeps them */
} ValuesRequest;

static void
values_request_free (ValuesRequest *request)
{
  g_clear_pointer (&request->attempt, _pal_attempt_free);
  g_free (request->method_id);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ValuesRequest, values_request_free)

static void
values_saved_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(ValuesRequest) request = user_data;
  Attempt *attempt = g_steal_pointer (&request->attempt);
  PalWindow *self = attempt->self;
  g_autoptr(GError) error = NULL;
  gboolean in_keyring = FALSE;

  if (!pal_agent_store_save_values_finish (PAL_AGENT_STORE (object), result, &in_keyring, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          _pal_attempt_give_back_prompt (attempt);
          pal_window_add_toast (self, error->message);
        }
      _pal_attempt_free (attempt);
      return;
    }
  if (request->in_keyring && !in_keyring)
    pal_window_add_toast (self, _("The keyring did not take the values: they are saved in Palaver’s settings"));

  /* the agent starts again with them at the next need */
  if (!request->authenticate)
    {
      signed_in (attempt);
      return;
    }

  authenticate_attempt (attempt, request->method_id);
}

static void
values_given_cb (const char * const *entries,
                 gpointer            data)
{
  ValuesRequest *request = data;
  PalWindow *self = request->attempt->self;
  PalAgentStore *store = pal_session_manager_get_agent_store (self->manager);
  const char *agent_id = request->attempt->agent_id;

  if (entries == NULL)
    {
      sign_in_cancelled (g_steal_pointer (&request->attempt));
      values_request_free (request);
      return;
    }

  pal_agent_store_save_values_async (store, agent_id, entries, self->cancellable,
                                     values_saved_cb, request);
}

static void
ask_values (ValuesRequest *request)
{
  PalWindow *self = request->attempt->self;
  AcpAuthMethod *method = lookup_method (request->attempt, request->method_id);

  /* the agent went away meanwhile */
  if (method == NULL)
    {
      sign_in_cancelled (g_steal_pointer (&request->attempt));
      values_request_free (request);
      return;
    }

  pal_sign_in_values_ask (GTK_WINDOW (self),
                          _pal_window_agent_name (self, request->attempt->agent_id), method,
                          request->in_keyring, values_given_cb, request);
}

static void
keyring_probed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ValuesRequest *request = user_data;
  g_autoptr(GError) error = NULL;

  request->in_keyring = pal_secret_store_probe_finish (PAL_SECRET_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      values_request_free (request);
      return;
    }
  if (!request->in_keyring)
    g_debug ("No keyring for sign-in values: %s", error->message);

  ask_values (request);
}

/* Asks for the values of @method once it is known where they will be kept,
 * which the dialog says. Takes @attempt. */
static void
sign_in_with_values (Attempt       *attempt,
                     AcpAuthMethod *method)
{
  PalWindow *self = attempt->self;
  PalSecretStore *secrets = pal_agent_store_get_secret_store (pal_session_manager_get_agent_store (self->manager));
  ValuesRequest *request = g_new0 (ValuesRequest, 1);

  request->attempt = attempt;
  request->method_id = g_strdup (acp_auth_method_get_id (method));
  request->authenticate = g_strcmp0 (acp_auth_method_get_kind (method), "agent") == 0;

  if (secrets == NULL)
    ask_values (request);
  else
    pal_secret_store_probe_async (secrets, self->cancellable, keyring_probed_cb, request);
}

/* --- in a terminal --- */

static void
terminal_finished_cb (PalSignInTerminal *terminal,
                      gboolean           succeeded,
                      PalWindow         *self)
{
  Attempt *attempt = g_object_steal_data (G_OBJECT (terminal), "attempt");

  if (attempt == NULL)
    return;
  if (!succeeded)
    {
      sign_in_cancelled (attempt);
      return;
    }

  /* the agent reads what the sign-in wrote when it starts */
  pal_session_manager_mark_agent_out_of_date (self->manager, attempt->agent_id);
  signed_in (attempt);
}

typedef struct
{
  Attempt *attempt;
  char    *method_name;
  char    *description;
} TerminalRequest;

static void
terminal_request_free (TerminalRequest *request)
{
  g_clear_pointer (&request->attempt, _pal_attempt_free);
  g_free (request->method_name);
  g_free (request->description);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerminalRequest, terminal_request_free)

static void
sign_in_command_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TerminalRequest) request = user_data;
  PalWindow *self = request->attempt->self;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *cwd = NULL;
  PalSignInTerminal *terminal;

  argv = pal_session_manager_sign_in_command_finish (PAL_SESSION_MANAGER (object), result, &env, &cwd, &error);
  if (argv == NULL)
    {
      sign_in_failed (g_steal_pointer (&request->attempt), error);
      return;
    }

  terminal = pal_sign_in_terminal_new (GTK_WINDOW (self),
                                       _pal_window_agent_name (self, request->attempt->agent_id),
                                       request->method_name, request->description);
  g_object_set_data_full (G_OBJECT (terminal), "attempt", g_steal_pointer (&request->attempt),
                          (GDestroyNotify) _pal_attempt_free);
  g_signal_connect_object (terminal, "finished", G_CALLBACK (terminal_finished_cb), self, 0);
  pal_sign_in_terminal_start (terminal, (const char * const *) argv, (const char * const *) env, cwd);
}

/* Runs @method, the agent's own login, in a terminal. Takes @attempt. */
static void
sign_in_in_terminal (Attempt       *attempt,
                     AcpAuthMethod *method)
{
  PalWindow *self = attempt->self;
  TerminalRequest *request = g_new0 (TerminalRequest, 1);
  const char *agent_id = attempt->agent_id;
  const char *folder = attempt->folder;

  request->attempt = attempt;
  request->method_name = g_strdup (acp_auth_method_get_name (method));
  request->description = g_strdup (acp_auth_method_get_description (method));
  pal_session_manager_sign_in_command_async (self->manager, agent_id, folder, method, self->cancellable,
                                             sign_in_command_cb, request);
}

/* --- the choice of a method --- */

static void
auth_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  gpointer          user_data)
{
  Attempt *attempt = user_data;
  const char *method_id = strchr (response, ':');
  AcpAuthMethod *method;

  /* cancelled, or the agent went away meanwhile */
  method = !g_str_equal (response, "cancel") && method_id != NULL
    ? lookup_method (attempt, method_id + 1) : NULL;
  if (method == NULL)
    {
      sign_in_cancelled (attempt);
      return;
    }

  if (g_str_has_prefix (response, "values:"))
    sign_in_with_values (attempt, method);
  else if (g_str_has_prefix (response, "terminal:"))
    sign_in_in_terminal (attempt, method);
  else
    authenticate_attempt (attempt, acp_auth_method_get_id (method));
}

/* One row of the table of method types: the response of a button that
 * runs a method of that type, or NULL for no button. */
static char *
auth_response_for (AcpAuthMethod *method)
{
  g_autoptr(GArray) vars = pal_sign_in_method_vars (method);
  const char *kind = acp_auth_method_get_kind (method);
  const char *id = acp_auth_method_get_id (method);

  if (vars->len > 0)
    return g_strconcat ("values:", id, NULL);
  if (g_strcmp0 (kind, "terminal") == 0)
    return g_strconcat ("terminal:", id, NULL);
  if (g_strcmp0 (kind, "agent") == 0)
    return g_strconcat ("agent:", id, NULL);

  return NULL;
}

/* The agent wants a sign-in: one button per method Palaver can run (those
 * that ask for values or open a terminal end in "…"); the others are
 * described, since the person may know what to do with them. */
void
_pal_window_sign_in (PalWindow *self,
                     Attempt   *attempt)
{
  /* the person is asked now, not the agent */
  if (pal_session_view_get_starting (self->session_view))
    pal_session_view_pause_start (self->session_view);

  AcpAgent *agent = _pal_attempt_lookup_agent (attempt);
  GPtrArray *methods = agent != NULL ? acp_agent_get_auth_methods (agent) : NULL;
  g_autoptr(GString) body = g_string_new (attempt->prompt != NULL
                                           ? _("The agent needs you to sign in before it can answer.")
                                           : _("The agent needs you to sign in before it can start a session."));
  g_autoptr(GString) described = g_string_new (NULL);
  g_autoptr(GString) others = g_string_new (NULL);
  AdwMessageDialog *dialog;
  guint n_buttons = 0;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), NULL, NULL));
  /* Translators: %s is an agent's name */
  adw_message_dialog_format_heading (dialog, _("Sign In to %s"),
                                     _pal_window_agent_name (self, attempt->agent_id));
  adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));

  for (guint i = 0; methods != NULL && i < methods->len; i++)
    {
      AcpAuthMethod *method = g_ptr_array_index (methods, i);
      g_autofree char *response = auth_response_for (method);
      const char *name = acp_auth_method_get_name (method);
      const char *description = acp_auth_method_get_description (method);
      gboolean has_description = description != NULL && *description != '\0';

      if (response == NULL)
        {
          g_string_append_printf (others, "\n%s%s%s", name, has_description ? ": " : "",
                                  has_description ? description : "");
          continue;
        }

      if (g_str_has_prefix (response, "agent:"))
        adw_message_dialog_add_response (dialog, response, name);
      else
        {
          /* Translators: a sign-in method that asks for more next (values,
           * a terminal), e.g. “API Key…” */
          g_autofree char *label = g_strdup_printf (_("%s…"), name);

          adw_message_dialog_add_response (dialog, response, label);
        }
      if (has_description)
        g_string_append_printf (described, "\n%s: %s", name, description);
      n_buttons++;
    }

  if (described->len > 0)
    g_string_append_printf (body, "\n%s", described->str);
  if (n_buttons > 0 && attempt->prompt != NULL)
    g_string_append_printf (body, "\n\n%s", _("What you wrote is sent again once you are signed in."));
  if (others->len > 0)
    g_string_append_printf (body, "\n\n%s%s", n_buttons > 0
                            ? _("The agent also offers ways to sign in that Palaver cannot use here:")
                            : _("The agent offers only ways to sign in that Palaver cannot use here. Sign in with the agent’s own command in a terminal, then try again:"),
                            others->str);
  if (n_buttons == 0 && others->len == 0)
    g_string_append_printf (body, "\n\n%s", _("The agent offers no way to sign in from here. Sign in with the agent’s own command in a terminal, then try again."));

  adw_message_dialog_set_body (dialog, body->str);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (auth_response_cb), attempt);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The agent refused a prompt for want of a sign-in: the person signs in,
 * then it goes again. */
static void
session_view_sign_in_requested_cb (PalSessionView *view,
                                   AcpSession     *session,
                                   PalPrompt      *prompt,
                                   PalWindow      *self)
{
  PalSessionKey *key = pal_session_manager_get_session_key (self->manager, session);
  Attempt *attempt = _pal_attempt_for_session (self, key, prompt);

  if (attempt == NULL)
    return;

  if (_pal_window_sign_in_did_not_take (self, attempt->agent_id))
    {
      /* the turn's notice says the agent refused; the prompt is kept */
      _pal_attempt_give_back_prompt (attempt);
      _pal_attempt_free (attempt);
      pal_window_add_toast (self, _("The agent still asks for a sign-in"));
      return;
    }
  _pal_window_sign_in (self, attempt);
}

void
_pal_window_setup_sign_in (PalWindow *self)
{
  g_signal_connect_object (self->session_view, "sign-in-requested",
                          G_CALLBACK (session_view_sign_in_requested_cb), self, 0);
}
