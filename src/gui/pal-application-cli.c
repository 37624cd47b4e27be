/* pal-application-cli.c: sessions named on the command line, and the
 * options that only read the history
 *
 * A session is named by its id, or as AGENT:ID (the agent by its profile's
 * id or name) when several agents have a session of that id or when it was
 * removed from the list; --agent NAME does the same.
 *
 * --export SESSION [FILE] and --search TEXT read the session list and the
 * transcript store and print, in the process that was started: they open
 * no window, need no display, and leave a running instance alone. They
 * exit with 0, or with 1 and a message on the standard error.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pal-application-private.h"
#include "pal-transcript-export.h"
#include "pal-transcript-store.h"

/* Sessions --search lists at most */
#define SEARCH_MAX_SESSIONS 100

/* --- naming sessions --- */

const char *
_pal_application_find_agent (PalAgentStore *agents,
                             const char    *name)
{
  GListModel *list = G_LIST_MODEL (agents);
  g_autofree char *folded = g_utf8_casefold (name, -1);

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(PalAgentProfile) profile = g_list_model_get_item (list, i);
      g_autofree char *profile_name = g_utf8_casefold (pal_agent_profile_get_name (profile), -1);

      if (g_str_equal (pal_agent_profile_get_id (profile), name) || g_str_equal (profile_name, folded))
        return pal_agent_profile_get_id (profile);
    }

  return NULL;
}

/* Whether @agent, as given on the command line, names @agent_id: its id,
 * or its name (a preset's, when it is not detected yet) in any case */
static gboolean
names_agent (PalAgentStore *agents,
             const char    *agent,
             const char    *agent_id)
{
  const char *found = _pal_application_find_agent (agents, agent);
  g_autofree char *folded = NULL;
  g_autofree char *name = NULL;

  if (g_strcmp0 (found, agent_id) == 0 || g_str_equal (agent, agent_id))
    return TRUE;

  folded = g_utf8_casefold (agent, -1);
  name = g_utf8_casefold (pal_agent_store_get_name (agents, agent_id), -1);
  return g_str_equal (folded, name);
}

PalSessionKey *
_pal_application_resolve_session (PalSessionStore  *sessions,
                                  PalAgentStore    *agents,
                                  const char       *spec,
                                  const char       *agent,
                                  char            **message)
{
  g_autoptr(GPtrArray) found = pal_session_store_find_by_id (sessions, spec);
  const char *colon = strchr (spec, ':');
  g_autoptr(GString) names = NULL;

  /* AGENT:ID, unless an id of the list has a colon */
  if (found->len == 0 && agent == NULL && colon != NULL && colon > spec && colon[1] != '\0')
    {
      g_autofree char *agent_part = g_strndup (spec, (gsize) (colon - spec));

      return _pal_application_resolve_session (sessions, agents, colon + 1, agent_part, message);
    }

  if (found->len == 0)
    {
      const char *agent_id;

      if (agent == NULL)
        {
          /* Translators: %s is a session id given on the command line */
          *message = g_strdup_printf (_("There is no session “%s” in the list. Name a session "
                                        "removed from it as AGENT:ID."), spec);
          return NULL;
        }
      /* a session removed from the list may still have its history */
      agent_id = _pal_application_find_agent (agents, agent);
      return pal_session_key_new (agent_id != NULL ? agent_id : agent, spec);
    }

  for (guint i = 0; agent != NULL && i < found->len; i++)
    {
      PalSessionRecord *record = g_ptr_array_index (found, i);

      if (names_agent (agents, agent, pal_session_record_get_agent_id (record)))
        return pal_session_key_ref (pal_session_record_get_key (record));
    }

  if (agent == NULL && found->len == 1)
    return pal_session_key_ref (pal_session_record_get_key (g_ptr_array_index (found, 0)));

  names = g_string_new (NULL);
  for (guint i = 0; i < found->len; i++)
    {
      const char *record_agent = pal_session_record_get_agent_id (g_ptr_array_index (found, i));
      const char *name = pal_agent_store_get_name (agents, record_agent);

      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append (names, name != NULL ? name : record_agent);
    }

  if (agent != NULL)
    /* Translators: the first %s is an agent name given on the command line, the second a
     * session id, the third a list of agent names */
    *message = g_strdup_printf (_("The agent “%s” has no session “%s”; these agents have one: %s."),
                                agent, spec, names->str);
  else
    /* Translators: the first %s is a session id, the second a list of agent names */
    *message = g_strdup_printf (_("Several agents have a session “%s”: %s. Name one with --agent."),
                                spec, names->str);
  return NULL;
}

/* --- reading the history --- */

typedef struct
{
  GSettings          *settings;
  PalSessionStore    *sessions;
  PalAgentStore      *agents;
  PalTranscriptStore *transcripts;   /* NULL: nothing was ever stored */
  gboolean            done;
  int                 status;
  GBytes             *bytes;
  GListModel         *results;
  GError             *error;
} Run;

static void
run_clear (Run *run)
{
  g_clear_object (&run->transcripts);
  g_clear_object (&run->agents);
  g_clear_object (&run->sessions);
  g_clear_object (&run->settings);
  g_clear_pointer (&run->bytes, g_bytes_unref);
  g_clear_object (&run->results);
  g_clear_error (&run->error);
}

static void
store_problem_cb (PalTranscriptStore *store,
                  const GError       *error,
                  gpointer            user_data)
{
  g_printerr ("%s\n", error->message);
}

/* The stores, read-only; no database is made where there is none */
static void
run_open (Run *run)
{
  g_autofree char *path = pal_transcript_store_dup_default_path ();

  run->settings = g_settings_new (APPLICATION_ID);
  run->sessions = pal_session_store_new (run->settings);
  run->agents = pal_agent_store_new (run->settings);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      run->transcripts = pal_transcript_store_new (path);
      g_signal_connect (run->transcripts, "problem", G_CALLBACK (store_problem_cb), NULL);
    }
}

static void
run_wait (Run *run)
{
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
  run->done = FALSE;
}

static int
fail (const char *message)
{
  g_printerr ("%s\n", message);
  return 1;
}

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Run *run = user_data;

  run->bytes = pal_transcript_export_finish (PAL_TRANSCRIPT_STORE (object), result, &run->error);
  run->done = TRUE;
}

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Run *run = user_data;

  g_file_replace_contents_finish (G_FILE (object), result, NULL, &run->error);
  run->done = TRUE;
}

static int
run_export (Run                 *run,
            const char          *spec,
            const char          *agent,
            PalTranscriptFormat  format,
            const char          *file_arg)
{
  g_autofree char *message = NULL;
  g_autoptr(PalSessionKey) key = NULL;
  PalSessionRecord *record;
  PalTranscriptExportInfo info = { 0 };
  gconstpointer data;
  gsize size = 0;

  key = _pal_application_resolve_session (run->sessions, run->agents, spec, agent, &message);
  if (key == NULL)
    return fail (message);
  if (run->transcripts == NULL)
    return fail (_("No history of this session is stored on this computer."));

  record = pal_session_store_lookup (run->sessions, key);
  info.title = record != NULL ? pal_session_record_get_title (record) : NULL;
  info.agent_name = pal_agent_store_get_name (run->agents, pal_session_key_get_agent_id (key));
  info.folder = record != NULL ? pal_session_record_get_cwd (record) : NULL;
  info.session_id = pal_session_key_get_session_id (key);

  pal_transcript_export_async (run->transcripts, key, format, &info, NULL, exported_cb, run);
  run_wait (run);
  if (run->bytes == NULL)
    return fail (run->error->message);

  if (file_arg == NULL)
    {
      data = g_bytes_get_data (run->bytes, &size);
      if (fwrite (data, 1, size, stdout) != size || fflush (stdout) != 0)
        return fail (_("Could not write to the standard output."));
      return 0;
    }

  {
    g_autoptr(GFile) file = g_file_new_for_commandline_arg (file_arg);

    g_file_replace_contents_bytes_async (file, run->bytes, NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                         written_cb, run);
    run_wait (run);
    if (run->error != NULL)
      {
        /* Translators: the first %s is a file name, the second what went wrong */
        g_autofree char *text = g_strdup_printf (_("Could not write “%s”: %s"), file_arg,
                                                 run->error->message);
        return fail (text);
      }
  }

  return 0;
}

static void
searched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Run *run = user_data;

  run->results = pal_transcript_store_search_finish (PAL_TRANSCRIPT_STORE (object), result, &run->error);
  run->done = TRUE;
}

/* @text on one line, tabs and line breaks made spaces; the matches in
 * bold when @bold */
static void
append_snippet (GString          *out,
                PalTranscriptHit *hit,
                gboolean          bold)
{
  const char *snippet = pal_transcript_hit_get_snippet (hit);
  guint n_highlights = 0;
  const PalTextRange *highlights = pal_transcript_hit_get_highlights (hit, &n_highlights);
  guint next = 0;

  for (gsize i = 0; snippet[i] != '\0'; i++)
    {
      if (bold && next < n_highlights && highlights[next].start == i)
        g_string_append (out, "\033[1m");

      g_string_append_c (out, snippet[i] == '\n' || snippet[i] == '\r' || snippet[i] == '\t'
                              ? ' ' : snippet[i]);

      if (bold && next < n_highlights && highlights[next].end == i + 1)
        {
          g_string_append (out, "\033[0m");
          next++;
        }
    }
}

/* Sessions one a line: AGENT:ID, the time of its last message, the agent,
 * the title; below, each matching message's snippet after a tab */
static int
run_search (Run        *run,
            const char *text,
            gboolean    thoughts)
{
  g_autofree char *query = pal_transcript_search_build_query (text);
  g_autoptr(GString) out = g_string_new (NULL);
  const char *term = g_getenv ("TERM");
  gboolean bold = isatty (STDOUT_FILENO) && g_getenv ("NO_COLOR") == NULL &&
                  term != NULL && !g_str_equal (term, "dumb");
  guint n;

  if (query == NULL)
    return fail (_("Give a word to search for."));
  if (run->transcripts == NULL)
    return 0;

  pal_transcript_store_search_async (run->transcripts, text,
                                     thoughts ? PAL_TRANSCRIPT_SEARCH_THOUGHTS : PAL_TRANSCRIPT_SEARCH_DEFAULT,
                                     SEARCH_MAX_SESSIONS, NULL, searched_cb, run);
  run_wait (run);
  if (run->results == NULL)
    return fail (run->error->message);

  n = g_list_model_get_n_items (run->results);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalTranscriptSearchResult) result = g_list_model_get_item (run->results, i);
      PalSessionKey *key = pal_transcript_search_result_get_key (result);
      PalSessionRecord *record = pal_session_store_lookup (run->sessions, key);
      const char *title = record != NULL ? pal_session_record_get_title (record) : NULL;
      gint64 updated = pal_transcript_search_result_get_updated (result);
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (updated / G_USEC_PER_SEC);
      g_autofree char *time_text = when != NULL ? g_date_time_format (when, "%Y-%m-%d %H:%M") : NULL;

      g_string_append_printf (out, "%s:%s\t%s\t%s\t%s\n",
                              pal_session_key_get_agent_id (key),
                              pal_session_key_get_session_id (key),
                              time_text != NULL ? time_text : "",
                              pal_agent_store_get_name (run->agents, pal_session_key_get_agent_id (key)),
                              title != NULL && *title != '\0' ? title : _("New Session"));
      for (guint j = 0; j < pal_transcript_search_result_get_n_hits (result); j++)
        {
          g_string_append_c (out, '\t');
          append_snippet (out, pal_transcript_search_result_get_hit (result, j), bold);
          g_string_append_c (out, '\n');
        }
    }

  if (n == 0)
    {
      /* Translators: %s is what was searched for */
      g_autofree char *message = g_strdup_printf (_("No stored message matches “%s”."), text);

      g_printerr ("%s\n", message);
    }

  g_print ("%s", out->str);
  return 0;
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;

  return TRUE;
}

/* The options only these handle, given without them */
static int
check_alone (GVariantDict *options)
{
  const char *prompt = NULL;

  if (g_variant_dict_contains (options, "format"))
    return fail (_("A format can only be given with --export."));
  if (g_variant_dict_contains (options, "thoughts"))
    return fail (_("--thoughts can only be given with --search."));

  if (g_variant_dict_lookup (options, "prompt", "&s", &prompt))
    {
      if (!g_variant_dict_contains (options, "new"))
        return fail (_("A prompt can only be given with --new."));
      if (is_blank (prompt))
        return fail (_("The prompt is empty."));
    }

  return -1;
}

int
_pal_application_run_local (GVariantDict *options)
{
  g_autofree const char **remaining = NULL;
  const char *export_spec = NULL;
  const char *search_text = NULL;
  const char *format_name = NULL;
  const char *agent = NULL;
  gboolean thoughts = FALSE;
  PalTranscriptFormat format = PAL_TRANSCRIPT_FORMAT_MARKDOWN;
  Run run = { 0 };
  int status;

  g_variant_dict_lookup (options, "export", "&s", &export_spec);
  g_variant_dict_lookup (options, "search", "&s", &search_text);
  g_variant_dict_lookup (options, "format", "&s", &format_name);
  g_variant_dict_lookup (options, "thoughts", "b", &thoughts);

  if (export_spec == NULL && search_text == NULL)
    return check_alone (options);

  g_variant_dict_lookup (options, "agent", "&s", &agent);
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &remaining);

  if (g_variant_dict_contains (options, "new") || g_variant_dict_contains (options, "open") ||
      g_variant_dict_contains (options, "prompt") || (export_spec != NULL && search_text != NULL))
    return fail (_("--export and --search go alone, not with --new, --open or each other."));

  if (export_spec != NULL)
    {
      if (thoughts)
        return fail (_("--thoughts can only be given with --search."));
      if (format_name != NULL && !pal_transcript_format_from_string (format_name, &format))
        {
          /* Translators: %s is a format name given on the command line */
          g_autofree char *message = g_strdup_printf (_("There is no format “%s”: give markdown "
                                                        "or jsonl."), format_name);
          return fail (message);
        }
      if (remaining != NULL && remaining[0] != NULL && remaining[1] != NULL)
        return fail (_("Give one file only."));
    }
  else if (agent != NULL || format_name != NULL || (remaining != NULL && remaining[0] != NULL))
    {
      return fail (_("--search takes the text to search for alone."));
    }

  run_open (&run);
  if (export_spec != NULL)
    status = run_export (&run, export_spec, agent, format, remaining != NULL ? remaining[0] : NULL);
  else
    status = run_search (&run, search_text, thoughts);
  run_clear (&run);

  return status;
}
