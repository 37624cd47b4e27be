/* pal-code-view.c: code, highlighted, in the style scheme of the light or dark style
 *
 * A read-only GtkSourceView for a code block or a diff: monospace, lines
 * not wrapped (its parent scrolls it sideways) unless it is told to wrap,
 * and then never hyphenated, highlighted by its language in the style
 * scheme that matches the style of the window: Adwaita's, light or dark,
 * followed as the style changes.
 *
 * A diff is not highlighted by GtkSourceView's "diff" language, whose
 * colours are the text's (Adwaita's red on white is 3:1, too faint to
 * read): the lines keep the text colour, and the background of each added,
 * removed, location or file line is tinted with the colour the style
 * scheme gives that kind of line.
 *
 * Like a PalTextView, it keeps its height with its text when frames are
 * always due (see pal-text-view.c): a code block grows in the frame its
 * lines came. Its scroller (pal_code_view_new_scroller ()) scrolls it
 * sideways, and passes the wheel up and down on to the chat around it:
 * GTK 4.8's scrolled window keeps those too, though it cannot scroll that
 * way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "pal-code-view.h"
#include "pal-text-view-private.h"

/* Pixels: a step of the wheel over the code scrolls the chat that much,
 * as over a tool's output (pal-output-view.c) */
#define WHEEL_STEP 64

/* How much of a diff line's colour tints its background */
#define TINT_LIGHT 0.16
#define TINT_DARK  0.22

struct _PalCodeView
{
  GtkSourceView  parent_instance;

  PalTextHeight  height;
  GString       *text;      /* what the buffer holds */
  gboolean       diff;
};

G_DEFINE_FINAL_TYPE (PalCodeView, pal_code_view, GTK_SOURCE_TYPE_VIEW)

/* Over all of the code: where it wraps, no hyphen is added */
#define CODE_TAG "code"

/* The diff's kinds of line: a tag each, tinted by the scheme's style */
static const struct
{
  const char *tag;
  const char *style;
} diff_lines[] = {
  { "diff-added", "diff:added-line" },
  { "diff-removed", "diff:removed-line" },
  { "diff-location", "diff:location" },
  { "diff-file", "diff:diff-file" },
};

static GtkSourceBuffer *
get_buffer (PalCodeView *self)
{
  return GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self)));
}

static gboolean
line_starts_with (const char *line,
                  gsize       length,
                  const char *prefix)
{
  gsize n = strlen (prefix);

  return length >= n && memcmp (line, prefix, n) == 0;
}

/* The tag of a diff's line, by how it starts */
static const char *
diff_line_tag (const char *line,
               gsize       length)
{
  if (line_starts_with (line, length, "+++ ") || line_starts_with (line, length, "--- ") ||
      line_starts_with (line, length, "diff ") || line_starts_with (line, length, "index "))
    return "diff-file";
  if (line_starts_with (line, length, "@@"))
    return "diff-location";
  if (line_starts_with (line, length, "+"))
    return "diff-added";
  if (line_starts_with (line, length, "-"))
    return "diff-removed";

  return NULL;
}

/* Tags the lines of a diff from line @first_line on, which starts at byte
 * @from of the text */
static void
tag_diff_lines (PalCodeView *self,
                int          first_line,
                gsize        from)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (get_buffer (self));
  const char *line = self->text->str + from;

  for (int n = first_line;; n++)
    {
      const char *end = strchr (line, '\n');
      gsize length = end != NULL ? (gsize) (end - line) : strlen (line);
      const char *tag = diff_line_tag (line, length);

      if (tag != NULL)
        {
          GtkTextIter start, stop;

          gtk_text_buffer_get_iter_at_line (buffer, &start, n);
          stop = start;
          if (!gtk_text_iter_ends_line (&stop))
            gtk_text_iter_forward_to_line_end (&stop);
          gtk_text_buffer_apply_tag_by_name (buffer, tag, &start, &stop);
        }

      if (end == NULL)
        break;
      line = end + 1;
    }
}

static gboolean
is_dark (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

/* The colour the scheme gives a kind of line, thinned into a tint */
static void
update_diff_tags (PalCodeView *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (get_buffer (self));
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  GtkSourceStyleScheme *scheme = gtk_source_buffer_get_style_scheme (get_buffer (self));

  for (guint i = 0; i < G_N_ELEMENTS (diff_lines); i++)
    {
      GtkTextTag *tag = gtk_text_tag_table_lookup (table, diff_lines[i].tag);
      GtkSourceStyle *style = scheme != NULL ? gtk_source_style_scheme_get_style (scheme, diff_lines[i].style) : NULL;
      g_autofree char *color = NULL;
      gboolean color_set = FALSE;
      GdkRGBA rgba;

      if (tag == NULL)
        tag = gtk_text_buffer_create_tag (buffer, diff_lines[i].tag, NULL);
      if (style != NULL)
        g_object_get (style, "foreground", &color, "foreground-set", &color_set, NULL);

      if (color_set && color != NULL && gdk_rgba_parse (&rgba, color))
        {
          rgba.alpha = is_dark () ? TINT_DARK : TINT_LIGHT;
          g_object_set (tag, "paragraph-background-rgba", &rgba, NULL);
        }
      else
        {
          g_object_set (tag, "paragraph-background-set", FALSE, NULL);
        }
    }
}

static void
update_scheme (PalCodeView *self)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme;

  scheme = gtk_source_style_scheme_manager_get_scheme (manager, is_dark () ? PAL_CODE_VIEW_SCHEME_DARK
                                                                         : PAL_CODE_VIEW_SCHEME_LIGHT);
  /* without it (an odd installation), GtkSourceView's own default */
  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (get_buffer (self), scheme);
  if (self->diff)
    update_diff_tags (self);
}

static void
style_manager_notify_dark_cb (AdwStyleManager *manager,
                              GParamSpec      *pspec,
                              PalCodeView     *self)
{
  update_scheme (self);
}

static void
pal_code_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  PalCodeView *self = PAL_CODE_VIEW (widget);

  _pal_text_height_size_allocate (&self->height, GTK_WIDGET_CLASS (pal_code_view_parent_class),
                                  width, height, baseline);
}

static void
pal_code_view_realize (GtkWidget *widget)
{
  PalCodeView *self = PAL_CODE_VIEW (widget);

  GTK_WIDGET_CLASS (pal_code_view_parent_class)->realize (widget);
  _pal_text_height_realize (&self->height);
}

static void
pal_code_view_unrealize (GtkWidget *widget)
{
  PalCodeView *self = PAL_CODE_VIEW (widget);

  _pal_text_height_unrealize (&self->height);
  GTK_WIDGET_CLASS (pal_code_view_parent_class)->unrealize (widget);
}

static void
pal_code_view_dispose (GObject *object)
{
  PalCodeView *self = PAL_CODE_VIEW (object);

  _pal_text_height_dispose (&self->height);

  G_OBJECT_CLASS (pal_code_view_parent_class)->dispose (object);
}

static void
pal_code_view_finalize (GObject *object)
{
  PalCodeView *self = PAL_CODE_VIEW (object);

  g_string_free (self->text, TRUE);

  G_OBJECT_CLASS (pal_code_view_parent_class)->finalize (object);
}

static void
pal_code_view_class_init (PalCodeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* GtkSourceView's types, resources and search paths (once) */
  gtk_source_init ();

  object_class->dispose = pal_code_view_dispose;
  object_class->finalize = pal_code_view_finalize;

  widget_class->size_allocate = pal_code_view_size_allocate;
  widget_class->realize = pal_code_view_realize;
  widget_class->unrealize = pal_code_view_unrealize;
}

static void
pal_code_view_init (PalCodeView *self)
{
  GtkTextView *view = GTK_TEXT_VIEW (self);
  GtkSourceBuffer *buffer;

  self->text = g_string_new (NULL);
  /* before the view makes its buffer: the height keeping follows it */
  _pal_text_height_init (&self->height, view);
  buffer = get_buffer (self);

  gtk_text_view_set_editable (view, FALSE);
  gtk_text_view_set_cursor_visible (view, FALSE);
  gtk_text_view_set_monospace (view, TRUE);
  /* its parent scrolls sideways */
  gtk_text_view_set_wrap_mode (view, GTK_WRAP_NONE);
  gtk_text_view_set_left_margin (view, 10);
  gtk_text_view_set_right_margin (view, 10);
  gtk_text_view_set_top_margin (view, 8);
  gtk_text_view_set_bottom_margin (view, 8);
  gtk_text_buffer_set_enable_undo (GTK_TEXT_BUFFER (buffer), FALSE);
  gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), CODE_TAG, "insert-hyphens", FALSE, NULL);
  gtk_source_buffer_set_highlight_matching_brackets (buffer, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self), "code");

  update_scheme (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (style_manager_notify_dark_cb), self, 0);
}

/**
 * pal_code_view_new:
 *
 * Returns: (transfer floating): a new, empty view
 */
GtkWidget *
pal_code_view_new (void)
{
  return g_object_new (PAL_TYPE_CODE_VIEW, NULL);
}

/* Adds @text after what is shown */
static void
append_text (PalCodeView *self,
             const char  *text,
             gsize        size)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (get_buffer (self));
  const char *newline = g_strrstr_len (self->text->str, (gssize) self->text->len, "\n");
  /* the last line may go on: tagged anew from its start */
  gsize from = newline != NULL ? (gsize) (newline - self->text->str) + 1 : 0;
  GtkTextIter end;
  int first_line;

  gtk_text_buffer_get_end_iter (buffer, &end);
  first_line = gtk_text_iter_get_line (&end);
  gtk_text_buffer_insert_with_tags_by_name (buffer, &end, text, (int) size, CODE_TAG, NULL);
  g_string_append_len (self->text, text, (gssize) size);

  if (self->diff)
    tag_diff_lines (self, first_line, from);
}

/**
 * pal_code_view_set_text:
 * @self: a #PalCodeView
 * @text: the code (valid UTF-8)
 * @length: its length in bytes, or -1 when nul-terminated
 *
 * Shows @text. When it continues what is shown (a code block streaming
 * in), only what is new is added: nothing is highlighted or laid out anew.
 */
void
pal_code_view_set_text (PalCodeView *self,
                        const char  *text,
                        gssize       length)
{
  gsize size;

  g_return_if_fail (PAL_IS_CODE_VIEW (self));
  g_return_if_fail (text != NULL || length == 0);

  size = length < 0 ? strlen (text) : (gsize) length;
  if (size == self->text->len && memcmp (text, self->text->str, size) == 0)
    return;

  if (self->text->len > 0 && size > self->text->len &&
      memcmp (text, self->text->str, self->text->len) == 0)
    {
      append_text (self, text + self->text->len, size - self->text->len);
      return;
    }

  {
    GtkTextBuffer *buffer = GTK_TEXT_BUFFER (get_buffer (self));
    GtkTextIter start;

    gtk_text_buffer_set_text (buffer, "", 0);
    gtk_text_buffer_get_start_iter (buffer, &start);
    gtk_text_buffer_insert_with_tags_by_name (buffer, &start, text, (int) size, CODE_TAG, NULL);
  }
  g_string_truncate (self->text, 0);
  g_string_append_len (self->text, text, (gssize) size);
  if (self->diff)
    tag_diff_lines (self, 0, 0);
}

/**
 * pal_code_view_get_text:
 * @self: a #PalCodeView
 *
 * Returns: the code shown
 */
const char *
pal_code_view_get_text (PalCodeView *self)
{
  g_return_val_if_fail (PAL_IS_CODE_VIEW (self), NULL);

  return self->text->str;
}

/**
 * pal_code_view_set_language:
 * @self: a #PalCodeView
 * @language: (nullable): how to highlight the code
 */
void
pal_code_view_set_language (PalCodeView       *self,
                            GtkSourceLanguage *language)
{
  g_return_if_fail (PAL_IS_CODE_VIEW (self));
  g_return_if_fail (language == NULL || GTK_SOURCE_IS_LANGUAGE (language));

  if (gtk_source_buffer_get_language (get_buffer (self)) != language)
    gtk_source_buffer_set_language (get_buffer (self), language);
}

GtkSourceLanguage *
pal_code_view_get_language (PalCodeView *self)
{
  g_return_val_if_fail (PAL_IS_CODE_VIEW (self), NULL);

  return gtk_source_buffer_get_language (get_buffer (self));
}

/**
 * pal_code_view_set_diff:
 * @self: a #PalCodeView
 * @diff: whether the text is a unified diff, whose lines are tinted by
 *   their kind (see the top of the file)
 */
void
pal_code_view_set_diff (PalCodeView *self,
                        gboolean     diff)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_if_fail (PAL_IS_CODE_VIEW (self));

  diff = !!diff;
  if (diff == self->diff)
    return;

  self->diff = diff;
  buffer = GTK_TEXT_BUFFER (get_buffer (self));
  if (diff)
    {
      pal_code_view_set_language (self, NULL);
      update_diff_tags (self);
      tag_diff_lines (self, 0, 0);
      return;
    }

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  for (guint i = 0; i < G_N_ELEMENTS (diff_lines); i++)
    gtk_text_buffer_remove_tag_by_name (buffer, diff_lines[i].tag, &start, &end);
}

gboolean
pal_code_view_get_diff (PalCodeView *self)
{
  g_return_val_if_fail (PAL_IS_CODE_VIEW (self), FALSE);

  return self->diff;
}

/**
 * pal_code_view_get_scheme:
 * @self: a #PalCodeView
 *
 * Returns: (transfer none) (nullable): the style scheme it is shown in
 */
GtkSourceStyleScheme *
pal_code_view_get_scheme (PalCodeView *self)
{
  g_return_val_if_fail (PAL_IS_CODE_VIEW (self), NULL);

  return gtk_source_buffer_get_style_scheme (get_buffer (self));
}

/* The first word of a fence's info string, lower case: "python" of
 * "Python title=x.py" */
static char *
info_word (const char *info)
{
  const char *end;

  if (info == NULL)
    return NULL;
  while (g_ascii_isspace (*info))
    info++;
  for (end = info; *end != '\0' && !g_ascii_isspace (*end) && *end != '{' && *end != ','; end++)
    ;
  if (end == info)
    return NULL;

  return g_ascii_strdown (info, end - info);
}

/**
 * pal_code_view_is_diff_info:
 * @info: (nullable): the info string of a code fence
 *
 * Returns: whether the code block says it is a diff or a patch
 */
gboolean
pal_code_view_is_diff_info (const char *info)
{
  g_autofree char *word = info_word (info);

  return word != NULL && (g_str_equal (word, "diff") || g_str_equal (word, "patch") ||
                          g_str_equal (word, "udiff"));
}

/**
 * pal_code_view_guess_language:
 * @info: (nullable): the info string of a code fence: a language's name
 *   ("python", "c++"), one of its usual aliases ("py", "bash", "ts"), or
 *   a file name ("main.rs")
 *
 * Returns: (transfer none) (nullable): the language of the code, %NULL
 *   when it says none that is known
 */
GtkSourceLanguage *
pal_code_view_guess_language (const char *info)
{
  /* what agents write after the fence, where it is not the language's id */
  static const struct { const char *alias; const char *id; } aliases[] = {
    { "bash", "sh" }, { "shell", "sh" }, { "zsh", "sh" }, { "ksh", "sh" }, { "console", "sh" },
    { "shellsession", "sh" }, { "sh-session", "sh" }, { "terminal", "sh" },
    { "py", "python3" }, { "python", "python3" }, { "py3", "python3" },
    { "javascript", "js" }, { "node", "js" }, { "mjs", "js" }, { "cjs", "js" },
    { "ts", "typescript" }, { "tsx", "typescript-jsx" },
    { "c++", "cpp" }, { "cxx", "cpp" }, { "cc", "cpp" }, { "hpp", "cpp" }, { "h", "c" },
    { "cs", "c-sharp" }, { "csharp", "c-sharp" }, { "rs", "rust" }, { "golang", "go" },
    { "yml", "yaml" }, { "dockerfile", "docker" }, { "make", "makefile" }, { "md", "markdown" },
    { "patch", "diff" }, { "udiff", "diff" }, { "jsonc", "json" }, { "json5", "json" },
    { "rb", "ruby" }, { "kt", "kotlin" }, { "pl", "perl" }, { "ps1", "powershell" },
    { "tf", "terraform" }, { "protobuf", "proto" }, { "objective-c", "objc" }, { "htm", "html" },
  };
  GtkSourceLanguageManager *manager;
  g_autofree char *word = info_word (info);
  g_autofree char *file_name = NULL;
  GtkSourceLanguage *language;

  if (word == NULL)
    return NULL;

  manager = gtk_source_language_manager_get_default ();
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    {
      if (g_str_equal (word, aliases[i].alias))
        return gtk_source_language_manager_get_language (manager, aliases[i].id);
    }

  language = gtk_source_language_manager_get_language (manager, word);
  if (language != NULL && !gtk_source_language_get_hidden (language))
    return language;

  /* an extension ("kt") or a file name ("Makefile", "main.rs") */
  file_name = strchr (word, '.') != NULL ? g_strdup (word) : g_strconcat ("code.", word, NULL);
  language = gtk_source_language_manager_guess_language (manager, file_name, NULL);
  if (language == NULL)
    language = gtk_source_language_manager_guess_language (manager, word, NULL);

  return language;
}

/* The wheel up or down over the code scrolls what is around it; sideways
 * (or with Shift) it scrolls the code */
static gboolean
scroller_scroll_cb (GtkEventControllerScroll *controller,
                    double                    dx,
                    double                    dy,
                    GtkWidget                *scroller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *outer;
  GtkAdjustment *adjustment;

  if (dy == 0 || dx != 0 || (state & GDK_SHIFT_MASK) != 0)
    return GDK_EVENT_PROPAGATE;

  outer = gtk_widget_get_ancestor (gtk_widget_get_parent (scroller), GTK_TYPE_SCROLLED_WINDOW);
  if (outer == NULL)
    return GDK_EVENT_PROPAGATE;

  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL)
    dy *= WHEEL_STEP;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (outer));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + dy);

  return GDK_EVENT_STOP;
}

/**
 * pal_code_view_new_scroller:
 * @self: a #PalCodeView, without a parent
 *
 * Returns: (transfer floating): a scrolled window that scrolls @self
 *   sideways and is as tall as its lines (see the top of the file)
 */
GtkWidget *
pal_code_view_new_scroller (PalCodeView *self)
{
  GtkWidget *scroller;
  GtkEventController *controller;

  g_return_val_if_fail (PAL_IS_CODE_VIEW (self), NULL);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroller_scroll_cb), scroller);
  gtk_widget_add_controller (scroller, controller);

  return scroller;
}
