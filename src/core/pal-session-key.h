/* pal-session-key.h: what names a session: its agent profile and its id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The GVariant type of pal_session_key_to_variant(): (agent id, session id). */
#define PAL_SESSION_KEY_VARIANT_TYPE_STRING "(ss)"
#define PAL_SESSION_KEY_VARIANT_TYPE \
  ((const GVariantType *) PAL_SESSION_KEY_VARIANT_TYPE_STRING)

#define PAL_TYPE_SESSION_KEY (pal_session_key_get_type ())

typedef struct _PalSessionKey PalSessionKey;

GType          pal_session_key_get_type         (void) G_GNUC_CONST;

PalSessionKey *pal_session_key_new              (const char          *agent_id,
                                                 const char          *session_id);
PalSessionKey *pal_session_key_new_from_variant (GVariant            *variant);
PalSessionKey *pal_session_key_ref              (PalSessionKey       *self);
void           pal_session_key_unref            (PalSessionKey       *self);

const char    *pal_session_key_get_agent_id     (const PalSessionKey *self);
const char    *pal_session_key_get_session_id   (const PalSessionKey *self);

/* For GHashTable: keys of the same agent and session id are equal. */
guint          pal_session_key_hash             (gconstpointer        key);
gboolean       pal_session_key_equal            (gconstpointer        a,
                                                 gconstpointer        b);
/* NULL-safe */
gboolean       pal_session_key_equal0           (const PalSessionKey *a,
                                                 const PalSessionKey *b);

/* (transfer floating): a PAL_SESSION_KEY_VARIANT_TYPE value, for action
 * targets */
GVariant      *pal_session_key_to_variant       (const PalSessionKey *self);
/* (transfer full): a printable form that tells keys apart, for
 * notification ids and logs; not for people */
char          *pal_session_key_to_string        (const PalSessionKey *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PalSessionKey, pal_session_key_unref)

G_END_DECLS
