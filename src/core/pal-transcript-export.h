/* pal-transcript-export.h: a stored session as Markdown or as JSON Lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pal-stored-transcript.h"
#include "pal-transcript-store.h"

G_BEGIN_DECLS

typedef enum
{
  PAL_TRANSCRIPT_FORMAT_MARKDOWN,
  PAL_TRANSCRIPT_FORMAT_JSON_LINES,
} PalTranscriptFormat;

/* What the top of the Markdown says of the session; every member nullable */
typedef struct
{
  const char *title;
  const char *agent_name;
  const char *folder;
  const char *session_id;
} PalTranscriptExportInfo;

gboolean  pal_transcript_format_from_string   (const char                    *name,
                                               PalTranscriptFormat           *format);

/* Both work anywhere, on any thread: no widgets, no I/O */
char     *pal_transcript_export_markdown      (PalStoredTranscript           *stored,
                                               const PalTranscriptExportInfo *info);
char     *pal_transcript_export_json_lines    (PalStoredTranscript           *stored);

void      pal_transcript_export_async         (PalTranscriptStore            *store,
                                               PalSessionKey                 *key,
                                               PalTranscriptFormat            format,
                                               const PalTranscriptExportInfo *info,
                                               GCancellable                  *cancellable,
                                               GAsyncReadyCallback            callback,
                                               gpointer                       user_data);
GBytes   *pal_transcript_export_finish        (PalTranscriptStore            *store,
                                               GAsyncResult                  *result,
                                               GError                       **error);

G_END_DECLS
