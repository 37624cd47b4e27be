/* pal-session-store.c: the session list, newest activity first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-folders.h"
#include "pal-session-store.h"
#include "pal-store-private.h"

#define SESSIONS_KEY "sessions"
#define HIDDEN_KEY   "hidden-sessions"
/* an optional member of an entry (as): missing in entries written before */
#define DIRECTORIES_KEY "additional-directories"

/* On a record: its stored additional directories, when they could not be
 * read, to be written back as they were while it gets no others. */
static GQuark
unreadable_directories_quark (void)
{
  return g_quark_from_static_string ("pal-session-store-unreadable-directories");
}

/**
 * PalSessionStore:
 *
 * A #GListModel of #PalSessionRecord, pinned sessions first, then by
 * #PalSessionRecord:updated, newest first (then newest created, then by id).
 * It follows changes of the records' properties and moves them.
 *
 * The records are stored in the `sessions` key: changes through the API are
 * written at once, changes made directly on a record's properties once per
 * main loop iteration. Entries of the key that cannot be read are skipped,
 * reported by pal_session_store_get_load_errors() and written back unchanged
 * after the readable ones. The optional `additional-directories` member came
 * later: an entry without it has none, and one whose value cannot be read
 * still lists its session, without them, and keeps the value as it was.
 *
 * Sessions learned from an agent's `session/list`
 * (pal_session_store_merge_listed()) are listed with
 * #PalSessionRecord:from-agent set and are not stored: the agent keeps them,
 * and listing them again next time costs nothing, while storing every
 * session of every agent would grow the key without bound. One becomes a
 * stored session as soon as it is used: added with pal_session_store_add()
 * (as the session manager does when it opens it), touched, renamed or pinned
 * through the store.
 *
 * A session removed from the list is remembered as hidden (the
 * `hidden-sessions` key): the agent's list does not bring it back, until
 * pal_session_store_show_hidden() or an explicit add.
 *
 * Sessions are named by their #PalSessionKey, (agent profile, session id):
 * two agents that hand out the same id have two sessions here. Each entry of
 * the `sessions` key has always carried its agent, so entries written when
 * the id alone had to be unique read as they are; and entries of another
 * agent that were skipped then as repeated ids (kept in the key unchanged)
 * are read now.
 *
 * A list of thousands takes a while to read (tens of milliseconds for
 * 10,000): pal_session_store_read_start() reads the key at once and makes
 * the records in a thread of its own, for example while the application
 * opens its display, and pal_session_store_new_from_reading() builds the
 * store from them.
 */
struct _PalSessionStore
{
  GObject parent_instance;

  GSettings *settings;
  PalStoredList list;
  /* construct-only: the key read ahead, taken over in constructed */
  PalSessionStoreReading *reading;

  /* sorted, owning */
  GPtrArray *items;
  /* PalSessionKey → record in items (the record's key, borrowed) */
  GHashTable *by_key;
  /* PalSessionKey (owned) → folder, of the sessions removed from the list */
  GHashTable *hidden;
};

static void pal_session_store_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PalSessionStore, pal_session_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      pal_session_store_list_model_init))

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_LOAD_ERRORS,
  PROP_READING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void record_notify_cb (PalSessionRecord *record,
                              GParamSpec       *pspec,
                              PalSessionStore  *self);

static int
compare_records (PalSessionRecord *a,
                 PalSessionRecord *b)
{
  gboolean pinned_a = pal_session_record_get_pinned (a);
  gboolean pinned_b = pal_session_record_get_pinned (b);
  gint64 time_a;
  gint64 time_b;

  if (pinned_a != pinned_b)
    return pinned_a ? -1 : 1;

  time_a = pal_session_record_get_updated (a);
  time_b = pal_session_record_get_updated (b);
  if (time_a != time_b)
    return time_a > time_b ? -1 : 1;

  time_a = pal_session_record_get_created (a);
  time_b = pal_session_record_get_created (b);
  if (time_a != time_b)
    return time_a > time_b ? -1 : 1;

  return strcmp (pal_session_record_get_id (a), pal_session_record_get_id (b));
}

static int
compare_records_indirect (gconstpointer a,
                          gconstpointer b)
{
  return compare_records (*(PalSessionRecord **) a, *(PalSessionRecord **) b);
}

/* Where @record goes in @items (which does not hold it). */
static guint
insert_position (GPtrArray        *items,
                 PalSessionRecord *record)
{
  guint low = 0;
  guint high = items->len;

  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (compare_records (g_ptr_array_index (items, mid), record) <= 0)
        low = mid + 1;
      else
        high = mid;
    }

  return low;
}

static void
watch_record (PalSessionStore  *self,
              PalSessionRecord *record)
{
  /* Not g_signal_connect_object(): that also keeps every record's handler
   * in a list on the store, which each disconnection searches. The store
   * unwatches every record that leaves the list, and all in dispose. */
  g_signal_connect (record, "notify", G_CALLBACK (record_notify_cb), self);
}

static void
unwatch_record (PalSessionStore  *self,
                PalSessionRecord *record)
{
  g_signal_handlers_disconnect_by_func (record, record_notify_cb, self);
}

static gboolean
is_listed (PalSessionStore  *self,
           PalSessionRecord *record)
{
  return g_hash_table_lookup (self->by_key, pal_session_record_get_key (record)) == record;
}

/* --- writing --- */

static GVariant *
record_to_variant (gpointer item)
{
  PalSessionRecord *record = item;
  GVariantBuilder builder;

  /* sessions only the agent knows are not stored */
  if (pal_session_record_get_from_agent (record))
    return NULL;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&builder, "{sv}", "id",
                         g_variant_new_string (pal_session_record_get_id (record)));
  g_variant_builder_add (&builder, "{sv}", "agent",
                         g_variant_new_string (pal_session_record_get_agent_id (record)));
  g_variant_builder_add (&builder, "{sv}", "cwd",
                         g_variant_new_string (pal_session_record_get_cwd (record)));
  g_variant_builder_add (&builder, "{sv}", "title",
                         g_variant_new_string (pal_session_record_get_title (record)));
  g_variant_builder_add (&builder, "{sv}", "created",
                         g_variant_new_int64 (pal_session_record_get_created (record)));
  g_variant_builder_add (&builder, "{sv}", "updated",
                         g_variant_new_int64 (pal_session_record_get_updated (record)));
  g_variant_builder_add (&builder, "{sv}", "pinned",
                         g_variant_new_boolean (pal_session_record_get_pinned (record)));
  if (pal_session_record_get_renamed (record))
    g_variant_builder_add (&builder, "{sv}", "renamed", g_variant_new_boolean (TRUE));
  if (pal_session_record_get_additional_directories (record)[0] != NULL)
    g_variant_builder_add (&builder, "{sv}", DIRECTORIES_KEY,
                           g_variant_new_strv (pal_session_record_get_additional_directories (record), -1));
  else if (g_object_get_qdata (G_OBJECT (record), unreadable_directories_quark ()) != NULL)
    g_variant_builder_add (&builder, "{sv}", DIRECTORIES_KEY,
                           g_object_get_qdata (G_OBJECT (record), unreadable_directories_quark ()));
  return g_variant_builder_end (&builder);
}

static GPtrArray *
get_items (gpointer owner)
{
  return PAL_SESSION_STORE (owner)->items;
}

/* --- the model --- */

static void
reposition (PalSessionStore  *self,
            PalSessionRecord *record)
{
  guint from;
  guint to;

  if (!g_ptr_array_find (self->items, record, &from))
    return;

  g_ptr_array_steal_index (self->items, from);
  to = insert_position (self->items, record);
  g_ptr_array_insert (self->items, to, record);

  if (from != to)
    {
      guint first = MIN (from, to);
      guint n = MAX (from, to) - first + 1;

      g_list_model_items_changed (G_LIST_MODEL (self), first, n, n);
    }
}

static void
record_notify_cb (PalSessionRecord *record,
                  GParamSpec       *pspec,
                  PalSessionStore  *self)
{
  const char *name = g_param_spec_get_name (pspec);

  if (self->list.loading || !is_listed (self, record))
    return;

  if (g_str_equal (name, "updated") || g_str_equal (name, "pinned") ||
      g_str_equal (name, "created"))
    reposition (self, record);

  if (!pal_session_record_get_from_agent (record) || g_str_equal (name, "from-agent"))
    _pal_stored_list_queue_save (&self->list);
}

static void
replace_items (PalSessionStore *self,
               GPtrArray       *items)
{
  g_ptr_array_sort (items, compare_records_indirect);
  _pal_items_replace (G_LIST_MODEL (self), self->items, items);
}

/* --- reading --- */

static char *
describe_skipped (guint       index,
                  const char *reason)
{
  /* TRANSLATORS: %u is the position of the entry, counted from 1; %s says what is wrong */
  return g_strdup_printf (_("Stored session %u: %s"), index + 1, reason);
}

/* The members of an entry, read in one pass: a list holds thousands. */
enum {
  ENTRY_ID,
  ENTRY_AGENT,
  ENTRY_CWD,
  ENTRY_TITLE,
  ENTRY_CREATED,
  ENTRY_UPDATED,
  ENTRY_PINNED,
  ENTRY_RENAMED,
  ENTRY_DIRECTORIES,
  N_ENTRY_MEMBERS
};

static const char * const entry_members[N_ENTRY_MEMBERS] = {
  "id", "agent", "cwd", "title", "created", "updated", "pinned", "renamed", DIRECTORIES_KEY,
};

static gpointer
parse_entry (GVariant  *entry,
             char     **reason)
{
  g_autofree char *id = NULL;
  g_autofree char *agent = NULL;
  g_autofree char *cwd = NULL;
  g_autofree char *title = NULL;
  gint64 created = 0;
  gint64 updated = -1;
  gboolean pinned = FALSE;
  gboolean renamed = FALSE;
  GVariant *values[N_ENTRY_MEMBERS];
  g_autoptr(GVariant) dirs = NULL;
  g_auto(GStrv) clean_dirs = NULL;
  PalSessionRecord *record;
  gboolean ok;

  _pal_dict_lookup_values (entry, entry_members, N_ENTRY_MEMBERS, values);
  ok = _pal_value_get_string (values[ENTRY_ID], "id", TRUE, &id, reason) &&
       _pal_value_get_string (values[ENTRY_AGENT], "agent", TRUE, &agent, reason) &&
       _pal_value_get_string (values[ENTRY_CWD], "cwd", TRUE, &cwd, reason) &&
       _pal_value_get_string (values[ENTRY_TITLE], "title", FALSE, &title, reason) &&
       _pal_value_get_int64 (values[ENTRY_CREATED], "created", FALSE, &created, reason) &&
       _pal_value_get_int64 (values[ENTRY_UPDATED], "updated", FALSE, &updated, reason) &&
       _pal_value_get_boolean (values[ENTRY_PINNED], "pinned", FALSE, &pinned, reason) &&
       _pal_value_get_boolean (values[ENTRY_RENAMED], "renamed", FALSE, &renamed, reason);
  dirs = g_steal_pointer (&values[ENTRY_DIRECTORIES]);
  _pal_values_clear (values, N_ENTRY_MEMBERS);
  if (!ok)
    return NULL;

  if (*id == '\0')
    {
      *reason = g_strdup (_("the id is empty"));
      return NULL;
    }

  if (updated < 0)
    updated = created;

  record = g_object_new (PAL_TYPE_SESSION_RECORD,
                         "id", id,
                         "agent-id", agent,
                         "cwd", cwd,
                         "title", title,
                         "created", MAX (created, 0),
                         "updated", MAX (updated, 0),
                         "pinned", pinned,
                         "renamed", renamed,
                         NULL);

  /* Unreadable folders do not cost the session: it is listed without
   * them, and they are written back as they were. */
  if (dirs != NULL && g_variant_is_of_type (dirs, G_VARIANT_TYPE_STRING_ARRAY))
    {
      g_autofree const char **given = g_variant_get_strv (dirs, NULL);

      clean_dirs = pal_folders_clean (cwd, given);
      pal_session_record_set_additional_directories (record, (const char * const *) clean_dirs);
    }
  else if (dirs != NULL)
    {
      g_debug ("Stored session %s: the key “%s” has the type “%s” instead of “as”",
               id, DIRECTORIES_KEY, g_variant_get_type_string (dirs));
      g_object_set_qdata_full (G_OBJECT (record), unreadable_directories_quark (),
                               g_steal_pointer (&dirs), (GDestroyNotify) g_variant_unref);
    }

  return record;
}

static void
assign (PalSessionRecord *to,
        PalSessionRecord *from)
{
  g_object_freeze_notify (G_OBJECT (to));
  pal_session_record_set_cwd (to, pal_session_record_get_cwd (from));
  pal_session_record_set_additional_directories (to, pal_session_record_get_additional_directories (from));
  g_object_set_qdata_full (G_OBJECT (to), unreadable_directories_quark (),
                           g_object_steal_qdata (G_OBJECT (from), unreadable_directories_quark ()),
                           (GDestroyNotify) g_variant_unref);
  pal_session_record_set_title (to, pal_session_record_get_title (from));
  pal_session_record_set_created (to, pal_session_record_get_created (from));
  pal_session_record_set_updated (to, pal_session_record_get_updated (from));
  pal_session_record_set_pinned (to, pal_session_record_get_pinned (from));
  pal_session_record_set_renamed (to, pal_session_record_get_renamed (from));
  pal_session_record_set_from_agent (to, FALSE);
  g_object_thaw_notify (G_OBJECT (to));
}

static gconstpointer
get_identity (gpointer item)
{
  return pal_session_record_get_key (item);
}

static char *
describe_repeated (gpointer item)
{
  /* TRANSLATORS: the first %s is a session id, the second an agent profile id */
  return g_strdup_printf (_("the session “%s” of the agent “%s” is listed by an earlier entry"),
                          pal_session_record_get_id (item), pal_session_record_get_agent_id (item));
}

static void
apply_entries (gpointer   owner,
               GPtrArray *parsed)
{
  PalSessionStore *self = owner;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) by_key = g_hash_table_new (pal_session_key_hash, pal_session_key_equal);

  for (guint i = 0; i < parsed->len; i++)
    {
      PalSessionRecord *entry = g_ptr_array_index (parsed, i);
      PalSessionRecord *record;

      record = g_hash_table_lookup (self->by_key, pal_session_record_get_key (entry));
      if (record != NULL)
        assign (record, entry);
      else
        {
          record = entry;
          watch_record (self, record);
        }

      g_ptr_array_add (items, g_object_ref (record));
      g_hash_table_insert (by_key, pal_session_record_get_key (record), record);
    }

  /* Sessions only the agent knows stay; stored ones that left the key go. */
  for (guint i = 0; i < self->items->len; i++)
    {
      PalSessionRecord *record = g_ptr_array_index (self->items, i);

      if (g_hash_table_contains (by_key, pal_session_record_get_key (record)))
        continue;

      if (pal_session_record_get_from_agent (record))
        {
          g_ptr_array_add (items, g_object_ref (record));
          g_hash_table_insert (by_key, pal_session_record_get_key (record), record);
        }
      else
        unwatch_record (self, record);
    }

  g_hash_table_unref (self->by_key);
  self->by_key = g_steal_pointer (&by_key);
  replace_items (self, items);
}

static const PalStoredListFuncs stored_list_funcs = {
  .key = SESSIONS_KEY,
  .identity = PAL_STORED_LIST_IDENTITY_ID,
  .parse_entry = parse_entry,
  .get_identity = get_identity,
  .identity_hash = pal_session_key_hash,
  .identity_equal = pal_session_key_equal,
  .describe_repeated = describe_repeated,
  .describe_skipped = describe_skipped,
  .get_items = get_items,
  .serialize = record_to_variant,
  .apply = apply_entries,
};

/* --- GObject --- */

static GType
pal_session_store_get_item_type (GListModel *model)
{
  return PAL_TYPE_SESSION_RECORD;
}

static guint
pal_session_store_get_n_items (GListModel *model)
{
  return PAL_SESSION_STORE (model)->items->len;
}

static gpointer
pal_session_store_get_item (GListModel *model,
                            guint       position)
{
  PalSessionStore *self = PAL_SESSION_STORE (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
pal_session_store_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = pal_session_store_get_item_type;
  iface->get_n_items = pal_session_store_get_n_items;
  iface->get_item = pal_session_store_get_item;
}

static void
load_hidden (PalSessionStore *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->settings, HIDDEN_KEY);
  GVariantIter iter;
  const char *agent_id, *cwd, *id;

  g_hash_table_remove_all (self->hidden);
  g_variant_iter_init (&iter, value);
  while (g_variant_iter_next (&iter, "(&s&s&s)", &agent_id, &cwd, &id))
    g_hash_table_insert (self->hidden, pal_session_key_new (agent_id, id), g_strdup (cwd));
}

static void
save_hidden (PalSessionStore *self)
{
  GVariantBuilder builder;
  GHashTableIter iter;
  gpointer key, value;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sss)"));
  g_hash_table_iter_init (&iter, self->hidden);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_variant_builder_add (&builder, "(sss)", pal_session_key_get_agent_id (key), (const char *) value,
                           pal_session_key_get_session_id (key));
  g_settings_set_value (self->settings, HIDDEN_KEY, g_variant_builder_end (&builder));
}

static gboolean
is_hidden (PalSessionStore *self,
           PalSessionKey   *key)
{
  return g_hash_table_contains (self->hidden, key);
}

/* The session is the person's again (added on purpose, opened): not hidden. */
static void
unhide (PalSessionStore  *self,
        PalSessionRecord *record)
{
  if (g_hash_table_remove (self->hidden, pal_session_record_get_key (record)))
    save_hidden (self);
}

/* --- reading ahead --- */

struct _PalSessionStoreReading
{
  GSettings          *settings;
  gulong              changed_id;
  /* someone wrote the key since it was read */
  gboolean            changed;
  GVariant           *value;
  GThread            *thread;
  PalStoredListParse *parse;
};

static gpointer
reading_thread (gpointer data)
{
  PalSessionStoreReading *reading = data;

  reading->parse = _pal_stored_list_parse (&stored_list_funcs, reading->value);
  return NULL;
}

static void
reading_changed_cb (GSettings              *settings,
                    const char             *key,
                    PalSessionStoreReading *reading)
{
  reading->changed = TRUE;
}

/**
 * pal_session_store_read_start:
 * @settings: the io.github.palaverapp.Palaver settings
 *
 * Reads the stored sessions now and makes records of them in a thread of
 * its own, so that pal_session_store_new_from_reading() finds them made:
 * for a start, while the display opens. The key is read on the calling
 * thread, the only one that uses @settings.
 *
 * Returns: (transfer full): the reading, for
 *   pal_session_store_new_from_reading() or pal_session_store_reading_free()
 */
PalSessionStoreReading *
pal_session_store_read_start (GSettings *settings)
{
  PalSessionStoreReading *reading;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  reading = g_new0 (PalSessionStoreReading, 1);
  reading->settings = g_object_ref (settings);
  reading->changed_id = g_signal_connect (settings, "changed::" SESSIONS_KEY,
                                          G_CALLBACK (reading_changed_cb), reading);
  reading->value = g_settings_get_value (settings, SESSIONS_KEY);
  reading->thread = g_thread_try_new ("pal-sessions", reading_thread, reading, &error);
  /* else it is read when needed */
  if (reading->thread == NULL)
    g_debug ("Could not read the stored sessions ahead: %s", error->message);

  return reading;
}

/* Waits for the thread; returns what it read (transfer full), or NULL when
 * the key has changed since. Frees @reading. */
static PalStoredListParse *
finish_reading (PalSessionStoreReading *reading)
{
  PalStoredListParse *parse;

  if (reading->thread != NULL)
    g_thread_join (g_steal_pointer (&reading->thread));
  g_clear_signal_handler (&reading->changed_id, reading->settings);

  parse = g_steal_pointer (&reading->parse);
  if (parse == NULL && !reading->changed)
    parse = _pal_stored_list_parse (&stored_list_funcs, reading->value);
  else if (parse != NULL && reading->changed)
    g_clear_pointer (&parse, _pal_stored_list_parse_free);

  g_clear_pointer (&reading->value, g_variant_unref);
  g_clear_object (&reading->settings);
  g_free (reading);

  return parse;
}

/**
 * pal_session_store_reading_free:
 * @reading: (transfer full): a reading not handed to a store
 *
 * Waits for its thread and drops what it read.
 */
void
pal_session_store_reading_free (PalSessionStoreReading *reading)
{
  PalStoredListParse *parse;

  g_return_if_fail (reading != NULL);

  /* no need to read what is thrown away */
  reading->changed = TRUE;
  parse = finish_reading (reading);
  g_clear_pointer (&parse, _pal_stored_list_parse_free);
}

static void
pal_session_store_constructed (GObject *object)
{
  PalSessionStore *self = PAL_SESSION_STORE (object);

  G_OBJECT_CLASS (pal_session_store_parent_class)->constructed (object);

  g_return_if_fail (G_IS_SETTINGS (self->settings));

  _pal_stored_list_start_parsed (&self->list, self->settings,
                                 self->reading != NULL ? finish_reading (g_steal_pointer (&self->reading))
                                                       : NULL);
  load_hidden (self);
  g_signal_connect_object (self->settings, "changed::" HIDDEN_KEY,
                           G_CALLBACK (load_hidden), self, G_CONNECT_SWAPPED);
}

static void
pal_session_store_dispose (GObject *object)
{
  PalSessionStore *self = PAL_SESSION_STORE (object);

  _pal_stored_list_dispose (&self->list);

  for (guint i = 0; i < self->items->len; i++)
    unwatch_record (self, g_ptr_array_index (self->items, i));
  g_hash_table_remove_all (self->by_key);
  g_ptr_array_set_size (self->items, 0);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (pal_session_store_parent_class)->dispose (object);
}

static void
pal_session_store_finalize (GObject *object)
{
  PalSessionStore *self = PAL_SESSION_STORE (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->hidden, g_hash_table_unref);
  _pal_stored_list_clear (&self->list);

  G_OBJECT_CLASS (pal_session_store_parent_class)->finalize (object);
}

static void
pal_session_store_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  PalSessionStore *self = PAL_SESSION_STORE (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_LOAD_ERRORS:
      g_value_set_boxed (value, _pal_stored_list_get_load_errors (&self->list));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_store_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  PalSessionStore *self = PAL_SESSION_STORE (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    case PROP_READING:
      self->reading = g_value_get_pointer (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_store_class_init (PalSessionStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = pal_session_store_constructed;
  object_class->dispose = pal_session_store_dispose;
  object_class->finalize = pal_session_store_finalize;
  object_class->get_property = pal_session_store_get_property;
  object_class->set_property = pal_session_store_set_property;

  /* The io.github.palaverapp.Palaver settings (or a test's own). */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* Why stored entries were skipped; see pal_session_store_get_load_errors(). */
  properties[PROP_LOAD_ERRORS] =
    g_param_spec_boxed ("load-errors", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);

  /* (skip) A PalSessionStoreReading taken over: pal_session_store_new_from_reading(). */
  properties[PROP_READING] =
    g_param_spec_pointer ("reading", NULL, NULL,
                          G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_session_store_init (PalSessionStore *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_key = g_hash_table_new (pal_session_key_hash, pal_session_key_equal);
  self->hidden = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                        (GDestroyNotify) pal_session_key_unref, g_free);
  _pal_stored_list_init (&self->list, &stored_list_funcs, G_OBJECT (self),
                         properties[PROP_LOAD_ERRORS]);
}

/* --- public API --- */

/**
 * pal_session_store_new:
 * @settings: the io.github.palaverapp.Palaver settings
 *
 * Returns: (transfer full): a new store holding the stored sessions
 */
PalSessionStore *
pal_session_store_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (PAL_TYPE_SESSION_STORE, "settings", settings, NULL);
}

/**
 * pal_session_store_new_from_reading:
 * @reading: (transfer full): from pal_session_store_read_start()
 *
 * Like pal_session_store_new() on the settings of @reading, with the
 * sessions it read (waiting for it to finish when need be); the key is read
 * again only when it changed since.
 *
 * Returns: (transfer full): a new store holding the stored sessions
 */
PalSessionStore *
pal_session_store_new_from_reading (PalSessionStoreReading *reading)
{
  g_return_val_if_fail (reading != NULL, NULL);

  return g_object_new (PAL_TYPE_SESSION_STORE,
                       "settings", reading->settings,
                       "reading", reading,
                       NULL);
}

GSettings *
pal_session_store_get_settings (PalSessionStore *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  return self->settings;
}

/**
 * pal_session_store_get_load_errors:
 * @self: a #PalSessionStore
 *
 * Returns: (transfer none): one translated sentence per stored entry that was
 *   skipped the last time the key was read; empty when all were read.
 */
const char * const *
pal_session_store_get_load_errors (PalSessionStore *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  return _pal_stored_list_get_load_errors (&self->list);
}

/**
 * pal_session_store_lookup:
 * @self: a #PalSessionStore
 * @key: (nullable): a session
 *
 * Returns: (transfer none) (nullable): the listed record of that agent and
 *   session id
 */
PalSessionRecord *
pal_session_store_lookup (PalSessionStore *self,
                          PalSessionKey   *key)
{
  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);

  if (key == NULL)
    return NULL;
  return g_hash_table_lookup (self->by_key, key);
}

/**
 * pal_session_store_find_by_id:
 * @self: a #PalSessionStore
 * @session_id: a session id
 *
 * For a session named by its id alone (on the command line): each agent
 * that has a listed session of that id gives one.
 *
 * Returns: (transfer container) (element-type PalSessionRecord): the
 *   records, in list order; empty when none
 */
GPtrArray *
pal_session_store_find_by_id (PalSessionStore *self,
                              const char      *session_id)
{
  GPtrArray *found;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  found = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->items->len; i++)
    {
      PalSessionRecord *record = g_ptr_array_index (self->items, i);

      if (g_str_equal (pal_session_record_get_id (record), session_id))
        g_ptr_array_add (found, g_object_ref (record));
    }

  return found;
}

/**
 * pal_session_store_add:
 * @self: a #PalSessionStore
 * @record: a record
 *
 * Lists and stores @record. A missing #PalSessionRecord:created becomes now,
 * a missing #PalSessionRecord:updated becomes the created time.
 *
 * When a record with the same key is listed already, that one is updated
 * instead and @record is not kept: folder and additional folders are
 * copied, the title when @record has one (unless the person renamed the
 * session), the updated
 * time when @record's is newer; pinned and created stay. Either way the record stops being #PalSessionRecord:from-agent.
 *
 * Returns: (transfer none): the listed record
 */
PalSessionRecord *
pal_session_store_add (PalSessionStore  *self,
                       PalSessionRecord *record)
{
  PalSessionRecord *existing;
  guint position;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (record), NULL);
  g_return_val_if_fail (*pal_session_record_get_id (record) != '\0', NULL);

  unhide (self, record);
  existing = g_hash_table_lookup (self->by_key, pal_session_record_get_key (record));
  if (existing == record)
    {
      pal_session_record_set_from_agent (record, FALSE);
      _pal_stored_list_save (&self->list);
      return record;
    }

  if (existing != NULL)
    {
      self->list.loading = TRUE;
      g_object_freeze_notify (G_OBJECT (existing));
      pal_session_record_set_cwd (existing, pal_session_record_get_cwd (record));
      pal_session_record_set_additional_directories (existing,
                                                     pal_session_record_get_additional_directories (record));
      if (*pal_session_record_get_title (record) != '\0' && !pal_session_record_get_renamed (existing))
        pal_session_record_set_title (existing, pal_session_record_get_title (record));
      if (pal_session_record_get_updated (record) > pal_session_record_get_updated (existing))
        pal_session_record_set_updated (existing, pal_session_record_get_updated (record));
      if (pal_session_record_get_created (existing) == 0)
        pal_session_record_set_created (existing, pal_session_record_get_created (record));
      pal_session_record_set_from_agent (existing, FALSE);
      g_object_thaw_notify (G_OBJECT (existing));
      self->list.loading = FALSE;

      reposition (self, existing);
      _pal_stored_list_save (&self->list);
      return existing;
    }

  self->list.loading = TRUE;
  if (pal_session_record_get_created (record) == 0)
    pal_session_record_set_created (record, g_get_real_time ());
  if (pal_session_record_get_updated (record) == 0)
    pal_session_record_set_updated (record, pal_session_record_get_created (record));
  pal_session_record_set_from_agent (record, FALSE);
  self->list.loading = FALSE;

  position = insert_position (self->items, record);
  g_ptr_array_insert (self->items, position, g_object_ref (record));
  g_hash_table_insert (self->by_key, pal_session_record_get_key (record), record);
  watch_record (self, record);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);

  _pal_stored_list_save (&self->list);
  return record;
}

/**
 * pal_session_store_remove:
 * @self: a #PalSessionStore
 * @key: a session
 *
 * Removes the session from the list (the agent may still have it).
 *
 * Returns: %FALSE when no such session is listed
 */
gboolean
pal_session_store_remove (PalSessionStore *self,
                          PalSessionKey   *key)
{
  PalSessionRecord *record;
  guint position;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  record = g_hash_table_lookup (self->by_key, key);
  if (record == NULL || !g_ptr_array_find (self->items, record, &position))
    return FALSE;

  /* the agent's list is not to bring it back */
  g_hash_table_insert (self->hidden, pal_session_key_ref (pal_session_record_get_key (record)),
                       g_strdup (pal_session_record_get_cwd (record)));
  save_hidden (self);

  unwatch_record (self, record);
  g_hash_table_remove (self->by_key, pal_session_record_get_key (record));
  /* last: @key may be the record's own */
  g_ptr_array_remove_index (self->items, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);

  _pal_stored_list_save (&self->list);
  return TRUE;
}

static gboolean
set_title (PalSessionStore *self,
           PalSessionKey   *key,
           const char      *title,
           gboolean         by_person)
{
  PalSessionRecord *record;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  record = g_hash_table_lookup (self->by_key, key);
  if (record == NULL)
    return FALSE;

  /* the person's title stays */
  if (!by_person && pal_session_record_get_renamed (record))
    return TRUE;

  pal_session_record_set_title (record, title);
  if (by_person)
    pal_session_record_set_renamed (record, TRUE);
  pal_session_record_set_from_agent (record, FALSE);
  _pal_stored_list_save (&self->list);
  return TRUE;
}

/**
 * pal_session_store_set_title:
 * @self: a #PalSessionStore
 * @key: a session
 * @title: (nullable): the new title, from the agent or the first prompt
 *
 * Titles a session and stores it, unless the person renamed it (see
 * pal_session_store_rename()): their title stays.
 *
 * Returns: %FALSE when no such session is listed
 */
gboolean
pal_session_store_set_title (PalSessionStore *self,
                             PalSessionKey   *key,
                             const char      *title)
{
  return set_title (self, key, title, FALSE);
}

/**
 * pal_session_store_rename:
 * @self: a #PalSessionStore
 * @key: a session
 * @title: the title the person gave
 *
 * Renames a session and stores it; titles from the agent no longer replace
 * this one.
 *
 * Returns: %FALSE when no such session is listed
 */
gboolean
pal_session_store_rename (PalSessionStore *self,
                          PalSessionKey   *key,
                          const char      *title)
{
  return set_title (self, key, title, TRUE);
}

/**
 * pal_session_store_touch:
 * @self: a #PalSessionStore
 * @key: a session
 *
 * Sets the updated time to now, which moves the session to the top of the
 * unpinned (or pinned) ones, and stores it.
 *
 * Returns: %FALSE when no such session is listed
 */
gboolean
pal_session_store_touch (PalSessionStore *self,
                         PalSessionKey   *key)
{
  PalSessionRecord *record;
  gint64 now;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  record = g_hash_table_lookup (self->by_key, key);
  if (record == NULL)
    return FALSE;

  /* never backwards, and always a change, even within one microsecond */
  now = MAX (g_get_real_time (), pal_session_record_get_updated (record) + 1);
  pal_session_record_set_updated (record, now);
  pal_session_record_set_from_agent (record, FALSE);
  _pal_stored_list_save (&self->list);
  return TRUE;
}

/**
 * pal_session_store_set_pinned:
 * @self: a #PalSessionStore
 * @key: a session
 * @pinned: whether the session stays on top
 *
 * Returns: %FALSE when no such session is listed
 */
gboolean
pal_session_store_set_pinned (PalSessionStore *self,
                              PalSessionKey   *key,
                              gboolean         pinned)
{
  PalSessionRecord *record;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  record = g_hash_table_lookup (self->by_key, key);
  if (record == NULL)
    return FALSE;

  pal_session_record_set_pinned (record, pinned);
  pal_session_record_set_from_agent (record, FALSE);
  _pal_stored_list_save (&self->list);
  return TRUE;
}

static gint64
parse_iso8601 (const char *text)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) time = NULL;
  gint64 seconds;

  time = g_date_time_new_from_iso8601 (text, utc);
  if (time == NULL)
    return -1;

  seconds = g_date_time_to_unix (time);
  if (seconds < 0 || seconds > G_MAXINT64 / G_USEC_PER_SEC - 1)
    return -1;
  return seconds * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

static const char *
get_string_member (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* The usable entries of an agent's additionalDirectories (strings that are
 * absolute paths; others are skipped), or NULL when it gave none. */
static GStrv
get_directories_member (JsonObject *info,
                        const char *cwd)
{
  JsonNode *node = json_object_get_member (info, "additionalDirectories");
  g_autoptr(GPtrArray) given = g_ptr_array_new_null_terminated (4, NULL, TRUE);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_ptr_array_add (given, (gpointer) json_node_get_string (element));
    }

  return pal_folders_clean (cwd, (const char * const *) given->pdata);
}

/**
 * pal_session_store_merge_listed:
 * @self: a #PalSessionStore
 * @agent_id: the agent profile the list came from
 * @sessions: the `sessions` array of a `session/list` response (one page)
 *
 * Lists the sessions the agent reported. Unknown ones are added with
 * #PalSessionRecord:from-agent set and not stored (see #PalSessionStore);
 * their created and updated times are `updatedAt`, or 0 when the agent gave
 * none. Known ones of the same agent get the agent's title when they have
 * none yet, and its `updatedAt` when that is newer. The agent's
 * `additionalDirectories` (its strings that are absolute paths) are taken
 * for new sessions and those only the agent knows, and for stored ones
 * that have none. Entries without a `sessionId` or `cwd` string are
 * skipped. A session of another agent with the same id is another session.
 * Sessions missing from the list are kept: the list may be one page of many.
 *
 * Returns: how many sessions were added
 */
guint
pal_session_store_merge_listed (PalSessionStore *self,
                                const char      *agent_id,
                                JsonArray       *sessions)
{
  g_autoptr(GPtrArray) items = NULL;
  gboolean stored_changed = FALSE;
  guint n_added = 0;
  guint length;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), 0);
  g_return_val_if_fail (agent_id != NULL, 0);
  g_return_val_if_fail (sessions != NULL, 0);

  items = g_ptr_array_copy (self->items, (GCopyFunc) g_object_ref, NULL);
  g_ptr_array_set_free_func (items, g_object_unref);

  self->list.loading = TRUE;

  length = json_array_get_length (sessions);
  for (guint i = 0; i < length; i++)
    {
      JsonNode *node = json_array_get_element (sessions, i);
      JsonObject *info;
      g_autoptr(PalSessionKey) key = NULL;
      PalSessionRecord *record;
      const char *id;
      const char *cwd;
      const char *title;
      const char *updated_at;
      g_auto(GStrv) dirs = NULL;
      gint64 updated = -1;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_debug ("session/list of %s: entry %u is not an object", agent_id, i);
          continue;
        }
      info = json_node_get_object (node);

      id = get_string_member (info, "sessionId");
      cwd = get_string_member (info, "cwd");
      if (id == NULL || *id == '\0' || cwd == NULL || *cwd == '\0')
        {
          g_debug ("session/list of %s: entry %u lacks a sessionId or cwd", agent_id, i);
          continue;
        }

      /* wrong types of the optional members count as absent */
      title = get_string_member (info, "title");
      updated_at = get_string_member (info, "updatedAt");
      dirs = get_directories_member (info, cwd);
      if (updated_at != NULL && (updated = parse_iso8601 (updated_at)) < 0)
        g_debug ("session/list of %s: session %s has an unreadable updatedAt “%s”",
                 agent_id, id, updated_at);

      key = pal_session_key_new (agent_id, id);
      if (is_hidden (self, key))
        continue;

      record = g_hash_table_lookup (self->by_key, key);
      if (record != NULL)
        {
          gboolean changed = FALSE;

          /* the person's name wins, then the agent's session_info_update,
           * then the first prompt: a listed title (for some agents their
           * latest prompt) only names a session that has no title */
          if (title != NULL && *title != '\0' && *pal_session_record_get_title (record) == '\0')
            {
              pal_session_record_set_title (record, title);
              changed = TRUE;
            }
          if (updated > pal_session_record_get_updated (record))
            {
              pal_session_record_set_updated (record, updated);
              changed = TRUE;
            }
          /* the agent's folders for a session only it knows; for a stored
           * one, only when it has none (what the person chose stays) */
          if (dirs != NULL &&
              !g_strv_equal (pal_session_record_get_additional_directories (record),
                             (const char * const *) dirs) &&
              (pal_session_record_get_from_agent (record) ||
               pal_session_record_get_additional_directories (record)[0] == NULL))
            {
              pal_session_record_set_additional_directories (record, (const char * const *) dirs);
              changed = TRUE;
            }
          if (changed && !pal_session_record_get_from_agent (record))
            stored_changed = TRUE;
          continue;
        }

      record = pal_session_record_new (id, agent_id, cwd);
      pal_session_record_set_from_agent (record, TRUE);
      if (title != NULL)
        pal_session_record_set_title (record, title);
      pal_session_record_set_additional_directories (record, (const char * const *) dirs);
      if (updated > 0)
        {
          pal_session_record_set_created (record, updated);
          pal_session_record_set_updated (record, updated);
        }
      watch_record (self, record);
      g_hash_table_insert (self->by_key, pal_session_record_get_key (record), record);
      g_ptr_array_add (items, record);
      n_added++;
    }

  replace_items (self, items);
  self->list.loading = FALSE;

  if (stored_changed)
    _pal_stored_list_save (&self->list);

  return n_added;
}

/**
 * pal_session_store_show_hidden:
 * @self: a #PalSessionStore
 *
 * Forgets which sessions were removed from the list, so that their agents'
 * lists bring them back.
 *
 * Returns: (transfer full): the (agent profile id, folder) pairs whose lists
 *   had hidden sessions, as a %NULL-terminated array alternating the two
 */
GStrv
pal_session_store_show_hidden (PalSessionStore *self)
{
  g_autoptr(GStrvBuilder) pairs = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);

  g_hash_table_iter_init (&iter, self->hidden);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *agent_id = pal_session_key_get_agent_id (key);
      g_autofree char *pair = g_strconcat (agent_id, "\n", (const char *) value, NULL);

      if (!g_hash_table_add (seen, g_steal_pointer (&pair)))
        continue;
      g_strv_builder_add (pairs, agent_id);
      g_strv_builder_add (pairs, value);
    }

  if (g_hash_table_size (self->hidden) > 0)
    {
      g_hash_table_remove_all (self->hidden);
      save_hidden (self);
    }

  return g_strv_builder_end (pairs);
}

/* Returns: how many sessions are hidden from the list */
guint
pal_session_store_get_n_hidden (PalSessionStore *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), 0);

  return g_hash_table_size (self->hidden);
}
