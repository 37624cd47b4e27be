/* acp-auth-method.c: one entry of an agent's authMethods
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-agent-private.h"
#include "acp-json.h"

struct _AcpAuthMethod
{
  gatomicrefcount   ref_count;
  char             *id;
  char             *name;
  char             *description;
  char             *kind;
  char            **terminal_args;
  char            **terminal_env;
  GArray           *vars;          /* AcpAuthVar, of an "env_var" method */
  char             *link;
};

G_DEFINE_BOXED_TYPE (AcpAuthMethod, acp_auth_method, acp_auth_method_ref, acp_auth_method_unref)

AcpAuthMethod *
acp_auth_method_ref (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

void
acp_auth_method_unref (AcpAuthMethod *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->id);
  g_free (self->name);
  g_free (self->description);
  g_free (self->kind);
  g_strfreev (self->terminal_args);
  g_strfreev (self->terminal_env);
  g_array_unref (self->vars);
  g_free (self->link);
  g_free (self);
}

const char *
acp_auth_method_get_id (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->id;
}

const char *
acp_auth_method_get_name (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->name;
}

/* Returns: (nullable) */
const char *
acp_auth_method_get_description (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->description;
}

const char *
acp_auth_method_get_kind (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->kind;
}

/* Returns: never NULL; empty unless the method is a "terminal" one */
const char * const *
acp_auth_method_get_terminal_args (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char * const *) self->terminal_args;
}

/* Returns: never NULL; "NAME=VALUE" entries */
const char * const *
acp_auth_method_get_terminal_env (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char * const *) self->terminal_env;
}

/* Returns: how many environment variables an "env_var" method asks for */
guint
acp_auth_method_get_n_vars (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->vars->len;
}

/* Returns: (transfer none): the @index-th variable of an "env_var" method */
const AcpAuthVar *
acp_auth_method_get_var (AcpAuthMethod *self,
                         guint          index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->vars->len, NULL);

  return &g_array_index (self->vars, AcpAuthVar, index);
}

/* Returns: (nullable): where to get the values (an "env_var" method) */
const char *
acp_auth_method_get_link (AcpAuthMethod *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->link;
}

static void
auth_var_clear (gpointer data)
{
  AcpAuthVar *var = data;

  g_free (var->name);
  g_free (var->label);
}

/* The "vars" of an "env_var" method: entries without a usable name (a
 * variable name: letters, digits, underscores) are skipped. */
static void
parse_vars (AcpAuthMethod *method,
            JsonObject    *object)
{
  JsonArray *array = acp_json_get_array (object, "vars");

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonObject *entry = acp_json_array_get_object (array, i);
      const char *name = entry != NULL ? acp_json_get_string (entry, "name", NULL) : NULL;
      AcpAuthVar var = { NULL, };
      gboolean flag;

      if (name == NULL || *name == '\0' || g_ascii_isdigit (*name))
        continue;
      for (const char *c = name; *c != '\0'; c++)
        if (!g_ascii_isalnum (*c) && *c != '_')
          name = NULL;
      if (name == NULL)
        continue;

      var.name = g_strdup (name);
      var.label = g_strdup (acp_json_get_string (entry, "label", NULL));
      var.optional = acp_json_get_boolean (entry, "optional", &flag) && flag;
      /* secret unless said otherwise */
      var.secret = !acp_json_get_boolean (entry, "secret", &flag) || flag;
      g_array_append_val (method->vars, var);
    }
}

/* Returns: (transfer full) (nullable): NULL when @node is not a usable
 * entry of authMethods (it needs a string id and name, and a string type if
 * it has one) */
AcpAuthMethod *
_acp_auth_method_new_from_json (JsonNode *node)
{
  g_autoptr(AcpAuthMethod) method = NULL;
  g_autoptr(GStrvBuilder) args = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) env = g_strv_builder_new ();
  JsonObject *object;
  JsonNode *type;
  const char *id;
  const char *name;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  object = json_node_get_object (node);
  id = acp_json_get_string (object, "id", NULL);
  name = acp_json_get_string (object, "name", NULL);
  if (id == NULL || name == NULL)
    return NULL;

  type = json_object_get_member (object, "type");
  if (type != NULL && !JSON_NODE_HOLDS_NULL (type) &&
      acp_json_get_string (object, "type", NULL) == NULL)
    return NULL;

  method = g_new0 (AcpAuthMethod, 1);
  g_atomic_ref_count_init (&method->ref_count);
  method->id = g_strdup (id);
  method->name = g_strdup (name);
  method->description = g_strdup (acp_json_get_string (object, "description", NULL));
  method->kind = g_strdup (acp_json_get_string (object, "type", NULL));
  if (method->kind == NULL)
    method->kind = g_strdup ("agent");
  method->vars = g_array_new (FALSE, TRUE, sizeof (AcpAuthVar));
  g_array_set_clear_func (method->vars, auth_var_clear);
  method->link = g_strdup (acp_json_get_string (object, "link", NULL));
  if (g_str_equal (method->kind, "env_var"))
    parse_vars (method, object);

  if (g_str_equal (method->kind, "terminal"))
    {
      JsonNode *args_node = json_object_get_member (object, "args");
      JsonNode *env_node = json_object_get_member (object, "env");

      if (args_node != NULL && JSON_NODE_HOLDS_ARRAY (args_node))
        {
          JsonArray *array = json_node_get_array (args_node);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              JsonNode *arg = json_array_get_element (array, i);

              if (JSON_NODE_HOLDS_VALUE (arg) && json_node_get_value_type (arg) == G_TYPE_STRING)
                g_strv_builder_add (args, json_node_get_string (arg));
            }
        }

      if (env_node != NULL && JSON_NODE_HOLDS_OBJECT (env_node))
        {
          JsonObject *env_object = json_node_get_object (env_node);
          JsonObjectIter iter;
          const char *var;
          JsonNode *value;

          json_object_iter_init (&iter, env_object);
          while (json_object_iter_next (&iter, &var, &value))
            {
              if (*var == '\0' || strchr (var, '=') != NULL ||
                  !JSON_NODE_HOLDS_VALUE (value) ||
                  json_node_get_value_type (value) != G_TYPE_STRING)
                continue;
              {
                g_autofree char *entry = g_strconcat (var, "=", json_node_get_string (value), NULL);

                g_strv_builder_add (env, entry);
              }
            }
        }
    }

  method->terminal_args = g_strv_builder_end (args);
  method->terminal_env = g_strv_builder_end (env);

  return g_steal_pointer (&method);
}
