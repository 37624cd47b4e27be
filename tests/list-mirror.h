/* list-mirror.h: follows a GListModel's changes on an array, as a list
 * view would, for the tests of models that announce their own changes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

/* Applies one items-changed of @model to @mirror (element-type GObject,
 * owned); fails the test when the change does not fit what @mirror holds. */
static inline void
list_mirror_apply (GPtrArray  *mirror,
                   GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added)
{
  g_assert_cmpuint (position + removed, <=, mirror->len);

  g_ptr_array_remove_range (mirror, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (mirror, (int) (position + i), g_list_model_get_item (model, position + i));
}
