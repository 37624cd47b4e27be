/* pal-name-value-group.c: the environment variables or HTTP headers in an editor
 *
 * A preferences group over a #GListStore of #PalNameValue: a row per item, an
 * Add button in the header, and validation as the person types:
 * #PalNameValueGroup:valid tells the editor whether it may save, and once
 * the person leaves a bad row (pal-field-typing.c) it gets the "error"
 * style and a line saying what is wrong.
 *
 * The rules are those the configuration is checked against before it goes
 * to an agent (acp_mcp_server_validate()), stated per row:
 * environment variable names are [A-Za-z_][A-Za-z0-9_]*, header names are
 * HTTP tokens and header values have no line breaks. A variable set twice is
 * refused too: only one of the values would count.
 *
 * Lines of NAME=VALUE (or, for headers, "Name: value") pasted into a field
 * become rows: a variable already listed takes the pasted value, the row
 * pasted into takes the first new one while its name is empty, the others
 * are added. One NAME=VALUE pasted into a name is split in two. A row added
 * is scrolled into view once it has its place.
 *
 * A row added here becomes secret as its name is typed, once the name looks
 * like one (pal_name_value_name_looks_secret(): Authorization, API_KEY...),
 * the way imported rows are; this stops when the person uses the toggle.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-field-typing.h"
#include "pal-name-value-group.h"

struct _PalNameValueGroup
{
  AdwPreferencesGroup parent_instance;

  GtkButton *add_button;

  PalNameValueKind kind;
  gboolean can_be_secret;
  GListStore *model;
  /* PalNameValueRow, in the order of the model */
  GPtrArray *rows;
  gboolean valid;
  /* set while the group itself marks a row secret */
  gboolean marking_secret;
};

G_DEFINE_FINAL_TYPE (PalNameValueGroup, pal_name_value_group, ADW_TYPE_PREFERENCES_GROUP)

enum {
  PROP_0,
  PROP_KIND,
  PROP_CAN_BE_SECRET,
  PROP_MODEL,
  PROP_VALID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
pal_name_value_kind_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { PAL_NAME_VALUE_KIND_ENV, "PAL_NAME_VALUE_KIND_ENV", "env" },
        { PAL_NAME_VALUE_KIND_HEADER, "PAL_NAME_VALUE_KIND_HEADER", "header" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("PalNameValueKind"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

static gboolean
is_env_name (const char *s)
{
  if (!g_ascii_isalpha (*s) && *s != '_')
    return FALSE;
  for (s++; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_')
      return FALSE;
  return TRUE;
}

static gboolean
is_http_token (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && strchr ("!#$%&'*+-.^_`|~", *s) == NULL)
      return FALSE;
  return TRUE;
}

/* What is wrong with @item, or NULL. */
static char *
check_item (PalNameValueGroup  *self,
            PalNameValue       *item,
            GHashTable         *seen,
            PalNameValueField  *field)
{
  const char *name = pal_name_value_get_name (item);
  const char *value = pal_name_value_get_value (item);

  *field = PAL_NAME_VALUE_FIELD_NAME;

  if (self->kind == PAL_NAME_VALUE_KIND_ENV)
    {
      if (*name == '\0')
        return g_strdup (_("Enter the name of the variable"));
      if (!is_env_name (name))
        return g_strdup_printf (_("“%s” is not a valid variable name: use letters, digits "
                                  "and underscores, and do not start with a digit"), name);
      if (!g_hash_table_add (seen, (gpointer) name))
        return g_strdup_printf (_("The variable “%s” is set more than once"), name);
    }
  else
    {
      if (*name == '\0')
        return g_strdup (_("Enter the name of the header"));
      if (!is_http_token (name))
        return g_strdup_printf (_("“%s” is not a valid header name: use letters, digits "
                                  "and hyphens"), name);
      if (strpbrk (value, "\r\n") != NULL)
        {
          *field = PAL_NAME_VALUE_FIELD_VALUE;
          return g_strdup_printf (_("The value of “%s” contains a line break"), name);
        }
    }

  return NULL;
}

/* Set on the items of rows added empty here while their name never held
 * text: that empty name is no error to show yet (the group is still not
 * valid) until pal_name_value_group_reveal_problems(). */
#define UNTOUCHED "pal-name-value-untouched"

static void
validate (PalNameValueGroup *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean valid = TRUE;

  for (guint i = 0; i < self->rows->len; i++)
    {
      PalNameValueRow *row = g_ptr_array_index (self->rows, i);
      PalNameValue *item = pal_name_value_row_get_item (row);
      PalNameValueField field;
      g_autofree char *message = check_item (self, item, seen, &field);
      gboolean untouched;

      if (*pal_name_value_get_name (item) != '\0')
        g_object_set_data (G_OBJECT (item), UNTOUCHED, NULL);
      untouched = g_object_get_data (G_OBJECT (item), UNTOUCHED) != NULL;

      /* not while the person types in it: once they leave it */
      pal_name_value_row_set_error (row, field,
                                    untouched || pal_field_typing_get (GTK_WIDGET (row))
                                    ? NULL : message);
      if (message != NULL)
        valid = FALSE;
    }

  if (self->valid != valid)
    {
      self->valid = valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
    }
}

/* Set on the items of rows added empty here, until the person toggles. */
#define AUTO_SECRET "pal-name-value-auto-secret"

static void
item_name_notify_cb (PalNameValue      *item,
                     GParamSpec        *pspec,
                     PalNameValueGroup *self)
{
  gboolean looks_secret;

  if (g_object_get_data (G_OBJECT (item), AUTO_SECRET) == NULL)
    return;

  looks_secret = pal_name_value_name_looks_secret (pal_name_value_get_name (item));
  if (looks_secret != pal_name_value_get_secret (item))
    {
      self->marking_secret = TRUE;
      pal_name_value_set_secret (item, looks_secret);
      self->marking_secret = FALSE;
    }
}

static void
item_secret_notify_cb (PalNameValue      *item,
                       GParamSpec        *pspec,
                       PalNameValueGroup *self)
{
  /* the person chose: leave it as they set it */
  if (!self->marking_secret)
    g_object_set_data (G_OBJECT (item), AUTO_SECRET, NULL);
}

/* --- pasting lines --- */

typedef struct
{
  char *name;
  char *value;
} Pair;

static void
pair_free (gpointer data)
{
  Pair *pair = data;

  g_free (pair->name);
  g_free (pair->value);
  g_free (pair);
}

/* A value between matching quotes, as shell and .env files write it, goes
 * in without them. */
static char *
unquote (const char *value)
{
  gsize length = strlen (value);

  if (length >= 2 && (value[0] == '"' || value[0] == '\'') && value[length - 1] == value[0])
    return g_strndup (value + 1, length - 2);

  return g_strdup (value);
}

/* The pairs of @text, or NULL when a line is not one: empty lines and
 * comments (#) are skipped, an "export " before a variable too. */
static GPtrArray *
parse_pairs (PalNameValueGroup *self,
             const char        *text)
{
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (pair_free);
  g_auto(GStrv) lines = g_strsplit_set (text, "\r\n", -1);
  char separator = self->kind == PAL_NAME_VALUE_KIND_ENV ? '=' : ':';

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      const char *at;
      Pair *pair;

      if (*line == '\0' || *line == '#')
        continue;
      if (self->kind == PAL_NAME_VALUE_KIND_ENV && g_str_has_prefix (line, "export "))
        line = g_strchug (line + strlen ("export "));

      at = strchr (line, separator);
      if (at == NULL || at == line)
        return NULL;

      pair = g_new0 (Pair, 1);
      pair->name = g_strstrip (g_strndup (line, at - line));
      {
        g_autofree char *value = g_strstrip (g_strdup (at + 1));

        pair->value = self->kind == PAL_NAME_VALUE_KIND_ENV ? unquote (value) : g_strdup (value);
      }
      g_ptr_array_add (pairs, pair);
    }

  return pairs->len > 0 ? g_steal_pointer (&pairs) : NULL;
}

static PalNameValue *
find_item (PalNameValueGroup *self,
           const char        *name)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      PalNameValue *item = pal_name_value_row_get_item (g_ptr_array_index (self->rows, i));

      if (g_str_equal (pal_name_value_get_name (item), name))
        return item;
    }

  return NULL;
}

typedef struct
{
  PalNameValueGroup *self;   /* owned */
  PalNameValue      *target; /* the item of the row pasted into, owned */
  GPtrArray         *pairs;
} Paste;

static void
paste_free (gpointer data)
{
  Paste *paste = data;

  g_object_unref (paste->self);
  g_object_unref (paste->target);
  g_ptr_array_unref (paste->pairs);
  g_free (paste);
}

/* After the entry's insert-text is over: its text can change again. */
static gboolean
apply_paste_cb (gpointer data)
{
  Paste *paste = data;
  PalNameValueGroup *self = paste->self;
  gboolean target_free = self->model != NULL &&
                         g_list_store_find (self->model, paste->target, NULL) &&
                         *pal_name_value_get_name (paste->target) == '\0';

  if (self->model == NULL)
    return G_SOURCE_REMOVE;

  for (guint i = 0; i < paste->pairs->len; i++)
    {
      Pair *pair = g_ptr_array_index (paste->pairs, i);
      PalNameValue *item = find_item (self, pair->name);

      if (item == NULL && target_free)
        {
          item = paste->target;
          target_free = FALSE;
        }
      else if (item == NULL)
        {
          item = pal_name_value_group_add (self);
          g_object_set_data (G_OBJECT (item), UNTOUCHED, NULL);
        }

      pal_name_value_set_name (item, pair->name);
      pal_name_value_set_value (item, pair->value);
    }

  return G_SOURCE_REMOVE;
}

static gboolean
row_text_pasted_cb (PalNameValueRow   *row,
                    const char        *text,
                    int                field,
                    PalNameValueGroup *self)
{
  gboolean lines = strpbrk (text, "\r\n") != NULL;
  g_autoptr(GPtrArray) pairs = NULL;
  Paste *paste;

  /* one line into a value is a value ("--opt=x" has an "=" too) */
  if (!lines && field != PAL_NAME_VALUE_FIELD_NAME)
    return FALSE;

  pairs = parse_pairs (self, text);
  if (pairs == NULL)
    return FALSE;

  paste = g_new0 (Paste, 1);
  paste->self = g_object_ref (self);
  paste->target = g_object_ref (pal_name_value_row_get_item (row));
  paste->pairs = g_steal_pointer (&pairs);
  g_idle_add_full (G_PRIORITY_DEFAULT, apply_paste_cb, paste, paste_free);

  return TRUE;
}

/* --- a row added, seen --- */

/* Once the row has its place, the scrolled page around it shows it whole
 * (focused before it was placed, it sits half below the page). */
static gboolean
scroll_to_row_cb (GtkWidget     *row,
                  GdkFrameClock *clock,
                  gpointer       user_data)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  graphene_rect_t bounds;
  double value, page;

  if (scrolled == NULL)
    return G_SOURCE_REMOVE;
  if (gtk_widget_get_height (row) == 0 ||
      !gtk_widget_compute_bounds (row, scrolled, &bounds))
    return G_SOURCE_CONTINUE;

  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  value = gtk_adjustment_get_value (adjustment);
  page = gtk_adjustment_get_page_size (adjustment);
  if (bounds.origin.y + bounds.size.height > page)
    value += bounds.origin.y + bounds.size.height - page;
  if (bounds.origin.y < 0)
    value += bounds.origin.y;
  gtk_adjustment_set_value (adjustment, value);

  return G_SOURCE_REMOVE;
}

static void
row_remove_requested_cb (PalNameValueGroup *self,
                         PalNameValueRow   *row)
{
  guint position;

  if (self->model != NULL &&
      g_list_store_find (self->model, pal_name_value_row_get_item (row), &position))
    g_list_store_remove (self->model, position);
}

static void
drop_rows_from (PalNameValueGroup *self,
                guint              position)
{
  while (self->rows->len > position)
    {
      PalNameValueRow *row = g_ptr_array_steal_index (self->rows, self->rows->len - 1);

      g_signal_handlers_disconnect_by_data (pal_name_value_row_get_item (row), self);
      adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (row));
      g_object_unref (row);
    }
}

/* A row's text as a whole, to tell whether the person typed in it */
static char *
row_text (GtkWidget *row)
{
  PalNameValue *item = pal_name_value_row_get_item (PAL_NAME_VALUE_ROW (row));

  return g_strconcat (pal_name_value_get_name (item), "\n", pal_name_value_get_value (item), NULL);
}

static void
model_items_changed_cb (PalNameValueGroup *self,
                        guint              position,
                        guint              removed,
                        guint              added,
                        GListModel        *model)
{
  guint n = g_list_model_get_n_items (model);

  /* A group can only append: rebuild from the first change on (rows are few). */
  drop_rows_from (self, MIN (position, self->rows->len));

  for (guint i = self->rows->len; i < n; i++)
    {
      g_autoptr(PalNameValue) item = g_list_model_get_item (model, i);
      GtkWidget *row = pal_name_value_row_new (item, self->can_be_secret);

      g_ptr_array_add (self->rows, g_object_ref_sink (row));
      g_signal_connect_object (row, "remove-requested",
                               G_CALLBACK (row_remove_requested_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (row, "text-pasted", G_CALLBACK (row_text_pasted_cb), self, 0);
      pal_field_typing_watch (row, row_text, G_CALLBACK (validate), self);
      g_signal_connect_object (item, "notify::name", G_CALLBACK (validate), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (item, "notify::value", G_CALLBACK (validate), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (item, "notify::name", G_CALLBACK (item_name_notify_cb), self, 0);
      g_signal_connect_object (item, "notify::secret", G_CALLBACK (item_secret_notify_cb),
                               self, 0);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), row);
    }

  validate (self);
}

static void
add_clicked_cb (PalNameValueGroup *self)
{
  pal_name_value_group_add (self);
}

static void
update_add_button (PalNameValueGroup *self)
{
  const char *tooltip = self->kind == PAL_NAME_VALUE_KIND_ENV ? _("Add an Environment Variable")
                                                              : _("Add a Header");

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->add_button), tooltip);
}

static void
pal_name_value_group_dispose (GObject *object)
{
  PalNameValueGroup *self = PAL_NAME_VALUE_GROUP (object);

  pal_name_value_group_set_model (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PAL_TYPE_NAME_VALUE_GROUP);

  G_OBJECT_CLASS (pal_name_value_group_parent_class)->dispose (object);
}

static void
pal_name_value_group_finalize (GObject *object)
{
  PalNameValueGroup *self = PAL_NAME_VALUE_GROUP (object);

  g_ptr_array_unref (self->rows);

  G_OBJECT_CLASS (pal_name_value_group_parent_class)->finalize (object);
}

static void
pal_name_value_group_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PalNameValueGroup *self = PAL_NAME_VALUE_GROUP (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_CAN_BE_SECRET:
      g_value_set_boolean (value, self->can_be_secret);
      break;
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_name_value_group_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PalNameValueGroup *self = PAL_NAME_VALUE_GROUP (object);

  switch (prop_id)
    {
    case PROP_KIND:
      self->kind = g_value_get_enum (value);
      update_add_button (self);
      break;
    case PROP_CAN_BE_SECRET:
      self->can_be_secret = g_value_get_boolean (value);
      break;
    case PROP_MODEL:
      pal_name_value_group_set_model (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_name_value_group_class_init (PalNameValueGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_name_value_group_dispose;
  object_class->finalize = pal_name_value_group_finalize;
  object_class->get_property = pal_name_value_group_get_property;
  object_class->set_property = pal_name_value_group_set_property;

  /* Which rules the rows follow. */
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, PAL_TYPE_NAME_VALUE_KIND, PAL_NAME_VALUE_KIND_ENV,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_STATIC_STRINGS);
  /* Whether rows offer the secret toggle. */
  properties[PROP_CAN_BE_SECRET] =
    g_param_spec_boolean ("can-be-secret", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_STORE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/gui/pal-name-value-group.ui");
  gtk_widget_class_bind_template_child (widget_class, PalNameValueGroup, add_button);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked_cb);
}

static void
pal_name_value_group_init (PalNameValueGroup *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->valid = TRUE;
  self->can_be_secret = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  update_add_button (self);
}

void
pal_name_value_group_set_model (PalNameValueGroup *self,
                                GListStore        *model)
{
  g_return_if_fail (PAL_IS_NAME_VALUE_GROUP (self));
  g_return_if_fail (model == NULL || G_IS_LIST_STORE (model));

  if (self->model == model)
    return;

  if (self->model != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->model, model_items_changed_cb, self);
      drop_rows_from (self, 0);
      g_clear_object (&self->model);
    }

  if (model != NULL)
    {
      self->model = g_object_ref (model);
      g_signal_connect_object (model, "items-changed",
                               G_CALLBACK (model_items_changed_cb), self, G_CONNECT_SWAPPED);
      model_items_changed_cb (self, 0, 0, g_list_model_get_n_items (G_LIST_MODEL (model)),
                              G_LIST_MODEL (model));
    }
  else
    validate (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/**
 * pal_name_value_group_get_model:
 * @self: a #PalNameValueGroup
 *
 * Returns: (transfer none) (nullable): the items edited
 */
GListStore *
pal_name_value_group_get_model (PalNameValueGroup *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_GROUP (self), NULL);
  return self->model;
}

/**
 * pal_name_value_group_get_row:
 * @self: a #PalNameValueGroup
 * @position: a position in the model
 *
 * Returns: (transfer none) (nullable): the row of that item
 */
PalNameValueRow *
pal_name_value_group_get_row (PalNameValueGroup *self,
                              guint              position)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_GROUP (self), NULL);

  if (position >= self->rows->len)
    return NULL;
  return g_ptr_array_index (self->rows, position);
}

/**
 * pal_name_value_group_add:
 * @self: a #PalNameValueGroup with a model
 *
 * Returns: (transfer none): the new, empty item
 */
PalNameValue *
pal_name_value_group_add (PalNameValueGroup *self)
{
  g_autoptr(PalNameValue) item = NULL;
  PalNameValueRow *row;

  g_return_val_if_fail (PAL_IS_NAME_VALUE_GROUP (self), NULL);
  g_return_val_if_fail (self->model != NULL, NULL);

  item = pal_name_value_new ("", "", FALSE);
  if (self->can_be_secret)
    g_object_set_data (G_OBJECT (item), AUTO_SECRET, GINT_TO_POINTER (TRUE));
  g_object_set_data (G_OBJECT (item), UNTOUCHED, GINT_TO_POINTER (TRUE));
  g_list_store_append (self->model, item);

  row = g_ptr_array_index (self->rows, self->rows->len - 1);
  gtk_widget_grab_focus (GTK_WIDGET (pal_name_value_row_get_name_entry (row)));
  gtk_widget_add_tick_callback (GTK_WIDGET (row), scroll_to_row_cb, NULL, NULL);
  return item;
}

/**
 * pal_name_value_group_reveal_problems:
 * @self: a #PalNameValueGroup
 *
 * Shows every problem, also the empty names of rows just added: a save
 * was tried.
 */
void
pal_name_value_group_reveal_problems (PalNameValueGroup *self)
{
  g_return_if_fail (PAL_IS_NAME_VALUE_GROUP (self));

  for (guint i = 0; i < self->rows->len; i++)
    {
      g_object_set_data (G_OBJECT (pal_name_value_row_get_item (g_ptr_array_index (self->rows, i))),
                         UNTOUCHED, NULL);
      pal_field_typing_done (g_ptr_array_index (self->rows, i));
    }
  validate (self);
}

gboolean
pal_name_value_group_get_valid (PalNameValueGroup *self)
{
  g_return_val_if_fail (PAL_IS_NAME_VALUE_GROUP (self), FALSE);
  return self->valid;
}
