/* test-block-model.c: long agent messages cut into blocks, one row each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "acp-message-item.h"
#include "acp-notice-item.h"
#include "list-mirror.h"
#include "pal-block-model.h"

#define BLOCK_SIZE 64

typedef struct
{
  GListStore    *store;
  PalBlockModel *blocks;
  GPtrArray     *mirror;   /* what a list view following the model would hold */
} Fixture;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Fixture    *f)
{
  list_mirror_apply (f->mirror, model, position, removed, added);
}

/* The blocks' clock: it moves only when a test moves it, so that a block
 * streams for as long as the test says, however busy the machine is */
static gint64 fake_now = G_TIME_SPAN_SECOND;

static gint64
fake_clock (void)
{
  return fake_now;
}

static void
fixture_init (Fixture *f)
{
  f->store = g_list_store_new (G_TYPE_OBJECT);
  f->blocks = pal_block_model_new (BLOCK_SIZE);
  pal_block_model_set_clock (f->blocks, fake_clock);
  f->mirror = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (f->blocks, "items-changed", G_CALLBACK (items_changed_cb), f);
  pal_block_model_set_model (f->blocks, G_LIST_MODEL (f->store));
}

static void
fixture_clear (Fixture *f)
{
  g_clear_object (&f->blocks);
  g_clear_object (&f->store);
  g_clear_pointer (&f->mirror, g_ptr_array_unref);
}

/* A cut point: the start of a line after a blank line */
static gboolean
is_cut_point (const char *text,
              gsize       offset)
{
  return offset >= 2 && text[offset - 1] == '\n' && text[offset - 2] == '\n';
}

/* A cut in a line longer than PAL_MESSAGE_BLOCK_LONG_LINE, after a space
 * or, with no space near, between two characters */
static gboolean
is_long_line_cut (const char *text,
                  gsize       length,
                  gsize       offset)
{
  const char *line_start = g_strrstr_len (text, (gssize) offset, "\n");
  const char *line_end = memchr (text + offset, '\n', length - offset);
  gsize line_length;

  line_start = line_start != NULL ? line_start + 1 : text;
  line_end = line_end != NULL ? line_end : text + length;
  line_length = (gsize) (line_end - line_start);

  return line_length > PAL_MESSAGE_BLOCK_LONG_LINE && text + offset > line_start &&
         (text[offset - 1] == ' ' || (text[offset] & 0xC0) != 0x80);
}

/* The mirror is the model; every item has its rows, in order; an agent
 * message's blocks cover its text without gap or overlap, all but the last
 * are at least BLOCK_SIZE long and end at a cut point. Returns the number of
 * blocks of @message. */
static guint
check (Fixture        *f,
       AcpMessageItem *message)
{
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (f->blocks));
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (f->store));
  guint row = 0;
  guint n_message_blocks = 0;

  g_assert_cmpuint (f->mirror->len, ==, n_rows);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (f->blocks), n_rows));

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (f->store), i);
      gboolean agent = ACP_IS_MESSAGE_ITEM (item) &&
                       acp_message_item_get_role (ACP_MESSAGE_ITEM (item)) == ACP_MESSAGE_ROLE_AGENT;

      if (!agent)
        {
          g_autoptr(GObject) shown = g_list_model_get_item (G_LIST_MODEL (f->blocks), row);

          g_assert_true (shown == item);
          g_assert_true (g_ptr_array_index (f->mirror, row) == shown);
          row++;
          continue;
        }
      else
        {
          const char *text = acp_message_item_get_text (ACP_MESSAGE_ITEM (item));
          gsize length = strlen (text);
          gsize expected_start = 0;

          for (guint index = 0; ; index++)
            {
              g_autoptr(GObject) shown = g_list_model_get_item (G_LIST_MODEL (f->blocks), row);
              PalMessageBlock *block;
              gsize end;

              g_assert_true (PAL_IS_MESSAGE_BLOCK (shown));
              g_assert_true (g_ptr_array_index (f->mirror, row) == shown);
              block = PAL_MESSAGE_BLOCK (shown);
              g_assert_true (pal_message_block_get_item (block) == ACP_MESSAGE_ITEM (item));
              g_assert_cmpuint (pal_message_block_get_index (block), ==, index);
              g_assert_cmpuint (pal_message_block_get_start (block), ==, expected_start);
              row++;
              if (ACP_MESSAGE_ITEM (item) == message)
                n_message_blocks++;

              end = pal_message_block_get_end (block);
              if (end == G_MAXSIZE)
                break;

              g_assert_cmpuint (end, <=, length);
              g_assert_cmpuint (end - expected_start, >=, BLOCK_SIZE);
              g_assert_true (is_cut_point (text, end) || is_long_line_cut (text, length, end));
              expected_start = end;
            }
        }
    }

  g_assert_cmpuint (row, ==, n_rows);
  return n_message_blocks;
}

static void
test_streamed (void)
{
  Fixture f = { 0 };
  g_autoptr(AcpMessageItem) user = acp_message_item_new (ACP_MESSAGE_ROLE_USER, NULL);
  g_autoptr(AcpMessageItem) agent = acp_message_item_new (ACP_MESSAGE_ROLE_AGENT, NULL);
  g_autoptr(AcpNoticeItem) notice = acp_notice_item_new (ACP_NOTICE_SEVERITY_INFO, "Note", NULL, NULL);
  g_autoptr(GString) expected = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (42);
  guint blocks;

  fixture_init (&f);
  g_list_store_append (f.store, user);
  g_list_store_append (f.store, agent);
  g_list_store_append (f.store, notice);
  check (&f, agent);

  /* a long user message stays one row */
  for (guint i = 0; i < 50; i++)
    acp_message_item_append_text (user, "some words\n\n", -1);

  /* paragraphs in chunks of 1 to 7 bytes, a fenced block with blank lines
   * now and then, which is never cut */
  for (guint paragraph = 0; paragraph < 60; paragraph++)
    {
      g_autofree char *text = NULL;
      gsize done = 0;

      if (paragraph % 10 == 5)
        text = g_strdup ("```\ncode\n\n\nmore code that runs on for a while\n\n```\n\n");
      else
        text = g_strdup_printf ("Paragraph %u with *some* words in it.\n\n", paragraph);

      while (text[done] != '\0')
        {
          gsize want = (gsize) g_rand_int_range (rand, 1, 8);
          gsize n = MIN (want, strlen (text + done));

          acp_message_item_append_text (agent, text + done, (gssize) n);
          g_string_append_len (expected, text + done, (gssize) n);
          done += n;
          check (&f, agent);
        }
    }

  g_assert_cmpstr (acp_message_item_get_text (agent), ==, expected->str);
  blocks = check (&f, agent);
  g_assert_cmpuint (blocks, >=, expected->len / (BLOCK_SIZE * 2));

  /* a fenced block is never cut: no block ends inside one */
  for (guint row = 0; row < g_list_model_get_n_items (G_LIST_MODEL (f.blocks)); row++)
    {
      g_autoptr(GObject) shown = g_list_model_get_item (G_LIST_MODEL (f.blocks), row);
      gsize end;
      guint fences = 0;

      if (!PAL_IS_MESSAGE_BLOCK (shown))
        continue;
      end = pal_message_block_get_end (PAL_MESSAGE_BLOCK (shown));
      if (end == G_MAXSIZE)
        continue;
      for (const char *p = expected->str; (p = strstr (p, "```")) != NULL && (gsize) (p - expected->str) < end; p += 3)
        fences++;
      g_assert_cmpuint (fences % 2, ==, 0);
    }

  /* the whole text replaced: cut anew */
  acp_message_item_set_text (agent, "short");
  g_assert_cmpuint (check (&f, agent), ==, 1);

  g_rand_free (rand);
  fixture_clear (&f);
}

static void
test_long_at_once (void)
{
  Fixture f = { 0 };
  g_autoptr(AcpMessageItem) agent = acp_message_item_new (ACP_MESSAGE_ROLE_AGENT, NULL);
  g_autoptr(AcpMessageItem) thought = acp_message_item_new (ACP_MESSAGE_ROLE_THOUGHT, NULL);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < 100; i++)
    g_string_append_printf (text, "Line %u of a long answer.\n\n", i);
  acp_message_item_append_text (agent, text->str, -1);
  acp_message_item_append_text (thought, text->str, -1);

  /* an answer that is already long when it arrives: cut at once, into
   * blocks of about the block size, not one block and the rest */
  fixture_init (&f);
  g_list_store_append (f.store, thought);
  g_list_store_append (f.store, agent);
  g_assert_cmpuint (check (&f, agent), >=, text->len / (BLOCK_SIZE * 2));
  /* a thought is not cut */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.blocks)), ==, 1 + check (&f, agent));

  /* removed, and set on another model */
  g_list_store_remove (f.store, 1);
  check (&f, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.blocks)), ==, 1);
  pal_block_model_set_model (f.blocks, NULL);
  g_assert_cmpuint (f.mirror->len, ==, 0);

  fixture_clear (&f);
}

static PalMessageBlock *block_at (Fixture *f,
                                  guint    row);

/* A line that never ends is cut into blocks of about
 * PAL_MESSAGE_BLOCK_LONG_LINE, after a space where there is one and never
 * inside a character; a long line in a code fence is not cut */
static void
test_long_line (void)
{
  Fixture f = { 0 };
  g_autoptr(AcpMessageItem) agent = acp_message_item_new (ACP_MESSAGE_ROLE_AGENT, NULL);
  g_autoptr(GString) chunk = g_string_new (NULL);
  gsize spaced_end, unspaced_start;
  guint n_rows;

  fixture_init (&f);
  g_list_store_append (f.store, agent);

  /* words, streamed in chunks of about 1 KiB */
  while (chunk->len < 1000)
    g_string_append (chunk, "words of a line without end ");
  for (guint i = 0; i < 300; i++)
    acp_message_item_append_text (agent, chunk->str, -1);
  spaced_end = acp_message_item_get_text_length (agent);
  g_assert_cmpuint (check (&f, agent), >=, spaced_end / PAL_MESSAGE_BLOCK_LONG_LINE);

  for (guint row = 0; row + 1 < g_list_model_get_n_items (G_LIST_MODEL (f.blocks)); row++)
    {
      PalMessageBlock *block = block_at (&f, row);
      gsize start = pal_message_block_get_start (block);
      gsize end = pal_message_block_get_end (block);

      g_assert_cmpuint (end - start, <=, PAL_MESSAGE_BLOCK_LONG_LINE);
      g_assert_cmpuint (end - start, >, PAL_MESSAGE_BLOCK_LONG_LINE * 3 / 4);
      g_assert_cmpint (acp_message_item_get_text (agent)[end - 1], ==, ' ');
    }

  /* no space at all, in characters of two bytes */
  unspaced_start = spaced_end;
  for (guint i = 0; i < 100000; i++)
    acp_message_item_append_text (agent, "\xc3\xa9", -1);
  check (&f, agent);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (f.blocks));
  g_assert_cmpuint (pal_message_block_get_start (block_at (&f, n_rows - 1)), >, unspaced_start);

  /* a new paragraph, then a fence around a line as long: one block for it */
  acp_message_item_append_text (agent, "\n\n```\n", -1);
  for (guint i = 0; i < 200; i++)
    acp_message_item_append_text (agent, chunk->str, -1);
  check (&f, agent);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.blocks)), ==, n_rows + 1);
  acp_message_item_append_text (agent, "\n```\n\nAfter the fence.", -1);
  check (&f, agent);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.blocks)), ==, n_rows + 2);

  fixture_clear (&f);
}

static PalMessageBlock *
block_at (Fixture *f,
          guint    row)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (f->blocks), row);

  g_assert_true (PAL_IS_MESSAGE_BLOCK (item));
  return PAL_MESSAGE_BLOCK (item);   /* the model holds it */
}

/* A block is streaming while text reaches it; text that was in the
 * transcript before the model saw it never is */
static void
test_streaming (void)
{
  Fixture f = { 0 };
  g_autoptr(AcpMessageItem) agent = acp_message_item_new (ACP_MESSAGE_ROLE_AGENT, NULL);
  g_autoptr(AcpMessageItem) earlier = acp_message_item_new (ACP_MESSAGE_ROLE_AGENT, NULL);
  guint n_rows;

  for (guint i = 0; i < 10; i++)
    acp_message_item_append_text (earlier, "An answer given before this model was made.\n\n", -1);
  fixture_init (&f);

  /* there before the model saw it */
  pal_block_model_set_model (f.blocks, NULL);
  g_list_store_append (f.store, earlier);
  pal_block_model_set_model (f.blocks, G_LIST_MODEL (f.store));
  check (&f, earlier);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (f.blocks));
  g_assert_cmpuint (n_rows, >, 1);
  for (guint row = 0; row < n_rows; row++)
    g_assert_false (pal_message_block_is_streaming (block_at (&f, row)));

  /* a new answer streams in: its blocks are streaming for
   * PAL_MESSAGE_BLOCK_STREAMING_US after the text reached them, then no more */
  g_list_store_append (f.store, agent);
  g_assert_true (pal_message_block_is_streaming (block_at (&f, n_rows)));
  for (guint i = 0; i < 6; i++)
    acp_message_item_append_text (agent, "Streamed words of a new answer.\n\n", -1);
  g_assert_cmpuint (check (&f, agent), >, 1);
  fake_now += PAL_MESSAGE_BLOCK_STREAMING_US - 1;
  for (guint row = n_rows; row < g_list_model_get_n_items (G_LIST_MODEL (f.blocks)); row++)
    g_assert_true (pal_message_block_is_streaming (block_at (&f, row)));
  fake_now += 1;
  for (guint row = 0; row < g_list_model_get_n_items (G_LIST_MODEL (f.blocks)); row++)
    g_assert_false (pal_message_block_is_streaming (block_at (&f, row)));

  /* more of it: the last block is streaming again, the closed ones not */
  acp_message_item_append_text (agent, "A few more", -1);
  g_assert_true (pal_message_block_is_streaming (block_at (&f, g_list_model_get_n_items (G_LIST_MODEL (f.blocks)) - 1)));
  g_assert_false (pal_message_block_is_streaming (block_at (&f, n_rows)));

  fixture_clear (&f);
}

/* Items inserted in front of the others (a history's earlier turns) and
 * between them get their rows in place, and the blocks of answers put in
 * front were there before: they are not streaming */
static void
test_inserted (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) earlier = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AcpNoticeItem) between = acp_notice_item_new (ACP_NOTICE_SEVERITY_INFO, "Between", NULL, NULL);
  g_autoptr(AcpMessageItem) last = acp_message_item_new (ACP_MESSAGE_ROLE_AGENT, NULL);
  guint n_earlier_rows;

  fixture_init (&f);
  acp_message_item_append_text (last, "The last answer.", -1);
  g_list_store_append (f.store, last);

  for (guint i = 0; i < 40; i++)
    {
      if (i % 2 == 0)
        {
          AcpMessageItem *answer = acp_message_item_new (ACP_MESSAGE_ROLE_AGENT, NULL);

          for (guint j = 0; j < 3; j++)
            acp_message_item_append_text (answer, "An earlier answer, of a few blocks.\n\n", -1);
          g_ptr_array_add (earlier, answer);
        }
      else
        {
          g_ptr_array_add (earlier, acp_notice_item_new (ACP_NOTICE_SEVERITY_INFO, "Earlier", NULL, NULL));
        }
    }
  g_list_store_splice (f.store, 0, 0, earlier->pdata, earlier->len);
  check (&f, NULL);
  n_earlier_rows = g_list_model_get_n_items (G_LIST_MODEL (f.blocks)) - 1;
  g_assert_cmpuint (n_earlier_rows, >, 40);
  for (guint row = 0; row < n_earlier_rows; row++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (f.blocks), row);

      if (PAL_IS_MESSAGE_BLOCK (item))
        g_assert_false (pal_message_block_is_streaming (PAL_MESSAGE_BLOCK (item)));
    }

  g_list_store_insert (f.store, 7, between);
  check (&f, NULL);

  fixture_clear (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/block-model/streamed", test_streamed);
  g_test_add_func ("/block-model/long-at-once", test_long_at_once);
  g_test_add_func ("/block-model/streaming", test_streaming);
  g_test_add_func ("/block-model/long-line", test_long_line);
  g_test_add_func ("/block-model/inserted", test_inserted);

  return g_test_run ();
}
