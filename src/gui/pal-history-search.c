/* pal-history-search.c: a search of the messages of every stored session
 *
 * A window with a search entry over the transcript store: what the person
 * types is looked for in the prompts, answers and tool output (and, when
 * asked, the thoughts) of every stored session. Each change of the text
 * cancels the search under way and starts another (the entry waits for a
 * pause in the typing first). The sessions found come newest first, each
 * with its title, agent and time and the snippets of its newest matching
 * messages, the matching words in bold. Activating a snippet emits
 * "hit-activated" with the session and the index of the message in its
 * stored transcript, and hides the window; it keeps its search for the next
 * time it is shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-history-search.h"
#include "pal-session-row.h"

/* Sessions one search shows at most */
#define MAX_SESSIONS 50

#define HIT_KEY "pal-history-search-hit"
#define SESSION_KEY "pal-history-search-session"

struct _PalHistorySearch
{
  AdwWindow           parent_instance;

  PalTranscriptStore *store;
  PalSessionStore    *sessions;
  PalAgentStore      *agents;
  GCancellable       *cancellable;   /* of the search under way */
  char               *searched;      /* its text */
  GListModel         *results;       /* shown */

  GtkSearchEntry     *search_entry;
  GtkLabel           *summary_label;
  GtkCheckButton     *thoughts_check;
  GtkStack           *stack;
  AdwStatusPage      *empty_page;
  AdwStatusPage      *error_page;
  GtkBox             *results_box;
};

G_DEFINE_FINAL_TYPE (PalHistorySearch, pal_history_search, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_RESULTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  HIT_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* --- the results --- */

/* The snippet as Pango markup: escaped, the matches in bold, on one line */
static char *
snippet_markup (PalTranscriptHit *hit)
{
  g_autofree char *snippet = g_strdup (pal_transcript_hit_get_snippet (hit));
  guint n_highlights = 0;
  const PalTextRange *highlights = pal_transcript_hit_get_highlights (hit, &n_highlights);
  GString *markup = g_string_new (NULL);
  gsize length = strlen (snippet);
  gsize at = 0;

  g_strdelimit (snippet, "\n\r\t", ' ');
  for (guint i = 0; i < n_highlights; i++)
    {
      gsize start = MIN (MAX (highlights[i].start, at), length);
      gsize end = MIN (MAX (highlights[i].end, start), length);
      g_autofree char *before = g_markup_escape_text (snippet + at, (gssize) (start - at));
      g_autofree char *match = g_markup_escape_text (snippet + start, (gssize) (end - start));

      g_string_append (markup, before);
      g_string_append_printf (markup, "<b>%s</b>", match);
      at = end;
    }

  {
    g_autofree char *rest = g_markup_escape_text (snippet + at, (gssize) (length - at));

    g_string_append (markup, rest);
  }

  return g_string_free (markup, FALSE);
}

static const char *
describe_kind (PalTranscriptKind  kind,
               const char        *agent_name)
{
  switch (kind)
    {
    case PAL_TRANSCRIPT_KIND_PROMPT:
    case PAL_TRANSCRIPT_KIND_USER_MESSAGE:
      return _("You");
    case PAL_TRANSCRIPT_KIND_AGENT_MESSAGE:
      return agent_name != NULL ? agent_name : _("Agent");
    case PAL_TRANSCRIPT_KIND_THOUGHT:
      return _("Thought");
    case PAL_TRANSCRIPT_KIND_TOOL_CALL:
      return _("Tool call");
    case PAL_TRANSCRIPT_KIND_OTHER:
    default:
      return "";
    }
}

static char *
describe_matches (PalTranscriptSearchResult *result)
{
  guint n = pal_transcript_search_result_get_n_matches (result);

  if (pal_transcript_search_result_get_more_matches (result))
    /* Translators: a count of messages that matched a search */
    return g_strdup_printf (ngettext ("More than %u match", "More than %u matches", n), n);

  return g_strdup_printf (ngettext ("%u match", "%u matches", n), n);
}

static GtkWidget *
label_new (const char *text,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);

  return label;
}

static GtkWidget *
hit_row_new (PalTranscriptHit *hit,
             PalSessionKey    *key,
             const char       *agent_name)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *kind = label_new (describe_kind (pal_transcript_hit_get_kind (hit), agent_name), "caption");
  g_autofree char *markup = snippet_markup (hit);
  GtkWidget *snippet = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (snippet), markup);
  gtk_label_set_xalign (GTK_LABEL (snippet), 0);
  gtk_label_set_wrap (GTK_LABEL (snippet), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (snippet), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (snippet), 3);
  gtk_label_set_ellipsize (GTK_LABEL (snippet), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (snippet, "snippet");
  gtk_widget_add_css_class (kind, "dim-label");

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_box_append (GTK_BOX (box), kind);
  gtk_box_append (GTK_BOX (box), snippet);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);

  g_object_set_data_full (G_OBJECT (row), HIT_KEY, pal_transcript_hit_ref (hit),
                          (GDestroyNotify) pal_transcript_hit_unref);
  g_object_set_data_full (G_OBJECT (row), SESSION_KEY, pal_session_key_ref (key),
                          (GDestroyNotify) pal_session_key_unref);

  return row;
}

static void
hit_activated_cb (GtkListBox       *list_box,
                  GtkListBoxRow    *row,
                  PalHistorySearch *self)
{
  PalTranscriptHit *hit = g_object_get_data (G_OBJECT (row), HIT_KEY);
  PalSessionKey *key = g_object_get_data (G_OBJECT (row), SESSION_KEY);

  if (hit == NULL || key == NULL)
    return;

  /* the window goes first: the session shows in the main window */
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  g_signal_emit (self, signals[HIT_ACTIVATED], 0, key, pal_transcript_hit_get_index (hit));
}

/* A session found: its title, agent, time and matches, then its snippets */
static GtkWidget *
group_new (PalHistorySearch          *self,
           PalTranscriptSearchResult *result,
           gint64                     now)
{
  PalSessionKey *key = pal_transcript_search_result_get_key (result);
  PalSessionRecord *record = pal_session_store_lookup (self->sessions, key);
  const char *title = record != NULL ? pal_session_record_get_title (record) : NULL;
  const char *agent_name = pal_agent_store_get_name (self->agents, pal_session_key_get_agent_id (key));
  g_autofree char *when = pal_format_relative_time (pal_transcript_search_result_get_updated (result), now);
  g_autofree char *matches = describe_matches (result);
  g_autofree char *folder = record != NULL ? pal_format_session_folder (record) : NULL;
  GString *caption = g_string_new (agent_name);
  GtkWidget *group = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *list_box = gtk_list_box_new ();
  GtkWidget *caption_label;

  if (folder != NULL)
    g_string_append_printf (caption, " · %s", folder);
  if (*when != '\0')
    g_string_append_printf (caption, " · %s", when);
  g_string_append_printf (caption, " · %s", matches);

  caption_label = label_new (caption->str, "caption");
  gtk_widget_add_css_class (caption_label, "dim-label");
  gtk_box_append (GTK_BOX (header), label_new (title != NULL && *title != '\0' ? title : _("New Session"),
                                               "heading"));
  gtk_box_append (GTK_BOX (header), caption_label);
  gtk_widget_set_margin_start (header, 6);
  g_string_free (caption, TRUE);

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list_box), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list_box, "boxed-list");
  for (guint i = 0; i < pal_transcript_search_result_get_n_hits (result); i++)
    gtk_list_box_append (GTK_LIST_BOX (list_box),
                         hit_row_new (pal_transcript_search_result_get_hit (result, i), key, agent_name));
  g_signal_connect (list_box, "row-activated", G_CALLBACK (hit_activated_cb), self);

  gtk_box_append (GTK_BOX (group), header);
  gtk_box_append (GTK_BOX (group), list_box);
  gtk_widget_add_css_class (group, "search-result");

  return group;
}

static void
clear_results (PalHistorySearch *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->results_box))) != NULL)
    gtk_box_remove (self->results_box, child);
}

static void
set_results (PalHistorySearch *self,
             GListModel       *results)
{
  if (g_set_object (&self->results, results))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULTS]);
}

static void
show_results (PalHistorySearch *self,
              const char       *text,
              GListModel       *results)
{
  guint n = g_list_model_get_n_items (results);
  gint64 now = g_get_real_time ();

  clear_results (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalTranscriptSearchResult) result = g_list_model_get_item (results, i);

      gtk_box_append (self->results_box, group_new (self, result, now));
    }

  if (n == 0)
    {
      /* Translators: %s is what was searched for */
      g_autofree char *description = g_strdup_printf (_("No stored message matches “%s”."), text);

      adw_status_page_set_description (self->empty_page, description);
      gtk_label_set_text (self->summary_label, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
    }
  else
    {
      g_autofree char *summary = NULL;

      if (n >= MAX_SESSIONS)
        /* Translators: how many sessions a search shows, when there may be more */
        summary = g_strdup_printf (ngettext ("The newest %u session with matches",
                                             "The newest %u sessions with matches", n), n);
      else
        summary = g_strdup_printf (ngettext ("%u session with matches", "%u sessions with matches", n), n);
      gtk_label_set_text (self->summary_label, summary);
      gtk_stack_set_visible_child_name (self->stack, "results");
    }

  set_results (self, results);
}

/* --- searching --- */

/* A search under way does not keep the window: closed with its main
 * window, it cancels the search */
typedef struct
{
  GWeakRef  self;
  char     *text;
} Search;

static void
search_free (Search *search)
{
  g_weak_ref_clear (&search->self);
  g_free (search->text);
  g_free (search);
}

static void
searched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Search *search = user_data;
  g_autoptr(PalHistorySearch) self = g_weak_ref_get (&search->self);
  g_autoptr(GListModel) results = NULL;
  g_autoptr(GError) error = NULL;

  results = pal_transcript_store_search_finish (PAL_TRANSCRIPT_STORE (object), result, &error);
  if (self == NULL || (results == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    {
      search_free (search);
      return;
    }

  if (results == NULL)
    {
      clear_results (self);
      adw_status_page_set_description (self->error_page, error->message);
      gtk_label_set_text (self->summary_label, NULL);
      gtk_stack_set_visible_child_name (self->stack, "error");
      set_results (self, NULL);
    }
  else
    {
      show_results (self, search->text, results);
    }

  search_free (search);
}

/* Cancels the search under way and starts one for the text now */
static void
start_search (PalHistorySearch *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *query = pal_transcript_search_build_query (text);
  PalTranscriptSearchFlags flags = PAL_TRANSCRIPT_SEARCH_DEFAULT;
  Search *search;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_free (self->searched);
  self->searched = g_strdup (text);

  if (query == NULL)
    {
      clear_results (self);
      gtk_label_set_text (self->summary_label, NULL);
      gtk_stack_set_visible_child_name (self->stack, "start");
      set_results (self, NULL);
      return;
    }

  if (gtk_check_button_get_active (self->thoughts_check))
    flags |= PAL_TRANSCRIPT_SEARCH_THOUGHTS;

  search = g_new0 (Search, 1);
  g_weak_ref_init (&search->self, self);
  search->text = g_strdup (text);
  self->cancellable = g_cancellable_new ();
  pal_transcript_store_search_async (self->store, text, flags, MAX_SESSIONS, self->cancellable,
                                     searched_cb, search);
}

static void
search_changed_cb (PalHistorySearch *self)
{
  /* pal_history_search_set_text () searched for it already */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), self->searched) != 0)
    start_search (self);
}

static void
thoughts_toggled_cb (PalHistorySearch *self)
{
  start_search (self);
}

/* Enter: the first snippet */
static void
search_activate_cb (PalHistorySearch *self)
{
  GtkWidget *group = gtk_widget_get_first_child (GTK_WIDGET (self->results_box));
  GtkWidget *list_box = group != NULL ? gtk_widget_get_last_child (group) : NULL;
  GtkListBoxRow *row = GTK_IS_LIST_BOX (list_box)
    ? gtk_list_box_get_row_at_index (GTK_LIST_BOX (list_box), 0) : NULL;

  if (row != NULL && gtk_stack_get_visible_child_name (self->stack) != NULL &&
      g_str_equal (gtk_stack_get_visible_child_name (self->stack), "results"))
    g_signal_emit_by_name (list_box, "row-activated", row);
}

static void
stop_search_cb (PalHistorySearch *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

/* --- the object --- */

static void
pal_history_search_dispose (GObject *object)
{
  PalHistorySearch *self = PAL_HISTORY_SEARCH (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->searched, g_free);
  g_clear_object (&self->results);
  g_clear_object (&self->store);
  g_clear_object (&self->sessions);
  g_clear_object (&self->agents);

  gtk_widget_dispose_template (GTK_WIDGET (object), PAL_TYPE_HISTORY_SEARCH);

  G_OBJECT_CLASS (pal_history_search_parent_class)->dispose (object);
}

static void
pal_history_search_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PalHistorySearch *self = PAL_HISTORY_SEARCH (object);

  switch (prop_id)
    {
    case PROP_RESULTS:
      g_value_set_object (value, self->results);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_history_search_class_init (PalHistorySearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_history_search_dispose;
  object_class->get_property = pal_history_search_get_property;

  /**
   * PalHistorySearch:results:
   *
   * What the search last found and shows (a #GListModel of
   * #PalTranscriptSearchResult); %NULL when there is nothing to look for.
   */
  properties[PROP_RESULTS] =
    g_param_spec_object ("results", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalHistorySearch::hit-activated:
   * @key: the session
   * @index: the index of the message in the session's stored transcript
   */
  signals[HIT_ACTIVATED] =
    g_signal_new ("hit-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  PAL_TYPE_SESSION_KEY | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/gui/pal-history-search.ui");
  gtk_widget_class_bind_template_child (widget_class, PalHistorySearch, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PalHistorySearch, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PalHistorySearch, thoughts_check);
  gtk_widget_class_bind_template_child (widget_class, PalHistorySearch, stack);
  gtk_widget_class_bind_template_child (widget_class, PalHistorySearch, empty_page);
  gtk_widget_class_bind_template_child (widget_class, PalHistorySearch, error_page);
  gtk_widget_class_bind_template_child (widget_class, PalHistorySearch, results_box);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, thoughts_toggled_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
pal_history_search_init (PalHistorySearch *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* typing while a snippet has the focus goes on in the entry */
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));
}

/**
 * pal_history_search_new:
 * @store: the stored transcripts
 * @sessions: the session list, for titles and folders
 * @agents: for agent names
 *
 * Returns: (transfer full): a new window; make it transient for the main
 *   window and connect to #PalHistorySearch::hit-activated
 */
GtkWidget *
pal_history_search_new (PalTranscriptStore *store,
                        PalSessionStore    *sessions,
                        PalAgentStore      *agents)
{
  PalHistorySearch *self;

  g_return_val_if_fail (PAL_IS_TRANSCRIPT_STORE (store), NULL);
  g_return_val_if_fail (PAL_IS_SESSION_STORE (sessions), NULL);
  g_return_val_if_fail (PAL_IS_AGENT_STORE (agents), NULL);

  self = g_object_new (PAL_TYPE_HISTORY_SEARCH, NULL);
  self->store = g_object_ref (store);
  self->sessions = g_object_ref (sessions);
  self->agents = g_object_ref (agents);

  return GTK_WIDGET (self);
}

/**
 * pal_history_search_set_text:
 * @self: a #PalHistorySearch
 * @text: (nullable): what to search for
 *
 * Puts @text in the entry (the cursor after it) and searches for it now.
 */
void
pal_history_search_set_text (PalHistorySearch *self,
                             const char       *text)
{
  g_return_if_fail (PAL_IS_HISTORY_SEARCH (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  gtk_editable_set_position (GTK_EDITABLE (self->search_entry), -1);
  start_search (self);
}

GListModel *
pal_history_search_get_results (PalHistorySearch *self)
{
  g_return_val_if_fail (PAL_IS_HISTORY_SEARCH (self), NULL);

  return self->results;
}
