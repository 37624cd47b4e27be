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

#define SCHEMA_ID "io.github.palaverapp.Palaver"
/* any aa{sv} key of the schema does */
#define KEY "agents"

/* A list of name/value pairs named by their name, which can change. */
#define TEST_TYPE_LIST (test_list_get_type ())
G_DECLARE_FINAL_TYPE (TestList, test_list, TEST, LIST, PalStoredList)

struct _TestList
{
  PalStoredList parent_instance;
};

G_DEFINE_FINAL_TYPE (TestList, test_list, PAL_TYPE_STORED_LIST)

static gpointer
decode (GVariant  *entry,
        char     **reason)
{
  g_autofree char *name = NULL;
  g_autofree char *value = NULL;

  if (!_pal_dict_get_string (entry, "name", TRUE, &name, reason) ||
      !_pal_dict_get_string (entry, "value", FALSE, &value, reason))
    return NULL;
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

static void
flush_main_context (void)
{
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
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
  flush_main_context ();
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

/* Another writer's value replaces the list (keeping its objects) and any
 * write still pending; the list's own writes are not read back. */
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
  flush_main_context ();

  g_assert_cmpuint (changed.count, ==, 1);
  g_assert_cmpuint (changed.position, ==, 2);
  g_assert_cmpuint (changed.removed, ==, 0);
  g_assert_cmpuint (changed.added, ==, 1);
  g_assert_true (item (list, 0) == a);
  g_assert_true (item (list, 1) == b);
  g_assert_cmpstr (pal_name_value_get_value (a), ==, "theirs");
  assert_stored (fixture->settings,
                 (GVariant *[]) { pair ("a", "theirs"), pair ("b", "2"), pair ("c", "3") }, 3);

  /* its own write changes nothing in the list */
  pal_name_value_set_value (b, "two");
  flush_main_context ();
  g_assert_cmpuint (changed.count, ==, 1);
  assert_stored (other, (GVariant *[]) { pair ("a", "theirs"), pair ("b", "two"), pair ("c", "3") },
                 3);
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
  flush_main_context ();
  assert_stored (fixture->settings, (GVariant *[]) { pair ("c", "1"), pair ("b", "2") }, 2);

  /* two of one name */
  pal_name_value_set_name (b, "c");
  g_assert_true (pal_stored_list_lookup (list, "c") == a);
  g_assert_null (pal_stored_list_lookup (list, "b"));
  stolen = _pal_stored_list_steal (list, 0);
  g_assert_true (stolen == a);
  g_assert_true (pal_stored_list_lookup (list, "c") == b);

  /* one that left is not followed any more */
  flush_main_context ();
  fixture->writes = 0;
  pal_name_value_set_name (a, "d");
  flush_main_context ();
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
  flush_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 0);
  pal_name_value_set_value (x, "here");
  flush_main_context ();
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
  flush_main_context ();
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
  flush_main_context ();
  g_assert_cmpuint (fixture->writes, ==, 0);

  pal_name_value_set_value (item (list, 0), "4");
  flush_main_context ();
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/stored-list/damaged-kept", test_damaged_kept);
  ADD ("/stored-list/other-writer", test_other_writer);
  ADD ("/stored-list/lookup-renamed", test_lookup_renamed);
  ADD ("/stored-list/replace", test_replace);
  ADD ("/stored-list/block-changes", test_block_changes);
  ADD ("/stored-list/dispose-writes", test_dispose_writes);

#undef ADD

  return g_test_run ();
}
