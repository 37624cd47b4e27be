/* fuzz-util.h: what every fuzz target shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdint.h>
#include <stdlib.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

/* libFuzzer's entry points */
int LLVMFuzzerInitialize   (int            *argc,
                            char         ***argv);
int LLVMFuzzerTestOneInput (const uint8_t  *data,
                            size_t          size);

/* A broken promise of the code under test: abort, so that libFuzzer keeps
 * the input that did it. */
#define FUZZ_CHECK(cond) \
  G_STMT_START { \
    if (G_UNLIKELY (!(cond))) \
      { \
        g_printerr ("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        abort (); \
      } \
  } G_STMT_END

/* Warnings and criticals are programmer errors: no input may cause one.
 * Nothing is logged otherwise, however much the input asks for. */
static inline void
fuzz_init (void)
{
  g_log_set_always_fatal (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  g_unsetenv ("G_MESSAGES_DEBUG");
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
#ifdef FUZZ_SCHEMA_DIR
  /* the schemas compiled in the build tree, unless told otherwise */
  g_setenv ("GSETTINGS_SCHEMA_DIR", FUZZ_SCHEMA_DIR, FALSE);
#endif
}

/* Runs what the main context has ready until nothing is left (bounded:
 * a source that is always ready would otherwise never let go). */
static inline void
fuzz_drain_main_context (void)
{
  for (guint i = 0; i < 10000 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

static inline gboolean
fuzz_is_text (const char *str)
{
  return str == NULL || g_utf8_validate (str, -1, NULL);
}

/* Every string and member name in @node is UTF-8. */
static inline void
fuzz_check_json_text (JsonNode *node)
{
  if (node == NULL)
    return;

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, object);
        while (json_object_iter_next (&iter, &name, &member))
          {
            FUZZ_CHECK (fuzz_is_text (name));
            fuzz_check_json_text (member);
          }
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          fuzz_check_json_text (json_array_get_element (array, i));
      }
      break;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        FUZZ_CHECK (fuzz_is_text (json_node_get_string (node)));
      break;

    case JSON_NODE_NULL:
    default:
      break;
    }
}

static inline void fuzz_read_properties_depth (GObject *object,
                                               guint    depth);

/* Reads every readable property of @object (what a view bound to it would
 * do) and checks that the strings among them are UTF-8; the items of list
 * models among them too, a few levels down. */
static inline void
fuzz_read_properties (GObject *object)
{
  fuzz_read_properties_depth (object, 3);
}

static inline void
fuzz_read_properties_depth (GObject *object,
                            guint    depth)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);

  for (guint i = 0; i < n; i++)
    {
      g_auto(GValue) value = G_VALUE_INIT;

      if ((pspecs[i]->flags & G_PARAM_READABLE) == 0)
        continue;

      g_value_init (&value, pspecs[i]->value_type);
      g_object_get_property (object, pspecs[i]->name, &value);

      if (G_VALUE_HOLDS_STRING (&value))
        FUZZ_CHECK (fuzz_is_text (g_value_get_string (&value)));
      else if (G_VALUE_HOLDS (&value, G_TYPE_STRV))
        {
          const char * const *strv = g_value_get_boxed (&value);

          for (guint j = 0; strv != NULL && strv[j] != NULL; j++)
            FUZZ_CHECK (fuzz_is_text (strv[j]));
        }
      else if (G_VALUE_HOLDS (&value, JSON_TYPE_NODE))
        fuzz_check_json_text (g_value_get_boxed (&value));
      else if (G_VALUE_HOLDS (&value, JSON_TYPE_OBJECT) && g_value_get_boxed (&value) != NULL)
        {
          g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (),
                                                            g_value_get_boxed (&value));

          fuzz_check_json_text (node);
        }
      else if (G_VALUE_HOLDS (&value, JSON_TYPE_ARRAY) && g_value_get_boxed (&value) != NULL)
        {
          g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (),
                                                           g_value_get_boxed (&value));

          fuzz_check_json_text (node);
        }
      else if (G_VALUE_HOLDS_OBJECT (&value) && G_IS_LIST_MODEL (g_value_get_object (&value)) &&
               depth > 0)
        {
          GListModel *model = g_value_get_object (&value);

          for (guint j = 0; j < g_list_model_get_n_items (model); j++)
            {
              g_autoptr(GObject) item = g_list_model_get_item (model, j);

              fuzz_read_properties_depth (item, depth - 1);
            }
        }
    }
}
