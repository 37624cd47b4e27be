/* pal-output-view.c: a tool's output, a few lines high, scrolled within
 *
 * A command may print thousands of lines, a tool may return a whole file:
 * laid out in full, one output would fill the chat many times over. This
 * view shows PAL_OUTPUT_VIEW_LINES lines of it and scrolls within; "Show
 * All" lays it out whole, "Copy" puts it on the clipboard. While it
 * follows (a command still running), the end of the output stays in view,
 * unless the person scrolled up in it.
 *
 * The text view is not scrollable itself here: it is as tall as its text,
 * in a viewport (a PalTextView keeps its height up with its text, which a
 * scrolled text view would not do when frames are always due). Scrolling
 * on past either end of the output scrolls the chat around it, so that the
 * wheel does not stop at every output on the way.
 *
 * A long line of plain output shows in pieces (pal-line-cut.c), so that one
 * that grows without end does not make every frame slower than the last.
 * Where plain output wraps, no hyphen is added: it is code, paths and
 * addresses, where a hyphen would read as part of them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-line-cut.h"
#include "pal-output-view.h"
#include "pal-text-view.h"

/* Bytes: a longer text is cut (the item keeps all of it) */
#define MAX_TEXT_SHOWN  (256 * 1024)
/* Characters: appended output beyond this drops its oldest part */
#define MAX_CHARS_KEPT  (256 * 1024)
/* Pixels: the height of the lines before the view is laid out */
#define LINE_GUESS      18
/* Pixels: between the output and the footer */
#define FOOTER_SPACING  2
/* Pixels: a scroll of the wheel past the end scrolls the chat that much
 * per unit, about what GTK's own step is in a window of some height */
#define WHEEL_STEP      64
/* The tag of plain output: never hyphenated where it wraps */
#define PLAIN_TAG       "plain"

struct _PalOutputView
{
  GtkWidget          parent_instance;


  GtkScrolledWindow *scroller;
  GtkTextView       *text_view;
  GtkWidget         *footer;
  GtkLabel          *note_label;
  GtkWidget         *show_all_button;
  GtkWidget         *copy_button;
  gboolean           plain;       /* an output as it is, not rendered text */
  gboolean           follow;
  gboolean           at_end;      /* the end is in view, or was before the text grew */
  gboolean           expanded;
  gboolean           overflows;
  int                cap;         /* pixels: the height of the lines shown */
  guint              update_id;
};

enum {
  PROP_0,
  PROP_FOLLOW,
  PROP_EXPANDED,
  PROP_OVERFLOWS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PalOutputView, pal_output_view, GTK_TYPE_WIDGET)

static void
scroll_to_end (PalOutputView *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);

  gtk_adjustment_set_value (adjustment,
                            gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
}

static gboolean
has_text (PalOutputView *self)
{
  return gtk_text_buffer_get_char_count (gtk_text_view_get_buffer (self->text_view)) > 0;
}

/* The footer, once the layout settled: what changes while the view is
 * allocated waits until then (a resize queued then is lost) */
static gboolean
update_cb (gpointer user_data)
{
  PalOutputView *self = user_data;
  int width = gtk_widget_get_width (GTK_WIDGET (self->text_view));
  gboolean overflows = self->overflows;

  self->update_id = 0;

  if (width > 0)
    {
      int natural;

      gtk_widget_measure (GTK_WIDGET (self->text_view), GTK_ORIENTATION_VERTICAL, width,
                          NULL, &natural, NULL, NULL);
      overflows = natural > self->cap;
    }

  gtk_widget_set_visible (self->show_all_button, overflows || self->expanded);
  gtk_widget_set_visible (self->footer,
                          overflows || self->expanded ||
                          gtk_widget_get_visible (GTK_WIDGET (self->note_label)) ||
                          (self->plain && has_text (self)));

  if (overflows != self->overflows)
    {
      self->overflows = overflows;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVERFLOWS]);
    }

  return G_SOURCE_REMOVE;
}

static void
queue_update (PalOutputView *self)
{
  /* before the next frame is laid out */
  if (self->update_id == 0)
    self->update_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, update_cb, self, NULL);
}

static void
vadjustment_changed_cb (GtkAdjustment *adjustment,
                        PalOutputView *self)
{
  if (self->follow && self->at_end && !self->expanded)
    scroll_to_end (self);
  queue_update (self);
}

static void
vadjustment_value_changed_cb (GtkAdjustment *adjustment,
                              PalOutputView *self)
{
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  self->at_end = gtk_adjustment_get_value (adjustment) >= end - 1;
}

/* Past an end of the output, the wheel scrolls the chat */
static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           PalOutputView            *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  double value = gtk_adjustment_get_value (adjustment);
  GtkWidget *outer;
  GtkAdjustment *outer_adjustment;
  double step = dy;

  /* nothing to scroll here: GTK passes it on */
  if (dy == 0 || self->expanded ||
      gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) <= 0.5)
    return GDK_EVENT_PROPAGATE;
  if ((dy < 0 && value > gtk_adjustment_get_lower (adjustment)) ||
      (dy > 0 && value < gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 1))
    return GDK_EVENT_PROPAGATE;

  outer = gtk_widget_get_ancestor (gtk_widget_get_parent (GTK_WIDGET (self)), GTK_TYPE_SCROLLED_WINDOW);
  if (outer == NULL)
    return GDK_EVENT_PROPAGATE;

  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL)
    step *= WHEEL_STEP;
  outer_adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (outer));
  gtk_adjustment_set_value (outer_adjustment, gtk_adjustment_get_value (outer_adjustment) + step);

  return GDK_EVENT_STOP;
}

static void
apply_cap (PalOutputView *self)
{
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_NEVER,
                                  self->expanded ? GTK_POLICY_NEVER : GTK_POLICY_AUTOMATIC);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* The height of PAL_OUTPUT_VIEW_LINES lines in the text view's font */
static void
update_cap (PalOutputView *self)
{
  g_autoptr(PangoLayout) layout = NULL;
  g_autoptr(GString) lines = g_string_new ("X");
  GtkBorder padding;
  int height;

  for (guint i = 1; i < PAL_OUTPUT_VIEW_LINES; i++)
    g_string_append (lines, "\nX");
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->text_view), lines->str);
  pango_layout_get_pixel_size (layout, NULL, &height);
  gtk_style_context_get_padding (gtk_widget_get_style_context (GTK_WIDGET (self->text_view)), &padding);

  height += padding.top + padding.bottom +
            gtk_text_view_get_top_margin (self->text_view) +
            gtk_text_view_get_bottom_margin (self->text_view);
  if (height == self->cap)
    return;

  self->cap = height;
  apply_cap (self);
  queue_update (self);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  pal_output_view_copy (PAL_OUTPUT_VIEW (widget));
}

/* The layout is the view's own: the output as tall as its text, up to
 * the cap unless expanded, and the footer below. A scrolled window would
 * be at least as tall as its scrollbar can be short, taller than one line
 * of output; and as a viewport gives its child its minimum height, the
 * view's minimum height is its natural one. */
static int
scroller_height (PalOutputView *self,
                 int            width)
{
  int natural;

  gtk_widget_measure (GTK_WIDGET (self->text_view), GTK_ORIENTATION_VERTICAL, width,
                      NULL, &natural, NULL, NULL);

  return self->expanded ? natural : MIN (natural, self->cap);
}

static int
footer_height (PalOutputView *self,
               int            width)
{
  int natural;

  if (!gtk_widget_get_visible (self->footer))
    return 0;
  gtk_widget_measure (self->footer, GTK_ORIENTATION_VERTICAL, width, NULL, &natural, NULL, NULL);

  return natural;
}

static void
pal_output_view_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  PalOutputView *self = PAL_OUTPUT_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int footer_min = 0, footer_nat = 0;

      gtk_widget_measure (GTK_WIDGET (self->scroller), orientation, -1, minimum, natural, NULL, NULL);
      if (gtk_widget_get_visible (self->footer))
        gtk_widget_measure (self->footer, orientation, -1, &footer_min, &footer_nat, NULL, NULL);
      *minimum = MAX (*minimum, footer_min);
      *natural = MAX (*natural, footer_nat);
    }
  else
    {
      int footer = footer_height (self, for_size);

      *minimum = *natural = scroller_height (self, for_size) + (footer > 0 ? FOOTER_SPACING + footer : 0);
    }
}

static GtkSizeRequestMode
pal_output_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
pal_output_view_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  PalOutputView *self = PAL_OUTPUT_VIEW (widget);
  int footer = footer_height (self, width);
  int output = MAX (height - (footer > 0 ? FOOTER_SPACING + footer : 0), 0);

  gtk_widget_allocate (GTK_WIDGET (self->scroller), width, output, -1, NULL);
  if (footer > 0)
    gtk_widget_allocate (self->footer, width, footer, -1,
                         gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, output + FOOTER_SPACING)));
}

static void
pal_output_view_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (pal_output_view_parent_class)->realize (widget);

  update_cap (PAL_OUTPUT_VIEW (widget));
}

static void
pal_output_view_dispose (GObject *object)
{
  PalOutputView *self = PAL_OUTPUT_VIEW (object);

  g_clear_handle_id (&self->update_id, g_source_remove);
  if (self->scroller != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->scroller));
      self->scroller = NULL;
    }
  g_clear_pointer (&self->footer, gtk_widget_unparent);

  G_OBJECT_CLASS (pal_output_view_parent_class)->dispose (object);
}

static void
pal_output_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PalOutputView *self = PAL_OUTPUT_VIEW (object);

  switch (prop_id)
    {
    case PROP_FOLLOW:
      g_value_set_boolean (value, self->follow);
      break;

    case PROP_EXPANDED:
      g_value_set_boolean (value, self->expanded);
      break;

    case PROP_OVERFLOWS:
      g_value_set_boolean (value, self->overflows);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_output_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PalOutputView *self = PAL_OUTPUT_VIEW (object);

  switch (prop_id)
    {
    case PROP_FOLLOW:
      pal_output_view_set_follow (self, g_value_get_boolean (value));
      break;

    case PROP_EXPANDED:
      pal_output_view_set_expanded (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_output_view_class_init (PalOutputViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_output_view_dispose;
  object_class->get_property = pal_output_view_get_property;
  object_class->set_property = pal_output_view_set_property;

  widget_class->get_request_mode = pal_output_view_get_request_mode;
  widget_class->measure = pal_output_view_measure;
  widget_class->size_allocate = pal_output_view_size_allocate;
  widget_class->realize = pal_output_view_realize;

  /* keep the end in view as the output grows (unless scrolled up) */
  properties[PROP_FOLLOW] =
    g_param_spec_boolean ("follow", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* all of the output laid out, not PAL_OUTPUT_VIEW_LINES of it */
  properties[PROP_EXPANDED] =
    g_param_spec_boolean ("expanded", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* the output has more lines than are shown unless expanded */
  properties[PROP_OVERFLOWS] =
    g_param_spec_boolean ("overflows", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "output.copy", NULL, copy_action);
  gtk_widget_class_install_property_action (widget_class, "output.show-all", "expanded");

  gtk_widget_class_set_css_name (widget_class, "outputview");
}

static void
expanded_changed_cb (PalOutputView *self)
{
  gtk_button_set_label (GTK_BUTTON (self->show_all_button),
                        self->expanded ? _("Show Less") : _("Show All"));
}

static void
pal_output_view_init (PalOutputView *self)
{
  GtkWidget *viewport = gtk_viewport_new (NULL, NULL);
  GtkEventController *controller;
  GtkAdjustment *vadjustment;

  self->cap = PAL_OUTPUT_VIEW_LINES * LINE_GUESS;
  self->at_end = TRUE;

  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (viewport), FALSE);
  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_child (self->scroller, viewport);
  apply_cap (self);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->scroller), controller);

  vadjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect (vadjustment, "changed", G_CALLBACK (vadjustment_changed_cb), self);
  g_signal_connect (vadjustment, "value-changed", G_CALLBACK (vadjustment_value_changed_cb), self);

  self->note_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->note_label, 0);
  gtk_label_set_wrap (self->note_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->note_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->note_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), FALSE);

  self->show_all_button = gtk_toggle_button_new_with_label (_("Show All"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->show_all_button), "output.show-all");
  gtk_widget_add_css_class (self->show_all_button, "flat");
  gtk_widget_set_visible (self->show_all_button, FALSE);
  g_signal_connect_swapped (self, "notify::expanded", G_CALLBACK (expanded_changed_cb), self);

  self->copy_button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->copy_button), "output.copy");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copy"), -1);
  gtk_widget_add_css_class (self->copy_button, "flat");

  self->footer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_add_css_class (self->footer, "output-footer");
  gtk_box_append (GTK_BOX (self->footer), GTK_WIDGET (self->note_label));
  gtk_box_append (GTK_BOX (self->footer), self->show_all_button);
  gtk_box_append (GTK_BOX (self->footer), self->copy_button);
  /* at the end, under the scrollbar */
  gtk_widget_set_halign (self->footer, GTK_ALIGN_END);
  gtk_widget_set_visible (self->footer, FALSE);

  gtk_widget_set_parent (GTK_WIDGET (self->scroller), GTK_WIDGET (self));
  gtk_widget_set_parent (self->footer, GTK_WIDGET (self));
}

/* A selection of plain output copied leaves the cuts out too */
static void
copy_clipboard_cb (GtkTextView   *text_view,
                   PalOutputView *self)
{
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  if (!gtk_text_buffer_get_selection_bounds (gtk_text_view_get_buffer (text_view), &start, &end))
    return;

  text = pal_line_cut_dup_uncut (&start, &end);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (text_view)), text);
  g_signal_stop_emission_by_name (text_view, "copy-clipboard");
}

static void
set_view (PalOutputView *self,
          GtkWidget     *text_view)
{
  GtkWidget *viewport = gtk_scrolled_window_get_child (self->scroller);

  self->text_view = GTK_TEXT_VIEW (text_view);
  gtk_widget_add_css_class (text_view, "tool-output");
  gtk_viewport_set_child (GTK_VIEWPORT (viewport), text_view);
  g_signal_connect_object (gtk_text_view_get_buffer (self->text_view), "changed",
                           G_CALLBACK (queue_update), self, G_CONNECT_SWAPPED);
}

/**
 * pal_output_view_new:
 *
 * Returns: (transfer floating): a view of plain output, in a monospace font
 */
GtkWidget *
pal_output_view_new (void)
{
  PalOutputView *self = g_object_new (PAL_TYPE_OUTPUT_VIEW, NULL);
  GtkWidget *view = pal_text_view_new ();

  self->plain = TRUE;
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  /* nothing to undo in a view: the history would keep all output twice */
  gtk_text_buffer_set_enable_undo (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_create_tag (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), PLAIN_TAG,
                              "insert-hyphens", FALSE, NULL);
  g_signal_connect_object (view, "copy-clipboard", G_CALLBACK (copy_clipboard_cb), self, 0);
  set_view (self, view);

  return GTK_WIDGET (self);
}

/**
 * pal_output_view_new_with_view:
 * @text_view: (transfer floating): a text view that is as tall as its text
 *   (a #PalTextView, say a #PalMarkdownView)
 *
 * Returns: (transfer floating): a view of what @text_view shows
 */
GtkWidget *
pal_output_view_new_with_view (GtkWidget *text_view)
{
  PalOutputView *self;

  g_return_val_if_fail (GTK_IS_TEXT_VIEW (text_view), NULL);

  self = g_object_new (PAL_TYPE_OUTPUT_VIEW, NULL);
  set_view (self, text_view);

  return GTK_WIDGET (self);
}

GtkTextView *
pal_output_view_get_text_view (PalOutputView *self)
{
  g_return_val_if_fail (PAL_IS_OUTPUT_VIEW (self), NULL);

  return self->text_view;
}

static void
set_note (PalOutputView *self,
          const char    *note)
{
  gtk_label_set_text (self->note_label, note);
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), note != NULL);
  queue_update (self);
}

/* Puts @text (@length bytes) in the buffer, in place of what it holds or
 * after it, cut if it is plain output */
static void
insert_text (PalOutputView *self,
             const char    *text,
             gsize          length,
             gboolean       replace)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  g_autofree char *cut = NULL;
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  if (self->plain)
    cut = pal_line_cut_text (text, length, replace ? 0 : gtk_text_iter_get_line_offset (&end));
  if (cut != NULL)
    {
      text = cut;
      length = strlen (cut);
    }

  if (replace)
    {
      gtk_text_buffer_set_text (buffer, "", 0);
      gtk_text_buffer_get_end_iter (buffer, &end);
    }
  if (self->plain)
    gtk_text_buffer_insert_with_tags_by_name (buffer, &end, text, (int) length, PLAIN_TAG, NULL);
  else
    gtk_text_buffer_insert (buffer, &end, text, (int) length);
}

/**
 * pal_output_view_set_text:
 * @self: a #PalOutputView
 * @text: the output
 * @length: its length in bytes, or -1 when nul-terminated
 *
 * Replaces the output. Beyond MAX_TEXT_SHOWN bytes it is cut, and a note
 * says how much is not shown.
 */
void
pal_output_view_set_text (PalOutputView *self,
                          const char    *text,
                          gssize         length)
{
  gsize size;

  g_return_if_fail (PAL_IS_OUTPUT_VIEW (self));
  g_return_if_fail (text != NULL || length == 0);

  size = length < 0 ? strlen (text) : (gsize) length;

  if (size > MAX_TEXT_SHOWN)
    {
      const char *cut = g_utf8_find_prev_char (text, text + MAX_TEXT_SHOWN + 1);
      g_autofree char *more = NULL;
      g_autofree char *note = NULL;

      if (cut == NULL)
        cut = text;
      more = g_format_size (size - (gsize) (cut - text));
      /* Translators: %s is a size such as “3.2 MB” */
      note = g_strdup_printf (_("%s more not shown"), more);
      insert_text (self, text, (gsize) (cut - text), TRUE);
      set_note (self, note);
    }
  else
    {
      insert_text (self, text != NULL ? text : "", size, TRUE);
      set_note (self, NULL);
    }
}

/**
 * pal_output_view_append:
 * @self: a #PalOutputView
 * @text: more output
 * @length: its length in bytes, or -1 when nul-terminated
 *
 * Adds to the end of the output. Beyond MAX_CHARS_KEPT characters the
 * oldest output goes, and a note says so.
 */
void
pal_output_view_append (PalOutputView *self,
                        const char    *text,
                        gssize         length)
{
  GtkTextBuffer *buffer;
  int excess;

  g_return_if_fail (PAL_IS_OUTPUT_VIEW (self));
  g_return_if_fail (text != NULL || length == 0);

  buffer = gtk_text_view_get_buffer (self->text_view);
  insert_text (self, text, length < 0 ? strlen (text) : (gsize) length, FALSE);

  excess = gtk_text_buffer_get_char_count (buffer) - MAX_CHARS_KEPT;
  if (excess > 0)
    {
      GtkTextIter start, cut;

      gtk_text_buffer_get_start_iter (buffer, &start);
      gtk_text_buffer_get_iter_at_offset (buffer, &cut, excess);
      gtk_text_buffer_delete (buffer, &start, &cut);
      set_note (self, _("Earlier output not shown"));
    }
}

/**
 * pal_output_view_update_text:
 * @self: a #PalOutputView
 * @text: the whole output so far
 *
 * Shows @text, as pal_output_view_set_text() does, but when it continues
 * what is shown (an output sent again and again as it grows), only what
 * is new is added: the view keeps its scroll, and the text is not laid
 * out anew. A line break that ends @text shows no empty line.
 */
void
pal_output_view_update_text (PalOutputView *self,
                             const char    *text)
{
  g_autofree char *shown = NULL;
  gsize length;

  g_return_if_fail (PAL_IS_OUTPUT_VIEW (self));
  g_return_if_fail (text != NULL);

  length = strlen (text);
  if (length > 0 && text[length - 1] == '\n')
    length--;

  shown = pal_output_view_dup_text (self);
  if (strlen (shown) == length && strncmp (shown, text, length) == 0)
    return;

  if (*shown != '\0' && strlen (shown) < length && strncmp (text, shown, strlen (shown)) == 0)
    pal_output_view_append (self, text + strlen (shown), (gssize) (length - strlen (shown)));
  else
    pal_output_view_set_text (self, text, (gssize) length);
}

/**
 * pal_output_view_dup_text:
 * @self: a #PalOutputView
 *
 * Returns: (transfer full): the text shown, without the cuts of its long
 *   lines
 */
char *
pal_output_view_dup_text (PalOutputView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (PAL_IS_OUTPUT_VIEW (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  if (self->plain)
    return pal_line_cut_dup_uncut (&start, &end);

  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

gboolean
pal_output_view_get_follow (PalOutputView *self)
{
  g_return_val_if_fail (PAL_IS_OUTPUT_VIEW (self), FALSE);

  return self->follow;
}

/**
 * pal_output_view_set_follow:
 * @self: a #PalOutputView
 * @follow: whether to keep the end of the output in view as it grows
 *
 * Following starts at the end; scrolling up stops it until the person
 * scrolls back down to the end.
 */
void
pal_output_view_set_follow (PalOutputView *self,
                            gboolean       follow)
{
  g_return_if_fail (PAL_IS_OUTPUT_VIEW (self));

  follow = !!follow;
  if (follow == self->follow)
    return;

  self->follow = follow;
  if (follow)
    {
      self->at_end = TRUE;
      scroll_to_end (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW]);
}

gboolean
pal_output_view_get_expanded (PalOutputView *self)
{
  g_return_val_if_fail (PAL_IS_OUTPUT_VIEW (self), FALSE);

  return self->expanded;
}

void
pal_output_view_set_expanded (PalOutputView *self,
                              gboolean       expanded)
{
  g_return_if_fail (PAL_IS_OUTPUT_VIEW (self));

  expanded = !!expanded;
  if (expanded == self->expanded)
    return;

  self->expanded = expanded;
  apply_cap (self);
  queue_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPANDED]);
}

/**
 * pal_output_view_get_overflows:
 * @self: a #PalOutputView
 *
 * Returns: whether the output has more lines than the view shows unless
 *   expanded (known once the view was laid out)
 */
gboolean
pal_output_view_get_overflows (PalOutputView *self)
{
  g_return_val_if_fail (PAL_IS_OUTPUT_VIEW (self), FALSE);

  return self->overflows;
}

/**
 * pal_output_view_copy:
 * @self: a #PalOutputView
 *
 * Puts the text shown on the clipboard.
 */
void
pal_output_view_copy (PalOutputView *self)
{
  g_autofree char *text = NULL;

  g_return_if_fail (PAL_IS_OUTPUT_VIEW (self));

  text = pal_output_view_dup_text (self);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}
