/* acp-json-reader.h: one JSON text into a document of values, or into a
 * JsonNode tree, fast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  ACP_JSON_NULL,
  ACP_JSON_BOOLEAN,
  ACP_JSON_INT,       /* a number without fraction or exponent, as gint64 */
  ACP_JSON_DOUBLE,
  ACP_JSON_STRING,
  ACP_JSON_ARRAY,
  ACP_JSON_OBJECT,
} AcpJsonType;

/* A JSON text read into one block of values and one of strings, which the
 * next text read into the document replaces: reading a line allocates
 * nothing once the document has grown to it (after a very long one, it
 * lets that memory go). Values are only valid until then. Not thread-safe:
 * one document per thread. */
typedef struct _AcpJsonDoc   AcpJsonDoc;
typedef struct _AcpJsonValue AcpJsonValue;

AcpJsonDoc         *acp_json_doc_new                 (void);
void                acp_json_doc_free                (AcpJsonDoc          *doc);
/* Reads @data; refuses nesting deeper than @max_depth. Returns the root,
 * NULL for whitespace only (no error) or malformed input (ACP_ERROR_PARSE_ERROR). */
const AcpJsonValue *acp_json_doc_read                (AcpJsonDoc          *doc,
                                                      const char          *data,
                                                      gsize                length,
                                                      guint                max_depth,
                                                      GError             **error);
/* Takes in a json-glib tree instead; returns its root. */
const AcpJsonValue *acp_json_doc_load                (AcpJsonDoc          *doc,
                                                      JsonNode            *node);

/* NULL-safe: a NULL @value (an absent member) is of no type. */
gboolean            acp_json_value_is                (const AcpJsonValue  *value,
                                                      AcpJsonType          type);
/* NULL unless @value is a string; NUL-terminated, and its length is
 * acp_json_value_get_length() (an escaped NUL is U+FFFD, so there is none
 * inside) */
const char         *acp_json_value_get_string        (const AcpJsonDoc    *doc,
                                                      const AcpJsonValue  *value);
gsize               acp_json_value_get_length        (const AcpJsonValue  *value);
gint64              acp_json_value_get_int           (const AcpJsonValue  *value);
/* The members of an object or the elements of an array: how many (an
 * object's duplicate members counted), the first, the one after. */
guint               acp_json_value_get_size          (const AcpJsonValue  *value);
const AcpJsonValue *acp_json_value_get_first         (const AcpJsonDoc    *doc,
                                                      const AcpJsonValue  *value);
const AcpJsonValue *acp_json_value_get_next          (const AcpJsonDoc    *doc,
                                                      const AcpJsonValue  *value);
/* The member @name of @object (the last one, as json-glib keeps the later
 * of duplicates); NULL when absent or @object is not an object. */
const AcpJsonValue *acp_json_value_get_member        (const AcpJsonDoc    *doc,
                                                      const AcpJsonValue  *object,
                                                      const char          *name);
/* The member @name when it is a string, else NULL */
const char         *acp_json_value_get_string_member (const AcpJsonDoc    *doc,
                                                      const AcpJsonValue  *object,
                                                      const char          *name);
/* @value as a new json-glib tree (integers as gint64, other numbers as
 * gdouble; later duplicate members replace earlier ones).
 * Returns: (transfer full) */
JsonNode           *acp_json_value_to_node           (const AcpJsonDoc    *doc,
                                                      const AcpJsonValue  *value);
/* Appends @value to @out as compact JSON text (what acp_json_doc_read()
 * reads back into the same values) */
void                acp_json_value_write             (const AcpJsonDoc    *doc,
                                                      const AcpJsonValue  *value,
                                                      GString             *out);

/* Appends @string (UTF-8, @length bytes) to @out as a quoted JSON string */
void                acp_json_write_string            (GString             *out,
                                                      const char          *string,
                                                      gsize                length);

/* One JSON text into a json-glib tree, as acp_json_doc_read() reads it.
 * Returns: (transfer full) (nullable) */
JsonNode           *acp_json_read                    (const char          *data,
                                                      gsize                length,
                                                      guint                max_depth,
                                                      GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AcpJsonDoc, acp_json_doc_free)

G_END_DECLS
