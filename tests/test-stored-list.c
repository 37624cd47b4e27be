/* test-stored-list.c: the base of the stores, through a list of its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-name-value.h"
#include "pal-store-private.h"
#include "pal-stored-list.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"
/* any aa{sv} key of the schema does */
#define KEY "agents"
#define KEY_PATH "/io/github/palaverapp/Palaver/" KEY

/* A list of name/value pairs named by their name, which can change. */
#define TEST_TYPE_LIST (test_list_get_type ())
G_DECLARE_FINAL_TYPE (TestList, test_list, TEST, LIST, PalStoredList)

struct _TestList
{
  PalStoredList parent_instance;
};

G_DEFINE_FINAL_TYPE (TestList, test_list, PAL_TYPE_STORED_LIST)

static gpointer
decode (GVariant   *entry,
        GPtrArray  *notes,
        char      **reason)
{
  g_autofree char *name = NULL;
  g_autofree char *value = NULL;
  char *note = NULL;

  if (!_pal_dict_get_string (entry, "name", TRUE, &name, reason))
    return NULL;
  _pal_note_left_out (notes, _pal_dict_get_string (entry, "value", FALSE, &value, &note), &note);
  return pal_name_value_new (name, value, FALSE);
}

static GVariant *
encode (gpointer item)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "name", "s", pal_name_value_get_name (item));
  g_variant_dict_insert (&dict, "value", "s", pal_name_value_get_value (item));
  return g_variant_dict_end (&dict);
}

static gconstpointer
get_id (gpointer item)
{
  return pal_name_value_get_name (item);
}

static char *
describe_skipped (guint       index,
                  const char *reason)
{
  return g_strdup_printf ("Entry %u: %s", index + 1, reason);
}

static void
update_item (PalStoredList *list,
             gpointer       item,
             gpointer       entry)
{
  pal_name_value_set_value (item, pal_name_value_get_value (entry));
}

static void
test_list_class_init (TestListClass *klass)
{
  PalStoredListClass *list_class = PAL_STORED_LIST_CLASS (klass);

  list_class->key = KEY;
  list_class->title = "Pairs";
  list_class->item_type = PAL_TYPE_NAME_VALUE;
  list_class->decode = decode;
  list_class->encode = encode;
  list_class->get_id = get_id;
  list_class->describe_skipped = describe_skipped;
  list_class->update_item = update_item;
}

static void
test_list_init (TestList *self)
{
}

/* --- fixture --- */

typedef struct
{
  GSettingsBackend *backend;
  GSettings *settings;
  guint writes;
} Fixture;

static void
count_cb (GSettings  *settings,
          const char *key,
          Fixture    *fixture)
{
  fixture->writes++;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->backend = g_memory_settings_backend_new ();
  fixture->settings = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  g_signal_connect (fixture->settings, "changed::" KEY, G_CALLBACK (count_cb), fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_signal_handlers_disconnect_by_func (fixture->settings, count_cb, fixture);
  g_clear_object (&fixture->settings);
  g_clear_object (&fixture->backend);
}

static PalStoredList *
new_list (GSettings *settings)
{
  return g_object_new (TEST_TYPE_LIST, "settings", settings, NULL);
}

static PalNameValue *
item (PalStoredList *list,
      guint          position)
{
  g_autoptr(PalNameValue) pair = g_list_model_get_item (G_LIST_MODEL (list), position);

  g_assert_nonnull (pair);
  return pair; /* the list keeps it alive */
}

static guint
n_items (PalStoredList *list)
{
  return g_list_model_get_n_items (G_LIST_MODEL (list));
}

static GVariant *
pair (const char *name,
      const char *value)
{
  return g_variant_new_parsed ("{'name': <%s>, 'value': <%s>}", name, value);
}

static void
store_value (GSettings *settings,
             GVariant  *entries[],
             guint      n_entries)
{
  g_settings_set_value (settings, KEY, g_variant_new_array (G_VARIANT_TYPE_VARDICT,
                                                            entries, n_entries));
}

static void
assert_stored (GSettings *settings,
               GVariant  *entries[],
               guint      n_entries)
{
  g_autoptr(GVariant) stored = g_settings_get_value (settings, KEY);
  g_autoptr(GVariant) expected = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE_VARDICT,
                                                                          entries, n_entries));

  if (!g_variant_equal (stored, expected))
    {
      g_autofree char *got = g_variant_print (stored, FALSE);
      g_autofree char *want = g_variant_print (expected, FALSE);

      g_error ("stored %s instead of %s", got, want);
    }
}

typedef struct
{
  guint position;
  guint removed;
  guint added;
  guint count;
} ItemsChanged;

static void
items_changed_cb (GListModel   *model,
                  guint         position,
                  guint         removed,
                  guint         added,
                  ItemsChanged *changed)
{
  changed->position = position;
  changed->removed = removed;
  changed->added = added;
  changed->count++;
}

/* --- tests --- */

/* Entries it cannot read are reported and written back as they were, after
 * the readable ones, whenever the list writes the key. */
static void
test_damaged_kept (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;
  GVariant *no_name = g_variant_ref_sink (g_variant_new_parsed ("{'value': <'lost?'>}"));
  GVariant *repeated = g_variant_ref_sink (pair ("a", "again"));
  GVariant *typed = g_variant_ref_sink (g_variant_new_parsed ("{'name': <5>}"));
  GVariant *entries[] = { pair ("a", "1"), no_name, pair ("b", "2"), repeated, typed };
  const char * const *errors;

  store_value (fixture->settings, entries, G_N_ELEMENTS (entries));
  fixture->writes = 0;

  list = new_list (fixture->settings);
  g_assert_cmpuint (n_items (list), ==, 2);
  g_assert_cmpstr (pal_name_value_get_name (item (list, 0)), ==, "a");
  g_assert_cmpstr (pal_name_value_get_value (item (list, 0)), ==, "1");
  g_assert_cmpstr (pal_name_value_get_name (item (list, 1)), ==, "b");

  errors = pal_stored_list_get_load_errors (list);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, 3);
  g_assert_cmpstr (errors[0], ==, "Entry 2: the key “name” is missing");
  g_assert_cmpstr (errors[1], ==, "Entry 4: the id “a” is used by an earlier entry");
  g_assert_cmpstr (errors[2], ==, "Entry 5: the key “name” has the type “i” instead of “s”");

  /* a change of an item is written once the main loop is idle, the
   * damaged entries after it unchanged */
  pal_name_value_set_value (item (list, 0), "one");
  g_assert_cmpuint (fixture->writes, ==, 0);
  test_drain_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 1);
  {
    GVariant *expected[] = { pair ("a", "one"), pair ("b", "2"), no_name, repeated, typed };

    assert_stored (fixture->settings, expected, G_N_ELEMENTS (expected));
  }

  /* and read again the same way (now at the end) */
  {
    g_autoptr(PalStoredList) again = new_list (fixture->settings);
    const char * const *again_errors = pal_stored_list_get_load_errors (again);

    g_assert_cmpuint (n_items (again), ==, 2);
    g_assert_cmpuint (g_strv_length ((char **) again_errors), ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        g_autofree char *position = g_strdup_printf ("Entry %u:", i + 3);

        g_assert_true (g_str_has_prefix (again_errors[i], position));
        g_assert_cmpstr (strchr (again_errors[i], ':'), ==, strchr (errors[i], ':'));
      }
  }

  g_variant_unref (no_name);
  g_variant_unref (repeated);
  g_variant_unref (typed);
}

/* Another writer's value replaces the list (keeping its objects), with a
 * change not written yet on top; the list's own writes are not read back. */
static void
test_other_writer (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;
  g_autoptr(GSettings) other = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  ItemsChanged changed = { 0, };
  PalNameValue *a;
  PalNameValue *b;

  store_value (fixture->settings, (GVariant *[]) { pair ("a", "1"), pair ("b", "2") }, 2);
  list = new_list (fixture->settings);
  a = item (list, 0);
  b = item (list, 1);
  g_signal_connect (list, "items-changed", G_CALLBACK (items_changed_cb), &changed);

  /* changed here, then there before this was written */
  pal_name_value_set_value (a, "mine");
  store_value (other, (GVariant *[]) { pair ("a", "theirs"), pair ("b", "2"), pair ("c", "3") }, 3);
  test_drain_main_context ();

  g_assert_cmpuint (changed.count, ==, 1);
  g_assert_cmpuint (changed.position, ==, 2);
  g_assert_cmpuint (changed.removed, ==, 0);
  g_assert_cmpuint (changed.added, ==, 1);
  g_assert_true (item (list, 0) == a);
  g_assert_true (item (list, 1) == b);
  g_assert_cmpstr (pal_name_value_get_value (a), ==, "mine");
  assert_stored (fixture->settings,
                 (GVariant *[]) { pair ("a", "mine"), pair ("b", "2"), pair ("c", "3") }, 3);

  /* its own write changes nothing in the list */
  pal_name_value_set_value (b, "two");
  test_drain_main_context ();
  g_assert_cmpuint (changed.count, ==, 1);
  assert_stored (other, (GVariant *[]) { pair ("a", "mine"), pair ("b", "two"), pair ("c", "3") },
                 3);

  /* without a change of its own, theirs is taken as it is */
  store_value (other, (GVariant *[]) { pair ("a", "theirs"), pair ("c", "3") }, 2);
  test_drain_main_context ();
  g_assert_cmpuint (changed.count, ==, 2);
  g_assert_cmpuint (n_items (list), ==, 2);
  g_assert_cmpstr (pal_name_value_get_value (a), ==, "theirs");
  assert_stored (fixture->settings, (GVariant *[]) { pair ("a", "theirs"), pair ("c", "3") }, 2);
}

/* What two processes on one settings file are: two keyfile backends, each
 * writing its whole file from what it read last */
static GSettings *
keyfile_settings (const char *path)
{
  g_autoptr(GSettingsBackend) backend = g_keyfile_settings_backend_new (path, "/", NULL);

  return g_settings_new_with_backend (SCHEMA_ID, backend);
}

typedef struct
{
  GSettings *settings;
  GVariant  *value;
} Holds;

static gboolean
holds (gpointer data)
{
  Holds *wanted = data;
  g_autoptr(GVariant) stored = g_settings_get_value (wanted->settings, KEY);

  return g_variant_equal (stored, wanted->value);
}

/* Waits until @settings reads @entries from the file */
static void
wait_stored (GSettings *settings,
             GVariant  *entries[],
             guint      n_entries)
{
  g_autoptr(GVariant) value = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE_VARDICT,
                                                                       entries, n_entries));
  Holds wanted = { settings, value };

  WAIT_UNTIL (holds (&wanted));
}

static gboolean
first_value_is (gpointer data)
{
  gpointer *args = data;

  return n_items (args[0]) > 0 &&
         g_strcmp0 (pal_name_value_get_value (item (args[0], 0)), args[1]) == 0;
}

/* Another process writes a copy older than the list's last write, having
 * not read it: what the list changed then goes back on top of theirs, with
 * nothing pending here; a later value of theirs, written from what they
 * read, is taken as it is. */
static void
test_stale_writer (void)
{
  g_autofree char *folder = test_make_tmpdir ("palaver-stored-list");
  g_autofree char *path = g_build_filename (folder, "keyfile", NULL);
  g_autoptr(GSettings) settings = keyfile_settings (path);
  g_autoptr(GSettings) other = keyfile_settings (path);
  g_autoptr(PalStoredList) list = NULL;
  gpointer mine[] = { NULL, (gpointer) "mine" };
  gpointer back[] = { NULL, (gpointer) "1" };

  store_value (settings, (GVariant *[]) { pair ("a", "1"), pair ("b", "2") }, 2);
  wait_stored (other, (GVariant *[]) { pair ("a", "1"), pair ("b", "2") }, 2);
  list = new_list (settings);
  mine[0] = back[0] = list;

  /* written here at once: a changed, b removed, c added; the other
   * process writes before it read that: the value before, and d */
  pal_name_value_set_value (item (list, 0), "mine");
  {
    g_autoptr(PalNameValue) b = _pal_stored_list_steal (list, 1);
    g_autoptr(PalNameValue) c = pal_name_value_new ("c", "3", FALSE);

    _pal_stored_list_insert (list, 1, c);
    _pal_stored_list_save (list);
  }
  store_value (other, (GVariant *[]) { pair ("a", "1"), pair ("b", "2"), pair ("d", "4") }, 3);

  wait_stored (other, (GVariant *[]) { pair ("a", "mine"), pair ("d", "4"), pair ("c", "3") }, 3);
  WAIT_UNTIL (first_value_is (mine));
  g_assert_cmpuint (n_items (list), ==, 3);
  g_assert_cmpstr (pal_name_value_get_name (item (list, 1)), ==, "d");
  g_assert_cmpstr (pal_name_value_get_name (item (list, 2)), ==, "c");

  /* written from what they read: a set back to the first value */
  store_value (other, (GVariant *[]) { pair ("a", "1"), pair ("d", "4"), pair ("c", "3") }, 3);
  WAIT_UNTIL (first_value_is (back));
  g_assert_cmpuint (n_items (list), ==, 3);
  assert_stored (settings, (GVariant *[]) { pair ("a", "1"), pair ("d", "4"), pair ("c", "3") }, 3);
}

/* An item renamed through its property is found by its new name; of two
 * with one name, the first listed. */
static void
test_lookup_renamed (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;
  g_autoptr(PalNameValue) stolen = NULL;
  PalNameValue *a;
  PalNameValue *b;

  store_value (fixture->settings, (GVariant *[]) { pair ("a", "1"), pair ("b", "2") }, 2);
  list = new_list (fixture->settings);
  a = item (list, 0);
  b = item (list, 1);
  g_assert_true (pal_stored_list_lookup (list, "a") == a);
  g_assert_null (pal_stored_list_lookup (list, NULL));

  pal_name_value_set_name (a, "c");
  g_assert_true (pal_stored_list_lookup (list, "c") == a);
  g_assert_null (pal_stored_list_lookup (list, "a"));
  test_drain_main_context ();
  assert_stored (fixture->settings, (GVariant *[]) { pair ("c", "1"), pair ("b", "2") }, 2);

  /* two of one name */
  pal_name_value_set_name (b, "c");
  g_assert_true (pal_stored_list_lookup (list, "c") == a);
  g_assert_null (pal_stored_list_lookup (list, "b"));
  stolen = _pal_stored_list_steal (list, 0);
  g_assert_true (stolen == a);
  g_assert_true (pal_stored_list_lookup (list, "c") == b);

  /* one that left is not followed any more */
  test_drain_main_context ();
  fixture->writes = 0;
  pal_name_value_set_name (a, "d");
  test_drain_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 0);
  g_assert_null (pal_stored_list_lookup (list, "d"));
  g_assert_true (pal_stored_list_lookup (list, "c") == b);
}

/* A replacement changes the range that differs, and the list follows the
 * items that came, not those that left. */
static void
test_replace (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;
  g_autoptr(PalNameValue) x = pal_name_value_new ("x", "new", FALSE);
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  g_autoptr(PalNameValue) b = NULL;
  ItemsChanged changed = { 0, };
  PalNameValue *a, *c, *d;

  store_value (fixture->settings,
               (GVariant *[]) { pair ("a", "1"), pair ("b", "2"), pair ("c", "3"), pair ("d", "4") },
               4);
  list = new_list (fixture->settings);
  a = item (list, 0);
  b = g_object_ref (item (list, 1));
  c = item (list, 2);
  d = item (list, 3);
  g_signal_connect (list, "items-changed", G_CALLBACK (items_changed_cb), &changed);

  g_ptr_array_add (items, a);
  g_ptr_array_add (items, x);
  g_ptr_array_add (items, c);
  g_ptr_array_add (items, d);
  _pal_stored_list_replace (list, items);
  g_assert_cmpuint (changed.count, ==, 1);
  g_assert_cmpuint (changed.position, ==, 1);
  g_assert_cmpuint (changed.removed, ==, 1);
  g_assert_cmpuint (changed.added, ==, 1);
  g_assert_true (pal_stored_list_lookup (list, "x") == x);
  g_assert_null (pal_stored_list_lookup (list, "b"));

  /* the same items: nothing to tell */
  _pal_stored_list_replace (list, items);
  g_assert_cmpuint (changed.count, ==, 1);

  fixture->writes = 0;
  pal_name_value_set_value (b, "gone");
  test_drain_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 0);
  pal_name_value_set_value (x, "here");
  test_drain_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 1);
  assert_stored (fixture->settings,
                 (GVariant *[]) { pair ("a", "1"), pair ("x", "here"), pair ("c", "3"),
                                  pair ("d", "4") },
                 4);

  /* moved within the range, still followed */
  g_ptr_array_remove_index (items, 1);
  g_ptr_array_insert (items, 2, x);
  _pal_stored_list_replace (list, items);
  g_assert_cmpuint (changed.count, ==, 2);
  g_assert_cmpuint (changed.position, ==, 1);
  g_assert_cmpuint (changed.removed, ==, 2);
  g_assert_cmpuint (changed.added, ==, 2);
  pal_name_value_set_value (x, "moved");
  test_drain_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 2);
  g_assert_true (pal_stored_list_lookup (list, "x") == x);
}

/* Changes are not followed while blocked, and blocks nest. */
static void
test_block_changes (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;

  store_value (fixture->settings, (GVariant *[]) { pair ("a", "1") }, 1);
  list = new_list (fixture->settings);
  fixture->writes = 0;

  _pal_stored_list_block_changes (list);
  _pal_stored_list_block_changes (list);
  pal_name_value_set_value (item (list, 0), "2");
  _pal_stored_list_unblock_changes (list);
  pal_name_value_set_value (item (list, 0), "3");
  _pal_stored_list_unblock_changes (list);
  test_drain_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 0);

  pal_name_value_set_value (item (list, 0), "4");
  test_drain_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 1);
}

/* A list disposed with a write pending writes it first. */
static void
test_dispose_writes (Fixture       *fixture,
                     gconstpointer  data)
{
  PalStoredList *list;

  store_value (fixture->settings, (GVariant *[]) { pair ("a", "1") }, 1);
  list = new_list (fixture->settings);
  pal_name_value_set_value (item (list, 0), "2");
  g_object_unref (list);
  assert_stored (fixture->settings, (GVariant *[]) { pair ("a", "2") }, 1);
}

/* --- a value GSettings cannot read --- */

/* Stores @value under the key as another program would: of any type. */
static void
store_raw (GSettingsBackend *backend,
           GVariant         *value)
{
  g_assert_true (G_SETTINGS_BACKEND_GET_CLASS (backend)->write (backend, KEY_PATH,
                                                                g_variant_ref_sink (value), NULL));
  g_variant_unref (value);
}

static GVariant *
read_raw (GSettingsBackend *backend)
{
  return G_SETTINGS_BACKEND_GET_CLASS (backend)->read (backend, KEY_PATH, G_VARIANT_TYPE_ANY,
                                                       FALSE);
}

static gboolean
has_backup (gpointer list)
{
  return pal_stored_list_get_backup_path (list) != NULL;
}

static gboolean
has_load_errors (gpointer list)
{
  return pal_stored_list_get_load_errors (list)[0] != NULL;
}

typedef struct
{
  PalStoredList *list;
  guint writes;
  /* the copy existed at each write */
  gboolean copied_first;
} WriteWatch;

static void
watch_write_cb (GSettings  *settings,
                const char *key,
                WriteWatch *watch)
{
  const char *path = pal_stored_list_get_backup_path (watch->list);

  watch->writes++;
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    watch->copied_first = FALSE;
}

static gboolean
was_written (gpointer data)
{
  return ((WriteWatch *) data)->writes > 0;
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* A value of another type reads as the default: said so, copied to a file
 * before the list writes anything, and a change waits for the copy. */
static void
test_unreadable_type (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;
  g_autoptr(PalNameValue) added = pal_name_value_new ("a", "1", FALSE);
  g_autoptr(GVariant) raw = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *folder = NULL;
  WriteWatch watch = { NULL, 0, TRUE };
  const char * const *errors;

  store_raw (fixture->backend, g_variant_new_parsed ("[('a', 1), ('b', 2)]"));
  test_drain_main_context ();

  list = new_list (fixture->settings);
  watch.list = list;
  g_signal_connect (fixture->settings, "changed::" KEY, G_CALLBACK (watch_write_cb), &watch);
  g_assert_cmpuint (n_items (list), ==, 0);
  errors = pal_stored_list_get_load_errors (list);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, 1);
  g_assert_true (g_str_has_prefix (errors[0], "The stored list “Pairs” could not be read: "
                                              "it has the type “a(si)” instead of “aa{sv}”."));

  /* a change at once waits for the copy */
  _pal_stored_list_insert (list, 0, added);
  _pal_stored_list_save (list);
  g_assert_cmpuint (watch.writes, ==, 0);
  raw = read_raw (fixture->backend);
  g_assert_cmpstr (g_variant_get_type_string (raw), ==, "a(si)");

  WAIT_UNTIL (was_written (&watch));
  g_assert_cmpuint (watch.writes, ==, 1);
  g_assert_true (watch.copied_first);
  assert_stored (fixture->settings, (GVariant *[]) { pair ("a", "1") }, 1);

  /* the copy is the stored value as text, beside the store */
  folder = g_build_filename (g_get_user_data_dir (), "palaver", "settings-backup", NULL);
  g_assert_true (g_str_has_prefix (pal_stored_list_get_backup_path (list), folder));
  g_assert_true (g_str_has_prefix (strrchr (pal_stored_list_get_backup_path (list), '/'),
                                   "/" KEY "-"));
  copy = read_file (pal_stored_list_get_backup_path (list));
  g_assert_cmpstr (copy, ==, "[('a', 1), ('b', 2)]\n");
  errors = pal_stored_list_get_load_errors (list);
  g_assert_nonnull (strstr (errors[0], pal_stored_list_get_backup_path (list)));

  g_signal_handlers_disconnect_by_func (fixture->settings, watch_write_cb, &watch);
}

/* A keyfile whose text does not parse (a NUL in one string) reads as the
 * default for the whole key: only the file tells; it is copied as it was. */
static void
test_unreadable_keyfile (void)
{
  g_autofree char *folder = test_make_tmpdir ("palaver-stored-list");
  g_autofree char *path = g_build_filename (folder, "keyfile", NULL);
  static const char *stored = "[{'name': <'a'>, 'value': <'1'>}, "
                              "{'name': <'b'>, 'value': <'x\\u0000y'>}]";
  g_autofree char *contents = g_strdup_printf ("[io/github/palaverapp/Palaver]\n"
                                               "%s=%s\n", KEY, stored);
  g_autofree char *expected = g_strconcat (stored, "\n", NULL);
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(PalStoredList) list = NULL;
  g_autoptr(PalStoredList) again = NULL;
  g_autoptr(PalNameValue) added = pal_name_value_new ("c", "3", FALSE);
  g_autofree char *copy = NULL;
  g_autofree char *after = NULL;
  const char * const *errors;
  WriteWatch watch = { NULL, 0, TRUE };

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  backend = g_keyfile_settings_backend_new (path, "/", NULL);
  settings = g_settings_new_with_backend (SCHEMA_ID, backend);
  g_assert_null (g_settings_get_user_value (settings, KEY));

  list = new_list (settings);
  watch.list = list;
  g_signal_connect (settings, "changed::" KEY, G_CALLBACK (watch_write_cb), &watch);
  g_assert_cmpuint (n_items (list), ==, 0);

  /* a change right away waits for the file to be read and copied */
  _pal_stored_list_insert (list, 0, added);
  _pal_stored_list_save (list);
  g_assert_cmpuint (watch.writes, ==, 0);

  WAIT_UNTIL (has_load_errors (list));
  errors = pal_stored_list_get_load_errors (list);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, 1);
  g_assert_true (g_str_has_prefix (errors[0], "The stored list “Pairs” could not be read: "
                                              "it does not parse ("));
  WAIT_UNTIL (was_written (&watch));
  g_assert_true (watch.copied_first);
  copy = read_file (pal_stored_list_get_backup_path (list));
  g_assert_cmpstr (copy, ==, expected);

  /* the file holds the list now, which reads */
  after = read_file (path);
  g_assert_null (strstr (after, "\\u0000"));
  g_signal_handlers_disconnect_by_func (settings, watch_write_cb, &watch);
  again = new_list (settings);
  g_assert_cmpuint (n_items (again), ==, 1);
  g_assert_cmpstr (pal_name_value_get_name (item (again, 0)), ==, "c");
}

/* A keyfile without the key: nothing to copy, and a change is written
 * once the file was read. */
static void
test_keyfile_unset (void)
{
  g_autofree char *folder = test_make_tmpdir ("palaver-stored-list");
  g_autofree char *path = g_build_filename (folder, "keyfile", NULL);
  g_autoptr(GSettingsBackend) backend = g_keyfile_settings_backend_new (path, "/", NULL);
  g_autoptr(GSettings) settings = g_settings_new_with_backend (SCHEMA_ID, backend);
  g_autoptr(PalStoredList) list = new_list (settings);
  g_autoptr(PalNameValue) added = pal_name_value_new ("a", "1", FALSE);
  WriteWatch watch = { list, 0, TRUE };

  g_signal_connect (settings, "changed::" KEY, G_CALLBACK (watch_write_cb), &watch);
  _pal_stored_list_insert (list, 0, added);
  _pal_stored_list_save (list);
  WAIT_UNTIL (was_written (&watch));
  assert_stored (settings, (GVariant *[]) { pair ("a", "1") }, 1);
  g_assert_null (pal_stored_list_get_backup_path (list));
  g_assert_null (pal_stored_list_get_load_errors (list)[0]);
  g_signal_handlers_disconnect_by_func (settings, watch_write_cb, &watch);
}

/* Someone else writes what cannot be read: the list stays, their value is
 * copied, and the list written back. */
static void
test_unreadable_from_elsewhere (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;
  g_autofree char *copy = NULL;

  store_value (fixture->settings, (GVariant *[]) { pair ("a", "1"), pair ("b", "2") }, 2);
  list = new_list (fixture->settings);
  g_assert_null (pal_stored_list_get_load_errors (list)[0]);

  store_raw (fixture->backend, g_variant_new_string ("oops"));
  WAIT_UNTIL (has_backup (list));
  g_assert_cmpuint (n_items (list), ==, 2);
  copy = read_file (pal_stored_list_get_backup_path (list));
  g_assert_cmpstr (copy, ==, "'oops'\n");
  assert_stored (fixture->settings, (GVariant *[]) { pair ("a", "1"), pair ("b", "2") }, 2);
  g_assert_nonnull (strstr (pal_stored_list_get_load_errors (list)[0], "“s”"));
}

/* The same unreadable value is copied once, however often it is read. */
static void
test_copied_once (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(PalStoredList) first = NULL;
  g_autoptr(PalStoredList) second = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *backups = g_build_filename (g_get_user_data_dir (), "palaver",
                                               "settings-backup", NULL);
  guint n_files = 0;

  /* the user's folders are the whole program's: earlier cases made copies */
  test_remove_tree (backups);
  store_raw (fixture->backend, g_variant_new_int32 (7));
  first = new_list (fixture->settings);
  WAIT_UNTIL (has_backup (first));
  second = new_list (fixture->settings);
  WAIT_UNTIL (has_backup (second));
  g_assert_cmpstr (pal_stored_list_get_backup_path (first), ==,
                   pal_stored_list_get_backup_path (second));

  folder = g_path_get_dirname (pal_stored_list_get_backup_path (first));
  dir = g_dir_open (folder, 0, NULL);
  while (g_dir_read_name (dir) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);
}

/* A member left out of an entry is said, and the value copied before the
 * entry is written without it. */
static void
test_left_out (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(PalStoredList) list = NULL;
  g_autofree char *copy = NULL;
  const char * const *errors;

  store_value (fixture->settings,
               (GVariant *[]) { pair ("a", "1"), g_variant_new_parsed ("{'name': <'b'>, 'value': <2>}") },
               2);
  list = new_list (fixture->settings);
  g_assert_cmpuint (n_items (list), ==, 2);
  g_assert_cmpstr (pal_name_value_get_value (item (list, 1)), ==, "");
  errors = pal_stored_list_get_load_errors (list);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, 1);
  g_assert_cmpstr (errors[0], ==, "Entry 2: the key “value” has the type “i” instead of “s”, "
                                  "and was left out");

  pal_name_value_set_value (item (list, 0), "one");
  test_drain_main_context ();
  WAIT_UNTIL (has_backup (list));
  copy = read_file (pal_stored_list_get_backup_path (list));
  g_assert_nonnull (strstr (copy, "<2>"));
  test_drain_main_context ();
  assert_stored (fixture->settings, (GVariant *[]) { pair ("a", "one"), pair ("b", "") }, 2);
}

/* --- two writers --- */

/* Two lists on one store change it before either wrote: both changes are
 * kept, whichever writes first. */
static void
test_merge_pending (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GSettings) other_settings = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  g_autoptr(PalStoredList) mine = NULL;
  g_autoptr(PalStoredList) theirs = NULL;
  g_autoptr(PalNameValue) added_here = pal_name_value_new ("x", "here", FALSE);
  g_autoptr(PalNameValue) added_there = pal_name_value_new ("y", "there", FALSE);
  g_autoptr(PalNameValue) removed = NULL;

  store_value (fixture->settings,
               (GVariant *[]) { pair ("a", "1"), pair ("b", "2"), pair ("c", "3"), pair ("d", "4") },
               4);
  mine = new_list (fixture->settings);
  theirs = new_list (other_settings);

  /* here: a changed, x added, c removed; there: b changed, y added, d
   * removed, and c changed (so it stays) */
  pal_name_value_set_value (item (mine, 0), "one");
  _pal_stored_list_insert (mine, 4, added_here);
  removed = _pal_stored_list_steal (mine, 2);
  pal_name_value_set_value (item (theirs, 1), "two");
  pal_name_value_set_value (item (theirs, 2), "three");
  _pal_stored_list_insert (theirs, 4, added_there);
  g_clear_object (&removed);
  removed = _pal_stored_list_steal (theirs, 3);
  _pal_stored_list_queue_save (mine);
  _pal_stored_list_queue_save (theirs);
  test_drain_main_context ();

  {
    /* here wrote first; c, which it removed, comes back after its entries */
    GVariant *expected[] = { pair ("a", "one"), pair ("b", "two"), pair ("x", "here"),
                             pair ("c", "three"), pair ("y", "there") };

    assert_stored (fixture->settings, expected, G_N_ELEMENTS (expected));
  }
  g_assert_cmpuint (n_items (mine), ==, 5);
  g_assert_cmpuint (n_items (theirs), ==, 5);
  g_assert_cmpstr (pal_name_value_get_value (pal_stored_list_lookup (mine, "b")), ==, "two");
  g_assert_cmpstr (pal_name_value_get_value (pal_stored_list_lookup (theirs, "a")), ==, "one");
  g_assert_nonnull (pal_stored_list_lookup (mine, "y"));
  g_assert_nonnull (pal_stored_list_lookup (theirs, "x"));
  g_assert_null (pal_stored_list_lookup (mine, "d"));
}

/* A write before the list heard of another's write (another process's
 * crossing it: its notice comes later) puts its change on top of theirs. */
static void
test_merge_unheard (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GSettings) other_settings = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  g_autoptr(PalStoredList) mine = NULL;
  g_autoptr(PalStoredList) theirs = NULL;
  g_autoptr(PalNameValue) added_here = pal_name_value_new ("x", "here", FALSE);
  g_autoptr(PalNameValue) added_there = pal_name_value_new ("y", "there", FALSE);

  store_value (fixture->settings, (GVariant *[]) { pair ("a", "1") }, 1);
  mine = new_list (fixture->settings);
  theirs = new_list (other_settings);

  /* in one process the notice comes at once: held back */
  g_assert_cmpuint (g_signal_handlers_block_matched (fixture->settings, G_SIGNAL_MATCH_DATA, 0, 0,
                                                     NULL, NULL, mine), ==, 1);
  _pal_stored_list_insert (theirs, 1, added_there);
  _pal_stored_list_save (theirs);
  _pal_stored_list_insert (mine, 1, added_here);
  _pal_stored_list_save (mine);
  g_signal_handlers_unblock_matched (fixture->settings, G_SIGNAL_MATCH_DATA, 0, 0,
                                     NULL, NULL, mine);
  assert_stored (fixture->settings,
                 (GVariant *[]) { pair ("a", "1"), pair ("y", "there"), pair ("x", "here") }, 3);
  test_drain_main_context ();
  g_assert_cmpuint (n_items (mine), ==, 3);
  g_assert_cmpuint (n_items (theirs), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  test_isolate_user_dirs ();
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/stored-list/damaged-kept", test_damaged_kept);
  ADD ("/stored-list/other-writer", test_other_writer);
  g_test_add_func ("/stored-list/stale-writer", test_stale_writer);
  ADD ("/stored-list/lookup-renamed", test_lookup_renamed);
  ADD ("/stored-list/replace", test_replace);
  ADD ("/stored-list/block-changes", test_block_changes);
  ADD ("/stored-list/dispose-writes", test_dispose_writes);
  ADD ("/stored-list/unreadable-type", test_unreadable_type);
  g_test_add_func ("/stored-list/unreadable-keyfile", test_unreadable_keyfile);
  g_test_add_func ("/stored-list/keyfile-unset", test_keyfile_unset);
  ADD ("/stored-list/unreadable-from-elsewhere", test_unreadable_from_elsewhere);
  ADD ("/stored-list/copied-once", test_copied_once);
  ADD ("/stored-list/left-out", test_left_out);
  ADD ("/stored-list/merge-pending", test_merge_pending);
  ADD ("/stored-list/merge-unheard", test_merge_unheard);

#undef ADD

  return g_test_run ();
}
