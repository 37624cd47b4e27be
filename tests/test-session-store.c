/* test-session-store.c: the session list and its persistence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-session-store.h"
#include "test-util.h"

#define SCHEMA_ID "io.github.palaverapp.Palaver"
#define SECOND G_USEC_PER_SEC

typedef struct
{
  GSettingsBackend *backend;
  GSettings *settings;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->backend = g_memory_settings_backend_new ();
  fixture->settings = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->settings);
  g_clear_object (&fixture->backend);
}

static PalSessionRecord *
item (PalSessionStore *store,
      guint            position)
{
  g_autoptr(PalSessionRecord) record = g_list_model_get_item (G_LIST_MODEL (store), position);

  g_assert_nonnull (record);
  return record; /* the store keeps it alive */
}

static guint
n_items (PalSessionStore *store)
{
  return g_list_model_get_n_items (G_LIST_MODEL (store));
}

static guint
n_stored (GSettings *settings)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, "sessions");

  return g_variant_n_children (value);
}

static void
assert_order (PalSessionStore *store,
              const char      *ids)
{
  g_autoptr(GString) order = g_string_new (NULL);

  for (guint i = 0; i < n_items (store); i++)
    {
      if (i > 0)
        g_string_append_c (order, ' ');
      g_string_append (order, pal_session_record_get_id (item (store, i)));
    }
  g_assert_cmpstr (order->str, ==, ids);
}

/* A key freed at the end of the test. */
static PalSessionKey *
key_of (const char *agent_id,
        const char *session_id)
{
  PalSessionKey *key = pal_session_key_new (agent_id, session_id);

  g_test_queue_destroy ((GDestroyNotify) pal_session_key_unref, key);
  return key;
}

static PalSessionRecord *
add (PalSessionStore *store,
     const char      *id,
     gint64           updated)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new (id, "codex", "/home/me/project");

  pal_session_record_set_created (record, 1000 * SECOND);
  pal_session_record_set_updated (record, updated);
  return pal_session_store_add (store, record);
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

static void
count_cb (GSettings  *settings,
          const char *key,
          guint      *count)
{
  (*count)++;
}

/* --- keys --- */

static void
test_key (void)
{
  g_autoptr(PalSessionKey) a = pal_session_key_new ("codex", "s");
  g_autoptr(PalSessionKey) same = pal_session_key_new ("codex", "s");
  g_autoptr(PalSessionKey) other_agent = pal_session_key_new ("gemini", "s");
  g_autoptr(PalSessionKey) other_id = pal_session_key_new ("codex", "t");
  g_autoptr(PalSessionKey) slash_1 = pal_session_key_new ("a/b", "c");
  g_autoptr(PalSessionKey) slash_2 = pal_session_key_new ("a", "b/c");
  g_autoptr(PalSessionKey) back = NULL;
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(GVariant) wrong = g_variant_ref_sink (g_variant_new_string ("s"));
  g_autofree char *text_1 = NULL;
  g_autofree char *text_2 = NULL;

  g_assert_true (pal_session_key_equal (a, same));
  g_assert_cmpuint (pal_session_key_hash (a), ==, pal_session_key_hash (same));
  g_assert_false (pal_session_key_equal (a, other_agent));
  g_assert_false (pal_session_key_equal (a, other_id));
  g_assert_true (pal_session_key_equal0 (NULL, NULL));
  g_assert_false (pal_session_key_equal0 (a, NULL));

  /* an action target and back */
  variant = g_variant_ref_sink (pal_session_key_to_variant (a));
  g_assert_true (g_variant_is_of_type (variant, PAL_SESSION_KEY_VARIANT_TYPE));
  back = pal_session_key_new_from_variant (variant);
  g_assert_true (pal_session_key_equal (a, back));
  g_assert_cmpstr (pal_session_key_get_agent_id (back), ==, "codex");
  g_assert_cmpstr (pal_session_key_get_session_id (back), ==, "s");
  g_assert_null (pal_session_key_new_from_variant (wrong));

  /* printed forms tell keys apart, even where plain joining would not */
  text_1 = pal_session_key_to_string (slash_1);
  text_2 = pal_session_key_to_string (slash_2);
  g_assert_cmpstr (text_1, !=, text_2);
}

/* --- titles --- */

static void
assert_title (const char *prompt,
              const char *expected)
{
  g_autofree char *title = pal_session_record_title_from_prompt (prompt);

  g_assert_cmpstr (title, ==, expected);
  if (title != NULL)
    {
      g_assert_true (g_utf8_validate (title, -1, NULL));
      g_assert_cmpint (g_utf8_strlen (title, -1), <=, 80);
    }
}

static void
test_title_from_prompt (void)
{
  g_autoptr(GString) long_words = g_string_new (NULL);
  g_autoptr(GString) long_cjk = g_string_new (NULL);
  g_autoptr(GString) exact = g_string_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *expected = NULL;

  assert_title (NULL, NULL);
  assert_title ("", NULL);
  assert_title ("   \n\t\n \r\n  ", NULL);
  assert_title ("\u00a0\u3000\u200b\n", NULL);
  assert_title ("Fix the build", "Fix the build");
  assert_title ("\n\n   Fix the build  \nand then the tests", "Fix the build");
  assert_title ("Windows lines\r\nsecond", "Windows lines");
  assert_title ("\u3000Ideographic space\u00a0", "Ideographic space");
  assert_title ("tab\tinside", "tab inside");
  assert_title ("bad \xff byte", "bad \xef\xbf\xbd byte");

  /* exactly 80 characters: kept whole */
  for (guint i = 0; i < 80; i++)
    g_string_append (exact, "é");
  assert_title (exact->str, exact->str);

  /* 81: cut to 79 and an ellipsis, on a character boundary */
  g_string_append (exact, "é");
  title = pal_session_record_title_from_prompt (exact->str);
  g_assert_cmpint (g_utf8_strlen (title, -1), ==, 80);
  g_assert_true (g_str_has_suffix (title, "é…"));
  g_clear_pointer (&title, g_free);

  for (guint i = 0; i < 40; i++)
    g_string_append (long_cjk, "日本語");
  title = pal_session_record_title_from_prompt (long_cjk->str);
  g_assert_true (g_utf8_validate (title, -1, NULL));
  g_assert_cmpint (g_utf8_strlen (title, -1), ==, 80);
  g_assert_true (g_str_has_suffix (title, "…"));
  g_assert_true (strncmp (title, long_cjk->str, strlen (title) - strlen ("…")) == 0);
  g_clear_pointer (&title, g_free);

  /* words: the cut ends on a whole word, without a trailing space */
  for (guint i = 0; i < 30; i++)
    g_string_append (long_words, "word ");
  title = pal_session_record_title_from_prompt (long_words->str);
  expected = g_strconcat ("word word word word word word word word word word word word word word "
                          "word", "…", NULL);
  g_assert_cmpstr (title, ==, expected);
}

/* --- the store --- */

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("s-1", "claude-agent", "/srv/app");
  g_autoptr(GSettings) settings2 = NULL;
  g_autoptr(PalSessionStore) restarted = NULL;
  PalSessionRecord *read;
  gint64 before = g_get_real_time ();

  g_assert_cmpuint (n_items (store), ==, 0);
  g_assert_cmpstrv (pal_session_store_get_load_errors (store), ((const char *[]) { NULL }));

  pal_session_record_set_title (record, "Refactor the parser");
  g_assert_true (pal_session_store_add (store, record) == record);
  g_assert_cmpint (pal_session_record_get_created (record), >=, before);
  g_assert_cmpint (pal_session_record_get_updated (record), ==,
                   pal_session_record_get_created (record));
  g_assert_true (pal_session_store_set_pinned (store, key_of ("claude-agent", "s-1"), TRUE));
  g_assert_true (pal_session_store_lookup (store, key_of ("claude-agent", "s-1")) == record);
  g_assert_null (pal_session_store_lookup (store, key_of ("codex", "s-2")));
  add (store, "s-2", 5 * SECOND);

  settings2 = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  restarted = pal_session_store_new (settings2);
  g_assert_cmpuint (n_items (restarted), ==, 2);
  read = item (restarted, 0);
  g_assert_true (read != record);
  g_assert_cmpstr (pal_session_record_get_id (read), ==, "s-1");
  g_assert_cmpstr (pal_session_record_get_agent_id (read), ==, "claude-agent");
  g_assert_cmpstr (pal_session_record_get_cwd (read), ==, "/srv/app");
  g_assert_cmpstr (pal_session_record_get_title (read), ==, "Refactor the parser");
  g_assert_cmpint (pal_session_record_get_created (read), ==, pal_session_record_get_created (record));
  g_assert_cmpint (pal_session_record_get_updated (read), ==, pal_session_record_get_updated (record));
  g_assert_true (pal_session_record_get_pinned (read));
  g_assert_false (pal_session_record_get_from_agent (read));
  read = item (restarted, 1);
  g_assert_cmpstr (pal_session_record_get_id (read), ==, "s-2");
  g_assert_cmpint (pal_session_record_get_created (read), ==, 1000 * SECOND);
  g_assert_cmpint (pal_session_record_get_updated (read), ==, 5 * SECOND);
  g_assert_false (pal_session_record_get_pinned (read));

  g_assert_true (pal_session_store_remove (store, key_of ("claude-agent", "s-1")));
  g_assert_false (pal_session_store_remove (store, key_of ("claude-agent", "s-1")));
  g_assert_cmpuint (n_stored (fixture->settings), ==, 1);
  test_drain_main_context ();
  assert_order (restarted, "s-2");
}

static void
test_ordering (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  ItemsChanged changed = { 0, };
  PalSessionRecord *record;

  add (store, "b", 20 * SECOND);
  add (store, "d", 40 * SECOND);
  add (store, "a", 10 * SECOND);
  add (store, "c", 30 * SECOND);
  add (store, "c2", 30 * SECOND);
  assert_order (store, "d c c2 b a");

  g_signal_connect (store, "items-changed", G_CALLBACK (items_changed_cb), &changed);

  /* touching moves a session to the top */
  g_assert_true (pal_session_store_touch (store, key_of ("codex", "b")));
  assert_order (store, "b d c c2 a");
  g_assert_cmpuint (changed.count, ==, 1);
  g_assert_cmpuint (changed.position, ==, 0);
  g_assert_cmpuint (changed.removed, ==, 4);
  g_assert_cmpuint (changed.added, ==, 4);
  g_assert_cmpint (pal_session_record_get_updated (item (store, 0)), >, 40 * SECOND);

  /* pinned ones come first, newest first among them */
  g_assert_true (pal_session_store_set_pinned (store, key_of ("codex", "a"), TRUE));
  g_assert_true (pal_session_store_set_pinned (store, key_of ("codex", "c2"), TRUE));
  assert_order (store, "c2 a b d c");
  g_assert_true (pal_session_store_touch (store, key_of ("codex", "a")));
  assert_order (store, "a c2 b d c");
  g_assert_true (pal_session_store_set_pinned (store, key_of ("codex", "a"), FALSE));
  assert_order (store, "c2 a b d c");

  /* a change of the record itself moves it too */
  record = pal_session_store_lookup (store, key_of ("codex", "c"));
  pal_session_record_set_updated (record, 45 * SECOND);
  assert_order (store, "c2 a b c d");

  /* a title change does not move anything */
  changed.count = 0;
  g_assert_true (pal_session_store_set_title (store, key_of ("codex", "d"), "Renamed"));
  g_assert_cmpuint (changed.count, ==, 0);

  g_assert_false (pal_session_store_touch (store, key_of ("codex", "missing")));
  g_assert_false (pal_session_store_set_title (store, key_of ("codex", "missing"), "x"));
  g_assert_false (pal_session_store_set_pinned (store, key_of ("codex", "missing"), TRUE));

  /* the stored order reads back the same */
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    test_drain_main_context ();
    assert_order (again, "c2 a b c d");
    g_assert_cmpstr (pal_session_record_get_title (item (again, 4)), ==, "Renamed");
  }
}

static void
test_add_existing (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(PalSessionRecord) again = pal_session_record_new ("s", "codex", "/moved");
  PalSessionRecord *record;

  record = add (store, "s", 10 * SECOND);
  pal_session_store_set_title (store, key_of ("codex", "s"), "First title");
  pal_session_store_set_pinned (store, key_of ("codex", "s"), TRUE);

  /* an empty title and older time do not overwrite */
  pal_session_record_set_updated (again, 5 * SECOND);
  g_assert_true (pal_session_store_add (store, again) == record);
  g_assert_cmpuint (n_items (store), ==, 1);
  g_assert_cmpstr (pal_session_record_get_cwd (record), ==, "/moved");
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "First title");
  g_assert_cmpint (pal_session_record_get_updated (record), ==, 10 * SECOND);
  g_assert_cmpint (pal_session_record_get_created (record), ==, 1000 * SECOND);
  g_assert_true (pal_session_record_get_pinned (record));

  pal_session_record_set_title (again, "Second title");
  pal_session_record_set_updated (again, 50 * SECOND);
  g_assert_true (pal_session_store_add (store, again) == record);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Second title");
  g_assert_cmpint (pal_session_record_get_updated (record), ==, 50 * SECOND);
}

static GVariant *
entry (const char *id,
       const char *agent,
       const char *cwd,
       gint64      updated)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  if (id != NULL)
    g_variant_dict_insert (&dict, "id", "s", id);
  if (agent != NULL)
    g_variant_dict_insert (&dict, "agent", "s", agent);
  if (cwd != NULL)
    g_variant_dict_insert (&dict, "cwd", "s", cwd);
  g_variant_dict_insert (&dict, "title", "s", "t");
  g_variant_dict_insert (&dict, "created", "x", (gint64) 1);
  g_variant_dict_insert (&dict, "updated", "x", updated);
  return g_variant_dict_end (&dict);
}

static gboolean
has_backup (gpointer store)
{
  return pal_stored_list_get_backup_path (store) != NULL;
}

static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(GVariant) stored = NULL;
  g_autoptr(GVariant) typed = NULL;
  g_autofree char *copy = NULL;
  GVariantBuilder builder;
  GVariantDict dict;
  GVariant *bad[4];
  const char * const *errors;

  bad[0] = g_variant_ref_sink (entry (NULL, "codex", "/p", 3));
  bad[1] = g_variant_ref_sink (entry ("", "codex", "/p", 3));
  bad[2] = g_variant_ref_sink (entry ("good-1", "codex", "/other", 3));
  bad[3] = g_variant_ref_sink (entry ("no-cwd", "codex", NULL, 3));
  /* an optional member of the wrong type costs the entry only that member */
  typed = g_variant_ref_sink (entry ("typed", "codex", "/p", 3));
  g_variant_dict_init (&dict, typed);
  g_variant_dict_insert (&dict, "updated", "s", "yesterday");
  g_clear_pointer (&typed, g_variant_unref);
  typed = g_variant_ref_sink (g_variant_dict_end (&dict));

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("good-1", "codex", "/p", 10));
  for (guint i = 0; i < 3; i++)
    g_variant_builder_add_value (&builder, bad[i]);
  g_variant_builder_add_value (&builder, typed);
  g_variant_builder_add_value (&builder, bad[3]);
  g_variant_builder_add_value (&builder, entry ("good-2", "codex", "/p", 20));
  g_settings_set_value (fixture->settings, "sessions", g_variant_builder_end (&builder));

  store = pal_session_store_new (fixture->settings);
  /* "typed" was updated when it was created: at 1 */
  assert_order (store, "good-2 good-1 typed");
  g_assert_cmpstr (pal_session_record_get_cwd (item (store, 1)), ==, "/p");
  g_assert_cmpint (pal_session_record_get_updated (item (store, 2)), ==, 1);
  g_assert_cmpstr (pal_session_record_get_title (item (store, 2)), ==, "t");

  errors = pal_session_store_get_load_errors (store);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, 5);
  g_assert_true (g_str_has_prefix (errors[0], "Stored session 2: "));
  g_assert_nonnull (strstr (errors[0], "“id” is missing"));
  g_assert_nonnull (strstr (errors[1], "empty"));
  g_assert_nonnull (strstr (errors[2], "“good-1”"));
  g_assert_cmpstr (errors[3], ==, "Stored session 5: the key “updated” has the type “s” instead "
                                  "of “x”, and was left out");
  g_assert_nonnull (strstr (errors[4], "“cwd” is missing"));

  /* what is left out is copied first: the file holds the key as it was */
  WAIT_UNTIL (has_backup (store));
  g_assert_true (g_file_get_contents (pal_stored_list_get_backup_path (PAL_STORED_LIST (store)),
                                      &copy, NULL, NULL));
  g_assert_nonnull (strstr (copy, "'yesterday'"));

  /* a change keeps the unreadable entries, unchanged */
  g_assert_true (pal_session_store_touch (store, key_of ("codex", "good-1")));
  stored = g_settings_get_value (fixture->settings, "sessions");
  g_assert_cmpuint (g_variant_n_children (stored), ==, 3 + G_N_ELEMENTS (bad));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (stored, 3 + i);

      g_assert_true (g_variant_equal (child, bad[i]));
      g_variant_unref (bad[i]);
    }
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    assert_order (again, "good-1 good-2 typed");
    g_assert_cmpuint (g_strv_length ((char **) pal_session_store_get_load_errors (again)), ==, 4);
  }
}

/* An a{sv} may repeat a key: the first counts, as g_variant_lookup_value()
 * has it; members the store does not know are passed over. */
static void
test_repeated_members (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  GVariantBuilder list, members;
  PalSessionRecord *record;

  g_variant_builder_init (&members, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&members, "{sv}", "future", g_variant_new_string ("?"));
  g_variant_builder_add (&members, "{sv}", "id", g_variant_new_string ("first"));
  g_variant_builder_add (&members, "{sv}", "agent", g_variant_new_string ("codex"));
  g_variant_builder_add (&members, "{sv}", "id", g_variant_new_string ("second"));
  g_variant_builder_add (&members, "{sv}", "cwd", g_variant_new_string ("/p"));
  g_variant_builder_add (&members, "{sv}", "pinned", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&members, "{sv}", "pinned", g_variant_new_string ("no"));
  g_variant_builder_add (&members, "{sv}", "title", g_variant_new_string ("Kept"));
  g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&list, g_variant_builder_end (&members));
  g_settings_set_value (fixture->settings, "sessions", g_variant_builder_end (&list));

  store = pal_session_store_new (fixture->settings);
  assert_order (store, "first");
  record = item (store, 0);
  g_assert_true (pal_session_record_get_pinned (record));
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Kept");
  g_assert_cmpuint (g_strv_length ((char **) pal_session_store_get_load_errors (store)), ==, 0);
}

/* Read ahead in a thread, the list is the one read at once, unreadable
 * entries and all; a change of the key meanwhile is not missed. */
static void
test_read_ahead (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(PalSessionStore) at_once = NULL;
  PalSessionStoreReading *reading;
  GVariantBuilder builder;
  GVariantDict dict;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *id = g_strdup_printf ("s%03u", i);

      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "id", "s", id);
      g_variant_dict_insert (&dict, "agent", "s", "codex");
      g_variant_dict_insert (&dict, "cwd", "s", "/p");
      g_variant_dict_insert (&dict, "updated", "x", (gint64) i * SECOND);
      g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
    }
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "id", "s", "no-cwd");
  g_variant_dict_insert (&dict, "agent", "s", "codex");
  g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
  g_settings_set_value (fixture->settings, "sessions", g_variant_builder_end (&builder));

  reading = pal_session_store_read_start (fixture->settings);
  store = pal_session_store_new_from_reading (reading);
  at_once = pal_session_store_new (fixture->settings);
  g_assert_cmpuint (n_items (store), ==, 300);
  g_assert_cmpstr (pal_session_record_get_id (item (store, 0)), ==, "s299");
  g_assert_cmpstr (pal_session_record_get_id (item (store, 299)), ==, "s000");
  g_assert_cmpstrv (pal_session_store_get_load_errors (store),
                    pal_session_store_get_load_errors (at_once));
  g_assert_cmpuint (g_strv_length ((char **) pal_session_store_get_load_errors (store)), ==, 1);

  /* what it read is written back as it was, the unreadable entry too */
  g_assert_true (pal_session_store_touch (store, key_of ("codex", "s000")));
  g_assert_cmpuint (n_stored (fixture->settings), ==, 301);
  g_clear_object (&store);

  /* written meanwhile: the newer list */
  reading = pal_session_store_read_start (fixture->settings);
  g_settings_reset (fixture->settings, "sessions");
  store = pal_session_store_new_from_reading (reading);
  test_drain_main_context ();
  g_assert_cmpuint (n_items (store), ==, 0);

  /* not used after all */
  pal_session_store_reading_free (pal_session_store_read_start (fixture->settings));
}

static JsonArray *
parse_array (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_array_ref (json_node_get_array (json_parser_get_root (parser)));
}

static void
test_merge_listed (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(JsonArray) listed = NULL;
  g_autoptr(GSettings) other = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  ItemsChanged changed = { 0, };
  PalSessionRecord *record;
  gint64 march = G_GINT64_CONSTANT (1740823200) * SECOND; /* 2025-03-01T10:00:00Z */

  add (store, "known", 10 * SECOND);
  pal_session_store_set_title (store, key_of ("codex", "known"), "Old title");
  add (store, "untitled", 9 * SECOND);
  {
    g_autoptr(PalSessionRecord) gemini = pal_session_record_new ("other-agents", "gemini",
                                                                 "/home/me/project");

    pal_session_record_set_created (gemini, 1000 * SECOND);
    pal_session_record_set_updated (gemini, 11 * SECOND);
    pal_session_store_add (store, gemini);
  }
  test_drain_main_context ();
  g_signal_connect (store, "items-changed", G_CALLBACK (items_changed_cb), &changed);

  listed = parse_array ("["
    "{\"sessionId\": \"new-1\", \"cwd\": \"/p\", \"title\": \"Listed\","
    " \"updatedAt\": \"2025-03-01T10:00:00Z\", \"_meta\": {}},"
    "{\"sessionId\": \"new-2\", \"cwd\": \"/p\", \"title\": 12, \"updatedAt\": \"soon\"},"
    "{\"sessionId\": \"new-3\", \"cwd\": \"/p\", \"title\": null,"
    " \"updatedAt\": \"2025-03-01T11:00:00.5+01:00\"},"
    "{\"sessionId\": \"known\", \"cwd\": \"/p\", \"title\": \"New title\","
    " \"updatedAt\": \"2025-03-01T10:00:00Z\"},"
    "{\"sessionId\": \"untitled\", \"cwd\": \"/p\", \"title\": \"Listed title\"},"
    "{\"sessionId\": \"other-agents\", \"cwd\": \"/p\", \"title\": \"Stolen\"},"
    "{\"sessionId\": \"\", \"cwd\": \"/p\"},"
    "{\"sessionId\": \"no-cwd\"},"
    "{\"sessionId\": 7, \"cwd\": \"/p\"},"
    "[\"not\", \"an\", \"object\"],"
    "null"
    "]");

  /* the id of another agent's session is another session */
  g_assert_cmpuint (pal_session_store_merge_listed (store, "codex", listed), ==, 4);
  g_assert_cmpuint (changed.count, ==, 1);
  /* new-3 is 10:00:00.5Z, new-1 and known 10:00:00Z (known created earlier) */
  assert_order (store, "new-3 new-1 known other-agents untitled new-2 other-agents");

  record = pal_session_store_lookup (store, key_of ("codex", "new-1"));
  g_assert_true (pal_session_record_get_from_agent (record));
  g_assert_cmpstr (pal_session_record_get_agent_id (record), ==, "codex");
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Listed");
  g_assert_cmpint (pal_session_record_get_updated (record), ==, march);
  g_assert_cmpint (pal_session_record_get_created (record), ==, march);
  record = pal_session_store_lookup (store, key_of ("codex", "new-2"));
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "");
  g_assert_cmpint (pal_session_record_get_updated (record), ==, 0);
  record = pal_session_store_lookup (store, key_of ("codex", "new-3"));
  g_assert_cmpint (pal_session_record_get_updated (record), ==, march + SECOND / 2);

  /* a listed title (for some agents their latest prompt) only names a
   * session without one */
  record = pal_session_store_lookup (store, key_of ("codex", "known"));
  g_assert_false (pal_session_record_get_from_agent (record));
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Old title");
  g_assert_cmpstr (pal_session_record_get_title (pal_session_store_lookup (store, key_of ("codex", "untitled"))),
                   ==, "Listed title");
  g_assert_cmpint (pal_session_record_get_updated (record), ==, march);
  g_assert_cmpstr (pal_session_record_get_title (pal_session_store_lookup (store, key_of ("gemini", "other-agents"))),
                   ==, "");
  g_assert_cmpstr (pal_session_record_get_title (pal_session_store_lookup (store, key_of ("codex", "other-agents"))),
                   ==, "Stolen");

  /* only the stored ones are in the key, the known ones updated */
  g_assert_cmpuint (n_stored (fixture->settings), ==, 3);
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (other);

    assert_order (again, "known other-agents untitled");
    g_assert_cmpstr (pal_session_record_get_title (item (again, 0)), ==, "Old title");
    g_assert_cmpstr (pal_session_record_get_title (item (again, 2)), ==, "Listed title");
  }

  /* an older updatedAt does not move a session back; listing twice adds nothing */
  g_clear_pointer (&listed, json_array_unref);
  listed = parse_array ("[{\"sessionId\": \"known\", \"cwd\": \"/p\","
                        " \"updatedAt\": \"2001-01-01T00:00:00Z\"},"
                        " {\"sessionId\": \"new-1\", \"cwd\": \"/p\"}]");
  g_assert_cmpuint (pal_session_store_merge_listed (store, "codex", listed), ==, 0);
  g_assert_cmpint (pal_session_record_get_updated (pal_session_store_lookup (store, key_of ("codex", "known"))),
                   ==, march);
  g_assert_cmpstr (pal_session_record_get_title (pal_session_store_lookup (store, key_of ("codex", "known"))),
                   ==, "Old title");

  /* an external change keeps the listed sessions, the same objects */
  record = pal_session_store_lookup (store, key_of ("codex", "new-1"));
  {
    GVariantBuilder builder;

    g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
    g_variant_builder_add_value (&builder, entry ("known", "codex", "/p", march));
    g_settings_set_value (other, "sessions", g_variant_builder_end (&builder));
    test_drain_main_context ();
  }
  assert_order (store, "new-3 new-1 known new-2 other-agents");
  g_assert_true (pal_session_store_lookup (store, key_of ("codex", "new-1")) == record);
  g_assert_cmpstr (pal_session_record_get_title (pal_session_store_lookup (store, key_of ("codex", "known"))),
                   ==, "t");

  /* using a listed session stores it */
  g_assert_true (pal_session_store_touch (store, key_of ("codex", "new-1")));
  g_assert_false (pal_session_record_get_from_agent (record));
  assert_order (store, "new-1 new-3 known new-2 other-agents");
  g_assert_cmpuint (n_stored (fixture->settings), ==, 2);
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (other);

    assert_order (again, "new-1 known");
    g_assert_cmpstr (pal_session_record_get_title (item (again, 0)), ==, "Listed");
  }

  /* and so does adding one, as the session manager does when it opens it */
  {
    g_autoptr(PalSessionRecord) opened = pal_session_record_new ("new-2", "codex", "/p");

    g_assert_true (pal_session_store_add (store, opened) == pal_session_store_lookup (store, key_of ("codex", "new-2")));
    g_assert_false (pal_session_record_get_from_agent (pal_session_store_lookup (store, key_of ("codex", "new-2"))));
    g_assert_cmpuint (n_stored (fixture->settings), ==, 3);
  }
}

/* The additional folders go with the session into the key and back */
static void
test_directories_round_trip (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(PalSessionRecord) record = pal_session_record_new ("s-1", "codex", "/srv/app");
  g_autoptr(PalSessionStore) again = NULL;
  g_autoptr(GVariant) stored = NULL;
  g_autoptr(GVariant) first = NULL;
  g_autoptr(GVariant) second = NULL;
  const char *dirs[] = { "/srv/lib", "/srv/docs", NULL };
  const char *none[] = { NULL };

  g_assert_cmpstrv (pal_session_record_get_additional_directories (record), none);
  pal_session_record_set_additional_directories (record, dirs);
  pal_session_store_add (store, record);
  add (store, "s-2", 5 * SECOND);

  again = pal_session_store_new (fixture->settings);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (again, key_of ("codex", "s-1"))),
                    dirs);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (again, key_of ("codex", "s-2"))),
                    none);

  /* a session without them is written as before they existed */
  stored = g_settings_get_value (fixture->settings, "sessions");
  first = g_variant_get_child_value (stored, 0);
  second = g_variant_get_child_value (stored, 1);
  g_assert_true (g_variant_lookup (first, "additional-directories", "^a&s", NULL));
  g_assert_false (g_variant_lookup (second, "additional-directories", "^a&s", NULL));

  /* a change made on the record is stored too */
  pal_session_record_set_additional_directories (record, none);
  test_drain_main_context ();
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (again, key_of ("codex", "s-1"))),
                    none);
}

/* Entries written before the folders existed load as they are; folders
 * that cannot be read cost the entry nothing else, and are kept */
static void
test_directories_old_and_damaged (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  g_autoptr(GVariant) stored = NULL;
  g_autoptr(GVariant) damaged = NULL;
  g_autoptr(GVariant) damaged_entry = NULL;
  g_autoptr(GVariant) mixed_entry = NULL;
  GVariantBuilder builder;
  GVariantDict dict;
  const char *mixed[] = { "/srv/lib/", "relative", "/p/inside", "/srv/lib", "", NULL };
  const char *cleaned[] = { "/srv/lib", NULL };
  const char *none[] = { NULL };
  const char *later[] = { "/srv/docs", NULL };
  const char *id = NULL;
  PalSessionRecord *record;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("old", "codex", "/p", 30));
  /* the dictionary copies what it starts from: the entries are sunk first */
  damaged_entry = g_variant_ref_sink (entry ("damaged", "codex", "/p", 20));
  g_variant_dict_init (&dict, damaged_entry);
  g_variant_dict_insert (&dict, "pinned", "b", TRUE);
  g_variant_dict_insert (&dict, "additional-directories", "s", "/srv/lib");
  damaged = g_variant_ref_sink (g_variant_dict_end (&dict));
  g_variant_builder_add_value (&builder, damaged);
  mixed_entry = g_variant_ref_sink (entry ("mixed", "codex", "/p", 10));
  g_variant_dict_init (&dict, mixed_entry);
  g_variant_dict_insert (&dict, "additional-directories", "^as", mixed);
  g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
  g_settings_set_value (fixture->settings, "sessions", g_variant_builder_end (&builder));

  store = pal_session_store_new (fixture->settings);
  assert_order (store, "damaged old mixed");
  g_assert_cmpstrv (pal_session_store_get_load_errors (store), none);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (store, key_of ("codex", "old"))),
                    none);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (store, key_of ("codex", "mixed"))),
                    cleaned);
  record = pal_session_store_lookup (store, key_of ("codex", "damaged"));
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "t");
  g_assert_cmpstr (pal_session_record_get_cwd (record), ==, "/p");
  g_assert_true (pal_session_record_get_pinned (record));
  g_assert_cmpstrv (pal_session_record_get_additional_directories (record), none);

  /* written back, the damaged folders are what they were */
  g_assert_true (pal_session_store_touch (store, key_of ("codex", "old")));
  stored = g_settings_get_value (fixture->settings, "sessions");
  {
    g_autoptr(GVariant) child = g_variant_get_child_value (stored, 0);   /* pinned: first */
    g_autoptr(GVariant) value = g_variant_lookup_value (child, "additional-directories", NULL);
    g_autoptr(GVariant) expected = g_variant_lookup_value (damaged, "additional-directories", NULL);

    g_assert_true (g_variant_lookup (child, "id", "&s", &id));
    g_assert_cmpstr (id, ==, "damaged");
    g_assert_nonnull (value);
    g_assert_true (g_variant_equal (value, expected));
  }

  /* until the session gets folders of its own */
  pal_session_record_set_additional_directories (record, later);
  g_assert_true (pal_session_store_touch (store, key_of ("codex", "damaged")));
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (again, key_of ("codex", "damaged"))),
                      later);
  }
}

/* Folders an agent lists for its sessions are kept */
static void
test_directories_listed (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(JsonArray) listed = NULL;
  const char *chosen[] = { "/srv/mine", NULL };
  const char *listed_dirs[] = { "/srv/shared", "/srv/docs", NULL };
  const char *none[] = { NULL };

  add (store, "stored-bare", 10 * SECOND);
  add (store, "stored-chosen", 10 * SECOND);
  pal_session_record_set_additional_directories (pal_session_store_lookup (store, key_of ("codex", "stored-chosen")), chosen);

  listed = parse_array ("["
    "{\"sessionId\": \"new\", \"cwd\": \"/p\","
    " \"additionalDirectories\": [\"/srv/shared\", 7, \"relative\", \"/p/sub\", \"/srv/docs/\"]},"
    "{\"sessionId\": \"new-none\", \"cwd\": \"/p\", \"additionalDirectories\": \"/srv/x\"},"
    "{\"sessionId\": \"stored-bare\", \"cwd\": \"/p\", \"additionalDirectories\": [\"/srv/shared\", \"/srv/docs\"]},"
    "{\"sessionId\": \"stored-chosen\", \"cwd\": \"/p\", \"additionalDirectories\": [\"/srv/other\"]}"
    "]");
  g_assert_cmpuint (pal_session_store_merge_listed (store, "codex", listed), ==, 2);

  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (store, key_of ("codex", "new"))),
                    listed_dirs);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (store, key_of ("codex", "new-none"))),
                    none);
  /* a stored session takes them when it had none; the person's stay */
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (store, key_of ("codex", "stored-bare"))),
                    listed_dirs);
  g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (store, key_of ("codex", "stored-chosen"))),
                    chosen);
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (again, key_of ("codex", "stored-bare"))),
                      listed_dirs);
  }

  /* a listed session opened (added) keeps what the agent said */
  {
    g_autoptr(PalSessionRecord) opened = pal_session_record_new ("new", "codex", "/p");

    pal_session_record_set_additional_directories (opened, listed_dirs);
    pal_session_store_add (store, opened);
  }
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    g_assert_cmpstrv (pal_session_record_get_additional_directories (pal_session_store_lookup (again, key_of ("codex", "new"))),
                      listed_dirs);
  }
}

static void
test_batched_writes (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  PalSessionRecord *record;
  guint writes = 0;

  record = add (store, "s", 10 * SECOND);
  add (store, "t", 20 * SECOND);
  g_signal_connect (fixture->settings, "changed::sessions", G_CALLBACK (count_cb), &writes);

  pal_session_record_set_title (record, "Title");
  pal_session_record_set_pinned (record, TRUE);
  pal_session_record_set_cwd (record, "/elsewhere");
  g_assert_cmpuint (writes, ==, 0);
  assert_order (store, "s t");
  test_drain_main_context ();
  g_assert_cmpuint (writes, ==, 1);

  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    assert_order (again, "s t");
    g_assert_cmpstr (pal_session_record_get_title (item (again, 0)), ==, "Title");
    g_assert_cmpstr (pal_session_record_get_cwd (item (again, 0)), ==, "/elsewhere");
  }

  /* a pending change is written when the store goes away */
  pal_session_record_set_title (record, "Last words");
  g_clear_object (&store);
  g_assert_cmpuint (writes, ==, 2);
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    g_assert_cmpstr (pal_session_record_get_title (item (again, 0)), ==, "Last words");
  }

  g_signal_handlers_disconnect_by_func (fixture->settings, count_cb, &writes);
}

static void
test_external_change (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(GSettings) other = g_settings_new_with_backend (SCHEMA_ID, fixture->backend);
  GVariantBuilder builder;
  PalSessionRecord *a;
  PalSessionRecord *b;

  a = add (store, "a", 30 * SECOND);
  b = add (store, "b", 20 * SECOND);
  add (store, "c", 10 * SECOND);

  /* another instance touches b and forgets c */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("a", "codex", "/p", 30 * SECOND));
  g_variant_builder_add_value (&builder, entry ("b", "codex", "/p", 40 * SECOND));
  g_settings_set_value (other, "sessions", g_variant_builder_end (&builder));
  test_drain_main_context ();

  assert_order (store, "b a");
  g_assert_true (item (store, 0) == b);
  g_assert_true (item (store, 1) == a);
  g_assert_cmpstr (pal_session_record_get_title (a), ==, "t");
  g_assert_null (pal_session_store_lookup (store, key_of ("codex", "c")));
}

/* The person's title stays: a title from the agent (session_info_update,
 * session/list, a record added again) or the first prompt does not replace
 * it, after a restart too; a "renamed" that is not a boolean is left
 * out, and said so */
static void
test_renamed (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(PalSessionRecord) again = pal_session_record_new ("s", "codex", "/p");
  g_autoptr(JsonArray) listed = NULL;
  PalSessionRecord *record;

  record = add (store, "s", 10 * SECOND);
  g_assert_true (pal_session_store_set_title (store, key_of ("codex", "s"), "From the agent"));
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "From the agent");
  g_assert_false (pal_session_record_get_renamed (record));

  g_assert_true (pal_session_store_rename (store, key_of ("codex", "s"), "Mine"));
  g_assert_true (pal_session_record_get_renamed (record));
  g_assert_true (pal_session_store_set_title (store, key_of ("codex", "s"), "From the agent again"));
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Mine");

  listed = parse_array ("[{\"sessionId\": \"s\", \"cwd\": \"/p\", \"title\": \"Listed\"}]");
  pal_session_store_merge_listed (store, "codex", listed);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Mine");

  pal_session_record_set_title (again, "Added again");
  g_assert_true (pal_session_store_add (store, again) == record);
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Mine");

  /* renamed again by the person: that one */
  g_assert_true (pal_session_store_rename (store, key_of ("codex", "s"), "Mine, better"));
  g_assert_cmpstr (pal_session_record_get_title (record), ==, "Mine, better");
  g_assert_false (pal_session_store_rename (store, key_of ("codex", "missing"), "x"));

  {
    g_autoptr(PalSessionStore) reloaded = pal_session_store_new (fixture->settings);
    PalSessionRecord *read = pal_session_store_lookup (reloaded, key_of ("codex", "s"));

    g_assert_nonnull (read);
    g_assert_true (pal_session_record_get_renamed (read));
    g_assert_cmpstr (pal_session_record_get_title (read), ==, "Mine, better");
    g_assert_true (pal_session_store_set_title (reloaded, key_of ("codex", "s"), "After a restart"));
    g_assert_cmpstr (pal_session_record_get_title (read), ==, "Mine, better");
  }

  {
    g_autoptr(PalSessionStore) broken = NULL;
    /* g_variant_dict_init() only reads it: the floating reference is ours */
    g_autoptr(GVariant) odd = g_variant_ref_sink (entry ("odd", "codex", "/p", 3));
    GVariantBuilder builder;
    GVariantDict dict;
    const char * const *errors;

    g_variant_dict_init (&dict, odd);
    g_variant_dict_insert (&dict, "renamed", "s", "yes");
    g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
    g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
    g_variant_builder_add_value (&builder, entry ("fine", "codex", "/p", 4));
    g_settings_set_value (fixture->settings, "sessions", g_variant_builder_end (&builder));

    broken = pal_session_store_new (fixture->settings);
    assert_order (broken, "fine odd");
    g_assert_false (pal_session_record_get_renamed (item (broken, 1)));
    errors = pal_session_store_get_load_errors (broken);
    g_assert_cmpuint (g_strv_length ((char **) errors), ==, 1);
    g_assert_nonnull (strstr (errors[0], "“renamed”"));
    g_assert_nonnull (strstr (errors[0], "left out"));
    WAIT_UNTIL (has_backup (broken));
  }
}

/* A session removed from the list is not listed again by its agent, also
 * in a later run, until the person asks for the hidden sessions or uses it. */
static void
test_removed_stays_removed (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(JsonArray) listed = parse_array ("[{\"sessionId\": \"gone\", \"cwd\": \"/p\"},"
                                             " {\"sessionId\": \"kept\", \"cwd\": \"/p\"}]");
  g_auto(GStrv) pairs = NULL;

  g_assert_cmpuint (pal_session_store_merge_listed (store, "codex", listed), ==, 2);
  g_assert_true (pal_session_store_remove (store, key_of ("codex", "gone")));
  g_assert_null (pal_session_store_lookup (store, key_of ("codex", "gone")));
  g_assert_cmpuint (pal_session_store_get_n_hidden (store), ==, 1);

  /* listed again, now and in a later run: still gone */
  g_assert_cmpuint (pal_session_store_merge_listed (store, "codex", listed), ==, 0);
  g_assert_null (pal_session_store_lookup (store, key_of ("codex", "gone")));
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    g_assert_cmpuint (pal_session_store_merge_listed (again, "codex", listed), ==, 2 - 1);
    g_assert_null (pal_session_store_lookup (again, key_of ("codex", "gone")));
  }
  /* asked for: they come back with the next list, and the store says whose */
  pairs = pal_session_store_show_hidden (store);
  g_assert_cmpuint (g_strv_length (pairs), ==, 2);
  g_assert_cmpstr (pairs[0], ==, "codex");
  g_assert_cmpstr (pairs[1], ==, "/p");
  g_assert_cmpuint (pal_session_store_get_n_hidden (store), ==, 0);
  g_assert_cmpuint (pal_session_store_merge_listed (store, "codex", listed), ==, 1);
  g_assert_nonnull (pal_session_store_lookup (store, key_of ("codex", "gone")));

  /* removed, then added on purpose (Undo, opening it): not hidden */
  g_assert_true (pal_session_store_remove (store, key_of ("codex", "kept")));
  g_assert_cmpuint (pal_session_store_get_n_hidden (store), ==, 1);
  add (store, "kept", 5 * SECOND);
  g_assert_cmpuint (pal_session_store_get_n_hidden (store), ==, 0);
}

static PalSessionRecord *
add_of (PalSessionStore *store,
        const char      *agent_id,
        const char      *id,
        const char      *cwd,
        gint64           updated)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new (id, agent_id, cwd);

  pal_session_record_set_created (record, 1000 * SECOND);
  pal_session_record_set_updated (record, updated);
  return pal_session_store_add (store, record);
}

/* Two agents that hand out the same id have two sessions: listed, renamed,
 * stored, removed and hidden each on its own. */
static void
test_same_id_two_agents (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = pal_session_store_new (fixture->settings);
  g_autoptr(JsonArray) listed = parse_array ("[{\"sessionId\": \"shared\", \"cwd\": \"/q\"}]");
  g_autoptr(GPtrArray) found = NULL;
  PalSessionRecord *codex, *gemini;

  codex = add_of (store, "codex", "shared", "/p", 10 * SECOND);
  gemini = add_of (store, "gemini", "shared", "/q", 20 * SECOND);
  g_assert_true (codex != gemini);
  g_assert_cmpuint (n_items (store), ==, 2);
  g_assert_cmpstr (pal_session_record_get_agent_id (codex), ==, "codex");
  g_assert_cmpstr (pal_session_record_get_cwd (codex), ==, "/p");
  g_assert_true (pal_session_store_lookup (store, key_of ("codex", "shared")) == codex);
  g_assert_true (pal_session_store_lookup (store, key_of ("gemini", "shared")) == gemini);
  g_assert_null (pal_session_store_lookup (store, key_of ("claude", "shared")));
  found = pal_session_store_find_by_id (store, "shared");
  g_assert_cmpuint (found->len, ==, 2);

  g_assert_true (pal_session_store_rename (store, key_of ("codex", "shared"), "Codex’s"));
  g_assert_true (pal_session_store_set_title (store, key_of ("gemini", "shared"), "Gemini’s"));
  g_assert_cmpstr (pal_session_record_get_title (codex), ==, "Codex’s");
  g_assert_cmpstr (pal_session_record_get_title (gemini), ==, "Gemini’s");

  /* both are stored, and read back */
  g_assert_cmpuint (n_stored (fixture->settings), ==, 2);
  {
    g_autoptr(PalSessionStore) again = pal_session_store_new (fixture->settings);

    g_assert_cmpuint (n_items (again), ==, 2);
    g_assert_cmpstr (pal_session_record_get_title (pal_session_store_lookup (again, key_of ("codex", "shared"))),
                     ==, "Codex’s");
    g_assert_cmpstr (pal_session_record_get_title (pal_session_store_lookup (again, key_of ("gemini", "shared"))),
                     ==, "Gemini’s");
    g_assert_cmpstrv (pal_session_store_get_load_errors (again), ((const char *[]) { NULL }));
  }

  /* removing one leaves the other, and hides only the one */
  g_assert_true (pal_session_store_remove (store, key_of ("gemini", "shared")));
  g_assert_null (pal_session_store_lookup (store, key_of ("gemini", "shared")));
  g_assert_true (pal_session_store_lookup (store, key_of ("codex", "shared")) == codex);
  g_assert_cmpuint (n_stored (fixture->settings), ==, 1);
  g_assert_cmpuint (pal_session_store_merge_listed (store, "gemini", listed), ==, 0);
  g_assert_null (pal_session_store_lookup (store, key_of ("gemini", "shared")));
  g_assert_true (pal_session_store_remove (store, key_of ("codex", "shared")));
  g_assert_cmpuint (pal_session_store_get_n_hidden (store), ==, 2);
  g_assert_cmpuint (n_items (store), ==, 0);
}

/* What the version that named sessions by id alone stored reads as it is; an
 * entry of another agent with a repeated id, which it skipped (and kept in
 * the key), now reads too. */
static void
test_stored_before_keys (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(PalSessionStore) store = NULL;
  GVariantBuilder builder;
  GVariantBuilder hidden;
  const char * const *errors;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("shared", "codex", "/p", 10));
  g_variant_builder_add_value (&builder, entry ("shared", "gemini", "/q", 20));
  g_variant_builder_add_value (&builder, entry ("shared", "codex", "/r", 30));
  g_variant_builder_add_value (&builder, entry ("alone", "codex", "/p", 5));
  g_settings_set_value (fixture->settings, "sessions", g_variant_builder_end (&builder));
  g_variant_builder_init (&hidden, G_VARIANT_TYPE ("a(sss)"));
  g_variant_builder_add (&hidden, "(sss)", "gemini", "/q", "gone");
  g_settings_set_value (fixture->settings, "hidden-sessions", g_variant_builder_end (&hidden));

  store = pal_session_store_new (fixture->settings);
  assert_order (store, "shared shared alone");
  g_assert_cmpstr (pal_session_record_get_cwd (pal_session_store_lookup (store, key_of ("codex", "shared"))),
                   ==, "/p");
  g_assert_cmpstr (pal_session_record_get_cwd (pal_session_store_lookup (store, key_of ("gemini", "shared"))),
                   ==, "/q");
  errors = pal_session_store_get_load_errors (store);
  g_assert_cmpuint (g_strv_length ((char **) errors), ==, 1);
  g_assert_true (g_str_has_prefix (errors[0], "Stored session 3: "));
  g_assert_nonnull (strstr (errors[0], "“shared”"));
  g_assert_nonnull (strstr (errors[0], "“codex”"));

  /* the hidden sessions are (agent, folder, id) already */
  g_assert_cmpuint (pal_session_store_get_n_hidden (store), ==, 1);
  {
    g_autoptr(JsonArray) listed = parse_array ("[{\"sessionId\": \"gone\", \"cwd\": \"/q\"}]");

    g_assert_cmpuint (pal_session_store_merge_listed (store, "gemini", listed), ==, 0);
    g_assert_cmpuint (pal_session_store_merge_listed (store, "codex", listed), ==, 1);
  }
}

/* --- two instances on one settings file --- */

/* The text of a settings file that lists s1 and s2, then @extra (or not) */
static char *
sessions_file_text (const char *extra)
{
  g_autoptr(GVariant) stored = NULL;
  g_autofree char *text = NULL;
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&builder, entry ("s1", "codex", "/p", 10 * SECOND));
  g_variant_builder_add_value (&builder, entry ("s2", "codex", "/p", 20 * SECOND));
  if (extra != NULL)
    g_variant_builder_add_value (&builder, entry (extra, "codex", "/p", 70 * SECOND));
  stored = g_variant_ref_sink (g_variant_builder_end (&builder));
  text = g_variant_print (stored, TRUE);
  return g_strdup_printf ("[io/github/palaverapp/Palaver]\nsessions=%s\n", text);
}

/* A settings file with two sessions; returns its path */
static char *
write_two_sessions (void)
{
  g_autofree char *folder = test_make_tmpdir ("palaver-session-store");
  char *path = g_build_filename (folder, "keyfile", NULL);
  g_autofree char *contents = sessions_file_text (NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static gboolean
both_list_five (gpointer data)
{
  PalSessionStore **stores = data;

  return n_items (stores[0]) == 5 && n_items (stores[1]) == 5;
}

static const char *
title_of (PalSessionStore *store,
          const char      *id)
{
  PalSessionRecord *record = pal_session_store_lookup (store, key_of ("codex", id));

  g_assert_nonnull (record);
  return pal_session_record_get_title (record);
}

/* Two instances on one settings file start sessions at nearly the same
 * moment, and name them before their idle writes: when one writes, the
 * other's change not written yet goes on top. No session and no title is
 * lost, in either instance or in the file. */
static void
test_two_instances (void)
{
  g_autofree char *path = write_two_sessions ();
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettings) first_settings = NULL;
  g_autoptr(GSettings) second_settings = NULL;
  g_autoptr(GSettingsBackend) later_backend = NULL;
  g_autoptr(GSettings) later_settings = NULL;
  PalSessionStore *stores[2];
  g_autoptr(PalSessionStore) later = NULL;

  backend = g_keyfile_settings_backend_new (path, "/", NULL);
  first_settings = g_settings_new_with_backend (SCHEMA_ID, backend);
  second_settings = g_settings_new_with_backend (SCHEMA_ID, backend);
  stores[0] = pal_session_store_new (first_settings);
  stores[1] = pal_session_store_new (second_settings);

  /* a session started and named here, one there, one more here */
  pal_session_record_set_title (add (stores[0], "a1", 50 * SECOND), "Named here");
  pal_session_record_set_title (add (stores[1], "b1", 60 * SECOND), "Named there");
  add (stores[0], "a2", 70 * SECOND);
  test_drain_main_context ();

  WAIT_UNTIL (both_list_five (stores));
  for (guint i = 0; i < 2; i++)
    {
      assert_order (stores[i], "a2 b1 a1 s2 s1");
      g_assert_cmpstr (title_of (stores[i], "a1"), ==, "Named here");
      g_assert_cmpstr (title_of (stores[i], "b1"), ==, "Named there");
    }

  /* and the file holds them all: another instance reads them */
  later_backend = g_keyfile_settings_backend_new (path, "/", NULL);
  later_settings = g_settings_new_with_backend (SCHEMA_ID, later_backend);
  later = pal_session_store_new (later_settings);
  assert_order (later, "a2 b1 a1 s2 s1");
  g_assert_cmpstr (title_of (later, "a1"), ==, "Named here");
  g_assert_cmpstr (title_of (later, "b1"), ==, "Named there");
  g_assert_null (pal_session_store_get_load_errors (later)[0]);

  g_clear_object (&stores[0]);
  g_clear_object (&stores[1]);
}

/* Two instances as two processes are: each with its own copy of one
 * settings file, which it writes whole and reads again when the file
 * changes. */
typedef struct
{
  GSettingsBackend *backend;
  GSettings        *settings;
  PalSessionStore  *store;
} Instance;

static void
instance_start (Instance   *instance,
                const char *path)
{
  instance->backend = g_keyfile_settings_backend_new (path, "/", NULL);
  instance->settings = g_settings_new_with_backend (SCHEMA_ID, instance->backend);
  instance->store = pal_session_store_new (instance->settings);
}

static void
instance_stop (Instance *instance)
{
  g_clear_object (&instance->store);
  g_clear_object (&instance->settings);
  g_clear_object (&instance->backend);
}

static char *
order_of (PalSessionStore *store)
{
  GString *order = g_string_new (NULL);

  for (guint i = 0; i < n_items (store); i++)
    {
      g_autoptr(PalSessionRecord) record = g_list_model_get_item (G_LIST_MODEL (store), i);

      if (i > 0)
        g_string_append_c (order, ' ');
      g_string_append (order, pal_session_record_get_id (record));
    }
  return g_string_free (order, FALSE);
}

static gboolean
lists_in_order (gpointer data)
{
  gpointer *args = data;
  g_autofree char *order = order_of (args[0]);

  return g_strcmp0 (order, args[1]) == 0;
}

#define WAIT_FOR_ORDER(store, order) \
  G_STMT_START { \
    gpointer args_[2] = { (store), (gpointer) (order) }; \
    WAIT_UNTIL (lists_in_order (args_)); \
  } G_STMT_END

/* The order a third instance, started now, reads from the file, and how
 * many sessions it hides */
static char *
order_in_file (const char *path,
               guint      *n_hidden)
{
  Instance later = { NULL, };
  char *order;

  instance_start (&later, path);
  order = order_of (later.store);
  *n_hidden = pal_session_store_get_n_hidden (later.store);
  instance_stop (&later);
  return order;
}

static gboolean
hides_one (gpointer data)
{
  return pal_session_store_get_n_hidden (data) == 1;
}

typedef struct
{
  char     *path;
  Instance  here;
  Instance  there;
} TwoInstances;

/* Both instances list @order, and so does the file; returns how many
 * sessions the file hides */
static guint
assert_everywhere (TwoInstances *t,
                   const char   *order)
{
  g_autofree char *in_file = NULL;
  guint n_hidden;

  WAIT_FOR_ORDER (t->here.store, order);
  WAIT_FOR_ORDER (t->there.store, order);
  in_file = order_in_file (t->path, &n_hidden);
  g_assert_cmpstr (in_file, ==, order);

  return n_hidden;
}

static void
two_instances_set_up (TwoInstances  *t,
                      gconstpointer  data)
{
  t->path = write_two_sessions ();
  instance_start (&t->here, t->path);
  instance_start (&t->there, t->path);
}

static void
two_instances_tear_down (TwoInstances  *t,
                         gconstpointer  data)
{
  instance_stop (&t->here);
  instance_stop (&t->there);
  g_free (t->path);
}

/* One instance writes the file; before it has read the change, the other
 * writes its own copy, without the first one's session, over it. The
 * first, told of the file that lost its session (it has no change pending
 * then), puts it back: the file and both instances end with both. So with
 * a rename, and with a session the first removed: it stays removed, and
 * hidden. */
static void
test_two_instances_stale_write (TwoInstances  *t,
                                gconstpointer  data)
{

  /* no main loop iteration between: "there" has not read the file again */
  add (t->here.store, "a1", 50 * SECOND);
  pal_session_store_set_title (t->here.store, key_of ("codex", "s1"), "Renamed here");
  pal_session_store_remove (t->here.store, key_of ("codex", "s2"));
  add (t->there.store, "b1", 60 * SECOND);

  /* and s2 stays hidden: the agent's list does not bring it back */
  WAIT_UNTIL (hides_one (t->here.store));
  WAIT_UNTIL (hides_one (t->there.store));
  g_assert_cmpuint (assert_everywhere (t, "b1 a1 s1"), ==, 1);
  g_assert_cmpstr (title_of (t->there.store, "s1"), ==, "Renamed here");
}

/* A third process, started with the first file, writes its copy of it with
 * a session of its own, after the two instances had settled what they
 * wrote: each keeps every session it lists (none of them was hidden), and
 * the file ends with all. */
static void
test_third_stale_copy (TwoInstances  *t,
                       gconstpointer  data)
{
  g_autofree char *stale = sessions_file_text ("c1");

  add (t->here.store, "a1", 50 * SECOND);
  add (t->there.store, "b1", 60 * SECOND);
  assert_everywhere (t, "b1 a1 s2 s1");

  /* the first file's list, with c1 */
  g_assert_true (g_file_set_contents (t->path, stale, -1, NULL));

  assert_everywhere (t, "c1 b1 a1 s2 s1");
}

/* A session one instance removes after the other wrote it, once it has
 * read it, is removed on purpose: the other does not bring it back. Nor
 * does a rename made there after reading a new title get undone here. */
static void
test_two_instances_removed_after_reading (TwoInstances  *t,
                                          gconstpointer  data)
{
  g_autofree char *in_file = NULL;
  guint n_hidden;

  add (t->here.store, "a1", 50 * SECOND);
  pal_session_store_set_title (t->here.store, key_of ("codex", "s1"), "Renamed here");
  WAIT_FOR_ORDER (t->there.store, "a1 s2 s1");

  pal_session_store_remove (t->there.store, key_of ("codex", "a1"));
  pal_session_store_set_title (t->there.store, key_of ("codex", "s1"), "Renamed there");
  WAIT_FOR_ORDER (t->here.store, "s2 s1");
  test_drain_main_context ();

  g_assert_cmpstr (title_of (t->here.store, "s1"), ==, "Renamed there");
  in_file = order_in_file (t->path, &n_hidden);
  g_assert_cmpstr (in_file, ==, "s2 s1");
  g_assert_cmpuint (n_hidden, ==, 1);
  g_assert_cmpstr (title_of (t->there.store, "s1"), ==, "Renamed there");
}

/* The sessions of a settings file whose text does not parse (a NUL in one
 * title) are not overwritten: the window is told, and the text copied
 * before the first write. */
static void
test_unparsable_file (void)
{
  g_autofree char *folder = test_make_tmpdir ("palaver-session-store");
  g_autofree char *path = g_build_filename (folder, "keyfile", NULL);
  const char *sessions = "[{'id': <'s1'>, 'agent': <'codex'>, 'cwd': <'/p'>, "
                         "'title': <'bad \\u0000 title'>}, "
                         "{'id': <'s2'>, 'agent': <'codex'>, 'cwd': <'/p'>, 'title': <'fine'>}]";
  g_autofree char *contents = g_strdup_printf ("[io/github/palaverapp/Palaver]\nsessions=%s\n",
                                               sessions);
  g_autofree char *expected = g_strconcat (sessions, "\n", NULL);
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(PalSessionStore) store = NULL;
  g_autofree char *copy = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  backend = g_keyfile_settings_backend_new (path, "/", NULL);
  settings = g_settings_new_with_backend (SCHEMA_ID, backend);
  store = pal_session_store_new (settings);
  g_assert_cmpuint (n_items (store), ==, 0);

  /* a new session, at once: not written over them before the copy */
  add (store, "new", 5 * SECOND);
  WAIT_UNTIL (has_backup (store));
  g_assert_true (g_file_get_contents (pal_stored_list_get_backup_path (PAL_STORED_LIST (store)),
                                      &copy, NULL, NULL));
  g_assert_cmpstr (copy, ==, expected);
  g_assert_true (g_str_has_prefix (pal_session_store_get_load_errors (store)[0],
                                   "The stored list “Sessions” could not be read"));
}

int
main (int   argc,
      char *argv[])
{
  test_isolate_user_dirs ();
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  g_test_add_func ("/session-store/title-from-prompt", test_title_from_prompt);
  g_test_add ("/session-store/two-instances/stale-write", TwoInstances, NULL,
              two_instances_set_up, test_two_instances_stale_write, two_instances_tear_down);
  g_test_add ("/session-store/two-instances/third-stale-copy", TwoInstances, NULL,
              two_instances_set_up, test_third_stale_copy, two_instances_tear_down);
  g_test_add ("/session-store/two-instances/removed-after-reading", TwoInstances, NULL,
              two_instances_set_up, test_two_instances_removed_after_reading,
              two_instances_tear_down);
  g_test_add_func ("/session-store/key", test_key);
  ADD ("/session-store/round-trip", test_round_trip);
  ADD ("/session-store/ordering", test_ordering);
  ADD ("/session-store/add-existing", test_add_existing);
  ADD ("/session-store/malformed", test_malformed);
  ADD ("/session-store/repeated-members", test_repeated_members);
  ADD ("/session-store/read-ahead", test_read_ahead);
  ADD ("/session-store/renamed", test_renamed);
  ADD ("/session-store/merge-listed", test_merge_listed);
  ADD ("/session-store/directories/round-trip", test_directories_round_trip);
  ADD ("/session-store/directories/old-and-damaged", test_directories_old_and_damaged);
  ADD ("/session-store/directories/listed", test_directories_listed);
  ADD ("/session-store/removed-stays-removed", test_removed_stays_removed);
  ADD ("/session-store/same-id-two-agents", test_same_id_two_agents);
  ADD ("/session-store/stored-before-keys", test_stored_before_keys);
  ADD ("/session-store/batched-writes", test_batched_writes);
  ADD ("/session-store/external-change", test_external_change);
  g_test_add_func ("/session-store/two-instances", test_two_instances);
  g_test_add_func ("/session-store/unparsable-file", test_unparsable_file);

#undef ADD

  return g_test_run ();
}
