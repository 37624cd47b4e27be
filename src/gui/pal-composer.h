/* pal-composer.h: where the person writes a prompt
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-attacher.h"
#include "pal-options-bar.h"
#include "pal-prompt.h"

G_BEGIN_DECLS

#define PAL_TYPE_COMPOSER (pal_composer_get_type ())

G_DECLARE_FINAL_TYPE (PalComposer, pal_composer, PAL, COMPOSER, AdwBin)

GtkWidget *pal_composer_new                 (void);
char      *pal_composer_dup_text            (PalComposer *self);
void       pal_composer_set_text            (PalComposer *self,
                                             const char  *text);
/* What is written, NULL when nothing is (transfer full) */
PalPrompt *pal_composer_dup_prompt          (PalComposer *self);
/* Replaces what is written; NULL empties it */
void       pal_composer_set_prompt          (PalComposer *self,
                                             PalPrompt   *prompt);
gboolean   pal_composer_get_busy            (PalComposer *self);
void       pal_composer_set_busy            (PalComposer *self,
                                             gboolean     busy);
gboolean   pal_composer_get_can_send        (PalComposer *self);
void       pal_composer_set_can_send        (PalComposer *self,
                                             gboolean     can_send);
/* What the empty composer says; NULL: the usual */
void       pal_composer_set_placeholder     (PalComposer *self,
                                             const char  *text);
const char *pal_composer_get_placeholder    (PalComposer *self);
/* AcpCommand items; nullable */
GListModel *pal_composer_get_commands       (PalComposer *self);
void       pal_composer_set_commands        (PalComposer *self,
                                             GListModel  *commands);
PalOptionsBar *pal_composer_get_options_bar (PalComposer *self);
gboolean   pal_composer_submit              (PalComposer *self);
void       pal_composer_grab_focus          (PalComposer *self);
guint      pal_composer_get_n_completions   (PalComposer *self);
/* PalAttachment items, as they are attached */
GListModel *pal_composer_get_attachments    (PalComposer *self);
/* (element-type GFile) */
void       pal_composer_add_files           (PalComposer *self,
                                             GSList      *files);
PalAttacher *pal_composer_get_attacher      (PalComposer *self);
void       pal_composer_set_folders         (PalComposer        *self,
                                             const char * const *folders);
/* NULL: not known yet */
void       pal_composer_set_agent_capabilities (PalComposer                *self,
                                                const AcpAgentCapabilities *caps);
gboolean   pal_composer_get_refusing_images (PalComposer *self);
/* how many files the "@" finder shows now (0 when closed) */
guint      pal_composer_get_n_file_hits     (PalComposer *self);

/* The transcript whose user messages Up and Down recall; nullable */
void       pal_composer_set_recall_model    (PalComposer *self,
                                             GListModel  *items);

G_END_DECLS
