/* acp-notice-item.h: a notice (information, warning, error) in a transcript
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "acp-item.h"

G_BEGIN_DECLS

typedef enum
{
  ACP_NOTICE_SEVERITY_INFO,
  ACP_NOTICE_SEVERITY_WARNING,
  ACP_NOTICE_SEVERITY_ERROR,
} AcpNoticeSeverity;

#define ACP_TYPE_NOTICE_SEVERITY (acp_notice_severity_get_type ())
GType acp_notice_severity_get_type (void) G_GNUC_CONST;

#define ACP_TYPE_NOTICE_ITEM (acp_notice_item_get_type ())

G_DECLARE_FINAL_TYPE (AcpNoticeItem, acp_notice_item, ACP, NOTICE_ITEM, AcpItem)

AcpNoticeItem     *acp_notice_item_new          (AcpNoticeSeverity  severity,
                                                 const char        *title,
                                                 const char        *body,
                                                 const char        *details);

AcpNoticeSeverity  acp_notice_item_get_severity (AcpNoticeItem     *self);
void               acp_notice_item_set_severity (AcpNoticeItem     *self,
                                                 AcpNoticeSeverity  severity);
/* never NULL */
const char        *acp_notice_item_get_title    (AcpNoticeItem     *self);
void               acp_notice_item_set_title    (AcpNoticeItem     *self,
                                                 const char        *title);
/* nullable */
const char        *acp_notice_item_get_body     (AcpNoticeItem     *self);
void               acp_notice_item_set_body     (AcpNoticeItem     *self,
                                                 const char        *body);
/* nullable: e.g. the tail of an agent's stderr, shown behind an expander */
const char        *acp_notice_item_get_details  (AcpNoticeItem     *self);
void               acp_notice_item_set_details  (AcpNoticeItem     *self,
                                                 const char        *details);

G_END_DECLS
