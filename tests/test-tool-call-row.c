/* test-tool-call-row.c: a tool call of the chat, in a real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "acp-transcript.h"
#include "pal-markdown-text.h"
#include "pal-output-view.h"
#include "pal-terminal-view.h"
#include "pal-tool-call-row.h"
#include "test-util.h"

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, type, out);
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect (root, type, found);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}

static guint
count_widgets (GtkWidget *root,
               GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect (root, type, found);
  return found->len;
}

/* Whether a mapped label of @root shows @text (all of it, or a part) */
static gboolean
has_label (GtkWidget  *root,
           const char *text,
           gboolean    part)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *shown = gtk_label_get_text (g_ptr_array_index (labels, i));

      if (part ? strstr (shown, text) != NULL : g_str_equal (shown, text))
        return TRUE;
    }

  return FALSE;
}

/* The texts of the output views mapped in @root, one a line */
static char *
output_texts (GtkWidget *root)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  GString *texts = g_string_new (NULL);

  collect (root, PAL_TYPE_OUTPUT_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    {
      g_autofree char *text = pal_output_view_dup_text (g_ptr_array_index (views, i));

      g_string_append_printf (texts, "%s|", text);
    }

  return g_string_free (texts, FALSE);
}

static void
apply (AcpTranscript *transcript,
       const char    *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (node);
  acp_transcript_apply_update (transcript, json_node_get_object (node), &error);
  g_assert_no_error (error);
}

typedef struct
{
  AcpTranscript *transcript;
  GtkWidget     *window;
  GtkWidget     *row;
} Fixture;

/* A window with the row of the tool call @id, its details open */
static void
show_row (Fixture            *f,
          const char         *id,
          AcpTerminalService *service)
{
  AcpToolCallItem *item = acp_transcript_lookup_tool_call (f->transcript, id);
  GtkWidget *expander;

  g_assert_nonnull (item);
  f->row = pal_tool_call_row_new (item, service, "/p");
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 700, 600);
  gtk_window_set_child (GTK_WINDOW (f->window), f->row);
  gtk_window_present (GTK_WINDOW (f->window));

  expander = find_widget (f->row, GTK_TYPE_EXPANDER);
  g_assert_nonnull (expander);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
}

static void
count_cb (guint *counter)
{
  (*counter)++;
}

static gboolean
has_output_view (gpointer data)
{
  return find_widget (data, PAL_TYPE_OUTPUT_VIEW) != NULL;
}

static void
fixture_clear (Fixture *f)
{
  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->transcript);
}

/* codex-acp: an MCP tool's result in rawOutput alone; what it was given
 * in rawInput */
static void
test_raw_only (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  g_autofree char *texts = NULL;

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"call_1\","
                       "\"title\":\"Tool: everything/echo\",\"status\":\"in_progress\","
                       "\"rawInput\":{\"server\":\"everything\",\"tool\":\"echo\","
                       "\"arguments\":{\"message\":\"hi over mcp\"}}}");
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                       "\"status\":\"completed\",\"rawOutput\":{\"content\":[{\"type\":\"text\","
                       "\"text\":\"Echo: hi over mcp\"}]}}");
  show_row (&f, "call_1", NULL);
  WAIT_UNTIL (has_output_view (f.row));

  g_assert_true (has_label (f.row, "Input", FALSE));
  g_assert_true (has_label (f.row, "Output", FALSE));
  texts = output_texts (f.row);
  /* the input as indented JSON, the output as its text */
  g_assert_nonnull (strstr (texts, "{\n  \"server\" : \"everything\""));
  g_assert_true (g_str_has_suffix (texts, "|Echo: hi over mcp|"));
  g_clear_pointer (&texts, g_free);

  /* a plain string, updated in place */
  {
    GtkWidget *view = find_widget (find_widget (f.row, GTK_TYPE_EXPANDER), PAL_TYPE_OUTPUT_VIEW);

    apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_1\","
                         "\"rawInput\":\"echo\"}");
    g_assert_true (find_widget (find_widget (f.row, GTK_TYPE_EXPANDER), PAL_TYPE_OUTPUT_VIEW) == view);
    texts = output_texts (f.row);
    g_assert_cmpstr (texts, ==, "echo|Echo: hi over mcp|");
  }

  fixture_clear (&f);
}

/* The raw output is not shown again when the content shows it; it is
 * when the content says something else (Claude's command, loaded again:
 * its description, and the output in rawOutput) */
static void
test_raw_output_beside_content (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  g_autofree char *texts = NULL;

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"same\",\"title\":\"Echo\","
                       "\"status\":\"completed\",\"content\":[{\"type\":\"content\",\"content\":"
                       "{\"type\":\"text\",\"text\":\"Echo: hi\"}}],"
                       "\"rawInput\":{\"message\":\"hi\"},"
                       "\"rawOutput\":{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi\"}]}}");
  show_row (&f, "same", NULL);
  WAIT_UNTIL (has_output_view (f.row));
  texts = output_texts (f.row);
  g_assert_cmpstr (texts, ==, "Echo: hi|");
  g_assert_false (has_label (f.row, "Output", FALSE));
  g_assert_false (has_label (f.row, "Input", FALSE));
  fixture_clear (&f);
  g_clear_pointer (&texts, g_free);

  f.transcript = acp_transcript_new ();
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"toolu_1\",\"title\":\"ls\","
                       "\"kind\":\"execute\",\"status\":\"completed\",\"content\":[{\"type\":\"content\","
                       "\"content\":{\"type\":\"text\",\"text\":\"List the files\"}}],"
                       "\"rawInput\":{\"command\":\"ls\",\"description\":\"List the files\"},"
                       "\"rawOutput\":[{\"type\":\"text\",\"text\":\"README.md\\nsrc\"}]}");
  show_row (&f, "toolu_1", NULL);
  WAIT_UNTIL (has_output_view (f.row));
  texts = output_texts (f.row);
  g_assert_cmpstr (texts, ==, "List the files|README.md\nsrc|");
  g_assert_true (has_label (f.row, "Output", FALSE));
  fixture_clear (&f);
  g_clear_pointer (&texts, g_free);

  /* beside content, a raw output that is not text is left out */
  f.transcript = acp_transcript_new ();
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"run\",\"title\":\"Run make\","
                       "\"kind\":\"execute\",\"status\":\"completed\",\"content\":[{\"type\":\"content\","
                       "\"content\":{\"type\":\"text\",\"text\":\"PASS: hello\"}}],"
                       "\"rawOutput\":{\"exitCode\":0,\"duration\":3}}");
  show_row (&f, "run", NULL);
  WAIT_UNTIL (has_output_view (f.row));
  texts = output_texts (f.row);
  g_assert_cmpstr (texts, ==, "PASS: hello|");
  g_assert_false (has_label (f.row, "Output", FALSE));
  fixture_clear (&f);
}

static gboolean
has_terminal_view (gpointer data)
{
  return find_widget (data, PAL_TYPE_TERMINAL_VIEW) != NULL;
}

/* codex-acp's own terminal: the command and its output, not an error */
static void
test_agent_terminal (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  g_autoptr(AcpTerminalService) service = acp_terminal_service_new ();
  PalTerminalView *terminal;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"call_abc\",\"title\":\"Run ls\","
                       "\"kind\":\"execute\",\"status\":\"in_progress\","
                       "\"content\":[{\"type\":\"terminal\",\"terminalId\":\"call_abc\"}],"
                       "\"rawInput\":{\"call_id\":\"call_abc\",\"command\":[\"/bin/bash\",\"-lc\",\"ls src\"],"
                       "\"cwd\":\"/p\"}}");
  show_row (&f, "call_abc", service);
  WAIT_UNTIL (has_terminal_view (f.row));
  terminal = PAL_TERMINAL_VIEW (find_widget (f.row, PAL_TYPE_TERMINAL_VIEW));
  g_assert_false (pal_terminal_view_get_live (terminal));
  g_assert_true (has_label (f.row, "$ ls src", FALSE));
  status = pal_terminal_view_dup_status (terminal);
  g_assert_cmpstr (status, ==, "Running…");
  g_clear_pointer (&status, g_free);
  /* the end of the output in view while it runs */
  g_assert_true (pal_output_view_get_follow (pal_terminal_view_get_output_view (terminal)));
  g_assert_false (has_label (f.row, "available", TRUE));

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_abc\","
                       "\"status\":\"failed\",\"rawOutput\":{\"call_id\":\"call_abc\",\"stdout\":\"a.c\\n\","
                       "\"stderr\":\"ls: b: No such file\\n\",\"aggregated_output\":\"a.c\\nls: b: No such file\\n\","
                       "\"exit_code\":2,\"formatted_output\":\"a.c\\n\"}}");
  g_assert_true (PAL_TERMINAL_VIEW (find_widget (f.row, PAL_TYPE_TERMINAL_VIEW)) == terminal);
  text = pal_terminal_view_dup_text (terminal);
  g_assert_cmpstr (text, ==, "a.c\nls: b: No such file");
  status = pal_terminal_view_dup_status (terminal);
  g_assert_cmpstr (status, ==, "Exited with status 2");
  g_assert_false (pal_output_view_get_follow (pal_terminal_view_get_output_view (terminal)));
  g_assert_false (has_label (f.row, "available", TRUE));
  g_assert_false (has_label (f.row, "Output", FALSE));

  fixture_clear (&f);
}

#define CODEX_CALL \
  "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"call_0034\",\"kind\":\"execute\"," \
  "\"title\":\"sleep 1; echo aaa; sleep 1; echo bbb; exit 2\",\"status\":\"in_progress\"," \
  "\"content\":[{\"type\":\"terminal\",\"terminalId\":\"call_0034\"}]," \
  "\"rawInput\":{\"command\":\"sleep 1; echo aaa; sleep 1; echo bbb; exit 2\",\"cwd\":\"/p\"}," \
  "\"_meta\":{\"terminal_info\":{\"cwd\":\"/p\",\"terminal_id\":\"call_0034\"}}}"
#define CODEX_DELTA(text) \
  "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_0034\"," \
  "\"_meta\":{\"terminal_output_delta\":{\"data\":\"" text "\",\"terminal_id\":\"call_0034\"}}}"
#define CODEX_EXIT \
  "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_0034\",\"name\":\"exec_command\"," \
  "\"status\":\"failed\",\"_meta\":{\"terminal_exit\":{\"exit_code\":2,\"signal\":null," \
  "\"terminal_id\":\"call_0034\"}}}"

static char *
terminal_text (Fixture *f)
{
  return pal_terminal_view_dup_text (PAL_TERMINAL_VIEW (find_widget (f->row, PAL_TYPE_TERMINAL_VIEW)));
}

static char *
terminal_status (Fixture *f)
{
  return pal_terminal_view_dup_status (PAL_TERMINAL_VIEW (find_widget (f->row, PAL_TYPE_TERMINAL_VIEW)));
}

/* codex-acp's command streams its output in _meta: each piece is added to
 * the view as it comes, and the end says how it ended */
static void
test_agent_terminal_streamed (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  g_autoptr(AcpTerminalService) service = acp_terminal_service_new ();
  PalTerminalView *terminal;
  PalOutputView *output;
  GtkTextBuffer *buffer;
  guint deletes = 0;
  char *text;

  apply (f.transcript, CODEX_CALL);
  show_row (&f, "call_0034", service);
  WAIT_UNTIL (has_terminal_view (f.row));
  terminal = PAL_TERMINAL_VIEW (find_widget (f.row, PAL_TYPE_TERMINAL_VIEW));
  output = pal_terminal_view_get_output_view (terminal);
  g_assert_false (pal_terminal_view_get_live (terminal));
  g_assert_true (has_label (f.row, "$ sleep 1; echo aaa; sleep 1; echo bbb; exit 2", FALSE));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (output)));
  buffer = gtk_text_view_get_buffer (pal_output_view_get_text_view (output));
  g_signal_connect_swapped (buffer, "delete-range", G_CALLBACK (count_cb), &deletes);

  apply (f.transcript, CODEX_DELTA ("aaa\\n"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (output)));
  text = terminal_text (&f);
  g_assert_cmpstr (text, ==, "aaa");
  g_free (text);
  apply (f.transcript, CODEX_DELTA ("bbb\\n"));
  text = terminal_text (&f);
  g_assert_cmpstr (text, ==, "aaa\nbbb");
  g_free (text);
  text = terminal_status (&f);
  g_assert_cmpstr (text, ==, "Running…");
  g_free (text);
  g_assert_true (pal_output_view_get_follow (output));

  apply (f.transcript, CODEX_EXIT);
  text = terminal_text (&f);
  g_assert_cmpstr (text, ==, "aaa\nbbb");
  g_free (text);
  text = terminal_status (&f);
  g_assert_cmpstr (text, ==, "Exited with status 2");
  g_free (text);
  g_assert_false (pal_output_view_get_follow (output));
  g_assert_false (has_label (f.row, "Output", FALSE));

  /* the same view throughout, its text only added to */
  g_assert_true (PAL_TERMINAL_VIEW (find_widget (f.row, PAL_TYPE_TERMINAL_VIEW)) == terminal);
  g_assert_cmpuint (count_widgets (f.row, PAL_TYPE_TERMINAL_VIEW), ==, 1);
  g_assert_cmpuint (deletes, ==, 0);

  fixture_clear (&f);
}

/* Output that came while the details were closed shows once they open;
 * a replay sends it whole, with the exit */
static void
test_agent_terminal_closed (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  GtkExpander *expander;
  char *text;

  apply (f.transcript, CODEX_CALL);
  show_row (&f, "call_0034", NULL);
  WAIT_UNTIL (has_terminal_view (f.row));
  expander = GTK_EXPANDER (find_widget (f.row, GTK_TYPE_EXPANDER));
  apply (f.transcript, CODEX_DELTA ("aaa\\n"));
  gtk_expander_set_expanded (expander, FALSE);
  apply (f.transcript, CODEX_DELTA ("bbb\\n"));
  apply (f.transcript, CODEX_EXIT);
  gtk_expander_set_expanded (expander, TRUE);
  WAIT_UNTIL (has_terminal_view (f.row));
  text = terminal_text (&f);
  g_assert_cmpstr (text, ==, "aaa\nbbb");
  g_free (text);
  text = terminal_status (&f);
  g_assert_cmpstr (text, ==, "Exited with status 2");
  g_free (text);
  fixture_clear (&f);

  /* codex-acp's replay */
  f.transcript = acp_transcript_new ();
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"call_0034\",\"kind\":\"execute\","
                       "\"title\":\"echo aaa; echo bbb\",\"status\":\"failed\","
                       "\"content\":[{\"type\":\"terminal\",\"terminalId\":\"call_0034\"}],"
                       "\"_meta\":{\"terminal_info\":{\"cwd\":\"/p\",\"terminal_id\":\"call_0034\"}}}");
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call_0034\","
                       "\"_meta\":{\"terminal_output_delta\":{\"data\":\"aaa\\nbbb\\n\",\"terminal_id\":\"call_0034\"},"
                       "\"terminal_exit\":{\"exit_code\":2,\"signal\":null,\"terminal_id\":\"call_0034\"}}}");
  show_row (&f, "call_0034", NULL);
  WAIT_UNTIL (has_terminal_view (f.row));
  text = terminal_text (&f);
  g_assert_cmpstr (text, ==, "aaa\nbbb");
  g_free (text);
  text = terminal_status (&f);
  g_assert_cmpstr (text, ==, "Exited with status 2");
  g_free (text);
  fixture_clear (&f);
}

/* A terminal named only in _meta, not in the content, shows all the same;
 * a signal that ended it is named */
static void
test_agent_terminal_meta_only (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  char *text;

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"c\",\"kind\":\"execute\","
                       "\"title\":\"Run make\",\"status\":\"in_progress\",\"rawInput\":{\"command\":\"make\"}}");
  show_row (&f, "c", NULL);
  WAIT_UNTIL (has_output_view (f.row));
  g_assert_null (find_widget (f.row, PAL_TYPE_TERMINAL_VIEW));
  g_assert_true (has_label (f.row, "Input", FALSE));

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c\","
                       "\"_meta\":{\"terminal_output_delta\":{\"data\":\"cc -c a.c\",\"terminal_id\":\"t-1\"}}}");
  WAIT_UNTIL (has_terminal_view (f.row));
  g_assert_true (has_label (f.row, "$ make", FALSE));
  g_assert_false (has_label (f.row, "Input", FALSE));
  text = terminal_text (&f);
  g_assert_cmpstr (text, ==, "cc -c a.c");
  g_free (text);

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c\",\"status\":\"failed\","
                       "\"_meta\":{\"terminal_exit\":{\"exit_code\":null,\"signal\":\"SIGTERM\",\"terminal_id\":\"t-1\"}}}");
  text = terminal_status (&f);
  g_assert_cmpstr (text, ==, "Killed by signal SIGTERM");
  g_free (text);
  g_assert_cmpuint (count_widgets (f.row, PAL_TYPE_TERMINAL_VIEW), ==, 1);

  fixture_clear (&f);
}

/* Gemini CLI's command: asked for before it was announced, its output as
 * text content; the details open by themselves, as for a terminal */
static void
test_command_text_shown (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  g_autoptr(JsonNode) request = json_from_string ("{\"toolCallId\":\"run_shell_command_1\",\"status\":\"pending\","
                                                  "\"title\":\"echo line-one && printf 'no newline'\","
                                                  "\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\","
                                                  "\"text\":\"[current working directory /p] (Run a command)\"}}],"
                                                  "\"locations\":[],\"kind\":\"execute\"}", NULL);
  g_autoptr(GError) error = NULL;
  AcpToolCallItem *item;
  g_autofree char *texts = NULL;

  item = acp_transcript_merge_tool_call (f.transcript, json_node_get_object (request), &error);
  g_assert_no_error (error);
  f.row = pal_tool_call_row_new (item, NULL, "/p");
  f.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f.window), 700, 600);
  gtk_window_set_child (GTK_WINDOW (f.window), f.row);
  gtk_window_present (GTK_WINDOW (f.window));
  g_assert_true (gtk_expander_get_expanded (GTK_EXPANDER (find_widget (f.row, GTK_TYPE_EXPANDER))));

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"run_shell_command_1\","
                       "\"status\":\"completed\",\"title\":\"echo line-one && printf 'no newline'\","
                       "\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\","
                       "\"text\":\"line-one\\nno newline\"}}],\"locations\":[],\"kind\":\"execute\"}");
  WAIT_UNTIL (has_output_view (f.row));
  texts = output_texts (f.row);
  g_assert_cmpstr (texts, ==, "line-one\nno newline|");

  fixture_clear (&f);
}

/* A command's long output takes the room of a few lines, and follows
 * the end as it grows */
static void
test_long_output (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  g_autoptr(GString) update = g_string_new (NULL);
  GtkWidget *view;
  int height;

  g_string_append (update, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"long\",\"title\":\"Build\","
                           "\"status\":\"in_progress\",\"content\":[{\"type\":\"content\","
                           "\"content\":{\"type\":\"text\",\"text\":\"");
  for (guint i = 0; i < 600; i++)
    g_string_append_printf (update, "line %u\\n", i);
  g_string_append (update, "\"}}]}");
  apply (f.transcript, update->str);
  show_row (&f, "long", NULL);
  WAIT_UNTIL (has_output_view (f.row));
  view = find_widget (f.row, PAL_TYPE_OUTPUT_VIEW);
  g_assert_true (pal_output_view_get_follow (PAL_OUTPUT_VIEW (view)));

  /* six hundred lines, in about twenty lines' room with the header */
  gtk_widget_measure (f.row, GTK_ORIENTATION_VERTICAL, 700, NULL, &height, NULL, NULL);
  g_assert_cmpint (height, <, 600);

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"long\",\"status\":\"completed\"}");
  g_assert_false (pal_output_view_get_follow (PAL_OUTPUT_VIEW (view)));
  g_assert_cmpuint (count_widgets (f.row, PAL_TYPE_OUTPUT_VIEW), ==, 1);

  fixture_clear (&f);
}

/* Claude's Markdown: the command in backticks in the title, a file or an
 * output fenced, text with emphasis */
static void
test_markdown (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  GtkLabel *title = NULL;
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"md\",\"title\":\"`ls -la` in **src**\","
                       "\"kind\":\"read\",\"status\":\"completed\",\"content\":["
                       "{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"```c\\nint *p;\\n**not bold**\\n```\"}},"
                       "{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"Some **bold** text\\nline two\"}}]}");
  show_row (&f, "md", NULL);
  WAIT_UNTIL (has_output_view (f.row));

  collect (f.row, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), "ls -la in src"))
      title = g_ptr_array_index (labels, i);
  g_assert_nonnull (title);
  g_assert_true (gtk_label_get_use_markup (title));
  g_assert_cmpstr (gtk_label_get_label (title), ==,
                   "<span font_family=\"monospace\" insert_hyphens=\"false\">ls -la</span> in <b>src</b>");

  collect (f.row, PAL_TYPE_OUTPUT_VIEW, views);
  g_assert_cmpuint (views->len, ==, 2);
  {
    g_autofree char *code = pal_output_view_dup_text (g_ptr_array_index (views, 0));
    g_autofree char *text = pal_output_view_dup_text (g_ptr_array_index (views, 1));

    /* the code as it is, without its fence */
    g_assert_cmpstr (code, ==, "int *p;\n**not bold**");
    g_assert_false (PAL_IS_MARKDOWN_TEXT (pal_output_view_get_text_view (g_ptr_array_index (views, 0))));
    /* the text rendered, its lines kept */
    g_assert_cmpstr (text, ==, "Some bold text\nline two");
    g_assert_true (PAL_IS_MARKDOWN_TEXT (pal_output_view_get_text_view (g_ptr_array_index (views, 1))));
  }

  fixture_clear (&f);
}

/* The header follows the item: the title (or the tool's name), the kind's
 * icon, the status */
static void
test_header_follows (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  AcpToolCallItem *item;
  GtkWidget *kind_image;

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"h\","
                       "\"rawInput\":{\"pattern\":\"x\"}}");
  show_row (&f, "h", NULL);
  item = acp_transcript_lookup_tool_call (f.transcript, "h");
  kind_image = find_widget (f.row, GTK_TYPE_IMAGE);
  g_assert_true (has_label (f.row, "Tool call", FALSE));
  g_assert_true (has_label (f.row, "Pending", FALSE));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (kind_image)), ==, "applications-system-symbolic");

  /* the tool's name, while there is no title; markup in it is text */
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"h\",\"name\":\"<grep>\"}");
  g_assert_true (has_label (f.row, "<grep>", FALSE));

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"h\",\"title\":\"Search `src`\","
                       "\"kind\":\"search\",\"status\":\"in_progress\"}");
  g_assert_true (has_label (f.row, "Search src", FALSE));
  g_assert_false (has_label (f.row, "<grep>", FALSE));
  g_assert_true (has_label (f.row, "Running", FALSE));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (kind_image)), ==, "system-search-symbolic");

  acp_tool_call_item_stop (item);
  g_assert_true (has_label (f.row, "Interrupted", FALSE));
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"h\",\"status\":\"failed\"}");
  g_assert_true (has_label (f.row, "Failed", FALSE));
  g_assert_false (has_label (f.row, "Interrupted", FALSE));
  g_assert_true (gtk_widget_has_css_class (f.row, "failed"));

  fixture_clear (&f);
}

/* A tool call the person refused ends "failed": it says "Rejected", not
 * "Failed", and is not marked as an error; allowed after all, it is what
 * the agent says again */
static void
test_rejected (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };
  AcpToolCallItem *item;
  GtkWidget *status_image = NULL;
  g_autoptr(GPtrArray) images = g_ptr_array_new ();

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"r\",\"title\":\"Edit hello.c\","
                       "\"kind\":\"edit\",\"status\":\"pending\",\"rawInput\":{\"path\":\"hello.c\"}}");
  show_row (&f, "r", NULL);
  item = acp_transcript_lookup_tool_call (f.transcript, "r");

  acp_tool_call_item_set_rejected (item, TRUE);
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"r\",\"status\":\"failed\"}");
  g_assert_true (has_label (f.row, "Rejected", FALSE));
  g_assert_false (has_label (f.row, "Failed", FALSE));
  g_assert_false (gtk_widget_has_css_class (f.row, "failed"));
  g_assert_true (gtk_widget_has_css_class (f.row, "rejected"));
  collect (f.row, GTK_TYPE_IMAGE, images);
  for (guint i = 0; i < images->len; i++)
    if (g_strcmp0 (gtk_image_get_icon_name (g_ptr_array_index (images, i)), "action-unavailable-symbolic") == 0)
      status_image = g_ptr_array_index (images, i);
  g_assert_nonnull (status_image);

  acp_tool_call_item_set_rejected (item, FALSE);
  g_assert_true (has_label (f.row, "Failed", FALSE));
  g_assert_true (gtk_widget_has_css_class (f.row, "failed"));
  g_assert_false (gtk_widget_has_css_class (f.row, "rejected"));
  fixture_clear (&f);

  /* refused, and left without a status when its turn ended */
  f.transcript = acp_transcript_new ();
  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"s\",\"title\":\"Edit\","
                       "\"kind\":\"edit\",\"status\":\"pending\",\"rawInput\":{\"path\":\"a.c\"}}");
  show_row (&f, "s", NULL);
  item = acp_transcript_lookup_tool_call (f.transcript, "s");
  acp_tool_call_item_set_rejected (item, TRUE);
  acp_tool_call_item_stop (item);
  g_assert_true (has_label (f.row, "Rejected", FALSE));
  g_assert_false (has_label (f.row, "Interrupted", FALSE));

  fixture_clear (&f);
}

/* Content blocks that are not text are named: an image by its type, a
 * link by its address, a type this version does not know by its name */
static void
test_content_blocks_named (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"b\",\"title\":\"Fetch\","
                       "\"status\":\"completed\",\"content\":["
                       "{\"type\":\"content\",\"content\":{\"type\":\"image\",\"data\":\"AA==\","
                       "\"mimeType\":\"image/png\"}},"
                       "{\"type\":\"content\",\"content\":{\"type\":\"resource_link\","
                       "\"uri\":\"https://example.org/a\",\"name\":\"a\"}},"
                       "{\"type\":\"content\",\"content\":{\"type\":\"video\"}},"
                       "{\"type\":\"content\",\"content\":{\"type\":\"image\",\"data\":\"AA==\"}}]}");
  show_row (&f, "b", NULL);

  g_assert_true (has_label (f.row, "Image (image/png)", FALSE));
  g_assert_true (has_label (f.row, "📎 https://example.org/a", FALSE));
  g_assert_true (has_label (f.row, "Content of type “video”", FALSE));
  /* an image without its MIME type is not one: left out */
  g_assert_cmpuint (g_list_model_get_n_items (acp_tool_call_item_get_content (
                      acp_transcript_lookup_tool_call (f.transcript, "b"))), ==, 3);

  fixture_clear (&f);
}

/* A screen reader names the row after its title and its status, as they
 * change, and its expander "Details" */
static void
test_accessible_name (void)
{
  Fixture f = { acp_transcript_new (), NULL, NULL };

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"n\",\"title\":\"Edit\","
                       "\"kind\":\"edit\",\"status\":\"pending\",\"rawInput\":{\"path\":\"hello.c\"}}");
  show_row (&f, "n", NULL);
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (f.row), GTK_ACCESSIBLE_ROLE_GROUP));
  gtk_test_accessible_assert_property (f.row, GTK_ACCESSIBLE_PROPERTY_LABEL, "Tool call: Edit, Pending");

  apply (f.transcript, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"n\","
                       "\"title\":\"Edit hello.c\",\"status\":\"completed\"}");
  gtk_test_accessible_assert_property (f.row, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Tool call: Edit hello.c, Completed");
  gtk_test_accessible_assert_property (find_widget (f.row, GTK_TYPE_EXPANDER),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Details");

  fixture_clear (&f);
}

int
main (int   argc,
      char *argv[])
{
  /* accessible names and roles kept, for the tests to read */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/tool-call-row/raw-only", test_raw_only);
  g_test_add_func ("/tool-call-row/accessible-name", test_accessible_name);
  g_test_add_func ("/tool-call-row/raw-output-beside-content", test_raw_output_beside_content);
  g_test_add_func ("/tool-call-row/agent-terminal", test_agent_terminal);
  g_test_add_func ("/tool-call-row/agent-terminal/streamed", test_agent_terminal_streamed);
  g_test_add_func ("/tool-call-row/agent-terminal/closed", test_agent_terminal_closed);
  g_test_add_func ("/tool-call-row/agent-terminal/meta-only", test_agent_terminal_meta_only);
  g_test_add_func ("/tool-call-row/command-text-shown", test_command_text_shown);
  g_test_add_func ("/tool-call-row/long-output", test_long_output);
  g_test_add_func ("/tool-call-row/markdown", test_markdown);
  g_test_add_func ("/tool-call-row/header-follows", test_header_follows);
  g_test_add_func ("/tool-call-row/rejected", test_rejected);
  g_test_add_func ("/tool-call-row/content-blocks-named", test_content_blocks_named);

  return g_test_run ();
}
