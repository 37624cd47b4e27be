/* pal-ignore-rules.c: the patterns of a .gitignore file
 *
 * The rules of one .gitignore, chained to those of the folders above it.
 * Paths are relative to the root of the walk, '/'-separated. What git
 * does, in the common part of its syntax:
 *
 * - blank lines and lines starting with '#' say nothing; "\#" and "\!"
 *   start a pattern with those characters; trailing spaces are dropped
 *   unless escaped;
 * - "!" before a pattern takes back what an earlier one left out;
 * - a trailing '/' makes a pattern speak of folders only;
 * - a pattern with a '/' at its start or in its middle is anchored to the
 *   folder of its file; any other pattern matches a name at any depth;
 * - '*' and '?' never match a '/'; "[a-z]" and "[!a-z]" are classes;
 *   "**" matches across folders ("**" + "/foo", "foo/" + "**",
 *   "a/" + "**" + "/b").
 *
 * The last pattern that matches decides; the rules of a deeper folder come
 * before those above it. A path whose folder is left out is never asked
 * about: the walk does not go into that folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-ignore-rules.h"

typedef struct
{
  char     *pattern;
  gboolean  negated;
  gboolean  dir_only;
  gboolean  anchored;
} Rule;

struct _PalIgnoreRules
{
  gatomicrefcount  ref_count;
  PalIgnoreRules  *parent;
  char            *base;   /* the folder of the file, "" for the root */
  GArray          *rules;  /* of Rule */
};

G_DEFINE_BOXED_TYPE (PalIgnoreRules, pal_ignore_rules, pal_ignore_rules_ref, pal_ignore_rules_unref)

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_free (rule->pattern);
}

static gboolean
match_class (const char **pattern,
             char         c)
{
  const char *p = *pattern + 1;
  gboolean negated = FALSE;
  gboolean found = FALSE;

  if (*p == '!' || *p == '^')
    {
      negated = TRUE;
      p++;
    }
  /* a ']' first is a member */
  if (*p == ']')
    {
      found = c == ']';
      p++;
    }
  while (*p != '\0' && *p != ']')
    {
      char low = *p;

      if (low == '\\' && p[1] != '\0')
        low = *++p;
      if (p[1] == '-' && p[2] != '\0' && p[2] != ']')
        {
          char high = p[2];

          if (high == '\\' && p[3] != '\0')
            {
              high = p[3];
              p++;
            }
          if (c >= low && c <= high)
            found = TRUE;
          p += 3;
        }
      else
        {
          if (c == low)
            found = TRUE;
          p++;
        }
    }
  if (*p != ']')
    {
      /* no closing bracket: a literal '[' */
      *pattern += 1;
      return c == '[';
    }

  *pattern = p + 1;
  return found != negated;
}

/**
 * pal_ignore_glob_match:
 * @pattern: a gitignore glob
 * @text: a '/'-separated path
 *
 * Returns: whether @pattern matches the whole of @text
 */
gboolean
pal_ignore_glob_match (const char *pattern,
                       const char *text)
{
  const char *p = pattern;
  const char *t = text;

  while (*p != '\0')
    {
      switch (*p)
        {
        case '*':
          if (p[1] == '*' && (p == pattern || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
            {
              /* "**": any number of folders */
              if (p[2] == '\0')
                return TRUE;
              p += 3;
              for (;;)
                {
                  if (pal_ignore_glob_match (p, t))
                    return TRUE;
                  t = strchr (t, '/');
                  if (t == NULL)
                    return FALSE;
                  t++;
                }
            }
          while (*p == '*')
            p++;
          for (;;)
            {
              if (pal_ignore_glob_match (p, t))
                return TRUE;
              if (*t == '\0' || *t == '/')
                return FALSE;
              t++;
            }

        case '?':
          if (*t == '\0' || *t == '/')
            return FALSE;
          p++;
          t++;
          break;

        case '[':
          if (*t == '\0' || *t == '/' || !match_class (&p, *t))
            return FALSE;
          t++;
          break;

        case '\\':
          if (p[1] != '\0')
            p++;
          G_GNUC_FALLTHROUGH;

        default:
          if (*p != *t)
            return FALSE;
          p++;
          t++;
          break;
        }
    }

  return *t == '\0';
}

static void
add_line (PalIgnoreRules *self,
          char           *line)
{
  Rule rule = { 0 };
  gsize len = strlen (line);
  char *p = line;

  if (len > 0 && line[len - 1] == '\r')
    line[--len] = '\0';
  /* trailing spaces go, unless escaped */
  while (len > 0 && line[len - 1] == ' ' && !(len > 1 && line[len - 2] == '\\'))
    line[--len] = '\0';
  if (len == 0 || line[0] == '#')
    return;

  if (*p == '!')
    {
      rule.negated = TRUE;
      p++;
      len--;
    }
  else if (*p == '\\' && (p[1] == '#' || p[1] == '!'))
    {
      p++;
      len--;
    }

  if (len > 0 && p[len - 1] == '/')
    {
      rule.dir_only = TRUE;
      p[--len] = '\0';
    }
  if (len == 0)
    return;

  if (strchr (p, '/') != NULL)
    {
      rule.anchored = TRUE;
      if (*p == '/')
        p++;
    }
  if (*p == '\0')
    return;

  rule.pattern = g_strdup (p);
  g_array_append_val (self->rules, rule);
}

/**
 * pal_ignore_rules_new:
 * @parent: (nullable): the rules of the folders above
 * @base: the folder of the file, relative to the root ("" for the root)
 * @text: the file's contents
 * @length: its length, or -1 when nul-terminated
 *
 * Returns: (transfer full): the rules of @text, asked before @parent's
 */
PalIgnoreRules *
pal_ignore_rules_new (PalIgnoreRules *parent,
                      const char     *base,
                      const char     *text,
                      gssize          length)
{
  PalIgnoreRules *self;
  g_autofree char *copy = NULL;
  char *line, *next;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  self = g_new0 (PalIgnoreRules, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->parent = parent != NULL ? pal_ignore_rules_ref (parent) : NULL;
  self->base = g_strdup (base);
  self->rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  g_array_set_clear_func (self->rules, rule_clear);

  copy = length < 0 ? g_strdup (text) : g_strndup (text, length);
  for (line = copy; line != NULL; line = next)
    {
      next = strchr (line, '\n');
      if (next != NULL)
        *next++ = '\0';
      add_line (self, line);
    }

  return self;
}

PalIgnoreRules *
pal_ignore_rules_ref (PalIgnoreRules *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
pal_ignore_rules_unref (PalIgnoreRules *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_pointer (&self->parent, pal_ignore_rules_unref);
  g_array_unref (self->rules);
  g_free (self->base);
  g_free (self);
}

/* what this file alone says of @path */
static PalIgnoreVerdict
check_own (PalIgnoreRules *self,
           const char     *path,
           gboolean        is_dir)
{
  const char *relative = path;
  const char *name;

  if (self->base[0] != '\0')
    {
      gsize n = strlen (self->base);

      if (strncmp (path, self->base, n) != 0 || path[n] != '/')
        return PAL_IGNORE_NONE;
      relative = path + n + 1;
    }
  name = strrchr (relative, '/');
  name = name != NULL ? name + 1 : relative;

  for (guint i = self->rules->len; i > 0; i--)
    {
      const Rule *rule = &g_array_index (self->rules, Rule, i - 1);

      if (rule->dir_only && !is_dir)
        continue;
      if (pal_ignore_glob_match (rule->pattern, rule->anchored ? relative : name))
        return rule->negated ? PAL_IGNORE_INCLUDED : PAL_IGNORE_EXCLUDED;
    }

  return PAL_IGNORE_NONE;
}

/**
 * pal_ignore_rules_check:
 * @self: the rules of the folder holding @path
 * @path: a path relative to the root
 * @is_dir: whether @path is a folder
 *
 * Returns: what the deepest file with a word on @path says
 */
PalIgnoreVerdict
pal_ignore_rules_check (PalIgnoreRules *self,
                        const char     *path,
                        gboolean        is_dir)
{
  g_return_val_if_fail (path != NULL, PAL_IGNORE_NONE);

  for (PalIgnoreRules *rules = self; rules != NULL; rules = rules->parent)
    {
      PalIgnoreVerdict verdict = check_own (rules, path, is_dir);

      if (verdict != PAL_IGNORE_NONE)
        return verdict;
    }

  return PAL_IGNORE_NONE;
}

gboolean
pal_ignore_rules_ignores (PalIgnoreRules *self,
                          const char     *path,
                          gboolean        is_dir)
{
  return pal_ignore_rules_check (self, path, is_dir) == PAL_IGNORE_EXCLUDED;
}
