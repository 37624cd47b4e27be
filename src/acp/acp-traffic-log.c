/* acp-traffic-log.c: what went between the client and an agent, lately
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents fail in ways only their traffic explains. The connection hands
 * every line it reads (from its reading thread, parsed already) and every
 * message it writes to the log, and the agent its stderr lines. The log
 * keeps the last entries in a list model for the agent log window; an
 * entry keeps the text of its message (up to ACP_TRAFFIC_TEXT_MAX) and what
 * a list shows of it, taken once when it is added.
 *
 * An agent replaying a long session writes a hundred thousand lines a
 * second, and all but the last few thousand of their entries are dropped
 * unseen. So what the reading thread adds is a plain record (cheap to make
 * and to drop: making and finalising a GObject takes GLib's global locks,
 * which the main thread's signals wait for), in a queue that drops its
 * oldest at once past the bound; the model takes the queue at most every
 * FLUSH_INTERVAL_US, and while the queue overflows every
 * FLOOD_FLUSH_INTERVAL_US (a list view over it pays for every change, and
 * the records the model drops are freed on the main thread); and an entry
 * is made of a record only when someone asks the model for it.
 */

#include "config.h"

#include <string.h>

#include "acp-traffic-log.h"

/* Requests whose answer is awaited, for the durations: a bound for agents
 * that never answer. */
#define MAX_OPEN_REQUESTS 4096
/* The model takes new entries at most this often; while the queue drops
 * entries, at most this often */
#define FLUSH_INTERVAL_US       (100 * G_TIME_SPAN_MILLISECOND)
#define FLOOD_FLUSH_INTERVAL_US G_TIME_SPAN_SECOND

/* What an entry holds: made by the thread that adds it (a plain struct,
 * cheap to make and to drop); an item of the model until someone asks for
 * it, who gets an AcpTrafficEntry made of it then (see
 * acp_traffic_log_get_item ()) */
typedef struct
{
  gint64               time;
  AcpTrafficDirection  direction;
  char                *method;
  char                *id;
  char                *session_id;
  gboolean             is_error;
  gboolean             is_response;
  gboolean             truncated;
  gsize                size;
  gint64               duration;
  char                *text;
  AcpTrafficEntry     *entry;      /* in the model: made of this once asked for */
} Record;

static void
record_clear (Record *record)
{
  g_free (record->method);
  g_free (record->id);
  g_free (record->session_id);
  g_free (record->text);
}

static void
record_free (Record *record)
{
  record_clear (record);
  if (record->entry != NULL)
    g_object_unref (record->entry);
  g_free (record);
}

struct _AcpTrafficEntry
{
  GObject              parent_instance;

  Record               record;
};

G_DEFINE_FINAL_TYPE (AcpTrafficEntry, acp_traffic_entry, G_TYPE_OBJECT)

static void
acp_traffic_entry_finalize (GObject *object)
{
  AcpTrafficEntry *self = ACP_TRAFFIC_ENTRY (object);

  record_clear (&self->record);

  G_OBJECT_CLASS (acp_traffic_entry_parent_class)->finalize (object);
}

static void
acp_traffic_entry_class_init (AcpTrafficEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = acp_traffic_entry_finalize;
}

static void
acp_traffic_entry_init (AcpTrafficEntry *self)
{
}

/* The entry of @record, made of it the first time: what it holds moves to
 * the entry. (transfer none) */
static AcpTrafficEntry *
record_get_entry (Record *record)
{
  if (record->entry == NULL)
    {
      AcpTrafficEntry *entry = g_object_new (ACP_TYPE_TRAFFIC_ENTRY, NULL);

      entry->record = *record;
      memset (record, 0, sizeof *record);
      record->entry = entry;
    }

  return record->entry;
}

static Record *
record_new (AcpTrafficDirection  direction,
            const char          *text,
            gsize                size)
{
  Record *self = g_new0 (Record, 1);
  gsize kept = MIN (size, ACP_TRAFFIC_TEXT_MAX);

  self->duration = -1;
  self->time = g_get_real_time ();
  self->direction = direction;
  self->size = size;
  /* whole characters only: the text is shown */
  if (kept < size)
    {
      const char *end = text + kept;

      while (end > text && (*end & 0xC0) == 0x80)
        end--;
      kept = end - text;
      self->truncated = TRUE;
    }
  self->text = g_utf8_make_valid (text, kept);

  return self;
}

/* The id as JSON text: "7", "\"abc\"", "null". */
static char *
id_to_string (const AcpJsonDoc   *doc,
              const AcpJsonValue *id)
{
  g_autoptr(JsonNode) node = NULL;

  if (acp_json_value_is (id, ACP_JSON_STRING))
    return g_strdup_printf ("\"%s\"", acp_json_value_get_string (doc, id));

  node = acp_json_value_to_node (doc, id);
  return json_to_string (node, FALSE);
}

static void
describe_message (Record             *self,
                  const AcpJsonDoc   *doc,
                  const AcpJsonValue *message)
{
  const AcpJsonValue *id = acp_json_value_get_member (doc, message, "id");
  const AcpJsonValue *params = acp_json_value_get_member (doc, message, "params");

  self->method = g_strdup (acp_json_value_get_string_member (doc, message, "method"));
  if (id != NULL)
    self->id = id_to_string (doc, id);
  self->is_response = self->method == NULL && self->id != NULL;
  self->is_error = acp_json_value_get_member (doc, message, "error") != NULL;
  self->session_id = g_strdup (acp_json_value_get_string_member (doc, params, "sessionId"));
}

gint64
acp_traffic_entry_get_time (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), 0);
  return self->record.time;
}

AcpTrafficDirection
acp_traffic_entry_get_direction (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), ACP_TRAFFIC_IN);
  return self->record.direction;
}

const char *
acp_traffic_entry_get_method (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->record.method;
}

const char *
acp_traffic_entry_get_id (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->record.id;
}

const char *
acp_traffic_entry_get_session_id (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->record.session_id;
}

gboolean
acp_traffic_entry_get_is_error (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), FALSE);
  return self->record.is_error;
}

gsize
acp_traffic_entry_get_size (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), 0);
  return self->record.size;
}

gint64
acp_traffic_entry_get_duration (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), -1);
  return self->record.duration;
}

const char *
acp_traffic_entry_get_text (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->record.text;
}

gboolean
acp_traffic_entry_get_truncated (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), FALSE);
  return self->record.truncated;
}

static const char *
direction_name (AcpTrafficDirection direction)
{
  switch (direction)
    {
    case ACP_TRAFFIC_OUT:
      return "out";
    case ACP_TRAFFIC_STDERR:
      return "stderr";
    case ACP_TRAFFIC_DROPPED:
      return "dropped";
    case ACP_TRAFFIC_IN:
    default:
      return "in";
    }
}

char *
acp_traffic_entry_to_json_line (AcpTrafficEntry *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) message = NULL;
  g_autoptr(GDateTime) seconds = NULL;
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *iso = NULL;

  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);

  seconds = g_date_time_new_from_unix_utc (self->record.time / G_USEC_PER_SEC);
  time = g_date_time_add (seconds, self->record.time % G_USEC_PER_SEC);
  iso = g_date_time_format_iso8601 (time);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, iso);
  json_builder_set_member_name (builder, "direction");
  json_builder_add_string_value (builder, direction_name (self->record.direction));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, self->record.size);
  if (self->record.duration >= 0)
    {
      json_builder_set_member_name (builder, "durationMs");
      json_builder_add_double_value (builder, self->record.duration / 1000.0);
    }

  if ((self->record.direction == ACP_TRAFFIC_IN || self->record.direction == ACP_TRAFFIC_OUT) && !self->record.truncated)
    message = json_from_string (self->record.text, NULL);
  if (message != NULL)
    {
      json_builder_set_member_name (builder, "message");
      json_builder_add_value (builder, g_steal_pointer (&message));
    }
  else
    {
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, self->record.text);
      if (self->record.truncated)
        {
          json_builder_set_member_name (builder, "truncated");
          json_builder_add_boolean_value (builder, TRUE);
        }
    }
  json_builder_end_object (builder);

  {
    g_autoptr(JsonNode) root = json_builder_get_root (builder);

    return json_to_string (root, FALSE);
  }
}

/* ------------------------------------------------------------------------ */

struct _AcpTrafficLog
{
  GObject       parent_instance;

  guint         max_entries;
  GMainContext *context;

  /* the model, main context only */
  GPtrArray    *items;           /* Record, owned */
  GHashTable   *open_requests;   /* "in|out id" → gint64 time */
  guint64       n_dropped;
  gint64        last_flush;      /* monotonic; written under the lock */

  /* from any thread */
  GMutex        lock;
  GQueue        pending;         /* Record, owned; max_entries at most */
  guint64       n_dropped_pending;
  gboolean      flooded;         /* the queue dropped entries before the last flush */
  GSource      *flush_source;
};

static void acp_traffic_log_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AcpTrafficLog, acp_traffic_log, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, acp_traffic_log_model_init))

static GType
acp_traffic_log_get_item_type (GListModel *model)
{
  return ACP_TYPE_TRAFFIC_ENTRY;
}

static guint
acp_traffic_log_get_n_items (GListModel *model)
{
  return ACP_TRAFFIC_LOG (model)->items->len;
}

static gpointer
acp_traffic_log_get_item (GListModel *model,
                          guint       position)
{
  AcpTrafficLog *self = ACP_TRAFFIC_LOG (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (record_get_entry (g_ptr_array_index (self->items, position)));
}

static void
acp_traffic_log_model_init (GListModelInterface *iface)
{
  iface->get_item_type = acp_traffic_log_get_item_type;
  iface->get_n_items = acp_traffic_log_get_n_items;
  iface->get_item = acp_traffic_log_get_item;
}

/* The duration of a response, from the time of its request. */
static void
match_request (AcpTrafficLog *self,
               Record        *record)
{
  g_autofree char *key = NULL;
  gpointer time;

  if (record->id == NULL ||
      (record->direction != ACP_TRAFFIC_IN && record->direction != ACP_TRAFFIC_OUT))
    return;

  if (!record->is_response)
    {
      if (g_hash_table_size (self->open_requests) >= MAX_OPEN_REQUESTS)
        g_hash_table_remove_all (self->open_requests);
      key = g_strconcat (record->direction == ACP_TRAFFIC_OUT ? "out " : "in ", record->id, NULL);
      g_hash_table_replace (self->open_requests, g_steal_pointer (&key),
                            g_memdup2 (&record->time, sizeof record->time));
      return;
    }

  /* a response goes the other way */
  key = g_strconcat (record->direction == ACP_TRAFFIC_IN ? "out " : "in ", record->id, NULL);
  if ((time = g_hash_table_lookup (self->open_requests, key)) != NULL)
    {
      record->duration = record->time - *(gint64 *) time;
      g_hash_table_remove (self->open_requests, key);
    }
}

void
acp_traffic_log_flush (AcpTrafficLog *self)
{
  g_autoptr(GPtrArray) added = NULL;
  guint removed = 0;
  guint n_added;
  guint64 dropped;
  GQueue taken;
  Record *record;

  g_return_if_fail (ACP_IS_TRAFFIC_LOG (self));

  g_mutex_lock (&self->lock);
  taken = self->pending;
  g_queue_init (&self->pending);
  dropped = self->n_dropped_pending;
  self->n_dropped_pending = 0;
  self->flooded = dropped > 0;
  if (self->flush_source != NULL)
    {
      g_source_destroy (self->flush_source);
      g_clear_pointer (&self->flush_source, g_source_unref);
    }
  self->last_flush = g_get_monotonic_time ();
  g_mutex_unlock (&self->lock);

  self->n_dropped += dropped;
  if (taken.length == 0)
    return;

  added = g_ptr_array_new_full (taken.length, (GDestroyNotify) record_free);
  while ((record = g_queue_pop_head (&taken)) != NULL)
    g_ptr_array_add (added, record);

  for (guint i = 0; i < added->len; i++)
    match_request (self, g_ptr_array_index (added, i));

  if (self->items->len + added->len > self->max_entries)
    {
      removed = MIN (self->items->len, self->items->len + added->len - self->max_entries);
      g_ptr_array_remove_range (self->items, 0, removed);
      self->n_dropped += removed;
    }
  n_added = added->len;
  g_ptr_array_extend_and_steal (self->items, g_steal_pointer (&added));

  if (removed > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), self->items->len - n_added, 0, n_added);
}

static gboolean
flush_cb (gpointer user_data)
{
  acp_traffic_log_flush (user_data);

  return G_SOURCE_REMOVE;
}

static void
add_record (AcpTrafficLog *self,
            Record        *record)
{
  Record *oldest = NULL;

  g_mutex_lock (&self->lock);
  g_queue_push_tail (&self->pending, record);
  /* the main thread lags behind a flood: the bound holds here too */
  if (self->pending.length > self->max_entries)
    {
      oldest = g_queue_pop_head (&self->pending);
      self->n_dropped_pending++;
    }
  if (self->flush_source == NULL)
    {
      gint64 interval = self->flooded ? FLOOD_FLUSH_INTERVAL_US : FLUSH_INTERVAL_US;
      gint64 wait = self->last_flush + interval - g_get_monotonic_time ();

      self->flush_source = wait > 0 ? g_timeout_source_new ((guint) (wait / 1000) + 1)
                                    : g_idle_source_new ();
      g_source_set_priority (self->flush_source, G_PRIORITY_LOW);
      g_source_set_callback (self->flush_source, flush_cb, g_object_ref (self), g_object_unref);
      g_source_set_static_name (self->flush_source, "[palaver] traffic log flush");
      g_source_attach (self->flush_source, self->context);
    }
  g_mutex_unlock (&self->lock);

  g_clear_pointer (&oldest, record_free);
}

void
acp_traffic_log_add_message (AcpTrafficLog       *self,
                             AcpTrafficDirection  direction,
                             const char          *text,
                             gsize                size,
                             const AcpJsonDoc    *doc,
                             const AcpJsonValue  *message)
{
  Record *record;

  g_return_if_fail (ACP_IS_TRAFFIC_LOG (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (message == NULL || doc != NULL);

  record = record_new (direction, text, size);
  if (acp_json_value_is (message, ACP_JSON_OBJECT))
    describe_message (record, doc, message);
  add_record (self, record);
}

void
acp_traffic_log_add_text (AcpTrafficLog       *self,
                          AcpTrafficDirection  direction,
                          const char          *text,
                          gsize                size)
{
  g_return_if_fail (ACP_IS_TRAFFIC_LOG (self));
  g_return_if_fail (text != NULL);

  add_record (self, record_new (direction, text, size));
}

guint64
acp_traffic_log_get_n_dropped (AcpTrafficLog *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_LOG (self), 0);

  return self->n_dropped;
}

static void
acp_traffic_log_finalize (GObject *object)
{
  AcpTrafficLog *self = ACP_TRAFFIC_LOG (object);

  g_ptr_array_unref (self->items);
  g_queue_clear_full (&self->pending, (GDestroyNotify) record_free);
  g_hash_table_unref (self->open_requests);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (acp_traffic_log_parent_class)->finalize (object);
}

static void
acp_traffic_log_class_init (AcpTrafficLogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = acp_traffic_log_finalize;
}

static void
acp_traffic_log_init (AcpTrafficLog *self)
{
  g_mutex_init (&self->lock);
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) record_free);
  self->open_requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->context = g_main_context_ref_thread_default ();
}

AcpTrafficLog *
acp_traffic_log_new (guint max_entries)
{
  AcpTrafficLog *self = g_object_new (ACP_TYPE_TRAFFIC_LOG, NULL);

  self->max_entries = MAX (max_entries, 1);

  return self;
}
