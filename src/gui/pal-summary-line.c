/* pal-summary-line.c: one line of text, cut to fit, cheap to make by the hundred
 *
 * After a flood the chat view shows hundreds of items as one-line stand-ins
 * for their rows, and makes them a few dozen a frame. A label or an
 * inscription makes a Pango context of its own when it is made (a few
 * hundredths of a millisecond, with the font options of the screen looked
 * up) and asks it for the font's metrics when it is measured (which shapes a
 * sample text each time). With these lines instead of inscriptions, the
 * main thread's work after a stream of 200,000 chunks fell by a third.
 *
 * A summary line shares the Pango context of a widget that uses the same
 * font (its font source), is one line of that font high (the metrics asked
 * once per context and font, kept with the context), as wide as it is given
 * and lays its text out only when it is drawn, ellipsized at the end. Most
 * lines are never drawn: the list view makes rows beyond its window too.
 *
 * Part of the flood handling for GTK 4.8 (see pal-chat-flood.c); not needed
 * once that is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-summary-line.h"

struct _PalSummaryLine
{
  GtkWidget     parent_instance;

  PangoContext *context;
  PangoLayout  *layout;          /* made when first drawn */
  guint         layout_serial;   /* of the context, when the layout was made or updated */
  char         *text;
};

G_DEFINE_FINAL_TYPE (PalSummaryLine, pal_summary_line, GTK_TYPE_WIDGET)

typedef struct
{
  guint serial;
  int   height;
} LineHeight;

static GQuark line_height_quark;

/* The height of a line of @context's font, asked once for each state of
 * the context (its serial changes with its font and its options) */
static int
line_height (PangoContext *context)
{
  LineHeight *cached = g_object_get_qdata (G_OBJECT (context), line_height_quark);
  guint serial = pango_context_get_serial (context);

  if (cached == NULL)
    {
      cached = g_new0 (LineHeight, 1);
      g_object_set_qdata_full (G_OBJECT (context), line_height_quark, cached, g_free);
    }
  else if (cached->serial == serial)
    {
      return cached->height;
    }

  {
    PangoFontMetrics *metrics = pango_context_get_metrics (context, NULL, NULL);

    cached->height = PANGO_PIXELS_CEIL (pango_font_metrics_get_ascent (metrics) +
                                        pango_font_metrics_get_descent (metrics));
    cached->serial = serial;
    pango_font_metrics_unref (metrics);
  }

  return cached->height;
}

static void
pal_summary_line_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  PalSummaryLine *self = PAL_SUMMARY_LINE (widget);

  /* as wide as it is given: its text is cut to fit */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 0;
  else
    *minimum = *natural = line_height (self->context);
}

static void
pal_summary_line_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  PalSummaryLine *self = PAL_SUMMARY_LINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  guint serial = pango_context_get_serial (self->context);
  GdkRGBA color;
  int text_height;

  if (self->text == NULL || *self->text == '\0' || width <= 0)
    return;

  if (self->layout == NULL)
    {
      self->layout = pango_layout_new (self->context);
      pango_layout_set_single_paragraph_mode (self->layout, TRUE);
      pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_text (self->layout, self->text, -1);
    }
  else if (self->layout_serial != serial)
    {
      pango_layout_context_changed (self->layout);
    }
  self->layout_serial = serial;
  pango_layout_set_width (self->layout, width * PANGO_SCALE);

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  pango_layout_get_pixel_size (self->layout, NULL, &text_height);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (height - text_height) / 2));
  gtk_snapshot_append_layout (snapshot, self->layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
pal_summary_line_finalize (GObject *object)
{
  PalSummaryLine *self = PAL_SUMMARY_LINE (object);

  g_clear_object (&self->layout);
  g_clear_object (&self->context);
  g_free (self->text);

  G_OBJECT_CLASS (pal_summary_line_parent_class)->finalize (object);
}

static void
pal_summary_line_class_init (PalSummaryLineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = pal_summary_line_finalize;
  widget_class->measure = pal_summary_line_measure;
  widget_class->snapshot = pal_summary_line_snapshot;

  gtk_widget_class_set_css_name (widget_class, "summaryline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);

  line_height_quark = g_quark_from_static_string ("pal-summary-line-height");
}

static void
pal_summary_line_init (PalSummaryLine *self)
{
}

/**
 * pal_summary_line_new:
 * @font_source: a widget whose font the line uses, and whose Pango context
 *   it shares
 * @text: (nullable): the text, of which the line shows what fits
 *
 * Returns: (transfer floating): a new #PalSummaryLine
 */
GtkWidget *
pal_summary_line_new (GtkWidget  *font_source,
                      const char *text)
{
  PalSummaryLine *self;

  g_return_val_if_fail (GTK_IS_WIDGET (font_source), NULL);

  self = g_object_new (PAL_TYPE_SUMMARY_LINE, NULL);
  self->context = g_object_ref (gtk_widget_get_pango_context (font_source));
  pal_summary_line_set_text (self, text);

  return GTK_WIDGET (self);
}

const char *
pal_summary_line_get_text (PalSummaryLine *self)
{
  g_return_val_if_fail (PAL_IS_SUMMARY_LINE (self), NULL);

  return self->text;
}

/**
 * pal_summary_line_set_text:
 * @self: a #PalSummaryLine
 * @text: (nullable): the new text
 *
 * Gives the line another text: it is drawn again, its size is the same.
 */
void
pal_summary_line_set_text (PalSummaryLine *self,
                           const char     *text)
{
  g_return_if_fail (PAL_IS_SUMMARY_LINE (self));

  if (g_strcmp0 (self->text, text) == 0)
    return;

  g_free (self->text);
  self->text = g_strdup (text);
  if (self->layout != NULL)
    pango_layout_set_text (self->layout, text != NULL ? text : "", -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text != NULL ? text : "",
                                  -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
