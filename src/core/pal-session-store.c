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
 * after the readable ones. An optional member that cannot be read is left
 * out, reported too: the session is listed without it. The optional
 * `additional-directories` member came later: an entry without it has none,
 * and one whose value cannot be read still lists its session, without them,
 * and keeps the value as it was.
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
  PalStoredList parent_instance;

  /* PalSessionKey (owned) → folder, of the sessions removed from the list */
  GHashTable *hidden;
  /* the `hidden-sessions` key before this store's first write of it since
   * another writer's, and what it wrote last (see hidden_changed_cb()) */
  GVariant   *hidden_before_write;
  GVariant   *hidden_written;
  /* the value @hidden was read from or written as last */
  GVariant   *hidden_loaded;
};

G_DEFINE_FINAL_TYPE (PalSessionStore, pal_session_store, PAL_TYPE_STORED_LIST)

static GPtrArray *
get_items (PalSessionStore *self)
{
  return _pal_stored_list_get_items (PAL_STORED_LIST (self));
}

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

/* Where @record goes in @items, leaving out the item at @skip (G_MAXUINT:
 * none). */
static guint
insert_position (GPtrArray        *items,
                 PalSessionRecord *record,
                 guint             skip)
{
  guint low = 0;
  guint high = skip < items->len ? items->len - 1 : items->len;

  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (compare_records (g_ptr_array_index (items, mid < skip ? mid : mid + 1), record) <= 0)
        low = mid + 1;
      else
        high = mid;
    }

  return low;
}

/* --- writing --- */

static GVariant *
encode (gpointer item)
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

/* --- the model --- */

static void
reposition (PalSessionStore  *self,
            PalSessionRecord *record)
{
  guint from;

  if (g_ptr_array_find (get_items (self), record, &from))
    _pal_stored_list_move (PAL_STORED_LIST (self), from,
                           insert_position (get_items (self), record, from));
}

static void
item_changed (PalStoredList *list,
              gpointer       item,
              GParamSpec    *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "updated") || g_str_equal (name, "pinned") ||
      g_str_equal (name, "created"))
    reposition (PAL_SESSION_STORE (list), item);

  if (!pal_session_record_get_from_agent (item) || g_str_equal (name, "from-agent"))
    _pal_stored_list_queue_save (list);
}

static void
replace_items (PalSessionStore *self,
               GPtrArray       *items)
{
  g_ptr_array_sort (items, compare_records_indirect);
  _pal_stored_list_replace (PAL_STORED_LIST (self), items);
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
decode (GVariant   *entry,
        GPtrArray  *notes,
        char      **reason)
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
  char *note = NULL;
  gboolean ok;

  _pal_dict_lookup_values (entry, entry_members, N_ENTRY_MEMBERS, values);
  ok = _pal_value_get_string (values[ENTRY_ID], "id", TRUE, &id, reason) &&
       _pal_value_get_string (values[ENTRY_AGENT], "agent", TRUE, &agent, reason) &&
       _pal_value_get_string (values[ENTRY_CWD], "cwd", TRUE, &cwd, reason);
  /* the others cost the session nothing but themselves */
  if (ok)
    {
      _pal_note_left_out (notes, _pal_value_get_string (values[ENTRY_TITLE], "title", FALSE,
                                                        &title, &note), &note);
      _pal_note_left_out (notes, _pal_value_get_int64 (values[ENTRY_CREATED], "created", FALSE,
                                                       &created, &note), &note);
      _pal_note_left_out (notes, _pal_value_get_int64 (values[ENTRY_UPDATED], "updated", FALSE,
                                                       &updated, &note), &note);
      _pal_note_left_out (notes, _pal_value_get_boolean (values[ENTRY_PINNED], "pinned", FALSE,
                                                         &pinned, &note), &note);
      _pal_note_left_out (notes, _pal_value_get_boolean (values[ENTRY_RENAMED], "renamed", FALSE,
                                                         &renamed, &note), &note);
    }
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
update_item (PalStoredList *list,
             gpointer       item,
             gpointer       entry)
{
  PalSessionRecord *to = item;
  PalSessionRecord *from = entry;

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
get_id (gpointer item)
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
apply_entries (PalStoredList *list,
               GPtrArray     *items)
{
  GPtrArray *listed = _pal_stored_list_get_items (list);

  /* Sessions only the agent knows stay (those in the key are not any
   * more); stored ones that left the key go. */
  for (guint i = 0; i < listed->len; i++)
    {
      PalSessionRecord *record = g_ptr_array_index (listed, i);

      if (pal_session_record_get_from_agent (record))
        g_ptr_array_add (items, g_object_ref (record));
    }

  replace_items (PAL_SESSION_STORE (list), items);
}

/* --- GObject --- */

static void
load_hidden_value (PalSessionStore *self,
                   GVariant        *value)
{
  GVariantIter iter;
  const char *agent_id, *cwd, *id;

  /* read already (a merge asks for each session another value lacks) */
  if (self->hidden_loaded != NULL && g_variant_equal (self->hidden_loaded, value))
    return;
  g_clear_pointer (&self->hidden_loaded, g_variant_unref);
  self->hidden_loaded = g_variant_ref (value);

  g_hash_table_remove_all (self->hidden);
  g_variant_iter_init (&iter, value);
  while (g_variant_iter_next (&iter, "(&s&s&s)", &agent_id, &cwd, &id))
    g_hash_table_insert (self->hidden, pal_session_key_new (agent_id, id), g_strdup (cwd));
}

static void
load_hidden (PalSessionStore *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (pal_session_store_get_settings (self),
                                                    HIDDEN_KEY);

  load_hidden_value (self, value);
}

static void
save_hidden (PalSessionStore *self)
{
  GSettings *settings = pal_session_store_get_settings (self);
  GVariantBuilder builder;
  GHashTableIter iter;
  gpointer key, value;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sss)"));
  g_hash_table_iter_init (&iter, self->hidden);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_variant_builder_add (&builder, "(sss)", pal_session_key_get_agent_id (key), (const char *) value,
                           pal_session_key_get_session_id (key));

  if (self->hidden_before_write == NULL && !_pal_settings_in_one_process (settings))
    self->hidden_before_write = g_settings_get_value (settings, HIDDEN_KEY);
  g_clear_pointer (&self->hidden_written, g_variant_unref);
  self->hidden_written = g_variant_ref_sink (g_variant_builder_end (&builder));
  /* the table is what is written */
  g_clear_pointer (&self->hidden_loaded, g_variant_unref);
  self->hidden_loaded = g_variant_ref (self->hidden_written);
  g_settings_set_value (settings, HIDDEN_KEY, self->hidden_written);
}

/* The entries of an a(sss) value, as a set: its text → the entry
 * (g_variant_hash() takes no tuple) */
static GHashTable *
entry_set (GVariant *value)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) g_variant_unref);
  GVariantIter iter;
  GVariant *child;

  g_variant_iter_init (&iter, value);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    g_hash_table_insert (set, g_variant_print (child, FALSE), child);
  return set;
}

/* Of @theirs, the value another instance wrote after this store wrote
 * @written over @before: @theirs with what that write added and removed,
 * when @theirs shows none of it (written from an older copy, as GLib's
 * keyfile backend does; see pal-stored-list-merge.c); else NULL */
static GVariant *
keep_unseen_hidden (GVariant *before,
                    GVariant *written,
                    GVariant *theirs)
{
  g_autoptr(GHashTable) old = entry_set (before);
  g_autoptr(GHashTable) ours = entry_set (written);
  g_autoptr(GHashTable) seen = entry_set (theirs);
  gboolean changed = FALSE;
  GVariantBuilder builder;
  GHashTableIter iter;
  gpointer entry, child;

  g_hash_table_iter_init (&iter, ours);
  while (g_hash_table_iter_next (&iter, &entry, NULL))
    {
      if (g_hash_table_contains (old, entry))
        continue;
      if (g_hash_table_contains (seen, entry))
        return NULL;
      changed = TRUE;
    }
  g_hash_table_iter_init (&iter, old);
  while (g_hash_table_iter_next (&iter, &entry, NULL))
    {
      if (g_hash_table_contains (ours, entry))
        continue;
      if (!g_hash_table_contains (seen, entry))
        return NULL;
      changed = TRUE;
    }
  if (!changed)
    return NULL;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sss)"));
  g_hash_table_iter_init (&iter, seen);
  while (g_hash_table_iter_next (&iter, &entry, &child))
    {
      if (!g_hash_table_contains (old, entry) || g_hash_table_contains (ours, entry))
        g_variant_builder_add_value (&builder, child);
    }
  g_hash_table_iter_init (&iter, ours);
  while (g_hash_table_iter_next (&iter, &entry, &child))
    {
      if (!g_hash_table_contains (old, entry) && !g_hash_table_contains (seen, entry))
        g_variant_builder_add_value (&builder, child);
    }
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

/* The hidden list changed: read again. The first value another instance
 * writes after this store did is checked as the list's are: a session
 * hidden here, and lost to a copy written without it, stays hidden. */
static void
hidden_changed_cb (GSettings       *settings,
                   const char      *key,
                   PalSessionStore *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, HIDDEN_KEY);
  g_autoptr(GVariant) before = NULL;
  g_autoptr(GVariant) restored = NULL;

  /* its own write */
  if (self->hidden_written != NULL && g_variant_equal (value, self->hidden_written))
    {
      load_hidden_value (self, value);
      return;
    }

  before = g_steal_pointer (&self->hidden_before_write);
  if (before != NULL && self->hidden_written != NULL)
    restored = keep_unseen_hidden (before, self->hidden_written, value);
  if (restored == NULL)
    {
      load_hidden_value (self, value);
      return;
    }

  g_debug ("“%s” was written from a copy older than this list's last write: "
           "putting back what it lacks", HIDDEN_KEY);
  load_hidden_value (self, restored);
  save_hidden (self);
}

static gboolean
is_hidden (PalSessionStore *self,
           PalSessionKey   *key)
{
  return g_hash_table_contains (self->hidden, key);
}

/* A session listed here that another instance's value lacks was removed
 * there on purpose when the settings hide it now; else that instance had
 * not read it (see pal-stored-list-merge.c). */
static gboolean
removed_elsewhere (PalStoredList *list,
                   gconstpointer  id)
{
  PalSessionStore *self = PAL_SESSION_STORE (list);

  /* the settings may hold the other's hidden list before it is announced */
  load_hidden (self);
  return is_hidden (self, (PalSessionKey *) id);
}

/* The session is the person's again (added on purpose, opened): not hidden. */
static void
unhide (PalSessionStore  *self,
        PalSessionRecord *record)
{
  if (g_hash_table_remove (self->hidden, pal_session_record_get_key (record)))
    save_hidden (self);
}

/* --- GObject --- */

static void
pal_session_store_constructed (GObject *object)
{
  PalSessionStore *self = PAL_SESSION_STORE (object);

  G_OBJECT_CLASS (pal_session_store_parent_class)->constructed (object);

  load_hidden (self);
  g_signal_connect_object (pal_session_store_get_settings (self), "changed::" HIDDEN_KEY,
                           G_CALLBACK (hidden_changed_cb), self, 0);
}

static void
pal_session_store_finalize (GObject *object)
{
  PalSessionStore *self = PAL_SESSION_STORE (object);

  g_clear_pointer (&self->hidden, g_hash_table_unref);
  g_clear_pointer (&self->hidden_before_write, g_variant_unref);
  g_clear_pointer (&self->hidden_written, g_variant_unref);
  g_clear_pointer (&self->hidden_loaded, g_variant_unref);

  G_OBJECT_CLASS (pal_session_store_parent_class)->finalize (object);
}

static void
pal_session_store_class_init (PalSessionStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  PalStoredListClass *list_class = PAL_STORED_LIST_CLASS (klass);

  object_class->constructed = pal_session_store_constructed;
  object_class->finalize = pal_session_store_finalize;

  list_class->key = SESSIONS_KEY;
  list_class->title = N_("Sessions");
  list_class->item_type = PAL_TYPE_SESSION_RECORD;
  list_class->id_hash = pal_session_key_hash;
  list_class->id_equal = pal_session_key_equal;
  list_class->id_copy = (GBoxedCopyFunc) pal_session_key_ref;
  list_class->id_free = (GDestroyNotify) pal_session_key_unref;
  list_class->decode = decode;
  list_class->encode = encode;
  list_class->get_id = get_id;
  list_class->describe_skipped = describe_skipped;
  list_class->describe_repeated = describe_repeated;
  list_class->update_item = update_item;
  list_class->apply_entries = apply_entries;
  list_class->item_changed = item_changed;
  list_class->removed_elsewhere = removed_elsewhere;
}

static void
pal_session_store_init (PalSessionStore *self)
{
  self->hidden = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                        (GDestroyNotify) pal_session_key_unref, g_free);
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
 * pal_session_store_read_start:
 * @settings: the io.github.palaverapp.Palaver settings
 *
 * Reads the stored sessions now and makes records of them in a thread of
 * its own: see pal_stored_list_read_start().
 *
 * Returns: (transfer full): the reading, for
 *   pal_session_store_new_from_reading() or pal_session_store_reading_free()
 */
PalSessionStoreReading *
pal_session_store_read_start (GSettings *settings)
{
  return pal_stored_list_read_start (PAL_TYPE_SESSION_STORE, settings);
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
  return pal_stored_list_new_from_reading (reading);
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
  pal_stored_list_reading_free (reading);
}

GSettings *
pal_session_store_get_settings (PalSessionStore *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  return pal_stored_list_get_settings (PAL_STORED_LIST (self));
}

/**
 * pal_session_store_get_load_errors:
 * @self: a #PalSessionStore
 *
 * Returns: (transfer none): the load errors of the list, translated: see
 *   pal_stored_list_get_load_errors(); empty when all was read.
 */
const char * const *
pal_session_store_get_load_errors (PalSessionStore *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  return pal_stored_list_get_load_errors (PAL_STORED_LIST (self));
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

  return pal_stored_list_lookup (PAL_STORED_LIST (self), key);
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
  GPtrArray *items;
  GPtrArray *found;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  items = get_items (self);
  found = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < items->len; i++)
    {
      PalSessionRecord *record = g_ptr_array_index (items, i);

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

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), NULL);
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (record), NULL);
  g_return_val_if_fail (*pal_session_record_get_id (record) != '\0', NULL);

  unhide (self, record);
  existing = pal_session_store_lookup (self, pal_session_record_get_key (record));
  if (existing == record)
    {
      pal_session_record_set_from_agent (record, FALSE);
      _pal_stored_list_save (PAL_STORED_LIST (self));
      return record;
    }

  if (existing != NULL)
    {
      _pal_stored_list_block_changes (PAL_STORED_LIST (self));
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
      _pal_stored_list_unblock_changes (PAL_STORED_LIST (self));

      reposition (self, existing);
      _pal_stored_list_save (PAL_STORED_LIST (self));
      return existing;
    }

  if (pal_session_record_get_created (record) == 0)
    pal_session_record_set_created (record, g_get_real_time ());
  if (pal_session_record_get_updated (record) == 0)
    pal_session_record_set_updated (record, pal_session_record_get_created (record));
  pal_session_record_set_from_agent (record, FALSE);

  _pal_stored_list_insert (PAL_STORED_LIST (self),
                           insert_position (get_items (self), record, G_MAXUINT), record);
  _pal_stored_list_save (PAL_STORED_LIST (self));
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

  record = pal_session_store_lookup (self, key);
  if (record == NULL || !g_ptr_array_find (get_items (self), record, &position))
    return FALSE;

  /* the agent's list is not to bring it back */
  g_hash_table_insert (self->hidden, pal_session_key_ref (pal_session_record_get_key (record)),
                       g_strdup (pal_session_record_get_cwd (record)));
  save_hidden (self);

  /* last: @key may be the record's own */
  g_object_unref (_pal_stored_list_steal (PAL_STORED_LIST (self), position));

  _pal_stored_list_save (PAL_STORED_LIST (self));
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

  record = pal_session_store_lookup (self, key);
  if (record == NULL)
    return FALSE;

  /* the person's title stays */
  if (!by_person && pal_session_record_get_renamed (record))
    return TRUE;

  pal_session_record_set_title (record, title);
  if (by_person)
    pal_session_record_set_renamed (record, TRUE);
  pal_session_record_set_from_agent (record, FALSE);
  _pal_stored_list_save (PAL_STORED_LIST (self));
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

  record = pal_session_store_lookup (self, key);
  if (record == NULL)
    return FALSE;

  /* never backwards, and always a change, even within one microsecond */
  now = MAX (g_get_real_time (), pal_session_record_get_updated (record) + 1);
  pal_session_record_set_updated (record, now);
  pal_session_record_set_from_agent (record, FALSE);
  _pal_stored_list_save (PAL_STORED_LIST (self));
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

  record = pal_session_store_lookup (self, key);
  if (record == NULL)
    return FALSE;

  pal_session_record_set_pinned (record, pinned);
  pal_session_record_set_from_agent (record, FALSE);
  _pal_stored_list_save (PAL_STORED_LIST (self));
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
  /* PalSessionKey → the records made here, listed at the end */
  g_autoptr(GHashTable) made = NULL;
  gboolean stored_changed = FALSE;
  guint n_added = 0;
  guint length;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (self), 0);
  g_return_val_if_fail (agent_id != NULL, 0);
  g_return_val_if_fail (sessions != NULL, 0);

  items = g_ptr_array_copy (get_items (self), (GCopyFunc) g_object_ref, NULL);
  g_ptr_array_set_free_func (items, g_object_unref);
  made = g_hash_table_new (pal_session_key_hash, pal_session_key_equal);

  _pal_stored_list_block_changes (PAL_STORED_LIST (self));

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

      record = pal_session_store_lookup (self, key);
      if (record == NULL)
        record = g_hash_table_lookup (made, key);
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
      g_hash_table_insert (made, pal_session_record_get_key (record), record);
      g_ptr_array_add (items, record);
      n_added++;
    }

  replace_items (self, items);
  _pal_stored_list_unblock_changes (PAL_STORED_LIST (self));

  if (stored_changed)
    _pal_stored_list_save (PAL_STORED_LIST (self));

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
