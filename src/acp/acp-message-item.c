/* acp-message-item.c: a user, agent or thought message in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-message-item.h"

/**
 * AcpMessageItem:
 *
 * A message of the transcript. Streaming appends chunks to one #GString and
 * emits #AcpMessageItem::text-appended for each, which costs O(chunk): a view
 * inserts the chunk at the end of its buffer rather than re-reading the text.
 */
struct _AcpMessageItem
{
  AcpItem         parent_instance;

  AcpMessageRole  role;
  char           *message_id;
  GString        *text;
  gsize           unannounced;   /* where text not yet announced starts, G_MAXSIZE if none */
  GListStore     *attachments;  /* (nullable): AcpContentBlock; none yet */
};

G_DEFINE_ENUM_TYPE (AcpMessageRole, acp_message_role,
  G_DEFINE_ENUM_VALUE (ACP_MESSAGE_ROLE_USER, "user"),
  G_DEFINE_ENUM_VALUE (ACP_MESSAGE_ROLE_AGENT, "agent"),
  G_DEFINE_ENUM_VALUE (ACP_MESSAGE_ROLE_THOUGHT, "thought"))

G_DEFINE_FINAL_TYPE (AcpMessageItem, acp_message_item, ACP_TYPE_ITEM)

enum {
  PROP_0,
  PROP_ROLE,
  PROP_MESSAGE_ID,
  PROP_TEXT,
  PROP_ATTACHMENTS,
  N_PROPS
};

enum {
  TEXT_APPENDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
acp_message_item_finalize (GObject *object)
{
  AcpMessageItem *self = (AcpMessageItem *)object;

  g_clear_pointer (&self->message_id, g_free);
  g_string_free (self->text, TRUE);
  g_clear_object (&self->attachments);

  G_OBJECT_CLASS (acp_message_item_parent_class)->finalize (object);
}

static void
acp_message_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AcpMessageItem *self = ACP_MESSAGE_ITEM (object);

  switch (prop_id)
    {
    case PROP_ROLE:
      g_value_set_enum (value, self->role);
      break;

    case PROP_MESSAGE_ID:
      g_value_set_string (value, self->message_id);
      break;

    case PROP_TEXT:
      g_value_set_string (value, self->text->str);
      break;

    case PROP_ATTACHMENTS:
      g_value_set_object (value, acp_message_item_get_attachments (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_message_item_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AcpMessageItem *self = ACP_MESSAGE_ITEM (object);

  switch (prop_id)
    {
    case PROP_ROLE:
      self->role = g_value_get_enum (value);
      break;

    case PROP_MESSAGE_ID:
      self->message_id = g_value_dup_string (value);
      break;

    case PROP_TEXT:
      acp_message_item_set_text (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
acp_message_item_class_init (AcpMessageItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AcpItemClass *item_class = ACP_ITEM_CLASS (klass);

  object_class->finalize = acp_message_item_finalize;
  object_class->get_property = acp_message_item_get_property;
  object_class->set_property = acp_message_item_set_property;

  item_class->kind = ACP_ITEM_KIND_MESSAGE;

  properties[PROP_ROLE] =
    g_param_spec_enum ("role", NULL, NULL,
                       ACP_TYPE_MESSAGE_ROLE,
                       ACP_MESSAGE_ROLE_AGENT,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_MESSAGE_ID] =
    g_param_spec_string ("message-id", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AcpMessageItem:text:
   *
   * The whole text. Notified only when it is replaced, not on appends:
   * listen to #AcpMessageItem::text-appended for those. Reading the property
   * copies the text; acp_message_item_get_text() does not.
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL,
                         "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* AcpContentBlock: one model, which grows */
  properties[PROP_ATTACHMENTS] =
    g_param_spec_object ("attachments", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AcpMessageItem::text-appended:
   * @self: the item
   * @chunk: the text that was appended (NUL-terminated)
   *
   * Emitted after each append, instead of a notification of "text"; for
   * text appended quietly, once for all of it when it is announced.
   */
  signals[TEXT_APPENDED] =
    g_signal_new ("text-appended",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
acp_message_item_init (AcpMessageItem *self)
{
  self->role = ACP_MESSAGE_ROLE_AGENT;
  self->text = g_string_new (NULL);
  self->unannounced = G_MAXSIZE;
}

/**
 * acp_message_item_new:
 * @role: who speaks
 * @message_id: (nullable): the message id the agent sent
 *
 * Returns: (transfer full): a new, empty message
 */
AcpMessageItem *
acp_message_item_new (AcpMessageRole  role,
                      const char     *message_id)
{
  return g_object_new (ACP_TYPE_MESSAGE_ITEM,
                       "role", role,
                       "message-id", message_id,
                       NULL);
}

AcpMessageRole
acp_message_item_get_role (AcpMessageItem *self)
{
  g_return_val_if_fail (ACP_IS_MESSAGE_ITEM (self), ACP_MESSAGE_ROLE_AGENT);

  return self->role;
}

/**
 * acp_message_item_get_message_id:
 * @self: an #AcpMessageItem
 *
 * Returns: (nullable): the agent's id of this message
 */
const char *
acp_message_item_get_message_id (AcpMessageItem *self)
{
  g_return_val_if_fail (ACP_IS_MESSAGE_ITEM (self), NULL);

  return self->message_id;
}

/**
 * acp_message_item_get_text:
 * @self: an #AcpMessageItem
 *
 * Returns: (transfer none): the text so far, valid until the next change
 */
const char *
acp_message_item_get_text (AcpMessageItem *self)
{
  g_return_val_if_fail (ACP_IS_MESSAGE_ITEM (self), NULL);

  return self->text->str;
}

gsize
acp_message_item_get_text_length (AcpMessageItem *self)
{
  g_return_val_if_fail (ACP_IS_MESSAGE_ITEM (self), 0);

  return self->text->len;
}

/**
 * acp_message_item_append_text:
 * @self: an #AcpMessageItem
 * @chunk: text to append
 * @len: length of @chunk in bytes, or -1 if it is NUL-terminated
 *
 * Appends @chunk and emits #AcpMessageItem::text-appended. Nothing happens
 * for an empty chunk.
 */
void
acp_message_item_append_text (AcpMessageItem *self,
                              const char     *chunk,
                              gssize          len)
{
  gsize old_len;

  g_return_if_fail (ACP_IS_MESSAGE_ITEM (self));
  g_return_if_fail (chunk != NULL || len == 0);

  if (len < 0)
    len = strlen (chunk);
  if (len == 0)
    return;

  old_len = self->text->len;
  g_string_append_len (self->text, chunk, len);

  if (self->unannounced != G_MAXSIZE)
    {
      /* text appended quietly before: announce it with this */
      acp_message_item_announce (self);
    }
  else if (chunk[len] == '\0')
    {
      g_signal_emit (self, signals[TEXT_APPENDED], 0, chunk);
    }
  else
    {
      /* The appended copy is NUL-terminated: hand that out instead. */
      g_signal_emit (self, signals[TEXT_APPENDED], 0, self->text->str + old_len);
    }
}

/**
 * acp_message_item_append_text_quietly:
 * @self: an #AcpMessageItem
 * @chunk: text to append
 * @len: length of @chunk in bytes, or -1 if it is NUL-terminated
 *
 * Appends @chunk without emitting #AcpMessageItem::text-appended: the text
 * is announced, with whatever else was appended quietly since, by the next
 * acp_message_item_announce() or acp_message_item_append_text(). The text
 * (acp_message_item_get_text()) holds it at once.
 */
void
acp_message_item_append_text_quietly (AcpMessageItem *self,
                                      const char     *chunk,
                                      gssize          len)
{
  g_return_if_fail (ACP_IS_MESSAGE_ITEM (self));
  g_return_if_fail (chunk != NULL || len == 0);

  if (len < 0)
    len = strlen (chunk);
  if (len == 0)
    return;

  self->unannounced = MIN (self->unannounced, self->text->len);
  g_string_append_len (self->text, chunk, len);
}

/**
 * acp_message_item_announce:
 * @self: an #AcpMessageItem
 *
 * Emits #AcpMessageItem::text-appended for the text appended quietly since
 * the last announcement, if any.
 *
 * Returns: whether there was any
 */
gboolean
acp_message_item_announce (AcpMessageItem *self)
{
  gsize from;

  g_return_val_if_fail (ACP_IS_MESSAGE_ITEM (self), FALSE);

  if (self->unannounced == G_MAXSIZE)
    return FALSE;

  from = MIN (self->unannounced, self->text->len);
  self->unannounced = G_MAXSIZE;
  g_signal_emit (self, signals[TEXT_APPENDED], 0, self->text->str + from);

  return TRUE;
}

/**
 * acp_message_item_set_text:
 * @self: an #AcpMessageItem
 * @text: (nullable): the new text
 *
 * Replaces the text and notifies "text" if it changed.
 */
void
acp_message_item_set_text (AcpMessageItem *self,
                           const char     *text)
{
  g_return_if_fail (ACP_IS_MESSAGE_ITEM (self));

  if (text == NULL)
    text = "";

  if (strcmp (self->text->str, text) == 0)
    return;

  g_string_assign (self->text, text);
  /* the notification tells of all of it */
  self->unannounced = G_MAXSIZE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

/**
 * acp_message_item_get_attachments:
 * @self: an #AcpMessageItem
 *
 * Returns: (transfer none): the #AcpContentBlock values that are not text,
 *   in order, never %NULL; one model for the item's life, which grows
 *   (#GListModel::items-changed)
 */
GListModel *
acp_message_item_get_attachments (AcpMessageItem *self)
{
  g_return_val_if_fail (ACP_IS_MESSAGE_ITEM (self), NULL);

  if (self->attachments == NULL)
    self->attachments = g_list_store_new (ACP_TYPE_CONTENT_BLOCK);

  return G_LIST_MODEL (self->attachments);
}

/**
 * acp_message_item_add_attachment:
 * @self: an #AcpMessageItem
 * @block: a content block that is not text; a reference is kept
 *
 * Appends @block to the attachments.
 */
void
acp_message_item_add_attachment (AcpMessageItem  *self,
                                 AcpContentBlock *block)
{
  g_return_if_fail (ACP_IS_MESSAGE_ITEM (self));
  g_return_if_fail (ACP_IS_CONTENT_BLOCK (block));

  acp_message_item_get_attachments (self);
  g_list_store_append (self->attachments, block);
}
