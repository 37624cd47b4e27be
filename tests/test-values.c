/* test-values.c: the typed values of transcript items, made from JSON as
 * the schema defines them (content blocks, tool call content, locations,
 * plan entries, permission options, and lists of them)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-values-private.h"

typedef gpointer (*ParseFunc) (const AcpJsonDoc   *doc,
                               const AcpJsonValue *value);

/* @parse on the value of @json (NULL when it refuses it) */
static gpointer
parse (ParseFunc   func,
       const char *json)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  g_autoptr(GError) error = NULL;
  const AcpJsonValue *value = acp_json_doc_read (doc, json, strlen (json), 64, &error);

  g_assert_no_error (error);
  g_assert_nonnull (value);
  return func (doc, value);
}

static AcpContentBlock *
parse_block (const char  *json,
             const char **problem)
{
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  g_autoptr(GError) error = NULL;
  const AcpJsonValue *value = acp_json_doc_read (doc, json, strlen (json), 64, &error);

  g_assert_no_error (error);
  return _acp_content_block_new_from_json (doc, value, problem);
}

static void
assert_refused (ParseFunc          func,
                const char * const *values,
                gsize               n_values)
{
  for (gsize i = 0; i < n_values; i++)
    {
      g_autoptr(GObject) value = parse (func, values[i]);

      g_test_message ("%s", values[i]);
      g_assert_null (value);
    }
}

/* --- content blocks --- */

static void
test_block_text (void)
{
  g_autoptr(AcpContentBlock) block = parse_block ("{\"type\":\"text\",\"text\":\"Hi\","
                                                  "\"annotations\":{\"priority\":1}}", NULL);
  AcpContentBlockType type;
  g_autofree char *text = NULL;

  g_assert_nonnull (block);
  g_assert_cmpint (acp_content_block_get_block_type (block), ==, ACP_CONTENT_BLOCK_TYPE_TEXT);
  g_assert_cmpstr (acp_content_block_get_type_name (block), ==, "text");
  g_assert_cmpstr (acp_content_block_get_text (block), ==, "Hi");
  g_assert_null (acp_content_block_get_uri (block));
  g_assert_null (acp_content_block_get_data (block));
  g_assert_cmpint (acp_content_block_get_size (block), ==, -1);

  /* properties to bind to */
  g_object_get (block, "block-type", &type, "text", &text, NULL);
  g_assert_cmpint (type, ==, ACP_CONTENT_BLOCK_TYPE_TEXT);
  g_assert_cmpstr (text, ==, "Hi");
}

static void
test_block_media (void)
{
  g_autoptr(AcpContentBlock) image = parse_block ("{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\","
                                                  "\"mimeType\":\"image/png\",\"uri\":\"file:///a.png\"}",
                                                  NULL);
  g_autoptr(AcpContentBlock) no_uri = parse_block ("{\"type\":\"image\",\"data\":\"AA==\","
                                                   "\"mimeType\":\"image/gif\",\"uri\":7}", NULL);
  g_autoptr(AcpContentBlock) audio = parse_block ("{\"type\":\"audio\",\"data\":\"UklGRg==\","
                                                  "\"mimeType\":\"audio/wav\"}", NULL);
  g_autofree char *mime_type = NULL;

  g_assert_cmpint (acp_content_block_get_block_type (image), ==, ACP_CONTENT_BLOCK_TYPE_IMAGE);
  /* base64, as the agent sent it */
  g_assert_cmpstr (acp_content_block_get_data (image), ==, "iVBORw0KGgo=");
  g_assert_cmpstr (acp_content_block_get_mime_type (image), ==, "image/png");
  g_assert_cmpstr (acp_content_block_get_uri (image), ==, "file:///a.png");
  g_assert_null (acp_content_block_get_text (image));
  g_object_get (image, "mime-type", &mime_type, NULL);
  g_assert_cmpstr (mime_type, ==, "image/png");

  /* an optional member of the wrong type falls back to none */
  g_assert_nonnull (no_uri);
  g_assert_null (acp_content_block_get_uri (no_uri));

  g_assert_cmpint (acp_content_block_get_block_type (audio), ==, ACP_CONTENT_BLOCK_TYPE_AUDIO);
  g_assert_cmpstr (acp_content_block_get_data (audio), ==, "UklGRg==");
  g_assert_cmpstr (acp_content_block_get_mime_type (audio), ==, "audio/wav");
  g_assert_null (acp_content_block_get_uri (audio));
}

static void
test_block_resources (void)
{
  g_autoptr(AcpContentBlock) link = parse_block ("{\"type\":\"resource_link\",\"uri\":\"file:///r.txt\","
                                                 "\"name\":\"r.txt\",\"title\":\"Notes\","
                                                 "\"description\":\"Some notes\",\"mimeType\":\"text/plain\","
                                                 "\"size\":1024}", NULL);
  g_autoptr(AcpContentBlock) bare = parse_block ("{\"type\":\"resource_link\",\"uri\":\"file:///b\","
                                                 "\"name\":\"b\",\"title\":null,\"size\":\"big\"}", NULL);
  g_autoptr(AcpContentBlock) negative = parse_block ("{\"type\":\"resource_link\",\"uri\":\"file:///n\","
                                                     "\"name\":\"n\",\"size\":-5}", NULL);
  g_autoptr(AcpContentBlock) text = parse_block ("{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///t\","
                                                 "\"text\":\"inside\",\"mimeType\":\"text/x-c\"}}", NULL);
  g_autoptr(AcpContentBlock) blob = parse_block ("{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///z\","
                                                 "\"blob\":\"UEsDBA==\"}}", NULL);
  gint64 size = 0;

  g_assert_cmpint (acp_content_block_get_block_type (link), ==, ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK);
  g_assert_cmpstr (acp_content_block_get_uri (link), ==, "file:///r.txt");
  g_assert_cmpstr (acp_content_block_get_name (link), ==, "r.txt");
  g_assert_cmpstr (acp_content_block_get_title (link), ==, "Notes");
  g_assert_cmpstr (acp_content_block_get_description (link), ==, "Some notes");
  g_assert_cmpstr (acp_content_block_get_mime_type (link), ==, "text/plain");
  g_assert_cmpint (acp_content_block_get_size (link), ==, 1024);
  g_object_get (link, "size", &size, NULL);
  g_assert_cmpint (size, ==, 1024);

  /* optional members missing, null or of the wrong type */
  g_assert_nonnull (bare);
  g_assert_null (acp_content_block_get_title (bare));
  g_assert_null (acp_content_block_get_description (bare));
  g_assert_null (acp_content_block_get_mime_type (bare));
  g_assert_cmpint (acp_content_block_get_size (bare), ==, -1);
  g_assert_cmpint (acp_content_block_get_size (negative), ==, -1);

  /* an embedded resource: its text, or its blob */
  g_assert_cmpint (acp_content_block_get_block_type (text), ==, ACP_CONTENT_BLOCK_TYPE_RESOURCE);
  g_assert_cmpstr (acp_content_block_get_uri (text), ==, "file:///t");
  g_assert_cmpstr (acp_content_block_get_text (text), ==, "inside");
  g_assert_cmpstr (acp_content_block_get_mime_type (text), ==, "text/x-c");
  g_assert_null (acp_content_block_get_blob (text));
  g_assert_cmpstr (acp_content_block_get_uri (blob), ==, "file:///z");
  g_assert_cmpstr (acp_content_block_get_blob (blob), ==, "UEsDBA==");
  g_assert_null (acp_content_block_get_text (blob));
}

static void
test_block_unknown (void)
{
  g_autoptr(AcpContentBlock) block = parse_block ("{\"type\":\"video\",\"data\":\"AA==\"}", NULL);

  /* a newer type: kept, by its name */
  g_assert_nonnull (block);
  g_assert_cmpint (acp_content_block_get_block_type (block), ==, ACP_CONTENT_BLOCK_TYPE_UNKNOWN);
  g_assert_cmpstr (acp_content_block_get_type_name (block), ==, "video");
  g_assert_null (acp_content_block_get_data (block));
}

static void
test_block_invalid (void)
{
  static const struct { const char *json; const char *problem; } invalid[] = {
    { "\"text\"", "must be a content block object" },
    { "[]", "must be a content block object" },
    { "{\"text\":\"no type\"}", "type must be a string" },
    { "{\"type\":3}", "type must be a string" },
    { "{\"type\":\"text\"}", "text must be a string" },
    { "{\"type\":\"text\",\"text\":null}", "text must be a string" },
    { "{\"type\":\"image\",\"mimeType\":\"image/png\"}", "data must be a string" },
    { "{\"type\":\"image\",\"data\":\"AA==\"}", "mimeType must be a string" },
    { "{\"type\":\"audio\",\"data\":5,\"mimeType\":\"audio/wav\"}", "data must be a string" },
    { "{\"type\":\"resource_link\",\"name\":\"n\"}", "uri must be a string" },
    { "{\"type\":\"resource_link\",\"uri\":\"file:///a\"}", "name must be a string" },
    { "{\"type\":\"resource\"}", "resource must be an object" },
    { "{\"type\":\"resource\",\"resource\":\"file:///a\"}", "resource must be an object" },
    { "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///a\"}}",
      "resource.text or resource.blob must be a string" },
    { "{\"type\":\"resource\",\"resource\":{\"text\":\"t\"}}", "resource.uri must be a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      const char *problem = NULL;
      g_autoptr(AcpContentBlock) block = parse_block (invalid[i].json, &problem);

      g_test_message ("%s", invalid[i].json);
      g_assert_null (block);
      g_assert_cmpstr (problem, ==, invalid[i].problem);
    }
}

static void
test_block_equal (void)
{
  g_autoptr(AcpContentBlock) a = parse_block ("{\"type\":\"resource_link\",\"uri\":\"u\",\"name\":\"n\"}", NULL);
  g_autoptr(AcpContentBlock) b = parse_block ("{\"name\":\"n\",\"uri\":\"u\",\"type\":\"resource_link\","
                                              "\"_meta\":{\"x\":1}}", NULL);
  g_autoptr(AcpContentBlock) c = parse_block ("{\"type\":\"resource_link\",\"uri\":\"u\",\"name\":\"n\","
                                              "\"size\":1}", NULL);

  g_assert_true (_acp_content_block_equal (a, b));
  g_assert_false (_acp_content_block_equal (a, c));
}

/* --- tool call content --- */

static void
test_tool_call_content (void)
{
  g_autoptr(AcpToolCallContent) content =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"out\"}}");
  g_autoptr(AcpToolCallContent) diff =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"type\":\"diff\",\"path\":\"/p/a.c\",\"oldText\":\"old\",\"newText\":\"new\"}");
  g_autoptr(AcpToolCallContent) created =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"type\":\"diff\",\"path\":\"/p/b.c\",\"newText\":\"new\"}");
  g_autoptr(AcpToolCallContent) terminal =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"type\":\"terminal\",\"terminalId\":\"term-1\"}");
  g_autoptr(AcpToolCallContent) unknown =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json, "{\"type\":\"chart\",\"points\":[1,2]}");
  g_autoptr(AcpContentBlock) block = NULL;
  AcpToolCallContentKind kind;

  g_assert_cmpint (acp_tool_call_content_get_kind (content), ==, ACP_TOOL_CALL_CONTENT_KIND_CONTENT);
  g_assert_cmpstr (acp_tool_call_content_get_type_name (content), ==, "content");
  g_assert_cmpstr (acp_content_block_get_text (acp_tool_call_content_get_block (content)), ==, "out");
  g_assert_null (acp_tool_call_content_get_path (content));
  g_object_get (content, "kind", &kind, "block", &block, NULL);
  g_assert_cmpint (kind, ==, ACP_TOOL_CALL_CONTENT_KIND_CONTENT);
  g_assert_true (block == acp_tool_call_content_get_block (content));

  g_assert_cmpint (acp_tool_call_content_get_kind (diff), ==, ACP_TOOL_CALL_CONTENT_KIND_DIFF);
  g_assert_cmpstr (acp_tool_call_content_get_path (diff), ==, "/p/a.c");
  g_assert_cmpstr (acp_tool_call_content_get_old_text (diff), ==, "old");
  g_assert_cmpstr (acp_tool_call_content_get_new_text (diff), ==, "new");
  g_assert_null (acp_tool_call_content_get_block (diff));
  /* no old text: a new file */
  g_assert_null (acp_tool_call_content_get_old_text (created));

  g_assert_cmpint (acp_tool_call_content_get_kind (terminal), ==, ACP_TOOL_CALL_CONTENT_KIND_TERMINAL);
  g_assert_cmpstr (acp_tool_call_content_get_terminal_id (terminal), ==, "term-1");

  /* a newer kind: kept, by its name */
  g_assert_cmpint (acp_tool_call_content_get_kind (unknown), ==, ACP_TOOL_CALL_CONTENT_KIND_UNKNOWN);
  g_assert_cmpstr (acp_tool_call_content_get_type_name (unknown), ==, "chart");
}

static void
test_tool_call_content_invalid (void)
{
  static const char * const invalid[] = {
    "7",
    "{}",
    "{\"type\":null}",
    "{\"type\":\"content\"}",
    "{\"type\":\"content\",\"content\":{\"type\":\"text\"}}",
    "{\"type\":\"content\",\"content\":{\"type\":\"image\",\"data\":\"AA==\"}}",
    "{\"type\":\"diff\",\"path\":\"/x\"}",
    "{\"type\":\"diff\",\"newText\":\"x\"}",
    "{\"type\":\"diff\",\"path\":1,\"newText\":\"x\"}",
    "{\"type\":\"terminal\"}",
    "{\"type\":\"terminal\",\"terminalId\":3}",
  };
  g_autoptr(AcpToolCallContent) odd_old =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"type\":\"diff\",\"path\":\"/p\",\"oldText\":12,\"newText\":\"n\"}");

  assert_refused ((ParseFunc) _acp_tool_call_content_new_from_json, invalid, G_N_ELEMENTS (invalid));

  /* oldText falls back to its default (none) on error, as the schema says */
  g_assert_nonnull (odd_old);
  g_assert_null (acp_tool_call_content_get_old_text (odd_old));
}

static void
test_tool_call_content_equal (void)
{
  g_autoptr(AcpToolCallContent) a =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"x\"}}");
  g_autoptr(AcpToolCallContent) b =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"content\":{\"text\":\"x\",\"type\":\"text\"},\"type\":\"content\"}");
  g_autoptr(AcpToolCallContent) c =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json,
           "{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"y\"}}");
  g_autoptr(AcpToolCallContent) d =
    parse ((ParseFunc) _acp_tool_call_content_new_from_json, "{\"type\":\"terminal\",\"terminalId\":\"x\"}");

  g_assert_true (_acp_tool_call_content_equal (a, b));
  g_assert_false (_acp_tool_call_content_equal (a, c));
  g_assert_false (_acp_tool_call_content_equal (a, d));
}

/* --- locations --- */

static void
test_location (void)
{
  static const struct { const char *json; gint64 line; } valid[] = {
    { "{\"path\":\"/p/a.c\",\"line\":12}", 12 },
    { "{\"path\":\"/p/a.c\",\"line\":0}", 0 },
    { "{\"path\":\"/p/a.c\",\"line\":4294967295}", 4294967295 },
    /* no line, or one that is not a uint32: none (the schema's default) */
    { "{\"path\":\"/p/a.c\"}", -1 },
    { "{\"path\":\"/p/a.c\",\"line\":null}", -1 },
    { "{\"path\":\"/p/a.c\",\"line\":\"12\"}", -1 },
    { "{\"path\":\"/p/a.c\",\"line\":-3}", -1 },
    { "{\"path\":\"/p/a.c\",\"line\":4294967296}", -1 },
    { "{\"path\":\"/p/a.c\",\"line\":1.5}", -1 },
  };
  static const char * const invalid[] = {
    "{}", "{\"line\":1}", "{\"path\":5}", "{\"path\":null}", "\"/p/a.c\"",
  };
  g_autoptr(AcpLocation) a = parse ((ParseFunc) _acp_location_new_from_json, "{\"path\":\"/a\",\"line\":1}");
  g_autoptr(AcpLocation) b = parse ((ParseFunc) _acp_location_new_from_json, "{\"path\":\"/a\"}");
  g_autofree char *path = NULL;
  gint64 line = 0;

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autoptr(AcpLocation) location = parse ((ParseFunc) _acp_location_new_from_json, valid[i].json);

      g_test_message ("%s", valid[i].json);
      g_assert_nonnull (location);
      g_assert_cmpstr (acp_location_get_path (location), ==, "/p/a.c");
      g_assert_cmpint (acp_location_get_line (location), ==, valid[i].line);
    }
  assert_refused ((ParseFunc) _acp_location_new_from_json, invalid, G_N_ELEMENTS (invalid));

  g_object_get (a, "path", &path, "line", &line, NULL);
  g_assert_cmpstr (path, ==, "/a");
  g_assert_cmpint (line, ==, 1);
  g_assert_false (_acp_location_equal (a, b));
  g_assert_true (_acp_location_equal (a, a));
}

/* --- plan entries --- */

static void
test_plan_entry (void)
{
  g_autoptr(AcpPlanEntry) entry = parse ((ParseFunc) _acp_plan_entry_new_from_json,
                                         "{\"content\":\"Write tests\",\"priority\":\"high\","
                                         "\"status\":\"in_progress\",\"_meta\":{}}");
  g_autoptr(AcpPlanEntry) newer = parse ((ParseFunc) _acp_plan_entry_new_from_json,
                                         "{\"content\":\"Ship\",\"priority\":\"urgent\","
                                         "\"status\":\"blocked\"}");
  static const char * const invalid[] = {
    "{\"priority\":\"high\",\"status\":\"pending\"}",
    "{\"content\":\"c\",\"status\":\"pending\"}",
    "{\"content\":\"c\",\"priority\":\"high\"}",
    "{\"content\":5,\"priority\":\"high\",\"status\":\"pending\"}",
    "{\"content\":\"c\",\"priority\":1,\"status\":\"pending\"}",
    "{\"content\":\"c\",\"priority\":\"high\",\"status\":null}",
    "[\"c\",\"high\",\"pending\"]",
  };
  AcpPlanEntryPriority priority;
  AcpPlanEntryStatus status;

  g_assert_cmpstr (acp_plan_entry_get_content (entry), ==, "Write tests");
  g_assert_cmpint (acp_plan_entry_get_priority (entry), ==, ACP_PLAN_ENTRY_PRIORITY_HIGH);
  g_assert_cmpint (acp_plan_entry_get_status (entry), ==, ACP_PLAN_ENTRY_STATUS_IN_PROGRESS);
  g_object_get (entry, "priority", &priority, "status", &status, NULL);
  g_assert_cmpint (priority, ==, ACP_PLAN_ENTRY_PRIORITY_HIGH);
  g_assert_cmpint (status, ==, ACP_PLAN_ENTRY_STATUS_IN_PROGRESS);

  /* names this version does not know: kept, as UNKNOWN */
  g_assert_nonnull (newer);
  g_assert_cmpint (acp_plan_entry_get_priority (newer), ==, ACP_PLAN_ENTRY_PRIORITY_UNKNOWN);
  g_assert_cmpint (acp_plan_entry_get_status (newer), ==, ACP_PLAN_ENTRY_STATUS_UNKNOWN);

  assert_refused ((ParseFunc) _acp_plan_entry_new_from_json, invalid, G_N_ELEMENTS (invalid));

  g_assert_false (_acp_plan_entry_equal (entry, newer));
  g_assert_true (_acp_plan_entry_equal (entry, entry));
}

/* --- permission options --- */

static void
test_permission_option (void)
{
  static const struct { const char *kind; AcpPermissionOptionKind value; } kinds[] = {
    { "allow_once", ACP_PERMISSION_OPTION_KIND_ALLOW_ONCE },
    { "allow_always", ACP_PERMISSION_OPTION_KIND_ALLOW_ALWAYS },
    { "reject_once", ACP_PERMISSION_OPTION_KIND_REJECT_ONCE },
    { "reject_always", ACP_PERMISSION_OPTION_KIND_REJECT_ALWAYS },
    { "allow_for_session", ACP_PERMISSION_OPTION_KIND_UNKNOWN },
  };
  static const char * const invalid[] = {
    "{\"name\":\"Allow\",\"kind\":\"allow_once\"}",
    "{\"optionId\":\"a\",\"kind\":\"allow_once\"}",
    "{\"optionId\":\"a\",\"name\":\"Allow\"}",
    "{\"optionId\":1,\"name\":\"Allow\",\"kind\":\"allow_once\"}",
    "{\"optionId\":\"a\",\"name\":\"Allow\",\"kind\":null}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"optionId\":\"o%u\",\"name\":\"Option `%u`\","
                                               "\"kind\":\"%s\"}", i, i, kinds[i].kind);
      g_autoptr(AcpPermissionOption) option = parse ((ParseFunc) _acp_permission_option_new_from_json,
                                                     json);
      g_autofree char *id = g_strdup_printf ("o%u", i);
      g_autofree char *name = g_strdup_printf ("Option `%u`", i);
      AcpPermissionOptionKind kind;

      g_assert_nonnull (option);
      g_assert_cmpstr (acp_permission_option_get_id (option), ==, id);
      g_assert_cmpstr (acp_permission_option_get_name (option), ==, name);
      g_assert_cmpint (acp_permission_option_get_kind (option), ==, kinds[i].value);
      g_object_get (option, "kind", &kind, NULL);
      g_assert_cmpint (kind, ==, kinds[i].value);
    }

  assert_refused ((ParseFunc) _acp_permission_option_new_from_json, invalid, G_N_ELEMENTS (invalid));
}

/* --- lists --- */

static void
test_lists (void)
{
  const char *json = "[{\"path\":\"/a\"}, 3, {\"line\":2}, {\"path\":\"/b\",\"line\":2}, null]";
  g_autoptr(AcpJsonDoc) doc = acp_json_doc_new ();
  const AcpJsonValue *array = acp_json_doc_read (doc, json, strlen (json), 64, NULL);
  g_autoptr(GListModel) list = _acp_values_new_list (doc, array, ACP_TYPE_LOCATION,
                                                     (AcpValueParseFunc) _acp_location_new_from_json,
                                                     "location");
  g_autoptr(GListModel) again = _acp_values_new_list (doc, array, ACP_TYPE_LOCATION,
                                                      (AcpValueParseFunc) _acp_location_new_from_json,
                                                      "location");
  g_autoptr(GListModel) empty = _acp_values_new_empty_list (ACP_TYPE_LOCATION);
  g_autoptr(AcpLocation) second = NULL;

  /* the invalid elements are skipped, the valid ones kept in order */
  g_assert_true (g_list_model_get_item_type (list) == ACP_TYPE_LOCATION);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 2);
  second = g_list_model_get_item (list, 1);
  g_assert_cmpstr (acp_location_get_path (second), ==, "/b");
  g_assert_cmpint (acp_location_get_line (second), ==, 2);

  g_assert_true (_acp_values_list_equal (list, again, _acp_location_equal));
  g_assert_false (_acp_values_list_equal (list, empty, _acp_location_equal));
  g_assert_cmpuint (g_list_model_get_n_items (empty), ==, 0);
  g_assert_true (g_list_model_get_item_type (empty) == ACP_TYPE_LOCATION);
  /* past the end: none, as for any list model */
  g_assert_null (g_list_model_get_item (list, 2));
  g_assert_null (g_list_model_get_item (empty, 0));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/values/content-block/text", test_block_text);
  g_test_add_func ("/values/content-block/media", test_block_media);
  g_test_add_func ("/values/content-block/resources", test_block_resources);
  g_test_add_func ("/values/content-block/unknown", test_block_unknown);
  g_test_add_func ("/values/content-block/invalid", test_block_invalid);
  g_test_add_func ("/values/content-block/equal", test_block_equal);
  g_test_add_func ("/values/tool-call-content/kinds", test_tool_call_content);
  g_test_add_func ("/values/tool-call-content/invalid", test_tool_call_content_invalid);
  g_test_add_func ("/values/tool-call-content/equal", test_tool_call_content_equal);
  g_test_add_func ("/values/location", test_location);
  g_test_add_func ("/values/plan-entry", test_plan_entry);
  g_test_add_func ("/values/permission-option", test_permission_option);
  g_test_add_func ("/values/lists", test_lists);

  return g_test_run ();
}
