/* acp-line-reader.h: the thread that reads an AcpConnection's input, splits
 * it into lines and parses them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "acp-connection.h"
#include "acp-json-reader.h"
#include "acp-traffic-log.h"

G_BEGIN_DECLS

/* What the worker hands back, in the order read. */
typedef enum
{
  ACP_PARSED_MESSAGE,      /* root */
  ACP_PARSED_PREPARED,     /* prepared: a notification the preparer took apart */
  ACP_PARSED_NOT_JSON,     /* error */
  ACP_PARSED_TOO_LONG,     /* limit: a line over the cap was skipped */
  ACP_PARSED_END,          /* the stream ended after the lines before */
  ACP_PARSED_READ_ERROR,   /* error: reading failed after the lines before */
} AcpParsedKind;

typedef struct _AcpParsed AcpParsed;

struct _AcpParsed
{
  AcpParsed     *next;
  AcpParsedKind  kind;
  gsize          size;        /* bytes of the line(s), for the parse-ahead bound */
  JsonNode      *root;
  gpointer       prepared;
  GDestroyNotify free_prepared;
  GError        *error;
  char          *excerpt;     /* ACP_PARSED_NOT_JSON: the start of the line, to show */
  gsize          limit;
};

typedef struct
{
  AcpParsed *head;
  AcpParsed *tail;
} AcpParsedList;

void       acp_parsed_free        (AcpParsed     *parsed);
void       acp_parsed_list_concat (AcpParsedList *to,
                                   AcpParsedList *from);
AcpParsed *acp_parsed_list_pop    (AcpParsedList *list);
void       acp_parsed_list_clear  (AcpParsedList *list);

/* What the connection shares with its worker thread; the worker never sees
 * the connection. Refcounted; the last reference may go on either thread. */
typedef struct _AcpLineReader AcpLineReader;

/* @input is not owned: the done function's data must keep it alive. */
AcpLineReader *acp_line_reader_new                 (GMainContext          *context,
                                                    GInputStream          *input,
                                                    GCancellable          *cancellable,
                                                    gsize                  max_line_length);
AcpLineReader *acp_line_reader_ref                 (AcpLineReader         *reader);
void           acp_line_reader_unref               (AcpLineReader         *reader);

/* Set before acp_line_reader_start(); @preparer is not copied. */
void           acp_line_reader_set_preparer        (AcpLineReader               *reader,
                                                    const AcpConnectionPreparer *preparer);
void           acp_line_reader_set_traffic_log     (AcpLineReader         *reader,
                                                    AcpTrafficLog         *log);
/* Called on the context once the worker no longer reads; @data is taken by
 * the worker then (or freed with @notify along with the reader if the worker
 * never ran). */
void           acp_line_reader_set_done_func       (AcpLineReader         *reader,
                                                    GSourceFunc            func,
                                                    gpointer               data,
                                                    GDestroyNotify         notify);

/* Starts the worker thread, which holds a reference of its own. */
gboolean       acp_line_reader_start               (AcpLineReader         *reader,
                                                    GError               **error);
/* Tells the worker to stop; it ends on its own. */
void           acp_line_reader_stop                (AcpLineReader         *reader);

/* A source that fires on the reader's context when the worker handed results
 * over, until they are taken. (transfer full) */
GSource       *acp_line_reader_results_source_new  (AcpLineReader         *reader);
/* Appends what the worker handed over so far to @to, and gives the bytes of
 * input the worker is done with, whether it read the end of the stream (or
 * an error) and the sizes of every result it handed over. */
void           acp_line_reader_take_results        (AcpLineReader         *reader,
                                                    AcpParsedList         *to,
                                                    guint64               *n_read,
                                                    gboolean              *ended,
                                                    guint64               *n_produced);
/* Tells the worker the sizes of every result dispatched so far. */
void           acp_line_reader_report_dispatched   (AcpLineReader         *reader,
                                                    guint64                n_dispatched);
/* The cap on lines, taken by the worker before its next read. */
void           acp_line_reader_set_max_line_length (AcpLineReader         *reader,
                                                    gsize                  max_line_length);

/* For tests: whether the worker is in the parser right now, whether it waits
 * for room to parse ahead, and the workers still running, of every reader. */
gboolean       acp_line_reader_is_parsing          (AcpLineReader         *reader);
gboolean       acp_line_reader_is_waiting          (AcpLineReader         *reader);
guint          acp_line_reader_get_n_running       (void);

/* Whether @root is a well-formed notification, and its method and params
 * (acp-connection-dispatch.c; only looks at @doc). */
gboolean       _acp_connection_is_notification     (const AcpJsonDoc      *doc,
                                                    const AcpJsonValue    *root,
                                                    const char           **method,
                                                    const AcpJsonValue   **params);

G_END_DECLS
