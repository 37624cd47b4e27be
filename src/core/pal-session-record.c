/* pal-session-record.c: one entry of the session list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-session-record.h"
#include "pal-store-private.h"

/* Characters of a title made from a prompt, the ellipsis included. */
#define TITLE_MAX_CHARS 80
/* How far back a cut looks for a space to end on a whole word. */
#define TITLE_WORD_SLACK 20

/**
 * PalSessionRecord:
 *
 * What the session list knows about one session: the agent profile and
 * folder it runs in, its title and times. Records live in a
 * #PalSessionStore, which keeps them sorted and stored.
 */
struct _PalSessionRecord
{
  GObject parent_instance;

  /* made of the construct-only id and agent-id */
  PalSessionKey *key;
  char *id;
  char *agent_id;
  char *cwd;
  char **additional_directories;
  char *title;
  gint64 created;
  gint64 updated;
  guint pinned : 1;
  guint from_agent : 1;
  guint renamed : 1;
};

G_DEFINE_FINAL_TYPE (PalSessionRecord, pal_session_record, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_AGENT_ID,
  PROP_CWD,
  PROP_ADDITIONAL_DIRECTORIES,
  PROP_TITLE,
  PROP_CREATED,
  PROP_UPDATED,
  PROP_PINNED,
  PROP_FROM_AGENT,
  PROP_RENAMED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pal_session_record_finalize (GObject *object)
{
  PalSessionRecord *self = (PalSessionRecord *) object;

  g_clear_pointer (&self->key, pal_session_key_unref);
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->agent_id, g_free);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->additional_directories, g_strfreev);
  g_clear_pointer (&self->title, g_free);

  G_OBJECT_CLASS (pal_session_record_parent_class)->finalize (object);
}

static void
pal_session_record_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PalSessionRecord *self = PAL_SESSION_RECORD (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_AGENT_ID:
      g_value_set_string (value, self->agent_id);
      break;
    case PROP_CWD:
      g_value_set_string (value, self->cwd);
      break;
    case PROP_ADDITIONAL_DIRECTORIES:
      g_value_set_boxed (value, self->additional_directories);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_CREATED:
      g_value_set_int64 (value, self->created);
      break;
    case PROP_UPDATED:
      g_value_set_int64 (value, self->updated);
      break;
    case PROP_PINNED:
      g_value_set_boolean (value, self->pinned);
      break;

    case PROP_RENAMED:
      g_value_set_boolean (value, self->renamed);
      break;
    case PROP_FROM_AGENT:
      g_value_set_boolean (value, self->from_agent);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_record_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  PalSessionRecord *self = PAL_SESSION_RECORD (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_free (self->id);
      self->id = g_strdup (g_value_get_string (value) != NULL ? g_value_get_string (value) : "");
      break;
    case PROP_AGENT_ID:
      g_free (self->agent_id);
      self->agent_id = g_strdup (g_value_get_string (value) != NULL ? g_value_get_string (value)
                                                                    : "");
      break;
    case PROP_CWD:
      pal_session_record_set_cwd (self, g_value_get_string (value));
      break;
    case PROP_ADDITIONAL_DIRECTORIES:
      pal_session_record_set_additional_directories (self, g_value_get_boxed (value));
      break;
    case PROP_TITLE:
      pal_session_record_set_title (self, g_value_get_string (value));
      break;
    case PROP_CREATED:
      pal_session_record_set_created (self, g_value_get_int64 (value));
      break;
    case PROP_UPDATED:
      pal_session_record_set_updated (self, g_value_get_int64 (value));
      break;
    case PROP_PINNED:
      pal_session_record_set_pinned (self, g_value_get_boolean (value));
      break;

    case PROP_RENAMED:
      pal_session_record_set_renamed (self, g_value_get_boolean (value));
      break;
    case PROP_FROM_AGENT:
      pal_session_record_set_from_agent (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_record_constructed (GObject *object)
{
  PalSessionRecord *self = PAL_SESSION_RECORD (object);

  G_OBJECT_CLASS (pal_session_record_parent_class)->constructed (object);

  self->key = pal_session_key_new (self->agent_id, self->id);
}

static void
pal_session_record_class_init (PalSessionRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = pal_session_record_constructed;
  object_class->finalize = pal_session_record_finalize;
  object_class->get_property = pal_session_record_get_property;
  object_class->set_property = pal_session_record_set_property;

  /* The agent's session id. */
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* The id of the agent profile the session runs with: with the id, it
   * names the session (another agent may use the same id). */
  properties[PROP_AGENT_ID] =
    g_param_spec_string ("agent-id", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS);
  /* The project folder (absolute path). */
  properties[PROP_CWD] =
    g_param_spec_string ("cwd", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  /* More folders the session may use (absolute paths); never NULL. */
  properties[PROP_ADDITIONAL_DIRECTORIES] =
    g_param_spec_boxed ("additional-directories", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);
  /* Microseconds since the epoch; 0 when unknown. */
  properties[PROP_CREATED] =
    g_param_spec_int64 ("created", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  /* The last activity, microseconds since the epoch; 0 when unknown. */
  properties[PROP_UPDATED] =
    g_param_spec_int64 ("updated", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                        G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PINNED] =
    g_param_spec_boolean ("pinned", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);
  /* Learned from the agent's session/list and not stored. */
  properties[PROP_FROM_AGENT] =
    g_param_spec_boolean ("from-agent", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);
  /* The person gave the title: the agent's does not replace it. */
  properties[PROP_RENAMED] =
    g_param_spec_boolean ("renamed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                          G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_session_record_init (PalSessionRecord *self)
{
  self->id = g_strdup ("");
  self->agent_id = g_strdup ("");
  self->cwd = g_strdup ("");
  self->additional_directories = g_new0 (char *, 1);
  self->title = g_strdup ("");
}

/**
 * pal_session_record_new:
 * @id: the agent's session id
 * @agent_id: the agent profile id
 * @cwd: the project folder
 *
 * Returns: (transfer full): a new record without title or times
 */
PalSessionRecord *
pal_session_record_new (const char *id,
                        const char *agent_id,
                        const char *cwd)
{
  g_return_val_if_fail (id != NULL, NULL);

  return g_object_new (PAL_TYPE_SESSION_RECORD,
                       "id", id,
                       "agent-id", agent_id,
                       "cwd", cwd,
                       NULL);
}

/**
 * pal_session_record_get_key:
 * @self: a #PalSessionRecord
 *
 * Returns: (transfer none): what names the session: agent and id
 */
PalSessionKey *
pal_session_record_get_key (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), NULL);
  return self->key;
}

const char *
pal_session_record_get_id (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), NULL);
  return self->id;
}

const char *
pal_session_record_get_agent_id (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), NULL);
  return self->agent_id;
}

const char *
pal_session_record_get_cwd (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), NULL);
  return self->cwd;
}

void
pal_session_record_set_cwd (PalSessionRecord *self,
                            const char       *cwd)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  if (_pal_set_string (&self->cwd, cwd != NULL ? cwd : ""))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CWD]);
}

/**
 * pal_session_record_get_additional_directories:
 * @self: a #PalSessionRecord
 *
 * Returns: (transfer none): the folders the session may use besides its
 *   project folder; empty, never %NULL
 */
const char * const *
pal_session_record_get_additional_directories (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), NULL);
  return (const char * const *) self->additional_directories;
}

void
pal_session_record_set_additional_directories (PalSessionRecord   *self,
                                               const char * const *directories)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  if (_pal_set_strv (&self->additional_directories, directories))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ADDITIONAL_DIRECTORIES]);
}

const char *
pal_session_record_get_title (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), NULL);
  return self->title;
}

void
pal_session_record_set_title (PalSessionRecord *self,
                              const char       *title)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  if (_pal_set_string (&self->title, title != NULL ? title : ""))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

gint64
pal_session_record_get_created (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), 0);
  return self->created;
}

void
pal_session_record_set_created (PalSessionRecord *self,
                                gint64            created)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  created = MAX (created, 0);
  if (self->created == created)
    return;
  self->created = created;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CREATED]);
}

gint64
pal_session_record_get_updated (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), 0);
  return self->updated;
}

void
pal_session_record_set_updated (PalSessionRecord *self,
                                gint64            updated)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  updated = MAX (updated, 0);
  if (self->updated == updated)
    return;
  self->updated = updated;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UPDATED]);
}

gboolean
pal_session_record_get_pinned (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), FALSE);
  return self->pinned;
}

void
pal_session_record_set_pinned (PalSessionRecord *self,
                               gboolean          pinned)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  pinned = !!pinned;
  if (self->pinned == (guint) pinned)
    return;
  self->pinned = pinned;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PINNED]);
}

gboolean
pal_session_record_get_renamed (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), FALSE);
  return self->renamed;
}

void
pal_session_record_set_renamed (PalSessionRecord *self,
                                gboolean          renamed)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  renamed = !!renamed;
  if (self->renamed == (guint) renamed)
    return;
  self->renamed = renamed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RENAMED]);
}

gboolean
pal_session_record_get_from_agent (PalSessionRecord *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_RECORD (self), FALSE);
  return self->from_agent;
}

void
pal_session_record_set_from_agent (PalSessionRecord *self,
                                   gboolean          from_agent)
{
  g_return_if_fail (PAL_IS_SESSION_RECORD (self));

  from_agent = !!from_agent;
  if (self->from_agent == (guint) from_agent)
    return;
  self->from_agent = from_agent;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FROM_AGENT]);
}

static gboolean
is_blank_char (gunichar c)
{
  return g_unichar_isspace (c) || g_unichar_iscntrl (c) ||
         g_unichar_type (c) == G_UNICODE_FORMAT;
}

/**
 * pal_session_record_title_from_prompt:
 * @prompt: (nullable): the first prompt of a session
 *
 * The title a session gets from its first prompt: the first line that is not
 * blank, without surrounding white space, tabs and control characters turned
 * into spaces, and cut to at most 80 characters (preferably after a whole
 * word) ending in “…”. Invalid UTF-8 is repaired first.
 *
 * Returns: (transfer full) (nullable): the title, or %NULL when the prompt
 *   has no visible text
 */
char *
pal_session_record_title_from_prompt (const char *prompt)
{
  g_autofree char *valid = NULL;
  const char *line;

  if (prompt == NULL)
    return NULL;

  valid = g_utf8_make_valid (prompt, -1);

  for (line = valid; *line != '\0';)
    {
      const char *line_end = strchr (line, '\n');
      const char *start = line;
      const char *end;

      if (line_end == NULL)
        line_end = line + strlen (line);
      end = line_end;

      while (start < end && is_blank_char (g_utf8_get_char (start)))
        start = g_utf8_next_char (start);
      while (end > start)
        {
          const char *prev = g_utf8_find_prev_char (start, end);

          if (prev == NULL || !is_blank_char (g_utf8_get_char (prev)))
            break;
          end = prev;
        }

      if (start < end)
        {
          GString *title = g_string_sized_new (end - start + 4);
          glong n_chars = 0;
          const char *p;

          for (p = start; p < end; p = g_utf8_next_char (p))
            {
              gunichar c = g_utf8_get_char (p);

              if (n_chars == TITLE_MAX_CHARS)
                break;
              if (g_unichar_iscntrl (c))
                c = ' ';
              g_string_append_unichar (title, c);
              n_chars++;
            }

          if (p < end)
            {
              /* Too long: keep room for the ellipsis, end on a word if one
               * ends close enough to the cut. */
              char *cut = g_utf8_offset_to_pointer (title->str, TITLE_MAX_CHARS - 1);
              char *q = cut;

              for (guint i = 0; i < TITLE_WORD_SLACK && q > title->str; i++)
                {
                  q = g_utf8_prev_char (q);
                  if (g_unichar_isspace (g_utf8_get_char (q)))
                    {
                      cut = q;
                      break;
                    }
                }
              while (cut > title->str && g_unichar_isspace (g_utf8_get_char (g_utf8_prev_char (cut))))
                cut = g_utf8_prev_char (cut);

              g_string_truncate (title, cut - title->str);
              g_string_append (title, "…");
            }

          return g_string_free (title, FALSE);
        }

      line = *line_end != '\0' ? line_end + 1 : line_end;
    }

  return NULL;
}
