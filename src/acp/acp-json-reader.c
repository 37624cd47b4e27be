/* acp-json-reader.c: one JSON text into a document of values, or into a
 * JsonNode tree, fast
 *
 * json-glib's JsonParser reads through a general-purpose scanner, about
 * 18 MB/s on the machines this was measured on: a replay of 100,000 updates
 * (23.5 MB) spent 1.3 s of a core in it. A JsonNode tree is also many small
 * allocations (a hash table, a list and strings per object). This reader
 * reads straight from the bytes into an AcpJsonDoc: every value in one
 * array, every string (member names too) in one buffer, a container holding
 * the index of its first child and each child that of the next. A document
 * is reused from text to text, so that reading allocates nothing in the
 * steady state; acp_json_value_to_node() makes a json-glib tree of any part
 * of it, with the same node types as JsonParser (integers as gint64, other
 * numbers as gdouble; later duplicate members replace earlier ones).
 *
 * It follows RFC 8259, except that, like JsonParser, it takes control
 * characters inside strings as they are and keeps the character after an
 * unknown escape. Strings must be UTF-8; an escaped surrogate without its
 * pair, and an escaped NUL (which a C string cannot hold), become U+FFFD.
 * Nesting deeper than @max_depth is refused rather than recursed into.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "acp-error.h"
#include "acp-json-reader.h"

/* A document that held more than these lets its memory go at the next read */
#define KEEP_VALUES  (64 * 1024)
#define KEEP_BYTES   (1024 * 1024)

#define NO_NAME   G_MAXUINT32
#define NO_VALUE  G_MAXUINT32

struct _AcpJsonValue
{
  guint32 type;     /* AcpJsonType */
  guint32 name;     /* a member's name: its offset in the strings; NO_NAME */
  guint32 next;     /* the index of the next member or element; 0 for the last */
  guint32 size;     /* a string: its length; a container: how many children */
  union
  {
    gint64   integer;
    double   number;
    gboolean boolean;
    guint32  string;  /* its offset in the strings */
    guint32  first;   /* the index of the first child; 0 for none (0 is the root) */
  } v;
};

struct _AcpJsonDoc
{
  GArray  *values;   /* AcpJsonValue; the root first */
  GString *strings;  /* NUL-terminated, one after the other */
};

#define VALUE(doc, index) (&g_array_index ((doc)->values, AcpJsonValue, (index)))

typedef struct
{
  AcpJsonDoc *doc;
  const char *start;
  const char *p;
  const char *end;
  guint       depth;
  guint       max_depth;
  GError    **error;
} Reader;

static guint32 read_value (Reader *r);

/* --- the document --- */

AcpJsonDoc *
acp_json_doc_new (void)
{
  AcpJsonDoc *doc = g_new0 (AcpJsonDoc, 1);

  doc->values = g_array_new (FALSE, FALSE, sizeof (AcpJsonValue));
  doc->strings = g_string_sized_new (256);
  return doc;
}

void
acp_json_doc_free (AcpJsonDoc *doc)
{
  g_array_unref (doc->values);
  g_string_free (doc->strings, TRUE);
  g_free (doc);
}

/* Empties @doc for the next text, letting go of the memory of a very long
 * one */
static void
doc_reset (AcpJsonDoc *doc)
{
  if (doc->values->len > KEEP_VALUES)
    {
      g_array_unref (doc->values);
      doc->values = g_array_new (FALSE, FALSE, sizeof (AcpJsonValue));
    }
  if (doc->strings->len > KEEP_BYTES)
    {
      g_string_free (doc->strings, TRUE);
      doc->strings = g_string_sized_new (256);
    }
  g_array_set_size (doc->values, 0);
  g_string_truncate (doc->strings, 0);
}

static guint32
doc_add (AcpJsonDoc  *doc,
         AcpJsonType  type)
{
  guint32 index = doc->values->len;
  AcpJsonValue *value;

  g_array_set_size (doc->values, index + 1);
  value = VALUE (doc, index);
  value->type = type;
  value->name = NO_NAME;
  value->next = 0;
  value->size = 0;
  value->v.integer = 0;

  return index;
}

/* Links @child as the last child of @parent (@last: the one before, or 0) */
static void
doc_link (AcpJsonDoc *doc,
          guint32     parent,
          guint32    *last,
          guint32     child)
{
  if (*last == 0)
    VALUE (doc, parent)->v.first = child;
  else
    VALUE (doc, *last)->next = child;
  *last = child;
  VALUE (doc, parent)->size++;
}

/* Copies a string into the strings; returns its offset */
static guint32
doc_add_string (AcpJsonDoc *doc,
                const char *text,
                gsize       length)
{
  guint32 offset = (guint32) doc->strings->len;

  g_string_append_len (doc->strings, text, (gssize) length);
  g_string_append_c (doc->strings, '\0');
  return offset;
}

/* --- reading --- */

static void
fail (Reader     *r,
      const char *what)
{
  if (r->error != NULL && *r->error == NULL)
    g_set_error (r->error, ACP_ERROR, ACP_ERROR_PARSE_ERROR,
                 "Malformed JSON at byte %" G_GSIZE_FORMAT ": %s",
                 (gsize) (r->p - r->start), what);
}

static void
skip_space (Reader *r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
    r->p++;
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Four hex digits at r->p; moves past them. Returns -1 when they are not. */
static int
read_hex4 (Reader *r)
{
  int value = 0;

  if (r->end - r->p < 4)
    return -1;

  for (int i = 0; i < 4; i++)
    {
      int digit = hex_value (r->p[i]);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }

  r->p += 4;
  return value;
}

/* Reads the string at r->p (on its opening quote) to the end of the
 * strings, NUL-terminated: its offset in @offset and its length in
 * @length. */
static gboolean
read_string (Reader  *r,
             guint32 *offset,
             guint32 *length)
{
  GString *out = r->doc->strings;
  gsize begin = out->len;
  const char *run;
  gboolean high = FALSE;

  r->p++;
  run = r->p;

  while (r->p < r->end)
    {
      unsigned char c = (unsigned char) *r->p;

      if (c == '"')
        {
          g_string_append_len (out, run, r->p - run);
          r->p++;
          if (out->len - begin >= G_MAXUINT32 || out->len >= G_MAXUINT32)
            {
              fail (r, "a string is too long");
              return FALSE;
            }
          if (high && !g_utf8_validate (out->str + begin, (gssize) (out->len - begin), NULL))
            {
              fail (r, "a string is not UTF-8");
              return FALSE;
            }
          *offset = (guint32) begin;
          *length = (guint32) (out->len - begin);
          g_string_append_c (out, '\0');
          return TRUE;
        }

      if (c == '\\')
        {
          g_string_append_len (out, run, r->p - run);
          r->p++;
          if (r->p >= r->end)
            break;

          switch (*r->p)
            {
            case 'b': g_string_append_c (out, '\b'); r->p++; break;
            case 'f': g_string_append_c (out, '\f'); r->p++; break;
            case 'n': g_string_append_c (out, '\n'); r->p++; break;
            case 'r': g_string_append_c (out, '\r'); r->p++; break;
            case 't': g_string_append_c (out, '\t'); r->p++; break;

            case 'u':
              {
                int code;

                r->p++;
                code = read_hex4 (r);
                if (code < 0)
                  {
                    fail (r, "a \\u escape needs four hex digits");
                    return FALSE;
                  }

                if (code >= 0xD800 && code <= 0xDBFF &&
                    r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u')
                  {
                    const char *save = r->p;
                    int low;

                    r->p += 2;
                    low = read_hex4 (r);
                    if (low >= 0xDC00 && low <= 0xDFFF)
                      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    else
                      r->p = save;  /* not its pair: read on its own */
                  }

                if ((code >= 0xD800 && code <= 0xDFFF) || code == 0)
                  code = 0xFFFD;
                g_string_append_unichar (out, (gunichar) code);
              }
              break;

            default:
              /* '"', '\\', '/' and, leniently, anything else: as it is */
              if ((unsigned char) *r->p >= 0x80)
                high = TRUE;
              g_string_append_c (out, *r->p);
              r->p++;
              break;
            }

          run = r->p;
          continue;
        }

      if (c == '\0')
        {
          fail (r, "a string holds a NUL byte");
          return FALSE;
        }
      if (c >= 0x80)
        high = TRUE;
      r->p++;
    }

  fail (r, "a string is not closed");
  return FALSE;
}

static gboolean
is_digit (Reader *r)
{
  return r->p < r->end && *r->p >= '0' && *r->p <= '9';
}

static guint32
read_number (Reader *r)
{
  const char *begin = r->p;
  gboolean is_double = FALSE;
  char buffer[64];
  g_autofree char *long_number = NULL;
  const char *text;
  gsize length;
  guint32 index;

  if (*r->p == '-')
    r->p++;
  if (!is_digit (r))
    {
      fail (r, "a number needs digits");
      return NO_VALUE;
    }
  if (*r->p == '0')
    {
      r->p++;
      if (is_digit (r))
        {
          fail (r, "a number cannot start with 0");
          return NO_VALUE;
        }
    }
  else
    {
      while (is_digit (r))
        r->p++;
    }

  if (r->p < r->end && *r->p == '.')
    {
      r->p++;
      if (!is_digit (r))
        {
          fail (r, "a fraction needs digits");
          return NO_VALUE;
        }
      while (is_digit (r))
        r->p++;
      is_double = TRUE;
    }

  if (r->p < r->end && (*r->p == 'e' || *r->p == 'E'))
    {
      r->p++;
      if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
        r->p++;
      if (!is_digit (r))
        {
          fail (r, "an exponent needs digits");
          return NO_VALUE;
        }
      while (is_digit (r))
        r->p++;
      is_double = TRUE;
    }

  length = r->p - begin;
  if (length < sizeof buffer)
    {
      memcpy (buffer, begin, length);
      buffer[length] = '\0';
      text = buffer;
    }
  else
    {
      long_number = g_strndup (begin, length);
      text = long_number;
    }

  if (is_double)
    {
      index = doc_add (r->doc, ACP_JSON_DOUBLE);
      VALUE (r->doc, index)->v.number = g_ascii_strtod (text, NULL);
    }
  else
    {
      /* out of range: the nearest gint64, as g_ascii_strtoll gives it */
      index = doc_add (r->doc, ACP_JSON_INT);
      VALUE (r->doc, index)->v.integer = g_ascii_strtoll (text, NULL, 10);
    }

  return index;
}

static gboolean
read_literal (Reader     *r,
              const char *word)
{
  gsize length = strlen (word);

  if ((gsize) (r->end - r->p) < length || memcmp (r->p, word, length) != 0)
    {
      fail (r, "an unknown word");
      return FALSE;
    }

  r->p += length;
  return TRUE;
}

static guint32
read_object (Reader *r)
{
  guint32 object = doc_add (r->doc, ACP_JSON_OBJECT);
  guint32 last = 0;

  r->p++;
  skip_space (r);
  if (r->p < r->end && *r->p == '}')
    {
      r->p++;
      return object;
    }

  for (;;)
    {
      guint32 name, name_length, member;

      skip_space (r);
      if (r->p >= r->end || *r->p != '"')
        {
          fail (r, "a member name must be a string");
          return NO_VALUE;
        }
      if (!read_string (r, &name, &name_length))
        return NO_VALUE;

      skip_space (r);
      if (r->p >= r->end || *r->p != ':')
        {
          fail (r, "a member name must be followed by ':'");
          return NO_VALUE;
        }
      r->p++;

      member = read_value (r);
      if (member == NO_VALUE)
        return NO_VALUE;
      VALUE (r->doc, member)->name = name;
      doc_link (r->doc, object, &last, member);

      skip_space (r);
      if (r->p < r->end && *r->p == ',')
        {
          r->p++;
          continue;
        }
      if (r->p < r->end && *r->p == '}')
        {
          r->p++;
          return object;
        }
      fail (r, "members must be separated by ',' and closed by '}'");
      return NO_VALUE;
    }
}

static guint32
read_array (Reader *r)
{
  guint32 array = doc_add (r->doc, ACP_JSON_ARRAY);
  guint32 last = 0;

  r->p++;
  skip_space (r);
  if (r->p < r->end && *r->p == ']')
    {
      r->p++;
      return array;
    }

  for (;;)
    {
      guint32 element = read_value (r);

      if (element == NO_VALUE)
        return NO_VALUE;
      doc_link (r->doc, array, &last, element);

      skip_space (r);
      if (r->p < r->end && *r->p == ',')
        {
          r->p++;
          continue;
        }
      if (r->p < r->end && *r->p == ']')
        {
          r->p++;
          return array;
        }
      fail (r, "elements must be separated by ',' and closed by ']'");
      return NO_VALUE;
    }
}

static guint32
read_value (Reader *r)
{
  guint32 index;

  skip_space (r);
  if (r->p >= r->end)
    {
      fail (r, "a value is missing");
      return NO_VALUE;
    }

  switch (*r->p)
    {
    case '{':
    case '[':
      if (++r->depth > r->max_depth)
        {
          g_set_error (r->error, ACP_ERROR, ACP_ERROR_PARSE_ERROR,
                       "The message is nested deeper than %u levels", r->max_depth);
          return NO_VALUE;
        }
      index = *r->p == '{' ? read_object (r) : read_array (r);
      r->depth--;
      return index;

    case '"':
      {
        guint32 offset, length;

        if (!read_string (r, &offset, &length))
          return NO_VALUE;
        index = doc_add (r->doc, ACP_JSON_STRING);
        VALUE (r->doc, index)->v.string = offset;
        VALUE (r->doc, index)->size = length;
        return index;
      }

    case 't':
    case 'f':
      {
        gboolean value = *r->p == 't';

        if (!read_literal (r, value ? "true" : "false"))
          return NO_VALUE;
        index = doc_add (r->doc, ACP_JSON_BOOLEAN);
        VALUE (r->doc, index)->v.boolean = value;
        return index;
      }

    case 'n':
      if (!read_literal (r, "null"))
        return NO_VALUE;
      return doc_add (r->doc, ACP_JSON_NULL);

    default:
      if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
        return read_number (r);
      fail (r, "a value was expected");
      return NO_VALUE;
    }
}

/**
 * acp_json_doc_read:
 * @doc: a document; what it held before is gone
 * @data: a JSON text
 * @length: its length in bytes
 * @max_depth: how deep arrays and objects may nest
 * @error: return location for a #GError (%ACP_ERROR_PARSE_ERROR)
 *
 * Returns: (nullable): the root, valid until @doc is read into again;
 *   %NULL with @error set for malformed input, %NULL without an error when
 *   @data is only whitespace
 */
const AcpJsonValue *
acp_json_doc_read (AcpJsonDoc  *doc,
                   const char  *data,
                   gsize        length,
                   guint        max_depth,
                   GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  Reader r = { doc, data, data, data + length, 0, max_depth, &local_error };
  guint32 root;

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  doc_reset (doc);
  skip_space (&r);
  if (r.p == r.end)
    return NULL;

  root = read_value (&r);
  if (root != NO_VALUE)
    {
      skip_space (&r);
      if (r.p != r.end)
        {
          fail (&r, "more follows the value");
          root = NO_VALUE;
        }
    }

  if (root == NO_VALUE)
    {
      if (local_error == NULL)
        fail (&r, "malformed");
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return VALUE (doc, root);
}

/* --- json-glib trees in --- */

static guint32
load_value (AcpJsonDoc *doc,
            JsonNode   *node)
{
  guint32 index;

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) names = json_object_get_members (object);
        guint32 last = 0;

        index = doc_add (doc, ACP_JSON_OBJECT);
        for (GList *l = names; l != NULL; l = l->next)
          {
            guint32 name = doc_add_string (doc, l->data, strlen (l->data));
            guint32 member = load_value (doc, json_object_get_member (object, l->data));

            VALUE (doc, member)->name = name;
            doc_link (doc, index, &last, member);
          }
        return index;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);
        guint32 last = 0;

        index = doc_add (doc, ACP_JSON_ARRAY);
        for (guint i = 0; i < n; i++)
          doc_link (doc, index, &last, load_value (doc, json_array_get_element (array, i)));
        return index;
      }

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          index = doc_add (doc, ACP_JSON_INT);
          VALUE (doc, index)->v.integer = json_node_get_int (node);
          return index;
        case G_TYPE_DOUBLE:
          index = doc_add (doc, ACP_JSON_DOUBLE);
          VALUE (doc, index)->v.number = json_node_get_double (node);
          return index;
        case G_TYPE_BOOLEAN:
          index = doc_add (doc, ACP_JSON_BOOLEAN);
          VALUE (doc, index)->v.boolean = json_node_get_boolean (node);
          return index;
        case G_TYPE_STRING:
          {
            const char *text = json_node_get_string (node);
            gsize length = strlen (text);
            guint32 offset = doc_add_string (doc, text, length);

            index = doc_add (doc, ACP_JSON_STRING);
            VALUE (doc, index)->v.string = offset;
            VALUE (doc, index)->size = (guint32) length;
            return index;
          }
        default:
          return doc_add (doc, ACP_JSON_NULL);
        }

    case JSON_NODE_NULL:
    default:
      return doc_add (doc, ACP_JSON_NULL);
    }
}

/**
 * acp_json_doc_load:
 * @doc: a document; what it held before is gone
 * @node: a json-glib tree
 *
 * Returns: the root of @doc, now a copy of @node
 */
const AcpJsonValue *
acp_json_doc_load (AcpJsonDoc *doc,
                   JsonNode   *node)
{
  guint32 root;

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  doc_reset (doc);
  root = load_value (doc, node);  /* before VALUE (): the values may move */
  return VALUE (doc, root);
}

/* --- reading values --- */

gboolean
acp_json_value_is (const AcpJsonValue *value,
                   AcpJsonType         type)
{
  return value != NULL && value->type == type;
}

const char *
acp_json_value_get_string (const AcpJsonDoc   *doc,
                           const AcpJsonValue *value)
{
  if (value == NULL || value->type != ACP_JSON_STRING)
    return NULL;

  return doc->strings->str + value->v.string;
}

gsize
acp_json_value_get_length (const AcpJsonValue *value)
{
  g_return_val_if_fail (acp_json_value_is (value, ACP_JSON_STRING), 0);

  return value->size;
}

gint64
acp_json_value_get_int (const AcpJsonValue *value)
{
  g_return_val_if_fail (acp_json_value_is (value, ACP_JSON_INT), 0);

  return value->v.integer;
}

guint
acp_json_value_get_size (const AcpJsonValue *value)
{
  if (value == NULL || (value->type != ACP_JSON_OBJECT && value->type != ACP_JSON_ARRAY))
    return 0;

  return value->size;
}

const AcpJsonValue *
acp_json_value_get_first (const AcpJsonDoc   *doc,
                          const AcpJsonValue *value)
{
  if (acp_json_value_get_size (value) == 0)
    return NULL;

  return VALUE (doc, value->v.first);
}

const AcpJsonValue *
acp_json_value_get_next (const AcpJsonDoc   *doc,
                         const AcpJsonValue *value)
{
  if (value == NULL || value->next == 0)
    return NULL;

  return VALUE (doc, value->next);
}

const AcpJsonValue *
acp_json_value_get_member (const AcpJsonDoc   *doc,
                           const AcpJsonValue *object,
                           const char         *name)
{
  const AcpJsonValue *found = NULL;

  if (!acp_json_value_is (object, ACP_JSON_OBJECT))
    return NULL;

  for (const AcpJsonValue *member = acp_json_value_get_first (doc, object);
       member != NULL;
       member = acp_json_value_get_next (doc, member))
    {
      if (strcmp (doc->strings->str + member->name, name) == 0)
        found = member;
    }

  return found;
}

const char *
acp_json_value_get_string_member (const AcpJsonDoc   *doc,
                                  const AcpJsonValue *object,
                                  const char         *name)
{
  return acp_json_value_get_string (doc, acp_json_value_get_member (doc, object, name));
}

JsonNode *
acp_json_value_to_node (const AcpJsonDoc   *doc,
                        const AcpJsonValue *value)
{
  JsonNode *node;

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (value != NULL, NULL);

  node = json_node_alloc ();
  switch ((AcpJsonType) value->type)
    {
    case ACP_JSON_BOOLEAN:
      return json_node_init_boolean (node, value->v.boolean);
    case ACP_JSON_INT:
      return json_node_init_int (node, value->v.integer);
    case ACP_JSON_DOUBLE:
      return json_node_init_double (node, value->v.number);
    case ACP_JSON_STRING:
      return json_node_init_string (node, doc->strings->str + value->v.string);

    case ACP_JSON_ARRAY:
      {
        g_autoptr(JsonArray) array = json_array_sized_new (value->size);

        for (const AcpJsonValue *element = acp_json_value_get_first (doc, value);
             element != NULL;
             element = acp_json_value_get_next (doc, element))
          json_array_add_element (array, acp_json_value_to_node (doc, element));
        return json_node_init_array (node, array);
      }

    case ACP_JSON_OBJECT:
      {
        g_autoptr(JsonObject) object = json_object_new ();

        for (const AcpJsonValue *member = acp_json_value_get_first (doc, value);
             member != NULL;
             member = acp_json_value_get_next (doc, member))
          json_object_set_member (object, doc->strings->str + member->name,
                                  acp_json_value_to_node (doc, member));
        return json_node_init_object (node, object);
      }

    case ACP_JSON_NULL:
    default:
      return json_node_init_null (node);
    }
}

/**
 * acp_json_write_string:
 * @out: where to append it
 * @string: UTF-8 text
 * @length: its length in bytes
 *
 * Appends @string as a JSON string, quoted and escaped.
 */
void
acp_json_write_string (GString    *out,
                       const char *string,
                       gsize       length)
{
  static const char hex[] = "0123456789abcdef";
  const char *run = string;

  g_string_append_c (out, '"');
  for (const char *p = string; p < string + length; p++)
    {
      guchar c = *p;
      char escape;

      if (c >= 0x20 && c != '"' && c != '\\')
        continue;

      g_string_append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"': escape = '"'; break;
        case '\\': escape = '\\'; break;
        case '\n': escape = 'n'; break;
        case '\r': escape = 'r'; break;
        case '\t': escape = 't'; break;
        case '\b': escape = 'b'; break;
        case '\f': escape = 'f'; break;
        default: escape = 0; break;
        }
      if (escape != 0)
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, escape);
        }
      else
        {
          g_string_append (out, "\\u00");
          g_string_append_c (out, hex[c >> 4]);
          g_string_append_c (out, hex[c & 0xf]);
        }
    }
  g_string_append_len (out, run, string + length - run);
  g_string_append_c (out, '"');
}

/**
 * acp_json_value_write:
 * @doc: the document of @value
 * @value: a value of it
 * @out: where to append it
 *
 * Appends @value as compact JSON text, members and elements in their order
 * (duplicate members kept), which acp_json_doc_read() reads back into the
 * same values.
 */
void
acp_json_value_write (const AcpJsonDoc   *doc,
                      const AcpJsonValue *value,
                      GString            *out)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean first = TRUE;

  g_return_if_fail (doc != NULL);
  g_return_if_fail (value != NULL);
  g_return_if_fail (out != NULL);

  switch ((AcpJsonType) value->type)
    {
    case ACP_JSON_BOOLEAN:
      g_string_append (out, value->v.boolean ? "true" : "false");
      break;
    case ACP_JSON_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, value->v.integer);
      break;
    case ACP_JSON_DOUBLE:
      /* JSON has no infinities or NaN, and the reader makes none; a
       * whole number stays one with a fraction, to be read back as such */
      g_string_append (out, g_ascii_dtostr (number, sizeof number, value->v.number));
      if (strpbrk (number, ".eE") == NULL)
        g_string_append (out, ".0");
      break;
    case ACP_JSON_STRING:
      acp_json_write_string (out, doc->strings->str + value->v.string, value->size);
      break;

    case ACP_JSON_ARRAY:
    case ACP_JSON_OBJECT:
      g_string_append_c (out, value->type == ACP_JSON_ARRAY ? '[' : '{');
      for (const AcpJsonValue *child = acp_json_value_get_first (doc, value);
           child != NULL;
           child = acp_json_value_get_next (doc, child))
        {
          if (!first)
            g_string_append_c (out, ',');
          first = FALSE;
          if (value->type == ACP_JSON_OBJECT)
            {
              const char *name = doc->strings->str + child->name;

              acp_json_write_string (out, name, strlen (name));
              g_string_append_c (out, ':');
            }
          acp_json_value_write (doc, child, out);
        }
      g_string_append_c (out, value->type == ACP_JSON_ARRAY ? ']' : '}');
      break;

    case ACP_JSON_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

/**
 * acp_json_read:
 * @data: a JSON text
 * @length: its length in bytes
 * @max_depth: how deep arrays and objects may nest
 * @error: return location for a #GError (%ACP_ERROR_PARSE_ERROR)
 *
 * Returns: (transfer full) (nullable): the root; %NULL with @error set for
 *   malformed input, %NULL without an error when @data is only whitespace
 */
JsonNode *
acp_json_read (const char  *data,
               gsize        length,
               guint        max_depth,
               GError     **error)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  const AcpJsonValue *root;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  root = acp_json_doc_read (doc, data, length, max_depth, error);
  return root != NULL ? acp_json_value_to_node (doc, root) : NULL;
}
