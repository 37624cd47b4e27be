/* pal-args-group.h: the command-line arguments in an editor, one row each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PAL_TYPE_ARGS_GROUP (pal_args_group_get_type ())

G_DECLARE_FINAL_TYPE (PalArgsGroup, pal_args_group, PAL, ARGS_GROUP, AdwPreferencesGroup)

void         pal_args_group_set_args   (PalArgsGroup       *self,
                                        const char * const *args);
/* Never NULL (transfer full). */
char       **pal_args_group_dup_args   (PalArgsGroup       *self);
guint        pal_args_group_get_n_args (PalArgsGroup       *self);
AdwEntryRow *pal_args_group_get_row    (PalArgsGroup       *self,
                                        guint               position);
/* Appends a row, as the Add button does, and focuses it. */
AdwEntryRow *pal_args_group_add        (PalArgsGroup       *self,
                                        const char         *text);
void         pal_args_group_remove     (PalArgsGroup       *self,
                                        guint               position);
/* Swaps the argument at @position with the one before (@up) or after it. */
void         pal_args_group_move       (PalArgsGroup       *self,
                                        guint               position,
                                        gboolean            up);

G_END_DECLS
