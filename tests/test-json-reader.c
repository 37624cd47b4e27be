/* test-json-reader.c: the fast reader against json-glib's parser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-error.h"
#include "acp-json-reader.h"

static JsonNode *
glib_parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, text, -1, NULL))
    return NULL;
  return json_parser_steal_root (parser);
}

static JsonNode *
read_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = acp_json_read (text, strlen (text), 64, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static void
assert_same_as_glib (const char *text)
{
  g_autoptr(JsonNode) ours = read_ok (text);
  g_autoptr(JsonNode) theirs = glib_parse (text);

  g_assert_nonnull (theirs);
  if (!json_node_equal (ours, theirs))
    g_error ("different trees for %s", text);
}

static void
test_documents (void)
{
  static const char *documents[] = {
    "{}", "[]", "0", "-0", "12", "-7", "9007199254740993", "1.5", "-2.25e-3", "1E+2", "0.1",
    "true", "false", "null", "\"\"", "\"plain\"",
    "\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t\"",
    "\"\\u00e9\\u4e2d\\ud83d\\ude00\"", "\"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80\"",
    "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\","
      "\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"Hi **there**\\n\"}}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":null}",
    " \t\r\n{ \"a\" : [ 1 , 2.0 , { } , [ ] , \"x\" ] , \"b\" : { \"c\" : false } } \n",
    "{\"a\":1,\"a\":2}",
    "[[[[[[[[[[]]]]]]]]]]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (documents); i++)
    assert_same_as_glib (documents[i]);
}

/* Random trees, written by json-glib, read by both */
static JsonNode *
random_node (GRand *rand,
             guint  depth)
{
  int kind = g_rand_int_range (rand, 0, depth > 4 ? 6 : 8);
  JsonNode *node = json_node_alloc ();

  switch (kind)
    {
    case 0:
      return json_node_init_null (node);
    case 1:
      return json_node_init_boolean (node, g_rand_boolean (rand));
    case 2:
      return json_node_init_int (node, (gint64) g_rand_int (rand) * (g_rand_boolean (rand) ? 1 : -100003));
    case 3:
      return json_node_init_double (node, g_rand_double_range (rand, -1e9, 1e9));
    case 4:
    case 5:
      {
        static const char *pieces[] = { "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
                                        "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "**", "`" };
        g_autoptr(GString) text = g_string_new (NULL);
        guint n = (guint) g_rand_int_range (rand, 0, 12);

        for (guint i = 0; i < n; i++)
          g_string_append (text, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
        return json_node_init_string (node, text->str);
      }
    case 6:
      {
        g_autoptr(JsonArray) array = json_array_new ();
        guint n = (guint) g_rand_int_range (rand, 0, 5);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array, random_node (rand, depth + 1));
        return json_node_init_array (node, array);
      }
    default:
      {
        g_autoptr(JsonObject) object = json_object_new ();
        guint n = (guint) g_rand_int_range (rand, 0, 5);

        for (guint i = 0; i < n; i++)
          {
            g_autofree char *name = g_strdup_printf ("m%u\xc3\xa9", (guint) g_rand_int_range (rand, 0, 8));

            json_object_set_member (object, name, random_node (rand, depth + 1));
          }
        return json_node_init_object (node, object);
      }
    }
}

static void
test_random_trees (void)
{
  GRand *rand = g_rand_new_with_seed (8259);

  for (guint i = 0; i < 3000; i++)
    {
      g_autoptr(JsonNode) tree = random_node (rand, 0);
      g_autofree char *text = json_to_string (tree, i % 2 == 0);
      g_autoptr(JsonNode) ours = read_ok (text);
      g_autoptr(JsonNode) theirs = glib_parse (text);

      g_assert_nonnull (theirs);
      if (!json_node_equal (ours, theirs) || !json_node_equal (ours, tree))
        g_error ("different trees for %s", text);
    }

  g_rand_free (rand);
}

/* Written by the document and read back: the same tree, and the same text
 * again; the documents above and random trees, with exact text for the
 * escapes */
static char *
write_text (const char *text)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  g_autoptr(GError) error = NULL;
  const AcpJsonValue *root = acp_json_doc_read (doc, text, strlen (text), 64, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_nonnull (root);
  acp_json_value_write (doc, root, out);
  return g_string_free (out, FALSE);
}

static void
assert_writes_back (const char *text)
{
  g_autofree char *written = write_text (text);
  g_autofree char *again = write_text (written);
  g_autoptr(JsonNode) original = read_ok (text);
  g_autoptr(JsonNode) reread = read_ok (written);

  g_assert_cmpstr (again, ==, written);
  if (!json_node_equal (original, reread))
    g_error ("%s written as %s", text, written);
}

static void
test_write (void)
{
  static const char *texts[] = {
    "{}", "[]", "0", "-7", "9007199254740993", "1.5", "-2.25e-3", "0.1", "true", "null",
    "\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0001 \\u001f \\u007f\"",
    "\"\\u00e9\\ud83d\\ude00 caf\xc3\xa9\"",
    " { \"a\" : [ 1 , 2.0 , { } , [ ] , \"x\" ] , \"b\" : { \"c\" : false } } ",
    "{\"n\\u0000ame\":1}",
  };
  GRand *rand = g_rand_new_with_seed (4711);
  g_autofree char *escapes = NULL;
  g_autofree char *spaces = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    assert_writes_back (texts[i]);

  escapes = write_text ("\"q\\\" b\\\\ s/ \\b\\f\\n\\r\\t \\u0001\\u001f \\u007f \\u00e9\"");
  g_assert_cmpstr (escapes, ==, "\"q\\\" b\\\\ s/ \\b\\f\\n\\r\\t \\u0001\\u001f \x7f \xc3\xa9\"");
  spaces = write_text (" { \"a\" : [ 1 , 2.0, 3e2 ] , \"a\" : -0.5 } ");
  g_assert_cmpstr (spaces, ==, "{\"a\":[1,2.0,300.0],\"a\":-0.5}");

  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr(JsonNode) tree = random_node (rand, 0);
      g_autofree char *text = json_to_string (tree, FALSE);

      assert_writes_back (text);
    }
  g_rand_free (rand);
}

static void
test_malformed (void)
{
  static const char *bad[] = {
    "{", "[", "[1,]", "[1 2]", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{a:1}", "{'a':1}",
    "\"abc", "\"\\u12\"", "\"\\uzzzz\"", "\"a\\", "tru", "nul", "fals", "NaN", "-", "01", "1.",
    ".5", "1e", "1e+", "+1", "{\"a\":1} x", "[]]", "}", "\"\xff\"", "\"\xc3\"", "\"a\0b\"",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = NULL;
      gsize length = strlen (bad[i]);

      /* the one with a NUL byte in it */
      if (i == G_N_ELEMENTS (bad) - 1)
        length = 5;

      node = acp_json_read (bad[i], length, 64, &error);
      g_test_message ("%u", i);
      g_assert_null (node);
      g_assert_error (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR);
    }
}

static void
test_edges (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) deep = g_string_new (NULL);
  JsonNode *node;

  /* only whitespace: nothing, and no error */
  g_assert_null (acp_json_read (" \t\r\n", 4, 64, &error));
  g_assert_no_error (error);
  g_assert_null (acp_json_read ("", 0, 64, &error));
  g_assert_no_error (error);

  /* nesting: up to the limit, not beyond */
  for (guint i = 0; i < 64; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 64; i++)
    g_string_append_c (deep, ']');
  node = acp_json_read (deep->str, deep->len, 64, &error);
  g_assert_no_error (error);
  json_node_unref (node);
  g_string_prepend_c (deep, '[');
  g_string_append_c (deep, ']');
  g_assert_null (acp_json_read (deep->str, deep->len, 64, &error));
  g_assert_error (error, ACP_ERROR, ACP_ERROR_PARSE_ERROR);
  g_clear_error (&error);

  /* a surrogate without its pair and an escaped NUL: U+FFFD */
  node = read_ok ("[\"\\ud83d\", \"a\\u0000b\", \"\\ude00x\"]");
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 0), ==, "\xef\xbf\xbd");
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 1), ==, "a\xef\xbf\xbd" "b");
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 2), ==, "\xef\xbf\xbdx");
  json_node_unref (node);

  /* leniently, as json-glib: raw control characters and unknown escapes */
  node = read_ok ("\"a\tb\\qc\"");
  g_assert_cmpstr (json_node_get_string (node), ==, "a\tbqc");
  json_node_unref (node);

  /* integers stay integers, even out of range */
  node = read_ok ("[9223372036854775807, 99999999999999999999, -5, 5.0]");
  g_assert_cmpint (json_node_get_value_type (json_array_get_element (json_node_get_array (node), 0)), ==, G_TYPE_INT64);
  g_assert_cmpint (json_array_get_int_element (json_node_get_array (node), 0), ==, G_MAXINT64);
  g_assert_cmpint (json_array_get_int_element (json_node_get_array (node), 1), ==, G_MAXINT64);
  g_assert_cmpint (json_array_get_int_element (json_node_get_array (node), 2), ==, -5);
  g_assert_cmpint (json_node_get_value_type (json_array_get_element (json_node_get_array (node), 3)), ==, G_TYPE_DOUBLE);
  json_node_unref (node);
}

/* Damaged texts: an error or a tree, never a crash or both */
static void
test_damaged (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < 5000; i++)
    {
      g_autoptr(JsonNode) tree = random_node (rand, 0);
      g_autofree char *text = json_to_string (tree, FALSE);
      gsize length = strlen (text);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = NULL;

      for (guint k = 0; k < 3 && length > 0; k++)
        {
          gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) length);

          if (g_rand_boolean (rand))
            text[at] = (char) g_rand_int_range (rand, 1, 256);
          else
            length = at;
        }

      node = acp_json_read (text, length, 64, &error);
      g_assert_true ((node != NULL) != (error != NULL) || (node == NULL && error == NULL));
    }

  g_rand_free (rand);
}

/* A document: members by name (the last of duplicates), sizes, strings
 * with their length, and a document read again holds the new text only */
static void
test_document (void)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  const char *text = "{\"a\": 1, \"s\": \"x\\u00e9y\", \"l\": [true, null, 2.5], \"a\": -7}";
  const AcpJsonValue *root, *list, *element;

  root = acp_json_doc_read (doc, text, strlen (text), 64, NULL);
  g_assert_true (acp_json_value_is (root, ACP_JSON_OBJECT));
  g_assert_cmpuint (acp_json_value_get_size (root), ==, 4);
  g_assert_cmpint (acp_json_value_get_int (acp_json_value_get_member (doc, root, "a")), ==, -7);
  g_assert_cmpstr (acp_json_value_get_string_member (doc, root, "s"), ==, "x\xc3\xa9y");
  g_assert_cmpuint (acp_json_value_get_length (acp_json_value_get_member (doc, root, "s")), ==, 4);
  g_assert_null (acp_json_value_get_member (doc, root, "missing"));
  g_assert_null (acp_json_value_get_string_member (doc, root, "a"));
  g_assert_false (acp_json_value_is (NULL, ACP_JSON_NULL));

  list = acp_json_value_get_member (doc, root, "l");
  g_assert_cmpuint (acp_json_value_get_size (list), ==, 3);
  element = acp_json_value_get_first (doc, list);
  g_assert_true (acp_json_value_is (element, ACP_JSON_BOOLEAN));
  element = acp_json_value_get_next (doc, element);
  g_assert_true (acp_json_value_is (element, ACP_JSON_NULL));
  element = acp_json_value_get_next (doc, element);
  g_assert_true (acp_json_value_is (element, ACP_JSON_DOUBLE));
  g_assert_null (acp_json_value_get_next (doc, element));
  g_assert_null (acp_json_value_get_member (doc, list, "a"));

  root = acp_json_doc_read (doc, "[\"b\"]", 5, 64, NULL);
  g_assert_cmpuint (acp_json_value_get_size (root), ==, 1);
  g_assert_cmpstr (acp_json_value_get_string (doc, acp_json_value_get_first (doc, root)), ==, "b");

  /* malformed: nothing, and an error */
  g_assert_null (acp_json_doc_read (doc, "[1,", 3, 64, NULL));
}

/* A json-glib tree taken into a document and made into a tree again is the
 * same tree */
static void
test_document_load (void)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  GRand *rand = g_rand_new_with_seed (7);

  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr(JsonNode) tree = random_node (rand, 0);
      g_autoptr(JsonNode) again = acp_json_value_to_node (doc, acp_json_doc_load (doc, tree));

      if (!json_node_equal (tree, again))
        {
          g_autofree char *text = json_to_string (tree, FALSE);

          g_error ("different trees for %s", text);
        }
    }

  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-reader/documents", test_documents);
  g_test_add_func ("/json-reader/random-trees", test_random_trees);
  g_test_add_func ("/json-reader/write", test_write);
  g_test_add_func ("/json-reader/malformed", test_malformed);
  g_test_add_func ("/json-reader/edges", test_edges);
  g_test_add_func ("/json-reader/damaged", test_damaged);
  g_test_add_func ("/json-reader/document", test_document);
  g_test_add_func ("/json-reader/document-load", test_document_load);

  return g_test_run ();
}
