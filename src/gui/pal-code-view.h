/* pal-code-view.h: code, highlighted, in the style scheme of the light or dark style
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define PAL_TYPE_CODE_VIEW (pal_code_view_get_type ())

G_DECLARE_FINAL_TYPE (PalCodeView, pal_code_view, PAL, CODE_VIEW, GtkSourceView)

/* The style schemes: Adwaita's, light or dark */
#define PAL_CODE_VIEW_SCHEME_LIGHT "Adwaita"
#define PAL_CODE_VIEW_SCHEME_DARK  "Adwaita-dark"

GtkWidget         *pal_code_view_new             (void);
GtkWidget         *pal_code_view_new_scroller    (PalCodeView       *self);
void               pal_code_view_set_text        (PalCodeView       *self,
                                                  const char        *text,
                                                  gssize             length);
const char        *pal_code_view_get_text        (PalCodeView       *self);
void               pal_code_view_set_language    (PalCodeView       *self,
                                                  GtkSourceLanguage *language);
GtkSourceLanguage *pal_code_view_get_language    (PalCodeView       *self);
void               pal_code_view_set_diff        (PalCodeView       *self,
                                                  gboolean           diff);
gboolean           pal_code_view_get_diff        (PalCodeView       *self);
GtkSourceStyleScheme *pal_code_view_get_scheme   (PalCodeView       *self);

GtkSourceLanguage *pal_code_view_guess_language  (const char        *info);
gboolean           pal_code_view_is_diff_info    (const char        *info);

G_END_DECLS
