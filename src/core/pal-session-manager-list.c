/* pal-session-manager-list.c: the sessions an agent lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Agents that advertise sessionCapabilities.list tell the sessions they
 * keep for a folder (session/list, page by page), those started elsewhere
 * (in a terminal) too. Each page is merged into the session store, so that
 * they show in the sidebar, marked as from the agent.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-session-manager-private.h"

/* session/list pages fetched at most by one refresh */
#define MAX_LIST_PAGES 100

typedef struct
{
  AcpAgent   *agent;
  char       *profile_id;
  char       *cwd;
  char       *cursor;
  GHashTable *seen_cursors;
  guint       n_pages;
  guint       n_added;
} ListData;

static void
list_data_free (gpointer data)
{
  ListData *list = data;

  g_clear_object (&list->agent);
  g_free (list->profile_id);
  g_free (list->cwd);
  g_free (list->cursor);
  g_clear_pointer (&list->seen_cursors, g_hash_table_unref);
  g_free (list);
}

static void list_page_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data);

static void
list_next_page (GTask *task)
{
  ListData *data = g_task_get_task_data (task);

  data->n_pages++;
  acp_agent_list_sessions_async (data->agent, data->cwd, data->cursor,
                                 g_task_get_cancellable (task), list_page_cb, task);
}

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PalSessionManager *self = g_task_get_source_object (task);
  ListData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) page = NULL;
  GError *error = NULL;
  JsonNode *node;
  const char *next = NULL;

  page = acp_agent_list_sessions_finish (ACP_AGENT (object), result, &error);
  if (page == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  node = json_object_get_member (page, "sessions");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    data->n_added += pal_session_store_merge_listed (self->session_store, data->profile_id,
                                                     json_node_get_array (node));

  node = json_object_get_member (page, "nextCursor");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    next = json_node_get_string (node);

  if (next == NULL || *next == '\0' || g_hash_table_contains (data->seen_cursors, next) ||
      data->n_pages >= MAX_LIST_PAGES)
    {
      if (next != NULL && *next != '\0')
        g_debug ("session/list of %s: stopping after %u pages", data->profile_id, data->n_pages);
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_free (data->cursor);
  data->cursor = g_strdup (next);
  g_hash_table_add (data->seen_cursors, g_strdup (next));
  list_next_page (g_steal_pointer (&task));
}

static void
list_agent_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListData *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->agent = _pal_session_manager_ensure_agent_finish (PAL_SESSION_MANAGER (object), result,
                                                          &error);
  if (data->agent == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!acp_agent_has_capability (data->agent, ACP_AGENT_CAP_SESSION_LIST))
    {
      g_task_return_new_error (task, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                               "%s", _("The agent cannot list its sessions"));
      return;
    }

  list_next_page (g_steal_pointer (&task));
}

/**
 * pal_session_manager_refresh_listed_async:
 * @self: a #PalSessionManager
 * @profile_id: the agent profile
 * @cwd: the project folder
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asks the agent of that profile and folder (started unless it runs) for
 * its sessions in @cwd (session/list, every page up to a bound) and merges
 * each page into the session store (pal_session_store_merge_listed()), so
 * that sessions started elsewhere show in the sidebar. Fails with
 * %PAL_ERROR_NOT_SUPPORTED (nothing sent) when the agent cannot list; pages
 * merged before an error stay merged.
 */
void
pal_session_manager_refresh_listed_async (PalSessionManager   *self,
                                          const char          *profile_id,
                                          const char          *cwd,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *canonical = NULL;
  GError *error = NULL;
  ListData *data;

  g_return_if_fail (PAL_IS_SESSION_MANAGER (self));
  g_return_if_fail (profile_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_session_manager_refresh_listed_async);

  canonical = _pal_session_manager_canonical_cwd (cwd, &error);
  if (canonical == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  data = g_new0 (ListData, 1);
  data->profile_id = g_strdup (profile_id);
  data->cwd = g_steal_pointer (&canonical);
  data->seen_cursors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_task_set_task_data (task, data, list_data_free);

  _pal_session_manager_ensure_agent_async (self, profile_id, data->cwd, cancellable,
                                           list_agent_cb, g_steal_pointer (&task));
}

gboolean
pal_session_manager_refresh_listed_finish (PalSessionManager  *self,
                                           GAsyncResult       *result,
                                           guint              *out_n_added,
                                           GError            **error)
{
  ListData *data;

  g_return_val_if_fail (PAL_IS_SESSION_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        pal_session_manager_refresh_listed_async, FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (out_n_added != NULL)
    *out_n_added = data->n_added;

  return g_task_propagate_boolean (G_TASK (result), error);
}
