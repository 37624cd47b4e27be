/* pal-stored-transcript.c: the updates of one session as stored, read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-stored-transcript.h"

typedef struct
{
  gsize offset;
  gsize length;
  gint64 time;
  PalTranscriptKind kind;
} Entry;

/**
 * PalStoredTranscript:
 *
 * What pal_transcript_store_load_async() read: every entry of one session
 * in the order it was recorded, with its JSON text exactly as recorded.
 * The texts share one buffer, so that a session of 100,000 updates is two
 * allocations, not 100,000. Immutable once built: it can be handed to
 * another thread (to parse the texts there).
 */
struct _PalStoredTranscript
{
  GString *texts;   /* each text followed by a NUL */
  GArray *entries;  /* Entry */
};

G_DEFINE_BOXED_TYPE (PalStoredTranscript, pal_stored_transcript,
                     pal_stored_transcript_ref, pal_stored_transcript_unref)

static void
stored_transcript_clear (gpointer data)
{
  PalStoredTranscript *self = data;

  g_string_free (self->texts, TRUE);
  g_array_unref (self->entries);
}

PalStoredTranscript *
_pal_stored_transcript_new (void)
{
  PalStoredTranscript *self = g_atomic_rc_box_new0 (PalStoredTranscript);

  self->texts = g_string_new (NULL);
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));

  return self;
}

void
_pal_stored_transcript_append (PalStoredTranscript *self,
                               PalTranscriptKind    kind,
                               gint64               time,
                               const char          *json,
                               gsize                length)
{
  Entry entry = { self->texts->len, length, time, kind };

  g_string_append_len (self->texts, json, (gssize) length);
  g_string_append_c (self->texts, '\0');
  g_array_append_val (self->entries, entry);
}

PalStoredTranscript *
pal_stored_transcript_ref (PalStoredTranscript *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
pal_stored_transcript_unref (PalStoredTranscript *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, stored_transcript_clear);
}

guint
pal_stored_transcript_get_n_entries (PalStoredTranscript *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->entries->len;
}

PalTranscriptKind
pal_stored_transcript_get_kind (PalStoredTranscript *self,
                                guint                index)
{
  g_return_val_if_fail (self != NULL, PAL_TRANSCRIPT_KIND_OTHER);
  g_return_val_if_fail (index < self->entries->len, PAL_TRANSCRIPT_KIND_OTHER);

  return g_array_index (self->entries, Entry, index).kind;
}

gint64
pal_stored_transcript_get_time (PalStoredTranscript *self,
                                guint                index)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (index < self->entries->len, 0);

  return g_array_index (self->entries, Entry, index).time;
}

const char *
pal_stored_transcript_get_json (PalStoredTranscript *self,
                                guint                index,
                                gsize               *length)
{
  const Entry *entry;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  entry = &g_array_index (self->entries, Entry, index);
  if (length != NULL)
    *length = entry->length;

  return self->texts->str + entry->offset;
}
