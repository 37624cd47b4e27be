/* pal-session-groups.c: sessions grouped by project folder, as one flat list
 *
 * GTK 4.8's list views have no sections, so the sidebar shows a flat list in
 * which a PalSessionGroup (the folder) precedes the PalSessionRecords of that
 * folder. The source keeps its order (newest activity first); a folder comes
 * where its first session comes, so the folder with the latest activity is
 * on top. The list is rebuilt on every change of the source: session lists
 * are hundreds of entries, and a rebuild is one pass and one items-changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-session-groups.h"
#include "pal-session-record.h"

struct _PalSessionGroup
{
  GObject  parent_instance;

  char    *cwd;
  guint    n_sessions;
};

G_DEFINE_FINAL_TYPE (PalSessionGroup, pal_session_group, G_TYPE_OBJECT)

static void
pal_session_group_finalize (GObject *object)
{
  PalSessionGroup *self = PAL_SESSION_GROUP (object);

  g_free (self->cwd);

  G_OBJECT_CLASS (pal_session_group_parent_class)->finalize (object);
}

static void
pal_session_group_class_init (PalSessionGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pal_session_group_finalize;
}

static void
pal_session_group_init (PalSessionGroup *self)
{
}

const char *
pal_session_group_get_cwd (PalSessionGroup *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_GROUP (self), NULL);

  return self->cwd;
}

guint
pal_session_group_get_n_sessions (PalSessionGroup *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_GROUP (self), 0);

  return self->n_sessions;
}

struct _PalSessionGroups
{
  GObject     parent_instance;

  GListModel *records;
  GListStore *items;
};

G_DEFINE_FINAL_TYPE (PalSessionGroups, pal_session_groups, G_TYPE_OBJECT)

static void
rebuild (PalSessionGroups *self)
{
  g_autoptr(GHashTable) groups = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (self->records);

  /* folders in order of their first (newest) session */
  for (guint i = 0; i < n; i++)
    {
      PalSessionRecord *record = g_list_model_get_item (self->records, i);
      const char *cwd = pal_session_record_get_cwd (record);
      GPtrArray *members;

      if (cwd == NULL)
        cwd = "";

      members = g_hash_table_lookup (groups, cwd);
      if (members == NULL)
        {
          members = g_ptr_array_new_with_free_func (g_object_unref);
          g_hash_table_insert (groups, (gpointer) cwd, members);
          g_ptr_array_add (order, members);
        }
      /* the reference get_item() gave */
      g_ptr_array_add (members, record);
    }

  for (guint g = 0; g < order->len; g++)
    {
      GPtrArray *members = g_ptr_array_index (order, g);
      PalSessionGroup *group = g_object_new (PAL_TYPE_SESSION_GROUP, NULL);

      group->cwd = g_strdup (pal_session_record_get_cwd (g_ptr_array_index (members, 0)));
      group->n_sessions = members->len;
      g_ptr_array_add (items, group);
      /* the members' references move to items */
      g_ptr_array_extend_and_steal (items, members);
    }

  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);
}

static void
records_items_changed_cb (GListModel       *records,
                          guint             position,
                          guint             removed,
                          guint             added,
                          PalSessionGroups *self)
{
  rebuild (self);
}

static void
pal_session_groups_dispose (GObject *object)
{
  PalSessionGroups *self = PAL_SESSION_GROUPS (object);

  if (self->records != NULL)
    g_signal_handlers_disconnect_by_data (self->records, self);
  g_clear_object (&self->records);
  g_clear_object (&self->items);

  G_OBJECT_CLASS (pal_session_groups_parent_class)->dispose (object);
}

static void
pal_session_groups_class_init (PalSessionGroupsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = pal_session_groups_dispose;
}

static void
pal_session_groups_init (PalSessionGroups *self)
{
  self->items = g_list_store_new (G_TYPE_OBJECT);
}

/**
 * pal_session_groups_new:
 * @records: a #GListModel of #PalSessionRecord, in display order
 *
 * Returns: (transfer full): the grouping of @records
 */
PalSessionGroups *
pal_session_groups_new (GListModel *records)
{
  PalSessionGroups *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (records), NULL);

  self = g_object_new (PAL_TYPE_SESSION_GROUPS, NULL);
  self->records = g_object_ref (records);
  g_signal_connect (records, "items-changed", G_CALLBACK (records_items_changed_cb), self);
  rebuild (self);

  return self;
}

/**
 * pal_session_groups_get_model:
 * @self: a #PalSessionGroups
 *
 * Returns: (transfer none): the flat list of #PalSessionGroup and
 *   #PalSessionRecord items
 */
GListModel *
pal_session_groups_get_model (PalSessionGroups *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_GROUPS (self), NULL);

  return G_LIST_MODEL (self->items);
}
