/* pal-stored-transcript.h: the updates of one session as stored, read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "pal-transcript-kind.h"

G_BEGIN_DECLS

#define PAL_TYPE_STORED_TRANSCRIPT (pal_stored_transcript_get_type ())

typedef struct _PalStoredTranscript PalStoredTranscript;

GType                pal_stored_transcript_get_type   (void) G_GNUC_CONST;

PalStoredTranscript *pal_stored_transcript_ref        (PalStoredTranscript *self);
void                 pal_stored_transcript_unref      (PalStoredTranscript *self);

guint                pal_stored_transcript_get_n_entries (PalStoredTranscript *self);
PalTranscriptKind    pal_stored_transcript_get_kind   (PalStoredTranscript *self,
                                                       guint                index);
/* Microseconds since the epoch, when it was recorded */
gint64               pal_stored_transcript_get_time   (PalStoredTranscript *self,
                                                       guint                index);
/* The JSON text as recorded: the update object, or for a prompt the
 * array of its content blocks. Lives as long as @self. */
const char          *pal_stored_transcript_get_json   (PalStoredTranscript *self,
                                                       guint                index,
                                                       gsize               *length);

/* for the store: building one */
PalStoredTranscript *_pal_stored_transcript_new       (void);
void                 _pal_stored_transcript_append    (PalStoredTranscript *self,
                                                       PalTranscriptKind    kind,
                                                       gint64               time,
                                                       const char          *json,
                                                       gsize                length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalStoredTranscript, pal_stored_transcript_unref)

G_END_DECLS
