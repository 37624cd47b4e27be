/* pal-transcript-db-tokenizer.c: words of the search index, also in
 * Chinese and Japanese
 *
 * FTS5's unicode61 tokenizer cuts text at spaces and punctuation. Chinese
 * and Japanese put no space between words: a whole sentence would be one
 * token, and searching a word of it would find nothing. The "palaver"
 * tokenizer hands the text between such characters to unicode61, with its
 * arguments (case and diacritics folded as before), and makes each Han,
 * Hiragana and Katakana character a token of its own. A query is cut the
 * same way: a word of several such characters becomes the phrase of them,
 * which matches where they stand together, as a substring search would.
 *
 * It is registered on each connection before anything reads or changes an
 * index (_pal_transcript_db_open()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-error.h"
#include "pal-transcript-db-private.h"

#define TOKENIZER_NAME "palaver"
#define PARENT_NAME    "unicode61"

typedef struct
{
  fts5_tokenizer  parent;
  Fts5Tokenizer  *instance;
} Tokenizer;

/* What the tokens of a stretch handed to unicode61 go through: their
 * offsets are in the stretch, the index wants them in the whole text */
typedef struct
{
  void *context;
  int (*token) (void *context, int flags, const char *token, int length, int start, int end);
  int   offset;
} Stretch;

static gboolean
is_ideographic (gunichar c)
{
  switch (g_unichar_get_script (c))
    {
    case G_UNICODE_SCRIPT_HAN:
    case G_UNICODE_SCRIPT_HIRAGANA:
    case G_UNICODE_SCRIPT_KATAKANA:
      return TRUE;

    default:
      return FALSE;
    }
}

static int
stretch_token (void       *data,
               int         flags,
               const char *token,
               int         length,
               int         start,
               int         end)
{
  Stretch *stretch = data;

  return stretch->token (stretch->context, flags, token, length,
                         start + stretch->offset, end + stretch->offset);
}

static int
tokenizer_create (void           *data,
                  const char    **args,
                  int             n_args,
                  Fts5Tokenizer **out)
{
  fts5_api *api = data;
  Tokenizer *self = g_new0 (Tokenizer, 1);
  void *parent_data = NULL;
  int rc;

  rc = api->xFindTokenizer (api, PARENT_NAME, &parent_data, &self->parent);
  if (rc == SQLITE_OK)
    rc = self->parent.xCreate (parent_data, args, n_args, &self->instance);
  if (rc != SQLITE_OK)
    {
      g_free (self);
      return rc;
    }

  *out = (Fts5Tokenizer *) self;
  return SQLITE_OK;
}

static void
tokenizer_delete (Fts5Tokenizer *tokenizer)
{
  Tokenizer *self = (Tokenizer *) tokenizer;

  self->parent.xDelete (self->instance);
  g_free (self);
}

static int
tokenizer_tokenize (Fts5Tokenizer *tokenizer,
                    void          *context,
                    int            flags,
                    const char    *text,
                    int            length,
                    int          (*token) (void *, int, const char *, int, int, int))
{
  Tokenizer *self = (Tokenizer *) tokenizer;
  Stretch stretch = { context, token, 0 };
  int at = 0;

  while (at < length)
    {
      int start = at;
      int rc;

      /* the stretch up to the next ideograph, whatever bytes it holds */
      while (at < length)
        {
          gunichar c = g_utf8_get_char_validated (text + at, length - at);

          if (c < (gunichar) -2 && is_ideographic (c))
            break;
          at += c < (gunichar) -2 ? g_unichar_to_utf8 (c, NULL) : 1;
        }
      if (at > start)
        {
          stretch.offset = start;
          rc = self->parent.xTokenize (self->instance, &stretch, flags, text + start, at - start,
                                       stretch_token);
          if (rc != SQLITE_OK)
            return rc;
        }

      /* then each ideograph a token */
      while (at < length)
        {
          gunichar c = g_utf8_get_char_validated (text + at, length - at);
          int size;

          if (c >= (gunichar) -2 || !is_ideographic (c))
            break;
          size = g_unichar_to_utf8 (c, NULL);
          rc = token (context, 0, text + at, size, at, at + size);
          if (rc != SQLITE_OK)
            return rc;
          at += size;
        }
    }

  return SQLITE_OK;
}

static fts5_api *
get_fts5_api (sqlite3 *db)
{
  fts5_api *api = NULL;
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT fts5(?1)", -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_pointer (stmt, 1, &api, "fts5_api_ptr", NULL);
  sqlite3_step (stmt);
  sqlite3_finalize (stmt);

  return api;
}

/**
 * _pal_transcript_db_add_tokenizer:
 * @db: a connection
 *
 * Makes the "palaver" tokenizer known to @db (see the top of this file).
 */
gboolean
_pal_transcript_db_add_tokenizer (sqlite3  *db,
                                  GError  **error)
{
  fts5_api *api = get_fts5_api (db);
  fts5_tokenizer methods = { tokenizer_create, tokenizer_delete, tokenizer_tokenize };
  int rc;

  if (api == NULL || api->iVersion < 2)
    {
      /* TRANSLATORS: the reason the history could not be opened */
      g_set_error_literal (error, PAL_ERROR, PAL_ERROR_NOT_SUPPORTED,
                           _("the SQLite library has no full-text search (FTS5)"));
      return FALSE;
    }

  rc = api->xCreateTokenizer (api, TOKENIZER_NAME, api, &methods, NULL);
  if (rc != SQLITE_OK)
    return _pal_transcript_db_set_error (error, db, rc, "fts5 tokenizer");

  return TRUE;
}
