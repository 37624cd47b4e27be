/* pal-ignore-rules.h: the patterns of a .gitignore file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  PAL_IGNORE_NONE,     /* no pattern speaks of the path */
  PAL_IGNORE_EXCLUDED, /* a pattern leaves it out */
  PAL_IGNORE_INCLUDED, /* a negated pattern ("!") takes it back */
} PalIgnoreVerdict;

typedef struct _PalIgnoreRules PalIgnoreRules;

#define PAL_TYPE_IGNORE_RULES (pal_ignore_rules_get_type ())

GType             pal_ignore_rules_get_type (void) G_GNUC_CONST;
PalIgnoreRules   *pal_ignore_rules_new      (PalIgnoreRules *parent,
                                             const char     *base,
                                             const char     *text,
                                             gssize          length);
PalIgnoreRules   *pal_ignore_rules_ref      (PalIgnoreRules *self);
void              pal_ignore_rules_unref    (PalIgnoreRules *self);
PalIgnoreVerdict  pal_ignore_rules_check    (PalIgnoreRules *self,
                                             const char     *path,
                                             gboolean        is_dir);
gboolean          pal_ignore_rules_ignores  (PalIgnoreRules *self,
                                             const char     *path,
                                             gboolean        is_dir);
gboolean          pal_ignore_glob_match     (const char     *pattern,
                                             const char     *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalIgnoreRules, pal_ignore_rules_unref)

G_END_DECLS
