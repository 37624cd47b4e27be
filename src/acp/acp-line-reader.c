/* acp-line-reader.c: the thread that reads an AcpConnection's input, splits
 * it into lines and parses them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How it works
 *
 * Reading. The connection's worker thread reads the input itself, with
 * blocking reads of up to READ_CHUNK_SIZE, so that the main thread spends
 * nothing on the many small reads a streaming agent causes (a read a line,
 * each a system call and an asynchronous operation there). The read is
 * cancelled with the connection's GCancellable when the connection closes.
 * The worker reads no further than it may parse (see below): a peer
 * writing faster than the application dispatches blocks on a full pipe.
 * The line the worker is still gathering does not count, so a line longer
 * than the bound (up to the cap) gets through.
 *
 * Parsing. The worker splits each chunk it reads into lines: a line inside
 * one chunk is parsed where it lies, one spanning chunks is gathered in a
 * GByteArray (amortised doubling, so the cost is linear in its length). It
 * drops a trailing CR, skips empty and whitespace-only lines, skips a line
 * over the cap without buffering it (reported once, with "message-error"),
 * and reads every line into its AcpJsonDoc (see acp-json-reader.c: several
 * times faster than json-glib's JsonParser, refusing deep nesting, and
 * allocating nothing once warm); a message that is not prepared (below) is
 * made into a json-glib tree for the main thread. After each
 * chunk it appends what it got (trees, parse errors, skipped lines, and last
 * the end of the stream or a read error) to a list shared under a mutex, in
 * arrival order, and wakes the main context unless a wake-up is pending: a
 * small GSource there fires on the worker's flag. A parsed line takes some
 * 15 times the memory of its text, so the worker parses ahead of dispatching
 * by ACP_CONNECTION_PARSE_AHEAD_MAX bytes of input at most: past that it
 * waits on a GCond until the main thread, which reports how far it got
 * every PARSE_AHEAD_REPORT bytes and whenever the pump stops, has brought
 * it down to ACP_CONNECTION_PARSE_AHEAD_RESUME, and reads nothing
 * meanwhile. The worker never sees the connection, emits nothing and
 * touches nothing of it: all it shares is a refcounted AcpLineReader (the
 * stream to read, the cancellable, the list, the counts, the context to
 * wake, the preparer, and what to call back there when it is done
 * reading).
 *
 * Preparing. With a preparer (AcpConnectionPreparer), the worker offers it
 * every well-formed notification it read, in the document; what the
 * preparer makes of one takes its place, and no tree is made of it. The
 * preparer may join what it made of a notification into what it made of
 * the one just before, read from the same chunk (pieces of one text): that
 * one then stands for both.
 *
 * Closing stops the worker: a flag it checks between lines and while it
 * waits for room, and the cancellable that ends its read. It then frees
 * what it holds and ends on its own; nobody waits for it.
 *
 * Taking what the worker hands over and dispatching it is the connection's
 * job, on the main thread (acp-connection-pump.c).
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "acp-connection-private.h"
#include "acp-json-reader.h"
#include "acp-line-reader.h"

#define READ_CHUNK_SIZE          ACP_CONNECTION_READ_CHUNK_SIZE
#define MAX_NESTING_DEPTH        512

struct _AcpLineReader
{
  gatomicrefcount  ref_count;
  GMainContext    *context;        /* woken when results are handed over */
  const AcpConnectionPreparer *preparer; /* set before the worker starts */
  AcpTrafficLog   *log;            /* likewise; owned */
  GInputStream    *input;          /* not owned: the done callback's data keeps it */
  GCancellable    *cancellable;    /* cancels the read when the connection closes */
  int              stopping;       /* atomic: the connection closed */
  int              parsing;        /* atomic: in the parser now (for tests) */

  /* Called on the context once the worker no longer reads; its data is
   * taken by the worker then (or freed with the reader if it never ran). */
  GSourceFunc      done_func;
  gpointer         done_data;
  GDestroyNotify   done_notify;

  GMutex           lock;           /* guards what follows */
  GCond            room;           /* the worker waits here to parse ahead */
  gsize            max_line_length;
  AcpParsedList    results;        /* handed over, not yet taken */
  guint64          n_read;         /* bytes of input the worker is done with */
  gboolean         ended;          /* the end of the stream or an error was read */
  guint64          n_produced;     /* the sizes of every result handed over */
  guint64          n_dispatched;   /* as last reported by the main thread */
  gboolean         waiting;        /* the worker waits for room */
  int              wake_pending;   /* atomic reads; written under the lock */
};

/* The worker's own state, on its stack. */
typedef struct
{
  AcpLineReader *reader;
  gsize          max_line_length;  /* the cap, taken before each read */
  GByteArray    *line;         /* the start of a line spanning chunks */
  AcpParsedList  results;      /* not yet handed over */
  guint64        n_produced;   /* their sizes */
  gboolean       discarding;   /* skipping the rest of an overlong line */
  AcpJsonDoc    *doc;          /* the line read last */
  AcpParsed     *last_prepared; /* the last of results, prepared from this chunk */
} Worker;

static int n_running_workers;  /* atomic; for tests */

/* ------------------------------------------------------------------------ */
/* Parsed lines                                                              */

static AcpParsed *
parsed_new (AcpParsedKind kind,
            gsize         size)
{
  AcpParsed *parsed = g_new0 (AcpParsed, 1);

  parsed->kind = kind;
  parsed->size = size;
  return parsed;
}

void
acp_parsed_free (AcpParsed *parsed)
{
  g_clear_pointer (&parsed->root, json_node_unref);
  if (parsed->prepared != NULL)
    parsed->free_prepared (parsed->prepared);
  g_clear_error (&parsed->error);
  g_free (parsed->excerpt);
  g_free (parsed);
}

static void
parsed_list_append (AcpParsedList *list,
                    AcpParsed     *parsed)
{
  if (list->tail != NULL)
    list->tail->next = parsed;
  else
    list->head = parsed;
  list->tail = parsed;
}

/* Moves every item of @from to the end of @to. */
void
acp_parsed_list_concat (AcpParsedList *to,
                        AcpParsedList *from)
{
  if (from->head == NULL)
    return;

  if (to->tail != NULL)
    to->tail->next = from->head;
  else
    to->head = from->head;
  to->tail = from->tail;
  from->head = from->tail = NULL;
}

AcpParsed *
acp_parsed_list_pop (AcpParsedList *list)
{
  AcpParsed *parsed = list->head;

  if (parsed != NULL)
    {
      list->head = parsed->next;
      if (list->head == NULL)
        list->tail = NULL;
      parsed->next = NULL;
    }

  return parsed;
}

void
acp_parsed_list_clear (AcpParsedList *list)
{
  AcpParsed *parsed;

  while ((parsed = acp_parsed_list_pop (list)) != NULL)
    acp_parsed_free (parsed);
}

/* ------------------------------------------------------------------------ */
/* The reader: what the connection shares with its worker                    */

AcpLineReader *
acp_line_reader_new (GMainContext *context,
                     GInputStream *input,
                     GCancellable *cancellable,
                     gsize         max_line_length)
{
  AcpLineReader *reader = g_new0 (AcpLineReader, 1);

  g_atomic_ref_count_init (&reader->ref_count);
  reader->context = g_main_context_ref (context);
  reader->input = input;
  reader->cancellable = g_object_ref (cancellable);
  reader->max_line_length = max_line_length;
  g_mutex_init (&reader->lock);
  g_cond_init (&reader->room);

  return reader;
}

AcpLineReader *
acp_line_reader_ref (AcpLineReader *reader)
{
  g_atomic_ref_count_inc (&reader->ref_count);
  return reader;
}

/* May run on either thread: whatever is left was never dispatched, so no
 * handler holds a reference into it. */
void
acp_line_reader_unref (AcpLineReader *reader)
{
  if (g_atomic_ref_count_dec (&reader->ref_count))
    {
      acp_parsed_list_clear (&reader->results);
      g_clear_object (&reader->log);
      if (reader->done_notify != NULL && reader->done_data != NULL)
        reader->done_notify (reader->done_data);
      g_object_unref (reader->cancellable);
      g_main_context_unref (reader->context);
      g_mutex_clear (&reader->lock);
      g_cond_clear (&reader->room);
      g_free (reader);
    }
}

/* ------------------------------------------------------------------------ */
/* The worker thread: splitting and parsing                                  */

/* Keeps @parsed (transfer full) until the next hand-over. */
static void
worker_add (Worker    *worker,
            AcpParsed *parsed)
{
  worker->last_prepared = NULL;
  worker->n_produced += parsed->size;
  parsed_list_append (&worker->results, parsed);
}

/* Returns: (transfer full) (nullable): what the preparer makes of @root, a
 * notification; NULL for anything else */
static gpointer
worker_prepare (Worker             *worker,
                const AcpJsonValue *root)
{
  const AcpConnectionPreparer *preparer = worker->reader->preparer;
  const char *method;
  const AcpJsonValue *params;

  if (preparer == NULL || !_acp_connection_is_notification (worker->doc, root, &method, &params))
    return NULL;

  return preparer->prepare (method, worker->doc, params);
}

/* Adds @prepared (transfer full), or joins it to the one prepared before it
 * from this chunk. */
static void
worker_add_prepared (Worker   *worker,
                     gpointer  prepared,
                     gsize     size)
{
  const AcpConnectionPreparer *preparer = worker->reader->preparer;
  AcpParsed *parsed;

  if (worker->last_prepared != NULL && preparer->join != NULL &&
      preparer->join (worker->last_prepared->prepared, prepared))
    {
      preparer->free (prepared);
      worker->last_prepared->size += size;
      worker->n_produced += size;
      return;
    }

  parsed = parsed_new (ACP_PARSED_PREPARED, size);
  parsed->prepared = prepared;
  parsed->free_prepared = preparer->free;
  worker_add (worker, parsed);
  worker->last_prepared = parsed;
}

/* Characters of a line that is not JSON shown when it is reported */
#define EXCERPT_CHARS 80

/* Returns: (transfer full): the start of a line, as valid UTF-8 without
 * control characters, EXCERPT_CHARS characters at most ("…" when cut) */
static char *
make_excerpt (const char *data,
              gsize       length)
{
  gsize taken = MIN (length, EXCERPT_CHARS * 4);
  g_autofree char *valid = g_utf8_make_valid (data, (gssize) taken);
  GString *excerpt = g_string_new (NULL);
  guint n = 0;
  const char *p;

  for (p = valid; *p != '\0' && n < EXCERPT_CHARS; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      g_string_append_unichar (excerpt, g_unichar_iscntrl (c) ? ' ' : c);
    }
  if (*p != '\0' || taken < length)
    g_string_append (excerpt, "…");

  return g_string_free (excerpt, FALSE);
}

/* Parses one complete line, without its newline. */
static void
worker_handle_line (Worker     *worker,
                    const char *data,
                    gsize       length)
{
  GError *error = NULL;
  const AcpJsonValue *root;
  AcpParsed *parsed;
  gsize size = length;

  if (length > 0 && data[length - 1] == '\r')
    length--;
  if (length == 0)
    return;

  g_atomic_int_set (&worker->reader->parsing, TRUE);
  root = acp_json_doc_read (worker->doc, data, length, MAX_NESTING_DEPTH, &error);
  g_atomic_int_set (&worker->reader->parsing, FALSE);

  /* before preparing: the log has every message as it came */
  if (worker->reader->log != NULL && (root != NULL || error != NULL))
    acp_traffic_log_add_message (worker->reader->log, ACP_TRAFFIC_IN, data, length,
                                 worker->doc, root);

  if (error != NULL)
    {
      parsed = parsed_new (ACP_PARSED_NOT_JSON, size);
      parsed->error = error;
      parsed->excerpt = make_excerpt (data, length);
    }
  else if (root != NULL)
    {
      gpointer prepared = worker_prepare (worker, root);

      if (prepared != NULL)
        {
          worker_add_prepared (worker, prepared, size);
          return;
        }

      parsed = parsed_new (ACP_PARSED_MESSAGE, size);
      parsed->root = acp_json_value_to_node (worker->doc, root);
    }
  else
    {
      return;  /* only whitespace */
    }

  worker_add (worker, parsed);
}

static void
worker_drop_line (Worker *worker)
{
  /* Give the memory of a long line back rather than keeping its capacity. */
  if (worker->line->len > READ_CHUNK_SIZE)
    {
      g_byte_array_unref (worker->line);
      worker->line = g_byte_array_new ();
    }
  else
    {
      g_byte_array_set_size (worker->line, 0);
    }
}

/* Splits what was read into lines and parses them. Returns FALSE when the
 * connection closed meanwhile. */
static gboolean
worker_scan (Worker     *worker,
             const char *start,
             gsize       size)
{
  gsize offset = 0;

  while (offset < size)
    {
      const char *data = start + offset;
      const char *newline;
      gsize piece;

      if (g_atomic_int_get (&worker->reader->stopping))
        return FALSE;

      newline = memchr (data, '\n', size - offset);
      piece = newline != NULL ? (gsize) (newline - data) : size - offset;
      offset += piece + (newline != NULL ? 1 : 0);

      if (worker->discarding)
        {
          worker->discarding = (newline == NULL);
          continue;
        }

      if (worker->line->len + piece > worker->max_line_length)
        {
          AcpParsed *parsed = parsed_new (ACP_PARSED_TOO_LONG, 0);

          parsed->limit = worker->max_line_length;
          if (worker->reader->log != NULL)
            {
              /* formatted apart: a format macro would cut the message short */
              g_autofree char *limit = g_strdup_printf ("%" G_GSIZE_FORMAT, worker->max_line_length);
              g_autofree char *what = g_strdup_printf (_("A message longer than the limit of %s bytes "
                                                         "was skipped"), limit);

              acp_traffic_log_add_text (worker->reader->log, ACP_TRAFFIC_DROPPED, what, strlen (what));
            }
          worker_drop_line (worker);
          worker->discarding = (newline == NULL);
          worker_add (worker, parsed);
          continue;
        }

      if (newline == NULL)
        {
          g_byte_array_append (worker->line, (const guint8 *) data, piece);
        }
      else if (worker->line->len == 0)
        {
          worker_handle_line (worker, data, piece);
        }
      else
        {
          g_byte_array_append (worker->line, (const guint8 *) data, piece);
          worker_handle_line (worker, (const char *) worker->line->data, worker->line->len);
          worker_drop_line (worker);
        }
    }

  return TRUE;
}

/* Hands the results so far to the main thread, with the count of bytes of
 * input the worker is now done with and whether the input @ended, and wakes
 * it unless a wake-up is pending already. */
static void
worker_publish (Worker   *worker,
                gsize     n_read,
                gboolean  ended)
{
  AcpLineReader *reader = worker->reader;
  gboolean wake;

  /* what comes next is not joined to what is handed over */
  worker->last_prepared = NULL;
  g_mutex_lock (&reader->lock);
  acp_parsed_list_concat (&reader->results, &worker->results);
  reader->n_read += n_read;
  reader->ended = ended;
  reader->n_produced += worker->n_produced;
  worker->n_produced = 0;
  wake = !g_atomic_int_get (&reader->wake_pending);
  g_atomic_int_set (&reader->wake_pending, TRUE);
  g_mutex_unlock (&reader->lock);

  if (wake)
    g_main_context_wakeup (reader->context);
}

/* Parsed trees take many times the memory of their text: while the lines
 * parsed and not yet dispatched come to more than PARSE_AHEAD_MAX bytes of
 * input, waits until the main thread brought them down to
 * PARSE_AHEAD_RESUME. Takes the cap on lines for what it reads next.
 * Returns FALSE when the connection closed. */
static gboolean
worker_wait_for_room (Worker *worker)
{
  AcpLineReader *reader = worker->reader;
  gboolean go_on;

  g_mutex_lock (&reader->lock);
  worker->max_line_length = reader->max_line_length;
  if (reader->n_produced - reader->n_dispatched > ACP_CONNECTION_PARSE_AHEAD_MAX)
    {
      reader->waiting = TRUE;
      while (!g_atomic_int_get (&reader->stopping) &&
             reader->n_produced - reader->n_dispatched > ACP_CONNECTION_PARSE_AHEAD_RESUME)
        g_cond_wait (&reader->room, &reader->lock);
      reader->waiting = FALSE;
    }
  go_on = !g_atomic_int_get (&reader->stopping);
  g_mutex_unlock (&reader->lock);

  return go_on;
}

/* Reads and parses until the end of the stream, an error or the close of
 * the connection. */
static void
worker_run (Worker *worker)
{
  AcpLineReader *reader = worker->reader;
  g_autofree char *buffer = g_malloc (READ_CHUNK_SIZE);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      gssize n;

      if (!worker_wait_for_room (worker))
        return;

      n = g_input_stream_read (reader->input, buffer, READ_CHUNK_SIZE, reader->cancellable, &error);
      if (g_atomic_int_get (&reader->stopping))
        return;

      if (n < 0)
        {
          AcpParsed *parsed = parsed_new (ACP_PARSED_READ_ERROR, 0);

          /* the end and errors are handed over behind the lines read before */
          g_debug ("Reading failed: %s", error->message);
          parsed->error = g_steal_pointer (&error);
          worker_add (worker, parsed);
          worker_publish (worker, 0, TRUE);
          return;
        }

      if (n == 0)
        {
          g_debug ("End of stream");
          /* a last line without a newline still counts */
          if (worker->line->len > 0 && !worker->discarding)
            worker_handle_line (worker, (const char *) worker->line->data, worker->line->len);
          worker_add (worker, parsed_new (ACP_PARSED_END, 0));
          worker_publish (worker, 0, TRUE);
          return;
        }

      if (!worker_scan (worker, buffer, (gsize) n))
        return;
      worker_publish (worker, (gsize) n, FALSE);
    }
}

/* Tells the main context that the worker no longer reads. */
static void
worker_done_reading (AcpLineReader *reader)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, reader->done_func, g_steal_pointer (&reader->done_data),
                         reader->done_notify);
  g_source_set_static_name (source, "[palaver] acp connection reader done");
  g_source_attach (source, reader->context);
  g_source_unref (source);
}

static gpointer
worker_thread (gpointer data)
{
  Worker worker = { 0 };

  worker.reader = data;
  worker.line = g_byte_array_new ();
  worker.doc = acp_json_doc_new ();

  worker_run (&worker);
  worker_done_reading (worker.reader);

  acp_parsed_list_clear (&worker.results);
  acp_json_doc_free (worker.doc);
  g_byte_array_unref (worker.line);
  acp_line_reader_unref (worker.reader);
  g_atomic_int_add (&n_running_workers, -1);

  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The connection's side, on the main thread                                 */

void
acp_line_reader_set_preparer (AcpLineReader               *reader,
                              const AcpConnectionPreparer *preparer)
{
  reader->preparer = preparer;
}

void
acp_line_reader_set_traffic_log (AcpLineReader *reader,
                                 AcpTrafficLog *log)
{
  g_set_object (&reader->log, log);
}

void
acp_line_reader_set_done_func (AcpLineReader  *reader,
                               GSourceFunc     func,
                               gpointer        data,
                               GDestroyNotify  notify)
{
  reader->done_func = func;
  reader->done_data = data;
  reader->done_notify = notify;
}

gboolean
acp_line_reader_start (AcpLineReader  *reader,
                       GError        **error)
{
  GThread *thread;

  g_atomic_int_inc (&n_running_workers);
  thread = g_thread_try_new ("acp-reader", worker_thread, acp_line_reader_ref (reader), error);
  if (thread == NULL)
    {
      g_atomic_int_add (&n_running_workers, -1);
      acp_line_reader_unref (reader);  /* the thread's reference */
      return FALSE;
    }
  /* nobody joins it: it ends on its own once stopped */
  g_thread_unref (thread);

  return TRUE;
}

void
acp_line_reader_stop (AcpLineReader *reader)
{
  g_atomic_int_set (&reader->stopping, TRUE);
  g_cancellable_cancel (reader->cancellable);
  g_mutex_lock (&reader->lock);
  g_cond_signal (&reader->room);
  g_mutex_unlock (&reader->lock);
}

/* Fires on the connection's context when the worker handed results over. */
typedef struct
{
  GSource        source;
  AcpLineReader *reader;
} ResultsSource;

static gboolean
results_source_prepare (GSource *source,
                        int     *timeout)
{
  *timeout = -1;
  return g_atomic_int_get (&((ResultsSource *) source)->reader->wake_pending);
}

static gboolean
results_source_check (GSource *source)
{
  return g_atomic_int_get (&((ResultsSource *) source)->reader->wake_pending);
}

static gboolean
results_source_dispatch (GSource     *source,
                         GSourceFunc  callback,
                         gpointer     user_data)
{
  return callback (user_data);
}

static void
results_source_finalize (GSource *source)
{
  acp_line_reader_unref (((ResultsSource *) source)->reader);
}

static GSourceFuncs results_source_funcs = {
  .prepare = results_source_prepare,
  .check = results_source_check,
  .dispatch = results_source_dispatch,
  .finalize = results_source_finalize,
};

GSource *
acp_line_reader_results_source_new (AcpLineReader *reader)
{
  GSource *source = g_source_new (&results_source_funcs, sizeof (ResultsSource));

  ((ResultsSource *) source)->reader = acp_line_reader_ref (reader);

  return source;
}

void
acp_line_reader_take_results (AcpLineReader *reader,
                              AcpParsedList *to,
                              guint64       *n_read,
                              gboolean      *ended,
                              guint64       *n_produced)
{
  AcpParsedList taken;

  g_mutex_lock (&reader->lock);
  taken = reader->results;
  reader->results.head = reader->results.tail = NULL;
  *n_read = reader->n_read;
  *ended = reader->ended;
  *n_produced = reader->n_produced;
  g_atomic_int_set (&reader->wake_pending, FALSE);
  g_mutex_unlock (&reader->lock);

  acp_parsed_list_concat (to, &taken);
}

/* Lets the worker parse on when it waits for room and the results not yet
 * dispatched are down to ACP_CONNECTION_PARSE_AHEAD_RESUME. */
void
acp_line_reader_report_dispatched (AcpLineReader *reader,
                                   guint64        n_dispatched)
{
  g_mutex_lock (&reader->lock);
  reader->n_dispatched = n_dispatched;
  if (reader->waiting &&
      reader->n_produced - reader->n_dispatched <= ACP_CONNECTION_PARSE_AHEAD_RESUME)
    g_cond_signal (&reader->room);
  g_mutex_unlock (&reader->lock);
}

void
acp_line_reader_set_max_line_length (AcpLineReader *reader,
                                     gsize          max_line_length)
{
  g_mutex_lock (&reader->lock);
  reader->max_line_length = max_line_length;
  g_mutex_unlock (&reader->lock);
}

gboolean
acp_line_reader_is_parsing (AcpLineReader *reader)
{
  return g_atomic_int_get (&reader->parsing);
}

gboolean
acp_line_reader_is_waiting (AcpLineReader *reader)
{
  gboolean waiting;

  g_mutex_lock (&reader->lock);
  waiting = reader->waiting;
  g_mutex_unlock (&reader->lock);

  return waiting;
}

guint
acp_line_reader_get_n_running (void)
{
  return (guint) g_atomic_int_get (&n_running_workers);
}
