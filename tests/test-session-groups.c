/* test-session-groups.c: sessions grouped by folder, newest folder first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-session-groups.h"
#include "pal-session-record.h"

static char *
describe (GListModel *model)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (PAL_IS_SESSION_GROUP (item))
        g_string_append_printf (out, "[%s:%u]", pal_session_group_get_cwd (PAL_SESSION_GROUP (item)),
                                pal_session_group_get_n_sessions (PAL_SESSION_GROUP (item)));
      else
        g_string_append_printf (out, "%s ", pal_session_record_get_id (PAL_SESSION_RECORD (item)));
    }

  return g_string_free (out, FALSE);
}

static void
add (GListStore *store,
     const char *id,
     const char *cwd)
{
  g_autoptr(PalSessionRecord) record = pal_session_record_new (id, "demo", cwd);

  g_list_store_append (store, record);
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

static void
test_grouping (void)
{
  g_autoptr(GListStore) store = g_list_store_new (PAL_TYPE_SESSION_RECORD);
  g_autoptr(PalSessionGroups) groups = NULL;
  g_autofree char *text = NULL;
  guint changes = 0;

  add (store, "s1", "/a");
  add (store, "s2", "/b");
  add (store, "s3", "/a");
  add (store, "s4", "/c");

  groups = pal_session_groups_new (G_LIST_MODEL (store));
  text = describe (pal_session_groups_get_model (groups));
  g_assert_cmpstr (text, ==, "[/a:2]s1 s3 [/b:1]s2 [/c:1]s4 ");

  g_signal_connect (pal_session_groups_get_model (groups), "items-changed",
                    G_CALLBACK (items_changed_cb), &changes);

  /* the newest session moves its folder to the top, in one change */
  {
    g_autoptr(PalSessionRecord) record = pal_session_record_new ("s5", "demo", "/c");
    g_list_store_insert (store, 0, record);
  }
  g_free (text);
  text = describe (pal_session_groups_get_model (groups));
  g_assert_cmpstr (text, ==, "[/c:2]s5 s4 [/a:2]s1 s3 [/b:1]s2 ");
  g_assert_cmpuint (changes, ==, 1);

  /* a folder whose last session goes disappears */
  g_list_store_remove (store, 2);
  g_free (text);
  text = describe (pal_session_groups_get_model (groups));
  g_assert_cmpstr (text, ==, "[/c:2]s5 s4 [/a:2]s1 s3 ");

  g_list_store_remove_all (store);
  g_assert_cmpuint (g_list_model_get_n_items (pal_session_groups_get_model (groups)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session-groups/grouping", test_grouping);

  return g_test_run ();
}
