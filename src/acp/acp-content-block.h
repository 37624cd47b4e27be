/* acp-content-block.h: a ContentBlock of the protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  ACP_CONTENT_BLOCK_TYPE_TEXT,
  ACP_CONTENT_BLOCK_TYPE_IMAGE,
  ACP_CONTENT_BLOCK_TYPE_AUDIO,
  ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK,
  ACP_CONTENT_BLOCK_TYPE_RESOURCE,
  ACP_CONTENT_BLOCK_TYPE_UNKNOWN,    /* a type this library does not know */
} AcpContentBlockType;

#define ACP_TYPE_CONTENT_BLOCK_TYPE (acp_content_block_type_get_type ())
GType acp_content_block_type_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_CONTENT_BLOCK (acp_content_block_get_type ())

G_DECLARE_FINAL_TYPE (AcpContentBlock, acp_content_block, ACP, CONTENT_BLOCK, GObject)

AcpContentBlockType  acp_content_block_get_block_type (AcpContentBlock *self);
/* The type as the agent sent it ("image", or an unknown one's name) */
const char          *acp_content_block_get_type_name  (AcpContentBlock *self);
/* Each (nullable) where the block has none; see the documentation. */
const char          *acp_content_block_get_text       (AcpContentBlock *self);
const char          *acp_content_block_get_uri        (AcpContentBlock *self);
const char          *acp_content_block_get_name       (AcpContentBlock *self);
const char          *acp_content_block_get_title      (AcpContentBlock *self);
const char          *acp_content_block_get_description (AcpContentBlock *self);
const char          *acp_content_block_get_mime_type  (AcpContentBlock *self);
const char          *acp_content_block_get_data       (AcpContentBlock *self);
const char          *acp_content_block_get_blob       (AcpContentBlock *self);
/* A resource link's size in bytes, -1 when not given */
gint64               acp_content_block_get_size       (AcpContentBlock *self);

G_END_DECLS
