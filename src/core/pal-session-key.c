/* pal-session-key.c: what names a session: its agent profile and its id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-session-key.h"

/**
 * PalSessionKey:
 *
 * A session id is the agent's: two agents may hand out the same one. A
 * session is therefore named by the pair (agent profile id, session id),
 * everywhere the application keeps or passes sessions: the session list,
 * the live sessions, the sidebar's rows and the window's actions.
 *
 * Immutable and reference counted; hash with pal_session_key_hash() and
 * pal_session_key_equal().
 */
struct _PalSessionKey
{
  char *agent_id;
  char *session_id;
};

G_DEFINE_BOXED_TYPE (PalSessionKey, pal_session_key, pal_session_key_ref, pal_session_key_unref)

/**
 * pal_session_key_new:
 * @agent_id: an agent profile id
 * @session_id: the agent's session id
 *
 * Returns: (transfer full): a new key
 */
PalSessionKey *
pal_session_key_new (const char *agent_id,
                     const char *session_id)
{
  PalSessionKey *self;

  g_return_val_if_fail (agent_id != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  self = g_atomic_rc_box_new0 (PalSessionKey);
  self->agent_id = g_strdup (agent_id);
  self->session_id = g_strdup (session_id);

  return self;
}

/**
 * pal_session_key_new_from_variant:
 * @variant: a value of type %PAL_SESSION_KEY_VARIANT_TYPE
 *
 * Returns: (transfer full) (nullable): the key, or %NULL when @variant has
 *   another type
 */
PalSessionKey *
pal_session_key_new_from_variant (GVariant *variant)
{
  const char *agent_id;
  const char *session_id;

  if (variant == NULL || !g_variant_is_of_type (variant, PAL_SESSION_KEY_VARIANT_TYPE))
    return NULL;

  g_variant_get (variant, "(&s&s)", &agent_id, &session_id);
  return pal_session_key_new (agent_id, session_id);
}

PalSessionKey *
pal_session_key_ref (PalSessionKey *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

static void
key_clear (gpointer data)
{
  PalSessionKey *self = data;

  g_free (self->agent_id);
  g_free (self->session_id);
}

void
pal_session_key_unref (PalSessionKey *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, key_clear);
}

const char *
pal_session_key_get_agent_id (const PalSessionKey *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->agent_id;
}

const char *
pal_session_key_get_session_id (const PalSessionKey *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->session_id;
}

guint
pal_session_key_hash (gconstpointer key)
{
  const PalSessionKey *self = key;

  return g_str_hash (self->session_id) * 31 + g_str_hash (self->agent_id);
}

gboolean
pal_session_key_equal (gconstpointer a,
                       gconstpointer b)
{
  const PalSessionKey *key_a = a;
  const PalSessionKey *key_b = b;

  return key_a == key_b ||
         (g_str_equal (key_a->session_id, key_b->session_id) &&
          g_str_equal (key_a->agent_id, key_b->agent_id));
}

gboolean
pal_session_key_equal0 (const PalSessionKey *a,
                        const PalSessionKey *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return pal_session_key_equal (a, b);
}

GVariant *
pal_session_key_to_variant (const PalSessionKey *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_variant_new ("(ss)", self->agent_id, self->session_id);
}

char *
pal_session_key_to_string (const PalSessionKey *self)
{
  g_autoptr(GVariant) variant = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  variant = g_variant_ref_sink (pal_session_key_to_variant (self));
  return g_variant_print (variant, FALSE);
}
