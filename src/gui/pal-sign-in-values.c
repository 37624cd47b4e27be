/* pal-sign-in-values.c: the values a sign-in method needs, asked for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Some sign-in methods are values in the agent's environment: an "env_var"
 * method names its variables (CODEX_API_KEY, say), and some "agent" methods
 * are API keys the agent reads from a variable it does not name (Gemini
 * CLI's "gemini-api-key" accepts authenticate without one, then fails every
 * prompt). A dialog asks for them, masked when secret, and says where they
 * will be kept: in the keyring, or, where none answers, in the agent's
 * settings (PalAgentStore decides); the agent starts again with them.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-sign-in-values.h"

/* "agent" methods known to be an API key in a variable */
static const struct {
  const char *method_id;
  const char *variable;
} known_keys[] = {
  { "gemini-api-key", "GEMINI_API_KEY" },
  { "openai-api-key", "OPENAI_API_KEY" },
  { "codex-api-key", "CODEX_API_KEY" },
};

/**
 * pal_sign_in_method_vars:
 * @method: a sign-in method
 *
 * Returns: (transfer full) (element-type AcpAuthVar): the variables the
 *   method needs values for; empty for a method that needs none
 */
GArray *
pal_sign_in_method_vars (AcpAuthMethod *method)
{
  GArray *vars = g_array_new (FALSE, TRUE, sizeof (AcpAuthVar));
  const char *kind = acp_auth_method_get_kind (method);

  if (g_strcmp0 (kind, "env_var") == 0)
    {
      for (guint i = 0; i < acp_auth_method_get_n_vars (method); i++)
        g_array_append_vals (vars, acp_auth_method_get_var (method, i), 1);
    }
  else if (g_strcmp0 (kind, "agent") == 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (known_keys); i++)
        if (g_str_equal (acp_auth_method_get_id (method), known_keys[i].method_id))
          {
            AcpAuthVar var = { (char *) known_keys[i].variable, NULL, FALSE, TRUE };

            g_array_append_val (vars, var);
          }
    }

  /* the strings stay the method's (or static): the array is a view */
  return vars;
}

typedef struct
{
  GArray              *vars;     /* AcpAuthVar, borrowed strings */
  AcpAuthMethod       *method;   /* keeps them */
  GPtrArray           *rows;     /* the entry rows, in the order of vars */
  PalSignInValuesFunc  func;
  gpointer             data;
  gboolean             answered;  /* func was called: once only */
} Asking;

static void
asking_free (Asking *asking)
{
  g_array_unref (asking->vars);
  acp_auth_method_unref (asking->method);
  g_ptr_array_unref (asking->rows);
  g_free (asking);
}

/* Sign In once every value that is not optional is there. */
static void
update_sign_in (AdwMessageDialog *dialog)
{
  Asking *asking = g_object_get_data (G_OBJECT (dialog), "asking");
  gboolean complete = TRUE;

  /* the rows empty themselves as the dialog goes */
  if (asking == NULL || asking->answered)
    return;

  for (guint i = 0; i < asking->vars->len; i++)
    {
      const AcpAuthVar *var = &g_array_index (asking->vars, AcpAuthVar, i);
      g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (asking->rows->pdata[i]))));

      if (!var->optional && *text == '\0')
        complete = FALSE;
    }

  adw_message_dialog_set_response_enabled (dialog, "sign-in", complete);
}

static gboolean
sign_in_idle_cb (gpointer user_data)
{
  AdwMessageDialog *dialog = user_data;

  if (adw_message_dialog_get_response_enabled (dialog, "sign-in"))
    {
      adw_message_dialog_response (dialog, "sign-in");
      gtk_window_close (GTK_WINDOW (dialog));
    }

  return G_SOURCE_REMOVE;
}

/* Enter in a row signs in, once the key press is over: closing the dialog
 * from within it leaves the row's text handling a destroyed widget. */
static void
entry_activated_cb (AdwMessageDialog *dialog)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, sign_in_idle_cb, g_object_ref (dialog), g_object_unref);
}

static void
response_cb (AdwMessageDialog *dialog,
             const char       *response)
{
  Asking *asking = g_object_get_data (G_OBJECT (dialog), "asking");
  g_autoptr(GStrvBuilder) entries = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  if (asking == NULL || asking->answered)
    return;
  asking->answered = TRUE;

  /* An entry row with the focus as the dialog goes notifies it on its way
   * out, destroyed already (libadwaita 1.2): the focus leaves it first. */
  gtk_window_set_focus (GTK_WINDOW (dialog), NULL);

  if (g_str_equal (response, "sign-in"))
    {
      for (guint i = 0; i < asking->vars->len; i++)
        {
          const AcpAuthVar *var = &g_array_index (asking->vars, AcpAuthVar, i);
          g_autofree char *value = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (asking->rows->pdata[i]))));

          if (*value != '\0')
            {
              g_autofree char *entry = g_strconcat (var->name, "=", value, NULL);

              g_strv_builder_add (entries, entry);
            }
        }
      result = g_strv_builder_end (entries);
    }

  asking->func ((const char * const *) result, asking->data);
}

/**
 * pal_sign_in_values_ask:
 * @parent: the window to be transient for
 * @agent_name: the agent's name
 * @method: a method with variables (see pal_sign_in_method_vars())
 * @in_keyring: whether a keyring keeps the values, rather than Palaver's
 *   settings
 * @func: called once with the "NAME=VALUE" entries, or %NULL when the
 *   person cancelled
 * @data: for @func
 *
 * Returns: (transfer none): the dialog, presented
 */
GtkWidget *
pal_sign_in_values_ask (GtkWindow           *parent,
                        const char          *agent_name,
                        AcpAuthMethod       *method,
                        gboolean             in_keyring,
                        PalSignInValuesFunc  func,
                        gpointer             data)
{
  AdwMessageDialog *dialog;
  GtkWidget *group = adw_preferences_group_new ();
  g_autoptr(GString) body = g_string_new (NULL);
  const char *description = acp_auth_method_get_description (method);
  const char *link = acp_auth_method_get_link (method);
  Asking *asking;

  g_return_val_if_fail (method != NULL, NULL);
  g_return_val_if_fail (func != NULL, NULL);

  asking = g_new0 (Asking, 1);
  asking->vars = pal_sign_in_method_vars (method);
  asking->method = acp_auth_method_ref (method);
  asking->rows = g_ptr_array_new ();
  asking->func = func;
  asking->data = data;

  if (description != NULL && *description != '\0')
    g_string_append_printf (body, "%s\n\n", description);
  if (link != NULL && *link != '\0')
    {
      /* Translators: %s is a web address where the values can be had */
      g_string_append_printf (body, _("Get them at %s."), link);
      g_string_append (body, "\n\n");
    }
  if (in_keyring)
    g_string_append (body, _("They are kept in your keyring, and the agent starts again with them."));
  else
    g_string_append (body, _("No keyring answers on this computer: they are saved in Palaver’s settings "
                             "(Preferences → Agents), not in a keyring, and the agent starts again "
                             "with them."));

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, NULL, body->str));
  /* Translators: the first %s is a sign-in method, the second an agent */
  adw_message_dialog_format_heading (dialog, _("%s for %s"), acp_auth_method_get_name (method), agent_name);
  g_object_set_data_full (G_OBJECT (dialog), "asking", asking, (GDestroyNotify) asking_free);

  for (guint i = 0; i < asking->vars->len; i++)
    {
      const AcpAuthVar *var = &g_array_index (asking->vars, AcpAuthVar, i);
      GtkWidget *row = var->secret ? adw_password_entry_row_new () : adw_entry_row_new ();
      g_autofree char *title = NULL;

      if (var->optional)
        /* Translators: a value one may leave empty, e.g. “Organization (optional)” */
        title = g_strdup_printf (_("%s (optional)"), var->label != NULL ? var->label : var->name);
      else
        title = g_strdup (var->label != NULL ? var->label : var->name);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      g_signal_connect_object (row, "entry-activated", G_CALLBACK (entry_activated_cb), dialog,
                               G_CONNECT_SWAPPED);
      if (var->label != NULL)
        gtk_widget_set_tooltip_text (row, var->name);
      g_signal_connect_swapped (row, "changed", G_CALLBACK (update_sign_in), dialog);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
      g_ptr_array_add (asking->rows, row);
    }
  adw_message_dialog_set_extra_child (dialog, group);

  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "sign-in", _("_Sign In"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "sign-in", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "sign-in");
  adw_message_dialog_set_close_response (dialog, "cancel");
  update_sign_in (dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (response_cb), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  if (asking->rows->len > 0)
    gtk_widget_grab_focus (asking->rows->pdata[0]);

  return GTK_WIDGET (dialog);
}
