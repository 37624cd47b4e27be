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
 */

#include "config.h"

#include <string.h>

#include "acp-traffic-log.h"

/* Requests whose answer is awaited, for the durations: a bound for agents
 * that never answer. */
#define MAX_OPEN_REQUESTS 4096

struct _AcpTrafficEntry
{
  GObject              parent_instance;

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
};

G_DEFINE_FINAL_TYPE (AcpTrafficEntry, acp_traffic_entry, G_TYPE_OBJECT)

static void
acp_traffic_entry_finalize (GObject *object)
{
  AcpTrafficEntry *self = ACP_TRAFFIC_ENTRY (object);

  g_free (self->method);
  g_free (self->id);
  g_free (self->session_id);
  g_free (self->text);

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
  self->duration = -1;
}

static AcpTrafficEntry *
entry_new (AcpTrafficDirection  direction,
           const char          *text,
           gsize                size)
{
  AcpTrafficEntry *self = g_object_new (ACP_TYPE_TRAFFIC_ENTRY, NULL);
  gsize kept = MIN (size, ACP_TRAFFIC_TEXT_MAX);

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
id_to_string (JsonNode *id)
{
  if (JSON_NODE_HOLDS_VALUE (id) && json_node_get_value_type (id) == G_TYPE_STRING)
    return g_strdup_printf ("\"%s\"", json_node_get_string (id));

  return json_to_string (id, FALSE);
}

static void
describe_message (AcpTrafficEntry *self,
                  JsonObject      *message)
{
  JsonNode *node;

  if ((node = json_object_get_member (message, "method")) != NULL &&
      JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    self->method = g_strdup (json_node_get_string (node));

  if ((node = json_object_get_member (message, "id")) != NULL)
    self->id = id_to_string (node);

  self->is_response = self->method == NULL && self->id != NULL;
  self->is_error = json_object_has_member (message, "error");

  if ((node = json_object_get_member (message, "params")) != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonNode *session = json_object_get_member (json_node_get_object (node), "sessionId");

      if (session != NULL && JSON_NODE_HOLDS_VALUE (session) &&
          json_node_get_value_type (session) == G_TYPE_STRING)
        self->session_id = g_strdup (json_node_get_string (session));
    }
}

gint64
acp_traffic_entry_get_time (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), 0);
  return self->time;
}

AcpTrafficDirection
acp_traffic_entry_get_direction (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), ACP_TRAFFIC_IN);
  return self->direction;
}

const char *
acp_traffic_entry_get_method (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->method;
}

const char *
acp_traffic_entry_get_id (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->id;
}

const char *
acp_traffic_entry_get_session_id (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->session_id;
}

gboolean
acp_traffic_entry_get_is_error (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), FALSE);
  return self->is_error;
}

gsize
acp_traffic_entry_get_size (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), 0);
  return self->size;
}

gint64
acp_traffic_entry_get_duration (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), -1);
  return self->duration;
}

const char *
acp_traffic_entry_get_text (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), NULL);
  return self->text;
}

gboolean
acp_traffic_entry_get_truncated (AcpTrafficEntry *self)
{
  g_return_val_if_fail (ACP_IS_TRAFFIC_ENTRY (self), FALSE);
  return self->truncated;
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

  seconds = g_date_time_new_from_unix_utc (self->time / G_USEC_PER_SEC);
  time = g_date_time_add (seconds, self->time % G_USEC_PER_SEC);
  iso = g_date_time_format_iso8601 (time);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, iso);
  json_builder_set_member_name (builder, "direction");
  json_builder_add_string_value (builder, direction_name (self->direction));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, self->size);
  if (self->duration >= 0)
    {
      json_builder_set_member_name (builder, "durationMs");
      json_builder_add_double_value (builder, self->duration / 1000.0);
    }

  if ((self->direction == ACP_TRAFFIC_IN || self->direction == ACP_TRAFFIC_OUT) && !self->truncated)
    message = json_from_string (self->text, NULL);
  if (message != NULL)
    {
      json_builder_set_member_name (builder, "message");
      json_builder_add_value (builder, g_steal_pointer (&message));
    }
  else
    {
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, self->text);
      if (self->truncated)
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
  GPtrArray    *items;
  GHashTable   *open_requests;   /* "in|out id" → gint64 time */
  guint64       n_dropped;

  /* from any thread */
  GMutex        lock;
  GPtrArray    *pending;
  guint64       n_dropped_pending;
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

  return g_object_ref (g_ptr_array_index (self->items, position));
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
match_request (AcpTrafficLog   *self,
               AcpTrafficEntry *entry)
{
  g_autofree char *key = NULL;
  gpointer time;

  if (entry->id == NULL || (entry->direction != ACP_TRAFFIC_IN && entry->direction != ACP_TRAFFIC_OUT))
    return;

  if (!entry->is_response)
    {
      if (g_hash_table_size (self->open_requests) >= MAX_OPEN_REQUESTS)
        g_hash_table_remove_all (self->open_requests);
      key = g_strconcat (entry->direction == ACP_TRAFFIC_OUT ? "out " : "in ", entry->id, NULL);
      g_hash_table_replace (self->open_requests, g_steal_pointer (&key),
                            g_memdup2 (&entry->time, sizeof entry->time));
      return;
    }

  /* a response goes the other way */
  key = g_strconcat (entry->direction == ACP_TRAFFIC_IN ? "out " : "in ", entry->id, NULL);
  if ((time = g_hash_table_lookup (self->open_requests, key)) != NULL)
    {
      entry->duration = entry->time - *(gint64 *) time;
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

  g_return_if_fail (ACP_IS_TRAFFIC_LOG (self));

  g_mutex_lock (&self->lock);
  added = g_steal_pointer (&self->pending);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  dropped = self->n_dropped_pending;
  self->n_dropped_pending = 0;
  g_clear_pointer (&self->flush_source, g_source_unref);
  g_mutex_unlock (&self->lock);

  self->n_dropped += dropped;
  if (added->len == 0)
    return;

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
add_entry (AcpTrafficLog   *self,
           AcpTrafficEntry *entry)
{
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->pending, entry);
  /* the main thread lags behind a flood: the bound holds here too */
  if (self->pending->len > self->max_entries)
    {
      guint over = self->pending->len - self->max_entries;

      g_ptr_array_remove_range (self->pending, 0, over);
      self->n_dropped_pending += over;
    }
  if (self->flush_source == NULL)
    {
      self->flush_source = g_idle_source_new ();
      g_source_set_priority (self->flush_source, G_PRIORITY_LOW);
      g_source_set_callback (self->flush_source, flush_cb, g_object_ref (self), g_object_unref);
      g_source_set_static_name (self->flush_source, "[palaver] traffic log flush");
      g_source_attach (self->flush_source, self->context);
    }
  g_mutex_unlock (&self->lock);
}

void
acp_traffic_log_add_message (AcpTrafficLog       *self,
                             AcpTrafficDirection  direction,
                             const char          *text,
                             gsize                size,
                             JsonObject          *message)
{
  AcpTrafficEntry *entry;

  g_return_if_fail (ACP_IS_TRAFFIC_LOG (self));
  g_return_if_fail (text != NULL);

  entry = entry_new (direction, text, size);
  if (message != NULL)
    describe_message (entry, message);
  add_entry (self, entry);
}

void
acp_traffic_log_add_text (AcpTrafficLog       *self,
                          AcpTrafficDirection  direction,
                          const char          *text,
                          gsize                size)
{
  g_return_if_fail (ACP_IS_TRAFFIC_LOG (self));
  g_return_if_fail (text != NULL);

  add_entry (self, entry_new (direction, text, size));
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
  g_ptr_array_unref (self->pending);
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
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
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
