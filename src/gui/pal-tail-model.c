/* pal-tail-model.c: a list model that can hide all but the end of another
 *
 * GTK 4.8's list view keeps up to 200 rows alive around its anchor, whatever
 * the height of the window. While a long history floods in at the end of a
 * transcript that the view follows, every frame would build and measure 200
 * new rows only to throw them away at the next one. The chat view shows the
 * transcript through this model instead: during a flood it hides everything
 * but the last rows, and brings the earlier ones back a few at a time once
 * the flood is over, or at once when the person scrolls up. While frozen,
 * items appended to the model wait for the next sync (once per frame), so
 * that the list view sees one change a frame however often the model grows.
 *
 * The hidden items are always a prefix of the model; the waiting ones always
 * a suffix. Items inserted in front of all others are hidden (the earlier
 * turns of a history shown from its end).
 *
 * A workaround for GTK 4.8 (Debian 12), like the rest of the chat view's
 * flood handling (pal-chat-flood.c): measure again with bench/ on GTK 4.12
 * or later, whose list view builds its rows by tiles.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-tail-model.h"

struct _PalTailModel
{
  GObject     parent_instance;

  GListModel *model;
  guint       hidden;    /* leading items of @model not shown */
  guint       reflected; /* items of @model this model knows of: the rest wait */
  gboolean    frozen;
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_HIDDEN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
pal_tail_model_get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
pal_tail_model_get_n_items (GListModel *list)
{
  PalTailModel *self = PAL_TAIL_MODEL (list);

  return self->reflected - self->hidden;
}

static gpointer
pal_tail_model_get_item (GListModel *list,
                         guint       position)
{
  PalTailModel *self = PAL_TAIL_MODEL (list);

  if (self->model == NULL || position >= self->reflected - self->hidden)
    return NULL;

  return g_list_model_get_item (self->model, position + self->hidden);
}

static void
pal_tail_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = pal_tail_model_get_item_type;
  iface->get_n_items = pal_tail_model_get_n_items;
  iface->get_item = pal_tail_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (PalTailModel, pal_tail_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, pal_tail_model_list_model_init))

static void
set_hidden (PalTailModel *self,
            guint         hidden)
{
  if (self->hidden == hidden)
    return;

  self->hidden = hidden;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDDEN]);
}

static void
items_changed_cb (GListModel   *model,
                  guint         position,
                  guint         removed,
                  guint         added,
                  PalTailModel *self)
{
  guint n_shown = self->reflected - self->hidden;
  guint n_now = g_list_model_get_n_items (model);
  guint n_waiting = n_now - added + removed - self->reflected;

  /* appended while frozen: shown at the next sync */
  if (self->frozen && removed == 0 && position >= self->reflected)
    return;

  /* put in front of the items there (the earlier turns of a history shown
   * from its end): hidden, to come back as hidden items do */
  if (position == 0 && removed == 0 && self->reflected > 0)
    {
      self->reflected += added;
      set_hidden (self, self->hidden + added);
      return;
    }

  self->reflected = n_now;

  if (n_waiting == 0 && position >= self->hidden)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position - self->hidden, removed, added);
      return;
    }

  /* A change among the hidden or the waiting items (a transcript that is
   * cleared, say): show everything from the change on. */
  position = MIN (position, self->hidden);
  set_hidden (self, position);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n_shown, n_now - position);
}

static void
pal_tail_model_dispose (GObject *object)
{
  PalTailModel *self = PAL_TAIL_MODEL (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (pal_tail_model_parent_class)->dispose (object);
}

static void
pal_tail_model_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PalTailModel *self = PAL_TAIL_MODEL (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;

    case PROP_HIDDEN:
      g_value_set_uint (value, self->hidden);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_tail_model_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PalTailModel *self = PAL_TAIL_MODEL (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      pal_tail_model_set_model (self, g_value_get_object (value), G_MAXUINT);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_tail_model_class_init (PalTailModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_tail_model_dispose;
  object_class->get_property = pal_tail_model_get_property;
  object_class->set_property = pal_tail_model_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_HIDDEN] =
    g_param_spec_uint ("hidden", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_tail_model_init (PalTailModel *self)
{
}

PalTailModel *
pal_tail_model_new (void)
{
  return g_object_new (PAL_TYPE_TAIL_MODEL, NULL);
}

GListModel *
pal_tail_model_get_model (PalTailModel *self)
{
  g_return_val_if_fail (PAL_IS_TAIL_MODEL (self), NULL);

  return self->model;
}

/**
 * pal_tail_model_set_model:
 * @self: a #PalTailModel
 * @model: (nullable): the model to show
 * @keep: how many of its last items to show at first, %G_MAXUINT for all
 */
void
pal_tail_model_set_model (PalTailModel *self,
                          GListModel   *model,
                          guint         keep)
{
  guint n_before, n_after;

  g_return_if_fail (PAL_IS_TAIL_MODEL (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;

  n_before = pal_tail_model_get_n_items (G_LIST_MODEL (self));

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect_object (model, "items-changed", G_CALLBACK (items_changed_cb), self, 0);
  self->reflected = model != NULL ? g_list_model_get_n_items (model) : 0;
  set_hidden (self, self->reflected > keep ? self->reflected - keep : 0);

  n_after = pal_tail_model_get_n_items (G_LIST_MODEL (self));
  if (n_before > 0 || n_after > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n_before, n_after);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/**
 * pal_tail_model_get_hidden:
 * @self: a #PalTailModel
 *
 * Returns: how many leading items of the model are hidden
 */
guint
pal_tail_model_get_hidden (PalTailModel *self)
{
  g_return_val_if_fail (PAL_IS_TAIL_MODEL (self), 0);

  return self->hidden;
}

/**
 * pal_tail_model_collapse:
 * @self: a #PalTailModel
 * @keep: how many items to leave visible at the end
 *
 * Hides every shown item but the last @keep (never shows hidden ones).
 */
void
pal_tail_model_collapse (PalTailModel *self,
                         guint         keep)
{
  guint n_shown;

  g_return_if_fail (PAL_IS_TAIL_MODEL (self));

  n_shown = self->reflected - self->hidden;
  if (n_shown <= keep)
    return;

  set_hidden (self, self->reflected - keep);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n_shown - keep, 0);
}

/**
 * pal_tail_model_expand:
 * @self: a #PalTailModel
 * @count: how many hidden items to show again, the last hidden first;
 *   %G_MAXUINT for all
 */
void
pal_tail_model_expand (PalTailModel *self,
                       guint         count)
{
  guint shown;

  g_return_if_fail (PAL_IS_TAIL_MODEL (self));

  shown = MIN (count, self->hidden);
  if (shown == 0)
    return;

  set_hidden (self, self->hidden - shown);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, shown);
}

/**
 * pal_tail_model_get_waiting:
 * @self: a #PalTailModel
 *
 * Returns: how many items appended to the model wait for a sync
 */
guint
pal_tail_model_get_waiting (PalTailModel *self)
{
  g_return_val_if_fail (PAL_IS_TAIL_MODEL (self), 0);

  if (self->model == NULL)
    return 0;

  return g_list_model_get_n_items (self->model) - self->reflected;
}

/**
 * pal_tail_model_sync:
 * @self: a #PalTailModel
 * @keep: how many items to leave visible at the end, or %G_MAXUINT
 *
 * Shows the items appended since the last sync, and hides all but the last
 * @keep (never shows hidden ones), in one change.
 */
void
pal_tail_model_sync (PalTailModel *self,
                     guint         keep)
{
  guint n_shown, n_now, hidden;

  g_return_if_fail (PAL_IS_TAIL_MODEL (self));

  if (pal_tail_model_get_waiting (self) == 0)
    {
      pal_tail_model_collapse (self, keep);
      return;
    }

  n_shown = self->reflected - self->hidden;
  n_now = g_list_model_get_n_items (self->model);
  hidden = keep < n_now ? MAX (self->hidden, n_now - keep) : self->hidden;
  self->reflected = n_now;

  if (hidden == self->hidden)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), n_shown, 0, n_now - hidden - n_shown);
      return;
    }

  /* GTK's list view keeps the rows of items that are removed and added
   * back in the same change */
  set_hidden (self, hidden);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n_shown, n_now - hidden);
}

gboolean
pal_tail_model_get_frozen (PalTailModel *self)
{
  g_return_val_if_fail (PAL_IS_TAIL_MODEL (self), FALSE);

  return self->frozen;
}

/**
 * pal_tail_model_set_frozen:
 * @self: a #PalTailModel
 * @frozen: whether items appended to the model wait for pal_tail_model_sync()
 *
 * Thawing shows what waited.
 */
void
pal_tail_model_set_frozen (PalTailModel *self,
                           gboolean      frozen)
{
  g_return_if_fail (PAL_IS_TAIL_MODEL (self));

  self->frozen = !!frozen;
  if (!self->frozen)
    pal_tail_model_sync (self, G_MAXUINT);
}
