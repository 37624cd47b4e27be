/* acp-message-item.h: a user, agent or thought message in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "acp-content-block.h"
#include "acp-item.h"

G_BEGIN_DECLS

typedef enum
{
  ACP_MESSAGE_ROLE_USER,
  ACP_MESSAGE_ROLE_AGENT,
  ACP_MESSAGE_ROLE_THOUGHT,
} AcpMessageRole;

#define ACP_TYPE_MESSAGE_ROLE (acp_message_role_get_type ())
GType acp_message_role_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_MESSAGE_ITEM (acp_message_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpMessageItem, acp_message_item, ACP, MESSAGE_ITEM, AcpItem)

AcpMessageItem *acp_message_item_new             (AcpMessageRole  role,
                                                  const char     *message_id);

AcpMessageRole  acp_message_item_get_role        (AcpMessageItem *self);
const char     *acp_message_item_get_message_id  (AcpMessageItem *self);

/* The accumulated text; borrowed, valid until the next change. */
const char     *acp_message_item_get_text        (AcpMessageItem *self);
gsize           acp_message_item_get_text_length (AcpMessageItem *self);
/* Appends a chunk (len -1: NUL-terminated) and emits "text-appended";
 * "text" is not notified. */
void            acp_message_item_append_text     (AcpMessageItem *self,
                                                  const char     *chunk,
                                                  gssize          len);
/* Appends without emitting "text-appended"; acp_message_item_announce()
 * emits it once for all such text. */
void            acp_message_item_append_text_quietly (AcpMessageItem *self,
                                                      const char     *chunk,
                                                      gssize          len);
gboolean        acp_message_item_announce        (AcpMessageItem *self);
/* Replaces the whole text; notifies "text". */
void            acp_message_item_set_text        (AcpMessageItem *self,
                                                  const char     *text);

/* The content blocks that are not text (image, audio, resource,
 * resource_link), in order: one AcpContentBlock list model, which grows. */
GListModel     *acp_message_item_get_attachments (AcpMessageItem  *self);
/* Appends to it (a reference is kept). */
void            acp_message_item_add_attachment  (AcpMessageItem  *self,
                                                  AcpContentBlock *block);

G_END_DECLS
