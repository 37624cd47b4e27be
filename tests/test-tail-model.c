/* test-tail-model.c: the end of a list model, frozen and synced
 *
 * Every change the tail model announces is replayed on a mirror, the way a
 * list view follows a model; after each step the mirror must hold exactly
 * what the model says it holds, and that must be the expected part of the
 * underlying store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "list-mirror.h"
#include "pal-tail-model.h"

typedef struct
{
  GListStore   *store;
  PalTailModel *tail;
  GPtrArray    *mirror;     /* (element-type GObject) what a view would show */
  guint         n_changes;
  guint         last_position, last_removed, last_added;
} Fixture;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Fixture    *f)
{
  list_mirror_apply (f->mirror, model, position, removed, added);

  f->n_changes++;
  f->last_position = position;
  f->last_removed = removed;
  f->last_added = added;
}

/* The mirror is the model, and the model is the end of the store with
 * @hidden items left out at the start and @waiting at the end. */
static void
check (Fixture *f,
       guint    hidden,
       guint    waiting)
{
  guint n_store = g_list_model_get_n_items (G_LIST_MODEL (f->store));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (f->tail));

  g_assert_cmpuint (pal_tail_model_get_hidden (f->tail), ==, hidden);
  g_assert_cmpuint (pal_tail_model_get_waiting (f->tail), ==, waiting);
  g_assert_cmpuint (n, ==, n_store - hidden - waiting);
  g_assert_cmpuint (f->mirror->len, ==, n);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (f->tail), n));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) shown = g_list_model_get_item (G_LIST_MODEL (f->tail), i);
      g_autoptr(GObject) stored = g_list_model_get_item (G_LIST_MODEL (f->store), hidden + i);

      g_assert_true (shown == stored);
      g_assert_true (g_ptr_array_index (f->mirror, i) == shown);
    }
}

static void
append (Fixture *f,
        guint    count)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < count; i++)
    g_ptr_array_add (items, g_object_new (G_TYPE_OBJECT, NULL));

  /* one change for the batch, as a transcript flushes */
  g_list_store_splice (f->store, g_list_model_get_n_items (G_LIST_MODEL (f->store)), 0,
                       items->pdata, items->len);
}

static void
fixture_init (Fixture *f,
              guint    n_initial,
              guint    keep)
{
  f->store = g_list_store_new (G_TYPE_OBJECT);
  append (f, n_initial);
  f->tail = pal_tail_model_new ();
  f->mirror = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (f->tail, "items-changed", G_CALLBACK (items_changed_cb), f);
  pal_tail_model_set_model (f->tail, G_LIST_MODEL (f->store), keep);
}

static void
fixture_clear (Fixture *f)
{
  g_clear_object (&f->tail);
  g_clear_object (&f->store);
  g_clear_pointer (&f->mirror, g_ptr_array_unref);
}

static void
test_follows (void)
{
  Fixture f = { 0 };

  fixture_init (&f, 10, G_MAXUINT);
  check (&f, 0, 0);

  append (&f, 5);
  check (&f, 0, 0);
  g_assert_cmpuint (f.last_position, ==, 10);
  g_assert_cmpuint (f.last_added, ==, 5);

  /* a change in the middle is passed on where it is */
  g_list_store_remove (f.store, 3);
  check (&f, 0, 0);
  g_assert_cmpuint (f.last_position, ==, 3);
  g_assert_cmpuint (f.last_removed, ==, 1);

  fixture_clear (&f);
}

static void
test_collapse_expand (void)
{
  Fixture f = { 0 };
  guint changes;

  /* set with a long model: only the end at first */
  fixture_init (&f, 1000, 40);
  check (&f, 960, 0);

  pal_tail_model_collapse (f.tail, 10);
  check (&f, 990, 0);
  g_assert_cmpuint (f.last_position, ==, 0);
  g_assert_cmpuint (f.last_removed, ==, 30);
  g_assert_cmpuint (f.last_added, ==, 0);

  /* collapsing never shows hidden items */
  changes = f.n_changes;
  pal_tail_model_collapse (f.tail, 500);
  check (&f, 990, 0);
  g_assert_cmpuint (f.n_changes, ==, changes);

  /* the nearest hidden items come back first, in front */
  pal_tail_model_expand (f.tail, 30);
  check (&f, 960, 0);
  g_assert_cmpuint (f.last_position, ==, 0);
  g_assert_cmpuint (f.last_added, ==, 30);

  pal_tail_model_expand (f.tail, G_MAXUINT);
  check (&f, 0, 0);

  changes = f.n_changes;
  pal_tail_model_expand (f.tail, 10);
  g_assert_cmpuint (f.n_changes, ==, changes);

  fixture_clear (&f);
}

static void
test_frozen (void)
{
  Fixture f = { 0 };
  guint changes;

  fixture_init (&f, 20, G_MAXUINT);
  pal_tail_model_set_frozen (f.tail, TRUE);
  g_assert_true (pal_tail_model_get_frozen (f.tail));

  /* appends wait, however many batches */
  changes = f.n_changes;
  append (&f, 300);
  append (&f, 200);
  check (&f, 0, 500);
  g_assert_cmpuint (f.n_changes, ==, changes);

  /* one change shows the last 25 of everything */
  pal_tail_model_sync (f.tail, 25);
  check (&f, 495, 0);
  g_assert_cmpuint (f.n_changes, ==, changes + 1);
  g_assert_cmpuint (f.last_position, ==, 0);
  g_assert_cmpuint (f.last_removed, ==, 20);
  g_assert_cmpuint (f.last_added, ==, 25);

  /* a few more than fit: still one change */
  append (&f, 3);
  check (&f, 495, 3);
  pal_tail_model_sync (f.tail, 25);
  check (&f, 498, 0);
  g_assert_cmpuint (f.n_changes, ==, changes + 2);

  /* fewer than would hide anything: appended at the end */
  append (&f, 2);
  pal_tail_model_sync (f.tail, 100);
  check (&f, 498, 0);
  g_assert_cmpuint (f.last_position, ==, 25);
  g_assert_cmpuint (f.last_added, ==, 2);

  /* thawing shows what waited */
  append (&f, 7);
  check (&f, 498, 7);
  pal_tail_model_set_frozen (f.tail, FALSE);
  check (&f, 498, 0);

  fixture_clear (&f);
}

static void
test_cleared (void)
{
  Fixture f = { 0 };

  /* the store is emptied while items are hidden and others wait */
  fixture_init (&f, 100, 10);
  pal_tail_model_set_frozen (f.tail, TRUE);
  append (&f, 50);
  check (&f, 90, 50);

  g_list_store_remove_all (f.store);
  check (&f, 0, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.tail)), ==, 0);

  /* and fills again */
  pal_tail_model_set_frozen (f.tail, FALSE);
  append (&f, 4);
  check (&f, 0, 0);

  /* another model, or none */
  pal_tail_model_set_model (f.tail, NULL, G_MAXUINT);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.tail)), ==, 0);
  g_assert_cmpuint (f.mirror->len, ==, 0);

  fixture_clear (&f);
}

/* Items put in front of all others (a history's earlier turns) are hidden,
 * with no change for the view, frozen or not, and come back when expanded */
static void
test_prepended (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_changes;

  fixture_init (&f, 10, G_MAXUINT);
  for (guint i = 0; i < 30; i++)
    g_ptr_array_add (items, g_object_new (G_TYPE_OBJECT, NULL));

  n_changes = f.n_changes;
  g_list_store_splice (f.store, 0, 0, items->pdata, 20);
  g_assert_cmpuint (f.n_changes, ==, n_changes);
  check (&f, 20, 0);

  pal_tail_model_set_frozen (f.tail, TRUE);
  append (&f, 3);
  g_list_store_splice (f.store, 0, 0, items->pdata + 20, 10);
  g_assert_cmpuint (f.n_changes, ==, n_changes);
  check (&f, 30, 3);
  pal_tail_model_set_frozen (f.tail, FALSE);
  check (&f, 30, 0);

  pal_tail_model_expand (f.tail, G_MAXUINT);
  check (&f, 0, 0);

  fixture_clear (&f);
}

/* Random steps, checked after each: the mirror never drifts. */
static void
test_random (void)
{
  Fixture f = { 0 };
  GRand *rand = g_rand_new_with_seed (20261122);
  guint hidden = 0, waiting = 0;

  fixture_init (&f, 0, G_MAXUINT);

  for (guint step = 0; step < 3000; step++)
    {
      guint n_store = g_list_model_get_n_items (G_LIST_MODEL (f.store));
      gboolean frozen = pal_tail_model_get_frozen (f.tail);

      switch (g_rand_int_range (rand, 0, 8))
        {
        case 0:
        case 1:
          {
            guint count = (guint) g_rand_int_range (rand, 1, 60);

            append (&f, count);
            if (frozen)
              waiting += count;
          }
          break;

        case 2:
          pal_tail_model_set_frozen (f.tail, !frozen);
          if (frozen)
            waiting = 0;
          break;

        case 3:
          {
            guint keep = (guint) g_rand_int_range (rand, 1, 80);
            guint n_shown = n_store - hidden;

            pal_tail_model_sync (f.tail, keep);
            if (n_shown > keep)
              hidden = MAX (hidden, n_store - keep);
            waiting = 0;
          }
          break;

        case 4:
          {
            guint keep = (guint) g_rand_int_range (rand, 0, 80);
            guint n_shown = n_store - hidden - waiting;

            pal_tail_model_collapse (f.tail, keep);
            if (n_shown > keep)
              hidden += n_shown - keep;
          }
          break;

        case 5:
          {
            guint count = (guint) g_rand_int_range (rand, 1, 100);

            pal_tail_model_expand (f.tail, count);
            hidden -= MIN (hidden, count);
          }
          break;

        case 6:
          if (g_rand_int_range (rand, 0, 20) == 0)
            {
              g_list_store_remove_all (f.store);
              hidden = waiting = 0;
            }
          break;

        default:
          /* a change at the very end while nothing waits is passed on */
          if (waiting == 0 && n_store > hidden)
            {
              g_list_store_remove (f.store, n_store - 1);
            }
          break;
        }

      check (&f, hidden, waiting);
    }

  g_rand_free (rand);
  fixture_clear (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tail-model/follows", test_follows);
  g_test_add_func ("/tail-model/collapse-expand", test_collapse_expand);
  g_test_add_func ("/tail-model/frozen", test_frozen);
  g_test_add_func ("/tail-model/cleared", test_cleared);
  g_test_add_func ("/tail-model/prepended", test_prepended);
  g_test_add_func ("/tail-model/random", test_random);

  return g_test_run ();
}
