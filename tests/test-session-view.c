/* test-session-view.c: a session's lists and usage reach the widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "acp-session.h"
#include "find-descendant.h"
#include "json-text.h"
#include "pal-composer.h"
#include "pal-session-view.h"

typedef struct
{
  GtkWidget      *window;
  PalSessionView *view;
  PalComposer    *composer;
  PalOptionsBar  *bar;
  AcpAgent       *agent;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  /* the sessions only take updates: their agent never runs */
  const char *argv[] = { "/nonexistent/agent", NULL };

  f->agent = acp_agent_new (argv, NULL, NULL);
  f->window = gtk_window_new ();
  f->view = PAL_SESSION_VIEW (pal_session_view_new ());
  f->composer = PAL_COMPOSER (pal_session_view_get_composer (f->view));
  f->bar = pal_composer_get_options_bar (f->composer);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  gtk_window_present (GTK_WINDOW (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->agent);
}

static void
apply (AcpSession *session,
       const char *json)
{
  g_autoptr(JsonNode) node = json_text_parse (json);
  g_autoptr(GError) error = NULL;

  g_assert_true (acp_session_apply_update (session, json_node_get_object (node), &error));
  g_assert_no_error (error);
}

/* The label under the transcript that tells the usage, if one shows */
static const char *
shown_usage (Fixture *f)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, f->view);
  while (stack->len > 0)
    {
      GtkWidget *widget = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
          (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), "Context:") ||
           g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), "Cost:")))
        return gtk_label_get_text (GTK_LABEL (widget));
      for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }

  return NULL;
}

static void
test_lists_bound (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AcpSession) session = acp_session_new (f->agent, "/");
  g_autoptr(AcpSession) other = acp_session_new (f->agent, "/");

  pal_session_view_set_session (f->view, session);
  g_assert_true (pal_composer_get_commands (f->composer) ==
                 acp_session_get_available_commands (session));
  g_assert_true (pal_options_bar_get_config_options (f->bar) ==
                 acp_session_get_config_options (session));
  g_assert_true (pal_options_bar_get_modes (f->bar) == acp_session_get_modes (session));

  /* what the agent sends shows */
  apply (session, "{'sessionUpdate': 'available_commands_update',"
                  " 'availableCommands': [{'name': 'web', 'description': 'Search'}]}");
  apply (session, "{'sessionUpdate': 'current_mode_update', 'currentModeId': 'code'}");
  apply (session, "{'sessionUpdate': 'config_option_update', 'configOptions': ["
                  " {'id': 'model', 'name': 'Model', 'type': 'select', 'currentValue': 'b',"
                  "  'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'B'}]}]}");
  pal_composer_set_text (f->composer, "/w");
  g_assert_cmpuint (pal_composer_get_n_completions (f->composer), ==, 1);
  g_assert_cmpstr (pal_options_bar_get_current_mode_id (f->bar), ==, "code");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (find_descendant (GTK_WIDGET (f->bar),
                                                                                GTK_TYPE_DROP_DOWN))),
                    ==, 1);

  /* another session: its lists; none: nothing */
  pal_session_view_set_session (f->view, other);
  g_assert_true (pal_composer_get_commands (f->composer) ==
                 acp_session_get_available_commands (other));
  g_assert_null (pal_options_bar_get_current_mode_id (f->bar));
  g_assert_null (find_descendant (GTK_WIDGET (f->bar), GTK_TYPE_DROP_DOWN));
  pal_session_view_set_session (f->view, NULL);
  g_assert_null (pal_composer_get_commands (f->composer));
  g_assert_null (pal_options_bar_get_config_options (f->bar));

  /* a session no longer shown reaches the widgets no more */
  apply (session, "{'sessionUpdate': 'current_mode_update', 'currentModeId': 'ask'}");
  g_assert_null (pal_options_bar_get_current_mode_id (f->bar));
}

static void
test_usage_bound (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AcpSession) session = acp_session_new (f->agent, "/");

  pal_session_view_set_session (f->view, session);
  g_assert_null (shown_usage (f));

  apply (session, "{'sessionUpdate': 'usage_update', 'used': 12000, 'size': 200000}");
  g_assert_cmpstr (shown_usage (f), ==, "Context: 12000 of 200000 tokens (6%)");
  apply (session, "{'sessionUpdate': 'usage_update', 'used': 13000, 'size': 200000,"
                  " 'cost': {'amount': 0.25, 'currency': 'USD'}}");
  g_assert_cmpstr (shown_usage (f), ==, "Context: 13000 of 200000 tokens (6%) · Cost: 0.25 USD");
  /* a context of no size says only the cost */
  apply (session, "{'sessionUpdate': 'usage_update', 'used': 0, 'size': 0,"
                  " 'cost': {'amount': 1, 'currency': 'EUR'}}");
  g_assert_cmpstr (shown_usage (f), ==, "Cost: 1.00 EUR");

  pal_session_view_set_session (f->view, NULL);
  g_assert_null (shown_usage (f));
}

/* Presses @keyval in the composer's text view, as the person does */
static gboolean
press (PalComposer *composer,
       guint        keyval)
{
  GtkWidget *text_view = find_descendant (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (text_view);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, 0, &handled);
      if (handled)
        break;
    }

  return handled;
}

static void
append_prompt (AcpTranscript *transcript,
               const char    *text)
{
  g_autoptr(AcpMessageItem) item = acp_message_item_new (ACP_MESSAGE_ROLE_USER, NULL);

  acp_message_item_set_text (item, text);
  acp_transcript_append (transcript, ACP_ITEM (item));
  acp_transcript_flush (transcript);
}

/* Up recalls the prompts of what is shown: the history kept of a session,
 * then its own transcript */
static void
test_recall_shown (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AcpTranscript) history = acp_transcript_new ();
  g_autoptr(AcpSession) session = acp_session_new (f->agent, "/");
  g_autofree char *text = NULL;
  g_autofree char *later = NULL;

  append_prompt (history, "from the history");
  pal_session_view_set_history (f->view, history);
  g_assert_true (press (f->composer, GDK_KEY_Up));
  text = pal_composer_dup_text (f->composer);
  g_assert_cmpstr (text, ==, "from the history");

  pal_composer_set_text (f->composer, NULL);
  pal_session_view_set_history (f->view, NULL);
  pal_session_view_set_session (f->view, session);
  append_prompt (acp_session_get_transcript (session), "in the session");
  g_assert_true (press (f->composer, GDK_KEY_Up));
  later = pal_composer_dup_text (f->composer);
  g_assert_cmpstr (later, ==, "in the session");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/session-view/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("lists", test_lists_bound);
  ADD ("usage", test_usage_bound);
  ADD ("recall-shown", test_recall_shown);

#undef ADD

  return g_test_run ();
}
