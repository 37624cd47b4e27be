/* pal-warm-up.c: loading ahead what the first answer would load in its frames
 *
 * The first Markdown answer of a process is the first text in bold, italic,
 * monospace or a heading's size: Pango and cairo load each of those fonts
 * (a fontconfig match, a FreeType face, a HarfBuzz shaping plan, then the
 * metrics and images of the glyphs) in the frame that first shows such text,
 * several milliseconds together, just when an answer starts to stream.
 * Likewise the first spinner shown (a session starting or working) loads
 * and renders its SVG icon in the frame that first draws it, and the first
 * code block or diff has GtkSourceView read its style schemes and the list
 * of its languages (a file each, parsed: some ten milliseconds, in the
 * frame that shows the rows of a history that was just loaded). Once the
 * window is shown, this loads them while the window is idle, a font (or
 * one of those) per main-loop iteration, so that those frames find them
 * ready: each font is laid out and drawn with the printable ASCII
 * characters.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <pango/pangocairo.h>

#include "pal-code-view.h"
#include "pal-markdown.h"
#include "pal-warm-up.h"

/* on the display: how far loading went */
#define STATE_KEY "pal-warm-up-state"

enum {
  NOT_STARTED,
  LOADING,
  LOADED,
};

/* The icon GTK's spinner draws (its CSS in GTK's themes and libadwaita), at
 * the size it draws it. Were a theme to draw another, loading this one ahead
 * would only be useless. */
#define SPINNER_ICON      "process-working-symbolic"
#define SPINNER_ICON_SIZE 16

/* Laid out and drawn in every font */
#define SAMPLE_TEXT \
  " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

typedef struct
{
  GtkWidget  *widget;    /* (weak) */
  GdkDisplay *display;
  GPtrArray  *fonts;     /* (element-type PangoFontDescription) */
  guint       next;      /* the next font to load */
  guint       code_step; /* what of GtkSourceView is loaded */
} WarmUp;

static void
warm_up_free (WarmUp *warm_up)
{
  if (warm_up->widget != NULL)
    g_object_remove_weak_pointer (G_OBJECT (warm_up->widget), (gpointer *) &warm_up->widget);
  g_clear_pointer (&warm_up->fonts, g_ptr_array_unref);
  g_object_unref (warm_up->display);
  g_free (warm_up);
}

static void
load_spinner_icon (GtkWidget *widget)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (widget));
  g_autoptr(GtkIconPaintable) icon = NULL;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  /* any colours: they are applied when drawing, the image loaded is the same */
  GdkRGBA colors[4] = { { 0, 0, 0, 1 }, { 1, 0, 0, 1 }, { 1, 1, 0, 1 }, { 0, 1, 0, 1 } };

  /* the lookup the CSS icon makes, so that the same icon holds the image */
  icon = gtk_icon_theme_lookup_icon (theme, SPINNER_ICON, NULL, SPINNER_ICON_SIZE,
                                     gtk_widget_get_scale_factor (widget),
                                     GTK_TEXT_DIR_NONE, 0);
  snapshot = gtk_snapshot_new ();
  gtk_symbolic_paintable_snapshot_symbolic (GTK_SYMBOLIC_PAINTABLE (icon), snapshot,
                                            SPINNER_ICON_SIZE, SPINNER_ICON_SIZE,
                                            colors, G_N_ELEMENTS (colors));
  node = gtk_snapshot_free_to_node (snapshot);
  g_clear_pointer (&node, gsk_render_node_unref);
}

static void
load_font (GtkWidget                  *widget,
           const PangoFontDescription *font)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, SAMPLE_TEXT);
  cairo_surface_t *surface;
  cairo_t *cr;
  int width, height;

  pango_layout_set_font_description (layout, font);
  pango_layout_get_pixel_size (layout, &width, &height);

  /* drawn too: the fonts then hold the images of the glyphs, which the
   * renderer would otherwise make in the first frame that shows them */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, MAX (width, 1), MAX (height, 1));
  cr = cairo_create (surface);
  pango_cairo_show_layout (cr, layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* GtkSourceView's style schemes, then its languages: @step of them.
 * Returns: whether there is more */
static gboolean
load_code_step (guint step)
{
  if (step == 0)
    {
      GtkSourceStyleSchemeManager *schemes;

      gtk_source_init ();
      schemes = gtk_source_style_scheme_manager_get_default ();
      gtk_source_style_scheme_manager_get_scheme (schemes, PAL_CODE_VIEW_SCHEME_LIGHT);
      gtk_source_style_scheme_manager_get_scheme (schemes, PAL_CODE_VIEW_SCHEME_DARK);
      return TRUE;
    }

  gtk_source_language_manager_get_language_ids (gtk_source_language_manager_get_default ());
  return FALSE;
}

static void
set_state (GdkDisplay *display,
           int         state)
{
  g_object_set_data (G_OBJECT (display), STATE_KEY, GINT_TO_POINTER (state));
}

static int
get_state (GdkDisplay *display)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (display), STATE_KEY));
}

static gboolean
warm_up_idle_cb (gpointer user_data)
{
  WarmUp *warm_up = user_data;

  /* the widget is gone: the next window starts again */
  if (warm_up->widget == NULL)
    {
      set_state (warm_up->display, NOT_STARTED);
      warm_up_free (warm_up);
      return G_SOURCE_REMOVE;
    }

  if (warm_up->fonts == NULL)
    {
      /* the first step: the icon, and the list of fonts */
      load_spinner_icon (warm_up->widget);
      warm_up->fonts = pal_markdown_dup_fonts (pango_context_get_font_description (gtk_widget_get_pango_context (warm_up->widget)));
      return G_SOURCE_CONTINUE;
    }

  if (warm_up->next < warm_up->fonts->len)
    {
      load_font (warm_up->widget, g_ptr_array_index (warm_up->fonts, warm_up->next));
      warm_up->next++;
      return G_SOURCE_CONTINUE;
    }

  if (load_code_step (warm_up->code_step++))
    return G_SOURCE_CONTINUE;

  set_state (warm_up->display, LOADED);
  warm_up_free (warm_up);

  return G_SOURCE_REMOVE;
}

/**
 * pal_warm_up_start:
 * @widget: a widget of the window the chat is shown in
 *
 * Loads, while the main loop is idle, the spinner's icon, the fonts
 * Markdown text may use over @widget's font, and what GtkSourceView reads
 * for the first code block: once for @widget's display. It stops if
 * @widget is finalized first.
 */
void
pal_warm_up_start (GtkWidget *widget)
{
  GdkDisplay *display;
  WarmUp *warm_up;
  guint id;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  display = gtk_widget_get_display (widget);
  if (get_state (display) != NOT_STARTED)
    return;
  set_state (display, LOADING);

  warm_up = g_new0 (WarmUp, 1);
  warm_up->widget = widget;
  g_object_add_weak_pointer (G_OBJECT (widget), (gpointer *) &warm_up->widget);
  warm_up->display = g_object_ref (display);
  id = g_idle_add_full (G_PRIORITY_LOW, warm_up_idle_cb, warm_up, NULL);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, id), "[pal] warm up");
}

/**
 * pal_warm_up_is_done:
 * @display: a #GdkDisplay
 *
 * Returns: whether everything pal_warm_up_start() loads is loaded for @display
 */
gboolean
pal_warm_up_is_done (GdkDisplay *display)
{
  g_return_val_if_fail (GDK_IS_DISPLAY (display), FALSE);

  return get_state (display) == LOADED;
}
